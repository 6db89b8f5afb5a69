// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd loader: checks that the kernel can take a sched_ext scheduler,
 * reads the CPU topology, loads the BPF policy (lavd.bpf.c) with the
 * options and topology filled in, attaches it, and stays until SIGINT or
 * SIGTERM, printing statistics on request. On the way out it prints the
 * kernel's exit reason; when the kernel asks for a restart (CPU hotplug)
 * it loads again with the new topology. --monitor watches a running
 * instance's statistics (and, with --monitor-sched-samples, its sampled
 * scheduling decisions) without loading a second scheduler.
 *
 * Futex lock-holder tracking attaches fexit programs to the kernel's futex
 * functions when the kernel has them and allows it, else the futex
 * system-call tracepoints; the path taken is printed at attach and in
 * every statistics line.
 *
 * Topology and energy (issue 6): compute domains, core types and the CPU
 * preference orders come from sysfs or a --topology override file
 * (cpdom.c); the power mode is fixed (--performance/--balanced/
 * --powersave), chosen by the BPF autopilot (default), or follows the
 * platform profile (--autopower, polled once a second, power.c).
 *
 * Exit status: 0 stopped by SIGINT/SIGTERM (or --help/--version);
 * 1 the run failed: no sched_ext, missing privileges, another scheduler
 * loaded, the kernel refused the program, or the kernel ejected lavd
 * (watchdog stall, BPF error, sysrq); 2 bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "intf.h"
#include "kinfo.h"
#include "policy.h"
#include "power.h"
#include "report.h"
#include "topo.h"
#include "util.h"

/* The skeleton spells BPF globals with the kernel's type names. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#include "bpf/lavd.skel.h"

#define SCX_DIR "/sys/kernel/sched_ext"
#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"
#define LOG_KEEP (256 * 1024)

static struct {
	uint64_t slice_min_us, slice_max_us, preempt_shift, pinned_slice_us;
	bool no_wake_sync, partial, verbose;
	bool no_preemption, no_futex_boost, no_slice_boost;
	uint64_t samples;	/* --monitor-sched-samples N per second */
	int preempt_kick;	/* LAVD_KICK_* */
	const char *futex_force;	/* --debug-futex-path fexit|tracepoint */
	double stats_s, monitor_s;
	uint64_t watchdog_ms;
	double stall_after_s;	/* < 0: never */
	bool count_bpf;
	bool verifier_reject;
	const char *sysfs;
	int power_mode;		/* LAVD_PM_* fixed, or LAVD_PM_AUTO */
	bool autopower, no_core_compaction, no_freq_scaling;
	const char *power_opt;	/* the mode option given, for messages */
	const char *topology;	/* --topology FILE */
	const char *profile_file;	/* --power-profile-file FILE (tests) */
} opt = {
	.power_mode = LAVD_PM_AUTO,
	.slice_min_us = LAVD_SLICE_MIN_DFL / 1000,
	.slice_max_us = LAVD_SLICE_MAX_DFL / 1000,
	.preempt_shift = LAVD_PREEMPT_SHIFT_DFL,
	.pinned_slice_us = 5000,
	.stall_after_s = -1,
	.sysfs = "/sys",
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* ---- libbpf messages: kept (for the verifier log tail), shown with -v ---- */

static char *liblog;
static size_t liblog_len;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *msg = NULL, *line;
	int n;

	/* one message can be the whole verifier log: no fixed buffer */
	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		return 0;
	line = msg;
	if ((size_t)n > LOG_KEEP) {
		line += (size_t)n - LOG_KEEP;
		n = LOG_KEEP;
	}
	if (opt.verbose && level != LIBBPF_DEBUG)
		fputs(msg, stderr);
	if (!liblog)
		liblog = calloc(1, LOG_KEEP + 1);
	if (!liblog) {
		free(msg);
		return 0;
	}
	if (liblog_len + (size_t)n > LOG_KEEP) {
		/* drop the oldest text: the tail is what matters */
		size_t keep = LOG_KEEP - (size_t)n;

		if (keep > liblog_len)
			keep = liblog_len;

		memmove(liblog, liblog + liblog_len - keep, keep);
		liblog_len = keep;
	}
	memcpy(liblog + liblog_len, line, (size_t)n);
	liblog_len += (size_t)n;
	liblog[liblog_len] = '\0';
	free(msg);
	return 0;
}

/* The last max_lines lines of what libbpf said (the verifier log ends it). */
static void print_log_tail(int max_lines)
{
	const char *p;
	int lines = 0;

	if (!liblog || !liblog_len) {
		fprintf(stderr, "  (libbpf said nothing; run with -v)\n");
		return;
	}
	p = liblog + liblog_len;
	while (p > liblog) {
		p--;
		if (*p == '\n' && p != liblog + liblog_len - 1 && ++lines >= max_lines) {
			p++;
			break;
		}
	}
	fprintf(stderr, "---- last %d lines of the libbpf/verifier log ----\n%s",
		max_lines, p);
	if (liblog[liblog_len - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "---- end of log ----\n");
}

/* ---- checks before loading ---- */

static void need_sched_ext(void)
{
	char ops[128], state[64];

	switch (lavd_scx_check(SCX_DIR, ops, sizeof(ops), state, sizeof(state))) {
	case LAVD_SCX_MISSING:
		gs_die(EXIT_RUNTIME,
		       "this kernel has no sched_ext; see `make vm-demo` "
		       "(needs Linux >= 6.12 with CONFIG_SCHED_CLASS_EXT=y; "
		       "%s is missing)", SCX_DIR);
	case LAVD_SCX_BUSY:
		if (strcmp(ops, LAVD_NAME) == 0)
			gs_die(EXIT_RUNTIME,
			       "lavd is already running (sched_ext state '%s'); "
			       "watch it with `lavd --monitor 1`", state);
		gs_die(EXIT_RUNTIME,
		       "another sched_ext scheduler is loaded: '%s' (state '%s'); "
		       "stop it first", ops, state);
	case LAVD_SCX_FREE:
		break;
	}
}

/* CAP_SYS_ADMIN and CAP_BPF (or root): loading struct_ops needs both. */
static void need_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { 0 };
	bool admin, bpf;

	if (syscall(SYS_capget, &hdr, data) != 0)
		return;	/* cannot tell: let the kernel decide */
	admin = data[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
	bpf = data[CAP_BPF / 32].effective & (1u << (CAP_BPF % 32));
	if (admin && bpf)
		return;
	gs_die(EXIT_RUNTIME,
	       "loading a scheduler needs root (CAP_SYS_ADMIN and CAP_BPF); "
	       "missing:%s%s (run with sudo)", admin ? "" : " CAP_SYS_ADMIN",
	       bpf ? "" : " CAP_BPF");
}

/* Value of a sched_ext enum member in the running kernel's BTF (0: absent). */
static uint64_t kernel_enum(const struct btf *btf, const char *type,
			    const char *name)
{
	int id = btf ? btf__find_by_name(btf, type) : -1;
	const struct btf_type *t;

	if (id < 0)
		return 0;
	t = btf__type_by_id(btf, id);
	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (int i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name))
				return (uint32_t)e[i].val;
	} else if (btf_is_enum64(t)) {
		const struct btf_enum64 *e = btf_enum64(t);

		for (int i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name))
				return btf_enum64_value(&e[i]);
	}
	return 0;
}

