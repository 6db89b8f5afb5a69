// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *gs_prog = "gamesched";

uint64_t gs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void gs_set_prog(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		gs_prog = slash ? slash + 1 : argv0;
}

void gs_fput_escaped(const char *s, FILE *f)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			fputs("\\ufeff", f); /* a BOM, invisible on a terminal */
			p += 2;
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if ((*p < 0x20 && *p != '\n') || *p == 0x7f) {
			fprintf(f, "\\x%02x", *p);
		} else {
			fputc(*p, f);
		}
	}
}

static void vwarn(const char *fmt, va_list ap)
{
	char msg[8192];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: ", gs_prog);
	gs_fput_escaped(msg, stderr);
	fputc('\n', stderr);
}

void gs_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void gs_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

/*
 * Numbers people write are decimal digits, with a '-' only where a
 * negative value is allowed: strtoull/strtod would also take leading
 * spaces or tabs, a '+', "0x10" (16), "inf" and "nan", so " 60" was
 * refused while "\t60" and "+60" passed. Whether s starts a number.
 */
static bool decimal_start(const char *s, bool negative, bool dot)
{
	if (negative && *s == '-')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return false;
	return (*s >= '0' && *s <= '9') || (dot && *s == '.');
}

int gs_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !decimal_start(s, false, false))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gs_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !decimal_start(s, min < 0, false))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gs_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !decimal_start(s, min < 0, true))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gs_parse_duration_ns(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {
		{ "ns", 1 },	       { "us", 1e3 },	 { "ms", 1e6 },
		{ "s", 1e9 },	       { "m", 60e9 },	 { "min", 60e9 },
		{ "h", 3600e9 },
	};
	char *end;
	double v, mult = (double)default_unit_ns;

	if (!s || !decimal_start(s, false, true))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (*end) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (!strcmp(end, units[i].suffix))
				break;
		if (i == ARRAY_SIZE(units))
			return -1;
		mult = units[i].ns;
	}
	if (v * mult > 1.8e19)
		return -1;
	*out = (uint64_t)llround(v * mult);
	return 0;
}

uint64_t gs_opt_u64(const char *opt, const char *arg, uint64_t min,
		    uint64_t max)
{
	uint64_t v;

	if (gs_parse_u64(arg, min, max, &v))
		gs_die(EXIT_USAGE,
		       "option %s: expected an integer in [%" PRIu64
		       ", %" PRIu64 "], got '%s'",
		       opt, min, max, arg ? arg : "");
	return v;
}

int64_t gs_opt_i64(const char *opt, const char *arg, int64_t min, int64_t max)
{
	int64_t v;

	if (gs_parse_i64(arg, min, max, &v))
		gs_die(EXIT_USAGE,
		       "option %s: expected an integer in [%" PRId64
		       ", %" PRId64 "], got '%s'",
		       opt, min, max, arg ? arg : "");
	return v;
}

double gs_opt_double(const char *opt, const char *arg, double min, double max)
{
	double v;

	if (gs_parse_double(arg, min, max, &v))
		gs_die(EXIT_USAGE,
		       "option %s: expected a number in [%g, %g], got '%s'",
		       opt, min, max, arg ? arg : "");
	return v;
}

uint64_t gs_opt_duration_ns(const char *opt, const char *arg,
			    uint64_t default_unit_ns, uint64_t min_ns,
			    uint64_t max_ns)
{
	uint64_t v;

	if (gs_parse_duration_ns(arg, default_unit_ns, &v) || v < min_ns ||
	    v > max_ns)
		gs_die(EXIT_USAGE,
		       "option %s: expected a duration (e.g. 500us, 20ms, 10s) "
		       "in [%.3f ms, %.3f s], got '%s'",
		       opt, min_ns / 1e6, max_ns / 1e9, arg ? arg : "");
	return v;
}

void gs_die_bad_option(int c, char *const argv[])
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool is_long = !strncmp(word, "--", 2);
	int namelen = (int)strcspn(word, "=");

	/* a long option given a value it does not take: getopt names it in
	 * optopt; an unknown one leaves optopt 0 */
	if (c == '?' && is_long && optopt && word[namelen] == '=')
		gs_die(EXIT_USAGE, "option '%.*s' takes no value (see --help)",
		       namelen, word);
	if (c == ':') {
		if (is_long)
			gs_die(EXIT_USAGE, "option '%.*s' needs a value (see "
			       "--help)", namelen, word);
		gs_die(EXIT_USAGE, "option '-%c' needs a value (see --help)",
		       optopt);
	}
	if (is_long && !optopt)
		gs_die(EXIT_USAGE, "unknown option '%.*s' (see --help)", namelen,
		       word);
	gs_die(EXIT_USAGE, "unknown option '-%c' (see --help)", optopt);
}

