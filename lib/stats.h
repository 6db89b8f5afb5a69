/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistics shared by framebench, frametrace and gamesuite: sample arrays,
 * percentiles, the FPS "lows" under each named definition (docs/formats.md),
 * bounded-memory log-linear histograms for latencies, and the tests the
 * suite runner uses to compare schedulers (bootstrap interval, Mann-Whitney).
 */
#ifndef GS_STATS_H
#define GS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The shortest frame time taken as a frame, in ms: 100 000 FPS, beyond
 * any display. A shorter one (0, 1e-300) is no frame, wherever frame
 * times are read (MangoHud rows, trace_marker frame-time counters). */
#define GS_MIN_FRAME_MS 0.01

/* ---- growable sample arrays ---------------------------------------- */

struct gs_samples {
	double *v;
	size_t n, cap;
};

void gs_samples_init(struct gs_samples *s);
/* Returns 0, or -1 when memory runs out (the sample is then dropped). */
int gs_samples_push(struct gs_samples *s, double x);
/* Reserves room for at least cap values; 0 or -1. */
int gs_samples_reserve(struct gs_samples *s, size_t cap);
void gs_samples_free(struct gs_samples *s);

/* ---- order statistics on sorted arrays ----------------------------- */

void gs_sort_doubles(double *v, size_t n);

/* Nearest-rank percentile: the value at rank ceil(p/100 * n), 1-based;
 * p in [0, 100]; p == 0 gives the minimum. NaN when n == 0. */
double gs_pct_nearest(const double *sorted, size_t n, double p);
/* Linearly interpolated percentile between closest ranks (numpy default,
 * PresentMon): position p/100 * (n - 1). NaN when n == 0. */
double gs_pct_linear(const double *sorted, size_t n, double p);

double gs_mean(const double *v, size_t n);
/* Sample standard deviation (n - 1); 0 for n < 2. */
double gs_stddev(const double *v, size_t n);
/* Coefficient of variation stddev / mean; 0 when the mean is 0. */
double gs_cv(const double *v, size_t n);

/* ---- frame-time summary -------------------------------------------- */

/*
 * FPS figures from raw per-frame frame times in ms (docs/formats.md):
 *  - percentile ("P1"): 1000 / nearest-rank P99 of frame times
 *    (P99.9 for the 0.1 % low), MangoHud's current definition;
 *  - low average: 1000 / mean of the slowest ceil(n * p) frame times
 *    (CapFrameX "1% Low Avg");
 *  - integral: sort descending, accumulate frame times until the sum reaches
 *    p of the total time; 1000 / that frame time (RTSS, CapFrameX "Low Int").
 * avg_fps is frames / total time, never the mean of per-frame FPS.
 */
struct gs_fps_summary {
	size_t frames;
	double total_ms;
	double avg_fps;
	double low1_percentile_fps, low1_average_fps, low1_integral_fps;
	double low01_percentile_fps, low01_average_fps, low01_integral_fps;
	double min_fps, max_fps;
	/* frame time percentiles (nearest rank), ms */
	double ft_p50, ft_p90, ft_p99, ft_p999, ft_max, ft_mean, ft_stddev;
	/* frames above 1.5x and 2x the target interval (0 when uncapped) */
	size_t stutter_1_5x, stutter_2x;
	/* fewer than 1000 frames: the 0.1 % figure rests on < 1 frame */
	bool low01_unreliable;
	/* fewer than 100 frames: the 1 % figure rests on < 1 frame */
	bool low1_unreliable;
};

/*
 * Fills *out from n frame times (ms). target_ms > 0 enables the stutter
 * counts. scratch must hold n doubles (it receives the sorted values);
 * pass NULL to let the function allocate. Returns 0, -1 on n == 0 or
 * allocation failure.
 */
int gs_fps_summarize(const double *frametime_ms, size_t n, double target_ms,
		     double *scratch, struct gs_fps_summary *out);

/* The individual low definitions on an ascending-sorted array; p is the
 * fraction of frames (0.01 for the 1 % low). Return FPS, 0 when n == 0. */
double gs_low_percentile_fps(const double *sorted_ms, size_t n, double p);
double gs_low_average_fps(const double *sorted_ms, size_t n, double p);
double gs_low_integral_fps(const double *sorted_ms, size_t n, double p);

/* ---- log-linear histogram (bounded memory, ~3 % relative error) ------ */

#define GS_HIST_SUB_BITS 5
#define GS_HIST_SUB (1u << GS_HIST_SUB_BITS)
#define GS_HIST_BUCKETS ((64 - GS_HIST_SUB_BITS + 1) * GS_HIST_SUB)

struct gs_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min, max;
	uint64_t bucket[GS_HIST_BUCKETS];
};

void gs_hist_init(struct gs_hist *h);
void gs_hist_add(struct gs_hist *h, uint64_t v);
void gs_hist_merge(struct gs_hist *dst, const struct gs_hist *src);
/* Nearest-rank percentile; returns the bucket's upper bound clamped to
 * [min, max], so p100 is the exact maximum. 0 when empty. */
uint64_t gs_hist_pct(const struct gs_hist *h, double p);
double gs_hist_mean(const struct gs_hist *h);
/* Bucket index of v and the inclusive value range of a bucket. */
unsigned gs_hist_index(uint64_t v);
void gs_hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi);

/* ---- comparing two sets of results --------------------------------- */

/*
 * Percentile-bootstrap confidence interval of the median of v (n values),
 * with `iters` resamples drawn from a seeded generator (reproducible).
 * conf is e.g. 0.95. Returns 0, -1 on n == 0 or allocation failure.
 */
int gs_bootstrap_median_ci(const double *v, size_t n, double conf,
			   unsigned iters, uint64_t seed, double *lo,
			   double *hi);

/* Same for the ratio median(b) / median(a), resampling both independently. */
int gs_bootstrap_ratio_ci(const double *a, size_t na, const double *b,
			  size_t nb, double conf, unsigned iters,
			  uint64_t seed, double *lo, double *hi);

/*
 * Two-sided Mann-Whitney U test with tie correction (normal approximation
 * with continuity correction; exact enumeration when both n <= 20 and there
 * are no ties). Returns the p-value, or NaN if either side is empty.
 * *u_out (may be NULL) receives U for sample a.
 */
double gs_mann_whitney_p(const double *a, size_t na, const double *b,
			 size_t nb, double *u_out);

/*
 * The smallest two-sided p-value the exact Mann-Whitney test can reach with
 * sample sizes na and nb (no ties): 2 / C(na + nb, na), at most 1. Below a
 * significance level alpha only when there are enough runs: 3 against 3
 * gives 0.1, 4 against 4 gives 0.029.
 */
double gs_mann_whitney_min_p(size_t na, size_t nb);

/* Welch's t of b against a (NaN when either has fewer than 2 values;
 * +-infinity when both are constant and differ). */
double gs_welch_t(const double *a, size_t na, const double *b, size_t nb);

#endif
