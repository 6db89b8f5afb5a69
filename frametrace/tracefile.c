// SPDX-License-Identifier: GPL-2.0-only
/* The frametrace trace file (tracefile.h): its writers and its reader. */
#include "tracefile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "finish.h"
#include "util.h"

/* ---- CRC-32 (IEEE) -------------------------------------------------- */

uint32_t ft_crc32(const void *buf, size_t len)
{
	static uint32_t table[256];
	static int ready;
	const uint8_t *p = buf;
	uint32_t c = 0xffffffffu;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t x = i;

			for (int k = 0; k < 8; k++)
				x = (x & 1) ? 0xedb88320u ^ (x >> 1) : x >> 1;
			table[i] = x;
		}
		ready = 1;
	}
	while (len--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}


/* ---- writing --------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static int write_chunk(FILE *f, uint32_t type, uint32_t count,
		       const void *payload, uint64_t len, uint64_t *bytes)
{
	uint8_t h[FT_CHUNK_HDR] = { 0 };
	static const uint8_t zero[8];
	size_t pad = (size_t)((8 - (len & 7)) & 7);

	put32(h, type);
	put32(h + 4, count);
	put64(h + 8, len);
	put32(h + 16, len ? ft_crc32(payload, (size_t)len) : 0);
	if (fwrite(h, sizeof(h), 1, f) != 1)
		return -1;
	if (len && fwrite(payload, (size_t)len, 1, f) != 1)
		return -1;
	if (pad && fwrite(zero, pad, 1, f) != 1)
		return -1;
	if (bytes)
		*bytes += sizeof(h) + len + pad;
	return 0;
}

static int write_header(FILE *f, uint32_t ncpus, uint64_t start,
			uint64_t end)
{
	uint8_t h[FT_HEADER_SIZE] = { 0 };

	memcpy(h, FT_MAGIC, 8);
	put32(h + 8, FT_VERSION);
	put32(h + 12, FT_HEADER_SIZE);
	put32(h + 16, sizeof(struct ft_ev));
	put32(h + 20, ncpus);
	put64(h + 24, start);
	put64(h + 32, end);
	return fwrite(h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

static int write_meta(FILE *f, const struct ft_trace *t, uint64_t *bytes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	for (size_t i = 0; i < t->nmeta; i++)
		if (strcmp(t->meta[i].key, "lost_events"))
			fprintf(m, "%s=%s\n", t->meta[i].key, t->meta[i].val);
	fprintf(m, "lost_events=%" PRIu64 "\n", t->lost_events);
	fclose(m);
	rc = write_chunk(f, FT_CHUNK_META, (uint32_t)t->nmeta, buf, len,
			 bytes);
	free(buf);
	return rc;
}

static int write_strings(FILE *f, char *const *s, size_t n, uint64_t *bytes)
{
	size_t len = 0, off = 0;
	char *buf;
	int rc;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	buf = malloc(len);
	if (!buf)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(s[i]) + 1;

		memcpy(buf + off, s[i], l);
		off += l;
	}
	rc = write_chunk(f, FT_CHUNK_STRINGS, (uint32_t)n, buf, len, bytes);
	free(buf);
	return rc;
}

#define EVENTS_PER_CHUNK (1u << 20)

static int write_events(FILE *f, const struct ft_ev *ev, size_t n,
			uint64_t *bytes)
{
	for (size_t i = 0; i < n; i += EVENTS_PER_CHUNK) {
		size_t k = n - i < EVENTS_PER_CHUNK ? n - i : EVENTS_PER_CHUNK;

		if (write_chunk(f, FT_CHUNK_EVENTS, (uint32_t)k, ev + i,
				k * sizeof(*ev), bytes))
			return -1;
	}
	return 0;
}

static int write_tail(FILE *f, const struct ft_trace *t, uint64_t *bytes)
{
	if (write_meta(f, t, bytes))
		return -1;
	if (t->ntasks && write_chunk(f, FT_CHUNK_TASKS, (uint32_t)t->ntasks,
				     t->tasks, t->ntasks * sizeof(*t->tasks),
				     bytes))
		return -1;
	if (t->nframes &&
	    write_chunk(f, FT_CHUNK_FRAMES, (uint32_t)t->nframes, t->frames,
			t->nframes * sizeof(*t->frames), bytes))
		return -1;
	return write_chunk(f, FT_CHUNK_END, 0, NULL, 0, bytes);
}

int ft_trace_write(const struct ft_trace *t, const char *path, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "wb");
	uint64_t bytes = FT_HEADER_SIZE;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_header(f, t->ncpus, t->start_ns, t->end_ns) ||
	    write_strings(f, t->str, t->nstr, &bytes) ||
	    write_events(f, t->ev, t->nev, &bytes) || write_tail(f, t, &bytes)) {
		snprintf(err, errlen, "%s: write failed: %s", path,
			 strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int ft_writer_open(struct ft_writer *w, const char *path, uint32_t ncpus,
		   uint64_t start_ns, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->f = fopen(path, "wb");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_header(w->f, ncpus, start_ns, 0)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(w->f);
		w->f = NULL;
		return -1;
	}
	w->bytes = FT_HEADER_SIZE;
	return 0;
}

int ft_writer_events(struct ft_writer *w, const struct ft_ev *ev, size_t n)
{
	if (!n)
		return 0;
	if (write_events(w->f, ev, n, &w->bytes)) {
		w->error = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ft_writer_strings(struct ft_writer *w, char *const *s, size_t n)
{
	if (write_strings(w->f, s, n, &w->bytes)) {
		w->error = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ft_writer_close(struct ft_writer *w, const struct ft_trace *t,
		    uint64_t end_ns, char *err, size_t errlen)
{
	uint8_t buf[8];
	int rc = 0;

	if (!w->f)
		return -1;
	if (w->error || write_tail(w->f, t, &w->bytes)) {
		snprintf(err, errlen, "%s: write failed: %s", w->path,
			 strerror(w->error ? w->error : errno));
		rc = -1;
	}
	put64(buf, end_ns);
	if (!rc && (fseek(w->f, 32, SEEK_SET) ||
		    fwrite(buf, 8, 1, w->f) != 1)) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	if (fclose(w->f) && !rc) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	w->f = NULL;
	return rc;
}

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

static void read_meta(struct ft_trace *t, const char *p, size_t len)
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
			ft_meta_set(t, line, "%s", eq + 1);
			if (!strcmp(line, "lost_events"))
				t->lost_events = strtoull(eq + 1, NULL, 10);
		}
		i = j + 1;
	}
}

/* The file header into t; 0, or -1 with "name: offset N: what" in err.
 * *hsize: where the chunks start. */
