/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The energy and topology arithmetic of lavd as pure functions, the
 * sibling of policy.h: core compaction sizing, the power-mode autopilot
 * with hysteresis, the big/little threshold, per-task CPU demand and
 * performance criticality, the cpufreq target, and the stealer/stealee
 * planning between compute domains. No maps, no kfuncs, no globals: the
 * same header is compiled into the BPF object and into host C, where
 * tests/test_lavd_energy.c checks it with cmocka. docs/lavd.md
 * ("Energy and topology") gives the reference's behaviour; every place
 * where we differ says so.
 *
 * Units: capacities and utilisations in 1/1024 of one fastest CPU fully
 * busy (a big CPU busy all the time is 1024, a little CPU of capacity 512
 * busy all the time is 512); a domain's load in the same unit, with each
 * queued task counting as one busy CPU.
 */
#ifndef LAVD_ENERGY_H
#define LAVD_ENERGY_H

#include "policy.h"

/* Power modes (intf.h's LAVD_PM_*): higher means more performance. */
#define LAVD_EM_POWERSAVE	0
#define LAVD_EM_BALANCED	1
#define LAVD_EM_PERFORMANCE	2

/* ---- core compaction ---- */

/* Required capacity gets 25 % headroom for sudden load (docs/lavd.md). */
#define LAVD_CC_HEADROOM_SHIFT	2
/* Each active CPU is counted at 50 % of its capacity (docs/lavd.md). */
#define LAVD_CC_PER_CPU_PCT	50ULL
/*
 * Our decision: the reference resizes the active set from scratch every
 * 10 ms. We grow at once but shrink by one CPU at a time, and only after
 * this many consecutive intervals that all wanted fewer CPUs, so that a
 * short lull between frames does not park CPUs the next frame needs.
 */
#define LAVD_CC_SHRINK_TICKS	5

/* Capacity the current load needs: sum of util x capacity, + 25 %. */
LAVD_INLINE __u64 lavd_req_capacity(__u64 util_cap_sum)
{
	util_cap_sum = lavd_min(util_cap_sum, 1ULL << 40);
	return util_cap_sum + (util_cap_sum >> LAVD_CC_HEADROOM_SHIFT);
}

/* What one more active CPU of capacity cap adds to the covered capacity. */
LAVD_INLINE __u64 lavd_cc_step(__u64 covered, __u64 cap)
{
	return covered + lavd_min(cap, LAVD_SCALE) * LAVD_CC_PER_CPU_PCT / 100;
}

/*
 * The active-set size for the next interval. fill: how many CPUs of the
 * preference order cover the required capacity (counted with
 * lavd_cc_step; at least 1); prev: the active CPUs now (0: none yet);
 * nr_queued: tasks waiting; n: online CPUs; *shrink_ticks: the state of
 * the shrink hysteresis. More tasks waiting than active CPUs adds one CPU
 * beyond what the capacity asks for (utilisation lags a burst by one
 * interval).
 */
LAVD_INLINE __u32 lavd_cc_next(__u32 fill, __u32 prev, __u64 nr_queued,
			       __u32 n, __u32 *shrink_ticks)
{
	__u32 want;

	if (n == 0)
		return 0;
	want = fill < 1 ? 1 : (fill > n ? n : fill);
	if (prev > n)
		prev = n;
	if (prev && nr_queued > prev && want <= prev)
		want = prev + 1 > n ? n : prev + 1;
	if (!prev || want >= prev) {
		*shrink_ticks = 0;
		return want;
	}
	if (++*shrink_ticks < LAVD_CC_SHRINK_TICKS)
		return prev;
	*shrink_ticks = 0;
	return prev - 1;
}

#ifndef __bpf__
/*
 * Host form of the fill count (the BPF side walks the order with a
 * bpf_loop callback around lavd_cc_step): how many CPUs of capacities
 * cap[0..n) taken in order cover req; n when even all do not.
 */
static inline __u32 lavd_cc_fill(__u64 req, const __u16 *cap, __u32 n)
{
	__u64 covered = 0;

	for (__u32 i = 0; i < n; i++) {
		covered = lavd_cc_step(covered, cap[i]);
		if (covered >= req)
			return i + 1;
	}
	return n;
}
#endif

/* ---- power modes: the autopilot ---- */

/*
 * Autopilot thresholds on the required capacity (docs/lavd.md, as the
 * reference): powersave while it stays within half of the smallest CPU,
 * performance above half of the total capacity (a quarter with SMT: the
 * second threads add little), balanced in between.
 */
LAVD_INLINE __u64 lavd_ap_low(__u64 smallest_cap)
{
	return lavd_min(smallest_cap, LAVD_SCALE) / 2;
}

