// SPDX-License-Identifier: GPL-2.0-only
/*
 * Game profile files: parsing, checks, the knob set each profile's tasks
 * follow, and loading every file of the command line before anything is
 * handed to BPF. Matching and globs are in gamematch.c.
 */
#include "gameprof.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy.h"
#include "policy_preempt.h"
#include "util.h"

/* In the order docs/lavd.md lists them. */
const struct lavd_gp_knob_spec lavd_gp_knobs[LAVD_GK_NR] = {
	[LAVD_GK_SLICE_MIN] = { "slice-min-us", false, 50, 1000000,
		"the task's slice is at least N us" },
	[LAVD_GK_SLICE_MAX] = { "slice-max-us", false, 50, 1000000,
		"the task's slice is at most N us (before a slice boost)" },
	[LAVD_GK_SLICE_SCALE] = { "slice-scale", false, 10, 1000,
		"the task's slice is PCT % of the system slice" },
	[LAVD_GK_SLICE_BOOST] = { "slice-boost", true, 0, 1,
		"longer slices for bursts longer than the slice" },
	[LAVD_GK_PREEMPT] = { "preemption", true, 0, 1,
		"a waking task may evict a running one" },
	[LAVD_GK_PREEMPT_SHIFT] = { "preempt-shift", false, 0, LAVD_PREEMPT_SHIFT_MAX,
		"its preemption threshold: the top 1/2^N of the lat_cri range" },
	[LAVD_GK_EVICTABLE] = { "evictable", true, 0, 1,
		"other tasks may evict it while it runs" },
	[LAVD_GK_GREEDY_PREEMPT] = { "greedy-preempt", true, 0, 1,
		"below its threshold it may still evict a greedy task" },
	[LAVD_GK_FUTEX] = { "futex-boost", true, 0, 1,
		"probable futex holders: not evicted, one extension, a boost" },
	[LAVD_GK_LC_BOOST] = { "lat-cri-boost", false, 0, 4096,
		"added to its context boosts at every placement (128: a wake-up)" },
	[LAVD_GK_LC_FREQ_W] = { "lat-cri-freq-weight", false, 25, 400,
		"weight of lat_cri's wait/wake frequency term, %" },
	[LAVD_GK_LC_RUN_W] = { "lat-cri-runtime-weight", false, 25, 400,
		"weight of lat_cri's runtime and weight term, %" },
	[LAVD_GK_CHAIN] = { "chain-deadline", true, 0, 1,
		"woken, it keeps its waker's deadline when earlier" },
	[LAVD_GK_GREEDY_SLICE] = { "greedy-slice-us", false, 0, 1000000,
		"while greedy, its slice is at most N us (0: no cap)" },
	[LAVD_GK_WEIGHT_SCALE] = { "weight-scale", false, 25, 1000,
		"its weight is PCT % of its nice weight: its CPU share among greedy tasks" },
};

#define MAX_TOKENS 16
#define MAX_LINE 1024

/* Where a profile is read, for its errors ("FILE:LINE: what"). */
struct src {
	const char *name;
	int line;
	char *err;
	size_t errlen;
	lavd_gp_is_global_fn *is_global;	/* a global option's name */
};

#define ERR(s, ...) gs_err_at((s)->err, (s)->errlen, (s)->name, (s)->line, __VA_ARGS__)

/*
 * Splits a line (modified in place) into blank-separated tokens; "..."
 * keeps blanks in a token (thread names have them: "RenderThread 1").
 * '#' starts a comment at the line start or after a blank. Returns the
 * number of tokens, or -1 with the error.
 */
static int tokenize(const struct src *s, char *line, char **tok, char **rest1)
{
	char *r = line, *w;
	int n = 0;

	*rest1 = NULL;
	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\r')
			r++;
		if (!*r || *r == '#')
			return n;
		if (n == MAX_TOKENS)
			return ERR(s, "more than %d words on a line", MAX_TOKENS);
		if (n == 1)
			*rest1 = r;	/* "description" takes the rest as is */
		tok[n++] = w = r;
		while (*r && *r != ' ' && *r != '\t' && *r != '\r') {
			if (*r != '"') {
				*w++ = *r++;
				continue;
			}
			for (r++; *r && *r != '"'; )
				*w++ = *r++;
			if (!*r)
				return ERR(s, "a quote '\"' is not closed");
			r++;
		}
		if (*r)
			r++;
		*w = '\0';
	}
}

