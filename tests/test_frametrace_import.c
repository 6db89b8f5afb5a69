// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of frametrace's importers: perf script, ftrace and MangoHud
 * text, and the present calls (their names, libraries and events).
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
#include <unistd.h>

#include "trace/ftutil.h"
#include "import/import.h"
#include "mangohud.h"
#include "trace/present.h"
#include "test_frametrace.h"
#include "util.h"

/* ---- importers -------------------------------------------------------- */

static const char perf_text[] =
	"            perf  9160 [000]  3359.955913436: sched:sched_stat_runtime: comm=perf pid=9160 runtime=58056 [ns]\n"
	"     Web Content  9170 [001]  3359.955920000:       sched:sched_waking: comm=Web Content pid=9171 prio=120 target_cpu=001\n"
	"  9160/9160 [000]  3359.955926976:       sched:sched_switch: prev_comm=perf prev_pid=9160 prev_prio=120 prev_state=D ==> next_comm=Web Content next_pid=9171 next_prio=120\n"
	"            perf  9160 [000]  3359.955930000: irq:irq_handler_entry: irq=24 name=virtio0\n"
	"this line is garbage\n"
	"  9171 [000]  3359.955940000: sched:sched_switch: prev_comm=Web Content prev_pid=9171 prev_prio=120 prev_state=R+ ==> next_comm=perf next_pid=9160 next_prio=120\n"
	"  9160 [000]  3359.955950000: sched:sched_migrate_task: comm=perf pid=9160 prio=120 orig_cpu=0 dest_cpu=1\n";

static void import_perf_script(void **state)
{
	struct ft_trace t;
	char err[512];
	int rc;

	(void)state;
	assert_int_equal(ft_detect(perf_text, strlen(perf_text)), FT_FMT_PERF);
	rc = ft_import_mem(perf_text, strlen(perf_text), "p.txt", FT_FMT_UNKNOWN,
			   &t, err, sizeof(err));
	assert_int_equal(rc, 1); /* a bad line and an unknown event */
	assert_non_null(strstr(t.warning, "p.txt:5: not a perf script text event line"));
	assert_non_null(strstr(t.warning, "irq_handler_entry"));
	assert_non_null(strstr(t.warning, "p.txt:4"));
	assert_int_equal(t.nev, 5);
	assert_string_equal(ft_task_comm(&t, 9171), "Web Content");
	assert_int_equal(ft_task_pid(&t, 9160), 9160);
	/* the wake by 9170 of 9171, the switch with R+ = preempted */
	assert_int_equal(t.ev[1].type, FT_EV_WAKING);
	assert_int_equal(t.ev[1].tid, 9171);
	assert_int_equal(t.ev[1].arg, 9170);
	assert_int_equal(t.ev[3].type, FT_EV_SWITCH);
	assert_true(t.ev[3].flags & FT_F_PREEMPT);
	assert_int_equal(t.ev[0].val, 58056);
	assert_int_equal(t.ev[0].ts, 3359955913436ULL);
	ft_trace_free(&t);

	/* perf's unknown task (":-1"), with and without a pid column: the
	 * lines are kept for their fields (perf sched latency counts these
	 * switches), and name no running task */
	{
		static const char unk[] =
			"  fb-worker1 16943/16965 [001] 7124.098800000: sched:sched_switch: prev_comm=x prev_pid=16964 prev_prio=120 prev_state=S ==> next_comm=fb-worker1 next_pid=16965 next_prio=120\n"
			"  :-1 16943/-1 [001] 7124.098873875: sched:sched_switch: prev_comm=fb-worker1 prev_pid=16965 prev_prio=120 prev_state=X ==> next_comm=fb-game next_pid=16958 next_prio=120\n"
			"  :-1 -1/-1 [001] 7124.098900000: sched:sched_waking: comm=a pid=77 prio=120 target_cpu=001\n"
			"  :-1 -1 [001] 7124.098950000: sched:sched_stat_runtime: comm=fb-game pid=16958 runtime=500 [ns]\n";

		rc = ft_import_mem(unk, strlen(unk), "u.txt", FT_FMT_PERF, &t, err,
				   sizeof(err));
		assert_int_equal(rc, 0);
		assert_int_equal(t.nev, 4);
		assert_int_equal(t.ev[1].type, FT_EV_SWITCH);
		assert_int_equal(t.ev[1].arg, 16958);
		assert_true(t.ev[1].flags & FT_F_NO_TASK);
		assert_int_equal(t.ev[2].arg, 0);
		assert_true(t.ev[2].flags & FT_F_NO_TASK);
		assert_int_equal(t.ev[3].arg, 0);
		assert_int_equal(t.contradictions, 0);
		assert_int_equal(t.inconsistent + t.reconstructed, 0);
		ft_trace_free(&t);
	}

	rc = ft_import_mem("nothing to see\n", 15, "n.txt", FT_FMT_PERF, &t, err,
			   sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "n.txt: no scheduler events recognised"));
	assert_non_null(strstr(err, "n.txt:1:"));
	rc = ft_import_mem("just words\n", 11, "w.txt", FT_FMT_UNKNOWN, &t, err,
			   sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "w.txt: line 1: not a format"));
}

