/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a loaded BPF object's programs cost per call, as the kernel counts
 * it (kernel.bpf_stats_enabled=1): one line, shared by the schedulers.
 */
#ifndef GS_BPFCOST_H
#define GS_BPFCOST_H

struct bpf_object;

/*
 * "WHO: BPF cost per call (kernel.bpf_stats_enabled=1): NAME Xns/CALLS ..."
 * for every program that ran, NAME without the leading PREFIX; nothing
 * when the statistics are off. The VM's ablation reads this line.
 */
void gs_print_bpf_run_cost(struct bpf_object *obj, const char *who,
			   const char *prefix);

/*
 * The same line for every BPF program loaded in the system that ran (by
 * program id, whoever loaded it: a scheduler whose loader prints no cost,
 * e.g. the reference scx_lavd). Names are the kernel's (at most 15
 * characters). Returns the number of programs printed, -1 when the
 * statistics are off or the programs cannot be listed (errno set).
 */
int gs_print_loaded_bpf_cost(const char *who, const char *prefix);

#endif
