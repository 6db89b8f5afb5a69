// SPDX-License-Identifier: GPL-2.0-only
/*
 * frametrace compare A B: two traces side by side as the profile
 * derivation sees them (profile/pipeline.h), so a replay can be checked
 * against its original: frame times, CPU per frame of each stage (matched
 * by position in the chain), the pool and the services, the chain, the
 * share of wake-ups that cross processes, each thread's share of the
 * game's CPU. Text, or --json with the B/A ratios.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "trace/ftutil.h"
#include "import/import.h"
#include "json.h"
#include "analysis/model.h"
#include "profile/pipeline.h"
#include "opttab.h"
#include "util.h"

struct side {
	const char *path;
	struct ft_trace t;
	struct ft_model m;
	struct ft_pr_analysis a;
};

/* A thread with a role, as compare names it on both sides. */
struct row {
	char role[48];
	uint32_t tid;
	double cpu;
};

static void load(struct side *s, const char *path, uint32_t pid,
		 const char *pid_opt)
{
	struct ft_pr_opts o = { .step_ns = -1, .pid = pid, .pid_opt = pid_opt };
	char err[1024];
	int rc;

	s->path = path;
	rc = ft_load(path, &s->t, err, sizeof(err));
	if (rc < 0)
		gs_die(EXIT_USAGE, "%s", err);
	ft_load_warn(&s->t, rc);
	if (ft_model_build(&s->m, &s->t))
		gs_die(EXIT_RUNTIME, "out of memory building the timeline of %s", path);
	rc = ft_pr_analyze(&s->a, &s->m, &o, err, sizeof(err));
	if (rc == -2)
		gs_die(EXIT_RUNTIME, "out of memory analysing %s", path);
	if (rc)
		gs_die(EXIT_USAGE, "%s: %s", path, err);
}

static double cpu_of(const struct ft_pr_analysis *a, uint32_t tid)
{
	long ti = ft_pr_index(a, tid);

	return ti < 0 ? 0 : (double)a->th[ti].cpu;
}

static double stage_cpu(const struct ft_pr_analysis *a, unsigned k)
{
	return cpu_of(a, a->stage[k].tid) / (double)a->nf;
}

static int by_cpu_desc(const void *x, const void *y)
{
	const struct row *p = x, *q = y;

	return p->cpu > q->cpu ? -1 : p->cpu < q->cpu;
}

/* The threads with a role, then the rest of the game's processes as one. */
static size_t rows_of(const struct ft_pr_analysis *a, struct row *r)
{
	size_t n = 0, p0;
	double left = 0;

	for (unsigned k = 0; k < a->nstages; k++) {
		r[n] = (struct row){ .tid = a->stage[k].tid,
				     .cpu = cpu_of(a, a->stage[k].tid) };
		snprintf(r[n++].role, sizeof(r[0].role), "stage %u", k + 1);
	}
	p0 = n;
	for (unsigned p = 0; p < a->npool; p++)
		r[n++] = (struct row){ .tid = a->pool[p], .cpu = cpu_of(a, a->pool[p]) };
	qsort(r + p0, n - p0, sizeof(*r), by_cpu_desc);
	for (size_t i = p0; i < n; i++)
		snprintf(r[i].role, sizeof(r[0].role), "pool #%zu", i - p0 + 1);
	for (unsigned v = 0; v < a->nsvc; v++) {
		r[n] = (struct row){ .tid = a->svc[v].tid, .cpu = cpu_of(a, a->svc[v].tid) };
		snprintf(r[n++].role, sizeof(r[0].role), "service %u", v + 1);
	}
	for (int k = 0; k < PR_PER_N; k++)
		if (a->per[k].on) {
			r[n] = (struct row){ .tid = a->per[k].tid,
					     .cpu = cpu_of(a, a->per[k].tid) };
			snprintf(r[n++].role, sizeof(r[0].role), "%s", ft_pr_per_name(k));
		}
	for (size_t i = 0; i < a->nleft; i++)
		left += cpu_of(a, a->left[i]);
	r[n] = (struct row){ .tid = 0, .cpu = left };
	snprintf(r[n++].role, sizeof(r[0].role), "other");
	return n;
}

