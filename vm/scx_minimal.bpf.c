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
 */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../lavd/compat.bpf.h"

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

/* Why the kernel ended the scheduler, for the loader (kind written last). */
struct {
	s32 kind;
	s64 exit_code;
	char reason[128];
	char msg[256];
} uei SEC(".data");

static __always_inline void count(u32 i)
{
	u64 *c = bpf_map_lookup_elem(&counts, &i);

	if (c)
		(*c)++;
}

SEC("struct_ops/minimal_select_cpu")
s32 BPF_PROG(minimal_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &idle);

	/* An idle CPU was claimed for p: run it there without queueing. */
	if (idle) {
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
		count(0);
	}
	return cpu;
}

SEC("struct_ops/minimal_enqueue")
void BPF_PROG(minimal_enqueue, struct task_struct *p, u64 enq_flags)
{
	lavd_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
	count(1);
}

SEC("struct_ops/minimal_exit")
void BPF_PROG(minimal_exit, struct scx_exit_info *ei)
{
	bpf_probe_read_kernel_str(uei.reason, sizeof(uei.reason), ei->reason);
	bpf_probe_read_kernel_str(uei.msg, sizeof(uei.msg), ei->msg);
	uei.exit_code = ei->exit_code;
	__sync_val_compare_and_swap(&uei.kind, 0, ei->kind);
}

SEC(".struct_ops.link")
struct sched_ext_ops minimal_ops = {
	.select_cpu	= (void *)minimal_select_cpu,
	.enqueue	= (void *)minimal_enqueue,
	.exit		= (void *)minimal_exit,
	.name		= "minimal",
};
