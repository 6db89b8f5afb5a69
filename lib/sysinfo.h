/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine as the tools see it: what a result needs to be comparable
 * later (kernel, CPU, governor and the scheduler in charge, from
 * /sys/kernel/sched_ext), written to JSON one way by every tool; where
 * tracefs is; CPU times from /proc/stat.
 */
#ifndef GS_SYSINFO_H
#define GS_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The kernel's sched_ext directory; tests point readers at a fake tree. */
#define GS_SCX_ROOT "/sys/kernel/sched_ext"

/* What the sched_ext directory says at one moment. */
struct gs_scx {
	bool present;		/* the directory exists: the kernel has it */
	char state[32];		/* enabled, disabled, enabling, ...; "" absent */
	char ops[128];		/* root/ops: the loaded scheduler, "" none */
	long long enable_seq;	/* schedulers enabled since boot; -1 unknown */
	long long hotplug_seq;	/* CPU hotplug events; -1 unknown */
};

/* Reads state, root/ops, enable_seq and hotplug_seq under root. */
void gs_scx_read(const char *root, struct gs_scx *s);
/* state is "enabled": a sched_ext scheduler is in charge */
bool gs_scx_enabled(const struct gs_scx *s);

struct gs_sysinfo {
	char kernel[128];	/* uname -r */
	char machine[32];	/* uname -m */
	char hostname[64];
	char cpu_model[128];	/* /proc/cpuinfo "model name" */
	int ncpus;		/* online CPUs */
	char governor[32];	/* cpufreq governor of cpu0, "" if none */
	struct gs_scx scx;
	/* the scheduler in charge: the sched_ext ops name, else the fair
	 * class ("eevdf" from 6.6 on, "cfs" before) */
	char scheduler[64];
};

/* This machine, with the sched_ext state read under scx_root. */
void gs_sysinfo_read(struct gs_sysinfo *si, const char *scx_root);

/*
 * The tracefs directory (the one holding trace_marker): a tracefs mount
 * listed in /proc/mounts, else /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing. Returns 0 with it in dir, or -1 with errno
 * set: ENOENT when there is none, else why one could not be reached
 * (EACCES for a non-root user, ...). Mounts nothing.
 */
int gs_tracefs_dir(char *dir, size_t len);
/*
 * The tracepoint "SUBSYSTEM/EVENT" (e.g. "task/task_rename") exists: its
 * id under tracefs can be read. tracefs: the directory, "" for none, or
 * NULL to look it up (gs_tracefs_dir).
 */
bool gs_tracepoint_exists(const char *tracefs, const char *ev);

struct gs_jw;
/*
 * The one JSON form of these, shared by every tool's output:
 *   "system": { "kernel", "arch", "hostname", "cpu_model", "ncpus",
 *               "governor", "scheduler", "sched_ext": {...} }
 * and a sched_ext snapshot as member key:
 *   { "present", "state", "ops", "enable_seq" (null when unknown) }
 */
void gs_sysinfo_json(struct gs_jw *w, const struct gs_sysinfo *si);
void gs_scx_json(struct gs_jw *w, const char *key, const struct gs_scx *s);

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
