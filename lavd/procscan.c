// SPDX-License-Identifier: GPL-2.0-only
/*
 * The game profile matcher over /proc (procscan.h). Each read is one
 * small file; the table of processes is a sorted array (a few hundred
 * entries on a desktop, a few with a profile on the events path).
 */
#include "procscan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define PF_KTHREAD_FLAG 0x00200000UL

void lavd_ps_init(struct lavd_ps *ps, const char *root, const struct lavd_gp_set *set,
		  bool track_all, uint64_t young_ns, lavd_ps_assign_fn fn, void *ctx)
{
	memset(ps, 0, sizeof(*ps));
	gs_strlcpy(ps->root, root, sizeof(ps->root));
	ps->set = set;
	ps->track_all = track_all;
	ps->young_ns = young_ns;
	ps->assign = fn;
	ps->ctx = ctx;
	ps->last_pid = -1;
}

void lavd_ps_free(struct lavd_ps *ps)
{
	free(ps->ent);
	ps->ent = NULL;
	ps->n = ps->cap = 0;
}

/* ---- the table ---- */

static size_t lower_bound(const struct lavd_ps *ps, int pid)
{
	size_t lo = 0, hi = ps->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ps->ent[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct lavd_ps_ent *lavd_ps_find(const struct lavd_ps *ps, int pid)
{
	size_t i = lower_bound(ps, pid);

	return i < ps->n && ps->ent[i].pid == pid ? &ps->ent[i] : NULL;
}

static struct lavd_ps_ent *find(struct lavd_ps *ps, int pid)
{
	return (struct lavd_ps_ent *)lavd_ps_find(ps, pid);
}

static struct lavd_ps_ent *insert(struct lavd_ps *ps, int pid)
{
	size_t i = lower_bound(ps, pid);

	if (ps->n == ps->cap) {
		size_t nc = ps->cap ? ps->cap * 2 : 256;
		struct lavd_ps_ent *ne = realloc(ps->ent, nc * sizeof(*ne));

		if (!ne)
			return NULL;
		ps->ent = ne;
		ps->cap = nc;
	}
	memmove(&ps->ent[i + 1], &ps->ent[i], (ps->n - i) * sizeof(*ps->ent));
	ps->n++;
	memset(&ps->ent[i], 0, sizeof(ps->ent[i]));
	ps->ent[i].pid = pid;
	ps->ent[i].idx = -1;
	return &ps->ent[i];
}

static void remove_at(struct lavd_ps *ps, struct lavd_ps_ent *e)
{
	size_t i = (size_t)(e - ps->ent);

	memmove(&ps->ent[i], &ps->ent[i + 1], (ps->n - i - 1) * sizeof(*ps->ent));
	ps->n--;
}

/* ---- reading a process ---- */

static ssize_t read_small(struct lavd_ps *ps, const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (ps)
		ps->nr_reads++;
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int read_stat(struct lavd_ps *ps, const char *root, int pid, char comm[16],
		     bool *kthread, uint64_t *start)
{
	char path[320], buf[1024], *l, *r, *tok, *save;
	unsigned long long flags = 0, st = 0;
	int field = 3;

	if (ps)
		ps->nthreads = 0;

	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	if (read_small(ps, path, buf, sizeof(buf)) <= 0)
		return -1;
	/* "pid (comm) state ...": the name may hold ')' and blanks */
	l = strchr(buf, '(');
	r = strrchr(buf, ')');
	if (!l || !r || r < l)
		return -1;
	*r = '\0';
	gs_strlcpy(comm, l + 1, 16);
	for (tok = strtok_r(r + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 9)
			flags = strtoull(tok, NULL, 10);
		if (field == 20 && ps)
			ps->nthreads = (int)strtol(tok, NULL, 10);
		if (field == 22) {
			st = strtoull(tok, NULL, 10);
			break;
		}
	}
	*kthread = flags & PF_KTHREAD_FLAG;
	*start = st;
	return 0;
}

int lavd_ps_read_stat(const char *root, int pid, char comm[16], bool *kthread,
		      uint64_t *start)
{
	return read_stat(NULL, root, pid, comm, kthread, start);
}

static char threads[LAVD_PS_MAX_THREADS][16];
static const char *thread_ptr[LAVD_PS_MAX_THREADS];

/* The names of pid's threads into threads[]; their count. */
static int read_threads(struct lavd_ps *ps, int pid)
{
	char path[320];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/task", ps->root, pid);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d)) && n < LAVD_PS_MAX_THREADS) {
		char p2[600];
		ssize_t len;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(p2, sizeof(p2), "%s/%d/task/%s/comm", ps->root, pid, de->d_name);
		len = read_small(ps, p2, threads[n], sizeof(threads[n]));
		if (len <= 0)
			continue;
		if (threads[n][len - 1] == '\n')
			threads[n][len - 1] = '\0';
		thread_ptr[n] = threads[n];
		n++;
	}
	closedir(d);
	return n;
}

/* Matches e (comm already in it) and reports a change. */
static void evaluate(struct lavd_ps *ps, struct lavd_ps_ent *e)
{
	const char *self[1] = { e->comm };
	struct lavd_gp_proc pr = { .comm = e->comm, .threads = self, .nthreads = 1 };
	char exe[512];
	int idx;

	ps->nr_evals++;
	if (ps->set->exe_rules) {
		char path[320];
		ssize_t n;

		snprintf(path, sizeof(path), "%s/%d/exe", ps->root, e->pid);
		ps->nr_reads++;
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			pr.exe = exe;
		}
	}
	/* one thread (a fresh exec): its name is the process's, no need to
	 * list the task directory (halves what an exec costs) */
	if (ps->set->thread_rules && ps->nthreads != 1) {
		int nt = read_threads(ps, e->pid);

		if (nt > 0) {
			pr.threads = thread_ptr;
			pr.nthreads = nt;
		}
	}
	idx = lavd_gp_match(ps->set, &pr);
	if (idx != e->idx && ps->assign(ps->ctx, e->pid, e->idx, idx) == 0)
		e->idx = idx;
}

/*
 * Whether e, whose pid shows a process that started at @start (0: not
 * known), is still the process it was, and not a reused pid. A start not
 * known yet (matched from an event) is learned here.
 */
static bool same_process(struct lavd_ps_ent *e, uint64_t start)
{
	if (!start)
		return true;
	if (!e->start)
		e->start = start;
	return e->start == start;
}

/* e leaves its profile and the table. */
static void forget(struct lavd_ps *ps, struct lavd_ps_ent *e)
{
	if (e->idx >= 0)
		ps->assign(ps->ctx, e->pid, e->idx, -1);
	remove_at(ps, e);
}

/* ---- the two paths ---- */

int lavd_ps_scan(struct lavd_ps *ps, uint64_t now_ns, bool full)
{
	struct dirent *de;
	int seen = 0;
	DIR *d;

	if (!(d = opendir(ps->root)))
		return -1;
	ps->gen++;
	ps->nr_scans++;
	while ((de = readdir(d))) {
		struct lavd_ps_ent *e;
		char comm[16], *end;
		uint64_t start;
		bool kt, fresh, renamed, young;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || pid > 0x7fffffff)
			continue;
		if (read_stat(ps, ps->root, (int)pid, comm, &kt, &start) || kt)
			continue;
		seen++;
		e = find(ps, (int)pid);
		if (e && !same_process(e, start)) {
			forget(ps, e);	/* a reused pid: another process */
			e = NULL;
		}
		fresh = !e;
		if (fresh && !(e = insert(ps, (int)pid)))
			break;
		if (fresh) {
			/* what runs before a full scan is not young: its
			 * threads were read in it (0: not young) */
			e->start = start;
			e->first_seen_ns = full ? 0 : now_ns;
		}
		renamed = strcmp(e->comm, comm) != 0;
		gs_strlcpy(e->comm, comm, sizeof(e->comm));
		young = ps->track_all && ps->set->thread_rules && e->idx < 0 &&
			e->first_seen_ns && now_ns - e->first_seen_ns < ps->young_ns;
		if (full || fresh || renamed || young)
			evaluate(ps, e);
		e->seen = ps->gen;
		if (!ps->track_all && e->idx < 0)
			remove_at(ps, e);
	}
	closedir(d);
	/* gone since the last scan */
	for (size_t i = 0; i < ps->n; ) {
		if (ps->ent[i].seen == ps->gen) {
			i++;
			continue;
		}
		forget(ps, &ps->ent[i]);
	}
	return seen;
}

