// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of the lavd loader's libbpf-free parts: CPU list
 * parsing, topology from a fake sysfs tree (two LLCs, SMT, capacities),
 * the sched_ext state checks (missing, free, another scheduler loaded) and
 * the --stats line. Linked with the loader's library (liblavd.a).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lavd/report.h"
#include "../lavd/topo.h"

#define FAKE_TREE_NAME "test_lavd_loader"
#include "fake_tree.h"

static void cpulist(void **state)
{
	bool set[16];

	(void)state;
	assert_int_equal(lavd_parse_cpulist("0-3,8,10-11\n", set, 16), 7);
	assert_true(set[0] && set[3] && set[8] && set[11]);
	assert_false(set[4] || set[9] || set[12]);
	assert_int_equal(lavd_parse_cpulist("5", set, 16), 1);
	assert_int_equal(lavd_parse_cpulist("", set, 16), 0);
	assert_int_equal(lavd_parse_cpulist("0-1,1", set, 16), 2); /* overlap */
	assert_int_equal(lavd_parse_cpulist("0-16", set, 16), -1); /* too big */
	assert_int_equal(lavd_parse_cpulist("3-1", set, 16), -1);
	assert_int_equal(lavd_parse_cpulist("a", set, 16), -1);
	assert_int_equal(lavd_parse_cpulist("1,", set, 16), -1);
	assert_int_equal(lavd_parse_cpulist("1-", set, 16), -1);
	assert_int_equal(lavd_parse_cpulist("-1", set, 16), -1);
}

