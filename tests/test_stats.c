// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of lib/stats: hand-computed cases for every definition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "rng.h"
#include "stats.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* docs/formats.md: 9950 frames at 16.667 ms and 50 at 50 ms give
 * 60 / 30 / 20 FPS for percentile / low-average / integral. */
static void worked_example(void **state)
{
	double *ft = malloc(10000 * sizeof(*ft));
	struct gs_fps_summary s;

	(void)state;
	for (int i = 0; i < 10000; i++)
		ft[i] = i % 200 == 7 ? 50.0 : 16.667; /* 50 slow ones spread */
	assert_int_equal(gs_fps_summarize(ft, 10000, 16.667, NULL, &s), 0);
	assert_int_equal(s.frames, 10000);
	NEAR(s.low1_percentile_fps, 1000.0 / 16.667, 1e-9);
	NEAR(s.low1_percentile_fps, 60.0, 0.01);
	NEAR(s.low1_average_fps, 30.0, 0.01);
	NEAR(s.low1_integral_fps, 20.0, 1e-9);
	/* 0.1 %: the slowest 10 frames are all 50 ms */
	NEAR(s.low01_percentile_fps, 20.0, 1e-9);
	NEAR(s.low01_average_fps, 20.0, 1e-9);
	NEAR(s.low01_integral_fps, 20.0, 1e-9);
	NEAR(s.min_fps, 20.0, 1e-9);
	/* average FPS is frames / total time */
	NEAR(s.avg_fps, 10000.0 * 1000.0 / (9950 * 16.667 + 50 * 50.0), 1e-9);
	NEAR(s.ft_p50, 16.667, 1e-12);
	NEAR(s.ft_max, 50.0, 1e-12);
	assert_int_equal(s.stutter_1_5x, 50);
	assert_int_equal(s.stutter_2x, 50);
	assert_false(s.low01_unreliable);
	assert_false(s.low1_unreliable);
	free(ft);
}

static void avg_fps_is_not_mean_of_fps(void **state)
{
	/* 10 ms and 30 ms: mean of FPS would be 66.7, frames/time is 50 */
	double ft[] = { 10.0, 30.0 };
	struct gs_fps_summary s;

	(void)state;
	assert_int_equal(gs_fps_summarize(ft, 2, 0, NULL, &s), 0);
	NEAR(s.avg_fps, 50.0, 1e-12);
	assert_true(s.low01_unreliable);
	assert_true(s.low1_unreliable);
	assert_int_equal(s.stutter_1_5x, 0); /* no target: no stutter count */
}

static void stutter_thresholds_are_strict(void **state)
{
	/* target 10 ms: 15.0 is not above 1.5x, 15.1 is; 20.0 not above 2x */
	double ft[] = { 10, 15.0, 15.1, 20.0, 20.5 };
	struct gs_fps_summary s;

	(void)state;
	assert_int_equal(gs_fps_summarize(ft, 5, 10.0, NULL, &s), 0);
	assert_int_equal(s.stutter_1_5x, 3);
	assert_int_equal(s.stutter_2x, 1);
}

static void summarize_rejects_empty(void **state)
{
	struct gs_fps_summary s;

	(void)state;
	assert_int_equal(gs_fps_summarize(NULL, 0, 0, NULL, &s), -1);
}

static void percentiles_by_hand(void **state)
{
	double v[] = { 15, 20, 35, 40, 50 };

	(void)state;
	/* nearest rank (Wikipedia's example): P30 = 20, P40 = 20, P50 = 35,
	 * P100 = 50, P0 = minimum */
	NEAR(gs_pct_nearest(v, 5, 30), 20, 0);
	NEAR(gs_pct_nearest(v, 5, 40), 20, 0);
	NEAR(gs_pct_nearest(v, 5, 50), 35, 0);
	NEAR(gs_pct_nearest(v, 5, 100), 50, 0);
	NEAR(gs_pct_nearest(v, 5, 0), 15, 0);
	/* linear: position p/100*(n-1): P40 -> 1.6 -> 20 + 0.6*15 = 29 */
	NEAR(gs_pct_linear(v, 5, 40), 29, 1e-12);
	NEAR(gs_pct_linear(v, 5, 50), 35, 1e-12);
	NEAR(gs_pct_linear(v, 5, 100), 50, 1e-12);
	assert_true(isnan(gs_pct_nearest(v, 0, 50)));
	assert_true(isnan(gs_pct_linear(v, 0, 50)));
}

static void nearest_rank_is_exact_at_boundaries(void **state)
{
	/* 0.99 * 100 in floating point is 99.00000000000001: the rank must
	 * still be 99, not 100 */
	double v[100];

	(void)state;
	for (int i = 0; i < 100; i++)
		v[i] = i + 1;
	NEAR(gs_pct_nearest(v, 100, 99), 99, 0);
	NEAR(gs_pct_nearest(v, 100, 99.9), 100, 0);
	NEAR(gs_pct_nearest(v, 100, 1), 1, 0);
}

