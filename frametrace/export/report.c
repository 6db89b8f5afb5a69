// SPDX-License-Identifier: GPL-2.0-only
/* frametrace report: the tables and slow frames it presents, sorted and
 * explained (report.h); report_text.c, report_json.c, report_dot.c and
 * html.c print them. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framefeed.h"
#include "trace/present.h"

const char *ft_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	return buf;
}

const char *ft_task_label(const struct ft_trace *t, uint32_t tid, char *buf,
			  size_t len)
{
	snprintf(buf, len, "%s:%u", ft_task_comm(t, tid), tid);
	return buf;
}

static const struct ft_report *sort_r;

static int by_runtime(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_score(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->lat_score != y->lat_score)
		return x->lat_score < y->lat_score ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_futex(const void *a, const void *b)
{
	const struct ft_tstat *x = &sort_r->m.task[*(const size_t *)a];
	const struct ft_tstat *y = &sort_r->m.task[*(const size_t *)b];

	if (x->futex_wait_ns != y->futex_wait_ns)
		return x->futex_wait_ns < y->futex_wait_ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_edge(const void *a, const void *b)
{
	const struct ft_edge *x = &sort_r->m.edge[*(const size_t *)a];
	const struct ft_edge *y = &sort_r->m.edge[*(const size_t *)b];

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int by_chain(const void *a, const void *b)
{
	const struct ft_chain *x = &sort_r->m.chain[*(const size_t *)a];
	const struct ft_chain *y = &sort_r->m.chain[*(const size_t *)b];

	/* longer chains first at equal count: they say more */
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int by_frametime_desc(const void *a, const void *b)
{
	const struct ft_frame *x = &sort_r->t->frames[*(const size_t *)a];
	const struct ft_frame *y = &sort_r->t->frames[*(const size_t *)b];

	if (x->frametime_ns != y->frametime_ns)
		return x->frametime_ns < y->frametime_ns ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *iota(size_t n)
{
	size_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (v)
		for (size_t i = 0; i < n; i++)
			v[i] = i;
	return v;
}

/* Where the report's frames came from, in words. */
static void frame_source(struct ft_report *r)
{
	const struct ft_trace *t = r->t;
	const struct ft_frame *f;

	if (!r->nf)
		return;
	f = &t->frames[r->fidx[0]];
	if (f->flags & FT_FRAME_FEED)
		snprintf(r->frame_source, sizeof(r->frame_source),
			 "framebench feed");
	else if (f->flags & FT_FRAME_MARKER)
		snprintf(r->frame_source, sizeof(r->frame_source),
			 "trace markers");
	else if (f->flags & FT_FRAME_MANGOHUD)
		snprintf(r->frame_source, sizeof(r->frame_source),
			 "MangoHud log");
	else if (f->flags & FT_FRAME_PRESENT) {
		const char *fn = "?";

		for (size_t i = 0; i < t->nev; i++)
			if (t->ev[i].type == FT_EV_PRESENT &&
			    t->ev[i].tid == f->tid) {
				fn = ft_str_get(t, t->ev[i].arg2);
				break;
			}
		snprintf(r->frame_source, sizeof(r->frame_source),
			 "present calls (%s) of %s:%u", fn,
			 ft_task_comm(t, f->tid), f->tid);
	}
}

/*
 * Wake-ups from interrupts. A CPU whose wake-ups (100 or more) are 98 %
 * marked as made by an interrupt while the tasks on it made 20 or more
 * futex wake calls (or, with the futex source "sched", 20 or more of
 * those wake-ups ended a futex wait) had its interrupt depth stuck (a recording before the
 * exits were attached first and sched_switch reset the depth): the task
 * edges of that CPU are missing.
 */
static void irq_check(struct ft_report *r)
{
	const struct ft_trace *t = r->t;
	const char *src = ft_meta_get(t, "source");
	uint32_t n = r->m.ncpus;
	uint64_t *wk, *irq, *fw;
	struct ft_map fsleep;	/* tid -> asleep in a futex wait */
	bool has_waking = false;
	size_t o = 0;

	r->irq_context = ft_meta_get(t, "irq_context");
	if (!r->irq_context)
		r->irq_context = src && (!strcmp(src, "record") ||
					 !strcmp(src, "watch"))
					 ? "bpf" : "unknown";
	if (!n)
		return;
	wk = calloc(n, sizeof(*wk));
	irq = calloc(n, sizeof(*irq));
	fw = calloc(n, sizeof(*fw));
	if (!wk || !irq || !fw)
		goto out;
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_WAKING)
			has_waking = true;
	ft_map_init(&fsleep);
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];

		if (e->cpu >= n)
			continue;
		if (e->type == (has_waking ? FT_EV_WAKING : FT_EV_WAKEUP)) {
			uint32_t *v = ft_map_get(&fsleep, e->tid);

			wk[e->cpu]++;
			irq[e->cpu] += (e->flags & FT_F_IRQ) != 0;
			/* futex source "sched": the wake-up of a task asleep
			 * in a futex wait, which a futex wake call ends */
			if (v && *v)
				fw[e->cpu]++;
			if (v)
				*v = 0;
		} else if (e->type == FT_EV_FUTEX &&
			   ft_futex_is_wake((uint16_t)(e->arg & 0xffff))) {
			fw[e->cpu]++;
		} else if (e->type == FT_EV_SWITCH && e->tid &&
			   (e->flags & FT_F_FUTEX_SLEEP)) {
			uint32_t *v = ft_map_put(&fsleep, e->tid, 1, NULL);

			if (v)
				*v = 1;
		}
	}
	ft_map_free(&fsleep);
	for (uint32_t c = 0; c < n; c++)
		if (wk[c] >= 100 && irq[c] * 100 >= wk[c] * 98 && fw[c] >= 20) {
			int w = snprintf(r->irq_suspect + o,
					 sizeof(r->irq_suspect) - o, "%sCPU%u",
					 o ? ", " : "", c);

			if (w > 0 && (size_t)w < sizeof(r->irq_suspect) - o)
				o += (size_t)w;
			r->irq_suspect_irq += irq[c];
			r->irq_suspect_wakes += wk[c];
		}
