/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An option table that is also --help: each option's name, value, range,
 * the field it sets and its help lines, from which getopt_long's tables
 * and the help text are both made, so they cannot disagree. Every
 * parser uses it: lavd (lavd/options.c), framebench (cli.c), gamesuite
 * (main.c, tune.c), vm/scx_minimal.c, vm/churn.c, vm/bpfcost.c and every
 * frametrace command that takes options (record and watch share their
 * recording options: frametrace/record/recopts.h).
 */
#ifndef GS_OPTTAB_H
#define GS_OPTTAB_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How an option's value reaches the options struct. */
enum gs_opt_type {
	GS_OPT_SET,	/* no value: sets a bool */
	GS_OPT_U64,	/* an integer in [min, max], into a uint64_t */
	GS_OPT_INT,	/* an integer in [min, max], into an int */
	GS_OPT_COUNT,	/* no value: adds one to an int (-v -v) */
	GS_OPT_NUMBER,	/* a decimal number in [min, max], into a double */
	GS_OPT_STRING,	/* kept as given (a path) */
	GS_OPT_SPECIAL,	/* the program handles it, by id */
	GS_OPT_HELP,	/* gs_opt_parse prints --help and exits 0 */
};

struct gs_opt {
	const char *name;	/* long name, without "--" */
	char short_name;	/* also -x, or 0 */
	const char *value;	/* the value's name in --help; NULL: takes none */
	enum gs_opt_type type;
	size_t field;		/* offsetof(the options struct, ...) */
	double min, max;	/* accepted range (GS_OPT_U64: exact integers) */
	int id;			/* GS_OPT_SPECIAL: the program's own number */
	bool loads;		/* a program's mark (lavd: configures a load) */
	bool show_default;	/* --help appends the field's default (GS_OPT_U64) */
	const char *section;	/* heading printed above it in --help, or NULL */
	const char *help;	/* --help lines, '\n' between them */
};

struct gs_opt_table {
	const struct gs_opt *opt;
	size_t n;
	const char *head, *tail;	/* --help before and after the options */
	const void *defaults;		/* the options struct with its defaults */
	int help_column;		/* where the help text starts */
	bool in_order;			/* stop at the first operand (a command
					 * after the options keeps its own) */
};

/* getopt_long returns GS_OPT_LONG + i for opt[i] given by its long name */
#define GS_OPT_LONG 256

/* getopt_long's tables: longopts has n + 1 entries, shortopts 2n + 3. */
void gs_opt_getopt(const struct gs_opt_table *t, struct option *longopts,
		   char *shortopts);
/* The option getopt_long's code c stands for, or NULL. */
const struct gs_opt *gs_opt_of(const struct gs_opt_table *t, int c);
void gs_opt_usage(const struct gs_opt_table *t, FILE *f);
/* The value of a typed option into the struct at base (bad values exit
 * with a message); false for GS_OPT_SPECIAL, which is the caller's. */
bool gs_opt_store(const struct gs_opt *o, void *base, const char *arg);
/* The program's handling of a GS_OPT_SPECIAL option: arg is its value
 * (NULL if it takes none), base the options struct. */
typedef void gs_opt_special_fn(const struct gs_opt *o, const char *arg,
			       void *base);
/* Parses argv's options (getopt_long, opterr off) into base: typed ones
 * are stored, GS_OPT_SPECIAL ones go to special, GS_OPT_HELP prints the
 * help and exits 0, bad ones exit 2 naming the option. Returns optind,
 * where the operands start. */
int gs_opt_parse(const struct gs_opt_table *t, void *base, int argc,
		 char **argv, gs_opt_special_fn *special);
/* Whether name is one of the table's long names. */
bool gs_opt_is(const struct gs_opt_table *t, const char *name);

#endif
