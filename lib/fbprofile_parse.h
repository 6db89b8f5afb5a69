// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload profile parser's context and the token helpers its two
 * parts share: fbprofile.c (the lines, the names, the file) and
 * fbprofile_step.c (a stage's steps). Private to lib/; fbprofile.h is the
 * interface.
 */
#ifndef GS_FBPROFILE_PARSE_H
#define GS_FBPROFILE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "fbprofile.h"

struct pctx {
	struct fb_profile *p;
	const char *source;
	int line;
	char *err;
	size_t errlen;
	int stage;		/* current stage, -1 before the first */
	bool have_name;
	int once[6];		/* the line of each of once_kw, 0: not yet */
};

/* The message "FILE:LINE: expected WHAT, got 'GOT'" (GOT NULL: end of
 * line) into c->err; returns -1. */
int fbp_fail(struct pctx *c, const char *what, const char *got);
/* "300", "300us", "1.5ms", "200..800", "1ms..3ms", "1ms~200us"; -1: not one. */
int fbp_parse_dist(const char *s, struct fb_dist *d);
/* what fbp_fail names when a work distribution is wrong */
extern const char fbp_dist_what[];
/* A declared name's index into *out; -1 after the message. */
int fbp_lookup_lock(struct pctx *c, const char *s, int *out);
int fbp_lookup_service(struct pctx *c, const char *s, int *out);
/* Splits "key=value"; returns the value or NULL when tok has no '='. */
char *fbp_opt_value(char *tok);
int fbp_parse_prob(struct pctx *c, const char *v, double *out);
int fbp_parse_uint(struct pctx *c, const char *s, unsigned min,
		   unsigned max, const char *what, unsigned *out);

/* A step line of the current stage (work, call, fanout, join, lock). */
int fbp_parse_step(struct pctx *c, char **tok, int ntok);

#endif
