// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd/policy.h, the arithmetic the BPF scheduler runs:
 * the typical lat_cri values of docs/lavd.md (with the inputs that produce them
 * derived below), monotonicity, clamping, our deliberate differences
 * (time-decayed frequencies, EEVDF-style lag), and no overflow at the
 * extremes (checked against 128-bit reference arithmetic).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lavd/policy.h"
#include "../lavd/policy_preempt.h"
#include "rng.h"
#include "util.h"

#define MS LAVD_NSEC_PER_MSEC
#define US LAVD_NSEC_PER_USEC
#define SEC LAVD_NSEC_PER_SEC
#define MAX64 LAVD_U64_MAX

typedef unsigned __int128 u128;

static unsigned bits128(u128 v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* lat_cri with 128-bit products: the reference the u64 version must match. */
static uint64_t lat_cri_ref(uint64_t wait, uint64_t wake, uint64_t rt,
			    uint64_t weight, uint64_t boost)
{
	u128 wait_ft = (wait < 100000 ? wait : 100000) + 1;
	u128 wake_ft = (wake < 100000 ? wake : 100000) + 1;
	u128 rt_ft = rt < SEC ? (SEC - rt) / (500 * US) + 1 : 1;
	u128 w = weight < 1 ? 1 : weight > 10000 ? 10000 : weight;
	u128 b = boost > 4096 ? 4096 : boost;
	unsigned l = bits128(wait_ft * wake_ft) + bits128(rt_ft * (w * (1 + b) + 1));

	return (uint64_t)l * l;
}

static void log2x_counts_bits(void **state)
{
	(void)state;
	assert_int_equal(lavd_log2x(0), 0);
	assert_int_equal(lavd_log2x(1), 1);
	assert_int_equal(lavd_log2x(2), 2);
	assert_int_equal(lavd_log2x(3), 2);
	assert_int_equal(lavd_log2x(4), 3);
	assert_int_equal(lavd_log2x(101), 7);
	assert_int_equal(lavd_log2x(1ULL << 32), 33);
	assert_int_equal(lavd_log2x((1ULL << 32) - 1), 32);
	assert_int_equal(lavd_log2x(MAX64), 64);
	for (int i = 0; i < 64; i++) {
		assert_int_equal(lavd_log2x(1ULL << i), i + 1);
		if (i > 1)
			assert_int_equal(lavd_log2x((1ULL << i) - 1), i);
	}
}

/*
 * docs/lavd.md: "a requeued CPU hog ~ 400". Inputs: it sleeps about once a
 * second (wait 1 Hz), wakes nobody (wake 0), each burst uses a full 5 ms
 * slice (avg_runtime 5 ms), nice 0 (weight 100), no context boost because
 * it was requeued, not woken:
 *   L(2 * 1) = 2, runtime_ft = (1 s - 5 ms) / 500 us + 1 = 1991,
 *   L(1991 * 101 = 201091) = 18, (2 + 18)^2 = 400.
 */
static void typical_requeued_hog(void **state)
{
	(void)state;
	assert_int_equal(lavd_lat_cri(1, 0, 5 * MS, 100, 0), 400);
}

/*
 * docs/lavd.md: "a 120 Hz game thread on wakeup ~ 1521". Inputs: it sleeps and
 * wakes its consumer once per frame (wait 120 Hz, wake 120 Hz), runs 1 ms
 * per frame, nice 0, and is being woken (wakeup boost +128):
 *   L(121 * 121 = 14641) = 14, runtime_ft = 999 ms / 500 us + 1 = 1999,
 *   weight_ft = 100 * 129 + 1 = 12901, L(1999 * 12901 = 25789099) = 25,
 *   (14 + 25)^2 = 1521.
 */
static void typical_game_thread(void **state)
{
	(void)state;
	assert_int_equal(lavd_lat_cri(120, 120, 1 * MS, 100, LAVD_BOOST_REGULAR),
			 1521);
}

/*
 * docs/lavd.md: "a 1 kHz irq-woken thread ~ 2304". Inputs: woken by a hardirq
 * 1000 times a second and passing each event on (wait 1000, wake 1000),
 * 100 us per burst, nice 0, wakeup +128 and hardirq +1024:
 *   L(1001 * 1001 = 1002001) = 20, runtime_ft = 999.9 ms / 500 us + 1 = 2000,
 *   weight_ft = 100 * 1153 + 1 = 115301, L(2000 * 115301 = 230602000) = 28,
 *   (20 + 28)^2 = 2304.
 */
static void typical_irq_thread(void **state)
{
	(void)state;
	assert_int_equal(lavd_lat_cri(1000, 1000, 100 * US, 100,
				      LAVD_BOOST_REGULAR + LAVD_BOOST_HIGHEST),
			 2304);
}

/* The ordering the policy exists for: irq thread > game thread > hog. */
static void typical_ordering(void **state)
{
	uint64_t hog = lavd_lat_cri(1, 0, 5 * MS, 100, 0);
	uint64_t game = lavd_lat_cri(120, 120, 1 * MS, 100, LAVD_BOOST_REGULAR);
	uint64_t irq = lavd_lat_cri(1000, 1000, 100 * US, 100,
				    LAVD_BOOST_REGULAR + LAVD_BOOST_HIGHEST);

	(void)state;
	assert_true(hog < game && game < irq);
	/* and their deadlines are ordered the other way round */
	assert_true(lavd_deadline_delta(0, 1024, irq) <
		    lavd_deadline_delta(0, 1024, game));
	assert_true(lavd_deadline_delta(0, 1024, game) <
		    lavd_deadline_delta(0, 1024, hog));
}

static void lat_cri_monotonic(void **state)
{
	static const uint64_t freqs[] = { 0, 1, 2, 10, 60, 120, 1000, 99999,
					  100000, 100001, MAX64 };
	static const uint64_t rts[] = { 0, 1, 10 * US, 500 * US, 1 * MS, 5 * MS,
					999 * MS, SEC, SEC + 1, MAX64 };
	static const uint64_t weights[] = { 0, 1, 15, 100, 1024, 10000, 10001,
					    MAX64 };
	static const uint64_t boosts[] = { 0, 128, 256, 1152, 4096, 5000,
					   MAX64 };

	(void)state;
	for (size_t i = 1; i < ARRAY_SIZE(freqs); i++) {
		assert_true(lavd_lat_cri(freqs[i], 5, MS, 100, 0) >=
			    lavd_lat_cri(freqs[i - 1], 5, MS, 100, 0));
		assert_true(lavd_lat_cri(5, freqs[i], MS, 100, 0) >=
			    lavd_lat_cri(5, freqs[i - 1], MS, 100, 0));
	}
	for (size_t i = 1; i < ARRAY_SIZE(rts); i++)
		assert_true(lavd_lat_cri(60, 60, rts[i], 100, 128) <=
			    lavd_lat_cri(60, 60, rts[i - 1], 100, 128));
	for (size_t i = 1; i < ARRAY_SIZE(weights); i++)
		assert_true(lavd_lat_cri(60, 60, MS, weights[i], 0) >=
			    lavd_lat_cri(60, 60, MS, weights[i - 1], 0));
	for (size_t i = 1; i < ARRAY_SIZE(boosts); i++)
		assert_true(lavd_lat_cri(60, 60, MS, 100, boosts[i]) >=
			    lavd_lat_cri(60, 60, MS, 100, boosts[i - 1]));
}

/* Every combination of edge values, and random ones, against 128-bit math. */
static void lat_cri_no_overflow(void **state)
{
	static const uint64_t e[] = { 0, 1, 2, 100, 100000, 100001, SEC - 1, SEC,
				      1ULL << 32, 1ULL << 63, MAX64 - 1, MAX64 };
	struct gs_rng rng;

	(void)state;
	for (size_t a = 0; a < ARRAY_SIZE(e); a++)
		for (size_t b = 0; b < ARRAY_SIZE(e); b++)
			for (size_t c = 0; c < ARRAY_SIZE(e); c++)
				for (size_t d = 0; d < ARRAY_SIZE(e); d++)
					for (size_t f = 0; f < ARRAY_SIZE(e); f += 3)
						assert_int_equal(
							lavd_lat_cri(e[a], e[b], e[c], e[d], e[f]),
							lat_cri_ref(e[a], e[b], e[c], e[d], e[f]));
	gs_rng_seed(&rng, 42);
	for (int i = 0; i < 100000; i++) {
		uint64_t w = gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64);
		uint64_t k = gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64);
		uint64_t r = gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64);
		uint64_t wt = gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64);
		uint64_t b = gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64);

		assert_int_equal(lavd_lat_cri(w, k, r, wt, b),
				 lat_cri_ref(w, k, r, wt, b));
	}
	/* the largest value the formula can give: (34 + 37)^2 */
	assert_int_equal(lavd_lat_cri(MAX64, MAX64, 0, MAX64, MAX64), 5041);
	assert_true(5041 < LAVD_LAT_CRI_MAX);
	/* the smallest: (L(1) + L(1 * (1 * 1 + 1)))^2 = (1 + 2)^2 */
	assert_int_equal(lavd_lat_cri(0, 0, MAX64, 0, 0), 9);
}

