/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reader side of framebench's frame feed (lib/framefeed.h): attaches to
 * /dev/shm/framebench.<pid>, follows the seqlock protocol, counts frames it
 * could not read in time, and finds new feeds as benchmarks start.
 */
#ifndef FT_FEED_H
#define FT_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "framefeed.h"
#include "trace/trace.h"

struct ft_feed {
	int pid;
	void *map;
	size_t len;
	volatile struct gs_feed_header *h;
	volatile struct gs_feed_frame *fr;
	uint32_t cap;
	uint64_t next;		/* next frame number to read */
	uint64_t lost;		/* overwritten before we read them */
	uint64_t read;
	bool done;		/* the benchmark finished or exited */
};

typedef int (*ft_feed_cb)(void *ctx, int pid, const struct gs_feed_frame *f);

/* Opens the feed of pid from the directory dir (normally /dev/shm).
 * Returns 0, or -1 with a message. */
int ft_feed_open(struct ft_feed *f, const char *dir, int pid, char *err,
		 size_t errlen);
/* Delivers the frames published since the last call. Returns the number
 * delivered, or -1 when cb failed. Sets f->done when the writer finished
 * or its process is gone. */
long ft_feed_poll(struct ft_feed *f, ft_feed_cb cb, void *ctx);
void ft_feed_close(struct ft_feed *f);
/* A feed frame as a trace frame of process pid. */
struct ft_frame ft_frame_from_feed(int pid, const struct gs_feed_frame *f);

/* All feeds in a directory, found by name; `only_pid` > 0 limits it to one
 * benchmark. */
struct ft_feedset {
	char dir[256];
	int only_pid;
	int root;		/* > 0: only benchmarks under this process */
	struct ft_feed *feeds;
	size_t n, cap;
	int *gone;		/* pids whose feed was closed (not reopened) */
	size_t ngone, gonecap;
};

void ft_feedset_init(struct ft_feedset *s, const char *dir, int only_pid);
/* Only feeds of root and the processes under it (the recorder's command:
 * a benchmark someone else runs beside it is not its frames). */
void ft_feedset_root(struct ft_feedset *s, int root);
/* Looks for new feeds; returns how many were opened. */
int ft_feedset_scan(struct ft_feedset *s);
/* Polls every feed, closes finished ones; returns frames delivered or -1. */
long ft_feedset_poll(struct ft_feedset *s, ft_feed_cb cb, void *ctx);
uint64_t ft_feedset_lost(const struct ft_feedset *s);
void ft_feedset_free(struct ft_feedset *s);

#endif
