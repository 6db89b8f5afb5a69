// SPDX-License-Identifier: GPL-2.0-only
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "sysinfo.h"
#include "util.h"

static unsigned pct(__u64 part, __u64 whole)
{
	return whole ? (unsigned)((part * 100 + whole / 2) / whole) : 0;
}

const char *lavd_futex_path_str(__u64 path)
{
	switch (path) {
	case LAVD_FUTEX_OFF: return "off";
	case LAVD_FUTEX_FEXIT: return "fexit";
	case LAVD_FUTEX_TP: return "tracepoint";
	default: return "?";
	}
}

static void comm_copy(char *dst, const char *src);

static double rate(__u64 n, double secs)
{
	return secs > 0 ? (double)n / secs : 0.0;
}

void lavd_stats_line(char *buf, size_t len, const struct lavd_stats *prev,
		     const struct lavd_stats *cur, double secs)
{
	__u64 sched = cur->nr_sched - prev->nr_sched;
	__u64 enq = cur->nr_enq - prev->nr_enq;
	__u64 avg_lc = sched ? (cur->sum_lat_cri - prev->sum_lat_cri) / sched :
			       cur->avg_lat_cri;
	__u64 pre = cur->nr_preempt - prev->nr_preempt;

	snprintf(buf, len,
		 "queued %llu runnable %llu | sched/s %.0f direct %u%% lat-cri %u%% "
		 "greedy %u%% | slice %.2fms util %llu%% | lat_cri avg %llu max %llu "
		 "thr %llu | preempt/s %.0f kick %u%% tried/s %.0f | "
		 "futex %s lock/s %.0f ext %llu boost %llu spared %llu | "
		 "sboost/s %.0f shrink %llu pinned/s %.0f cap %llu | "
		 "reenq %llu steal %llu keep %llu",
		 (unsigned long long)cur->nr_queued,
		 (unsigned long long)cur->nr_runnable,
		 rate(sched, secs),
		 pct(cur->nr_direct - prev->nr_direct, enq),
		 pct(cur->nr_lat_cri - prev->nr_lat_cri, sched),
		 pct(cur->nr_greedy - prev->nr_greedy, enq),
		 (double)cur->slice_ns / 1e6,
		 (unsigned long long)cur->util_pct,
		 (unsigned long long)avg_lc,
		 (unsigned long long)cur->max_lat_cri,
		 (unsigned long long)cur->lat_cri_preempt,
		 rate(pre, secs),
		 pct(cur->nr_preempt_kick - prev->nr_preempt_kick, pre),
		 rate(cur->nr_preempt_try - prev->nr_preempt_try, secs),
		 lavd_futex_path_str(cur->futex_path),
		 rate(cur->nr_futex_lock - prev->nr_futex_lock, secs),
		 (unsigned long long)(cur->nr_holder_ext - prev->nr_holder_ext),
		 (unsigned long long)(cur->nr_holder_boost - prev->nr_holder_boost),
		 (unsigned long long)(cur->nr_preempt_spared - prev->nr_preempt_spared),
		 rate(cur->nr_slice_boost - prev->nr_slice_boost, secs),
		 (unsigned long long)(cur->nr_slice_shrink - prev->nr_slice_shrink),
		 rate(cur->nr_pinned - prev->nr_pinned, secs),
		 (unsigned long long)(cur->nr_pinned_cap - prev->nr_pinned_cap),
		 (unsigned long long)(cur->nr_reenq - prev->nr_reenq),
		 (unsigned long long)(cur->nr_steal - prev->nr_steal),
		 (unsigned long long)(cur->nr_keep - prev->nr_keep));
}

