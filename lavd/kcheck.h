/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --check's question about this kernel, answered without loading
 * anything: could lavd load here? sched_ext, the kernel's BTF, the
 * sched_ext ops type and the kfuncs the program calls (one name of each
 * that changed between kernels: lib/scx_compat.bpf.h), read from BTF.
 */
#ifndef LAVD_KCHECK_H
#define LAVD_KCHECK_H

#include <stdbool.h>
#include <stdio.h>

/* One line per fact on out; true when nothing is missing. */
bool lavd_kernel_check(FILE *out);

#endif
