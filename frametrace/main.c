// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace: record scheduling events with BPF, catch rare frame spikes
 * with a flight recorder, import perf/ftrace/MangoHud data, explain slow
 * frames, export to Perfetto. See docs/frametrace.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "trace/tracefile.h"
#include "util.h"
#include "version.h"

#define FT_TOOL_VERSION GS_VERSION	/* lib/version.h */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace COMMAND [options]\n"
		"commands:\n"
		"  record -o FILE [-- CMD...]   record scheduling events (BPF, root)\n"
		"  watch [options]              flight recorder: keep the last seconds,\n"
		"                               save them when a frame spikes\n"
		"  trigger DIR|PID              make a running watch save a capture now\n"
		"  import -o FILE INPUT         perf script / ftrace text / MangoHud CSV\n"
		"  report FILE [--json|--html F|--dot F]   statistics, slow frames\n"
		"  export --perfetto OUT FILE   ftrace text (or --json) for Perfetto\n"
		"  info FILE                    what a trace file holds\n"
		"  profile -o OUT TRACE         a framebench profile that replays\n"
		"                               the trace's scheduling shape\n"
		"  compare A B [--json]         two traces side by side (a replay\n"
		"                               against its original)\n"
		"Run 'frametrace COMMAND --help' for a command's options.\n"
		"Exit status: 0 ok, 1 runtime failure, 2 bad usage or input.\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "record", ft_cmd_record },
		{ "watch", ft_cmd_watch },
		{ "trigger", ft_cmd_trigger },
		{ "import", ft_cmd_import },
		{ "report", ft_cmd_report },
		{ "export", ft_cmd_export },
		{ "info", ft_cmd_info },
		{ "profile", ft_cmd_profile },
		{ "compare", ft_cmd_compare },
	};

	gs_set_prog(argv[0]);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("frametrace %s (trace file version %d)\n", FT_TOOL_VERSION,
		       FT_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	gs_warn("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
