// SPDX-License-Identifier: GPL-2.0-only
/* Following a MangoHud log while MangoHud writes it (watch.h): the rows
 * written since the last poll, read with the log's own header. */
#include "watch.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mangohud.h"
#include "util.h"

void ft_mangotail_init(struct ft_mangotail *mt, const char *where)
{
	memset(mt, 0, sizeof(*mt));
	mt->where = where;
	mt->start = time(NULL);
}

void ft_mangotail_free(struct ft_mangotail *mt)
{
	free(mt->header);
	mt->header = NULL;
}

/* A new log: its header is read again, from the start. */
static void restart(struct ft_mangotail *mt)
{
	free(mt->header);
	mt->header = NULL;
	mt->hdr[0] = '\0';
	mt->plen = 0;
}

/* The log to follow: --mangohud itself, or the newest .csv in it. */
static void pick(struct ft_mangotail *mt)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	time_t best = 0;

	if (stat(mt->where, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (strcmp(mt->path, mt->where)) {
			snprintf(mt->path, sizeof(mt->path), "%s", mt->where);
			/* a log that already exists: its header, then only what
			 * is written from now on */
			mt->off = 0;
			mt->skip = st.st_size;
		}
		return;
	}
	d = opendir(mt->where);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[4096];
		size_t n = strlen(de->d_name), dl = strlen(mt->where);

		if (n < 5 || strcmp(de->d_name + n - 4, ".csv") ||
		    dl + n + 2 > sizeof(p))
			continue;
		memcpy(p, mt->where, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, de->d_name, n + 1);
		if (!stat(p, &st) && st.st_mtime >= best) {
			best = st.st_mtime;
			if (strcmp(mt->path, p)) {
				snprintf(mt->path, sizeof(mt->path), "%s", p);
				mt->off = 0;
				mt->skip = st.st_mtime < mt->start ? st.st_size : 0;
				restart(mt);
			}
		}
	}
	closedir(d);
}

/* New rows, parsed behind the log's header as a log of their own. */
static void rows_read(struct ft_mangotail *mt, const char *rows, size_t len,
		      ft_mangotail_cb cb, void *ctx)
{
	char *buf;
	size_t hl = strlen(mt->header);
	struct gs_mh_log log;
	char err[256];
	FILE *f;
	uint64_t now = gs_now_ns();

	buf = malloc(hl + len + 1);
	if (!buf)
		return;
	memcpy(buf, mt->header, hl);
	memcpy(buf + hl, rows, len);
	buf[hl + len] = '\0';
	f = fmemopen(buf, hl + len, "r");
	if (f && !gs_mh_read(f, mt->path, &log, err, sizeof(err))) {
		for (size_t i = 0; i < log.n; i++)
			cb(ctx, now, (uint64_t)(log.frametime_ms[i] * 1e6));
		gs_mh_free(&log);
	}
	if (f)
		fclose(f);
	free(buf);
}

/* One whole line: part of the header until the frame header, then a row
 * (rows written before the watch started are skipped). */
static void line_read(struct ft_mangotail *mt, off_t end, char **rows,
		      size_t *nrows)
{
	if (!mt->header) {
		size_t hlen = strlen(mt->hdr);

		if (hlen + mt->plen < sizeof(mt->hdr)) {
			memcpy(mt->hdr + hlen, mt->partial, mt->plen + 1);
			if (!strncmp(mt->partial, "fps,", 4) ||
			    strstr(mt->partial, "frametime")) {
				mt->header = strdup(mt->hdr);
				mt->hdr[0] = '\0';
			}
		}
	} else if (end > mt->skip) {
		char *nr = realloc(*rows, *nrows + mt->plen + 1);

		if (nr) {
			*rows = nr;
			memcpy(*rows + *nrows, mt->partial, mt->plen);
			*nrows += mt->plen;
		}
	}
}

void ft_mangotail_poll(struct ft_mangotail *mt, ft_mangotail_cb cb, void *ctx)
{
	int fd;
	char buf[65536];
	ssize_t n;
	struct stat st;

	pick(mt);
	if (!mt->path[0])
		return;
	fd = open(mt->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	if (st.st_size < mt->off) { /* truncated: a new log */
		mt->off = 0;
		mt->skip = 0;
		restart(mt);
	}
	if (lseek(fd, mt->off, SEEK_SET) < 0) {
		close(fd);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *rows = NULL;
		size_t nrows = 0;
		off_t pos = mt->off;

		mt->off += n;
		for (ssize_t i = 0; i < n; i++) {
			if (mt->plen < sizeof(mt->partial) - 1)
				mt->partial[mt->plen++] = buf[i];
			if (buf[i] != '\n')
				continue;
			mt->partial[mt->plen] = '\0';
			line_read(mt, pos + i + 1, &rows, &nrows);
			mt->plen = 0;
		}
		if (rows && mt->header)
			rows_read(mt, rows, nrows, cb, ctx);
		free(rows);
	}
	close(fd);
}
