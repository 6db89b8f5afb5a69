// SPDX-License-Identifier: GPL-2.0-only
/* The frametrace trace file (tracefile.h): its checksum and its writers
 * (the reader: tracefile_read.c). */
#include "tracefile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- CRC-32 (IEEE) -------------------------------------------------- */

/* Slicing by 8: a recorder checksums every chunk it writes, some 30 MB a
 * second on a busy machine, so the byte-at-a-time loop was a tenth of its
 * CPU time. Same CRC (IEEE 802.3, reflected, as zlib's crc32). */
uint32_t ft_crc32(const void *buf, size_t len)
{
	static uint32_t table[8][256];
	static int ready;
	const uint8_t *p = buf;
	uint32_t c = 0xffffffffu;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t x = i;

			for (int k = 0; k < 8; k++)
				x = (x & 1) ? 0xedb88320u ^ (x >> 1) : x >> 1;
			table[0][i] = x;
		}
		for (uint32_t i = 0; i < 256; i++)
			for (int t = 1; t < 8; t++)
				table[t][i] = (table[t - 1][i] >> 8) ^
					      table[0][table[t - 1][i] & 0xff];
		ready = 1;
	}
	while (len >= 8) {
		uint32_t lo, hi;

		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
		lo ^= c; /* little-endian words: the first byte is the lowest */
		c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		    table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		    table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		    table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
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

static void header_bytes(uint8_t *h, uint32_t ncpus, uint64_t start,
			 uint64_t end)
{
	memset(h, 0, FT_HEADER_SIZE);
	memcpy(h, FT_MAGIC, 8);
	put32(h + 8, FT_VERSION);
	put32(h + 12, FT_HEADER_SIZE);
	put32(h + 16, sizeof(struct ft_ev));
	put32(h + 20, ncpus);
	put64(h + 24, start);
	put64(h + 32, end);
	put64(h + 40, FT_HDR_CRC);
	put32(h + 48, ft_crc32(h, 48));
}

static int write_header(FILE *f, uint32_t ncpus, uint64_t start,
			uint64_t end)
{
	uint8_t h[FT_HEADER_SIZE];

	header_bytes(h, ncpus, start, end);
	return fwrite(h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

/* META, with the header's fields repeated under a checksum of their own
 * (a damaged header field can then be named). */
static int write_meta(FILE *f, const struct ft_trace *t, uint32_t ncpus,
		      uint64_t start, uint64_t end, uint64_t *bytes)
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
	fprintf(m, "hdr_ncpus=%u\nhdr_start_ns=%" PRIu64 "\nhdr_end_ns=%" PRIu64
		"\n", ncpus, start, end);
	fclose(m);
	rc = write_chunk(f, FT_CHUNK_META, (uint32_t)t->nmeta + 4, buf, len,
			 bytes);
	free(buf);
	return rc;
}

/* Strings in chunks of at most FT_CHUNK_RECORDS strings or 64 KiB. */
static int write_strings(FILE *f, char *const *s, size_t n, uint64_t *bytes)
{
	size_t i = 0;

	while (i < n) {
		size_t len = 0, k = i, off = 0;
		char *buf;
		int rc;

		while (k < n && k - i < FT_CHUNK_RECORDS &&
		       (k == i || len + strlen(s[k]) + 1 <= (64u << 10)))
			len += strlen(s[k++]) + 1;
		buf = malloc(len ? len : 1);
		if (!buf)
			return -1;
		for (size_t j = i; j < k; j++) {
			size_t l = strlen(s[j]) + 1;

			memcpy(buf + off, s[j], l);
			off += l;
		}
		rc = write_chunk(f, FT_CHUNK_STRINGS, (uint32_t)(k - i), buf, len,
				 bytes);
		free(buf);
		if (rc)
			return -1;
		i = k;
	}
	return 0;
}

/* Fixed-size records in chunks of at most FT_CHUNK_RECORDS. */
static int write_records(FILE *f, uint32_t type, const void *recs, size_t n,
			 size_t size, uint64_t *bytes)
{
	const uint8_t *p = recs;

	for (size_t i = 0; i < n; i += FT_CHUNK_RECORDS) {
		size_t k = n - i < FT_CHUNK_RECORDS ? n - i : FT_CHUNK_RECORDS;

		if (write_chunk(f, type, (uint32_t)k, p + i * size, k * size,
				bytes))
			return -1;
	}
	return 0;
}

static int write_tail(FILE *f, const struct ft_trace *t, uint32_t ncpus,
		      uint64_t start, uint64_t end, uint64_t *bytes)
{
	if (write_meta(f, t, ncpus, start, end, bytes) ||
	    write_records(f, FT_CHUNK_TASKS, t->tasks, t->ntasks,
			  sizeof(*t->tasks), bytes) ||
	    write_records(f, FT_CHUNK_FRAMES, t->frames, t->nframes,
			  sizeof(*t->frames), bytes))
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
	    write_records(f, FT_CHUNK_EVENTS, t->ev, t->nev, sizeof(*t->ev),
			  &bytes) ||
	    write_tail(f, t, t->ncpus, t->start_ns, t->end_ns, &bytes)) {
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
	/* a recorder writes tens of MB a second: few large writes (a system
	 * call costs much in a VM) */
	if (w->f)
		setvbuf(w->f, NULL, _IOFBF, 1 << 20);
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
	w->ncpus = ncpus;
	w->start_ns = start_ns;
	return 0;
}

int ft_writer_events(struct ft_writer *w, const struct ft_ev *ev, size_t n)
{
	if (!n)
		return 0;
	if (write_records(w->f, FT_CHUNK_EVENTS, ev, n, sizeof(*ev), &w->bytes)) {
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
	uint8_t h[FT_HEADER_SIZE];
	int rc = 0;

	if (!w->f)
		return -1;
	if (w->error ||
	    write_tail(w->f, t, w->ncpus, w->start_ns, end_ns, &w->bytes)) {
		snprintf(err, errlen, "%s: write failed: %s", w->path,
			 strerror(w->error ? w->error : errno));
		rc = -1;
	}
	/* the header again with its end time (and a CRC that covers it) */
	header_bytes(h, w->ncpus, w->start_ns, end_ns);
	if (!rc && (fseek(w->f, 0, SEEK_SET) ||
		    fwrite(h, sizeof(h), 1, w->f) != 1)) {
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
