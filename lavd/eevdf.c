// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd --eevdf: lavd's latency model on a kernel's own scheduler. The
 * tracepoint programs (eevdf.bpf.c) keep each thread's behaviour and
 * lat_cri; once a period this loop reads them (one batch read), lets
 * eevdf_table.c decide and apply, keeps the record of what it changed on
 * disk, and on the way out (SIGINT, SIGTERM, an error) gives every thread
 * back what it had.
 */
#include "eevdf_run.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "eevdf.h"
#include "bpf/eevdf.skel.h"
#include "eevdf_kernel.h"
#include "eevdf_table.h"
#include "util.h"

static uint32_t map_tids[EEVDF_MAX_TASKS];
static struct eevdf_task map_tasks[EEVDF_MAX_TASKS];
static struct eevdf_rec recs[EEVDF_MAX_TASKS];

/* The map's contents in batches; returns the number read, or -1. */
static int read_map(int fd)
{
	__u32 token = 0;
	int got = 0;

	for (;;) {
		__u32 count = EEVDF_MAX_TASKS - (__u32)got;
		int err = bpf_map_lookup_batch(fd, got ? &token : NULL, &token,
					       map_tids + got, map_tasks + got,
					       &count, NULL);

		got += (int)count;
		if (err) {
			if (errno == ENOENT)
				return got;
			return -1;
		}
		if (got >= EEVDF_MAX_TASKS)
			return got;
	}
}

/*
 * Entries of threads whose exit the programs missed (an exit before
 * attach, a map that was full then) would stay: every SWEEP_EVERY
 * periods each tid is checked, and the gone ones deleted.
 */
#define SWEEP_EVERY 50

static int forget_dead(int fd, int n)
{
	int gone = 0;

	for (int i = 0; i < n; i++)
		if (syscall(SYS_tgkill, (pid_t)map_tasks[i].tgid, (pid_t)map_tids[i], 0) != 0 &&
		    errno == ESRCH &&
		    bpf_map_delete_elem(fd, &map_tids[i]) == 0)
			gone++;
	return gone;
}