static void inherit_rules(void **state)
{
	(void)state;
	/* givers below 2x own: nothing */
	assert_int_equal(lavd_lat_cri_inherit(1000, 1000, 1000), 1000);
	assert_int_equal(lavd_lat_cri_inherit(1000, 0, 0), 1000);
	/* 1/8 of the excess: (2400 - 2000) / 8 = 50 */
	assert_int_equal(lavd_lat_cri_inherit(1000, 1200, 1200), 1050);
	/* capped at +25 % of own */
	assert_int_equal(lavd_lat_cri_inherit(400, 2304, 2304), 500);
	assert_int_equal(lavd_lat_cri_inherit(400, MAX64, MAX64), 500);
	assert_int_equal(lavd_lat_cri_inherit(0, MAX64, MAX64), 0);
	/* monotonic in the givers and never more than 1.25x */
	for (uint64_t g = 0; g < 20000; g += 97) {
		uint64_t a = lavd_lat_cri_inherit(1521, g, 0);
		uint64_t b = lavd_lat_cri_inherit(1521, g + 97, 0);

		assert_true(a <= b);
		assert_true(b <= 1521 + 1521 / 4);
	}
	assert_true(lavd_lat_cri_inherit(MAX64, MAX64, MAX64) <=
		    LAVD_LAT_CRI_MAX + LAVD_LAT_CRI_MAX / 4);
}

