// SPDX-License-Identifier: GPL-2.0-only
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static unsigned pct(__u64 part, __u64 whole)
{
	return whole ? (unsigned)((part * 100 + whole / 2) / whole) : 0;
}

void lavd_stats_line(char *buf, size_t len, const struct lavd_stats *prev,
		     const struct lavd_stats *cur, double secs)
{
	__u64 sched = cur->nr_sched - prev->nr_sched;
	__u64 enq = cur->nr_enq - prev->nr_enq;
	__u64 avg_lc = sched ? (cur->sum_lat_cri - prev->sum_lat_cri) / sched :
			       cur->avg_lat_cri;

	snprintf(buf, len,
		 "queued %llu runnable %llu | sched/s %.0f direct %u%% lat-cri %u%% "
		 "greedy %u%% | slice %.2fms | lat_cri avg %llu max %llu | "
		 "reenq %llu steal %llu",
		 (unsigned long long)cur->nr_queued,
		 (unsigned long long)cur->nr_runnable,
		 secs > 0 ? (double)sched / secs : 0.0,
		 pct(cur->nr_direct - prev->nr_direct, enq),
		 pct(cur->nr_lat_cri - prev->nr_lat_cri, sched),
		 pct(cur->nr_greedy - prev->nr_greedy, enq),
		 (double)cur->slice_ns / 1e6,
		 (unsigned long long)avg_lc,
		 (unsigned long long)cur->max_lat_cri,
		 (unsigned long long)(cur->nr_reenq - prev->nr_reenq),
		 (unsigned long long)(cur->nr_steal - prev->nr_steal));
}

const char *lavd_exit_kind_str(int kind)
{
	switch (kind) {
	case 0: return "still running";
	case 1: return "done";
	case 64: return "unregistered from user space";
	case 65: return "unregistered from BPF";
	case 66: return "unregistered by the kernel";
	case 67: return "disabled by sysrq-S";
	case 68: return "parent scheduler exited";
	case 69: return "killed by the parent scheduler";
	case 1024: return "runtime error";
	case 1025: return "scx_bpf_error() from BPF";
	case 1026: return "runnable task stall (watchdog)";
	case 1027: return "re-enqueue error";
	case 1028: return "rescue error";
	default: return kind >= 1024 ? "error" : "exit";
	}
}

enum lavd_scx_state lavd_scx_check(const char *scx_dir, char *ops,
				   size_t opslen, char *state, size_t statelen)
{
	char path[512];
	struct stat st;

	ops[0] = state[0] = '\0';
	if (stat(scx_dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return LAVD_SCX_MISSING;
	snprintf(path, sizeof(path), "%s/state", scx_dir);
	if (gs_read_text(path, state, statelen) < 0)
		return LAVD_SCX_MISSING;
	gs_trim(state);
	snprintf(path, sizeof(path), "%s/root/ops", scx_dir);
	if (gs_read_text(path, ops, opslen) >= 0)
		gs_trim(ops);
	else
		ops[0] = '\0';
	if (strcmp(state, "disabled") == 0 && !ops[0])
		return LAVD_SCX_FREE;
	if (!ops[0])
		gs_strlcpy(ops, "(unknown)", opslen);
	return LAVD_SCX_BUSY;
}
