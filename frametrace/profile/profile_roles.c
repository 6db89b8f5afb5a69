// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who does what for the frames (pipeline.h): from how often each
 * thread signals each other one per frame, the job pool, the services and
 * the stages from the presenter back; then the rest (profile_side.c) and
 * the steps (profile_steps.c).
 */
#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Relations are counted per frame of the window: a hand-off or a pool's
 * use at least half a time per frame, a call 0.3 times (a stage may call
 * once every few frames), a reply for 30 % of the requests (a reply to a
 * caller that had not gone to sleep yet is not in a trace without futex
 * calls). */
#define HANDOFF_PER_FRAME 0.5
#define CALL_PER_FRAME 0.3
#define REPLY_SHARE 0.3
#define POOL_PER_FRAME 0.2	/* a pool thread: signalled by its caller */

/* ---- roles ------------------------------------------------------------ */

struct edge {
	uint32_t from, to, n;
};

struct graph {
	struct edge *out, *in;	/* sorted by from, by to */
	size_t n;
	size_t *out0, *in0;	/* [ntask + 1] */
};

static int by_from(const void *x, const void *y)
{
	const struct edge *p = x, *q = y;

	return p->from != q->from ? (p->from < q->from ? -1 : 1)
				  : (p->to < q->to ? -1 : p->to > q->to);
}

static int by_to(const void *x, const void *y)
{
	const struct edge *p = x, *q = y;

	return p->to != q->to ? (p->to < q->to ? -1 : 1)
			      : (p->from < q->from ? -1 : p->from > q->from);
}

static void graph_free(struct graph *g)
{
	free(g->out);
	free(g->in);
	free(g->out0);
	free(g->in0);
}

static int graph_build(const struct ft_pr_analysis *a, struct graph *g)
{
	size_t nt = a->m->ntask, k = 0;

	memset(g, 0, sizeof(*g));
	g->out = malloc((a->h.n ? a->h.n : 1) * sizeof(struct edge));
	g->in = malloc((a->h.n ? a->h.n : 1) * sizeof(struct edge));
	g->out0 = calloc(nt + 1, sizeof(size_t));
	g->in0 = calloc(nt + 1, sizeof(size_t));
	if (!g->out || !g->in || !g->out0 || !g->in0)
		return -1;
	for (size_t i = 0; i < a->h.cap; i++)
		if (a->h.keys[i]) {
			uint64_t key = a->h.keys[i] - 1;

			g->out[k++] = (struct edge){ (uint32_t)(key >> 32),
						     (uint32_t)key, a->h.vals[i] };
		}
	g->n = k;
	memcpy(g->in, g->out, k * sizeof(struct edge));
	qsort(g->out, k, sizeof(struct edge), by_from);
	qsort(g->in, k, sizeof(struct edge), by_to);
	for (size_t i = 0, j = 0, l = 0; i <= nt; i++) {
		while (j < k && g->out[j].from < i)
			j++;
		while (l < k && g->in[l].to < i)
			l++;
		g->out0[i] = j;
		g->in0[i] = l;
	}
	return 0;
}

static int stem_cmp_a(const struct ft_pr_analysis *a, size_t x, size_t y)
{
	char sx[16], sy[16];

	if (a->m->task[x].pid != a->m->task[y].pid)
		return a->m->task[x].pid < a->m->task[y].pid ? -1 : 1;
	ft_pf_stem(ft_task_comm(a->t, a->m->task[x].tid), sx, sizeof(sx));
	ft_pf_stem(ft_task_comm(a->t, a->m->task[y].tid), sy, sizeof(sy));
	return strcmp(sx, sy);
}

static const struct ft_pr_analysis *sort_a;

static int stem_cmp(const void *x, const void *y)
{
	int c = stem_cmp_a(sort_a, *(const size_t *)x, *(const size_t *)y);

	if (c)
		return c;
	return sort_a->th[*(const size_t *)x].cpu > sort_a->th[*(const size_t *)y].cpu ? -1 : 1;
}

/* The members of a name group [s, e) of idx that caller signals
 * POOL_PER_FRAME times a frame or more, caller itself left out; their
 * CPU. */
