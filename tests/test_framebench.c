// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of framebench's pure parts: the profile parser (good input and
 * the exact "file:line: expected ..." messages for malformed input), the
 * deterministic plan, the chain count and the small arithmetic helpers
 * (the run's parts: test_framebench_run.c).
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

#include "pace.h"
#include "plan.h"
#include "fbprofile.h"
#include "rng.h"

static struct fb_profile prof;
static char err[1024];

static int parse(const char *text)
{
	err[0] = '\0';
	return fb_profile_parse(text, strlen(text), "t.profile", &prof, err,
				sizeof(err));
}

/* The parse must fail with exactly this message. */
#define EXPECT_ERROR(text, msg)                                              \
	do {                                                                 \
		assert_int_equal(parse(text), -1);                           \
		assert_string_equal(err, msg);                               \
	} while (0)

static const char full[] =
	"# a profile that uses every statement\n"
	"name        full-test\n"
	"description a game  with   spaces # and a comment\n"
	"fps 144\n"
	"frames-in-flight 3\n"
	"workers 5\n"
	"process server\n"
	"process comp\n"
	"mutex cs\n"
	"service ws process=server work=10us..30us\n"
	"input period=1ms work=20\n"
	"audio period=5333us work=100us..300us\n"
	"net period=15625us work=1ms~100us lock=cs hold=20us\n"
	"stage game\n"
	"  call ws\n"
	"  call ws 5us\n"
	"  work 1ms..3ms p=0.5\n"
	"  fanout 4 200us..800us lock=cs hold=10us..20us\n"
	"  lock cs 50us\n"
	"stage present process=comp\n"
	"  work 100us # present work\n";

static void test_parse_full(void **state)
{
	(void)state;
	assert_int_equal(parse(full), 0);
	assert_string_equal(prof.name, "full-test");
	assert_string_equal(prof.description, "a game  with   spaces");
	assert_int_equal(prof.fps, 144);
	assert_int_equal(prof.frames_in_flight, 3);
	assert_int_equal(prof.workers, 5);
	assert_int_equal(prof.nprocs, 2);
	assert_string_equal(prof.proc[1], "server");
	assert_string_equal(prof.proc[2], "comp");
	assert_int_equal(prof.nlocks, 1);
	assert_int_equal(prof.nservices, 1);
	assert_int_equal(prof.service[0].process, 1);
	assert_int_equal(prof.service[0].work.kind, FB_DIST_UNIFORM);
	assert_true(prof.service[0].work.a == 10000 && prof.service[0].work.b == 30000);

	assert_true(prof.periodic[FB_PER_INPUT].enabled);
	assert_int_equal(prof.periodic[FB_PER_INPUT].period_ns, 1000000);
	/* a bare number is in microseconds */
	assert_true(prof.periodic[FB_PER_INPUT].work.a == 20000);
	/* the audio deadline defaults to the period */
	assert_int_equal(prof.periodic[FB_PER_AUDIO].deadline_ns, 5333000);
	assert_int_equal(prof.periodic[FB_PER_NET].lock, 0);
	assert_int_equal(prof.periodic[FB_PER_NET].work.kind, FB_DIST_NORMAL);
	assert_true(prof.periodic[FB_PER_NET].work.b == 100000);

	assert_int_equal(prof.nstages, 2);
	assert_int_equal(prof.stage[0].nsteps, 5);
	assert_int_equal(prof.stage[0].step[0].kind, FB_STEP_CALL);
	/* a call without work takes the service's default */
	assert_true(prof.stage[0].step[0].work.b == 30000);
	assert_true(prof.stage[0].step[1].work.a == 5000);
	assert_int_equal(prof.stage[0].step[1].work.kind, FB_DIST_FIXED);
	assert_true(prof.stage[0].step[2].prob == 0.5);
	assert_int_equal(prof.stage[0].step[3].kind, FB_STEP_FANOUT);
	assert_int_equal(prof.stage[0].step[3].jobs, 4);
	assert_int_equal(prof.stage[0].step[3].target, 0);
	assert_int_equal(prof.stage[0].step[3].line, 18);
	assert_int_equal(prof.stage[0].step[4].kind, FB_STEP_LOCK);
	assert_int_equal(prof.stage[1].process, 2);
	assert_int_equal(prof.stage[1].nsteps, 1);
}

static void test_parse_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse("stage only\n  work 10\n"), 0);
	/* name from the file name, 60 FPS, 2 frames in flight, 4 workers */
	assert_string_equal(prof.name, "t");
	assert_int_equal(prof.fps, 60);
	assert_int_equal(prof.frames_in_flight, 2);
	assert_int_equal(prof.workers, 4);
	assert_false(prof.periodic[FB_PER_AUDIO].enabled);
	/* '#' inside a word is not a comment; CRLF line ends are accepted */
	assert_int_equal(parse("description C# port\r\nstage s\r\n"), 0);
	assert_string_equal(prof.description, "C# port");
	assert_string_equal(prof.stage[0].name, "s");
}