static long read_long(const char *path, long dflt)
{
	char buf[64];

	if (gs_read_text(path, buf, sizeof(buf)) < 0)
		return dflt;
	return strtol(buf, NULL, 10);
}

/* ---- statistics ---- */

/* A copy no refill tore (intf.h, seq_end): the refill takes microseconds
 * every 10 ms, so a few tries 100 us apart find one. */
static int read_stats(int fd, struct lavd_stats *st)
{
	__u32 zero = 0;

	for (int i = 0; i < 100; i++) {
		if (bpf_map_lookup_elem(fd, &zero, st) != 0)
			return -1;
		if (st->magic != LAVD_STATS_MAGIC)
			return -1;
		if (lavd_stats_consistent(st))
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	}
	return -1;
}

static double now_s(void)
{
	return (double)gs_now_ns() / 1e9;
}

static void print_stats(const struct lavd_stats *prev, const struct lavd_stats *cur,
			double secs, double since)
{
	char line[512], energy[512];

	lavd_stats_line(line, sizeof(line), prev, cur, secs);
	lavd_energy_line(energy, sizeof(energy), prev, cur, secs, cur->have_little);
	printf("[%7.1fs] %s | %s\n", since, line, energy);
	fflush(stdout);
}

/* run_time_ns / run_cnt of each callback, when kernel.bpf_stats_enabled=1. */
static void print_prog_costs(struct lavd *skel)
{
	struct bpf_program *prog;

	if (read_long(BPF_STATS_SYSCTL, 0) != 1)
		return;
	printf("lavd: BPF cost per call (kernel.bpf_stats_enabled=1):");
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		const char *name = bpf_program__name(prog);

		if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len) ||
		    !info.run_cnt)
			continue;
		if (!strncmp(name, "lavd_", 5))
			name += 5;
		printf(" %s %.0fns/%llu", name,
		       (double)info.run_time_ns / (double)info.run_cnt,
		       (unsigned long long)info.run_cnt);
	}
	printf("\n");
	fflush(stdout);
}

/* ---- futex lock-holder programs ---- */

struct futex_prog {
	struct bpf_program *prog;
	const char *target;	/* kernel function (fexit) or NULL (tracepoint) */
	struct bpf_link *link;
};

#define NR_FUTEX_PROGS 13

static int futex_progs(struct lavd *skel, struct futex_prog *fp)
{
	struct futex_prog all[NR_FUTEX_PROGS] = {
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

	memcpy(fp, all, sizeof(all));
	return NR_FUTEX_PROGS;
}

/* The tracepoint a tp program attaches to exists (tracefs mounted). */
static bool tracepoint_exists(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);	/* tracepoint/syscalls/x */
	const char *ev = strchr(sec, '/');
	char path[256];

	if (!ev)
		return false;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events%s/id",
			 i ? "/sys/kernel/debug/tracing" : "/sys/kernel/tracing", ev);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

/*
 * Which futex programs load. With want_fexit: the fexit programs whose
 * kernel function exists in the kernel's BTF (__futex_wait replaces
 * futex_wait when both exist), if the central ones (a wait and
 * futex_wake) are there. Otherwise the tracepoint programs whose event
 * exists. Returns the LAVD_FUTEX_* path the loaded programs give.
 */
static int choose_futex_progs(struct lavd *skel, const struct btf *kbtf,
			      bool want_fexit)
{
	struct futex_prog fp[NR_FUTEX_PROGS];
	int n = futex_progs(skel, fp), nr = 0;
	bool has_new_wait = kbtf &&
		btf__find_by_name_kind(kbtf, "__futex_wait", BTF_KIND_FUNC) > 0;
	bool fexit = want_fexit && kbtf &&
		(has_new_wait ||
		 btf__find_by_name_kind(kbtf, "futex_wait", BTF_KIND_FUNC) > 0) &&
		btf__find_by_name_kind(kbtf, "futex_wake", BTF_KIND_FUNC) > 0;

	for (int i = 0; i < n; i++) {
		bool on;

		if (opt.no_futex_boost)
			on = false;
		else if (fp[i].target)
			on = fexit &&
			     btf__find_by_name_kind(kbtf, fp[i].target, BTF_KIND_FUNC) > 0 &&
			     !(has_new_wait && !strcmp(fp[i].target, "futex_wait"));
		else
			on = !fexit && tracepoint_exists(fp[i].prog);
		bpf_program__set_autoload(fp[i].prog, on);
		nr += on;
	}
	if (!nr)
		return LAVD_FUTEX_OFF;
	return fexit ? LAVD_FUTEX_FEXIT : LAVD_FUTEX_TP;
}

static void detach_futex(struct futex_prog *fp, int n)
{
	for (int i = 0; i < n; i++) {
		if (fp[i].link)
			bpf_link__destroy(fp[i].link);
		fp[i].link = NULL;
	}
}

/*
 * Attaches the loaded futex programs (links stay in fp; detach_futex()
 * frees them). Returns 0, or -1 after detaching what was attached.
 */
