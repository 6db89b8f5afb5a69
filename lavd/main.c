// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd loader: checks that the kernel can take a sched_ext scheduler,
 * reads the CPU topology, loads the BPF policy (lavd.bpf.c) with the
 * options and topology filled in, attaches it, and stays until SIGINT or
 * SIGTERM, printing statistics on request. On the way out it prints the
 * kernel's exit reason; when the kernel asks for a restart (CPU hotplug)
 * it loads again with the new topology. --monitor watches a running
 * instance instead (monitor.c).
 *
 *   options.c   the option table, parsing, --help
 *   loader.c    checks, open/configure/load/attach, the run loop, exit report
 *   futex.c     the futex lock-holder programs: fexit or tracepoints
 *   gamectl.c   game profiles: which process follows which (procscan.c,
 *               gameprof.c), SIGHUP reloads, their statistics
 *   monitor.c   statistics and samples of a running instance, --monitor
 *   cost.c      BPF cost figures (-v, --debug-bpf-objects)
 *   bpflog.c    libbpf's messages, for the verifier log's tail
 *
 * Exit status: 0 stopped by SIGINT/SIGTERM (or --help/--version/--check);
 * 1 the run failed: no sched_ext, missing privileges, another scheduler
 * loaded, the kernel refused the program, or the kernel ejected lavd
 * (watchdog stall, BPF error, sysrq); 2 bad usage.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "bpflog.h"
#include "cost.h"
#include "eevdf_run.h"
#include "kcheck.h"
#include "kinfo.h"
#include "loader.h"
#include "monitor.h"
#include "options.h"
#include "util.h"

static volatile sig_atomic_t stop_sig, hup_count;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* SIGHUP reads the game profiles again (gamectl.c); it never stops lavd */
static void on_hup(int sig)
{
	(void)sig;
	hup_count++;
}

/* One load-attach-run cycle. */
static enum lavd_cycle run_cycle(struct lavd_loader *ld, int cycle)
{
	enum lavd_cycle end;

	if (lavd_load(ld) != 0)
		return LAVD_CYCLE_FAILED;
	if (lavd_attach(ld, &end) == 0) {
		lavd_print_setup(ld, cycle);
		lavd_game_start(&ld->game);
		end = lavd_run(ld);
	}
	lavd_unload(ld);
	return end;
}

/* --auto: the kernel check, quietly (--check prints it) */
static bool kernel_loadable(void)
{
	FILE *null = fopen("/dev/null", "w");
	bool ok;

	if (!null)
		return true;	/* let the load say what is wrong */
	ok = lavd_kernel_check(null, NULL);
	fclose(null);
	return ok;
}

/* --check: everything was read and is valid; say what */
static int check_report(const struct lavd_gp_set *set, const char *btf)
{
	for (int i = 0; i < set->n; i++)
		printf("profile %s: %s (%d match rule%s)\n", set->p[i].name,
		       set->p[i].file, set->p[i].nrules,
		       set->p[i].nrules == 1 ? "" : "s");
	printf("lavd --check: valid (the options and %d game profile%s)\n",
	       set->n, set->n == 1 ? "" : "s");
	/* the kernel: reported, not judged (profiles are checked for other
	 * machines too) */
	lavd_kernel_check(stdout, btf);
	return EXIT_OK;
}

/* --eevdf: the model on tracepoints, steering the kernel's scheduler */
static int run_eevdf(const struct lavd_opts *opts)
{
	struct lavd_eevdf_cfg cfg;

	lavd_opts_eevdf(opts, &cfg);
	if (opts->check)
		return lavd_eevdf_check(&cfg);
	if (opts->restore)
		return lavd_eevdf_restore(&cfg);
	return lavd_eevdf_main(&cfg, &stop_sig);
}

int main(int argc, char **argv)
{
	static struct lavd_loader ld;	/* large: not on the stack */
	static struct lavd_gp_set profiles, spare;	/* likewise */
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction sh = { .sa_handler = on_hup };
	struct lavd_opts opts;
	enum lavd_cycle end;
	int cycle = 0;

	gs_set_prog(argv[0]);
	lavd_auto_loadable = kernel_loadable;
	lavd_opts_parse(&opts, argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sh, NULL);
	lavd_bpflog_init(opts.verbose);

	if (opts.count_bpf)
		return lavd_count_bpf_objects();
	if (opts.monitor_s > 0)
		return lavd_monitor(&opts, &stop_sig);

	if (opts.auto_mode && !opts.check)
		printf("lavd --auto: %s\n", !opts.eevdf ?
		       "this kernel has sched_ext: loading the scheduler" :
		       opts.auto_unloadable ?
		       "this kernel has sched_ext, but lavd cannot load on it "
		       "(lavd --check says why): lavd's model steers the kernel's "
		       "own scheduler (--eevdf)" :
		       "this kernel has no sched_ext: lavd's model steers the "
		       "kernel's own scheduler (--eevdf)");
	if (opts.eevdf)
		return run_eevdf(&opts);
	lavd_opts_check_load(&opts);	/* bad input exits 2 before loading */
	lavd_opts_load_profiles(&opts, &profiles);	/* ... and bad profiles */
	if (opts.check)
		return check_report(&profiles, opts.btf);
	lavd_need_sched_ext();
	lavd_need_privileges();
	lavd_loader_init(&ld, &opts, &stop_sig);
	lavd_game_init(&ld.game, &opts, &profiles, &spare, &hup_count);
	do {
		end = run_cycle(&ld, cycle++);
		if (end == LAVD_CYCLE_RESTART)
			nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
	} while (end == LAVD_CYCLE_RESTART && !stop_sig);
	lavd_bpflog_free();
	return end == LAVD_CYCLE_FAILED ? EXIT_RUNTIME : EXIT_OK;
}
