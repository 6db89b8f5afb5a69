// SPDX-License-Identifier: GPL-2.0-only
/*
 * The steps of each stage (pipeline.h). A stage's activations, one
 * per frame, and their most common sequence of calls, fan-outs and joins
 * come from profile_acts.c; each step becomes a distribution fitted to
 * its samples; works are then scaled so the stage's mean CPU per frame
 * over every activation is kept, the pool's and each service's likewise.
 */
#include "pipeline.h"

#include "trace/present.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fit_at(const struct acts *s, const size_t *mi, size_t nm,
		  size_t pos, struct ft_pf_sum *sum, struct ft_pf_dist *d)
{
	double *x = malloc((nm ? nm : 1) * sizeof(double));

	if (!x)
		return -1;
	for (size_t i = 0; i < nm; i++)
		x[i] = s->val[s->v[mi[i]].off + pos];
	if (ft_pf_summarize(x, nm, sum)) {
		free(x);
		return -1;
	}
	ft_pf_fit(sum, d);
	free(x);
	return 0;
}

/* framebench takes one asynchronous fan-out and one join per stage: a
 * common sequence with another count keeps its fan-outs synchronous and
 * its joins as nothing (a work of 0 between two works). True when an
 * asynchronous fan-out was so taken as waited for. */
static bool pair_async(struct ft_pr_stage *st)
{
	unsigned na = 0, nj = 0;

	for (unsigned j = 0; j < st->nsteps; j++) {
		na += st->step[j].async;
		nj += st->step[j].kind == PR_JOIN;
	}
	if (na == 1 && nj == 1)
		return false;
	for (unsigned j = 0; j < st->nsteps; j++) {
		struct ft_pr_step *x = &st->step[j];

		x->async = false;
		if (x->kind == PR_JOIN) {
			x->kind = PR_WORK;
			memset(&x->dist, 0, sizeof(x->dist));
		}
	}
	return na > 0;
}

bool ft_pr_pool_even(const struct ft_pr_analysis *a)
{
	return a->tally.bal_n >= 10 &&
	       a->tally.bal_sum / (double)a->tally.bal_n <= PR_EVEN_BAL;
}

static int stage_steps(struct ft_pr_analysis *a, unsigned k)
{
	struct ft_pr_stage *st = &a->stage[k];
	size_t xi = (size_t)ft_pr_index(a, st->tid), nb = 0, nm = 0;
	size_t next = k + 1 < a->nstages ? (size_t)ft_pr_index(a, a->stage[k + 1].tid) : (size_t)-1;
	struct acts s = { 0 };
	uint64_t *b = ft_pr_boundaries(a, k, &nb);
	size_t *mi = NULL;
	double *cpu = NULL, sum_means = 0;
	const struct act *m0;
	int rc = -1;

	if (!b)
		return -1;
	if (ft_pr_collect(a, xi, next, b, nb, &s, &mi, &nm))
		goto out;
	st->nact = s.n;
	cpu = malloc((s.n ? s.n : 1) * sizeof(double));
	if (!cpu)
		goto out;
	for (size_t i = 0; i < s.n; i++) {
		cpu[i] = (double)s.v[i].cpu;
		if (s.v[i].ntok > st->ntokens_max)
			st->ntokens_max = s.v[i].ntok;
		if (s.v[i].trunc)
			st->truncated = true;
	}
	if (ft_pf_summarize(cpu, s.n, &st->cpu))
		goto out;
	st->nmode = nm;
	if (!nm) {
		rc = 0;
		goto out;
	}
	m0 = &s.v[mi[0]];
	/* works and steps in their order; jobs: the median count */
	for (unsigned j = 0; j <= m0->ntok; j++) {
		struct ft_pr_step w = { .kind = PR_WORK, .target = -1, .lock = -1 };

		if (fit_at(&s, mi, nm, j, &w.sum, &w.dist))
			goto out;
		sum_means += ft_pf_dist_mean(&w.dist);
		st->step[st->nsteps++] = w;
		if (j == m0->ntok)
			break;
		{
			struct ft_pr_step c = { .target = -1, .lock = -1 };
			size_t soff = (size_t)m0->ntok + 1 + j, joff = soff + m0->ntok;
			struct ft_pf_sum js;
			struct ft_pf_dist jd;

			c.kind = m0->key[j] == 'F' || m0->key[j] == 'A' ? PR_FANOUT
				 : m0->key[j] == 'J'			 ? PR_JOIN
									 : PR_CALL;
			c.async = m0->key[j] == 'A';
			c.even = c.kind == PR_FANOUT && ft_pr_pool_even(a);
			c.target = c.kind == PR_CALL ? m0->key[j] - 'a' : -1;
			if (fit_at(&s, mi, nm, soff, &c.sum, &c.dist) ||
			    fit_at(&s, mi, nm, joff, &js, &jd))
				goto out;
			/* the pool threads that ran its jobs: as many as
			 * could run at once (p90; fewer when CPUs were busy),
			 * each with an equal part of the pool's CPU */
			c.jobs = c.kind == PR_FANOUT ? (unsigned)llround(js.p90) : 1;
			if (c.jobs < 1)
				c.jobs = 1;
			if (c.jobs > 64)
				c.jobs = 64;
			if (c.kind == PR_FANOUT)
				ft_pf_dist_scale(&c.dist, 1.0 / c.jobs);
			st->step[st->nsteps++] = c;
		}
	}
	/* an overlap the language cannot say is counted, for the
	 * profile's comment and the warning */
	for (size_t i = 0; i < nm; i++)
		st->unexpressed += s.v[mi[i]].unexpressed;
	if (pair_async(st))
		st->unexpressed = nm;
	st->scale = sum_means > 0 ? st->cpu.mean / sum_means : 1;
	for (unsigned j = 0; j < st->nsteps; j++)
		if (st->step[j].kind == PR_WORK)
			ft_pf_dist_scale(&st->step[j].dist, st->scale);
	rc = 0;
out:
	free(b);
	free(mi);
	free(cpu);
	free(s.v);
	free(s.val);
	return rc;
}

