/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * framebench's shared definitions: the run configuration, the memory that
 * the benchmark and its helper processes share (futex words, per-frame
 * slots, per-thread statistics, the frame record ring), and the engine.
 */
#ifndef FB_FB_H
#define FB_FB_H

#include "dilate.h"
#include "gameprio.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fbprofile.h"
#include "stats.h"
#include "version.h"

#define FB_VERSION GS_VERSION	/* lib/version.h */

#define FB_SLOTS 16		/* per-frame slots; > FB_MAX_IN_FLIGHT */
#define FB_REC_CAP 16384	/* frame records between presenter and collector */
#define FB_MAX_BG 8
#define FB_MAX_TASKS (FB_MAX_STAGES + FB_MAX_WORKERS + FB_MAX_SERVICES + FB_PER_N)
#define FB_MAX_TSTATS (FB_MAX_TASKS + 1)	/* + the vsync timer of the present */
#define FB_MAX_CLASSES (FB_MAX_STAGES + FB_MAX_SERVICES + 5)
#define FB_MAX_DISTURB 1024

/* ---- configuration -------------------------------------------------- */

enum fb_bg_kind { FB_BG_HOGS, FB_BG_COMPILE, FB_BG_BROWSER };

struct fb_bg_spec {
	enum fb_bg_kind kind;
	unsigned n;		/* threads (hogs, browser) or parallel jobs */
};

struct fb_config {
	const char *profile_arg;
	struct fb_profile prof;	/* resolved, --fps/--workers applied */
	uint64_t duration_ns, warmup_ns, seed;
	bool fps_set, workers_set;
	unsigned fps, workers;
	double calibration;	/* --calibration: loops/us given, 0: measure */
	struct fb_bg_spec bg[FB_MAX_BG];
	unsigned nbg;
	int bg_nice;
	struct fb_gameprio game;	/* --rt, --nice, --slice-us */
	double dilate;		/* --dilate K: 1 = none (dilate.h) */
	bool trace_markers, no_feed, dump_plan, self_test, list_profiles;
	bool quiet;
	const char *json_path, *csv_path;
	bool disturb;
	uint64_t disturb_period_ns, disturb_len_ns;
	unsigned disturb_threads;
};

/* The frame interval on the original clock (ms; 0: uncapped): the profile's
 * FPS is the dilated one (dilate.h). */
static inline double fb_target_ms(const struct fb_config *cfg)
{
	return cfg->prof.fps ? 1000.0 / (cfg->prof.fps * cfg->dilate) : 0;
}

/* ---- shared memory (MAP_SHARED, inherited by the helper processes) ----- */

struct fb_frame_slot {
	uint64_t start_ns;	/* the first stage starts the frame */
	uint64_t input_ns;	/* the input sample the frame uses */
	_Atomic uint32_t chain_ops;	/* chain wake operations so far */
	_Atomic uint32_t chain_woken;	/* of which woke a sleeping task */
} __attribute__((aligned(64)));

/* The input of a stage: frames handed off by the previous stage. */
struct fb_chan {
	_Atomic uint32_t posted;	/* futex: frames handed off */
	uint64_t wake_ns[FB_SLOTS];
} __attribute__((aligned(64)));

/* One fan-out of a stage to the job workers. */
struct fb_batch {
	/* generation (24 bits) << 40 | jobs (8 bits) << 32 | next job */
	_Atomic uint64_t cursor;
	_Atomic uint32_t remaining;
	_Atomic uint32_t done;		/* futex: the issuer waits for fan-in */
	_Atomic uint32_t woke;		/* a sleeping worker took a job */
	uint64_t wake_ns, done_wake_ns;
	uint64_t frame;
	uint32_t gen;
	int lock;
	uint32_t job_ns[FB_MAX_JOBS];
	uint32_t hold_ns[FB_MAX_JOBS];
} __attribute__((aligned(64)));

/* A request/reply channel between a stage and a service. */
struct fb_mailbox {
	_Atomic uint32_t req, resp;	/* resp is the client's futex */
	uint32_t work_ns;
	uint64_t frame;
	uint64_t req_wake_ns, resp_wake_ns;
} __attribute__((aligned(64)));

struct fb_svc {
	_Atomic uint32_t seq;		/* futex: the service sleeps on it */
	struct fb_mailbox box[FB_MAX_STAGES];
} __attribute__((aligned(64)));

struct fb_mutex {
	_Atomic uint32_t word;		/* 0 free, 1 locked, 2 contended */
} __attribute__((aligned(64)));

