// SPDX-License-Identifier: GPL-2.0-only
/*
 * Suite file parser. The format, line by line:
 *
 *   # comment                      (a line whose first non-blank is '#')
 *   KEY VALUE                      (suite settings, before any workload)
 *   workload NAME                  (starts a workload block)
 *   KEY VALUE                      (workload settings, until the next one)
 *
 * Keys other than `args` and `command` accept a trailing " # comment".
 * docs/gamesuite.md ("Suite files") lists the keys.
 */
#include "suite.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"
#include "proc.h"
#include "util.h"

struct pctx {
	const char *path;
	int line;
	char *err;
	size_t errlen;
	/* the keys given so far, suite's then the current workload's: a key
	 * given twice is a mistake, not "the last one wins" */
	struct { char key[20]; int line; } seen[48];
	int nseen, nsuite;
};

/* Every key but bg and args (they add) is given at most once per scope. */
static int once(struct pctx *c, const char *key, bool workload)
{
	int from = workload ? c->nsuite : 0;

	if (!strcmp(key, "bg") || !strcmp(key, "args"))
		return 0;
	for (int i = from; i < c->nseen; i++)
		if (!strcmp(c->seen[i].key, key))
			return gs_err_at(c->err, c->errlen, c->path, c->line,
					 "%s given twice (first on line %d)",
					 key, c->seen[i].line);
	if (c->nseen < (int)ARRAY_SIZE(c->seen) && strlen(key) < sizeof(c->seen[0].key)) {
		gs_strlcpy(c->seen[c->nseen].key, key, sizeof(c->seen[0].key));
		c->seen[c->nseen++].line = c->line;
	}
	return 0;
}

#define perr(c, ...) gs_err_at((c)->err, (c)->errlen, (c)->path, (c)->line, __VA_ARGS__)

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= GSU_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '+'))
			return false;
	return true;
}

