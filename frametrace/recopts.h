/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options record and watch share, declared once: the same names,
 * getopt codes and meaning in both (cmd_record.c, cmd_watch.c). Each puts
 * FT_RECORDING_LONGOPTS in its table and hands the codes its own switch
 * does not know to ft_rec_option.
 */
#ifndef FT_RECOPTS_H
#define FT_RECOPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "present_attach.h"

enum {
	FT_RO_FEED_PID = 256,
	FT_RO_PRESENT,
	FT_RO_FUTEX_CALLS,
	FT_RO_NO_FUTEX,
	FT_RO_NO_MARKERS,
	FT_RO_MARKERS,
	FT_RO_FEED_DIR,
};

/* With the short options "d:p:qv" (and h) in each command's string. */
#define FT_RECORDING_LONGOPTS \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "no-futex", no_argument, NULL, FT_RO_NO_FUTEX }, \
	{ "no-markers", no_argument, NULL, FT_RO_NO_MARKERS }, \
	{ "futex-calls", no_argument, NULL, FT_RO_FUTEX_CALLS }, \
	{ "markers", no_argument, NULL, FT_RO_MARKERS }, \
	{ "feed-pid", required_argument, NULL, FT_RO_FEED_PID }, \
	{ "present", required_argument, NULL, FT_RO_PRESENT }, \
	{ "pid", required_argument, NULL, 'p' }, \
	{ "feed-dir", required_argument, NULL, FT_RO_FEED_DIR }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "verbose", no_argument, NULL, 'v' }

/* Where each shared option lands in the command's own options. */
struct ft_rec_common {
	uint64_t *duration, *feed_pid;
	const char **feed_dir;
	bool *no_futex, *no_markers, *futex_calls, *markers_now, *quiet;
	int *verbose;
	struct ft_present_cli *present;
};

/* The shared fields of a command's options o (the same names in both). */
#define FT_REC_COMMON(o) { \
	&(o)->duration, &(o)->feed_pid, &(o)->feed_dir, &(o)->no_futex, \
	&(o)->no_markers, &(o)->futex_calls, &(o)->markers_now, &(o)->quiet, \
	&(o)->verbose, &(o)->present, \
}

/* Applies getopt's code c with optarg if it is a shared option: true;
 * false for any other code. Bad values exit with a message. */
bool ft_rec_option(int c, const char *arg, const struct ft_rec_common *rc);

#endif
