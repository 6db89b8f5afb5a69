/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gamesuite tune: searches lavd's game-profile knobs for one workload and
 * writes the best set as a game profile with its evidence (docs/
 * gamesuite.md, "tune"). Each candidate knob set is a profile file; lavd
 * runs with it through the suite's scheduler machinery, interleaved with
 * lavd's defaults, in stages of successive halving; the survivor faces
 * the defaults once more, and the suite's verdict says how it did.
 *
 *   tune.c        command line, stages, the final comparison
 *   tune_write.c  the grid, candidate files, Welch's t, the profile written
 */
#ifndef GSU_TUNE_H
#define GSU_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gamesuite.h"
#include "runopts.h"

#define TUNE_MAX_KNOBS 6
#define TUNE_MAX_VALUES 8
#define TUNE_MAX_CANDS 64
#define TUNE_MAX_MATCH 8
#define TUNE_MAX_STAGES 8

struct gsu_tune_knob {
	char key[48];
	int nval;
	char val[TUNE_MAX_VALUES][24];
};

/* One candidate: a value index per knob, its file, what it measured. */
struct gsu_tune_cand {
	int vi[TUNE_MAX_KNOBS];
	char path[700];
	bool alive;
	int stage_out;		/* the stage it was dropped after (-1: kept) */
	double median[TUNE_MAX_STAGES];	/* NaN: not measured there */
	int n[TUNE_MAX_STAGES];
};

/* What one stage measured, for the evidence. */
struct gsu_tune_stage {
	int ncand, rounds;
	double base_median;
	int base_n;
	bool interrupted;
};

/* The final comparison: lavd's defaults (0) against the best (1). */
struct gsu_tune_final {
	bool done, interrupted;
	int n[2];
	double median[2], lo[2], hi[2];
	double ratio, ratio_lo, ratio_hi, p, welch_t;
	enum gsu_verdict verdict;
	int rounds;
};

struct tune {
	/* what to tune */
	const char *suite_path, *only, *framebench;
	struct gs_opt_list bg;	/* --bg PATTERN... */
	const char *lavd, *ops, *name, *out, *metric_name;
	char match[TUNE_MAX_MATCH][200];
	int nmatch;
	struct gsu_tune_knob knob[TUNE_MAX_KNOBS];
	int nknob;
	int rounds, eta, final_rounds;
	bool quiet;
	char workdir[400];
	struct gsu_run_opts run;	/* the runs' (options as for gamesuite run) */
	/* the search */
	int metric;		/* index among the workload kind's metrics */
	bool higher_better;
	struct gsu_tune_cand cand[TUNE_MAX_CANDS];
	int ncand;
	struct gsu_tune_stage stage[TUNE_MAX_STAGES];
	int nstage;
	int best;
	struct gsu_tune_final final;
	char workload_desc[700];
	double started, ended;
};

/* gamesuite tune ARGS...: the command's whole run; returns the exit status. */
int gsu_tune_main(int argc, char **argv);

/* ---- tune_write.c ---- */

/* "KEY=V1,V2,..." into k. 0, or -1 with the reason in err. */
int gsu_tune_parse_knob(const char *arg, struct gsu_tune_knob *k, char *err, size_t errlen);
/* The grid: every combination of the knobs' values. 0, or -1 (too many). */
int gsu_tune_make_grid(struct tune *t, char *err, size_t errlen);
/* Candidate c's profile file (name tune-c, or name when not NULL; the
 * match lines, its knobs). */
int gsu_tune_write_cand(const struct tune *t, int c, const char *name,
			const char *path);
/* The result: the profile with the evidence in its comment block; 0, or
 * 1 kept in another file, -1 lost (lib/outfile.h, warned). */
int gsu_tune_write_profile(const struct tune *t, const char *path);
/* The comm of the game's process in a framebench --dump-plan text, or
 * prog's name when the plan gives none. 0, or -1 (no process line). */
int gsu_tune_plan_game_comm(const char *plan, const char *prog, char *out, size_t len);
/* "lat-cri-boost 128, slice-scale 50" for candidate c. */
void gsu_tune_cand_desc(const struct tune *t, int c, char *buf, size_t len);

#endif
