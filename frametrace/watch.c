// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace watch: a flight recorder. Scheduling events go into a bounded
 * ring all the time; when a frame spikes (framebench's feed, a MangoHud log
 * being written, trace_marker frame-time counters), a watched thread waits
 * too long to run, SIGUSR1 arrives, or `frametrace trigger` asks, the
 * window from --pre before to --post after the trigger is saved as a trace
 * file, with a one-line note that already names the delay's origin.
 *
 * The ring is by default the in-kernel per-CPU flight ring (frametrace.bpf.c,
 * FT_MODE_FLIGHT): no event crosses to user space until a trigger, so the
 * recorder costs the traced machine least (see README: measured against
 * the user-space ring, --user-ring, which streams every event through the
 * ring buffer into a circular buffer here).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "explain.h"
#include "finish.h"
#include "feed.h"
#include "ftbpf.h"
#include "ftutil.h"
#include "mangohud.h"
#include "marker.h"
#include "procnames.h"
#include "report.h"
#include "steal.h"
#include "trace.h"
#include "tracefile.h"
#include "util.h"

#define MEDIAN_WIN 301

struct frame_src {
	uint32_t pid;		/* 0: MangoHud */
	double win[MEDIAN_WIN];
	size_t n, pos;
};

struct mark {
	struct ft_ev ev;
	char *text;
};

struct snap_ev {
	uint64_t idx;
	struct ft_ev ev;
};

struct watch {
	/* options */
	const char *dir;
	uint64_t pre_ns, post_ns, min_gap_ns;
	double frame_ms, factor;
	size_t min_frames;
	uint64_t max_captures, max_disk;
	bool user_ring, quiet, warmup_triggers;
	int frame_source;	/* 0 auto, 1 feed, 2 markers, 3 mangohud */
	const char *mangohud;
	/* state */
	struct ft_bpf b;
	struct ft_trace names;	/* tasks (and nothing else) */
	struct ft_feedset feeds;
	struct ft_frame *frames;
	size_t nframes, framecap;
	struct mark *marks;
	size_t nmarks, markcap;
	struct frame_src *srcs;
	size_t nsrcs, srccap;
	/* user-space ring */
	struct ft_ev *uring;
	size_t ucap;
	uint64_t uhead;
	/* flight ring: last index copied per CPU for the pending capture */
	uint64_t *copied;
	struct snap_ev *snap;
	size_t nsnap, snapcap;
	uint64_t torn, overwritten;
	/* capture state */
	bool pending;
	uint64_t trig_ns, trig_frame_present;
	uint32_t trig_pid;
	char trig_text[256];
	uint64_t last_trig_ns;
	bool have_last;
	uint64_t captures, suppressed, merged, disk_used;
	bool oom;
	/* MangoHud tail */
	char mh_path[4096];
	off_t mh_off;
	off_t mh_skip;		/* rows written before the watch started */
	time_t mh_start;
	char *mh_header;	/* the lines up to and including the frame header */
	char mh_hdr[16384];	/* collecting it */
	char mh_partial[8192];
	size_t mh_plen;
	FILE *log;
	/* the host's steal, sampled every 100 ms (steal.h) */
	struct ft_steal steal;
	bool have_steal;
	uint64_t next_steal;
};

static volatile sig_atomic_t stop_sig, usr1;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		usr1 = 1;
	else
		stop_sig = sig;
}

/* ---- time-bounded windows ------------------------------------------- */

static void prune(struct watch *w, uint64_t now)
{
	uint64_t keep = w->pre_ns + w->post_ns + 2 * NSEC_PER_SEC;
	uint64_t cut = now > keep ? now - keep : 0;
	size_t i = 0;

	if (w->pending && w->trig_ns > w->pre_ns && w->trig_ns - w->pre_ns < cut)
		cut = w->trig_ns - w->pre_ns;
	while (i < w->nframes && w->frames[i].present_ns < cut)
		i++;
	if (i) {
		memmove(w->frames, w->frames + i, (w->nframes - i) * sizeof(*w->frames));
		w->nframes -= i;
	}
	i = 0;
	while (i < w->nmarks && w->marks[i].ev.ts < cut)
		free(w->marks[i++].text);
	if (i) {
		memmove(w->marks, w->marks + i, (w->nmarks - i) * sizeof(*w->marks));
		w->nmarks -= i;
	}
}

/* ---- triggers -------------------------------------------------------- */

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(const struct frame_src *s)
{
	double tmp[MEDIAN_WIN];

	memcpy(tmp, s->win, s->n * sizeof(double));
	qsort(tmp, s->n, sizeof(double), dcmp);
	return s->n ? tmp[s->n / 2] : 0;
}

