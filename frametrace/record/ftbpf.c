// SPDX-License-Identifier: GPL-2.0-only
#include "ftbpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bpf/frametrace.skel.h"
#include "procnames.h"
#include "sysinfo.h"

static int verbosity;

static int print_fn(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	if (level == LIBBPF_DEBUG || (level == LIBBPF_INFO && verbosity < 2))
		return 0;
	if (level == LIBBPF_WARN && verbosity < 1)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void ft_bpf_log_level(int verbose)
{
	verbosity = verbose;
	libbpf_set_print(print_fn);
}

int ft_tracefs(char *path, size_t len)
{
	if (!gs_tracefs_dir(path, len))
		return 0;
	/* not mounted: mount it where the kernel expects it (root only) */
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
		snprintf(path, len, "/sys/kernel/tracing");
		return 0;
	}
	return -1;
}

static void note(struct ft_bpf *b, const char *fmt, ...)
{
	size_t n = strlen(b->notes);
	va_list ap;

	if (n && n < sizeof(b->notes) - 2) {
		b->notes[n++] = ';';
		b->notes[n++] = ' ';
		b->notes[n] = '\0';
	}
	va_start(ap, fmt);
	vsnprintf(b->notes + n, sizeof(b->notes) - n, fmt, ap);
	va_end(ap);
}

/* FRAMETRACE_TEST_OLD_IRQ=MS (tests only): the interrupt programs attach
 * as they used to, entries first, here MS apart, and sched_switch leaves
 * a left-over depth alone: what a recording in a slow VM got. */
static long old_irq_gap_ms(void)
{
	const char *v = getenv("FRAMETRACE_TEST_OLD_IRQ");

	return v ? strtol(v, NULL, 10) : 0;
}

static int attach_one(struct bpf_program *p, struct bpf_link **l)
{
	*l = bpf_program__attach(p);
	return *l ? 0 : -errno;
}

/*
 * The interrupt entry/exit programs count handler nesting per CPU
 * (frametrace.bpf.c): an entry seen without its exit leaves the count
 * above 0. So the exits attach first: once an entry program runs, the
 * exit of that handler is seen too. (Attached together with the others,
 * in the object's order, an entry came first: a handler entered between
 * the two attaches left its depth behind.)
 */
static int attach_irq(struct frametrace *s)
{
	struct bpf_program *exits[] = { s->progs.on_irq_exit,
					 s->progs.on_softirq_exit,
					 s->progs.on_hrtimer_exit };
	struct bpf_link **exit_links[] = { &s->links.on_irq_exit,
					   &s->links.on_softirq_exit,
					   &s->links.on_hrtimer_exit };
	struct bpf_program *entries[] = { s->progs.on_irq_entry,
					   s->progs.on_softirq_entry,
					   s->progs.on_hrtimer_entry };
	struct bpf_link **entry_links[] = { &s->links.on_irq_entry,
					    &s->links.on_softirq_entry,
					    &s->links.on_hrtimer_entry };
	long gap = old_irq_gap_ms();
	int rc;

	for (int k = 0; k < 2; k++) {
		bool ex = gap > 0 ? k == 1 : k == 0;

		for (int i = 0; i < 3; i++) {
			rc = ex ? attach_one(exits[i], exit_links[i])
				: attach_one(entries[i], entry_links[i]);
			if (rc)
				return rc;
		}
		if (gap > 0 && k == 0)
			usleep((useconds_t)gap * 1000);
	}
	return 0;
}

struct prog_sel {
	struct bpf_program *p;
	const char *tp;		/* syscall tracepoint it needs, or NULL */
	int kind;		/* 0 core, 1 fexit futex, 2 syscall futex,
				 * 3 marker, 4 optional wakeup */
};

enum { FUTEX_SCHED, FUTEX_FEXIT, FUTEX_RAW, FUTEX_CLASSIC };

/* The mode's maps and the recorder's constants. */
static void set_mode(struct ft_bpf *b, const struct ft_bpf_opts *o)
{
	struct frametrace *s = b->skel;

	s->rodata->self_tgid = (uint32_t)getpid();
	s->rodata->mode = (uint32_t)o->mode;
	if (o->mode == FT_MODE_STREAM) {
		uint32_t mb = o->ring_mb ? o->ring_mb : 16;

		bpf_map__set_max_entries(s->maps.rb, mb << 20);
		s->rodata->wakeup_bytes = (uint64_t)mb << 19; /* half full */
		bpf_map__set_max_entries(s->maps.flight, 1);
	} else {
		uint32_t shift = o->flight_shift ? o->flight_shift : 17;

		b->slots_per_cpu = 1u << shift;
		s->rodata->flight_shift = shift;
		bpf_map__set_max_entries(s->maps.rb, 4096);
		bpf_map__set_max_entries(s->maps.flight,
					 (uint32_t)b->ncpus << shift);
	}
	s->rodata->wl_thresh_ns = o->wl_thresh_ns;
	if (o->wl_comm && *o->wl_comm) {
		size_t n = strlen(o->wl_comm);

		if (n > FT_COMM_LEN - 1)
			n = FT_COMM_LEN - 1;
		memcpy((char *)s->rodata->wl_comm, o->wl_comm, n);
		s->rodata->wl_comm_len = (uint32_t)n;
	}
}

