// SPDX-License-Identifier: GPL-2.0-only
#include "workload.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mangohud.h"
#include "parse.h"
#include "proc.h"
#include "stats.h"
#include "suite.h"
#include "util.h"

/* ---- kinds and their metrics ------------------------------------------- */

#define FRAME_METRICS \
	{ "avg_fps", "fps", true, "average FPS: frames / total time" }, \
	{ "low1_percentile_fps", "fps", true, \
	  "1 % low, percentile definition: 1000 / P99 frame time" }, \
	{ "low1_average_fps", "fps", true, \
	  "1 % low, average definition: 1000 / mean of the slowest 1 %" }, \
	{ "low1_integral_fps", "fps", true, \
	  "1 % low, integral definition (RTSS): time-weighted" }, \
	{ "low01_percentile_fps", "fps", true, \
	  "0.1 % low, percentile definition: 1000 / P99.9 frame time" }, \
	{ "low01_average_fps", "fps", true, \
	  "0.1 % low, average definition: 1000 / mean of the slowest 0.1 %" }, \
	{ "frametime_p50_ms", "ms", false, "median frame time" }, \
	{ "frametime_p99_ms", "ms", false, "99th percentile frame time" }, \
	{ "frametime_p999_ms", "ms", false, "99.9th percentile frame time" }, \

static const struct gsu_metric_def frame_metrics[GSU_M_NFRAME] = {
	FRAME_METRICS
};

/* framebench: the frame metrics, then its own figures */
static const struct gsu_metric_def framebench_metrics[GSU_M_NFB] = {
	FRAME_METRICS
	{ "input_latency_p99_ms", "ms", false,
	  "framebench input-to-frame latency, p99" },
	{ "bg_work_per_s", "work/s", true,
	  "background work done per second, summed over the --bg patterns "
	  "(CPU-seconds of the calibrated work loop per second)" },
	/* more CPU can mean more frames (uncapped) or more overhead: no
	 * direction is better, so it gets no verdict */
	{ "game_cpu_s", "s", false,
	  "CPU time of the game's threads and helper processes in the "
	  "measured window (informational: no verdict)", true },
};

static const struct gsu_metric_def schbench_metrics[] = {
	{ "wakeup_p99_us", "us", false, "schbench wake-up latency, p99" },
	{ "request_p99_us", "us", false, "schbench request latency, p99" },
	{ "rps", "req/s", true, "schbench requests per second" },
};

static const struct gsu_metric_def perf_metrics[] = {
	{ "total_time_s", "s", false,
	  "perf bench sched messaging: total time" },
};

static const struct gsu_metric_def stressng_metrics[] = {
	{ "bogo_ops_per_s", "ops/s", true,
	  "stress-ng bogo operations per second (real time), all stressors" },
};

static const char *const kind_names[GSU_NKINDS] = {
	[GSU_FRAMEBENCH] = "framebench",
	[GSU_GAME] = "game",
	[GSU_SCHBENCH] = "schbench",
	[GSU_PERF_MESSAGING] = "perf-messaging",
	[GSU_STRESS_NG] = "stress-ng",
};

size_t gsu_kind_metrics(enum gsu_kind k, const struct gsu_metric_def **defs)
{
	switch (k) {
	case GSU_FRAMEBENCH:
		*defs = framebench_metrics;
		return ARRAY_SIZE(framebench_metrics);
	case GSU_GAME:
		*defs = frame_metrics;
		return ARRAY_SIZE(frame_metrics);
	case GSU_SCHBENCH:
		*defs = schbench_metrics;
		return ARRAY_SIZE(schbench_metrics);
	case GSU_PERF_MESSAGING:
		*defs = perf_metrics;
		return ARRAY_SIZE(perf_metrics);
	case GSU_STRESS_NG:
		*defs = stressng_metrics;
		return ARRAY_SIZE(stressng_metrics);
	default:
		*defs = NULL;
		return 0;
	}
}

const char *gsu_metric_better(const struct gsu_metric_def *d)
{
	return d->informational ? "none" : d->higher_better ? "higher" : "lower";
}

const char *gsu_kind_name(enum gsu_kind k)
{
	return k < GSU_NKINDS ? kind_names[k] : "?";
}

