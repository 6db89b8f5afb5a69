// SPDX-License-Identifier: GPL-2.0-only
/*
 * mhcheck FILE: reads a MangoHud CSV log with the shared
 * library's reader (the one every tool of the project uses) and prints
 *   rows N unit ms|us per_frame yes|no elapsed yes|no
 * Exit 0 when the log is a per-frame log in ms with an elapsed column,
 * 1 when it is readable but not that, 2 when the reader rejects it.
 * Used by the framebench shell tests to check --csv output.
 */
#include <stdio.h>

#include "mangohud.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct gs_mh_log log;
	char err[512];
	int ok;

	gs_set_prog(argv[0]);
	if (argc != 2)
		gs_die(EXIT_USAGE, "usage: mhcheck FILE");
	if (gs_mh_read_path(argv[1], &log, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
	printf("rows %zu unit %s per_frame %s elapsed %s\n", log.n,
	       log.unit == GS_MH_MS ? "ms" : "us", log.per_frame ? "yes" : "no",
	       log.has_elapsed ? "yes" : "no");
	ok = log.n > 0 && log.unit == GS_MH_MS && log.per_frame &&
	     log.has_elapsed;
	gs_mh_free(&log);
	return ok ? EXIT_OK : EXIT_RUNTIME;
}
