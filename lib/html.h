/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing text into HTML reports (gamesuite, frametrace). */
#ifndef GS_HTML_H
#define GS_HTML_H

#include <stdio.h>

/*
 * Writes s with &, <, >, " and ' escaped, so it is safe in element text and
 * in quoted attribute values; control characters other than newline and
 * tab are dropped. NULL writes nothing.
 */
void gs_html_esc(FILE *f, const char *s);

#endif
