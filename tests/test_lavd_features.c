// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd's preemption, slice and lock-holder policy as
 * pure functions (policy.h): the preemption threshold, the victim
 * qualification and choice (our decision: evict the less critical,
 * later-stopping one), when an eviction needs an IPI, the slice boost and
 * the pinned cap, the futex holder state machine and the futex(2) op
 * decoding, the sampling rate and the tick-period learning; plus the
 * loader's HZ parsers (kinfo.c) and the per-task sample line (report.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../lavd/policy.h"
#include "../lavd/policy_preempt.h"
#include "../lavd/intf.h"
/* the loader's parts under test, from liblavd.a */
#include "../lavd/kinfo.h"
#include "../lavd/report.h"

#define MS LAVD_NSEC_PER_MSEC
#define US LAVD_NSEC_PER_USEC
#define MAX64 LAVD_U64_MAX

static void preempt_threshold(void **state)
{
	(void)state;
	/* the top 1/64 of [avg, max] */
	assert_int_equal(lavd_preempt_thresh(2304, 1024, 6), 2304 - (1280 >> 6));
	assert_int_equal(lavd_preempt_thresh(2304, 1024, 0), 1024);
	assert_int_equal(lavd_preempt_thresh(2304, 1024, 10), 2303);
	/* a larger shift never lowers the threshold */
	for (uint32_t sh = 0; sh < 12; sh++)
		assert_true(lavd_preempt_thresh(1936, 612, sh) <=
			    lavd_preempt_thresh(1936, 612, sh + 1));
	/* quiet system: the maximum itself; extremes do not overflow */
	assert_int_equal(lavd_preempt_thresh(500, 500, 6), 500);
	assert_int_equal(lavd_preempt_thresh(400, 900, 6), 400);
	assert_int_equal(lavd_preempt_thresh(MAX64, 0, 100), MAX64 - 1);
	assert_int_equal(lavd_preempt_thresh(MAX64, 0, 0), 0);
}

static void est_stop_and_qualify(void **state)
{
	uint64_t now = 1000 * MS;

	(void)state;
	assert_int_equal(lavd_est_stop(now, 300 * US, 5 * MS), now + 300 * US);
	assert_int_equal(lavd_est_stop(now, 80 * MS, 5 * MS), now + 5 * MS);
	assert_int_equal(lavd_est_stop(MAX64 - 10, 5 * MS, 5 * MS), MAX64);
	/* a game thread (1521, stops in 300 us) vs a hog (400, 4 ms left) */
	assert_true(lavd_can_evict(1521, now + 300 * US, 400, now + 4 * MS));
	/* not less critical: no */
	assert_false(lavd_can_evict(1521, now + 300 * US, 1521, now + 4 * MS));
	assert_false(lavd_can_evict(1521, now + 300 * US, 2304, now + 4 * MS));
	/* stops before the wakee would: waiting costs less than evicting */
	assert_false(lavd_can_evict(1521, now + 300 * US, 400, now + 200 * US));
	assert_false(lavd_can_evict(1521, now + 300 * US, 400, now + 300 * US));
}

static void victim_choice_is_ours(void **state)
{
	(void)state;
	/* the less critical one is evicted, whichever comes first */
	assert_int_equal(lavd_pick_victim(400, 4 * MS, 900, 9 * MS), 0);
	assert_int_equal(lavd_pick_victim(900, 9 * MS, 400, 4 * MS), 1);
	/* equal criticality: the one that would run longer */
	assert_int_equal(lavd_pick_victim(400, 4 * MS, 400, 9 * MS), 1);
	assert_int_equal(lavd_pick_victim(400, 9 * MS, 400, 4 * MS), 0);
	/* a full tie keeps the preferred CPU (candidate 0) */
	assert_int_equal(lavd_pick_victim(400, 4 * MS, 400, 4 * MS), 0);
	/* the reference's rule would keep the more critical one as victim:
	 * make sure ours never does, over a grid */
	for (uint64_t a = 1; a < 3000; a += 97)
		for (uint64_t b = 1; b < 3000; b += 89) {
			int v = lavd_pick_victim(a, 5 * MS, b, 5 * MS);

			assert_true((v == 0 ? a : b) == (a < b ? a : b));
		}
}

