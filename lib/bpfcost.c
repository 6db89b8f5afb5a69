// SPDX-License-Identifier: GPL-2.0-only
#include "bpfcost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util.h"

#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

void gs_print_bpf_run_cost(struct bpf_object *obj, const char *who,
			   const char *prefix)
{
	struct bpf_program *prog;
	size_t plen = strlen(prefix);
	char buf[64];

	if (gs_read_text(BPF_STATS_SYSCTL, buf, sizeof(buf)) < 0 ||
	    strtol(buf, NULL, 10) != 1)
		return;
	printf("%s: BPF cost per call (kernel.bpf_stats_enabled=1):", who);
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		const char *name = bpf_program__name(prog);

		if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len) ||
		    !info.run_cnt)
			continue;
		if (!strncmp(name, prefix, plen))
			name += plen;
		printf(" %s %.0fns/%llu", name,
		       (double)info.run_time_ns / (double)info.run_cnt,
		       (unsigned long long)info.run_cnt);
	}
	printf("\n");
	fflush(stdout);
}
