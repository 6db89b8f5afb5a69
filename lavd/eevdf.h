/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf: what the tracepoint programs (eevdf.bpf.c) share with the
 * steering loop (eevdf.c). The BPF side keeps lavd's per-task behaviour
 * statistics from sched_waking/sched_switch and recomputes lat_cri with
 * policy.h exactly where the sched_ext program does (a wakeup, a requeue);
 * user space reads them once a period and decides the kernel's levers.
 * Plain C types only: included by BPF and host code.
 */
#ifndef LAVD_EEVDF_H
#define LAVD_EEVDF_H

/* tasks followed at once; past this, new tasks are counted, not followed */
#define EEVDF_MAX_TASKS		32768

/* One task, keyed by its tid. Times in ns, frequencies as policy.h
 * stores them (Hz << LAVD_FREQ_SHIFT). */
struct eevdf_task {
	__u64 wait_freq;		/* sleeps per second */
	__u64 wake_freq;		/* wakeups of others per second */
	__u64 run_freq;			/* wakeups of itself per second */
	__u64 last_quiescent_clk;	/* last sleep */
	__u64 last_wake_clk;		/* last wakeup it gave (sampled) */
	__u64 last_runnable_clk;	/* last wakeup it got */
	__u64 last_running_clk;		/* last switch-in */
	__u64 avg_runtime;		/* EWMA of runtime per burst */
	__u64 acc_runtime;		/* runtime since the last wakeup */
	__u64 sum_runtime;		/* CPU time while followed */
	__u64 lat_cri;			/* at the last wakeup or requeue */
	__u64 lat_cri_waker;		/* inheritance, policy.h */
	__u64 lat_cri_wakee;
	__u32 tgid;
	__u32 wake_boost;		/* context boosts of the last wakeup */
	__u32 nr_wakeups;
	__u32 pad;
};

/* Rare events of the programs (global, read through the skeleton); the
 * program runs are counted per CPU (the events map), off the hot path's
 * shared cache lines. */
struct eevdf_counters {
	__u64 full;			/* a new task found the map full */
	__u64 exits;			/* tasks forgotten at exit */
};

#endif
