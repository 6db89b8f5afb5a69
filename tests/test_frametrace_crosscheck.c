// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cross-check against perf: per-task CPU time and switch counts of
 * frametrace's import of `perf script` text agree with `perf sched latency
 * -p` on the same perf.data.
 *
 *   test_frametrace_crosscheck                 the rule's unit tests and the
 *                                              committed fixture
 *   test_frametrace_crosscheck SCRIPT LATENCY  any pair (tests/frametrace_crosscheck.sh
 *                                              records a fresh one)
 *
 * The fixture (tests/fixtures/frametrace-perf-sched*.txt) was made on the
 * development machine (kernel 6.18, 2 CPUs) with
 *   perf sched record -k mono -- taskset -c 0 build/framebench -d 250ms -w 50ms -p proton -q
 *   perf script --ns > frametrace-perf-sched.txt
 *   perf sched latency -p > frametrace-perf-sched-latency.txt
 *
 * Rules (docs/frametrace.md, "Cross-check with perf sched latency"):
 *  - runtime: every task within 1 % (or 0.002 ms, perf prints 3 decimals);
 *  - switches: perf does not count every switch-in, so the events of
 *    frametrace's import are counted again the way perf sched latency
 *    counts (perf_count, tests/perf_sched.c: skipping the switches frametrace
 *    reconstructed, which perf never saw), and every task with 20 or more
 *    switches must have exactly perf's count. Below 20 a difference is
 *    listed, not asserted; the total over all tasks must agree within 1 %;
 *  - perf's rule changed between perf versions (perf_rules): the one rule
 *    that fits is taken for all tasks and printed;
 *  - at least one task with 20 or more switches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ftutil.h"
#include "import/import.h"
#include "analysis/model.h"
#include "perf_sched.h"

/* ---- the comparison with perf sched latency -p ------------------------ */

struct perf_row {
	char comm[64];
	uint32_t tid;
	double runtime_ms;
	uint64_t count;
};

/* "  comm:tid   |  12.345 ms |  67 | avg: ..." */
static int parse_latency_line(const char *line, struct perf_row *r)
{
	const char *bar = strchr(line, '|'), *colon = NULL, *p;
	char *end;

	if (!bar)
		return -1;
	for (p = line; p < bar; p++)
		if (*p == ':')
			colon = p;
	if (!colon)
		return -1;
	p = line;
	while (*p == ' ')
		p++;
	if (colon - p >= (long)sizeof(r->comm) || colon <= p)
		return -1;
	memcpy(r->comm, p, (size_t)(colon - p));
	r->comm[colon - p] = '\0';
	if (!isdigit((unsigned char)colon[1]))
		return -1; /* "comm:(3)" merged rows: not with -p */
	r->tid = (uint32_t)strtoul(colon + 1, &end, 10);
	r->runtime_ms = strtod(bar + 1, &end);
	if (end == bar + 1 || strncmp(end, " ms |", 5))
		return -1;
	r->count = strtoull(end + 5, &end, 10);
	return 0;
}

static uint64_t perf_switches(const struct perf_count *c, uint32_t tid)
{
	const struct perf_task *p = perf_task_get(c, tid);

	return p ? p->switches : 0;
}

/* Rows whose count differs under c: all (*all) and those asserted. */
static int rule_misfits(const struct perf_count *c, const struct perf_row *rows,
			size_t nrows, int *all)
{
	int asserted = 0;

	*all = 0;
	for (size_t i = 0; i < nrows; i++)
		if (perf_switches(c, rows[i].tid) != rows[i].count) {
			(*all)++;
			asserted += rows[i].count >= 20;
		}
	return asserted;
}

struct xcheck {
	int compared;		/* tasks compared */
	int big;		/* of them with 20 or more switches */
	int rule;		/* index into perf_rules */
};

/* The task rows of `perf sched latency -p` output; FAILS counts what
 * went wrong (-1: the file cannot be opened). */
static int read_rows(const char *latency, struct perf_row **out,
		     size_t *nrows, int *fails)
{
	struct perf_row *rows = NULL;
	size_t cap = 0;
	char line[1024];
	FILE *f = fopen(latency, "r");

	if (!f) {
		printf("%s: cannot open\n", latency);
		++*fails;
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct perf_row p;

		if (parse_latency_line(line, &p))
			continue;
		if (FT_VEC_RESERVE(rows, *nrows, cap)) {
			printf("out of memory\n");
			++*fails;
			break;
		}
		rows[(*nrows)++] = p;
	}
	fclose(f);
	*out = rows;
	return 0;
}

/* The rule that fits perf's counts: fewest asserted differences, then
 * fewest in all; -1 when memory is short. */
static int pick_rule(const struct ft_trace *t, struct perf_count *pc,
		     const struct perf_row *rows, size_t nrows)
{
	int best = -1, best_asserted = 0, best_all = 0;

	for (size_t r = 0; r < NRULES; r++) {
		int all, asserted;

		if (perf_count(t, &perf_rules[r], &pc[r])) {
			printf("out of memory\n");
			return -1;
		}
		asserted = rule_misfits(&pc[r], rows, nrows, &all);
		printf("rule %zu (%s): %d tasks differ, %d of them with >= 20 "
		       "switches\n", r, perf_rules[r].name, all, asserted);
		if (best < 0 || asserted < best_asserted ||
		    (asserted == best_asserted && all < best_all)) {
			best = (int)r;
			best_asserted = asserted;
			best_all = all;
		}
	}
	return best;
}

/* Returns the number of failed comparisons; prints a table. */
/* One task's row: its runtime and switch count against perf's, printed
 * with the switch-ins perf's rule leaves out; the number of failures. */
static int compare_row(const struct perf_row *p, const struct ft_tstat *s,
		       const struct perf_task *pt, struct xcheck *x,
		       uint64_t *sum_ours, uint64_t *sum_perf)
{
	uint64_t as_perf = pt ? pt->switches : 0;
	double ours_ms, tol_ms;
	bool rt_ok, sw_ok, few;
	char why[160] = "";
	size_t wl = 0;

	ours_ms = (double)s->runtime_ns / 1e6;
	tol_ms = fmax(0.01 * p->runtime_ms, 0.002);
	rt_ok = fabs(ours_ms - p->runtime_ms) <= tol_ms + 1e-9;
	sw_ok = as_perf == p->count;
	few = !sw_ok && p->count < 20;
	*sum_ours += as_perf;
	*sum_perf += p->count;
	x->big += p->count >= 20;
	x->compared++;
	/* the switch-ins perf's rule leaves out, where there are any */
	for (int k = 0; pt && k < MISS_N && wl < sizeof(why); k++)
		if (pt->missed[k])
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl,
					       "%s%llu %s", wl ? ", " : "; not counted: ",
					       (unsigned long long)pt->missed[k],
					       miss_name[k]);
	if (s->repaired && wl < sizeof(why))
		snprintf(why + wl, sizeof(why) - wl,
			 "; %llu reconstructed",
			 (unsigned long long)s->repaired);
	printf("%-24.24s %10.3f %10.3f %7llu %7llu %7llu  %s%s%s\n",
	       p->comm, p->runtime_ms, ours_ms,
	       (unsigned long long)p->count,
	       (unsigned long long)as_perf,
	       (unsigned long long)s->switches,
	       rt_ok ? "runtime ok" : "RUNTIME DIFFERS",
	       sw_ok ? ", switches ok"
	       : few ? ", switches differ (under 20: listed, not asserted)"
		     : ", SWITCHES DIFFER", why);
	return !rt_ok + (!sw_ok && !few);
}

static int crosscheck(const char *script, const char *latency,
		      struct xcheck *x)
{
	struct ft_trace t;
	struct ft_model m;
	struct perf_count pc[NRULES];
	struct perf_row *rows = NULL;
	size_t nrows = 0;
	char err[1024];
	int fails = 0, best;
	uint64_t sum_ours = 0, sum_perf = 0;
	int rc = ft_load(script, &t, err, sizeof(err));

	memset(x, 0, sizeof(*x));
	memset(pc, 0, sizeof(pc));
	if (rc < 0) {
		printf("%s\n", err);
		return 1;
	}
	if (rc > 0)
		printf("note: %s\n", t.warning);
	if (ft_model_build(&m, &t)) {
		printf("out of memory\n");
		ft_trace_free(&t);
		return 1;
	}
	printf("runtime from %s; %llu idle->task switch-ins reconstructed, %llu "
	       "other repairs (not seen by perf, not in its count)\n",
	       m.runtime_source, (unsigned long long)t.reconstructed,
	       (unsigned long long)t.inconsistent);
	if (read_rows(latency, &rows, &nrows, &fails))
		goto out;
	if (!nrows) {
		printf("%s: no task rows (expected 'perf sched latency -p' output)\n",
		       latency);
		fails++;
		goto out;
	}
	best = pick_rule(&t, pc, rows, nrows);
	if (best < 0) {
		fails++;
		goto out;
	}
	x->rule = best;
	printf("perf's rule: %s\n", perf_rules[best].name);
	printf("%-24s %10s %10s %7s %7s %7s  %s\n", "task", "perf ms", "ours ms",
	       "perf sw", "as perf", "ours sw", "verdict");
	for (size_t i = 0; i < nrows; i++) {
		const struct perf_row *p = &rows[i];
		const struct ft_tstat *s = ft_model_task(&m, p->tid);
		const struct perf_task *pt = perf_task_get(&pc[best], p->tid);

		if (!s) {
			printf("%-24s missing from frametrace's report\n", p->comm);
			fails++;
			continue;
		}
		fails += compare_row(p, s, pt, x, &sum_ours, &sum_perf);
	}
	if (fabs((double)sum_ours - (double)sum_perf) > 0.01 * (double)sum_perf) {
		printf("total switches differ: %llu (perf) vs %llu (as perf "
		       "counts)\n", (unsigned long long)sum_perf,
		       (unsigned long long)sum_ours);
		fails++;
	}
	printf("%zu tasks, %d compared (%d with >= 20 switches), total "
	       "switches %llu (perf) vs %llu (frametrace, as perf counts)\n",
	       nrows, x->compared, x->big, (unsigned long long)sum_perf,
	       (unsigned long long)sum_ours);
	if (!x->big) {
		printf("no task has 20 or more switches\n");
		fails++;
	}
out:
	for (size_t r = 0; r < NRULES; r++)
		perf_count_free(&pc[r]);
	free(rows);
	ft_model_free(&m);
	ft_trace_free(&t);
	return fails;
}

/* ---- unit tests of the rule on hand-made events ----------------------- */

enum { R_61, R_WAKING, R_NEW };	/* perf_rules[] */

#define SW(when, prev, state, next) \
	{ .ts = (when), .type = FT_EV_SWITCH, .tid = (prev), .arg = (next), \
	  .arg2 = (state) }
/* preempted: prev_state R+ */
#define SWP(when, prev, next) \
	{ .ts = (when), .type = FT_EV_SWITCH, .tid = (prev), .arg = (next), \
	  .flags = FT_F_PREEMPT }
#define WAKE(when, kind, task) { .ts = (when), .type = (kind), .tid = (task) }
#define RUNTIME(when, task) { .ts = (when), .type = FT_EV_RUNTIME, .tid = (task) }

/* Counts evs under rule r; returns task tid's count, its missed[] in
 * missed (may be NULL). */
static uint64_t count_of(const struct ft_ev *evs, size_t n, int r,
			 uint32_t tid, uint64_t missed[MISS_N])
{
	struct ft_trace t;
	struct perf_count c;
	const struct perf_task *p;
	uint64_t sw;

	ft_trace_init(&t);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ft_trace_push(&t, &evs[i]), 0);
	assert_int_equal(perf_count(&t, &perf_rules[r], &c), 0);
	p = perf_task_get(&c, tid);
	sw = p ? p->switches : 0;
	if (missed)
		for (int k = 0; k < MISS_N; k++)
			missed[k] = p ? p->missed[k] : 0;
	perf_count_free(&c);
	ft_trace_free(&t);
	return sw;
}

#define COUNT(evs, r, tid, missed) \
	count_of((evs), sizeof(evs) / sizeof((evs)[0]), (r), (tid), (missed))

/* First seen as next: an initial WAIT_CPU atom, the switch-in counts. A
 * sleeping switch-out, a wake-up, a switch-in: counts again. */
static void rule_wake_after_sleep(void **state)
{
	const struct ft_ev evs[] = {
		SW(100, 1, 0x1, 2),		/* 2 first seen: counts */
		SW(200, 2, 0x1, 1),		/* 2 sleeps (S) */
		WAKE(300, FT_EV_WAKEUP, 2),
		SW(400, 1, 0x2, 2),		/* counts */
		SW(500, 2, 0x2, 0),		/* D */
		WAKE(600, FT_EV_WAKEUP, 2),
		SW(700, 0, 0, 2),		/* counts */
	};

	(void)state;
	for (int r = 0; r < (int)NRULES; r++)
		assert_int_equal(COUNT(evs, r, 2, NULL), 3);
}

/* A switch-in after a sleeping switch-out with no wake-up recorded does
 * not count. */
static void rule_no_wakeup(void **state)
{
	const struct ft_ev evs[] = {
		SW(100, 1, 0x1, 2),		/* counts */
		SW(200, 2, 0x1, 1),
		SW(300, 1, 0x1, 2),		/* no wake-up: not counted */
	};
	uint64_t missed[MISS_N];

	(void)state;
	assert_int_equal(COUNT(evs, R_61, 2, missed), 1);
	assert_int_equal(missed[MISS_NO_WAKE], 1);
}

/* prev_state R (runnable, not preempted, e.g. sched_yield): WAIT_CPU
 * under every rule. R+ (preempted): SLEEPING for perf 6.1 and the
 * waking rule, WAIT_CPU with evsel__taskstate. */
static void rule_runnable_and_preempted(void **state)
{
	const struct ft_ev yield[] = {
		SW(100, 1, 0x1, 2),		/* counts */
		SW(200, 2, 0, 1),		/* R */
		SW(300, 1, 0x1, 2),		/* counts */
	};
	const struct ft_ev preempted[] = {
		SW(100, 1, 0x1, 2),		/* counts */
		SWP(200, 2, 1),			/* R+ */
		SW(300, 1, 0x1, 2),		/* counts only if R+ waits */
	};
	uint64_t missed[MISS_N];

	(void)state;
	for (int r = 0; r < (int)NRULES; r++)
		assert_int_equal(COUNT(yield, r, 2, NULL), 2);
	assert_int_equal(COUNT(preempted, R_61, 2, missed), 1);
	assert_int_equal(missed[MISS_PREEMPT], 1);
	assert_int_equal(COUNT(preempted, R_WAKING, 2, NULL), 1);
	assert_int_equal(COUNT(preempted, R_NEW, 2, NULL), 2);
}

/* A wake-up that comes while the task runs (before its sleeping
 * switch-out, as sched_waking can) is ignored: the switch-in after the
 * switch-out does not count. So is a second wake-up of a waiting task:
 * one switch-in, one count. */
static void rule_wake_before_switch_out(void **state)
{
	const struct ft_ev early[] = {
		SW(100, 1, 0x1, 2),		/* counts */
		WAKE(150, FT_EV_WAKEUP, 2),	/* 2 still runs: ignored */
		SW(200, 2, 0x1, 1),		/* S */
		SW(300, 1, 0x1, 2),		/* not counted */
	};
	const struct ft_ev twice[] = {
		SW(100, 2, 0x1, 1),		/* 2 first seen as prev */
		WAKE(200, FT_EV_WAKEUP, 2),
		WAKE(250, FT_EV_WAKEUP, 2),	/* already waiting: ignored */
		SW(300, 1, 0x1, 2),		/* counts */
	};
	uint64_t missed[MISS_N];

	(void)state;
	assert_int_equal(COUNT(early, R_61, 2, missed), 1);
	assert_int_equal(missed[MISS_EARLY], 1);
	assert_int_equal(COUNT(twice, R_61, 2, NULL), 1);
}

/* First seen by a wake-up: a SLEEPING atom the wake-up turns WAIT_CPU;
 * by sched_stat_runtime: WAIT_CPU. Either way the switch-in counts. */
static void rule_first_seen(void **state)
{
	const struct ft_ev by_wake[] = {
		WAKE(100, FT_EV_WAKEUP, 2),
		SW(200, 1, 0x1, 2),		/* counts */
	};
	const struct ft_ev by_runtime[] = {
		RUNTIME(100, 2),
		SW(200, 1, 0x1, 2),		/* counts */
	};
	const struct ft_ev by_prev[] = {
		SW(100, 2, 0x1, 1),		/* first seen going to sleep */
		SW(200, 1, 0x1, 2),		/* not counted */
	};

	(void)state;
	for (int r = 0; r < (int)NRULES; r++) {
		assert_int_equal(COUNT(by_wake, r, 2, NULL), 1);
		assert_int_equal(COUNT(by_runtime, r, 2, NULL), 1);
		assert_int_equal(COUNT(by_prev, r, 2, NULL), 0);
	}
}

/* Which wake-up: perf 6.1 takes sched_wakeup (and sched_wakeup_new) and
 * ignores sched_waking; later perfs take sched_waking when the trace has
 * it and then ignore sched_wakeup, else sched_wakeup. */
static void rule_wake_events(void **state)
{
	const struct ft_ev waking_only[] = {
		SW(100, 2, 0x1, 1),
		WAKE(200, FT_EV_WAKING, 2),
		SW(300, 1, 0x1, 2),
	};
	const struct ft_ev wakeup_only[] = {
		SW(100, 2, 0x1, 1),
		WAKE(200, FT_EV_WAKEUP, 2),
		SW(300, 1, 0x1, 2),
	};
	/* both recorded; task 3's sched_waking came too early (it still
	 * ran), its sched_wakeup after the switch-out */
	const struct ft_ev both[] = {
		SW(100, 1, 0x1, 3),		/* counts (first seen) */
		WAKE(150, FT_EV_WAKING, 3),	/* while running */
		SW(200, 3, 0x1, 1),
		WAKE(250, FT_EV_WAKEUP, 3),
		SW(300, 1, 0x1, 3),
	};
	const struct ft_ev new_task[] = {
		WAKE(100, FT_EV_WAKEUP_NEW, 2),
		SW(200, 1, 0x1, 2),		/* counts */
		SW(300, 2, 0x1, 1),
		WAKE(350, FT_EV_WAKING, 4),	/* the trace has sched_waking */
		WAKE(400, FT_EV_WAKEUP_NEW, 2),	/* still a wake-up */
		SW(500, 1, 0x1, 2),		/* counts */
	};

	(void)state;
	assert_int_equal(COUNT(waking_only, R_61, 2, NULL), 0);
	assert_int_equal(COUNT(waking_only, R_WAKING, 2, NULL), 1);
	assert_int_equal(COUNT(waking_only, R_NEW, 2, NULL), 1);
	for (int r = 0; r < (int)NRULES; r++)
		assert_int_equal(COUNT(wakeup_only, r, 2, NULL), 1);
	assert_int_equal(COUNT(both, R_61, 3, NULL), 2);
	assert_int_equal(COUNT(both, R_WAKING, 3, NULL), 1);
	assert_int_equal(COUNT(both, R_NEW, 3, NULL), 1);
	for (int r = 0; r < (int)NRULES; r++)
		assert_int_equal(COUNT(new_task, r, 2, NULL), 2);
}

/* Switches frametrace reconstructed are not perf's: skipped. A task
 * switched in twice without a switch-out between counts once. Migrations
 * do not wake. */
static void rule_reconstructed_and_others(void **state)
{
	const struct ft_ev evs[] = {
		SW(100, 1, 0x1, 2),		/* counts */
		SW(200, 2, 0x1, 0),
		{ .ts = 250, .type = FT_EV_MIGRATE, .tid = 2, .arg = 0, .arg2 = 1 },
		{ .ts = 300, .type = FT_EV_SWITCH, .tid = 0, .arg = 2,
		  .arg2 = FT_STATE_UNKNOWN, .flags = FT_F_RECONSTRUCTED },
		SW(400, 1, 0x1, 2),		/* asleep, no wake-up */
		WAKE(500, FT_EV_WAKEUP, 2),
		SW(600, 3, 0x1, 2),		/* counts */
		SW(700, 4, 0x1, 2),		/* no switch-out between */
	};
	uint64_t missed[MISS_N];

	(void)state;
	assert_int_equal(COUNT(evs, R_61, 2, missed), 2);
	assert_int_equal(missed[MISS_NO_WAKE], 1);
	assert_int_equal(missed[MISS_NOT_OUT], 1);
}

/* Through the importer: "R" and "R+" of `perf script` text. */
static void rule_from_perf_text(void **state)
{
	static const char text[] =
		"  a   1 [000] 1.000000100: sched:sched_switch: prev_comm=a prev_pid=1 "
		"prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n"
		"  b   2 [000] 1.000000200: sched:sched_switch: prev_comm=b prev_pid=2 "
		"prev_prio=120 prev_state=R+ ==> next_comm=c next_pid=3 next_prio=120\n"
		"  c   3 [000] 1.000000300: sched:sched_switch: prev_comm=c prev_pid=3 "
		"prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n"
		"  b   2 [000] 1.000000400: sched:sched_switch: prev_comm=b prev_pid=2 "
		"prev_prio=120 prev_state=S ==> next_comm=c next_pid=3 next_prio=120\n";
	struct ft_trace t;
	struct perf_count c;
	char err[256];

	(void)state;
	assert_true(ft_load_mem(text, sizeof(text) - 1, "text", &t, err,
				sizeof(err)) >= 0);
	assert_int_equal(perf_count(&t, &perf_rules[R_61], &c), 0);
	assert_int_equal(perf_switches(&c, 2), 1);	/* after R+: no */
	assert_int_equal(perf_switches(&c, 3), 2);	/* after R: yes */
	perf_count_free(&c);
	assert_int_equal(perf_count(&t, &perf_rules[R_NEW], &c), 0);
	assert_int_equal(perf_switches(&c, 2), 2);
	perf_count_free(&c);
	ft_trace_free(&t);
}

/* The committed fixture: recorded with a perf that reads R+ as 'R' and
 * only sched_waking; every task compared, reconstructed switches and
 * all. */
static void fixture(void **state)
{
	struct xcheck x;

	(void)state;
	assert_int_equal(crosscheck("tests/fixtures/frametrace-perf-sched.txt",
				    "tests/fixtures/frametrace-perf-sched-latency.txt",
				    &x),
			 0);
	assert_int_equal(x.rule, R_NEW);
	assert_true(x.compared >= 30);
	assert_true(x.big >= 10);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_wake_after_sleep),
		cmocka_unit_test(rule_no_wakeup),
		cmocka_unit_test(rule_runnable_and_preempted),
		cmocka_unit_test(rule_wake_before_switch_out),
		cmocka_unit_test(rule_first_seen),
		cmocka_unit_test(rule_wake_events),
		cmocka_unit_test(rule_reconstructed_and_others),
		cmocka_unit_test(rule_from_perf_text),
		cmocka_unit_test(fixture),
	};

	if (argc == 3) {
		struct xcheck x;

		return crosscheck(argv[1], argv[2], &x) ? 1 : 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
