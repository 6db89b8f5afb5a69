// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compute domains, core types and CPU preference orders for lavd, and the
 * topology override file that lets tests (host and VM) state a topology
 * the machine does not have. Pure C over struct lavd_topo; no libbpf, so
 * it is unit-tested on the host (tests/test_lavd_domains.c).
 *
 * A compute domain is the set of online CPUs sharing a NUMA node, a
 * last-level cache and a core type (docs/lavd.md); each gets its own queue in
 * BPF. Its neighbours are the other domains, nearest first: distance 0
 * shares the LLC (the other core type), 1 shares the node, 2 is another
 * node.
 */
#include "topo.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* E-core capacity assumed on an x86 hybrid that states none (5/8). */
#define HYBRID_LITTLE_CAP	640

/* ---- the override file ---- */

struct ovr {
	int node, llc, cap, type, smt;	/* -1: not stated */
};

/* A whole-token integer in [lo, hi]; -1 when it is not one. */
static long int_in(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	return v;
}

/*
 * Renumbers labels compactly in the order of the first online CPU that
 * has them. key[c] encodes where the value came from, so that an
 * override label and a sysfs index never collide.
 */
static int renumber(const struct lavd_topo *t, const long *key, int *out)
{
	long seen[LAVD_MAX_CPUS];
	int n = 0;

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		int i;

		out[c] = 0;
		if (!t->online[c])
			continue;
		for (i = 0; i < n && seen[i] != key[c]; i++)
			;
		if (i == n)
			seen[n++] = key[c];
		out[c] = i;
	}
	return n ? n : 1;
}

/* Where an override line is read, for its errors ("FILE:LINE: what"). */
struct ovr_src {
	const char *name;
	int lineno;
	char *err;
	size_t errlen;
};

#define OVR_ERR(src, ...) \
	gs_err_at((src)->err, (src)->errlen, (src)->name, (src)->lineno, __VA_ARGS__)

/* One "key value" pair of a line into v. Returns 0, or -1 with the error. */
static int parse_key(const struct ovr_src *src, const char *k, const char *val,
		     struct ovr *v)
{
	long x;

	if (!strcmp(k, "node")) {
		if ((x = int_in(val, 0, LAVD_MAX_CPUS - 1)) < 0)
			return OVR_ERR(src, "node: expected 0..%d, got '%s'",
				       LAVD_MAX_CPUS - 1, val);
		v->node = (int)x;
	} else if (!strcmp(k, "llc")) {
		if ((x = int_in(val, 0, 4095)) < 0)
			return OVR_ERR(src, "llc: expected 0..4095, got '%s'", val);
		v->llc = (int)x;
	} else if (!strcmp(k, "capacity")) {
		if ((x = int_in(val, 1, 1024)) < 0)
			return OVR_ERR(src, "capacity: expected 1..1024, got '%s'", val);
		v->cap = (int)x;
	} else if (!strcmp(k, "type")) {
		if (!strcmp(val, "big"))
			v->type = 1;
		else if (!strcmp(val, "little"))
			v->type = 0;
		else
			return OVR_ERR(src, "type: expected big or little, got '%s'", val);
	} else if (!strcmp(k, "smt")) {
		if ((x = int_in(val, 1, 8)) < 0)
			return OVR_ERR(src, "smt: expected 1..8 threads per core, got '%s'",
				       val);
		v->smt = (int)x;
	} else {
		return OVR_ERR(src, "unknown key '%s' (node, llc, capacity, type, smt)", k);
	}
	return 0;
}

/*
 * One line (comment cut, modified in place): its CPUs into set, its keys
 * into v. Returns 1, 0 for a line with nothing on it, or -1 with the error.
 */
static int parse_line(const struct ovr_src *src, char *line, bool *set,
		      struct ovr *v)
{
	char *tok[32], *save = NULL, *w;
	int ntok = 0;

