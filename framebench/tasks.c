// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the engine's threads do, frame after frame: the stages hand frames
 * on (the last one presents them), the job workers run the fan-outs, the
 * services answer requests, and the periodic tasks tick. They wake each
 * other through futexes in the shared memory.
 */
#include "tasks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed.h"
#include "markers.h"
#include "pace.h"
#include "plan.h"
#include "sync.h"
#include "work.h"

static struct fb_tstat *tstat_of(const struct fb_engine *e,
				 const struct fb_task *t)
{
	return &e->sh->tstat[t->tstat];
}

void fb_fail_run(struct fb_shm *sh, const char *fmt, ...)
{
	va_list ap;
	uint32_t zero = 0;

	if (atomic_compare_exchange_strong(&sh->failed, &zero, 1)) {
		va_start(ap, fmt);
		vsnprintf(sh->fail_msg, sizeof(sh->fail_msg), fmt, ap);
		va_end(ap);
	}
	atomic_store(&sh->stop, 1);
}

/* ---- job workers --------------------------------------------------------- */

static void run_job(const struct fb_engine *e, const struct fb_task *t,
		    struct fb_batch *b, uint32_t idx, int slept,
		    uint64_t slept_at)
{
	struct fb_shm *sh = e->sh;
	struct fb_tstat *ts = tstat_of(e, t);
	uint64_t now = gs_now_ns(), frame;
	uint32_t ns = b->job_ns[idx], hold = b->hold_ns[idx];
	int lock = b->lock;

	frame = b->frame;
	if (slept) {
		fb_note_wake(sh, ts, b->wake_ns, slept_at, now);
		if (!atomic_exchange(&b->woke, 1))
			fb_chain_woke(&sh->slot[frame % FB_SLOTS], 1);
	}
	fb_work_ns(ns);
	if (lock >= 0 && fb_mutex_lock(sh, (unsigned)lock, ts) == 0) {
		fb_work_ns(hold);
		fb_mutex_unlock(sh, (unsigned)lock);
	}
	if (fb_in_window(sh, now))
		ts->jobs++;
	if (atomic_fetch_sub_explicit(&b->remaining, 1, memory_order_acq_rel) == 1) {
		fb_chain_op(&sh->slot[frame % FB_SLOTS]);
		b->done_wake_ns = gs_now_ns();
		atomic_fetch_add_explicit(&b->done, 1, memory_order_release);
		fb_futex_wake(&b->done, 1);
	}
}

static void worker_loop(const struct fb_engine *e, const struct fb_task *t)
{
	struct fb_shm *sh = e->sh;
	unsigned nb = 2 * e->p->nstages, start = t->idx % nb;
	uint64_t slept_at = 0;
	int slept = 0;

	for (;;) {
		uint32_t seq = atomic_load_explicit(&sh->pool_seq,
						    memory_order_acquire);
		bool took = false;

		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return;
		for (unsigned k = 0; k < nb && !took; k++) {
			unsigned i = (start + k) % nb;
			struct fb_batch *b = &sh->batch[i < nb / 2 ? i
						: FB_MAX_STAGES + i - nb / 2];
			uint64_t w = atomic_load_explicit(&b->cursor,
							  memory_order_acquire);

			while ((uint32_t)w < ((w >> 32) & 0xff)) {
				if (atomic_compare_exchange_weak(&b->cursor, &w,
								 w + 1)) {
					run_job(e, t, b, (uint32_t)w, slept,
						slept_at);
					slept = 0;
					took = true;
					break;
				}
			}
		}
		if (!took) {
			int r = fb_wait_while_eq(sh, &sh->pool_seq, seq, &slept_at);

			if (r < 0)
				return;
			slept = r;
		}
	}
}

/* ---- services -------------------------------------------------------------- */

