// SPDX-License-Identifier: GPL-2.0-only
/* The triggers of frametrace watch (watch.h): frames against a fixed
 * limit or their source's running median, and the rate limits. */
#include "watch.h"

#include <stdarg.h>
#include <string.h>

#include "trace/ftutil.h"
#include "stats.h"

static double median_of(const struct ft_frame_src *s)
{
	double tmp[FT_MEDIAN_WIN];

	memcpy(tmp, s->win, s->n * sizeof(double));
	gs_sort_doubles(tmp, s->n);
	return s->n ? tmp[s->n / 2] : 0;
}

static struct ft_frame_src *src_of(struct ft_watch *w, uint32_t pid)
{
	for (size_t i = 0; i < w->nsrcs; i++)
		if (w->srcs[i].pid == pid)
			return &w->srcs[i];
	if (FT_VEC_RESERVE(w->srcs, w->nsrcs, w->srccap))
		return NULL;
	memset(&w->srcs[w->nsrcs], 0, sizeof(w->srcs[0]));
	w->srcs[w->nsrcs].pid = pid;
	return &w->srcs[w->nsrcs++];
}

void ft_watch_fire(struct ft_watch *w, uint64_t ts, uint32_t pid,
		   uint64_t present, const char *fmt, ...)
{
	va_list ap;

	if (w->pending) {
		w->merged++;
		w->merged_here++;
		return;
	}
	if (w->captures >= w->o.max_captures ||
	    (w->have_last && ts < w->last_trig_ns + w->o.min_gap_ns)) {
		w->suppressed++;
		return;
	}
	w->pending = true;
	w->trig_ns = ts;
	w->trig_pid = pid;
	w->trig_frame_present = present;
	w->trig_median_ms = 0;
	w->worst_ms = 0;
	w->worst_present = 0;
	w->worst_pid = 0;
	w->merged_here = 0;
	va_start(ap, fmt);
	vsnprintf(w->trig_text, sizeof(w->trig_text), fmt, ap);
	va_end(ap);
	w->last_trig_ns = ts;
	w->have_last = true;
	/* start copying the kernel ring now: the pre-trigger part */
	ft_flight_copy_reset(&w->ring);
}

/* A frame over a trigger's limit: it starts a capture, or is merged into
 * the pending one, whose worst frame it may be. */
static void frame_trigger(struct ft_watch *w, uint32_t pid, uint64_t present,
			  double ms, double med, const char *text)
{
	bool pending = w->pending;

	ft_watch_fire(w, present, pid, present, "%s", text);
	if (!w->pending || (pending && ms <= w->worst_ms))
		return;
	if (!pending)
		w->trig_median_ms = med;
	w->worst_ms = ms;
	w->worst_present = present;
	w->worst_pid = pid;
}

void ft_watch_frame_seen(struct ft_watch *w, uint32_t pid, uint64_t present,
			 uint64_t frametime_ns, bool warmup, const char *from)
{
	struct ft_frame_src *s = src_of(w, pid);
	double ms = (double)frametime_ns / 1e6, med;
	const char *who;
	char text[256], mtext[64];

	if (!s) {
		w->oom = true;
		return;
	}
	med = s->n ? median_of(s) : 0;
	who = pid ? ft_task_comm(&w->names, pid) : "log";
	if (s->n)
		snprintf(mtext, sizeof(mtext), "median %.2f ms", med);
	else
		snprintf(mtext, sizeof(mtext), "no median yet");
	if (!warmup || w->o.warmup_triggers) {
		if (w->o.frame_ms > 0 && ms > w->o.frame_ms) {
			snprintf(text, sizeof(text),
				 "frame %.2f ms > %.2f ms (%s) of %s %u (%s)",
				 ms, w->o.frame_ms, mtext, who, pid, from);
			frame_trigger(w, pid, present, ms, med, text);
		} else if (w->o.factor > 0 && s->n >= w->o.min_frames &&
			   med > 0 && ms > w->o.factor * med) {
			snprintf(text, sizeof(text),
				 "frame %.2f ms = %.1fx the running median "
				 "%.2f ms of %s %u (%s)",
				 ms, ms / med, med, who, pid, from);
			frame_trigger(w, pid, present, ms, med, text);
		}
	}
	s->win[s->pos] = ms;
	s->pos = (s->pos + 1) % FT_MEDIAN_WIN;
	if (s->n < FT_MEDIAN_WIN)
		s->n++;
}
