/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Background load, part of every run's configuration (--bg):
 *   hogs[:N]     N threads that never sleep (default: one per CPU)
 *   compile[:N]  a build: bursts of short-lived processes, N at a time
 *                (default: one per CPU), each 20-300 ms of CPU, with pauses
 *   browser[:N]  N threads (default 2) with a periodic bursty pattern: 2-6 ms
 *                every 16.7 ms (video, page rendering) and now and then a
 *                30-120 ms burst (script, garbage collection)
 * Each pattern runs in its own process at --bg-nice; all of them form one
 * process group that is killed and reaped at the end of the run.
 *
 * What the background got done is counted in an anonymous MAP_SHARED
 * mapping made before the fork: every pattern's threads and jobs run their
 * work in chunks of at most FB_BG_CHUNK_NS and add each finished chunk's
 * loop iterations to the pattern's counter. The benchmark samples the
 * counters and the patterns' CPU clocks at the measured window's start and
 * end (fb_bg_sample); fb_bg_window turns two samples into the window's
 * figures (docs/framebench.md, "Background load").
 */
#ifndef FB_BG_H
#define FB_BG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fb.h"
#include "util.h"

/* Work is counted per chunk of this much nominal work: a window's edges
 * cut each thread's count by at most one chunk (2 ms in a 10 s window). */
#define FB_BG_CHUNK_NS (2 * NSEC_PER_MSEC)

/* One pattern's counters, cumulative since it started; written by its
 * threads and jobs, read by the benchmark. */
struct fb_bg_counters {
	_Atomic uint64_t loops;		/* calibrated loop iterations done */
	_Atomic uint64_t job_cpu_ns;	/* compile: CPU time its jobs used */
	_Atomic uint64_t jobs_done;	/* compile: jobs finished (reaped) */
	_Atomic uint64_t bursts;	/* browser: periodic bursts finished */
	_Atomic uint64_t bursts_missed;	/* browser: ... after their period */
} __attribute__((aligned(64)));

struct fb_bg {
	pid_t pgid;
	unsigned n;
	pid_t pid[FB_MAX_BG];
	enum fb_bg_kind kind[FB_MAX_BG];
	struct fb_bg_counters *count;	/* shared, [n]; NULL without --bg */
	size_t count_len;
};

/* One pattern at one moment (cumulative figures). */
struct fb_bg_sample {
	bool cpu_ok;		/* its process's CPU clock could be read */
	uint64_t cpu_ns;	/* its process (all threads) + its jobs */
	uint64_t loops, jobs_done, bursts, bursts_missed;
};

/* One pattern over the measured window. */
struct fb_bg_result {
	char pattern[24];	/* normalised: "hogs:2" */
	unsigned threads;	/* threads, or jobs in parallel (compile) */
	bool measured;		/* both samples taken: the figures below hold */
	bool cpu_ok;
	double cpu_s;		/* CPU time used in the window */
	double work_per_s;	/* calibrated CPU-seconds of work per second */
	bool has_jobs;		/* compile */
	uint64_t jobs_done;
	bool has_bursts;	/* browser */
	uint64_t bursts, missed;
};

/* The patterns' names, in the order of enum fb_bg_kind: the option table
 * offers them for --bg's value (a unit test holds them to bg.c's). */
#define FB_BG_KIND_WORDS "hogs|compile|browser"

/* Parses "hogs", "compile:4", ...; ncpus gives the defaults. 0 or -1. */
int fb_bg_parse(const char *s, unsigned ncpus, struct fb_bg_spec *out);
const char *fb_bg_name(enum fb_bg_kind k);

/* Forks the background processes (call before any thread exists). */
int fb_bg_start(struct fb_bg *bg, const struct fb_config *cfg);
/* Reads every pattern's counters and CPU time now: out[bg->n]. */
void fb_bg_sample(const struct fb_bg *bg, struct fb_bg_sample *out);
/* The window's figures of pattern spec from its samples at the window's
 * start and end, window_s apart, with the work loop's calibrated rate;
 * start or end NULL: not measured (the run stopped before the window). */
void fb_bg_window(const struct fb_bg_spec *spec,
		  const struct fb_bg_sample *start,
		  const struct fb_bg_sample *end, double window_s,
		  double loops_per_us, struct fb_bg_result *out);
/* Kills the group, reaps every process of it, unmaps the counters. */
void fb_bg_stop(struct fb_bg *bg);
/* Async-signal-safe kill of the group (second SIGINT). */
void fb_bg_kill_now(void);

#endif
