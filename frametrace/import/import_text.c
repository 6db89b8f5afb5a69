// SPDX-License-Identifier: GPL-2.0-only
/* The two text formats, perf script and ftrace: the line loop (the part
 * of an event line's header they share is importer.c's). */
#include "importer.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void text_line(struct ft_import *im, char *line)
{
	struct ft_text_hdr h;
	char *s = line;
	int rc;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#' || *s == '\r')
		return;
	if (im->fmt == FT_FMT_FTRACE && ft_ftrace_lost_line(s, &im->lost))
		return;
	rc = im->fmt == FT_FMT_PERF ? ft_perf_parse_header(line, &h)
				    : ft_ftrace_parse_header(line, &h);
	if (rc) {
		ft_import_bad(im, "not a %s event line: '%.60s'",
			      ft_fmt_name(im->fmt), s);
		return;
	}
	ft_import_event_line(im, &h);
}

int ft_import_text(struct ft_import *im, const char *buf, size_t len,
		   char *err, size_t errlen)
{
	char line[FT_IMPORT_LINE_MAX];
	size_t i = 0;

	while (i < len && !im->oom) {
		size_t j = i, n;
		const char *nl = memchr(buf + i, '\n', len - i);

		j = nl ? (size_t)(nl - buf) : len;
		im->line++;
		n = j - i;
		if (n >= sizeof(line)) {
			ft_import_bad(im, "line longer than %zu bytes",
				      sizeof(line) - 1);
		} else {
			memcpy(line, buf + i, n);
			line[n] = '\0';
			if (memchr(line, '\0', n))
				ft_import_bad(im, "NUL byte in a text line");
			else
				text_line(im, line);
		}
		i = j + 1;
	}
	if (im->oom) {
		snprintf(err, errlen, "%s: out of memory", im->name);
		return -1;
	}
	return 0;
}
