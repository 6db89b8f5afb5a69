// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of gamesuite's inputs: the suite file parser (and its
 * file:line errors), command splitting, scheduler specs and sched_ext
 * snapshots, the parsers of external tools' outputs and per-frame metrics.
 * The statistics, verdicts and outputs are in test_gamesuite_verdict.c.
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
#include <sys/stat.h>
#include <unistd.h>

#include "gamesuite.h"
#include "html.h"
#include "json.h"
#include "machine.h"
#include "proc.h"
#include "rng.h"
#include "sched.h"
#include "stats.h"
#include "suite.h"
#include "tune.h"
#include "util.h"
#include "parse.h"
#include "workload.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static int parse_text(const char *text, struct gsu_suite *s, char *err,
		      size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = gsu_suite_parse(f, "t.suite", s, err, errlen);
	fclose(f);
	return rc;
}

/* ---- suite files -------------------------------------------------------- */

static void suite_good(void **state)
{
	const char *text =
		"# a suite\n"
		"name demo\n"
		"repeat 7   # measured runs\n"
		"warmup 2\n"
		"cooldown 500ms\n"
		"duration 3s\n"
		"confidence 0.9\n"
		"seed 42\n"
		"\n"
		"workload proton-hogs\n"
		"  kind framebench\n"
		"  profile proton\n"
		"  bg hogs:2\n"
		"  bg browser\n"
		"  fps 0\n"
		"  args --bg-nice 5 'x y'\n"
		"workload msg\n"
		"  kind perf-messaging\n"
		"  args -g 2 -l 100\n"
		"  timeout 30s\n"
		"workload game1\n"
		"  kind game\n"
		"  command env FOO=1 ./game --bench # not a comment\n"
		"  mangohud-config /dev/null\n"
		"  duration 20s\n"
		"  startup 3s\n";
	struct gsu_suite s;
	char err[512];

	(void)state;
	assert_int_equal(parse_text(text, &s, err, sizeof(err)), 0);
	assert_string_equal(s.name, "demo");
	assert_int_equal(s.repeat, 7);
	assert_int_equal(s.warmup, 2);
	assert_true(s.cooldown_ns == 500000000ULL);
	assert_true(s.duration_ns == 3000000000ULL);
	NEAR(s.confidence, 0.9, 1e-12);
	assert_true(s.seed == 42);
	assert_int_equal(s.nw, 3);
	assert_string_equal(s.w[0].name, "proton-hogs");
	assert_int_equal(s.w[0].kind, GSU_FRAMEBENCH);
	assert_int_equal(s.w[0].line, 10);
	assert_string_equal(s.w[0].profile, "proton");
	assert_int_equal(s.w[0].nbg, 2);
	assert_string_equal(s.w[0].bg[1], "browser");
	assert_int_equal(s.w[0].fps, 0);
	assert_int_equal(s.w[0].nargs, 3);
	assert_string_equal(s.w[0].args[2], "x y");
	assert_true(gsu_workload_duration(&s, &s.w[0]) == 3000000000ULL);
	assert_int_equal(s.w[1].kind, GSU_PERF_MESSAGING);
	assert_true(s.w[1].timeout_ns == 30000000000ULL);
	assert_int_equal(s.w[2].kind, GSU_GAME);
	assert_string_equal(s.w[2].command,
			    "env FOO=1 ./game --bench # not a comment");
	assert_true(gsu_workload_duration(&s, &s.w[2]) == 20000000000ULL);
	assert_true(s.w[2].startup_ns == 3000000000ULL);

	/* --only: a name not in the suite drops nothing; the others keep
	 * the suite's order */
	assert_int_equal(gsu_suite_keep(&s, (const char *[]){ "game1", "nope" },
					2, err, sizeof(err)), -1);
	assert_string_equal(err, "no workload 'nope' in t.suite");
	assert_int_equal(s.nw, 3);
	assert_int_equal(gsu_suite_keep(&s, (const char *[]){ "game1",
					"proton-hogs" }, 2, err, sizeof(err)), 0);
	assert_int_equal(s.nw, 2);
	assert_string_equal(s.w[0].name, "proton-hogs");
	assert_string_equal(s.w[1].name, "game1");
	gsu_suite_free(&s);
}

static void suite_defaults(void **state)
{
	struct gsu_suite s;
	char err[256];

	(void)state;
	assert_int_equal(parse_text("workload a\nkind stress-ng\n", &s, err,
				    sizeof(err)), 0);
	assert_string_equal(s.name, "t");
	assert_int_equal(s.repeat, 5);
	assert_int_equal(s.warmup, 1);
	NEAR(s.confidence, 0.95, 1e-12);
	assert_int_equal(s.w[0].fps, -1);
	gsu_suite_free(&s);
}

