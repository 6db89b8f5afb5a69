// SPDX-License-Identifier: GPL-2.0-only
#include "disturb.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "plan.h"
#include "rng.h"
#include "sync.h"
#include "work.h"

int fb_disturb_parse(const char *s, unsigned ncpus, uint64_t *period_ns,
		     uint64_t *len_ns, unsigned *threads, char *err,
		     size_t errlen)
{
	char buf[128], *part[3] = { NULL, NULL, NULL };
	unsigned n = 0;
	uint64_t v;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "expected PERIOD[:LEN[:THREADS]]");
		return -1;
	}
	strcpy(buf, s);
	for (char *q = buf, *c; n < 3; q = c + 1) {
		part[n++] = q;
		c = strchr(q, ':');
		if (!c)
			break;
		*c = '\0';
		if (n == 3) {
			snprintf(err, errlen, "expected PERIOD[:LEN[:THREADS]]");
			return -1;
		}
	}
	if (gs_parse_duration_ns(part[0], NSEC_PER_SEC, period_ns) ||
	    *period_ns < 10 * NSEC_PER_MSEC || *period_ns > 24 * 3600 * NSEC_PER_SEC) {
		snprintf(err, errlen, "expected a PERIOD between 10ms and 24h "
			 "(e.g. 3m), got '%s'", part[0]);
		return -1;
	}
	*len_ns = 200 * NSEC_PER_MSEC;
	if (part[1] && (gs_parse_duration_ns(part[1], NSEC_PER_MSEC, &v) ||
			v < NSEC_PER_MSEC || v > *period_ns)) {
		snprintf(err, errlen, "expected a LEN between 1ms and the "
			 "period (e.g. 200ms), got '%s'", part[1]);
		return -1;
	}
	if (part[1])
		*len_ns = v;
	*threads = ncpus ? ncpus : 1;
	if (part[2]) {
		if (gs_parse_u64(part[2], 1, 64, &v)) {
			snprintf(err, errlen, "expected THREADS in [1, 64], "
				 "got '%s'", part[2]);
			return -1;
		}
		*threads = (unsigned)v;
	}
	return 0;
}

static void *hog_main(void *arg)
{
	struct fb_disturb *d = arg;
	struct fb_shm *sh = d->e->sh;
	uint32_t seen = 0;
	uint64_t slept_at;

	for (;;) {
		uint64_t end;

		if (fb_wait_while_eq(sh, &d->go, seen, &slept_at) < 0)
			return NULL;
		seen = atomic_load(&d->go);
		end = atomic_load(&d->burst_end);
		while (gs_now_ns() < end &&
		       !atomic_load_explicit(&sh->stop, memory_order_relaxed))
			fb_spin(2000);
		atomic_fetch_add(&d->finished, 1);
		fb_futex_wake(&d->finished, 1);
	}
}

static void *ctl_main(void *arg)
{
	struct fb_disturb *d = arg;
	struct fb_shm *sh = d->e->sh;
	struct gs_rng r;

	pthread_setname_np(pthread_self(), "fb-disturb");
	for (uint64_t i = 0; d->n < FB_MAX_DISTURB; i++) {
		uint64_t window = sh->measure_ns + i * d->period_ns, start, now;
		uint64_t slept_at = 0;
		uint32_t fin0;

		fb_plan_rng(&r, d->seed, FB_STREAM_DISTURB, i);
		start = window + (uint64_t)gs_rng_uniform(
					 &r, 0, (double)(d->period_ns - d->len_ns));
		if (start + d->len_ns > atomic_load(&sh->end_ns))
			break;
		if (fb_sleep_until(sh, start) < 0)
			break;
		now = gs_now_ns();
		fin0 = atomic_load(&d->finished);
		atomic_store(&d->burst_end, now + d->len_ns);
		atomic_store(&sh->disturb_active, d->n + 1);
		atomic_fetch_add(&sh->disturb_started, 1);
		d->rec[d->n].start_ns = now;
		atomic_fetch_add(&d->go, 1);
		fb_futex_wake(&d->go, INT_MAX);
		/* the burst ends when every hog has stopped */
		for (;;) {
			uint32_t f = atomic_load(&d->finished);

			if (f - fin0 >= d->nhogs)
				break;
			if (fb_wait_while_eq(sh, &d->finished, f, &slept_at) < 0)
				break;
		}
		d->rec[d->n].end_ns = gs_now_ns();
		atomic_store(&sh->disturb_active, 0);
		fprintf(stderr,
			"%s: disturbance %u: start_ns=%llu end_ns=%llu "
			"threads=%u policy=%s (CLOCK_MONOTONIC)\n",
			gs_prog, d->n + 1,
			(unsigned long long)d->rec[d->n].start_ns,
			(unsigned long long)d->rec[d->n].end_ns, d->nhogs,
			d->fifo ? "SCHED_FIFO" : "SCHED_OTHER");
		d->n++;
		if (atomic_load(&sh->stop))
			break;
	}
	return NULL;
}

int fb_disturb_start(struct fb_disturb *d, struct fb_engine *e,
		     const struct fb_config *cfg)
{
	sigset_t all, old;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	d->e = e;
	d->period_ns = cfg->disturb_period_ns;
	d->len_ns = cfg->disturb_len_ns;
	d->threads = cfg->disturb_threads;
	d->seed = cfg->seed;
	d->fifo = true;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (unsigned i = 0; i < d->threads && i < ARRAY_SIZE(d->hog); i++) {
		struct sched_param sp = { .sched_priority = 50 };
		pthread_attr_t a;
		int err;

		pthread_attr_init(&a);
		if (d->fifo) {
			pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
			pthread_attr_setschedpolicy(&a, SCHED_FIFO);
			pthread_attr_setschedparam(&a, &sp);
		}
		err = pthread_create(&d->hog[i], &a, hog_main, d);
		if (err == EPERM && d->fifo) {
			/* not allowed to use SCHED_FIFO: plain hogs */
			d->fifo = false;
			pthread_attr_destroy(&a);
			pthread_attr_init(&a);
			err = pthread_create(&d->hog[i], &a, hog_main, d);
		}
		pthread_attr_destroy(&a);
		if (err) {
			gs_warn("--disturb: cannot start a hog thread: %s",
				strerror(err));
			rc = -1;
			break;
		}
		pthread_setname_np(d->hog[i], "fb-disturb-hog");
		d->nhogs++;
	}
	if (!rc && pthread_create(&d->ctl, NULL, ctl_main, d) == 0)
		d->ctl_started = true;
	else
		rc = -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void fb_disturb_stop(struct fb_disturb *d)
{
	atomic_store(&d->go, atomic_load(&d->go) + 1);
	fb_futex_wake(&d->go, INT_MAX);
	fb_futex_wake(&d->finished, INT_MAX);
	if (d->ctl_started)
		pthread_join(d->ctl, NULL);
	d->ctl_started = false;
	for (unsigned i = 0; i < d->nhogs; i++)
		pthread_join(d->hog[i], NULL);
	d->nhogs = 0;
}
