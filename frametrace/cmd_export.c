// SPDX-License-Identifier: GPL-2.0-only
/* frametrace export: a trace as Perfetto's ftrace text or JSON (export.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ftutil.h"
#include "export.h"
#include "ftutil.h"
#include "import.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace export --perfetto OUT [--json] [--max-flows N] INPUT\n"
		"       frametrace export --perfetto --json OUT INPUT\n"
		"  Writes ftrace text for Perfetto (ui.perfetto.dev): per-CPU\n"
		"  scheduling, thread states, wake-ups, frames as slices and a\n"
		"  frame-time counter. --json writes the JSON form: the same text\n"
		"  as systemTraceEvents plus flow arrows for wake-ups (default at\n"
		"  most 50000).\n");
}

int ft_cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "max-flows", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	bool json = false, out_operand = false;
	uint64_t max_flows = 50000;
	struct ft_trace t;
	char err[1024];
	int c, rc;
	FILE *f;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			/* "--perfetto --json OUT IN": the format's flavour
			 * after its name, the output an operand */
			if (!strcmp(optarg, "--json")) {
				json = out_operand = true;
				out = NULL;
			} else {
				out = ft_opt_path("--perfetto", optarg);
				out_operand = false;
			}
			break;
		case 'j': json = true; break;
		case 'm': max_flows = gs_opt_u64("--max-flows", optarg, 0, 100000000); break;
		case 'h': usage(stdout); return EXIT_OK;
		default: gs_die_bad_option(c, argv);
		}
	}
	if (out_operand) {
		if (!gs_operands(argc, argv, 2)) {
			usage(stderr);
			return EXIT_USAGE;
		}
		out = ft_opt_path("--perfetto", argv[optind++]);
	} else if (!gs_operands(argc, argv, 1) || !out) {
		usage(stderr);
		return EXIT_USAGE;
	}
	ft_refuse_same_file(argv[optind], out, "--perfetto");
	rc = ft_load(argv[optind], &t, err, sizeof(err));
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	if (rc > 0)
		gs_warn("warning: %s", t.warning);
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		/* an output that cannot be written is an I/O error, as for
		 * import; bad input is exit 2 */
		ft_trace_free(&t);
		gs_die(EXIT_RUNTIME, "%s: %s", out, strerror(errno));
	}
	rc = json ? ft_export_json(f, &t, max_flows) : ft_export_ftrace(f, &t);
	if (f != stdout && fclose(f))
		rc = -1;
	ft_trace_free(&t);
	if (rc)
		gs_die(EXIT_RUNTIME, "%s: write failed: %s", out,
		       strerror(errno ? errno : EIO));
	return EXIT_OK;
}
