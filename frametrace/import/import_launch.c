// SPDX-License-Identifier: GPL-2.0-only
/*
 * Launchers in a text trace without pids (import_procs.c asks). A game is
 * almost never forked by itself: timeout, a shell script, Steam's reaper
 * or wine's start chain forks it, and perf's default text (perf sched
 * record has no sched_process_exec) shows only the forks. Taking every
 * fork for a thread put the game in its launcher's process, named after
 * the launcher. What tells an exec here: the child's name changes after
 * the fork (perf names each line's task as it was then), the parent
 * sleeps while the child and what it forks run (a launcher waits for its
 * game; a game's main thread that starts a named thread runs on), and the
 * child is the parent's only one alive (a program that names its threads
 * and waits for them, as framebench does, starts several at once). A
 * renamed thread whose creator runs on stays a thread: the presenter's
 * note then says the chain cannot be told apart.
 */
#include "importer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

/* A launcher's CPU after the fork is under 1/20 of what it started, and
 * what it started ran 1 ms at least (a helper that ran less says
 * nothing either way). */
#define QUIET_SHARE 20
#define STARTED_MIN_NS 1000000ull

struct oncpu {
	uint32_t tid;
	uint64_t since;
	bool known;
};

struct launch {
	const struct ft_trace *t;
	const size_t *parent;	/* index + 1, 0 none */
	uint64_t *run;		/* CPU time from the switches */
	uint64_t *before;	/* the parent's CPU time up to the fork */
	uint64_t *sub;		/* CPU time of the task and its descendants */
	uint64_t *born, *last;	/* its fork; the last event that shows it */
	bool *forked;
};

static size_t idx_of(const struct ft_trace *t, uint32_t tid)
{
	const struct ft_task_rec *r = tid ? ft_task_get(t, tid) : NULL;

	return r ? (size_t)(r - t->tasks) + 1 : 0;
}

static void on_switch(struct launch *l, struct oncpu *c, const struct ft_ev *e)
{
	size_t p = idx_of(l->t, e->tid);

	if (c->known && c->tid == e->tid && p && e->ts > c->since)
		l->run[p - 1] += e->ts - c->since;
	c->tid = e->arg;
	c->since = e->ts;
	c->known = true;
}

static void on_fork(struct launch *l, const struct oncpu *c,
		    const struct ft_ev *e)
{
	size_t ch = idx_of(l->t, e->tid), p = idx_of(l->t, e->arg);

	if (!ch || !p || l->parent[ch - 1] != p || l->forked[ch - 1])
		return;
	l->forked[ch - 1] = true;
	l->born[ch - 1] = e->ts;
	l->before[ch - 1] = l->run[p - 1];
	/* the parent runs while it forks */
	if (c->known && c->tid == e->arg && e->ts > c->since)
		l->before[ch - 1] += e->ts - c->since;
}

static void seen(struct launch *l, uint32_t tid, uint64_t ts)
{
	size_t i = idx_of(l->t, tid);

	if (i && l->last[i - 1] < ts)
		l->last[i - 1] = ts;
}

static void run_times(struct launch *l, struct oncpu *cpu)
{
	for (size_t k = 0; k < l->t->nev; k++) {
		const struct ft_ev *e = &l->t->ev[k];

		seen(l, e->tid, e->ts);
		if (e->type == FT_EV_SWITCH)
			seen(l, e->arg, e->ts);
		if (e->cpu >= FT_CPU_LIMIT)
			continue;
		if (e->type == FT_EV_SWITCH)
			on_switch(l, &cpu[e->cpu], e);
		else if (e->type == FT_EV_FORK)
			on_fork(l, &cpu[e->cpu], e);
	}
	/* each task's time counts for it and every ancestor */
	for (size_t i = 0; i < l->t->ntasks; i++) {
		size_t c = i;

		for (int d = 0; d < 256; d++) {
			l->sub[c] += l->run[i];
			if (!l->parent[c] || l->parent[c] - 1 == i)
				break;
			c = l->parent[c] - 1;
		}
	}
}

static bool renamed(const struct ft_map *hint, uint32_t tid)
{
	const uint32_t *h = ft_map_get(hint, tid);

	return h && (*h & FT_HINT_RENAMED);
}

/* Another child of i's parent alive beside i. */
static bool sibling_beside(const struct launch *l, size_t i)
{
	for (size_t j = 0; j < l->t->ntasks; j++)
		if (j != i && l->parent[j] == l->parent[i] && l->forked[j] &&
		    l->born[j] <= l->last[i] && l->last[j] >= l->born[i])
			return true;
	return false;
}

/* What i's fork and rename say: see the top. */
static uint8_t verdict(const struct launch *l, const struct ft_map *hint,
		       size_t i)
{
	size_t p = l->parent[i];
	uint64_t after;

	if (!p || !l->forked[i] || !renamed(hint, l->t->tasks[i].tid))
		return FT_LAUNCH_NONE;
	if (l->sub[i] < STARTED_MIN_NS)
		return FT_LAUNCH_LITTLE;
	after = l->run[p - 1] > l->before[i] ? l->run[p - 1] - l->before[i]
					     : 0;
	if (after * QUIET_SHARE >= l->sub[i])
		return FT_LAUNCH_RAN_ON;
	return sibling_beside(l, i) ? FT_LAUNCH_SIBLINGS : FT_LAUNCH_EXEC;
}

