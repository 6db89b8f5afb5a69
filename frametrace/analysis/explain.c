// SPDX-License-Identifier: GPL-2.0-only
/* Slow-frame explanation: the wake chain behind a frame (explain.h). */
#include "explain.h"

#include <stdlib.h>
#include <string.h>

#define LONG_SLICE_NS (3 * 1000000ULL)

const char *ft_stop_text(enum ft_stop s)
{
	switch (s) {
	case FT_STOP_FRAME_START: return "reached the frame start";
	case FT_STOP_IRQ: return "woken by an interrupt (timer or device)";
	case FT_STOP_NO_WAKE: return "no earlier wake-up in the trace";
	case FT_STOP_NOT_RUNNING: return "the waker was not seen running";
	case FT_STOP_DEPTH: return "chain too long";
	case FT_STOP_LOOP: return "woken by itself";
	}
	return "?";
}

const char *ft_why_text(enum ft_why w)
{
	switch (w) {
	case FT_WHY_PREEMPT: return "preempted it";
	case FT_WHY_LONG_SLICE: return "long slice";
	default: return "ran";
	}
}

/* Last effective wake-up of tid at or before t: index into m->wake, -1. */
static long last_wake(const struct ft_model *m, const struct ft_tstat *s,
		      uint64_t t)
{
	size_t lo = 0, hi = s->wakes.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->wake[s->wakes.v[mid]].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)s->wakes.v[lo - 1] : -1;
}

static uint64_t overlap(uint64_t a1, uint64_t b1, uint64_t a2, uint64_t b2)
{
	uint64_t a = a1 > a2 ? a1 : a2, b = b1 < b2 ? b1 : b2;

	return b > a ? b - a : 0;
}

static bool running_near(const struct ft_model *m, uint32_t tid, uint64_t ts)
{
	if (ft_model_seg_at(m, tid, ts) >= 0)
		return true;
	/* a feed timestamp is taken just before the write: allow 20 us */
	return ts >= 20000 && ft_model_seg_at(m, tid, ts - 20000) >= 0;
}

uint32_t ft_dominant_presenter(const struct ft_model *m, uint32_t pid)
{
	const struct ft_trace *t = m->t;
	struct ft_map cnt;
	uint32_t best = 0;
	double best_score = 0;
	size_t frames = 0;
	double span = (double)(m->end_ns - m->start_ns);

	if (!pid || span <= 0)
		return 0;
	/*
	 * The thread whose runs coincide with the present times far more
	 * often than its CPU share explains. It need not belong to pid: a
	 * game may present from a compositor process (framebench does).
	 */
	ft_map_init(&cnt);
	for (size_t i = 0; i < t->nframes && frames < 4000; i++) {
		const struct ft_frame *f = &t->frames[i];
		uint64_t p = f->present_ns, a = p > 20000 ? p - 20000 : 0;

		if (f->pid != pid)
			continue;
		frames++;
		for (uint16_t c = 0; c < m->ncpus; c++) {
			size_t lo, hi;

			ft_model_cpu_range(m, c, a, p + 1, &lo, &hi);
			for (size_t k = lo; k < hi; k++) {
				uint32_t *v;

				if (!m->seg[k].tid)
					continue;
				v = ft_map_put(&cnt, m->seg[k].tid, 0, NULL);
				if (v)
					++*v;
			}
		}
	}
	for (size_t i = 0; i < cnt.cap; i++) {
		uint32_t tid, hits;
		const struct ft_tstat *s;
		double util, score;

		if (!cnt.keys[i])
			continue;
		tid = (uint32_t)(cnt.keys[i] - 1);
		hits = cnt.vals[i];
		s = ft_model_task(m, tid);
		if (!s || hits * 2 < frames)
			continue;
		util = (double)s->runtime_bursts_ns / span;
		if (util < 0.01)
			util = 0.01;
		score = (double)hits / ((double)frames * util);
		if (score > best_score) {
			best_score = score;
			best = tid;
		}
	}
	ft_map_free(&cnt);
	return best;
}

