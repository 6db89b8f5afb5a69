// SPDX-License-Identifier: GPL-2.0-only
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util.h"

pid_t gs_fork_tied(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
	}
	return pid;
}

static _Noreturn void exec_child(char *const argv[],
				 const struct gs_spawn_opts *o, int log_fd,
				 const int gate[2])
{
	sigset_t none;
	char c;

	if (o->own_group)
		setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (log_fd >= 0) {
		int in = open("/dev/null", O_RDONLY);

		if (in >= 0) {
			dup2(in, 0);
			if (in > 2)
				close(in);
		}
		dup2(log_fd, 1);
		dup2(log_fd, 2);
	}
	for (int i = 0; o->env_add && o->env_add[i]; i++)
		putenv(o->env_add[i]);
	if (o->gated) {
		/* our copy of the write end would keep the read from ending */
		close(gate[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(127);
	}
	execvp(argv[0], argv);
	dprintf(2, "%s: cannot run %s: %s\n", gs_prog, argv[0], strerror(errno));
	_exit(127);
}

pid_t gs_spawn(char *const argv[], const struct gs_spawn_opts *o, int *gate,
	       char *err, size_t errlen)
{
	int log_fd = -1, g[2] = { -1, -1 };
	pid_t pid;

	if (o->log_path) {
		log_fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);
		if (log_fd < 0) {
			snprintf(err, errlen, "cannot open %s: %s", o->log_path,
				 strerror(errno));
			return -1;
		}
	}
	if (o->gated && pipe2(g, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto fail;
	}
	if (o->die_with_parent) {
		pid = gs_fork_tied();
	} else {
		fflush(NULL);
		pid = fork();
	}
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0)
		exec_child(argv, o, log_fd, g);
	if (o->own_group)
		setpgid(pid, pid); /* also from here: no race with a first kill */
	if (log_fd >= 0)
		close(log_fd);
	if (o->gated) {
		close(g[0]);
		*gate = g[1];
	}
	return pid;
fail:
	if (log_fd >= 0)
		close(log_fd);
	if (g[0] >= 0) {
		close(g[0]);
		close(g[1]);
	}
	return -1;
}
