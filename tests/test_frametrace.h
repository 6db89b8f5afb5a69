/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What frametrace's unit tests share (test_frametrace_helpers.c): events
 * written tersely, and a trace of 20 frames with one slow frame.
 */
#ifndef FT_TEST_FRAMETRACE_H
#define FT_TEST_FRAMETRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "export/report.h"
#include "trace/trace.h"

#define MS 1000000ULL
#define US 1000ULL
#define T0 (1000ULL * 1000000000ULL)

/* A uniform draw in [0, 1) from the tests' own generator: the same
 * sequence on every run of a test program. */
double rnd(void);
struct ft_ev ev(uint64_t ts, uint8_t type, uint16_t cpu, uint32_t tid,
		uint32_t arg, uint32_t arg2, uint64_t val, uint8_t flags);
/* Appends e; fails the test when memory runs out. */
void add(struct ft_trace *t, struct ft_ev e);
/* prev -> next on cpu; state 1 = S, 0 = R (preempted) */
void sw(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t prev,
	uint32_t next, uint32_t state);
void wake(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t wakee,
	  uint32_t waker);
/* The text report of r (free() it). */
char *report_text(const struct ft_report *r);

/*
 * 20 frames: the game thread (50) wakes the render thread (51), which
 * wakes the present thread (52). In the slow frame (the 11th) the holder
 * (a hog, 60, or the idle task, 0) holds CPU 0 for 15 ms while the render
 * thread waits to run. futex: the present thread waits on a futex between
 * frames. late: the chain starts 15 ms late instead (its timer wake-up),
 * every link on time.
 */
void build_frames_with(struct ft_trace *t, uint32_t holder, bool futex,
		       bool late);
/* build_frames_with(t, 60, false, false) */
void build_frames(struct ft_trace *t);

#endif
