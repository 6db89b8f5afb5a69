/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers shared by every program: clocks, exit statuses, strict
 * option parsing that names the offending option, and error printing.
 */
#ifndef GS_UTIL_H
#define GS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses used by every program of the project (documented in README). */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1, /* the run itself failed (I/O, kernel refused, ...) */
	EXIT_USAGE = 2,   /* bad option, bad input file */
};

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Name used as the prefix of every message; set from argv[0] by main(). */
extern const char *gs_prog;

/* CLOCK_MONOTONIC in ns: the clock perf -k mono, ftrace and frames share. */
uint64_t gs_now_ns(void);

void gs_set_prog(const char *argv0);

/* s to f with the bytes a terminal would act on or hide written as
 * text: control characters (ESC: \x1b, a tab: \t; newlines kept) and a
 * BOM (\ufeff). Every message goes through it: they quote input. */
void gs_fput_escaped(const char *s, FILE *f);
/* "prog: message" on stderr (escaped: gs_fput_escaped). */
void gs_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message" on stderr, then exit(status). */
_Noreturn void gs_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Strict parsers: the whole string must be a number in [min, max].
 * They return 0 on success and -1 otherwise without printing.
 */
int gs_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int gs_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
int gs_parse_double(const char *s, double min, double max, double *out);
/* Durations: "250ms", "10s", "2m", "500us", "1h"; a bare number is in
 * default_unit_ns. */
int gs_parse_duration_ns(const char *s, uint64_t default_unit_ns,
			 uint64_t *out);

/*
 * Option variants: on a bad value they print
 *   "prog: option --name: expected <what> in [min, max], got 'arg'"
 * and exit with EXIT_USAGE.
 */
uint64_t gs_opt_u64(const char *opt, const char *arg, uint64_t min,
		    uint64_t max);
int64_t gs_opt_i64(const char *opt, const char *arg, int64_t min, int64_t max);
double gs_opt_double(const char *opt, const char *arg, double min, double max);
uint64_t gs_opt_duration_ns(const char *opt, const char *arg,
			    uint64_t default_unit_ns, uint64_t min_ns,
			    uint64_t max_ns);

/*
 * getopt_long's complaints, worded alike in every program. Call with
 * opterr = 0 and an optstring that starts with ':', passing what it
 * returned for the option it rejected ('?' or ':'). Prints one of
 *   "prog: unknown option '--x' (see --help)"
 *   "prog: option '--x' needs a value (see --help)"
 *   "prog: option '--x' takes no value (see --help)"
 * and exits with EXIT_USAGE.
 */
_Noreturn void gs_die_bad_option(int c, char *const argv[]);
/* "prog: unexpected argument 'arg' (see --help)", exit EXIT_USAGE */
_Noreturn void gs_die_extra_argument(const char *arg);
/* After getopt: exits (bad usage) naming the first argument past the n
 * operands a command takes; returns whether there are exactly n. */
bool gs_operands(int argc, char **argv, int n);

/* Reads a small text file (sysfs/procfs) into buf, trailing newline
 * stripped. Returns the length or -1 with errno set. */
int gs_read_text(const char *path, char *buf, size_t len);
/* Removes dir and everything below it (links not followed); best effort. */
void gs_remove_tree(const char *dir);

/*
 * Opens an input file for reading, refusing anything but a regular file:
 * a FIFO would block open() until a writer came, a device reads forever.
 * Returns the fd (blocking reads), or -1 with errno set and the reason in
 * why ("not a regular file (a FIFO)", or strerror's). why may be NULL.
 */
int gs_open_regular(const char *path, char *why, size_t whylen);
/* The same as a stdio stream ("r"). */
FILE *gs_fopen_regular(const char *path, char *why, size_t whylen);

/*
 * Reads a whole regular file (procfs and sysfs files are regular too; see
 * gs_open_regular) into *buf, malloc'ed and
 * NUL-terminated, *len bytes without the NUL. With max > 0 at most max
 * bytes are read: *len == max means the file may go on. Returns 0, or -1
 * with errno set and "path: why" in err (err may be NULL).
 */
int gs_read_file(const char *path, size_t max, char **buf, size_t *len,
		 char *err, size_t errlen);

/*
 * Whether path can be written (an existing file: writable, no directory;
 * a new one: its directory exists and is writable), checked before work
 * that would be lost if the output could not be written at the end.
 * Returns 0, or -1 with "path: why" in why.
 */
int gs_check_output(const char *path, char *why, size_t whylen);
/* Whether output b is input a: the same device and inode when b exists,
 * else the same name. Writing b would overwrite a. */
bool gs_same_file(const char *a, const char *b);

/* The 1-based line of the first NUL byte in buf[0..n), 0 when none: text
 * files with one are refused there (a NUL would end the line unseen). */
int gs_nul_line(const char *buf, size_t n);

/* Cuts suffix off the end of s ("game.config.conf" -> "game.config");
 * returns whether s ended with it. */
bool gs_strip_suffix(char *s, const char *suffix);

/* Copies at most dstlen-1 bytes and always terminates. */
void gs_strlcpy(char *dst, const char *src, size_t dstlen);

/* Trims spaces/tabs/CR/LF at both ends in place; returns s. */
char *gs_trim(char *s);

/*
 * path for a message, at most GS_SHORT_PATH_MAX bytes: a longer one keeps
 * its start and its end around "...", so that a path of 4 000 bytes does
 * not push the reason out of a message's buffer. Returns path itself when
 * short enough, else buf (len bytes). GS_SHORT_PATH(p) uses a buffer of
 * the statement's own (a compound literal).
 */
#define GS_SHORT_PATH_MAX 160
const char *gs_short_path(const char *path, char *buf, size_t len);
#define GS_SHORT_PATH(p) \
	gs_short_path((p), (char[GS_SHORT_PATH_MAX + 1]){ 0 }, GS_SHORT_PATH_MAX + 1)

/*
 * The error of a line-oriented file parser: "FILE:LINE: message" into
 * err (errlen bytes). Returns -1, so parsers can `return gs_err_at(...)`.
 */
int gs_err_at(char *err, size_t errlen, const char *file, int line,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
