/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What lavd's BPF programs cost, as the kernel counts it: instructions
 * verified at load (-v) and how many BPF objects the kernel holds
 * (--debug-bpf-objects). The run time per call is lib/bpfcost.c's.
 */
#ifndef LAVD_COST_H
#define LAVD_COST_H

struct lavd;

/*
 * -v: how long the load took (mostly the verifier) and the instructions
 * it verified per program, the figures to watch when a change makes
 * loading slow.
 */
void lavd_print_load_cost(struct lavd *skel, double secs);

/* --debug-bpf-objects: programs, maps and links the kernel holds. */
int lavd_count_bpf_objects(void);

#endif
