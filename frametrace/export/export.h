/* SPDX-License-Identifier: GPL-2.0-only */
/* Perfetto export: ftrace text and the JSON form (export.c). */
#ifndef FT_EXPORT_H
#define FT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "trace/trace.h"

/* Comm for ftrace text: whitespace and control characters become '_',
 * an empty name "<...>". */
void ft_sanitize_comm(const char *in, char *out, size_t len);

int ft_export_ftrace(FILE *f, const struct ft_trace *t);
int ft_export_json(FILE *f, const struct ft_trace *t, size_t max_flows);

#endif
