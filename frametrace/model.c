// SPDX-License-Identifier: GPL-2.0-only
/* Rebuilds the scheduling timeline from a finished trace (model.h). */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum tstate { TS_UNKNOWN, TS_RUNNING, TS_RUNNABLE, TS_SLEEPING, TS_DEAD };

struct live {
	uint8_t state;
	uint8_t rq_reason;
	uint8_t rq_irq;
	uint16_t cpu;
	uint64_t since;		/* of the current state */
	uint32_t rq_by;
	long last_wake;		/* wake record that made it runnable */
	uint64_t last_sum;
	bool has_sum;
	uint32_t chain[3];	/* who woke whom before this task, oldest first */
	int chainlen;
	long last_fx_wait;	/* latest futex wait call */
	long pending_fx;	/* entry-only wait call not yet ended */
};

bool ft_futex_is_wait(uint16_t op)
{
	switch (op) {
	case FT_FUTEX_OP_WAITV:
	case FT_FUTEX_OP_WAIT2:
		return true;
	case FT_FUTEX_OP_WAKE2:
		return false;
	}
	switch (op & 0x7f) {
	case 0:  /* FUTEX_WAIT */
	case 6:  /* FUTEX_LOCK_PI */
	case 9:  /* FUTEX_WAIT_BITSET */
	case 11: /* FUTEX_WAIT_REQUEUE_PI */
	case 13: /* FUTEX_LOCK_PI2 */
		return true;
	default:
		return false;
	}
}

bool ft_futex_is_wake(uint16_t op)
{
	if (op == FT_FUTEX_OP_WAKE2)
		return true;
	if (op >= 0x1000)
		return false;
	switch (op & 0x7f) {
	case 1:  /* FUTEX_WAKE */
	case 3:  /* FUTEX_REQUEUE */
	case 4:  /* FUTEX_CMP_REQUEUE */
	case 5:  /* FUTEX_WAKE_OP */
	case 7:  /* FUTEX_UNLOCK_PI */
	case 10: /* FUTEX_WAKE_BITSET */
	case 12: /* FUTEX_CMP_REQUEUE_PI */
		return true;
	default:
		return false;
	}
}

static int vec_push(struct ft_u32vec *v, uint32_t x)
{
	if (FT_VEC_RESERVE(v->v, v->n, v->cap))
		return -1;
	v->v[v->n++] = x;
	return 0;
}

struct builder {
	struct ft_model *m;
	struct live *live;	/* parallel to m->task */
	size_t livecap;
	int64_t *cur;		/* per CPU: running tid, -1 unknown */
	uint64_t *since;
	uint8_t *segflags;
};

static struct ft_tstat *task_of(struct builder *b, uint32_t tid, struct live **lv)
{
	struct ft_model *m = b->m;
	bool isnew;
	uint32_t *i = ft_map_put(&m->taskidx, tid, (uint32_t)m->ntask, &isnew);

	if (!i)
		return NULL;
	if (isnew) {
		struct ft_tstat *s;
		const struct ft_task_rec *r;

		if (FT_VEC_RESERVE(m->task, m->ntask, m->taskcap) ||
		    ft_grow((void **)&b->live, &b->livecap, m->ntask + 1,
			    sizeof(*b->live)))
			return NULL;
		s = &m->task[m->ntask];
		memset(s, 0, sizeof(*s));
		s->tid = tid;
		r = ft_task_get(m->t, tid);
		if (r) {
			s->pid = r->pid;
			s->recorder = (r->flags & FT_TASK_RECORDER) != 0;
		}
		memset(&b->live[m->ntask], 0, sizeof(*b->live));
		b->live[m->ntask].last_wake = -1;
		b->live[m->ntask].last_fx_wait = -1;
		b->live[m->ntask].pending_fx = -1;
		m->ntask++;
	}
	*lv = &b->live[*i];
	return &m->task[*i];
}

static int hist_add(struct gs_hist **h, uint64_t v)
{
	if (!*h) {
		*h = malloc(sizeof(**h));
		if (!*h)
			return -1;
		gs_hist_init(*h);
	}
	gs_hist_add(*h, v);
	return 0;
}

