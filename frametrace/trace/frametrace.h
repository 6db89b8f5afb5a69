/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between frametrace.bpf.c and user space: the event record the BPF
 * programs emit (and that the trace file stores, see trace.h), the flight
 * ring slot, and the auxiliary variable-length records (names, markers,
 * trigger notes).
 *
 * One event is 32 bytes. Field meaning per type (tid is the subject):
 *
 *  type          tid      arg           arg2                          val
 *  SWITCH        prev     next          prev_state | prev_prio << 16  prev's se.sum_exec_runtime
 *                                       | next_prio << 24             (FT_F_SUMEXEC), else 0
 *  WAKING        wakee    waker tid     target_cpu | prio << 16       wakee tgid | waker tgid << 32
 *  WAKEUP        wakee    waker tid     target_cpu | prio << 16       wakee tgid | waker tgid << 32
 *  WAKEUP_NEW    child    parent tid    target_cpu | prio << 16       child tgid | parent tgid << 32
 *  MIGRATE       task     orig_cpu      dest_cpu                      task tgid
 *  FORK          child    parent tid    child tgid                    parent tgid
 *  EXIT          task     tgid          0                             0
 *  FUTEX         task     op | (s16)ret << 16   duration (ns, or us   uaddr
 *                                       with FT_F_DUR_US)
 *  RUNTIME       task     the line's    0                             runtime ns (sched_stat_runtime)
 *                         task + 1 (0: unknown; imports only)
 *  MARK          writer   tgid          string index (file) / len     0
 *  COMM          task     tgid          string index (file) / 0       0
 *  PRESENT       caller   tgid          string index (file: the       0
 *                                       function's name) / id (ring)
 *
 * ts is CLOCK_MONOTONIC ns (bpf_ktime_get_ns, perf -k mono). FUTEX's ts
 * is the start of the call. prev_state is the kernel's task state bits
 * (0 = runnable, i.e. preempted; 1 S; 2 D; ...); bit 15 set means the
 * state is unknown (reconstructed switches).
 */
#ifndef FRAMETRACE_H
#define FRAMETRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum ft_ev_type {
	FT_EV_NONE = 0,
	FT_EV_SWITCH = 1,
	FT_EV_WAKING = 2,
	FT_EV_WAKEUP = 3,
	FT_EV_WAKEUP_NEW = 4,
	FT_EV_MIGRATE = 5,
	FT_EV_FORK = 6,
	FT_EV_EXIT = 7,
	FT_EV_FUTEX = 8,
	FT_EV_RUNTIME = 9,
	FT_EV_MARK = 10,
	FT_EV_COMM = 11,
	FT_EV_PRESENT = 12,	/* a present call (uprobe): a frame boundary */
	FT_EV_NTYPES
};

/* ft_ev.flags */
#define FT_F_PREEMPT 0x01	/* SWITCH: the tracepoint's preempt argument */
#define FT_F_SUMEXEC 0x02	/* SWITCH: val holds prev's sum_exec_runtime */
#define FT_F_RECONSTRUCTED 0x04	/* SWITCH: inserted by a reader (missing idle->task) */
#define FT_F_DUR_US 0x08	/* FUTEX: arg2 is in microseconds */
#define FT_F_DUR_OPEN 0x10	/* FUTEX: the call had not returned when the trace ended */
#define FT_F_NO_EXIT 0x40	/* FUTEX: entry only (raw syscall tracepoint): ts is
				 * the call, arg2 0; readers take a wait's length
				 * from the sleep that follows it */
#define FT_F_IRQ 0x20		/* WAKING/WAKEUP: woken from interrupt context (arg is the
				 * interrupted task, not a waker) */
#define FT_F_NO_TASK 0x80	/* imported line whose task was unknown (perf's
				 * ":-1 -1"): it names no running task */
#define FT_F_FUTEX_SLEEP 0x08	/* SWITCH: prev went to sleep in a futex wait
				 * (futex source "sched": no FUTEX events) */
#define FT_F_FUTEX_WAKE 0x08	/* WAKING/WAKEUP: the waker was in a futex
				 * wake call (not set by the recorder: the
				 * readers know it from the sleep it ends) */

#define FT_STATE_UNKNOWN 0x8000

/* Synthetic futex "ops" for the futex2 system calls (real ops are < 0x1000). */
#define FT_FUTEX_OP_WAITV 0x1000
#define FT_FUTEX_OP_WAIT2 0x1001
#define FT_FUTEX_OP_WAKE2 0x1002

struct ft_ev {
	__u64 ts;
	__u32 tid;
	__u32 arg;
	__u32 arg2;
	__u16 cpu;
	__u8 type;
	__u8 flags;
	__u64 val;
};

/* Variable-length records of the ring buffers: a header event followed by
 * text. COMM: 16 bytes of comm. MARK: up to FT_MARK_MAX bytes (arg2 = len). */
#define FT_COMM_LEN 16
#define FT_MARK_MAX 112

struct ft_comm_rec {
	struct ft_ev ev;
	char comm[FT_COMM_LEN];
};

struct ft_mark_rec {
	struct ft_ev ev;
	char text[FT_MARK_MAX];
};

/* Aux ring (flight mode): wake-up latency trigger note. ev.type = 0xff,
 * ev.tid = the task, ev.val = latency ns, ev.ts = switch-in time. */
#define FT_AUX_WAKELAT 0xff

/* Per-CPU state of the BPF programs (the `counters` map): drops, and the
 * interrupt nesting that tells a wake-up made by an interrupt from one
 * made by the task it interrupted. */
struct ft_cpu_state {
	__u64 lost;		/* stream events dropped: ring buffer full */
	__u64 aux_lost;		/* names/markers/notes dropped */
	__u32 irq_depth;	/* interrupt handlers entered, not left */
	__u32 pad;
	__u64 irq_since;	/* last entry; a depth older than 20 ms is stale */
	__u64 irq_resets;	/* depths left over at a context switch */
};

/* Flight ring slot: seq = write index + 1 once the event is complete. */
struct ft_slot {
	__u64 seq;
	struct ft_ev ev;
};

/* Per-CPU write index of the flight ring (one cache line each). */
struct ft_head {
	__u64 head;
	__u64 pad[7];
};

/* Modes (rodata `mode`). */
#define FT_MODE_STREAM 0	/* every event through the ring buffer */
#define FT_MODE_FLIGHT 1	/* fixed events into the per-CPU flight ring */

#define FT_MAX_CPUS 512

#endif
