// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arithmetic of frametrace profile's derivation (profile_fit.h): the
 * distribution fits and their edges, period and vsync detection, the
 * names a derived profile gives threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_fit.h"
#include "test_frametrace.h"

/* ---- arithmetic ---------------------------------------------------------- */

static double gauss(void)
{
	double u = rnd() + 1e-12, v = rnd();

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void fit(const double *x, size_t n, struct ft_pf_dist *d)
{
	struct ft_pf_sum s;

	assert_int_equal(ft_pf_summarize(x, n, &s), 0);
	ft_pf_fit(&s, d);
}

static void test_fit_kinds(void **state)
{
	double x[2000];
	struct ft_pf_dist d;
	char buf[64];

	(void)state;
	for (int i = 0; i < 2000; i++)
		x[i] = 250000 + (i % 7);	/* 250 us, a few ns of noise */
	fit(x, 2000, &d);
	assert_int_equal(d.kind, PF_FIXED);
	assert_true(fabs(d.a - 250003) < 10);
	ft_pf_dist_text(&d, buf, sizeof(buf));
	assert_string_equal(buf, "250.0us");

	for (int i = 0; i < 2000; i++)
		x[i] = 200000 + 600000 * rnd();	/* 200us..800us */
	fit(x, 2000, &d);
	assert_int_equal(d.kind, PF_UNIFORM);
	assert_true(fabs(d.a - 200000) < 20000);
	assert_true(fabs(d.b - 800000) < 20000);

	for (int i = 0; i < 2000; i++)
		x[i] = 1000000 + 200000 * gauss();	/* 1ms~200us */
	fit(x, 2000, &d);
	assert_int_equal(d.kind, PF_NORMAL);
	assert_true(fabs(d.a - 1000000) < 20000);
	assert_true(fabs(d.b - 200000) < 20000);
	ft_pf_dist_text(&d, buf, sizeof(buf));
	assert_non_null(strchr(buf, '~'));

	/* a right-leaning sample (a frame's tiles: most quick, some slow):
	 * two-piece, its median kept (a normal's would be the mean) */
	for (int i = 0; i < 2000; i++)
		x[i] = 1000000 * exp(0.4 * gauss());
	fit(x, 2000, &d);
	assert_int_equal(d.kind, PF_TWOPIECE);
	assert_true(fabs(d.a - 1000000) < 40000);	/* the median, e^0 */
	assert_true(d.c > 1.3 * d.b);			/* the longer side above */
	assert_true(fabs(ft_pf_dist_mean(&d) - 1000000 * exp(0.08)) < 40000);
	ft_pf_dist_text(&d, buf, sizeof(buf));
	assert_non_null(strchr(buf, '/'));

	/* outliers (1 %) do not turn a flat sample into a normal one */
	for (int i = 0; i < 2000; i++)
		x[i] = i % 100 ? 200000 + 600000 * rnd() : 5000000;
	fit(x, 2000, &d);
	assert_int_equal(d.kind, PF_UNIFORM);
}

static void test_fit_edges(void **state)
{
	double x[400];
	struct ft_pf_dist d;
	struct ft_pf_sum s;
	char buf[64];

	(void)state;
	/* a flat sample near 0: the range starts at 0 and keeps the mean */
	for (int i = 0; i < 400; i++)
		x[i] = 30000 * rnd();
	fit(x, 400, &d);
	assert_int_equal(d.kind, PF_UNIFORM);
	assert_true(d.a >= 0);
	assert_true(fabs(ft_pf_dist_mean(&d) - 15000) < 2000);
	/* no sample: fixed 0 */
	assert_int_equal(ft_pf_summarize(x, 0, &s), 0);
	ft_pf_fit(&s, &d);
	assert_int_equal(d.kind, PF_FIXED);
	assert_true(d.a == 0);
	/* nearest-rank percentiles */
	for (int i = 0; i < 100; i++)
		x[i] = i + 1;
	assert_int_equal(ft_pf_summarize(x, 100, &s), 0);
	assert_true(s.p50 == 50 && s.p90 == 90 && s.p99 == 99 && s.max == 100);
	/* text stays within framebench's bounds and a <= b */
	d = (struct ft_pf_dist){ PF_UNIFORM, -5, 2e9 };
	ft_pf_dist_text(&d, buf, sizeof(buf));
	assert_string_equal(buf, "0.0us..1000000.0us");
	d = (struct ft_pf_dist){ PF_UNIFORM, 1000, 1020 };	/* rounds to one value */
	ft_pf_dist_text(&d, buf, sizeof(buf));
	assert_string_equal(buf, "1.0us");
	d = (struct ft_pf_dist){ PF_NORMAL, 1000, 10 };
	ft_pf_dist_scale(&d, 2);
	assert_true(d.a == 2000 && d.b == 20);
}

static void test_period(void **state)
{
	uint64_t ts[400];
	double share;
	size_t n = 0;

	(void)state;
	/* an absolute 5.333 ms timer, woken up to 300 us late, two ticks lost */
	for (int k = 0; k < 402; k++) {
		if (k == 50 || k == 51)
			continue;
		ts[n++] = T0 + (uint64_t)k * 5333333 + (uint64_t)(300000 * rnd());
	}
	assert_true(llabs((long long)ft_pf_period(ts, n, &share) - 5333333) < 2000);
	assert_true(share > 0.95);
	/* random wake-ups: no period */
	n = 0;
	for (int k = 0; k < 400; k++)
		ts[n++] = T0 + (uint64_t)k * 5000000 + (uint64_t)(4900000 * rnd());
	assert_int_equal(ft_pf_period(ts, n, &share), 0);
	/* too few */
	assert_int_equal(ft_pf_period(ts, 5, NULL), 0);
}

static void test_vsync(void **state)
{
	uint64_t p[1000];
	double share;
	uint64_t t = T0;

	(void)state;
	/* 60 Hz: presented at the tick plus up to 1 ms (10 % up to 6 ms),
	 * every 20th frame misses a tick; 1000 frames (17 s: the period's
	 * error adds up over the blocks) */
	for (int k = 0, tick = 0; k < 1000; k++, tick++) {
		double late = k % 10 ? 1e6 * rnd() : 6e6 * rnd();

		if (k % 20 == 19)
			tick++;
		p[k] = T0 + (uint64_t)tick * 16666667ULL + (uint64_t)late;
	}
	assert_true(llabs((long long)ft_pf_vsync_period(p, 1000, &share) - 16666667) < 100000);
	assert_true(share > 0.8);
	/* uncapped: 1-2 ms frames */
	for (int k = 0; k < 1000; k++) {
		t += 1000000 + (uint64_t)(1000000 * rnd());
		p[k] = t;
	}
	assert_int_equal(ft_pf_vsync_period(p, 1000, &share), 0);
	assert_true(share < 0.5);
	/* uncapped around one interval with 15 % spread: still not a grid */
	t = T0;
	for (int k = 0; k < 1000; k++) {
		t += (uint64_t)(4000000 * (1 + 0.15 * gauss()));
		p[k] = t;
	}
	assert_int_equal(ft_pf_vsync_period(p, 1000, NULL), 0);
}

static void test_names(void **state)
{
	char s[32];

	(void)state;
	ft_pf_stem("llvmpipe-3", s, sizeof(s));
	assert_string_equal(s, "llvmpipe");
	ft_pf_stem("fb-worker12", s, sizeof(s));
	assert_string_equal(s, "fb-worker");
	ft_pf_stem("TaskGraphNP 7", s, sizeof(s));
	assert_string_equal(s, "TaskGraphNP");
	ft_pf_stem("ProtonGame.exe", s, sizeof(s));
	assert_string_equal(s, "ProtonGame.exe");
	ft_pf_stem("1234", s, sizeof(s));
	assert_string_equal(s, "1234");
	ft_pf_name("fb-game", s, sizeof(s));
	assert_string_equal(s, "game");
	ft_pf_name("RenderThread 1", s, sizeof(s));
	assert_string_equal(s, "RenderThread_1");
	ft_pf_name("", s, sizeof(s));
	assert_string_equal(s, "t");
	ft_pf_name("fb-", s, sizeof(s));
	assert_string_equal(s, "fb-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_kinds),
		cmocka_unit_test(test_fit_edges),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_vsync),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
