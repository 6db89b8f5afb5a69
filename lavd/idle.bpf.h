/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU selection for a waking task (ops.select_cpu) and for a queued task
 * that may find an idle CPU at enqueue time (docs/lavd.md, "CPU selection").
 * Only usable CPUs are considered: the active set of core compaction and
 * the overflow set (power.bpf.h); a task that wants a big core (or a
 * little one) looks at domains of that core type first.
 *
 *   pinned -> its CPU (an inactive one joins the overflow set);
 *   its home CPU: the previous CPU if usable and of the right core type,
 *   else a usable CPU of the nearest domain of the right type;
 *   the home CPU if its whole SMT core is idle; a fully idle core in the
 *   home domain; the home CPU if idle; the sync waker's CPU when nothing
 *   waits there (same domain, right type); any idle CPU of the home
 *   domain; donation: if the home domain is over-loaded (stealee), an
 *   idle CPU of an under-loaded (stealer) neighbour; an idle CPU of a
 *   domain of the right type in the same node; any idle usable CPU.
 *
 * A returned CPU with *is_idle set was claimed (its idle bit cleared): the
 * caller must place the task there directly. Without an idle CPU the home
 * CPU is returned: the task is queued in its domain.
 *
 * Needs: lavd.bpf.h; domain.bpf.h (struct dom_ctx, get_dom, dom_mask,
 * dom_neighbour); power.bpf.h (the usable set, add_overflow, core types).
 */
#ifndef LAVD_IDLE_BPF_H
#define LAVD_IDLE_BPF_H

u32 bpf_cpumask_any_distribute(const struct cpumask *cpumask) __ksym __weak;

static __always_inline bool cpu_allowed(const struct task_struct *p, s32 cpu)
{
	return cpu >= 0 && bpf_cpumask_test_cpu(cpu, p->cpus_ptr);
}

static __always_inline bool dom_is_big(u32 dom)
{
	if (dom >= LAVD_MAX_DOMS)
		return true;
	barrier_var(dom);
	return dom_big[dom];
}

/*
 * The usable CPUs of domain @dom that @p may run on: the domain mask
 * itself when nothing narrows it, else this CPU's scratch mask (each call
 * overwrites the previous result). NULL when it cannot be built.
 */
static __always_inline const struct cpumask *
dom_cands(const struct task_struct *p, u32 dom)
{
	const struct cpumask *m = dom_mask(dom), *u;
	bool all = READ_ONCE(all_usable);
	struct cpu_ctx *cpuc;
	struct bpf_cpumask *tmp;

	if (!m || (all && runs_anywhere(p)))
		return m;
	cpuc = get_cpu_ctx();
	if (!cpuc)
		return NULL;
	tmp = cpuc->tmp_mask;
	if (!tmp)
		return NULL;
	u = all ? NULL : usable_mask();
	if (u) {
		bpf_cpumask_and(tmp, m, u);
		if (!runs_anywhere(p))
			bpf_cpumask_and(tmp, (const struct cpumask *)tmp, p->cpus_ptr);
	} else {
		bpf_cpumask_and(tmp, m, p->cpus_ptr);
	}
	return (const struct cpumask *)tmp;
}

/* The usable CPUs @p may run on (the scratch mask, as above). */
static __always_inline const struct cpumask *usable_cands(const struct task_struct *p)
{
	const struct cpumask *u;
	struct cpu_ctx *cpuc;
	struct bpf_cpumask *tmp;

	if (READ_ONCE(all_usable))
		return p->cpus_ptr;
	u = usable_mask();
	if (!u)
		return p->cpus_ptr;
	if (runs_anywhere(p))
		return u;
	cpuc = get_cpu_ctx();
	tmp = cpuc ? cpuc->tmp_mask : NULL;
	if (!tmp)
		return p->cpus_ptr;
	bpf_cpumask_and(tmp, u, p->cpus_ptr);
	return (const struct cpumask *)tmp;
}

/* An idle CPU of @m, a fully idle core first; -1 if none (claimed). */
static __always_inline s32 idle_in(const struct cpumask *m, bool core_first)
{
	s32 cpu = -1;

	if (!m)
		return -1;
	if (core_first)
		cpu = scx_bpf_pick_idle_cpu(m, SCX_PICK_IDLE_CORE);
	if (cpu < 0)
		cpu = scx_bpf_pick_idle_cpu(m, 0);
	return cpu;
}

/* Walks a domain's neighbours, nearest first (bpf_loop body). */
#define WALK_HOME	0	/* a usable CPU of a domain of the right type */
#define WALK_IDLE	1	/* an idle usable CPU */

