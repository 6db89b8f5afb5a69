// SPDX-License-Identifier: GPL-2.0-only
#include "bg.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void *hog_thread(void *arg)
{
	(void)arg;
	for (;;)
		fb_spin(1u << 20);
	return NULL;
}

struct browser_arg {
	uint64_t seed;
	unsigned spec, idx;
};

static void *browser_thread(void *arg)
{
	struct browser_arg *a = arg;
	struct gs_rng r;
	uint64_t period = NSEC_PER_SEC / 60, next = gs_now_ns();

	fb_plan_rng(&r, a->seed, FB_STREAM_BG + a->spec, a->idx);
	for (;;) {
		uint64_t now;

		fb_work_ns((uint64_t)gs_rng_uniform(&r, 2e6, 6e6));
		/* about every 1.5 s: script or garbage collection */
		if (gs_rng_below(&r, 90) == 0)
			fb_work_ns((uint64_t)gs_rng_uniform(&r, 30e6, 120e6));
		next += period;
		now = gs_now_ns();
		if (next < now)
			next = now;
		sleep_abs(next);
	}
	return NULL;
}

static _Noreturn void run_threads(void *(*fn)(void *), unsigned n,
				  uint64_t seed, unsigned spec)
{
	struct browser_arg *args = calloc(n, sizeof(*args));

	for (unsigned i = 0; args && i < n; i++) {
		pthread_t t;

		args[i] = (struct browser_arg){ seed, spec, i };
		if (i + 1 < n)
			pthread_create(&t, NULL, fn, &args[i]);
	}
	fn(args ? &args[n - 1] : NULL);
	_exit(0);
}

static _Noreturn void compile_main(unsigned n, uint64_t seed, unsigned spec)
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
				prctl(PR_SET_NAME, "fb-cc");
				fb_work_ns(ns);
				_exit(0);
			}
			if (pid < 0)
				break;
			running++;
			job++;
		}
		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
			running--;
		usleep(2000);
	}
}

int fb_bg_start(struct fb_bg *bg, const struct fb_config *cfg)
{
	memset(bg, 0, sizeof(*bg));
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
				run_threads(hog_thread, s->n, cfg->seed, i);
			case FB_BG_BROWSER:
				run_threads(browser_thread, s->n, cfg->seed, i);
			default:
				compile_main(s->n, cfg->seed, i);
			}
		}
		if (!bg->pgid)
			bg->pgid = pid;
		setpgid(pid, bg->pgid);
		bg_pgid = bg->pgid;
		bg->pid[bg->n++] = pid;
	}
	return 0;
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
}

void fb_bg_kill_now(void)
{
	if (bg_pgid > 0)
		kill(-bg_pgid, SIGKILL);
}
