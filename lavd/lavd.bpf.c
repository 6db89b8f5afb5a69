// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd: a latency-criticality aware virtual deadline scheduler for
 * sched_ext (../shared/brief/LAVD.md). This file holds the sched_ext
 * callbacks, each short and saying why it does what it does; the policy
 * itself sits in the concern files included below and its arithmetic in
 * policy.h.
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
 * Energy (issue 6): tasks are placed on the CPUs of the active set only
 * (core compaction, power modes), on a big or little core by their
 * performance criticality, and queued work moves between domains by a
 * stealer/stealee plan, stealing, donation and force-steal.
 */
#include "lavd.bpf.h"
#include "lat_cri.bpf.h"
#include "lock.bpf.h"
#include "slice.bpf.h"
#include "pinned.bpf.h"
#include "domain.bpf.h"
#include "power.bpf.h"
#include "idle.bpf.h"
#include "preempt.bpf.h"
#include "sample.bpf.h"
#include "sys_stat.bpf.h"

char _license[] SEC("license") = "GPL";

/*
 * ops.select_cpu: a task wakes up. Choose its CPU; if that CPU is idle,
 * hand the task to it directly (local queue), skipping the shared queue
 * and ops.enqueue: an idle CPU has nothing to compete with.
 */
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
 * ops.enqueue: the task needs a CPU and was not placed directly. Tasks
 * that must stay where they are (migration disabled, exiting) go to their
 * CPU's local queue. The others get a virtual deadline and a home CPU:
 * their CPU if it is usable (active set) and of the right core type, else
 * one in the nearest such domain (idle.bpf.h); then, in order: the home
 * CPU if it went idle; a task pinned to one CPU joins that CPU's pinned
 * queue; an idle usable CPU (of the home domain first) is woken for the
 * domain's queue; failing that, a boosted slice on its CPU that already
 * ran a system slice is called in (slice.bpf.h), or a latency-critical
 * task may evict a running one (preempt.bpf.h); else it waits in its
 * home domain's queue. A task handed over with SCX_ENQ_LAST (dispatch
 * decided it should leave its CPU, power.bpf.h) that finds no other
 * home stays where it is.
 */
