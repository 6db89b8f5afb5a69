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

uint64_t ft_switch_in_time(const struct ft_switch_bounds *b,
			   bool *contradiction)
{
	uint64_t est = b->has_est ? b->est : b->lo;

	*contradiction = b->lo > b->hi;
	if (*contradiction)
		return b->hi;
	if (est < b->lo)
		est = b->lo;
	if (est > b->hi)
		est = b->hi;
	return est;
}

/* The tasks seen emitting events on one CPU since its last switch: who,
 * their first event (time and index) and their last event's time. A CPU
 * between two switches runs one task, two when a switch is missing, more
 * where a recording of one command ends (its threads exit one after the
 * other with no switch recorded between them). */
#define SEEN_MAX 16

struct seen {
	uint32_t tid[SEEN_MAX];
	uint64_t first[SEEN_MAX], last[SEEN_MAX];
	size_t first_idx[SEEN_MAX];
	int n;
};

static void seen_note(struct seen *s, uint32_t tid, uint64_t ts, size_t i)
{
	for (int k = 0; k < s->n; k++)
		if (s->tid[k] == tid) {
			s->last[k] = ts;
			return;
		}
	if (s->n == SEEN_MAX)
		return;
	s->tid[s->n] = tid;
	s->first[s->n] = s->last[s->n] = ts;
	s->first_idx[s->n] = i;
	s->n++;
}

static int seen_find(const struct seen *s, uint32_t tid)
{
	for (int k = 0; k < s->n; k++)
		if (s->tid[k] == tid)
			return k;
	return -1;
}

/* One missing switch (from -> to at ts on cpu) to insert before event
 * pos. */
static int add_synth(struct synth **sy, size_t *nsy, size_t *cap,
		     struct ft_trace *t, size_t pos, uint64_t ts, uint16_t cpu,
		     uint32_t from, uint32_t to)
{
	struct synth *s;

	if (FT_VEC_RESERVE(*sy, *nsy, *cap))
		return -1;
	s = &(*sy)[(*nsy)++];
	memset(s, 0, sizeof(*s));
	s->ev.ts = ts;
	s->ev.type = FT_EV_SWITCH;
	s->ev.flags = FT_F_RECONSTRUCTED;
	s->ev.cpu = cpu;
	s->ev.tid = from;
	s->ev.arg = to;
	s->ev.arg2 = from == 0 ? 0 : FT_STATE_UNKNOWN;
	s->pos = pos;
	if (from == 0)
		t->reconstructed++;
	else
		t->inconsistent++;
	return 0;
}

/* Where to insert a switch at est that must precede the event at hi_idx:
 * before it when est is its time (and before what else happened at that
 * instant), else after every event up to est. */
static size_t synth_pos(const struct ft_ev *ev, size_t hi_idx, uint64_t est,
			bool at_own_event)
{
	size_t pos;

	if (at_own_event && ev[hi_idx].ts == est)
		return hi_idx;
	pos = upper_bound(ev, hi_idx, est);
	return pos < hi_idx ? pos : hi_idx;
}

/* What the repair of one trace keeps: per CPU, and per task seen. */
struct repair {
	struct ft_trace *t;
	uint32_t ncpu;
	int64_t *cur;		/* the task running on each CPU, -1 unknown */
	uint32_t *prev;		/* the task its last switch took off */
	uint64_t *since;	/* when its last switch was */
	struct seen *sn;	/* who emitted events there since */
	struct ft_map idx;	/* tid -> index in ft */
	struct fix_task *ft;
	size_t nft, ftcap;
	struct synth *sy;	/* the switches to insert */
	size_t nsy, sycap;
};

/* The task's record, made on first sight; NULL when memory is short. */
static struct fix_task *repair_task(struct repair *R, uint32_t tid)
{
	bool isnew;
	uint32_t *v = ft_map_put(&R->idx, tid, (uint32_t)R->nft, &isnew);

	if (!v)
		return NULL;
	if (isnew) {
		if (FT_VEC_RESERVE(R->ft, R->nft, R->ftcap))
			return NULL;
		memset(&R->ft[R->nft], 0, sizeof(R->ft[R->nft]));
		R->nft++;
	}
	return &R->ft[*v];
}

