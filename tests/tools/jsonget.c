// SPDX-License-Identifier: GPL-2.0-only
/*
 * jsonget FILE PATH...: prints the value at each dotted PATH of a JSON file,
 * one per line, so shell tests can check every tool's --json output. A
 * part of a path that is a number indexes an array from 0
 * ("background.0.work_per_s"); inside an object it is a member name.
 * Exit 0 when all paths exist, 1 when one is missing, 2 on a parse error.
 */
#include <stdio.h>

#include "json.h"
#include "util.h"

static void print_value(const struct gs_jv *v)
{
	switch (v->type) {
	case GS_JNULL: puts("null"); break;
	case GS_JBOOL: puts(v->b ? "true" : "false"); break;
	case GS_JNUM: printf("%.10g\n", v->num); break;
	case GS_JSTR: puts(v->str); break;
	case GS_JARR: printf("<array of %zu>\n", v->len); break;
	case GS_JOBJ: printf("<object of %zu>\n", v->len); break;
	}
}

int main(int argc, char **argv)
{
	char err[512];
	struct gs_jv *doc;
	int rc = EXIT_OK;

	gs_set_prog(argv[0]);
	if (argc < 3)
		gs_die(EXIT_USAGE, "usage: jsonget FILE PATH...");
	doc = gs_json_parse_file(argv[1], err, sizeof(err));
	if (!doc)
		gs_die(EXIT_USAGE, "%s", err);
	for (int i = 2; i < argc; i++) {
		const struct gs_jv *v = gs_json_path(doc, argv[i]);

		if (!v) {
			gs_warn("%s: no value at '%s'", argv[1], argv[i]);
			rc = EXIT_RUNTIME;
			continue;
		}
		print_value(v);
	}
	gs_json_free(doc);
	return rc;
}
