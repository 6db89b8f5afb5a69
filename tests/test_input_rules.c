// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the input rules every tool shares (lib/): MangoHud rows
 * that are no frame (a damaged elapsed time, a frame time under
 * GS_MIN_FRAME_MS, a file cut mid-line) and paths shortened in messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mangohud.h"
#include "util.h"

static FILE *mem(const char *text)
{
	return fmemopen((void *)text, strlen(text), "r");
}

/* One row whose elapsed time is damaged (a 0, a huge value, no number)
 * is one row left out, named with its line: the log stays per-frame. */
static void mangohud_damaged_elapsed_is_one_row(void **state)
{
	static const char *const damaged[] = { "0", "99999999999999999", "12x4" };
	static const char *const why[] = {
		"its elapsed time is out of order with the rows around it",
		"its elapsed time is out of order with the rows around it",
		"its elapsed time is no number",
	};
	char text[512];
	struct gs_mh_log log;
	char err[256];

	(void)state;
	for (size_t d = 0; d < 3; d++) {
		FILE *f;

		snprintf(text, sizeof(text), "fps,frametime,elapsed\n"
			 "60,16.6,16600000\n60,16.7,33300000\n60,16.6,%s\n"
			 "60,16.7,66600000\n60,16.6,83200000\n", damaged[d]);
		f = mem(text);
		assert_int_equal(gs_mh_read(f, "d.csv", &log, err, sizeof(err)), 0);
		fclose(f);
		assert_true(log.per_frame);
		assert_int_equal(log.n, 4);
		assert_int_equal(log.unusable, 1);
		assert_int_equal(log.first_unusable_line, 4);
		assert_string_equal(log.first_unusable_why, why[d]);
		gs_mh_free(&log);
	}
}

/* A frame time under GS_MIN_FRAME_MS (1e-300) is no frame; a last line
 * without a newline (a file cut mid-row) is left out, with its line. */
static void mangohud_tiny_and_cut_rows(void **state)
{
	struct gs_mh_log log;
	char err[256], desc[200];
	FILE *f = mem("fps,frametime,elapsed\n60,16.6,16600000\n60,1e-300,16600000\n"
		      "60,16.7,33300000\n60,16.6,49900000\n60,16");

	(void)state;
	assert_int_equal(gs_mh_read(f, "t.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.unusable, 2);
	assert_string_equal(gs_mh_unusable_desc(&log, desc, sizeof(desc)),
			    "frame time 1e-300 ms: under 0.01 ms (100 000 FPS), not a frame");
	gs_mh_free(&log);
	f = mem("fps,frametime,elapsed\n60,16.6,16600000\n60,16");
	assert_int_equal(gs_mh_read(f, "t.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.first_unusable_line, 3);
	assert_string_equal(gs_mh_unusable_desc(&log, desc, sizeof(desc)),
			    "the last line has no newline (the file was cut mid-line?)");
	gs_mh_free(&log);
}

/* A path too long for a message keeps its start and its file name, so
 * the reason after it still fits; a short one is left as it is. */
static void long_paths_shortened(void **state)
{
	char path[4200], buf[GS_SHORT_PATH_MAX + 1], err[300];
	const char *s;

	(void)state;
	memset(path, 'a', sizeof(path));
	memcpy(path, "/tmp/", 5);
	strcpy(path + 4100, "/game.profile");
	assert_string_equal(gs_short_path("/tmp/x", buf, sizeof(buf)), "/tmp/x");
	s = gs_short_path(path, buf, sizeof(buf));
	assert_true(strlen(s) <= GS_SHORT_PATH_MAX);
	assert_true(!strncmp(s, "/tmp/aaa", 8) && strstr(s, "...") &&
		    !strcmp(s + strlen(s) - 13, "/game.profile"));
	gs_err_at(err, sizeof(err), path, 3, "unknown key 'x'");
	assert_non_null(strstr(err, "/game.profile:3: unknown key 'x'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mangohud_damaged_elapsed_is_one_row),
		cmocka_unit_test(mangohud_tiny_and_cut_rows),
		cmocka_unit_test(long_paths_shortened),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
