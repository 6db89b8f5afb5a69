/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Slow-frame explanation: walk the wake chain that produced a frame back
 * from its present to its start, link by link, and say for each link how
 * long the task waited runnable, who held its CPU meanwhile and why, how
 * long it ran, and what it waited on (futex). The same walk on the median
 * frame gives the baseline the slow frame is compared with.
 *
 * A link is one task between the wake-up that made it runnable and the
 * moment the chain continues from it (the present for the first link,
 * else the wake-up it gave the next link). Within a link the task runs or
 * waits runnable; when its last wake-up came from an interrupt (a timer:
 * vsync pacing, a sleep) and an earlier wake-up inside the frame came from
 * a task, the link starts at that earlier wake-up and the sleep until the
 * interrupt is shown as a timer wait, so the chain goes on to the task that
 * handed it the work.
 */
#ifndef FT_EXPLAIN_H
#define FT_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define FT_MAX_LINKS 32
#define FT_MAX_HOLDERS 3

enum ft_why {
	FT_WHY_RAN,		/* simply ran on that CPU meanwhile */
	FT_WHY_PREEMPT,		/* preempted the task */
	FT_WHY_LONG_SLICE,	/* held the CPU in one long run */
};

struct ft_holder {
	uint32_t tid;
	uint16_t cpu;
	uint8_t why;
	uint64_t ns;		/* time it ran on that CPU during the wait */
	uint64_t longest;	/* its longest single run in the wait */
};

enum ft_stop {
	FT_STOP_FRAME_START,	/* the chain reached back before the frame start */
	FT_STOP_IRQ,		/* woken by an interrupt (timer, device) */
	FT_STOP_NO_WAKE,	/* no wake-up in the trace (trace start) */
	FT_STOP_NOT_RUNNING,	/* the waker was not seen running */
	FT_STOP_DEPTH,		/* FT_MAX_LINKS reached */
	FT_STOP_LOOP,		/* self wake-up */
};

struct ft_link {
	uint32_t tid;
	uint32_t waker;		/* 0: interrupt or unknown */
	bool waker_irq;
	uint8_t rq_reason;	/* enum ft_rq_reason of its first wait */
	uint16_t cpu;		/* CPU it ran on last in the link */
	uint64_t wake_ts;	/* start of the link */
	uint64_t end_ts;	/* where the chain continued */
	uint64_t runnable_ns;	/* waited runnable within the link */
	uint64_t run_ns;	/* ran within the link */
	uint64_t sleep_ns;	/* slept before the wake-up (0 unknown) */
	uint64_t lock_wait_ns;	/* futex wait the wake-up ended (0 none) */
	uint64_t timer_wait_ns;	/* slept inside the link until an interrupt
				 * (timer, vsync) woke it again */
	uint64_t futex_uaddr;
	uint32_t preemptions;	/* times preempted within the link */
	struct ft_holder holder[FT_MAX_HOLDERS];
	int nholders;
	bool siblings_busy;	/* no other CPU was idle while it waited */
	int16_t idle_cpu;	/* a CPU that was idle meanwhile, -1 none */
	uint64_t idle_ns;	/* how long that CPU was idle */
	/* of runnable_ns, the time its own CPU ran the idle task: a wake-up
	 * not acted on (a VM's vCPU the host did not run, a deep idle exit) */
	uint64_t own_idle_ns;
};

struct ft_explain {
	size_t frame;		/* index in the trace's frames */
	uint32_t presenter;	/* thread that presented (0 unknown) */
	struct ft_link link[FT_MAX_LINKS];
	int nlinks;
	enum ft_stop stop;
	/* against the median frame */
	int origin;		/* link where the extra time comes from, -1 */
	const char *origin_what; /* "runnable", "run", "lock", "sleep" */
	int64_t origin_excess_ns;
	int origin_match;	/* matching link in the median chain, -1 */
	/* the origin is a pool thread (llvmpipe-0, llvmpipe-1: threads of
	 * one process named alike but for a number), compared with the
	 * pool's longest in the median chain (origin_match is that link),
	 * not with its own link there: symmetric workers trade the work and
	 * the hand-off from frame to frame */
	bool origin_pool;
	/* the origin's excess is well over the frame's own: the chain's
	 * other links were faster than their counterparts, so the
	 * comparison says where the time went, not what delayed the frame */
	bool origin_exceeds;
	int64_t frame_excess_ns; /* frame time minus the median frame's (0
				  * without a median): what the origin
				  * explains a part of */
};

/* Explains frame index fi. Returns 0, or -1 when the frame's process has
 * no thread in the scheduling data (frames-only traces). */
int ft_explain_frame(const struct ft_model *m, size_t fi, uint32_t dominant,
		     struct ft_explain *x);
/* The thread of pid most often running at its frames' present times (the
 * presenting thread when frames do not name it), 0 if none. */
uint32_t ft_dominant_presenter(const struct ft_model *m, uint32_t pid);
/* Fills x->origin* and x->frame_excess_ns by comparing with the median
 * frame's chain. The origin is the link's runnable wait, run or futex
 * wait that exceeds its counterpart most; a futex wait only for the last
 * link, since the links after it in time cover an earlier link's wait. */
void ft_explain_compare(const struct ft_model *m, struct ft_explain *x,
			const struct ft_explain *median);

/* Is the origin's excess well over the frame's (x->origin_exceeds)? */
bool ft_origin_exceeds(int64_t origin_excess_ns, int64_t frame_excess_ns);

/* The origin's component (x->origin >= 0): 0 the runnable wait, 1 the
 * run, 2 the futex wait; its time in the origin link; and how a report
 * says it ("waited runnable", "ran", "waited on a futex"). */
int ft_origin_kind(const struct ft_explain *x);
uint64_t ft_origin_ns(const struct ft_explain *x);
const char *ft_origin_verb(const struct ft_explain *x);

/* The link waited runnable (1 ms or more) mostly while its own CPU ran
 * the idle task. */
static inline bool ft_link_idle_wait(const struct ft_link *l)
{
	return l->runnable_ns >= 1000000 && l->own_idle_ns * 2 >= l->runnable_ns;
}

const char *ft_stop_text(enum ft_stop s);
const char *ft_why_text(enum ft_why w);

#endif