out:
	free(wk);
	free(irq);
	free(fw);
}

/* A number a watch capture's metadata holds (decimal), 0 when absent or
 * not a number. */
static uint64_t meta_u64(const struct ft_trace *t, const char *key)
{
	const char *v = ft_meta_get(t, key);
	char *end;
	unsigned long long n;

	if (!v || *v < '0' || *v > '9')
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	return errno || *end ? 0 : (uint64_t)n;
}

/* A watch capture's trigger: its running median as the baseline, and
 * its frame (within 1 ms of the time the capture names). */
static void report_trigger(struct ft_report *r, const struct ft_trace *t)
{
	uint64_t med = meta_u64(t, "trigger_median_ns");
	uint64_t at = meta_u64(t, "trigger_frame_ns"), bd = 1000000;

	r->trig_frame = SIZE_MAX;
	if (med && r->has_fps && !r->o.slow_ms) {
		r->median_ms = (double)med / 1e6;
		r->trigger_baseline = true;
	}
	for (size_t k = 0; at && k < r->nf; k++) {
		uint64_t p = t->frames[r->fidx[k]].present_ns;
		uint64_t d = p > at ? p - at : at - p;

		if (d < bd) {
			bd = d;
			r->trig_frame = r->fidx[k];
		}
	}
}

static bool frame_counts(const struct ft_frame *f)
{
	return !(f->flags & GS_FEED_F_WARMUP);
}

/* The frames of one process (o->pid, else the one with the most), their
 * FPS figures and the slow ones, slowest first. */
static int report_frames(struct ft_report *r, const struct ft_trace *t,
			 const struct ft_report_opts *o)
{
	uint32_t pid = o->pid;
	double *ft;
	size_t *tmp;

	if (!pid) {
		/* the process with the most frames */
		struct ft_map cnt;
		uint32_t best = 0;

		ft_map_init(&cnt);
		for (size_t i = 0; i < t->nframes; i++) {
			uint32_t *c = ft_map_put(&cnt, t->frames[i].pid, 0,
						 NULL);

			if (c && ++*c > best) {
				best = *c;
				pid = t->frames[i].pid;
			}
		}
		ft_map_free(&cnt);
	}
	r->frame_pid = pid;
	r->fidx = malloc(t->nframes * sizeof(size_t));
	ft = malloc(t->nframes * sizeof(double));
	if (!r->fidx || !ft) {
		free(ft);
		return -1;
	}
	for (size_t i = 0; i < t->nframes; i++)
		if (t->frames[i].pid == pid && frame_counts(&t->frames[i]) &&
		    t->frames[i].frametime_ns) {
			ft[r->nf] = (double)t->frames[i].frametime_ns / 1e6;
			r->fidx[r->nf++] = i;
			if (t->frames[i].disturbance)
				r->ndisturbed++;
		}
	frame_source(r);
	if (r->nf && !gs_fps_summarize(ft, r->nf, 0, NULL, &r->fps)) {
		r->has_fps = true;
		r->median_ms = r->fps.ft_p50;
	}
	free(ft);
	report_trigger(r, t);
	r->slow_ms = o->slow_ms > 0 ? o->slow_ms : 2 * r->median_ms;
	tmp = malloc((r->nf ? r->nf : 1) * sizeof(size_t));
	if (!tmp)
		return -1;
	for (size_t k = 0; k < r->nf; k++)
		if ((double)t->frames[r->fidx[k]].frametime_ns / 1e6 >
		    r->slow_ms)
			tmp[r->nslow++] = r->fidx[k];
	qsort(tmp, r->nslow, sizeof(size_t), by_frametime_desc);
	r->slow = tmp;
	return 0;
}