/* Which futex, marker and write programs load and attach, by the futex
 * mode chosen and what the kernel has; and the futex source named. */
static void choose_programs(struct ft_bpf *b, const struct ft_bpf_opts *o,
			    int fmode)
{
	struct frametrace *s = b->skel;
	bool futex = !o->no_futex;
	struct {
		struct bpf_program *p;
		const char *tp;
	} sys[] = {
		{ s->progs.sys_futex_enter, "syscalls/sys_enter_futex" },
		{ s->progs.sys_futex_exit, "syscalls/sys_exit_futex" },
		{ s->progs.sys_waitv_enter, "syscalls/sys_enter_futex_waitv" },
		{ s->progs.sys_waitv_exit, "syscalls/sys_exit_futex_waitv" },
		{ s->progs.sys_wait2_enter, "syscalls/sys_enter_futex_wait" },
		{ s->progs.sys_wait2_exit, "syscalls/sys_exit_futex_wait" },
		{ s->progs.sys_wake2_enter, "syscalls/sys_enter_futex_wake" },
		{ s->progs.sys_wake2_exit, "syscalls/sys_exit_futex_wake" },
	};
	bool fexit = futex && fmode == FUTEX_FEXIT;

	bpf_program__set_autoload(s->progs.fe_futex_wait, fexit);
	bpf_program__set_autoload(s->progs.fx_futex_wait, fexit);
	bpf_program__set_autoload(s->progs.fe_futex_wake, fexit);
	bpf_program__set_autoload(s->progs.fx_futex_wake, fexit);
	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		bpf_program__set_autoload(
			sys[i].p, futex && fmode == FUTEX_CLASSIC &&
					  gs_tracepoint_exists(b->tracefs, sys[i].tp));
	bpf_program__set_autoload(s->progs.sys_write_enter,
				  b->markers && fmode == FUTEX_CLASSIC);
	bpf_program__set_autoload(s->progs.raw_sys_enter,
				  fmode != FUTEX_CLASSIC &&
					  (b->markers || (futex && fmode == FUTEX_RAW)));
	/* a program on every system call only for markers: with
	 * markers_later it attaches when the target opens
	 * trace_marker (ft_bpf_attach_markers), else never; it
	 * carries the futex calls in RAW mode, so attaches then */
	b->marker_prog = NULL;
	if (b->markers && fmode == FUTEX_CLASSIC)
		b->marker_prog = s->progs.sys_write_enter;
	else if (b->markers && !(futex && fmode == FUTEX_RAW))
		b->marker_prog = s->progs.raw_sys_enter;
	if (b->marker_prog && o->markers_later)
		bpf_program__set_autoattach(b->marker_prog, false);
	else
		b->marker_prog = NULL; /* attached with the others */
	b->markers_attached = b->markers && !b->marker_prog;
	snprintf(b->futex_src, sizeof(b->futex_src), "%s",
		 !futex			? "off"
		 : fmode == FUTEX_SCHED ? "sched"
		 : fmode == FUTEX_FEXIT ? "fexit"
		 : fmode == FUTEX_RAW	? "raw syscall tracepoints"
		 : gs_tracepoint_exists(b->tracefs, "syscalls/sys_enter_futex")
			 ? "syscall tracepoints"
			 : "off");
}

/*
 * One load attempt. Futex calls (and trace_marker writes) come from:
 *  SCHED   the scheduler events themselves (the default): a switch-out of
 *          a task sleeping in a futex wait, a wake-up made from a futex
 *          wake call, read from the task's saved registers; no program on
 *          the system calls (markers: raw sys_enter, only when asked for);
 *  FEXIT   fentry/fexit on futex_wait/futex_wake (markers: raw sys_enter);
 *  RAW     tp_btf/sys_enter, one program for every system call that
 *          ignores all but futex and write; futex calls are recorded at
 *          entry only (FT_F_NO_EXIT), readers measure waits from the
 *          sleep that follows: half the cost of an enter/exit pair;
 *  CLASSIC the per-call syscalls:sys_enter_futex... tracepoints (tracefs).
 */
