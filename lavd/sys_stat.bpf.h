/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 10 ms system statistics timer: counts the queued tasks, measures
 * the CPU utilisation, runs the energy step (power.bpf.h: power mode,
 * active CPUs, big/little threshold, domain balancing plan), recomputes
 * the system slice, the latency-critical
 * and preemption thresholds and whether slice boosts have room (cutting
 * boosted slices back when they no longer have), sets the sampling rate,
 * and publishes the record `lavd --stats` / `lavd --monitor` print (map
 * lavd_stats). Runs in softirq context on whichever CPU armed it last.
 *
 * Needs: lavd.bpf.h; gameprof.bpf.h (prof_gen); lat_cri.bpf.h (avg_svc); slice.bpf.h
 * (avg_lat_cri_last, nr_pinned_waiting, shrink_boosted_cpu); power.bpf.h
 * (energy_tick, energy_publish_mask, nr_active_cpus); sample.bpf.h
 * (sample_rate_update).
 */
#ifndef LAVD_SYS_STAT_BPF_H
#define LAVD_SYS_STAT_BPF_H

struct lavd_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct lavd_timer);
} lavd_timer SEC(".maps");

/* Totals of the per-CPU counters at the previous tick (for averages). */
static u64 prev_sched, prev_sum_lat_cri, prev_busy, prev_tick_ns, prev_clk;
/* EWMAs of each interval's largest lat_cri and of schedules per second */
static u64 max_lat_cri_ewma, sched_per_s;

/* Largest lat_cri per 100 ms over the last second, for max_lat_cri. */
#define MAX_BUCKETS 10
static u64 max_bucket[MAX_BUCKETS];
static u64 nr_ticks;

static long count_dom(u64 dom, void *data)
{
	s32 q = scx_bpf_dsq_nr_queued(dom_dsq((u32)dom));

	if (q > 0)
		*(u64 *)data += (u64)q;
	return 0;
}

static long count_pinned(u64 cpu, void *data)
{
	*(u64 *)data += nr_pinned_waiting((s32)cpu);
	return 0;
}

/* Tasks waiting in all domain queues and pinned queues. */
static __always_inline u64 count_queued(void)
{
	u64 n = 0;

	bpf_loop(nr_doms, count_dom, &n, 0);
	bpf_loop(nr_cpu_ids, count_pinned, &n, 0);
	return n;
}

/* Sums of the per-CPU counters, built by one bpf_loop() callback per CPU
 * (a callback is verified once, whatever the number of CPUs). */
struct tick_sum {
	struct lavd_stats *st;
	u64 sched, sum_lc, max_lc, busy;
	u64 clk;	/* lavd_now() of this tick, for the busy time */
};

static long sum_cpu(u64 cpu, void *data)
{
	struct tick_sum *s = data;
	struct lavd_stats *st = s->st;
	struct cpu_ctx *c = get_cpu_ctx_of((s32)cpu);

	if (!c || !st)
		return 0;
	s->sched += c->nr_sched;
	s->sum_lc += c->sum_lat_cri;
	s->max_lc = lavd_max(s->max_lc, c->max_lat_cri);
	c->max_lat_cri = 0;	/* racy reset: a lost maximum is harmless */
	st->nr_direct += c->nr_direct;
	st->nr_enq += c->nr_enq;
	st->nr_lat_cri += c->nr_lat_cri;
	st->nr_greedy += c->nr_greedy;
	st->nr_reenq += c->nr_reenq;
	st->nr_sync_wake += c->nr_sync_wake;
	st->nr_idle_core += c->nr_idle_core;
	st->nr_local_pinned += c->nr_local_pinned;
	st->nr_steal += c->nr_steal;
	st->nr_stall_skips += c->nr_stall_skips;
	st->nr_preempt += c->nr_preempt;
	st->nr_preempt_kick += c->nr_preempt_kick;
	st->nr_preempt_try += c->nr_preempt_try;
	st->nr_preempt_spared += c->nr_preempt_spared;
	st->nr_futex_lock += c->nr_futex_lock;
	st->nr_futex_unlock += c->nr_futex_unlock;
	st->nr_holder_ext += c->nr_holder_ext;
	st->nr_holder_boost += c->nr_holder_boost;
	st->nr_slice_boost += c->nr_slice_boost;
	st->nr_slice_shrink += c->nr_slice_shrink;
	st->nr_pinned += c->nr_pinned;
	st->nr_pinned_cap += c->nr_pinned_cap;
	st->nr_samples_lost += c->nr_samples_lost;
	st->nr_keep += c->nr_keep;
	if (game_profiles)
		for (int i = 0; i < LAVD_MAX_PROFILES; i++)
			st->prof_sched[i] += c->prof_sched[i];
	s->busy += cpu_busy_at(c, s->clk);
	return 0;
}

