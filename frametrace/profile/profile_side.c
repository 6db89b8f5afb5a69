// SPDX-License-Identifier: GPL-2.0-only
/*
 * Beside the frame chain (pipeline.h): the periodic tasks, the locks,
 * the processes and names the profile uses, the threads left out, and the
 * figures compare shows besides the profile's.
 */
#include "pipeline.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "util.h"

/* ---- periodic tasks --------------------------------------------------- */

static bool has_word(const char *comm, const char *const *words)
{
	char low[32];
	size_t i;

	for (i = 0; comm[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)comm[i]);
	low[i] = '\0';
	for (; *words; words++)
		if (strstr(low, *words))
			return true;
	return false;
}

static int kind_of(const char *comm, uint64_t period, const char **by)
{
	static const char *const audio[] = { "audio", "pulse", "pipewire", "alsa",
					     "sound", "snd", "openal", "fmod",
					     "mixer", NULL };
	static const char *const input[] = { "input", "hid", "joy", "pad",
					     "evdev", "sdl", NULL };
	static const char *const net[] = { "net", "sock", "tick", "server",
					   "steam", NULL };

	*by = "name";
	if (has_word(comm, audio))
		return PR_PER_AUDIO;
	if (has_word(comm, input))
		return PR_PER_INPUT;
	if (has_word(comm, net))
		return PR_PER_NET;
	*by = "period";
	return period <= 2000000 ? PR_PER_INPUT
	       : period <= 12000000 ? PR_PER_AUDIO : PR_PER_NET;
}

bool ft_pr_game_pid(const struct ft_pr_analysis *a, uint32_t pid)
{
	if (pid == a->pid)
		return true;
	for (unsigned k = 0; k < a->nstages; k++)
		if (ft_task_pid(a->t, a->stage[k].tid) == pid)
			return true;
	return false;
}

/* Threads of the game's processes woken by timers at a regular period;
 * one per kind, the busiest (a name says the kind, else the period). */
int ft_pr_find_periodic(struct ft_pr_analysis *a)
{
	const struct ft_model *m = a->m;
	double game = 0;

	/* a periodic task worth replaying takes 0.5 % of the game's CPU or
	 * more (framebench's own collector, a replay's main thread, less) */
	for (size_t ti = 0; ti < m->ntask; ti++)
		if (ft_pr_usable(a, ti) && ft_pr_game_pid(a, m->task[ti].pid))
			game += (double)a->th[ti].cpu;

	for (size_t ti = 0; ti < m->ntask; ti++) {
		const struct ft_tstat *s = &m->task[ti];
		uint64_t *ts, period;
		size_t n = 0;
		double regular;
		const char *by;
		int kind;

		if (!ft_pr_usable(a, ti) || a->th[ti].role || !ft_pr_game_pid(a, s->pid) ||
		    (double)a->th[ti].cpu < 0.005 * game || a->th[ti].irq_wakes < 10 ||
		    a->th[ti].irq_wakes < a->th[ti].task_wakes)
			continue;
		ts = malloc(s->wakes.n * sizeof(*ts));
		if (!ts)
			return -1;
		for (size_t j = 0; j < s->wakes.n; j++) {
			const struct ft_wake *w = &m->wake[s->wakes.v[j]];

			if ((w->irq || !w->waker) && w->ts >= a->wa && w->ts <= a->wb)
				ts[n++] = w->ts;
		}
		period = ft_pf_period(ts, n, &regular);
		free(ts);
		if (period < 100000 || period > 10000000000ULL)
			continue;
		kind = kind_of(ft_task_comm(a->t, s->tid), period, &by);
		if (a->per[kind].on) {
			long cur = ft_pr_index(a, a->per[kind].tid);

			if (cur >= 0 && a->th[cur].cpu >= a->th[ti].cpu)
				continue;
			if (cur >= 0)
				a->th[cur].role = PR_NONE;
		}
		a->per[kind] = (struct ft_pr_periodic){ .on = true, .tid = s->tid,
			.period_ns = period, .regular = regular, .by = by,
			.lock = -1 };
		a->th[ti].role = PR_PERIODIC;
		a->th[ti].idx = (int8_t)kind;
	}
	return 0;
}

/* ---- locks -------------------------------------------------------------- */

static int cmp_u64d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* contended waits a lock needs before its hold is estimated and it is
 * replayed: fewer say little about the hold, and add little contention */
#define LOCK_MIN_WAITS 20

static int by_waits(const void *x, const void *y)
{
	const struct ft_pr_lock *p = x, *q = y;

	return p->waits > q->waits ? -1 : p->waits < q->waits;
}

/* Lock addresses the game's threads contend on: the contended waits in
 * the window, and a hold time estimated from them (profile_steps.c puts
 * them into steps). */
