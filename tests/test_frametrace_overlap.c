// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace profile on hand-made timelines whose pool works beside the
 * stage (profile_overlap.c): a pipelined game that joins the previous
 * frame's jobs, and a fence-synchronised pool joined in the same frame.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/finish.h"
#include "analysis/model.h"
#include "profile/profile_fit.h"
#include "profile/pipeline.h"
#include "profile/profile_write.h"
#include "test_frametrace.h"
#include "test_frametrace_pr.h"

enum { GAME = 100, W0 = 101, W1 = 102, SERVER = 200 };

static void frame(struct ft_trace *t, uint32_t pid, uint32_t tid, uint64_t prev,
		  uint64_t present)
{
	struct ft_frame f = { .present_ns = present, .frametime_ns = present - prev,
			      .pid = pid, .tid = tid };

	assert_int_equal(ft_frame_push(t, &f), 0);
}

/*
 * A pipelined game: the game thread (CPU 0) works 300-500 us, waits for
 * the previous frame's jobs (the join: woken by worker 0), works 45 us,
 * fans out to two workers (CPUs 1 and 2, 880 and 900 us) without waiting,
 * works 300 us and presents. The jobs end in the next frame, and only the
 * join shows their fan-in. Worker 1's job lasts w1_us: 880 us (equal
 * parts, an 'even' fan-out) or 300 us (unequal: each job its own draw).
 */
static void pipelined(unsigned w1_us)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct ft_trace *t = &f->t;
	uint64_t b = T0, prev = T0 - MS, jobs_end = 0;
	const struct ft_pr_stage *st;
	double bal;

	ft_trace_init(t);
	t->ncpus = 3;
	ft_task_set(t, GAME, GAME, "game");
	ft_task_set(t, W0, GAME, "worker-0");
	ft_task_set(t, W1, GAME, "worker-1");
	sw(t, b - 10 * US, 0, 0, GAME, 0);
	for (int i = 0; i < 300; i++) {
		uint64_t j = b + 300 * US + (uint64_t)(200000 * rnd()), tf;

		if (jobs_end) {	/* the join: asleep until worker 0's fan-in */
			sw(t, j, 0, GAME, 0, 1);
			wake(t, jobs_end - 1 * US, 1, GAME, W0);
			sw(t, jobs_end, 1, W0, 0, 1);
			sw(t, jobs_end + 5 * US, 0, 0, GAME, 0);
			j = jobs_end + 5 * US;
		}
		tf = j + 45 * US;
		wake(t, tf, 0, W0, GAME);
		wake(t, tf + 1 * US, 0, W1, GAME);
		sw(t, tf + 10 * US, 1, 0, W0, 0);
		sw(t, tf + 10 * US, 2, 0, W1, 0);
		sw(t, tf + 10 * US + w1_us * US - 10 * US, 2, W1, 0, 1);
		jobs_end = tf + 900 * US;
		frame(t, GAME, GAME, prev, tf + 300 * US);
		prev = tf + 300 * US;
		b = prev;
	}
	sw(t, jobs_end, 1, W0, 0, 1);
	t->end_ns = jobs_end + MS;
	assert_int_equal(ft_trace_finish(t), 0);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(f->a.nstages, 1);
	assert_int_equal(f->a.npool, 2);
	st = &f->a.stage[0];
	assert_true(st->nmode >= 290);
	assert_int_equal(st->nsteps, 5);
	assert_int_equal(st->step[1].kind, PR_JOIN);
	assert_int_equal(st->step[3].kind, PR_FANOUT);
	assert_true(st->step[3].async);
	assert_int_equal(st->step[3].jobs, 2);
	/* the jobs' CPU: 870 + w1 - 10 us a frame over 2 */
	assert_true(fabs(pr_mean(&st->step[3]) - (870 + w1_us - 10) * 500.0) < 30000);
	assert_true(fabs(pr_mean(&st->step[4]) - 300000) < 15000);
	/* the busiest worker's part: 890 us of 1760 is 1.01x an equal share;
	 * with w1 300 us, more than 1.2x (1.25: the window is the stage's
	 * activation, which ends before worker 0's job) */
	assert_int_equal(st->step[3].even, w1_us == 880);
	bal = f->a.tally.bal_sum / (double)f->a.tally.bal_n;
	assert_true(w1_us == 880 ? bal < 1.05 : bal > 1.2);
	pr_done(f);
}

static void test_pipelined(void **state)
{
	(void)state;
	pipelined(880);
}

static void test_pipelined_unequal(void **state)
{
	(void)state;
	pipelined(300);
}

