// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stage's activations (pipeline.h): its time cut at the
 * boundaries (its hand-offs to the next stage, or the presents), each
 * activation's calls, fan-outs and joins in order as a key, the CPU
 * between them and each step's samples; and the most common key. A
 * fan-out the stage did not wait for is asynchronous ('A'), its fan-in
 * the join ('J'), in the next activation (the pool ran frame N's jobs
 * while the stage began frame N+1) or in this one (the stage worked on
 * beside the jobs, then waited on their fence): profile_overlap.c.
 */
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MERGE_NS 10000		/* hand-offs closer than this: one */
#define JOB_MIN_NS 2000		/* a pool thread that ran a job */

static int push_val(struct acts *s, double x)
{
	if (ft_grow((void **)&s->val, &s->valcap, s->nval + 1, sizeof(double)))
		return -1;
	s->val[s->nval++] = x;
	return 0;
}

/* The activation (lo, hi] of stage xi; hi2 the next one's end. pending:
 * the previous activation's last fan-out was asynchronous, its fan-in at
 * reply. */
struct span {
	uint64_t lo, hi, hi2, reply;
	bool pending;
	bool detect;		/* look for asynchronous fan-outs */
	bool unexpressed;	/* another fan-out the stage worked beside */
};

/* The activation's last fan-out (when no join follows it) marked 'A'
 * when the stage did not wait for it (profile_overlap.c); its join put
 * at the fan-in when that came in this activation, else pending for the
 * next. Returns the new number of tokens. */
static unsigned mark_async(const struct ft_pr_analysis *a, size_t xi,
			   struct span *sp, uint64_t *t, char *key, int *tsvc,
			   unsigned n)
{
	unsigned j = n, k;
	uint64_t r = 0;
	int how;

	while (j > 0 && key[j - 1] != 'F' && key[j - 1] != 'J')
		j--;
	if (!j-- || key[j] != 'F' || !sp->detect)
		return n;
	/* framebench has one asynchronous fan-out a stage: the others it
	 * waits for, and an overlap there is said, not hidden */
	for (k = 0; k < j && !sp->unexpressed; k++)
		sp->unexpressed = key[k] == 'F' &&
				  ft_pr_overlap(a, xi, t[k], sp->hi, sp->hi2,
						&r) != FT_PR_WAITED;
	how = ft_pr_overlap(a, xi, t[j], sp->hi, sp->hi2, &r);
	if (how == FT_PR_WAITED ||
	    (how == FT_PR_JOINED_HERE && n >= PR_MAX_TOKENS))
		return n;
	key[j] = 'A';
	sp->reply = r;
	if (how == FT_PR_JOINED_NEXT) {
		sp->pending = true;
		return n;
	}
	for (k = j + 1; k < n && t[k] < r; k++)
		;
	memmove(key + k + 1, key + k, n - k);
	memmove(t + k + 1, t + k, (n - k) * sizeof(*t));
	memmove(tsvc + k + 1, tsvc + k, (n - k) * sizeof(*tsvc));
	key[k] = 'J';
	t[k] = r;
	tsvc[k] = -2;
	return n + 1;
}

/* The tokens of one activation of stage xi (times t, keys, services):
 * its calls and fan-outs, the join of the previous activation's
 * asynchronous fan-out, its own last fan-out marked 'A' when it is one.
 * Returns their number, PR_MAX_TOKENS + 1 when cut. */
static unsigned tokens(const struct ft_pr_analysis *a, size_t xi, size_t next,
		       struct span *sp, uint64_t *t, char *key, int *tsvc)
{
	uint64_t lo = sp->lo, hi = sp->hi, jt = 0;
	bool ran = false;
	unsigned n = 0;
	size_t end = a->th[xi].sig0 + a->th[xi].nsig;
	char last = 0;
	uint64_t last_ts = 0;

	/* the fan-in of the previous activation's asynchronous fan-out: the
	 * join is where the stage waited for it, or (it did not wait, still
	 * running) right before its next fan-out */
	if (sp->pending) {
		uint64_t r = ft_pr_reply_time(a, xi, -1, lo, hi);

		ran = r >= hi || !ft_pr_asleep_at(a, xi, r - 1);
		jt = ran ? lo + 1 : r;
		sp->pending = false;
	}
	for (size_t j = ft_pr_sig_from(a, xi, lo + 1); j < end && a->sig[j].ts < hi; j++) {
		const struct ft_pr_sig *g = &a->sig[j];
		const struct ft_pr_thread *to = &a->th[g->to];
		char k;

		if (jt && g->ts > jt && n < PR_MAX_TOKENS &&
		    (!ran || (g->to != next && to->role == PR_POOL))) {
			key[n] = 'J';
			tsvc[n] = -2;
			t[n++] = ran ? g->ts - 1 : jt;
			jt = 0;
			last = 'J';
		}
		if (g->to == next)
			continue;
		if (to->role == PR_SERVICE)
			k = (char)('a' + to->idx);
		else if (to->role == PR_POOL)
			k = 'F';
		else
			continue;
		/* more signals to the same before it answered: one step (a
		 * futex wake's wake-ups, a pool woken thread by thread) */
		if (k == last &&
		    ft_pr_reply_time(a, xi, k == 'F' ? -1 : k - 'a', last_ts, g->ts) >= g->ts)
			continue;
		last = k;
		last_ts = g->ts;
		if (n == PR_MAX_TOKENS)
			return n + 1;	/* the cut; the rest is work of the last */
		key[n] = k;
		tsvc[n] = k == 'F' ? -1 : k - 'a';
		t[n++] = g->ts;
	}
	if (jt && n < PR_MAX_TOKENS) {
		key[n] = 'J';
		tsvc[n] = -2;
		t[n++] = jt;
	}
	return mark_async(a, xi, sp, t, key, tsvc, n);
}