int ft_pr_find_locks(struct ft_pr_analysis *a, const struct ft_pr_fxu *u, size_t nu)
{
	const struct ft_model *m = a->m;

	for (size_t g = 0; g < nu;) {
		size_t e = g, nw = 0;
		unsigned users = 0, roled = 0;
		double *w;

		while (e < nu && u[e].uaddr == u[g].uaddr)
			e++;
		if (!ft_pr_fxu_is_lock(u, nu, g)) {
			g = e;
			continue;
		}
		for (size_t j = g; j < e; j++) {
			users++;
			roled += a->th[u[j].ti].role != PR_NONE;
		}
		if (roled < 2) {
			g = e;
			continue;
		}
		w = malloc(m->nfx * sizeof(*w));
		if (!w)
			return -1;
		for (size_t i = 0; i < m->nfx; i++) {
			const struct ft_fx *f = &m->fx[i];
			long ti;

			if (f->uaddr != u[g].uaddr || !ft_futex_is_wait(f->op) ||
			    f->ts < a->wa || f->ts > a->wb || !f->dur)
				continue;
			ti = ft_pr_index(a, f->tid);
			if (ti >= 0 && a->th[ti].role != PR_NONE)
				w[nw++] = (double)f->dur;
		}
		if (nw >= LOCK_MIN_WAITS) {
			struct ft_pr_lock *l = NULL;

			if (a->nlocks < PR_MAX_LOCKS) {
				l = &a->lock[a->nlocks++];
			} else {
				/* keep the most contended */
				for (unsigned k = 0; k < a->nlocks; k++)
					if (a->lock[k].waits < nw &&
					    (!l || a->lock[k].waits < l->waits))
						l = &a->lock[k];
			}
			if (l) {
				double p25;

				memset(l, 0, sizeof(*l));
				l->uaddr = u[g].uaddr;
				l->waits = nw;
				l->users = users;
				if (ft_pf_summarize(w, nw, &l->wait)) {
					free(w);
					return -1;
				}
				qsort(w, nw, sizeof(*w), cmp_u64d);
				p25 = w[(nw - 1) / 4];
				/* a lock taken at random times is contended
				 * for a uniform part of its hold: p25 of the
				 * waits is a quarter of it; a preempted holder
				 * lengthens waits, so at most their median */
				p25 *= 4;
				if (p25 > l->wait.p50)
					p25 = l->wait.p50;
				l->hold = (struct ft_pf_dist){ PF_FIXED, p25, p25 };
			}
		}
		free(w);
		g = e;
	}
	/* the most contended first: steps take the first lock they use */
	qsort(a->lock, a->nlocks, sizeof(a->lock[0]), by_waits);
	for (unsigned k = 0; k < a->nlocks; k++)
		snprintf(a->lock[k].name, sizeof(a->lock[k].name), "lock%u", k + 1);
	return 0;
}

/* ---- processes, names, the rest ----------------------------------------- */

static bool proc_name_taken(const struct ft_pr_analysis *a, const char *n)
{
	if (!strcmp(n, "main"))
		return true;
	for (unsigned k = 1; k <= a->nprocs; k++)
		if (!strcmp(a->proc[k].name, n))
			return true;
	return false;
}

/* The profile's process for pid: 0 the game's, else a helper process
 * named after the process's main thread; -1 when framebench has no room. */
static int proc_of(struct ft_pr_analysis *a, uint32_t pid)
{
	const struct ft_task_rec *r;
	char base[PR_NAME], name[PR_NAME];

	if (pid == a->pid)
		return 0;
	for (unsigned k = 1; k <= a->nprocs; k++)
		if (a->proc[k].pid == pid)
			return (int)k;
	if (a->nprocs == PR_MAX_PROCS)
		return -1;
	r = ft_task_get(a->t, pid);
	ft_pf_name(r && r->comm[0] ? r->comm : "proc", base, sizeof(base));
	base[24] = '\0';
	gs_strlcpy(name, base, sizeof(name));
	for (unsigned k = 2; proc_name_taken(a, name) && k < 100; k++)
		snprintf(name, sizeof(name), "%.24s-%u", base, k % 100);
	a->nprocs++;
	a->proc[a->nprocs].pid = pid;
	gs_strlcpy(a->proc[a->nprocs].name, name, sizeof(name));
	return (int)a->nprocs;
}

static bool name_taken(const struct ft_pr_analysis *a, const char *n)
{
	static const char *const reserved[] = { "worker", "vsync", "input",
						"audio", "net" };

	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(n, reserved[i]))
			return true;
	for (unsigned k = 0; k < a->nstages; k++)
		if (!strcmp(a->stage[k].name, n))
			return true;
	for (unsigned k = 0; k < a->nsvc; k++)
		if (!strcmp(a->svc[k].name, n))
			return true;
	return false;
}