static int attach_futex(struct futex_prog *fp, int n)
{
	for (int i = 0; i < n; i++) {
		if (!bpf_program__autoload(fp[i].prog))
			continue;
		fp[i].link = bpf_program__attach(fp[i].prog);
		if (!fp[i].link) {
			gs_warn("futex tracking: attaching %s failed: %s",
				bpf_program__name(fp[i].prog), strerror(errno));
			detach_futex(fp, n);
			return -1;
		}
	}
	return 0;
}

/* Did the load fail on one of the fexit futex programs (libbpf's log)? */
static bool fexit_refused(void)
{
	const char *p = liblog;

	while (p && (p = strstr(p, "prog 'lavd_fexit_")) != NULL) {
		const char *eol = strchr(p, '\n');
		const char *f = strstr(p, "failed to load");

		if (f && (!eol || f < eol))
			return true;
		p = eol;
	}
	return false;
}

/* ---- sampled scheduling decisions (ring buffer) ---- */

static double samples_t0;

static int on_sample(void *ctx, void *data, size_t len)
{
	char line[512];

	(void)ctx;
	if (len < sizeof(struct lavd_sample))
		return 0;
	lavd_sample_line(line, sizeof(line), data,
			 (double)((const struct lavd_sample *)data)->now_ns / 1e9 -
			 samples_t0);
	puts(line);
	return 0;
}

/* Asks the instance whose control map is ctl_fd for N samples a second. */
static int set_samples(int ctl_fd, uint64_t n)
{
	struct lavd_ctl c = { .samples_per_s = n, .owner_pid = n ? (uint64_t)getpid() : 0 };
	__u32 zero = 0;

	return bpf_map_update_elem(ctl_fd, &zero, &c, BPF_ANY);
}

/* ---- one load-attach-run cycle ---- */

enum cycle_result { CYCLE_STOPPED, CYCLE_RESTART, CYCLE_FAILED };

/*
 * The topology lavd runs on: sysfs, then the --topology override, then
 * core types, compute domains and preference orders. Returns 0, or -1
 * with a message in err.
 */
static int read_topology(struct lavd_topo *t, char *err, size_t errlen)
{
	if (lavd_topo_read(opt.sysfs, t, err, errlen) != 0)
		return -1;
	if (opt.topology && lavd_topo_override(opt.topology, t, err, errlen) != 0)
		return -1;
	return lavd_topo_domains(t, err, errlen);
}

static int fill_topology(struct lavd *skel, struct lavd_topo *t)
{
	char err[512];
	int smallest = 1024, total = 0;

	if (read_topology(t, err, sizeof(err)) != 0) {
		gs_warn("reading the CPU topology: %s", err);
		return -1;
	}
	skel->rodata->nr_cpu_ids = (__u32)t->nr_cpu_ids;
	skel->rodata->nr_cpus_online = (__u32)t->nr_online;
	for (int c = 0; c < t->nr_cpu_ids; c++) {
		skel->rodata->cpu_core[c] = (__u16)t->core[c];
		skel->rodata->cpu_capacity[c] = (__u16)t->capacity[c];
		skel->rodata->cpu_dom[c] = t->online[c] ? (__u8)t->dom[c] : 255;
		skel->rodata->cpu_big[c] = t->big[c];
		if (!t->online[c])
			continue;
		total += t->capacity[c];
		if (t->capacity[c] < smallest)
			smallest = t->capacity[c];
	}
	skel->rodata->nr_doms = (__u32)t->nr_doms;
	for (int d = 0; d < t->nr_doms; d++) {
		const struct lavd_dom_info *di = &t->doms[d];

		skel->rodata->dom_big[d] = di->big;
		skel->rodata->dom_nr_nbr[d] = (__u8)di->nr_nbr;
		for (int i = 0; i < di->nr_nbr; i++) {
			skel->rodata->dom_nbr[d][i] = (__u8)di->nbr[i];
			skel->rodata->dom_nbr_dist[d][i] = (__u8)di->nbr_dist[i];
		}
	}
	skel->rodata->nr_order = (__u32)t->nr_order;
	for (int i = 0; i < t->nr_order; i++) {
		skel->rodata->cpu_order[0][i] = (__u16)t->order_perf[i];
		skel->rodata->cpu_order[1][i] = (__u16)t->order_save[i];
	}
	skel->rodata->have_little = t->have_little;
	skel->rodata->smt_on = t->smt;
	skel->rodata->total_cap = (__u32)total;
	skel->rodata->smallest_cap = (__u32)smallest;
	skel->rodata->no_core_compaction = opt.no_core_compaction;
	skel->rodata->no_freq_scaling = opt.no_freq_scaling;
	return 0;
}

/* ---- power mode: fixed, autopilot, or the platform profile ---- */

static int profile_mode = -2;	/* last mode --autopower read (-2: none yet) */

/*
 * --autopower: the mode the platform profile asks for (LAVD_PM_AUTO when
 * it says nothing or cannot be read); announces every change.
 */
static int autopower_mode(void)
{
	char src[300], val[64];
	int m = lavd_power_profile(opt.sysfs, opt.profile_file, src, sizeof(src),
				   val, sizeof(val));

	if (m < 0)
		m = LAVD_PM_AUTO;
	if (m != profile_mode) {
		if (val[0])
			printf("lavd: power profile '%s' (%s): %s\n", val, src,
			       m == LAVD_PM_AUTO ? "autopilot" : lavd_power_mode_str((__u64)m));
		else
			printf("lavd: no power profile to follow (%s): autopilot\n",
			       opt.profile_file ? opt.profile_file :
			       "no platform_profile, no energy_performance_preference");
		fflush(stdout);
		profile_mode = m;
	}
	return m;
}

static __u32 power_request(void)
{
	if (opt.autopower)
		return (__u32)autopower_mode();
	return (__u32)opt.power_mode;
}

static void report_exit(struct lavd *skel, bool ours)
{
	const struct lavd_exit_info *u = &skel->data->uei;

	if (ours && u->kind == LAVD_SCX_EXIT_UNREG) {
		printf("lavd: exit: %s (kind %d)\n",
		       u->reason[0] ? u->reason : lavd_exit_kind_str(u->kind), u->kind);
		return;
	}
	printf("lavd: the kernel stopped lavd: %s (kind %d, %s)%s%s\n",
	       u->reason[0] ? u->reason : "no reason given", u->kind,
	       lavd_exit_kind_str(u->kind), u->msg[0] ? ": " : "", u->msg);
	if (u->kind >= LAVD_SCX_EXIT_ERROR && skel->bss->uei_dump[0]) {
		if (opt.verbose)
			printf("---- kernel debug dump ----\n%s\n---- end of dump ----\n",
			       skel->bss->uei_dump);
		else
			printf("lavd: (run with -v for the kernel's debug dump)\n");
	}
	fflush(stdout);
}