static struct frame_src *src_of(struct watch *w, uint32_t pid)
{
	for (size_t i = 0; i < w->nsrcs; i++)
		if (w->srcs[i].pid == pid)
			return &w->srcs[i];
	if (FT_VEC_RESERVE(w->srcs, w->nsrcs, w->srccap))
		return NULL;
	memset(&w->srcs[w->nsrcs], 0, sizeof(w->srcs[0]));
	w->srcs[w->nsrcs].pid = pid;
	return &w->srcs[w->nsrcs++];
}

static void fire(struct watch *w, uint64_t ts, uint32_t pid, uint64_t present,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void fire(struct watch *w, uint64_t ts, uint32_t pid, uint64_t present,
		 const char *fmt, ...)
{
	va_list ap;

	if (w->pending) {
		w->merged++;
		return;
	}
	if (w->captures >= w->max_captures ||
	    (w->have_last && ts < w->last_trig_ns + w->min_gap_ns)) {
		w->suppressed++;
		return;
	}
	w->pending = true;
	w->trig_ns = ts;
	w->trig_pid = pid;
	w->trig_frame_present = present;
	va_start(ap, fmt);
	vsnprintf(w->trig_text, sizeof(w->trig_text), fmt, ap);
	va_end(ap);
	w->last_trig_ns = ts;
	w->have_last = true;
	/* start copying the kernel ring now: the pre-trigger part */
	w->nsnap = 0;
}

static void frame_seen(struct watch *w, uint32_t pid, uint64_t present,
		       uint64_t frametime_ns, bool warmup, const char *from)
{
	struct frame_src *s = src_of(w, pid);
	double ms = (double)frametime_ns / 1e6, med;

	if (!s) {
		w->oom = true;
		return;
	}
	med = s->n ? median_of(s) : 0;
	if (!warmup || w->warmup_triggers) {
		if (w->frame_ms > 0 && ms > w->frame_ms)
			fire(w, present, pid, present,
			     "frame %.2f ms > %.2f ms (median %.2f ms) of %s %u (%s)",
			     ms, w->frame_ms, med, pid ? ft_task_comm(&w->names, pid) : "log",
			     pid, from);
		else if (w->factor > 0 && s->n >= w->min_frames && med > 0 &&
			 ms > w->factor * med)
			fire(w, present, pid, present,
			     "frame %.2f ms = %.1fx the running median %.2f ms of %s %u (%s)",
			     ms, ms / med, med,
			     pid ? ft_task_comm(&w->names, pid) : "log", pid, from);
	}
	s->win[s->pos] = ms;
	s->pos = (s->pos + 1) % MEDIAN_WIN;
	if (s->n < MEDIAN_WIN)
		s->n++;
}

static int on_feed_frame(void *ctx, int pid, const struct gs_feed_frame *f)
{
	struct watch *w = ctx;
	struct ft_frame fr = ft_frame_from_feed(pid, f);

	if (FT_VEC_RESERVE(w->frames, w->nframes, w->framecap)) {
		w->oom = true;
		return -1;
	}
	w->frames[w->nframes++] = fr;
	if (w->frame_source == 0 || w->frame_source == 1)
		frame_seen(w, (uint32_t)pid, f->present_ns, f->frametime_ns,
			   f->flags & GS_FEED_F_WARMUP, "feed");
	return 0;
}

static void on_mark(struct watch *w, const struct ft_ev *e, const char *text)
{
	struct ft_atrace a;
	struct mark *m;

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
	if ((w->frame_source == 2 || (w->frame_source == 0 && !w->feeds.n)) &&
	    !ft_atrace_parse(text, &a) && a.kind == 'C') {
		double scale = ft_frametime_counter_scale(a.name);

		if (scale > 0 && a.value >= 0)
			frame_seen(w, a.tgid ? a.tgid : e->arg, e->ts,
				   (uint64_t)(a.value * scale), false, "trace_marker");
	}
}

/* Records from the aux ring (flight) or the main ring (user ring). */
static int on_record(void *ctx, void *data, size_t size)
{
	struct watch *w = ctx;
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
	if (e->type == FT_AUX_WAKELAT) {
		fire(w, e->ts, e->arg, 0,
		     "wake-up latency %.3f ms of %s:%u (> %s threshold)",
		     (double)e->val / 1e6, ft_task_comm(&w->names, e->tid), e->tid,
		     "--wakelat");
		return 0;
	}
	if (w->user_ring) {
		w->uring[w->uhead % w->ucap] = *e;
		w->uhead++;
	}
	return 0;
}

/* ---- MangoHud log being written --------------------------------------- */

static void mh_pick(struct watch *w)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	time_t best = 0;

	if (stat(w->mangohud, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (strcmp(w->mh_path, w->mangohud)) {
			snprintf(w->mh_path, sizeof(w->mh_path), "%s", w->mangohud);
			/* a log that already exists: its header, then only what
			 * is written from now on */
			w->mh_off = 0;
			w->mh_skip = st.st_size;
		}
		return;
	}
	d = opendir(w->mangohud);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[4096];
		size_t n = strlen(de->d_name), dl = strlen(w->mangohud);

		if (n < 5 || strcmp(de->d_name + n - 4, ".csv") ||
		    dl + n + 2 > sizeof(p))
			continue;
		memcpy(p, w->mangohud, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, de->d_name, n + 1);
		if (!stat(p, &st) && st.st_mtime >= best) {
			best = st.st_mtime;
			if (strcmp(w->mh_path, p)) {
				snprintf(w->mh_path, sizeof(w->mh_path), "%s", p);
				w->mh_off = 0;
				w->mh_skip = st.st_mtime < w->mh_start ? st.st_size : 0;
				free(w->mh_header);
				w->mh_header = NULL;
				w->mh_hdr[0] = '\0';
				w->mh_plen = 0;
			}
		}
	}
	closedir(d);
}

