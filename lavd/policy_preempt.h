/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of preemption, slice boosts, pinned tasks and lock
 * holders, as pure functions on policy.h's terms (its units and its
 * promise: every function total, tests/test_lavd_policy.c and
 * tests/test_lavd_features.c check it on the host).
 */
#ifndef LAVD_POLICY_PREEMPT_H
#define LAVD_POLICY_PREEMPT_H

#include "policy.h"

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
