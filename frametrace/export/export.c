// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace export --perfetto OUT [--json] INPUT
 *
 * Writes Linux ftrace text that Perfetto (ui.perfetto.dev, trace_processor)
 * opens as per-CPU scheduling tracks, thread states and frames:
 * sched_switch and sched_waking lines with sanitised comms and a (tgid)
 * column, the trace's own atrace markers, and for frames from framebench's
 * feed or a MangoHud log, async "frame" slices (S/F, since pipelined frames
 * overlap) and a frame-time counter (C). With --json the same text goes
 * into {"systemTraceEvents": ...} next to "traceEvents" holding flow
 * arrows from each waker to the wakee's next run.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "import/import.h"
#include "json.h"
#include "analysis/model.h"
#include "util.h"

void ft_sanitize_comm(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++) {
		unsigned char c = (unsigned char)*in;

		out[n++] = (c <= ' ' || c == 0x7f) ? '_' : (char)c;
	}
	if (!n && len > 5) {
		memcpy(out, "<...>", 5);
		n = 5;
	}
	out[n] = '\0';
}

static void comm_of(const struct ft_trace *t, uint32_t tid, uint16_t cpu,
		    char *out, size_t len)
{
	if (tid == 0) {
		snprintf(out, len, "swapper/%u", cpu);
		return;
	}
	ft_sanitize_comm(ft_task_comm(t, tid), out, len);
	if (!strcmp(out, "?"))
		snprintf(out, len, "<...>");
}

static void line_head(FILE *f, const struct ft_trace *t, uint32_t tid,
		      uint16_t cpu, const char *flags, uint64_t ts)
{
	char comm[40], tg[16];
	uint32_t pid = tid ? ft_task_pid(t, tid) : 0;

	if (tid == 0)
		snprintf(comm, sizeof(comm), "<idle>");
	else
		comm_of(t, tid, cpu, comm, sizeof(comm));
	if (pid || tid == 0)
		snprintf(tg, sizeof(tg), "%u", pid);
	else
		snprintf(tg, sizeof(tg), "-------");
	fprintf(f, "%16s-%-7u (%7s) [%03u] %s %" PRIu64 ".%09" PRIu64 ": ", comm,
		tid, tg, cpu, flags, ts / 1000000000u, ts % 1000000000u);
}

