// SPDX-License-Identifier: GPL-2.0-only
#include "topo.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int lavd_parse_cpulist(const char *s, bool *set, int n)
{
	int count = 0;

	memset(set, 0, (size_t)n * sizeof(*set));
	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	for (;;) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*s))
			return -1;
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			b = strtol(s, &end, 10);
			s = end;
		}
		if (a < 0 || b < a || b >= n)
			return -1;
		for (long c = a; c <= b; c++) {
			if (!set[c])
				count++;
			set[c] = true;
		}
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s)
			return count;
		if (*s != ',')
			return -1;
		s++;
	}
}

/* First CPU of a CPU list file, or -1. */
static int first_cpu_of(const char *path)
{
	bool set[LAVD_MAX_CPUS];
	char buf[4096];

	if (gs_read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	if (lavd_parse_cpulist(buf, set, LAVD_MAX_CPUS) <= 0)
		return -1;
	for (int i = 0; i < LAVD_MAX_CPUS; i++)
		if (set[i])
			return i;
	return -1;
}

/*
 * The LLC of a CPU, named by the first CPU sharing it: the highest cache
 * level that is not instruction-only. -1 when sysfs has no cache info.
 */
static int llc_leader(const char *cpudir)
{
	int best_level = -1, leader = -1;
	char path[512], buf[64];

	for (int idx = 0; idx < 16; idx++) {
		int level;

		snprintf(path, sizeof(path), "%s/cache/index%d/level", cpudir, idx);
		if (gs_read_text(path, buf, sizeof(buf)) < 0)
			continue;	/* indexes are usually contiguous; do not rely on it */
		level = atoi(buf);
		snprintf(path, sizeof(path), "%s/cache/index%d/type", cpudir, idx);
		if (gs_read_text(path, buf, sizeof(buf)) >= 0 &&
		    strcmp(buf, "Instruction") == 0)
			continue;
		if (level > best_level) {
			int first;

			snprintf(path, sizeof(path),
				 "%s/cache/index%d/shared_cpu_list", cpudir, idx);
			first = first_cpu_of(path);
			if (first < 0)
				continue;
			best_level = level;
			leader = first;
		}
	}
	return leader;
}

/*
 * NUMA nodes: each root/devices/system/node/nodeN/cpulist names its CPUs.
 * Without them (no NUMA support, or a fake tree) every CPU is in node 0.
 * Nodes are renumbered compactly in the order of their first online CPU.
 */
static void read_nodes(const char *root, struct lavd_topo *t)
{
	int node_of[LAVD_MAX_CPUS], remap[LAVD_MAX_CPUS];
	bool set[LAVD_MAX_CPUS];
	char path[512], buf[4096];

	for (int c = 0; c < LAVD_MAX_CPUS; c++) {
		node_of[c] = -1;
		remap[c] = -1;
	}
	for (int n = 0; n < LAVD_MAX_CPUS; n++) {
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist",
			 root, n);
		if (gs_read_text(path, buf, sizeof(buf)) < 0 ||
		    lavd_parse_cpulist(buf, set, LAVD_MAX_CPUS) < 0)
			continue;
		for (int c = 0; c < LAVD_MAX_CPUS; c++)
			if (set[c] && node_of[c] < 0)
				node_of[c] = n;
	}
	t->nr_nodes = 0;
	for (int c = 0; c < t->nr_cpu_ids; c++) {
		int n = node_of[c] < 0 ? 0 : node_of[c];

		t->node[c] = 0;
		if (!t->online[c])
			continue;
		if (remap[n] < 0)
			remap[n] = t->nr_nodes++;
		t->node[c] = remap[n];
	}
	if (!t->nr_nodes)
		t->nr_nodes = 1;
}

/*
 * x86 hybrid CPUs (Intel P/E cores) have one perf PMU per core type:
 * root/devices/cpu_core/cpus lists the P-cores, .../cpu_atom/cpus the
 * E-cores. Recorded in t->hybrid[]; cpdom.c turns it into core types.
 */
static void read_hybrid(const char *root, struct lavd_topo *t)
{
	static const char *const pmu[2] = { "cpu_core", "cpu_atom" };
	bool set[LAVD_MAX_CPUS];
	char path[512], buf[4096];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/devices/%s/cpus", root, pmu[i]);
		if (gs_read_text(path, buf, sizeof(buf)) < 0 ||
		    lavd_parse_cpulist(buf, set, LAVD_MAX_CPUS) <= 0)
			continue;
		for (int c = 0; c < t->nr_cpu_ids; c++)
			if (set[c])
				t->hybrid[c] = i + 1;
	}
}

