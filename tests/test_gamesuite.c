// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of gamesuite: the suite file parser (and its file:line
 * errors), command splitting, scheduler specs and sched_ext snapshots, the
 * parsers of external tools' outputs, per-frame metrics, the statistics and
 * verdicts on synthetic runs, and the JSON and HTML outputs.
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
#include "util.h"
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

/* ---- statistics and verdicts ------------------------------------------- */

static void decide(void **state)
{
	(void)state;
	assert_int_equal(gsu_decide(1.02, 1.10, 0.01, 0.95, true), GSU_BETTER);
	assert_int_equal(gsu_decide(1.02, 1.10, 0.01, 0.95, false), GSU_WORSE);
	assert_int_equal(gsu_decide(0.90, 0.98, 0.01, 0.95, true), GSU_WORSE);
	assert_int_equal(gsu_decide(0.90, 0.98, 0.01, 0.95, false), GSU_BETTER);
	/* interval includes 1, or p too high: no difference shown */
	assert_int_equal(gsu_decide(0.98, 1.10, 0.01, 0.95, true), GSU_SAME);
	assert_int_equal(gsu_decide(1.02, 1.10, 0.06, 0.95, true), GSU_SAME);
	assert_int_equal(gsu_decide(1.02, 1.10, 0.06, 0.90, true), GSU_BETTER);
	assert_int_equal(gsu_decide(NAN, NAN, NAN, 0.95, true), GSU_SAME);

	NEAR(gs_mann_whitney_min_p(3, 3), 0.1, 1e-12);
	NEAR(gs_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-12);
	NEAR(gs_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-12);
	NEAR(gs_mann_whitney_min_p(1, 1), 1.0, 0);
	NEAR(gs_mann_whitney_min_p(0, 4), 1.0, 0);
	/* the exact test reaches the bound on separated samples */
	{
		double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };

		NEAR(gs_mann_whitney_p(a, 5, b, 5, NULL),
		     gs_mann_whitney_min_p(5, 5), 1e-12);
	}
}

/* Synthetic results: workload 0 (framebench kind), three schedulers:
 * baseline ~60 fps, "fast" ~66 fps, "same" ~60 fps (noise 0.5 %), plus a
 * fourth with no runs. Background work: "fast" starves it (0.8 of the
 * baseline's), "same" serves it better (1.2); "fast" also spends 10 % more
 * game CPU time (informational). */
struct synth {
	struct gsu_suite su;
	struct gsu_workload w[2];
	struct gsu_sched sc[4];
	struct gsu_results r;
};