static void ewma_behaviour(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(lavd_ewma(800, 0), 700);
	assert_int_equal(lavd_ewma(0, 800), 100);
	assert_int_equal(lavd_ewma(5, 5), 5);
	assert_int_equal(lavd_ewma(5, 4), 4); /* floors */
	assert_int_equal(lavd_ewma(1, 0), 0); /* reaches zero */
	for (int i = 0; i < 200; i++)
		v = lavd_ewma(v, 1000000);
	assert_true(v > 999900 && v <= 1000000);
	/* no overflow near the top: stays between the two inputs */
	assert_true(lavd_ewma(MAX64, MAX64) >= MAX64 - 8);
	assert_true(lavd_ewma(MAX64, 0) <= MAX64 && lavd_ewma(MAX64, 0) > MAX64 / 2);
	assert_true(lavd_ewma(0, MAX64) == MAX64 >> 3);
}

static void freq_sample_and_converge(void **state)
{
	uint64_t f = 0;

	(void)state;
	assert_int_equal(lavd_freq_hz(lavd_freq_sample(SEC)), 1);
	assert_int_equal(lavd_freq_hz(lavd_freq_sample(MS)), 1000);
	assert_int_equal(lavd_freq_sample(0), LAVD_FREQ_FP_MAX);
	assert_int_equal(lavd_freq_sample(1), LAVD_FREQ_FP_MAX);
	assert_int_equal(lavd_freq_sample(MAX64), 0);
	/* 1 Hz survives the fixed point: a hog's wait_freq is not lost */
	for (int i = 0; i < 100; i++)
		f = lavd_freq_update(f, SEC);
	assert_int_equal(lavd_freq_hz(f), 1);
	/* a 120 Hz period converges to 120 Hz */
	f = 0;
	for (int i = 0; i < 200; i++)
		f = lavd_freq_update(f, SEC / 120);
	assert_true(lavd_freq_hz(f) >= 119 && lavd_freq_hz(f) <= 120);
	/* capped */
	for (int i = 0; i < 10; i++)
		f = lavd_freq_update(f, 1);
	assert_true(f <= LAVD_FREQ_FP_MAX);
}

