// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: the text importers (perf script, ftrace, MangoHud CSV,
 * detection) and the analysis of what they accept. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "import/import.h"

#ifndef FT_FUZZ_TEXT_ENTRY
#define FT_FUZZ_TEXT_ENTRY LLVMFuzzerTestOneInput
#endif

int FT_FUZZ_TEXT_ENTRY(const uint8_t *data, size_t size);

int FT_FUZZ_TEXT_ENTRY(const uint8_t *data, size_t size)
{
	struct ft_trace t;
	char err[512];
	/* importers take text without a terminator: copy to catch overreads */
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (ft_load_mem(buf, size, "fuzz.txt", &t, err, sizeof(err)) >= 0)
		ft_fuzz_pipeline(&t);
	ft_trace_free(&t);
	free(buf);
	return 0;
}
