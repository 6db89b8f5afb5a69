/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Game profiles (docs/lavd.md, "Game profiles"): text files of KEY VALUE
 * lines that name a profile, say which processes follow it (match rules
 * on the process name, the executable's path and thread names, as globs)
 * and set per-task knobs. This file reads and checks them and matches a
 * process against a set of profiles; nothing here touches libbpf, so all
 * of it is unit-tested on the host (tests/test_lavd_profiles.c).
 *
 * A profile file:
 *   name    unreal
 *   match   thread GameThread            # any match line may match;
 *   match   comm *.exe thread dxvk-cs    # all conditions of one line must
 *   preempt-shift 4                      # knobs: lavd_gp_knobs[]
 */
#ifndef LAVD_GAMEPROF_H
#define LAVD_GAMEPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "intf.h"

/* Whether a key is one of lavd's global options (options.c answers): a
 * profile that sets one is told it belongs on the command line. */
typedef bool lavd_gp_is_global_fn(const char *key);

#define LAVD_GP_MAX		(LAVD_MAX_PROFILES - 1)	/* index 0 is "none" */
#define LAVD_GP_MAX_RULES	16	/* match lines per profile */
#define LAVD_GP_MAX_CONDS	4	/* conditions per match line */
#define LAVD_GP_GLOB_MAX	128
#define LAVD_GP_MAX_PATHS	32	/* --game-profiles / --game-profile options */
#define LAVD_GP_MAX_FILES	64	/* files read from all of them */
#define LAVD_COMM_LEN		15	/* what Linux keeps of a task's name */

/* What a match condition looks at. */
enum lavd_gp_kind {
	LAVD_GP_COMM,		/* the process's name (its main thread's comm) */
	LAVD_GP_EXE,		/* /proc/PID/exe, an absolute path */
	LAVD_GP_THREAD,		/* the name of one of its threads */
};

struct lavd_gp_cond {
	enum lavd_gp_kind kind;
	char glob[LAVD_GP_GLOB_MAX];
};

/* One match line: all its conditions must hold. */
struct lavd_gp_rule {
	int ncond, line;
	struct lavd_gp_cond cond[LAVD_GP_MAX_CONDS];
};

/* The per-task knobs a profile may set (docs/lavd.md lists them). */
enum lavd_gp_knob {
	LAVD_GK_SLICE_MIN,	/* slice-min-us N */
	LAVD_GK_SLICE_MAX,	/* slice-max-us N */
	LAVD_GK_SLICE_SCALE,	/* slice-scale PCT */
	LAVD_GK_SLICE_BOOST,	/* slice-boost on|off */
	LAVD_GK_PREEMPT,	/* preemption on|off */
	LAVD_GK_PREEMPT_SHIFT,	/* preempt-shift N */
	LAVD_GK_EVICTABLE,	/* evictable on|off */
	LAVD_GK_GREEDY_PREEMPT,	/* greedy-preempt on|off */
	LAVD_GK_FUTEX,		/* futex-boost on|off */
	LAVD_GK_LC_BOOST,	/* lat-cri-boost N */
	LAVD_GK_LC_FREQ_W,	/* lat-cri-freq-weight PCT */
	LAVD_GK_LC_RUN_W,	/* lat-cri-runtime-weight PCT */
	LAVD_GK_CHAIN,		/* chain-deadline on|off */
	LAVD_GK_GREEDY_SLICE,	/* greedy-slice-us N */
	LAVD_GK_WEIGHT_SCALE,	/* weight-scale PCT */
	LAVD_GK_NR
};

/* A knob's key, its value's form and range, and one line of help. */
struct lavd_gp_knob_spec {
	const char *key;
	bool onoff;		/* on|off; else an integer in [min, max] */
	uint64_t min, max;
	const char *help;
};
extern const struct lavd_gp_knob_spec lavd_gp_knobs[LAVD_GK_NR];

struct lavd_gprof {
	char name[LAVD_PROF_NAME_LEN];
	char desc[160];
	char file[512];		/* where it was read, for messages */
	int name_line;		/* 0: named after its file */
	int desc_line;		/* 0: no description line */
	int nrules;
	struct lavd_gp_rule rule[LAVD_GP_MAX_RULES];
	bool set[LAVD_GK_NR];	/* which knobs it states */
	uint64_t val[LAVD_GK_NR];	/* on/off as 1/0 */
	int kline[LAVD_GK_NR];
	struct lavd_knobs kn;	/* resolved against lavd's options */
};

/* A path given on the command line. */
struct lavd_gp_path {
	const char *path;
	bool dir;		/* --game-profiles DIR, else --game-profile FILE */
};

/* A file that was read, to notice when it changes. */
struct lavd_gp_file {
	char path[512];
	bool dir;
	struct timespec mtime;
	off_t size;
	ino_t ino;
	bool warned;
};

/* Every profile, in the order they are tried (first match wins). */
struct lavd_gp_set {
	int n;
	struct lavd_gprof p[LAVD_GP_MAX];
	bool thread_rules, exe_rules;	/* some profile has them */
	int nfiles;
	struct lavd_gp_file files[LAVD_GP_MAX_FILES];
};

/*
 * Parses one profile from text (source names it in messages; its base
 * name without ".conf" is the default profile name). Checks syntax,
 * keys, ranges and rules that can never match. Returns 0, or -1 with
 * "SOURCE:LINE: what" in err.
 */
int lavd_gp_parse(const char *text, const char *source,
		  lavd_gp_is_global_fn *is_global, struct lavd_gprof *p,
		  char *err, size_t errlen);

/*
 * The knob set of p's tasks: what p states, lavd's options (dfl) for the
 * rest. Refuses combinations that cannot work (slice bounds crossed,
 * futex-boost on without the futex programs). 0, or -1 with
 * "FILE:LINE: what" in err.
 */
int lavd_gp_resolve(struct lavd_gprof *p, const struct lavd_knobs *dfl,
		    bool futex_available, char *err, size_t errlen);

/*
 * Reads every path in order (a directory: its *.conf files by name),
 * parses and resolves each profile, and refuses two profiles with one
 * name, more than LAVD_GP_MAX, and a directory without profiles. Every
 * file is checked before the set is returned. 0, or -1 with
 * "OPTION: FILE:LINE: what" in err.
 */
int lavd_gp_load(const struct lavd_gp_path *paths, int npaths,
		 const struct lavd_knobs *dfl, bool futex_available,
		 lavd_gp_is_global_fn *is_global, struct lavd_gp_set *set,
		 char *err, size_t errlen);

/* A file of set changed on disk since it was read (not yet warned):
 * returns its index, or -1. */
int lavd_gp_changed(struct lavd_gp_set *set);

/* ---- globs: * ? [abc] [a-z] [!x] and \ for a literal ---- */

bool lavd_glob_match(const char *pat, const char *s);
/* Checks the syntax; *minlen: the shortest string it matches. 0 or -1. */
int lavd_glob_check(const char *pat, size_t *minlen, char *err, size_t errlen);

/* ---- matching ---- */

/* What is known of one process. exe may be NULL when no rule needs it. */
struct lavd_gp_proc {
	const char *comm;
	const char *exe;
	const char *const *threads;
	int nthreads;
};

/* The index of the first profile of set that matches, or -1. */
int lavd_gp_match(const struct lavd_gp_set *set, const struct lavd_gp_proc *pr);

/* Could a thread called comm make a profile before index `before` match
 * (a thread condition accepts it)? Saves reading a process's threads on
 * every rename. */
bool lavd_gp_thread_relevant(const struct lavd_gp_set *set, const char *comm,
			     int before);

#endif