static void test_parse_errors(void **state)
{
	(void)state;
	EXPECT_ERROR("name x\n\nfrobnicate 3\n",
		     "t.profile:3: expected a keyword (name, description, fps, "
		     "frames-in-flight, workers, comm, process, mutex, service, input, "
		     "audio, net, stage, work, call, fanout, lock, join), got "
		     "'frobnicate'");
	EXPECT_ERROR("work 10\n",
		     "t.profile:1: expected a 'stage NAME' line before the step "
		     "'work', got 'work'");
	EXPECT_ERROR("workers 0\nstage s\n",
		     "t.profile:1: expected a worker count in [1, 64], got '0'");
	EXPECT_ERROR("fps fast\n",
		     "t.profile:1: expected a target FPS in [0, 10000] "
		     "(0 = uncapped), got 'fast'");
	EXPECT_ERROR("fps\n",
		     "t.profile:1: expected a target FPS in [0, 10000] "
		     "(0 = uncapped), got end of line");
	EXPECT_ERROR("fps 60 120\n", "t.profile:1: expected end of line, got '120'");
	EXPECT_ERROR("stage s\n  work 5xs\n",
		     "t.profile:2: expected a work distribution (300us, "
		     "200us..800us, 1ms~200us or 1ms~100us/300us; a bare number "
		     "is in us, at most 1s), got '5xs'");
	EXPECT_ERROR("stage s\n  work 800..200\n",
		     "t.profile:2: expected a work distribution (300us, "
		     "200us..800us, 1ms~200us or 1ms~100us/300us; a bare number "
		     "is in us, at most 1s), got '800..200'");
	EXPECT_ERROR("stage s\n  work 2s\n",
		     "t.profile:2: expected a work distribution (300us, "
		     "200us..800us, 1ms~200us or 1ms~100us/300us; a bare number "
		     "is in us, at most 1s), got '2s'");
	EXPECT_ERROR("stage s\n  call ws\n",
		     "t.profile:2: expected a declared service (none declared "
		     "yet), got 'ws'");
	EXPECT_ERROR("service a work=1\nservice b work=1\nstage s\n call c\n",
		     "t.profile:4: expected a declared service (a, b), got 'c'");
	EXPECT_ERROR("stage s\n  fanout 0 10\n",
		     "t.profile:2: expected a job count in [1, 64] after "
		     "'fanout', got '0'");
	EXPECT_ERROR("stage s\n  fanout 65 10\n",
		     "t.profile:2: expected a job count in [1, 64] after "
		     "'fanout', got '65'");
	EXPECT_ERROR("mutex m\nstage s\n  fanout 2 10 lock=m\n",
		     "t.profile:3: expected lock= and hold= together, got end "
		     "of line");
	EXPECT_ERROR("stage s\n  work 10 p=0\n",
		     "t.profile:2: expected a probability p=P with 0 < P <= 1, "
		     "got '0'");
	EXPECT_ERROR("stage s\n  work 10 q=1\n",
		     "t.profile:2: expected p=PROBABILITY, got 'q'");
	EXPECT_ERROR("stage s\n  lock m 10\n",
		     "t.profile:2: expected a declared mutex (none declared "
		     "yet), got 'm'");
	EXPECT_ERROR("stage s process=comp\n",
		     "t.profile:1: expected a process: main (declare helper "
		     "processes with 'process NAME' first), got 'comp'");
	EXPECT_ERROR("stage s\nstage s\n",
		     "t.profile:2: expected a new stage name (not worker, "
		     "vsync, input, audio, net or a stage or service declared "
		     "before), got 's'");
	EXPECT_ERROR("stage worker\n",
		     "t.profile:1: expected a new stage name (not worker, "
		     "vsync, input, audio, net or a stage or service declared "
		     "before), got 'worker'");
	EXPECT_ERROR("audio work=100\nstage s\n",
		     "t.profile:1: expected period=DURATION, got end of line");
	EXPECT_ERROR("audio period=50us work=100\n",
		     "t.profile:1: expected a period between 100us and 10s, "
		     "got '50us'");
	EXPECT_ERROR("input period=1ms work=10 deadline=1ms\n",
		     "t.profile:1: expected period=, work=, thread= or process=, got "
		     "'deadline'");
	EXPECT_ERROR("name x\n# only comments\n",
		     "t.profile:2: expected at least one 'stage NAME' line "
		     "before the end of the file");
	EXPECT_ERROR("process a\nprocess b\nprocess c\nprocess d\nprocess e\n",
		     "t.profile:5: expected at most 4 helper processes, got 'e'");
	EXPECT_ERROR("name bad/name\n",
		     "t.profile:1: expected a profile name of 1-31 letters, "
		     "digits, '_', '-' or '.', got 'bad/name'");
}