static void next_tick_and_kick(void **state)
{
	uint64_t tick = 4 * MS, now = 100 * MS + 1 * MS;

	(void)state;
	/* last tick 1 ms ago: the next one in 3 ms */
	assert_int_equal(lavd_next_tick(now, 100 * MS, tick), 104 * MS);
	/* several periods since: the phase is kept */
	assert_int_equal(lavd_next_tick(now, 100 * MS - 8 * MS, tick), 104 * MS);
	/* unknown last tick: a whole period; unknown period: now */
	assert_int_equal(lavd_next_tick(now, 0, tick), now + tick);
	assert_int_equal(lavd_next_tick(now, now + 1, tick), now + tick);
	assert_int_equal(lavd_next_tick(now, 100 * MS, 0), now);
	/* on the tick itself: the next one a period later */
	assert_int_equal(lavd_next_tick(100 * MS, 100 * MS, tick), 104 * MS);

	/* auto: IPI when the tick comes after the wakee's burst would end */
	assert_true(lavd_need_kick(LAVD_KICK_AUTO, 104 * MS, now + 300 * US));
	assert_false(lavd_need_kick(LAVD_KICK_AUTO, now + 100 * US, now + 300 * US));
	assert_false(lavd_need_kick(LAVD_KICK_NEVER, 104 * MS, now + 300 * US));
	assert_true(lavd_need_kick(LAVD_KICK_ALWAYS, now + 100 * US, now + 300 * US));
}

static void slice_boost(void **state)
{
	uint64_t sys = 3 * MS;
	bool b;

	(void)state;
	/* short bursts keep the system slice */
	assert_int_equal(lavd_task_slice(sys, 1 * MS, 2000, 1000, true, true, &b), sys);
	assert_false(b);
	/* a long runner with room: its burst + 500 us */
	assert_int_equal(lavd_task_slice(sys, 20 * MS, 400, 1000, true, true, &b),
			 20 * MS + 500 * US);
	assert_true(b);
	/* ... at most 500 ms */
	assert_int_equal(lavd_task_slice(sys, 10000 * MS, 400, 1000, true, true, &b),
			 500 * MS);
	/* without room: only above-average lat_cri, up to 2x */
	assert_int_equal(lavd_task_slice(sys, 20 * MS, 400, 1000, false, true, &b), sys);
	assert_false(b);
	assert_int_equal(lavd_task_slice(sys, 20 * MS, 1500, 1000, false, true, &b),
			 2 * sys);
	assert_true(b);
	assert_int_equal(lavd_task_slice(sys, 4 * MS, 1500, 1000, false, true, &b),
			 4 * MS + 500 * US);
	/* switched off */
	assert_int_equal(lavd_task_slice(sys, 20 * MS, 1500, 1000, true, false, &b), sys);
	assert_false(b);
	/* extremes */
	assert_int_equal(lavd_task_slice(MAX64, MAX64, MAX64, 0, false, true, &b), MAX64);
	assert_int_equal(lavd_task_slice(sys, MAX64, 1, 0, true, true, &b), 500 * MS);

	/* room: <= 95 % busy and no more waiting than CPUs */
	assert_true(lavd_has_room(95, 2, 2));
	assert_false(lavd_has_room(96, 0, 2));
	assert_false(lavd_has_room(50, 3, 2));
}