SEC("struct_ops/lavd_enqueue")
void BPF_PROG(lavd_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu = scx_bpf_task_cpu(p), idle, revoke = -1, home;
	u32 dom = cpu_to_dom(cpu);
	u64 slice = READ_ONCE(sys_slice), vdl;

	if (!taskc || !cpuc) {
		/* No context (allocation failed): the kernel's global FIFO
		 * queue still gets the task run. */
		lavd_dsq_insert(p, SCX_DSQ_GLOBAL, slice, enq_flags);
		return;
	}
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

	if (READ_ONCE(debug_stall)) {
		lavd_dsq_insert_vtime(p, dom_dsq(dom), slice, vdl, enq_flags);
		return;
	}

	/* Where it belongs: usable, of the right core type. */
	if (!is_pinned(p)) {
		home = home_cpu(p, taskc, cpu);
		if (home != cpu && (enq_flags & SCX_ENQ_LAST)) {
			/* leaving its CPU: straight to an idle one if any */
			idle = idle_cpu_for(p, cpu_to_dom(home));
			if (idle >= 0) {
				cpuc->nr_direct++;
				lavd_dsq_insert(p, SCX_DSQ_LOCAL_ON | idle, slice, enq_flags);
				scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
				return;
			}
		} else if (home == cpu && (enq_flags & SCX_ENQ_LAST)) {
			/* nowhere better: keep running here (the kernel would
			 * otherwise idle this CPU with the task queued) */
			cpuc->nr_keep++;
			lavd_dsq_insert(p, SCX_DSQ_LOCAL, slice, enq_flags);
			scx_bpf_kick_cpu(cpu, 0);
			return;
		}
		cpu = home;
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

	if (is_pinned(p)) {
		if (try_preempt(p, taskc, cpu, slice, enq_flags, cpuc))
			return;
		taskc->pinned_q = true;
		enqueue_pinned(p, cpu, slice, vdl, enq_flags, cpuc);
		return;
	}

	/* An idle CPU is woken once the task is queued; with none, a boost
	 * on its CPU is called in, or it may evict a running task. */
	idle = idle_cpu_for(p, dom);
	if (idle < 0)
		revoke = boost_to_revoke(taskc, cpu);
	if (idle < 0 && revoke < 0 && try_preempt(p, taskc, cpu, slice, enq_flags, cpuc))
		return;
	lavd_dsq_insert_vtime(p, dom_dsq(dom), slice, vdl, enq_flags);
	if (idle >= 0) {
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
	} else if (revoke >= 0) {
		struct cpu_ctx *v = get_cpu_ctx_of(revoke);

		if (v && cut_running_slice(revoke, v, READ_ONCE(sys_slice), lavd_now()))
			cpuc->nr_slice_shrink++;
	}
}

/*
 * ops.dispatch: this CPU has nothing to run. A futex holder whose slice
 * ran out keeps the CPU for one more slice. Otherwise, on a usable CPU
 * (active or overflow set): a stealer domain's CPU first takes planned
 * work from an over-loaded neighbour (domain.bpf.h); then the earliest
 * deadline of this CPU's pinned queue and its domain's queue; else it
 * force-steals from any neighbour (work conservation). A CPU outside the
 * active set takes only work pinned to it. If all are empty, the previous
 * task goes on with a fresh slice rather than idling the CPU - unless it
 * should leave this CPU (the CPU left the active set, or it wants a big
 * core and one is idle): then its slice stays at 0 and the kernel hands
 * it to ops.enqueue with SCX_ENQ_LAST.
 */
SEC("struct_ops/lavd_dispatch")
void BPF_PROG(lavd_dispatch, s32 cpu, struct task_struct *prev)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u32 own = cpu_to_dom(cpu);
	struct task_ctx *taskc;
	bool usable;

	if (!cpuc)
		return;
	if (READ_ONCE(debug_stall)) {
		cpuc->nr_stall_skips++;
		return;
	}
	if (extend_holder(prev, cpuc))
		return;
	if (dispatch_pinned_first(cpu, own))
		return;
	usable = cpu_usable(cpu);
	if (usable) {
		if (steal_planned(own, cpuc))
			return;
		if (lavd_dsq_move_to_local(dom_dsq(own)))
			return;
		if (steal_forced(own, cpuc))
			return;
	}
	if (lavd_dsq_move_to_local(cpu_dsq(cpu)))
		return;
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

/*
 * ops.runnable: the task joins the runnable set. Its service enters the
 * runnable average the lag is measured against; on a real wakeup the
 * wakeup itself is recorded (frequencies, boosts, inheritance) and
 * lat_cri recomputed with those boosts.
 */
SEC("struct_ops/lavd_runnable")
void BPF_PROG(lavd_runnable, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	u64 now;

	if (!taskc)
		return;
	svc_sum_set(taskc, task_weight(p));
	now = lavd_now();
	demand_runnable(taskc, now);
	if (!(enq_flags & SCX_ENQ_WAKEUP))
		return;
	note_wakeup(p, taskc, now);
	update_lat_cri(p, taskc, now);
	update_perf_cri(p, taskc);
}

/*
 * ops.running: the task got a CPU. Advance the logical clock towards its
 * deadline, give it its slice for this CPU (slice.bpf.h), note what this
 * CPU runs for the victim choice of other CPUs' wakeups, and count
 * migrations and big/little placement (power.bpf.h).
 */
SEC("struct_ops/lavd_running")
void BPF_PROG(lavd_running, struct task_struct *p)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu = bpf_get_smp_processor_id();
	u64 now = lavd_now(), slice, stop;

	if (!taskc || !cpuc)
		return;
	if (debug_verifier_reject)	/* see lavd.bpf.h */
		now += *(volatile u64 *)((char *)p + sizeof(*p) + 64);
	taskc->last_running_clk = now;
	taskc->wait_ns = taskc->last_enq_clk && now > taskc->last_enq_clk ?
			 now - taskc->last_enq_clk : 0;
	taskc->clk_at_run = READ_ONCE(cur_logical_clk);
	taskc->preempted_by = 0;
	advance_clock(taskc->vdeadline);

	slice = slice_for_run(p, taskc, cpu, cpuc);
	lavd_set_slice(p, slice);
	stop = lavd_est_stop(now, taskc->avg_runtime, slice);

	cpuc->running_lat_cri = taskc->lat_cri;
	cpuc->running_clk = now;
	cpuc->busy_mark = now;
	cpuc->running_slice = slice;
	cpuc->running_pid = (u32)p->pid;
	cpuc->preempt_by = 0;
	cpuc->running_flags = CPUF_RUNNING | (taskc->slice_boosted ? CPUF_BOOSTED : 0) |
			      ((taskc->holder & LAVD_HOLDER) ? CPUF_HOLDER : 0) |
			      (cpuc->running_flags & CPUF_RT);
	WRITE_ONCE(cpuc->running_stop_clk, stop ? stop : 1);
	cpuc->nr_sched++;
	cpuc->sum_lat_cri += taskc->lat_cri;
	if (taskc->lat_cri > cpuc->max_lat_cri)
		cpuc->max_lat_cri = taskc->lat_cri;
	if (taskc->lat_cri >= READ_ONCE(lat_cri_thresh))
		cpuc->nr_lat_cri++;
	energy_running(p, taskc, cpuc, cpu);
}