/* fanout ... async and join: one of each per stage, or neither; the
 * join's place says which frame's jobs it waits for; the chain counts
 * the fan-out and the fan-in once each. */
static void test_parse_async(void **state)
{
	struct fb_chain c;

	(void)state;
	assert_int_equal(parse("fps 0\nstage g\n  work 1ms\n  join\n"
			       "  fanout 2 500us async\n  work 100us\n"), 0);
	assert_int_equal(prof.stage[0].step[1].kind, FB_STEP_JOIN);
	assert_true(prof.stage[0].step[2].async);
	assert_true(fb_stage_join_first(&prof.stage[0]));
	fb_plan_chain(&prof, &c);
	assert_int_equal(c.wakeups, 3);	/* slot free, fan-out, join */
	assert_int_equal(parse("stage g\n  fanout 2 500us async\n  work 1ms\n"
			       "  join\n"), 0);
	assert_false(fb_stage_join_first(&prof.stage[0]));
	EXPECT_ERROR("stage g\n  fanout 2 500us async\n",
		     "t.profile:2: expected a 'join' step for the asynchronous "
		     "fan-out in stage g");
	EXPECT_ERROR("stage g\n  join\n  work 1ms\n",
		     "t.profile:2: expected a 'fanout ... async' for the join in "
		     "stage g");
	EXPECT_ERROR("stage g\n  join\n  fanout 1 1ms async\n  fanout 1 1ms async\n",
		     "t.profile:4: expected one 'fanout ... async' per stage");
	EXPECT_ERROR("stage g\n  join\n  fanout 1 1ms async p=0.5\n",
		     "t.profile:3: expected an asynchronous fan-out in every "
		     "frame (no p=)");
	EXPECT_ERROR("stage g\n  join now\n",
		     "t.profile:2: expected end of line after 'join', got 'now'");
	EXPECT_ERROR("stage g\n  fanout 1 1ms later\n",
		     "t.profile:2: expected p=, lock=, hold=, even or async, got 'later'");
}

