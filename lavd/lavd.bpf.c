// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd: a latency-criticality aware virtual deadline scheduler for
 * sched_ext (../shared/brief/LAVD.md). This file holds the sched_ext
 * callbacks, each short and saying why it does what it does; the policy
 * itself sits in the concern files included below and its arithmetic in
 * policy.h.
 *
 * Shape: tasks wait in one earliest-virtual-deadline queue per LLC (one
 * global queue on a single-LLC machine). A task's deadline comes closer
 * the more latency-critical it is (wakes and sleeps often, runs briefly,
 * woken by interrupts or critical tasks) and moves away while it is
 * greedy (more service than the average runnable task). Waking tasks go
 * straight to an idle CPU when there is one. The slice adapts to keep
 * the queue's latency near 10 ms.
 */
#include "lavd.bpf.h"
#include "lat_cri.bpf.h"
#include "idle.bpf.h"
#include "preempt.bpf.h"
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
	if (is_idle) {
		lavd_dsq_insert(p, SCX_DSQ_LOCAL, calc_task_slice(p, taskc), 0);
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
 * CPU's local queue; the others get a virtual deadline and join their
 * LLC's queue, or go straight to their CPU if it is idle.
 */
SEC("struct_ops/lavd_enqueue")
void BPF_PROG(lavd_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu = scx_bpf_task_cpu(p);
	u32 llc = cpu_to_llc(cpu);
	u64 slice, vdl;

	if (!taskc || !cpuc) {
		/* No context (allocation failed): the kernel's global FIFO
		 * queue still gets the task run. */
		lavd_dsq_insert(p, SCX_DSQ_GLOBAL, READ_ONCE(sys_slice), enq_flags);
		return;
	}
	cpuc->nr_enq++;
	if (enq_flags & SCX_ENQ_REENQ)
		cpuc->nr_reenq++;	/* handed back by ops.cpu_release */
	slice = calc_task_slice(p, taskc);

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
	if (!(enq_flags & SCX_ENQ_WAKEUP))
		update_lat_cri(p, taskc, lavd_now());
	vdl = calc_vdeadline(p, taskc);
	if (taskc->greedy)
		cpuc->nr_greedy++;

	/* Its CPU went idle meanwhile (e.g. a pinned wakeup that skipped
	 * select_cpu): run it there now. */
	if (!READ_ONCE(debug_stall) && scx_bpf_test_and_clear_cpu_idle(cpu)) {
		cpuc->nr_direct++;
		lavd_dsq_insert(p, SCX_DSQ_LOCAL_ON | cpu, slice, enq_flags);
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}

	lavd_dsq_insert_vtime(p, llc_dsq(llc), slice, vdl, enq_flags);
	if (!READ_ONCE(debug_stall))
		kick_idle_cpu_for(p, llc);
	try_preempt(p, taskc);
}

struct steal_ctx {
	u32 own;
	bool found;
};

/* bpf_loop() body: take the earliest task of another LLC's queue. */
static long steal_from_llc(u64 idx, void *data)
{
	struct steal_ctx *sc = data;

	if ((u32)idx == sc->own || !lavd_dsq_move_to_local(llc_dsq((u32)idx)))
		return 0;
	sc->found = true;
	return 1;
}

/*
 * ops.dispatch: this CPU has nothing to run. Take the earliest deadline
 * of its own LLC, else steal from another LLC (work conservation); if all
 * are empty, let the previous task go on with a fresh slice rather than
 * idling the CPU.
 */
SEC("struct_ops/lavd_dispatch")
void BPF_PROG(lavd_dispatch, s32 cpu, struct task_struct *prev)
{
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u32 own = cpu_to_llc(cpu);

	if (READ_ONCE(debug_stall)) {
		if (cpuc)
			cpuc->nr_stall_skips++;
		return;
	}
	if (lavd_dsq_move_to_local(llc_dsq(own)))
		return;
	if (nr_llcs > 1) {
		struct steal_ctx sc = { .own = own };

		bpf_loop(nr_llcs, steal_from_llc, &sc, 0);
		if (sc.found) {
			if (cpuc)
				cpuc->nr_steal++;
			return;
		}
	}
	if (prev && (prev->scx.flags & SCX_TASK_QUEUED)) {
		struct task_ctx *taskc = get_task_ctx(prev);

		prev->scx.slice = taskc ? calc_task_slice(prev, taskc) :
					  READ_ONCE(sys_slice);
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
	if (!(enq_flags & SCX_ENQ_WAKEUP))
		return;
	now = lavd_now();
	note_wakeup(p, taskc, now);
	update_lat_cri(p, taskc, now);
}

/*
 * ops.running: the task got a CPU. Advance the logical clock towards its
 * deadline, note what this CPU runs (for issue 5's victim choice) and
 * count the schedule for the statistics.
 */
SEC("struct_ops/lavd_running")
void BPF_PROG(lavd_running, struct task_struct *p)
{
	struct task_ctx *taskc = get_task_ctx(p);
	struct cpu_ctx *cpuc = get_cpu_ctx();
	u64 now = lavd_now();

	if (!taskc || !cpuc)
		return;
	if (debug_verifier_reject)	/* see lavd.bpf.h */
		now += *(volatile u64 *)((char *)p + sizeof(*p) + 64);
	taskc->last_running_clk = now;
	advance_clock(taskc->vdeadline);

	cpuc->running_lat_cri = taskc->lat_cri;
	cpuc->running_stop_clk = now + p->scx.slice;
	cpuc->nr_sched++;
	cpuc->sum_lat_cri += taskc->lat_cri;
	if (taskc->lat_cri > cpuc->max_lat_cri)
		cpuc->max_lat_cri = taskc->lat_cri;
	if (taskc->lat_cri >= READ_ONCE(lat_cri_thresh))
		cpuc->nr_lat_cri++;
}

/* ops.stopping: the task leaves the CPU; charge what it ran. */
SEC("struct_ops/lavd_stopping")
void BPF_PROG(lavd_stopping, struct task_struct *p, bool runnable)
{
	struct task_ctx *taskc = get_task_ctx(p);

	if (taskc)
		note_run_end(p, taskc, lavd_now());
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
	/* each task comes back through ops.enqueue with SCX_ENQ_REENQ */
	lavd_reenqueue_local();
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
 * queue and one cpumask per LLC, a scratch cpumask per CPU, the timer.
 * Loops are bpf_loop() callbacks: each body is verified once, whatever
 * the machine's size.
 */
static long init_llc(u64 idx, void *data)
{
	struct bpf_cpumask *m;
	struct llc_ctx *l;
	u32 llc = (u32)idx, cpu;
	s32 *err = data;

	*err = scx_bpf_create_dsq(llc_dsq(llc), -1);
	if (*err) {
		lavd_error("lavd: cannot create the queue of LLC %u", llc);
		return 1;
	}
	l = bpf_map_lookup_elem(&lavd_llc, &llc);
	m = bpf_cpumask_create();
	if (!l || !m) {
		if (m)
			bpf_cpumask_release(m);
		*err = -ENOMEM;
		return 1;
	}
	for (cpu = 0; cpu < LAVD_MAX_CPUS; cpu++) {
		if (cpu >= nr_cpu_ids)
			break;
		if (cpu_to_llc(cpu) == llc)
			bpf_cpumask_set_cpu(cpu, m);
	}
	m = bpf_kptr_xchg(&l->mask, m);
	if (m)
		bpf_cpumask_release(m);
	return 0;
}

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
	return 0;
}

/* ops.init: runs once, sleepable, before tasks move to lavd. */
SEC("struct_ops.s/lavd_init")
s32 BPF_PROG(lavd_init)
{
	s32 err = 0;

	WRITE_ONCE(cur_logical_clk, LAVD_DL_COMPETE_WINDOW);
	bpf_loop(nr_llcs, init_llc, &err, 0);
	if (!err)
		bpf_loop(nr_cpu_ids, init_cpu, &err, 0);
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
	.stopping	= (void *)lavd_stopping,
	.quiescent	= (void *)lavd_quiescent,
	.cpu_release	= (void *)lavd_cpu_release,
	.init_task	= (void *)lavd_init_task,
	.exit_task	= (void *)lavd_exit_task,
	.init		= (void *)lavd_init,
	.exit		= (void *)lavd_exit,
	.name		= "lavd",
};
