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
 */
#ifndef FB_BG_H
#define FB_BG_H

#include <sys/types.h>

#include "fb.h"

struct fb_bg {
	pid_t pgid;
	unsigned n;
	pid_t pid[FB_MAX_BG];
};

/* Parses "hogs", "compile:4", ...; ncpus gives the defaults. 0 or -1. */
int fb_bg_parse(const char *s, unsigned ncpus, struct fb_bg_spec *out);
const char *fb_bg_name(enum fb_bg_kind k);

/* Forks the background processes (call before any thread exists). */
int fb_bg_start(struct fb_bg *bg, const struct fb_config *cfg);
/* Kills the group and reaps every process of it. */
void fb_bg_stop(struct fb_bg *bg);
/* Async-signal-safe kill of the group (second SIGINT). */
void fb_bg_kill_now(void);

#endif