/* a two-piece distribution: half a normal each side of the median */
static void test_dist_twopiece(void **state)
{
	struct fb_dist d;
	struct gs_rng r;
	double sum = 0;
	int below = 0;
	char buf[64];

	(void)state;
	assert_int_equal(parse("stage g\n  work 1ms~100us/300us\n"), 0);
	d = prof.stage[0].step[0].work;
	assert_int_equal(d.kind, FB_DIST_TWOPIECE);
	assert_true(d.a == 1e6 && d.b == 1e5 && d.c == 3e5);
	assert_true(fabs(fb_dist_mean(&d) - (1e6 + 0.3989422804 * 2e5)) < 1);
	gs_rng_seed(&r, 5);
	for (int i = 0; i < 20000; i++) {
		uint32_t v = fb_dist_sample(&d, &r);

		below += v < 1000000;
		sum += v;
	}
	assert_true(abs(below - 10000) < 400);		/* the median stays */
	assert_true(fabs(sum / 20000 - fb_dist_mean(&d)) < 5000);
	fb_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "1000us~100us/300us");
	EXPECT_ERROR("stage g\n  work 1ms~100us/\n",
		     "t.profile:2: expected a work distribution (300us, 200us..800us, "
		     "1ms~200us or 1ms~100us/300us; a bare number is in us, at most "
		     "1s), got '1ms~100us/'");
	EXPECT_ERROR("stage g\n  work 1ms~100us/2s\n",
		     "t.profile:2: expected a work distribution (300us, 200us..800us, "
		     "1ms~200us or 1ms~100us/300us; a bare number is in us, at most "
		     "1s), got '1ms~100us/2s'");
}

/* fanout ... even: one draw of the job's work for all the jobs of a
 * fan-out (equal parts, a renderer's tiles); without it each job draws
 * its own */
static void test_fanout_even(void **state)
{
	struct fb_stage_plan sp;
	bool differ = false;

	(void)state;
	assert_int_equal(parse("stage g\n  fanout 4 100us..900us even\n"
			       "  fanout 4 100us..900us\n  work 1ms\n"), 0);
	assert_true(prof.stage[0].step[0].even);
	assert_false(prof.stage[0].step[1].even);
	for (uint64_t f = 0; f < 50; f++) {
		fb_plan_stage(&prof, 11, f, 0, &sp);
		for (unsigned j = 1; j < 4; j++) {
			assert_int_equal(sp.job_ns[j], sp.job_ns[0]);
			differ = differ || sp.job_ns[4 + j] != sp.job_ns[4];
		}
	}
	assert_true(differ);	/* the other fan-out's jobs drew their own */
	assert_int_equal(parse("stage g\n  join\n  fanout 2 1ms even async\n"), 0);
	assert_true(prof.stage[0].step[1].even && prof.stage[0].step[1].async);
	EXPECT_ERROR("stage g\n  work 1ms even\n",
		     "t.profile:2: expected p=PROBABILITY, got 'even'");
}