static bool valid_name(const char *v)
{
	size_t n = strlen(v);

	if (!n || n >= LAVD_PROF_NAME_LEN)
		return false;
	for (; *v; v++)
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		      (*v >= '0' && *v <= '9') || *v == '_' || *v == '-' || *v == '.'))
			return false;
	return true;
}

static const char *const kind_names[] = { "comm", "exe", "thread" };

/* Can the glob's first element match '/'? (lavd_glob_check passed) */
static bool first_can_be_slash(const char *glob)
{
	char first[LAVD_GP_GLOB_MAX + 1];
	size_t n = 1;

	if (glob[0] == '*')
		return true;
	if (glob[0] == '\\')
		n = 2;
	else if (glob[0] == '[') {
		n = 1 + (glob[1] == '!' || glob[1] == '^');
		n += glob[n] == ']';	/* a ']' first is literal */
		while (glob[n] && glob[n] != ']')
			n += (glob[n] == '\\' && glob[n + 1]) ? 2 : 1;
		n++;
	}
	/* the element alone, then "*": it matches "/" when it takes '/' */
	snprintf(first, sizeof(first), "%.*s*", (int)n, glob);
	return lavd_glob_match(first, "/");
}

/* One condition "KIND GLOB", with the checks for globs that never match. */
static int parse_cond(const struct src *s, const char *kind, const char *glob,
		      struct lavd_gp_cond *c)
{
	char gerr[160];
	size_t minlen;
	int k;

	for (k = 0; k < 3 && strcmp(kind, kind_names[k]); k++)
		;
	if (k == 3)
		return ERR(s, "match: expected comm, exe or thread, got '%s'", kind);
	if (!glob)
		return ERR(s, "match: '%s' needs a pattern", kind);
	if (strlen(glob) >= LAVD_GP_GLOB_MAX)
		return ERR(s, "match: pattern longer than %d characters", LAVD_GP_GLOB_MAX - 1);
	if (lavd_glob_check(glob, &minlen, gerr, sizeof(gerr)))
		return ERR(s, "match: %s '%s': %s", kind, glob, gerr);
	if (k != LAVD_GP_EXE && minlen > LAVD_COMM_LEN)
		return ERR(s, "match: %s '%s' can never match: Linux keeps %d "
			   "characters of a %s name", kind, glob, LAVD_COMM_LEN,
			   k == LAVD_GP_COMM ? "process" : "thread");
	/* a first element that cannot be '/' never starts a path */
	if (k == LAVD_GP_EXE && !first_can_be_slash(glob))
		return ERR(s, "match: exe '%s' can never match: /proc/PID/exe "
			   "is an absolute path (start with / or *)", glob);
	c->kind = (enum lavd_gp_kind)k;
	gs_strlcpy(c->glob, glob, sizeof(c->glob));
	return 0;
}

static int parse_match(const struct src *s, char **tok, int ntok,
		       struct lavd_gprof *p)
{
	struct lavd_gp_rule *r;

	if (ntok < 2)
		return ERR(s, "match: expected KIND PATTERN (comm, exe or thread)");
	if (p->nrules == LAVD_GP_MAX_RULES)
		return ERR(s, "more than %d match lines", LAVD_GP_MAX_RULES);
	if ((ntok - 1) / 2 > LAVD_GP_MAX_CONDS)
		return ERR(s, "match: more than %d conditions on one line", LAVD_GP_MAX_CONDS);
	r = &p->rule[p->nrules];
	memset(r, 0, sizeof(*r));
	r->line = s->line;
	for (int i = 1; i < ntok; i += 2)
		if (parse_cond(s, tok[i], i + 1 < ntok ? tok[i + 1] : NULL,
			       &r->cond[r->ncond++]))
			return -1;
	p->nrules++;
	return 0;
}

/* "no-preemption" is lavd's option; the knob is "preemption off". */
static int global_key(const struct src *s, const char *key)
{
	if (!strncmp(key, "no-", 3))
		for (int k = 0; k < LAVD_GK_NR; k++)
			if (lavd_gp_knobs[k].onoff && !strcmp(key + 3, lavd_gp_knobs[k].key))
				return ERR(s, "'%s' is lavd's option; in a profile "
					   "write '%s off'", key, key + 3);
	return ERR(s, "'%s' is one of lavd's global options, not a "
		   "per-process knob: set it on lavd's command line", key);
}

static int parse_knob(const struct src *s, int k, char **tok, int ntok,
		      struct lavd_gprof *p)
{
	const struct lavd_gp_knob_spec *ks = &lavd_gp_knobs[k];
	uint64_t v;

