/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The futex lock-holder programs (lock.bpf.h): which of them load, and
 * their links. fexit programs on the kernel's futex functions where the
 * kernel has them and allows it, else the futex system-call tracepoints.
 */
#ifndef LAVD_FUTEX_H
#define LAVD_FUTEX_H

#include <stdbool.h>

struct bpf_link;
struct bpf_program;
struct btf;
struct lavd;	/* the skeleton (skel.h) */

#define LAVD_NR_FUTEX_PROGS 13

struct lavd_futex {
	int nr;			/* entries of prog[] (0: none filled in) */
	struct lavd_futex_prog {
		struct bpf_program *prog;
		const char *target;	/* kernel function (fexit) or NULL (tracepoint) */
		struct bpf_link *link;
	} prog[LAVD_NR_FUTEX_PROGS];
};

/*
 * Before load: switches autoload on for the futex programs that can load
 * (none when off). With want_fexit: the fexit programs whose kernel
 * function exists in kbtf (__futex_wait replaces futex_wait when both
 * exist), if the central ones (a wait and futex_wake) are there;
 * otherwise the tracepoint programs whose event exists. Returns the
 * LAVD_FUTEX_* path the loaded programs give.
 */
int lavd_futex_choose(struct lavd *skel, const struct btf *kbtf,
		      bool want_fexit, bool off);

/*
 * After load: attaches the loaded futex programs, links kept in f.
 * Returns 0, or -1 after detaching what was attached.
 */
int lavd_futex_attach(struct lavd_futex *f, struct lavd *skel);

void lavd_futex_detach(struct lavd_futex *f);

/* Did the last load fail on one of the fexit programs (libbpf's log)? */
bool lavd_futex_fexit_refused(void);

#endif
