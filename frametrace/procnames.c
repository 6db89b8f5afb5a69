// SPDX-License-Identifier: GPL-2.0-only
#include "procnames.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

		if (*end || !pid)
			continue;
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
	return ft_task_set(t, tid, tgid, comm);
}

void ft_proc_mark_recorder(struct ft_trace *t, pid_t self)
{
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].pid == (uint32_t)self)
			t->tasks[i].flags |= FT_TASK_RECORDER;
}
