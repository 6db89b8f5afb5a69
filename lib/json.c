// SPDX-License-Identifier: GPL-2.0-only
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

/* ---- writer -------------------------------------------------------- */

void gs_jw_init(struct gs_jw *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

void gs_json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
	     p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '<': /* keeps "</script>" out of embedded JSON */
			fputs("\\u003c", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void indent(struct gs_jw *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Emits the separator and the key of the next value. */
static void prefix(struct gs_jw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->need_comma[w->depth])
			fputc(',', w->f);
		w->need_comma[w->depth] = true;
		indent(w);
	}
	if (key) {
		gs_json_write_string(w->f, key);
		fputs(w->pretty ? ": " : ":", w->f);
	}
}

static void open_container(struct gs_jw *w, const char *key, char c)
{
	prefix(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < GS_JW_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_container(struct gs_jw *w, char c)
{
	bool had = w->need_comma[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had)
		indent(w);
	fputc(c, w->f);
}

void gs_jw_obj(struct gs_jw *w, const char *key)
{
	open_container(w, key, '{');
}

void gs_jw_obj_end(struct gs_jw *w)
{
	close_container(w, '}');
}

void gs_jw_arr(struct gs_jw *w, const char *key)
{
	open_container(w, key, '[');
}

void gs_jw_arr_end(struct gs_jw *w)
{
	close_container(w, ']');
}

void gs_jw_str(struct gs_jw *w, const char *key, const char *s)
{
	prefix(w, key);
	if (s)
		gs_json_write_string(w->f, s);
	else
		fputs("null", w->f);
}

void gs_jw_num(struct gs_jw *w, const char *key, double v)
{
	prefix(w, key);
	if (isfinite(v))
		fprintf(w->f, "%.10g", v);
	else
		fputs("null", w->f);
}

void gs_jw_int(struct gs_jw *w, const char *key, int64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void gs_jw_uint(struct gs_jw *w, const char *key, uint64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void gs_jw_bool(struct gs_jw *w, const char *key, bool v)
{
	prefix(w, key);
	fputs(v ? "true" : "false", w->f);
}

void gs_jw_null(struct gs_jw *w, const char *key)
{
	prefix(w, key);
	fputs("null", w->f);
}

void gs_jw_done(struct gs_jw *w)
{
	fputc('\n', w->f);
}

/* ---- reader -------------------------------------------------------- */

struct parser {
	const char *s, *end, *p;
	char *err;
	size_t errlen;
	int depth;
	bool failed;
};

static void fail(struct parser *ps, const char *fmt, ...)
{
	int line = 1, col = 1;
	int n;
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = true;
	for (const char *q = ps->s; q < ps->p; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	n = snprintf(ps->err, ps->errlen, "line %d, column %d: ", line, col);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct gs_jv *new_value(enum gs_jtype t)
{
	struct gs_jv *v = calloc(1, sizeof(*v));

	if (v)
		v->type = t;
	return v;
}

static void put_utf8(char **o, unsigned cp)
{
	char *q = *o;

	if (cp < 0x80) {
		*q++ = (char)cp;
	} else if (cp < 0x800) {
		*q++ = (char)(0xc0 | (cp >> 6));
		*q++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*q++ = (char)(0xe0 | (cp >> 12));
		*q++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*q++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*q++ = (char)(0xf0 | (cp >> 18));
		*q++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*q++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*q++ = (char)(0x80 | (cp & 0x3f));
	}
	*o = q;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *parse_string_raw(struct parser *ps)
{
	const char *start = ++ps->p; /* after the quote */
	char *out, *o;

	/* Escapes only shrink, so the raw span bounds the decoded size. */
	while (ps->p < ps->end && *ps->p != '"') {
		if (*ps->p == '\\')
			ps->p++;
		ps->p++;
	}
	if (ps->p >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	out = malloc((size_t)(ps->p - start) + 1);
	if (!out) {
		fail(ps, "out of memory");
		return NULL;
	}
	o = out;
	for (const char *q = start; q < ps->p; q++) {
		unsigned cp;

		if ((unsigned char)*q < 0x20) {
			ps->p = q;
			fail(ps, "control character in string");
			free(out);
			return NULL;
		}
		if (*q != '\\') {
			*o++ = *q;
			continue;
		}
		switch (*++q) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (ps->p - q < 5 || hex4(q + 1, &cp)) {
				ps->p = q;
				fail(ps, "bad \\u escape");
				free(out);
				return NULL;
			}
			q += 4;
			/* a surrogate pair's high half followed by the low one */
			if (cp >= 0xd800 && cp < 0xdc00 && ps->p - q >= 7 &&
			    q[1] == '\\' && q[2] == 'u') {
				unsigned lo;

				if (!hex4(q + 3, &lo) && lo >= 0xdc00 &&
				    lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
					q += 6;
				}
			}
			put_utf8(&o, cp);
			break;
		default:
			ps->p = q;
			fail(ps, "bad escape '\\%c'", *q);
			free(out);
			return NULL;
		}
	}
	*o = '\0';
	ps->p++; /* closing quote */
	return out;
}

static struct gs_jv *parse_value(struct parser *ps);

static int append(struct gs_jv *c, char *key, struct gs_jv *item)
{
	struct gs_jv **ni;

	if ((c->len & (c->len - 1)) == 0) { /* grow at powers of two */
		size_t cap = c->len ? c->len * 2 : 4;

		ni = realloc(c->items, cap * sizeof(*ni));
		if (!ni)
			return -1;
		c->items = ni;
		if (c->type == GS_JOBJ) {
			char **nk = realloc(c->keys, cap * sizeof(*nk));

			if (!nk)
				return -1;
			c->keys = nk;
		}
	}
	c->items[c->len] = item;
	if (c->type == GS_JOBJ)
		c->keys[c->len] = key;
	c->len++;
	return 0;
}

static struct gs_jv *parse_container(struct parser *ps, bool obj)
{
	struct gs_jv *c = new_value(obj ? GS_JOBJ : GS_JARR);
	char close = obj ? '}' : ']';

	if (!c) {
		fail(ps, "out of memory");
		return NULL;
	}
	if (++ps->depth > 200) {
		fail(ps, "nesting deeper than 200");
		goto bad;
	}
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return c;
	}
	for (;;) {
		char *key = NULL;
		struct gs_jv *item;

		skip_ws(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a member name in quotes");
				goto bad;
			}
			key = parse_string_raw(ps);
			if (!key)
				goto bad;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				fail(ps, "expected ':' after member name");
				goto bad;
			}
			ps->p++;
		}
		item = parse_value(ps);
		if (!item || append(c, key, item)) {
			free(key);
			gs_json_free(item);
			fail(ps, "out of memory");
			goto bad;
		}
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			break;
		}
		fail(ps, "expected ',' or '%c'", close);
		goto bad;
	}
	ps->depth--;
	return c;
bad:
	gs_json_free(c);
	return NULL;
}

static struct gs_jv *parse_value(struct parser *ps)
{
	struct gs_jv *v;

	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		return parse_container(ps, true);
	case '[':
		return parse_container(ps, false);
	case '"': {
		char *s = parse_string_raw(ps);

		if (!s)
			return NULL;
		v = new_value(GS_JSTR);
		if (!v) {
			free(s);
			fail(ps, "out of memory");
			return NULL;
		}
		v->str = s;
		return v;
	}
	}
	if (ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) {
		ps->p += 4;
		v = new_value(GS_JBOOL);
		if (v)
			v->b = true;
		return v;
	}
	if (ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) {
		ps->p += 5;
		return new_value(GS_JBOOL);
	}
	if (ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) {
		ps->p += 4;
		return new_value(GS_JNULL);
	}
	if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) {
		char buf[64];
		size_t n = 0;
		char *end;

		while (ps->p + n < ps->end && n < sizeof(buf) - 1 &&
		       strchr("+-0123456789.eE", ps->p[n]))
			n++;
		memcpy(buf, ps->p, n);
		buf[n] = '\0';
		v = new_value(GS_JNUM);
		if (!v)
			return NULL;
		errno = 0;
		v->num = strtod(buf, &end);
		if (end == buf || *end) {
			free(v);
			fail(ps, "malformed number");
			return NULL;
		}
		ps->p += n;
		return v;
	}
	fail(ps, "expected a value");
	return NULL;
}

struct gs_jv *gs_json_parse(const char *text, size_t len, char *err,
			    size_t errlen)
{
	struct parser ps = { text, text + len, text, err, errlen, 0, false };
	struct gs_jv *v;

	if (errlen)
		err[0] = '\0';
	v = parse_value(&ps);
	if (!v) {
		fail(&ps, "invalid JSON");
		return NULL;
	}
	skip_ws(&ps);
	if (ps.p != ps.end) {
		fail(&ps, "trailing characters after the document");
		gs_json_free(v);
		return NULL;
	}
	return v;
}

struct gs_jv *gs_json_parse_file(const char *path, char *err, size_t errlen)
{
	char *buf, sub[256];
	struct gs_jv *v;
	size_t len;

	if (gs_read_file(path, 0, &buf, &len, err, errlen))
		return NULL;
	v = gs_json_parse(buf, len, sub, sizeof(sub));
	if (!v)
		snprintf(err, errlen, "%s: %s", path, sub);
	free(buf);
	return v;
}

void gs_json_free(struct gs_jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->len; i++) {
		gs_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct gs_jv *gs_json_get(const struct gs_jv *v, const char *key)
{
	if (!v || v->type != GS_JOBJ)
		return NULL;
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const struct gs_jv *gs_json_path(const struct gs_jv *v, const char *path)
{
	char part[128];

	while (v && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		if (v->type == GS_JARR) {
			char *end;
			unsigned long i = strtoul(part, &end, 10);

			if (!n || *end || part[0] == '-' || part[0] == '+' ||
			    i >= v->len)
				return NULL;
			v = v->items[i];
		} else {
			v = gs_json_get(v, part);
		}
		path += n + (dot ? 1 : 0);
	}
	return v;
}

double gs_json_num_at(const struct gs_jv *v, const char *path, double dflt)
{
	const struct gs_jv *x = gs_json_path(v, path);

	return x && x->type == GS_JNUM ? x->num : dflt;
}

const char *gs_json_str_at(const struct gs_jv *v, const char *path)
{
	const struct gs_jv *x = gs_json_path(v, path);

	return x && x->type == GS_JSTR ? x->str : NULL;
}

void gs_jw_num_or_null(struct gs_jw *w, const char *key, bool ok, double v)
{
	if (ok)
		gs_jw_num(w, key, v);
	else
		gs_jw_null(w, key);
}

void gs_jw_fps_summary(struct gs_jw *w, const struct gs_fps_summary *s)
{
	static const struct gs_fps_summary none;
	bool ok = s != NULL;

	if (!s)
		s = &none;
	gs_jw_num_or_null(w, "avg_fps", ok, s->avg_fps);
	gs_jw_num_or_null(w, "low1_percentile_fps", ok, s->low1_percentile_fps);
	gs_jw_num_or_null(w, "low1_average_fps", ok, s->low1_average_fps);
	gs_jw_num_or_null(w, "low01_percentile_fps", ok, s->low01_percentile_fps);
	gs_jw_num_or_null(w, "low01_average_fps", ok, s->low01_average_fps);
	gs_jw_num_or_null(w, "min_fps", ok, s->min_fps);
	gs_jw_obj(w, "frametime_ms");
	gs_jw_num_or_null(w, "p50", ok, s->ft_p50);
	gs_jw_num_or_null(w, "p90", ok, s->ft_p90);
	gs_jw_num_or_null(w, "p99", ok, s->ft_p99);
	gs_jw_num_or_null(w, "p999", ok, s->ft_p999);
	gs_jw_num_or_null(w, "max", ok, s->ft_max);
	gs_jw_num_or_null(w, "mean", ok, s->ft_mean);
	gs_jw_num_or_null(w, "stddev", ok, s->ft_stddev);
	gs_jw_obj_end(w);
	gs_jw_num_or_null(w, "low1_integral_fps", ok, s->low1_integral_fps);
	gs_jw_num_or_null(w, "low01_integral_fps", ok, s->low01_integral_fps);
	gs_jw_num_or_null(w, "max_fps", ok, s->max_fps);
}
