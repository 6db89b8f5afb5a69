// SPDX-License-Identifier: GPL-2.0-only
#include "work.h"

#include <stdlib.h>

#include "stats.h"
#include "util.h"

static double loops_per_ns = 1.0;

__attribute__((noinline)) uint64_t fb_spin(uint64_t loops)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < loops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

void fb_work_set_rate(double loops_per_us)
{
	if (loops_per_us > 0)
		loops_per_ns = loops_per_us / 1e3;
}

uint64_t fb_work_loops(uint64_t ns)
{
	return (uint64_t)((double)ns * loops_per_ns + 0.5);
}

void fb_work_ns(uint64_t ns)
{
	if (ns)
		fb_spin(fb_work_loops(ns));
}

void fb_calibrate(struct fb_calib *c, unsigned trials, unsigned trial_us)
{
	uint64_t start = gs_now_ns(), loops = 1000, t, dt;
	double *rate;

	if (!trials)
		trials = 1;
	rate = calloc(trials, sizeof(*rate));
	/* size a trial: grow until one run takes about trial_us */
	for (;;) {
		t = gs_now_ns();
		fb_spin(loops);
		dt = gs_now_ns() - t;
		if (dt >= (uint64_t)trial_us * NSEC_PER_USEC / 2 || loops > (1ULL << 40))
			break;
		loops *= 2;
	}
	if (dt)
		loops = (uint64_t)((double)loops * trial_us * 1e3 / (double)dt) + 1;
	c->trial_loops = loops;
	c->trials = trials;
	c->loops_per_us = 0;
	for (unsigned i = 0; i < trials; i++) {
		double r;

		t = gs_now_ns();
		fb_spin(loops);
		dt = gs_now_ns() - t;
		r = dt ? (double)loops * 1e3 / (double)dt : 0;
		if (rate)
			rate[i] = r;
		if (r > c->loops_per_us)
			c->loops_per_us = r;
	}
	if (rate) {
		gs_sort_doubles(rate, trials);
		c->median_loops_per_us = gs_pct_linear(rate, trials, 50);
		free(rate);
	} else {
		c->median_loops_per_us = c->loops_per_us;
	}
	c->took_ns = gs_now_ns() - start;
	fb_work_set_rate(c->loops_per_us);
}
