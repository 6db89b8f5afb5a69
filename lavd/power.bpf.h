/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Energy (docs/lavd.md, "Energy and topology"): core compaction, power modes,
 * big/little placement inputs, cpufreq targets. Arithmetic in energy.h.
 *
 * Every 10 ms the timer (energy_tick) measures each CPU's utilisation and
 * the capacity the load requires (sum of utilisation x capacity, +25 %,
 * averaged over ~80 ms), picks the power mode - fixed by --performance/--balanced/--powersave,
 * from the load by the autopilot (default), or from the platform profile
 * the loader reads for --autopower - and sizes the active set: in
 * performance mode (or with --no-core-compaction) every online CPU;
 * otherwise the first CPUs of a preference order, each counted at 50 % of
 * its capacity, until the required capacity is covered (performance order
 * in balanced mode: big cores first, one thread per core first;
 * powersave order: little cores first, SMT siblings packed). The set
 * grows at once and shrinks one CPU at a time (energy.h). Waking and
 * queued tasks are placed on active CPUs only (idle.bpf.h); a CPU outside
 * the set joins the overflow set while work pinned to it waits there. A
 * task still running on a CPU that left the set is handed off at its next
 * slice end (dispatch, via SCX_ENQ_LAST).
 *
 * Big/little: each task's CPU demand (share of time runnable) and
 * performance criticality are kept here; the threshold above which a
 * task prefers a big core follows the big cores' share of the active
 * capacity. Our addition: a heavy task (runnable >= 75 %) always prefers
 * a big core, the active set keeps a big core while one runs, and a heavy
 * task found running on a little core while a big one is idle is moved
 * at its next slice end - the reference's known failure is exactly such a
 * thread kept on little cores.
 *
 * cpufreq: each CPU's target is its utilisation (>= 85 % -> maximum),
 * set with scx_bpf_cpuperf_set from the CPU's own tick when it changed;
 * --no-freq-scaling leaves the kernel's default (maximum).
 *
 * Needs: lavd.bpf.h; slice.bpf.h (nr_pinned_waiting); domain.bpf.h
 * (struct dom_ctx, get_dom, plan_domains).
 */
#ifndef LAVD_POWER_BPF_H
#define LAVD_POWER_BPF_H

void scx_bpf_cpuperf_set(s32 cpu, u32 perf) __ksym __weak;
const struct cpumask *scx_bpf_get_idle_cpumask(void) __ksym __weak;
bool bpf_cpumask_intersects(const struct cpumask *src1,
			    const struct cpumask *src2) __ksym __weak;
void bpf_cpumask_clear_cpu(u32 cpu, struct bpf_cpumask *cpumask) __ksym __weak;
bool bpf_cpumask_test_and_set_cpu(u32 cpu, struct bpf_cpumask *cpumask) __ksym __weak;
bool bpf_cpumask_or(struct bpf_cpumask *dst, const struct cpumask *src1,
		    const struct cpumask *src2) __ksym __weak;

struct pwr_masks {
	struct bpf_cpumask __kptr *active;	/* the active set */
	struct bpf_cpumask __kptr *ovf;		/* the overflow set */
	struct bpf_cpumask __kptr *usable;	/* active | overflow */
	struct bpf_cpumask __kptr *big;		/* big cores (static) */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pwr_masks);
} lavd_pwr SEC(".maps");

/*
 * The mode asked for: LAVD_PM_AUTO (the autopilot decides) or a fixed
 * LAVD_PM_*. Set by the loader before load (--performance ...) and, with
 * --autopower, at run time from the platform profile.
 */
u32 power_req = LAVD_PM_AUTO;

u32 power_mode = LAVD_PM_PERFORMANCE;	/* the mode in force */
u32 nr_active_cpus = 1;		/* size of the active set */
bool all_usable = true;		/* every online CPU is usable (no compaction now) */
u64 perf_thr;			/* perf_cri a task needs for a big core */
u64 big_scale = LAVD_SCALE;	/* big cores' share of the active capacity */
u64 mode_ns[LAVD_PM_NR];	/* time in each mode */
u64 nr_mode_change;
static u64 mode_clk, energy_clk;
static u32 ap_down, cc_shrink, heavy_hold;
static u64 req_avg;		/* required capacity, EWMA over ~80 ms */
static u64 pc_min_e, pc_avg_e, pc_max_e;	/* perf_cri EWMAs */
/* heavy tasks keep a big core in the active set this many intervals */
#define HEAVY_HOLD_TICKS	20