static void test_builtins(void **state)
{
	(void)state;
	assert_int_equal(fb_nbuiltins, 5);
	for (size_t i = 0; i < fb_nbuiltins; i++) {
		struct fb_chain c;

		assert_int_equal(fb_profile_resolve(fb_builtins[i].name, &prof,
						    err, sizeof(err)),
				 0);
		assert_string_equal(prof.name, fb_builtins[i].name);
		assert_true(prof.description[0] != '\0');
		fb_plan_chain(&prof, &c);
		/* as in a game, one action is a chain of 20-30 wake-ups */
		assert_in_range(c.wakeups, 20, 30);
		/* part of every chain crosses a process boundary */
		assert_true(c.cross_process >= 1);
	}
	assert_int_equal(fb_profile_resolve("nosuch", &prof, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "unknown profile 'nosuch': expected one of "
				 "proton, unreal, esports, strategy, unity, or a path "
				 "to a .profile file");
	assert_int_equal(fb_profile_resolve("/nonexistent/x.profile", &prof, err,
					    sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "cannot open profile /nonexistent/x.profile"));
	/* proton's chain crosses into wineserver and the compositor */
	assert_int_equal(fb_profile_resolve("proton", &prof, err, sizeof(err)), 0);
	assert_int_equal(prof.nprocs, 2);
}

static void test_chain_count(void **state)
{
	struct fb_chain c;

	(void)state;
	assert_int_equal(parse("process srv\nprocess comp\n"
			       "service ws process=srv work=10\n"
			       "stage a\n call ws\n fanout 3 10\n work 10\n"
			       "  fanout 2 10 p=0.25\n"
			       "stage b process=comp\n work 10\n"),
			 0);
	fb_plan_chain(&prof, &c);
	/* slot release 1 + call 2 + fan-out 2 + fan-out 2 + hand-off 1 +
	 * vsync 1 */
	assert_int_equal(c.wakeups, 9);
	/* slot release (comp -> main), call (main -> srv -> main), hand-off */
	assert_int_equal(c.cross_process, 4);
	assert_true(c.expected > 7.49 && c.expected < 7.51);
	/* uncapped: no vsync link */
	prof.fps = 0;
	fb_plan_chain(&prof, &c);
	assert_int_equal(c.wakeups, 8);
}

static void plan_frames(uint64_t seed, struct fb_stage_plan *out, unsigned n)
{
	for (unsigned f = 0; f < n; f++)
		fb_plan_stage(&prof, seed, f, 0, &out[f]);
}

static int plans_equal(const struct fb_stage_plan *a,
		       const struct fb_stage_plan *b)
{
	if (a->nops != b->nops || a->njobs != b->njobs)
		return 0;
	for (unsigned i = 0; i < a->nops; i++)
		if (a->op[i].kind != b->op[i].kind || a->op[i].ns != b->op[i].ns ||
		    a->op[i].njobs != b->op[i].njobs ||
		    a->op[i].step != b->op[i].step)
			return 0;
	return !memcmp(a->job_ns, b->job_ns, a->njobs * sizeof(a->job_ns[0])) &&
	       !memcmp(a->hold_ns, b->hold_ns, a->njobs * sizeof(a->hold_ns[0]));
}

static void test_plan_deterministic(void **state)
{
	static struct fb_stage_plan a[64], b[64], c[64], one;
	unsigned same = 0;

	(void)state;
	assert_int_equal(parse(full), 0);
	plan_frames(7, a, 64);
	plan_frames(7, b, 64);
	plan_frames(8, c, 64);
	for (unsigned f = 0; f < 64; f++) {
		assert_true(plans_equal(&a[f], &b[f]));
		same += plans_equal(&a[f], &c[f]);
	}
	assert_int_equal(same, 0);
	/* frame 40's plan does not depend on what was computed before */
	fb_plan_stage(&prof, 7, 40, 0, &one);
	assert_true(plans_equal(&one, &a[40]));
	/* and frames differ from each other */
	assert_false(plans_equal(&a[1], &a[2]));
}

static char *dump(uint64_t seed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fb_plan_dump(f, &prof, seed, 50);
	fclose(f);
	return buf;
}

static void test_plan_dump(void **state)
{
	char *d1, *d2, *d3;

	(void)state;
	assert_int_equal(fb_profile_resolve("proton", &prof, err, sizeof(err)), 0);
	d1 = dump(42);
	d2 = dump(42);
	d3 = dump(43);
	assert_string_equal(d1, d2);
	assert_string_not_equal(d1, d3);
	assert_non_null(strstr(d1, "critical chain: 23 wake-ups per frame"));
	assert_non_null(strstr(d1, "\nframe 49 | game: call wineserver "));
	assert_null(strstr(d1, "\nframe 50 "));
	free(d1);
	free(d2);
	free(d3);
}

static void test_plan_values(void **state)
{
	static struct fb_stage_plan sp;
	unsigned with_p = 0;

	(void)state;
	assert_int_equal(parse(full), 0);
	for (unsigned f = 0; f < 1000; f++) {
		bool saw = false;

		fb_plan_stage(&prof, 3, f, 0, &sp);
		for (unsigned i = 0; i < sp.nops; i++) {
			const struct fb_op *op = &sp.op[i];

			switch (op->step) {
			case 0: /* call ws: 10..30 us */
				assert_in_range(op->ns, 10000, 30000);
				break;
			case 1: /* call ws 5us */
				assert_int_equal(op->ns, 5000);
				break;
			case 2: /* work 1ms..3ms p=0.5 */
				assert_in_range(op->ns, 1000000, 3000000);
				saw = true;
				break;
			case 3: /* fanout 4 200us..800us, hold 10..20 us */
				assert_int_equal(op->njobs, 4);
				for (unsigned j = 0; j < 4; j++) {
					assert_in_range(sp.job_ns[op->job0 + j],
							200000, 800000);
					assert_in_range(sp.hold_ns[op->job0 + j],
							10000, 20000);
				}
				break;
			case 4:
				assert_int_equal(op->ns, 50000);
				break;
			default:
				fail();
			}
		}
		with_p += saw;
	}
	/* a p=0.5 step happens in about half the frames (seeded: exact) */
	assert_in_range(with_p, 450, 550);
}

static void test_dist(void **state)
{
	struct fb_dist d = { FB_DIST_NORMAL, 100, 1000 };
	struct gs_rng r;
	char buf[64];
	unsigned zeros = 0;

	(void)state;
	gs_rng_seed(&r, 1);
	/* a normal with a large spread is clamped at 0, never wraps */
	for (int i = 0; i < 1000; i++) {
		uint32_t v = fb_dist_sample(&d, &r);

		assert_true(v < 10000);
		zeros += v == 0;
	}
	assert_in_range(zeros, 300, 700);
	fb_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "0.1us~1us");
	d = (struct fb_dist){ FB_DIST_UNIFORM, 200000, 800000 };
	fb_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "200us..800us");
	assert_true(fb_dist_mean(&d) == 500000);
}

