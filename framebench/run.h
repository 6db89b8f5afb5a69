/* SPDX-License-Identifier: GPL-2.0-only */
/* A benchmark run from start to report, and the --self-test mode. */
#ifndef FB_RUN_H
#define FB_RUN_H

#include "fb.h"

/* Runs the benchmark; returns the exit status. */
int fb_run(const struct fb_config *cfg);

/* --self-test: calibration accuracy and the per-frame cost of the
 * measurement itself against a 16.7 ms frame. Returns the exit status. */
int fb_self_test(const struct fb_config *cfg);

#endif
