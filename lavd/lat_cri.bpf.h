/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Behaviour tracking, latency criticality and virtual deadlines. The
 * arithmetic lives in policy.h; this file decides when each input is
 * sampled and keeps the runnable-service average the lag is measured
 * against. Included by lavd.bpf.c only.
 *
 * Needs: lavd.bpf.h, gameprof.bpf.h (the task's knobs).
 */
#ifndef LAVD_LAT_CRI_BPF_H
#define LAVD_LAT_CRI_BPF_H

/* ---- runnable-service average (EEVDF-style lag, our decision) ---- */

/*
 * The weight a task's service and lat_cri are measured with: its nice
 * weight, scaled by its profile's weight-scale (knobs.h). Every use below
 * takes it from here, so a task's contributions to the sums are always
 * added and taken back with the same weight.
 */
static __always_inline u64 task_eff_weight(const struct task_struct *p,
					   const struct task_ctx *taskc)
{
	u64 w = task_weight(p);

	return has_prof(taskc) ? lavd_knob_weight(w, taskc->kn.weight_scale) : w;
}

/*
 * Each runnable task contributes weight and weight * svc to two global
 * sums, so avg_svc = sum_wv / sum_w is the weighted average service of
 * the runnable tasks, as EEVDF's avg_vruntime. Contributions are kept in
 * the task so the exact amount can be taken back; atomic adds of the
 * difference keep the sums consistent across CPUs (u64 wrap-around makes
 * negative differences work).
 */
static __always_inline void svc_sum_set(struct task_ctx *taskc, u64 weight)
{
	u64 wv = weight * (taskc->svc >> SVC_SHIFT);

	if (!taskc->sum_w)
		__sync_fetch_and_add(&rq_nr, 1);
	__sync_fetch_and_add(&rq_sum_wv, wv - taskc->sum_wv);
	__sync_fetch_and_add(&rq_sum_w, weight - taskc->sum_w);
	taskc->sum_wv = wv;
	taskc->sum_w = weight;
}

static __always_inline void svc_sum_clear(struct task_ctx *taskc)
{
	if (!taskc->sum_w)
		return;
	__sync_fetch_and_sub(&rq_sum_wv, taskc->sum_wv);
	__sync_fetch_and_sub(&rq_sum_w, taskc->sum_w);
	__sync_fetch_and_sub(&rq_nr, 1);
	taskc->sum_wv = 0;
	taskc->sum_w = 0;
}

static __always_inline u64 avg_svc(void)
{
	u64 w = READ_ONCE(rq_sum_w), wv = READ_ONCE(rq_sum_wv), avg;

	/* nothing runnable (or a torn read): keep the last average */
	if (!w || wv > (LAVD_U64_MAX >> 1))
		return READ_ONCE(avg_svc_last);
	avg = (wv / w) << SVC_SHIFT;
	WRITE_ONCE(avg_svc_last, avg);
	return avg;
}

/* ---- behaviour tracking ---- */

/*
 * Context boosts that belong to the task itself, recomputed at each
 * placement (docs/lavd.md): kernel threads serve latency-critical work, more
 * so ksoftirqd and workers; restricted placement tends to delay a task.
 */
static __always_inline u64 static_boost(const struct task_struct *p)
{
	u64 boost = 0;

	if (is_kthread(p)) {
		boost += LAVD_BOOST_MEDIUM;
		if (p->comm[0] == 'k' && p->comm[1] == 's' && p->comm[2] == 'o' &&
		    p->comm[3] == 'f' && p->comm[4] == 't' && p->comm[5] == 'i')
			boost += LAVD_BOOST_HIGH;	/* ksoftirqd/N */
		if (p->flags & (PF_WQ_WORKER | PF_IO_WORKER))
			boost += LAVD_BOOST_REGULAR;
	}
	if (p->nr_cpus_allowed == 1 || is_migration_disabled(p))
		boost += LAVD_BOOST_MEDIUM;
	else if (!runs_anywhere(p))
		boost += LAVD_BOOST_REGULAR;
	return boost;
}

/*
 * The task was woken. Called from ops.runnable() in the waker's context:
 * the current task is the waker unless we are in interrupt context.
 * Samples run_freq, starts a new burst, collects the wakeup boosts, and
 * credits the waker's wake_freq and the waker/wakee inheritance.
 *
 * Our decision (docs/lavd.md): the waker is credited across processes (the
 * reference only credits tasks with the same parent), because the chains
 * that matter cross them (game -> wine server -> compositor -> audio);
 * kernel threads and interrupt context stay out.
 */
static __always_inline void note_wakeup(struct task_struct *p,
					struct task_ctx *taskc, u64 now)
{
	struct task_struct *waker;
	struct task_ctx *wakerc;
	u32 boost = LAVD_BOOST_REGULAR;

	if (taskc->last_runnable_clk && now > taskc->last_runnable_clk)
		taskc->run_freq = lavd_freq_update(taskc->run_freq,
						   now - taskc->last_runnable_clk);
	taskc->last_runnable_clk = now;
	taskc->acc_runtime = 0;
	taskc->waker_pid = 0;
	taskc->chain_vdl = 0;

	if (taskc->sync_wakeup) {
		boost += LAVD_BOOST_REGULAR;
		taskc->sync_wakeup = false;
	}
	taskc->wake_irq = 0;
	if (lavd_in_hardirq()) {
		taskc->wake_boost = boost + LAVD_BOOST_HIGHEST;
		taskc->wake_irq = 1;
		return;
	}
	if (lavd_in_serving_softirq()) {
		taskc->wake_boost = boost + LAVD_BOOST_HIGH;
		taskc->wake_irq = 2;
		return;
	}

	waker = bpf_get_current_task_btf();
	if (waker->prio < MAX_RT_PRIO)		/* woken by an RT or DL task */
		boost += LAVD_BOOST_HIGH;
	taskc->wake_boost = boost;

	if (waker == p || is_kthread(waker))
		return;
	taskc->waker_pid = waker->pid;
	/* the waker's name only while someone reads samples */
	if (READ_ONCE(sample_prob))
		bpf_probe_read_kernel_str(taskc->waker_comm,
					  sizeof(taskc->waker_comm), waker->comm);
	wakerc = get_task_ctx(waker);
	if (!wakerc)
		return;
	/* sample the waker's wake frequency at most every 500 us */
	if (now - wakerc->last_wake_clk >= LAVD_WAKE_INTERVAL_MIN) {
		if (wakerc->last_wake_clk)
			wakerc->wake_freq = lavd_freq_update(wakerc->wake_freq,
						now - wakerc->last_wake_clk);
		wakerc->last_wake_clk = now;
	}
	/* inheritance: the wakee remembers the waker, the waker its wakees */
	taskc->lat_cri_waker = wakerc->lat_cri;
	/* a link of a wake chain serves the same frame as its waker: it
	 * may keep the waker's deadline (a greedy waker passes nothing on) */
	if ((has_prof(taskc) ? taskc->kn.flags & LAVD_KN_CHAIN_DL : chain_deadline) &&
	    !wakerc->greedy)
		taskc->chain_vdl = wakerc->vdeadline;
	if (wakerc->lat_cri_wakee < taskc->lat_cri)
		wakerc->lat_cri_wakee = taskc->lat_cri;
}

/*
 * A run ended (ops.stopping): charge runtime and weighted service, and
 * fold the runtime since the last wakeup into avg_runtime. Doing that at
 * every stop, not only when the task sleeps, is what lets a CPU hog that
 * never sleeps show a long average (its acc_runtime keeps growing), as
 * the reference does.
 */
static __always_inline void note_run_end(struct task_struct *p,
					 struct task_ctx *taskc, u64 now)
{
	u64 ran = now > taskc->last_running_clk ?
		  now - taskc->last_running_clk : 0;
	u64 weight = task_eff_weight(p, taskc);

	taskc->acc_runtime += ran;
	taskc->avg_runtime = lavd_ewma(taskc->avg_runtime, taskc->acc_runtime);
	taskc->svc += lavd_svc_delta(ran, weight);
	if (taskc->sum_w)
		svc_sum_set(taskc, weight);
}

/* The task goes to sleep (ops.quiescent with SCX_DEQ_SLEEP). */
static __always_inline void note_sleep(struct task_ctx *taskc, u64 now)
{
	if (taskc->last_quiescent_clk && now > taskc->last_quiescent_clk)
		taskc->wait_freq = lavd_freq_update(taskc->wait_freq,
						    now - taskc->last_quiescent_clk);
	taskc->last_quiescent_clk = now;
}

/* Frequencies as lat_cri reads them: decayed by the silence since (ours). */
static __always_inline u64 freq_now(u64 freq, u64 last_clk, u64 now)
{
	return lavd_freq_now(freq, last_clk, now);
}

/* ---- latency criticality and the virtual deadline ---- */

/*
 * A profiled task's lat_cri (its boost and weights, knobs.h). A call of
 * its own, not inlined: the compiler then leaves the default path as it
 * was (shared code moved across the branch cost lavd without profiles
 * a fifth more verified instructions), and the verifier never walks it
 * without profiles.
 */
static __noinline u64 prof_lat_cri(struct task_struct *p, struct task_ctx *taskc,
				   u64 now, u64 hboost)
{
	struct kn_lc_args a = {
		.wait_hz = freq_now(taskc->wait_freq, taskc->last_quiescent_clk, now),
		.wake_hz = freq_now(taskc->wake_freq, taskc->last_wake_clk, now),
		.avg_runtime = taskc->avg_runtime,
		.weight = task_eff_weight(p, taskc),
		.boost = static_boost(p) + taskc->wake_boost + hboost +
			 taskc->kn.lat_cri_boost,
		.freq_w = taskc->kn.lc_freq_w,
		.run_w = taskc->kn.lc_run_w,
	};

	return kn_lat_cri(&a);
}

/*
 * Recompute lat_cri from the task's behaviour and the boosts of the
 * current placement (wakeup boosts are consumed), then fold in what the
 * waker and the wakees passed on. A game profile adds its boost and
 * weighs the two terms (knobs.h, through kn_lat_cri()).
 */
static __always_inline void update_lat_cri(struct task_struct *p,
					   struct task_ctx *taskc, u64 now)
{
	u64 hboost = lavd_holder_boost(prof_holder(taskc)), own;

	/* stopped while holding a futex: one boost, here (lock.bpf.h) */
	if (hboost) {
		struct cpu_ctx *cpuc = get_cpu_ctx();

		taskc->holder = lavd_holder_next(taskc->holder, LAVD_HEV_DEADLINE);
		if (cpuc)
			cpuc->nr_holder_boost++;
	}
	if (has_prof(taskc))
		own = prof_lat_cri(p, taskc, now, hboost);
	else
		own = lavd_lat_cri(freq_now(taskc->wait_freq, taskc->last_quiescent_clk, now),
				   freq_now(taskc->wake_freq, taskc->last_wake_clk, now),
				   taskc->avg_runtime, task_weight(p),
				   static_boost(p) + taskc->wake_boost + hboost);
	taskc->wake_boost = 0;
	taskc->lat_cri = lavd_lat_cri_inherit(own, taskc->lat_cri_waker,
					      taskc->lat_cri_wakee);
	taskc->lat_cri_waker = 0;
	taskc->lat_cri_wakee = 0;
}

/*
 * Virtual deadline for queueing: the logical clock minus the compete
 * window plus a distance that shrinks with lat_cri and grows with the
 * greedy penalty and the runtime since the last wakeup. Also clamps a
 * long sleeper's service (policy.h: lavd_lag) and records greediness.
 */
static __always_inline u64 calc_vdeadline(struct task_struct *p,
					  struct task_ctx *taskc)
{
	u64 weight = task_eff_weight(p, taskc), svc = taskc->svc, penalty;
	s64 lag;

	lag = lavd_lag(avg_svc(), &svc, weight);
	if (svc != taskc->svc) {
		taskc->svc = svc;
		if (taskc->sum_w)
			svc_sum_set(taskc, weight);
	}
	taskc->greedy = lag < 0;
	penalty = lavd_greedy_penalty(lag, weight);
	taskc->vdeadline = lavd_vtime(READ_ONCE(cur_logical_clk),
				      lavd_compete_window(nr_cpus_online,
							  READ_ONCE(nr_queued_last)),
				      lavd_deadline_delta(taskc->acc_runtime,
							  penalty, taskc->lat_cri));
	taskc->vdeadline = lavd_chain_deadline(taskc->vdeadline, taskc->chain_vdl,
					       READ_ONCE(cur_logical_clk), taskc->greedy);
	taskc->chain_vdl = 0;	/* for the wakeup's enqueue only, not requeues */
	return taskc->vdeadline;
}

/*
 * A task starts running: move the logical clock towards its deadline by
 * the distance divided by the queue length. Compare-and-swap so that the
 * clock never goes back when CPUs race; a few retries, then give up (the
 * next task moves it).
 */
static __always_inline void advance_clock(u64 vdeadline)
{
	u64 nr_q = READ_ONCE(nr_queued_last);

	for (int i = 0; i < 4; i++) {
		u64 clk = READ_ONCE(cur_logical_clk);
		u64 next = lavd_clock_advance(clk, vdeadline, nr_q);

		if (next == clk ||
		    __sync_val_compare_and_swap(&cur_logical_clk, clk, next) == clk)
			return;
	}
}

#endif
