// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report as terminal text (report.h). */
#include "report.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "trace/ftutil.h"
#include "trace/steal.h"

static double pct_ms(const struct gs_hist *h, double p)
{
	return h && h->count ? (double)gs_hist_pct(h, p) / 1e6 : 0;
}

static double pct_us(const struct gs_hist *h, double p)
{
	return h && h->count ? (double)gs_hist_pct(h, p) / 1e3 : 0;
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
	/* what the file says about itself, as text (a damaged or made-up
	 * file may say anything) */
	char sb[64], fb[64], kb[128], xb[64], gb[300];
	const char *src = ft_meta_get(t, "source");
	const char *fmt = ft_meta_get(t, "format");
	const char *kern = ft_meta_get(t, "kernel");
	const char *fx = ft_meta_get(t, "futex");
	const char *trig = ft_meta_get(t, "trigger");

	src = src ? ft_printable(src, sb, sizeof(sb)) : NULL;
	fmt = fmt ? ft_printable(fmt, fb, sizeof(fb)) : NULL;
	kern = kern ? ft_printable(kern, kb, sizeof(kb)) : NULL;
	fx = fx ? ft_printable(fx, xb, sizeof(xb)) : "?";
	trig = trig ? ft_printable(trig, gb, sizeof(gb)) : NULL;

	fprintf(f, "frametrace report: %s\n", r->o.name ? r->o.name : "");
	fprintf(f, "source: %s%s%s%s%s, span %.3f s, %u CPUs, %zu events, "
		"%" PRIu64 " lost",
		src ? src : "?", fmt ? " (" : "", fmt ? fmt : "", fmt ? ")" : "",
		kern ? "" : "", ft_report_span_s(r), r->m.ncpus, t->nev, t->lost_events);
	if (t->corrupt_events || t->corrupt_bytes)
		fprintf(f, ", %" PRIu64 " lost to damage in the file (%" PRIu64
			" bytes unreadable)", t->corrupt_events, t->corrupt_bytes);
	fputc('\n', f);
	if (kern)
		fprintf(f, "kernel: %s, futex events: %s\n", kern, fx);
	fprintf(f, "runtime from: %s; switch-ins reconstructed: %" PRIu64
		" idle->task (missing sched_switch records), %" PRIu64
		" other\n",
		r->m.runtime_source, t->reconstructed, t->inconsistent);
	if (t->contradictions)
		fprintf(f, "timeline: %" PRIu64 " events emitted by a task not "
			"switched in on their CPU (the input contradicts itself "
			"there)\n", t->contradictions);
	if (r->irq_suspect[0])
		fprintf(f, "warning: interrupt context looks stuck on %s: %" PRIu64
			" of %" PRIu64 " wake-ups there marked as made by "
			"interrupts while tasks there made futex wake calls (a "
			"recorder that missed an interrupt's exit); the wake-ups "
			"those tasks gave are missing from the wake graph\n",
			r->irq_suspect, r->irq_suspect_irq, r->irq_suspect_wakes);
	print_steal(f, t);
	if (t->partial)
		fprintf(f, "warning: partial data: %s\n", t->warning);
	if (ft_meta_get(t, "processes"))
		fprintf(f, "processes: %s\n", ft_meta_get(t, "processes"));
	if (ft_meta_get(t, "trigger"))
		fprintf(f, "capture: %s\n", trig);
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
	if (r->frame_source[0])
		fprintf(f, "  from: %s\n", r->frame_source);
	fprintf(f, "  frame time ms: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  "
		"max %.2f\n",
		s->ft_p50, s->ft_p90, s->ft_p99, s->ft_p999, s->ft_max);
	if (r->trigger_baseline)
		fprintf(f, "  baseline: %.2f ms, the running median before the "
			"capture's trigger (this window's frames may be slow "
			"throughout)\n", r->median_ms);
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
		char run[32], wl[40], pre[24];

		snprintf(run, sizeof(run), "%.3f/%.3f", pct_ms(s->run, 50),
			 pct_ms(s->run, 99));
		snprintf(wl, sizeof(wl), "%.0f/%.0f/%.0f", pct_us(s->wlat, 50),
			 pct_us(s->wlat, 99), pct_us(s->wlat, 100));
		snprintf(pre, sizeof(pre), "%" PRIu64, s->preempted);
		if (s->switchouts_unseen) {
			/* the repair's guesses, not figures (model.h) */
			snprintf(wl, sizeof(wl), "switch-outs not seen");
			snprintf(pre, sizeof(pre), "-");
		}
		fprintf(f, "  %-24s %7u %9.2f %5.1f %8" PRIu64 " %7s"
			" %6" PRIu64 " %6.0f %15s %5.2f %22s %9.3f %8" PRIu64
			" %9.2f%s\n",
			ft_task_label(r->t, s->tid, lb, sizeof(lb)), s->pid,
			(double)s->runtime_ns / 1e6,
			100.0 * (double)s->runtime_ns / 1e9 / ft_report_span_s(r) /
				(r->m.ncpus ? r->m.ncpus : 1),
			s->switches, pre, s->migrations,
			(double)s->wakeups / ft_report_span_s(r), run, ft_tstat_cv(s), wl,
			pct_ms(s->sleep, 50), s->futex_waits,
			(double)s->futex_wait_ns / 1e6, s->recorder ? "  (recorder)" : "");
	}
}