/* The process a renamed thread belongs to: the event's (the renaming
 * task's) unless the thread is not one of its; then its status says. */
static int thread_group(struct lavd_ps *ps, int pid, int tgid)
{
	char path[320], buf[2048], *t;

	snprintf(path, sizeof(path), "%s/%d/task/%d", ps->root, tgid, pid);
	if (access(path, F_OK) == 0)
		return tgid;
	snprintf(path, sizeof(path), "%s/%d/status", ps->root, pid);
	if (read_small(ps, path, buf, sizeof(buf)) <= 0 || !(t = strstr(buf, "\nTgid:")))
		return -1;
	return (int)strtol(t + 6, NULL, 10);
}

/*
 * A process (pid) may follow another profile now: exec, renamed. @ev, when
 * it came from the process itself (ev->nthreads set), says its name and
 * thread count, so /proc is not read: at 100 starts a second the read of
 * /proc/PID/stat was most of what an exec cost. Its start time (pid reuse)
 * is then learned at the next sweep.
 */
static void process_changed(struct lavd_ps *ps, int pid, uint64_t now_ns,
			    const struct lavd_proc_ev *ev)
{
	struct lavd_ps_ent *e = find(ps, pid);
	char comm[16];
	uint64_t start = 0;
	bool kt, fresh = !e;

	if (ev && ev->nthreads) {
		memcpy(comm, ev->comm, sizeof(comm));
		comm[15] = '\0';
		ps->nthreads = (int)ev->nthreads;
	} else if (read_stat(ps, ps->root, pid, comm, &kt, &start) || kt) {
		if (e)
			forget(ps, e);
		return;
	}
	if (!e && !(e = insert(ps, pid)))
		return;
	if (fresh || !same_process(e, start))
		e->first_seen_ns = now_ns;
	/* read: the start it has now; from an event (0) the pid may be
	 * another process's by now (a reused pid that exec'd), so its start
	 * is learned again at the next sweep, not compared */
	e->start = start;
	gs_strlcpy(e->comm, comm, sizeof(e->comm));
	evaluate(ps, e);
	e->seen = ps->gen;
	if (!ps->track_all && e->idx < 0)
		remove_at(ps, e);
}

