// SPDX-License-Identifier: GPL-2.0-only
/* Format detection and the import entry points (import.h); the formats
 * themselves are in import_*.c. */
#include "import.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/finish.h"
#include "trace/ftutil.h"
#include "importer.h"
#include "trace/tracefile.h"
#include "util.h"

enum ft_fmt ft_detect(const char *buf, size_t len)
{
	size_t i = 0, lines = 0;
	int perf = 0, ftrace = 0, mh = 0;
	char line[FT_IMPORT_LINE_MAX];

	if (len >= 8 && !memcmp(buf, FT_MAGIC, 8))
		return FT_FMT_TRACE;
	while (i < len && lines < 400) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t j = nl ? (size_t)(nl - buf) : len, n = j - i;
		struct ft_text_hdr h;

		lines++;
		if (n < sizeof(line)) {
			char *s;

			memcpy(line, buf + i, n);
			line[n] = '\0';
			s = line;
			while (*s == ' ' || *s == '\t')
				s++;
			if (!strncmp(s, "# tracer:", 9))
				ftrace += 10;
			else if (!strncmp(s, "fps,", 4) ||
				 !strncmp(s, "os,cpu,gpu", 10))
				mh += 10;
			else if (*s && *s != '#') {
				char copy[FT_IMPORT_LINE_MAX];

				memcpy(copy, line, n + 1);
				if (!ft_perf_parse_header(copy, &h))
					perf++;
				memcpy(copy, line, n + 1);
				if (!ft_ftrace_parse_header(copy, &h))
					ftrace++;
			}
		}
		i = j + 1;
	}
	if (mh && mh >= perf && mh >= ftrace)
		return FT_FMT_MANGOHUD;
	if (perf > ftrace)
		return FT_FMT_PERF;
	if (ftrace > 0)
		return FT_FMT_FTRACE;
	return FT_FMT_UNKNOWN;
}

/* A text input without one event or a log without one frame is an error
 * (with the first reason found), not an empty trace. */
static bool nothing_usable(const struct ft_import *im, char *err,
			   size_t errlen)
{
	if ((im->fmt == FT_FMT_PERF || im->fmt == FT_FMT_FTRACE) &&
	    !im->events) {
		if (im->first_bad[0])
			snprintf(err, errlen,
				 "%s: no scheduler events recognised (%" PRIu64
				 " bad lines; first: %s)",
				 im->name, im->bad_lines, im->first_bad);
		else if (im->nunknown)
			snprintf(err, errlen,
				 "%s:%zu: no scheduler events, only unknown event "
				 "'%s' (record with 'perf sched record -k mono')",
				 im->name, im->unknown_first_line[0],
				 im->unknown[0]);
		else
			snprintf(err, errlen, "%s: no events", im->name);
		return true;
	}
	if (im->fmt == FT_FMT_MANGOHUD && !im->t->nframes) {
		if (im->first_bad[0])
			snprintf(err, errlen, "%s: no usable frame (%" PRIu64
				 " rows skipped; first: %s)", im->name,
				 im->bad_lines, im->first_bad);
		else
			snprintf(err, errlen, "%s: no frames", im->name);
		return true;
	}
	return false;
}

/* The skipped lines and unknown events into the trace's warning. */
static void note_skipped(const struct ft_import *im, struct ft_trace *t)
{
	t->skipped += im->bad_lines + im->unknown_lines;
	if (im->first_bad[0]) {
		t->partial = true;
		snprintf(t->warning, sizeof(t->warning),
			 "%s (%" PRIu64 " line%s skipped)", im->first_bad,
			 im->bad_lines, im->bad_lines == 1 ? "" : "s");
	}
	if (im->nunknown) {
		size_t o = strlen(t->warning);
		char list[300] = "";

		for (int k = 0; k < im->nunknown; k++) {
			size_t l = strlen(list);

			snprintf(list + l, sizeof(list) - l, "%s%s (%" PRIu64 ")",
				 k ? ", " : "", im->unknown[k],
				 im->unknown_count[k]);
		}
		snprintf(t->warning + o, sizeof(t->warning) - o,
			 "%s%s:%zu: unknown events skipped: %s", o ? "; " : "",
			 im->name, im->unknown_first_line[0], list);
		t->partial = true;
		ft_meta_set(t, "unknown_events", "%s", list);
	}
}

