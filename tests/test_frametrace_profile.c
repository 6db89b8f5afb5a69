// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace profile's derivation (profile/pipeline.h; its arithmetic:
 * test_frametrace_fit.c): the whole analysis on hand-made timelines (a game that fans out to a pool, calls
 * a server and has an audio timer; a chain with a cycle; a presenter with
 * no work; traces without frames), the derived profile checked by
 * framebench's own parser, and the all-or-nothing write.
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

#include "trace/finish.h"
#include "trace/marker.h"
#include "analysis/model.h"
#include "fbprofile.h"		/* the workload profile parser (lib/) */
#include "profile/profile_fit.h"
#include "profile/pipeline.h"
#include "import/import.h"
#include "profile/profile_write.h"
#include "test_frametrace.h"
#include "test_frametrace_pr.h"

/* ---- hand-made timelines ------------------------------------------------ */

enum { GAME = 100, W0 = 101, W1 = 102, AUDIO = 103, SERVER = 200, PRES = 10 };

static void irq_wake(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t tid)
{
	add(t, ev(ts, FT_EV_WAKING, cpu, tid, 0, cpu | 120u << 16, 0, FT_F_IRQ));
}

static void frame(struct ft_trace *t, uint32_t pid, uint32_t tid, uint64_t prev,
		  uint64_t present)
{
	struct ft_frame f = { .present_ns = present, .frametime_ns = present - prev,
			      .pid = pid, .tid = tid };

	assert_int_equal(ft_frame_push(t, &f), 0);
}

/*
 * The game thread (CPU 0) presents, then works W0 (300-500 us), fans out
 * to two workers (205 and 200 us; the later one wakes it), works 100 us,
 * calls the server in its own process (50 us), works 50 us and presents
 * the next frame; an audio thread (CPU 2) is woken by its timer every
 * 5 ms and works 100 us. nframes frames.
 */
/* When set: after each present the game thread wakes this kernel
 * thread (named kthread_comm), which runs 20 us and answers nothing, as
 * rcu_preempt did in a real game's recording. */
static uint32_t kthread_tid;
static const char *kthread_comm;

static void build_game_named(struct ft_trace *t, int nframes, const char *w0,
			     const char *w1)
{
	uint64_t b = T0, prev = T0 - MS;

	ft_trace_init(t);
	t->ncpus = 3;
	ft_task_set(t, GAME, GAME, "game");
	ft_task_set(t, W0, GAME, w0);
	ft_task_set(t, W1, GAME, w1);
	ft_task_set(t, AUDIO, GAME, "audio-mixer");
	ft_task_set(t, SERVER, SERVER, "server");
	if (kthread_tid)
		ft_task_set(t, kthread_tid, kthread_tid, kthread_comm);
	sw(t, b - 10 * US, 0, 0, GAME, 0);
	for (int i = 0; i < nframes; i++) {
		uint64_t t1 = b + 300 * US + (uint64_t)(200000 * rnd()), t2, t3;

		wake(t, t1, 0, W0, GAME);
		wake(t, t1 + 1 * US, 0, W1, GAME);
		sw(t, t1 + 2 * US, 0, GAME, 0, 1);
		sw(t, t1 + 10 * US, 0, 0, W1, 0);
		sw(t, t1 + 10 * US, 1, 0, W0, 0);
		sw(t, t1 + 210 * US, 0, W1, 0, 1);
		wake(t, t1 + 215 * US, 1, GAME, W0);
		sw(t, t1 + 220 * US, 1, W0, 0, 1);
		sw(t, t1 + 225 * US, 0, 0, GAME, 0);
		t2 = t1 + 325 * US;
		wake(t, t2, 0, SERVER, GAME);
		sw(t, t2 + 2 * US, 0, GAME, 0, 1);
		sw(t, t2 + 10 * US, 1, 0, SERVER, 0);
		wake(t, t2 + 58 * US, 1, GAME, SERVER);
		sw(t, t2 + 60 * US, 1, SERVER, 0, 1);
		sw(t, t2 + 65 * US, 0, 0, GAME, 0);
		t3 = t2 + 115 * US;
		frame(t, GAME, GAME, prev, t3);
		if (kthread_tid) {
			wake(t, t3 + 1 * US, 0, kthread_tid, GAME);
			sw(t, t3 + 5 * US, 2, 0, kthread_tid, 0);
			sw(t, t3 + 25 * US, 2, kthread_tid, 0, 1);
		}
		prev = t3;
		b = t3;
	}
	for (uint64_t a = T0 + 2 * MS; a + MS < b; a += 5 * MS) {
		irq_wake(t, a, 2, AUDIO);
		sw(t, a + 5 * US, 2, 0, AUDIO, 0);
		sw(t, a + 105 * US, 2, AUDIO, 0, 1);
	}
	t->end_ns = b + MS;
	assert_int_equal(ft_trace_finish(t), 0);
}

