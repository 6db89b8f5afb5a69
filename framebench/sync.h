/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Futex primitives on shared memory (FUTEX_WAIT/WAKE without the PRIVATE
 * flag, so they work across the helper processes, as Wine's fsync does),
 * the Wine-style three-state mutex, and the instrumentation every wait
 * uses: the waker stamps the time, the woken task takes the difference;
 * and the stop-aware sleep every timed task uses. The self-test times
 * exactly these functions.
 */
#ifndef FB_SYNC_H
#define FB_SYNC_H

#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fb.h"
#include "util.h"

#define FB_WAIT_SLICE_NS (100 * NSEC_PER_MSEC)

static inline long fb_futex_wait(_Atomic uint32_t *w, uint32_t val,
				 uint64_t timeout_ns)
{
	struct timespec ts = { (time_t)(timeout_ns / NSEC_PER_SEC),
			       (long)(timeout_ns % NSEC_PER_SEC) };

	return syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, val, &ts, NULL, 0);
}

/* Returns how many waiters were woken. */
static inline int fb_futex_wake(_Atomic uint32_t *w, int n)
{
	long r = syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, n, NULL, NULL, 0);

	return r > 0 ? (int)r : 0;
}

/*
 * Waits until (int32_t)(*w - target) >= 0. Returns 1 when it slept and was
 * woken, 0 when it never had to sleep, -1 on stop. *slept_at receives the
 * time it last went to sleep.
 */
static inline int fb_wait_until_ge(struct fb_shm *sh, _Atomic uint32_t *w,
				   uint32_t target, uint64_t *slept_at)
{
	int slept = 0;

	for (;;) {
		uint32_t v = atomic_load_explicit(w, memory_order_acquire);

		if ((int32_t)(v - target) >= 0)
			return slept;
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return -1;
		*slept_at = gs_now_ns();
		if (fb_futex_wait(w, v, FB_WAIT_SLICE_NS) == 0)
			slept = 1;
	}
}

/* Waits while *w == val; same returns as fb_wait_until_ge. */
static inline int fb_wait_while_eq(struct fb_shm *sh, _Atomic uint32_t *w,
				   uint32_t val, uint64_t *slept_at)
{
	int slept = 0;

	while (atomic_load_explicit(w, memory_order_acquire) == val) {
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return -1;
		*slept_at = gs_now_ns();
		if (fb_futex_wait(w, val, FB_WAIT_SLICE_NS) == 0)
			slept = 1;
	}
	return slept;
}

/* Records a wake-up: the waker stamped `stamp`, the task went to sleep at
 * `slept_at` and runs at `now`; counted only inside the measured window. */
static inline void fb_note_wake(const struct fb_shm *sh, struct fb_tstat *ts,
				uint64_t stamp, uint64_t slept_at, uint64_t now)
{
	uint64_t from = stamp > slept_at ? stamp : slept_at;

	if (fb_in_window(sh, now))
		gs_hist_add(&ts->wake, now > from ? now - from : 0);
}

/* Chain links of a frame. The waker counts the operation before it
 * releases the waiter (so the count is complete when the frame is
 * presented); the woken task counts that it had been asleep. */
static inline void fb_chain_op(struct fb_frame_slot *slot)
{
	atomic_fetch_add_explicit(&slot->chain_ops, 1, memory_order_relaxed);
}

static inline void fb_chain_woke(struct fb_frame_slot *slot, int slept)
{
	if (slept > 0)
		atomic_fetch_add_explicit(&slot->chain_woken, 1,
					  memory_order_relaxed);
}

/*
 * The Wine-style mutex: 0 free, 1 locked, 2 locked with waiters. Lock wait
 * time (contended acquisitions only) goes to ts. Returns 0, or -1 when the
 * run stops while waiting (the lock is then not held).
 */
static inline int fb_mutex_lock(struct fb_shm *sh, unsigned m,
				struct fb_tstat *ts)
{
	_Atomic uint32_t *w = &sh->lock[m].word;
	uint32_t c = 0;
	uint64_t t0, now, waited;

	if (atomic_compare_exchange_strong(w, &c, 1)) {
		if (fb_in_window(sh, gs_now_ns()))
			ts->lock_acq[m]++;
		return 0;
	}
	t0 = gs_now_ns();
	if (c != 2)
		c = atomic_exchange(w, 2);
	while (c != 0) {
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return -1;
		fb_futex_wait(w, 2, FB_WAIT_SLICE_NS);
		c = atomic_exchange(w, 2);
	}
	now = gs_now_ns();
	if (fb_in_window(sh, now)) {
		waited = now - t0;
		ts->lock_acq[m]++;
		ts->lock_cont[m]++;
		ts->lock_wait_ns[m] += waited;
		if (waited > ts->lock_wait_max[m])
			ts->lock_wait_max[m] = waited;
		gs_hist_add(&ts->lockwait, waited);
	}
	return 0;
}

static inline void fb_mutex_unlock(struct fb_shm *sh, unsigned m)
{
	_Atomic uint32_t *w = &sh->lock[m].word;

	if (atomic_fetch_sub(w, 1) != 1) {
		atomic_store(w, 0);
		fb_futex_wake(w, 1);
	}
}

/* Appends a frame record for the collector; never blocks the pipeline (a
 * full ring counts the record as dropped). One writer: the presenter. */
static inline void fb_record_push(struct fb_shm *sh, const struct fb_record *r)
{
	uint64_t head = atomic_load_explicit(&sh->rec_head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&sh->rec_tail, memory_order_acquire);

	if (head - tail >= FB_REC_CAP) {
		atomic_fetch_add_explicit(&sh->rec_dropped, 1,
					  memory_order_relaxed);
		return;
	}
	sh->rec[head % FB_REC_CAP] = *r;
	atomic_store_explicit(&sh->rec_head, head + 1, memory_order_release);
}

/* Sleeps until the absolute CLOCK_MONOTONIC time `when`, in slices of at
 * most 100 ms so a stop request is seen. 1 if it slept, 0 if `when` had
 * passed, -1 on stop. */
static inline int fb_sleep_until(struct fb_shm *sh, uint64_t when)
{
	int slept = 0;

	for (;;) {
		uint64_t now = gs_now_ns(), until;
		struct timespec ts;

		if (now >= when)
			return slept;
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			return -1;
		until = when - now > FB_WAIT_SLICE_NS ? now + FB_WAIT_SLICE_NS
						       : when;
		ts.tv_sec = (time_t)(until / NSEC_PER_SEC);
		ts.tv_nsec = (long)(until % NSEC_PER_SEC);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		slept = 1;
	}
}

#endif
