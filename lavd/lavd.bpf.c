// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd: a latency-criticality aware virtual deadline scheduler for
 * sched_ext (design: docs/lavd.md). This file holds the sched_ext
 * callbacks; the policy itself sits in the concern files included below
 * and its arithmetic in policy.h.
 *
 * Shape: tasks wait in one earliest-virtual-deadline queue per compute
 * domain (NUMA node x LLC x core type; one global queue on a single-LLC
 * machine with one core type). A task's deadline comes closer
 * the more latency-critical it is (wakes and sleeps often, runs briefly,
 * woken by interrupts or critical tasks) and moves away while it is
 * greedy (more service than the average runnable task). Waking tasks go
 * straight to an idle CPU when there is one; when none is, a
 * latency-critical one evicts a less critical running task. The slice
 * adapts to keep the queue's latency near 10 ms, is boosted for long
 * runners while there is room, and capped while pinned tasks wait.
 * Probable futex holders are not evicted and get one slice extension.
 * Energy: tasks are placed on the CPUs of the active set only (core
 * compaction, power modes), on a big or little core by their performance
 * criticality, and queued work moves between domains by a
 * stealer/stealee plan, stealing, donation and force-steal.
 *
 * This is the only compilation unit. The concern files, in include order;
 * each uses only what the files before it define (its top says which):
 *
 *   lavd.bpf.h      common state: task/CPU contexts, the loader's settings,
 *                   system-wide globals, accessors (it includes
 *                   lib/scx_compat.bpf.h, intf.h, policy.h, energy.h and knobs.h)
 *   gameprof.bpf.h  game profiles: each task's knob set, the exec and
 *                   rename events the loader matches processes by
 *   lat_cri.bpf.h   behaviour tracking, latency criticality, deadlines,
 *                   the runnable-service average for EEVDF-style lag
 *   lock.bpf.h      futex lock-holder tracking (fexit or syscall tracepoints)
 *   slice.bpf.h     per-task slice: boost for long runners, pinned-task cap,
 *                   remote shrink, the holder's slice extension
 *   pinned.bpf.h    per-CPU queues for tasks pinned to one CPU
 *   domain.bpf.h    compute domains: queues, stealer/stealee plan, stealing
 *   power.bpf.h     core compaction, power modes, big/little, cpufreq
 *   idle.bpf.h      CPU selection for a waking task
 *   preempt.bpf.h   wake-up preemption: victim choice and eviction
 *   sample.bpf.h    sampled scheduling decisions into a ring buffer
 *   sys_stat.bpf.h  10 ms timer: queue length, slice, published statistics
 */
#include "lavd.bpf.h"
#include "gameprof.bpf.h"
#include "lat_cri.bpf.h"
#include "lock.bpf.h"
#include "slice.bpf.h"
#include "pinned.bpf.h"
#include "domain.bpf.h"
#include "power.bpf.h"
#include "power_init.bpf.h"
#include "idle.bpf.h"
#include "preempt.bpf.h"
#include "sample.bpf.h"
#include "sys_stat.bpf.h"

char _license[] SEC("license") = "GPL";

/* A task wakes up: choose its CPU (idle.bpf.h). */
SEC("struct_ops/lavd_select_cpu")
s32 BPF_PROG(lavd_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc;
	bool is_idle;
	s32 cpu;

	if (!taskc || READ_ONCE(debug_stall))
		return prev_cpu;
	cpu = pick_cpu(p, taskc, prev_cpu, wake_flags, &is_idle);
	taskc->direct = is_idle;
	/* an idle CPU has nothing to compete with: skip the queues */
	if (is_idle) {
		taskc->last_enq_clk = lavd_now();
		taskc->pinned_q = false;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, READ_ONCE(sys_slice), 0);
		cpuc = get_cpu_ctx();
		if (cpuc) {
			cpuc->nr_direct++;
			cpuc->nr_enq++;
		}
	}
	return cpu;
}

/*
 * Where an unpinned task leaving ops.enqueue belongs: its home CPU, into
 * *cpu. SCX_ENQ_LAST: dispatch left its slice at 0 so that it leaves this
 * CPU (should_move, power.bpf.h): straight to an idle CPU of its home
 * domain if any, or, with nowhere better, kept running here. true: the
 * task is placed.
 */
