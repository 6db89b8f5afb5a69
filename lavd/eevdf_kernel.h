/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf and the running kernel: what it offers (--check --eevdf),
 * what a thread is (its start time, its cgroup), and the record of every
 * change, kept on disk so that a run killed by SIGKILL is undone by the
 * next start or by --restore. No libbpf here.
 */
#ifndef LAVD_EEVDF_KERNEL_H
#define LAVD_EEVDF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "eevdf_levers.h"

struct eevdf_kernel {
	bool tracepoints;		/* BTF and the sched_* tracepoints */
	char tp_missing[64];		/* the first one missing */
	bool custom_slice;		/* a fair task keeps sched_runtime */
	bool uclamp;			/* CONFIG_UCLAMP_TASK */
	long rt_runtime_us;		/* -1: RT throttling off */
	long rt_period_us;
	bool autogroup;			/* nice only ranks within a session */
	bool sched_ext;			/* /sys/kernel/sched_ext exists */
	bool may_raise;			/* CAP_SYS_NICE: negative nice, FIFO */
	unsigned long long base_slice_ns;	/* sched_getattr of a plain task */
};

/* Reads what the kernel offers; changes nothing that it does not undo. */
void eevdf_kernel_probe(struct eevdf_kernel *k);
/* One line per fact, for --check --eevdf. */
void eevdf_kernel_print(const struct eevdf_kernel *k, FILE *out);

/* /proc/TID/stat's starttime; 0 when the thread is gone. */
unsigned long long eevdf_thread_start(pid_t tid);
/* Is the thread in a system service's cgroup (system.slice, init.scope)?
 * The default scope leaves those alone. */
bool eevdf_thread_is_service(pid_t tid);

/*
 * The record: the state file holds one line per changed thread
 * (eevdf_rec_format), rewritten whole on every change (a new file, then
 * rename). eevdf_record_restore undoes a file left behind: each thread
 * that is still the same thread and still shows what was applied gets
 * its original attributes back; the file is removed. Returns the number
 * restored, or -1 with the reason in err (unreadable, malformed line).
 */
int eevdf_record_write(const char *path, const struct eevdf_rec *recs, int n,
		       char *err, size_t errlen);
int eevdf_record_restore(const char *path, const struct eevdf_levers *lv,
			 int *skipped, char *err, size_t errlen);

/*
 * The single-instance lock beside the record (PATH.lock, flock). Returns
 * the descriptor, or -1: err says whether another instance holds it.
 */
int eevdf_lock(const char *state_path, char *err, size_t errlen);

#endif
