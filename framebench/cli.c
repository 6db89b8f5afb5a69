// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bg.h"
#include "disturb.h"
#include "opttab.h"
#include "outfile.h"
#include "util.h"

/* The GS_OPT_SPECIAL options. */
enum { OPT_BG = 1, OPT_DISTURB };

#define FIELD(f) offsetof(struct fb_config, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)

static const struct gs_opt specs[] = {
	{ "profile", 'p', "NAME|PATH", GS_OPT_STRING, FIELD(profile_arg),
	  .help = "workload profile: proton (default), unreal,\n"
		  "esports, strategy, or a .profile file" },
	{ "duration", 'd', "D", GS_OPT_DURATION, FIELD(duration_ns),
	  100 * NSEC_PER_MSEC, 24 * 3600 * NSEC_PER_SEC,
	  .help = "measured time (default 10s; 500ms, 10s, 2m, 1h)" },
	{ "warmup", 'w', "D", GS_OPT_DURATION, FIELD(warmup_ns),
	  0, 3600 * NSEC_PER_SEC,
	  .help = "unmeasured time before it (default 1s)" },
	{ "seed", 's', "N", GS_OPT_U64, FIELD(seed), 0, (double)UINT64_MAX,
	  .help = "seed of every random amount of work (default 1)" },
	{ "fps", 0, "N", GS_OPT_UINT, FIELD(fps), 0, FB_MAX_FPS,
	  .given = GS_OPT_GIVEN(FIELD(fps_set)),
	  .help = "target FPS, 0 = uncapped (default: the profile's)" },
	{ "workers", 0, "N", GS_OPT_UINT, FIELD(workers), 1, FB_MAX_WORKERS,
	  .given = GS_OPT_GIVEN(FIELD(workers_set)),
	  .help = "job-system workers (default: the profile's)" },
	{ "calibration", 0, "R", GS_OPT_NUMBER, FIELD(calibration), 1, 1e6,
	  .help = "work-loop rate in loops/us instead of measuring\n"
		  "it (the rate a previous run reported), so that\n"
		  "runs compared with each other do the same work" },
	{ "bg", 0, "PATTERN[:N]", SPECIAL(OPT_BG), .choices = FB_BG_KIND_WORDS,
	  .help = "background load, repeatable: hogs[:threads],\n"
		  "compile[:jobs] (short-lived processes),\n"
		  "browser[:threads] (periodic bursts)" },
	{ "bg-nice", 0, "N", GS_OPT_INT, FIELD(bg_nice), -20, 19,
	  .help = "nice value of the background load (default 0)" },
	{ "rt", 0, NULL, GS_OPT_SET, FIELD(game.rt),
	  .help = "game threads SCHED_FIFO (root or CAP_SYS_NICE)" },
	{ "nice", 0, "N", GS_OPT_INT, FIELD(game.nice), -20, 19,
	  .given = GS_OPT_GIVEN(FIELD(game.nice_set)),
	  .help = "game threads at nice N, as GameMode's renice\n"
		  "(-20..19; below 0 needs root or CAP_SYS_NICE)" },
	{ "slice-us", 0, "N", GS_OPT_UINT, FIELD(game.slice_us),
	  FB_SLICE_MIN_US, FB_SLICE_MAX_US,
	  .help = "game threads ask EEVDF for an N us slice\n"
		  "(sched_setattr sched_runtime, Linux 6.12+;\n"
		  "100..100000)" },
	{ "dilate", 0, "K", GS_OPT_NUMBER, FIELD(dilate), 1, FB_DILATE_MAX,
	  .help = "time dilation: every work amount, period and\n"
		  "the frame interval K times longer, durations\n"
		  "too; frame times reported divided by K (for\n"
		  "emulators: docs/vm.md; K in [1, 10])" },
	{ "json", 0, "FILE", GS_OPT_STRING, FIELD(json_path),
	  .help = "every figure and the configuration as JSON" },
	{ "csv", 0, "FILE", GS_OPT_STRING, FIELD(csv_path),
	  .help = "one row per frame in MangoHud's log layout" },
	{ "trace-markers", 0, NULL, GS_OPT_SET, FIELD(trace_markers),
	  .help = "frame markers to tracefs trace_marker (atrace)" },
	{ "no-feed", 0, NULL, GS_OPT_SET, FIELD(no_feed),
	  .help = "no shared-memory frame feed (/dev/shm/framebench.PID)" },
	{ "disturb", 0, "PERIOD[:LEN[:THREADS]]", SPECIAL(OPT_DISTURB),
	  .help = "once per PERIOD, at a seeded moment, THREADS\n"
		  "high-priority hogs for LEN (default 200ms)" },
	{ "dump-plan", 0, NULL, GS_OPT_SET, FIELD(dump_plan),
	  .help = "print the deterministic work plan and exit" },
	{ "self-test", 0, NULL, GS_OPT_SET, FIELD(self_test),
	  .help = "measure the benchmark's own overhead and exit" },
	{ "list-profiles", 0, NULL, GS_OPT_SET, FIELD(list_profiles),
	  .help = "list the shipped profiles and exit" },
	{ "quiet", 'q', NULL, GS_OPT_SET, FIELD(quiet),
	  .help = "one summary line, no progress" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this text" },
	{ "version", 0, NULL, GS_OPT_VERSION, .help = "the version" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
"usage: framebench [OPTION]...\n"
"A reproducible gaming-workload scheduler benchmark: frames made of task\n"
"chains that wake each other, scored as average FPS and 1 % / 0.1 % lows.\n"
"\n",
"\n"
"Exit status: 0 success (also after SIGINT/SIGTERM with a partial report),\n"
"1 the run failed, 2 bad option or profile.\n",
	NULL, 27, .version = "framebench " FB_VERSION " (gamesched)\n",
	.command = "framebench",
};

/* Before the run: an output that is the profile given as a file (a name
 * is a shipped one), or that cannot be written, is refused (exit 2). */
static void check_outputs(const struct fb_config *cfg)
{
	const char *opts[] = { "--json", "--csv" };
	const char *paths[] = { cfg->json_path, cfg->csv_path };
	const char *in = cfg->profile_arg;
	bool in_is_file = strchr(in, '/') || strstr(in, ".profile");
	char err[4400];

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if (!paths[i] || !strcmp(paths[i], "-"))
			continue;
		if (in_is_file)
			gs_refuse_same_file("--profile", in, opts[i], paths[i]);
		if (gs_check_output(paths[i], err, sizeof(err)))
			gs_die(EXIT_USAGE, "option %s: %s", opts[i], err);
	}
}

/* After the options: the profile with the options' overrides, and what
 * only the whole command line can refuse or warn about. */
static void cli_finish(struct fb_config *cfg)
{
	char err[1024];

	check_outputs(cfg);
	if (fb_profile_resolve(cfg->profile_arg, &cfg->prof, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	if (cfg->fps_set)
		cfg->prof.fps = cfg->fps;
	if (cfg->workers_set)
		cfg->prof.workers = cfg->workers;
	if (fb_dilate_profile(&cfg->prof, cfg->dilate, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	/* the run lasts K times longer, so it holds as many frames */
	cfg->duration_ns = (uint64_t)((double)cfg->duration_ns * cfg->dilate);
	cfg->warmup_ns = (uint64_t)((double)cfg->warmup_ns * cfg->dilate);
	if (cfg->game.rt && (cfg->game.nice_set || cfg->game.slice_us))
		gs_die(EXIT_USAGE, "option --rt: SCHED_FIFO threads have no "
		       "nice value or slice; use --rt alone, or --nice and "
		       "--slice-us without it");
	if (cfg->bg_nice < 0 && geteuid() != 0)
		gs_die(EXIT_USAGE, "option --bg-nice: a negative nice value "
		       "needs root");
	if (cfg->disturb && cfg->disturb_period_ns > cfg->duration_ns)
		gs_warn("--disturb: the period is longer than --duration; "
			"there may be no disturbance");
}

/* The GS_OPT_SPECIAL options: the load beside the game (--bg, --disturb). */
static void special(const struct gs_opt *o, const char *arg, void *base)
{
	struct fb_config *cfg = base;
	unsigned ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	char err[1024];

	if (o->id == OPT_BG) {
		if (cfg->nbg >= FB_MAX_BG)
			gs_die(EXIT_USAGE, "option --bg: at most %d "
			       "background patterns", FB_MAX_BG);
		if (fb_bg_parse(arg, ncpus, &cfg->bg[cfg->nbg]))
			gs_die(EXIT_USAGE,
			       "option --bg: expected hogs, compile or "
			       "browser, optionally with :N in [1, 256] "
			       "(e.g. hogs:2), got '%s'",
			       arg);
		cfg->nbg++;
		return;
	}
	if (fb_disturb_parse(arg, ncpus, &cfg->disturb_period_ns,
			     &cfg->disturb_len_ns, &cfg->disturb_threads, err,
			     sizeof(err)))
		gs_die(EXIT_USAGE, "option --disturb: %s", err);
	cfg->disturb = true;
}

void fb_cli_parse(int argc, char **argv, struct fb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile_arg = "proton";
	cfg->duration_ns = 10 * NSEC_PER_SEC;
	cfg->dilate = 1;
	cfg->warmup_ns = NSEC_PER_SEC;
	cfg->seed = 1;
	optind = gs_opt_parse(&table, cfg, argc, argv, special);
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);
	if (!cfg->list_profiles)
		cli_finish(cfg);
}
