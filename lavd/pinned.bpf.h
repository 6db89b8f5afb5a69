/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tasks pinned to one CPU (affinity of a single CPU: per-CPU kernel
 * threads, a game's pinned render thread, `taskset -c N`). In the shared
 * domain queue such a task blocks nothing but can wait long: any CPU may
 * take the queue's head, and only one CPU may take it. So each CPU has a
 * queue of its own for them (ordered by the same virtual deadlines), its
 * dispatch takes whichever of its pinned queue and its domain queue has the
 * earlier deadline, and while pinned tasks wait there the running task's
 * slice is capped at --pinned-slice-us (slice.bpf.h, and at enqueue
 * below for a task that already runs a longer slice).
 *
 * Needs: lavd.bpf.h; slice.bpf.h (nr_pinned_waiting, cut_running_slice).
 */
#ifndef LAVD_PINNED_BPF_H
#define LAVD_PINNED_BPF_H

/*
 * ops.enqueue of a pinned task whose CPU is busy: queue it on the CPU's
 * own queue, wake the CPU should it go idle meanwhile, and cut the running
 * task's slice down to the pinned cap if it is longer.
 */
static __always_inline void enqueue_pinned(struct task_struct *p, s32 cpu,
					   u64 slice, u64 vdl, u64 enq_flags,
					   struct cpu_ctx *cpuc)
{
	struct cpu_ctx *v = get_cpu_ctx_of(cpu);

	lavd_dsq_insert_vtime(p, cpu_dsq(cpu), slice, vdl, enq_flags);
	cpuc->nr_pinned++;
	scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
	if (!pinned_slice_ns || !v || !(READ_ONCE(v->running_flags) & CPUF_RUNNING))
		return;
	if (READ_ONCE(v->running_slice) > pinned_slice_ns &&
	    cut_running_slice(cpu, v, pinned_slice_ns, lavd_now()))
		cpuc->nr_pinned_cap++;
}

/*
 * ops.dispatch: the earlier deadline of this CPU's pinned queue and its
 * domain queue. Without scx_bpf_dsq_peek (kernels before 6.19) pinned tasks
 * simply go first: they have nowhere else to run.
 */
static __always_inline bool dispatch_pinned_first(s32 cpu, u32 dom)
{
	struct task_struct *pin, *shared;
	bool pinned_first = true;

	if (!nr_pinned_waiting(cpu))
		return false;
	if (bpf_ksym_exists(scx_bpf_dsq_peek___lavd)) {
		bpf_rcu_read_lock();
		pin = scx_bpf_dsq_peek___lavd(cpu_dsq(cpu));
		shared = scx_bpf_dsq_peek___lavd(dom_dsq(dom));
		if (pin && shared && shared->scx.dsq_vtime < pin->scx.dsq_vtime)
			pinned_first = false;
		bpf_rcu_read_unlock();
	}
	if (pinned_first)
		return lavd_dsq_move_to_local(cpu_dsq(cpu));
	return false;
}

/* Creates each online CPU's pinned queue (ops.init, bpf_loop body). */
static long init_pinned_dsq(u64 cpu, void *data)
{
	s32 *err = data;

	*err = scx_bpf_create_dsq(cpu_dsq((s32)cpu), -1);
	return *err ? 1 : 0;
}

#endif
