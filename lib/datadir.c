// SPDX-License-Identifier: GPL-2.0-only
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#ifndef GS_DATADIR
#define GS_DATADIR "/usr/local/share/gamesched"
#endif

const char gs_datadir[] = GS_DATADIR;

/* dir/name into out when readable (without "..": messages name the file
 * plainly); 0 when found. */
static int try_path(const char *dir, const char *name, char *out, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX];

	if (!dir || !*dir || !name || !*name)
		return -1;
	if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, name) >= sizeof(p) ||
	    access(p, R_OK))
		return -1;
	if (dir[0] == '/' && realpath(p, real))
		gs_strlcpy(p, real, sizeof(p));
	if (strlen(p) >= len)
		return -1;
	gs_strlcpy(out, p, len);
	return 0;
}

int gs_data_find(const char *rel, const char *src, char *out, size_t len)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n;

	if (!try_path(getenv("GAMESCHED_DATADIR"), rel, out, len))
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%s/..", exe);
			if (!try_path(dir, src, out, len))
				return 0;
			snprintf(dir, sizeof(dir), "%s/../..", exe);
			if (!try_path(dir, src, out, len))
				return 0;
			snprintf(dir, sizeof(dir), "%s/../share/gamesched", exe);
			if (!try_path(dir, rel, out, len))
				return 0;
		}
	}
	if (!try_path(gs_datadir, rel, out, len))
		return 0;
	return try_path(".", src, out, len);
}