/*
 * A fence-synchronised pool, as llvmpipe's: the game thread (CPU 0) works
 * 300-500 us, fans out to two workers (CPUs 1 and 2, 4 ms each), works on
 * 3 ms beside them (the next scene), calls the server (asleep 60 us, its
 * reply wakes it), works 100 us, then sleeps on the fence until worker
 * 0's fan-in, works 200 us and presents. Taken as a waited-for fan-out
 * (a fan-in woke it in the frame), the replay put the 3 ms after the
 * jobs: the fan-out is asynchronous, its join at the fan-in.
 */
/* The workers wake each other three times a job, more often than the game
 * thread wakes them, as llvmpipe's rasterizer threads do. */
static void chatter(struct ft_trace *t, uint64_t tf)
{
	for (int c = 0; c < 3; c++) {
		uint64_t x = tf + 500 * US + (uint64_t)c * MS;

		sw(t, x, 2, W1, 0, 1);
		wake(t, x + 100 * US, 1, W1, W0);
		sw(t, x + 110 * US, 2, 0, W1, 0);
		sw(t, x + 500 * US, 1, W0, 0, 1);
		wake(t, x + 600 * US, 2, W0, W1);
		sw(t, x + 610 * US, 1, 0, W0, 0);
	}
}

/* Frames of the fence-synchronised game: scenes fan-outs a frame, the
 * workers waking each other when talk is set. */
static void build_fence(struct ft_trace *t, int scenes, bool talk)
{
	uint64_t b = T0, prev = T0 - MS;

	ft_trace_init(t);
	t->ncpus = 3;
	ft_task_set(t, GAME, GAME, "game");
	ft_task_set(t, W0, GAME, "worker-0");
	ft_task_set(t, W1, GAME, "worker-1");
	ft_task_set(t, SERVER, SERVER, "server");
	sw(t, b - 10 * US, 0, 0, GAME, 0);
	for (int i = 0; i < 200; i++) {
		uint64_t tf = b + 300 * US + (uint64_t)(200000 * rnd()), c, e = 0;

		for (int k = 0; k < scenes; k++) {
			wake(t, tf, 0, W0, GAME);
			wake(t, tf + 1 * US, 0, W1, GAME);
			sw(t, tf + 10 * US, 1, 0, W0, 0);
			sw(t, tf + 10 * US, 2, 0, W1, 0);
			if (talk)
				chatter(t, tf);
			c = tf + 3 * MS;	/* the call, while the jobs run */
			wake(t, c, 0, SERVER, GAME);
			sw(t, c + 2 * US, 0, GAME, SERVER, 1);
			wake(t, c + 60 * US, 0, GAME, SERVER);
			sw(t, c + 62 * US, 0, SERVER, GAME, 1);
			sw(t, c + 162 * US, 0, GAME, 0, 1);	/* the fence */
			sw(t, tf + 3990 * US, 2, W1, 0, 1);
			e = tf + 4 * MS;
			wake(t, e, 1, GAME, W0);
			sw(t, e + 2 * US, 1, W0, 0, 1);
			sw(t, e + 5 * US, 0, 0, GAME, 0);
			tf = e + 300 * US;
		}
		frame(t, GAME, GAME, prev, e + 205 * US);
		prev = e + 205 * US;
		b = prev;
	}
	t->end_ns = b + MS;
	assert_int_equal(ft_trace_finish(t), 0);
}

static void test_fence_pool(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	const struct ft_pr_stage *st;
	char *text = NULL;
	const char *async;
	size_t len = 0;

	(void)state;
	build_fence(&f->t, 1, false);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(f->a.nstages, 1);
	assert_int_equal(f->a.npool, 2);
	st = &f->a.stage[0];
	assert_true(st->nmode >= 190);
	assert_int_equal(st->unexpressed, 0);
	/* work, fanout async, work, call, work, join, work */
	assert_int_equal(st->nsteps, 7);
	assert_int_equal(st->step[1].kind, PR_FANOUT);
	assert_true(st->step[1].async);
	assert_int_equal(st->step[1].jobs, 2);
	assert_int_equal(st->step[5].kind, PR_JOIN);
	assert_true(fabs(pr_mean(&st->step[2]) - 3000000) < 100000);
	assert_true(fabs(pr_mean(&st->step[6]) - 200000) < 20000);
	/* framebench's parser takes it (ft_pr_profile_text checks) */
	assert_int_equal(ft_pr_profile_text(&f->a, "fence.ftr", "fence", &text,
					    &len, f->err, sizeof(f->err)), 0);
	async = strstr(text, "\n  fanout 2 ");
	assert_non_null(async);
	assert_non_null(strstr(async, " async # "));
	assert_non_null(strstr(async, "then waited for their fan-in"));
	assert_non_null(strstr(async, "\n  join "));
	free(text);
	pr_done(f);
}

