/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gamesuite's data model: a suite (workloads from a suite file), the
 * schedulers under comparison, and the record of every run. The runner
 * fills it, the statistics read it, and the three outputs (terminal table,
 * JSON, HTML) render it. Each concern lives in its own file:
 *
 *   suite.c    suite file parser (file:line errors)
 *   proc.c     child processes: spawn in a process group, poll, stop
 *   sched.c    scheduler commands and /sys/kernel/sched_ext verification
 *   machine.c  machine state per run (load, CPU busy, probe)
 *   workload.c building each kind's command and collecting its results
 *   parse.c    the parsers of the workloads' outputs
 *   runner.c   interleaved repetitions, warm-up, cool-down, Ctrl-C
 *   verdict.c  medians, bootstrap intervals, Mann-Whitney, verdicts
 *   out_text.c / out_json.c / out_html.c   the three outputs
 */
#ifndef GSU_GAMESUITE_H
#define GSU_GAMESUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sysinfo.h"
#include "version.h"

#define GSU_VERSION GS_VERSION	/* lib/version.h */
#define GSU_MAX_METRICS 12
#define GSU_MAX_BG 8
#define GSU_NAME_MAX 64
/* frame-time quantile curve kept per run for the CDF plots */
#define GSU_CURVE_N 121

/* ---- workloads ------------------------------------------------------ */

enum gsu_kind {
	GSU_FRAMEBENCH,
	GSU_GAME,		/* a real game with MangoHud logging */
	GSU_SCHBENCH,
	GSU_PERF_MESSAGING,	/* perf bench sched messaging */
	GSU_STRESS_NG,
	GSU_NKINDS
};

struct gsu_metric_def {
	const char *name;
	const char *unit;
	bool higher_better;
	const char *desc;
	/* shown with its statistics but given no verdict: neither direction
	 * is better (framebench's game CPU time) */
	bool informational;
};

/* Metric definitions of a kind; returns how many (<= GSU_MAX_METRICS). */
size_t gsu_kind_metrics(enum gsu_kind k, const struct gsu_metric_def **defs);
/* Which way is better: "higher", "lower", or "none" (informational). */
const char *gsu_metric_better(const struct gsu_metric_def *d);
const char *gsu_kind_name(enum gsu_kind k);
/* -1 when unknown */
int gsu_kind_parse(const char *s);
/* Kinds that produce per-frame data (CDF plots, lows). */
bool gsu_kind_has_frames(enum gsu_kind k);

struct gsu_workload {
	char name[GSU_NAME_MAX];
	enum gsu_kind kind;
	int line;			/* line of "workload NAME" */
	uint64_t duration_ns;		/* 0: suite default */
	uint64_t warmup_ns;		/* framebench --warmup; 0: its default */
	uint64_t startup_ns;		/* game: time before logging starts */
	uint64_t timeout_ns;		/* 0: derived from the duration */
	char profile[256];		/* framebench */
	char *bg[GSU_MAX_BG];		/* framebench --bg, each strdup'ed */
	int nbg;
	int fps;			/* framebench --fps; -1: profile's */
	bool has_seed;
	uint64_t seed;
	char **args;			/* extra words for the command */
	int nargs;
	char *command;			/* game: a shell command line */
	char binary[512];		/* override of the program to run */
	char mangohud_conf[512];	/* game: resolved path */
	/* filled when the suite is prepared */
	bool available;
	char resolved[512];		/* program that will run */
	char skip_reason[256];
};

struct gsu_suite {
	char path[512];
	char dir[512];			/* directory of the suite file */
	char name[GSU_NAME_MAX];
	int repeat;			/* measured runs per scheduler */
	int warmup;			/* discarded runs per scheduler */
	uint64_t cooldown_ns;
	uint64_t duration_ns;		/* default workload duration */
	double confidence;
	uint64_t seed;
	struct gsu_workload *w;
	int nw;
};

/* ---- schedulers ----------------------------------------------------- */

enum gsu_sched_status {
	GSU_SCHED_OK,
	GSU_SCHED_UNKNOWN,	/* the command's program does not exist */
	GSU_SCHED_UNAVAILABLE,	/* no sched_ext in this kernel */
	GSU_SCHED_FAILED,	/* failed to load too often: given up */
};