/* Opens the skeleton and fills in topology and options; NULL on failure. */
static struct lavd *open_configured(struct lavd_topo *topo, bool want_fexit,
				    int *path, unsigned hz)
{
	struct lavd *skel;
	struct btf *kbtf;
	uint64_t flags;

	skel = lavd__open();
	if (!skel) {
		gs_warn("cannot open the BPF object: %s", strerror(errno));
		print_log_tail(20);
		return NULL;
	}
	if (fill_topology(skel, topo) != 0) {
		lavd__destroy(skel);
		return NULL;
	}
	skel->rodata->slice_min_ns = opt.slice_min_us * 1000;
	skel->rodata->slice_max_ns = opt.slice_max_us * 1000;
	skel->rodata->preempt_shift = (__u32)opt.preempt_shift;
	skel->rodata->no_wake_sync = opt.no_wake_sync;
	skel->rodata->no_preemption = opt.no_preemption;
	skel->rodata->no_futex_boost = opt.no_futex_boost;
	skel->rodata->no_slice_boost = opt.no_slice_boost;
	skel->rodata->pinned_slice_ns = opt.pinned_slice_us * 1000;
	skel->rodata->preempt_kick = (__u32)opt.preempt_kick;
	skel->rodata->tick_ns_cfg = hz ? 1000000000ULL / hz : 0;
	skel->rodata->verbose = opt.verbose;
	skel->rodata->debug_verifier_reject = opt.verifier_reject;
	skel->data->power_req = power_request();

	/* Ops flags the running kernel knows: ENQ_MIGRATION_DISABLED came
	 * after 6.12 and an unknown flag would make the load fail. ENQ_LAST:
	 * a task that should leave its CPU (outside the active set, or a
	 * big-core task on a little core) comes back through ops.enqueue
	 * when its slice ends (power.bpf.h). */
	kbtf = btf__load_vmlinux_btf();
	flags = kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_EXITING") |
		kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_MIGRATION_DISABLED") |
		kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_LAST");
	if (opt.partial)
		flags |= kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_SWITCH_PARTIAL");
	*path = choose_futex_progs(skel, kbtf, want_fexit);
	btf__free(kbtf);
	skel->struct_ops.lavd_ops->flags = flags;
	skel->struct_ops.lavd_ops->timeout_ms = (unsigned int)opt.watchdog_ms;
	skel->struct_ops.lavd_ops->exit_dump_len = LAVD_EXIT_DUMP_LEN;
	skel->struct_ops.lavd_ops->hotplug_seq =
		(unsigned long long)read_long(SCX_DIR "/hotplug_seq", 0);
	return skel;
}

/*
 * -v: how long the load took (mostly the verifier) and how many
 * instructions it verified per program, the figures to watch when a
 * change makes loading slow.
 */
