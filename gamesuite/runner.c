// SPDX-License-Identifier: GPL-2.0-only
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "proc.h"
#include "sched.h"
#include "suite.h"
#include "util.h"
#include "workload.h"

#define CHECK_EVERY_NS (200 * NSEC_PER_MSEC)
#define SETTLE_WINDOW_NS (500 * NSEC_PER_MSEC)

static double epoch_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double rusage_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return rusage_s(&ru);
}

void gsu_prepare(struct gsu_results *r)
{
	const char *root = r->set.scx_root;
	bool have_scx;

	gs_sysinfo_read(&r->machine, root);
	have_scx = r->machine.scx.present;
	for (int i = 0; i < r->nsched; i++) {
		struct gsu_sched *s = &r->sched[i];

		s->status = GSU_SCHED_OK;
		s->note[0] = '\0';
		if (s->is_default || s->arm == GSU_ARM_REMEDY)
			continue;
		if (gsu_resolve(s->argv[0], s->resolved, sizeof(s->resolved))) {
			s->status = GSU_SCHED_UNKNOWN;
			snprintf(s->note, sizeof(s->note),
				 "no program '%s' (looked next to gamesuite "
				 "and in PATH)",
				 s->argv[0]);
		} else if (!have_scx && s->arm == GSU_ARM_LOADER) {
			s->status = GSU_SCHED_UNAVAILABLE;
			snprintf(s->note, sizeof(s->note),
				 "this kernel has no sched_ext (%s is missing)",
				 root);
		}
	}
	for (int w = 0; w < r->suite->nw; w++)
		gsu_workload_prepare(&r->suite->w[w]);
}

/* ---- one run ----------------------------------------------------------- */

struct probe_state {
	double best;
	int n;
};

static void read_governor(char *buf, size_t len)
{
	if (gs_read_text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			 buf, len) < 0)
		buf[0] = '\0';
}

/* Waits (up to settle_ns) for a quiet machine; returns the last busy
 * fraction seen. */
static double settle(const struct gsu_settings *set)
{
	uint64_t end = gs_now_ns() + set->settle_ns;
	uint64_t window = set->settle_ns >= SETTLE_WINDOW_NS
			  ? SETTLE_WINDOW_NS : SETTLE_WINDOW_NS / 5;
	double busy = NAN;

	do {
		struct gsu_cpustat a, b;

		gsu_cpustat_read("/proc/stat", &a);
		if (gsu_sleep_ns(window))
			break;
		gsu_cpustat_read("/proc/stat", &b);
		busy = gsu_cpustat_busy(&a, &b);
		if (isnan(busy) || busy <= set->max_busy_before)
			break;
	} while (gs_now_ns() < end);
	return busy;
}

