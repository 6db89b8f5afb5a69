// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace watch: a flight recorder. Scheduling events go into a bounded
 * ring all the time; when a frame spikes (framebench's feed, a MangoHud log
 * being written, trace_marker frame-time counters), a watched thread waits
 * too long to run, SIGUSR1 arrives, or `frametrace trigger` asks, the
 * window from --pre before to --post after the trigger is saved as a trace
 * file, with a one-line note that already names the delay's origin.
 * watch.h lists the pieces; this file is the command that runs them.
 */
#include "record/watch.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/child.h"
#include "cmds.h"
#include "trace/ftutil.h"
#include "opttab.h"
#include "pidlock.h"
#include "trace/marker.h"
#include "record/procnames.h"
#include "record/recopts.h"
#include "util.h"

static volatile sig_atomic_t stop_sig, usr1;
/* DIR/watch.pid, locked while the watch runs (lib/pidlock.h): trigger
 * signals only a live watch; removed on every exit, gs_die's included */
static char pid_path[4200];
static int pid_fd = -1;

static void drop_pid_file(void)
{
	gs_pidlock_drop(pid_path, &pid_fd);
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		usr1 = 1;
	else
		stop_sig = sig;
}

/* ---- what comes in: ring records, feed frames, MangoHud rows --------- */

/* Frames and markers older than any window can reach are dropped. */
static void prune(struct ft_watch *w, uint64_t now)
{
	uint64_t keep = w->o.pre_ns + w->o.post_ns + 2 * NSEC_PER_SEC;
	uint64_t cut = now > keep ? now - keep : 0;
	size_t i = 0;

	if (w->pending && w->trig_ns > w->o.pre_ns &&
	    w->trig_ns - w->o.pre_ns < cut)
		cut = w->trig_ns - w->o.pre_ns;
	while (i < w->nframes && w->frames[i].present_ns < cut)
		i++;
	if (i) {
		memmove(w->frames, w->frames + i,
			(w->nframes - i) * sizeof(*w->frames));
		w->nframes -= i;
	}
	i = 0;
	while (i < w->nmarks && w->marks[i].ev.ts < cut)
		free(w->marks[i++].text);
	if (i) {
		memmove(w->marks, w->marks + i,
			(w->nmarks - i) * sizeof(*w->marks));
		w->nmarks -= i;
	}
}

static int on_feed_frame(void *ctx, int pid, const struct gs_feed_frame *f)
{
	struct ft_watch *w = ctx;
	struct ft_frame fr = ft_frame_from_feed(pid, f);

	if (FT_VEC_RESERVE(w->frames, w->nframes, w->framecap)) {
		w->oom = true;
		return -1;
	}
	w->frames[w->nframes++] = fr;
	if (w->o.frames_from == FT_FRAMES_AUTO ||
	    w->o.frames_from == FT_FRAMES_FEED)
		ft_watch_frame_seen(w, (uint32_t)pid, f->present_ns,
				    f->frametime_ns, f->flags & GS_FEED_F_WARMUP,
				    "feed");
	return 0;
}

static void on_mangohud_frame(void *ctx, uint64_t present_ns,
			      uint64_t frametime_ns)
{
	struct ft_watch *w = ctx;
	struct ft_frame fr = {
		.present_ns = present_ns,
		.frametime_ns = frametime_ns,
		.flags = FT_FRAME_MANGOHUD,
	};

	if (!FT_VEC_RESERVE(w->frames, w->nframes, w->framecap))
		w->frames[w->nframes++] = fr;
	ft_watch_frame_seen(w, 0, present_ns, frametime_ns, false, "MangoHud");
}

/* Markers are kept for the captures; frame-time counters among them are
 * frames when the feed is not the source. */
static void on_mark(struct ft_watch *w, const struct ft_ev *e,
		    const char *text)
{
	struct ft_atrace a;
	struct ft_mark *m;

	if (FT_VEC_RESERVE(w->marks, w->nmarks, w->markcap)) {
		w->oom = true;
		return;
	}
	m = &w->marks[w->nmarks];
	m->ev = *e;
	m->text = strdup(text);
	if (!m->text) {
		w->oom = true;
		return;
	}
	w->nmarks++;
	if ((w->o.frames_from == FT_FRAMES_MARKERS ||
	     (w->o.frames_from == FT_FRAMES_AUTO && !w->feeds.n)) &&
	    !ft_atrace_parse(text, &a) && a.kind == 'C') {
		uint64_t ns = ft_frametime_counter_ns(&a);

		if (ns)
			ft_watch_frame_seen(w, a.tgid ? a.tgid : e->arg, e->ts,
					    ns, false, "trace_marker");
	}
}