static __always_inline struct pwr_masks *pwr(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&lavd_pwr, &zero);
}

/* Active or overflow: lavd places tasks there. */
static __always_inline bool cpu_usable(s32 cpu)
{
	struct bpf_cpumask *usable;
	struct pwr_masks *pm;

	if (READ_ONCE(all_usable))
		return true;
	pm = pwr();
	usable = pm ? pm->usable : NULL;
	if (!usable || cpu < 0)
		return true;
	return bpf_cpumask_test_cpu(cpu, (const struct cpumask *)usable);
}

static __always_inline const struct cpumask *usable_mask(void)
{
	struct pwr_masks *pm = pwr();

	return pm ? (const struct cpumask *)pm->usable : NULL;
}

/* Work pinned to an inactive CPU: it joins the overflow set. */
static __always_inline void add_overflow(s32 cpu)
{
	struct bpf_cpumask *ovf, *usable;
	struct pwr_masks *pm;

	if (READ_ONCE(all_usable) || cpu < 0)
		return;
	pm = pwr();
	if (!pm)
		return;
	/* each kptr read once: a re-read after a call is a new, unchecked
	 * pointer to the verifier */
	ovf = pm->ovf;
	usable = pm->usable;
	if (!ovf || !usable)
		return;
	bpf_cpumask_set_cpu(cpu, ovf);
	bpf_cpumask_set_cpu(cpu, usable);
}

static __always_inline bool is_big_cpu(s32 cpu)
{
	u32 c = (u32)cpu;

	if (c >= LAVD_MAX_CPUS)
		return true;
	barrier_var(c);
	return cpu_big[c];
}

/* ---- per task: demand, performance criticality ---- */

static __always_inline void demand_fold(struct task_ctx *taskc, u64 now)
{
	if (!taskc->dem_clk || now < taskc->dem_clk) {
		taskc->dem_clk = now;
		taskc->dem_acc = 0;
		return;
	}
	if (now - taskc->dem_clk < LAVD_DEMAND_WINDOW)
		return;
	taskc->demand = lavd_demand_update(taskc->demand, taskc->dem_acc,
					   now - taskc->dem_clk);
	taskc->dem_acc = 0;
	taskc->dem_clk = now;
}

/* It became runnable (ops.runnable). */
static __always_inline void demand_runnable(struct task_ctx *taskc, u64 now)
{
	demand_fold(taskc, now);
	taskc->dem_since = now;
}

/* It is still runnable at @now (a stop, a slice refill): count so far. */
static __always_inline void demand_update(struct task_ctx *taskc, u64 now)
{
	if (taskc->dem_since && now > taskc->dem_since)
		taskc->dem_acc += now - taskc->dem_since;
	if (taskc->dem_since)
		taskc->dem_since = now;
	demand_fold(taskc, now);
}

/* It went to sleep (ops.quiescent). */
static __always_inline void demand_quiescent(struct task_ctx *taskc, u64 now)
{
	demand_update(taskc, now);
	taskc->dem_since = 0;
}

static __always_inline void update_perf_cri(struct task_struct *p,
					    struct task_ctx *taskc)
{
	/* only the big/little choice reads it: skip the arithmetic on every
	 * wakeup of a machine whose cores are alike (rodata: the verifier
	 * drops the rest) */
	if (!have_little)
		return;
	taskc->perf_cri = (u32)lavd_perf_cri(lavd_freq_hz(taskc->wait_freq),
					     lavd_freq_hz(taskc->wake_freq),
					     taskc->demand, task_weight(p));
}

static __always_inline bool wants_big(struct task_ctx *taskc)
{
	return lavd_wants_big(have_little, taskc->demand, taskc->perf_cri,
			      READ_ONCE(perf_thr));
}

/* The right core type for @taskc (always, without little cores). */
static __always_inline bool type_ok(struct task_ctx *taskc, s32 cpu)
{
	if (!have_little)
		return true;
	return is_big_cpu(cpu) == wants_big(taskc);
}

