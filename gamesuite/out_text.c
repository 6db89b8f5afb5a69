// SPDX-License-Identifier: GPL-2.0-only
/* The terminal table: one block per workload, one line per metric and
 * scheduler, then the run summary. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gamesuite.h"
#include "outfmt.h"
#include "suite.h"
#include "workload.h"

void gsu_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 10000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

void gsu_summary_sentence(const struct gsu_results *r,
			  const struct gsu_counts *c, char *buf, size_t len)
{
	size_t o;

	o = (size_t)snprintf(buf, len,
			     "runs: %d for %d planned slots (%d repeats): %d "
			     "warm-up (discarded), %d measured, %d kept for the "
			     "statistics", c->runs, r->planned, c->repeated,
			     c->warmup_done, c->measured, c->kept);
	if (r->skipped && o < len)
		o += (size_t)snprintf(buf + o, len - o,
				      "; %d skipped (scheduler given up)",
				      r->skipped);
	if (o < len)
		snprintf(buf + o, len - o,
			 ". Discarded: %d disturbed, %d wrong scheduler, %d "
			 "scheduler ejected, %d scheduler failed to load, %d "
			 "workload failed, %d timed out, %d interrupted.",
			 c->by_status[GSU_RUN_DISTURBED],
			 c->by_status[GSU_RUN_WRONG_SCHED],
			 c->by_status[GSU_RUN_EJECTED],
			 c->by_status[GSU_RUN_LOAD_FAILED],
			 c->by_status[GSU_RUN_CRASHED],
			 c->by_status[GSU_RUN_TIMEOUT],
			 c->by_status[GSU_RUN_INTERRUPTED]);
}

void gsu_describe_workload(const struct gsu_suite *s,
			   const struct gsu_workload *w, char *buf, size_t len)
{
	size_t o = 0;

	o += (size_t)snprintf(buf + o, len - o, "%s", gsu_kind_name(w->kind));
	if (w->kind == GSU_FRAMEBENCH) {
		o += (size_t)snprintf(buf + o, len - o, ", profile %s",
				      w->profile[0] ? w->profile : "(default)");
		for (int i = 0; i < w->nbg && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      i ? " + " : ", bg ", w->bg[i]);
		if (w->fps >= 0 && o < len)
			o += (size_t)snprintf(buf + o, len - o, ", fps %d",
					      w->fps);
	} else if (w->kind == GSU_GAME && o < len) {
		o += (size_t)snprintf(buf + o, len - o, ": %s", w->command);
	}
	for (int i = 0; i < w->nargs && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
				      i ? " " : ", args ", w->args[i]);
	if (o < len && w->kind != GSU_PERF_MESSAGING)
		snprintf(buf + o, len - o, ", %.3g s",
			 (double)gsu_workload_duration(s, w) / 1e9);
}

static void print_cell(FILE *f, const struct gsu_cell *c, bool base,
		       const char *label, const char *metric, bool first)
{
	char med[32], lo[32], hi[32], r[32], rlo[32], rhi[32];

	fprintf(f, "  %-30s %-20s", first ? metric : "", label);
	if (!c->n) {
		fprintf(f, " %3s  %s\n", "0", "no data");
		return;
	}
	gsu_fmt_num(med, sizeof(med), c->median);
	gsu_fmt_num(lo, sizeof(lo), c->lo);
	gsu_fmt_num(hi, sizeof(hi), c->hi);
	fprintf(f, " %3zu %9s  [%s, %s]", c->n, med, lo, hi);
	if (base) {
		fprintf(f, "  baseline\n");
		return;
	}
	if (isnan(c->ratio)) {
		fprintf(f, "  %s\n", gsu_verdict_name(c->verdict));
		return;
	}
	snprintf(r, sizeof(r), "%.3f", c->ratio);
	snprintf(rlo, sizeof(rlo), "%.3f", c->ratio_lo);
	snprintf(rhi, sizeof(rhi), "%.3f", c->ratio_hi);
	fprintf(f, "  x%s [%s, %s]  p=%.3g  %s%s\n", r, rlo, rhi, c->p_value,
		gsu_verdict_name(c->verdict),
		c->resolvable || c->verdict == GSU_INFORMATIONAL
			? "" : " (too few runs to decide)");
}

/* The last n non-empty lines of a log tail, indented. */
static void print_tail(FILE *f, const char *tail, int n)
{
	const char *starts[8];
	int k = 0;

	if (n > 8)
		n = 8;
	for (const char *l = tail; l && *l;) {
		const char *nl = strchr(l, '\n');

		if (nl != l) {
			if (k == n) {
				memmove(starts, starts + 1,
					(size_t)(n - 1) * sizeof(*starts));
				k--;
			}
			starts[k++] = l;
		}
		l = nl ? nl + 1 : NULL;
	}
	for (int i = 0; i < k; i++) {
		const char *nl = strchr(starts[i], '\n');
		int len = nl ? (int)(nl - starts[i]) : (int)strlen(starts[i]);

		fprintf(f, "      | %.*s\n", len, starts[i]);
	}
}

