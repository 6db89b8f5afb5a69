// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the parts of a framebench run: the background load and
 * the disturbances (their options, the window arithmetic, the JSON form),
 * calibrated work, and the results' CPU usage.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bg.h"
#include "disturb.h"
#include "json.h"
#include "report.h"
#include "work.h"

static char err[1024];

static void test_bg_parse(void **state)
{
	struct fb_bg_spec s;

	(void)state;
	assert_int_equal(fb_bg_parse("hogs", 2, &s), 0);
	assert_int_equal(s.kind, FB_BG_HOGS);
	assert_int_equal(s.n, 2);	/* one per CPU */
	assert_int_equal(fb_bg_parse("compile:6", 2, &s), 0);
	assert_int_equal(s.kind, FB_BG_COMPILE);
	assert_int_equal(s.n, 6);
	assert_int_equal(fb_bg_parse("browser", 8, &s), 0);
	assert_int_equal(s.n, 2);	/* browser: two threads by default */
	assert_int_equal(fb_bg_parse("hogs:0", 2, &s), -1);
	assert_int_equal(fb_bg_parse("hogs:257", 2, &s), -1);
	assert_int_equal(fb_bg_parse("hogs:", 2, &s), -1);
	assert_int_equal(fb_bg_parse("hog", 2, &s), -1);
	assert_int_equal(fb_bg_parse("hogsx", 2, &s), -1);
	assert_int_equal(fb_bg_parse("", 2, &s), -1);
	assert_string_equal(fb_bg_name(FB_BG_BROWSER), "browser");
}

static void test_disturb_parse(void **state)
{
	uint64_t period, len;
	unsigned threads;

	(void)state;
	assert_int_equal(fb_disturb_parse("3m", 2, &period, &len, &threads, err,
					  sizeof(err)), 0);
	assert_int_equal(period, 180000000000ULL);
	assert_int_equal(len, 200000000);	/* default 200 ms */
	assert_int_equal(threads, 2);		/* one per CPU */
	/* a bare PERIOD is in seconds, a bare LEN in milliseconds */
	assert_int_equal(fb_disturb_parse("10:50:1", 4, &period, &len, &threads,
					  err, sizeof(err)), 0);
	assert_int_equal(period, 10000000000ULL);
	assert_int_equal(len, 50000000);
	assert_int_equal(threads, 1);
	assert_int_equal(fb_disturb_parse("1s:2s", 2, &period, &len, &threads,
					  err, sizeof(err)), -1);
	assert_string_equal(err, "expected a LEN between 1ms and the period "
				 "(e.g. 200ms), got '2s'");
	assert_int_equal(fb_disturb_parse("1s:100ms:0", 2, &period, &len,
					  &threads, err, sizeof(err)), -1);
	assert_string_equal(err, "expected THREADS in [1, 64], got '0'");
	assert_int_equal(fb_disturb_parse("1ms", 2, &period, &len, &threads,
					  err, sizeof(err)), -1);
	assert_int_equal(fb_disturb_parse("1s:1ms:1:9", 2, &period, &len,
					  &threads, err, sizeof(err)), -1);
	assert_string_equal(err, "expected PERIOD[:LEN[:THREADS]]");
}

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void test_work_loops(void **state)
{
	(void)state;
	fb_work_set_rate(500);	/* loops per us */
	assert_int_equal(fb_work_loops(FB_BG_CHUNK_NS), 1000000);
	assert_int_equal(fb_work_loops(0), 0);
	assert_int_equal(fb_work_loops(3), 2);	/* 1.5 rounds up */
	fb_work_set_rate(1000);
	assert_int_equal(fb_work_loops(7), 7);
}

