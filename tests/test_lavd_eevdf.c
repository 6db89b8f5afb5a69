// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd --eevdf's deciding half: the class a period's
 * observation proposes (eevdf_policy.h), the hysteresis and the guards,
 * what each class asks of the kernel (eevdf_levers.c), the lever list,
 * and the record line a killed run is undone from. Plus one check that
 * the model the tracepoint programs run ranks a game thread above a hog
 * (policy.h, with the inputs eevdf.bpf.c hands it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <string.h>

#include "../lavd/policy.h"
#include "../lavd/eevdf_policy.h"
#include "../lavd/eevdf_levers.h"

#define MS 1000000ULL

static const struct eevdf_sys game_sys = { .lc_avg = 1200, .lc_max = 2300 };

static struct eevdf_obs obs(uint64_t lc, uint64_t burst_ns, uint32_t share)
{
	return (struct eevdf_obs){ .lat_cri = lc, .avg_runtime = burst_ns,
				   .share = share, .ran = true };
}

static void propose_classes(void **state)
{
	struct eevdf_bounds b = eevdf_bounds_default();
	struct eevdf_obs game = obs(1500, MS / 10, 150), hog = obs(360, 2000 * MS, 900);
	struct eevdf_obs chain_top = obs(2300, MS / 20, 200), spinner = obs(2300, 8 * MS, 900);
	struct eevdf_sys none = { 0, 0 };

	(void)state;
	assert_int_equal(eevdf_propose(&b, &game_sys, &game, EEVDF_NORMAL, false),
			 EEVDF_CRITICAL);
	assert_int_equal(eevdf_propose(&b, &game_sys, &hog, EEVDF_NORMAL, false),
			 EEVDF_BACKGROUND);
	/* top only with the fifo lever, and only in the upper half */
	assert_int_equal(eevdf_propose(&b, &game_sys, &chain_top, EEVDF_NORMAL, false),
			 EEVDF_CRITICAL);
	assert_int_equal(eevdf_propose(&b, &game_sys, &chain_top, EEVDF_NORMAL, true),
			 EEVDF_TOP);
	assert_int_equal(eevdf_propose(&b, &game_sys, &game, EEVDF_NORMAL, true),
			 EEVDF_CRITICAL);
	/* a critical-looking task that runs long bursts is no boost candidate */
	assert_int_equal(eevdf_propose(&b, &game_sys, &spinner, EEVDF_NORMAL, true),
			 EEVDF_NORMAL);
	/* nothing active: nothing proposed */
	assert_int_equal(eevdf_propose(&b, &none, &game, EEVDF_NORMAL, true),
			 EEVDF_NORMAL);
}

/* A demoted hog gets less CPU: it stays background down to a quarter of
 * the share that made it one, where a normal task does not become one. */
static void background_keeps_its_class(void **state)
{
	struct eevdf_bounds b = eevdf_bounds_default();
	struct eevdf_obs starved = obs(300, 2000 * MS, 200);

	(void)state;
	assert_int_equal(eevdf_propose(&b, &game_sys, &starved, EEVDF_BACKGROUND, false),
			 EEVDF_BACKGROUND);
	assert_int_equal(eevdf_propose(&b, &game_sys, &starved, EEVDF_NORMAL, false),
			 EEVDF_NORMAL);
}

static void hysteresis_and_guards(void **state)
{
	struct eevdf_bounds b = eevdf_bounds_default();
	struct eevdf_track t = { 0 };
	struct eevdf_obs game = obs(1500, MS / 10, 150), quiet = obs(900, MS / 10, 10);
	struct eevdf_obs spin = obs(1500, 50 * MS, 950), asleep = { 0 };

	(void)state;
	/* promotion after promote_periods in a row */
	for (uint32_t i = 1; i < b.promote_periods; i++)
		assert_int_equal(eevdf_step(&b, &t, EEVDF_CRITICAL, &game), EEVDF_NORMAL);
	assert_int_equal(eevdf_step(&b, &t, EEVDF_CRITICAL, &game), EEVDF_CRITICAL);
	/* back to normal only after demote_periods, and a broken streak restarts */
	for (uint32_t i = 1; i < b.demote_periods; i++)
		assert_int_equal(eevdf_step(&b, &t, EEVDF_NORMAL, &quiet), EEVDF_CRITICAL);
	assert_int_equal(eevdf_step(&b, &t, EEVDF_CRITICAL, &game), EEVDF_CRITICAL);
	assert_int_equal(eevdf_step(&b, &t, EEVDF_NORMAL, &quiet), EEVDF_CRITICAL);
	/* a bound broken: out at once, whatever the proposal */
	assert_int_equal(eevdf_step(&b, &t, EEVDF_CRITICAL, &spin), EEVDF_NORMAL);
	/* idle: the class stays until idle_periods */
	t = (struct eevdf_track){ .cls = EEVDF_CRITICAL };
	for (uint32_t i = 1; i < b.idle_periods; i++)
		assert_int_equal(eevdf_step(&b, &t, EEVDF_NORMAL, &asleep), EEVDF_CRITICAL);
	assert_int_equal(eevdf_step(&b, &t, EEVDF_NORMAL, &asleep), EEVDF_NORMAL);
}

static void sys_average(void **state)
{
	struct eevdf_sys_acc a = { 0, 0, 0 };
	struct eevdf_obs x = obs(1000, 0, 0), y = obs(3000, 0, 0), idle = { .lat_cri = 9999 };
	struct eevdf_sys s;

	(void)state;
	eevdf_sys_add(&a, &x);
	eevdf_sys_add(&a, &y);
	eevdf_sys_add(&a, &idle);	/* did not run: not counted */
	s = eevdf_sys_finish(&a);
	assert_int_equal(s.lc_avg, 2000);
	assert_int_equal(s.lc_max, 3000);
}

static void lever_list(void **state)
{
	char err[256], names[96];

	(void)state;
	assert_int_equal(eevdf_levers_parse("nice,slice", err, sizeof(err)),
			 EEVDF_LV_NICE | EEVDF_LV_SLICE);
	assert_int_equal(eevdf_levers_parse("none", err, sizeof(err)), 0);
	assert_int_equal(eevdf_levers_parse("nice,turbo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'turbo'"));
	assert_int_equal(eevdf_levers_parse("nice,", err, sizeof(err)), -1);
	assert_int_equal(eevdf_levers_parse("", err, sizeof(err)), -1);
	eevdf_levers_name(EEVDF_LV_DEFAULT, names, sizeof(names));
	assert_string_equal(names, "nice,slice,bg,uclamp");
	eevdf_levers_name(0, names, sizeof(names));
	assert_string_equal(names, "none");
}

static const struct eevdf_levers levers = {
	.mask = EEVDF_LV_NICE | EEVDF_LV_SLICE | EEVDF_LV_BG | EEVDF_LV_FIFO,
	.crit_nice = -10, .bg_nice = 10, .slice_ns = MS, .uclamp_min = 512,
	.fifo_prio = 1, .base_slice_ns = 2800000,
};

static void class_attributes(void **state)
{
	struct gs_sched_attr orig = { .policy = SCHED_OTHER, .runtime = 2800000,
				      .util_max = 1024 }, a;
	struct eevdf_levers lv = levers;

	(void)state;
	eevdf_target(&lv, EEVDF_CRITICAL, &orig, &a);
	assert_int_equal(a.policy, SCHED_OTHER);
	assert_int_equal(a.nice, -10);
	assert_int_equal(a.runtime, MS);
	assert_true(a.flags & GS_SCHED_FLAG_RESET_ON_FORK);
	eevdf_target(&lv, EEVDF_TOP, &orig, &a);
	assert_int_equal(a.policy, SCHED_FIFO);
	assert_int_equal(a.priority, 1);
	assert_int_equal(a.runtime, 0);
	eevdf_target(&lv, EEVDF_BACKGROUND, &orig, &a);
	assert_int_equal(a.nice, 10);
	lv.mask |= EEVDF_LV_IDLE;
	eevdf_target(&lv, EEVDF_BACKGROUND, &orig, &a);
	assert_int_equal(a.policy, SCHED_IDLE);
	/* top without the fifo lever is critical */
	lv.mask &= ~EEVDF_LV_FIFO;
	eevdf_target(&lv, EEVDF_TOP, &orig, &a);
	assert_int_equal(a.policy, SCHED_OTHER);
	assert_int_equal(a.nice, -10);
	/* normal gives back: the base slice is "no custom slice" */
	eevdf_target(&lv, EEVDF_NORMAL, &orig, &a);
	assert_int_equal(a.nice, 0);
	assert_int_equal(a.runtime, 0);
	assert_false(a.flags & GS_SCHED_FLAG_RESET_ON_FORK);
	/* someone's own choice is left alone */
	assert_false(eevdf_attr_chosen(&lv, &orig));
	orig.nice = 5;
	assert_true(eevdf_attr_chosen(&lv, &orig));
	orig.nice = 0;
	orig.runtime = 500000;
	assert_true(eevdf_attr_chosen(&lv, &orig));
}

static void record_lines(void **state)
{
	struct eevdf_rec r = { .tid = 4242, .start = 123456789ULL }, back;
	char line[256];

	(void)state;
	r.orig = (struct gs_sched_attr){ .policy = SCHED_OTHER, .runtime = 2800000 };
	r.applied = (struct gs_sched_attr){ .policy = SCHED_FIFO, .priority = 1 };
	r.prev = (struct gs_sched_attr){ .policy = SCHED_OTHER, .nice = -10 };
	assert_int_equal(eevdf_rec_format(&r, line, sizeof(line)), 0);
	line[strcspn(line, "\n")] = '\0';
	assert_int_equal(eevdf_rec_parse(line, &back), 0);
	assert_int_equal(back.tid, 4242);
	assert_int_equal(back.start, 123456789ULL);
	assert_int_equal(back.orig.runtime, 2800000);
	assert_int_equal(back.applied.policy, SCHED_FIFO);
	assert_int_equal(back.prev.nice, -10);
	/* the change being made and the one before it are both lavd's: a run
	 * killed between the record and the change is still undone */
	assert_true(eevdf_rec_ours(&back, &r.applied));
	assert_true(eevdf_rec_ours(&back, &r.prev));
	assert_false(eevdf_rec_ours(&back, &r.orig));
	/* malformed, truncated, out of range, init's tid: refused */
	assert_int_equal(eevdf_rec_parse("4242 1 0 0 0", &back), -1);
	assert_int_equal(eevdf_rec_parse("4242 1 0 0 0 0 0 0 0 -10 0 0 0 0 junk", &back), -1);
	assert_int_equal(eevdf_rec_parse("4242 1 0 0 0 0 0 0 0 -30 0 0 0 0", &back), -1);
	assert_int_equal(eevdf_rec_parse("1 1 0 0 0 0 0 0 0 -10 0 0 0 0", &back), -1);
	assert_int_equal(eevdf_rec_parse("4242 1 0 0 0 0 0 0 0 -10 0 0 0 0", &back), 0);
}

/* The inputs eevdf.bpf.c gives policy.h (every task at nice 0's weight):
 * a 60 Hz chain link ranks far above a CPU hog, so the hog can never be
 * boosted for being interrupted by a wakeup it is then credited with. */
static void model_ranks_game_above_hog(void **state)
{
	uint64_t game = lavd_lat_cri(60, 60, MS, LAVD_WEIGHT_DFL, LAVD_BOOST_REGULAR);
	uint64_t hog = lavd_lat_cri(0, 0, 1000 * MS, LAVD_WEIGHT_DFL, 0);
	uint64_t hog_credited = lavd_lat_cri_inherit(
		lavd_lat_cri(0, 1000, 1000 * MS, LAVD_WEIGHT_DFL, 0), 0, game);

	(void)state;
	assert_true(game > 4 * hog);
	assert_true(hog_credited < game / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(propose_classes),
		cmocka_unit_test(background_keeps_its_class),
		cmocka_unit_test(hysteresis_and_guards),
		cmocka_unit_test(sys_average),
		cmocka_unit_test(lever_list),
		cmocka_unit_test(class_attributes),
		cmocka_unit_test(record_lines),
		cmocka_unit_test(model_ranks_game_above_hog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