/*
 * The switches missing on CPU c before event i (a switch whose prev is
 * out, or the end of the trace: out -1). The CPU ran cur, then each other
 * task seen emitting events there, in the order they appeared, then out.
 * Each switch-in goes where the evidence puts it (ft_switch_in_time): not
 * before the previous switch, the last event of the task before it or its
 * own wake-up; not after its own first event there (it ran from then at
 * the latest); for out, where its runtime since its last switch-out (the
 * sum_exec_runtime delta, else the sched_stat_runtime it accumulated)
 * says it started; without that, at its wake-up when that was in the
 * window (an idle CPU runs what it wakes), else at its first event
 * (nothing says it ran before). Returns -1 when memory is short.
 */
static int repair_cpu(struct repair *R, uint16_t c, size_t i, int64_t out)
{
	struct ft_trace *t = R->t;
	const struct seen *w = &R->sn[c];
	int64_t a = R->cur[c];
	uint64_t tp = R->since[c];

	for (int k = 0; k <= w->n; k++) {
		const struct ft_ev *e = k < w->n ? NULL : &t->ev[i];
		int64_t x = k < w->n ? (int64_t)w->tid[k] : out;
		struct ft_switch_bounds b = { .lo = tp };
		struct fix_task *q;
		int old = a >= 0 ? seen_find(w, (uint32_t)a) : -1;
		int own;
		size_t hix;
		bool contra, woken;

		if (x < 0 || x == a || (k < w->n && x == out))
			continue;
		q = repair_task(R, (uint32_t)x);
		if (!q)
			return -1;
		own = seen_find(w, (uint32_t)x);
		b.hi = own >= 0 ? w->first[own] : t->ev[i].ts;
		hix = own >= 0 ? w->first_idx[own] : i;
		/* a wake-up after its first event found it running */
		woken = q->last_ready > b.lo && q->last_ready <= b.hi;
		if (woken)
			b.lo = q->last_ready;
		if (old >= 0 && w->last[old] > b.lo)
			b.lo = w->last[old];
		/* no runtime and no wake-up: from its first event */
		b.est = b.hi;
		b.has_est = !woken;
		if (e && (e->flags & FT_F_SUMEXEC) && q->has_sum &&
		    e->val >= q->last_sum && e->val - q->last_sum <= e->ts) {
			b.est = e->ts - (e->val - q->last_sum);
			b.has_est = true;
		} else if (e && q->rt_acc && q->rt_acc <= e->ts) {
			b.est = e->ts - q->rt_acc;
			b.has_est = true;
		}
		b.est = ft_switch_in_time(&b, &contra);
		if (add_synth(&R->sy, &R->nsy, &R->sycap, t,
			      synth_pos(t->ev, hix, b.est, own >= 0), b.est, c,
			      (uint32_t)a, (uint32_t)x))
			return -1;
		a = x;
		tp = b.est;
	}
	return 0;
}

/* One event of the walk: what it says of its task and its CPU. */
static int repair_event(struct repair *R, size_t i)
{
	struct ft_trace *t = R->t;
	struct ft_ev *e = &t->ev[i];
	struct fix_task *p;
	uint16_t c = e->cpu;
	uint32_t who;

	switch (e->type) {
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
	case FT_EV_MIGRATE:
		p = repair_task(R, e->tid);
		if (!p)
			return -1;
		p->last_ready = e->ts;
		break;
	case FT_EV_RUNTIME:
		p = repair_task(R, e->tid);
		if (!p)
			return -1;
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
		if (R->cur[c] >= 0 && repair_cpu(R, c, i, (int64_t)e->tid))
			return -1;
		p = repair_task(R, e->tid);
		if (!p)
			return -1;
		if (e->flags & FT_F_SUMEXEC) {
			p->last_sum = e->val;
			p->has_sum = true;
		}
		p->rt_acc = 0;
		R->prev[c] = e->tid;
		R->cur[c] = e->arg;
		R->since[c] = e->ts;
		R->sn[c].n = 0;
		break;
	default:
		break;
	}
	/* an event of the task switched out at that very instant was
	 * sorted after its switch: no sign of another run */
	if (e->type != FT_EV_SWITCH && c < R->ncpu && ft_ev_emitter(e, &who) &&
	    !(e->ts == R->since[c] && who == R->prev[c] && R->cur[c] >= 0))
		seen_note(&R->sn[c], who, e->ts, i);
	return 0;
}