/* Our decision: frequencies decay with the time since the last event. */
static void freq_decays_with_time(void **state)
{
	uint64_t f = 120ULL << LAVD_FREQ_SHIFT, prev = f;

	(void)state;
	/* within twice the mean interval (16.7 ms): untouched */
	assert_int_equal(lavd_freq_decay(f, 0), f);
	assert_int_equal(lavd_freq_decay(f, 8 * MS), f);
	assert_int_equal(lavd_freq_decay(f, 16 * MS), f);
	/* beyond: follows 2 s / elapsed, monotonically down */
	assert_int_equal(lavd_freq_hz(lavd_freq_decay(f, 100 * MS)), 20);
	assert_int_equal(lavd_freq_hz(lavd_freq_decay(f, 2 * SEC)), 1);
	assert_int_equal(lavd_freq_hz(lavd_freq_decay(f, 10 * SEC)), 0);
	assert_int_equal(lavd_freq_decay(f, MAX64), 0);
	for (uint64_t t = 1; t < 100 * SEC; t = t * 3 / 2 + 1) {
		uint64_t d = lavd_freq_decay(f, t);

		assert_true(d <= prev);
		prev = d;
	}
	/* the reference keeps the old value; a stale waker here loses it
	 * at its next wakeup too: one event after 10 s reads ~ 0.2 Hz */
	assert_true(lavd_freq_hz(lavd_freq_update(f, 10 * SEC)) == 0);
	/* decay keeps a long-silent thread out of the critical range */
	assert_true(lavd_lat_cri(lavd_freq_hz(lavd_freq_decay(f, 5 * SEC)),
				 lavd_freq_hz(lavd_freq_decay(f, 5 * SEC)),
				 MS, 100, 0) <
		    lavd_lat_cri(120, 120, MS, 100, 0));
}

static void svc_and_lag(void **state)
{
	__u64 svc;
	int64_t lag;

	(void)state;
	assert_int_equal(lavd_svc_delta(MS, 100), MS);
	assert_int_equal(lavd_svc_delta(MS, 1000), MS / 10);
	assert_int_equal(lavd_svc_delta(MS, 1), 100 * MS);
	assert_int_equal(lavd_svc_delta(MS, 0), 100 * MS); /* clamped weight */
	assert_int_equal(lavd_svc_delta(MAX64, 1), (1ULL << 56) * 100);
	assert_int_equal(lavd_lag_max(100), 500 * MS);
	assert_int_equal(lavd_lag_max(1000), 50 * MS);
	assert_int_equal(lavd_lag_max(0), 50000 * MS);
	assert_int_equal(lavd_lag_max(MAX64), 5 * MS);

	/* under-served: positive lag, not greedy */
	svc = 1000 * MS;
	lag = lavd_lag(1100 * MS, &svc, 100);
	assert_true(lag == (int64_t)(100 * MS));
	assert_int_equal(svc, 1000 * MS);
	/* over-served: negative lag, greedy */
	svc = 1300 * MS;
	lag = lavd_lag(1100 * MS, &svc, 100);
	assert_true(lag == -(int64_t)(200 * MS));
	/* a long sleeper is clamped and its service raised */
	svc = 0;
	lag = lavd_lag(10 * SEC, &svc, 100);
	assert_true(lag == (int64_t)(500 * MS));
	assert_int_equal(svc, 10 * SEC - 500 * MS);
	/* a hog far ahead is clamped to -lag_max, its service kept */
	svc = 100 * SEC;
	lag = lavd_lag(SEC, &svc, 100);
	assert_true(lag == -(int64_t)(500 * MS));
	assert_int_equal(svc, 100 * SEC);
	/* extremes */
	svc = MAX64;
	assert_true(lavd_lag(0, &svc, 100) == -(int64_t)(500 * MS));
	svc = 0;
	assert_true(lavd_lag(MAX64, &svc, 100) == (int64_t)(500 * MS));
	assert_int_equal(svc, MAX64 - 500 * MS);
}

