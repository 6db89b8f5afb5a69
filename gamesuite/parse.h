/* SPDX-License-Identifier: GPL-2.0-only */
/* The workloads' outputs read back (parse.c): pure, unit-tested. */
#ifndef GSU_PARSE_H
#define GSU_PARSE_H

#include "gamesuite.h"
#include "json.h"

/* schbench's text report: out[0] wakeup p99 (us), out[1] request p99 (us),
 * out[2] requests per second ("average rps", else the RPS p50). Missing
 * figures are NaN. Returns 0 when the wake-up p99 was found. */
int gsu_parse_schbench(const char *text, double out[3]);
/* "Total time: 0.206 [sec]" or perf's --format=simple number. */
int gsu_parse_perf_messaging(const char *text, double *secs);
/* Sum of bogo-ops-per-second-real-time over stress-ng --yaml metrics. */
int gsu_parse_stressng_yaml(const char *text, double *ops_per_s);
/* framebench --json: the sum of background[].work_per_s; NaN without
 * background load or when a pattern was not measured. */
double gsu_framebench_bg_work(const struct gs_jv *doc);
/* framebench --json: its headline keys (docs/framebench.md). */
int gsu_parse_framebench_json(const struct gs_jv *doc, double *metrics,
			      char *why, size_t whylen);
/* Per-frame metrics and the quantile curve from raw frame times (ms);
 * keeps values already in metrics unless they are NaN. */
int gsu_frames_metrics(const double *ft_ms, size_t n, struct gsu_run *run);

#endif