/* The synthesized switches merged into the events, in order. */
static int repair_merge(struct repair *R)
{
	struct ft_trace *t = R->t;
	struct ft_ev *n;
	size_t k = 0, j = 0;

	if (!R->nsy)
		return 0;
	n = malloc((t->nev + R->nsy) * sizeof(*n));
	if (!n)
		return -1;
	qsort(R->sy, R->nsy, sizeof(*R->sy), synth_cmp);
	for (size_t i = 0; i <= t->nev; i++) {
		while (j < R->nsy && R->sy[j].pos == i)
			n[k++] = R->sy[j++].ev;
		if (i < t->nev)
			n[k++] = t->ev[i];
	}
	free(t->ev);
	t->ev = n;
	t->nev = k;
	t->evcap = k;
	return 0;
}

static int repair_switches(struct ft_trace *t)
{
	struct repair R = { .t = t };
	int rc = -1;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_SWITCH && t->ev[i].cpu >= R.ncpu)
			R.ncpu = t->ev[i].cpu + 1u;
	if (!R.ncpu)
		return 0;
	ft_map_init(&R.idx);
	R.cur = malloc(R.ncpu * sizeof(*R.cur));
	R.since = calloc(R.ncpu, sizeof(*R.since));
	R.sn = calloc(R.ncpu, sizeof(*R.sn));
	R.prev = calloc(R.ncpu, sizeof(*R.prev));
	if (!R.cur || !R.since || !R.sn || !R.prev)
		goto out;
	for (uint32_t c = 0; c < R.ncpu; c++)
		R.cur[c] = -1;
	for (size_t i = 0; i < t->nev; i++)
		if (repair_event(&R, i))
			goto out;
	/* tasks seen running after the last switch of their CPU (a recording
	 * of one command ends where its tasks exit) */
	if (t->nev)
		for (uint16_t c = 0; c < R.ncpu; c++)
			if (R.cur[c] >= 0 && R.sn[c].n &&
			    repair_cpu(&R, c, t->nev - 1, (int64_t)-1))
				goto out;
	rc = repair_merge(&R);
out:
	free(R.cur);
	free(R.prev);
	free(R.since);
	free(R.sn);
	free(R.ft);
	free(R.sy);
	ft_map_free(&R.idx);
	return rc;
}

/* e's emitter is not cur, the task switched in on its CPU by sw (the
 * CPU's last switch); unknown (cur < 0) agrees. */
static bool emitter_disagrees(const struct ft_ev *e, int64_t cur,
				 const struct ft_ev *sw)
{
	uint32_t who;

	if (cur < 0 || !ft_ev_emitter(e, &who) || (int64_t)who == cur)
		return false;
	return !(e->ts == sw->ts && who == sw->tid);
}

uint64_t ft_trace_contradictions(const struct ft_trace *t)
{
	uint32_t ncpu = 0;
	int64_t *cur;
	struct ft_ev *last;
	uint64_t n = 0;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_SWITCH && t->ev[i].cpu >= ncpu)
			ncpu = t->ev[i].cpu + 1u;
	if (!ncpu)
		return 0;
	cur = malloc(ncpu * sizeof(*cur));
	last = calloc(ncpu, sizeof(*last));
	if (!cur || !last) {
		free(cur);
		free(last);
		return 0;
	}
	for (uint32_t c = 0; c < ncpu; c++)
		cur[c] = -1;
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];

		if (e->cpu >= ncpu)
			continue;
		/* the switched-out task's own event at the switch's instant,
		 * sorted after it, is no contradiction */
		if (emitter_disagrees(e, cur[e->cpu], &last[e->cpu]))
			n++;
		if (e->type == FT_EV_SWITCH) {
			cur[e->cpu] = e->arg;
			last[e->cpu] = *e;
		}
	}
	free(cur);
	free(last);
	return n;
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
	t->contradictions = ft_trace_contradictions(t);
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
