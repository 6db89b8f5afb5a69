// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd --eevdf, the observing half: lavd's per-task behaviour model kept
 * from scheduler tracepoints, on any kernel, with or without sched_ext.
 * The sched_ext program (lavd.bpf.c) updates a task's statistics in its
 * callbacks; here the same events arrive as tracepoints:
 *
 *   ops.runnable (a wakeup)       sched_waking, in the waker's context
 *   ops.running                   sched_switch, the next task
 *   ops.stopping                  sched_switch, the previous task
 *   ops.quiescent (a sleep)       sched_switch with a sleeping prev_state
 *   ops.enqueue (a requeue)       sched_switch of a preempted task
 *
 * and lat_cri is recomputed with policy.h where the sched_ext program
 * computes it (each wakeup and each requeue). Nothing here decides:
 * eevdf.c reads the map once a period and applies the kernel's levers.
 *
 * Two differences, both because this side cannot see what a scheduler
 * sees: WF_SYNC is not in the tracepoint (no sync boost), and every task
 * is weighed at nice 0, because the nice value is one of our own levers
 * and a boosted task must not look more critical for being boosted.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "scx_compat.bpf.h"	/* the irq-context helpers only */
#include "policy.h"
#include "eevdf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 self_tgid;		/* lavd itself: never followed */

struct eevdf_counters counters;

/* program runs that did work, per CPU (summed by eevdf.c's stats line) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} events SEC(".maps");

static __always_inline void count_event(void)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&events, &k);

	if (n)
		(*n)++;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EEVDF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct eevdf_task);
} tasks SEC(".maps");

#define TASK_RUNNING_STATE	0
#define PF_KTHREAD		0x00200000	/* include/linux/sched.h */
#define PF_EXITING		0x00000004

/* Kernel threads, the idle task and lavd itself stay out of the model. */
static __always_inline bool followed(const struct task_struct *p)
{
	return p->pid && !(p->flags & PF_KTHREAD) && p->tgid != self_tgid;
}

static __always_inline struct eevdf_task *task_get(const struct task_struct *p,
						   bool create)
{
	__u32 tid = p->pid;
	struct eevdf_task *t = bpf_map_lookup_elem(&tasks, &tid), zero = {};

	/* an exiting task never gets a new entry: its last wakeups (the
	 * joiner woken through clear_child_tid) and switches come after
	 * sched_process_exit removed the old one */
	if (t || !create || (p->flags & PF_EXITING))
		return t;
	zero.tgid = p->tgid;
	if (bpf_map_update_elem(&tasks, &tid, &zero, BPF_NOEXIST) &&
	    bpf_map_lookup_elem(&tasks, &tid) == NULL) {
		__sync_fetch_and_add(&counters.full, 1);
		return NULL;
	}
	return bpf_map_lookup_elem(&tasks, &tid);
}

/* lat_cri as the sched_ext program computes it at an enqueue. */
static __always_inline void update_lat_cri(struct eevdf_task *t, __u64 now)
{
	__u64 own = lavd_lat_cri(lavd_freq_now(t->wait_freq, t->last_quiescent_clk, now),
				 lavd_freq_now(t->wake_freq, t->last_wake_clk, now),
				 t->avg_runtime, LAVD_WEIGHT_DFL, t->wake_boost);

	t->wake_boost = 0;
	t->lat_cri = lavd_lat_cri_inherit(own, t->lat_cri_waker, t->lat_cri_wakee);
	t->lat_cri_waker = 0;
	t->lat_cri_wakee = 0;
}

/*
 * The wakee's context boosts, and the waker's credit (lat_cri.bpf.h's
 * note_wakeup: the same rules, across processes, no kernel threads).
 * irq_known: whether interrupt context can be told (it needs the
 * kernel's preempt count as a symbol; eevdf.c loads the variant without
 * when the kernel does not export it, and then the interrupted task is
 * taken as the waker).
 */
