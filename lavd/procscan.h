/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which process follows which game profile: the loader's matcher. It
 * reads what it needs of a process under a /proc root (its stat line,
 * the executable's path when some rule looks at it, its threads' names
 * when some rule looks at those), asks gamematch.c, and reports every
 * change through a callback (gamectl.c writes BPF's map). No libbpf: the
 * host tests run it over a fake /proc tree.
 *
 * Two ways to notice processes (docs/lavd.md, "Game profiles"):
 *   events  exec and task_rename tracepoints deliver each new program and
 *           each new name (lavd_ps_event); a scan at start and a sweep of
 *           the matched processes every --match-scan-ms forget exited ones
 *   scan    every --match-scan-ms, every process's stat line is read: new
 *           and renamed processes are matched, and for processes younger
 *           than young_ns the thread names are read again (threads are
 *           named after they start)
 * Kernel threads are never matched.
 */
#ifndef LAVD_PROCSCAN_H
#define LAVD_PROCSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gameprof.h"

/* Threads read per process, at most. */
#define LAVD_PS_MAX_THREADS	1024

struct lavd_ps_ent {
	int pid;			/* the process (tgid) */
	int idx;			/* profile index in the set, -1: none */
	uint64_t start;			/* start time (/proc stat field 22): a
					 * reused pid is another process; 0
					 * until read (matched from an event) */
	uint64_t first_seen_ns;
	uint32_t seen;			/* scan generation */
	char comm[16];
};

/* A decision changed: process pid goes from profile old to new (-1: none).
 * Returns 0, or -1 when it could not be applied (then it is not recorded). */
typedef int (*lavd_ps_assign_fn)(void *ctx, int pid, int old_idx, int new_idx);

struct lavd_ps {
	char root[256];			/* "/proc", or a test tree */
	const struct lavd_gp_set *set;
	lavd_ps_assign_fn assign;
	void *ctx;
	bool track_all;			/* scan path: remember every process */
	uint64_t young_ns;		/* scan path: threads read again until then */
	struct lavd_ps_ent *ent;	/* sorted by pid */
	size_t n, cap;
	uint32_t gen;
	int last_pid;			/* the rename an exec follows (dedup) */
	int nthreads;			/* of the process read last (stat field 20) */
	char last_comm[16];
	/* what it cost, for docs/lavd.md's figures */
	uint64_t nr_scans, nr_events, nr_evals, nr_reads;
};

void lavd_ps_init(struct lavd_ps *ps, const char *root, const struct lavd_gp_set *set,
		  bool track_all, uint64_t young_ns, lavd_ps_assign_fn fn, void *ctx);
void lavd_ps_free(struct lavd_ps *ps);

/*
 * Reads every process. New, reused and renamed ones are matched; with
 * track_all the threads of young unmatched ones are read again; full
 * matches every process again (at start, after a reload, after lost
 * events). Processes that are gone leave their profile. Returns the
 * number of processes seen, or -1 when the root cannot be read.
 */
int lavd_ps_scan(struct lavd_ps *ps, uint64_t now_ns, bool full);

/* One exec or rename event (intf.h). */
void lavd_ps_event(struct lavd_ps *ps, const struct lavd_proc_ev *ev, uint64_t now_ns);

/* Matched processes that exited (or whose pid was reused) leave their
 * profile: the events path's cleanup. */
void lavd_ps_sweep(struct lavd_ps *ps);

/* The entry of pid, or NULL. */
const struct lavd_ps_ent *lavd_ps_find(const struct lavd_ps *ps, int pid);

/* What one process looks like right now (its stat line): comm, whether it
 * is a kernel thread, its start time. 0, or -1 when it is gone. */
int lavd_ps_read_stat(const char *root, int pid, char comm[16], bool *kthread,
		      uint64_t *start);

#endif
