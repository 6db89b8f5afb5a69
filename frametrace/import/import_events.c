// SPDX-License-Identifier: GPL-2.0-only
/* One event line of perf or ftrace text: the tracepoint's key=value
 * fields into a frametrace event (frametrace.h), its tasks named. */
#include "importer.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ftutil.h"
#include "trace/marker.h"
#include "trace/present.h"

uint32_t ft_parse_state(const char *s, int *preempt)
{
	uint32_t st = 0;

	*preempt = 0;
	/* tools print the state as decimal or as 0x hex; a leading 0 is
	 * not octal */
	if (isdigit((unsigned char)*s))
		return (uint32_t)(s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
				  strtoul(s + 2, NULL, 16) :
				  strtoul(s, NULL, 10)) & 0x7fff;
	for (; *s && *s != ' '; s++) {
		switch (*s) {
		case 'R': break;
		case '+': *preempt = 1; break;
		case 'S': st |= 0x1; break;
		case 'D': st |= 0x2; break;
		case 'T': st |= 0x4; break;
		case 't': st |= 0x8; break;
		case 'X': st |= 0x10; break;
		case 'Z': st |= 0x20; break;
		case 'P': st |= 0x40; break;
		case 'I': st |= 0x402; break;
		case 'K': st |= 0x100; break;
		case 'W': st |= 0x200; break;
		case 'N': st |= 0x400; break;
		default: break; /* '|' and unknown letters */
		}
	}
	return st;
}

/* ---- key=value arguments ------------------------------------------- */

struct kv {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
};

#define MAX_KV 32

static bool key_start(const char *s, size_t *klen)
{
	size_t i = 0;

	if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	while (isalnum((unsigned char)s[i]) || s[i] == '_')
		i++;
	if (s[i] != '=')
		return false;
	*klen = i;
	return true;
}

/* Splits "a=1 b=two words c=3" by keys: a value runs to the next " key=". */
static int parse_kv(const char *args, struct kv *kv, int max)
{
	int n = 0;
	size_t len = strlen(args);

	for (size_t i = 0; i < len; i++) {
		size_t klen;

		if ((i == 0 || args[i - 1] == ' ') && key_start(args + i, &klen)) {
			if (n > 0) {
				const char *e = args + i;

				while (e > kv[n - 1].val && e[-1] == ' ')
					e--;
				kv[n - 1].vlen = (size_t)(e - kv[n - 1].val);
			}
			if (n == max)
				return n;
			kv[n].key = args + i;
			kv[n].klen = klen;
			kv[n].val = args + i + klen + 1;
			kv[n].vlen = 0;
			n++;
			i += klen;
		}
	}
	if (n > 0) {
		const char *e = args + len;

		while (e > kv[n - 1].val && (e[-1] == ' ' || e[-1] == '\r'))
			e--;
		kv[n - 1].vlen = (size_t)(e - kv[n - 1].val);
	}
	/* "prev_state=S ==> next_comm=..." : drop the arrow from the value */
	for (int k = 0; k < n; k++) {
		while (kv[k].vlen >= 3 &&
		       !memcmp(kv[k].val + kv[k].vlen - 3, "==>", 3)) {
			kv[k].vlen -= 3;
			while (kv[k].vlen && kv[k].val[kv[k].vlen - 1] == ' ')
				kv[k].vlen--;
		}
	}
	return n;
}

static const struct kv *kv_find(const struct kv *kv, int n, const char *key)
{
	size_t kl = strlen(key);

	for (int i = 0; i < n; i++)
		if (kv[i].klen == kl && !memcmp(kv[i].key, key, kl))
			return &kv[i];
	return NULL;
}

static int kv_str(const struct kv *kv, int n, const char *key, char *out,
		  size_t outlen)
{
	const struct kv *v = kv_find(kv, n, key);
	size_t l;

	if (!v)
		return -1;
	l = v->vlen < outlen - 1 ? v->vlen : outlen - 1;
	memcpy(out, v->val, l);
	out[l] = '\0';
	return 0;
}

/* Leading unsigned number of a value ("58056 [ns]", "001"). */
static int kv_u64(const struct kv *kv, int n, const char *key, uint64_t *out)
{
	const struct kv *v = kv_find(kv, n, key);
	uint64_t x = 0;
	size_t i = 0;

	if (!v || !v->vlen || !isdigit((unsigned char)v->val[0]))
		return -1;
	for (; i < v->vlen && isdigit((unsigned char)v->val[i]); i++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(v->val[i] - '0');
	}
	if (i < v->vlen && v->val[i] != ' ')
		return -1;
	*out = x;
	return 0;
}

