/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workload profiles: the text data format that describes a game's frame
 * pipeline (stages and their steps), its helper processes, services, locks
 * and periodic tasks; framebench runs them, frametrace profile writes them
 * (and checks what it wrote with this parser, under the same limits). The
 * format is documented in docs/framebench.md ("Profile format"); the files
 * in framebench/profiles/ are the shipped examples. The distributions'
 * sampling and formatting are in fbdist.c.
 *
 * The parser is strict: the first problem stops it with
 * "<file>:<line>: expected <what>, got '<token>'".
 */
#ifndef FB_PROFILE_H
#define FB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FB_NAME_MAX 32
#define FB_MAX_PROCS 4		/* helper processes besides the benchmark */
#define FB_MAX_SERVICES 4
#define FB_MAX_LOCKS 8
#define FB_MAX_STAGES 8
#define FB_MAX_STEPS 32		/* per stage */
#define FB_MAX_JOBS 64		/* per fan-out */
#define FB_MAX_STAGE_JOBS 256	/* jobs of all fan-outs of one stage */
#define FB_MAX_WORKERS 64
#define FB_MAX_FPS 10000
#define FB_MAX_IN_FLIGHT 8
#define FB_MAX_WORK_NS 1000000000ULL /* one step's work: at most 1 s */
#define FB_COMM_MAX 16		/* a thread or process name: Linux keeps 15 */
#define FB_TFMT_MAX 32		/* a worker name format ("Job.Worker %d") */

/* A distribution of nominal CPU work (or hold time), in ns. */
enum fb_dist_kind { FB_DIST_FIXED, FB_DIST_UNIFORM, FB_DIST_NORMAL, FB_DIST_TWOPIECE };

struct fb_dist {
	enum fb_dist_kind kind;
	double a, b;		/* fixed: a; uniform: [a, b]; normal: mean a, sd b;
				 * two-piece: median a, sd b below it */
	double c;		/* two-piece: sd above the median */
};

/* A two-piece distribution's mean: half a normal of sd @below under the
 * median and of sd @above over it, E|Z| = sqrt(2/pi) on each side (the
 * replay's draw, lib/fbdist.c, and frametrace's fit of it) */
static inline double fb_twopiece_mean(double median, double below, double above)
{
	return median + 0.3989422804 * (above - below);
}

enum fb_step_kind { FB_STEP_WORK, FB_STEP_CALL, FB_STEP_FANOUT, FB_STEP_LOCK,
		    FB_STEP_JOIN };

struct fb_step {
	enum fb_step_kind kind;
	struct fb_dist work;	/* work, call: service work, fanout: per job, lock: hold */
	int target;		/* call: service index; lock: lock index; fanout: lock
				 * the jobs take (-1 none) */
	struct fb_dist hold;	/* fanout with lock=: hold time per job */
	unsigned jobs;		/* fanout */
	bool async;		/* fanout: not waited for; the stage's join
				 * step waits (fbprofile_join.c) */
	bool even;		/* fanout: one draw of work for all its jobs
				 * (equal parts, as a renderer's tiles) */
	double prob;		/* the step happens with this probability per frame */
	int line;
};

struct fb_stage {
	char name[FB_NAME_MAX];
	char thread[FB_COMM_MAX];	/* thread=NAME; "": fb-NAME */
	int process;		/* 0 = the benchmark, 1.. = helper processes */
	unsigned nsteps;
	struct fb_step step[FB_MAX_STEPS];
	int line;
};

struct fb_service {
	char name[FB_NAME_MAX];
	char thread[FB_COMM_MAX];	/* thread=NAME; "": fb-NAME */
	int process;
	struct fb_dist work;	/* default work per request */
};

enum { FB_PER_INPUT, FB_PER_AUDIO, FB_PER_NET, FB_PER_N };

/* A periodic task beside the frames: input poll, audio, network tick. */
struct fb_periodic {
	bool enabled;
	char thread[FB_COMM_MAX];	/* thread=NAME; "": fb-input, ... */
	int process;
	uint64_t period_ns;
	uint64_t deadline_ns;	/* audio: a period's work must end within it */
	struct fb_dist work;
	int lock;		/* -1, or a lock taken once per period */
	struct fb_dist hold;
	int line;
};

struct fb_profile {
	char name[FB_NAME_MAX];
	char description[160];
	char source[256];	/* file name used in messages */
	unsigned fps;		/* 0 = uncapped */
	unsigned frames_in_flight;
	unsigned workers;
	unsigned nprocs;	/* helper processes; names in proc[1..nprocs] */
	char proc[FB_MAX_PROCS + 1][FB_NAME_MAX];
	/* what the threads and processes are called, as the engine a profile
	 * models names them ("" : fb-NAME, fb-worker%d; the benchmark's own
	 * process keeps its name): comm NAME, process P comm=NAME,
	 * thread=NAME, workers N thread=FORMAT */
	char proc_comm[FB_MAX_PROCS + 1][FB_COMM_MAX];
	char worker_thread[FB_TFMT_MAX];
	unsigned nservices;
	struct fb_service service[FB_MAX_SERVICES];
	unsigned nlocks;
	char lock[FB_MAX_LOCKS][FB_NAME_MAX];
	struct fb_periodic periodic[FB_PER_N];
	unsigned nstages;
	struct fb_stage stage[FB_MAX_STAGES];
};

extern const char *const fb_periodic_names[FB_PER_N];

/*
 * Parses profile text (len bytes, need not be terminated). source names the
 * file in messages. Returns 0, or -1 with "<source>:<line>: expected ..."
 * in err.
 */
int fb_profile_parse(const char *text, size_t len, const char *source,
		     struct fb_profile *p, char *err, size_t errlen);

/*
 * A stage's asynchronous fan-out and its join (fbprofile_join.c): one of
 * each or neither, without p=. Returns 0, or -1 with
 * "<source>:<line>: expected ..." in err.
 */
int fb_stage_check_async(const struct fb_stage *st, const char *source,
			 char *err, size_t errlen);
/* Whether the stage's join comes before its asynchronous fan-out: it then
 * waits for the jobs of the stage's previous frame. */
bool fb_stage_join_first(const struct fb_stage *st);

/* Reads and parses a file. */
int fb_profile_load_file(const char *path, struct fb_profile *p, char *err,
			 size_t errlen);

/*
 * Resolves --profile ARG: a shipped name (proton, unreal, esports,
 * strategy; embedded in the binary) or a path to a profile file.
 * Returns 0, or -1 with a message in err.
 */
int fb_profile_resolve(const char *arg, struct fb_profile *p, char *err,
		       size_t errlen);

/* The shipped profiles, embedded at build time. */
struct fb_builtin {
	const char *name;
	const char *text;	/* NUL-terminated */
};
extern const struct fb_builtin fb_builtins[];
extern const size_t fb_nbuiltins;

/*
 * A worker thread's name: the profile's format with its index for "%d",
 * or fb-worker<index>, cut to what Linux keeps (15 characters).
 */
void fb_worker_name(const struct fb_profile *p, unsigned idx, char out[FB_COMM_MAX]);

/* Samples a distribution (clamped to [0, FB_MAX_WORK_NS]). */
struct gs_rng;
uint32_t fb_dist_sample(const struct fb_dist *d, struct gs_rng *r);
/* Mean of a distribution, ns. */
double fb_dist_mean(const struct fb_dist *d);
/* Formats a distribution as profile text ("300us..800us"). */
void fb_dist_format(const struct fb_dist *d, char *buf, size_t len);

#endif
