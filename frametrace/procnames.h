/* SPDX-License-Identifier: GPL-2.0-only */
/* Thread and process names from /proc for the recorders. */
#ifndef FT_PROCNAMES_H
#define FT_PROCNAMES_H

#include <sys/types.h>

#include "trace.h"

/* Every thread on the machine: tid, tgid, comm. 0 or -1. */
int ft_proc_names(struct ft_trace *t, pid_t self);
/* One thread (if it still exists). 0 or -1. */
int ft_proc_name_one(struct ft_trace *t, uint32_t tid);
/* Flags the recorder's own threads (FT_TASK_RECORDER). */
void ft_proc_mark_recorder(struct ft_trace *t, pid_t self);

#endif
