/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU selection for a waking task (ops.select_cpu) and for a queued task
 * that may find an idle CPU at enqueue time. Order (LAVD.md, without the
 * core-type and cross-domain steps that come with issue 6):
 *
 *   pinned -> its CPU; the previous CPU if its whole SMT core is idle;
 *   a fully idle core in the previous CPU's LLC; the previous CPU if idle;
 *   the sync waker's CPU when nothing waits there; any idle CPU of the LLC;
 *   any idle CPU the task may use.
 *
 * A returned CPU with *is_idle set was claimed (its idle bit cleared): the
 * caller must place the task there directly.
 */
#ifndef LAVD_IDLE_BPF_H
#define LAVD_IDLE_BPF_H

/*
 * The task's allowed CPUs within @llc, in this CPU's scratch mask; the
 * LLC mask itself when the task may run anywhere (no copy needed).
 */
static __always_inline const struct cpumask *
allowed_in_llc(const struct task_struct *p, u32 llc)
{
	const struct cpumask *m = llc_mask(llc);
	struct cpu_ctx *cpuc;
	struct bpf_cpumask *tmp;

	if (!m || runs_anywhere(p))
		return m;
	cpuc = get_cpu_ctx();
	if (!cpuc)
		return NULL;
	tmp = cpuc->tmp_mask;
	if (!tmp)
		return NULL;
	bpf_cpumask_and(tmp, m, p->cpus_ptr);
	return (const struct cpumask *)tmp;
}

static __always_inline bool cpu_allowed(const struct task_struct *p, s32 cpu)
{
	return cpu >= 0 && bpf_cpumask_test_cpu(cpu, p->cpus_ptr);
}

static __always_inline s32 pick_cpu(struct task_struct *p,
				    struct task_ctx *taskc, s32 prev_cpu,
				    u64 wake_flags, bool *is_idle)
{
	const struct cpumask *idle_smt, *llc;
	struct cpu_ctx *cpuc = get_cpu_ctx();
	s32 cpu, waker_cpu = -1;
	u32 llc_id;

	*is_idle = false;

	/* Pinned: only the previous CPU is possible. */
	if (p->nr_cpus_allowed == 1 || is_migration_disabled(p)) {
		*is_idle = scx_bpf_test_and_clear_cpu_idle(prev_cpu);
		return prev_cpu;
	}
	if (!cpu_allowed(p, prev_cpu))
		prev_cpu = -1;

	/*
	 * A synchronous wakeup says the waker is about to sleep, so its CPU
	 * (warm cache, shared data) is a good home for the wakee.
	 */
	if ((wake_flags & SCX_WAKE_SYNC) && !no_wake_sync) {
		taskc->sync_wakeup = true;
		waker_cpu = bpf_get_smp_processor_id();
		if (!cpu_allowed(p, waker_cpu))
			waker_cpu = -1;
	}

	llc_id = cpu_to_llc(prev_cpu >= 0 ? prev_cpu : bpf_get_smp_processor_id());
	llc = allowed_in_llc(p, llc_id);

	/* The previous CPU with its whole SMT core idle: warm and alone. */
	idle_smt = scx_bpf_get_idle_smtmask();
	if (prev_cpu >= 0 && bpf_cpumask_test_cpu(prev_cpu, idle_smt) &&
	    scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		cpu = prev_cpu;
		goto idle_core;
	}
	scx_bpf_put_idle_cpumask(idle_smt);

	/* A fully idle core sharing the LLC. */
	if (llc) {
		cpu = scx_bpf_pick_idle_cpu(llc, SCX_PICK_IDLE_CORE);
		if (cpu >= 0) {
			if (cpuc)
				cpuc->nr_idle_core++;
			*is_idle = true;
			return cpu;
		}
	}

	/* The previous CPU on a partly busy core: still cache-warm. */
	if (prev_cpu >= 0 && scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		*is_idle = true;
		return prev_cpu;
	}

	/* The sync waker's CPU when nothing else waits for it. */
	if (waker_cpu >= 0 &&
	    scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL_ON | waker_cpu) == 0 &&
	    scx_bpf_dsq_nr_queued(llc_dsq(cpu_to_llc(waker_cpu))) == 0) {
		if (cpuc)
			cpuc->nr_sync_wake++;
		*is_idle = true;	/* placed directly, behind the waker */
		return waker_cpu;
	}

	/* Any idle CPU in the LLC, then any idle CPU at all. */
	if (llc) {
		cpu = scx_bpf_pick_idle_cpu(llc, 0);
		if (cpu >= 0) {
			*is_idle = true;
			return cpu;
		}
	}
	cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if (cpu >= 0) {
		*is_idle = true;
		return cpu;
	}
	return prev_cpu >= 0 ? prev_cpu : bpf_get_smp_processor_id();

idle_core:
	scx_bpf_put_idle_cpumask(idle_smt);
	if (cpuc)
		cpuc->nr_idle_core++;
	*is_idle = true;
	return cpu;
}

/*
 * At enqueue time (a task that did not pass through select_cpu, or found
 * nothing idle then): claim an idle CPU of the task's LLC, which the
 * caller wakes (SCX_KICK_IDLE) once the task is queued, so that it is
 * picked up without waiting for a busy CPU to finish its slice.
 * Returns -1 when no CPU was idle (then preemption may step in).
 */
static __always_inline s32 idle_cpu_for(struct task_struct *p, u32 llc_id)
{
	const struct cpumask *llc = allowed_in_llc(p, llc_id);
	s32 cpu = -1;

	if (llc)
		cpu = scx_bpf_pick_idle_cpu(llc, 0);
	if (cpu < 0 && (nr_llcs > 1 || !llc))
		cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	return cpu;
}

#endif
