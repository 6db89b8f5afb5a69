/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz harnesses do with a trace they could read: the whole
 * pipeline a user would run (model, report with explanations, JSON, HTML,
 * Perfetto export), into /dev/null. Anything it does must not crash.
 */
#ifndef FT_FUZZ_COMMON_H
#define FT_FUZZ_COMMON_H

#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "export/report.h"
#include "trace/trace.h"

static inline void ft_fuzz_pipeline(struct ft_trace *t)
{
	struct ft_report r;
	struct ft_report_opts o = { .top = 5, .explain = 3, .name = "fuzz" };
	FILE *null = fopen("/dev/null", "w");

	if (!null)
		return;
	memset(&r, 0, sizeof(r));
	if (t->nev <= 200000 && !ft_report_build(&r, t, &o)) {
		ft_report_text(null, &r);
		ft_report_json(null, &r);
		ft_report_html(null, &r);
		ft_report_dot(null, &r);
	}
	ft_report_free(&r);
	ft_export_ftrace(null, t);
	ft_export_json(null, t, 100);
	fclose(null);
}

#endif
