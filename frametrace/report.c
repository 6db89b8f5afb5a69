// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report: text, JSON and Graphviz outputs (report.h). */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framefeed.h"
#include "json.h"
#include "steal.h"

const char *ft_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	return buf;
}

const char *ft_task_label(const struct ft_trace *t, uint32_t tid, char *buf,
			  size_t len)
{
	snprintf(buf, len, "%s:%u", ft_task_comm(t, tid), tid);
	return buf;
}

static const struct ft_report *sort_r;

static int by_runtime(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_score(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->lat_score != y->lat_score)
		return x->lat_score < y->lat_score ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_futex(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->futex_wait_ns != y->futex_wait_ns)
		return x->futex_wait_ns < y->futex_wait_ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_edge(const void *a, const void *b)
{
	const struct ft_edge *x = &sort_r->m.edge[*(const size_t *)a];
	const struct ft_edge *y = &sort_r->m.edge[*(const size_t *)b];

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int by_chain(const void *a, const void *b)
{
	const struct ft_chain *x = &sort_r->m.chain[*(const size_t *)a];
	const struct ft_chain *y = &sort_r->m.chain[*(const size_t *)b];

	/* longer chains first at equal count: they say more */
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int by_frametime_desc(const void *a, const void *b)
{
	const struct ft_frame *x = &sort_r->t->frames[*(const size_t *)a];
	const struct ft_frame *y = &sort_r->t->frames[*(const size_t *)b];

	if (x->frametime_ns != y->frametime_ns)
		return x->frametime_ns < y->frametime_ns ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *iota(size_t n)
{
	size_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (v)
		for (size_t i = 0; i < n; i++)
			v[i] = i;
	return v;
}

static bool frame_counts(const struct ft_frame *f)
{
	return !(f->flags & GS_FEED_F_WARMUP);
}

int ft_report_build(struct ft_report *r, const struct ft_trace *t,
		    const struct ft_report_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->o = *o;
	if (r->o.top <= 0)
		r->o.top = 15;
	if (r->o.explain < 0)
		r->o.explain = 0;
	if (ft_model_build(&r->m, t))
		return -1;
	sort_r = r;

	/* task orders (idle excluded) */
	r->order = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->crit = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->futex = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->edges = iota(r->m.nedge);
	r->chains = iota(r->m.nchain);
	if (!r->order || !r->crit || !r->futex || !r->edges || !r->chains)
		return -1;
	for (size_t i = 0; i < r->m.ntask; i++) {
		const struct ft_tstat *s = &r->m.task[i];

		if (!s->tid)
			continue;
		if (s->runtime_ns || s->switches || s->wakeups || s->futex_waits)
			r->order[r->norder++] = i;
		if (s->wakeups || s->wakes_sent)
			r->crit[r->ncrit++] = i;
		if (s->futex_waits)
			r->futex[r->nfutex++] = i;
	}
	qsort(r->order, r->norder, sizeof(size_t), by_runtime);
	qsort(r->crit, r->ncrit, sizeof(size_t), by_score);
	qsort(r->futex, r->nfutex, sizeof(size_t), by_futex);
	qsort(r->edges, r->m.nedge, sizeof(size_t), by_edge);
	qsort(r->chains, r->m.nchain, sizeof(size_t), by_chain);

	/* frames of one process */
	if (t->nframes) {
		uint32_t pid = o->pid;
		double *ft;
		size_t *tmp;

		if (!pid) {
			/* the process with the most frames */
			struct ft_map cnt;
			uint32_t best = 0;

			ft_map_init(&cnt);
			for (size_t i = 0; i < t->nframes; i++) {
				uint32_t *c = ft_map_put(&cnt, t->frames[i].pid, 0,
							 NULL);

				if (c && ++*c > best) {
					best = *c;
					pid = t->frames[i].pid;
				}
			}
			ft_map_free(&cnt);
		}
		r->frame_pid = pid;
		r->fidx = malloc(t->nframes * sizeof(size_t));
		ft = malloc(t->nframes * sizeof(double));
		if (!r->fidx || !ft) {
			free(ft);
			return -1;
		}
		for (size_t i = 0; i < t->nframes; i++)
			if (t->frames[i].pid == pid && frame_counts(&t->frames[i]) &&
			    t->frames[i].frametime_ns) {
				ft[r->nf] = (double)t->frames[i].frametime_ns / 1e6;
				r->fidx[r->nf++] = i;
				if (t->frames[i].disturbance)
					r->ndisturbed++;
			}
		if (r->nf && !gs_fps_summarize(ft, r->nf, 0, NULL, &r->fps)) {
			r->has_fps = true;
			r->median_ms = r->fps.ft_p50;
		}
		free(ft);
		r->slow_ms = o->slow_ms > 0 ? o->slow_ms : 2 * r->median_ms;
		tmp = malloc((r->nf ? r->nf : 1) * sizeof(size_t));
		if (!tmp)
			return -1;
		for (size_t k = 0; k < r->nf; k++)
			if ((double)t->frames[r->fidx[k]].frametime_ns / 1e6 >
			    r->slow_ms)
				tmp[r->nslow++] = r->fidx[k];
		qsort(tmp, r->nslow, sizeof(size_t), by_frametime_desc);
		r->slow = tmp;

		/* the median frame and the explained slow frames */
		if (r->has_fps && r->m.nseg) {
			size_t best = 0;
			double bd = 1e300;

			r->presenter = ft_dominant_presenter(&r->m, r->frame_pid);
			for (size_t k = 0; k < r->nf; k++) {
				double d = fabs((double)t->frames[r->fidx[k]].frametime_ns / 1e6 -
						r->median_ms);

				/* prefer a median frame in the middle of the run */
				if (d < bd - 1e-9) {
					bd = d;
					best = r->fidx[k];
				}
			}
			r->has_median = !ft_explain_frame(&r->m, best, r->presenter, &r->median);
			r->ex = calloc((size_t)r->o.explain + 1, sizeof(*r->ex));
			if (!r->ex)
				return -1;
			for (size_t k = 0; k < r->nslow && r->nex < (size_t)r->o.explain; k++)
				if (!ft_explain_frame(&r->m, r->slow[k], r->presenter,
						     &r->ex[r->nex])) {
					ft_explain_compare(&r->m, &r->ex[r->nex],
							   r->has_median ? &r->median : NULL);
					r->nex++;
				}
		}
	}
	return 0;
}

void ft_report_free(struct ft_report *r)
{
	ft_model_free(&r->m);
	free(r->order);
	free(r->crit);
	free(r->futex);
	free(r->edges);
	free(r->chains);
	free(r->fidx);
	free(r->slow);
	free(r->ex);
	memset(r, 0, sizeof(*r));
}

/* ---- text ------------------------------------------------------------ */

static double pct_ms(const struct gs_hist *h, double p)
{
	return h && h->count ? (double)gs_hist_pct(h, p) / 1e6 : 0;
}

static double pct_us(const struct gs_hist *h, double p)
{
	return h && h->count ? (double)gs_hist_pct(h, p) / 1e3 : 0;
}

static double span_s(const struct ft_report *r)
{
	double s = (double)(r->m.end_ns - r->m.start_ns) / 1e9;

	return s > 0 ? s : 1;
}

/* The host's steal over the trace (recorded traces inside a VM). */
static void print_steal(FILE *f, const struct ft_trace *t)
{
	struct ft_steal_sum st;
	char d[24];
	double cpu_ns;

	if (ft_steal_meta_get(t, &st) || !st.span_ns)
		return;
	cpu_ns = (double)st.span_ns * st.ncpus;
	if (!st.total_ns) {
		fprintf(f, "host steal: none over %.2f s on %d CPUs\n",
			(double)st.span_ns / 1e9, st.ncpus);
		return;
	}
	fprintf(f, "host steal: %s over %.2f s on %d CPUs (%.1f %% of their time)",
		ft_fmt_ns(d, sizeof(d), st.total_ns), (double)st.span_ns / 1e9,
		st.ncpus, 100.0 * (double)st.total_ns / cpu_ns);
	for (int k = 0; k < st.ntop; k++)
		fprintf(f, "%s CPU%" PRIu32 " %s", k ? "," : "; most on",
			st.top_cpu[k], ft_fmt_ns(d, sizeof(d), st.top_ns[k]));
	/* a tick is the counter's unit: one or two are noise */
	if ((double)st.total_ns >= 0.01 * cpu_ns)
		fprintf(f, "\n  (the host did not run these vCPUs for that long: the "
			"runs and waits below include it)");
	fputc('\n', f);
}

static void print_header(FILE *f, const struct ft_report *r)
{
	const struct ft_trace *t = r->t;
	const char *src = ft_meta_get(t, "source");
	const char *fmt = ft_meta_get(t, "format");
	const char *kern = ft_meta_get(t, "kernel");

	fprintf(f, "frametrace report: %s\n", r->o.name ? r->o.name : "");
	fprintf(f, "source: %s%s%s%s%s, span %.3f s, %u CPUs, %zu events, "
		"%" PRIu64 " lost\n",
		src ? src : "?", fmt ? " (" : "", fmt ? fmt : "", fmt ? ")" : "",
		kern ? "" : "", span_s(r), r->m.ncpus, t->nev, t->lost_events);
	if (kern)
		fprintf(f, "kernel: %s, futex events: %s\n", kern,
			ft_meta_get(t, "futex") ? ft_meta_get(t, "futex") : "?");
	fprintf(f, "runtime from: %s; switch-ins reconstructed: %" PRIu64
		" idle->task (missing sched_switch records), %" PRIu64
		" other\n",
		r->m.runtime_source, t->reconstructed, t->inconsistent);
	print_steal(f, t);
	if (t->partial)
		fprintf(f, "warning: partial data: %s\n", t->warning);
	if (ft_meta_get(t, "trigger"))
		fprintf(f, "capture: %s\n", ft_meta_get(t, "trigger"));
}

static void print_frames(FILE *f, const struct ft_report *r)
{
	const struct gs_fps_summary *s = &r->fps;

	if (!r->has_fps)
		return;
	fprintf(f, "\nframes: %zu of process %u (%s): avg %.1f FPS, 1%% low %.1f "
		"(percentile) / %.1f (average), 0.1%% low %.1f%s, min %.1f\n",
		s->frames, r->frame_pid,
		r->frame_pid ? ft_task_comm(r->t, r->frame_pid) : "MangoHud log",
		s->avg_fps, s->low1_percentile_fps, s->low1_average_fps,
		s->low01_percentile_fps,
		s->low01_unreliable ? " (unreliable: < 1000 frames)" : "",
		s->min_fps);
	fprintf(f, "  frame time ms: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  "
		"max %.2f\n",
		s->ft_p50, s->ft_p90, s->ft_p99, s->ft_p999, s->ft_max);
	fprintf(f, "  slow frames (> %.2f ms): %zu", r->slow_ms, r->nslow);
	if (r->ndisturbed)
		fprintf(f, "; frames during framebench --disturb bursts: %zu",
			r->ndisturbed);
	fputc('\n', f);
}

static void print_tasks(FILE *f, const struct ft_report *r)
{
	char lb[64];
	size_t n = r->norder < (size_t)r->o.top ? r->norder : (size_t)r->o.top;

	fprintf(f, "\ntasks by CPU time (%zu of %zu):\n", n, r->norder);
	fprintf(f, "  %-24s %7s %9s %5s %8s %7s %6s %6s %15s %5s %22s %9s %8s %9s\n",
		"task", "pid", "cpu ms", "cpu%", "switch", "preempt", "migr",
		"wake/s", "run p50/p99 ms", "CV", "wake-lat p50/p99/max us",
		"sleep p50", "futex n", "futex ms");
	for (size_t k = 0; k < n; k++) {
		const struct ft_tstat *s = &r->m.task[r->order[k]];
		char run[32], wl[40];

		snprintf(run, sizeof(run), "%.3f/%.3f", pct_ms(s->run, 50),
			 pct_ms(s->run, 99));
		snprintf(wl, sizeof(wl), "%.0f/%.0f/%.0f", pct_us(s->wlat, 50),
			 pct_us(s->wlat, 99), pct_us(s->wlat, 100));
		fprintf(f, "  %-24s %7u %9.2f %5.1f %8" PRIu64 " %7" PRIu64
			" %6" PRIu64 " %6.0f %15s %5.2f %22s %9.3f %8" PRIu64
			" %9.2f%s\n",
			ft_task_label(r->t, s->tid, lb, sizeof(lb)), s->pid,
			(double)s->runtime_ns / 1e6,
			100.0 * (double)s->runtime_ns / 1e9 / span_s(r) /
				(r->m.ncpus ? r->m.ncpus : 1),
			s->switches, s->preempted, s->migrations,
			(double)s->wakeups / span_s(r), run, ft_tstat_cv(s), wl,
			pct_ms(s->sleep, 50), s->futex_waits,
			(double)s->futex_wait_ns / 1e6, s->recorder ? "  (recorder)" : "");
	}
}

static void print_crit(FILE *f, const struct ft_report *r)
{
	char lb[64];
	size_t n = r->ncrit < (size_t)r->o.top ? r->ncrit : (size_t)r->o.top;

	if (!n)
		return;
	fprintf(f, "\nlatency-critical tasks (score = log2(1+woken/s) + "
		"log2(1+wakes/s), as LAVD ranks them):\n");
	fprintf(f, "  %4s %-24s %6s %8s %8s %12s %11s\n", "rank", "task", "score",
		"woken/s", "wakes/s", "wake-lat p99", "run p50");
	for (size_t k = 0; k < n; k++) {
		const struct ft_tstat *s = &r->m.task[r->crit[k]];

		fprintf(f, "  %4zu %-24s %6.2f %8.0f %8.0f %9.0f us %8.3f ms\n",
			k + 1, ft_task_label(r->t, s->tid, lb, sizeof(lb)),
			s->lat_score, (double)s->wakeups / span_s(r),
			(double)s->wakes_sent / span_s(r), pct_us(s->wlat, 99),
			pct_ms(s->run, 50));
	}
}

static void print_graph(FILE *f, const struct ft_report *r)
{
	char a[64], b[64];
	size_t n = r->m.nedge < (size_t)r->o.top ? r->m.nedge : (size_t)r->o.top;

	if (n) {
		fprintf(f, "\nwake graph, most frequent edges (waker -> wakee, "
			"count; all %zu edges with --dot):\n", r->m.nedge);
		for (size_t k = 0; k < n; k++) {
			const struct ft_edge *e = &r->m.edge[r->edges[k]];

			fprintf(f, "  %-24s -> %-24s %8" PRIu64 "\n",
				ft_task_label(r->t, e->waker, a, sizeof(a)),
				ft_task_label(r->t, e->wakee, b, sizeof(b)),
				e->count);
		}
	}
	n = r->m.nchain < 10 ? r->m.nchain : 10;
	if (n) {
		fprintf(f, "\nmost frequent wake chains (A woke B, which then woke C):\n");
		for (size_t k = 0; k < n; k++) {
			const struct ft_chain *c = &r->m.chain[r->chains[k]];

			fprintf(f, "  %8" PRIu64 "  ", c->count);
			for (int i = 0; i < c->len; i++)
				fprintf(f, "%s%s", i ? " -> " : "",
					ft_task_label(r->t, c->tid[i], a, sizeof(a)));
			fputc('\n', f);
		}
	}
}

static void print_futex(FILE *f, const struct ft_report *r)
{
	char lb[64];
	size_t n = r->nfutex < (size_t)r->o.top ? r->nfutex : (size_t)r->o.top;

	if (!n)
		return;
	fprintf(f, "\nfutex wait per task (time blocked in futex wait calls):\n");
	fprintf(f, "  %-24s %8s %10s %10s %10s %8s\n", "task", "waits", "total ms",
		"mean us", "max ms", "wakes");
	for (size_t k = 0; k < n; k++) {
		const struct ft_tstat *s = &r->m.task[r->futex[k]];

		fprintf(f, "  %-24s %8" PRIu64 " %10.2f %10.1f %10.2f %8" PRIu64 "\n",
			ft_task_label(r->t, s->tid, lb, sizeof(lb)), s->futex_waits,
			(double)s->futex_wait_ns / 1e6,
			(double)s->futex_wait_ns / 1e3 / (double)s->futex_waits,
			(double)s->futex_wait_max_ns / 1e6, s->futex_wakes);
	}
}

static const char *rq_text(uint8_t reason)
{
	switch (reason) {
	case FT_RQ_WAKE: return "woken";
	case FT_RQ_PREEMPT: return "preempted";
	case FT_RQ_NEW: return "new";
	default: return "runnable";
	}
}

void ft_explain_print(FILE *f, const struct ft_report *r,
		      const struct ft_explain *x, const char *indent)
{
	const struct ft_trace *t = r->t;
	const struct ft_frame *fr = &t->frames[x->frame];
	char a[64], b[64], d1[24], d2[24], d3[24], d4[24];

	fprintf(f, "%sframe at %.6f s: %s (median %.2f ms)%s, presented by %s\n",
		indent, (double)fr->present_ns / 1e9,
		ft_fmt_ns(d1, sizeof(d1), fr->frametime_ns), r->median_ms,
		fr->disturbance ? " [framebench disturbance running]" : "",
		ft_task_label(t, x->presenter, a, sizeof(a)));
	for (int i = 0; i < x->nlinks; i++) {
		const struct ft_link *l = &x->link[i];

		fprintf(f, "%s  #%-2d %-22s %s %s %s earlier; runnable %s, ran %s",
			indent, i + 1, ft_task_label(t, l->tid, a, sizeof(a)),
			l->waker ? "woken by" : (l->rq_reason == FT_RQ_WAKE ? "woken by" : "running"),
			l->waker ? ft_task_label(t, l->waker, b, sizeof(b))
				 : (l->waker_irq || l->rq_reason == FT_RQ_WAKE ? "interrupt" : "since"),
			ft_fmt_ns(d1, sizeof(d1), l->end_ts - l->wake_ts),
			ft_fmt_ns(d2, sizeof(d2), l->runnable_ns),
			ft_fmt_ns(d3, sizeof(d3), l->run_ns));
		if (l->preemptions)
			fprintf(f, ", preempted %u times", l->preemptions);
		if (l->timer_wait_ns)
			fprintf(f, ", then slept %s until an interrupt (timer)",
				ft_fmt_ns(d4, sizeof(d4), l->timer_wait_ns));
		if (l->lock_wait_ns)
			fprintf(f, ", futex wait %s (0x%" PRIx64 ")",
				ft_fmt_ns(d4, sizeof(d4), l->lock_wait_ns),
				l->futex_uaddr);
		else if (l->sleep_ns)
			fprintf(f, ", slept %s", ft_fmt_ns(d4, sizeof(d4), l->sleep_ns));
		fputc('\n', f);
		if (l->nholders && l->runnable_ns >= 20000) {
			fprintf(f, "%s      CPU%u held by", indent, l->holder[0].cpu);
			for (int k = 0; k < l->nholders; k++)
				fprintf(f, "%s %s %s (%s)", k ? "," : "",
					ft_task_label(t, l->holder[k].tid, a, sizeof(a)),
					ft_fmt_ns(d1, sizeof(d1), l->holder[k].ns),
					l->holder[k].why == FT_WHY_LONG_SLICE
						? (snprintf(d2, sizeof(d2), "slice %s",
							    ft_fmt_ns(d3, sizeof(d3), l->holder[k].longest)),
						   d2)
						: ft_why_text(l->holder[k].why));
			if (ft_link_idle_wait(l))
				fprintf(f, "; the CPU it was queued on idled %s of it: "
					"wake-up not acted on (*)",
					ft_fmt_ns(d4, sizeof(d4), l->own_idle_ns));
			else if (r->m.ncpus > 1) {
				if (l->siblings_busy)
					fprintf(f, "; other CPUs busy too");
				else if (l->idle_cpu >= 0 && l->idle_ns)
					fprintf(f, "; CPU%d idle %s meanwhile",
						l->idle_cpu,
						ft_fmt_ns(d4, sizeof(d4), l->idle_ns));
			}
			fprintf(f, " [%s]\n", rq_text(l->rq_reason));
		}
	}
	fprintf(f, "%s  chain ends: %s\n", indent, ft_stop_text(x->stop));
	if (x->origin >= 0) {
		const struct ft_link *l = &x->link[x->origin];
		const struct ft_link *m = x->origin_match >= 0 && r->has_median
						  ? &r->median.link[x->origin_match]
						  : NULL;
		uint64_t here = ft_origin_ns(x);
		static const char *const typical[] = {
			"its median wake-up latency", "its median run burst",
			"its mean futex wait" };

		fprintf(f, "%s  => delay originates at #%d %s: %s %s here vs %s %s (+%s",
			indent, x->origin + 1, ft_task_label(t, l->tid, a, sizeof(a)),
			ft_origin_verb(x), ft_fmt_ns(d1, sizeof(d1), here),
			ft_fmt_ns(d2, sizeof(d2),
				  here - (uint64_t)x->origin_excess_ns),
			m ? "in the median frame's chain" : typical[ft_origin_kind(x)],
			ft_fmt_ns(d3, sizeof(d3), (uint64_t)x->origin_excess_ns));
		if (x->frame_excess_ns > 0)
			fprintf(f, " of the frame's +%s",
				ft_fmt_ns(d4, sizeof(d4), (uint64_t)x->frame_excess_ns));
		fprintf(f, ")\n");
		/* most of the frame's excess lies outside this chain */
		if (x->frame_excess_ns > 0 && x->origin_excess_ns * 4 < x->frame_excess_ns)
			fprintf(f, "%s     (the chain's links explain little of it: the rest "
				"lies before the chain, where it ends)\n", indent);
	} else if (x->frame_excess_ns > 0) {
		fprintf(f, "%s  => no link of the chain took longer than its counterpart; "
			"the frame's +%s lies before the chain, where it ends\n",
			indent, ft_fmt_ns(d4, sizeof(d4), (uint64_t)x->frame_excess_ns));
	}
}

static void print_slow(FILE *f, const struct ft_report *r)
{
	if (!r->has_fps)
		return;
	if (!r->m.nseg) {
		fprintf(f, "\n(no scheduling events: slow frames cannot be explained)\n");
		return;
	}
	if (r->has_median) {
		fprintf(f, "\nmedian frame's wake chain (the baseline):\n");
		ft_explain_print(f, r, &r->median, "  ");
	}
	if (!r->nslow) {
		fprintf(f, "\nno frame above %.2f ms\n", r->slow_ms);
		return;
	}
	fprintf(f, "\nslow frames explained (%zu of %zu above %.2f ms, worst first):\n",
		r->nex, r->nslow, r->slow_ms);
	for (size_t k = 0; k < r->nex; k++) {
		ft_explain_print(f, r, &r->ex[k], "  ");
		fputc('\n', f);
	}
	for (size_t k = 0; k < r->nex; k++)
		for (int i = 0; i < r->ex[k].nlinks; i++)
			if (ft_link_idle_wait(&r->ex[k].link[i])) {
				fprintf(f, "(*) the task waited runnable while the CPU it was "
					"queued on ran the idle task: a scheduler that left it "
					"queued, a VM's vCPU the host did not run, or a slow exit "
					"from a deep idle state\n");
				return;
			}
}

void ft_report_text(FILE *f, const struct ft_report *r)
{
	print_header(f, r);
	print_frames(f, r);
	if (r->m.ntask > 1 || r->norder) {
		print_tasks(f, r);
		print_crit(f, r);
		print_graph(f, r);
		print_futex(f, r);
	}
	print_slow(f, r);
}

/* ---- JSON ------------------------------------------------------------ */

static void jw_hist(struct gs_jw *w, const char *key, const struct gs_hist *h,
		    bool with_max)
{
	gs_jw_obj(w, key);
	gs_jw_uint(w, "count", h ? h->count : 0);
	gs_jw_uint(w, "p50", h && h->count ? gs_hist_pct(h, 50) : 0);
	gs_jw_uint(w, "p99", h && h->count ? gs_hist_pct(h, 99) : 0);
	if (with_max)
		gs_jw_uint(w, "max", h && h->count ? h->max : 0);
	gs_jw_obj_end(w);
}

static void jw_link(struct gs_jw *w, const struct ft_report *r,
		    const struct ft_link *l)
{
	gs_jw_obj(w, NULL);
	gs_jw_uint(w, "tid", l->tid);
	gs_jw_str(w, "comm", ft_task_comm(r->t, l->tid));
	gs_jw_uint(w, "woken_by", l->waker);
	gs_jw_bool(w, "woken_by_interrupt", l->waker_irq || !l->waker);
	gs_jw_uint(w, "wake_ns", l->wake_ts);
	gs_jw_uint(w, "end_ns", l->end_ts);
	gs_jw_uint(w, "runnable_ns", l->runnable_ns);
	gs_jw_uint(w, "run_ns", l->run_ns);
	gs_jw_uint(w, "sleep_ns", l->sleep_ns);
	gs_jw_uint(w, "lock_wait_ns", l->lock_wait_ns);
	gs_jw_uint(w, "timer_wait_ns", l->timer_wait_ns);
	gs_jw_uint(w, "preemptions", l->preemptions);
	gs_jw_uint(w, "cpu", l->cpu);
	gs_jw_bool(w, "other_cpus_busy", l->siblings_busy);
	gs_jw_uint(w, "own_cpu_idle_ns", l->own_idle_ns);
	gs_jw_arr(w, "cpu_held_by");
	for (int k = 0; k < l->nholders; k++) {
		gs_jw_obj(w, NULL);
		gs_jw_uint(w, "tid", l->holder[k].tid);
		gs_jw_str(w, "comm", ft_task_comm(r->t, l->holder[k].tid));
		gs_jw_uint(w, "cpu", l->holder[k].cpu);
		gs_jw_uint(w, "ns", l->holder[k].ns);
		gs_jw_str(w, "why", ft_why_text(l->holder[k].why));
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_obj_end(w);
}

static void jw_explain(struct gs_jw *w, const char *key,
		       const struct ft_report *r, const struct ft_explain *x)
{
	const struct ft_frame *f = &r->t->frames[x->frame];

	gs_jw_obj(w, key);
	gs_jw_uint(w, "frame", x->frame);
	gs_jw_uint(w, "start_ns", f->start_ns);
	gs_jw_uint(w, "present_ns", f->present_ns);
	gs_jw_num(w, "frametime_ms", (double)f->frametime_ns / 1e6);
	gs_jw_bool(w, "disturbance", f->disturbance != 0);
	gs_jw_uint(w, "presenter", x->presenter);
	gs_jw_str(w, "chain_end", ft_stop_text(x->stop));
	gs_jw_arr(w, "links");
	for (int i = 0; i < x->nlinks; i++)
		jw_link(w, r, &x->link[i]);
	gs_jw_arr_end(w);
	if (x->origin >= 0) {
		gs_jw_obj(w, "origin");
		gs_jw_int(w, "link", x->origin);
		gs_jw_uint(w, "tid", x->link[x->origin].tid);
		gs_jw_str(w, "what", x->origin_what);
		gs_jw_int(w, "excess_ns", x->origin_excess_ns);
		gs_jw_int(w, "median_link", x->origin_match);
		gs_jw_obj_end(w);
	}
	gs_jw_int(w, "frame_excess_ns", x->frame_excess_ns);
	gs_jw_obj_end(w);
}

void ft_report_json(FILE *f, const struct ft_report *r)
{
	struct gs_jw w;
	const struct ft_trace *t = r->t;

	gs_jw_init(&w, f, true);
	gs_jw_obj(&w, NULL);
	gs_jw_str(&w, "input", r->o.name ? r->o.name : "");
	gs_jw_str(&w, "source", ft_meta_get(t, "source") ? ft_meta_get(t, "source") : "");
	gs_jw_uint(&w, "start_ns", r->m.start_ns);
	gs_jw_uint(&w, "end_ns", r->m.end_ns);
	gs_jw_uint(&w, "ncpus", r->m.ncpus);
	gs_jw_uint(&w, "events", t->nev);
	gs_jw_uint(&w, "lost_events", t->lost_events);
	{
		struct ft_steal_sum st;

		if (!ft_steal_meta_get(t, &st)) {
			gs_jw_obj(&w, "host_steal");
			gs_jw_uint(&w, "total_ns", st.total_ns);
			gs_jw_uint(&w, "span_ns", st.span_ns);
			gs_jw_int(&w, "ncpus", st.ncpus);
			gs_jw_arr(&w, "top");
			for (int k = 0; k < st.ntop; k++) {
				gs_jw_obj(&w, NULL);
				gs_jw_uint(&w, "cpu", st.top_cpu[k]);
				gs_jw_uint(&w, "ns", st.top_ns[k]);
				gs_jw_obj_end(&w);
			}
			gs_jw_arr_end(&w);
			gs_jw_obj_end(&w);
		}
	}
	gs_jw_uint(&w, "reconstructed_switches", t->reconstructed);
	gs_jw_uint(&w, "repaired_switches_other", t->inconsistent);
	gs_jw_bool(&w, "partial", t->partial);
	if (t->partial)
		gs_jw_str(&w, "warning", t->warning);
	gs_jw_str(&w, "runtime_source", r->m.runtime_source);
	gs_jw_arr(&w, "tasks");
	for (size_t k = 0; k < r->norder; k++) {
		const struct ft_tstat *s = &r->m.task[r->order[k]];

		gs_jw_obj(&w, NULL);
		gs_jw_uint(&w, "tid", s->tid);
		gs_jw_uint(&w, "pid", s->pid);
		gs_jw_str(&w, "comm", ft_task_comm(t, s->tid));
		gs_jw_str(&w, "process", s->pid ? ft_task_comm(t, s->pid) : "?");
		gs_jw_uint(&w, "runtime_ns", s->runtime_ns);
		gs_jw_uint(&w, "runtime_bursts_ns", s->runtime_bursts_ns);
		gs_jw_uint(&w, "switches", s->switches);
		gs_jw_uint(&w, "switches_recorded", s->switches_recorded);
		gs_jw_uint(&w, "switches_repaired", s->repaired);
		gs_jw_uint(&w, "preempted", s->preempted);
		gs_jw_uint(&w, "migrations", s->migrations);
		gs_jw_uint(&w, "wakeups", s->wakeups);
		gs_jw_uint(&w, "wakes_sent", s->wakes_sent);
		gs_jw_num(&w, "wake_rate_hz", (double)s->wakeups / span_s(r));
		jw_hist(&w, "run_ns", s->run, true);
		gs_jw_num(&w, "run_cv", ft_tstat_cv(s));
		jw_hist(&w, "sleep_ns", s->sleep, true);
		jw_hist(&w, "wakeup_latency_ns", s->wlat, true);
		gs_jw_obj(&w, "futex");
		gs_jw_uint(&w, "waits", s->futex_waits);
		gs_jw_uint(&w, "wait_ns", s->futex_wait_ns);
		gs_jw_uint(&w, "max_wait_ns", s->futex_wait_max_ns);
		gs_jw_uint(&w, "wakes", s->futex_wakes);
		gs_jw_obj_end(&w);
		gs_jw_num(&w, "latency_score", s->lat_score);
		gs_jw_bool(&w, "recorder", s->recorder);
		gs_jw_obj_end(&w);
	}
	gs_jw_arr_end(&w);
	gs_jw_arr(&w, "latency_critical");
	for (size_t k = 0; k < r->ncrit && k < (size_t)r->o.top; k++)
		gs_jw_uint(&w, NULL, r->m.task[r->crit[k]].tid);
	gs_jw_arr_end(&w);
	gs_jw_arr(&w, "wake_graph");
	for (size_t k = 0; k < r->m.nedge; k++) {
		const struct ft_edge *e = &r->m.edge[r->edges[k]];

		gs_jw_obj(&w, NULL);
		gs_jw_uint(&w, "waker", e->waker);
		gs_jw_uint(&w, "wakee", e->wakee);
		gs_jw_uint(&w, "count", e->count);
		gs_jw_obj_end(&w);
	}
	gs_jw_arr_end(&w);
	gs_jw_arr(&w, "wake_chains");
	for (size_t k = 0; k < r->m.nchain && k < 20; k++) {
		const struct ft_chain *c = &r->m.chain[r->chains[k]];

		gs_jw_obj(&w, NULL);
		gs_jw_arr(&w, "tids");
		for (int i = 0; i < c->len; i++)
			gs_jw_uint(&w, NULL, c->tid[i]);
		gs_jw_arr_end(&w);
		gs_jw_uint(&w, "count", c->count);
		gs_jw_obj_end(&w);
	}
	gs_jw_arr_end(&w);
	if (r->has_fps) {
		gs_jw_obj(&w, "frames");
		gs_jw_uint(&w, "pid", r->frame_pid);
		gs_jw_uint(&w, "count", r->fps.frames);
		gs_jw_num(&w, "avg_fps", r->fps.avg_fps);
		gs_jw_num(&w, "low1_percentile_fps", r->fps.low1_percentile_fps);
		gs_jw_num(&w, "low1_average_fps", r->fps.low1_average_fps);
		gs_jw_num(&w, "low01_percentile_fps", r->fps.low01_percentile_fps);
		gs_jw_num(&w, "min_fps", r->fps.min_fps);
		gs_jw_obj(&w, "frametime_ms");
		gs_jw_num(&w, "p50", r->fps.ft_p50);
		gs_jw_num(&w, "p90", r->fps.ft_p90);
		gs_jw_num(&w, "p99", r->fps.ft_p99);
		gs_jw_num(&w, "p999", r->fps.ft_p999);
		gs_jw_num(&w, "max", r->fps.ft_max);
		gs_jw_obj_end(&w);
		gs_jw_num(&w, "slow_threshold_ms", r->slow_ms);
		gs_jw_uint(&w, "slow_count", r->nslow);
		gs_jw_uint(&w, "disturbed_count", r->ndisturbed);
		gs_jw_obj_end(&w);
		if (r->has_median)
			jw_explain(&w, "median_frame", r, &r->median);
		gs_jw_arr(&w, "slow_frames");
		for (size_t k = 0; k < r->nex; k++)
			jw_explain(&w, NULL, r, &r->ex[k]);
		gs_jw_arr_end(&w);
	}
	gs_jw_obj_end(&w);
	gs_jw_done(&w);
}

/* ---- Graphviz -------------------------------------------------------- */

static void dot_id(FILE *f, const struct ft_trace *t, uint32_t tid)
{
	const char *c = ft_task_comm(t, tid);

	fputc('"', f);
	for (; *c; c++)
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if ((unsigned char)*c >= 0x20)
			fputc(*c, f);
	fprintf(f, ":%u\"", tid);
}

void ft_report_dot(FILE *f, const struct ft_report *r)
{
	uint64_t maxc = r->m.nedge ? r->m.edge[r->edges[0]].count : 1;

	fprintf(f, "// frametrace wake graph: waker -> wakee, label = wake-ups\n");
	fprintf(f, "digraph wakeups {\n  rankdir=LR;\n  node [shape=box, "
		"fontname=\"monospace\"];\n");
	for (size_t k = 0; k < r->m.nedge; k++) {
		const struct ft_edge *e = &r->m.edge[r->edges[k]];

		fprintf(f, "  ");
		dot_id(f, r->t, e->waker);
		fprintf(f, " -> ");
		dot_id(f, r->t, e->wakee);
		fprintf(f, " [label=\"%" PRIu64 "\", penwidth=%.2f];\n", e->count,
			1.0 + 4.0 * (double)e->count / (double)maxc);
	}
	fprintf(f, "}\n");
}
