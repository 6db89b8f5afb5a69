// SPDX-License-Identifier: GPL-2.0-only
/* lavd --eevdf and the running kernel (eevdf_kernel.h). */
#include "eevdf_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procscan.h"
#include "util.h"

static long read_long(const char *path, long dfl)
{
	FILE *f = fopen(path, "r");
	long v = dfl;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = dfl;
		fclose(f);
	}
	return v;
}

static const char *const tracepoints[] = {
	"sched_switch", "sched_waking", "sched_wakeup_new", "sched_process_exit",
};

static void probe_tracepoints(struct eevdf_kernel *k)
{
	char path[160];

	k->tracepoints = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	if (!k->tracepoints) {
		snprintf(k->tp_missing, sizeof(k->tp_missing), "kernel BTF "
			 "(/sys/kernel/btf/vmlinux)");
		return;
	}
	for (size_t i = 0; i < sizeof(tracepoints) / sizeof(*tracepoints); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/sched/%s",
			 tracepoints[i]);
		if (access(path, F_OK) != 0 && errno == ENOENT &&
		    access("/sys/kernel/tracing/events/sched", F_OK) == 0) {
			k->tracepoints = false;
			snprintf(k->tp_missing, sizeof(k->tp_missing), "%s",
				 tracepoints[i]);
			return;
		}
	}
}

/* A custom slice sticks, and a raise is allowed: tried on this thread,
 * then put back as it was. */
static void probe_attrs(struct eevdf_kernel *k)
{
	struct gs_sched_attr was, a, now;

	if (gs_sched_getattr(0, &was) != 0)
		return;
	k->base_slice_ns = was.runtime;
	a = was;
	a.flags = 0;
	a.runtime = 1000000;	/* 1 ms, inside EEVDF's bounds */
	if (gs_sched_setattr(0, &a) == 0 && gs_sched_getattr(0, &now) == 0)
		k->custom_slice = now.runtime == 1000000;
	a = was;
	a.flags = 0;
	a.runtime = 0;
	a.nice = was.nice > -20 ? was.nice - 1 : was.nice;
	k->may_raise = gs_sched_setattr(0, &a) == 0;
	a.nice = was.nice;
	gs_sched_setattr(0, &a);	/* no custom slice, the nice it had */
}

void eevdf_kernel_probe(struct eevdf_kernel *k)
{
	memset(k, 0, sizeof(*k));
	probe_tracepoints(k);
	probe_attrs(k);
	k->uclamp = access("/proc/sys/kernel/sched_util_clamp_min", F_OK) == 0;
	k->rt_runtime_us = read_long("/proc/sys/kernel/sched_rt_runtime_us", -1);
	k->rt_period_us = read_long("/proc/sys/kernel/sched_rt_period_us", 0);
	k->autogroup = read_long("/proc/sys/kernel/sched_autogroup_enabled", 0) == 1;
	k->sched_ext = access("/sys/kernel/sched_ext", F_OK) == 0;
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

void eevdf_kernel_print(const struct eevdf_kernel *k, FILE *out)
{
	fprintf(out, "tracepoints (sched_switch, sched_waking, sched_wakeup_new, "
		"sched_process_exit, BTF): %s%s%s\n", yes(k->tracepoints),
		k->tracepoints ? "" : ": missing ", k->tp_missing);
	fprintf(out, "custom slice (sched_runtime of SCHED_OTHER, Linux 6.12+): %s"
		" (base slice %llu us)\n", yes(k->custom_slice),
		k->base_slice_ns / 1000);
	fprintf(out, "uclamp (CONFIG_UCLAMP_TASK): %s\n", yes(k->uclamp));
	if (k->rt_runtime_us < 0)
		fprintf(out, "RT throttling: off (sched_rt_runtime_us -1): the "
			"fifo lever is refused\n");
	else
		fprintf(out, "RT throttling: on (%ld of every %ld us for RT tasks)\n",
			k->rt_runtime_us, k->rt_period_us);
	fprintf(out, "autogroup: %s%s\n", k->autogroup ? "on" : "off",
		k->autogroup ? " (a nice value ranks a thread within its session "
		"only)" : "");
	fprintf(out, "raise priorities (negative nice, SCHED_FIFO: root or "
		"CAP_SYS_NICE): %s\n", yes(k->may_raise));
	fprintf(out, "sched_ext: %s\n", k->sched_ext ? "yes (lavd without "
		"--eevdf can load too)" : "no (lavd --eevdf is the way here)");
}

unsigned long long eevdf_thread_start(pid_t tid)
{
	uint64_t start = 0;
	char comm[16];
	bool kthread;

	/* /proc/TID/stat reads as the thread's own (procscan.c's reader) */
	if (lavd_ps_read_stat("/proc", (int)tid, comm, &kthread, &start))
		return 0;
	return start;
}

bool eevdf_thread_is_service(pid_t tid)
{
	char path[64], line[512];
	bool service = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		const char *c = strchr(line, ':');

		c = c ? strchr(c + 1, ':') : NULL;
		if (c && (!strncmp(c + 1, "/system.slice", 13) ||
			  !strncmp(c + 1, "/init.scope", 11)))
			service = true;
	}
	fclose(f);
	return service;
}

int eevdf_record_write(const char *path, const struct eevdf_rec *recs, int n,
		       char *err, size_t errlen)
{
	char tmp[4200], line[256];
	FILE *f;
	int bad = 0;

	if (n == 0) {
		if (unlink(path) != 0 && errno != ENOENT) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "# lavd --eevdf %d: tid start  policy nice prio runtime "
		"flags uclamp_min  applied: policy nice prio  before it: policy nice "
		"prio\n", (int)getpid());
	for (int i = 0; i < n; i++)
		if (eevdf_rec_format(&recs[i], line, sizeof(line)) == 0)
			fputs(line, f);
	/* no fsync: the record outlives a killed lavd in the page cache,
	 * and a crashed kernel forgets every attribute anyway (an fsync
	 * under a parallel build stalled a period for 1.7 s) */
	bad = ferror(f);
	if (fflush(f) != 0)
		bad = 1;
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* One recorded thread back to what it had, if it is still ours. */
static bool restore_one(const struct eevdf_rec *r, const struct eevdf_levers *lv)
{
	struct gs_sched_attr now, back;

	if (eevdf_thread_start(r->tid) != r->start ||
	    gs_sched_getattr(r->tid, &now) != 0 || !eevdf_rec_ours(r, &now))
		return false;
	eevdf_restore_attr(lv, &r->orig, &back);
	return gs_sched_setattr(r->tid, &back) == 0;
}

int eevdf_record_restore(const char *path, const struct eevdf_levers *lv,
			 int *skipped, char *err, size_t errlen)
{
	char line[512];
	int restored = 0, lineno = 0;
	struct eevdf_rec r;
	FILE *f = fopen(path, "r");

	*skipped = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (eevdf_rec_parse(line, &r) != 0) {
			snprintf(err, errlen, "%s:%d: not a record line", path, lineno);
			fclose(f);
			return -1;
		}
		if (restore_one(&r, lv))
			restored++;
		else
			(*skipped)++;
	}
	fclose(f);
	if (unlink(path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return restored;
}

int eevdf_lock(const char *state_path, char *err, size_t errlen)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s.lock", state_path);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		snprintf(err, errlen, "another lavd --eevdf is running (it holds %s)",
			 path);
		close(fd);
		return -1;
	}
	return fd;
}