/* Folds this tick's maximum into its 100 ms bucket; max of the last 1 s. */
static __always_inline u64 window_max(u64 tick_max)
{
	u32 b = (u32)((nr_ticks++ / 10) % MAX_BUCKETS);
	u64 m = 0;

	/* Verifiers before 6.13 keep no bounds through a modulo: check again,
	 * hidden from the compiler, which knows the check cannot fail. */
	barrier_var(b);
	if (b >= MAX_BUCKETS)
		return tick_max;

	if (nr_ticks % 10 == 1)
		max_bucket[b] = 0;	/* a new bucket starts */
	max_bucket[b] = lavd_max(max_bucket[b], tick_max);
	for (int i = 0; i < MAX_BUCKETS; i++)
		m = lavd_max(m, max_bucket[i]);
	return m;
}

/* The interval's counters back to zero, before the CPUs are summed. */
static __always_inline void stats_reset(struct lavd_stats *st)
{
	st->nr_direct = st->nr_enq = st->nr_lat_cri = st->nr_greedy = 0;
	st->nr_reenq = st->nr_sync_wake = st->nr_idle_core = 0;
	st->nr_local_pinned = st->nr_steal = st->nr_stall_skips = 0;
	st->nr_preempt = st->nr_preempt_kick = st->nr_preempt_try = 0;
	st->nr_preempt_spared = st->nr_futex_lock = st->nr_futex_unlock = 0;
	st->nr_holder_ext = st->nr_holder_boost = st->nr_slice_boost = 0;
	st->nr_slice_shrink = st->nr_pinned = st->nr_pinned_cap = 0;
	st->nr_samples_lost = st->nr_keep = 0;
	if (game_profiles)
		for (int i = 0; i < LAVD_MAX_PROFILES; i++)
			st->prof_sched[i] = 0;
}

/* The interval's figures into the stats map, for the loader to read. */
static __always_inline void stats_publish(struct lavd_stats *st,
					  const struct tick_sum *s, u64 nr_q,
					  u64 now)
{
	st->magic = LAVD_STATS_MAGIC;
	st->now_ns = now;
	st->lat_cri_preempt = lat_cri_preempt;
	st->futex_path = no_futex_boost ? LAVD_FUTEX_OFF : READ_ONCE(futex_path);
	st->util_pct = util_pct_last;
	st->nr_queued = nr_q;
	st->slice_ns = sys_slice;
	st->max_lat_cri = window_max(s->max_lc);
	st->lat_cri_thresh = lat_cri_thresh;
	st->logical_clk = cur_logical_clk;
	st->avg_svc = avg_svc();
	st->nr_runnable = rq_nr;
	st->nr_sched = s->sched;
	st->sum_lat_cri = s->sum_lc;
	st->prof_gen = READ_ONCE(prof_gen);
	st->nr_proc_ev_lost = READ_ONCE(nr_proc_ev_lost);
}