static int add_edge(struct ft_model *m, uint32_t waker, uint32_t wakee)
{
	uint64_t key = (uint64_t)waker << 32 | wakee;
	bool isnew;
	uint32_t *i = ft_map_put(&m->edgeidx, key, (uint32_t)m->nedge, &isnew);

	if (!i)
		return -1;
	if (isnew) {
		if (FT_VEC_RESERVE(m->edge, m->nedge, m->edgecap))
			return -1;
		m->edge[m->nedge].waker = waker;
		m->edge[m->nedge].wakee = wakee;
		m->edge[m->nedge].count = 0;
		m->nedge++;
	}
	m->edge[*i].count++;
	return 0;
}

static int add_chain(struct ft_model *m, const uint32_t *tids, int len)
{
	uint64_t key = (uint64_t)len;
	bool isnew;
	uint32_t *i;

	for (int k = 0; k < len; k++)
		key = ft_hash64(key ^ ((uint64_t)tids[k] + 0x9e3779b97f4a7c15ULL));
	if (key == UINT64_MAX)
		key--;
	i = ft_map_put(&m->chainidx, key, (uint32_t)m->nchain, &isnew);
	if (!i)
		return -1;
	if (isnew) {
		struct ft_chain *c;

		if (FT_VEC_RESERVE(m->chain, m->nchain, m->chaincap))
			return -1;
		c = &m->chain[m->nchain++];
		memset(c, 0, sizeof(*c));
		memcpy(c->tid, tids, (size_t)len * sizeof(*tids));
		c->len = len;
	}
	m->chain[*i].count++;
	return 0;
}

static int push_seg(struct builder *b, uint16_t cpu, uint64_t end,
		    uint32_t tid, uint32_t next, char out_state, uint8_t extra)
{
	struct ft_model *m = b->m;
	struct ft_seg *s;

	if (FT_VEC_RESERVE(m->seg, m->nseg, m->segcap))
		return -1;
	s = &m->seg[m->nseg++];
	s->start = b->since[cpu];
	s->end = end;
	s->tid = tid;
	s->next = next;
	s->cpu = cpu;
	s->flags = b->segflags[cpu] | extra;
	s->out_state = out_state;
	return 0;
}

/* A futex wait known from the switch-out (FT_F_FUTEX_SLEEP): starts at
 * the switch, address unknown, ended by the wake-up like an entry-only
 * call. */
static int sleep_futex(struct builder *b, struct ft_tstat *s, struct live *l,
		       const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	struct ft_fx *f;

	if (FT_VEC_RESERVE(m->fx, m->nfx, m->fxcap))
		return -1;
	f = &m->fx[m->nfx];
	memset(f, 0, sizeof(*f));
	f->ts = e->ts;
	f->tid = e->tid;
	f->op = 0; /* FUTEX_WAIT */
	f->from_switch = true;
	if (vec_push(&s->fxs, (uint32_t)m->nfx))
		return -1;
	s->futex_waits++;
	l->last_fx_wait = (long)m->nfx;
	l->pending_fx = (long)m->nfx;
	m->nfx++;
	return 0;
}

