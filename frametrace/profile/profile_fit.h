/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of `frametrace profile` (docs/frametrace.md, "Replaying a
 * recorded game"), kept free of traces so the unit tests can feed it
 * hand-made numbers: summaries and distribution fits of per-frame samples,
 * the period of a periodic task, the refresh period frame intervals cluster
 * at, and the names a profile may use.
 */
#ifndef FT_PROFILE_FIT_H
#define FT_PROFILE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the workload profile's work distributions (lib/fbprofile.h), in ns */
enum ft_pf_kind { PF_FIXED, PF_UNIFORM, PF_NORMAL, PF_TWOPIECE };

struct ft_pf_dist {
	enum ft_pf_kind kind;
	double a, b;		/* fixed: a; uniform: [a, b]; normal: mean a, sd b;
				 * two-piece: median a, sd b below it */
	double c;		/* two-piece: sd above the median */
};

/* A sample summarised; percentiles by nearest rank. */
struct ft_pf_sum {
	size_t n;
	double mean, sd, min, max, p10, p50, p90, p99;
	/* spread and shape without the lowest and highest 1 % (from 100
	 * samples on), so a few outliers do not decide the fit: standard
	 * deviation, skewness, excess kurtosis (0 below 4 samples) */
	double tsd, skew, kurt;
};

/* Fills s from x[0..n) (x is not changed). 0, or -1 when out of memory. */
int ft_pf_summarize(const double *x, size_t n, struct ft_pf_sum *s);

/*
 * framebench's distribution for a summarised sample:
 *  - fixed when it hardly varies (tsd under 5 % of the mean or under 1 us);
 *  - two-piece p50~sd_below/sd_above when it leans (its median off the
 *    middle of p10..p90 by a tenth of that range, or |skewness| over 0.5):
 *    half a normal on each side of the median, each scaled so that p10 and
 *    p90 come out as the sample's (a normal or uniform draw's median is
 *    its mean, and a leaning sample's median is not);
 *  - uniform a..b when it is flat (excess kurtosis under -0.6, as a uniform
 *    sample's -1.2 is, and skewness within +-0.5), with the sample's mean
 *    and tsd (a = mean - sqrt(3) tsd, b = mean + sqrt(3) tsd; a below 0 is
 *    moved to 0 and b to twice the mean, keeping the mean);
 *  - else normal mean~tsd.
 */
void ft_pf_fit(const struct ft_pf_sum *s, struct ft_pf_dist *d);
double ft_pf_dist_mean(const struct ft_pf_dist *d);
/* Multiplies the distribution (its mean and spread) by k >= 0. */
void ft_pf_dist_scale(struct ft_pf_dist *d, double k);
/* Profile text: "250.0us", "100.0us..400.0us", "1200.0us~80.0us"; bounds
 * kept within framebench's [0, 1 s]. */
void ft_pf_dist_text(const struct ft_pf_dist *d, char *buf, size_t len);

/*
 * The period of a task from the times it was woken by its timer (sorted,
 * ns). Intervals are compared with their median m: one within 20 % of a
 * whole multiple k*m (k = 1..4; a late or skipped tick) counts as regular.
 * Returns the period, (last - first) / (sum of the k's), when at least 80 %
 * of at least 9 intervals are regular, else 0. *share (may be NULL) gets the
 * regular share.
 */
uint64_t ft_pf_period(const uint64_t *ts, size_t n, double *share);

/*
 * The refresh period presents (ns, ascending) are paced at, or 0 when they
 * are not (uncapped). The period is the mean of the intervals within 2 %
 * of the median interval; then, for each block of 50 presents, their
 * phases on that grid are taken and the fifth of the cycle holding most of
 * them is found. A paced frame is presented at its tick plus a wake-up's
 * lateness, so the phases crowd (a missed tick moves none), where an
 * uncapped game's spread over the cycle (a fifth of them in any fifth, a
 * little more in the fullest). Paced when at least 60 % are in their
 * block's fifth; *share (may be NULL) gets that share. An uncapped game
 * whose frames vary by less than a few percent looks paced, and is.
 */
uint64_t ft_pf_vsync_period(const uint64_t *present, size_t n, double *share);

/* A thread name without its trailing number: "llvmpipe-3" -> "llvmpipe",
 * "fb-worker12" -> "fb-worker"; the name itself when nothing is left. */
void ft_pf_stem(const char *comm, char *out, size_t len);

/*
 * A framebench name (1-31 of letters, digits, '_', '-', '.') for a thread
 * or process: framebench's own "fb-" prefix dropped (a replay of a replay
 * keeps its names), other characters replaced by '_'; "t" when empty.
 */
void ft_pf_name(const char *comm, char *out, size_t len);

#endif