/* ops.running: migrations, big/little shares, the CPU's perf_cri stats. */
static __always_inline void energy_running(struct task_struct *p,
					   struct task_ctx *taskc,
					   struct cpu_ctx *cpuc, s32 cpu)
{
	u32 last = taskc->last_cpu;
	u32 pc = taskc->perf_cri;
	bool big = is_big_cpu(cpu), wb;

	if (last && last - 1 != (u32)cpu) {
		cpuc->nr_migrate++;
		if (cpu_to_dom((s32)(last - 1)) != cpu_to_dom(cpu))
			cpuc->nr_xdom++;
	}
	taskc->last_cpu = (u32)cpu + 1;
	cpuc->nr_dom_sched++;
	cpuc->running_heavy = lavd_is_heavy(taskc->demand);
	if (!have_little)
		return;		/* the rest feeds the big/little threshold */
	wb = wants_big(taskc);
	cpuc->nr_perf_cri += wb;
	cpuc->nr_on_big += big;
	cpuc->nr_pc_on_big += wb && big;
	if (!cpuc->pc_cnt || pc < cpuc->pc_min)
		cpuc->pc_min = pc;
	if (pc > cpuc->pc_max)
		cpuc->pc_max = pc;
	cpuc->pc_sum += pc;
	cpuc->pc_cnt++;
}

/* ops.tick: apply this CPU's cpufreq target when it changed. */
static __always_inline void cpuperf_apply(s32 cpu, struct cpu_ctx *cpuc)
{
	u32 want = READ_ONCE(cpuc->perf_want);

	if (no_freq_scaling || !want || want == cpuc->perf_cur ||
	    !bpf_ksym_exists(scx_bpf_cpuperf_set))
		return;
	scx_bpf_cpuperf_set(cpu, want);
	cpuc->perf_cur = want;
	cpuc->nr_cpuperf_set++;
}

/*
 * ops.dispatch found nothing else to run and @prev is still runnable:
 * should it leave this CPU instead of getting a new slice here? Yes when
 * this CPU left the active set (and prev may run on a usable CPU), or
 * when prev wants a big core, this is a little one and a big one it may
 * use is idle. Then dispatch leaves its slice at 0 and the kernel hands
 * it to ops.enqueue with SCX_ENQ_LAST, which places it elsewhere.
 */
static __always_inline bool should_move(struct task_struct *prev,
					struct task_ctx *taskc, s32 cpu,
					bool usable)
{
	const struct cpumask *idle, *u;
	struct bpf_cpumask *big;
	struct pwr_masks *pm;
	bool move;

	/* the common case (a usable CPU, no little cores) decides before
	 * any map lookup: dispatch runs this whenever prev goes on */
	if (prev->nr_cpus_allowed == 1 || is_migration_disabled(prev))
		return false;
	if (usable && (!have_little || is_big_cpu(cpu) || !taskc ||
		       !wants_big(taskc)))
		return false;
	u = usable_mask();
	if (!u)
		return false;
	if (!usable)
		return bpf_cpumask_intersects(u, prev->cpus_ptr);
	pm = pwr();
	big = pm ? pm->big : NULL;
	if (!big)
		return false;
	idle = scx_bpf_get_idle_cpumask();
	move = bpf_cpumask_intersects(idle, (const struct cpumask *)big) &&
	       bpf_cpumask_intersects(idle, u) &&
	       bpf_cpumask_intersects(idle, prev->cpus_ptr);
	scx_bpf_put_idle_cpumask(idle);
	return move;
}

/* ---- the timer ----
 *
 * The walks' accumulators live in globals, not in the bpf_loop context
 * on the stack: the verifier tracks stack scalars and, as the callbacks
 * branch on them, re-verifies each callback for every combination it
 * sees (~140 000 instructions, seconds of load time under emulation);
 * map memory it does not track. Only the one timer writes them.
 */

/* bpf_loop context: the statistics being built (a pointer stays on the
 * stack; it may not be stored in map memory) */
struct stats_ref {
	struct lavd_stats *st;
};

struct cpu_walk {
	u64 now, dt;
	u64 req;		/* sum of util x capacity */
	u64 heavy;
	u64 pc_sum, pc_cnt;
	u32 pc_min, pc_max;
};
static struct cpu_walk cpu_walk;

