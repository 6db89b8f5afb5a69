// SPDX-License-Identifier: GPL-2.0-only
/* The frametrace trace file (tracefile.h): its reader, which salvages what
 * a damaged or cut file still holds (the writers: tracefile_write.c). */
#include "tracefile.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "finish.h"
#include "util.h"

/* ---- reading --------------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static const char *chunk_name(uint32_t type)
{
	switch (type) {
	case FT_CHUNK_META: return "META";
	case FT_CHUNK_EVENTS: return "EVENTS";
	case FT_CHUNK_TASKS: return "TASKS";
	case FT_CHUNK_FRAMES: return "FRAMES";
	case FT_CHUNK_STRINGS: return "STRINGS";
	case FT_CHUNK_END: return "END";
	default: return "unknown";
	}
}

static void warn_once(struct ft_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_once(struct ft_trace *t, const char *fmt, ...)
{
	va_list ap;

	t->partial = true;
	t->problems++;
	if (t->warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->warning, sizeof(t->warning), fmt, ap);
	va_end(ap);
}

static bool event_ok(const struct ft_ev *e)
{
	return e->type > FT_EV_NONE && e->type < FT_EV_NTYPES &&
	       e->cpu < FT_CPU_LIMIT;
}

static int read_events(struct ft_trace *t, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ft_ev e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		if (!event_ok(&e)) {
			t->skipped++;
			continue;
		}
		if (ft_trace_push(t, &e))
			return -1;
	}
	return 0;
}

/* The header's fields as META repeats them (hdr_*), when it does. */
struct hdr_copy {
	bool have;
	uint64_t ncpus, start_ns, end_ns;
};

static void read_meta(struct ft_trace *t, const char *p, size_t len,
		      struct hdr_copy *hc)
{
	char line[1200];
	size_t i = 0;

	while (i < len) {
		size_t j = i, l;
		char *eq;

		while (j < len && p[j] != '\n')
			j++;
		l = j - i < sizeof(line) - 1 ? j - i : sizeof(line) - 1;
		memcpy(line, p + i, l);
		line[l] = '\0';
		/* stop at embedded NULs */
		line[strlen(line)] = '\0';
		eq = strchr(line, '=');
		if (eq && eq != line) {
			*eq = '\0';
			if (!strcmp(line, "hdr_ncpus")) {
				hc->ncpus = strtoull(eq + 1, NULL, 10);
				hc->have = true;
			} else if (!strcmp(line, "hdr_start_ns")) {
				hc->start_ns = strtoull(eq + 1, NULL, 10);
			} else if (!strcmp(line, "hdr_end_ns")) {
				hc->end_ns = strtoull(eq + 1, NULL, 10);
			} else {
				ft_meta_set(t, line, "%s", eq + 1);
				if (!strcmp(line, "lost_events"))
					t->lost_events = strtoull(eq + 1, NULL, 10);
			}
		}
		i = j + 1;
	}
}

/* The file header into t; 0, or -1 with "name: offset N: what" in err.
 * *hsize: where the chunks start; *crc_bad: its CRC did not match (the
 * fields are named once META has been read). */
