/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading and attaching frametrace.bpf.c for the recorder (stream mode)
 * and the flight recorder (flight mode): picks the futex source (fexit
 * where the kernel allows it, else the system-call tracepoints), finds
 * trace_marker, and reports what it attached.
 */
#ifndef FT_BPF_H
#define FT_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bpf/libbpf.h>

#include "frametrace.h"

struct ft_bpf_opts {
	int mode;		/* FT_MODE_STREAM or FT_MODE_FLIGHT */
	uint32_t ring_mb;	/* stream ring buffer size */
	uint32_t flight_shift;	/* flight: log2(slots per CPU) */
	bool with_wakeup;	/* also sched_wakeup */
	bool no_futex;
	bool no_markers;
	bool force_syscalls;	/* skip the fexit attempt */
	uint64_t wl_thresh_ns;	/* flight: wake-up latency trigger */
	const char *wl_comm;
	ring_buffer_sample_fn on_event;	/* rb (stream) */
	ring_buffer_sample_fn on_aux;	/* aux (flight) */
	void *ctx;
};

struct frametrace;

struct ft_bpf {
	struct frametrace *skel;
	struct ring_buffer *rb;		/* rb (stream) or aux (flight) */
	int ncpus;
	char futex_src[32];		/* "fexit", "syscalls", "off" */
	char tracefs[256];		/* "" when unavailable */
	bool markers;
	char notes[512];		/* what was skipped and why */
	/* flight mode */
	volatile struct ft_slot *flight;
	size_t flight_len;
	volatile struct ft_head *heads;
	size_t heads_len;
	uint32_t slots_per_cpu;
};

/* Finds (or mounts, as root) tracefs; returns 0 and the path, or -1. */
int ft_tracefs(char *path, size_t len);

int ft_bpf_open(struct ft_bpf *b, const struct ft_bpf_opts *o, char *err,
		size_t errlen);
/* Drops (stream) or aux-drops (flight) counted in the kernel so far. */
uint64_t ft_bpf_lost(const struct ft_bpf *b, bool aux);
/* Interrupt depths the programs found left over at a context switch and
 * put back to 0 (frametrace.bpf.c). */
uint64_t ft_bpf_irq_resets(const struct ft_bpf *b);
void ft_bpf_close(struct ft_bpf *b);

/* The variable-length ring records: a COMM record's name, a MARK record's
 * text, NUL-terminated into out (FT_COMM_LEN + 1 / FT_MARK_MAX + 1 bytes).
 * false when data is not such a record. */
bool ft_rec_comm(const void *data, size_t size, char *out);
bool ft_rec_mark(const void *data, size_t size, char *out);

/* The uprobe program for present calls (present_attach.h attaches it). */
struct bpf_program *ft_bpf_present_prog(const struct ft_bpf *b);

/* Silences libbpf's own messages below warnings unless verbose. */
void ft_bpf_log_level(int verbose);

#endif
