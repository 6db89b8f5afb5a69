/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of the LAVD policy as pure functions: no maps, no kfuncs,
 * no globals. The same header is compiled into the BPF object (lavd.bpf.c)
 * and into host C, where tests/test_lavd_policy.c checks it with cmocka.
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

/* ==== Preemption, slice boost, pinned tasks, lock holders ==== */

/* --preempt-shift default: the top 1/64 of the [avg, max] lat_cri range. */
#define LAVD_PREEMPT_SHIFT_DFL	6
#define LAVD_PREEMPT_SHIFT_MAX	10

/*
 * The lat_cri a waking task must reach to look for a victim (docs/lavd.md):
 *   max - ((max - avg) >> shift)
 * With a shift of 6 that is the top ~1.5 % of the range between the
 * average and the maximum. A maximum at or below the average (a quiet
 * system) makes the maximum itself the threshold.
 */
LAVD_INLINE __u64 lavd_preempt_thresh(__u64 max_lc, __u64 avg_lc, __u32 shift)
{
	if (max_lc <= avg_lc)
		return max_lc;
	if (shift > 63)
		shift = 63;
	return max_lc - ((max_lc - avg_lc) >> shift);
}

/*
 * When a task that starts now is expected to stop: after its usual burst,
 * or when its slice ends if that comes first. Saturates at u64 max.
 */
LAVD_INLINE __u64 lavd_est_stop(__u64 now, __u64 avg_runtime, __u64 slice)
{
	__u64 run = lavd_min(avg_runtime, slice);

	return run > LAVD_U64_MAX - now ? LAVD_U64_MAX : now + run;
}

/*
 * Which running tasks a queued wakee may evict. A greedy wakee evicts
 * nothing; one at or above the preemption threshold may evict any less
 * critical task; below it, with --greedy-preempt, only a greedy one (a
 * task that took more than its share waits, not the one that did not).
 */
enum lavd_evict_scope { LAVD_EVICT_NONE, LAVD_EVICT_ANY, LAVD_EVICT_GREEDY };

LAVD_INLINE enum lavd_evict_scope lavd_evict_scope(bool wakee_greedy, __u64 lc,
						   __u64 threshold,
						   bool greedy_preempt)
{
	if (wakee_greedy)
		return LAVD_EVICT_NONE;
	if (lc >= threshold)
		return LAVD_EVICT_ANY;
	return greedy_preempt ? LAVD_EVICT_GREEDY : LAVD_EVICT_NONE;
}

/*
 * A greedy task's slice with --greedy-slice-us (cap 0: off): the queued
 * work gets the CPU sooner, and a task that took more than its share gets
 * no boosted slice either.
 */
LAVD_INLINE __u64 lavd_greedy_slice(__u64 slice, bool greedy, __u64 cap)
{
	return greedy && cap && slice > cap ? cap : slice;
}

/*
 * A CPU is a candidate victim for a waking task when the task it runs is
 * strictly less latency-critical and expected to stop later than the
 * wakee would if it ran now. (Idle CPUs, RT/DL-held CPUs and futex
 * holders are excluded by the caller before this test.)
 */
LAVD_INLINE bool lavd_can_evict(__u64 lc, __u64 stop, __u64 victim_lc,
				__u64 victim_stop)
{
	return lc > victim_lc && stop < victim_stop;
}

/*
 * Of two candidate victims, which one to evict: 0 or 1.
 * Our decision (docs/lavd.md): the *less* critical one, and of two equally
 * critical ones the one that would run longer. (The reference keeps the
 * more critical one, which evicts the task that matters more.) Ties go
 * to the first candidate, the preferred CPU.
 */
LAVD_INLINE int lavd_pick_victim(__u64 lc0, __u64 stop0, __u64 lc1, __u64 stop1)
{
	if (lc0 != lc1)
		return lc1 < lc0 ? 1 : 0;
	return stop1 > stop0 ? 1 : 0;
}

/*
 * When the victim CPU's next scheduler tick comes, given its last tick
 * and the tick period (ticks keep their phase while a CPU is busy). An
 * unknown last tick assumes a whole period from now.
 */
LAVD_INLINE __u64 lavd_next_tick(__u64 now, __u64 last_tick, __u64 tick_ns)
{
	if (!tick_ns)
		return now;
	if (!last_tick || last_tick > now)
		return now + tick_ns;
	return now + tick_ns - (now - last_tick) % tick_ns;
}

/*
 * Does an eviction need an immediate IPI (SCX_KICK_PREEMPT)? Cutting the
 * victim's slice to 1 ns takes effect at its next tick (up to 4 ms at
 * HZ=250). Our decision (docs/lavd.md): kick when the victim would run past
 * the wakee's deadline, taken here as the moment the wakee would have
 * finished its usual burst had it started now (wakee_stop); otherwise
 * the tick comes soon enough and saves the IPI. mode: LAVD_KICK_* of
 * intf.h (0 auto, 1 never, 2 always).
 */