/* Inputs that do not say which wake-ups interrupts made. */
static bool irq_unknown(const struct ft_report *r)
{
	return !strcmp(r->irq_context, "none") ||
	       !strcmp(r->irq_context, "unknown");
}

static void print_crit(FILE *f, const struct ft_report *r)
{
	char lb[64];
	size_t n = r->ncrit < (size_t)r->o.top ? r->ncrit : (size_t)r->o.top;

	if (!n)
		return;
	fprintf(f, "\nlatency-critical tasks (score = log2(1+woken/s) + "
		"log2(1+wakes/s), as LAVD ranks them):\n");
	if (irq_unknown(r))
		fprintf(f, "  (wakes/s may include wake-ups by interrupts: the "
			"input does not tell them apart)\n");
	fprintf(f, "  %4s %-24s %6s %8s %8s %12s %11s\n", "rank", "task", "score",
		"woken/s", "wakes/s", "wake-lat p99", "run p50");
	for (size_t k = 0; k < n; k++) {
		const struct ft_tstat *s = &r->m.task[r->crit[k]];
		char wl[24] = "not seen";

		if (!s->switchouts_unseen)
			snprintf(wl, sizeof(wl), "%.0f us", pct_us(s->wlat, 99));
		fprintf(f, "  %4zu %-24s %6.2f %8.0f %8.0f %12s %8.3f ms\n",
			k + 1, ft_task_label(r->t, s->tid, lb, sizeof(lb)),
			s->lat_score, (double)s->wakeups / ft_report_span_s(r),
			(double)s->wakes_sent / ft_report_span_s(r), wl,
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
		if (irq_unknown(r))
			fprintf(f, "  (this input does not say which wake-ups "
				"interrupts made: an edge may count wake-ups by an "
				"interrupt that came while the waker ran)\n");
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

/* Who held the CPU a link waited on, and whether another CPU was free. */
static void print_holders(FILE *f, const struct ft_report *r,
			  const struct ft_link *l, const char *indent)
{
	const struct ft_trace *t = r->t;
	char a[64], d1[24], d2[24], d3[24], d4[24];

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

void ft_explain_print(FILE *f, const struct ft_report *r,
		      const struct ft_explain *x, const char *indent)
{
	const struct ft_trace *t = r->t;
	const struct ft_frame *fr = &t->frames[x->frame];
	char a[64], b[64], d1[24], d2[24], d3[24], d4[24];

	fprintf(f, "%sframe at %.6f s: %s (%s %.2f ms)%s%s, presented by %s\n",
		indent, (double)fr->present_ns / 1e9,
		ft_fmt_ns(d1, sizeof(d1), fr->frametime_ns),
		r->trigger_baseline ? "running median before the trigger" : "median",
		r->median_ms,
		fr->disturbance ? " [framebench disturbance running]" : "",
		x->frame == r->trig_frame ? " [the capture's trigger]" : "",
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
		if (l->lock_wait_ns && l->futex_uaddr)
			fprintf(f, ", futex wait %s (0x%" PRIx64 ")",
				ft_fmt_ns(d4, sizeof(d4), l->lock_wait_ns),
				l->futex_uaddr);
		else if (l->lock_wait_ns) /* futex source "sched": no address */
			fprintf(f, ", futex wait %s",
				ft_fmt_ns(d4, sizeof(d4), l->lock_wait_ns));
		else if (l->sleep_ns)
			fprintf(f, ", slept %s", ft_fmt_ns(d4, sizeof(d4), l->sleep_ns));
		fputc('\n', f);
		if (l->nholders && l->runnable_ns >= 20000)
			print_holders(f, r, l, indent);
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
			x->origin_pool ? "its pool's longest in the median frame's chain"
			: m ? "in the median frame's chain" : typical[ft_origin_kind(x)],
			ft_fmt_ns(d3, sizeof(d3), (uint64_t)x->origin_excess_ns));
		if (x->frame_excess_ns > 0)
			fprintf(f, " of the frame's +%s",
				ft_fmt_ns(d4, sizeof(d4), (uint64_t)x->frame_excess_ns));
		fprintf(f, ")\n");
		if (x->origin_exceeds)
			fprintf(f, "%s     (more than the frame's own excess: other links "
				"were faster than in the median frame, so this says where "
				"the time went, not what delayed the frame)\n", indent);
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
	if (!r->nslow && !r->nex) {
		fprintf(f, "\nno frame above %.2f ms\n", r->slow_ms);
		return;
	}
	fprintf(f, "\nslow frames explained (%zu of %zu above %.2f ms, %s):\n",
		r->nex, r->nslow, r->slow_ms,
		r->trig_frame != SIZE_MAX ? "the capture's trigger first, then the worst"
					  : "worst first");
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
