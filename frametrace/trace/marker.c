// SPDX-License-Identifier: GPL-2.0-only
#include "marker.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ftutil.h"
#include "stats.h"

static int parse_u32(const char *s, const char *end, uint32_t *out)
{
	uint64_t v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

int ft_atrace_parse(const char *s, struct ft_atrace *a)
{
	const char *f[5];
	size_t flen[5];
	int nf = 0;
	const char *p = s;
	size_t len = strlen(s);

	memset(a, 0, sizeof(*a));
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' ||
		       s[len - 1] == ' ' || s[len - 1] == '\0'))
		len--;
	if (len < 1)
		return -1;
	/* split on '|' into at most 5 fields (the last keeps the rest) */
	while (nf < 5) {
		const char *bar = memchr(p, '|', len - (size_t)(p - s));

		f[nf] = p;
		if (!bar || nf == 4) {
			flen[nf++] = len - (size_t)(p - s);
			break;
		}
		flen[nf++] = (size_t)(bar - p);
		p = bar + 1;
	}
	if (flen[0] != 1 || !strchr("BECSF", f[0][0]))
		return -1;
	a->kind = f[0][0];
	if (nf >= 2 && flen[1] &&
	    parse_u32(f[1], f[1] + flen[1], &a->tgid))
		return -1;
	if (a->kind == 'E')
		return 0;
	if (nf < 3 || !flen[2])
		return -1;
	{
		size_t n = flen[2] < sizeof(a->name) - 1 ? flen[2]
							  : sizeof(a->name) - 1;

		/* for C/S/F the name ends at the next field */
		memcpy(a->name, f[2], n);
		a->name[n] = '\0';
		if (a->kind == 'B') {
			/* B|tgid|name|args: keep the name only */
			char *bar = strchr(a->name, '|');

			if (bar)
				*bar = '\0';
		}
	}
	if (a->kind == 'C' || a->kind == 'S' || a->kind == 'F') {
		char buf[64], *end;
		size_t n;

		if (nf < 4 || !flen[3] || flen[3] >= sizeof(buf))
			return -1;
		n = flen[3];
		memcpy(buf, f[3], n);
		buf[n] = '\0';
		/* C|tgid|name|value|category: the value ends at '|' */
		end = strchr(buf, '|');
		if (end)
			*end = '\0';
		errno = 0;
		if (a->kind == 'C') {
			a->value = strtod(buf, &end);
			if (errno || *end || end == buf || !isfinite(a->value))
				return -1;
		} else {
			a->cookie = strtoll(buf, &end, 10);
			if (errno || *end || end == buf)
				return -1;
		}
	}
	return 0;
}

bool ft_is_frame_name(const char *name)
{
	return !strncasecmp(name, "frame", 5);
}

double ft_frametime_counter_scale(const char *name)
{
	size_t n = strlen(name);

	if (strncasecmp(name, "frametime", 9) &&
	    strncasecmp(name, "frame_time", 10))
		return 0;
	if (n > 3 && !strcasecmp(name + n - 3, "_ns"))
		return 1;
	if (n > 3 && !strcasecmp(name + n - 3, "_us"))
		return 1e3;
	return 1e6;
}

uint64_t ft_frametime_counter_ns(const struct ft_atrace *a)
{
	double ns = a->value * ft_frametime_counter_scale(a->name);

	/* 0, 1e-300 or a negative value is no frame time, nor a year */
	if (!(ns >= GS_MIN_FRAME_MS * 1e6) || ns >= 1e15)
		return 0;
	return (uint64_t)ns;
}

static int frame_cmp(const void *a, const void *b)
{
	const struct ft_frame *x = a, *y = b;

	if (x->present_ns != y->present_ns)
		return x->present_ns < y->present_ns ? -1 : 1;
	return 0;
}

void ft_frames_fix(struct ft_trace *t)
{
	struct ft_map last;

	if (t->nframes > 1)
		qsort(t->frames, t->nframes, sizeof(*t->frames), frame_cmp);
	ft_map_init(&last);
	for (size_t i = 0; i < t->nframes; i++) {
		struct ft_frame *f = &t->frames[i];
		uint32_t *prev = ft_map_get(&last, f->pid);

		if (!f->frametime_ns) {
			if (prev)
				f->frametime_ns = f->present_ns -
						  t->frames[*prev].present_ns;
			else if (f->start_ns && f->start_ns <= f->present_ns)
				f->frametime_ns = f->present_ns - f->start_ns;
		}
		if (prev)
			*prev = (uint32_t)i;
		else
			ft_map_put(&last, f->pid, (uint32_t)i, NULL);
	}
	ft_map_free(&last);
}

#define STACK_MAX 16

struct open_slices {
	uint32_t depth;
	uint64_t ts[STACK_MAX];
	bool frame[STACK_MAX];
	uint32_t tgid[STACK_MAX];
};

struct begin {
	uint64_t ts;
	uint32_t tgid;
	bool used;
};