struct nbr_walk {
	struct task_struct *p;
	u32 own;
	u32 mode;
	bool want_big;
	bool strict_type;	/* only domains of the wanted core type */
	bool near_only;		/* only the same NUMA node */
	bool donate;		/* only stealer domains */
	s32 cpu;
};

static long nbr_step(u64 i, void *data)
{
	struct nbr_walk *w = data;
	const struct cpumask *c;
	struct dom_ctx *d;
	u32 nbr, dist;
	s32 cpu;

	if (!dom_neighbour(w->own, (u32)i, &nbr, &dist))
		return 1;
	if (w->strict_type && have_little && dom_is_big(nbr) != w->want_big)
		return 0;
	if (w->near_only && dist > 1)
		return 0;
	if (w->donate) {
		d = get_dom(nbr);
		if (!d || READ_ONCE(d->role) != LAVD_ROLE_STEALER)
			return 0;
	}
	c = dom_cands(w->p, nbr);
	if (!c)
		return 0;
	if (w->mode == WALK_HOME) {
		cpu = (s32)bpf_cpumask_any_distribute(c);
		if (cpu < 0 || cpu >= (s32)nr_cpu_ids)
			return 0;
	} else {
		cpu = idle_in(c, true);
		if (cpu < 0)
			return 0;
	}
	w->cpu = cpu;
	return 1;
}

static __always_inline s32 walk_nbrs(struct nbr_walk *w)
{
	w->cpu = -1;
	if (nr_doms > 1)
		bpf_loop(LAVD_MAX_DOMS, nbr_step, w, 0);
	return w->cpu;
}

/*
 * Where @p belongs now, starting from @cpu (its previous CPU, or the CPU
 * it is on): @cpu itself when @p may run there, it is usable and of the
 * core type @p wants; else a usable CPU of its domain or the nearest
 * domain of that type; else any usable CPU @p may use; failing all, a CPU
 * it may use, which then joins the overflow set.
 */
static __always_inline s32 home_cpu(struct task_struct *p,
				    struct task_ctx *taskc, s32 cpu)
{
	struct nbr_walk w = { .p = p, .mode = WALK_HOME };
	const struct cpumask *c;
	bool fits = cpu >= 0 && cpu_allowed(p, cpu) && cpu_usable(cpu);
	s32 x;

	if (fits && type_ok(taskc, cpu))
		return cpu;
	w.own = cpu_to_dom(cpu >= 0 ? cpu : bpf_get_smp_processor_id());
	w.want_big = wants_big(taskc);
	w.strict_type = have_little;
	if (!have_little || dom_is_big(w.own) == w.want_big) {
		c = dom_cands(p, w.own);
		if (c) {
			x = (s32)bpf_cpumask_any_distribute(c);
			if (x >= 0 && x < (s32)nr_cpu_ids)
				return x;
		}
	}
	if (walk_nbrs(&w) >= 0)
		return w.cpu;
	if (fits)
		return cpu;
	if (have_little) {
		w.strict_type = false;
		if (walk_nbrs(&w) >= 0)
			return w.cpu;
	}
	x = (s32)bpf_cpumask_any_distribute(usable_cands(p));
	if (x >= 0 && x < (s32)nr_cpu_ids)
		return x;
	/* no usable CPU it may run on: extend the overflow set */
	x = (s32)bpf_cpumask_any_distribute(p->cpus_ptr);
	if (x < 0 || x >= (s32)nr_cpu_ids)
		return cpu >= 0 ? cpu : bpf_get_smp_processor_id();
	add_overflow(x);
	return x;
}

/*
 * With several domains, an idle CPU of a neighbour (w->cpu): first by
 * donation, when an over-loaded home gives to an under-loaded neighbour
 * of the right type; then one of the right type in the same node.
 */
static __always_inline bool pick_nbr(struct nbr_walk *w, struct task_ctx *taskc,
				     u32 dom, struct cpu_ctx *cpuc)
{
	struct dom_ctx *hd;

	w->own = dom;
	w->want_big = wants_big(taskc);
	w->strict_type = have_little;
	hd = get_dom(dom);
	if (hd && READ_ONCE(hd->role) == LAVD_ROLE_STEALEE) {
		w->donate = true;
		if (walk_nbrs(w) >= 0) {
			if (cpuc)
				cpuc->nr_donate++;
			return true;
		}
		w->donate = false;
	}
	w->near_only = true;
	return walk_nbrs(w) >= 0;
}

/* Pinned: only the previous CPU is possible (an unusable one it is pinned
 * to counts as overflow, power.bpf.h). */
