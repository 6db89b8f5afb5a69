/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Vsync pacing arithmetic of the present step (pure, unit-tested): vsync k
 * happens at t0 + k * T; a frame ready at `now` is presented at the first
 * vsync at or after now, and never at the same vsync as the previous frame.
 * Vsyncs between the previous frame's and this one's are missed.
 */
#ifndef FB_PACE_H
#define FB_PACE_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t fb_vsync_index(uint64_t t0, uint64_t T, uint64_t now,
				      bool have_last, uint64_t last_k)
{
	uint64_t k = now > t0 ? (now - t0 + T - 1) / T : 0;

	if (have_last && k <= last_k)
		k = last_k + 1;
	return k;
}

static inline uint32_t fb_vsync_missed(bool have_last, uint64_t last_k,
				       uint64_t k)
{
	return have_last && k > last_k + 1 ? (uint32_t)(k - last_k - 1) : 0;
}

#endif