static int read_header(const uint8_t *b, size_t len, const char *name,
		       struct ft_trace *t, uint32_t *hsize, bool *crc_bad,
		       char *err, size_t errlen)
{
	uint32_t version, esize;
	uint64_t flags;

	*crc_bad = false;
	if (len < FT_HEADER_SIZE) {
		snprintf(err, errlen,
			 "%s: offset 0: file too short for a frametrace header "
			 "(%zu of %d bytes)",
			 name, len, FT_HEADER_SIZE);
		return -1;
	}
	if (memcmp(b, FT_MAGIC, 8)) {
		snprintf(err, errlen,
			 "%s: offset 0: not a frametrace trace file (bad magic; "
			 "use 'frametrace import' for perf, ftrace or MangoHud "
			 "text)",
			 name);
		return -1;
	}
	version = get32(b + 8);
	*hsize = get32(b + 12);
	esize = get32(b + 16);
	flags = get64(b + 40);
	if (version != FT_VERSION) {
		snprintf(err, errlen,
			 "%s: offset 8: unsupported trace file version %u "
			 "(this frametrace reads version %d)",
			 name, version, FT_VERSION);
		return -1;
	}
	if (*hsize < FT_HEADER_SIZE || *hsize > len) {
		snprintf(err, errlen, "%s: offset 12: bad header_size %u "
			 "(expected %d)", name, *hsize, FT_HEADER_SIZE);
		return -1;
	}
	if (esize != sizeof(struct ft_ev)) {
		snprintf(err, errlen,
			 "%s: offset 16: bad event_size %u (expected %zu)",
			 name, esize, sizeof(struct ft_ev));
		return -1;
	}
	if (flags & ~FT_HDR_CRC) {
		snprintf(err, errlen,
			 "%s: offset 40: unknown header flags 0x%" PRIx64
			 " (a damaged header, or a newer writer)",
			 name, flags);
		return -1;
	}
	t->ncpus = get32(b + 20);
	t->start_ns = get64(b + 24);
	t->end_ns = get64(b + 32);
	if (t->ncpus > FT_CPU_LIMIT) {
		snprintf(err, errlen, "%s: offset 20: ncpus %u out of range "
			 "(at most %d)", name, t->ncpus, FT_CPU_LIMIT);
		return -1;
	}
	if (t->end_ns && t->end_ns < t->start_ns) {
		snprintf(err, errlen, "%s: offset 32: end_ns %" PRIu64
			 " before start_ns %" PRIu64, name, t->end_ns,
			 t->start_ns);
		return -1;
	}
	if ((flags & FT_HDR_CRC) && ft_crc32(b, 48) != get32(b + 48))
		*crc_bad = true;
	return 0;
}

/* A header whose CRC failed: the field that differs from META's copy, or
 * the checksum itself. Always -1. */
static int header_damaged(const char *name, const struct ft_trace *t,
			  const struct hdr_copy *hc, char *err, size_t errlen)
{
	if (hc->have && hc->ncpus != t->ncpus)
		snprintf(err, errlen, "%s: offset 20: header field ncpus is "
			 "damaged (%u; the META chunk says %" PRIu64 ")",
			 name, t->ncpus, hc->ncpus);
	else if (hc->have && hc->start_ns != t->start_ns)
		snprintf(err, errlen, "%s: offset 24: header field start_ns is "
			 "damaged (%" PRIu64 "; the META chunk says %" PRIu64 ")",
			 name, t->start_ns, hc->start_ns);
	else if (hc->have && hc->end_ns != t->end_ns && t->end_ns)
		snprintf(err, errlen, "%s: offset 32: header field end_ns is "
			 "damaged (%" PRIu64 "; the META chunk says %" PRIu64 ")",
			 name, t->end_ns, hc->end_ns);
	else
		snprintf(err, errlen, "%s: offset 48: header_crc does not match "
			 "the header (bytes 0-47 damaged)", name);
	return -1;
}

static int read_tasks(struct ft_trace *t, const uint8_t *p, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		struct ft_task_rec r;
		struct ft_task_rec *m;

		memcpy(&r, p + i * sizeof(r), sizeof(r));
		r.comm[FT_COMM_LEN - 1] = '\0';
		if (ft_task_set(t, r.tid, r.pid, r.comm))
			return -1;
		m = ft_task_get_mut(t, r.tid);
		if (m)
			m->flags = r.flags;
	}
	return 0;
}

static int read_frames(struct ft_trace *t, const uint8_t *p, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		struct ft_frame fr;

		memcpy(&fr, p + i * sizeof(fr), sizeof(fr));
		if (ft_frame_push(t, &fr))
			return -1;
	}
	return 0;
}

/* The strings up to the first unterminated one; how many were read is
 * *got (the count may promise more). */
static int read_strings(struct ft_trace *t, const uint8_t *p, uint64_t clen,
			uint32_t count, uint32_t *got)
{
	size_t i = 0;

	*got = 0;
	while (i < clen && *got < count) {
		const char *s = (const char *)p + i;
		size_t l = strnlen(s, (size_t)clen - i);

		if (i + l >= clen)
			break; /* unterminated */
		if (ft_str_add(t, s) < 0)
			return -1;
		(*got)++;
		i += l + 1;
	}
	return 0;
}

/* A chunk of count fixed-size records is count * size bytes long; when
 * not, a warning naming the chunk, which is then skipped. */
static bool records_fit(struct ft_trace *t, const char *name, size_t off,
			uint32_t type, uint64_t clen, uint32_t count, size_t size,
			const char *records)
{
	if (clen == (uint64_t)count * size)
		return true;
	warn_once(t, "%s: offset %zu: %s chunk length %" PRIu64
		  " does not match %u %s", name, off, chunk_name(type), clen,
		  count, records);
	if (size == sizeof(struct ft_ev))
		t->corrupt_events += clen / size;
	return false;
}