int gsu_kind_parse(const char *s)
{
	for (int i = 0; i < GSU_NKINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

bool gsu_kind_has_frames(enum gsu_kind k)
{
	return k == GSU_FRAMEBENCH || k == GSU_GAME;
}

uint64_t gsu_workload_duration(const struct gsu_suite *s,
			       const struct gsu_workload *w)
{
	return w->duration_ns ? w->duration_ns : s->duration_ns;
}

/* ---- preparing -------------------------------------------------------- */

static const char *default_program(enum gsu_kind k)
{
	switch (k) {
	case GSU_FRAMEBENCH: return "framebench";
	case GSU_SCHBENCH: return "schbench";
	case GSU_PERF_MESSAGING: return "perf";
	case GSU_STRESS_NG: return "stress-ng";
	case GSU_GAME: return "sh";
	default: return "?";
	}
}

bool gsu_workload_prepare(struct gsu_workload *w)
{
	const char *prog = w->binary[0] ? w->binary : default_program(w->kind);

	w->skip_reason[0] = '\0';
	if (w->kind == GSU_GAME)
		prog = "/bin/sh";
	w->available = !gsu_resolve(prog, w->resolved, sizeof(w->resolved));
	if (!w->available)
		snprintf(w->skip_reason, sizeof(w->skip_reason),
			 "%s not installed (no '%.160s' in PATH%s)",
			 gsu_kind_name(w->kind), prog,
			 w->kind == GSU_FRAMEBENCH ? " or next to gamesuite"
						   : "");
	return w->available;
}

/* ---- building a run --------------------------------------------------- */

struct argv_b {
	char **v;
	int n, cap;
	int oom;
};

static void add(struct argv_b *b, const char *s)
{
	if (b->n + 2 > b->cap) {
		int nc = b->cap ? b->cap * 2 : 16;
		char **nv = realloc(b->v, (size_t)nc * sizeof(*nv));

		if (!nv) {
			b->oom = 1;
			return;
		}
		b->v = nv;
		b->cap = nc;
	}
	if (!(b->v[b->n] = strdup(s))) {
		b->oom = 1;
		return;
	}
	b->v[++b->n] = NULL;
}

static void addf(struct argv_b *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void addf(struct argv_b *b, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add(b, buf);
}

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dupf(const char *fmt, ...)
{
	char buf[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strdup(buf);
}

/*
 * A game's MangoHud settings and times; returns the new count of env.
 * MANGOHUD_CONFIG replaces the config file unless it holds read_cfg; then
 * its options override the file's. The log covers the whole run and the
 * startup is cut from it (gsu_exec_collect): MangoHud 0.6 starts logging
 * at the first frame whatever autostart_log says (0.7 waits that long,
 * 1 s here), and writes its log only when log_duration expires, so that
 * must come before the game is stopped.
 */
static int game_env(const struct gsu_workload *w, const char *dir,
		    uint64_t dur, unsigned secs, struct gsu_exec *x, int ne)
{
	uint64_t startup = w->startup_ns ? w->startup_ns : 5 * NSEC_PER_SEC;

	x->env[ne++] = strdup("MANGOHUD=1");
	x->env[ne++] = dupf("MANGOHUD_CONFIGFILE=%s", w->mangohud_conf);
	x->env[ne++] = dupf("MANGOHUD_CONFIG=read_cfg,output_folder=%s,"
			    "autostart_log=1,log_duration=%u", dir,
			    (unsigned)((startup + NSEC_PER_SEC - 1) / NSEC_PER_SEC) +
				    secs + 1);
	x->env[ne++] = dupf("GAMESUITE_LOG_DIR=%s", dir);
	x->env[ne++] = dupf("GAMESUITE_DURATION_S=%u", secs);
	x->startup_ns = startup;
	x->measure_ns = (uint64_t)secs * NSEC_PER_SEC;
	x->stop_ns = startup + dur + 5 * NSEC_PER_SEC;
	x->timeout_ns = x->stop_ns + 30 * NSEC_PER_SEC;
	return ne;
}

/*
 * A remedy arm before a workload that is not framebench: nice(1) or
 * chrt(1) in front of its command. 0, or -1 with why (no such program,
 * or a slice request, which only framebench can make for its threads).
 */
static int remedy_prefix(const struct gsu_sched *arm, struct argv_b *b,
			 char *err, size_t errlen)
{
	char path[512];
	bool fifo = arm->remedy == GSU_REM_FIFO;

	if (arm->remedy == GSU_REM_SLICE) {
		snprintf(err, errlen, "arm %s: a slice request applies to "
			 "framebench workloads only", arm->label);
		return -1;
	}
	if (gsu_resolve(fifo ? "chrt" : "nice", path, sizeof(path))) {
		snprintf(err, errlen, "arm %s: no program '%s'", arm->label,
			 fifo ? "chrt" : "nice");
		return -1;
	}
	add(b, path);
	add(b, fifo ? "-f" : "-n");
	if (fifo)
		add(b, "1");
	else
		addf(b, "%d", arm->remedy_value);
	return 0;
}

/* framebench applies a remedy to its own game threads */
static void remedy_framebench(const struct gsu_sched *arm, struct argv_b *b)
{
	switch (arm->remedy) {
	case GSU_REM_NICE:
		add(b, "--nice");
		addf(b, "%d", arm->remedy_value);
		break;
	case GSU_REM_FIFO:
		add(b, "--rt");
		break;
	case GSU_REM_SLICE:
		add(b, "--slice-us");
		addf(b, "%d", arm->remedy_value);
		break;
	}
}

/* framebench's command line: the workload's profile, duration, seed,
 * FPS cap and background, its results into dir. */
static void framebench_args(const struct gsu_suite *s,
			    const struct gsu_workload *w, const char *dir,
			    uint64_t dur, struct gsu_exec *x, struct argv_b *b)
{
	snprintf(x->json, sizeof(x->json), "%s/framebench.json", dir);
	snprintf(x->csv, sizeof(x->csv), "%s/frames.csv", dir);
	if (w->profile[0]) {
		add(b, "--profile");
		add(b, w->profile);
	}
	add(b, "--duration");
	addf(b, "%llums", (unsigned long long)(dur / NSEC_PER_MSEC));
	add(b, "--seed");
	addf(b, "%llu", (unsigned long long)(w->has_seed ? w->seed
							  : s->seed));
	if (w->fps >= 0) {
		add(b, "--fps");
		addf(b, "%d", w->fps);
	}
	for (int i = 0; i < w->nbg; i++) {
		add(b, "--bg");
		add(b, w->bg[i]);
	}
	add(b, "--json");
	add(b, x->json);
	add(b, "--csv");
	add(b, x->csv);
	add(b, "--no-feed");
	add(b, "--quiet");
	/* calibration and warm-up come on top of the duration */
	x->timeout_ns = 2 * dur + 60 * NSEC_PER_SEC;
}

int gsu_exec_build(const struct gsu_suite *s, const struct gsu_workload *w,
		   const struct gsu_sched *arm, const char *dir,
		   struct gsu_exec *x, char *err, size_t errlen)
{
	uint64_t dur = gsu_workload_duration(s, w);
	unsigned secs = (unsigned)((dur + NSEC_PER_SEC / 2) / NSEC_PER_SEC);
	struct argv_b b = { 0 };
	int ne = 0;

	memset(x, 0, sizeof(*x));
	if (secs < 1)
		secs = 1;
	gs_strlcpy(x->dir, dir, sizeof(x->dir));
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	snprintf(x->log, sizeof(x->log), "%s/output.log", dir);
	if (arm && arm->arm != GSU_ARM_REMEDY)
		arm = NULL;
	if (arm && w->kind != GSU_FRAMEBENCH &&
	    remedy_prefix(arm, &b, err, errlen)) {
		gsu_free_words(b.v);
		return -1;
	}
	add(&b, w->resolved);
	switch (w->kind) {
	case GSU_FRAMEBENCH:
		framebench_args(s, w, dir, dur, x, &b);
		break;
	case GSU_SCHBENCH:
		add(&b, "-r");
		addf(&b, "%u", secs);
		x->timeout_ns = dur + 60 * NSEC_PER_SEC;
		break;
	case GSU_PERF_MESSAGING:
		add(&b, "bench");
		add(&b, "sched");
		add(&b, "messaging");
		x->timeout_ns = 300 * NSEC_PER_SEC;
		break;
	case GSU_STRESS_NG:
		snprintf(x->yaml, sizeof(x->yaml), "%s/stress-ng.yaml", dir);
		add(&b, "--timeout");
		addf(&b, "%us", secs);
		add(&b, "--yaml");
		add(&b, x->yaml);
		if (!w->nargs) {
			add(&b, "--switch");
			add(&b, "0");
		}
		x->timeout_ns = dur + 60 * NSEC_PER_SEC;
		break;
	case GSU_GAME:
		add(&b, "-c");
		add(&b, w->command);
		ne = game_env(w, dir, dur, secs, x, ne);
		break;
	default:
		break;
	}
	if (w->kind != GSU_GAME)
		for (int i = 0; i < w->nargs; i++)
			add(&b, w->args[i]);
	if (arm && w->kind == GSU_FRAMEBENCH)
		remedy_framebench(arm, &b);
	if (w->timeout_ns) {
		if (w->kind == GSU_GAME && x->stop_ns > w->timeout_ns)
			x->stop_ns = w->timeout_ns;
		x->timeout_ns = w->timeout_ns + (w->kind == GSU_GAME
						 ? 30 * NSEC_PER_SEC : 0);
	}
	x->argv = b.v;
	x->nenv = ne;
	for (int i = 0; i < ne; i++)
		if (!x->env[i])
			b.oom = 1;
	if (b.oom) {
		snprintf(err, errlen, "out of memory");
		gsu_exec_free(x);
		return -1;
	}
	return 0;
}

void gsu_exec_free(struct gsu_exec *x)
{
	gsu_free_words(x->argv);
	x->argv = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(x->env); i++) {
		free(x->env[i]);
		x->env[i] = NULL;
	}
}

int gsu_read_log(const char *path, char **text)
{
	size_t len;

	return gs_read_file(path, 1 << 20, text, &len, NULL, 0);
}

/*
 * A game's log cut to the measured span: the rows whose elapsed time
 * (since logging began) lies in [startup, startup + duration). MangoHud
 * 0.6 (frame times in us) began at the first frame; 0.7 and later (in ms)
 * after autostart_log, 1 s. A log without elapsed times is kept whole.
 * Returns -1 with why when the log does not reach the span's end.
 */
static int cut_to_span(const struct gsu_exec *x, const char *path,
		       struct gs_mh_log *log, char *why, size_t whylen)
{
	uint64_t from = x->startup_ns, to;
	size_t k = 0;

	if (!x->measure_ns || !log->has_elapsed || !log->n)
		return 0;
	if (log->unit == GS_MH_MS)
		from = from > NSEC_PER_SEC ? from - NSEC_PER_SEC : 0;
	to = from + x->measure_ns;
	/* the last frame's end: a log that stops early measured less */
	if (log->elapsed_ns[log->n - 1] + NSEC_PER_SEC / 2 < to) {
		snprintf(why, whylen, "%s: the log covers %.1f s of the %.0f s "
			 "startup + %.0f s measured: the game stopped early, or "
			 "its frames came late", path,
			 (double)log->elapsed_ns[log->n - 1] / 1e9,
			 (double)x->startup_ns / 1e9, (double)x->measure_ns / 1e9);
		return -1;
	}
	for (size_t i = 0; i < log->n; i++)
		if (log->elapsed_ns[i] >= from && log->elapsed_ns[i] < to) {
			log->frametime_ms[k] = log->frametime_ms[i];
			log->elapsed_ns[k++] = log->elapsed_ns[i];
		}
	log->n = k;
	return 0;
}

static int read_frames_csv(const char *path, const struct gsu_exec *x,
			   struct gsu_run *run, bool need_per_frame, char *why,
			   size_t whylen)
{
	struct gs_mh_log log;
	char err[512];

	if (gs_mh_read_path(path, &log, err, sizeof(err))) {
		snprintf(why, whylen, "%s", err);
		return -1;
	}
	if (log.unusable)
		gs_warn("%s:%zu: %zu MangoHud rows left out: a frame time of "
			"0 ms or over a minute is no frame, nor a row whose elapsed "
			"time is damaged (this one: %s)", path,
			log.first_unusable_line, log.unusable,
			gs_mh_unusable_desc(&log, err, sizeof(err)));
	if (x && cut_to_span(x, path, &log, why, whylen)) {
		gs_mh_free(&log);
		return -1;
	}
	if (need_per_frame && !log.per_frame) {
		snprintf(why, whylen, "%s: the log holds periodic samples, not "
			 "frames (set log_interval=0): lows need every frame",
			 path);
		gs_mh_free(&log);
		return -1;
	}
	if (!log.n || gsu_frames_metrics(log.frametime_ms, log.n, run)) {
		snprintf(why, whylen, "%s: no frames", path);
		gs_mh_free(&log);
		return -1;
	}
	gs_mh_free(&log);
	return 0;
}

/* The newest MangoHud frame log (not a *_summary.csv) in dir. */
static int newest_log(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct timespec best = { 0, 0 };
	int found = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char p[1024];
		struct stat st;

		if (n < 5 || strcmp(e->d_name + n - 4, ".csv") ||
		    (n >= 12 && !strcmp(e->d_name + n - 12, "_summary.csv")))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) || !S_ISREG(st.st_mode))
			continue;
		if (found < 0 || st.st_mtim.tv_sec > best.tv_sec ||
		    (st.st_mtim.tv_sec == best.tv_sec &&
		     st.st_mtim.tv_nsec > best.tv_nsec)) {
			best = st.st_mtim;
			gs_strlcpy(out, p, len);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

bool gsu_game_log_ready(const struct gsu_exec *x)
{
	char path[1024];
	struct stat st;
	struct timespec now;

	/* not the summary: MangoHud 0.6.8 writes it before the log */
	if (newest_log(x->dir, path, sizeof(path)) || stat(path, &st) ||
	    clock_gettime(CLOCK_REALTIME, &now))
		return false;
	/* written at once (0.6) or as the game ran (later versions): done
	 * when it has not changed for a second */
	return (now.tv_sec - st.st_mtim.tv_sec) * 1000000000LL +
		       (now.tv_nsec - st.st_mtim.tv_nsec) >= 1000000000LL;
}

int gsu_exec_collect(const struct gsu_workload *w, const struct gsu_exec *x,
		     struct gsu_run *run, char *why, size_t whylen)
{
	char err[512], *text, path[1024];
	struct gs_jv *doc;
	double v[3];
	int rc = -1;

	switch (w->kind) {
	case GSU_FRAMEBENCH:
		doc = gs_json_parse_file(x->json, err, sizeof(err));
		if (!doc) {
			snprintf(why, whylen, "no framebench result: %s", err);
			return -1;
		}
		rc = gsu_parse_framebench_json(doc, run->metrics, why, whylen);
		gs_json_free(doc);
		if (rc)
			return -1;
		/* the integral low and the CDF come from the frame log; a
		 * missing one costs only those */
		if (read_frames_csv(x->csv, NULL, run, false, err, sizeof(err)))
			snprintf(run->reason, sizeof(run->reason),
				 "no per-frame data: %.400s", err);
		return 0;
	case GSU_GAME:
		if (newest_log(x->dir, path, sizeof(path))) {
			snprintf(why, whylen, "no MangoHud log (*.csv) in %s: "
				 "is MangoHud installed and the game using "
				 "Vulkan (or run through 'mangohud')? MangoHud "
				 "0.6 writes its log only once log_duration "
				 "(startup + duration + 1 s) has passed: did the "
				 "game exit before?", x->dir);
			return -1;
		}
		return read_frames_csv(path, x, run, true, why, whylen);
	case GSU_SCHBENCH:
		if (gsu_read_log(x->log, &text) || gsu_parse_schbench(text, v)) {
			snprintf(why, whylen, "no schbench latency report in %s",
				 x->log);
			free(text);
			return -1;
		}
		for (int i = 0; i < 3; i++)
			run->metrics[i] = v[i];
		free(text);
		return 0;
	case GSU_PERF_MESSAGING:
		if (gsu_read_log(x->log, &text) ||
		    gsu_parse_perf_messaging(text, &v[0])) {
			snprintf(why, whylen, "no 'Total time' in %s", x->log);
			free(text);
			return -1;
		}
		run->metrics[0] = v[0];
		free(text);
		return 0;
	case GSU_STRESS_NG:
		if (gsu_read_log(x->yaml, &text) ||
		    gsu_parse_stressng_yaml(text, &v[0])) {
			snprintf(why, whylen, "no stress-ng metrics in %s",
				 x->yaml);
			free(text);
			return -1;
		}
		run->metrics[0] = v[0];
		free(text);
		return 0;
	default:
		snprintf(why, whylen, "unknown workload kind");
		return -1;
	}
}