static int on_switch(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	uint16_t c = e->cpu;
	uint32_t prev = e->tid, next = e->arg;
	uint32_t st = e->arg2 & 0xffff;
	bool runnable = (e->flags & FT_F_PREEMPT) || (st & 0x7fff) == 0 ||
			(st & FT_STATE_UNKNOWN);
	char sc = runnable ? 'R' : ft_state_char(st);
	struct ft_tstat *ps, *ns;
	struct live *pl, *nl;
	bool known_start = b->cur[c] == (int64_t)prev;

	/* create both first: creating one may move the other */
	if (!task_of(b, next, &nl) || !task_of(b, prev, &pl))
		return -1;
	ps = ft_model_task(m, prev);
	pl = &b->live[ps - m->task];
	if (e->flags & FT_F_RECONSTRUCTED) {
		if (prev)
			ps->repaired++;
		if (next)
			ft_model_task(m, next)->repaired++;
	}
	/* close prev's run (idle's too: idle segments answer "was a CPU free") */
	if (b->cur[c] < 0 || known_start) {
		if (b->cur[c] < 0) {
			b->since[c] = m->start_ns <= e->ts ? m->start_ns : e->ts;
			b->segflags[c] = FT_SEG_OPEN_START;
		}
		if (push_seg(b, c, e->ts, prev, next, sc, 0))
			return -1;
		if (prev && !(b->segflags[c] & FT_SEG_OPEN_START)) {
			uint64_t d = e->ts - b->since[c];
			double delta;

			ps->runtime_bursts_ns += d;
			if (hist_add(&ps->run, d))
				return -1;
			ps->nburst++;
			delta = (double)d - ps->burst_mean;
			ps->burst_mean += delta / (double)ps->nburst;
			ps->burst_m2 += delta * ((double)d - ps->burst_mean);
		} else if (prev) {
			ps->runtime_bursts_ns += e->ts - b->since[c];
		}
	}
	if (prev) {
		if (e->flags & FT_F_SUMEXEC) {
			if (pl->has_sum && e->val >= pl->last_sum)
				ps->runtime_kernel_ns += e->val - pl->last_sum;
			else if (known_start)
				ps->runtime_kernel_ns += e->ts - b->since[c];
			pl->last_sum = e->val;
			pl->has_sum = true;
		}
		pl->since = e->ts;
		pl->cpu = c;
		if (runnable) {
			pl->state = TS_RUNNABLE;
			pl->rq_reason = (st & FT_STATE_UNKNOWN) ? FT_RQ_OTHER
								: FT_RQ_PREEMPT;
			pl->rq_by = next;
			pl->rq_irq = 0;
			pl->last_wake = -1;
			ps->preempted++;
		} else {
			pl->state = TS_SLEEPING;
			/* an entry-only futex call sleeps right away; a sleep
			 * long after it is some other blocking call */
			if (pl->pending_fx >= 0 &&
			    e->ts > m->fx[pl->pending_fx].ts + 100000)
				pl->pending_fx = -1;
			/* futex source "sched": the switch says the task
			 * sleeps in a futex wait, which its wake-up ends */
			if ((e->flags & FT_F_FUTEX_SLEEP) &&
			    sleep_futex(b, ps, pl, e))
				return -1;
		}
	}
	/* next starts running */
	ns = ft_model_task(m, next);
	nl = &b->live[ns - m->task];
	if (next) {
		ns->switches++;
		if (!(e->flags & FT_F_RECONSTRUCTED))
			ns->switches_recorded++;
		if (nl->state == TS_RUNNABLE && nl->since <= e->ts) {
			struct ft_runnable *r;
			uint64_t wait = e->ts - nl->since;

			if (FT_VEC_RESERVE(m->rq, m->nrq, m->rqcap))
				return -1;
			r = &m->rq[m->nrq];
			r->start = nl->since;
			r->end = e->ts;
			r->tid = next;
			r->by = nl->rq_by;
			r->cpu = c;
			r->reason = nl->rq_reason;
			r->irq = nl->rq_irq;
			if (vec_push(&ns->rqs, (uint32_t)m->nrq))
				return -1;
			m->nrq++;
			if (hist_add(&ns->wlat, wait))
				return -1;
			if (nl->last_wake >= 0) {
				m->wake[nl->last_wake].run_ts = e->ts;
				m->wake[nl->last_wake].run_cpu = c;
			}
		}
		nl->state = TS_RUNNING;
		nl->since = e->ts;
		nl->cpu = c;
	}
	b->cur[c] = next;
	b->since[c] = e->ts;
	b->segflags[c] = (e->flags & FT_F_RECONSTRUCTED) ? FT_SEG_RECON : 0;
	return 0;
}