static void strip_comment(char *v)
{
	for (char *p = v; *p; p++)
		if (*p == '#' && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	gs_trim(v);
}

static int parse_dur(struct pctx *c, const char *key, const char *v,
		     uint64_t min, uint64_t *out)
{
	if (gs_parse_duration_ns(v, NSEC_PER_SEC, out) || *out < min ||
	    *out > 24 * 3600 * NSEC_PER_SEC)
		return perr(c, "%s: expected a duration such as 500ms, 10s or "
			       "2m (at least %.3g s), got '%s'",
			    key, (double)min / 1e9, v);
	return 0;
}

static int parse_int(struct pctx *c, const char *key, const char *v,
		     int64_t min, int64_t max, int64_t *out)
{
	if (gs_parse_i64(v, min, max, out))
		return perr(c, "%s: expected an integer in [%lld, %lld], got "
			       "'%s'",
			    key, (long long)min, (long long)max, v);
	return 0;
}

static int suite_key(struct pctx *c, struct gsu_suite *s, const char *k,
		     char *v)
{
	int64_t i;

	strip_comment(v);
	if (!*v)
		return perr(c, "%s: missing value", k);
	if (!strcmp(k, "name")) {
		if (!valid_name(v))
			return perr(c, "name: expected letters, digits, '_', "
				       "'-' or '+' (at most %d), got '%s'",
				    GSU_NAME_MAX - 1, v);
		gs_strlcpy(s->name, v, sizeof(s->name));
	} else if (!strcmp(k, "repeat")) {
		if (parse_int(c, k, v, 1, 1000, &i))
			return -1;
		s->repeat = (int)i;
	} else if (!strcmp(k, "warmup")) {
		if (parse_int(c, k, v, 0, 100, &i))
			return -1;
		s->warmup = (int)i;
	} else if (!strcmp(k, "cooldown")) {
		return parse_dur(c, k, v, 0, &s->cooldown_ns);
	} else if (!strcmp(k, "duration")) {
		return parse_dur(c, k, v, 100 * NSEC_PER_MSEC,
				 &s->duration_ns);
	} else if (!strcmp(k, "confidence")) {
		if (gs_parse_double(v, 0.5, 0.999, &s->confidence))
			return perr(c, "confidence: expected a number in "
				       "[0.5, 0.999], got '%s'", v);
	} else if (!strcmp(k, "seed")) {
		if (gs_parse_u64(v, 0, UINT64_MAX, &s->seed))
			return perr(c, "seed: expected an unsigned integer, "
				       "got '%s'", v);
	} else {
		return perr(c, "unknown suite key '%s' (expected name, repeat, "
			       "warmup, cooldown, duration, confidence, seed, "
			       "or workload NAME)", k);
	}
	return 0;
}

/* Keys a workload kind accepts besides the common ones. */
static bool kind_accepts(enum gsu_kind k, const char *key)
{
	if (!strcmp(key, "profile") || !strcmp(key, "bg") ||
	    !strcmp(key, "fps"))
		return k == GSU_FRAMEBENCH;
	if (!strcmp(key, "command") || !strcmp(key, "startup") ||
	    !strcmp(key, "mangohud-config"))
		return k == GSU_GAME;
	if (!strcmp(key, "binary") || !strcmp(key, "args"))
		return k != GSU_GAME;
	if (!strcmp(key, "seed"))
		return k == GSU_FRAMEBENCH;
	return true;
}

static int append_args(struct pctx *c, struct gsu_workload *w, const char *v)
{
	char **words, err[128], **nv;
	int n;

	if (gsu_split_words(v, &words, &n, err, sizeof(err)))
		return perr(c, "args: %s", err);
	nv = realloc(w->args, (size_t)(w->nargs + n + 1) * sizeof(*nv));
	if (!nv) {
		gsu_free_words(words);
		return perr(c, "out of memory");
	}
	w->args = nv;
	for (int i = 0; i < n; i++)
		w->args[w->nargs++] = words[i];
	w->args[w->nargs] = NULL;
	free(words); /* the strings moved to w->args */
	return 0;
}

static int resolve_rel(const struct gsu_suite *s, const char *v, char *out,
		       size_t len)
{
	if (v[0] == '/' || !s->dir[0])
		gs_strlcpy(out, v, len);
	else if ((size_t)snprintf(out, len, "%s/%s", s->dir, v) >= len)
		return -1;
	return 0;
}

static int workload_key(struct pctx *c, struct gsu_suite *s,
			struct gsu_workload *w, const char *k, char *v)
{
	int64_t i;

	if (strcmp(k, "command") && strcmp(k, "args"))
		strip_comment(v);
	if (!*v)
		return perr(c, "%s: missing value", k);
	if (!strcmp(k, "kind")) {
		int kind = gsu_kind_parse(v);

		if (kind < 0)
			return perr(c, "kind: expected framebench, game, "
				       "schbench, perf-messaging or stress-ng, "
				       "got '%s'", v);
		if (w->kind != GSU_NKINDS)
			return perr(c, "kind given twice for workload '%s'",
				    w->name);
		w->kind = (enum gsu_kind)kind;
		return 0;
	}
	if (w->kind == GSU_NKINDS)
		return perr(c, "workload '%s': 'kind' must come first (before "
			       "'%s')", w->name, k);
	if (!kind_accepts(w->kind, k) &&
	    (!strcmp(k, "profile") || !strcmp(k, "bg") || !strcmp(k, "fps") ||
	     !strcmp(k, "command") || !strcmp(k, "startup") ||
	     !strcmp(k, "mangohud-config") || !strcmp(k, "binary") ||
	     !strcmp(k, "args") || !strcmp(k, "seed")))
		return perr(c, "'%s' does not apply to a %s workload", k,
			    gsu_kind_name(w->kind));
	if (!strcmp(k, "duration"))
		return parse_dur(c, k, v, 100 * NSEC_PER_MSEC, &w->duration_ns);
	if (!strcmp(k, "timeout"))
		return parse_dur(c, k, v, NSEC_PER_SEC, &w->timeout_ns);
	if (!strcmp(k, "startup"))
		return parse_dur(c, k, v, NSEC_PER_SEC, &w->startup_ns);
	if (!strcmp(k, "profile")) {
		gs_strlcpy(w->profile, v, sizeof(w->profile));
	} else if (!strcmp(k, "bg")) {
		if (w->nbg >= GSU_MAX_BG)
			return perr(c, "bg: at most %d background loads",
				    GSU_MAX_BG);
		if (strchr(v, ' ') || strchr(v, '\t'))
			return perr(c, "bg: one PATTERN[:N] per line, got '%s'",
				    v);
		if (!(w->bg[w->nbg] = strdup(v)))
			return perr(c, "out of memory");
		w->nbg++;
	} else if (!strcmp(k, "fps")) {
		if (parse_int(c, k, v, 0, 100000, &i))
			return -1;
		w->fps = (int)i;
	} else if (!strcmp(k, "seed")) {
		if (gs_parse_u64(v, 0, UINT64_MAX, &w->seed))
			return perr(c, "seed: expected an unsigned integer, "
				       "got '%s'", v);
		w->has_seed = true;
	} else if (!strcmp(k, "args")) {
		return append_args(c, w, v);
	} else if (!strcmp(k, "command")) {
		if (w->command)
			return perr(c, "command given twice");
		if (!(w->command = strdup(v)))
			return perr(c, "out of memory");
	} else if (!strcmp(k, "binary")) {
		gs_strlcpy(w->binary, v, sizeof(w->binary));
	} else if (!strcmp(k, "mangohud-config")) {
		if (resolve_rel(s, v, w->mangohud_conf,
				sizeof(w->mangohud_conf)))
			return perr(c, "mangohud-config: path too long");
		if (access(w->mangohud_conf, R_OK))
			return perr(c, "mangohud-config: cannot read '%s': %s",
				    w->mangohud_conf, strerror(errno));
	} else {
		return perr(c, "unknown workload key '%s' (expected kind, "
			       "duration, timeout, profile, bg, fps, seed, args, "
			       "binary, command, startup, mangohud-config)", k);
	}
	return 0;
}

static int finish_workload(struct pctx *c, struct gsu_suite *s,
			   struct gsu_workload *w)
{
	int line = c->line;

	c->line = w->line;
	if (w->kind == GSU_NKINDS)
		return perr(c, "workload '%s' has no 'kind'", w->name);
	if (w->kind == GSU_GAME) {
		if (!w->command)
			return perr(c, "game workload '%s' needs 'command'",
				    w->name);
		if (!w->mangohud_conf[0]) {
			/* the shipped config next to the suite or above it */
			const char *cands[] = { "MangoHud.conf",
						"../MangoHud.conf" };

			for (size_t i = 0; i < ARRAY_SIZE(cands); i++) {
				char p[512];

				if (!resolve_rel(s, cands[i], p, sizeof(p)) &&
				    !access(p, R_OK)) {
					gs_strlcpy(w->mangohud_conf, p,
						   sizeof(w->mangohud_conf));
					break;
				}
			}
			/* ... else the one installed with the suites */
			if (!w->mangohud_conf[0] &&
			    gs_data_find("MangoHud.conf",
					 "gamesuite/MangoHud.conf",
					 w->mangohud_conf,
					 sizeof(w->mangohud_conf)))
				w->mangohud_conf[0] = '\0';
			if (!w->mangohud_conf[0])
				return perr(c, "game workload '%s': no "
					       "MangoHud.conf next to the "
					       "suite; give 'mangohud-config "
					       "PATH'", w->name);
		}
	}
	c->line = line;
	return 0;
}

/* The suite's name and folder from its path, and the defaults of its keys. */
static void suite_init(struct gsu_suite *s, const char *path)
{
	char tmp[512];

	memset(s, 0, sizeof(*s));
	gs_strlcpy(s->path, path, sizeof(s->path));
	gs_strlcpy(tmp, path, sizeof(tmp));
	gs_strlcpy(s->dir, dirname(tmp), sizeof(s->dir));
	gs_strlcpy(tmp, path, sizeof(tmp));
	{
		char *b = basename(tmp), *dot = strrchr(b, '.');

		if (dot && dot != b)
			*dot = '\0';
		gs_strlcpy(s->name, b, sizeof(s->name));
	}
	s->repeat = 5;
	s->warmup = 1;
	s->cooldown_ns = 2 * NSEC_PER_SEC;
	s->duration_ns = 10 * NSEC_PER_SEC;
	s->confidence = 0.95;
	s->seed = 1;
}

/* A 'workload NAME' line: a new workload, its keys at their defaults;
 * NULL after the message (a bad or repeated name). */
static struct gsu_workload *new_workload(struct pctx *c, struct gsu_suite *s,
					 const char *val)
{
	struct gsu_workload *nw, *w;

	if (!valid_name(val)) {
		perr(c, "workload: expected a name of letters, "
			 "digits, '_', '-' or '+' (at most %d), "
			 "got '%s'", GSU_NAME_MAX - 1, val);
		return NULL;
	}
	for (int i = 0; i < s->nw; i++)
		if (!strcmp(s->w[i].name, val)) {
			perr(c, "workload '%s' defined twice "
				 "(first at line %d)",
			     val, s->w[i].line);
			return NULL;
		}
	nw = realloc(s->w, (size_t)(s->nw + 1) * sizeof(*nw));
	if (!nw) {
		perr(c, "out of memory");
		return NULL;
	}
	s->w = nw;
	w = &s->w[s->nw++];
	memset(w, 0, sizeof(*w));
	gs_strlcpy(w->name, val, sizeof(w->name));
	w->kind = GSU_NKINDS;
	w->line = c->line;
	w->fps = -1;
	return w;
}

int gsu_suite_parse(FILE *f, const char *path, struct gsu_suite *s,
		    char *err, size_t errlen)
{
	struct pctx c = { .path = path, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct gsu_workload *cur = NULL;

	suite_init(s, path);

	while ((len = getline(&line, &cap, f)) >= 0) {
		char *l, *key, *val;

		c.line++;
		if (len > 4095) {
			perr(&c, "line longer than %d characters", 4094);
			goto fail;
		}
		if (memchr(line, '\0', (size_t)len)) {
			perr(&c, "a NUL byte: not a text file");
			goto fail;
		}
		l = gs_trim(line);
		if (!*l || *l == '#')
			continue;
		key = l;
		val = key + strcspn(key, " \t");
		if (*val)
			*val++ = '\0';
		val = gs_trim(val);
		if (!strcmp(key, "workload")) {
			strip_comment(val);
			if (cur && finish_workload(&c, s, cur))
				goto fail;
			cur = new_workload(&c, s, val);
			if (!cur)
				goto fail;
			if (s->nw == 1)	/* the suite's keys end here */
				c.nsuite = c.nseen;
			c.nseen = c.nsuite;
			continue;
		}
		if (once(&c, key, cur != NULL))
			goto fail;
		if (cur ? workload_key(&c, s, cur, key, val)
			: suite_key(&c, s, key, val))
			goto fail;
	}
	if (ferror(f)) {
		c.line = 0;	/* no line to name: the file as a whole */
		perr(&c, "read error: %s", strerror(errno));
		goto fail;
	}
	free(line);
	line = NULL;
	if (cur && finish_workload(&c, s, cur))
		goto fail;
	if (!s->nw) {
		c.line = c.line ? c.line : 1;
		perr(&c, "no workload in the suite (add 'workload NAME' "
			 "blocks)");
		goto fail;
	}
	return 0;
fail:
	free(line);
	gsu_suite_free(s);
	return -1;
}

/* A bare NAME that is no file here: the shipped suite suites/NAME or
 * suites/NAME.suite in the data directory (lib/datadir.h). */
static FILE *open_shipped_suite(const char *name, char *path, size_t len)
{
	static const char *const fmt[] = { "%s%s", "%s%s.suite" };

	if (strchr(name, '/') || strlen(name) > 200)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(fmt); i++) {
		char rel[256], src[256];

		snprintf(rel, sizeof(rel), fmt[i], "suites/", name);
		snprintf(src, sizeof(src), fmt[i], "gamesuite/suites/", name);
		if (!gs_data_find(rel, src, path, len))
			return gs_fopen_regular(path, NULL, 0);
	}
	return NULL;
}

int gsu_suite_load(const char *path, struct gsu_suite *s, char *err,
		   size_t errlen)
{
	char why[128];
	FILE *f = gs_fopen_regular(path, why, sizeof(why));
	char shipped[sizeof(s->path)];
	int rc;

	if (!f && errno == ENOENT) {
		f = open_shipped_suite(path, shipped, sizeof(shipped));
		if (f)
			path = shipped;
		else
			errno = ENOENT;
	}
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s%s",
			 GS_SHORT_PATH(path), why, errno != ENOENT || strchr(path, '/') ? "" :
			 " (and no shipped suite of that name)");
		memset(s, 0, sizeof(*s));
		return -1;
	}
	rc = gsu_suite_parse(f, path, s, err, errlen);
	fclose(f);
	return rc;
}

static void workload_free(struct gsu_workload *w)
{
	for (int b = 0; b < w->nbg; b++)
		free(w->bg[b]);
	if (w->args) {
		for (int a = 0; a < w->nargs; a++)
			free(w->args[a]);
		free(w->args);
	}
	free(w->command);
}

void gsu_suite_free(struct gsu_suite *s)
{
	for (int i = 0; i < s->nw; i++)
		workload_free(&s->w[i]);
	free(s->w);
	s->w = NULL;
	s->nw = 0;
}

static bool named(const char *name, const char *const names[], int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

int gsu_suite_keep(struct gsu_suite *s, const char *const names[], int n,
		   char *err, size_t errlen)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		bool found = false;

		for (int w = 0; w < s->nw; w++)
			found |= !strcmp(s->w[w].name, names[i]);
		if (!found) {
			snprintf(err, errlen, "no workload '%s' in %s",
				 names[i], s->path);
			return -1;
		}
	}
	if (!n)
		return 0;
	for (int w = 0; w < s->nw; w++) {
		if (named(s->w[w].name, names, n))
			s->w[kept++] = s->w[w];
		else
			workload_free(&s->w[w]);
	}
	s->nw = kept;
	return 0;
}