/* The pool's and each service's CPU per frame, kept: their steps scaled. */
static void scale_helpers(struct ft_pr_analysis *a)
{
	double pool_sum = 0;

	for (unsigned p = 0; p < a->npool; p++) {
		long pi = ft_pr_index(a, a->pool[p]);

		if (pi >= 0)
			a->pool_cpu_frame += (double)a->th[pi].cpu / (double)a->nf;
	}
	for (unsigned k = 0; k < a->nstages; k++)
		for (unsigned j = 0; j < a->stage[k].nsteps; j++) {
			const struct ft_pr_step *s = &a->stage[k].step[j];

			if (s->kind == PR_FANOUT)
				pool_sum += s->jobs * ft_pf_dist_mean(&s->dist);
		}
	a->pool_scale = pool_sum > 0 ? a->pool_cpu_frame / pool_sum : 1;
	for (unsigned v = 0; v < a->nsvc; v++) {
		struct ft_pr_service *sv = &a->svc[v];
		long si = ft_pr_index(a, sv->tid);
		double sum = 0;

		sv->cpu_frame = si < 0 ? 0 : (double)a->th[si].cpu / (double)a->nf;
		for (unsigned k = 0; k < a->nstages; k++)
			for (unsigned j = 0; j < a->stage[k].nsteps; j++) {
				const struct ft_pr_step *s = &a->stage[k].step[j];

				if (s->kind == PR_CALL && s->target == (int)v) {
					sum += ft_pf_dist_mean(&s->dist);
					sv->calls_frame += 1;
				}
			}
		sv->scale = sum > 0 ? sv->cpu_frame / sum : 1;
	}
	for (unsigned k = 0; k < a->nstages; k++)
		for (unsigned j = 0; j < a->stage[k].nsteps; j++) {
			struct ft_pr_step *s = &a->stage[k].step[j];

			if (s->kind == PR_FANOUT)
				ft_pf_dist_scale(&s->dist, a->pool_scale);
			else if (s->kind == PR_CALL)
				ft_pf_dist_scale(&s->dist, a->svc[s->target].scale);
		}
}

