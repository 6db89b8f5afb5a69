/* SPDX-License-Identifier: GPL-2.0-only */
/* Thread and process names from /proc for the recorders. */
#ifndef FT_PROCNAMES_H
#define FT_PROCNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/trace.h"

/* Every thread on the machine: tid, tgid, comm. 0 or -1. */
int ft_proc_names(struct ft_trace *t, pid_t self);
/* One thread (if it still exists). 0 or -1. */
int ft_proc_name_one(struct ft_trace *t, uint32_t tid);
/* Pids of root and every process under it (/proc/[pid]/stat's parent
 * pids), at most max; root first. */
size_t ft_proc_tree(pid_t root, pid_t *out, size_t max);
/* Does pid have a file open whose device and inode are dev and ino? */
bool ft_proc_has_file(pid_t pid, uint64_t dev, uint64_t ino);
/* Flags the recorder's own threads (FT_TASK_RECORDER). */
void ft_proc_mark_recorder(struct ft_trace *t, pid_t self);

#endif