static const char ftrace_text[] =
	"# tracer: nop\n"
	"#\n"
	"          <idle>-0       (-------) [001] d..2.   100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=my game next_pid=42 next_prio=120\n"
	"     my game-42      (     40) [001] d.h2.   100.000200: sched_waking: comm=worker pid=43 prio=120 target_cpu=000\n"
	"          worker-43      [000] ....   100.000300: tracing_mark_write: B|40|frame 1\n"
	"CPU:1 [LOST 12 EVENTS]\n"
	"     my game-42      (     40) [001] d..2.   100.000400: sched_switch: prev_comm=my game prev_pid=42 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static void import_ftrace_text(void **state)
{
	struct ft_trace t;
	char err[512];

	(void)state;
	assert_int_equal(ft_detect(ftrace_text, strlen(ftrace_text)), FT_FMT_FTRACE);
	assert_int_equal(ft_import_mem(ftrace_text, strlen(ftrace_text), "f.txt",
				       FT_FMT_UNKNOWN, &t, err, sizeof(err)),
			 0);
	assert_int_equal(t.nev, 4);
	assert_int_equal(t.lost_events, 12);
	assert_string_equal(ft_task_comm(&t, 42), "my game");
	assert_int_equal(ft_task_pid(&t, 42), 40);
	/* 'h' in the flags: woken from a hard interrupt */
	assert_int_equal(t.ev[1].type, FT_EV_WAKING);
	assert_true(t.ev[1].flags & FT_F_IRQ);
	assert_int_equal(t.ev[2].type, FT_EV_MARK);
	assert_string_equal(ft_str_get(&t, t.ev[2].arg2), "B|40|frame 1");
	assert_int_equal(t.ev[0].ts, 100000100000ULL);
	ft_trace_free(&t);
}