static void pinned_cap_and_cut(void **state)
{
	(void)state;
	assert_int_equal(lavd_pinned_cap(20 * MS, 0, 5 * MS), 20 * MS);
	assert_int_equal(lavd_pinned_cap(20 * MS, 2, 5 * MS), 5 * MS);
	assert_int_equal(lavd_pinned_cap(3 * MS, 2, 5 * MS), 3 * MS);
	assert_int_equal(lavd_pinned_cap(20 * MS, 2, 0), 20 * MS);	/* no cap */
	assert_int_equal(lavd_cut_slice(2 * MS, 5 * MS), 3 * MS);
	assert_int_equal(lavd_cut_slice(5 * MS, 5 * MS), 0);
	assert_int_equal(lavd_cut_slice(9 * MS, 5 * MS), 0);
	assert_int_equal(lavd_cut_slice(0, MAX64), MAX64);
}

static void holder_state_machine(void **state)
{
	uint32_t f = 0;

	(void)state;
	/* a successful wait makes a holder; a wake ends it */
	f = lavd_holder_next(f, LAVD_HEV_ACQUIRE);
	assert_true(f & LAVD_HOLDER);
	assert_true(lavd_holder_may_extend(f));
	assert_int_equal(lavd_holder_boost(f), 0);	/* no boost while running */
	assert_int_equal(lavd_holder_next(f, LAVD_HEV_RELEASE), 0);

	/* one extension per run */
	f = lavd_holder_next(f, LAVD_HEV_EXTEND);
	assert_false(lavd_holder_may_extend(f));
	f = lavd_holder_next(f, LAVD_HEV_ACQUIRE);	/* another lock */
	assert_false(lavd_holder_may_extend(f));

	/* stopped while holding: only the boost survives the stop ... */
	f = lavd_holder_next(f, LAVD_HEV_STOP);
	assert_int_equal(f, LAVD_HOLDER_BOOST);
	assert_false(lavd_holder_may_extend(f));
	assert_int_equal(lavd_holder_boost(f), LAVD_BOOST_REGULAR);
	/* ... and is consumed by the next deadline */
	f = lavd_holder_next(f, LAVD_HEV_DEADLINE);
	assert_int_equal(f, 0);
	assert_int_equal(lavd_holder_boost(f), 0);

	/* a missed wake cannot leak: a stop clears the holder flag, and
	 * a second stop clears the boost that the first one left */
	f = lavd_holder_next(0, LAVD_HEV_ACQUIRE);
	f = lavd_holder_next(f, LAVD_HEV_STOP);
	f = lavd_holder_next(f, LAVD_HEV_STOP);
	assert_int_equal(f, 0);
	/* released before stopping: no boost */
	f = lavd_holder_next(0, LAVD_HEV_ACQUIRE);
	f = lavd_holder_next(f, LAVD_HEV_RELEASE);
	assert_int_equal(lavd_holder_next(f, LAVD_HEV_STOP), 0);
	/* unknown events and foreign bits change nothing harmful */
	assert_int_equal(lavd_holder_next(0xffff0000u, 77), 0);
}

static void futex_op_decoding(void **state)
{
	(void)state;
	/* waits and locks that returned 0 acquire, with any flag bits */
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAIT, 0), LAVD_HEV_ACQUIRE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAIT | 128, 0), LAVD_HEV_ACQUIRE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAIT_BITSET | 128 | 256, 0),
			 LAVD_HEV_ACQUIRE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_LOCK_PI, 0), LAVD_HEV_ACQUIRE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_LOCK_PI2, 0), LAVD_HEV_ACQUIRE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_TRYLOCK_PI, 0), LAVD_HEV_ACQUIRE);
	/* a wait that timed out or found the value changed did not */
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAIT, -110), LAVD_HEV_NONE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAIT, -11), LAVD_HEV_NONE);
	/* wakes (also of nobody), requeues and unlocks release */
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAKE | 128, 1), LAVD_HEV_RELEASE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAKE, 0), LAVD_HEV_RELEASE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAKE_OP, 2), LAVD_HEV_RELEASE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_CMP_REQUEUE, 1), LAVD_HEV_RELEASE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_UNLOCK_PI, 0), LAVD_HEV_RELEASE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_UNLOCK_PI, -1), LAVD_HEV_NONE);
	assert_int_equal(lavd_futex_op_event(LAVD_FUTEX_WAKE, -14), LAVD_HEV_NONE);
	/* FUTEX_FD and unknown ops mean nothing */
	assert_int_equal(lavd_futex_op_event(2, 0), LAVD_HEV_NONE);
	assert_int_equal(lavd_futex_op_event(99, 0), LAVD_HEV_NONE);
}

