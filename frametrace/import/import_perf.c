// SPDX-License-Identifier: GPL-2.0-only
/* The header of a `perf script` event line (importer.h). */
#include "importer.h"

#include <string.h>

int ft_perf_parse_header(char *line, struct ft_text_hdr *h)
{
	char *pre_end = ft_text_hdr_cpu(line, false, h), *tokstart, *slash;
	char *cs = line, *ce;
	size_t n;

	if (!pre_end)
		return -1;
	/* before '[': [comm ]tid or [comm ]pid/tid */
	while (pre_end > line && pre_end[-1] == ' ')
		pre_end--;
	tokstart = pre_end;
	while (tokstart > line && tokstart[-1] != ' ')
		tokstart--;
	n = (size_t)(pre_end - tokstart);
	if (!n)
		return -1;
	slash = memchr(tokstart, '/', n);
	if (slash && (size_t)(tokstart + n - slash) == 3 &&
	    !memcmp(slash, "/-1", 3)) {
		/* the same with a pid column: "-1/-1", or the pid without the
		 * thread ("11040/-1", a thread that has exited) */
		size_t a = (size_t)(slash - tokstart);

		if (ft_is_id(tokstart, a))
			h->pid = ft_digits_u64(tokstart, a);
		else if (a != 2 || memcmp(tokstart, "-1", 2))
			return -1;
		h->notask = true;
	} else if (slash) {
		size_t a = (size_t)(slash - tokstart);

		if (!ft_is_id(tokstart, a) ||
		    !ft_is_id(slash + 1, n - a - 1))
			return -1;
		h->pid = ft_digits_u64(tokstart, a);
		h->tid = ft_digits_u64(slash + 1, n - a - 1);
	} else if (n == 2 && !memcmp(tokstart, "-1", 2)) {
		/* perf could not tell the task: keep the line, its fields
		 * say what it is about (perf sched latency counts its
		 * switches by those fields too) */
		h->notask = true;
	} else {
		if (!ft_is_id(tokstart, n))
			return -1;
		h->tid = ft_digits_u64(tokstart, n);
	}
	while (*cs == ' ')
		cs++;
	for (ce = tokstart; ce > cs && ce[-1] == ' '; ce--)
		;
	n = (size_t)(ce - cs);
	if (n >= sizeof(h->comm))
		n = sizeof(h->comm) - 1;
	memcpy(h->comm, cs, n);
	h->comm[n] = '\0';
	return 0;
}
