// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stage's steps in a workload profile (fbprofile_parse.h): work, call a
 * service, fan out to the job workers, join them, hold a lock; each with
 * its options (p=, and a fan-out's lock=, hold= and async).
 */
#include <stdio.h>
#include <string.h>

#include "fbprofile_parse.h"

/* The step's kind and the words after it; the index of its first option,
 * or -1 after the message. */
static int step_kind(struct pctx *c, struct fb_step *s, char **tok, int ntok)
{
	if (!strcmp(tok[0], "work")) {
		s->kind = FB_STEP_WORK;
		if (ntok < 2)
			return fbp_fail(c, fbp_dist_what, NULL);
		if (fbp_parse_dist(tok[1], &s->work))
			return fbp_fail(c, fbp_dist_what, tok[1]);
		return 2;
	} else if (!strcmp(tok[0], "call")) {
		s->kind = FB_STEP_CALL;
		if (ntok < 2)
			return fbp_fail(c, "a service name after 'call'", NULL);
		if (fbp_lookup_service(c, tok[1], &s->target))
			return -1;
		s->work = c->p->service[s->target].work;
		if (ntok > 2 && !strchr(tok[2], '=')) {
			if (fbp_parse_dist(tok[2], &s->work))
				return fbp_fail(c, fbp_dist_what, tok[2]);
			return 3;
		}
		return 2;
	} else if (!strcmp(tok[0], "fanout")) {
		s->kind = FB_STEP_FANOUT;
		if (fbp_parse_uint(c, ntok > 1 ? tok[1] : NULL, 1, FB_MAX_JOBS,
			       "a job count in [1, 64] after 'fanout'",
			       &s->jobs))
			return -1;
		if (ntok < 3)
			return fbp_fail(c, fbp_dist_what, NULL);
		if (fbp_parse_dist(tok[2], &s->work))
			return fbp_fail(c, fbp_dist_what, tok[2]);
		return 3;
	} else if (!strcmp(tok[0], "join")) {
		s->kind = FB_STEP_JOIN;
		if (ntok > 1)
			return fbp_fail(c, "end of line after 'join'", tok[1]);
		return 1;
	} else {	/* lock */
		s->kind = FB_STEP_LOCK;
		if (ntok < 2)
			return fbp_fail(c, "a mutex name after 'lock'", NULL);
		if (fbp_lookup_lock(c, tok[1], &s->target))
			return -1;
		if (ntok < 3)
			return fbp_fail(c, fbp_dist_what, NULL);
		if (fbp_parse_dist(tok[2], &s->work))
			return fbp_fail(c, fbp_dist_what, tok[2]);
		return 3;
	}
}

/* The step's KEY=VALUE options from tok[first]; -1 after the message. */
static int step_options(struct pctx *c, struct fb_step *s, char **tok,
			int ntok, int first, bool *have_hold)
{
	for (int i = first; i < ntok; i++) {
		char *key = tok[i], *v = fbp_opt_value(tok[i]);
		const char *opts = s->kind == FB_STEP_FANOUT
					   ? "p=, lock=, hold=, even or async"
					   : "p=PROBABILITY";

		if (!v && s->kind == FB_STEP_FANOUT && !strcmp(key, "async")) {
			s->async = true;
			continue;
		}
		if (!v && s->kind == FB_STEP_FANOUT && !strcmp(key, "even")) {
			s->even = true;
			continue;
		}
		if (!v || !*v)
			return fbp_fail(c, opts, key);
		if (!strcmp(key, "p")) {
			if (fbp_parse_prob(c, v, &s->prob))
				return -1;
		} else if (!strcmp(key, "lock") && s->kind == FB_STEP_FANOUT) {
			if (fbp_lookup_lock(c, v, &s->target))
				return -1;
		} else if (!strcmp(key, "hold") && s->kind == FB_STEP_FANOUT) {
			if (fbp_parse_dist(v, &s->hold))
				return fbp_fail(c, fbp_dist_what, v);
			*have_hold = true;
		} else {
			return fbp_fail(c, opts, key);
		}
	}
	return 0;
}

int fbp_parse_step(struct pctx *c, char **tok, int ntok)
{
	struct fb_stage *st;
	struct fb_step *s;
	int first_opt;
	bool have_hold = false;

	if (c->stage < 0) {
		char what[96];

		snprintf(what, sizeof(what), "a 'stage NAME' line before the "
			 "step '%s'", tok[0]);
		return fbp_fail(c, what, tok[0]);
	}
	st = &c->p->stage[c->stage];
	if (st->nsteps >= FB_MAX_STEPS)
		return fbp_fail(c, "at most 32 steps per stage", tok[0]);
	s = &st->step[st->nsteps];
	memset(s, 0, sizeof(*s));
	s->prob = 1.0;
	s->target = -1;
	s->line = c->line;

	first_opt = step_kind(c, s, tok, ntok);
	if (first_opt < 0 || step_options(c, s, tok, ntok, first_opt, &have_hold))
		return -1;
	if (s->kind == FB_STEP_FANOUT) {
		unsigned total = 0;

		if ((s->target >= 0) != have_hold)
			return fbp_fail(c, "lock= and hold= together", NULL);
		for (unsigned k = 0; k < st->nsteps; k++)
			if (st->step[k].kind == FB_STEP_FANOUT)
				total += st->step[k].jobs;
		if (total + s->jobs > FB_MAX_STAGE_JOBS)
			return fbp_fail(c, "at most 256 jobs in the fan-outs of one "
				    "stage", tok[1]);
	}
	st->nsteps++;
	return 0;
}

