// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipeline engine: stage threads that hand frames to each other, the
 * job workers of the fan-outs, the request/reply services, and the
 * periodic tasks (their loops are in tasks.c), spread over the benchmark
 * and its helper processes. They share one MAP_SHARED anonymous mapping
 * (inherited by fork, so no /dev/shm is needed) and wake each other
 * through futexes in it.
 */
#include "fb.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#include "markers.h"
#include "spawn.h"
#include "sync.h"
#include "tasks.h"

static struct fb_engine *E;	/* this process's view (copied by fork) */

/* ---- layout ---------------------------------------------------------- */

unsigned fb_classes(const struct fb_profile *p, char out[][FB_NAME_MAX])
{
	unsigned n = 0;

	for (unsigned s = 0; s < p->nstages; s++)
		gs_strlcpy(out[n++], p->stage[s].name, FB_NAME_MAX);
	gs_strlcpy(out[n++], "worker", FB_NAME_MAX);
	for (unsigned s = 0; s < p->nservices; s++)
		gs_strlcpy(out[n++], p->service[s].name, FB_NAME_MAX);
	for (int k = 0; k < FB_PER_N; k++)
		gs_strlcpy(out[n++], fb_periodic_names[k], FB_NAME_MAX);
	gs_strlcpy(out[n++], "vsync", FB_NAME_MAX);
	return n;
}

static unsigned class_of(const struct fb_engine *e, const char *name)
{
	for (unsigned i = 0; i < e->nclasses; i++)
		if (!strcmp(e->cls[i], name))
			return i;
	return 0;
}

static unsigned new_tstat(struct fb_engine *e, const char *name,
			  const char *cls)
{
	struct fb_tstat *ts = &e->sh->tstat[e->sh->ntstats];

	snprintf(ts->name, sizeof(ts->name), "%s", name);
	ts->cls = class_of(e, cls);
	gs_hist_init(&ts->wake);
	gs_hist_init(&ts->lockwait);
	return e->sh->ntstats++;
}

