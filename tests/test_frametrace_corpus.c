// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replays the committed fuzz corpus (tests/fuzz/corpus/{trace,text}/)
 * through the same harnesses libFuzzer runs (make fuzz-frametrace), built
 * normally: every input must be read or rejected without a crash (run
 * under `make asan` it also checks memory errors).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_FUZZ_ENTRY fuzz_trace_one
#define FT_FUZZ_TEXT_ENTRY fuzz_text_one
#include "fuzz/fuzz_trace.c"
#include "fuzz/fuzz_text.c"
#include "util.h"

static size_t replay(const char *dir, int (*fn)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		fail_msg("%s: cannot open the corpus", dir);
	while ((de = readdir(d))) {
		char path[4096], err[4200], *text;
		size_t len;
		uint8_t *buf;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (gs_read_file(path, 0, &text, &len, err, sizeof(err)))
			fail_msg("%s", err);
		/* exactly len bytes, as libFuzzer passes them: under ASan a
		 * read past the input's end must not land in the reader's
		 * NUL and spare room */
		buf = malloc(len ? len : 1);
		assert_non_null(buf);
		memcpy(buf, text, len);
		free(text);
		fn(buf, len);
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

static void corpus_trace(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/trace", fuzz_trace_one) >= 3);
}

static void corpus_text(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/text", fuzz_text_one) >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_trace),
		cmocka_unit_test(corpus_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
