// SPDX-License-Identifier: GPL-2.0-only
/* Could lavd load on this kernel? (kcheck.h) */
#include "kcheck.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "sysinfo.h"

/* Each row: the names a kernel may give one kfunc (any one will do). */
static const char *const kfuncs[][3] = {
	{ "scx_bpf_dsq_insert___v2", "scx_bpf_dsq_insert", "scx_bpf_dispatch" },
	{ "__scx_bpf_dsq_insert_vtime", "scx_bpf_dsq_insert_vtime",
	  "scx_bpf_dispatch_vtime" },
	{ "scx_bpf_dsq_move_to_local___v2", "scx_bpf_dsq_move_to_local",
	  "scx_bpf_consume" },
	{ "scx_bpf_create_dsq" }, { "scx_bpf_dsq_nr_queued" },
	{ "scx_bpf_kick_cpu" }, { "scx_bpf_pick_idle_cpu" },
	{ "scx_bpf_test_and_clear_cpu_idle" }, { "scx_bpf_get_idle_cpumask" },
	{ "scx_bpf_get_idle_smtmask" }, { "scx_bpf_put_idle_cpumask" },
	{ "scx_bpf_task_cpu" }, { "scx_bpf_cpuperf_set" },
	{ "bpf_cpumask_create" }, { "bpf_cpumask_release" },
};

static bool has_func(const struct btf *btf, const char *name)
{
	return name && btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) >= 0;
}

/* The kfuncs missing from btf, named on out; returns how many. */
static int missing_kfuncs(const struct btf *btf, FILE *out)
{
	int missing = 0;

	for (size_t i = 0; i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++) {
		bool any = false;

		for (int j = 0; j < 3; j++)
			any = any || has_func(btf, kfuncs[i][j]);
		if (!any) {
			fprintf(out, "%s%s", missing ? ", " : "kfuncs missing: ",
				kfuncs[i][0]);
			missing++;
		}
	}
	if (missing)
		fprintf(out, "\n");
	return missing;
}

bool lavd_kernel_check(FILE *out)
{
	bool scx = access(GS_SCX_ROOT, F_OK) == 0, ok;
	struct btf *btf;
	int missing;

	fprintf(out, "this kernel: sched_ext %s\n", scx ? "yes" :
		"no (" GS_SCX_ROOT " is missing)");
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(out, "this kernel: no BTF (/sys/kernel/btf/vmlinux: %s): "
			"lavd cannot load here\n", strerror(errno));
		return false;
	}
	ok = btf__find_by_name_kind(btf, "sched_ext_ops", BTF_KIND_STRUCT) >= 0;
	fprintf(out, "this kernel: BTF yes, struct sched_ext_ops %s\n",
		ok ? "yes" : "no");
	missing = missing_kfuncs(btf, out);
	btf__free(btf);
	ok = ok && scx && !missing;
	fprintf(out, "this kernel: %s\n", ok ? "lavd can load here" :
		"lavd cannot load here (lavd --check --eevdf: what runs instead)");
	return ok;
}
