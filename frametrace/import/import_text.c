// SPDX-License-Identifier: GPL-2.0-only
/* The two text formats, perf script and ftrace: the line loop (the part
 * of an event line's header they share is importer.c's). */
#include "importer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The last record of each CPU: a line repeated at once on its CPU (the
 * same text, the same time stamp) is a duplicate record (a text written
 * twice, a copy pasted in), left out: it would count its time twice. */
struct last_recs {
	uint64_t *hash;		/* per CPU: hash of its last line, 0 none */
	size_t *line;		/* and that line's number */
	size_t cap;
};

static uint64_t line_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *s && *s != '\r'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h | 1;
}

/* Whether the line of hash h on cpu repeats that CPU's last one; it
 * becomes the last one. -1: out of memory. */
static int repeats_last(struct ft_import *im, struct last_recs *L,
			uint64_t cpu, uint64_t h, size_t *first)
{
	if (cpu >= L->cap) {
		size_t cap = (size_t)cpu + 64;
		uint64_t *nh = realloc(L->hash, cap * sizeof(*nh));
		size_t *nl = nh ? realloc(L->line, cap * sizeof(*nl)) : NULL;

		if (nh)
			L->hash = nh;
		if (!nl)
			return -1;
		L->line = nl;
		memset(L->hash + L->cap, 0, (cap - L->cap) * sizeof(*nh));
		L->cap = cap;
	}
	if (L->hash[cpu] == h) {
		*first = L->line[cpu];
		return 1;
	}
	L->hash[cpu] = h;
	L->line[cpu] = im->line;
	return 0;
}

static void text_line(struct ft_import *im, char *line, struct last_recs *L)
{
	struct ft_text_hdr h;
	char *s = line;
	uint64_t hash;
	size_t first;
	int rc;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#' || *s == '\r')
		return;
	if (im->fmt == FT_FMT_FTRACE && ft_ftrace_lost_line(s, &im->lost))
		return;
	hash = line_hash(s);
	rc = im->fmt == FT_FMT_PERF ? ft_perf_parse_header(line, &h)
				    : ft_ftrace_parse_header(line, &h);
	if (rc) {
		ft_import_bad(im, "not a %s event line: '%.60s'",
			      ft_fmt_name(im->fmt), s);
		return;
	}
	rc = repeats_last(im, L, h.cpu, hash, &first);
	if (rc < 0) {
		im->oom = true;
	} else if (rc) {
		ft_import_bad(im, "a duplicate record: line %zu again (a text "
			      "written twice?): left out, not counted twice", first);
	} else {
		ft_import_event_line(im, &h);
	}
}

/* One line of buf[i, j); last: the file ends there without a newline. */
static void one_line(struct ft_import *im, const char *buf, size_t i,
		     size_t j, bool last, struct last_recs *L)
{
	char line[FT_IMPORT_LINE_MAX];
	size_t n = j - i;

	if (n >= sizeof(line)) {
		ft_import_bad(im, "line longer than %zu bytes", sizeof(line) - 1);
	} else if (last) {
		/* a file cut mid-line: its last value may be cut too */
		ft_import_bad(im, "the last line has no newline (the file was "
			      "cut mid-line?): left out");
	} else {
		memcpy(line, buf + i, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			ft_import_bad(im, "NUL byte in a text line");
		else
			text_line(im, line, L);
	}
}

int ft_import_text(struct ft_import *im, const char *buf, size_t len,
		   char *err, size_t errlen)
{
	struct last_recs L = { 0 };
	size_t i = 0;

	while (i < len && !im->oom) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t j = nl ? (size_t)(nl - buf) : len;

		im->line++;
		one_line(im, buf, i, j, !nl, &L);
		i = j + 1;
	}
	free(L.hash);
	free(L.line);
	if (im->oom) {
		snprintf(err, errlen, "%s: out of memory", im->name);
		return -1;
	}
	return 0;
}
