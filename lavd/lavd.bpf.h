/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Common state of the lavd BPF scheduler: per-task and per-CPU contexts,
 * the topology the loader hands over, system-wide globals, and the small
 * accessors every concern file uses. lavd.bpf.c, the only compilation
 * unit, includes this file first and then the concern files (*.bpf.h) in
 * the order its top comment lists.
 * Needs: nothing before it; it includes vmlinux.h, the libbpf BPF
 * headers, lib/scx_compat.bpf.h (kfuncs), intf.h, policy.h, policy_preempt.h and energy.h.
 */
#ifndef LAVD_BPF_H
#define LAVD_BPF_H

#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "scx_compat.bpf.h"
#include "intf.h"
#include "policy.h"
#include "policy_preempt.h"
#include "energy.h"
#include "knobs.h"

#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

#define PF_IO_WORKER	0x00000010
#define PF_WQ_WORKER	0x00000020
#define PF_EXITING	0x00000004
#define PF_KTHREAD	0x00200000
#define MAX_RT_PRIO	100
#define CLOCK_MONOTONIC	1
#define ENOENT		2
#define ENOMEM		12

/*
 * Settings written by the loader before load (read-only to BPF).
 * Topology: per CPU its compute domain and capacity (1024 = the fastest
 * CPU); nr_cpu_ids bounds every CPU loop.
 */
const volatile u32 nr_cpu_ids = 1;
const volatile u32 nr_cpus_online = 1;
const volatile u16 cpu_capacity[LAVD_MAX_CPUS];	/* 1024 = the fastest CPU */
const volatile u16 cpu_core[LAVD_MAX_CPUS];	/* first SMT sibling */
/*
 * Compute domains (lavd/cpdom.c builds them): one per (NUMA
 * node, LLC, core type), each with its own queue. dom_nbr[d] lists the
 * other domains nearest first, dom_nbr_dist[d] their distance (0 same
 * LLC, 1 same node, 2 another node). cpu_order[0] is the performance
 * preference order of the online CPUs, cpu_order[1] the powersave one.
 * Offline CPUs have domain 255.
 */
const volatile u32 nr_doms = 1;
const volatile u8 cpu_dom[LAVD_MAX_CPUS];
const volatile u8 cpu_big[LAVD_MAX_CPUS];	/* 1: big core (all, if alike) */
const volatile u8 dom_big[LAVD_MAX_DOMS];
const volatile u8 dom_nr_nbr[LAVD_MAX_DOMS];
const volatile u8 dom_nbr[LAVD_MAX_DOMS][LAVD_MAX_DOMS];
const volatile u8 dom_nbr_dist[LAVD_MAX_DOMS][LAVD_MAX_DOMS];
const volatile u16 cpu_order[2][LAVD_MAX_CPUS];
const volatile u32 nr_order = 1;
const volatile bool have_little;	/* some CPU is a little core */
const volatile bool smt_on;
const volatile u32 total_cap = LAVD_SCALE;	/* capacities of the online CPUs */
const volatile u32 smallest_cap = LAVD_SCALE;
const volatile bool no_core_compaction;
const volatile bool no_freq_scaling;
const volatile u64 slice_min_ns = LAVD_SLICE_MIN_DFL;
const volatile u64 slice_max_ns = LAVD_SLICE_MAX_DFL;
const volatile u32 preempt_shift = LAVD_PREEMPT_SHIFT_DFL;
const volatile bool no_wake_sync;
const volatile bool no_preemption;
/* wakees below the threshold may evict greedy runners (--greedy-preempt) */
const volatile bool greedy_preempt;
/* a wakee keeps its waker's deadline when that is earlier (--no-chain-deadline: off) */
const volatile bool chain_deadline;
/* a greedy task runs at most this long at a time; 0: no cap */
const volatile u64 greedy_slice_ns;
const volatile bool no_futex_boost;
const volatile bool no_slice_boost;
/* cap on a running task's slice while pinned tasks wait for its CPU */
const volatile u64 pinned_slice_ns = 5ULL * LAVD_NSEC_PER_MSEC;
/* LAVD_KICK_*: how an eviction takes effect (--debug-preempt-kick) */
const volatile u32 preempt_kick;
/* the kernel's tick period if the loader knows CONFIG_HZ, else 0 (learnt) */
const volatile u64 tick_ns_cfg;
const volatile bool verbose;
/*
 * Debug knob for the error-path test: when set before load, ops.running
 * reads past the end of task_struct and the verifier must reject the
 * program. When clear (always, outside that test) the verifier prunes the
 * branch, since read-only globals are known at load time.
 */