/* One chunk whose checksum matched, at offset off. Problems with it are
 * warnings; -1 only when memory runs out. */
static int read_chunk(struct ft_trace *t, const char *name, size_t off,
		      uint32_t type, uint32_t count, const uint8_t *p,
		      uint64_t clen, bool *end_seen, struct hdr_copy *hc)
{
	uint32_t got;

	switch (type) {
	case FT_CHUNK_META:
		read_meta(t, (const char *)p, (size_t)clen, hc);
		return 0;
	case FT_CHUNK_EVENTS:
		return records_fit(t, name, off, type, clen, count,
				   sizeof(struct ft_ev), "events") ?
		       read_events(t, p, count) : 0;
	case FT_CHUNK_TASKS:
		return records_fit(t, name, off, type, clen, count,
				   sizeof(struct ft_task_rec), "tasks") ?
		       read_tasks(t, p, count) : 0;
	case FT_CHUNK_FRAMES:
		return records_fit(t, name, off, type, clen, count,
				   sizeof(struct ft_frame), "frames") ?
		       read_frames(t, p, count) : 0;
	case FT_CHUNK_STRINGS:
		if (read_strings(t, p, clen, count, &got))
			return -1;
		if (got != count)
			warn_once(t,
				  "%s: offset %zu: STRINGS chunk holds %u "
				  "of %u strings",
				  name, off, got, count);
		return 0;
	case FT_CHUNK_END:
		*end_seen = true;
		return 0;
	default:
		return 0; /* unknown chunk: skipped (forward compatible) */
	}
}

/* A chunk whose checksum failed: its records are lost. A STRINGS chunk
 * keeps its place with empty strings, so that the strings after it keep
 * their numbers (events index the strings of all chunks in file order);
 * its count is believed when the length could hold that many. */
static int lost_chunk(struct ft_trace *t, uint32_t type, uint32_t count,
		      uint64_t clen)
{
	if (type == FT_CHUNK_EVENTS)
		t->corrupt_events += clen == (uint64_t)count * sizeof(struct ft_ev)
					     ? count
					     : clen / sizeof(struct ft_ev);
	if (type == FT_CHUNK_STRINGS && count <= clen)
		for (uint32_t i = 0; i < count; i++)
			if (ft_str_add(t, "") < 0)
				return -1;
	return 0;
}

/* After a chunk header whose length runs past the end (a damaged length,
 * or a file cut short): the next offset, 8-aligned, where a whole chunk
 * of a known type with a matching checksum starts; len when none. */
static size_t resync(const uint8_t *b, size_t len, size_t off)
{
	for (size_t o = off + 8; o + FT_CHUNK_HDR <= len; o += 8) {
		uint32_t type = get32(b + o);
		uint64_t clen = get64(b + o + 8);

		if (type < FT_CHUNK_META || type > FT_CHUNK_END ||
		    clen > len - o - FT_CHUNK_HDR)
			continue;
		if (ft_crc32(b + o + FT_CHUNK_HDR, (size_t)clen) == get32(b + o + 16))
			return o;
	}
	return len;
}

/* The warning names the first problem; with more, it says what they cost
 * together: a file damaged in 111 chunks lost 113 664 events, not the
 * first chunk's 1024. */
/* A chunk whose length runs past the end of the file: a damaged length
 * when a whole chunk follows (*off moves to it: 1), else the file was cut
 * short and the chunk's whole events are salvaged (0); -1: out of memory. */
static int chunk_overrun(struct ft_trace *t, const char *name,
			 const uint8_t *b, size_t len, size_t *off,
			 uint32_t type, uint64_t clen)
{
	size_t avail = len - *off - FT_CHUNK_HDR;
	size_t next = resync(b, len, *off);
	const uint8_t *p = b + *off + FT_CHUNK_HDR;

	if (next < len) {
		/* a damaged length: what lies between is lost */
		warn_once(t,
			  "%s: offset %zu: %s chunk of %" PRIu64
			  " bytes runs past the end of the file; "
			  "%zu bytes skipped to the next whole "
			  "chunk",
			  name, *off, chunk_name(type), clen,
			  next - *off);
		t->corrupt_bytes += next - *off;
		if (type == FT_CHUNK_EVENTS)
			t->corrupt_events += (next - *off - FT_CHUNK_HDR) /
					     sizeof(struct ft_ev);
		*off = next;
		return 1;
	}
	warn_once(t,
		  "%s: offset %zu: %s chunk of %" PRIu64
		  " bytes runs past the end of the file (%zu "
		  "left): file cut short",
		  name, *off, chunk_name(type), clen, avail);
	/* salvage the whole events that are there */
	if (type == FT_CHUNK_EVENTS &&
	    read_events(t, p, avail / sizeof(struct ft_ev)))
		return -1;
	return 0;
}

