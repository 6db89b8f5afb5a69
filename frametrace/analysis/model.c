// SPDX-License-Identifier: GPL-2.0-only
/* Rebuilds the scheduling timeline from a finished trace (model.h): the
 * events in order (those that change a task's state: model_events.c), what
 * still runs at the end closed, the segments indexed. */
#include "model_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int ftm_vec_push(struct ft_u32vec *v, uint32_t x)
{
	if (FT_VEC_RESERVE(v->v, v->n, v->cap))
		return -1;
	v->v[v->n++] = x;
	return 0;
}

struct ft_tstat *ftm_task_of(struct builder *b, uint32_t tid, struct live **lv)
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

int ftm_hist_add(struct gs_hist **h, uint64_t v)
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

int ftm_push_seg(struct builder *b, uint16_t cpu, uint64_t end,
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
		if (ftm_on_switch(b, e))
			return -1;
		/* the switch made prev's record */
		if (e->tid && !(e->flags & FT_F_RECONSTRUCTED))
			ft_model_task(b->m, e->tid)->switchouts_recorded++;
		break;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP_NEW:
		if (ftm_on_wake(b, e))
			return -1;
		break;
	case FT_EV_WAKEUP:
		if (!has_waking && ftm_on_wake(b, e))
			return -1;
		break;
	case FT_EV_MIGRATE:
		s = ftm_task_of(b, e->tid, &l);
		if (!s)
			return -1;
		s->migrations++;
		break;
	case FT_EV_FUTEX:
		if (ftm_on_futex(b, e))
			return -1;
		break;
	case FT_EV_RUNTIME:
		s = ftm_task_of(b, e->tid, &l);
		if (!s)
			return -1;
		s->runtime_kernel_ns += e->val;
		break;
	case FT_EV_EXIT:
		s = ftm_task_of(b, e->tid, &l);
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
		if (ftm_push_seg(b, c, end, (uint32_t)b->cur[c], 0, 0,
			     FT_SEG_OPEN_END))
			return -1;
		s = ftm_task_of(b, (uint32_t)b->cur[c], &l);
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

		if (s && ftm_vec_push(&s->segs, (uint32_t)i))
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