static void print_load_cost(struct lavd *skel, double secs)
{
	struct bpf_program *prog;
	char line[1024];
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

/* The attach message's topology and energy line. */
static void print_energy_setup(const struct lavd_topo *t)
{
	char doms[512] = "";
	size_t off = 0;

	for (int d = 0; d < t->nr_doms && d < 8 && off < sizeof(doms); d++)
		off += (size_t)snprintf(doms + off, sizeof(doms) - off,
					"%s%d:node%d/llc%d/%s/%dcpu", d ? " " : " [", d,
					t->doms[d].node, t->doms[d].llc,
					t->doms[d].big ? "big" : "little", t->doms[d].nr_cpus);
	if (t->nr_doms > 8 && off < sizeof(doms))
		off += (size_t)snprintf(doms + off, sizeof(doms) - off, " ...");
	if (off && off < sizeof(doms))
		snprintf(doms + off, sizeof(doms) - off, "]");
	printf("lavd: %d node%s, %d compute domain%s%s, core types %s%s%s%s; "
	       "power %s, core compaction %s, cpufreq control %s\n",
	       t->nr_nodes, t->nr_nodes == 1 ? "" : "s", t->nr_doms,
	       t->nr_doms == 1 ? "" : "s", doms, t->type_src,
	       t->have_little ? " (big and little)" : " (all alike)",
	       t->override[0] ? ", topology override " : "", t->override,
	       opt.autopower ? "autopower (follows the platform profile)" :
	       opt.power_mode == LAVD_PM_AUTO ? "autopilot" :
	       lavd_power_mode_str((__u64)opt.power_mode),
	       opt.no_core_compaction ? "off" : "on",
	       opt.no_freq_scaling ? "off" : "on");
	fflush(stdout);
}

static enum cycle_result run_once(int cycle)
{
	struct lavd *skel = NULL;
	struct bpf_link *link = NULL;
	struct lavd_topo topo;
	struct lavd_stats prev = { 0 }, cur;
	struct futex_prog fp[NR_FUTEX_PROGS];
	struct ring_buffer *rb = NULL;
	enum cycle_result res = CYCLE_FAILED;
	double t_attach, t_load, next_stats, last_stats, next_power = 0;
	bool stalled = false;
	bool want_fexit = !opt.futex_force || !strcmp(opt.futex_force, "fexit");
	int err, stats_fd, nfp = 0, path = LAVD_FUTEX_OFF;
	static unsigned hz;
	static char hz_src[32];

	if (!hz_src[0])
		hz = lavd_kernel_hz(hz_src, sizeof(hz_src));
	/*
	 * Futex tracking by fexit where the kernel has the functions; if the
	 * kernel refuses those programs (load or attach), everything is
	 * loaded once more with the syscall tracepoints instead.
	 */
	for (int attempt = 0; ; attempt++) {
		liblog_len = 0;
		skel = open_configured(&topo, want_fexit && attempt == 0, &path, hz);
		if (!skel)
			return CYCLE_FAILED;
		t_load = now_s();
		err = lavd__load(skel);
		if (!err && opt.verbose)
			print_load_cost(skel, now_s() - t_load);
		if (err) {
			if (path == LAVD_FUTEX_FEXIT && fexit_refused()) {
				gs_warn("the kernel refused the fexit futex programs (%s); "
					"using the futex tracepoints", strerror(-err));
				lavd__destroy(skel);
				continue;
			}
			gs_warn("the kernel refused to load the BPF scheduler: %s",
				strerror(-err));
			print_log_tail(40);
			goto out;
		}
		nfp = futex_progs(skel, fp);
		if (path == LAVD_FUTEX_OFF || attach_futex(fp, nfp) == 0)
			break;
		if (path == LAVD_FUTEX_FEXIT) {
			gs_warn("using the futex tracepoints instead of fexit");
			lavd__destroy(skel);
			nfp = 0;
			continue;
		}
		path = LAVD_FUTEX_OFF;
		break;
	}
	if (path == LAVD_FUTEX_OFF && !opt.no_futex_boost)
		gs_warn("futex lock-holder tracking is unavailable (no fexit target "
			"or syscall tracepoint could be used)");
	skel->bss->futex_path = (__u64)path;

	link = bpf_map__attach_struct_ops(skel->maps.lavd_ops);
	if (!link) {
		int e = errno;
		char ops[128], state[64];

		if (skel->data->uei.kind) {
			/* ops.init failed or the kernel aborted the enable */
			report_exit(skel, false);
			res = skel->data->uei.exit_code & LAVD_SCX_ECODE_ACT_RESTART ?
			      CYCLE_RESTART : CYCLE_FAILED;
		} else if (lavd_scx_check(SCX_DIR, ops, sizeof(ops), state,
					  sizeof(state)) == LAVD_SCX_BUSY &&
			   strcmp(ops, LAVD_NAME)) {
			gs_warn("another sched_ext scheduler is loaded: '%s' "
				"(state '%s'); stop it first", ops, state);
		} else {
			gs_warn("attaching the scheduler failed: %s", strerror(e));
			print_log_tail(20);
		}
		goto out;
	}

	t_attach = now_s();
	printf("lavd: %s %s: %d CPUs (%d online), %d LLC%s%s, %d cores%s, "
	       "capacity %s, slice %llu-%llu us%s%s\n",
	       cycle ? "restarted" : "attached", LAVD_VERSION, topo.nr_cpu_ids,
	       topo.nr_online, topo.nr_llcs, topo.nr_llcs == 1 ? "" : "s",
	       topo.llc_from_cache ? "" : " (no cache info)", topo.nr_cores,
	       topo.smt ? " with SMT" : "", topo.capacity_src,
	       (unsigned long long)opt.slice_min_us,
	       (unsigned long long)opt.slice_max_us,
	       opt.partial ? ", partial (SCHED_EXT tasks only)" : "",
	       opt.no_wake_sync ? ", no wake sync" : "");
	printf("lavd: preemption %s (shift %llu, %s), futex boost %s, slice boost %s, "
	       "pinned slice %llu us, tick: HZ %u (%s)\n",
	       opt.no_preemption ? "off" : "on", (unsigned long long)opt.preempt_shift,
	       opt.preempt_kick == LAVD_KICK_NEVER ? "slice := 1 only" :
	       opt.preempt_kick == LAVD_KICK_ALWAYS ? "IPI always" : "IPI when the tick is late",
	       opt.no_futex_boost ? "off" : lavd_futex_path_str((__u64)path),
	       opt.no_slice_boost ? "off" : "on",
	       (unsigned long long)opt.pinned_slice_us, hz,
	       hz ? hz_src : "unknown: learnt from the ticks");
	print_energy_setup(&topo);

	if (opt.samples) {
		samples_t0 = t_attach;
		rb = ring_buffer__new(bpf_map__fd(skel->maps.lavd_samples), on_sample,
				      NULL, NULL);
		if (!rb || set_samples(bpf_map__fd(skel->maps.lavd_ctl), opt.samples))
			gs_warn("per-task samples are unavailable: %s", strerror(errno));
	}

	stats_fd = bpf_map__fd(skel->maps.lavd_stats);
	next_stats = last_stats = t_attach + opt.stats_s;
	last_stats = t_attach;
	for (;;) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		double t;

		if (__atomic_load_n(&skel->data->uei.kind, __ATOMIC_ACQUIRE)) {
			/* The kernel stopped us (watchdog, error, hotplug). */
			report_exit(skel, false);
			res = skel->data->uei.exit_code & LAVD_SCX_ECODE_ACT_RESTART ?
			      CYCLE_RESTART : CYCLE_FAILED;
			if (res == CYCLE_RESTART)
				printf("lavd: the kernel asked for a restart "
				       "(CPU hotplug): reloading\n");
			break;
		}
		if (stop_sig) {
			bpf_link__destroy(link);	/* unregisters: ops.exit runs */
			link = NULL;
			report_exit(skel, true);
			res = CYCLE_STOPPED;
			break;
		}
		if (rb)
			ring_buffer__consume(rb);
		t = now_s();
		if (opt.stall_after_s >= 0 && !stalled &&
		    t - t_attach >= opt.stall_after_s) {
			printf("lavd: debug: stalling dispatch now (fault injection); "
			       "the watchdog should eject lavd\n");
			fflush(stdout);
			stalled = true;
			__atomic_store_n(&skel->bss->debug_stall, 1, __ATOMIC_RELEASE);
		}
		if (opt.autopower && t >= next_power) {
			__atomic_store_n(&skel->data->power_req, (__u32)autopower_mode(),
					 __ATOMIC_RELEASE);
			next_power = t + 1.0;
		}
		if (opt.stats_s > 0 && t >= next_stats) {
			if (read_stats(stats_fd, &cur) == 0) {
				print_stats(&prev, &cur, t - last_stats, t - t_attach);
				prev = cur;
			}
			last_stats = t;
			next_stats += opt.stats_s;
			if (next_stats < t)
				next_stats = t + opt.stats_s;
		}
		nanosleep(&ts, NULL);
	}
	if (rb) {
		ring_buffer__consume(rb);
		ring_buffer__free(rb);
	}
	print_prog_costs(skel);
out:
	if (link)
		bpf_link__destroy(link);
	detach_futex(fp, nfp);
	lavd__destroy(skel);
	return res;
}

/* ---- --monitor: a running instance's statistics, read-only ---- */