	if (p->set[k])
		return ERR(s, "%s is set twice (first at line %d)", ks->key, p->kline[k]);
	if (ntok != 2)
		return ntok < 2 ? ERR(s, "%s: expected a value", ks->key) :
		       ERR(s, "%s: expected one value, got '%s' after it", ks->key, tok[2]);
	if (ks->onoff) {
		if (strcmp(tok[1], "on") && strcmp(tok[1], "off"))
			return ERR(s, "%s: expected on or off, got '%s'", ks->key, tok[1]);
		v = !strcmp(tok[1], "on");
	} else if (gs_parse_u64(tok[1], ks->min, ks->max, &v)) {
		return ERR(s, "%s: expected %llu..%llu, got '%s'", ks->key,
			   (unsigned long long)ks->min, (unsigned long long)ks->max, tok[1]);
	}
	p->set[k] = true;
	p->val[k] = v;
	p->kline[k] = s->line;
	return 0;
}

static int parse_line(const struct src *s, char **tok, int ntok, char *rest1,
		      struct lavd_gprof *p)
{
	const char *key = tok[0];

	if (!strcmp(key, "name")) {
		if (p->name_line)
			return ERR(s, "name is set twice (first at line %d)", p->name_line);
		if (ntok != 2 || !valid_name(tok[1]))
			return ERR(s, "name: expected 1-%d letters, digits, '_', '-' "
				   "or '.', got '%s'", LAVD_PROF_NAME_LEN - 1,
				   ntok > 1 ? rest1 : "");
		gs_strlcpy(p->name, tok[1], sizeof(p->name));
		p->name_line = s->line;
		return 0;
	}
	if (!strcmp(key, "description")) {
		if (p->desc_line)
			return ERR(s, "description is set twice (first at line %d)",
				   p->desc_line);
		gs_strlcpy(p->desc, rest1 ? rest1 : "", sizeof(p->desc));
		p->desc_line = s->line;
		return 0;
	}
	if (!strcmp(key, "match"))
		return parse_match(s, tok, ntok, p);
	for (int k = 0; k < LAVD_GK_NR; k++)
		if (!strcmp(key, lavd_gp_knobs[k].key))
			return parse_knob(s, k, tok, ntok, p);
	if (s->is_global && s->is_global(key))
		return global_key(s, key);
	return ERR(s, "unknown key '%s' (name, description, match, or a knob: "
		   "see docs/lavd.md, \"Game profiles\")", key);
}

int lavd_gp_parse(const char *text, const char *source,
		  lavd_gp_is_global_fn *is_global, struct lavd_gprof *p,
		  char *err, size_t errlen)
{
	struct src s = { source, 0, err, errlen, is_global };
	const char *base = strrchr(source, '/');
	const char *q = text;

	memset(p, 0, sizeof(*p));
	gs_strlcpy(p->file, source, sizeof(p->file));
	while (*q) {
		char line[MAX_LINE], orig[MAX_LINE], *tok[MAX_TOKENS], *rest1;
		size_t len = strcspn(q, "\n");
		int ntok;

		s.line++;
		if (len >= sizeof(line))
			return ERR(&s, "line longer than %d characters", MAX_LINE - 1);
		memcpy(line, q, len);
		line[len] = '\0';
		memcpy(orig, line, len + 1);
		q += len + (q[len] == '\n');
		ntok = tokenize(&s, line, tok, &rest1);
		if (ntok < 0)
			return -1;
		/* the rest of the line as written, comment cut: the description */
		if (rest1) {
			char *c;

			rest1 = orig + (rest1 - line);
			for (c = rest1; *c; c++)
				if (*c == '#' && (c[-1] == ' ' || c[-1] == '\t'))
					*c = '\0';
			rest1 = gs_trim(rest1);
		}
		if (ntok && parse_line(&s, tok, ntok, rest1, p))
			return -1;
	}
	if (!p->nrules)
		return gs_err_at(err, errlen, source, s.line ? s.line : 1,
				 "no 'match' line: the profile would apply to nothing");
	if (!p->name_line) {
		gs_strlcpy(p->name, base ? base + 1 : source, sizeof(p->name));
		gs_strip_suffix(p->name, ".conf");
		if (!valid_name(p->name))
			return gs_err_at(err, errlen, source, 1, "no 'name' line, and "
					 "the file name '%s' is not a profile name", p->name);
	}
	return 0;
}