struct bad_case {
	const char *text;
	const char *want; /* substring of the message, incl. "t.suite:L:" */
};

static void suite_errors(void **state)
{
	static const struct bad_case cases[] = {
		{ "repeat 0\nworkload a\nkind game\n", "t.suite:1: repeat" },
		{ "color red\n", "t.suite:1: unknown suite key 'color'" },
		{ "\nworkload a\nkind framebench\nprofile\n",
		  "t.suite:4: profile: missing value" },
		{ "workload a\nkind framebench\nduration fast\n",
		  "t.suite:3: duration: expected a duration" },
		{ "workload a\nkind framebench\nworkload a\nkind schbench\n",
		  "t.suite:3: workload 'a' defined twice (first at line 1)" },
		{ "workload a\nprofile proton\n",
		  "t.suite:2: workload 'a': 'kind' must come first" },
		{ "workload a\nkind schbench\nprofile proton\n",
		  "t.suite:3: 'profile' does not apply to a schbench" },
		{ "workload a\nkind nope\n", "t.suite:2: kind: expected" },
		{ "workload a.b\n", "t.suite:1: workload: expected a name" },
		{ "name x\n", "no workload in the suite" },
		{ "workload a\n\nworkload b\nkind game\n",
		  "t.suite:1: workload 'a' has no 'kind'" },
		{ "workload g\nkind game\nmangohud-config /dev/null\n",
		  "t.suite:1: game workload 'g' needs 'command'" },
		{ "workload a\nkind framebench\nargs 'open\n",
		  "t.suite:3: args: unbalanced quote" },
		{ "workload a\nkind framebench\nfps -1\n", "t.suite:3: fps" },
		{ "confidence 0.2\n", "t.suite:1: confidence" },
		{ "workload a\nkind framebench\nbg hogs browser\n",
		  "t.suite:3: bg: one PATTERN" },
		{ "workload g\nkind game\ncommand x\n"
		  "mangohud-config /nonexistent/MangoHud.conf\n",
		  "t.suite:4: mangohud-config: cannot read" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gsu_suite s;
		char err[512];

		assert_int_equal(parse_text(cases[i].text, &s, err, sizeof(err)),
				 -1);
		if (!strstr(err, cases[i].want)) {
			print_error("case %zu: got '%s', want '%s'\n", i, err,
				    cases[i].want);
			fail();
		}
		assert_int_equal(s.nw, 0);
	}
}

/* The game's process for tune's default match rule, from framebench's plan. */
static void plan_game_comm(void **state)
{
	char c[16];

	(void)state;
	assert_int_equal(gsu_tune_plan_game_comm("# plan\nprofile s (x)\nprocess main: comm:fb-strategy "
					     "stage:game\nprocess compositor: comm:fb-compositor\n",
					     "/usr/bin/framebench", c, sizeof(c)), 0);
	assert_string_equal(c, "fb-strategy");
	/* the main process without a comm: the program's name, as the kernel
	 * keeps it; the helper's comm is not the game's */
	assert_int_equal(gsu_tune_plan_game_comm("process main: stage:game\n"
					     "process compositor: comm:fb-compositor\n",
					     "/opt/x/a-very-long-benchmark-name", c, sizeof(c)), 0);
	assert_string_equal(c, "a-very-long-ben");
	assert_int_equal(gsu_tune_plan_game_comm("process main: comm:ProtonGame.exe", "fb", c,
					     sizeof(c)), 0);
	assert_string_equal(c, "ProtonGame.exe");
	assert_int_equal(gsu_tune_plan_game_comm("framebench: unknown profile\n", "fb", c,
					     sizeof(c)), -1);
}

static void split_words(void **state)
{
	char **v, err[64];
	int n;

	(void)state;
	assert_int_equal(gsu_split_words("  lavd --slice 'a b' \"c\\\"d\" e\\ f",
					 &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_string_equal(v[0], "lavd");
	assert_string_equal(v[2], "a b");
	assert_string_equal(v[3], "c\"d");
	assert_string_equal(v[4], "e f");
	assert_null(v[5]);
	gsu_free_words(v);
	assert_int_equal(gsu_split_words("", &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	gsu_free_words(v);
	assert_int_equal(gsu_split_words("x 'y", &v, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "unbalanced quote");
}

/* ---- schedulers --------------------------------------------------------- */

static void sched_specs(void **state)
{
	struct gsu_sched s;
	char err[256];

	(void)state;
	assert_int_equal(gsu_sched_init(&s, "eevdf", err, sizeof(err)), 0);
	assert_true(s.is_default);
	assert_string_equal(s.label, "eevdf");
	gsu_sched_free(&s);
	assert_int_equal(gsu_sched_init(&s, " default ", err, sizeof(err)), 0);
	assert_true(s.is_default);
	gsu_sched_free(&s);
	assert_int_equal(gsu_sched_init(&s, "./build/lavd --performance", err,
					sizeof(err)), 0);
	assert_false(s.is_default);
	assert_string_equal(s.label, "lavd --performance");
	assert_string_equal(s.expected_ops, "lavd");
	assert_int_equal(s.argc, 2);
	gsu_sched_free(&s);
	assert_int_equal(gsu_sched_init(&s, "/usr/bin/scx_rusty --x 0.5", err,
					sizeof(err)), 0);
	assert_string_equal(s.expected_ops, "rusty");
	assert_string_equal(s.label, "scx_rusty --x 0_5"); /* no dots */
	gsu_sched_free(&s);
	assert_int_equal(gsu_sched_init(&s, "  ", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--sched"));
	assert_int_equal(gsu_sched_init(&s, "lavd 'x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unbalanced"));

	assert_true(gsu_ops_match("lavd", "lavd"));
	assert_true(gsu_ops_match("lavd", "lavd_1.0.6_g123_x86_64"));
	assert_false(gsu_ops_match("lavd", "lavdx"));
	assert_false(gsu_ops_match("lavd", "rusty"));
	assert_false(gsu_ops_match("lavd", ""));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void scx_snapshots(void **state)
{
	char dir[] = "/tmp/gsu-test-XXXXXX", p[256], why[256];
	struct gs_scx s;
	struct gsu_sched def;
	struct gsu_loaded l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/none", dir);
	gs_scx_read(p, &s);
	assert_false(s.present);
	assert_false(gs_scx_enabled(&s));

	snprintf(p, sizeof(p), "%s/state", dir);
	write_file(p, "disabled\n");
	snprintf(p, sizeof(p), "%s/enable_seq", dir);
	write_file(p, "3\n");
	gs_scx_read(dir, &s);
	assert_true(s.present);
	assert_string_equal(s.state, "disabled");
	assert_int_equal(s.enable_seq, 3);

	/* the default scheduler: fine while nothing changes */
	assert_int_equal(gsu_sched_init(&def, "eevdf", why, sizeof(why)), 0);
	memset(&l, 0, sizeof(l));
	assert_int_equal(gsu_sched_start(&def, dir, 1000000000ULL, 1000000000ULL,
					 NULL, &l, why, sizeof(why)),
			 GSU_START_OK);
	assert_true(gsu_sched_check(&def, dir, &l, why, sizeof(why)));
	/* something loaded and unloaded meanwhile: enable_seq moved */
	write_file(p, "4\n");
	assert_false(gsu_sched_check(&def, dir, &l, why, sizeof(why)));
	assert_non_null(strstr(why, "enable_seq 3 -> 4"));
	/* something is enabled: not the default */
	snprintf(p, sizeof(p), "%s/root", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/root/ops", dir);
	write_file(p, "rusty_1.0\n");
	snprintf(p, sizeof(p), "%s/state", dir);
	write_file(p, "enabled\n");
	gs_scx_read(dir, &s);
	assert_true(gs_scx_enabled(&s));
	assert_string_equal(s.ops, "rusty_1.0");
	assert_int_equal(gsu_sched_start(&def, dir, 1000000000ULL, 1000000000ULL,
					 NULL, &l, why, sizeof(why)),
			 GSU_START_WRONG);
	assert_non_null(strstr(why, "rusty_1.0"));
	gsu_sched_free(&def);

	snprintf(p, sizeof(p), "%s/root/ops", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/root", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/state", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/enable_seq", dir);
	unlink(p);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- machine state ------------------------------------------------------- */

static void cpustat(void **state)
{
	char path[] = "/tmp/gsu-stat-XXXXXX";
	struct gsu_cpustat a, b;
	int fd = mkstemp(path);
	long hz = sysconf(_SC_CLK_TCK);
	char text[256];

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "cpu  100 0 50 1000 10 5 5 0 0 0\ncpu0 1 2 3\n");
	gsu_cpustat_read(path, &a);
	assert_true(a.ok);
	assert_true(a.busy == 160);
	assert_true(a.total == 1170);
	/* +400 busy (incl. 100 steal), +400 idle */
	snprintf(text, sizeof(text),
		 "cpu  300 0 150 1400 10 5 5 100 0 0\n");
	write_file(path, text);
	gsu_cpustat_read(path, &b);
	NEAR(gsu_cpustat_busy(&a, &b), 0.5, 1e-12);
	/* our processes used 100 jiffies of the 400: others 300 of 800 */
	NEAR(gsu_other_cpu(&a, &b, 100.0 / (double)hz), 300.0 / 800.0, 1e-9);
	NEAR(gsu_other_cpu(&a, &b, 1e6), 0.0, 0); /* clamped */
	unlink(path);
	gsu_cpustat_read(path, &b);
	assert_false(b.ok);
	assert_true(isnan(gsu_cpustat_busy(&a, &b)));
	assert_true(gsu_probe_ms() > 0);
}

/* ---- parsers of the tools' outputs ------------------------------------- */

static void schbench_text(void **state)
{
	const char *text =
		"Wakeup Latencies percentiles (usec) runtime 10 (s) (38163 "
		"total samples)\n"
		"\t  50.0th: 9          (11186 samples)\n"
		"\t  90.0th: 14         (13585 samples)\n"
		"\t* 99.0th: 38         (3157 samples)\n"
		"\t  99.9th: 1734       (341 samples)\n"
		"\t  min=1, max=5843\n"
		"Request Latencies percentiles (usec) runtime 10 (s) (38309 "
		"total samples)\n"
		"\t  50.0th: 5224       (11565 samples)\n"
		"\t* 99.0th: 9104       (3438 samples)\n"
		"\t  min=3601, max=14478\n"
		"RPS percentiles (requests) runtime 10 (s) (11 total samples)\n"
		"\t  20.0th: 3796       (3 samples)\n"
		"\t* 50.0th: 3812       (3 samples)\n"
		"\t  90.0th: 3852       (4 samples)\n"
		"\t  min=3768, max=3875\n"
		"average rps: 3830.90\n";
	double v[3];

	(void)state;
	assert_int_equal(gsu_parse_schbench(text, v), 0);
	NEAR(v[0], 38, 0);
	NEAR(v[1], 9104, 0);
	NEAR(v[2], 3830.90, 1e-9);
	/* without "average rps" the RPS median stands in */
	assert_int_equal(gsu_parse_schbench(
		"Wakeup Latencies percentiles (usec)\n\t* 99.0th: 7 (1 samples)\n"
		"RPS percentiles (requests)\n\t* 50.0th: 100 (2 samples)\n", v), 0);
	NEAR(v[0], 7, 0);
	assert_true(isnan(v[1]));
	NEAR(v[2], 100, 0);
	assert_int_equal(gsu_parse_schbench("garbage\n", v), -1);
}

static void perf_and_stressng(void **state)
{
	double v;

	(void)state;
	assert_int_equal(gsu_parse_perf_messaging(
		"# Running 'sched/messaging' benchmark:\n# 20 sender and "
		"receiver processes per group\n# 2 groups == 80 processes run\n"
		"\n     Total time: 0.206 [sec]\n", &v), 0);
	NEAR(v, 0.206, 1e-12);
	assert_int_equal(gsu_parse_perf_messaging("0.199\n", &v), 0);
	NEAR(v, 0.199, 1e-12);
	assert_int_equal(gsu_parse_perf_messaging("# only comments\n", &v), -1);
	assert_int_equal(gsu_parse_stressng_yaml(
		"---\nmetrics:\n    - stressor: switch\n      bogo-ops: 44491\n"
		"      bogo-ops-per-second-real-time: 22232.089626\n"
		"    - stressor: cpu\n"
		"      bogo-ops-per-second-real-time: 100.5\n...\n", &v), 0);
	NEAR(v, 22332.589626, 1e-6);
	assert_int_equal(gsu_parse_stressng_yaml("---\n", &v), -1);
}

static void framebench_json(void **state)
{
	const char *text =
		"{\"frames\": 600, \"avg_fps\": 59.9, \"low1_percentile_fps\": 50,"
		" \"low1_average_fps\": 45, \"low01_percentile_fps\": 40,"
		" \"low01_average_fps\": 35, \"min_fps\": 30, \"frametime_ms\":"
		" {\"p50\": 16.7, \"p90\": 17, \"p99\": 20, \"p999\": 25,"
		" \"max\": 33}, \"game_cpu_s\": 4.5, \"background\":"
		" [{\"pattern\": \"hogs:2\", \"work_per_s\": 1.25},"
		" {\"pattern\": \"browser:2\", \"work_per_s\": 0.25}]}";
	double m[GSU_MAX_METRICS];
	struct gs_jv *doc;
	char err[128];

	(void)state;
	for (int i = 0; i < GSU_MAX_METRICS; i++)
		m[i] = NAN;
	doc = gs_json_parse(text, strlen(text), err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(gsu_parse_framebench_json(doc, m, err, sizeof(err)), 0);
	NEAR(m[GSU_M_AVG_FPS], 59.9, 1e-12);
	NEAR(m[GSU_M_LOW01_AVG], 35, 0);
	NEAR(m[GSU_M_FT_P99], 20, 0);
	NEAR(m[GSU_M_FT_P999], 25, 0);
	assert_true(isnan(m[GSU_M_LOW1_INT])); /* comes from the CSV */
	NEAR(m[GSU_M_BG_WORK], 1.5, 1e-12);	/* summed over the patterns */
	NEAR(m[GSU_M_GAME_CPU], 4.5, 0);
	gs_json_free(doc);
	/* no background, or a pattern not measured: no figure (not 0) */
	{
		static const char *const none[] = {
			"{\"background\": []}",
			"{\"frames\": 3}",
			"{\"background\": [{\"work_per_s\": 1}, {\"work_per_s\": null}]}",
		};

		for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
			doc = gs_json_parse(none[i], strlen(none[i]), err,
					    sizeof(err));
			assert_non_null(doc);
			assert_true(isnan(gsu_framebench_bg_work(doc)));
			gs_json_free(doc);
		}
	}
	/* a profile without an input task: framebench writes null, and the
	 * metric has no value (gamesuite's table says "no data") */
	{
		static const char noinput[] =
			"{\"frames\": 600, \"avg_fps\": 59.9, "
			"\"low1_percentile_fps\": 50, \"low1_average_fps\": 45, "
			"\"low01_percentile_fps\": 40, \"low01_average_fps\": 35, "
			"\"frametime_ms\": {\"p50\": 16.7, \"p99\": 20, "
			"\"p999\": 25}, \"input_latency_ms\": {\"count\": 0, "
			"\"p50\": null, \"p99\": null}}";

		doc = gs_json_parse(noinput, strlen(noinput), err, sizeof(err));
		assert_non_null(doc);
		assert_int_equal(gsu_parse_framebench_json(doc, m, err,
							   sizeof(err)), 0);
		assert_true(isnan(m[GSU_M_INPUT_P99]));
		gs_json_free(doc);
	}
	doc = gs_json_parse("{\"avg_fps\": 1}", 14, err, sizeof(err));
	assert_int_equal(gsu_parse_framebench_json(doc, m, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "low1_percentile_fps"));
	gs_json_free(doc);
}

static void frames_metrics(void **state)
{
	double *ft = malloc(10000 * sizeof(*ft));
	struct gsu_run run;

	(void)state;
	memset(&run, 0, sizeof(run));
	for (int i = 0; i < GSU_MAX_METRICS; i++)
		run.metrics[i] = NAN;
	run.metrics[GSU_M_AVG_FPS] = 123; /* given values are kept */
	for (int i = 0; i < 10000; i++)
		ft[i] = i % 200 == 7 ? 50.0 : 16.667; /* docs/formats.md's example */
	assert_int_equal(gsu_frames_metrics(ft, 10000, &run), 0);
	NEAR(run.metrics[GSU_M_AVG_FPS], 123, 0);
	NEAR(run.metrics[GSU_M_LOW1_PCT], 60, 0.01);
	NEAR(run.metrics[GSU_M_LOW1_AVG], 30, 0.01);
	NEAR(run.metrics[GSU_M_LOW1_INT], 20, 1e-9);
	NEAR(run.metrics[GSU_M_FT_P999], 50, 0);
	assert_int_equal(run.frames, 10000);
	assert_non_null(run.curve);
	NEAR(gsu_curve_p(0), 0, 0);
	NEAR(gsu_curve_p(GSU_CURVE_N - 1), 0.999, 1e-12);
	for (int i = 1; i < GSU_CURVE_N; i++) {
		assert_true(gsu_curve_p(i) > gsu_curve_p(i - 1));
		assert_true(run.curve[i] >= run.curve[i - 1]);
	}
	NEAR(run.curve[0], 16.667, 0);
	NEAR(run.curve[GSU_CURVE_N - 1], 50, 0);
	free(run.curve);
	free(ft);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suite_good),
		cmocka_unit_test(suite_defaults),
		cmocka_unit_test(suite_errors),
		cmocka_unit_test(plan_game_comm),
		cmocka_unit_test(split_words),
		cmocka_unit_test(sched_specs),
		cmocka_unit_test(scx_snapshots),
		cmocka_unit_test(cpustat),
		cmocka_unit_test(schbench_text),
		cmocka_unit_test(perf_and_stressng),
		cmocka_unit_test(framebench_json),
		cmocka_unit_test(frames_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