struct item {
	uint64_t ts;
	uint32_t kind;		/* 0 event, 1 frame start, 2 frame end */
	uint32_t seq;
	size_t idx;
};

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The line a frame's marker is written on: the presenting thread on the
 * CPU it runs on at that time, else the task running on the first CPU
 * whose task is known (the marker's own text names the process). A line
 * by a task that does not run on its CPU would contradict the switches
 * when the export is read back. */
static void marker_writer(const int64_t *cur, uint32_t ncpu, uint32_t tid,
			  uint32_t *who, uint16_t *cpu)
{
	for (uint32_t c = 0; c < ncpu; c++)
		if (cur[c] == (int64_t)tid) {
			*who = tid;
			*cpu = (uint16_t)c;
			return;
		}
	for (uint32_t c = 0; c < ncpu; c++)
		if (cur[c] >= 0) {
			*who = (uint32_t)cur[c];
			*cpu = (uint16_t)c;
			return;
		}
	*who = tid;
	*cpu = 0;
}

/* The task a line is written by: the event's own, or for a line whose
 * task perf could not tell, the task running on its CPU (an interrupt's
 * wake-up is written by the task it interrupted, as ftrace does). */
static uint32_t line_task(const struct ft_ev *e, uint32_t own,
			  const int64_t *cur, uint32_t ncpu)
{
	if ((e->flags & FT_F_NO_TASK) && e->cpu < ncpu && cur[e->cpu] >= 0)
		return (uint32_t)cur[e->cpu];
	return own;
}

/* A scheduling event or a marker as ftrace prints it. */
static void export_event(FILE *f, const struct ft_trace *t,
			 const struct ft_ev *e, int64_t *cur, uint32_t ncpu)
{
	char a[40], b[40];

	if (e->type == FT_EV_SWITCH) {
		bool recon = e->flags & FT_F_RECONSTRUCTED;
		char st[4];
		uint32_t s = e->arg2 & 0xffff;

		if ((e->flags & FT_F_PREEMPT) || (s & FT_STATE_UNKNOWN) ||
		    !(s & 0x7fff))
			snprintf(st, sizeof(st), "R%s",
				 (e->flags & FT_F_PREEMPT) ? "+" : "");
		else
			snprintf(st, sizeof(st), "%c", ft_state_char(s));
		comm_of(t, e->tid, e->cpu, a, sizeof(a));
		comm_of(t, e->arg, e->cpu, b, sizeof(b));
		if (e->cpu < ncpu)
			cur[e->cpu] = e->arg;
		line_head(f, t, e->tid, e->cpu, "d..2", e->ts);
		/* priority 0 is a real one (an RT task at 99); a
		 * reconstructed switch knows none: 120 */
		fprintf(f, "sched_switch: prev_comm=%s prev_pid=%u "
			"prev_prio=%u prev_state=%s ==> next_comm=%s "
			"next_pid=%u next_prio=%u\n",
			a, e->tid, recon ? 120 : (e->arg2 >> 16) & 0xff,
			st, b, e->arg,
			recon ? 120 : (e->arg2 >> 24) & 0xff);
	} else if (e->type == FT_EV_MARK) {
		line_head(f, t, line_task(e, e->tid, cur, ncpu),
			  e->cpu, "....", e->ts);
		fprintf(f, "tracing_mark_write: %s\n",
			ft_str_get(t, e->arg2));
	} else {
		uint32_t waker = line_task(e, e->arg, cur, ncpu);
		uint32_t prio = (e->arg2 >> 16) & 0xff;

		comm_of(t, e->tid, e->cpu, a, sizeof(a));
		line_head(f, t, waker, e->cpu,
			  (e->flags & FT_F_IRQ) ? "d.h." : "d..2", e->ts);
		fprintf(f, "sched_waking: comm=%s pid=%u prio=%u "
			"target_cpu=%03u\n",
			a, e->tid, prio, e->arg2 & 0xffff);
	}
}

/* A frame as the markers a game writes: S/F slices and counters. */
static void export_frame(FILE *f, const struct ft_trace *t,
			 const struct item *it, const int64_t *cur, uint32_t ncpu)
{
	const struct ft_frame *fr = &t->frames[it->idx];
	uint32_t tid = fr->tid ? fr->tid : fr->pid;
	uint32_t pid = fr->pid ? fr->pid : (tid ? ft_task_pid(t, tid) : 0);
	uint32_t who;
	uint16_t wc;

	if (!pid)
		pid = 1; /* frames-only traces (MangoHud) */
	marker_writer(cur, ncpu, tid ? tid : pid, &who, &wc);
	line_head(f, t, who, wc, "....", it->ts);
	if (it->kind == 1) {
		fprintf(f, "tracing_mark_write: S|%u|frame|%zu\n", pid,
			it->idx);
	} else {
		if (fr->start_ns && fr->start_ns <= fr->present_ns)
			fprintf(f, "tracing_mark_write: F|%u|frame|%zu\n",
				pid, it->idx);
		else
			fprintf(f, "tracing_mark_write: C|%u|frame_present|1\n",
				pid);
		line_head(f, t, who, wc, "....", it->ts);
		fprintf(f, "tracing_mark_write: C|%u|frametime_ms|%.3f\n",
			pid, (double)fr->frametime_ns / 1e6);
		if (fr->disturbance) {
			line_head(f, t, who, wc, "....", it->ts);
			fprintf(f, "tracing_mark_write: C|%u|disturbance|1\n",
				pid);
		}
	}
}

int ft_export_ftrace(FILE *f, const struct ft_trace *t)
{
	bool has_waking = false;
	struct item *it;
	size_t n = 0, nframes_out = 0;
	uint32_t seq = 0, ncpu = 0;
	int64_t *cur;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_WAKING)
			has_waking = true;
	for (size_t i = 0; i < t->nframes; i++)
		if (!(t->frames[i].flags & FT_FRAME_MARKER))
			nframes_out++;
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_SWITCH && t->ev[i].cpu >= ncpu)
			ncpu = t->ev[i].cpu + 1u;
	cur = malloc((ncpu ? ncpu : 1) * sizeof(*cur));
	it = malloc((t->nev + 2 * nframes_out + 1) * sizeof(*it));
	if (!it || !cur) {
		free(it);
		free(cur);
		return -1;
	}
	for (uint32_t c = 0; c < ncpu; c++)
		cur[c] = -1;
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];

		switch (e->type) {
		case FT_EV_SWITCH:
		case FT_EV_WAKING:
		case FT_EV_WAKEUP_NEW:
		case FT_EV_MARK:
			break;
		case FT_EV_WAKEUP:
			if (has_waking)
				continue;
			break;
		default:
			continue;
		}
		it[n++] = (struct item){ e->ts, 0, seq++, i };
	}
	for (size_t i = 0; i < t->nframes; i++) {
		const struct ft_frame *fr = &t->frames[i];

		if (fr->flags & FT_FRAME_MARKER)
			continue;
		if (fr->start_ns && fr->start_ns <= fr->present_ns)
			it[n++] = (struct item){ fr->start_ns, 1, seq++, i };
		it[n++] = (struct item){ fr->present_ns, 2, seq++, i };
	}
	qsort(it, n, sizeof(*it), item_cmp);

	fprintf(f, "# tracer: nop\n#\n");
	fprintf(f, "# entries-in-buffer/entries-written: %zu/%zu   #P:%u\n#\n", n,
		n, t->ncpus);
	fprintf(f, "# written by frametrace export; timestamps CLOCK_MONOTONIC\n");
	fprintf(f, "#           TASK-PID     TGID  CPU#  ||||   TIMESTAMP  FUNCTION\n");
	fprintf(f, "#              | |         |     |   ||||      |         |\n");
	for (size_t k = 0; k < n; k++) {
		if (it[k].kind == 0)
			export_event(f, t, &t->ev[it[k].idx], cur, ncpu);
		else
			export_frame(f, t, &it[k], cur, ncpu);
	}
	free(it);
	free(cur);
	return ferror(f) ? -1 : 0;
}

