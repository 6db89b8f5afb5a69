// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_minimal: the least a sched_ext scheduler can do, as a yardstick for
 * what sched_ext itself costs (under emulation most of all): a waking
 * task goes to the CPU the kernel's own idle selection picks and straight
 * to that CPU's local queue when it is idle; every other task waits in the
 * kernel's global FIFO queue, which the core consumes without a dispatch
 * callback. No per-task state, no timers, no preemption: whatever lavd
 * loses against this on a workload is lavd's policy and its callbacks'
 * cost, whatever this loses against the default scheduler is sched_ext's
 * (docs/results.md).
 *
 * shaped_ops (scx_minimal --lavd-shape) is the same placement with lavd's
 * shape and none of its policy: every callback lavd has, per-task storage
 * looked up in each, and queued tasks in a queue of its own ordered by
 * enqueue time (the same FIFO order) that ops.dispatch moves from. What
 * it loses against minimal_ops is the cost of that shape; what lavd loses
 * against it is lavd's policy.
 */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "scx_compat.bpf.h"
#include "exit_info.bpf.h"

#define ENOMEM	12

char _license[] SEC("license") = "GPL";

s32 scx_bpf_select_cpu_dfl(struct task_struct *p, s32 prev_cpu, u64 wake_flags,
			   bool *is_idle) __ksym __weak;

/* Per-CPU counters, no atomics: 0 placed on an idle CPU, 1 queued. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

/* The slice of every run (--slice-us). */
const volatile u64 slice_ns = SCX_SLICE_DFL;

/* lavd-shape: the queue dispatch moves from, and what each task keeps. */
#define SHAPED_DSQ	0

struct task_stamp {
	u64 runnable_at, running_at, ran_ns;
	s32 cpu;	/* where select_cpu sent it */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_stamp);
} stamps SEC(".maps");

/* Why the kernel ended the scheduler, for the loader (kind written last). */
GS_EXIT_INFO(uei);

static __always_inline void count(u32 i)
{
	u64 *c = bpf_map_lookup_elem(&counts, &i);

	if (c)
		(*c)++;
}

/* The placement both shapes share: the kernel's idle selection. */
static __always_inline s32 place(struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &idle);

	/* An idle CPU was claimed for p: run it there without queueing. */
	if (idle) {
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, slice_ns, 0);
		count(0);
	}
	return cpu;
}

SEC("struct_ops/minimal_select_cpu")
s32 BPF_PROG(minimal_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	return place(p, prev_cpu, wake_flags);
}

SEC("struct_ops/minimal_enqueue")
void BPF_PROG(minimal_enqueue, struct task_struct *p, u64 enq_flags)
{
	lavd_dsq_insert(p, SCX_DSQ_GLOBAL, slice_ns, enq_flags);
	count(1);
}

SEC("struct_ops/minimal_exit")
void BPF_PROG(minimal_exit, struct scx_exit_info *ei)
{
	gs_exit_info_record(&uei, NULL, 0, ei);
}

/* ---- lavd's shape, no policy ---- */

static __always_inline struct task_stamp *stamp(struct task_struct *p)
{
	return bpf_task_storage_get(&stamps, p, 0, 0);
}

SEC("struct_ops/shaped_select_cpu")
s32 BPF_PROG(shaped_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct task_stamp *ts = stamp(p);
	s32 cpu = place(p, prev_cpu, wake_flags);

	if (ts)
		ts->cpu = cpu;
	return cpu;
}

SEC("struct_ops/shaped_enqueue")
void BPF_PROG(shaped_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_stamp *ts = stamp(p);

	/* ordered by enqueue time: the global queue's FIFO order */
	lavd_dsq_insert_vtime(p, ts ? SHAPED_DSQ : SCX_DSQ_GLOBAL, slice_ns,
			      lavd_now(), enq_flags);
	count(1);
}

SEC("struct_ops/shaped_dispatch")
void BPF_PROG(shaped_dispatch, s32 cpu, struct task_struct *prev)
{
	lavd_dsq_move_to_local(SHAPED_DSQ);
}

SEC("struct_ops/shaped_runnable")
void BPF_PROG(shaped_runnable, struct task_struct *p, u64 enq_flags)
{
	struct task_stamp *ts = stamp(p);

	if (ts)
		ts->runnable_at = lavd_now();
}

SEC("struct_ops/shaped_running")
void BPF_PROG(shaped_running, struct task_struct *p)
{
	struct task_stamp *ts = stamp(p);

	if (ts)
		ts->running_at = lavd_now();
}

SEC("struct_ops/shaped_stopping")
void BPF_PROG(shaped_stopping, struct task_struct *p, bool runnable)
{
	struct task_stamp *ts = stamp(p);
	u64 now = lavd_now();

	if (ts && now > ts->running_at)
		ts->ran_ns += now - ts->running_at;
}

SEC("struct_ops/shaped_quiescent")
void BPF_PROG(shaped_quiescent, struct task_struct *p, u64 deq_flags)
{
	struct task_stamp *ts = stamp(p);

	if (ts)
		ts->runnable_at = 0;
}

SEC("struct_ops.s/shaped_init_task")
s32 BPF_PROG(shaped_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	return bpf_task_storage_get(&stamps, p, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE) ? 0 : -ENOMEM;
}

SEC("struct_ops.s/shaped_init")
s32 BPF_PROG(shaped_init)
{
	return scx_bpf_create_dsq(SHAPED_DSQ, -1);
}

SEC("struct_ops/shaped_exit")
void BPF_PROG(shaped_exit, struct scx_exit_info *ei)
{
	gs_exit_info_record(&uei, NULL, 0, ei);
}

SEC(".struct_ops.link")
struct sched_ext_ops minimal_ops = {
	.select_cpu	= (void *)minimal_select_cpu,
	.enqueue	= (void *)minimal_enqueue,
	.exit		= (void *)minimal_exit,
	.name		= "minimal",
};

SEC(".struct_ops.link")
struct sched_ext_ops shaped_ops = {
	.select_cpu	= (void *)shaped_select_cpu,
	.enqueue	= (void *)shaped_enqueue,
	.dispatch	= (void *)shaped_dispatch,
	.runnable	= (void *)shaped_runnable,
	.running	= (void *)shaped_running,
	.stopping	= (void *)shaped_stopping,
	.quiescent	= (void *)shaped_quiescent,
	.init_task	= (void *)shaped_init_task,
	.init		= (void *)shaped_init,
	.exit		= (void *)shaped_exit,
	.name		= "minimal_shaped",
};
