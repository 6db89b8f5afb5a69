/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The writer side of the frame feed (lib/framefeed.h): a POSIX shared
 * memory ring /dev/shm/framebench.<pid> that a recorder watches. It is
 * mapped before the helper processes are forked, so the presenter writes
 * it from whichever process it runs in. The object is unlinked on every
 * exit path of the benchmark.
 */
#ifndef FB_FEED_H
#define FB_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "framefeed.h"

struct fb_feed {
	struct gs_feed_header *hdr;
	struct gs_feed_frame *frames;
	size_t map_len;
	pid_t owner;
	char name[64];		/* shm_open name, "/framebench.<pid>" */
	char path[80];		/* "/dev/shm/framebench.<pid>" */
};

/* Creates the feed with `capacity` slots (a power of two). Returns 0, or
 * -1 after printing a warning (the run continues without a feed). */
int fb_feed_create(struct fb_feed *f, uint32_t capacity, uint64_t target_ns);

/* Publishes frame number `n` (the writer protocol of framefeed.h). */
void fb_feed_publish(struct fb_feed *f, uint64_t n,
		     const struct gs_feed_frame *fr);

void fb_feed_set_state(struct fb_feed *f, uint32_t state, uint64_t start_ns);

/* Unmaps and unlinks (only in the process that created it). */
void fb_feed_destroy(struct fb_feed *f);

/* Async-signal-safe unlink of the current feed, for fatal paths. */
void fb_feed_unlink_now(void);

/* Removes feeds left behind by benchmarks that were killed (their pid no
 * longer exists). Returns how many were removed. */
int fb_feed_remove_stale(void);

#endif