static __always_inline bool enqueue_home(struct task_struct *p,
					 struct task_ctx *taskc,
					 struct cpu_ctx *cpuc, s32 *cpu,
					 u64 slice, u64 enq_flags)
{
	s32 home = home_cpu(p, taskc, *cpu), idle;

	if (home != *cpu && (enq_flags & SCX_ENQ_LAST)) {
		idle = idle_cpu_for(p, cpu_to_dom(home));
		if (idle >= 0) {
			cpuc->nr_direct++;
			lavd_dsq_insert(p, SCX_DSQ_LOCAL_ON | idle, slice, enq_flags);
			scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
			return true;
		}
	} else if (home == *cpu && (enq_flags & SCX_ENQ_LAST)) {
		/* the kernel would otherwise idle this CPU with the task
		 * queued */
		cpuc->nr_keep++;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
		scx_bpf_kick_cpu(*cpu, 0);
		return true;
	}
	*cpu = home;
	return false;
}

/* A task needs a CPU and was not placed directly (select_cpu). */
SEC("struct_ops/lavd_enqueue")
void BPF_PROG(lavd_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu = scx_bpf_task_cpu(p), idle = -1, revoke = -1;
	u32 dom = cpu_to_dom(cpu);
	u64 slice = READ_ONCE(sys_slice), vdl;
	bool pinned;

	if (!taskc || !cpuc) {
		/* No context (allocation failed): the kernel's global FIFO
		 * queue still gets the task run. */
		lavd_dsq_insert(p, SCX_DSQ_GLOBAL, slice, enq_flags);
		return;
	}
	prof_sync(p, taskc);
	cpuc->nr_enq++;
	if (enq_flags & SCX_ENQ_REENQ)
		cpuc->nr_reenq++;	/* handed back by ops.cpu_release */
	taskc->last_enq_clk = lavd_now();
	taskc->direct = false;
	taskc->pinned_q = false;

	/* Bound to this CPU now, or dying: keep it there, wake the CPU. */
	if (is_migration_disabled(p) || (p->flags & PF_EXITING)) {
		cpuc->nr_local_pinned++;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}

	/* A requeue (slice expired, re-enqueue) is not a wakeup: refresh
	 * lat_cri without the wakeup boosts. Wakeups were handled in
	 * ops.runnable. */
	if (!(enq_flags & SCX_ENQ_WAKEUP)) {
		update_lat_cri(p, taskc, taskc->last_enq_clk);
		update_perf_cri(p, taskc);
	}
	vdl = calc_vdeadline(p, taskc);
	if (taskc->greedy)
		cpuc->nr_greedy++;

	/* fault injection: queued, and dispatch moves nothing */
	if (READ_ONCE(debug_stall)) {
		lavd_dsq_insert_vtime(p, dom_dsq(dom), slice, vdl, enq_flags);
		return;
	}

	/* Where it belongs: usable, of the right core type. */
	if (!is_pinned(p)) {
		if (enqueue_home(p, taskc, cpuc, &cpu, slice, enq_flags))
			return;
		dom = cpu_to_dom(cpu);
	}

	/* Its CPU went idle meanwhile (e.g. a pinned wakeup that skipped
	 * select_cpu): run it there now. */
	if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
		cpuc->nr_direct++;
		taskc->direct = true;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL_ON | cpu, slice, enq_flags);
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}

	/* An idle CPU is woken once the task is queued; with none, a boost
	 * on its CPU that already ran a system slice is called in
	 * (slice.bpf.h), or it may evict a running task (preempt.bpf.h).
	 * A pinned task has only its CPU: it may evict, then waits in that
	 * CPU's own queue (pinned.bpf.h). */
	pinned = is_pinned(p);
	if (!pinned) {
		idle = idle_cpu_for(p, dom);
		if (idle < 0)
			revoke = boost_to_revoke(taskc, cpu);
	}
	if (idle < 0 && revoke < 0 && try_preempt(p, taskc, cpu, slice, enq_flags))
		return;
	if (pinned) {
		taskc->pinned_q = true;
		enqueue_pinned(p, cpu, slice, vdl, enq_flags, cpuc);
		return;
	}
	lavd_dsq_insert_vtime(p, dom_dsq(dom), slice, vdl, enq_flags);
	if (idle >= 0) {
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
	} else if (revoke >= 0) {
		struct cpu_ctx *v = get_cpu_ctx_of(revoke);

		if (v && cut_running_slice(revoke, v, READ_ONCE(sys_slice), lavd_now()))
			cpuc->nr_slice_shrink++;
	}
}

