// SPDX-License-Identifier: GPL-2.0-only
/* The captures of frametrace watch (watch.h): the window around a trigger
 * as a trace file, and the note that names the delay's origin. */
#include "watch.h"

#include <inttypes.h>
#include <string.h>

#include "analysis/explain.h"
#include "trace/finish.h"
#include "export/report.h"
#include "trace/tracefile.h"
#include "util.h"

/* The events, markers and frames in [lo, hi], and every task's name;
 * *oldest is the oldest event the ring still held. 0, or -1 when memory
 * runs out. */
static int window_fill(struct ft_watch *w, struct ft_trace *t, uint64_t lo,
		       uint64_t hi, uint64_t *oldest)
{
	const struct ft_flight *fl = &w->ring;

	for (size_t i = 0; i < fl->ncopy; i++) {
		const struct ft_ev *e = &fl->copy[i].ev;

		if (e->ts < *oldest)
			*oldest = e->ts;
		if (e->ts < lo || e->ts > hi)
			continue;
		if (ft_trace_push(t, e))
			return -1;
	}
	for (size_t i = 0; i < w->nmarks; i++) {
		struct ft_ev e = w->marks[i].ev;
		long idx;

		if (e.ts < lo || e.ts > hi)
			continue;
		idx = ft_str_add(t, w->marks[i].text);
		if (idx < 0)
			return -1;
		e.arg2 = (uint32_t)idx;
		if (ft_trace_push(t, &e))
			return -1;
	}
	for (size_t i = 0; i < w->nframes; i++)
		if (w->frames[i].present_ns >= lo && w->frames[i].present_ns <= hi &&
		    ft_frame_push(t, &w->frames[i]))
			return -1;
	for (size_t i = 0; i < w->names.ntasks; i++) {
		const struct ft_task_rec *r = &w->names.tasks[i];

		if (ft_task_set(t, r->tid, r->pid, r->comm))
			return -1;
		ft_task_get_mut(t, r->tid)->flags = r->flags;
	}
	return 0;
}

/* torn and overwritten: what this capture's last copy missed. */
static void window_meta(struct ft_watch *w, struct ft_trace *t, uint64_t lo,
			uint64_t hi, uint64_t torn, uint64_t overwritten)
{
	t->start_ns = lo;
	t->end_ns = hi;
	ft_meta_set(t, "source", "watch");
	ft_meta_set(t, "trigger", "%s", w->trig_text);
	ft_meta_set(t, "trigger_ns", "%" PRIu64, w->trig_ns);
	/* the report's baseline and the frame it explains first: during a
	 * long disturbance the window's own median is slow too */
	if (w->trig_frame_present)
		ft_meta_set(t, "trigger_frame_ns", "%" PRIu64,
			    w->trig_frame_present);
	if (w->trig_median_ms > 0)
		ft_meta_set(t, "trigger_median_ns", "%" PRIu64,
			    (uint64_t)(w->trig_median_ms * 1e6 + 0.5));
	ft_meta_set(t, "window_ns", "%" PRIu64 " %" PRIu64, lo, hi);
	ft_meta_set(t, "ring", "%s", w->o.user_ring ? "user" : "kernel");
	ft_meta_set(t, "torn_slots", "%" PRIu64, torn);
	ft_meta_set(t, "overwritten", "%" PRIu64, overwritten);
	ft_meta_set(t, "futex", "%s", w->b.futex_src);
	ft_meta_set(t, "irq_context", "bpf");
	ft_meta_set(t, "irq_depth_resets", "%" PRIu64, ft_bpf_irq_resets(&w->b));
	if (w->kernel)
		ft_meta_set(t, "kernel", "%s", w->kernel);
	if (w->have_steal && !ft_steal_sample(&w->steal, gs_now_ns())) {
		struct ft_steal_sum sum;

		if (!ft_steal_window(&w->steal, lo, hi, &sum))
			ft_steal_meta_set(t, &sum);
	}
	t->lost_events = ft_bpf_lost(&w->b, true) + overwritten;
}