static unsigned pool_members(const struct ft_pr_analysis *a, const size_t *idx,
			     size_t s, size_t e, size_t caller, uint64_t *cpu)
{
	unsigned n = 0;

	*cpu = 0;
	for (size_t k = s; k < e; k++)
		if (idx[k] != caller &&
		    (double)ft_pr_h(a, caller, idx[k]) >= POOL_PER_FRAME * (double)a->nf) {
			n++;
			*cpu += a->th[idx[k]].cpu;
		}
	return n;
}

/*
 * The job pool: two or more threads of one process with one name but for
 * a number (Wine's threads may all have the game's name), signalled by one
 * thread (the group's own or another) at least HANDOFF_PER_FRAME times a
 * frame in all and signalling it back (the fan-in) or nobody else; the
 * members are those it signals, itself left out; the busiest such group.
 */
static int find_pool(struct ft_pr_analysis *a, const struct graph *g)
{
	size_t nt = a->m->ntask, n = 0, best_start = 0, best_e = 0, best_caller = 0;
	size_t *idx = malloc((nt ? nt : 1) * sizeof(size_t));
	uint64_t best_cpu = 0;
	long presenter = ft_pr_index(a, a->presenter);

	if (!idx)
		return -1;
	for (size_t i = 0; i < nt; i++)
		if (ft_pr_usable(a, i) && (long)i != presenter)
			idx[n++] = i;
	sort_a = a;
	qsort(idx, n, sizeof(size_t), stem_cmp);
	for (size_t s = 0; s < n;) {
		size_t e = s + 1;
		uint64_t in_best = 0, back = 0, cpu;
		long caller = -1;
		struct ft_map in;

		while (e < n && !stem_cmp_a(a, idx[s], idx[e]))
			e++;
		if (e - s < 2) {
			s = e;
			continue;
		}
		/* who signals the group most, its own members counted too */
		ft_map_init(&in);
		for (size_t k = s; k < e; k++)
			for (size_t j = g->in0[idx[k]]; j < g->in0[idx[k] + 1]; j++) {
				const struct edge *ed = &g->in[j];
				uint32_t *c;

				c = ft_map_put(&in, ed->from, 0, NULL);
				if (!c) {
					ft_map_free(&in);
					free(idx);
					return -1;
				}
				*c += ed->n;
				if (*c > in_best) {
					in_best = *c;
					caller = ed->from;
				}
			}
		ft_map_free(&in);
		/* the game's pool: another program's busier one (a glxgears
		 * running beside a replay) is not */
		if (caller >= 0 && a->m->task[idx[s]].pid != a->pid &&
		    a->m->task[caller].pid != a->pid)
			caller = -1;
		if (caller >= 0 &&
		    pool_members(a, idx, s, e, (size_t)caller, &cpu) >= 2) {
			uint64_t others = 0;

			for (size_t k = s; k < e; k++) {
				if (idx[k] == (size_t)caller)
					continue;
				back += ft_pr_h(a, idx[k], (size_t)caller);
				for (size_t j = g->out0[idx[k]]; j < g->out0[idx[k] + 1]; j++)
					others += g->out[j].to != (size_t)caller ? g->out[j].n : 0;
			}
			/* the fan-in, or (an asynchronous fan-out, whose fan-in
			 * wakes the caller only when it waits) no signal to
			 * anyone else: not a stage handing frames on */
			if ((double)in_best >= HANDOFF_PER_FRAME * (double)a->nf &&
			    ((double)back >= 0.2 * (double)a->nf ||
			     (double)others < 0.2 * (double)a->nf) && cpu > best_cpu) {
				best_cpu = cpu;
				best_start = s;
				best_e = e;
				best_caller = (size_t)caller;
			}
		}
		s = e;
	}
	if (best_e) {
		a->pool_caller = a->m->task[best_caller].tid;
		for (size_t k = best_start; k < best_e && a->npool < PR_MAX_POOL; k++) {
			size_t ti = idx[k];

			if (ti == best_caller ||
			    (double)ft_pr_h(a, best_caller, ti) < POOL_PER_FRAME * (double)a->nf)
				continue;
			a->pool[a->npool++] = a->m->task[ti].tid;
			a->th[ti].role = PR_POOL;
		}
		ft_pf_stem(ft_task_comm(a->t, a->pool[0]), a->pool_stem, sizeof(a->pool_stem));
	}
	free(idx);
	return 0;
}

