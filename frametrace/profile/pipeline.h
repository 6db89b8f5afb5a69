/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the threads of a recorded game do for its frames, as framebench
 * would describe them (docs/frametrace.md, "Replaying a recorded game"):
 * the presenter and the stages that hand each frame on to it, the job pool
 * the stages fan out to, the services they call in other processes, the
 * periodic tasks beside them and the locks they contend on, each with the
 * CPU work per frame or period the trace shows. `frametrace profile`
 * writes it as a profile, `frametrace compare` puts two of them side by
 * side.
 *
 * The building block is a signal: thread X makes thread Y runnable (a
 * wake-up in the trace), or X calls FUTEX_WAKE on an address Y waits on
 * (also when Y was not asleep at the time: a stage handing a frame to one
 * still busy). profile_roles.c finds the roles from how often each thread
 * signals each other one per frame; profile_steps.c cuts each stage's time
 * into one activation per frame and reads the steps from the signals in it.
 */
#ifndef FT_PROFILE_PIPELINE_H
#define FT_PROFILE_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fbprofile.h"
#include "analysis/model.h"
#include "profile_fit.h"

/* the workload profile's limits (lib/fbprofile.h), so that what profile
 * writes always parses */
#define PR_MAX_STAGES FB_MAX_STAGES
#define PR_MAX_SERVICES FB_MAX_SERVICES
#define PR_MAX_PROCS FB_MAX_PROCS
#define PR_MAX_LOCKS FB_MAX_LOCKS
#define PR_MAX_STEPS FB_MAX_STEPS
#define PR_MAX_POOL FB_MAX_WORKERS
#define PR_MAX_TOKENS 15	/* calls and fan-outs a stage keeps: 2n + 1 steps */
#define PR_NAME FB_NAME_MAX

enum ft_pr_role { PR_NONE, PR_STAGE, PR_POOL, PR_SERVICE, PR_PERIODIC };
enum ft_pr_step_kind { PR_WORK, PR_CALL, PR_FANOUT, PR_LOCK, PR_JOIN };
enum { PR_PER_INPUT, PR_PER_AUDIO, PR_PER_NET, PR_PER_N };

struct ft_pr_step {
	enum ft_pr_step_kind kind;
	int target;		/* call: service; lock: lock */
	unsigned jobs;		/* fanout: pool threads that ran its jobs */
	bool async;		/* fanout: its fan-in came in the stage's next
				 * activation (its join) */
	bool even;		/* fanout: the pool's threads ran equal parts
				 * (framebench's 'even': one draw for all jobs) */
	int lock;		/* fanout: lock its jobs take, -1 none */
	struct ft_pf_sum sum;	/* the samples (ns) */
	struct ft_pf_dist dist;	/* work, service work, work per job, hold */
	struct ft_pf_dist hold;	/* fanout with lock */
};

struct ft_pr_stage {
	uint32_t tid;
	char name[PR_NAME];
	int proc;		/* index in proc[]: 0 the game's process */
	bool by_presents;	/* activations cut at the presents (its
				 * hand-offs to the next stage were too few) */
	size_t nact, nmode;	/* activations; with the common sequence */
	size_t ntokens_max;	/* longest sequence seen */
	bool truncated;		/* the common sequence was cut at
				 * PR_MAX_TOKENS */
	size_t unexpressed;	/* activations of the common sequence whose
				 * overlap with the pool the profile language
				 * cannot say: taken as waited for */
	struct ft_pf_sum cpu;	/* CPU per activation, ns */
	double scale;		/* works scaled by this to the mean CPU */
	unsigned nsteps;
	struct ft_pr_step step[PR_MAX_STEPS];
};

struct ft_pr_service {
	uint32_t tid;
	char name[PR_NAME];
	int proc;
	double cpu_frame;	/* CPU per frame, ns */
	double calls_frame;	/* calls per frame in the stages' steps */
	double scale;
};

struct ft_pr_periodic {
	bool on;
	uint32_t tid;
	int proc;
	uint64_t period_ns;
	double regular;		/* share of regular intervals */
	const char *by;		/* "name" or "period": how the kind was chosen */
	struct ft_pf_sum sum;	/* CPU per period, ns */
	struct ft_pf_dist work;
	int lock;		/* net only: lock it takes, -1 none */
	struct ft_pf_dist hold;
};

struct ft_pr_lock {
	uint64_t uaddr;
	char name[PR_NAME];
	size_t waits;		/* contended waits of the game's threads */
	unsigned users;		/* threads waiting on or waking it */
	struct ft_pf_sum wait;	/* contended wait lengths, ns */
	struct ft_pf_dist hold;
	char where[96];		/* the steps it was put in */
};

struct ft_pr_proc {
	uint32_t pid;
	char name[PR_NAME];
};

