/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU topology as lavd needs it, read from sysfs: which CPUs exist and are
 * online, which share a last-level cache, which are SMT siblings, and each
 * CPU's relative capacity. The sysfs root is a parameter so the parser is
 * tested on a fake tree (tests/test_lavd_loader.c, test_lavd_domains.c).
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
	/* NUMA nodes, core types, compute domains (cpdom.c) */
	int nr_nodes;
	int node[LAVD_MAX_CPUS];	/* compact node index, 0 .. nr_nodes-1 */
	int hybrid[LAVD_MAX_CPUS];	/* x86 hybrid PMU: 1 core (P), 2 atom (E), 0 ? */
	bool big[LAVD_MAX_CPUS];	/* core type: big (or all alike) */
	bool type_given[LAVD_MAX_CPUS];	/* ... stated by the override */
	bool have_little;		/* some online CPU is a little core */
	char type_src[48];		/* where the core types came from */
	char override[256];		/* --topology file applied, or "" */
	int nr_doms;
	int dom[LAVD_MAX_CPUS];		/* compute domain of each online CPU */
	struct lavd_dom_info {
		int node, llc;		/* compact indexes */
		bool big;
		int nr_cpus, cap;	/* online CPUs, sum of their capacities */
		int nr_nbr;		/* other domains, nearest first */
		int nbr[LAVD_MAX_DOMS];
		int nbr_dist[LAVD_MAX_DOMS];	/* 0 same LLC, 1 same node, 2 other */
	} doms[LAVD_MAX_DOMS];
	/* CPU preference orders of the online CPUs (core compaction) */
	int nr_order;
	int order_perf[LAVD_MAX_CPUS];	/* big first, one thread per core first */
	int order_save[LAVD_MAX_CPUS];	/* little first, SMT siblings packed */
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

/*
 * The topology override (lavd --topology FILE, cpdom.c): lines
 *   cpus LIST [node N] [llc N] [capacity 1..1024] [type big|little] [smt N]
 * replace what sysfs said for those CPUs; '#' starts a comment. Node and
 * LLC numbers are labels (renumbered compactly); smt N groups the listed
 * CPUs, in order, into cores of N threads. Every listed CPU must be
 * online. Returns 0, or -1 with "FILE:LINE: what" in err.
 */
int lavd_topo_override(const char *path, struct lavd_topo *t, char *err,
		       size_t errlen);

/* The same, from text (name is used in messages). */
int lavd_topo_override_text(const char *name, const char *text,
			    struct lavd_topo *t, char *err, size_t errlen);

/*
 * Derives the core types (unless an override stated them), the compute
 * domains with their neighbour lists and the CPU preference orders.
 * Returns 0, or -1 with a message (too many domains).
 */
int lavd_topo_domains(struct lavd_topo *t, char *err, size_t errlen);

#endif