	if ((w = strchr(line, '#')))
		*w = '\0';
	for (w = strtok_r(line, " \t\r", &save); w;
	     w = strtok_r(NULL, " \t\r", &save)) {
		if (ntok == 32)
			return OVR_ERR(src, "too many words");
		tok[ntok++] = w;
	}
	if (!ntok)
		return 0;
	if (strcmp(tok[0], "cpus") || ntok < 2)
		return OVR_ERR(src, "expected 'cpus LIST [node N] [llc N] [capacity N] "
			       "[type big|little] [smt N]', got '%s'", tok[0]);
	if (lavd_parse_cpulist(tok[1], set, LAVD_MAX_CPUS) <= 0)
		return OVR_ERR(src, "'%s' is not a CPU list", tok[1]);
	if ((ntok - 2) % 2)
		return OVR_ERR(src, "'%s' needs a value", tok[ntok - 1]);
	for (int i = 2; i < ntok; i += 2)
		if (parse_key(src, tok[i], tok[i + 1], v) != 0)
			return -1;
	return 1;
}

/*
 * A line's values for each of its CPUs (o, listed: per CPU); smt N makes
 * cores of its CPUs, in order. Returns 0, or -1 with the error.
 */
static int assign_line(const struct ovr_src *src, struct lavd_topo *t,
		       struct ovr *o, bool *listed, const bool *set,
		       const struct ovr *v)
{
	int k = 0, first = -1;

	for (int c = 0; c < LAVD_MAX_CPUS; c++) {
		if (!set[c])
			continue;
		/* an offline CPU may be described (it is used once it comes
		 * online, and a hotplug restart re-reads the file); one the
		 * machine cannot have is an error */
		if (c >= t->nr_cpu_ids)
			return OVR_ERR(src, "CPU %d does not exist (%d possible CPUs)",
				       c, t->nr_cpu_ids);
		if (listed[c])
			return OVR_ERR(src, "CPU %d is listed twice", c);
		listed[c] = true;
		o[c] = *v;
	}
	for (int c = 0; v->smt > 0 && c < LAVD_MAX_CPUS; c++) {
		if (!set[c])
			continue;
		if (k++ % v->smt == 0)
			first = c;
		t->core[c] = first;
	}
	return 0;
}

/* SMT flag and core count again after smt N regrouped cores. */
static void recount_cores(struct lavd_topo *t)
{
	bool seen[LAVD_MAX_CPUS] = { false };

	t->smt = false;
	t->nr_cores = 0;
	for (int c = 0; c < t->nr_cpu_ids; c++) {
		if (!t->online[c])
			continue;
		if (t->core[c] != c)
			t->smt = true;
		if (!seen[t->core[c]]) {
			seen[t->core[c]] = true;
			t->nr_cores++;
		}
	}
}

/* The collected per-CPU values (o) into t. Returns 0, or -1 with the error. */
static int apply_override(const struct ovr_src *src, struct lavd_topo *t,
			  const struct ovr *o)
{
	long llc_key[LAVD_MAX_CPUS], node_key[LAVD_MAX_CPUS];

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		llc_key[c] = o[c].llc >= 0 ? 100000L + o[c].llc : t->llc[c];
		node_key[c] = o[c].node >= 0 ? 100000L + o[c].node : t->node[c];
		if (o[c].cap > 0)
			t->capacity[c] = o[c].cap;
		if (o[c].type >= 0) {
			t->big[c] = o[c].type == 1;
			t->type_given[c] = true;
		}
	}
	t->nr_llcs = renumber(t, llc_key, t->llc);
	t->nr_nodes = renumber(t, node_key, t->node);
	if (t->nr_llcs > LAVD_MAX_LLCS)
		return OVR_ERR(src, "%d LLCs: at most %d", t->nr_llcs, LAVD_MAX_LLCS);
	t->llc_from_cache = true;
	return 0;
}

int lavd_topo_override_text(const char *name, const char *text,
			    struct lavd_topo *t, char *err, size_t errlen)
{
	static struct ovr o[LAVD_MAX_CPUS];
	static bool listed[LAVD_MAX_CPUS];
	struct ovr_src src = { name, 0, err, errlen };
	bool any_cap = false, any_type = false, any_smt = false;
	const char *p = text;

