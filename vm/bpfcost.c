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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfcost.h"
#include "opttab.h"
#include "util.h"

struct opts {
	const char *who, *prefix;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct opts defaults = { .who = "bpfcost", .prefix = "lavd_" };

static const struct gs_opt specs[] = {
	{ "who", 0, "NAME", GS_OPT_STRING, FIELD(who),
	  .help = "start the line with NAME (default bpfcost)" },
	{ "prefix", 0, "P", GS_OPT_STRING, FIELD(prefix),
	  .help = "cut P from the programs' names (default lavd_)" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: bpfcost [--who NAME] [--prefix P]\n"
	"Prints every loaded BPF program's cost per call "
	"(kernel.bpf_stats_enabled=1).\n\n",
	"", &defaults, 18,
};

int main(int argc, char **argv)
{
	struct opts o = defaults;
	int i;

	gs_set_prog(argv[0]);
	i = gs_opt_parse(&table, &o, argc, argv, NULL);
	if (i < argc)
		gs_die_extra_argument(argv[i]);
	if (gs_print_loaded_bpf_cost(o.who, o.prefix) < 0) {
		if (errno == ENODATA)
			gs_die(EXIT_RUNTIME, "kernel.bpf_stats_enabled is not 1: "
					     "no cost is counted");
		gs_die(EXIT_RUNTIME, "cannot list the BPF programs: %s",
		       strerror(errno));
	}
	return EXIT_OK;
}
