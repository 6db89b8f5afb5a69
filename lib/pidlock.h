/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A pid file that proves its owner is alive: the owner holds an flock on
 * it for as long as it runs, so a file left by an owner that was killed
 * (SIGKILL, a crash) is told apart from a live one, and a pid that was
 * reused by an unrelated process is never signalled.
 */
#ifndef GS_PIDLOCK_H
#define GS_PIDLOCK_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Writes getpid() to path, locked for as long as the process runs (the
 * descriptor is close-on-exec: commands it starts hold no lock). The file
 * is written beside and renamed, so a reader never sees it half written.
 * Returns the descriptor, or -1 with the reason in why: another live
 * owner holds path, or an I/O error.
 */
int gs_pidlock_take(const char *path, char *why, size_t whylen);
/* Removes path if this process still owns it (a later owner's is kept),
 * and closes fd. Safe to call twice (fd < 0: nothing). */
void gs_pidlock_drop(const char *path, int *fd);

enum gs_pidlock_state {
	GS_PIDLOCK_LIVE,    /* *pid is the owner, running now */
	GS_PIDLOCK_STALE,   /* the file is there but no process holds it */
	GS_PIDLOCK_MISSING, /* no such file */
	GS_PIDLOCK_BAD,     /* unreadable, or no pid in it (why says) */
};
/* Who owns path; *pid is the pid written in it (0 when none). */
enum gs_pidlock_state gs_pidlock_owner(const char *path, pid_t *pid,
				       char *why, size_t whylen);

#endif
