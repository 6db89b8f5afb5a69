// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd/energy.h, the energy and topology arithmetic
 * the BPF scheduler runs every 10 ms and at each placement: compaction
 * sizing (required capacity -> active CPUs, with the shrink hysteresis),
 * power-mode transitions of the autopilot with their hysteresis, the
 * big/little threshold against the big cores' share, per-task demand and
 * performance criticality (a CPU hog must count as heavy), the cpufreq
 * target, and the stealer/stealee planning between compute domains.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lavd/energy.h"
#include "rng.h"

#define MS LAVD_NSEC_PER_MSEC
#define MAX64 LAVD_U64_MAX

/* ---- compaction ---- */

static void required_capacity(void **state)
{
	(void)state;
	assert_int_equal(lavd_req_capacity(0), 0);
	assert_int_equal(lavd_req_capacity(1024), 1280);	/* + 25 % */
	assert_int_equal(lavd_req_capacity(400), 500);
	/* saturates instead of wrapping */
	assert_true(lavd_req_capacity(MAX64) >= lavd_req_capacity(1ULL << 40));
}

static void fill_count(void **state)
{
	const __u16 eight_big[8] = { 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024 };
	const __u16 little_first[4] = { 512, 512, 1024, 1024 };

	(void)state;
	/* each CPU counts at 50 %: 512 covered per big CPU */
	assert_int_equal(lavd_cc_fill(0, eight_big, 8), 1);
	assert_int_equal(lavd_cc_fill(512, eight_big, 8), 1);
	assert_int_equal(lavd_cc_fill(513, eight_big, 8), 2);
	assert_int_equal(lavd_cc_fill(4 * 512, eight_big, 8), 4);
	/* more than all CPUs cover: all of them */
	assert_int_equal(lavd_cc_fill(100000, eight_big, 8), 8);
	/* little CPUs cover half as much */
	assert_int_equal(lavd_cc_fill(300, little_first, 4), 2);
	assert_int_equal(lavd_cc_fill(512 + 1, little_first, 4), 3);
	/* an idle 4-CPU machine: 1 CPU; the heavy case of docs/results.md
	 * ("Core compaction across loads"): all */
	assert_int_equal(lavd_cc_fill(lavd_req_capacity(40), eight_big, 4), 1);
	assert_int_equal(lavd_cc_fill(lavd_req_capacity(4 * 1024), eight_big, 4), 4);
	/* step caps a bogus capacity at one CPU */
	assert_int_equal(lavd_cc_step(0, 60000), 512);
}

static void compaction_hysteresis(void **state)
{
	__u32 sh = 0, n;

	(void)state;
	/* first interval: take what is asked */
	assert_int_equal(lavd_cc_next(3, 0, 0, 8, &sh), 3);
	/* at least one, at most the online CPUs */
	assert_int_equal(lavd_cc_next(0, 0, 0, 8, &sh), 1);
	assert_int_equal(lavd_cc_next(20, 2, 0, 8, &sh), 8);
	assert_int_equal(lavd_cc_next(1, 1, 0, 0, &sh), 0);
	/* grows at once */
	sh = 3;
	assert_int_equal(lavd_cc_next(6, 2, 0, 8, &sh), 6);
	assert_int_equal(sh, 0);
	/* shrinks one CPU at a time, after LAVD_CC_SHRINK_TICKS intervals */
	n = 6;
	for (int i = 1; i < LAVD_CC_SHRINK_TICKS; i++) {
		n = lavd_cc_next(1, n, 0, 8, &sh);
		assert_int_equal(n, 6);
	}
	n = lavd_cc_next(1, n, 0, 8, &sh);
	assert_int_equal(n, 5);
	/* a single interval wanting more resets the count */
	for (int i = 1; i < LAVD_CC_SHRINK_TICKS; i++)
		n = lavd_cc_next(1, n, 0, 8, &sh);
	assert_int_equal(n, 5);
	n = lavd_cc_next(5, n, 0, 8, &sh);
	assert_int_equal(sh, 0);
	for (int i = 1; i < LAVD_CC_SHRINK_TICKS; i++)
		n = lavd_cc_next(1, n, 0, 8, &sh);
	assert_int_equal(n, 5);
	/* from 8 to 1 takes 7 * SHRINK_TICKS intervals */
	n = 8;
	sh = 0;
	for (int i = 0; i < 7 * LAVD_CC_SHRINK_TICKS; i++)
		n = lavd_cc_next(1, n, 0, 8, &sh);
	assert_int_equal(n, 1);
	/* more waiting tasks than active CPUs: one more CPU per interval */
	sh = 0;
	assert_int_equal(lavd_cc_next(1, 2, 5, 8, &sh), 3);
	assert_int_equal(lavd_cc_next(1, 3, 5, 8, &sh), 4);
	assert_int_equal(lavd_cc_next(1, 8, 50, 8, &sh), 8);
	/* ... but not when as many wait as there are active CPUs */
	sh = 0;
	assert_int_equal(lavd_cc_next(1, 2, 2, 8, &sh), 2);
}