int ft_launch_verdicts(const struct ft_trace *t, const struct ft_map *hint,
		       const size_t *parent, uint8_t *out)
{
	size_t n = t->ntasks;
	struct launch l = { .t = t, .parent = parent };
	struct oncpu *cpu = calloc(FT_CPU_LIMIT, sizeof(*cpu));
	int rc = -1;

	l.run = calloc(n ? n : 1, sizeof(*l.run));
	l.before = calloc(n ? n : 1, sizeof(*l.before));
	l.sub = calloc(n ? n : 1, sizeof(*l.sub));
	l.born = calloc(n ? n : 1, sizeof(*l.born));
	l.last = calloc(n ? n : 1, sizeof(*l.last));
	l.forked = calloc(n ? n : 1, sizeof(*l.forked));
	if (cpu && l.run && l.before && l.sub && l.born && l.last && l.forked) {
		run_times(&l, cpu);
		for (size_t i = 0; i < n; i++)
			out[i] = verdict(&l, hint, i);
		rc = 0;
	}
	free(cpu);
	free(l.run);
	free(l.before);
	free(l.sub);
	free(l.born);
	free(l.last);
	free(l.forked);
	return rc;
}

/* The task with the most present calls and markers: the frames'
 * presenter; index + 1, or 0. */
static size_t presenter(const struct ft_trace *t)
{
	uint32_t *calls = calloc(t->ntasks ? t->ntasks : 1, sizeof(*calls));
	size_t best = 0;

	if (!calls)
		return 0;
	for (size_t k = 0; k < t->nev; k++) {
		const struct ft_ev *e = &t->ev[k];
		size_t i;

		if (e->type != FT_EV_PRESENT && e->type != FT_EV_MARK)
			continue;
		i = idx_of(t, e->tid);
		if (i && ++calls[i - 1] > (best ? calls[best - 1] : 0))
			best = i;
	}
	free(calls);
	return best;
}

static const char *why_text(uint8_t why)
{
	switch (why) {
	case FT_WHY_TEXT:
		return "as the text says";
	case FT_WHY_GROUP_EXIT:
		return "its group exited before its parent's";
	default:
		return "not forked in the text";
	}
}

/* The renamed task nearest the presenter on its way up the assumed
 * thread edges to the process's leader: index + 1, or 0. */
static size_t renamed_on_way(const uint8_t *verdict, const size_t *parent,
			     const uint8_t *why, size_t pr, size_t lead)
{
	size_t c = pr - 1;

	for (int d = 0; d < 256 && c + 1 != lead && parent[c] &&
			why[c] == FT_WHY_ASSUMED; d++) {
		if (verdict[c] != FT_LAUNCH_NONE)
			return c + 1;
		c = parent[c] - 1;
	}
	return 0;
}

static const char *unclear_text(uint8_t verdict)
{
	switch (verdict) {
	case FT_LAUNCH_RAN_ON:
		return "its parent ran on beside it, as a game's main thread "
		       "does";
	default:
		return "it ran too little to tell";
	}
}

void ft_launch_note(const struct ft_trace *t, const uint8_t *verdict,
		    const size_t *parent, const uint8_t *why,
		    const uint32_t *pid, char *buf, size_t len)
{
	size_t pr = presenter(t), lead, c;
	const struct ft_task_rec *r, *up;

	buf[0] = '\0';
	if (!pr)
		return;
	r = &t->tasks[pr - 1];
	lead = idx_of(t, pid[pr - 1]);
	c = renamed_on_way(verdict, parent, why, pr, lead);
	if (c && verdict[c - 1] == FT_LAUNCH_SIBLINGS) {
		snprintf(buf, len, "; the frames' presenter %s (tid %" PRIu32
			 ") is in process %s (%" PRIu32 "): %s (tid %" PRIu32
			 ") was renamed after its fork, beside other children "
			 "alive at once: a program's named threads", r->comm,
			 r->tid, ft_task_comm(t, pid[pr - 1]), pid[pr - 1],
			 t->tasks[c - 1].comm, t->tasks[c - 1].tid);
		return;
	}
	if (c) {
		/* a launched program or a named thread: the text cannot say */
		snprintf(buf, len, "; the launcher chain cannot be told apart: "
			 "the frames' presenter %s (tid %" PRIu32 ") is taken "
			 "as a thread of %s (%" PRIu32 "); %s (tid %" PRIu32
			 ") was renamed after its fork, but %s", r->comm,
			 r->tid, ft_task_comm(t, pid[pr - 1]), pid[pr - 1],
			 t->tasks[c - 1].comm, t->tasks[c - 1].tid,
			 unclear_text(verdict[c - 1]));
		return;
	}
	if (lead && why[lead - 1] == FT_WHY_LAUNCHED && parent[lead - 1]) {
		up = &t->tasks[parent[lead - 1] - 1];
		snprintf(buf, len, "; the frames' presenter %s (tid %" PRIu32
			 ") is in process %s (%" PRIu32 "): renamed after %s "
			 "(%" PRIu32 ") forked it, its only child, and slept: "
			 "an exec by a launcher", r->comm, r->tid,
			 ft_task_comm(t, pid[pr - 1]), pid[pr - 1], up->comm,
			 up->tid);
		return;
	}
	snprintf(buf, len, "; the frames' presenter %s (tid %" PRIu32 ") is "
		 "in process %s (%" PRIu32 "): %s", r->comm, r->tid,
		 ft_task_comm(t, pid[pr - 1]), pid[pr - 1],
		 why_text(lead ? why[lead - 1] : FT_WHY_OWN));
}
