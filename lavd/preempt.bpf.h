/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wake-up preemption (docs/lavd.md, "Preemption"). A task that is queued while
 * no CPU is idle, is not greedy and whose lat_cri reaches the threshold
 * (max - ((max - avg) >> --preempt-shift), policy.h) looks for a victim:
 * its preferred CPU first, then the other CPUs of its domain from a random
 * starting point, until two candidates qualify ("power of two choices").
 * A CPU qualifies when it runs one of lavd's tasks (never an idle CPU or
 * one an RT/DL task holds) that is not a probable futex holder and is
 * less critical than the wakee and expected to stop later than it. A game
 * profile may switch a task's preemption off, give it its own threshold
 * (preempt-shift) or make its runs never a victim (evictable off).
 *
 * Our decisions, where the reference differs (docs/lavd.md):
 *   - of the two candidates we evict the *less* critical one, the
 *     later-stopping one on a tie (the reference keeps the more critical
 *     one as victim, and can pick idle CPUs as no-op victims);
 *   - the mechanism depends on time: cutting the victim's slice to 1 ns
 *     (the reference's only mechanism) takes effect at the victim CPU's
 *     next tick, up to 4 ms away at HZ=250. When that tick comes after
 *     the wakee would have finished its usual burst, the wakee is put
 *     straight into the victim CPU's local queue with SCX_ENQ_PREEMPT,
 *     which preempts at once (an IPI). --debug-preempt-kick never|always
 *     forces either mechanism for measurements.
 * A victim is claimed with a compare-and-swap of its estimated stop time
 * (set to 0), so two wakees never evict the same run.
 *
 * Needs: lavd.bpf.h, gameprof.bpf.h (the task's knobs).
 */
#ifndef LAVD_PREEMPT_BPF_H
#define LAVD_PREEMPT_BPF_H

struct victim {
	s32 cpu;
	u64 lat_cri, stop;
};

/*
 * The candidates of one search, per CPU. They live in a map value, not on
 * the stack: the verifier tracks stack slots, so a loop that fills them
 * (and counts them) has a different state each iteration, and 6.12's
 * verifier then walks every iteration of every path (ops.enqueue passed
 * its 1 M instructions); a map value's contents are not tracked.
 */
struct victim_pick {
	struct victim v[2];
	u32 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct victim_pick);
} lavd_victims SEC(".maps");

/* A profiled wakee's scope (knobs.h); a call of its own, as prof_lat_cri(). */
static __noinline enum lavd_evict_scope prof_evict_scope(struct task_ctx *taskc)
{
	return lavd_knob_evict_scope(taskc->greedy, taskc->lat_cri,
				     READ_ONCE(lat_cri_max_avg),
				     READ_ONCE(lat_cri_thresh), &taskc->kn);
}

/*
 * Does @cpu qualify as a victim for a wakee of lat_cri @lc that would
 * stop at @stop? Fills @v when it does.
 */
static __always_inline bool victim_ok(s32 cpu, u64 lc, u64 stop, bool greedy_only,
				      struct victim *v, struct cpu_ctx *self)
{
	struct cpu_ctx *c = get_cpu_ctx_of(cpu);
	u32 flags;
	u64 vstop, vlc;

	if (!c)
		return false;
	flags = READ_ONCE(c->running_flags);
	if (!(flags & CPUF_RUNNING) || (flags & (CPUF_RT | CPUF_NOEVICT)) ||
	    (greedy_only && !(flags & CPUF_GREEDY)))
		return false;
	vlc = READ_ONCE(c->running_lat_cri);
	vstop = READ_ONCE(c->running_stop_clk);
	if (!vstop || !lavd_can_evict(lc, stop, vlc, vstop))
		return false;
	if (flags & CPUF_HOLDER) {
		/* never evict a probable lock holder */
		self->nr_preempt_spared++;
		return false;
	}
	v->cpu = cpu;
	v->lat_cri = vlc;
	v->stop = vstop;
	return true;
}

/*
 * Evicts the task running on @v->cpu for @p. Returns true when @p was
 * handed to that CPU (the caller must not queue it again).
 */
static __always_inline bool evict(struct task_struct *p, struct victim *v,
				  u64 now, u64 wakee_stop, u64 slice,
				  u64 enq_flags, struct cpu_ctx *self)
{
	struct cpu_ctx *c = get_cpu_ctx_of(v->cpu);
	struct task_struct *t;
	u64 next_tick;

	if (!c || __sync_val_compare_and_swap(&c->running_stop_clk, v->stop, 0) !=
		  v->stop)
		return false;	/* another wakee took it, or it stopped */
	WRITE_ONCE(c->preempt_by, (u32)p->pid);
	self->nr_preempt++;
	next_tick = lavd_next_tick(now, READ_ONCE(c->last_tick_clk),
				   READ_ONCE(tick_ns_est));
	if (lavd_need_kick(preempt_kick, next_tick, wakee_stop)) {
		self->nr_preempt_kick++;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL_ON | (u32)v->cpu, slice,
				enq_flags | SCX_ENQ_PREEMPT);
		return true;
	}
	/* slice := 1 ns: the victim yields at its next tick */
	bpf_rcu_read_lock();
	t = lavd_cpu_curr(v->cpu);
	if (t && (u32)t->pid == READ_ONCE(c->running_pid))
		lavd_set_remote_slice(t, 1);
	bpf_rcu_read_unlock();
	return false;
}

