// SPDX-License-Identifier: GPL-2.0-only
/* The wake graph of a report for Graphviz (report.h). */
#include "report.h"

#include <inttypes.h>

static void dot_id(FILE *f, const struct ft_trace *t, uint32_t tid)
{
	const char *c = ft_task_comm(t, tid);

	fputc('"', f);
	for (; *c; c++)
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if ((unsigned char)*c >= 0x20)
			fputc(*c, f);
	fprintf(f, ":%u\"", tid);
}

void ft_report_dot(FILE *f, const struct ft_report *r)
{
	uint64_t maxc = r->m.nedge ? r->m.edge[r->edges[0]].count : 1;

	fprintf(f, "// frametrace wake graph: waker -> wakee, label = wake-ups\n");
	fprintf(f, "digraph wakeups {\n  rankdir=LR;\n  node [shape=box, "
		"fontname=\"monospace\"];\n");
	for (size_t k = 0; k < r->m.nedge; k++) {
		const struct ft_edge *e = &r->m.edge[r->edges[k]];

		fprintf(f, "  ");
		dot_id(f, r->t, e->waker);
		fprintf(f, " -> ");
		dot_id(f, r->t, e->wakee);
		fprintf(f, " [label=\"%" PRIu64 "\", penwidth=%.2f];\n", e->count,
			1.0 + 4.0 * (double)e->count / (double)maxc);
	}
	fprintf(f, "}\n");
}
