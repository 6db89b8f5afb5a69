/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --disturb PERIOD[:LEN[:THREADS]]: once in every PERIOD of the measured
 * time, at a seeded random moment, THREADS CPU hogs (default: one per CPU)
 * run for LEN (default 200 ms) at SCHED_FIFO priority 50 when allowed (root),
 * else at nice 0. Each burst is printed to stderr when it ends:
 *   framebench: disturbance N: start_ns=S end_ns=E threads=T policy=P
 * (CLOCK_MONOTONIC), recorded under "disturbances" in --json, and frames
 * presented during it carry its number in the frame feed.
 */
#ifndef FB_DISTURB_H
#define FB_DISTURB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "fb.h"

struct fb_disturb_rec {
	uint64_t start_ns, end_ns;
};

struct fb_disturb {
	struct fb_engine *e;
	uint64_t period_ns, len_ns, seed;
	unsigned threads;
	bool fifo;		/* the hogs got SCHED_FIFO */
	bool quiet;
	pthread_t ctl;
	pthread_t hog[64];
	unsigned nhogs;
	bool ctl_started;
	_Atomic uint32_t go;		/* futex: bursts started */
	_Atomic uint32_t finished;	/* futex: hogs done with the burst */
	_Atomic uint64_t burst_end;
	unsigned n;
	struct fb_disturb_rec rec[FB_MAX_DISTURB];
};

/* Parses PERIOD[:LEN[:THREADS]]; 0, or -1 with what was wrong in err. */
int fb_disturb_parse(const char *s, unsigned ncpus, uint64_t *period_ns,
		     uint64_t *len_ns, unsigned *threads, char *err,
		     size_t errlen);

/* Starts the controller and its hogs (after fb_engine_start). */
int fb_disturb_start(struct fb_disturb *d, struct fb_engine *e,
		     const struct fb_config *cfg);
/* Joins them (after the engine's stop flag is set). */
void fb_disturb_stop(struct fb_disturb *d);

#endif