static void test_bg_window(void **state)
{
	struct fb_bg_spec hogs = { FB_BG_HOGS, 2 }, cc = { FB_BG_COMPILE, 4 },
			  web = { FB_BG_BROWSER, 2 };
	/* 600 loops/us: 20 s of calibrated work is 1.2e10 loops */
	struct fb_bg_sample a = { true, 5000000000ULL, 1000000000ULL, 3, 100, 7 },
			    b = { true, 25000000000ULL, 13000000000ULL, 15, 1300, 10 };
	struct fb_bg_result r;

	(void)state;
	fb_bg_window(&hogs, &a, &b, 10.0, 600, &r);
	assert_string_equal(r.pattern, "hogs:2");
	assert_int_equal(r.threads, 2);
	assert_true(r.measured && r.cpu_ok);
	NEAR(r.cpu_s, 20.0, 1e-9);
	NEAR(r.work_per_s, 2.0, 1e-9);	/* two CPUs' worth */
	assert_false(r.has_jobs);
	assert_false(r.has_bursts);

	fb_bg_window(&cc, &a, &b, 10.0, 600, &r);
	assert_string_equal(r.pattern, "compile:4");
	assert_int_equal(r.threads, 4);
	assert_true(r.has_jobs);
	assert_int_equal(r.jobs_done, 12);

	fb_bg_window(&web, &a, &b, 4.0, 1200, &r);
	assert_string_equal(r.pattern, "browser:2");
	NEAR(r.work_per_s, 12e9 / 1.2e9 / 4.0, 1e-9);
	assert_true(r.has_bursts);
	assert_int_equal(r.bursts, 1200);
	assert_int_equal(r.missed, 3);

	/* a clock that could not be read at one end: no CPU time */
	b.cpu_ok = false;
	fb_bg_window(&hogs, &a, &b, 10.0, 600, &r);
	assert_true(r.measured);
	assert_false(r.cpu_ok);
	/* counters behind (cannot happen) give 0, never a huge number */
	fb_bg_window(&hogs, &b, &a, 10.0, 600, &r);
	NEAR(r.work_per_s, 0, 0);
	assert_int_equal(r.jobs_done, 0);
	/* no window: named, not measured */
	fb_bg_window(&cc, NULL, NULL, 10.0, 600, &r);
	assert_string_equal(r.pattern, "compile:4");
	assert_false(r.measured);
	fb_bg_window(&hogs, &a, &b, 0, 600, &r);
	assert_false(r.measured);
}

static struct fb_config cfg;
static struct fb_results res;
static struct fb_usage_sample u0, u1;

static void test_results_usage(void **state)
{
	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	cfg.nbg = 2;
	cfg.bg[0] = (struct fb_bg_spec){ FB_BG_HOGS, 1 };
	cfg.bg[1] = (struct fb_bg_spec){ FB_BG_BROWSER, 2 };
	res.calib.loops_per_us = 500;
	u0 = (struct fb_usage_sample){ .at_ns = 1000000000ULL, .game_ok = true,
				       .game_cpu_ns = 3000000000ULL };
	u1 = (struct fb_usage_sample){ .at_ns = 11000000000ULL, .game_ok = true,
				       .game_cpu_ns = 8500000000ULL };
	u1.bg[0].loops = 5000000000ULL;	/* 10 s of work in 10 s */
	u1.bg[1].bursts = 590;
	fb_results_usage(&res, &cfg, &u0, &u1);
	NEAR(res.usage_s, 10.0, 1e-9);
	assert_true(res.game_cpu_ok);
	NEAR(res.game_cpu_s, 5.5, 1e-9);
	assert_int_equal(res.nbg, 2);
	NEAR(res.bg[0].work_per_s, 1.0, 1e-9);
	assert_int_equal(res.bg[1].bursts, 590);

	u1.game_ok = false;	/* a helper gone at the end */
	fb_results_usage(&res, &cfg, &u0, &u1);
	assert_false(res.game_cpu_ok);
	/* stopped in the warm-up: nothing sampled */
	fb_results_usage(&res, &cfg, NULL, NULL);
	NEAR(res.usage_s, 0, 0);
	assert_false(res.game_cpu_ok);
	assert_int_equal(res.nbg, 2);
	assert_false(res.bg[0].measured);
}

/* The report's JSON, parsed back. */
static struct gs_jv *report_json(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct gs_jv *doc;

	assert_non_null(f);
	fb_report_json(f, &cfg, &res);
	assert_int_equal(fclose(f), 0);
	doc = gs_json_parse(buf, len, err, sizeof(err));
	free(buf);
	assert_non_null(doc);
	return doc;
}

