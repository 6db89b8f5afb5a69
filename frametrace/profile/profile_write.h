/* SPDX-License-Identifier: GPL-2.0-only */
/* frametrace profile: the analysis (pipeline.h) as a framebench
 * profile, checked by framebench's parser and written atomically. */
#ifndef FT_PROFILE_WRITE_H
#define FT_PROFILE_WRITE_H

#include <stddef.h>

#include "pipeline.h"

/*
 * The profile text of a (malloc'ed into *text), named name, derived from
 * trace. Returns 0; -1 when framebench's parser rejects it (its message
 * in err); -2 out of memory.
 */
int ft_pr_profile_text(const struct ft_pr_analysis *a, const char *trace,
		    const char *name, char **text, size_t *len, char *err,
		    size_t errlen);

/* Writes path through a temporary file in its directory and a rename:
 * whole or not at all. 0, or -1 with "path: why" in err. */
int ft_pr_write_atomic(const char *path, const char *text, size_t len, char *err,
		    size_t errlen);

/* Some stage fans out: the pool of workers is written. */
bool ft_pr_pool_used(const struct ft_pr_analysis *a);

#endif