static void add_task(struct fb_engine *e, enum fb_task_kind kind,
		     unsigned idx, int process, int prio, const char *cls,
		     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void add_task(struct fb_engine *e, enum fb_task_kind kind,
		     unsigned idx, int process, int prio, const char *cls,
		     const char *fmt, ...)
{
	struct fb_task *t = &e->task[e->ntasks++];
	va_list ap;

	t->kind = kind;
	t->idx = idx;
	t->process = process;
	t->rt_prio = prio;
	va_start(ap, fmt);
	vsnprintf(t->name, sizeof(t->name), fmt, ap);
	va_end(ap);
	t->tstat = new_tstat(e, t->name, cls);
	t->vsync_tstat = t->tstat;
}

int fb_engine_init(struct fb_engine *e, const struct fb_config *cfg,
		   struct fb_feed *feed)
{
	const struct fb_profile *p = &cfg->prof;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	e->p = p;
	e->feed = feed;
	e->sh_len = sizeof(struct fb_shm);
	e->sh = mmap(NULL, e->sh_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (e->sh == MAP_FAILED) {
		gs_warn("cannot map %zu bytes of shared memory: %s", e->sh_len,
			strerror(errno));
		e->sh = NULL;
		return -1;
	}
	e->nclasses = fb_classes(p, e->cls);
	for (unsigned s = 0; s < FB_MAX_STAGES; s++)
		e->sh->batch[s].lock = -1;

	/* SCHED_FIFO priorities with --rt: audio above input above the
	 * present above the rest of the game (as a game would ask). */
	/* thread names: the profile's (as the engine it models names them),
	 * else fb-CLASS */
	for (unsigned s = 0; s < p->nstages; s++) {
		bool last = s == p->nstages - 1;

		add_task(e, FB_T_STAGE, s, p->stage[s].process, last ? 20 : 10,
			 p->stage[s].name, "%s%s", p->stage[s].thread[0] ? "" : "fb-",
			 p->stage[s].thread[0] ? p->stage[s].thread : p->stage[s].name);
		if (last && p->fps)
			e->task[e->ntasks - 1].vsync_tstat =
				new_tstat(e, "vsync", "vsync");
	}
	for (unsigned w = 0; w < p->workers; w++) {
		char name[FB_COMM_MAX];

		fb_worker_name(p, w, name);
		add_task(e, FB_T_WORKER, w, 0, 10, "worker", "%s", name);
	}
	for (unsigned s = 0; s < p->nservices; s++)
		add_task(e, FB_T_SERVICE, s, p->service[s].process, 10,
			 p->service[s].name, "%s%s", p->service[s].thread[0] ? "" : "fb-",
			 p->service[s].thread[0] ? p->service[s].thread : p->service[s].name);
	for (int k = 0; k < FB_PER_N; k++)
		if (p->periodic[k].enabled)
			add_task(e, FB_T_PERIODIC, (unsigned)k,
				 p->periodic[k].process,
				 k == FB_PER_AUDIO ? 30 : k == FB_PER_INPUT ? 25 : 10,
				 fb_periodic_names[k], "%s%s",
				 p->periodic[k].thread[0] ? "" : "fb-",
				 p->periodic[k].thread[0] ? p->periodic[k].thread :
				 fb_periodic_names[k]);
	return 0;
}

void fb_engine_free(struct fb_engine *e)
{
	if (e->sh)
		munmap(e->sh, e->sh_len);
	e->sh = NULL;
}

/* ---- threads and processes --------------------------------------------- */

static void *task_main(void *arg)
{
	const struct fb_task *t = arg;
	struct fb_shm *sh = E->sh;
	uint64_t slept_at;

	pthread_setname_np(pthread_self(), t->name);
	/* timers fire when asked: the default 50 us slack would hide the
	 * scheduler's part of timer wake-up latency (SCHED_FIFO has none) */
	prctl(PR_SET_TIMERSLACK, 1UL);
	{
		char err[200];

		if (fb_gameprio_apply(&E->cfg->game, t->rt_prio, err,
				      sizeof(err)))
			fb_fail_run(sh, "%s: %s", t->name, err);
	}
	atomic_fetch_add(&sh->ready, 1);
	fb_futex_wake(&sh->ready, 1);
	if (fb_wait_while_eq(sh, &sh->go, 0, &slept_at) < 0)
		return NULL;
	fb_task_run(E, t);
	return NULL;
}

/* Starts the threads of `process`; signals stay blocked in them. */
static int start_threads(struct fb_engine *e, int process)
{
	sigset_t all, old;
	int rc = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (unsigned i = 0; i < e->ntasks; i++) {
		int err;

		if (e->task[i].process != process)
			continue;
		err = pthread_create(&e->thr[i], NULL, task_main, &e->task[i]);
		if (err) {
			fb_fail_run(e->sh, "cannot start thread %s: %s",
				    e->task[i].name, strerror(err));
			rc = -1;
			break;
		}
		e->thr_started[i] = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static void join_threads(struct fb_engine *e)
{
	for (unsigned i = 0; i < e->ntasks; i++)
		if (e->thr_started[i]) {
			pthread_join(e->thr[i], NULL);
			e->thr_started[i] = false;
		}
}

static _Noreturn void child_main(struct fb_engine *e, int process)
{
	char name[16];

	/* the parent handles SIGINT/SIGTERM and stops us through memory */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (e->p->proc_comm[process][0])
		snprintf(name, sizeof(name), "%s", e->p->proc_comm[process]);
	else
		snprintf(name, sizeof(name), "fb-%s", e->p->proc[process]);
	prctl(PR_SET_NAME, name);
	fb_markers_set_pid();
	start_threads(e, process);
	join_threads(e);
	_exit(atomic_load(&e->sh->failed) ? 1 : 0);
}

static void kick_all(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;

	fb_futex_wake(&sh->go, INT_MAX);
	fb_futex_wake(&sh->presented, INT_MAX);
	fb_futex_wake(&sh->pool_seq, INT_MAX);
	for (unsigned s = 0; s < FB_MAX_STAGES; s++) {
		fb_futex_wake(&sh->chan[s].posted, INT_MAX);
		fb_futex_wake(&sh->batch[s].done, INT_MAX);
	}
	for (unsigned v = 0; v < FB_MAX_SERVICES; v++) {
		fb_futex_wake(&sh->svc[v].seq, INT_MAX);
		for (unsigned s = 0; s < FB_MAX_STAGES; s++)
			fb_futex_wake(&sh->svc[v].box[s].resp, INT_MAX);
	}
	for (unsigned m = 0; m < FB_MAX_LOCKS; m++)
		fb_futex_wake(&sh->lock[m].word, INT_MAX);
}

bool fb_engine_child_died(struct fb_engine *e, const char **who)
{
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		int st;

		if (e->child[p] <= 0)
			continue;
		if (waitpid(e->child[p], &st, WNOHANG) == e->child[p]) {
			e->child[p] = 0;
			*who = e->p->proc[p];
			return true;
		}
	}
	return false;
}

int fb_engine_start(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;
	uint64_t deadline;
	unsigned used[FB_MAX_PROCS + 1] = { 0 };

	E = e;
	sh->target_ns = e->p->fps ? NSEC_PER_SEC / e->p->fps : 0;
	for (unsigned i = 0; i < e->ntasks; i++)
		used[e->task[i].process]++;
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		pid_t pid;

		if (!used[p])
			continue;
		pid = gs_fork_tied();
		if (pid < 0) {
			gs_warn("cannot fork helper process %s: %s",
				e->p->proc[p], strerror(errno));
			atomic_store(&sh->stop, 1);
			return -1;
		}
		if (pid == 0)
			child_main(e, (int)p);
		e->child[p] = pid;
	}
	/* the benchmark's own process as the game's (comm NAME): its main
	 * thread, which the task threads do not inherit (they are named) */
	if (e->p->proc_comm[0][0])
		prctl(PR_SET_NAME, e->p->proc_comm[0]);
	if (start_threads(e, 0) < 0) {
		gs_warn("%s", sh->fail_msg);
		return -1;
	}
	/* wait until every thread of every process is ready */
	deadline = gs_now_ns() + 20 * NSEC_PER_SEC;
	for (;;) {
		uint32_t r = atomic_load(&sh->ready);
		const char *who;

		if (r >= e->ntasks)
			break;
		if (atomic_load(&sh->failed)) {
			gs_warn("%s", sh->fail_msg);
			return -1;
		}
		if (fb_engine_child_died(e, &who)) {
			gs_warn("helper process %s exited during start-up", who);
			return -1;
		}
		if (gs_now_ns() > deadline) {
			gs_warn("only %u of %u threads started within 20 s", r,
				e->ntasks);
			return -1;
		}
		fb_futex_wait(&sh->ready, r, 10 * NSEC_PER_MSEC);
	}
	if (atomic_load(&sh->failed)) {
		gs_warn("%s", sh->fail_msg);
		return -1;
	}
	sh->t0 = gs_now_ns();
	sh->measure_ns = sh->t0 + e->cfg->warmup_ns;
	atomic_store(&sh->end_ns, sh->measure_ns + e->cfg->duration_ns);
	/* a frame uses the latest input sample; without an input task there
	 * is none (0), and no input-to-present figure: the start time here
	 * made one that grew with the run */
	if (e->p->periodic[FB_PER_INPUT].enabled)
		atomic_store(&sh->input_last_ns, sh->t0);
	atomic_store_explicit(&sh->go, 1, memory_order_release);
	fb_futex_wake(&sh->go, INT_MAX);
	return 0;
}

static int add_cpu_clock(clockid_t clk, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -1;
	*ns += (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return 0;
}

/* Each thread's clock rather than the process's: this process also runs
 * the collector (the main thread) and --disturb's hogs, which are not the
 * game. A helper process runs nothing but game tasks. */
int fb_engine_cpu_ns(const struct fb_engine *e, uint64_t *ns)
{
	int rc = 0;

	*ns = 0;
	for (unsigned i = 0; i < e->ntasks; i++) {
		clockid_t clk;

		if (e->task[i].process != 0 || !e->thr_started[i])
			continue;
		if (pthread_getcpuclockid(e->thr[i], &clk) ||
		    add_cpu_clock(clk, ns))
			rc = -1;
	}
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		clockid_t clk;

		if (e->child[p] <= 0)
			continue;
		if (clock_getcpuclockid(e->child[p], &clk) ||
		    add_cpu_clock(clk, ns))
			rc = -1;
	}
	return rc;
}

void fb_engine_stop(struct fb_engine *e)
{
	struct fb_shm *sh = e->sh;
	uint64_t deadline;

	if (!sh)
		return;
	atomic_store(&sh->stop, 1);
	kick_all(e);
	join_threads(e);
	/* helpers see the stop flag within one wait slice (100 ms) */
	deadline = gs_now_ns() + 3 * NSEC_PER_SEC;
	for (unsigned p = 1; p <= e->p->nprocs; p++) {
		int st;

		while (e->child[p] > 0) {
			pid_t r = waitpid(e->child[p], &st, WNOHANG);

			if (r == e->child[p] || (r < 0 && errno == ECHILD)) {
				e->child[p] = 0;
				break;
			}
			if (gs_now_ns() > deadline) {
				gs_warn("helper process %s did not stop; "
					"killing it",
					e->p->proc[p]);
				kill(e->child[p], SIGKILL);
				waitpid(e->child[p], &st, 0);
				e->child[p] = 0;
				break;
			}
			kick_all(e);
			usleep(5000);
		}
	}
}
