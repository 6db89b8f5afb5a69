/* SPDX-License-Identifier: GPL-2.0-only
 *
 * Frames from present calls (docs/frametrace.md, "Frames from present
 * calls"): an unmodified game's glXSwapBuffers, eglSwapBuffers or
 * vkQueuePresentKHR, caught by a uprobe (frametrace record/watch
 * --present, or `perf probe` and an import), is a frame boundary of the
 * calling thread. The pure parts: which event names are present calls,
 * frames from PRESENT events, and which mapped library holds which present
 * function. present_attach.c attaches the uprobes.
 */
#ifndef FT_PRESENT_H
#define FT_PRESENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftutil.h"
#include "trace.h"

#define FT_FRAME_PRESENT 0x800	/* ft_frame.flags: from present calls */

/* The present functions recognised without --frame-event. */
extern const char *const ft_present_funcs[];
extern const size_t ft_present_nfuncs;

/* Is ev (an event name without its "group:" prefix) a present call's
 * entry: one of ft_present_funcs or of extra[0..nextra), also with the
 * "_N" suffix perf probe adds to a second probe of the same name? Return
 * probes ("NAME__return") are not. *name gets the function's name. */
bool ft_present_event(const char *ev, const char *const *extra, size_t nextra,
		      const char **name);
/* "NAME__return" of a present function: a return probe, skipped quietly. */
bool ft_present_return_event(const char *ev, const char *const *extra,
			     size_t nextra);

/* Adds one frame per PRESENT event after the calling thread's previous
 * one (start = the previous present, frame time = the interval), flagged
 * FT_FRAME_PRESENT. Returns the number added or -1 (memory). */
long ft_frames_from_presents(struct ft_trace *t);

/* Present calls into frames as they come, thread by thread: the reader
 * above, `watch`'s triggers and `record`'s summary count frames the same
 * way (a thread's first present starts its first frame; N presents of one
 * thread are N - 1 frames). */
struct ft_present_seq {
	struct ft_map idx;	/* tid -> index into last */
	uint64_t *last;		/* each thread's previous present */
	size_t n, cap;
	uint64_t frames;	/* frames made so far */
};

void ft_present_seq_init(struct ft_present_seq *s);
void ft_present_seq_free(struct ft_present_seq *s);
/* tid presented at ts: 1 with *prev its previous present when that makes
 * a frame (a later time), 0 when it does not (its first present, or one
 * at the same instant), -1 when memory runs out. */
int ft_present_seq_add(struct ft_present_seq *s, uint32_t tid, uint64_t ts,
		       uint64_t *prev);

/*
 * `--present auto`: from the file paths a process has mapped, the
 * (library, function) pairs to probe. glXSwapBuffers in libGLX (glvnd;
 * libGL's glXSwapBuffers only jumps there, so probing both would count
 * each frame twice), in libGL only when no libGLX is mapped and the libGL
 * is not glvnd's (glvnd[i]: it needs libGLX.so.0, which the loader may
 * not have mapped yet when the maps are read); eglSwapBuffers
 * in libEGL; vkQueuePresentKHR in libvulkan (the loader: an application
 * that calls the driver's function from vkGetDeviceProcAddr bypasses it).
 * out[i] indexes paths; returns the number of pairs (at most max).
 */
struct ft_present_target {
	size_t path;		/* index into the paths given */
	const char *func;	/* one of ft_present_funcs */
};
size_t ft_present_auto_targets(const char *const *paths, size_t n,
			       const bool *glvnd, struct ft_present_target *out,
			       size_t max);

/* The library names `--present auto` looks for in the dynamic loader's
 * directories before a command has loaded anything, in the order of
 * ft_present_funcs (libGL.so.1 only when libGLX.so.0 is absent). */
extern const char *const ft_present_loader_libs[];
extern const size_t ft_present_nloader_libs;

/* One line of /proc/PID/maps: its file path (NULL when anonymous or not
 * executable), device and inode. false when the line does not parse. */
struct ft_maps_line {
	const char *path;	/* points into the line */
	uint64_t dev, ino;
	bool exec;
};
bool ft_maps_parse_line(char *line, struct ft_maps_line *m);

#endif
