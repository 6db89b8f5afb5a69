/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time slices (docs/lavd.md, "Time slice"). Every task gets the system slice
 * (sys_stat.bpf.h) unless:
 *   - slice boost: its average burst is longer than the system slice, so
 *     it would be cut before finishing. With room (CPUs <= 95 % busy and
 *     no more tasks waiting than CPUs) it gets its burst + 500 us; without
 *     room only a task above the average lat_cri gets up to 2x. When the
 *     system saturates, the timer cuts running boosted slices back.
 *   - pinned tasks wait for its CPU: nothing runs longer than
 *     --pinned-slice-us there, since they cannot go elsewhere.
 *   - a futex holder whose slice runs out gets one extension (dispatch).
 * The slice is set when the task starts running (ops.running), on the
 * CPU it actually got, as the pinned cap depends on that CPU.
 * Arithmetic: policy.h (lavd_task_slice, lavd_pinned_cap, lavd_cut_slice).
 *
 * Needs: lavd.bpf.h, gameprof.bpf.h (the task's knobs).
 */
#ifndef LAVD_SLICE_BPF_H
#define LAVD_SLICE_BPF_H

u64 avg_lat_cri_last;	/* mean lat_cri of the last interval (timer) */

/* Tasks waiting in the per-CPU pinned queue of @cpu. */
static __always_inline u64 nr_pinned_waiting(s32 cpu)
{
	s32 n = scx_bpf_dsq_nr_queued(cpu_dsq(cpu));

	return n > 0 ? (u64)n : 0;
}

/*
 * A profiled task's slice (knobs.h), and whether it is boosted in bit 0
 * (slices are far below 2^63). A call of its own for the reason
 * prof_lat_cri() gives.
 */
static __noinline u64 prof_slice(struct task_ctx *taskc, u64 sys)
{
	struct kn_slice_args a = {
		.sys_slice = sys,
		.avg_runtime = taskc->avg_runtime,
		.lat_cri = taskc->lat_cri,
		.avg_lat_cri = READ_ONCE(avg_lat_cri_last),
		.room = READ_ONCE(sys_room),
		.greedy = taskc->greedy,
	};
	u64 s;

	__builtin_memcpy(&a.kn, &taskc->kn, sizeof(a.kn));
	s = kn_slice(&a);
	return (lavd_min(s, LAVD_U64_MAX >> 1) << 1) | (a.boosted ? 1 : 0);
}

/* The slice a task gets for the run it starts now on @cpu. */
static __always_inline u64 slice_for_run(struct task_struct *p,
					 struct task_ctx *taskc, s32 cpu,
					 struct cpu_ctx *cpuc)
{
	u64 sys = READ_ONCE(sys_slice), s, capped;
	bool boosted;

	if (has_prof(taskc)) {
		/* a game profile: its scale, bounds, boost and greedy cap */
		s = prof_slice(taskc, sys);
		boosted = s & 1;
		s >>= 1;
	} else {
		s = lavd_task_slice(sys, taskc->avg_runtime, taskc->lat_cri,
				    READ_ONCE(avg_lat_cri_last), READ_ONCE(sys_room),
				    !no_slice_boost, &boosted);
		if (lavd_greedy_slice(s, taskc->greedy, greedy_slice_ns) < s) {
			s = greedy_slice_ns;
			boosted = false;
		}
	}
	capped = lavd_pinned_cap(s, nr_pinned_waiting(cpu), pinned_slice_ns);
	if (capped < s) {
		cpuc->nr_pinned_cap++;
		boosted = capped > sys;
		s = capped;
	}
	if (boosted)
		cpuc->nr_slice_boost++;
	taskc->slice_boosted = boosted;
	taskc->slice = s;
	return s;
}

/*
 * Cut what a remote CPU's running task may still run to @target from its
 * start: at once (IPI) when it already ran that long, else by shortening
 * its slice. Returns whether something was cut.
 */
static __always_inline bool cut_running_slice(s32 cpu, struct cpu_ctx *v,
					      u64 target, u64 now)
{
	struct task_struct *t;
	u64 left = lavd_cut_slice(now - READ_ONCE(v->running_clk), target);
	bool done = false;

	if (!left) {
		scx_bpf_kick_cpu(cpu, SCX_KICK_PREEMPT);
		return true;
	}
	bpf_rcu_read_lock();
	t = lavd_cpu_curr(cpu);
	if (t && (u32)t->pid == READ_ONCE(v->running_pid) && t->scx.slice > left) {
		lavd_set_remote_slice(t, left);
		done = true;
	}
	bpf_rcu_read_unlock();
	return done;
}

/* bpf_loop() body of the timer: cut boosted slices while saturated. */
static long shrink_boosted_cpu(u64 idx, void *data)
{
	s32 cpu = (s32)idx;
	struct cpu_ctx *v = get_cpu_ctx_of(cpu);
	u64 *n = data;

	if (!v || !(READ_ONCE(v->running_flags) & CPUF_BOOSTED))
		return 0;
	v->running_flags &= ~CPUF_BOOSTED;
	if (cut_running_slice(cpu, v, READ_ONCE(sys_slice), lavd_now()))
		(*n)++;
	return 0;
}

/*
 * A boosted slice is a loan that others may call in: when a task is
 * queued with no CPU idle and its preferred CPU runs a less critical task
 * on a boosted slice that has already run a whole system slice, the boost
 * ends. Returns that CPU (the caller cuts it once the task is queued,
 * cut_running_slice()), or -1.
 */
static __always_inline s32 boost_to_revoke(struct task_ctx *taskc, s32 cpu)
{
	struct cpu_ctx *c;

	if (no_slice_boost || cpu < 0 || cpu >= (s32)nr_cpu_ids)
		return -1;
	c = get_cpu_ctx_of(cpu);
	if (!c || !(READ_ONCE(c->running_flags) & CPUF_BOOSTED) ||
	    taskc->lat_cri <= READ_ONCE(c->running_lat_cri) ||
	    lavd_now() - READ_ONCE(c->running_clk) < READ_ONCE(sys_slice))
		return -1;
	c->running_flags &= ~CPUF_BOOSTED;
	return cpu;
}

/*
 * ops.dispatch with the previous task still runnable and its slice over:
 * a probable futex holder gets one more slice (once per run), so that the
 * tasks waiting for its lock are not stuck behind everything queued.
 */
static __always_inline bool extend_holder(struct task_struct *prev,
					  struct cpu_ctx *cpuc)
{
	struct task_ctx *taskc;

	if (no_futex_boost || !prev || !(prev->scx.flags & SCX_TASK_QUEUED))
		return false;
	taskc = get_task_ctx(prev);
	if (!taskc)
		return false;
	/* a profile with futex-boost off: no extension */
	if (!lavd_holder_may_extend(prof_holder(taskc)))
		return false;
	taskc->holder = lavd_holder_next(taskc->holder, LAVD_HEV_EXTEND);
	lavd_set_slice(prev, READ_ONCE(sys_slice));
	cpuc->nr_holder_ext++;
	return true;
}

#endif
