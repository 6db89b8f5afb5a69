/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace in memory: events (frametrace.h), tasks, frames, strings and
 * key=value meta. Readers fill one (tracefile.h, import.h) and end with
 * the finishing pass (finish.h); the report and the export read it.
 */
#ifndef FT_TRACE_H
#define FT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frametrace.h"

/* CPU numbers from here on are taken as corrupt input. */
#define FT_CPU_LIMIT 4096

struct ft_task_rec {
	uint32_t tid;
	uint32_t pid;		/* tgid */
	char comm[FT_COMM_LEN];
	uint64_t flags;		/* FT_TASK_* */
};

#define FT_TASK_RECORDER 1	/* the recorder's own threads */
#define FT_TASK_KTHREAD 2	/* a kernel thread: kthreadd or its child */

/* One presented frame. 48 bytes. */
struct ft_frame {
	uint64_t start_ns;	/* frame start (0 if unknown) */
	uint64_t present_ns;
	uint64_t frametime_ns;	/* present-to-present */
	uint64_t input_latency_ns;
	uint32_t pid;		/* process (0 unknown) */
	uint32_t tid;		/* presenting thread (0 unknown) */
	uint32_t flags;		/* GS_FEED_F_* | FT_FRAME_* */
	uint32_t disturbance;	/* nonzero: framebench's injected disturbance ran */
};

#define FT_FRAME_FEED 0x100	/* from framebench's shared feed */
#define FT_FRAME_MARKER 0x200	/* from atrace trace_marker lines */
#define FT_FRAME_MANGOHUD 0x400	/* from a MangoHud log */

_Static_assert(sizeof(struct ft_ev) == 32, "event ABI");
_Static_assert(sizeof(struct ft_task_rec) == 32, "task ABI");
_Static_assert(sizeof(struct ft_frame) == 48, "frame ABI");

struct ft_meta {
	char *key, *val;
};

struct ft_trace {
	struct ft_ev *ev;
	size_t nev, evcap;
	struct ft_task_rec *tasks;
	size_t ntasks, taskcap;
	uint32_t *tidx;		/* open addressing: tid -> index + 1 */
	size_t tidxcap;
	struct ft_frame *frames;
	size_t nframes, framecap;
	char **str;
	size_t nstr, strcap;
	struct ft_meta *meta;
	size_t nmeta;

	uint32_t ncpus;
	uint64_t start_ns, end_ns;

	/* what the readers found and did */
	uint64_t lost_events;	/* META lost_events: dropped by the recorder */
	uint64_t reconstructed;	/* idle->task switch-ins inserted */
	uint64_t inconsistent;	/* other missing switches inserted */
	uint64_t skipped;	/* records skipped: unknown type, bad fields */
	uint64_t corrupt_events; /* events in chunks the reader had to skip */
	uint64_t corrupt_bytes;	/* bytes of the file that could not be read */
	uint64_t contradictions; /* events by a task not switched in on their
				  * CPU even after the repair (finish.h) */
	bool finished;		/* ft_trace_finish ran */
	bool partial;		/* file cut short or corrupted: partial data */
	uint32_t problems;	/* problems the reader found (warning: the first) */
	char warning[512];	/* first problem found, "file: offset N: ..." */
};

void ft_trace_init(struct ft_trace *t);
void ft_trace_free(struct ft_trace *t);

int ft_trace_push(struct ft_trace *t, const struct ft_ev *e);
int ft_frame_push(struct ft_trace *t, const struct ft_frame *f);
/* Copies s; returns its index or -1. */
long ft_str_add(struct ft_trace *t, const char *s);
const char *ft_str_get(const struct ft_trace *t, uint64_t idx);

/* Inserts or updates a task (comm may be NULL to keep the old one,
 * pid 0 to keep the old one). Returns 0 or -1. */
int ft_task_set(struct ft_trace *t, uint32_t tid, uint32_t pid,
		const char *comm);
const struct ft_task_rec *ft_task_get(const struct ft_trace *t, uint32_t tid);
struct ft_task_rec *ft_task_get_mut(struct ft_trace *t, uint32_t tid);
/* Name for printing: comm, "<idle>" for tid 0, or "?". */
const char *ft_task_comm(const struct ft_trace *t, uint32_t tid);
uint32_t ft_task_pid(const struct ft_trace *t, uint32_t tid);
/* A kernel thread, from what the trace holds: FT_TASK_KTHREAD (kthreadd
 * and its children, in a recording or an import that saw the fork), or a
 * name only the kernel gives (kthreadd, rcu_*, kworker/N, ksoftirqd/N
 * and the like: a lowercase name, '/', a digit). */
bool ft_task_kthread(const struct ft_trace *t, uint32_t tid);

void ft_meta_set(struct ft_trace *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *ft_meta_get(const struct ft_trace *t, const char *key);

/* The task that was running on e->cpu when e was emitted (at e->ts),
 * when the event says: a switch's prev, a wake-up's waker (or the task an
 * interrupt interrupted), a fork's parent, the task of an exit, a futex
 * call, a marker or a present call, and a sched_stat_runtime line's own
 * task. false for events that do not say (migrations, renames, lines
 * whose task perf could not tell). */
bool ft_ev_emitter(const struct ft_ev *e, uint32_t *tid);

/* Event type names ("sched_switch", ...). */
const char *ft_ev_name(unsigned type);

/* Kernel task state bits to the letter ftrace prints (R, S, D, T, t, X,
 * Z, P, I); preempted/runnable is "R". */
char ft_state_char(uint32_t state);

#endif
