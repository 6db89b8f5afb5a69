/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf's view of the threads it follows: one slot per thread
 * seen in the tracepoint programs' map, with its last readings, its class
 * and hysteresis (eevdf_policy.h), and, once lavd changed it, what it had
 * before. Each period: eevdf_table_period() takes the map's contents,
 * decides, applies, forgets the threads that are gone.
 */
#ifndef LAVD_EEVDF_TABLE_H
#define LAVD_EEVDF_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "eevdf_levers.h"
#include "eevdf_policy.h"

struct eevdf_task;

enum eevdf_slot_state {
	EEVDF_FOLLOWED,		/* decided on each period */
	EEVDF_LEFT_ALONE,	/* someone else's: a chosen policy, a service,
				 * a nice it changed itself, no permission */
};

struct eevdf_slot {
	pid_t tid, tgid;		/* tid 0: a free slot */
	uint32_t epoch;			/* the last period it was seen */
	uint64_t sum_runtime;		/* the last readings */
	uint32_t nr_wakeups;
	bool fresh;			/* no reading before this period */
	uint8_t state;			/* enum eevdf_slot_state */
	bool managed;			/* lavd changed it: rec is valid */
	struct eevdf_track tr;
	struct eevdf_rec rec;
};

struct eevdf_counts {
	uint64_t changes;		/* class changes applied */
	uint64_t syscalls;		/* sched_{get,set}attr and /proc reads */
	uint64_t errors;		/* sched_setattr refused (not ESRCH) */
	uint64_t yielded;		/* a thread changed its own attributes */
	uint64_t guards;		/* left a boost at once: a bound broken */
	uint64_t gone;			/* forgotten: exited */
	uint32_t nr_class[EEVDF_NR_CLASSES];
	uint32_t followed, active;
	struct eevdf_sys sys;
};

struct eevdf_table {
	struct eevdf_slot *slots;	/* EEVDF_TABLE_SLOTS */
	uint32_t epoch;
	uint32_t nr_used;
	uint32_t nr_managed;
	bool record_dirty;		/* the managed set changed */
	bool all_scopes;		/* --eevdf-scope all */
	bool top_allowed;		/* the fifo lever is on */
	bool verbose;			/* a line for every class change */
	/* writes the record now (eevdf.c): before each boost; 0 or -1 */
	int (*record)(struct eevdf_table *t);
	struct eevdf_bounds bounds;
	struct eevdf_levers levers;
	struct eevdf_counts c;
};

#define EEVDF_TABLE_SLOTS 65536u	/* a power of two, 2x the map */

int eevdf_table_init(struct eevdf_table *t);
void eevdf_table_free(struct eevdf_table *t);

/* One period: n entries of the map (tids[i], tasks[i]), elapsed_ns since
 * the last. Decides and applies; checks managed threads every tenth. */
void eevdf_table_period(struct eevdf_table *t, const uint32_t *tids,
			const struct eevdf_task *tasks, int n, uint64_t elapsed_ns);

/* The managed threads' records, for the record file (up to max). */
int eevdf_table_records(const struct eevdf_table *t, struct eevdf_rec *out, int max);

/* Every managed thread back to what it had; returns how many. */
int eevdf_table_restore_all(struct eevdf_table *t);

#endif