/* Per CPU: utilisation, cpufreq target, counters into the statistics. */
static long energy_cpu(u64 idx, void *data)
{
	struct cpu_walk *w = &cpu_walk;
	struct lavd_stats *st = ((struct stats_ref *)data)->st;
	s32 cpu = (s32)idx;
	struct cpu_ctx *c = get_cpu_ctx_of(cpu);
	u64 busy, util, cap;
	u32 dom;

	if (!c || !st || idx >= LAVD_MAX_CPUS)
		return 0;
	busy = cpu_busy_at(c, w->now);
	util = c->util;
	if (w->dt && busy >= c->busy_prev) {
		util = lavd_min(LAVD_SCALE, (busy - c->busy_prev) * LAVD_SCALE / w->dt);
		c->busy_prev = busy;
	}
	c->util = util;
	c->util_avg = lavd_ewma(c->util_avg, util);
	cap = cpu_capacity[idx] ? cpu_capacity[idx] : LAVD_SCALE;
	w->req += util * cap >> LAVD_SHIFT;
	w->heavy += READ_ONCE(c->running_heavy);
	if (c->pc_cnt) {
		if (!w->pc_cnt || c->pc_min < w->pc_min)
			w->pc_min = c->pc_min;
		if (c->pc_max > w->pc_max)
			w->pc_max = c->pc_max;
		w->pc_sum += c->pc_sum;
		w->pc_cnt += c->pc_cnt;
		c->pc_sum = c->pc_cnt = 0;	/* racy: a lost sample is harmless */
		c->pc_max = 0;
	}
	c->perf_want = no_freq_scaling ? LAVD_SCALE :
		       lavd_max(1, lavd_cpuperf_target(c->util, c->util_avg));

	dom = cpu_dom[idx];
	if (dom < nr_doms && dom < LAVD_MAX_DOMS) {
		struct dom_ctx *d = get_dom(dom);

		if (d)
			d->util_acc += util;
		st->dom_sched[dom] += c->nr_dom_sched;
	}
	st->nr_perf_cri += c->nr_perf_cri;
	st->nr_on_big += c->nr_on_big;
	st->nr_pc_on_big += c->nr_pc_on_big;
	st->nr_migrate += c->nr_migrate;
	st->nr_xdom += c->nr_xdom;
	st->nr_force_steal += c->nr_force_steal;
	st->nr_donate += c->nr_donate;
	st->nr_move += c->nr_move;
	st->nr_cpuperf_set += c->nr_cpuperf_set;
	return 0;
}

struct cc_walk {
	u64 req, covered;
	u32 order;		/* 0 performance, 1 powersave */
	u32 fill;		/* CPUs of the order that cover req */
	u32 target;		/* active set size */
	bool need_big, big_in, kick;
	u32 nr_active, nr_ovf;
	u64 cap_active, cap_big, perf_sum;
};
static struct cc_walk cc_walk;

static __always_inline s32 order_cpu(u32 order, u64 i)
{
	if (order > 1 || i >= LAVD_MAX_CPUS)
		return -1;
	barrier_var(order);
	return cpu_order[order][i];
}

/* How many CPUs of the order cover the required capacity. */
static long cc_fill(u64 i, void *data)
{
	struct cc_walk *w = &cc_walk;
	s32 cpu = order_cpu(w->order, i);
	u64 cap;

	if (cpu < 0 || cpu >= LAVD_MAX_CPUS)
		return 1;
	cap = cpu_capacity[cpu] ? cpu_capacity[cpu] : LAVD_SCALE;
	w->covered = lavd_cc_step(w->covered, cap);
	w->fill = (u32)i + 1;
	return w->covered >= w->req;
}