	for (int c = 0; c < LAVD_MAX_CPUS; c++) {
		o[c] = (struct ovr){ -1, -1, -1, -1, -1 };
		listed[c] = false;
	}
	while (*p) {
		char line[1024];
		bool set[LAVD_MAX_CPUS];
		struct ovr v = { -1, -1, -1, -1, -1 };
		size_t len = strcspn(p, "\n");
		int r;

		src.lineno++;
		if (len >= sizeof(line))
			return OVR_ERR(&src, "line too long");
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (p[len] == '\n');
		r = parse_line(&src, line, set, &v);
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		if (assign_line(&src, t, o, listed, set, &v) != 0)
			return -1;
		any_smt |= v.smt > 0;
		any_cap |= v.cap > 0;
		any_type |= v.type >= 0;
	}
	if (apply_override(&src, t, o) != 0)
		return -1;
	if (any_smt)
		recount_cores(t);
	if (any_cap)
		gs_strlcpy(t->capacity_src, "override", sizeof(t->capacity_src));
	if (any_type)
		gs_strlcpy(t->type_src, "override", sizeof(t->type_src));
	gs_strlcpy(t->override, name, sizeof(t->override));
	return 0;
}

int lavd_topo_override(const char *path, struct lavd_topo *t, char *err,
		       size_t errlen)
{
	const size_t max = 256 * 1024;
	char e[1000];
	char *buf;
	size_t n;
	int rc;

	/* one byte past the limit tells a file of exactly max bytes from a
	 * longer one */
	if (gs_read_file(path, max + 1, &buf, &n, e, sizeof(e))) {
		snprintf(err, errlen, "cannot open %s", e);
		return -1;
	}
	rc = -1;
	if (n > max)
		snprintf(err, errlen, "%s: larger than 256 KiB", path);
	else if (memchr(buf, '\0', n))
		gs_err_at(err, errlen, path, gs_nul_line(buf, n),
			  "a NUL byte: not a text file");
	else
		rc = lavd_topo_override_text(path, buf, t, err, errlen);
	free(buf);
	return rc;
}

/* ---- core types, domains, orders ---- */

static void derive_core_types(struct lavd_topo *t)
{
	int cmin = 1024, cmax = 0, nr_core = 0, nr_atom = 0, nr_on = 0;
	bool given = false;

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		if (!t->online[c])
			continue;
		nr_on++;
		given |= t->type_given[c];
		nr_core += t->hybrid[c] == 1;
		nr_atom += t->hybrid[c] == 2;
		if (t->capacity[c] < cmin)
			cmin = t->capacity[c];
		if (t->capacity[c] > cmax)
			cmax = t->capacity[c];
	}
	if (nr_core && nr_atom && nr_core + nr_atom == nr_on) {
		/* x86 hybrid: the PMUs say which cores are which */
		bool flat = cmin * 5 >= cmax * 4;

		for (int c = 0; c < t->nr_cpu_ids; c++) {
			if (!t->online[c] || t->type_given[c])
				continue;
			t->big[c] = t->hybrid[c] == 1;
			if (flat && !t->big[c])
				t->capacity[c] = HYBRID_LITTLE_CAP;
		}
		if (!given)
			snprintf(t->type_src, sizeof(t->type_src), "x86 hybrid%s",
				 flat ? ", E-core capacity assumed 640" : "");
	} else if (cmin * 5 < cmax * 4) {
		/* capacities differ by more than 20 %: big above the midpoint
		 * (turbo cores a few percent faster are not another type) */
		for (int c = 0; c < t->nr_cpu_ids; c++)
			if (t->online[c] && !t->type_given[c])
				t->big[c] = t->capacity[c] * 2 >= cmin + cmax;
		if (!given)
			gs_strlcpy(t->type_src, t->capacity_src, sizeof(t->type_src));
	} else {
		for (int c = 0; c < t->nr_cpu_ids; c++)
			if (t->online[c] && !t->type_given[c])
				t->big[c] = true;
		if (!given)
			gs_strlcpy(t->type_src, "uniform", sizeof(t->type_src));
	}
	t->have_little = false;
	for (int c = 0; c < t->nr_cpu_ids; c++)
		if (t->online[c] && !t->big[c])
			t->have_little = true;
}

static int dom_distance(const struct lavd_dom_info *a, const struct lavd_dom_info *b)
{
	if (a->node != b->node)
		return 2;
	return a->llc == b->llc ? 0 : 1;
}

