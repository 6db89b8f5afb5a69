// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the option table (lib/opttab.c, lib/optdump.c): each kind
 * of value, the refusals (exit 2, the option named), and the dumps for
 * the bash completion and the man page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opttab.h"
#include "util.h"

struct opts {
	uint64_t wait_ns, lat_ns, disk;
	unsigned fps;
	int nice, mode;
	bool fps_given, flag;
	double share;
	const char *in, *out, *path;
	struct gs_opt_list bg;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct gs_opt specs[] = {
	{ "wait", 'w', "D", GS_OPT_DURATION, FIELD(wait_ns), 0, 3600 * NSEC_PER_SEC,
	  .help = "a duration" },
	{ "lat", 0, "D", GS_OPT_DURATION, FIELD(lat_ns), 1000, 10 * NSEC_PER_SEC,
	  .unit_ns = NSEC_PER_MSEC, .help = "bare numbers in ms" },
	{ "fps", 0, "N", GS_OPT_UINT, FIELD(fps), 0, 1000,
	  .given = GS_OPT_GIVEN(FIELD(fps_given)), .help = "an unsigned" },
	{ "nice", 0, "N", GS_OPT_INT, FIELD(nice), -20, 19, .help = "signed" },
	{ "mode", 0, "M", GS_OPT_CHOICE, FIELD(mode), .choices = "a|b|c",
	  .help = "a choice" },
	{ "share", 0, "PCT", GS_OPT_NUMBER, FIELD(share), 0, 100, .scale = 0.01,
	  .help = "a percentage" },
	{ "disk", 0, "MB", GS_OPT_U64, FIELD(disk), 1, 1024, .scale = 1 << 20,
	  .help = "megabytes" },
	{ "bg", 0, "PATTERN", GS_OPT_APPEND, FIELD(bg), .help = "repeatable" },
	{ "in", 0, "FILE", GS_OPT_INPUT, FIELD(in), .help = "must exist" },
	{ "output", 'o', "OUT", GS_OPT_OUTPUT, FIELD(out), .help = "writable" },
	{ "dir", 0, "DIR", GS_OPT_PATH, FIELD(path), .help = "a folder" },
	{ "flag", 0, NULL, GS_OPT_SET, FIELD(flag), .help = "a flag" },
	{ "version", 0, NULL, GS_OPT_VERSION, .help = "the version" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs), "usage: t\n", "", NULL, 20,
	.version = "t 1.0\n", .command = "prog cmd",
};

/* argv (NULL-terminated, argv[0] included) parsed into o. */
static void parse(struct opts *o, const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(o, 0, sizeof(*o));
	optind = 1;
	gs_opt_parse(&table, o, argc, (char **)argv, NULL);
}

/* The exit status of parsing argv in a child, and its stdout and stderr
 * together in out. */
static int parse_exit(const char **argv, char *out, size_t outlen)
{
	int fd[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct opts o;

		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		parse(&o, argv);
		fflush(NULL);
		_exit(99);
	}
	close(fd[1]);
	while ((n = read(fd[0], out + got, outlen - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect_refused(const char **argv, const char *msg)
{
	char out[4096];

	assert_int_equal(parse_exit(argv, out, sizeof(out)), EXIT_USAGE);
	if (!strstr(out, msg))
		fail_msg("expected '%s' in: %s", msg, out);
}

static void test_durations(void **state)
{
	struct opts o;

	(void)state;
	parse(&o, (const char *[]){ "t", "--wait", "500us", NULL });
	assert_int_equal(o.wait_ns, 500 * NSEC_PER_USEC);
	parse(&o, (const char *[]){ "t", "-w", "2ms", "--lat", "8s", NULL });
	assert_int_equal(o.wait_ns, 2 * NSEC_PER_MSEC);
	assert_int_equal(o.lat_ns, 8 * NSEC_PER_SEC);
	/* a bare number is in the option's unit: seconds, or ms for --lat */
	parse(&o, (const char *[]){ "t", "--wait", "3", "--lat", "5", NULL });
	assert_int_equal(o.wait_ns, 3 * NSEC_PER_SEC);
	assert_int_equal(o.lat_ns, 5 * NSEC_PER_MSEC);
	expect_refused((const char *[]){ "t", "--wait", "2h", NULL },
		       "option --wait: expected a duration");
	expect_refused((const char *[]){ "t", "--lat", "1ns", NULL },
		       "option --lat: expected a duration");
}

static void test_numbers_and_given(void **state)
{
	struct opts o;

	(void)state;
	parse(&o, (const char *[]){ "t", "--nice", "-5", "--share", "25",
				    "--disk", "3", NULL });
	assert_int_equal(o.nice, -5);
	assert_false(o.fps_given);
	assert_true(o.share > 0.2499 && o.share < 0.2501);
	assert_int_equal(o.disk, 3 << 20);
	parse(&o, (const char *[]){ "t", "--fps", "0", NULL });
	assert_true(o.fps_given);
	assert_int_equal(o.fps, 0);
	expect_refused((const char *[]){ "t", "--nice", "20", NULL },
		       "option --nice: expected an integer in [-20, 19], got '20'");
	expect_refused((const char *[]){ "t", "--fps", "1001", NULL },
		       "option --fps: expected an integer in [0, 1000]");
}

static void test_choice_and_list(void **state)
{
	struct opts o;

	(void)state;
	parse(&o, (const char *[]){ "t", "--mode", "c", "--bg", "x", "--bg",
				    "y:2", NULL });
	assert_int_equal(o.mode, 2);
	assert_int_equal(o.bg.n, 2);
	assert_string_equal(o.bg.v[1], "y:2");
	free(o.bg.v);
	expect_refused((const char *[]){ "t", "--mode", "d", NULL },
		       "option --mode: expected a, b or c, got 'd'");
	expect_refused((const char *[]){ "t", "--mode", "", NULL },
		       "option --mode: expected a, b or c, got ''");
}

static void test_paths(void **state)
{
	struct opts o;

	(void)state;
	parse(&o, (const char *[]){ "t", "--in", "/", "-o", "-", "--dir",
				    "./-x", NULL });
	assert_string_equal(o.in, "/");
	assert_string_equal(o.out, "-");
	assert_string_equal(o.path, "./-x");
	expect_refused((const char *[]){ "t", "--dir", "--flag", NULL },
		       "option '--dir' needs a file name, not '--flag'");
	/* named as its users know it: -o */
	expect_refused((const char *[]){ "t", "--output", "-w", NULL },
		       "option '-o' needs a file name, not '-w'");
	expect_refused((const char *[]){ "t", "--in", "/nonexistent/f", NULL },
		       "option --in: /nonexistent/f: No such file or directory");
	expect_refused((const char *[]){ "t", "-o", "/nonexistent/f", NULL },
		       "option -o: /nonexistent/f: cannot create it in /nonexistent");
}

static void test_version_and_dumps(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(parse_exit((const char *[]){ "t", "--version", NULL },
				    out, sizeof(out)), 0);
	assert_string_equal(out, "t 1.0\n");
	assert_int_equal(parse_exit((const char *[]){ "t", "--dump-options=bash",
						       NULL }, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "_gamesched_value_prog_cmd()"));
	assert_non_null(strstr(out, "\t--mode) COMPREPLY=($(compgen -W 'a b c'"));
	assert_non_null(strstr(out, "\t-o|--output) _gamesched_files"));
	assert_non_null(strstr(out, "\t--dir) compopt -o filenames"));
	assert_non_null(strstr(out, "_gamesched_flags_prog_cmd='--flag --version'"));
	assert_int_equal(parse_exit((const char *[]){ "t", "--dump-options=man",
						       NULL }, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "cmd\toutput\t.BR \\-o \", \" \\-\\-output "
				    "\" \\fIOUT\\fR\"\twritable\n"));
	assert_non_null(strstr(out, "cmd\tmode\t.BI \\-\\-mode \" a|b|c\"\t"));
	expect_refused((const char *[]){ "t", "--dump-options=zsh", NULL },
		       "option --dump-options: expected bash or man, got 'zsh'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_numbers_and_given),
		cmocka_unit_test(test_choice_and_list),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_version_and_dumps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
