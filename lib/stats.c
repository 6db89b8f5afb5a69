// SPDX-License-Identifier: GPL-2.0-only
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* Guards ceil() against products like 0.99 * 10000 = 9900.000000000002. */
#define RANK_EPS 1e-9

void gs_samples_init(struct gs_samples *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
}

int gs_samples_reserve(struct gs_samples *s, size_t cap)
{
	double *nv;

	if (cap <= s->cap)
		return 0;
	nv = realloc(s->v, cap * sizeof(*nv));
	if (!nv)
		return -1;
	s->v = nv;
	s->cap = cap;
	return 0;
}

int gs_samples_push(struct gs_samples *s, double x)
{
	if (s->n == s->cap &&
	    gs_samples_reserve(s, s->cap ? s->cap * 2 : 1024))
		return -1;
	s->v[s->n++] = x;
	return 0;
}

void gs_samples_free(struct gs_samples *s)
{
	free(s->v);
	gs_samples_init(s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void gs_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double gs_pct_nearest(const double *sorted, size_t n, double p)
{
	double r;
	size_t rank;

	if (!n)
		return NAN;
	r = ceil(p / 100.0 * (double)n - RANK_EPS);
	rank = r < 1 ? 1 : (size_t)r;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

double gs_pct_linear(const double *sorted, size_t n, double p)
{
	double pos, frac;
	size_t i;

	if (!n)
		return NAN;
	pos = p / 100.0 * (double)(n - 1);
	if (pos <= 0)
		return sorted[0];
	i = (size_t)pos;
	if (i >= n - 1)
		return sorted[n - 1];
	frac = pos - (double)i;
	return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

double gs_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double gs_stddev(const double *v, size_t n)
{
	double m, acc = 0;

	if (n < 2)
		return 0;
	m = gs_mean(v, n);
	for (size_t i = 0; i < n; i++)
		acc += (v[i] - m) * (v[i] - m);
	return sqrt(acc / (double)(n - 1));
}

double gs_cv(const double *v, size_t n)
{
	double m = gs_mean(v, n);

	return (n && m != 0) ? gs_stddev(v, n) / m : 0;
}

/* ---- FPS lows ------------------------------------------------------ */

static double fps_of(double ms)
{
	return ms > 0 ? 1000.0 / ms : 0;
}

double gs_low_percentile_fps(const double *sorted_ms, size_t n, double p)
{
	return n ? fps_of(gs_pct_nearest(sorted_ms, n, 100.0 * (1.0 - p))) : 0;
}

double gs_low_average_fps(const double *sorted_ms, size_t n, double p)
{
	double k_real = ceil((double)n * p - RANK_EPS), sum = 0;
	size_t k = k_real < 1 ? 1 : (size_t)k_real;

	if (!n)
		return 0;
	if (k > n)
		k = n;
	for (size_t i = 0; i < k; i++)
		sum += sorted_ms[n - 1 - i];
	return fps_of(sum / (double)k);
}

double gs_low_integral_fps(const double *sorted_ms, size_t n, double p)
{
	double total = 0, target, acc = 0;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		total += sorted_ms[i];
	target = total * p;
	for (size_t i = n; i-- > 0;) {
		acc += sorted_ms[i];
		if (acc >= target * (1 - RANK_EPS))
			return fps_of(sorted_ms[i]);
	}
	return fps_of(sorted_ms[0]);
}

int gs_fps_summarize(const double *frametime_ms, size_t n, double target_ms,
		     double *scratch, struct gs_fps_summary *out)
{
	double *s = scratch;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -1;
	if (!s) {
		s = malloc(n * sizeof(*s));
		if (!s)
			return -1;
	}
	memcpy(s, frametime_ms, n * sizeof(*s));
	gs_sort_doubles(s, n);

	out->frames = n;
	for (size_t i = 0; i < n; i++) {
		out->total_ms += s[i];
		if (target_ms > 0 && s[i] > 1.5 * target_ms)
			out->stutter_1_5x++;
		if (target_ms > 0 && s[i] > 2.0 * target_ms)
			out->stutter_2x++;
	}
	out->avg_fps = out->total_ms > 0 ? 1000.0 * (double)n / out->total_ms
					 : 0;
	out->low1_percentile_fps = gs_low_percentile_fps(s, n, 0.01);
	out->low1_average_fps = gs_low_average_fps(s, n, 0.01);
	out->low1_integral_fps = gs_low_integral_fps(s, n, 0.01);
	out->low01_percentile_fps = gs_low_percentile_fps(s, n, 0.001);
	out->low01_average_fps = gs_low_average_fps(s, n, 0.001);
	out->low01_integral_fps = gs_low_integral_fps(s, n, 0.001);
	out->min_fps = fps_of(s[n - 1]);
	out->max_fps = fps_of(s[0]);
	out->ft_p50 = gs_pct_nearest(s, n, 50);
	out->ft_p90 = gs_pct_nearest(s, n, 90);
	out->ft_p99 = gs_pct_nearest(s, n, 99);
	out->ft_p999 = gs_pct_nearest(s, n, 99.9);
	out->ft_max = s[n - 1];
	out->ft_mean = out->total_ms / (double)n;
	out->ft_stddev = gs_stddev(s, n);
	out->low01_unreliable = n < 1000;
	out->low1_unreliable = n < 100;
	if (!scratch)
		free(s);
	return 0;
}

/* ---- log-linear histogram ------------------------------------------ */

void gs_hist_init(struct gs_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned gs_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < GS_HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - GS_HIST_SUB_BITS;
	return (shift + 1) * GS_HIST_SUB + (unsigned)((v >> shift) - GS_HIST_SUB);
}

void gs_hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;
	uint64_t mant;

	if (idx < GS_HIST_SUB) {
		*lo = *hi = idx;
		return;
	}
	shift = idx / GS_HIST_SUB - 1;
	mant = idx % GS_HIST_SUB + GS_HIST_SUB;
	*lo = mant << shift;
	*hi = *lo + ((1ULL << shift) - 1);
}

void gs_hist_add(struct gs_hist *h, uint64_t v)
{
	h->bucket[gs_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void gs_hist_merge(struct gs_hist *dst, const struct gs_hist *src)
{
	for (unsigned i = 0; i < GS_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t gs_hist_pct(const struct gs_hist *h, double p)
{
	double r;
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	r = ceil(p / 100.0 * (double)h->count - RANK_EPS);
	rank = r < 1 ? 1 : (uint64_t)r;
	if (rank >= h->count)
		return h->max;
	for (unsigned i = 0; i < GS_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo, hi;

			gs_hist_bucket_range(i, &lo, &hi);
			if (hi > h->max)
				hi = h->max;
			return hi < h->min ? h->min : hi;
		}
	}
	return h->max;
}

double gs_hist_mean(const struct gs_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

/* ---- bootstrap and Mann-Whitney ------------------------------------ */

static double median_sorted(double *v, size_t n)
{
	gs_sort_doubles(v, n);
	return gs_pct_linear(v, n, 50);
}

static double resampled_median(const double *v, size_t n, double *tmp,
			       struct gs_rng *rng)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[gs_rng_below(rng, n)];
	return median_sorted(tmp, n);
}

static int interval_of(double *stat, unsigned iters, double conf, double *lo,
		       double *hi)
{
	double tail = (1.0 - conf) / 2.0 * 100.0;

	gs_sort_doubles(stat, iters);
	*lo = gs_pct_linear(stat, iters, tail);
	*hi = gs_pct_linear(stat, iters, 100.0 - tail);
	return 0;
}

int gs_bootstrap_median_ci(const double *v, size_t n, double conf,
			   unsigned iters, uint64_t seed, double *lo,
			   double *hi)
{
	struct gs_rng rng;
	double *tmp, *stat;

	if (!n || !iters)
		return -1;
	tmp = malloc(n * sizeof(*tmp));
	stat = malloc(iters * sizeof(*stat));
	if (!tmp || !stat) {
		free(tmp);
		free(stat);
		return -1;
	}
	gs_rng_seed(&rng, seed);
	for (unsigned i = 0; i < iters; i++)
		stat[i] = resampled_median(v, n, tmp, &rng);
	interval_of(stat, iters, conf, lo, hi);
	free(tmp);
	free(stat);
	return 0;
}

int gs_bootstrap_ratio_ci(const double *a, size_t na, const double *b,
			  size_t nb, double conf, unsigned iters,
			  uint64_t seed, double *lo, double *hi)
{
	struct gs_rng rng;
	double *tmp, *stat;
	unsigned kept = 0;

	if (!na || !nb || !iters)
		return -1;
	tmp = malloc((na > nb ? na : nb) * sizeof(*tmp));
	stat = malloc(iters * sizeof(*stat));
	if (!tmp || !stat) {
		free(tmp);
		free(stat);
		return -1;
	}
	gs_rng_seed(&rng, seed);
	for (unsigned i = 0; i < iters; i++) {
		double ma = resampled_median(a, na, tmp, &rng);
		double mb = resampled_median(b, nb, tmp, &rng);

		if (ma != 0)
			stat[kept++] = mb / ma;
	}
	if (!kept) {
		free(tmp);
		free(stat);
		return -1;
	}
	interval_of(stat, kept, conf, lo, hi);
	free(tmp);
	free(stat);
	return 0;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

/* Number of arrangements giving each U for sizes m, n without ties:
 * N(u; m, n) = N(u - n; m - 1, n) + N(u; m, n - 1). */
static double exact_mw_p(size_t m, size_t n, double u)
{
	size_t umax = m * n, w = umax + 1;
	double *tab = calloc((m + 1) * (n + 1) * w, sizeof(double));
	double total = 0, le = 0, ge = 0, p;

	if (!tab)
		return NAN;
#define T(i, j, k) tab[((i) * (n + 1) + (j)) * w + (k)]
	for (size_t i = 0; i <= m; i++)
		for (size_t j = 0; j <= n; j++)
			for (size_t k = 0; k <= i * j; k++) {
				if (i == 0 || j == 0) {
					T(i, j, k) = k == 0;
					continue;
				}
				T(i, j, k) = (k >= j ? T(i - 1, j, k - j) : 0) +
					     T(i, j - 1, k);
			}
	for (size_t k = 0; k <= umax; k++) {
		double c = T(m, n, k);

		total += c;
		if ((double)k <= u + 1e-9)
			le += c;
		if ((double)k >= u - 1e-9)
			ge += c;
	}
#undef T
	free(tab);
	p = 2.0 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
}

double gs_mann_whitney_p(const double *a, size_t na, const double *b,
			 size_t nb, double *u_out)
{
	size_t n = na + nb, i = 0;
	struct ranked *r;
	double ra = 0, tie_term = 0, u, mu, sigma, z;
	bool ties = false;

	if (!na || !nb)
		return NAN;
	r = malloc(n * sizeof(*r));
	if (!r)
		return NAN;
	for (size_t k = 0; k < na; k++)
		r[k] = (struct ranked){ a[k], 1 };
	for (size_t k = 0; k < nb; k++)
		r[na + k] = (struct ranked){ b[k], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	while (i < n) {
		size_t j = i;
		double rank;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		rank = (double)(i + j + 2) / 2.0; /* mean of ranks i+1..j+1 */
		for (size_t k = i; k <= j; k++)
			if (r[k].from_a)
				ra += rank;
		if (j > i) {
			double t = (double)(j - i + 1);

			ties = true;
			tie_term += t * t * t - t;
		}
		i = j + 1;
	}
	free(r);
	u = ra - (double)na * (double)(na + 1) / 2.0;
	if (u_out)
		*u_out = u;
	if (!ties && na <= 20 && nb <= 20)
		return exact_mw_p(na, nb, u);
	mu = (double)na * (double)nb / 2.0;
	sigma = sqrt((double)na * (double)nb / 12.0 *
		     ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1))));
	if (sigma == 0)
		return 1.0;
	z = (fabs(u - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}

double gs_mann_whitney_min_p(size_t na, size_t nb)
{
	double c = 1.0; /* C(na + nb, na), built as a running product */

	if (!na || !nb)
		return 1.0;
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return c > 2.0 ? 2.0 / c : 1.0;
}

double gs_welch_t(const double *a, size_t na, const double *b, size_t nb)
{
	double ma = 0, mb = 0, va = 0, vb = 0, se;

	if (na < 2 || nb < 2)
		return NAN;
	for (size_t i = 0; i < na; i++)
		ma += a[i] / (double)na;
	for (size_t i = 0; i < nb; i++)
		mb += b[i] / (double)nb;
	for (size_t i = 0; i < na; i++)
		va += (a[i] - ma) * (a[i] - ma) / (double)(na - 1);
	for (size_t i = 0; i < nb; i++)
		vb += (b[i] - mb) * (b[i] - mb) / (double)(nb - 1);
	se = sqrt(va / (double)na + vb / (double)nb);
	if (se == 0)
		return ma == mb ? 0 : (mb > ma ? INFINITY : -INFINITY);
	return (mb - ma) / se;
}