static void unknown_event(struct ft_import *im, const char *ev)
{
	im->unknown_lines++;
	for (int i = 0; i < im->nunknown; i++)
		if (!strcmp(im->unknown[i], ev)) {
			im->unknown_count[i]++;
			return;
		}
	if (im->nunknown < 5) {
		/* a longer name is cut (the precision tells the compiler so) */
		ft_printable(ev, im->unknown[im->nunknown],
			     sizeof(im->unknown[0]));
		im->unknown_first_line[im->nunknown] = im->line;
		im->unknown_count[im->nunknown++] = 1;
	}
}

static void name_task(struct ft_import *im, uint64_t tid,
		      const char *comm, uint32_t pid)
{
	if (tid > UINT32_MAX)
		return;
	if (tid == 0)
		comm = NULL; /* idle: swapper/N per CPU, printed as <idle> */
	if (ft_task_set(im->t, (uint32_t)tid, pid, comm))
		im->oom = true;
}

static void push(struct ft_import *im, const struct ft_ev *e)
{
	if (ft_trace_push(im->t, e))
		im->oom = true;
	else
		im->events++;
}

static bool known_ignored(const char *ev)
{
	static const char *const names[] = {
		"sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait",
		"sched_stat_blocked", "sched_process_free",
		"sched_process_wait", "sched_kthread_stop", "sched_kthread_stop_ret",
		"sched_wait_task", "sched_pi_setprio", "sched_move_numa",
		"sched_swap_numa", "sched_wake_idle_without_ipi",
		"task_rename",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(ev, names[i]))
			return true;
	/* the other scheduler tracepoints (`perf record -e 'sched:*'` has
	 * more with every kernel: sched_prepare_exec, sched_kthread_work_*) */
	return !strncmp(ev, "sched_", 6);
}

static int cpu_ok(struct ft_import *im, uint64_t cpu)
{
	if (cpu >= FT_CPU_LIMIT) {
		ft_import_bad(im, "CPU %" PRIu64 " out of range", cpu);
		return -1;
	}
	return 0;
}

static void marker_line(struct ft_import *im, const struct ft_text_hdr *h,
			const char *text)
{
	struct ft_ev e = { 0 };
	long idx;
	char buf[FT_MARK_MAX * 4];
	size_t n = strlen(text);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		buf[--n] = '\0';
	idx = ft_str_add(im->t, buf);
	if (idx < 0) {
		im->oom = true;
		return;
	}
	e.ts = h->ts;
	e.type = FT_EV_MARK;
	e.cpu = (uint16_t)h->cpu;
	if (h->notask)
		e.flags |= FT_F_NO_TASK;
	e.tid = (uint32_t)h->tid;
	e.arg = (uint32_t)h->pid;
	e.arg2 = (uint32_t)idx;
	if (!e.arg) {
		struct ft_atrace a;

		if (!ft_atrace_parse(buf, &a) && a.tgid)
			e.arg = a.tgid;
	}
	push(im, &e);
}

/* One event line being decoded: its header, its key=value fields, and the
 * event filled so far (time and CPU). */
struct line {
	struct ft_import *im;
	const struct ft_text_hdr *h;
	struct kv kv[MAX_KV];
	int n;
	struct ft_ev e;
};

/* Names tid after the field key when the line has it. */
static void name_from(struct line *l, const char *key, uint64_t tid)
{
	char comm[64];

	if (!kv_str(l->kv, l->n, key, comm, sizeof(comm)))
		name_task(l->im, tid, comm, 0);
}

static void switch_line(struct line *l)
{
	char st[32];
	int preempt;
	uint64_t prev, next, pprio = 120, nprio = 120;

	if (kv_u64(l->kv, l->n, "prev_pid", &prev) ||
	    kv_u64(l->kv, l->n, "next_pid", &next) ||
	    kv_str(l->kv, l->n, "prev_state", st, sizeof(st)) ||
	    prev > UINT32_MAX || next > UINT32_MAX) {
		ft_import_bad(l->im, "sched_switch without prev_pid, "
				     "prev_state and next_pid");
		return;
	}
	kv_u64(l->kv, l->n, "prev_prio", &pprio);
	kv_u64(l->kv, l->n, "next_prio", &nprio);
	l->e.type = FT_EV_SWITCH;
	l->e.tid = (uint32_t)prev;
	l->e.arg = (uint32_t)next;
	l->e.arg2 = ft_parse_state(st, &preempt) |
		    (uint32_t)(pprio & 0xff) << 16 |
		    (uint32_t)(nprio & 0xff) << 24;
	if (preempt)
		l->e.flags |= FT_F_PREEMPT;
	name_from(l, "prev_comm", prev);
	name_from(l, "next_comm", next);
	push(l->im, &l->e);
}

