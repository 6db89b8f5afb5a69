/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace-markers: atrace lines written to tracefs trace_marker, so perf
 * and Perfetto traces show frames:
 *   B|<tgid>|frame <N>          the first stage starts frame N
 *   B|<tgid>|<stage> <N>        a later stage starts its part of frame N
 *   E|<tgid>                    that stage's part ends
 *   C|<tgid>|frametime_us|<us>  at each present
 *   C|<tgid>|missed_vsyncs|<n>  at each present (capped runs)
 * A missing tracefs only warns.
 */
#ifndef FB_MARKERS_H
#define FB_MARKERS_H

#include <stdint.h>

extern int fb_marker_fd;	/* -1 when markers are off */

/* Opens trace_marker where tracefs is (gs_tracefs_dir); 0, or -1 after a
 * warning. */
int fb_markers_open(void);
void fb_markers_close(void);
/* Call in each process after fork: markers carry the writer's tgid. */
void fb_markers_set_pid(void);

void fb_marker_begin(const char *what, uint64_t frame);
void fb_marker_end(void);
void fb_marker_counter(const char *name, int64_t value);

#endif
