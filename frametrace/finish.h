/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FT_FINISH_H
#define FT_FINISH_H

#include "trace.h"

/*
 * Makes a freshly read trace consistent; every reader calls it:
 * sorts events by time (stable), learns tgids from events, derives frames
 * from atrace markers when the trace has none from a feed, and repairs the
 * missing idle->task sched_switch quirk (docs/tracing.md, "Missing
 * idle-to-task switches"): a task that leaves a CPU it was never switched
 * onto gets a reconstructed switch-in (FT_F_RECONSTRUCTED) at the best
 * time the trace supports (its sum_exec_runtime or sched_stat_runtime,
 * else its wake-up), counted in t->reconstructed (from idle) or
 * t->inconsistent (from another task).
 */
int ft_trace_finish(struct ft_trace *t);

#endif
