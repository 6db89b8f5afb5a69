// SPDX-License-Identifier: GPL-2.0-only
/* The lines of ftrace text (importer.h): an event line's header, and the
 * count of events the ring buffer lost. */
#include "importer.h"

#include <stdlib.h>
#include <string.h>

int ft_ftrace_parse_header(char *line, struct ft_text_hdr *h)
{
	char *pe = ft_text_hdr_cpu(line, true, h), *dash = NULL, *cs = line;
	size_t n;

	if (!pe)
		return -1;
	while (pe > line && pe[-1] == ' ')
		pe--;
	if (pe > line && pe[-1] == ')') {
		char *o = pe - 1, *s, *e = pe - 1;

		while (o > line && *o != '(')
			o--;
		if (*o != '(')
			return -1;
		for (s = o + 1; *s == ' '; s++)
			;
		n = (size_t)(e - s);
		if (ft_all_digits(s, n) && !ft_is_id(s, n))
			return -1;
		if (ft_all_digits(s, n))
			h->pid = ft_digits_u64(s, n);
		pe = o;
		while (pe > line && pe[-1] == ' ')
			pe--;
	}
	/* comm-tid: the tid follows the last '-' */
	for (char *x = line; x < pe; x++)
		if (*x == '-')
			dash = x;
	if (!dash || !ft_is_id(dash + 1, (size_t)(pe - dash - 1)))
		return -1;
	h->tid = ft_digits_u64(dash + 1, (size_t)(pe - dash - 1));
	while (*cs == ' ')
		cs++;
	n = dash > cs ? (size_t)(dash - cs) : 0;
	if (n >= sizeof(h->comm))
		n = sizeof(h->comm) - 1;
	memcpy(h->comm, cs, n);
	h->comm[n] = '\0';
	return 0;
}

bool ft_ftrace_lost_line(const char *s, uint64_t *lost)
{
	const char *l;

	if (strncmp(s, "CPU:", 4))
		return false;
	l = strstr(s, "[LOST ");
	if (l)
		*lost += strtoull(l + 6, NULL, 10);
	return true;
}
