// SPDX-License-Identifier: GPL-2.0-only
/*
 * --html FILE: one self-contained page (inline CSS and SVG, no scripts, no
 * external resources) with the verdict tables, frame-time CDF plots per
 * workload (linear and a log tail view, one curve per kept run), box plots
 * of the lows (or of an external workload's figures), and the run log.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gamesuite.h"
#include "html.h"
#include "outfmt.h"
#include "outfile.h"
#include "stats.h"
#include "util.h"
#include "workload.h"

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c",
				       "#9467bd", "#ff7f0e", "#17becf",
				       "#8c564b", "#e377c2" };

static const char *color(int s)
{
	return palette[s % (int)ARRAY_SIZE(palette)];
}

static void esc(FILE *f, const char *s)
{
	gs_html_esc(f, s);
}

static void num(FILE *f, double v)
{
	char b[32];

	gsu_fmt_num(b, sizeof(b), v);
	fputs(b, f);
}

/* ---- SVG helpers ----------------------------------------------------- */

#define PW 460 /* plot size */
#define PH 260
#define ML 56  /* margins */
#define MR 12
#define MT 26
#define MB 40

struct axis {
	double lo, hi;
	int px0, px1; /* pixel range */
};

static double ax_map(const struct axis *a, double v)
{
	if (a->hi <= a->lo)
		return (a->px0 + a->px1) / 2.0;
	return a->px0 + (v - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

static double nice_step(double range)
{
	double raw = range / 5, mag, n;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	n = raw / mag;
	return (n < 1.5 ? 1 : n < 3.5 ? 2 : n < 7.5 ? 5 : 10) * mag;
}

static void pad_range(double *lo, double *hi)
{
	double d = *hi - *lo;

	if (!(d > 0))
		d = fabs(*hi) > 0 ? fabs(*hi) * 0.1 : 1;
	*lo -= d * 0.06;
	*hi += d * 0.06;
}

static void svg_open(FILE *f, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
		PW, PH, PW, PH);
	esc(f, title);
	fprintf(f, "</title><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>",
		PW, PH);
	fprintf(f, "<text x=\"%d\" y=\"16\" class=\"t\">", ML);
	esc(f, title);
	fputs("</text>", f);
}

/* x axis with numeric ticks */
static void x_ticks(FILE *f, const struct axis *x, const char *label)
{
	double st = nice_step(x->hi - x->lo);

	for (double v = ceil(x->lo / st) * st; v <= x->hi + st * 1e-9; v += st) {
		double px = ax_map(x, v);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"class=\"g\"/><text x=\"%.1f\" y=\"%d\" class=\"tk\" "
			"text-anchor=\"middle\">%g</text>", px, MT, px,
			PH - MB, px, PH - MB + 14, fabs(v) < st * 1e-6 ? 0 : v);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"al\" "
		"text-anchor=\"middle\">", (ML + PW - MR) / 2, PH - 6);
	esc(f, label);
	fputs("</text>", f);
}

static void y_ticks(FILE *f, const struct axis *y, const char *label)
{
	double st = nice_step(y->hi - y->lo);

	for (double v = ceil(y->lo / st) * st; v <= y->hi + st * 1e-9; v += st) {
		double py = ax_map(y, v);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"class=\"g\"/><text x=\"%d\" y=\"%.1f\" class=\"tk\" "
			"text-anchor=\"end\">%g</text>", ML, py, PW - MR, py,
			ML - 4, py + 4, fabs(v) < st * 1e-6 ? 0 : v);
	}
	fprintf(f, "<text transform=\"translate(12 %d) rotate(-90)\" "
		"class=\"al\" text-anchor=\"middle\">", (MT + PH - MB) / 2);
	esc(f, label);
	fputs("</text>", f);
}

static void frame_box(FILE *f)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#888\"/>", ML, MT, PW - ML - MR,
		PH - MT - MB);
}

static void legend(FILE *f, const struct gsu_results *r, int x0, int y0)
{
	for (int s = 0; s < r->nsched; s++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"tk\">",
			x0, y0 + s * 14, color(s), x0 + 14, y0 + s * 14 + 9);
		esc(f, r->sched[s].label);
		fputs("</text>", f);
	}
}

/* ---- plots ------------------------------------------------------------ */

/* tail: y = -log10(1 - p), 0 .. 3 (P0 .. P99.9) */
static double tail_y(double p)
{
	return -log10(fmax(1.0 - p, 1e-3));
}

