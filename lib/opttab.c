// SPDX-License-Identifier: GPL-2.0-only
/* An option table that is also --help (opttab.h). */
#include "opttab.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The index of arg among choices ("a|b|c"); exits 2 naming the option
 * and the words ("expected a, b or c") when it is none of them. */
static int choice_index(const char *name, const char *choices, const char *arg)
{
	char list[512];
	size_t len = strlen(arg), off = 0;
	int i = 0, n = 1;

	for (const char *w = choices; ; i++) {
		size_t wl = strcspn(w, "|");

		if (wl == len && !strncmp(w, arg, len))
			return i;
		if (!w[wl])
			break;
		w += wl + 1;
	}
	for (const char *p = choices; *p; p++)
		n += *p == '|';
	i = 0;
	for (const char *w = choices; *w && off < sizeof(list); i++) {
		size_t wl = strcspn(w, "|");

		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%.*s",
					!i ? "" : i == n - 1 ? " or " : ", ",
					(int)wl, w);
		w += wl + !!w[wl];
	}
	gs_die(EXIT_USAGE, "option %s: expected %s, got '%s'", name, list, arg);
}

/* A file-name option: one that looks like an option is refused (getopt
 * took the next word as the value), and the kind's own check. */
static const char *path_value(const struct gs_opt *o, const char *arg)
{
	char name[64], why[600];
	struct stat st;

	/* the option as its users know it: -o rather than --output */
	if (o->short_name)
		snprintf(name, sizeof(name), "-%c", o->short_name);
	else
		snprintf(name, sizeof(name), "--%s", o->name);
	if (!*arg)
		gs_die(EXIT_USAGE, "%s: empty path (give a file name)", name);
	if (arg[0] == '-' && arg[1]) {
		char shown[64];
		size_t n = 0;

		/* a message carries no control characters: \xNN */
		for (const char *p = arg; *p && n + 5 < sizeof(shown); p++)
			n += (size_t)snprintf(shown + n, sizeof(shown) - n,
					      (unsigned char)*p < 0x20 || *p == 0x7f
					      ? "\\x%02x" : "%c", (unsigned char)*p);
		shown[n] = '\0';
		gs_die(EXIT_USAGE, "option '%s' needs a file name, not '%s' (an "
		       "option; a file whose name starts with '-': ./%s)", name,
		       shown, shown);
	}
	if (o->type == GS_OPT_INPUT && stat(arg, &st))
		gs_die(EXIT_USAGE, "option %s: %s: %s", name, arg,
		       strerror(errno));
	if (o->type == GS_OPT_OUTPUT && strcmp(arg, "-") &&
	    gs_check_output(arg, why, sizeof(why)))
		gs_die(EXIT_USAGE, "option %s: %s", name, why);
	return arg;
}

static void append(struct gs_opt_list *l, const char *arg)
{
	const char **v = realloc(l->v, (size_t)(l->n + 1) * sizeof(*v));

	if (!v)
		gs_die(EXIT_RUNTIME, "out of memory");
	l->v = v;
	l->v[l->n++] = arg;
}

/* The typed options with a value (min, max and scale as the table says). */
static void store_value(const struct gs_opt *o, void *field, const char *name,
			const char *arg)
{
	double scale = o->scale ? o->scale : 1;

	switch (o->type) {
	case GS_OPT_U64:
		/* 2^64 (UINT64_MAX as a double) does not convert back */
		*(uint64_t *)field = gs_opt_u64(name, arg, (uint64_t)o->min,
						o->max >= 0x1p64 ? UINT64_MAX :
						(uint64_t)o->max) * (uint64_t)scale;
		break;
	case GS_OPT_UINT:
		*(unsigned *)field = (unsigned)gs_opt_u64(name, arg,
							  (uint64_t)o->min,
							  (uint64_t)o->max);
		break;
	case GS_OPT_INT:
		*(int *)field = (int)gs_opt_i64(name, arg, (int64_t)o->min,
						(int64_t)o->max);
		break;
	case GS_OPT_NUMBER:
		*(double *)field = gs_opt_double(name, arg, o->min, o->max) *
				   scale;
		break;
	case GS_OPT_DURATION:
		*(uint64_t *)field = gs_opt_duration_ns(
			name, arg, o->unit_ns ? o->unit_ns : NSEC_PER_SEC,
			(uint64_t)o->min, o->max >= 0x1p64 ? UINT64_MAX :
			(uint64_t)o->max);
		break;
	case GS_OPT_CHOICE:
		*(int *)field = choice_index(name, o->choices, arg);
		break;
	case GS_OPT_PATH:
	case GS_OPT_INPUT:
	case GS_OPT_OUTPUT:
		*(const char **)field = path_value(o, arg);
		break;
	case GS_OPT_APPEND:
		append(field, arg);
		break;
	default:
		*(const char **)field = arg;
		break;
	}
}

bool gs_opt_store(const struct gs_opt *o, void *base, const char *arg)
{
	void *field = (char *)base + o->field;
	char name[64];

	snprintf(name, sizeof(name), "--%s", o->name);
	switch (o->type) {
	case GS_OPT_SPECIAL:
	case GS_OPT_HELP:
	case GS_OPT_VERSION:
		return false;
	case GS_OPT_SET:
		*(bool *)field = true;
		break;
	case GS_OPT_COUNT:
		++*(int *)field;
		break;
	default:
		store_value(o, field, name, arg);
		break;
	}
	if (o->given)
		*(bool *)((char *)base + o->given - 1) = true;
	return true;
}

bool gs_opt_take(const struct gs_opt_table *t, const struct gs_opt *o,
		 void *base, const char *arg)
{
	if (o->type == GS_OPT_HELP) {
		gs_opt_usage(t, stdout);
		exit(EXIT_OK);
	}
	if (o->type == GS_OPT_VERSION) {
		fputs(t->version, stdout);
		exit(EXIT_OK);
	}
	return gs_opt_store(o, base, arg);
}

int gs_opt_parse(const struct gs_opt_table *t, void *base, int argc,
		 char **argv, gs_opt_special_fn *special)
{
	struct option *lo = calloc(t->n + 1, sizeof(*lo));
	char *so = malloc(2 * t->n + 3);
	int c;

	if (!lo || !so)
		gs_die(EXIT_RUNTIME, "out of memory");
	gs_opt_dump_option(t, argc, argv);
	gs_opt_getopt(t, lo, so);
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct gs_opt *o = gs_opt_of(t, c);

		if (c == ':' || !o)
			gs_die_bad_option(c, argv);
		if (!gs_opt_take(t, o, base, optarg))
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