static int sys_stat_tick(void *map, int *key, struct bpf_timer *timer)
{
	struct tick_sum s = { 0 };
	struct lavd_stats *st;
	u64 nr_q = count_queued(), d_sched, now;
	u32 zero = 0;
	bool room;

	st = bpf_map_lookup_elem(&lavd_stats, &zero);
	if (!st)
		goto rearm;

	/* refill begins: seq_end, then seq, odd (intf.h) */
	__sync_fetch_and_add(&st->seq_end, 1);
	__sync_fetch_and_add(&st->seq, 1);
	stats_reset(st);
	s.st = st;
	s.clk = lavd_now();
	bpf_loop(nr_cpu_ids, sum_cpu, &s, 0);
	now = bpf_ktime_get_ns();

	/* Average lat_cri of this interval's schedules; the threshold for
	 * "latency-critical" follows it with an EWMA, and so does the
	 * interval's maximum, from which the preemption threshold is taken
	 * (as the reference does: a single outlier does not lift it for a
	 * whole second). */
	d_sched = s.sched - prev_sched;
	if (d_sched) {
		u64 avg = (s.sum_lc - prev_sum_lat_cri) / d_sched;

		st->avg_lat_cri = avg;
		WRITE_ONCE(avg_lat_cri_last, avg);
		WRITE_ONCE(lat_cri_thresh, lat_cri_thresh ?
			   lavd_ewma(lat_cri_thresh, avg) : avg);
		max_lat_cri_ewma = max_lat_cri_ewma ?
				   lavd_ewma(max_lat_cri_ewma, s.max_lc) : s.max_lc;
		/* profiles with their own preempt-shift start from it */
		WRITE_ONCE(lat_cri_max_avg, max_lat_cri_ewma);
		WRITE_ONCE(lat_cri_preempt,
			   lavd_preempt_thresh(max_lat_cri_ewma, lat_cri_thresh,
					       preempt_shift));
	}
	/* schedules per second, for the sampling rate */
	if (prev_tick_ns && now > prev_tick_ns)
		sched_per_s = lavd_ewma(sched_per_s, d_sched * LAVD_NSEC_PER_SEC /
						     (now - prev_tick_ns));
	/* utilisation of the interval: busy time over the active CPUs of the
	 * interval x elapsed (both on lavd_now()'s clock), so that a
	 * compacted set that is saturated leaves no room for slice boosts
	 * (the CPUs left idle on purpose do not count); a snapshot that went
	 * back (a CPU accounted less than the previous estimate) reads as
	 * busy */
	if (prev_clk && s.clk > prev_clk)
		WRITE_ONCE(util_pct_last, s.busy < prev_busy ? 100 :
			   lavd_min(100, (s.busy - prev_busy) * 100 /
					 ((s.clk - prev_clk) *
					  lavd_max(READ_ONCE(nr_active_cpus), 1))));
	prev_clk = s.clk;
	prev_sched = s.sched;
	prev_sum_lat_cri = s.sum_lc;
	prev_busy = s.busy;
	prev_tick_ns = now;

	/* Energy and topology (power.bpf.h): power mode, active set,
	 * big/little threshold, domain plan. The slice and the room for
	 * boosts count the active CPUs only. */
	energy_tick(st, nr_q);

	WRITE_ONCE(nr_queued_last, nr_q);
	WRITE_ONCE(sys_slice, lavd_sys_slice(sys_slice, READ_ONCE(nr_active_cpus),
					     nr_q, slice_min_ns, slice_max_ns));

	/* Slice boosts: room or not; without, cut the running boosted ones. */
	room = lavd_has_room(util_pct_last, nr_q, READ_ONCE(nr_active_cpus));
	WRITE_ONCE(sys_room, room);
	if (!room && !no_slice_boost) {
		u64 cut = 0;
		struct cpu_ctx *self = get_cpu_ctx();

		bpf_loop(nr_cpu_ids, shrink_boosted_cpu, &cut, 0);
		if (self)
			self->nr_slice_shrink += cut;
	}
	sample_rate_update(sched_per_s);

	stats_publish(st, &s, nr_q, now);
	energy_publish_mask(st);
	/* published: seq, then seq_end, even again */
	__sync_fetch_and_add(&st->seq, 1);
	__sync_fetch_and_add(&st->seq_end, 1);

rearm:
	bpf_timer_start(timer, LAVD_SYS_STAT_INTERVAL_NS, 0);
	return 0;
}

static __always_inline s32 sys_stat_init(void)
{
	struct lavd_timer *t;
	u32 zero = 0;
	s32 err;

	t = bpf_map_lookup_elem(&lavd_timer, &zero);
	if (!t)
		return -ENOENT;
	err = bpf_timer_init(&t->timer, &lavd_timer, CLOCK_MONOTONIC);
	if (err)
		return err;
	err = bpf_timer_set_callback(&t->timer, sys_stat_tick);
	if (err)
		return err;
	return bpf_timer_start(&t->timer, LAVD_SYS_STAT_INTERVAL_NS, 0);
}

#endif