/* A present call: kept for the captures like a marker, and a frame of
 * its thread (the interval since the thread's previous one). */
static void on_present(struct ft_watch *w, const struct ft_ev *e)
{
	struct ft_mark *m;
	uint64_t prev;
	int made;

	if (FT_VEC_RESERVE(w->marks, w->nmarks, w->markcap)) {
		w->oom = true;
		return;
	}
	m = &w->marks[w->nmarks];
	m->ev = *e;
	m->text = strdup(ft_presents_func(&w->pr, e->arg2));
	if (!m->text) {
		w->oom = true;
		return;
	}
	w->nmarks++;
	made = ft_present_seq_add(&w->presents, e->tid, e->ts, &prev);
	if (made < 0) {
		w->oom = true;
		return;
	}
	if (made) {
		struct ft_frame fr = {
			.start_ns = prev,
			.present_ns = e->ts,
			.frametime_ns = e->ts - prev,
			.pid = e->arg,
			.tid = e->tid,
			.flags = FT_FRAME_PRESENT,
		};

		if (FT_VEC_RESERVE(w->frames, w->nframes, w->framecap)) {
			w->oom = true;
			return;
		}
		w->frames[w->nframes++] = fr;
		if (w->o.frames_from == FT_FRAMES_PRESENT ||
		    (w->o.frames_from == FT_FRAMES_AUTO && !w->feeds.n))
			ft_watch_frame_seen(w, e->arg, e->ts, fr.frametime_ns,
					    false, ft_presents_func(&w->pr, e->arg2));
	}
}

/* Records from the aux ring (flight) or the main ring (user ring). */
static int on_record(void *ctx, void *data, size_t size)
{
	struct ft_watch *w = ctx;
	const struct ft_ev *e = data;
	char comm[FT_COMM_LEN + 1], text[FT_MARK_MAX + 1];

	if (size < sizeof(*e))
		return 0;
	if (ft_rec_comm(data, size, comm)) {
		if (ft_task_set(&w->names, e->tid, e->arg, comm))
			w->oom = true;
		return 0;
	}
	if (ft_rec_mark(data, size, text)) {
		on_mark(w, e, text);
		return 0;
	}
	if (e->type == FT_EV_PRESENT) {
		on_present(w, e);
		return 0;
	}
	if (e->type == FT_AUX_WAKELAT) {
		ft_watch_fire(w, e->ts, e->arg, 0,
			      "wake-up latency %.3f ms of %s:%u (> %s threshold)",
			      (double)e->val / 1e6,
			      ft_task_comm(&w->names, e->tid), e->tid,
			      "--wakelat");
		return 0;
	}
	if (w->o.user_ring)
		ft_flight_add(&w->ring, e);
	return 0;
}

/* ---- the command ----------------------------------------------------- */

