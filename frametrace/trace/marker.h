/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atrace marker lines (docs/formats.md, "Trace markers") as written to
 * tracefs trace_marker:
 *   B|tgid|name      slice begin on the writing thread
 *   E|tgid  (or E)   slice end
 *   C|tgid|name|value   counter
 *   S|tgid|name|cookie / F|tgid|name|cookie   async slice begin / end
 * and the frames they describe: a slice (or async slice) whose name starts
 * with "frame" is one frame from begin (frame start) to end (present); a
 * counter named "frametime..." (ms; "_us"/"_ns" suffixes) gives frame
 * times when there are no frame slices.
 */
#ifndef FT_MARKER_H
#define FT_MARKER_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"

struct ft_atrace {
	char kind;		/* 'B', 'E', 'C', 'S', 'F' */
	uint32_t tgid;		/* 0 when absent */
	char name[96];
	double value;		/* C */
	int64_t cookie;		/* S, F */
};

/* 0 and *a filled, or -1 when s is not an atrace line. */
int ft_atrace_parse(const char *s, struct ft_atrace *a);
/* Name of a frame slice: starts with "frame" (any case). */
bool ft_is_frame_name(const char *name);
/* Frame-time counter: returns the factor to ns (1e6 for ms), 0 if not. */
double ft_frametime_counter_scale(const char *name);
/* A frame-time counter's value in ns, 0 when it is no frame time (not
 * such a counter, or under GS_MIN_FRAME_MS, lib/stats.h, or absurd). */
uint64_t ft_frametime_counter_ns(const struct ft_atrace *a);

/* Adds the frames described by t's MARK events; returns the number added
 * or -1 when memory runs out. */
long ft_frames_from_marks(struct ft_trace *t);

/* Names the presenting thread of frames that lack it (feed frames) from
 * the frame-time counter written at their present; returns how many. */
long ft_frames_annotate_tids(struct ft_trace *t);

/* Sorts frames by present time and fills frametime_ns (present-to-present
 * per process) where it is 0. */
void ft_frames_fix(struct ft_trace *t);

#endif
