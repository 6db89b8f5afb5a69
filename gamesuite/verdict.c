// SPDX-License-Identifier: GPL-2.0-only
/*
 * From runs to verdicts: per workload, metric and scheduler the median of
 * the kept runs with a bootstrap interval; against the baseline (the first
 * --sched) the ratio of medians with a bootstrap interval, the two-sided
 * Mann-Whitney U p-value, and a direction-aware verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamesuite.h"
#include "rng.h"
#include "stats.h"

const char *gsu_verdict_name(enum gsu_verdict v)
{
	switch (v) {
	case GSU_SAME: return "same";
	case GSU_BETTER: return "better";
	case GSU_WORSE: return "worse";
	case GSU_NO_DATA: return "no data";
	case GSU_INFORMATIONAL: return "informational";
	}
	return "?";
}

const char *gsu_run_status_name(enum gsu_run_status st)
{
	static const char *const names[GSU_RUN_NSTATUS] = {
		[GSU_RUN_OK] = "ok",
		[GSU_RUN_WRONG_SCHED] = "wrong scheduler",
		[GSU_RUN_LOAD_FAILED] = "scheduler failed to load",
		[GSU_RUN_EJECTED] = "scheduler ejected",
		[GSU_RUN_CRASHED] = "workload failed",
		[GSU_RUN_TIMEOUT] = "workload timed out",
		[GSU_RUN_DISTURBED] = "disturbed",
		[GSU_RUN_INTERRUPTED] = "interrupted",
		[GSU_RUN_SKIPPED] = "skipped",
	};

	return st < GSU_RUN_NSTATUS ? names[st] : "?";
}

struct gsu_run *gsu_results_add_run(struct gsu_results *r)
{
	struct gsu_run *run;

	if (r->nruns == r->caprun) {
		int nc = r->caprun ? r->caprun * 2 : 64;
		struct gsu_run *nv = realloc(r->runs, (size_t)nc * sizeof(*nv));

		if (!nv)
			return NULL;
		r->runs = nv;
		r->caprun = nc;
	}
	run = &r->runs[r->nruns++];
	memset(run, 0, sizeof(*run));
	run->index = r->nruns;
	for (int i = 0; i < GSU_MAX_METRICS; i++)
		run->metrics[i] = NAN;
	run->loadavg1 = run->busy_before = run->other_cpu = NAN;
	run->probe_ms_before = run->probe_ms_after = NAN;
	run->load_s = run->wall_s = run->workload_cpu_s = NAN;
	run->scx_before.enable_seq = run->scx_after.enable_seq = -1;
	return run;
}

void gsu_results_free_runs(struct gsu_results *r)
{
	for (int i = 0; i < r->nruns; i++)
		free(r->runs[i].curve);
	free(r->runs);
	r->runs = NULL;
	r->nruns = r->caprun = 0;
}

bool gsu_run_kept(const struct gsu_run *run)
{
	return !run->warmup && run->status == GSU_RUN_OK;
}

void gsu_sched_discards(const struct gsu_results *r, int s, int *attempts,
			int *disturbed)
{
	*attempts = *disturbed = 0;
	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		if (run->sched != s || run->warmup)
			continue;
		(*attempts)++;
		*disturbed += run->status == GSU_RUN_DISTURBED;
	}
}

void gsu_discard_bias(const struct gsu_results *r, char *buf, size_t len)
{
	int lo = -1, hi = -1;
	double flo = 2, fhi = -1;

	buf[0] = '\0';
	for (int s = 0; s < r->nsched; s++) {
		int a, d;
		double f;

		gsu_sched_discards(r, s, &a, &d);
		if (a < 3)
			continue;
		f = (double)d / a;
		if (f < flo) {
			flo = f;
			lo = s;
		}
		if (f > fhi) {
			fhi = f;
			hi = s;
		}
	}
	if (lo < 0 || hi == lo || fhi < 0.3 || fhi < 2 * flo)
		return;
	snprintf(buf, len, "disturbed runs were discarded for %.0f %% of "
		 "%s's attempts but %.0f %% of %s's: the disturbance filter "
		 "may bias this comparison (see the run log; --disturbed keep "
		 "or other thresholds)", 100 * fhi, r->sched[hi].label,
		 100 * flo, r->sched[lo].label);
}

size_t gsu_min_frames(const struct gsu_results *r, int w)
{
	size_t min = 0;

	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		if (run->workload == w && gsu_run_kept(run) && run->frames &&
		    (!min || run->frames < min))
			min = run->frames;
	}
	return min;
}

void gsu_count(const struct gsu_results *r, struct gsu_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < r->nruns; i++) {
		const struct gsu_run *run = &r->runs[i];

		c->runs++;
		c->by_status[run->status]++;
		if (run->warmup)
			c->warmup_done++;
		else if (run->status != GSU_RUN_SKIPPED)
			c->measured++;
		if (gsu_run_kept(run))
			c->kept++;
		if (run->disturbed)
			c->disturbed_flagged++;
		if (run->attempt > 1)
			c->repeated++;
	}
}

enum gsu_verdict gsu_decide(double ratio_lo, double ratio_hi, double p,
			    double conf, bool higher_better)
{
	bool up, down;

	if (isnan(ratio_lo) || isnan(ratio_hi) || isnan(p))
		return GSU_SAME;
	if (!(p < 1.0 - conf))
		return GSU_SAME;
	up = ratio_lo > 1.0;
	down = ratio_hi < 1.0;
	if (!up && !down)
		return GSU_SAME;
	return up == higher_better ? GSU_BETTER : GSU_WORSE;
}

struct gsu_cell *gsu_table_cell(const struct gsu_table *t, int w, int m,
				int s)
{
	return &t->cells[((size_t)w * (size_t)t->nm + (size_t)m) *
			 (size_t)t->ns + (size_t)s];
}

static uint64_t cell_seed(uint64_t base, int w, int m, int s)
{
	uint64_t x = base ^ ((uint64_t)w << 40) ^ ((uint64_t)m << 20) ^
		     (uint64_t)s;

	return gs_splitmix64(&x);
}

static double median_of(const double *v, size_t n)
{
	double *tmp = malloc(n * sizeof(*tmp)), med;

	if (!tmp)
		return NAN;
	memcpy(tmp, v, n * sizeof(*tmp));
	gs_sort_doubles(tmp, n);
	med = gs_pct_linear(tmp, n, 50);
	free(tmp);
	return med;
}

int gsu_table_build(const struct gsu_results *r, struct gsu_table *t)
{
	const struct gsu_suite *su = r->suite;
	double conf = r->set.confidence;
	unsigned iters = r->set.bootstrap_iters ? r->set.bootstrap_iters : 2000;

	t->nw = su->nw;
	t->nm = GSU_MAX_METRICS;
	t->ns = r->nsched;
	t->cells = calloc((size_t)t->nw * (size_t)t->nm * (size_t)t->ns,
			  sizeof(*t->cells));
	if (!t->cells)
		return -1;
	for (int w = 0; w < su->nw; w++) {
		const struct gsu_metric_def *defs;
		size_t nm = gsu_kind_metrics(su->w[w].kind, &defs);

		for (size_t m = 0; m < nm; m++) {
			for (int s = 0; s < r->nsched; s++) {
				struct gsu_cell *c = gsu_table_cell(t, w, (int)m, s);

				c->values = malloc(((size_t)r->nruns + 1) *
						   sizeof(double));
				if (!c->values)
					return -1;
				for (int i = 0; i < r->nruns; i++) {
					const struct gsu_run *run = &r->runs[i];

					if (run->workload == w && run->sched == s &&
					    gsu_run_kept(run) &&
					    !isnan(run->metrics[m]))
						c->values[c->n++] = run->metrics[m];
				}
				c->median = c->lo = c->hi = NAN;
				c->ratio = c->ratio_lo = c->ratio_hi = NAN;
				c->p_value = NAN;
				c->verdict = GSU_NO_DATA;
				if (!c->n)
					continue;
				c->median = median_of(c->values, c->n);
				if (gs_bootstrap_median_ci(c->values, c->n, conf,
							   iters,
							   cell_seed(su->seed, w,
								     (int)m, s),
							   &c->lo, &c->hi))
					c->lo = c->hi = NAN;
			}
			/* against the baseline */
			for (int s = 0; s < r->nsched; s++) {
				struct gsu_cell *b = gsu_table_cell(t, w, (int)m, 0);
				struct gsu_cell *c = gsu_table_cell(t, w, (int)m, s);

				if (!b->n || !c->n)
					continue;
				if (s == 0) {
					c->ratio = c->ratio_lo = c->ratio_hi = 1;
					c->verdict = defs[m].informational
							     ? GSU_INFORMATIONAL
							     : GSU_SAME;
					c->resolvable = true;
					continue;
				}
				if (b->median != 0)
					c->ratio = c->median / b->median;
				if (gs_bootstrap_ratio_ci(b->values, b->n,
							  c->values, c->n, conf,
							  iters,
							  cell_seed(su->seed + 1,
								    w, (int)m, s),
							  &c->ratio_lo,
							  &c->ratio_hi))
					c->ratio_lo = c->ratio_hi = NAN;
				c->p_value = gs_mann_whitney_p(b->values, b->n,
							       c->values, c->n,
							       NULL);
				c->resolvable = gs_mann_whitney_min_p(b->n, c->n) <
						1.0 - conf;
				c->verdict = defs[m].informational
						     ? GSU_INFORMATIONAL
						     : gsu_decide(c->ratio_lo,
								  c->ratio_hi,
								  c->p_value, conf,
								  defs[m].higher_better);
			}
		}
	}
	return 0;
}

void gsu_table_free(struct gsu_table *t)
{
	if (t->cells)
		for (size_t i = 0;
		     i < (size_t)t->nw * (size_t)t->nm * (size_t)t->ns; i++)
			free(t->cells[i].values);
	free(t->cells);
	t->cells = NULL;
}