static void synth_build(struct synth *y, int runs)
{
	static const char *const labels[] = { "eevdf", "fast", "same <x>",
					      "broken" };
	static const double fps[] = { 60, 66, 60, 0 };
	static const double bg_work[] = { 1.0, 0.8, 1.2, 0 };
	static const double game_cpu[] = { 5.0, 5.5, 5.0, 0 };
	struct gs_rng rng;

	memset(y, 0, sizeof(*y));
	gs_strlcpy(y->su.name, "synthetic", sizeof(y->su.name));
	gs_strlcpy(y->su.path, "synthetic.suite", sizeof(y->su.path));
	y->su.repeat = runs;
	y->su.warmup = 1;
	y->su.confidence = 0.95;
	y->su.seed = 7;
	y->su.duration_ns = 1000000000ULL;
	y->su.w = y->w;
	y->su.nw = 2;
	gs_strlcpy(y->w[0].name, "fb", sizeof(y->w[0].name));
	y->w[0].kind = GSU_FRAMEBENCH;
	y->w[0].available = true;
	y->w[0].fps = -1;
	gs_strlcpy(y->w[1].name, "sb", sizeof(y->w[1].name));
	y->w[1].kind = GSU_SCHBENCH;
	gs_strlcpy(y->w[1].skip_reason, "schbench not installed",
		   sizeof(y->w[1].skip_reason));
	for (int s = 0; s < 4; s++) {
		gs_strlcpy(y->sc[s].label, labels[s], sizeof(y->sc[s].label));
		y->sc[s].is_default = s == 0;
	}
	y->sc[3].status = GSU_SCHED_FAILED;
	gs_strlcpy(y->sc[3].note, "failed to load", sizeof(y->sc[3].note));
	y->r.suite = &y->su;
	y->r.sched = y->sc;
	y->r.nsched = 4;
	y->r.set.confidence = 0.95;
	y->r.set.bootstrap_iters = 1000;
	y->r.set.scx_root = "/sys/kernel/sched_ext";
	y->r.machine_restored = true;
	gs_rng_seed(&rng, 3);
	for (int round = 0; round < runs + 1; round++)
		for (int s = 0; s < 3; s++) {
			struct gsu_run *run = gsu_results_add_run(&y->r);
			double f = fps[s] * (1 + 0.005 * gs_rng_normal(&rng));
			double ft[200];

			assert_non_null(run);
			run->workload = 0;
			run->sched = s;
			run->round = round;
			run->attempt = 1;
			run->warmup = round == 0;
			run->status = GSU_RUN_OK;
			for (int i = 0; i < 200; i++)
				ft[i] = 1000.0 / f * (i % 50 == 3 ? 2 : 1);
			assert_int_equal(gsu_frames_metrics(ft, 200, run), 0);
			run->metrics[GSU_M_AVG_FPS] = f;
			run->metrics[GSU_M_BG_WORK] =
				bg_work[s] * (1 + 0.005 * gs_rng_normal(&rng));
			run->metrics[GSU_M_GAME_CPU] =
				game_cpu[s] * (1 + 0.005 * gs_rng_normal(&rng));
			if (round == 0) /* a warm-up outlier: must not count */
				run->metrics[GSU_M_AVG_FPS] = 1;
		}
	/* one discarded run */
	{
		struct gsu_run *run = gsu_results_add_run(&y->r);

		run->workload = 0;
		run->sched = 1;
		run->status = GSU_RUN_EJECTED;
		run->metrics[GSU_M_AVG_FPS] = 1000;
		gs_strlcpy(run->reason, "ejected: the loader exited",
			   sizeof(run->reason));
	}
	y->r.planned = 3 * (runs + 1);
}

static void verdicts(void **state)
{
	struct synth y;
	struct gsu_table t;
	struct gsu_cell *c;
	struct gsu_counts cnt;

	(void)state;
	synth_build(&y, 6);
	assert_int_equal(gsu_table_build(&y.r, &t), 0);
	c = gsu_table_cell(&t, 0, GSU_M_AVG_FPS, 0);
	assert_int_equal(c->n, 6); /* warm-up and ejected runs left out */
	NEAR(c->median, 60, 1);
	assert_true(c->lo <= c->median && c->median <= c->hi);
	assert_int_equal(c->verdict, GSU_SAME);
	NEAR(c->ratio, 1, 0);
	c = gsu_table_cell(&t, 0, GSU_M_AVG_FPS, 1);
	assert_int_equal(c->verdict, GSU_BETTER);
	NEAR(c->ratio, 1.1, 0.02);
	assert_true(c->ratio_lo > 1 && c->ratio_hi < 1.2);
	assert_true(c->p_value < 0.01);
	assert_true(c->resolvable);
	/* frame time went down: lower is better, so better too */
	c = gsu_table_cell(&t, 0, GSU_M_FT_P50, 1);
	assert_true(c->ratio < 1);
	assert_int_equal(c->verdict, GSU_BETTER);
	c = gsu_table_cell(&t, 0, GSU_M_AVG_FPS, 2);
	assert_int_equal(c->verdict, GSU_SAME);
	/* background work: higher is better */
	c = gsu_table_cell(&t, 0, GSU_M_BG_WORK, 1);
	NEAR(c->ratio, 0.8, 0.02);
	assert_int_equal(c->verdict, GSU_WORSE);
	c = gsu_table_cell(&t, 0, GSU_M_BG_WORK, 2);
	assert_int_equal(c->verdict, GSU_BETTER);
	/* game CPU time: a clear difference, but no verdict either way */
	c = gsu_table_cell(&t, 0, GSU_M_GAME_CPU, 1);
	NEAR(c->ratio, 1.1, 0.02);
	assert_true(c->p_value < 0.01);
	assert_int_equal(c->verdict, GSU_INFORMATIONAL);
	assert_int_equal(gsu_table_cell(&t, 0, GSU_M_GAME_CPU, 0)->verdict,
			 GSU_INFORMATIONAL);
	c = gsu_table_cell(&t, 0, GSU_M_AVG_FPS, 3);
	assert_int_equal(c->n, 0);
	assert_int_equal(c->verdict, GSU_NO_DATA);
	gsu_count(&y.r, &cnt);
	assert_int_equal(cnt.runs, 22);
	assert_int_equal(cnt.warmup_done, 3);
	assert_int_equal(cnt.kept, 18);
	assert_int_equal(cnt.by_status[GSU_RUN_EJECTED], 1);
	{
		char bias[512];
		int a, d;

		gsu_discard_bias(&y.r, bias, sizeof(bias));
		assert_string_equal(bias, "");
		for (int i = 0; i < 6; i++) { /* "fast" loses 6 runs */
			struct gsu_run *run = gsu_results_add_run(&y.r);

			run->sched = 1;
			run->status = GSU_RUN_DISTURBED;
		}
		gsu_sched_discards(&y.r, 1, &a, &d);
		assert_int_equal(a, 13);
		assert_int_equal(d, 6);
		gsu_discard_bias(&y.r, bias, sizeof(bias));
		assert_non_null(strstr(bias, "46 % of fast's attempts but 0 % "
					     "of eevdf's"));
	}
	gsu_table_free(&t);
	gsu_results_free_runs(&y.r);

	/* three runs each cannot reach p < 0.05: same, flagged */
	synth_build(&y, 3);
	assert_int_equal(gsu_table_build(&y.r, &t), 0);
	c = gsu_table_cell(&t, 0, GSU_M_AVG_FPS, 1);
	assert_false(c->resolvable);
	assert_int_equal(c->verdict, GSU_SAME);
	gsu_table_free(&t);
	gsu_results_free_runs(&y.r);
}