static uint32_t find_presenter(const struct ft_model *m,
			       const struct ft_frame *f, uint32_t dominant)
{
	uint32_t best = 0;
	uint64_t best_gap = 2000000; /* 2 ms */

	if (f->tid && ft_model_task(m, f->tid) &&
	    ft_model_task(m, f->tid)->segs.n)
		return f->tid;
	if (!f->pid)
		return 0;
	if (dominant && running_near(m, dominant, f->present_ns))
		return dominant;
	for (size_t i = 0; i < m->ntask; i++) {
		const struct ft_tstat *s = &m->task[i];

		if (!s->tid || s->pid != f->pid || !s->segs.n)
			continue;
		if (running_near(m, s->tid, f->present_ns))
			return s->tid;
		/* the nearest run ending shortly before the present */
		for (size_t j = s->segs.n; j-- > 0;) {
			const struct ft_seg *g = &m->seg[s->segs.v[j]];

			if (g->start > f->present_ns)
				continue;
			if (f->present_ns - g->end < best_gap) {
				best_gap = f->present_ns - g->end;
				best = s->tid;
			}
			break;
		}
	}
	return best;
}

struct hacc {
	uint32_t tid;
	uint16_t cpu;
	uint8_t why;
	uint64_t ns, longest;
};

static void add_holder(struct hacc *h, int *n, int max, uint32_t tid,
		       uint16_t cpu, uint8_t why, uint64_t ns, uint64_t seglen)
{
	for (int i = 0; i < *n; i++)
		if (h[i].tid == tid) {
			h[i].ns += ns;
			if (seglen > h[i].longest)
				h[i].longest = seglen;
			if (why > h[i].why)
				h[i].why = why;
			return;
		}
	if (*n < max) {
		h[*n] = (struct hacc){ tid, cpu, why, ns, seglen };
		(*n)++;
	}
}