/* ---- autopilot ---- */

static void autopilot_thresholds(void **state)
{
	(void)state;
	assert_int_equal(lavd_ap_low(1024), 512);
	assert_int_equal(lavd_ap_low(512), 256);
	assert_int_equal(lavd_ap_low(5000), 512);	/* clamped to one CPU */
	assert_int_equal(lavd_ap_high(4096, false), 2048);
	assert_int_equal(lavd_ap_high(4096, true), 1024);
}

static void autopilot_transitions(void **state)
{
	const __u64 low = 512, high = 2048;
	__u32 d = 0, m;

	(void)state;
	/* straight to the mode the load asks for, upwards */
	assert_int_equal(lavd_autopilot(LAVD_EM_POWERSAVE, 100, low, high, &d),
			 LAVD_EM_POWERSAVE);
	assert_int_equal(lavd_autopilot(LAVD_EM_POWERSAVE, 1000, low, high, &d),
			 LAVD_EM_BALANCED);
	assert_int_equal(lavd_autopilot(LAVD_EM_POWERSAVE, 3000, low, high, &d),
			 LAVD_EM_PERFORMANCE);
	/* boundaries belong to the lower mode */
	assert_int_equal(lavd_autopilot(LAVD_EM_POWERSAVE, 512, low, high, &d),
			 LAVD_EM_POWERSAVE);
	assert_int_equal(lavd_autopilot(LAVD_EM_BALANCED, 2048, low, high, &d),
			 LAVD_EM_BALANCED);

	/* down: only after LAVD_AP_DOWN_TICKS intervals clearly below */
	m = LAVD_EM_PERFORMANCE;
	d = 0;
	for (int i = 1; i < LAVD_AP_DOWN_TICKS; i++) {
		m = lavd_autopilot(m, 100, low, high, &d);
		assert_int_equal(m, LAVD_EM_PERFORMANCE);
	}
	m = lavd_autopilot(m, 100, low, high, &d);
	assert_int_equal(m, LAVD_EM_BALANCED);	/* one level at a time */
	for (int i = 0; i < LAVD_AP_DOWN_TICKS; i++)
		m = lavd_autopilot(m, 100, low, high, &d);
	assert_int_equal(m, LAVD_EM_POWERSAVE);

	/* hovering just under the boundary (within 1/8) never steps down */
	m = LAVD_EM_PERFORMANCE;
	d = 0;
	for (int i = 0; i < 10 * LAVD_AP_DOWN_TICKS; i++)
		m = lavd_autopilot(m, high - high / 16, low, high, &d);
	assert_int_equal(m, LAVD_EM_PERFORMANCE);
	/* a load alternating across the boundary stays up: no flapping */
	m = LAVD_EM_BALANCED;
	d = 0;
	for (int i = 0; i < 100; i++) {
		__u32 prev = m;

		m = lavd_autopilot(m, i % 2 ? high + 1 : high / 2, low, high, &d);
		if (i > 0)
			assert_true(m >= prev || m == LAVD_EM_PERFORMANCE);
	}
	assert_int_equal(m, LAVD_EM_PERFORMANCE);
	/* one spike during a descent resets the count */
	m = LAVD_EM_BALANCED;
	d = 0;
	for (int i = 1; i < LAVD_AP_DOWN_TICKS; i++)
		m = lavd_autopilot(m, 10, low, high, &d);
	m = lavd_autopilot(m, 600, low, high, &d);	/* balanced load again */
	assert_int_equal(d, 0);
	for (int i = 1; i < LAVD_AP_DOWN_TICKS; i++)
		m = lavd_autopilot(m, 10, low, high, &d);
	assert_int_equal(m, LAVD_EM_BALANCED);
	/* a bogus mode is clamped, swapped thresholds handled */
	assert_int_equal(lavd_autopilot(7, MAX64, low, high, &d), LAVD_EM_PERFORMANCE);
	assert_int_equal(lavd_autopilot(LAVD_EM_POWERSAVE, 600, 3000, 1000, &d),
			 LAVD_EM_POWERSAVE);
}