/* sched_waking, sched_wakeup, sched_wakeup_new: the writer of the line is
 * the waker. */
static void wake_line(struct line *l)
{
	const struct ft_text_hdr *h = l->h;
	uint64_t wakee, prio = 120, target = h->cpu;

	if (kv_u64(l->kv, l->n, "pid", &wakee) || wakee > UINT32_MAX) {
		ft_import_bad(l->im, "%s without pid", h->event);
		return;
	}
	kv_u64(l->kv, l->n, "prio", &prio);
	kv_u64(l->kv, l->n, "target_cpu", &target);
	l->e.type = !strcmp(h->event, "sched_waking")	     ? FT_EV_WAKING
		    : !strcmp(h->event, "sched_wakeup") ? FT_EV_WAKEUP
							: FT_EV_WAKEUP_NEW;
	l->e.tid = (uint32_t)wakee;
	l->e.arg = (uint32_t)h->tid;
	l->e.arg2 = (uint32_t)(target & 0xffff) | (uint32_t)(prio & 0xff) << 16;
	l->e.val = (uint64_t)h->pid << 32;
	if (h->irq)
		l->e.flags |= FT_F_IRQ;
	name_from(l, "comm", wakee);
	push(l->im, &l->e);
}

static void migrate_line(struct line *l)
{
	uint64_t tid, from, to;

	if (kv_u64(l->kv, l->n, "pid", &tid) ||
	    kv_u64(l->kv, l->n, "orig_cpu", &from) ||
	    kv_u64(l->kv, l->n, "dest_cpu", &to) || tid > UINT32_MAX ||
	    from >= FT_CPU_LIMIT || to >= FT_CPU_LIMIT) {
		ft_import_bad(l->im, "sched_migrate_task without pid, "
				     "orig_cpu, dest_cpu");
		return;
	}
	l->e.type = FT_EV_MIGRATE;
	l->e.tid = (uint32_t)tid;
	l->e.arg = (uint32_t)from;
	l->e.arg2 = (uint32_t)to;
	name_from(l, "comm", tid);
	push(l->im, &l->e);
}

static void fork_line(struct line *l)
{
	uint64_t parent, child;

	if (kv_u64(l->kv, l->n, "pid", &parent) ||
	    kv_u64(l->kv, l->n, "child_pid", &child) || parent > UINT32_MAX ||
	    child > UINT32_MAX) {
		ft_import_bad(l->im, "sched_process_fork without pid, "
				     "child_pid");
		return;
	}
	l->e.type = FT_EV_FORK;
	l->e.tid = (uint32_t)child;
	l->e.arg = (uint32_t)parent;
	name_from(l, "child_comm", child);
	push(l->im, &l->e);
}

/* What a line says of tid's process, for a text without pids. */
static void hint(struct ft_import *im, uint64_t tid, uint32_t bits)
{
	bool isnew;
	uint32_t *h;

	if (!tid || tid > UINT32_MAX)
		return;
	h = ft_map_put(&im->hint, tid, 0, &isnew);
	if (!h)
		im->oom = true;
	else
		*h |= bits;
}

static void exit_line(struct line *l)
{
	uint64_t tid;
	char dead[8];

	if (kv_u64(l->kv, l->n, "pid", &tid) || tid > UINT32_MAX) {
		ft_import_bad(l->im, "sched_process_exit without pid");
		return;
	}
	if (!kv_str(l->kv, l->n, "group_dead", dead, sizeof(dead)) &&
	    (!strcmp(dead, "true") || !strcmp(dead, "1")))
		hint(l->im, tid, FT_HINT_GROUP_DEAD);
	l->e.type = FT_EV_EXIT;
	l->e.tid = (uint32_t)tid;
	l->e.arg = (uint32_t)l->h->pid;
	push(l->im, &l->e);
}

/* sched_process_exec: the task leads its process from now on (pid is
 * the process's id; old_pid differs when a thread other than the leader
 * called exec, and that thread then takes the leader's tid). */
static void exec_line(struct line *l)
{
	uint64_t pid;

	if (!kv_u64(l->kv, l->n, "pid", &pid))
		hint(l->im, pid, FT_HINT_LEADER);
}

/* task:task_newtask: clone_flags (hex) say whether the child is a
 * thread (CLONE_THREAD, 0x10000) or a process. */
static void newtask_line(struct line *l)
{
	uint64_t child;
	char flags[24], *end;
	unsigned long long f;

	if (kv_u64(l->kv, l->n, "pid", &child) ||
	    kv_str(l->kv, l->n, "clone_flags", flags, sizeof(flags)))
		return;
	f = strtoull(flags, &end, 16);
	if (end == flags || *end)
		return;
	hint(l->im, child, (f & 0x10000) ? FT_HINT_THREAD : FT_HINT_PROCESS);
}