const volatile bool debug_verifier_reject;
/* game profiles were given: the per-task knob paths exist at all (the
 * verifier drops them otherwise, so lavd without profiles pays nothing) */
const volatile bool game_profiles;

/*
 * Debug knob for fault injection (vm-test phase 4): while non-zero,
 * dispatch moves nothing to any CPU and wakeups are not placed directly,
 * so runnable tasks stall until the kernel's watchdog ejects lavd. Written
 * by the loader at run time (hence .bss, not .rodata).
 */
u32 debug_stall;

/* Exit information for the loader (ops.exit()) and the kernel's dump. */
struct lavd_exit_info uei SEC(".data");
char uei_dump[LAVD_EXIT_DUMP_LEN];

/* Per-task context, in task storage: freed with the task, no leaks. */
struct task_ctx {
	/* clocks (ns) */
	u64 last_runnable_clk;	/* last wakeup */
	u64 last_running_clk;	/* last time put on a CPU */
	u64 last_quiescent_clk;	/* last time it went to sleep */
	u64 last_wake_clk;	/* last wake_freq sample as a waker */
	/* behaviour, frequencies in 1/1024 Hz (policy.h) */
	u64 wait_freq;		/* how often it sleeps */
	u64 wake_freq;		/* how often it wakes other tasks */
	u64 run_freq;		/* how often it is woken */
	u64 acc_runtime;	/* runtime since the last wakeup */
	u64 avg_runtime;	/* EWMA of runtime per wake-to-sleep burst */
	/* service for the EEVDF-style lag */
	u64 svc;		/* cumulative weighted service (ns * 100 / weight) */
	u64 sum_wv;		/* this task's share of rq_sum_wv while runnable */
	u32 sum_w;		/* ... of rq_sum_w (its weight), 0 when not runnable */
	/* criticality and deadline */
	u32 wake_boost;		/* context boosts of the pending wakeup */
	u64 lat_cri;
	u64 lat_cri_waker;	/* lat_cri of the task that woke it last */
	u64 lat_cri_wakee;	/* largest lat_cri among the tasks it woke */
	u64 vdeadline;		/* last virtual deadline */
	u64 chain_vdl;		/* the waker's deadline, for this wakeup only (0: none) */
	u64 slice;		/* slice of its current/next run */
	bool greedy;		/* negative lag at the last enqueue */
	bool sync_wakeup;	/* select_cpu saw SCX_WAKE_SYNC */
	bool slice_boosted;	/* its current slice exceeds the system slice */
	bool pinned_q;		/* last queued on a per-CPU pinned queue */
	bool direct;		/* last placed directly on an idle CPU */
	/* futex lock holder (LAVD_HOLDER* of policy_preempt.h) */
	u32 holder;
	s32 futex_op;		/* tracepoint path: the op of the call in flight */
	/* for the per-task samples */
	u64 last_enq_clk;	/* when it last became ready to run */
	u64 clk_at_run;		/* the logical clock when it last started */
	u64 wait_ns;		/* ready -> running delay of the current run */
	u32 waker_pid;		/* who woke it last (0: interrupt/kernel/self) */
	u32 preempted_by;	/* pid of the wakee that evicted its last run */
	u32 wake_irq;		/* last woken from: 0 a task, 1 hardirq, 2 softirq */
	char waker_comm[16];
	/* energy: CPU demand, performance criticality, where it ran */
	u64 demand;		/* share of time runnable, /1024 (energy.h) */
	u64 dem_clk;		/* start of the current demand window */
	u64 dem_acc;		/* runnable time in it */
	u64 dem_since;		/* runnable since (0: not runnable) */
	u32 perf_cri;
	u32 last_cpu;		/* CPU of its last run + 1 (0: none yet) */
	/* game profile (gameprof.bpf.h): index (0: none) and knobs, copied
	 * from its process's entry at generation prof_seen */
	u32 prof;
	u32 prof_seen;
	struct lavd_knobs kn;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} lavd_task SEC(".maps");

