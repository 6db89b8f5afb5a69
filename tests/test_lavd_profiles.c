// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit tests of lavd's game profiles: globs, the profile parser and
 * its refusals (each with file:line), the knob set resolved against
 * lavd's options, matching (order, conditions, threads, executables), the
 * per-task knob arithmetic of knobs.h (a profile that sets nothing gives
 * policy.h's results), the /proc matcher over a fake tree (both paths:
 * scans and exec/rename events), and the statistics part.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lavd/gameprof.h"
#include "../lavd/knobs.h"
#include "../lavd/options.h"
#include "../lavd/procscan.h"
#include "../lavd/report.h"

#define FAKE_TREE_NAME "test_lavd_profiles"
#include "fake_tree.h"

static void globs(void **state)
{
	size_t n;
	char err[128];

	(void)state;
	assert_true(lavd_glob_match("GameThread", "GameThread"));
	assert_false(lavd_glob_match("GameThread", "GameThread2"));
	assert_true(lavd_glob_match("RenderThread *", "RenderThread 1"));
	assert_false(lavd_glob_match("RenderThread *", "RenderThread"));
	assert_true(lavd_glob_match("*.exe", "Game.exe"));
	assert_true(lavd_glob_match("*/wine*-preloader", "/usr/lib/wine/x86_64-unix/wine-preloader"));
	assert_true(lavd_glob_match("*/wine*-preloader", "/opt/proton/bin/wine64-preloader"));
	assert_true(lavd_glob_match("Job.Worker ?", "Job.Worker 3"));
	assert_false(lavd_glob_match("Job.Worker ?", "Job.Worker 12"));
	assert_true(lavd_glob_match("TaskGraph[HN]P *", "TaskGraphNP 0"));
	assert_false(lavd_glob_match("TaskGraph[HN]P *", "TaskGraphXP 0"));
	assert_true(lavd_glob_match("[!a-z]*", "Unity"));
	assert_false(lavd_glob_match("[!a-z]*", "unity"));
	assert_true(lavd_glob_match("a\\*b", "a*b"));
	assert_false(lavd_glob_match("a\\*b", "axb"));
	assert_true(lavd_glob_match("*", ""));
	assert_true(lavd_glob_match("**x**", "abxcd"));
	assert_true(lavd_glob_match("[]x]", "]"));
	assert_int_equal(lavd_glob_check("RenderThread *", &n, err, sizeof(err)), 0);
	assert_int_equal(n, 13);
	assert_int_equal(lavd_glob_check("Job.Worker [0-9]*", &n, err, sizeof(err)), 0);
	assert_int_equal(n, 12);
	assert_int_equal(lavd_glob_check("a\\*", &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(lavd_glob_check("fo[o", &n, err, sizeof(err)), -1);
	assert_string_equal(err, "a '[' is not closed");
	assert_int_equal(lavd_glob_check("x\\", &n, err, sizeof(err)), -1);
	assert_int_equal(lavd_glob_check("", &n, err, sizeof(err)), -1);
}

static const char unreal[] =
	"# Unreal Engine\n"
	"name    unreal\n"
	"description Unreal Engine games   \n"
	"match   thread GameThread\n"
	"match   thread \"RenderThread *\"   # blanks inside quotes\n"
	"match   comm *.exe thread dxvk-cs\n"
	"preempt-shift 4\n"
	"lat-cri-boost 256\n"
	"slice-scale 150\n"
	"weight-scale 400\n"
	"evictable off\n";

static void parse_good(void **state)
{
	struct lavd_gprof p;
	char err[256];

	(void)state;
	assert_int_equal(lavd_gp_parse(unreal, "dir/u.conf", lavd_opts_is_option, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "unreal");
	assert_string_equal(p.desc, "Unreal Engine games");
	assert_int_equal(p.nrules, 3);
	assert_string_equal(p.rule[1].cond[0].glob, "RenderThread *");
	assert_int_equal(p.rule[2].ncond, 2);
	assert_int_equal(p.rule[2].cond[0].kind, LAVD_GP_COMM);
	assert_int_equal(p.rule[2].cond[1].kind, LAVD_GP_THREAD);
	assert_true(p.set[LAVD_GK_PREEMPT_SHIFT] && p.val[LAVD_GK_PREEMPT_SHIFT] == 4);
	assert_true(p.set[LAVD_GK_EVICTABLE] && p.val[LAVD_GK_EVICTABLE] == 0);
	assert_int_equal(p.kline[LAVD_GK_SLICE_SCALE], 9);
	assert_false(p.set[LAVD_GK_FUTEX]);
	/* named after its file when it says nothing */
	assert_int_equal(lavd_gp_parse("match comm x\n", "/etc/lavd/esports.conf", lavd_opts_is_option, &p,
				       err, sizeof(err)), 0);
	assert_string_equal(p.name, "esports");
}

/* parse TEXT and expect the error message MSG (whole). */
static void refuse(const char *text, const char *msg)
{
	struct lavd_gprof p;
	char err[256];

	assert_int_equal(lavd_gp_parse(text, "t.conf", lavd_opts_is_option, &p, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void parse_errors(void **state)
{
	(void)state;
	refuse("match comm x\npreempt-shift 11\n",
	       "t.conf:2: preempt-shift: expected 0..10, got '11'");
	refuse("match comm x\npreemption maybe\n",
	       "t.conf:2: preemption: expected on or off, got 'maybe'");
	refuse("match comm x\nslice-scale 5\n",
	       "t.conf:2: slice-scale: expected 10..1000, got '5'");
	refuse("match comm x\nlat-cri-boost\n", "t.conf:2: lat-cri-boost: expected a value");
	refuse("match comm x\nlat-cri-boost 1 2\n",
	       "t.conf:2: lat-cri-boost: expected one value, got '2' after it");
	refuse("match comm x\nevictable off\nevictable on\n",
	       "t.conf:3: evictable is set twice (first at line 2)");
	refuse("match comm x\nbogus 3\n",
	       "t.conf:2: unknown key 'bogus' (name, description, match, or a knob: "
	       "see docs/lavd.md, \"Game profiles\")");
	refuse("match comm x\npowersave\n", "t.conf:2: 'powersave' is one of lavd's "
	       "global options, not a per-process knob: set it on lavd's command line");
	refuse("match comm x\nno-core-compaction\n", "t.conf:2: 'no-core-compaction' is "
	       "one of lavd's global options, not a per-process knob: set it on lavd's "
	       "command line");
	refuse("match comm x\ntopology /x\n", "t.conf:2: 'topology' is one of lavd's "
	       "global options, not a per-process knob: set it on lavd's command line");
	refuse("match comm x\nno-slice-boost\n",
	       "t.conf:2: 'no-slice-boost' is lavd's option; in a profile write "
	       "'slice-boost off'");
	refuse("match thread UnityGfxDeviceWorker\n", "t.conf:1: match: thread "
	       "'UnityGfxDeviceWorker' can never match: Linux keeps 15 characters of a "
	       "thread name");
	refuse("match exe wine64-preloader\n", "t.conf:1: match: exe 'wine64-preloader' "
	       "can never match: /proc/PID/exe is an absolute path (start with / or *)");
	refuse("match pid 3\n", "t.conf:1: match: expected comm, exe or thread, got 'pid'");
	refuse("match\n", "t.conf:1: match: expected KIND PATTERN (comm, exe or thread)");
	refuse("match comm\n", "t.conf:1: match: 'comm' needs a pattern");
	refuse("match comm a thread\n", "t.conf:1: match: 'thread' needs a pattern");
	refuse("match comm \"\"\n", "t.conf:1: match: comm '': an empty pattern matches nothing");
	refuse("# only a comment\n\n", "t.conf:2: no 'match' line: the profile would "
	       "apply to nothing");
	refuse("name a b\nmatch comm x\n", "t.conf:1: name: expected 1-31 letters, digits, "
	       "'_', '-' or '.', got 'a b'");
	refuse("name x\nname y\nmatch comm x\n", "t.conf:2: name is set twice (first at line 1)");
	refuse("match comm \"x\n", "t.conf:1: a quote '\"' is not closed");
}

static void resolve(void **state)
{
	struct lavd_opts o = { .slice_min_us = 500, .slice_max_us = 5000,
			       .preempt_shift = 6, .greedy_slice_us = 0,
			       .no_chain_deadline = true };
	struct lavd_knobs dfl;
	struct lavd_gprof p;
	char err[256];

	(void)state;
	lavd_opts_default_knobs(&o, &dfl);
	assert_int_equal(dfl.slice_scale, 1024);
	assert_int_equal(dfl.flags, LAVD_KN_PREEMPT | LAVD_KN_EVICTABLE | LAVD_KN_FUTEX |
			 LAVD_KN_SLICE_BOOST);
	assert_int_equal(lavd_gp_parse(unreal, "u.conf", lavd_opts_is_option, &p, err, sizeof(err)), 0);
	assert_int_equal(lavd_gp_resolve(&p, &dfl, true, err, sizeof(err)), 0);
	assert_int_equal(p.kn.preempt_shift, 4);
	assert_int_equal(p.kn.lat_cri_boost, 256);
	assert_int_equal(p.kn.slice_scale, 1536);
	assert_int_equal(p.kn.weight_scale, 4096);
	assert_int_equal(dfl.weight_scale, 1024);
	assert_int_equal(p.kn.slice_min_ns, 500000);	/* lavd's option */
	assert_int_equal(p.kn.flags, LAVD_KN_PREEMPT | LAVD_KN_FUTEX | LAVD_KN_SLICE_BOOST);
	/* bounds crossed against lavd's own: named at the profile's line */
	assert_int_equal(lavd_gp_parse("match comm x\nslice-min-us 6000\n", "m.conf", lavd_opts_is_option, &p,
				       err, sizeof(err)), 0);
	assert_int_equal(lavd_gp_resolve(&p, &dfl, true, err, sizeof(err)), -1);
	assert_string_equal(err, "m.conf:2: slice-min-us 6000 is above slice-max-us 5000 "
			    "(the other bound is lavd's option)");
	assert_int_equal(lavd_gp_parse("match comm x\nfutex-boost on\n", "f.conf", lavd_opts_is_option, &p,
				       err, sizeof(err)), 0);
	assert_int_equal(lavd_gp_resolve(&p, &dfl, false, err, sizeof(err)), -1);
	assert_string_equal(err, "f.conf:2: futex-boost on needs the futex programs, which "
			    "--no-futex-boost leaves out");
	/* options switch flags off for profiles that do not say */
	o.no_preemption = o.no_slice_boost = true;
	o.no_chain_deadline = false;
	lavd_opts_default_knobs(&o, &dfl);
	assert_int_equal(dfl.flags, LAVD_KN_EVICTABLE | LAVD_KN_FUTEX | LAVD_KN_CHAIN_DL);
}

/* A set from texts, in order. */
static void set_of(struct lavd_gp_set *s, const char *const *texts, int n)
{
	struct lavd_knobs dfl = { .slice_min_ns = 500000, .slice_max_ns = 5000000 };
	char err[256], src[32];

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < n; i++) {
		snprintf(src, sizeof(src), "p%d.conf", i);
		assert_int_equal(lavd_gp_parse(texts[i], src, lavd_opts_is_option, &s->p[i], err, sizeof(err)), 0);
		assert_int_equal(lavd_gp_resolve(&s->p[i], &dfl, true, err, sizeof(err)), 0);
		s->n++;
	}
	for (int i = 0; i < n; i++)
		for (int r = 0; r < s->p[i].nrules; r++)
			for (int c = 0; c < s->p[i].rule[r].ncond; c++) {
				s->thread_rules |= s->p[i].rule[r].cond[c].kind == LAVD_GP_THREAD;
				s->exe_rules |= s->p[i].rule[r].cond[c].kind == LAVD_GP_EXE;
			}
}

static void matching(void **state)
{
	static struct lavd_gp_set s;
	const char *texts[] = {
		"name proton\nmatch comm *.exe\nmatch exe */wine*-preloader\nmatch comm wineserver\n",
		unreal,
		"name unity\nmatch thread UnityMain\nmatch thread UnityGfxDeviceW\n",
	};
	const char *ue[] = { "ShooterGame-Lin", "GameThread", "RHIThread" };
	const char *un[] = { "Game", "UnityMain" };
	const char *none[] = { "bash" };
	struct lavd_gp_proc pr;

	(void)state;
	set_of(&s, texts, 3);
	assert_true(s.thread_rules && s.exe_rules);
	pr = (struct lavd_gp_proc){ "ShooterGame-Lin", "/opt/g/ShooterGame", ue, 3 };
	assert_int_equal(lavd_gp_match(&s, &pr), 1);
	pr = (struct lavd_gp_proc){ "Game", NULL, un, 2 };
	assert_int_equal(lavd_gp_match(&s, &pr), 2);
	pr = (struct lavd_gp_proc){ "bash", "/usr/bin/bash", none, 1 };
	assert_int_equal(lavd_gp_match(&s, &pr), -1);
	/* a long .exe name is cut to 15: the executable still says wine */
	pr = (struct lavd_gp_proc){ "ShooterGameLong", "/p/files/lib/wine/x86_64-unix/wine-preloader",
				    none, 1 };
	assert_int_equal(lavd_gp_match(&s, &pr), 0);
	/* first match wins: an Unreal game under Proton is "proton" */
	pr = (struct lavd_gp_proc){ "Shooter.exe", NULL, ue, 3 };
	assert_int_equal(lavd_gp_match(&s, &pr), 0);
	/* all conditions of a line: comm *.exe alone is proton's, but for
	 * unreal's third line a dxvk-cs thread is needed too */
	assert_true(lavd_gp_thread_relevant(&s, "UnityMain", 3));
	assert_false(lavd_gp_thread_relevant(&s, "UnityMain", 2));
	assert_true(lavd_gp_thread_relevant(&s, "RenderThread 3", 2));
	assert_false(lavd_gp_thread_relevant(&s, "kworker", 3));
}

static void knob_arithmetic(void **state)
{
	struct lavd_knobs k = { .slice_min_ns = 500000, .slice_max_ns = 5000000,
				.slice_scale = 1024, .lc_freq_w = 1024, .lc_run_w = 1024,
				.preempt_shift = 6,
				.flags = LAVD_KN_PREEMPT | LAVD_KN_EVICTABLE |
					 LAVD_KN_SLICE_BOOST | LAVD_KN_FUTEX };
	bool b1, b2;

	(void)state;
	/* defaults: policy.h's results, everywhere */
	for (uint64_t hz = 1; hz < 100000; hz *= 7)
		for (uint64_t rt = 1000; rt < 2000000000ULL; rt *= 13)
			assert_int_equal(lavd_lat_cri_weighted(hz, hz * 3, rt, 100, 128, 1024, 1024),
					 lavd_lat_cri(hz, hz * 3, rt, 100, 128));
	for (uint64_t sys = 500000; sys <= 5000000; sys += 250000) {
		assert_int_equal(lavd_knob_slice(sys, 8000000, 900, 800, true, false, &k, &b1),
				 lavd_task_slice(sys, 8000000, 900, 800, true, true, &b2));
		assert_int_equal(b1, b2);
		assert_int_equal(lavd_knob_slice(sys, 100000, 900, 800, false, false, &k, &b1), sys);
	}
	assert_int_equal(lavd_knob_evict_scope(false, 2000, 2100, 1000, &k),
			 lavd_evict_scope(false, 2000, lavd_preempt_thresh(2100, 1000, 6), false));
	/* the scale and the bounds */
	k.slice_scale = 2048;
	assert_int_equal(lavd_knob_base_slice(2000000, k.slice_scale, k.slice_min_ns,
					      k.slice_max_ns), 4000000);
	assert_int_equal(lavd_knob_base_slice(4000000, k.slice_scale, k.slice_min_ns,
					      k.slice_max_ns), 5000000);
	assert_int_equal(lavd_knob_base_slice(4000000, 256, 2000000, 3000000), 2000000);
	assert_int_equal(lavd_knob_base_slice(~0ULL, 4096, 0, ~0ULL), ~0ULL);
	/* no boost when the profile says so; the greedy cap */
	k.flags &= ~LAVD_KN_SLICE_BOOST;
	assert_int_equal(lavd_knob_slice(1000000, 8000000, 900, 800, true, false, &k, &b1),
			 2000000);
	assert_false(b1);
	k.greedy_slice_ns = 700000;
	assert_int_equal(lavd_knob_slice(1000000, 100, 900, 800, true, true, &k, &b1), 700000);
	/* weight-scale: nice weight times the scale, within the weight range */
	assert_int_equal(lavd_knob_weight(100, 1024), 100);
	assert_int_equal(lavd_knob_weight(100, 4096), 400);
	assert_int_equal(lavd_knob_weight(100, 256), 25);
	assert_int_equal(lavd_knob_weight(1, 256), LAVD_WEIGHT_MIN);
	assert_int_equal(lavd_knob_weight(10000, 10240), LAVD_WEIGHT_MAX);
	assert_int_equal(lavd_knob_weight(~0ULL >> 20, ~0U), LAVD_WEIGHT_MAX);
	/* weights move lat_cri each way; extremes stay in range */
	assert_true(lavd_lat_cri_weighted(120, 120, 500000, 100, 128, 2048, 1024) >
		    lavd_lat_cri(120, 120, 500000, 100, 128));
	assert_true(lavd_lat_cri_weighted(120, 120, 500000, 100, 128, 256, 1024) <
		    lavd_lat_cri(120, 120, 500000, 100, 128));
	assert_true(lavd_lat_cri_weighted(~0ULL, ~0ULL, 0, ~0ULL, ~0ULL, ~0U, ~0U) <
		    LAVD_LAT_CRI_MAX);
	/* a preempt-shift of its own; preemption and futex off */
	assert_int_equal(lavd_knob_evict_scope(false, 2050, 2100, 1000, &k), LAVD_EVICT_NONE);
	k.preempt_shift = 2;
	assert_int_equal(lavd_knob_evict_scope(false, 2050, 2100, 1000, &k), LAVD_EVICT_ANY);
	k.flags &= ~LAVD_KN_PREEMPT;
	assert_int_equal(lavd_knob_evict_scope(false, 5000, 2100, 1000, &k), LAVD_EVICT_NONE);
	k.flags |= LAVD_KN_PREEMPT | LAVD_KN_GREEDY_PREEMPT;
	assert_int_equal(lavd_knob_evict_scope(false, 10, 2100, 1000, &k), LAVD_EVICT_GREEDY);
	assert_int_equal(lavd_knob_holder(LAVD_HOLDER, &k), LAVD_HOLDER);
	k.flags &= ~LAVD_KN_FUTEX;
	assert_int_equal(lavd_knob_holder(LAVD_HOLDER | LAVD_HOLDER_BOOST, &k), 0);
}

/* ---- the matcher over a fake /proc ---- */

struct change {
	int pid, from, to;
};
static struct change changes[64];
static int nchanges;

static int record(void *ctx, int pid, int from, int to)
{
	(void)ctx;
	if (getenv("TEST_VERBOSE"))
		printf("change %d: %d -> %d\n", pid, from, to);
	assert_true(nchanges < 64);
	changes[nchanges++] = (struct change){ pid, from, to };
	return 0;
}

/* A process: its stat line (with flags and start time) and threads. */
static void fake_proc(int pid, const char *comm, unsigned long flags,
		      unsigned long start, const char *const *thr, int nthr)
{
	char rel[128], text[512];

	snprintf(rel, sizeof(rel), "%d/stat", pid);
	snprintf(text, sizeof(text), "%d (%s) S 1 %d %d 0 -1 %lu 0 0 0 0 1 1 0 0 20 0 %d 0 %lu "
		 "1000 100\n", pid, comm, pid, pid, flags, nthr ? nthr : 1, start);
	put(rel, text);
	for (int i = 0; i < nthr; i++) {
		snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, pid + i);
		snprintf(text, sizeof(text), "%s\n", thr[i]);
		put(rel, text);
	}
}

static void fake_gone(int pid)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%d'", tmpdir, pid);
	assert_int_equal(system(cmd), 0);
}

static void fake_exe(int pid, const char *target)
{
	char link[400];

	snprintf(link, sizeof(link), "%s/%d/exe", tmpdir, pid);
	unlink(link);
	assert_int_equal(symlink(target, link), 0);
}

static struct lavd_gp_set pset;

static void scan_path(void **state)
{
	const char *texts[] = {
		"name proton\nmatch exe */wine*-preloader\nmatch comm wineserver\n",
		"name unreal\nmatch thread GameThread\n",
	};
	const char *ue[] = { "ShooterGame", "ShooterGame" };
	const char *ue2[] = { "ShooterGame", "GameThread" };
	const char *one[] = { "bash" };
	struct lavd_ps ps;

	(void)state;
	set_of(&pset, texts, 2);
	nchanges = 0;
	fake_proc(100, "bash", 0, 10, one, 1);
	fake_exe(100, "/usr/bin/bash");
	fake_proc(2, "kthreadd", 0x00200000, 1, NULL, 0);	/* never matched */
	fake_proc(200, "wineserver", 0, 20, (const char *[]){ "wineserver" }, 1);
	fake_exe(200, "/p/wineserver");
	lavd_ps_init(&ps, tmpdir, &pset, true, 30000000000ULL, record, NULL);
	assert_int_equal(lavd_ps_scan(&ps, 1000, true), 2);
	assert_int_equal(nchanges, 1);
	assert_int_equal(changes[0].pid, 200);
	assert_int_equal(changes[0].to, 0);
	/* a new Unreal game: unnamed threads first, then named (it is young) */
	fake_proc(300, "ShooterGame", 0, 30, ue, 2);
	fake_exe(300, "/opt/ShooterGame");
	lavd_ps_scan(&ps, 2000000000ULL, false);
	assert_int_equal(nchanges, 1);
	fake_proc(300, "ShooterGame", 0, 30, ue2, 2);
	lavd_ps_scan(&ps, 3000000000ULL, false);
	assert_int_equal(nchanges, 2);
	assert_int_equal(changes[1].pid, 300);
	assert_int_equal(changes[1].to, 1);
	/* a rename (prctl) is seen; a process that exits leaves */
	fake_proc(100, "wineserver", 0, 10, one, 1);
	fake_gone(200);
	lavd_ps_scan(&ps, 4000000000ULL, false);
	assert_int_equal(nchanges, 4);
	assert_true((changes[2].pid == 100 && changes[2].to == 0) ||
		    (changes[3].pid == 100 && changes[3].to == 0));
	assert_true((changes[2].pid == 200 && changes[2].to == -1) ||
		    (changes[3].pid == 200 && changes[3].to == -1));
	/* a reused pid is another process */
	fake_gone(300);
	fake_proc(300, "bash", 0, 99, one, 1);
	fake_exe(300, "/usr/bin/bash");
	lavd_ps_scan(&ps, 5000000000ULL, false);
	assert_int_equal(nchanges, 5);
	assert_int_equal(changes[4].pid, 300);
	assert_int_equal(changes[4].to, -1);
	assert_null(lavd_ps_find(&ps, 2));
	lavd_ps_free(&ps);
}

static void event_path(void **state)
{
	const char *texts[] = {
		"name unity\nmatch thread UnityMain\n",
		"name proton\nmatch comm *.exe\n",
	};
	const char *t0[] = { "Game", "Game" };
	const char *t1[] = { "Game", "UnityMain" };
	struct lavd_proc_ev ev = { 0 };
	struct lavd_ps ps;
	uint64_t reads;

	(void)state;
	set_of(&pset, texts, 2);
	nchanges = 0;
	lavd_ps_init(&ps, tmpdir, &pset, false, 0, record, NULL);
	fake_proc(400, "bash", 0, 40, (const char *[]){ "bash" }, 1);
	assert_int_equal(lavd_ps_scan(&ps, 1, true), 1);
	assert_int_equal(ps.n, 0);	/* only matched processes are kept */
	/* exec: the rename comes first, the exec after it changes nothing */
	fake_proc(400, "Game.exe", 0, 40, (const char *[]){ "Game.exe" }, 1);
	ev = (struct lavd_proc_ev){ LAVD_PEV_RENAME, 400, 400, 0, "Game.exe" };
	lavd_ps_event(&ps, &ev, 2);
	ev.kind = LAVD_PEV_EXEC;
	lavd_ps_event(&ps, &ev, 2);
	assert_int_equal(nchanges, 1);
	assert_int_equal(changes[0].to, 1);
	assert_int_equal(ps.nr_evals, 2);	/* the scan's bash, the rename */
	/* a thread named UnityMain: a better (earlier) profile */
	fake_proc(500, "Game", 0, 50, t0, 2);
	ev = (struct lavd_proc_ev){ LAVD_PEV_RENAME, 501, 500, 0, "Worker" };
	lavd_ps_event(&ps, &ev, 3);
	assert_int_equal(nchanges, 1);	/* no profile looks for "Worker" */
	fake_proc(500, "Game", 0, 50, t1, 2);
	ev = (struct lavd_proc_ev){ LAVD_PEV_RENAME, 501, 500, 0, "UnityMain" };
	lavd_ps_event(&ps, &ev, 3);
	assert_int_equal(nchanges, 2);
	assert_int_equal(changes[1].pid, 500);
	assert_int_equal(changes[1].to, 0);
	/* the sweep: exited processes leave */
	fake_gone(400);
	lavd_ps_sweep(&ps);
	assert_int_equal(nchanges, 3);
	assert_int_equal(changes[2].pid, 400);
	assert_int_equal(changes[2].to, -1);
	assert_non_null(lavd_ps_find(&ps, 500));
	/* an exec's events come from the process itself (nthreads set):
	 * matched from them alone, /proc is not read (it has no 600 yet) */
	reads = ps.nr_reads;
	ev = (struct lavd_proc_ev){ LAVD_PEV_RENAME, 600, 600, 1, "Other.exe" };
	lavd_ps_event(&ps, &ev, 4);
	ev.kind = LAVD_PEV_EXEC;
	lavd_ps_event(&ps, &ev, 4);
	assert_int_equal(ps.nr_reads, reads);
	assert_int_equal(nchanges, 4);
	assert_int_equal(changes[3].pid, 600);
	assert_int_equal(changes[3].to, 1);
	assert_int_equal(lavd_ps_find(&ps, 600)->start, 0);
	/* its start is learned at the sweep; then a reused pid leaves */
	fake_proc(600, "Other.exe", 0, 60, (const char *[]){ "Other.exe" }, 1);
	lavd_ps_sweep(&ps);
	assert_int_equal(nchanges, 4);
	assert_int_equal(lavd_ps_find(&ps, 600)->start, 60);
	/* a reused pid that exec'd, seen first by its events: it keeps the
	 * profile it matched, and its own start is learned */
	ev = (struct lavd_proc_ev){ LAVD_PEV_EXEC, 600, 600, 1, "Other.exe" };
	lavd_ps_event(&ps, &ev, 4);
	fake_proc(600, "Other.exe", 0, 62, (const char *[]){ "Other.exe" }, 1);
	lavd_ps_sweep(&ps);
	assert_int_equal(nchanges, 4);
	assert_int_equal(lavd_ps_find(&ps, 600)->start, 62);
	/* a reused pid that did not exec (no event) is another process */
	fake_proc(600, "Other.exe", 0, 61, (const char *[]){ "Other.exe" }, 1);
	lavd_ps_sweep(&ps);
	assert_int_equal(nchanges, 5);
	assert_int_equal(changes[4].pid, 600);
	assert_int_equal(changes[4].to, -1);
	/* a leader renamed by another process (nthreads 0): the event says
	 * nothing of it, /proc is read */
	fake_proc(700, "bash", 0, 70, (const char *[]){ "bash" }, 1);
	ev = (struct lavd_proc_ev){ LAVD_PEV_RENAME, 700, 700, 0, "bash" };
	lavd_ps_event(&ps, &ev, 5);
	assert_true(ps.nr_reads > reads);
	assert_int_equal(nchanges, 5);
	lavd_ps_free(&ps);
}

static void load_dirs(void **state)
{
	static struct lavd_gp_set s;
	struct lavd_opts o = { .slice_min_us = 500, .slice_max_us = 5000, .preempt_shift = 6 };
	struct lavd_gp_path paths[2];
	struct lavd_knobs dfl;
	char dir[300], file[300], err[1200];

	(void)state;
	lavd_opts_default_knobs(&o, &dfl);
	put("prof/b.conf", "name beta\nmatch comm b\n");
	put("prof/a.conf", "match comm a\nlat-cri-boost 64\n");
	put("prof/README", "not a profile\n");
	snprintf(dir, sizeof(dir), "%s/prof", tmpdir);
	paths[0] = (struct lavd_gp_path){ dir, true };
	assert_int_equal(lavd_gp_load(paths, 1, &dfl, true, lavd_opts_is_option, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.p[0].name, "a");	/* by file name */
	assert_string_equal(s.p[1].name, "beta");
	assert_int_equal(lavd_gp_changed(&s), -1);
	sleep(1);
	put("prof/b.conf", "name beta\nmatch comm bb\n");
	assert_int_equal(lavd_gp_changed(&s), 2);	/* the directory, then b */
	assert_int_equal(lavd_gp_changed(&s), -1);	/* each is told once */
	/* two profiles with one name: refused, naming both files */
	put("dup.conf", "name beta\nmatch comm x\n");
	snprintf(file, sizeof(file), "%s/dup.conf", tmpdir);
	paths[1] = (struct lavd_gp_path){ file, false };
	assert_int_equal(lavd_gp_load(paths, 2, &dfl, true, lavd_opts_is_option, &s, err, sizeof(err)), -1);
	if (getenv("TEST_VERBOSE"))
		printf("%s\n", err);
	assert_non_null(strstr(err, "--game-profile: "));
	assert_non_null(strstr(err, "dup.conf:1: profile name 'beta' is already used by "));
	put("none/x.txt", "x");
	snprintf(dir, sizeof(dir), "%s/none", tmpdir);
	paths[0] = (struct lavd_gp_path){ dir, true };
	assert_int_equal(lavd_gp_load(paths, 1, &dfl, true, lavd_opts_is_option, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none: no profiles in it (*.conf files)"));
}

static void stats_part(void **state)
{
	struct lavd_prof_row rows[3] = {
		{ .name = "unreal", .nproc = 1, .pid = { 812 }, .comm = { "framebench" },
		  .sched = 1660 },
		{ .name = "proton", .nproc = 0 },
		{ .name = "unity", .nproc = 5, .pid = { 1, 2, 3 },
		  .comm = { "a", "b b", "c" }, .sched = 10 },
	};
	char line[512];

	(void)state;
	(void)fake_cpu;	/* fake_tree.h's sysfs helper: not needed here */
	lavd_profiles_line(line, sizeof(line), 3, rows, 3, 2.0);
	assert_string_equal(line, "profiles 3 matched 6: unreal [framebench:812] sched/s 830; "
			    "unity [a:1 b_b:2 c:3 +2] sched/s 5");
	lavd_profiles_line(line, sizeof(line), 3, rows + 1, 1, 2.0);
	assert_string_equal(line, "profiles 3 matched 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(globs),
		cmocka_unit_test(parse_good),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(resolve),
		cmocka_unit_test(matching),
		cmocka_unit_test(knob_arithmetic),
		cmocka_unit_test_setup_teardown(scan_path, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(event_path, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(load_dirs, fake_tree_setup, fake_tree_teardown),
		cmocka_unit_test(stats_part),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
