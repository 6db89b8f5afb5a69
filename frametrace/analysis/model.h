/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduling timeline rebuilt from a finished trace: run segments per
 * CPU (idle included), runnable periods, wake-ups with their waker, futex
 * calls, and per-task statistics. The report, the slow-frame explainer,
 * the exporters and the flight recorder's notes all read this.
 *
 * Definitions (docs/frametrace.md, "Report"):
 *  - run burst: one stay on a CPU, switch-in to switch-out;
 *  - runnable wait ("wake-up latency"): runnable -> running, whether the
 *    task became runnable by a wake-up or by being preempted (the same
 *    definition as perf sched latency's delay);
 *  - sleep: switch-out in a sleeping state to the wake-up that ends it;
 *  - runtime: from the kernel's own accounting when the trace has it
 *    (sum_exec_runtime deltas in BPF recordings, sched_stat_runtime in
 *    perf/ftrace imports), else the sum of run bursts;
 *  - switches: times switched in (recorded + reconstructed);
 *    switches_recorded: only those with a sched_switch record.
 */
#ifndef FT_MODEL_H
#define FT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/ftutil.h"
#include "stats.h"
#include "trace/trace.h"

#define FT_SEG_RECON 0x01	/* start reconstructed (missing idle->task) */
#define FT_SEG_OPEN_START 0x02	/* running when the trace began */
#define FT_SEG_OPEN_END 0x04	/* still running when the trace ended */

struct ft_seg {
	uint64_t start, end;
	uint32_t tid;
	uint32_t next;		/* who took the CPU at the end */
	uint16_t cpu;
	uint8_t flags;
	char out_state;		/* 'R' preempted, 'S', 'D', ..., 0 when open */
};

enum ft_rq_reason { FT_RQ_WAKE, FT_RQ_PREEMPT, FT_RQ_NEW, FT_RQ_OTHER };

struct ft_runnable {
	uint64_t start, end;	/* became runnable, switched in */
	uint32_t tid;
	uint32_t by;		/* waker or preemptor (0: interrupt/idle) */
	uint16_t cpu;		/* where it then ran */
	uint8_t reason;		/* enum ft_rq_reason */
	uint8_t irq;
};

struct ft_wake {
	uint64_t ts;		/* sched_waking */
	uint64_t run_ts;	/* the switch-in that followed, 0 if none */
	uint64_t sleep_ns;	/* how long the wakee had been asleep, 0 unknown */
	uint32_t wakee, waker;	/* waker 0: interrupt or idle */
	int32_t futex;		/* index of the futex wait it ended, -1 none */
	uint16_t cpu;		/* CPU the wake-up ran on */
	uint16_t run_cpu;
	uint8_t irq;
	uint8_t effective;	/* it made a sleeping task runnable */
};

struct ft_fx {
	uint64_t ts, dur;
	uint64_t uaddr;		/* 0 unknown (from a switch-out) */
	uint32_t tid;
	uint16_t op;
	int16_t ret;
	bool from_switch;	/* futex source "sched": a switch-out said it */
};

/* Wait-type futex operation (FUTEX_WAIT*, LOCK_PI*, futex_waitv/wait). */
bool ft_futex_is_wait(uint16_t op);
bool ft_futex_is_wake(uint16_t op);

struct ft_u32vec {
	uint32_t *v;
	size_t n, cap;
};

struct ft_tstat {
	uint32_t tid, pid;
	bool recorder;
	uint64_t runtime_ns;		/* see the definitions above */
	uint64_t runtime_bursts_ns;	/* sum of run bursts */
	uint64_t runtime_kernel_ns;	/* kernel accounting, if any */
	uint64_t switches, switches_recorded;
	uint64_t repaired;		/* reconstructed switches it is part of */
	uint64_t preempted;		/* switched out while runnable */
	uint64_t switchouts_recorded;	/* switch-outs with a record */
	/* none of its switch-outs was recorded (a perf recording of one
	 * command sees only its own tasks' switch-outs; a task that emits
	 * events but is never switched out): its preemptions and runnable
	 * waits would be the repair's guesses (one of a second between two
	 * events), so preempted is 0 and wlat NULL */
	bool switchouts_unseen;
	uint64_t migrations;
	uint64_t wakeups;		/* effective wake-ups received */
	uint64_t wakes_sent;		/* effective wake-ups given */
	uint64_t futex_waits, futex_wait_ns, futex_wait_max_ns;
	uint64_t futex_wakes;
	/* Welford accumulators for the run-burst coefficient of variation */
	uint64_t nburst;
	double burst_mean, burst_m2;
	struct gs_hist *run, *sleep, *wlat;	/* NULL until a sample */
	struct ft_u32vec segs, wakes, rqs, fxs;	/* indices, time order */
	double lat_score;			/* latency-criticality */
};

struct ft_edge {
	uint32_t waker, wakee;
	uint64_t count;
};

struct ft_chain {
	uint32_t tid[4];
	int len;
	uint64_t count;
};

struct ft_model {
	const struct ft_trace *t;
	uint32_t ncpus;
	uint64_t start_ns, end_ns;
	bool kernel_runtime;	/* runtime from kernel accounting */
	const char *runtime_source;
	struct ft_seg *seg;	/* sorted by cpu, then start */
	size_t nseg, segcap;
	size_t *cpu_seg;	/* [ncpus + 1]: first segment of each CPU */
	struct ft_runnable *rq;
	size_t nrq, rqcap;
	struct ft_wake *wake;
	size_t nwake, wakecap;
	struct ft_fx *fx;
	size_t nfx, fxcap;
	struct ft_tstat *task;
	size_t ntask, taskcap;
	struct ft_map taskidx;
	struct ft_edge *edge;
	size_t nedge, edgecap;
	struct ft_map edgeidx;
	struct ft_chain *chain;
	size_t nchain, chaincap;
	struct ft_map chainidx;
};

int ft_model_build(struct ft_model *m, const struct ft_trace *t);
void ft_model_free(struct ft_model *m);

struct ft_tstat *ft_model_task(const struct ft_model *m, uint32_t tid);

/* Segments of CPU cpu overlapping [a, b): index range [*lo, *hi). */
void ft_model_cpu_range(const struct ft_model *m, uint16_t cpu, uint64_t a,
			uint64_t b, size_t *lo, size_t *hi);
/* The segment of tid covering time ts, or -1. */
long ft_model_seg_at(const struct ft_model *m, uint32_t tid, uint64_t ts);
/* In task s's segments (s->segs, in time order): how many start at or
 * before ts (the last of them is at the result - 1), and the first that
 * ends after ts (s->segs.n when none). */
size_t ft_model_segs_started(const struct ft_model *m, const struct ft_tstat *s,
			     uint64_t ts);
size_t ft_model_seg_ending_after(const struct ft_model *m,
				 const struct ft_tstat *s, uint64_t ts);
/* Idle time of cpu within [a, b). */
uint64_t ft_model_idle_in(const struct ft_model *m, uint16_t cpu, uint64_t a,
			  uint64_t b);

/* Coefficient of variation of a task's run bursts. */
double ft_tstat_cv(const struct ft_tstat *s);

#endif