/* Per-CPU context: counters (summed by the timer) and scratch state. */
struct cpu_ctx {
	u64 nr_sched;
	u64 nr_direct;
	u64 nr_enq;
	u64 nr_lat_cri;
	u64 nr_greedy;
	u64 nr_reenq;
	u64 nr_sync_wake;
	u64 nr_idle_core;
	u64 nr_local_pinned;
	u64 nr_steal;
	u64 nr_stall_skips;
	u64 sum_lat_cri;	/* lat_cri of the tasks run, for the average */
	u64 max_lat_cri;	/* largest since the timer last looked */
	/* preemption, lock holders, slices, pinned tasks, samples */
	u64 nr_preempt;
	u64 nr_preempt_kick;
	u64 nr_preempt_try;
	u64 nr_preempt_spared;
	u64 nr_futex_lock;
	u64 nr_futex_unlock;
	u64 nr_holder_ext;
	u64 nr_holder_boost;
	u64 nr_slice_boost;
	u64 nr_slice_shrink;
	u64 nr_pinned;
	u64 nr_pinned_cap;
	u64 nr_samples_lost;
	u64 nr_keep;
	u64 busy_ns;		/* time lavd's tasks ran here (utilisation) */
	/*
	 * What runs here now, for the victim choice and slice control. Other
	 * CPUs read these without locks: a stale value costs at most one
	 * wrong or missed eviction.
	 */
	u64 running_lat_cri;
	u64 running_stop_clk;	/* estimated stop; 0: claimed by an eviction */
	u64 running_clk;	/* when it started */
	u64 running_slice;	/* the slice it got */
	u64 busy_mark;		/* busy_ns accounted up to here */
	u32 running_pid;
	u32 running_flags;	/* CPUF_* */
	u32 preempt_by;		/* pid of the wakee that evicted the running task */
	u64 last_tick_clk;	/* last ops.tick here */
	struct bpf_cpumask __kptr *tmp_mask;	/* scratch for mask ANDs */
	/* topology and energy: big/little, migrations, stealing, cpufreq */
	u64 nr_perf_cri;
	u64 nr_on_big;
	u64 nr_pc_on_big;
	u64 nr_migrate;
	u64 nr_xdom;
	u64 nr_force_steal;
	u64 nr_donate;
	u64 nr_move;
	u64 nr_cpuperf_set;
	u64 nr_dom_sched;	/* schedules here (summed per domain) */
	/* perf_cri of the schedules since the timer last looked */
	u64 pc_sum, pc_cnt;
	u32 pc_min, pc_max;
	/* utilisation (1024 = busy all the time) and the cpufreq target */
	u64 busy_prev;		/* busy time at the timer's previous look */
	u64 util, util_avg;
	u32 perf_want, perf_cur;
	bool running_heavy;	/* the task running here is heavy */
	u64 prof_sched[LAVD_MAX_PROFILES];	/* schedules per game profile */
};

#define CPUF_RUNNING	(1u << 0)	/* one of lavd's tasks runs here */
#define CPUF_HOLDER	(1u << 1)	/* ... and it probably holds a futex */
#define CPUF_BOOSTED	(1u << 2)	/* ... with a boosted slice */
#define CPUF_RT		(1u << 3)	/* an RT/DL task took this CPU */
#define CPUF_GREEDY	(1u << 4)	/* ... greedy (more service than its share) */
#define CPUF_NOEVICT	(1u << 5)	/* ... and its profile says: never a victim */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cpu_ctx);
} lavd_cpu SEC(".maps");

/* The statistics record `lavd --stats` and `lavd --monitor` read. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct lavd_stats);
} lavd_stats SEC(".maps");

/*
 * System-wide state. Written concurrently from every CPU: the logical
 * clock with compare-and-swap, the sums with atomic adds, the rest by the
 * timer alone.
 */