/* Statistics of one thread (or of the present thread's vsync timer). */
struct fb_tstat {
	char name[16];
	unsigned cls;
	struct gs_hist wake;		/* wake-up (or timer) latency, ns */
	struct gs_hist lockwait;	/* contended lock waits, ns */
	uint64_t lock_acq[FB_MAX_LOCKS], lock_cont[FB_MAX_LOCKS];
	uint64_t lock_wait_ns[FB_MAX_LOCKS], lock_wait_max[FB_MAX_LOCKS];
	uint64_t periods, misses, skipped, jobs, requests;
};

/* One presented frame, from the presenter to the collector. */
struct fb_record {
	uint64_t frame;
	uint64_t start_ns, input_ns, present_ns, frametime_ns;
	uint32_t missed_vsyncs, chain_ops, chain_woken, flags, disturbance;
};

#define FB_REC_WARMUP (1u << 0)
#define FB_REC_NO_INTERVAL (1u << 1)	/* the first frame: no frame time */

struct fb_shm {
	_Atomic uint32_t stop;
	_Atomic uint32_t go;		/* futex: start barrier */
	_Atomic uint32_t ready;
	_Atomic uint32_t failed;
	char fail_msg[256];
	uint64_t t0, measure_ns, target_ns;
	_Atomic uint64_t end_ns;	/* moved earlier on SIGINT */

	_Atomic uint32_t presented;	/* futex: frames presented */
	uint64_t pacing_wake_ns;
	_Atomic uint64_t input_last_ns;
	_Atomic uint32_t disturb_active;	/* burst number, 0 when none */
	_Atomic uint32_t disturb_started;

	struct fb_frame_slot slot[FB_SLOTS];
	struct fb_chan chan[FB_MAX_STAGES];
	_Atomic uint32_t pool_seq;	/* futex: idle workers sleep on it */
	/* [s]: stage s's fan-outs; [FB_MAX_STAGES + s]: its asynchronous
	 * one, which may still run while [s] is used */
	struct fb_batch batch[2 * FB_MAX_STAGES];
	struct fb_svc svc[FB_MAX_SERVICES];
	struct fb_mutex lock[FB_MAX_LOCKS];

	_Atomic uint64_t rec_head, rec_tail;
	_Atomic uint64_t rec_dropped;
	struct fb_record rec[FB_REC_CAP];

	unsigned ntstats;
	struct fb_tstat tstat[FB_MAX_TSTATS];
};

/* ---- the engine ---------------------------------------------------- */

enum fb_task_kind { FB_T_STAGE, FB_T_WORKER, FB_T_SERVICE, FB_T_PERIODIC };

struct fb_task {
	enum fb_task_kind kind;
	unsigned idx;		/* stage, worker, service or FB_PER_* */
	int process;
	unsigned tstat;		/* its statistics */
	unsigned vsync_tstat;	/* present stage: the vsync timer's */
	int rt_prio;
	char name[16];
};

struct fb_feed;

struct fb_engine {
	const struct fb_config *cfg;
	const struct fb_profile *p;
	struct fb_shm *sh;
	size_t sh_len;
	struct fb_feed *feed;	/* NULL when off */
	unsigned ntasks;
	struct fb_task task[FB_MAX_TASKS];
	unsigned nclasses;
	char cls[FB_MAX_CLASSES][FB_NAME_MAX];
	pid_t child[FB_MAX_PROCS + 1];
	pthread_t thr[FB_MAX_TASKS];
	bool thr_started[FB_MAX_TASKS];
};

/* Maps the shared memory and lays out tasks and classes. 0 or -1. */
int fb_engine_init(struct fb_engine *e, const struct fb_config *cfg,
		   struct fb_feed *feed);
/* Forks the helper processes, starts every thread, releases them together;
 * fills sh->t0 / measure_ns / end_ns. 0, or -1 with a message printed. */
int fb_engine_start(struct fb_engine *e);
/* Whether a helper process died (its name in *who). */
bool fb_engine_child_died(struct fb_engine *e, const char **who);
/* CPU time the game has used so far: its task threads in this process
 * and its helper processes (every thread of them), in ns. 0, or -1 when a
 * clock could not be read (a thread or helper already gone). */
int fb_engine_cpu_ns(const struct fb_engine *e, uint64_t *ns);
/* Stops every thread and helper process and waits for them (bounded). */
void fb_engine_stop(struct fb_engine *e);
void fb_engine_free(struct fb_engine *e);

/* Task classes for the wake-up latency table: stages, "worker", services,
 * "input", "audio", "net", "vsync". */
unsigned fb_classes(const struct fb_profile *p, char out[][FB_NAME_MAX]);

/* Wall-clock helpers shared by the threads. */
static inline bool fb_in_window(const struct fb_shm *sh, uint64_t t)
{
	return t >= sh->measure_ns &&
	       t < atomic_load_explicit(&sh->end_ns, memory_order_relaxed);
}

#endif
