// SPDX-License-Identifier: GPL-2.0-only
/*
 * framebench: a reproducible gaming-workload scheduler benchmark.
 * See docs/framebench.md; the modules:
 *   cli.c      options              profile.c  profile format
 *   plan.c     deterministic plan   engine.c   threads, futexes, processes
 *   tasks.c    the threads' loops   work.c     calibrated work
 *   bg.c       background load      disturb.c  --disturb
 *   collect.c  frame records, CSV   report.c   summary and JSON
 *   feed.c     shared-memory feed   markers.c  trace_marker
 *   run.c      one run              selftest.c --self-test
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "plan.h"
#include "run.h"
#include "util.h"

static int list_profiles(void)
{
	for (size_t i = 0; i < fb_nbuiltins; i++) {
		struct fb_profile p;
		char err[512];

		if (fb_profile_resolve(fb_builtins[i].name, &p, err, sizeof(err)))
			gs_die(EXIT_RUNTIME, "%s", err);
		printf("%-10s %s\n", p.name, p.description);
	}
	printf("(or --profile PATH to a profile file; the format is in "
	       "docs/framebench.md)\n");
	return EXIT_OK;
}

/* --rt needs permission for SCHED_FIFO: find out before starting. */
int main(int argc, char **argv)
{
	static struct fb_config cfg;

	gs_set_prog(argv[0]);
	fb_cli_parse(argc, argv, &cfg);
	if (cfg.list_profiles)
		return list_profiles();
	if (cfg.dump_plan) {
		/* the frames a run would have at the target FPS (1000 FPS
		 * assumed when uncapped) */
		double secs = (cfg.warmup_ns + cfg.duration_ns) / 1e9;
		double frames = secs * (cfg.prof.fps ? cfg.prof.fps : 1000);

		fb_plan_dump(stdout, &cfg.prof, cfg.seed,
			     frames > 1e6 ? 1000000 : (uint64_t)(frames + 0.5));
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}
	if (cfg.self_test)
		return fb_self_test(&cfg);
	if (cfg.game.rt || cfg.game.nice_set || cfg.game.slice_us) {
		char err[320];

		if (fb_gameprio_check(&cfg.game, err, sizeof(err)))
			gs_die(EXIT_USAGE, "%s", err);
	}
	return fb_run(&cfg);
}
