/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frametrace trace file (".ftr") that stores a trace (trace.h).
 *
 * File layout, version 1 (all integers little-endian):
 *
 *   file header, 64 bytes
 *     0  char   magic[8]      "GSFTRACE"
 *     8  u32    version       1
 *    12  u32    header_size   64 (readers skip what they do not know)
 *    16  u32    event_size    32 (sizeof(struct ft_ev), frametrace.h)
 *    20  u32    ncpus         CPUs of the traced machine (0 = unknown)
 *    24  u64    start_ns      CLOCK_MONOTONIC of the first event / start
 *    32  u64    end_ns        end of the recording
 *    40  u64    flags         FT_HDR_CRC: the CRC below is set
 *    48  u32    header_crc    CRC-32 of bytes 0..47 (with FT_HDR_CRC)
 *    52  u32    reserved
 *    56  u64    reserved
 *
 *   then chunks until the end of the file, each
 *     0  u32    type          FT_CHUNK_*
 *     4  u32    count         records in the payload
 *     8  u64    length        payload bytes
 *    16  u32    crc32         of the payload (IEEE 802.3 polynomial)
 *    20  u32    reserved
 *    24  payload, then zero padding to a multiple of 8 bytes
 *
 *   chunk types
 *     1 META     "key=value\n" text (source, kernel, host, lost_events, ...)
 *     2 EVENTS   count x struct ft_ev (frametrace.h documents the fields)
 *     3 TASKS    count x struct ft_task_rec (tid, tgid, comm)
 *     4 FRAMES   count x struct ft_frame
 *     5 STRINGS  count NUL-terminated strings; MARK events' arg2 indexes
 *                the strings of all STRINGS chunks in file order
 *     6 END      empty; written last by a writer that finished cleanly
 *   Readers skip chunk types they do not know (forward compatibility
 *   within version 1); a new version number means an incompatible layout.
 *   A recorder writes STRINGS and EVENTS chunks as it goes, so a file cut
 *   short (killed recorder, full disk) still reads up to its last whole
 *   chunk; the reader says so.
 *
 *   Damage costs one chunk: no chunk holds more than FT_CHUNK_RECORDS
 *   records (32 KiB of events; 24 bytes of chunk header each); a chunk
 *   whose checksum fails is skipped and its records counted as lost (a
 *   STRINGS chunk keeps its place, so later strings keep their numbers);
 *   past a chunk header whose length runs beyond the end, the reader
 *   looks for the next whole chunk. The header
 *   is checked against its CRC, and META repeats its ncpus, start_ns and
 *   end_ns (hdr_ncpus, ...) so that a bad field can be named. A header
 *   that fails, or a file with no event and no frame left, is an error.
 */
#ifndef FT_TRACEFILE_H
#define FT_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

#define FT_MAGIC "GSFTRACE"
#define FT_VERSION 1
#define FT_HEADER_SIZE 64
#define FT_CHUNK_HDR 24
#define FT_HDR_CRC 1ULL		/* header flag: header_crc is set */
#define FT_CHUNK_RECORDS 1024	/* records (strings) per chunk at most */

enum {
	FT_CHUNK_META = 1,
	FT_CHUNK_EVENTS = 2,
	FT_CHUNK_TASKS = 3,
	FT_CHUNK_FRAMES = 4,
	FT_CHUNK_STRINGS = 5,
	FT_CHUNK_END = 6,
};

/*
 * Reads a trace file. Returns 0, or 1 when only part of the file could be
 * read (t->partial, t->warning names the file and offset), or -1 with
 * "path: offset N: what" in err when nothing usable was found.
 */
int ft_trace_read(const char *path, struct ft_trace *t, char *err,
		  size_t errlen);
int ft_trace_read_mem(const void *buf, size_t len, const char *name,
		      struct ft_trace *t, char *err, size_t errlen);

/* Writes a whole trace. 0 or -1 with err. */
int ft_trace_write(const struct ft_trace *t, const char *path, char *err,
		   size_t errlen);

/* Streaming writer (recorder): events and strings are flushed as chunks
 * while recording; the rest at close. */
struct ft_writer {
	FILE *f;
	char path[4096];
	uint64_t bytes;
	uint32_t ncpus;
	uint64_t start_ns;
	int error;
};

int ft_writer_open(struct ft_writer *w, const char *path, uint32_t ncpus,
		   uint64_t start_ns, char *err, size_t errlen);
int ft_writer_events(struct ft_writer *w, const struct ft_ev *ev, size_t n);
int ft_writer_strings(struct ft_writer *w, char *const *s, size_t n);
/* Writes META, TASKS, FRAMES and END from t, patches the header's end_ns,
 * closes. */
int ft_writer_close(struct ft_writer *w, const struct ft_trace *t,
		    uint64_t end_ns, char *err, size_t errlen);

uint32_t ft_crc32(const void *buf, size_t len);

#endif