static void lows_small_cases(void **state)
{
	/* 4 frames sorted: 10 10 10 40. 1 %: percentile -> P99 rank 4 -> 40;
	 * low average over ceil(0.04)=1 frame -> 40; integral: total 70,
	 * target 0.7, first descending frame 40 */
	double v[] = { 10, 10, 10, 40 };

	(void)state;
	NEAR(gs_low_percentile_fps(v, 4, 0.01), 25, 1e-12);
	NEAR(gs_low_average_fps(v, 4, 0.01), 25, 1e-12);
	NEAR(gs_low_integral_fps(v, 4, 0.01), 25, 1e-12);
	/* 50 % lows: percentile P50 rank 2 -> 10 ms; average of slowest
	 * 2 -> 25 ms -> 40 FPS; integral: target 35, 40 >= 35 -> 40 ms */
	NEAR(gs_low_percentile_fps(v, 4, 0.5), 100, 1e-12);
	NEAR(gs_low_average_fps(v, 4, 0.5), 40, 1e-12);
	NEAR(gs_low_integral_fps(v, 4, 0.5), 25, 1e-12);
	NEAR(gs_low_average_fps(v, 0, 0.01), 0, 0);
}

static void mean_stddev_cv(void **state)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	(void)state;
	NEAR(gs_mean(v, 8), 5, 1e-12);
	/* sample stddev: sum sq dev = 32, / 7 */
	NEAR(gs_stddev(v, 8), sqrt(32.0 / 7.0), 1e-12);
	NEAR(gs_cv(v, 8), sqrt(32.0 / 7.0) / 5.0, 1e-12);
	NEAR(gs_stddev(v, 1), 0, 0);
}

static void samples_grow(void **state)
{
	struct gs_samples s;

	(void)state;
	gs_samples_init(&s);
	for (int i = 0; i < 5000; i++)
		assert_int_equal(gs_samples_push(&s, i), 0);
	assert_int_equal(s.n, 5000);
	NEAR(s.v[4999], 4999, 0);
	gs_samples_free(&s);
	assert_null(s.v);
}

static void hist_exact_below_64(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 64; v++) {
		uint64_t lo, hi;

		gs_hist_bucket_range(gs_hist_index(v), &lo, &hi);
		assert_int_equal(lo, v);
		assert_int_equal(hi, v);
	}
}

static void hist_buckets_cover_and_bound_error(void **state)
{
	struct gs_rng r;

	(void)state;
	gs_rng_seed(&r, 42);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = gs_rng_next(&r) >> gs_rng_below(&r, 64), lo, hi;
		unsigned idx = gs_hist_index(v);

		assert_true(idx < GS_HIST_BUCKETS);
		gs_hist_bucket_range(idx, &lo, &hi);
		assert_true(lo <= v && v <= hi);
		/* bucket width at most 1/32 of its lower bound */
		assert_true(hi - lo <= lo / 32);
	}
	assert_int_equal(gs_hist_index(UINT64_MAX), GS_HIST_BUCKETS - 1);
}

static void hist_percentiles(void **state)
{
	struct gs_hist h, h2;

	(void)state;
	gs_hist_init(&h);
	assert_int_equal(gs_hist_pct(&h, 50), 0);
	for (uint64_t v = 1; v <= 1000; v++)
		gs_hist_add(&h, v * 1000); /* 1 us .. 1 ms */
	assert_int_equal(h.count, 1000);
	assert_int_equal(gs_hist_pct(&h, 100), 1000000);
	/* p50 is 500 us within the 1/32 bucket resolution */
	assert_true(gs_hist_pct(&h, 50) >= 500000);
	assert_true(gs_hist_pct(&h, 50) <= 500000 + 500000 / 32);
	assert_true(gs_hist_pct(&h, 99) >= 990000);
	assert_true(gs_hist_pct(&h, 0) >= 1000);
	NEAR(gs_hist_mean(&h), 500500, 1e-6);

	gs_hist_init(&h2);
	gs_hist_add(&h2, 7);
	gs_hist_merge(&h, &h2);
	assert_int_equal(h.count, 1001);
	assert_int_equal(h.min, 7);
	assert_int_equal(gs_hist_pct(&h, 0), 7);
}

static void bootstrap_is_reproducible_and_covers(void **state)
{
	double v[31], lo, hi, lo2, hi2;

	(void)state;
	for (int i = 0; i < 31; i++)
		v[i] = 100 + (i * 7) % 31; /* 100..130, median 115 */
	assert_int_equal(gs_bootstrap_median_ci(v, 31, 0.95, 2000, 1, &lo, &hi),
			 0);
	assert_true(lo <= 115 && 115 <= hi);
	assert_true(lo >= 100 && hi <= 130 && hi - lo < 20);
	assert_int_equal(
		gs_bootstrap_median_ci(v, 31, 0.95, 2000, 1, &lo2, &hi2), 0);
	NEAR(lo, lo2, 0);
	NEAR(hi, hi2, 0);
	assert_int_equal(gs_bootstrap_median_ci(v, 0, 0.95, 2000, 1, &lo, &hi),
			 -1);
}

