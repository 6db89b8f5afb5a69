// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report as JSON (report.h). */
#include "report.h"

#include "json.h"
#include "trace/steal.h"

static void jw_hist(struct gs_jw *w, const char *key, const struct gs_hist *h,
		    bool with_max)
{
	gs_jw_obj(w, key);
	gs_jw_uint(w, "count", h ? h->count : 0);
	gs_jw_uint(w, "p50", h && h->count ? gs_hist_pct(h, 50) : 0);
	gs_jw_uint(w, "p99", h && h->count ? gs_hist_pct(h, 99) : 0);
	if (with_max)
		gs_jw_uint(w, "max", h && h->count ? h->max : 0);
	gs_jw_obj_end(w);
}

static void jw_link(struct gs_jw *w, const struct ft_report *r,
		    const struct ft_link *l)
{
	gs_jw_obj(w, NULL);
	gs_jw_uint(w, "tid", l->tid);
	gs_jw_str(w, "comm", ft_task_comm(r->t, l->tid));
	gs_jw_uint(w, "woken_by", l->waker);
	gs_jw_bool(w, "woken_by_interrupt", l->waker_irq || !l->waker);
	gs_jw_uint(w, "wake_ns", l->wake_ts);
	gs_jw_uint(w, "end_ns", l->end_ts);
	gs_jw_uint(w, "runnable_ns", l->runnable_ns);
	gs_jw_uint(w, "run_ns", l->run_ns);
	gs_jw_uint(w, "sleep_ns", l->sleep_ns);
	gs_jw_uint(w, "lock_wait_ns", l->lock_wait_ns);
	gs_jw_uint(w, "timer_wait_ns", l->timer_wait_ns);
	gs_jw_uint(w, "preemptions", l->preemptions);
	gs_jw_uint(w, "cpu", l->cpu);
	gs_jw_bool(w, "other_cpus_busy", l->siblings_busy);
	gs_jw_uint(w, "own_cpu_idle_ns", l->own_idle_ns);
	gs_jw_arr(w, "cpu_held_by");
	for (int k = 0; k < l->nholders; k++) {
		gs_jw_obj(w, NULL);
		gs_jw_uint(w, "tid", l->holder[k].tid);
		gs_jw_str(w, "comm", ft_task_comm(r->t, l->holder[k].tid));
		gs_jw_uint(w, "cpu", l->holder[k].cpu);
		gs_jw_uint(w, "ns", l->holder[k].ns);
		gs_jw_str(w, "why", ft_why_text(l->holder[k].why));
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_obj_end(w);
}

static void jw_explain(struct gs_jw *w, const char *key,
		       const struct ft_report *r, const struct ft_explain *x)
{
	const struct ft_frame *f = &r->t->frames[x->frame];

	gs_jw_obj(w, key);
	gs_jw_uint(w, "frame", x->frame);
	gs_jw_uint(w, "start_ns", f->start_ns);
	gs_jw_uint(w, "present_ns", f->present_ns);
	gs_jw_num(w, "frametime_ms", (double)f->frametime_ns / 1e6);
	gs_jw_bool(w, "disturbance", f->disturbance != 0);
	gs_jw_bool(w, "trigger", x->frame == r->trig_frame);
	gs_jw_uint(w, "presenter", x->presenter);
	gs_jw_str(w, "chain_end", ft_stop_text(x->stop));
	gs_jw_arr(w, "links");
	for (int i = 0; i < x->nlinks; i++)
		jw_link(w, r, &x->link[i]);
	gs_jw_arr_end(w);
	if (x->origin < 0) {
		gs_jw_null(w, "origin");
	} else {
		gs_jw_obj(w, "origin");
		gs_jw_int(w, "link", x->origin);
		gs_jw_uint(w, "tid", x->link[x->origin].tid);
		gs_jw_str(w, "what", x->origin_what);
		gs_jw_int(w, "excess_ns", x->origin_excess_ns);
		gs_jw_int(w, "median_link", x->origin_match);
		/* "link": its own link in the median chain; "pool": its
		 * pool's longest there; "typical": its own medians */
		gs_jw_str(w, "baseline", x->origin_pool ? "pool"
					 : x->origin_match >= 0 ? "link" : "typical");
		gs_jw_bool(w, "exceeds_frame", x->origin_exceeds);
		gs_jw_obj_end(w);
	}
	gs_jw_int(w, "frame_excess_ns", x->frame_excess_ns);
	gs_jw_obj_end(w);
}

/* the input and what its reading found */
static void json_head(struct gs_jw *w, const struct ft_report *r)
{
	const struct ft_trace *t = r->t;

	gs_jw_str(w, "input", r->o.name ? r->o.name : "");
	gs_jw_str(w, "source", ft_meta_get(t, "source") ? ft_meta_get(t, "source") : "");
	gs_jw_uint(w, "start_ns", r->m.start_ns);
	gs_jw_uint(w, "end_ns", r->m.end_ns);
	gs_jw_uint(w, "ncpus", r->m.ncpus);
	gs_jw_uint(w, "events", t->nev);
	gs_jw_uint(w, "lost_events", t->lost_events);
	gs_jw_uint(w, "corrupted_events", t->corrupt_events);
	gs_jw_uint(w, "corrupted_bytes", t->corrupt_bytes);
	{
		struct ft_steal_sum st;

		if (!ft_steal_meta_get(t, &st)) {
			gs_jw_obj(w, "host_steal");
			gs_jw_uint(w, "total_ns", st.total_ns);
			gs_jw_uint(w, "span_ns", st.span_ns);
			gs_jw_int(w, "ncpus", st.ncpus);
			gs_jw_arr(w, "top");
			for (int k = 0; k < st.ntop; k++) {
				gs_jw_obj(w, NULL);
				gs_jw_uint(w, "cpu", st.top_cpu[k]);
				gs_jw_uint(w, "ns", st.top_ns[k]);
				gs_jw_obj_end(w);
			}
			gs_jw_arr_end(w);
			gs_jw_obj_end(w);
		} else {
			gs_jw_null(w, "host_steal");
		}
	}
	gs_jw_uint(w, "reconstructed_switches", t->reconstructed);
	gs_jw_uint(w, "repaired_switches_other", t->inconsistent);
	gs_jw_uint(w, "timeline_contradictions", t->contradictions);
	gs_jw_str(w, "irq_context", r->irq_context ? r->irq_context : "unknown");
	gs_jw_str(w, "irq_context_stuck_cpus", r->irq_suspect);
	gs_jw_bool(w, "partial", t->partial);
	if (t->partial)
		gs_jw_str(w, "warning", t->warning);
	else
		gs_jw_null(w, "warning");
	gs_jw_str(w, "runtime_source", r->m.runtime_source);
	if (ft_meta_get(t, "processes"))
		gs_jw_str(w, "processes_inferred", ft_meta_get(t, "processes"));
	else
		gs_jw_null(w, "processes_inferred");
}

/* each task's figures, in the report's order */
static void json_tasks(struct gs_jw *w, const struct ft_report *r)
{
	const struct ft_trace *t = r->t;

	gs_jw_arr(w, "tasks");
	for (size_t k = 0; k < r->norder; k++) {
		const struct ft_tstat *s = &r->m.task[r->order[k]];

		gs_jw_obj(w, NULL);
		gs_jw_uint(w, "tid", s->tid);
		gs_jw_uint(w, "pid", s->pid);
		gs_jw_str(w, "comm", ft_task_comm(t, s->tid));
		gs_jw_str(w, "process", s->pid ? ft_task_comm(t, s->pid) : "?");
		gs_jw_uint(w, "runtime_ns", s->runtime_ns);
		gs_jw_uint(w, "runtime_bursts_ns", s->runtime_bursts_ns);
		gs_jw_uint(w, "switches", s->switches);
		gs_jw_uint(w, "switches_recorded", s->switches_recorded);
		gs_jw_uint(w, "switches_repaired", s->repaired);
		gs_jw_uint(w, "preempted", s->preempted);
		/* false: preempted 0 and wakeup_latency_ns empty, not
		 * measured (model.h) */
		gs_jw_bool(w, "switch_outs_seen", !s->switchouts_unseen);
		gs_jw_uint(w, "migrations", s->migrations);
		gs_jw_uint(w, "wakeups", s->wakeups);
		gs_jw_uint(w, "wakes_sent", s->wakes_sent);
		gs_jw_num(w, "wake_rate_hz", (double)s->wakeups / ft_report_span_s(r));
		jw_hist(w, "run_ns", s->run, true);
		gs_jw_num(w, "run_cv", ft_tstat_cv(s));
		jw_hist(w, "sleep_ns", s->sleep, true);
		jw_hist(w, "wakeup_latency_ns", s->wlat, true);
		gs_jw_obj(w, "futex");
		gs_jw_uint(w, "waits", s->futex_waits);
		gs_jw_uint(w, "wait_ns", s->futex_wait_ns);
		gs_jw_uint(w, "max_wait_ns", s->futex_wait_max_ns);
		gs_jw_uint(w, "wakes", s->futex_wakes);
		gs_jw_obj_end(w);
		gs_jw_num(w, "latency_score", s->lat_score);
		gs_jw_bool(w, "recorder", s->recorder);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
}

/* who wakes whom: the critical tasks, the graph and the chains */
static void json_graph(struct gs_jw *w, const struct ft_report *r)
{
	gs_jw_arr(w, "latency_critical");
	for (size_t k = 0; k < r->ncrit && k < (size_t)r->o.top; k++)
		gs_jw_uint(w, NULL, r->m.task[r->crit[k]].tid);
	gs_jw_arr_end(w);
	gs_jw_arr(w, "wake_graph");
	for (size_t k = 0; k < r->m.nedge; k++) {
		const struct ft_edge *e = &r->m.edge[r->edges[k]];

		gs_jw_obj(w, NULL);
		gs_jw_uint(w, "waker", e->waker);
		gs_jw_uint(w, "wakee", e->wakee);
		gs_jw_uint(w, "count", e->count);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_arr(w, "wake_chains");
	for (size_t k = 0; k < r->m.nchain && k < 20; k++) {
		const struct ft_chain *c = &r->m.chain[r->chains[k]];

		gs_jw_obj(w, NULL);
		gs_jw_arr(w, "tids");
		for (int i = 0; i < c->len; i++)
			gs_jw_uint(w, NULL, c->tid[i]);
		gs_jw_arr_end(w);
		gs_jw_uint(w, "count", c->count);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
}

/* the frames and the explanations of the slow ones */
static void json_frames(struct gs_jw *w, const struct ft_report *r)
{
	if (r->has_fps) {
		gs_jw_obj(w, "frames");
		gs_jw_uint(w, "pid", r->frame_pid);
		gs_jw_str(w, "source", r->frame_source);
		gs_jw_uint(w, "count", r->fps.frames);
		gs_jw_fps_summary(w, &r->fps);
		gs_jw_num(w, "slow_threshold_ms", r->slow_ms);
		/* "median": the frames' own; "trigger": a watch capture's
		 * running median before its trigger */
		gs_jw_num(w, "baseline_ms", r->median_ms);
		gs_jw_str(w, "baseline", r->trigger_baseline ? "trigger" : "median");
		gs_jw_uint(w, "slow_count", r->nslow);
		gs_jw_uint(w, "disturbed_count", r->ndisturbed);
		gs_jw_obj_end(w);
		if (r->has_median)
			jw_explain(w, "median_frame", r, &r->median);
		else
			gs_jw_null(w, "median_frame");
		gs_jw_arr(w, "slow_frames");
		for (size_t k = 0; k < r->nex; k++)
			jw_explain(w, NULL, r, &r->ex[k]);
		gs_jw_arr_end(w);
	} else {
		/* every documented key, null without frames */
		gs_jw_null(w, "frames");
		gs_jw_null(w, "median_frame");
		gs_jw_null(w, "slow_frames");
	}
}

void ft_report_json(FILE *f, const struct ft_report *r)
{
	struct gs_jw w;

	gs_jw_init(&w, f, true);
	gs_jw_obj(&w, NULL);
	json_head(&w, r);
	json_tasks(&w, r);
	json_graph(&w, r);
	json_frames(&w, r);
	gs_jw_obj_end(&w);
	gs_jw_done(&w);
}
