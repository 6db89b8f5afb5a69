/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a result needs to be comparable later: kernel, CPU, governor and the
 * scheduler that was active (from /sys/kernel/sched_ext).
 */
#ifndef GS_SYSINFO_H
#define GS_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* One CPU line of /proc/stat, in clock ticks (sysconf(_SC_CLK_TCK)). */
struct gs_cputimes {
	unsigned long long busy;  /* user+nice+system+irq+softirq+steal */
	unsigned long long total; /* busy + idle + iowait */
	unsigned long long steal; /* a VM's vCPU not run by its host */
};

/*
 * The CPU lines of /proc/stat text read from f: the aggregate "cpu" line
 * into *all (may be NULL), "cpuN" into per_cpu[N] for N < max (the others
 * zeroed). Returns 1 + the highest N seen (0 without per-CPU lines), or -1
 * without an aggregate line. Stops at the first other line (the huge
 * "intr" line is never read).
 */
int gs_cputimes_fread(FILE *f, struct gs_cputimes *all,
		      struct gs_cputimes *per_cpu, int max);
/* The same from a file, normally /proc/stat; -1 when it cannot be read. */
int gs_cputimes_read(const char *path, struct gs_cputimes *all,
		     struct gs_cputimes *per_cpu, int max);

#endif
