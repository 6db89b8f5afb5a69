/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What cppcheck cannot learn from the sources alone (tests/lint.sh passes
 * it with --include): it reads no system headers, so libbpf's macros that
 * declare or loop are spelled out here, and C11's _Noreturn, so that code
 * after gs_die() is not taken for reachable.
 */
#define _Noreturn __attribute__((noreturn))
#define LIBBPF_OPTS(TYPE, NAME, ...) \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }
#define bpf_object__for_each_program(pos, obj) \
	for ((pos) = bpf_object__next_program((obj), NULL); (pos); \
	     (pos) = bpf_object__next_program((obj), (pos)))
