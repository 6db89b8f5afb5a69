// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report FILE [--json] [--html OUT] [--dot OUT] */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "ftutil.h"
#include "import.h"
#include "report.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace report [options] FILE\n"
		"  FILE: a trace (record, watch, import) or text frametrace can\n"
		"  import (perf script, ftrace, MangoHud CSV).\n"
		"  --json             machine-readable report on stdout (or -o)\n"
		"  --html OUT         self-contained HTML page with plots\n"
		"  --dot OUT          waker -> wakee graph for Graphviz\n"
		"  -o, --output OUT   write the text/JSON report to OUT\n"
		"  --top N            rows per table (default 15)\n"
		"  --slow-ms X        slow-frame threshold (default 2x median)\n"
		"  --explain N        slow frames to explain (default 5)\n"
		"  --pid PID          frames of this process (default: most frames)\n"
		"  -q, --quiet        no text report (with --html/--dot)\n");
}

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
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "dot", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "top", required_argument, NULL, 't' },
		{ "slow-ms", required_argument, NULL, 's' },
		{ "explain", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ft_report_opts ro = { .top = 15, .explain = 5 };
	const char *html = NULL, *dot = NULL, *out = NULL;
	bool json = false, quiet = false;
	struct ft_trace t;
	struct ft_report r;
	char err[1024];
	int c, rc;
	FILE *f;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'H': html = ft_opt_path("--html", optarg); break;
		case 'g': dot = ft_opt_path("--dot", optarg); break;
		case 'o': out = ft_opt_path("-o", optarg); break;
		case 't': ro.top = (int)gs_opt_u64("--top", optarg, 1, 100000); break;
		case 's': ro.slow_ms = gs_opt_double("--slow-ms", optarg, 0.001, 1e7); break;
		case 'e': ro.explain = (int)gs_opt_u64("--explain", optarg, 0, 1000); break;
		case 'p': ro.pid = (uint32_t)gs_opt_u64("--pid", optarg, 1, UINT32_MAX); break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: gs_die_bad_option(c, argv);
		}
	}
	if (!gs_operands(argc, argv, 1)) {
		usage(stderr);
		return EXIT_USAGE;
	}
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
	if (json || !quiet) {
		f = out ? open_out(out) : stdout;
		if (json)
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
