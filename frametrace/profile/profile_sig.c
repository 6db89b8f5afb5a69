// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the role analysis reads (pipeline.h): the frames and their
 * window, the presenter, each thread's CPU in any interval, and the
 * signals between threads with how often each thread signals each other
 * one.
 */
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "framefeed.h"
#include "util.h"

#define SIG_DEDUP_NS 20000	/* a futex wake and the wake-ups it made */

const char *ft_pr_per_name(int kind)
{
	static const char *const n[PR_PER_N] = { "input", "audio", "net" };

	return kind >= 0 && kind < PR_PER_N ? n[kind] : "?";
}

long ft_pr_index(const struct ft_pr_analysis *a, uint32_t tid)
{
	const struct ft_tstat *s = ft_model_task(a->m, tid);

	return s ? (long)(s - a->m->task) : -1;
}

const char *ft_pr_label(const struct ft_pr_analysis *a, uint32_t tid, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s:%u", ft_task_comm(a->t, tid), tid);
	return buf;
}

static uint64_t cum_cpu(const struct ft_pr_analysis *a, size_t ti, uint64_t t)
{
	const struct ft_tstat *s = &a->m->task[ti];
	const uint64_t *pre = a->th[ti].pre;
	size_t lo = 0, hi = s->segs.n;
	uint64_t v;
	const struct ft_seg *g;

	/* segments starting before t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->m->seg[s->segs.v[mid]].start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !pre)
		return 0;
	v = pre[lo];
	g = &a->m->seg[s->segs.v[lo - 1]];
	if (g->end > t)
		v -= g->end - t;
	return v;
}

uint64_t ft_pr_cpu_in(struct ft_pr_analysis *a, size_t ti, uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return 0;
	return cum_cpu(a, ti, t1) - cum_cpu(a, ti, t0);
}

uint32_t ft_pr_h(const struct ft_pr_analysis *a, size_t from, size_t to)
{
	uint32_t *v = ft_map_get(&a->h, (uint64_t)from << 32 | to);

	return v ? *v : 0;
}

size_t ft_pr_sig_from(const struct ft_pr_analysis *a, size_t ti, uint64_t ts)
{
	size_t lo = a->th[ti].sig0, hi = lo + a->th[ti].nsig;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->sig[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- frames ------------------------------------------------------------ */

static const struct ft_trace *sort_t;

static int by_present(const void *x, const void *y)
{
	const struct ft_frame *f = &sort_t->frames[*(const size_t *)x];
	const struct ft_frame *g = &sort_t->frames[*(const size_t *)y];

	return f->present_ns < g->present_ns ? -1 : f->present_ns > g->present_ns;
}

/* The process with the most frames; *others gets how many other
 * processes have frames (a framebench another user runs meanwhile puts
 * its feed into a recording too). */
static uint32_t frames_process(const struct ft_trace *t, unsigned *others)
{
	struct ft_map cnt;
	uint32_t best = 0, pid = 0;

	ft_map_init(&cnt);
	for (size_t i = 0; i < t->nframes; i++) {
		bool isnew = false;
		uint32_t *c = ft_map_put(&cnt, t->frames[i].pid, 0, &isnew);

		if (c && ++*c > best) {
			best = *c;
			pid = t->frames[i].pid;
		}
	}
	*others = cnt.n ? (unsigned)cnt.n - 1 : 0;
	ft_map_free(&cnt);
	return pid;
}

/* Whether the trace lacks the scheduling events of process pid, whose
 * frames it holds: -1 with the reason in err, else 0. */
static int no_sched(const struct ft_pr_analysis *a, uint32_t pid, char *err,
		    size_t errlen)
{
	for (size_t i = 0; i < a->m->ntask; i++)
		if (a->m->task[i].pid == pid && a->m->task[i].segs.n)
			return 0;
	if (!pid) {
		snprintf(err, errlen,
			 "the trace's frames name no process (a MangoHud log "
			 "holds frames only): record or import the scheduler "
			 "events with them");
		return -1;
	}
	if (ft_meta_get(a->t, "processes")) {
		/* the events are there; their process was not told */
		snprintf(err, errlen,
			 "no task of the trace was found to be in process %u, "
			 "whose frames it holds: the text has no pid column "
			 "(perf script -F comm,pid,tid,cpu,time,event,trace "
			 "keeps the pids; --pid chooses a process by the pid "
			 "the report shows)", pid);
		return -1;
	}
	snprintf(err, errlen,
		 "the trace has no scheduling events of process %u, "
		 "whose frames it holds: record or import the "
		 "scheduler events with the frames", pid);
	return -1;
}

/* The frame times of the chosen frames summarized, and the vsync period
 * their presents keep (0: none). */
static int frame_times(struct ft_pr_analysis *a)
{
	const struct ft_trace *t = a->t;
	uint64_t *pres;
	double *iv;

	a->wa = t->frames[a->fidx[0]].present_ns - t->frames[a->fidx[0]].frametime_ns;
	a->wb = t->frames[a->fidx[a->nf - 1]].present_ns;
	iv = malloc(a->nf * sizeof(double));
	if (!iv)
		return -2;
	for (size_t k = 0; k < a->nf; k++)
		iv[k] = (double)t->frames[a->fidx[k]].frametime_ns;
	if (ft_pf_summarize(iv, a->nf, &a->ft)) {
		free(iv);
		return -2;
	}
	free(iv);
	pres = malloc((a->nf + 1) * sizeof(*pres));
	if (!pres)
		return -2;
	pres[0] = a->wa;
	for (size_t k = 0; k < a->nf; k++)
		pres[k + 1] = t->frames[a->fidx[k]].present_ns;
	a->vsync_ns = ft_pf_vsync_period(pres, a->nf + 1, &a->vsync_share);
	free(pres);
	a->fps = a->vsync_ns ? (unsigned)llround(1e9 / (double)a->vsync_ns) : 0;
	if (a->fps > 10000)
		a->fps = 0;
	return 0;
}

int ft_pr_pick_frames(struct ft_pr_analysis *a, char *err, size_t errlen)
{
	const struct ft_trace *t = a->t;
	size_t n = 0, first = 0, last;
	uint32_t pid = a->o.pid;

	if (!t->nframes) {
		snprintf(err, errlen,
			 "no frames in the trace: record a game with --present "
			 "(its present calls) or framebench with its feed or "
			 "--trace-markers, or import a MangoHud log with it");
		return -1;
	}
	if (!pid)
		pid = frames_process(t, &a->other_procs);
	a->pid = pid;
	a->fidx = malloc(t->nframes * sizeof(size_t));
	if (!a->fidx)
		return -2;
	for (size_t i = 0; i < t->nframes; i++) {
		const struct ft_frame *f = &t->frames[i];

		if (f->pid == pid && !(f->flags & GS_FEED_F_WARMUP) &&
		    f->frametime_ns && f->present_ns > f->frametime_ns)
			a->fidx[n++] = i;
	}
	sort_t = t;
	qsort(a->fidx, n, sizeof(size_t), by_present);
	a->nproc_frames = n;
	/* what is missing first: the scheduling data, then enough frames */
	if (n && no_sched(a, pid, err, errlen))
		return -1;
	if (!n) {
		snprintf(err, errlen, "no frames of process %u in the trace%s%s%s",
			 pid, a->o.pid ? " (" : "",
			 a->o.pid ? (a->o.pid_opt ? a->o.pid_opt : "--pid") : "",
			 a->o.pid ? ")" : "");
		return -1;
	}
	last = n - 1;
	if (a->o.window) {
		if (a->o.first >= n) {
			snprintf(err, errlen,
				 "--frames %zu..%zu: process %u has frames 0..%zu",
				 a->o.first, a->o.last, pid, n - 1);
			return -1;
		}
		first = a->o.first;
		if (a->o.last < last)
			last = a->o.last;
	}
	a->nf = last - first + 1;
	memmove(a->fidx, a->fidx + first, a->nf * sizeof(size_t));
	if (a->nf < 100) {
		snprintf(err, errlen,
			 "only %zu frames of process %u%s: at least 100 are "
			 "needed to fit the distributions",
			 a->nf, pid, a->o.window ? " in --frames" : "");
		return -1;
	}
	return frame_times(a);
}

/*
 * The presenting thread of frames that do not name it (framebench's feed):
 * as ft_dominant_presenter, the thread whose runs coincide with the
 * presents far more often than its CPU share explains, but only among the
 * game's threads and those that wake or are woken by them once a frame or
 * more (it may present from another process, as framebench's compositor
 * does): another program's busy threads coincide with presents too.
 */
static uint32_t related_presenter(const struct ft_pr_analysis *a)
{
	const struct ft_model *m = a->m;
	struct ft_map rel, hits;
	double span = (double)(a->wb - a->wa), best_score = 0;
	size_t step = a->nf > 4000 ? a->nf / 4000 : 1, nfr = 0;
	uint32_t best = 0;

	ft_map_init(&rel);
	ft_map_init(&hits);
	for (size_t i = 0; i < m->nwake; i++) {
		const struct ft_wake *w = &m->wake[i];
		uint32_t pk, pe, *c;

		if (w->ts < a->wa || w->ts > a->wb || !w->waker || w->irq)
			continue;
		pk = ft_task_pid(a->t, w->waker);
		pe = ft_task_pid(a->t, w->wakee);
		if ((pk == a->pid) == (pe == a->pid))
			continue;
		c = ft_map_put(&rel, pk == a->pid ? w->wakee : w->waker, 0, NULL);
		if (c)
			++*c;
	}
	for (size_t k = 0; k < a->nf; k += step) {
		uint64_t p = a->t->frames[a->fidx[k]].present_ns;

		nfr++;
		for (uint16_t c = 0; c < m->ncpus; c++) {
			size_t lo, hi;

			ft_model_cpu_range(m, c, p > 20000 ? p - 20000 : 0, p + 1, &lo, &hi);
			for (size_t j = lo; j < hi; j++) {
				uint32_t tid = m->seg[j].tid, *v, *r;

				if (!tid)
					continue;
				r = ft_map_get(&rel, tid);
				if (ft_task_pid(a->t, tid) != a->pid &&
				    (!r || (double)*r < 0.5 * (double)a->nf))
					continue;
				v = ft_map_put(&hits, tid, 0, NULL);
				if (v)
					++*v;
			}
		}
	}
	for (size_t i = 0; i < hits.cap; i++) {
		uint32_t tid;
		long ti;
		double util, score;

		if (!hits.keys[i] || hits.vals[i] * 2 < nfr)
			continue;
		tid = (uint32_t)(hits.keys[i] - 1);
		ti = ft_pr_index(a, tid);
		if (ti < 0 || span <= 0)
			continue;
		util = (double)a->th[ti].cpu / span;
		score = (double)hits.vals[i] / ((double)nfr * (util < 0.01 ? 0.01 : util));
		if (score > best_score) {
			best_score = score;
			best = tid;
		}
	}
	ft_map_free(&rel);
	ft_map_free(&hits);
	return best;
}

int ft_pr_find_presenter(struct ft_pr_analysis *a, char *err, size_t errlen)
{
	const struct ft_frame *f = &a->t->frames[a->fidx[0]];

	if (f->tid && ft_model_task(a->m, f->tid) &&
	    ft_model_task(a->m, f->tid)->segs.n)
		a->presenter = f->tid;
	else
		a->presenter = related_presenter(a);
	if (!a->presenter) {
		snprintf(err, errlen,
			 "no thread presents the frames of process %u: none "
			 "runs at most of their present times", a->pid);
		return -1;
	}
	return 0;
}

/* ---- signals -------------------------------------------------------- */

struct rawsig {
	uint64_t ts;
	uint32_t from, to;
};

static int fxu_cmp(const void *x, const void *y)
{
	const struct ft_pr_fxu *p = x, *q = y;

	if (p->uaddr != q->uaddr)
		return p->uaddr < q->uaddr ? -1 : 1;
	return p->ti < q->ti ? -1 : p->ti > q->ti;
}

static int raw_cmp(const void *x, const void *y)
{
	const struct rawsig *p = x, *q = y;

	if (p->from != q->from)
		return p->from < q->from ? -1 : 1;
	if (p->ts != q->ts)
		return p->ts < q->ts ? -1 : 1;
	return p->to < q->to ? -1 : p->to > q->to;
}

/* The futex addresses: who waits on and who wakes each, merged per task;
 * sorted by address. */
struct ft_pr_fxu *ft_pr_futex_users(const struct ft_model *m, size_t *n)
{
	struct ft_pr_fxu *u = malloc((m->nfx + m->nwake + 1) * sizeof(*u));
	size_t k = 0;

	if (!u)
		return NULL;
	for (size_t i = 0; i < m->nfx; i++) {
		const struct ft_fx *f = &m->fx[i];
		const struct ft_tstat *s = ft_model_task(m, f->tid);
		bool w = ft_futex_is_wait(f->op), k2 = ft_futex_is_wake(f->op);

		if (!s || (!w && !k2) || !f->uaddr)
			continue;
		u[k++] = (struct ft_pr_fxu){ f->uaddr, (uint32_t)(s - m->task), w, k2 };
	}
	/* the waker of a wake-up that ended a futex wait wakes its address:
	 * a trace with futex waits only (the recorder's default, from the
	 * scheduler events) has no FUTEX_WAKE calls */
	for (size_t i = 0; i < m->nwake; i++) {
		const struct ft_wake *w = &m->wake[i];
		const struct ft_tstat *s;

		if (w->futex < 0 || !w->waker || w->irq || !m->fx[w->futex].uaddr)
			continue;
		s = ft_model_task(m, w->waker);
		if (s)
			u[k++] = (struct ft_pr_fxu){ m->fx[w->futex].uaddr,
						  (uint32_t)(s - m->task), 0, 1 };
	}
	if (k)
		qsort(u, k, sizeof(*u), fxu_cmp);
	/* one entry per (address, task) */
	{
		size_t j = 0;

		for (size_t i = 0; i < k; i++) {
			if (j && u[j - 1].uaddr == u[i].uaddr && u[j - 1].ti == u[i].ti) {
				u[j - 1].wait |= u[i].wait;
				u[j - 1].wake |= u[i].wake;
			} else {
				u[j++] = u[i];
			}
		}
		k = j;
	}
	*n = k;
	return u;
}

/* First entry of address ua in u, or n. */
static size_t fxu_find(const struct ft_pr_fxu *u, size_t n, uint64_t ua)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u[mid].uaddr < ua)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && u[lo].uaddr == ua ? lo : n;
}

