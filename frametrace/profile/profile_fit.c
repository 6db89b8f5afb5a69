// SPDX-License-Identifier: GPL-2.0-only
/* The arithmetic of frametrace profile (profile_fit.h). */
#include "profile_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbprofile.h"
#include "stats.h"
#include "util.h"

#define MAX_WORK_NS 1e9		/* framebench: one step's work at most 1 s */
#define VSYNC_BLOCK 50
#define VSYNC_BINS 50

static double nearest_rank(const double *sorted, size_t n, double p)
{
	size_t k = (size_t)ceil(p / 100.0 * (double)n);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return sorted[k - 1];
}

int ft_pf_summarize(const double *x, size_t n, struct ft_pf_sum *s)
{
	double *v, sum = 0, m2 = 0, m3 = 0, m4 = 0, tm = 0;
	size_t lo = 0, hi = n, tn;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	memcpy(v, x, n * sizeof(*v));
	gs_sort_doubles(v, n);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		m2 += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
	s->min = v[0];
	s->max = v[n - 1];
	s->p10 = nearest_rank(v, n, 10);
	s->p50 = nearest_rank(v, n, 50);
	s->p90 = nearest_rank(v, n, 90);
	s->p99 = nearest_rank(v, n, 99);
	if (n >= 100) {
		lo = n / 100;
		hi = n - n / 100;
	}
	tn = hi - lo;
	for (size_t i = lo; i < hi; i++)
		tm += v[i];
	tm /= (double)tn;
	m2 = 0;
	for (size_t i = lo; i < hi; i++) {
		double d = v[i] - tm;

		m2 += d * d;
		m3 += d * d * d;
		m4 += d * d * d * d;
	}
	s->tsd = tn > 1 ? sqrt(m2 / (double)(tn - 1)) : 0;
	if (tn >= 4 && m2 > 0) {
		double var = m2 / (double)tn;

		s->skew = m3 / (double)tn / pow(var, 1.5);
		s->kurt = m4 / (double)tn / (var * var) - 3;
	}
	free(v);
	return 0;
}

void ft_pf_fit(const struct ft_pf_sum *s, struct ft_pf_dist *d)
{
	double mean = s->mean > 0 ? s->mean : 0, sd = s->tsd;

	if (mean > MAX_WORK_NS)
		mean = MAX_WORK_NS;
	if (s->n < 2 || sd < 0.05 * mean || sd < 1000) {
		*d = (struct ft_pf_dist){ PF_FIXED, mean, mean };
		return;
	}
	/* leaning: its median off the middle of p10..p90 by a tenth of that
	 * range (outliers cannot move it), or skewed; kept before the flat
	 * test, whose moments a two-humped sample can pass */
	if ((fabs(s->p90 + s->p10 - 2 * s->p50) > 0.1 * (s->p90 - s->p10) ||
	     fabs(s->skew) > 0.5) &&
	    s->p90 > s->p50 && s->p50 > s->p10) {
		/* P(|Z| > 1.2816) = 0.2: p10 and p90 of each half */
		*d = (struct ft_pf_dist){ PF_TWOPIECE, s->p50, (s->p50 - s->p10) / 1.2816,
					  (s->p90 - s->p50) / 1.2816 };
		return;
	}
	if (s->kurt < -0.6 && fabs(s->skew) <= 0.5) {
		double a = mean - sqrt(3) * sd, b = mean + sqrt(3) * sd;

		if (a < 0) {
			a = 0;
			b = 2 * mean;
		}
		*d = (struct ft_pf_dist){ PF_UNIFORM, a, b };
		return;
	}
	*d = (struct ft_pf_dist){ PF_NORMAL, mean, sd };
}

double ft_pf_dist_mean(const struct ft_pf_dist *d)
{
	return d->kind == PF_UNIFORM    ? (d->a + d->b) / 2
	       : d->kind == PF_TWOPIECE ? fb_twopiece_mean(d->a, d->b, d->c)
					: d->a;
}

void ft_pf_dist_scale(struct ft_pf_dist *d, double k)
{
	if (!(k >= 0))
		k = 0;
	d->a *= k;
	d->b *= k;
	d->c *= k;
}

static double clamp_work(double v)
{
	return v < 0 ? 0 : v > MAX_WORK_NS ? MAX_WORK_NS : v;
}

