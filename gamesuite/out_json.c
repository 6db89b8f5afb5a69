// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json FILE. Objects are keyed by name so that dotted paths reach every
 * figure, e.g. workloads.NAME.metrics.avg_fps.schedulers.LABEL.verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gamesuite.h"
#include "json.h"
#include "outfmt.h"
#include "outfile.h"
#include "util.h"

static void cell_json(struct gs_jw *j, const char *label,
		      const struct gsu_cell *c, bool base)
{
	gs_jw_obj(j, label);
	gs_jw_uint(j, "n", c->n);
	gs_jw_num(j, "median", c->median);
	gs_jw_num(j, "ci_lo", c->lo);
	gs_jw_num(j, "ci_hi", c->hi);
	gs_jw_num(j, "ratio", c->ratio);
	gs_jw_num(j, "ratio_lo", c->ratio_lo);
	gs_jw_num(j, "ratio_hi", c->ratio_hi);
	gs_jw_num(j, "p_value", c->p_value);
	if (c->verdict == GSU_NO_DATA)
		gs_jw_null(j, "verdict");
	else
		gs_jw_str(j, "verdict", gsu_verdict_name(c->verdict));
	gs_jw_bool(j, "resolvable", c->resolvable);
	gs_jw_bool(j, "baseline", base);
	gs_jw_arr(j, "values");
	for (size_t i = 0; i < c->n; i++)
		gs_jw_num(j, NULL, c->values[i]);
	gs_jw_arr_end(j);
	gs_jw_obj_end(j);
}

static void run_json(struct gs_jw *j, const struct gsu_results *r,
		     const struct gsu_run *run)
{
	const struct gsu_workload *w = &r->suite->w[run->workload];
	const struct gsu_metric_def *defs;
	size_t nm = gsu_kind_metrics(w->kind, &defs);

	gs_jw_obj(j, NULL);
	gs_jw_int(j, "index", run->index);
	gs_jw_str(j, "workload", w->name);
	gs_jw_str(j, "scheduler", r->sched[run->sched].label);
	gs_jw_int(j, "round", run->round + 1);
	gs_jw_int(j, "attempt", run->attempt);
	gs_jw_bool(j, "warmup", run->warmup);
	gs_jw_str(j, "status", gsu_run_status_name(run->status));
	gs_jw_bool(j, "kept", gsu_run_kept(run));
	gs_jw_bool(j, "disturbed", run->disturbed);
	gs_jw_str(j, "reason", run->reason);
	gs_jw_str(j, "log_tail", run->log_tail);
	gs_jw_num(j, "start_epoch", run->start_epoch);
	gs_jw_obj(j, "machine");
	gs_jw_num(j, "loadavg1", run->loadavg1);
	gs_jw_num(j, "busy_before", run->busy_before);
	gs_jw_num(j, "other_cpu", run->other_cpu);
	gs_jw_num(j, "probe_ms_before", run->probe_ms_before);
	gs_jw_num(j, "probe_ms_after", run->probe_ms_after);
	gs_jw_str(j, "governor", run->governor);
	gs_scx_json(j, "sched_ext_before", &run->scx_before);
	gs_scx_json(j, "sched_ext_after", &run->scx_after);
	gs_jw_obj_end(j);
	gs_jw_num(j, "load_s", run->load_s);
	gs_jw_num(j, "wall_s", run->wall_s);
	gs_jw_num(j, "workload_cpu_s", run->workload_cpu_s);
	gs_jw_int(j, "exit_status", run->exit_status);
	gs_jw_obj(j, "metrics");
	for (size_t m = 0; m < nm; m++)
		gs_jw_num(j, defs[m].name, run->metrics[m]);
	gs_jw_obj_end(j);
	if (run->curve) {
		gs_jw_uint(j, "frames", run->frames);
		gs_jw_arr(j, "frametime_curve_ms");
		for (int i = 0; i < GSU_CURVE_N; i++)
			gs_jw_num(j, NULL, run->curve[i]);
		gs_jw_arr_end(j);
	}
	gs_jw_obj_end(j);
}

