/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wakeup preemption: the seam issue 5 fills. When a task is queued and no
 * CPU is idle, a latency-critical, non-greedy task (lat_cri in the top
 * ~1.5 %: threshold = max - ((max - avg) >> preempt_shift)) will look for
 * a victim CPU running a less critical task that stops later, and cut
 * that task's slice. The per-CPU inputs it needs are already maintained
 * by ops.running (cpu_ctx.running_lat_cri, running_stop_clk) and the
 * greedy flag by calc_vdeadline(). In the core nothing is preempted:
 * queued tasks wait for the next slice end, at most sys_slice.
 */
#ifndef LAVD_PREEMPT_BPF_H
#define LAVD_PREEMPT_BPF_H

static __always_inline void try_preempt(struct task_struct *p,
					struct task_ctx *taskc)
{
}

#endif
