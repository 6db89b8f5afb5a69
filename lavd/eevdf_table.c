// SPDX-License-Identifier: GPL-2.0-only
/* lavd --eevdf: the threads it follows, decided once a period
 * (eevdf_table.h). */
#include "eevdf_table.h"

#include <errno.h>
#include <linux/types.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf.h"
#include "eevdf_kernel.h"
#include "procscan.h"

#define MASK (EEVDF_TABLE_SLOTS - 1)
#define CHECK_EVERY 10		/* periods between checks of managed threads */

static uint32_t hash_tid(pid_t tid)
{
	return ((uint32_t)tid * 2654435761u) & MASK;
}

int eevdf_table_init(struct eevdf_table *t)
{
	t->slots = calloc(EEVDF_TABLE_SLOTS, sizeof(*t->slots));
	return t->slots ? 0 : -1;
}

void eevdf_table_free(struct eevdf_table *t)
{
	free(t->slots);
	t->slots = NULL;
}

/* Linear probing; the map holds at most half as many threads. */
static struct eevdf_slot *slot_get(struct eevdf_table *t, pid_t tid)
{
	uint32_t i = hash_tid(tid);

	while (t->slots[i].tid && t->slots[i].tid != tid)
		i = (i + 1) & MASK;
	if (!t->slots[i].tid) {
		memset(&t->slots[i], 0, sizeof(t->slots[i]));
		t->slots[i].tid = tid;
		t->slots[i].fresh = true;
		t->nr_used++;
	}
	return &t->slots[i];
}

