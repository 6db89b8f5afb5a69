/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generated BPF skeleton (build/bpf/lavd.skel.h) for the loader's
 * files that touch the loaded program.
 */
#ifndef LAVD_SKEL_H
#define LAVD_SKEL_H

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "intf.h"

/* The skeleton spells BPF globals with the kernel's type names. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#include "bpf/lavd.skel.h"

#endif
