// SPDX-License-Identifier: GPL-2.0-only
/* The game threads' scheduling attributes (gameprio.h). */
#include "gameprio.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "schedattr.h"

int fb_gameprio_apply(const struct fb_gameprio *gp, int rt_prio, char *err,
		      size_t errlen)
{
	struct gs_sched_attr a;

	if (!gp->rt && !gp->nice_set && !gp->slice_us)
		return 0;
	if (gs_sched_getattr(0, &a) < 0) {
		snprintf(err, errlen, "sched_getattr: %s", strerror(errno));
		return -1;
	}
	if (gp->rt) {
		a.policy = SCHED_FIFO;
		a.priority = (uint32_t)rt_prio;
	} else {
		a.policy = SCHED_OTHER;
		a.priority = 0;
	}
	if (gp->nice_set)
		a.nice = gp->nice;
	/* SCHED_OTHER's sched_runtime is EEVDF's slice request (6.12+) */
	a.runtime = gp->rt ? 0 : (uint64_t)gp->slice_us * 1000;
	a.flags = 0;
	if (gs_sched_setattr(0, &a) < 0) {
		snprintf(err, errlen, "%s%s%s: %s", gp->rt ? "SCHED_FIFO" : "",
			 gp->nice_set ? " nice" : "",
			 gp->slice_us ? " custom slice" : "", strerror(errno));
		return -1;
	}
	return 0;
}

static int check_here(const struct fb_gameprio *gp, char *err, size_t errlen)
{
	struct gs_sched_attr now;
	const char *opt = gp->rt ? "--rt" : gp->nice_set ? "--nice" : "--slice-us";
	char why[160];

	if (fb_gameprio_apply(gp, 1, why, sizeof(why))) {
		snprintf(err, errlen, "option %s: not permitted here (%s); a "
			 "negative nice and SCHED_FIFO need root or CAP_SYS_NICE",
			 opt, why);
		return -1;
	}
	/* a kernel before 6.12 takes sched_runtime and ignores it */
	if (gp->slice_us && gs_sched_getattr(0, &now) == 0 &&
	    now.runtime != (uint64_t)gp->slice_us * 1000) {
		snprintf(err, errlen, "option --slice-us: this kernel keeps no "
			 "custom slice for SCHED_OTHER (asked %u us, kept %llu "
			 "ns; EEVDF's slice request needs Linux 6.12 or later)",
			 gp->slice_us, (unsigned long long)now.runtime);
		return -1;
	}
	return 0;
}

struct check_args {
	const struct fb_gameprio *gp;
	char *err;
	size_t errlen;
	int rc;
};

static void *check_thread(void *p)
{
	struct check_args *c = p;

	c->rc = check_here(c->gp, c->err, c->errlen);
	return NULL;
}

/* In a thread of its own: attributes are per thread on Linux, and a raised
 * nice could not be lowered again without privilege. */
int fb_gameprio_check(const struct fb_gameprio *gp, char *err, size_t errlen)
{
	struct check_args c = { gp, err, errlen, -1 };
	pthread_t t;
	int e = pthread_create(&t, NULL, check_thread, &c);

	if (e) {
		snprintf(err, errlen, "cannot start a thread: %s", strerror(e));
		return -1;
	}
	pthread_join(t, NULL);
	return c.rc;
}
