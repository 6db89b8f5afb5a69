/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Outputs that must not cost work: an output that is an input is refused
 * before anything runs, and the results of a long run whose output cannot
 * be written at the end are kept in another file instead of lost.
 */
#ifndef GS_OUTFILE_H
#define GS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Exits 2 when output out (option out_opt) is input in (given with option
 * in_opt, or an operand when in_opt is NULL): writing it would overwrite
 * what it was made from. out NULL or "-" (stdout) passes.
 */
void gs_refuse_same_file(const char *in_opt, const char *in,
			 const char *out_opt, const char *out);

/* Writes the output into f; returns 0, or -1 on an error of its own. */
typedef int (*gs_out_writer)(FILE *f, const void *ctx);

/*
 * Writes path (option opt names it in messages) with write. When that
 * fails (a full disk, a directory gone), the same output goes into a new
 * file beside path (path.kept-XXXXXX), else, where that directory cannot
 * take it or path is no regular file (/dev/full), into $TMPDIR (or /tmp),
 * and a warning names it. Returns 0 written, 1 kept elsewhere, -1 lost
 * (warned); the caller exits 1 on anything but 0.
 */
int gs_write_output(const char *opt, const char *path, gs_out_writer write,
		    const void *ctx);

#endif
