/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a lavd instance while it runs: its statistics record and its
 * sampled scheduling decisions, for the loader's own instance (--stats,
 * --monitor-sched-samples) and for --monitor, which watches a running
 * instance without loading a second one.
 */
#ifndef LAVD_MONITOR_H
#define LAVD_MONITOR_H

#include <signal.h>
#include <stdint.h>

#include <bpf/libbpf.h>

#include "intf.h"
#include "options.h"

/*
 * A copy of the statistics record (map fd) that no refill tore (intf.h,
 * seq_end). Returns 0, or -1 when the map has no valid record.
 */
int lavd_read_stats(int fd, struct lavd_stats *st);

/* The --stats line for prev -> cur (secs apart), since seconds into the
 * run; extra (the game profiles part) follows when not empty. */
void lavd_print_stats(const struct lavd_stats *prev, const struct lavd_stats *cur,
		      double secs, double since, const char *extra);

/*
 * A reader of the samples ring buffer rb_fd that prints each sample, its
 * time counted from *t0 (lavd_now_s()); *t0 must outlive the reader.
 */
struct ring_buffer *lavd_samples_reader(int rb_fd, const double *t0);

/* Asks the instance whose control map is ctl_fd for n samples a second. */
int lavd_samples_request(int ctl_fd, uint64_t n);

/*
 * --monitor: prints the running instance's statistics every
 * opts->monitor_s seconds (and its samples with
 * --monitor-sched-samples) until *stop or the instance ends. Exits 1
 * when there is nothing to watch; returns EXIT_OK.
 */
int lavd_monitor(const struct lavd_opts *opts, const volatile sig_atomic_t *stop);

#endif
