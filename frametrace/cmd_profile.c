// SPDX-License-Identifier: GPL-2.0-only
/* frametrace profile: a workload profile that replays a recorded game's
 * scheduling shape (the analysis: profile_*.c; the text: profile_write.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ftutil.h"
#include "import.h"
#include "model.h"
#include "present.h"
#include "profile_roles.h"
#include "profile_write.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace profile -o OUT.profile [options] TRACE\n"
		"  A framebench profile that reproduces the trace's scheduling\n"
		"  shape: its stages, job pool, services, periodic tasks and\n"
		"  locks, with the CPU work per frame the trace shows.\n"
		"  -o, --output OUT   the profile to write (whole or not at all)\n"
		"  --pid PID          the game's process (default: the one with\n"
		"                     the most frames)\n"
		"  --frames A..B      only frames A to B (0-based, of that process)\n"
		"  --name NAME        the profile's name (default: from OUT)\n"
		"  --step-cost DUR    framebench's own CPU per step, taken off\n"
		"                     each work (default: measured on the trace;\n"
		"                     0 maps CPU to work as it is)\n"
		"Exit status: 0 written, 1 not written (I/O), 2 bad usage or a\n"
		"trace that gives no profile (the message says what is missing).\n");
}

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

int ft_cmd_profile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "frames", required_argument, NULL, 'f' },
		{ "name", required_argument, NULL, 'n' },
		{ "step-cost", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ft_pr_opts po = { .step_ns = -1 };
	const char *outp = NULL, *name_arg = NULL;
	char err[1024], name[PR_NAME];
	struct ft_trace t;
	struct ft_model m;
	struct ft_pr_analysis a;
	char *text = NULL;
	size_t len = 0;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outp = ft_opt_path("-o", optarg); break;
		case 'p': po.pid = (uint32_t)gs_opt_u64("--pid", optarg, 1, UINT32_MAX); break;
		case 'f': parse_frames(optarg, &po); break;
		case 'n': name_arg = optarg; break;
		case 's':
			po.step_ns = (int64_t)gs_opt_duration_ns("--step-cost", optarg,
								 1000, 0, 1000000);
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: gs_die_bad_option(c, argv);
		}
	}
	if (!gs_operands(argc, argv, 1) || !outp) {
		usage(stderr);
		return EXIT_USAGE;
	}
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
	rc = ft_pr_analyze(&a, &m, &po, err, sizeof(err));
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