static void cdf_plot(FILE *f, const struct gsu_results *r, int w, bool tail)
{
	struct axis x = { INFINITY, -INFINITY, ML, PW - MR };
	struct axis y = { 0, tail ? 3 : 1, PH - MB, MT };
	int curves = 0;

	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		if (run->workload != w || !gsu_run_kept(run) || !run->curve)
			continue;
		x.lo = fmin(x.lo, run->curve[0]);
		x.hi = fmax(x.hi, run->curve[GSU_CURVE_N - 1]);
		curves++;
	}
	if (!curves)
		return;
	pad_range(&x.lo, &x.hi);
	if (x.lo < 0)
		x.lo = 0;
	svg_open(f, tail ? "frame-time percentiles, tail (log scale)"
			 : "frame-time CDF");
	x_ticks(f, &x, "frame time (ms)");
	if (tail) {
		static const char *const lab[] = { "0", "90", "99", "99.9" };

		for (int k = 0; k <= 3; k++) {
			double py = ax_map(&y, k);

			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
				"y2=\"%.1f\" class=\"g\"/><text x=\"%d\" "
				"y=\"%.1f\" class=\"tk\" text-anchor=\"end\">"
				"%s</text>", ML, py, PW - MR, py, ML - 4,
				py + 4, lab[k]);
		}
		fprintf(f, "<text transform=\"translate(12 %d) rotate(-90)\" "
			"class=\"al\" text-anchor=\"middle\">percentile of "
			"frames</text>", (MT + PH - MB) / 2);
	} else {
		y_ticks(f, &y, "fraction of frames");
	}
	frame_box(f);
	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		if (run->workload != w || !gsu_run_kept(run) || !run->curve)
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.3\" stroke-opacity=\"0.7\" points=\"",
			color(run->sched));
		for (int k = 0; k < GSU_CURVE_N; k++) {
			double p = gsu_curve_p(k);

			fprintf(f, "%.1f,%.1f ", ax_map(&x, run->curve[k]),
				ax_map(&y, tail ? tail_y(p) : p));
		}
		fprintf(f, "\"><title>run %d, ", run->index);
		esc(f, r->sched[run->sched].label);
		fputs("</title></polyline>", f);
	}
	legend(f, r, tail ? ML + 8 : PW - MR - 150, MT + 8);
	fputs("</svg>\n", f);
}

/* "higher is better", "lower is better", or "informational, no verdict" */
static const char *direction(const struct gsu_metric_def *d)
{
	return d->informational ? "informational, no verdict"
	       : d->higher_better ? "higher is better" : "lower is better";
}

static void box_plot(FILE *f, const struct gsu_results *r,
		     const struct gsu_table *t, int w, int m,
		     const struct gsu_metric_def *def)
{
	struct axis y = { INFINITY, -INFINITY, PH - MB, MT };
	char title[160];
	int any = 0, ns = r->nsched;
	double slot;

	for (int s = 0; s < ns; s++) {
		const struct gsu_cell *c = gsu_table_cell(t, w, m, s);

		for (size_t i = 0; i < c->n; i++) {
			y.lo = fmin(y.lo, c->values[i]);
			y.hi = fmax(y.hi, c->values[i]);
			any = 1;
		}
	}
	if (!any)
		return;
	pad_range(&y.lo, &y.hi);
	snprintf(title, sizeof(title), "%s (%s, %s)", def->name, def->unit,
		 direction(def));
	svg_open(f, title);
	y_ticks(f, &y, def->unit);
	frame_box(f);
	slot = (double)(PW - ML - MR) / ns;
	for (int s = 0; s < ns; s++) {
		const struct gsu_cell *c = gsu_table_cell(t, w, m, s);
		double cx = ML + slot * (s + 0.5), bw = fmin(slot * 0.5, 60);
		double *v, q1, q3, med;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tk\" "
			"text-anchor=\"middle\">", cx, PH - MB + 14);
		esc(f, r->sched[s].label);
		fputs("</text>", f);
		if (!c->n)
			continue;
		v = malloc(c->n * sizeof(*v));
		if (!v)
			continue;
		memcpy(v, c->values, c->n * sizeof(*v));
		gs_sort_doubles(v, c->n);
		q1 = gs_pct_linear(v, c->n, 25);
		q3 = gs_pct_linear(v, c->n, 75);
		med = gs_pct_linear(v, c->n, 50);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"%s\"/>", cx, ax_map(&y, v[0]), cx,
			ax_map(&y, v[c->n - 1]), color(s));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.25\" "
			"stroke=\"%s\"/>", cx - bw / 2, ax_map(&y, q3), bw,
			fmax(ax_map(&y, q1) - ax_map(&y, q3), 0.5), color(s),
			color(s));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>",
			cx - bw / 2, ax_map(&y, med), cx + bw / 2,
			ax_map(&y, med), color(s));
		for (size_t i = 0; i < c->n; i++) /* the runs, spread */
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
				"fill=\"%s\"/>",
				cx + bw * 0.7 + (double)(i % 5) * 3,
				ax_map(&y, c->values[i]), color(s));
		free(v);
	}
	fputs("</svg>\n", f);
}

