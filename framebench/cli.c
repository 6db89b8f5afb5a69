// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bg.h"
#include "disturb.h"
#include "util.h"

void fb_usage(FILE *f)
{
	fprintf(f,
"usage: framebench [OPTION]...\n"
"A reproducible gaming-workload scheduler benchmark: frames made of task\n"
"chains that wake each other, scored as average FPS and 1 %% / 0.1 %% lows.\n"
"\n"
"  -p, --profile NAME|PATH  workload profile: proton (default), unreal,\n"
"                           esports, strategy, or a .profile file\n"
"  -d, --duration D         measured time (default 10s; 500ms, 10s, 2m, 1h)\n"
"  -w, --warmup D           unmeasured time before it (default 1s)\n"
"  -s, --seed N             seed of every random amount of work (default 1)\n"
"      --fps N              target FPS, 0 = uncapped (default: the profile's)\n"
"      --workers N          job-system workers (default: the profile's)\n"
"      --calibration R      work-loop rate in loops/us instead of measuring\n"
"                           it (the rate a previous run reported), so that\n"
"                           runs compared with each other do the same work\n"
"      --bg PATTERN[:N]     background load, repeatable: hogs[:threads],\n"
"                           compile[:jobs] (short-lived processes),\n"
"                           browser[:threads] (periodic bursts)\n"
"      --bg-nice N          nice value of the background load (default 0)\n"
"      --rt                 game threads SCHED_FIFO (root or CAP_SYS_NICE)\n"
"      --nice N             game threads at nice N, as GameMode's renice\n"
"                           (-20..19; below 0 needs root or CAP_SYS_NICE)\n"
"      --slice-us N         game threads ask EEVDF for an N us slice\n"
"                           (sched_setattr sched_runtime, Linux 6.12+;\n"
"                           100..100000)\n"
"      --dilate K           time dilation: every work amount, period and\n"
"                           the frame interval K times longer, durations\n"
"                           too; frame times reported divided by K (for\n"
"                           emulators: docs/vm.md; K in [1, 10])\n"
"      --json FILE          every figure and the configuration as JSON\n"
"      --csv FILE           one row per frame in MangoHud's log layout\n"
"      --trace-markers      frame markers to tracefs trace_marker (atrace)\n"
"      --no-feed            no shared-memory frame feed (/dev/shm/framebench.PID)\n"
"      --disturb PERIOD[:LEN[:THREADS]]\n"
"                           once per PERIOD, at a seeded moment, THREADS\n"
"                           high-priority hogs for LEN (default 200ms)\n"
"      --dump-plan          print the deterministic work plan and exit\n"
"      --self-test          measure the benchmark's own overhead and exit\n"
"      --list-profiles      list the shipped profiles and exit\n"
"  -q, --quiet              one summary line, no progress\n"
"  -h, --help               this text\n"
"      --version            the version\n"
"\n"
"Exit status: 0 success (also after SIGINT/SIGTERM with a partial report),\n"
"1 the run failed, 2 bad option or profile.\n");
}

enum {
	OPT_FPS = 256, OPT_WORKERS, OPT_CALIBRATION, OPT_BG, OPT_BG_NICE, OPT_RT, OPT_NICE, OPT_SLICE_US, OPT_DILATE, OPT_JSON,
	OPT_CSV, OPT_MARKERS, OPT_NO_FEED, OPT_DISTURB, OPT_DUMP, OPT_SELF,
	OPT_LIST, OPT_VERSION,
};

