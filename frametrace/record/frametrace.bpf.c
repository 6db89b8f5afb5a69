// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace's kernel side: scheduler, futex and trace_marker events as
 * 32-byte records (frametrace.h).
 *
 * Two modes, chosen before load (rodata `mode`):
 *  - stream (record): every event goes through the BPF ring buffer `rb`.
 *    Records are submitted with BPF_RB_NO_WAKEUP: a consumer woken per
 *    event generates sched events of its own that wake it again (see
 *    docs/tracing.md, "Streaming through a ring buffer"); user space
 *    drains on a timer, and a wake-up is forced only when the ring is
 *    more than `wakeup_bytes` full.
 *  - flight (watch): fixed-size events overwrite a per-CPU ring inside a
 *    memory-mappable array (`flight`, one segment per CPU, write index per
 *    CPU in `heads`); names, markers and trigger notes (rare) go through
 *    the small ring buffer `aux`. User space copies a snapshot on a trigger.
 *
 * The recorder's own process is filtered (except its context switches,
 * which are kept so CPU occupancy stays complete and the recorder's own
 * CPU use is visible in reports).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "trace/frametrace.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 self_tgid = 0;
const volatile __u32 mode = FT_MODE_STREAM;
const volatile __u32 flight_shift = 16;	/* log2(slots per CPU) */
const volatile __u64 wakeup_bytes = 0;	/* force a wake-up above this fill */
/* trace_marker inodes (ino, dev) of up to two tracefs mounts; 0 = off */
const volatile __u64 marker_ino[2] = { 0, 0 };
const volatile __u32 marker_dev[2] = { 0, 0 };
/* flight-mode wake-up latency trigger: tasks whose comm starts with
 * wl_comm (wl_comm_len bytes, 0 = every task) */
const volatile __u64 wl_thresh_ns = 0;
const volatile char wl_comm[FT_COMM_LEN] = {};
const volatile __u32 wl_comm_len = 0;
/* futex from the raw syscall tracepoints (tp_btf/sys_enter, sys_exit) */
const volatile __u32 raw_futex = 0;
/* futex from the scheduler events: the system call a task sleeps in or
 * wakes another from, read from its saved user registers */
const volatile __u32 sched_futex = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} aux SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ft_cpu_state);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);	/* set by user space: ncpus << flight_shift */
	__type(key, __u32);
	__type(value, struct ft_slot);
} flight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, FT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct ft_head);
} heads SEC(".maps");

struct futex_call {
	__u64 ts;
	__u64 uaddr;
	__u32 op;
	__u32 active;
};

/* the futex call in progress, per task (cheaper than a hash by tid) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct futex_call);
} futex_calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u64);
} wl_start SEC(".maps");

/*
 * Interrupt context: a wake-up made by an interrupt (timer, device,
 * softirq) is not made by the task it interrupted. The per-CPU preempt
 * count is not reachable here (no address for per-CPU data without
 * CONFIG_KALLSYMS_ALL), so the programs count interrupt handler nesting
 * per CPU (struct ft_cpu_state).
 *
 * A depth left over by an entry whose exit was not seen stays forever:
 * every later entry refreshes irq_since, so the 20 ms staleness rule never
 * clears it, and every wake-up on that CPU looks like an interrupt's (a
 * recording in the TCG VM: 0 wake-ups given by any task). The programs
 * attach with the exits first, so an entry they see has its exit seen
 * too; and sched_switch puts a left-over depth back to 0 (irq_reset).
 * old_irq (a test's switch) does neither, to show what it was.
 */
const volatile __u32 old_irq = 0;

#define barrier() asm volatile("" ::: "memory")

