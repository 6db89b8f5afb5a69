/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-task samples (`--monitor-sched-samples N`): when a task stops
 * running, with a probability the timer sets so that about N decisions a
 * second come out, the whole picture of that decision goes into a ring
 * buffer (struct lavd_sample, intf.h): who ran, who woke it, its slice and
 * what it used, how long it waited, its lat_cri and frequencies, greedy /
 * holder / boosted flags, and who evicted it. Submitted without a wake-up
 * (BPF_RB_NO_WAKEUP): the reader drains on its own timer, so reading
 * never causes scheduling work of its own (docs/tracing.md, "Streaming
 * through a ring buffer"). The rate comes from map lavd_ctl, which the
 * loader or a `--monitor` process writes.
 *
 * Needs: lavd.bpf.h only.
 */
#ifndef LAVD_SAMPLE_BPF_H
#define LAVD_SAMPLE_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAVD_SAMPLES_RING_SZ);
} lavd_samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct lavd_ctl);
} lavd_ctl SEC(".maps");

static __always_inline void maybe_sample(struct task_struct *p,
					 struct task_ctx *taskc,
					 struct cpu_ctx *cpuc, s32 cpu,
					 u64 ran, bool runnable)
{
	u64 prob = READ_ONCE(sample_prob);
	struct lavd_sample *s;
	u32 f = 0;

	if (!prob || bpf_get_prandom_u32() > prob)
		return;
	s = bpf_ringbuf_reserve(&lavd_samples, sizeof(*s), 0);
	if (!s) {
		cpuc->nr_samples_lost++;
		return;
	}
	s->now_ns = bpf_ktime_get_ns();	/* CLOCK_MONOTONIC, as the reader's */
	s->pid = (u32)p->pid;
	s->cpu = cpu;
	s->waker_pid = taskc->waker_pid;
	s->preempted_by = taskc->preempted_by;
	bpf_probe_read_kernel_str(s->comm, sizeof(s->comm), p->comm);
	__builtin_memcpy(s->waker_comm, taskc->waker_comm, sizeof(s->waker_comm));
	s->slice_ns = taskc->slice;
	s->ran_ns = ran;
	s->wait_ns = taskc->wait_ns;
	s->avg_runtime_ns = taskc->avg_runtime;
	s->acc_runtime_ns = taskc->acc_runtime;
	s->lat_cri = taskc->lat_cri;
	s->lat_cri_thresh = READ_ONCE(lat_cri_preempt);
	s->wait_freq = lavd_freq_hz(taskc->wait_freq);
	s->wake_freq = lavd_freq_hz(taskc->wake_freq);
	s->run_freq = lavd_freq_hz(taskc->run_freq);
	s->vdl_rel = (s64)(taskc->vdeadline - taskc->clk_at_run);
	if (taskc->greedy)
		f |= LAVD_SF_GREEDY;
	if (taskc->holder & (LAVD_HOLDER | LAVD_HOLDER_BOOST))
		f |= LAVD_SF_HOLDER;
	if (taskc->slice_boosted)
		f |= LAVD_SF_SLICE_BOOST;
	if (taskc->preempted_by)
		f |= LAVD_SF_PREEMPTED;
	if (taskc->pinned_q)
		f |= LAVD_SF_PINNED;
	if (runnable)
		f |= LAVD_SF_RUNNABLE;
	if (taskc->lat_cri >= READ_ONCE(lat_cri_preempt))
		f |= LAVD_SF_LAT_CRI;
	if (taskc->direct)
		f |= LAVD_SF_DIRECT;
	if (taskc->wake_irq == 1)
		f |= LAVD_SF_HARDIRQ;
	else if (taskc->wake_irq == 2)
		f |= LAVD_SF_SOFTIRQ;
	s->flags = f;
	s->pad = 0;
	bpf_ringbuf_submit(s, BPF_RB_NO_WAKEUP);
}

/* Timer: the sampling probability for the wanted rate (policy.h). */
static __always_inline void sample_rate_update(u64 sched_per_s)
{
	struct lavd_ctl *ctl;
	u32 zero = 0;

	ctl = bpf_map_lookup_elem(&lavd_ctl, &zero);
	WRITE_ONCE(sample_prob, ctl ? lavd_sample_prob(ctl->samples_per_s,
						       sched_per_s) : 0);
}

#endif