/*
 * What an arm is. A sched_ext loader takes over the scheduling; the
 * others leave the kernel's own scheduler in charge: the default as it
 * is, a player's remedy applied to the workload (nice:N, fifo,
 * slice:US), or a steering program that runs beside it and changes
 * threads' attributes (lavd --eevdf: a command with --eevdf).
 */
enum gsu_arm {
	GSU_ARM_LOADER,
	GSU_ARM_DEFAULT,
	GSU_ARM_REMEDY,
	GSU_ARM_STEER,
};

enum gsu_remedy { GSU_REM_NICE, GSU_REM_FIFO, GSU_REM_SLICE };

struct gsu_sched {
	char label[GSU_NAME_MAX];	/* name in every output */
	char *command;			/* as given; "" for the default */
	char **argv;			/* split command (NULL for default) */
	int argc;
	bool is_default;		/* eevdf / default: no loader */
	enum gsu_arm arm;
	enum gsu_remedy remedy;		/* GSU_ARM_REMEDY: which */
	int remedy_value;		/* the nice value, the slice in us */
	char expected_ops[GSU_NAME_MAX]; /* root/ops must match this */
	bool ops_given;			/* --ops NAME (else derived) */
	char resolved[512];		/* program path */
	enum gsu_sched_status status;
	char note[512];
	int load_failures;		/* consecutive */
};

/* The kernel's own scheduler stays in charge: no sched_ext involved. */
static inline bool gsu_arm_native(const struct gsu_sched *s)
{
	return s->arm != GSU_ARM_LOADER;
}

/* Parses a --sched value: "eevdf"/"default"/"cfs", a remedy (nice:N,
 * fifo, slice:US) or a command line.
 * Returns 0, or -1 with a message in err (empty or unbalanced quotes). */
int gsu_sched_init(struct gsu_sched *s, const char *cmd, char *err,
		   size_t errlen);
void gsu_sched_free(struct gsu_sched *s);
const char *gsu_sched_status_name(enum gsu_sched_status st);

/* ---- runs ----------------------------------------------------------- */

enum gsu_run_status {
	GSU_RUN_OK,
	GSU_RUN_WRONG_SCHED,	/* intended scheduler not active before */
	GSU_RUN_LOAD_FAILED,	/* the loader exited or timed out */
	GSU_RUN_EJECTED,	/* scheduler gone or replaced during the run */
	GSU_RUN_CRASHED,	/* workload died, failed or gave no result */
	GSU_RUN_TIMEOUT,	/* workload ran past its timeout */
	GSU_RUN_DISTURBED,	/* other load on the machine: discarded */
	GSU_RUN_INTERRUPTED,	/* Ctrl-C */
	GSU_RUN_SKIPPED,	/* scheduler unknown/unavailable/failed */
	GSU_RUN_NSTATUS
};
const char *gsu_run_status_name(enum gsu_run_status st);

struct gsu_run {
	int index;		/* 1-based, in execution order */
	int workload, sched;	/* indexes */
	int round;		/* 0-based; < warmup means warm-up */
	int attempt;		/* 1 + repeats of this slot */
	bool warmup;
	enum gsu_run_status status;
	bool disturbed;		/* flagged (kept with --disturbed keep) */
	char reason[512];
	char log_tail[512];	/* last lines of the loader/workload log */
	/* machine state */
	double start_epoch;	/* wall clock at the start (s) */
	double loadavg1;	/* /proc/loadavg before the run */
	double busy_before;	/* CPU busy fraction, short sample before */
	double other_cpu;	/* CPU used by other processes during the run,
				 * fraction of all CPUs (incl. steal) */
	double probe_ms_before, probe_ms_after;
	char governor[32];
	struct gs_scx scx_before, scx_after;
	double load_s;		/* scheduler load time */
	double wall_s;		/* workload wall time */
	double workload_cpu_s;	/* user + sys of the workload */
	int exit_status;	/* workload: exit code, or -signal */
	/* results */
	double metrics[GSU_MAX_METRICS]; /* NaN when absent */
	size_t frames;
	double *curve;		/* GSU_CURVE_N frame times (ms) or NULL */
};

/* Probability of each curve point: dense towards the tail. */
double gsu_curve_p(int i);

