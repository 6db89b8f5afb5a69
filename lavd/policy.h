/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of the LAVD policy as pure functions: no maps, no kfuncs,
 * no globals: lat_cri, virtual deadlines and slices (preemption, slice
 * boosts, pinned tasks and lock holders: policy_preempt.h). The same
 * header is compiled into the BPF object (lavd.bpf.c) and into host C, where tests/test_lavd_policy.c checks it with cmocka.
 * Formulas and constants follow docs/lavd.md; every place where
 * we deliberately differ from the reference says so.
 *
 * Units: ns for times, Hz for frequencies handed to lavd_lat_cri(), and
 * fixed point with LAVD_SCALE = 1024 = 1.0 for ratios. Stored frequencies
 * are kept in 1/1024 Hz (LAVD_FREQ_SHIFT) so that slow events (a task that
 * sleeps once a second) do not round away to zero in the EWMA.
 *
 * Every function is total: any u64 input, including ~0ULL, gives a defined
 * result without overflow (tests check the extremes).
 */
#ifndef LAVD_POLICY_H
#define LAVD_POLICY_H

#ifdef __bpf__
/* vmlinux.h, included first by the BPF side, defines __u64 and friends. */
#define LAVD_INLINE static __always_inline
#else
#include <linux/types.h>
#include <stdbool.h>
#define LAVD_INLINE static inline
#endif

#define LAVD_NSEC_PER_USEC	1000ULL
#define LAVD_NSEC_PER_MSEC	1000000ULL
#define LAVD_NSEC_PER_SEC	1000000000ULL
#define LAVD_U64_MAX		(~0ULL)

#define LAVD_SHIFT		10
#define LAVD_SCALE		(1ULL << LAVD_SHIFT)

/* Frequencies are stored as Hz << LAVD_FREQ_SHIFT. */
#define LAVD_FREQ_SHIFT		10
#define LAVD_FREQ_MAX		100000ULL	/* Hz: a 10 us interval */
#define LAVD_FREQ_FP_MAX	(LAVD_FREQ_MAX << LAVD_FREQ_SHIFT)
/* A waker's wake_freq is sampled at most once per 500 us. */
#define LAVD_WAKE_INTERVAL_MIN	(500ULL * LAVD_NSEC_PER_USEC)

/* lat_cri: runtime factor in units of the minimum slice, up to 1 s. */
#define LAVD_LC_RUNTIME_MAX	LAVD_NSEC_PER_SEC
#define LAVD_LC_RUNTIME_UNIT	(500ULL * LAVD_NSEC_PER_USEC)

/*
 * Context boosts added to the weight multiplier as plain integers, as the
 * reference's code adds them: a plain wakeup multiplies the weight by 129.
 * Descriptions of the reference call them "units of 1/1024", but the
 * typical values docs/lavd.md quotes (1521 for a 120 Hz game thread on
 * wakeup, 2304 for a 1 kHz irq-woken thread) only come out this way;
 * tests/test_lavd_policy.c derives them.
 */
#define LAVD_BOOST_REGULAR	128ULL
#define LAVD_BOOST_MEDIUM	(2 * LAVD_BOOST_REGULAR)
#define LAVD_BOOST_HIGH		(2 * LAVD_BOOST_MEDIUM)
#define LAVD_BOOST_HIGHEST	(2 * LAVD_BOOST_HIGH)
/* Sum of every boost that can apply at once, rounded up: the clamp. */
#define LAVD_BOOST_MAX		4096ULL

/* Task weights: 100 at nice 0, 1 .. 10000 over the nice range. */
#define LAVD_WEIGHT_DFL		100ULL
#define LAVD_WEIGHT_MIN		1ULL
#define LAVD_WEIGHT_MAX		10000ULL

/* Inheritance: 1/8 of the excess over 2x own, at most +25 % of own. */
#define LAVD_LC_INH_GIVER_SHIFT	3
#define LAVD_LC_INH_RECV_SHIFT	2
/* Upper bound of a lat_cri value (the formula tops out near 60^2 * 1.25). */
#define LAVD_LAT_CRI_MAX	(1ULL << 20)

