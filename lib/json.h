/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A streaming JSON writer (reports, --json outputs) and a small DOM reader
 * (the suite runner reads framebench's --json; tests read every tool's).
 */
#ifndef GS_JSON_H
#define GS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- writer -------------------------------------------------------- */

#define GS_JW_MAX_DEPTH 32

struct gs_jw {
	FILE *f;
	int depth;
	bool pretty;
	bool need_comma[GS_JW_MAX_DEPTH];
};

void gs_jw_init(struct gs_jw *w, FILE *f, bool pretty);
/* key is the member name inside an object, NULL inside an array or at the
 * top level. Non-finite numbers are written as null. */
void gs_jw_obj(struct gs_jw *w, const char *key);
void gs_jw_obj_end(struct gs_jw *w);
void gs_jw_arr(struct gs_jw *w, const char *key);
void gs_jw_arr_end(struct gs_jw *w);
void gs_jw_str(struct gs_jw *w, const char *key, const char *s);
void gs_jw_num(struct gs_jw *w, const char *key, double v);
void gs_jw_int(struct gs_jw *w, const char *key, int64_t v);
void gs_jw_uint(struct gs_jw *w, const char *key, uint64_t v);
void gs_jw_bool(struct gs_jw *w, const char *key, bool v);
void gs_jw_null(struct gs_jw *w, const char *key);
/* Ends the document with a newline. */
void gs_jw_done(struct gs_jw *w);

/* Writes s as a quoted JSON string (also safe inside an HTML <script>). */
void gs_json_write_string(FILE *f, const char *s);

/* ---- reader -------------------------------------------------------- */

enum gs_jtype { GS_JNULL, GS_JBOOL, GS_JNUM, GS_JSTR, GS_JARR, GS_JOBJ };

struct gs_jv {
	enum gs_jtype type;
	bool b;
	double num;
	char *str;		/* GS_JSTR */
	size_t len;		/* members of GS_JARR / GS_JOBJ */
	char **keys;		/* GS_JOBJ member names */
	struct gs_jv **items;	/* GS_JARR elements / GS_JOBJ values */
};

/*
 * Parses a whole document. On error returns NULL and writes
 * "line L, column C: what was expected" into err.
 */
struct gs_jv *gs_json_parse(const char *text, size_t len, char *err,
			    size_t errlen);
/* Reads and parses a file; errors are prefixed with the path. */
struct gs_jv *gs_json_parse_file(const char *path, char *err, size_t errlen);
void gs_json_free(struct gs_jv *v);

/* Member of an object (NULL if absent or v is not an object). */
const struct gs_jv *gs_json_get(const struct gs_jv *v, const char *key);
/* Follows a dotted path such as "frametime_ms.p99"; in an array a part
 * is an index from 0 ("background.0.work_per_s"). NULL if absent. */
const struct gs_jv *gs_json_path(const struct gs_jv *v, const char *path);
/* Number at a dotted path, or dflt when absent / not a number. */
double gs_json_num_at(const struct gs_jv *v, const char *path, double dflt);
/* String at a dotted path, or NULL. */
const char *gs_json_str_at(const struct gs_jv *v, const char *path);

/* key: v when ok, else null */
void gs_jw_num_or_null(struct gs_jw *w, const char *key, bool ok, double v);

struct gs_fps_summary;
/*
 * The frame-rate figures every tool writes, under fixed keys: avg_fps,
 * the 1 % and 0.1 % lows (percentile, average, integral), min_fps,
 * max_fps and frametime_ms {p50 p90 p99 p999 max mean stddev}; s NULL
 * writes every key as null (a run without frames).
 */
void gs_jw_fps_summary(struct gs_jw *w, const struct gs_fps_summary *s);

#endif