static void bootstrap_ratio(void **state)
{
	double a[20], b[20], lo, hi;

	(void)state;
	for (int i = 0; i < 20; i++) {
		a[i] = 100 + i % 5;
		b[i] = 2 * a[i];
	}
	assert_int_equal(
		gs_bootstrap_ratio_ci(a, 20, b, 20, 0.95, 1000, 3, &lo, &hi), 0);
	assert_true(lo > 1.9 && hi < 2.1);
	assert_true(lo <= 2.0 && 2.0 <= hi);
}

static void mann_whitney_exact(void **state)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, u;
	double p;

	(void)state;
	/* complete separation of 5 vs 5: 2 / C(10,5) = 2/252 */
	p = gs_mann_whitney_p(a, 5, b, 5, &u);
	NEAR(u, 0, 0);
	NEAR(p, 2.0 / 252.0, 1e-12);
	/* symmetric in direction */
	NEAR(gs_mann_whitney_p(b, 5, a, 5, &u), p, 1e-12);
	NEAR(u, 25, 0);
	/* 3 vs 3 interleaved a<b<a<b<a<b: U = 0+1+2 = 3; P(U<=3) = 7/20 */
	{
		double x[] = { 1, 3, 5 }, y[] = { 2, 4, 6 };

		p = gs_mann_whitney_p(x, 3, y, 3, &u);
		NEAR(u, 3, 0);
		NEAR(p, 0.7, 1e-12);
	}
	assert_true(isnan(gs_mann_whitney_p(a, 0, b, 5, NULL)));
}

static void mann_whitney_normal_with_ties(void **state)
{
	double a[40], b[40];
	double p_same, p_diff;

	(void)state;
	for (int i = 0; i < 40; i++) {
		a[i] = i % 10;
		b[i] = i % 10;
	}
	p_same = gs_mann_whitney_p(a, 40, b, 40, NULL);
	NEAR(p_same, 1.0, 1e-9);
	for (int i = 0; i < 40; i++)
		b[i] = 5 + i % 10;
	p_diff = gs_mann_whitney_p(a, 40, b, 40, NULL);
	assert_true(p_diff < 0.001);
	/* all values tied: no information, p = 1 */
	for (int i = 0; i < 40; i++)
		a[i] = b[i] = 3;
	NEAR(gs_mann_whitney_p(a, 40, b, 40, NULL), 1.0, 0);
}

static void rng_is_deterministic(void **state)
{
	struct gs_rng a, b;

	(void)state;
	gs_rng_seed(&a, 12345);
	gs_rng_seed(&b, 12345);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(gs_rng_next(&a), gs_rng_next(&b));
	for (int i = 0; i < 1000; i++) {
		double u = gs_rng_unit(&a);

		assert_true(u >= 0 && u < 1);
		assert_true(gs_rng_below(&a, 7) < 7);
	}
	/* splitmix64 reference value for seed 0 (first output) */
	{
		uint64_t x = 0;

		assert_int_equal(gs_splitmix64(&x), 0xe220a8397b1dcdafULL);
	}
}

/* Welch's t: 3 / sqrt(1/3 + 1/3) for {1,2,3} against {4,5,6}; NaN with
 * one value; infinite between two constants. */
static void welch_t(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 7, 7 };

	(void)state;
	assert_true(fabs(gs_welch_t(a, 3, b, 3) - 3 / sqrt(2.0 / 3)) < 1e-12);
	assert_true(fabs(gs_welch_t(b, 3, a, 3) + 3 / sqrt(2.0 / 3)) < 1e-12);
	assert_true(isnan(gs_welch_t(a, 1, b, 3)));
	assert_true(isinf(gs_welch_t(c, 2, (const double[]){ 8, 8 }, 2)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worked_example),
		cmocka_unit_test(avg_fps_is_not_mean_of_fps),
		cmocka_unit_test(stutter_thresholds_are_strict),
		cmocka_unit_test(summarize_rejects_empty),
		cmocka_unit_test(percentiles_by_hand),
		cmocka_unit_test(nearest_rank_is_exact_at_boundaries),
		cmocka_unit_test(lows_small_cases),
		cmocka_unit_test(mean_stddev_cv),
		cmocka_unit_test(samples_grow),
		cmocka_unit_test(hist_exact_below_64),
		cmocka_unit_test(hist_buckets_cover_and_bound_error),
		cmocka_unit_test(hist_percentiles),
		cmocka_unit_test(bootstrap_is_reproducible_and_covers),
		cmocka_unit_test(bootstrap_ratio),
		cmocka_unit_test(mann_whitney_exact),
		cmocka_unit_test(mann_whitney_normal_with_ties),
		cmocka_unit_test(rng_is_deterministic),
		cmocka_unit_test(welch_t),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
