// SPDX-License-Identifier: GPL-2.0-only
/* An option table that is also --help (opttab.h). */
#include "opttab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void gs_opt_getopt(const struct gs_opt_table *t, struct option *longopts,
		   char *shortopts)
{
	char *sp = shortopts;

	if (t->in_order)
		*sp++ = '+';
	*sp++ = ':';	/* a missing value returns ':', not '?' */
	for (size_t i = 0; i < t->n; i++) {
		longopts[i] = (struct option){
			t->opt[i].name,
			t->opt[i].value ? required_argument : no_argument,
			NULL, GS_OPT_LONG + (int)i,
		};
		if (t->opt[i].short_name)
			*sp++ = t->opt[i].short_name;
		if (t->opt[i].short_name && t->opt[i].value)
			*sp++ = ':';
	}
	longopts[t->n] = (struct option){ 0 };
	*sp = '\0';
}

const struct gs_opt *gs_opt_of(const struct gs_opt_table *t, int c)
{
	if (c >= GS_OPT_LONG && c < GS_OPT_LONG + (int)t->n)
		return &t->opt[c - GS_OPT_LONG];
	for (size_t i = 0; i < t->n; i++)
		if (t->opt[i].short_name && t->opt[i].short_name == c)
			return &t->opt[i];
	return NULL;
}

/* "  -v, --verbose" or "  --stats SEC", padded to where the help starts. */
static void print_name(FILE *f, const struct gs_opt *o, int column)
{
	int n = fprintf(f, "  ");

	if (o->short_name)
		n += fprintf(f, "-%c, ", o->short_name);
	n += fprintf(f, "--%s", o->name);
	if (o->value)
		n += fprintf(f, " %s", o->value);
	/* names too long for the column get two spaces */
	fprintf(f, "%*s", n <= column - 2 ? column - n : 2, "");
}

void gs_opt_usage(const struct gs_opt_table *t, FILE *f)
{
	fputs(t->head, f);
	for (size_t i = 0; i < t->n; i++) {
		const struct gs_opt *o = &t->opt[i];

		if (o->section)
			fprintf(f, "%s:\n", o->section);
		print_name(f, o, t->help_column);
		for (const char *p = o->help; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fprintf(f, "%*s", t->help_column, "");
		}
		if (o->show_default)
			fprintf(f, " (default %llu)", (unsigned long long)
				*(const uint64_t *)((const char *)t->defaults + o->field));
		fputc('\n', f);
	}
	fputs(t->tail, f);
}

bool gs_opt_store(const struct gs_opt *o, void *base, const char *arg)
{
	void *field = (char *)base + o->field;
	char name[64];

	snprintf(name, sizeof(name), "--%s", o->name);
	switch (o->type) {
	case GS_OPT_SET:
		*(bool *)field = true;
		return true;
	case GS_OPT_U64:
		/* 2^64 (UINT64_MAX as a double) does not convert back */
		*(uint64_t *)field = gs_opt_u64(name, arg, (uint64_t)o->min,
						o->max >= 0x1p64 ? UINT64_MAX :
						(uint64_t)o->max);
		return true;
	case GS_OPT_INT:
		*(int *)field = (int)gs_opt_u64(name, arg, (uint64_t)o->min,
						(uint64_t)o->max);
		return true;
	case GS_OPT_COUNT:
		++*(int *)field;
		return true;
	case GS_OPT_NUMBER:
		*(double *)field = gs_opt_double(name, arg, o->min, o->max);
		return true;
	case GS_OPT_STRING:
		*(const char **)field = arg;
		return true;
	case GS_OPT_SPECIAL:
	case GS_OPT_HELP:
		break;
	}
	return false;
}

int gs_opt_parse(const struct gs_opt_table *t, void *base, int argc,
		 char **argv, gs_opt_special_fn *special)
{
	struct option *lo = calloc(t->n + 1, sizeof(*lo));
	char *so = malloc(2 * t->n + 3);
	int c;

	if (!lo || !so)
		gs_die(EXIT_RUNTIME, "out of memory");
	gs_opt_getopt(t, lo, so);
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct gs_opt *o = gs_opt_of(t, c);

		if (c == ':' || !o)
			gs_die_bad_option(c, argv);
		if (o->type == GS_OPT_HELP) {
			gs_opt_usage(t, stdout);
			exit(EXIT_OK);
		}
		if (!gs_opt_store(o, base, optarg))
			special(o, optarg, base);
	}
	free(lo);
	free(so);
	return optind;
}

bool gs_opt_is(const struct gs_opt_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->opt[i].name, name))
			return true;
	return false;
}