/* ---- outputs ------------------------------------------------------------ */

static void outputs(void **state)
{
	char jpath[] = "/tmp/gsu-json-XXXXXX", hpath[] = "/tmp/gsu-html-XXXXXX";
	char err[256], *html, *text;
	struct synth y;
	struct gsu_table t;
	struct gs_jv *doc;
	FILE *mem;
	size_t len;

	(void)state;
	close(mkstemp(jpath));
	close(mkstemp(hpath));
	synth_build(&y, 5);
	assert_int_equal(gsu_table_build(&y.r, &t), 0);

	assert_int_equal(gsu_out_json(jpath, &y.r, &t), 0);
	doc = gs_json_parse_file(jpath, err, sizeof(err));
	assert_non_null(doc);
	assert_string_equal(gs_json_str_at(doc, "baseline"), "eevdf");
	assert_string_equal(
		gs_json_str_at(doc, "workloads.fb.metrics.avg_fps.schedulers."
				    "fast.verdict"), "better");
	assert_true(gs_json_num_at(doc, "workloads.fb.metrics.avg_fps."
					"schedulers.fast.ratio_lo", 0) > 1);
	assert_string_equal(gs_json_str_at(doc, "workloads.fb.metrics."
						"frametime_p99_ms.better"),
			    "lower");
	assert_string_equal(gs_json_str_at(doc, "workloads.fb.metrics."
						"bg_work_per_s.better"),
			    "higher");
	assert_string_equal(
		gs_json_str_at(doc, "workloads.fb.metrics.bg_work_per_s."
				    "schedulers.fast.verdict"), "worse");
	assert_string_equal(gs_json_str_at(doc, "workloads.fb.metrics."
						"game_cpu_s.better"),
			    "none");
	assert_string_equal(
		gs_json_str_at(doc, "workloads.fb.metrics.game_cpu_s."
				    "schedulers.fast.verdict"), "informational");
	assert_true(gs_json_num_at(doc, "workloads.fb.metrics.game_cpu_s."
					"schedulers.fast.ratio", 0) > 1.05);
	assert_non_null(gs_json_path(doc, "workloads.fb.metrics.avg_fps."
					  "schedulers.same <x>.median"));
	assert_int_equal(gs_json_path(doc, "workloads.fb.metrics.avg_fps."
					   "schedulers.broken.verdict")->type,
			 GS_JNULL);
	assert_string_equal(gs_json_str_at(doc, "workloads.sb.status"),
			    "skipped");
	/* 200 frames per run: the 0.1 % lows are flagged */
	assert_true(gs_json_num_at(doc, "workloads.fb.frames_min", 0) == 200);
	assert_true(gs_json_path(doc, "workloads.fb.low01_unreliable")->b);
	assert_true(gs_json_num_at(doc, "summary.kept", 0) == 15);
	assert_true(gs_json_num_at(doc, "summary.ejected", 0) == 1);
	assert_int_equal(gs_json_path(doc, "runs")->len, 19);
	/* the system description every tool writes the same way */
	assert_non_null(gs_json_path(doc, "system.arch"));
	assert_non_null(gs_json_path(doc, "system.cpu_model"));
	assert_int_equal(gs_json_path(doc, "system.sched_ext.present")->type,
			 GS_JBOOL);
	assert_null(gs_json_path(doc, "machine"));
	gs_json_free(doc);

	assert_int_equal(gsu_out_html(hpath, &y.r, &t), 0);
	assert_int_equal(gs_read_file(hpath, 0, &html, &len, err, sizeof(err)), 0);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	assert_non_null(strstr(html, "frame-time CDF"));
	assert_non_null(strstr(html, "<polyline"));
	assert_non_null(strstr(html, "low1_average_fps (fps, higher is"));
	assert_non_null(strstr(html, "bg_work_per_s<br><span class=\"dim\">"
				     "work/s, higher is better"));
	assert_non_null(strstr(html, "game_cpu_s<br><span class=\"dim\">s, "
				     "informational, no verdict"));
	assert_non_null(strstr(html, "same &lt;x&gt;")); /* escaped */
	assert_null(strstr(html, "same <x>"));
	/* self-contained: the only URL is the SVG namespace */
	for (const char *h = html; (h = strstr(h, "http")); h++)
		assert_int_equal(strncmp(h, "http://www.w3.org/2000/svg", 26), 0);
	assert_null(strstr(html, "<script"));
	free(html);

	mem = open_memstream(&text, &len);
	gsu_out_text(mem, &y.r, &t);
	fclose(mem);
	assert_non_null(strstr(text, "avg_fps (higher)"));
	assert_non_null(strstr(text, "bg_work_per_s (higher)"));
	assert_non_null(strstr(text, "game_cpu_s (info)"));
	assert_non_null(strstr(text, "informational"));
	assert_null(strstr(text, "informational (too few"));
	assert_non_null(strstr(text, "better"));
	assert_non_null(strstr(text, "skipped: schbench not installed"));
	assert_non_null(strstr(text, "1 scheduler ejected"));
	assert_non_null(strstr(text, "at least 200 (under 1000"));
	free(text);

	gsu_table_free(&t);
	gsu_results_free_runs(&y.r);
	unlink(jpath);
	unlink(hpath);
}

static void html_escape(void **state)
{
	char *text;
	size_t len;
	FILE *mem = open_memstream(&text, &len);

	(void)state;
	gs_html_esc(mem, "<a href=\"x\">Tom & 'Jerry'</a>\x01\tok\n");
	gs_html_esc(mem, NULL);
	fclose(mem);
	assert_string_equal(text, "&lt;a href=&quot;x&quot;&gt;Tom &amp; "
				  "&#39;Jerry&#39;&lt;/a&gt;\tok\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suite_good),
		cmocka_unit_test(suite_defaults),
		cmocka_unit_test(suite_errors),
		cmocka_unit_test(split_words),
		cmocka_unit_test(sched_specs),
		cmocka_unit_test(scx_snapshots),
		cmocka_unit_test(cpustat),
		cmocka_unit_test(schbench_text),
		cmocka_unit_test(perf_and_stressng),
		cmocka_unit_test(framebench_json),
		cmocka_unit_test(frames_metrics),
		cmocka_unit_test(decide),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(outputs),
		cmocka_unit_test(html_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
