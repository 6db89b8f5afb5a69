// SPDX-License-Identifier: GPL-2.0-only
/* The finishing pass every reader runs on a fresh trace (finish.h):
 * sorting, the repair of missing sched_switch records, tgids learnt from
 * events, frames derived from markers, and the time span. */
#include "finish.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ftutil.h"
#include "marker.h"
#include "present.h"

static void merge_sort(struct ft_ev *a, struct ft_ev *tmp, size_t n)
{
	/* bottom-up, stable; runs of already sorted input are cheap */
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			if (mid >= hi || a[mid - 1].ts <= a[mid].ts) {
				continue;
			}
			while (i < mid && j < hi)
				tmp[k++] = a[j].ts < a[i].ts ? a[j++] : a[i++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
			memcpy(a + lo, tmp + lo, (hi - lo) * sizeof(*a));
		}
	}
}

static bool is_sorted(const struct ft_ev *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (a[i].ts < a[i - 1].ts)
			return false;
	return true;
}

struct fix_task {
	uint64_t last_sum;	/* sum_exec_runtime at its last switch-out */
	uint64_t rt_acc;	/* sched_stat_runtime since its last switch-out */
	uint64_t last_ready;	/* last wake-up or migration */
	bool has_sum;
};

struct synth {
	size_t pos;		/* insert before original event pos */
	struct ft_ev ev;
};

static int synth_cmp(const void *a, const void *b)
{
	const struct synth *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return 0;
}

/* Index of the first event with ts > v, searching [0, hi). */
static size_t upper_bound(const struct ft_ev *a, size_t hi, uint64_t v)
{
	size_t lo = 0;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (a[m].ts <= v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static int repair_switches(struct ft_trace *t)
{
	uint32_t ncpu = 0;
	int64_t *cur = NULL;
	uint64_t *since = NULL;
	struct ft_map idx;
	struct fix_task *ft = NULL;
	size_t nft = 0, ftcap = 0;
	struct synth *sy = NULL;
	size_t nsy = 0, sycap = 0;
	int rc = -1;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_SWITCH && t->ev[i].cpu >= ncpu)
			ncpu = t->ev[i].cpu + 1u;
	if (!ncpu)
		return 0;
	ft_map_init(&idx);
	cur = malloc(ncpu * sizeof(*cur));
	since = calloc(ncpu, sizeof(*since));
	if (!cur || !since)
		goto out;
	for (uint32_t c = 0; c < ncpu; c++)
		cur[c] = -1;

#define TASK(tid_)                                                        \
	({                                                                \
		bool isnew_;                                              \
		uint32_t *v_ = ft_map_put(&idx, (tid_), (uint32_t)nft,    \
					  &isnew_);                       \
		struct fix_task *r_ = NULL;                               \
		if (v_) {                                                 \
			if (isnew_) {                                     \
				if (FT_VEC_RESERVE(ft, nft, ftcap)) {     \
					goto out;                         \
				}                                         \
				memset(&ft[nft], 0, sizeof(ft[nft]));     \
				nft++;                                    \
			}                                                 \
			r_ = &ft[*v_];                                    \
		}                                                         \
		r_;                                                       \
	})

	for (size_t i = 0; i < t->nev; i++) {
		struct ft_ev *e = &t->ev[i];
		struct fix_task *p;
		uint16_t c = e->cpu;

		switch (e->type) {
		case FT_EV_WAKING:
		case FT_EV_WAKEUP:
		case FT_EV_WAKEUP_NEW:
		case FT_EV_MIGRATE:
			p = TASK(e->tid);
			if (!p)
				goto out;
			p->last_ready = e->ts;
			break;
		case FT_EV_RUNTIME:
			p = TASK(e->tid);
			if (!p)
				goto out;
			p->rt_acc += e->val;
			break;
		case FT_EV_SWITCH:
			if (e->flags & FT_F_RECONSTRUCTED) {
				/* repaired by an earlier reader */
				if (e->tid == 0)
					t->reconstructed++;
				else
					t->inconsistent++;
			}
			p = TASK(e->tid);
			if (!p)
				goto out;
			if (cur[c] >= 0 && cur[c] != (int64_t)e->tid) {
				struct synth *s;
				uint64_t lo = since[c], est;

				if (p->last_ready > lo && p->last_ready <= e->ts)
					lo = p->last_ready;
				if ((e->flags & FT_F_SUMEXEC) && p->has_sum &&
				    e->val >= p->last_sum &&
				    e->val - p->last_sum <= e->ts)
					est = e->ts - (e->val - p->last_sum);
				else if (p->rt_acc && p->rt_acc <= e->ts)
					est = e->ts - p->rt_acc;
				else
					est = lo;
				if (est < lo)
					est = lo;
				if (est > e->ts)
					est = e->ts;
				if (FT_VEC_RESERVE(sy, nsy, sycap))
					goto out;
				s = &sy[nsy++];
				memset(s, 0, sizeof(*s));
				s->ev.ts = est;
				s->ev.type = FT_EV_SWITCH;
				s->ev.flags = FT_F_RECONSTRUCTED;
				s->ev.cpu = c;
				s->ev.tid = (uint32_t)cur[c];
				s->ev.arg = e->tid;
				s->ev.arg2 = cur[c] == 0 ? 0 : FT_STATE_UNKNOWN;
				s->pos = upper_bound(t->ev, i, est);
				if (cur[c] == 0)
					t->reconstructed++;
				else
					t->inconsistent++;
			}
			if (e->flags & FT_F_SUMEXEC) {
				p->last_sum = e->val;
				p->has_sum = true;
			}
			p->rt_acc = 0;
			cur[c] = e->arg;
			since[c] = e->ts;
			break;
		default:
			break;
		}
	}
#undef TASK

	if (nsy) {
		struct ft_ev *n = malloc((t->nev + nsy) * sizeof(*n));
		size_t k = 0, j = 0;

		if (!n)
			goto out;
		qsort(sy, nsy, sizeof(*sy), synth_cmp);
		for (size_t i = 0; i <= t->nev; i++) {
			while (j < nsy && sy[j].pos == i)
				n[k++] = sy[j++].ev;
			if (i < t->nev)
				n[k++] = t->ev[i];
		}
		free(t->ev);
		t->ev = n;
		t->nev = k;
		t->evcap = k;
	}
	rc = 0;
out:
	free(cur);
	free(since);
	free(ft);
	free(sy);
	ft_map_free(&idx);
	return rc;
}

static void learn_tgids(struct ft_trace *t)
{
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];
		uint32_t a = 0, ap = 0, b = 0, bp = 0;

		switch (e->type) {
		case FT_EV_WAKING:
		case FT_EV_WAKEUP:
		case FT_EV_WAKEUP_NEW:
			a = e->tid;
			ap = (uint32_t)e->val;
			if (!(e->flags & FT_F_IRQ)) {
				b = e->arg;
				bp = (uint32_t)(e->val >> 32);
			}
			break;
		case FT_EV_FORK:
			a = e->tid;
			ap = e->arg2;
			b = e->arg;
			bp = (uint32_t)e->val;
			break;
		case FT_EV_MIGRATE:
			a = e->tid;
			ap = (uint32_t)e->val;
			break;
		case FT_EV_EXIT:
		case FT_EV_PRESENT:
			a = e->tid;
			ap = e->arg;
			break;
		default:
			continue;
		}
		if (a && ap && !ft_task_pid(t, a))
			ft_task_set(t, a, ap, NULL);
		if (b && bp && !ft_task_pid(t, b))
			ft_task_set(t, b, bp, NULL);
	}
}

