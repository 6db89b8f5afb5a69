// SPDX-License-Identifier: GPL-2.0-only
/* frametrace trigger: asks a running watch to save a capture (SIGUSR1). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "pidlock.h"
#include "util.h"

/* The watch of DIR: the pid its locked watch.pid holds. A file no live
 * watch holds (one killed by SIGKILL) names a pid that may be anyone's
 * by now: nothing is signalled, exit 1. */
static pid_t watch_of_dir(const char *dir)
{
	char path[4200], why[300];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/watch.pid", dir);
	switch (gs_pidlock_owner(path, &pid, why, sizeof(why))) {
	case GS_PIDLOCK_LIVE:
		return pid;
	case GS_PIDLOCK_STALE:
		gs_die(EXIT_RUNTIME, "trigger: %s: no watch is running in %s: the "
		       "file is stale (%s; pid %d was not signalled)", path, dir,
		       why, (int)pid);
	case GS_PIDLOCK_MISSING:
		gs_die(EXIT_RUNTIME, "trigger: %s: no watch is running in %s "
		       "(no watch.pid)", path, dir);
	default:
		gs_die(EXIT_USAGE, "trigger: %s: %s", path, why);
	}
}

/* A pid given directly must be a watch of this program: its command line
 * is "<this program> watch ...", else nothing is signalled (exit 1). */
static void check_is_watch(pid_t pid)
{
	char path[64], cmd[256], self[256];
	const char *base;
	size_t n, len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "r");
	if (!f)
		gs_die(EXIT_RUNTIME, "trigger: pid %d: %s", (int)pid, strerror(errno));
	n = fread(cmd, 1, sizeof(cmd) - 1, f);
	fclose(f);
	cmd[n] = '\0';
	if (gs_read_text("/proc/self/comm", self, sizeof(self)) < 0)
		self[0] = '\0';
	base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	len = strlen(cmd);
	if (strcmp(base, self) || len + 1 >= n || strcmp(cmd + len + 1, "watch"))
		gs_die(EXIT_RUNTIME, "trigger: pid %d is not a '%s watch' (its "
		       "command: '%s'): not signalled", (int)pid, self, base);
}

int ft_cmd_trigger(int argc, char **argv)
{
	uint64_t pid;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: frametrace trigger DIR|PID\n"
			"  Asks a running 'frametrace watch' (its capture directory or\n"
			"  pid) to save a capture now. Exit 1, nothing signalled, when\n"
			"  no watch runs there.\n");
		return argc == 2 ? EXIT_OK : EXIT_USAGE;
	}
	if (gs_parse_u64(argv[1], 1, 1u << 30, &pid))
		pid = (uint64_t)watch_of_dir(argv[1]);
	else
		check_is_watch((pid_t)pid);
	if (kill((pid_t)pid, SIGUSR1))
		gs_die(EXIT_RUNTIME, "trigger: pid %d: %s", (int)pid, strerror(errno));
	return EXIT_OK;
}
