/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ops.exit()'s record of why the kernel ended the scheduler (exit_info.h),
 * written the same way by lavd and vm/scx_minimal: strings first, the
 * kind last with a full barrier, so a loader that sees a kind sees the
 * rest. The kernel's tools/sched_ext (user_exit_info.h) has the pattern.
 *
 * Needs: vmlinux.h and the libbpf BPF headers, included before this file.
 */
#ifndef GS_EXIT_INFO_BPF_H
#define GS_EXIT_INFO_BPF_H

#include "exit_info.h"

/* The record, in .data: the loader reads it through the skeleton. */
#define GS_EXIT_INFO(name) struct gs_exit_info name SEC(".data")

/* Records ei into uei, and the kernel's debug dump into dump (dumplen
 * bytes; dump NULL: none kept). The kind only if none was recorded yet. */
static __always_inline void gs_exit_info_record(struct gs_exit_info *uei,
						char *dump, __u32 dumplen,
						struct scx_exit_info *ei)
{
	bpf_probe_read_kernel_str(uei->reason, sizeof(uei->reason), ei->reason);
	bpf_probe_read_kernel_str(uei->msg, sizeof(uei->msg), ei->msg);
	if (dump)
		bpf_probe_read_kernel_str(dump, dumplen, ei->dump);
	uei->exit_code = ei->exit_code;
	uei->exit_cpu = -1;
	/* exit_cpu is newer than sched_ext itself */
	if (bpf_core_field_exists(ei->exit_cpu))
		uei->exit_cpu = ei->exit_cpu;
	__sync_val_compare_and_swap(&uei->kind, 0, ei->kind);
}

#endif