/* Callers of ti: they signal it CALL_PER_FRAME times a frame or more and
 * it signals them back for REPLY_SHARE of that. */
static bool is_client(const struct ft_pr_analysis *a, size_t x, size_t s)
{
	uint32_t req = ft_pr_h(a, x, s);

	if (a->th[x].role == PR_POOL)
		return false;	/* a fan-in, not a reply */

	return (double)req >= CALL_PER_FRAME * (double)a->nf &&
	       (double)ft_pr_h(a, s, x) >= REPLY_SHARE * (double)req;
}

static unsigned clients_of(const struct ft_pr_analysis *a, const struct graph *g,
			   size_t s, uint64_t *to_clients)
{
	unsigned n = 0;

	*to_clients = 0;
	for (size_t j = g->in0[s]; j < g->in0[s + 1]; j++)
		if (is_client(a, g->in[j].from, s)) {
			n++;
			*to_clients += ft_pr_h(a, s, g->in[j].from);
		}
	return n;
}

/* Service candidates: threads that answer their callers and signal
 * little else, woken by tasks more than by timers. A thread whose only
 * caller is itself a candidate with more callers is that one's client. */
static void find_service_candidates(struct ft_pr_analysis *a, const struct graph *g)
{
	size_t nt = a->m->ntask;
	long presenter = ft_pr_index(a, a->presenter);
	unsigned *ncl = calloc(nt ? nt : 1, sizeof(unsigned));

	if (!ncl)
		return;
	for (size_t s = 0; s < nt; s++) {
		uint64_t to_clients, out = 0;

		if (!ft_pr_usable(a, s) || (long)s == presenter || a->th[s].role)
			continue;
		for (size_t j = g->out0[s]; j < g->out0[s + 1]; j++) {
			out += g->out[j].n;
			/* a thread that fans out is a stage (framebench's
			 * services only work) */
			if (a->th[g->out[j].to].role == PR_POOL &&
			    (double)g->out[j].n >= CALL_PER_FRAME * (double)a->nf)
				out = UINT64_MAX / 2;
		}
		ncl[s] = clients_of(a, g, s, &to_clients);
		if (ncl[s] && to_clients * 10 >= out * 8 &&
		    a->th[s].task_wakes >= a->th[s].irq_wakes)
			a->th[s].svc_cand = true;
		else
			ncl[s] = 0;
	}
	for (size_t s = 0; s < nt; s++) {
		bool keep = false;

		if (!a->th[s].svc_cand)
			continue;
		for (size_t j = g->in0[s]; j < g->in0[s + 1] && !keep; j++) {
			size_t x = g->in[j].from;

			if (is_client(a, x, s) && (!a->th[x].svc_cand || ncl[x] < ncl[s]))
				keep = true;
		}
		if (!keep)
			a->th[s].svc_cand = false;
	}
	free(ncl);
}

static bool stage_cand(const struct ft_pr_analysis *a, size_t ti)
{
	return ft_pr_usable(a, ti) && !a->th[ti].role && !a->th[ti].svc_cand;
}

/* The stage X hands frames to: signalled HANDOFF_PER_FRAME times a frame
 * or more, never answering X as a service would. */
static long successor(const struct ft_pr_analysis *a, const struct graph *g,
		      size_t x, long presenter)
{
	long best = -1;
	uint32_t bn = 0;

	for (size_t j = g->out0[x]; j < g->out0[x + 1]; j++) {
		const struct edge *e = &g->out[j];

		if ((long)e->to != presenter && !stage_cand(a, e->to))
			continue;
		if ((double)e->n < HANDOFF_PER_FRAME * (double)a->nf ||
		    (double)ft_pr_h(a, e->to, x) >= REPLY_SHARE * (double)e->n)
			continue;
		if (e->n > bn) {
			bn = e->n;
			best = e->to;
		}
	}
	return best;
}

static long predecessor(const struct ft_pr_analysis *a, const struct graph *g,
			size_t x)
{
	long best = -1;
	uint32_t bn = 0;

	for (size_t j = g->in0[x]; j < g->in0[x + 1]; j++) {
		const struct edge *e = &g->in[j];

		if (!stage_cand(a, e->from))
			continue;
		if ((double)e->n < HANDOFF_PER_FRAME * (double)a->nf ||
		    (double)ft_pr_h(a, x, e->from) >= REPLY_SHARE * (double)e->n)
			continue;
		if (e->n > bn) {
			bn = e->n;
			best = e->from;
		}
	}
	return best;
}

