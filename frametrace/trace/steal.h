/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host steal time: how long a VM's vCPUs were not run by the host
 * (/proc/stat's steal column, in clock ticks). Inside a VM a thread can
 * look running or runnable-with-an-idle-CPU while its vCPU is not running
 * at all; the report states the steal over a trace's span so a slow frame
 * is not blamed on the guest's scheduler alone. record samples at start
 * and end, watch every 100 ms into a small ring and takes the window's
 * bracketing samples. Kept in the trace's metadata: steal_total_ns,
 * steal_span_ns, steal_ncpus and steal_top ("CPU:ns ...", the 8 CPUs with
 * the most).
 */
#ifndef FT_STEAL_H
#define FT_STEAL_H

#include <stddef.h>
#include <stdint.h>

#include "sysinfo.h"
#include "trace.h"

#define FT_STEAL_TOP 8

struct ft_steal {
	int ncpus;
	size_t cap, n, head;		/* ring of samples, head = next slot */
	uint64_t *ts;			/* cap sample times (CLOCK_MONOTONIC ns) */
	unsigned long long *ticks;	/* cap * ncpus steal counters */
	struct gs_cputimes *read;	/* ncpus: one reading, reused */
	const char *path;		/* /proc/stat (tests use a file) */
};

/* 0, or -1 when out of memory. cap >= 2. */
int ft_steal_init(struct ft_steal *s, int ncpus, size_t cap, const char *path);
void ft_steal_free(struct ft_steal *s);
/* A sample stamped now: 0, or -1 when the file cannot be read. */
int ft_steal_sample(struct ft_steal *s, uint64_t now);

struct ft_steal_sum {
	uint64_t total_ns, span_ns;
	int ncpus, ntop;
	uint32_t top_cpu[FT_STEAL_TOP];
	uint64_t top_ns[FT_STEAL_TOP];
};

/*
 * The steal between the last sample at or before lo (else the oldest) and
 * the first at or after hi (else the newest). 0, or -1 with fewer than two
 * samples.
 */
int ft_steal_window(const struct ft_steal *s, uint64_t lo, uint64_t hi,
		    struct ft_steal_sum *out);
void ft_steal_meta_set(struct ft_trace *t, const struct ft_steal_sum *sum);
/* 0, or -1 when the trace has no steal figures (imported, older file). */
int ft_steal_meta_get(const struct ft_trace *t, struct ft_steal_sum *sum);

#endif
