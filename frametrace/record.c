// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace record: streams every scheduler, futex and marker event from
 * the BPF ring buffer into a trace file, plus framebench's frames from its
 * shared feed. The ring is drained on a timer (records are submitted
 * without wake-ups), events are written in chunks as they come, and every
 * drop is counted and reported.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "feed.h"
#include "ftbpf.h"
#include "ftutil.h"
#include "procnames.h"
#include "steal.h"
#include "tracefile.h"
#include "util.h"

#define BATCH (1u << 18)

struct rec {
	struct ft_trace meta;	/* tasks, strings, frames, meta; no events */
	struct ft_writer w;
	struct ft_ev *batch;
	size_t nbatch;
	size_t str_flushed;
	uint64_t events;
	uint64_t marks;
	struct ft_map seen;	/* tids seen in events */
	int oom;
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void seen(struct rec *r, uint32_t tid)
{
	if (tid && !ft_map_put(&r->seen, tid, 0, NULL))
		r->oom = 1;
}

static int flush(struct rec *r)
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

static int on_event(void *ctx, void *data, size_t size)
{
	struct rec *r = ctx;
	const struct ft_ev *e = data;
	struct ft_ev ev;
	char comm[FT_COMM_LEN + 1], text[FT_MARK_MAX + 1];

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
	struct rec *r = ctx;
	struct ft_frame fr = ft_frame_from_feed(pid, f);

	return ft_frame_push(&r->meta, &fr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace record -o FILE [options] [-- CMD [ARG...]]\n"
		"  Records scheduler events (BPF, root) system-wide until CMD\n"
		"  exits, --duration passes, or SIGINT/SIGTERM.\n"
		"  -o, --output FILE     trace file to write (required)\n"
		"  -d, --duration D      stop after D (e.g. 10s)\n"
		"      --buffer-mb N     BPF ring buffer size (default 16)\n"
		"      --drain-ms N      drain interval (default 25)\n"
		"      --with-wakeup     also record sched_wakeup\n"
		"      --no-futex        do not record futex calls\n"
		"      --no-markers      do not record trace_marker writes\n"
		"      --syscall-futex   use syscall tracepoints even if fexit works\n"
		"      --feed-pid PID    read only this framebench's feed\n"
		"      --feed-dir DIR    where feeds live (default /dev/shm)\n"
		"  -q, --quiet           no summary on stderr\n"
		"  -v, --verbose         libbpf messages\n");
}

static pid_t start_child(char **argv, int *gate)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char c;

