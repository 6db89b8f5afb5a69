// SPDX-License-Identifier: GPL-2.0-only
#include "mangohud.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

const char gs_mh_frame_header[] =
	"fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,"
	"gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,"
	"swap_used,process_rss,cpu_mhz,elapsed";

#define MAX_COLS 64

static int errf(char *err, size_t errlen, const char *path, size_t line,
		const char *fmt, ...)
{
	int n;
	va_list ap;

	if (line)
		n = snprintf(err, errlen, "%s:%zu: ", path, line);
	else
		n = snprintf(err, errlen, "%s: ", path);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Splits a CSV line in place on commas (MangoHud never quotes fields). */
static size_t split_csv(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n < max)
			fields[n] = gs_trim(p);
		n++;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

static int col_index(char **names, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return (int)i;
	return -1;
}

static void copy_sysinfo(struct gs_mh_sysinfo *sys, char **names,
			 char **vals, size_t n)
{
	struct {
		const char *name;
		char *dst;
		size_t len;
	} map[] = {
		{ "os", sys->os, sizeof(sys->os) },
		{ "cpu", sys->cpu, sizeof(sys->cpu) },
		{ "gpu", sys->gpu, sizeof(sys->gpu) },
		{ "ram", sys->ram, sizeof(sys->ram) },
		{ "kernel", sys->kernel, sizeof(sys->kernel) },
		{ "driver", sys->driver, sizeof(sys->driver) },
		{ "cpuscheduler", sys->cpuscheduler, sizeof(sys->cpuscheduler) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		int c = col_index(names, n, map[i].name);

		if (c >= 0)
			gs_strlcpy(map[i].dst, vals[c], map[i].len);
	}
}

static int push_row(struct gs_mh_log *log, size_t *cap, double ft,
		    uint64_t el, size_t line)
{
	if (log->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4096;
		double *nf = realloc(log->frametime_ms, nc * sizeof(*nf));
		uint64_t *ne;
		size_t *nl;

		if (!nf)
			return -1;
		log->frametime_ms = nf;
		ne = realloc(log->elapsed_ns, nc * sizeof(*ne));
		if (!ne)
			return -1;
		log->elapsed_ns = ne;
		nl = realloc(log->line, nc * sizeof(*nl));
		if (!nl)
			return -1;
		log->line = nl;
		*cap = nc;
	}
	log->frametime_ms[log->n] = ft;
	log->elapsed_ns[log->n] = el;
	log->line[log->n] = line;
	log->n++;
	return 0;
}

/* Decimal only, as every number the tools read (lib/util.h). */
static int parse_num_field(const char *s, double *out)
{
	return gs_parse_double(s, -DBL_MAX, DBL_MAX, out);
}

/*
 * Whether row i's elapsed time is damaged: no number, or out of the order
 * of its neighbours while they are in order (a stray 0 or a huge value
 * between two sane rows). A row next to a damaged one is not blamed: its
 * neighbours are not in order.
 */
static bool elapsed_damaged(const struct gs_mh_log *log, size_t i)
{
	const uint64_t *el = log->elapsed_ns, bad = GS_MH_ELAPSED_DAMAGED;
	size_t n = log->n, a, b;

	if (!log->has_elapsed)
		return false;
	if (el[i] == bad)
		return true;
	if (n < 3)
		return false;
	/* the two rows it is judged against: both sides, or the two
	 * beside it at either end */
	a = i == 0 ? 1 : i == n - 1 ? n - 3 : i - 1;
	b = i == 0 ? 2 : i == n - 1 ? n - 2 : i + 1;
	if (el[a] == bad || el[b] == bad || el[a] > el[b])
		return false;
	if (i == 0)
		return el[i] > el[a];
	if (i == n - 1)
		return el[i] < el[b];
	return el[i] < el[a] || el[i] > el[b];
}

/* Row i, left out: counted, and the first one named with why. */
static void leave_out(struct gs_mh_log *log, size_t i, const char *why)
{
	if (!log->unusable++) {
		log->first_unusable_line = log->line[i];
		log->first_unusable_ms = log->frametime_ms[i];
		log->first_unusable_why = why;
	}
}

/*
 * Leaves out the rows that are no frame (see unusable in mangohud.h) and
 * decides per-frame vs sampled from the rows kept: per-frame rows' frame
 * times add up to the elapsed steps between kept rows (a row left out
 * takes its steps with it, so neither a 0 ms row nor a damaged one makes
 * a per-frame log look sampled).
 */
static void keep_frames(struct gs_mh_log *log)
{
	double sum = 0, span = 0;
	size_t k = 0, prev = SIZE_MAX, n = log->n;
	bool *damaged = calloc(n ? n : 1, sizeof(*damaged));

	for (size_t i = 0; damaged && i < n; i++)
		damaged[i] = elapsed_damaged(log, i);
	for (size_t i = 0; i < n; i++) {
		double ft = log->frametime_ms[i];

		if (damaged && damaged[i]) {
			leave_out(log, i, log->elapsed_ns[i] == GS_MH_ELAPSED_DAMAGED ?
				  "its elapsed time is no number" :
				  "its elapsed time is out of order with the rows around it");
			continue;
		}
		if (!(ft >= GS_MIN_FRAME_MS) || ft > GS_MH_MAX_FRAME_MS) {
			leave_out(log, i, ft > GS_MH_MAX_FRAME_MS ?
				  "over a minute, not a frame" : ft > 0 ?
				  "under 0.01 ms (100 000 FPS), not a frame" :
				  "a row that is no frame");
			continue;
		}
		if (i > 0 && prev == i - 1 &&
		    log->elapsed_ns[i] >= log->elapsed_ns[prev]) {
			sum += ft;
			span += (double)(log->elapsed_ns[i] -
					 log->elapsed_ns[prev]) / 1e6;
		}
		prev = i;
		log->frametime_ms[k] = ft;
		log->elapsed_ns[k] = log->elapsed_ns[i];
		log->line[k] = log->line[i];
		k++;
	}
	free(damaged);
	log->n = k;
	if (log->has_elapsed && k >= 3 && span > 0 &&
	    fabs(sum / span - 1.0) > 0.25)
		log->per_frame = false;
}

/* Decides ms vs us from the data itself, then keeps the frames. */
static void classify(struct gs_mh_log *log, const double *fps_col,
		     bool has_fps)
{
	size_t n = log->n;
	double *tmp = malloc(n * sizeof(*tmp));
	double med;

	log->unit = GS_MH_MS;
	log->per_frame = true;
	if (!tmp || !n) {
		free(tmp);
		return;
	}
	/* fps x frametime is ~1000 for ms and ~1e6 for us */
	for (size_t i = 0; i < n; i++)
		tmp[i] = has_fps ? fps_col[i] * log->frametime_ms[i]
				 : log->frametime_ms[i];
	gs_sort_doubles(tmp, n);
	med = gs_pct_linear(tmp, n, 50);
	if (has_fps)
		log->unit = med > 31622.8 ? GS_MH_US : GS_MH_MS; /* sqrt(1e3*1e6) */
	else
		log->unit = med > 500.0 ? GS_MH_US : GS_MH_MS;
	free(tmp);
	if (log->unit == GS_MH_US)
		for (size_t i = 0; i < n; i++)
			log->frametime_ms[i] /= 1000.0;
	keep_frames(log);
}

/* The frame header's shape: its column count and where the columns we
 * read are (-1 absent). */
struct mh_cols {
	size_t n;
	int ft, fps, el;
};

/* One frame row: 0, -1 with err said, -2 out of memory. */
static int read_row(struct gs_mh_log *log, char *l, const struct mh_cols *c,
		    size_t *cap, double **fps_col, size_t *fps_cap,
		    const char *path, size_t lineno, char *err, size_t errlen)
{
	char *fields[MAX_COLS];
	size_t nf = split_csv(l, fields, MAX_COLS);
	double ft, fps = 0, el = 0;

	if (nf != c->n) {
		errf(err, errlen, path, lineno,
		     "expected %zu comma-separated fields as in "
		     "the header on line %zu, got %zu",
		     c->n, log->header_line, nf);
		return -1;
	}
	if (parse_num_field(fields[c->ft], &ft) || ft < 0) {
		errf(err, errlen, path, lineno,
		     "column 'frametime': expected a "
		     "non-negative number, got '%s'",
		     fields[c->ft]);
		return -1;
	}
	if (c->fps >= 0 && parse_num_field(fields[c->fps], &fps)) {
		errf(err, errlen, path, lineno,
		     "column 'fps': expected a number, got '%s'",
		     fields[c->fps]);
		return -1;
	}
	/* a damaged elapsed field damages its row, not the log */
	if (c->el >= 0 && (parse_num_field(fields[c->el], &el) || !(el >= 0) ||
			   el >= 1e19))
		el = -1;
	if (push_row(log, cap, ft, el < 0 ? GS_MH_ELAPSED_DAMAGED : (uint64_t)el,
		     lineno))
		return -2;
	if (c->fps >= 0) {
		if (log->n > *fps_cap) {
			double *nf2;

			*fps_cap = *cap;
			nf2 = realloc(*fps_col,
				      *fps_cap * sizeof(*nf2));
			if (!nf2)
				return -2;
			*fps_col = nf2;
		}
		(*fps_col)[log->n - 1] = fps;
	}
	return 0;
}

const char *gs_mh_unusable_desc(const struct gs_mh_log *log, char *buf,
				size_t len)
{
	if (isnan(log->first_unusable_ms))
		snprintf(buf, len, "%s", log->first_unusable_why);
	else
		snprintf(buf, len, "frame time %.6g ms: %s",
			 log->first_unusable_ms, log->first_unusable_why);
	return buf;
}

/* The frame header "fps,frametime,...,elapsed" (hdr, split in place):
 * where the columns read are. 0, or -1 with err said. */
static int frame_header(struct gs_mh_log *log, char *hdr, size_t lineno,
			struct mh_cols *c, const char *path, char *err,
			size_t errlen)
{
	char *names[MAX_COLS];
	size_t n = split_csv(hdr, names, MAX_COLS);

	if (n > MAX_COLS)
		return errf(err, errlen, path, lineno, "frame header has %zu "
			    "columns, at most %d supported", n, MAX_COLS);
	log->columns = n;
	log->header_line = lineno;
	c->n = n;
	c->ft = col_index(names, n, "frametime");
	c->fps = col_index(names, n, "fps");
	c->el = col_index(names, n, "elapsed");
	if (c->ft < 0)
		return errf(err, errlen, path, lineno,
			    "frame header has no 'frametime' column");
	log->has_elapsed = c->el >= 0;
	return 0;
}

/* After the last row: the unit, the rows that are no frame (cut_line: a
 * last line without a newline, left unread), a log with none usable. */
static int finish_rows(struct gs_mh_log *log, const double *fps_col,
		       bool has_fps, size_t cut_line, const char *path,
		       char *err, size_t errlen)
{
	char desc[200];

	if (!log->n && !cut_line)
		return errf(err, errlen, path, log->header_line,
			    "frame header but no frame rows");
	classify(log, fps_col, has_fps);
	if (cut_line && !log->unusable++) {
		log->first_unusable_line = cut_line;
		log->first_unusable_ms = NAN;
		log->first_unusable_why = "the last line has no newline (the "
					  "file was cut mid-line?)";
	}
	if (!log->n)
		return errf(err, errlen, path, 0, "no usable frame (%zu rows "
			    "skipped; first: %s:%zu: %s)", log->unusable, path,
			    log->first_unusable_line,
			    gs_mh_unusable_desc(log, desc, sizeof(desc)));
	return 0;
}

int gs_mh_read(FILE *f, const char *path, struct gs_mh_log *log, char *err,
	       size_t errlen)
{
	char *line = NULL, *hdr_copy = NULL, *sys_names_copy = NULL;
	char *fields[MAX_COLS], *sys_names[MAX_COLS];
	size_t linecap = 0, lineno = 0, ncols = 0, nsys = 0, cap = 0;
	size_t fps_cap = 0, cut_line = 0;
	double *fps_col = NULL;
	struct mh_cols c = { 0, -1, -1, -1 };
	int rc = -1;
	bool expect_sysvals = false;
	ssize_t len;

	memset(log, 0, sizeof(*log));
	while ((len = getline(&line, &linecap, f)) >= 0) {
		char *l;

		lineno++;
		if ((size_t)len != strlen(line)) {
			errf(err, errlen, path, lineno, "NUL byte in line");
			goto out;
		}
		if (ncols && line[len - 1] != '\n') {
			/* the file ends mid-line (cut): its last value may be
			 * cut too (16.6 read as 16), so the row is no frame */
			cut_line = lineno;
			break;
		}
		l = gs_trim(line);
		if (!ncols) {
			/* preamble: versioning lines, system info */
			if (expect_sysvals) {
				size_t nv = split_csv(l, fields, MAX_COLS);

				copy_sysinfo(&log->sys, sys_names, fields,
					     nv < nsys ? nv : nsys);
				log->has_sysinfo = true;
				expect_sysvals = false;
				continue;
			}
			if (!strncmp(l, "os,", 3)) {
				free(sys_names_copy);
				sys_names_copy = strdup(l);
				if (!sys_names_copy)
					goto oom;
				nsys = split_csv(sys_names_copy, sys_names,
						 MAX_COLS);
				if (nsys > MAX_COLS)
					nsys = MAX_COLS;
				expect_sysvals = true;
				continue;
			}
			if (strncmp(l, "fps,", 4) && strncmp(l, "frametime", 9))
				continue;
			hdr_copy = strdup(l);
			if (!hdr_copy)
				goto oom;
			if (frame_header(log, hdr_copy, lineno, &c, path, err,
					 errlen))
				goto out;
			ncols = c.n;
			continue;
		}
		if (!*l)
			continue;
		{
			int r = read_row(log, l, &c, &cap, &fps_col, &fps_cap, path,
					 lineno, err, errlen);

			if (r == -2)
				goto oom;
			if (r)
				goto out;
		}
	}
	if (ferror(f)) {
		errf(err, errlen, path, 0, "read error: %s", strerror(errno));
		goto out;
	}
	if (!ncols) {
		errf(err, errlen, path, lineno ? lineno : 0,
		     "no MangoHud frame header ('fps,frametime,...') found");
		goto out;
	}
	rc = finish_rows(log, fps_col, c.fps >= 0, cut_line, path, err, errlen);
	goto out;
oom:
	errf(err, errlen, path, lineno, "out of memory");
out:
	free(line);
	free(hdr_copy);
	free(sys_names_copy);
	free(fps_col);
	if (rc)
		gs_mh_free(log);
	return rc;
}

int gs_mh_read_path(const char *path, struct gs_mh_log *log, char *err,
		    size_t errlen)
{
	char why[128];
	FILE *f = gs_fopen_regular(path, why, sizeof(why));
	int rc;

	if (!f) {
		memset(log, 0, sizeof(*log));
		return errf(err, errlen, path, 0, "%s", why);
	}
	rc = gs_mh_read(f, path, log, err, errlen);
	fclose(f);
	return rc;
}

void gs_mh_free(struct gs_mh_log *log)
{
	free(log->frametime_ms);
	free(log->elapsed_ns);
	free(log->line);
	log->frametime_ms = NULL;
	log->elapsed_ns = NULL;
	log->line = NULL;
	log->n = 0;
}

/* MangoHud's fields are comma-separated and unquoted: keep commas out. */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ',' || *s == '\n' ? ' ' : *s, f);
}

void gs_mh_write_header(FILE *f, const struct gs_mh_sysinfo *sys)
{
	const char *vals[] = { sys->os,	    sys->cpu,	 sys->gpu,
			       sys->ram,    sys->kernel, sys->driver,
			       sys->cpuscheduler };

	fputs("os,cpu,gpu,ram,kernel,driver,cpuscheduler\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		if (i)
			fputc(',', f);
		put_field(f, vals[i]);
	}
	fputc('\n', f);
	fputs(gs_mh_frame_header, f);
	fputc('\n', f);
}

void gs_mh_write_frame(FILE *f, double frametime_ms, double cpu_load,
		       uint64_t elapsed_ns)
{
	double fps = frametime_ms > 0 ? 1000.0 / frametime_ms : 0;

	fprintf(f, "%.3f,%.6f,%.1f,0,0,0,0,0,0,0,0,0,0,0,0,%llu\n", fps,
		frametime_ms, cpu_load, (unsigned long long)elapsed_ns);
}
