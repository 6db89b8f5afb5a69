// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run: calibrate, create the feed, fork the background load and the
 * helper processes, start every thread, collect frames until --duration or
 * a signal, stop everything, report. Every exit path after the feed exists
 * removes it; every child process is killed and reaped.
 */
#include "run.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "bg.h"
#include "collect.h"
#include "disturb.h"
#include "feed.h"
#include "mangohud.h"
#include "markers.h"
#include "report.h"
#include "util.h"
#include "work.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	if (got_signal) {
		/* a second signal: leave now, still without leftovers */
		fb_feed_unlink_now();
		fb_bg_kill_now();
		_exit(128 + sig);
	}
	got_signal = sig;
}

static void on_fatal(int sig)
{
	fb_feed_unlink_now();
	fb_bg_kill_now();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					  SIGABRT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps end early */
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(fb_feed_unlink_now);
}

static void csv_header(FILE *f, const struct gs_sysinfo *si)
{
	struct gs_mh_sysinfo mh;
	char buf[256];
	FILE *m;

	memset(&mh, 0, sizeof(mh));
	gs_strlcpy(mh.os, "Linux", sizeof(mh.os));
	m = fopen("/etc/os-release", "r");
	while (m && fgets(buf, sizeof(buf), m))
		if (!strncmp(buf, "PRETTY_NAME=", 12)) {
			char *v = gs_trim(buf + 12);
			size_t n = strlen(v);

			if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
				v[n - 1] = '\0';
				v++;
			}
			gs_strlcpy(mh.os, v, sizeof(mh.os));
		}
	if (m)
		fclose(m);
	gs_strlcpy(mh.cpu, si->cpu_model, sizeof(mh.cpu));
	gs_strlcpy(mh.gpu, "none (framebench)", sizeof(mh.gpu));
	m = fopen("/proc/meminfo", "r");
	if (m && fgets(buf, sizeof(buf), m)) {
		unsigned long long kb;

		if (sscanf(buf, "MemTotal: %llu", &kb) == 1)
			snprintf(mh.ram, sizeof(mh.ram), "%.1f GB", kb / 1048576.0);
	}
	if (m)
		fclose(m);
	gs_strlcpy(mh.kernel, si->kernel, sizeof(mh.kernel));
	gs_strlcpy(mh.driver, "framebench " FB_VERSION, sizeof(mh.driver));
	gs_strlcpy(mh.cpuscheduler, si->governor, sizeof(mh.cpuscheduler));
	gs_mh_write_header(f, &mh);
}

static FILE *open_out(const char *opt, const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		gs_die(EXIT_RUNTIME, "option %s: cannot write '%s': %s", opt, path,
		       strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *opt, const char *path)
{
	int bad;

	if (!f)
		return 0;
	bad = ferror(f);
	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		gs_warn("option %s: error writing '%s'", opt, path);
		return -1;
	}
	return 0;
}

static void progress(const struct fb_config *cfg, struct fb_collect *c,
		     const struct fb_shm *sh, uint64_t now)
{
	double done_s = (double)(now - sh->measure_ns) / 1e9;

	fprintf(stderr,
		"%s: %.0f of %.0f s: %" PRIu64 " frames (%.1f FPS); last "
		"interval: %" PRIu64 " frames, worst %.2f ms, %" PRIu64
		" over 1.5x target\n",
		gs_prog, done_s, cfg->duration_ns / 1e9, c->frames,
		done_s > 0 ? (double)c->frames / done_s : 0, c->prog_frames,
		c->prog_worst_ms, c->prog_stutter);
	c->prog_frames = 0;
	c->prog_worst_ms = 0;
	c->prog_stutter = 0;
}

static void sample_usage(struct fb_usage_sample *u, const struct fb_engine *e,
			 const struct fb_bg *bg)
{
	u->at_ns = gs_now_ns();
	u->game_ok = fb_engine_cpu_ns(e, &u->game_cpu_ns) == 0;
	fb_bg_sample(bg, u->bg);
}

