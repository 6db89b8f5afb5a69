/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options record and watch share, declared once: the same names,
 * values, help and meaning in both (cmd_record.c, cmd_watch.c). Each puts
 * FT_RECORDING_OPTS in its option table and hands the shared special
 * options to ft_rec_special.
 */
#ifndef FT_RECOPTS_H
#define FT_RECOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opttab.h"

#include "present_attach.h"

/* The shared options' GS_OPT_SPECIAL ids (a command's own start at
 * FT_RO_OWN). */
enum {
	FT_RO_DURATION = 1,
	FT_RO_PRESENT,
	FT_RO_PID,
	FT_RO_OWN,
};

/* The shared entries of a command's option table (lib/opttab.h); T is the
 * command's options struct, whose fields have the same names in both. */
#define FT_RECORDING_OPTS(T) \
	{ "duration", 'd', "D", GS_OPT_SPECIAL, .id = FT_RO_DURATION, \
	  .section = "recording", \
	  .help = "stop after D (e.g. 10s; else when CMD exits\n" \
		  "or on SIGINT/SIGTERM)" }, \
	{ "present", 0, "auto|FUNC[@LIB]", GS_OPT_SPECIAL, .id = FT_RO_PRESENT, \
	  .help = "frames from present calls (uprobes):\n" \
		  "auto: glXSwapBuffers, eglSwapBuffers,\n" \
		  "vkQueuePresentKHR in the libraries the target\n" \
		  "maps; FUNC[@LIB] another function (repeatable)" }, \
	{ "pid", 'p', "PID", GS_OPT_SPECIAL, .id = FT_RO_PID, \
	  .help = "the target of --present (else the command)" }, \
	{ "no-futex", 0, NULL, GS_OPT_SET, offsetof(T, no_futex), \
	  .help = "do not record futex calls" }, \
	{ "no-markers", 0, NULL, GS_OPT_SET, offsetof(T, no_markers), \
	  .help = "do not record trace_marker writes" }, \
	{ "markers", 0, NULL, GS_OPT_SET, offsetof(T, markers_now), \
	  .help = "record them from the start; by default, with\n" \
		  "a command or -p, once the target opens\n" \
		  "trace_marker (a program on every system call\n" \
		  "costs even processes that write none)" }, \
	{ "futex-calls", 0, NULL, GS_OPT_SET, offsetof(T, futex_calls), \
	  .help = "every futex call (fexit, else a program on\n" \
		  "every system call), not only the waits that\n" \
		  "sleep and the wake-ups they get (default)" }, \
	{ "feed-pid", 0, "PID", GS_OPT_U64, offsetof(T, feed_pid), 1, INT32_MAX, \
	  .help = "read only this framebench's feed" }, \
	{ "feed-dir", 0, "DIR", GS_OPT_STRING, offsetof(T, feed_dir), \
	  .help = "where feeds live (default /dev/shm)" }, \
	{ "quiet", 'q', NULL, GS_OPT_SET, offsetof(T, quiet), \
	  .help = "less on stderr (record: no summary; watch:\n" \
		  "notes only in captures.log)" }, \
	{ "verbose", 'v', NULL, GS_OPT_COUNT, offsetof(T, verbose), \
	  .help = "libbpf messages" }

/* Applies a shared GS_OPT_SPECIAL option (id, its value arg) to the
 * command's duration and present fields: true; false for any other id.
 * Bad values exit with a message. */
bool ft_rec_special(int id, const char *arg, uint64_t *duration,
		    struct ft_present_cli *present);

#endif