static void import_mangohud_layouts(void **state)
{
	static const char old[] =
		"os,cpu,gpu,ram,kernel,driver\n"
		"Debian,CPU,GPU,16GB,6.1,mesa\n"
		"fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,"
		"gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,elapsed\n"
		"60,16667,1,1,1,1,1,1,1,1,1,16667000\n"
		"20,50000,1,1,1,1,1,1,1,1,1,66667000\n";
	static const char missing[] =
		"fps,cpu_load,elapsed\n60,1,100\n";
	char *cur = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cur, &len);
	struct ft_trace t;
	char err[512];

	(void)state;
	{
	struct gs_mh_sysinfo sys = { .os = "Debian", .cpu = "test CPU" };

	gs_mh_write_header(f, &sys);
	gs_mh_write_frame(f, 16.0, 1, 16000000);
	gs_mh_write_frame(f, 40.0, 1, 56000000);
	}
	fclose(f);
	assert_int_equal(ft_detect(cur, len), FT_FMT_MANGOHUD);
	assert_int_equal(ft_import_mem(cur, len, "cur.csv", FT_FMT_UNKNOWN, &t,
				       err, sizeof(err)),
			 0);
	assert_int_equal(t.nframes, 2);
	assert_int_equal(t.frames[1].frametime_ns, 40 * MS);
	assert_int_equal(t.frames[1].present_ns, 56 * MS);
	ft_trace_free(&t);
	free(cur);

	assert_int_equal(ft_import_mem(old, strlen(old), "old.csv", FT_FMT_UNKNOWN,
				       &t, err, sizeof(err)),
			 0);
	assert_int_equal(t.nframes, 2);
	assert_int_equal(t.frames[1].frametime_ns, 50 * MS);
	assert_non_null(strstr(ft_meta_get(&t, "mangohud_unit"), "us"));
	ft_trace_free(&t);

	assert_int_equal(ft_import_mem(missing, strlen(missing), "miss.csv",
				       FT_FMT_MANGOHUD, &t, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "miss.csv:1"));
}

/* ---- present calls ----------------------------------------------------- */

static void present_names_and_libraries(void **state)
{
	const char *extra[] = { "dxvk_present" }, *n = NULL;
	const char *maps[] = {
		"/usr/lib/x86_64-linux-gnu/libGL.so.1.7.0",
		"/usr/lib/x86_64-linux-gnu/libGLX.so.0.0.0",
		"/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/opt/game/lib/libvulkan.so.1",
		"/usr/lib/libEGL.so.1.1.0",
		"/usr/lib/libEGL_mesa.so.0",
	};
	const bool glvnd[] = { true };
	struct ft_present_target tg[8];
	struct ft_maps_line m;
	char line[] = "7f0372713000-7f037271c000 r-xp 00006000 fd:01 123456   "
		      "/usr/lib/x86_64-linux-gnu/libGLX.so.0.0.0\n";
	char anon[] = "7ffd1000-7ffd2000 rw-p 00000000 00:00 0  [stack]";
	char gone[] = "7f00-7f10 r-xp 0 08:02 77 /tmp/libx.so (deleted)";
	size_t k;

	(void)state;
	assert_true(ft_present_event("glXSwapBuffers", NULL, 0, &n));
	assert_string_equal(n, "glXSwapBuffers");
	/* perf probe's second probe of the same name */
	assert_true(ft_present_event("vkQueuePresentKHR_1", NULL, 0, &n));
	assert_false(ft_present_event("glXSwapBuffers__return", NULL, 0, &n));
	assert_true(ft_present_return_event("glXSwapBuffers__return", NULL, 0));
	assert_false(ft_present_event("glXSwapBuffersMscOML", NULL, 0, &n));
	assert_false(ft_present_event("dxvk_present", NULL, 0, &n));
	assert_true(ft_present_event("dxvk_present", extra, 1, &n));
	assert_string_equal(n, "dxvk_present");

	/* libGLX's glXSwapBuffers, not libGL's (it jumps into libGLX) */
	k = ft_present_auto_targets(maps, 6, NULL, tg, 8);
	assert_int_equal(k, 3);
	assert_int_equal(tg[0].path, 1);
	assert_string_equal(tg[0].func, "glXSwapBuffers");
	assert_int_equal(tg[1].path, 3);
	assert_string_equal(tg[1].func, "vkQueuePresentKHR");
	assert_int_equal(tg[2].path, 4);
	assert_string_equal(tg[2].func, "eglSwapBuffers");
	/* without libGLX, libGL's is the one */
	k = ft_present_auto_targets(maps, 1, NULL, tg, 8);
	assert_int_equal(k, 1);
	assert_string_equal(tg[0].func, "glXSwapBuffers");
	/* ... unless it is glvnd's and its libGLX is not mapped yet */
	k = ft_present_auto_targets(maps, 1, glvnd, tg, 8);
	assert_int_equal(k, 0);

	assert_true(ft_maps_parse_line(line, &m));
	assert_true(m.exec);
	assert_string_equal(m.path, "/usr/lib/x86_64-linux-gnu/libGLX.so.0.0.0");
	assert_int_equal(m.ino, 123456);
	assert_int_equal(m.dev, (uint64_t)0xfd << 32 | 1);
	assert_true(ft_maps_parse_line(anon, &m));
	assert_null(m.path);
	assert_true(ft_maps_parse_line(gone, &m));
	assert_null(m.path);
	assert_false(ft_maps_parse_line((char[]){ "not a maps line" }, &m));
}