int ft_import_mem(const char *buf, size_t len, const char *name,
		  enum ft_fmt fmt, struct ft_trace *t, char *err,
		  size_t errlen)
{
	return ft_import_mem_opts(buf, len, name, fmt, NULL, t, err, errlen);
}

int ft_import_mem_opts(const char *buf, size_t len, const char *name,
		       enum ft_fmt fmt, const struct ft_import_opts *o,
		       struct ft_trace *t, char *err, size_t errlen)
{
	struct ft_import im = { .name = name, .t = t };
	int rc;

	if (o) {
		im.frame_events = o->frame_events;
		im.nframe_events = o->nframe_events;
	}

	ft_trace_init(t);
	if (fmt == FT_FMT_UNKNOWN)
		fmt = ft_detect(buf, len);
	im.fmt = fmt;
	switch (fmt) {
	case FT_FMT_PERF:
	case FT_FMT_FTRACE:
		rc = ft_import_text(&im, buf, len, err, errlen);
		break;
	case FT_FMT_MANGOHUD:
		rc = ft_import_mangohud(&im, buf, len, err, errlen);
		break;
	case FT_FMT_TRACE:
		return ft_trace_read_mem(buf, len, name, t, err, errlen);
	default:
		snprintf(err, errlen,
			 "%s: line 1: not a format frametrace knows (expected "
			 "perf script text, ftrace text, a MangoHud CSV log or a "
			 "frametrace trace)",
			 name);
		return -1;
	}
	if (rc || nothing_usable(&im, err, errlen)) {
		ft_map_free(&im.hint);
		/* lib/mangohud.h's messages quote fields as they are */
		ft_printable_inplace(err, errlen);
		ft_trace_free(t);
		return -1;
	}
	t->lost_events = im.lost;
	ft_meta_set(t, "source", "import");
	ft_meta_set(t, "format", "%s", ft_fmt_name(fmt));
	ft_meta_set(t, "input", "%s", name);
	if (fmt == FT_FMT_PERF)
		ft_meta_set(t, "clock", "perf (monotonic with -k mono)");
	/* whether a wake-up made by an interrupt can be told apart */
	if (fmt == FT_FMT_PERF || fmt == FT_FMT_FTRACE)
		ft_meta_set(t, "irq_context", "%s", im.irq_known ? "flags" : "none");
	if (im.bad_lines)
		ft_meta_set(t, "skipped_lines", "%" PRIu64, im.bad_lines);
	/* before finish: frames from present calls take their process from
	 * their presenter's */
	rc = fmt == FT_FMT_MANGOHUD || im.pid_lines ? 0
						    : ft_import_infer_procs(&im);
	ft_map_free(&im.hint);
	if (rc || ft_trace_finish(t)) {
		snprintf(err, errlen, "%s: out of memory", name);
		ft_trace_free(t);
		return -1;
	}
	note_skipped(&im, t);
	return t->partial ? 1 : 0;
}

void ft_load_warn(const struct ft_trace *t, int rc)
{
	const char *procs = ft_meta_get(t, "processes");

	if (rc > 0)
		gs_warn("warning: %s", t->warning);
	if (procs)
		gs_warn("warning: %s", procs);
}

int ft_load_mem(const char *buf, size_t len, const char *name,
		struct ft_trace *t, char *err, size_t errlen)
{
	return ft_import_mem(buf, len, name, FT_FMT_UNKNOWN, t, err, errlen);
}

int ft_load(const char *path, struct ft_trace *t, char *err, size_t errlen)
{
	return ft_load_opts(path, NULL, t, err, errlen);
}

int ft_load_opts(const char *path, const struct ft_import_opts *o,
		 struct ft_trace *t, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	ft_trace_init(t);
	if (gs_read_file(path, 0, &buf, &len, err, errlen))
		return -1;
	rc = ft_import_mem_opts(buf, len, path, FT_FMT_UNKNOWN, o, t, err,
				errlen);
	free(buf);
	return rc;
}