/* Virtual deadline. */
#define LAVD_TASK_LAG_MAX	(500ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_ACC_RUNTIME_MAX	(5ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_DL_COMPETE_WINDOW	((300ULL * LAVD_NSEC_PER_MSEC) >> 16)
#define LAVD_GREEDY_SHIFT	1	/* penalty spans 1.0x .. 2.0x */

/* Time slice. */
#define LAVD_TARGET_LATENCY	(10ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_SLICE_MIN_DFL	(500ULL * LAVD_NSEC_PER_USEC)
#define LAVD_SLICE_MAX_DFL	(5ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_MAX_CPUS_ARITH	65536ULL	/* clamp for CPU counts */

LAVD_INLINE __u64 lavd_min(__u64 a, __u64 b) { return a < b ? a : b; }
LAVD_INLINE __u64 lavd_max(__u64 a, __u64 b) { return a > b ? a : b; }
LAVD_INLINE __u64 lavd_clamp(__u64 v, __u64 lo, __u64 hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* L(v) = floor(log2 v) + 1, and L(0) = 0: the number of significant bits. */
LAVD_INLINE __u32 lavd_log2x(__u64 v)
{
	__u32 r = 0;

	/* Binary search over the bit width; branch-light for the verifier. */
	if (v >> 32) { r += 32; v >>= 32; }
	if (v >> 16) { r += 16; v >>= 16; }
	if (v >> 8) { r += 8; v >>= 8; }
	if (v >> 4) { r += 4; v >>= 4; }
	if (v >> 2) { r += 2; v >>= 2; }
	if (v >> 1) { r += 1; v >>= 1; }
	return r + (__u32)v;
}

/*
 * EWMA with alpha = 1/8: (7 old + new) / 8. Exact for the ranges we store
 * (frequencies, runtimes); degrades to a shifted form only near u64 max.
 */
LAVD_INLINE __u64 lavd_ewma(__u64 old, __u64 sample)
{
	if (old > (LAVD_U64_MAX >> 4) || sample > (LAVD_U64_MAX >> 4))
		return old - (old >> 3) + (sample >> 3);
	return (old * 7 + sample) >> 3;
}

/* One frequency sample, in 1/1024 Hz, from an interval in ns. */
LAVD_INLINE __u64 lavd_freq_sample(__u64 interval_ns)
{
	if (interval_ns < LAVD_NSEC_PER_SEC / LAVD_FREQ_MAX)
		return LAVD_FREQ_FP_MAX;
	return (LAVD_NSEC_PER_SEC << LAVD_FREQ_SHIFT) / interval_ns;
}

/*
 * Our decision (docs/lavd.md): frequency EWMAs decay with elapsed time. The
 * reference only updates them when the event happens again, so a thread
 * that stopped waking others keeps its old wake_freq forever. Here a
 * stored frequency f is read as min(f, 2 s / elapsed): while the silence
 * since the last event stays within twice the mean interval the value is
 * untouched (normal jitter), beyond that it follows the rate the silence
 * itself allows, falling as 1/elapsed and reaching 0 after ~2 s x 1024.
 */
LAVD_INLINE __u64 lavd_freq_decay(__u64 freq_fp, __u64 elapsed_ns)
{
	__u64 bound;

	if (elapsed_ns == 0)
		return freq_fp;
	bound = (2 * LAVD_NSEC_PER_SEC << LAVD_FREQ_SHIFT) / elapsed_ns;
	return lavd_min(freq_fp, bound);
}

/* A new event after interval_ns: decay the old value, then fold it in. */
LAVD_INLINE __u64 lavd_freq_update(__u64 freq_fp, __u64 interval_ns)
{
	__u64 old = lavd_min(lavd_freq_decay(freq_fp, interval_ns),
			     LAVD_FREQ_FP_MAX);

	return lavd_ewma(old, lavd_freq_sample(interval_ns));
}

/*
 * Stored frequency (1/1024 Hz) to whole Hz, rounded to nearest, as
 * lavd_lat_cri() takes them. The EWMA floors, so a steady 1 Hz settles a
 * few 1/1024 below 1 Hz; rounding keeps it at 1.
 */
LAVD_INLINE __u64 lavd_freq_hz(__u64 freq_fp)
{
	return (lavd_min(freq_fp, LAVD_FREQ_FP_MAX) + (1ULL << (LAVD_FREQ_SHIFT - 1)))
	       >> LAVD_FREQ_SHIFT;
}

/* A stored frequency as lat_cri reads it at now: decayed by the silence
 * since last_clk (ours), in whole Hz. */
LAVD_INLINE __u64 lavd_freq_now(__u64 freq_fp, __u64 last_clk, __u64 now)
{
	return lavd_freq_hz(lavd_freq_decay(freq_fp, now > last_clk ?
						    now - last_clk : 0));
}

/*
 * Latency criticality (docs/lavd.md):
 *   wait_ft    = min(wait_freq, 100000) + 1
 *   wake_ft    = min(wake_freq, 100000) + 1
 *   runtime_ft = avg_runtime < 1 s ? (1 s - avg_runtime) / 500 us + 1 : 1
 *   weight_ft  = weight * (1 + boost) + 1
 *   lat_cri    = (L(wait_ft * wake_ft) + L(runtime_ft * weight_ft))^2
 * Frequencies in Hz, weight 1..10000 (100 at nice 0), boost = sum of the
 * context boosts (LAVD_BOOST_*). Inputs are clamped, never trusted.
 */
/* lat_cri's two terms before they are added and squared:
 * *freq_l = L(wait_ft * wake_ft), *run_l = L(runtime_ft * weight_ft). */
LAVD_INLINE void lavd_lat_cri_terms(__u64 wait_hz, __u64 wake_hz,
				    __u64 avg_runtime, __u64 weight, __u64 boost,
				    __u32 *freq_l, __u32 *run_l)
{
	__u64 wait_ft = lavd_min(wait_hz, LAVD_FREQ_MAX) + 1;
	__u64 wake_ft = lavd_min(wake_hz, LAVD_FREQ_MAX) + 1;
	__u64 runtime_ft = 1, weight_ft;

	if (avg_runtime < LAVD_LC_RUNTIME_MAX)
		runtime_ft = (LAVD_LC_RUNTIME_MAX - avg_runtime) /
			     LAVD_LC_RUNTIME_UNIT + 1;
	weight = lavd_clamp(weight, LAVD_WEIGHT_MIN, LAVD_WEIGHT_MAX);
	boost = lavd_min(boost, LAVD_BOOST_MAX);
	weight_ft = weight * (1 + boost) + 1;
	*freq_l = lavd_log2x(wait_ft * wake_ft);
	*run_l = lavd_log2x(runtime_ft * weight_ft);
}

LAVD_INLINE __u64 lavd_lat_cri(__u64 wait_hz, __u64 wake_hz,
			       __u64 avg_runtime, __u64 weight, __u64 boost)
{
	__u32 freq_l, run_l;
	__u64 l;

	lavd_lat_cri_terms(wait_hz, wake_hz, avg_runtime, weight, boost,
			   &freq_l, &run_l);
	l = freq_l + run_l;
	return l * l;
}

/*
 * Waker/wakee inheritance: a task remembers its waker's lat_cri and the
 * largest lat_cri among the tasks it woke. If their sum exceeds twice its
 * own, it gains 1/8 of the excess, capped at +25 % of its own, so its own
 * behaviour stays the dominant term and cycles cannot inflate without end.
 */
LAVD_INLINE __u64 lavd_lat_cri_inherit(__u64 own, __u64 waker, __u64 wakee)
{
	__u64 giver, gain;

	own = lavd_min(own, LAVD_LAT_CRI_MAX);
	giver = lavd_min(waker, LAVD_LAT_CRI_MAX) +
		lavd_min(wakee, LAVD_LAT_CRI_MAX);
	if (giver <= 2 * own)
		return own;
	gain = (giver - 2 * own) >> LAVD_LC_INH_GIVER_SHIFT;
	return own + lavd_min(gain, own >> LAVD_LC_INH_RECV_SHIFT);
}

/* Weighted service for running runtime_ns at weight: runtime * 100 / w. */
LAVD_INLINE __u64 lavd_svc_delta(__u64 runtime_ns, __u64 weight)
{
	weight = lavd_clamp(weight, LAVD_WEIGHT_MIN, LAVD_WEIGHT_MAX);
	/* 2^56 ns is 2.3 years: far beyond one run, keeps * 100 in range */
	runtime_ns = lavd_min(runtime_ns, 1ULL << 56);
	return runtime_ns * LAVD_WEIGHT_DFL / weight;
}

/* The most lag (either sign) a task may carry: 500 ms * 100 / weight. */
LAVD_INLINE __u64 lavd_lag_max(__u64 weight)
{
	weight = lavd_clamp(weight, LAVD_WEIGHT_MIN, LAVD_WEIGHT_MAX);
	return LAVD_TASK_LAG_MAX * LAVD_WEIGHT_DFL / weight;
}

/*
 * Our decision (docs/lavd.md): lag is measured EEVDF-style against the average
 * virtual service of the *runnable* tasks (avg_svc), not against a
 * per-schedule average as the reference does since mid-2025, so that
 * "greedy" (lag < 0: the task received more than the runnable average)
 * means what it says.
 *
 * Returns the signed lag clamped to [-lag_max, +lag_max]. When a task's
 * positive lag exceeds lag_max (it slept long), *svc is raised to
 * avg_svc - lag_max so that sleeping cannot bank unbounded credit.
 */
LAVD_INLINE __s64 lavd_lag(__u64 avg_svc, __u64 *svc, __u64 weight)
{
	__u64 lag_max = lavd_lag_max(weight);

	if (avg_svc >= *svc) {
		if (avg_svc - *svc > lag_max) {
			*svc = avg_svc - lag_max;
			return (__s64)lag_max;
		}
		return (__s64)(avg_svc - *svc);
	}
	return -(__s64)lavd_min(*svc - avg_svc, lag_max);
}

/*
 * Greedy penalty in [1024, 2048] (1.0x .. 2.0x):
 *   1024 + (((lag_max - lag) << 10) / lag_max >> 1)
 * A task at +lag_max (under-served) gets 1.0x, at -lag_max 2.0x.
 */
LAVD_INLINE __u64 lavd_greedy_penalty(__s64 lag, __u64 weight)
{
	__u64 lag_max = lavd_lag_max(weight);
	__u64 d;

	if (lag > (__s64)lag_max)
		lag = (__s64)lag_max;
	if (lag < -(__s64)lag_max)
		lag = -(__s64)lag_max;
	d = (__u64)((__s64)lag_max - lag);	/* 0 .. 2 * lag_max */
	return LAVD_SCALE + (((d << LAVD_SHIFT) / lag_max) >> LAVD_GREEDY_SHIFT);
}

/*
 * Virtual deadline distance from the logical clock:
 *   (5 ms + min(acc_runtime, 5 ms)) * penalty / lat_cri >> 10
 * acc_runtime is the runtime since the last wakeup: a task that keeps
 * running without sleeping drifts later, but at most by 2x.
 */
LAVD_INLINE __u64 lavd_deadline_delta(__u64 acc_runtime, __u64 penalty,
				      __u64 lat_cri)
{
	__u64 runtime = LAVD_ACC_RUNTIME_MAX +
			lavd_min(acc_runtime, LAVD_ACC_RUNTIME_MAX);

	penalty = lavd_clamp(penalty, LAVD_SCALE, 2 * LAVD_SCALE);
	lat_cri = lavd_clamp(lat_cri, 1, LAVD_LAT_CRI_MAX);
	return (runtime * penalty / lat_cri) >> LAVD_SHIFT;
}

/*
 * Deadlines along a wake chain (on unless --no-chain-deadline): the links that make one
 * frame serve the same deadline, so a wakee keeps its waker's deadline
 * when that is earlier than its own - EDF over the chain, not link by
 * link. Bounded: never more than LAVD_CHAIN_LEAD_MAX behind the logical
 * clock (an old deadline would keep it ahead of everything), and a greedy
 * wakee (more service than its share) keeps its own. 0: nothing inherited.
 */
#define LAVD_CHAIN_LEAD_MAX	(1ULL * LAVD_NSEC_PER_MSEC)
/*
 * --greedy-slice-us's default. Under background load a greedy task (a CPU
 * hog) on a boosted or multi-tick slice kept the game's wakeups queued for
 * up to 13 ms (frametrace in the VM); capped, it yields at the next tick.
 */
#define LAVD_GREEDY_SLICE_DFL	(1000ULL * LAVD_NSEC_PER_USEC)
LAVD_INLINE __u64 lavd_chain_deadline(__u64 own, __u64 inherited, __u64 clock,
				      bool greedy)
{
	__u64 floor = clock > LAVD_CHAIN_LEAD_MAX ? clock - LAVD_CHAIN_LEAD_MAX : 0;

	if (!inherited || greedy || inherited >= own)
		return own;
	return inherited > floor ? inherited : lavd_min(floor, own);
}

/*
 * The compete window lets a newly queued task start slightly behind the
 * logical clock, ahead of tasks already waiting. But a task whose
 * dl_delta is below the window lands behind the clock and, when it runs,
 * cannot advance it: with a steady stream of such tasks the clock stalls
 * and everything with a larger dl_delta waits without bound. (The
 * reference hit this as a hackbench regression and shrinks the window
 * when oversubscribed; we do the same.) Full window while the waiting
 * tasks fit the CPUs, window * nr_active / nr_queued beyond.
 */
LAVD_INLINE __u64 lavd_compete_window(__u64 nr_active, __u64 nr_queued)
{
	nr_active = lavd_clamp(nr_active, 1, LAVD_MAX_CPUS_ARITH);
	if (nr_queued <= nr_active)
		return LAVD_DL_COMPETE_WINDOW;
	return LAVD_DL_COMPETE_WINDOW * nr_active / nr_queued;
}

/* vtime = logical_clock - window + dl_delta (never below 0, no wrap). */
LAVD_INLINE __u64 lavd_vtime(__u64 clock, __u64 window, __u64 dl_delta)
{
	__u64 base = clock > window ? clock - window : 0;

	return dl_delta > LAVD_U64_MAX - base ? LAVD_U64_MAX : base + dl_delta;
}

/*
 * The logical clock never goes back: when a task with vtime beyond the
 * clock starts running, the clock moves forward by the distance divided
 * by the number of queued tasks (at least 1).
 */
LAVD_INLINE __u64 lavd_clock_advance(__u64 clock, __u64 vtime, __u64 nr_queued)
{
	if (vtime <= clock)
		return clock;
	return clock + (vtime - clock) / lavd_max(nr_queued, 1);
}

/*
 * System slice, recomputed every 10 ms: the target latency shared by the
 * waiting tasks over the active CPUs, clamped to [min, max], smoothed by
 * an EWMA; the maximum when nothing waits.
 */
LAVD_INLINE __u64 lavd_sys_slice(__u64 old, __u64 nr_active, __u64 nr_queued,
				 __u64 slice_min, __u64 slice_max)
{
	__u64 target;

	if (slice_min > slice_max)
		slice_min = slice_max;
	if (nr_queued == 0)
		return slice_max;
	nr_active = lavd_clamp(nr_active, 1, LAVD_MAX_CPUS_ARITH);
	target = lavd_clamp(LAVD_TARGET_LATENCY * nr_active / nr_queued,
			    slice_min, slice_max);
	if (old == 0)
		return target;
	return lavd_clamp(lavd_ewma(old, target), slice_min, slice_max);
}

/* Preemption, slice boosts, pinned tasks and lock holders:
 * policy_preempt.h. */

#endif