static int read_header(const uint8_t *b, size_t len, const char *name,
		       struct ft_trace *t, uint32_t *hsize, char *err,
		       size_t errlen)
{
	uint32_t version, esize;

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
	if (version != FT_VERSION) {
		snprintf(err, errlen,
			 "%s: offset 8: unsupported trace file version %u "
			 "(this frametrace reads version %d)",
			 name, version, FT_VERSION);
		return -1;
	}
	if (*hsize < FT_HEADER_SIZE || *hsize > len) {
		snprintf(err, errlen, "%s: offset 12: bad header size %u", name,
			 *hsize);
		return -1;
	}
	if (esize != sizeof(struct ft_ev)) {
		snprintf(err, errlen,
			 "%s: offset 16: bad event size %u (expected %zu)",
			 name, esize, sizeof(struct ft_ev));
		return -1;
	}
	t->ncpus = get32(b + 20);
	if (t->ncpus > FT_CPU_LIMIT)
		t->ncpus = 0;
	t->start_ns = get64(b + 24);
	t->end_ns = get64(b + 32);
	return 0;
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
	return false;
}

/* One chunk whose checksum matched, at offset off. Problems with it are
 * warnings; -1 only when memory runs out. */
static int read_chunk(struct ft_trace *t, const char *name, size_t off,
		      uint32_t type, uint32_t count, const uint8_t *p,
		      uint64_t clen, bool *end_seen)
{
	uint32_t got;

	switch (type) {
	case FT_CHUNK_META:
		read_meta(t, (const char *)p, (size_t)clen);
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

int ft_trace_read_mem(const void *buf, size_t len, const char *name,
		      struct ft_trace *t, char *err, size_t errlen)
{
	const uint8_t *b = buf;
	uint32_t hsize;
	size_t off;
	bool end_seen = false;

	ft_trace_init(t);
	if (read_header(b, len, name, t, &hsize, err, errlen))
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
			size_t avail = len - off - FT_CHUNK_HDR;

			warn_once(t,
				  "%s: offset %zu: %s chunk of %" PRIu64
				  " bytes runs past the end of the file (%zu "
				  "left): file cut short",
				  name, off, chunk_name(type), clen, avail);
			/* salvage the whole events that are there */
			if (type == FT_CHUNK_EVENTS &&
			    read_events(t, p, avail / sizeof(struct ft_ev)))
				goto nomem;
			break;
		}
		padded = (clen + 7) & ~7ULL;
		if (ft_crc32(p, (size_t)clen) != crc)
			warn_once(t,
				  "%s: offset %zu: %s chunk checksum mismatch: "
				  "corrupted, %u records skipped",
				  name, off, chunk_name(type), count);
		else if (read_chunk(t, name, off, type, count, p, clen,
				    &end_seen))
			goto nomem;
		/* a last chunk may lack its padding */
		off += FT_CHUNK_HDR + (size_t)(padded <= len - off - FT_CHUNK_HDR
						       ? padded
						       : clen);
	}
	if (!end_seen)
		warn_once(t,
			  "%s: no END chunk: the recorder did not finish (file "
			  "cut short?); using what was written",
			  name);
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