static int periodic_work(struct ft_pr_analysis *a)
{
	for (int k = 0; k < PR_PER_N; k++) {
		struct ft_pr_periodic *p = &a->per[k];
		long ti = p->on ? ft_pr_index(a, p->tid) : -1;
		const struct ft_tstat *s;
		uint64_t prev = 0;
		double *x;
		size_t n = 0;

		if (ti < 0)
			continue;
		s = &a->m->task[ti];
		x = malloc((s->wakes.n + 1) * sizeof(*x));
		if (!x)
			return -1;
		for (size_t j = 0; j < s->wakes.n; j++) {
			const struct ft_wake *w = &a->m->wake[s->wakes.v[j]];

			if (!(w->irq || !w->waker) || w->ts < a->wa || w->ts > a->wb)
				continue;
			if (prev)
				x[n++] = (double)ft_pr_cpu_in(a, (size_t)ti, prev, w->ts);
			prev = w->ts;
		}
		if (ft_pf_summarize(x, n, &p->sum)) {
			free(x);
			return -1;
		}
		ft_pf_fit(&p->sum, &p->work);
		free(x);
	}
	return 0;
}

/* Takes the hold out of the work it is part of (at most half of it). */
static void carve(struct ft_pf_dist *work, struct ft_pf_dist *hold)
{
	double w = ft_pf_dist_mean(work), h = ft_pf_dist_mean(hold);

	if (w <= 0) {
		*hold = (struct ft_pf_dist){ PF_FIXED, 0, 0 };
		return;
	}
	if (h > w / 2) {
		h = w / 2;
		*hold = (struct ft_pf_dist){ PF_FIXED, h, h };
	}
	ft_pf_dist_scale(work, (w - h) / w);
}

static void add_where(struct ft_pr_lock *l, const char *what)
{
	size_t n = strlen(l->where);

	snprintf(l->where + n, sizeof(l->where) - n, "%s%s", n ? ", " : "", what);
}

/* Each lock goes where its users are: a lock step after the largest work
 * of a stage, the largest fan-out's jobs for the pool, the net task. */
static void attach_locks(struct ft_pr_analysis *a)
{
	const struct ft_model *m = a->m;

	for (unsigned l = 0; l < a->nlocks; l++) {
		struct ft_pr_lock *lk = &a->lock[l];
		bool stage_used[PR_MAX_STAGES] = { false }, pool_used = false, net_used = false;
		char what[48];

		for (size_t i = 0; i < m->nfx; i++) {
			const struct ft_fx *f = &m->fx[i];
			long ti;

			if (f->uaddr != lk->uaddr || f->ts < a->wa || f->ts > a->wb)
				continue;
			ti = ft_pr_index(a, f->tid);
			if (ti < 0)
				continue;
			if (a->th[ti].role == PR_STAGE)
				stage_used[a->th[ti].idx] = true;
			else if (a->th[ti].role == PR_POOL)
				pool_used = true;
			else if (a->th[ti].role == PR_PERIODIC && a->th[ti].idx == PR_PER_NET)
				net_used = true;
		}
		for (unsigned k = 0; k < a->nstages; k++) {
			struct ft_pr_stage *st = &a->stage[k];
			unsigned big = 0;
			bool any = false;

			bool has = false;

			for (unsigned j = 0; j < st->nsteps; j++)
				has |= st->step[j].kind == PR_LOCK;
			/* one lock per stage, the most contended (framebench's
			 * locks only add contention; more would split the
			 * same work finer) */
			if (!stage_used[k] || has || st->nsteps >= PR_MAX_STEPS)
				continue;
			for (unsigned j = 0; j < st->nsteps; j++)
				if (st->step[j].kind == PR_WORK &&
				    (!any || ft_pf_dist_mean(&st->step[j].dist) >
						     ft_pf_dist_mean(&st->step[big].dist))) {
					big = j;
					any = true;
				}
			if (!any)
				continue;
			memmove(&st->step[big + 2], &st->step[big + 1],
				(st->nsteps - big - 1) * sizeof(st->step[0]));
			st->nsteps++;
			st->step[big + 1] = (struct ft_pr_step){ .kind = PR_LOCK,
				.target = (int)l, .lock = -1, .dist = lk->hold };
			carve(&st->step[big].dist, &st->step[big + 1].dist);
			snprintf(what, sizeof(what), "stage %s", st->name);
			add_where(lk, what);
		}
		for (unsigned k = 0; k < a->nstages && pool_used; k++)
			for (unsigned j = 0; j < a->stage[k].nsteps; j++)
				if (a->stage[k].step[j].lock >= 0)
					pool_used = false;	/* one lock for the pool */
		if (pool_used) {
			struct ft_pr_step *best = NULL;

			for (unsigned k = 0; k < a->nstages; k++)
				for (unsigned j = 0; j < a->stage[k].nsteps; j++) {
					struct ft_pr_step *s = &a->stage[k].step[j];

					if (s->kind == PR_FANOUT && s->lock < 0 &&
					    (!best || s->jobs * ft_pf_dist_mean(&s->dist) >
							      best->jobs * ft_pf_dist_mean(&best->dist)))
						best = s;
				}
			if (best) {
				best->lock = (int)l;
				best->hold = lk->hold;
				carve(&best->dist, &best->hold);
				add_where(lk, "the largest fan-out's jobs");
			}
		}
		if (net_used && a->per[PR_PER_NET].lock < 0) {
			struct ft_pr_periodic *p = &a->per[PR_PER_NET];

			p->lock = (int)l;
			p->hold = lk->hold;
			carve(&p->work, &p->hold);
			add_where(lk, "net");
		}
	}
}

