// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace report --html: one self-contained page (inline CSS, SVG and a
 * few lines of JavaScript, nothing fetched) with the frame times over time
 * and the slow frames marked, wake-up latency histograms of the
 * latency-critical tasks, the wake graph, the task table, and the slow
 * frames explained link by link.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report.h"

static void label(FILE *f, const struct ft_trace *t, uint32_t tid)
{
	char b[64];

	gs_html_esc(f, ft_task_label(t, tid, b, sizeof(b)));
}

static const char css[] =
	"body{font:14px system-ui,sans-serif;margin:1.5em;color:#222;max-width:1200px}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;font:12px monospace}td,th{padding:2px 6px;"
	"border-bottom:1px solid #eee;text-align:right}th{cursor:pointer;background:#f4f4f4}"
	"td:first-child,th:first-child{text-align:left}pre{background:#f8f8f8;padding:.6em;"
	"overflow-x:auto;font-size:12px}.note{color:#666}svg text{font:11px sans-serif}"
	".hist{display:inline-block;margin:0 1em 1em 0;vertical-align:top}";

/* Sortable tables: click a header. */
static const char js[] =
	"document.querySelectorAll('table.sort th').forEach(function(th,i){"
	"th.onclick=function(){var tb=th.closest('table').tBodies[0];"
	"var rows=Array.prototype.slice.call(tb.rows);var asc=th.dataset.asc!=='1';"
	"th.dataset.asc=asc?'1':'0';rows.sort(function(a,b){"
	"var x=a.cells[i].textContent,y=b.cells[i].textContent;"
	"var nx=parseFloat(x),ny=parseFloat(y);"
	"var c=(isNaN(nx)||isNaN(ny))?x.localeCompare(y):nx-ny;return asc?c:-c;});"
	"rows.forEach(function(r){tb.appendChild(r);});};});";

/* The slow frames on frame_plot's axes (its geometry), each linked to
 * its explanation. */
static void slow_marks(FILE *f, const struct ft_report *r, uint64_t t0,
		       uint64_t t1, double ymax)
{
	const struct ft_trace *t = r->t;
	const double W = 1100, H = 260, L = 50, B = 30, T = 10;

	for (size_t k = 0; k < r->nslow; k++) {
		const struct ft_frame *fr = &t->frames[r->slow[k]];
		double v = (double)fr->frametime_ns / 1e6;
		double x = L + (W - L - 10) * (double)(fr->present_ns - t0) / (double)(t1 - t0);
		double y = T + (H - B - T) * (1 - (v > ymax ? ymax : v) / ymax);
		int ex = -1;

		for (size_t j = 0; j < r->nex; j++)
			if (r->ex[j].frame == r->slow[k])
				ex = (int)j;
		if (ex >= 0)
			fprintf(f, "<a href='#slow%d'>", ex);
		fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'><title>%.2f ms "
			"at %.6f s%s</title></circle>", x, y, ex >= 0 ? "#d33" : "#f99",
			v, (double)fr->present_ns / 1e9,
			ex >= 0 ? " (explained below)" : "");
		if (v > ymax)
			fprintf(f, "<text x='%.1f' y='%.1f' fill='#d33'>%.0f</text>",
				x + 5, y + 10, v);
		if (ex >= 0)
			fprintf(f, "</a>");
		fputc('\n', f);
	}
}

