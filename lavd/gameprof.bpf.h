/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Game profiles in BPF (docs/lavd.md, "Game profiles"). The loader
 * decides which process follows which profile (gamectl.c) and writes the
 * process's entry - the profile's index and its complete knob set - into
 * lavd_prof_tgid, then bumps prof_gen. A task copies its process's entry
 * into its own context when it sees a new generation (one hash lookup,
 * at most once per generation), so every later decision reads its knobs
 * from the task context: no lookup on the hot path. Without profiles
 * (game_profiles false) the verifier drops every branch that reads them.
 *
 * The loader learns about processes from two tracepoints that only load
 * with profiles: exec (a new program, a new name) and task_rename (prctl
 * PR_SET_NAME, a thread naming itself), into the lavd_proc_ev ring
 * buffer. It drains the buffer every 50 ms, so events are submitted
 * without a wake-up.
 *
 * Needs: lavd.bpf.h only.
 */
#ifndef LAVD_GAMEPROF_BPF_H
#define LAVD_GAMEPROF_BPF_H

/* bumped by the loader after it changed lavd_prof_tgid */
u32 prof_gen = 1;
u64 nr_proc_ev_lost;	/* events that found the ring buffer full */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAVD_PROF_TGIDS);
	__type(key, u32);
	__type(value, struct lavd_prof_tgid);
} lavd_prof_tgid SEC(".maps");

/* the names of the profiles, for --monitor (BPF never reads it) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAVD_MAX_PROFILES);
	__type(key, u32);
	__type(value, struct lavd_prof_info);
} lavd_prof_knob SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAVD_PROC_EV_RING_SZ);
} lavd_proc_ev SEC(".maps");

/* The task's entry again from its process's (none when absent). */
static __noinline void prof_refresh(struct task_struct *p, struct task_ctx *taskc,
				    u32 gen)
{
	u32 tgid = (u32)p->tgid;
	struct lavd_prof_tgid *e = bpf_map_lookup_elem(&lavd_prof_tgid, &tgid);

	taskc->prof_seen = gen;
	taskc->prof = 0;
	if (!e || !e->idx || e->idx >= LAVD_MAX_PROFILES)
		return;
	taskc->prof = e->idx;
	__builtin_memcpy(&taskc->kn, &e->kn, sizeof(taskc->kn));
}

/* The task's knobs again when the loader published a new generation. */
static __always_inline void prof_sync(struct task_struct *p, struct task_ctx *taskc)
{
	u32 gen;

	if (!game_profiles)
		return;
	gen = READ_ONCE(prof_gen);
	if (taskc->prof_seen != gen)
		prof_refresh(p, taskc, gen);
}

/*
 * Does the task follow a profile (its knobs in taskc->kn)? Callers test
 * it where a knob is read and let both ways meet again right after: a
 * pointer to the knobs kept live across a callback made the verifier
 * walk all of it twice (lavd_enqueue went past a million instructions).
 */
static __always_inline bool has_prof(const struct task_ctx *taskc)
{
	return game_profiles && taskc->prof;
}

/* The holder state a decision sees: none with the task's futex-boost off. */
static __always_inline u32 prof_holder(const struct task_ctx *taskc)
{
	return has_prof(taskc) ? lavd_knob_holder(taskc->holder, &taskc->kn) :
	       taskc->holder;
}

/*
 * The knob arithmetic of knobs.h behind global functions: the verifier
 * checks each once, on its own, instead of inside every callback that
 * uses it (their branches multiplied the callbacks' states).
 */
struct kn_lc_args {
	u64 wait_hz, wake_hz, avg_runtime, weight, boost;
	u32 freq_w, run_w;
};

__noinline u64 kn_lat_cri(struct kn_lc_args *a)
{
	if (!a)
		return 0;
	return lavd_lat_cri_weighted(a->wait_hz, a->wake_hz, a->avg_runtime,
				     a->weight, a->boost, a->freq_w, a->run_w);
}

struct kn_slice_args {
	u64 sys_slice, avg_runtime, lat_cri, avg_lat_cri;
	struct lavd_knobs kn;
	u32 room, greedy;
	u32 boosted;		/* out */
	u32 pad;		/* no hole: the verifier reads every byte */
};

__noinline u64 kn_slice(struct kn_slice_args *a)
{
	bool boosted = false;
	u64 s;

	if (!a)
		return 0;
	s = lavd_knob_slice(a->sys_slice, a->avg_runtime, a->lat_cri, a->avg_lat_cri,
			    a->room, a->greedy, &a->kn, &boosted);
	a->boosted = boosted;
	return s;
}

static __always_inline void proc_event(u32 kind, u32 pid, const char *comm_ker)
{
	u64 pid_tgid = bpf_get_current_pid_tgid();
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	bool self = (u32)pid_tgid == pid && (u32)(pid_tgid >> 32) == pid;
	struct lavd_proc_ev *e;

	/* a kernel thread naming itself: never matched, not worth a read */
	if (self && (BPF_CORE_READ(cur, flags) & PF_KTHREAD))
		return;
	e = bpf_ringbuf_reserve(&lavd_proc_ev, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&nr_proc_ev_lost, 1);
		return;
	}
	e->kind = kind;
	e->pid = pid;
	e->tgid = (u32)(pid_tgid >> 32);
	/* the process itself: what the loader would read in /proc/PID/stat
	 * (a name, one thread after an exec) travels with the event */
	e->nthreads = self ? (u32)BPF_CORE_READ(cur, signal, nr_threads) : 0;
	if (comm_ker)
		bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), comm_ker);
	else
		bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* A new program: pid is the process (exec makes the caller its leader). */
SEC("tp/sched/sched_process_exec")
int lavd_tp_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	proc_event(LAVD_PEV_EXEC, (u32)ctx->pid, NULL);
	return 0;
}

/* A task got a new name: the current task renamed itself or a thread of
 * its process (pthread_setname_np writes /proc/self/task/TID/comm). */
SEC("tp/task/task_rename")
int lavd_tp_rename(struct trace_event_raw_task_rename *ctx)
{
	proc_event(LAVD_PEV_RENAME, (u32)ctx->pid, ctx->newcomm);
	return 0;
}

#endif