/* Frames started but not yet presented: from the frames' start times the
 * median number of presents from a frame's start to its own present. */
static void frames_in_flight(struct ft_pr_analysis *a)
{
	const struct ft_trace *t = a->t;
	double *c = malloc(a->nf * sizeof(double));
	size_t n = 0;
	struct ft_pf_sum s;

	if (c)
		for (size_t k = 0; k < a->nf; k++) {
			const struct ft_frame *f = &t->frames[a->fidx[k]];
			size_t j = k;

			/* a present call's frame starts at the previous
			 * present: no start of its own */
			if (!f->start_ns || f->start_ns > f->present_ns ||
			    (f->flags & FT_FRAME_PRESENT))
				continue;
			while (j > 0 && t->frames[a->fidx[j - 1]].present_ns > f->start_ns)
				j--;
			if (j == 0 && k + 1 < a->nf / 2)
				continue;	/* its start is before the window */
			c[n++] = (double)(k - j + 1);
		}
	if (c && n * 2 >= a->nf && !ft_pf_summarize(c, n, &s)) {
		double v = s.p50 < 1 ? 1 : s.p50 > 8 ? 8 : s.p50;

		a->fif = (unsigned)v;
		snprintf(a->fif_how, sizeof(a->fif_how),
			 "presents from a frame's start to its present, p50 of "
			 "%zu frames (p10 %.0f, p90 %.0f)", n, s.p10, s.p90);
	} else if (a->nstages == 1) {
		a->fif = 1;
		snprintf(a->fif_how, sizeof(a->fif_how),
			 "one stage: a frame is presented before the next starts");
	} else {
		a->fif = 2;
		snprintf(a->fif_how, sizeof(a->fif_how),
			 "the frames carry no start time: framebench's default "
			 "assumed");
	}
	free(c);
}

/* Takes the step cost off a distribution: at most half of its mean. */
static void less_cost(struct ft_pf_dist *d, double cost)
{
	double m = ft_pf_dist_mean(d);

	if (m <= 0)
		return;
	if (cost > m / 2)
		cost = m / 2;
	ft_pf_dist_scale(d, (m - cost) / m);
}

/* Takes up to cost off each of a stage's works, and extra times cost off
 * all of them in proportion (the presenter's own steps), at most half of
 * the stage's work in all: a work between two steps is often nothing but
 * the cost, a stage's whole work is not. */
static void stage_less_cost(struct ft_pr_stage *st, double cost, double extra)
{
	double base = 0, have = 0, want, f, rest;

	for (unsigned j = 0; j < st->nsteps; j++)
		if (st->step[j].kind == PR_WORK) {
			double m = ft_pf_dist_mean(&st->step[j].dist);

			base += m < cost ? m : cost;
			have += m;
		}
	want = base + extra * cost;
	rest = have - base;
	if (want <= 0 || have <= 0)
		return;
	f = want > have / 2 ? have / 2 / want : 1;
	for (unsigned j = 0; j < st->nsteps; j++)
		if (st->step[j].kind == PR_WORK) {
			struct ft_pf_dist *d = &st->step[j].dist;
			double m = ft_pf_dist_mean(d), b = m < cost ? m : cost;
			double take = b + (rest > 0 ? extra * cost * (m - b) / rest : 0);

			if (m > 0)
				ft_pf_dist_scale(d, (m - f * take) / m);
		}
}

