// SPDX-License-Identifier: GPL-2.0-only
/*
 * --self-test: how much the measurement costs a frame. It times the very
 * functions the engine runs for its measurements (time stamps around every
 * wake-up, histogram updates, chain counters, the frame record, the feed,
 * the collector with a CSV row) for the number of wake-ups a frame of the
 * chosen profile has, and compares that with a 16.7 ms frame. It also
 * checks that calibrated work takes the time it was asked to take.
 */
#include "run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "collect.h"
#include "feed.h"
#include "markers.h"
#include "plan.h"
#include "stats.h"
#include "sync.h"
#include "work.h"

#define FRAME_NS 16666667.0

/* Wake-ups a frame's measurement covers: the chain, a worker wake-up per
 * job beyond the chain's one per fan-out, and the periodic tasks' timer
 * wake-ups that fall in one frame. */
static unsigned wakeups_per_frame(const struct fb_profile *p)
{
	struct fb_chain c;
	double n, frame_ns = p->fps ? 1e9 / p->fps : FRAME_NS;

	fb_plan_chain(p, &c);
	n = c.wakeups;
	for (unsigned s = 0; s < p->nstages; s++)
		for (unsigned i = 0; i < p->stage[s].nsteps; i++)
			if (p->stage[s].step[i].kind == FB_STEP_FANOUT)
				n += p->stage[s].step[i].jobs - 1;
	for (int k = 0; k < FB_PER_N; k++)
		if (p->periodic[k].enabled)
			n += frame_ns / (double)p->periodic[k].period_ns;
	return (unsigned)(n + 0.999);
}

/* Prints the calibration and how close 1 ms of calibrated work comes
 * to 1 ms. */
static void print_calibration(const struct fb_profile *p)
{
	struct fb_calib cal;
	double acc[21];

	fb_calibrate(&cal, 40, 1000);
	printf("framebench self-test (profile %s)\n", p->name);
	printf("calibration: %.1f loops/us (fastest of %u trials, median "
	       "%.1f), took %.0f ms\n",
	       cal.loops_per_us, cal.trials, cal.median_loops_per_us,
	       cal.took_ns / 1e6);
	for (unsigned i = 0; i < ARRAY_SIZE(acc); i++) {
		uint64_t t = gs_now_ns();

		fb_work_ns(NSEC_PER_MSEC);
		acc[i] = (double)(gs_now_ns() - t) / 1e6;
	}
	gs_sort_doubles(acc, ARRAY_SIZE(acc));
	printf("work accuracy: 1.000 ms of calibrated work took %.3f ms "
	       "(median of %zu; min %.3f, max %.3f)\n",
	       gs_pct_linear(acc, ARRAY_SIZE(acc), 50), ARRAY_SIZE(acc), acc[0],
	       acc[ARRAY_SIZE(acc) - 1]);
}

/* What --trace-markers would add to a frame, in ns (0: no tracefs). */
static uint64_t marker_cost_ns(const struct fb_profile *p)
{
	uint64_t t;
	unsigned per = 2 * p->nstages + 2;

	if (fb_markers_open() != 0)
		return 0;
	t = gs_now_ns();

	for (unsigned i = 0; i < 1000; i++)
		fb_marker_counter("framebench_selftest", i);
	fb_markers_close();
	return (gs_now_ns() - t) / 1000 * per;
}

int fb_self_test(const struct fb_config *cfg)
{
	const struct fb_profile *p = &cfg->prof;
	struct fb_shm *sh;
	struct fb_collect col;
	struct fb_feed feed;
	bool feed_on;
	double per_frame_ns, pct;
	unsigned links = wakeups_per_frame(p);
	const unsigned frames = 100000;
	uint64_t t0, marker_ns = 0;
	FILE *devnull = fopen("/dev/null", "w");
	int status = EXIT_OK;

	print_calibration(p);

	/* the measurement path, on private memory */
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || !devnull)
		gs_die(EXIT_RUNTIME, "self-test: out of memory");
	sh->measure_ns = 0;
	atomic_store(&sh->end_ns, UINT64_MAX);
	sh->ntstats = 1;
	gs_hist_init(&sh->tstat[0].wake);
	feed_on = !cfg->no_feed && fb_feed_create(&feed, 4096, 0) == 0;
	if (fb_collect_init(&col, sh, devnull, frames, 1000.0 / 60) < 0)
		gs_die(EXIT_RUNTIME, "self-test: out of memory");

	t0 = gs_now_ns();
	for (unsigned f = 0; f < frames; f++) {
		struct fb_frame_slot *slot = &sh->slot[f % FB_SLOTS];
		struct fb_record r = { .frame = f };
		uint64_t now = 0;

		atomic_store_explicit(&slot->chain_ops, 0, memory_order_relaxed);
		for (unsigned l = 0; l < links; l++) {
			/* waker stamps; wakee stamps going to sleep and
			 * waking; then records */
			uint64_t stamp = gs_now_ns(), slept_at = gs_now_ns();

			now = gs_now_ns();
			fb_chain_op(slot);
			fb_chain_woke(slot, 1);
			fb_note_wake(sh, &sh->tstat[0], stamp, slept_at, now);
		}
		r.start_ns = now - 1000;
		r.input_ns = now - 2000;
		r.present_ns = now;
		r.frametime_ns = 16666667;
		r.chain_ops = atomic_load(&slot->chain_ops);
		fb_record_push(sh, &r);
		if (feed_on) {
			struct gs_feed_frame ff = {
				.start_ns = r.start_ns,
				.present_ns = r.present_ns,
				.frametime_ns = r.frametime_ns,
				.input_latency_ns = 2000,
			};

			fb_feed_publish(&feed, f, &ff);
		}
		if ((f & 63) == 63)	/* the collector drains in batches */
			fb_collect_drain(&col);
	}
	fb_collect_drain(&col);
	per_frame_ns = (double)(gs_now_ns() - t0) / frames;
	pct = 100.0 * per_frame_ns / FRAME_NS;

	marker_ns = marker_cost_ns(p);

	printf("measurement overhead: %.0f ns per frame (%u wake-up records "
	       "with 3 clock reads each, chain counters, frame record, %s"
	       "collector with a CSV row) over %u frames\n",
	       per_frame_ns, links, feed_on ? "frame feed, " : "", frames);
	printf("  = %.4f %% of a 16.7 ms frame (target < 1 %%): %s\n", pct,
	       pct < 1.0 ? "OK" : "TOO HIGH");
	if (marker_ns)
		printf("  with --trace-markers: about %.0f ns more per frame "
		       "(%u trace_marker writes) = %.4f %%\n",
		       (double)marker_ns, 2 * p->nstages + 2,
		       100.0 * (double)marker_ns / FRAME_NS);
	if (pct >= 1.0)
		status = EXIT_RUNTIME;
	if (feed_on)
		fb_feed_destroy(&feed);
	fb_collect_free(&col);
	munmap(sh, sizeof(*sh));
	fclose(devnull);
	return status;
}
