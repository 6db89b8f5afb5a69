// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every importer (import.c and import_*.c) calls, behind importer.h:
 * a format's name, the count of unusable lines, and the scan of the
 * header of a perf or ftrace event line (the "[cpu]" field, timestamp,
 * event name) both text formats share. Kept out of import.c, which calls
 * the importers, and out of import_text.c, which calls the per-format
 * header parsers, so that nothing calls back.
 */
#include "importer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace/ftutil.h"

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

int ft_parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	if (!len || !isdigit((unsigned char)s[0]))
		return -1;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
	}
	if (i != len)
		return -1;
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

char *ft_text_hdr_cpu(char *line, bool ftrace, struct ft_text_hdr *h)
{
	memset(h, 0, sizeof(*h));
	for (char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		char *q = b + 1;

		/* after a space; perf's may also start the line */
		if (b == line ? ftrace : b[-1] != ' ')
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == b + 1 || *q != ']' || q - b > 6)
			continue;
		/* perf prints ftrace's irq-flags column too with -L in some
		 * versions (6.1's prints none) */
		if (ft_text_hdr_tail(q + 1, true, h))
			continue;
		h->cpu = ft_digits_u64(b + 1, (size_t)(q - b - 1));
		return b;
	}
	return NULL;
}

/* The next token after spaces, up to a space or the end: its start, its
 * length in *n; *p moves past it. */
static const char *next_token(const char **p, size_t *n)
{
	const char *s = *p, *tok;

	while (*s == ' ')
		s++;
	tok = s;
	while (*s && *s != ' ')
		s++;
	*n = (size_t)(s - tok);
	*p = s;
	return tok;
}

/* "SECONDS.FRACTION:" into h->ts */
static bool ts_token(const char *tok, size_t n, struct ft_text_hdr *h)
{
	return n >= 2 && tok[n - 1] == ':' && !ft_parse_ts(tok, n - 1, &h->ts);
}

int ft_text_hdr_tail(const char *p, bool flags_allowed, struct ft_text_hdr *h)
{
	const char *tok, *e;
	size_t n;

	tok = next_token(&p, &n);
	if (!ts_token(tok, n, h)) {
		if (!flags_allowed || n > 5 || !n)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (!(isalnum((unsigned char)tok[i]) || tok[i] == '.'))
				return -1;
		/* the third flag: h hardirq, s softirq, H hardirq in a
		 * softirq, z/Z NMI, '.' process context */
		if (n >= 3) {
			h->irq_known = true;
			if (strchr("hsHzZ", tok[2]))
				h->irq = true;
		}
		tok = next_token(&p, &n);
		if (!ts_token(tok, n, h))
			return -1;
	}
	while (*p == ' ')
		p++;
	/* event name: up to ": " or ':' at the end; perf adds "sched:" */
	tok = p;
	e = strstr(p, ": ");
	if (!e) {
		e = p + strlen(p);
		if (e > p && e[-1] == ':')
			e--;
		else
			return -1;
	}
	n = (size_t)(e - tok);
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (tok[i] == ' ')
			return -1;
	{
		const char *colon = memchr(tok, ':', n);
		const char *nm = tok;

		/* "sched:sched_switch" -> "sched_switch" (last component) */
		while (colon) {
			nm = colon + 1;
			colon = memchr(nm, ':', n - (size_t)(nm - tok));
		}
		n -= (size_t)(nm - tok);
		if (n >= sizeof(h->event))
			n = sizeof(h->event) - 1;
		memcpy(h->event, nm, n);
		h->event[n] = '\0';
	}
	h->args = *e ? e + 2 : e;
	return 0;
}