static void service_loop(const struct fb_engine *e, const struct fb_task *t)
{
	struct fb_shm *sh = e->sh;
	struct fb_svc *svc = &sh->svc[t->idx];
	struct fb_tstat *ts = tstat_of(e, t);
	uint64_t slept_at = 0;
	int slept = 0;

	for (;;) {
		uint32_t seq = atomic_load_explicit(&svc->seq, memory_order_acquire);
		bool served = false;

		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return;
		for (unsigned c = 0; c < e->p->nstages; c++) {
			struct fb_mailbox *b = &svc->box[c];
			uint32_t req = atomic_load_explicit(&b->req,
							    memory_order_acquire);
			uint64_t now, frame;

			if (req == atomic_load_explicit(&b->resp,
							memory_order_relaxed))
				continue;
			served = true;
			now = gs_now_ns();
			frame = b->frame;
			if (slept) {
				fb_note_wake(sh, ts, b->req_wake_ns, slept_at, now);
				fb_chain_woke(&sh->slot[frame % FB_SLOTS], 1);
			}
			slept = 0;
			fb_work_ns(b->work_ns);
			if (fb_in_window(sh, now))
				ts->requests++;
			fb_chain_op(&sh->slot[frame % FB_SLOTS]);
			b->resp_wake_ns = gs_now_ns();
			atomic_store_explicit(&b->resp, req, memory_order_release);
			fb_futex_wake(&b->resp, 1);
		}
		if (!served) {
			int r = fb_wait_while_eq(sh, &svc->seq, seq, &slept_at);

			if (r < 0)
				return;
			slept = r;
		}
	}
}

/* ---- stages -------------------------------------------------------------- */

/* Present-side state (the last stage only). */
struct pstate {
	uint64_t last_present;
	uint64_t last_k;
	bool have_k;
	uint32_t disturb_seen;
};

static int stage_call(const struct fb_engine *e, const struct fb_task *t,
		      const struct fb_op *op, uint64_t frame,
		      struct fb_frame_slot *slot)
{
	struct fb_shm *sh = e->sh;
	struct fb_svc *svc = &sh->svc[op->target];
	struct fb_mailbox *b = &svc->box[t->idx];
	uint64_t slept_at = 0;
	uint32_t r;
	int rc;

	b->work_ns = op->ns;
	b->frame = frame;
	fb_chain_op(slot);
	b->req_wake_ns = gs_now_ns();
	r = atomic_fetch_add_explicit(&b->req, 1, memory_order_release) + 1;
	atomic_fetch_add_explicit(&svc->seq, 1, memory_order_release);
	fb_futex_wake(&svc->seq, 1);
	rc = fb_wait_until_ge(sh, &b->resp, r, &slept_at);
	if (rc < 0)
		return -1;
	fb_chain_woke(slot, rc);
	if (rc)
		fb_note_wake(sh, tstat_of(e, t), b->resp_wake_ns, slept_at,
			     gs_now_ns());
	return 0;
}

/* Issues op's jobs to the pool in batch b; *d0 gets the fan-in count
 * that stage_join waits to see change. */
static void fanout_issue(const struct fb_engine *e, struct fb_batch *b,
			 const struct fb_op *op, const struct fb_stage_plan *plan,
			 uint64_t frame, struct fb_frame_slot *slot, uint32_t *d0)
{
	struct fb_shm *sh = e->sh;
	unsigned n = op->njobs;

	memcpy(b->job_ns, plan->job_ns + op->job0, n * sizeof(b->job_ns[0]));
	memcpy(b->hold_ns, plan->hold_ns + op->job0, n * sizeof(b->hold_ns[0]));
	b->lock = op->target;
	b->frame = frame;
	*d0 = atomic_load_explicit(&b->done, memory_order_relaxed);
	atomic_store_explicit(&b->remaining, n, memory_order_relaxed);
	atomic_store_explicit(&b->woke, 0, memory_order_relaxed);
	b->gen = (b->gen + 1) & 0xffffff;
	fb_chain_op(slot);
	b->wake_ns = gs_now_ns();
	atomic_store_explicit(&b->cursor,
			      ((uint64_t)b->gen << 40) | ((uint64_t)n << 32),
			      memory_order_release);
	atomic_fetch_add_explicit(&sh->pool_seq, 1, memory_order_release);
	fb_futex_wake(&sh->pool_seq, (int)n);
}