static int hacc_cmp(const void *a, const void *b)
{
	const struct hacc *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

static void fill_link(const struct ft_model *m, const struct ft_tstat *s,
		      struct ft_link *l)
{
	uint64_t a = l->wake_ts, b = l->end_ts, wait_total = 0;
	struct hacc h[16];
	int nh = 0;
	uint64_t *idle = calloc(m->ncpus, sizeof(*idle));

	/* runs inside the link */
	for (size_t j = 0; j < s->segs.n; j++) {
		const struct ft_seg *g = &m->seg[s->segs.v[j]];

		if (g->end <= a)
			continue;
		if (g->start >= b)
			break;
		l->run_ns += overlap(g->start, g->end, a, b);
		l->cpu = g->cpu;
		if (g->out_state == 'R' && g->end < b)
			l->preemptions++;
	}
	/* who held the CPU while it waited */
	for (size_t j = 0; j < s->rqs.n; j++) {
		const struct ft_runnable *r = &m->rq[s->rqs.v[j]];
		uint64_t wa = r->start > a ? r->start : a;
		uint64_t wb = r->end < b ? r->end : b;
		size_t lo, hi;

		if (r->end <= a)
			continue;
		if (r->start >= b)
			break;
		if (wb <= wa)
			continue;
		if (l->rq_reason == FT_RQ_OTHER && r->start <= a + 1000)
			l->rq_reason = r->reason;
		wait_total += wb - wa;
		l->runnable_ns += wb - wa;
		ft_model_cpu_range(m, r->cpu, wa, wb, &lo, &hi);
		for (size_t k = lo; k < hi; k++) {
			const struct ft_seg *g = &m->seg[k];
			uint64_t ov = overlap(g->start, g->end, wa, wb);
			uint8_t why = FT_WHY_RAN;

			if (!ov || g->tid == s->tid)
				continue;
			if (!g->tid)
				l->own_idle_ns += ov;
			if (r->reason == FT_RQ_PREEMPT && g->tid == r->by &&
			    g->start <= r->start + 1000)
				why = FT_WHY_PREEMPT;
			else if (g->tid && g->end - g->start >= LONG_SLICE_NS)
				why = FT_WHY_LONG_SLICE;
			add_holder(h, &nh, 16, g->tid, r->cpu, why, ov,
				   g->end - g->start);
		}
		if (idle)
			for (uint16_t c = 0; c < m->ncpus; c++)
				if (c != r->cpu)
					idle[c] += ft_model_idle_in(m, c, wa, wb);
	}
	qsort(h, (size_t)nh, sizeof(h[0]), hacc_cmp);
	for (int i = 0; i < nh && i < FT_MAX_HOLDERS; i++) {
		l->holder[i].tid = h[i].tid;
		l->holder[i].cpu = h[i].cpu;
		l->holder[i].why = h[i].why;
		l->holder[i].ns = h[i].ns;
		l->holder[i].longest = h[i].longest;
		l->nholders = i + 1;
	}
	l->idle_cpu = -1;
	if (idle && m->ncpus > 1) {
		uint64_t best = 0;

		for (uint16_t c = 0; c < m->ncpus; c++)
			if (idle[c] > best) {
				best = idle[c];
				l->idle_cpu = (int16_t)c;
			}
		l->idle_ns = best;
		l->siblings_busy = wait_total >= 50000 && best * 10 < wait_total;
	}
	free(idle);
}

/* A wake-up by an interrupt (or by no one): the chain goes on through an
 * earlier wake-up inside the frame by a running task, when there is one,
 * and the link is rewritten to it; NULL: the chain stops at the interrupt. */
static const struct ft_wake *task_wake_within(const struct ft_model *m,
					      const struct ft_tstat *s,
					      const struct ft_frame *f,
					      const struct ft_wake *w,
					      uint32_t tid, struct ft_link *l)
{
	long pi = w->ts ? last_wake(m, s, w->ts - 1) : -1;
	const struct ft_wake *p = pi >= 0 ? &m->wake[pi] : NULL;

	/* skip further interrupt wake-ups inside the frame */
	for (int k = 0; k < 16 && p && (!p->waker || p->irq) &&
		     f->start_ns && p->ts > f->start_ns;
	     k++) {
		pi = p->ts ? last_wake(m, s, p->ts - 1) : -1;
		p = pi >= 0 ? &m->wake[pi] : NULL;
	}

	if (p && p->waker && !p->irq && p->waker != tid &&
	    f->start_ns && p->ts > f->start_ns &&
	    ft_model_seg_at(m, p->waker, p->ts) >= 0) {
		l->timer_wait_ns = w->sleep_ns;
		l->wake_ts = p->ts;
		l->waker = p->waker;
		l->waker_irq = false;
		l->sleep_ns = p->sleep_ns;
		l->lock_wait_ns = 0;
		l->futex_uaddr = 0;
		if (p->futex >= 0) {
			l->lock_wait_ns = m->fx[p->futex].dur;
			l->futex_uaddr = m->fx[p->futex].uaddr;
		}
		l->run_ns = l->runnable_ns = l->own_idle_ns = 0;
		l->preemptions = 0;
		l->nholders = 0;
		fill_link(m, s, l);
		return p;
	}
	return NULL;
}

int ft_explain_frame(const struct ft_model *m, size_t fi, uint32_t dominant,
		     struct ft_explain *x)
{
	const struct ft_frame *f = &m->t->frames[fi];
	uint32_t tid;
	uint64_t t = f->present_ns;

	memset(x, 0, sizeof(*x));
	x->frame = fi;
	x->origin = -1;
	x->origin_match = -1;
	tid = find_presenter(m, f, dominant);
	x->presenter = tid;
	if (!tid)
		return -1;
	for (;;) {
		const struct ft_tstat *s = ft_model_task(m, tid);
		struct ft_link *l;
		long wi;
		const struct ft_wake *w;

		if (x->nlinks == FT_MAX_LINKS) {
			x->stop = FT_STOP_DEPTH;
			break;
		}
		if (!s) {
			x->stop = FT_STOP_NOT_RUNNING;
			break;
		}
		wi = last_wake(m, s, t);
		l = &x->link[x->nlinks++];
		memset(l, 0, sizeof(*l));
		l->tid = tid;
		l->end_ts = t;
		l->rq_reason = FT_RQ_OTHER;
		if (wi < 0) {
			/* running since before the trace: one open link */
			l->wake_ts = m->start_ns < t ? m->start_ns : t;
			fill_link(m, s, l);
			x->stop = FT_STOP_NO_WAKE;
			break;
		}
		w = &m->wake[wi];
		l->wake_ts = w->ts;
		l->waker = w->waker;
		l->waker_irq = w->irq;
		l->sleep_ns = w->sleep_ns;
		l->rq_reason = FT_RQ_WAKE;
		if (w->futex >= 0) {
			l->lock_wait_ns = m->fx[w->futex].dur;
			l->futex_uaddr = m->fx[w->futex].uaddr;
		}
		fill_link(m, s, l);
		if (f->start_ns && w->ts <= f->start_ns) {
			x->stop = FT_STOP_FRAME_START;
			break;
		}
		if (!w->waker || w->irq) {
			w = task_wake_within(m, s, f, w, tid, l);
			if (!w) {
				x->stop = FT_STOP_IRQ;
				break;
			}
		}
		if (w->waker == tid || w->ts >= t) {
			x->stop = FT_STOP_LOOP;
			break;
		}
		if (ft_model_seg_at(m, w->waker, w->ts) < 0) {
			x->stop = FT_STOP_NOT_RUNNING;
			break;
		}
		tid = w->waker;
		t = w->ts;
	}
	return 0;
}

/* A thread name without its number: "llvmpipe" of "llvmpipe-1",
 * "fb-worker" of "fb-worker2". The stem's length; 0 when the name ends in
 * no digit (then it names no pool member). */
static size_t name_stem(const char *comm)
{
	size_t n = strlen(comm), d = n;

	while (d && comm[d - 1] >= '0' && comm[d - 1] <= '9')
		d--;
	if (d == n || !d)
		return 0;
	while (d && strchr("-_:#/ ", comm[d - 1]))
		d--;
	return d;
}

/* Are a and b threads of one pool: one process, names alike but for
 * their numbers (a's name ends in one)? */
static bool same_pool(const struct ft_task_rec *a, const struct ft_task_rec *b)
{
	size_t n = a ? name_stem(a->comm) : 0;

	return n && b && a->pid && a->pid == b->pid && name_stem(b->comm) == n &&
	       !strncmp(a->comm, b->comm, n);
}

/* Is tid a pool thread: another thread of its process named alike? */
static bool in_pool(const struct ft_trace *t, uint32_t tid)
{
	const struct ft_task_rec *r = ft_task_get(t, tid);

	if (!r || !name_stem(r->comm))
		return false;
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].tid != tid && same_pool(r, &t->tasks[i]))
			return true;
	return false;
}