void ft_pf_dist_text(const struct ft_pf_dist *d, char *buf, size_t len)
{
	/* one decimal of a microsecond: rounding may not put a above b */
	double a = round(clamp_work(d->a) / 100) / 10;
	double b = round(clamp_work(d->b) / 100) / 10;

	switch (d->kind) {
	case PF_UNIFORM:
		if (b > a) {
			snprintf(buf, len, "%.1fus..%.1fus", a, b);
			return;
		}
		break;
	case PF_NORMAL:
		if (b > 0) {
			snprintf(buf, len, "%.1fus~%.1fus", a, b);
			return;
		}
		break;
	case PF_TWOPIECE:
		snprintf(buf, len, "%.1fus~%.1fus/%.1fus", a, b,
			 round(clamp_work(d->c) / 100) / 10);
		return;
	default:
		break;
	}
	snprintf(buf, len, "%.1fus", a);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

uint64_t ft_pf_period(const uint64_t *ts, size_t n, double *share)
{
	double *iv, m, k_sum = 0;
	size_t ni, regular = 0;

	if (share)
		*share = 0;
	if (n < 10)
		return 0;
	ni = n - 1;
	iv = malloc(ni * sizeof(*iv));
	if (!iv)
		return 0;
	for (size_t i = 0; i < ni; i++)
		iv[i] = (double)(ts[i + 1] - ts[i]);
	qsort(iv, ni, sizeof(*iv), cmp_double);
	m = iv[ni / 2];
	free(iv);
	if (m <= 0)
		return 0;
	for (size_t i = 0; i < ni; i++) {
		double r = (double)(ts[i + 1] - ts[i]) / m, k = round(r);

		if (k >= 1 && k <= 4 && fabs(r - k) <= 0.2 * k) {
			regular++;
			k_sum += k;
		}
	}
	if (share)
		*share = (double)regular / (double)ni;
	if (regular * 10 < ni * 8 || k_sum <= 0)
		return 0;
	/* the whole span over the ticks in it: an absolute timer's period
	 * exactly, whatever the lateness of single wake-ups */
	k_sum = 0;
	for (size_t i = 0; i < ni; i++) {
		double k = round((double)(ts[i + 1] - ts[i]) / m);

		k_sum += k < 1 ? 1 : k;
	}
	return (uint64_t)llround((double)(ts[n - 1] - ts[0]) / k_sum);
}

uint64_t ft_pf_vsync_period(const uint64_t *present, size_t n, double *share)
{
	double *iv, m, near_sum = 0;
	size_t near = 0, hits = 0;

	if (share)
		*share = 0;
	if (n < 11)
		return 0;
	iv = malloc((n - 1) * sizeof(*iv));
	if (!iv)
		return 0;
	for (size_t i = 1; i < n; i++)
		iv[i - 1] = (double)(present[i] - present[i - 1]);
	qsort(iv, n - 1, sizeof(*iv), cmp_double);
	m = iv[(n - 1) / 2];
	for (size_t i = 0; i + 1 < n; i++)
		if (fabs(iv[i] - m) <= 0.02 * m) {
			near++;
			near_sum += iv[i];
		}
	free(iv);
	if (m <= 0 || !near)
		return 0;
	m = near_sum / (double)near;
	/* each block of VSYNC_BLOCK presents on its own grid: the period's
	 * error, small per frame, would add up over a long trace (0.1 % of a
	 * period moves the last of 50 by 5 % of it) */
	for (size_t b = 0; b < n; b += VSYNC_BLOCK) {
		size_t e = b + VSYNC_BLOCK < n ? b + VSYNC_BLOCK : n, best = 0;
		unsigned bins[VSYNC_BINS] = { 0 };

		for (size_t i = b; i < e; i++) {
			double ph = fmod((double)(present[i] - present[b]), m) / m;

			bins[(size_t)(ph * VSYNC_BINS) % VSYNC_BINS]++;
		}
		for (size_t c = 0; c < VSYNC_BINS; c++) {
			size_t w = 0;

			for (size_t k = 0; k < VSYNC_BINS / 5; k++)
				w += bins[(c + k) % VSYNC_BINS];
			if (w > best)
				best = w;
		}
		hits += best;
	}
	if (share)
		*share = (double)hits / (double)n;
	return hits * 10 >= n * 6 ? (uint64_t)llround(m) : 0;
}

void ft_pf_stem(const char *comm, char *out, size_t len)
{
	size_t n;

	gs_strlcpy(out, comm, len);
	n = strlen(out);
	while (n && out[n - 1] >= '0' && out[n - 1] <= '9')
		n--;
	while (n && strchr("-_:#/. ", out[n - 1]))
		n--;
	if (n)
		out[n] = '\0';
}

void ft_pf_name(const char *comm, char *out, size_t len)
{
	size_t k = 0;

	if (!strncmp(comm, "fb-", 3) && comm[3])
		comm += 3;
	for (; *comm && k + 1 < len && k < 31; comm++) {
		char c = *comm;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-' ||
			  c == '.';

		out[k++] = ok ? c : '_';
	}
	if (!k && len > 1)
		out[k++] = 't';
	if (len)
		out[k] = '\0';
}