/* the tool, the suite, the settings and the machine */
static void json_head(struct gs_jw *j, const struct gsu_results *r)
{
	const struct gsu_suite *su = r->suite;

	gs_jw_str(j, "tool", "gamesuite");
	gs_jw_str(j, "version", GSU_VERSION);
	gs_jw_obj(j, "suite");
	gs_jw_str(j, "name", su->name);
	gs_jw_str(j, "path", su->path);
	gs_jw_int(j, "repeat", su->repeat);
	gs_jw_int(j, "warmup", su->warmup);
	gs_jw_num(j, "cooldown_s", (double)su->cooldown_ns / 1e9);
	gs_jw_uint(j, "seed", su->seed);
	gs_jw_obj_end(j);
	gs_jw_obj(j, "settings");
	gs_jw_num(j, "confidence", r->set.confidence);
	gs_jw_uint(j, "bootstrap_iterations", r->set.bootstrap_iters);
	gs_jw_str(j, "order", r->set.rotate ? "rotated" : "interleaved");
	gs_jw_num(j, "max_other_cpu", r->set.max_other_cpu);
	gs_jw_num(j, "max_busy_before", r->set.max_busy_before);
	gs_jw_num(j, "probe_factor", r->set.probe_factor);
	gs_jw_int(j, "retries", r->set.retries);
	gs_jw_str(j, "disturbed", r->set.keep_disturbed ? "keep" : "repeat");
	gs_jw_str(j, "sched_ext_root", r->set.scx_root);
	gs_jw_obj_end(j);
	gs_sysinfo_json(j, &r->machine);
	gs_jw_num(j, "started_epoch", r->started_epoch);
	gs_jw_num(j, "ended_epoch", r->ended_epoch);
}

/* the schedulers, the baseline first */
static void json_schedulers(struct gs_jw *j, const struct gsu_results *r)
{
	gs_jw_str(j, "baseline", r->nsched ? r->sched[0].label : "");
	gs_jw_arr(j, "scheduler_order");
	for (int s = 0; s < r->nsched; s++)
		gs_jw_str(j, NULL, r->sched[s].label);
	gs_jw_arr_end(j);
	gs_jw_obj(j, "schedulers");
	for (int s = 0; s < r->nsched; s++) {
		const struct gsu_sched *sc = &r->sched[s];

		gs_jw_obj(j, sc->label);
		gs_jw_int(j, "index", s);
		gs_jw_bool(j, "baseline", s == 0);
		gs_jw_bool(j, "kernel_default", sc->is_default);
		gs_jw_str(j, "command", sc->is_default ? "" : sc->command);
		gs_jw_str(j, "expected_ops", sc->expected_ops);
		gs_jw_str(j, "status", gsu_sched_status_name(sc->status));
		gs_jw_str(j, "note", sc->note);
		{
			int a, d;

			gsu_sched_discards(r, s, &a, &d);
			gs_jw_int(j, "attempts", a);
			gs_jw_int(j, "discarded_disturbed", d);
		}
		gs_jw_obj_end(j);
	}
	gs_jw_obj_end(j);
}

