// SPDX-License-Identifier: GPL-2.0-only
/*
 * Work distributions of the workload profiles (fbprofile.h): sampling, the mean, and
 * the profile text they are written as.
 */
#include <math.h>
#include <stdio.h>

#include "fbprofile.h"
#include "rng.h"
#include "util.h"

uint32_t fb_dist_sample(const struct fb_dist *d, struct gs_rng *r)
{
	double v;

	switch (d->kind) {
	case FB_DIST_UNIFORM:
		v = gs_rng_uniform(r, d->a, d->b);
		break;
	case FB_DIST_NORMAL:
		v = d->a + d->b * gs_rng_normal(r);
		break;
	case FB_DIST_TWOPIECE: {
		/* half a normal of sd b below the median, of sd c above it */
		double z = gs_rng_normal(r);

		v = d->a + (z < 0 ? d->b : d->c) * z;
		break;
	}
	default:
		v = d->a;
		break;
	}
	if (!(v > 0))
		return 0;
	if (v > (double)FB_MAX_WORK_NS)
		v = (double)FB_MAX_WORK_NS;
	return (uint32_t)llround(v);
}

double fb_dist_mean(const struct fb_dist *d)
{
	return d->kind == FB_DIST_UNIFORM    ? (d->a + d->b) / 2
	       : d->kind == FB_DIST_TWOPIECE ? fb_twopiece_mean(d->a, d->b, d->c)
					     : d->a;
}

void fb_dist_format(const struct fb_dist *d, char *buf, size_t len)
{
	switch (d->kind) {
	case FB_DIST_UNIFORM:
		snprintf(buf, len, "%gus..%gus", d->a / 1e3, d->b / 1e3);
		break;
	case FB_DIST_NORMAL:
		snprintf(buf, len, "%gus~%gus", d->a / 1e3, d->b / 1e3);
		break;
	case FB_DIST_TWOPIECE:
		snprintf(buf, len, "%gus~%gus/%gus", d->a / 1e3, d->b / 1e3, d->c / 1e3);
		break;
	default:
		snprintf(buf, len, "%gus", d->a / 1e3);
		break;
	}
}