/* `perf record -e 'sched:*' -e probe_libGLX:glXSwapBuffers` as perf script
 * prints it: the uprobe's entry lines are frame boundaries of the calling
 * thread, return probes are skipped quietly, and so are the scheduler
 * events frametrace does not use. */
static const char perf_present_text[] =
	"glxgears 500 [001] 10.000000000: probe_libGLX:glXSwapBuffers: (7f0372719c00)\n"
	"glxgears 500 [001] 10.000400000: probe_libGLX:glXSwapBuffers__return: (7f0372719c00 <- 55b0caf51ac8)\n"
	"glxgears 500 [001] 10.000500000: sched:sched_prepare_exec: interp=x filename=y pid=500 comm=z\n"
	"glxgears 500 [001] 10.016000000: probe_libGLX:glXSwapBuffers: (7f0372719c00)\n"
	"render 501 [000] 10.020000000: probe_x:my_present: (7f00)\n"
	"glxgears 500 [001] 10.033000000: probe_libGLX:glXSwapBuffers: (7f0372719c00)\n"
	"render 501 [000] 10.040000000: probe_x:my_present: (7f00)\n"
	"glxgears 500 [000] 10.040100000: sched:sched_switch: prev_comm=glxgears prev_pid=500 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

static void import_present_calls(void **state)
{
	struct ft_trace t;
	const char *extra[] = { "my_present" };
	struct ft_import_opts o = { .frame_events = extra, .nframe_events = 1 };
	char err[512];
	int rc;

	(void)state;
	rc = ft_import_mem(perf_present_text, strlen(perf_present_text), "g.txt",
			   FT_FMT_UNKNOWN, &t, err, sizeof(err));
	/* my_present is not a present call without --frame-event */
	assert_int_equal(rc, 1);
	assert_non_null(strstr(t.warning, "g.txt:5: unknown events skipped: my_present (2)"));
	assert_null(strstr(t.warning, "__return"));
	assert_null(strstr(t.warning, "sched_prepare_exec"));
	assert_int_equal(t.nframes, 2);
	assert_int_equal(t.frames[0].start_ns, 10000000000ULL);
	assert_int_equal(t.frames[0].present_ns, 10016000000ULL);
	assert_int_equal(t.frames[0].frametime_ns, 16 * MS);
	assert_int_equal(t.frames[1].frametime_ns, 17 * MS);
	assert_int_equal(t.frames[1].tid, 500);
	/* no pid column: the thread stands for its process */
	assert_int_equal(t.frames[1].pid, 500);
	assert_true(t.frames[1].flags & FT_FRAME_PRESENT);
	ft_trace_free(&t);

	rc = ft_import_mem_opts(perf_present_text, strlen(perf_present_text),
				"g.txt", FT_FMT_UNKNOWN, &o, &t, err, sizeof(err));
	assert_int_equal(rc, 0);
	/* two threads present: one frame each of their own intervals */
	assert_int_equal(t.nframes, 3);
	assert_int_equal(t.frames[2].tid, 501);
	assert_int_equal(t.frames[2].frametime_ns, 20 * MS);
	ft_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(import_perf_script),
		cmocka_unit_test(import_ftrace_text),
		cmocka_unit_test(import_mangohud_layouts),
		cmocka_unit_test(present_names_and_libraries),
		cmocka_unit_test(import_present_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
