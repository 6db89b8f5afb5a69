// SPDX-License-Identifier: GPL-2.0-only
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bg.h"
#include "json.h"
#include "util.h"

void fb_results_compute(struct fb_results *r, const struct fb_config *cfg,
			const struct fb_engine *e, const struct fb_collect *c)
{
	const struct fb_profile *p = &cfg->prof;
	const struct fb_shm *sh = e->sh;
	double target_ms = fb_target_ms(cfg);

	r->frames = c->frames;
	r->frames_stored = c->n;
	r->warmup_frames = c->warmup_frames;
	r->records_dropped = atomic_load(&((struct fb_shm *)sh)->rec_dropped);
	r->missed_vsyncs = c->missed_vsyncs;
	r->disturbed_frames = c->disturbed_frames;
	r->input_n = c->n_il;
	if (c->n_il) {
		double *v = malloc(c->n_il * sizeof(*v));

		if (v) {
			for (size_t i = 0; i < c->n_il; i++)
				v[i] = c->il[i];
			gs_sort_doubles(v, c->n_il);
			r->input_p50 = gs_pct_nearest(v, c->n_il, 50);
			r->input_p99 = gs_pct_nearest(v, c->n_il, 99);
			r->input_p999 = gs_pct_nearest(v, c->n_il, 99.9);
			r->input_max = v[c->n_il - 1];
			r->input_mean = gs_mean(v, c->n_il);
			free(v);
		} else {
			r->input_n = 0;
		}
	}
	r->have_frames = c->n > 0 &&
			 gs_fps_summarize(c->ft, c->n, target_ms, NULL, &r->s) == 0;
	if (!r->have_frames)
		memset(&r->s, 0, sizeof(r->s));
	fb_plan_chain(p, &r->chain);
	if (c->frames) {
		r->chain_ops_mean = (double)c->chain_ops / (double)c->frames;
		r->chain_woken_mean = (double)c->chain_woken / (double)c->frames;
	}
	{
		uint64_t end = atomic_load(&((struct fb_shm *)sh)->end_ns);

		r->measured_s = end > sh->measure_ns
					? (double)(end - sh->measure_ns) / 1e9
					: 0;
	}

	r->nclasses = e->nclasses;
	for (unsigned k = 0; k < e->nclasses; k++) {
		gs_strlcpy(r->cls[k].name, e->cls[k], FB_NAME_MAX);
		gs_hist_init(&r->cls[k].h);
	}
	r->nlocks = p->nlocks;
	for (unsigned m = 0; m < p->nlocks; m++) {
		memset(&r->lock[m], 0, sizeof(r->lock[m]));
		gs_strlcpy(r->lock[m].name, p->lock[m], FB_NAME_MAX);
	}
	gs_hist_init(&r->lockwait);
	r->nthreads = e->ntasks;
	for (unsigned i = 0; i < sh->ntstats; i++) {
		const struct fb_tstat *ts = &sh->tstat[i];

		gs_hist_merge(&r->cls[ts->cls].h, &ts->wake);
		gs_hist_merge(&r->lockwait, &ts->lockwait);
		for (unsigned m = 0; m < p->nlocks; m++) {
			r->lock[m].acq += ts->lock_acq[m];
			r->lock[m].cont += ts->lock_cont[m];
			r->lock[m].wait_ns += ts->lock_wait_ns[m];
			if (ts->lock_wait_max[m] > r->lock[m].max_ns)
				r->lock[m].max_ns = ts->lock_wait_max[m];
		}
		r->jobs += ts->jobs;
		r->requests += ts->requests;
	}
	for (unsigned i = 0; i < e->ntasks; i++) {
		const struct fb_task *t = &e->task[i];
		const struct fb_tstat *ts = &sh->tstat[t->tstat];

		if (t->kind != FB_T_PERIODIC)
			continue;
		if (t->idx == FB_PER_AUDIO) {
			r->audio_periods = ts->periods;
			r->audio_misses = ts->misses;
			r->audio_skipped = ts->skipped;
		} else if (t->idx == FB_PER_NET) {
			r->net_ticks = ts->periods;
		} else {
			r->input_polls = ts->periods;
		}
	}
}