/* What one pass over the markers collects. */
struct marks {
	struct ft_map tidmap;		/* tid -> its open B..E slices */
	struct ft_map async;		/* (tgid, cookie) -> its S start */
	struct ft_map has_counter;	/* tgids with frame-time counters */
	struct ft_map cursor;		/* tgid -> next begin to try */
	struct ft_map has_begin;	/* tgids with frame begins */
	struct open_slices *st;
	size_t nst, stcap;
	uint64_t *astart;
	size_t nas, ascap;
	struct ft_frame *slices, *counters;
	size_t nsl, slcap, ncnt, cntcap;
	struct begin *bg;
	size_t nbg, bgcap;
};

static int marks_begin(struct marks *M, uint64_t ts, uint32_t tgid)
{
	if (FT_VEC_RESERVE(M->bg, M->nbg, M->bgcap))
		return -1;
	M->bg[M->nbg++] = (struct begin){ ts, tgid, false };
	return 0;
}

static int marks_slice(struct marks *M, const struct ft_frame *f)
{
	if (FT_VEC_RESERVE(M->slices, M->nsl, M->slcap))
		return -1;
	M->slices[M->nsl++] = *f;
	return 0;
}

/* B..E: a stack per thread; a "frame" slice's end is its present. */
static int marks_nested(struct marks *M, const struct ft_ev *e,
			const struct ft_atrace *a, uint32_t tgid)
{
	bool isnew;
	uint32_t *v = ft_map_put(&M->tidmap, e->tid, (uint32_t)M->nst, &isnew);
	struct open_slices *o;

	if (!v)
		return -1;
	if (isnew) {
		if (FT_VEC_RESERVE(M->st, M->nst, M->stcap))
			return -1;
		memset(&M->st[M->nst], 0, sizeof(M->st[M->nst]));
		M->nst++;
	}
	o = &M->st[*v];
	if (a->kind == 'B') {
		bool fr = ft_is_frame_name(a->name);

		if (o->depth < STACK_MAX) {
			o->ts[o->depth] = e->ts;
			o->frame[o->depth] = fr;
			o->tgid[o->depth] = tgid;
		}
		o->depth++;
		if (fr && marks_begin(M, e->ts, tgid))
			return -1;
	} else if (o->depth) {
		o->depth--;
		if (o->depth < STACK_MAX && o->frame[o->depth]) {
			struct ft_frame f = {
				.start_ns = o->ts[o->depth],
				.present_ns = e->ts,
				.pid = o->tgid[o->depth],
				.tid = e->tid,
				.flags = FT_FRAME_MARKER,
			};

			if (marks_slice(M, &f))
				return -1;
		}
	}
	return 0;
}

/* S..F: async slices, matched by process and cookie. */
static int marks_async(struct marks *M, const struct ft_ev *e,
		       const struct ft_atrace *a, uint32_t tgid)
{
	uint64_t key = ((uint64_t)tgid << 32) ^ (uint64_t)a->cookie;
	bool isnew;
	uint32_t *v;

	if (key == UINT64_MAX)
		key--;
	if (a->kind == 'S') {
		v = ft_map_put(&M->async, key, (uint32_t)M->nas, &isnew);
		if (!v || FT_VEC_RESERVE(M->astart, M->nas, M->ascap))
			return -1;
		if (isnew)
			M->astart[M->nas++] = e->ts;
		else
			M->astart[*v] = e->ts;
		return marks_begin(M, e->ts, tgid);
	}
	v = ft_map_get(&M->async, key);
	if (v && M->astart[*v]) {
		struct ft_frame f = {
			.start_ns = M->astart[*v],
			.present_ns = e->ts,
			.pid = tgid,
			.tid = e->tid,
			.flags = FT_FRAME_MARKER,
		};

		M->astart[*v] = 0;
		if (marks_slice(M, &f))
			return -1;
	}
	return 0;
}

/* C: a frame-time counter at a present. */
static int marks_counter(struct marks *M, const struct ft_ev *e,
			 const struct ft_atrace *a, uint32_t tgid)
{
	uint64_t ns = ft_frametime_counter_ns(a);

	if (ns) {
		struct ft_frame f = {
			.present_ns = e->ts,
			.frametime_ns = ns,
			.pid = tgid,
			.tid = e->tid,
			.flags = FT_FRAME_MARKER,
		};

		if (FT_VEC_RESERVE(M->counters, M->ncnt, M->cntcap) ||
		    !ft_map_put(&M->has_counter, tgid, 1, NULL))
			return -1;
		M->counters[M->ncnt++] = f;
	}
	return 0;
}