#define FIELD(f) offsetof(struct ft_watch_opts, f)
/* an option that is a trigger: no default --frame-factor then */
#define TRIGGER .given = GS_OPT_GIVEN(FIELD(explicit_trigger))
static const struct gs_opt specs[] = {
	{ "dir", 'o', "DIR", GS_OPT_PATH, FIELD(dir),
	  .help = "captures go here (default .): capture-NNN.ftr,\n"
		  "captures.log (one line each), watch.pid" },
	{ "pre", 0, "D", GS_OPT_DURATION, FIELD(pre_ns), 0, 3600 * NSEC_PER_SEC,
	  .help = "window before a trigger (default 2s)" },
	{ "post", 0, "D", GS_OPT_DURATION, FIELD(post_ns), 0, 3600 * NSEC_PER_SEC,
	  .help = "window after it (default 500ms)" },
	{ "frame-ms", 0, "X", GS_OPT_NUMBER, FIELD(frame_ms), 0.001, 1e7, TRIGGER,
	  .section = "triggers",
	  .help = "a frame longer than X ms" },
	{ "frame-factor", 0, "K", GS_OPT_NUMBER, FIELD(factor), 1.01, 1e6, TRIGGER,
	  .help = "a frame longer than K x the running median\n"
		  "of the last 301 frames (default 4 when no\n"
		  "other trigger is given)" },
	{ "min-frames", 0, "N", GS_OPT_U64, FIELD(min_frames), 1, FT_MEDIAN_WIN,
	  .help = "frames before --frame-factor applies (60)" },
	{ "frames-from", 0, "SRC", GS_OPT_CHOICE, FIELD(frames_from),
	  /* in the order of enum ft_frames_from */
	  .choices = "auto|feed|markers|mangohud|present",
	  .help = "feed, markers, mangohud, present or auto\n"
		  "(default: the framebench feed, else\n"
		  "trace_marker counters and present calls)" },
	{ "mangohud", 0, "PATH", GS_OPT_PATH, FIELD(mangohud), TRIGGER,
	  .help = "a MangoHud log (or its folder) being written" },
	{ "wakelat", 0, "D", GS_OPT_DURATION, FIELD(wakelat_ns), 1000,
	  3600 * NSEC_PER_SEC, .unit_ns = NSEC_PER_MSEC, TRIGGER,
	  .help = "a wake-up latency above D ..." },
	{ "wakelat-comm", 0, "NAME", GS_OPT_STRING, FIELD(wakelat_comm),
	  .help = "... of threads whose name starts with NAME" },
	{ "warmup-triggers", 0, NULL, GS_OPT_SET, FIELD(warmup_triggers),
	  .help = "also trigger on framebench warm-up frames" },
	{ "min-gap", 0, "D", GS_OPT_DURATION, FIELD(min_gap_ns), 0,
	  86400 * NSEC_PER_SEC, .section = "limits",
	  .help = "between captures (default 10s)" },
	{ "max-captures", 0, "N", GS_OPT_U64, FIELD(max_captures), 1, 100000,
	  .help = "(default 10)" },
	{ "max-disk", 0, "MB", GS_OPT_U64, FIELD(max_disk), 1, 1 << 20,
	  .scale = 1 << 20,
	  .help = "total size of captures (default 512)" },
	{ "ring-slots", 0, "N", GS_OPT_U64, FIELD(ring_slots), 1024, 1 << 24,
	  .section = "ring",
	  .help = "events per CPU, power of two (default 131072,\n"
		  "4 MiB a CPU)" },
	{ "user-ring", 0, NULL, GS_OPT_SET, FIELD(user_ring),
	  .help = "stream events into a user-space ring instead" },
	FT_RECORDING_OPTS(struct ft_watch_opts),
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};
static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace watch [options] [-- CMD [ARG...]]\n"
	"  Keeps the last seconds of scheduling events in a bounded ring and\n"
	"  saves --pre before to --post after each trigger (root, BPF).\n",
	"  SIGUSR1, or 'frametrace trigger DIR', saves a capture now.\n",
	NULL, 26, .in_order = true, .command = "frametrace watch",
};

/* The GS_OPT_SPECIAL options: the recording options' own. */
static void watch_special(const struct gs_opt *s, const char *arg, void *base)
{
	struct ft_watch_opts *o = base;

	ft_rec_special(s->id, arg, &o->present);
}

/* Options into w->o (defaults first); -1 to go on. Bad usage exits 2
 * with a message, --help exits 0 (lib/opttab.c). */
static int parse_options(struct ft_watch *w, int argc, char **argv)
{
	struct ft_watch_opts *o = &w->o;

	memset(w, 0, sizeof(*w));
	o->dir = ".";
	o->pre_ns = 2 * NSEC_PER_SEC;
	o->post_ns = 500 * NSEC_PER_MSEC;
	o->min_gap_ns = 10 * NSEC_PER_SEC;
	o->max_captures = 10;
	o->max_disk = 512ULL << 20;
	o->min_frames = 60;
	o->ring_slots = 131072;
	o->feed_dir = "/dev/shm";
	optind = 1;
	gs_opt_parse(&table, o, argc, argv, watch_special);
	if (o->ring_slots & (o->ring_slots - 1))
		gs_die(EXIT_USAGE, "option --ring-slots: expected a power of two, got '%" PRIu64 "'", o->ring_slots);
	if (o->wakelat_comm && !o->wakelat_ns)
		gs_die(EXIT_USAGE, "option --wakelat-comm needs --wakelat");
	if (!o->explicit_trigger)
		o->factor = 4;
	if (o->frames_from == FT_FRAMES_MANGOHUD && !o->mangohud)
		gs_die(EXIT_USAGE, "option --frames-from mangohud needs --mangohud PATH");
	if (o->frames_from == FT_FRAMES_PRESENT && !ft_present_cli_any(&o->present))
		gs_die(EXIT_USAGE, "option --frames-from present needs --present");
	o->command = optind < argc ? argv + optind : NULL;
	ft_present_cli_check(&o->present, o->command != NULL);
	return -1;
}