static void build_game(struct ft_trace *t, int nframes)
{
	build_game_named(t, nframes, "worker-0", "worker-1");
}

static void test_game_roles(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	const struct ft_pr_analysis *a = &f->a;
	const struct ft_pr_stage *st;

	(void)state;
	build_game(&f->t, 300);
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(a->presenter, GAME);
	assert_int_equal(a->nf, 300);
	assert_int_equal(a->fps, 0);		/* uncapped */
	assert_int_equal(a->fif, 1);
	/* the pool: both workers, signalled by the game thread */
	assert_int_equal(a->npool, 2);
	assert_int_equal(a->pool_caller, GAME);
	assert_string_equal(a->pool_stem, "worker");
	/* the server in its own process */
	assert_int_equal(a->nsvc, 1);
	assert_int_equal(a->svc[0].tid, SERVER);
	assert_int_equal(a->nprocs, 1);
	assert_int_equal(a->proc[1].pid, SERVER);
	/* one stage: work, fan-out to 2, work, call, work */
	assert_int_equal(a->nstages, 1);
	st = &a->stage[0];
	assert_int_equal(st->nmode, 300);
	assert_int_equal(st->nsteps, 5);
	assert_int_equal(st->step[0].kind, PR_WORK);
	assert_int_equal(st->step[1].kind, PR_FANOUT);
	assert_int_equal(st->step[1].jobs, 2);
	assert_int_equal(st->step[2].kind, PR_WORK);
	assert_int_equal(st->step[3].kind, PR_CALL);
	assert_int_equal(st->step[4].kind, PR_WORK);
	/* the works (the CPU between the signals) */
	assert_true(fabs(pr_mean(&st->step[0]) - 400000) < 15000);
	assert_int_equal(st->step[0].dist.kind, PF_UNIFORM);
	assert_true(fabs(pr_mean(&st->step[2]) - 102000) < 3000);
	assert_true(fabs(pr_mean(&st->step[4]) - 52000) < 3000);
	/* the jobs: the pool's 410 us per frame over 2; the call: 50 us */
	assert_true(fabs(pr_mean(&st->step[1]) - 205000) < 3000);
	assert_true(fabs(a->pool_cpu_frame - 410000) < 3000);
	assert_true(fabs(pr_mean(&st->step[3]) - 50000) < 2000);
	/* the audio timer */
	assert_true(a->per[PR_PER_AUDIO].on);
	assert_int_equal(a->per[PR_PER_AUDIO].tid, AUDIO);
	assert_true(llabs((long long)a->per[PR_PER_AUDIO].period_ns - 5000000) < 1000);
	assert_string_equal(a->per[PR_PER_AUDIO].by, "name");
	assert_true(fabs(ft_pf_dist_mean(&a->per[PR_PER_AUDIO].work) - 100000) < 2000);
	assert_false(a->per[PR_PER_INPUT].on);
	/* figures compare shows: stage + call + fan-out, no vsync */
	assert_true(a->chain_wakeups == 5);
	assert_true(a->cross > 0 && a->cross < a->wakes);
	pr_done(f);
}

