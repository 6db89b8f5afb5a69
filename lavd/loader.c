// SPDX-License-Identifier: GPL-2.0-only
#include "loader.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpfcost.h"
#include "bpflog.h"
#include "cost.h"
#include "kinfo.h"
#include "monitor.h"
#include "power.h"
#include "report.h"
#include "skel.h"
#include "sysinfo.h"
#include "util.h"

/* ---- checks before loading ---- */

void lavd_need_sched_ext(void)
{
	char ops[128], state[64];

	switch (lavd_scx_check(GS_SCX_ROOT, ops, sizeof(ops), state, sizeof(state))) {
	case LAVD_SCX_MISSING:
		gs_die(EXIT_RUNTIME,
		       "this kernel has no sched_ext; see `make vm-demo` "
		       "(needs Linux >= 6.12 with CONFIG_SCHED_CLASS_EXT=y; "
		       "%s is missing); `lavd --eevdf` runs lavd's model on "
		       "this kernel's own scheduler instead", GS_SCX_ROOT);
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

void lavd_loader_init(struct lavd_loader *ld, const struct lavd_opts *opts,
		      const volatile sig_atomic_t *stop)
{
	memset(ld, 0, sizeof(*ld));
	ld->opts = opts;
	ld->stop = stop;
	ld->profile_mode = -2;
}

/* ---- open and configure ---- */

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

/* The CPUs, compute domains and preference orders into the rodata. */
static void set_topology(struct lavd *skel, const struct lavd_topo *t)
{
	int smallest = 1024, total = 0;

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
}

/*
 * --autopower: the mode the platform profile asks for (LAVD_PM_AUTO when
 * it says nothing or cannot be read); announces every change.
 */
static int autopower_mode(struct lavd_loader *ld)
{
	const struct lavd_opts *o = ld->opts;
	char src[300], val[64];
	int m = lavd_power_profile(o->sysfs, o->profile_file, src, sizeof(src),
				   val, sizeof(val));

	if (m < 0)
		m = LAVD_PM_AUTO;
	if (m != ld->profile_mode) {
		if (val[0])
			printf("lavd: power profile '%s' (%s): %s\n", val, src,
			       m == LAVD_PM_AUTO ? "autopilot" : lavd_power_mode_str((__u64)m));
		else
			printf("lavd: no power profile to follow (%s): autopilot\n",
			       o->profile_file ? o->profile_file :
			       "no platform_profile, no energy_performance_preference");
		fflush(stdout);
		ld->profile_mode = m;
	}
	return m;
}

/* The options into the rodata; the power mode into the data (it changes). */
static void set_options(struct lavd_loader *ld)
{
	const struct lavd_opts *o = ld->opts;
	struct lavd *skel = ld->skel;

	skel->rodata->no_core_compaction = o->no_core_compaction;
	skel->rodata->no_freq_scaling = o->no_freq_scaling;
	skel->rodata->slice_min_ns = o->slice_min_us * 1000;
	skel->rodata->slice_max_ns = o->slice_max_us * 1000;
	skel->rodata->preempt_shift = (__u32)o->preempt_shift;
	skel->rodata->no_wake_sync = o->no_wake_sync;
	skel->rodata->no_preemption = o->no_preemption;
	skel->rodata->greedy_preempt = o->greedy_preempt;
	skel->rodata->chain_deadline = !o->no_chain_deadline;
	skel->rodata->greedy_slice_ns = o->greedy_slice_us * 1000;
	skel->rodata->no_futex_boost = o->no_futex_boost;
	skel->rodata->no_slice_boost = o->no_slice_boost;
	skel->rodata->pinned_slice_ns = o->pinned_slice_us * 1000;
	skel->rodata->preempt_kick = (__u32)o->preempt_kick;
	skel->rodata->tick_ns_cfg = ld->hz ? 1000000000ULL / ld->hz : 0;
	skel->rodata->verbose = o->verbose;
	skel->rodata->debug_verifier_reject = o->verifier_reject;
	skel->data->power_req = o->autopower ? (__u32)autopower_mode(ld) :
				(__u32)o->power_mode;
}

/*
 * The ops flags and the futex programs, both from what the running
 * kernel has: an ops flag it does not know makes the load fail
 * (ENQ_MIGRATION_DISABLED came after 6.12).
 */
static void set_kernel_features(struct lavd_loader *ld, bool want_fexit)
{
	struct lavd *skel = ld->skel;
	struct btf *kbtf = btf__load_vmlinux_btf();
	struct gs_scx scx;
	uint64_t flags;

	/* ENQ_LAST: a task that should leave its CPU (outside the active
	 * set, or a big-core task on a little core) comes back through
	 * ops.enqueue when its slice ends (power.bpf.h) */
	flags = kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_EXITING") |
		kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_MIGRATION_DISABLED") |
		kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_ENQ_LAST");
	if (ld->opts->partial)
		flags |= kernel_enum(kbtf, "scx_ops_flags", "SCX_OPS_SWITCH_PARTIAL");
	ld->futex_path = lavd_futex_choose(skel, kbtf, want_fexit,
					   ld->opts->no_futex_boost);
	btf__free(kbtf);
	/* a CPU hotplug after this read makes the kernel ask for a reload */
	gs_scx_read(GS_SCX_ROOT, &scx);
	skel->struct_ops.lavd_ops->flags = flags;
	skel->struct_ops.lavd_ops->timeout_ms = (unsigned int)ld->opts->watchdog_ms;
	skel->struct_ops.lavd_ops->exit_dump_len = LAVD_EXIT_DUMP_LEN;
	skel->struct_ops.lavd_ops->hotplug_seq =
		scx.hotplug_seq > 0 ? (unsigned long long)scx.hotplug_seq : 0;
}

/* Opens the skeleton and fills in topology and options; -1 on failure. */
static int open_configured(struct lavd_loader *ld, bool want_fexit)
{
	char err[512];

	ld->skel = lavd__open();
	if (!ld->skel) {
		gs_warn("cannot open the BPF object: %s", strerror(errno));
		lavd_bpflog_print_tail(20);
		return -1;
	}
	if (lavd_opts_topology(ld->opts, &ld->topo, err, sizeof(err)) != 0) {
		gs_warn("reading the CPU topology: %s", err);
		lavd__destroy(ld->skel);
		ld->skel = NULL;
		return -1;
	}
	set_topology(ld->skel, &ld->topo);
	set_options(ld);
	set_kernel_features(ld, want_fexit);
	lavd_game_configure(&ld->game, ld->skel);
	return 0;
}

/* ---- load and attach ---- */

static int load_timed(struct lavd_loader *ld)
{
	double t_load = lavd_now_s();
	int err = lavd__load(ld->skel);

	if (!err && ld->opts->verbose)
		lavd_print_load_cost(ld->skel, lavd_now_s() - t_load);
	return err;
}

int lavd_load(struct lavd_loader *ld)
{
	bool want_fexit = !ld->opts->futex_tracepoint;
	int err;

	if (!ld->hz_src[0])
		ld->hz = lavd_kernel_hz(ld->hz_src, sizeof(ld->hz_src));
	ld->futex.nr = 0;
	/* if the kernel refuses the fexit futex programs (load or attach),
	 * everything is loaded once more with the syscall tracepoints */
	for (int attempt = 0; ; attempt++) {
		lavd_bpflog_clear();
		if (open_configured(ld, want_fexit && attempt == 0) != 0)
			return -1;
		err = load_timed(ld);
		if (err && ld->futex_path == LAVD_FUTEX_FEXIT && lavd_futex_fexit_refused()) {
			gs_warn("the kernel refused the fexit futex programs (%s); "
				"using the futex tracepoints", strerror(-err));
			lavd_unload(ld);
			continue;
		}
		if (err) {
			gs_warn("the kernel refused to load the BPF scheduler: %s",
				strerror(-err));
			lavd_bpflog_print_tail(40);
			lavd_unload(ld);
			return -1;
		}
		if (ld->futex_path == LAVD_FUTEX_OFF ||
		    lavd_futex_attach(&ld->futex, ld->skel) == 0)
			break;
		if (ld->futex_path == LAVD_FUTEX_FEXIT) {
			gs_warn("using the futex tracepoints instead of fexit");
			lavd_unload(ld);
			continue;
		}
		ld->futex_path = LAVD_FUTEX_OFF;
		break;
	}
	if (ld->futex_path == LAVD_FUTEX_OFF && !ld->opts->no_futex_boost)
		gs_warn("futex lock-holder tracking is unavailable (no fexit target "
			"or syscall tracepoint could be used)");
	ld->skel->bss->futex_path = (__u64)ld->futex_path;
	return 0;
}

static void report_exit(const struct lavd_loader *ld, bool ours)
{
	const struct lavd_exit_info *u = &ld->skel->data->uei;
	const char *dump = ld->skel->bss->uei_dump;

	if (ours && u->kind == LAVD_SCX_EXIT_UNREG) {
		printf("lavd: exit: %s (kind %d)\n",
		       u->reason[0] ? u->reason : lavd_exit_kind_str(u->kind), u->kind);
		return;
	}
	printf("lavd: the kernel stopped lavd: %s (kind %d, %s)%s%s\n",
	       u->reason[0] ? u->reason : "no reason given", u->kind,
	       lavd_exit_kind_str(u->kind), u->msg[0] ? ": " : "", u->msg);
	if (u->kind >= LAVD_SCX_EXIT_ERROR && dump[0]) {
		if (ld->opts->verbose)
			printf("---- kernel debug dump ----\n%s\n---- end of dump ----\n",
			       dump);
		else
			printf("lavd: (run with -v for the kernel's debug dump)\n");
	}
	fflush(stdout);
}

/* After the kernel's exit: reload if it asks for it, else fail. */
static enum lavd_cycle kernel_exit_cycle(const struct lavd_loader *ld)
{
	return ld->skel->data->uei.exit_code & LAVD_SCX_ECODE_ACT_RESTART ?
	       LAVD_CYCLE_RESTART : LAVD_CYCLE_FAILED;
}

int lavd_attach(struct lavd_loader *ld, enum lavd_cycle *end)
{
	char ops[128], state[64];
	int e;

	ld->link = bpf_map__attach_struct_ops(ld->skel->maps.lavd_ops);
	if (ld->link) {
		ld->t_attach = lavd_now_s();
		return 0;
	}
	e = errno;
	*end = LAVD_CYCLE_FAILED;
	if (ld->skel->data->uei.kind) {
		/* ops.init failed or the kernel aborted the enable */
		report_exit(ld, false);
		*end = kernel_exit_cycle(ld);
	} else if (lavd_scx_check(GS_SCX_ROOT, ops, sizeof(ops), state,
				  sizeof(state)) == LAVD_SCX_BUSY &&
		   strcmp(ops, LAVD_NAME)) {
		gs_warn("another sched_ext scheduler is loaded: '%s' "
			"(state '%s'); stop it first", ops, state);
	} else {
		gs_warn("attaching the scheduler failed: %s", strerror(e));
		lavd_bpflog_print_tail(20);
	}
	return -1;
}

void lavd_unload(struct lavd_loader *ld)
{
	if (ld->link)
		bpf_link__destroy(ld->link);
	ld->link = NULL;
	lavd_game_stop(&ld->game);
	lavd_futex_detach(&ld->futex);
	ld->futex.nr = 0;
	lavd__destroy(ld->skel);
	ld->skel = NULL;
}

/* ---- the attach message ---- */

/* Its topology and energy line. */
static void print_energy_setup(const struct lavd_loader *ld)
{
	const struct lavd_opts *o = ld->opts;
	const struct lavd_topo *t = &ld->topo;
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
	       o->autopower ? "autopower (follows the platform profile)" :
	       o->power_mode == LAVD_PM_AUTO ? "autopilot" :
	       lavd_power_mode_str((__u64)o->power_mode),
	       o->no_core_compaction ? "off" : "on",
	       o->no_freq_scaling ? "off" : "on");
	fflush(stdout);
}

void lavd_print_setup(const struct lavd_loader *ld, int cycle)
{
	const struct lavd_opts *o = ld->opts;
	const struct lavd_topo *t = &ld->topo;
	char cap[32];

	printf("lavd: %s %s: %d CPUs (%d online), %d LLC%s%s, %d cores%s, "
	       "capacity %s, slice %llu-%llu us%s%s\n",
	       cycle ? "restarted" : "attached", LAVD_VERSION, t->nr_cpu_ids,
	       t->nr_online, t->nr_llcs, t->nr_llcs == 1 ? "" : "s",
	       t->llc_from_cache ? "" : " (no cache info)", t->nr_cores,
	       t->smt ? " with SMT" : "", t->capacity_src,
	       (unsigned long long)o->slice_min_us,
	       (unsigned long long)o->slice_max_us,
	       o->partial ? ", partial (SCHED_EXT tasks only)" : "",
	       o->no_wake_sync ? ", no wake sync" : "");
	printf("lavd: preemption %s (shift %llu, %s), futex boost %s, slice boost %s, "
	       "pinned slice %llu us, tick: HZ %u (%s)\n",
	       o->no_preemption ? "off" : "on", (unsigned long long)o->preempt_shift,
	       o->preempt_kick == LAVD_KICK_NEVER ? "slice := 1 only" :
	       o->preempt_kick == LAVD_KICK_ALWAYS ? "IPI always" : "IPI when the tick is late",
	       o->no_futex_boost ? "off" : lavd_futex_path_str((__u64)ld->futex_path),
	       o->no_slice_boost ? "off" : "on",
	       (unsigned long long)o->pinned_slice_us, ld->hz,
	       ld->hz ? ld->hz_src : "unknown: learnt from the ticks");
	if (o->greedy_slice_us)
		snprintf(cap, sizeof(cap), "%llu us", (unsigned long long)o->greedy_slice_us);
	printf("lavd: chain deadlines %s, greedy victims %s, greedy slice %s\n",
	       o->no_chain_deadline ? "off" : "on", o->greedy_preempt ? "on" : "off",
	       o->greedy_slice_us ? cap : "uncapped");
	print_energy_setup(ld);
}

/* ---- the run loop ---- */

struct run_clock {
	struct lavd_stats prev;	/* the last statistics printed */
	double next_stats, last_stats, next_power;
	bool stalled;		/* --debug-stall-after done */
};

/* The kernel's exit or our signal ends the cycle; -1 while neither came. */
static int cycle_end(struct lavd_loader *ld)
{
	enum lavd_cycle end;

	if (__atomic_load_n(&ld->skel->data->uei.kind, __ATOMIC_ACQUIRE)) {
		/* watchdog, error, hotplug */
		report_exit(ld, false);
		end = kernel_exit_cycle(ld);
		if (end == LAVD_CYCLE_RESTART)
			printf("lavd: the kernel asked for a restart "
			       "(CPU hotplug): reloading\n");
		return (int)end;
	}
	if (*ld->stop) {
		bpf_link__destroy(ld->link);	/* unregisters: ops.exit runs */
		ld->link = NULL;
		report_exit(ld, true);
		return LAVD_CYCLE_STOPPED;
	}
	return -1;
}

/* What is due at time t: the stall, the power mode, a statistics line. */
static void run_due(struct lavd_loader *ld, struct run_clock *rc, double t)
{
	const struct lavd_opts *o = ld->opts;
	struct lavd_stats cur;

	if (o->stall_after_s >= 0 && !rc->stalled && t - ld->t_attach >= o->stall_after_s) {
		printf("lavd: debug: stalling dispatch now (fault injection); "
		       "the watchdog should eject lavd\n");
		fflush(stdout);
		rc->stalled = true;
		__atomic_store_n(&ld->skel->bss->debug_stall, 1, __ATOMIC_RELEASE);
	}
	if (o->autopower && t >= rc->next_power) {
		__atomic_store_n(&ld->skel->data->power_req, (__u32)autopower_mode(ld),
				 __ATOMIC_RELEASE);
		rc->next_power = t + 1.0;
	}
	if (o->stats_s > 0 && t >= rc->next_stats) {
		if (lavd_read_stats(bpf_map__fd(ld->skel->maps.lavd_stats), &cur) == 0) {
			char games[512];

			lavd_game_stats(&ld->game, &rc->prev, &cur, t - rc->last_stats,
					games, sizeof(games));
			lavd_print_stats(&rc->prev, &cur, t - rc->last_stats, t - ld->t_attach,
					 games);
			rc->prev = cur;
		}
		rc->last_stats = t;
		rc->next_stats += o->stats_s;
		if (rc->next_stats < t)
			rc->next_stats = t + o->stats_s;
	}
}

enum lavd_cycle lavd_run(struct lavd_loader *ld)
{
	const struct lavd_opts *o = ld->opts;
	struct run_clock rc = {
		.next_stats = ld->t_attach + o->stats_s,
		.last_stats = ld->t_attach,
	};
	struct ring_buffer *rb = NULL;
	int end;

	if (o->samples) {
		rb = lavd_samples_reader(bpf_map__fd(ld->skel->maps.lavd_samples),
					 &ld->t_attach);
		if (!rb || lavd_samples_request(bpf_map__fd(ld->skel->maps.lavd_ctl),
						o->samples))
			gs_warn("per-task samples are unavailable: %s", strerror(errno));
	}
	while ((end = cycle_end(ld)) < 0) {
		if (rb)
			ring_buffer__consume(rb);
		lavd_game_poll(&ld->game, lavd_now_s());
		run_due(ld, &rc, lavd_now_s());
		nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
	}
	if (rb) {
		ring_buffer__consume(rb);
		ring_buffer__free(rb);
	}
	gs_print_bpf_run_cost(ld->skel->obj, "lavd", "lavd_");
	return (enum lavd_cycle)end;
}
