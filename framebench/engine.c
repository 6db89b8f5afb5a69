// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipeline engine: stage threads that hand frames to each other, the
 * job workers of the fan-outs, the request/reply services, and the
 * periodic tasks, spread over the benchmark and its helper processes. They
 * share one MAP_SHARED anonymous mapping (inherited by fork, so no /dev/shm
 * is needed) and wake each other through futexes in it.
 */
#include "fb.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "feed.h"
#include "markers.h"
#include "pace.h"
#include "plan.h"
#include "spawn.h"
#include "sync.h"
#include "work.h"

static struct fb_engine *E;	/* this process's view (copied by fork) */

/* ---- layout ---------------------------------------------------------- */

unsigned fb_classes(const struct fb_profile *p, char out[][FB_NAME_MAX])
{
	unsigned n = 0;

	for (unsigned s = 0; s < p->nstages; s++)
		gs_strlcpy(out[n++], p->stage[s].name, FB_NAME_MAX);
	gs_strlcpy(out[n++], "worker", FB_NAME_MAX);
	for (unsigned s = 0; s < p->nservices; s++)
		gs_strlcpy(out[n++], p->service[s].name, FB_NAME_MAX);
	for (int k = 0; k < FB_PER_N; k++)
		gs_strlcpy(out[n++], fb_periodic_names[k], FB_NAME_MAX);
	gs_strlcpy(out[n++], "vsync", FB_NAME_MAX);
	return n;
}

static unsigned class_of(const struct fb_engine *e, const char *name)
{
	for (unsigned i = 0; i < e->nclasses; i++)
		if (!strcmp(e->cls[i], name))
			return i;
	return 0;
}

static unsigned new_tstat(struct fb_engine *e, const char *name,
			  const char *cls)
{
	struct fb_tstat *ts = &e->sh->tstat[e->sh->ntstats];

	snprintf(ts->name, sizeof(ts->name), "%s", name);
	ts->cls = class_of(e, cls);
	gs_hist_init(&ts->wake);
	gs_hist_init(&ts->lockwait);
	return e->sh->ntstats++;
}