/* Each counter's frame starts at the oldest unused frame begin. */
static int marks_counter_frames(struct marks *M, struct ft_trace *t)
{
	for (size_t k = 0; k < M->nbg; k++)
		if (!ft_map_put(&M->has_begin, M->bg[k].tgid, 1, NULL))
			return -1;
	for (size_t i = 0; i < M->ncnt; i++) {
		struct ft_frame f = M->counters[i];
		bool isnew;
		uint32_t *cur = ft_map_put(&M->cursor, f.pid, 0, &isnew);
		struct begin *bg = M->bg;
		size_t k;

		if (!cur)
			return -1;
		/* the oldest unused frame begin of this process, or of any
		 * process when this one starts none (framebench presents from
		 * its compositor process) */
		bool own = ft_map_get(&M->has_begin, f.pid) != NULL;

		if (!own) {
			cur = ft_map_put(&M->cursor, UINT32_MAX, 0, &isnew);
			if (!cur)
				return -1;
		}
		for (k = *cur; k < M->nbg; k++)
			if ((!own || bg[k].tgid == f.pid) && !bg[k].used)
				break;
		if (k < M->nbg && bg[k].ts <= f.present_ns) {
			bg[k].used = true;
			f.start_ns = bg[k].ts;
			f.pid = bg[k].tgid;
			*cur = (uint32_t)(k + 1);
			/* its frame slices are starts, not whole frames */
			if (!ft_map_put(&M->has_counter, bg[k].tgid, 1, NULL))
				return -1;
		} else if (f.frametime_ns <= f.present_ns) {
			f.start_ns = f.present_ns - f.frametime_ns;
		}
		if (ft_frame_push(t, &f))
			return -1;
	}
	return 0;
}

/*
 * Two shapes of frame markers:
 *  - a frame-time counter at each present (framebench: C|tgid|frametime_us|v,
 *    written by the presenting thread), with "frame N" slices marking frame
 *    starts: frames come from the counters, each taking the oldest unused
 *    frame-slice begin of its process as its start (frames start and
 *    present in order);
 *  - otherwise a "frame" slice (B..E or S..F) spanning start to present.
 */
long ft_frames_from_marks(struct ft_trace *t)
{
	struct marks M = { 0 };
	size_t before = t->nframes;
	long rc = -1;

	ft_map_init(&M.tidmap);
	ft_map_init(&M.async);
	ft_map_init(&M.has_counter);
	ft_map_init(&M.cursor);
	ft_map_init(&M.has_begin);
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];
		struct ft_atrace a;
		uint32_t tgid;
		int err = 0;

		if (e->type != FT_EV_MARK ||
		    ft_atrace_parse(ft_str_get(t, e->arg2), &a))
			continue;
		tgid = a.tgid ? a.tgid : e->arg;
		if (a.kind == 'B' || a.kind == 'E')
			err = marks_nested(&M, e, &a, tgid);
		else if ((a.kind == 'S' || a.kind == 'F') &&
			 ft_is_frame_name(a.name))
			err = marks_async(&M, e, &a, tgid);
		else if (a.kind == 'C')
			err = marks_counter(&M, e, &a, tgid);
		if (err)
			goto out;
	}
	if (marks_counter_frames(&M, t))
		goto out;
	for (size_t i = 0; i < M.nsl; i++)
		if (!ft_map_get(&M.has_counter, M.slices[i].pid) &&
		    ft_frame_push(t, &M.slices[i]))
			goto out;
	ft_frames_fix(t);
	rc = (long)(t->nframes - before);
out:
	free(M.st);
	free(M.astart);
	free(M.slices);
	free(M.counters);
	free(M.bg);
	ft_map_free(&M.tidmap);
	ft_map_free(&M.async);
	ft_map_free(&M.has_counter);
	ft_map_free(&M.cursor);
	ft_map_free(&M.has_begin);
	return rc;
}

long ft_frames_annotate_tids(struct ft_trace *t)
{
	size_t j = 0;
	long n = 0;

	/* frames and events are both sorted by time */
	for (size_t i = 0; i < t->nframes; i++) {
		struct ft_frame *f = &t->frames[i];

		if (f->tid)
			continue;
		while (j < t->nev && t->ev[j].ts + 50000 < f->present_ns)
			j++;
		for (size_t k = j; k < t->nev && t->ev[k].ts <= f->present_ns + 500000; k++) {
			const struct ft_ev *e = &t->ev[k];
			struct ft_atrace a;

			double scale, v, d;

			if (e->type != FT_EV_MARK ||
			    ft_atrace_parse(ft_str_get(t, e->arg2), &a) ||
			    a.kind != 'C')
				continue;
			scale = ft_frametime_counter_scale(a.name);
			if (!scale)
				continue;
			/* the counter carries this frame's time (the presenting
			 * thread may live in another process, a compositor) */
			v = a.value * scale;
			d = v - (double)f->frametime_ns;
			if (d < 0)
				d = -d;
			if (f->frametime_ns ? d > 2000 + (double)f->frametime_ns * 1e-3
					    : (a.tgid ? a.tgid : e->arg) != f->pid)
				continue;
			f->tid = e->tid;
			n++;
			break;
		}
	}
	return n;
}
