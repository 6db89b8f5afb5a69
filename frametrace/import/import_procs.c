// SPDX-License-Identifier: GPL-2.0-only
/*
 * The processes of a text trace that names threads only: perf script's
 * default fields print a tid and no pid, ftrace prints no tgid unless
 * asked. Without this every task had pid 0 and a frame's process was its
 * presenter's tid, so `profile` found no scheduling events of "its"
 * process. What the text still says, surest first:
 *  - task:task_newtask's clone_flags: CLONE_THREAD or not;
 *  - sched_process_exec: the task leads a process from then on;
 *  - a child of kthreadd (tid 2) is a kernel thread, a process of its own;
 *  - an atrace marker's tgid, a process id: its task leads that process;
 *  - sched_process_exit's group_dead: the last thread of a process is
 *    gone, so a task assumed to be in the same process that runs later
 *    is not (framebench's helper processes are found that way);
 *  - any other fork is taken to make a thread of the parent's process
 *    (what games do most), and a task whose creation the text lacks leads
 *    a process of its own.
 * What was assumed goes into the meta key "processes", which the commands
 * print as a warning and the report shows.
 */
#include "importer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ftutil.h"
#include "trace/trace.h"

/* How a task came to be: its edge to the parent that forked it. */
enum { EDGE_NONE, EDGE_THREAD, EDGE_PROC, EDGE_ASSUMED, EDGE_FLIPPED };

struct node {
	size_t parent;		/* index + 1; 0 no fork seen */
	uint8_t edge;
	bool leader;		/* exec, marker tgid: leads a process */
	bool group_dead;	/* its exit ended its process */
	uint64_t last_ts;	/* last event that shows it alive */
	uint64_t exit_ts;
	uint32_t pid;		/* resolved */
};

struct infer {
	struct ft_trace *t;
	struct node *n;
	uint32_t *stamp;	/* LCA marks, one generation per question */
	uint32_t gen;
};

static size_t idx_of(const struct ft_trace *t, uint32_t tid)
{
	const struct ft_task_rec *r = tid ? ft_task_get(t, tid) : NULL;

	return r ? (size_t)(r - t->tasks) + 1 : 0;
}

static bool in_group(const struct node *x)
{
	return x->parent && !x->leader && x->edge != EDGE_PROC &&
	       x->edge != EDGE_FLIPPED;
}

static uint32_t resolve(struct infer *in, size_t i)
{
	const struct ft_task_rec *r = &in->t->tasks[i];
	size_t cur = i;

	if (r->pid)
		return r->pid;
	/* up the thread edges to the task that leads them; a depth bound
	 * for a reused tid that made a loop */
	for (int depth = 0; depth < 256 && in_group(&in->n[cur]); depth++) {
		size_t p = in->n[cur].parent - 1;

		if (in->t->tasks[p].pid)
			return in->t->tasks[p].pid;
		cur = p;
	}
	return in->t->tasks[cur].tid;
}

static void resolve_all(struct infer *in)
{
	for (size_t i = 0; i < in->t->ntasks; i++)
		in->n[i].pid = resolve(in, i);
}

/* The highest assumed edge on the way up from x to (not including) stop:
 * index + 1, or 0. */
static size_t highest_assumed(const struct infer *in, size_t x, size_t stop)
{
	size_t best = 0;

	for (int depth = 0; depth < 256 && x != stop && in_group(&in->n[x]);
	     depth++) {
		if (in->n[x].edge == EDGE_ASSUMED)
			best = x + 1;
		x = in->n[x].parent - 1;
	}
	return best;
}

/* x ended its process (group_dead) before y, taken to be in the same
 * process, ran: an assumed thread edge between them made a process. The
 * one nearest to where their lines of descent meet is flipped: the
 * helper process that framebench or a launcher forked, not a thread it
 * started later. */
static bool flip_between(struct infer *in, size_t x, size_t y)
{
	size_t c = x, lca = SIZE_MAX, e;

	if (++in->gen == 0)
		in->gen = 1;
	for (int d = 0; d < 256; d++) {
		in->stamp[c] = in->gen;
		if (!in_group(&in->n[c]))
			break;
		c = in->n[c].parent - 1;
	}
	c = y;
	for (int d = 0; d < 256; d++) {
		if (in->stamp[c] == in->gen) {
			lca = c;
			break;
		}
		if (!in_group(&in->n[c]))
			break;
		c = in->n[c].parent - 1;
	}
	if (lca == SIZE_MAX)
		return false;
	e = lca != x ? highest_assumed(in, x, lca) : highest_assumed(in, y, x);
	if (!e)
		return false;
	in->n[e - 1].edge = EDGE_FLIPPED;
	return true;
}

/* The group_dead rule once: true when an edge was flipped (the pids are
 * then resolved again before the next question). */
static bool group_exit(struct infer *in)
{
	for (size_t i = 0; i < in->t->ntasks; i++) {
		if (!in->n[i].group_dead)
			continue;
		for (size_t j = 0; j < in->t->ntasks; j++)
			if (j != i && in->n[j].pid == in->n[i].pid &&
			    in->n[j].last_ts > in->n[i].exit_ts &&
			    !in->t->tasks[j].pid && flip_between(in, i, j))
				return true;
	}
	return false;
}