static void set_flag(struct lavd_knobs *k, const struct lavd_gprof *p,
		     int knob, __u32 flag)
{
	if (!p->set[knob])
		return;
	k->flags = p->val[knob] ? (k->flags | flag) : (k->flags & ~flag);
}

/* percent -> 1/1024 */
static __u32 pct(uint64_t v)
{
	return (__u32)(v * LAVD_SCALE / 100);
}

int lavd_gp_resolve(struct lavd_gprof *p, const struct lavd_knobs *dfl,
		    bool futex_available, char *err, size_t errlen)
{
	struct lavd_knobs k = *dfl;

	if (p->set[LAVD_GK_SLICE_MIN])
		k.slice_min_ns = p->val[LAVD_GK_SLICE_MIN] * LAVD_NSEC_PER_USEC;
	if (p->set[LAVD_GK_SLICE_MAX])
		k.slice_max_ns = p->val[LAVD_GK_SLICE_MAX] * LAVD_NSEC_PER_USEC;
	if (p->set[LAVD_GK_GREEDY_SLICE])
		k.greedy_slice_ns = p->val[LAVD_GK_GREEDY_SLICE] * LAVD_NSEC_PER_USEC;
	if (p->set[LAVD_GK_SLICE_SCALE])
		k.slice_scale = pct(p->val[LAVD_GK_SLICE_SCALE]);
	if (p->set[LAVD_GK_LC_BOOST])
		k.lat_cri_boost = (__u32)p->val[LAVD_GK_LC_BOOST];
	if (p->set[LAVD_GK_LC_FREQ_W])
		k.lc_freq_w = pct(p->val[LAVD_GK_LC_FREQ_W]);
	if (p->set[LAVD_GK_LC_RUN_W])
		k.lc_run_w = pct(p->val[LAVD_GK_LC_RUN_W]);
	if (p->set[LAVD_GK_WEIGHT_SCALE])
		k.weight_scale = pct(p->val[LAVD_GK_WEIGHT_SCALE]);
	if (p->set[LAVD_GK_PREEMPT_SHIFT])
		k.preempt_shift = (__u32)p->val[LAVD_GK_PREEMPT_SHIFT];
	set_flag(&k, p, LAVD_GK_PREEMPT, LAVD_KN_PREEMPT);
	set_flag(&k, p, LAVD_GK_EVICTABLE, LAVD_KN_EVICTABLE);
	set_flag(&k, p, LAVD_GK_GREEDY_PREEMPT, LAVD_KN_GREEDY_PREEMPT);
	set_flag(&k, p, LAVD_GK_FUTEX, LAVD_KN_FUTEX);
	set_flag(&k, p, LAVD_GK_SLICE_BOOST, LAVD_KN_SLICE_BOOST);
	set_flag(&k, p, LAVD_GK_CHAIN, LAVD_KN_CHAIN_DL);
	if (k.slice_min_ns > k.slice_max_ns) {
		int l = p->set[LAVD_GK_SLICE_MAX] ? p->kline[LAVD_GK_SLICE_MAX] :
			p->kline[LAVD_GK_SLICE_MIN];

		return gs_err_at(err, errlen, p->file, l, "slice-min-us %llu is above "
				 "slice-max-us %llu%s", (unsigned long long)(k.slice_min_ns / 1000),
				 (unsigned long long)(k.slice_max_ns / 1000),
				 p->set[LAVD_GK_SLICE_MIN] && p->set[LAVD_GK_SLICE_MAX] ? "" :
				 " (the other bound is lavd's option)");
	}
	if ((k.flags & LAVD_KN_FUTEX) && !futex_available)
		return gs_err_at(err, errlen, p->file, p->kline[LAVD_GK_FUTEX],
				 "futex-boost on needs the futex programs, which "
				 "--no-futex-boost leaves out");
	p->kn = k;
	return 0;
}

/* ---- loading every file ---- */

static int note_file(struct lavd_gp_set *set, const char *path, bool dir,
		     char *err, size_t errlen)
{
	struct lavd_gp_file *f;
	struct stat st;

	if (set->nfiles == LAVD_GP_MAX_FILES) {
		snprintf(err, errlen, "%s: more than %d files", path, LAVD_GP_MAX_FILES);
		return -1;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen, "cannot open %s: %s", GS_SHORT_PATH(path),
			 strerror(errno));
		return -1;
	}
	f = &set->files[set->nfiles++];
	memset(f, 0, sizeof(*f));
	gs_strlcpy(f->path, path, sizeof(f->path));
	f->dir = dir;
	f->mtime = st.st_mtim;
	f->size = st.st_size;
	f->ino = st.st_ino;
	return 0;
}