/* ---- big/little ---- */

static void perf_threshold(void **state)
{
	(void)state;
	/* no big core active: nobody; all big: everybody */
	assert_int_equal(lavd_perf_thresh(10, 20, 40, 0), 41);
	assert_int_equal(lavd_perf_thresh(10, 20, 40, 1024), 0);
	/* half big: the average */
	assert_int_equal(lavd_perf_thresh(10, 20, 40, 512), 20);
	/* mostly big (little share 1/4): halfway between min and avg */
	assert_int_equal(lavd_perf_thresh(10, 20, 40, 768), 15);
	/* mostly little (little share 3/4): halfway between avg and max */
	assert_int_equal(lavd_perf_thresh(10, 20, 40, 256), 30);
	/* a larger big share never raises the threshold */
	for (__u64 s = 1; s < 1024; s++)
		assert_true(lavd_perf_thresh(10, 20, 40, s) >=
			    lavd_perf_thresh(10, 20, 40, s + 1));
	/* inconsistent inputs stay within [min, max] */
	assert_int_equal(lavd_perf_thresh(30, 5, 20, 512), 20);
	assert_true(lavd_perf_thresh(0, MAX64, MAX64, 100) <= (1ULL << 32));
}

static void demand_and_heaviness(void **state)
{
	__u64 hog = 0, game = 0, idle = 0;
	int i;

	(void)state;
	/* a CPU hog: runnable all the time, also while it waits */
	for (i = 0; i < 12; i++)
		hog = lavd_demand_update(hog, 50 * MS, 50 * MS);
	assert_true(lavd_is_heavy(hog));
	/* it becomes heavy within ~0.5 s of 50 ms windows */
	hog = 0;
	for (i = 0; !lavd_is_heavy(hog); i++)
		hog = lavd_demand_update(hog, 50 * MS, 50 * MS);
	assert_true(i >= 8 && i <= 12);
	/* a game thread busy 8 of every 16.7 ms is not */
	for (i = 0; i < 50; i++)
		game = lavd_demand_update(game, 24 * MS, 50 * MS);
	assert_false(lavd_is_heavy(game));
	assert_in_range(game, 450, 500);
	/* a thread that sleeps 10 s between 1 ms runs: almost nothing */
	for (i = 0; i < 20; i++)
		idle = lavd_demand_update(idle, MS, 10000 * MS);
	assert_true(idle < 8);
	/* a heavy task that goes quiet loses it */
	for (i = 0; i < 20; i++)
		hog = lavd_demand_update(hog, 0, 50 * MS);
	assert_false(lavd_is_heavy(hog));
	/* no window: unchanged; runnable beyond the window: clamped */
	assert_int_equal(lavd_demand_update(300, 5, 0), 300);
	assert_true(lavd_demand_update(0, MAX64, 50 * MS) <= 1024);
	assert_true(lavd_demand_update(MAX64, MAX64, MAX64) <= 1024);
}

