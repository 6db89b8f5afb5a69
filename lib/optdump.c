// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option table for the bash completion and the man page (opttab.h,
 * gs_opt_dump_option): make runs each program with --dump-options and
 * splices what it prints into completion/ and man/, so neither can miss
 * an option of the table or name one it no longer has.
 */
#include "opttab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Bash's name for the table's words: "gamesuite tune" -> gamesuite_tune. */
static void ident(const struct gs_opt_table *t, char *out, size_t len)
{
	size_t i;

	for (i = 0; t->command[i] && i + 1 < len; i++)
		out[i] = t->command[i] == ' ' || t->command[i] == '-' ? '_'
								      : t->command[i];
	out[i] = '\0';
}

/* The option's names as a case pattern: "-o|--output". */
static void bash_names(FILE *f, const struct gs_opt *o)
{
	if (o->short_name)
		fprintf(f, "-%c|", o->short_name);
	fprintf(f, "--%s", o->name);
}

static bool value_is(const struct gs_opt *o, const char *name)
{
	return o->value && !strcmp(o->value, name);
}

/* Whether the value is a file name: the path kinds, and any whose value
 * says it is one. */
static bool is_file_value(const struct gs_opt *o)
{
	return o->type == GS_OPT_PATH || o->type == GS_OPT_INPUT ||
	       o->type == GS_OPT_OUTPUT || value_is(o, "FILE") ||
	       value_is(o, "OUT") || value_is(o, "PATH") || value_is(o, "DIR");
}

/* The long and short names of the options that do (with_value) or do not
 * take a value, between blanks. */
static void bash_words(const struct gs_opt_table *t, FILE *f, bool with_value)
{
	const char *sep = "";

	for (size_t i = 0; i < t->n; i++) {
		if (!t->opt[i].value != !with_value)
			continue;
		if (t->opt[i].short_name)
			fprintf(f, "%s-%c", sep, t->opt[i].short_name), sep = " ";
		fprintf(f, "%s--%s", sep, t->opt[i].name);
		sep = " ";
	}
}

/*
 * _gamesched_opts_PROG: the option words; _gamesched_flags_PROG: those
 * that take no value; _gamesched_value_PROG PREV CUR:
 * completes the value of option PREV (choices, files, folders; nothing
 * for free text), status 1 when PREV takes no value.
 */
static void dump_bash(const struct gs_opt_table *t, FILE *f)
{
	char id[64];

	ident(t, id, sizeof(id));
	fprintf(f, "# %s's options, from its option table (%s --dump-options=bash)\n",
		t->command, t->command);
	fprintf(f, "_gamesched_opts_%s='", id);
	bash_words(t, f, false);
	fputc(' ', f);
	bash_words(t, f, true);
	fprintf(f, "'\n_gamesched_flags_%s='", id);
	bash_words(t, f, false);
	fprintf(f, "'\n_gamesched_value_%s()\n{\n\tcase $1 in\n", id);
	for (size_t i = 0; i < t->n; i++) {
		const struct gs_opt *o = &t->opt[i];

		if (!o->value)
			continue;
		fputc('\t', f);
		bash_names(f, o);
		if (o->choices) {
			fputs(") COMPREPLY=($(compgen -W '", f);
			for (const char *p = o->choices; *p; p++)
				fputc(*p == '|' ? ' ' : *p, f);
			fputs("' -- \"$2\")) ;;\n", f);
		} else if (value_is(o, "DIR")) {
			fputs(") compopt -o filenames 2>/dev/null; "
			      "COMPREPLY=($(compgen -d -- \"$2\")) ;;\n", f);
		} else if (is_file_value(o)) {
			fputs(") _gamesched_files \"$2\" ;;\n", f);
		} else {
			fputs(") ;;\n", f);
		}
	}
	fputs("\t*) return 1 ;;\n\tesac\n}\n", f);
}

/* Text for roff on one line: '-' as \-, a backslash as \e, a line break
 * as a space, no dot or quote first (a request). */
static void roff_text(FILE *f, const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '\n')
			fputc(' ', f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else if (s[i] == '\\')
			fputs("\\e", f);
		else
			fputc(s[i], f);
	}
}

/*
 * One line per option: "COMMAND<TAB>NAME<TAB>HEADING<TAB>HELP", COMMAND
 * the table's command (its last word: record), HEADING the roff line
 * that names it in a .TP entry (.BR \-o ", " \-\-output " \fIFILE\fR"),
 * HELP its --help text on one line. man/options.awk puts the headings
 * above the page's own text for each option.
 */
static void dump_man(const struct gs_opt_table *t, FILE *f)
{
	const char *cmd = strrchr(t->command, ' ');

	cmd = cmd ? cmd + 1 : t->command;
	for (size_t i = 0; i < t->n; i++) {
		const struct gs_opt *o = &t->opt[i];

		fprintf(f, "%s\t%s\t", cmd, o->name);
		if (o->short_name)
			fprintf(f, ".BR \\-%c \", \" ", o->short_name);
		else
			fputs(o->value ? ".BI " : ".B ", f);
		roff_text(f, "--", 2);
		roff_text(f, o->name, strlen(o->name));
		if (o->value) {
			/* a choice shows its words */
			const char *v = o->type == GS_OPT_CHOICE ? o->choices
								 : o->value;

			fputs(o->short_name ? " \" \\fI" : " \"", f);
			if (!o->short_name)
				fputc(' ', f);
			roff_text(f, v, strlen(v));
			fputs(o->short_name ? "\\fR\"" : "\"", f);
		}
		fputc('\t', f);
		roff_text(f, o->help, strlen(o->help));
		fputc('\n', f);
	}
}

void gs_opt_dump_option(const struct gs_opt_table *t, int argc, char **argv)
{
	const char *arg = optind < argc ? argv[optind] : "";
	const char *kind;

	if (strncmp(arg, "--dump-options=", 15))
		return;
	kind = arg + 15;
	if (!t->command)
		gs_die(EXIT_USAGE, "option --dump-options: this table has no name");
	if (!strcmp(kind, "bash"))
		dump_bash(t, stdout);
	else if (!strcmp(kind, "man"))
		dump_man(t, stdout);
	else
		gs_die(EXIT_USAGE, "option --dump-options: expected bash or man, "
		       "got '%s'", kind);
	exit(fflush(stdout) ? EXIT_RUNTIME : EXIT_OK);
}
