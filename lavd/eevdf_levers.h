/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --eevdf, the levers: what each class of eevdf_policy.h asks of the
 * kernel's own scheduler for one thread, and the record that lets every
 * change be undone, also by a later run when this one was killed.
 *
 *   eevdf_levers.c   the attributes of a class (pure), the record file
 *   eevdf_apply.c    the syscalls: probe, apply, restore, scope
 */
#ifndef LAVD_EEVDF_LEVERS_H
#define LAVD_EEVDF_LEVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "eevdf_policy.h"
#include "schedattr.h"

/* which levers may be pulled (--eevdf-levers) */
#define EEVDF_LV_NICE	0x01u	/* critical tasks: a negative nice */
#define EEVDF_LV_SLICE	0x02u	/* critical tasks: a short custom slice */
#define EEVDF_LV_FIFO	0x04u	/* top tasks: SCHED_FIFO under guards */
#define EEVDF_LV_BG	0x08u	/* background tasks: a positive nice */
#define EEVDF_LV_IDLE	0x10u	/* background tasks: SCHED_IDLE instead */
#define EEVDF_LV_UCLAMP	0x20u	/* critical tasks: uclamp_min */
#define EEVDF_LV_DEFAULT (EEVDF_LV_NICE | EEVDF_LV_SLICE | EEVDF_LV_BG | \
			  EEVDF_LV_UCLAMP)

struct eevdf_levers {
	unsigned mask;			/* EEVDF_LV_* */
	int crit_nice;			/* -20..-1 */
	int bg_nice;			/* 1..19 */
	uint64_t slice_ns;		/* critical tasks' slice request */
	uint32_t uclamp_min;		/* 0..1024 */
	uint32_t fifo_prio;		/* 1..99 */
	uint64_t base_slice_ns;		/* what sched_getattr reports without a
					 * custom slice: restored as "none" */
};

/*
 * Parses "nice,slice,bg" (names of the EEVDF_LV_* bits; "none" alone is
 * no lever). Returns the mask, or -1 with the bad word in err.
 */
int eevdf_levers_parse(const char *list, char *err, size_t errlen);
/* The names of mask's bits, comma-separated, into buf. */
void eevdf_levers_name(unsigned mask, char *buf, size_t len);

/*
 * The attributes class cls asks for, from the task's original ones.
 * Normal gives the original back. Every boost sets reset-on-fork, so a
 * boosted thread's children start as the kernel would start them.
 */
void eevdf_target(const struct eevdf_levers *lv, enum eevdf_class cls,
		  const struct gs_sched_attr *orig, struct gs_sched_attr *out);
/* Does now still show what we applied (policy, nice, priority)? */
bool eevdf_attr_ours(const struct gs_sched_attr *now,
		     const struct gs_sched_attr *applied);
/* The attributes that restore orig (a base slice is "no custom slice"). */
void eevdf_restore_attr(const struct eevdf_levers *lv,
			const struct gs_sched_attr *orig, struct gs_sched_attr *out);
/* Left alone from the start: a policy, nice or slice someone chose. */
bool eevdf_attr_chosen(const struct eevdf_levers *lv,
		       const struct gs_sched_attr *orig);

/*
 * One changed thread, as the record keeps it. The record is written
 * before each change: applied is the change being made, prev what lavd
 * had set before it (orig for a first change), so that a run killed
 * between the record and the change is still undone.
 */
struct eevdf_rec {
	pid_t tid;
	unsigned long long start;	/* /proc/TID/stat starttime: the same thread */
	struct gs_sched_attr orig, applied, prev;
};

/* Does now show what lavd set, or was setting, to this thread? */
bool eevdf_rec_ours(const struct eevdf_rec *r, const struct gs_sched_attr *now);

/* One record line; 0, or -1 when the line is malformed. */
int eevdf_rec_format(const struct eevdf_rec *r, char *buf, size_t len);
int eevdf_rec_parse(const char *line, struct eevdf_rec *r);

#endif
