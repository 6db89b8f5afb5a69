// SPDX-License-Identifier: GPL-2.0-only
/* lavd --eevdf: what each class asks of the kernel, and the record
 * (eevdf_levers.h). No syscalls here: unit-tested on the host. */
#include "eevdf_levers.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	unsigned bit;
} lever_names[] = {
	{ "nice", EEVDF_LV_NICE },   { "slice", EEVDF_LV_SLICE },
	{ "fifo", EEVDF_LV_FIFO },   { "bg", EEVDF_LV_BG },
	{ "idle", EEVDF_LV_IDLE },   { "uclamp", EEVDF_LV_UCLAMP },
};
#define NR_LEVERS (sizeof(lever_names) / sizeof(lever_names[0]))

int eevdf_levers_parse(const char *list, char *err, size_t errlen)
{
	unsigned mask = 0;
	const char *p = list;

	if (!strcmp(list, "none"))
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i;

		for (i = 0; i < NR_LEVERS; i++)
			if (strlen(lever_names[i].name) == n &&
			    !strncmp(p, lever_names[i].name, n))
				break;
		if (i == NR_LEVERS) {
			snprintf(err, errlen, "unknown lever '%.*s' (expected a "
				 "comma-separated list of nice, slice, fifo, bg, "
				 "idle, uclamp, or none)", (int)(n > 32 ? 32 : n), p);
			return -1;
		}
		mask |= lever_names[i].bit;
		p += n;
		if (*p == ',' && *++p == '\0') {
			snprintf(err, errlen, "empty lever after the last ','");
			return -1;
		}
	}
	if (!mask) {
		snprintf(err, errlen, "no lever named");
		return -1;
	}
	return (int)mask;
}

void eevdf_levers_name(unsigned mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_LEVERS; i++)
		if ((mask & lever_names[i].bit) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? "," : "", lever_names[i].name);
	if (!mask)
		snprintf(buf, len, "none");
}

bool eevdf_attr_chosen(const struct eevdf_levers *lv,
		       const struct gs_sched_attr *orig)
{
	return orig->policy != SCHED_OTHER || orig->nice != 0 ||
	       orig->runtime != lv->base_slice_ns;
}

void eevdf_target(const struct eevdf_levers *lv, enum eevdf_class cls,
		  const struct gs_sched_attr *orig, struct gs_sched_attr *out)
{
	eevdf_restore_attr(lv, orig, out);
	if (cls == EEVDF_NORMAL)
		return;
	out->flags = GS_SCHED_FLAG_RESET_ON_FORK;
	if (cls == EEVDF_TOP && (lv->mask & EEVDF_LV_FIFO)) {
		out->policy = SCHED_FIFO;
		out->priority = lv->fifo_prio;
		out->nice = 0;
		out->runtime = 0;
		return;
	}
	if (cls == EEVDF_BACKGROUND) {
		if (lv->mask & EEVDF_LV_IDLE)
			out->policy = SCHED_IDLE;
		else if (lv->mask & EEVDF_LV_BG)
			out->nice = lv->bg_nice;
		return;
	}
	/* critical, or top without the FIFO lever */
	if (lv->mask & EEVDF_LV_NICE)
		out->nice = lv->crit_nice;
	if (lv->mask & EEVDF_LV_SLICE)
		out->runtime = lv->slice_ns;
	if (lv->mask & EEVDF_LV_UCLAMP) {
		out->flags |= GS_SCHED_FLAG_UTIL_CLAMP_MIN;
		out->util_min = lv->uclamp_min;
	}
}

bool eevdf_attr_ours(const struct gs_sched_attr *now,
		     const struct gs_sched_attr *applied)
{
	return now->policy == applied->policy && now->nice == applied->nice &&
	       now->priority == applied->priority;
}

void eevdf_restore_attr(const struct eevdf_levers *lv,
			const struct gs_sched_attr *orig, struct gs_sched_attr *out)
{
	*out = *orig;
	out->flags = orig->flags & GS_SCHED_FLAG_RESET_ON_FORK;
	/* sched_getattr reports the base slice of a task that asked for
	 * none; asking for it would make it a custom one */
	if (out->runtime == lv->base_slice_ns || out->policy != SCHED_OTHER)
		out->runtime = 0;
	out->deadline = out->period = 0;
	if (lv->mask & EEVDF_LV_UCLAMP) {
		out->flags |= GS_SCHED_FLAG_UTIL_CLAMP_MIN;
		out->util_min = orig->util_min;
	}
}

bool eevdf_rec_ours(const struct eevdf_rec *r, const struct gs_sched_attr *now)
{
	return eevdf_attr_ours(now, &r->applied) || eevdf_attr_ours(now, &r->prev);
}

int eevdf_rec_format(const struct eevdf_rec *r, char *buf, size_t len)
{
	const struct gs_sched_attr *o = &r->orig, *a = &r->applied, *p = &r->prev;
	int n = snprintf(buf, len,
			 "%d %llu  %" PRIu32 " %" PRId32 " %" PRIu32 " %" PRIu64
			 " %" PRIu64 " %" PRIu32 "  %" PRIu32 " %" PRId32 " %" PRIu32
			 "  %" PRIu32 " %" PRId32 " %" PRIu32 "\n",
			 (int)r->tid, r->start, o->policy, o->nice, o->priority,
			 o->runtime, o->flags, o->util_min, a->policy, a->nice,
			 a->priority, p->policy, p->nice, p->priority);

	return n > 0 && (size_t)n < len ? 0 : -1;
}

int eevdf_rec_parse(const char *line, struct eevdf_rec *r)
{
	struct gs_sched_attr *o = &r->orig, *a = &r->applied, *p = &r->prev;
	int tid, end = 0;

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "%d %llu %" SCNu32 " %" SCNd32 " %" SCNu32 " %" SCNu64
		   " %" SCNu64 " %" SCNu32 " %" SCNu32 " %" SCNd32 " %" SCNu32
		   " %" SCNu32 " %" SCNd32 " %" SCNu32 " %n",
		   &tid, &r->start, &o->policy, &o->nice, &o->priority, &o->runtime,
		   &o->flags, &o->util_min, &a->policy, &a->nice, &a->priority,
		   &p->policy, &p->nice, &p->priority, &end) != 14 ||
	    line[end] != '\0' || tid <= 1)
		return -1;
	if (o->nice < -20 || o->nice > 19 || a->nice < -20 || a->nice > 19 ||
	    p->nice < -20 || p->nice > 19)
		return -1;
	r->tid = tid;
	o->util_max = 1024;
	return 0;
}
