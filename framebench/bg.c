// SPDX-License-Identifier: GPL-2.0-only
#include "bg.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plan.h"
#include "rng.h"
#include "spawn.h"
#include "util.h"
#include "work.h"

static volatile pid_t bg_pgid;

static const char *const names[] = { "hogs", "compile", "browser" };

const char *fb_bg_name(enum fb_bg_kind k)
{
	return names[k];
}

int fb_bg_parse(const char *s, unsigned ncpus, struct fb_bg_spec *out)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t n;
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(names); k++)
		if (strlen(names[k]) == len && !strncmp(s, names[k], len))
			break;
	if (k == ARRAY_SIZE(names))
		return -1;
	out->kind = (enum fb_bg_kind)k;
	out->n = out->kind == FB_BG_BROWSER ? 2 : (ncpus ? ncpus : 1);
	if (colon) {
		if (gs_parse_u64(colon + 1, 1, 256, &n))
			return -1;
		out->n = (unsigned)n;
	}
	return 0;
}

static void sleep_abs(uint64_t when)
{
	struct timespec ts = { (time_t)(when / NSEC_PER_SEC),
			       (long)(when % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Nanoseconds on a CPU clock; 0 when it cannot be read. */
static uint64_t cpu_clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * Runs ns of nominal work (the loop iterations fb_work_ns would run) in
 * chunks of at most FB_BG_CHUNK_NS, adding each finished chunk to the
 * pattern's count. A compile job (report_cpu) also adds the CPU time its
 * process used so far after each chunk.
 */
static void counted_work(struct fb_bg_counters *c, uint64_t ns,
			 bool report_cpu, uint64_t *cpu_reported)
{
	uint64_t left = fb_work_loops(ns), chunk = fb_work_loops(FB_BG_CHUNK_NS);

	if (!chunk)
		chunk = 1;
	while (left) {
		uint64_t n = left < chunk ? left : chunk;

		fb_spin(n);
		atomic_fetch_add_explicit(&c->loops, n, memory_order_relaxed);
		left -= n;
		if (report_cpu) {
			uint64_t used = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);

			if (used > *cpu_reported) {
				atomic_fetch_add_explicit(&c->job_cpu_ns,
							  used - *cpu_reported,
							  memory_order_relaxed);
				*cpu_reported = used;
			}
		}
	}
}

struct bg_thread_arg {
	uint64_t seed;
	unsigned spec, idx;
	struct fb_bg_counters *count;
};

static void *hog_thread(void *arg)
{
	struct bg_thread_arg *a = arg;

	for (;;)
		counted_work(a->count, FB_BG_CHUNK_NS, false, NULL);
	return NULL;
}

static void *browser_thread(void *arg)
{
	struct bg_thread_arg *a = arg;
	struct gs_rng r;
	uint64_t period = NSEC_PER_SEC / 60, next = gs_now_ns();

	fb_plan_rng(&r, a->seed, FB_STREAM_BG + a->spec, a->idx);
	for (;;) {
		uint64_t now;

		counted_work(a->count, (uint64_t)gs_rng_uniform(&r, 2e6, 6e6),
			     false, NULL);
		/* the period's burst is due by the period's end (a video
		 * frame); the long bursts below have no deadline */
		next += period;
		now = gs_now_ns();
		atomic_fetch_add_explicit(&a->count->bursts, 1,
					  memory_order_relaxed);
		if (now > next)
			atomic_fetch_add_explicit(&a->count->bursts_missed, 1,
						  memory_order_relaxed);
		/* about every 1.5 s: script or garbage collection */
		if (gs_rng_below(&r, 90) == 0) {
			counted_work(a->count,
				     (uint64_t)gs_rng_uniform(&r, 30e6, 120e6),
				     false, NULL);
			now = gs_now_ns();
		}
		if (next < now)
			next = now;
		sleep_abs(next);
	}
	return NULL;
}

static _Noreturn void run_threads(void *(*fn)(void *), unsigned n,
				  uint64_t seed, unsigned spec,
				  struct fb_bg_counters *count)
{
	struct bg_thread_arg *args = calloc(n, sizeof(*args));

	for (unsigned i = 0; args && i < n; i++) {
		pthread_t t;

		args[i] = (struct bg_thread_arg){ seed, spec, i, count };
		if (i + 1 < n)
			pthread_create(&t, NULL, fn, &args[i]);
	}
	if (args)
		fn(&args[n - 1]);
	_exit(0);
}

/*
 * A compile job's CPU time is counted by the job itself (counted_work's
 * report_cpu), not from the manager's cutime/cstime: those grow only when
 * a job is reaped, in whole clock ticks, so a job still running at the
 * window's edge would land wholly in or out of the window. Only the job's
 * exit after its last chunk goes uncounted (tens of microseconds).
 */
static _Noreturn void compile_main(unsigned n, uint64_t seed, unsigned spec,
				   struct fb_bg_counters *count)
{
	struct gs_rng r;
	unsigned running = 0;
	uint64_t job = 0, phase_end;
	bool on = true;

	fb_plan_rng(&r, seed, FB_STREAM_BG + spec, 0);
	phase_end = gs_now_ns() + (uint64_t)gs_rng_uniform(&r, 1e9, 3e9);
	for (;;) {
		uint64_t now = gs_now_ns();
		pid_t pid;

		if (now >= phase_end) {
			on = !on;
			phase_end = now + (uint64_t)(on ? gs_rng_uniform(&r, 1e9, 3e9)
							: gs_rng_uniform(&r, 2e8, 1e9));
		}
		while (on && running < n) {
			uint64_t ns = (uint64_t)gs_rng_uniform(&r, 20e6, 300e6);

			pid = gs_fork_tied();
			if (pid == 0) {
				uint64_t cpu_reported = 0;

				prctl(PR_SET_NAME, "fb-cc");
				counted_work(count, ns, true, &cpu_reported);
				_exit(0);
			}
			if (pid < 0)
				break;
			running++;
			job++;
		}
		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
			running--;
			atomic_fetch_add_explicit(&count->jobs_done, 1,
						  memory_order_relaxed);
		}
		usleep(2000);
	}
}

int fb_bg_start(struct fb_bg *bg, const struct fb_config *cfg)
{
	memset(bg, 0, sizeof(*bg));
	if (cfg->nbg) {
		bg->count_len = cfg->nbg * sizeof(*bg->count);
		bg->count = mmap(NULL, bg->count_len, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (bg->count == MAP_FAILED) {
			gs_warn("cannot map the background load's counters: %s",
				strerror(errno));
			bg->count = NULL;
			return -1;
		}
	}
	for (unsigned i = 0; i < cfg->nbg; i++) {
		const struct fb_bg_spec *s = &cfg->bg[i];
		pid_t pid = gs_fork_tied();

		if (pid < 0) {
			gs_warn("cannot fork background load: %s", strerror(errno));
			fb_bg_stop(bg);
			return -1;
		}
		if (pid == 0) {
			char name[16];

			signal(SIGINT, SIG_IGN);
			signal(SIGTERM, SIG_DFL);
			signal(SIGHUP, SIG_IGN);
			setpgid(0, bg->pgid);
			snprintf(name, sizeof(name), "fb-bg-%s", names[s->kind]);
			prctl(PR_SET_NAME, name);
			/* nice is per thread and inherited by new threads */
			if (setpriority(PRIO_PROCESS, 0, cfg->bg_nice) < 0)
				gs_warn("--bg-nice %d: %s", cfg->bg_nice,
					strerror(errno));
			switch (s->kind) {
			case FB_BG_HOGS:
				run_threads(hog_thread, s->n, cfg->seed, i,
					    &bg->count[i]);
			case FB_BG_BROWSER:
				run_threads(browser_thread, s->n, cfg->seed, i,
					    &bg->count[i]);
			default:
				compile_main(s->n, cfg->seed, i, &bg->count[i]);
			}
		}
		if (!bg->pgid)
			bg->pgid = pid;
		setpgid(pid, bg->pgid);
		bg_pgid = bg->pgid;
		bg->kind[bg->n] = s->kind;
		bg->pid[bg->n++] = pid;
	}
	return 0;
}

void fb_bg_sample(const struct fb_bg *bg, struct fb_bg_sample *out)
{
	for (unsigned i = 0; i < bg->n; i++) {
		const struct fb_bg_counters *c = &bg->count[i];
		struct fb_bg_sample *o = &out[i];
		clockid_t clk;
		struct timespec ts;

		memset(o, 0, sizeof(*o));
		/* the pattern's process clock: every thread of it, to the
		 * nanosecond (the scheduler's own accounting) */
		o->cpu_ok = clock_getcpuclockid(bg->pid[i], &clk) == 0 &&
			    clock_gettime(clk, &ts) == 0;
		if (o->cpu_ok)
			o->cpu_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC +
				    (uint64_t)ts.tv_nsec;
		o->cpu_ns += atomic_load_explicit(&c->job_cpu_ns,
						  memory_order_relaxed);
		o->loops = atomic_load_explicit(&c->loops, memory_order_relaxed);
		o->jobs_done = atomic_load_explicit(&c->jobs_done,
						    memory_order_relaxed);
		o->bursts = atomic_load_explicit(&c->bursts,
						 memory_order_relaxed);
		o->bursts_missed = atomic_load_explicit(&c->bursts_missed,
							memory_order_relaxed);
	}
}

/* b - a of two cumulative counts; 0 if b is behind (cannot happen). */
static uint64_t grew(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void fb_bg_window(const struct fb_bg_spec *spec,
		  const struct fb_bg_sample *start,
		  const struct fb_bg_sample *end, double window_s,
		  double loops_per_us, struct fb_bg_result *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->pattern, sizeof(out->pattern), "%s:%u",
		 fb_bg_name(spec->kind), spec->n);
	out->threads = spec->n;
	out->has_jobs = spec->kind == FB_BG_COMPILE;
	out->has_bursts = spec->kind == FB_BG_BROWSER;
	out->measured = start && end && window_s > 0 && loops_per_us > 0;
	if (!out->measured)
		return;
	out->cpu_ok = start->cpu_ok && end->cpu_ok;
	if (out->cpu_ok)
		out->cpu_s = (double)grew(start->cpu_ns, end->cpu_ns) / 1e9;
	/* loops / (loops per second of calibrated work) = seconds of work */
	out->work_per_s = (double)grew(start->loops, end->loops) /
			  (loops_per_us * 1e6) / window_s;
	out->jobs_done = grew(start->jobs_done, end->jobs_done);
	out->bursts = grew(start->bursts, end->bursts);
	out->missed = grew(start->bursts_missed, end->bursts_missed);
}

void fb_bg_stop(struct fb_bg *bg)
{
	if (bg->pgid > 0)
		kill(-bg->pgid, SIGKILL);
	for (unsigned i = 0; i < bg->n; i++) {
		kill(bg->pid[i], SIGKILL);
		while (waitpid(bg->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
	/* compile jobs whose manager died were reparented to us (we are a
	 * child subreaper): reap them too, for at most a second */
	if (bg->n) {
		uint64_t deadline = gs_now_ns() + NSEC_PER_SEC;

		while (gs_now_ns() < deadline) {
			pid_t r = waitpid(-1, NULL, WNOHANG);

			if (r < 0 && errno == ECHILD)
				break;
			if (r <= 0)
				usleep(2000);
		}
	}
	bg->n = 0;
	bg->pgid = 0;
	bg_pgid = 0;
	/* every process that wrote the counters is gone */
	if (bg->count)
		munmap(bg->count, bg->count_len);
	bg->count = NULL;
}

void fb_bg_kill_now(void)
{
	if (bg_pgid > 0)
		kill(-bg_pgid, SIGKILL);
}
