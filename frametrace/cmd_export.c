// SPDX-License-Identifier: GPL-2.0-only
/* frametrace export: a trace as Perfetto's ftrace text or JSON (export.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "export/export.h"
#include "trace/ftutil.h"
#include "import/import.h"
#include "opttab.h"
#include "util.h"

struct opts {
	const char *out;
	bool json, out_operand;
	uint64_t max_flows;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct opts defaults = { .max_flows = 50000 };

static const struct gs_opt specs[] = {
	/* "--perfetto --json OUT IN" too: parse_perfetto */
	{ "perfetto", 0, "OUT", GS_OPT_SPECIAL,
	  .help = "write ftrace text for Perfetto to OUT ('-': stdout)" },
	{ "json", 0, NULL, GS_OPT_SET, FIELD(json),
	  .help = "write Perfetto's JSON form instead" },
	{ "max-flows", 0, "N", GS_OPT_U64, FIELD(max_flows), 0, 100000000,
	  .show_default = true,
	  .help = "--json: at most N wake-up flow arrows" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace export --perfetto OUT [--json] [--max-flows N] INPUT\n"
	"       frametrace export --perfetto --json OUT INPUT\n"
	"  Writes ftrace text for Perfetto (ui.perfetto.dev): per-CPU\n"
	"  scheduling, thread states, wake-ups, frames as slices and a\n"
	"  frame-time counter. --json writes the JSON form: the same text\n"
	"  as systemTraceEvents plus flow arrows for wake-ups (default at\n"
	"  most 50000).\n\n",
	"", &defaults, 20,
};

/* --perfetto, the only GS_OPT_SPECIAL option */
static void parse_perfetto(const struct gs_opt *s, const char *arg, void *base)
{
	struct opts *o = base;

	(void)s;
	/* "--perfetto --json OUT IN": the format's flavour after its name,
	 * the output an operand */
	if (!strcmp(arg, "--json")) {
		o->json = o->out_operand = true;
		o->out = NULL;
	} else {
		o->out = ft_opt_path("--perfetto", arg);
		o->out_operand = false;
	}
}

int ft_cmd_export(int argc, char **argv)
{
	struct opts o = defaults;
	struct ft_trace t;
	const char *out;
	char err[1024];
	int rc;
	FILE *f;

	optind = 1;
	gs_opt_parse(&table, &o, argc, argv, parse_perfetto);
	out = o.out;
	if (o.out_operand) {
		if (!gs_operands(argc, argv, 2)) {
			gs_opt_usage(&table, stderr);
			return EXIT_USAGE;
		}
		out = ft_opt_path("--perfetto", argv[optind++]);
	} else if (!gs_operands(argc, argv, 1) || !out) {
		gs_opt_usage(&table, stderr);
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
	rc = o.json ? ft_export_json(f, &t, o.max_flows) : ft_export_ftrace(f, &t);
	if (f != stdout && fclose(f))
		rc = -1;
	ft_trace_free(&t);
	if (rc)
		gs_die(EXIT_RUNTIME, "%s: write failed: %s", out,
		       strerror(errno ? errno : EIO));
	return EXIT_OK;
}
