// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of what frametrace writes for other programs: the report's
 * JSON keys, and the Perfetto export checked against the ftrace line
 * grammar of docs/formats.md by a parser written here, independent of
 * the importer (which must still read the export back).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "import/import.h"
#include "json.h"
#include "trace/marker.h"
#include "export/report.h"
#include "test_frametrace.h"

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

/* ---- Perfetto export against the docs/formats.md grammar -------------- */

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
	/* no line by a task the switches do not run on its CPU, frame
	 * markers included */
	assert_int_equal(t.contradictions, 0);
	assert_int_equal(u.contradictions, 0);
	assert_int_equal(u.inconsistent + u.reconstructed,
			 t.inconsistent + t.reconstructed);
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
		cmocka_unit_test(report_json_keys),
		cmocka_unit_test(export_ftrace_grammar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