static void test_game_profile_parses(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct fb_profile *p = calloc(1, sizeof(*p));
	char *text = NULL, err[512];
	size_t len = 0;

	(void)state;
	build_game(&f->t, 200);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, 0);
	/* the step cost from the trace: the game's 2 us from a signal to its
	 * sleep, under the least work between two steps */
	assert_true(fabs(f->a.step_ns - 2000) < 300);
	assert_int_equal(ft_pr_profile_text(&f->a, "game.ftr", "game", &text, &len,
					 err, sizeof(err)), 0);
	/* framebench's own parser, as framebench will read it */
	assert_int_equal(fb_profile_parse(text, len, "game.profile", p, err,
					  sizeof(err)), 0);
	assert_string_equal(p->name, "game");
	assert_int_equal(p->fps, 0);
	assert_int_equal(p->frames_in_flight, 1);
	assert_int_equal(p->workers, 2);
	assert_string_equal(p->worker_thread, "worker-%d");
	assert_int_equal(p->nprocs, 1);
	assert_string_equal(p->proc[1], "server");
	assert_int_equal(p->nservices, 1);
	assert_int_equal(p->service[0].process, 1);
	assert_string_equal(p->service[0].thread, "server");
	assert_int_equal(p->nstages, 1);
	assert_string_equal(p->stage[0].thread, "game");
	assert_int_equal(p->stage[0].nsteps, 5);
	assert_int_equal(p->stage[0].step[1].kind, FB_STEP_FANOUT);
	assert_int_equal(p->stage[0].step[1].jobs, 2);
	assert_int_equal(p->stage[0].step[3].kind, FB_STEP_CALL);
	assert_true(p->periodic[FB_PER_AUDIO].enabled);
	assert_int_equal(p->periodic[FB_PER_AUDIO].period_ns, 5000000);
	assert_string_equal(p->periodic[FB_PER_AUDIO].thread, "audio-mixer");
	assert_non_null(strstr(text, "# stage 1: game:100"));
	free(text);
	free(p);
	pr_done(f);
}

/* Wine names every thread of a game after its .exe: the pool is the
 * threads the game thread signals, the game thread itself left out. */
static void test_pool_same_name(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct fb_profile *p = calloc(1, sizeof(*p));
	char *text = NULL, err[512];
	size_t len = 0;

	(void)state;
	build_game_named(&f->t, 150, "game", "game");
	pr_analyze(f, 0);
	assert_int_equal(f->rc, 0);
	assert_int_equal(f->a.npool, 2);
	assert_true(f->a.pool[0] != GAME && f->a.pool[1] != GAME);
	assert_int_equal(f->a.nstages, 1);
	assert_int_equal(f->a.stage[0].tid, GAME);
	assert_int_equal(ft_pr_profile_text(&f->a, "g.ftr", "g", &text, &len, err,
					 sizeof(err)), 0);
	assert_int_equal(fb_profile_parse(text, len, "g.profile", p, err,
					  sizeof(err)), 0);
	assert_string_equal(p->worker_thread, "game");
	free(text);
	free(p);
	pr_done(f);
}

/* A kernel thread the game thread wakes once a frame is no stage: known
 * by its name (rcu_preempt, kworker/0:1) or, with any name, by the flag
 * an import or a recording gives kthreadd's children. */
static void test_kthread_no_stage(void **state)
{
	static const char *const names[] = { "rcu_preempt", "kworker/0:1",
					     "mythread" };

	(void)state;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct pr_fixture *f = calloc(1, sizeof(*f));

		kthread_tid = 15;
		kthread_comm = names[k];
		build_game(&f->t, 200);
		kthread_tid = 0;
		if (k == 2)	/* a name that says nothing: the flag */
			ft_task_get_mut(&f->t, 15)->flags |= FT_TASK_KTHREAD;
		pr_analyze(f, -1);
		assert_int_equal(f->rc, 0);
		assert_int_equal(f->a.nstages, 1);
		assert_int_equal(f->a.stage[0].tid, GAME);
		for (size_t i = 0; i < f->m.ntask; i++)
			if (f->m.task[i].tid == 15)
				assert_int_equal(f->a.th[i].role, PR_NONE);
		pr_done(f);
	}
}

