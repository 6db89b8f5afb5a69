// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace profile -o OUT.profile TRACE: the analysis (pipeline.h)
 * written as a framebench profile, each number with a comment saying
 * where it came from. framebench's own parser checks the text before it
 * is written; the file appears whole or not at all (temporary + rename).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/import.h"
#include "analysis/model.h"
#include "trace/present.h"
#include "fbprofile.h"		/* the workload profile parser (lib/) */
#include "pipeline.h"
#include "profile_write.h"
#include "util.h"
#include "version.h"

struct buf {
	char *s;
	size_t n, cap;
	bool oom;
};

static void out(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || ft_grow((void **)&b->s, &b->cap, b->n + (size_t)n + 1, 1)) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

static const char *us(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
	return buf;
}

/* "p10 1.2 us p50 3.4 us p90 5.6 us" of a sample */
static const char *pcts(char *buf, size_t len, const struct ft_pf_sum *s)
{
	char a[24], b[24], c[24];

	snprintf(buf, len, "p10 %s, p50 %s, p90 %s", us(a, sizeof(a), s->p10),
		 us(b, sizeof(b), s->p50), us(c, sizeof(c), s->p90));
	return buf;
}

static const char *dist(char *buf, size_t len, const struct ft_pf_dist *d)
{
	ft_pf_dist_text(d, buf, len);
	return buf;
}

static const char *frame_source(const struct ft_pr_analysis *a)
{
	const struct ft_frame *f = &a->t->frames[a->fidx[0]];

	return f->flags & FT_FRAME_FEED	      ? "framebench's feed"
	       : f->flags & FT_FRAME_MARKER   ? "trace markers"
	       : f->flags & FT_FRAME_MANGOHUD ? "a MangoHud log"
	       : f->flags & FT_FRAME_PRESENT  ? "present calls"
					      : "the trace";
}

/* Whether step j of st (an asynchronous fan-out) has its join later in
 * the same activation, or (a join) follows the fan-out it joins: a
 * stage has at most one of each. */
static bool joined_in_activation(const struct ft_pr_stage *st, unsigned j)
{
	unsigned fan = st->nsteps, join = st->nsteps;

	for (unsigned i = 0; i < st->nsteps; i++) {
		if (st->step[i].async)
			fan = i;
		if (st->step[i].kind == PR_JOIN)
			join = i;
	}
	return (j == fan || j == join) && fan < join && join < st->nsteps;
}

/* "\"NAME\"" when framebench can name a thread or process so, else "". */
static const char *quote(const char *c, char *buf, size_t len)
{
	if (strlen(c) <= 15 && !strchr(c, '"') && !strchr(c, '%'))
		snprintf(buf, len, "\"%s\"", c);
	else
		buf[0] = '\0';
	return buf;
}

/* A name framebench can give a thread or process (1-15 printable
 * characters, no '%'; no '"', which quotes it). */
static bool comm_ok(const char *c)
{
	size_t n = strlen(c);

	if (!n || n > 15)
		return false;
	for (; *c; c++)
		if (*c < 0x20 || *c > 0x7e || *c == '%' || *c == '"')
			return false;
	return true;
}

/* " thread=\"COMM\"" for tid's name, so the replay's thread is called as
 * the original; "" when framebench cannot name it so. */
static const char *thread_opt(const struct ft_pr_analysis *a, uint32_t tid,
			      char *buf, size_t len)
{
	const char *c = ft_task_comm(a->t, tid);

	if (comm_ok(c))
		snprintf(buf, len, " thread=\"%s\"", c);
	else
		buf[0] = '\0';
	return buf;
}

/* The pool threads' names as framebench's workers thread=FORMAT: one
 * name for all, or a name and the index; "" when neither fits. */