static void mh_rows(struct watch *w, const char *rows, size_t len)
{
	char *buf;
	size_t hl = strlen(w->mh_header);
	struct gs_mh_log log;
	char err[256];
	FILE *f;
	uint64_t now = gs_now_ns();

	buf = malloc(hl + len + 1);
	if (!buf)
		return;
	memcpy(buf, w->mh_header, hl);
	memcpy(buf + hl, rows, len);
	buf[hl + len] = '\0';
	f = fmemopen(buf, hl + len, "r");
	if (f && !gs_mh_read(f, w->mh_path, &log, err, sizeof(err))) {
		for (size_t i = 0; i < log.n; i++) {
			struct ft_frame fr = {
				.present_ns = now,
				.frametime_ns = (uint64_t)(log.frametime_ms[i] * 1e6),
				.flags = FT_FRAME_MANGOHUD,
			};

			if (!FT_VEC_RESERVE(w->frames, w->nframes, w->framecap))
				w->frames[w->nframes++] = fr;
			frame_seen(w, 0, now, fr.frametime_ns, false, "MangoHud");
		}
		gs_mh_free(&log);
	}
	if (f)
		fclose(f);
	free(buf);
}

static void mh_poll(struct watch *w)
{
	int fd;
	char buf[65536];
	ssize_t n;
	struct stat st;

	mh_pick(w);
	if (!w->mh_path[0])
		return;
	fd = open(w->mh_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	if (st.st_size < w->mh_off) { /* truncated: a new log */
		w->mh_off = 0;
		w->mh_skip = 0;
		free(w->mh_header);
		w->mh_header = NULL;
		w->mh_hdr[0] = '\0';
		w->mh_plen = 0;
	}
	if (lseek(fd, w->mh_off, SEEK_SET) < 0) {
		close(fd);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *rows = NULL;
		size_t nrows = 0;

		off_t pos = w->mh_off;

		w->mh_off += n;
		for (ssize_t i = 0; i < n; i++) {
			if (w->mh_plen < sizeof(w->mh_partial) - 1)
				w->mh_partial[w->mh_plen++] = buf[i];
			if (buf[i] != '\n')
				continue;
			w->mh_partial[w->mh_plen] = '\0';
			if (!w->mh_header) {
				/* collect lines up to the frame header */
				size_t hlen = strlen(w->mh_hdr);

				if (hlen + w->mh_plen < sizeof(w->mh_hdr)) {
					memcpy(w->mh_hdr + hlen, w->mh_partial,
					       w->mh_plen + 1);
					if (!strncmp(w->mh_partial, "fps,", 4) ||
					    strstr(w->mh_partial, "frametime")) {
						w->mh_header = strdup(w->mh_hdr);
						w->mh_hdr[0] = '\0';
					}
				}
			} else if (pos + i + 1 > w->mh_skip) {
				char *nr = realloc(rows, nrows + w->mh_plen + 1);

				if (nr) {
					rows = nr;
					memcpy(rows + nrows, w->mh_partial, w->mh_plen);
					nrows += w->mh_plen;
				}
			}
			w->mh_plen = 0;
		}
		if (rows && w->mh_header)
			mh_rows(w, rows, nrows);
		free(rows);
	}
	close(fd);
}

/* ---- snapshots and captures ------------------------------------------ */

static int snap_push(struct watch *w, uint64_t idx, const struct ft_ev *e)
{
	if (FT_VEC_RESERVE(w->snap, w->nsnap, w->snapcap))
		return -1;
	w->snap[w->nsnap].idx = idx;
	w->snap[w->nsnap].ev = *e;
	w->nsnap++;
	return 0;
}

/* Copies what the ring holds that was not copied yet for this capture. */
static int snapshot(struct watch *w, bool first)
{
	if (w->user_ring) {
		uint64_t from = w->uhead > w->ucap ? w->uhead - w->ucap : 0;

		if (first)
			w->copied[0] = from;
		if (w->copied[0] < from) {
			w->overwritten += from - w->copied[0];
			w->copied[0] = from;
		}
		for (uint64_t i = w->copied[0]; i < w->uhead; i++)
			if (snap_push(w, i, &w->uring[i % w->ucap]))
				return -1;
		w->copied[0] = w->uhead;
		return 0;
	}
	for (int c = 0; c < w->b.ncpus; c++) {
		uint64_t head = __atomic_load_n(&w->b.heads[c].head, __ATOMIC_ACQUIRE);
		uint64_t spc = w->b.slots_per_cpu;
		uint64_t from = head > spc ? head - spc : 0;

		if (first)
			w->copied[c] = from;
		if (w->copied[c] < from) {
			w->overwritten += from - w->copied[c];
			w->copied[c] = from;
		}
		for (uint64_t i = w->copied[c]; i < head; i++) {
			volatile struct ft_slot *s =
				&w->b.flight[(uint64_t)c * spc + (i & (spc - 1))];
			struct ft_ev e;
			uint64_t s1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), s2;

			if (s1 != i + 1) {
				w->torn++;
				continue;
			}
			memcpy(&e, (const void *)&s->ev, sizeof(e));
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			s2 = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
			if (s2 != s1) {
				w->torn++;
				continue;
			}
			if (snap_push(w, i, &e))
				return -1;
		}
		w->copied[c] = head;
	}
	return 0;
}