/* What the file will take on disk, for --max-disk. */
static uint64_t size_estimate(const struct ft_trace *t)
{
	uint64_t est = FT_HEADER_SIZE + t->nev * sizeof(struct ft_ev) +
		       t->ntasks * sizeof(struct ft_task_rec) +
		       t->nframes * sizeof(struct ft_frame) + 4096;

	for (size_t i = 0; i < t->nstr; i++)
		est += strlen(t->str[i]) + 1;
	return est;
}

/* "; origin: link N ..." of the frame that fired the trigger (the frame
 * presented nearest to it, within 1 ms), or "" when there is none. */
static void note_origin(struct ft_watch *w, const struct ft_trace *t,
			char *out, size_t len)
{
	struct ft_report r;
	struct ft_report_opts o = { .top = 5, .explain = 0, .pid = w->trig_pid };
	struct ft_explain x;
	size_t best = SIZE_MAX;
	uint64_t bd = UINT64_MAX;

	out[0] = '\0';
	if (!w->trig_frame_present || !t->nframes)
		return;
	if (ft_report_build(&r, t, &o)) {
		ft_report_free(&r);
		return;
	}
	for (size_t i = 0; i < t->nframes; i++) {
		uint64_t d = t->frames[i].present_ns > w->trig_frame_present
				     ? t->frames[i].present_ns - w->trig_frame_present
				     : w->trig_frame_present - t->frames[i].present_ns;

		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	if (best != SIZE_MAX && bd < 1000000 &&
	    !ft_explain_frame(&r.m, best, r.presenter, &x)) {
		char a[64], d1[24], d2[24];

		ft_explain_compare(&r.m, &x, r.has_median ? &r.median : NULL);
		if (x.origin >= 0) {
			const struct ft_link *l = &x.link[x.origin];
			bool runnable = ft_origin_kind(&x) == 0;
			size_t o2;

			snprintf(out, len, "; origin: link %d %s %s %s (+%s",
				 x.origin + 1, ft_task_label(t, l->tid, a, sizeof(a)),
				 ft_origin_verb(&x),
				 ft_fmt_ns(d1, sizeof(d1), ft_origin_ns(&x)),
				 ft_fmt_ns(d2, sizeof(d2), (uint64_t)x.origin_excess_ns));
			o2 = strlen(out);
			if (x.frame_excess_ns > 0)
				snprintf(out + o2, len - o2, " of +%s%s)",
					 ft_fmt_ns(d2, sizeof(d2), (uint64_t)x.frame_excess_ns),
					 x.origin_exceeds ? ": more than the frame's excess, "
							    "other links were faster" : "");
			else
				snprintf(out + o2, len - o2, ")");
			o2 = strlen(out);
			if (runnable && ft_link_idle_wait(l))
				snprintf(out + o2, len - o2,
					 ", its CPU%u idle meanwhile (wake-up not acted on)",
					 l->nholders ? (unsigned)l->holder[0].cpu : 0u);
			else if (runnable && l->nholders)
				snprintf(out + o2, len - o2, ", CPU%u held by %s",
					 l->holder[0].cpu,
					 ft_task_label(t, l->holder[0].tid, a, sizeof(a)));
		} else if (x.frame_excess_ns > 0) {
			snprintf(out, len, "; origin: before the wake chain (no link of it "
				 "took longer than in the median frame)");
		}
	}
	ft_report_free(&r);
}

/* What the note says of a window that reaches past the oldest event the
 * ring held: a watch younger than the window, or a ring too small. */
static void note_ring(const struct ft_watch *w, uint64_t lo, uint64_t oldest,
		      char *out, size_t len)
{
	out[0] = '\0';
	if (oldest <= lo)
		return;
	/* 100 ms: the programs attach a little before the watch's clock */
	if (w->start_ns > lo && oldest <= w->start_ns + 100000000ULL)
		snprintf(out, len, " (the watch had run only %.2f s)",
			 (double)(w->trig_ns - w->start_ns) / 1e9);
	else
		snprintf(out, len, " (ring held less: raise --ring-slots)");
}

/* The worst frame merged into the capture, when it is not the trigger's,
 * and the triggers merged. */
static void note_merged(const struct ft_watch *w, char *out, size_t len)
{
	size_t o;

	out[0] = '\0';
	if (!w->merged_here)
		return;
	snprintf(out, len, "; %" PRIu64 " more trigger%s merged", w->merged_here,
		 w->merged_here == 1 ? "" : "s");
	o = strlen(out);
	if (w->worst_present && w->worst_present != w->trig_frame_present)
		snprintf(out + o, len - o, ", the worst frame %.2f ms of %s %u at %.6f s",
			 w->worst_ms,
			 w->worst_pid ? ft_task_comm(&w->names, w->worst_pid) : "log",
			 w->worst_pid, (double)w->worst_present / 1e9);
}

/* The capture's one-line note, on stdout (unless --quiet) and in
 * captures.log. */
static void note_capture(struct ft_watch *w, const struct ft_trace *t,
			 const char *path, uint64_t lo, uint64_t oldest, bool torn,
			 const char *origin)
{
	char line[6000], ring[80], merged[300];

	note_ring(w, lo, oldest, ring, sizeof(ring));
	note_merged(w, merged, sizeof(merged));
	snprintf(line, sizeof(line),
		 "capture %" PRIu64 ": %s at %.6f s; window -%.2f..+%.2f s%s; "
		 "%zu events, %zu frames%s -> %s%s%s",
		 w->captures, w->trig_text, (double)w->trig_ns / 1e9,
		 (double)w->o.pre_ns / 1e9, (double)w->o.post_ns / 1e9, ring,
		 t->nev, t->nframes, torn ? " (torn slots skipped)" : "", path,
		 origin, merged);
	if (!w->o.quiet)
		printf("%s\n", line);
	fflush(stdout);
	if (w->log) {
		fprintf(w->log, "%s\n", line);
		fflush(w->log);
	}
}

void ft_capture_save(struct ft_watch *w)
{
	struct ft_trace t;
	uint64_t lo = w->trig_ns > w->o.pre_ns ? w->trig_ns - w->o.pre_ns : 0;
	uint64_t hi = w->trig_ns + w->o.post_ns, oldest = UINT64_MAX;
	char path[4200], err[512], origin[300];
	uint64_t torn0 = w->ring.torn, over0 = w->ring.overwritten;
	uint64_t est;

	w->pending = false;
	if (ft_flight_copy(&w->ring, false)) {
		w->oom = true;
		return;
	}
	ft_trace_init(&t);
	t.ncpus = (uint32_t)w->b.ncpus;
	ft_flight_copy_sort(&w->ring);
	if (window_fill(w, &t, lo, hi, &oldest))
		goto oom;
	window_meta(w, &t, lo, hi, w->ring.torn - torn0,
		    w->ring.overwritten - over0);
	if (ft_trace_finish(&t))
		goto oom;
	est = size_estimate(&t);
	if (w->disk_used + est > w->o.max_disk) {
		fprintf(w->log ? w->log : stderr,
			"capture skipped: %s; disk cap %.1f MiB reached\n",
			w->trig_text, (double)w->o.max_disk / (1 << 20));
		if (w->log)
			fflush(w->log);
		w->suppressed++;
		ft_trace_free(&t);
		return;
	}
	w->captures++;
	snprintf(path, sizeof(path), "%s/capture-%03" PRIu64 ".ftr", w->o.dir,
		 w->captures);
	if (ft_trace_write(&t, path, err, sizeof(err))) {
		gs_warn("watch: %s", err);
		ft_trace_free(&t);
		return;
	}
	w->disk_used += est;
	note_origin(w, &t, origin, sizeof(origin));
	note_capture(w, &t, path, lo, oldest, w->ring.torn != torn0, origin);
	ft_trace_free(&t);
	return;
oom:
	w->oom = true;
	ft_trace_free(&t);
}
