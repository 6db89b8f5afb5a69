// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd's options. One table holds each option's name, value, range,
 * field and help lines: getopt_long's option list and the --help text are
 * both made from it (lib/opttab.c), so they cannot disagree.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eevdf_run.h"
#include "intf.h"
#include "opttab.h"
#include "policy.h"
#include "policy_preempt.h"
#include "sysinfo.h"
#include "util.h"

/* The GS_OPT_SPECIAL options. */
enum opt_id {
	ID_NONE,
	ID_PERFORMANCE,
	ID_BALANCED,
	ID_POWERSAVE,
	ID_AUTOPILOT,
	ID_AUTOPOWER,
	ID_GAME_DIR,
	ID_GAME_FILE,
};

#define FIELD(f) offsetof(struct lavd_opts, f)
#define SPECIAL(i) .type = GS_OPT_SPECIAL, .id = (i)
#define RANGE(lo, hi) .min = (lo), .max = (hi)

static const struct lavd_opts defaults = {
	.slice_min_us = LAVD_SLICE_MIN_DFL / 1000,
	.slice_max_us = LAVD_SLICE_MAX_DFL / 1000,
	.preempt_shift = LAVD_PREEMPT_SHIFT_DFL,
	.pinned_slice_us = 5000,
	.greedy_slice_us = LAVD_GREEDY_SLICE_DFL / 1000,
	.power_mode = LAVD_PM_AUTO,
	.match_scan_ms = 1000,
	.sysfs = "/sys",
	.stall_after_s = -1,
	.eevdf_period_ms = 100,
	.eevdf_nice = -10,
	.eevdf_bg_nice = 10,
	.eevdf_slice_us = 1000,
	.eevdf_uclamp_min = 512,
	.eevdf_state = LAVD_EEVDF_STATE_DFL,
};