static void append_reason(struct gsu_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void append_reason(struct gsu_run *run, const char *fmt, ...)
{
	size_t o = strlen(run->reason);
	va_list ap;

	if (o && o + 2 < sizeof(run->reason)) {
		memcpy(run->reason + o, "; ", 3);
		o += 2;
	}
	va_start(ap, fmt);
	vsnprintf(run->reason + o, sizeof(run->reason) - o, fmt, ap);
	va_end(ap);
}

static void set_tail(struct gsu_run *run, const char *path)
{
	gsu_file_tail(path, run->log_tail, sizeof(run->log_tail));
}

enum run_end { RUN_NEXT, RUN_REPEAT, RUN_ABORT };

/* NAME=VALUE into the workload's environment (left out if memory is short) */
static void add_env(struct gsu_exec *x, const char *name, const char *value)
{
	if (asprintf(&x->env[x->nenv], "%s=%s", name, value) > 0)
		x->nenv++;
	else
		x->env[x->nenv] = NULL;
}

/* The scheduler did not start: why, and whether the suite goes on. */
static enum run_end start_failed(struct gsu_results *r, struct gsu_run *run,
				 struct gsu_sched *s, struct gsu_loaded *ld,
				 enum gsu_start st, const char *slog, char *why,
				 size_t whylen)
{
	const struct gsu_settings *set = &r->set;

	run->status = st == GSU_START_WRONG ? GSU_RUN_WRONG_SCHED
		      : st == GSU_START_FAILED ? GSU_RUN_LOAD_FAILED
					       : GSU_RUN_INTERRUPTED;
	append_reason(run, "%s", why);
	set_tail(run, slog);
	gs_scx_read(set->scx_root, &run->scx_after);
	if (st == GSU_START_FAILED && ++s->load_failures >= 2) {
		s->status = GSU_SCHED_FAILED;
		snprintf(s->note, sizeof(s->note),
			 "failed to load %d times in a row (last: %.380s); "
			 "its remaining runs were skipped",
			 s->load_failures, why);
	}
	/* make sure nothing we started is left enabled */
	if (ld->proc.pid &&
	    gsu_sched_stop(s, set->scx_root, ld, set->stop_timeout_ns,
			   why, whylen)) {
		r->machine_restored = false;
		append_reason(run, "%s", why);
		return RUN_ABORT;
	}
	return st == GSU_START_INTERRUPTED ? RUN_ABORT : RUN_NEXT;
}

/*
 * Was the machine quiet? A run that other processes disturbed is marked,
 * and repeated unless the settings keep it. OWN: the CPU seconds of the
 * run's own processes (workload, scheduler, gamesuite).
 */
static enum run_end judge_quiet(const struct gsu_settings *set, struct gsu_run *run,
				struct probe_state *ps, const struct gsu_cpustat *ca,
				const struct gsu_cpustat *cb, double own)
{
	run->other_cpu = gsu_other_cpu(ca, cb, own);
	run->probe_ms_after = gsu_probe_ms();
	if (!isnan(run->busy_before) &&
	    run->busy_before > set->max_busy_before) {
		run->disturbed = true;
		append_reason(run, "machine busy before the run (%.0f %% of "
			      "the CPUs)", 100 * run->busy_before);
	}
	if (!isnan(run->other_cpu) && run->other_cpu > set->max_other_cpu) {
		run->disturbed = true;
		append_reason(run, "other processes used %.0f %% of the CPUs "
			      "during the run", 100 * run->other_cpu);
	}
	if (set->probe_factor > 0) {
		double worst = fmax(run->probe_ms_before, run->probe_ms_after);

		if (ps->n >= 3 && worst > set->probe_factor * ps->best) {
			run->disturbed = true;
			append_reason(run, "probe took %.1f ms, %.1fx the best "
				      "%.1f ms (contention or throttling)",
				      worst, worst / ps->best, ps->best);
		}
		for (int i = 0; i < 2; i++) {
			double v = i ? run->probe_ms_after : run->probe_ms_before;

			if (!isnan(v) && (!ps->n || v < ps->best))
				ps->best = v;
			ps->n++;
		}
	}
	if (run->disturbed && !set->keep_disturbed) {
		run->status = GSU_RUN_DISTURBED;
		return RUN_REPEAT;
	}
	return RUN_NEXT;
}

/*
 * Until the workload ends, is interrupted, reaches its stop time or its
 * timeout, or the scheduler is no longer the one started. Returns false in
 * the last case, with WHY.
 */
static bool watch_workload(const struct gsu_settings *set, struct gsu_sched *s,
			   struct gsu_loaded *ld, struct gsu_run *run,
			   struct gsu_proc *wp, const struct gsu_exec *x,
			   uint64_t t0, bool *timed_out, char *why, size_t whylen)
{
	uint64_t last_check = 0;

	for (;;) {
		uint64_t now = gs_now_ns(), el = now - t0;

		if (gsu_proc_poll(wp))
			break;
		if (gsu_stop_signal) {
			gsu_proc_stop(wp, SIGINT, 2 * NSEC_PER_SEC);
			run->status = GSU_RUN_INTERRUPTED;
			append_reason(run, "interrupted by signal %d",
				      (int)gsu_stop_signal);
			break;
		}
		/* a game: ask it to quit once its log is written (MangoHud
		 * 0.6 writes nothing if the game exits first), waiting for
		 * the log at most 10 s more */
		if (x->stop_ns && el >= x->stop_ns &&
		    (el >= x->stop_ns + 10 * NSEC_PER_SEC || gsu_game_log_ready(x))) {
			gsu_proc_stop(wp, SIGTERM, 5 * NSEC_PER_SEC);
			break;
		}
		if (el >= x->timeout_ns) {
			gsu_proc_stop(wp, SIGTERM, 2 * NSEC_PER_SEC);
			*timed_out = true;
			break;
		}
		if (now - last_check >= CHECK_EVERY_NS) {
			last_check = now;
			if (!gsu_sched_check(s, set->scx_root, ld, why, whylen)) {
				gsu_proc_stop(wp, SIGINT, 2 * NSEC_PER_SEC);
				return false;
			}
		}
		gsu_sleep_ns(20 * NSEC_PER_MSEC);
	}
	return true;
}

/* A run's status from how the workload ended: the scheduler ejected,
 * the workload timed out or failed, or its results could not be read;
 * why holds the scheduler's reason, the workload's goes there too. */
static void judge_workload(const struct gsu_workload *w,
			   const struct gsu_exec *x, const struct gsu_proc *wp,
			   struct gsu_run *run, bool sched_ok, bool timed_out,
			   char *why, size_t whylen, const char *slog)
{
	char d[96];

	gsu_describe_status(wp->status, d, sizeof(d));
	if (!sched_ok) {
		run->status = GSU_RUN_EJECTED;
		append_reason(run, "%s", why);
		set_tail(run, slog);
	} else if (timed_out) {
		run->status = GSU_RUN_TIMEOUT;
		append_reason(run, "workload ran past %.0f s and was "
			      "stopped", (double)x->timeout_ns / 1e9);
		set_tail(run, x->log);
	} else if (!wp->stopped_by_us &&
		   (!WIFEXITED(wp->status) || WEXITSTATUS(wp->status))) {
		run->status = GSU_RUN_CRASHED;
		append_reason(run, "workload %s", d);
		set_tail(run, x->log);
	} else if (gsu_exec_collect(w, x, run, why, whylen)) {
		run->status = GSU_RUN_CRASHED;
		append_reason(run, "%s", why);
		set_tail(run, x->log);
	}
}

static enum run_end one_run(struct gsu_results *r, struct gsu_run *run,
			    struct probe_state *ps)
{
	const struct gsu_settings *set = &r->set;
	struct gsu_workload *w = &r->suite->w[run->workload];
	struct gsu_sched *s = &r->sched[run->sched];
	struct gsu_loaded ld;
	struct gsu_exec x;
	struct gsu_proc wp;
	struct gsu_cpustat ca, cb;
	char dir[600], slog[700], why[512], err[256], num[16];
	enum gsu_start st;
	uint64_t t0;
	double self_a, own = 0;
	bool sched_ok = true, timed_out = false;

	snprintf(dir, sizeof(dir), "%s/run-%03d-%s-%d", r->workdir, run->index,
		 w->name, run->sched);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		run->status = GSU_RUN_CRASHED;
		append_reason(run, "cannot create %s: %s", dir, strerror(errno));
		return RUN_NEXT;
	}
	snprintf(slog, sizeof(slog), "%s/scheduler.log", dir);

	/* machine state before the run */
	run->start_epoch = epoch_now();
	run->busy_before = settle(set);
	run->loadavg1 = gsu_loadavg1();
	read_governor(run->governor, sizeof(run->governor));
	run->probe_ms_before = gsu_probe_ms();
	gs_scx_read(set->scx_root, &run->scx_before);
	if (gsu_stop_signal) {
		run->status = GSU_RUN_INTERRUPTED;
		append_reason(run, "interrupted by signal %d before the "
			      "scheduler was started", (int)gsu_stop_signal);
		return RUN_ABORT;
	}

	/* the scheduler */
	st = gsu_sched_start(s, set->scx_root, set->load_timeout_ns,
			     set->stop_timeout_ns, slog, &ld, why, sizeof(why));
	if (st != GSU_START_OK)
		return start_failed(r, run, s, &ld, st, slog, why, sizeof(why));
	s->load_failures = 0;
	run->load_s = ld.load_s;

	/* the workload */
	if (gsu_exec_build(r->suite, w, s, dir, &x, err, sizeof(err))) {
		run->status = GSU_RUN_CRASHED;
		append_reason(run, "%s", err);
		goto unload;
	}
	/* tell the workload what it runs under (logs, tests) */
	snprintf(num, sizeof(num), "%d", run->index);
	add_env(&x, "GAMESUITE_SCHED", s->label);
	add_env(&x, "GAMESUITE_RUN", num);
	gsu_cpustat_read("/proc/stat", &ca);
	self_a = self_cpu_s();
	t0 = gs_now_ns();
	if (gsu_spawn(&wp, x.argv, x.env, x.log, err, sizeof(err))) {
		run->status = GSU_RUN_CRASHED;
		append_reason(run, "%s", err);
		gsu_exec_free(&x);
		goto unload;
	}
	sched_ok = watch_workload(set, s, &ld, run, &wp, &x, t0, &timed_out, why,
				  sizeof(why));
	run->wall_s = (double)(gs_now_ns() - t0) / 1e9;
	gsu_cpustat_read("/proc/stat", &cb);
	if (sched_ok && run->status == GSU_RUN_OK)
		sched_ok = gsu_sched_check(s, set->scx_root, &ld, why,
					   sizeof(why));
	gs_scx_read(set->scx_root, &run->scx_after);
	run->workload_cpu_s = rusage_s(&wp.ru);
	run->exit_status = WIFEXITED(wp.status) ? WEXITSTATUS(wp.status)
			   : WIFSIGNALED(wp.status) ? -WTERMSIG(wp.status) : 0;
	if (run->status == GSU_RUN_OK)
		judge_workload(w, &x, &wp, run, sched_ok, timed_out, why,
			       sizeof(why), slog);
	gsu_exec_free(&x);
	own = rusage_s(&wp.ru) + (self_cpu_s() - self_a);

unload:
	if (gsu_sched_stop(s, set->scx_root, &ld, set->stop_timeout_ns, why,
			   sizeof(why))) {
		r->machine_restored = false;
		append_reason(run, "%s", why);
		if (run->status == GSU_RUN_OK)
			run->status = GSU_RUN_EJECTED;
		return RUN_ABORT;
	}
	if (run->status != GSU_RUN_OK)
		return run->status == GSU_RUN_INTERRUPTED ? RUN_ABORT : RUN_NEXT;

	/* was the machine quiet? */
	own += rusage_s(&ld.proc.ru);
	return judge_quiet(set, run, ps, &ca, &cb, own);
}

