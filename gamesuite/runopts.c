// SPDX-License-Identifier: GPL-2.0-only
/* The options gamesuite run and tune share (runopts.h). */
#include "runopts.h"

#include "sysinfo.h"
#include "util.h"

void gsu_run_opts_init(struct gsu_run_opts *o)
{
	*o = (struct gsu_run_opts){
		.set = {
			.bootstrap_iters = 2000,
			.max_other_cpu = 0.10,
			.max_busy_before = 0.20,
			.retries = 2,
			.load_timeout_ns = 60 * NSEC_PER_SEC,
			.stop_timeout_ns = 15 * NSEC_PER_SEC,
			.settle_ns = 10 * NSEC_PER_SEC,
			.scx_root = GS_SCX_ROOT,
			.confidence = 0.95,
		},
	};
}

void gsu_run_opts_check(const struct gsu_run_opts *o)
{
	/* a probe within its best time is no sign of anything */
	if (o->set.probe_factor > 0 && o->set.probe_factor <= 1)
		gs_die(EXIT_USAGE, "option --probe-factor: expected 0 (off) or a "
		       "number above 1, got '%g'", o->set.probe_factor);
}

void gsu_run_opts_apply(const struct gsu_run_opts *o, struct gsu_suite *su)
{
	if (o->duration_ns)
		su->duration_ns = o->duration_ns;
	if (o->cooldown_given)
		su->cooldown_ns = o->cooldown_ns;
}
