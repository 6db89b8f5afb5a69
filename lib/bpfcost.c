// SPDX-License-Identifier: GPL-2.0-only
#include "bpfcost.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util.h"

#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

static bool stats_on(void)
{
	char buf[64];

	return gs_read_text(BPF_STATS_SYSCTL, buf, sizeof(buf)) >= 0 &&
	       strtol(buf, NULL, 10) == 1;
}

static void print_cost(const char *name, const char *prefix,
		       const struct bpf_prog_info *info)
{
	size_t plen = strlen(prefix);

	if (!strncmp(name, prefix, plen))
		name += plen;
	printf(" %s %.0fns/%llu", name,
	       (double)info->run_time_ns / (double)info->run_cnt,
	       (unsigned long long)info->run_cnt);
}

int gs_print_loaded_bpf_cost(const char *who, const char *prefix)
{
	__u32 id = 0;
	int n = 0, end;

	if (!stats_on()) {
		errno = ENODATA;
		return -1;
	}
	printf("%s: BPF cost per call (kernel.bpf_stats_enabled=1):", who);
	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue; /* gone since listed */
		if (!bpf_prog_get_info_by_fd(fd, &info, &len) && info.run_cnt) {
			print_cost(info.name, prefix, &info);
			n++;
		}
		close(fd);
	}
	end = errno; /* ENOENT: past the last id */
	printf("\n");
	fflush(stdout);
	errno = end;
	return end == ENOENT ? n : -1;
}

void gs_print_bpf_run_cost(struct bpf_object *obj, const char *who,
			   const char *prefix)
{
	struct bpf_program *prog;

	if (!stats_on())
		return;
	printf("%s: BPF cost per call (kernel.bpf_stats_enabled=1):", who);
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		const char *name = bpf_program__name(prog);

		if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len) ||
		    !info.run_cnt)
			continue;
		print_cost(name, prefix, &info);
	}
	printf("\n");
	fflush(stdout);
}
