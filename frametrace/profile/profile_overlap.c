// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether a stage's fan-out overlapped its own work (profile_acts.c
 * asks): the jobs of frame N running while the stage went on. A stage
 * that waits for its jobs sleeps from the fan-out until a pool thread
 * wakes it; one that does not goes on, into frame N+1 (its join in the
 * next activation), or works on and then sleeps on a fence until the
 * pool's fan-in (its join in the same activation). Until 2026-12-06 a
 * fan-in that woke the stage in the activation, or any sleep while the
 * jobs ran (a call to the X server among them), made the fan-out waited
 * for: llvmpipe's main thread, which bins the next scene while the
 * rasterizer threads draw the last one and then waits on the fence,
 * replayed with its binning after the jobs instead of beside them.
 */
#include "pipeline.h"

/* A fan-out the stage ran on beside for a quarter of the time to its
 * fan-in (awake, preempted, or asleep in a call another thread answered)
 * is asynchronous, joined at the fan-in. */
#define RAN_ON_SHARE 4

uint64_t ft_pr_reply_time(const struct ft_pr_analysis *a, size_t xi, int svc,
			  uint64_t t, uint64_t end)
{
	uint64_t best = end;

	for (unsigned p = 0; p < (svc >= 0 ? 1u : a->npool); p++) {
		long si = ft_pr_index(a, svc >= 0 ? a->svc[svc].tid : a->pool[p]);

		if (si < 0)
			continue;
		for (size_t j = ft_pr_sig_from(a, (size_t)si, t + 1);
		     j < a->th[si].sig0 + a->th[si].nsig && a->sig[j].ts <= best; j++)
			if (a->sig[j].to == xi) {
				best = a->sig[j].ts;
				break;
			}
	}
	return best;
}

bool ft_pr_asleep_at(const struct ft_pr_analysis *a, size_t xi, uint64_t ts)
{
	const struct ft_model *m = a->m;
	const struct ft_tstat *s = &m->task[xi];
	size_t l = ft_model_segs_started(m, s, ts);
	const struct ft_seg *g;

	if (!l)
		return true;
	g = &m->seg[s->segs.v[l - 1]];
	return g->end < ts && g->out_state && g->out_state != 'R';
}

/* Whether a service's reply ended stage xi's sleep (from, to]: it slept
 * in a call, not for the jobs. */
static bool service_woke(const struct ft_pr_analysis *a, size_t xi,
			 uint64_t from, uint64_t to)
{
	for (unsigned v = 0; v < a->nsvc; v++)
		if (ft_pr_reply_time(a, xi, (int)v, from, to + 1) <= to)
			return true;
	return false;
}

/* How long stage xi slept in (t, u) waiting for anything but a service's
 * reply: its wait for the jobs (a wake the trace lacks counts too). */
static uint64_t jobs_wait_in(const struct ft_pr_analysis *a, size_t xi,
			     uint64_t t, uint64_t u)
{
	const struct ft_model *m = a->m;
	const struct ft_tstat *s = &m->task[xi];
	uint64_t wait = 0;

	for (size_t l = ft_model_seg_ending_after(m, s, t);
	     l < s->segs.n && m->seg[s->segs.v[l]].end < u; l++) {
		const struct ft_seg *g = &m->seg[s->segs.v[l]];
		uint64_t back = l + 1 < s->segs.n ? m->seg[s->segs.v[l + 1]].start
						  : u;

		if (back > u)
			back = u;
		if (g->out_state && g->out_state != 'R' && g->end >= t &&
		    !service_woke(a, xi, g->end, back))
			wait += back - g->end;
	}
	return wait;
}

/* When the pool finished the jobs of a fan-out at t: the latest end of
 * a member's first run of runs after t that ends in a sleep (before
 * limit). A fan-in that wakes nobody leaves no signal, so the jobs' end
 * is read from the pool's own runs. 0 when no member ran. */
static uint64_t jobs_end(const struct ft_pr_analysis *a, uint64_t t,
			 uint64_t limit)
{
	const struct ft_model *m = a->m;
	uint64_t end = 0;

	for (unsigned p = 0; p < a->npool; p++) {
		long pi = ft_pr_index(a, a->pool[p]);
		const struct ft_tstat *s;
		size_t l;

		if (pi < 0)
			continue;
		s = &m->task[pi];
		for (l = ft_model_seg_ending_after(m, s, t); l < s->segs.n && m->seg[s->segs.v[l]].start < limit; l++) {
			const struct ft_seg *g = &m->seg[s->segs.v[l]];

			if (g->out_state && g->out_state != 'R') {
				if (g->end > end && g->end < limit)
					end = g->end;
				break;
			}
		}
	}
	return end;
}

int ft_pr_overlap(const struct ft_pr_analysis *a, size_t xi, uint64_t t,
		  uint64_t hi, uint64_t hi2, uint64_t *reply)
{
	uint64_t r = ft_pr_reply_time(a, xi, -1, t, hi), e;

	if (r < hi && ft_pr_asleep_at(a, xi, r - 1)) {
		/* woken by the fan-in: it waited, unless it ran on first
		 * and slept only on the fence at the end */
		if (r <= t || (r - t - jobs_wait_in(a, xi, t, r)) *
				      RAN_ON_SHARE < r - t)
			return FT_PR_WAITED;
		*reply = r;
		return FT_PR_JOINED_HERE;
	}
	e = jobs_end(a, t, hi2);
	if (!e)
		return FT_PR_WAITED;
	*reply = e;
	/* and it did not sleep for them while they ran (a wake the trace
	 * lacks); a call's sleep is the call's */
	return jobs_wait_in(a, xi, t, e < hi ? e : hi) ? FT_PR_WAITED
						       : FT_PR_JOINED_NEXT;
}
