/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the importers (import.c and import_*.c) share: the state of one
 * import, whose counts and first problem import.c turns into the trace's
 * warning (importer.c counts them), and the header fields of a perf or
 * ftrace event line.
 */
#ifndef FT_IMPORTER_H
#define FT_IMPORTER_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/ftutil.h"
#include "import.h"

#define FT_IMPORT_LINE_MAX 4096

struct ft_import {
	const char *name;
	enum ft_fmt fmt;
	struct ft_trace *t;
	size_t line;
	uint64_t bad_lines, events, unknown_lines, lost;
	char first_bad[300];
	char unknown[5][48];
	size_t unknown_first_line[5];
	uint64_t unknown_count[5];
	int nunknown;
	bool oom;
	/* present calls (present.h): --frame-event names besides the
	 * built-in ones, and the string index of each name seen */
	const char *const *frame_events;
	size_t nframe_events;
	const char *present_name[16];
	long present_str[16];
	int npresent;
	uint64_t presents;
	uint64_t irq_known;	/* event lines with an irq-context column */
	uint64_t mh_unusable;	/* MangoHud rows whose frame time is no frame */
	/* what the text says of a task's process (tid -> FT_HINT_*), for a
	 * text without pids (import_procs.c) */
	struct ft_map hint;
	uint64_t pid_lines;	/* event lines with a pid (tgid) column */
};

#define FT_HINT_THREAD 1	/* task_newtask with CLONE_THREAD */
#define FT_HINT_PROCESS 2	/* task_newtask without it */
#define FT_HINT_LEADER 4	/* exec'd: leads its process */
#define FT_HINT_GROUP_DEAD 8	/* sched_process_exit group_dead=true */
#define FT_HINT_FORKED 16	/* named by a sched_process_fork line */
#define FT_HINT_RENAMED 32	/* a later line names it otherwise: an exec
				 * or a thread that named itself */

/* What decided a task's process (import_procs.c, import_launch.c). */
enum ft_proc_why {
	FT_WHY_OWN,		/* not forked in the text */
	FT_WHY_TEXT,		/* exec, task_newtask, kthreadd, marker tgid */
	FT_WHY_ASSUMED,		/* forked: taken as a thread of its parent's */
	FT_WHY_GROUP_EXIT,	/* forked: a process, its group exited first */
	FT_WHY_LAUNCHED,	/* forked, renamed, its parent slept: an exec */
};

/* Counts a line that cannot be used; the first one is quoted with its
 * line number. */
void ft_import_bad(struct ft_import *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Header fields every line format gives. */
struct ft_text_hdr {
	char comm[64];
	uint64_t tid;
	uint64_t pid;		/* 0 unknown */
	uint64_t cpu;
	uint64_t ts;
	char event[64];		/* without "subsystem:" */
	const char *args;
	bool irq;		/* ftrace flags say hardirq/softirq/NMI */
	bool irq_known;		/* the line has an irq-context column */
	bool notask;		/* perf could not tell the task (":-1 -1") */
};

static inline bool ft_all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static inline uint64_t ft_digits_u64(const char *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && i < 19; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	return v;
}

/* A pid, tid or cpu: digits that fit a pid_t. A 20-digit "pid" would
 * wrap in ft_digits_u64 into some other task's: the line is refused. */
static inline bool ft_is_id(const char *s, size_t n)
{
	return ft_all_digits(s, n) && n <= 10 && ft_digits_u64(s, n) <= INT32_MAX;
}

/*
 * The "[cpu]" field of a perf (ftrace false) or ftrace text event line:
 * h cleared, then the first field of 1 to 5 digits whose tail parses
 * (ft_text_hdr_tail) sets h's cpu, ts, event and args. Returns its '[',
 * or NULL; what stands before it is the caller's.
 */
char *ft_text_hdr_cpu(char *line, bool ftrace, struct ft_text_hdr *h);
/* After "[cpu]" of a text event line: [flags] timestamp ": " event ":"
 * args. flags_allowed: an irq-flags column may come first (ftrace's; perf
 * prints one with -L in some versions). */
int ft_text_hdr_tail(const char *p, bool flags_allowed, struct ft_text_hdr *h);
/* perf script: "[comm] tid|pid/tid [cpu] ts: subsys:event: args". 0 or -1. */
int ft_perf_parse_header(char *line, struct ft_text_hdr *h);
/* ftrace: "comm-tid [(tgid)] [cpu] [flags] ts: event: args". 0 or -1. */
int ft_ftrace_parse_header(char *line, struct ft_text_hdr *h);
/* ftrace's "CPU:N [LOST M EVENTS]" line: true, and M added to *lost. */
bool ft_ftrace_lost_line(const char *s, uint64_t *lost);

/* One event line of either text format into t's events and tasks. */
void ft_import_event_line(struct ft_import *im, struct ft_text_hdr *h);

/* The per-format importers: 0, or -1 with "name: what" in err. */
int ft_import_text(struct ft_import *im, const char *buf, size_t len,
		   char *err, size_t errlen);
/* The processes of tasks the text gave no pid: import_procs.c. 0, or -1
 * when memory runs out. */
int ft_import_infer_procs(struct ft_import *im);
/* What a fork and a rename after it say (import_launch.c). */
enum ft_launch_verdict {
	FT_LAUNCH_NONE,		/* not forked in the text, or not renamed */
	FT_LAUNCH_EXEC,		/* the parent's only child, the parent slept */
	FT_LAUNCH_RAN_ON,	/* the parent ran on beside it */
	FT_LAUNCH_SIBLINGS,	/* other children of the parent alive too */
	FT_LAUNCH_LITTLE,	/* it and its descendants ran under 1 ms */
};
/* The verdict of each task (parent: index + 1 into t->tasks, 0 none)
 * into out[]; 0, or -1 when memory runs out. */
int ft_launch_verdicts(const struct ft_trace *t, const struct ft_map *hint,
		       const size_t *parent, uint8_t *out);
/* "; the frames' presenter ..." and what decided its process, or "the
 * launcher chain cannot be told apart"; "" without present calls or
 * markers. */
void ft_launch_note(const struct ft_trace *t, const uint8_t *verdict,
		    const size_t *parent, const uint8_t *why,
		    const uint32_t *pid, char *buf, size_t len);
int ft_import_mangohud(struct ft_import *im, const char *buf, size_t len,
		       char *err, size_t errlen);

#endif
