// SPDX-License-Identifier: GPL-2.0-only
/*
 * Profile parser: one statement per line, '#' starts a comment, tokens are
 * separated by blanks, options are KEY=VALUE tokens. Names must be
 * declared before they are used, so every error has one line to point at.
 * A stage's steps are parsed in fbprofile_step.c.
 */
#include "fbprofile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbprofile_parse.h"
#include "util.h"

const char *const fb_periodic_names[FB_PER_N] = { "input", "audio", "net" };

#define MAX_TOKENS 16
#define MAX_LINE 1024

/* Keys a profile gives at most once (a second is a mistake, not a change) */
static const char *const once_kw[6] = { "name", "description", "fps",
					"frames-in-flight", "workers", "comm" };

int fbp_fail(struct pctx *c, const char *what, const char *got)
{
	if (got)
		snprintf(c->err, c->errlen, "%s:%d: expected %s, got '%s'",
			 c->source, c->line, what, got);
	else
		snprintf(c->err, c->errlen,
			 "%s:%d: expected %s, got end of line", c->source,
			 c->line, what);
	return -1;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= FB_NAME_MAX)
		return false;
	for (const char *q = s; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || *q == '_' || *q == '-' ||
		      *q == '.'))
			return false;
	return true;
}

static int parse_value_ns(const char *s, uint64_t *out)
{
	return gs_parse_duration_ns(s, NSEC_PER_USEC, out);
}

/* "300", "300us", "1.5ms", "200..800", "1ms..3ms", "1ms~200us",
 * "1ms~100us/300us" (two-piece: median, sd below, sd above). */
int fbp_parse_dist(const char *s, struct fb_dist *d)
{
	char buf[64];
	char *sep, *up;
	uint64_t a, b, c = 0;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if ((sep = strstr(buf, ".."))) {
		*sep = '\0';
		if (parse_value_ns(buf, &a) || parse_value_ns(sep + 2, &b) ||
		    a > b || b > FB_MAX_WORK_NS)
			return -1;
		d->kind = a == b ? FB_DIST_FIXED : FB_DIST_UNIFORM;
	} else if ((sep = strchr(buf, '~'))) {
		*sep = '\0';
		up = strchr(sep + 1, '/');
		if (up)
			*up = '\0';
		if (parse_value_ns(buf, &a) || parse_value_ns(sep + 1, &b) ||
		    (up && parse_value_ns(up + 1, &c)) ||
		    a > FB_MAX_WORK_NS || b > FB_MAX_WORK_NS || c > FB_MAX_WORK_NS)
			return -1;
		d->kind = up ? FB_DIST_TWOPIECE : b == 0 ? FB_DIST_FIXED : FB_DIST_NORMAL;
	} else {
		if (parse_value_ns(buf, &a) || a > FB_MAX_WORK_NS)
			return -1;
		b = a;
		d->kind = FB_DIST_FIXED;
	}
	d->a = (double)a;
	d->b = (double)b;
	d->c = (double)c;
	return 0;
}

const char fbp_dist_what[] =
	"a work distribution (300us, 200us..800us, 1ms~200us or "
	"1ms~100us/300us; a bare number is in us, at most 1s)";

