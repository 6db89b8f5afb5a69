/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Why the kernel ended a sched_ext scheduler: what ops.exit() records for
 * the loader (lib/exit_info.bpf.h writes it; lavd and vm/scx_minimal read
 * it), with the kernel's ABI values the loaders need without vmlinux.h.
 * The BPF programs and the loaders both include this file.
 */
#ifndef GS_EXIT_INFO_H
#define GS_EXIT_INFO_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* The kernel's sizes (kernel/sched/ext.c) */
#define GS_EXIT_REASON_LEN	128
#define GS_EXIT_MSG_LEN		1024
#define GS_EXIT_DUMP_LEN	8192

struct gs_exit_info {
	__s32 kind;		/* enum scx_exit_kind; 0 while running,
				 * written last */
	__s32 exit_cpu;		/* CPU that triggered it, -1 if unknown */
	__s64 exit_code;	/* SCX_ECODE_* (restart requests) */
	char reason[GS_EXIT_REASON_LEN];
	char msg[GS_EXIT_MSG_LEN];
};

/* enum scx_exit_kind and SCX_ECODE_* values the loaders test */
#define GS_SCX_EXIT_NONE		0
#define GS_SCX_EXIT_UNREG		64	/* unregistered from user space */
#define GS_SCX_EXIT_ERROR		1024	/* kinds >= this are errors */
#define GS_SCX_EXIT_ERROR_STALL		1026	/* watchdog: runnable task stall */
#define GS_SCX_ECODE_ACT_RESTART	(1ULL << 48)

#ifndef __bpf__
/* The kind, read with acquire order: once it is not 0, the rest of the
 * record is complete (ops.exit() writes it last, with a full barrier). */
static inline int gs_exit_info_kind(const struct gs_exit_info *u)
{
	return __atomic_load_n(&u->kind, __ATOMIC_ACQUIRE);
}

/* What an exit kind means, in words ("runnable task stall (watchdog)"). */
const char *gs_exit_kind_str(int kind);
#endif

#endif