/*
 * ops.tick: the running task is one tick further. Remember the tick's
 * phase (an eviction by slice := 1 lands on the next one), account busy
 * time for the utilisation, stop the task if pinned tasks have waited
 * here for the pinned cap, and apply this CPU's cpufreq target.
 */
SEC("struct_ops/lavd_tick")
void BPF_PROG(lavd_tick, struct task_struct *p)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u64 now = lavd_now();

	if (!cpuc)
		return;
	if (!tick_ns_cfg && cpuc->last_tick_clk && now > cpuc->last_tick_clk)
		WRITE_ONCE(tick_ns_est, lavd_tick_learn(READ_ONCE(tick_ns_est),
							now - cpuc->last_tick_clk));
	WRITE_ONCE(cpuc->last_tick_clk, now);
	if (now > cpuc->busy_mark) {
		cpuc->busy_ns += now - cpuc->busy_mark;
		cpuc->busy_mark = now;
	}
	if (pinned_slice_ns && now - cpuc->running_clk >= pinned_slice_ns &&
	    nr_pinned_waiting(bpf_get_smp_processor_id())) {
		lavd_set_slice(p, 0);
		cpuc->nr_pinned_cap++;
	}
	cpuperf_apply(bpf_get_smp_processor_id(), cpuc);
}

/*
 * ops.stopping: the task leaves the CPU. Charge what it ran, end its
 * holder state for this run (a holder that stops still holding gets a
 * boost next time, lock.bpf.h), take a sample if one is due, and mark the
 * CPU as running nothing of ours.
 */
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
	taskc->holder = lavd_holder_next(taskc->holder, LAVD_HEV_STOP);

	cpuc->running_flags &= CPUF_RT;
	WRITE_ONCE(cpuc->running_stop_clk, 0);
	cpuc->running_lat_cri = 0;
	cpuc->running_pid = 0;
	cpuc->preempt_by = 0;
	cpuc->running_heavy = false;
}

/*
 * ops.quiescent: the task leaves the runnable set. A real sleep ends a
 * burst (wait_freq, avg_runtime); any dequeue (also a property change)
 * takes its service out of the runnable average.
 */
SEC("struct_ops/lavd_quiescent")
void BPF_PROG(lavd_quiescent, struct task_struct *p, u64 deq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);

	if (!taskc)
		return;
	if (deq_flags & SCX_DEQ_SLEEP)
		note_sleep(taskc, lavd_now());
	demand_quiescent(taskc, lavd_now());
	svc_sum_clear(taskc);
}

