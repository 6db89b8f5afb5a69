// SPDX-License-Identifier: GPL-2.0-only
/* Time dilation of a workload profile (dilate.h). */
#include "dilate.h"

#include <math.h>
#include <stdio.h>

static void stretch(struct fb_dist *d, double k)
{
	/* uniform [a, b] and normal (mean a, sd b) both scale linearly */
	d->a *= k;
	d->b *= k;
}

int fb_dilate_profile(struct fb_profile *p, double k, char *err, size_t errlen)
{
	if (k == 1.0)
		return 0;
	if (p->fps) {
		double f = p->fps / k;

		if (f < 1 || fabs(f - round(f)) > 1e-9) {
			snprintf(err, errlen, "option --dilate: %s's %u FPS "
				 "divided by %g is not a whole frame rate (try "
				 "a K that divides %u, e.g. 2, 3 or 4)",
				 p->name, p->fps, k, p->fps);
			return -1;
		}
		p->fps = (unsigned)round(f);
	}
	for (unsigned s = 0; s < p->nstages; s++)
		for (unsigned i = 0; i < p->stage[s].nsteps; i++) {
			stretch(&p->stage[s].step[i].work, k);
			stretch(&p->stage[s].step[i].hold, k);
		}
	for (unsigned s = 0; s < p->nservices; s++)
		stretch(&p->service[s].work, k);
	for (int i = 0; i < FB_PER_N; i++) {
		struct fb_periodic *q = &p->periodic[i];

		q->period_ns = (uint64_t)llround((double)q->period_ns * k);
		q->deadline_ns = (uint64_t)llround((double)q->deadline_ns * k);
		stretch(&q->work, k);
		stretch(&q->hold, k);
	}
	return 0;
}