/* One activation of stage xi into s. */
static int activation(struct ft_pr_analysis *a, size_t xi, size_t next,
		      struct span *sp, struct acts *s)
{
	uint64_t lo = sp->lo, hi = sp->hi;
	uint64_t t[PR_MAX_TOKENS + 1];
	double njobs[PR_MAX_TOKENS];
	char key[PR_MAX_TOKENS + 1];
	int tsvc[PR_MAX_TOKENS];
	unsigned n;
	struct act *ac;

	n = tokens(a, xi, next, sp, t, key, tsvc);
	if (ft_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return -1;
	ac = &s->v[s->n++];
	memset(ac, 0, sizeof(*ac));
	if (n > PR_MAX_TOKENS) {
		n = PR_MAX_TOKENS;
		ac->trunc = true;
	}
	memcpy(ac->key, key, n);
	ac->key[n] = '\0';
	ac->unexpressed = sp->unexpressed;
	sp->unexpressed = false;
	ac->ntok = (uint8_t)n;
	ac->off = s->nval;
	ac->cpu = ft_pr_cpu_in(a, xi, lo, hi);
	for (unsigned j = 0; j <= n; j++)
		if (push_val(s, (double)ft_pr_cpu_in(a, xi, j ? t[j - 1] : lo,
						  j < n ? t[j] : hi)))
			return -1;
	for (unsigned j = 0; j < n; j++) {
		uint64_t e = j + 1 < n ? t[j + 1] : hi;
		uint64_t r = key[j] == 'A' ? sp->reply
					   : ft_pr_reply_time(a, xi, tsvc[j], t[j], e);
		double work = 0, jobs = 0, busiest = 0;

		if (key[j] == 'J') {
			jobs = 1;	/* no CPU of its own: a wait */
		} else if (tsvc[j] >= 0) {
			long si = ft_pr_index(a, a->svc[tsvc[j]].tid);

			work = si < 0 ? 0 : (double)ft_pr_cpu_in(a, (size_t)si, t[j], r);
			jobs = 1;
		} else {
			for (unsigned p = 0; p < a->npool; p++) {
				long pi = ft_pr_index(a, a->pool[p]);
				uint64_t c = pi < 0 ? 0 : ft_pr_cpu_in(a, (size_t)pi, t[j], r);

				if (c >= JOB_MIN_NS) {
					work += (double)c;
					jobs++;
					busiest = fmax(busiest, (double)c);
				}
			}
			if (jobs >= 2 && work > 0) {
				a->tally.bal_sum += busiest * jobs / work;
				a->tally.bal_n++;
			}
			if (!jobs)
				jobs = 1;
		}
		/* the kernel's part of a step: from the signal to the sleep
		 * that waits for the answer */
		{
			long sg = ft_model_seg_at(a->m, a->m->task[xi].tid, t[j]);

			if (key[j] != 'J' && key[j] != 'A' && sg >= 0 &&
			    a->m->seg[sg].out_state &&
			    a->m->seg[sg].out_state != 'R' && a->m->seg[sg].end < e) {
				a->tally.tail_sum += (double)(a->m->seg[sg].end - t[j]);
				a->tally.tail_n++;
			}
		}
		if (push_val(s, work))
			return -1;
		njobs[j] = jobs;
	}
	for (unsigned j = 0; j < n; j++)
		if (push_val(s, njobs[j]))
			return -1;
	return 0;
}

/* The activation boundaries of stage k: its hand-offs to the next stage,
 * or the presents. */
uint64_t *ft_pr_boundaries(struct ft_pr_analysis *a, unsigned k, size_t *nb)
{
	struct ft_pr_stage *st = &a->stage[k];
	size_t xi = (size_t)ft_pr_index(a, st->tid), n = 0;
	uint64_t *b = malloc((a->th[xi].nsig + a->nf + 2) * sizeof(*b));

	if (!b)
		return NULL;
	if (k + 1 < a->nstages) {
		size_t next = (size_t)ft_pr_index(a, a->stage[k + 1].tid);
		size_t end = a->th[xi].sig0 + a->th[xi].nsig;

		for (size_t j = ft_pr_sig_from(a, xi, a->wa); j < end && a->sig[j].ts <= a->wb; j++)
			if (a->sig[j].to == next &&
			    (!n || a->sig[j].ts - b[n - 1] > MERGE_NS))
				b[n++] = a->sig[j].ts;
		if ((double)n >= 0.8 * (double)a->nf) {
			*nb = n;
			return b;
		}
		st->by_presents = true;
	}
	n = 0;
	b[n++] = a->wa;
	for (size_t f = 0; f < a->nf; f++)
		b[n++] = a->t->frames[a->fidx[f]].present_ns;
	*nb = n;
	return b;
}

static const struct acts *sort_s;

static int by_key(const void *x, const void *y)
{
	return strcmp(sort_s->v[*(const size_t *)x].key,
		      sort_s->v[*(const size_t *)y].key);
}

static bool fans_out(const char *key)
{
	return strchr(key, 'F') || strchr(key, 'A');
}

/* The indices of the activations with the most common sequence; with a
 * pool, among those with a fan-out when a quarter of them or more fan
 * out. A pool's fan-out is not always seen (llvmpipe's rasterizers still
 * running need no wake-up; its main thread makes one or two calls to the
 * X server a frame, and the wake-ups it makes vary on a busy CPU): a
 * sequence without one was the commonest of many in some recordings of
 * glmark2, and the replay left the pool's CPU out. */
static size_t *mode_of(const struct acts *s, bool pool, size_t *nm)
{
	size_t *idx = malloc((s->n ? s->n : 1) * sizeof(size_t));
	size_t best = 0, bn = 0, nfan = 0;
	bool need_fan;

	if (!idx)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		idx[i] = i;
		nfan += fans_out(s->v[i].key);
	}
	need_fan = pool && 4 * nfan >= s->n;
	sort_s = s;
	qsort(idx, s->n, sizeof(size_t), by_key);
	for (size_t i = 0; i < s->n;) {
		size_t e = i + 1;

		while (e < s->n && !strcmp(s->v[idx[i]].key, s->v[idx[e]].key))
			e++;
		if (need_fan && !fans_out(s->v[idx[i]].key)) {
			i = e;
			continue;
		}
		if (e - i > bn || (e - i == bn &&
				   strlen(s->v[idx[i]].key) > strlen(s->v[idx[best]].key))) {
			bn = e - i;
			best = i;
		}
		i = e;
	}
	memmove(idx, idx + best, bn * sizeof(size_t));
	*nm = bn;
	return idx;
}

