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

static int repair_switches(struct ft_trace *t)
{
	uint32_t ncpu = 0;
	int64_t *cur = NULL;
	uint32_t *prev = NULL;
	uint64_t *since = NULL;
	struct seen *sn = NULL;
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
	sn = calloc(ncpu, sizeof(*sn));
	prev = calloc(ncpu, sizeof(*prev));
	if (!cur || !since || !sn || !prev)
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
		if (!r_)                                                  \
			goto out;                                         \
		r_;                                                       \
	})

	/*
	 * The switches missing on CPU c_ before event i_ (a switch whose prev
	 * is out_, or the end of the trace: out_ -1). The CPU ran cur, then
	 * each other task seen emitting events there, in the order they
	 * appeared, then out_. Each switch-in goes where the evidence puts
	 * it (ft_switch_in_time): not before the previous switch, the last
	 * event of the task before it or its own wake-up; not after its
	 * own first event there (it ran from then at the latest); for out_,
	 * where its runtime since its last switch-out (the sum_exec_runtime
	 * delta, else the sched_stat_runtime it accumulated) says it started;
	 * without that, at its wake-up when that was in the window (an idle
	 * CPU runs what it wakes), else at its first event (nothing says it
	 * ran before).
	 */
#define REPAIR(c_, i_, out_)                                                   \
	do {                                                                   \
		const struct seen *w_ = &sn[c_];                               \
		int64_t a_ = cur[c_];                                          \
		uint64_t tp_ = since[c_];                                      \
		for (int k_ = 0; k_ <= w_->n; k_++) {                          \
			const struct ft_ev *e_ = k_ < w_->n ? NULL : &t->ev[i_]; \
			int64_t x_ = k_ < w_->n ? (int64_t)w_->tid[k_] : (out_); \
			struct ft_switch_bounds b_ = { .lo = tp_ };            \
			struct fix_task *q_;                                   \
			int old_ = a_ >= 0 ? seen_find(w_, (uint32_t)a_) : -1; \
			int own_;                                              \
			size_t hix_;                                           \
			bool contra_, woken_;                                  \
			if (x_ < 0 || x_ == a_ || (k_ < w_->n && x_ == (out_))) \
				continue;                                      \
			q_ = TASK((uint32_t)x_);                               \
			own_ = seen_find(w_, (uint32_t)x_);                    \
			b_.hi = own_ >= 0 ? w_->first[own_] : t->ev[i_].ts;    \
			hix_ = own_ >= 0 ? w_->first_idx[own_] : (i_);         \
			/* a wake-up after its first event found it running */ \
			woken_ = q_->last_ready > b_.lo &&                     \
				 q_->last_ready <= b_.hi;                      \
			if (woken_)                                            \
				b_.lo = q_->last_ready;                        \
			if (old_ >= 0 && w_->last[old_] > b_.lo)               \
				b_.lo = w_->last[old_];                        \
			/* no runtime and no wake-up: from its first event */  \
			b_.est = b_.hi;                                        \
			b_.has_est = !woken_;                                  \
			if (e_ && (e_->flags & FT_F_SUMEXEC) && q_->has_sum && \
			    e_->val >= q_->last_sum &&                         \
			    e_->val - q_->last_sum <= e_->ts) {                \
				b_.est = e_->ts - (e_->val - q_->last_sum);    \
				b_.has_est = true;                             \
			} else if (e_ && q_->rt_acc && q_->rt_acc <= e_->ts) { \
				b_.est = e_->ts - q_->rt_acc;                  \
				b_.has_est = true;                             \
			}                                                      \
			b_.est = ft_switch_in_time(&b_, &contra_);             \
			if (add_synth(&sy, &nsy, &sycap, t,                    \
				      synth_pos(t->ev, hix_, b_.est, own_ >= 0), \
				      b_.est, (c_), (uint32_t)a_, (uint32_t)x_)) \
				goto out;                                      \
			a_ = x_;                                               \
			tp_ = b_.est;                                          \
		}                                                              \
	} while (0)

	for (size_t i = 0; i < t->nev; i++) {
		struct ft_ev *e = &t->ev[i];
		struct fix_task *p;
		uint16_t c = e->cpu;
		uint32_t who;

		switch (e->type) {
		case FT_EV_WAKING:
		case FT_EV_WAKEUP:
		case FT_EV_WAKEUP_NEW:
		case FT_EV_MIGRATE:
			p = TASK(e->tid);
			p->last_ready = e->ts;
			break;
		case FT_EV_RUNTIME:
			p = TASK(e->tid);
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
			if (cur[c] >= 0)
				REPAIR(c, i, (int64_t)e->tid);
			p = TASK(e->tid);
			if (e->flags & FT_F_SUMEXEC) {
				p->last_sum = e->val;
				p->has_sum = true;
			}
			p->rt_acc = 0;
			prev[c] = e->tid;
			cur[c] = e->arg;
			since[c] = e->ts;
			sn[c].n = 0;
			break;
		default:
			break;
		}
		/* an event of the task switched out at that very instant was
		 * sorted after its switch: no sign of another run */
		if (e->type != FT_EV_SWITCH && c < ncpu && ft_ev_emitter(e, &who) &&
		    !(e->ts == since[c] && who == prev[c] && cur[c] >= 0))
			seen_note(&sn[c], who, e->ts, i);
	}
	/* tasks seen running after the last switch of their CPU (a recording
	 * of one command ends where its tasks exit) */
	if (t->nev)
		for (uint16_t c = 0; c < ncpu; c++)
			if (cur[c] >= 0 && sn[c].n)
				REPAIR(c, t->nev - 1, (int64_t)-1);
#undef REPAIR
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
	free(prev);
	free(since);
	free(sn);
	free(ft);
	free(sy);
	ft_map_free(&idx);
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