static const char *worker_opt(const struct ft_pr_analysis *a, char *buf, size_t len)
{
	const char *c0 = ft_task_comm(a->t, a->pool[0]);
	char stem[16], fmt[32], widest[40];
	bool same = true, indexed = true;
	size_t sn;

	/* the name before its number, separator kept: "worker-" */
	gs_strlcpy(stem, c0, sizeof(stem));
	sn = strlen(stem);
	while (sn && stem[sn - 1] >= '0' && stem[sn - 1] <= '9')
		stem[--sn] = '\0';
	for (unsigned p = 0; p < a->npool; p++) {
		const char *c = ft_task_comm(a->t, a->pool[p]);
		size_t n = strlen(stem);

		same &= !strcmp(c, c0);
		indexed &= !strncmp(c, stem, n) && c[n] >= '0' && c[n] <= '9' &&
			   strspn(c + n, "0123456789") == strlen(c + n);
	}
	buf[0] = '\0';
	if (same && comm_ok(c0)) {
		snprintf(buf, len, " thread=\"%s\"", c0);
	} else if (indexed && comm_ok(stem)) {
		snprintf(fmt, sizeof(fmt), "%s%%d", stem);
		snprintf(widest, sizeof(widest), "%s%u", stem, a->npool - 1);
		if (strlen(widest) <= 15)
			snprintf(buf, len, " thread=\"%s\"", fmt);
	}
	return buf;
}

static void header(struct buf *b, const struct ft_pr_analysis *a, const char *trace,
		   const char *name)
{
	char l1[64], x[96];
	const struct ft_pf_sum *ft = &a->ft;

	out(b, "# framebench profile derived by frametrace %s profile from %s:\n",
	    GS_VERSION, trace);
	out(b, "# %zu frames (%zu..%zu of %zu) of process %u (%s), from %s, "
	    "presented by %s.\n", a->nf, a->o.window ? a->o.first : 0,
	    (a->o.window ? a->o.first : 0) + a->nf - 1, a->nproc_frames, a->pid,
	    ft_task_comm(a->t, a->pid), frame_source(a),
	    ft_pr_label(a, a->presenter, l1, sizeof(l1)));
	if (a->other_procs)
		out(b, "# (%u other process%s in the trace %s frames too: --pid "
		    "chooses)\n", a->other_procs, a->other_procs == 1 ? "" : "es",
		    a->other_procs == 1 ? "has" : "have");
	out(b, "# Work is the CPU time the trace shows (framebench's work unit is "
	    "calibrated CPU\n# time); docs/frametrace.md, \"Replaying a recorded "
	    "game\", says how each line is derived.\n");
	out(b, "name        %s\n", name);
	out(b, "description replay of %s (%u): %zu frames, p50 %.2f ms\n\n",
	    ft_task_comm(a->t, a->pid), a->pid, a->nf, ft->p50 / 1e6);
	out(b, "# frame times %s, p99 %.2f ms\n", pcts(x, sizeof(x), ft),
	    ft->p99 / 1e6);
	if (a->fps)
		out(b, "# %.0f %% of the presents on a %.3f ms grid (within a fifth of "
		    "it; 60 %% or more): vsync-capped\n", 100 * a->vsync_share,
		    (double)a->vsync_ns / 1e6);
	else
		out(b, "# %.0f %% of the presents within a fifth of a grid of their "
		    "median interval (under 60 %%): uncapped\n", 100 * a->vsync_share);
	if (comm_ok(ft_task_comm(a->t, a->pid)))
		out(b, "comm             %s\n",
		    quote(ft_task_comm(a->t, a->pid), l1, sizeof(l1)));
	out(b, "fps              %u\n", a->fps);
	out(b, "# framebench's own CPU per step (its futex calls and wake-ups), taken "
	    "off each work,\n# job, call and period (at most half of it): %s, "
	    "%s\n", us(x, sizeof(x), a->step_ns), a->step_how);
	out(b, "# frames in flight: %s\n", a->fif_how);
	out(b, "frames-in-flight %u\n", a->fif);
}

bool ft_pr_pool_used(const struct ft_pr_analysis *a)
{
	for (unsigned k = 0; k < a->nstages; k++)
		for (unsigned j = 0; j < a->stage[k].nsteps; j++)
			if (a->stage[k].step[j].kind == PR_FANOUT)
				return true;
	return false;
}

