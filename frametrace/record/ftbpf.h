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
#include <sys/types.h>

#include <bpf/libbpf.h>

#include "trace/frametrace.h"

struct ft_bpf_opts {
	int mode;		/* FT_MODE_STREAM or FT_MODE_FLIGHT */
	uint32_t ring_mb;	/* stream ring buffer size */
	uint32_t flight_shift;	/* flight: log2(slots per CPU) */
	bool with_wakeup;	/* also sched_wakeup */
	bool no_futex;
	bool no_markers;
	bool force_syscalls;	/* skip the fexit attempt */
	bool markers_later;	/* trace_marker writes: the program on every
				 * system call attaches only at
				 * ft_bpf_attach_markers() */
	bool futex_calls;	/* every futex call (fexit, else sys_enter),
				 * not only the sleeps and wake-ups the
				 * scheduler events show */
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
	char futex_src[32];		/* "sched", "fexit", "syscalls", "off" */
	char tracefs[256];		/* "" when unavailable */
	bool markers;			/* trace_marker writes can be recorded */
	bool markers_attached;		/* ... and are */
	struct bpf_program *marker_prog; /* to attach later, or NULL */
	uint64_t marker_st_dev, marker_st_ino;	/* trace_marker's stat() */
	uint64_t marker_next_scan;
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

/* Attaches the trace_marker program held back by markers_later: 0, or -1
 * with errno. */
int ft_bpf_attach_markers(struct ft_bpf *b);
/* Every 500 ms (now_ns, CLOCK_MONOTONIC): when a process of root's tree
 * has trace_marker open, attaches the program. true when it did. */
bool ft_bpf_markers_poll(struct ft_bpf *b, pid_t root, uint64_t now_ns);

/* The uprobe program for present calls (present_attach.h attaches it). */
struct bpf_program *ft_bpf_present_prog(const struct ft_bpf *b);

/* Silences libbpf's own messages below warnings unless verbose. */
void ft_bpf_log_level(int verbose);

#endif