static void runtime_line(struct line *l)
{
	uint64_t tid, runtime;

	if (kv_u64(l->kv, l->n, "pid", &tid) ||
	    kv_u64(l->kv, l->n, "runtime", &runtime) || tid > UINT32_MAX) {
		ft_import_bad(l->im, "sched_stat_runtime without pid, "
				     "runtime");
		return;
	}
	l->e.type = FT_EV_RUNTIME;
	l->e.tid = (uint32_t)tid;
	/* who asked for the accounting: the task itself, or another one
	 * reading its CPU time from elsewhere */
	if (l->h->tid < UINT32_MAX && !l->h->notask)
		l->e.arg = (uint32_t)l->h->tid + 1;
	l->e.val = runtime;
	name_from(l, "comm", tid);
	push(l->im, &l->e);
}

static const struct {
	const char *event;
	void (*decode)(struct line *l);
} decoders[] = {
	{ "sched_switch", switch_line },
	{ "sched_waking", wake_line },
	{ "sched_wakeup", wake_line },
	{ "sched_wakeup_new", wake_line },
	{ "sched_migrate_task", migrate_line },
	{ "sched_process_fork", fork_line },
	{ "sched_process_exit", exit_line },
	{ "sched_process_exec", exec_line },
	{ "task_newtask", newtask_line },
	{ "sched_stat_runtime", runtime_line },
};

/* The text a print or marker line writes to trace_marker. */
static const char *marker_text(const struct ft_text_hdr *h)
{
	const char *p;

	if (strcmp(h->event, "print"))
		return h->args;
	p = strstr(h->args, "buf=");
	if (p)
		return p + 4;
	if (!strncmp(h->args, "tracing_mark_write: ", 20))
		return h->args + 20;
	return h->args;
}

/* A uprobe on a present call (perf probe -x libGLX.so.0 -a
 * glXSwapBuffers): a frame boundary of the calling thread. */
static void present_line(struct ft_import *im, const struct ft_text_hdr *h,
			 const char *func)
{
	struct ft_ev e = { 0 };
	long idx = -1;

	/* one string per function name (func is one of a few constants) */
	for (int i = 0; i < im->npresent; i++)
		if (im->present_name[i] == func)
			idx = im->present_str[i];
	if (idx < 0) {
		idx = ft_str_add(im->t, func);
		if (idx < 0) {
			im->oom = true;
			return;
		}
		if (im->npresent < 16) {
			im->present_name[im->npresent] = func;
			im->present_str[im->npresent++] = idx;
		}
	}
	e.ts = h->ts;
	e.type = FT_EV_PRESENT;
	e.cpu = (uint16_t)h->cpu;
	e.tid = (uint32_t)h->tid;
	e.arg = (uint32_t)h->pid;
	e.arg2 = (uint32_t)idx;
	im->presents++;
	push(im, &e);
}

void ft_import_event_line(struct ft_import *im, struct ft_text_hdr *h)
{
	const char *pf;

	struct line l = { .im = im, .h = h };

	if (cpu_ok(im, h->cpu))
		return;
	if (h->irq_known)
		im->irq_known++;
	if (h->pid)
		im->pid_lines++;
	if (h->comm[0] && h->tid)
		name_task(im, h->tid, h->comm, (uint32_t)h->pid);
	else if (h->pid && h->tid)
		name_task(im, h->tid, NULL, (uint32_t)h->pid);
	l.e.ts = h->ts;
	l.e.cpu = (uint16_t)h->cpu;
	if (h->notask)
		l.e.flags |= FT_F_NO_TASK;
	if (!strcmp(h->event, "tracing_mark_write") || !strcmp(h->event, "0") ||
	    !strcmp(h->event, "print")) {
		marker_line(im, h, marker_text(h));
		return;
	}
	l.n = parse_kv(h->args, l.kv, MAX_KV);
	for (size_t i = 0; i < sizeof(decoders) / sizeof(decoders[0]); i++)
		if (!strcmp(h->event, decoders[i].event)) {
			decoders[i].decode(&l);
			return;
		}
	if (h->tid && ft_present_event(h->event, im->frame_events,
				       im->nframe_events, &pf)) {
		present_line(im, h, pf);
		return;
	}
	/* futex syscalls would need pairing: not imported, but counted as
	 * unknown like any other event not ignored on purpose; the return
	 * probes of present calls carry nothing a frame needs */
	if (!known_ignored(h->event) &&
	    !ft_present_return_event(h->event, im->frame_events,
				     im->nframe_events))
		unknown_event(im, h->event);
}