/*
 * Our decision: lag is taken against the average service of the runnable
 * tasks. With two tasks runnable, the one that ran more is greedy and the
 * other is not; after they get equal service neither is.
 */
static void eevdf_lag_means_greedy(void **state)
{
	__u64 a = 0, b = 0, avg;

	(void)state;
	a += lavd_svc_delta(30 * MS, 100); /* a ran 30 ms, b 10 ms */
	b += lavd_svc_delta(10 * MS, 100);
	avg = (a + b) / 2;
	assert_true(lavd_lag(avg, &a, 100) < 0);
	assert_true(lavd_lag(avg, &b, 100) > 0);
	b += lavd_svc_delta(20 * MS, 100);
	avg = (a + b) / 2;
	assert_true(lavd_lag(avg, &a, 100) == 0);
	assert_true(lavd_lag(avg, &b, 100) == 0);
	/* a heavier task (nice -5, weight ~ 335) is charged less per ms */
	assert_true(lavd_svc_delta(10 * MS, 335) < lavd_svc_delta(10 * MS, 100));
}

static void penalty_range_and_order(void **state)
{
	uint64_t lm = lavd_lag_max(100), prev = 0;

	(void)state;
	assert_int_equal(lavd_greedy_penalty((int64_t)lm, 100), 1024);
	assert_int_equal(lavd_greedy_penalty(0, 100), 1536);
	assert_int_equal(lavd_greedy_penalty(-(int64_t)lm, 100), 2048);
	assert_int_equal(lavd_greedy_penalty(INT64_MAX, 100), 1024);
	assert_int_equal(lavd_greedy_penalty(INT64_MIN, 100), 2048);
	assert_int_equal(lavd_greedy_penalty(INT64_MIN, 1), 2048);
	assert_int_equal(lavd_greedy_penalty(INT64_MAX, MAX64), 1024);
	/* more greedy (smaller lag) never gets a smaller penalty */
	for (int64_t lag = (int64_t)lm; lag >= -(int64_t)lm; lag -= (int64_t)(7 * MS)) {
		uint64_t p = lavd_greedy_penalty(lag, 100);

		assert_true(p >= 1024 && p <= 2048);
		assert_true(p >= prev);
		prev = p;
	}
}

static void deadline_properties(void **state)
{
	(void)state;
	/* 10 ms * 1.0 / 400 = 25 us */
	assert_int_equal(lavd_deadline_delta(MAX64, 1024, 400), 25000);
	assert_int_equal(lavd_deadline_delta(0, 1024, 400), 12500);
	/* greedy doubles it */
	assert_int_equal(lavd_deadline_delta(0, 2048, 400), 25000);
	/* monotonic in acc_runtime up to 5 ms, flat beyond */
	assert_true(lavd_deadline_delta(MS, 1024, 400) <
		    lavd_deadline_delta(2 * MS, 1024, 400));
	assert_int_equal(lavd_deadline_delta(5 * MS, 1024, 400),
			 lavd_deadline_delta(50 * MS, 1024, 400));
	/* clamps: penalty to [1x, 2x], lat_cri >= 1 */
	assert_int_equal(lavd_deadline_delta(0, 0, 400),
			 lavd_deadline_delta(0, 1024, 400));
	assert_int_equal(lavd_deadline_delta(0, MAX64, 400),
			 lavd_deadline_delta(0, 2048, 400));
	assert_int_equal(lavd_deadline_delta(MAX64, MAX64, 0), 20 * MS);
	assert_true(lavd_deadline_delta(MAX64, MAX64, MAX64) < 100);
}

