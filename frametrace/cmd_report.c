// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report FILE [--json] [--html OUT] [--dot OUT] */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "import/import.h"
#include "opttab.h"
#include "export/report.h"
#include "util.h"

struct opts {
	const char *html, *dot, *out;
	uint64_t top, explain, pid;
	double slow_ms;
	bool json, quiet;
};

#define FIELD(f) offsetof(struct opts, f)
/* a file name, checked (ft_opt_path_field) */
#define PATH(f) .type = GS_OPT_SPECIAL, .field = FIELD(f)

static const struct opts defaults = { .top = 15, .explain = 5 };

static const struct gs_opt specs[] = {
	{ "json", 0, NULL, GS_OPT_SET, FIELD(json),
	  .help = "machine-readable report on stdout (or -o)" },
	{ "html", 0, "OUT", PATH(html),
	  .help = "self-contained HTML page with plots" },
	{ "dot", 0, "OUT", PATH(dot),
	  .help = "waker -> wakee graph for Graphviz" },
	{ "output", 'o', "OUT", PATH(out),
	  .help = "write the text/JSON report to OUT" },
	{ "top", 0, "N", GS_OPT_U64, FIELD(top), 1, 100000,
	  .show_default = true,
	  .help = "rows per table" },
	/* 0: the report's own threshold */
	{ "slow-ms", 0, "X", GS_OPT_NUMBER, FIELD(slow_ms), 0.001, 1e7,
	  .help = "slow-frame threshold (default 2x median)" },
	{ "explain", 0, "N", GS_OPT_U64, FIELD(explain), 0, 1000,
	  .show_default = true,
	  .help = "slow frames to explain" },
	{ "pid", 0, "PID", GS_OPT_U64, FIELD(pid), 1, UINT32_MAX,
	  .help = "frames of this process (default: most frames)" },
	{ "quiet", 'q', NULL, GS_OPT_SET, FIELD(quiet),
	  .help = "no text report (with --html/--dot)" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace report [options] FILE\n"
	"  FILE: a trace (record, watch, import) or text frametrace can\n"
	"  import (perf script, ftrace, MangoHud CSV).\n",
	"", &defaults, 21,
};

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	/* an output that cannot be written is an I/O error (exit 1) */
	if (!f)
		gs_die(EXIT_RUNTIME, "%s: %s", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		gs_die(EXIT_RUNTIME, "%s: write failed: %s", path,
		       strerror(errno ? errno : EIO));
}

int ft_cmd_report(int argc, char **argv)
{
	struct opts o = defaults;
	struct ft_report_opts ro = { 0 };
	const char *html, *dot, *out;
	struct ft_trace t;
	struct ft_report r;
	char err[1024];
	int rc;
	FILE *f;

	optind = 1;
	gs_opt_parse(&table, &o, argc, argv, ft_opt_path_field);
	if (!gs_operands(argc, argv, 1)) {
		gs_opt_usage(&table, stderr);
		return EXIT_USAGE;
	}
	html = o.html;
	dot = o.dot;
	out = o.out;
	ro.top = (int)o.top;
	ro.explain = (int)o.explain;
	ro.pid = (uint32_t)o.pid;
	ro.slow_ms = o.slow_ms;
	ft_refuse_same_file(argv[optind], out, "-o");
	ft_refuse_same_file(argv[optind], html, "--html");
	ft_refuse_same_file(argv[optind], dot, "--dot");
	ro.name = argv[optind];
	rc = ft_load(argv[optind], &t, err, sizeof(err));
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	ft_load_warn(&t, rc);
	if (ft_report_build(&r, &t, &ro))
		gs_die(EXIT_RUNTIME, "out of memory building the report");
	if (o.json || !o.quiet) {
		f = out ? open_out(out) : stdout;
		if (o.json)
			ft_report_json(f, &r);
		else
			ft_report_text(f, &r);
		if (out)
			close_out(f, out);
		else
			fflush(stdout);
	}
	if (html) {
		f = open_out(html);
		ft_report_html(f, &r);
		close_out(f, html);
	}
	if (dot) {
		f = open_out(dot);
		ft_report_dot(f, &r);
		close_out(f, dot);
	}
	ft_report_free(&r);
	ft_trace_free(&t);
	return EXIT_OK;
}
