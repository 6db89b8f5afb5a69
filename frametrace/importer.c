// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every importer (import.c and import_*.c) calls, behind importer.h:
 * a format's name and the count of unusable lines. Kept out of import.c,
 * which calls the importers, so that no importer calls back into it.
 */
#include "importer.h"

#include <stdarg.h>
#include <stdio.h>

#include "ftutil.h"

const char *ft_fmt_name(enum ft_fmt f)
{
	switch (f) {
	case FT_FMT_TRACE: return "frametrace trace";
	case FT_FMT_PERF: return "perf script text";
	case FT_FMT_FTRACE: return "ftrace text";
	case FT_FMT_MANGOHUD: return "MangoHud CSV";
	default: return "unknown";
	}
}

void ft_import_bad(struct ft_import *im, const char *fmt, ...)
{
	va_list ap;
	int n;

	im->bad_lines++;
	if (im->first_bad[0])
		return;
	n = snprintf(im->first_bad, sizeof(im->first_bad), "%s:%zu: ", im->name,
		     im->line);
	if (n < 0 || (size_t)n >= sizeof(im->first_bad))
		return;
	va_start(ap, fmt);
	vsnprintf(im->first_bad + n, sizeof(im->first_bad) - (size_t)n, fmt, ap);
	va_end(ap);
	/* it quotes the input, which may be binary */
	ft_printable_inplace(im->first_bad, sizeof(im->first_bad));
}