int ft_trace_finish(struct ft_trace *t)
{
	if (!is_sorted(t->ev, t->nev)) {
		struct ft_ev *tmp = malloc(t->nev * sizeof(*tmp));

		if (!tmp)
			return -1;
		merge_sort(t->ev, tmp, t->nev);
		free(tmp);
	}
	t->reconstructed = 0;
	t->inconsistent = 0;
	if (repair_switches(t))
		return -1;
	learn_tgids(t);
	if (!t->nframes && ft_frames_from_marks(t) < 0)
		return -1;
	/* present calls only when nothing names frames more precisely (the
	 * feed and markers also know where a frame starts) */
	if (!t->nframes && ft_frames_from_presents(t) < 0)
		return -1;
	ft_frames_fix(t);
	ft_frames_annotate_tids(t);
	if (t->nev) {
		if (!t->start_ns || t->start_ns > t->ev[0].ts)
			t->start_ns = t->ev[0].ts;
		if (t->end_ns < t->ev[t->nev - 1].ts)
			t->end_ns = t->ev[t->nev - 1].ts;
	}
	for (size_t i = 0; i < t->nframes; i++) {
		const struct ft_frame *f = &t->frames[i];
		uint64_t s = f->start_ns ? f->start_ns : f->present_ns;

		if (!t->start_ns || s < t->start_ns)
			t->start_ns = s;
		if (f->present_ns > t->end_ns)
			t->end_ns = f->present_ns;
	}
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].cpu >= t->ncpus && t->ev[i].cpu < FT_CPU_LIMIT)
			t->ncpus = t->ev[i].cpu + 1u;
	t->finished = true;
	return 0;
}
