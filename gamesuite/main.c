// SPDX-License-Identifier: GPL-2.0-only
/*
 * gamesuite: run workloads under several schedulers, interleaved and
 * repeated, and say with statistics which is better.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gamesuite.h"
#include "opttab.h"
#include "outfile.h"
#include "outfmt.h"
#include "proc.h"
#include "runner.h"
#include "runopts.h"
#include "suite.h"
#include "tune.h"
#include "util.h"
#include "workload.h"

/* What the command line asks for beyond the runner's settings. */
struct cli {
	bool check;		/* "check": show the plan only */
	const char *suite_path;
	const char *json, *html;
	struct gs_opt_list only;	/* --only NAME... */
	/* overrides of the suite file; -1, 0: the suite's */
	int repeat, warmup;
	double confidence;
	bool quiet, dry_run;
	struct gsu_run_opts run;	/* as gamesuite tune has them */
	struct gsu_results *r;	/* the schedulers */
};

/* The GS_OPT_SPECIAL options: the schedulers. */
enum { O_SCHED = 1, O_LABEL, O_OPS };

#define FIELD(f) offsetof(struct cli, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)

/* In --help order; the section a title starts goes with the option after it. */
static const struct gs_opt specs[] = {
	{ "sched", 0, "CMD", SPECIAL(O_SCHED),
	  .section = "schedulers",
	  .help = "a command that loads a sched_ext scheduler and runs\n"
		  "until SIGINT, or eevdf / default for the kernel's own\n"
		  "scheduler; repeatable, the first is the baseline" },
	{ "label", 0, "NAME", SPECIAL(O_LABEL),
	  .help = "name of the preceding --sched in every output" },
	{ "ops", 0, "NAME", SPECIAL(O_OPS),
	  .help = "sched_ext ops name the preceding --sched must show in\n"
		  "/sys/kernel/sched_ext/root/ops (default: the program\n"
		  "name without a scx_ prefix)" },
	{ "repeat", 0, "N", GS_OPT_INT, FIELD(repeat), 1, 1000,
	  .section = "run",
	  .help = "measured runs per scheduler (suite: repeat)" },
	{ "warmup", 0, "N", GS_OPT_INT, FIELD(warmup), 0, 100,
	  .help = "discarded warm-up runs per scheduler (suite: warmup)" },
	{ "only", 0, "NAME", GS_OPT_APPEND, FIELD(only),
	  .help = "run only this workload (repeatable)" },
	{ "order", 0, "interleaved|rotate", GS_OPT_CHOICE, FIELD(run.set.rotate),
	  .choices = "interleaved|rotate",
	  .help = "A B C A B C, or rotate the order each round" },
	GSU_RUN_OPTS(struct cli, NULL),
	{ "disturbed", 0, "repeat|keep", GS_OPT_CHOICE,
	  FIELD(run.set.keep_disturbed), .choices = "repeat|keep",
	  .help = "discard and repeat disturbed runs (default),\n"
		  "or keep them flagged" },
	{ "retries", 0, "N", GS_OPT_INT, FIELD(run.set.retries), 0, 100,
	  .help = "repeats of one disturbed run (2)" },
	{ "confidence", 0, "X", GS_OPT_NUMBER, FIELD(confidence), 0.5, 0.999,
	  .section = "statistics and output",
	  .help = "confidence level (suite: confidence, 0.95)" },
	{ "bootstrap", 0, "N", GS_OPT_UINT, FIELD(run.set.bootstrap_iters),
	  100, 1000000,
	  .help = "bootstrap resamples (2000)" },
	{ "json", 0, "FILE", GS_OPT_STRING, FIELD(json),
	  .help = "results, statistics and the run log as JSON" },
	{ "html", 0, "FILE", GS_OPT_STRING, FIELD(html),
	  .help = "self-contained HTML report with plots" },
	{ "dry-run", 0, NULL, GS_OPT_SET, FIELD(dry_run),
	  .help = "check schedulers and workloads, print the plan" },
	{ "quiet", 'q', NULL, GS_OPT_SET, FIELD(quiet),
	  .help = "no progress lines" },
	{ "help", 'h', NULL, GS_OPT_HELP,
	  .help = "this help" },
	{ "version", 0, NULL, GS_OPT_VERSION,
	  .help = "print the version" },
};

