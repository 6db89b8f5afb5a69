// SPDX-License-Identifier: GPL-2.0-only
/* frametrace info: what a trace file holds. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "trace/tracefile.h"
#include "util.h"

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
