// SPDX-License-Identifier: GPL-2.0-only
#include "gamectl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "kinfo.h"
#include "report.h"
#include "skel.h"
#include "sysinfo.h"
#include "util.h"

/* Processes younger than this have their threads read again by the scan
 * path: engines name their threads while they start up. */
#define YOUNG_NS (30ULL * NSEC_PER_SEC)

void lavd_game_init(struct lavd_game *g, const struct lavd_opts *o,
		    struct lavd_gp_set *set, struct lavd_gp_set *spare,
		    const volatile sig_atomic_t *hup)
{
	memset(g, 0, sizeof(*g));
	g->opts = o;
	g->set = set;
	g->spare = spare;
	g->hup = hup;
}

void lavd_game_configure(struct lavd_game *g, struct lavd *skel)
{
	bool ev;

	g->skel = skel;
	g->on = g->set->n > 0;
	/* both or neither: a rename without an exec event misses programs */
	ev = g->on && !g->opts->match_scan &&
	     gs_tracepoint_exists(NULL, "sched/sched_process_exec") &&
	     gs_tracepoint_exists(NULL, "task/task_rename");
	skel->rodata->game_profiles = g->on;
	bpf_program__set_autoload(skel->progs.lavd_tp_exec, ev);
	bpf_program__set_autoload(skel->progs.lavd_tp_rename, ev);
	g->events = ev;
}

/* ---- the map of processes ---- */

static const char *comm_of(const struct lavd_game *g, int pid)
{
	const struct lavd_ps_ent *e = lavd_ps_find(&g->ps, pid);

	return e ? e->comm : "?";
}

/* procscan's callback: pid follows profile new_idx now (-1: none). */
static int assign(void *ctx, int pid, int old_idx, int new_idx)
{
	struct lavd_game *g = ctx;
	int fd = bpf_map__fd(g->skel->maps.lavd_prof_tgid);
	__u32 key = (__u32)pid;

	if (new_idx < 0) {
		bpf_map_delete_elem(fd, &key);
		printf("lavd: %s:%d leaves profile %s\n", comm_of(g, pid), pid,
		       old_idx >= 0 && old_idx < g->set->n ? g->set->p[old_idx].name : "?");
	} else {
		struct lavd_prof_tgid v = { .idx = (__u32)new_idx + 1,
					    .kn = g->set->p[new_idx].kn };

		if (bpf_map_update_elem(fd, &key, &v, BPF_ANY)) {
			if (!g->full_warned)
				gs_warn("game profiles: %s:%d cannot follow %s: %s (at most "
					"%d processes)", comm_of(g, pid), pid,
					g->set->p[new_idx].name, strerror(errno),
					LAVD_PROF_TGIDS);
			g->full_warned = true;
			return -1;
		}
		printf("lavd: %s:%d follows profile %s\n", comm_of(g, pid), pid,
		       g->set->p[new_idx].name);
	}
	fflush(stdout);
	g->dirty = true;
	return 0;
}

/* Tasks copy their entry again when the generation moves (gameprof.bpf.h). */
static void publish(struct lavd_game *g)
{
	if (!g->dirty)
		return;
	__atomic_add_fetch(&g->skel->data->prof_gen, 1, __ATOMIC_RELEASE);
	g->dirty = false;
}

static void write_names(struct lavd_game *g)
{
	int fd = bpf_map__fd(g->skel->maps.lavd_prof_knob);

	for (__u32 i = 0; i < LAVD_MAX_PROFILES; i++) {
		struct lavd_prof_info v = { 0 };

		if (i && (int)i <= g->set->n) {
			gs_strlcpy(v.name, g->set->p[i - 1].name, sizeof(v.name));
			v.kn = g->set->p[i - 1].kn;
		}
		bpf_map_update_elem(fd, &i, &v, BPF_ANY);
	}
}

static int on_event(void *ctx, void *data, size_t len)
{
	struct lavd_game *g = ctx;

	if (len >= sizeof(struct lavd_proc_ev))
		lavd_ps_event(&g->ps, data, gs_now_ns());
	return 0;
}

