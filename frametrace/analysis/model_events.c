// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events that change a task's state, into the timeline (model_build.h):
 * a switch (one run closed, the next begun), a wake-up (with the futex
 * wait it ends and the wake chain it extends), a futex call.
 */
#include "model_build.h"

#include <stdlib.h>
#include <string.h>

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
	if (ftm_vec_push(&s->fxs, (uint32_t)m->nfx))
		return -1;
	s->futex_waits++;
	l->last_fx_wait = (long)m->nfx;
	l->pending_fx = (long)m->nfx;
	m->nfx++;
	return 0;
}

/* Closes the run on CPU e->cpu that the switch ends (idle's too: idle
 * segments answer "was a CPU free"), when its start is known or open. */
static int close_run(struct builder *b, const struct ft_ev *e,
		     struct ft_tstat *ps, char sc, bool known_start)
{
	struct ft_model *m = b->m;
	uint16_t c = e->cpu;
	uint32_t prev = e->tid, next = e->arg;

	if (b->cur[c] >= 0 && !known_start)
		return 0;
	if (b->cur[c] < 0) {
		b->since[c] = m->start_ns <= e->ts ? m->start_ns : e->ts;
		b->segflags[c] = FT_SEG_OPEN_START;
	}
	if (ftm_push_seg(b, c, e->ts, prev, next, sc, 0))
		return -1;
	if (prev && !(b->segflags[c] & FT_SEG_OPEN_START)) {
		uint64_t d = e->ts - b->since[c];
		double delta;

		ps->runtime_bursts_ns += d;
		if (ftm_hist_add(&ps->run, d))
			return -1;
		ps->nburst++;
		delta = (double)d - ps->burst_mean;
		ps->burst_mean += delta / (double)ps->nburst;
		ps->burst_m2 += delta * ((double)d - ps->burst_mean);
	} else if (prev) {
		ps->runtime_bursts_ns += e->ts - b->since[c];
	}
	return 0;
}

/* The switched-out task: its kernel runtime, and runnable (preempted)
 * or asleep. */
static int prev_leaves(struct builder *b, const struct ft_ev *e,
		       struct ft_tstat *ps, struct live *pl, bool known_start)
{
	struct ft_model *m = b->m;
	uint16_t c = e->cpu;
	uint32_t next = e->arg;
	uint32_t st = e->arg2 & 0xffff;
	bool runnable = (e->flags & FT_F_PREEMPT) || (st & 0x7fff) == 0 ||
			(st & FT_STATE_UNKNOWN);

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
	return 0;
}

/* The switched-in task starts running: its wait in the run queue, from
 * its wake-up or preemption, is one runnable interval. */
static int next_runs(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	uint16_t c = e->cpu;
	uint32_t next = e->arg;
	struct ft_tstat *ns = ft_model_task(m, next);
	struct live *nl = &b->live[ns - m->task];

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
		if (ftm_vec_push(&ns->rqs, (uint32_t)m->nrq))
			return -1;
		m->nrq++;
		if (ftm_hist_add(&ns->wlat, wait))
			return -1;
		if (nl->last_wake >= 0) {
			m->wake[nl->last_wake].run_ts = e->ts;
			m->wake[nl->last_wake].run_cpu = c;
		}
	}
	nl->state = TS_RUNNING;
	nl->since = e->ts;
	nl->cpu = c;
	return 0;
}

int ftm_on_switch(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	uint16_t c = e->cpu;
	uint32_t prev = e->tid, next = e->arg;
	uint32_t st = e->arg2 & 0xffff;
	bool runnable = (e->flags & FT_F_PREEMPT) || (st & 0x7fff) == 0 ||
			(st & FT_STATE_UNKNOWN);
	char sc = runnable ? 'R' : ft_state_char(st);
	struct ft_tstat *ps;
	struct live *pl, *nl;
	bool known_start = b->cur[c] == (int64_t)prev;

	/* create both first: creating one may move the other */
	if (!ftm_task_of(b, next, &nl) || !ftm_task_of(b, prev, &pl))
		return -1;
	ps = ft_model_task(m, prev);
	pl = &b->live[ps - m->task];
	if (e->flags & FT_F_RECONSTRUCTED) {
		if (prev)
			ps->repaired++;
		if (next)
			ft_model_task(m, next)->repaired++;
	}
	if (close_run(b, e, ps, sc, known_start))
		return -1;
	if (prev && prev_leaves(b, e, ps, pl, known_start))
		return -1;
	if (next && next_runs(b, e))
		return -1;
	b->cur[c] = next;
	b->since[c] = e->ts;
	b->segflags[c] = (e->flags & FT_F_RECONSTRUCTED) ? FT_SEG_RECON : 0;
	return 0;
}

/* Wake chains: the waker's ancestry, then the waker, then the wakee;
 * the chains of 3 and 4 are counted and the wakee inherits the ancestry. */
static int note_chain(struct ft_model *m, const struct live *kl,
		      struct live *wl, uint32_t waker, uint32_t wakee)
{
	if (kl->state == TS_RUNNING) {
		uint32_t seq[4];
		int n = 0;

		for (int k = 0; k < kl->chainlen; k++)
			seq[n++] = kl->chain[k];
		seq[n++] = waker;
		/* seq + wakee: count the last 3 and 4 */
		if (n >= 2) {
			uint32_t c3[3] = { seq[n - 2], seq[n - 1], wakee };

			if (add_chain(m, c3, 3))
				return -1;
		}
		if (n >= 3) {
			uint32_t c4[4] = { seq[n - 3], seq[n - 2],
					   seq[n - 1], wakee };

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
	return 0;
}

/* The futex wait a wake-up ends: an entry-only wait pending, or a
 * wait in progress when it came. */
static void wake_ends_futex(struct ft_model *m, struct ft_tstat *ws,
			    struct live *wl, struct ft_wake *w,
			    const struct ft_ev *e)
{
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
}

int ftm_on_wake(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	struct ft_tstat *ws, *ks = NULL;
	struct live *wl, *kl = NULL;
	bool irq = (e->flags & FT_F_IRQ) != 0;
	uint32_t waker = irq ? 0 : e->arg;
	struct ft_wake *w;

	ws = ftm_task_of(b, e->tid, &wl);
	if (!ws)
		return -1;
	if (waker) {
		ks = ftm_task_of(b, waker, &kl);
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
		if (ftm_hist_add(&ws->sleep, w->sleep_ns))
			return -1;
	}
	wake_ends_futex(m, ws, wl, w, e);
	if (ftm_vec_push(&ws->wakes, (uint32_t)m->nwake))
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
		if (note_chain(m, kl, wl, waker, e->tid))
			return -1;
	} else {
		wl->chainlen = 0;
	}
	return 0;
}

int ftm_on_futex(struct builder *b, const struct ft_ev *e)
{
	struct ft_model *m = b->m;
	struct ft_tstat *s;
	struct live *l;
	struct ft_fx *f;
	uint16_t op = (uint16_t)(e->arg & 0xffff);

	s = ftm_task_of(b, e->tid, &l);
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
	if (ftm_vec_push(&s->fxs, (uint32_t)m->nfx))
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