static void frame_plot(FILE *f, const struct ft_report *r)
{
	const struct ft_trace *t = r->t;
	const double W = 1100, H = 260, L = 50, B = 30, T = 10;
	uint64_t t0, t1;
	double ymax = 0;
	size_t n = r->nf, step;

	if (!n)
		return;
	t0 = t->frames[r->fidx[0]].present_ns;
	t1 = t->frames[r->fidx[n - 1]].present_ns;
	if (t1 <= t0)
		t1 = t0 + 1;
	for (size_t k = 0; k < n; k++) {
		double v = (double)t->frames[r->fidx[k]].frametime_ns / 1e6;

		if (v > ymax)
			ymax = v;
	}
	/* keep spikes visible: the y axis stops at 4x the slow threshold,
	 * taller frames are clipped and labelled */
	if (r->slow_ms > 0 && ymax > 4 * r->slow_ms)
		ymax = 4 * r->slow_ms;
	if (ymax <= 0)
		ymax = 1;
	fprintf(f, "<svg width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
		"role='img' aria-label='frame times'>\n", W, H, W, H);
	fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='#fff' "
		"stroke='#ccc'/>\n", L, T, W - L - 10, H - B - T);
	/* disturbance bands */
	for (size_t k = 0; k < n; k++) {
		const struct ft_frame *fr = &t->frames[r->fidx[k]];
		double x0, x1;

		if (!fr->disturbance)
			continue;
		x0 = L + (W - L - 10) * (double)((fr->present_ns - fr->frametime_ns > t0 ? fr->present_ns - fr->frametime_ns : t0) - t0) / (double)(t1 - t0);
		x1 = L + (W - L - 10) * (double)(fr->present_ns - t0) / (double)(t1 - t0);
		fprintf(f, "<rect x='%.1f' y='%.0f' width='%.1f' height='%.0f' "
			"fill='#fde2c8'><title>framebench disturbance</title></rect>\n",
			x0, T, x1 - x0 > 1 ? x1 - x0 : 1, H - B - T);
	}
	/* threshold and median */
	{
		double ys = T + (H - B - T) * (1 - r->slow_ms / ymax);
		double ym = T + (H - B - T) * (1 - r->median_ms / ymax);

		if (r->slow_ms <= ymax)
			fprintf(f, "<line x1='%.0f' x2='%.0f' y1='%.1f' y2='%.1f' "
				"stroke='#d33' stroke-dasharray='4 3'/><text x='%.0f' "
				"y='%.1f' fill='#d33'>slow &gt; %.1f ms</text>\n",
				L, W - 10, ys, ys, L + 4, ys - 3, r->slow_ms);
		fprintf(f, "<line x1='%.0f' x2='%.0f' y1='%.1f' y2='%.1f' "
			"stroke='#393' stroke-dasharray='2 3'/><text x='%.0f' "
			"y='%.1f' fill='#393'>median %.2f ms</text>\n",
			L, W - 10, ym, ym, W - 130, ym - 3, r->median_ms);
	}
	/* the series, at most ~4000 points: the max of each bucket */
	step = n > 4000 ? (n + 3999) / 4000 : 1;
	fprintf(f, "<polyline fill='none' stroke='#36c' stroke-width='1' points='");
	for (size_t k = 0; k < n; k += step) {
		size_t best = k;

		for (size_t j = k; j < k + step && j < n; j++)
			if (t->frames[r->fidx[j]].frametime_ns >
			    t->frames[r->fidx[best]].frametime_ns)
				best = j;
		{
			const struct ft_frame *fr = &t->frames[r->fidx[best]];
			double v = (double)fr->frametime_ns / 1e6;

			if (v > ymax)
				v = ymax;
			fprintf(f, "%.1f,%.1f ",
				L + (W - L - 10) * (double)(fr->present_ns - t0) / (double)(t1 - t0),
				T + (H - B - T) * (1 - v / ymax));
		}
	}
	fprintf(f, "'/>\n");
	/* slow frames, linked to their explanation */
	slow_marks(f, r, t0, t1, ymax);
	/* axes */
	for (int i = 0; i <= 4; i++) {
		double v = ymax * i / 4, y = T + (H - B - T) * (1 - (double)i / 4);

		fprintf(f, "<text x='%.0f' y='%.1f' text-anchor='end'>%.1f</text>\n",
			L - 4, y + 4, v);
	}
	for (int i = 0; i <= 5; i++) {
		double x = L + (W - L - 10) * i / 5;

		fprintf(f, "<text x='%.1f' y='%.0f' text-anchor='middle'>%.1f s</text>\n",
			x, H - 10, (double)(t1 - t0) / 1e9 * i / 5);
	}
	fprintf(f, "<text x='4' y='%.0f' transform='rotate(-90 12 %.0f)'>ms</text>\n",
		H / 2, H / 2);
	fprintf(f, "</svg>\n");
}