/* ---- page ---------------------------------------------------------------- */

static const char css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;"
	"max-width:1400px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:"
	"1px solid #ccc}"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid "
	"#ddd;padding:3px 7px;text-align:right;vertical-align:top}"
	"th{background:#f4f4f4}td.l,th.l{text-align:left}"
	".better{background:#d7f5d7}.worse{background:#fadada}"
	".same{background:#f3f3f3}.bad{color:#a00}.dim{color:#888}"
	".plots svg{margin:4px 8px 4px 0;border:1px solid #eee}"
	"svg .t{font:bold 13px sans-serif}svg .tk{font:11px sans-serif;"
	"fill:#333}svg .al{font:12px sans-serif;fill:#333}"
	"svg .g{stroke:#eee}.sw{display:inline-block;width:12px;height:12px;"
	"margin-right:4px;vertical-align:middle}"
	"table.log td{font-size:12px}";

static void verdict_table(FILE *f, const struct gsu_results *r,
			  const struct gsu_table *t, int w)
{
	const struct gsu_metric_def *defs;
	size_t nm = gsu_kind_metrics(r->suite->w[w].kind, &defs);

	fputs("<table><tr><th class=\"l\">metric</th><th class=\"l\">"
	      "scheduler</th><th>runs</th><th>median</th><th>interval</th>"
	      "<th>ratio to baseline</th><th>interval</th><th>p</th>"
	      "<th class=\"l\">verdict</th></tr>\n", f);
	for (size_t m = 0; m < nm; m++) {
		for (int s = 0; s < r->nsched; s++) {
			const struct gsu_cell *c = gsu_table_cell(t, w, (int)m, s);
			const char *v = gsu_verdict_name(c->verdict);

			fputs("<tr>", f);
			if (s == 0) {
				fprintf(f, "<td class=\"l\" rowspan=\"%d\" "
					"title=\"", r->nsched);
				esc(f, defs[m].desc);
				fprintf(f, "\">%s<br><span class=\"dim\">%s, "
					"%s</span></td>",
					defs[m].name, defs[m].unit,
					direction(&defs[m]));
			}
			fprintf(f, "<td class=\"l\"><span class=\"sw\" "
				"style=\"background:%s\"></span>", color(s));
			esc(f, r->sched[s].label);
			fprintf(f, "</td><td>%zu</td><td>", c->n);
			num(f, c->median);
			fputs("</td><td>", f);
			if (c->n) {
				fputc('[', f);
				num(f, c->lo);
				fputs(", ", f);
				num(f, c->hi);
				fputc(']', f);
			}
			fputs("</td>", f);
			if (s == 0 || !c->n || isnan(c->ratio)) {
				fprintf(f, "<td></td><td></td><td></td><td "
					"class=\"l\">%s</td></tr>\n",
					s == 0 ? (c->n ? "baseline" : "no data")
					       : v);
				continue;
			}
			fprintf(f, "<td>%.3f</td><td>[%.3f, %.3f]</td>"
				"<td>%.3g</td><td class=\"l %s\">%s%s</td>"
				"</tr>\n", c->ratio, c->ratio_lo, c->ratio_hi,
				c->p_value, v, v,
				c->resolvable || c->verdict == GSU_INFORMATIONAL
					? "" : " (too few runs)");
		}
	}
	fputs("</table>\n", f);
}

static void snap_cell(FILE *f, const struct gs_scx *s)
{
	fputs("<td class=\"l\">", f);
	if (!s->present) {
		fputs("absent", f);
	} else {
		esc(f, s->state);
		if (s->ops[0]) {
			fputc(' ', f);
			esc(f, s->ops);
		}
		if (s->enable_seq >= 0)
			fprintf(f, " #%lld", s->enable_seq);
	}
	fputs("</td>", f);
}

