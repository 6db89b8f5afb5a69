// SPDX-License-Identifier: GPL-2.0-only
/* frametrace profile: a workload profile that replays a recorded game's
 * scheduling shape (the analysis: profile_*.c; the text: profile_write.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "import/import.h"
#include "analysis/model.h"
#include "opttab.h"
#include "trace/present.h"
#include "profile/pipeline.h"
#include "profile/profile_write.h"
#include "util.h"

static void parse_frames(const char *arg, struct ft_pr_opts *o)
{
	const char *dots = arg ? strstr(arg, "..") : NULL;
	char a[32];
	uint64_t x, y;

	if (!dots || (size_t)(dots - arg) >= sizeof(a))
		gs_die(EXIT_USAGE, "option --frames: expected A..B (frame "
		       "indices), got '%s'", arg ? arg : "");
	memcpy(a, arg, (size_t)(dots - arg));
	a[dots - arg] = '\0';
	if (gs_parse_u64(a, 0, UINT32_MAX, &x) ||
	    gs_parse_u64(dots + 2, 0, UINT32_MAX, &y) || y < x)
		gs_die(EXIT_USAGE, "option --frames: expected A..B with A <= B "
		       "(frame indices), got '%s'", arg);
	o->window = true;
	o->first = (size_t)x;
	o->last = (size_t)y;
}

/* The profile's name from OUT: its file name without .profile. */
static void name_from(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	char tmp[PR_NAME], *dot;

	gs_strlcpy(tmp, base ? base + 1 : path, sizeof(tmp));
	dot = strstr(tmp, ".profile");
	if (dot)
		*dot = '\0';
	ft_pf_name(tmp, name, len);
}

struct opts {
	struct ft_pr_opts po;
	const char *out, *name;
	uint64_t pid;
};

enum { ID_OUTPUT = 1, ID_FRAMES, ID_STEP_COST };

#define FIELD(f) offsetof(struct opts, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)

static const struct gs_opt specs[] = {
	{ "output", 'o', "OUT", SPECIAL(ID_OUTPUT), .field = FIELD(out),
	  .help = "the profile to write (whole or not at all)" },
	{ "pid", 0, "PID", GS_OPT_U64, FIELD(pid), 1, UINT32_MAX,
	  .help = "the game's process (default: the one with\n"
		  "the most frames)" },
	{ "frames", 0, "A..B", SPECIAL(ID_FRAMES),
	  .help = "only frames A to B (0-based, of that process)" },
	/* checked once parsed: ft_pf_name */
	{ "name", 0, "NAME", GS_OPT_STRING, FIELD(name),
	  .help = "the profile's name (default: from OUT)" },
	{ "step-cost", 0, "DUR", SPECIAL(ID_STEP_COST),
	  .help = "framebench's own CPU per step, taken off\n"
		  "each work (default: measured on the trace;\n"
		  "0 maps CPU to work as it is)" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace profile -o OUT.profile [options] TRACE\n"
	"  A framebench profile that reproduces the trace's scheduling\n"
	"  shape: its stages, job pool, services, periodic tasks and\n"
	"  locks, with the CPU work per frame the trace shows.\n",
	"Exit status: 0 written, 1 not written (I/O), 2 bad usage or a\n"
	"trace that gives no profile (the message says what is missing).\n",
	NULL, 21,
};

static void parse_special(const struct gs_opt *s, const char *arg, void *base)
{
	struct opts *o = base;

	switch (s->id) {
	case ID_OUTPUT:
		ft_opt_path_field(s, arg, base);
		break;
	case ID_FRAMES:
		parse_frames(arg, &o->po);
		break;
	case ID_STEP_COST:
		o->po.step_ns = (int64_t)gs_opt_duration_ns("--step-cost", arg,
							    1000, 0, 1000000);
		break;
	}
}

int ft_cmd_profile(int argc, char **argv)
{
	struct opts o = { .po = { .step_ns = -1 } };
	const char *outp, *name_arg;
	char err[1024], name[PR_NAME];
	struct ft_trace t;
	struct ft_model m;
	struct ft_pr_analysis a;
	char *text = NULL;
	size_t len = 0;
	int rc;

	optind = 1;
	gs_opt_parse(&table, &o, argc, argv, parse_special);
	if (!gs_operands(argc, argv, 1) || !o.out) {
		gs_opt_usage(&table, stderr);
		return EXIT_USAGE;
	}
	outp = o.out;
	name_arg = o.name;
	o.po.pid = (uint32_t)o.pid;
	ft_refuse_same_file(argv[optind], outp, "-o");
	if (name_arg) {
		ft_pf_name(name_arg, name, sizeof(name));
		if (strcmp(name, name_arg))
			gs_die(EXIT_USAGE, "option --name: expected 1-31 letters, "
			       "digits, '_', '-' or '.', got '%s'", name_arg);
	} else {
		name_from(outp, name, sizeof(name));
	}
	rc = ft_load(argv[optind], &t, err, sizeof(err));
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	ft_load_warn(&t, rc);
	if (ft_model_build(&m, &t))
		gs_die(EXIT_RUNTIME, "out of memory building the timeline");
	rc = ft_pr_analyze(&a, &m, &o.po, err, sizeof(err));
	if (rc == -2)
		gs_die(EXIT_RUNTIME, "out of memory analysing %s", argv[optind]);
	if (rc)
		gs_die(EXIT_USAGE, "%s: %s; no profile written", argv[optind], err);
	rc = ft_pr_profile_text(&a, argv[optind], name, &text, &len, err, sizeof(err));
	if (rc == -2)
		gs_die(EXIT_RUNTIME, "out of memory");
	if (rc)
		gs_die(EXIT_RUNTIME, "the derived profile fails framebench's check "
		       "(%s); no profile written", err);
	if (ft_pr_write_atomic(outp, text, len, err, sizeof(err)))
		gs_die(EXIT_RUNTIME, "%s", err);
	if (a.other_procs)
		gs_warn("%u other process%s in %s %s frames; the one with the "
			"most is used (--pid chooses)", a.other_procs,
			a.other_procs == 1 ? "" : "es", argv[optind],
			a.other_procs == 1 ? "has" : "have");
	fprintf(stderr, "frametrace profile: %zu frames of %s (%u), p50 %.2f ms, "
		"%s -> %s: %u stage%s", a.nf, ft_task_comm(&t, a.pid), a.pid,
		a.ft.p50 / 1e6, a.fps ? "vsync-capped" : "uncapped", outp,
		a.nstages, a.nstages == 1 ? "" : "s");
	for (unsigned k = 0; k < a.nstages; k++)
		fprintf(stderr, "%s%s", k ? ", " : " (", a.stage[k].name);
	{
		unsigned nl = 0;

		for (unsigned k = 0; k < a.nlocks; k++)
			nl += a.lock[k].where[0] != '\0';
		fprintf(stderr, "), pool %u, services %u, periodic %d, locks %u\n",
			ft_pr_pool_used(&a) ? a.npool : 0, a.nsvc,
			a.per[0].on + a.per[1].on + a.per[2].on, nl);
	}
	free(text);
	ft_pr_free(&a);
	ft_model_free(&m);
	ft_trace_free(&t);
	return EXIT_OK;
}