LAVD_INLINE bool lavd_need_kick(__u32 mode, __u64 next_tick, __u64 wakee_stop)
{
	if (mode == 1)
		return false;
	if (mode == 2)
		return true;
	return next_tick > wakee_stop;
}

/* Slice boost (docs/lavd.md): a long runner gets its burst plus a bonus. */
#define LAVD_SLICE_BOOST_BONUS	(500ULL * LAVD_NSEC_PER_USEC)
#define LAVD_SLICE_BOOST_MAX	(500ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_UTIL_ROOM_PCT	95ULL

/*
 * The system has room for full slice boosts while the CPUs were at most
 * 95 % busy in the last interval and no more tasks wait than there are
 * active CPUs.
 */
LAVD_INLINE bool lavd_has_room(__u64 util_pct, __u64 nr_queued, __u64 nr_active)
{
	return util_pct <= LAVD_UTIL_ROOM_PCT && nr_queued <= nr_active;
}

/*
 * A task's slice. Only a task whose average burst exceeds the system
 * slice is boosted (it would be cut before finishing its burst):
 * with room, to its burst + 500 us (at most 500 ms), so it finishes
 * without an involuntary switch; without room, only a task above the
 * average lat_cri (likely in the middle of a chain), to at most twice
 * the system slice. Everything else gets the system slice.
 * *boosted says whether the result exceeds the system slice.
 */
LAVD_INLINE __u64 lavd_task_slice(__u64 sys_slice, __u64 avg_runtime,
				  __u64 lat_cri, __u64 avg_lat_cri, bool room,
				  bool boost_on, bool *boosted)
{
	__u64 s = sys_slice, want;

	*boosted = false;
	if (!boost_on || avg_runtime <= sys_slice)
		return sys_slice;
	/* burst + bonus, saturating */
	want = avg_runtime > LAVD_U64_MAX - LAVD_SLICE_BOOST_BONUS ? LAVD_U64_MAX :
	       avg_runtime + LAVD_SLICE_BOOST_BONUS;
	if (room)
		s = lavd_min(want, lavd_max(LAVD_SLICE_BOOST_MAX, sys_slice));
	else if (lat_cri > avg_lat_cri)
		s = lavd_min(want, sys_slice > LAVD_U64_MAX / 2 ? sys_slice : 2 * sys_slice);
	*boosted = s > sys_slice;
	return s;
}

/* While pinned tasks wait for a CPU, nothing there runs longer than
 * pinned_slice (0: no cap). */
LAVD_INLINE __u64 lavd_pinned_cap(__u64 slice, __u64 nr_pinned_waiting,
				  __u64 pinned_slice)
{
	if (!nr_pinned_waiting || !pinned_slice)
		return slice;
	return lavd_min(slice, pinned_slice);
}

/*
 * A running task's slice is cut back to target (a boosted slice when the
 * system saturates, any slice when pinned tasks wait): what remains of
 * target after it ran ran_ns, or 0 when it is already past target (then
 * the caller stops it at once).
 */
LAVD_INLINE __u64 lavd_cut_slice(__u64 ran_ns, __u64 target)
{
	return ran_ns < target ? target - ran_ns : 0;
}

/*
 * Futex lock holders (docs/lavd.md). A task is a *probable* holder from a
 * successful futex wait or lock until its next wake or unlock: user-space
 * locks take the futex only when contended, so this catches exactly the
 * contended ones. Flags of a task:
 */
#define LAVD_HOLDER		(1u << 0)	/* probably holds a futex now */
#define LAVD_HOLDER_BOOST	(1u << 1)	/* stopped while holding: boost next */
#define LAVD_HOLDER_EXTENDED	(1u << 2)	/* used its slice extension this run */
#define LAVD_HOLDER_MASK	(LAVD_HOLDER | LAVD_HOLDER_BOOST | LAVD_HOLDER_EXTENDED)

enum lavd_holder_ev {
	LAVD_HEV_ACQUIRE,	/* futex wait returned 0, lock_pi succeeded */
	LAVD_HEV_RELEASE,	/* futex wake or unlock_pi succeeded */
	LAVD_HEV_EXTEND,	/* its slice expired while it is runnable */
	LAVD_HEV_STOP,		/* it leaves the CPU (ops.stopping) */
	LAVD_HEV_DEADLINE,	/* its next deadline is computed */
};

/*
 * The holder state machine. A holder that stops running while holding
 * keeps only HOLDER_BOOST (one +128 lat_cri boost on its next deadline,
 * consumed there): the holder flag itself never survives a stop, so a
 * wake that was missed cannot leave a task boosted for ever. EXTEND is
 * granted once per run (the caller checks lavd_holder_may_extend first).
 */
LAVD_INLINE __u32 lavd_holder_next(__u32 flags, __u32 ev)
{
	flags &= LAVD_HOLDER_MASK;
	switch (ev) {
	case LAVD_HEV_ACQUIRE:
		return flags | LAVD_HOLDER;
	case LAVD_HEV_RELEASE:
		return flags & ~LAVD_HOLDER;
	case LAVD_HEV_EXTEND:
		return flags | LAVD_HOLDER_EXTENDED;
	case LAVD_HEV_STOP:
		return (flags & LAVD_HOLDER) ? LAVD_HOLDER_BOOST : 0;
	case LAVD_HEV_DEADLINE:
		return flags & ~LAVD_HOLDER_BOOST;
	}
	return flags;
}