void fb_results_usage(struct fb_results *r, const struct fb_config *cfg,
		      const struct fb_usage_sample *start,
		      const struct fb_usage_sample *end)
{
	bool both = start && end && end->at_ns > start->at_ns;

	r->usage_s = both ? (double)(end->at_ns - start->at_ns) / 1e9 : 0;
	r->game_cpu_ok = both && start->game_ok && end->game_ok;
	r->game_cpu_s = r->game_cpu_ok && end->game_cpu_ns > start->game_cpu_ns
				? (double)(end->game_cpu_ns - start->game_cpu_ns) / 1e9
				: 0;
	r->nbg = cfg->nbg;
	for (unsigned i = 0; i < cfg->nbg; i++)
		fb_bg_window(&cfg->bg[i], both ? &start->bg[i] : NULL,
			     both ? &end->bg[i] : NULL, r->usage_s,
			     r->calib.loops_per_us, &r->bg[i]);
}

/* ---- terminal ------------------------------------------------------------ */

static void print_fps(FILE *f, double v)
{
	fprintf(f, "%8.1f", v);
}

static void print_lows(FILE *f, const char *label, double pct, double avg,
		       double integral, const char *note)
{
	fprintf(f, "%-17s%8.1f     %8.1f  %8.1f%s\n", label, pct, avg, integral,
		note);
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static void config_line(FILE *f, const struct fb_config *cfg)
{
	const struct fb_profile *p = &cfg->prof;

	fprintf(f, "profile %s, seed %" PRIu64 ", ", p->name, cfg->seed);
	if (p->fps)
		fprintf(f, "%.0f FPS target", p->fps * cfg->dilate);
	else
		fprintf(f, "uncapped");
	fprintf(f, ", %.1f s measured after %.1f s warm-up, background ",
		cfg->duration_ns / 1e9, cfg->warmup_ns / 1e9);
	if (!cfg->nbg)
		fprintf(f, "none");
	for (unsigned i = 0; i < cfg->nbg; i++)
		fprintf(f, "%s%s:%u", i ? "+" : "", fb_bg_name(cfg->bg[i].kind),
			cfg->bg[i].n);
	if (cfg->nbg && cfg->bg_nice)
		fprintf(f, " (nice %d)", cfg->bg_nice);
	if (cfg->game.rt)
		fprintf(f, ", game threads SCHED_FIFO");
	if (cfg->dilate != 1)
		fprintf(f, ", time dilated x%g (frame times reported / %g)",
			cfg->dilate, cfg->dilate);
	if (cfg->game.nice_set)
		fprintf(f, ", game threads nice %d", cfg->game.nice);
	if (cfg->game.slice_us)
		fprintf(f, ", game threads slice %u us", cfg->game.slice_us);
}

/* The game's CPU time and one line per background pattern. */
static void print_usage(FILE *f, const struct fb_results *r)
{
	if (r->game_cpu_ok)
		fprintf(f, "game CPU          %.2f s in %.2f s (%.2f CPUs): its "
			   "threads and helper processes\n",
			r->game_cpu_s, r->usage_s, r->game_cpu_s / r->usage_s);
	else
		fprintf(f, "game CPU          not measured\n");
	for (unsigned i = 0; i < r->nbg; i++) {
		const struct fb_bg_result *b = &r->bg[i];

		fprintf(f, "background %-12s", b->pattern);
		if (!b->measured) {
			fprintf(f, " not measured (the run stopped before the "
				   "measured window)\n");
			continue;
		}
		if (b->cpu_ok)
			fprintf(f, " cpu %6.2f s", b->cpu_s);
		else
			fprintf(f, " cpu    n/a  ");
		fprintf(f, "   work %5.2f/s", b->work_per_s);
		if (b->has_jobs)
			fprintf(f, "   %" PRIu64 " jobs done", b->jobs_done);
		if (b->has_bursts)
			fprintf(f, "   %" PRIu64 " of %" PRIu64 " bursts late",
				b->missed, b->bursts);
		fprintf(f, "\n");
	}
	if (r->nbg)
		fprintf(f, "                  (work: CPU-seconds of the calibrated "
			   "work loop per second; 1.00 = one CPU's worth)\n");
}

void fb_report_line(FILE *f, const struct fb_config *cfg,
		    const struct fb_results *r)
{
	fprintf(f, "%s: %" PRIu64 " frames, avg %.1f FPS, 1%% low %.1f "
		   "(percentile) / %.1f (average), 0.1%% low %.1f / %.1f, "
		   "p99 %.2f ms%s\n",
		cfg->prof.name, r->frames, r->s.avg_fps, r->s.low1_percentile_fps,
		r->s.low1_average_fps, r->s.low01_percentile_fps,
		r->s.low01_average_fps, r->s.ft_p99,
		r->interrupted ? " (interrupted)" : "");
}

/* the run: version, configuration, system and calibration */
static void print_header(FILE *f, const struct fb_config *cfg,
			 const struct fb_results *r)
{
	const struct fb_profile *p = &cfg->prof;

	fprintf(f, "framebench %s: ", FB_VERSION);
	config_line(f, cfg);
	fprintf(f, "\n");
	fprintf(f, "system: kernel %s, %d CPUs (%s), scheduler %s%s%s\n",
		r->sys.kernel, r->sys.ncpus,
		r->sys.cpu_model[0] ? r->sys.cpu_model : "unknown CPU",
		r->sys.scheduler, r->sys.governor[0] ? ", governor " : "",
		r->sys.governor);
	if (r->calib.given)
		fprintf(f, "calibration: %.1f loops/us (given with --calibration), "
			   "%u threads in %u processes\n",
			r->calib.loops_per_us, r->nthreads, p->nprocs + 1);
	else
		fprintf(f, "calibration: %.1f loops/us (fastest of %u trials; median "
			   "%.1f), %u threads in %u processes\n",
			r->calib.loops_per_us, r->calib.trials,
			r->calib.median_loops_per_us, r->nthreads, p->nprocs + 1);
	if (r->interrupted)
		fprintf(f, "INTERRUPTED: figures cover the first %.1f s only\n",
			r->measured_s);
}

/* Each lock of the profile: acquisitions, contention, waits. */
static void print_locks(FILE *f, const struct fb_results *r)
{
	for (unsigned m = 0; m < r->nlocks; m++) {
		const struct fb_lock_res *l = &r->lock[m];

		fprintf(f, "lock %-12s %" PRIu64 " acquisitions, %" PRIu64
			   " contended (%.1f %%), wait total %.2f ms, max "
			   "%.0f us\n",
			l->name, l->acq, l->cont,
			l->acq ? 100.0 * (double)l->cont / (double)l->acq : 0,
			(double)l->wait_ns / 1e6, us(l->max_ns));
	}
	if (r->lockwait.count)
		fprintf(f, "                  contended wait p50 %.0f us  p99 "
			   "%.0f us\n",
			us(gs_hist_pct(&r->lockwait, 50)),
			us(gs_hist_pct(&r->lockwait, 99)));
}

/* Wake-up latency per task class, the classes that woke at least once. */
static void print_wake_latency(FILE *f, const struct fb_results *r)
{
	fprintf(f, "\nwake-up latency, wake to run (us)    count       p50       "
		   "p99     p99.9       max\n");
	for (unsigned k = 0; k < r->nclasses; k++) {
		const struct gs_hist *h = &r->cls[k].h;

		if (!h->count)
			continue;
		fprintf(f, "  %-32s %9" PRIu64 " %9.1f %9.1f %9.1f %9.1f\n",
			r->cls[k].name, h->count, us(gs_hist_pct(h, 50)),
			us(gs_hist_pct(h, 99)), us(gs_hist_pct(h, 99.9)),
			us(h->max));
	}
	fprintf(f, "  (timer classes input, audio, net, vsync: lateness "
		   "after the timer's deadline)\n");
}

void fb_report_print(FILE *f, const struct fb_config *cfg,
		     const struct fb_results *r)
{
	const struct fb_profile *p = &cfg->prof;
	const struct gs_fps_summary *s = &r->s;
	double target_ms = fb_target_ms(cfg);

	print_header(f, cfg, r);
	fprintf(f, "\n");
	fprintf(f, "frames            %" PRIu64, r->frames);
	if (r->frames < 1000)
		fprintf(f, "  (under 1000: the 0.1 %% lows rest on less than "
			   "one frame)");
	fprintf(f, "\n");
	if (r->frames != r->frames_stored)
		fprintf(f, "                  (lows computed from the first %" PRIu64
			   " frames: memory cap)\n",
			r->frames_stored);
	if (!r->have_frames) {
		fprintf(f, "no frame was measured\n");
		return;
	}
	fprintf(f, "average FPS       ");
	print_fps(f, s->avg_fps);
	fprintf(f, "    (frames / total time)\n");
	fprintf(f, "                 percentile  low-average  integral   "
		   "(definitions: README, Definitions)\n");
	print_lows(f, "1 % low FPS", s->low1_percentile_fps,
		   s->low1_average_fps, s->low1_integral_fps, "");
	print_lows(f, "0.1 % low FPS", s->low01_percentile_fps,
		   s->low01_average_fps, s->low01_integral_fps,
		   s->low01_unreliable ? "   (< 1000 frames)" : "");
	fprintf(f, "minimum FPS       ");
	print_fps(f, s->min_fps);
	fprintf(f, "\nframe time ms     p50 %.2f  p90 %.2f  p99 %.2f  p99.9 "
		   "%.2f  max %.2f\n",
		s->ft_p50, s->ft_p90, s->ft_p99, s->ft_p999, s->ft_max);
	if (p->fps) {
		fprintf(f, "stutter           %zu frames over 1.5x the target "
			   "(%.1f ms), %zu over 2x (%.1f ms)\n",
			s->stutter_1_5x, 1.5 * target_ms, s->stutter_2x,
			2 * target_ms);
		fprintf(f, "missed vsyncs     %" PRIu64 "\n", r->missed_vsyncs);
	}
	if (r->input_n)
		fprintf(f, "input to present  p50 %.2f ms  p99 %.2f ms  "
			   "(input polled at %.0f Hz)\n",
			r->input_p50, r->input_p99,
			p->periodic[FB_PER_INPUT].enabled
				? 1e9 / p->periodic[FB_PER_INPUT].period_ns
				: 0);
	else if (!p->periodic[FB_PER_INPUT].enabled)
		fprintf(f, "input to present  none (the profile has no input task)\n");
	if (p->periodic[FB_PER_AUDIO].enabled)
		fprintf(f, "audio             %" PRIu64 " of %" PRIu64
			   " periods missed the %.2f ms deadline (%" PRIu64
			   " skipped)\n",
			r->audio_misses, r->audio_periods,
			p->periodic[FB_PER_AUDIO].deadline_ns / 1e6,
			r->audio_skipped);
	print_locks(f, r);
	fprintf(f, "critical chain    %u wake-ups per frame (%u cross-process); "
		   "measured %.1f wake operations, %.1f of them woke a "
		   "sleeping task\n",
		r->chain.wakeups, r->chain.cross_process, r->chain_ops_mean,
		r->chain_woken_mean);
	print_usage(f, r);
	print_wake_latency(f, r);
	if (r->disturb)
		fprintf(f, "disturbances      %u bursts of %u threads (%s), %" PRIu64
			   " frames presented during one\n",
			r->disturb->n, r->disturb->nhogs,
			r->disturb->fifo ? "SCHED_FIFO" : "SCHED_OTHER",
			r->disturbed_frames);
	if (r->records_dropped)
		fprintf(f, "WARNING: %" PRIu64 " frame records dropped (collector "
			   "fell behind)\n",
			r->records_dropped);
	if (r->feed_on)
		fprintf(f, "frame feed        %s (removed at exit)\n",
			r->feed_path);
}

/* ---- JSON ----------------------------------------------------------------- */

static void hist_obj(struct gs_jw *w, const char *key, const struct gs_hist *h,
		     double scale)
{
	gs_jw_obj(w, key);
	gs_jw_uint(w, "count", h->count);
	if (h->count) {
		gs_jw_num(w, "p50", (double)gs_hist_pct(h, 50) / scale);
		gs_jw_num(w, "p99", (double)gs_hist_pct(h, 99) / scale);
		gs_jw_num(w, "p999", (double)gs_hist_pct(h, 99.9) / scale);
		gs_jw_num(w, "max", (double)h->max / scale);
		gs_jw_num(w, "mean", gs_hist_mean(h) / scale);
	} else {
		gs_jw_null(w, "p50");
		gs_jw_null(w, "p99");
		gs_jw_null(w, "p999");
		gs_jw_null(w, "max");
		gs_jw_null(w, "mean");
	}
	gs_jw_obj_end(w);
}

/* the headline figures other tools read (fixed keys) */
static void json_headline(struct gs_jw *w, const struct fb_results *r)
{
	const struct gs_fps_summary *s = &r->s;
	bool ok = r->have_frames;

	gs_jw_uint(w, "frames", r->frames);
	gs_jw_fps_summary(w, ok ? s : NULL);
	gs_jw_bool(w, "low1_unreliable", r->frames < 100);
	gs_jw_bool(w, "low01_unreliable", r->frames < 1000);
}

/* the run: its length, stutter and input latency */
static void json_run(struct gs_jw *w, const struct fb_config *cfg,
		     const struct fb_results *r)
{
	const struct fb_profile *p = &cfg->prof;
	const struct gs_fps_summary *s = &r->s;

	gs_jw_str(w, "tool", "framebench");
	gs_jw_str(w, "version", FB_VERSION);
	gs_jw_bool(w, "interrupted", r->interrupted);
	gs_jw_num(w, "measured_s", r->measured_s);
	gs_jw_num(w, "target_fps", p->fps * cfg->dilate);
	gs_jw_uint(w, "frames_stored", r->frames_stored);
	gs_jw_uint(w, "warmup_frames", r->warmup_frames);
	gs_jw_uint(w, "records_dropped", r->records_dropped);
	gs_jw_obj(w, "stutter");
	if (p->fps) {
		gs_jw_num(w, "over_1_5x_ms", 1.5 * fb_target_ms(cfg));
		gs_jw_uint(w, "over_1_5x", s->stutter_1_5x);
		gs_jw_num(w, "over_2x_ms", 2 * fb_target_ms(cfg));
		gs_jw_uint(w, "over_2x", s->stutter_2x);
	} else {
		gs_jw_null(w, "over_1_5x");
		gs_jw_null(w, "over_2x");
	}
	gs_jw_obj_end(w);
}

/* missed vsyncs, input latency and what the periodic tasks did */
static void json_tasks(struct gs_jw *w, const struct fb_profile *p,
		       const struct fb_results *r)
{
	if (p->fps)
		gs_jw_uint(w, "missed_vsyncs", r->missed_vsyncs);
	else
		gs_jw_null(w, "missed_vsyncs");
	gs_jw_obj(w, "input_latency_ms");
	gs_jw_uint(w, "count", r->input_n);
	gs_jw_num_or_null(w, "p50", r->input_n, r->input_p50);
	gs_jw_num_or_null(w, "p99", r->input_n, r->input_p99);
	gs_jw_num_or_null(w, "p999", r->input_n, r->input_p999);
	gs_jw_num_or_null(w, "max", r->input_n, r->input_max);
	gs_jw_num_or_null(w, "mean", r->input_n, r->input_mean);
	gs_jw_obj_end(w);

	gs_jw_obj(w, "audio");
	if (p->periodic[FB_PER_AUDIO].enabled) {
		gs_jw_num(w, "period_ms", p->periodic[FB_PER_AUDIO].period_ns / 1e6);
		gs_jw_num(w, "deadline_ms",
			  p->periodic[FB_PER_AUDIO].deadline_ns / 1e6);
	}
	gs_jw_uint(w, "periods", r->audio_periods);
	gs_jw_uint(w, "deadline_misses", r->audio_misses);
	gs_jw_uint(w, "skipped_periods", r->audio_skipped);
	gs_jw_obj_end(w);
	gs_jw_uint(w, "input_polls", r->input_polls);
	gs_jw_uint(w, "net_ticks", r->net_ticks);
	gs_jw_uint(w, "jobs", r->jobs);
	gs_jw_uint(w, "service_requests", r->requests);
}

/* how long the classes waited to run, and for locks */
static void json_waits(struct gs_jw *w, const struct fb_results *r)
{
	gs_jw_obj(w, "wake_latency_us");
	for (unsigned k = 0; k < r->nclasses; k++)
		hist_obj(w, r->cls[k].name, &r->cls[k].h, 1e3);
	gs_jw_obj_end(w);

	gs_jw_obj(w, "lock_wait");
	{
		uint64_t acq = 0, cont = 0, wait = 0, max = 0;

		for (unsigned m = 0; m < r->nlocks; m++) {
			acq += r->lock[m].acq;
			cont += r->lock[m].cont;
			wait += r->lock[m].wait_ns;
			if (r->lock[m].max_ns > max)
				max = r->lock[m].max_ns;
		}
		gs_jw_uint(w, "acquisitions", acq);
		gs_jw_uint(w, "contended", cont);
		gs_jw_num(w, "total_ms", (double)wait / 1e6);
		gs_jw_num(w, "max_us", (double)max / 1e3);
		hist_obj(w, "contended_us", &r->lockwait, 1e3);
		gs_jw_obj(w, "locks");
		for (unsigned m = 0; m < r->nlocks; m++) {
			gs_jw_obj(w, r->lock[m].name);
			gs_jw_uint(w, "acquisitions", r->lock[m].acq);
			gs_jw_uint(w, "contended", r->lock[m].cont);
			gs_jw_num(w, "total_ms", (double)r->lock[m].wait_ns / 1e6);
			gs_jw_num(w, "max_us", (double)r->lock[m].max_ns / 1e3);
			gs_jw_obj_end(w);
		}
		gs_jw_obj_end(w);
	}
	gs_jw_obj_end(w);
}

/* the wake chain and the disturbances */
static void json_chain(struct gs_jw *w, const struct fb_results *r)
{
	gs_jw_obj(w, "chain");
	gs_jw_uint(w, "wakeups_per_frame", r->chain.wakeups);
	gs_jw_uint(w, "cross_process", r->chain.cross_process);
	gs_jw_num(w, "expected_per_frame", r->chain.expected);
	gs_jw_num(w, "ops_per_frame", r->chain_ops_mean);
	gs_jw_num(w, "woken_per_frame", r->chain_woken_mean);
	gs_jw_obj_end(w);

	gs_jw_arr(w, "disturbances");
	if (r->disturb)
		for (unsigned i = 0; i < r->disturb->n; i++) {
			gs_jw_obj(w, NULL);
			gs_jw_uint(w, "n", i + 1);
			gs_jw_uint(w, "start_ns", r->disturb->rec[i].start_ns);
			gs_jw_uint(w, "end_ns", r->disturb->rec[i].end_ns);
			gs_jw_uint(w, "threads", r->disturb->nhogs);
			gs_jw_str(w, "policy",
				  r->disturb->fifo ? "SCHED_FIFO" : "SCHED_OTHER");
			gs_jw_obj_end(w);
		}
	gs_jw_arr_end(w);
	gs_jw_uint(w, "disturbed_frames", r->disturbed_frames);
}

static void json_usage(struct gs_jw *w, const struct fb_results *r)
{
	/* what the game and the background used and did in the window */
	gs_jw_num_or_null(w, "accounting_window_s", r->usage_s > 0, r->usage_s);
	gs_jw_num_or_null(w, "game_cpu_s", r->game_cpu_ok, r->game_cpu_s);
	gs_jw_arr(w, "background");
	for (unsigned i = 0; i < r->nbg; i++) {
		const struct fb_bg_result *b = &r->bg[i];

		gs_jw_obj(w, NULL);
		gs_jw_str(w, "pattern", b->pattern);
		gs_jw_uint(w, "threads", b->threads);
		gs_jw_num_or_null(w, "cpu_s", b->measured && b->cpu_ok, b->cpu_s);
		gs_jw_num_or_null(w, "work_per_s", b->measured, b->work_per_s);
		if (b->measured && b->has_jobs)
			gs_jw_uint(w, "jobs_done", b->jobs_done);
		else
			gs_jw_null(w, "jobs_done");
		if (b->measured && b->has_bursts) {
			gs_jw_uint(w, "bursts", b->bursts);
			gs_jw_uint(w, "missed", b->missed);
		} else {
			gs_jw_null(w, "bursts");
			gs_jw_null(w, "missed");
		}
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
}

/* the calibration and the configuration the run had */
static void json_config(struct gs_jw *w, const struct fb_config *cfg,
			const struct fb_results *r)
{
	const struct fb_profile *p = &cfg->prof;

	gs_jw_obj(w, "calibration");
	gs_jw_num(w, "loops_per_us", r->calib.loops_per_us);
	gs_jw_num(w, "median_loops_per_us", r->calib.median_loops_per_us);
	gs_jw_uint(w, "trials", r->calib.trials);
	gs_jw_uint(w, "trial_loops", r->calib.trial_loops);
	gs_jw_num(w, "took_ms", r->calib.took_ns / 1e6);
	gs_jw_bool(w, "given", r->calib.given);
	gs_jw_obj_end(w);

	gs_jw_obj(w, "config");
	gs_jw_str(w, "profile", p->name);
	gs_jw_str(w, "profile_source", p->source);
	gs_jw_str(w, "description", p->description);
	gs_jw_uint(w, "seed", cfg->seed);
	gs_jw_num(w, "fps", p->fps * cfg->dilate);
	gs_jw_uint(w, "frames_in_flight", p->frames_in_flight);
	gs_jw_uint(w, "workers", p->workers);
	gs_jw_uint(w, "stages", p->nstages);
	gs_jw_uint(w, "threads", r->nthreads);
	gs_jw_arr(w, "processes");
	for (unsigned i = 0; i <= p->nprocs; i++)
		gs_jw_str(w, NULL, p->proc[i]);
	gs_jw_arr_end(w);
	gs_jw_num(w, "duration_s", cfg->duration_ns / 1e9);
	gs_jw_num(w, "warmup_s", cfg->warmup_ns / 1e9);
	gs_jw_arr(w, "bg");
	for (unsigned i = 0; i < cfg->nbg; i++) {
		gs_jw_obj(w, NULL);
		gs_jw_str(w, "pattern", fb_bg_name(cfg->bg[i].kind));
		gs_jw_uint(w, "n", cfg->bg[i].n);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_int(w, "bg_nice", cfg->bg_nice);
	gs_jw_bool(w, "rt", cfg->game.rt);
	if (cfg->game.nice_set)
		gs_jw_int(w, "game_nice", cfg->game.nice);
	else
		gs_jw_null(w, "game_nice");
	gs_jw_uint(w, "game_slice_us", cfg->game.slice_us);
	gs_jw_num(w, "dilate", cfg->dilate);
	gs_jw_bool(w, "trace_markers", r->markers_on);
	if (r->feed_on)
		gs_jw_str(w, "feed", r->feed_path);
	else
		gs_jw_null(w, "feed");
	if (cfg->disturb) {
		gs_jw_obj(w, "disturb");
		gs_jw_num(w, "period_s", cfg->disturb_period_ns / 1e9);
		gs_jw_num(w, "len_ms", cfg->disturb_len_ns / 1e6);
		gs_jw_uint(w, "threads", cfg->disturb_threads);
		gs_jw_obj_end(w);
	} else {
		gs_jw_null(w, "disturb");
	}
	gs_jw_obj_end(w);
}

void fb_report_json(FILE *f, const struct fb_config *cfg,
		    const struct fb_results *r)
{
	const struct fb_profile *p = &cfg->prof;
	struct gs_jw w;

	gs_jw_init(&w, f, true);
	gs_jw_obj(&w, NULL);
	json_headline(&w, r);
	json_run(&w, cfg, r);
	json_tasks(&w, p, r);
	json_waits(&w, r);
	json_chain(&w, r);
	json_usage(&w, r);
	json_config(&w, cfg, r);
	gs_sysinfo_json(&w, &r->sys);

	gs_jw_obj_end(&w);
	gs_jw_done(&w);
}
