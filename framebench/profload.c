// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a profile comes from: a file, a shipped name (embedded, builtin.c)
 * or profiles/NAME.profile in the data directory (lib/datadir.h). The
 * text itself is parsed by profile.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "fbprofile.h"
#include "util.h"

int fb_profile_load_file(const char *path, struct fb_profile *p, char *err,
			 size_t errlen)
{
	const size_t max = 1 << 16;
	char e[1000];
	char *buf;
	size_t n;
	int rc;

	if (gs_read_file(path, max, &buf, &n, e, sizeof(e))) {
		snprintf(err, errlen, "cannot open profile %s", e);
		return -1;
	}
	if (n == max) {
		snprintf(err, errlen, "%s: expected a profile smaller than 64 KiB",
			 path);
		free(buf);
		return -1;
	}
	rc = fb_profile_parse(buf, n, path, p, err, errlen);
	free(buf);
	return rc;
}

int fb_profile_resolve(const char *arg, struct fb_profile *p, char *err,
		       size_t errlen)
{
	char source[96];

	for (size_t i = 0; i < fb_nbuiltins; i++) {
		if (strcmp(arg, fb_builtins[i].name))
			continue;
		snprintf(source, sizeof(source),
			 "framebench/profiles/%s.profile", arg);
		return fb_profile_parse(fb_builtins[i].text,
					strlen(fb_builtins[i].text),
					source, p, err, errlen);
	}
	if (strchr(arg, '/') || strstr(arg, ".profile"))
		return fb_profile_load_file(arg, p, err, errlen);
	/* a name that is not built in: profiles/NAME.profile in the data
	 * directory (lib/datadir.h), e.g. one added to an install */
	if (strlen(arg) < 64) {
		char rel[96], src[128], path[4096];

		snprintf(rel, sizeof(rel), "profiles/%s.profile", arg);
		snprintf(src, sizeof(src), "framebench/profiles/%s.profile", arg);
		if (!gs_data_find(rel, src, path, sizeof(path)))
			return fb_profile_load_file(path, p, err, errlen);
	}
	{
		size_t off = (size_t)snprintf(
			err, errlen, "unknown profile '%s': expected one of", arg);

		for (size_t i = 0; i < fb_nbuiltins && off < errlen; i++)
			off += (size_t)snprintf(err + off, errlen - off, "%s %s",
						i ? "," : "",
						fb_builtins[i].name);
		if (off < errlen)
			snprintf(err + off, errlen - off,
				 ", or a path to a .profile file");
	}
	return -1;
}