/* One file into the next slot of set. */
static int load_file(struct lavd_gp_set *set, const char *path,
		     const struct lavd_knobs *dfl, bool futex,
		     lavd_gp_is_global_fn *is_global, char *err, size_t errlen)
{
	const size_t max = 64 * 1024;
	char e[1000];
	struct lavd_gprof *p;
	size_t n;
	char *buf;
	int rc;

	if (note_file(set, path, false, err, errlen))
		return -1;
	if (set->n == LAVD_GP_MAX) {
		snprintf(err, errlen, "%s: more than %d profiles (the most lavd holds)",
			 path, LAVD_GP_MAX);
		return -1;
	}
	if (gs_read_file(path, max + 1, &buf, &n, e, sizeof(e))) {
		snprintf(err, errlen, "cannot open %s", e);
		return -1;
	}
	p = &set->p[set->n];
	rc = -1;
	if (n > max)
		snprintf(err, errlen, "%s: larger than 64 KiB", path);
	else if (memchr(buf, '\0', n))
		gs_err_at(err, errlen, path, gs_nul_line(buf, n),
			  "a NUL byte: not a text file");
	else
		rc = lavd_gp_parse(buf, path, is_global, p, err, errlen);
	free(buf);
	if (rc)
		return -1;
	for (int i = 0; i < set->n; i++)
		if (!strcmp(set->p[i].name, p->name))
			return gs_err_at(err, errlen, path, p->name_line ? p->name_line : 1,
					 "profile name '%s' is already used by %s",
					 p->name, set->p[i].file);
	if (lavd_gp_resolve(p, dfl, futex, err, errlen))
		return -1;
	set->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's *.conf files, by name. */
static int load_dir(struct lavd_gp_set *set, const char *dir,
		    const struct lavd_knobs *dfl, bool futex,
		    lavd_gp_is_global_fn *is_global, char *err, size_t errlen)
{
	char *names[LAVD_GP_MAX_FILES + 1];
	struct dirent *de;
	int n = 0, rc = 0;
	DIR *d;

	if (note_file(set, dir, true, err, errlen))
		return -1;
	if (!(d = opendir(dir))) {
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && n <= LAVD_GP_MAX_FILES) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || l < 6 || strcmp(de->d_name + l - 5, ".conf"))
			continue;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	if (!n) {
		snprintf(err, errlen, "%s: no profiles in it (*.conf files)", dir);
		rc = -1;
	}
	for (int i = 0; i < n; i++) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i] ? names[i] : "");
		if (!rc && (!names[i] ||
			    load_file(set, path, dfl, futex, is_global, err, errlen)))
			rc = -1;
		free(names[i]);
	}
	return rc;
}

int lavd_gp_load(const struct lavd_gp_path *paths, int npaths,
		 const struct lavd_knobs *dfl, bool futex_available,
		 lavd_gp_is_global_fn *is_global, struct lavd_gp_set *set,
		 char *err, size_t errlen)
{
	char e[1024];

	memset(set, 0, sizeof(*set));
	for (int i = 0; i < npaths; i++) {
		int rc = paths[i].dir ?
			 load_dir(set, paths[i].path, dfl, futex_available, is_global,
				  e, sizeof(e)) :
			 load_file(set, paths[i].path, dfl, futex_available, is_global,
				   e, sizeof(e));

		if (rc) {
			snprintf(err, errlen, "%s: %s", paths[i].dir ? "--game-profiles" :
				 "--game-profile", e);
			return -1;
		}
	}
	for (int i = 0; i < set->n; i++)
		for (int r = 0; r < set->p[i].nrules; r++)
			for (int c = 0; c < set->p[i].rule[r].ncond; c++) {
				set->thread_rules |= set->p[i].rule[r].cond[c].kind == LAVD_GP_THREAD;
				set->exe_rules |= set->p[i].rule[r].cond[c].kind == LAVD_GP_EXE;
			}
	return 0;
}

int lavd_gp_changed(struct lavd_gp_set *set)
{
	for (int i = 0; i < set->nfiles; i++) {
		struct lavd_gp_file *f = &set->files[i];
		struct stat st;

		if (f->warned)
			continue;
		if (stat(f->path, &st) || st.st_ino != f->ino || st.st_size != f->size ||
		    st.st_mtim.tv_sec != f->mtime.tv_sec ||
		    st.st_mtim.tv_nsec != f->mtime.tv_nsec) {
			f->warned = true;
			return i;
		}
	}
	return -1;
}
