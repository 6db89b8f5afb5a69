/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workload kinds: what command each runs and how its result is read back.
 * The parsers of the tools' outputs: parse.h.
 */
#ifndef GSU_WORKLOAD_H
#define GSU_WORKLOAD_H

#include "gamesuite.h"
#include "json.h"

/* Indexes of the per-frame metrics (framebench and game kinds). */
enum {
	GSU_M_AVG_FPS,
	GSU_M_LOW1_PCT,
	GSU_M_LOW1_AVG,
	GSU_M_LOW1_INT,
	GSU_M_LOW01_PCT,
	GSU_M_LOW01_AVG,
	GSU_M_FT_P50,
	GSU_M_FT_P99,
	GSU_M_FT_P999,
	GSU_M_NFRAME,
	/* framebench only */
	GSU_M_INPUT_P99 = GSU_M_NFRAME,
	GSU_M_BG_WORK,		/* background work per second, all patterns */
	GSU_M_GAME_CPU,		/* the game's CPU seconds (informational) */
	GSU_M_NFB
};

/* A prepared invocation of one run. */
struct gsu_exec {
	char **argv;		/* argv[0] is a path */
	char *env[12];		/* NAME=value, NULL-terminated */
	int nenv;
	char dir[512];		/* per-run artefact directory */
	char log[600];		/* stdout + stderr */
	char json[600], csv[600], yaml[600];
	uint64_t timeout_ns;	/* killed after this: a timeout */
	uint64_t stop_ns;	/* game: stopped here, not a failure; 0 none */
	/* game: the span of the run measured (startup, duration), taken
	 * from MangoHud's log by its elapsed column */
	uint64_t startup_ns, measure_ns;
};

/*
 * Finds the program a workload needs; sets w->available, w->resolved and,
 * when absent, w->skip_reason. Returns w->available.
 */
bool gsu_workload_prepare(struct gsu_workload *w);

/* Builds the invocation for a run writing into dir (created); arm (may
 * be NULL) adds a player's remedy: framebench's own --nice/--rt/
 * --slice-us, or nice(1)/chrt(1) before any other workload. */
int gsu_exec_build(const struct gsu_suite *s, const struct gsu_workload *w,
		   const struct gsu_sched *arm, const char *dir,
		   struct gsu_exec *x, char *err, size_t errlen);
void gsu_exec_free(struct gsu_exec *x);

/*
 * A game's MangoHud log is written: its frame log has not changed for a
 * second. MangoHud 0.6 (Debian 12's) writes the
 * whole log only when log_duration expires or logging stops, nothing when
 * the game exits first, so the game is asked to quit only after this.
 */
bool gsu_game_log_ready(const struct gsu_exec *x);

/*
 * What `gamesuite check` asks of a workload: that the workload accept its
 * invocation as a run would build it, without running it. framebench
 * checks its options and profile (--dump-plan), a game's command its shell
 * syntax (sh -n), stress-ng its options (--dry-run); the other kinds have
 * no such mode (0). Returns 0, or -1 with the workload's own complaint in
 * why.
 */
int gsu_workload_check(const struct gsu_suite *s, const struct gsu_workload *w,
		       char *why, size_t whylen);

/*
 * Runs argv (argv[0] a resolved path) to its end, at most 10 s, output to
 * log. 0 when it exited 0; else -1 with its last line of output (or how
 * it ended) in why.
 */
int gsu_run_check(char **argv, const char *log, char *why, size_t whylen);

/* framebench's plan of the workload as a run would start it (--dump-plan
 * added): 0 with the text in *plan (free it), or -1 with why. */
int gsu_framebench_plan(const struct gsu_suite *s, const struct gsu_workload *w,
			char **plan, char *why, size_t whylen);

/* A run's output file (at most 1 MiB) into *text (free it); 0 or -1. */
int gsu_read_log(const char *path, char **text);

/* Reads the run's result into run->metrics (and curve/frames). Returns 0,
 * or -1 with why (no output, unparseable, sampled MangoHud log, ...). */
int gsu_exec_collect(const struct gsu_workload *w, const struct gsu_exec *x,
		     struct gsu_run *run, char *why, size_t whylen);

/* The duration a workload runs for (its own, else the suite default). */
uint64_t gsu_workload_duration(const struct gsu_suite *s,
			       const struct gsu_workload *w);

#endif