static void run_log(FILE *f, const struct gsu_results *r)
{
	fputs("<table class=\"log\"><tr><th>#</th><th class=\"l\">workload"
	      "</th><th class=\"l\">scheduler</th><th>round</th><th>try</th>"
	      "<th class=\"l\">status</th><th>load avg</th><th>busy before"
	      "</th><th>other CPU</th><th>probe ms</th><th class=\"l\">"
	      "sched_ext before</th><th class=\"l\">after</th><th>load s"
	      "</th><th>wall s</th><th>first metric</th><th class=\"l\">"
	      "reason</th></tr>\n", f);
	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];
		bool ok = run->status == GSU_RUN_OK;

		fprintf(f, "<tr><td>%d</td><td class=\"l\">", run->index);
		esc(f, r->suite->w[run->workload].name);
		fputs("</td><td class=\"l\">", f);
		esc(f, r->sched[run->sched].label);
		fprintf(f, "</td><td>%d%s</td><td>%d</td><td class=\"l%s\">%s",
			run->round + 1, run->warmup ? " (warm-up)" : "",
			run->attempt, ok ? "" : " bad",
			gsu_run_status_name(run->status));
		if (run->disturbed && ok)
			fputs(" (disturbed, kept)", f);
		fputs("</td><td>", f);
		num(f, run->loadavg1);
		fputs("</td><td>", f);
		if (!isnan(run->busy_before))
			fprintf(f, "%.0f %%", 100 * run->busy_before);
		fputs("</td><td>", f);
		if (!isnan(run->other_cpu))
			fprintf(f, "%.0f %%", 100 * run->other_cpu);
		fputs("</td><td>", f);
		num(f, run->probe_ms_before);
		fputs(" / ", f);
		num(f, run->probe_ms_after);
		fputs("</td>", f);
		snap_cell(f, &run->scx_before);
		snap_cell(f, &run->scx_after);
		fputs("<td>", f);
		num(f, run->load_s);
		fputs("</td><td>", f);
		num(f, run->wall_s);
		fputs("</td><td>", f);
		num(f, run->metrics[0]);
		fputs("</td><td class=\"l\">", f);
		esc(f, run->reason);
		if (run->log_tail[0]) {
			fputs("<pre>", f);
			esc(f, run->log_tail);
			fputs("</pre>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* the schedulers, and what became of the runs */
static void html_schedulers(FILE *f, const struct gsu_results *r,
			    const struct gsu_counts *c)
{
	fputs("<h2>Schedulers</h2>\n<table><tr><th class=\"l\">name</th>"
	      "<th class=\"l\">command</th><th class=\"l\">expected ops</th>"
	      "<th class=\"l\">status</th></tr>\n", f);
	for (int s = 0; s < r->nsched; s++) {
		const struct gsu_sched *sc = &r->sched[s];

		fprintf(f, "<tr><td class=\"l\"><span class=\"sw\" style=\""
			"background:%s\"></span>", color(s));
		esc(f, sc->label);
		fprintf(f, "%s</td><td class=\"l\"><code>",
			s == 0 ? " (baseline)" : "");
		esc(f, sc->is_default ? "(kernel default)" : sc->command);
		fputs("</code></td><td class=\"l\">", f);
		esc(f, sc->expected_ops);
		fprintf(f, "</td><td class=\"l%s\">%s", sc->status ? " bad" : "",
			gsu_sched_status_name(sc->status));
		if (sc->note[0]) {
			fputs(": ", f);
			esc(f, sc->note);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	{
		char sum[600];

		gsu_summary_sentence(r, c, sum, sizeof(sum));
		fputs("<p>", f);
		esc(f, sum);
		fputs("</p>\n", f);
		gsu_discard_bias(r, sum, sizeof(sum));
		if (sum[0]) {
			fputs("<p class=\"bad\"><b>Warning</b>: ", f);
			esc(f, sum);
			fputs("</p>\n", f);
		}
	}
}

/* per workload: the verdicts and the plots */
static void html_workloads(FILE *f, const struct gsu_results *r,
			   const struct gsu_table *t)
{
	const struct gsu_suite *su = r->suite;

	for (int w = 0; w < su->nw; w++) {
		const struct gsu_workload *wl = &su->w[w];
		const struct gsu_metric_def *defs;
		size_t nm = gsu_kind_metrics(wl->kind, &defs);
		char desc[600];

		gsu_describe_workload(su, wl, desc, sizeof(desc));
		fputs("<h2>Workload ", f);
		esc(f, wl->name);
		fputs("</h2>\n<p>", f);
		esc(f, desc);
		fputs("</p>\n", f);
		if (!wl->available) {
			fputs("<p class=\"bad\">Skipped: ", f);
			esc(f, wl->skip_reason);
			fputs("</p>\n", f);
			continue;
		}
		if (gsu_kind_has_frames(wl->kind) && gsu_min_frames(r, w))
			fprintf(f, "<p>Frames per kept run: at least %zu%s</p>\n",
				gsu_min_frames(r, w),
				gsu_min_frames(r, w) < 1000
				? " <span class=\"bad\">(under 1000: each 0.1 % "
				  "low rests on less than one frame)</span>" : "");
		verdict_table(f, r, t, w);
		fputs("<div class=\"plots\">\n", f);
		if (gsu_kind_has_frames(wl->kind)) {
			static const int lows[] = {
				GSU_M_LOW1_PCT, GSU_M_LOW1_AVG, GSU_M_LOW1_INT,
				GSU_M_LOW01_PCT, GSU_M_LOW01_AVG
			};

			cdf_plot(f, r, w, false);
			cdf_plot(f, r, w, true);
			fputs("<br>\n", f);
			box_plot(f, r, t, w, GSU_M_AVG_FPS, &defs[GSU_M_AVG_FPS]);
			for (size_t i = 0; i < ARRAY_SIZE(lows); i++)
				box_plot(f, r, t, w, lows[i], &defs[lows[i]]);
		} else {
			for (size_t m = 0; m < nm; m++)
				box_plot(f, r, t, w, (int)m, &defs[m]);
		}
		fputs("</div>\n", f);
	}
}

static int write_html(FILE *f, const void *ctx)
{
	const struct gsu_results *r = ((const struct gsu_out *)ctx)->r;
	const struct gsu_table *t = ((const struct gsu_out *)ctx)->t;
	const struct gsu_suite *su = r->suite;
	struct gsu_counts c;
	char when[64] = "";
	time_t now = (time_t)r->started_epoch;
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	gsu_count(r, &c);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>gamesuite: ", f);
	esc(f, su->name);
	fprintf(f, "</title><style>%s</style></head><body>\n", css);
	fputs("<h1>gamesuite report: ", f);
	esc(f, su->name);
	fputs("</h1>\n<p>", f);
	fprintf(f, "Started %s; suite file <code>", when);
	esc(f, su->path);
	fprintf(f, "</code>; %d measured + %d warm-up run(s) per scheduler and "
		"workload, interleaved%s; %.3g s cool-down; %.0f %% confidence "
		"(bootstrap %u resamples, two-sided Mann-Whitney U).</p>\n",
		su->repeat, su->warmup, r->set.rotate ? " and rotated" : "",
		(double)su->cooldown_ns / 1e9, 100 * r->set.confidence,
		r->set.bootstrap_iters);
	fputs("<p>Machine: ", f);
	esc(f, r->machine.kernel);
	fputc(' ', f);
	esc(f, r->machine.machine);
	fputs(", ", f);
	esc(f, r->machine.cpu_model);
	fprintf(f, ", %d CPUs, governor ", r->machine.ncpus);
	esc(f, r->machine.governor[0] ? r->machine.governor : "none");
	fprintf(f, ", sched_ext %s.</p>\n",
		r->machine.scx.present ? "present" : "absent");
	if (r->interrupted)
		fputs("<p class=\"bad\"><b>Interrupted</b>: this report holds "
		      "what was measured before the signal.</p>\n", f);
	if (!r->machine_restored)
		fputs("<p class=\"bad\"><b>A scheduler could not be unloaded"
		      "</b>: the machine may not be on its default scheduler."
		      "</p>\n", f);

	html_schedulers(f, r, &c);
	html_workloads(f, r, t);
	fputs("<h2>Run log</h2>\n<p>Machine state per run: 1-minute load "
	      "average and CPU busy share just before the run, the share of "
	      "all CPUs used by other processes during it, a fixed-work probe "
	      "before / after (ms), and /sys/kernel/sched_ext (state, ops, "
	      "enable_seq) before and after.</p>\n", f);
	run_log(f, r);
	fputs("<h2>Definitions</h2>\n<ul>"
	      "<li>percentile low: 1000 / P99 (P99.9) of frame times, nearest "
	      "rank</li><li>average low: 1000 / mean of the slowest 1 % "
	      "(0.1 %) of frames</li><li>integral low: frame times sorted "
	      "slowest first, accumulated until they reach 1 % of the total "
	      "time (RTSS)</li><li>ratio: median of the scheduler / median of "
	      "the baseline, with a percentile-bootstrap interval</li>"
	      "<li>verdict: better or worse when the Mann-Whitney p-value is "
	      "below 1 - confidence and the ratio interval excludes 1, in the "
	      "metric's direction; otherwise same (no difference shown)</li>"
	      "</ul>\n</body></html>\n", f);
	return 0;
}

int gsu_out_html(const char *path, const struct gsu_results *r,
		 const struct gsu_table *t)
{
	struct gsu_out o = { r, t };

	return gs_write_output("--html", path, write_html, &o);
}