static void seen(struct infer *in, uint32_t tid, uint64_t ts)
{
	size_t i = idx_of(in->t, tid);

	if (i && in->n[i - 1].last_ts < ts)
		in->n[i - 1].last_ts = ts;
}

static void read_events(struct infer *in)
{
	struct ft_trace *t = in->t;

	for (size_t k = 0; k < t->nev; k++) {
		const struct ft_ev *e = &t->ev[k];
		size_t c, p;

		seen(in, e->tid, e->ts);
		if (e->type == FT_EV_SWITCH)
			seen(in, e->arg, e->ts);
		if ((e->type == FT_EV_WAKING || e->type == FT_EV_WAKEUP) &&
		    !(e->flags & FT_F_IRQ))
			seen(in, e->arg, e->ts);
		if (e->type == FT_EV_FORK) {
			c = idx_of(t, e->tid);
			p = idx_of(t, e->arg);
			/* the first fork of a tid: a later one reuses it */
			if (c && p && c != p && !in->n[c - 1].parent) {
				in->n[c - 1].parent = p;
				in->n[c - 1].edge = e->arg == 2 ? EDGE_PROC
							       : EDGE_ASSUMED;
			}
		} else if (e->type == FT_EV_EXIT) {
			c = idx_of(t, e->tid);
			if (c)
				in->n[c - 1].exit_ts = e->ts;
		} else if (e->type == FT_EV_MARK && e->arg) {
			c = idx_of(t, e->arg);
			if (c)
				in->n[c - 1].leader = true;
		}
	}
}

static void read_hints(struct infer *in, const struct ft_map *hint)
{
	for (size_t i = 0; i < in->t->ntasks; i++) {
		const uint32_t *h = ft_map_get(hint, in->t->tasks[i].tid);
		struct node *x = &in->n[i];

		if (!h)
			continue;
		if (*h & FT_HINT_LEADER)
			x->leader = true;
		if (*h & FT_HINT_GROUP_DEAD)
			x->group_dead = true;
		if (x->parent && (*h & FT_HINT_PROCESS))
			x->edge = EDGE_PROC;
		else if (x->parent && (*h & FT_HINT_THREAD))
			x->edge = EDGE_THREAD;
	}
}

/* Appends ", N what" when n is not 0. */
static void part(char *buf, size_t len, uint64_t n, const char *what)
{
	size_t o = strlen(buf);

	if (n && o < len)
		snprintf(buf + o, len - o, "%s%" PRIu64 " %s", o ? ", " : "", n,
			 what);
}

static void note(struct infer *in, const struct ft_import *im, size_t unknown)
{
	uint64_t known = 0, assumed = 0, flipped = 0, own = 0;
	char parts[400] = "";

	for (size_t i = 0; i < in->t->ntasks; i++) {
		const struct node *x = &in->n[i];

		if (in->t->tasks[i].pid || !in->t->tasks[i].tid)
			continue;
		if (x->edge == EDGE_ASSUMED && !x->leader)
			assumed++;
		else if (x->edge == EDGE_FLIPPED && !x->leader)
			flipped++;
		else if (x->parent || x->leader)
			known++;
		else
			own++;
	}
	part(parts, sizeof(parts), known, "as the text says (exec, "
	     "task_newtask, kthreadd, a marker's tgid)");
	part(parts, sizeof(parts), assumed, "forked: taken as threads of "
	     "their parent's process");
	part(parts, sizeof(parts), flipped, "forked: processes, since "
	     "their group exited before their parent's");
	part(parts, sizeof(parts), own, "not forked in the text: taken as "
	     "processes of their own");
	ft_meta_set(in->t, "processes",
		    "%s without a %s column: the processes of %zu tasks "
		    "inferred: %s (%s)",
		    ft_fmt_name(im->fmt), im->fmt == FT_FMT_PERF ? "pid" : "tgid",
		    unknown, parts,
		    im->fmt == FT_FMT_PERF
			    ? "perf script -F comm,pid,tid,cpu,time,event,trace "
			      "keeps the pids"
			    : "tracefs options/record-tgid keeps the tgids");
}

int ft_import_infer_procs(struct ft_import *im)
{
	struct infer in = { .t = im->t };
	size_t unknown = 0;

	for (size_t i = 0; i < in.t->ntasks; i++)
		unknown += in.t->tasks[i].tid && !in.t->tasks[i].pid;
	if (!unknown)
		return 0;
	in.n = calloc(in.t->ntasks, sizeof(*in.n));
	in.stamp = calloc(in.t->ntasks, sizeof(*in.stamp));
	if (!in.n || !in.stamp) {
		free(in.n);
		free(in.stamp);
		return -1;
	}
	read_events(&in);
	read_hints(&in, &im->hint);
	resolve_all(&in);
	/* one edge at a time; bounded for a trace whose exits contradict
	 * each other */
	for (int flips = 0; flips < 256 && group_exit(&in); flips++)
		resolve_all(&in);
	note(&in, im, unknown);
	for (size_t i = 0; i < in.t->ntasks; i++) {
		struct ft_task_rec *r = &in.t->tasks[i];

		if (r->tid && !r->pid)
			r->pid = in.n[i].pid;
		if (r->tid == 2 || (in.n[i].parent &&
				    in.t->tasks[in.n[i].parent - 1].tid == 2))
			r->flags |= FT_TASK_KTHREAD;
	}
	free(in.n);
	free(in.stamp);
	return 0;
}