/* 8 possible CPUs, 0-5 online; two LLCs (0-3, 4-7); SMT pairs. */
static void topology_two_llcs(void **state)
{
	struct lavd_topo t;
	char err[256];

	(void)state;
	put("devices/system/cpu/possible", "0-7\n");
	put("devices/system/cpu/online", "0-5\n");
	fake_cpu(0, "0-3", "0,2", "1024");
	fake_cpu(1, "0-3", "1,3", "1024");
	fake_cpu(2, "0-3", "0,2", "1024");
	fake_cpu(3, "0-3", "1,3", "1024");
	fake_cpu(4, "4-7", "4-5", "512");
	fake_cpu(5, "4-7", "4-5", "512");
	assert_int_equal(lavd_topo_read(tmpdir, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nr_cpu_ids, 8);
	assert_int_equal(t.nr_online, 6);
	assert_int_equal(t.nr_llcs, 2);
	assert_true(t.llc_from_cache);
	assert_int_equal(t.llc[0], 0);
	assert_int_equal(t.llc[3], 0);
	assert_int_equal(t.llc[4], 1);
	assert_int_equal(t.llc[5], 1);
	assert_int_equal(t.core[2], 0);
	assert_int_equal(t.core[3], 1);
	assert_int_equal(t.core[5], 4);
	assert_int_equal(t.nr_cores, 3);
	assert_true(t.smt);
	assert_int_equal(t.capacity[0], 1024);
	assert_int_equal(t.capacity[4], 512);
	assert_string_equal(t.capacity_src, "cpu_capacity");
	assert_false(t.online[6]);
}

/* No cache or capacity files (some VMs): one LLC, uniform capacity. */
static void topology_bare(void **state)
{
	struct lavd_topo t;
	char err[256];

	(void)state;
	put("devices/system/cpu/possible", "0-1\n");
	put("devices/system/cpu/online", "0-1\n");
	put("devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
	put("devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
	assert_int_equal(lavd_topo_read(tmpdir, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nr_llcs, 1);
	assert_false(t.llc_from_cache);
	assert_false(t.smt);
	assert_int_equal(t.nr_cores, 2);
	assert_string_equal(t.capacity_src, "uniform");
	assert_int_equal(t.capacity[1], 1024);
}

static void topology_errors(void **state)
{
	struct lavd_topo t;
	char err[256];

	(void)state;
	assert_int_equal(lavd_topo_read("/nonexistent-lavd", &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "possible"));
	put("devices/system/cpu/possible", "0-9999\n");
	assert_int_equal(lavd_topo_read(tmpdir, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at most"));
}

static void scx_states(void **state)
{
	char ops[64], st[32], dir[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sched_ext", tmpdir);
	assert_int_equal(lavd_scx_check(dir, ops, sizeof(ops), st, sizeof(st)),
			 LAVD_SCX_MISSING);
	put("sched_ext/state", "disabled\n");
	assert_int_equal(lavd_scx_check(dir, ops, sizeof(ops), st, sizeof(st)),
			 LAVD_SCX_FREE);
	put("sched_ext/state", "enabled\n");
	put("sched_ext/root/ops", "rusty\n");
	assert_int_equal(lavd_scx_check(dir, ops, sizeof(ops), st, sizeof(st)),
			 LAVD_SCX_BUSY);
	assert_string_equal(ops, "rusty");
	assert_string_equal(st, "enabled");
	put("sched_ext/state", "disabling\n");
	unlink(strcat(dir, "/root/ops"));
	dir[strlen(dir) - strlen("/root/ops")] = '\0';
	assert_int_equal(lavd_scx_check(dir, ops, sizeof(ops), st, sizeof(st)),
			 LAVD_SCX_BUSY);
	assert_string_equal(ops, "(unknown)");
}

/*
 * The timer's refill order (seq_end, seq odd; counters; seq, seq_end
 * even): a front-to-back copy is kept only when it saw no refill.
 */
static void stats_copy_consistency(void **state)
{
	struct lavd_stats st = { 0 };

	(void)state;
	assert_true(lavd_stats_consistent(&st));
	st.seq_end = 1;			/* copied seq before the refill began */
	assert_false(lavd_stats_consistent(&st));
	st.seq = 1;			/* copied during the refill */
	assert_false(lavd_stats_consistent(&st));
	st.seq = 2;			/* seq done, seq_end not yet */
	assert_false(lavd_stats_consistent(&st));
	st.seq_end = 2;
	assert_true(lavd_stats_consistent(&st));
	st.seq_end = 3;			/* the next refill began meanwhile */
	assert_false(lavd_stats_consistent(&st));
}

static void stats_line(void **state)
{
	struct lavd_stats a = { 0 }, b = { 0 };
	char line[512];

	(void)state;
	b.nr_queued = 3;
	b.nr_runnable = 7;
	b.nr_sched = 3000;
	b.sum_lat_cri = 3000 * 612;
	b.nr_enq = 1000;
	b.nr_direct = 620;
	b.nr_lat_cri = 540;
	b.nr_greedy = 40;
	b.slice_ns = 4200000;
	b.max_lat_cri = 2304;
	b.nr_steal = 1;
	b.util_pct = 97;
	b.lat_cri_preempt = 2250;
	b.nr_preempt = 120;
	b.nr_preempt_kick = 108;
	b.nr_preempt_try = 160;
	b.futex_path = LAVD_FUTEX_FEXIT;
	b.nr_futex_lock = 80;
	b.nr_holder_ext = 3;
	b.nr_holder_boost = 5;
	b.nr_preempt_spared = 2;
	b.nr_slice_boost = 20;
	b.nr_slice_shrink = 1;
	b.nr_pinned = 40;
	b.nr_keep = 4;
	lavd_stats_line(line, sizeof(line), &a, &b, 2.0);
	assert_string_equal(line,
		"queued 3 runnable 7 | sched/s 1500 direct 62% lat-cri 18% "
		"greedy 4% | slice 4.20ms util 97% | lat_cri avg 612 max 2304 thr 2250 | "
		"preempt/s 60 kick 90% tried/s 80 | futex fexit lock/s 40 ext 3 "
		"boost 5 spared 2 | sboost/s 10 shrink 1 pinned/s 20 cap 0 | "
		"reenq 0 steal 1 keep 4");
	b.futex_path = LAVD_FUTEX_TP;
	lavd_stats_line(line, sizeof(line), &a, &b, 2.0);
	assert_non_null(strstr(line, "futex tracepoint lock/s"));
	assert_string_equal(lavd_futex_path_str(LAVD_FUTEX_OFF), "off");
	/* an empty interval divides by nothing */
	lavd_stats_line(line, sizeof(line), &b, &b, 0.0);
	assert_non_null(strstr(line, "sched/s 0 direct 0%"));
	assert_non_null(strstr(line, "preempt/s 0 kick 0%"));
	assert_string_equal(gs_exit_kind_str(64), "unregistered from user space");
	assert_string_equal(gs_exit_kind_str(1026), "runnable task stall (watchdog)");
	assert_string_equal(gs_exit_kind_str(2000), "error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpulist),
		cmocka_unit_test_setup_teardown(topology_two_llcs, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(topology_bare, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(topology_errors, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(scx_states, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test(stats_copy_consistency),
		cmocka_unit_test(stats_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