static const struct row *find_row(const struct row *r, size_t n, const char *role)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].role, role))
			return &r[i];
	return NULL;
}

static double ratio(double a, double b)
{
	return a > 0 ? b / a : NAN;
}

static double share(const struct ft_pr_analysis *a, double cpu)
{
	return a->game_cpu > 0 ? cpu / a->game_cpu : 0;
}

static void side_json(struct gs_jw *w, const char *key, const struct side *s)
{
	const struct ft_pr_analysis *a = &s->a;
	struct row *r = malloc((a->nstages + a->npool + a->nsvc + 4) * sizeof(*r));
	size_t nr = r ? rows_of(a, r) : 0;
	char l[64];

	gs_jw_obj(w, key);
	gs_jw_str(w, "input", s->path);
	gs_jw_uint(w, "pid", a->pid);
	gs_jw_uint(w, "frames", a->nf);
	gs_jw_obj(w, "frametime_ms");
	gs_jw_num(w, "p50", a->ft.p50 / 1e6);
	gs_jw_num(w, "p90", a->ft.p90 / 1e6);
	gs_jw_num(w, "p99", a->ft.p99 / 1e6);
	gs_jw_obj_end(w);
	gs_jw_uint(w, "fps", a->fps);
	gs_jw_uint(w, "frames_in_flight", a->fif);
	gs_jw_arr(w, "stages");
	for (unsigned k = 0; k < a->nstages; k++) {
		gs_jw_obj(w, NULL);
		gs_jw_str(w, "name", a->stage[k].name);
		gs_jw_str(w, "thread", ft_pr_label(a, a->stage[k].tid, l, sizeof(l)));
		gs_jw_num(w, "cpu_us_per_frame", stage_cpu(a, k) / 1e3);
		gs_jw_uint(w, "steps", a->stage[k].nsteps);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_obj(w, "pool");
	gs_jw_uint(w, "threads", a->npool);
	gs_jw_num(w, "cpu_us_per_frame", a->pool_cpu_frame / 1e3);
	gs_jw_obj_end(w);
	gs_jw_arr(w, "services");
	for (unsigned v = 0; v < a->nsvc; v++) {
		gs_jw_obj(w, NULL);
		gs_jw_str(w, "name", a->svc[v].name);
		gs_jw_str(w, "thread", ft_pr_label(a, a->svc[v].tid, l, sizeof(l)));
		gs_jw_num(w, "cpu_us_per_frame", a->svc[v].cpu_frame / 1e3);
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_arr(w, "periodic");
	for (int k = 0; k < PR_PER_N; k++)
		if (a->per[k].on) {
			gs_jw_obj(w, NULL);
			gs_jw_str(w, "kind", ft_pr_per_name(k));
			gs_jw_str(w, "thread", ft_pr_label(a, a->per[k].tid, l, sizeof(l)));
			gs_jw_num(w, "period_ms", (double)a->per[k].period_ns / 1e6);
			gs_jw_num(w, "cpu_us_per_period", a->per[k].sum.mean / 1e3);
			gs_jw_obj_end(w);
		}
	gs_jw_arr_end(w);
	gs_jw_num(w, "chain_wakeups", a->chain_wakeups);
	gs_jw_num(w, "chain_links_p50", a->links_p50);
	gs_jw_uint(w, "wakeups", a->wakes);
	gs_jw_num(w, "cross_process_share",
		  a->wakes ? (double)a->cross / (double)a->wakes : NAN);
	gs_jw_num(w, "game_cpu_ms", a->game_cpu / 1e6);
	gs_jw_arr(w, "threads");
	for (size_t i = 0; i < nr; i++) {
		gs_jw_obj(w, NULL);
		gs_jw_str(w, "role", r[i].role);
		if (r[i].tid)
			gs_jw_str(w, "thread", ft_pr_label(a, r[i].tid, l, sizeof(l)));
		else
			gs_jw_null(w, "thread");
		gs_jw_num(w, "cpu_share", share(a, r[i].cpu));
		gs_jw_obj_end(w);
	}
	gs_jw_arr_end(w);
	gs_jw_obj_end(w);
	free(r);
}

static void json(FILE *f, const struct side *x, const struct side *y)
{
	const struct ft_pr_analysis *a = &x->a, *b = &y->a;
	unsigned ns = a->nstages < b->nstages ? a->nstages : b->nstages;
	unsigned nv = a->nsvc < b->nsvc ? a->nsvc : b->nsvc;
	struct gs_jw w;

	gs_jw_init(&w, f, true);
	gs_jw_obj(&w, NULL);
	side_json(&w, "a", x);
	side_json(&w, "b", y);
	gs_jw_obj(&w, "ratio");
	gs_jw_num(&w, "frametime_p50", ratio(a->ft.p50, b->ft.p50));
	gs_jw_num(&w, "frametime_p99", ratio(a->ft.p99, b->ft.p99));
	gs_jw_bool(&w, "same_stages", a->nstages == b->nstages);
	gs_jw_arr(&w, "stage_cpu");
	for (unsigned k = 0; k < ns; k++)
		gs_jw_num(&w, NULL, ratio(stage_cpu(a, k), stage_cpu(b, k)));
	gs_jw_arr_end(&w);
	gs_jw_num(&w, "pool_cpu", ratio(a->pool_cpu_frame, b->pool_cpu_frame));
	gs_jw_arr(&w, "service_cpu");
	for (unsigned v = 0; v < nv; v++)
		gs_jw_num(&w, NULL, ratio(a->svc[v].cpu_frame, b->svc[v].cpu_frame));
	gs_jw_arr_end(&w);
	gs_jw_num(&w, "chain_wakeups", ratio(a->chain_wakeups, b->chain_wakeups));
	gs_jw_obj_end(&w);
	gs_jw_obj_end(&w);
	gs_jw_done(&w);
}

static const char *ms(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
	return buf;
}

static void line(FILE *f, const char *what, const char *x, const char *y, double r)
{
	if (isfinite(r))
		fprintf(f, "  %-28s %-30s %-30s %6.3f\n", what, x, y, r);
	else
		fprintf(f, "  %-28s %-30s %s\n", what, x, y);
}

/* CPU per frame of each stage, the job pool and each service. */
static void text_cpu(FILE *f, const struct ft_pr_analysis *a,
		     const struct ft_pr_analysis *b)
{
	unsigned ns = a->nstages > b->nstages ? a->nstages : b->nstages;
	unsigned nv = a->nsvc > b->nsvc ? a->nsvc : b->nsvc;
	char p[64], q[64], l1[48], l2[48];

	fprintf(f, "  CPU per frame:\n");
	for (unsigned k = 0; k < ns; k++) {
		char what[48];

		snprintf(what, sizeof(what), "  stage %u", k + 1);
		if (k < a->nstages)
			snprintf(p, sizeof(p), "%.15s %s", a->stage[k].name,
				 ms(l1, sizeof(l1), stage_cpu(a, k)));
		else
			snprintf(p, sizeof(p), "-");
		if (k < b->nstages)
			snprintf(q, sizeof(q), "%.15s %s", b->stage[k].name,
				 ms(l2, sizeof(l2), stage_cpu(b, k)));
		else
			snprintf(q, sizeof(q), "-");
		line(f, what, p, q, k < a->nstages && k < b->nstages
					    ? ratio(stage_cpu(a, k), stage_cpu(b, k)) : NAN);
	}
	snprintf(p, sizeof(p), "%u threads, %s", a->npool, ms(l1, sizeof(l1), a->pool_cpu_frame));
	snprintf(q, sizeof(q), "%u threads, %s", b->npool, ms(l2, sizeof(l2), b->pool_cpu_frame));
	line(f, "  job pool", p, q, ratio(a->pool_cpu_frame, b->pool_cpu_frame));
	for (unsigned v = 0; v < nv; v++) {
		char what[48];

		snprintf(what, sizeof(what), "  service %u", v + 1);
		if (v < a->nsvc)
			snprintf(p, sizeof(p), "%.15s %s", a->svc[v].name,
				 ms(l1, sizeof(l1), a->svc[v].cpu_frame));
		else
			snprintf(p, sizeof(p), "-");
		if (v < b->nsvc)
			snprintf(q, sizeof(q), "%.15s %s", b->svc[v].name,
				 ms(l2, sizeof(l2), b->svc[v].cpu_frame));
		else
			snprintf(q, sizeof(q), "-");
		line(f, what, p, q, v < a->nsvc && v < b->nsvc
					    ? ratio(a->svc[v].cpu_frame, b->svc[v].cpu_frame) : NAN);
	}
}

/* The CPU share of each role of the game's processes, A's roles first. */
static void text_roles(FILE *f, const struct side *x, const struct side *y)
{
	const struct ft_pr_analysis *a = &x->a, *b = &y->a;
	char p[64], q[64], l1[48], l2[48];
	struct row *ra = malloc((a->nstages + a->npool + a->nsvc + 4) * sizeof(*ra));
	struct row *rb = malloc((b->nstages + b->npool + b->nsvc + 4) * sizeof(*rb));
	size_t na, nb;

	if (!ra || !rb)
		gs_die(EXIT_RUNTIME, "out of memory");
	fprintf(f, "  CPU share of the game's processes (role: thread, share):\n");
	na = rows_of(a, ra);
	nb = rows_of(b, rb);
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < (pass ? nb : na); i++) {
			const struct row *r = pass ? &rb[i] : &ra[i];
			const struct row *o = find_row(pass ? ra : rb, pass ? na : nb, r->role);
			const struct row *ar = pass ? o : r, *br = pass ? r : o;
			char what[48];

			if (pass && o)
				continue;	/* shown with A's */
			snprintf(what, sizeof(what), "  %s", r->role);
			if (ar)
				snprintf(p, sizeof(p), "%.22s %5.1f %%",
					 ar->tid ? ft_pr_label(a, ar->tid, l1, sizeof(l1)) : "",
					 100 * share(a, ar->cpu));
			else
				snprintf(p, sizeof(p), "-");
			if (br)
				snprintf(q, sizeof(q), "%.22s %5.1f %%",
					 br->tid ? ft_pr_label(b, br->tid, l2, sizeof(l2)) : "",
					 100 * share(b, br->cpu));
			else
				snprintf(q, sizeof(q), "-");
			line(f, what, p, q, NAN);
		}
	free(ra);
	free(rb);
}

static void text(FILE *f, const struct side *x, const struct side *y)
{
	const struct ft_pr_analysis *a = &x->a, *b = &y->a;
	char p[64], q[64], l1[48], l2[48];

	fprintf(f, "frametrace compare: A %s, B %s\n", x->path, y->path);
	fprintf(f, "  %-28s %-30s %-30s %6s\n", "", "A", "B", "B/A");
	snprintf(p, sizeof(p), "%zu of %s (%u)", a->nf, ft_task_comm(&x->t, a->pid), a->pid);
	snprintf(q, sizeof(q), "%zu of %s (%u)", b->nf, ft_task_comm(&y->t, b->pid), b->pid);
	line(f, "frames", p, q, NAN);
	line(f, "frame time p50", ms(p, sizeof(p), a->ft.p50), ms(q, sizeof(q), b->ft.p50),
	     ratio(a->ft.p50, b->ft.p50));
	line(f, "frame time p99", ms(p, sizeof(p), a->ft.p99), ms(q, sizeof(q), b->ft.p99),
	     ratio(a->ft.p99, b->ft.p99));
	snprintf(p, sizeof(p), a->fps ? "%u FPS (vsync)" : "uncapped", a->fps);
	snprintf(q, sizeof(q), b->fps ? "%u FPS (vsync)" : "uncapped", b->fps);
	line(f, "target", p, q, NAN);
	snprintf(p, sizeof(p), "%u", a->fif);
	snprintf(q, sizeof(q), "%u", b->fif);
	line(f, "frames in flight", p, q, NAN);
	snprintf(p, sizeof(p), "%.0f", a->chain_wakeups);
	snprintf(q, sizeof(q), "%.0f", b->chain_wakeups);
	line(f, "chain wake-ups per frame", p, q, ratio(a->chain_wakeups, b->chain_wakeups));
	snprintf(p, sizeof(p), "%.0f", a->links_p50);
	snprintf(q, sizeof(q), "%.0f", b->links_p50);
	line(f, "wake-chain links, p50", p, q, NAN);
	snprintf(p, sizeof(p), "%.1f %% of %zu", a->wakes ? 100.0 * (double)a->cross / (double)a->wakes : 0, a->wakes);
	snprintf(q, sizeof(q), "%.1f %% of %zu", b->wakes ? 100.0 * (double)b->cross / (double)b->wakes : 0, b->wakes);
	line(f, "cross-process wake-ups", p, q, NAN);
	text_cpu(f, a, b);
	text_roles(f, x, y);
	snprintf(p, sizeof(p), "%s", ms(l1, sizeof(l1), a->game_cpu / (double)a->nf));
	snprintf(q, sizeof(q), "%s", ms(l2, sizeof(l2), b->game_cpu / (double)b->nf));
	line(f, "game CPU per frame", p, q, ratio(a->game_cpu / (double)a->nf,
						  b->game_cpu / (double)b->nf));
}

struct opts {
	const char *out;
	uint64_t pid_a, pid_b;
	bool json;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct gs_opt specs[] = {
	{ "json", 0, NULL, GS_OPT_SET, FIELD(json),
	  .help = "JSON with the ratios under \"ratio\"" },
	/* the file name is checked: the only GS_OPT_SPECIAL */
	{ "output", 'o', "OUT", GS_OPT_SPECIAL, FIELD(out),
	  .help = "write to OUT instead of stdout" },
	{ "pid-a", 0, "PID", GS_OPT_U64, FIELD(pid_a), 1, UINT32_MAX,
	  .help = "the game's process in A (default: the one\n"
		  "with the most frames)" },
	{ "pid-b", 0, "PID", GS_OPT_U64, FIELD(pid_b), 1, UINT32_MAX,
	  .help = "the game's process in B (default: the one\n"
		  "with the most frames)" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: frametrace compare [options] A B\n"
	"  Two traces side by side (a replay against its original):\n"
	"  frame times, CPU per frame of each stage, the pool and the\n"
	"  services, the chain, cross-process wake-ups, each thread's\n"
	"  share of the game's CPU; ratios are B/A.\n",
	"Exit status: 0, 1 output failed, 2 bad usage or input.\n",
	NULL, 21,
};

int ft_cmd_compare(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *outp;
	struct side *s;
	FILE *f;

	optind = 1;
	gs_opt_parse(&table, &o, argc, argv, ft_opt_path_field);
	if (!gs_operands(argc, argv, 2)) {
		gs_opt_usage(&table, stderr);
		return EXIT_USAGE;
	}
	outp = o.out;
	ft_refuse_same_file(argv[optind], outp, "-o");
	ft_refuse_same_file(argv[optind + 1], outp, "-o");
	s = calloc(2, sizeof(*s));
	if (!s)
		gs_die(EXIT_RUNTIME, "out of memory");
	load(&s[0], argv[optind], (uint32_t)o.pid_a, "--pid-a");
	load(&s[1], argv[optind + 1], (uint32_t)o.pid_b, "--pid-b");
	f = outp ? fopen(outp, "w") : stdout;
	if (!f)
		gs_die(EXIT_RUNTIME, "%s: cannot write: %s", outp, strerror(errno));
	if (o.json)
		json(f, &s[0], &s[1]);
	else
		text(f, &s[0], &s[1]);
	/* cppcheck-suppress useClosedFile ; f is closed only on the outp side */
	if (outp ? (ferror(f) | fclose(f)) : fflush(f))
		gs_die(EXIT_RUNTIME, "%s: write failed: %s", outp ? outp : "stdout",
		       strerror(errno ? errno : EIO));
	for (int i = 0; i < 2; i++) {
		ft_pr_free(&s[i].a);
		ft_model_free(&s[i].m);
		ft_trace_free(&s[i].t);
	}
	free(s);
	return EXIT_OK;
}
