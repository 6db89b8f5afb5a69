// SPDX-License-Identifier: GPL-2.0-only
/* Why the kernel ended a sched_ext scheduler, in words (exit_info.h). */
#include "exit_info.h"

const char *gs_exit_kind_str(int kind)
{
	switch (kind) {
	case 0: return "still running";
	case 1: return "done";
	case 64: return "unregistered from user space";
	case 65: return "unregistered from BPF";
	case 66: return "unregistered by the kernel";
	case 67: return "disabled by sysrq-S";
	case 68: return "parent scheduler exited";
	case 69: return "killed by the parent scheduler";
	case 1024: return "runtime error";
	case 1025: return "scx_bpf_error() from BPF";
	case 1026: return "runnable task stall (watchdog)";
	case 1027: return "re-enqueue error";
	case 1028: return "rescue error";
	default: return kind >= 1024 ? "error" : "exit";
	}
}
