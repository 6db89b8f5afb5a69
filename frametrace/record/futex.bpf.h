/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frametrace's futex events, included by frametrace.bpf.c after the
 * emitters it uses: a wait or wake call's begin and end, from fentry/fexit
 * on the kernel's futex functions or, where those cannot attach, from the
 * futex system calls' tracepoints (the loader picks one, ftbpf.c).
 */
static __always_inline void futex_begin(__u32 op, __u64 uaddr)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct futex_call *c;

	if (self_tgid && (id >> 32) == self_tgid)
		return;
	c = bpf_task_storage_get(&futex_calls, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c)
		return;
	c->ts = bpf_ktime_get_ns();
	c->uaddr = uaddr;
	c->op = op;
	c->active = 1;
}

static __always_inline void futex_end(long ret)
{
	struct futex_call *c;
	__u64 dur;
	__u8 flags = 0;
	__s16 r;

	c = bpf_task_storage_get(&futex_calls, bpf_get_current_task_btf(), 0, 0);
	if (!c || !c->active)
		return;
	c->active = 0;
	dur = bpf_ktime_get_ns() - c->ts;
	if (dur > 0xffffffffULL) {
		dur /= 1000;
		flags |= FT_F_DUR_US;
		if (dur > 0xffffffffULL)
			dur = 0xffffffffULL;
	}
	r = ret < -32768 ? -32768 : ret > 32767 ? 32767 : (__s16)ret;
	emit_at(c->ts, FT_EV_FUTEX, flags, (__u32)bpf_get_current_pid_tgid(),
		(c->op & 0xffff) | ((__u32)(__u16)r << 16), (__u32)dur,
		c->uaddr);
}

/* Preferred: the kernel functions themselves (not allowed on every kernel). */
SEC("fentry/futex_wait")
int BPF_PROG(fe_futex_wait, u32 *uaddr)
{
	futex_begin(0 /* FUTEX_WAIT */, (__u64)uaddr);
	return 0;
}

SEC("fexit/futex_wait")
int BPF_PROG(fx_futex_wait, u32 *uaddr, unsigned int flags, u32 val,
	     ktime_t *abs_time, u32 bitset, int ret)
{
	futex_end(ret);
	return 0;
}

SEC("fentry/futex_wake")
int BPF_PROG(fe_futex_wake, u32 *uaddr)
{
	futex_begin(1 /* FUTEX_WAKE */, (__u64)uaddr);
	return 0;
}

SEC("fexit/futex_wake")
int BPF_PROG(fx_futex_wake, u32 *uaddr, unsigned int flags, int nr_wake,
	     u32 bitset, int ret)
{
	futex_end(ret);
	return 0;
}

/* Fallback: the system-call tracepoints. */
SEC("tp/syscalls/sys_enter_futex")
int sys_futex_enter(struct trace_event_raw_sys_enter *ctx)
{
	futex_begin((__u32)ctx->args[1] & 0xfff, ctx->args[0]);
	return 0;
}

SEC("tp/syscalls/sys_exit_futex")
int sys_futex_exit(struct trace_event_raw_sys_exit *ctx)
{
	futex_end(ctx->ret);
	return 0;
}

SEC("tp/syscalls/sys_enter_futex_waitv")
int sys_waitv_enter(struct trace_event_raw_sys_enter *ctx)
{
	futex_begin(FT_FUTEX_OP_WAITV, ctx->args[0]);
	return 0;
}

SEC("tp/syscalls/sys_exit_futex_waitv")
int sys_waitv_exit(struct trace_event_raw_sys_exit *ctx)
{
	futex_end(ctx->ret);
	return 0;
}

SEC("tp/syscalls/sys_enter_futex_wait")
int sys_wait2_enter(struct trace_event_raw_sys_enter *ctx)
{
	futex_begin(FT_FUTEX_OP_WAIT2, ctx->args[0]);
	return 0;
}

SEC("tp/syscalls/sys_exit_futex_wait")
int sys_wait2_exit(struct trace_event_raw_sys_exit *ctx)
{
	futex_end(ctx->ret);
	return 0;
}

SEC("tp/syscalls/sys_enter_futex_wake")
int sys_wake2_enter(struct trace_event_raw_sys_enter *ctx)
{
	futex_begin(FT_FUTEX_OP_WAKE2, ctx->args[0]);
	return 0;
}

SEC("tp/syscalls/sys_exit_futex_wake")
int sys_wake2_exit(struct trace_event_raw_sys_exit *ctx)
{
	futex_end(ctx->ret);
	return 0;
}