u64 cur_logical_clk;	/* virtual-deadline clock, never goes back */
u64 rq_sum_wv;		/* sum of weight * (svc >> SVC_SHIFT) of runnable tasks */
u64 rq_sum_w;		/* sum of their weights */
u64 rq_nr;		/* how many tasks are runnable */
u64 avg_svc_last;	/* last average, kept while nothing is runnable */
u64 sys_slice = LAVD_SLICE_MAX_DFL;	/* recomputed by the timer */
u64 lat_cri_thresh;	/* "latency-critical" threshold (running average) */
u64 lat_cri_preempt;	/* preemption threshold (policy_preempt.h lavd_preempt_thresh) */
u64 lat_cri_max_avg;	/* running average of each interval's largest lat_cri */
u64 nr_queued_last;	/* queued tasks at the last timer tick */
bool sys_room;		/* slice boost: the system has room (timer) */
u64 util_pct_last;	/* CPU utilisation of the last interval, % */
u64 tick_ns_est;	/* tick period in use (tick_ns_cfg or learnt) */
u64 sample_prob;	/* chance (of 2^32) that a schedule is sampled */
u64 futex_path;		/* LAVD_FUTEX_*: written by the loader after attach */

#define SVC_SHIFT 10	/* sums in ~us keep weight * svc far from overflow */

/* Dispatch queue of each compute domain: id = domain index. */
static __always_inline u64 dom_dsq(u32 dom)
{
	return dom;
}

/* Queue of the tasks pinned to one CPU: ids after the domain queues. */
static __always_inline u64 cpu_dsq(s32 cpu)
{
	return LAVD_MAX_DOMS + (u32)cpu;
}

/* The compute domain of a CPU (0 for an offline or bogus CPU). */
static __always_inline u32 cpu_to_dom(s32 cpu)
{
	/* unsigned index, checked on the register used: the verifier loses
	 * bounds across a sign extension */
	u32 c = (u32)cpu;

	if (c >= LAVD_MAX_CPUS)
		return 0;
	barrier_var(c);
	return cpu_dom[c] < nr_doms ? cpu_dom[c] : 0;
}

static __always_inline struct task_ctx *get_task_ctx(struct task_struct *p)
{
	return bpf_task_storage_get(&lavd_task, p, 0, 0);
}

static __always_inline struct cpu_ctx *get_cpu_ctx(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&lavd_cpu, &zero);
}

static __always_inline struct cpu_ctx *get_cpu_ctx_of(s32 cpu)
{
	u32 zero = 0;

	return bpf_map_lookup_percpu_elem(&lavd_cpu, &zero, cpu);
}

/*
 * A CPU's busy time so far at @now: what it accounted (at its ticks and
 * stops) plus the running task's time since then; without the latter a
 * CPU busy all interval long reads up to one tick short.
 */
static __always_inline u64 cpu_busy_at(struct cpu_ctx *c, u64 now)
{
	u64 mark = READ_ONCE(c->busy_mark);

	if ((READ_ONCE(c->running_flags) & CPUF_RUNNING) && now > mark)
		return c->busy_ns + (now - mark);
	return c->busy_ns;
}

static __always_inline bool is_kthread(const struct task_struct *p)
{
	return p->flags & PF_KTHREAD;
}

/*
 * Migration disabled right now (migrate_disable() in the kernel). The BPF
 * trampoline that runs every callback disables migration of the *current*
 * task itself, so for p == current a count of 1 is our own and means
 * nothing; only a count above 1 does. (Reading the count plainly made
 * every task that is requeued on its own CPU - a CPU hog whose slice
 * ran out - look migration-disabled: it went straight back to its CPU's
 * local queue and ran again ahead of every queued deadline.)
 */
static __always_inline bool is_migration_disabled(const struct task_struct *p)
{
	unsigned short n;

	if (!bpf_core_field_exists(p->migration_disabled))
		return false;
	n = p->migration_disabled;
	if (n == 1)
		return (const struct task_struct *)bpf_get_current_task_btf() != p;
	return n > 1;
}

/* Affinity covers every online CPU: no mask ANDs needed when placing. */
static __always_inline bool runs_anywhere(const struct task_struct *p)
{
	return p->nr_cpus_allowed >= nr_cpus_online;
}

/* Pinned for good (affinity of one CPU), not just migration-disabled. */
static __always_inline bool is_pinned(const struct task_struct *p)
{
	return p->nr_cpus_allowed == 1 && !is_migration_disabled(p);
}

static __always_inline u64 task_weight(const struct task_struct *p)
{
	return p->scx.weight ? p->scx.weight : LAVD_WEIGHT_DFL;
}

#endif