static __always_inline struct ft_cpu_state *ctrs(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

static __always_inline void irq_enter(void)
{
	struct ft_cpu_state *s = ctrs();

	if (s) {
		s->irq_depth++;
		s->irq_since = bpf_ktime_get_ns();
	}
}

static __always_inline void irq_exit(void)
{
	struct ft_cpu_state *s = ctrs();

	if (s && s->irq_depth)
		s->irq_depth--;
}

/*
 * A context switch never happens inside an interrupt handler, so the depth
 * is 0 there. Resetting it heals a count left behind by an entry whose exit
 * was not seen: an interrupt between attaching the entry and the exit
 * programs, or an exit program skipped by BPF's recursion guard. Left
 * alone, the periodic entries keep such a count fresh and every later
 * wake-up on that CPU reads as made by an interrupt. Counted, so a
 * recording says how often it happened.
 */
static __always_inline void irq_reset(void)
{
	struct ft_cpu_state *s;

	if (old_irq)
		return;
	s = ctrs();
	if (s && s->irq_depth) {
		s->irq_depth = 0;
		s->irq_resets++;
	}
}

static __always_inline bool in_irq_ctx(void)
{
	struct ft_cpu_state *s = ctrs();

	if (!s || !s->irq_depth)
		return false;
	if (bpf_ktime_get_ns() - s->irq_since > 20000000ULL) {
		s->irq_depth = 0;
		return false;
	}
	return true;
}

/* Exits first: the loader attaches them before the entries (ftbpf.c). */
SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_irq_exit)
{
	irq_exit();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_softirq_exit)
{
	irq_exit();
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(on_hrtimer_exit)
{
	irq_exit();
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_irq_entry)
{
	irq_enter();
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_softirq_entry)
{
	irq_enter();
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(on_hrtimer_entry)
{
	irq_enter();
	return 0;
}

static __always_inline void fill(struct ft_ev *e, __u64 ts, __u8 type,
				 __u8 flags, __u32 tid, __u32 arg, __u32 arg2,
				 __u64 val, __u32 cpu)
{
	e->ts = ts;
	e->tid = tid;
	e->arg = arg;
	e->arg2 = arg2;
	e->cpu = cpu;
	e->type = type;
	e->flags = flags;
	e->val = val;
}

static __always_inline __u64 rb_flags(void)
{
	if (wakeup_bytes &&
	    bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) > wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline void emit_at(__u64 ts, __u8 type, __u8 flags,
				    __u32 tid, __u32 arg, __u32 arg2, __u64 val)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct ft_ev *e;

	if (mode == FT_MODE_FLIGHT) {
		struct ft_head *h;
		struct ft_slot *s;
		__u64 idx;
		__u32 slot;

		h = bpf_map_lookup_elem(&heads, &cpu);
		if (!h)
			return;
		idx = __sync_fetch_and_add(&h->head, 1);
		slot = (cpu << flight_shift) |
		       (__u32)(idx & ((1ULL << flight_shift) - 1));
		s = bpf_map_lookup_elem(&flight, &slot);
		if (!s)
			return;
		s->seq = 0;
		barrier();
		fill(&s->ev, ts, type, flags, tid, arg, arg2, val, cpu);
		barrier();
		s->seq = idx + 1;
		return;
	}
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e) {
		struct ft_cpu_state *c = ctrs();

		if (c)
			c->lost++;
		return;
	}
	fill(e, ts, type, flags, tid, arg, arg2, val, cpu);
	bpf_ringbuf_submit(e, rb_flags());
}

static __always_inline void emit(__u8 type, __u8 flags, __u32 tid, __u32 arg,
				 __u32 arg2, __u64 val)
{
	emit_at(bpf_ktime_get_ns(), type, flags, tid, arg, arg2, val);
}

/* Variable-length records go to rb (stream) or aux (flight). */
static __always_inline void *reserve_var(__u64 size)
{
	void *r;

	if (mode == FT_MODE_FLIGHT)
		r = bpf_ringbuf_reserve(&aux, size, 0);
	else
		r = bpf_ringbuf_reserve(&rb, size, 0);
	if (!r) {
		struct ft_cpu_state *c = ctrs();

		if (c) {
			if (mode == FT_MODE_FLIGHT)
				c->aux_lost++;
			else
				c->lost++;
		}
	}
	return r;
}

static __always_inline void submit_var(void *r)
{
	bpf_ringbuf_submit(r, mode == FT_MODE_FLIGHT ? BPF_RB_NO_WAKEUP
						     : rb_flags());
}

static __always_inline void emit_comm(struct task_struct *t, const char *comm)
{
	struct ft_comm_rec *r = reserve_var(sizeof(*r));

	if (!r)
		return;
	fill(&r->ev, bpf_ktime_get_ns(), FT_EV_COMM, 0, t->pid, t->tgid, 0, 0,
	     bpf_get_smp_processor_id());
	if (comm)
		bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), comm);
	else
		BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	submit_var(r);
}

static __always_inline bool is_self(struct task_struct *t)
{
	return self_tgid && t->tgid == self_tgid;
}

static __always_inline bool wl_match(struct task_struct *t)
{
	char c[FT_COMM_LEN];

	if (!wl_comm_len)
		return true;
	BPF_CORE_READ_STR_INTO(&c, t, comm);
	for (int i = 0; i < FT_COMM_LEN; i++) {
		if (i >= wl_comm_len)
			break;
		if (c[i] != wl_comm[i])
			return false;
	}
	return true;
}

