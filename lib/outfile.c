// SPDX-License-Identifier: GPL-2.0-only
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

void gs_refuse_same_file(const char *in_opt, const char *in,
			 const char *out_opt, const char *out)
{
	char of[32] = "";

	if (!out || !strcmp(out, "-") || !gs_same_file(in, out))
		return;
	if (in_opt)
		snprintf(of, sizeof(of), " (%s)", in_opt);
	gs_die(EXIT_USAGE, "option %s: %s is the input %s%s: writing it would "
	       "overwrite the input (give another file)", out_opt, out, in, of);
}

/* Writes into f and closes it; returns 0 or -1 with errno set. */
static int write_close(FILE *f, gs_out_writer write, const void *ctx)
{
	int rc = write(f, ctx);
	int err = ferror(f) ? (errno ? errno : EIO) : 0;

	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (rc && !err)
		err = EIO;
	errno = err;
	return err ? -1 : 0;
}

/* A new file for what path could not take: beside it when its directory
 * takes files and path is a regular file (or none), else in $TMPDIR. */
static FILE *open_keeper(const char *path, char *kept, size_t keptlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *td = getenv("TMPDIR");
	struct stat st;
	int fd = -1;

	if (stat(path, &st) || S_ISREG(st.st_mode)) {
		snprintf(kept, keptlen, "%s.kept-XXXXXX", path);
		fd = mkstemp(kept);
	}
	if (fd < 0) {
		snprintf(kept, keptlen, "%s/%s.kept-XXXXXX", td && *td ? td : "/tmp",
			 *base ? base : "output");
		fd = mkstemp(kept);
	}
	if (fd < 0)
		return NULL;
	return fdopen(fd, "w");
}

int gs_write_output(const char *opt, const char *path, gs_out_writer write,
		    const void *ctx)
{
	char kept[4200];
	FILE *f = fopen(path, "w");
	int err;

	if (f && !write_close(f, write, ctx))
		return 0;
	err = errno;
	f = open_keeper(path, kept, sizeof(kept));
	if (f && !write_close(f, write, ctx)) {
		gs_warn("option %s: cannot write %s: %s; kept in %s instead", opt,
			path, strerror(err), kept);
		return 1;
	}
	if (f)
		unlink(kept);
	gs_warn("option %s: cannot write %s: %s (and no other file could take "
		"it: the output is lost)", opt, path, strerror(err));
	return -1;
}
