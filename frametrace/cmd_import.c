// SPDX-License-Identifier: GPL-2.0-only
/* frametrace import -o FILE INPUT */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ftutil.h"
#include "import.h"
#include "tracefile.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace import -o FILE [--format perf|ftrace|mangohud]\n"
		"                         [--frame-event NAME]... INPUT\n"
		"  Converts perf script text (perf sched record -k mono; perf script\n"
		"  [-F trace:tid,cpu,time,event,trace] --ns), ftrace text, or a\n"
		"  MangoHud CSV log into a frametrace trace file. The format is\n"
		"  detected from the content unless --format is given.\n"
		"  Uprobe events on glXSwapBuffers, eglSwapBuffers and\n"
		"  vkQueuePresentKHR (any group, entry only) are frame boundaries of\n"
		"  the calling thread; --frame-event NAME adds another event name.\n");
}

int ft_cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "frame-event", required_argument, NULL, 'E' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *events[8];
	struct ft_import_opts io = { .frame_events = events };
	const char *out = NULL;
	enum ft_fmt fmt = FT_FMT_UNKNOWN;
	struct ft_trace t;
	char err[1024];
	bool quiet = false;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = ft_opt_path("-o", optarg); break;
		case 'f':
			if (!strcmp(optarg, "perf"))
				fmt = FT_FMT_PERF;
			else if (!strcmp(optarg, "ftrace"))
				fmt = FT_FMT_FTRACE;
			else if (!strcmp(optarg, "mangohud"))
				fmt = FT_FMT_MANGOHUD;
			else
				gs_die(EXIT_USAGE,
				       "option --format: expected perf, ftrace or "
				       "mangohud, got '%s'", optarg);
			break;
		case 'E':
			if (io.nframe_events == 8)
				gs_die(EXIT_USAGE, "option --frame-event: at most 8");
			if (!*optarg || strpbrk(optarg, " :\t"))
				gs_die(EXIT_USAGE,
				       "option --frame-event: expected an event "
				       "name without group or spaces, got '%s'",
				       optarg);
			events[io.nframe_events++] = optarg;
			break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: gs_die_bad_option(c, argv);
		}
	}
	if (!gs_operands(argc, argv, 1) || !out) {
		usage(stderr);
		return EXIT_USAGE;
	}
	ft_refuse_same_file(argv[optind], out, "-o");
	if (fmt == FT_FMT_UNKNOWN) {
		rc = ft_load_opts(argv[optind], &io, &t, err, sizeof(err));
	} else {
		/* forced format: no detection */
		char *buf;
		size_t len;

		if (gs_read_file(argv[optind], 0, &buf, &len, err, sizeof(err)))
			gs_die(EXIT_USAGE, "%s", err);
		rc = ft_import_mem_opts(buf, len, argv[optind], fmt, &io, &t,
					err, sizeof(err));
		free(buf);
	}
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	ft_load_warn(&t, rc);
	if (ft_trace_write(&t, out, err, sizeof(err))) {
		ft_trace_free(&t);
		gs_die(EXIT_RUNTIME, "%s", err);
	}
	if (!quiet)
		fprintf(stderr,
			"frametrace: %s (%s): %zu events, %zu tasks, %zu frames, "
			"%" PRIu64 " idle->task switches reconstructed -> %s\n",
			argv[optind], ft_meta_get(&t, "format"), t.nev, t.ntasks,
			t.nframes, t.reconstructed, out);
	ft_trace_free(&t);
	return EXIT_OK;
}
