/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU topology as lavd needs it, read from sysfs: which CPUs exist and are
 * online, which share a last-level cache, which are SMT siblings, and each
 * CPU's relative capacity. The sysfs root is a parameter so the parser is
 * tested on a fake tree (tests/test_lavd_topo.c).
 */
#ifndef LAVD_TOPO_H
#define LAVD_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "intf.h"

struct lavd_topo {
	int nr_cpu_ids;			/* highest possible CPU + 1 */
	int nr_online;
	int nr_llcs;			/* distinct LLCs among online CPUs */
	int nr_cores;			/* distinct SMT cores among online CPUs */
	bool smt;			/* some core has more than one thread */
	bool llc_from_cache;		/* false: no cache info, one LLC assumed */
	bool online[LAVD_MAX_CPUS];
	int llc[LAVD_MAX_CPUS];		/* compact LLC index, 0 .. nr_llcs-1 */
	int core[LAVD_MAX_CPUS];	/* first SMT sibling of the CPU */
	int capacity[LAVD_MAX_CPUS];	/* 1 .. 1024, 1024 = fastest */
	char capacity_src[32];		/* "cpu_capacity", "cpufreq", "uniform" */
};

/*
 * Parses a kernel CPU list ("0-3,8,10-11") into set[0..n). Returns the
 * number of CPUs set, or -1 on a malformed list or a CPU >= n.
 */
int lavd_parse_cpulist(const char *s, bool *set, int n);

/*
 * Reads the topology under root ("/sys" normally; a CPU is
 * root/devices/system/cpu/cpuN). Returns 0, or -1 with a message in err.
 */
int lavd_topo_read(const char *root, struct lavd_topo *t, char *err,
		   size_t errlen);

#endif