static void detach(struct lavd_game *g)
{
	for (int i = 0; i < 2; i++) {
		if (g->link[i])
			bpf_link__destroy(g->link[i]);
		g->link[i] = NULL;
	}
	if (g->rb)
		ring_buffer__free(g->rb);
	g->rb = NULL;
}

static int attach_events(struct lavd_game *g)
{
	g->link[0] = bpf_program__attach(g->skel->progs.lavd_tp_exec);
	g->link[1] = g->link[0] ? bpf_program__attach(g->skel->progs.lavd_tp_rename) : NULL;
	if (g->link[1])
		g->rb = ring_buffer__new(bpf_map__fd(g->skel->maps.lavd_proc_ev), on_event,
					 g, NULL);
	if (g->rb)
		return 0;
	gs_warn("game profiles: the exec and rename tracepoints cannot be used (%s); "
		"scanning /proc every %llu ms instead", strerror(errno),
		(unsigned long long)g->opts->match_scan_ms);
	detach(g);
	return -1;
}

static void names_list(const struct lavd_gp_set *set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < set->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					set->p[i].name);
}

int lavd_game_start(struct lavd_game *g)
{
	char names[600];
	int rc = 0;

	if (!g->on)
		return 0;
	write_names(g);
	if (g->events && attach_events(g)) {
		g->events = false;
		rc = -1;
	}
	/* the events path keeps only matched processes; the scan path all */
	lavd_ps_init(&g->ps, "/proc", g->set, !g->events, YOUNG_NS, assign, g);
	names_list(g->set, names, sizeof(names));
	printf("lavd: game profiles: %d (%s); processes noticed by %s, "
	       "%s every %llu ms\n", g->set->n, names,
	       g->events ? "exec and rename events" : "scanning /proc",
	       g->events ? "exited ones forgotten" : "new and renamed ones matched",
	       (unsigned long long)g->opts->match_scan_ms);
	fflush(stdout);
	if (lavd_ps_scan(&g->ps, gs_now_ns(), true) < 0)
		gs_warn("game profiles: cannot read /proc: %s", strerror(errno));
	publish(g);
	g->next_period = lavd_now_s() + (double)g->opts->match_scan_ms / 1000.0;
	g->next_files = lavd_now_s() + 2.0;
	return rc;
}

/* ---- while it runs ---- */

/* SIGHUP: every file again, with the same checks; the old set stays on error. */
static void reload(struct lavd_game *g)
{
	struct lavd_gp_set *tmp;
	struct lavd_knobs dfl;
	char err[1200], names[600];
	__u32 key, next;
	int fd;

	if (!g->on) {
		printf("lavd: SIGHUP: no game profiles were given at start; "
		       "nothing to reload\n");
		return;
	}
	lavd_opts_default_knobs(g->opts, &dfl);
	if (lavd_gp_load(g->opts->gp_paths, g->opts->nr_gp_paths, &dfl,
			 !g->opts->no_futex_boost, lavd_opts_is_option, g->spare,
			 err, sizeof(err))) {
		printf("lavd: reloading the game profiles failed: %s; keeping the %d "
		       "loaded\n", err, g->set->n);
		fflush(stdout);
		return;
	}
	tmp = g->set;
	g->set = g->spare;
	g->spare = tmp;
	/* every process is matched again against the new set; the tasks keep
	 * their old knobs until the new generation is published */
	fd = bpf_map__fd(g->skel->maps.lavd_prof_tgid);
	while (bpf_map_get_next_key(fd, NULL, &next) == 0) {
		key = next;
		bpf_map_delete_elem(fd, &key);
	}
	for (size_t i = 0; i < g->ps.n; i++)
		g->ps.ent[i].idx = -1;
	g->ps.set = g->set;
	write_names(g);
	names_list(g->set, names, sizeof(names));
	printf("lavd: reloaded the game profiles: %d (%s)\n", g->set->n, names);
	fflush(stdout);
	lavd_ps_scan(&g->ps, gs_now_ns(), true);
	g->dirty = true;
}