/* In --help order; the comment says where each value goes or why it exists. */
static const struct gs_opt specs[] = {
	/* bounds of the system slice the timer adapts (rodata slice_min_ns) */
	{ "slice-min-us", 0, "N", GS_OPT_U64, FIELD(slice_min_us), RANGE(50, 1000000),
	  .loads = true, .show_default = true,
	  .help = "shortest time slice, microseconds" },
	/* ... and slice_max_ns */
	{ "slice-max-us", 0, "N", GS_OPT_U64, FIELD(slice_max_us), RANGE(50, 1000000),
	  .loads = true, .show_default = true,
	  .help = "longest time slice, microseconds" },
	/* how critical a wakee must be to look for a victim (preempt.bpf.h) */
	{ "preempt-shift", 0, "N", GS_OPT_U64, FIELD(preempt_shift), RANGE(0, 10),
	  .loads = true,
	  .help = "preemption threshold: the top 1/2^N of the range\n"
		  "between average and maximum lat_cri (0-10, default 6)" },
	/* ablation: no wake-up preemption at all */
	{ "no-preemption", 0, NULL, GS_OPT_SET, FIELD(no_preemption), .loads = true,
	  .help = "never evict a running task for a waking one" },
	/* how long a greedy task runs before queued work gets the CPU */
	{ "greedy-slice-us", 0, "N", GS_OPT_U64, FIELD(greedy_slice_us), RANGE(0, 1000000),
	  .loads = true, .show_default = true,
	  .help = "a greedy task's slice is at most N us (0: no cap)" },
	/* ablation: each link of a wake chain keeps its own deadline */
	{ "no-chain-deadline", 0, NULL, GS_OPT_SET, FIELD(no_chain_deadline), .loads = true,
	  .help = "a woken task does not keep its waker's earlier deadline" },
	/* under the threshold, a wakee may still evict a greedy task */
	{ "greedy-preempt", 0, NULL, GS_OPT_SET, FIELD(greedy_preempt), .loads = true,
	  .help = "any non-greedy wakee may evict a greedy running task" },
	/* ablation: no futex programs are loaded (lock.bpf.h) */
	{ "no-futex-boost", 0, NULL, GS_OPT_SET, FIELD(no_futex_boost), .loads = true,
	  .help = "do not track futex lock holders" },
	/* ablation: every task gets the system slice (slice.bpf.h) */
	{ "no-slice-boost", 0, NULL, GS_OPT_SET, FIELD(no_slice_boost), .loads = true,
	  .help = "no longer slices for long runners" },
	/* pinned tasks cannot go elsewhere: the cap bounds their wait */
	{ "pinned-slice-us", 0, "N", GS_OPT_U64, FIELD(pinned_slice_us), RANGE(0, 1000000),
	  .loads = true,
	  .help = "while tasks pinned to a CPU wait for it, nothing\n"
		  "there runs longer than N us (0: no cap; default 5000)" },
	/* ablation of the sync-wakeup placement (idle.bpf.h) */
	{ "no-wake-sync", 0, NULL, GS_OPT_SET, FIELD(no_wake_sync), .loads = true,
	  .help = "do not place a sync wakee on its waker's CPU" },
	/* SCX_OPS_SWITCH_PARTIAL */
	{ "partial", 0, NULL, GS_OPT_SET, FIELD(partial), .loads = true,
	  .help = "schedule only tasks that chose SCHED_EXT" },
	/* the five power mode options exclude each other (parse_power_mode) */
	{ "autopilot", 0, NULL, SPECIAL(ID_AUTOPILOT), .loads = true,
	  .section = "energy and topology",
	  .help = "choose the power mode from the load (default)" },
	/* LAVD_PM_PERFORMANCE */
	{ "performance", 0, NULL, SPECIAL(ID_PERFORMANCE), .loads = true,
	  .help = "every CPU active, big cores preferred" },
	/* LAVD_PM_BALANCED */
	{ "balanced", 0, NULL, SPECIAL(ID_BALANCED), .loads = true,
	  .help = "core compaction, performance preference order" },
	/* LAVD_PM_POWERSAVE */
	{ "powersave", 0, NULL, SPECIAL(ID_POWERSAVE), .loads = true,
	  .help = "core compaction, little cores and SMT siblings first" },
	/* the loader polls the profile (power.c) and hands the mode to BPF */
	{ "autopower", 0, NULL, SPECIAL(ID_AUTOPOWER), .loads = true,
	  .help = "follow the platform power profile\n"
		  "(/sys/firmware/acpi/platform_profile, else the CPUs'\n"
		  "energy_performance_preference), checked every second" },
	/* rodata no_core_compaction: the active set is every CPU */
	{ "no-core-compaction", 0, NULL, GS_OPT_SET, FIELD(no_core_compaction), .loads = true,
	  .help = "keep every CPU active in every mode" },
	/* rodata no_freq_scaling: the kernel's default frequency stays */
	{ "no-freq-scaling", 0, NULL, GS_OPT_SET, FIELD(no_freq_scaling), .loads = true,
	  .help = "do not set cpufreq targets (scx_bpf_cpuperf_set)" },
	/* cpdom.c; a bad file exits 2 before anything loads */
	{ "topology", 0, "FILE", GS_OPT_STRING, FIELD(topology), .loads = true,
	  .help = "override the CPU topology: lines 'cpus LIST [node N]\n"
		  "[llc N] [capacity 1..1024] [type big|little] [smt N]'" },
	/* printing only: allowed with --monitor */
	{ "stats", 0, "SEC", GS_OPT_NUMBER, FIELD(stats_s), RANGE(0.1, 86400),
	  .help = "print a statistics line every SEC seconds" },
	/* reads the running instance's maps by name (monitor.c) */
	{ "monitor", 0, "SEC", GS_OPT_NUMBER, FIELD(monitor_s), RANGE(0.1, 86400),
	  .help = "do not load: watch a running lavd's statistics" },
	/* the rate goes to the lavd_ctl map, of this or the running instance */
	{ "monitor-sched-samples", 0, "N", GS_OPT_U64, FIELD(samples), RANGE(0, LAVD_SAMPLES_MAX),
	  .help = "print about N sampled scheduling decisions a\n"
		  "second (of this instance, or with --monitor of the\n"
		  "running one)" },
	/* libbpf's messages (bpflog.c) and rodata verbose */
	{ "verbose", 'v', NULL, GS_OPT_SET, FIELD(verbose),
	  .help = "libbpf messages, and the kernel's dump on errors" },
	/* main.c: the checks a load starts with, then exit (packaging tests,
	 * profiles written on another machine) */
	{ "check", 0, NULL, GS_OPT_SET, FIELD(check),
	  .help = "check every option and game profile, list the\n"
		  "profiles, and exit: 0 valid, 2 not (needs neither\n"
		  "root nor sched_ext; loads nothing)" },
	/* kcheck.c: another kernel, from the vmlinux of its package */
	{ "btf", 0, "FILE", GS_OPT_INPUT, FIELD(btf),
	  .help = "with --check: judge the kernel whose BTF is in\n"
		  "FILE (a vmlinux, or a raw BTF file) instead of\n"
		  "the running one" },
	/* exits 0 */
	{ "version", 0, NULL, GS_OPT_VERSION,
	  .help = "print the version" },
	/* exits 0 */
	{ "help", 'h', NULL, GS_OPT_HELP,
	  .help = "this help" },
	/* gameprof.c reads them all before loading; gamectl.c applies them */
	{ "game-profiles", 0, "DIR", SPECIAL(ID_GAME_DIR), .loads = true,
	  .section = "game profiles (docs/lavd.md)",
	  .help = "load the profiles DIR/*.conf; a process follows\n"
		  "the first that matches it (repeatable, in order);\n"
		  "SIGHUP reads them again" },
	/* one file, as --game-profiles does for each of a directory's */
	{ "game-profile", 0, "FILE", SPECIAL(ID_GAME_FILE), .loads = true,
	  .help = "load one profile file (repeatable)" },
	/* procscan.c: the fallback's period and the exit sweep's */
	{ "match-scan-ms", 0, "MS", GS_OPT_U64, FIELD(match_scan_ms), RANGE(50, 60000),
	  .loads = true, .show_default = true,
	  .help = "how often /proc is scanned for processes when\n"
		  "no exec and rename events are available, and\n"
		  "exited processes are forgotten" },
	/* ops.timeout_ms; 0 leaves the kernel's */
	{ "watchdog-ms", 0, "MS", GS_OPT_U64, FIELD(watchdog_ms), RANGE(100, 600000),
	  .loads = true, .section = "debugging",
	  .help = "sched_ext watchdog timeout (default: kernel's, 30 s)" },
	/* the watchdog ejection test of vm-test */
	{ "debug-stall-after", 0, "SEC", GS_OPT_NUMBER, FIELD(stall_after_s), RANGE(0, 86400),
	  .loads = true,
	  .help = "stop dispatching SEC seconds after attaching,\n"
		  "to test the watchdog ejection (fault injection)" },
	/* the load/unload leak checks of vm-test */
	{ "debug-bpf-objects", 0, NULL, GS_OPT_SET, FIELD(count_bpf),
	  .help = "print how many BPF programs, maps and links the\n"
		  "kernel holds, and exit (leak checks)" },
	/* the error path test: rodata debug_verifier_reject */
	{ "debug-verifier-reject", 0, NULL, GS_OPT_SET, FIELD(verifier_reject), .loads = true,
	  .help = "load a variant the verifier must refuse (tests\n"
		  "the error path: exit 1 with the verifier log's tail)" },
	/* fake sysfs trees in tests */
	{ "sysfs-root", 0, "DIR", GS_OPT_INPUT, FIELD(sysfs), .loads = true,
	  .help = "read the CPU topology under DIR instead of /sys" },
	/* rodata preempt_kick: measurements of either eviction mechanism */
	{ "debug-preempt-kick", 0, "auto|never|always", GS_OPT_CHOICE,
	  FIELD(preempt_kick), .choices = "auto|never|always", .loads = true,
	  .help = "how an eviction takes effect:\n"
		  "IPI when the victim's next tick comes after the\n"
		  "wakee's burst would end (auto), slice := 1 only\n"
		  "(never, the reference), IPI always" },
	/* tests of the tracepoint path on kernels that have fexit (futex.c) */
	{ "debug-futex-path", 0, "fexit|tracepoint", GS_OPT_CHOICE,
	  FIELD(futex_tracepoint), .choices = "fexit|tracepoint", .loads = true,
	  .help = "force the futex attach path" },
	/* measurements of either way of noticing processes (gamectl.c) */
	{ "debug-match-path", 0, "events|scan", GS_OPT_CHOICE, FIELD(match_scan),
	  .choices = "events|scan", .loads = true,
	  .help = "notice new processes by exec and rename\n"
		  "tracepoints (events) or by scanning /proc (scan)" },
	/* eevdf_run.h: the model on tracepoints, the kernel's own levers */
	{ "eevdf", 0, NULL, GS_OPT_SET, FIELD(eevdf),
	  .section = "without sched_ext: steer the kernel's scheduler (docs/lavd.md)",
	  .help = "do not load into sched_ext: follow every task with lavd's\n"
		  "model from scheduler tracepoints and steer EEVDF per\n"
		  "thread (nice, custom slice, SCHED_FIFO under guards,\n"
		  "background demotion, uclamp); everything is given back\n"
		  "on exit. Works with or without sched_ext" },
	/* the service's mode: main.c says which it took */
	{ "auto", 0, NULL, GS_OPT_SET, FIELD(auto_mode),
	  .help = "load into sched_ext where the kernel has it and\n"
		  "lavd can load (--check), else run as --eevdf\n"
		  "(lavd.service runs this)" },
	/* eevdf_setup.c: the record a killed run left */
	{ "restore", 0, NULL, GS_OPT_SET, FIELD(restore),
	  .help = "with --eevdf: give back what a killed run changed, exit" },
	/* how often the map is read and classes decided */
	{ "eevdf-period-ms", 0, "MS", GS_OPT_U64, FIELD(eevdf_period_ms), RANGE(10, 10000),
	  .show_default = true, .help = "decision period" },
	/* eevdf_levers.c: EEVDF_LV_* by name */
	{ "eevdf-levers", 0, "LIST", GS_OPT_STRING, FIELD(eevdf_levers),
	  .help = "levers it may pull: nice,slice,fifo,bg,idle,uclamp or\n"
		  "none (default nice,slice,bg,uclamp; those the kernel\n"
		  "lacks are left out)" },
	/* critical tasks' nice */
	{ "eevdf-nice", 0, "N", GS_OPT_INT, FIELD(eevdf_nice), RANGE(-20, -1),
	  .help = "nice of latency-critical threads (default -10)" },
	/* background tasks' nice */
	{ "eevdf-bg-nice", 0, "N", GS_OPT_INT, FIELD(eevdf_bg_nice), RANGE(1, 19),
	  .help = "nice of CPU-bound background threads (default 10)" },
	/* sched_runtime of critical tasks: EEVDF's bounds */
	{ "eevdf-slice-us", 0, "N", GS_OPT_U64, FIELD(eevdf_slice_us), RANGE(100, 100000),
	  .show_default = true, .help = "slice request of latency-critical threads" },
	/* sched_util_min of critical tasks */
	{ "eevdf-uclamp-min", 0, "N", GS_OPT_U64, FIELD(eevdf_uclamp_min), RANGE(0, 1024),
	  .show_default = true, .help = "uclamp_min of latency-critical threads" },
	/* eevdf_kernel.c: system.slice and init.scope are services */
	{ "eevdf-scope", 0, "user|all", GS_OPT_CHOICE, FIELD(eevdf_all_scopes),
	  .choices = "user|all",
	  .help = "user: leave system services' threads alone (default);\n"
		  "all: every thread but kernel threads and init" },
	/* tests, and a second runtime directory */
	{ "eevdf-state", 0, "FILE", GS_OPT_STRING, FIELD(eevdf_state),
	  .help = "the record of changed threads (default\n"
		  LAVD_EEVDF_STATE_DFL "; FILE.lock beside it)" },
	/* --autopower tests without a platform profile */
	{ "power-profile-file", 0, "FILE", GS_OPT_STRING, FIELD(profile_file), .loads = true,
	  .help = "--autopower reads FILE as the platform\n"
		  "profile (tests)" },
};