void lavd_profiles_line(char *buf, size_t len, int nloaded,
			const struct lavd_prof_row *rows, int nrows, double secs)
{
	size_t off;
	int nproc = 0;

	for (int i = 0; i < nrows; i++)
		nproc += rows[i].nproc;
	off = (size_t)snprintf(buf, len, "profiles %d matched %d", nloaded, nproc);
	for (int i = 0, first = 1; i < nrows && off < len; i++) {
		const struct lavd_prof_row *r = &rows[i];
		int shown = r->nproc < LAVD_PROF_ROW_PIDS ? r->nproc : LAVD_PROF_ROW_PIDS;
		char comm[16];

		if (!r->nproc)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s %s [", first ? ":" : ";",
					r->name);
		first = 0;
		for (int k = 0; k < shown && off < len; k++) {
			comm_copy(comm, r->comm[k]);
			off += (size_t)snprintf(buf + off, len - off, "%s%s:%d",
						k ? " " : "", comm, r->pid[k]);
		}
		if (r->nproc > shown && off < len)
			off += (size_t)snprintf(buf + off, len - off, " +%d", r->nproc - shown);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "] sched/s %.0f",
						rate(r->sched, secs));
	}
}

const char *lavd_power_mode_str(__u64 mode)
{
	switch (mode) {
	case LAVD_PM_POWERSAVE: return "powersave";
	case LAVD_PM_BALANCED: return "balanced";
	case LAVD_PM_PERFORMANCE: return "performance";
	default: return "?";
	}
}

void lavd_energy_line(char *buf, size_t len, const struct lavd_stats *prev,
		      const struct lavd_stats *cur, double secs, bool have_little)
{
	__u64 sched = cur->nr_sched - prev->nr_sched;
	__u64 pc = cur->nr_perf_cri - prev->nr_perf_cri;
	char big[160], doms[96];
	size_t off = 0;

	if (have_little)
		snprintf(big, sizeof(big),
			 "big %u%% pthr %llu pc %u%% on-big %u%% pc-on-big %u%% heavy %llu",
			 pct(cur->big_scale, 1024), (unsigned long long)cur->perf_thresh,
			 pct(pc, sched), pct(cur->nr_on_big - prev->nr_on_big, sched),
			 pct(cur->nr_pc_on_big - prev->nr_pc_on_big, pc),
			 (unsigned long long)cur->nr_heavy);
	else
		snprintf(big, sizeof(big), "big - heavy %llu",
			 (unsigned long long)cur->nr_heavy);
	off = (size_t)snprintf(doms, sizeof(doms), "doms %llu",
			       (unsigned long long)cur->nr_doms);
	if (cur->nr_doms > 1 && cur->nr_doms <= 8) {
		__u64 all = 0;

		for (__u64 d = 0; d < cur->nr_doms; d++)
			all += cur->dom_sched[d] - prev->dom_sched[d];
		for (__u64 d = 0; d < cur->nr_doms && off < sizeof(doms); d++)
			off += (size_t)snprintf(doms + off, sizeof(doms) - off, "%s%u%%%s",
						d ? " " : " [",
						pct(cur->dom_sched[d] - prev->dom_sched[d], all),
						d + 1 == cur->nr_doms ? "]" : "");
	}
	snprintf(buf, len,
		 "active %llu/%llu ovf %llu | mode %s req %.2f time perf %.1fs "
		 "bal %.1fs save %.1fs | %s | %s stealer %llu stealee %llu | "
		 "mig/s %.0f xdom/s %.0f stolen %llu forced %llu donated %llu moved %llu | "
		 "freq %u%% set %llu",
		 (unsigned long long)cur->nr_active, (unsigned long long)cur->nr_cpus,
		 (unsigned long long)cur->nr_overflow,
		 lavd_power_mode_str(cur->power_mode), (double)cur->req_cap / 1024.0,
		 (double)cur->mode_ns[LAVD_PM_PERFORMANCE] / 1e9,
		 (double)cur->mode_ns[LAVD_PM_BALANCED] / 1e9,
		 (double)cur->mode_ns[LAVD_PM_POWERSAVE] / 1e9,
		 big, doms, (unsigned long long)cur->nr_stealer,
		 (unsigned long long)cur->nr_stealee,
		 rate(cur->nr_migrate - prev->nr_migrate, secs),
		 rate(cur->nr_xdom - prev->nr_xdom, secs),
		 (unsigned long long)(cur->nr_steal - prev->nr_steal),
		 (unsigned long long)(cur->nr_force_steal - prev->nr_force_steal),
		 (unsigned long long)(cur->nr_donate - prev->nr_donate),
		 (unsigned long long)(cur->nr_move - prev->nr_move),
		 pct(cur->cpuperf_avg, 1024),
		 (unsigned long long)(cur->nr_cpuperf_set - prev->nr_cpuperf_set));
}

