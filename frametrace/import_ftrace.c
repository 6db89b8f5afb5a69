// SPDX-License-Identifier: GPL-2.0-only
/* The lines of ftrace text (importer.h): an event line's header, and the
 * count of events the ring buffer lost. */
#include "importer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int ft_ftrace_parse_header(char *line, struct ft_text_hdr *h)
{
	memset(h, 0, sizeof(*h));
	for (char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		char *q = b + 1, *pe, *dash;
		size_t n;

		if (b == line || b[-1] != ' ')
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == b + 1 || *q != ']' || q - b > 6)
			continue;
		if (ft_text_hdr_tail(q + 1, true, h))
			continue;
		h->cpu = ft_digits_u64(b + 1, (size_t)(q - b - 1));
		pe = b;
		while (pe > line && pe[-1] == ' ')
			pe--;
		if (pe > line && pe[-1] == ')') {
			char *o = pe - 1;

			while (o > line && *o != '(')
				o--;
			if (*o != '(')
				return -1;
			{
				char *s = o + 1, *e = pe - 1;

				while (*s == ' ')
					s++;
				n = (size_t)(e - s);
				if (ft_all_digits(s, n))
					h->pid = ft_digits_u64(s, n);
			}
			pe = o;
			while (pe > line && pe[-1] == ' ')
				pe--;
		}
		/* comm-tid: the tid follows the last '-' */
		dash = NULL;
		for (char *x = line; x < pe; x++)
			if (*x == '-')
				dash = x;
		if (!dash || !ft_all_digits(dash + 1, (size_t)(pe - dash - 1)))
			return -1;
		h->tid = ft_digits_u64(dash + 1, (size_t)(pe - dash - 1));
		{
			char *cs = line;

			while (*cs == ' ')
				cs++;
			n = dash > cs ? (size_t)(dash - cs) : 0;
			if (n >= sizeof(h->comm))
				n = sizeof(h->comm) - 1;
			memcpy(h->comm, cs, n);
			h->comm[n] = '\0';
		}
		return 0;
	}
	return -1;
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