#define NR_SPECS ARRAY_SIZE(specs)
static const char usage_head[] =
"usage: lavd [options]\n"
"Load the LAVD scheduler (latency-criticality aware virtual deadline) into\n"
"sched_ext and run it until SIGINT/SIGTERM. Needs root and a kernel with\n"
"CONFIG_SCHED_CLASS_EXT=y (Linux >= 6.12); without one, see `make vm-demo`.\n"
"\n";

static const char usage_tail[] =
"\n"
"exit status: 0 stopped by SIGINT/SIGTERM (--check: valid); 1 failed (no\n"
"sched_ext, not root, another scheduler loaded, verifier rejection,\n"
"ejected by the kernel); 2 bad usage or input\n";

static const struct gs_opt_table table = {
	specs, NR_SPECS, usage_head, usage_tail, &defaults, 21,
	.version = "lavd " LAVD_VERSION " (gamesched)\n", .command = "lavd",
};

/* --performance, --balanced, --powersave, --autopilot, --autopower. */
static void parse_power_mode(struct lavd_opts *o, enum opt_id id,
			     const char *given)
{
	/* the same option twice is no conflict */
	if (o->power_opt && strcmp(o->power_opt, given))
		gs_die(EXIT_USAGE, "options %s and %s exclude each other "
		       "(one power mode)", o->power_opt, given);
	o->power_opt = given;
	o->power_mode = id == ID_PERFORMANCE ? LAVD_PM_PERFORMANCE :
			id == ID_BALANCED ? LAVD_PM_BALANCED :
			id == ID_POWERSAVE ? LAVD_PM_POWERSAVE : LAVD_PM_AUTO;
	o->autopower = id == ID_AUTOPOWER;
}