static int on_wake(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	struct ft_tstat *ws, *ks = NULL;
	struct live *wl, *kl = NULL;
	bool irq = (e->flags & FT_F_IRQ) != 0;
	uint32_t waker = irq ? 0 : e->arg;
	struct ft_wake *w;

	ws = task_of(b, e->tid, &wl);
	if (!ws)
		return -1;
	if (waker) {
		ks = task_of(b, waker, &kl);
		if (!ks)
			return -1;
		/* ws may have moved */
		ws = ft_model_task(m, e->tid);
		wl = &b->live[ws - m->task];
	}
	/* futex source "sched": a task's wake-up of a task asleep in a
	 * futex wait (its switch-out said so) is a futex wake */
	if (ks && ((e->flags & FT_F_FUTEX_WAKE) ||
		   (!irq && wl->state == TS_SLEEPING && wl->pending_fx >= 0 &&
		    m->fx[wl->pending_fx].from_switch)))
		ks->futex_wakes++;
	if (e->type != FT_EV_WAKEUP_NEW && wl->state != TS_SLEEPING &&
	    wl->state != TS_UNKNOWN)
		return 0; /* already runnable or running: no effect */
	if (FT_VEC_RESERVE(m->wake, m->nwake, m->wakecap))
		return -1;
	w = &m->wake[m->nwake];
	memset(w, 0, sizeof(*w));
	w->ts = e->ts;
	w->wakee = e->tid;
	w->waker = waker;
	w->cpu = e->cpu;
	w->irq = irq;
	w->effective = 1;
	w->futex = -1;
	if (wl->state == TS_SLEEPING && e->ts >= wl->since) {
		w->sleep_ns = e->ts - wl->since;
		if (hist_add(&ws->sleep, w->sleep_ns))
			return -1;
	}
	if (wl->pending_fx >= 0) {
		/* an entry-only futex wait ends with this wake-up */
		struct ft_fx *f = &m->fx[wl->pending_fx];

		if (wl->state == TS_SLEEPING && f->ts <= e->ts) {
			f->dur = e->ts - f->ts;
			ws->futex_wait_ns += f->dur;
			if (f->dur > ws->futex_wait_max_ns)
				ws->futex_wait_max_ns = f->dur;
			w->futex = (int32_t)wl->pending_fx;
		}
		wl->pending_fx = -1;
	} else if (wl->last_fx_wait >= 0) {
		const struct ft_fx *f = &m->fx[wl->last_fx_wait];

		/* the wait was in progress when the wake-up came */
		if (f->ts <= e->ts && f->ts + f->dur + 1000 >= e->ts)
			w->futex = (int32_t)wl->last_fx_wait;
	}
	if (vec_push(&ws->wakes, (uint32_t)m->nwake))
		return -1;
	wl->state = TS_RUNNABLE;
	wl->since = e->ts;
	wl->rq_reason = e->type == FT_EV_WAKEUP_NEW ? FT_RQ_NEW : FT_RQ_WAKE;
	wl->rq_by = waker;
	wl->rq_irq = irq;
	wl->last_wake = (long)m->nwake;
	m->nwake++;
	ws->wakeups++;
	if (waker && ks) {
		ks->wakes_sent++;
		if (add_edge(m, waker, e->tid))
			return -1;
		/* wake chains: the waker's ancestry, then the waker */
		if (kl->state == TS_RUNNING) {
			uint32_t seq[4];
			int n = 0;

			for (int k = 0; k < kl->chainlen; k++)
				seq[n++] = kl->chain[k];
			seq[n++] = waker;
			/* seq + wakee: count the last 3 and 4 */
			if (n >= 2) {
				uint32_t c3[3] = { seq[n - 2], seq[n - 1], e->tid };

				if (add_chain(m, c3, 3))
					return -1;
			}
			if (n >= 3) {
				uint32_t c4[4] = { seq[n - 3], seq[n - 2],
						   seq[n - 1], e->tid };

				if (add_chain(m, c4, 4))
					return -1;
			}
			wl->chainlen = n > 3 ? 3 : n;
			memcpy(wl->chain, seq + (n - wl->chainlen),
			       (size_t)wl->chainlen * sizeof(uint32_t));
		} else {
			wl->chain[0] = waker;
			wl->chainlen = 1;
		}
	} else {
		wl->chainlen = 0;
	}
	return 0;
}