LAVD_INLINE __u64 lavd_ap_high(__u64 total_cap, bool smt)
{
	total_cap = lavd_min(total_cap, 1ULL << 40);
	return smt ? total_cap / 4 : total_cap / 2;
}

/* Intervals the load must stay clearly below a boundary to step down. */
#define LAVD_AP_DOWN_TICKS	10

/*
 * One autopilot step. Our decision (the reference switches on every
 * crossing): a higher mode is taken at once, a lower one only after the
 * required capacity stayed at least 1/8 below the boundary for
 * LAVD_AP_DOWN_TICKS consecutive intervals (100 ms), and one level at a
 * time, so a load hovering at a boundary does not flip the mode every
 * 10 ms. Returns the new mode (LAVD_EM_*).
 */
LAVD_INLINE __u32 lavd_autopilot(__u32 mode, __u64 req_cap, __u64 low,
				 __u64 high, __u32 *down_ticks)
{
	__u32 want;
	__u64 bound;

	if (mode > LAVD_EM_PERFORMANCE)
		mode = LAVD_EM_PERFORMANCE;
	if (low > high)
		low = high;
	want = req_cap <= low ? LAVD_EM_POWERSAVE :
	       req_cap <= high ? LAVD_EM_BALANCED : LAVD_EM_PERFORMANCE;
	if (want >= mode) {
		*down_ticks = 0;
		return want;
	}
	bound = mode == LAVD_EM_PERFORMANCE ? high : low;
	if (req_cap > bound - (bound >> 3)) {
		*down_ticks = 0;
		return mode;
	}
	if (++*down_ticks < LAVD_AP_DOWN_TICKS)
		return mode;
	*down_ticks = 0;
	return mode - 1;
}

/* ---- big/little ---- */

/*
 * A task's CPU demand: the share of wall time it was runnable (running or
 * waiting to run), 1024 = always. Waiting counts too, so a CPU hog reads
 * as 1024 also while it shares a CPU. Folded in windows of at least
 * LAVD_DEMAND_WINDOW with the usual EWMA (1/8).
 */
#define LAVD_DEMAND_WINDOW	(50ULL * LAVD_NSEC_PER_MSEC)

LAVD_INLINE __u64 lavd_demand_update(__u64 demand, __u64 runnable_ns,
				     __u64 window_ns)
{
	__u64 sample;

	if (!window_ns)
		return demand;
	runnable_ns = lavd_min(lavd_min(runnable_ns, window_ns), 1ULL << 50);
	sample = runnable_ns * LAVD_SCALE / window_ns;
	return lavd_ewma(lavd_min(demand, LAVD_SCALE), sample);
}

/*
 * A heavy task: runnable at least 75 % of the time. Our decision (the
 * reference's known failure is a single heavy game thread kept on
 * little cores, 30 instead of 60 FPS): a heavy task always counts as
 * performance-critical, whatever the threshold, and while one runs the
 * active set keeps at least one big CPU, also in powersave.
 */
#define LAVD_HEAVY_DEMAND	768ULL

LAVD_INLINE bool lavd_is_heavy(__u64 demand)
{
	return demand >= LAVD_HEAVY_DEMAND;
}

/*
 * Performance criticality: where the task sits in a chain (its sleep and
 * wake frequencies, the first term of lat_cri) plus how much CPU it needs
 * (demand x weight). The reference uses run frequency x runtime for the
 * second term; demand measures the same thing directly and does not fall
 * to zero for a task that never sleeps. Range 0 .. 58.
 */
LAVD_INLINE __u64 lavd_perf_cri(__u64 wait_hz, __u64 wake_hz, __u64 demand,
				__u64 weight)
{
	__u64 wait_ft = lavd_min(wait_hz, LAVD_FREQ_MAX) + 1;
	__u64 wake_ft = lavd_min(wake_hz, LAVD_FREQ_MAX) + 1;

	demand = lavd_min(demand, LAVD_SCALE);
	weight = lavd_clamp(weight, LAVD_WEIGHT_MIN, LAVD_WEIGHT_MAX);
	return lavd_log2x(wait_ft * wake_ft) + lavd_log2x(demand * weight + 1);
}

/*
 * The performance-criticality threshold above which a task prefers a big
 * core, from the interval's min/avg/max perf_cri and the big cores' share
 * of the active capacity (1024 = all big). Tasks below the average get
 * the little share first: with a little share under one half the
 * threshold lies between min and avg, above one half between avg and max
 * (docs/lavd.md; the reference's interpolation). No big core active: nobody
 * qualifies (max + 1); all big: everybody (0).
 */