/* Wake-up latency histogram: log2 bins from 1 us to ~1 s. */
static void latency_hist(FILE *f, const struct ft_report *r,
			 const struct ft_tstat *s)
{
	const int NB = 21;
	uint64_t bins[21] = { 0 }, maxc = 1;
	const double W = 260, H = 110, L = 8, B = 22;

	if (!s->wlat || !s->wlat->count)
		return;
	for (unsigned i = 0; i < GS_HIST_BUCKETS; i++) {
		uint64_t lo, hi;
		int b;

		if (!s->wlat->bucket[i])
			continue;
		gs_hist_bucket_range(i, &lo, &hi);
		b = lo < 1000 ? 0 : (int)floor(log2((double)lo / 1000.0)) + 1;
		if (b >= NB)
			b = NB - 1;
		bins[b] += s->wlat->bucket[i];
	}
	for (int b = 0; b < NB; b++)
		if (bins[b] > maxc)
			maxc = bins[b];
	fprintf(f, "<div class='hist'><div>");
	label(f, r->t, s->tid);
	fprintf(f, ": p50 %.0f us, p99 %.0f us, max %.0f us</div>",
		(double)gs_hist_pct(s->wlat, 50) / 1e3,
		(double)gs_hist_pct(s->wlat, 99) / 1e3, (double)s->wlat->max / 1e3);
	fprintf(f, "<svg width='%.0f' height='%.0f'>", W, H);
	for (int b = 0; b < NB; b++) {
		double bw = (W - 2 * L) / NB;
		double h = (H - B - 4) * (bins[b] ? log1p((double)bins[b]) / log1p((double)maxc) : 0);

		fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
			"fill='#69c'><title>%s%.0f us: %" PRIu64 "</title></rect>",
			L + b * bw, H - B - h, bw - 1, h, b ? "&gt;= " : "&lt; ",
			b ? pow(2, b - 1) : 1.0, bins[b]);
	}
	fprintf(f, "<text x='%.0f' y='%.0f'>1us</text><text x='%.0f' y='%.0f' "
		"text-anchor='middle'>1ms</text><text x='%.0f' y='%.0f' "
		"text-anchor='end'>1s</text></svg></div>\n",
		L, H - 6, L + (W - 2 * L) * 11 / NB, H - 6, W - L, H - 6);
}

