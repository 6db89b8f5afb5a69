/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lavd --check's question about this kernel, answered without loading
 * anything: could lavd load here? sched_ext, the kernel's BTF, the
 * sched_ext ops type, and every kfunc lavd's program calls resolved
 * against the kernel's BTF as libbpf resolves it (the name, and as many
 * arguments as lavd passes; one name of each that changed between
 * kernels: lib/scx_compat.bpf.h).
 */
#ifndef LAVD_KCHECK_H
#define LAVD_KCHECK_H

#include <stdbool.h>
#include <stdio.h>

/*
 * One line per fact on out; true when nothing is missing. btf_path: judge
 * the kernel whose BTF (a vmlinux, or a raw BTF file) this is, instead of
 * the running one (--check --btf FILE).
 */
bool lavd_kernel_check(FILE *out, const char *btf_path);

struct btf;
/* The BTF of lavd's own object as compiled (tests build kernels from it);
 * NULL when it cannot be read. The caller frees it (btf__free). */
struct btf *lavd_program_btf(void);

#endif
