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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfcost.h"
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", required_argument, NULL, 's' },
		{ "slice-us", required_argument, NULL, 'l' },
		{ "lavd-shape", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t stats_s = 0, waited = 0, slice_us = 20000;
	struct bpf_map *ops, *unused;
	struct bpf_program *prog;
	const char *prefix;
	bool shaped = false;
	unsigned long long n[2];
	struct scx_minimal *skel;
	struct bpf_link *link;
	int c, rc = EXIT_OK;

	gs_set_prog(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			stats_s = gs_opt_u64("--stats", optarg, 1, 3600);
			break;
		case 'l':
			slice_us = gs_opt_u64("--slice-us", optarg, 100, 1000000);
			break;
		case 'L':
			shaped = true;
			break;
		case 'h':
			printf("usage: scx_minimal [--stats SECS] [--slice-us N] [--lavd-shape]\n");
			return EXIT_OK;
		default:
			gs_die_bad_option(c, argv);
		}
	}
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);

	skel = scx_minimal__open();
	if (!skel)
		gs_die(EXIT_RUNTIME, "cannot open the BPF scheduler: %s", strerror(errno));
	skel->rodata->slice_ns = slice_us * 1000;
	/* one of the two schedulers is loaded: the other's map and programs
	 * are left out */
	prefix = shaped ? "shaped_" : "minimal_";
	ops = shaped ? skel->maps.shaped_ops : skel->maps.minimal_ops;
	unused = shaped ? skel->maps.minimal_ops : skel->maps.shaped_ops;
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
	printf("scx_minimal: attached%s, slice %llu us\n", shaped ? " (lavd's shape)" : "",
	       (unsigned long long)slice_us);
	fflush(stdout);
	while (!stop && !skel->data->uei.kind) {
		sleep(1);
		if (stats_s && ++waited % stats_s == 0) {
			read_counts(skel, n);
			printf("[%llus] idle-placed %llu queued %llu\n",
			       (unsigned long long)waited, n[0], n[1]);
			fflush(stdout);
		}
	}
	if (skel->data->uei.kind) {
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