static void test_vsync(void **state)
{
	const uint64_t t0 = 1000, T = 16666667;
	uint64_t k;

	(void)state;
	/* a frame ready exactly at a vsync is shown at that vsync */
	assert_int_equal(fb_vsync_index(t0, T, t0 + 3 * T, false, 0), 3);
	/* one ns later: the next one */
	assert_int_equal(fb_vsync_index(t0, T, t0 + 3 * T + 1, false, 0), 4);
	/* before the first vsync of the run */
	assert_int_equal(fb_vsync_index(t0, T, 10, false, 0), 0);
	/* never two frames at one vsync: queue behind the previous */
	assert_int_equal(fb_vsync_index(t0, T, t0 + 2 * T, true, 5), 6);
	assert_int_equal(fb_vsync_missed(true, 5, 6), 0);
	/* a frame ready 2.5 intervals after the previous vsync misses two */
	k = fb_vsync_index(t0, T, t0 + 7 * T + T / 2, true, 5);
	assert_int_equal(k, 8);
	assert_int_equal(fb_vsync_missed(true, 5, k), 2);
	assert_int_equal(fb_vsync_missed(false, 0, 9), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_parse_defaults),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_async),
		cmocka_unit_test(test_fanout_even),
		cmocka_unit_test(test_dist_twopiece),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_chain_count),
		cmocka_unit_test(test_plan_deterministic),
		cmocka_unit_test(test_plan_dump),
		cmocka_unit_test(test_plan_values),
		cmocka_unit_test(test_dist),
		cmocka_unit_test(test_vsync),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
