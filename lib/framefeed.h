/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame feed: a POSIX shared-memory ring through which framebench
 * publishes every frame as it is presented, so a recorder (frametrace
 * watch/record) can see frame times live and trigger on a spike without
 * any system call on the benchmark's hot path (~20 ns per frame).
 *
 * Object: /dev/shm/framebench.<pid> (shm_open name "/framebench.<pid>"),
 * created by the benchmark, unlinked when it exits. Layout, all fields
 * little-endian native, version 1:
 *
 *   struct gs_feed_header   (64 bytes)
 *   struct gs_feed_frame    [capacity], capacity a power of two
 *
 * Writer protocol (one writer): fill slot (head % capacity) with seq = 0,
 * write the fields, then store seq = frame number + 1 (release), then
 * head = frame number + 1 (release). Readers load head (acquire), read
 * slots from their last position, and accept a slot only if seq is the
 * expected number both before and after copying it (seqlock); a reader
 * that fell more than capacity behind skips ahead and counts the loss.
 * Timestamps are CLOCK_MONOTONIC ns, the clock of BPF and perf -k mono.
 */
#ifndef GS_FRAMEFEED_H
#define GS_FRAMEFEED_H

#include <stdint.h>

#define GS_FEED_MAGIC 0x44454546454d4146ULL /* "FAMEFEED" little-endian */
#define GS_FEED_VERSION 1
#define GS_FEED_PREFIX "/framebench."

struct gs_feed_header {
	uint64_t magic;
	uint32_t version;
	uint32_t capacity;	/* slots, power of two */
	uint32_t frame_size;	/* sizeof(struct gs_feed_frame) */
	int32_t pid;		/* the benchmark's pid */
	uint64_t start_ns;	/* run start, CLOCK_MONOTONIC */
	uint64_t target_ns;	/* target frame interval, 0 if uncapped */
	uint64_t head;		/* frames published so far (atomic) */
	uint32_t state;		/* 0 warm-up, 1 measuring, 2 finished */
	uint32_t pad;
	uint64_t reserved[1];
};

struct gs_feed_frame {
	uint64_t seq;		/* frame number + 1 when valid */
	uint64_t start_ns;	/* frame start (game logic begins) */
	uint64_t present_ns;	/* present time */
	uint64_t frametime_ns;	/* present-to-present interval */
	uint64_t input_latency_ns; /* input sample to present */
	uint32_t flags;		/* GS_FEED_F_* */
	uint32_t disturbance;	/* nonzero while an injected disturbance runs */
};

#define GS_FEED_F_MISSED_VSYNC (1u << 0)
#define GS_FEED_F_WARMUP (1u << 1)

_Static_assert(sizeof(struct gs_feed_header) == 64, "feed header ABI");
_Static_assert(sizeof(struct gs_feed_frame) == 48, "feed frame ABI");

#endif