static int match_link(const struct ft_model *m, const struct ft_explain *med,
		      const struct ft_link *l, int hint)
{
	const struct ft_task_rec *r = ft_task_get(m->t, l->tid);

	{
		int best = -1, bd = 1 << 30;

		/* the same thread, nearest in position (it may recur) */
		for (int k = 0; k < med->nlinks; k++)
			if (med->link[k].tid == l->tid && abs(k - hint) < bd) {
				bd = abs(k - hint);
				best = k;
			}
		if (best >= 0)
			return best;
	}
	/* same thread name (threads of a pool) near the same depth */
	if (r && r->comm[0]) {
		int best = -1, bd = 1 << 30;

		for (int k = 0; k < med->nlinks; k++) {
			const struct ft_task_rec *o = ft_task_get(m->t, med->link[k].tid);
			int d = abs(k - hint);

			if (o && !strcmp(o->comm, r->comm) && d < bd) {
				bd = d;
				best = k;
			}
		}
		return best;
	}
	return -1;
}

/* A pool thread's baseline: per component the pool's longest link in the
 * median chain (kidx[c] that link); false when no pool thread is in it. */
static bool pool_base(const struct ft_model *m, const struct ft_explain *med,
		      uint32_t tid, int64_t base[3], int kidx[3])
{
	const struct ft_task_rec *r = ft_task_get(m->t, tid);
	bool any = false;

	for (int k = 0; k < med->nlinks; k++) {
		const struct ft_link *b = &med->link[k];
		int64_t v[3] = { (int64_t)b->runnable_ns, (int64_t)b->run_ns,
				 (int64_t)b->lock_wait_ns };

		if (b->tid != tid && !same_pool(r, ft_task_get(m->t, b->tid)))
			continue;
		for (int c = 0; c < 3; c++)
			if (!any || v[c] > base[c]) {
				base[c] = v[c];
				kidx[c] = k;
			}
		any = true;
	}
	return any;
}

/* The baseline of link l: its counterpart in the median chain (for a
 * pool thread: the pool's), else the task's own typical values. kidx[c]:
 * the median link each component comes from, -1 none. */
