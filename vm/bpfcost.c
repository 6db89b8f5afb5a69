// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfcost: prints what every loaded BPF program that ran has cost per call
 * so far (kernel.bpf_stats_enabled=1), whoever loaded it, in the line
 * lavd and scx_minimal print on exit. The VM's ablation runs it before it
 * stops a scheduler whose loader prints no such line (the reference
 * scx_lavd), so bench/bpf-cost-icount.sh gives that scheduler a row too.
 *
 *   bpfcost [--who NAME] [--prefix P]
 * NAME starts the line (default "bpfcost"); P is cut from the programs'
 * names (default "lavd_", the prefix of both lavds' programs).
 * Exit: 0 printed (also when no program ran), 1 the statistics are off
 * or the programs cannot be listed (not root), 2 bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfcost.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfcost [--who NAME] [--prefix P]\n"
		   "Prints every loaded BPF program's cost per call "
		   "(kernel.bpf_stats_enabled=1).\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "who", required_argument, NULL, 'w' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *who = "bpfcost", *prefix = "lavd_";
	int c;

	gs_set_prog(argv[0]);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (c) {
		case 'w': who = optarg; break;
		case 'p': prefix = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: gs_die_bad_option(c, argv);
		}
	}
	if (optind < argc)
		gs_die_extra_argument(argv[optind]);
	if (gs_print_loaded_bpf_cost(who, prefix) < 0) {
		if (errno == ENODATA)
			gs_die(EXIT_RUNTIME, "kernel.bpf_stats_enabled is not 1: "
					     "no cost is counted");
		gs_die(EXIT_RUNTIME, "cannot list the BPF programs: %s",
		       strerror(errno));
	}
	return EXIT_OK;
}