/* A damaged file whose task table was lost: the threads and their tgids
 * are still in the events, their names are not. It gave a profile of
 * process "?" with every thread in one pool; now it is refused. */
static void test_names_lost(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));

	(void)state;
	build_game(&f->t, 200);
	for (size_t i = 0; i < f->t.ntasks; i++)
		f->t.tasks[i].comm[0] = '\0';
	f->t.corrupt_events = 1024;
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "the trace has no name for 4 of the 4 "
				       "threads that would have a role"));
	assert_non_null(strstr(f->err, "the file is damaged"));
	pr_done(f);
}

/* perf script text without pids whose frames name a process (a marker's
 * tgid) that none of its tasks could be put in: the message says why,
 * not "record the scheduler events" (they are there). */
static void test_frames_process_unknown(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	size_t cap = 200 * 400, len = 0;
	char *text = malloc(cap);

	(void)state;
	for (int i = 0; i < 150; i++) {
		unsigned ms = 1000 + (unsigned)i * 16;

		len += (size_t)snprintf(text + len, cap - len,
			" game 5 [000] 1.%06u000: ftrace:print: buf=B|999|frame %d\n"
			" game 5 [000] 1.%06u000: sched:sched_switch: prev_comm=game prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
			" <idle> 0 [000] 1.%06u000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=game next_pid=5 next_prio=120\n"
			" game 5 [000] 1.%06u000: ftrace:print: buf=E|999\n"
			" game 5 [000] 1.%06u000: ftrace:print: buf=C|999|frametime_us|%u\n",
			ms, i, ms + 5, ms + 10, ms + 12, ms + 13, 15000 + (unsigned)(i % 7) * 500);
	}
	assert_true(ft_import_mem(text, len, "t.txt", FT_FMT_PERF, &f->t,
				  f->err, sizeof(f->err)) >= 0);
	free(text);
	assert_true(f->t.nframes >= 100);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "no task of the trace was found to be "
				       "in process 999"));
	assert_non_null(strstr(f->err, "the text has no pid column"));
	pr_done(f);
}

/* P wakes A, A wakes B, B wakes C, C wakes A again: a loop that does not
 * pass the presenter; then P is woken by its timer and presents. */
static void test_cycle(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct ft_trace *t = &f->t;
	uint64_t b = T0, prev = T0 - MS;
	uint32_t seq[] = { PRES, 11, 12, 13, 11 };

	(void)state;
	ft_trace_init(t);
	t->ncpus = 1;
	ft_task_set(t, PRES, PRES, "present");
	for (uint32_t k = 11; k <= 13; k++)
		ft_task_set(t, k, PRES, k == 11 ? "a" : k == 12 ? "b" : "c");
	for (int i = 0; i < 150; i++) {
		uint64_t x = b;

		irq_wake(t, x, 0, PRES);
		sw(t, x + 5 * US, 0, 0, PRES, 0);
		for (int k = 0; k < 4; k++) {
			wake(t, x + 10 * US, 0, seq[k + 1], seq[k]);
			sw(t, x + 20 * US, 0, seq[k], seq[k + 1], 1);
			x += 30 * US;
		}
		sw(t, x + 10 * US, 0, 11, 0, 1);
		irq_wake(t, x + 20 * US, 0, PRES);
		sw(t, x + 25 * US, 0, 0, PRES, 0);
		frame(t, PRES, PRES, prev, x + 40 * US);
		prev = x + 40 * US;
		sw(t, x + 50 * US, 0, PRES, 0, 1);
		b += MS + (uint64_t)(300000 * rnd());
	}
	assert_int_equal(ft_trace_finish(t), 0);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "a cycle in the chain"));
	pr_done(f);
}

/* A presenter whose frames cost it 200 ns: a stage with no work. */
static void test_no_work(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct ft_trace *t = &f->t;
	uint64_t prev = T0 - MS;

	(void)state;
	ft_trace_init(t);
	t->ncpus = 1;
	ft_task_set(t, PRES, PRES, "present");
	for (int i = 0; i < 150; i++) {
		uint64_t x = T0 + (uint64_t)i * MS + (uint64_t)(300000 * rnd());

		irq_wake(t, x, 0, PRES);
		sw(t, x + 1 * US, 0, 0, PRES, 0);
		frame(t, PRES, PRES, prev, x + 1 * US + 100);
		prev = x + 1 * US + 100;
		sw(t, x + 1 * US + 200, 0, PRES, 0, 1);
	}
	assert_int_equal(ft_trace_finish(t), 0);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "shows no work per frame"));
	pr_done(f);
}