struct ft_pr_opts {
	uint32_t pid;		/* frames of this process (0: most frames) */
	const char *pid_opt;	/* the option that gave pid, for messages */
	bool window;		/* --frames A..B */
	size_t first, last;	/* frame indices, inclusive */
	int64_t step_ns;	/* framebench's cost per step; -1: from the trace */
};

struct ft_pr_sig {
	uint64_t ts;
	uint32_t to;		/* model task index */
};

/* Per model task. */
struct ft_pr_thread {
	uint8_t role;		/* enum ft_pr_role */
	int8_t idx;		/* stage, service or periodic index */
	bool svc_cand;		/* answers its callers and nothing else */
	bool recorder;
	bool kthread;		/* a kernel thread: never a role */
	uint64_t cpu;		/* CPU in the window, ns */
	uint32_t irq_wakes, task_wakes; /* wake-ups received in the window */
	uint64_t *pre;		/* CPU before each of its segments (lazy) */
	size_t sig0, nsig;	/* its signals in sig[] */
};

struct ft_pr_analysis {
	const struct ft_model *m;
	const struct ft_trace *t;
	struct ft_pr_opts o;
	uint32_t pid;		/* the game's process (its frames') */
	uint32_t presenter;
	size_t nproc_frames;	/* frames of the process in the trace */
	unsigned other_procs;	/* other processes with frames (no --pid) */
	size_t *fidx, nf;	/* frames in the window, by present time */
	uint64_t wa, wb;	/* the window: previous present .. last */
	struct ft_pf_sum ft;	/* frame times, ns */
	uint64_t vsync_ns;	/* 0: uncapped */
	double vsync_share;
	unsigned fps, fif;
	char fif_how[128];
	double step_ns;		/* framebench's cost per step, taken off */
	char step_how[96];
	/* what a pass over a stage's activations adds up (profile_acts.c);
	 * ft_pr_collect keeps the pass whose sequences it keeps */
	struct ft_pr_tally {
		double tail_sum;	/* CPU from a stage's signal to its sleep */
		size_t tail_n;
		/* the pool's balance: over the fan-outs two or more threads
		 * ran, the sum of (busiest thread's CPU x threads / the
		 * fan-out's CPU), 1 each when each ran an equal part */
		double bal_sum;
		size_t bal_n;
	} tally;

	struct ft_pr_proc proc[PR_MAX_PROCS + 1];	/* [0]: the game's */
	unsigned nprocs;			/* helper processes */
	struct ft_pr_stage stage[PR_MAX_STAGES];
	unsigned nstages;
	uint32_t pool[PR_MAX_POOL];
	unsigned npool;
	char pool_stem[16];
	uint32_t pool_caller;	/* the stage that signals it most */
	double pool_cpu_frame, pool_scale;
	struct ft_pr_service svc[PR_MAX_SERVICES];
	unsigned nsvc;
	struct ft_pr_periodic per[PR_PER_N];
	struct ft_pr_lock lock[PR_MAX_LOCKS];
	unsigned nlocks;
	char dropped[256];	/* roles framebench has no room for */
	bool futex_addrs;	/* the trace's futex calls have addresses */

	/* threads of the game's processes no role uses, by CPU */
	uint32_t *left;
	size_t nleft;
	double game_cpu;	/* all threads of those processes, ns */
	double role_cpu;	/* the threads with a role, ns */

	/* for compare */
	size_t wakes, cross;	/* wake-ups among role threads; across processes */
	double chain_wakeups;	/* framebench's count of the derived chain */
	double links_p50;	/* wake-chain links walked back from presents */

	/* internals */
	struct ft_pr_thread *th;	/* [m->ntask] */
	struct ft_pr_sig *sig;
	size_t nsig;
	struct ft_map h;	/* signals X -> Y in the window: task indices
				 * (X << 32 | Y) */
};

/*
 * Analyses the trace behind m. Returns 0; -1 when the trace cannot give a
 * profile, with what is missing in err (exit status 2: no frames, too few,
 * no scheduling data of the presenter's process, no presenter, a cycle);
 * -2 when out of memory.
 */
int ft_pr_analyze(struct ft_pr_analysis *a, const struct ft_model *m,
	       const struct ft_pr_opts *o, char *err, size_t errlen);
void ft_pr_free(struct ft_pr_analysis *a);

/* ---- internals of profile_sig.c, profile_roles.c, profile_side.c and
 * profile_steps.c ---- */

/* A futex address and a task that waits on it or wakes it. */
struct ft_pr_fxu {
	uint64_t uaddr;
	uint32_t ti;
	uint8_t wait, wake;
};

/* A stage's activations (profile_acts.c): per activation its key ('F'
 * fan-out, 'a' + service a call, 'A' an asynchronous fan-out, 'J' its
 * join), whether the sequence was cut, where its values start in val
 * (works[ntok + 1], samples[ntok], jobs[ntok]) and its CPU. */