/* A map of a running instance by name (and value size); -1 if none. */
static int find_map(const char *name, __u32 value_size, __u32 flags)
{
	__u32 id = 0;

	while (bpf_map_get_next_id(id, &id) == 0) {
		LIBBPF_OPTS(bpf_get_fd_by_id_opts, o, .open_flags = flags);
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id_opts(id, &o);

		if (fd < 0)
			continue;
		if (bpf_map_get_info_by_fd(fd, &info, &len) == 0 &&
		    !strcmp(info.name, name) && info.value_size == value_size)
			return fd;
		close(fd);
	}
	return -1;
}

static int ctl_fd_mon = -1;

/* The monitor's sample request ends with it (if it is still ours). */
static void monitor_release_samples(void)
{
	struct lavd_ctl c;
	__u32 zero = 0;

	if (ctl_fd_mon < 0)
		return;
	if (bpf_map_lookup_elem(ctl_fd_mon, &zero, &c) == 0 &&
	    c.owner_pid == (uint64_t)getpid())
		set_samples(ctl_fd_mon, 0);
	close(ctl_fd_mon);
	ctl_fd_mon = -1;
}

/*
 * Samples of a running instance: its ring buffer and control map. Another
 * reader that is still alive keeps them (two readers would each get part
 * of the samples).
 */
static struct ring_buffer *monitor_samples(void)
{
	struct ring_buffer *rb;
	struct lavd_ctl c;
	__u32 zero = 0;
	int rb_fd;

	ctl_fd_mon = find_map(LAVD_CTL_MAP, sizeof(struct lavd_ctl), 0);
	rb_fd = find_map(LAVD_SAMPLES_MAP, 0, 0);
	if (ctl_fd_mon < 0 || rb_fd < 0)
		gs_die(EXIT_RUNTIME, "the running lavd has no sample ring buffer "
		       "(an older version?)");
	if (bpf_map_lookup_elem(ctl_fd_mon, &zero, &c) == 0 && c.samples_per_s &&
	    c.owner_pid && c.owner_pid != (uint64_t)getpid() &&
	    kill((pid_t)c.owner_pid, 0) == 0)
		gs_die(EXIT_RUNTIME, "the running lavd's samples are already read by "
		       "pid %llu", (unsigned long long)c.owner_pid);
	rb = ring_buffer__new(rb_fd, on_sample, NULL, NULL);
	close(rb_fd);
	if (!rb || set_samples(ctl_fd_mon, opt.samples))
		gs_die(EXIT_RUNTIME, "cannot read the running lavd's samples: %s",
		       strerror(errno));
	return rb;
}

static int run_monitor(void)
{
	struct lavd_stats prev, cur;
	struct ring_buffer *rb = NULL;
	char ops[128], state[64];
	double t0, last, next;
	int fd;

	if (lavd_scx_check(SCX_DIR, ops, sizeof(ops), state, sizeof(state)) ==
	    LAVD_SCX_MISSING)
		gs_die(EXIT_RUNTIME, "this kernel has no sched_ext; see `make vm-demo`");
	need_privileges();
	fd = find_map(LAVD_STATS_MAP, sizeof(struct lavd_stats), BPF_F_RDONLY);
	if (fd < 0 || read_stats(fd, &prev) != 0)
		gs_die(EXIT_RUNTIME, "no running lavd instance found%s%s%s",
		       ops[0] ? " (the loaded scheduler is '" : "", ops,
		       ops[0] ? "')" : "");
	printf("lavd: monitoring the running instance every %.1fs (read-only%s)\n",
	       opt.monitor_s, opt.samples ? "; sampling its decisions" : "");
	fflush(stdout);
	t0 = last = now_s();
	samples_t0 = t0;
	if (opt.samples)
		rb = monitor_samples();
	next = t0 + opt.monitor_s;
	while (!stop_sig) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		double t;

		nanosleep(&ts, NULL);
		if (rb)
			ring_buffer__consume(rb);
		if (stop_sig)
			break;
		t = now_s();
		if (t < next)
			continue;
		next += opt.monitor_s;
		if (read_stats(fd, &cur) != 0)
			gs_die(EXIT_RUNTIME, "reading the statistics map failed");
		if (cur.seq == prev.seq) {
			printf("lavd: the monitored instance stopped publishing "
			       "(sched_ext state '%s')\n",
			       lavd_scx_check(SCX_DIR, ops, sizeof(ops), state,
					      sizeof(state)) == LAVD_SCX_BUSY ?
			       state : "disabled");
			break;
		}
		print_stats(&prev, &cur, t - last, t - t0);
		prev = cur;
		last = t;
	}
	if (rb) {
		ring_buffer__consume(rb);
		ring_buffer__free(rb);
	}
	monitor_release_samples();
	close(fd);
	return EXIT_OK;
}

/* ---- --debug-bpf-objects: for leak checks across load/unload cycles ---- */

static int count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (next(id, &id) == 0)
		n++;
	return n;
}

static int run_count_bpf(void)
{
	need_privileges();
	printf("bpf objects: progs %d maps %d links %d\n",
	       count_ids(bpf_prog_get_next_id), count_ids(bpf_map_get_next_id),
	       count_ids(bpf_link_get_next_id));
	return EXIT_OK;
}

