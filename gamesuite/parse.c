// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workloads' outputs read back: schbench's and perf bench messaging's
 * text, stress-ng's YAML, framebench's JSON, and raw frame times. Pure
 * functions (unit-tested); gsu_exec_collect (workload.c) calls them.
 */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"
#include "workload.h"

double gsu_curve_p(int i)
{
	/* exceedance 10^0 .. 10^-3 in equal log steps: P0 .. P99.9 */
	return 1.0 - pow(10.0, -3.0 * (double)i / (double)(GSU_CURVE_N - 1));
}

int gsu_parse_schbench(const char *text, double out[3])
{
	enum { NONE, WAKE, REQ, RPS } sec = NONE;
	const char *l = text;
	double avg_rps = NAN, rps50 = NAN;

	out[0] = out[1] = out[2] = NAN;
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char line[512];
		const char *th;
		double pct, v;

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, l, len);
		line[len] = '\0';
		l = nl ? nl + 1 : NULL;
		if (strstr(line, "percentiles")) {
			sec = strstr(line, "Wakeup") ? WAKE
			      : strstr(line, "Request") ? REQ
			      : strstr(line, "RPS") ? RPS : NONE;
			continue;
		}
		if (sscanf(line, " average rps: %lf", &v) == 1) {
			avg_rps = v;
			continue;
		}
		th = strstr(line, "th:");
		if (!th || sec == NONE)
			continue;
		/* "\t* 99.0th: 40         (1234 samples)" */
		{
			const char *p = th;

			while (p > line && (p[-1] == '.' ||
					    (p[-1] >= '0' && p[-1] <= '9')))
				p--;
			if (sscanf(p, "%lfth: %lf", &pct, &v) != 2)
				continue;
		}
		if (fabs(pct - 99.0) < 1e-9) {
			if (sec == WAKE && isnan(out[0]))
				out[0] = v;
			else if (sec == REQ && isnan(out[1]))
				out[1] = v;
		} else if (fabs(pct - 50.0) < 1e-9 && sec == RPS &&
			   isnan(rps50)) {
			rps50 = v;
		}
	}
	out[2] = !isnan(avg_rps) ? avg_rps : rps50;
	return isnan(out[0]) ? -1 : 0;
}

int gsu_parse_perf_messaging(const char *text, double *secs)
{
	const char *t = strstr(text, "Total time:");
	char *end;
	double v;

	if (t) {
		v = strtod(t + strlen("Total time:"), &end);
		if (end == t + strlen("Total time:") || !(v >= 0))
			return -1;
		*secs = v;
		return 0;
	}
	/* --format=simple: the number alone on a line */
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');

		if (*l != '#') {
			v = strtod(l, &end);
			if (end != l && (*end == '\n' || *end == '\0') &&
			    v >= 0) {
				*secs = v;
				return 0;
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	return -1;
}

int gsu_parse_stressng_yaml(const char *text, double *ops_per_s)
{
	const char *key = "bogo-ops-per-second-real-time:";
	const char *p = text;
	double sum = 0;
	int n = 0;

	while ((p = strstr(p, key))) {
		char *end;
		double v = strtod(p + strlen(key), &end);

		if (end != p + strlen(key) && isfinite(v)) {
			sum += v;
			n++;
		}
		p += strlen(key);
	}
	if (!n)
		return -1;
	*ops_per_s = sum;
	return 0;
}

double gsu_framebench_bg_work(const struct gs_jv *doc)
{
	const struct gs_jv *bg = gs_json_get(doc, "background");
	double sum = 0;

	/* no background (or an older framebench): nothing to compare */
	if (!bg || bg->type != GS_JARR || !bg->len)
		return NAN;
	for (size_t i = 0; i < bg->len; i++) {
		const struct gs_jv *w = gs_json_get(bg->items[i], "work_per_s");

		/* one pattern unmeasured makes the sum meaningless */
		if (!w || w->type != GS_JNUM)
			return NAN;
		sum += w->num;
	}
	return sum;
}

int gsu_parse_framebench_json(const struct gs_jv *doc, double *m, char *why,
			      size_t whylen)
{
	static const struct {
		int idx;
		const char *path;
	} keys[] = {
		{ GSU_M_AVG_FPS, "avg_fps" },
		{ GSU_M_LOW1_PCT, "low1_percentile_fps" },
		{ GSU_M_LOW1_AVG, "low1_average_fps" },
		{ GSU_M_LOW01_PCT, "low01_percentile_fps" },
		{ GSU_M_LOW01_AVG, "low01_average_fps" },
		{ GSU_M_FT_P50, "frametime_ms.p50" },
		{ GSU_M_FT_P99, "frametime_ms.p99" },
		{ GSU_M_FT_P999, "frametime_ms.p999" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct gs_jv *v = gs_json_path(doc, keys[i].path);

		if (!v || v->type != GS_JNUM) {
			snprintf(why, whylen, "framebench --json has no number "
				 "at '%s'", keys[i].path);
			return -1;
		}
		m[keys[i].idx] = v->num;
	}
	/* optional figures: absent in older framebench versions */
	m[GSU_M_LOW1_INT] = gs_json_num_at(doc, "low1_integral_fps", NAN);
	m[GSU_M_INPUT_P99] = gs_json_num_at(doc, "input_latency_ms.p99", NAN);
	m[GSU_M_BG_WORK] = gsu_framebench_bg_work(doc);
	m[GSU_M_GAME_CPU] = gs_json_num_at(doc, "game_cpu_s", NAN);
	return 0;
}

int gsu_frames_metrics(const double *ft, size_t n, struct gsu_run *run)
{
	struct gs_fps_summary s;
	double *sorted, *m = run->metrics;
	double vals[GSU_M_NFRAME];

	if (!n)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	if (gs_fps_summarize(ft, n, 0, sorted, &s)) {
		free(sorted);
		return -1;
	}
	vals[GSU_M_AVG_FPS] = s.avg_fps;
	vals[GSU_M_LOW1_PCT] = s.low1_percentile_fps;
	vals[GSU_M_LOW1_AVG] = s.low1_average_fps;
	vals[GSU_M_LOW1_INT] = s.low1_integral_fps;
	vals[GSU_M_LOW01_PCT] = s.low01_percentile_fps;
	vals[GSU_M_LOW01_AVG] = s.low01_average_fps;
	vals[GSU_M_FT_P50] = s.ft_p50;
	vals[GSU_M_FT_P99] = s.ft_p99;
	vals[GSU_M_FT_P999] = s.ft_p999;
	for (int i = 0; i < GSU_M_NFRAME; i++)
		if (isnan(m[i]))
			m[i] = vals[i];
	run->frames = n;
	free(run->curve);
	run->curve = malloc(GSU_CURVE_N * sizeof(*run->curve));
	if (run->curve) {
		/* gs_fps_summarize left the sorted frame times in scratch */
		for (int i = 0; i < GSU_CURVE_N; i++)
			run->curve[i] =
				gs_pct_nearest(sorted, n, 100.0 * gsu_curve_p(i));
	}
	free(sorted);
	return 0;
}