static __always_inline void note_waker(struct eevdf_task *t, __u64 now,
				       bool irq_known)
{
	struct task_struct *waker = bpf_get_current_task_btf();
	struct eevdf_task *w;

	t->wake_boost = LAVD_BOOST_REGULAR;
	if (irq_known && lavd_in_hardirq()) {
		t->wake_boost += LAVD_BOOST_HIGHEST;
		return;
	}
	if (irq_known && lavd_in_serving_softirq()) {
		t->wake_boost += LAVD_BOOST_HIGH;
		return;
	}
	if (waker->prio < 100)		/* MAX_RT_PRIO: an RT or DL waker */
		t->wake_boost += LAVD_BOOST_HIGH;
	if (!followed(waker))
		return;
	w = task_get(waker, true);
	if (!w || w == t)
		return;
	if (now - w->last_wake_clk >= LAVD_WAKE_INTERVAL_MIN) {
		if (w->last_wake_clk)
			w->wake_freq = lavd_freq_update(w->wake_freq,
							now - w->last_wake_clk);
		w->last_wake_clk = now;
	}
	t->lat_cri_waker = w->lat_cri;
	if (w->lat_cri_wakee < t->lat_cri)
		w->lat_cri_wakee = t->lat_cri;
}

static __always_inline void note_wakeup(struct task_struct *p, bool irq_known)
{
	__u64 now = bpf_ktime_get_ns();
	struct eevdf_task *t;

	if (!followed(p) || !(t = task_get(p, true)))
		return;
	if (t->last_runnable_clk && now > t->last_runnable_clk)
		t->run_freq = lavd_freq_update(t->run_freq, now - t->last_runnable_clk);
	t->last_runnable_clk = now;
	t->acc_runtime = 0;
	t->nr_wakeups++;
	note_waker(t, now, irq_known);
	update_lat_cri(t, now);
	count_event();
}

SEC("tp_btf/sched_waking")
int BPF_PROG(eevdf_waking, struct task_struct *p)
{
	note_wakeup(p, true);
	return 0;
}

/* the same, where the preempt count is no symbol (eevdf.c picks one) */
SEC("tp_btf/sched_waking")
int BPF_PROG(eevdf_waking_noirq, struct task_struct *p)
{
	note_wakeup(p, false);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(eevdf_wakeup_new, struct task_struct *p)
{
	struct eevdf_task *t;

	if (followed(p) && (t = task_get(p, true)))
		t->last_runnable_clk = bpf_ktime_get_ns();
	return 0;
}

/*
 * The previous task stops: charge its run, then it either sleeps (wait
 * frequency) or goes back to the queue (a requeue: lat_cri again). Some
 * kernels lose idle-to-task switch records on some CPUs, so a run never
 * starts before the task's last wakeup.
 */
static __always_inline void note_stop(struct task_struct *prev, bool preempt,
				      unsigned int prev_state, __u64 now)
{
	struct eevdf_task *t = task_get(prev, true);
	__u64 start, ran;

	if (!t)
		return;
	start = lavd_max(t->last_running_clk, t->last_runnable_clk);
	ran = start && now > start ? now - start : 0;
	t->acc_runtime += ran;
	t->sum_runtime += ran;
	t->avg_runtime = lavd_ewma(t->avg_runtime, t->acc_runtime);
	t->last_running_clk = 0;
	if (!preempt && prev_state != TASK_RUNNING_STATE) {
		if (t->last_quiescent_clk && now > t->last_quiescent_clk)
			t->wait_freq = lavd_freq_update(t->wait_freq,
							now - t->last_quiescent_clk);
		t->last_quiescent_clk = now;
	} else {
		update_lat_cri(t, now);
	}
}

SEC("tp_btf/sched_switch")
int BPF_PROG(eevdf_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	struct eevdf_task *t;

	if (followed(prev))
		note_stop(prev, preempt, prev_state, now);
	if (followed(next) && (t = task_get(next, true)))
		t->last_running_clk = now;
	count_event();
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(eevdf_exit, struct task_struct *p)
{
	__u32 tid = p->pid;

	if (!bpf_map_delete_elem(&tasks, &tid))
		__sync_fetch_and_add(&counters.exits, 1);
	return 0;
}