static __always_inline s32 pick_pinned(struct task_struct *p, s32 prev_cpu,
				       bool *is_idle)
{
	if (p->nr_cpus_allowed == 1 && !cpu_usable(prev_cpu))
		add_overflow(prev_cpu);
	*is_idle = scx_bpf_test_and_clear_cpu_idle(prev_cpu);
	return prev_cpu;
}

static __always_inline s32 pick_cpu(struct task_struct *p,
				    struct task_ctx *taskc, s32 prev_cpu,
				    u64 wake_flags, bool *is_idle)
{
	struct nbr_walk w = { .p = p, .mode = WALK_IDLE };
	const struct cpumask *idle_smt, *cands;
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu, waker_cpu = -1, home;
	u32 dom;

	*is_idle = false;

	if (p->nr_cpus_allowed == 1 || is_migration_disabled(p))
		return pick_pinned(p, prev_cpu, is_idle);
	if (!cpu_allowed(p, prev_cpu))
		prev_cpu = -1;

	/*
	 * A synchronous wakeup says the waker is about to sleep, so its CPU
	 * (warm cache, shared data) is a good home for the wakee.
	 */
	if ((wake_flags & SCX_WAKE_SYNC) && !no_wake_sync) {
		taskc->sync_wakeup = true;
		waker_cpu = bpf_get_smp_processor_id();
		if (!cpu_allowed(p, waker_cpu))
			waker_cpu = -1;
	}

	home = home_cpu(p, taskc, prev_cpu);
	if (home != prev_cpu)
		prev_cpu = -1;		/* not usable or the wrong core type */
	dom = cpu_to_dom(home);
	cands = dom_cands(p, dom);

	/* The previous CPU with its whole SMT core idle: warm and alone. */
	idle_smt = scx_bpf_get_idle_smtmask();
	if (prev_cpu >= 0 && bpf_cpumask_test_cpu(prev_cpu, idle_smt) &&
	    scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		cpu = prev_cpu;
		goto idle_core;
	}
	scx_bpf_put_idle_cpumask(idle_smt);

	/* A fully idle core in the home domain. */
	if (cands) {
		cpu = scx_bpf_pick_idle_cpu(cands, SCX_PICK_IDLE_CORE);
		if (cpu >= 0) {
			if (cpuc)
				cpuc->nr_idle_core++;
			*is_idle = true;
			return cpu;
		}
	}

	/* The previous CPU on a partly busy core: still cache-warm. */
	if (prev_cpu >= 0 && scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		*is_idle = true;
		return prev_cpu;
	}

	/* The sync waker's CPU when nothing else waits for it. */
	if (waker_cpu >= 0 && cpu_to_dom(waker_cpu) == dom &&
	    cpu_usable(waker_cpu) && type_ok(taskc, waker_cpu) &&
	    scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL_ON | waker_cpu) == 0 &&
	    scx_bpf_dsq_nr_queued(dom_dsq(dom)) == 0) {
		if (cpuc)
			cpuc->nr_sync_wake++;
		*is_idle = true;	/* placed directly, behind the waker */
		return waker_cpu;
	}

	/* Any idle CPU of the home domain. */
	cpu = idle_in(cands, false);
	if (cpu >= 0) {
		*is_idle = true;
		return cpu;
	}

	if (nr_doms > 1 && pick_nbr(&w, taskc, dom, cpuc)) {
		*is_idle = true;
		return w.cpu;
	}
	/* Any idle usable CPU: better than waiting (work conservation). */
	cpu = scx_bpf_pick_idle_cpu(usable_cands(p), 0);
	if (cpu >= 0) {
		*is_idle = true;
		return cpu;
	}
	return home;

idle_core:
	scx_bpf_put_idle_cpumask(idle_smt);
	if (cpuc)
		cpuc->nr_idle_core++;
	*is_idle = true;
	return cpu;
}

/*
 * At enqueue time (a task that did not pass through select_cpu, or found
 * nothing idle then): claim an idle usable CPU of domain @dom, else of any
 * domain (it will take the task from @dom's queue: force-steal), which
 * the caller wakes (SCX_KICK_IDLE) once the task is queued, so that it is
 * picked up without waiting for a busy CPU to finish its slice.
 * Returns -1 when no CPU was idle (then preemption may step in).
 */
static __always_inline s32 idle_cpu_for(struct task_struct *p, u32 dom)
{
	const struct cpumask *c = dom_cands(p, dom);
	s32 cpu = idle_in(c, false);

	if (cpu < 0 && (nr_doms > 1 || !c))
		cpu = scx_bpf_pick_idle_cpu(usable_cands(p), 0);
	return cpu;
}

#endif
