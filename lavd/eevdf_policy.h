/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf, the deciding half as pure functions (host C; unit-tested
 * in tests/test_lavd_eevdf.c): which class a task belongs to this period,
 * from the lat_cri the tracepoint programs computed with policy.h and the
 * CPU it used, and when a class change is taken (hysteresis).
 *
 *   critical    lat_cri at or above the active tasks' average, short
 *               bursts, under a CPU share bound: the game's chain
 *   top         critical and in the upper half between the average and
 *               the maximum, with tighter bounds: SCHED_FIFO candidates
 *   background  below the average, bursts of 20 ms and more (it hardly
 *               sleeps) and at least half a CPU: hogs, build jobs
 *   normal      everything else: left as it is
 *
 * A task breaking a bound of its class leaves it at once (a critical task
 * that starts to spin must not keep its boost for a second); every other
 * change needs the proposal to hold for a few periods in a row.
 */
#ifndef LAVD_EEVDF_POLICY_H
#define LAVD_EEVDF_POLICY_H

#include <stdbool.h>
#include <stdint.h>

enum eevdf_class {
	EEVDF_NORMAL,
	EEVDF_CRITICAL,
	EEVDF_TOP,
	EEVDF_BACKGROUND,
	EEVDF_NR_CLASSES
};

struct eevdf_bounds {
	uint64_t crit_runtime_max;	/* ns: average burst of a critical task */
	uint32_t crit_share_max;	/* per mille of one CPU */
	uint64_t top_runtime_max;	/* ns: ... of a FIFO task */
	uint32_t top_share_max;		/* per mille */
	uint64_t bg_runtime_min;	/* ns: average burst of a background task */
	uint32_t bg_share_min;		/* per mille */
	uint32_t promote_periods;	/* a proposal holds this long: taken */
	uint32_t demote_periods;	/* ... to go back towards normal */
	uint32_t idle_periods;		/* not run this long: normal again */
};

/* The defaults, and why: docs/lavd.md (lavd --eevdf). */
static inline struct eevdf_bounds eevdf_bounds_default(void)
{
	return (struct eevdf_bounds){
		.crit_runtime_max = 5000000,	/* 5 ms: a game task's burst is ~1 ms */
		.crit_share_max = 700,
		.top_runtime_max = 2000000,
		.top_share_max = 400,
		.bg_runtime_min = 20000000,
		.bg_share_min = 500,
		.promote_periods = 2,
		.demote_periods = 10,
		.idle_periods = 50,
	};
}

/* What one period showed of a task. */
struct eevdf_obs {
	uint64_t lat_cri;
	uint64_t avg_runtime;		/* ns */
	uint32_t share;			/* per mille of one CPU this period */
	bool ran;			/* it ran or woke this period */
};

/* The active tasks' lat_cri this period: average and maximum. */
struct eevdf_sys {
	uint64_t lc_avg, lc_max;
};

/* Running sums for eevdf_sys: add every task that ran, then finish. */
struct eevdf_sys_acc {
	uint64_t sum, max, n;
};

static inline void eevdf_sys_add(struct eevdf_sys_acc *a, const struct eevdf_obs *o)
{
	if (!o->ran)
		return;
	a->sum += o->lat_cri;
	a->n++;
	if (o->lat_cri > a->max)
		a->max = o->lat_cri;
}

static inline struct eevdf_sys eevdf_sys_finish(const struct eevdf_sys_acc *a)
{
	struct eevdf_sys s = { 0, 0 };

	if (a->n) {
		s.lc_avg = a->sum / a->n;
		s.lc_max = a->max;
	}
	return s;
}

static inline bool eevdf_fits_critical(const struct eevdf_bounds *b,
				       const struct eevdf_obs *o)
{
	return o->avg_runtime <= b->crit_runtime_max && o->share <= b->crit_share_max;
}

static inline bool eevdf_fits_top(const struct eevdf_bounds *b,
				  const struct eevdf_obs *o)
{
	return o->avg_runtime <= b->top_runtime_max && o->share <= b->top_share_max;
}

/*
 * The class this period's observation proposes (top only when allowed).
 * cur is the class the task has: a background task keeps its class down
 * to a quarter of the share that made it one, because the demotion
 * itself takes CPU from it (it fell to 43 % at nice 10 and bounced back
 * and forth without this).
 */
static inline enum eevdf_class eevdf_propose(const struct eevdf_bounds *b,
					     const struct eevdf_sys *s,
					     const struct eevdf_obs *o,
					     enum eevdf_class cur,
					     bool top_allowed)
{
	uint32_t bg_share = cur == EEVDF_BACKGROUND ? b->bg_share_min / 4 :
			    b->bg_share_min;

	if (!s->lc_max)
		return EEVDF_NORMAL;
	if (o->lat_cri >= s->lc_avg && o->lat_cri > 0 && eevdf_fits_critical(b, o)) {
		if (top_allowed && eevdf_fits_top(b, o) &&
		    o->lat_cri >= s->lc_avg + (s->lc_max - s->lc_avg) / 2)
			return EEVDF_TOP;
		return EEVDF_CRITICAL;
	}
	if (o->lat_cri < s->lc_avg && o->avg_runtime >= b->bg_runtime_min &&
	    o->share >= bg_share)
		return EEVDF_BACKGROUND;
	return EEVDF_NORMAL;
}

/* Does the task break a bound of the class it has? Then it leaves now. */
static inline bool eevdf_breaks_class(const struct eevdf_bounds *b,
				      enum eevdf_class cur,
				      const struct eevdf_obs *o)
{
	if (cur == EEVDF_TOP)
		return !eevdf_fits_top(b, o);
	if (cur == EEVDF_CRITICAL)
		return !eevdf_fits_critical(b, o);
	return false;
}

/* A task's class and the hysteresis state behind it. */
struct eevdf_track {
	enum eevdf_class cls;
	enum eevdf_class pending;	/* the proposal being counted */
	uint32_t streak;		/* periods it has held */
	uint32_t idle;			/* periods without a run */
};

/*
 * One period: the class the task has after it. A boosted task that broke
 * its bound drops to normal at once; a task that did not run keeps its
 * class until it has been idle for idle_periods; otherwise a proposal
 * is taken once it has held promote_periods (towards a boost or a
 * demotion from normal) or demote_periods (back to normal, or between
 * boosted classes).
 */
static inline enum eevdf_class eevdf_step(const struct eevdf_bounds *b,
					  struct eevdf_track *t,
					  enum eevdf_class proposal,
					  const struct eevdf_obs *o)
{
	uint32_t need;

	if (!o->ran) {
		if (++t->idle >= b->idle_periods)
			t->cls = EEVDF_NORMAL;
		t->streak = 0;
		return t->cls;
	}
	t->idle = 0;
	if (eevdf_breaks_class(b, t->cls, o)) {
		t->cls = EEVDF_NORMAL;
		t->streak = 0;
		return t->cls;
	}
	if (proposal == t->cls) {
		t->streak = 0;
		return t->cls;
	}
	if (proposal != t->pending)
		t->streak = 0;
	t->pending = proposal;
	t->streak++;
	need = t->cls == EEVDF_NORMAL ||
	       (t->cls == EEVDF_CRITICAL && proposal == EEVDF_TOP) ?
	       b->promote_periods : b->demote_periods;
	if (t->streak >= need) {
		t->cls = proposal;
		t->streak = 0;
	}
	return t->cls;
}

#endif