static void add_task(struct fb_engine *e, enum fb_task_kind kind,
		     unsigned idx, int process, int prio, const char *cls,
		     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void add_task(struct fb_engine *e, enum fb_task_kind kind,
		     unsigned idx, int process, int prio, const char *cls,
		     const char *fmt, ...)
{
	struct fb_task *t = &e->task[e->ntasks++];
	va_list ap;

	t->kind = kind;
	t->idx = idx;
	t->process = process;
	t->rt_prio = prio;
	va_start(ap, fmt);
	vsnprintf(t->name, sizeof(t->name), fmt, ap);
	va_end(ap);
	t->tstat = new_tstat(e, t->name, cls);
	t->vsync_tstat = t->tstat;
}

int fb_engine_init(struct fb_engine *e, const struct fb_config *cfg,
		   struct fb_feed *feed)
{
	const struct fb_profile *p = &cfg->prof;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	e->p = p;
	e->feed = feed;
	e->sh_len = sizeof(struct fb_shm);
	e->sh = mmap(NULL, e->sh_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (e->sh == MAP_FAILED) {
		gs_warn("cannot map %zu bytes of shared memory: %s", e->sh_len,
			strerror(errno));
		e->sh = NULL;
		return -1;
	}
	e->nclasses = fb_classes(p, e->cls);
	for (unsigned s = 0; s < FB_MAX_STAGES; s++)
		e->sh->batch[s].lock = -1;

	/* SCHED_FIFO priorities with --rt: audio above input above the
	 * present above the rest of the game (as a game would ask). */
	for (unsigned s = 0; s < p->nstages; s++) {
		bool last = s == p->nstages - 1;

		add_task(e, FB_T_STAGE, s, p->stage[s].process, last ? 20 : 10,
			 p->stage[s].name, "fb-%s", p->stage[s].name);
		if (last && p->fps)
			e->task[e->ntasks - 1].vsync_tstat =
				new_tstat(e, "vsync", "vsync");
	}
	for (unsigned w = 0; w < p->workers; w++)
		add_task(e, FB_T_WORKER, w, 0, 10, "worker", "fb-worker%u", w);
	for (unsigned s = 0; s < p->nservices; s++)
		add_task(e, FB_T_SERVICE, s, p->service[s].process, 10,
			 p->service[s].name, "fb-%s", p->service[s].name);
	for (int k = 0; k < FB_PER_N; k++)
		if (p->periodic[k].enabled)
			add_task(e, FB_T_PERIODIC, (unsigned)k,
				 p->periodic[k].process,
				 k == FB_PER_AUDIO ? 30 : k == FB_PER_INPUT ? 25 : 10,
				 fb_periodic_names[k], "fb-%s",
				 fb_periodic_names[k]);
	return 0;
}

void fb_engine_free(struct fb_engine *e)
{
	if (e->sh)
		munmap(e->sh, e->sh_len);
	e->sh = NULL;
}

/* ---- helpers ----------------------------------------------------------- */

int fb_sleep_until(struct fb_shm *sh, uint64_t when)
{
	int slept = 0;

	for (;;) {
		uint64_t now = gs_now_ns(), until;
		struct timespec ts;

		if (now >= when)
			return slept;
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return -1;
		until = when - now > FB_WAIT_SLICE_NS ? now + FB_WAIT_SLICE_NS
						       : when;
		ts.tv_sec = (time_t)(until / NSEC_PER_SEC);
		ts.tv_nsec = (long)(until % NSEC_PER_SEC);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		slept = 1;
	}
}

static struct fb_tstat *tstat_of(const struct fb_task *t)
{
	return &E->sh->tstat[t->tstat];
}

static void fail_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail_run(const char *fmt, ...)
{
	struct fb_shm *sh = E->sh;
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

static void run_job(const struct fb_task *t, struct fb_batch *b, uint32_t idx,
		    int slept, uint64_t slept_at)
{
	struct fb_shm *sh = E->sh;
	struct fb_tstat *ts = tstat_of(t);
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

static void worker_loop(const struct fb_task *t)
{
	struct fb_shm *sh = E->sh;
	unsigned nb = E->p->nstages, start = t->idx % nb;
	uint64_t slept_at = 0;
	int slept = 0;

	for (;;) {
		uint32_t seq = atomic_load_explicit(&sh->pool_seq,
						    memory_order_acquire);
		bool took = false;

		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return;
		for (unsigned k = 0; k < nb && !took; k++) {
			struct fb_batch *b = &sh->batch[(start + k) % nb];
			uint64_t w = atomic_load_explicit(&b->cursor,
							  memory_order_acquire);

			while ((uint32_t)w < ((w >> 32) & 0xff)) {
				if (atomic_compare_exchange_weak(&b->cursor, &w,
								 w + 1)) {
					run_job(t, b, (uint32_t)w, slept,
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

static void service_loop(const struct fb_task *t)
{
	struct fb_shm *sh = E->sh;
	struct fb_svc *svc = &sh->svc[t->idx];
	struct fb_tstat *ts = tstat_of(t);
	uint64_t slept_at = 0;
	int slept = 0;

	for (;;) {
		uint32_t seq = atomic_load_explicit(&svc->seq, memory_order_acquire);
		bool served = false;

		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return;
		for (unsigned c = 0; c < E->p->nstages; c++) {
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

static int stage_call(const struct fb_task *t, const struct fb_op *op,
		      uint64_t frame, struct fb_frame_slot *slot)
{
	struct fb_shm *sh = E->sh;
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
		fb_note_wake(sh, tstat_of(t), b->resp_wake_ns, slept_at,
			     gs_now_ns());
	return 0;
}

static int stage_fanout(const struct fb_task *t, const struct fb_op *op,
			const struct fb_stage_plan *plan, uint64_t frame,
			struct fb_frame_slot *slot)
{
	struct fb_shm *sh = E->sh;
	struct fb_batch *b = &sh->batch[t->idx];
	unsigned n = op->njobs;
	uint64_t slept_at = 0;
	uint32_t d0;
	int rc;

	memcpy(b->job_ns, plan->job_ns + op->job0, n * sizeof(b->job_ns[0]));
	memcpy(b->hold_ns, plan->hold_ns + op->job0, n * sizeof(b->hold_ns[0]));
	b->lock = op->target;
	b->frame = frame;
	d0 = atomic_load_explicit(&b->done, memory_order_relaxed);
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
	rc = fb_wait_while_eq(sh, &b->done, d0, &slept_at);
	if (rc < 0)
		return -1;
	fb_chain_woke(slot, rc);
	if (rc)
		fb_note_wake(sh, tstat_of(t), b->done_wake_ns, slept_at,
			     gs_now_ns());
	return 0;
}

static int present(const struct fb_task *t, uint64_t frame,
		   struct fb_frame_slot *slot, struct pstate *ps)
{
	struct fb_shm *sh = E->sh;
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
	if (E->feed) {
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

		fb_feed_publish(E->feed, frame, &ff);
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

static void stage_loop(const struct fb_task *t)
{
	struct fb_shm *sh = E->sh;
	const struct fb_profile *p = E->p;
	const struct fb_config *cfg = E->cfg;
	unsigned s = t->idx, F = p->frames_in_flight;
	bool last = s == p->nstages - 1;
	struct fb_tstat *ts = tstat_of(t);
	struct fb_stage_plan *plan = malloc(sizeof(*plan));
	struct pstate ps = { 0 };

	if (!plan) {
		fail_run("out of memory in stage %s", p->stage[s].name);
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
				rc = stage_call(t, op, frame, slot);
				break;
			default:
				rc = stage_fanout(t, op, plan, frame, slot);
				break;
			}
		}
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
		} else if (present(t, frame, slot, &ps) < 0) {
			break;
		}
	}
	free(plan);
}

/* ---- periodic tasks ------------------------------------------------------- */

static void periodic_loop(const struct fb_task *t)
{
	struct fb_shm *sh = E->sh;
	const struct fb_periodic *per = &E->p->periodic[t->idx];
	struct fb_tstat *ts = tstat_of(t);
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
		fb_plan_periodic(E->p, E->cfg->seed, (int)t->idx, k, &work, &hold);
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

/* ---- threads and processes --------------------------------------------- */

static void *task_main(void *arg)
{
	const struct fb_task *t = arg;
	struct fb_shm *sh = E->sh;
	uint64_t slept_at;

	pthread_setname_np(pthread_self(), t->name);
	/* timers fire when asked: the default 50 us slack would hide the
	 * scheduler's part of timer wake-up latency (SCHED_FIFO has none) */
	prctl(PR_SET_TIMERSLACK, 1UL);
	if (E->cfg->rt) {
		struct sched_param sp = { .sched_priority = t->rt_prio };
		int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

		if (err)
			fail_run("--rt: SCHED_FIFO for %s: %s", t->name,
				 strerror(err));
	}
	atomic_fetch_add(&sh->ready, 1);
	fb_futex_wake(&sh->ready, 1);
	if (fb_wait_while_eq(sh, &sh->go, 0, &slept_at) < 0)
		return NULL;
	switch (t->kind) {
	case FB_T_STAGE:
		stage_loop(t);
		break;
	case FB_T_WORKER:
		worker_loop(t);
		break;
	case FB_T_SERVICE:
		service_loop(t);
		break;
	default:
		periodic_loop(t);
		break;
	}
	return NULL;
}

/* Starts the threads of `process`; signals stay blocked in them. */
static int start_threads(struct fb_engine *e, int process)
{
	sigset_t all, old;
	int rc = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (unsigned i = 0; i < e->ntasks; i++) {
		int err;

		if (e->task[i].process != process)
			continue;
		err = pthread_create(&e->thr[i], NULL, task_main, &e->task[i]);
		if (err) {
			fail_run("cannot start thread %s: %s", e->task[i].name,
				 strerror(err));
			rc = -1;
			break;
		}
		e->thr_started[i] = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static void join_threads(struct fb_engine *e)
{
	for (unsigned i = 0; i < e->ntasks; i++)
		if (e->thr_started[i]) {
			pthread_join(e->thr[i], NULL);
			e->thr_started[i] = false;
		}
}

static _Noreturn void child_main(struct fb_engine *e, int process)
{
	char name[16];

	/* the parent handles SIGINT/SIGTERM and stops us through memory */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	snprintf(name, sizeof(name), "fb-%s", e->p->proc[process]);
	prctl(PR_SET_NAME, name);
	fb_markers_set_pid();
	start_threads(e, process);
	join_threads(e);
	_exit(atomic_load(&e->sh->failed) ? 1 : 0);
}

static void kick_all(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;

	fb_futex_wake(&sh->go, INT_MAX);
	fb_futex_wake(&sh->presented, INT_MAX);
	fb_futex_wake(&sh->pool_seq, INT_MAX);
	for (unsigned s = 0; s < FB_MAX_STAGES; s++) {
		fb_futex_wake(&sh->chan[s].posted, INT_MAX);
		fb_futex_wake(&sh->batch[s].done, INT_MAX);
	}
	for (unsigned v = 0; v < FB_MAX_SERVICES; v++) {
		fb_futex_wake(&sh->svc[v].seq, INT_MAX);
		for (unsigned s = 0; s < FB_MAX_STAGES; s++)
			fb_futex_wake(&sh->svc[v].box[s].resp, INT_MAX);
	}
	for (unsigned m = 0; m < FB_MAX_LOCKS; m++)
		fb_futex_wake(&sh->lock[m].word, INT_MAX);
}

bool fb_engine_child_died(struct fb_engine *e, const char **who)
{
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		int st;

		if (e->child[p] <= 0)
			continue;
		if (waitpid(e->child[p], &st, WNOHANG) == e->child[p]) {
			e->child[p] = 0;
			*who = e->p->proc[p];
			return true;
		}
	}
	return false;
}

int fb_engine_start(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;
	uint64_t deadline;
	unsigned used[FB_MAX_PROCS + 1] = { 0 };

	E = e;
	sh->target_ns = e->p->fps ? NSEC_PER_SEC / e->p->fps : 0;
	for (unsigned i = 0; i < e->ntasks; i++)
		used[e->task[i].process]++;
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		pid_t pid;

		if (!used[p])
			continue;
		pid = gs_fork_tied();
		if (pid < 0) {
			gs_warn("cannot fork helper process %s: %s",
				e->p->proc[p], strerror(errno));
			atomic_store(&sh->stop, 1);
			return -1;
		}
		if (pid == 0)
			child_main(e, (int)p);
		e->child[p] = pid;
	}
	if (start_threads(e, 0) < 0) {
		gs_warn("%s", sh->fail_msg);
		return -1;
	}
	/* wait until every thread of every process is ready */
	deadline = gs_now_ns() + 20 * NSEC_PER_SEC;
	for (;;) {
		uint32_t r = atomic_load(&sh->ready);
		const char *who;

		if (r >= e->ntasks)
			break;
		if (atomic_load(&sh->failed)) {
			gs_warn("%s", sh->fail_msg);
			return -1;
		}
		if (fb_engine_child_died(e, &who)) {
			gs_warn("helper process %s exited during start-up", who);
			return -1;
		}
		if (gs_now_ns() > deadline) {
			gs_warn("only %u of %u threads started within 20 s", r,
				e->ntasks);
			return -1;
		}
		fb_futex_wait(&sh->ready, r, 10 * NSEC_PER_MSEC);
	}
	if (atomic_load(&sh->failed)) {
		gs_warn("%s", sh->fail_msg);
		return -1;
	}
	sh->t0 = gs_now_ns();
	sh->measure_ns = sh->t0 + e->cfg->warmup_ns;
	atomic_store(&sh->end_ns, sh->measure_ns + e->cfg->duration_ns);
	atomic_store(&sh->input_last_ns, sh->t0);
	atomic_store_explicit(&sh->go, 1, memory_order_release);
	fb_futex_wake(&sh->go, INT_MAX);
	return 0;
}

void fb_engine_stop(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;
	uint64_t deadline;

	if (!sh)
		return;
	atomic_store(&sh->stop, 1);
	kick_all(e);
	join_threads(e);
	/* helpers see the stop flag within one wait slice (100 ms) */
	deadline = gs_now_ns() + 3 * NSEC_PER_SEC;
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		int st;

		while (e->child[p] > 0) {
			pid_t r = waitpid(e->child[p], &st, WNOHANG);

			if (r == e->child[p] || (r < 0 && errno == ECHILD)) {
				e->child[p] = 0;
				break;
			}
			if (gs_now_ns() > deadline) {
				gs_warn("helper process %s did not stop; "
					"killing it",
					e->p->proc[p]);
				kill(e->child[p], SIGKILL);
				waitpid(e->child[p], &st, 0);
				e->child[p] = 0;
				break;
			}
			kick_all(e);
			usleep(5000);
		}
	}
}
