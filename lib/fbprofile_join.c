// SPDX-License-Identifier: GPL-2.0-only
/*
 * Asynchronous fan-outs of the workload profiles (fbprofile.h): a stage
 * that issues jobs with `fanout N DIST async` goes on without waiting for
 * them, and its `join` step waits. A join after the fan-out waits in the
 * same frame (the steps between overlap the jobs); a join before it waits
 * for the jobs of the stage's previous frame, so the pool works on frame
 * N while the stage works on frame N+1: what engines do with their job
 * systems, and what a replay needs to keep the game's CPUs busy.
 */
#include <stdio.h>

#include "fbprofile.h"

int fb_stage_check_async(const struct fb_stage *st, const char *source,
			 char *err, size_t errlen)
{
	const struct fb_step *fan = NULL, *join = NULL;

	for (unsigned i = 0; i < st->nsteps; i++) {
		const struct fb_step *s = &st->step[i];
		const char *what = NULL;

		if (s->kind == FB_STEP_FANOUT && s->async) {
			if (fan)
				what = "one 'fanout ... async' per stage";
			else if (s->prob < 1.0)
				what = "an asynchronous fan-out in every frame "
				       "(no p=)";
			fan = s;
		} else if (s->kind == FB_STEP_JOIN) {
			if (join)
				what = "one 'join' per stage";
			join = s;
		}
		if (what) {
			snprintf(err, errlen, "%s:%d: expected %s", source,
				 s->line, what);
			return -1;
		}
	}
	if ((fan != NULL) != (join != NULL)) {
		snprintf(err, errlen, "%s:%d: expected %s in stage %s", source,
			 (fan ? fan : join)->line,
			 fan ? "a 'join' step for the asynchronous fan-out"
			     : "a 'fanout ... async' for the join",
			 st->name);
		return -1;
	}
	return 0;
}

bool fb_stage_join_first(const struct fb_stage *st)
{
	for (unsigned i = 0; i < st->nsteps; i++) {
		if (st->step[i].kind == FB_STEP_JOIN)
			return true;
		if (st->step[i].kind == FB_STEP_FANOUT && st->step[i].async)
			return false;
	}
	return false;
}