static bool link_base(const struct ft_model *m, const struct ft_explain *median,
		      const struct ft_link *l, int i, int64_t base[3],
		      int kidx[3])
{
	const struct ft_tstat *s = ft_model_task(m, l->tid);
	int k;

	base[0] = base[1] = base[2] = 0;
	kidx[0] = kidx[1] = kidx[2] = -1;
	if (median && in_pool(m->t, l->tid) &&
	    pool_base(m, median, l->tid, base, kidx))
		return true;
	k = median ? match_link(m, median, l, i) : -1;
	if (k >= 0) {
		const struct ft_link *b = &median->link[k];

		base[0] = (int64_t)b->runnable_ns;
		base[1] = (int64_t)b->run_ns;
		base[2] = (int64_t)b->lock_wait_ns;
		kidx[0] = kidx[1] = kidx[2] = k;
	} else if (s) {
		/* not in the median chain: the task's own typical values */
		base[0] = s->wlat && s->wlat->count ? (int64_t)gs_hist_pct(s->wlat, 50) : 0;
		base[1] = s->run && s->run->count ? (int64_t)gs_hist_pct(s->run, 50) : 0;
		base[2] = s->futex_waits ? (int64_t)(s->futex_wait_ns / s->futex_waits) : 0;
	}
	return false;
}

bool ft_origin_exceeds(int64_t origin_excess_ns, int64_t frame_excess_ns)
{
	/* half again the frame's excess and 100 us: "+188.07 ms of +188.04
	 * ms" is the other links a little faster, "+30.87 ms of +684 us" a
	 * chain unlike the median frame's */
	return frame_excess_ns > 0 &&
	       origin_excess_ns > frame_excess_ns + frame_excess_ns / 2 + 100000;
}

void ft_explain_compare(const struct ft_model *m, struct ft_explain *x,
			const struct ft_explain *median)
{
	int64_t best = 0;

	x->origin = -1;
	x->origin_match = -1;
	x->origin_pool = false;
	x->origin_exceeds = false;
	x->frame_excess_ns = 0;
	if (median)
		x->frame_excess_ns = (int64_t)m->t->frames[x->frame].frametime_ns -
				     (int64_t)m->t->frames[median->frame].frametime_ns;
	for (int i = 0; i < x->nlinks; i++) {
		const struct ft_link *l = &x->link[i];
		/* links later in time (lower index) cover the wait of all but
		 * the chain's earliest link: counting it would count them twice */
		int ncand = i + 1 < x->nlinks ? 2 : 3;
		int64_t base[3];
		int kidx[3];
		bool pool = link_base(m, median, l, i, base, kidx);
		struct {
			const char *what;
			int64_t ex;
		} c[3];

		c[0].what = "runnable";
		c[0].ex = (int64_t)l->runnable_ns - base[0];
		c[1].what = "run";
		c[1].ex = (int64_t)l->run_ns - base[1];
		c[2].what = "lock";
		c[2].ex = (int64_t)l->lock_wait_ns - base[2];

		for (int j = 0; j < ncand; j++)
			if (c[j].ex > best) {
				best = c[j].ex;
				x->origin = i;
				x->origin_what = c[j].what;
				x->origin_excess_ns = c[j].ex;
				x->origin_match = kidx[j];
				x->origin_pool = pool;
			}
	}
	if (x->origin >= 0)
		x->origin_exceeds = ft_origin_exceeds(x->origin_excess_ns,
						      x->frame_excess_ns);
}

int ft_origin_kind(const struct ft_explain *x)
{
	return !strcmp(x->origin_what, "runnable") ? 0
	       : !strcmp(x->origin_what, "run")    ? 1
						   : 2;
}

uint64_t ft_origin_ns(const struct ft_explain *x)
{
	const struct ft_link *l = &x->link[x->origin];

	switch (ft_origin_kind(x)) {
	case 0: return l->runnable_ns;
	case 1: return l->run_ns;
	default: return l->lock_wait_ns;
	}
}

const char *ft_origin_verb(const struct ft_explain *x)
{
	static const char *const verb[] = { "waited runnable", "ran",
					    "waited on a futex" };

	return verb[ft_origin_kind(x)];
}
