// SPDX-License-Identifier: GPL-2.0-only
#include "futex.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpflog.h"
#include "skel.h"
#include "sysinfo.h"
#include "util.h"

static void futex_progs(struct lavd *skel, struct lavd_futex *f)
{
	const struct lavd_futex_prog all[LAVD_NR_FUTEX_PROGS] = {
		{ skel->progs.lavd_fexit_futex_wait, "__futex_wait", NULL },
		{ skel->progs.lavd_fexit_futex_wait_old, "futex_wait", NULL },
		{ skel->progs.lavd_fexit_futex_waitv, "futex_wait_multiple", NULL },
		{ skel->progs.lavd_fexit_futex_wait_rq_pi, "futex_wait_requeue_pi", NULL },
		{ skel->progs.lavd_fexit_futex_lock_pi, "futex_lock_pi", NULL },
		{ skel->progs.lavd_fexit_futex_wake, "futex_wake", NULL },
		{ skel->progs.lavd_fexit_futex_wake_op, "futex_wake_op", NULL },
		{ skel->progs.lavd_fexit_futex_unlock_pi, "futex_unlock_pi", NULL },
		{ skel->progs.lavd_tp_enter_futex, NULL, NULL },
		{ skel->progs.lavd_tp_exit_futex, NULL, NULL },
		{ skel->progs.lavd_tp_exit_futex_wait, NULL, NULL },
		{ skel->progs.lavd_tp_exit_futex_waitv, NULL, NULL },
		{ skel->progs.lavd_tp_exit_futex_wake, NULL, NULL },
	};

	memcpy(f->prog, all, sizeof(all));
	f->nr = LAVD_NR_FUTEX_PROGS;
}

static bool kernel_has_func(const struct btf *kbtf, const char *name)
{
	return kbtf && btf__find_by_name_kind(kbtf, name, BTF_KIND_FUNC) > 0;
}

/* The tracepoint a tp program attaches to exists (tracefs mounted). */
static bool tracepoint_exists(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);	/* tracepoint/syscalls/x */
	const char *ev = strchr(sec, '/');

	return ev && gs_tracepoint_exists(NULL, ev + 1);
}

int lavd_futex_choose(struct lavd *skel, const struct btf *kbtf,
		      bool want_fexit, bool off)
{
	struct lavd_futex f;
	bool has_new_wait = kernel_has_func(kbtf, "__futex_wait");
	bool fexit = want_fexit &&
		(has_new_wait || kernel_has_func(kbtf, "futex_wait")) &&
		kernel_has_func(kbtf, "futex_wake");
	int nr = 0;

	futex_progs(skel, &f);
	for (int i = 0; i < f.nr; i++) {
		const struct lavd_futex_prog *fp = &f.prog[i];
		bool on;

		if (off)
			on = false;
		else if (fp->target)
			on = fexit && kernel_has_func(kbtf, fp->target) &&
			     !(has_new_wait && !strcmp(fp->target, "futex_wait"));
		else
			on = !fexit && tracepoint_exists(fp->prog);
		bpf_program__set_autoload(fp->prog, on);
		nr += on;
	}
	if (!nr)
		return LAVD_FUTEX_OFF;
	return fexit ? LAVD_FUTEX_FEXIT : LAVD_FUTEX_TP;
}

void lavd_futex_detach(struct lavd_futex *f)
{
	for (int i = 0; i < f->nr; i++) {
		if (f->prog[i].link)
			bpf_link__destroy(f->prog[i].link);
		f->prog[i].link = NULL;
	}
}

int lavd_futex_attach(struct lavd_futex *f, struct lavd *skel)
{
	futex_progs(skel, f);
	for (int i = 0; i < f->nr; i++) {
		struct lavd_futex_prog *fp = &f->prog[i];

		if (!bpf_program__autoload(fp->prog))
			continue;
		fp->link = bpf_program__attach(fp->prog);
		if (!fp->link) {
			gs_warn("futex tracking: attaching %s failed: %s",
				bpf_program__name(fp->prog), strerror(errno));
			lavd_futex_detach(f);
			return -1;
		}
	}
	return 0;
}

bool lavd_futex_fexit_refused(void)
{
	const char *p = lavd_bpflog_text();

	while (p && (p = strstr(p, "prog 'lavd_fexit_")) != NULL) {
		const char *eol = strchr(p, '\n');
		const char *f = strstr(p, "failed to load");

		if (f && (!eol || f < eol))
			return true;
		p = eol;
	}
	return false;
}