/* Which CPUs exist ("possible") and which are online. */
static int read_cpu_sets(const char *sysdir, struct lavd_topo *t, char *err,
			 size_t errlen)
{
	char path[512], buf[4096];
	bool possible[LAVD_MAX_CPUS];
	int n;

	snprintf(path, sizeof(path), "%s/possible", sysdir);
	if (gs_read_text(path, buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (lavd_parse_cpulist(buf, possible, LAVD_MAX_CPUS) <= 0) {
		snprintf(err, errlen,
			 "%s: '%s' is not a CPU list lavd can handle (at most %d CPUs)",
			 path, buf, LAVD_MAX_CPUS);
		return -1;
	}
	for (int c = 0; c < LAVD_MAX_CPUS; c++)
		if (possible[c])
			t->nr_cpu_ids = c + 1;

	snprintf(path, sizeof(path), "%s/online", sysdir);
	if (gs_read_text(path, buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	n = lavd_parse_cpulist(buf, t->online, LAVD_MAX_CPUS);
	if (n <= 0) {
		snprintf(err, errlen, "%s: '%s' is not a CPU list", path, buf);
		return -1;
	}
	t->nr_online = n;
	return 0;
}

/* Each online CPU's LLC (numbered compactly) and SMT core. */
static void read_llcs_and_cores(const char *sysdir, struct lavd_topo *t)
{
	int leader_to_llc[LAVD_MAX_CPUS], seen_core[LAVD_MAX_CPUS];
	char path[512];

	for (int c = 0; c < LAVD_MAX_CPUS; c++) {
		leader_to_llc[c] = -1;
		seen_core[c] = 0;
	}
	t->llc_from_cache = true;
	for (int c = 0; c < t->nr_cpu_ids; c++) {
		char cpudir[300];
		int leader, core;

		t->llc[c] = 0;
		t->core[c] = c;
		if (!t->online[c])
			continue;
		snprintf(cpudir, sizeof(cpudir), "%s/cpu%d", sysdir, c);

		leader = llc_leader(cpudir);
		if (leader < 0) {
			t->llc_from_cache = false;
			leader = 0;
		}
		if (leader_to_llc[leader] < 0)
			leader_to_llc[leader] = t->nr_llcs++;
		t->llc[c] = leader_to_llc[leader];

		snprintf(path, sizeof(path), "%s/topology/thread_siblings_list", cpudir);
		core = first_cpu_of(path);
		t->core[c] = core >= 0 ? core : c;
		if (t->core[c] != c)
			t->smt = true;
		if (!seen_core[t->core[c]]++)
			t->nr_cores++;
	}
	if (!t->llc_from_cache) {
		/* no cache info at all (some VMs): one shared LLC */
		for (int c = 0; c < t->nr_cpu_ids; c++)
			t->llc[c] = 0;
		t->nr_llcs = 1;
	}
}

/*
 * Capacities: cpu_capacity when every online CPU states one, else in
 * proportion to the CPUs' maximum frequencies, else all alike.
 */
static void read_capacities(const char *sysdir, struct lavd_topo *t)
{
	long maxfreq[LAVD_MAX_CPUS], fastest = 0;
	bool have_capacity = true, have_freq = true;
	char path[512], buf[4096];

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		t->capacity[c] = 1024;
		if (!t->online[c])
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/cpu_capacity", sysdir, c);
		if (gs_read_text(path, buf, sizeof(buf)) >= 0 && atoi(buf) > 0)
			t->capacity[c] = atoi(buf) > 1024 ? 1024 : atoi(buf);
		else
			have_capacity = false;
		snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/cpuinfo_max_freq", sysdir, c);
		maxfreq[c] = 0;
		if (gs_read_text(path, buf, sizeof(buf)) >= 0)
			maxfreq[c] = atol(buf);
		if (maxfreq[c] <= 0)
			have_freq = false;
		if (maxfreq[c] > fastest)
			fastest = maxfreq[c];
	}
	if (have_capacity) {
		gs_strlcpy(t->capacity_src, "cpu_capacity", sizeof(t->capacity_src));
	} else if (have_freq && fastest > 0) {
		for (int c = 0; c < t->nr_cpu_ids; c++)
			if (t->online[c])
				t->capacity[c] = (int)(maxfreq[c] * 1024 / fastest);
		gs_strlcpy(t->capacity_src, "cpufreq", sizeof(t->capacity_src));
	} else {
		for (int c = 0; c < t->nr_cpu_ids; c++)
			t->capacity[c] = 1024;
		gs_strlcpy(t->capacity_src, "uniform", sizeof(t->capacity_src));
	}
}

int lavd_topo_read(const char *root, struct lavd_topo *t, char *err,
		   size_t errlen)
{
	char sysdir[256];

	memset(t, 0, sizeof(*t));
	snprintf(sysdir, sizeof(sysdir), "%s/devices/system/cpu", root);
	if (read_cpu_sets(sysdir, t, err, errlen) != 0)
		return -1;
	read_llcs_and_cores(sysdir, t);
	if (t->nr_llcs > LAVD_MAX_LLCS) {
		snprintf(err, errlen, "%d last-level caches: lavd handles at most %d",
			 t->nr_llcs, LAVD_MAX_LLCS);
		return -1;
	}
	read_capacities(sysdir, t);
	read_nodes(root, t);
	read_hybrid(root, t);
	return 0;
}
