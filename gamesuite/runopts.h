/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options gamesuite run and gamesuite tune share: one part of both
 * option tables (lib/opttab.h), with one set of ranges, into one struct.
 *
 * The ranges are run's: an hour at most for a pause, a wait for quiet or
 * a scheduler's load and unload, at least 100 ms for the last two. Both
 * commands drive the same runner on the same machine, and a pause of more
 * than an hour between runs is a slip of the unit (e.g. 90m meant 90s),
 * not a plan; a scheduler that needs under 100 ms to load is waited for
 * no longer than it takes.
 */
#ifndef GSU_RUNOPTS_H
#define GSU_RUNOPTS_H

#include <stddef.h>

#include "gamesuite.h"
#include "opttab.h"
#include "suite.h"

struct gsu_run_opts {
	uint64_t duration_ns;	/* 0: the suite's */
	uint64_t cooldown_ns;
	bool cooldown_given;	/* ... else the suite's */
	const char *workdir;	/* NULL: a temporary folder */
	struct gsu_settings set;
};

#define GSU_HOUR_NS (3600 * NSEC_PER_SEC)

/*
 * The shared entries; T is the command's options struct, whose member
 * `run` is a struct gsu_run_opts, and SECTION the --help heading above
 * them (NULL: the one before goes on).
 */
#define GSU_RUN_OPTS(T, SECTION) \
	{ "duration", 0, "D", GS_OPT_DURATION, offsetof(T, run.duration_ns), \
	  100 * NSEC_PER_MSEC, 24 * GSU_HOUR_NS, .section = (SECTION), \
	  .help = "workload duration (suite: duration)" }, \
	{ "cooldown", 0, "D", GS_OPT_DURATION, offsetof(T, run.cooldown_ns), \
	  0, GSU_HOUR_NS, .given = GS_OPT_GIVEN(offsetof(T, run.cooldown_given)), \
	  .help = "pause before each run (suite: cooldown)" }, \
	{ "load-timeout", 0, "D", GS_OPT_DURATION, \
	  offsetof(T, run.set.load_timeout_ns), 100 * NSEC_PER_MSEC, GSU_HOUR_NS, \
	  .help = "wait this long for a scheduler to load (60s)" }, \
	{ "stop-timeout", 0, "D", GS_OPT_DURATION, \
	  offsetof(T, run.set.stop_timeout_ns), 100 * NSEC_PER_MSEC, GSU_HOUR_NS, \
	  .help = "wait this long for it to unload (15s)" }, \
	{ "workdir", 0, "DIR", GS_OPT_STRING, offsetof(T, run.workdir), \
	  .help = "keep every run's files (logs, framebench output,\n" \
		  "MangoHud logs) in DIR; default: a temporary folder\n" \
		  "that is removed at the end" }, \
	{ "sched-ext-root", 0, "DIR", GS_OPT_STRING, offsetof(T, run.set.scx_root), \
	  .help = "read sched_ext state from DIR, not\n" \
		  "/sys/kernel/sched_ext (for tests)" }, \
	{ "max-other-cpu", 0, "PCT", GS_OPT_NUMBER, \
	  offsetof(T, run.set.max_other_cpu), 0, 100, .scale = 0.01, \
	  .section = "disturbance", \
	  .help = "a run is disturbed when other processes used more\n" \
		  "than PCT % of all CPUs during it (10; 100 = off)" }, \
	{ "max-busy", 0, "PCT", GS_OPT_NUMBER, \
	  offsetof(T, run.set.max_busy_before), 0, 100, .scale = 0.01, \
	  .help = "... or the machine was busier than PCT % just before\n" \
		  "it, after waiting up to --settle for quiet (20)" }, \
	{ "settle", 0, "D", GS_OPT_DURATION, offsetof(T, run.set.settle_ns), \
	  0, GSU_HOUR_NS, \
	  .help = "longest wait for a quiet machine before a run (10s)" }, \
	{ "probe-factor", 0, "X", GS_OPT_NUMBER, \
	  offsetof(T, run.set.probe_factor), 0, 100, \
	  .help = "... or a fixed-work probe (always recorded) took X\n" \
		  "times its best; 0 = off (default: in a VM it flagged\n" \
		  "one scheduler's runs far more often than another's)" }

/* The defaults (the runner's settings as gamesuite run has them). */
void gsu_run_opts_init(struct gsu_run_opts *o);
/* What the table cannot say on its own; exits 2 naming the option. */
void gsu_run_opts_check(const struct gsu_run_opts *o);
/* The suite file's duration and cooldown, where the options give them. */
void gsu_run_opts_apply(const struct gsu_run_opts *o, struct gsu_suite *su);

#endif