static void clock_and_vtime(void **state)
{
	(void)state;
	const uint64_t w = LAVD_DL_COMPETE_WINDOW;

	assert_int_equal(lavd_vtime(0, w, 10), 10);
	assert_int_equal(lavd_vtime(SEC, w, 0), SEC - LAVD_DL_COMPETE_WINDOW);
	assert_int_equal(LAVD_DL_COMPETE_WINDOW, 4577); /* 300 ms >> 16 */
	assert_int_equal(lavd_vtime(MAX64, w, MAX64), MAX64);
	assert_int_equal(lavd_vtime(MAX64, MAX64, MAX64), MAX64);
	/* the clock never goes back and moves by distance / queued */
	assert_int_equal(lavd_clock_advance(1000, 500, 3), 1000);
	assert_int_equal(lavd_clock_advance(1000, 1300, 3), 1100);
	assert_int_equal(lavd_clock_advance(1000, 1300, 0), 1300);
	assert_int_equal(lavd_clock_advance(0, MAX64, 1), MAX64);
	assert_int_equal(lavd_clock_advance(MAX64 - 1, MAX64, MAX64), MAX64 - 1);
}

/* The compete window shrinks when more tasks wait than there are CPUs. */
static void compete_window(void **state)
{
	uint64_t prev = MAX64;

	(void)state;
	assert_int_equal(lavd_compete_window(2, 0), LAVD_DL_COMPETE_WINDOW);
	assert_int_equal(lavd_compete_window(2, 2), LAVD_DL_COMPETE_WINDOW);
	assert_int_equal(lavd_compete_window(2, 4), LAVD_DL_COMPETE_WINDOW / 2);
	assert_int_equal(lavd_compete_window(0, 0), LAVD_DL_COMPETE_WINDOW);
	assert_int_equal(lavd_compete_window(MAX64, MAX64), 0); /* CPUs clamp at 65536 */
	assert_int_equal(lavd_compete_window(1, MAX64), 0);
	for (uint64_t q = 0; q < 100; q++) {
		uint64_t w = lavd_compete_window(4, q);

		assert_true(w <= prev);
		prev = w;
	}
}

/*
 * No unbounded waiting: a queued task with a large dl_delta (a hog) is
 * overtaken by a steady stream of critical tasks only until the clock,
 * advanced by each of them, reaches it. Simulates the queue with the
 * shrunk window; with the full window and these inputs the clock would
 * never move (every critical vtime is behind it).
 */
static void clock_progress_bounds_waiting(void **state)
{
	const uint64_t nr_active = 2, nr_queued = 10;
	uint64_t clock = 1000 * SEC, hog, served = 0;
	uint64_t crit_dl = lavd_deadline_delta(0, 1024, 2304); /* ~4.3 us */
	uint64_t hog_dl = lavd_deadline_delta(5 * MS, 2048, 400);

	(void)state;
	assert_true(crit_dl < LAVD_DL_COMPETE_WINDOW);
	hog = lavd_vtime(clock, lavd_compete_window(nr_active, nr_queued), hog_dl);
	for (;;) {
		uint64_t v = lavd_vtime(clock, lavd_compete_window(nr_active, nr_queued),
					crit_dl);

		if (hog <= v)
			break;		/* the hog is now the earliest */
		clock = lavd_clock_advance(clock, v, nr_queued);
		served++;
		assert_true(served < 100000);
	}
	assert_true(served > 0);
	/* the full window would have stalled the clock for good */
	assert_int_equal(lavd_clock_advance(clock, lavd_vtime(clock,
			 LAVD_DL_COMPETE_WINDOW, crit_dl), nr_queued), clock);
}

