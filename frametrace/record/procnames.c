// SPDX-License-Identifier: GPL-2.0-only
#include "procnames.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ftutil.h"
#include "util.h"

static int read_comm(const char *path, char *comm, size_t len)
{
	if (gs_read_text(path, comm, len) < 0)
		return -1;
	return 0;
}

static uint32_t read_tgid(uint32_t tid)
{
	char path[64], line[256];
	FILE *f;
	uint32_t tgid = 0;

	snprintf(path, sizeof(path), "/proc/%u/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (uint32_t)strtoul(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return tgid;
}

/* PF_KTHREAD in /proc/PID/stat's flags (field 9): a kernel thread, which
 * `profile` never gives a role. */
static bool is_kthread(unsigned long pid)
{
	char path[64], buf[512], *rp;
	unsigned long flags = 0;

	snprintf(path, sizeof(path), "/proc/%lu/stat", pid);
	if (gs_read_text(path, buf, sizeof(buf)) < 0)
		return false;
	/* "pid (comm) S ppid pgrp session tty tpgid flags": comm may hold ')' */
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return false;
	return (flags & 0x00200000UL) != 0;
}

static void mark_kthread(struct ft_trace *t, uint32_t tid)
{
	struct ft_task_rec *r = ft_task_get_mut(t, tid);

	if (r)
		r->flags |= FT_TASK_KTHREAD;
}

int ft_proc_names(struct ft_trace *t, pid_t self)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	(void)self;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[300], comm[64];
		DIR *td;
		struct dirent *te;
		char *end;
		unsigned long pid = strtoul(de->d_name, &end, 10);
		bool kthread;

		if (*end || !pid)
			continue;
		kthread = is_kthread(pid);
		snprintf(path, sizeof(path), "/proc/%lu/task", pid);
		td = opendir(path);
		if (!td)
			continue;
		while ((te = readdir(td))) {
			unsigned long tid = strtoul(te->d_name, &end, 10);

			if (*end || !tid)
				continue;
			snprintf(path, sizeof(path), "/proc/%lu/task/%lu/comm",
				 pid, tid);
			if (read_comm(path, comm, sizeof(comm)))
				continue;
			if (ft_task_set(t, (uint32_t)tid, (uint32_t)pid, comm)) {
				closedir(td);
				closedir(d);
				return -1;
			}
			if (kthread)
				mark_kthread(t, (uint32_t)tid);
		}
		closedir(td);
	}
	closedir(d);
	return 0;
}

int ft_proc_name_one(struct ft_trace *t, uint32_t tid)
{
	char path[64], comm[64];
	uint32_t tgid;

	snprintf(path, sizeof(path), "/proc/%u/comm", tid);
	if (read_comm(path, comm, sizeof(comm)))
		return -1;
	tgid = read_tgid(tid);
	if (ft_task_set(t, tid, tgid, comm))
		return -1;
	if (is_kthread(tid))
		mark_kthread(t, tid);
	return 0;
}

void ft_proc_mark_recorder(struct ft_trace *t, pid_t self)
{
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].pid == (uint32_t)self)
			t->tasks[i].flags |= FT_TASK_RECORDER;
}

struct proc_pp {
	pid_t pid, ppid;
};

size_t ft_proc_tree(pid_t root, pid_t *out, size_t max)
{
	struct proc_pp *pp = NULL;
	size_t npp = 0, cap = 0, n = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (max)
		out[n++] = root;
	if (!d)
		return n;
	while ((de = readdir(d))) {
		char path[64], buf[512], *rp, *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if (gs_read_text(path, buf, sizeof(buf)) < 0)
			continue;
		/* "pid (comm) S ppid ...": comm may hold ')' */
		rp = strrchr(buf, ')');
		if (!rp || strlen(rp) < 5)
			continue;
		if (FT_VEC_RESERVE(pp, npp, cap))
			break;
		pp[npp].pid = (pid_t)pid;
		pp[npp].ppid = (pid_t)strtol(rp + 4, NULL, 10);
		npp++;
	}
	closedir(d);
	/* breadth first: each pass adds the children of what is in */
	for (size_t i = 0; i < n && n < max; i++)
		for (size_t k = 0; k < npp && n < max; k++)
			if (pp[k].ppid == out[i] && pp[k].pid != root)
				out[n++] = pp[k].pid;
	free(pp);
	return n;
}

bool ft_proc_has_file(pid_t pid, uint64_t dev, uint64_t ino)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char p[300];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/%d/fd/%s", (int)pid, de->d_name);
		if (!stat(p, &st) && (uint64_t)st.st_dev == dev &&
		    (uint64_t)st.st_ino == ino)
			found = true;
	}
	closedir(d);
	return found;
}
