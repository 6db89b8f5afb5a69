/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command a recorder runs (record/watch ... -- CMD ARG...): forked
 * before the BPF programs attach and held at a gate until they are, so
 * its first events are in the trace.
 */
#ifndef FT_CHILD_H
#define FT_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

struct ft_child {
	pid_t pid;		/* 0: no command; -pid once it exited */
	int gate;		/* the pipe's write end the child waits on */
	int status;		/* waitpid() status once reaped */
};

/* Forks argv held at the gate: 0, or -1 with errno and *failed naming
 * the call that failed ("pipe" or "fork"). */
int ft_child_fork(struct ft_child *c, char **argv, const char **failed);
/* Lets it exec; false when the gate could not be opened. */
bool ft_child_release(struct ft_child *c);
/* Setup failed before the release: the child exits 127; reaps it. */
void ft_child_abandon(struct ft_child *c);
/* Reaps it without waiting: true when it has just exited. */
bool ft_child_exited(struct ft_child *c);
/* Passes sig on to a command still running and waits for it. */
void ft_child_stop(struct ft_child *c, int sig);

#endif
