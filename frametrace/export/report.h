/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frametrace report: per-task statistics, the wake graph and chains, the
 * latency-critical ranking, futex waits, frame statistics and the slow
 * frames explained against the median frame; as terminal text, JSON,
 * Graphviz dot and a self-contained HTML page.
 */
#ifndef FT_REPORT_H
#define FT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/explain.h"
#include "analysis/model.h"
#include "stats.h"

struct ft_report_opts {
	int top;		/* rows per table (default 15) */
	double slow_ms;		/* slow-frame threshold; 0 = 2x median */
	int explain;		/* slow frames to explain (default 5) */
	uint32_t pid;		/* frames of this process (0: the busiest) */
	const char *name;	/* input name for the header */
};

struct ft_report {
	const struct ft_trace *t;
	struct ft_report_opts o;
	struct ft_model m;
	size_t *order;		/* task indices by CPU time, idle excluded */
	size_t norder;
	size_t *crit;		/* task indices by latency criticality */
	size_t ncrit;
	size_t *edges;		/* edge indices by count */
	size_t *chains;		/* chain indices by count */
	size_t *futex;		/* task indices by futex wait time */
	size_t nfutex;
	/* frames of one process, by present time */
	uint32_t frame_pid;
	char frame_source[160];	/* "framebench feed", "present calls (...)" */
	uint32_t presenter;	/* dominant presenting thread */
	size_t *fidx;
	size_t nf;
	bool has_fps;
	struct gs_fps_summary fps;
	double median_ms, slow_ms;
	/* a watch capture: median_ms is the running median before its
	 * trigger (its window's own frames may all be slow, a long
	 * disturbance), and the trigger's frame is explained first */
	bool trigger_baseline;
	size_t trig_frame;	/* frame index, SIZE_MAX none */
	size_t *slow;		/* frame indices above slow_ms, worst first */
	size_t nslow;
	size_t ndisturbed;	/* frames flagged by framebench's --disturb */
	struct ft_explain *ex;	/* explained slow frames */
	size_t nex;
	struct ft_explain median;
	bool has_median;
	/* wake-ups made by interrupts: whether the input tells them apart
	 * ("bpf", "flags", "none", "unknown"), and the CPUs where nearly
	 * all were marked as made by interrupts although tasks there woke
	 * others through futexes (an interrupt depth that was stuck) */
	const char *irq_context;
	char irq_suspect[160];
	uint64_t irq_suspect_irq, irq_suspect_wakes;
};

int ft_report_build(struct ft_report *r, const struct ft_trace *t,
		    const struct ft_report_opts *o);
void ft_report_free(struct ft_report *r);

void ft_report_text(FILE *f, const struct ft_report *r);
void ft_report_json(FILE *f, const struct ft_report *r);
void ft_report_dot(FILE *f, const struct ft_report *r);
void ft_report_html(FILE *f, const struct ft_report *r);

/* One slow frame's explanation as text lines (also used by watch notes). */
void ft_explain_print(FILE *f, const struct ft_report *r,
		      const struct ft_explain *x, const char *indent);

/* The trace's span in seconds; 1 when empty (rates divide by it). */
double ft_report_span_s(const struct ft_report *r);

/* "12.3 us", "4.56 ms", "1.23 s" */
const char *ft_fmt_ns(char *buf, size_t len, uint64_t ns);
/* "comm:tid" */
const char *ft_task_label(const struct ft_trace *t, uint32_t tid, char *buf,
			  size_t len);

#endif