#define VERSION_LINE "gamesuite " GSU_VERSION " (gamesched)\n"

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
"usage: gamesuite run SUITE --sched CMD [--sched CMD]... [options]\n"
"       gamesuite check SUITE      parse a suite file, show its plan, and have\n"
"                                  each workload check its invocation\n"
"       gamesuite tune ...         search lavd's game-profile knobs for one\n"
"                                  workload (gamesuite tune --help)\n"
"       gamesuite --help | --version\n"
"\n"
"Runs each workload of SUITE under every scheduler, interleaved (A B C A B C\n"
"...), warm-up rounds first and discarded, and compares each scheduler with\n"
"the first one (the baseline): median, bootstrap interval, ratio, Mann-\n"
"Whitney U p-value and a verdict better / worse / same.\n"
"\n",
"\n"
"Exit status: 0 all runs done, 1 something failed (a scheduler unknown,\n"
"unavailable, failed to load or ejected; a workload failed; interrupted; the\n"
"report says what), 2 bad usage or a malformed suite file.\n",
	NULL, 23, .version = VERSION_LINE, .command = "gamesuite run",
};

static _Noreturn void print_version(void)
{
	fputs(VERSION_LINE, stdout);
	exit(EXIT_OK);
}

/* ---- options ------------------------------------------------------------ */

