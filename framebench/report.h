/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run measured, gathered from the collector and the per-thread
 * statistics, and its two outputs: the terminal summary and --json.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bg.h"
#include "collect.h"
#include "disturb.h"
#include "fb.h"
#include "plan.h"
#include "stats.h"
#include "sysinfo.h"
#include "work.h"

struct fb_class_lat {
	char name[FB_NAME_MAX];
	struct gs_hist h;
};

struct fb_lock_res {
	char name[FB_NAME_MAX];
	uint64_t acq, cont, wait_ns, max_ns;
};

struct fb_results {
	struct gs_fps_summary s;
	bool have_frames;
	uint64_t frames, frames_stored, warmup_frames, records_dropped;
	double measured_s;
	bool interrupted;
	uint64_t missed_vsyncs, disturbed_frames;
	/* input to present, ms */
	size_t input_n;
	double input_p50, input_p99, input_p999, input_max, input_mean;
	struct fb_chain chain;
	double chain_ops_mean, chain_woken_mean;
	unsigned nclasses;
	struct fb_class_lat cls[FB_MAX_CLASSES];
	unsigned nlocks;
	struct fb_lock_res lock[FB_MAX_LOCKS];
	struct gs_hist lockwait;
	uint64_t audio_periods, audio_misses, audio_skipped;
	uint64_t net_ticks, input_polls, jobs, requests;
	struct fb_calib calib;
	struct gs_sysinfo sys;
	unsigned nthreads;
	const struct fb_disturb *disturb;	/* NULL without --disturb */
	bool feed_on, markers_on;
	char feed_path[80];
	/* CPU time and background work over the measured window, as the
	 * usage samples cover it (usage_s; 0 when they were not both taken) */
	double usage_s;
	bool game_cpu_ok;
	double game_cpu_s;
	unsigned nbg;
	struct fb_bg_result bg[FB_MAX_BG];
};

/* What the game and the background had used and done at one moment,
 * taken at the measured window's start and at its end. */
struct fb_usage_sample {
	uint64_t at_ns;
	bool game_ok;
	uint64_t game_cpu_ns;
	struct fb_bg_sample bg[FB_MAX_BG];
};

/* Fills r from the collector and the engine's statistics (after stop). */
void fb_results_compute(struct fb_results *r, const struct fb_config *cfg,
			const struct fb_engine *e, const struct fb_collect *c);

/* Fills r's game CPU time and background figures from the samples at the
 * window's start and end (NULL when not taken: a run stopped during the
 * warm-up); uses r->calib for the work unit. */
void fb_results_usage(struct fb_results *r, const struct fb_config *cfg,
		      const struct fb_usage_sample *start,
		      const struct fb_usage_sample *end);

void fb_report_print(FILE *f, const struct fb_config *cfg,
		     const struct fb_results *r);
/* One line, for --quiet. */
void fb_report_line(FILE *f, const struct fb_config *cfg,
		    const struct fb_results *r);
void fb_report_json(FILE *f, const struct fb_config *cfg,
		    const struct fb_results *r);

#endif