/* The activations of a stage between the boundaries b (with or without
 * asynchronous fan-outs) into s, and the indices of those with the most
 * common sequence. */
static int collect(struct ft_pr_analysis *a, size_t xi, size_t next,
		   const uint64_t *b, size_t nb, bool detect, struct acts *s,
		   size_t **mi, size_t *nm)
{
	struct span sp = { .detect = detect };

	for (size_t i = 1; i < nb; i++) {
		sp.lo = b[i - 1];
		sp.hi = b[i];
		sp.hi2 = i + 1 < nb ? b[i + 1] : 2 * b[i] - b[i - 1];
		if (activation(a, xi, next, &sp, s))
			return -1;
	}
	*mi = mode_of(s, a->npool > 0, nm);
	return *mi ? 0 : -1;
}

int ft_pr_collect(struct ft_pr_analysis *a, size_t xi, size_t next,
		  const uint64_t *b, size_t nb, struct acts *s, size_t **mi,
		  size_t *nm)
{
	struct ft_pr_tally before = a->tally;
	bool any = false;

	if (collect(a, xi, next, b, nb, true, s, mi, nm))
		return -1;
	for (size_t i = 0; i < s->n && !any; i++)
		any = strchr(s->v[i].key, 'A') != NULL;
	/* a fan-out the stage waited for can look asynchronous (the stage
	 * preempted while its jobs ran, the fan-in then waking nobody): the
	 * sequences without asynchronous fan-outs are kept when their common
	 * one is as common, or 10 % more common than an asynchronous one */
	if (any) {
		struct acts s2 = { 0 };
		size_t *mi2 = NULL, nm2 = 0;
		struct ft_pr_tally async = a->tally;

		/* each step's kernel part and each fan-out's balance, once */
		a->tally = before;
		if (collect(a, xi, next, b, nb, false, &s2, &mi2, &nm2)) {
			free(s2.v);
			free(s2.val);
			return -1;
		}
		if (*nm && nm2 >= *nm + (strchr(s->v[(*mi)[0]].key, 'A') ? *nm / 10 + 1 : 0)) {
			struct acts x = *s;
			size_t *y = *mi;

			*s = s2;
			s2 = x;
			*mi = mi2;
			mi2 = y;
			*nm = nm2;
		} else {
			a->tally = async;
		}
		free(s2.v);
		free(s2.val);
		free(mi2);
	}
	return 0;
}
