/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collector: the benchmark's main thread drains the presenter's frame
 * records every few milliseconds, streams them to the --csv file, and keeps
 * only each measured frame's time and input latency (12 bytes a frame, in
 * lazily touched mappings sized from the run length and capped at 2^24
 * frames: over an hour at 4 000 FPS). Memory stays bounded however long
 * the run; frames past the cap are still counted and streamed to the CSV.
 */
#ifndef FB_COLLECT_H
#define FB_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fb.h"
#include "stats.h"

#define FB_FRAMES_CAP_MAX (1u << 24)

struct fb_collect {
	struct fb_shm *sh;
	FILE *csv;
	double *ft;		/* measured frame times, ms */
	float *il;		/* their input-to-present latencies, ms */
	size_t n, cap, map_len, il_len;
	uint64_t frames;	/* measured frames, including any past cap */
	uint64_t warmup_frames, late_frames;
	uint64_t missed_vsyncs, disturbed_frames;
	uint64_t chain_ops, chain_woken;
	size_t n_il;		/* frames with an input sample */
	/* CPU load for the CSV's cpu_load column, from /proc/stat */
	double cpu_load;
	uint64_t cpu_busy, cpu_total, cpu_next_ns;
	/* progress */
	uint64_t prog_frames;
	double prog_worst_ms;
	uint64_t prog_stutter;
	double target_ms;
	double time_scale;	/* 1 / --dilate: measured times back to the original clock */
};

/* cap_frames: expected frames; the mapping is twice that, at most 2^24. */
int fb_collect_init(struct fb_collect *c, struct fb_shm *sh, FILE *csv,
		    uint64_t cap_frames, double target_ms);
void fb_collect_free(struct fb_collect *c);

/* Takes one record (the hot path the self-test times). */
void fb_collect_one(struct fb_collect *c, const struct fb_record *r);
/* Drains every record the presenter has published. */
void fb_collect_drain(struct fb_collect *c);
/* Samples /proc/stat when due (every 500 ms). */
void fb_collect_cpu_load(struct fb_collect *c, uint64_t now);

#endif
