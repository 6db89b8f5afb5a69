/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FT_FINISH_H
#define FT_FINISH_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"

/*
 * Makes a freshly read trace consistent; every reader calls it:
 * sorts events by time (stable), learns tgids from events, derives frames
 * from atrace markers when the trace has none from a feed, and repairs the
 * missing idle->task sched_switch quirk (docs/tracing.md, "Missing
 * idle-to-task switches"): a task that leaves a CPU it was never switched
 * onto gets a reconstructed switch-in (FT_F_RECONSTRUCTED) at the best
 * time the trace supports (ft_switch_in_time: bounded by the events on
 * that CPU, placed by its sum_exec_runtime or sched_stat_runtime),
 * counted in t->reconstructed (from idle) or t->inconsistent (from another
 * task); what the input still contradicts is counted in
 * t->contradictions.
 */
int ft_trace_finish(struct ft_trace *t);

/* Where a reconstructed switch-in goes: est (the task's runtime before
 * it left, counted back from its switch-out; lo when !has_est) within
 * [lo, hi]. lo: the CPU's previous switch, the task's wake-up, the last
 * event the previous task emitted there; hi: the task's first event
 * there (it ran from then at the latest). lo > hi: the input contradicts
 * itself (*contradiction); the task's own event wins (hi). */
struct ft_switch_bounds {
	uint64_t lo, hi, est;
	bool has_est;
};
uint64_t ft_switch_in_time(const struct ft_switch_bounds *b,
			   bool *contradiction);

/* Events whose emitter (ft_ev_emitter) is not the task the switches put
 * on their CPU at that time: what the input contradicts itself in (two
 * tasks seen running on one CPU with no switch between them). CPUs count
 * from their first switch. ft_trace_finish stores it in
 * t->contradictions. */
uint64_t ft_trace_contradictions(const struct ft_trace *t);

#endif