/* Deletion that keeps every probe chain whole (backward shift). */
static void slot_del(struct eevdf_table *t, uint32_t i)
{
	uint32_t j = i;

	for (;;) {
		j = (j + 1) & MASK;
		if (!t->slots[j].tid)
			break;
		uint32_t home = hash_tid(t->slots[j].tid);

		/* may slot j move back to the hole at i? */
		if (((j - home) & MASK) >= ((j - i) & MASK)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].tid = 0;
	t->nr_used--;
}

static void leave_alone(struct eevdf_table *t, struct eevdf_slot *s)
{
	s->state = EEVDF_LEFT_ALONE;
	if (s->managed) {
		s->managed = false;
		t->nr_managed--;
		t->record_dirty = true;
	}
}

/* First change of a thread: is it ours to change, and what did it have? */
static bool take_over(struct eevdf_table *t, struct eevdf_slot *s)
{
	t->c.syscalls += 3;
	if (s->tgid == 1 || (!t->all_scopes && eevdf_thread_is_service(s->tid)) ||
	    gs_sched_getattr(s->tid, &s->rec.orig) != 0 ||
	    eevdf_attr_chosen(&t->levers, &s->rec.orig)) {
		leave_alone(t, s);
		return false;
	}
	s->rec.tid = s->tid;
	s->rec.start = eevdf_thread_start(s->tid);
	s->rec.applied = s->rec.orig;
	return s->rec.start != 0;
}

static const char *const class_names[EEVDF_NR_CLASSES] = {
	"normal", "critical", "top", "background",
};

/* -v: one line per change, with the readings behind it */
static void log_change(const struct eevdf_slot *s, enum eevdf_class from,
		       enum eevdf_class to, const struct eevdf_obs *o)
{
	char comm[16] = "?";
	uint64_t start;
	bool kthread;

	if (lavd_ps_read_stat("/proc", (int)s->tid, comm, &kthread, &start))
		strcpy(comm, "?");
	printf("eevdf: %d (%s) %s -> %s: lat_cri %llu, burst %.3f ms, "
	       "%.1f %% of a CPU\n", (int)s->tid, comm, class_names[from],
	       class_names[to], (unsigned long long)o->lat_cri,
	       (double)o->avg_runtime / 1e6, o->share / 10.0);
}

/*
 * Someone changed a managed thread's policy or nice: that stays theirs,
 * but what lavd set beside it (the slice request, uclamp, reset-on-fork)
 * goes back, or the next run would take the thread for one whose slice
 * someone chose.
 */
static void give_back_rest(struct eevdf_table *t, struct eevdf_slot *s,
			   const struct gs_sched_attr *now)
{
	struct gs_sched_attr back;

	eevdf_restore_attr(&t->levers, &s->rec.orig, &back);
	back.policy = now->policy;
	back.nice = now->nice;
	back.priority = now->priority;
	if (back.policy != s->rec.orig.policy)
		back.runtime = 0;
	t->c.syscalls++;
	gs_sched_setattr(s->tid, &back);
}

static bool still_ours(struct eevdf_table *t, struct eevdf_slot *s)
{
	struct gs_sched_attr now;

	t->c.syscalls++;
	if (gs_sched_getattr(s->tid, &now) != 0)
		return false;	/* gone: the sweep forgets it */
	if (!eevdf_rec_ours(&s->rec, &now)) {
		t->c.yielded++;
		give_back_rest(t, s, &now);
		leave_alone(t, s);
		return false;
	}
	return true;
}

static void apply_class(struct eevdf_table *t, struct eevdf_slot *s,
			enum eevdf_class cls)
{
	struct gs_sched_attr a;
	bool was_managed;

	if (!s->managed && cls == EEVDF_NORMAL)
		return;
	if (!s->managed && !take_over(t, s))
		return;
	/* someone changed it since: theirs now, not overwritten */
	if (s->managed && !still_ours(t, s))
		return;
	if (cls == EEVDF_NORMAL)
		eevdf_restore_attr(&t->levers, &s->rec.orig, &a);
	else
		eevdf_target(&t->levers, cls, &s->rec.orig, &a);
	/* a boost goes into the record before it is made */
	was_managed = s->managed;
	s->rec.prev = s->rec.applied;
	s->rec.applied = a;
	if (cls != EEVDF_NORMAL && !s->managed) {
		s->managed = true;
		t->nr_managed++;
	}
	t->record_dirty = true;
	if (cls != EEVDF_NORMAL && t->record && t->record(t) != 0)
		return;
	t->c.syscalls++;
	if (gs_sched_setattr(s->tid, &a) != 0) {
		bool gone = errno == ESRCH;

		if (!gone)
			t->c.errors++;
		s->rec.applied = s->rec.prev;
		/* what lavd had set stays in the record: given back at
		 * exit, or (a failed give-back) tried again next period; a
		 * thread whose first boost was refused is left be */
		if (gone || !was_managed)
			leave_alone(t, s);
		return;
	}
	t->c.changes++;
	if (cls == EEVDF_NORMAL && s->managed) {
		s->managed = false;
		t->nr_managed--;
	}
}

/* A managed thread someone else changed, or that left the scope. */
static void check_managed(struct eevdf_table *t, struct eevdf_slot *s)
{
	if (!still_ours(t, s))
		return;		/* its own decision now: not undone */
	t->c.syscalls++;
	if (!t->all_scopes && eevdf_thread_is_service(s->tid)) {
		apply_class(t, s, EEVDF_NORMAL);
		s->tr.cls = EEVDF_NORMAL;
		leave_alone(t, s);
	}
}

/* This period's observation of slot s from its map entry. */
static struct eevdf_obs observe(struct eevdf_slot *s, const struct eevdf_task *e,
				uint64_t elapsed_ns)
{
	struct eevdf_obs o = { .lat_cri = e->lat_cri, .avg_runtime = e->avg_runtime };
	uint64_t ran = e->sum_runtime - s->sum_runtime;

	/* a count that went back is a new entry of a reused tid */
	if (e->sum_runtime < s->sum_runtime)
		s->fresh = true;
	if (!s->fresh && elapsed_ns) {
		o.share = (uint32_t)(ran > elapsed_ns ? 1000 : ran * 1000 / elapsed_ns);
		o.ran = ran || e->nr_wakeups != s->nr_wakeups;
	}
	s->sum_runtime = e->sum_runtime;
	s->nr_wakeups = e->nr_wakeups;
	s->tgid = (pid_t)e->tgid;
	return o;
}

static void decide(struct eevdf_table *t, struct eevdf_slot *s,
		   const struct eevdf_obs *o)
{
	enum eevdf_class was = s->tr.cls, now;

	if (s->state == EEVDF_LEFT_ALONE)
		return;
	now = eevdf_step(&t->bounds, &s->tr,
			 eevdf_propose(&t->bounds, &t->c.sys, o, s->tr.cls,
				       t->top_allowed), o);
	if (was != EEVDF_NORMAL && was != EEVDF_BACKGROUND && now == EEVDF_NORMAL &&
	    eevdf_breaks_class(&t->bounds, was, o))
		t->c.guards++;
	if (now != was || (s->managed && now == EEVDF_NORMAL)) {
		if (t->verbose)
			log_change(s, was, now, o);
		apply_class(t, s, now);
	}
	if (s->state == EEVDF_LEFT_ALONE)
		s->tr.cls = EEVDF_NORMAL;
	else if (s->managed && t->epoch % CHECK_EVERY == 0)
		check_managed(t, s);
}

/* Threads not in the map any more have exited: forget them; count the
 * classes of the managed ones that stay (one pass over the table). */
static void sweep(struct eevdf_table *t)
{
	memset(t->c.nr_class, 0, sizeof(t->c.nr_class));
	for (uint32_t i = 0; i < EEVDF_TABLE_SLOTS; i++) {
		struct eevdf_slot *s = &t->slots[i];

		while (s->tid && s->epoch != t->epoch) {
			if (s->managed) {
				t->nr_managed--;
				t->record_dirty = true;
			}
			t->c.gone++;
			slot_del(t, i);	/* a later slot may shift into i */
		}
		if (s->tid && s->managed)
			t->c.nr_class[s->tr.cls]++;
	}
}

void eevdf_table_period(struct eevdf_table *t, const uint32_t *tids,
			const struct eevdf_task *tasks, int n, uint64_t elapsed_ns)
{
	static struct eevdf_obs obs[EEVDF_MAX_TASKS];
	static struct eevdf_slot *sl[EEVDF_MAX_TASKS];
	struct eevdf_sys_acc acc = { 0, 0, 0 };

	t->epoch++;
	n = n > EEVDF_MAX_TASKS ? EEVDF_MAX_TASKS : n;
	for (int i = 0; i < n; i++) {
		sl[i] = slot_get(t, (pid_t)tids[i]);
		sl[i]->epoch = t->epoch;
		obs[i] = observe(sl[i], &tasks[i], elapsed_ns);
		sl[i]->fresh = false;
		eevdf_sys_add(&acc, &obs[i]);
	}
	t->c.sys = eevdf_sys_finish(&acc);
	t->c.active = (uint32_t)acc.n;
	for (int i = 0; i < n; i++)
		decide(t, sl[i], &obs[i]);
	sweep(t);
	t->c.followed = t->nr_used;
}

int eevdf_table_records(const struct eevdf_table *t, struct eevdf_rec *out, int max)
{
	int n = 0;

	for (uint32_t i = 0; i < EEVDF_TABLE_SLOTS && n < max; i++)
		if (t->slots[i].tid && t->slots[i].managed)
			out[n++] = t->slots[i].rec;
	return n;
}

int eevdf_table_restore_all(struct eevdf_table *t)
{
	int n = 0;

	for (uint32_t i = 0; i < EEVDF_TABLE_SLOTS; i++) {
		struct eevdf_slot *s = &t->slots[i];
		struct gs_sched_attr now, back;

		if (!s->tid || !s->managed)
			continue;
		/* only what still shows our change: a thread that changed
		 * itself since keeps its own decision */
		if (gs_sched_getattr(s->tid, &now) == 0 &&
		    eevdf_rec_ours(&s->rec, &now)) {
			eevdf_restore_attr(&t->levers, &s->rec.orig, &back);
			if (gs_sched_setattr(s->tid, &back) == 0)
				n++;
		}
		s->managed = false;
	}
	t->nr_managed = 0;
	t->record_dirty = true;
	return n;
}