static void progress_line(FILE *f, const struct gsu_results *r,
			  const struct gsu_run *run, int slot, int nslots)
{
	const struct gsu_workload *w = &r->suite->w[run->workload];
	const struct gsu_metric_def *defs;
	size_t nm = gsu_kind_metrics(w->kind, &defs);

	if (!f)
		return;
	char round[32];

	if (run->warmup)
		snprintf(round, sizeof(round), "warm-up %d", run->round + 1);
	else
		snprintf(round, sizeof(round), "round %d",
			 run->round + 1 - r->suite->warmup);
	fprintf(f, "[%*d/%d] %-16s %-20s %-10s %s", nslots >= 100 ? 3 : 2,
		slot, nslots, w->name, r->sched[run->sched].label, round,
		gsu_run_status_name(run->status));
	if (run->attempt > 1)
		fprintf(f, " (attempt %d)", run->attempt);
	if (run->status == GSU_RUN_OK)
		for (size_t m = 0; m < nm && m < 3; m++)
			if (!isnan(run->metrics[m]))
				fprintf(f, "  %s %.4g", defs[m].name,
					run->metrics[m]);
	if (!isnan(run->wall_s))
		fprintf(f, "  (%.1f s)", run->wall_s);
	if (run->reason[0])
		fprintf(f, "\n        %s", run->reason);
	fputc('\n', f);
	fflush(f);
}