void lavd_game_poll(struct lavd_game *g, double now)
{
	static volatile sig_atomic_t hup_seen;
	__u64 lost;
	int f;

	if (g->hup && *g->hup != hup_seen) {
		hup_seen = *g->hup;
		reload(g);
	}
	if (!g->on)
		return;
	if (g->rb)
		ring_buffer__consume(g->rb);
	lost = __atomic_load_n(&g->skel->bss->nr_proc_ev_lost, __ATOMIC_RELAXED);
	if (lost != g->lost_seen) {
		/* the ring buffer overflowed: what it missed, a scan finds */
		g->lost_seen = lost;
		lavd_ps_scan(&g->ps, gs_now_ns(), true);
	}
	if (now >= g->next_period) {
		if (g->events)
			lavd_ps_sweep(&g->ps);
		else
			lavd_ps_scan(&g->ps, gs_now_ns(), false);
		g->next_period = now + (double)g->opts->match_scan_ms / 1000.0;
	}
	if (now >= g->next_files) {
		g->next_files = now + 2.0;
		if ((f = lavd_gp_changed(g->set)) >= 0) {
			printf("lavd: %s changed on disk; still using what was read "
			       "(send SIGHUP to read the profiles again)\n",
			       g->set->files[f].path);
			fflush(stdout);
		}
	}
	publish(g);
}

void lavd_game_stop(struct lavd_game *g)
{
	detach(g);
	lavd_ps_free(&g->ps);
	g->skel = NULL;
}

/* ---- statistics ---- */

static void fill_sched(struct lavd_prof_row *rows, int n, const struct lavd_stats *prev,
		       const struct lavd_stats *cur)
{
	for (int i = 0; i < n; i++)
		rows[i].sched = cur->prof_sched[i + 1] - prev->prof_sched[i + 1];
}

static void add_proc(struct lavd_prof_row *r, int pid, const char *comm)
{
	if (r->nproc < LAVD_PROF_ROW_PIDS) {
		r->pid[r->nproc] = pid;
		memset(r->comm[r->nproc], 0, 16);
		gs_strlcpy(r->comm[r->nproc], comm, 16);
	}
	r->nproc++;
}

void lavd_game_stats(const struct lavd_game *g, const struct lavd_stats *prev,
		     const struct lavd_stats *cur, double secs, char *buf, size_t len)
{
	struct lavd_prof_row rows[LAVD_GP_MAX];

	buf[0] = '\0';
	if (!g->on)
		return;
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < g->set->n; i++)
		gs_strlcpy(rows[i].name, g->set->p[i].name, sizeof(rows[i].name));
	for (size_t i = 0; i < g->ps.n; i++) {
		const struct lavd_ps_ent *e = &g->ps.ent[i];

		if (e->idx >= 0 && e->idx < g->set->n)
			add_proc(&rows[e->idx], e->pid, e->comm);
	}
	fill_sched(rows, g->set->n, prev, cur);
	lavd_profiles_line(buf, len, g->set->n, rows, g->set->n, secs);
}

void lavd_game_monitor_stats(int tgid_fd, int knob_fd, const struct lavd_stats *prev,
			     const struct lavd_stats *cur, double secs,
			     char *buf, size_t len)
{
	struct lavd_prof_row rows[LAVD_GP_MAX];
	__u32 key, next, *kp = NULL;
	int n = 0;

	buf[0] = '\0';
	if (tgid_fd < 0 || knob_fd < 0)
		return;
	memset(rows, 0, sizeof(rows));
	for (__u32 i = 1; i < LAVD_MAX_PROFILES; i++) {
		struct lavd_prof_info v;

		if (bpf_map_lookup_elem(knob_fd, &i, &v) || !v.name[0])
			break;
		gs_strlcpy(rows[n++].name, v.name, sizeof(rows[0].name));
	}
	if (!n)
		return;	/* loaded without profiles */
	while (bpf_map_get_next_key(tgid_fd, kp, &next) == 0) {
		struct lavd_prof_tgid v;
		char path[64], comm[16] = "?";
		bool kt;
		uint64_t st;

		key = next;
		kp = &key;
		if (bpf_map_lookup_elem(tgid_fd, &key, &v) || !v.idx || (int)v.idx > n)
			continue;
		snprintf(path, sizeof(path), "/proc");
		lavd_ps_read_stat(path, (int)key, comm, &kt, &st);
		add_proc(&rows[v.idx - 1], (int)key, comm);
	}
	fill_sched(rows, n, prev, cur);
	lavd_profiles_line(buf, len, n, rows, n, secs);
}