/* Sort keys of the preference orders, compared lexicographically. */
struct order_key {
	int cpu;
	int k[5];
};

static int cmp_key(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	for (int i = 0; i < 5; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return x->cpu - y->cpu;
}

/* One domain per (node, LLC, core type) of the online CPUs. */
static int build_domains(struct lavd_topo *t, char *err, size_t errlen)
{
	t->nr_doms = 0;
	memset(t->doms, 0, sizeof(t->doms));
	for (int c = 0; c < t->nr_cpu_ids; c++) {
		int d;

		t->dom[c] = 0;
		if (!t->online[c])
			continue;
		for (d = 0; d < t->nr_doms; d++)
			if (t->doms[d].node == t->node[c] && t->doms[d].llc == t->llc[c] &&
			    t->doms[d].big == t->big[c])
				break;
		if (d == t->nr_doms) {
			if (d == LAVD_MAX_DOMS) {
				snprintf(err, errlen, "more than %d compute domains "
					 "(NUMA node x LLC x core type)", LAVD_MAX_DOMS);
				return -1;
			}
			t->doms[d].node = t->node[c];
			t->doms[d].llc = t->llc[c];
			t->doms[d].big = t->big[c];
			t->nr_doms++;
		}
		t->dom[c] = d;
		t->doms[d].nr_cpus++;
		t->doms[d].cap += t->capacity[c];
	}
	if (!t->nr_doms) {
		snprintf(err, errlen, "no online CPU");
		return -1;
	}
	return 0;
}

/*
 * Each domain's neighbours: nearest first, and at one distance in
 * circular order starting after the domain itself, so that domains do
 * not all pick the same neighbour first.
 */
static void link_neighbours(struct lavd_topo *t)
{
	for (int d = 0; d < t->nr_doms; d++) {
		struct lavd_dom_info *di = &t->doms[d];

		di->nr_nbr = 0;
		for (int dist = 0; dist < LAVD_DOM_DIST; dist++)
			for (int i = 1; i < t->nr_doms; i++) {
				int e = (d + i) % t->nr_doms;

				if (dom_distance(di, &t->doms[e]) != dist)
					continue;
				di->nbr[di->nr_nbr] = e;
				di->nbr_dist[di->nr_nbr] = dist;
				di->nr_nbr++;
			}
	}
}

/* The preference orders of the online CPUs (core compaction). */
static void build_orders(struct lavd_topo *t)
{
	static struct order_key keys[LAVD_MAX_CPUS];
	int rank[LAVD_MAX_CPUS];	/* thread index within its core */
	int n;

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		rank[c] = 0;
		if (!t->online[c])
			continue;
		for (int s = 0; s < c; s++)
			if (t->online[s] && t->core[s] == t->core[c])
				rank[c]++;
	}
	/* performance: big first, one thread of every core before the
	 * second threads, then compact by node, LLC and core */
	n = 0;
	for (int c = 0; c < t->nr_cpu_ids; c++)
		if (t->online[c])
			keys[n++] = (struct order_key){ c, { !t->big[c], rank[c], t->node[c],
						       t->llc[c], t->core[c] } };
	qsort(keys, (size_t)n, sizeof(keys[0]), cmp_key);
	for (int i = 0; i < n; i++)
		t->order_perf[i] = keys[i].cpu;
	/* powersave: little first, SMT siblings together, compact */
	n = 0;
	for (int c = 0; c < t->nr_cpu_ids; c++)
		if (t->online[c])
			keys[n++] = (struct order_key){ c, { t->big[c], t->node[c], t->llc[c],
						       t->core[c], rank[c] } };
	qsort(keys, (size_t)n, sizeof(keys[0]), cmp_key);
	for (int i = 0; i < n; i++)
		t->order_save[i] = keys[i].cpu;
	t->nr_order = n;
}

int lavd_topo_domains(struct lavd_topo *t, char *err, size_t errlen)
{
	derive_core_types(t);
	if (build_domains(t, err, errlen) != 0)
		return -1;
	link_neighbours(t);
	build_orders(t);
	return 0;
}