static void test_background_json(void **state)
{
	const struct gs_jv *bgs, *o;
	struct gs_jv *doc;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	/* no --bg: an empty array; the game's CPU time is null unmeasured */
	doc = report_json();
	bgs = gs_json_get(doc, "background");
	assert_non_null(bgs);
	assert_int_equal(bgs->type, GS_JARR);
	assert_int_equal(bgs->len, 0);
	assert_int_equal(gs_json_get(doc, "game_cpu_s")->type, GS_JNULL);
	gs_json_free(doc);

	cfg.nbg = 3;
	cfg.bg[0] = (struct fb_bg_spec){ FB_BG_HOGS, 1 };
	cfg.bg[1] = (struct fb_bg_spec){ FB_BG_COMPILE, 2 };
	cfg.bg[2] = (struct fb_bg_spec){ FB_BG_BROWSER, 2 };
	res.calib.loops_per_us = 500;
	memset(&u0, 0, sizeof(u0));
	memset(&u1, 0, sizeof(u1));
	u0.game_ok = u1.game_ok = true;
	u1.at_ns = 2000000000ULL;
	for (int i = 0; i < 3; i++)
		u0.bg[i].cpu_ok = u1.bg[i].cpu_ok = true;
	u1.bg[0].cpu_ns = 1500000000ULL;
	u1.bg[0].loops = 750000000ULL;
	u1.bg[1].jobs_done = 4;
	u1.bg[2].bursts = 118;
	u1.bg[2].bursts_missed = 2;
	fb_results_usage(&res, &cfg, &u0, &u1);
	doc = report_json();
	bgs = gs_json_get(doc, "background");
	assert_int_equal(bgs->len, 3);
	o = bgs->items[0];
	assert_string_equal(gs_json_str_at(o, "pattern"), "hogs:1");
	NEAR(gs_json_num_at(o, "threads", -1), 1, 0);
	NEAR(gs_json_num_at(o, "cpu_s", -1), 1.5, 1e-9);
	NEAR(gs_json_num_at(o, "work_per_s", -1), 0.75, 1e-9);
	/* keys without meaning for the pattern are null, never absent */
	assert_int_equal(gs_json_get(o, "jobs_done")->type, GS_JNULL);
	assert_int_equal(gs_json_get(o, "missed")->type, GS_JNULL);
	assert_int_equal(gs_json_get(o, "bursts")->type, GS_JNULL);
	o = bgs->items[1];
	assert_string_equal(gs_json_str_at(o, "pattern"), "compile:2");
	NEAR(gs_json_num_at(o, "jobs_done", -1), 4, 0);
	assert_int_equal(gs_json_get(o, "missed")->type, GS_JNULL);
	o = bgs->items[2];
	NEAR(gs_json_num_at(o, "bursts", -1), 118, 0);
	NEAR(gs_json_num_at(o, "missed", -1), 2, 0);
	assert_int_equal(gs_json_get(o, "jobs_done")->type, GS_JNULL);
	NEAR(gs_json_num_at(doc, "game_cpu_s", -1), 0, 0);
	NEAR(gs_json_num_at(doc, "accounting_window_s", -1), 2, 1e-9);
	gs_json_free(doc);

	/* interrupted in the warm-up: every figure null, the patterns named */
	fb_results_usage(&res, &cfg, NULL, NULL);
	doc = report_json();
	o = gs_json_get(doc, "background")->items[1];
	assert_string_equal(gs_json_str_at(o, "pattern"), "compile:2");
	NEAR(gs_json_num_at(o, "threads", -1), 2, 0);
	assert_int_equal(gs_json_get(o, "cpu_s")->type, GS_JNULL);
	assert_int_equal(gs_json_get(o, "work_per_s")->type, GS_JNULL);
	assert_int_equal(gs_json_get(o, "jobs_done")->type, GS_JNULL);
	assert_int_equal(gs_json_get(doc, "accounting_window_s")->type,
			 GS_JNULL);
	gs_json_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bg_parse),
		cmocka_unit_test(test_disturb_parse),
		cmocka_unit_test(test_work_loops),
		cmocka_unit_test(test_bg_window),
		cmocka_unit_test(test_results_usage),
		cmocka_unit_test(test_background_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