static __always_inline void wl_mark_runnable(struct task_struct *t)
{
	__u32 tid;
	__u64 now;

	if (!wl_thresh_ns || is_self(t) || !wl_match(t))
		return;
	tid = t->pid;
	if (!tid)
		return;
	now = bpf_ktime_get_ns();
	bpf_map_update_elem(&wl_start, &tid, &now, BPF_ANY);
}

static __always_inline void wl_check_switch_in(struct task_struct *next)
{
	__u32 tid = next->pid;
	__u64 *start, lat, now;
	struct ft_ev *r;

	start = bpf_map_lookup_elem(&wl_start, &tid);
	if (!start)
		return;
	now = bpf_ktime_get_ns();
	lat = now - *start;
	bpf_map_delete_elem(&wl_start, &tid);
	if (lat <= wl_thresh_ns)
		return;
	r = bpf_ringbuf_reserve(&aux, sizeof(*r), 0);
	if (!r) {
		struct ft_cpu_state *c = ctrs();

		if (c)
			c->aux_lost++;
		return;
	}
	fill(r, now, FT_AUX_WAKELAT, 0, tid, next->tgid, 0, lat,
	     bpf_get_smp_processor_id());
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

/*
 * The futex source "sched": instead of a program on every system call (the
 * raw sys_enter tracepoint puts every task's system calls on the slow path
 * and cost about 300 ns a call here), the switch-out of a task that goes
 * to sleep says whether it sleeps in a futex wait: it left its user
 * registers on its kernel stack, orig_ax the call, si the futex
 * operation. The wake-up that ends such a sleep is the futex wake.
 */
#define NR_futex 202
#define NR_futex_waitv 449
#define NR_futex_wake 454
#define NR_futex_wait 455

/* t is asleep in a futex wait call (WAIT*, LOCK_PI*, futex_wait(v)). */
static __always_inline bool in_futex_wait(struct task_struct *t)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(t);
	long nr;
	__u32 op;

	if (!regs)
		return false;
	nr = regs->orig_ax;
	if (nr == NR_futex_waitv || nr == NR_futex_wait)
		return true;
	if (nr != NR_futex)
		return false;
	op = regs->si & 0x7f;
	return op == 0 || op == 6 || op == 9 || op == 11 || op == 13;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u32 state = preempt ? 0 : (prev_state & 0x7fff);
	__u32 pprio = prev->prio & 0xff;
	__u32 nprio = next->prio & 0xff;
	__u8 flags = (preempt ? FT_F_PREEMPT : 0) | FT_F_SUMEXEC;

	/* a user task going to sleep: in a futex wait? */
	if (sched_futex && state && prev->mm && in_futex_wait(prev))
		flags |= FT_F_FUTEX_SLEEP;
	/* direct loads (trusted BTF pointers), not probe-read helpers: this
	 * runs on every context switch */
	emit(FT_EV_SWITCH, flags, prev->pid, next->pid,
	     state | pprio << 16 | nprio << 24, prev->se.sum_exec_runtime);
	if (wl_thresh_ns) {
		if (state == 0)
			wl_mark_runnable(prev);
		wl_check_switch_in(next);
	}
	irq_reset();
	return 0;
}

static __always_inline void on_wake(__u8 type, struct task_struct *p)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 target = p->thread_info.cpu;
	__u32 prio = p->prio & 0xff;
	__u32 tgid = p->tgid;
	__u8 flags = 0;

	if (self_tgid && tgid == self_tgid)
		return;
	/* (a wake-up of a task asleep in a futex wait is a futex wake: the
	 * readers know that from the sleep, no need to look here) */
	if (in_irq_ctx())
		flags |= FT_F_IRQ;
	emit(type, flags, p->pid, (__u32)id,
	     target | prio << 16, (__u64)tgid | (id >> 32) << 32);
	if (type == FT_EV_WAKING)
		wl_mark_runnable(p);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	on_wake(FT_EV_WAKING, p);
	return 0;
}

