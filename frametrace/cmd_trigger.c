// SPDX-License-Identifier: GPL-2.0-only
/* frametrace trigger: asks a running watch to save a capture (SIGUSR1). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "util.h"

int ft_cmd_trigger(int argc, char **argv)
{
	char path[4200], buf[32];
	long pid;
	char *end;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: frametrace trigger DIR|PID\n"
			"  Asks a running 'frametrace watch' (its capture directory or\n"
			"  pid) to save a capture now.\n");
		return argc == 2 ? EXIT_OK : EXIT_USAGE;
	}
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 0) {
		snprintf(path, sizeof(path), "%s/watch.pid", argv[1]);
		if (gs_read_text(path, buf, sizeof(buf)) < 0)
			gs_die(EXIT_USAGE, "trigger: %s: %s (is a watch running there?)",
			       path, strerror(errno));
		pid = strtol(buf, &end, 10);
		if (*end || pid <= 0)
			gs_die(EXIT_USAGE, "trigger: %s: expected a pid, got '%s'", path, buf);
	}
	if (kill((pid_t)pid, SIGUSR1))
		gs_die(EXIT_RUNTIME, "trigger: pid %ld: %s", pid, strerror(errno));
	return EXIT_OK;
}

