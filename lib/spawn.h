/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Child processes: a fork that dies with its parent, and one way to start
 * a command (framebench's helper processes and background load,
 * gamesuite's loaders and workloads).
 */
#ifndef GS_SPAWN_H
#define GS_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * fork() for a child that must not outlive this process: the child gets
 * SIGKILL when its parent dies, and exits at once if the parent died
 * before that was set up. stdio buffers are flushed first so nothing
 * buffered is written twice. Returns as fork() does.
 */
pid_t gs_fork_tied(void);

struct gs_spawn_opts {
	/* stdout and stderr appended to this file, stdin from /dev/null;
	 * NULL: all three inherited */
	const char *log_path;
	char *const *env_add;	/* "NAME=value" strings added; NULL-ended */
	bool own_group;		/* a process group of its own: a terminal's
				 * Ctrl-C reaches only us, who then stop it */
	bool die_with_parent;	/* as gs_fork_tied */
	/* exec only once the parent writes a byte to *gate; closing *gate
	 * unwritten makes the child exit 127 instead */
	bool gated;
};

/*
 * Starts argv (argv[0] a path, or a name looked up in PATH) with the
 * signal mask and the dispositions of SIGINT, SIGTERM and SIGHUP at their
 * defaults. Returns the pid, or -1 with why in err. A failed exec exits
 * 127 after "prog: cannot run X: why" on the child's stderr.
 */
pid_t gs_spawn(char *const argv[], const struct gs_spawn_opts *o, int *gate,
	       char *err, size_t errlen);

#endif