/* given: the option as written (it may be abbreviated). */
static void parse_special(struct lavd_opts *o, const struct gs_opt *s,
			  const char *arg, const char *given)
{
	switch (s->id) {
	case ID_GAME_DIR:
	case ID_GAME_FILE:
		if (o->nr_gp_paths == LAVD_GP_MAX_PATHS)
			gs_die(EXIT_USAGE, "option --%s: at most %d profile paths",
			       s->name, LAVD_GP_MAX_PATHS);
		o->gp_paths[o->nr_gp_paths++] = (struct lavd_gp_path){
			arg, s->id == ID_GAME_DIR };
		break;
	default:
		parse_power_mode(o, s->id, given);
		break;
	}
}

/* --eevdf and its options go together, and with no sched_ext option. */
static void check_eevdf(const struct lavd_opts *o, const char *sched_opt)
{
	char err[256];

	if (!o->eevdf) {
		if (o->restore)
			gs_die(EXIT_USAGE, "--restore needs --eevdf");
		return;
	}
	if (sched_opt)
		gs_die(EXIT_USAGE, "--eevdf steers the kernel's own scheduler; it "
		       "takes no sched_ext option (got --%s)%s", sched_opt,
		       !o->auto_mode ? "" : o->auto_unloadable ?
		       " (--auto chose --eevdf: lavd cannot load on this kernel, "
		       "lavd --check says why)" :
		       " (--auto chose --eevdf: this kernel has no sched_ext)");
	if (o->monitor_s > 0 || o->count_bpf)
		gs_die(EXIT_USAGE, "--eevdf takes no %s",
		       o->count_bpf ? "--debug-bpf-objects" : "--monitor");
	if (o->eevdf_levers && eevdf_levers_parse(o->eevdf_levers, err, sizeof(err)) < 0)
		gs_die(EXIT_USAGE, "option --eevdf-levers: %s", err);
	if (!o->eevdf_state[0])
		gs_die(EXIT_USAGE, "option --eevdf-state: empty path");
}

