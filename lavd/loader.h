/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One lavd instance in the kernel: the checks before loading, then per
 * cycle open (topology and options into the program's read-only data),
 * load, attach, run until a signal or the kernel's exit, and unload. The
 * kernel may ask for another cycle (CPU hotplug): main() loops.
 *
 * Topology and energy: compute domains, core types and the CPU
 * preference orders come from sysfs or a --topology override file
 * (cpdom.c); the power mode is fixed (--performance/--balanced/
 * --powersave), chosen by the BPF autopilot (default), or follows the
 * platform profile (--autopower, polled once a second, power.c).
 */
#ifndef LAVD_LOADER_H
#define LAVD_LOADER_H

#include <signal.h>
#include <stdbool.h>

#include "futex.h"
#include "gamectl.h"
#include "options.h"
#include "topo.h"

/* How a cycle ended. */
enum lavd_cycle {
	LAVD_CYCLE_STOPPED,	/* SIGINT/SIGTERM: unregistered by us */
	LAVD_CYCLE_RESTART,	/* the kernel asks for a reload (CPU hotplug) */
	LAVD_CYCLE_FAILED,	/* refused, ejected, or an error of ours */
};

struct lavd_loader {
	const struct lavd_opts *opts;
	const volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
	unsigned hz;			/* the kernel's tick rate; 0: unknown */
	char hz_src[32];		/* where hz came from; "": not read yet */
	int profile_mode;		/* last --autopower mode announced; -2: none */
	/* this cycle's */
	struct lavd *skel;
	struct bpf_link *link;		/* the attached struct_ops */
	struct lavd_futex futex;
	int futex_path;			/* LAVD_FUTEX_* in use */
	struct lavd_topo topo;
	double t_attach;		/* lavd_now_s() at attach */
	struct lavd_game game;		/* game profiles (gamectl.c) */
};

/* Exit 1 with the reason unless the kernel can take a scheduler now. */
void lavd_need_sched_ext(void);

void lavd_loader_init(struct lavd_loader *ld, const struct lavd_opts *opts,
		      const volatile sig_atomic_t *stop);

/*
 * Opens, configures and loads the program and attaches the futex
 * programs. Returns 0, or -1 with the reason printed and nothing left
 * loaded.
 */
int lavd_load(struct lavd_loader *ld);

/*
 * Registers the loaded scheduler with sched_ext. Returns 0, or -1 with
 * the reason printed and *end saying how the cycle ends.
 */
int lavd_attach(struct lavd_loader *ld, enum lavd_cycle *end);

/* The attach message: topology, settings, energy setup. */
void lavd_print_setup(const struct lavd_loader *ld, int cycle);

/* Runs until a signal or the kernel's exit, printing what was asked for. */
enum lavd_cycle lavd_run(struct lavd_loader *ld);

/* Detaches and frees what this cycle loaded (any part of it). */
void lavd_unload(struct lavd_loader *ld);

#endif
