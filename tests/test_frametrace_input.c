// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of how frametrace reads a trace: the trace file (round trip,
 * truncation, corruption), the repair of missing sched_switch records,
 * atrace markers and the frames they describe (the importers:
 * test_frametrace_import.c).
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

#include "analysis/explain.h"
#include "trace/finish.h"
#include "trace/ftutil.h"
#include "trace/marker.h"
#include "analysis/model.h"
#include "test_frametrace.h"
#include "trace/tracefile.h"
#include "util.h"

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
	char *buf;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ft_trace_write(t, path, err, sizeof(err)), 0);
	assert_int_equal(gs_read_file(path, 0, &buf, len, err, sizeof(err)), 0);
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

/* Offset of the n-th chunk of type (0-based) in a trace file. */
static size_t chunk_at(const unsigned char *b, size_t len, uint32_t type,
		       int n)
{
	size_t off = FT_HEADER_SIZE;

	while (off + FT_CHUNK_HDR <= len) {
		uint32_t ty;
		uint64_t cl;

		memcpy(&ty, b + off, 4);
		memcpy(&cl, b + off + 8, 8);
		if (ty == type && n-- == 0)
			return off;
		off += FT_CHUNK_HDR + ((cl + 7) & ~7ULL);
	}
	fail_msg("no chunk %u #%d", type, n);
	return 0;
}

/* The bytes of a trace of 3000 events and 1500 marker strings (free()
 * them), into *len. */
static unsigned char *marker_trace_bytes(size_t *len)
{
	struct ft_trace t;
	unsigned char *buf;

	ft_trace_init(&t);
	t.ncpus = 2;
	ft_task_set(&t, 100, 100, "game");
	for (int i = 0; i < 1500; i++) {
		char s[32];

		snprintf(s, sizeof(s), "C|100|frametime_us|%d", 16000 + i);
		assert_true(ft_str_add(&t, s) >= 0);
		add(&t, ev(T0 + (uint64_t)i * MS, FT_EV_MARK, 0, 100, 100,
			   (uint32_t)i, 0, 0));
		add(&t, ev(T0 + (uint64_t)i * MS + 1, FT_EV_WAKING, 1, 101, 0, 0, 0,
			   FT_F_IRQ));
	}
	assert_int_equal(ft_trace_finish(&t), 0);
	buf = file_bytes(&t, len);
	ft_trace_free(&t);
	return buf;
}

/*
 * Damage costs one chunk: 3000 events and 1500 marker strings are written
 * in chunks of at most FT_CHUNK_RECORDS; a flipped bit in one events chunk
 * loses its 1024 events (counted), one in a STRINGS chunk loses its
 * strings but not the numbers of the strings after it, a flipped bit in a
 * chunk's length is skipped past.
 */
