/* SPDX-License-Identifier: GPL-2.0-only */
/* Formatting shared by the three outputs. */
#ifndef GSU_OUTFMT_H
#define GSU_OUTFMT_H

#include <stddef.h>

#include "gamesuite.h"

/* 4 significant-ish digits without exponents; "-" for NaN. */
void gsu_fmt_num(char *buf, size_t len, double v);
/* "framebench, profile proton, bg hogs:2, 10 s" */
void gsu_describe_workload(const struct gsu_suite *s,
			   const struct gsu_workload *w, char *buf,
			   size_t len);

/* "runs: 30 for 24 planned slots (6 repeats): ... Discarded: ..." */
void gsu_summary_sentence(const struct gsu_results *r,
			  const struct gsu_counts *c, char *buf, size_t len);

/* What the --json and --html writers get (lib/outfile.h's ctx). */
struct gsu_out {
	const struct gsu_results *r;
	const struct gsu_table *t;
};

#endif
