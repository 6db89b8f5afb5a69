// SPDX-License-Identifier: GPL-2.0-only
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util.h"

#define SCX_DIR "/sys/kernel/sched_ext"

static void read_cpu_model(char *dst, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	dst[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, "model name", 10)) {
			gs_strlcpy(dst, gs_trim(colon + 1), len);
			break;
		}
	}
	fclose(f);
}

bool gs_scx_active(char *ops, size_t opslen)
{
	char state[32];

	if (ops && opslen)
		ops[0] = '\0';
	if (gs_read_text(SCX_DIR "/state", state, sizeof(state)) < 0 ||
	    strcmp(state, "enabled"))
		return false;
	if (ops && opslen && gs_read_text(SCX_DIR "/root/ops", ops, opslen) < 0)
		ops[0] = '\0';
	return true;
}

void gs_sysinfo_read(struct gs_sysinfo *si)
{
	struct utsname u;
	int major = 0, minor = 0;

	memset(si, 0, sizeof(*si));
	if (!uname(&u)) {
		gs_strlcpy(si->kernel, u.release, sizeof(si->kernel));
		gs_strlcpy(si->machine, u.machine, sizeof(si->machine));
		gs_strlcpy(si->hostname, u.nodename, sizeof(si->hostname));
	}
	read_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	si->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (gs_read_text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			 si->governor, sizeof(si->governor)) < 0)
		si->governor[0] = '\0';
	si->has_sched_ext = access(SCX_DIR "/state", R_OK) == 0;
	if (si->has_sched_ext &&
	    gs_read_text(SCX_DIR "/state", si->scx_state,
			 sizeof(si->scx_state)) < 0)
		si->scx_state[0] = '\0';
	if (gs_scx_active(si->scx_ops, sizeof(si->scx_ops))) {
		gs_strlcpy(si->scheduler,
			   si->scx_ops[0] ? si->scx_ops : "sched_ext",
			   sizeof(si->scheduler));
	} else {
		sscanf(si->kernel, "%d.%d", &major, &minor);
		gs_strlcpy(si->scheduler,
			   (major > 6 || (major == 6 && minor >= 6)) ? "eevdf"
								     : "cfs",
			   sizeof(si->scheduler));
	}
}

/* user nice system idle iowait irq softirq steal (guest time is already
 * in user and nice) */
static bool cputimes_parse(const char *rest, struct gs_cputimes *c)
{
	unsigned long long v[8] = { 0 };
	int n = sscanf(rest, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);

	if (n < 4)
		return false;
	c->steal = v[7];
	c->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	c->total = c->busy + v[3] + v[4];
	return true;
}

int gs_cputimes_fread(FILE *f, struct gs_cputimes *all,
		      struct gs_cputimes *per_cpu, int max)
{
	char line[512];
	int seen = 0, have_all = 0;

	if (per_cpu && max > 0)
		memset(per_cpu, 0, sizeof(*per_cpu) * (size_t)max);
	while (fgets(line, sizeof(line), f) && !strncmp(line, "cpu", 3)) {
		struct gs_cputimes c;
		char *end;
		long cpu;

		if (line[3] == ' ') {
			if (!cputimes_parse(line + 4, &c))
				return -1;
			if (all)
				*all = c;
			have_all = 1;
			continue;
		}
		cpu = strtol(line + 3, &end, 10);
		if (end == line + 3 || *end != ' ' || cpu < 0 || cpu > 1 << 20 ||
		    !cputimes_parse(end + 1, &c))
			continue;
		if (cpu + 1 > seen)
			seen = (int)cpu + 1;
		if (per_cpu && cpu < max)
			per_cpu[cpu] = c;
	}
	return have_all ? seen : -1;
}

int gs_cputimes_read(const char *path, struct gs_cputimes *all,
		     struct gs_cputimes *per_cpu, int max)
{
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	n = gs_cputimes_fread(f, all, per_cpu, max);
	fclose(f);
	return n;
}