void lavd_opts_eevdf(const struct lavd_opts *o, struct lavd_eevdf_cfg *c)
{
	*c = (struct lavd_eevdf_cfg){
		.period_ns = o->eevdf_period_ms * LAVD_NSEC_PER_MSEC,
		.stats_s = o->stats_s,
		.levers = o->eevdf_levers,
		.crit_nice = o->eevdf_nice,
		.bg_nice = o->eevdf_bg_nice,
		.slice_ns = o->eevdf_slice_us * LAVD_NSEC_PER_USEC,
		.uclamp_min = (uint32_t)o->eevdf_uclamp_min,
		.all_scopes = o->eevdf_all_scopes,
		.verbose = o->verbose,
		.state_path = o->eevdf_state,
	};
}

bool (*lavd_auto_loadable)(void);

void lavd_opts_parse(struct lavd_opts *o, int argc, char **argv)
{
	struct option longopts[NR_SPECS + 1];
	char shortopts[2 * NR_SPECS + 3];
	const char *sched_opt = NULL;	/* first long option that configures a load */
	int c, li;

	*o = defaults;
	gs_opt_dump_option(&table, argc, argv);
	gs_opt_getopt(&table, longopts, shortopts);
	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		const struct gs_opt *s = gs_opt_of(&table, c);

		if (c == ':' || !s)
			gs_die_bad_option(c, argv);
		if (li >= 0 && !sched_opt && s->loads)
			sched_opt = s->name;
		if (!gs_opt_take(&table, s, o, optarg))
			parse_special(o, s, optarg, argv[optind - 1]);
	}
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);
	if (o->slice_min_us > o->slice_max_us)
		gs_die(EXIT_USAGE,
		       "--slice-min-us %llu is larger than --slice-max-us %llu",
		       (unsigned long long)o->slice_min_us,
		       (unsigned long long)o->slice_max_us);
	if (o->match_scan && !o->nr_gp_paths)
		gs_die(EXIT_USAGE, "--debug-match-path needs --game-profiles or "
		       "--game-profile");
	if (o->check && (o->monitor_s > 0 || o->count_bpf))
		gs_die(EXIT_USAGE, "--check checks what a load would use; it takes "
		       "no %s", o->count_bpf ? "--debug-bpf-objects" : "--monitor");
	if (o->btf && (!o->check || o->eevdf || o->auto_mode))
		gs_die(EXIT_USAGE, "--btf FILE is read by --check alone (the "
		       "sched_ext scheduler's kernel check); it takes no %s",
		       !o->check ? "other mode: add --check" :
		       o->eevdf ? "--eevdf" : "--auto");
	if (o->auto_mode) {
		if (o->eevdf)
			gs_die(EXIT_USAGE, "--auto chooses --eevdf itself: give one of "
			       "them");
		o->eevdf = access(GS_SCX_ROOT, F_OK) != 0;
		/* sched_ext, but a kernel lavd cannot load on (kcheck.c) */
		o->auto_unloadable = !o->eevdf && lavd_auto_loadable &&
				     !lavd_auto_loadable();
		o->eevdf = o->eevdf || o->auto_unloadable;
	}
	check_eevdf(o, sched_opt);
	if (o->monitor_s > 0 && sched_opt)
		gs_die(EXIT_USAGE, "--monitor only watches; it takes no scheduler "
		       "options (got --%s)", sched_opt);
}

