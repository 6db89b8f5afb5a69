// SPDX-License-Identifier: GPL-2.0-only
/* sched_getattr/sched_setattr without glibc wrappers (schedattr.h). */
#include "schedattr.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int gs_sched_getattr(pid_t tid, struct gs_sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	return (int)syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0);
}

int gs_sched_setattr(pid_t tid, struct gs_sched_attr *a)
{
	a->size = sizeof(*a);
	return (int)syscall(SYS_sched_setattr, tid, a, 0);
}
