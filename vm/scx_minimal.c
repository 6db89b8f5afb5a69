// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_minimal: loads the minimal sched_ext scheduler (scx_minimal.bpf.c)
 * and keeps it attached until SIGINT or SIGTERM, or until the kernel ends
 * it. A yardstick for the VM's measurements, not a scheduler to use: the
 * ablation runs it beside lavd (vm/ablation.sh --program).
 *
 *   scx_minimal [--stats SECS] [--slice-us N] [--lavd-shape]
 * --stats prints, every SECS seconds, how many wakeups went straight to an
 * idle CPU and how many tasks were queued. --slice-us sets every run's
 * slice (default 20000, the kernel's SCX_SLICE_DFL; lavd's is 5000).
 * --lavd-shape loads the same placement with every callback lavd has, a
 * per-task storage lookup in each and a queue of its own that a dispatch
 * callback moves from (scx_minimal.bpf.c): lavd's shape without its
 * policy. On exit, the BPF programs' cost per call when
 * kernel.bpf_stats_enabled=1.
 * Exit: 0 detached on a signal, 1 it could not attach or the kernel ended
 * it (the reason is printed), 2 bad usage.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfcost.h"
#include "exit_info.h"
#include "opttab.h"
#include "util.h"

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
#include "bpf/scx_minimal.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The two per-CPU counters, summed over the CPUs. */
static void read_counts(struct scx_minimal *skel, unsigned long long sum[2])
{
	int ncpu = libbpf_num_possible_cpus();
	u64 *v = calloc(ncpu > 0 ? (size_t)ncpu : 1, sizeof(*v));

	sum[0] = sum[1] = 0;
	for (u32 k = 0; v && ncpu > 0 && k < 2; k++) {
		if (bpf_map__lookup_elem(skel->maps.counts, &k, sizeof(k), v,
					 (size_t)ncpu * sizeof(*v), 0))
			continue;
		for (int c = 0; c < ncpu; c++)
			sum[k] += v[c];
	}
	free(v);
}

struct opts {
	uint64_t stats_s, slice_us;
	bool shaped;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct opts defaults = { .slice_us = 20000 };

static const struct gs_opt specs[] = {
	{ "stats", 's', "SECS", GS_OPT_U64, FIELD(stats_s), 1, 3600,
	  .help = "every SECS seconds, print how many wakeups went\n"
		  "straight to an idle CPU and how many were queued" },
	/* the kernel's SCX_SLICE_DFL by default; lavd's is 5000 */
	{ "slice-us", 0, "N", GS_OPT_U64, FIELD(slice_us), 100, 1000000,
	  .show_default = true,
	  .help = "every run's slice, microseconds" },
	{ "lavd-shape", 0, NULL, GS_OPT_SET, FIELD(shaped),
	  .help = "every callback lavd has, without its policy" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: scx_minimal [--stats SECS] [--slice-us N] [--lavd-shape]\n"
	"Loads the minimal sched_ext scheduler until SIGINT or SIGTERM (a\n"
	"yardstick for the VM's measurements).\n\n",
	"", &defaults, 20,
};

int main(int argc, char **argv)
{
	struct opts o = defaults;
	uint64_t waited = 0;
	struct bpf_map *ops, *unused;
	struct bpf_program *prog;
	const char *prefix;
	unsigned long long n[2];
	struct scx_minimal *skel;
	struct bpf_link *link;
	int i, rc = EXIT_OK;

	gs_set_prog(argv[0]);
	i = gs_opt_parse(&table, &o, argc, argv, NULL);
	if (i < argc)
		gs_die_extra_argument(argv[i]);

	skel = scx_minimal__open();
	if (!skel)
		gs_die(EXIT_RUNTIME, "cannot open the BPF scheduler: %s", strerror(errno));
	skel->rodata->slice_ns = o.slice_us * 1000;
	/* one of the two schedulers is loaded: the other's map and programs
	 * are left out */
	prefix = o.shaped ? "shaped_" : "minimal_";
	ops = o.shaped ? skel->maps.shaped_ops : skel->maps.minimal_ops;
	unused = o.shaped ? skel->maps.minimal_ops : skel->maps.shaped_ops;
	bpf_map__set_autocreate(unused, false);
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, !strncmp(bpf_program__name(prog), prefix,
							 strlen(prefix)));
	if (scx_minimal__load(skel)) {
		int err = errno;

		scx_minimal__destroy(skel);
		gs_die(EXIT_RUNTIME, "cannot load the BPF scheduler: %s (needs root "
		       "and a kernel with sched_ext)", strerror(err));
	}
	link = bpf_map__attach_struct_ops(ops);
	if (!link) {
		int err = errno;

		scx_minimal__destroy(skel);
		gs_die(EXIT_RUNTIME, "cannot attach: %s%s", strerror(err),
		       err == EBUSY ? " (another sched_ext scheduler is loaded)" : "");
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("scx_minimal: attached%s, slice %llu us\n", o.shaped ? " (lavd's shape)" : "",
	       (unsigned long long)o.slice_us);
	fflush(stdout);
	while (!stop && !gs_exit_info_kind(&skel->data->uei)) {
		sleep(1);
		if (o.stats_s && ++waited % o.stats_s == 0) {
			read_counts(skel, n);
			printf("[%llus] idle-placed %llu queued %llu\n",
			       (unsigned long long)waited, n[0], n[1]);
			fflush(stdout);
		}
	}
	if (gs_exit_info_kind(&skel->data->uei)) {
		fprintf(stderr, "scx_minimal: the kernel ended it (kind %d): %s%s%s\n",
			skel->data->uei.kind, skel->data->uei.reason,
			skel->data->uei.msg[0] ? ": " : "", skel->data->uei.msg);
		rc = EXIT_RUNTIME;
	}
	gs_print_bpf_run_cost(skel->obj, "scx_minimal", prefix);
	bpf_link__destroy(link);
	scx_minimal__destroy(skel);
	return rc;
}