struct act {
	char key[PR_MAX_TOKENS + 1];
	uint8_t ntok;
	bool trunc;		/* more calls and fan-outs than PR_MAX_TOKENS */
	bool unexpressed;	/* a fan-out the stage worked beside that its
				 * key cannot say (not its last) */
	size_t off;
	uint64_t cpu;
};

struct acts {
	struct act *v;
	size_t n, cap;
	double *val;
	size_t nval, valcap;
};

/* The activation boundaries of stage k: its hand-offs to the next stage,
 * or the presents (NULL: memory). */
uint64_t *ft_pr_boundaries(struct ft_pr_analysis *a, unsigned k, size_t *nb);
/* The activations of stage xi (next: the next stage's index, or -1)
 * between the boundaries b into s, and in *mi the indices of the *nm with
 * the most common key. 0, or -1 when memory runs out. */
int ft_pr_collect(struct ft_pr_analysis *a, size_t xi, size_t next,
		  const uint64_t *b, size_t nb, struct acts *s, size_t **mi,
		  size_t *nm);
int ft_pr_pick_frames(struct ft_pr_analysis *a, char *err, size_t errlen);
int ft_pr_find_presenter(struct ft_pr_analysis *a, char *err, size_t errlen);
/* Every futex address with its users, sorted by address (NULL: memory). */
struct ft_pr_fxu *ft_pr_futex_users(const struct ft_model *m, size_t *n);
/* The address of u[first] is a lock: a task both waits on and wakes it. */
bool ft_pr_fxu_is_lock(const struct ft_pr_fxu *u, size_t n, size_t first);
int ft_pr_build_signals(struct ft_pr_analysis *a, struct ft_pr_fxu *u, size_t nu);
/* A task that may have a role: not idle, not the recorder, not a kernel
 * thread (the game's threads wake rcu_preempt and kworkers), ran. (Inline:
 * profile_roles.c and profile_side.c both ask, and neither calls the
 * other back.) */
static inline bool ft_pr_usable(const struct ft_pr_analysis *a, size_t ti)
{
	return a->m->task[ti].tid && !a->th[ti].recorder &&
	       !a->th[ti].kthread && a->th[ti].cpu;
}
int ft_pr_find_periodic(struct ft_pr_analysis *a);
int ft_pr_find_locks(struct ft_pr_analysis *a, const struct ft_pr_fxu *u, size_t nu);
int ft_pr_name_roles(struct ft_pr_analysis *a);
int ft_pr_the_rest(struct ft_pr_analysis *a);
long ft_pr_index(const struct ft_pr_analysis *a, uint32_t tid);
uint64_t ft_pr_cpu_in(struct ft_pr_analysis *a, size_t ti, uint64_t t0, uint64_t t1);
uint32_t ft_pr_h(const struct ft_pr_analysis *a, size_t from, size_t to);
/* profile_overlap.c: the first signal back to stage xi after t (from
 * service svc, or from a pool thread when svc < 0) up to end, else end. */
uint64_t ft_pr_reply_time(const struct ft_pr_analysis *a, size_t xi, int svc,
			  uint64_t t, uint64_t end);
/* Whether stage xi slept at ts (switched out in a sleeping state), as it
 * does waiting for a fan-in; running or preempted is not asleep. */
bool ft_pr_asleep_at(const struct ft_pr_analysis *a, size_t xi, uint64_t ts);
/* The fan-out of stage xi at t in the activation ending at hi (hi2 the
 * next one's end): waited for, or asynchronous with its jobs' end or
 * fan-in in *reply, joined in this activation or the next. */
enum { FT_PR_WAITED, FT_PR_JOINED_HERE, FT_PR_JOINED_NEXT };
int ft_pr_overlap(const struct ft_pr_analysis *a, size_t xi, uint64_t t,
		  uint64_t hi, uint64_t hi2, uint64_t *reply);
/* Signals of task index ti at or after ts: index into sig[], or the end. */
size_t ft_pr_sig_from(const struct ft_pr_analysis *a, size_t ti, uint64_t ts);
int ft_pr_steps(struct ft_pr_analysis *a, char *err, size_t errlen);
/*
 * The pool's threads ran equal parts of its fan-outs (a renderer's tiles:
 * the busiest thread within PR_EVEN_BAL of an equal share, on average
 * over 10 fan-outs or more): its fan-outs are 'even', one draw of the
 * job's work for all of them. Independent draws would make each fan-out
 * wait for the largest of N draws, longer than any the recording had.
 */
#define PR_EVEN_BAL 1.10
bool ft_pr_pool_even(const struct ft_pr_analysis *a);
/* The label of a thread: "comm:tid". */
const char *ft_pr_label(const struct ft_pr_analysis *a, uint32_t tid, char *buf,
		     size_t len);
const char *ft_pr_per_name(int kind);
/* pid is the game's process or one of its stages'. */
bool ft_pr_game_pid(const struct ft_pr_analysis *a, uint32_t pid);

#endif
