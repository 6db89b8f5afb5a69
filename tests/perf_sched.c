// SPDX-License-Identifier: GPL-2.0-only
/* perf sched latency's switch count, recomputed (perf_sched.h). */
#include <stdlib.h>
#include <string.h>

#include "perf_sched.h"

/*
 * perf 6.1 (Debian 12's) handles sched_wakeup only, and its
 * sched_out_state() indexes "RSDTtZXxKWP" with the raw prev_state: since
 * kernel 4.14 a preempted task's prev_state is TASK_REPORT_MAX (0x100),
 * past the string's end, so only prev_state 0 ("R" without "+") is 'R'.
 * "perf sched: Fix sched latency analysis incorrect" (2023) made it take
 * sched_waking when recorded; evsel__taskstate() (Ze Gao, 2023) reads
 * the state from the tracepoint's format and reports a preempted task as
 * 'R'. The fixture's perf fits the last rule, perf 6.1 here the first.
 */
const struct perf_rule perf_rules[NRULES] = {
	{ "sched_wakeup; R+ sleeps (perf 6.1)", false, false },
	{ "sched_waking; R+ sleeps", true, false },
	{ "sched_waking; R+ waits (evsel__taskstate)", true, true },
};

const char *const miss_name[MISS_N] = {
	"after R+", "woken before its switch-out", "no wake-up",
	"no switch-out", "before its wake-up"
};

void perf_count_free(struct perf_count *c)
{
	ft_map_free(&c->idx);
	free(c->task);
	memset(c, 0, sizeof(*c));
}

const struct perf_task *perf_task_get(const struct perf_count *c,
				      uint32_t tid)
{
	uint32_t *i = ft_map_get(&c->idx, tid);

	return i ? &c->task[*i] : NULL;
}

/* The task's record; a new one (*isnew) has no atom yet. NULL: no memory. */
static struct perf_task *perf_task_at(struct perf_count *c, uint32_t tid,
				      bool *isnew)
{
	uint32_t *i = ft_map_put(&c->idx, tid, (uint32_t)c->n, isnew);

	if (!i)
		return NULL;
	if (*isnew) {
		if (FT_VEC_RESERVE(c->task, c->n, c->cap))
			return NULL;
		memset(&c->task[c->n], 0, sizeof(c->task[0]));
		c->task[c->n].tid = tid;
		c->n++;
	}
	return &c->task[*i];
}

static void atom(struct perf_task *p, uint8_t state, uint64_t ts)
{
	p->state = state;
	p->out_ts = ts;
	p->wake_ts = state == ATOM_WAIT_CPU ? ts : 0;
}

static void sched_in(struct perf_task *p, uint64_t ts)
{
	if (p->state != ATOM_WAIT_CPU) {
		p->missed[p->state == ATOM_SLEEPING ? p->why : MISS_NOT_OUT]++;
		return;
	}
	if (ts < p->wake_ts) {
		p->state = ATOM_IGNORE;
		p->missed[MISS_ORDER]++;
		return;
	}
	p->state = ATOM_SCHED_IN;
	p->switches++;
}

/* Counts t's switches as perf sched latency does under rule r into c
 * (initialised here). 0, or -1 when memory runs out. */
int perf_count(const struct ft_trace *t, const struct perf_rule *r,
	       struct perf_count *c)
{
	uint8_t wake_type = FT_EV_WAKEUP;

	memset(c, 0, sizeof(*c));
	ft_map_init(&c->idx);
	if (r->waking)
		for (size_t i = 0; i < t->nev; i++)
			if (t->ev[i].type == FT_EV_WAKING) {
				wake_type = FT_EV_WAKING;
				break;
			}
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];
		struct perf_task *p;
		bool isnew;

		if (e->type == FT_EV_SWITCH) {
			bool preempt = e->flags & FT_F_PREEMPT;
			bool waits = !(e->arg2 & 0xffff) &&
				     (!preempt || r->preempt_waits);

			/* perf never saw what frametrace reconstructed */
			if (e->flags & FT_F_RECONSTRUCTED)
				continue;
			if (!(p = perf_task_at(c, e->tid, &isnew)))
				goto oom;
			atom(p, waits ? ATOM_WAIT_CPU : ATOM_SLEEPING, e->ts);
			p->why = preempt ? MISS_PREEMPT
				 : p->woke_running ? MISS_EARLY : MISS_NO_WAKE;
			p->woke_running = false;
			if (!(p = perf_task_at(c, e->arg, &isnew)))
				goto oom;
			if (isnew)
				atom(p, ATOM_WAIT_CPU, e->ts);
			sched_in(p, e->ts);
		} else if (e->type == wake_type || e->type == FT_EV_WAKEUP_NEW) {
			if (!(p = perf_task_at(c, e->tid, &isnew)))
				goto oom;
			if (isnew) {
				atom(p, ATOM_SLEEPING, e->ts);
				p->why = MISS_NO_WAKE;
			}
			if (p->state != ATOM_SLEEPING) {
				if (p->state == ATOM_SCHED_IN)
					p->woke_running = true;
				continue;
			}
			if (p->out_ts > e->ts)
				continue;
			p->state = ATOM_WAIT_CPU;
			p->wake_ts = e->ts;
		} else if (e->type == FT_EV_RUNTIME) {
			if (!(p = perf_task_at(c, e->tid, &isnew)))
				goto oom;
			if (isnew)
				atom(p, ATOM_WAIT_CPU, e->ts);
		}
	}
	return 0;
oom:
	perf_count_free(c);
	return -1;
}
