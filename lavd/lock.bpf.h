/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Futex lock holders (docs/lavd.md, "Lock holders"). Wine and Proton emulate
 * Windows synchronisation on futexes; a thread preempted while it holds
 * such a lock makes every waiter wait for it too. User-space locks enter
 * the kernel only when contended, so the kernel's futex calls show
 * exactly the contended locks:
 *
 *   a wait (or lock_pi) that returns 0   -> the task probably holds a lock
 *   a wake (or unlock_pi) that succeeds  -> it released one
 *
 * The holder state machine and the op decoding are pure functions in
 * policy.h (unit-tested); this file only feeds them. Effects elsewhere:
 * a holder is never a preemption victim (preempt.bpf.h), gets one slice
 * extension when its slice runs out (slice.bpf.h), and a holder that
 * stops while holding gets +128 on its next lat_cri (lat_cri.bpf.h).
 *
 * Two attach paths; the loader picks one and publishes it in the stats:
 *   fexit   programs on the kernel's futex functions (cheapest, exact
 *           return values; needs BTF and ftrace-able functions);
 *   tp      the futex system-call tracepoints (op at entry, result at
 *           exit; the op is kept in the task's context across the
 *           sleep, not per CPU, since a waiting task can move).
 * Every program starts with autoload off ("?"); the loader switches on
 * the ones the kernel has. Programs that run for tasks lavd does not
 * schedule find no task context and do nothing.
 *
 * Needs: lavd.bpf.h only.
 */
#ifndef LAVD_LOCK_BPF_H
#define LAVD_LOCK_BPF_H

/* Apply a holder event to the calling task (the one in the futex call). */
static __always_inline void holder_event(u32 ev)
{
	struct task_struct *cur;
	struct task_ctx *taskc;
	struct cpu_ctx *cpuc;
	u32 before;

	if (no_futex_boost || ev == LAVD_HEV_NONE)
		return;
	cur = bpf_get_current_task_btf();
	taskc = get_task_ctx(cur);
	if (!taskc)
		return;
	before = taskc->holder;
	taskc->holder = lavd_holder_next(before, ev);
	cpuc = get_cpu_ctx();
	if (!cpuc)
		return;
	if (ev == LAVD_HEV_ACQUIRE && !(before & LAVD_HOLDER))
		cpuc->nr_futex_lock++;
	else if (ev == LAVD_HEV_RELEASE && (before & LAVD_HOLDER))
		cpuc->nr_futex_unlock++;
	/* what this CPU runs is the caller: keep its victim flag in step */
	if (cpuc->running_pid == (u32)cur->pid) {
		if (taskc->holder & LAVD_HOLDER)
			cpuc->running_flags |= CPUF_HOLDER;
		else
			cpuc->running_flags &= ~CPUF_HOLDER;
	}
}

/* The return value of the traced function (arguments differ by kernel). */
static __always_inline long fexit_ret(void *ctx)
{
	u64 ret = 0;

	bpf_get_func_ret(ctx, &ret);
	return (long)(int)ret;
}

/* ---- fexit path ---- */

/* __futex_wait() serves FUTEX_WAIT(_BITSET) and futex_wait(2) alike. */
SEC("?fexit/__futex_wait")
int lavd_fexit_futex_wait(void *ctx)
{
	if (fexit_ret(ctx) == 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

/* Kernels whose __futex_wait() is inlined or absent: futex_wait(). */
SEC("?fexit/futex_wait")
int lavd_fexit_futex_wait_old(void *ctx)
{
	if (fexit_ret(ctx) == 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

/* futex_waitv(2), Proton's fsync: the index of the futex that woke it. */
SEC("?fexit/futex_wait_multiple")
int lavd_fexit_futex_waitv(void *ctx)
{
	if (fexit_ret(ctx) >= 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

SEC("?fexit/futex_wait_requeue_pi")
int lavd_fexit_futex_wait_rq_pi(void *ctx)
{
	if (fexit_ret(ctx) == 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

SEC("?fexit/futex_lock_pi")
int lavd_fexit_futex_lock_pi(void *ctx)
{
	if (fexit_ret(ctx) == 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

SEC("?fexit/futex_wake")
int lavd_fexit_futex_wake(void *ctx)
{
	if (fexit_ret(ctx) >= 0)
		holder_event(LAVD_HEV_RELEASE);
	return 0;
}

SEC("?fexit/futex_wake_op")
int lavd_fexit_futex_wake_op(void *ctx)
{
	if (fexit_ret(ctx) >= 0)
		holder_event(LAVD_HEV_RELEASE);
	return 0;
}

SEC("?fexit/futex_unlock_pi")
int lavd_fexit_futex_unlock_pi(void *ctx)
{
	if (fexit_ret(ctx) == 0)
		holder_event(LAVD_HEV_RELEASE);
	return 0;
}

/* ---- system-call tracepoint path ---- */

/* Layouts of the syscalls:* events (every argument takes 8 bytes). */
struct lavd_tp_futex_enter {
	u64 common;		/* struct trace_entry */
	s32 syscall_nr;
	u32 pad;
	u64 uaddr;
	u64 op;
};

struct lavd_tp_sys_exit {
	u64 common;
	s32 syscall_nr;
	u32 pad;
	s64 ret;
};

SEC("?tracepoint/syscalls/sys_enter_futex")
int lavd_tp_enter_futex(struct lavd_tp_futex_enter *ctx)
{
	struct task_ctx *taskc;

	if (no_futex_boost)
		return 0;
	taskc = get_task_ctx(bpf_get_current_task_btf());
	if (taskc)
		taskc->futex_op = (s32)ctx->op;
	return 0;
}

SEC("?tracepoint/syscalls/sys_exit_futex")
int lavd_tp_exit_futex(struct lavd_tp_sys_exit *ctx)
{
	struct task_ctx *taskc;
	s32 op;

	if (no_futex_boost)
		return 0;
	taskc = get_task_ctx(bpf_get_current_task_btf());
	if (!taskc || taskc->futex_op < 0)
		return 0;
	op = taskc->futex_op;
	taskc->futex_op = -1;
	holder_event(lavd_futex_op_event((u32)op, ctx->ret));
	return 0;
}

SEC("?tracepoint/syscalls/sys_exit_futex_wait")
int lavd_tp_exit_futex_wait(struct lavd_tp_sys_exit *ctx)
{
	if (ctx->ret == 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

SEC("?tracepoint/syscalls/sys_exit_futex_waitv")
int lavd_tp_exit_futex_waitv(struct lavd_tp_sys_exit *ctx)
{
	if (ctx->ret >= 0)
		holder_event(LAVD_HEV_ACQUIRE);
	return 0;
}

SEC("?tracepoint/syscalls/sys_exit_futex_wake")
int lavd_tp_exit_futex_wake(struct lavd_tp_sys_exit *ctx)
{
	if (ctx->ret >= 0)
		holder_event(LAVD_HEV_RELEASE);
	return 0;
}

#endif
