// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace record: every scheduler, futex and marker event into a trace
 * file, plus framebench's frames from its shared feed. The events go into
 * the per-CPU ring the flight recorder keeps (a memory-mappable array, one
 * segment and write index per CPU: no ring-buffer lock, no consumer
 * position shared between CPUs), drained every --drain-ms; names, markers
 * and present calls through the small ring buffer. Events are written in
 * chunks as they come, and every loss (a lap of the ring overtaking the
 * drain) is counted and reported.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/child.h"
#include "cmds.h"
#include "record/feed.h"
#include "record/ftbpf.h"
#include "trace/ftutil.h"
#include "opttab.h"
#include "record/present_attach.h"
#include "record/procnames.h"
#include "record/recopts.h"
#include "trace/steal.h"
#include "trace/tracefile.h"
#include "util.h"
#include "record/watch.h"

#define BATCH (1u << 18)

struct record_opts {
	const char *out;
	const char *feed_dir;
	uint64_t duration, drain_ms, ring_mb, feed_pid;
	bool with_wakeup, no_futex, no_markers, force_syscalls, futex_calls;
	bool markers_now;
	bool quiet;
	int verbose;
	struct ft_present_cli present;	/* --present, -p */
	char **command;		/* NULL: none */
};

struct recorder {
	struct record_opts o;
	struct ft_bpf b;
	struct ft_flight ring;	/* the per-CPU ring the events come through */
	struct ft_child child;
	struct ft_feedset feeds;
	struct ft_steal steal;	/* the host's steal over the recording */
	bool have_steal;
	struct ft_trace meta;	/* tasks, strings, frames, meta; no events */
	struct ft_writer w;
	struct ft_ev *batch;
	size_t nbatch;
	size_t str_flushed;
	uint64_t t0, events, marks;
	uint64_t lost;		/* kernel events the ring buffer dropped */
	struct ft_map seen;	/* tids seen in events (above SEEN_BITS) */
	uint64_t *seen_bits;	/* ... and below */
	struct ft_presents pr;	/* uprobes on present calls */
	long present_str[FT_PRESENT_MAX_FUNCS];	/* cookie -> string + 1 */
	uint64_t presents;
	struct ft_present_seq pseq;	/* present calls into frames, counted
					 * as the reader will make them */
	uint64_t early_frames;	/* feed frames begun before the recording */
	int oom;
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* ---- what comes in: ring records and feed frames --------------------- */

/* Tids seen in events, named at the end. Hundreds of thousands of events
 * a second come through here: a bit per tid below SEEN_BITS, the hash map
 * above it. */
#define SEEN_BITS (1u << 22)

static void seen(struct recorder *r, uint32_t tid)
{
	if (!tid)
		return;
	if (tid < SEEN_BITS && r->seen_bits) {
		r->seen_bits[tid >> 6] |= 1ULL << (tid & 63);
		return;
	}
	if (!ft_map_put(&r->seen, tid, 0, NULL))
		r->oom = 1;
}

static int flush(struct recorder *r)
{
	if (r->str_flushed < r->meta.nstr) {
		if (ft_writer_strings(&r->w, r->meta.str + r->str_flushed,
				      r->meta.nstr - r->str_flushed))
			return -1;
		r->str_flushed = r->meta.nstr;
	}
	if (ft_writer_events(&r->w, r->batch, r->nbatch))
		return -1;
	r->nbatch = 0;
	return 0;
}

static int on_event(void *ctx, void *data, size_t size);

/* The events the per-CPU ring received since the last drain. */
static int drain(struct recorder *r)
{
	if (ft_flight_drain(&r->ring)) {
		r->oom = 1;
		return -1;
	}
	for (size_t i = 0; i < r->ring.ncopy; i++)
		if (on_event(r, &r->ring.copy[i].ev, sizeof(struct ft_ev)))
			return -1;
	ft_flight_copy_reset(&r->ring);
	return 0;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct recorder *r = ctx;
	const struct ft_ev *e = data;
	struct ft_ev ev;
	char comm[FT_COMM_LEN + 1], text[FT_MARK_MAX + 1];
	uint64_t prev;

	if (size < sizeof(*e))
		return 0;
	ev = *e;

	if (ft_rec_comm(data, size, comm)) {
		if (ft_task_set(&r->meta, e->tid, e->arg, comm))
			r->oom = 1;
		return 0;
	}
	if (ft_rec_mark(data, size, text)) {
		long idx = ft_str_add(&r->meta, text);

		if (idx < 0) {
			r->oom = 1;
			return 0;
		}
		ev.arg2 = (uint32_t)idx;
		r->marks++;
	} else if (ev.type == FT_EV_PRESENT) {
		/* the function's number to its name in the file's strings */
		uint32_t id = ev.arg2 < FT_PRESENT_MAX_FUNCS ? ev.arg2 : 0;

		if (!r->present_str[id]) {
			long idx = ft_str_add(&r->meta, ft_presents_func(&r->pr, id));

			if (idx < 0) {
				r->oom = 1;
				return 0;
			}
			r->present_str[id] = idx + 1;
		}
		ev.arg2 = (uint32_t)(r->present_str[id] - 1);
		r->presents++;
		if (ev.tid && ft_present_seq_add(&r->pseq, ev.tid, ev.ts, &prev) < 0)
			r->oom = 1;
	}
	r->batch[r->nbatch++] = ev;
	r->events++;
	seen(r, ev.tid);
	if (ev.type == FT_EV_SWITCH || ev.type == FT_EV_WAKING ||
	    ev.type == FT_EV_WAKEUP || ev.type == FT_EV_WAKEUP_NEW ||
	    ev.type == FT_EV_FORK)
		seen(r, ev.arg);
	if (r->nbatch == BATCH && flush(r))
		return -1;
	return 0;
}

static int on_frame(void *ctx, int pid, const struct gs_feed_frame *f)
{
	struct recorder *r = ctx;
	struct ft_frame fr = ft_frame_from_feed(pid, f);

	/* the feed still holds frames from before the recording began: no
	 * event tells what their tasks did, and explained they would blame
	 * whoever ran first in the trace */
	if ((fr.start_ns ? fr.start_ns : fr.present_ns) < r->t0) {
		r->early_frames++;
		return 0;
	}
	return ft_frame_push(&r->meta, &fr);
}

/* ---- the command ----------------------------------------------------- */

#define FIELD(f) offsetof(struct record_opts, f)
static const struct gs_opt specs[] = {
	{ "output", 'o', "FILE", GS_OPT_PATH, FIELD(out),
	  .help = "trace file to write (required)" },
	FT_RECORDING_OPTS(struct record_opts),
	{ "buffer-mb", 0, "N", GS_OPT_U64, FIELD(ring_mb), 1, 1024,
	  .help = "the per-CPU rings together (default 8)" },
	{ "drain-ms", 0, "N", GS_OPT_U64, FIELD(drain_ms), 1, 10000,
	  .help = "drain interval (default 25)" },
	{ "with-wakeup", 0, NULL, GS_OPT_SET, FIELD(with_wakeup),
	  .help = "also record sched_wakeup" },
	{ "syscall-futex", 0, NULL, GS_OPT_SET, FIELD(force_syscalls),
	  .help = "futex calls from the syscall tracepoints" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};
static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace record -o FILE [options] [-- CMD [ARG...]]\n"
	"  Records scheduler events (BPF, root) system-wide until CMD\n"
	"  exits, --duration passes, or SIGINT/SIGTERM/SIGHUP.\n",
	"", NULL, 24, .in_order = true, .command = "frametrace record",
};

static void record_special(const struct gs_opt *s, const char *arg,
			   void *base)
{
	struct record_opts *o = base;

	ft_rec_special(s->id, arg, &o->present);
}

/* Options into r->o; -1 to go on. Bad usage exits 2 with a message,
 * --help exits 0 (lib/opttab.c). */
static int parse_options(struct recorder *r, int argc, char **argv)
{
	struct record_opts *o = &r->o;

	memset(r, 0, sizeof(*r));
	o->feed_dir = "/dev/shm";
	o->drain_ms = 25;
	o->ring_mb = 8;
	optind = 1;
	gs_opt_parse(&table, o, argc, argv, record_special);
	if ((o->ring_mb & (o->ring_mb - 1)))
		gs_die(EXIT_USAGE, "option --buffer-mb: expected a power of two, got '%" PRIu64 "'", o->ring_mb);
	if (!o->out) {
		gs_opt_usage(&table, stderr);
		gs_die(EXIT_USAGE, "record: -o FILE is required");
	}
	o->command = optind < argc ? argv + optind : NULL;
	ft_present_cli_check(&o->present, o->command != NULL);
	return -1;
}

/* Everything up to the first event: the names of what already runs, the
 * command held at its gate, the BPF programs, the trace file, the feeds
 * and the steal counters. Failures exit with a message. */
static void start(struct recorder *r)
{
	struct ft_bpf_opts bo = {
		.mode = FT_MODE_FLIGHT,
		.ring_mb = (uint32_t)r->o.ring_mb,
		.with_wakeup = r->o.with_wakeup,
		.no_futex = r->o.no_futex,
		.no_markers = r->o.no_markers,
		.force_syscalls = r->o.force_syscalls,
		.futex_calls = r->o.futex_calls,
		/* with a target, markers once it opens trace_marker */
		.markers_later = !r->o.markers_now &&
				 (r->o.command || r->o.present.pid),
		.on_aux = on_event,
		.ctx = r,
	};
	long ncpu = libbpf_num_possible_cpus();
	uint64_t slots;
	const char *failed;
	char err[512];

	/* --buffer-mb over the CPUs, 32-byte slots, a power of two per CPU
	 * between 4096 and 4M */
	slots = ((uint64_t)r->o.ring_mb << 20) / 32 / (uint64_t)(ncpu > 0 ? ncpu : 1);
	for (bo.flight_shift = 12; bo.flight_shift < 22 &&
				   (2ULL << bo.flight_shift) <= slots;
	     bo.flight_shift++)
		;
	ft_trace_init(&r->meta);
	ft_map_init(&r->seen);
	ft_present_seq_init(&r->pseq);
	r->seen_bits = calloc(SEEN_BITS / 64, sizeof(uint64_t));
	r->batch = malloc(BATCH * sizeof(*r->batch));
	if (!r->batch)
		gs_die(EXIT_RUNTIME, "out of memory");
	ft_bpf_log_level(r->o.verbose);
	/* names of what already runs; new tasks come as fork/rename events */
	if (ft_proc_names(&r->meta, getpid()))
		gs_warn("record: could not read /proc for task names");
	if (r->o.command && ft_child_fork(&r->child, r->o.command, &failed))
		gs_die(EXIT_RUNTIME, "record: fork: %s", strerror(errno));
	if (ft_bpf_open(&r->b, &bo, err, sizeof(err))) {
		if (r->child.pid > 0)
			ft_child_abandon(&r->child);
		gs_die(EXIT_RUNTIME, "record: %s", err);
	}
	if (r->b.notes[0] && !r->o.quiet)
		gs_warn("record: %s", r->b.notes);
	if (ft_flight_init(&r->ring, &r->b, false, r->b.slots_per_cpu)) {
		if (r->child.pid > 0)
			ft_child_abandon(&r->child);
		gs_die(EXIT_RUNTIME, "out of memory");
	}
	if (ft_present_cli_any(&r->o.present)) {
		const struct ft_present_cli *pc = &r->o.present;

		ft_presents_init(&r->pr, ft_bpf_present_prog(&r->b),
				 pc->autodetect, pc->spec, pc->nspec,
				 pc->pid ? pc->pid : r->child.pid, r->o.verbose);
		ft_presents_start(&r->pr, r->child.pid > 0);
	}
	r->t0 = gs_now_ns();
	/* the host's steal over the recording (docs/vm.md: a vCPU not run) */
	r->have_steal = !ft_steal_init(&r->steal, r->b.ncpus, 2, NULL) &&
			!ft_steal_sample(&r->steal, r->t0);
	if (ft_writer_open(&r->w, r->o.out, (uint32_t)r->b.ncpus, r->t0, err,
			   sizeof(err))) {
		ft_steal_free(&r->steal);
		ft_bpf_close(&r->b);
		if (r->child.pid > 0)
			ft_child_abandon(&r->child);
		/* an output that cannot be written: an I/O error */
		gs_die(EXIT_RUNTIME, "record: %s", err);
	}
	ft_feedset_init(&r->feeds, r->o.feed_dir, (int)r->o.feed_pid);
	if (!r->o.feed_pid)
		ft_feedset_root(&r->feeds, r->o.present.pid ? r->o.present.pid
							    : r->child.pid);
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal ends the recording as ^C does: what was recorded
	 * is written, the command stopped with the same signal */
	sigaction(SIGHUP, &sa, NULL);
}

/* How long to wait before the next drain: --drain-ms, less when a CPU's
 * segment filled by more than a quarter since the last one (a burst of
 * events: the drain keeps ahead of the ring's next lap). */
static int drain_wait_ms(const struct recorder *r)
{
	uint64_t most = 0;

	for (int c = 0; c < r->b.ncpus; c++) {
		uint64_t head = __atomic_load_n(&r->b.heads[c].head,
						__ATOMIC_RELAXED);
		uint64_t d = head - r->ring.copied[c];

		if (d > most)
			most = d;
	}
	if (most * 4 <= r->b.slots_per_cpu)
		return (int)r->o.drain_ms;
	/* proportionally sooner, at least 1 ms */
	most = r->o.drain_ms * r->b.slots_per_cpu / 4 / most;
	return most ? (int)most : 1;
}

/* Until SIGINT/SIGTERM/SIGHUP, the command's exit or --duration: drains the ring
 * every --drain-ms and polls the feeds. */
static void run(struct recorder *r)
{
	uint64_t next_scan = 0;

	for (;;) {
		uint64_t now = gs_now_ns();
		bool done = stop_sig != 0;

		if (ft_child_exited(&r->child))
			done = true;
		if (r->o.duration && now - r->t0 >= r->o.duration)
			done = true;
		if (now >= next_scan) {
			ft_feedset_scan(&r->feeds);
			next_scan = now + 200 * NSEC_PER_MSEC;
		}
		ft_presents_scan(&r->pr, now);
		if (ft_bpf_markers_poll(&r->b, r->o.present.pid ? r->o.present.pid
							      : r->child.pid, now) &&
		    r->o.verbose)
			gs_warn("record: the target opened trace_marker: "
				"recording its writes");
		if (ring_buffer__poll(r->b.rb, done ? 0 : drain_wait_ms(r)) < 0 &&
		    errno != EINTR)
			break;
		if (ring_buffer__consume(r->b.rb) < 0 && errno != EINTR) {
			gs_warn("record: reading the ring buffer failed");
			break;
		}
		if (drain(r))
			break;
		if (ft_feedset_poll(&r->feeds, on_frame, r) < 0)
			r->oom = 1;
		if (r->oom || r->w.error)
			break;
		if (done)
			break;
	}
}

/* The command stopped (interrupted: the signal passed on), the last
 * events and frames drained, and the BPF programs detached. */
static void stop(struct recorder *r)
{
	if (r->child.pid > 0) {
		ft_child_stop(&r->child, stop_sig ? stop_sig : SIGTERM);
		ring_buffer__consume(r->b.rb);
	}
	drain(r);
	ft_feedset_scan(&r->feeds);
	ft_feedset_poll(&r->feeds, on_frame, r);
	/* a lap of the ring overtook the drain; names and markers dropped */
	r->lost = r->ring.overwritten + ft_bpf_lost(&r->b, true);
	ft_meta_set(&r->meta, "irq_context", "bpf");
	ft_meta_set(&r->meta, "irq_depth_resets", "%" PRIu64,
		    ft_bpf_irq_resets(&r->b));
	if (r->pr.prog) {
		char d[2048];

		ft_presents_describe(&r->pr, d, sizeof(d));
		ft_meta_set(&r->meta, "present", "%s", d[0] ? d : "none attached");
		ft_presents_close(&r->pr);
	}
	ft_meta_set(&r->meta, "futex", "%s", r->b.futex_src[0] ? r->b.futex_src : "off");
	ft_meta_set(&r->meta, "markers", "%s",
		    r->b.markers_attached ? "trace_marker"
		    : r->b.markers	  ? "off (the target never opened trace_marker)"
					  : "off");
	if (r->b.notes[0])
		ft_meta_set(&r->meta, "notes", "%s", r->b.notes);
	ft_bpf_close(&r->b);
}

/* Names of tasks seen in events but not named yet, from /proc. */
static void name_tasks(struct recorder *r)
{
	for (uint32_t w = 0; r->seen_bits && w < SEEN_BITS / 64; w++)
		for (uint64_t bits = r->seen_bits[w]; bits; bits &= bits - 1) {
			uint32_t tid = w * 64 + (uint32_t)__builtin_ctzll(bits);

			if (!ft_task_get(&r->meta, tid) ||
			    !ft_task_get(&r->meta, tid)->comm[0])
				ft_proc_name_one(&r->meta, tid);
		}
	for (size_t i = 0; i < r->seen.cap; i++) {
		uint32_t tid;

		if (!r->seen.keys[i])
			continue;
		tid = (uint32_t)(r->seen.keys[i] - 1);
		if (!ft_task_get(&r->meta, tid) || !ft_task_get(&r->meta, tid)->comm[0])
			ft_proc_name_one(&r->meta, tid);
	}
	ft_proc_mark_recorder(&r->meta, getpid());
}

/* What the recording was: host, losses, settings, steal, command. */
static void describe(struct recorder *r)
{
	struct utsname un;

	r->meta.lost_events = r->lost + ft_feedset_lost(&r->feeds);
	ft_meta_set(&r->meta, "source", "record");
	if (!uname(&un)) {
		ft_meta_set(&r->meta, "kernel", "%s", un.release);
		ft_meta_set(&r->meta, "host", "%s", un.nodename);
	}
	ft_meta_set(&r->meta, "lost_kernel_events", "%" PRIu64, r->lost);
	ft_meta_set(&r->meta, "lost_feed_frames", "%" PRIu64,
		    ft_feedset_lost(&r->feeds));
	ft_meta_set(&r->meta, "feed_frames_before_recording", "%" PRIu64,
		    r->early_frames);
	ft_meta_set(&r->meta, "recorder_tgid", "%d", (int)getpid());
	ft_meta_set(&r->meta, "ring_mb", "%" PRIu64, r->o.ring_mb);
	ft_meta_set(&r->meta, "drain_ms", "%" PRIu64, r->o.drain_ms);
	if (r->have_steal && !ft_steal_sample(&r->steal, gs_now_ns())) {
		struct ft_steal_sum sum;

		if (!ft_steal_window(&r->steal, 0, UINT64_MAX, &sum))
			ft_steal_meta_set(&r->meta, &sum);
	}
	ft_steal_free(&r->steal);
	if (r->o.command) {
		char cmd[512] = "";

		for (char **a = r->o.command; *a; a++) {
			size_t n = strlen(cmd);

			snprintf(cmd + n, sizeof(cmd) - n, "%s%s",
				 a > r->o.command ? " " : "", *a);
		}
		ft_meta_set(&r->meta, "command", "%s", cmd);
	}
}

/* The summary's frames as the report will count them: the feed's, else
 * (markers, read later) those of the present calls, which the reader
 * takes only when nothing names frames more precisely (finish.c). */
static void summary_frames(const struct recorder *r, char *out, size_t len)
{
	if (r->meta.nframes || (!r->pseq.frames && !r->marks))
		snprintf(out, len, "%zu frames", r->meta.nframes);
	else if (r->marks)
		snprintf(out, len, "frames: from the markers, when read");
	else
		snprintf(out, len, "%" PRIu64 " frames (present calls)",
			 r->pseq.frames);
}

/* The last chunks and the file's tail; the summary line. */
static int finish_file(struct recorder *r)
{
	uint64_t end = gs_now_ns();
	char err[512] = "";
	double secs;

	if (flush(r) || ft_writer_close(&r->w, &r->meta, end, err, sizeof(err))) {
		gs_warn("record: %s", err[0] ? err : "write failed");
		return EXIT_RUNTIME;
	}
	secs = (double)(end - r->t0) / 1e9;
	if (!r->o.quiet) {
		char frames[80];

		summary_frames(r, frames, sizeof(frames));
		fprintf(stderr,
			"frametrace: %" PRIu64 " events in %.1f s "
			"(%.0f/s), %" PRIu64 " lost, %zu tasks, "
			"%s, %" PRIu64 " markers, %" PRIu64
			" present calls, futex: %s -> %s (%.1f MiB)\n",
			r->events, secs, r->events / (secs > 0 ? secs : 1),
			r->meta.lost_events, r->meta.ntasks, frames,
			r->marks, r->presents,
			ft_meta_get(&r->meta, "futex"), r->o.out,
			(double)r->w.bytes / (1 << 20));
	}
	return EXIT_OK;
}

int ft_cmd_record(int argc, char **argv)
{
	struct recorder r;
	int rc = parse_options(&r, argc, argv);

	if (rc >= 0)
		return rc;
	if (geteuid() != 0)
		gs_die(EXIT_RUNTIME,
		       "record: needs root (CAP_BPF and CAP_PERFMON) to load BPF "
		       "programs");
	start(&r);
	catch_signals();
	if (r.child.pid > 0 && !ft_child_release(&r.child))
		gs_warn("record: could not start the command");

	run(&r);

	stop(&r);
	name_tasks(&r);
	describe(&r);
	rc = finish_file(&r);
	if (r.meta.lost_events)
		gs_warn("record: %" PRIu64 " events were lost (%" PRIu64
			" kernel events: the ring overtook the drain; try a "
			"larger --buffer-mb or a smaller --drain-ms)",
			r.meta.lost_events, r.lost);
	if (r.oom)
		gs_warn("record: ran out of memory; the trace ends early");
	ft_feedset_free(&r.feeds);
	ft_flight_free(&r.ring);
	ft_map_free(&r.seen);
	ft_present_seq_free(&r.pseq);
	free(r.seen_bits);
	free(r.batch);
	ft_trace_free(&r.meta);
	if (rc == EXIT_OK && r.child.pid < 0 && WIFEXITED(r.child.status) &&
	    WEXITSTATUS(r.child.status) != 0 && !r.o.quiet)
		gs_warn("record: the command exited with status %d",
			WEXITSTATUS(r.child.status));
	return rc;
}