/* A lock: some task both waits on and wakes the address, and at least
 * two tasks use it (a hand-off address has its waiters and its wakers). */
bool ft_pr_fxu_is_lock(const struct ft_pr_fxu *u, size_t n, size_t first)
{
	size_t users = 0;
	bool both = false;

	for (size_t i = first; i < n && u[i].uaddr == u[first].uaddr; i++) {
		users++;
		if (u[i].wait && u[i].wake)
			both = true;
	}
	return both && users >= 2;
}

static int push_raw(struct rawsig **v, size_t *n, size_t *cap,
		    struct rawsig r)
{
	if (ft_grow((void **)v, cap, *n + 1, sizeof(**v)))
		return -1;
	(*v)[(*n)++] = r;
	return 0;
}

int ft_pr_build_signals(struct ft_pr_analysis *a, struct ft_pr_fxu *u, size_t nu)
{
	const struct ft_model *m = a->m;
	struct rawsig *r = NULL;
	size_t nr = 0, cap = 0;
	struct ft_map eff;
	int rc = -1;

	ft_map_init(&eff);
	for (size_t i = 0; i < m->nwake; i++) {
		const struct ft_wake *w = &m->wake[i];
		long from, to;
		uint32_t *c;

		if (w->ts < a->wa || w->ts > a->wb)
			continue;
		to = ft_pr_index(a, w->wakee);
		if (to < 0)
			continue;
		if (w->irq || !w->waker) {
			a->th[to].irq_wakes++;
			continue;
		}
		a->th[to].task_wakes++;
		from = ft_pr_index(a, w->waker);
		if (from < 0 || from == to)
			continue;
		c = ft_map_put(&eff, (uint64_t)from << 32 | (uint64_t)to, 0, NULL);
		if (!c || push_raw(&r, &nr, &cap, (struct rawsig){ w->ts,
					(uint32_t)from, (uint32_t)to }))
			goto out;
		++*c;
	}
	/* FUTEX_WAKE on an address another task waits on: a signal even when
	 * that task was not asleep, between tasks of one process or ones
	 * that wake each other (an address means nothing across unrelated
	 * address spaces) */
	for (size_t i = 0; i < m->nfx; i++) {
		const struct ft_fx *f = &m->fx[i];
		long from;
		size_t g;

		if (f->ts < a->wa || f->ts > a->wb || !ft_futex_is_wake(f->op))
			continue;
		from = ft_pr_index(a, f->tid);
		g = fxu_find(u, nu, f->uaddr);
		if (from < 0 || g == nu || ft_pr_fxu_is_lock(u, nu, g))
			continue;
		for (size_t j = g; j < nu && u[j].uaddr == f->uaddr; j++) {
			size_t to = u[j].ti;
			bool related;

			if (!u[j].wait || to == (size_t)from)
				continue;
			related = m->task[to].pid == m->task[from].pid ||
				  ft_map_get(&eff, (uint64_t)from << 32 | to) ||
				  ft_map_get(&eff, (uint64_t)to << 32 | (uint64_t)from);
			if (related &&
			    push_raw(&r, &nr, &cap, (struct rawsig){ f->ts,
					(uint32_t)from, (uint32_t)to }))
				goto out;
		}
	}
	if (nr)
		qsort(r, nr, sizeof(*r), raw_cmp);
	a->sig = malloc((nr ? nr : 1) * sizeof(*a->sig));
	if (!a->sig)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		struct ft_pr_thread *th = &a->th[r[i].from];
		bool dup = false;
		uint32_t *c;

		if (!th->nsig)
			th->sig0 = a->nsig;
		/* the same signal seen twice: a futex wake and its wake-up */
		for (size_t j = a->nsig; j-- > th->sig0;) {
			if (r[i].ts - a->sig[j].ts > SIG_DEDUP_NS)
				break;
			if (a->sig[j].to == r[i].to) {
				dup = true;
				break;
			}
		}
		if (dup)
			continue;
		a->sig[a->nsig++] = (struct ft_pr_sig){ r[i].ts, r[i].to };
		th->nsig++;
		c = ft_map_put(&a->h, (uint64_t)r[i].from << 32 | r[i].to, 0, NULL);
		if (!c)
			goto out;
		++*c;
	}
	rc = 0;
out:
	free(r);
	ft_map_free(&eff);
	return rc;
}


void ft_pr_free(struct ft_pr_analysis *a)
{
	if (a->th)
		for (size_t ti = 0; ti < a->m->ntask; ti++)
			free(a->th[ti].pre);
	free(a->th);
	free(a->sig);
	free(a->fidx);
	free(a->left);
	ft_map_free(&a->h);
	memset(a, 0, sizeof(*a));
}