/* Sets one CPU's membership in the active and overflow sets. */
static long cc_apply(u64 i, void *data)
{
	struct cc_walk *w = &cc_walk;
	s32 cpu = order_cpu(w->order, i);
	struct pwr_masks *pm = pwr();
	struct bpf_cpumask *act, *ovf, *usable;
	struct cpu_ctx *c;
	struct dom_ctx *d;
	bool active, big;
	u64 cap;

	if (cpu < 0 || cpu >= LAVD_MAX_CPUS || !pm)
		return 1;
	act = pm->active;
	ovf = pm->ovf;
	usable = pm->usable;
	if (!act || !ovf || !usable)
		return 1;
	big = cpu_big[cpu];
	cap = cpu_capacity[cpu] ? cpu_capacity[cpu] : LAVD_SCALE;
	active = i < w->target;
	if (!active && w->need_big && !w->big_in && big)
		active = true;		/* a heavy task needs a big core */
	c = get_cpu_ctx_of(cpu);
	if (active) {
		w->big_in |= big;
		if (!bpf_cpumask_test_and_set_cpu(cpu, act) && w->kick)
			scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		bpf_cpumask_clear_cpu(cpu, ovf);
		bpf_cpumask_set_cpu(cpu, usable);
		w->nr_active++;
		w->cap_active += cap;
		if (big)
			w->cap_big += cap;
		if (c)
			w->perf_sum += c->perf_want;
		d = get_dom(cpu_to_dom(cpu));
		if (d) {
			d->active_acc++;
			d->cap_acc += cap;
		}
		return 0;
	}
	bpf_cpumask_clear_cpu(cpu, act);
	/* overflow: only while work pinned to it waits there */
	if (nr_pinned_waiting(cpu) ||
	    scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL_ON | (u32)cpu) > 0) {
		bpf_cpumask_set_cpu(cpu, ovf);
		bpf_cpumask_set_cpu(cpu, usable);
		w->nr_ovf++;
	} else {
		bpf_cpumask_clear_cpu(cpu, ovf);
		bpf_cpumask_clear_cpu(cpu, usable);
	}
	return 0;
}

/* Per domain: publish the active CPUs and capacity the walk counted. */
static long dom_publish(u64 idx, void *data)
{
	struct dom_ctx *d = get_dom((u32)idx);

	if (!d)
		return 0;
	WRITE_ONCE(d->nr_active, d->active_acc);
	WRITE_ONCE(d->active_cap, d->cap_acc);
	d->active_acc = 0;
	d->cap_acc = 0;
	return 0;
}

/* Per domain, before the CPU walk: clear the utilisation sums. */
static long dom_reset(u64 idx, void *data)
{
	struct dom_ctx *d = get_dom((u32)idx);

	if (d)
		d->util_acc = 0;
	return 0;
}

static __always_inline void set_mode(u32 mode, u64 now)
{
	u32 old = READ_ONCE(power_mode);

	if (mode_clk && now > mode_clk && old < LAVD_PM_NR)
		mode_ns[old] += now - mode_clk;
	mode_clk = now;
	if (mode != old) {
		WRITE_ONCE(power_mode, mode);
		nr_mode_change++;
	}
}

/*
 * The 10 ms energy step (sys_stat.bpf.h calls it before publishing):
 * utilisation, mode, active set, big/little threshold, domain plan, and
 * the topology and energy fields of the statistics.
 */
