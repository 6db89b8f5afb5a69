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
#include "ftutil.h"
#include "tracefile.h"
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

int ft_cmd_info(int argc, char **argv)
{
	struct ft_trace t;
	char err[600];
	int rc;
	uint64_t counts[FT_EV_NTYPES] = { 0 };

	if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: frametrace info FILE\n");
		return argc == 2 ? EXIT_OK : EXIT_USAGE;
	}
	rc = ft_trace_read(argv[1], &t, err, sizeof(err));
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	if (rc > 0)
		gs_warn("warning: %s", t.warning);
	for (size_t i = 0; i < t.nev; i++)
		counts[t.ev[i].type]++;
	printf("file: %s\n", argv[1]);
	printf("span: %.6f s .. %.6f s (%.3f s), %u CPUs\n",
	       (double)t.start_ns / 1e9, (double)t.end_ns / 1e9,
	       (double)(t.end_ns - t.start_ns) / 1e9, t.ncpus);
	for (size_t i = 0; i < t.nmeta; i++) {
		char k[256], v[1200];

		printf("meta %s=%s\n", ft_printable(t.meta[i].key, k, sizeof(k)),
		       ft_printable(t.meta[i].val, v, sizeof(v)));
	}
	printf("events: %zu\n", t.nev);
	for (unsigned i = 1; i < FT_EV_NTYPES; i++)
		if (counts[i])
			printf("  %-20s %" PRIu64 "\n", ft_ev_name(i), counts[i]);
	{
		/* the futex source "sched": flags on the scheduler events */
		uint64_t sl = 0, wk = 0;

		for (size_t i = 0; i < t.nev; i++) {
			sl += t.ev[i].type == FT_EV_SWITCH &&
			      (t.ev[i].flags & FT_F_FUTEX_SLEEP);
			wk += (t.ev[i].type == FT_EV_WAKING ||
			       t.ev[i].type == FT_EV_WAKEUP) &&
			      (t.ev[i].flags & FT_F_FUTEX_WAKE);
		}
		if (sl)
			printf("futex sleeps: %" PRIu64 "\n", sl);
		if (wk)
			printf("wake-ups from futex wake calls: %" PRIu64 "\n", wk);
	}
	printf("tasks: %zu\nframes: %zu\nstrings: %zu\n", t.ntasks, t.nframes,
	       t.nstr);
	printf("lost_events: %" PRIu64 "\n", t.lost_events);
	printf("corrupted_events: %" PRIu64 " (%" PRIu64 " bytes unreadable)\n",
	       t.corrupt_events, t.corrupt_bytes);
	printf("reconstructed_switches: %" PRIu64 " (idle->task), %" PRIu64
	       " (other)\n",
	       t.reconstructed, t.inconsistent);
	printf("timeline_contradictions: %" PRIu64 "\n", t.contradictions);
	printf("skipped_records: %" PRIu64 "\n", t.skipped);
	printf("complete: %s\n", t.partial ? "no" : "yes");
	ft_trace_free(&t);
	return EXIT_OK;
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