static void unique_name(const struct ft_pr_analysis *a, uint32_t tid, char *out)
{
	char base[PR_NAME], name[PR_NAME];

	ft_pf_name(ft_task_comm(a->t, tid), base, sizeof(base));
	base[24] = '\0';
	gs_strlcpy(name, base, sizeof(name));
	for (unsigned k = 2; name_taken(a, name) && k < 100; k++)
		snprintf(name, sizeof(name), "%.24s-%u", base, k % 100);
	gs_strlcpy(out, name, PR_NAME);
}

int ft_pr_name_roles(struct ft_pr_analysis *a)
{
	const struct ft_task_rec *r = ft_task_get(a->t, a->pid);

	a->proc[0].pid = a->pid;
	ft_pf_name(r ? r->comm : "game", a->proc[0].name, PR_NAME);
	for (unsigned k = 0; k < a->nstages; k++) {
		int p = proc_of(a, ft_task_pid(a->t, a->stage[k].tid));

		a->stage[k].proc = p < 0 ? 0 : p;
		if (p < 0)
			snprintf(a->dropped + strlen(a->dropped),
				 sizeof(a->dropped) - strlen(a->dropped),
				 "%sstage %u runs in the game's process here "
				 "(framebench has at most %d helper processes)",
				 *a->dropped ? "; " : "", k + 1, PR_MAX_PROCS);
		a->stage[k].name[0] = '\0';
		unique_name(a, a->stage[k].tid, a->stage[k].name);
	}
	for (unsigned k = 0; k < a->nsvc; k++) {
		int p = proc_of(a, ft_task_pid(a->t, a->svc[k].tid));

		a->svc[k].proc = p < 0 ? 0 : p;
		a->svc[k].name[0] = '\0';
		unique_name(a, a->svc[k].tid, a->svc[k].name);
	}
	for (int k = 0; k < PR_PER_N; k++)
		if (a->per[k].on) {
			int p = proc_of(a, ft_task_pid(a->t, a->per[k].tid));

			a->per[k].proc = p < 0 ? 0 : p;
		}
	return 0;
}

static const struct ft_pr_analysis *cpu_a;

static int by_cpu(const void *x, const void *y)
{
	uint64_t p = cpu_a->th[ft_pr_index(cpu_a, *(const uint32_t *)x)].cpu;
	uint64_t q = cpu_a->th[ft_pr_index(cpu_a, *(const uint32_t *)y)].cpu;

	return p > q ? -1 : p < q;
}

int ft_pr_the_rest(struct ft_pr_analysis *a)
{
	const struct ft_model *m = a->m;

	a->left = malloc((m->ntask ? m->ntask : 1) * sizeof(uint32_t));
	if (!a->left)
		return -1;
	for (size_t ti = 0; ti < m->ntask; ti++) {
		bool game = false;

		if (!ft_pr_usable(a, ti))
			continue;
		game = ft_pr_game_pid(a, m->task[ti].pid);
		for (unsigned k = 1; k <= a->nprocs; k++)
			game |= m->task[ti].pid == a->proc[k].pid;
		if (a->th[ti].role)
			a->role_cpu += (double)a->th[ti].cpu;
		if (!game && !a->th[ti].role)
			continue;
		a->game_cpu += (double)a->th[ti].cpu;
		if (!a->th[ti].role)
			a->left[a->nleft++] = m->task[ti].tid;
	}
	cpu_a = a;
	qsort(a->left, a->nleft, sizeof(uint32_t), by_cpu);
	/* wake-ups among the threads with a role, and across processes */
	for (size_t i = 0; i < m->nwake; i++) {
		const struct ft_wake *w = &m->wake[i];
		long x, y;

		if (w->ts < a->wa || w->ts > a->wb || w->irq || !w->waker)
			continue;
		x = ft_pr_index(a, w->waker);
		y = ft_pr_index(a, w->wakee);
		if (x < 0 || y < 0 || !a->th[x].role || !a->th[y].role)
			continue;
		a->wakes++;
		a->cross += m->task[x].pid != m->task[y].pid;
	}
	/* the wake chains the report walks back from presents */
	{
		size_t step = a->nf > 400 ? a->nf / 400 : 1, n = 0;
		double *links = malloc((a->nf / step + 1) * sizeof(double));
		struct ft_explain *x = malloc(sizeof(*x));
		struct ft_pf_sum s;

		if (!links || !x) {
			free(links);
			free(x);
			return -1;
		}
		for (size_t k = 0; k < a->nf; k += step)
			if (!ft_explain_frame(m, a->fidx[k], a->presenter, x))
				links[n++] = x->nlinks;
		if (!ft_pf_summarize(links, n, &s))
			a->links_p50 = s.p50;
		free(links);
		free(x);
	}
	return 0;
}