/* each workload's metrics, per scheduler */
static void json_workloads(struct gs_jw *j, const struct gsu_results *r,
			   const struct gsu_table *t)
{
	const struct gsu_suite *su = r->suite;

	gs_jw_obj(j, "workloads");
	for (int w = 0; w < su->nw; w++) {
		const struct gsu_workload *wl = &su->w[w];
		const struct gsu_metric_def *defs;
		size_t nm = gsu_kind_metrics(wl->kind, &defs);
		char desc[600];

		gsu_describe_workload(su, wl, desc, sizeof(desc));
		gs_jw_obj(j, wl->name);
		gs_jw_str(j, "kind", gsu_kind_name(wl->kind));
		gs_jw_str(j, "description", desc);
		gs_jw_str(j, "status", wl->available ? "run" : "skipped");
		gs_jw_str(j, "note", wl->skip_reason);
		if (gsu_kind_has_frames(wl->kind)) {
			gs_jw_uint(j, "frames_min", gsu_min_frames(r, w));
			gs_jw_bool(j, "low01_unreliable",
				   gsu_min_frames(r, w) < 1000);
		}
		gs_jw_obj(j, "metrics");
		for (size_t m = 0; wl->available && m < nm; m++) {
			gs_jw_obj(j, defs[m].name);
			gs_jw_str(j, "unit", defs[m].unit);
			gs_jw_str(j, "better", gsu_metric_better(&defs[m]));
			gs_jw_str(j, "description", defs[m].desc);
			gs_jw_obj(j, "schedulers");
			for (int s = 0; s < r->nsched; s++)
				cell_json(j, r->sched[s].label,
					  gsu_table_cell(t, w, (int)m, s),
					  s == 0);
			gs_jw_obj_end(j);
			gs_jw_obj_end(j);
		}
		gs_jw_obj_end(j);
		gs_jw_obj_end(j);
	}
	gs_jw_obj_end(j);
}

/* what became of the runs */
static void json_summary(struct gs_jw *j, const struct gsu_results *r,
			 const struct gsu_counts *c)
{
	gs_jw_obj(j, "summary");
	gs_jw_int(j, "planned", r->planned);
	gs_jw_int(j, "runs", c->runs);
	gs_jw_int(j, "skipped", r->skipped);
	gs_jw_int(j, "warmup", c->warmup_done);
	gs_jw_int(j, "measured", c->measured);
	gs_jw_int(j, "kept", c->kept);
	gs_jw_int(j, "discarded_disturbed", c->by_status[GSU_RUN_DISTURBED]);
	gs_jw_int(j, "repeated", c->repeated);
	gs_jw_int(j, "kept_disturbed",
		  r->set.keep_disturbed ? c->disturbed_flagged : 0);
	gs_jw_int(j, "wrong_scheduler", c->by_status[GSU_RUN_WRONG_SCHED]);
	gs_jw_int(j, "ejected", c->by_status[GSU_RUN_EJECTED]);
	gs_jw_int(j, "load_failed", c->by_status[GSU_RUN_LOAD_FAILED]);
	gs_jw_int(j, "workload_failed", c->by_status[GSU_RUN_CRASHED]);
	gs_jw_int(j, "timed_out", c->by_status[GSU_RUN_TIMEOUT]);
	gs_jw_int(j, "interrupted_runs", c->by_status[GSU_RUN_INTERRUPTED]);
	gs_jw_bool(j, "interrupted", r->interrupted);
	gs_jw_bool(j, "machine_restored", r->machine_restored);
	{
		char bias[512];

		gsu_discard_bias(r, bias, sizeof(bias));
		gs_jw_str(j, "discard_bias", bias);
	}
	gs_jw_obj_end(j);
}

static int write_json(FILE *f, const void *ctx)
{
	const struct gsu_results *r = ((const struct gsu_out *)ctx)->r;
	const struct gsu_table *t = ((const struct gsu_out *)ctx)->t;
	struct gsu_counts c;
	struct gs_jw j;

	gsu_count(r, &c);
	gs_jw_init(&j, f, true);
	gs_jw_obj(&j, NULL);
	json_head(&j, r);
	json_schedulers(&j, r);
	json_workloads(&j, r, t);
	json_summary(&j, r, &c);
	gs_jw_arr(&j, "runs");
	for (int i = 0; i < r->nruns; i++)
		run_json(&j, r, &r->runs[i]);
	gs_jw_arr_end(&j);
	gs_jw_obj_end(&j);
	gs_jw_done(&j);
	return 0;
}

int gsu_out_json(const char *path, const struct gsu_results *r,
		 const struct gsu_table *t)
{
	struct gsu_out o = { r, t };

	return gs_write_output("--json", path, write_json, &o);
}
