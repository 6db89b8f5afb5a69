/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compute domains and the load balancing between them (docs/lavd.md,
 * "Shape" and "Compute domains"). A domain is the set of online CPUs that
 * share a NUMA node, an LLC and a core type; each has its own
 * earliest-deadline queue (DSQ id = domain index). The loader computes
 * the domains and their neighbour lists (lavd/cpdom.c).
 *
 * Balancing has four parts:
 *   - planning (timer, every 10 ms): each domain's load (utilisation of
 *     its CPUs + one CPU per queued task) against its fair share of the
 *     total (in proportion to its active capacity) makes it a stealer
 *     (under-loaded), a stealee (over-loaded, with queued tasks) or
 *     neither, with hysteresis and budgets of tasks (energy.h);
 *   - stealing at dispatch: a CPU of a stealer domain takes the
 *     earliest task of a stealee neighbour before its own domain's queue
 *     (its pinned queue may still go first), while both have budget,
 *     nearest first, a farther node with hesitation (one try in two);
 *   - donation at wake-up (idle.bpf.h): a waking task whose domain is a
 *     stealee goes to an idle CPU of a stealer neighbour;
 *   - force-steal (work conservation): a CPU whose own queues are empty
 *     takes work from any neighbour's queue rather than idle; and a task
 *     queued while no CPU of its domain is idle wakes an idle CPU of
 *     another domain (enqueue), which then force-steals it.
 *
 * Needs: lavd.bpf.h only.
 */
#ifndef LAVD_DOMAIN_BPF_H
#define LAVD_DOMAIN_BPF_H

struct dom_ctx {
	struct bpf_cpumask __kptr *mask;	/* its online CPUs */
	u64 load;		/* last plan: utilisation + queued, /1024 CPU */
	u64 queued;		/* last plan: tasks in its queue */
	s64 steal_budget;	/* stealer: tasks it may still take */
	s64 give_budget;	/* stealee: tasks that may still leave */
	u32 role;		/* LAVD_ROLE_* of energy.h */
	u32 nr_active;		/* CPUs of it in the active set */
	u64 active_cap;		/* their capacity */
	/* the timer's sums while it walks the CPUs */
	u64 util_acc;
	u64 cap_acc;
	u32 active_acc;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAVD_MAX_DOMS);
	__type(key, u32);
	__type(value, struct dom_ctx);
} lavd_dom SEC(".maps");

static __always_inline struct dom_ctx *get_dom(u32 dom)
{
	return bpf_map_lookup_elem(&lavd_dom, &dom);
}

static __always_inline const struct cpumask *dom_mask(u32 dom)
{
	struct dom_ctx *d = get_dom(dom);

	/* one read of the kptr (a second would be unchecked) */
	return d ? (const struct cpumask *)d->mask : NULL;
}

/* The i-th nearest neighbour of @dom and its distance; false if none. */
static __always_inline bool dom_neighbour(u32 dom, u32 i, u32 *nbr, u32 *dist)
{
	_Static_assert((LAVD_MAX_DOMS & (LAVD_MAX_DOMS - 1)) == 0,
		       "LAVD_MAX_DOMS is a power of two (the masks below)");
	if (dom >= LAVD_MAX_DOMS || i >= LAVD_MAX_DOMS)
		return false;
	/* opaque to the compiler, then masked: the mask stays (the compiler
	 * would drop it after the check) and bounds the very registers it
	 * indexes with (a check on a copy does not carry over) */
	barrier_var(dom);
	barrier_var(i);
	dom &= LAVD_MAX_DOMS - 1;
	i &= LAVD_MAX_DOMS - 1;
	if (i >= dom_nr_nbr[dom])
		return false;
	*nbr = dom_nbr[dom][i];
	*dist = dom_nbr_dist[dom][i];
	return *nbr < nr_doms;
}

static __always_inline s64 dom_nr_queued(u32 dom)
{
	return scx_bpf_dsq_nr_queued(dom_dsq(dom));
}

/* ---- stealing at dispatch ---- */

struct steal_walk {
	u32 own;
	bool planned;		/* only stealees with budget (else: any queue) */
	bool found;
};

static long steal_one(u64 idx, void *data)
{
	struct steal_walk *w = data;
	struct dom_ctx *from, *to;
	u32 nbr, dist;

	if (!dom_neighbour(w->own, (u32)idx, &nbr, &dist))
		return 1;
	from = get_dom(nbr);
	if (!from || dom_nr_queued(nbr) <= 0)
		return 0;
	if (w->planned) {
		if (READ_ONCE(from->role) != LAVD_ROLE_STEALEE ||
		    READ_ONCE(from->give_budget) <= 0)
			return 0;
		/* another node: with hesitation (docs/lavd.md) */
		if (dist >= 2 && (bpf_get_prandom_u32() & 1))
			return 0;
	}
	if (!lavd_dsq_move_to_local(dom_dsq(nbr)))
		return 0;
	w->found = true;
	__sync_fetch_and_sub(&from->give_budget, 1);
	to = get_dom(w->own);
	if (to)
		__sync_fetch_and_sub(&to->steal_budget, 1);
	return 1;
}