/* This CPU has nothing to run: find it work, else keep the previous task. */
SEC("struct_ops/lavd_dispatch")
void BPF_PROG(lavd_dispatch, s32 cpu, struct task_struct *prev)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u32 own = cpu_to_dom(cpu);
	struct task_ctx *taskc;
	bool usable;

	if (!cpuc)
		return;
	/* fault injection: nothing runs until the watchdog ejects lavd */
	if (READ_ONCE(debug_stall)) {
		cpuc->nr_stall_skips++;
		return;
	}
	/* the waiters of a futex holder's lock would wait behind the queue */
	if (extend_holder(prev, cpuc))
		return;
	/* pinned tasks can run nowhere else: theirs first unless the domain
	 * queue's head has the earlier deadline (before any steal) */
	if (dispatch_pinned_first(cpu, own))
		return;
	/* outside the active and overflow sets a CPU takes only pinned work */
	usable = cpu_usable(cpu);
	if (usable) {
		/* the plan moves work off over-loaded domains (domain.bpf.h) */
		if (steal_planned(own, cpuc))
			return;
		if (lavd_dsq_move_to_local(dom_dsq(own)))
			return;
		/* work conservation: any neighbour's queue rather than idle */
		if (steal_forced(own, cpuc))
			return;
	}
	if (lavd_dsq_move_to_local(cpu_dsq(cpu)))
		return;
	/* Nothing queued: the previous task goes on rather than idle the
	 * CPU, unless it should leave it (power.bpf.h): then its slice stays
	 * at 0 and the kernel hands it to ops.enqueue with SCX_ENQ_LAST. */
	if (prev && (prev->scx.flags & SCX_TASK_QUEUED)) {
		taskc = get_task_ctx(prev);
		if (taskc)
			demand_update(taskc, lavd_now());
		if (should_move(prev, taskc, cpu, usable)) {
			cpuc->nr_move++;
			return;
		}
		if (!usable)
			add_overflow(cpu);	/* it may run nowhere else */
		lavd_set_slice(prev, READ_ONCE(sys_slice));
		cpuc->nr_keep++;
	}
}

/* The task joins the runnable set. */
SEC("struct_ops/lavd_runnable")
void BPF_PROG(lavd_runnable, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	u64 now;

	if (!taskc)
		return;
	prof_sync(p, taskc);
	/* its service joins the average the lag is measured against */
	svc_sum_set(taskc, task_eff_weight(p, taskc));
	now = lavd_now();
	demand_runnable(taskc, now);
	/* only a real wakeup feeds the frequencies, boosts and inheritance */
	if (!(enq_flags & SCX_ENQ_WAKEUP))
		return;
	note_wakeup(p, taskc, now);
	update_lat_cri(p, taskc, now);
	update_perf_cri(p, taskc);
}

/* The task got a CPU. */
SEC("struct_ops/lavd_running")
void BPF_PROG(lavd_running, struct task_struct *p)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu = bpf_get_smp_processor_id();
	u64 now = lavd_now(), slice, stop;
	u32 holder, pi;

	if (!taskc || !cpuc)
		return;
	prof_sync(p, taskc);
	/* see lavd.bpf.h; the running kernel's task_struct size (CO-RE),
	 * not this build's: 6.12's defconfig one is 1.5 KB larger */
	if (debug_verifier_reject)
		now += *(volatile u64 *)((char *)p +
					 bpf_core_type_size(struct task_struct) + 64);
	taskc->last_running_clk = now;
	taskc->wait_ns = taskc->last_enq_clk && now > taskc->last_enq_clk ?
			 now - taskc->last_enq_clk : 0;
	taskc->clk_at_run = READ_ONCE(cur_logical_clk);
	taskc->preempted_by = 0;
	advance_clock(taskc->vdeadline);

	/* set here, on the CPU it got: the pinned cap depends on the CPU */
	slice = slice_for_run(p, taskc, cpu, cpuc);
	lavd_set_slice(p, slice);
	stop = lavd_est_stop(now, taskc->avg_runtime, slice);

	/* what runs here, for other CPUs' victim choice and slice control */
	cpuc->running_lat_cri = taskc->lat_cri;
	cpuc->running_clk = now;
	cpuc->busy_mark = now;
	cpuc->running_slice = slice;
	cpuc->running_pid = (u32)p->pid;
	cpuc->preempt_by = 0;
	holder = prof_holder(taskc);
	cpuc->running_flags = CPUF_RUNNING | (taskc->slice_boosted ? CPUF_BOOSTED : 0) |
			      ((holder & LAVD_HOLDER) ? CPUF_HOLDER : 0) |
			      (taskc->greedy ? CPUF_GREEDY : 0) |
			      (has_prof(taskc) && !(taskc->kn.flags & LAVD_KN_EVICTABLE) ?
			       CPUF_NOEVICT : 0) |
			      (cpuc->running_flags & CPUF_RT);
	/* 0 would mean claimed by an eviction */
	WRITE_ONCE(cpuc->running_stop_clk, stop ? stop : 1);
	cpuc->nr_sched++;
	cpuc->sum_lat_cri += taskc->lat_cri;
	if (taskc->lat_cri > cpuc->max_lat_cri)
		cpuc->max_lat_cri = taskc->lat_cri;
	if (taskc->lat_cri >= READ_ONCE(lat_cri_thresh))
		cpuc->nr_lat_cri++;
	/* which profile's tasks run, for the statistics line */
	pi = taskc->prof;
	if (game_profiles && pi < LAVD_MAX_PROFILES)
		cpuc->prof_sched[pi]++;
	energy_running(p, taskc, cpuc, cpu);
}