static void add_sched(struct gsu_results *r, const char *cmd)
{
	struct gsu_sched *ns;
	char err[600];

	ns = realloc(r->sched, (size_t)(r->nsched + 1) * sizeof(*ns));
	if (!ns)
		gs_die(EXIT_RUNTIME, "out of memory");
	r->sched = ns;
	if (gsu_sched_init(&r->sched[r->nsched], cmd, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	r->nsched++;
}

/* --label / --ops: a name for the --sched before it. */
static void name_sched(struct gsu_results *r, int id, const char *name)
{
	const char *o = id == O_LABEL ? "--label" : "--ops";
	struct gsu_sched *s;

	if (!r->nsched)
		gs_die(EXIT_USAGE, "option %s: comes after the --sched it names",
		       o);
	s = &r->sched[r->nsched - 1];
	if (!*name || strlen(name) >= GSU_NAME_MAX || strpbrk(name, ".\"\\"))
		gs_die(EXIT_USAGE, "option %s: expected a name without '.', "
		       "'\"' or '\\' (at most %d characters), got '%s'", o,
		       GSU_NAME_MAX - 1, name);
	if (id == O_LABEL) {
		gs_strlcpy(s->label, name, GSU_NAME_MAX);
		return;
	}
	if (gsu_arm_native(s))
		gs_die(EXIT_USAGE, "option --ops: '%s' leaves the kernel's own "
		       "scheduler in charge: it has no ops", s->label);
	gs_strlcpy(s->expected_ops, name, GSU_NAME_MAX);
	s->ops_given = true;
}

/* The GS_OPT_SPECIAL options. */
static void take_option(const struct gs_opt *o, const char *arg, void *base)
{
	struct cli *cli = base;

	if (o->id == O_SCHED)
		add_sched(cli->r, arg);
	else
		name_sched(cli->r, o->id, arg);
}

/* The command, the options and the suite file's path; exits on bad usage
 * and after --help / --version. */
/* Before the runs: an output that is the suite, or that cannot be
 * written, would lose what they measured. */
static void check_outputs(const struct cli *cli)
{
	const char *opts[] = { "--json", "--html" };
	const char *paths[] = { cli->json, cli->html };
	char err[4400];

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if (!paths[i])
			continue;
		gs_refuse_same_file(NULL, cli->suite_path, opts[i], paths[i]);
		if (!cli->check && !cli->dry_run &&
		    gs_check_output(paths[i], err, sizeof(err)))
			gs_die(EXIT_USAGE, "option %s: %s", opts[i], err);
	}
}

static void parse_command_line(int argc, char **argv, struct cli *cli,
			       struct gsu_results *r)
{
	memset(cli, 0, sizeof(*cli));
	cli->r = r;
	cli->repeat = cli->warmup = -1;
	gsu_run_opts_init(&cli->run);
	if (argc < 2) {
		gs_opt_usage(&table, stderr);
		exit(EXIT_USAGE);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		gs_opt_usage(&table, stdout);
		exit(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version"))
		print_version();
	if (strcmp(argv[1], "run") && strcmp(argv[1], "check"))
		gs_die(EXIT_USAGE, "unknown command '%s' (expected run, check "
		       "or tune; see --help)", argv[1]);
	cli->check = !strcmp(argv[1], "check");

	optind = 2;
	gs_opt_parse(&table, cli, argc, argv, take_option);
	gsu_run_opts_check(&cli->run);
	r->set = cli->run.set;
	if (optind != argc - 1)
		gs_die(EXIT_USAGE, optind >= argc ? "missing SUITE file"
		       : "one SUITE file expected, got extra '%s'",
		       argv[optind + 1 < argc ? optind + 1 : optind]);
	cli->suite_path = argv[optind];
	check_outputs(cli);
}

/* ---- the suite and the schedulers ---------------------------------------- */

/* Loads the suite with the command line's overrides and --only. */
static void load_suite(struct cli *cli, struct gsu_suite *suite,
		       struct gsu_results *r)
{
	char err[600];

	if (gsu_suite_load(cli->suite_path, suite, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	if (cli->repeat > 0)
		suite->repeat = cli->repeat;
	if (cli->warmup >= 0)
		suite->warmup = cli->warmup;
	gsu_run_opts_apply(&cli->run, suite);
	r->set.confidence = cli->confidence > 0 ? cli->confidence
						: suite->confidence;
	if (gsu_suite_keep(suite, cli->only.v, cli->only.n, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option --only: %s", err);
	free(cli->only.v);
	cli->only.v = NULL;
	r->suite = suite;
}

/* Labels name schedulers in every output: a repeated one gets "#N". */
static void unique_labels(struct gsu_results *r)
{
	for (int s = 1; s < r->nsched; s++)
		for (int q = 0; q < s; q++)
			if (!strcmp(r->sched[s].label, r->sched[q].label)) {
				char l[GSU_NAME_MAX + 16];

				snprintf(l, sizeof(l), "%.*s#%d",
					 GSU_NAME_MAX - 8, r->sched[s].label,
					 s + 1);
				gs_strlcpy(r->sched[s].label, l, GSU_NAME_MAX);
				q = -1;
			}
}

/* Each workload's own check of its invocation (gsu_workload_check):
 * "invalid: why" under it in the plan; returns how many failed, -1 when
 * the plan's reader closed the pipe. */
static int print_plan(FILE *f, const struct gsu_results *r)
{
	const struct gsu_suite *su = r->suite;
	int avail = 0, bad = 0;

	fprintf(f, "suite '%s' (%s): repeat %d, warm-up %d, cool-down %.3g s, "
		"confidence %.3g\n", su->name, su->path, su->repeat,
		su->warmup, (double)su->cooldown_ns / 1e9, r->set.confidence);
	for (int w = 0; w < su->nw; w++) {
		char desc[600];

		gsu_describe_workload(su, &su->w[w], desc, sizeof(desc));
		fprintf(f, "  workload %-20s %s\n", su->w[w].name, desc);
		if (!su->w[w].available) {
			fprintf(f, "    skipped: %s\n", su->w[w].skip_reason);
		} else {
			char why[400];

			if (gsu_workload_check(su, &su->w[w], why, sizeof(why))) {
				fprintf(f, "    invalid: %s\n", why);
				gs_warn("%s: workload %s: %s", su->path,
					su->w[w].name, why);
				bad++;
			}
		}
		avail += su->w[w].available;
		/* the reader went away (check | head): stop before the next
		 * check, whose files are then cleaned up as always */
		if (fflush(f) && errno == EPIPE)
			return -1;
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
	return bad;
}

/* ---- the run ------------------------------------------------------------ */

/* The folder for every run's files: --workdir, else a temporary one (true:
 * remove it at the end). */
static bool make_workdir(const char *workdir, struct gsu_results *r)
{
	const char *td = getenv("TMPDIR");

	if (workdir) {
		if (mkdir(workdir, 0755) && errno != EEXIST)
			gs_die(EXIT_RUNTIME, "cannot create %s: %s", workdir,
			       strerror(errno));
		gs_strlcpy(r->workdir, workdir, sizeof(r->workdir));
		return false;
	}
	snprintf(r->workdir, sizeof(r->workdir), "%s/gamesuite.XXXXXX",
		 td && *td ? td : "/tmp");
	if (!mkdtemp(r->workdir))
		gs_die(EXIT_RUNTIME, "cannot create a temporary folder in %s: %s",
		       td ? td : "/tmp", strerror(errno));
	return true;
}

/* Runs the suite and writes the table, --json and --html; returns the exit
 * status. */
static int run_and_report(const struct cli *cli, struct gsu_results *r,
			  struct gsu_table *t)
{
	bool tmpdir = make_workdir(cli->run.workdir, r);
	int rc;

	gsu_install_signal_handlers();
	gsu_run_suite(r, cli->quiet ? NULL : stderr);
	if (gsu_table_build(r, t))
		gs_die(EXIT_RUNTIME, "out of memory");
	gsu_out_text(stdout, r, t);
	fflush(stdout);
	rc = gsu_exit_status(r);
	if (cli->json && gsu_out_json(cli->json, r, t))
		rc = EXIT_RUNTIME;
	if (cli->html && gsu_out_html(cli->html, r, t))
		rc = EXIT_RUNTIME;
	if (r->interrupted)
		gs_warn("interrupted by signal %d: wrote what was measured so "
			"far", (int)gsu_stop_signal);
	if (tmpdir)
		gs_remove_tree(r->workdir);
	return rc;
}

int main(int argc, char **argv)
{
	/* static: what early exits leave allocated stays reachable */
	static struct gsu_suite suite;
	static struct gsu_results r;
	static struct gsu_table t;
	struct cli cli;
	int rc = EXIT_OK;

	gs_set_prog(argv[0]);
	if (argc >= 2 && !strcmp(argv[1], "tune"))
		return gsu_tune_main(argc, argv);	/* tune.c */
	parse_command_line(argc, argv, &cli, &r);
	load_suite(&cli, &suite, &r);
	unique_labels(&r);
	gsu_prepare(&r);

	if (cli.check || cli.dry_run) {
		/* a workload that refuses its invocation would fail every
		 * run: the check fails (exit 2) */
		int bad;

		/* a closed pipe is an error return, not a death in the
		 * middle of a check that leaves its folder behind */
		signal(SIGPIPE, SIG_IGN);
		bad = print_plan(stdout, &r);
		rc = bad < 0 ? EXIT_RUNTIME : bad ? EXIT_USAGE : EXIT_OK;
	} else {
		if (!r.nsched)
			gs_die(EXIT_USAGE, "no --sched given (e.g. --sched eevdf "
			       "--sched lavd)");
		rc = run_and_report(&cli, &r, &t);
	}

	gsu_table_free(&t);
	gsu_results_free_runs(&r);
	for (int s = 0; s < r.nsched; s++)
		gsu_sched_free(&r.sched[s]);
	free(r.sched);
	gsu_suite_free(&suite);
	return rc;
}