LAVD_INLINE __u64 lavd_perf_thresh(__u64 min, __u64 avg, __u64 max,
				   __u64 big_scale)
{
	__u64 little;

	max = lavd_min(max, 1ULL << 32);
	if (big_scale == 0)
		return max + 1;
	if (big_scale >= LAVD_SCALE)
		return 0;
	min = lavd_min(min, max);
	avg = lavd_clamp(avg, min, max);
	little = LAVD_SCALE - big_scale;
	if (little < LAVD_SCALE / 2)
		return min + (avg - min) * little / (LAVD_SCALE / 2);
	return avg + (max - avg) * (little - LAVD_SCALE / 2) / (LAVD_SCALE / 2);
}

/* A task prefers a big core: heavy, or at/above the threshold. */
LAVD_INLINE bool lavd_wants_big(bool have_little, __u64 demand,
				__u64 perf_cri, __u64 thresh)
{
	if (!have_little)
		return true;
	return lavd_is_heavy(demand) || perf_cri >= thresh;
}

/* ---- cpufreq ---- */

/* At or above 85 % utilisation a CPU gets its maximum performance. */
#define LAVD_CPUPERF_FULL	870ULL

/*
 * The cpufreq target of a CPU (scx_bpf_cpuperf_set, 1024 = maximum) from
 * its utilisation: the larger of the last interval's and the running
 * average, so that a spike is answered at once (docs/lavd.md).
 */
LAVD_INLINE __u32 lavd_cpuperf_target(__u64 util_cur, __u64 util_avg)
{
	__u64 u = lavd_max(util_cur, util_avg);

	return u >= LAVD_CPUPERF_FULL ? (__u32)LAVD_SCALE : (__u32)u;
}

/* ---- load balancing between compute domains ---- */

#define LAVD_ROLE_NONE		0
#define LAVD_ROLE_STEALER	1	/* under-loaded: takes queued tasks */
#define LAVD_ROLE_STEALEE	2	/* over-loaded: gives queued tasks */

/* A domain's fair share of the total load: in proportion to its capacity. */
LAVD_INLINE __u64 lavd_fair_share(__u64 total_load, __u64 cap, __u64 total_cap)
{
	if (!total_cap)
		return 0;
	/* at most 2^38 x 2^24: no overflow */
	total_load = lavd_min(total_load, 1ULL << 38);
	total_cap = lavd_min(total_cap, 1ULL << 24);
	cap = lavd_min(cap, total_cap);
	return total_load * cap / total_cap;
}

/* Half the imbalance, in whole tasks (at least one). */
LAVD_INLINE __u64 lavd_lb_tasks(__u64 load_diff)
{
	__u64 t = ((load_diff >> 1) + LAVD_SCALE - 1) >> LAVD_SHIFT;

	return t ? t : 1;
}

/* The imbalance band: 1/8 of the fair share, at least a quarter CPU. */
#define LAVD_LB_MIN_DELTA	(LAVD_SCALE / 4)

/*
 * A domain's role for the next interval and its budget (tasks it may take
 * or give), from its load (running utilisation + 1024 per queued task),
 * its fair share, its queued tasks, whether it has active CPUs, and its
 * previous role. Entering a role needs an imbalance of at least the band
 * (1/8 of the fair share); keeping it needs only the side of the fair
 * share (hysteresis). A stealee needs queued tasks (nothing else can be
 * taken); a domain without active CPUs that has queued tasks gives all of
 * them. Budgets are half the imbalance: moving all of it in one round
 * overshoots and ping-pongs (the reference halves it too).
 */
LAVD_INLINE __u32 lavd_plan_role(__u64 load, __u64 fair, __u64 queued,
				 bool active, __u32 prev, __u64 *budget)
{
	__u64 delta = lavd_max(fair >> 3, LAVD_LB_MIN_DELTA);

	*budget = 0;
	load = lavd_min(load, 1ULL << 40);
	fair = lavd_min(fair, 1ULL << 40);
	if (active && load < fair &&
	    (load + delta <= fair || prev == LAVD_ROLE_STEALER)) {
		*budget = lavd_lb_tasks(fair - load);
		return LAVD_ROLE_STEALER;
	}
	if (!queued)
		return LAVD_ROLE_NONE;
	if (!active) {
		*budget = queued;
		return LAVD_ROLE_STEALEE;
	}
	if (load > fair && (load >= fair + delta || prev == LAVD_ROLE_STEALEE)) {
		*budget = lavd_min(queued, lavd_lb_tasks(load - fair));
		return LAVD_ROLE_STEALEE;
	}
	return LAVD_ROLE_NONE;
}

#endif