static void json_flows(FILE *f, const struct ft_trace *t, size_t max)
{
	struct ft_model m;
	struct gs_jw w;
	size_t out = 0;

	gs_jw_init(&w, f, false);
	gs_jw_arr(&w, NULL);
	if (!ft_model_build(&m, t)) {
		for (size_t i = 0; i < m.nwake && out < max; i++) {
			const struct ft_wake *wk = &m.wake[i];
			char name[64];

			if (!wk->waker || !wk->run_ts)
				continue;
			/* a short slice on each end carries the arrow */
			snprintf(name, sizeof(name), "wake %s",
				 ft_task_comm(t, wk->wakee));
			gs_jw_obj(&w, NULL);
			gs_jw_str(&w, "name", name);
			gs_jw_str(&w, "cat", "wakeup");
			gs_jw_str(&w, "ph", "X");
			gs_jw_num(&w, "ts", (double)wk->ts / 1e3);
			gs_jw_num(&w, "dur", 1);
			gs_jw_uint(&w, "pid", ft_task_pid(t, wk->waker));
			gs_jw_uint(&w, "tid", wk->waker);
			gs_jw_obj_end(&w);
			gs_jw_obj(&w, NULL);
			gs_jw_str(&w, "name", "wakeup");
			gs_jw_str(&w, "cat", "wakeup");
			gs_jw_str(&w, "ph", "s");
			gs_jw_uint(&w, "id", i + 1);
			gs_jw_num(&w, "ts", (double)wk->ts / 1e3);
			gs_jw_uint(&w, "pid", ft_task_pid(t, wk->waker));
			gs_jw_uint(&w, "tid", wk->waker);
			gs_jw_obj_end(&w);
			snprintf(name, sizeof(name), "woken by %s",
				 ft_task_comm(t, wk->waker));
			gs_jw_obj(&w, NULL);
			gs_jw_str(&w, "name", name);
			gs_jw_str(&w, "cat", "wakeup");
			gs_jw_str(&w, "ph", "X");
			gs_jw_num(&w, "ts", (double)wk->run_ts / 1e3);
			gs_jw_num(&w, "dur", 1);
			gs_jw_uint(&w, "pid", ft_task_pid(t, wk->wakee));
			gs_jw_uint(&w, "tid", wk->wakee);
			gs_jw_obj_end(&w);
			gs_jw_obj(&w, NULL);
			gs_jw_str(&w, "name", "wakeup");
			gs_jw_str(&w, "cat", "wakeup");
			gs_jw_str(&w, "ph", "f");
			gs_jw_str(&w, "bp", "e");
			gs_jw_uint(&w, "id", i + 1);
			gs_jw_num(&w, "ts", (double)wk->run_ts / 1e3);
			gs_jw_uint(&w, "pid", ft_task_pid(t, wk->wakee));
			gs_jw_uint(&w, "tid", wk->wakee);
			gs_jw_obj_end(&w);
			out++;
		}
		ft_model_free(&m);
	}
	gs_jw_arr_end(&w);
}

int ft_export_json(FILE *f, const struct ft_trace *t, size_t max_flows)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		return -1;
	rc = ft_export_ftrace(m, t);
	if (fclose(m) || rc) {
		free(text);
		return -1;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":");
	json_flows(f, t, max_flows);
	fprintf(f, ",\"systemTraceEvents\":");
	gs_json_write_string(f, text);
	fprintf(f, "}\n");
	free(text);
	return ferror(f) ? -1 : 0;
}