/* Waits for the fan-in of batch b (issued when its count was d0). */
static int fanout_wait(const struct fb_engine *e, const struct fb_task *t,
		       struct fb_batch *b, uint32_t d0,
		       struct fb_frame_slot *slot)
{
	struct fb_shm *sh = e->sh;
	uint64_t slept_at = 0;
	int rc = fb_wait_while_eq(sh, &b->done, d0, &slept_at);

	if (rc < 0)
		return -1;
	fb_chain_woke(slot, rc);
	if (rc)
		fb_note_wake(sh, tstat_of(e, t), b->done_wake_ns, slept_at,
			     gs_now_ns());
	return 0;
}

static int stage_fanout(const struct fb_engine *e, const struct fb_task *t,
			const struct fb_op *op,
			const struct fb_stage_plan *plan, uint64_t frame,
			struct fb_frame_slot *slot)
{
	struct fb_batch *b = &e->sh->batch[t->idx];
	uint32_t d0;

	fanout_issue(e, b, op, plan, frame, slot, &d0);
	return fanout_wait(e, t, b, d0, slot);
}

/* The stage's asynchronous fan-out and its join: the jobs run while the
 * stage goes on, in this frame or (a join before the fan-out) into the
 * next. */
struct async_state {
	bool pending;
	uint32_t d0;
};

static int stage_async(const struct fb_engine *e, const struct fb_task *t,
		       const struct fb_op *op, const struct fb_stage_plan *plan,
		       uint64_t frame, struct fb_frame_slot *slot,
		       struct async_state *as)
{
	struct fb_batch *b = &e->sh->batch[FB_MAX_STAGES + t->idx];

	if (op->kind == FB_STEP_JOIN) {
		if (!as->pending)	/* the first frame: nothing issued yet */
			return 0;
		as->pending = false;
		return fanout_wait(e, t, b, as->d0, slot);
	}
	fanout_issue(e, b, op, plan, frame, slot, &as->d0);
	as->pending = true;
	return 0;
}

static int present(const struct fb_engine *e, const struct fb_task *t,
		   uint64_t frame, struct fb_frame_slot *slot,
		   struct pstate *ps)
{
	struct fb_shm *sh = e->sh;
	uint64_t now = gs_now_ns(), T = sh->target_ns;
	struct fb_record r = { .frame = frame };
	uint32_t active, started;

	if (T) {
		/* the first vsync at or after now, one present per vsync */
		uint64_t k = fb_vsync_index(sh->t0, T, now, ps->have_k, ps->last_k);
		uint64_t target = sh->t0 + k * T;
		int rc;

		rc = fb_sleep_until(sh, target);
		if (rc < 0)
			return -1;
		now = gs_now_ns();
		if (rc)
			fb_note_wake(sh, &sh->tstat[t->vsync_tstat], target, 0,
				     now);
		fb_chain_op(slot);
		fb_chain_woke(slot, rc);
		r.missed_vsyncs = fb_vsync_missed(ps->have_k, ps->last_k, k);
		ps->last_k = k;
		ps->have_k = true;
	}
	r.start_ns = slot->start_ns;
	r.input_ns = slot->input_ns;
	r.present_ns = now;
	if (ps->last_present)
		r.frametime_ns = now - ps->last_present;
	else
		r.flags |= FB_REC_NO_INTERVAL;
	if (now < sh->measure_ns)
		r.flags |= FB_REC_WARMUP;
	r.chain_ops = atomic_load_explicit(&slot->chain_ops, memory_order_relaxed);
	r.chain_woken = atomic_load_explicit(&slot->chain_woken,
					     memory_order_relaxed);
	/* a disturbance that ran at any time since the previous present */
	active = atomic_load_explicit(&sh->disturb_active, memory_order_relaxed);
	started = atomic_load_explicit(&sh->disturb_started, memory_order_relaxed);
	r.disturbance = active ? active
			       : started != ps->disturb_seen ? started : 0;
	ps->disturb_seen = started;
	ps->last_present = now;

