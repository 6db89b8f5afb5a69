/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd's command line: the options, their parsing and the --help text,
 * both made from one table (options.c). The parsed options are handed to
 * whoever needs them; nothing here touches libbpf.
 */
#ifndef LAVD_OPTIONS_H
#define LAVD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gameprof.h"
#include "topo.h"

struct lavd_opts {
	/* scheduling (the BPF program's read-only settings) */
	uint64_t slice_min_us, slice_max_us;
	uint64_t preempt_shift;
	uint64_t pinned_slice_us;	/* 0: no cap */
	bool no_wake_sync, partial;
	bool no_preemption, greedy_preempt, no_futex_boost, no_slice_boost;
	uint64_t greedy_slice_us;
	bool no_chain_deadline;
	int preempt_kick;		/* LAVD_KICK_*, in the order of
					 * --debug-preempt-kick's words */
	int futex_tracepoint;		/* --debug-futex-path: 0 fexit (tried
					 * first anyway), 1 tracepoint */
	/* energy and topology */
	int power_mode;			/* LAVD_PM_* fixed, or LAVD_PM_AUTO */
	bool autopower;			/* the mode follows the platform profile */
	const char *power_opt;		/* the mode option as given, for messages */
	bool no_core_compaction, no_freq_scaling;
	const char *sysfs;		/* --sysfs-root, "/sys" by default */
	const char *topology;		/* --topology FILE */
	const char *profile_file;	/* --power-profile-file FILE (tests) */
	/* game profiles (gameprof.h), in the order given */
	struct lavd_gp_path gp_paths[LAVD_GP_MAX_PATHS];
	int nr_gp_paths;
	uint64_t match_scan_ms;		/* /proc scan period, and the sweep's */
	int match_scan;			/* --debug-match-path: 0 events, 1 scan */
	/* what lavd does while it runs */
	double stats_s;			/* 0: no statistics lines */
	double monitor_s;		/* > 0: watch a running instance instead */
	uint64_t samples;		/* --monitor-sched-samples N per second */
	bool verbose;
	bool check;			/* --check: the checks, then exit */
	const char *btf;		/* --btf FILE: --check judges that kernel */
	/* debugging */
	uint64_t watchdog_ms;		/* 0: the kernel's default */
	double stall_after_s;		/* < 0: never */
	bool count_bpf;			/* --debug-bpf-objects */
	bool verifier_reject;
	/* --eevdf: the model steers the kernel's own scheduler (eevdf_run.h) */
	bool eevdf, restore;
	bool auto_mode;			/* --auto: sched_ext if there, else --eevdf */
	bool auto_unloadable;		/* --auto chose --eevdf: sched_ext, but
					 * lavd_auto_loadable() said no */
	uint64_t eevdf_period_ms;
	const char *eevdf_levers;	/* NULL: the default set */
	int eevdf_nice, eevdf_bg_nice;
	uint64_t eevdf_slice_us;
	uint64_t eevdf_uclamp_min;
	int eevdf_all_scopes;		/* --eevdf-scope: 0 user, 1 all */
	const char *eevdf_state;
};

/*
 * Fills opts from the command line. --help and --version print and exit
 * 0; bad usage prints a message naming the option and exits 2.
 */
void lavd_opts_parse(struct lavd_opts *opts, int argc, char **argv);
/*
 * --auto on a kernel with sched_ext: could lavd load here (its BTF, the
 * kfuncs; kcheck.c)? Set by the program before lavd_opts_parse(); NULL
 * (the unit tests): sched_ext is enough.
 */
extern bool (*lavd_auto_loadable)(void);

/*
 * Checks, before anything is loaded, the inputs only a load reads: the
 * power profile file and the --topology file. Exits 2 on bad input.
 */
void lavd_opts_check_load(const struct lavd_opts *opts);

/*
 * Reads and checks every game profile (--game-profiles, --game-profile)
 * into set, before anything is loaded. Exits 2 naming file and line.
 */
void lavd_opts_load_profiles(const struct lavd_opts *opts, struct lavd_gp_set *set);

struct lavd_eevdf_cfg;
/* The --eevdf settings as the steering loop takes them. */
void lavd_opts_eevdf(const struct lavd_opts *opts, struct lavd_eevdf_cfg *cfg);

/* Is name one of lavd's options (without "--")? Profiles refuse those. */
bool lavd_opts_is_option(const char *name);
/* lavd's own knob values: its options, as every task without a profile. */
void lavd_opts_default_knobs(const struct lavd_opts *o, struct lavd_knobs *k);

/*
 * The topology lavd runs on: sysfs (under opts->sysfs), then the
 * --topology override, then core types, compute domains and preference
 * orders. Returns 0, or -1 with a message in err.
 */
int lavd_opts_topology(const struct lavd_opts *opts, struct lavd_topo *t,
		       char *err, size_t errlen);

#endif
