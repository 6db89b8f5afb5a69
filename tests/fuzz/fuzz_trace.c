// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: the trace file reader (ft_trace_read_mem) and the
 * analysis of whatever it accepts. Build: make fuzz-frametrace. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "trace/tracefile.h"

#ifndef FT_FUZZ_ENTRY
#define FT_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FT_FUZZ_ENTRY(const uint8_t *data, size_t size);

int FT_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	struct ft_trace t;
	char err[512];

	if (ft_trace_read_mem(data, size, "fuzz.ftr", &t, err, sizeof(err)) >= 0)
		ft_fuzz_pipeline(&t);
	ft_trace_free(&t);
	return 0;
}