static void pool(struct buf *b, const struct ft_pr_analysis *a)
{
	char l[64], x[32];

	if (!ft_pr_pool_used(a)) {
		out(b, "# no job pool: no stage fans out to sibling threads%s\n",
		    a->npool ? " in the common sequences" : "");
		out(b, "workers          1\n");
		return;
	}
	out(b, "# job pool: %u threads %s* of process %u (first %s), signalled "
	    "most by %s; CPU per frame %s (the fan-outs' jobs scaled x%.2f to it)\n",
	    a->npool, a->pool_stem, ft_task_pid(a->t, a->pool[0]),
	    ft_pr_label(a, a->pool[0], l, sizeof(l)), ft_task_comm(a->t, a->pool_caller),
	    us(x, sizeof(x), a->pool_cpu_frame), a->pool_scale);
	if (a->tally.bal_n)
		out(b, "# its threads' parts of a fan-out: the busiest ran %.2fx an "
		    "equal share (mean of %zu fan-outs)%s\n",
		    a->tally.bal_sum / (double)a->tally.bal_n, a->tally.bal_n,
		    ft_pr_pool_even(a) ? ": 'even', one draw for all its jobs" : "");
	out(b, "workers          %u%s\n", a->npool, worker_opt(a, l, sizeof(l)));
}

static bool proc_used(const struct ft_pr_analysis *a, int p, const bool *svc_on)
{
	for (unsigned k = 0; k < a->nstages; k++)
		if (a->stage[k].proc == p)
			return true;
	for (unsigned v = 0; v < a->nsvc; v++)
		if (svc_on[v] && a->svc[v].proc == p)
			return true;
	for (int k = 0; k < PR_PER_N; k++)
		if (a->per[k].on && a->per[k].proc == p)
			return true;
	return false;
}

static const char *proc_opt(const struct ft_pr_analysis *a, int p, char *buf,
			    size_t len)
{
	if (p <= 0) {
		buf[0] = '\0';
		return buf;
	}
	/* cppcheck-suppress arrayIndexOutOfBoundsCond ; p <= PR_MAX_PROCS */
	snprintf(buf, len, " process=%s", a->proc[p].name);
	return buf;
}

static void declarations(struct buf *b, const struct ft_pr_analysis *a,
			 const bool *svc_on)
{
	char x[96], y[64], z[64], l[64];
	bool any = false;

	for (unsigned p = 1; p <= a->nprocs; p++) {
		if (!proc_used(a, (int)p, svc_on))
			continue;
		if (!any)
			out(b, "\n# helper processes (the game's own is main)\n");
		any = true;
		out(b, "process %s%s%s # pid %u\n", a->proc[p].name,
		    comm_ok(ft_task_comm(a->t, a->proc[p].pid)) ? " comm=" : "",
		    quote(ft_task_comm(a->t, a->proc[p].pid), l, sizeof(l)),
		    a->proc[p].pid);
	}
	if (!a->futex_addrs)
		out(b, "\n# locks: none seen; the trace's futex waits carry no "
		    "address (record with\n# --futex-calls for locks and for "
		    "hand-offs to threads that were not asleep)\n");
	any = false;
	for (unsigned k = 0; k < a->nlocks; k++) {
		const struct ft_pr_lock *lk = &a->lock[k];

		if (!lk->where[0])
			continue;
		if (!any)
			out(b, "\n# locks: futex addresses the game's threads both wait "
			    "on and wake\n");
		any = true;
		out(b, "# %s at 0x%llx: %zu contended waits by %u threads, %s; "
		    "hold 4 x p25 of the waits, at most their p50 (an estimate) = "
		    "%s; in %s\n",
		    lk->name, (unsigned long long)lk->uaddr, lk->waits, lk->users,
		    pcts(x, sizeof(x), &lk->wait), us(y, sizeof(y), ft_pf_dist_mean(&lk->hold)),
		    lk->where);
		out(b, "mutex   %s\n", lk->name);
	}
	any = false;
	for (unsigned v = 0; v < a->nsvc; v++) {
		const struct ft_pr_service *sv = &a->svc[v];
		const struct ft_pr_step *first = NULL;

		for (unsigned k = 0; k < a->nstages && !first; k++)
			for (unsigned j = 0; j < a->stage[k].nsteps && !first; j++)
				if (a->stage[k].step[j].kind == PR_CALL &&
				    a->stage[k].step[j].target == (int)v)
					first = &a->stage[k].step[j];
		if (!first)
			continue;
		if (!any)
			out(b, "\n# services: threads the stages call and wait for\n");
		any = true;
		out(b, "# %s: %s, %.0f calls per frame in the stages' sequences; CPU "
		    "per frame %s (calls scaled x%.2f to it)\n", sv->name,
		    ft_pr_label(a, sv->tid, l, sizeof(l)), sv->calls_frame,
		    us(z, sizeof(z), sv->cpu_frame), sv->scale);
		out(b, "service %s%s work=%s%s\n", sv->name,
		    proc_opt(a, sv->proc, y, sizeof(y)), dist(x, sizeof(x), &first->dist),
		    thread_opt(a, sv->tid, l, sizeof(l)));
	}
	any = false;
	for (int k = 0; k < PR_PER_N; k++) {
		const struct ft_pr_periodic *p = &a->per[k];
		char per[32], hold[128] = "";

		if (!p->on)
			continue;
		if (!any)
			out(b, "\n# periodic tasks: woken by their timers at a regular "
			    "period\n");
		any = true;
		out(b, "# %s: %s, every %.3f ms (%.0f %% of %zu intervals regular; "
		    "kind from its %s); CPU per period %s\n", ft_pr_per_name(k),
		    ft_pr_label(a, p->tid, l, sizeof(l)), (double)p->period_ns / 1e6,
		    100 * p->regular, p->sum.n, p->by, pcts(x, sizeof(x), &p->sum));
		snprintf(per, sizeof(per), "%.1fus", (double)p->period_ns / 1e3);
		if (p->lock >= 0)
			snprintf(hold, sizeof(hold), " lock=%s hold=%s",
				 a->lock[p->lock].name, dist(z, sizeof(z), &p->hold));
		out(b, "%s period=%s work=%s%s%s%s\n", ft_pr_per_name(k), per,
		    dist(x, sizeof(x), &p->work), hold,
		    proc_opt(a, p->proc, y, sizeof(y)), thread_opt(a, p->tid, l, sizeof(l)));
	}
}