/* the suite, the machine and the schedulers */
static void text_head(FILE *f, const struct gsu_results *r)
{
	const struct gsu_suite *su = r->suite;

	fprintf(f, "\ngamesuite %s: suite '%s' (%s): %d workload%s, %d "
		"scheduler%s, %d run%s + %d warm-up per scheduler, %.0f %% "
		"confidence\n", GSU_VERSION, su->name, su->path, su->nw,
		su->nw == 1 ? "" : "s", r->nsched, r->nsched == 1 ? "" : "s",
		su->repeat, su->repeat == 1 ? "" : "s", su->warmup,
		100 * r->set.confidence);
	fprintf(f, "machine: %s %s, %s, %d CPUs, governor %s, sched_ext %s\n",
		r->machine.kernel, r->machine.machine,
		r->machine.cpu_model[0] ? r->machine.cpu_model : "?",
		r->machine.ncpus,
		r->machine.governor[0] ? r->machine.governor : "-",
		!r->machine.scx.present ? "absent"
		: r->machine.scx.state[0] ? r->machine.scx.state : "?");
	for (int s = 0; s < r->nsched; s++) {
		const struct gsu_sched *sc = &r->sched[s];

		fprintf(f, "scheduler %d: %s%s", s + 1, sc->label,
			s == 0 ? " (baseline)" : "");
		if (sc->is_default)
			fprintf(f, ": kernel default, no sched_ext scheduler");
		else
			fprintf(f, ": '%s', expects ops '%s'", sc->command,
				sc->expected_ops);
		if (sc->status != GSU_SCHED_OK)
			fprintf(f, "\n    %s: %s", gsu_sched_status_name(sc->status),
				sc->note);
		fputc('\n', f);
	}
}

void gsu_out_text(FILE *f, const struct gsu_results *r,
		  const struct gsu_table *t)
{
	const struct gsu_suite *su = r->suite;
	struct gsu_counts c;
	int better = 0, worse = 0, same = 0;

	text_head(f, r);
	for (int w = 0; w < su->nw; w++) {
		const struct gsu_workload *wl = &su->w[w];
		const struct gsu_metric_def *defs;
		size_t nm = gsu_kind_metrics(wl->kind, &defs);
		char desc[600];

		gsu_describe_workload(su, wl, desc, sizeof(desc));
		fprintf(f, "\n== %s: %s\n", wl->name, desc);
		if (!wl->available) {
			fprintf(f, "  skipped: %s\n", wl->skip_reason);
			continue;
		}
		if (gsu_kind_has_frames(wl->kind) && gsu_min_frames(r, w)) {
			size_t fr = gsu_min_frames(r, w);

			fprintf(f, "  frames per kept run: at least %zu%s\n", fr,
				fr < 1000 ? " (under 1000: each 0.1 % low rests "
					    "on less than one frame)" : "");
		}
		fprintf(f, "  %-30s %-20s %3s %9s  %-20s  %s\n", "metric",
			"scheduler", "n", "median",
			r->set.confidence == 0.95 ? "95 % interval" : "interval",
			"ratio to baseline [interval]  p  verdict");
		for (size_t m = 0; m < nm; m++) {
			char metric[64];

			snprintf(metric, sizeof(metric), "%s (%s)", defs[m].name,
				 defs[m].informational ? "info"
				 : gsu_metric_better(&defs[m]));
			for (int s = 0; s < r->nsched; s++) {
				const struct gsu_cell *cell =
					gsu_table_cell(t, w, (int)m, s);

				print_cell(f, cell, s == 0, r->sched[s].label,
					   metric, s == 0);
				if (s && cell->n) {
					better += cell->verdict == GSU_BETTER;
					worse += cell->verdict == GSU_WORSE;
					same += cell->verdict == GSU_SAME;
				}
			}
		}
	}

	gsu_count(r, &c);
	{
		char sum[600];

		gsu_summary_sentence(r, &c, sum, sizeof(sum));
		fprintf(f, "\n%s\n", sum);
	}
	{
		char bias[512];

		fputs("attempts per scheduler (discarded as disturbed):", f);
		for (int s = 0; s < r->nsched; s++) {
			int a, d;

			gsu_sched_discards(r, s, &a, &d);
			fprintf(f, "%s %s %d (%d)", s ? "," : "",
				r->sched[s].label, a, d);
		}
		fputc('\n', f);
		gsu_discard_bias(r, bias, sizeof(bias));
		if (bias[0])
			fprintf(f, "WARNING: %s\n", bias);
	}
	if (c.disturbed_flagged && r->set.keep_disturbed)
		fprintf(f, "kept although disturbed (--disturbed keep): %d\n",
			c.disturbed_flagged);
	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		if (run->status == GSU_RUN_OK || run->status == GSU_RUN_DISTURBED)
			continue;
		fprintf(f, "  run %d (%s, %s): %s: %s\n", run->index,
			su->w[run->workload].name, r->sched[run->sched].label,
			gsu_run_status_name(run->status), run->reason);
		print_tail(f, run->log_tail, 2);
	}
	if (r->nsched > 1)
		fprintf(f, "verdicts against %s: %d better, %d worse, %d same\n",
			r->sched[0].label, better, worse, same);
	if (r->interrupted)
		fprintf(f, "INTERRUPTED: the results above are what was "
			"measured before the signal\n");
	if (!r->machine_restored)
		fprintf(f, "WARNING: a scheduler could not be unloaded; the "
			"machine may not be on its default scheduler\n");
}
