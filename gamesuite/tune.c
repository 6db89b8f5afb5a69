// SPDX-License-Identifier: GPL-2.0-only
/*
 * gamesuite tune (tune.h): the command line, the stages of the search and
 * the final comparison, all through the suite's runner (runner.c), so
 * runs are interleaved, checked for the right scheduler and for a quiet
 * machine, and Ctrl-C stops at once and unloads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opttab.h"
#include "outfile.h"
#include "proc.h"
#include "runner.h"
#include "runopts.h"
#include "stats.h"
#include "suite.h"
#include "tune.h"
#include "util.h"
#include "outfmt.h"
#include "workload.h"

/* The GS_OPT_SPECIAL options. */
enum { T_KNOB = 1, T_MATCH };

#define FIELD(f) offsetof(struct tune, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)

static const struct gs_opt specs[] = {
	{ "only", 0, "NAME", GS_OPT_STRING, FIELD(only),
	  .help = "with SUITE: the workload NAME of the suite file (any kind)" },
	{ "framebench", 0, "PROFILE", GS_OPT_STRING, FIELD(framebench),
	  .help = "a framebench workload (with --bg, default hogs:2)" },
	{ "bg", 0, "PATTERN", GS_OPT_APPEND, FIELD(bg),
	  .help = "framebench's background load (repeatable)" },
	{ "output", 'o', "FILE", GS_OPT_OUTPUT, FIELD(out),
	  .help = "the profile to write (required)" },
	{ "lavd", 0, "CMD", GS_OPT_STRING, FIELD(lavd),
	  .help = "lavd's command (default: lavd); candidates add\n"
		  "--game-profile FILE to it" },
	{ "ops", 0, "NAME", GS_OPT_STRING, FIELD(ops),
	  .help = "the sched_ext ops name it shows (default: its program)" },
	{ "knob", 0, "KEY=V1,V2,..", SPECIAL(T_KNOB),
	  .help = "a knob and the values to try (repeatable; default\n"
		  "lat-cri-boost=0,128,512 and slice-scale=50,100,200)" },
	{ "match", 0, "RULE", SPECIAL(T_MATCH),
	  .help = "the profile's match line, e.g. 'thread GameThread'\n"
		  "(repeatable; framebench default: comm of the\n"
		  "game's own process, from its --dump-plan)" },
	{ "name", 0, "NAME", GS_OPT_STRING, FIELD(name),
	  .help = "the profile's name (default tuned-WORKLOAD)" },
	{ "metric", 0, "NAME", GS_OPT_STRING, FIELD(metric_name),
	  .help = "what to improve (default low1_percentile_fps, else the\n"
		  "workload kind's first metric)" },
	{ "rounds", 0, "N", GS_OPT_INT, FIELD(rounds), 1, 20,
	  .help = "runs of each knob set in the first stage (1)" },
	{ "eta", 0, "N", GS_OPT_INT, FIELD(eta), 2, 8,
	  .help = "keep the best 1/N after each stage, which then has N\n"
		  "times the runs (3)" },
	{ "final-rounds", 0, "N", GS_OPT_INT, FIELD(final_rounds), 2, 100,
	  .help = "interleaved rounds of the best against the defaults (6)" },
	GSU_RUN_OPTS(struct tune, "as for gamesuite run"),
	{ "quiet", 'q', NULL, GS_OPT_SET, FIELD(quiet),
	  .help = "no progress lines" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: gamesuite tune (SUITE --only NAME | --framebench PROFILE) -o FILE [options]\n"
	"Searches lavd's game-profile knobs for one workload and writes the best set\n"
	"as a game profile whose comments hold the evidence (docs/gamesuite.md).\n"
	"\n",
	"\n"
	"Exit status: 0 done, 1 a run failed or interrupted (the best knob set\n"
	"measured so far is written, and says so), 2 bad usage.\n",
	NULL, 24, .command = "gamesuite tune",
};

static void parse_special(const struct gs_opt *s, const char *arg, void *base)
{
	struct tune *t = base;
	char err[300];

	if (s->id == T_KNOB) {
		if (t->nknob == TUNE_MAX_KNOBS)
			gs_die(EXIT_USAGE, "option --knob: at most %d knobs", TUNE_MAX_KNOBS);
		if (gsu_tune_parse_knob(arg, &t->knob[t->nknob++], err, sizeof(err)))
			gs_die(EXIT_USAGE, "option --knob: %s", err);
		return;
	}
	if (t->nmatch == TUNE_MAX_MATCH || strlen(arg) >= sizeof(t->match[0]) ||
	    strchr(arg, '\n') || !strchr(arg, ' '))
		gs_die(EXIT_USAGE, "option --match: expected 'KIND PATTERN' "
		       "(at most %d), got '%s'", TUNE_MAX_MATCH, arg);
	gs_strlcpy(t->match[t->nmatch++], arg, sizeof(t->match[0]));
}

static void parse(int argc, char **argv, struct tune *t)
{
	char err[600];

	optind = 2;
	gs_opt_parse(&table, t, argc, argv, parse_special);
	gsu_run_opts_check(&t->run);
	if (t->run.workdir)
		gs_strlcpy(t->workdir, t->run.workdir, sizeof(t->workdir));
	if (optind < argc)
		t->suite_path = argv[optind++];
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);
	if (!!t->suite_path == !!t->framebench)
		gs_die(EXIT_USAGE, "tune: give a SUITE file with --only NAME, or --framebench PROFILE");
	if (t->suite_path && !t->only)
		gs_die(EXIT_USAGE, "tune: SUITE needs --only NAME (one workload is tuned)");
	if (t->bg.n && !t->framebench)
		gs_die(EXIT_USAGE, "option --bg: with --framebench only (a suite says its own)");
	if (!t->out)
		gs_die(EXIT_USAGE, "tune: -o FILE is needed (the profile it writes)");
	/* before the search: a result that cannot be written is lost */
	if (t->suite_path)
		gs_refuse_same_file(NULL, t->suite_path, "-o", t->out);
	else if (strchr(t->framebench, '/') || strstr(t->framebench, ".profile"))
		gs_refuse_same_file("--framebench", t->framebench, "-o", t->out);
	if (gs_check_output(t->out, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option -o: %s", err);
	if (t->framebench && (!*t->framebench || strpbrk(t->framebench, " \t\n#\"")))
		gs_die(EXIT_USAGE, "option --framebench: expected a profile name or path, got '%s'",
		       t->framebench);
}

/* ---- the workload ---- */

/* A temporary working folder goes however tune ends: a refused --only or
 * --match exits through gs_die after it was made. */
static char tmp_workdir[sizeof(((struct tune *)0)->workdir)];
static pid_t tmp_owner;

static void remove_tmp_workdir(void)
{
	if (tmp_workdir[0] && getpid() == tmp_owner)
		gs_remove_tree(tmp_workdir);
}

static void make_workdir(struct tune *t)
{
	const char *td = getenv("TMPDIR");

	if (t->workdir[0]) {
		if (mkdir(t->workdir, 0755) && errno != EEXIST)
			gs_die(EXIT_RUNTIME, "cannot create %s: %s", t->workdir, strerror(errno));
		return;
	}
	snprintf(t->workdir, sizeof(t->workdir), "%s/gamesuite-tune.XXXXXX",
		 td && *td ? td : "/tmp");
	if (!mkdtemp(t->workdir))
		gs_die(EXIT_RUNTIME, "cannot create a temporary folder: %s", strerror(errno));
	gs_strlcpy(tmp_workdir, t->workdir, sizeof(tmp_workdir));
	tmp_owner = getpid();
	atexit(remove_tmp_workdir);
}

/*
 * The default match rule of a framebench workload: the game's own process
 * by its name, which framebench's plan says (`comm NAME`). Not its
 * executable: the background load and the helper processes are forks of
 * the same program, and a knob that favours the matched tasks
 * (weight-scale) would favour the hogs as much as the game.
 */
static void framebench_match(struct tune *t, const struct gsu_suite *su,
			     struct gsu_workload *w)
{
	char comm[16], why[400];
	char *plan = NULL;
	int rc;

	if (!gsu_workload_prepare(w))
		gs_die(EXIT_USAGE, "tune: %s: give --match RULE", w->skip_reason);
	rc = gsu_framebench_plan(su, w, &plan, why, sizeof(why));
	if (!rc && (rc = gsu_tune_plan_game_comm(plan, w->resolved, comm, sizeof(comm))))
		snprintf(why, sizeof(why), "no process line in it");
	if (rc) {
		free(plan);
		gs_die(EXIT_USAGE, "tune: workload %s: framebench's plan does not say the "
		       "game's process (%s); give --match RULE", w->name, why);
	}
	free(plan);
	snprintf(t->match[t->nmatch++], sizeof(t->match[0]),
		 strpbrk(comm, " #") ? "comm \"%s\"" : "comm %s", comm);
}

/* --framebench PROFILE is a suite of one workload, written and parsed. */
static void load_workload(struct tune *t, struct gsu_suite *su)
{
	char path[700], err[700];
	const char *only = t->only;

	if (t->framebench) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/tune.suite", t->workdir);
		if (!(f = fopen(path, "w")))
			gs_die(EXIT_RUNTIME, "cannot write %s: %s", path, strerror(errno));
		fprintf(f, "name tune\nrepeat 1\nwarmup 0\nseed 1\nworkload tuned\n"
			"  kind framebench\n  profile %s\n", t->framebench);
		for (int i = 0; i < t->bg.n; i++)
			fprintf(f, "  bg %s\n", t->bg.v[i]);
		if (!t->bg.n)
			fprintf(f, "  bg hogs:2\n");
		fclose(f);
		only = "tuned";
	} else {
		gs_strlcpy(path, t->suite_path, sizeof(path));
	}
	if (gsu_suite_load(path, su, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	if (gsu_suite_keep(su, &only, 1, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option --only: %s", err);
	gsu_run_opts_apply(&t->run, su);
}

static void pick_metric(struct tune *t, const struct gsu_workload *w)
{
	const struct gsu_metric_def *defs;
	size_t nm = gsu_kind_metrics(w->kind, &defs);
	const char *want = t->metric_name ? t->metric_name : "low1_percentile_fps";

	for (size_t m = 0; m < nm; m++)
		if (!strcmp(defs[m].name, want) && !defs[m].informational) {
			t->metric = (int)m;
			t->metric_name = defs[m].name;
			t->higher_better = defs[m].higher_better;
			return;
		}
	if (t->metric_name) {
		char list[600];
		size_t off = 0;

		for (size_t m = 0; m < nm && off < sizeof(list); m++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
						m ? ", " : "", defs[m].name);
		gs_die(EXIT_USAGE, "option --metric: '%s' is not a metric of %s "
		       "workloads (%s)", t->metric_name, gsu_kind_name(w->kind), list);
	}
	t->metric = 0;
	t->metric_name = defs[0].name;
	t->higher_better = defs[0].higher_better;
}

/* ---- one stage: lavd's defaults and some candidates, interleaved ---- */

struct stage_out {
	double median[TUNE_MAX_CANDS + 1];
	int n[TUNE_MAX_CANDS + 1];
	struct gsu_cell base, final;	/* the defaults; idx[0] against them */
	double *values[2];		/* defaults', idx[0]'s (final only) */
	size_t nvalues[2];
	bool interrupted, failed;
};

static int add_sched(struct gsu_results *r, const struct tune *t, const char *cmd,
		     const char *label)
{
	struct gsu_sched *s = &r->sched[r->nsched];
	char err[600];

	if (gsu_sched_init(s, cmd, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option --lavd: %s", err);
	gs_strlcpy(s->label, label, sizeof(s->label));
	if (t->ops) {
		gs_strlcpy(s->expected_ops, t->ops, sizeof(s->expected_ops));
		s->ops_given = true;
	}
	r->nsched++;
	return 0;
}

static double *copy_values(const struct gsu_cell *c, size_t *n)
{
	double *v = malloc((c->n + 1) * sizeof(*v));

	*n = 0;
	if (v && c->n) {
		memcpy(v, c->values, c->n * sizeof(*v));
		*n = c->n;
	}
	return v;
}

static void run_stage(const struct tune *t, struct gsu_suite *su,
		      const struct gsu_settings *set, const int *idx, int n,
		      int rounds, const char *dir, struct stage_out *o)
{
	static struct gsu_results r;
	static struct gsu_table tab;
	char cmd[1200], label[32];

	memset(o, 0, sizeof(*o));
	memset(&r, 0, sizeof(r));
	memset(&tab, 0, sizeof(tab));
	su->repeat = rounds;
	su->warmup = 0;
	r.set = *set;
	r.sched = calloc((size_t)n + 1, sizeof(*r.sched));
	if (!r.sched)
		gs_die(EXIT_RUNTIME, "out of memory");
	add_sched(&r, t, t->lavd, "defaults");
	for (int i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "%s --game-profile '%s'", t->lavd,
			 t->cand[idx[i]].path);
		snprintf(label, sizeof(label), "tune-%d", idx[i] + 1);
		add_sched(&r, t, cmd, label);
	}
	r.suite = su;
	/* each stage's runs in a folder of their own (run numbers restart) */
	snprintf(r.workdir, sizeof(r.workdir), "%s/%s", t->workdir, dir);
	if (mkdir(r.workdir, 0755) && errno != EEXIST)
		gs_die(EXIT_RUNTIME, "cannot create %s: %s", r.workdir, strerror(errno));
	gsu_prepare(&r);
	for (int s = 0; s < r.nsched; s++)
		if (r.sched[s].status != GSU_SCHED_OK) {
			gs_warn("tune: %s: %s", r.sched[s].label, r.sched[s].note);
			o->failed = true;
		}
	if (!su->w[0].available) {
		gs_warn("tune: workload %s: %s", su->w[0].name, su->w[0].skip_reason);
		o->failed = true;
	}
	if (!o->failed) {
		gsu_run_suite(&r, t->quiet ? NULL : stderr);
		o->interrupted = r.interrupted;
		o->failed = gsu_exit_status(&r) != EXIT_OK && !r.interrupted;
		if (gsu_table_build(&r, &tab))
			gs_die(EXIT_RUNTIME, "out of memory");
		for (int s = 0; s < r.nsched; s++) {
			struct gsu_cell *c = gsu_table_cell(&tab, 0, t->metric, s);

			o->median[s] = c->median;
			o->n[s] = (int)c->n;
		}
		if (r.nsched == 2) {
			o->base = *gsu_table_cell(&tab, 0, t->metric, 0);
			o->base.values = NULL;
			o->final = *gsu_table_cell(&tab, 0, t->metric, 1);
			o->values[0] = copy_values(gsu_table_cell(&tab, 0, t->metric, 0),
						   &o->nvalues[0]);
			o->values[1] = copy_values(gsu_table_cell(&tab, 0, t->metric, 1),
						   &o->nvalues[1]);
			o->final.values = NULL;
		}
		gsu_table_free(&tab);
	}
	gsu_results_free_runs(&r);
	for (int s = 0; s < r.nsched; s++)
		gsu_sched_free(&r.sched[s]);
	free(r.sched);
}

/* LAVD --check with args, before any run: 0, or -1 with lavd's complaint */
static int lavd_check(const struct tune *t, char **args, int nargs, char *why,
		      size_t whylen)
{
	char **w = NULL, **argv, prog[4096], log[sizeof(t->workdir) + 16];
	int n = 0, k = 0, rc;

	if (gsu_split_words(t->lavd, &w, &n, why, whylen) || !n)
		gs_die(EXIT_USAGE, "option --lavd: '%s': %s", t->lavd,
		       n ? why : "an empty command");
	if (gsu_resolve(w[0], prog, sizeof(prog)))
		gs_die(EXIT_USAGE, "option --lavd: '%s': no such program", w[0]);
	argv = calloc((size_t)(n + nargs + 2), sizeof(*argv));
	if (!argv)
		gs_die(EXIT_RUNTIME, "out of memory");
	argv[k++] = prog;
	for (int i = 1; i < n; i++)
		argv[k++] = w[i];
	argv[k++] = "--check";
	for (int i = 0; i < nargs; i++)
		argv[k++] = args[i];
	snprintf(log, sizeof(log), "%s/check.log", t->workdir);
	rc = gsu_run_check(argv, log, why, whylen);
	free(argv);
	gsu_free_words(w);
	return rc;
}

/*
 * Every knob set, and the profile tune writes at the end (its --name, the
 * match rules), through lavd's own check before anything runs: a misspelt
 * knob, a value out of range or a bad --match exits 2 at once instead of
 * after the defaults' runs.
 */
static void check_profiles(struct tune *t)
{
	char *args[2 * TUNE_MAX_CANDS], why[600], final[sizeof(t->cand[0].path)];

	for (int c = 0; c < t->ncand; c++) {
		args[2 * c] = "--game-profile";
		args[2 * c + 1] = t->cand[c].path;
	}
	if (lavd_check(t, args, 2 * t->ncand, why, sizeof(why)))
		gs_die(EXIT_USAGE, "tune: lavd --check refuses a knob set (--knob, "
		       "--match): %s", why);
	snprintf(final, sizeof(final), "%s/final-check.conf", t->workdir);
	if (gsu_tune_write_cand(t, 0, t->name, final))
		gs_die(EXIT_RUNTIME, "cannot write %s: %s", final, strerror(errno));
	args[1] = final;
	if (lavd_check(t, args, 2, why, sizeof(why)))
		gs_die(EXIT_USAGE, "tune: lavd --check refuses the profile's name "
		       "(--name): %s", why);
	remove(final);
}

/* better(a, b): a's median beats b's (a measured one beats an unmeasured) */
static bool better(const struct tune *t, double a, double b)
{
	if (isnan(a))
		return false;
	if (isnan(b))
		return true;
	return t->higher_better ? a > b : a < b;
}

static void print_stage(const struct tune *t, int s, const int *idx, int n,
			const struct stage_out *o)
{
	char desc[400];

	if (t->quiet)
		return;
	fprintf(stderr, "tune: stage %d: lavd's defaults %s %.4g (n %d)\n", s + 1,
		t->metric_name, o->median[0], o->n[0]);
	for (int i = 0; i < n; i++) {
		const struct gsu_tune_cand *c = &t->cand[idx[i]];

		gsu_tune_cand_desc(t, idx[i], desc, sizeof(desc));
		/* idx is in ranking order now; o in the order the runs had */
		fprintf(stderr, "  tune-%-3d %-40s %.4g (n %d, %.3fx the defaults) %s\n",
			idx[i] + 1, desc, c->median[s], c->n[s],
			o->median[0] ? c->median[s] / o->median[0] : NAN,
			c->alive ? "kept" : "dropped");
	}
}

/* The stages: returns false when interrupted or failed. */
static bool search(struct tune *t, struct gsu_suite *su, const struct gsu_settings *set)
{
	int idx[TUNE_MAX_CANDS], n = t->ncand, rounds = t->rounds;
	struct stage_out o;
	char dir[32];

	for (int i = 0; i < n; i++)
		idx[i] = i;
	t->best = 0;
	while (n > 1 && t->nstage < TUNE_MAX_STAGES) {
		int s = t->nstage++, keep = (n + t->eta - 1) / t->eta;

		if (!t->quiet)
			fprintf(stderr, "tune: stage %d: %d knob sets x %d round%s, interleaved "
				"with lavd's defaults (%d runs)\n", s + 1, n, rounds,
				rounds == 1 ? "" : "s", (n + 1) * rounds);
		snprintf(dir, sizeof(dir), "stage-%d", s + 1);
		run_stage(t, su, set, idx, n, rounds, dir, &o);
		t->stage[s] = (struct gsu_tune_stage){ n, rounds, o.median[0], o.n[0], o.interrupted };
		for (int i = 0; i < n; i++) {
			t->cand[idx[i]].median[s] = o.median[i + 1];
			t->cand[idx[i]].n[s] = o.n[i + 1];
		}
		/* rank: the best first (insertion sort, n <= 64) */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && better(t, t->cand[idx[j]].median[s],
						     t->cand[idx[j - 1]].median[s]); j--) {
				int x = idx[j];

				idx[j] = idx[j - 1];
				idx[j - 1] = x;
			}
		t->best = idx[0];
		if (o.interrupted || o.failed) {
			print_stage(t, s, idx, n, &o);
			return false;
		}
		for (int i = keep; i < n; i++) {
			t->cand[idx[i]].alive = false;
			t->cand[idx[i]].stage_out = s;
		}
		print_stage(t, s, idx, n, &o);
		n = keep;
		rounds *= t->eta;
	}
	return true;
}

static bool final_round(struct tune *t, struct gsu_suite *su, const struct gsu_settings *set)
{
	struct gsu_tune_final *fi = &t->final;
	struct stage_out o;

	if (!t->quiet)
		fprintf(stderr, "tune: final: tune-%d against lavd's defaults, %d interleaved "
			"rounds\n", t->best + 1, t->final_rounds);
	su->confidence = su->confidence ? su->confidence : 0.95;
	run_stage(t, su, set, &t->best, 1, t->final_rounds, "final", &o);
	fi->rounds = t->final_rounds;
	fi->interrupted = o.interrupted;
	fi->done = !o.failed && o.n[0] && o.n[1];
	fi->n[0] = o.n[0];
	fi->n[1] = o.n[1];
	fi->median[0] = o.median[0];
	fi->median[1] = o.median[1];
	fi->ratio = o.final.ratio;
	fi->ratio_lo = o.final.ratio_lo;
	fi->ratio_hi = o.final.ratio_hi;
	fi->p = o.final.p_value;
	fi->verdict = o.final.verdict;
	fi->welch_t = gs_welch_t(o.values[0], o.nvalues[0], o.values[1], o.nvalues[1]);
	/* each median's bootstrap interval */
	fi->lo[0] = o.base.lo;
	fi->hi[0] = o.base.hi;
	fi->lo[1] = o.final.lo;
	fi->hi[1] = o.final.hi;
	free(o.values[0]);
	free(o.values[1]);
	return fi->done && !fi->interrupted;
}

static double epoch(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int gsu_tune_main(int argc, char **argv)
{
	static struct tune t;
	static struct gsu_suite su;
	char err[300], desc[560];
	bool ok;
	int rc = EXIT_OK;

	gsu_run_opts_init(&t.run);
	t.lavd = "lavd";
	t.rounds = 1;
	t.eta = 3;
	t.final_rounds = 6;
	parse(argc, argv, &t);
	if (!t.nknob) {
		gsu_tune_parse_knob("lat-cri-boost=0,128,512", &t.knob[t.nknob++], err, sizeof(err));
		gsu_tune_parse_knob("slice-scale=50,100,200", &t.knob[t.nknob++], err, sizeof(err));
	}
	if (gsu_tune_make_grid(&t, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option --knob: %s", err);
	make_workdir(&t);
	load_workload(&t, &su);
	t.run.set.confidence = su.confidence;
	pick_metric(&t, &su.w[0]);
	if (!t.nmatch && su.w[0].kind == GSU_FRAMEBENCH)
		framebench_match(&t, &su, &su.w[0]);
	if (!t.nmatch)
		gs_die(EXIT_USAGE, "tune: --match RULE is needed: which process the profile "
		       "is for (e.g. --match 'comm Game.exe')");
	if (!t.name) {
		static char nm[64];

		/* at most 31 characters, as lavd's profile names */
		snprintf(nm, 32, "tuned-%s", t.framebench ? t.framebench : t.only);
		for (char *c = nm; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
				*c = '-';
		t.name = nm;
	}
	for (int c = 0; c < t.ncand; c++) {
		snprintf(t.cand[c].path, sizeof(t.cand[c].path), "%s/tune-%d.conf",
			 t.workdir, c + 1);
		if (gsu_tune_write_cand(&t, c, NULL, t.cand[c].path))
			gs_die(EXIT_RUNTIME, "cannot write %s: %s", t.cand[c].path, strerror(errno));
	}
	check_profiles(&t);
	gsu_describe_workload(&su, &su.w[0], desc, sizeof(desc));
	snprintf(t.workload_desc, sizeof(t.workload_desc), "%s: %s", su.w[0].name, desc);
	if (!t.quiet) {
		fprintf(stderr, "tune: %s; %d knob sets; metric %s; for", t.workload_desc,
			t.ncand, t.metric_name);
		for (int i = 0; i < t.nmatch; i++)
			fprintf(stderr, "%s match %s", i ? "," : "", t.match[i]);
		fputc('\n', stderr);
	}
	gsu_install_signal_handlers();
	t.started = epoch();
	ok = search(&t, &su, &t.run.set);
	if (ok)
		ok = final_round(&t, &su, &t.run.set);
	t.ended = epoch();
	if (gsu_stop_signal)
		rc = EXIT_RUNTIME;
	if ((t.nstage && (!t.cand[t.best].n[t.nstage - 1] ||
			  isnan(t.cand[t.best].median[t.nstage - 1]))) ||
	    (!t.nstage && !t.final.done)) {
		gs_warn("tune: nothing was measured; no profile written");
		rc = EXIT_RUNTIME;
	} else if (gsu_tune_write_profile(&t, t.out)) {
		rc = EXIT_RUNTIME; /* warned: kept in another file, or lost */
	} else {
		gsu_tune_cand_desc(&t, t.best, desc, sizeof(desc));
		printf("tune: wrote %s: %s%s\n", t.out, desc[0] ? desc : "(no knobs)",
		       gsu_stop_signal ? " (interrupted: the best measured so far)" : "");
		if (t.final.done)
			printf("tune: against lavd's defaults: %s %.4g vs %.4g, ratio %.3f "
			       "[%.3f, %.3f], Welch t %.2f: %s\n", t.metric_name,
			       t.final.median[1], t.final.median[0], t.final.ratio,
			       t.final.ratio_lo, t.final.ratio_hi, t.final.welch_t,
			       gsu_verdict_name(t.final.verdict));
	}
	if (!ok && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	if (gsu_stop_signal)
		gs_warn("interrupted by signal %d: wrote the best knob set measured so far",
			(int)gsu_stop_signal);
	free(t.bg.v);
	gsu_suite_free(&su);
	return rc;
}