/* The running task is one tick further. */
SEC("struct_ops/lavd_tick")
void BPF_PROG(lavd_tick, struct task_struct *p)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u64 now = lavd_now();

	if (!cpuc)
		return;
	/* an eviction by slice := 1 lands on the next tick: its phase and,
	 * without CONFIG_HZ from the loader, its period matter */
	if (!tick_ns_cfg && cpuc->last_tick_clk && now > cpuc->last_tick_clk)
		WRITE_ONCE(tick_ns_est, lavd_tick_learn(READ_ONCE(tick_ns_est),
							now - cpuc->last_tick_clk));
	WRITE_ONCE(cpuc->last_tick_clk, now);
	if (now > cpuc->busy_mark) {
		cpuc->busy_ns += now - cpuc->busy_mark;
		cpuc->busy_mark = now;
	}
	/* pinned tasks have waited here for the pinned cap (slice.bpf.h) */
	if (pinned_slice_ns && now - cpuc->running_clk >= pinned_slice_ns &&
	    nr_pinned_waiting(bpf_get_smp_processor_id())) {
		lavd_set_slice(p, 0);
		cpuc->nr_pinned_cap++;
	}
	/* the timer computes each CPU's cpufreq target; its own tick sets it */
	cpuperf_apply(bpf_get_smp_processor_id(), cpuc);
}

/* The task leaves the CPU. */
SEC("struct_ops/lavd_stopping")
void BPF_PROG(lavd_stopping, struct task_struct *p, bool runnable)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u64 now = lavd_now(), ran;

	if (!taskc || !cpuc)
		return;
	ran = now > taskc->last_running_clk ? now - taskc->last_running_clk : 0;
	note_run_end(p, taskc, now);
	demand_update(taskc, now);
	if (now > cpuc->busy_mark)
		cpuc->busy_ns += now - cpuc->busy_mark;
	cpuc->busy_mark = now;
	if (runnable)
		taskc->preempted_by = READ_ONCE(cpuc->preempt_by);
	maybe_sample(p, taskc, cpuc, bpf_get_smp_processor_id(), ran, runnable);
	/* a holder that stops still holding is boosted next time (lock.bpf.h) */
	taskc->holder = lavd_holder_next(taskc->holder, LAVD_HEV_STOP);

	/* nothing of ours runs here: no victim for other CPUs */
	cpuc->running_flags &= CPUF_RT;
	WRITE_ONCE(cpuc->running_stop_clk, 0);
	cpuc->running_lat_cri = 0;
	cpuc->running_pid = 0;
	cpuc->preempt_by = 0;
	cpuc->running_heavy = false;
}

/* The task leaves the runnable set. */
SEC("struct_ops/lavd_quiescent")
void BPF_PROG(lavd_quiescent, struct task_struct *p, u64 deq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);

	if (!taskc)
		return;
	/* only a real sleep ends a burst, not a property change */
	if (deq_flags & SCX_DEQ_SLEEP)
		note_sleep(taskc, lavd_now());
	demand_quiescent(taskc, lavd_now());
	svc_sum_clear(taskc);
}

/* An RT/DL (or stop) task took this CPU from sched_ext. */
SEC("struct_ops/lavd_cpu_release")
void BPF_PROG(lavd_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();

	/* not a victim for lavd's wakeups while the RT/DL task runs */
	if (cpuc)
		cpuc->running_flags |= CPUF_RT;
	/* its local queue would wait behind that task: each one comes back
	 * through ops.enqueue (SCX_ENQ_REENQ) to find another CPU */
	lavd_reenqueue_local();
}

/* The CPU is back from the RT/DL classes. */
SEC("struct_ops/lavd_cpu_acquire")
void BPF_PROG(lavd_cpu_acquire, s32 cpu, struct scx_cpu_acquire_args *args)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();

	if (cpuc)
		cpuc->running_flags &= ~CPUF_RT;
}

