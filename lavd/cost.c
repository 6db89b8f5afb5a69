// SPDX-License-Identifier: GPL-2.0-only
#include "cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinfo.h"
#include "skel.h"
#include "util.h"

void lavd_print_load_cost(struct lavd *skel, double secs)
{
	struct bpf_program *prog;
	char line[4096];	/* ~70 programs of 30 characters */
	size_t off = 0;
	unsigned long long total = 0;

	line[0] = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len) != 0)
			continue;
		total += info.verified_insns;
		if (off < sizeof(line))
			off += (size_t)snprintf(line + off, sizeof(line) - off, " %s %u",
						bpf_program__name(prog), info.verified_insns);
	}
	printf("lavd: loaded in %.2f s; verified instructions %llu:%s\n", secs, total, line);
	fflush(stdout);
}

static int count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (next(id, &id) == 0)
		n++;
	return n;
}

int lavd_count_bpf_objects(void)
{
	lavd_need_privileges();
	printf("bpf objects: progs %d maps %d links %d\n",
	       count_ids(bpf_prog_get_next_id), count_ids(bpf_map_get_next_id),
	       count_ids(bpf_link_get_next_id));
	return EXIT_OK;
}
