// SPDX-License-Identifier: GPL-2.0-only
#include "pidlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util.h"

/* The pid written in the file fd is open on; 0 when there is none. */
static pid_t read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	uint64_t v;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (gs_parse_u64(buf, 1, 1u << 30, &v))
		return 0;
	return (pid_t)v;
}

enum gs_pidlock_state gs_pidlock_owner(const char *path, pid_t *pid,
				       char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	enum gs_pidlock_state st;

	*pid = 0;
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return errno == ENOENT ? GS_PIDLOCK_MISSING : GS_PIDLOCK_BAD;
	}
	*pid = read_pid(fd);
	if (!flock(fd, LOCK_SH | LOCK_NB)) {
		st = GS_PIDLOCK_STALE; /* we could take it: nobody holds it */
		snprintf(why, whylen, "no process holds it");
	} else if (errno != EWOULDBLOCK) {
		st = GS_PIDLOCK_BAD;
		snprintf(why, whylen, "cannot lock it: %s", strerror(errno));
	} else if (!*pid) {
		st = GS_PIDLOCK_BAD;
		snprintf(why, whylen, "no pid in it");
	} else {
		st = GS_PIDLOCK_LIVE;
	}
	close(fd);
	return st;
}

int gs_pidlock_take(const char *path, char *why, size_t whylen)
{
	char tmp[4200];
	pid_t other;
	int fd;

	if (gs_pidlock_owner(path, &other, why, whylen) == GS_PIDLOCK_LIVE) {
		snprintf(why, whylen, "%s: pid %d holds it", path,
			 (int)other);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) ||
	    dprintf(fd, "%d\n", (int)getpid()) < 0 || rename(tmp, path)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			unlink(tmp);
			close(fd);
		}
		return -1;
	}
	return fd;
}

void gs_pidlock_drop(const char *path, int *fd)
{
	int cur;

	if (*fd < 0)
		return;
	/* unlink only our own file: a later owner may have replaced it */
	cur = open(path, O_RDONLY | O_CLOEXEC);
	if (cur >= 0) {
		if (read_pid(cur) == getpid())
			unlink(path);
		close(cur);
	}
	close(*fd);
	*fd = -1;
}
