/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace in memory, and the frametrace trace file (".ftr") that stores it.
 *
 * File layout, version 1 (all integers little-endian):
 *
 *   file header, 64 bytes
 *     0  char   magic[8]      "GSFTRACE"
 *     8  u32    version       1
 *    12  u32    header_size   64 (readers skip what they do not know)
 *    16  u32    event_size    32 (sizeof(struct ft_ev), frametrace.h)
 *    20  u32    ncpus         CPUs of the traced machine (0 = unknown)
 *    24  u64    start_ns      CLOCK_MONOTONIC of the first event / start
 *    32  u64    end_ns        end of the recording
 *    40  u64    flags         0
 *    48  u64    reserved[2]
 *
 *   then chunks until the end of the file, each
 *     0  u32    type          FT_CHUNK_*
 *     4  u32    count         records in the payload
 *     8  u64    length        payload bytes
 *    16  u32    crc32         of the payload (IEEE 802.3 polynomial)
 *    20  u32    reserved
 *    24  payload, then zero padding to a multiple of 8 bytes
 *
 *   chunk types
 *     1 META     "key=value\n" text (source, kernel, host, lost_events, ...)
 *     2 EVENTS   count x struct ft_ev (frametrace.h documents the fields)
 *     3 TASKS    count x struct ft_task_rec (tid, tgid, comm)
 *     4 FRAMES   count x struct ft_frame
 *     5 STRINGS  count NUL-terminated strings; MARK events' arg2 indexes
 *                the strings of all STRINGS chunks in file order
 *     6 END      empty; written last by a writer that finished cleanly
 *   Readers skip chunk types they do not know (forward compatibility
 *   within version 1); a new version number means an incompatible layout.
 *   A recorder writes STRINGS and EVENTS chunks as it goes, so a file cut
 *   short (killed recorder, full disk) still reads up to its last whole
 *   chunk; the reader says so.
 */
#ifndef FT_TRACE_H
#define FT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frametrace.h"

#define FT_MAGIC "GSFTRACE"
#define FT_VERSION 1
#define FT_HEADER_SIZE 64
#define FT_CHUNK_HDR 24

enum {
	FT_CHUNK_META = 1,
	FT_CHUNK_EVENTS = 2,
	FT_CHUNK_TASKS = 3,
	FT_CHUNK_FRAMES = 4,
	FT_CHUNK_STRINGS = 5,
	FT_CHUNK_END = 6,
};

struct ft_task_rec {
	uint32_t tid;
	uint32_t pid;		/* tgid */
	char comm[FT_COMM_LEN];
	uint64_t flags;		/* FT_TASK_* */
};

#define FT_TASK_RECORDER 1	/* the recorder's own threads */

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
	bool finished;		/* ft_trace_finish ran */
	bool partial;		/* file cut short or corrupted: partial data */
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

void ft_meta_set(struct ft_trace *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *ft_meta_get(const struct ft_trace *t, const char *key);

/*
 * Makes a freshly read trace consistent; every reader calls it:
 * sorts events by time (stable), learns tgids from events, derives frames
 * from atrace markers when the trace has none from a feed, and repairs the
 * missing idle->task sched_switch quirk (TRACING.md): a task that leaves a
 * CPU it was never switched onto gets a reconstructed switch-in
 * (FT_F_RECONSTRUCTED) at the best time the trace supports (its
 * sum_exec_runtime or sched_stat_runtime, else its wake-up), counted in
 * t->reconstructed (from idle) or t->inconsistent (from another task).
 */
int ft_trace_finish(struct ft_trace *t);

/*
 * Reads a trace file. Returns 0, or 1 when only part of the file could be
 * read (t->partial, t->warning names the file and offset), or -1 with
 * "path: offset N: what" in err when nothing usable was found.
 */
int ft_trace_read(const char *path, struct ft_trace *t, char *err,
		  size_t errlen);
int ft_trace_read_mem(const void *buf, size_t len, const char *name,
		      struct ft_trace *t, char *err, size_t errlen);

/* Writes a whole trace. 0 or -1 with err. */
int ft_trace_write(const struct ft_trace *t, const char *path, char *err,
		   size_t errlen);

/* Streaming writer (recorder): events and strings are flushed as chunks
 * while recording; the rest at close. */
struct ft_writer {
	FILE *f;
	char path[4096];
	uint64_t bytes;
	int error;
};

int ft_writer_open(struct ft_writer *w, const char *path, uint32_t ncpus,
		   uint64_t start_ns, char *err, size_t errlen);
int ft_writer_events(struct ft_writer *w, const struct ft_ev *ev, size_t n);
int ft_writer_strings(struct ft_writer *w, char *const *s, size_t n);
/* Writes META, TASKS, FRAMES and END from t, patches the header's end_ns,
 * closes. */
int ft_writer_close(struct ft_writer *w, const struct ft_trace *t,
		    uint64_t end_ns, char *err, size_t errlen);

uint32_t ft_crc32(const void *buf, size_t len);

/* Event type names ("sched_switch", ...). */
const char *ft_ev_name(unsigned type);

/* Kernel task state bits to the letter ftrace prints (R, S, D, T, t, X,
 * Z, P, I); preempted/runnable is "R". */
char ft_state_char(uint32_t state);

#endif
