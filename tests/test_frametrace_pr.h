/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the derived-profile tests (test_frametrace_profile.c,
 * test_frametrace_overlap.c) share: a hand-made trace, its timeline and
 * the analysis `frametrace profile` makes of it.
 */
#ifndef TEST_FRAMETRACE_PR_H
#define TEST_FRAMETRACE_PR_H

#include <stdint.h>

#include "analysis/model.h"
#include "profile/pipeline.h"
#include "trace/trace.h"

struct pr_fixture {
	struct ft_trace t;
	struct ft_model m;
	struct ft_pr_analysis a;
	char err[1024];
	int rc;
};

/* The timeline of f->t, then the analysis with steps of step_ns (0: the
 * default); f->rc and f->err say how it went. */
void pr_analyze(struct pr_fixture *f, int64_t step_ns);
/* Frees everything and f itself (calloc'd). */
void pr_done(struct pr_fixture *f);
/* A step's mean duration. */
double pr_mean(const struct ft_pr_step *s);

#endif
