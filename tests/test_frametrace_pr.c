// SPDX-License-Identifier: GPL-2.0-only
/* The derived-profile tests' shared fixture (test_frametrace_pr.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "profile/profile_fit.h"
#include "test_frametrace_pr.h"

void pr_analyze(struct pr_fixture *f, int64_t step_ns)
{
	struct ft_pr_opts o = { .step_ns = step_ns };

	assert_int_equal(ft_model_build(&f->m, &f->t), 0);
	f->rc = ft_pr_analyze(&f->a, &f->m, &o, f->err, sizeof(f->err));
}

void pr_done(struct pr_fixture *f)
{
	ft_pr_free(&f->a);
	ft_model_free(&f->m);
	ft_trace_free(&f->t);
	free(f);
}

double pr_mean(const struct ft_pr_step *s)
{
	return ft_pf_dist_mean(&s->dist);
}
