/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-task knobs of game profiles (docs/lavd.md, "Game profiles") as
 * pure functions, compiled into the BPF object and into host C like
 * policy.h (tests/test_lavd_profiles.c checks them). A task without a
 * profile never reaches these: its decisions stay the ones of policy.h,
 * and a profile that sets nothing gives the same results as policy.h.
 */
#ifndef LAVD_KNOBS_H
#define LAVD_KNOBS_H

#include "intf.h"
#include "policy.h"
#include "policy_preempt.h"

/* Weights of lat_cri's terms: 1/4 .. 4 (the loader refuses others). */
#define LAVD_KNOB_W_MIN		(LAVD_SCALE / 4)
#define LAVD_KNOB_W_MAX		(LAVD_SCALE * 4)

/*
 * The slice a profiled task starts from: the system slice times
 * slice_scale (1024 = 1.0), within the task's own bounds [lo, hi]. With
 * the defaults (1024, lavd's --slice-min-us/--slice-max-us) it is the
 * system slice itself.
 */
LAVD_INLINE __u64 lavd_knob_base_slice(__u64 sys_slice, __u32 scale, __u64 lo,
				       __u64 hi)
{
	__u64 s = sys_slice > (LAVD_U64_MAX >> 16) ? sys_slice :
		  (sys_slice * lavd_min(scale, 1ULL << 15)) >> LAVD_SHIFT;

	if (lo > hi)
		lo = hi;
	return lavd_clamp(s, lo, hi);
}

/*
 * A profiled task's weight: its nice weight times weight_scale (1024 =
 * 1.0), within the weight range. lavd charges service at runtime / weight
 * and compares it with the runnable tasks' average, so a task scaled x4
 * stays "not greedy" four times as long as a nice-0 hog beside it: its
 * share of the CPU, as a nice level would give it, but for the game's
 * processes only.
 */
LAVD_INLINE __u64 lavd_knob_weight(__u64 weight, __u32 weight_scale)
{
	return lavd_clamp((weight * lavd_min(weight_scale, 1ULL << 16)) >> LAVD_SHIFT,
			  LAVD_WEIGHT_MIN, LAVD_WEIGHT_MAX);
}

/*
 * lat_cri with a weight on each of its two terms:
 *   ((L(wait_ft * wake_ft) * freq_w + L(runtime_ft * weight_ft) * run_w) >> 10)^2
 * Weights of 1024 give lavd_lat_cri() exactly. A task whose frame role
 * shows in how often it wakes (a game thread) can weigh that more than
 * its run time, or the other way round.
 */
LAVD_INLINE __u64 lavd_lat_cri_weighted(__u64 wait_hz, __u64 wake_hz,
					__u64 avg_runtime, __u64 weight,
					__u64 boost, __u32 freq_w, __u32 run_w)
{
	__u32 freq_l, run_l;
	__u64 l;

	lavd_lat_cri_terms(wait_hz, wake_hz, avg_runtime, weight, boost,
			   &freq_l, &run_l);
	l = ((__u64)freq_l * lavd_clamp(freq_w, LAVD_KNOB_W_MIN, LAVD_KNOB_W_MAX) +
	     (__u64)run_l * lavd_clamp(run_w, LAVD_KNOB_W_MIN, LAVD_KNOB_W_MAX)) >> LAVD_SHIFT;
	return l * l;
}

/*
 * A profiled task's slice for one run: its base slice, a slice boost
 * (policy.h's rule, measured against the base) when its knob allows one,
 * and the greedy cap. *boosted says whether the boost lengthened it, as
 * lavd_task_slice() does: a scaled slice is not a loan the timer calls
 * back.
 */
LAVD_INLINE __u64 lavd_knob_slice(__u64 sys_slice, __u64 avg_runtime,
				  __u64 lat_cri, __u64 avg_lat_cri, bool room,
				  bool greedy, const struct lavd_knobs *k,
				  bool *boosted)
{
	__u64 base = lavd_knob_base_slice(sys_slice, k->slice_scale,
					  k->slice_min_ns, k->slice_max_ns);
	__u64 s = lavd_task_slice(base, avg_runtime, lat_cri, avg_lat_cri, room,
				  k->flags & LAVD_KN_SLICE_BOOST, boosted);

	if (lavd_greedy_slice(s, greedy, k->greedy_slice_ns) < s) {
		*boosted = false;
		return k->greedy_slice_ns;
	}
	return s;
}

/*
 * Which running tasks a profiled wakee may evict: none when its
 * preemption is off; else policy.h's rule with its own threshold (from
 * its preempt-shift) and its greedy-preempt.
 */
LAVD_INLINE enum lavd_evict_scope lavd_knob_evict_scope(bool greedy, __u64 lc,
							__u64 max_lc, __u64 avg_lc,
							const struct lavd_knobs *k)
{
	if (!(k->flags & LAVD_KN_PREEMPT))
		return LAVD_EVICT_NONE;
	return lavd_evict_scope(greedy, lc,
				lavd_preempt_thresh(max_lc, avg_lc, k->preempt_shift),
				k->flags & LAVD_KN_GREEDY_PREEMPT);
}

/* The holder state a profiled task is treated with: none at all when
 * its futex-boost is off (no extension, no boost, not spared). */
LAVD_INLINE __u32 lavd_knob_holder(__u32 holder, const struct lavd_knobs *k)
{
	return (k->flags & LAVD_KN_FUTEX) ? holder : 0;
}

#endif
