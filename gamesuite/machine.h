/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Machine state around each run: load average, how busy the CPUs are
 * (from /proc/stat), how much CPU other processes used during the run, and
 * a short fixed-work probe whose time rises when the machine (or, inside a
 * VM, the host) is contended or throttled.
 */
#ifndef GSU_MACHINE_H
#define GSU_MACHINE_H

#include <stdint.h>

struct gsu_cpustat {
	uint64_t busy;	/* user+nice+system+irq+softirq+steal jiffies */
	uint64_t total;	/* busy + idle + iowait */
	uint64_t steal;
	int ok;
};

/* Reads the aggregate "cpu" line of path (normally /proc/stat). */
void gsu_cpustat_read(const char *path, struct gsu_cpustat *s);
/* Busy fraction of all CPUs between two samples; NaN when unknown. */
double gsu_cpustat_busy(const struct gsu_cpustat *a,
			const struct gsu_cpustat *b);

/* 1-minute load average; NaN when unreadable. */
double gsu_loadavg1(void);

/* Milliseconds taken by a fixed amount of integer work (~10-30 ms). */
double gsu_probe_ms(void);

/*
 * CPU used by processes other than ours during an interval, as a fraction
 * of all CPUs: (busy jiffies - own_cpu_s * HZ) / total jiffies, clamped to
 * [0, 1]. own_cpu_s is the CPU time of the workload, the loader and
 * gamesuite itself.
 */
double gsu_other_cpu(const struct gsu_cpustat *a, const struct gsu_cpustat *b,
		     double own_cpu_s);

#endif