/* Off by default (sched_waking carries the wake-up time); --with-wakeup. */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
	on_wake(FT_EV_WAKEUP, p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(on_wakeup_new, struct task_struct *p)
{
	on_wake(FT_EV_WAKEUP_NEW, p);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(on_migrate, struct task_struct *p, int dest_cpu)
{
	if (is_self(p))
		return 0;
	emit(FT_EV_MIGRATE, 0, p->pid, p->thread_info.cpu, dest_cpu, p->tgid);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	if (is_self(parent))
		return 0;
	emit(FT_EV_FORK, 0, child->pid, parent->pid, child->tgid, parent->tgid);
	emit_comm(child, NULL);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	if (is_self(p))
		return 0;
	emit(FT_EV_EXIT, 0, p->pid, p->tgid, 0, 0);
	return 0;
}

SEC("tp_btf/task_rename")
int BPF_PROG(on_rename, struct task_struct *t, const char *comm)
{
	if (is_self(t))
		return 0;
	emit_comm(t, comm);
	return 0;
}

/* the futex calls: futex.bpf.h */
#include "futex.bpf.h"

/* ---- trace_marker writes (atrace frame lines) ------------------------- */

static __always_inline void marker_write(__u32 fd, const char *buf,
					 __u64 count)
{
	struct task_struct *t;
	struct fdtable *fdt;
	struct file **fds, *f;
	struct ft_mark_rec *r;
	__u64 ino, id;
	__u32 dev, n, max;

	t = (struct task_struct *)bpf_get_current_task();
	fdt = BPF_CORE_READ(t, files, fdt);
	if (!fdt)
		return;
	max = BPF_CORE_READ(fdt, max_fds);
	if (fd >= max)
		return;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return;
	ino = BPF_CORE_READ(f, f_inode, i_ino);
	dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
	if (!((ino == marker_ino[0] && dev == marker_dev[0]) ||
	      (marker_ino[1] && ino == marker_ino[1] && dev == marker_dev[1])))
		return;
	id = bpf_get_current_pid_tgid();
	if (self_tgid && (id >> 32) == self_tgid)
		return;
	n = count < FT_MARK_MAX ? (__u32)count : FT_MARK_MAX;
	if (!n)
		return;
	r = reserve_var(sizeof(*r));
	if (!r)
		return;
	n &= 0x7f;
	if (n > FT_MARK_MAX)
		n = FT_MARK_MAX;
	if (bpf_probe_read_user(r->text, n, buf))
		n = 0;
	fill(&r->ev, bpf_ktime_get_ns(), FT_EV_MARK, 0, (__u32)id,
	     (__u32)(id >> 32), n, 0, bpf_get_smp_processor_id());
	submit_var(r);
}

SEC("tp/syscalls/sys_enter_write")
int sys_write_enter(struct trace_event_raw_sys_enter *ctx)
{
	if (marker_ino[0])
		marker_write((__u32)ctx->args[0], (const char *)ctx->args[1],
			     ctx->args[2]);
	return 0;
}

/*
 * The raw system-call tracepoints: one cheap program for every system
 * call, where the per-call tracepoints above go through the slower perf
 * path per call. x86-64 numbers.
 */
#define NR_write 1

/* Entry only: one event, no per-task state and no exit program; the
 * length of a wait is the sleep that follows (readers pair them). */
static __always_inline void futex_entry(__u32 op, __u64 uaddr)
{
	__u64 id = bpf_get_current_pid_tgid();

	if (self_tgid && (id >> 32) == self_tgid)
		return;
	emit(FT_EV_FUTEX, FT_F_NO_EXIT, (__u32)id, op & 0xffff, 0, uaddr);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(raw_sys_enter, struct pt_regs *regs, long id)
{
	if (id == NR_write) {
		if (marker_ino[0])
			marker_write((__u32)regs->di, (const char *)regs->si,
				     regs->dx);
		return 0;
	}
	if (!raw_futex)
		return 0;
	switch (id) {
	case NR_futex:
		futex_entry((__u32)regs->si & 0xfff, regs->di);
		break;
	case NR_futex_waitv:
		futex_entry(FT_FUTEX_OP_WAITV, regs->di);
		break;
	case NR_futex_wait:
		futex_entry(FT_FUTEX_OP_WAIT2, regs->di);
		break;
	case NR_futex_wake:
		futex_entry(FT_FUTEX_OP_WAKE2, regs->di);
		break;
	}
	return 0;
}

/* ---- present calls (glXSwapBuffers, eglSwapBuffers, vkQueuePresentKHR) --
 * A uprobe per library and process, attached by user space
 * (present_attach.c finds them); the attach cookie holds the function's
 * number and, above bit 32, the process it was attached for (a uprobe
 * fires for that process only; checked here as well, it costs nothing).
 * One per frame, and the flight recorder needs them live for its frame
 * triggers, so in flight mode they go through aux like markers. */
SEC("uprobe")
int BPF_KPROBE(on_present)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 cookie = bpf_get_attach_cookie(ctx);
	struct ft_ev *r;

	if ((cookie >> 32) && (cookie >> 32) != (id >> 32))
		return 0;
	r = reserve_var(sizeof(*r));
	if (!r)
		return 0;
	fill(r, bpf_ktime_get_ns(), FT_EV_PRESENT, 0, (__u32)id,
	     (__u32)(id >> 32), (__u32)cookie, 0, bpf_get_smp_processor_id());
	submit_var(r);
	return 0;
}
