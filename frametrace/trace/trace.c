// SPDX-License-Identifier: GPL-2.0-only
/* The trace in memory (trace.h): events, tasks, frames, strings, meta. */
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftutil.h"

void ft_trace_init(struct ft_trace *t)
{
	memset(t, 0, sizeof(*t));
}

void ft_trace_free(struct ft_trace *t)
{
	free(t->ev);
	free(t->tasks);
	free(t->tidx);
	free(t->frames);
	for (size_t i = 0; i < t->nstr; i++)
		free(t->str[i]);
	free(t->str);
	for (size_t i = 0; i < t->nmeta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].val);
	}
	free(t->meta);
	memset(t, 0, sizeof(*t));
}

int ft_trace_push(struct ft_trace *t, const struct ft_ev *e)
{
	if (FT_VEC_RESERVE(t->ev, t->nev, t->evcap))
		return -1;
	t->ev[t->nev++] = *e;
	return 0;
}

int ft_frame_push(struct ft_trace *t, const struct ft_frame *f)
{
	if (FT_VEC_RESERVE(t->frames, t->nframes, t->framecap))
		return -1;
	t->frames[t->nframes++] = *f;
	return 0;
}

long ft_str_add(struct ft_trace *t, const char *s)
{
	char *c;

	if (FT_VEC_RESERVE(t->str, t->nstr, t->strcap))
		return -1;
	c = strdup(s);
	if (!c)
		return -1;
	t->str[t->nstr] = c;
	return (long)t->nstr++;
}

const char *ft_str_get(const struct ft_trace *t, uint64_t idx)
{
	return idx < t->nstr ? t->str[idx] : "";
}

static size_t tidx_slot(const struct ft_trace *t, uint32_t tid)
{
	size_t mask = t->tidxcap - 1;
	size_t i = ft_hash64(tid) & mask;

	while (t->tidx[i] && t->tasks[t->tidx[i] - 1].tid != tid)
		i = (i + 1) & mask;
	return i;
}

static int tidx_grow(struct ft_trace *t)
{
	size_t ncap = t->tidxcap ? t->tidxcap * 2 : 256;
	uint32_t *n = calloc(ncap, sizeof(*n));
	uint32_t *old = t->tidx;

	if (!n)
		return -1;
	t->tidx = n;
	t->tidxcap = ncap;
	for (size_t i = 0; i < t->ntasks; i++)
		t->tidx[tidx_slot(t, t->tasks[i].tid)] = (uint32_t)i + 1;
	free(old);
	return 0;
}

struct ft_task_rec *ft_task_get_mut(struct ft_trace *t, uint32_t tid)
{
	size_t s;

	if (!t->tidxcap)
		return NULL;
	s = tidx_slot(t, tid);
	return t->tidx[s] ? &t->tasks[t->tidx[s] - 1] : NULL;
}

const struct ft_task_rec *ft_task_get(const struct ft_trace *t, uint32_t tid)
{
	return ft_task_get_mut((struct ft_trace *)t, tid);
}

int ft_task_set(struct ft_trace *t, uint32_t tid, uint32_t pid,
		const char *comm)
{
	struct ft_task_rec *r = ft_task_get_mut(t, tid);

	if (!r) {
		if ((t->ntasks + 1) * 2 > t->tidxcap && tidx_grow(t))
			return -1;
		if (FT_VEC_RESERVE(t->tasks, t->ntasks, t->taskcap))
			return -1;
		r = &t->tasks[t->ntasks];
		memset(r, 0, sizeof(*r));
		r->tid = tid;
		t->tidx[tidx_slot(t, tid)] = (uint32_t)++t->ntasks;
	}
	if (pid)
		r->pid = pid;
	if (comm && *comm) {
		memset(r->comm, 0, sizeof(r->comm));
		strncpy(r->comm, comm, sizeof(r->comm) - 1);
	}
	return 0;
}

const char *ft_task_comm(const struct ft_trace *t, uint32_t tid)
{
	const struct ft_task_rec *r;

	if (tid == 0)
		return "<idle>";
	r = ft_task_get(t, tid);
	return r && r->comm[0] ? r->comm : "?";
}

uint32_t ft_task_pid(const struct ft_trace *t, uint32_t tid)
{
	const struct ft_task_rec *r = ft_task_get(t, tid);

	return r ? r->pid : 0;
}