struct gsu_settings {
	double confidence;
	unsigned bootstrap_iters;
	double max_other_cpu;	/* fraction of all CPUs; >= 1 disables */
	double max_busy_before;
	double probe_factor;	/* 0 disables */
	int retries;		/* repeats of a disturbed run */
	int keep_disturbed;	/* --disturbed: 0 repeat, 1 keep */
	int rotate;		/* --order: 0 interleaved, 1 rotate the
				 * scheduler order per round */
	uint64_t load_timeout_ns;
	uint64_t stop_timeout_ns;
	uint64_t settle_ns;	/* max wait for a quiet machine before a run */
	const char *scx_root;	/* /sys/kernel/sched_ext */
};

struct gsu_results {
	struct gsu_suite *suite;
	struct gsu_sched *sched;
	int nsched;
	struct gsu_settings set;
	struct gs_sysinfo machine;	/* sched_ext read under set.scx_root */
	struct gsu_run *runs;
	int nruns, caprun;
	int planned;		/* run slots planned (incl. warm-up) */
	int skipped;		/* slots of schedulers given up on */
	bool interrupted;
	bool machine_restored;	/* false: a scheduler could not be unloaded */
	double started_epoch, ended_epoch;
	char workdir[512];
};

/* Appends a zeroed run (metrics NaN); NULL when memory runs out. */
struct gsu_run *gsu_results_add_run(struct gsu_results *r);
void gsu_results_free_runs(struct gsu_results *r);

/* ---- statistics / verdict (verdict.c) ------------------------------- */

enum gsu_verdict {
	GSU_SAME, GSU_BETTER, GSU_WORSE, GSU_NO_DATA,
	GSU_INFORMATIONAL	/* a metric without a direction: not judged */
};
const char *gsu_verdict_name(enum gsu_verdict v);

struct gsu_cell {
	size_t n;
	double *values;		/* measured values (owned) */
	double median, lo, hi;	/* NaN when n == 0 */
	/* against the baseline (ratio = median / baseline median) */
	double ratio, ratio_lo, ratio_hi, p_value;
	enum gsu_verdict verdict;
	bool resolvable;	/* n large enough for p < 1 - confidence */
};

struct gsu_table {
	int nw, nm, ns;
	struct gsu_cell *cells;	/* [w][m][s] with nm = GSU_MAX_METRICS */
};

/*
 * The verdict of one comparison (exposed for tests): significant when the
 * p-value is below 1 - conf and the ratio interval excludes 1; then
 * better/worse by the metric's direction.
 */
enum gsu_verdict gsu_decide(double ratio_lo, double ratio_hi, double p,
			    double conf, bool higher_better);

/* Fills *t from the kept runs of r. Returns 0 or -1 (memory). */
int gsu_table_build(const struct gsu_results *r, struct gsu_table *t);
struct gsu_cell *gsu_table_cell(const struct gsu_table *t, int w, int m,
				int s);
void gsu_table_free(struct gsu_table *t);

/* Attempts and discarded runs (disturbed) of scheduler s, warm-ups
 * excluded. */
void gsu_sched_discards(const struct gsu_results *r, int s, int *attempts,
			int *disturbed);
/* A warning when disturbed runs were discarded much more often for one
 * scheduler than another (the filter then biases the comparison); "" when
 * not. */
void gsu_discard_bias(const struct gsu_results *r, char *buf, size_t len);

/* Counters for the summary line and JSON. */
struct gsu_counts {
	int runs, measured, warmup_done, kept;
	int by_status[GSU_RUN_NSTATUS];
	int disturbed_flagged, repeated;
};
void gsu_count(const struct gsu_results *r, struct gsu_counts *c);
/* A run whose metrics enter the statistics. */
bool gsu_run_kept(const struct gsu_run *run);
/* Fewest frames in a kept run of workload w (0 when none had frames):
 * below 1000 the 0.1 % lows rest on less than one frame (docs/formats.md). */
size_t gsu_min_frames(const struct gsu_results *r, int w);

/* ---- outputs -------------------------------------------------------- */

void gsu_out_text(FILE *f, const struct gsu_results *r,
		  const struct gsu_table *t);
/* 0 written, else -1 or 1 (kept in another file: lib/outfile.h), warned */
int gsu_out_json(const char *path, const struct gsu_results *r,
		 const struct gsu_table *t);
int gsu_out_html(const char *path, const struct gsu_results *r,
		 const struct gsu_table *t);

#endif
