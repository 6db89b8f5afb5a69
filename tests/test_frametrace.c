// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of frametrace's trace file, importers, repair of missing
 * sched_switch records, timeline model, slow-frame explanation, report
 * JSON and Perfetto export (checked against the ftrace line grammar of
 * FORMATS.md by a parser written here, independent of the importer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain.h"
#include "finish.h"
#include "export.h"
#include "import.h"
#include "json.h"
#include "mangohud.h"
#include "marker.h"
#include "model.h"
#include "report.h"
#include "steal.h"
#include "trace.h"
#include "tracefile.h"

#define MS 1000000ULL
#define US 1000ULL
#define T0 (1000ULL * 1000000000ULL)

static struct ft_ev ev(uint64_t ts, uint8_t type, uint16_t cpu, uint32_t tid,
		       uint32_t arg, uint32_t arg2, uint64_t val, uint8_t flags)
{
	struct ft_ev e = { .ts = ts, .tid = tid, .arg = arg, .arg2 = arg2,
			   .cpu = cpu, .type = type, .flags = flags, .val = val };

	return e;
}

static void add(struct ft_trace *t, struct ft_ev e)
{
	assert_int_equal(ft_trace_push(t, &e), 0);
}

/* prev -> next on cpu; state 1 = S, 0 = R (preempted) */
static void sw(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t prev,
	       uint32_t next, uint32_t state)
{
	add(t, ev(ts, FT_EV_SWITCH, cpu, prev, next, state | 120u << 16 | 120u << 24,
		  0, state ? 0 : FT_F_PREEMPT));
}

static void wake(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t wakee,
		 uint32_t waker)
{
	add(t, ev(ts, FT_EV_WAKING, cpu, wakee, waker, cpu | 120u << 16, 0, 0));
}

/* The text report of r (free() it). */
static char *report_text(const struct ft_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	ft_report_text(f, r);
	fclose(f);
	return text;
}

static char *slurp(FILE *f, size_t *len)
{
	char *buf;
	long n;

	fflush(f);
	n = ftell(f);
	assert_true(n >= 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* ---- trace file ------------------------------------------------------ */

static void build_small(struct ft_trace *t)
{
	struct ft_frame fr = { .start_ns = T0 + 1 * MS, .present_ns = T0 + 9 * MS,
			       .frametime_ns = 8 * MS, .pid = 100, .flags = FT_FRAME_FEED };

	ft_trace_init(t);
	t->ncpus = 2;
	ft_task_set(t, 100, 100, "game main");
	ft_task_set(t, 101, 100, "render");
	sw(t, T0 + 1 * MS, 0, 0, 100, 0);
	wake(t, T0 + 2 * MS, 0, 101, 100);
	sw(t, T0 + 3 * MS, 0, 100, 101, 1);
	sw(t, T0 + 5 * MS, 0, 101, 0, 1);
	assert_true(ft_str_add(t, "B|100|frame 1") >= 0);
	add(t, ev(T0 + 1 * MS, FT_EV_MARK, 0, 100, 100, 0, 0, 0));
	assert_int_equal(ft_frame_push(t, &fr), 0);
	ft_meta_set(t, "source", "test");
	t->lost_events = 7;
	assert_int_equal(ft_trace_finish(t), 0);
}

static void trace_roundtrip(void **state)
{
	struct ft_trace t, u;
	char err[512], path[] = "/tmp/ft_test_XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	build_small(&t);
	assert_int_equal(ft_trace_write(&t, path, err, sizeof(err)), 0);
	assert_int_equal(ft_trace_read(path, &u, err, sizeof(err)), 0);
	assert_int_equal(u.nev, t.nev);
	assert_memory_equal(u.ev, t.ev, t.nev * sizeof(*t.ev));
	assert_int_equal(u.ntasks, t.ntasks);
	assert_string_equal(ft_task_comm(&u, 100), "game main");
	assert_int_equal(ft_task_pid(&u, 101), 100);
	assert_int_equal(u.nframes, 1);
	assert_int_equal(u.frames[0].frametime_ns, 8 * MS);
	assert_string_equal(ft_meta_get(&u, "source"), "test");
	assert_int_equal(u.lost_events, 7);
	assert_int_equal(u.nstr, 1);
	assert_string_equal(ft_str_get(&u, 0), "B|100|frame 1");
	assert_false(u.partial);
	ft_trace_free(&t);
	ft_trace_free(&u);
	unlink(path);
}

static void *file_bytes(const struct ft_trace *t, size_t *len)
{
	char err[512], path[] = "/tmp/ft_test_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	char *buf;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ft_trace_write(t, path, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	buf = slurp(f, len);
	fclose(f);
	unlink(path);
	return buf;
}

static void trace_truncated_and_corrupted(void **state)
{
	struct ft_trace t, u;
	char err[512];
	size_t len;
	unsigned char *buf;
	int rc;

	(void)state;
	build_small(&t);
	buf = file_bytes(&t, &len);

	/* cut inside the events chunk: whole events before the cut survive */
	rc = ft_trace_read_mem(buf, FT_HEADER_SIZE + 24 + 16 + 24 + 32 * 2 + 5,
			       "cut.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_true(u.partial);
	assert_non_null(strstr(u.warning, "cut.ftr: offset"));
	assert_non_null(strstr(u.warning, "cut short"));
	ft_trace_free(&u);

	/* a flipped byte in the events: checksum mismatch, chunk skipped */
	{
		unsigned char *b2 = malloc(len);

		memcpy(b2, buf, len);
		b2[FT_HEADER_SIZE + 24 + 16 + 24 + 3] ^= 0x40;
		rc = ft_trace_read_mem(b2, len, "bad.ftr", &u, err, sizeof(err));
		assert_int_equal(rc, 1);
		assert_non_null(strstr(u.warning, "checksum mismatch"));
		assert_int_equal(u.nev, 0);
		assert_int_equal(u.ntasks, 2); /* later chunks still read */
		ft_trace_free(&u);
		free(b2);
	}
	/* not a trace, wrong version, too short */
	rc = ft_trace_read_mem("hello", 5, "x", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "too short"));
	buf[8] = 9;
	rc = ft_trace_read_mem(buf, len, "v9.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "v9.ftr: offset 8: unsupported trace file version 9"));
	buf[0] = 'X';
	rc = ft_trace_read_mem(buf, len, "m.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "bad magic"));
	free(buf);
	ft_trace_free(&t);
}

/* ---- repair of missing sched_switch records ------------------------- */

static void repair_idle_to_task(void **state)
{
	struct ft_trace t;

	(void)state;
	ft_trace_init(&t);
	t.ncpus = 1;
	/* A runs, sleeps; idle; B woken; the idle->B switch is missing;
	 * B leaves the CPU: a switch-in is reconstructed from B's
	 * sum_exec_runtime (ran 300 us since its last switch-out). */
	add(&t, ev(T0, FT_EV_SWITCH, 0, 5, 6, 1, 1000 * US, FT_F_SUMEXEC));
	add(&t, ev(T0 + 100 * US, FT_EV_SWITCH, 0, 6, 0, 1, 2000 * US, FT_F_SUMEXEC));
	wake(&t, T0 + 500 * US, 0, 6, 0);
	add(&t, ev(T0 + 900 * US, FT_EV_SWITCH, 0, 6, 0, 1, 2300 * US, FT_F_SUMEXEC));
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.reconstructed, 1);
	assert_int_equal(t.inconsistent, 0);
	assert_int_equal(t.nev, 5);
	assert_int_equal(t.ev[3].type, FT_EV_SWITCH);
	assert_true(t.ev[3].flags & FT_F_RECONSTRUCTED);
	assert_int_equal(t.ev[3].tid, 0);
	assert_int_equal(t.ev[3].arg, 6);
	assert_int_equal(t.ev[3].ts, T0 + 600 * US);
	/* reading the repaired events again counts, does not repair twice */
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.reconstructed, 1);
	assert_int_equal(t.nev, 5);
	ft_trace_free(&t);
}

static void repair_from_runtime_events(void **state)
{
	struct ft_trace t;
	struct ft_model m;
	struct ft_tstat *s;

	(void)state;
	ft_trace_init(&t);
	sw(&t, T0, 0, 7, 0, 1);
	wake(&t, T0 + 1 * MS, 0, 7, 0);
	/* no switch-in record; sched_stat_runtime says it ran 250 us */
	add(&t, ev(T0 + 2 * MS - 1, FT_EV_RUNTIME, 0, 7, 0, 0, 250 * US, 0));
	sw(&t, T0 + 2 * MS, 0, 7, 0, 1);
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.reconstructed, 1);
	assert_int_equal(ft_model_build(&m, &t), 0);
	s = ft_model_task(&m, 7);
	assert_non_null(s);
	assert_int_equal(s->switches, 1);
	assert_int_equal(s->switches_recorded, 0);
	assert_int_equal(s->repaired, 1);
	assert_int_equal(s->runtime_ns, 250 * US);
	/* wake-up latency: woken at 1 ms, reconstructed switch-in at 1.75 ms */
	assert_int_equal(s->wlat->count, 1);
	assert_int_equal(s->wlat->max, 750 * US);
	ft_model_free(&m);
	ft_trace_free(&t);
}

/* ---- atrace markers -------------------------------------------------- */

static void atrace_grammar(void **state)
{
	struct ft_atrace a;

	(void)state;
	assert_int_equal(ft_atrace_parse("B|123|frame 7", &a), 0);
	assert_int_equal(a.kind, 'B');
	assert_int_equal(a.tgid, 123);
	assert_string_equal(a.name, "frame 7");
	assert_int_equal(ft_atrace_parse("E|123", &a), 0);
	assert_int_equal(ft_atrace_parse("E", &a), 0);
	assert_int_equal(ft_atrace_parse("C|9|frametime_us|16667\n", &a), 0);
	assert_true(fabs(a.value - 16667) < 1e-9);
	assert_true(ft_frametime_counter_scale(a.name) == 1e3);
	assert_int_equal(ft_atrace_parse("S|9|frame|42", &a), 0);
	assert_int_equal(a.cookie, 42);
	assert_int_equal(ft_atrace_parse("C|9|x|notanumber", &a), -1);
	assert_int_equal(ft_atrace_parse("hello world", &a), -1);
	assert_int_equal(ft_atrace_parse("B|abc|x", &a), -1);
	assert_int_equal(ft_atrace_parse("", &a), -1);
}

/* framebench's markers: "frame N" slices in the game process, the frame
 * time counter from the compositor process at the present. */
static void frames_from_framebench_markers(void **state)
{
	struct ft_trace t;
	const char *lines[] = { "B|100|frame 0", "E|100", "B|100|frame 1",
				"E|100", "C|200|frametime_us|16000",
				"C|200|frametime_us|17000" };
	uint64_t ts[] = { 1, 3, 17, 19, 16, 33 };
	uint32_t tid[] = { 101, 101, 101, 101, 201, 201 };

	(void)state;
	ft_trace_init(&t);
	for (int i = 0; i < 6; i++) {
		long idx = ft_str_add(&t, lines[i]);

		add(&t, ev(T0 + ts[i] * MS, FT_EV_MARK, 0, tid[i], i < 4 ? 100 : 200,
			   (uint32_t)idx, 0, 0));
	}
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.nframes, 2);
	assert_int_equal(t.frames[0].start_ns, T0 + 1 * MS);
	assert_int_equal(t.frames[0].present_ns, T0 + 16 * MS);
	assert_int_equal(t.frames[0].frametime_ns, 16 * MS);
	assert_int_equal(t.frames[0].tid, 201);
	assert_int_equal(t.frames[0].pid, 100);
	assert_int_equal(t.frames[1].start_ns, T0 + 17 * MS);
	assert_int_equal(t.frames[1].frametime_ns, 17 * MS);
	ft_trace_free(&t);
}

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

/* ---- model, report, explanation -------------------------------------- */

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

/*
 * A frame: the game thread (50) wakes the render thread (51), which wakes
 * the present thread (52). In the slow frame a hog (60) holds CPU 0 while
 * the render thread waits to run: the explanation must name that link,
 * its runnable wait, the hog and its long slice.
 */
/*
 * late: the frame's chain starts late instead (its timer wake-up comes
 * 15 ms late, everything after it on time): no link is slower than in the
 * median frame, the delay lies before the chain.
 */
static void build_frames_with(struct ft_trace *t, uint32_t holder, bool futex,
			      bool late)
{
	ft_trace_init(t);
	t->ncpus = 1;
	ft_task_set(t, 50, 50, "game");
	ft_task_set(t, 51, 50, "render");
	ft_task_set(t, 52, 50, "present");
	ft_task_set(t, 60, 60, "hog");
	for (int i = 0; i < 20; i++) {
		uint64_t extra = i == 10 ? 15 * MS : 0;
		uint64_t b = T0 + (uint64_t)i * 50 * MS + (late ? extra : 0);
		uint64_t hold = late ? 0 : extra;
		struct ft_frame fr = { .start_ns = b + 1 * MS,
				       .present_ns = b + 5 * MS + hold,
				       .frametime_ns = 0, .pid = 50, .tid = 52 };

		wake(t, b + 1 * MS, 0, 50, 0);
		add(t, ev(b + 1 * MS, FT_EV_WAKING, 0, 50, 0, 0, 0, FT_F_IRQ));
		sw(t, b + 1 * MS + 10 * US, 0, 0, 50, 0);
		wake(t, b + 2 * MS, 0, 51, 50);
		if (hold) {
			/* the game thread is done; the holder (the hog, or
			 * the idle task: a wake-up not acted on) gets the
			 * CPU before the render thread */
			sw(t, b + 2 * MS + 10 * US, 0, 50, holder, 1);
			sw(t, b + 2 * MS + 10 * US + hold, 0, holder, 51, holder ? 0 : 1);
		} else {
			sw(t, b + 2 * MS + 10 * US, 0, 50, 51, 1);
		}
		wake(t, b + 4 * MS + hold, 0, 52, 51);
		sw(t, b + 4 * MS + 10 * US + hold, 0, 51, 52, 1);
		sw(t, b + 6 * MS + hold, 0, 52, 0, 1);
		if (futex && i < 19) {
			/* present waits on a futex until the next frame's wake */
			uint64_t next_extra = i + 1 == 10 ? 15 * MS : 0;

			add(t, ev(b + 6 * MS + hold, FT_EV_FUTEX, 0, 52, 0 /* WAIT */,
				  (uint32_t)(48 * MS + next_extra - hold), 0x2000, 0));
		}
		ft_frame_push(t, &fr);
	}
	ft_frames_fix(t);
	assert_int_equal(ft_trace_finish(t), 0);
}

static void build_frames(struct ft_trace *t)
{
	build_frames_with(t, 60, false, false);
}

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

/* A /proc/stat with the given steal ticks for CPUs 0-2. */
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

static void report_json_keys(void **state)
{
	struct ft_trace t;
	struct ft_report r;
	struct ft_report_opts o = { .top = 10, .explain = 2, .name = "t" };
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f;
	struct gs_jv *j;
	const struct gs_jv *tasks, *task = NULL;

	(void)state;
	build_frames(&t);
	assert_int_equal(ft_report_build(&r, &t, &o), 0);
	f = open_memstream(&text, &len);
	ft_report_json(f, &r);
	fclose(f);
	j = gs_json_parse(text, len, err, sizeof(err));
	assert_non_null(j);
	tasks = gs_json_get(j, "tasks");
	assert_non_null(tasks);
	assert_int_equal(tasks->type, GS_JARR);
	for (size_t i = 0; i < tasks->len; i++)
		if (gs_json_num_at(tasks->items[i], "tid", 0) == 51)
			task = tasks->items[i];
	assert_non_null(task);
	assert_int_equal((int)gs_json_num_at(task, "pid", 0), 50);
	assert_string_equal(gs_json_str_at(task, "comm"), "render");
	assert_true(gs_json_num_at(task, "runtime_ns", 0) > 0);
	assert_int_equal((int)gs_json_num_at(task, "switches", 0), 20);
	assert_non_null(gs_json_path(task, "wakeup_latency_ns.p50"));
	assert_non_null(gs_json_path(task, "wakeup_latency_ns.p99"));
	assert_true(gs_json_num_at(task, "wakeup_latency_ns.max", 0) >= 15e6);
	assert_non_null(gs_json_path(j, "frames.frametime_ms.p99"));
	assert_non_null(gs_json_get(j, "slow_frames"));
	gs_json_free(j);
	free(text);
	ft_report_free(&r);
	ft_trace_free(&t);
}

/* ---- Perfetto export against the FORMATS.md grammar ------------------- */

/*
 * "<comm>-<tid> (<tgid>) [<cpu>] <flags> <sec.nsec>: <event>: <args>"
 * written out as a strict check: comm without spaces, tid digits, tgid
 * digits or dashes in parentheses, three-digit CPU, 4-5 flag characters,
 * a decimal timestamp, a known event and its arguments split on spaces.
 */
static int check_line(const char *line, char *event, size_t elen)
{
	const char *p = line, *dash = NULL, *q;
	int n;

	while (*p == ' ')
		p++;
	for (q = p; *q && *q != ' '; q++)
		if (*q == '-')
			dash = q;
	if (!dash || dash == p || !isdigit((unsigned char)dash[1]))
		return -1;
	for (const char *d = dash + 1; d < q; d++)
		if (!isdigit((unsigned char)*d))
			return -2;
	p = q;
	while (*p == ' ')
		p++;
	if (*p++ != '(')
		return -3;
	while (*p == ' ')
		p++;
	n = 0;
	while (isdigit((unsigned char)*p) || *p == '-') {
		p++;
		n++;
	}
	if (!n || *p++ != ')')
		return -4;
	if (*p++ != ' ' || *p++ != '[')
		return -5;
	for (n = 0; n < 3; n++)
		if (!isdigit((unsigned char)*p++))
			return -6;
	if (*p++ != ']' || *p++ != ' ')
		return -7;
	for (n = 0; *p && *p != ' '; p++, n++)
		if (!isalnum((unsigned char)*p) && *p != '.')
			return -8;
	if (n < 4 || n > 5 || *p++ != ' ')
		return -9;
	if (!isdigit((unsigned char)*p))
		return -10;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.')
		return -11;
	for (n = 0; isdigit((unsigned char)*p); p++)
		n++;
	if (n != 9 || *p++ != ':' || *p++ != ' ')
		return -12;
	for (n = 0; *p && *p != ':'; p++)
		if ((size_t)n < elen - 1)
			event[n++] = *p;
	event[n] = '\0';
	if (*p++ != ':' || *p++ != ' ')
		return -13;
	if (!strcmp(event, "sched_switch")) {
		static const char *const keys[] = { "prev_comm=", "prev_pid=",
			"prev_prio=", "prev_state=", "==>", "next_comm=",
			"next_pid=", "next_prio=" };
		char buf[512];
		char *tok, *save;
		int k = 0;

		snprintf(buf, sizeof(buf), "%s", p);
		for (tok = strtok_r(buf, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save), k++)
			if (k >= 8 || strncmp(tok, keys[k], strlen(keys[k])))
				return -20;
		return k == 8 ? 0 : -21;
	}
	if (!strcmp(event, "sched_waking")) {
		static const char *const keys[] = { "comm=", "pid=", "prio=",
						    "target_cpu=" };
		char buf[256];
		char *tok, *save;
		int k = 0;

		snprintf(buf, sizeof(buf), "%s", p);
		for (tok = strtok_r(buf, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save), k++)
			if (k >= 4 || strncmp(tok, keys[k], strlen(keys[k])))
				return -22;
		return k == 4 ? 0 : -23;
	}
	if (!strcmp(event, "tracing_mark_write")) {
		struct ft_atrace a;

		return ft_atrace_parse(p, &a) ? -24 : 0;
	}
	return -30;
}

static void export_ftrace_grammar(void **state)
{
	struct ft_trace t, u;
	char *text = NULL, err[512], event[64];
	size_t len = 0, lines = 0, sw_lines = 0, wk_lines = 0, mk_lines = 0;
	size_t sw_events = 0;
	FILE *f;

	(void)state;
	build_frames(&t);
	/* a comm with spaces and a tab must come out as one token */
	ft_task_set(&t, 60, 60, "bad hog\tname");
	for (size_t i = 0; i < t.nframes; i++)
		t.frames[i].flags |= FT_FRAME_FEED;
	f = open_memstream(&text, &len);
	assert_int_equal(ft_export_ftrace(f, &t), 0);
	fclose(f);
	assert_true(!strncmp(text, "# tracer: nop\n", 14));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		int rc;

		if (line[0] == '#')
			continue;
		rc = check_line(line, event, sizeof(event));
		if (rc)
			fail_msg("line does not follow the grammar (%d): %s", rc, line);
		lines++;
		sw_lines += !strcmp(event, "sched_switch");
		wk_lines += !strcmp(event, "sched_waking");
		mk_lines += !strcmp(event, "tracing_mark_write");
		if (strstr(line, "bad_hog_name"))
			assert_null(strstr(line, "bad hog"));
	}
	for (size_t i = 0; i < t.nev; i++)
		sw_events += t.ev[i].type == FT_EV_SWITCH;
	assert_int_equal(sw_lines, sw_events);
	assert_true(wk_lines >= 60);
	/* per frame: S, F, frame-time counter */
	assert_int_equal(mk_lines, 3 * t.nframes);
	free(text);

	/* and the importer reads its own export back */
	text = NULL;
	f = open_memstream(&text, &len);
	assert_int_equal(ft_export_ftrace(f, &t), 0);
	fclose(f);
	assert_int_equal(ft_import_mem(text, len, "export.txt", FT_FMT_UNKNOWN, &u,
				       err, sizeof(err)),
			 0);
	assert_int_equal(ft_meta_get(&u, "format")[0], 'f');
	{
		size_t n = 0;

		for (size_t i = 0; i < u.nev; i++)
			n += u.ev[i].type == FT_EV_SWITCH;
		assert_int_equal(n, sw_events);
	}
	assert_string_equal(ft_task_comm(&u, 60), "bad_hog_name");
	assert_int_equal(ft_task_pid(&u, 51), 50);
	assert_int_equal(u.nframes, t.nframes);
	ft_trace_free(&u);
	free(text);

	/* JSON form: systemTraceEvents and flow arrows */
	text = NULL;
	f = open_memstream(&text, &len);
	assert_int_equal(ft_export_json(f, &t, 1000), 0);
	fclose(f);
	{
		struct gs_jv *j = gs_json_parse(text, len, err, sizeof(err));
		const struct gs_jv *ev, *sys;
		size_t s = 0, fl = 0;

		assert_non_null(j);
		ev = gs_json_get(j, "traceEvents");
		sys = gs_json_get(j, "systemTraceEvents");
		assert_non_null(ev);
		assert_non_null(sys);
		assert_int_equal(sys->type, GS_JSTR);
		assert_true(!strncmp(sys->str, "# tracer: nop", 13));
		for (size_t i = 0; i < ev->len; i++) {
			const char *ph = gs_json_str_at(ev->items[i], "ph");

			s += ph && !strcmp(ph, "s");
			fl += ph && !strcmp(ph, "f");
		}
		assert_true(s > 0);
		assert_int_equal(s, fl);
		gs_json_free(j);
	}
	free(text);
	ft_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trace_roundtrip),
		cmocka_unit_test(trace_truncated_and_corrupted),
		cmocka_unit_test(repair_idle_to_task),
		cmocka_unit_test(repair_from_runtime_events),
		cmocka_unit_test(atrace_grammar),
		cmocka_unit_test(frames_from_framebench_markers),
		cmocka_unit_test(import_perf_script),
		cmocka_unit_test(import_ftrace_text),
		cmocka_unit_test(import_mangohud_layouts),
		cmocka_unit_test(model_ping_pong),
		cmocka_unit_test(explain_slow_frame),
		cmocka_unit_test(explain_lock_wait_not_origin),
		cmocka_unit_test(explain_idle_wait),
		cmocka_unit_test(explain_delay_before_chain),
		cmocka_unit_test(host_steal_window),
		cmocka_unit_test(report_json_keys),
		cmocka_unit_test(export_ftrace_grammar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