static int try_load(struct ft_bpf *b, const struct ft_bpf_opts *o, int fmode,
		    char *err, size_t errlen)
{
	struct frametrace *s;
	struct stat st;
	char marker[300];
	int rc;
	bool futex = !o->no_futex;

	s = frametrace__open();
	if (!s) {
		snprintf(err, errlen, "cannot open the BPF object: %s",
			 strerror(errno));
		return -1;
	}
	b->skel = s;
	set_mode(b, o);
	b->markers = false;
	if (!o->no_markers && b->tracefs[0]) {
		snprintf(marker, sizeof(marker), "%s/trace_marker", b->tracefs);
		if (!stat(marker, &st) &&
		    (fmode != FUTEX_CLASSIC ||
		     gs_tracepoint_exists(b->tracefs, "syscalls/sys_enter_write"))) {
			s->rodata->marker_ino[0] = st.st_ino;
			s->rodata->marker_dev[0] =
				(uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev));
			b->markers = true;
			b->marker_st_dev = st.st_dev;
			b->marker_st_ino = st.st_ino;
		}
	}
	s->rodata->raw_futex = futex && fmode == FUTEX_RAW;
	s->rodata->sched_futex = futex && fmode == FUTEX_SCHED;

	bpf_program__set_autoload(s->progs.on_wakeup, o->with_wakeup);
	/* the interrupt programs attach in an order of their own */
	{
		struct bpf_program *irq[] = {
			s->progs.on_irq_exit, s->progs.on_softirq_exit,
			s->progs.on_hrtimer_exit, s->progs.on_irq_entry,
			s->progs.on_softirq_entry, s->progs.on_hrtimer_entry,
		};

		for (size_t i = 0; i < sizeof(irq) / sizeof(irq[0]); i++)
			bpf_program__set_autoattach(irq[i], false);
		s->rodata->old_irq = old_irq_gap_ms() > 0;
	}
	choose_programs(b, o, fmode);
	rc = frametrace__load(s);
	if (rc) {
		snprintf(err, errlen, "loading the BPF programs failed: %s",
			 strerror(-rc));
		return -1;
	}
	rc = frametrace__attach(s);
	if (!rc)
		rc = attach_irq(s);
	if (rc) {
		snprintf(err, errlen, "attaching the BPF programs failed: %s",
			 strerror(-rc));
		return -1;
	}
	return 0;
}

int ft_bpf_open(struct ft_bpf *b, const struct ft_bpf_opts *o, char *err,
		size_t errlen)
{
	memset(b, 0, sizeof(*b));
	b->ncpus = libbpf_num_possible_cpus();
	if (b->ncpus <= 0 || b->ncpus > FT_MAX_CPUS) {
		snprintf(err, errlen, "cannot handle %d CPUs (max %d)", b->ncpus,
			 FT_MAX_CPUS);
		return -1;
	}
	if (ft_tracefs(b->tracefs, sizeof(b->tracefs))) {
		b->tracefs[0] = '\0';
		note(b, "tracefs unavailable: no futex events, no trace_marker "
			"frames");
	}
	{
		static const char *const names[] = {
			"futex from the scheduler events",
			"fexit on futex_wait/futex_wake",
			"raw syscall tracepoints" };
		int first = o->force_syscalls ? FUTEX_CLASSIC
			    : o->futex_calls  ? FUTEX_FEXIT
					      : FUTEX_SCHED;

		for (int m = first; m < FUTEX_CLASSIC; m++) {
			char e2[256];

			if (!try_load(b, o, m, e2, sizeof(e2)))
				goto loaded;
			note(b, "%s refused (%s)", names[m], e2);
			frametrace__destroy(b->skel);
			b->skel = NULL;
		}
	}
	if (try_load(b, o, FUTEX_CLASSIC, err, errlen)) {
		frametrace__destroy(b->skel);
		b->skel = NULL;
		return -1;
	}
loaded:
	if (!b->markers && !o->no_markers)
		note(b, "trace_marker frames off (no tracefs write tracepoint)");
	if (o->mode == FT_MODE_STREAM) {
		b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.rb),
					 o->on_event, o->ctx, NULL);
		/* trigger notes (wake-up latency) come through aux */
		if (b->rb && o->on_aux &&
		    ring_buffer__add(b->rb, bpf_map__fd(b->skel->maps.aux),
				     o->on_aux, o->ctx)) {
			snprintf(err, errlen, "ring buffer: %s", strerror(errno));
			ft_bpf_close(b);
			return -1;
		}
	} else {
		b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.aux),
					 o->on_aux, o->ctx, NULL);
		b->flight_len = (size_t)b->ncpus * b->slots_per_cpu *
				sizeof(struct ft_slot);
		b->flight = mmap(NULL, b->flight_len, PROT_READ, MAP_SHARED,
				 bpf_map__fd(b->skel->maps.flight), 0);
		b->heads_len = FT_MAX_CPUS * sizeof(struct ft_head);
		b->heads = mmap(NULL, b->heads_len, PROT_READ, MAP_SHARED,
				bpf_map__fd(b->skel->maps.heads), 0);
		if (b->flight == MAP_FAILED || b->heads == MAP_FAILED) {
			snprintf(err, errlen, "mmap of the flight ring: %s",
				 strerror(errno));
			if (b->flight == MAP_FAILED)
				b->flight = NULL;
			if (b->heads == MAP_FAILED)
				b->heads = NULL;
			ft_bpf_close(b);
			return -1;
		}
	}
	if (!b->rb) {
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		ft_bpf_close(b);
		return -1;
	}
	return 0;
}

