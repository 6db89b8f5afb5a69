/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Importers: `perf script` text (from `perf sched record -k mono`), ftrace
 * text (`cat /sys/kernel/tracing/trace`, also our own Perfetto export), and
 * MangoHud CSV logs (lib/mangohud.h), detected from the content. Every
 * importer ends in ft_trace_finish, so the missing idle->task switch quirk
 * is repaired and counted for imported data too.
 *
 * Problems name the file and line. Lines that cannot be used are skipped
 * and counted (the first one is quoted); unknown event types are skipped
 * and listed; a file with nothing usable is an error.
 */
#ifndef FT_IMPORT_H
#define FT_IMPORT_H

#include <stddef.h>

#include "trace/trace.h"

enum ft_fmt {
	FT_FMT_UNKNOWN,
	FT_FMT_TRACE,		/* our .ftr file */
	FT_FMT_PERF,		/* perf script text */
	FT_FMT_FTRACE,		/* ftrace text */
	FT_FMT_MANGOHUD,	/* MangoHud CSV */
};

enum ft_fmt ft_detect(const char *buf, size_t len);
const char *ft_fmt_name(enum ft_fmt f);

/*
 * Imports text of format fmt (FT_FMT_UNKNOWN: detect). Returns 0, 1 when
 * lines were skipped (t->warning says where and why), or -1 with
 * "name:line: what" in err.
 */
int ft_import_mem(const char *buf, size_t len, const char *name,
		  enum ft_fmt fmt, struct ft_trace *t, char *err,
		  size_t errlen);

/* What an import may be told (NULL: the defaults). */
struct ft_import_opts {
	/* event names taken as present calls besides glXSwapBuffers,
	 * eglSwapBuffers and vkQueuePresentKHR (--frame-event) */
	const char *const *frame_events;
	size_t nframe_events;
};
int ft_import_mem_opts(const char *buf, size_t len, const char *name,
		       enum ft_fmt fmt, const struct ft_import_opts *o,
		       struct ft_trace *t, char *err, size_t errlen);

/* Any supported input: a trace file or text to import. Same returns. */
int ft_load(const char *path, struct ft_trace *t, char *err, size_t errlen);
int ft_load_opts(const char *path, const struct ft_import_opts *o,
		 struct ft_trace *t, char *err, size_t errlen);
int ft_load_mem(const char *buf, size_t len, const char *name,
		struct ft_trace *t, char *err, size_t errlen);

/* The warnings of a loaded trace on stderr: t->warning when rc > 0
 * (partial data), and what was assumed of the tasks' processes (meta
 * "processes", a text without pids). */
void ft_load_warn(const struct ft_trace *t, int rc);

/* Parses "sec.frac" into ns. 0 or -1. */
int ft_parse_ts(const char *s, size_t len, uint64_t *ns);
/* Kernel task-state text ("S", "R+", "D|K", "I") to state bits; *preempt
 * is set for "R+". */
uint32_t ft_parse_state(const char *s, int *preempt);

#endif
