/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Game profiles in the running loader (docs/lavd.md, "Game profiles"):
 * the BPF side's settings before load, the matcher (procscan.c) over the
 * exec/rename ring buffer or /proc scans, the map of which process
 * follows which profile, SIGHUP reloads, warnings about profile files
 * that changed on disk, and the statistics part - for this instance and,
 * from the maps, for `lavd --monitor`.
 */
#ifndef LAVD_GAMECTL_H
#define LAVD_GAMECTL_H

#include <signal.h>
#include <stdbool.h>

#include <bpf/libbpf.h>

#include "gameprof.h"
#include "options.h"
#include "procscan.h"

struct lavd;

struct lavd_game {
	const struct lavd_opts *opts;
	struct lavd_gp_set *set;	/* in use (checked before load) */
	struct lavd_gp_set *spare;	/* a reload reads into this one */
	const volatile sig_atomic_t *hup;	/* SIGHUP: reload */
	/* this cycle's */
	struct lavd *skel;
	struct lavd_ps ps;
	struct ring_buffer *rb;
	struct bpf_link *link[2];	/* exec, task_rename */
	bool on;			/* profiles given */
	bool events;			/* the tracepoints deliver processes */
	bool dirty;			/* the map changed: publish a generation */
	bool full_warned;
	double next_period, next_files;
	__u64 lost_seen;
};

/* Before the first cycle. set/spare outlive the loader; set->n may be 0. */
void lavd_game_init(struct lavd_game *g, const struct lavd_opts *o,
		    struct lavd_gp_set *set, struct lavd_gp_set *spare,
		    const volatile sig_atomic_t *hup);

/* After open, before load: the rodata switch and which programs load. */
void lavd_game_configure(struct lavd_game *g, struct lavd *skel);

/* After attach: names into the map, the first scan, the tracepoints.
 * Prints what it does. 0, or -1 (a warning; lavd runs without them). */
int lavd_game_start(struct lavd_game *g);

/* From the run loop (every 50 ms): events, scans, sweeps, SIGHUP, files
 * that changed. */
void lavd_game_poll(struct lavd_game *g, double now);

/* The statistics line's part (this instance); "" without profiles. */
void lavd_game_stats(const struct lavd_game *g, const struct lavd_stats *prev,
		     const struct lavd_stats *cur, double secs, char *buf, size_t len);

/* The same from a running instance's maps (--monitor); "" without them. */
void lavd_game_monitor_stats(int tgid_fd, int knob_fd, const struct lavd_stats *prev,
			     const struct lavd_stats *cur, double secs,
			     char *buf, size_t len);

/* Detaches and frees this cycle's parts. */
void lavd_game_stop(struct lavd_game *g);

#endif
