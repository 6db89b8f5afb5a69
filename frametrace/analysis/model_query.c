// SPDX-License-Identifier: GPL-2.0-only
/*
 * Questions asked of a built timeline (model.h): a task's record, the
 * segments of a CPU in a window, the segment a task ran at an instant,
 * a CPU's idle time, and a task's run-burst variation.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ft_tstat *ft_model_task(const struct ft_model *m, uint32_t tid)
{
	uint32_t *i = ft_map_get(&m->taskidx, tid);

	return i ? &m->task[*i] : NULL;
}

void ft_model_cpu_range(const struct ft_model *m, uint16_t cpu, uint64_t a,
			uint64_t b, size_t *lo, size_t *hi)
{
	size_t l, h, first, last;

	*lo = *hi = 0;
	if (!m->cpu_seg || cpu >= m->ncpus)
		return;
	first = m->cpu_seg[cpu];
	last = m->cpu_seg[cpu + 1];
	/* segments on one CPU do not overlap: the first one ending after a */
	l = first;
	h = last;
	while (l < h) {
		size_t mid = l + (h - l) / 2;

		if (m->seg[mid].end <= a)
			l = mid + 1;
		else
			h = mid;
	}
	*lo = l;
	while (l < last && m->seg[l].start < b)
		l++;
	*hi = l;
}

/* How many of s's segments start (by_end: end) at or before ts. */
static size_t segs_upto(const struct ft_model *m, const struct ft_tstat *s,
			uint64_t ts, bool by_end)
{
	size_t l = 0, h = s->segs.n;

	while (l < h) {
		size_t mid = l + (h - l) / 2;
		const struct ft_seg *g = &m->seg[s->segs.v[mid]];

		if ((by_end ? g->end : g->start) <= ts)
			l = mid + 1;
		else
			h = mid;
	}
	return l;
}

size_t ft_model_segs_started(const struct ft_model *m, const struct ft_tstat *s,
			     uint64_t ts)
{
	return segs_upto(m, s, ts, false);
}

size_t ft_model_seg_ending_after(const struct ft_model *m,
				 const struct ft_tstat *s, uint64_t ts)
{
	return segs_upto(m, s, ts, true);
}

long ft_model_seg_at(const struct ft_model *m, uint32_t tid, uint64_t ts)
{
	const struct ft_tstat *s = ft_model_task(m, tid);
	size_t l;

	if (!s || !s->segs.n)
		return -1;
	/* the last segment starting at or before ts */
	l = ft_model_segs_started(m, s, ts);
	if (!l)
		return -1;
	l--;
	if (m->seg[s->segs.v[l]].end >= ts)
		return s->segs.v[l];
	return -1;
}

uint64_t ft_model_idle_in(const struct ft_model *m, uint16_t cpu, uint64_t a,
			  uint64_t b)
{
	size_t lo, hi;
	uint64_t idle = 0;

	ft_model_cpu_range(m, cpu, a, b, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		const struct ft_seg *s = &m->seg[i];
		uint64_t x = s->start > a ? s->start : a;
		uint64_t y = s->end < b ? s->end : b;

		if (s->tid == 0 && y > x)
			idle += y - x;
	}
	return idle;
}

double ft_tstat_cv(const struct ft_tstat *s)
{
	double var;

	if (s->nburst < 2 || s->burst_mean <= 0)
		return 0;
	var = s->burst_m2 / (double)(s->nburst - 1);
	return sqrt(var) / s->burst_mean;
}
