/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time dilation: the whole workload K times slower, reported on the
 * original clock. Every amount of work, hold time, period and deadline of
 * a profile is stretched by K and the target FPS divided by K; frame and
 * input-to-present times are divided by K again when measured, so the
 * figures compare with an undilated run. What dilation is for: under an
 * emulator the kernel's own paths (wake-ups, context switches, system
 * calls) cost several times what they cost on the CPU the emulator runs
 * on, while calibrated work does not; stretching the work leaves those
 * costs their real share of a frame (docs/vm.md#emulator-modes).
 * Wake-up latencies and background work per second are not rescaled:
 * they are the kernel's and the background's own, on the real clock.
 */
#ifndef FB_DILATE_H
#define FB_DILATE_H

#include "profile.h"

#define FB_DILATE_MAX 10.0

/* Stretches `p` by k (>= 1). 0, or -1 when the profile's FPS divided by k
 * is not a whole number (the reported frame rate could not be exact):
 * err then says which k would do. */
int fb_dilate_profile(struct fb_profile *p, double k, char *err, size_t errlen);

#endif