		close(p[1]);
		/* wait until the recorder is attached */
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		close(p[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "frametrace: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

int ft_cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "buffer-mb", required_argument, NULL, 'b' },
		{ "drain-ms", required_argument, NULL, 'D' },
		{ "with-wakeup", no_argument, NULL, 'W' },
		{ "no-futex", no_argument, NULL, 'F' },
		{ "no-markers", no_argument, NULL, 'M' },
		{ "syscall-futex", no_argument, NULL, 'S' },
		{ "feed-pid", required_argument, NULL, 'p' },
		{ "feed-dir", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *feed_dir = "/dev/shm";
	uint64_t duration = 0, drain_ms = 25, ring_mb = 16, feed_pid = 0;
	struct ft_bpf_opts bo = { .mode = FT_MODE_STREAM };
	bool quiet = false;
	int verbose = 0, c, rc = EXIT_RUNTIME, gate = -1, status = 0;
	pid_t child = 0;
	struct ft_bpf b;
	struct rec r;
	struct ft_feedset feeds;
	char err[512];
	uint64_t t0, next_scan = 0, lost;
	struct utsname un;
	struct sigaction sa;
	struct ft_steal steal;
	bool have_steal;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:d:qvh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd':
			duration = gs_opt_duration_ns("--duration", optarg,
						      NSEC_PER_SEC, NSEC_PER_MSEC,
						      UINT64_MAX / 2);
			break;
		case 'b': ring_mb = gs_opt_u64("--buffer-mb", optarg, 1, 1024); break;
		case 'D': drain_ms = gs_opt_u64("--drain-ms", optarg, 1, 10000); break;
		case 'W': bo.with_wakeup = true; break;
		case 'F': bo.no_futex = true; break;
		case 'M': bo.no_markers = true; break;
		case 'S': bo.force_syscalls = true; break;
		case 'p': feed_pid = gs_opt_u64("--feed-pid", optarg, 1, INT32_MAX); break;
		case 'f': feed_dir = optarg; break;
		case 'q': quiet = true; break;
		case 'v': verbose++; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if ((ring_mb & (ring_mb - 1)))
		gs_die(EXIT_USAGE, "option --buffer-mb: expected a power of two, got '%" PRIu64 "'", ring_mb);
	if (!out) {
		usage(stderr);
		gs_die(EXIT_USAGE, "record: -o FILE is required");
	}
	if (geteuid() != 0)
		gs_die(EXIT_RUNTIME,
		       "record: needs root (CAP_BPF and CAP_PERFMON) to load BPF "
		       "programs");

	memset(&r, 0, sizeof(r));
	ft_trace_init(&r.meta);
	ft_map_init(&r.seen);
	r.batch = malloc(BATCH * sizeof(*r.batch));
	if (!r.batch)
		gs_die(EXIT_RUNTIME, "out of memory");
	ft_bpf_log_level(verbose);
	bo.ring_mb = (uint32_t)ring_mb;
	bo.on_event = on_event;
	bo.ctx = &r;

	/* names of what already runs; new tasks come as fork/rename events */
	if (ft_proc_names(&r.meta, getpid()))
		gs_warn("record: could not read /proc for task names");

	if (optind < argc) {
		child = start_child(argv + optind, &gate);
		if (child < 0)
			gs_die(EXIT_RUNTIME, "record: fork: %s", strerror(errno));
	}
	if (ft_bpf_open(&b, &bo, err, sizeof(err))) {
		if (child > 0) {
			close(gate);
			waitpid(child, NULL, 0);
		}
		gs_die(EXIT_RUNTIME, "record: %s", err);
	}
	if (b.notes[0] && !quiet)
		gs_warn("record: %s", b.notes);
	t0 = gs_now_ns();
	/* the host's steal over the recording (VM.md: a vCPU not run) */
	have_steal = !ft_steal_init(&steal, b.ncpus, 2, NULL) &&
		     !ft_steal_sample(&steal, t0);
	if (ft_writer_open(&r.w, out, (uint32_t)b.ncpus, t0, err, sizeof(err))) {
		ft_steal_free(&steal);
		ft_bpf_close(&b);
		if (child > 0) {
			close(gate);
			waitpid(child, NULL, 0);
		}
		gs_die(EXIT_USAGE, "record: %s", err);
	}
	ft_feedset_init(&feeds, feed_dir, (int)feed_pid);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (child > 0) {
		if (write(gate, "g", 1) != 1)
			gs_warn("record: could not start the command");
		close(gate);
	}

	for (;;) {
		uint64_t now = gs_now_ns();
		bool done = stop_sig != 0;

		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -child;
			done = true;
		}
		if (duration && now - t0 >= duration)
			done = true;
		if (now >= next_scan) {
			ft_feedset_scan(&feeds);
			next_scan = now + 200 * NSEC_PER_MSEC;
		}
		if (ring_buffer__poll(b.rb, done ? 0 : (int)drain_ms) < 0 &&
		    errno != EINTR)
			break;
		if (ring_buffer__consume(b.rb) < 0 && errno != EINTR) {
			gs_warn("record: reading the ring buffer failed");
			break;
		}
		if (ft_feedset_poll(&feeds, on_frame, &r) < 0)
			r.oom = 1;
		if (r.oom || r.w.error)
			break;
		if (done)
			break;
	}
	if (child > 0) {
		/* interrupted: pass it on and wait for the command */
		kill(child, stop_sig ? stop_sig : SIGTERM);
		waitpid(child, &status, 0);
		ring_buffer__consume(b.rb);
	}
	ft_feedset_scan(&feeds);
	ft_feedset_poll(&feeds, on_frame, &r);
	lost = ft_bpf_lost(&b, false);
	ft_meta_set(&r.meta, "futex", "%s", b.futex_src[0] ? b.futex_src : "off");
	ft_meta_set(&r.meta, "markers", "%s", b.markers ? "trace_marker" : "off");
	if (b.notes[0])
		ft_meta_set(&r.meta, "notes", "%s", b.notes);
	ft_bpf_close(&b);

	/* names of tasks seen in events but not yet named */
	for (size_t i = 0; i < r.seen.cap; i++) {
		uint32_t tid;

		if (!r.seen.keys[i])
			continue;
		tid = (uint32_t)(r.seen.keys[i] - 1);
		if (!ft_task_get(&r.meta, tid) || !ft_task_get(&r.meta, tid)->comm[0])
			ft_proc_name_one(&r.meta, tid);
	}
	ft_proc_mark_recorder(&r.meta, getpid());

	r.meta.lost_events = lost + ft_feedset_lost(&feeds);
	ft_meta_set(&r.meta, "source", "record");
	if (!uname(&un)) {
		ft_meta_set(&r.meta, "kernel", "%s", un.release);
		ft_meta_set(&r.meta, "host", "%s", un.nodename);
	}
	ft_meta_set(&r.meta, "lost_kernel_events", "%" PRIu64, lost);
	ft_meta_set(&r.meta, "lost_feed_frames", "%" PRIu64,
		    ft_feedset_lost(&feeds));
	ft_meta_set(&r.meta, "recorder_tgid", "%d", (int)getpid());
	ft_meta_set(&r.meta, "ring_mb", "%" PRIu64, ring_mb);
	ft_meta_set(&r.meta, "drain_ms", "%" PRIu64, drain_ms);
	if (have_steal && !ft_steal_sample(&steal, gs_now_ns())) {
		struct ft_steal_sum sum;

		if (!ft_steal_window(&steal, 0, UINT64_MAX, &sum))
			ft_steal_meta_set(&r.meta, &sum);
	}
	ft_steal_free(&steal);
	if (optind < argc) {
		char cmd[512] = "";

		for (int i = optind; i < argc; i++) {
			size_t n = strlen(cmd);

			snprintf(cmd + n, sizeof(cmd) - n, "%s%s",
				 i > optind ? " " : "", argv[i]);
		}
		ft_meta_set(&r.meta, "command", "%s", cmd);
	}
	{
		uint64_t end = gs_now_ns();

		if (flush(&r) ||
		    ft_writer_close(&r.w, &r.meta, end, err, sizeof(err))) {
			gs_warn("record: %s", err[0] ? err : "write failed");
			rc = EXIT_RUNTIME;
		} else {
			double secs = (double)(end - t0) / 1e9;

			rc = EXIT_OK;
			if (!quiet)
				fprintf(stderr,
					"frametrace: %" PRIu64 " events in %.1f s "
					"(%.0f/s), %" PRIu64 " lost, %zu tasks, "
					"%zu frames, %" PRIu64 " markers, futex: %s "
					"-> %s (%.1f MiB)\n",
					r.events, secs, r.events / (secs > 0 ? secs : 1),
					r.meta.lost_events, r.meta.ntasks,
					r.meta.nframes, r.marks,
					ft_meta_get(&r.meta, "futex"), out,
					(double)r.w.bytes / (1 << 20));
		}
	}
	if (r.meta.lost_events)
		gs_warn("record: %" PRIu64 " events were lost (%" PRIu64
			" kernel events: ring buffer full; try a larger "
			"--buffer-mb or a smaller --drain-ms)",
			r.meta.lost_events, lost);
	if (r.oom)
		gs_warn("record: ran out of memory; the trace ends early");
	ft_feedset_free(&feeds);
	ft_map_free(&r.seen);
	free(r.batch);
	ft_trace_free(&r.meta);
	if (rc == EXIT_OK && child < 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) != 0 && !quiet)
		gs_warn("record: the command exited with status %d",
			WEXITSTATUS(status));
	return rc;
}