static void stage(struct buf *b, const struct ft_pr_analysis *a, unsigned k)
{
	const struct ft_pr_stage *st = &a->stage[k];
	char l[64], x[96], y[64], z[64];

	out(b, "\n# stage %u: %s, %zu activations %s; %zu with this sequence of "
	    "calls and fan-outs%s; CPU per activation %s (works scaled x%.2f to "
	    "the mean, %s)\n", k + 1, ft_pr_label(a, st->tid, l, sizeof(l)), st->nact,
	    st->by_presents || k + 1 == a->nstages
		    ? "between presents"
		    : "between its hand-offs to the next stage",
	    st->nmode, st->truncated ? " (longer ones cut at 15)" : "",
	    pcts(x, sizeof(x), &st->cpu), st->scale, us(y, sizeof(y), st->cpu.mean));
	if (st->unexpressed)
		out(b, "# overlap not expressed: in %zu of these %zu activations "
		    "the stage worked beside a fan-out's jobs that the profile "
		    "language cannot say (one asynchronous fan-out and one join "
		    "a stage); taken as waited for, the replay runs them in "
		    "turn\n", st->unexpressed, st->nmode);
	out(b, "stage %s%s%s\n", st->name, proc_opt(a, st->proc, y, sizeof(y)),
	    thread_opt(a, st->tid, l, sizeof(l)));
	for (unsigned j = 0; j < st->nsteps; j++) {
		const struct ft_pr_step *s = &st->step[j];

		switch (s->kind) {
		case PR_WORK:
			if (ft_pf_dist_mean(&s->dist) < 500)
				break;	/* nothing between two steps */
			out(b, "  work   %-26s # %zu samples: %s\n",
			    dist(x, sizeof(x), &s->dist), s->sum.n,
			    pcts(z, sizeof(z), &s->sum));
			break;
		case PR_CALL:
			out(b, "  call   %s %-18s # its CPU from the call to its reply: "
			    "%s\n", a->svc[s->target].name, dist(x, sizeof(x), &s->dist),
			    pcts(z, sizeof(z), &s->sum));
			break;
		case PR_FANOUT: {
			char lock[128] = "";

			if (s->lock >= 0)
				snprintf(lock, sizeof(lock), " lock=%s hold=%s",
					 a->lock[s->lock].name,
					 dist(y, sizeof(y), &s->hold));
			out(b, "  fanout %u %s%s%s%s # pool threads that ran it (p90); "
			    "the pool's CPU in it %s%s\n", s->jobs,
			    dist(x, sizeof(x), &s->dist), lock, s->even ? " even" : "",
			    s->async ? " async" : "", pcts(z, sizeof(z), &s->sum),
			    !s->async ? ""
			    : joined_in_activation(st, j) ? "; the stage worked on beside the "
						  "jobs, then waited for their fan-in"
						: "; its fan-in came in the stage's "
						  "next activation");
			break;
		}
		case PR_JOIN:
			out(b, "  join                              # the fan-in of "
			    "%s asynchronous fan-out\n", joined_in_activation(st, j)
							? "the" : "the previous activation's");
			break;
		case PR_LOCK:
			out(b, "  lock   %s %s\n", a->lock[s->target].name,
			    dist(x, sizeof(x), &s->dist));
			break;
		}
	}
}