/* Loads the BPF programs (the command, if any, forked and held until
 * they are attached) and sets up the ring of recent events. */
static void attach(struct ft_watch *w, struct ft_child *child)
{
	struct ft_bpf_opts bo = {
		.mode = FT_MODE_FLIGHT,
		.wl_thresh_ns = w->o.wakelat_ns,
		.wl_comm = w->o.wakelat_comm,
		.no_futex = w->o.no_futex,
		.no_markers = w->o.no_markers,
		.futex_calls = w->o.futex_calls,
		.markers_later = !w->o.markers_now &&
				 (w->o.command || w->o.present.pid),
		.on_aux = on_record,
		.ctx = w,
	};
	const char *failed;
	char err[600];

	while ((1ULL << bo.flight_shift) < w->o.ring_slots)
		bo.flight_shift++;
	if (w->o.user_ring) {
		bo.mode = FT_MODE_STREAM;
		bo.ring_mb = 16;
		bo.on_event = on_record;
	}
	if (w->o.command && ft_child_fork(child, w->o.command, &failed))
		gs_die(EXIT_RUNTIME, "%s: %s", failed, strerror(errno));
	if (ft_bpf_open(&w->b, &bo, err, sizeof(err))) {
		if (child->pid > 0)
			ft_child_abandon(child);
		gs_die(EXIT_RUNTIME, "watch: %s", err);
	}
	if (w->b.notes[0] && !w->o.quiet)
		gs_warn("watch: %s", w->b.notes);
	ft_present_seq_init(&w->presents);
	if (ft_present_cli_any(&w->o.present)) {
		const struct ft_present_cli *pc = &w->o.present;

		ft_presents_init(&w->pr, ft_bpf_present_prog(&w->b),
				 pc->autodetect, pc->spec, pc->nspec,
				 pc->pid ? pc->pid : child->pid, w->o.verbose);
		ft_presents_start(&w->pr, child->pid > 0);
	}
	if (ft_flight_init(&w->ring, &w->b, w->o.user_ring, w->o.ring_slots))
		gs_die(EXIT_RUNTIME, "out of memory");
}

/* The inputs besides the ring (steal, feeds) and the outputs
 * (captures.log, watch.pid). */
static void open_sources_and_outputs(struct ft_watch *w, pid_t child_pid)
{
	char path[4200];

	/* enough 100 ms samples to bracket a whole window */
	w->have_steal = !ft_steal_init(&w->steal, w->b.ncpus,
				       (size_t)((w->o.pre_ns + w->o.post_ns) /
						(100 * NSEC_PER_MSEC)) + 8,
				       NULL);
	if (!uname(&w->uts))
		w->kernel = w->uts.release;
	ft_feedset_init(&w->feeds, w->o.feed_dir, (int)w->o.feed_pid);
	if (!w->o.feed_pid)
		ft_feedset_root(&w->feeds, w->o.present.pid ? w->o.present.pid
							    : child_pid);
	snprintf(path, sizeof(path), "%s/captures.log", w->o.dir);
	w->log = fopen(path, "a");
	if (!w->log)
		gs_warn("watch: %s: %s (notes on stdout only)", path, strerror(errno));
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal: saved, cleaned up */
	sigaction(SIGUSR1, &sa, NULL);
}

/* Until SIGINT/SIGTERM, the command's exit or --duration: drains the
 * inputs, fires triggers and saves their captures once --post passed. */
static void run(struct ft_watch *w, struct ft_child *child)
{
	uint64_t t0 = gs_now_ns(), next_scan = 0, next_mh = 0, next_prune = 0;

	w->start_ns = t0;

	ft_mangotail_init(&w->mh, w->o.mangohud);
	for (;;) {
		uint64_t now = gs_now_ns();
		bool done = stop_sig != 0;

		if (ft_child_exited(child))
			done = true;
		if (w->o.duration && now - t0 >= w->o.duration)
			done = true;
		if (now >= next_scan) {
			ft_feedset_scan(&w->feeds);
			next_scan = now + 200 * NSEC_PER_MSEC;
		}
		ft_presents_scan(&w->pr, now);
		ft_bpf_markers_poll(&w->b, w->o.present.pid ? w->o.present.pid
							    : child->pid, now);
		ring_buffer__poll(w->b.rb, done ? 0 : 10);
		ring_buffer__consume(w->b.rb);
		ft_feedset_poll(&w->feeds, on_feed_frame, w);
		if (w->have_steal && now >= w->next_steal) {
			ft_steal_sample(&w->steal, now);
			w->next_steal = now + 100 * NSEC_PER_MSEC;
		}
		if (w->o.mangohud && now >= next_mh) {
			ft_mangotail_poll(&w->mh, on_mangohud_frame, w);
			next_mh = now + 100 * NSEC_PER_MSEC;
		}
		if (usr1) {
			usr1 = 0;
			ft_watch_fire(w, gs_now_ns(), 0, 0, "manual trigger (SIGUSR1)");
		}
		if (w->pending) {
			if (!w->ring.ncopy && ft_flight_copy(&w->ring, true))
				w->oom = true;
			if (gs_now_ns() >= w->trig_ns + w->o.post_ns || done)
				ft_capture_save(w);
		}
		if (now >= next_prune) {
			prune(w, now);
			next_prune = now + NSEC_PER_SEC;
		}
		if (w->oom) {
			gs_warn("watch: out of memory");
			break;
		}
		if (done)
			break;
	}
}

