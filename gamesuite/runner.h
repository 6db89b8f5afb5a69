/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runner: for each workload, rounds of runs with the schedulers
 * interleaved (A B C A B C ...; optionally rotated per round), warm-up
 * rounds first and discarded, a cool-down and a wait for a quiet machine
 * before each run, the machine state recorded, disturbed runs repeated,
 * runs under the wrong scheduler discarded, and Ctrl-C handled by stopping
 * the current run and unloading its scheduler.
 */
#ifndef GSU_RUNNER_H
#define GSU_RUNNER_H

#include <stdio.h>

#include "gamesuite.h"

/*
 * Reads the machine's description (r->machine, sched_ext under
 * set.scx_root), checks schedulers and workloads (unknown commands,
 * missing sched_ext, absent external tools) and records why in their
 * notes. Call before gsu_run_suite; also used by --dry-run.
 */
void gsu_prepare(struct gsu_results *r);

/* Runs the plan; progress lines go to progress (NULL: silent). Returns 0,
 * or -1 when the run had to stop early (interrupted, or a scheduler could
 * not be unloaded; r says which). */
int gsu_run_suite(struct gsu_results *r, FILE *progress);

/* Exit status for the finished results (0, or 1 when something failed). */
int gsu_exit_status(const struct gsu_results *r);

#endif