/*
 * A CPU of a stealer domain with budget left takes the earliest task of a
 * stealee neighbour before its own queue (its domain is under-loaded).
 */
static __always_inline bool steal_planned(u32 own, struct cpu_ctx *cpuc)
{
	struct steal_walk w = { .own = own, .planned = true };
	struct dom_ctx *d;

	if (nr_doms <= 1)
		return false;
	d = get_dom(own);
	if (!d || READ_ONCE(d->role) != LAVD_ROLE_STEALER ||
	    READ_ONCE(d->steal_budget) <= 0)
		return false;
	bpf_loop(LAVD_MAX_DOMS, steal_one, &w, 0);
	if (w.found)
		cpuc->nr_steal++;
	return w.found;
}

/* Its own queues are empty: take work from any neighbour, nearest first. */
static __always_inline bool steal_forced(u32 own, struct cpu_ctx *cpuc)
{
	struct steal_walk w = { .own = own };

	if (nr_doms <= 1)
		return false;
	bpf_loop(LAVD_MAX_DOMS, steal_one, &w, 0);
	if (w.found) {
		cpuc->nr_steal++;
		cpuc->nr_force_steal++;
	}
	return w.found;
}

/* ---- planning (timer) ---- */

struct plan_sum {
	u64 load, cap;
	u32 stealer, stealee;
};

/* First pass: each domain's load; totals. */
static long plan_load(u64 idx, void *data)
{
	struct plan_sum *ps = data;
	struct dom_ctx *d = get_dom((u32)idx);
	s64 q = dom_nr_queued((u32)idx);

	if (!d)
		return 0;
	d->queued = q > 0 ? (u64)q : 0;
	d->load = d->util_acc + d->queued * LAVD_SCALE;
	ps->load += d->load;
	ps->cap += d->active_cap;
	return 0;
}

/* Second pass: roles and budgets. */
static long plan_role(u64 idx, void *data)
{
	struct plan_sum *ps = data;
	struct dom_ctx *d = get_dom((u32)idx);
	u64 fair, budget;
	u32 role;

	if (!d)
		return 0;
	fair = lavd_fair_share(ps->load, d->active_cap, ps->cap);
	role = lavd_plan_role(d->load, fair, d->queued, d->nr_active > 0,
			      READ_ONCE(d->role), &budget);
	WRITE_ONCE(d->steal_budget, role == LAVD_ROLE_STEALER ? (s64)budget : 0);
	WRITE_ONCE(d->give_budget, role == LAVD_ROLE_STEALEE ? (s64)budget : 0);
	WRITE_ONCE(d->role, role);
	ps->stealer += role == LAVD_ROLE_STEALER;
	ps->stealee += role == LAVD_ROLE_STEALEE;
	return 0;
}

/* The load-balancing plan of the next interval (after the active set). */
static __always_inline void plan_domains(struct lavd_stats *st)
{
	struct plan_sum ps = { 0 };

	if (nr_doms <= 1)
		return;
	bpf_loop(nr_doms, plan_load, &ps, 0);
	bpf_loop(nr_doms, plan_role, &ps, 0);
	st->nr_stealer = ps.stealer;
	st->nr_stealee = ps.stealee;
}

/* ---- set-up (ops.init) ---- */

/*
 * Creates each domain's queue and (empty) cpumask (bpf_loop body); the
 * per-CPU pass of ops.init adds each CPU to its domain (dom_add_cpu).
 */
static long init_dom(u64 idx, void *data)
{
	struct bpf_cpumask *m;
	struct dom_ctx *d;
	u32 dom = (u32)idx;
	s32 *err = data;

	*err = scx_bpf_create_dsq(dom_dsq(dom), -1);
	if (*err) {
		lavd_error("lavd: cannot create the queue of domain %u", dom);
		return 1;
	}
	d = get_dom(dom);
	m = bpf_cpumask_create();
	if (!d || !m) {
		if (m)
			bpf_cpumask_release(m);
		*err = -ENOMEM;
		return 1;
	}
	m = bpf_kptr_xchg(&d->mask, m);
	if (m)
		bpf_cpumask_release(m);
	return 0;
}

/*
 * An online CPU joins its domain's cpumask (offline CPUs have no domain:
 * the loader marks them 255). Called under bpf_rcu_read_lock().
 */
static __always_inline void dom_add_cpu(u32 cpu)
{
	struct bpf_cpumask *m;
	struct dom_ctx *d;

	if (cpu >= LAVD_MAX_CPUS)
		return;
	barrier_var(cpu);
	if (cpu_dom[cpu] >= LAVD_MAX_DOMS)
		return;
	d = get_dom(cpu_dom[cpu]);
	m = d ? d->mask : NULL;
	if (m)
		bpf_cpumask_set_cpu(cpu, m);
}

#endif
