/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a result needs to be comparable later: kernel, CPU, governor and the
 * scheduler that was active (from /sys/kernel/sched_ext).
 */
#ifndef GS_SYSINFO_H
#define GS_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

struct gs_sysinfo {
	char kernel[128];	/* uname -r */
	char machine[32];	/* uname -m */
	char hostname[64];
	char cpu_model[128];	/* /proc/cpuinfo "model name" */
	int ncpus;		/* online CPUs */
	char governor[32];	/* cpufreq governor of cpu0, "" if none */
	bool has_sched_ext;	/* /sys/kernel/sched_ext exists */
	char scx_state[32];	/* enabled, disabled, enabling, ... */
	char scx_ops[64];	/* root/ops while a scheduler is loaded */
	/* the scheduler in charge: the sched_ext ops name, else the fair
	 * class ("eevdf" from 6.6 on, "cfs" before) */
	char scheduler[64];
};

void gs_sysinfo_read(struct gs_sysinfo *si);

/* sched_ext state and ops only (cheap; used before and after each run).
 * Returns true when a sched_ext scheduler is enabled. */
bool gs_scx_active(char *ops, size_t opslen);

#endif