/*
 * The search and the eviction for @p, whose scope allows one (@greedy_only:
 * only greedy runs are victims). A global function: the verifier checks it
 * once, on its own, instead of once per path of ops.enqueue that reaches
 * it (6.18's and 6.19's verifiers walked ops.enqueue past the 250 000
 * instructions of vm-test's budget with it inlined). Returns true when @p
 * went to the victim's local queue.
 */
__noinline bool lavd_preempt_search(struct task_struct *p __arg_trusted, s32 pref,
				    u64 slice, u64 enq_flags, bool greedy_only)
{
	/* looked up again: a global function takes 5 arguments, and only
	 * an enqueue that found no idle CPU and may evict comes here */
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *self = get_cpu_ctx();
	struct victim_pick *vp;
	struct victim *pick;
	u64 now, stop, lc;
	u32 dom, start, i, zero = 0;

	if (!taskc || !self)
		return false;
	lc = taskc->lat_cri;
	self->nr_preempt_try++;
	now = lavd_now();
	stop = lavd_est_stop(now, taskc->avg_runtime, READ_ONCE(sys_slice));

	vp = bpf_map_lookup_elem(&lavd_victims, &zero);
	if (!vp)
		return false;
	vp->n = 0;
	if (pref >= 0 && pref < (s32)nr_cpu_ids &&
	    victim_ok(pref, lc, stop, greedy_only, &vp->v[0], self))
		vp->n = 1;
	if (!is_pinned(p) && nr_cpu_ids > 1) {
		dom = cpu_to_dom(pref >= 0 ? pref : bpf_get_smp_processor_id());
		start = bpf_get_prandom_u32() % nr_cpu_ids;
		bpf_for(i, 0, nr_cpu_ids) {
			s32 cpu = (s32)((start + i) % nr_cpu_ids);
			u32 k = READ_ONCE(vp->n) & 1;

			if (cpu == pref || cpu_to_dom(cpu) != dom ||
			    !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
				continue;
			if (victim_ok(cpu, lc, stop, greedy_only, &vp->v[k], self) &&
			    ++vp->n >= 2)
				break;
		}
	}
	if (!vp->n)
		return false;
	pick = &vp->v[0];
	if (vp->n >= 2 && lavd_pick_victim(vp->v[0].lat_cri, vp->v[0].stop,
					   vp->v[1].lat_cri, vp->v[1].stop))
		pick = &vp->v[1];
	return evict(p, pick, now, stop, slice, enq_flags, self);
}

/*
 * ops.enqueue found no idle CPU for @p (slice @slice). @pref is the CPU it
 * prefers (its previous one); a pinned task considers only that one.
 * Whether @p may evict at all is decided here, inline and cheap; the
 * search is lavd_preempt_search(). Returns true when @p went to the
 * victim's local queue.
 */
static __always_inline bool try_preempt(struct task_struct *p,
					struct task_ctx *taskc, s32 pref,
					u64 slice, u64 enq_flags)
{
	enum lavd_evict_scope scope;

	if (has_prof(taskc))	/* a game profile: its own switch and threshold */
		scope = prof_evict_scope(taskc);
	else if (no_preemption)
		return false;
	else
		scope = lavd_evict_scope(taskc->greedy, taskc->lat_cri,
					 READ_ONCE(lat_cri_preempt), greedy_preempt);
	if (scope == LAVD_EVICT_NONE)
		return false;
	return lavd_preempt_search(p, pref, slice, enq_flags,
				   scope == LAVD_EVICT_GREEDY);
}

#endif