/* A holder whose slice expired gets one more slice, once per run. */
LAVD_INLINE bool lavd_holder_may_extend(__u32 flags)
{
	return (flags & LAVD_HOLDER) && !(flags & LAVD_HOLDER_EXTENDED);
}

/* The deadline boost from a past holding (+128, docs/lavd.md). */
LAVD_INLINE __u64 lavd_holder_boost(__u32 flags)
{
	return (flags & LAVD_HOLDER_BOOST) ? LAVD_BOOST_REGULAR : 0;
}

/* futex(2) operations, for the syscall-tracepoint fallback. */
#define LAVD_FUTEX_WAIT			0
#define LAVD_FUTEX_WAKE			1
#define LAVD_FUTEX_REQUEUE		3
#define LAVD_FUTEX_CMP_REQUEUE		4
#define LAVD_FUTEX_WAKE_OP		5
#define LAVD_FUTEX_LOCK_PI		6
#define LAVD_FUTEX_UNLOCK_PI		7
#define LAVD_FUTEX_TRYLOCK_PI		8
#define LAVD_FUTEX_WAIT_BITSET		9
#define LAVD_FUTEX_WAKE_BITSET		10
#define LAVD_FUTEX_WAIT_REQUEUE_PI	11
#define LAVD_FUTEX_CMP_REQUEUE_PI	12
#define LAVD_FUTEX_LOCK_PI2		13
#define LAVD_FUTEX_CMD_MASK		0x7f	/* without PRIVATE (128), CLOCK_RT (256) */
#define LAVD_HEV_NONE			99

/*
 * What a completed futex(2) call means for the holder state: op is the
 * call's operation, ret its return value. Waits and locks that returned
 * 0 acquire; wakes, requeues (which wake) and unlocks that succeeded
 * release (a wake that woke nobody still marks the end of a critical
 * section); anything else is LAVD_HEV_NONE.
 */
LAVD_INLINE __u32 lavd_futex_op_event(__u32 op, __s64 ret)
{
	switch (op & LAVD_FUTEX_CMD_MASK) {
	case LAVD_FUTEX_WAIT:
	case LAVD_FUTEX_WAIT_BITSET:
	case LAVD_FUTEX_WAIT_REQUEUE_PI:
	case LAVD_FUTEX_LOCK_PI:
	case LAVD_FUTEX_LOCK_PI2:
	case LAVD_FUTEX_TRYLOCK_PI:
		return ret == 0 ? LAVD_HEV_ACQUIRE : LAVD_HEV_NONE;
	case LAVD_FUTEX_WAKE:
	case LAVD_FUTEX_WAKE_BITSET:
	case LAVD_FUTEX_WAKE_OP:
	case LAVD_FUTEX_REQUEUE:
	case LAVD_FUTEX_CMP_REQUEUE:
	case LAVD_FUTEX_CMP_REQUEUE_PI:
		return ret >= 0 ? LAVD_HEV_RELEASE : LAVD_HEV_NONE;
	case LAVD_FUTEX_UNLOCK_PI:
		return ret == 0 ? LAVD_HEV_RELEASE : LAVD_HEV_NONE;
	}
	return LAVD_HEV_NONE;
}

/*
 * Sampling: the probability (out of 2^32) that one schedule is sampled so
 * that about want_per_s samples come out of sched_per_s schedules a
 * second; 0 when nothing is wanted, 2^32-1 (every one) when fewer
 * schedules than wanted happen.
 */
LAVD_INLINE __u64 lavd_sample_prob(__u64 want_per_s, __u64 sched_per_s)
{
	if (!want_per_s)
		return 0;
	if (sched_per_s <= want_per_s)
		return 0xffffffffULL;
	/* want < sched here, so the quotient fits in 32 bits */
	return (lavd_min(want_per_s, 1ULL << 31) << 32) / sched_per_s;
}

/*
 * The scheduler tick's period, when the loader could not read CONFIG_HZ:
 * learnt from consecutive ticks on a CPU. A gap longer than 3 periods
 * (the CPU idled or ran other classes in between) says nothing; the rest
 * is smoothed by the EWMA. Starts at HZ=250's 4 ms.
 */
#define LAVD_TICK_NS_DFL	(4ULL * LAVD_NSEC_PER_MSEC)
#define LAVD_TICK_NS_MIN	(100ULL * LAVD_NSEC_PER_USEC)

LAVD_INLINE __u64 lavd_tick_learn(__u64 est, __u64 delta)
{
	if (!est)
		est = LAVD_TICK_NS_DFL;
	if (delta < LAVD_TICK_NS_MIN || delta > 3 * est)
		return est;
	return lavd_ewma(est, delta);
}

#endif