bool ft_task_kthread(const struct ft_trace *t, uint32_t tid)
{
	static const char *const names[] = {
		"kthreadd", "rcu_", "kswapd", "kcompactd", "khugepaged", "ksmd",
		"kdamond", "oom_reaper", "kauditd", "khungtaskd", "kthrotld",
		"kblockd", "kintegrityd", "watchdogd", "kdevtmpfs", "jbd2/",
		"scsi_eh_", "scsi_tmf_",
	};
	const struct ft_task_rec *r = ft_task_get(t, tid);
	const char *c, *p;

	if (!r)
		return false;
	if (r->flags & FT_TASK_KTHREAD)
		return true;
	c = r->comm;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(c, names[i], strlen(names[i])))
			return true;
	/* kworker/0:1, kworker/u8:2, ksoftirqd/0, migration/1, irq/24-nvme:
	 * a user's thread may hold a '/' ("IPC I/O Parent"), not after a
	 * lowercase word and before a digit */
	for (p = c; (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '_';
	     p++)
		;
	if (p == c || *p != '/')
		return false;
	p++;
	if (*p == 'u')
		p++;
	return *p >= '0' && *p <= '9';
}

void ft_meta_set(struct ft_trace *t, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	struct ft_meta *m;
	char *v;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* one line per value in the file */
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	for (size_t i = 0; i < t->nmeta; i++)
		if (!strcmp(t->meta[i].key, key)) {
			v = strdup(buf);
			if (v) {
				free(t->meta[i].val);
				t->meta[i].val = v;
			}
			return;
		}
	m = realloc(t->meta, (t->nmeta + 1) * sizeof(*m));
	if (!m)
		return;
	t->meta = m;
	m[t->nmeta].key = strdup(key);
	m[t->nmeta].val = strdup(buf);
	if (!m[t->nmeta].key || !m[t->nmeta].val) {
		free(m[t->nmeta].key);
		free(m[t->nmeta].val);
		return;
	}
	t->nmeta++;
}

const char *ft_meta_get(const struct ft_trace *t, const char *key)
{
	for (size_t i = 0; i < t->nmeta; i++)
		if (!strcmp(t->meta[i].key, key))
			return t->meta[i].val;
	return NULL;
}

bool ft_ev_emitter(const struct ft_ev *e, uint32_t *tid)
{
	/* a line whose task perf could not tell still names it in its
	 * fields for a switch (prev), an exit and a fork (the parent) */
	bool known = !(e->flags & FT_F_NO_TASK);

	switch (e->type) {
	case FT_EV_SWITCH:
	case FT_EV_EXIT:
		*tid = e->tid;
		return true;
	case FT_EV_FUTEX:
	case FT_EV_MARK:
	case FT_EV_PRESENT:
		*tid = e->tid;
		return known;
	case FT_EV_FORK:
		*tid = e->arg;
		return true;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		*tid = e->arg;
		return known;
	case FT_EV_RUNTIME:
		/* accounting asked for by another task (its CPU time read
		 * from elsewhere) is no sign of where the task ran */
		if (!e->arg || e->arg - 1 != e->tid)
			return false;
		*tid = e->tid;
		return true;
	default:
		return false;
	}
}

const char *ft_ev_name(unsigned type)
{
	static const char *const names[FT_EV_NTYPES] = {
		[FT_EV_NONE] = "none",
		[FT_EV_SWITCH] = "sched_switch",
		[FT_EV_WAKING] = "sched_waking",
		[FT_EV_WAKEUP] = "sched_wakeup",
		[FT_EV_WAKEUP_NEW] = "sched_wakeup_new",
		[FT_EV_MIGRATE] = "sched_migrate_task",
		[FT_EV_FORK] = "sched_process_fork",
		[FT_EV_EXIT] = "sched_process_exit",
		[FT_EV_FUTEX] = "futex",
		[FT_EV_RUNTIME] = "sched_stat_runtime",
		[FT_EV_MARK] = "tracing_mark_write",
		[FT_EV_COMM] = "task_rename",
		[FT_EV_PRESENT] = "present",
	};

	return type < FT_EV_NTYPES ? names[type] : "unknown";
}

char ft_state_char(uint32_t state)
{
	static const char letters[] = "SDTtXZP";

	state &= 0x7fff;
	if (state == 0)
		return 'R';
	if ((state & 0x402) == 0x402)
		return 'I';	/* TASK_IDLE: uninterruptible, no load */
	for (int i = 0; i < 7; i++)
		if (state & (1u << i))
			return letters[i];
	return 'R';
}