static void summary(const struct ft_watch *w)
{
	char line[300];

	if (w->o.quiet && !w->log)
		return;
	snprintf(line, sizeof(line),
		 "watch: %" PRIu64 " captures, %" PRIu64 " triggers suppressed "
		 "(rate limit, caps), %" PRIu64 " merged into a capture, %" PRIu64
		 " aux records lost",
		 w->captures, w->suppressed, w->merged, ft_bpf_lost(&w->b, true));
	if (!w->o.quiet)
		fprintf(stderr, "%s\n", line);
	if (w->log)
		fprintf(w->log, "%s\n", line);
}

static void cleanup(struct ft_watch *w)
{
	drop_pid_file();
	if (w->log)
		fclose(w->log);
	ft_presents_close(&w->pr);
	ft_bpf_close(&w->b);
	ft_present_seq_free(&w->presents);
	ft_feedset_free(&w->feeds);
	for (size_t i = 0; i < w->nmarks; i++)
		free(w->marks[i].text);
	free(w->marks);
	free(w->frames);
	free(w->srcs);
	ft_flight_free(&w->ring);
	ft_mangotail_free(&w->mh);
	ft_steal_free(&w->steal);
	ft_trace_free(&w->names);
}

/* Before anything is attached: a second watch on DIR is refused. */
static void take_pid_file(const char *dir)
{
	char why[4400];

	snprintf(pid_path, sizeof(pid_path), "%s/watch.pid", dir);
	pid_fd = gs_pidlock_take(pid_path, why, sizeof(why));
	if (pid_fd < 0)
		gs_die(EXIT_RUNTIME, "watch: %s: another watch is running in %s", why,
		       dir);
	atexit(drop_pid_file);
}

int ft_cmd_watch(int argc, char **argv)
{
	struct ft_watch w;
	struct ft_child child = { 0 };
	int rc = parse_options(&w, argc, argv);

	if (rc >= 0)
		return rc;
	if (geteuid() != 0)
		gs_die(EXIT_RUNTIME, "watch: needs root (CAP_BPF and CAP_PERFMON) to load BPF programs");
	if (mkdir(w.o.dir, 0755) && errno != EEXIST)
		gs_die(EXIT_USAGE, "watch: %s: %s", w.o.dir, strerror(errno));
	take_pid_file(w.o.dir);

	ft_bpf_log_level(w.o.verbose);
	ft_trace_init(&w.names);
	if (ft_proc_names(&w.names, getpid()))
		gs_warn("watch: could not read /proc for task names");
	ft_proc_mark_recorder(&w.names, getpid());
	catch_signals();
	attach(&w, &child);
	open_sources_and_outputs(&w, child.pid);
	if (!w.o.quiet)
		fprintf(stderr,
			"frametrace watch: %s ring, %" PRIu64 " events per CPU; window "
			"-%.2f..+%.2f s; captures in %s (pid %d; SIGUSR1 or "
			"'frametrace trigger %s' to capture now)\n",
			w.o.user_ring ? "user-space" : "in-kernel", w.o.ring_slots,
			(double)w.o.pre_ns / 1e9, (double)w.o.post_ns / 1e9, w.o.dir,
			(int)getpid(), w.o.dir);
	if (child.pid > 0 && !ft_child_release(&child))
		gs_warn("watch: could not start the command");

	run(&w, &child);

	if (child.pid > 0)
		ft_child_stop(&child, stop_sig ? stop_sig : SIGTERM);
	summary(&w);
	cleanup(&w);
	return w.oom ? EXIT_RUNTIME : EXIT_OK;
}