	fb_record_push(sh, &r);
	if (e->feed) {
		struct gs_feed_frame ff = {
			.start_ns = r.start_ns,
			.present_ns = r.present_ns,
			.frametime_ns = r.frametime_ns,
			.input_latency_ns = r.input_ns && now > r.input_ns
						    ? now - r.input_ns
						    : 0,
			.flags = (r.missed_vsyncs ? GS_FEED_F_MISSED_VSYNC : 0) |
				 (r.flags & FB_REC_WARMUP ? GS_FEED_F_WARMUP : 0),
			.disturbance = r.disturbance,
		};

		fb_feed_publish(e->feed, frame, &ff);
	}
	if (fb_marker_fd >= 0) {
		fb_marker_counter("frametime_us", (int64_t)(r.frametime_ns / 1000));
		if (T)
			fb_marker_counter("missed_vsyncs", r.missed_vsyncs);
	}
	/* the frame slot is free: the first stage may start another frame */
	sh->pacing_wake_ns = gs_now_ns();
	atomic_store_explicit(&sh->presented, (uint32_t)(frame + 1),
			      memory_order_release);
	fb_futex_wake(&sh->presented, 1);
	return 0;
}

/* Runs one frame's plan of a stage, step by step; < 0 when the run
 * stops. */
static int run_plan(const struct fb_engine *e, const struct fb_task *t,
		    const struct fb_stage_plan *plan, uint64_t frame,
		    struct fb_frame_slot *slot, struct async_state *as)
{
	struct fb_shm *sh = e->sh;
	const struct fb_profile *p = e->p;
	struct fb_tstat *ts = tstat_of(e, t);
	unsigned s = t->idx;
	int rc = 0;

	for (unsigned i = 0; i < plan->nops && rc >= 0; i++) {
		const struct fb_op *op = &plan->op[i];

		switch (op->kind) {
		case FB_STEP_WORK:
			fb_work_ns(op->ns);
			break;
		case FB_STEP_LOCK:
			rc = fb_mutex_lock(sh, (unsigned)op->target, ts);
			if (rc == 0) {
				fb_work_ns(op->ns);
				fb_mutex_unlock(sh, (unsigned)op->target);
			}
			break;
		case FB_STEP_CALL:
			rc = stage_call(e, t, op, frame, slot);
			break;
		case FB_STEP_JOIN:
			rc = stage_async(e, t, op, plan, frame, slot, as);
			break;
		default:
			rc = p->stage[s].step[op->step].async
				     ? stage_async(e, t, op, plan, frame,
						   slot, as)
				     : stage_fanout(e, t, op, plan, frame,
						    slot);
			break;
		}
	}
	return rc;
}