int gsu_run_suite(struct gsu_results *r, FILE *progress)
{
	struct gsu_suite *su = r->suite;
	int rounds = su->warmup + su->repeat, slot = 0, nslots;
	struct probe_state ps = { 0, 0 };
	bool first = true;

	r->machine_restored = true;
	r->started_epoch = epoch_now();
	r->planned = 0;
	for (int w = 0; w < su->nw; w++)
		for (int s = 0; s < r->nsched; s++)
			if (su->w[w].available &&
			    r->sched[s].status == GSU_SCHED_OK)
				r->planned += rounds;
	nslots = r->planned;
	for (int w = 0; w < su->nw && !r->interrupted; w++) {
		if (!su->w[w].available)
			continue;
		for (int round = 0; round < rounds; round++) {
			for (int k = 0; k < r->nsched; k++) {
				int si = r->set.rotate ? (k + round) % r->nsched
						       : k;
				struct gsu_sched *s = &r->sched[si];

				if (s->status != GSU_SCHED_OK) {
					/* failed during the suite: skipped */
					if (s->load_failures)
						r->skipped++;
					continue;
				}
				slot++;
				for (int attempt = 1;; attempt++) {
					struct gsu_run *run;
					enum run_end e;

					if (gsu_stop_signal)
						goto stopped;
					if (!first &&
					    gsu_sleep_ns(su->cooldown_ns))
						goto stopped;
					first = false;
					run = gsu_results_add_run(r);
					if (!run) {
						gs_warn("out of memory");
						goto stopped;
					}
					run->workload = w;
					run->sched = si;
					run->round = round;
					run->attempt = attempt;
					run->warmup = round < su->warmup;
					e = one_run(r, run, &ps);
					progress_line(progress, r, run, slot,
						      nslots);
					if (e == RUN_ABORT)
						goto stopped;
					if (e == RUN_REPEAT && !run->warmup &&
					    attempt <= r->set.retries)
						continue;
					break;
				}
			}
		}
	}
	r->ended_epoch = epoch_now();
	return 0;
stopped:
	if (gsu_stop_signal)
		r->interrupted = true;
	r->ended_epoch = epoch_now();
	return -1;
}

int gsu_exit_status(const struct gsu_results *r)
{
	if (r->interrupted || !r->machine_restored)
		return EXIT_RUNTIME;
	for (int i = 0; i < r->nsched; i++)
		if (r->sched[i].status != GSU_SCHED_OK)
			return EXIT_RUNTIME;
	for (int i = 0; i < r->nruns; i++) {
		enum gsu_run_status st = r->runs[i].status;

		if (st != GSU_RUN_OK && st != GSU_RUN_DISTURBED)
			return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
