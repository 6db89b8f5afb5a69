// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of gamesuite's judgement and outputs: the decision rule, the
 * statistics and verdicts on synthetic runs, and the JSON, text and HTML
 * outputs. The inputs (suites, parsers) are in test_gamesuite.c.
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
#include "parse.h"
#include "workload.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

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
		cmocka_unit_test(decide),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(outputs),
		cmocka_unit_test(html_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
