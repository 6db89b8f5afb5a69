/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sched_ext kfuncs lavd and scx_minimal (vm/) call, declared here
 * rather than taken from vmlinux.h (BPF_NO_KFUNC_PROTOTYPES), and a small
 * compatibility layer over the names that changed between kernels:
 *
 *   6.12          scx_bpf_dispatch[_vtime], scx_bpf_consume
 *   6.13 ..       scx_bpf_dsq_insert[_vtime], scx_bpf_dsq_move_to_local
 *   6.18 ..       scx_bpf_cpu_curr (before: scx_bpf_cpu_rq(cpu)->curr, an
 *                 untrusted pointer the verifier lets us read, never write:
 *                 "only read is supported")
 *   6.19 .. 7.x   scx_bpf_dsq_insert___v2 (returns bool),
 *                 __scx_bpf_dsq_insert_vtime (arguments in a struct),
 *                 scx_bpf_dsq_move_to_local___v2 (takes enq_flags),
 *                 scx_bpf_reenqueue_local___v2 (callable anywhere),
 *                 scx_bpf_task_set_slice (direct writes to p->scx.slice
 *                 are deprecated), scx_bpf_dsq_peek
 *
 * Every variant is a weak ksym; bpf_ksym_exists() picks the newest one the
 * running kernel has and the verifier drops the other branches. libbpf
 * resolves a kfunc by the name before its last "___", so the "___lavd"
 * tails below only keep our declarations apart from vmlinux.h's.
 *
 * Needs: vmlinux.h and the libbpf BPF headers, included before this file
 * (lavd/lavd.bpf.h, vm/scx_minimal.bpf.c).
 */
#ifndef GS_SCX_COMPAT_BPF_H
#define GS_SCX_COMPAT_BPF_H

/* Dispatch queues. */
s32 scx_bpf_create_dsq(u64 dsq_id, s32 node) __ksym __weak;
s32 scx_bpf_dsq_nr_queued(u64 dsq_id) __ksym __weak;

bool scx_bpf_dsq_insert___v2___lavd(struct task_struct *p, u64 dsq_id,
				    u64 slice, u64 enq_flags) __ksym __weak;
void scx_bpf_dsq_insert___lavd(struct task_struct *p, u64 dsq_id, u64 slice,
			       u64 enq_flags) __ksym __weak;
void scx_bpf_dispatch___lavd(struct task_struct *p, u64 dsq_id, u64 slice,
			     u64 enq_flags) __ksym __weak;

bool __scx_bpf_dsq_insert_vtime___lavd(struct task_struct *p,
				       struct scx_bpf_dsq_insert_vtime_args *args)
	__ksym __weak;
void scx_bpf_dsq_insert_vtime___lavd(struct task_struct *p, u64 dsq_id,
				     u64 slice, u64 vtime, u64 enq_flags)
	__ksym __weak;
void scx_bpf_dispatch_vtime___lavd(struct task_struct *p, u64 dsq_id,
				   u64 slice, u64 vtime, u64 enq_flags)
	__ksym __weak;

bool scx_bpf_dsq_move_to_local___v2___lavd(u64 dsq_id, u64 enq_flags)
	__ksym __weak;
bool scx_bpf_dsq_move_to_local___lavd(u64 dsq_id) __ksym __weak;
bool scx_bpf_consume___lavd(u64 dsq_id) __ksym __weak;

void scx_bpf_reenqueue_local___v2___lavd(void) __ksym __weak;
u32 scx_bpf_reenqueue_local___lavd(void) __ksym __weak;

/* CPUs and idle tracking. */
void scx_bpf_kick_cpu(s32 cpu, u64 flags) __ksym __weak;
s32 scx_bpf_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags)
	__ksym __weak;
bool scx_bpf_test_and_clear_cpu_idle(s32 cpu) __ksym __weak;
const struct cpumask *scx_bpf_get_idle_smtmask(void) __ksym __weak;
void scx_bpf_put_idle_cpumask(const struct cpumask *cpumask) __ksym __weak;
s32 scx_bpf_task_cpu(const struct task_struct *p) __ksym __weak;
u64 scx_bpf_now(void) __ksym __weak;
void scx_bpf_error_bstr(char *fmt, unsigned long long *data, u32 data__sz)
	__ksym __weak;

