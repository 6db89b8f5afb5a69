// SPDX-License-Identifier: GPL-2.0-only
/*
 * gamesuite: run workloads under several schedulers, interleaved and
 * repeated, and say with statistics which is better.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gamesuite.h"
#include "outfmt.h"
#include "proc.h"
#include "runner.h"
#include "sched.h"
#include "suite.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gamesuite run SUITE --sched CMD [--sched CMD]... [options]\n"
"       gamesuite check SUITE      parse a suite file and show its plan\n"
"       gamesuite --help | --version\n"
"\n"
"Runs each workload of SUITE under every scheduler, interleaved (A B C A B C\n"
"...), warm-up rounds first and discarded, and compares each scheduler with\n"
"the first one (the baseline): median, bootstrap interval, ratio, Mann-\n"
"Whitney U p-value and a verdict better / worse / same.\n"
"\n"
"schedulers:\n"
"  --sched CMD          a command that loads a sched_ext scheduler and runs\n"
"                       until SIGINT, or eevdf / default for the kernel's own\n"
"                       scheduler; repeatable, the first is the baseline\n"
"  --label NAME         name of the preceding --sched in every output\n"
"  --ops NAME           sched_ext ops name the preceding --sched must show in\n"
"                       /sys/kernel/sched_ext/root/ops (default: the program\n"
"                       name without a scx_ prefix)\n"
"run:\n"
"  --repeat N           measured runs per scheduler (suite: repeat)\n"
"  --warmup N           discarded warm-up runs per scheduler (suite: warmup)\n"
"  --cooldown D         pause before each run (suite: cooldown)\n"
"  --duration D         workload duration (suite: duration)\n"
"  --only NAME          run only this workload (repeatable)\n"
"  --order interleaved|rotate   A B C A B C, or rotate the order each round\n"
"  --load-timeout D     wait this long for a scheduler to load (60s)\n"
"  --stop-timeout D     wait this long for it to unload (15s)\n"
"disturbance:\n"
"  --max-other-cpu PCT  a run is disturbed when other processes used more\n"
"                       than PCT %% of all CPUs during it (10; 100 = off)\n"
"  --max-busy PCT       ... or the machine was busier than PCT %% just before\n"
"                       it, after waiting up to --settle for quiet (20)\n"
"  --settle D           longest wait for a quiet machine before a run (10s)\n"
"  --probe-factor X     ... or a fixed-work probe (always recorded) took X\n"
"                       times its best; 0 = off (default: in a VM it flagged\n"
"                       one scheduler's runs far more often than another's)\n"
"  --disturbed repeat|keep   discard and repeat disturbed runs (default),\n"
"                       or keep them flagged\n"
"  --retries N          repeats of one disturbed run (2)\n"
"statistics and output:\n"
"  --confidence X       confidence level (suite: confidence, 0.95)\n"
"  --bootstrap N        bootstrap resamples (2000)\n"
"  --json FILE          results, statistics and the run log as JSON\n"
"  --html FILE          self-contained HTML report with plots\n"
"  --workdir DIR        keep every run's files (logs, framebench output,\n"
"                       MangoHud logs) in DIR; default: a temporary folder\n"
"                       that is removed at the end\n"
"  --sched-ext-root DIR read sched_ext state from DIR, not\n"
"                       /sys/kernel/sched_ext (for tests)\n"
"  --dry-run            check schedulers and workloads, print the plan\n"
"  -q, --quiet          no progress lines\n"
"\n"
"Exit status: 0 all runs done, 1 something failed (a scheduler unknown,\n"
"unavailable, failed to load or ejected; a workload failed; interrupted; the\n"
"report says what), 2 bad usage or a malformed suite file.\n");
}

enum {
	O_SCHED = 256, O_LABEL, O_OPS, O_REPEAT, O_WARMUP, O_COOLDOWN,
	O_DURATION, O_ONLY, O_ORDER, O_LOAD_TIMEOUT, O_STOP_TIMEOUT,
	O_MAX_OTHER, O_MAX_BUSY, O_SETTLE, O_PROBE, O_DISTURBED, O_RETRIES,
	O_CONF, O_BOOT, O_JSON, O_HTML, O_WORKDIR, O_SCXROOT, O_DRY, O_VERSION,
};

static const struct option long_opts[] = {
	{ "sched", required_argument, NULL, O_SCHED },
	{ "label", required_argument, NULL, O_LABEL },
	{ "ops", required_argument, NULL, O_OPS },
	{ "repeat", required_argument, NULL, O_REPEAT },
	{ "warmup", required_argument, NULL, O_WARMUP },
	{ "cooldown", required_argument, NULL, O_COOLDOWN },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "only", required_argument, NULL, O_ONLY },
	{ "order", required_argument, NULL, O_ORDER },
	{ "load-timeout", required_argument, NULL, O_LOAD_TIMEOUT },
	{ "stop-timeout", required_argument, NULL, O_STOP_TIMEOUT },
	{ "max-other-cpu", required_argument, NULL, O_MAX_OTHER },
	{ "max-busy", required_argument, NULL, O_MAX_BUSY },
	{ "settle", required_argument, NULL, O_SETTLE },
	{ "probe-factor", required_argument, NULL, O_PROBE },
	{ "disturbed", required_argument, NULL, O_DISTURBED },
	{ "retries", required_argument, NULL, O_RETRIES },
	{ "confidence", required_argument, NULL, O_CONF },
	{ "bootstrap", required_argument, NULL, O_BOOT },
	{ "json", required_argument, NULL, O_JSON },
	{ "html", required_argument, NULL, O_HTML },
	{ "workdir", required_argument, NULL, O_WORKDIR },
	{ "sched-ext-root", required_argument, NULL, O_SCXROOT },
	{ "dry-run", no_argument, NULL, O_DRY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void print_plan(FILE *f, const struct gsu_results *r)
{
	const struct gsu_suite *su = r->suite;
	int avail = 0;

	fprintf(f, "suite '%s' (%s): repeat %d, warm-up %d, cool-down %.3g s, "
		"confidence %.3g\n", su->name, su->path, su->repeat,
		su->warmup, (double)su->cooldown_ns / 1e9, r->set.confidence);
	for (int w = 0; w < su->nw; w++) {
		char desc[600];

		gsu_describe_workload(su, &su->w[w], desc, sizeof(desc));
		fprintf(f, "  workload %-20s %s\n", su->w[w].name, desc);
		if (!su->w[w].available)
			fprintf(f, "    skipped: %s\n", su->w[w].skip_reason);
		avail += su->w[w].available;
	}
	for (int s = 0; s < r->nsched; s++)
		fprintf(f, "  scheduler %-19s %s%s%s\n", r->sched[s].label,
			r->sched[s].is_default ? "kernel default"
					       : r->sched[s].resolved,
			r->sched[s].status == GSU_SCHED_OK ? "" : "  ",
			r->sched[s].status == GSU_SCHED_OK ? ""
							   : r->sched[s].note);
	if (r->nsched)
		fprintf(f, "  %d runs planned (%d workloads x %d schedulers x "
			"%d rounds)\n",
			avail * r->nsched * (su->repeat + su->warmup), avail,
			r->nsched, su->repeat + su->warmup);
}

int main(int argc, char **argv)
{
	/* static: what early exits leave allocated stays reachable */
	static struct gsu_suite suite;
	static struct gsu_results r;
	static struct gsu_table t;
	const char *cmd, *json = NULL, *html = NULL, *workdir = NULL;
	char **only = NULL, err[600];
	int nonly = 0, opt, rc;
	int repeat = -1, warmup = -1;
	uint64_t cooldown = UINT64_MAX, duration = 0;
	double conf = 0;
	bool quiet = false, dry = false, tmpdir = false;

	gs_set_prog(argv[0]);
	memset(&r, 0, sizeof(r));
	r.set.bootstrap_iters = 2000;
	r.set.max_other_cpu = 0.10;
	r.set.max_busy_before = 0.20;
	r.set.probe_factor = 0;
	r.set.retries = 2;
	r.set.load_timeout_ns = 60 * NSEC_PER_SEC;
	r.set.stop_timeout_ns = 15 * NSEC_PER_SEC;
	r.set.settle_ns = 10 * NSEC_PER_SEC;
	r.set.scx_root = GS_SCX_ROOT;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("gamesuite %s\n", GSU_VERSION);
		return EXIT_OK;
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "check"))
		gs_die(EXIT_USAGE, "unknown command '%s' (expected run or "
		       "check; see --help)", cmd);
	optind = 2;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", long_opts, NULL)) != -1) {
		struct gsu_sched *ns;

		switch (opt) {
		case O_SCHED:
			ns = realloc(r.sched, (size_t)(r.nsched + 1) *
						      sizeof(*ns));
			if (!ns)
				gs_die(EXIT_RUNTIME, "out of memory");
			r.sched = ns;
			if (gsu_sched_init(&r.sched[r.nsched], optarg, err,
					   sizeof(err)))
				gs_die(EXIT_USAGE, "%s", err);
			r.nsched++;
			break;
		case O_LABEL:
		case O_OPS: {
			const char *o = opt == O_LABEL ? "--label" : "--ops";
			bool ok = *optarg && strlen(optarg) < GSU_NAME_MAX &&
				  !strpbrk(optarg, ".\"\\");

			if (!r.nsched)
				gs_die(EXIT_USAGE, "option %s: comes after the "
				       "--sched it names", o);
			if (!ok)
				gs_die(EXIT_USAGE, "option %s: expected a name "
				       "without '.', '\"' or '\\' (at most %d "
				       "characters), got '%s'", o,
				       GSU_NAME_MAX - 1, optarg);
			if (opt == O_LABEL) {
				gs_strlcpy(r.sched[r.nsched - 1].label, optarg,
					   GSU_NAME_MAX);
			} else {
				if (r.sched[r.nsched - 1].is_default)
					gs_die(EXIT_USAGE, "option --ops: the "
					       "kernel default has no ops");
				gs_strlcpy(r.sched[r.nsched - 1].expected_ops,
					   optarg, GSU_NAME_MAX);
				r.sched[r.nsched - 1].ops_given = true;
			}
			break;
		}
		case O_REPEAT:
			repeat = (int)gs_opt_u64("--repeat", optarg, 1, 1000);
			break;
		case O_WARMUP:
			warmup = (int)gs_opt_u64("--warmup", optarg, 0, 100);
			break;
		case O_COOLDOWN:
			cooldown = gs_opt_duration_ns("--cooldown", optarg,
						      NSEC_PER_SEC, 0,
						      3600 * NSEC_PER_SEC);
			break;
		case O_DURATION:
			duration = gs_opt_duration_ns("--duration", optarg,
						      NSEC_PER_SEC,
						      100 * NSEC_PER_MSEC,
						      24 * 3600 * NSEC_PER_SEC);
			break;
		case O_ONLY:
			only = realloc(only, (size_t)(nonly + 1) * sizeof(*only));
			if (!only)
				gs_die(EXIT_RUNTIME, "out of memory");
			only[nonly++] = optarg;
			break;
		case O_ORDER:
			if (!strcmp(optarg, "rotate"))
				r.set.rotate = true;
			else if (strcmp(optarg, "interleaved"))
				gs_die(EXIT_USAGE, "option --order: expected "
				       "interleaved or rotate, got '%s'", optarg);
			break;
		case O_LOAD_TIMEOUT:
			r.set.load_timeout_ns = gs_opt_duration_ns(
				"--load-timeout", optarg, NSEC_PER_SEC,
				100 * NSEC_PER_MSEC, 3600 * NSEC_PER_SEC);
			break;
		case O_STOP_TIMEOUT:
			r.set.stop_timeout_ns = gs_opt_duration_ns(
				"--stop-timeout", optarg, NSEC_PER_SEC,
				100 * NSEC_PER_MSEC, 3600 * NSEC_PER_SEC);
			break;
		case O_MAX_OTHER:
			r.set.max_other_cpu =
				gs_opt_double("--max-other-cpu", optarg, 0, 100) /
				100;
			break;
		case O_MAX_BUSY:
			r.set.max_busy_before =
				gs_opt_double("--max-busy", optarg, 0, 100) / 100;
			break;
		case O_SETTLE:
			r.set.settle_ns = gs_opt_duration_ns(
				"--settle", optarg, NSEC_PER_SEC, 0,
				3600 * NSEC_PER_SEC);
			break;
		case O_PROBE:
			r.set.probe_factor =
				gs_opt_double("--probe-factor", optarg, 0, 100);
			if (r.set.probe_factor > 0 && r.set.probe_factor <= 1)
				gs_die(EXIT_USAGE, "option --probe-factor: "
				       "expected 0 (off) or a number above 1, "
				       "got '%s'", optarg);
			break;
		case O_DISTURBED:
			if (!strcmp(optarg, "keep"))
				r.set.keep_disturbed = true;
			else if (strcmp(optarg, "repeat"))
				gs_die(EXIT_USAGE, "option --disturbed: expected "
				       "repeat or keep, got '%s'", optarg);
			break;
		case O_RETRIES:
			r.set.retries = (int)gs_opt_u64("--retries", optarg, 0,
							100);
			break;
		case O_CONF:
			conf = gs_opt_double("--confidence", optarg, 0.5, 0.999);
			break;
		case O_BOOT:
			r.set.bootstrap_iters = (unsigned)gs_opt_u64(
				"--bootstrap", optarg, 100, 1000000);
			break;
		case O_JSON: json = optarg; break;
		case O_HTML: html = optarg; break;
		case O_WORKDIR: workdir = optarg; break;
		case O_SCXROOT: r.set.scx_root = optarg; break;
		case O_DRY: dry = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return EXIT_OK;
		case O_VERSION: printf("gamesuite %s\n", GSU_VERSION);
			return EXIT_OK;
		default:
			gs_die_bad_option(opt, argv);
		}
	}
	if (optind != argc - 1)
		gs_die(EXIT_USAGE, optind >= argc ? "missing SUITE file"
		       : "one SUITE file expected, got extra '%s'",
		       argv[optind + 1 < argc ? optind + 1 : optind]);
	if (gsu_suite_load(argv[optind], &suite, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	if (repeat > 0)
		suite.repeat = repeat;
	if (warmup >= 0)
		suite.warmup = warmup;
	if (cooldown != UINT64_MAX)
		suite.cooldown_ns = cooldown;
	if (duration)
		suite.duration_ns = duration;
	r.set.confidence = conf > 0 ? conf : suite.confidence;
	for (int i = 0; i < nonly; i++) {
		int found = -1;

		for (int w = 0; w < suite.nw; w++)
			if (!strcmp(suite.w[w].name, only[i]))
				found = w;
		if (found < 0)
			gs_die(EXIT_USAGE, "option --only: no workload '%s' in "
			       "%s", only[i], suite.path);
	}
	if (nonly) { /* keep the selected workloads, in suite order */
		int k = 0;

		for (int w = 0; w < suite.nw; w++) {
			bool keep = false;

			for (int i = 0; i < nonly; i++)
				keep |= !strcmp(suite.w[w].name, only[i]);
			if (keep) {
				struct gsu_workload tmp = suite.w[k];

				suite.w[k] = suite.w[w];
				suite.w[w] = tmp;
				k++;
			}
		}
		/* the dropped ones now sit after k: free them */
		if (k < suite.nw) {
			struct gsu_suite rest = { .w = &suite.w[k],
						  .nw = suite.nw - k };

			for (int w = 0; w < rest.nw; w++) {
				struct gsu_workload *d = &rest.w[w];

				for (int b = 0; b < d->nbg; b++)
					free(d->bg[b]);
				if (d->args)
					for (int a = 0; a < d->nargs; a++)
						free(d->args[a]);
				free(d->args);
				free(d->command);
			}
		}
		suite.nw = k;
	}
	free(only);
	r.suite = &suite;
	/* unique labels */
	for (int s = 1; s < r.nsched; s++)
		for (int q = 0; q < s; q++)
			if (!strcmp(r.sched[s].label, r.sched[q].label)) {
				char l[GSU_NAME_MAX + 16];

				snprintf(l, sizeof(l), "%.*s#%d",
					 GSU_NAME_MAX - 8, r.sched[s].label,
					 s + 1);
				gs_strlcpy(r.sched[s].label, l, GSU_NAME_MAX);
				q = -1;
			}
	gsu_prepare(&r);

	if (!strcmp(cmd, "check") || dry) {
		print_plan(stdout, &r);
		rc = EXIT_OK;
		goto out;
	}
	if (!r.nsched)
		gs_die(EXIT_USAGE, "no --sched given (e.g. --sched eevdf "
		       "--sched lavd)");

	if (workdir) {
		if (mkdir(workdir, 0755) && errno != EEXIST)
			gs_die(EXIT_RUNTIME, "cannot create %s: %s", workdir,
			       strerror(errno));
		gs_strlcpy(r.workdir, workdir, sizeof(r.workdir));
	} else {
		const char *td = getenv("TMPDIR");

		snprintf(r.workdir, sizeof(r.workdir), "%s/gamesuite.XXXXXX",
			 td && *td ? td : "/tmp");
		if (!mkdtemp(r.workdir))
			gs_die(EXIT_RUNTIME, "cannot create a temporary "
			       "folder in %s: %s", td ? td : "/tmp",
			       strerror(errno));
		tmpdir = true;
	}
	gsu_install_signal_handlers();
	gsu_run_suite(&r, quiet ? NULL : stderr);
	if (gsu_table_build(&r, &t))
		gs_die(EXIT_RUNTIME, "out of memory");
	gsu_out_text(stdout, &r, &t);
	fflush(stdout);
	rc = gsu_exit_status(&r);
	if (json && gsu_out_json(json, &r, &t))
		rc = EXIT_RUNTIME;
	if (html && gsu_out_html(html, &r, &t))
		rc = EXIT_RUNTIME;
	if (r.interrupted)
		gs_warn("interrupted by signal %d: wrote what was measured so "
			"far", (int)gsu_stop_signal);
	if (tmpdir)
		nftw(r.workdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
out:
	gsu_table_free(&t);
	gsu_results_free_runs(&r);
	for (int s = 0; s < r.nsched; s++)
		gsu_sched_free(&r.sched[s]);
	free(r.sched);
	gsu_suite_free(&suite);
	return rc;
}