static void test_bad_input(void **state)
{
	struct pr_fixture *f = calloc(1, sizeof(*f));
	struct ft_pr_opts o = { .step_ns = -1 };

	(void)state;
	/* no frames */
	ft_trace_init(&f->t);
	f->t.ncpus = 1;
	ft_task_set(&f->t, GAME, GAME, "game");
	sw(&f->t, T0, 0, 0, GAME, 0);
	sw(&f->t, T0 + MS, 0, GAME, 0, 1);
	assert_int_equal(ft_trace_finish(&f->t), 0);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "no frames"));
	ft_pr_free(&f->a);
	ft_model_free(&f->m);
	ft_trace_free(&f->t);

	/* too few */
	build_game(&f->t, 60);
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "only 60 frames"));
	ft_pr_free(&f->a);
	ft_model_free(&f->m);
	ft_trace_free(&f->t);

	/* a window past the frames, and one too short */
	build_game(&f->t, 200);
	assert_int_equal(ft_model_build(&f->m, &f->t), 0);
	o.window = true;
	o.first = 300;
	o.last = 400;
	assert_int_equal(ft_pr_analyze(&f->a, &f->m, &o, f->err, sizeof(f->err)), -1);
	assert_non_null(strstr(f->err, "has frames 0..199"));
	ft_pr_free(&f->a);
	o.first = 10;
	o.last = 50;
	assert_int_equal(ft_pr_analyze(&f->a, &f->m, &o, f->err, sizeof(f->err)), -1);
	assert_non_null(strstr(f->err, "only 41 frames"));
	ft_pr_free(&f->a);
	o.first = 50;
	o.last = 180;
	assert_int_equal(ft_pr_analyze(&f->a, &f->m, &o, f->err, sizeof(f->err)), 0);
	assert_int_equal(f->a.nf, 131);
	ft_pr_free(&f->a);
	/* a process without frames: the message names the option given */
	o.window = false;
	o.pid = 4242;
	o.pid_opt = "--pid-a";
	assert_int_equal(ft_pr_analyze(&f->a, &f->m, &o, f->err, sizeof(f->err)), -1);
	assert_string_equal(f->err, "no frames of process 4242 in the trace (--pid-a)");
	ft_pr_free(&f->a);
	ft_model_free(&f->m);
	ft_trace_free(&f->t);

	/* frames of a process the scheduler events do not show */
	build_game(&f->t, 150);
	for (size_t i = 0; i < f->t.nframes; i++) {
		f->t.frames[i].pid = 999;
		f->t.frames[i].tid = 0;
	}
	pr_analyze(f, -1);
	assert_int_equal(f->rc, -1);
	assert_non_null(strstr(f->err, "no scheduling events of process 999"));
	pr_done(f);
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/ftprofXXXXXX", path[128], err[256], buf[64];
	FILE *fp;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.profile", dir);
	assert_int_equal(ft_pr_write_atomic(path, "name x\n", 7, err, sizeof(err)), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	assert_int_equal(n, 7);
	/* a directory that does not exist: nothing written, the reason said */
	snprintf(path, sizeof(path), "%s/no/x.profile", dir);
	assert_int_equal(ft_pr_write_atomic(path, "name x\n", 7, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot write"));
	/* only x.profile is left: no temporary file */
	snprintf(path, sizeof(path), "%s/x.profile", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_roles),
		cmocka_unit_test(test_game_profile_parses),
		cmocka_unit_test(test_pool_same_name),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_kthread_no_stage),
		cmocka_unit_test(test_names_lost),
		cmocka_unit_test(test_frames_process_unknown),
		cmocka_unit_test(test_no_work),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_atomic_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