static void perf_criticality(void **state)
{
	__u64 hog, game, bg;

	(void)state;
	/* a CPU hog that never sleeps: no chain term, full demand */
	hog = lavd_perf_cri(0, 0, 1024, 100);
	/* a 60 Hz game thread at half a CPU that wakes others */
	game = lavd_perf_cri(60, 120, 512, 100);
	/* a background thread: sleeps 10 times a second, 2 % CPU */
	bg = lavd_perf_cri(10, 0, 20, 100);
	assert_true(game > hog);
	assert_true(hog > bg);
	assert_true(game > bg);
	/* monotonic in demand and weight */
	for (__u64 dmd = 0; dmd < 1024; dmd += 7)
		assert_true(lavd_perf_cri(60, 60, dmd, 100) <=
			    lavd_perf_cri(60, 60, dmd + 7, 100));
	assert_true(lavd_perf_cri(0, 0, 512, 1) <= lavd_perf_cri(0, 0, 512, 10000));
	/* bounded */
	assert_true(lavd_perf_cri(MAX64, MAX64, MAX64, MAX64) <= 58);
	assert_int_equal(lavd_perf_cri(0, 0, 0, 0), 2);

	/* who wants a big core */
	assert_true(lavd_wants_big(false, 0, 0, 100));	/* no little cores */
	assert_true(lavd_wants_big(true, 1024, 0, 100));	/* heavy: always */
	assert_true(lavd_wants_big(true, 0, 30, 30));
	assert_false(lavd_wants_big(true, 0, 29, 30));
	/* even when no big core is active (threshold max + 1) a heavy
	 * task still asks for one: the known failure of the reference */
	assert_true(lavd_wants_big(true, 900, 10, lavd_perf_thresh(5, 10, 20, 0)));
}

/* ---- cpufreq ---- */

static void cpuperf_target(void **state)
{
	(void)state;
	assert_int_equal(lavd_cpuperf_target(0, 0), 0);
	assert_int_equal(lavd_cpuperf_target(500, 300), 500);
	assert_int_equal(lavd_cpuperf_target(300, 500), 500);	/* the larger */
	assert_int_equal(lavd_cpuperf_target(869, 0), 869);
	assert_int_equal(lavd_cpuperf_target(870, 0), 1024);	/* >= 85 %: max */
	assert_int_equal(lavd_cpuperf_target(MAX64, 0), 1024);
}

/* ---- planning ---- */

static void fair_share(void **state)
{
	(void)state;
	assert_int_equal(lavd_fair_share(4096, 2048, 4096), 2048);
	assert_int_equal(lavd_fair_share(4096, 1024, 4096), 1024);
	assert_int_equal(lavd_fair_share(4096, 0, 4096), 0);
	assert_int_equal(lavd_fair_share(4096, 1024, 0), 0);
	assert_int_equal(lavd_fair_share(MAX64, MAX64, MAX64), 1ULL << 38);
	assert_int_equal(lavd_lb_tasks(0), 1);
	assert_int_equal(lavd_lb_tasks(2048), 1);
	assert_int_equal(lavd_lb_tasks(4096), 2);
	assert_int_equal(lavd_lb_tasks(4098), 3);
}