static const struct option longopts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "seed", required_argument, NULL, 's' },
	{ "fps", required_argument, NULL, OPT_FPS },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "calibration", required_argument, NULL, OPT_CALIBRATION },
	{ "bg", required_argument, NULL, OPT_BG },
	{ "bg-nice", required_argument, NULL, OPT_BG_NICE },
	{ "rt", no_argument, NULL, OPT_RT },
	{ "nice", required_argument, NULL, OPT_NICE },
	{ "slice-us", required_argument, NULL, OPT_SLICE_US },
	{ "dilate", required_argument, NULL, OPT_DILATE },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "trace-markers", no_argument, NULL, OPT_MARKERS },
	{ "no-feed", no_argument, NULL, OPT_NO_FEED },
	{ "disturb", required_argument, NULL, OPT_DISTURB },
	{ "dump-plan", no_argument, NULL, OPT_DUMP },
	{ "self-test", no_argument, NULL, OPT_SELF },
	{ "list-profiles", no_argument, NULL, OPT_LIST },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void fb_cli_parse(int argc, char **argv, struct fb_config *cfg)
{
	unsigned ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	const char *disturb_arg = NULL;
	char err[1024];
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->profile_arg = "proton";
	cfg->duration_ns = 10 * NSEC_PER_SEC;
	cfg->dilate = 1;
	cfg->warmup_ns = NSEC_PER_SEC;
	cfg->seed = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:d:w:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			cfg->profile_arg = optarg;
			break;
		case 'd':
			cfg->duration_ns = gs_opt_duration_ns(
				"--duration", optarg, NSEC_PER_SEC,
				100 * NSEC_PER_MSEC, 24 * 3600 * NSEC_PER_SEC);
			break;
		case 'w':
			cfg->warmup_ns = gs_opt_duration_ns(
				"--warmup", optarg, NSEC_PER_SEC, 0,
				3600 * NSEC_PER_SEC);
			break;
		case 's':
			cfg->seed = gs_opt_u64("--seed", optarg, 0, UINT64_MAX);
			break;
		case OPT_FPS:
			cfg->fps = (unsigned)gs_opt_u64("--fps", optarg, 0,
							FB_MAX_FPS);
			cfg->fps_set = true;
			break;
		case OPT_WORKERS:
			cfg->workers = (unsigned)gs_opt_u64("--workers", optarg, 1,
							    FB_MAX_WORKERS);
			cfg->workers_set = true;
			break;
		case OPT_CALIBRATION:
			cfg->calibration = gs_opt_double("--calibration", optarg,
							 1, 1e6);
			break;
		case OPT_BG:
			if (cfg->nbg >= FB_MAX_BG)
				gs_die(EXIT_USAGE, "option --bg: at most %d "
				       "background patterns", FB_MAX_BG);
			if (fb_bg_parse(optarg, ncpus, &cfg->bg[cfg->nbg]))
				gs_die(EXIT_USAGE,
				       "option --bg: expected hogs, compile or "
				       "browser, optionally with :N in [1, 256] "
				       "(e.g. hogs:2), got '%s'",
				       optarg);
			cfg->nbg++;
			break;
		case OPT_BG_NICE:
			cfg->bg_nice = (int)gs_opt_i64("--bg-nice", optarg, -20, 19);
			break;
		case OPT_RT:
			cfg->game.rt = true;
			break;
		case OPT_DILATE:
			cfg->dilate = gs_opt_double("--dilate", optarg, 1,
						    FB_DILATE_MAX);
			break;
		case OPT_NICE:
			cfg->game.nice = (int)gs_opt_i64("--nice", optarg, -20, 19);
			cfg->game.nice_set = true;
			break;
		case OPT_SLICE_US:
			cfg->game.slice_us = (unsigned)gs_opt_u64(
				"--slice-us", optarg, FB_SLICE_MIN_US,
				FB_SLICE_MAX_US);
			break;
		case OPT_JSON:
			cfg->json_path = optarg;
			break;
		case OPT_CSV:
			cfg->csv_path = optarg;
			break;
		case OPT_MARKERS:
			cfg->trace_markers = true;
			break;
		case OPT_NO_FEED:
			cfg->no_feed = true;
			break;
		case OPT_DISTURB:
			disturb_arg = optarg;
			if (fb_disturb_parse(optarg, ncpus, &cfg->disturb_period_ns,
					     &cfg->disturb_len_ns,
					     &cfg->disturb_threads, err,
					     sizeof(err)))
				gs_die(EXIT_USAGE, "option --disturb: %s", err);
			cfg->disturb = true;
			break;
		case OPT_DUMP:
			cfg->dump_plan = true;
			break;
		case OPT_SELF:
			cfg->self_test = true;
			break;
		case OPT_LIST:
			cfg->list_profiles = true;
			break;
		case 'q':
			cfg->quiet = true;
			break;
		case 'h':
			fb_usage(stdout);
			exit(EXIT_OK);
		case OPT_VERSION:
			printf("framebench %s (gamesched)\n", FB_VERSION);
			exit(EXIT_OK);
		default:
			gs_die_bad_option(c, argv);
		}
	}
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);
	(void)disturb_arg;
	if (cfg->list_profiles)
		return;
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