/* Two such fan-outs a frame: framebench has one asynchronous fan-out a
 * stage, so the first is taken as waited for, and the profile says so
 * instead of hiding it. */
static void test_fence_twice(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	const struct ft_pr_stage *st;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	build_fence(&f->t, 2, false);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	st = &f->a.stage[0];
	assert_true(st->nmode >= 190);
	assert_int_equal(st->unexpressed, st->nmode);
	assert_int_equal(ft_pr_profile_text(&f->a, "twice.ftr", "twice", &text,
					    &len, f->err, sizeof(f->err)), 0);
	assert_non_null(strstr(text, "# overlap not expressed: in "));
	free(text);
	pr_done(f);
}

/* Workers that wake each other more often than the game thread wakes
 * them are still its pool: taking the busiest waker, one of them, as the
 * caller left one member, and llvmpipe's rasterizer threads were services
 * in some recordings and a pool in others. */
static void test_pool_wakes_itself(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));

	(void)state;
	build_fence(&f->t, 1, true);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(f->a.npool, 2);
	assert_int_equal(f->a.pool_caller, GAME);
	assert_int_equal(f->a.nsvc, 1);
	pr_done(f);
}

/*
 * A pool whose fan-out is not always seen: the game thread works 300 us,
 * wakes two workers (in 4 frames of 10 an interrupt wakes them instead,
 * as when llvmpipe's rasterizers need no wake-up), sleeps until worker 0
 * wakes it 2 ms later, works 100 us and calls the server once (twice in
 * 3 frames of 10). The sequence without a fan-out is the commonest, but
 * every frame has the pool's jobs: the profile keeps a fan-out.
 */
static void test_fanout_unseen(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct ft_trace *t = &f->t;
	uint64_t b = T0, prev = T0 - MS;
	const struct ft_pr_stage *st;
	bool fan = false;

	(void)state;
	ft_trace_init(t);
	t->ncpus = 3;
	ft_task_set(t, GAME, GAME, "game");
	ft_task_set(t, W0, GAME, "worker-0");
	ft_task_set(t, W1, GAME, "worker-1");
	ft_task_set(t, SERVER, SERVER, "server");
	sw(t, b - 10 * US, 0, 0, GAME, 0);
	for (int i = 0; i < 200; i++) {
		uint64_t tf = b + 300 * US + (uint64_t)(50000 * rnd()), c;
		uint32_t by = i % 10 < 4 ? 0 : GAME;

		wake(t, tf, 0, W0, by);
		wake(t, tf + 1 * US, 0, W1, by);
		sw(t, tf + 2 * US, 0, GAME, 0, 1);
		sw(t, tf + 10 * US, 1, 0, W0, 0);
		sw(t, tf + 10 * US, 2, 0, W1, 0);
		sw(t, tf + 1990 * US, 2, W1, 0, 1);
		wake(t, tf + 2 * MS, 1, GAME, W0);
		sw(t, tf + 2002 * US, 1, W0, 0, 1);
		sw(t, tf + 2005 * US, 0, 0, GAME, 0);
		c = tf + 2105 * US;
		for (int k = 0; k < (i % 10 >= 7 ? 2 : 1); k++, c += 100 * US) {
			wake(t, c, 0, SERVER, GAME);
			sw(t, c + 2 * US, 0, GAME, SERVER, 1);
			wake(t, c + 50 * US, 0, GAME, SERVER);
			sw(t, c + 52 * US, 0, SERVER, GAME, 1);
		}
		frame(t, GAME, GAME, prev, c + 50 * US);
		prev = c + 50 * US;
		b = prev;
	}
	t->end_ns = b + MS;
	assert_int_equal(ft_trace_finish(t), 0);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(f->a.npool, 2);
	st = &f->a.stage[0];
	for (unsigned j = 0; j < st->nsteps; j++)
		fan |= st->step[j].kind == PR_FANOUT;
	assert_true(fan);
	assert_true(st->nmode >= 55);
	pr_done(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipelined),
		cmocka_unit_test(test_pipelined_unequal),
		cmocka_unit_test(test_fence_pool),
		cmocka_unit_test(test_fence_twice),
		cmocka_unit_test(test_pool_wakes_itself),
		cmocka_unit_test(test_fanout_unseen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