static int on_futex(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	struct ft_tstat *s;
	struct live *l;
	struct ft_fx *f;
	uint16_t op = (uint16_t)(e->arg & 0xffff);

	s = task_of(b, e->tid, &l);
	if (!s)
		return -1;
	if (FT_VEC_RESERVE(m->fx, m->nfx, m->fxcap))
		return -1;
	f = &m->fx[m->nfx];
	memset(f, 0, sizeof(*f));	/* from_switch too: a call, not a switch */
	f->ts = e->ts;
	f->dur = (e->flags & FT_F_DUR_US) ? (uint64_t)e->arg2 * 1000 : e->arg2;
	f->uaddr = e->val;
	f->tid = e->tid;
	f->op = op;
	f->ret = (int16_t)(uint16_t)(e->arg >> 16);
	if (vec_push(&s->fxs, (uint32_t)m->nfx))
		return -1;
	l->pending_fx = -1;
	if (ft_futex_is_wait(op)) {
		s->futex_waits++;
		s->futex_wait_ns += f->dur;
		if (f->dur > s->futex_wait_max_ns)
			s->futex_wait_max_ns = f->dur;
		l->last_fx_wait = (long)m->nfx;
		if (e->flags & FT_F_NO_EXIT)
			l->pending_fx = (long)m->nfx;
	} else if (ft_futex_is_wake(op)) {
		s->futex_wakes++;
	}
	m->nfx++;
	return 0;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct ft_seg *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

static const struct ft_seg *sort_segs;

static int seg_idx_cmp(const void *a, const void *b)
{
	const struct ft_seg *s = sort_segs;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (s[x].start != s[y].start)
		return s[x].start < s[y].start ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One event of the trace, in order. */
static int build_event(struct builder *b, const struct ft_ev *e, bool has_waking)
{
	struct ft_tstat *s;
	struct live *l;

	switch (e->type) {
	case FT_EV_SWITCH:
		if ((e->flags & FT_F_SUMEXEC) && !b->m->kernel_runtime)
			b->m->runtime_source = "sum_exec_runtime";
		if (on_switch(b, e))
			return -1;
		/* on_switch made prev's record */
		if (e->tid && !(e->flags & FT_F_RECONSTRUCTED))
			ft_model_task(b->m, e->tid)->switchouts_recorded++;
		break;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP_NEW:
		if (on_wake(b, e))
			return -1;
		break;
	case FT_EV_WAKEUP:
		if (!has_waking && on_wake(b, e))
			return -1;
		break;
	case FT_EV_MIGRATE:
		s = task_of(b, e->tid, &l);
		if (!s)
			return -1;
		s->migrations++;
		break;
	case FT_EV_FUTEX:
		if (on_futex(b, e))
			return -1;
		break;
	case FT_EV_RUNTIME:
		s = task_of(b, e->tid, &l);
		if (!s)
			return -1;
		s->runtime_kernel_ns += e->val;
		break;
	case FT_EV_EXIT:
		s = task_of(b, e->tid, &l);
		if (!s)
			return -1;
		if (l->state != TS_RUNNING)
			l->state = TS_DEAD;
		break;
	default:
		break;
	}
	return 0;
}

/* Closes what still runs at the end; each task's runtime from the best
 * source it has. */
static int build_close(struct builder *b)
{
	struct ft_model *M = b->m;

	for (uint16_t c = 0; c < M->ncpus; c++) {
		struct ft_tstat *s;
		struct live *l;
		uint64_t end;

		if (b->cur[c] < 0)
			continue;
		end = M->end_ns > b->since[c] ? M->end_ns : b->since[c];
		if (push_seg(b, c, end, (uint32_t)b->cur[c], 0, 0,
			     FT_SEG_OPEN_END))
			return -1;
		s = task_of(b, (uint32_t)b->cur[c], &l);
		if (!s)
			return -1;
		if (b->cur[c]) {
			s->runtime_bursts_ns += end - b->since[c];
			if (!M->kernel_runtime && l->has_sum)
				s->runtime_kernel_ns += end - b->since[c];
		}
	}
	if (!M->runtime_source)
		M->runtime_source = "run bursts";
	for (size_t i = 0; i < M->ntask; i++) {
		struct ft_tstat *s = &M->task[i];

		if (M->kernel_runtime || b->live[i].has_sum)
			s->runtime_ns = s->runtime_kernel_ns;
		else
			s->runtime_ns = s->runtime_bursts_ns;
	}
	return 0;
}

/* The segments by CPU and start; per-task lists of segment indices. */
static int build_index(struct ft_model *m)
{
	if (m->nseg > 1)
		qsort(m->seg, m->nseg, sizeof(*m->seg), seg_cmp);
	m->cpu_seg = calloc(m->ncpus + 1u, sizeof(*m->cpu_seg));
	if (!m->cpu_seg)
		return -1;
	{
		size_t k = 0;

		for (uint32_t c = 0; c <= m->ncpus; c++) {
			while (k < m->nseg && m->seg[k].cpu < c)
				k++;
			m->cpu_seg[c] = k;
		}
	}
	for (size_t i = 0; i < m->nseg; i++) {
		struct ft_tstat *s = ft_model_task(m, m->seg[i].tid);

		if (s && vec_push(&s->segs, (uint32_t)i))
			return -1;
	}
	sort_segs = m->seg;
	for (size_t i = 0; i < m->ntask; i++)
		if (m->task[i].segs.n > 1)
			qsort(m->task[i].segs.v, m->task[i].segs.n, sizeof(uint32_t),
		      seg_idx_cmp);
	return 0;
}

int ft_model_build(struct ft_model *m, const struct ft_trace *t)
{
	struct builder b = { .m = m };
	bool has_waking = false;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->t = t;
	m->start_ns = t->start_ns;
	m->end_ns = t->end_ns;
	m->ncpus = t->ncpus ? t->ncpus : 1;
	for (size_t i = 0; i < t->nev; i++) {
		if (t->ev[i].cpu >= m->ncpus && t->ev[i].cpu < 4096)
			m->ncpus = t->ev[i].cpu + 1u;
		if (t->ev[i].type == FT_EV_WAKING)
			has_waking = true;
		if (t->ev[i].type == FT_EV_RUNTIME)
			m->kernel_runtime = true;
	}
	m->runtime_source = m->kernel_runtime ? "sched_stat_runtime" : NULL;
	ft_map_init(&m->taskidx);
	ft_map_init(&m->edgeidx);
	ft_map_init(&m->chainidx);
	b.cur = malloc(m->ncpus * sizeof(*b.cur));
	b.since = calloc(m->ncpus, sizeof(*b.since));
	b.segflags = calloc(m->ncpus, 1);
	if (!b.cur || !b.since || !b.segflags)
		goto out;
	for (uint32_t c = 0; c < m->ncpus; c++)
		b.cur[c] = -1;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].cpu < m->ncpus &&
		    build_event(&b, &t->ev[i], has_waking))
			goto out;
	if (build_close(&b))
		goto out;

	if (build_index(m))
		goto out;

	/* latency criticality: how often a task is woken and wakes others */
	{
		double secs = (double)(m->end_ns - m->start_ns) / 1e9;

		if (secs <= 0)
			secs = 1;
		for (size_t i = 0; i < m->ntask; i++) {
			struct ft_tstat *s = &m->task[i];
			double in = (double)s->wakeups / secs;
			double out = (double)s->wakes_sent / secs;

			s->lat_score = log2(1 + in) + log2(1 + out);
			if (s->tid && !s->switchouts_recorded &&
			    (s->preempted || (s->wlat && s->wlat->count))) {
				s->switchouts_unseen = true;
				s->preempted = 0;
				free(s->wlat);
				s->wlat = NULL;
			}
		}
	}
	rc = 0;
out:
	free(b.live);
	free(b.cur);
	free(b.since);
	free(b.segflags);
	if (rc)
		ft_model_free(m);
	return rc;
}

void ft_model_free(struct ft_model *m)
{
	for (size_t i = 0; i < m->ntask; i++) {
		struct ft_tstat *s = &m->task[i];

		free(s->run);
		free(s->sleep);
		free(s->wlat);
		free(s->segs.v);
		free(s->wakes.v);
		free(s->rqs.v);
		free(s->fxs.v);
	}
	free(m->task);
	free(m->seg);
	free(m->cpu_seg);
	free(m->rq);
	free(m->wake);
	free(m->fx);
	free(m->edge);
	free(m->chain);
	ft_map_free(&m->taskidx);
	ft_map_free(&m->edgeidx);
	ft_map_free(&m->chainidx);
	memset(m, 0, sizeof(*m));
}