/* The median frame and the slow frames explained, each against it. */
static int report_explain(struct ft_report *r, const struct ft_trace *t)
{
	size_t best = 0;
	double bd = 1e300;

	r->presenter = ft_dominant_presenter(&r->m, r->frame_pid);
	for (size_t k = 0; k < r->nf; k++) {
		double d = fabs((double)t->frames[r->fidx[k]].frametime_ns / 1e6 -
				r->median_ms);

		/* prefer a median frame in the middle of the run */
		if (d < bd - 1e-9) {
			bd = d;
			best = r->fidx[k];
		}
	}
	r->has_median = !ft_explain_frame(&r->m, best, r->presenter, &r->median);
	r->ex = calloc((size_t)r->o.explain + 1, sizeof(*r->ex));
	if (!r->ex)
		return -1;
	/* a capture's trigger frame first: the frame its header names */
	if (r->trig_frame != SIZE_MAX && r->o.explain > 0 &&
	    !ft_explain_frame(&r->m, r->trig_frame, r->presenter, &r->ex[0])) {
		ft_explain_compare(&r->m, &r->ex[0], r->has_median ? &r->median : NULL);
		r->nex++;
	}
	for (size_t k = 0; k < r->nslow && r->nex < (size_t)r->o.explain; k++)
		if (r->slow[k] != r->trig_frame &&
		    !ft_explain_frame(&r->m, r->slow[k], r->presenter,
				     &r->ex[r->nex])) {
			ft_explain_compare(&r->m, &r->ex[r->nex],
					   r->has_median ? &r->median : NULL);
			r->nex++;
		}
	return 0;
}

int ft_report_build(struct ft_report *r, const struct ft_trace *t,
		    const struct ft_report_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->trig_frame = SIZE_MAX;
	r->t = t;
	r->o = *o;
	if (r->o.top <= 0)
		r->o.top = 15;
	if (r->o.explain < 0)
		r->o.explain = 0;
	if (ft_model_build(&r->m, t))
		return -1;
	sort_r = r;

	/* task orders (idle excluded) */
	r->order = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->crit = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->futex = malloc((r->m.ntask ? r->m.ntask : 1) * sizeof(size_t));
	r->edges = iota(r->m.nedge);
	r->chains = iota(r->m.nchain);
	if (!r->order || !r->crit || !r->futex || !r->edges || !r->chains)
		return -1;
	for (size_t i = 0; i < r->m.ntask; i++) {
		const struct ft_tstat *s = &r->m.task[i];

		if (!s->tid)
			continue;
		if (s->runtime_ns || s->switches || s->wakeups || s->futex_waits)
			r->order[r->norder++] = i;
		if (s->wakeups || s->wakes_sent)
			r->crit[r->ncrit++] = i;
		if (s->futex_waits)
			r->futex[r->nfutex++] = i;
	}
	qsort(r->order, r->norder, sizeof(size_t), by_runtime);
	qsort(r->crit, r->ncrit, sizeof(size_t), by_score);
	qsort(r->futex, r->nfutex, sizeof(size_t), by_futex);
	qsort(r->edges, r->m.nedge, sizeof(size_t), by_edge);
	qsort(r->chains, r->m.nchain, sizeof(size_t), by_chain);
	irq_check(r);

	/* frames of one process */
	if (!t->nframes)
		return 0;
	if (report_frames(r, t, o))
		return -1;
	/* the median frame and the explained slow frames */
	if (r->has_fps && r->m.nseg)
		return report_explain(r, t);
	return 0;
}

void ft_report_free(struct ft_report *r)
{
	ft_model_free(&r->m);
	free(r->order);
	free(r->crit);
	free(r->futex);
	free(r->edges);
	free(r->chains);
	free(r->fidx);
	free(r->slow);
	free(r->ex);
	memset(r, 0, sizeof(*r));
}

double ft_report_span_s(const struct ft_report *r)
{
	double s = (double)(r->m.end_ns - r->m.start_ns) / 1e9;

	return s > 0 ? s : 1;
}
