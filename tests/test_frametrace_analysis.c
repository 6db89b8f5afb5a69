// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of frametrace's analysis: the timeline model on a futex
 * ping-pong, slow-frame explanations (the link that made a frame slow, a
 * lock wait that is not the origin, a wake-up not acted on, a delay
 * before the chain), and the host's steal over a window and in the report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/explain.h"
#include "import/import.h"
#include "trace/marker.h"
#include "trace/finish.h"
#include "analysis/model.h"
#include "export/report.h"
#include "trace/steal.h"
#include "test_frametrace.h"

/* Two threads ping-pong on CPU 0 through futexes. */
static void model_ping_pong(void **state)
{
	struct ft_trace t;
	struct ft_model m;
	struct ft_tstat *a, *b;

	(void)state;
	ft_trace_init(&t);
	ft_task_set(&t, 10, 10, "ping");
	ft_task_set(&t, 11, 10, "pong");
	sw(&t, T0, 0, 0, 10, 0);
	for (int i = 0; i < 100; i++) {
		uint64_t base = T0 + (uint64_t)i * 40 * US;

		wake(&t, base + 10 * US, 0, 11, 10);
		add(&t, ev(base + 5 * US, FT_EV_FUTEX, 0, 10, 1 /* WAKE */, 500, 0x1000, 0));
		sw(&t, base + 12 * US, 0, 10, 11, 1);
		wake(&t, base + 30 * US, 0, 10, 11);
		sw(&t, base + 32 * US, 0, 11, 10, 1);
	}
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(ft_model_build(&m, &t), 0);
	a = ft_model_task(&m, 10);
	b = ft_model_task(&m, 11);
	assert_int_equal(b->switches, 100);
	assert_int_equal(b->wakeups, 100);
	assert_int_equal(a->wakes_sent, 100);
	assert_int_equal(b->runtime_ns, 100 * 20 * US);
	assert_int_equal(b->wlat->count, 100);
	assert_int_equal(gs_hist_pct(b->wlat, 50), 2 * US);
	assert_int_equal(a->futex_wakes, 100);
	assert_int_equal(m.nedge, 2);
	assert_true(m.nchain >= 2);
	assert_true(b->lat_score > 1);
	ft_model_free(&m);
	ft_trace_free(&t);
}

/* In the slow frame a hog holds CPU 0 while the render thread waits to
 * run: the explanation must name that link, its runnable wait, the hog
 * and its long slice. */
