/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How perf sched latency counts a task's switches, recomputed on the
 * events of frametrace's import of the same perf script text
 * (tests/perf_sched.c), for the cross-check test.
 */
#ifndef GS_TEST_PERF_SCHED_H
#define GS_TEST_PERF_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/ftutil.h"
#include "trace/trace.h"

/*
 * tools/perf/builtin-sched.c (latency_switch_event, latency_wakeup_event,
 * latency_runtime_event, add_sched_in_event) keeps per thread (by tid) a
 * list of atoms, in time order (perf sorts the events; ties keep the
 * order of the file, which `perf script` prints in the same order):
 *  - sched_switch: prev gets an atom, WAIT_CPU if perf reads its state as
 *    'R', else SLEEPING; then next, first seen, gets a WAIT_CPU atom, and
 *    its switch-in counts (nb_atoms++) only if its last atom is WAIT_CPU
 *    (it becomes SCHED_IN);
 *  - a wake-up turns a last atom that is SLEEPING into WAIT_CPU; any other
 *    state (running, already waiting) ignores it. A task first seen by a
 *    wake-up gets a SLEEPING atom, first seen by sched_stat_runtime a
 *    WAIT_CPU one. sched_wakeup_new is a wake-up;
 *  - sched_migrate_task is ignored unless one CPU is profiled (-C);
 *    renames and forks do not touch the atoms. `-p` prints every thread
 *    (no merging by comm), swapper and threads without a switch left out.
 *    (perf keys the atoms by its thread object: a tid reused within the
 *    recording would be two rows; not modelled here.)
 * Which wake-up event and which states count as 'R' depend on perf's
 * version (struct perf_rule).
 */
struct perf_rule {
	const char *name;
	/* sched_waking is the wake-up when the trace has it (and sched_wakeup
	 * is then ignored); else sched_wakeup */
	bool waking;
	/* a preempted switch-out (prev_state R+) leaves the task WAIT_CPU */
	bool preempt_waits;
};

/* The rules of perf's versions (tests/perf_sched.c says which is whose). */
#define NRULES 3
extern const struct perf_rule perf_rules[NRULES];

enum { ATOM_SLEEPING, ATOM_WAIT_CPU, ATOM_SCHED_IN, ATOM_IGNORE };

/* Why a switch-in did not count. */
enum {
	MISS_PREEMPT,	/* after a preempted switch-out (R+) */
	MISS_EARLY,	/* the wake-up came before the sleeping switch-out */
	MISS_NO_WAKE,	/* asleep, and no wake-up recorded since */
	MISS_NOT_OUT,	/* switched in again without a switch-out */
	MISS_ORDER,	/* before the wake-up's time (unsorted input) */
	MISS_N
};
extern const char *const miss_name[MISS_N];

struct perf_task {
	uint32_t tid;
	uint8_t state;		/* ATOM_*: of its last atom */
	uint8_t why;		/* MISS_* if it is SLEEPING */
	bool woke_running;	/* a wake-up was ignored while it ran */
	uint64_t out_ts, wake_ts;
	uint64_t switches;	/* perf's count */
	uint64_t missed[MISS_N];
};

struct perf_count {
	struct ft_map idx;
	struct perf_task *task;
	size_t n, cap;
};

void perf_count_free(struct perf_count *c);
/* The task tid's count, or NULL when perf never saw it. */
const struct perf_task *perf_task_get(const struct perf_count *c,
				      uint32_t tid);
/* Counts the switches of every task of t as perf would under rule r. */
int perf_count(const struct ft_trace *t, const struct perf_rule *r,
	       struct perf_count *c);

#endif