static void stage_loop(const struct fb_engine *e, const struct fb_task *t)
{
	struct fb_shm *sh = e->sh;
	const struct fb_profile *p = e->p;
	const struct fb_config *cfg = e->cfg;
	unsigned s = t->idx, F = p->frames_in_flight;
	bool last = s == p->nstages - 1;
	struct fb_tstat *ts = tstat_of(e, t);
	struct fb_stage_plan *plan = malloc(sizeof(*plan));
	struct pstate ps = { 0 };
	struct async_state as = { 0 };

	if (!plan) {
		fb_fail_run(sh, "out of memory in stage %s", p->stage[s].name);
		return;
	}
	for (uint64_t frame = 0;; frame++) {
		struct fb_frame_slot *slot = &sh->slot[frame % FB_SLOTS];
		uint64_t slept_at = 0;
		int rc = 0;

		if (s == 0) {
			if (frame >= F) {
				rc = fb_wait_until_ge(sh, &sh->presented,
						      (uint32_t)(frame + 1 - F),
						      &slept_at);
				if (rc < 0)
					break;
				if (rc)
					fb_note_wake(sh, ts, sh->pacing_wake_ns,
						     slept_at, gs_now_ns());
			}
			if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
				break;
			slot->start_ns = gs_now_ns();
			slot->input_ns = atomic_load_explicit(&sh->input_last_ns,
							      memory_order_acquire);
			atomic_store_explicit(&slot->chain_ops, 1,
					      memory_order_relaxed);
			atomic_store_explicit(&slot->chain_woken, rc > 0,
					      memory_order_relaxed);
			fb_marker_begin("frame", frame);
		} else {
			struct fb_chan *ch = &sh->chan[s];

			rc = fb_wait_until_ge(sh, &ch->posted, (uint32_t)(frame + 1),
					      &slept_at);
			if (rc < 0)
				break;
			fb_chain_woke(slot, rc);
			if (rc)
				fb_note_wake(sh, ts, ch->wake_ns[frame % FB_SLOTS],
					     slept_at, gs_now_ns());
			fb_marker_begin(p->stage[s].name, frame);
		}

		fb_plan_stage(p, cfg->seed, frame, s, plan);
		rc = run_plan(e, t, plan, frame, slot, &as);
		fb_marker_end();
		if (rc < 0)
			break;
		if (!last) {
			struct fb_chan *ch = &sh->chan[s + 1];

			fb_chain_op(slot);
			ch->wake_ns[frame % FB_SLOTS] = gs_now_ns();
			atomic_fetch_add_explicit(&ch->posted, 1,
						  memory_order_release);
			fb_futex_wake(&ch->posted, 1);
		} else if (present(e, t, frame, slot, &ps) < 0) {
			break;
		}
	}
	free(plan);
}

/* ---- periodic tasks ------------------------------------------------------- */

static void periodic_loop(const struct fb_engine *e, const struct fb_task *t)
{
	struct fb_shm *sh = e->sh;
	const struct fb_periodic *per = &e->p->periodic[t->idx];
	struct fb_tstat *ts = tstat_of(e, t);
	uint64_t T = per->period_ns, next = sh->t0 + T, k = 0;

	for (;;) {
		uint64_t now, done;
		uint32_t work, hold;
		bool counted;

		if (fb_sleep_until(sh, next) < 0)
			return;
		now = gs_now_ns();
		counted = fb_in_window(sh, next);
		if (counted)
			gs_hist_add(&ts->wake, now - next);
		fb_plan_periodic(e->p, e->cfg->seed, (int)t->idx, k, &work, &hold);
		fb_work_ns(work);
		if (per->lock >= 0 &&
		    fb_mutex_lock(sh, (unsigned)per->lock, ts) == 0) {
			fb_work_ns(hold);
			fb_mutex_unlock(sh, (unsigned)per->lock);
		}
		done = gs_now_ns();
		if (t->idx == FB_PER_INPUT)
			atomic_store_explicit(&sh->input_last_ns, now,
					      memory_order_release);
		if (counted) {
			ts->periods++;
			if (t->idx == FB_PER_AUDIO && done - next > per->deadline_ns)
				ts->misses++;
		}
		k++;
		next += T;
		/* whole periods that went by while this one ran late are lost
		 * (an audio buffer underrun), not caught up */
		if (done >= next + T) {
			uint64_t lost = (done - next) / T;

			if (counted) {
				ts->skipped += lost;
				if (t->idx == FB_PER_AUDIO)
					ts->misses += lost;
			}
			next += lost * T;
			k += lost;
		}
	}
}


void fb_task_run(const struct fb_engine *e, const struct fb_task *t)
{
	switch (t->kind) {
	case FB_T_STAGE:
		stage_loop(e, t);
		break;
	case FB_T_WORKER:
		worker_loop(e, t);
		break;
	case FB_T_SERVICE:
		service_loop(e, t);
		break;
	default:
		periodic_loop(e, t);
		break;
	}
}
