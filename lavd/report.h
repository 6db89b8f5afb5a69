/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The loader's words: the --stats line, names of the kernel's exit kinds,
 * and the sched_ext state checks done before loading. No libbpf here, so
 * all of it is unit-tested on hosts without sched_ext.
 */
#ifndef LAVD_REPORT_H
#define LAVD_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "intf.h"

/*
 * One statistics line for the interval between two snapshots of the
 * lavd_stats record (prev may be all zero for "since load"): rates,
 * shares and the average lat_cri cover the interval; queue length, slice,
 * utilisation and thresholds are the latest values; max lat_cri covers
 * the last second. E.g.
 *   queued 3 runnable 7 | sched/s 1500 direct 62% lat-cri 18% greedy 4%
 *   | slice 4.20ms util 97% | lat_cri avg 612 max 2304 thr 2250
 *   | preempt/s 60 kick 90% tried/s 80 | futex fexit lock/s 40 ext 3
 *   boost 5 spared 2 | sboost/s 10 shrink 1 pinned/s 20 cap 0
 *   | reenq 0 steal 1 keep 0
 */
void lavd_stats_line(char *buf, size_t len, const struct lavd_stats *prev,
		     const struct lavd_stats *cur, double secs);

/*
 * The topology and energy part of the statistics line, printed
 * after lavd_stats_line()'s. Active set and overflow CPUs, power mode
 * with the required capacity (in CPUs) and the time spent in each mode
 * since load, big/little placement (big cores' share of the active
 * capacity, the perf_cri threshold, shares of schedules by tasks that
 * prefer a big core and on big cores; "big -" without little cores),
 * compute domains (share of schedules per domain up to 8, stealer and
 * stealee counts), migrations and cross-domain moves, and the mean
 * cpufreq target. E.g.
 *   active 2/4 ovf 0 | mode balanced req 1.50 time perf 1.5s bal 3.0s
 *   save 0.5s | big 50% pthr 23 pc 25% on-big 60% pc-on-big 96% heavy 1
 *   | doms 2 [40% 60%] stealer 1 stealee 1 | mig/s 30 xdom/s 5 stolen 9
 *   forced 4 donated 3 moved 2 | freq 63% set 7
 */
void lavd_energy_line(char *buf, size_t len, const struct lavd_stats *prev,
		      const struct lavd_stats *cur, double secs, bool have_little);

/* One game profile's part of the statistics line: its processes (up to
 * LAVD_PROF_ROW_PIDS named) and its tasks' schedules in the interval. */
#define LAVD_PROF_ROW_PIDS	3
struct lavd_prof_row {
	char name[LAVD_PROF_NAME_LEN];
	int nproc;
	int pid[LAVD_PROF_ROW_PIDS];
	char comm[LAVD_PROF_ROW_PIDS][16];
	__u64 sched;		/* schedules of its tasks in the interval */
};

/*
 * The game profiles part of the statistics line: how many profiles are
 * loaded and how many processes follow one, then each profile that has
 * processes, with up to three of them and its tasks' schedules per
 * second. E.g.
 *   profiles 5 matched 2: unreal [framebench:812] sched/s 830;
 *   proton [ProtonGame.exe:901 wineserver:899] sched/s 412
 */
void lavd_profiles_line(char *buf, size_t len, int nloaded,
			const struct lavd_prof_row *rows, int nrows, double secs);

/* "powersave", "balanced", "performance" for LAVD_PM_*. */
const char *lavd_power_mode_str(__u64 mode);

/* "off", "fexit", "tracepoint" for LAVD_FUTEX_*. */
const char *lavd_futex_path_str(__u64 path);

/*
 * One sampled scheduling decision (--monitor-sched-samples), t seconds
 * into the run. E.g.
 *   sample 3.141 cpu 1 fb-game:812 waker fb-input:809 | slice 5.00ms
 *   used 412us wait 96us | lat_cri 1521* thr 1480 | freq wait 60 wake 120
 *   run 60 | avg_runtime 398us vdl +12us | holder slept preempted-by 0
 */
void lavd_sample_line(char *buf, size_t len, const struct lavd_sample *s,
		      double t);

enum lavd_scx_state {
	LAVD_SCX_FREE = 0,	/* sched_ext present, no scheduler loaded */
	LAVD_SCX_MISSING,	/* the kernel has no sched_ext */
	LAVD_SCX_BUSY,		/* another (or another lavd) scheduler is loaded */
};

/*
 * What gs_scx_read() finds under scx_dir (GS_SCX_ROOT), as the loader
 * sees it. On LAVD_SCX_BUSY, ops gets the loaded scheduler's name and
 * state its state ("enabled", ...).
 */
enum lavd_scx_state lavd_scx_check(const char *scx_dir, char *ops,
				   size_t opslen, char *state, size_t statelen);

#endif
