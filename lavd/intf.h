/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the BPF side and the loader share: limits, the statistics record the
 * BPF timer publishes (map "lavd_stats", also read by `lavd --monitor`), and
 * the exit information the scheduler's ops.exit() leaves for the loader.
 * The skeleton only declares the types of BPF globals, so every struct the
 * two sides exchange lives here (docs/vm.md, "Toolchain: building the BPF
 * side").
 */
#ifndef LAVD_INTF_H
#define LAVD_INTF_H

#ifndef __bpf__
#include <linux/types.h>
#endif
#include "exit_info.h"	/* the record of ops.exit() (lib/) */
#include "version.h"

#define LAVD_NAME		"lavd"
#define LAVD_VERSION		GS_VERSION	/* lib/version.h */

/* Sizes of the topology tables the loader fills before load. */
#define LAVD_MAX_CPUS		512
#define LAVD_MAX_LLCS		64

/* Map names the monitor looks up (at most 15 characters). */
#define LAVD_STATS_MAP		"lavd_stats"
#define LAVD_SAMPLES_MAP	"lavd_samples"	/* ring buffer of sched samples */
#define LAVD_CTL_MAP		"lavd_ctl"	/* run-time control (monitor) */
#define LAVD_SAMPLES_RING_SZ	(256 * 1024)
/* --monitor-sched-samples: at most this many per second */
#define LAVD_SAMPLES_MAX	10000

/* Where futex lock-holder events come from (lavd_stats.futex_path). */
#define LAVD_FUTEX_OFF		0	/* --no-futex-boost */
#define LAVD_FUTEX_FEXIT	1	/* fexit on the kernel's futex functions */
#define LAVD_FUTEX_TP		2	/* syscalls:sys_{enter,exit}_futex* */

/* How an eviction takes effect (--debug-preempt-kick). */
#define LAVD_KICK_AUTO		0	/* IPI only when the tick comes too late */
#define LAVD_KICK_NEVER		1	/* slice := 1 only (the reference) */
#define LAVD_KICK_ALWAYS	2	/* IPI at every eviction */

/* Compute domains: one per (NUMA node, LLC, core type). */
#define LAVD_MAX_DOMS		64
/* Neighbour distances: 0 same LLC (other core type), 1 same node, 2 other node. */
#define LAVD_DOM_DIST		3

/* Power modes (lavd_stats.power_mode; energy.h's LAVD_EM_*). */
#define LAVD_PM_POWERSAVE	0
#define LAVD_PM_BALANCED	1
#define LAVD_PM_PERFORMANCE	2
#define LAVD_PM_NR		3
#define LAVD_PM_AUTO		3	/* power_req: the autopilot decides */

/*
 * Game profiles (docs/lavd.md, "Game profiles"): the loader matches
 * processes to profiles and writes, per matched process (its tgid), the
 * profile's index and complete knob set into map "lavd_prof_tgid"; each
 * task copies that entry into its own context once per generation
 * (prof_gen), so a scheduling decision reads its knobs without a lookup.
 * Index 0 is "no profile"; "lavd_prof_knob" holds the names for the
 * statistics (index 1..LAVD_MAX_PROFILES-1).
 */
#define LAVD_MAX_PROFILES	16
#define LAVD_PROF_NAME_LEN	32
#define LAVD_PROF_TGIDS		4096	/* processes following a profile at once */
#define LAVD_PROF_TGID_MAP	"lavd_prof_tgid"
#define LAVD_PROF_KNOB_MAP	"lavd_prof_knob"

/* Knob flags (struct lavd_knobs.flags): on when set. */
#define LAVD_KN_PREEMPT		(1u << 0)	/* may evict a running task as a wakee */
#define LAVD_KN_EVICTABLE	(1u << 1)	/* may be evicted while it runs */
#define LAVD_KN_GREEDY_PREEMPT	(1u << 2)	/* below the threshold, may evict greedy tasks */
#define LAVD_KN_FUTEX		(1u << 3)	/* futex holder handling (extension, boost, spared) */
#define LAVD_KN_SLICE_BOOST	(1u << 4)	/* longer slices for long bursts */
#define LAVD_KN_CHAIN_DL	(1u << 5)	/* keeps its waker's deadline when earlier */

/* The knob values one profile's tasks follow, complete: what a profile
 * leaves out is lavd's option value. */
struct lavd_knobs {
	__u64 slice_min_ns, slice_max_ns;	/* bounds of the task's slice */
	__u64 greedy_slice_ns;		/* 0: greedy slices uncapped */
	__u32 slice_scale;		/* of the system slice, 1024 = 1.0 */
	__u32 lat_cri_boost;		/* added to the context boosts */
	__u32 lc_freq_w, lc_run_w;	/* weights of lat_cri's two terms, 1024 = 1.0 */
	__u32 preempt_shift;		/* its own preemption threshold */
	__u32 flags;			/* LAVD_KN_* */
	__u32 weight_scale;		/* of its nice weight, 1024 = 1.0 */
	__u32 pad;			/* no hole: BPF copies it whole */
};

/* Value of lavd_prof_tgid: which profile a process follows. */
struct lavd_prof_tgid {
	__u32 idx;			/* 1..LAVD_MAX_PROFILES-1 */
	__u32 pad;
	struct lavd_knobs kn;
};

/* Value of lavd_prof_knob: the profile's name (monitors print it). */
struct lavd_prof_info {
	char name[LAVD_PROF_NAME_LEN];
	struct lavd_knobs kn;
};

/*
 * Process events for the loader's matcher (ring buffer "lavd_proc_ev"):
 * an exec (pid is the new program's tgid) or a task rename (prctl
 * PR_SET_NAME, a write to /proc/.../comm, exec), with the new name.
 */
#define LAVD_PEV_EXEC		1
#define LAVD_PEV_RENAME		2
#define LAVD_PROC_EV_RING_SZ	(64 * 1024)

struct lavd_proc_ev {
	__u32 kind;		/* LAVD_PEV_* */
	__u32 pid;		/* the task (thread id) */
	__u32 tgid;		/* the process of the task that caused it */
	/* the process's threads when the event comes from the process
	 * itself (an exec, a leader naming itself), so that the loader
	 * need not read /proc to match it; 0: unknown, read /proc */
	__u32 nthreads;
	char comm[16];
};

/* Statistics period: the BPF timer also recomputes the slice. */
#define LAVD_SYS_STAT_INTERVAL_NS (10ULL * 1000 * 1000)

/*
 * Published every LAVD_SYS_STAT_INTERVAL_NS by the BPF timer into the
 * single element of map "lavd_stats". Counters are cumulative since load
 * (readers take differences); the rest describes the last interval.
 */
struct lavd_stats {
	__u64 seq;		/* odd while the timer refills the counters,
				 * even when published (with seq_end: a reader
				 * keeps a copy with seq == seq_end, even) */
	__u64 now_ns;		/* CLOCK_MONOTONIC of the publication */
	__u64 magic;		/* LAVD_STATS_MAGIC: it is ours */
	/* state */
	__u64 nr_queued;	/* tasks waiting in lavd's queues now */
	__u64 nr_active;	/* CPUs lavd schedules on */
	__u64 slice_ns;		/* current system slice */
	__u64 avg_lat_cri;	/* mean lat_cri of the last 10 ms's schedules */
	__u64 max_lat_cri;	/* largest lat_cri scheduled in the last second */
	__u64 lat_cri_thresh;	/* "latency-critical" above this (running avg) */
	__u64 logical_clk;	/* the virtual-deadline clock */
	__u64 avg_svc;		/* average service of runnable tasks */
	__u64 nr_runnable;	/* tasks runnable (running or waiting) */
	/* cumulative counters */
	__u64 nr_sched;		/* ops.running calls: tasks put on a CPU */
	__u64 sum_lat_cri;	/* sum of their lat_cri (averages over any interval) */
	__u64 nr_direct;	/* of the enqueues, dispatched straight to an idle CPU */
	__u64 nr_enq;		/* tasks placed (direct + queued) */
	__u64 nr_lat_cri;	/* schedules with lat_cri >= threshold */
	__u64 nr_greedy;	/* enqueues with negative lag */
	__u64 nr_reenq;		/* tasks handed back after RT/DL took their CPU */
	__u64 nr_sync_wake;	/* placements on the sync waker's CPU */
	__u64 nr_idle_core;	/* placements on a fully idle SMT core */
	__u64 nr_local_pinned;	/* migration-disabled / exiting, local queue */
	__u64 nr_steal;		/* dispatches from another domain's queue */
	__u64 nr_stall_skips;	/* dispatches refused by the debug stall knob */
	/* preemption, lock holders, slices, cumulative */
	__u64 nr_preempt;	/* evictions: a victim CPU's slice was cut */
	__u64 nr_preempt_kick;	/* ... of them with an immediate IPI */
	__u64 nr_preempt_try;	/* enqueues that looked for a victim */
	__u64 nr_preempt_spared; /* candidates skipped: futex holder running */
	__u64 lat_cri_preempt;	/* the preemption threshold now */
	/* futex lock holders */
	__u64 futex_path;	/* LAVD_FUTEX_*: the attach path in use */
	__u64 nr_futex_lock;	/* waits/locks that made a task a holder */
	__u64 nr_futex_unlock;	/* wakes/unlocks that cleared it */
	__u64 nr_holder_ext;	/* slice extensions given to holders */
	__u64 nr_holder_boost;	/* deadlines boosted for a past holder */
	/* slice boost and pinned tasks */
	__u64 nr_slice_boost;	/* slices longer than the system slice */
	__u64 nr_slice_shrink;	/* boosted slices cut back remotely */
	__u64 nr_pinned;	/* tasks queued on a per-CPU pinned queue */
	__u64 nr_pinned_cap;	/* slices capped for waiting pinned tasks */
	__u64 util_pct;		/* CPU utilisation of the last interval, % */
	__u64 nr_samples_lost;	/* sched samples that found the ring full */
	__u64 nr_keep;		/* dispatches that let the previous task go on */
	/* topology and energy; nr_active above: the active set */
	__u64 nr_cpus;		/* online CPUs */
	__u64 nr_overflow;	/* CPUs outside the active set in use (pinned work) */
	__u64 power_mode;	/* LAVD_PM_* now */
	__u64 mode_ns[LAVD_PM_NR];	/* time spent in each mode since load */
	__u64 nr_mode_change;	/* power-mode switches */
	__u64 req_cap;		/* required capacity (1024 = one big CPU) */
	__u64 big_scale;	/* big cores' share of the active capacity, /1024 */
	__u64 perf_thresh;	/* perf_cri a task needs for a big core */
	__u64 nr_heavy;		/* heavy tasks running at the last interval */
	__u64 nr_doms;		/* compute domains */
	__u64 have_little;	/* some CPU is a little core */
	__u64 nr_stealer;	/* domains marked stealer / stealee now */
	__u64 nr_stealee;
	__u64 cpuperf_avg;	/* mean cpufreq target of the active CPUs, /1024 */
	__u64 active_mask[8];	/* the active set (CPUs 0..511) */
	/* cumulative */
	__u64 nr_perf_cri;	/* schedules of tasks that prefer a big core */
	__u64 nr_on_big;	/* schedules on big cores */
	__u64 nr_pc_on_big;	/* ... of them by tasks that prefer one */
	__u64 nr_migrate;	/* schedules on another CPU than the task's last */
	__u64 nr_xdom;		/* ... in another compute domain */
	__u64 nr_force_steal;	/* dispatches that took another domain's work
				 * because their own queue was empty (part of
				 * nr_steal, which also counts planned steals) */
	__u64 nr_donate;	/* wakeups placed in an under-loaded domain */
	__u64 nr_move;		/* running tasks handed off an inactive CPU or
				 * to a big core (via SCX_ENQ_LAST) */
	__u64 nr_cpuperf_set;	/* cpufreq target changes */
	__u64 dom_sched[LAVD_MAX_DOMS];	/* schedules per compute domain */
	/* game profiles: schedules of each profile's tasks (index 0: tasks
	 * without one), the loader's generation, process events lost */
	__u64 prof_sched[LAVD_MAX_PROFILES];
	__u64 prof_gen;
	__u64 nr_proc_ev_lost;
	/* last: the timer bumps it before seq when it starts and after seq
	 * when it is done, so a copy made front to back during a refill has
	 * seq != seq_end (or an odd seq); the counters are zeroed and summed
	 * again in place, and a torn copy read them too small (a monitor line
	 * once showed 1.8e19 preemptions/s) */
	__u64 seq_end;
};

/* A copy of the statistics that no refill tore. */
static inline int lavd_stats_consistent(const struct lavd_stats *st)
{
	return !(st->seq & 1) && st->seq == st->seq_end;
}

#define LAVD_STATS_MAGIC	0x6c6176645f737473ULL	/* "lavd_sts" */

/*
 * Run-time control, map "lavd_ctl" (one element): the loader or a
 * `--monitor` process writes how many scheduling samples per second it
 * wants (0: none); the BPF timer turns that into a sampling rate.
 */
struct lavd_ctl {
	__u64 samples_per_s;
	__u64 owner_pid;	/* who asked (the loader or a monitor) */
};

/* Flags of a sample (lavd_sample.flags). */
#define LAVD_SF_GREEDY		(1u << 0)	/* negative lag at its enqueue */
#define LAVD_SF_HOLDER		(1u << 1)	/* probable futex holder */
#define LAVD_SF_SLICE_BOOST	(1u << 2)	/* ran with a boosted slice */
#define LAVD_SF_PREEMPTED	(1u << 3)	/* this stop was an eviction */
#define LAVD_SF_PINNED		(1u << 4)	/* ran from a per-CPU queue */
#define LAVD_SF_RUNNABLE	(1u << 5)	/* still runnable when it stopped */
#define LAVD_SF_LAT_CRI		(1u << 6)	/* at or above the preemption threshold */
#define LAVD_SF_DIRECT		(1u << 7)	/* placed directly, not queued */
#define LAVD_SF_HARDIRQ		(1u << 8)	/* woken from a hard interrupt */
#define LAVD_SF_SOFTIRQ		(1u << 9)	/* woken from a soft interrupt */

/*
 * One sampled scheduling decision, written to ring buffer "lavd_samples"
 * when a task stops running (ops.stopping). Times in ns, frequencies in
 * Hz.
 */
struct lavd_sample {
	__u64 now_ns;		/* when it stopped */
	__u32 pid;
	__s32 cpu;
	__u32 waker_pid;	/* last task that woke it (0: irq/kernel/none) */
	__u32 preempted_by;	/* pid whose wakeup evicted it, else 0 */
	char comm[16];
	char waker_comm[16];
	__u64 slice_ns;		/* slice it was given */
	__u64 ran_ns;		/* slice used: how long it ran this time */
	__u64 wait_ns;		/* runnable -> running delay of this run */
	__u64 avg_runtime_ns;	/* per wake-to-sleep burst (EWMA) */
	__u64 acc_runtime_ns;	/* since its last wakeup */
	__u64 lat_cri;
	__u64 lat_cri_thresh;	/* the preemption threshold then (lat_cri_preempt) */
	__u64 wait_freq;	/* Hz */
	__u64 wake_freq;
	__u64 run_freq;
	__s64 vdl_rel;		/* its virtual deadline minus the clock at its run */
	__u32 flags;		/* LAVD_SF_* */
	__u32 pad;
};

#define LAVD_SCX_OPS_SWITCH_PARTIAL	8ULL

#endif
