/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixed CPU work: a dependent integer loop whose speed is calibrated once
 * at start. A task asked for 500 us of work runs a fixed number of loop
 * iterations, so a task that is preempted or shares its CPU takes longer,
 * as a game's task would; nothing ever spins on the wall clock.
 */
#ifndef FB_WORK_H
#define FB_WORK_H

#include <stdbool.h>
#include <stdint.h>

struct fb_calib {
	double loops_per_us;	/* the rate used: fastest trial */
	double median_loops_per_us;
	unsigned trials;
	uint64_t trial_loops;	/* loop iterations per trial */
	uint64_t took_ns;	/* wall time the calibration took */
	bool given;		/* the rate came from --calibration */
};

/* Runs the loop `loops` times; returns a value that depends on every
 * iteration so the compiler cannot drop it. */
uint64_t fb_spin(uint64_t loops);

/* Measures the loop rate: `trials` runs of about trial_us each, taking the
 * fastest (least disturbed) trial. Sets the rate fb_work_ns() uses. */
void fb_calibrate(struct fb_calib *c, unsigned trials, unsigned trial_us);

/* Sets the rate directly (tests, child processes inherit it by fork). */
void fb_work_set_rate(double loops_per_us);

/* Loop iterations of `ns` nanoseconds of nominal work at the calibrated
 * rate (what fb_work_ns runs). */
uint64_t fb_work_loops(uint64_t ns);

/* Runs `ns` nanoseconds of nominal work at the calibrated rate. */
void fb_work_ns(uint64_t ns);

#endif