/* A task enters sched_ext (fork, or already running when lavd loads). */
SEC("struct_ops.s/lavd_init_task")
s32 BPF_PROG(lavd_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct task_ctx *taskc;
	u64 now = lavd_now(), avg = avg_svc();

	/* task storage is freed with the task */
	taskc = bpf_task_storage_get(&lavd_task, p, 0,
				     BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!taskc)
		return -ENOMEM;
	taskc->last_runnable_clk = now;
	taskc->last_running_clk = now;
	taskc->last_quiescent_clk = now;
	/* a fork starts greedy, so that fork bombs cannot jump the queue */
	taskc->svc = args->fork ? avg + lavd_lag_max(task_weight(p)) : avg;
	taskc->slice = READ_ONCE(sys_slice);
	taskc->futex_op = -1;
	/* unknown burst length: assume a full slice, not "very short" */
	taskc->avg_runtime = taskc->slice;
	return 0;
}

/* The task leaves sched_ext (exit, class change, unload). */
SEC("struct_ops/lavd_exit_task")
void BPF_PROG(lavd_exit_task, struct task_struct *p, struct scx_exit_task_args *args)
{
	struct task_ctx *taskc = get_task_ctx(p);

	if (taskc)
		svc_sum_clear(taskc);
	/* now rather than when the task struct is freed */
	bpf_task_storage_delete(&lavd_task, p);
}

/* ops.init per CPU: a scratch cpumask, its place in the domain and energy masks. */
static long init_cpu(u64 cpu, void *data)
{
	struct cpu_ctx *c = get_cpu_ctx_of((s32)cpu);
	struct bpf_cpumask *m;
	s32 *err = data;

	if (!c)
		return 0;
	m = bpf_cpumask_create();
	if (!m) {
		*err = -ENOMEM;
		return 1;
	}
	m = bpf_kptr_xchg(&c->tmp_mask, m);
	if (m)
		bpf_cpumask_release(m);
	bpf_rcu_read_lock();
	dom_add_cpu((u32)cpu);
	energy_add_cpu((u32)cpu);
	bpf_rcu_read_unlock();
	return 0;
}

/* Runs once, sleepable, before any task is handed over. */
SEC("struct_ops.s/lavd_init")
s32 BPF_PROG(lavd_init)
{
	s32 err = 0;

	/* bpf_loop: the verifier walks each body until its state settles,
	 * not once per CPU of the machine */
	WRITE_ONCE(cur_logical_clk, LAVD_DL_COMPETE_WINDOW);
	WRITE_ONCE(tick_ns_est, tick_ns_cfg ? tick_ns_cfg : LAVD_TICK_NS_DFL);
	bpf_loop(nr_doms, init_dom, &err, 0);
	if (!err)
		err = energy_init();
	if (!err)
		bpf_loop(nr_cpu_ids, init_cpu, &err, 0);
	if (!err)
		bpf_loop(nr_cpu_ids, init_pinned_dsq, &err, 0);
	if (!err)
		err = sys_stat_init();
	return err;
}

/*
 * lavd is leaving (unregistered, error, watchdog): the kernel's reason,
 * message and debug dump go where the loader reads them.
 */
SEC("struct_ops/lavd_exit")
void BPF_PROG(lavd_exit, struct scx_exit_info *ei)
{
	gs_exit_info_record(&uei, uei_dump, sizeof(uei_dump), ei);
}

/*
 * The ops table. flags, timeout_ms, exit_dump_len and hotplug_seq are set
 * by the loader: the flag values it may use depend on the running kernel.
 * No cpu_online/cpu_offline: on hotplug the kernel asks the loader to
 * restart lavd, which then re-reads the topology.
 */
SEC(".struct_ops.link")
struct sched_ext_ops lavd_ops = {
	.select_cpu	= (void *)lavd_select_cpu,
	.enqueue	= (void *)lavd_enqueue,
	.dispatch	= (void *)lavd_dispatch,
	.runnable	= (void *)lavd_runnable,
	.running	= (void *)lavd_running,
	.tick		= (void *)lavd_tick,
	.stopping	= (void *)lavd_stopping,
	.quiescent	= (void *)lavd_quiescent,
	.cpu_acquire	= (void *)lavd_cpu_acquire,
	.cpu_release	= (void *)lavd_cpu_release,
	.init_task	= (void *)lavd_init_task,
	.exit_task	= (void *)lavd_exit_task,
	.init		= (void *)lavd_init,
	.exit		= (void *)lavd_exit,
	.name		= "lavd",
};