void lavd_ps_event(struct lavd_ps *ps, const struct lavd_proc_ev *ev, uint64_t now_ns)
{
	char comm[16];
	int tgid, before;
	const struct lavd_ps_ent *e;

	ps->nr_events++;
	memcpy(comm, ev->comm, 16);
	comm[15] = '\0';
	if (ev->kind == LAVD_PEV_EXEC || ev->pid == ev->tgid) {
		/* an exec renames first: the exec event that follows changes
		 * nothing more */
		if (ev->kind == LAVD_PEV_EXEC && (int)ev->pid == ps->last_pid &&
		    !strcmp(comm, ps->last_comm)) {
			ps->last_pid = -1;
			return;
		}
		ps->last_pid = ev->kind == LAVD_PEV_RENAME ? (int)ev->pid : -1;
		gs_strlcpy(ps->last_comm, comm, sizeof(ps->last_comm));
		process_changed(ps, (int)ev->pid, now_ns, ev);
		return;
	}
	/* a thread was named: only a name that a profile looks for matters,
	 * and for a process that follows a profile only a better one */
	if (!ps->set->thread_rules)
		return;
	tgid = thread_group(ps, (int)ev->pid, (int)ev->tgid);
	if (tgid <= 0)
		return;
	e = lavd_ps_find(ps, tgid);
	before = e && e->idx >= 0 ? e->idx : ps->set->n;
	if (lavd_gp_thread_relevant(ps->set, comm, before))
		process_changed(ps, tgid, now_ns, NULL);
}

void lavd_ps_sweep(struct lavd_ps *ps)
{
	for (size_t i = 0; i < ps->n; ) {
		struct lavd_ps_ent *e = &ps->ent[i];
		char comm[16];
		uint64_t start;
		bool kt;

		if (read_stat(ps, ps->root, e->pid, comm, &kt, &start) ||
		    !same_process(e, start)) {
			forget(ps, e);
			continue;
		}
		i++;
	}
}
