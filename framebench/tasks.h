/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The loops of the engine's threads (tasks.c): stages, job workers,
 * services and periodic tasks. The engine (engine.c) lays them out over
 * threads and processes and starts and stops them.
 */
#ifndef FB_TASKS_H
#define FB_TASKS_H

#include "fb.h"

/* Runs task t of engine e until the run stops (sh->stop). */
void fb_task_run(const struct fb_engine *e, const struct fb_task *t);

/* The run's first failure: its message into sh->fail_msg (later ones are
 * dropped), and the run stops. */
void fb_fail_run(struct fb_shm *sh, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
