// SPDX-License-Identifier: GPL-2.0-only
#include "bpflog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#define LOG_KEEP (256 * 1024)

static char *log_text;
static size_t log_len;
static bool log_verbose;

static int on_libbpf_message(enum libbpf_print_level level, const char *fmt,
			     va_list ap)
{
	char *msg = NULL, *line;
	int n;

	/* one message can be the whole verifier log: no fixed buffer */
	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		return 0;
	line = msg;
	if ((size_t)n > LOG_KEEP) {
		line += (size_t)n - LOG_KEEP;
		n = LOG_KEEP;
	}
	if (log_verbose && level != LIBBPF_DEBUG)
		fputs(msg, stderr);
	if (!log_text)
		log_text = calloc(1, LOG_KEEP + 1);
	if (!log_text) {
		free(msg);
		return 0;
	}
	if (log_len + (size_t)n > LOG_KEEP) {
		/* drop the oldest text: the tail is what matters */
		size_t keep = LOG_KEEP - (size_t)n;

		if (keep > log_len)
			keep = log_len;

		memmove(log_text, log_text + log_len - keep, keep);
		log_len = keep;
	}
	memcpy(log_text + log_len, line, (size_t)n);
	log_len += (size_t)n;
	log_text[log_len] = '\0';
	free(msg);
	return 0;
}

void lavd_bpflog_init(bool verbose)
{
	log_verbose = verbose;
	libbpf_set_print(on_libbpf_message);
}

void lavd_bpflog_clear(void)
{
	log_len = 0;
}

const char *lavd_bpflog_text(void)
{
	return log_text ? log_text : "";
}

void lavd_bpflog_print_tail(int max_lines)
{
	const char *p;
	int lines = 0;

	if (!log_text || !log_len) {
		fprintf(stderr, "  (libbpf said nothing; run with -v)\n");
		return;
	}
	p = log_text + log_len;
	while (p > log_text) {
		p--;
		if (*p == '\n' && p != log_text + log_len - 1 && ++lines >= max_lines) {
			p++;
			break;
		}
	}
	fprintf(stderr, "---- last %d lines of the libbpf/verifier log ----\n%s",
		max_lines, p);
	if (log_text[log_len - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "---- end of log ----\n");
}

void lavd_bpflog_free(void)
{
	free(log_text);
	log_text = NULL;
	log_len = 0;
}