static void all_problems(struct ft_trace *t)
{
	size_t o = strlen(t->warning);

	if (t->problems < 2)
		return;
	snprintf(t->warning + o, sizeof(t->warning) - o,
		 "; %u problems in all: %" PRIu64 " events lost to damage, %"
		 PRIu64 " bytes unreadable", t->problems, t->corrupt_events,
		 t->corrupt_bytes);
}

int ft_trace_read_mem(const void *buf, size_t len, const char *name,
		      struct ft_trace *t, char *err, size_t errlen)
{
	const uint8_t *b = buf;
	struct hdr_copy hc = { 0 };
	uint32_t hsize;
	size_t off;
	bool end_seen = false, crc_bad;

	ft_trace_init(t);
	if (read_header(b, len, name, t, &hsize, &crc_bad, err, errlen))
		return -1;
	for (off = hsize; off < len;) {
		uint32_t type, count, crc;
		uint64_t clen, padded;
		const uint8_t *p;

		if (len - off < FT_CHUNK_HDR) {
			warn_once(t,
				  "%s: offset %zu: truncated chunk header (%zu of "
				  "%d bytes): file cut short",
				  name, off, len - off, FT_CHUNK_HDR);
			break;
		}
		type = get32(b + off);
		count = get32(b + off + 4);
		clen = get64(b + off + 8);
		crc = get32(b + off + 16);
		p = b + off + FT_CHUNK_HDR;
		if (clen > len - off - FT_CHUNK_HDR) {
			int rc = chunk_overrun(t, name, b, len, &off, type, clen);

			if (rc < 0)
				goto nomem;
			if (rc)
				continue;
			break;
		}
		padded = (clen + 7) & ~7ULL;
		if (ft_crc32(p, (size_t)clen) != crc) {
			warn_once(t,
				  "%s: offset %zu: %s chunk checksum mismatch: "
				  "corrupted, %u records skipped",
				  name, off, chunk_name(type), count);
			t->corrupt_bytes += FT_CHUNK_HDR + clen;
			if (lost_chunk(t, type, count, clen))
				goto nomem;
		} else if (read_chunk(t, name, off, type, count, p, clen,
				      &end_seen, &hc)) {
			goto nomem;
		}
		/* a last chunk may lack its padding */
		off += FT_CHUNK_HDR + (size_t)(padded <= len - off - FT_CHUNK_HDR
						       ? padded
						       : clen);
	}
	if (crc_bad) {
		header_damaged(name, t, &hc, err, errlen);
		ft_trace_free(t);
		return -1;
	}
	if (!end_seen)
		warn_once(t,
			  "%s: no END chunk: the recorder did not finish (file "
			  "cut short?); using what was written",
			  name);
	all_problems(t);
	if (!t->nev && !t->nframes) {
		snprintf(err, errlen, "%s: nothing usable: no event and no frame "
			 "could be read%s%s", name, t->warning[0] ? " (" : "",
			 t->warning[0] ? t->warning : "");
		if (t->warning[0] && strlen(err) + 2 < errlen)
			strcat(err, ")");
		ft_trace_free(t);
		return -1;
	}
	for (size_t i = 0; i < t->nev; i++)
		if ((t->ev[i].type == FT_EV_MARK ||
		     t->ev[i].type == FT_EV_PRESENT) && t->ev[i].arg2 >= t->nstr)
			t->ev[i].arg2 = UINT32_MAX; /* string lost */
	if (ft_trace_finish(t))
		goto nomem;
	return t->partial ? 1 : 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", name);
	ft_trace_free(t);
	return -1;
}

int ft_trace_read(const char *path, struct ft_trace *t, char *err,
		  size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	ft_trace_init(t);
	if (gs_read_file(path, 0, &buf, &len, err, errlen))
		return -1;
	rc = ft_trace_read_mem(buf, len, path, t, err, errlen);
	free(buf);
	return rc;
}
