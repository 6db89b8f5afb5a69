// SPDX-License-Identifier: GPL-2.0-only
/* lavd --eevdf: the checks before a run, --check --eevdf and --restore
 * (eevdf_run.h). */
#include "eevdf_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eevdf_kernel.h"
#include "util.h"

/* The levers asked for, less those this kernel lacks when they were
 * only the default's; -2 (usage) when an asked-for lever cannot work. */
static int resolve_levers(const struct lavd_eevdf_cfg *cfg,
			  const struct eevdf_kernel *k, struct eevdf_levers *lv,
			  char *err, size_t errlen)
{
	int mask = cfg->levers ? eevdf_levers_parse(cfg->levers, err, errlen)
			       : (int)EEVDF_LV_DEFAULT;

	if (mask < 0)
		return -EXIT_USAGE;
	*lv = (struct eevdf_levers){
		.mask = (unsigned)mask, .crit_nice = cfg->crit_nice,
		.bg_nice = cfg->bg_nice, .slice_ns = cfg->slice_ns,
		.uclamp_min = cfg->uclamp_min, .fifo_prio = 1,
		.base_slice_ns = k->base_slice_ns,
	};
	if (!k->tracepoints) {
		snprintf(err, errlen, "this kernel lacks %s: lavd --eevdf cannot "
			 "observe tasks", k->tp_missing);
		return -EXIT_USAGE;
	}
	if ((lv->mask & (EEVDF_LV_NICE | EEVDF_LV_FIFO)) && !k->may_raise) {
		snprintf(err, errlen, "no permission to raise a thread's priority "
			 "(sched_setattr: needs root or CAP_SYS_NICE)");
		return -EXIT_USAGE;
	}
	if ((lv->mask & EEVDF_LV_SLICE) && !k->custom_slice) {
		if (cfg->levers) {
			snprintf(err, errlen, "this kernel keeps no custom slice "
				 "(sched_runtime of SCHED_OTHER, Linux 6.12+): leave "
				 "'slice' out of --eevdf-levers");
			return -EXIT_USAGE;
		}
		lv->mask &= ~EEVDF_LV_SLICE;
	}
	if ((lv->mask & EEVDF_LV_UCLAMP) && !k->uclamp) {
		if (cfg->levers) {
			snprintf(err, errlen, "this kernel has no uclamp "
				 "(CONFIG_UCLAMP_TASK): leave 'uclamp' out of "
				 "--eevdf-levers");
			return -EXIT_USAGE;
		}
		lv->mask &= ~EEVDF_LV_UCLAMP;
	}
	if ((lv->mask & EEVDF_LV_FIFO) && k->rt_runtime_us < 0) {
		snprintf(err, errlen, "RT throttling is off "
			 "(/proc/sys/kernel/sched_rt_runtime_us is -1): the fifo "
			 "lever needs it on");
		return -EXIT_USAGE;
	}
	return 0;
}

/* The record's directory (/run/lavd by default), made if missing. */
static int state_dir(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Undo what a run that died left in the record. */
static int undo_leftover(const struct lavd_eevdf_cfg *cfg,
			 const struct eevdf_levers *lv, char *err, size_t errlen)
{
	int skipped, n = eevdf_record_restore(cfg->state_path, lv, &skipped,
					      err, errlen);

	if (n < 0)
		return -1;
	if (n || skipped)
		printf("lavd --eevdf: %s: a run that did not end cleanly left %d "
		       "thread%s changed: %d given back, %d gone or changed "
		       "since\n", cfg->state_path, n + skipped,
		       n + skipped == 1 ? "" : "s", n, skipped);
	return 0;
}

int lavd_eevdf_prepare(const struct lavd_eevdf_cfg *cfg, struct eevdf_levers *lv,
		       char *err, size_t errlen)
{
	struct eevdf_kernel k;
	int rc, lock;

	eevdf_kernel_probe(&k);
	rc = resolve_levers(cfg, &k, lv, err, errlen);
	if (rc < 0) {
		gs_warn("lavd --eevdf: %s", err);
		return rc;
	}
	if (state_dir(cfg->state_path, err, errlen) != 0 ||
	    (lock = eevdf_lock(cfg->state_path, err, errlen)) < 0) {
		gs_warn("lavd --eevdf: %s", err);
		return -EXIT_RUNTIME;
	}
	if (undo_leftover(cfg, lv, err, errlen) != 0) {
		gs_warn("lavd --eevdf: %s", err);
		close(lock);
		return -EXIT_RUNTIME;
	}
	return lock;
}

void lavd_eevdf_print_setup(const struct lavd_eevdf_cfg *cfg,
			    const struct eevdf_levers *lv)
{
	char names[96];
	struct eevdf_bounds b = eevdf_bounds_default();

	eevdf_levers_name(lv->mask, names, sizeof(names));
	printf("lavd --eevdf: steering the kernel's scheduler; levers %s "
	       "(critical: nice %d, slice %llu us; background: nice %d); period "
	       "%llu ms, hysteresis %u/%u periods; scope %s; record %s\n",
	       names, lv->crit_nice, (unsigned long long)(lv->slice_ns / 1000),
	       lv->bg_nice, (unsigned long long)(cfg->period_ns / 1000000),
	       b.promote_periods, b.demote_periods,
	       cfg->all_scopes ? "all" : "user (not system services)",
	       cfg->state_path);
}

int lavd_eevdf_check(const struct lavd_eevdf_cfg *cfg)
{
	struct eevdf_kernel k;
	struct eevdf_levers lv;
	char err[512], names[96];
	int rc;

	eevdf_kernel_probe(&k);
	eevdf_kernel_print(&k, stdout);
	rc = resolve_levers(cfg, &k, &lv, err, sizeof(err));
	if (rc < 0) {
		printf("lavd --check --eevdf: cannot run: %s\n", err);
		return -rc;
	}
	eevdf_levers_name(lv.mask, names, sizeof(names));
	printf("lavd --check --eevdf: can run, levers %s\n", names);
	return EXIT_OK;
}

int lavd_eevdf_restore(const struct lavd_eevdf_cfg *cfg)
{
	struct eevdf_kernel k;
	struct eevdf_levers lv;
	char err[512];
	int lock;

	eevdf_kernel_probe(&k);
	/* restoring needs no lever the kernel lacks: take them all as given */
	lv = (struct eevdf_levers){ .mask = k.uclamp ? EEVDF_LV_UCLAMP : 0,
				    .base_slice_ns = k.base_slice_ns };
	lock = eevdf_lock(cfg->state_path, err, sizeof(err));
	if (lock < 0) {
		gs_warn("lavd --eevdf --restore: %s", err);
		return EXIT_RUNTIME;
	}
	if (undo_leftover(cfg, &lv, err, sizeof(err)) != 0) {
		gs_warn("lavd --eevdf --restore: %s", err);
		close(lock);
		return EXIT_RUNTIME;
	}
	printf("lavd --eevdf --restore: nothing left changed\n");
	close(lock);
	return EXIT_OK;
}