/* ---- command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: lavd [options]\n"
"Load the LAVD scheduler (latency-criticality aware virtual deadline) into\n"
"sched_ext and run it until SIGINT/SIGTERM. Needs root and a kernel with\n"
"CONFIG_SCHED_CLASS_EXT=y (Linux >= 6.12); without one, see `make vm-demo`.\n"
"\n"
"  --slice-min-us N   shortest time slice, microseconds (default %llu)\n"
"  --slice-max-us N   longest time slice, microseconds (default %llu)\n"
"  --preempt-shift N  preemption threshold: the top 1/2^N of the range\n"
"                     between average and maximum lat_cri (0-10, default 6)\n"
"  --no-preemption    never evict a running task for a waking one\n"
"  --no-futex-boost   do not track futex lock holders\n"
"  --no-slice-boost   no longer slices for long runners\n"
"  --pinned-slice-us N  while tasks pinned to a CPU wait for it, nothing\n"
"                     there runs longer than N us (0: no cap; default 5000)\n"
"  --no-wake-sync     do not place a sync wakee on its waker's CPU\n"
"  --partial          schedule only tasks that chose SCHED_EXT\n"
"energy and topology:\n"
"  --autopilot        choose the power mode from the load (default)\n"
"  --performance      every CPU active, big cores preferred\n"
"  --balanced         core compaction, performance preference order\n"
"  --powersave        core compaction, little cores and SMT siblings first\n"
"  --autopower        follow the platform power profile\n"
"                     (/sys/firmware/acpi/platform_profile, else the CPUs'\n"
"                     energy_performance_preference), checked every second\n"
"  --no-core-compaction  keep every CPU active in every mode\n"
"  --no-freq-scaling  do not set cpufreq targets (scx_bpf_cpuperf_set)\n"
"  --topology FILE    override the CPU topology: lines 'cpus LIST [node N]\n"
"                     [llc N] [capacity 1..1024] [type big|little] [smt N]'\n"
"  --stats SEC        print a statistics line every SEC seconds\n"
"  --monitor SEC      do not load: watch a running lavd's statistics\n"
"  --monitor-sched-samples N  print about N sampled scheduling decisions a\n"
"                     second (of this instance, or with --monitor of the\n"
"                     running one)\n"
"  -v, --verbose      libbpf messages, and the kernel's dump on errors\n"
"  --version          print the version\n"
"  -h, --help         this help\n"
"debugging:\n"
"  --watchdog-ms MS   sched_ext watchdog timeout (default: kernel's, 30 s)\n"
"  --debug-stall-after SEC  stop dispatching SEC seconds after attaching,\n"
"                     to test the watchdog ejection (fault injection)\n"
"  --debug-bpf-objects  print how many BPF programs, maps and links the\n"
"                     kernel holds, and exit (leak checks)\n"
"  --debug-verifier-reject  load a variant the verifier must refuse (tests\n"
"                     the error path: exit 1 with the verifier log's tail)\n"
"  --sysfs-root DIR   read the CPU topology under DIR instead of /sys\n"
"  --debug-preempt-kick auto|never|always  how an eviction takes effect:\n"
"                     IPI when the victim's next tick comes after the\n"
"                     wakee's burst would end (auto), slice := 1 only\n"
"                     (never, the reference), IPI always\n"
"  --debug-futex-path fexit|tracepoint  force the futex attach path\n"
"  --power-profile-file FILE  --autopower reads FILE as the platform\n"
"                     profile (tests)\n"
"\n"
"exit status: 0 stopped by SIGINT/SIGTERM; 1 failed (no sched_ext, not\n"
"root, another scheduler loaded, verifier rejection, ejected by the\n"
"kernel); 2 bad usage\n",
		(unsigned long long)(LAVD_SLICE_MIN_DFL / 1000),
		(unsigned long long)(LAVD_SLICE_MAX_DFL / 1000));
}

enum {
	OPT_SLICE_MIN = 256, OPT_SLICE_MAX, OPT_PREEMPT_SHIFT, OPT_NO_WAKE_SYNC,
	OPT_PARTIAL, OPT_STATS, OPT_MONITOR, OPT_VERSION, OPT_WATCHDOG,
	OPT_STALL, OPT_SYSFS, OPT_COUNT_BPF, OPT_VERIFIER_REJECT,
	OPT_NO_PREEMPT, OPT_NO_FUTEX, OPT_NO_SBOOST, OPT_PINNED_SLICE, OPT_SAMPLES,
	OPT_PREEMPT_KICK, OPT_FUTEX_PATH, OPT_PERFORMANCE, OPT_BALANCED,
	OPT_POWERSAVE, OPT_AUTOPILOT, OPT_AUTOPOWER, OPT_NO_CC, OPT_NO_FREQ,
	OPT_TOPOLOGY, OPT_PROFILE_FILE,
};

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "slice-min-us", required_argument, NULL, OPT_SLICE_MIN },
		{ "slice-max-us", required_argument, NULL, OPT_SLICE_MAX },
		{ "preempt-shift", required_argument, NULL, OPT_PREEMPT_SHIFT },
		{ "no-wake-sync", no_argument, NULL, OPT_NO_WAKE_SYNC },
		{ "partial", no_argument, NULL, OPT_PARTIAL },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "monitor", required_argument, NULL, OPT_MONITOR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ "watchdog-ms", required_argument, NULL, OPT_WATCHDOG },
		{ "debug-stall-after", required_argument, NULL, OPT_STALL },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS },
		{ "debug-bpf-objects", no_argument, NULL, OPT_COUNT_BPF },
		{ "debug-verifier-reject", no_argument, NULL, OPT_VERIFIER_REJECT },
		{ "no-preemption", no_argument, NULL, OPT_NO_PREEMPT },
		{ "no-futex-boost", no_argument, NULL, OPT_NO_FUTEX },
		{ "no-slice-boost", no_argument, NULL, OPT_NO_SBOOST },
		{ "pinned-slice-us", required_argument, NULL, OPT_PINNED_SLICE },
		{ "monitor-sched-samples", required_argument, NULL, OPT_SAMPLES },
		{ "debug-preempt-kick", required_argument, NULL, OPT_PREEMPT_KICK },
		{ "debug-futex-path", required_argument, NULL, OPT_FUTEX_PATH },
		{ "performance", no_argument, NULL, OPT_PERFORMANCE },
		{ "balanced", no_argument, NULL, OPT_BALANCED },
		{ "powersave", no_argument, NULL, OPT_POWERSAVE },
		{ "autopilot", no_argument, NULL, OPT_AUTOPILOT },
		{ "autopower", no_argument, NULL, OPT_AUTOPOWER },
		{ "no-core-compaction", no_argument, NULL, OPT_NO_CC },
		{ "no-freq-scaling", no_argument, NULL, OPT_NO_FREQ },
		{ "topology", required_argument, NULL, OPT_TOPOLOGY },
		{ "power-profile-file", required_argument, NULL, OPT_PROFILE_FILE },
		{ 0 },
	};
	const char *sched_opt = NULL;	/* first option that configures a load */
	int c, li;

	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, ":vh", longopts, &li)) != -1) {
		if (li >= 0 && !sched_opt && c != OPT_STATS && c != OPT_MONITOR &&
		    c != 'v' && c != OPT_SAMPLES && c != OPT_COUNT_BPF)
			sched_opt = longopts[li].name;
		switch (c) {
		case OPT_SLICE_MIN:
			opt.slice_min_us = gs_opt_u64("--slice-min-us", optarg, 50, 1000000);
			break;
		case OPT_SLICE_MAX:
			opt.slice_max_us = gs_opt_u64("--slice-max-us", optarg, 50, 1000000);
			break;
		case OPT_PREEMPT_SHIFT:
			opt.preempt_shift = gs_opt_u64("--preempt-shift", optarg, 0, 10);
			break;
		case OPT_NO_WAKE_SYNC:
			opt.no_wake_sync = true;
			break;
		case OPT_PARTIAL:
			opt.partial = true;
			break;
		case OPT_STATS:
			opt.stats_s = gs_opt_double("--stats", optarg, 0.1, 86400);
			break;
		case OPT_MONITOR:
			opt.monitor_s = gs_opt_double("--monitor", optarg, 0.1, 86400);
			break;
		case 'v':
			opt.verbose = true;
			break;
		case OPT_VERSION:
			printf("lavd %s (gamesched)\n", LAVD_VERSION);
			exit(EXIT_OK);
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case OPT_WATCHDOG:
			opt.watchdog_ms = gs_opt_u64("--watchdog-ms", optarg, 100, 600000);
			break;
		case OPT_STALL:
			opt.stall_after_s = gs_opt_double("--debug-stall-after", optarg,
							  0, 86400);
			break;
		case OPT_SYSFS:
			opt.sysfs = optarg;
			break;
		case OPT_COUNT_BPF:
			opt.count_bpf = true;
			break;
		case OPT_VERIFIER_REJECT:
			opt.verifier_reject = true;
			break;
		case OPT_NO_PREEMPT:
			opt.no_preemption = true;
			break;
		case OPT_NO_FUTEX:
			opt.no_futex_boost = true;
			break;
		case OPT_NO_SBOOST:
			opt.no_slice_boost = true;
			break;
		case OPT_PINNED_SLICE:
			opt.pinned_slice_us = gs_opt_u64("--pinned-slice-us", optarg, 0, 1000000);
			break;
		case OPT_SAMPLES:
			opt.samples = gs_opt_u64("--monitor-sched-samples", optarg, 0,
						 LAVD_SAMPLES_MAX);
			break;
		case OPT_PREEMPT_KICK:
			if (!strcmp(optarg, "auto"))
				opt.preempt_kick = LAVD_KICK_AUTO;
			else if (!strcmp(optarg, "never"))
				opt.preempt_kick = LAVD_KICK_NEVER;
			else if (!strcmp(optarg, "always"))
				opt.preempt_kick = LAVD_KICK_ALWAYS;
			else
				gs_die(EXIT_USAGE, "option --debug-preempt-kick: expected "
				       "auto, never or always, got '%s'", optarg);
			break;
		case OPT_FUTEX_PATH:
			if (strcmp(optarg, "fexit") && strcmp(optarg, "tracepoint"))
				gs_die(EXIT_USAGE, "option --debug-futex-path: expected "
				       "fexit or tracepoint, got '%s'", optarg);
			opt.futex_force = optarg;
			break;
		case OPT_PERFORMANCE:
		case OPT_BALANCED:
		case OPT_POWERSAVE:
		case OPT_AUTOPILOT:
		case OPT_AUTOPOWER:
			if (opt.power_opt && strcmp(opt.power_opt, argv[optind - 1]))
				gs_die(EXIT_USAGE, "options %s and %s exclude each other "
				       "(one power mode)", opt.power_opt, argv[optind - 1]);
			opt.power_opt = argv[optind - 1];
			opt.power_mode = c == OPT_PERFORMANCE ? LAVD_PM_PERFORMANCE :
					 c == OPT_BALANCED ? LAVD_PM_BALANCED :
					 c == OPT_POWERSAVE ? LAVD_PM_POWERSAVE : LAVD_PM_AUTO;
			opt.autopower = c == OPT_AUTOPOWER;
			break;
		case OPT_NO_CC:
			opt.no_core_compaction = true;
			break;
		case OPT_NO_FREQ:
			opt.no_freq_scaling = true;
			break;
		case OPT_TOPOLOGY:
			opt.topology = optarg;
			break;
		case OPT_PROFILE_FILE:
			opt.profile_file = optarg;
			break;
		case ':':
			gs_die(EXIT_USAGE, "option %s needs a value (see --help)",
			       argv[optind - 1]);
		default:
			gs_die(EXIT_USAGE, "unknown option '%s' (see --help)",
			       argv[optind - 1]);
		}
	}
	if (optind < argc)
		gs_die(EXIT_USAGE, "unexpected argument '%s' (see --help)", argv[optind]);
	if (opt.slice_min_us > opt.slice_max_us)
		gs_die(EXIT_USAGE,
		       "--slice-min-us %llu is larger than --slice-max-us %llu",
		       (unsigned long long)opt.slice_min_us,
		       (unsigned long long)opt.slice_max_us);
	if (opt.monitor_s > 0 && sched_opt)
		gs_die(EXIT_USAGE, "--monitor only watches; it takes no scheduler "
		       "options (got --%s)", sched_opt);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	enum cycle_result r;
	int cycle = 0;

	gs_set_prog(argv[0]);
	parse_args(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	libbpf_set_print(libbpf_print);

	if (opt.count_bpf)
		return run_count_bpf();
	if (opt.monitor_s > 0)
		return run_monitor();

	if (opt.profile_file && !opt.autopower)
		gs_die(EXIT_USAGE, "--power-profile-file needs --autopower");
	if (opt.profile_file && access(opt.profile_file, R_OK) != 0)
		gs_die(EXIT_USAGE, "--power-profile-file: cannot read %s: %s",
		       opt.profile_file, strerror(errno));
	if (opt.topology) {
		/* bad input is found before loading anything (exit 2) */
		static struct lavd_topo t;
		char err[512];

		if (read_topology(&t, err, sizeof(err)) != 0)
			gs_die(EXIT_USAGE, "--topology: %s", err);
	}
	need_sched_ext();
	need_privileges();
	do {
		r = run_once(cycle++);
		if (r == CYCLE_RESTART) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	} while (r == CYCLE_RESTART && !stop_sig);
	free(liblog);
	return r == CYCLE_FAILED ? EXIT_RUNTIME : EXIT_OK;
}