static void note_origin(struct watch *w, const struct ft_trace *t, char *out,
			size_t len)
{
	struct ft_report r;
	struct ft_report_opts o = { .top = 5, .explain = 0, .pid = w->trig_pid };
	struct ft_explain x;
	size_t best = SIZE_MAX;
	uint64_t bd = UINT64_MAX;

	out[0] = '\0';
	if (!w->trig_frame_present || !t->nframes)
		return;
	if (ft_report_build(&r, t, &o)) {
		ft_report_free(&r);
		return;
	}
	for (size_t i = 0; i < t->nframes; i++) {
		uint64_t d = t->frames[i].present_ns > w->trig_frame_present
				     ? t->frames[i].present_ns - w->trig_frame_present
				     : w->trig_frame_present - t->frames[i].present_ns;

		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	if (best != SIZE_MAX && bd < 1000000 &&
	    !ft_explain_frame(&r.m, best, r.presenter, &x)) {
		char a[64], d1[24], d2[24];

		ft_explain_compare(&r.m, &x, r.has_median ? &r.median : NULL);
		if (x.origin >= 0) {
			const struct ft_link *l = &x.link[x.origin];
			bool runnable = ft_origin_kind(&x) == 0;
			size_t o2;

			snprintf(out, len, "; origin: link %d %s %s %s (+%s",
				 x.origin + 1, ft_task_label(t, l->tid, a, sizeof(a)),
				 ft_origin_verb(&x),
				 ft_fmt_ns(d1, sizeof(d1), ft_origin_ns(&x)),
				 ft_fmt_ns(d2, sizeof(d2), (uint64_t)x.origin_excess_ns));
			o2 = strlen(out);
			if (x.frame_excess_ns > 0)
				snprintf(out + o2, len - o2, " of +%s)",
					 ft_fmt_ns(d2, sizeof(d2), (uint64_t)x.frame_excess_ns));
			else
				snprintf(out + o2, len - o2, ")");
			o2 = strlen(out);
			if (runnable && ft_link_idle_wait(l))
				snprintf(out + o2, len - o2,
					 ", its CPU%u idle meanwhile (wake-up not acted on)",
					 l->nholders ? l->holder[0].cpu : 0);
			else if (runnable && l->nholders)
				snprintf(out + o2, len - o2, ", CPU%u held by %s",
					 l->holder[0].cpu,
					 ft_task_label(t, l->holder[0].tid, a, sizeof(a)));
		} else if (x.frame_excess_ns > 0) {
			snprintf(out, len, "; origin: before the wake chain (no link of it "
				 "took longer than in the median frame)");
		}
	}
	ft_report_free(&r);
}

static int snap_cmp(const void *a, const void *b)
{
	const struct snap_ev *x = a, *y = b;

	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void capture_finish(struct watch *w, const char *kernel)
{
	struct ft_trace t;
	uint64_t lo = w->trig_ns > w->pre_ns ? w->trig_ns - w->pre_ns : 0;
	uint64_t hi = w->trig_ns + w->post_ns, oldest = UINT64_MAX;
	char path[4200], err[512], origin[300];
	uint64_t torn0 = w->torn, over0 = w->overwritten;
	uint64_t est;

	w->pending = false;
	if (snapshot(w, false)) {
		w->oom = true;
		return;
	}
	ft_trace_init(&t);
	t.ncpus = (uint32_t)w->b.ncpus;
	if (w->nsnap > 1)
		qsort(w->snap, w->nsnap, sizeof(*w->snap), snap_cmp);
	for (size_t i = 0; i < w->nsnap; i++) {
		const struct ft_ev *e = &w->snap[i].ev;

		if (e->ts < oldest)
			oldest = e->ts;
		if (e->ts < lo || e->ts > hi)
			continue;
		if (ft_trace_push(&t, e))
			goto oom;
	}
	for (size_t i = 0; i < w->nmarks; i++) {
		struct ft_ev e = w->marks[i].ev;
		long idx;

		if (e.ts < lo || e.ts > hi)
			continue;
		idx = ft_str_add(&t, w->marks[i].text);
		if (idx < 0)
			goto oom;
		e.arg2 = (uint32_t)idx;
		if (ft_trace_push(&t, &e))
			goto oom;
	}
	for (size_t i = 0; i < w->nframes; i++)
		if (w->frames[i].present_ns >= lo && w->frames[i].present_ns <= hi &&
		    ft_frame_push(&t, &w->frames[i]))
			goto oom;
	for (size_t i = 0; i < w->names.ntasks; i++) {
		const struct ft_task_rec *r = &w->names.tasks[i];

		if (ft_task_set(&t, r->tid, r->pid, r->comm))
			goto oom;
		ft_task_get_mut(&t, r->tid)->flags = r->flags;
	}
	t.start_ns = lo;
	t.end_ns = hi;
	ft_meta_set(&t, "source", "watch");
	ft_meta_set(&t, "trigger", "%s", w->trig_text);
	ft_meta_set(&t, "trigger_ns", "%" PRIu64, w->trig_ns);
	ft_meta_set(&t, "window_ns", "%" PRIu64 " %" PRIu64, lo, hi);
	ft_meta_set(&t, "ring", "%s", w->user_ring ? "user" : "kernel");
	ft_meta_set(&t, "torn_slots", "%" PRIu64, w->torn - torn0);
	ft_meta_set(&t, "overwritten", "%" PRIu64, w->overwritten - over0);
	ft_meta_set(&t, "futex", "%s", w->b.futex_src);
	if (kernel)
		ft_meta_set(&t, "kernel", "%s", kernel);
	if (w->have_steal && !ft_steal_sample(&w->steal, gs_now_ns())) {
		struct ft_steal_sum sum;

		if (!ft_steal_window(&w->steal, lo, hi, &sum))
			ft_steal_meta_set(&t, &sum);
	}
	t.lost_events = ft_bpf_lost(&w->b, true) + w->overwritten - over0;
	if (ft_trace_finish(&t))
		goto oom;
	est = FT_HEADER_SIZE + t.nev * sizeof(struct ft_ev) +
	      t.ntasks * sizeof(struct ft_task_rec) +
	      t.nframes * sizeof(struct ft_frame) + 4096;
	for (size_t i = 0; i < t.nstr; i++)
		est += strlen(t.str[i]) + 1;
	if (w->disk_used + est > w->max_disk) {
		fprintf(w->log ? w->log : stderr,
			"capture skipped: %s; disk cap %.1f MiB reached\n",
			w->trig_text, (double)w->max_disk / (1 << 20));
		if (w->log)
			fflush(w->log);
		w->suppressed++;
		ft_trace_free(&t);
		return;
	}
	w->captures++;
	snprintf(path, sizeof(path), "%s/capture-%03" PRIu64 ".ftr", w->dir,
		 w->captures);
	if (ft_trace_write(&t, path, err, sizeof(err))) {
		gs_warn("watch: %s", err);
		ft_trace_free(&t);
		return;
	}
	w->disk_used += est;
	note_origin(w, &t, origin, sizeof(origin));
	{
		char line[6000];
		double cover = oldest <= lo ? (double)w->pre_ns / 1e9
			       : oldest == UINT64_MAX ? 0
						      : (double)(w->trig_ns - oldest) / 1e9;

		snprintf(line, sizeof(line),
			 "capture %" PRIu64 ": %s at %.6f s; window -%.2f..+%.2f s%s; "
			 "%zu events, %zu frames%s -> %s%s",
			 w->captures, w->trig_text, (double)w->trig_ns / 1e9,
			 (double)w->pre_ns / 1e9, (double)w->post_ns / 1e9,
			 oldest > lo ? " (ring held less: raise --ring-slots)" : "",
			 t.nev, t.nframes,
			 w->torn - torn0 ? " (torn slots skipped)" : "", path, origin);
		(void)cover;
		if (!w->quiet)
			printf("%s\n", line);
		fflush(stdout);
		if (w->log) {
			fprintf(w->log, "%s\n", line);
			fflush(w->log);
		}
	}
	ft_trace_free(&t);
	return;
oom:
	w->oom = true;
	ft_trace_free(&t);
}

/* ---- the command ----------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: frametrace watch [options] [-- CMD [ARG...]]\n"
		"  Keeps the last seconds of scheduling events in a bounded ring and\n"
		"  saves --pre before to --post after each trigger (root, BPF).\n"
		"  -o, --dir DIR           captures go here (default .): capture-NNN.ftr,\n"
		"                          captures.log (one line each), watch.pid\n"
		"  --pre D / --post D      window around a trigger (default 2s / 500ms)\n"
		"  triggers:\n"
		"  --frame-ms X            a frame longer than X ms\n"
		"  --frame-factor K        a frame longer than K x the running median\n"
		"                          of the last 301 frames (default 4 when no\n"
		"                          other trigger is given)\n"
		"  --min-frames N          frames before --frame-factor applies (60)\n"
		"  --frames-from feed|markers|mangohud|auto   (default auto: the\n"
		"                          framebench feed, else trace_marker counters)\n"
		"  --feed-pid PID          only this framebench's feed\n"
		"  --mangohud PATH         a MangoHud log (or its folder) being written\n"
		"  --wakelat D             a wake-up latency above D ...\n"
		"  --wakelat-comm NAME     ... of threads whose name starts with NAME\n"
		"  --warmup-triggers       also trigger on framebench warm-up frames\n"
		"  SIGUSR1, or 'frametrace trigger DIR', saves a capture now\n"
		"  limits:\n"
		"  --min-gap D             between captures (default 10s)\n"
		"  --max-captures N        (default 10)\n"
		"  --max-disk MB           total size of captures (default 512)\n"
		"  ring:\n"
		"  --ring-slots N          events per CPU, power of two (default 262144)\n"
		"  --user-ring             stream events into a user-space ring instead\n"
		"  -d, --duration D        stop after D (else when CMD exits or SIGINT)\n"
		"  -q, --quiet             notes only in captures.log\n");
}

int ft_cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'o' },
		{ "pre", required_argument, NULL, 'P' },
		{ "post", required_argument, NULL, 'Q' },
		{ "frame-ms", required_argument, NULL, 'f' },
		{ "frame-factor", required_argument, NULL, 'k' },
		{ "min-frames", required_argument, NULL, 'n' },
		{ "frames-from", required_argument, NULL, 'F' },
		{ "feed-pid", required_argument, NULL, 'p' },
		{ "feed-dir", required_argument, NULL, 'D' },
		{ "mangohud", required_argument, NULL, 'm' },
		{ "wakelat", required_argument, NULL, 'l' },
		{ "wakelat-comm", required_argument, NULL, 'c' },
		{ "warmup-triggers", no_argument, NULL, 'W' },
		{ "min-gap", required_argument, NULL, 'g' },
		{ "max-captures", required_argument, NULL, 'x' },
		{ "max-disk", required_argument, NULL, 'X' },
		{ "ring-slots", required_argument, NULL, 'r' },
		{ "user-ring", no_argument, NULL, 'u' },
		{ "duration", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch w;
	struct ft_bpf_opts bo = { .mode = FT_MODE_FLIGHT };
	uint64_t ring_slots = 262144, duration = 0, feed_pid = 0, t0;
	const char *feed_dir = "/dev/shm";
	int c, verbose = 0, status = 0, gate = -1;
	pid_t child = 0;
	char err[600], path[4200];
	struct sigaction sa;
	struct utsname un;
	const char *kernel = NULL;
	uint64_t next_scan = 0, next_mh = 0, next_prune = 0;
	bool explicit_trigger = false;

	memset(&w, 0, sizeof(w));
	w.dir = ".";
	w.pre_ns = 2 * NSEC_PER_SEC;
	w.post_ns = 500 * NSEC_PER_MSEC;
	w.min_gap_ns = 10 * NSEC_PER_SEC;
	w.max_captures = 10;
	w.max_disk = 512ULL << 20;
	w.min_frames = 60;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:d:qvh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': w.dir = optarg; break;
		case 'P': w.pre_ns = gs_opt_duration_ns("--pre", optarg, NSEC_PER_SEC, 0, 3600 * NSEC_PER_SEC); break;
		case 'Q': w.post_ns = gs_opt_duration_ns("--post", optarg, NSEC_PER_SEC, 0, 3600 * NSEC_PER_SEC); break;
		case 'f': w.frame_ms = gs_opt_double("--frame-ms", optarg, 0.001, 1e7); explicit_trigger = true; break;
		case 'k': w.factor = gs_opt_double("--frame-factor", optarg, 1.01, 1e6); explicit_trigger = true; break;
		case 'n': w.min_frames = gs_opt_u64("--min-frames", optarg, 1, MEDIAN_WIN); break;
		case 'F':
			if (!strcmp(optarg, "auto")) w.frame_source = 0;
			else if (!strcmp(optarg, "feed")) w.frame_source = 1;
			else if (!strcmp(optarg, "markers")) w.frame_source = 2;
			else if (!strcmp(optarg, "mangohud")) w.frame_source = 3;
			else gs_die(EXIT_USAGE, "option --frames-from: expected feed, markers, mangohud or auto, got '%s'", optarg);
			break;
		case 'p': feed_pid = gs_opt_u64("--feed-pid", optarg, 1, INT32_MAX); break;
		case 'D': feed_dir = optarg; break;
		case 'm': w.mangohud = optarg; explicit_trigger = true; break;
		case 'l': bo.wl_thresh_ns = gs_opt_duration_ns("--wakelat", optarg, NSEC_PER_MSEC, 1000, 3600 * NSEC_PER_SEC); explicit_trigger = true; break;
		case 'c': bo.wl_comm = optarg; break;
		case 'W': w.warmup_triggers = true; break;
		case 'g': w.min_gap_ns = gs_opt_duration_ns("--min-gap", optarg, NSEC_PER_SEC, 0, 86400 * NSEC_PER_SEC); break;
		case 'x': w.max_captures = gs_opt_u64("--max-captures", optarg, 1, 100000); break;
		case 'X': w.max_disk = gs_opt_u64("--max-disk", optarg, 1, 1 << 20) << 20; break;
		case 'r': ring_slots = gs_opt_u64("--ring-slots", optarg, 1024, 1 << 24); break;
		case 'u': w.user_ring = true; break;
		case 'd': duration = gs_opt_duration_ns("--duration", optarg, NSEC_PER_SEC, NSEC_PER_MSEC, UINT64_MAX / 2); break;
		case 'q': w.quiet = true; break;
		case 'v': verbose++; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (ring_slots & (ring_slots - 1))
		gs_die(EXIT_USAGE, "option --ring-slots: expected a power of two, got '%" PRIu64 "'", ring_slots);
	if (bo.wl_comm && !bo.wl_thresh_ns)
		gs_die(EXIT_USAGE, "option --wakelat-comm needs --wakelat");
	if (!explicit_trigger)
		w.factor = 4;
	if (w.frame_source == 3 && !w.mangohud)
		gs_die(EXIT_USAGE, "option --frames-from mangohud needs --mangohud PATH");
	if (geteuid() != 0)
		gs_die(EXIT_RUNTIME, "watch: needs root (CAP_BPF and CAP_PERFMON) to load BPF programs");
	if (mkdir(w.dir, 0755) && errno != EEXIST)
		gs_die(EXIT_USAGE, "watch: %s: %s", w.dir, strerror(errno));

	ft_bpf_log_level(verbose);
	ft_trace_init(&w.names);
	if (ft_proc_names(&w.names, getpid()))
		gs_warn("watch: could not read /proc for task names");
	ft_proc_mark_recorder(&w.names, getpid());
	{
		uint32_t shift = 0;

		while ((1ULL << shift) < ring_slots)
			shift++;
		bo.flight_shift = shift;
	}
	if (w.user_ring) {
		bo.mode = FT_MODE_STREAM;
		bo.ring_mb = 16;
		bo.on_event = on_record;
	}
	bo.on_aux = on_record;
	bo.ctx = &w;
	if (optind < argc) {
		int p[2];

		if (pipe(p))
			gs_die(EXIT_RUNTIME, "pipe: %s", strerror(errno));
		child = fork();
		if (child < 0)
			gs_die(EXIT_RUNTIME, "fork: %s", strerror(errno));
		if (child == 0) {
			char ch;

			close(p[1]);
			if (read(p[0], &ch, 1) != 1)
				_exit(127);
			close(p[0]);
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "frametrace: %s: %s\n", argv[optind], strerror(errno));
			_exit(127);
		}
		close(p[0]);
		gate = p[1];
	}
	if (ft_bpf_open(&w.b, &bo, err, sizeof(err))) {
		if (child > 0) {
			close(gate);
			waitpid(child, NULL, 0);
		}
		gs_die(EXIT_RUNTIME, "watch: %s", err);
	}
	if (w.b.notes[0] && !w.quiet)
		gs_warn("watch: %s", w.b.notes);
	w.copied = calloc((size_t)w.b.ncpus + 1, sizeof(*w.copied));
	if (w.user_ring) {
		w.ucap = (size_t)ring_slots * (size_t)w.b.ncpus;
		w.uring = malloc(w.ucap * sizeof(*w.uring));
	}
	if (!w.copied || (w.user_ring && !w.uring))
		gs_die(EXIT_RUNTIME, "out of memory");
	/* enough 100 ms samples to bracket a whole window */
	w.have_steal = !ft_steal_init(&w.steal, w.b.ncpus,
				      (size_t)((w.pre_ns + w.post_ns) / (100 * NSEC_PER_MSEC)) + 8,
				      NULL);
	if (!uname(&un))
		kernel = un.release;
	ft_feedset_init(&w.feeds, feed_dir, (int)feed_pid);
	snprintf(path, sizeof(path), "%s/captures.log", w.dir);
	w.log = fopen(path, "a");
	if (!w.log)
		gs_warn("watch: %s: %s (notes on stdout only)", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/watch.pid", w.dir);
	{
		FILE *pf = fopen(path, "w");

		if (pf) {
			fprintf(pf, "%d\n", (int)getpid());
			fclose(pf);
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	if (!w.quiet)
		fprintf(stderr,
			"frametrace watch: %s ring, %" PRIu64 " events per CPU; window "
			"-%.2f..+%.2f s; captures in %s (pid %d; SIGUSR1 or "
			"'frametrace trigger %s' to capture now)\n",
			w.user_ring ? "user-space" : "in-kernel", ring_slots,
			(double)w.pre_ns / 1e9, (double)w.post_ns / 1e9, w.dir,
			(int)getpid(), w.dir);
	if (child > 0) {
		if (write(gate, "g", 1) != 1)
			gs_warn("watch: could not start the command");
		close(gate);
	}
	t0 = gs_now_ns();
	w.mh_start = time(NULL);
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
			ft_feedset_scan(&w.feeds);
			next_scan = now + 200 * NSEC_PER_MSEC;
		}
		ring_buffer__poll(w.b.rb, done ? 0 : 10);
		ring_buffer__consume(w.b.rb);
		ft_feedset_poll(&w.feeds, on_feed_frame, &w);
		if (w.have_steal && now >= w.next_steal) {
			ft_steal_sample(&w.steal, now);
			w.next_steal = now + 100 * NSEC_PER_MSEC;
		}
		if (w.mangohud && now >= next_mh) {
			mh_poll(&w);
			next_mh = now + 100 * NSEC_PER_MSEC;
		}
		if (usr1) {
			usr1 = 0;
			fire(&w, gs_now_ns(), 0, 0, "manual trigger (SIGUSR1)");
		}
		if (w.pending) {
			if (!w.nsnap && snapshot(&w, true))
				w.oom = true;
			if (gs_now_ns() >= w.trig_ns + w.post_ns || done)
				capture_finish(&w, kernel);
		}
		if (now >= next_prune) {
			prune(&w, now);
			next_prune = now + NSEC_PER_SEC;
		}
		if (w.oom) {
			gs_warn("watch: out of memory");
			break;
		}
		if (done)
			break;
	}
	if (child > 0) {
		kill(child, stop_sig ? stop_sig : SIGTERM);
		waitpid(child, &status, 0);
	}
	if (!w.quiet || w.log) {
		char line[300];

		snprintf(line, sizeof(line),
			 "watch: %" PRIu64 " captures, %" PRIu64 " triggers suppressed "
			 "(rate limit, caps), %" PRIu64 " merged into a capture, %" PRIu64
			 " aux records lost",
			 w.captures, w.suppressed, w.merged, ft_bpf_lost(&w.b, true));
		if (!w.quiet)
			fprintf(stderr, "%s\n", line);
		if (w.log)
			fprintf(w.log, "%s\n", line);
	}
	snprintf(path, sizeof(path), "%s/watch.pid", w.dir);
	unlink(path);
	if (w.log)
		fclose(w.log);
	ft_bpf_close(&w.b);
	ft_feedset_free(&w.feeds);
	for (size_t i = 0; i < w.nmarks; i++)
		free(w.marks[i].text);
	free(w.marks);
	free(w.frames);
	free(w.srcs);
	free(w.snap);
	free(w.copied);
	free(w.uring);
	free(w.mh_header);
	ft_steal_free(&w.steal);
	ft_trace_free(&w.names);
	return w.oom ? EXIT_RUNTIME : EXIT_OK;
}

int ft_cmd_trigger(int argc, char **argv)
{
	char path[4200], buf[32];
	long pid;
	char *end;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: frametrace trigger DIR|PID\n"
			"  Asks a running 'frametrace watch' (its capture directory or\n"
			"  pid) to save a capture now.\n");
		return argc == 2 ? EXIT_OK : EXIT_USAGE;
	}
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 0) {
		snprintf(path, sizeof(path), "%s/watch.pid", argv[1]);
		if (gs_read_text(path, buf, sizeof(buf)) < 0)
			gs_die(EXIT_USAGE, "trigger: %s: %s (is a watch running there?)",
			       path, strerror(errno));
		pid = strtol(buf, &end, 10);
		if (*end || pid <= 0)
			gs_die(EXIT_USAGE, "trigger: %s: expected a pid, got '%s'", path, buf);
	}
	if (kill((pid_t)pid, SIGUSR1))
		gs_die(EXIT_RUNTIME, "trigger: pid %ld: %s", pid, strerror(errno));
	return EXIT_OK;
}
