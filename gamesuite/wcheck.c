// SPDX-License-Identifier: GPL-2.0-only
/*
 * gamesuite check: each workload's own verdict on the invocation a run
 * would build (workload.h: gsu_workload_check, gsu_framebench_plan,
 * gsu_run_check), apart from the building and collecting of runs in
 * workload.c.
 */
#include "workload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "suite.h"
#include "util.h"

/* ---- check: the workload's own verdict on its invocation -------------- */

/* Runs argv with its output in log; 0 when it exits 0 within 10 s, else
 * -1 with its last line (or how it ended) in why. */
int gsu_run_check(char **argv, const char *log, char *why, size_t whylen)
{
	struct gsu_proc p;
	char err[300];
	uint64_t t0 = gs_now_ns();

	if (gsu_spawn(&p, argv, NULL, log, err, sizeof(err))) {
		snprintf(why, whylen, "%s", err);
		return -1;
	}
	while (!gsu_proc_poll(&p)) {
		if (gs_now_ns() - t0 > 10 * NSEC_PER_SEC) {
			gsu_proc_stop(&p, SIGKILL, 0);
			snprintf(why, whylen, "its check did not end in 10 s");
			return -1;
		}
		usleep(10000);
	}
	if (WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0)
		return 0;
	gsu_file_tail(log, why, whylen);
	{
		size_t n = strlen(why);

		while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
			why[--n] = '\0';
		/* the last line is the complaint */
		if (strrchr(why, '\n'))
			memmove(why, strrchr(why, '\n') + 1,
				strlen(strrchr(why, '\n') + 1) + 1);
	}
	if (!why[0])
		gsu_describe_status(p.status, why, whylen);
	return -1;
}

/* A workload's output: the first MiB is plenty for the figures we read. */
/* The check; with text, what it printed (framebench: its plan). */
static int check_run(const struct gsu_suite *s, const struct gsu_workload *w,
		     char **text, char *why, size_t whylen)
{
	char tmp[4096], dir[4200], log[4200];
	const char *td = getenv("TMPDIR");
	struct gsu_exec x;
	char **argv = NULL;
	int n = 0, rc = -1;

	why[0] = '\0';
	if (!w->available || (w->kind != GSU_FRAMEBENCH && w->kind != GSU_GAME &&
			       w->kind != GSU_STRESS_NG))
		return 0;
	snprintf(tmp, sizeof(tmp), "%s/gamesuite-check.XXXXXX",
		 td && *td ? td : "/tmp");
	if (!mkdtemp(tmp)) {
		snprintf(why, whylen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/run", tmp);
	snprintf(log, sizeof(log), "%s/check.log", tmp);
	if (gsu_exec_build(s, w, NULL, dir, &x, why, whylen))
		goto out;
	while (x.argv[n])
		n++;
	argv = calloc((size_t)n + 4, sizeof(*argv));
	if (!argv) {
		snprintf(why, whylen, "out of memory");
		goto free_exec;
	}
	if (w->kind == GSU_GAME) {
		/* sh -n -c CMD: parsed, not run */
		argv[0] = x.argv[0];
		argv[1] = "-n";
		for (int i = 1; i < n; i++)
			argv[i + 1] = x.argv[i];
	} else {
		for (int i = 0; i < n; i++)
			argv[i] = x.argv[i];
		argv[n] = w->kind == GSU_FRAMEBENCH ? "--dump-plan" : "--dry-run";
	}
	rc = gsu_run_check(argv, log, why, whylen);
	if (!rc && text && gsu_read_log(log, text)) {
		snprintf(why, whylen, "cannot read %s", log);
		rc = -1;
	}
	free(argv);
free_exec:
	gsu_exec_free(&x);
out:
	gs_remove_tree(tmp);
	return rc;
}

int gsu_workload_check(const struct gsu_suite *s, const struct gsu_workload *w,
		       char *why, size_t whylen)
{
	return check_run(s, w, NULL, why, whylen);
}

int gsu_framebench_plan(const struct gsu_suite *s, const struct gsu_workload *w,
			char **plan, char *why, size_t whylen)
{
	*plan = NULL;
	if (w->kind != GSU_FRAMEBENCH || !w->available) {
		snprintf(why, whylen, "not an available framebench workload");
		return -1;
	}
	return check_run(s, w, plan, why, whylen);
}

/* ---- collecting ------------------------------------------------------- */

