/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_getattr/sched_setattr for one thread (glibc 2.36 has neither the
 * wrappers nor struct sched_attr). The levers a player has on a stock
 * kernel all live here: policy (SCHED_OTHER/BATCH/IDLE/FIFO/RR), nice,
 * EEVDF's custom slice (sched_runtime of a fair task, Linux 6.12+) and
 * uclamp. framebench applies them to its game threads, lavd --eevdf to
 * the tasks its model picks.
 */
#ifndef GS_SCHEDATTR_H
#define GS_SCHEDATTR_H

#include <stdint.h>
#include <sys/types.h>

/* the kernel's layout (SCHED_ATTR_SIZE_VER1, 56 bytes) */
struct gs_sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

/* sched_flags bits (include/uapi/linux/sched.h) */
#define GS_SCHED_FLAG_RESET_ON_FORK	0x01ULL
#define GS_SCHED_FLAG_KEEP_POLICY	0x08ULL
#define GS_SCHED_FLAG_KEEP_PARAMS	0x10ULL
#define GS_SCHED_FLAG_UTIL_CLAMP_MIN	0x20ULL
#define GS_SCHED_FLAG_UTIL_CLAMP_MAX	0x40ULL

/* EEVDF's bounds on a custom slice (kernel/sched/syscalls.c: 0.1-100 ms) */
#define GS_SLICE_MIN_NS	100000ULL
#define GS_SLICE_MAX_NS	100000000ULL

/* tid 0: the calling thread. 0, or -1 with errno. */
int gs_sched_getattr(pid_t tid, struct gs_sched_attr *a);
int gs_sched_setattr(pid_t tid, struct gs_sched_attr *a);

#endif
