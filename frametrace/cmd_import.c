// SPDX-License-Identifier: GPL-2.0-only
/* frametrace import -o FILE INPUT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "import/import.h"
#include "opttab.h"
#include "trace/tracefile.h"
#include "util.h"

struct opts {
	const char *out;
	enum ft_fmt fmt;
	bool quiet;
	struct ft_import_opts io;
	const char *events[8];
};

enum { ID_OUTPUT = 1, ID_FORMAT, ID_FRAME_EVENT };

#define FIELD(f) offsetof(struct opts, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)

static const struct gs_opt specs[] = {
	{ "output", 'o', "FILE", SPECIAL(ID_OUTPUT), .field = FIELD(out),
	  .help = "the trace file to write" },
	/* detected from the content without it */
	{ "format", 'f', "FMT", SPECIAL(ID_FORMAT),
	  .help = "the input's format: perf, ftrace or mangohud" },
	/* long name only */
	{ "frame-event", 0, "NAME", SPECIAL(ID_FRAME_EVENT),
	  .help = "another event name that is a frame boundary\n"
		  "(repeatable, at most 8)" },
	{ "quiet", 'q', NULL, GS_OPT_SET, FIELD(quiet),
	  .help = "no summary line" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace import -o FILE [--format perf|ftrace|mangohud]\n"
	"                         [--frame-event NAME]... INPUT\n"
	"  Converts perf script text (perf sched record -k mono; perf script\n"
	"  [-F trace:tid,cpu,time,event,trace] --ns), ftrace text, or a\n"
	"  MangoHud CSV log into a frametrace trace file. The format is\n"
	"  detected from the content unless --format is given.\n"
	"  Uprobe events on glXSwapBuffers, eglSwapBuffers and\n"
	"  vkQueuePresentKHR (any group, entry only) are frame boundaries of\n"
	"  the calling thread; --frame-event NAME adds another event name.\n\n",
	"", NULL, 24,
};

static void parse_special(const struct gs_opt *s, const char *arg, void *base)
{
	struct opts *o = base;

	switch (s->id) {
	case ID_OUTPUT:
		ft_opt_path_field(s, arg, base);
		break;
	case ID_FORMAT:
		if (!strcmp(arg, "perf"))
			o->fmt = FT_FMT_PERF;
		else if (!strcmp(arg, "ftrace"))
			o->fmt = FT_FMT_FTRACE;
		else if (!strcmp(arg, "mangohud"))
			o->fmt = FT_FMT_MANGOHUD;
		else
			gs_die(EXIT_USAGE, "option --format: expected perf, ftrace or "
			       "mangohud, got '%s'", arg);
		break;
	case ID_FRAME_EVENT:
		if (o->io.nframe_events == 8)
			gs_die(EXIT_USAGE, "option --frame-event: at most 8");
		if (!*arg || strpbrk(arg, " :\t"))
			gs_die(EXIT_USAGE, "option --frame-event: expected an event "
			       "name without group or spaces, got '%s'", arg);
		o->events[o->io.nframe_events++] = arg;
		break;
	}
}

int ft_cmd_import(int argc, char **argv)
{
	struct opts o = { .fmt = FT_FMT_UNKNOWN };
	struct ft_trace t;
	char err[1024];
	const char *out;
	int rc;

	o.io.frame_events = o.events;
	optind = 1;
	gs_opt_parse(&table, &o, argc, argv, parse_special);
	out = o.out;
	if (!gs_operands(argc, argv, 1) || !out) {
		gs_opt_usage(&table, stderr);
		return EXIT_USAGE;
	}
	ft_refuse_same_file(argv[optind], out, "-o");
	if (o.fmt == FT_FMT_UNKNOWN) {
		rc = ft_load_opts(argv[optind], &o.io, &t, err, sizeof(err));
	} else {
		/* forced format: no detection */
		char *buf;
		size_t len;

		if (gs_read_file(argv[optind], 0, &buf, &len, err, sizeof(err)))
			gs_die(EXIT_USAGE, "%s", err);
		rc = ft_import_mem_opts(buf, len, argv[optind], o.fmt, &o.io, &t,
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
	if (!o.quiet)
		fprintf(stderr,
			"frametrace: %s (%s): %zu events, %zu tasks, %zu frames, "
			"%" PRIu64 " idle->task switches reconstructed -> %s\n",
			argv[optind], ft_meta_get(&t, "format"), t.nev, t.ntasks,
			t.nframes, t.reconstructed, out);
	ft_trace_free(&t);
	return EXIT_OK;
}