static void sampling_rate(void **state)
{
	(void)state;
	assert_int_equal(lavd_sample_prob(0, 5000), 0);
	assert_int_equal(lavd_sample_prob(10, 5), 0xffffffffULL);
	assert_int_equal(lavd_sample_prob(10, 10), 0xffffffffULL);
	/* 10 of 1000 a second: 1 % of 2^32 */
	assert_int_equal(lavd_sample_prob(10, 1000), (10ULL << 32) / 1000);
	assert_true(lavd_sample_prob(1, MAX64) < 2);
	assert_true(lavd_sample_prob(MAX64 - 1, MAX64) <= 0xffffffffULL);
}

static void tick_learning(void **state)
{
	uint64_t e = 0;

	(void)state;
	assert_int_equal(lavd_tick_learn(0, 50 * US), LAVD_TICK_NS_DFL);
	/* HZ=1000 from the 4 ms start */
	for (int i = 0; i < 200; i++)
		e = lavd_tick_learn(e, 1 * MS);
	assert_true(e >= 1 * MS && e < 1 * MS + 10 * US);
	/* idle gaps (many periods) are ignored */
	assert_int_equal(lavd_tick_learn(e, 20 * MS), e);
	/* HZ=100 from the 4 ms start: 10 ms is within 3 periods */
	e = 0;
	for (int i = 0; i < 300; i++)
		e = lavd_tick_learn(e, 10 * MS);
	assert_true(e > 9 * MS && e <= 10 * MS);
}

static void hz_parsers(void **state)
{
	uint64_t j, t;
	char src[32];
	unsigned hz;

	(void)state;
	assert_int_equal(lavd_config_hz("# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\n"
					"CONFIG_HZ=250\nCONFIG_SCHED_HRTICK=y\n"), 250);
	assert_int_equal(lavd_config_hz("CONFIG_HZ=1000"), 1000);
	assert_int_equal(lavd_config_hz("CONFIG_HZ_1000=y\n# CONFIG_HZ=1000 x\n"), 0);
	assert_int_equal(lavd_config_hz("XCONFIG_HZ=300\n"), 0);
	assert_int_equal(lavd_config_hz(""), 0);
	assert_int_equal(lavd_parse_timer_list(
		"Timer List Version: v0.10\nHRTIMER_MAX_CLOCK_BASES: 8\n"
		"now at 11066422576762 nsecs\n\ncpu: 0\n  .last_jiffies   : 4297659471\n"
		"jiffies: 4297659471\n", &j, &t), 0);
	assert_int_equal(j, 4297659471ULL);
	assert_int_equal(t, 11066422576762ULL);
	assert_int_equal(lavd_parse_timer_list("now at 5 nsecs\n", &j, &t), -1);
	assert_int_equal(lavd_parse_timer_list("\njiffies: 5\n", &j, &t), -1);
	assert_int_equal(lavd_hz_round(248.7), 250);
	assert_int_equal(lavd_hz_round(1003.0), 1000);
	assert_int_equal(lavd_hz_round(99.0), 100);
	assert_int_equal(lavd_hz_round(500.0), 0);
	/* on this machine: a known value or "unknown", never garbage */
	hz = lavd_kernel_hz(src, sizeof(src));
	assert_true(hz == 0 || hz == 100 || hz == 250 || hz == 300 || hz == 1000);
	assert_true(!strcmp(src, hz ? (strcmp(src, "config") ? "timer_list" : "config") :
				 "unknown"));
}