static void explain_slow_frame(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 60,
				    .name = "t" };
	const struct ft_explain *x;
	const struct ft_link *l;
	char *text = NULL;

	(void)state;
	build_frames(&t);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_true(r.has_fps);
	assert_int_equal(r.nslow, 1);
	assert_int_equal(r.nex, 1);
	x = &r.ex[0];
	assert_int_equal(t.frames[x->frame].frametime_ns, 65 * MS);
	assert_int_equal(x->presenter, 52);
	assert_int_equal(x->nlinks, 3);
	assert_int_equal(x->link[0].tid, 52);
	assert_int_equal(x->link[1].tid, 51);
	assert_int_equal(x->link[2].tid, 50);
	assert_int_equal(x->stop, FT_STOP_FRAME_START);
	l = &x->link[1];
	assert_int_equal(l->waker, 50);
	assert_true(l->runnable_ns >= 15 * MS);
	assert_int_equal(l->nholders, 2);
	assert_int_equal(l->holder[0].tid, 60);
	assert_int_equal(l->holder[0].why, FT_WHY_LONG_SLICE);
	assert_int_equal(x->origin, 1);
	assert_string_equal(x->origin_what, "runnable");
	assert_true(x->origin_excess_ns >= (int64_t)(14 * MS));
	assert_true(r.has_median);
	assert_int_equal(r.median.nlinks, 3);

	text = report_text(&r);
	assert_non_null(strstr(text, "delay originates at #2 render:51: waited runnable"));
	assert_non_null(strstr(text, "hog:60"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/*
 * The present thread waits on a futex from its last run until the render
 * thread wakes it, so in the slow frame that wait is 15 ms longer too:
 * but the render link's runnable wait covers that time, and counting the
 * wait would blame the wrong link. The origin stays the render link, and
 * its share of the frame's excess over the median is stated.
 */
static void explain_lock_wait_not_origin(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 60,
				    .name = "t" };
	const struct ft_explain *x;
	char *text = NULL;

	(void)state;
	build_frames_with(&t, 60, true, false);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.nex, 1);
	x = &r.ex[0];
	assert_true(x->link[0].lock_wait_ns >= 63 * MS);
	assert_int_equal(x->origin, 1);
	assert_string_equal(x->origin_what, "runnable");
	assert_int_equal(x->frame_excess_ns, (int64_t)(15 * MS));
	text = report_text(&r);
	assert_non_null(strstr(text, "(+15.00 ms of the frame's +15.00 ms)"));
	assert_null(strstr(text, "wake-up not acted on"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/*
 * In the slow frame nothing else runs: the render thread waits runnable
 * while its CPU runs the idle task (a VM's vCPU the host did not run).
 * The link must say the wake-up was not acted on, with the legend once.
 */
static void explain_idle_wait(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 60,
				    .name = "t" };
	const struct ft_link *l;
	char *text = NULL;

	(void)state;
	build_frames_with(&t, 0, false, false);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.nex, 1);
	l = &r.ex[0].link[1];
	assert_int_equal(l->tid, 51);
	assert_true(l->own_idle_ns >= 15 * MS);
	assert_true(ft_link_idle_wait(l));
	assert_false(ft_link_idle_wait(&r.ex[0].link[0]));
	text = report_text(&r);
	assert_non_null(strstr(text, "idled 15.00 ms of it: wake-up not acted on (*)"));
	assert_non_null(strstr(text, "(*) the task waited runnable while the CPU"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/* The chain starts late: no origin, and the report says where the time is. */
static void explain_delay_before_chain(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 60,
				    .name = "t" };
	char *text = NULL;

	(void)state;
	build_frames_with(&t, 60, false, true);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.nex, 1);
	assert_int_equal(t.frames[r.ex[0].frame].frametime_ns, 65 * MS);
	assert_int_equal(r.ex[0].origin, -1);
	assert_int_equal(r.ex[0].frame_excess_ns, (int64_t)(15 * MS));
	text = report_text(&r);
	assert_non_null(strstr(text, "no link of the chain took longer than its "
				     "counterpart; the frame's +15.00 ms lies before the chain"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/*
 * A game thread (70) fans out to two symmetric workers: one rasterises
 * (10 ms; 14 ms in the slow frame), then wakes the other, which hands the
 * frame back after 5 us. Every frame the raster worker is w0, except the
 * slow frame's, where w1 rasterises and w0 hands off: compared with its
 * own link in the median chain (the 5 us hand-off) w1's run looked 14 ms
 * slow in a frame 4 ms slow. names: the workers' names.
 */
static void build_pool(struct ft_trace *t, const char *w0, const char *w1)
{
	ft_trace_init(t);
	t->ncpus = 1;
	ft_task_set(t, 70, 70, "game");
	ft_task_set(t, 71, 70, w0);
	ft_task_set(t, 72, 70, w1);
	for (int i = 0; i < 20; i++) {
		uint64_t b = T0 + (uint64_t)i * 50 * MS;
		uint64_t rast = i == 10 ? 14 * MS : 10 * MS;
		uint32_t r = i == 10 ? 72 : 71, h = i == 10 ? 71 : 72;
		uint64_t e = b + 2 * MS + 10 * US + rast;
		struct ft_frame fr = { .start_ns = b + 1 * MS,
				       .present_ns = e + 30 * US + 500 * US,
				       .pid = 70, .tid = 70 };

		add(t, ev(b + 1 * MS, FT_EV_WAKING, 0, 70, 0, 0, 0, FT_F_IRQ));
		sw(t, b + 1 * MS + 10 * US, 0, 0, 70, 0);
		wake(t, b + 2 * MS, 0, r, 70);
		sw(t, b + 2 * MS + 10 * US, 0, 70, r, 1);
		wake(t, e, 0, h, r);
		sw(t, e + 10 * US, 0, r, h, 1);
		wake(t, e + 15 * US, 0, 70, h);
		sw(t, e + 25 * US, 0, h, 70, 1);
		sw(t, e + 2 * MS, 0, 70, 0, 1);
		ft_frame_push(t, &fr);
	}
	ft_frames_fix(t);
	assert_int_equal(ft_trace_finish(t), 0);
}

/* A pool thread is compared with its role, the pool's longest run in the
 * median chain: w1's 14 ms raster run is 4 ms over w0's 10 ms there, all
 * of the frame's excess, and nothing is flagged. */
static void explain_pool_role(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 52,
				    .name = "t" };
	const struct ft_explain *x;
	char *text = NULL;

	(void)state;
	build_pool(&t, "llvmpipe-0", "llvmpipe-1");
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.nex, 1);
	x = &r.ex[0];
	assert_int_equal(x->frame_excess_ns, (int64_t)(4 * MS));
	assert_true(x->origin >= 0);
	assert_int_equal(x->link[x->origin].tid, 72);
	assert_string_equal(x->origin_what, "run");
	assert_true(x->origin_pool);
	assert_int_equal(x->origin_excess_ns, (int64_t)(4 * MS));
	assert_false(x->origin_exceeds);
	text = report_text(&r);
	assert_non_null(strstr(text, "llvmpipe-1:72: ran 14.00 ms here vs 10.00 ms "
				     "its pool's longest in the median frame's chain "
				     "(+4.00 ms of the frame's +4.00 ms)"));
	assert_null(strstr(text, "more than the frame's own excess"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/* The same timeline with threads that are no pool (their names differ):
 * each is compared with its own link, the raster thread's 14 ms with its
 * 5 us hand-off, and that origin, over three times the frame's excess, is
 * flagged. */
static void explain_origin_exceeds(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .slow_ms = 52,
				    .name = "t" };
	const struct ft_explain *x;
	char *text = NULL;

	(void)state;
	build_pool(&t, "raster", "handoff");
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.nex, 1);
	x = &r.ex[0];
	assert_int_equal(x->link[x->origin].tid, 72);
	assert_false(x->origin_pool);
	assert_true(x->origin_excess_ns > (int64_t)(13 * MS));
	assert_true(x->origin_exceeds);
	assert_false(ft_origin_exceeds(188070 * 1000, 188040 * 1000));
	assert_true(ft_origin_exceeds(30870 * 1000, 684 * 1000));
	text = report_text(&r);
	assert_non_null(strstr(text, "ran 14.00 ms here vs 5.0 us in the median "
				     "frame's chain (+13.99 ms of the frame's "
				     "+4.00 ms)\n       (more than the frame's own "
				     "excess: other links were faster"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/*
 * A watch capture taken during a long disturbance: every frame of its
 * window is slow (50 ms) against the running median before the trigger
 * (20 ms, in the capture's metadata). The report takes that median as its
 * baseline, not the window's own, and explains the trigger's frame (the
 * 6th, which its header names) first, then the worst.
 */
static void capture_baseline(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 3, .name = "t" };
	char *text = NULL, at[32];

	(void)state;
	build_frames(&t);
	ft_meta_set(&t, "trigger", "frame 50.00 ms = 2.5x the running median");
	ft_meta_set(&t, "trigger_median_ns", "%llu", 20 * MS);
	snprintf(at, sizeof(at), "%llu",
		 (unsigned long long)t.frames[5].present_ns + 300 * US);
	ft_meta_set(&t, "trigger_frame_ns", "%s", at);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_true(r.trigger_baseline);
	assert_true(r.median_ms > 19.99 && r.median_ms < 20.01);
	assert_true(r.fps.ft_p50 > 49.9);
	assert_int_equal(r.trig_frame, 5);
	assert_true(r.nslow >= 18);
	assert_int_equal(r.nex, 3);
	assert_int_equal(r.ex[0].frame, 5);
	assert_int_equal(t.frames[r.ex[1].frame].frametime_ns, 65 * MS);
	text = report_text(&r);
	assert_non_null(strstr(text, "baseline: 20.00 ms, the running median before "
				     "the capture's trigger"));
	assert_non_null(strstr(text, "the capture's trigger first, then the worst"));
	assert_non_null(strstr(text, "(running median before the trigger 20.00 ms) "
				     "[the capture's trigger]"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/*
 * A task (90) that wakes others on CPU 0 but is never switched in or out
 * by a record (on a real machine: threads present before the recording
 * whose switch-outs it never saw; in a perf recording of one command,
 * every other task). The repair puts it on the CPU around its events and
 * takes it off again, state unknown: counted as it was, that made
 * preemptions, and a wake-up latency of 1.1 s between its two events.
 * It is marked instead; the tasks with records keep their figures.
 */
static void switch_outs_unseen(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .name = "t" };
	const struct ft_tstat *s, *g;
	char *text = NULL;

	(void)state;
	ft_trace_init(&t);
	t.ncpus = 1;
	ft_task_set(&t, 50, 50, "game");
	ft_task_set(&t, 51, 50, "render");
	ft_task_set(&t, 52, 50, "present");
	ft_task_set(&t, 90, 1, "init-thread");
	sw(&t, T0, 0, 0, 50, 1);
	wake(&t, T0 + 100 * MS, 0, 52, 90);
	sw(&t, T0 + 200 * MS, 0, 50, 52, 1);
	wake(&t, T0 + 250 * MS, 0, 50, 52);
	sw(&t, T0 + 300 * MS, 0, 52, 50, 1);
	wake(&t, T0 + 1300 * MS, 0, 51, 90);
	sw(&t, T0 + 1400 * MS, 0, 50, 51, 0);
	sw(&t, T0 + 1500 * MS, 0, 51, 50, 1);
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_true(t.inconsistent > 0);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	s = ft_model_task(&r.m, 90);
	assert_non_null(s);
	assert_true(s->switches >= 2);
	assert_int_equal(s->switchouts_recorded, 0);
	assert_true(s->switchouts_unseen);
	assert_int_equal(s->preempted, 0);
	assert_null(s->wlat);
	g = ft_model_task(&r.m, 50);
	assert_false(g->switchouts_unseen);
	assert_true(g->preempted >= 1);
	assert_non_null(g->wlat);
	text = report_text(&r);
	assert_non_null(strstr(text, "switch-outs not seen"));
	assert_null(strstr(text, "1100000"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/* A /proc/stat with the given steal ticks for CPUs 0-2. */
/*
 * Wake-ups from interrupts. A recording whose interrupt depth got stuck
 * (an entry seen, its exit not) marks every wake-up on that CPU as an
 * interrupt's although the tasks there wake each other through futexes:
 * the report says so. perf text without an irq-flags column cannot tell
 * interrupt wake-ups apart: the report says its edges may include them;
 * ftrace text can.
 */
static void interrupt_wakeups(void **state)
{
	static const char perf[] =
		"  a 10 [000] 1.000000000: sched:sched_waking: comm=b pid=11 prio=120 target_cpu=000\n"
		"  a 10 [000] 1.000001000: sched:sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n";
	static const char ftrace[] =
		"# tracer: nop\n"
		"  a-10 [000] d.h2. 1.000000000: sched_waking: comm=b pid=11 prio=120 target_cpu=000\n"
		"  a-10 [000] d..2. 1.000001000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n";
	struct ft_report_opts o = { .top = 10, .name = "t" };
	struct ft_trace t;
	struct ft_report r;
	char err[256], *text;

	(void)state;
	ft_trace_init(&t);
	ft_meta_set(&t, "source", "record");
	t.ncpus = 2;
	for (int i = 0; i < 200; i++) {
		uint64_t b = T0 + (uint64_t)i * MS;

		/* CPU 0 stuck: 50 and 51 wake each other through futexes,
		 * every wake-up marked as an interrupt's; CPU 1 is fine */
		add(&t, ev(b, FT_EV_FUTEX, 0, 50, 1 /* WAKE */, 0, 0x1000, FT_F_NO_EXIT));
		add(&t, ev(b + 1000, FT_EV_WAKING, 0, 51, 50, 0, 0, FT_F_IRQ));
		add(&t, ev(b + 2000, FT_EV_FUTEX, 1, 60, 1, 0, 0x2000, FT_F_NO_EXIT));
		wake(&t, b + 3000, 1, 61, 60);
	}
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_string_equal(r.irq_context, "bpf");
	assert_string_equal(r.irq_suspect, "CPU0");
	assert_int_equal(r.irq_suspect_irq, 200);
	text = report_text(&r);
	assert_non_null(strstr(text, "warning: interrupt context looks stuck on CPU0: 200 of 200"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);

	assert_true(ft_import_mem(perf, strlen(perf), "p.txt", FT_FMT_UNKNOWN,
				  &t, err, sizeof(err)) >= 0);
	assert_string_equal(ft_meta_get(&t, "irq_context"), "none");
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	text = report_text(&r);
	assert_non_null(strstr(text, "this input does not say which wake-ups interrupts made"));
	assert_null(strstr(text, "looks stuck"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);

	assert_true(ft_import_mem(ftrace, strlen(ftrace), "f.txt", FT_FMT_UNKNOWN,
				  &t, err, sizeof(err)) >= 0);
	assert_string_equal(ft_meta_get(&t, "irq_context"), "flags");
	assert_true(t.ev[0].flags & FT_F_IRQ);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	assert_int_equal(r.m.nedge, 0); /* the interrupt's wake-up is no edge */
	text = report_text(&r);
	assert_null(strstr(text, "does not say which wake-ups"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

static void write_stat(const char *path, unsigned s0, unsigned s1, unsigned s2)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "cpu  30 0 30 300 0 0 0 %u 0 0\n", s0 + s1 + s2);
	fprintf(f, "cpu0 10 0 10 100 0 0 0 %u 0 0\n", s0);
	fprintf(f, "cpu1 10 0 10 100 0 0 0 %u 0 0\n", s1);
	fprintf(f, "cpu2 10 0 10 100 0 0 0 %u 0 0\n", s2);
	fprintf(f, "intr 1 2 3\n");
	fclose(f);
}

/*
 * Steal samples in a ring of 4: the window takes the last sample at or
 * before its start and the first at or after its end; older samples fall
 * out of the ring; the figures survive the trace's metadata and are
 * printed by the report.
 */
static void host_steal_window(void **state)
{
	char path[] = "/tmp/ft-stat-XXXXXX";
	int fd = mkstemp(path);
	uint64_t tick = 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);
	struct ft_steal st;
	struct ft_steal_sum sum, back;
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 5, .name = "t" };
	char *text = NULL;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ft_steal_init(&st, 3, 4, path), 0);
	write_stat(path, 0, 0, 0);
	assert_int_equal(ft_steal_sample(&st, 100), 0);
	assert_int_equal(ft_steal_window(&st, 0, 1000, &sum), -1); /* one sample */
	write_stat(path, 1, 0, 0);
	assert_int_equal(ft_steal_sample(&st, 200), 0);
	write_stat(path, 3, 5, 0);
	assert_int_equal(ft_steal_sample(&st, 300), 0);
	write_stat(path, 4, 9, 0);
	assert_int_equal(ft_steal_sample(&st, 400), 0);
	write_stat(path, 10, 9, 2);
	assert_int_equal(ft_steal_sample(&st, 500), 0); /* drops t=100 */

	/* 250..350: samples 200 and 400 */
	assert_int_equal(ft_steal_window(&st, 250, 350, &sum), 0);
	assert_int_equal(sum.span_ns, 200);
	assert_int_equal(sum.ncpus, 3);
	assert_int_equal(sum.total_ns, 12 * tick);
	assert_int_equal(sum.ntop, 2);
	assert_int_equal(sum.top_cpu[0], 1);
	assert_int_equal(sum.top_ns[0], 9 * tick);
	assert_int_equal(sum.top_cpu[1], 0);
	/* before the oldest kept sample: from 200; after the newest: to 500 */
	assert_int_equal(ft_steal_window(&st, 0, 10000, &sum), 0);
	assert_int_equal(sum.span_ns, 300);
	assert_int_equal(sum.total_ns, 20 * tick);
	assert_int_equal(sum.ntop, 3);
	assert_int_equal(sum.top_cpu[0], 0);
	assert_int_equal(sum.top_cpu[2], 2);
	ft_steal_free(&st);
	unlink(path);
	/* an unreadable file: no sample */
	assert_int_equal(ft_steal_init(&st, 3, 4, path), 0);
	assert_int_equal(ft_steal_sample(&st, 100), -1);
	ft_steal_free(&st);

	build_frames(&t);
	assert_int_equal(ft_steal_meta_get(&t, &back), -1);
	sum.span_ns = 2000000000ULL;
	sum.total_ns = 100000000ULL;
	ft_steal_meta_set(&t, &sum);
	assert_int_equal(ft_steal_meta_get(&t, &back), 0);
	assert_memory_equal(&back, &sum, sizeof(sum));
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	text = report_text(&r);
	assert_non_null(strstr(text, "host steal: 100.00 ms over 2.00 s on 3 CPUs (1.7 % of their time); most on CPU0"));
	assert_non_null(strstr(text, "the host did not run these vCPUs"));
	free(text);
	ft_report_free(&r);
	text = NULL;
	sum.total_ns = 0;
	sum.ntop = 0;
	ft_steal_meta_set(&t, &sum);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	text = report_text(&r);
	assert_non_null(strstr(text, "host steal: none over 2.00 s on 3 CPUs\n"));
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_ping_pong),
		cmocka_unit_test(explain_slow_frame),
		cmocka_unit_test(explain_lock_wait_not_origin),
		cmocka_unit_test(explain_idle_wait),
		cmocka_unit_test(explain_delay_before_chain),
		cmocka_unit_test(explain_pool_role),
		cmocka_unit_test(explain_origin_exceeds),
		cmocka_unit_test(capture_baseline),
		cmocka_unit_test(switch_outs_unseen),
		cmocka_unit_test(host_steal_window),
		cmocka_unit_test(interrupt_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