/* The programs' runs so far: the per-CPU counts summed. */
static uint64_t events_total(const struct eevdf *skel)
{
	static uint64_t per_cpu[1024];
	int ncpu = libbpf_num_possible_cpus();
	uint32_t k = 0;
	uint64_t sum = 0;

	if (ncpu <= 0 || ncpu > 1024 ||
	    bpf_map_lookup_elem(bpf_map__fd(skel->maps.events), &k, per_cpu))
		return 0;
	for (int i = 0; i < ncpu; i++)
		sum += per_cpu[i];
	return sum;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

struct stats_mark {
	uint64_t t_ns, changes, syscalls, events, periods;
	double cpu_s;
	uint64_t work_max_ns;		/* the longest period's work */
};

static void stats_line(const struct eevdf_table *t, const struct eevdf *skel,
		       struct stats_mark *m, uint64_t periods)
{
	uint64_t now = gs_now_ns(), ev = events_total(skel);
	double dt = (double)(now - m->t_ns) / 1e9, cpu = cpu_seconds();
	const struct eevdf_counts *c = &t->c;

	if (dt <= 0)
		return;
	printf("eevdf: followed %u active %u | critical %u top %u background %u | "
	       "lat_cri avg %llu max %llu | changes %.1f/s syscalls %.1f/s "
	       "periods %.1f/s work max %.2f ms | events %.0f/s | lavd cpu %.2f %% "
	       "| yielded %llu guards %llu errors %llu full %llu\n",
	       c->followed, c->active, c->nr_class[EEVDF_CRITICAL],
	       c->nr_class[EEVDF_TOP], c->nr_class[EEVDF_BACKGROUND],
	       (unsigned long long)c->sys.lc_avg, (unsigned long long)c->sys.lc_max,
	       (double)(c->changes - m->changes) / dt,
	       (double)(c->syscalls - m->syscalls) / dt,
	       (double)(periods - m->periods) / dt, (double)m->work_max_ns / 1e6,
	       (double)(ev - m->events) / dt,
	       100.0 * (cpu - m->cpu_s) / dt, (unsigned long long)c->yielded,
	       (unsigned long long)c->guards, (unsigned long long)c->errors,
	       (unsigned long long)skel->bss->counters.full);
	*m = (struct stats_mark){ now, c->changes, c->syscalls, ev, periods, cpu, 0 };
}

/* The record on disk follows the managed set (a killed run is undone by
 * the next start). A failed write stops the run: nothing unrecorded. */
static int sync_record(struct eevdf_table *t, const char *path)
{
	char err[512];
	int n;

	if (!t->record_dirty)
		return 0;
	n = eevdf_table_records(t, recs, EEVDF_MAX_TASKS);
	if (eevdf_record_write(path, recs, n, err, sizeof(err)) != 0) {
		gs_warn("record of the changed threads: %s", err);
		return -1;
	}
	t->record_dirty = false;
	return 0;
}

/* The table's callback: the record, before a boost is made. */
static const char *record_path;

static int record_now(struct eevdf_table *t)
{
	return sync_record(t, record_path);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

/* The period loop, until a signal or an error. */
static int run_loop(struct eevdf_table *t, struct eevdf *skel,
		    const struct lavd_eevdf_cfg *cfg, volatile sig_atomic_t *stop)
{
	int fd = bpf_map__fd(skel->maps.tasks), rc = EXIT_OK;
	uint64_t last = gs_now_ns(), next_stats, periods = 0;
	struct stats_mark mark = { last, 0, 0, 0, 0, cpu_seconds(), 0 };

	next_stats = last + (uint64_t)(cfg->stats_s * 1e9);
	while (!*stop) {
		uint64_t now;
		int n;

		sleep_ns(cfg->period_ns);
		now = gs_now_ns();
		n = read_map(fd);
		if (n < 0) {
			gs_warn("reading the task map: %s", strerror(errno));
			rc = EXIT_RUNTIME;
			break;
		}
		eevdf_table_period(t, map_tids, map_tasks, n, now - last);
		last = now;
		if (++periods % SWEEP_EVERY == 0)
			forget_dead(fd, n);
		if (sync_record(t, cfg->state_path) != 0) {
			rc = EXIT_RUNTIME;
			break;
		}
		if (gs_now_ns() - now > mark.work_max_ns)
			mark.work_max_ns = gs_now_ns() - now;
		if (cfg->stats_s > 0 && now >= next_stats) {
			stats_line(t, skel, &mark, periods);
			next_stats = now + (uint64_t)(cfg->stats_s * 1e9);
		}
	}
	return rc;
}

/* One try at loading: with interrupt context told apart, or without. */
static struct eevdf *load_programs(bool irq_known, int *err)
{
	struct eevdf *skel = eevdf__open();

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->rodata->self_tgid = (__u32)getpid();
	bpf_program__set_autoload(irq_known ? skel->progs.eevdf_waking_noirq :
				  skel->progs.eevdf_waking, false);
	if ((*err = eevdf__load(skel)) != 0 || (*err = eevdf__attach(skel)) != 0) {
		eevdf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Kernels without the preempt count as a symbol (no KALLSYMS_ALL) refuse
 * the first variant: then the second. */
static struct eevdf *open_programs(bool *irq_known, char *err, size_t errlen)
{
	struct eevdf *skel;
	int e;

	*irq_known = true;
	skel = load_programs(true, &e);
	if (!skel) {
		*irq_known = false;
		skel = load_programs(false, &e);
	}
	if (!skel)
		snprintf(err, errlen, "loading or attaching the tracepoint programs "
			 "(sched_switch, sched_waking, sched_wakeup_new, "
			 "sched_process_exit): %s", strerror(-e));
	return skel;
}

/*
 * lavd's own thread at the critical threads' nice: it must keep its
 * period while they take the CPUs (at nice 0 it was woken 2-5 times a
 * second instead of 10 with esports and two hogs).
 */
static void raise_self(const struct eevdf_levers *lv)
{
	struct gs_sched_attr a;

	if (gs_sched_getattr(0, &a) == 0 && a.policy == SCHED_OTHER &&
	    a.nice > lv->crit_nice) {
		a.nice = lv->crit_nice;
		a.flags = GS_SCHED_FLAG_RESET_ON_FORK;
		a.runtime = 0;
		gs_sched_setattr(0, &a);
	}
}

int lavd_eevdf_main(const struct lavd_eevdf_cfg *cfg, volatile sig_atomic_t *stop)
{
	static struct eevdf_table t;
	struct eevdf *skel;
	char err[600];
	int lock, rc, restored;
	bool irq_known;

	lock = lavd_eevdf_prepare(cfg, &t.levers, err, sizeof(err));
	if (lock < 0)
		return -lock;
	t.bounds = eevdf_bounds_default();
	t.all_scopes = cfg->all_scopes;
	t.top_allowed = t.levers.mask & EEVDF_LV_FIFO;
	t.verbose = cfg->verbose;
	record_path = cfg->state_path;
	t.record = record_now;
	raise_self(&t.levers);
	if (eevdf_table_init(&t) != 0 || !(skel = open_programs(&irq_known, err, sizeof(err)))) {
		gs_warn("%s", t.slots ? err : "out of memory");
		eevdf_table_free(&t);
		close(lock);
		return EXIT_RUNTIME;
	}
	lavd_eevdf_print_setup(cfg, &t.levers);
	if (!irq_known)
		printf("lavd --eevdf: this kernel does not export its preempt count "
		       "(no CONFIG_KALLSYMS_ALL): a wakeup from an interrupt is "
		       "credited to the task it interrupted\n");
	rc = run_loop(&t, skel, cfg, stop);
	eevdf__destroy(skel);
	restored = eevdf_table_restore_all(&t);
	if (sync_record(&t, cfg->state_path) != 0)
		rc = EXIT_RUNTIME;
	printf("lavd --eevdf: stopped; %d thread%s given back what %s had "
	       "(%llu changes, %llu threads changed themselves)\n", restored,
	       restored == 1 ? "" : "s", restored == 1 ? "it" : "they",
	       (unsigned long long)t.c.changes, (unsigned long long)t.c.yielded);
	eevdf_table_free(&t);
	close(lock);
	return rc;
}
