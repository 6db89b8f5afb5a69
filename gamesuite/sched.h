/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scheduler control: start a scheduler's loader command in the background,
 * verify through /sys/kernel/sched_ext that the intended scheduler is the
 * one in charge before a run and that it stayed in charge during the run,
 * and stop it so the machine is back on the kernel's default scheduler.
 */
#ifndef GSU_SCHED_H
#define GSU_SCHED_H

#include "gamesuite.h"
#include "proc.h"

/*
 * root/ops names the scheduler: exact match, or the expected name followed
 * by '_' (sched_ext schedulers often append a version: "lavd_1.0.6_g...").
 */
bool gsu_ops_match(const char *expected, const char *ops);

/* A scheduler loaded for one run. */
struct gsu_loaded {
	struct gsu_proc proc;		/* the loader (unused for default) */
	struct gs_scx active;	/* snapshot once it was active */
	double load_s;
};

enum gsu_start {
	GSU_START_OK,
	GSU_START_FAILED,	/* loader exited or timed out (why) */
	GSU_START_WRONG,	/* something else is in charge (why) */
	GSU_START_INTERRUPTED,
};

/*
 * Makes s the scheduler in charge: for the default, checks that no
 * sched_ext scheduler is enabled; otherwise starts the loader (output to
 * log_path) and waits up to timeout_ns for state "enabled" with matching
 * ops. On anything but OK nothing is left running.
 */
enum gsu_start gsu_sched_start(const struct gsu_sched *s, const char *root,
			       uint64_t timeout_ns, uint64_t stop_timeout_ns,
			       const char *log_path, struct gsu_loaded *out,
			       char *why, size_t whylen);

/*
 * Is s still in charge as it was at start? Returns true, or false with the
 * reason (loader exited, state changed, ops changed, enable_seq moved).
 */
bool gsu_sched_check(const struct gsu_sched *s, const char *root,
		     struct gsu_loaded *l, char *why, size_t whylen);

/*
 * Stops the loader (SIGINT, then SIGKILL after timeout_ns) and waits up to
 * timeout_ns for the state to leave "enabled". Returns 0 when the machine
 * is on the default scheduler again, -1 otherwise (why).
 */
int gsu_sched_stop(const struct gsu_sched *s, const char *root,
		   struct gsu_loaded *l, uint64_t timeout_ns, char *why,
		   size_t whylen);

#endif