/* A duration in ms with two decimals, or us below 1 ms. */
static const char *dur(char *b, size_t n, __u64 ns)
{
	if (ns >= 1000000)
		snprintf(b, n, "%.2fms", (double)ns / 1e6);
	else
		snprintf(b, n, "%lluus", (unsigned long long)(ns / 1000));
	return b;
}

/* A comm from the kernel: at most 15 characters, maybe not terminated. */
static void comm_copy(char *dst, const char *src)
{
	memcpy(dst, src, 16);
	dst[15] = '\0';
	for (char *c = dst; *c; c++)
		if (*c == ' ' || (unsigned char)*c < 32)
			*c = '_';
	if (!dst[0])
		strcpy(dst, "-");
}

void lavd_sample_line(char *buf, size_t len, const struct lavd_sample *s,
		      double t)
{
	char comm[16], wcomm[16], sl[16], ran[16], wait[16], avg[16];
	unsigned f = s->flags;

	comm_copy(comm, s->comm);
	if (f & LAVD_SF_HARDIRQ)
		strcpy(wcomm, "hardirq");
	else if (f & LAVD_SF_SOFTIRQ)
		strcpy(wcomm, "softirq");
	else if (s->waker_pid)
		comm_copy(wcomm, s->waker_comm);
	else
		strcpy(wcomm, "-");
	snprintf(buf, len,
		 "sample %.3f cpu %d %s:%u waker %s:%u | slice %s used %s wait %s | "
		 "lat_cri %llu%s thr %llu | freq wait %llu wake %llu run %llu | "
		 "avg_runtime %s vdl %+lldus | %s%s%s%s%s%s preempted-by %u",
		 t, s->cpu, comm, s->pid, wcomm, s->waker_pid,
		 dur(sl, sizeof(sl), s->slice_ns), dur(ran, sizeof(ran), s->ran_ns),
		 dur(wait, sizeof(wait), s->wait_ns),
		 (unsigned long long)s->lat_cri, (f & LAVD_SF_LAT_CRI) ? "*" : "",
		 (unsigned long long)s->lat_cri_thresh,
		 (unsigned long long)s->wait_freq, (unsigned long long)s->wake_freq,
		 (unsigned long long)s->run_freq,
		 dur(avg, sizeof(avg), s->avg_runtime_ns),
		 (long long)(s->vdl_rel / 1000),
		 (f & LAVD_SF_GREEDY) ? "greedy " : "",
		 (f & LAVD_SF_HOLDER) ? "holder " : "",
		 (f & LAVD_SF_SLICE_BOOST) ? "boosted " : "",
		 (f & LAVD_SF_PINNED) ? "pinned " : "",
		 (f & LAVD_SF_DIRECT) ? "direct " : "",
		 (f & LAVD_SF_RUNNABLE) ? "requeued" : "slept",
		 s->preempted_by);
}

enum lavd_scx_state lavd_scx_check(const char *scx_dir, char *ops,
				   size_t opslen, char *state, size_t statelen)
{
	struct gs_scx s;

	gs_scx_read(scx_dir, &s);
	gs_strlcpy(state, s.state, statelen);
	gs_strlcpy(ops, s.ops, opslen);
	/* no readable state: not a sched_ext the loader could use */
	if (!s.state[0])
		return LAVD_SCX_MISSING;
	if (strcmp(state, "disabled") == 0 && !ops[0])
		return LAVD_SCX_FREE;
	if (!ops[0])
		gs_strlcpy(ops, "(unknown)", opslen);
	return LAVD_SCX_BUSY;
}