static void system_slice(void **state)
{
	const uint64_t lo = LAVD_SLICE_MIN_DFL, hi = LAVD_SLICE_MAX_DFL;
	uint64_t s = 0, prev = MAX64;

	(void)state;
	assert_int_equal(lavd_sys_slice(0, 2, 0, lo, hi), hi); /* nothing waits */
	assert_int_equal(lavd_sys_slice(0, 2, 4, lo, hi), hi); /* 20/4 = 5 ms */
	assert_int_equal(lavd_sys_slice(0, 2, 8, lo, hi), 2500 * US);
	assert_int_equal(lavd_sys_slice(0, 2, 1000, lo, hi), lo); /* clamped */
	assert_int_equal(lavd_sys_slice(0, MAX64, 1, lo, hi), hi);
	assert_int_equal(lavd_sys_slice(0, 0, MAX64, lo, hi), lo);
	assert_int_equal(lavd_sys_slice(MAX64, 2, 8, lo, hi), hi); /* clamped old */
	/* the EWMA moves towards the target */
	for (int i = 0; i < 100; i++)
		s = lavd_sys_slice(s ? s : hi, 2, 8, lo, hi);
	assert_true(s >= 2500 * US && s <= 2510 * US);
	/* more waiting tasks never lengthen the target */
	for (uint64_t q = 1; q < 200; q++) {
		uint64_t t = lavd_sys_slice(0, 4, q, lo, hi);

		assert_true(t <= prev && t >= lo && t <= hi);
		prev = t;
	}
	/* user limits are respected, even inverted ones */
	assert_int_equal(lavd_sys_slice(0, 2, 1000, 2 * MS, 3 * MS), 2 * MS);
	assert_int_equal(lavd_sys_slice(0, 2, 1000, 4 * MS, 3 * MS), 3 * MS);
}

/* EDF along wake chains: the earlier of the two, bounded behind the clock */
static void chain_deadline(void **state)
{
	const __u64 ms = 1000000ULL, clock = 100 * ms;

	(void)state;
	/* nothing inherited, or a later one: its own */
	assert_int_equal(lavd_chain_deadline(clock + 5 * ms, 0, clock, false), clock + 5 * ms);
	assert_int_equal(lavd_chain_deadline(clock + 5 * ms, clock + 6 * ms, clock, false),
			 clock + 5 * ms);
	/* an earlier waker's deadline is kept */
	assert_int_equal(lavd_chain_deadline(clock + 5 * ms, clock + 2 * ms, clock, false),
			 clock + 2 * ms);
	/* a greedy wakee keeps its own */
	assert_int_equal(lavd_chain_deadline(clock + 5 * ms, clock + 2 * ms, clock, true),
			 clock + 5 * ms);
	/* an old deadline is held at LAVD_CHAIN_LEAD_MAX behind the clock */
	assert_int_equal(lavd_chain_deadline(clock + 5 * ms, clock - 40 * ms, clock, false),
			 clock - LAVD_CHAIN_LEAD_MAX);
	/* ... and the floor never makes it later than its own */
	assert_int_equal(lavd_chain_deadline(clock - 2 * ms, clock - 40 * ms, clock, false),
			 clock - 2 * ms);
	/* a clock near zero does not wrap */
	assert_int_equal(lavd_chain_deadline(3 * ms, 1, 0, false), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log2x_counts_bits),
		cmocka_unit_test(typical_requeued_hog),
		cmocka_unit_test(typical_game_thread),
		cmocka_unit_test(typical_irq_thread),
		cmocka_unit_test(typical_ordering),
		cmocka_unit_test(lat_cri_monotonic),
		cmocka_unit_test(lat_cri_no_overflow),
		cmocka_unit_test(inherit_rules),
		cmocka_unit_test(ewma_behaviour),
		cmocka_unit_test(freq_sample_and_converge),
		cmocka_unit_test(freq_decays_with_time),
		cmocka_unit_test(svc_and_lag),
		cmocka_unit_test(eevdf_lag_means_greedy),
		cmocka_unit_test(penalty_range_and_order),
		cmocka_unit_test(deadline_properties),
		cmocka_unit_test(clock_and_vtime),
		cmocka_unit_test(compete_window),
		cmocka_unit_test(chain_deadline),
		cmocka_unit_test(clock_progress_bounds_waiting),
		cmocka_unit_test(system_slice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