/* Another CPU's task, slices, a queue's head. */
struct task_struct *scx_bpf_cpu_curr___lavd(s32 cpu) __ksym __weak;
struct rq *scx_bpf_cpu_rq___lavd(s32 cpu) __ksym __weak;
bool scx_bpf_task_set_slice___lavd(struct task_struct *p, u64 slice) __ksym __weak;
struct task_struct *scx_bpf_dsq_peek___lavd(u64 dsq_id) __ksym __weak;
void bpf_rcu_read_lock(void) __ksym;
void bpf_rcu_read_unlock(void) __ksym;
struct task_struct *bpf_task_from_pid(s32 pid) __ksym __weak;
void bpf_task_release(struct task_struct *p) __ksym __weak;

/* cpumask kfuncs. */
struct bpf_cpumask *bpf_cpumask_create(void) __ksym __weak;
void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym __weak;
void bpf_cpumask_set_cpu(u32 cpu, struct bpf_cpumask *cpumask) __ksym __weak;
bool bpf_cpumask_test_cpu(u32 cpu, const struct cpumask *cpumask) __ksym __weak;
bool bpf_cpumask_and(struct bpf_cpumask *dst, const struct cpumask *src1,
		     const struct cpumask *src2) __ksym __weak;

static __always_inline bool
lavd_dsq_insert(struct task_struct *p, u64 dsq_id, u64 slice, u64 enq_flags)
{
	if (bpf_ksym_exists(scx_bpf_dsq_insert___v2___lavd))
		return scx_bpf_dsq_insert___v2___lavd(p, dsq_id, slice, enq_flags);
	if (bpf_ksym_exists(scx_bpf_dsq_insert___lavd))
		scx_bpf_dsq_insert___lavd(p, dsq_id, slice, enq_flags);
	else
		scx_bpf_dispatch___lavd(p, dsq_id, slice, enq_flags);
	return true;
}

static __always_inline bool
lavd_dsq_insert_vtime(struct task_struct *p, u64 dsq_id, u64 slice, u64 vtime,
		      u64 enq_flags)
{
	if (bpf_ksym_exists(__scx_bpf_dsq_insert_vtime___lavd)) {
		struct scx_bpf_dsq_insert_vtime_args args = {
			.dsq_id = dsq_id,
			.slice = slice,
			.vtime = vtime,
			.enq_flags = enq_flags,
		};

		return __scx_bpf_dsq_insert_vtime___lavd(p, &args);
	}
	if (bpf_ksym_exists(scx_bpf_dsq_insert_vtime___lavd))
		scx_bpf_dsq_insert_vtime___lavd(p, dsq_id, slice, vtime, enq_flags);
	else
		scx_bpf_dispatch_vtime___lavd(p, dsq_id, slice, vtime, enq_flags);
	return true;
}

static __always_inline bool lavd_dsq_move_to_local(u64 dsq_id)
{
	if (bpf_ksym_exists(scx_bpf_dsq_move_to_local___v2___lavd))
		return scx_bpf_dsq_move_to_local___v2___lavd(dsq_id, 0);
	if (bpf_ksym_exists(scx_bpf_dsq_move_to_local___lavd))
		return scx_bpf_dsq_move_to_local___lavd(dsq_id);
	return scx_bpf_consume___lavd(dsq_id);
}

/* Re-enqueue the tasks waiting in this CPU's local queue (each comes
 * back through ops.enqueue with SCX_ENQ_REENQ). */
static __always_inline void lavd_reenqueue_local(void)
{
	if (bpf_ksym_exists(scx_bpf_reenqueue_local___v2___lavd))
		scx_bpf_reenqueue_local___v2___lavd();
	else
		scx_bpf_reenqueue_local___lavd();
}

/* Set a task's slice (the kfunc where the kernel has it). */
static __always_inline void lavd_set_slice(struct task_struct *p, u64 slice)
{
	if (bpf_ksym_exists(scx_bpf_task_set_slice___lavd))
		scx_bpf_task_set_slice___lavd(p, slice);
	else
		p->scx.slice = slice;
}