bool lavd_opts_is_option(const char *name)
{
	return gs_opt_is(&table, name);
}

void lavd_opts_default_knobs(const struct lavd_opts *o, struct lavd_knobs *k)
{
	memset(k, 0, sizeof(*k));
	k->slice_min_ns = o->slice_min_us * LAVD_NSEC_PER_USEC;
	k->slice_max_ns = o->slice_max_us * LAVD_NSEC_PER_USEC;
	k->greedy_slice_ns = o->greedy_slice_us * LAVD_NSEC_PER_USEC;
	k->slice_scale = LAVD_SCALE;
	k->lc_freq_w = k->lc_run_w = LAVD_SCALE;
	k->weight_scale = LAVD_SCALE;
	k->preempt_shift = (__u32)o->preempt_shift;
	k->flags = LAVD_KN_EVICTABLE |
		   (o->no_preemption ? 0 : LAVD_KN_PREEMPT) |
		   (o->greedy_preempt ? LAVD_KN_GREEDY_PREEMPT : 0) |
		   (o->no_futex_boost ? 0 : LAVD_KN_FUTEX) |
		   (o->no_slice_boost ? 0 : LAVD_KN_SLICE_BOOST) |
		   (o->no_chain_deadline ? 0 : LAVD_KN_CHAIN_DL);
}


void lavd_opts_load_profiles(const struct lavd_opts *o, struct lavd_gp_set *set)
{
	struct lavd_knobs dfl;
	char err[1200];

	lavd_opts_default_knobs(o, &dfl);
	if (o->nr_gp_paths &&
	    lavd_gp_load(o->gp_paths, o->nr_gp_paths, &dfl, !o->no_futex_boost,
			 lavd_opts_is_option, set, err, sizeof(err)))
		gs_die(EXIT_USAGE, "%s", err);
}

int lavd_opts_topology(const struct lavd_opts *o, struct lavd_topo *t,
		       char *err, size_t errlen)
{
	if (lavd_topo_read(o->sysfs, t, err, errlen) != 0)
		return -1;
	if (o->topology && lavd_topo_override(o->topology, t, err, errlen) != 0)
		return -1;
	return lavd_topo_domains(t, err, errlen);
}

void lavd_opts_check_load(const struct lavd_opts *o)
{
	if (o->profile_file && !o->autopower)
		gs_die(EXIT_USAGE, "--power-profile-file needs --autopower");
	if (o->profile_file && access(o->profile_file, R_OK) != 0)
		gs_die(EXIT_USAGE, "--power-profile-file: cannot read %s: %s",
		       o->profile_file, strerror(errno));
	if (o->topology) {
		static struct lavd_topo t;	/* large: not on the stack */
		char err[512];

		if (lavd_opts_topology(o, &t, err, sizeof(err)) != 0)
			gs_die(EXIT_USAGE, "--topology: %s", err);
	}
}
