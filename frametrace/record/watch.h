/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frametrace watch, the flight recorder, in pieces: the ring of recent
 * events (watch_ring.c), the triggers (watch_trigger.c), a MangoHud log
 * being written (mangotail.c) and the captures (capture.c); cmd_watch.c
 * runs them. The in-kernel flight ring is the default: no event crosses to
 * user space until a trigger, so the recorder costs the traced machine
 * least (docs/frametrace.md, "Flight recorder": measured against
 * --user-ring, which streams every event through the ring buffer into a
 * circular buffer here).
 */
#ifndef FT_WATCH_H
#define FT_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>

#include "feed.h"
#include "ftbpf.h"
#include "trace/ftutil.h"
#include "trace/present.h"
#include "present_attach.h"
#include "trace/steal.h"
#include "trace/trace.h"

/* Frames a running median covers. */
#define FT_MEDIAN_WIN 301

/* ---- the ring of recent events (watch_ring.c) ------------------------ */

struct ft_ring_ev {
	uint64_t idx;		/* ring index: orders events of equal time */
	struct ft_ev ev;
};

struct ft_flight {
	const struct ft_bpf *b;	/* in-kernel per-CPU flight ring */
	bool user;		/* --user-ring: the circular buffer below */
	struct ft_ev *uring;
	size_t ucap;
	uint64_t uhead;
	/* the pending capture's copy, and per CPU the last index copied */
	uint64_t *copied;
	uint64_t *last_ts;	/* per CPU, the newest event drained */
	struct ft_ring_ev *copy;
	size_t ncopy, copycap;
	uint64_t torn;		/* slots being rewritten while copied */
	uint64_t overwritten;	/* events lost before they were copied */
};

int ft_flight_init(struct ft_flight *fl, const struct ft_bpf *b, bool user,
		   uint64_t slots_per_cpu);
void ft_flight_free(struct ft_flight *fl);
/* An event streamed into the user-space ring. */
void ft_flight_add(struct ft_flight *fl, const struct ft_ev *e);
/* Forgets the last capture's copy: the next ft_flight_copy starts one. */
void ft_flight_copy_reset(struct ft_flight *fl);
/* Copies what the ring holds that is not copied yet (first: everything it
 * holds). 0 or -1 when memory runs out. */
int ft_flight_copy(struct ft_flight *fl, bool first);
/* record: appends what the kernel ring holds past the last drain (events
 * still being written wait for the next one; what a later lap overwrote
 * is counted in overwritten). 0 or -1 when memory runs out. */
int ft_flight_drain(struct ft_flight *fl);
/* Sorts the copy by time, ring index breaking ties. */
void ft_flight_copy_sort(struct ft_flight *fl);

/* ---- a MangoHud log being written (mangotail.c) ---------------------- */

struct ft_mangotail {
	const char *where;	/* --mangohud: a log, or a folder of logs */
	char path[4096];	/* the log followed */
	off_t off;		/* read so far */
	off_t skip;		/* rows written before the watch started */
	time_t start;
	char *header;		/* the lines up to and including the frame header */
	char hdr[16384];	/* collecting it */
	char partial[8192];	/* a line not complete yet */
	size_t plen;
};

/* Frame times of new rows, all with the present time they were read at. */
typedef void (*ft_mangotail_cb)(void *ctx, uint64_t present_ns,
				uint64_t frametime_ns);

void ft_mangotail_init(struct ft_mangotail *mt, const char *where);
/* Reads what was written since the last poll (picking the newest log of a
 * folder). */
void ft_mangotail_poll(struct ft_mangotail *mt, ft_mangotail_cb cb,
		       void *ctx);
void ft_mangotail_free(struct ft_mangotail *mt);

/* ---- the watch ------------------------------------------------------- */

enum ft_frames_from {
	FT_FRAMES_AUTO,		/* the feed, else trace_marker counters */
	FT_FRAMES_FEED,
	FT_FRAMES_MARKERS,
	FT_FRAMES_MANGOHUD,
	FT_FRAMES_PRESENT,	/* present calls (--present) */
};

struct ft_watch_opts {
	const char *dir;
	uint64_t pre_ns, post_ns, min_gap_ns;
	double frame_ms, factor;
	size_t min_frames;
	uint64_t max_captures, max_disk;
	bool user_ring, quiet, warmup_triggers;
	bool no_futex, no_markers, futex_calls, markers_now;
	enum ft_frames_from frames_from;
	const char *mangohud;
	uint64_t wakelat_ns;	/* 0: no wake-up latency trigger */
	const char *wakelat_comm;
	uint64_t ring_slots, duration, feed_pid;
	const char *feed_dir;
	int verbose;
	struct ft_present_cli present;	/* --present, -p */
	char **command;		/* NULL: none */
	bool explicit_trigger;	/* a trigger option was given */
};

/* A frame source's last frame times, for its running median. */
struct ft_frame_src {
	uint32_t pid;		/* 0: MangoHud */
	double win[FT_MEDIAN_WIN];
	size_t n, pos;
};

struct ft_mark {
	struct ft_ev ev;
	char *text;
};

struct ft_watch {
	struct ft_watch_opts o;
	struct ft_bpf b;
	struct ft_flight ring;
	struct ft_trace names;	/* tasks (and nothing else) */
	struct ft_feedset feeds;
	struct ft_mangotail mh;
	struct ft_presents pr;	/* uprobes on present calls */
	struct ft_present_seq presents;	/* present calls into frames */
	/* frames and markers (and present calls) of the last seconds */
	struct ft_frame *frames;
	size_t nframes, framecap;
	struct ft_mark *marks;
	size_t nmarks, markcap;
	struct ft_frame_src *srcs;
	size_t nsrcs, srccap;
	/* the trigger being captured */
	bool pending;
	uint64_t trig_ns, trig_frame_present;
	uint32_t trig_pid;
	char trig_text[256];
	/* a frame trigger's running median before it (0: none): the
	 * capture's baseline, since during a long disturbance the window's
	 * own frames are slow too */
	double trig_median_ms;
	/* the worst frame among the trigger's and those merged into its
	 * capture, and how many triggers were merged into it */
	double worst_ms;
	uint64_t worst_present;
	uint32_t worst_pid;
	uint64_t merged_here;
	uint64_t start_ns;	/* when the watch began (a young ring) */
	uint64_t last_trig_ns;
	bool have_last;
	/* what was captured */
	uint64_t captures, suppressed, merged, disk_used;
	struct utsname uts;
	const char *kernel;	/* its release, NULL if unknown */
	FILE *log;		/* captures.log */
	/* the host's steal, sampled every 100 ms (steal.h) */
	struct ft_steal steal;
	bool have_steal;
	uint64_t next_steal;
	bool oom;
};

/* watch_trigger.c: a trigger starts a capture unless one is pending (it
 * is merged) or the limits hold it back (suppressed). */
void ft_watch_fire(struct ft_watch *w, uint64_t ts, uint32_t pid,
		   uint64_t present, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A frame of a source (pid 0: MangoHud) against the frame triggers. */
void ft_watch_frame_seen(struct ft_watch *w, uint32_t pid, uint64_t present,
			 uint64_t frametime_ns, bool warmup, const char *from);

/* capture.c: saves the pending trigger's window as capture-NNN.ftr and
 * notes it on stdout and in captures.log. */
void ft_capture_save(struct ft_watch *w);

#endif