static void wake_graph(FILE *f, const struct ft_report *r)
{
	const struct ft_model *m = &r->m;
	uint32_t nodes[24];
	int nn = 0;
	const double W = 720, H = 560, CX = 360, CY = 280, RAD = 220;
	uint64_t maxc = m->nedge ? m->edge[r->edges[0]].count : 1;

	/* nodes: endpoints of the strongest edges */
	for (size_t k = 0; k < m->nedge && nn < 24; k++) {
		const struct ft_edge *e = &m->edge[r->edges[k]];
		uint32_t ends[2] = { e->waker, e->wakee };

		for (int j = 0; j < 2 && nn < 24; j++) {
			bool have = false;

			for (int i = 0; i < nn; i++)
				have |= nodes[i] == ends[j];
			if (!have)
				nodes[nn++] = ends[j];
		}
	}
	if (!nn)
		return;
	fprintf(f, "<svg width='%.0f' height='%.0f'><defs><marker id='arr' "
		"viewBox='0 0 10 10' refX='16' refY='5' markerUnits='userSpaceOnUse' markerWidth='9' "
		"markerHeight='9' orient='auto'><path d='M0,0L10,5L0,10z' "
		"fill='#888'/></marker></defs>\n", W, H);
	for (size_t k = 0; k < m->nedge && k < 60; k++) {
		const struct ft_edge *e = &m->edge[r->edges[k]];
		int a = -1, b = -1;

		for (int i = 0; i < nn; i++) {
			if (nodes[i] == e->waker)
				a = i;
			if (nodes[i] == e->wakee)
				b = i;
		}
		if (a < 0 || b < 0 || a == b)
			continue;
		{
			double ax = CX + RAD * cos(2 * M_PI * a / nn);
			double ay = CY + RAD * sin(2 * M_PI * a / nn);
			double bx = CX + RAD * cos(2 * M_PI * b / nn);
			double by = CY + RAD * sin(2 * M_PI * b / nn);
			/* bend the edge so a->b and b->a do not overlap */
			double mx = (ax + bx) / 2 + (by - ay) * 0.15;
			double my = (ay + by) / 2 - (bx - ax) * 0.15;

			fprintf(f, "<path d='M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f' fill='none' "
				"stroke='#888' stroke-opacity='0.7' stroke-width='%.2f' "
				"marker-end='url(#arr)'><title>",
				ax, ay, mx, my, bx, by,
				0.5 + 5.0 * (double)e->count / (double)maxc);
			label(f, r->t, e->waker);
			fprintf(f, " -&gt; ");
			label(f, r->t, e->wakee);
			fprintf(f, ": %" PRIu64 " wake-ups</title></path>\n", e->count);
		}
	}
	for (int i = 0; i < nn; i++) {
		double x = CX + RAD * cos(2 * M_PI * i / nn);
		double y = CY + RAD * sin(2 * M_PI * i / nn);
		const struct ft_tstat *s = ft_model_task(m, nodes[i]);

		fprintf(f, "<circle cx='%.1f' cy='%.1f' r='6' fill='%s'/>"
			"<text x='%.1f' y='%.1f' text-anchor='%s'>", x, y,
			s && s->lat_score > 10 ? "#d73" : "#69c", x + (x >= CX ? 9 : -9),
			y + 4, x >= CX ? "start" : "end");
		label(f, r->t, nodes[i]);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
}

static void task_table(FILE *f, const struct ft_report *r)
{
	size_t n = r->norder < 40 ? r->norder : 40;

	fprintf(f, "<table class='sort'><thead><tr><th>task</th><th>pid</th>"
		"<th>CPU ms</th><th>switches</th><th>preempted</th><th>migrations</th>"
		"<th>woken/s</th><th>run p50 ms</th><th>run p99 ms</th><th>run CV</th>"
		"<th>wake-lat p50 us</th><th>p99 us</th><th>max us</th>"
		"<th>futex wait ms</th><th>lat. score</th></tr></thead><tbody>\n");
	for (size_t k = 0; k < n; k++) {
		const struct ft_tstat *s = &r->m.task[r->order[k]];
		double secs = (double)(r->m.end_ns - r->m.start_ns) / 1e9;

		fprintf(f, "<tr><td>");
		label(f, r->t, s->tid);
		fprintf(f, "</td><td>%u</td><td>%.2f</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td><td>%" PRIu64 "</td><td>%.0f</td><td>%.3f</td><td>%.3f</td>"
			"<td>%.2f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.2f</td>"
			"<td>%.2f</td></tr>\n",
			s->pid, (double)s->runtime_ns / 1e6, s->switches, s->preempted,
			s->migrations, (double)s->wakeups / (secs > 0 ? secs : 1),
			s->run ? (double)gs_hist_pct(s->run, 50) / 1e6 : 0,
			s->run ? (double)gs_hist_pct(s->run, 99) / 1e6 : 0,
			ft_tstat_cv(s),
			s->wlat ? (double)gs_hist_pct(s->wlat, 50) / 1e3 : 0,
			s->wlat ? (double)gs_hist_pct(s->wlat, 99) / 1e3 : 0,
			s->wlat ? (double)s->wlat->max / 1e3 : 0,
			(double)s->futex_wait_ns / 1e6, s->lat_score);
	}
	fprintf(f, "</tbody></table>\n");
}

/* Stacked bar per link: runnable (red), run (blue), timer (grey), lock
 * (orange), for one chain. */
static void chain_bar(FILE *f, const struct ft_report *r,
		      const struct ft_explain *x, double scale_ns)
{
	const double W = 900;
	double xpos = 0;

	fprintf(f, "<svg width='%.0f' height='22'>", W);
	for (int i = x->nlinks - 1; i >= 0; i--) {
		const struct ft_link *l = &x->link[i];
		struct {
			uint64_t ns;
			const char *color, *what;
		} parts[3] = {
			{ l->runnable_ns, "#d55", "runnable" },
			{ l->run_ns, "#59d", "ran" },
			{ l->timer_wait_ns, "#bbb", "timer wait" },
		};

		for (int j = 0; j < 3; j++) {
			double w = W * (double)parts[j].ns / scale_ns;

			if (w < 0.3)
				continue;
			fprintf(f, "<rect x='%.1f' y='2' width='%.1f' height='18' "
				"fill='%s' stroke='#fff' stroke-width='0.5'><title>#%d ",
				xpos, w, parts[j].color, i + 1);
			label(f, r->t, l->tid);
			fprintf(f, " %s %.3f ms</title></rect>", parts[j].what,
				(double)parts[j].ns / 1e6);
			xpos += w;
		}
	}
	fprintf(f, "</svg>\n");
}

void ft_report_html(FILE *f, const struct ft_report *r)
{
	const struct ft_trace *t = r->t;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	fprintf(f, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
		"<title>frametrace report</title><style>%s</style></head><body>\n", css);
	fprintf(f, "<h1>frametrace report: ");
	gs_html_esc(f, r->o.name ? r->o.name : "");
	fprintf(f, "</h1>\n<p class='note'>");
	gs_html_esc(f, ft_meta_get(t, "source") ? ft_meta_get(t, "source") : "?");
	fprintf(f, ", span %.3f s, %u CPUs, %zu events, %" PRIu64 " lost; "
		"runtime from %s; %" PRIu64 " idle-&gt;task switch-ins reconstructed, "
		"%" PRIu64 " other repairs.</p>\n",
		(double)(r->m.end_ns - r->m.start_ns) / 1e9, r->m.ncpus, t->nev,
		t->lost_events, r->m.runtime_source, t->reconstructed, t->inconsistent);
	if (t->partial) {
		fprintf(f, "<p><b>Partial data:</b> ");
		gs_html_esc(f, t->warning);
		fprintf(f, "</p>\n");
	}
	if (r->has_fps) {
		fprintf(f, "<h2>Frame times</h2><p>%zu frames of process %u: avg %.1f FPS, "
			"1%% low %.1f (percentile) / %.1f (average), p99 %.2f ms, max %.2f ms; "
			"%zu above %.2f ms (red, click for the explanation)%s.</p>\n",
			r->fps.frames, r->frame_pid, r->fps.avg_fps,
			r->fps.low1_percentile_fps, r->fps.low1_average_fps,
			r->fps.ft_p99, r->fps.ft_max, r->nslow, r->slow_ms,
			r->ndisturbed ? "; orange bands: framebench --disturb bursts" : "");
		frame_plot(f, r);
	}
	if (r->ncrit) {
		fprintf(f, "<h2>Wake-up latency of the latency-critical tasks</h2>"
			"<p class='note'>runnable to running, log2 bins, counts on a log "
			"scale</p>\n");
		for (size_t k = 0; k < r->ncrit && k < 9; k++)
			latency_hist(f, r, &r->m.task[r->crit[k]]);
	}
	if (r->m.nedge) {
		fprintf(f, "<h2>Wake graph</h2><p class='note'>waker &rarr; wakee of the "
			"strongest edges; width by count; orange nodes are the most "
			"latency-critical. Full graph: --dot.</p>\n");
		wake_graph(f, r);
	}
	if (r->norder) {
		fprintf(f, "<h2>Tasks</h2>\n");
		task_table(f, r);
	}
	if (r->nex) {
		double scale = 1;

		for (size_t k = 0; k < r->nex; k++) {
			const struct ft_frame *fr = &t->frames[r->ex[k].frame];
			uint64_t span = fr->present_ns - r->ex[k].link[r->ex[k].nlinks - 1].wake_ts;

			if ((double)span > scale)
				scale = (double)span;
		}
		fprintf(f, "<h2>Slow frames explained</h2><p class='note'>Each bar is the "
			"wake chain from its earliest link (left) to the present (right): "
			"red = waiting runnable, blue = running, grey = asleep until a "
			"timer.</p>\n");
		if (r->has_median) {
			fprintf(f, "<h3>Median frame (baseline)</h3>\n");
			chain_bar(f, r, &r->median, scale);
		}
		for (size_t k = 0; k < r->nex; k++) {
			fprintf(f, "<h3 id='slow%zu'>Slow frame %zu</h3>\n", k, k + 1);
			chain_bar(f, r, &r->ex[k], scale);
			m = open_memstream(&text, &len);
			if (m) {
				ft_explain_print(m, r, &r->ex[k], "");
				fclose(m);
				fprintf(f, "<pre>");
				gs_html_esc(f, text);
				fprintf(f, "</pre>\n");
				free(text);
				text = NULL;
			}
		}
	}
	/* the whole text report, for completeness */
	m = open_memstream(&text, &len);
	if (m) {
		ft_report_text(m, r);
		fclose(m);
		fprintf(f, "<h2>Text report</h2><pre>");
		gs_html_esc(f, text);
		fprintf(f, "</pre>\n");
		free(text);
	}
	fprintf(f, "<script>%s</script>\n</body></html>\n", js);
}