static void sample_line(void **state)
{
	struct lavd_sample s = { 0 };
	char line[512];

	(void)state;
	s.pid = 812;
	s.cpu = 1;
	s.waker_pid = 809;
	memcpy(s.comm, "fb-game\0", 8);
	memcpy(s.waker_comm, "fb-input\0", 9);
	s.slice_ns = 5 * MS;
	s.ran_ns = 412 * US;
	s.wait_ns = 96 * US;
	s.avg_runtime_ns = 398 * US;
	s.lat_cri = 1521;
	s.lat_cri_thresh = 1480;
	s.wait_freq = 60;
	s.wake_freq = 120;
	s.run_freq = 60;
	s.vdl_rel = 3 * US;
	s.flags = LAVD_SF_LAT_CRI | LAVD_SF_HOLDER;
	lavd_sample_line(line, sizeof(line), &s, 3.1415);
	assert_string_equal(line,
		"sample 3.142 cpu 1 fb-game:812 waker fb-input:809 | slice 5.00ms used 412us "
		"wait 96us | lat_cri 1521* thr 1480 | freq wait 60 wake 120 run 60 | "
		"avg_runtime 398us vdl +3us | holder slept preempted-by 0");
	/* an evicted hog, woken by nobody; odd bytes in comm are replaced */
	memcpy(s.comm, "bad name\x01xxxxxxx", 16);
	s.waker_pid = 0;
	s.preempted_by = 812;
	s.flags = LAVD_SF_GREEDY | LAVD_SF_RUNNABLE | LAVD_SF_PREEMPTED | LAVD_SF_HARDIRQ;
	lavd_sample_line(line, sizeof(line), &s, 0);
	assert_non_null(strstr(line, "bad_name_xxxxxx:812 waker hardirq:0"));
	assert_non_null(strstr(line, "greedy requeued preempted-by 812"));
}

/* --greedy-preempt widens who may evict; --greedy-slice-us caps greedy runs */
static void greedy_levers(void **state)
{
	(void)state;
	/* a greedy wakee evicts nothing, above the threshold or not */
	assert_int_equal(lavd_evict_scope(true, 2000, 1600, true), LAVD_EVICT_NONE);
	/* at or above the threshold: any less critical victim */
	assert_int_equal(lavd_evict_scope(false, 1600, 1600, false), LAVD_EVICT_ANY);
	/* below it: nothing by default, greedy victims with the option */
	assert_int_equal(lavd_evict_scope(false, 1500, 1600, false), LAVD_EVICT_NONE);
	assert_int_equal(lavd_evict_scope(false, 1500, 1600, true), LAVD_EVICT_GREEDY);
	/* the cap applies to greedy tasks only, and only when set */
	assert_int_equal(lavd_greedy_slice(5 * MS, true, 1 * MS), 1 * MS);
	assert_int_equal(lavd_greedy_slice(5 * MS, false, 1 * MS), 5 * MS);
	assert_int_equal(lavd_greedy_slice(5 * MS, true, 0), 5 * MS);
	assert_int_equal(lavd_greedy_slice(500 * US, true, 1 * MS), 500 * US);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(preempt_threshold),
		cmocka_unit_test(est_stop_and_qualify),
		cmocka_unit_test(victim_choice_is_ours),
		cmocka_unit_test(greedy_levers),
		cmocka_unit_test(next_tick_and_kick),
		cmocka_unit_test(slice_boost),
		cmocka_unit_test(pinned_cap_and_cut),
		cmocka_unit_test(holder_state_machine),
		cmocka_unit_test(futex_op_decoding),
		cmocka_unit_test(sampling_rate),
		cmocka_unit_test(tick_learning),
		cmocka_unit_test(hz_parsers),
		cmocka_unit_test(sample_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