/*
 * framebench's own cost per step: the CPU its futex calls and the
 * wake-ups around each call, fan-out, hand-off, job and period take. The
 * trace's CPU has the traced program's own such cost in it and the replay
 * adds framebench's, so it is taken off each work, job, call and period.
 * Its measure is the lesser of two: the least mean CPU of a work right
 * after a call or fan-out in any stage's sequence (two steps with at most
 * that between them: in a framebench trace, the cost itself), and the
 * mean CPU from a stage's signal to the sleep that waits for the answer
 * (a step's kernel work on the way out; in another program's trace the
 * first, real work, is no measure).
 */
static void step_cost(struct ft_pr_analysis *a)
{
	double gap = -1;
	double tail = a->tally.tail_n ? a->tally.tail_sum / (double)a->tally.tail_n : -1;
	char where[64] = "";

	if (a->o.step_ns >= 0) {
		a->step_ns = (double)a->o.step_ns;
		snprintf(a->step_how, sizeof(a->step_how), "given (--step-cost)");
	} else {
		for (unsigned k = 0; k < a->nstages; k++) {
			const struct ft_pr_stage *st = &a->stage[k];

			for (unsigned j = 1; j < st->nsteps; j++) {
				double m = ft_pf_dist_mean(&st->step[j].dist);

				/* after an asynchronous fan-out the stage
				 * goes on with real work */
				if (st->step[j].kind != PR_WORK ||
				    st->step[j - 1].kind == PR_WORK ||
				    st->step[j - 1].async || (gap >= 0 && m >= gap))
					continue;
				gap = m;
				snprintf(where, sizeof(where), "stage %s, work %u",
					 st->name, j / 2 + 1);
			}
		}
		if (gap >= 0 && (tail < 0 || gap <= tail)) {
			a->step_ns = gap;
			snprintf(a->step_how, sizeof(a->step_how),
				 "the least mean CPU between two steps (%s)", where);
		} else if (tail >= 0) {
			a->step_ns = tail;
			snprintf(a->step_how, sizeof(a->step_how),
				 "the mean CPU from a signal to the sleep after "
				 "it (%zu steps)", a->tally.tail_n);
		} else {
			a->step_ns = 0;
			snprintf(a->step_how, sizeof(a->step_how),
				 "none: no stage calls or fans out");
		}
	}
	if (a->step_ns <= 0)
		return;
	for (unsigned k = 0; k < a->nstages; k++) {
		/* the presenter's present and, capped, its vsync sleep are
		 * steps of framebench's own */
		stage_less_cost(&a->stage[k], a->step_ns,
				k + 1 == a->nstages ? 1 + (a->fps > 0) : 0);
		for (unsigned j = 0; j < a->stage[k].nsteps; j++) {
			struct ft_pr_step *st = &a->stage[k].step[j];

			if (st->kind == PR_CALL || st->kind == PR_FANOUT)
				less_cost(&st->dist, a->step_ns);
		}
	}
	for (int k = 0; k < PR_PER_N; k++)
		if (a->per[k].on)
			less_cost(&a->per[k].work, a->step_ns);
}

int ft_pr_steps(struct ft_pr_analysis *a, char *err, size_t errlen)
{
	for (unsigned k = 0; k < a->nstages; k++)
		if (stage_steps(a, k))
			return -2;
	scale_helpers(a);
	if (periodic_work(a))
		return -2;
	step_cost(a);
	attach_locks(a);
	frames_in_flight(a);
	a->chain_wakeups = a->fps ? 1 : 0;
	for (unsigned k = 0; k < a->nstages; k++) {
		const struct ft_pr_stage *st = &a->stage[k];
		bool work = false;

		a->chain_wakeups += 1;
		for (unsigned j = 0; j < st->nsteps; j++) {
			const struct ft_pr_step *s = &st->step[j];

			if (s->kind == PR_JOIN || s->async) {
				a->chain_wakeups += 1;	/* the fan-in, the fan-out */
				work |= s->async;
			} else if (s->kind == PR_CALL || s->kind == PR_FANOUT) {
				a->chain_wakeups += 2;
				work = true;
			} else if (ft_pf_dist_mean(&s->dist) >= 500) {
				work = true;
			}
		}
		if (!work) {
			char b[64];

			snprintf(err, errlen,
				 "stage %u (%s) shows no work per frame (%zu "
				 "activations, %.1f us of CPU each on average): a "
				 "stage framebench would run empty",
				 k + 1, ft_pr_label(a, st->tid, b, sizeof(b)), st->nact,
				 st->cpu.mean / 1e3);
			return -1;
		}
	}
	return 0;
}
