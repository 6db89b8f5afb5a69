// SPDX-License-Identifier: GPL-2.0-only
#include "kinfo.h"

#include <linux/capability.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

unsigned lavd_config_hz(const char *text)
{
	const char *p = text;

	while ((p = strstr(p, "CONFIG_HZ=")) != NULL) {
		/* a whole line, not CONFIG_HZ_250=y or a comment */
		if (p == text || p[-1] == '\n') {
			char *end;
			unsigned long v = strtoul(p + 10, &end, 10);

			if (end != p + 10 && (*end == '\n' || *end == '\0') &&
			    v > 0 && v <= 100000)
				return (unsigned)v;
		}
		p += 10;
	}
	return 0;
}

int lavd_parse_timer_list(const char *text, uint64_t *jiffies, uint64_t *now_ns)
{
	const char *j = strstr(text, "\njiffies: ");
	const char *n = strstr(text, "now at ");
	char *end;

	if (!j || !n)
		return -1;
	*jiffies = strtoull(j + 10, &end, 10);
	if (end == j + 10)
		return -1;
	*now_ns = strtoull(n + 7, &end, 10);
	if (end == n + 7 || strncmp(end, " nsecs", 6) != 0)
		return -1;
	return 0;
}

unsigned lavd_hz_round(double hz)
{
	static const unsigned known[] = { 100, 250, 300, 1000 };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (fabs(hz - known[i]) <= 0.1 * known[i])
			return known[i];
	return 0;
}

/* /proc/timer_list is long (one block per CPU): the head holds both. */
static int read_timer_list(uint64_t *j, uint64_t *now)
{
	char *buf;
	size_t n;
	int rc;

	if (gs_read_file("/proc/timer_list", 1 << 18, &buf, &n, NULL, 0))
		return -1;
	rc = lavd_parse_timer_list(buf, j, now);
	free(buf);
	return rc;
}

unsigned lavd_kernel_hz(char *src, size_t srclen)
{
	struct utsname u;
	char path[512], *cfg;
	size_t n;
	uint64_t j0, t0, j1, t1;
	struct timespec ts = { 0, 120 * 1000 * 1000 };
	unsigned hz = 0;

	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		if (!gs_read_file(path, 1 << 18, &cfg, &n, NULL, 0)) {
			hz = lavd_config_hz(cfg);
			free(cfg);
		}
		if (hz) {
			gs_strlcpy(src, "config", srclen);
			return hz;
		}
	}
	if (read_timer_list(&j0, &t0) == 0) {
		nanosleep(&ts, NULL);
		if (read_timer_list(&j1, &t1) == 0 && t1 > t0 && j1 > j0 &&
		    (hz = lavd_hz_round((double)(j1 - j0) * 1e9 / (double)(t1 - t0))) != 0) {
			gs_strlcpy(src, "timer_list", srclen);
			return hz;
		}
	}
	gs_strlcpy(src, "unknown", srclen);
	return 0;
}

double lavd_now_s(void)
{
	return (double)gs_now_ns() / 1e9;
}

/* Loading struct_ops needs both capabilities (root has them). */
void lavd_need_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { 0 };
	bool admin, bpf;

	if (syscall(SYS_capget, &hdr, data) != 0)
		return;	/* cannot tell: let the kernel decide */
	admin = data[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
	bpf = data[CAP_BPF / 32].effective & (1u << (CAP_BPF % 32));
	if (admin && bpf)
		return;
	gs_die(EXIT_RUNTIME,
	       "loading a scheduler needs root (CAP_SYS_ADMIN and CAP_BPF); "
	       "missing:%s%s (run with sudo)", admin ? "" : " CAP_SYS_ADMIN",
	       bpf ? "" : " CAP_BPF");
}
