/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The deterministic plan: every amount of work in a run (each step of each
 * stage of each frame, each job, each period of the periodic tasks) is a
 * pure function of (profile, seed, frame or period number). The engine
 * computes a stage's plan when the stage starts a frame; --dump-plan
 * prints the same values, so the same seed and profile give the same plan.
 */
#ifndef FB_PLAN_H
#define FB_PLAN_H

#include <stdint.h>
#include <stdio.h>

#include "fbprofile.h"

struct gs_rng;

/* One step of one frame, resolved. */
struct fb_op {
	uint8_t kind;		/* enum fb_step_kind */
	int8_t target;		/* service / mutex (fanout: mutex or -1) */
	uint16_t njobs;		/* fanout */
	uint16_t step;		/* index of the step in the stage */
	uint16_t job0;		/* fanout: first job in job_ns / hold_ns */
	uint32_t ns;		/* work, service work, or lock hold */
};

struct fb_stage_plan {
	unsigned nops;		/* steps that happen in this frame */
	unsigned njobs;
	struct fb_op op[FB_MAX_STEPS];
	uint32_t job_ns[FB_MAX_STAGE_JOBS];
	uint32_t hold_ns[FB_MAX_STAGE_JOBS];
};

/* Random streams, one per stage, periodic task, background pattern. */
enum {
	FB_STREAM_STAGE = 1,	/* + stage index */
	FB_STREAM_PERIODIC = 100, /* + FB_PER_* */
	FB_STREAM_BG = 200,	/* + background spec index */
	FB_STREAM_DISTURB = 300,
};

/* Seeds r for (seed, stream, index): independent of call order. */
void fb_plan_rng(struct gs_rng *r, uint64_t seed, uint64_t stream,
		 uint64_t index);

/* The plan of stage `stage` for frame `frame`. */
void fb_plan_stage(const struct fb_profile *p, uint64_t seed, uint64_t frame,
		   unsigned stage, struct fb_stage_plan *out);

/* Work (and, for net with a lock, hold) of period k of a periodic task. */
void fb_plan_periodic(const struct fb_profile *p, uint64_t seed, int which,
		      uint64_t k, uint32_t *work_ns, uint32_t *hold_ns);

/*
 * The critical chain of one frame: the wake-ups from "the previous frame
 * slot is free" to the present, counting a request/reply call and a
 * fan-out/fan-in as two, a hand-off between stages as one, the vsync timer
 * as one (capped only) and the frame-slot release as one.
 */
struct fb_chain {
	unsigned wakeups;	/* when every step happens */
	unsigned cross_process;	/* of which cross a process boundary */
	double expected;	/* mean, weighting steps by their p= */
};

void fb_plan_chain(const struct fb_profile *p, struct fb_chain *c);

/* Prints the chain link by link (used by --dump-plan and the report). */
void fb_plan_print_chain(FILE *f, const struct fb_profile *p);

/* --dump-plan: the resolved profile, the chain, and the plan of frames
 * 0..nframes-1 and of the first periods of each periodic task. */
void fb_plan_dump(FILE *f, const struct fb_profile *p, uint64_t seed,
		  uint64_t nframes);

#endif
