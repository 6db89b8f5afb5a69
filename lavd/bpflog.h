/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What libbpf says while lavd loads: kept (its tail is the verifier log,
 * printed when the kernel refuses the program) and shown with -v.
 */
#ifndef LAVD_BPFLOG_H
#define LAVD_BPFLOG_H

#include <stdbool.h>

/* Routes libbpf's messages here; verbose also copies them to stderr. */
void lavd_bpflog_init(bool verbose);

/* Forgets what was kept (before each load attempt). */
void lavd_bpflog_clear(void);

/* The text kept so far ("" when none). */
const char *lavd_bpflog_text(void);

/* The last max_lines lines of the text on stderr, between markers. */
void lavd_bpflog_print_tail(int max_lines);

void lavd_bpflog_free(void);

#endif