/*
 * ops.cpu_release: an RT/DL (or stop) task took this CPU from sched_ext.
 * Tasks already handed to its local queue would wait behind it; put them
 * back through ops.enqueue so another CPU can run them.
 */
SEC("struct_ops/lavd_cpu_release")
void BPF_PROG(lavd_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();

	/* not a victim for lavd's wakeups while the RT/DL task runs */
	if (cpuc)
		cpuc->running_flags |= CPUF_RT;
	/* each task comes back through ops.enqueue with SCX_ENQ_REENQ */
	lavd_reenqueue_local();
}

/* ops.cpu_acquire: the CPU is back from the RT/DL classes. */
SEC("struct_ops/lavd_cpu_acquire")
void BPF_PROG(lavd_cpu_acquire, s32 cpu, struct scx_cpu_acquire_args *args)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();

	if (cpuc)
		cpuc->running_flags &= ~CPUF_RT;
}

/*
 * ops.init_task: a task enters sched_ext (fork, or already running when
 * lavd loads). Its context lives in task storage, freed with the task.
 * A fork starts greedy (service one lag_max above the runnable average)
 * so that fork bombs cannot jump the queue; existing tasks start even.
 */
SEC("struct_ops.s/lavd_init_task")
s32 BPF_PROG(lavd_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct task_ctx *taskc;
	u64 now = lavd_now(), avg = avg_svc();

	taskc = bpf_task_storage_get(&lavd_task, p, 0,
				     BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!taskc)
		return -ENOMEM;
	taskc->last_runnable_clk = now;
	taskc->last_running_clk = now;
	taskc->last_quiescent_clk = now;
	taskc->svc = args->fork ? avg + lavd_lag_max(task_weight(p)) : avg;
	taskc->slice = READ_ONCE(sys_slice);
	taskc->futex_op = -1;
	/* unknown burst length: assume a full slice, not "very short" */
	taskc->avg_runtime = taskc->slice;
	return 0;
}

/*
 * ops.exit_task: the task leaves sched_ext (exit, class change, unload).
 * Take it out of the runnable sums if it is still counted, and drop its
 * storage now rather than when the task struct is freed.
 */
SEC("struct_ops/lavd_exit_task")
void BPF_PROG(lavd_exit_task, struct task_struct *p, struct scx_exit_task_args *args)
{
	struct task_ctx *taskc = get_task_ctx(p);

	if (taskc)
		svc_sum_clear(taskc);
	bpf_task_storage_delete(&lavd_task, p);
}

/*
 * Builds the scheduler's structures before any task is handed over: one
 * queue and one cpumask per compute domain (domain.bpf.h), the
 * active/overflow/big sets (power.bpf.h), then per CPU a scratch cpumask
 * and its place in those masks, the pinned queues, the timer.
 * Loops are bpf_loop() callbacks: the verifier walks each body until its
 * state settles, not once per CPU of the machine.
 */
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

/* ops.init: runs once, sleepable, before tasks move to lavd. */
SEC("struct_ops.s/lavd_init")
s32 BPF_PROG(lavd_init)
{
	s32 err = 0;

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
 * ops.exit: lavd is leaving (unregistered, error, watchdog). Leave the
 * kernel's reason, message and debug dump where the loader reads them.
 */
SEC("struct_ops/lavd_exit")
void BPF_PROG(lavd_exit, struct scx_exit_info *ei)
{
	bpf_probe_read_kernel_str(uei.reason, sizeof(uei.reason), ei->reason);
	bpf_probe_read_kernel_str(uei.msg, sizeof(uei.msg), ei->msg);
	bpf_probe_read_kernel_str(uei_dump, sizeof(uei_dump), ei->dump);
	uei.exit_code = ei->exit_code;
	uei.exit_cpu = -1;
	if (bpf_core_field_exists(ei->exit_cpu))
		uei.exit_cpu = ei->exit_cpu;
	/* kind last, with a full barrier: the loader polls it */
	__sync_val_compare_and_swap(&uei.kind, 0, ei->kind);
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
