// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the processes inferred for a text trace without pids
 * (frametrace/import/import_procs.c): perf script's default fields print a tid
 * and no pid. Each rule on a few hand-written lines; the real recording
 * is tests/frametrace_profile.sh's fixture.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "import/import.h"
#include "trace/trace.h"

/* 100 execs; 101 a thread (task_newtask with CLONE_THREAD); 102 a process
 * (task_newtask without it) that forks 103; 104 forked with nothing said;
 * 105 forked, then its group exits while 100 still runs; kthreadd forks
 * 300; 400 is only switched to. */
static const char tidonly[] =
	" game 100 [000] 1.000000000: sched:sched_process_exec: filename=/g pid=100 old_pid=100\n"
	" game 100 [000] 1.000010000: task:task_newtask: pid=101 comm=game clone_flags=3d0f00 oom_score_adj=0\n"
	" game 100 [000] 1.000011000: sched:sched_process_fork: comm=game pid=100 child_comm=game child_pid=101\n"
	" game 100 [000] 1.000020000: task:task_newtask: pid=102 comm=game clone_flags=1200011 oom_score_adj=0\n"
	" game 100 [000] 1.000021000: sched:sched_process_fork: comm=game pid=100 child_comm=game child_pid=102\n"
	" helper 102 [001] 1.000030000: sched:sched_process_fork: comm=helper pid=102 child_comm=helper child_pid=103\n"
	" game 100 [000] 1.000040000: sched:sched_process_fork: comm=game pid=100 child_comm=game child_pid=104\n"
	" game 100 [000] 1.000050000: sched:sched_process_fork: comm=game pid=100 child_comm=game child_pid=105\n"
	" kthreadd 2 [001] 1.000060000: sched:sched_process_fork: comm=kthreadd pid=2 child_comm=kthreadd child_pid=300\n"
	" solo 105 [001] 1.000070000: sched:sched_process_exit: comm=solo pid=105 prio=120 group_dead=true\n"
	" game 100 [000] 1.000080000: sched:sched_switch: prev_comm=game prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=other next_pid=400 next_prio=120\n";

static void infer_rules(void **state)
{
	static const uint32_t want[][2] = {
		{ 100, 100 }, { 101, 100 }, { 102, 102 }, { 103, 102 },
		{ 104, 100 }, { 105, 105 }, { 300, 300 }, { 400, 400 },
	};
	struct ft_trace t;
	char err[512];
	const char *note;

	(void)state;
	assert_true(ft_import_mem(tidonly, strlen(tidonly), "t.txt",
				  FT_FMT_PERF, &t, err, sizeof(err)) >= 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(ft_task_pid(&t, want[i][0]), want[i][1]);
	assert_true(ft_task_kthread(&t, 300));
	assert_true(ft_task_kthread(&t, 2));
	assert_false(ft_task_kthread(&t, 104));
	note = ft_meta_get(&t, "processes");
	assert_non_null(note);
	assert_non_null(strstr(note, "without a pid column"));
	assert_non_null(strstr(note, "2 forked: taken as threads"));
	assert_non_null(strstr(note, "1 forked: processes, since their group"));
	ft_trace_free(&t);
}

/* With a pid column nothing is inferred: a task seen only in another's
 * fields keeps pid 0 (unknown), and no note. */
static void pid_column_kept(void **state)
{
	static const char withpid[] =
		" game 100/101 [000] 1.000000000: sched:sched_switch: prev_comm=game prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=other next_pid=400 next_prio=120\n";
	struct ft_trace t;
	char err[512];

	(void)state;
	assert_true(ft_import_mem(withpid, strlen(withpid), "p.txt",
				  FT_FMT_PERF, &t, err, sizeof(err)) >= 0);
	assert_int_equal(ft_task_pid(&t, 101), 100);
	assert_int_equal(ft_task_pid(&t, 400), 0);
	assert_null(ft_meta_get(&t, "processes"));
	ft_trace_free(&t);
}

/* Kernel threads by name: the forms only the kernel gives. */
static void kthread_names(void **state)
{
	static const char *const yes[] = { "rcu_preempt", "kworker/0:1",
					   "kworker/u8:2", "ksoftirqd/1",
					   "migration/0", "irq/24-nvme0q0",
					   "kthreadd", "kswapd0" };
	static const char *const no[] = { "IPC I/O Parent", "llvmpipe-0",
					  "fb-game", "Xvfb", "dxvk-cs" };
	struct ft_trace t;
	uint32_t tid = 10;

	(void)state;
	ft_trace_init(&t);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++, tid++) {
		assert_int_equal(ft_task_set(&t, tid, tid, yes[i]), 0);
		assert_true(ft_task_kthread(&t, tid));
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++, tid++) {
		assert_int_equal(ft_task_set(&t, tid, tid, no[i]), 0);
		assert_false(ft_task_kthread(&t, tid));
	}
	ft_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(infer_rules),
		cmocka_unit_test(pid_column_kept),
		cmocka_unit_test(kthread_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
