// SPDX-License-Identifier: GPL-2.0-only
#include "sysinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "json.h"
#include "util.h"

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

static long long read_seq(const char *root, const char *name)
{
	char p[600], buf[64];
	long long v;

	snprintf(p, sizeof(p), "%s/%s", root, name);
	if (gs_read_text(p, buf, sizeof(buf)) < 0 || sscanf(buf, "%lld", &v) != 1)
		return -1;
	return v;
}

void gs_scx_read(const char *root, struct gs_scx *s)
{
	char p[600];

	memset(s, 0, sizeof(*s));
	s->enable_seq = s->hotplug_seq = -1;
	snprintf(p, sizeof(p), "%s/state", root);
	if (gs_read_text(p, s->state, sizeof(s->state)) < 0) {
		s->state[0] = '\0';
		s->present = !access(root, F_OK);
		return;
	}
	s->present = true;
	snprintf(p, sizeof(p), "%s/root/ops", root);
	if (gs_read_text(p, s->ops, sizeof(s->ops)) < 0)
		s->ops[0] = '\0';
	s->enable_seq = read_seq(root, "enable_seq");
	s->hotplug_seq = read_seq(root, "hotplug_seq");
}

bool gs_scx_enabled(const struct gs_scx *s)
{
	return !strcmp(s->state, "enabled");
}

void gs_sysinfo_read(struct gs_sysinfo *si, const char *scx_root)
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
	gs_scx_read(scx_root, &si->scx);
	if (gs_scx_enabled(&si->scx)) {
		gs_strlcpy(si->scheduler,
			   si->scx.ops[0] ? si->scx.ops : "sched_ext",
			   sizeof(si->scheduler));
	} else {
		sscanf(si->kernel, "%d.%d", &major, &minor);
		gs_strlcpy(si->scheduler,
			   (major > 6 || (major == 6 && minor >= 6)) ? "eevdf"
								     : "cfs",
			   sizeof(si->scheduler));
	}
}

/* dir holds trace_marker; remembers in *err why not, ENOENT being the
 * least telling reason */
static bool has_trace_marker(const char *dir, int *err)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/trace_marker", dir);
	if (!access(p, F_OK))
		return true;
	if (errno != ENOENT || !*err)
		*err = errno;
	return false;
}

bool gs_tracepoint_exists(const char *tracefs, const char *ev)
{
	char dir[256], path[512];

	if (!tracefs) {
		if (gs_tracefs_dir(dir, sizeof(dir)))
			return false;
		tracefs = dir;
	}
	if (!*tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/id", tracefs, ev);
	return access(path, R_OK) == 0;
}

int gs_tracefs_dir(char *dir, size_t len)
{
	static const char *const usual[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	char mdir[512], type[64];
	int err = 0;
	FILE *m = fopen("/proc/mounts", "r");

	if (m) {
		while (fscanf(m, "%*s %511s %63s %*[^\n]", mdir, type) == 2)
			if (!strcmp(type, "tracefs") && has_trace_marker(mdir, &err)) {
				fclose(m);
				gs_strlcpy(dir, mdir, len);
				return 0;
			}
		fclose(m);
	}
	for (size_t i = 0; i < ARRAY_SIZE(usual); i++)
		if (has_trace_marker(usual[i], &err)) {
			gs_strlcpy(dir, usual[i], len);
			return 0;
		}
	errno = err ? err : ENOENT;
	return -1;
}

void gs_scx_json(struct gs_jw *w, const char *key, const struct gs_scx *s)
{
	gs_jw_obj(w, key);
	gs_jw_bool(w, "present", s->present);
	gs_jw_str(w, "state", s->state);
	gs_jw_str(w, "ops", s->ops);
	if (s->enable_seq >= 0)
		gs_jw_int(w, "enable_seq", s->enable_seq);
	else
		gs_jw_null(w, "enable_seq");
	gs_jw_obj_end(w);
}

void gs_sysinfo_json(struct gs_jw *w, const struct gs_sysinfo *si)
{
	gs_jw_obj(w, "system");
	gs_jw_str(w, "kernel", si->kernel);
	gs_jw_str(w, "arch", si->machine);
	gs_jw_str(w, "hostname", si->hostname);
	gs_jw_str(w, "cpu_model", si->cpu_model);
	gs_jw_int(w, "ncpus", si->ncpus);
	gs_jw_str(w, "governor", si->governor);
	gs_jw_str(w, "scheduler", si->scheduler);
	gs_scx_json(w, "sched_ext", &si->scx);
	gs_jw_obj_end(w);
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
