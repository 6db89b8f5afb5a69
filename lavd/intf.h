/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the BPF side and the loader share: limits, the statistics record the
 * BPF timer publishes (map "lavd_stats", also read by `lavd --monitor`), and
 * the exit information the scheduler's ops.exit() leaves for the loader.
 * The skeleton only declares the types of BPF globals, so every struct the
 * two sides exchange lives here (VM.md).
 */
#ifndef LAVD_INTF_H
#define LAVD_INTF_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define LAVD_NAME		"lavd"
#define LAVD_VERSION		"0.1.0"

/* Sizes of the topology tables the loader fills before load. */
#define LAVD_MAX_CPUS		512
#define LAVD_MAX_LLCS		64

/* Map names the monitor looks up (at most 15 characters). */
#define LAVD_STATS_MAP		"lavd_stats"

/* Statistics period: the BPF timer also recomputes the slice. */
#define LAVD_SYS_STAT_INTERVAL_NS (10ULL * 1000 * 1000)

/*
 * Published every LAVD_SYS_STAT_INTERVAL_NS by the BPF timer into the
 * single element of map "lavd_stats". Counters are cumulative since load
 * (readers take differences); the rest describes the last interval.
 */
struct lavd_stats {
	__u64 seq;		/* bumped on every publication */
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
	__u64 nr_steal;		/* dispatches from another LLC's queue */
	__u64 nr_stall_skips;	/* dispatches refused by the debug stall knob */
};

#define LAVD_STATS_MAGIC	0x6c6176645f737473ULL	/* "lavd_sts" */

/* Exit information, recorded by ops.exit() (sizes as the kernel's). */
#define LAVD_EXIT_REASON_LEN	128
#define LAVD_EXIT_MSG_LEN	1024
#define LAVD_EXIT_DUMP_LEN	8192

struct lavd_exit_info {
	__s32 kind;		/* enum scx_exit_kind; 0 while running */
	__s32 exit_cpu;		/* CPU that triggered it, -1 if unknown */
	__s64 exit_code;	/* SCX_ECODE_* (restart requests) */
	char reason[LAVD_EXIT_REASON_LEN];
	char msg[LAVD_EXIT_MSG_LEN];
};

/* Kernel ABI values the loader needs without vmlinux.h. */
#define LAVD_SCX_EXIT_NONE		0
#define LAVD_SCX_EXIT_UNREG		64	/* unregistered from user space */
#define LAVD_SCX_EXIT_ERROR		1024	/* kinds >= this are errors */
#define LAVD_SCX_EXIT_ERROR_STALL	1026	/* watchdog: runnable task stall */
#define LAVD_SCX_ECODE_RSN_HOTPLUG	(1ULL << 32)
#define LAVD_SCX_ECODE_ACT_RESTART	(1ULL << 48)
#define LAVD_SCX_ECODE_ACT_MASK		(0xffffULL << 48)
#define LAVD_SCX_OPS_SWITCH_PARTIAL	8ULL

#endif