static bool in_list(const long *v, size_t n, long x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/*
 * The stages: from the presenter forward along the hand-offs (the
 * presenter frees a frame slot for the first stage) until the chain comes
 * back to it, and backward from it along the hand-offs it receives, until
 * the two meet. A chain that comes back to a stage other than the
 * presenter is a cycle framebench cannot run.
 */
static int find_stages(struct ft_pr_analysis *a, const struct graph *g, char *err,
		       size_t errlen)
{
	long P = ft_pr_index(a, a->presenter), fw[PR_MAX_STAGES * 2], bw[PR_MAX_STAGES * 2];
	size_t nfw = 0, nbw = 0, n;
	long cur = P;
	char b1[64], b2[64];

	while (nfw < PR_MAX_STAGES * 2) {
		long y = successor(a, g, (size_t)cur, P);

		if (y < 0 || y == P)
			break;
		if (in_list(fw, nfw, y)) {
			snprintf(err, errlen,
				 "a cycle in the chain: %s hands frames back to "
				 "%s, an earlier stage; framebench's stages run "
				 "in one order",
				 ft_pr_label(a, a->m->task[cur].tid, b1, sizeof(b1)),
				 ft_pr_label(a, a->m->task[y].tid, b2, sizeof(b2)));
			return -1;
		}
		fw[nfw++] = y;
		cur = y;
	}
	cur = P;
	while (nbw < PR_MAX_STAGES * 2) {
		long x = predecessor(a, g, (size_t)cur);

		if (x < 0 || x == P || in_list(fw, nfw, x))
			break;
		if (in_list(bw, nbw, x)) {
			snprintf(err, errlen,
				 "a cycle in the chain: %s hands frames to %s, "
				 "which hands them back",
				 ft_pr_label(a, a->m->task[x].tid, b1, sizeof(b1)),
				 ft_pr_label(a, a->m->task[cur].tid, b2, sizeof(b2)));
			return -1;
		}
		bw[nbw++] = x;
		cur = x;
	}
	n = nfw + nbw + 1;
	if (n > PR_MAX_STAGES)
		snprintf(a->dropped + strlen(a->dropped),
			 sizeof(a->dropped) - strlen(a->dropped),
			 "%s%zu stages before the first %d left out (framebench "
			 "has at most %d)", *a->dropped ? "; " : "",
			 n - PR_MAX_STAGES, PR_MAX_STAGES, PR_MAX_STAGES);
	for (size_t i = 0; i < n; i++) {
		long ti = i < nfw ? fw[i] : i < nfw + nbw ? bw[nbw - 1 - (i - nfw)] : P;
		struct ft_pr_stage *st;

		if (n - i > PR_MAX_STAGES)
			continue;
		st = &a->stage[a->nstages];
		st->tid = a->m->task[ti].tid;
		a->th[ti].role = PR_STAGE;
		a->th[ti].idx = (int8_t)a->nstages++;
	}
	return 0;
}

static void find_services(struct ft_pr_analysis *a, const struct graph *g)
{
	size_t nt = a->m->ntask;

	(void)g;
	for (;;) {
		long best = -1;

		for (size_t s = 0; s < nt; s++) {
			bool called = false;

			if (!a->th[s].svc_cand || a->th[s].role)
				continue;
			for (unsigned k = 0; k < a->nstages; k++)
				called |= is_client(a, (size_t)ft_pr_index(a, a->stage[k].tid), s);
			if (called && (best < 0 || a->th[s].cpu > a->th[best].cpu))
				best = (long)s;
		}
		if (best < 0)
			break;
		if (a->nsvc == PR_MAX_SERVICES) {
			snprintf(a->dropped + strlen(a->dropped),
				 sizeof(a->dropped) - strlen(a->dropped),
				 "%sservice %s:%u left out (framebench has at "
				 "most %d)", *a->dropped ? "; " : "",
				 ft_task_comm(a->t, a->m->task[best].tid),
				 a->m->task[best].tid, PR_MAX_SERVICES);
			a->th[best].svc_cand = false;
			continue;
		}
		a->svc[a->nsvc].tid = a->m->task[best].tid;
		a->th[best].role = PR_SERVICE;
		a->th[best].idx = (int8_t)a->nsvc++;
	}
}

static bool unnamed(const struct ft_pr_analysis *a, uint32_t tid)
{
	const struct ft_task_rec *r = ft_task_get(a->t, tid);

	return !r || !r->comm[0];
}

/* The threads with a role must have names: a pool is told by its
 * members' common name and every line names its thread. A trace whose
 * task table was lost (a damaged file) has the threads and their tgids
 * (from the events) but no names: every thread is "?", every process one
 * pool. Refused rather than written as a profile of process "?". */
static int roles_named(const struct ft_pr_analysis *a, char *err, size_t errlen)
{
	unsigned n = 0, bad = 0;

	for (unsigned k = 0; k < a->nstages; k++, n++)
		bad += unnamed(a, a->stage[k].tid);
	for (unsigned k = 0; k < a->npool; k++, n++)
		bad += unnamed(a, a->pool[k]);
	for (unsigned k = 0; k < a->nsvc; k++, n++)
		bad += unnamed(a, a->svc[k].tid);
	if (!bad)
		return 0;
	snprintf(err, errlen,
		 "the trace has no name for %u of the %u threads that would "
		 "have a role%s (their task records are missing%s), so the "
		 "stages, the pool and the services cannot be told apart",
		 bad, n, unnamed(a, a->pid) ? ", nor for the game's process" : "",
		 a->t->corrupt_events || a->t->corrupt_bytes
			 ? ": the file is damaged"
			 : "");
	return -1;
}

int ft_pr_analyze(struct ft_pr_analysis *a, const struct ft_model *m,
	       const struct ft_pr_opts *o, char *err, size_t errlen)
{
	struct ft_pr_fxu *u = NULL;
	size_t nu = 0;
	struct graph g = { 0 };
	int rc;

	memset(a, 0, sizeof(*a));
	a->m = m;
	a->t = m->t;
	a->o = *o;
	ft_map_init(&a->h);
	for (int k = 0; k < PR_PER_N; k++)
		a->per[k].lock = -1;
	if ((rc = ft_pr_pick_frames(a, err, errlen)))
		return rc;
	a->th = calloc(m->ntask ? m->ntask : 1, sizeof(*a->th));
	if (!a->th)
		return -2;
	for (size_t ti = 0; ti < m->ntask; ti++) {
		const struct ft_tstat *s = &m->task[ti];
		const struct ft_task_rec *r = ft_task_get(a->t, s->tid);
		uint64_t *pre;

		a->th[ti].recorder = s->recorder || (r && (r->flags & FT_TASK_RECORDER));
		a->th[ti].kthread = ft_task_kthread(a->t, s->tid);
		a->th[ti].idx = -1;
		pre = malloc((s->segs.n + 1) * sizeof(*pre));
		if (!pre)
			return -2;
		pre[0] = 0;
		for (size_t j = 0; j < s->segs.n; j++) {
			const struct ft_seg *sg = &m->seg[s->segs.v[j]];

			pre[j + 1] = pre[j] + (sg->end - sg->start);
		}
		a->th[ti].pre = pre;
		a->th[ti].cpu = ft_pr_cpu_in(a, ti, a->wa, a->wb);
	}
	if ((rc = ft_pr_find_presenter(a, err, errlen)))
		return rc;
	for (size_t i = 0; i < m->nfx && !a->futex_addrs; i++)
		a->futex_addrs = m->fx[i].uaddr != 0;
	u = ft_pr_futex_users(m, &nu);
	if (!u || ft_pr_build_signals(a, u, nu) || graph_build(a, &g)) {
		rc = -2;
		goto out;
	}
	if (find_pool(a, &g)) {
		rc = -2;
		goto out;
	}
	find_service_candidates(a, &g);
	if ((rc = find_stages(a, &g, err, errlen)))
		goto out;
	find_services(a, &g);
	if ((rc = roles_named(a, err, errlen)))
		goto out;
	if (ft_pr_find_periodic(a) || ft_pr_find_locks(a, u, nu) || ft_pr_name_roles(a) ||
	    ft_pr_the_rest(a)) {
		rc = -2;
		goto out;
	}
	rc = ft_pr_steps(a, err, errlen);
out:
	graph_free(&g);
	free(u);
	return rc;
}