static __always_inline void energy_tick(struct lavd_stats *st, u64 nr_queued)
{
	struct stats_ref ref = { .st = st };
	struct cpu_walk *cw = &cpu_walk;
	struct cc_walk *cc = &cc_walk;
	u64 now = lavd_now(), req, pc_avg;
	u32 req_mode, mode, prev_active = READ_ONCE(nr_active_cpus);

	__builtin_memset(cw, 0, sizeof(*cw));
	__builtin_memset(cc, 0, sizeof(*cc));
	cw->now = now;
	cw->dt = energy_clk && now > energy_clk ? now - energy_clk : 0;
	energy_clk = now;
	st->nr_perf_cri = st->nr_on_big = st->nr_pc_on_big = 0;
	st->nr_migrate = st->nr_xdom = st->nr_force_steal = 0;
	st->nr_donate = st->nr_move = st->nr_cpuperf_set = 0;
	for (int i = 0; i < LAVD_MAX_DOMS; i++)
		st->dom_sched[i] = 0;
	bpf_loop(nr_doms, dom_reset, NULL, 0);
	bpf_loop(nr_cpu_ids, energy_cpu, &ref, 0);
	/*
	 * Our decision: the mode and the active-set size follow an ~80 ms
	 * average of the required capacity, not each 10 ms interval. A
	 * game's frame is a burst: sized by the interval, a 10 FPS load kept
	 * all four CPUs of the VM active in performance mode (vm/energy.sh).
	 * A burst that queues more tasks than there are active CPUs still
	 * grows the set at once (lavd_cc_next).
	 */
	req = lavd_req_capacity(cw->req);
	req_avg = req_avg ? lavd_ewma(req_avg, req) : req;
	req = req_avg;

	/* the mode */
	req_mode = READ_ONCE(power_req);
	mode = req_mode < LAVD_PM_NR ? req_mode :
	       lavd_autopilot(READ_ONCE(power_mode), req, lavd_ap_low(smallest_cap),
			      lavd_ap_high(total_cap, smt_on), &ap_down);
	set_mode(mode, now);

	/* heavy tasks keep a big core active for a while */
	if (cw->heavy)
		heavy_hold = HEAVY_HOLD_TICKS;
	else if (heavy_hold)
		heavy_hold--;

	/* the active set */
	cc->order = mode == LAVD_PM_POWERSAVE ? 1 : 0;
	cc->req = req;
	cc->kick = nr_queued > 0;
	if (mode == LAVD_PM_PERFORMANCE || no_core_compaction) {
		cc->target = nr_order;
		cc_shrink = 0;
	} else {
		bpf_loop(nr_order, cc_fill, NULL, 0);
		cc->target = lavd_cc_next(cc->fill, prev_active, nr_queued, nr_order,
					  &cc_shrink);
	}
	cc->need_big = have_little && heavy_hold && mode != LAVD_PM_PERFORMANCE;
	bpf_rcu_read_lock();
	bpf_loop(nr_order, cc_apply, NULL, 0);
	bpf_rcu_read_unlock();
	bpf_loop(nr_doms, dom_publish, NULL, 0);
	WRITE_ONCE(nr_active_cpus, cc->nr_active ? cc->nr_active : 1);
	WRITE_ONCE(all_usable, cc->nr_active >= nr_order);

	/* big/little: the threshold follows the big cores' active share */
	if (cc->cap_active)
		WRITE_ONCE(big_scale, cc->cap_big * LAVD_SCALE / cc->cap_active);
	if (cw->pc_cnt) {
		pc_avg = cw->pc_sum / cw->pc_cnt;
		pc_min_e = pc_min_e ? lavd_ewma(pc_min_e, cw->pc_min) : cw->pc_min;
		pc_avg_e = pc_avg_e ? lavd_ewma(pc_avg_e, pc_avg) : pc_avg;
		pc_max_e = pc_max_e ? lavd_ewma(pc_max_e, cw->pc_max) : cw->pc_max;
	}
	WRITE_ONCE(perf_thr, have_little ?
		   lavd_perf_thresh(pc_min_e, pc_avg_e, pc_max_e, big_scale) : 0);

	plan_domains(st);

	st->nr_active = cc->nr_active;
	st->nr_cpus = nr_order;
	st->nr_overflow = cc->nr_ovf;
	st->power_mode = mode;
	for (int i = 0; i < LAVD_PM_NR; i++)
		st->mode_ns[i] = mode_ns[i];
	st->nr_mode_change = nr_mode_change;
	st->req_cap = req;
	st->big_scale = big_scale;
	st->perf_thresh = perf_thr;
	st->nr_heavy = cw->heavy;
	st->nr_doms = nr_doms;
	st->have_little = have_little;
	st->cpuperf_avg = cc->nr_active ? cc->perf_sum / cc->nr_active : 0;
}

/* bpf_loop body of energy_publish_mask: the active set into the stats. */
static long mask_word(u64 idx, void *data)
{
	struct lavd_stats *st = ((struct stats_ref *)data)->st;
	struct pwr_masks *pm = pwr();
	struct bpf_cpumask *act = pm ? pm->active : NULL;
	u64 word = 0;

	if (idx >= 8 || !act)
		return 1;
	for (int b = 0; b < 64; b++) {
		u32 cpu = (u32)idx * 64 + (u32)b;

		if (cpu >= nr_cpu_ids)
			break;
		if (bpf_cpumask_test_cpu(cpu, (const struct cpumask *)act))
			word |= 1ULL << b;
	}
	st->active_mask[idx & 7] = word;
	return 0;
}

static __always_inline void energy_publish_mask(struct lavd_stats *st)
{
	struct stats_ref ref = { .st = st };	/* bpf_loop wants a stack pointer */
	u32 words = (nr_cpu_ids + 63) / 64;

	bpf_rcu_read_lock();
	bpf_loop(words, mask_word, &ref, 0);
	bpf_rcu_read_unlock();
}

/* set-up (ops.init): power_init.bpf.h */

#endif
