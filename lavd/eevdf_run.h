/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf's entry points for main.c: the run (eevdf.c, libbpf), and
 * what comes before it and around it (eevdf_setup.c, no libbpf): the
 * kernel's offer, the checks that refuse a run before anything changes,
 * the lock, a dead run's record undone, --check --eevdf and --restore.
 */
#ifndef LAVD_EEVDF_RUN_H
#define LAVD_EEVDF_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eevdf_levers.h"

#define LAVD_EEVDF_STATE_DFL "/run/lavd/eevdf.state"

struct lavd_eevdf_cfg {
	uint64_t period_ns;
	double stats_s;			/* 0: no statistics lines */
	const char *levers;		/* --eevdf-levers, NULL: the default */
	int crit_nice, bg_nice;
	uint64_t slice_ns;
	uint32_t uclamp_min;
	bool all_scopes;		/* --eevdf-scope all */
	bool verbose;			/* -v: every class change */
	const char *state_path;
};

/*
 * Everything before the tracepoint programs load: the levers against
 * what the kernel offers, the lock, a killed run's record undone. Returns
 * the lock's descriptor, or minus the exit status (2: the kernel or the
 * privileges cannot serve the levers; 1: another instance, I/O) after a
 * message naming what is missing. Nothing is changed when it refuses.
 */
int lavd_eevdf_prepare(const struct lavd_eevdf_cfg *cfg, struct eevdf_levers *lv,
		       char *err, size_t errlen);
void lavd_eevdf_print_setup(const struct lavd_eevdf_cfg *cfg,
			    const struct eevdf_levers *lv);

/* The run: returns the exit status (0 after SIGINT/SIGTERM). */
int lavd_eevdf_main(const struct lavd_eevdf_cfg *cfg, volatile sig_atomic_t *stop);
/* --check --eevdf: what the kernel offers, and whether a run could start. */
int lavd_eevdf_check(const struct lavd_eevdf_cfg *cfg);
/* --eevdf --restore: undo what a killed run left, then exit. */
int lavd_eevdf_restore(const struct lavd_eevdf_cfg *cfg);

#endif
