// SPDX-License-Identifier: GPL-2.0-only
#include "machine.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"
#include "util.h"

void gsu_cpustat_read(const char *path, struct gsu_cpustat *s)
{
	struct gs_cputimes all;

	memset(s, 0, sizeof(*s));
	if (gs_cputimes_read(path, &all, NULL, 0) < 0)
		return;
	s->steal = all.steal;
	s->busy = all.busy;
	s->total = all.total;
	s->ok = 1;
}

double gsu_cpustat_busy(const struct gsu_cpustat *a,
			const struct gsu_cpustat *b)
{
	if (!a->ok || !b->ok || b->total <= a->total)
		return NAN;
	return (double)(b->busy - a->busy) / (double)(b->total - a->total);
}

double gsu_other_cpu(const struct gsu_cpustat *a, const struct gsu_cpustat *b,
		     double own_cpu_s)
{
	long hz = sysconf(_SC_CLK_TCK);
	double busy, other;

	if (!a->ok || !b->ok || b->total <= a->total || hz <= 0)
		return NAN;
	busy = (double)(b->busy - a->busy);
	other = (busy - own_cpu_s * (double)hz) / (double)(b->total - a->total);
	return other < 0 ? 0 : other > 1 ? 1 : other;
}

double gsu_loadavg1(void)
{
	char buf[128];
	double v;

	if (gs_read_text("/proc/loadavg", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%lf", &v) != 1)
		return NAN;
	return v;
}

double gsu_probe_ms(void)
{
	/* a dependent chain the compiler cannot fold: ~20 ms on 2020s cores */
	volatile uint64_t sink;
	uint64_t x = 0x9e3779b97f4a7c15ULL, t0 = gs_now_ns();

	for (uint32_t i = 0; i < 20000000u; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + i;
	sink = x;
	(void)sink;
	return (double)(gs_now_ns() - t0) / 1e6;
}