/*
 * Set the slice of @t, a task another CPU runs, as lavd_cpu_curr() gave
 * it. Before 6.18 that pointer is untrusted and may only be read, so take
 * a counted reference by its pid (a trusted pointer, whose scx.slice
 * sched_ext lets us write) and write through that.
 */
static __always_inline void lavd_set_remote_slice(struct task_struct *t,
						  u64 slice)
{
	struct task_struct *ref;

	if (bpf_ksym_exists(scx_bpf_task_set_slice___lavd)) {
		scx_bpf_task_set_slice___lavd(t, slice);
		return;
	}
	if (bpf_ksym_exists(scx_bpf_cpu_curr___lavd)) {
		t->scx.slice = slice;
		return;
	}
	ref = bpf_task_from_pid(t->pid);
	if (!ref)
		return;
	ref->scx.slice = slice;
	bpf_task_release(ref);
}

/* The task running on @cpu; call between bpf_rcu_read_lock/unlock. */
static __always_inline struct task_struct *lavd_cpu_curr(s32 cpu)
{
	struct rq *rq;

	if (bpf_ksym_exists(scx_bpf_cpu_curr___lavd))
		return scx_bpf_cpu_curr___lavd(cpu);
	if (!bpf_ksym_exists(scx_bpf_cpu_rq___lavd))
		return NULL;
	rq = scx_bpf_cpu_rq___lavd(cpu);
	return rq ? rq->curr : NULL;
}

static __always_inline u64 lavd_now(void)
{
	if (bpf_ksym_exists(scx_bpf_now))
		return scx_bpf_now();
	return bpf_ktime_get_ns();
}

/* scx_bpf_error() with printf-style arguments (at least one). */
#define lavd_error(fmt, args...)						\
	do {									\
		static char ___fmt[] = fmt;					\
		unsigned long long ___param[___bpf_narg(args)];			\
		_Pragma("GCC diagnostic push")					\
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")		\
		___bpf_fill(___param, args);					\
		_Pragma("GCC diagnostic pop")					\
		scx_bpf_error_bstr(___fmt, ___param, sizeof(___param));		\
	} while (0)

/*
 * Interrupt context of the current CPU, for the wakeup boosts: the
 * per-CPU preempt count is __preempt_count since 6.15, pcpu_hot's member
 * between 6.1 and 6.14. Its layout changed in 7.3 (HARDIRQ_DISABLE_BITS):
 *
 *   legacy:  softirq 8-15, hardirq 16-19, nmi 20-23
 *   7.3 ..:  softirq 8-15, hardirq-disable count 16-23, hardirq 24-27,
 *            nmi 28-31
 *
 * Kernels with the new layout define the per-CPU variable
 * local_interrupt_disable_state, which is how we tell them apart. (With
 * the legacy mask on 7.3, no wakeup was ever seen as coming from a hard
 * interrupt: timer wakeups were credited to whatever task the interrupt
 * happened to hit, often a CPU hog, as its wake frequency.)
 */
extern const int __preempt_count __ksym __weak;
extern const unsigned long local_interrupt_disable_state __ksym __weak;
struct pcpu_hot___lavd {
	int preempt_count;
} __attribute__((preserve_access_index));
extern struct pcpu_hot___lavd pcpu_hot __ksym __weak;

#define LAVD_HARDIRQ_MASK_LEGACY	0x000f0000
#define LAVD_HARDIRQ_MASK		0x0f000000
#define LAVD_SOFTIRQ_OFFSET		0x00000100

static __always_inline int lavd_preempt_count(void)
{
	if (bpf_ksym_exists(&__preempt_count))
		return *(int *)bpf_this_cpu_ptr(&__preempt_count);
	if (bpf_core_field_exists(pcpu_hot.preempt_count))
		return ((struct pcpu_hot___lavd *)
			bpf_this_cpu_ptr(&pcpu_hot))->preempt_count;
	return 0;
}

static __always_inline bool lavd_in_hardirq(void)
{
	if (bpf_ksym_exists(&local_interrupt_disable_state))
		return lavd_preempt_count() & LAVD_HARDIRQ_MASK;
	return lavd_preempt_count() & LAVD_HARDIRQ_MASK_LEGACY;
}

static __always_inline bool lavd_in_serving_softirq(void)
{
	return lavd_preempt_count() & LAVD_SOFTIRQ_OFFSET;
}

#endif