static void left_out(struct buf *b, const struct ft_pr_analysis *a)
{
	char l[64], x[32];
	double left = 0;
	size_t shown = a->nleft < 12 ? a->nleft : 12;

	for (size_t i = 0; i < a->nleft; i++)
		left += (double)a->th[ft_pr_index(a, a->left[i])].cpu;
	if (!a->nleft)
		out(b, "\n# left out: no thread of the game's processes\n");
	else
		out(b, "\n# left out: %zu thread%s of the game's processes with no "
		    "part in the frames, %.1f %% of their CPU:\n", a->nleft,
		    a->nleft == 1 ? "" : "s",
		    a->game_cpu > 0 ? 100 * left / a->game_cpu : 0);
	for (size_t i = 0; i < shown; i++)
		out(b, "#   %s %s\n", ft_pr_label(a, a->left[i], l, sizeof(l)),
		    us(x, sizeof(x), (double)a->th[ft_pr_index(a, a->left[i])].cpu));
	if (shown < a->nleft)
		out(b, "#   and %zu more\n", a->nleft - shown);
	if (a->dropped[0])
		out(b, "# framebench has no room for: %s\n", a->dropped);
}

int ft_pr_profile_text(const struct ft_pr_analysis *a, const char *trace,
		    const char *name, char **text, size_t *len, char *err,
		    size_t errlen)
{
	struct buf b = { 0 };
	bool svc_on[PR_MAX_SERVICES] = { false };
	struct fb_profile *p;

	for (unsigned k = 0; k < a->nstages; k++)
		for (unsigned j = 0; j < a->stage[k].nsteps; j++)
			if (a->stage[k].step[j].kind == PR_CALL)
				svc_on[a->stage[k].step[j].target] = true;
	header(&b, a, trace, name);
	pool(&b, a);
	declarations(&b, a, svc_on);
	for (unsigned k = 0; k < a->nstages; k++)
		stage(&b, a, k);
	left_out(&b, a);
	if (b.oom) {
		free(b.s);
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	/* framebench's own checks, before anything is written */
	p = malloc(sizeof(*p));
	if (!p) {
		free(b.s);
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	if (fb_profile_parse(b.s, b.n, "derived profile", p, err, errlen)) {
		free(p);
		free(b.s);
		return -1;
	}
	free(p);
	*text = b.s;
	*len = b.n;
	return 0;
}

int ft_pr_write_atomic(const char *path, const char *text, size_t len, char *err,
		    size_t errlen)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	mode_t mask;
	bool ok;
	FILE *f;
	int fd, e;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp's 0600 would make a profile others cannot read */
	mask = umask(0);
	umask(mask);
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
		return -1;
	}
	ok = !fchmod(fd, 0666 & ~mask) && fwrite(text, 1, len, f) == len &&
	     !fflush(f) && !fsync(fd);
	e = errno;
	if (fclose(f) && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(tmp, path)) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		unlink(tmp);
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
	}
	free(tmp);
	return ok ? 0 : -1;
}