static void plan_roles(void **state)
{
	__u64 b;
	__u32 r;

	(void)state;
	/* two domains of 2 CPUs: one has 2 running + 4 queued, the other 1 */
	{
		__u64 la = 2048 + 4 * 1024, lb = 1024, tot = la + lb;
		__u64 fa = lavd_fair_share(tot, 2048, 4096), fb = fa;

		r = lavd_plan_role(la, fa, 4, true, LAVD_ROLE_NONE, &b);
		assert_int_equal(r, LAVD_ROLE_STEALEE);
		assert_int_equal(b, 2);		/* half of (6144 - 3584) = 1280 -> 2 */
		r = lavd_plan_role(lb, fb, 0, true, LAVD_ROLE_NONE, &b);
		assert_int_equal(r, LAVD_ROLE_STEALER);
		assert_int_equal(b, 2);
	}
	/* balanced: nobody */
	r = lavd_plan_role(2048, 2048, 1, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	assert_int_equal(b, 0);
	/* a small imbalance within the band does not start a role ... */
	r = lavd_plan_role(2048 + 200, 2048, 1, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	r = lavd_plan_role(2048 - 200, 2048, 0, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	/* ... but keeps one that was started (hysteresis) */
	r = lavd_plan_role(2048 + 200, 2048, 1, true, LAVD_ROLE_STEALEE, &b);
	assert_int_equal(r, LAVD_ROLE_STEALEE);
	assert_int_equal(b, 1);
	r = lavd_plan_role(2048 - 200, 2048, 0, true, LAVD_ROLE_STEALER, &b);
	assert_int_equal(r, LAVD_ROLE_STEALER);
	/* ... until the fair share is crossed */
	r = lavd_plan_role(2048, 2048, 1, true, LAVD_ROLE_STEALEE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	r = lavd_plan_role(2048 + 1, 2048, 0, true, LAVD_ROLE_STEALER, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	/* an over-loaded domain with nothing queued gives nothing */
	r = lavd_plan_role(8192, 2048, 0, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	/* the budget never exceeds what is queued */
	r = lavd_plan_role(20000, 2048, 3, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_STEALEE);
	assert_int_equal(b, 3);
	/* a domain without active CPUs gives all it has, never steals */
	r = lavd_plan_role(3072, 0, 3, false, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_STEALEE);
	assert_int_equal(b, 3);
	r = lavd_plan_role(0, 2048, 0, false, LAVD_ROLE_STEALER, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	/* tiny loads: the band is at least a quarter CPU */
	r = lavd_plan_role(100, 300, 0, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_NONE);
	r = lavd_plan_role(0, 300, 0, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_STEALER);
	/* extremes */
	r = lavd_plan_role(MAX64, 0, MAX64, true, LAVD_ROLE_NONE, &b);
	assert_int_equal(r, LAVD_ROLE_STEALEE);
	assert_true(b > 0);
}

/*
 * Planning over many random systems: roles are consistent with the fair
 * shares, budgets are bounded, and the sum of stealer budgets and of
 * stealee budgets never exceeds the imbalance they are meant to move.
 */
static void plan_random(void **state)
{
	struct gs_rng rng;

	(void)state;
	gs_rng_seed(&rng, 6);
	for (int round = 0; round < 2000; round++) {
		__u64 load[8], cap[8], q[8], tot = 0, totcap = 0, give = 0, excess = 0;
		int n = 2 + (int)(gs_rng_next(&rng) % 7);

		for (int d = 0; d < n; d++) {
			cap[d] = (gs_rng_next(&rng) % 3) * 1024;
			q[d] = gs_rng_next(&rng) % 6;
			load[d] = gs_rng_next(&rng) % (cap[d] + 1) + q[d] * 1024;
			tot += load[d];
			totcap += cap[d];
		}
		for (int d = 0; d < n; d++) {
			__u64 f = lavd_fair_share(tot, cap[d], totcap), b;
			__u32 r = lavd_plan_role(load[d], f, q[d], cap[d] > 0,
						 (__u32)(gs_rng_next(&rng) % 3), &b);

			if (r == LAVD_ROLE_STEALER) {
				assert_true(cap[d] > 0 && load[d] < f);
				assert_true(b >= 1 && b <= (f - load[d]) / 1024 + 1);
			} else if (r == LAVD_ROLE_STEALEE) {
				assert_true(q[d] > 0 && b >= 1 && b <= q[d]);
				assert_true(cap[d] == 0 || load[d] > f);
				give += b;
				if (load[d] > f)
					excess += (load[d] - f + 2047) / 1024;
				else
					excess += q[d];
			} else {
				assert_int_equal(b, 0);
			}
		}
		assert_true(give <= excess + (__u64)n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(required_capacity),
		cmocka_unit_test(fill_count),
		cmocka_unit_test(compaction_hysteresis),
		cmocka_unit_test(autopilot_thresholds),
		cmocka_unit_test(autopilot_transitions),
		cmocka_unit_test(perf_threshold),
		cmocka_unit_test(demand_and_heaviness),
		cmocka_unit_test(perf_criticality),
		cmocka_unit_test(cpuperf_target),
		cmocka_unit_test(fair_share),
		cmocka_unit_test(plan_roles),
		cmocka_unit_test(plan_random),
	};

	return cmocka_run_group_tests_name("lavd energy", tests, NULL, NULL);
}
