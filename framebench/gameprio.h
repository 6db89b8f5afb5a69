/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a player can do to the game's threads without a new scheduler,
 * applied by framebench to its own game threads so that those remedies
 * can be measured beside a scheduler: SCHED_FIFO (--rt), a nice value as
 * GameMode's renice sets (--nice), and EEVDF's custom slice, the latency
 * request of sched_setattr's sched_runtime since Linux 6.12 (--slice-us).
 */
#ifndef FB_GAMEPRIO_H
#define FB_GAMEPRIO_H

#include <stdbool.h>
#include <stddef.h>

/* EEVDF's bounds on a custom slice (kernel/sched/syscalls.c: 0.1-100 ms) */
#define FB_SLICE_MIN_US 100
#define FB_SLICE_MAX_US 100000

struct fb_gameprio {
	bool rt;		/* SCHED_FIFO at each task's rt_prio */
	bool nice_set;
	int nice;		/* -20..19 */
	unsigned slice_us;	/* 0: the kernel's default slice */
};

/* Applies `gp` to the calling thread (SCHED_FIFO at `rt_prio` when gp->rt).
 * 0, or -1 with the reason in err. */
int fb_gameprio_apply(const struct fb_gameprio *gp, int rt_prio, char *err,
		      size_t errlen);

/* Checks once, in the calling thread and undoing it, that `gp` is
 * permitted and that the kernel keeps a custom slice; 0, or -1 with the
 * reason in err (the option named). */
int fb_gameprio_check(const struct fb_gameprio *gp, char *err, size_t errlen);

#endif
