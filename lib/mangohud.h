/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MangoHud CSV frame logs (docs/formats.md): a robust reader for both the
 * current layout (frametime in ms, 16 columns) and v0.6.8's (frametime in
 * us, 12 columns), and a writer of the current layout so every frame-time
 * tool that reads MangoHud logs reads ours.
 */
#ifndef GS_MANGOHUD_H
#define GS_MANGOHUD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct gs_mh_sysinfo {
	char os[128], cpu[128], gpu[128], ram[64], kernel[128], driver[128];
	char cpuscheduler[64]; /* MangoHud puts the cpufreq governor here */
};

enum gs_mh_unit { GS_MH_MS, GS_MH_US };

struct gs_mh_log {
	struct gs_mh_sysinfo sys;
	bool has_sysinfo;
	size_t columns;		/* columns of the frame header */
	size_t n;		/* rows */
	double *frametime_ms;	/* per row, converted to ms */
	uint64_t *elapsed_ns;	/* per row; all 0 when the column is absent */
	bool has_elapsed;
	enum gs_mh_unit unit;	/* unit the file used for frametime */
	/* true when rows are individual frames (log_interval=0); false when
	 * they are periodic samples, whose frame times cannot give lows */
	bool per_frame;
	size_t header_line;	/* 1-based line of "fps,frametime,..." */
	size_t *line;		/* per row: its 1-based line in the file */
	/* Rows that are no frame, left out of the arrays above: a frame time
	 * of 0 (MangoHud writes one when it had nothing to show) or over a
	 * minute (no game frame lasts that long: a damaged or misread log). */
	size_t unusable;
	size_t first_unusable_line;
	double first_unusable_ms;	/* NAN: none to show (a cut line) */
	/* why the first one is no frame ("over a minute, not a frame", ...):
	 * a row whose elapsed time is damaged (no number, or out of order
	 * with the rows around it) is one such row, not a reason to take
	 * the whole log for periodic samples */
	const char *first_unusable_why;
};

/* Longest frame time a row may hold, in ms (see unusable). */
/* An elapsed field that is no number: the row is left out (unusable). */
#define GS_MH_ELAPSED_DAMAGED UINT64_MAX
#define GS_MH_MAX_FRAME_MS 60000.0

/*
 * Reads a MangoHud log: the one reader, with one set of rules, of every
 * tool. Rows that are no frame are counted in unusable and left out; a
 * log with no usable row is an error. On error returns -1 and writes
 * "<path>:<line>: what was wrong" into err; log is then empty.
 */
int gs_mh_read(FILE *f, const char *path, struct gs_mh_log *log, char *err,
	       size_t errlen);
/* The first unusable row in words: "frame time 0 ms: a row that is no
 * frame", or why alone where the row has no frame time to show. */
const char *gs_mh_unusable_desc(const struct gs_mh_log *log, char *buf,
				size_t len);
int gs_mh_read_path(const char *path, struct gs_mh_log *log, char *err,
		    size_t errlen);
void gs_mh_free(struct gs_mh_log *log);

/* The current layout's frame header, for writers and tests. */
extern const char gs_mh_frame_header[];

/* System info block plus the frame header. */
void gs_mh_write_header(FILE *f, const struct gs_mh_sysinfo *sys);
/* One frame row: fps derived from the frame time; fields we do not
 * measure (GPU, temperatures, power) are written as 0. */
void gs_mh_write_frame(FILE *f, double frametime_ms, double cpu_load,
		       uint64_t elapsed_ns);

#endif
