// SPDX-License-Identifier: GPL-2.0-only
/* The command a recorder runs, held until the recorder is attached
 * (child.h). */
#include "child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int ft_child_fork(struct ft_child *c, char **argv, const char **failed)
{
	int p[2];

	if (pipe(p)) {
		*failed = "pipe";
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		*failed = "fork";
		return -1;
	}
	if (c->pid == 0) {
		char go;

		close(p[1]);
		/* wait until the recorder is attached */
		if (read(p[0], &go, 1) != 1)
			_exit(127);
		close(p[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "frametrace: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	c->gate = p[1];
	return 0;
}

bool ft_child_release(struct ft_child *c)
{
	bool ok = write(c->gate, "g", 1) == 1;

	close(c->gate);
	return ok;
}

void ft_child_abandon(struct ft_child *c)
{
	close(c->gate);
	waitpid(c->pid, NULL, 0);
}

bool ft_child_exited(struct ft_child *c)
{
	if (c->pid <= 0 || waitpid(c->pid, &c->status, WNOHANG) != c->pid)
		return false;
	c->pid = -c->pid;
	return true;
}

void ft_child_stop(struct ft_child *c, int sig)
{
	kill(c->pid, sig);
	waitpid(c->pid, &c->status, 0);
}