static int find_name(char names[][FB_NAME_MAX], unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

static int find_service(const struct fb_profile *p, const char *s)
{
	for (unsigned i = 0; i < p->nservices; i++)
		if (!strcmp(p->service[i].name, s))
			return (int)i;
	return -1;
}

static int find_stage(const struct fb_profile *p, const char *s)
{
	for (unsigned i = 0; i < p->nstages; i++)
		if (!strcmp(p->stage[i].name, s))
			return (int)i;
	return -1;
}

/* A list of the declared names of one kind, for "expected" messages. */
static void name_list(char *buf, size_t len, const char *kind,
		      const char *first, size_t stride, unsigned n)
{
	size_t off = (size_t)snprintf(buf, len, "a declared %s", kind);

	if (!n) {
		snprintf(buf + off, len - off, " (none declared yet)");
		return;
	}
	for (unsigned i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : " (",
					first + (size_t)i * stride);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

static int lookup_process(struct pctx *c, const char *s, int *out)
{
	char what[256];
	int i;

	if (!strcmp(s, "main")) {
		*out = 0;
		return 0;
	}
	i = find_name(c->p->proc + 1, c->p->nprocs, s);
	if (i >= 0) {
		*out = i + 1;
		return 0;
	}
	snprintf(what, sizeof(what), "a process: main");
	for (unsigned k = 1; k <= c->p->nprocs; k++) {
		size_t off = strlen(what);

		snprintf(what + off, sizeof(what) - off, ", %s", c->p->proc[k]);
	}
	snprintf(what + strlen(what), sizeof(what) - strlen(what),
		 " (declare helper processes with 'process NAME' first)");
	return fbp_fail(c, what, s);
}

int fbp_lookup_lock(struct pctx *c, const char *s, int *out)
{
	char what[320];
	int i = find_name(c->p->lock, c->p->nlocks, s);

	if (i >= 0) {
		*out = i;
		return 0;
	}
	name_list(what, sizeof(what), "mutex", c->p->lock[0], FB_NAME_MAX,
		  c->p->nlocks);
	return fbp_fail(c, what, s);
}

int fbp_lookup_service(struct pctx *c, const char *s, int *out)
{
	char what[320];
	int i = find_service(c->p, s);

	if (i >= 0) {
		*out = i;
		return 0;
	}
	name_list(what, sizeof(what), "service", c->p->service[0].name,
		  sizeof(c->p->service[0]), c->p->nservices);
	return fbp_fail(c, what, s);
}

/* Splits "key=value"; returns the value or NULL when tok has no '='. */
char *fbp_opt_value(char *tok)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return NULL;
	*eq = '\0';
	return eq + 1;
}

/* A thread or process name as Linux keeps it: 1-15 printable characters. */
static int comm_value(struct pctx *c, const char *v, char *out)
{
	size_t n = strlen(v);

	if (!n || n >= FB_COMM_MAX)
		return fbp_fail(c, "a name of 1-15 characters (Linux keeps 15 of a "
			    "thread or process name)", v);
	for (const char *q = v; *q; q++)
		if (*q < 0x20 || *q > 0x7e || *q == '%')
			return fbp_fail(c, "a name of printable characters without '%'", v);
	gs_strlcpy(out, v, FB_COMM_MAX);
	return 0;
}

/* workers' thread=FORMAT: at most one %d, the index; with the largest
 * index it must fit Linux's 15 characters */
static int worker_format(struct pctx *c, const char *v, unsigned workers, char *out)
{
	char name[64];
	int nd = 0;

	for (const char *q = v; *q; q++) {
		if (*q < 0x20 || *q > 0x7e)
			return fbp_fail(c, "a name of printable characters", v);
		if (*q != '%')
			continue;
		if (q[1] != 'd' || nd++)
			return fbp_fail(c, "a worker name with at most one %d (its index)", v);
		q++;
	}
	if (!*v || strlen(v) >= FB_TFMT_MAX)
		return fbp_fail(c, "a worker name of 1-15 characters", v);
	gs_strlcpy(out, v, FB_TFMT_MAX);
	if (nd) {
		int w = snprintf(name, sizeof(name), v, (int)workers - 1);

		if (w < 0 || w >= FB_COMM_MAX)
			return fbp_fail(c, "a worker name of at most 15 characters with "
				    "the largest index in it", name);
	} else if (strlen(v) >= FB_COMM_MAX) {
		return fbp_fail(c, "a worker name of at most 15 characters", v);
	}
	return 0;
}

void fb_worker_name(const struct fb_profile *p, unsigned idx, char out[FB_COMM_MAX])
{
	char name[64];

	if (!p->worker_thread[0])
		snprintf(name, sizeof(name), "fb-worker%u", idx);
	else if (strstr(p->worker_thread, "%d"))
		snprintf(name, sizeof(name), p->worker_thread, (int)idx);
	else
		snprintf(name, sizeof(name), "%s", p->worker_thread);
	gs_strlcpy(out, name, FB_COMM_MAX);	/* what Linux would keep */
}

int fbp_parse_prob(struct pctx *c, const char *v, double *out)
{
	if (gs_parse_double(v, 0.0, 1.0, out) || *out <= 0)
		return fbp_fail(c, "a probability p=P with 0 < P <= 1", v);
	return 0;
}

int fbp_parse_uint(struct pctx *c, const char *s, unsigned min,
		   unsigned max, const char *what, unsigned *out)
{
	uint64_t v;

	if (!s)
		return fbp_fail(c, what, NULL);
	if (gs_parse_u64(s, min, max, &v))
		return fbp_fail(c, what, s);
	*out = (unsigned)v;
	return 0;
}

/* "KEYWORD N" and nothing after it. */
static int number_line(struct pctx *c, char **tok, int ntok, unsigned min,
		       unsigned max, const char *what, unsigned *out)
{
	if (fbp_parse_uint(c, ntok > 1 ? tok[1] : NULL, min, max, what, out))
		return -1;
	if (ntok > 2)
		return fbp_fail(c, "end of line", tok[2]);
	return 0;
}

static int new_name(struct pctx *c, const char *s, const char *kind)
{
	char what[96];

	if (!s) {
		snprintf(what, sizeof(what), "a %s name", kind);
		return fbp_fail(c, what, NULL);
	}
	if (!valid_name(s)) {
		snprintf(what, sizeof(what),
			 "a %s name of 1-31 letters, digits, '_', '-' or '.'",
			 kind);
		return fbp_fail(c, what, s);
	}
	/* Three name spaces: processes, mutexes, and task classes (stages,
	 * services and the fixed classes of the wake-up latency table). */
	if (!strcmp(kind, "process")) {
		if (!strcmp(s, "main") ||
		    find_name(c->p->proc + 1, c->p->nprocs, s) >= 0) {
			snprintf(what, sizeof(what),
				 "a new process name (not main or a process "
				 "declared before)");
			return fbp_fail(c, what, s);
		}
	} else if (!strcmp(kind, "mutex")) {
		if (find_name(c->p->lock, c->p->nlocks, s) >= 0)
			return fbp_fail(c, "a new mutex name", s);
	} else if (find_service(c->p, s) >= 0 || find_stage(c->p, s) >= 0 ||
		   !strcmp(s, "worker") || !strcmp(s, "vsync") ||
		   !strcmp(s, "input") || !strcmp(s, "audio") ||
		   !strcmp(s, "net")) {
		snprintf(what, sizeof(what),
			 "a new %s name (not worker, vsync, input, audio, net "
			 "or a stage or service declared before)",
			 kind);
		return fbp_fail(c, what, s);
	}
	return 0;
}

static int parse_periodic(struct pctx *c, int which, char **tok, int ntok)
{
	struct fb_periodic *per = &c->p->periodic[which];
	bool have_period = false, have_work = false, have_hold = false;
	/* the keys this kind of periodic task takes */
	const char *keys =
		which == FB_PER_NET ?
			"period=, work=, lock=, hold=, thread= or process=" :
		which == FB_PER_AUDIO ?
			"period=, work=, deadline=, thread= or process=" :
			"period=, work=, thread= or process=";

	if (per->enabled)
		return fbp_fail(c, "one line per periodic task", tok[0]);
	memset(per, 0, sizeof(*per));
	per->lock = -1;
	per->line = c->line;
	for (int i = 1; i < ntok; i++) {
		char *key = tok[i], *v = fbp_opt_value(tok[i]);
		uint64_t ns;

		if (!v || !*v)
			return fbp_fail(c, keys, key);
		if (!strcmp(key, "period")) {
			if (parse_value_ns(v, &ns) || ns < 100 * NSEC_PER_USEC ||
			    ns > 10 * NSEC_PER_SEC)
				return fbp_fail(c, "a period between 100us and 10s", v);
			per->period_ns = ns;
			have_period = true;
		} else if (!strcmp(key, "work")) {
			if (fbp_parse_dist(v, &per->work))
				return fbp_fail(c, fbp_dist_what, v);
			have_work = true;
		} else if (!strcmp(key, "deadline") && which == FB_PER_AUDIO) {
			if (parse_value_ns(v, &ns) || ns < 10 * NSEC_PER_USEC ||
			    ns > 10 * NSEC_PER_SEC)
				return fbp_fail(c, "a deadline between 10us and 10s", v);
			per->deadline_ns = ns;
		} else if (!strcmp(key, "lock") && which == FB_PER_NET) {
			if (fbp_lookup_lock(c, v, &per->lock))
				return -1;
		} else if (!strcmp(key, "hold") && which == FB_PER_NET) {
			if (fbp_parse_dist(v, &per->hold))
				return fbp_fail(c, fbp_dist_what, v);
			have_hold = true;
		} else if (!strcmp(key, "process")) {
			if (lookup_process(c, v, &per->process))
				return -1;
		} else if (!strcmp(key, "thread")) {
			if (comm_value(c, v, per->thread))
				return -1;
		} else {
			return fbp_fail(c, keys, key);
		}
	}
	if (!have_period)
		return fbp_fail(c, "period=DURATION", NULL);
	if (!have_work)
		return fbp_fail(c, "work=DISTRIBUTION", NULL);
	if ((per->lock >= 0) != have_hold)
		return fbp_fail(c, "lock= and hold= together", NULL);
	if (which == FB_PER_AUDIO && !per->deadline_ns)
		per->deadline_ns = per->period_ns;
	per->enabled = true;
	return 0;
}

/* "service NAME process= work= thread=": a helper thread woken per frame */
static int service_line(struct pctx *c, char **tok, int ntok)
{
	struct fb_profile *p = c->p;
	struct fb_service *sv;
	bool have_work = false;

	if (new_name(c, ntok > 1 ? tok[1] : NULL, "service"))
		return -1;
	if (p->nservices >= FB_MAX_SERVICES)
		return fbp_fail(c, "at most 4 services", tok[1]);
	sv = &p->service[p->nservices];
	memset(sv, 0, sizeof(*sv));
	gs_strlcpy(sv->name, tok[1], sizeof(sv->name));
	for (int i = 2; i < ntok; i++) {
		char *key = tok[i], *v = fbp_opt_value(tok[i]);

		if (v && *v && !strcmp(key, "process")) {
			if (lookup_process(c, v, &sv->process))
				return -1;
		} else if (v && *v && !strcmp(key, "work")) {
			if (fbp_parse_dist(v, &sv->work))
				return fbp_fail(c, fbp_dist_what, v);
			have_work = true;
		} else if (v && *v && !strcmp(key, "thread")) {
			if (comm_value(c, v, sv->thread))
				return -1;
		} else {
			return fbp_fail(c, "process=, work= or thread=", key);
		}
	}
	if (!have_work)
		return fbp_fail(c, "work=DISTRIBUTION", NULL);
	p->nservices++;
	return 0;
}

/* "stage NAME process= thread=": the steps that follow belong to it */
static int stage_line(struct pctx *c, char **tok, int ntok)
{
	struct fb_profile *p = c->p;
	struct fb_stage *st;

	if (new_name(c, ntok > 1 ? tok[1] : NULL, "stage"))
		return -1;
	if (p->nstages >= FB_MAX_STAGES)
		return fbp_fail(c, "at most 8 stages", tok[1]);
	st = &p->stage[p->nstages];
	memset(st, 0, sizeof(*st));
	gs_strlcpy(st->name, tok[1], sizeof(st->name));
	st->line = c->line;
	for (int i = 2; i < ntok; i++) {
		char *key = tok[i], *v = fbp_opt_value(tok[i]);

		if (v && *v && !strcmp(key, "thread")) {
			if (comm_value(c, v, st->thread))
				return -1;
			continue;
		}
		if (!v || !*v || strcmp(key, "process"))
			return fbp_fail(c, "process=NAME or thread=NAME", key);
		if (lookup_process(c, v, &st->process))
			return -1;
	}
	c->stage = (int)p->nstages++;
	return 0;
}

static int parse_line(struct pctx *c, char **tok, int ntok, char *rest)
{
	struct fb_profile *p = c->p;
	const char *kw = tok[0];

	for (size_t i = 0; i < ARRAY_SIZE(once_kw); i++)
		if (!strcmp(kw, once_kw[i]) && c->once[i])
			return gs_err_at(c->err, c->errlen, c->source, c->line, "%s given "
					 "twice (first on line %d)", kw, c->once[i]);
		else if (!strcmp(kw, once_kw[i]))
			c->once[i] = c->line;
	if (!strcmp(kw, "name")) {
		if (ntok < 2)
			return fbp_fail(c, "a profile name", NULL);
		if (!valid_name(tok[1]))
			return fbp_fail(c, "a profile name of 1-31 letters, digits, "
				    "'_', '-' or '.'", tok[1]);
		if (ntok > 2)
			return fbp_fail(c, "end of line", tok[2]);
		gs_strlcpy(p->name, tok[1], sizeof(p->name));
		c->have_name = true;
	} else if (!strcmp(kw, "description")) {
		gs_strlcpy(p->description, rest ? rest : "",
			   sizeof(p->description));
	} else if (!strcmp(kw, "fps")) {
		return number_line(c, tok, ntok, 0, FB_MAX_FPS,
				   "a target FPS in [0, 10000] (0 = uncapped)",
				   &p->fps);
	} else if (!strcmp(kw, "frames-in-flight")) {
		return number_line(c, tok, ntok, 1, FB_MAX_IN_FLIGHT,
				   "a frame count in [1, 8]", &p->frames_in_flight);
	} else if (!strcmp(kw, "workers")) {
		char *v = ntok > 2 ? fbp_opt_value(tok[2]) : NULL;

		if (fbp_parse_uint(c, ntok > 1 ? tok[1] : NULL, 1, FB_MAX_WORKERS,
			       "a worker count in [1, 64]", &p->workers))
			return -1;
		if (ntok > 2 && (!v || strcmp(tok[2], "thread")))
			return fbp_fail(c, "thread=FORMAT or end of line", tok[2]);
		if (ntok > 3)
			return fbp_fail(c, "end of line", tok[3]);
		if (v && worker_format(c, v, p->workers, p->worker_thread))
			return -1;
	} else if (!strcmp(kw, "comm")) {
		if (ntok < 2)
			return fbp_fail(c, "the benchmark's process name", NULL);
		if (ntok > 2)
			return fbp_fail(c, "end of line", tok[2]);
		return comm_value(c, tok[1], p->proc_comm[0]);
	} else if (!strcmp(kw, "process")) {
		char *v = ntok > 2 ? fbp_opt_value(tok[2]) : NULL;

		if (new_name(c, ntok > 1 ? tok[1] : NULL, "process"))
			return -1;
		if (p->nprocs >= FB_MAX_PROCS)
			return fbp_fail(c, "at most 4 helper processes", tok[1]);
		if (ntok > 2 && (!v || strcmp(tok[2], "comm")))
			return fbp_fail(c, "comm=NAME or end of line", tok[2]);
		if (ntok > 3)
			return fbp_fail(c, "end of line", tok[3]);
		gs_strlcpy(p->proc[++p->nprocs], tok[1], FB_NAME_MAX);
		if (v && comm_value(c, v, p->proc_comm[p->nprocs]))
			return -1;
	} else if (!strcmp(kw, "mutex")) {
		if (new_name(c, ntok > 1 ? tok[1] : NULL, "mutex"))
			return -1;
		if (p->nlocks >= FB_MAX_LOCKS)
			return fbp_fail(c, "at most 8 mutexes", tok[1]);
		if (ntok > 2)
			return fbp_fail(c, "end of line", tok[2]);
		gs_strlcpy(p->lock[p->nlocks++], tok[1], FB_NAME_MAX);
	} else if (!strcmp(kw, "service")) {
		return service_line(c, tok, ntok);
	} else if (!strcmp(kw, "input") || !strcmp(kw, "audio") ||
		   !strcmp(kw, "net")) {
		int which = kw[0] == 'i' ? FB_PER_INPUT
			    : kw[0] == 'a' ? FB_PER_AUDIO
					   : FB_PER_NET;

		return parse_periodic(c, which, tok, ntok);
	} else if (!strcmp(kw, "stage")) {
		return stage_line(c, tok, ntok);
	} else if (!strcmp(kw, "work") || !strcmp(kw, "call") ||
		   !strcmp(kw, "fanout") || !strcmp(kw, "lock") ||
		   !strcmp(kw, "join")) {
		return fbp_parse_step(c, tok, ntok);
	} else {
		return fbp_fail(c,
			    "a keyword (name, description, fps, "
			    "frames-in-flight, workers, comm, process, mutex, "
			    "service, input, audio, net, stage, work, call, "
			    "fanout, lock, join)",
			    kw);
	}
	return 0;
}

/* One line's words into tok (at most MAX_TOKENS), past its comment; a
 * "..." word keeps its blanks; after "description" the rest of the line
 * is one, in *rest, which points into orig (MAX_LINE bytes, the caller's).
 * The number of words, or -1 after the message. */
static int tokenize(struct pctx *c, char *line, char *orig, char **tok,
		    char **rest)
{
	char *q, *w;
	bool quoted;
	int ntok = 0;

	/* a comment starts at '#' at the line start or after a blank,
	 * outside "..." (thread names may hold '#') */
	for (q = line, quoted = false; *q; q++) {
		if (*q == '"')
			quoted = !quoted;
		if (!quoted && *q == '#' && (q == line || q[-1] == ' ' ||
					     q[-1] == '\t')) {
			*q = '\0';
			break;
		}
	}
	memcpy(orig, line, MAX_LINE);
	q = line;
	for (;;) {
		while (*q == ' ' || *q == '\t' || *q == '\r')
			*q++ = '\0';
		if (!*q)
			break;
		if (ntok == 1 && !strcmp(tok[0], "description")) {
			*rest = gs_trim(orig + (q - line));
			break;
		}
		if (ntok == MAX_TOKENS) {
			snprintf(c->err, c->errlen,
				 "%s:%d: expected at most %d words on "
				 "a line",
				 c->source, c->line, MAX_TOKENS);
			return -1;
		}
		/* "..." keeps blanks in a token: thread="RenderThread 1" */
		tok[ntok++] = w = q;
		while (*q && *q != ' ' && *q != '\t' && *q != '\r') {
			if (*q != '"') {
				*w++ = *q++;
				continue;
			}
			for (q++; *q && *q != '"'; )
				*w++ = *q++;
			if (!*q) {
				snprintf(c->err, c->errlen, "%s:%d: expected a closing "
					 "'\"'", c->source, c->line);
				return -1;
			}
			q++;
		}
		if (w != q)
			*w = '\0';
	}
	return ntok;
}

int fb_profile_parse(const char *text, size_t len, const char *source,
		     struct fb_profile *p, char *err, size_t errlen)
{
	struct pctx c = { .p = p, .source = source, .err = err,
			  .errlen = errlen, .stage = -1 };
	size_t pos = 0;

	memset(p, 0, sizeof(*p));
	gs_strlcpy(p->source, source, sizeof(p->source));
	p->fps = 60;
	p->frames_in_flight = 2;
	p->workers = 4;
	gs_strlcpy(p->proc[0], "main", FB_NAME_MAX);
	for (int i = 0; i < FB_PER_N; i++)
		p->periodic[i].lock = -1;

	while (pos < len) {
		char line[MAX_LINE], orig[MAX_LINE], *tok[MAX_TOKENS], *rest = NULL;
		size_t end = pos;
		int ntok;

		while (end < len && text[end] != '\n')
			end++;
		c.line++;
		if (end - pos >= sizeof(line)) {
			snprintf(err, errlen,
				 "%s:%d: expected a line shorter than %zu "
				 "characters",
				 source, c.line, sizeof(line));
			return -1;
		}
		if (memchr(text + pos, '\0', end - pos))
			return gs_err_at(err, errlen, source, c.line,
					 "a NUL byte: not a text file");
		memcpy(line, text + pos, end - pos);
		line[end - pos] = '\0';
		pos = end + 1;
		ntok = tokenize(&c, line, orig, tok, &rest);
		if (ntok < 0)
			return -1;
		if (!ntok)
			continue;
		if (parse_line(&c, tok, ntok, rest))
			return -1;
	}
	if (!p->nstages) {
		snprintf(err, errlen,
			 "%s:%d: expected at least one 'stage NAME' line "
			 "before the end of the file",
			 source, c.line ? c.line : 1);
		return -1;
	}
	for (unsigned k = 0; k < p->nstages; k++)
		if (fb_stage_check_async(&p->stage[k], source, err, errlen))
			return -1;
	if (!c.have_name) {
		const char *base = strrchr(source, '/');

		gs_strlcpy(p->name, base ? base + 1 : source, sizeof(p->name));
		gs_strip_suffix(p->name, ".profile");
	}
	return 0;
}
