/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Suite files: a small line-based format (documented in docs/gamesuite.md
 * and in gamesuite/suites/NAME.suite). Errors name the file and line.
 */
#ifndef GSU_SUITE_H
#define GSU_SUITE_H

#include <stdio.h>

#include "gamesuite.h"

/*
 * Parses a suite from f (path is used in messages and to resolve relative
 * paths). Returns 0, or -1 with "path:line: what is wrong" in err.
 */
int gsu_suite_parse(FILE *f, const char *path, struct gsu_suite *s,
		    char *err, size_t errlen);
int gsu_suite_load(const char *path, struct gsu_suite *s, char *err,
		   size_t errlen);
void gsu_suite_free(struct gsu_suite *s);

/*
 * Keeps only the workloads named in names[0..n) (--only), in suite order;
 * n == 0 keeps all. Returns 0, or -1 with "no workload 'X' in PATH" in err
 * when a name is not in the suite (nothing dropped then).
 */
int gsu_suite_keep(struct gsu_suite *s, const char *const names[], int n,
		   char *err, size_t errlen);

#endif