void gs_die_extra_argument(const char *arg)
{
	gs_die(EXIT_USAGE, "unexpected argument '%s' (see --help)", arg);
}

bool gs_operands(int argc, char **argv, int n)
{
	if (optind < argc - n)
		gs_die_extra_argument(argv[optind + n]);
	return optind == argc - n;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void gs_remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int gs_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (int)n;
}

static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : "not a plain file";
}

int gs_open_regular(const char *path, char *why, size_t whylen)
{
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), fl;
	struct stat st;

	if (fd < 0)
		goto fail;
	if (fstat(fd, &st))
		goto fail_close;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (why && whylen)
			snprintf(why, whylen, "not a regular file (%s)",
				 file_kind(st.st_mode));
		errno = EINVAL;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		goto fail_close;
	return fd;
fail_close:
	fl = errno;
	close(fd);
	errno = fl;
fail:
	if (why && whylen)
		snprintf(why, whylen, "%s", strerror(errno));
	return -1;
}

FILE *gs_fopen_regular(const char *path, char *why, size_t whylen)
{
	int fd = gs_open_regular(path, why, whylen), saved;
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		saved = errno;
		close(fd);
		errno = saved;
		if (why && whylen)
			snprintf(why, whylen, "%s", strerror(saved));
	}
	return f;
}

int gs_check_output(const char *path, char *why, size_t whylen)
{
	char dir[4096], dshort[81];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!*path) {
		snprintf(why, whylen, "an empty file name");
		return -1;
	}
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, whylen, "%s: is a directory",
				 GS_SHORT_PATH(path));
			return -1;
		}
		if (access(path, W_OK)) {
			snprintf(why, whylen, "%s: cannot write: %s",
				 GS_SHORT_PATH(path), strerror(errno));
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		snprintf(why, whylen, "%s: %s", GS_SHORT_PATH(path),
			 strerror(errno));
		return -1;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
			 (int)(slash - path), path);
	if (access(dir, W_OK | X_OK)) {
		snprintf(why, whylen, "%s: cannot create it in %s: %s",
			 GS_SHORT_PATH(path), gs_short_path(dir, dshort, sizeof(dshort)),
			 strerror(errno));
		return -1;
	}
	return 0;
}

bool gs_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!stat(b, &sb))
		return !stat(a, &sa) && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	return !strcmp(a, b);
}

int gs_read_file(const char *path, size_t max, char **buf, size_t *len,
		 char *err, size_t errlen)
{
	char why[128];
	int fd = gs_open_regular(path, why, sizeof(why)), saved;
	size_t n = 0, cap = 4096, limit = max ? max : SIZE_MAX - 1;
	struct stat st;
	char *b = NULL;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		goto fail;
	/* a regular file's size (+1 to see the end) saves regrowing; procfs
	 * files say 0 */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < limit)
		cap = (size_t)st.st_size + 1;
	if (cap > limit)
		cap = limit;
	if (!(b = malloc(cap + 1)))
		goto oom;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			size_t nc = cap > limit / 2 ? limit : cap * 2;
			char *nb;

			if (cap == limit)
				break;
			if (!(nb = realloc(b, nc + 1)))
				goto oom;
			b = nb;
			cap = nc;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
oom:
	errno = ENOMEM;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	free(b);
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", GS_SHORT_PATH(path),
			 fd < 0 ? why : strerror(saved));
	errno = saved;
	return -1;
}

int gs_nul_line(const char *buf, size_t n)
{
	const char *z = memchr(buf, '\0', n);
	int line = 1;

	if (!z)
		return 0;
	for (const char *q = buf; q < z; q++)
		line += *q == '\n';
	return line;
}

bool gs_strip_suffix(char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	if (n < k || strcmp(s + n - k, suffix))
		return false;
	s[n - k] = '\0';
	return true;
}

void gs_strlcpy(char *dst, const char *src, size_t dstlen)
{
	size_t n = strlen(src);

	if (!dstlen)
		return;
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *gs_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

const char *gs_short_path(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path), head, tail;

	if (n < len && n <= GS_SHORT_PATH_MAX)
		return path;
	/* the start says where, the end names the file: the middle goes */
	if (len > GS_SHORT_PATH_MAX + 1)
		len = GS_SHORT_PATH_MAX + 1;
	head = (len - 4) / 3;
	tail = len - 4 - head;
	snprintf(buf, len, "%.*s...%s", (int)head, path, path + n - tail);
	return buf;
}

int gs_err_at(char *err, size_t errlen, const char *file, int line,
	      const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", GS_SHORT_PATH(file), line, msg);
	else	/* no line to name: the file as a whole */
		snprintf(err, errlen, "%s: %s", GS_SHORT_PATH(file), msg);
	return -1;
}