int fb_run(const struct fb_config *cfg)
{
	static struct fb_engine e;
	static struct fb_results res;
	static struct fb_collect col;
	static struct fb_disturb dist;
	static struct fb_feed feed;
	static struct fb_usage_sample usage_start, usage_end;
	struct fb_bg bg;
	const struct fb_profile *p = &cfg->prof;
	FILE *csv, *json;
	bool feed_on = false, failed = false, measuring = false, sampled = false;
	uint64_t next_progress, expect;
	int status = EXIT_OK;

	install_signals();
	memset(&res, 0, sizeof(res));
	gs_sysinfo_read(&res.sys, GS_SCX_ROOT);
	csv = open_out("--csv", cfg->csv_path);
	json = open_out("--json", cfg->json_path);

	/* once, before any load exists; or the rate given (a calibration
	 * under emulation or load varies by 20 %, and with it every task's
	 * work: runs to be compared should share one rate) */
	if (cfg->calibration > 0) {
		fb_work_set_rate(cfg->calibration);
		res.calib.loops_per_us = res.calib.median_loops_per_us = cfg->calibration;
		res.calib.given = true;
	} else {
		fb_calibrate(&res.calib, 40, 1000);
	}
	if (cfg->trace_markers)
		res.markers_on = fb_markers_open() == 0;
	if (!cfg->no_feed) {
		fb_feed_remove_stale();
		feed_on = fb_feed_create(&feed, 4096,
					 p->fps ? NSEC_PER_SEC / p->fps : 0) == 0;
		res.feed_on = feed_on;
		if (feed_on)
			gs_strlcpy(res.feed_path, feed.path, sizeof(res.feed_path));
	}
	if (fb_engine_init(&e, cfg, feed_on ? &feed : NULL) < 0)
		gs_die(EXIT_RUNTIME, "cannot set up the run");
	/* orphaned background jobs are reparented to us and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (csv)
		csv_header(csv, &res.sys);
	expect = (uint64_t)((double)cfg->duration_ns / 1e9 *
			    (p->fps ? p->fps * 1.25 : 4000.0));
	if (fb_collect_init(&col, e.sh, csv, expect,
			    fb_target_ms(cfg)) < 0)
		gs_die(EXIT_RUNTIME, "cannot set up the run");
	col.time_scale = 1 / cfg->dilate;

	if (fb_bg_start(&bg, cfg) < 0 || fb_engine_start(&e) < 0) {
		fb_engine_stop(&e);
		fb_bg_stop(&bg);
		if (feed_on)
			fb_feed_destroy(&feed);
		gs_die(EXIT_RUNTIME, "the run could not start");
	}
	if (cfg->disturb) {
		if (fb_disturb_start(&dist, &e, cfg) < 0)
			gs_warn("--disturb: running without disturbances");
		res.disturb = &dist;
	}

	next_progress = e.sh->measure_ns + 10 * NSEC_PER_SEC;
	for (;;) {
		uint64_t now = gs_now_ns(), end = atomic_load(&e.sh->end_ns);
		const char *who;
		struct timespec ts = { 0, 10 * NSEC_PER_MSEC };

		if (got_signal) {
			res.interrupted = true;
			if (now < end)
				atomic_store(&e.sh->end_ns, now);
			if (!cfg->quiet)
				fprintf(stderr, "%s: %s after %.1f s measured; "
					"reporting what was measured\n",
					gs_prog, strsignal(got_signal),
					now > e.sh->measure_ns
						? (now - e.sh->measure_ns) / 1e9
						: 0.0);
			break;
		}
		if (now >= end)
			break;
		if (atomic_load(&e.sh->failed)) {
			gs_warn("the run failed: %s", e.sh->fail_msg);
			failed = true;
			break;
		}
		if (fb_engine_child_died(&e, &who)) {
			gs_warn("the run failed: helper process %s died", who);
			failed = true;
			break;
		}
		if (!measuring && now >= e.sh->measure_ns) {
			measuring = true;
			sample_usage(&usage_start, &e, &bg);
			if (feed_on)
				fb_feed_set_state(&feed, 1, e.sh->measure_ns);
		}
		fb_collect_cpu_load(&col, now);
		fb_collect_drain(&col);
		if (!cfg->quiet && cfg->duration_ns >= 20 * NSEC_PER_SEC &&
		    now >= next_progress) {
			progress(cfg, &col, e.sh, now);
			next_progress += 10 * NSEC_PER_SEC;
		}
		if (end - now < (uint64_t)ts.tv_nsec)
			ts.tv_nsec = (long)(end - now);
		/* wake at the window's start too: the usage samples are taken
		 * when this loop sees the window begin and end */
		if (!measuring && e.sh->measure_ns - now < (uint64_t)ts.tv_nsec)
			ts.tv_nsec = (long)(e.sh->measure_ns - now);
		nanosleep(&ts, NULL);
	}
	if (measuring && !failed) {
		sample_usage(&usage_end, &e, &bg);
		sampled = true;
	}

	fb_engine_stop(&e);
	if (cfg->disturb)
		fb_disturb_stop(&dist);
	fb_bg_stop(&bg);
	fb_collect_drain(&col);
	if (feed_on)
		fb_feed_set_state(&feed, 2, 0);

	fb_results_compute(&res, cfg, &e, &col);
	fb_results_usage(&res, cfg, sampled ? &usage_start : NULL,
			 sampled ? &usage_end : NULL);
	if (cfg->quiet)
		fb_report_line(stdout, cfg, &res);
	else
		fb_report_print(stdout, cfg, &res);
	fflush(stdout);
	if (json)
		fb_report_json(json, cfg, &res);
	if (close_out(csv, "--csv", cfg->csv_path) ||
	    close_out(json, "--json", cfg->json_path))
		status = EXIT_RUNTIME;
	if (feed_on)
		fb_feed_destroy(&feed);
	fb_markers_close();
	fb_collect_free(&col);
	fb_engine_free(&e);
	if (failed)
		return EXIT_RUNTIME;
	if (!res.frames && !res.interrupted) {
		gs_warn("no frame was presented in the measured time");
		return EXIT_RUNTIME;
	}
	return status;
}