uint64_t ft_bpf_irq_resets(const struct ft_bpf *b)
{
	struct ft_cpu_state *v;
	uint32_t zero = 0;
	uint64_t sum = 0;
	int n = libbpf_num_possible_cpus();

	if (!b->skel || n <= 0)
		return 0;
	v = calloc((size_t)n, sizeof(*v));
	if (!v)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counters), &zero, v))
		for (int i = 0; i < n; i++)
			sum += v[i].irq_resets;
	free(v);
	return sum;
}

uint64_t ft_bpf_lost(const struct ft_bpf *b, bool aux)
{
	struct ft_cpu_state *v;
	uint32_t zero = 0;
	uint64_t sum = 0;
	int n = libbpf_num_possible_cpus();

	if (!b->skel || n <= 0)
		return 0;
	v = calloc((size_t)n, sizeof(*v));
	if (!v)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counters), &zero, v))
		for (int i = 0; i < n; i++)
			sum += aux ? v[i].aux_lost : v[i].lost;
	free(v);
	return sum;
}

void ft_bpf_close(struct ft_bpf *b)
{
	if (b->rb)
		ring_buffer__free(b->rb);
	if (b->flight)
		munmap((void *)b->flight, b->flight_len);
	if (b->heads)
		munmap((void *)b->heads, b->heads_len);
	if (b->skel)
		frametrace__destroy(b->skel);
	memset(b, 0, sizeof(*b));
}

int ft_bpf_attach_markers(struct ft_bpf *b)
{
	struct bpf_link *l;

	if (b->markers_attached || !b->marker_prog)
		return 0;
	l = bpf_program__attach(b->marker_prog);
	if (!l)
		return -1;
	/* the skeleton's slot of that program: destroyed with it */
	if (b->marker_prog == b->skel->progs.raw_sys_enter)
		b->skel->links.raw_sys_enter = l;
	else
		b->skel->links.sys_write_enter = l;
	b->markers_attached = true;
	return 0;
}

bool ft_bpf_markers_poll(struct ft_bpf *b, pid_t root, uint64_t now_ns)
{
	pid_t pids[256];
	size_t n;

	if (b->markers_attached || !b->marker_prog || !root ||
	    now_ns < b->marker_next_scan)
		return false;
	b->marker_next_scan = now_ns + 500000000ULL;
	n = ft_proc_tree(root, pids, 256);
	for (size_t i = 0; i < n; i++)
		if (ft_proc_has_file(pids[i], b->marker_st_dev, b->marker_st_ino))
			return !ft_bpf_attach_markers(b);
	return false;
}

struct bpf_program *ft_bpf_present_prog(const struct ft_bpf *b)
{
	return b->skel ? b->skel->progs.on_present : NULL;
}

bool ft_rec_comm(const void *data, size_t size, char *out)
{
	const struct ft_comm_rec *c = data;

	if (size < sizeof(*c) || c->ev.type != FT_EV_COMM)
		return false;
	memcpy(out, c->comm, FT_COMM_LEN);
	out[FT_COMM_LEN] = '\0';
	return true;
}

bool ft_rec_mark(const void *data, size_t size, char *out)
{
	const struct ft_mark_rec *m = data;
	uint32_t n;

	if (size < sizeof(*m) || m->ev.type != FT_EV_MARK)
		return false;
	n = m->ev.arg2 < FT_MARK_MAX ? m->ev.arg2 : FT_MARK_MAX;
	memcpy(out, m->text, n);
	out[n] = '\0';
	return true;
}