static void trace_damage_costs_one_chunk(void **state)
{
	struct ft_trace u;
	char err[512];
	size_t len, off;
	unsigned char *buf, *b2;
	int rc;

	(void)state;
	buf = marker_trace_bytes(&len);
	b2 = malloc(len);

	/* three EVENTS chunks (1024 + 1024 + 952); one damaged */
	memcpy(b2, buf, len);
	off = chunk_at(b2, len, FT_CHUNK_EVENTS, 1);
	b2[off + FT_CHUNK_HDR + 100] ^= 0x01;
	rc = ft_trace_read_mem(b2, len, "e.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_int_equal(u.nev, 3000 - 1024);
	assert_int_equal(u.corrupt_events, 1024);
	assert_non_null(strstr(u.warning, "EVENTS chunk checksum mismatch"));
	ft_trace_free(&u);

	/* the first STRINGS chunk damaged: the later strings keep their
	 * numbers, so marker 1400 still reads 17400 us */
	memcpy(b2, buf, len);
	off = chunk_at(b2, len, FT_CHUNK_STRINGS, 0);
	b2[off + FT_CHUNK_HDR + 5] ^= 0x20;
	rc = ft_trace_read_mem(b2, len, "s.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_int_equal(u.nstr, 1500);
	assert_string_equal(ft_str_get(&u, 1400), "C|100|frametime_us|17400");
	assert_string_equal(ft_str_get(&u, 5), "");
	{
		size_t lost = 0;

		for (size_t i = 0; i < u.nev; i++)
			lost += u.ev[i].type == FT_EV_MARK &&
				!ft_str_get(&u, u.ev[i].arg2)[0];
		assert_int_equal(lost, 1024);
	}
	ft_trace_free(&u);

	/* a flipped high bit in a chunk's length: that chunk is lost, the
	 * ones after it are found again */
	memcpy(b2, buf, len);
	off = chunk_at(b2, len, FT_CHUNK_EVENTS, 0);
	b2[off + 8 + 5] ^= 0x40;
	rc = ft_trace_read_mem(b2, len, "l.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_int_equal(u.nev, 3000 - 1024);
	assert_non_null(strstr(u.warning, "bytes skipped to the next whole chunk"));
	ft_trace_free(&u);

	free(b2);
	free(buf);
}

/* A damaged header is an error naming the field; so is a file with
 * nothing usable left. */
static void trace_damaged_header(void **state)
{
	struct ft_trace u;
	char err[512];
	size_t len;
	unsigned char *buf, *b2;
	int rc;

	(void)state;
	buf = marker_trace_bytes(&len);
	b2 = malloc(len);
	/* the header: a flipped ncpus is named, with what META says */
	memcpy(b2, buf, len);
	b2[20] = 253;
	rc = ft_trace_read_mem(b2, len, "h.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "h.ftr: offset 20: header field ncpus is damaged (253; the META chunk says 2)"));
	memcpy(b2, buf, len);
	b2[44] = 0x80;
	rc = ft_trace_read_mem(b2, len, "f.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "offset 40: unknown header flags"));
	memcpy(b2, buf, len);
	b2[52] ^= 1; /* reserved, under the CRC */
	b2[48] ^= 1;
	rc = ft_trace_read_mem(b2, len, "c.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "offset 48: header_crc"));
	memcpy(b2, buf, len);
	b2[24 + 7] = 0x7f; /* start_ns far after end_ns */
	rc = ft_trace_read_mem(b2, len, "t.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "offset 32: end_ns"));

	/* every events and frames chunk damaged: nothing usable */
	memcpy(b2, buf, len);
	for (int k = 0; k < 3; k++)
		b2[chunk_at(b2, len, FT_CHUNK_EVENTS, k) + FT_CHUNK_HDR + 1] ^= 1;
	for (int k = 0; k < 2; k++)
		b2[chunk_at(b2, len, FT_CHUNK_FRAMES, k) + FT_CHUNK_HDR + 1] ^= 1;
	rc = ft_trace_read_mem(b2, len, "n.ftr", &u, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "n.ftr: nothing usable"));
	free(b2);
	free(buf);
}

/* Messages quote input through ft_printable: no raw binary byte. */
static void printable_messages(void **state)
{
	char out[64];

	(void)state;
	assert_string_equal(ft_printable("a\x01" "b\xff" "c", out, sizeof(out)),
			    "a\\x01b\\xffc");
	/* valid UTF-8 stays, a broken sequence does not */
	assert_string_equal(ft_printable("caf\xc3\xa9 \xc3(", out, sizeof(out)),
			    "caf\xc3\xa9 \\xc3(");
	assert_string_equal(ft_printable("abcdef", out, 4), "abc");
	assert_string_equal(ft_printable("\x7f\x7f", out, 6), "\\x7f");
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

/*
 * The old bug, reduced: perf lost the idle->P switch on CPU 0. P, woken
 * at 10 us, runs 790 us: it wakes Q at 100 us (P is the waker, so it was
 * running), and the sched_stat_runtime before its switch-out says only
 * 2.6 us (the accounting since the last update, not since the switch-in).
 * "Switch-out minus accumulated runtime" put the switch-in at 889.4 us,
 * after the wake-up P itself emitted: a timeline in which a task that is
 * not running wakes another, a 2.6 us run, and a slow-frame explanation
 * that stopped at "the waker was not seen running". The switch-in must
 * come no later than P's first event there.
 */
static void repair_bounded_by_own_events(void **state)
{
	struct ft_trace t;
	struct ft_model m;
	struct ft_frame fr = { .start_ns = T0, .present_ns = T0 + 950 * US,
			       .pid = 8, .tid = 8, .flags = FT_FRAME_MARKER };
	struct ft_explain x;
	long sg;

	(void)state;
	ft_trace_init(&t);
	t.ncpus = 2;
	ft_task_set(&t, 7, 7, "P");
	ft_task_set(&t, 8, 8, "Q");
	sw(&t, T0, 0, 5, 0, 1);
	add(&t, ev(T0 + 10 * US, FT_EV_WAKING, 0, 7, 0, 0, 0, FT_F_IRQ));
	wake(&t, T0 + 100 * US, 0, 8, 7);
	add(&t, ev(T0 + 889400, FT_EV_RUNTIME, 0, 7, 7 + 1, 0, 2600, 0));
	sw(&t, T0 + 892 * US, 0, 7, 0, 1);
	/* Q runs on CPU 1 from its wake-up and presents at 950 us */
	sw(&t, T0 + 120 * US, 1, 0, 8, 0);
	sw(&t, T0 + 950 * US, 1, 8, 0, 1);
	assert_int_equal(ft_frame_push(&t, &fr), 0);
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.reconstructed, 1);
	assert_int_equal(t.contradictions, 0);
	for (size_t i = 0; i < t.nev; i++)
		if (t.ev[i].flags & FT_F_RECONSTRUCTED) {
			assert_int_equal(t.ev[i].arg, 7);
			/* not after P's wake-up of Q */
			assert_int_equal(t.ev[i].ts, T0 + 100 * US);
			assert_int_equal(t.ev[i + 1].type, FT_EV_WAKING);
			assert_int_equal(t.ev[i + 1].tid, 8);
		}
	assert_int_equal(ft_model_build(&m, &t), 0);
	sg = ft_model_seg_at(&m, 7, T0 + 100 * US);
	assert_true(sg >= 0);
	assert_int_equal(m.seg[sg].end - m.seg[sg].start, 792 * US);
	/* the chain goes on from Q to P, and ends at P's interrupt */
	assert_int_equal(ft_explain_frame(&m, 0, 8, &x), 0);
	assert_int_equal(x.nlinks, 2);
	assert_int_equal(x.link[1].tid, 7);
	assert_int_equal(x.stop, FT_STOP_IRQ);
	ft_model_free(&m);
	ft_trace_free(&t);
}

/* The bounds themselves, and what the input contradicts (the task before
 * emitted an event after the one switched in did). */
static void switch_in_bounds(void **state)
{
	struct ft_switch_bounds b = { .lo = 100, .hi = 500, .est = 50,
				      .has_est = true };
	struct ft_trace t;
	bool contra;

	(void)state;
	assert_int_equal(ft_switch_in_time(&b, &contra), 100);
	assert_false(contra);
	b.est = 300;
	assert_int_equal(ft_switch_in_time(&b, &contra), 300);
	b.est = 900;
	assert_int_equal(ft_switch_in_time(&b, &contra), 500);
	b.has_est = false;
	assert_int_equal(ft_switch_in_time(&b, &contra), 100);
	b.lo = 600;
	assert_int_equal(ft_switch_in_time(&b, &contra), 500);
	assert_true(contra);

	/* A and B alternate on CPU 0 with no switch between them: one
	 * switch-in of B can be inserted, A's later event stays a
	 * contradiction and is counted */
	ft_trace_init(&t);
	sw(&t, T0, 0, 0, 5, 0);
	wake(&t, T0 + 10 * US, 0, 9, 5);
	wake(&t, T0 + 20 * US, 0, 9, 6);
	wake(&t, T0 + 30 * US, 0, 9, 5);
	sw(&t, T0 + 40 * US, 0, 6, 0, 1);
	assert_int_equal(ft_trace_finish(&t), 0);
	assert_int_equal(t.inconsistent, 1);
	assert_int_equal(t.contradictions, 1);
	assert_int_equal(ft_trace_contradictions(&t), 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trace_roundtrip),
		cmocka_unit_test(trace_truncated_and_corrupted),
		cmocka_unit_test(trace_damage_costs_one_chunk),
		cmocka_unit_test(trace_damaged_header),
		cmocka_unit_test(printable_messages),
		cmocka_unit_test(repair_idle_to_task),
		cmocka_unit_test(repair_from_runtime_events),
		cmocka_unit_test(repair_bounded_by_own_events),
		cmocka_unit_test(switch_in_bounds),
		cmocka_unit_test(atrace_grammar),
		cmocka_unit_test(frames_from_framebench_markers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
