// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd's topology and energy side (lavd/topo.c,
 * lavd/cpdom.c): NUMA nodes and x86 hybrid core types from a fake sysfs
 * tree, core types from capacities, the topology override file (format
 * and its errors), compute domains with their neighbour distances, and
 * the CPU preference orders of core compaction. Also the energy part of
 * the --stats line (lavd/report.c) and the power profile parsers
 * (lavd/power.c). Linked with the loader's library (liblavd.a).
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

#include "../lavd/intf.h"
#include "../lavd/power.h"
#include "../lavd/report.h"
#include "../lavd/topo.h"

#define FAKE_TREE_NAME "test_lavd_domains"
#include "fake_tree.h"

static struct lavd_topo T;	/* large: not on the stack */

static void read_ok(void)
{
	char err[256] = "";

	assert_int_equal(lavd_topo_read(tmpdir, &T, err, sizeof(err)), 0);
}

static void domains_ok(void)
{
	char err[256] = "";

	if (lavd_topo_domains(&T, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

/* The VM test's shape: 2 sockets x 2 cores, one LLC and node per socket. */
static void numa_two_sockets(void **state)
{
	(void)state;
	put("devices/system/cpu/possible", "0-3\n");
	put("devices/system/cpu/online", "0-3\n");
	fake_cpu(0, "0-1", "0", NULL);
	fake_cpu(1, "0-1", "1", NULL);
	fake_cpu(2, "2-3", "2", NULL);
	fake_cpu(3, "2-3", "3", NULL);
	put("devices/system/node/node0/cpulist", "0-1\n");
	put("devices/system/node/node1/cpulist", "2-3\n");
	read_ok();
	assert_int_equal(T.nr_nodes, 2);
	assert_int_equal(T.node[1], 0);
	assert_int_equal(T.node[2], 1);
	domains_ok();
	assert_false(T.have_little);
	assert_string_equal(T.type_src, "uniform");
	assert_int_equal(T.nr_doms, 2);
	assert_int_equal(T.dom[0], 0);
	assert_int_equal(T.dom[1], 0);
	assert_int_equal(T.dom[3], 1);
	assert_int_equal(T.doms[0].nr_cpus, 2);
	assert_int_equal(T.doms[1].cap, 2048);
	assert_int_equal(T.doms[0].nr_nbr, 1);
	assert_int_equal(T.doms[0].nbr[0], 1);
	assert_int_equal(T.doms[0].nbr_dist[0], 2);	/* another node */
	assert_int_equal(T.nr_order, 4);
}

/* Hybrid by capacity, SMT on the big cores, two LLCs in one node. */
static void hybrid_by_capacity(void **state)
{
	(void)state;
	put("devices/system/cpu/possible", "0-7\n");
	put("devices/system/cpu/online", "0-7\n");
	/* big cores 0-3 (SMT pairs 0,1 and 2,3), little 4-7; two LLCs */
	fake_cpu(0, "0-3,4-5", "0-1", "1024");
	fake_cpu(1, "0-3,4-5", "0-1", "1024");
	fake_cpu(2, "0-3,4-5", "2-3", "1000");	/* slightly slower: still big */
	fake_cpu(3, "0-3,4-5", "2-3", "1000");
	fake_cpu(4, "0-3,4-5", "4", "400");
	fake_cpu(5, "0-3,4-5", "5", "400");
	fake_cpu(6, "6-7", "6", "400");
	fake_cpu(7, "6-7", "7", "400");
	read_ok();
	domains_ok();
	assert_true(T.have_little);
	assert_string_equal(T.type_src, "cpu_capacity");
	assert_true(T.big[0] && T.big[3]);
	assert_false(T.big[4] || T.big[7]);
	/* domains: (llc0, big), (llc0, little), (llc1, little) */
	assert_int_equal(T.nr_doms, 3);
	assert_int_equal(T.dom[0], 0);
	assert_int_equal(T.dom[4], 1);
	assert_int_equal(T.dom[6], 2);
	assert_true(T.doms[0].big);
	assert_false(T.doms[1].big);
	assert_int_equal(T.doms[0].cap, 4048);
	/* neighbours nearest first: the little domain of the same LLC */
	assert_int_equal(T.doms[0].nr_nbr, 2);
	assert_int_equal(T.doms[0].nbr[0], 1);
	assert_int_equal(T.doms[0].nbr_dist[0], 0);
	assert_int_equal(T.doms[0].nbr[1], 2);
	assert_int_equal(T.doms[0].nbr_dist[1], 1);
	assert_int_equal(T.doms[2].nbr_dist[0], 1);
	/* performance order: one thread of each big core, then the second
	 * threads, then the little cores */
	{
		const int perf[8] = { 0, 2, 1, 3, 4, 5, 6, 7 };
		const int save[8] = { 4, 5, 6, 7, 0, 1, 2, 3 };

		for (int i = 0; i < 8; i++) {
			assert_int_equal(T.order_perf[i], perf[i]);
			assert_int_equal(T.order_save[i], save[i]);
		}
	}
}

/* x86 hybrid: the cpu_core/cpu_atom PMUs name the core types. */
static void hybrid_x86_pmus(void **state)
{
	(void)state;
	put("devices/system/cpu/possible", "0-3\n");
	put("devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char s[8];

		snprintf(s, sizeof(s), "%d", c);
		fake_cpu(c, "0-3", s, NULL);
	}
	put("devices/cpu_core/cpus", "0-1\n");
	put("devices/cpu_atom/cpus", "2-3\n");
	read_ok();
	assert_int_equal(T.hybrid[0], 1);
	assert_int_equal(T.hybrid[3], 2);
	domains_ok();
	assert_true(T.have_little);
	assert_true(T.big[1]);
	assert_false(T.big[2]);
	/* no capacities said otherwise: the E-cores get the assumed one */
	assert_int_equal(T.capacity[2], 640);
	assert_int_equal(T.capacity[0], 1024);
	assert_non_null(strstr(T.type_src, "x86 hybrid"));
	assert_int_equal(T.nr_doms, 2);
}

/* The override file: a hybrid VM from identical emulated CPUs. */
static void override_hybrid(void **state)
{
	char err[256] = "";

	(void)state;
	numa_two_sockets(state);
	assert_int_equal(lavd_topo_override_text("hy.topo",
		"# two big and two little cores in one LLC\n"
		"cpus 0-1 node 0 llc 0 capacity 1024 type big   # P\n"
		"\n"
		"cpus 2,3 node 0 llc 0 capacity 512 type little\n",
		&T, err, sizeof(err)), 0);
	domains_ok();
	assert_string_equal(T.override, "hy.topo");
	assert_string_equal(T.type_src, "override");
	assert_string_equal(T.capacity_src, "override");
	assert_int_equal(T.nr_nodes, 1);
	assert_int_equal(T.nr_llcs, 1);
	assert_int_equal(T.capacity[3], 512);
	assert_true(T.have_little);
	assert_int_equal(T.nr_doms, 2);
	assert_int_equal(T.doms[0].nbr_dist[0], 0);
	assert_int_equal(T.order_save[0], 2);
	assert_int_equal(T.order_perf[0], 0);
}

/* Labels, SMT grouping, CPUs left out keep what sysfs said. */
static void override_labels_smt(void **state)
{
	char err[256] = "";

	(void)state;
	numa_two_sockets(state);
	assert_int_equal(lavd_topo_override_text("x",
		"cpus 0-3 llc 7 smt 2\n", &T, err, sizeof(err)), 0);
	domains_ok();
	assert_int_equal(T.nr_llcs, 1);
	assert_int_equal(T.llc[3], 0);
	assert_int_equal(T.nr_nodes, 2);	/* nodes from sysfs */
	assert_true(T.smt);
	assert_int_equal(T.nr_cores, 2);
	assert_int_equal(T.core[1], 0);
	assert_int_equal(T.core[3], 2);
	assert_int_equal(T.nr_doms, 2);		/* one per node */
	/* capacity with no type: derived (midpoint rule) */
	numa_two_sockets(state);
	assert_int_equal(lavd_topo_override_text("x",
		"cpus 3 capacity 300\n", &T, err, sizeof(err)), 0);
	domains_ok();
	assert_false(T.big[3]);
	assert_true(T.big[2]);
	assert_int_equal(T.nr_doms, 3);
	assert_string_equal(T.type_src, "override");	/* capacity came from it */
}

static void override_errors(void **state)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "cpu 0 node 0\n", "x:1: expected 'cpus LIST" },
		{ "\n\ncpus\n", "x:3: expected 'cpus LIST" },
		{ "cpus 0-x\n", "x:1: '0-x' is not a CPU list" },
		{ "cpus 0 node\n", "x:1: 'node' needs a value" },
		{ "cpus 0 colour red\n", "x:1: unknown key 'colour'" },
		{ "cpus 0 capacity 0\n", "capacity: expected 1..1024, got '0'" },
		{ "cpus 0 capacity 2000\n", "capacity: expected 1..1024" },
		{ "cpus 0 capacity 5x\n", "capacity: expected 1..1024" },
		{ "cpus 0 type medium\n", "type: expected big or little, got 'medium'" },
		{ "cpus 0 smt 9\n", "smt: expected 1..8" },
		{ "cpus 0 llc -1\n", "llc: expected 0..4095" },
		{ "cpus 7\n", "x:1: CPU 7 does not exist (4 possible CPUs)" },
		{ "cpus 0-1\ncpus 1\n", "x:2: CPU 1 is listed twice" },
	};
	char err[256];

	(void)state;
	numa_two_sockets(state);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(lavd_topo_override_text("x", bad[i].text, &T, err,
							 sizeof(err)), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, err, bad[i].want);
	}
	/* the file reader */
	assert_int_equal(lavd_topo_override("/nonexistent/x.topo", &T, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open /nonexistent/x.topo"));
	put("bin.topo", "cpus 0\n");
	{
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/bin.topo", tmpdir);
		f = fopen(path, "w");
		assert_non_null(f);
		fwrite("cpus 0\n\0\0", 1, 9, f);
		fclose(f);
		assert_int_equal(lavd_topo_override(path, &T, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "not a text file"));
		put("ok.topo", "cpus 0-1 type big\ncpus 2-3 type little\n");
		snprintf(path, sizeof(path), "%s/ok.topo", tmpdir);
		assert_int_equal(lavd_topo_override(path, &T, err, sizeof(err)), 0);
	}
}

/* More domains than BPF has queues for: a clear error. */
static void too_many_domains(void **state)
{
	char err[256] = "", text[8192];
	size_t off = 0;

	(void)state;
	put("devices/system/cpu/possible", "0-127\n");
	put("devices/system/cpu/online", "0-127\n");
	read_ok();
	for (int c = 0; c < 128; c += 2)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"cpus %d-%d llc %d\n", c, c + 1, c / 2);
	/* 64 LLCs: still fine */
	assert_int_equal(lavd_topo_override_text("m", text, &T, err, sizeof(err)), 0);
	domains_ok();
	assert_int_equal(T.nr_doms, 64);
	/* 64 LLCs with a little core in each: 128 domains */
	read_ok();
	off = 0;
	for (int c = 0; c < 128; c += 2)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"cpus %d llc %d type big\ncpus %d llc %d type little\n",
					c, c / 2, c + 1, c / 2);
	assert_int_equal(lavd_topo_override_text("m", text, &T, err, sizeof(err)), 0);
	assert_int_equal(lavd_topo_domains(&T, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 64 compute domains"));
}

/* The energy part of the statistics line. */
static void energy_line(void **state)
{
	static struct lavd_stats a, b;
	char line[1024];

	(void)state;
	b.nr_active = 2;
	b.nr_cpus = 4;
	b.nr_overflow = 1;
	b.power_mode = LAVD_PM_BALANCED;
	b.mode_ns[LAVD_PM_PERFORMANCE] = 1500000000ULL;
	b.mode_ns[LAVD_PM_BALANCED] = 3000000000ULL;
	b.mode_ns[LAVD_PM_POWERSAVE] = 500000000ULL;
	b.req_cap = 1536;
	b.big_scale = 512;
	b.perf_thresh = 23;
	b.nr_heavy = 1;
	b.nr_sched = 1000;
	b.nr_perf_cri = 250;
	b.nr_on_big = 600;
	b.nr_pc_on_big = 240;
	b.nr_doms = 2;
	b.nr_stealer = 1;
	b.nr_stealee = 1;
	b.dom_sched[0] = 400;
	b.dom_sched[1] = 600;
	b.nr_migrate = 60;
	b.nr_xdom = 10;
	b.nr_steal = 9;
	b.nr_force_steal = 4;
	b.nr_donate = 3;
	b.nr_move = 2;
	b.cpuperf_avg = 640;
	b.nr_cpuperf_set = 7;
	lavd_energy_line(line, sizeof(line), &a, &b, 2.0, true);
	assert_string_equal(line,
		"active 2/4 ovf 1 | mode balanced req 1.50 time perf 1.5s bal 3.0s "
		"save 0.5s | big 50% pthr 23 pc 25% on-big 60% pc-on-big 96% heavy 1 | "
		"doms 2 [40% 60%] stealer 1 stealee 1 | mig/s 30 xdom/s 5 stolen 9 "
		"forced 4 donated 3 moved 2 | freq 63% set 7");
	/* no little cores: the big/little part says so */
	lavd_energy_line(line, sizeof(line), &a, &b, 2.0, false);
	assert_non_null(strstr(line, "| big - heavy 1 |"));
	/* one domain: no per-domain shares */
	b.nr_doms = 1;
	lavd_energy_line(line, sizeof(line), &a, &b, 2.0, false);
	assert_non_null(strstr(line, "| doms 1 stealer"));
	/* empty interval */
	lavd_energy_line(line, sizeof(line), &b, &b, 0.0, true);
	assert_non_null(strstr(line, "pc 0% on-big 0%"));
	assert_string_equal(lavd_power_mode_str(LAVD_PM_POWERSAVE), "powersave");
	assert_string_equal(lavd_power_mode_str(9), "?");
}

/* --autopower: platform profile, then EPP; values to modes. */
static void power_profiles(void **state)
{
	char src[64], val[64], path[512];

	(void)state;
	assert_int_equal(lavd_profile_mode("low-power"), LAVD_PM_POWERSAVE);
	assert_int_equal(lavd_profile_mode("quiet"), LAVD_PM_POWERSAVE);
	assert_int_equal(lavd_profile_mode("balanced"), LAVD_PM_BALANCED);
	assert_int_equal(lavd_profile_mode("balanced-performance"), LAVD_PM_PERFORMANCE);
	assert_int_equal(lavd_profile_mode("performance"), LAVD_PM_PERFORMANCE);
	assert_int_equal(lavd_profile_mode("custom"), LAVD_PM_AUTO);
	assert_int_equal(lavd_profile_mode(""), LAVD_PM_AUTO);
	assert_int_equal(lavd_epp_mode("power"), LAVD_PM_POWERSAVE);
	assert_int_equal(lavd_epp_mode("balance_power"), LAVD_PM_POWERSAVE);
	assert_int_equal(lavd_epp_mode("default"), LAVD_PM_BALANCED);
	assert_int_equal(lavd_epp_mode("balance_performance"), LAVD_PM_BALANCED);
	assert_int_equal(lavd_epp_mode("performance"), LAVD_PM_PERFORMANCE);
	assert_int_equal(lavd_epp_mode("turbo"), LAVD_PM_AUTO);

	/* nothing there */
	assert_int_equal(lavd_power_profile(tmpdir, NULL, src, sizeof(src), val,
					    sizeof(val)), -1);
	assert_string_equal(src, "none");
	/* EPP only */
	put("devices/system/cpu/cpufreq/policy0/energy_performance_preference",
	    "balance_power\n");
	assert_int_equal(lavd_power_profile(tmpdir, NULL, src, sizeof(src), val,
					    sizeof(val)), LAVD_PM_POWERSAVE);
	assert_string_equal(src, "energy_performance_preference");
	assert_string_equal(val, "balance_power");
	/* the platform profile wins */
	put("firmware/acpi/platform_profile", "performance\n");
	assert_int_equal(lavd_power_profile(tmpdir, NULL, src, sizeof(src), val,
					    sizeof(val)), LAVD_PM_PERFORMANCE);
	assert_string_equal(src, "platform_profile");
	/* a file named on the command line */
	put("p", " low-power \n");
	snprintf(path, sizeof(path), "%s/p", tmpdir);
	assert_int_equal(lavd_power_profile(tmpdir, path, src, sizeof(src), val,
					    sizeof(val)), LAVD_PM_POWERSAVE);
	assert_string_equal(src, path);
	assert_string_equal(val, "low-power");
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	assert_int_equal(lavd_power_profile(tmpdir, path, src, sizeof(src), val,
					    sizeof(val)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(numa_two_sockets, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(hybrid_by_capacity, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(hybrid_x86_pmus, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(override_hybrid, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(override_labels_smt, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(override_errors, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(too_many_domains, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test(energy_line),
		cmocka_unit_test_setup_teardown(power_profiles, fake_tree_setup, fake_tree_teardown),
	};

	return cmocka_run_group_tests_name("lavd domains", tests, NULL, NULL);
}
