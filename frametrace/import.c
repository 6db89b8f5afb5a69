// SPDX-License-Identifier: GPL-2.0-only
/* perf script, ftrace text and MangoHud CSV importers (import.h). */
#include "import.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "finish.h"
#include "ftutil.h"
#include "mangohud.h"
#include "marker.h"
#include "tracefile.h"

#define LINE_MAX_LEN 4096

const char *ft_fmt_name(enum ft_fmt f)
{
	switch (f) {
	case FT_FMT_TRACE: return "frametrace trace";
	case FT_FMT_PERF: return "perf script text";
	case FT_FMT_FTRACE: return "ftrace text";
	case FT_FMT_MANGOHUD: return "MangoHud CSV";
	default: return "unknown";
	}
}

int ft_parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	if (!len || !isdigit((unsigned char)s[0]))
		return -1;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
	}
	if (i != len)
		return -1;
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

uint32_t ft_parse_state(const char *s, int *preempt)
{
	uint32_t st = 0;

	*preempt = 0;
	if (isdigit((unsigned char)*s))
		return (uint32_t)strtoul(s, NULL, 0) & 0x7fff;
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

static int kv_i64(const struct kv *kv, int n, const char *key, int64_t *out)
{
	const struct kv *v = kv_find(kv, n, key);
	uint64_t x;
	struct kv tmp;

	if (!v || !v->vlen)
		return -1;
	if (v->val[0] != '-') {
		if (kv_u64(kv, n, key, &x) || x > INT64_MAX)
			return -1;
		*out = (int64_t)x;
		return 0;
	}
	tmp = *v;
	tmp.val++;
	tmp.vlen--;
	if (kv_u64(&tmp, 1, key, &x) || x > INT64_MAX)
		return -1;
	*out = -(int64_t)x;
	return 0;
}

/* ---- the importer state -------------------------------------------- */

struct imp {
	const char *name;
	enum ft_fmt fmt;
	struct ft_trace *t;
	size_t line;
	uint64_t bad_lines, events, unknown_lines, lost;
	char first_bad[300];
	char unknown[5][48];
	size_t unknown_first_line[5];
	uint64_t unknown_count[5];
	int nunknown;
	bool oom;
};

static void bad(struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad(struct imp *im, const char *fmt, ...)
{
	va_list ap;
	int n;

	im->bad_lines++;
	if (im->first_bad[0])
		return;
	n = snprintf(im->first_bad, sizeof(im->first_bad), "%s:%zu: ", im->name,
		     im->line);
	if (n < 0 || (size_t)n >= sizeof(im->first_bad))
		return;
	va_start(ap, fmt);
	vsnprintf(im->first_bad + n, sizeof(im->first_bad) - (size_t)n, fmt, ap);
	va_end(ap);
}

static void unknown_event(struct imp *im, const char *ev)
{
	im->unknown_lines++;
	for (int i = 0; i < im->nunknown; i++)
		if (!strcmp(im->unknown[i], ev)) {
			im->unknown_count[i]++;
			return;
		}
	if (im->nunknown < 5) {
		snprintf(im->unknown[im->nunknown], sizeof(im->unknown[0]), "%s",
			 ev);
		im->unknown_first_line[im->nunknown] = im->line;
		im->unknown_count[im->nunknown++] = 1;
	}
}

static void name_task(struct imp *im, uint64_t tid, const char *comm,
		      uint32_t pid)
{
	if (tid > UINT32_MAX)
		return;
	if (tid == 0)
		comm = NULL; /* idle: swapper/N per CPU, printed as <idle> */
	if (ft_task_set(im->t, (uint32_t)tid, pid, comm))
		im->oom = true;
}

static void push(struct imp *im, const struct ft_ev *e)
{
	if (ft_trace_push(im->t, e))
		im->oom = true;
	else
		im->events++;
}

/* Header fields every line format gives. */
struct hdr {
	char comm[64];
	uint64_t tid;
	uint64_t pid;		/* 0 unknown */
	uint64_t cpu;
	uint64_t ts;
	char event[64];		/* without "subsystem:" */
	const char *args;
	bool irq;		/* ftrace flags say hardirq/softirq/NMI */
};

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static uint64_t digits_u64(const char *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && i < 19; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	return v;
}

/*
 * After "[cpu]": [flags] timestamp ": " event ":" args.
 * flags_allowed: ftrace has an irq-flags column, perf does not.
 */
static int parse_tail(const char *p, bool flags_allowed, struct hdr *h)
{
	const char *tok, *e;
	size_t n;

	while (*p == ' ')
		p++;
	tok = p;
	while (*p && *p != ' ')
		p++;
	n = (size_t)(p - tok);
	if (!(n >= 2 && tok[n - 1] == ':' && isdigit((unsigned char)tok[0]) &&
	      !ft_parse_ts(tok, n - 1, &h->ts))) {
		if (!flags_allowed || n > 5 || !n)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (!(isalnum((unsigned char)tok[i]) || tok[i] == '.'))
				return -1;
		if (n >= 3 && strchr("hsHzZ", tok[2]))
			h->irq = true;
		while (*p == ' ')
			p++;
		tok = p;
		while (*p && *p != ' ')
			p++;
		n = (size_t)(p - tok);
		if (n < 2 || tok[n - 1] != ':' || ft_parse_ts(tok, n - 1, &h->ts))
			return -1;
	}
	while (*p == ' ')
		p++;
	/* event name: up to ": " or ':' at the end; perf adds "sched:" */
	tok = p;
	e = strstr(p, ": ");
	if (!e) {
		e = p + strlen(p);
		if (e > p && e[-1] == ':')
			e--;
		else
			return -1;
	}
	n = (size_t)(e - tok);
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (tok[i] == ' ')
			return -1;
	{
		const char *colon = memchr(tok, ':', n);
		const char *nm = tok;

		/* "sched:sched_switch" -> "sched_switch" (last component) */
		while (colon) {
			nm = colon + 1;
			colon = memchr(nm, ':', n - (size_t)(nm - tok));
		}
		n -= (size_t)(nm - tok);
		if (n >= sizeof(h->event))
			n = sizeof(h->event) - 1;
		memcpy(h->event, nm, n);
		h->event[n] = '\0';
	}
	h->args = *e ? e + 2 : e;
	return 0;
}

/* perf script: "[comm] tid|pid/tid [cpu] ts: subsys:event: args" */
static int parse_perf_header(char *line, struct hdr *h)
{
	memset(h, 0, sizeof(*h));
	for (char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		char *q = b + 1, *pre_end, *tokstart;
		size_t n;

		if (b != line && b[-1] != ' ')
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == b + 1 || *q != ']' || q - b > 6)
			continue;
		if (parse_tail(q + 1, false, h))
			continue;
		h->cpu = digits_u64(b + 1, (size_t)(q - b - 1));
		/* before '[': [comm ]tid or [comm ]pid/tid */
		pre_end = b;
		while (pre_end > line && pre_end[-1] == ' ')
			pre_end--;
		tokstart = pre_end;
		while (tokstart > line && tokstart[-1] != ' ')
			tokstart--;
		n = (size_t)(pre_end - tokstart);
		if (!n)
			return -1;
		{
			char *slash = memchr(tokstart, '/', n);

			if (slash) {
				size_t a = (size_t)(slash - tokstart);

				if (!all_digits(tokstart, a) ||
				    !all_digits(slash + 1, n - a - 1))
					return -1;
				h->pid = digits_u64(tokstart, a);
				h->tid = digits_u64(slash + 1, n - a - 1);
			} else if (n == 2 && !memcmp(tokstart, "-1", 2)) {
				/* perf could not tell the task: keep the
				 * line, its fields say what it is about */
				h->tid = 0;
			} else {
				if (!all_digits(tokstart, n))
					return -1;
				h->tid = digits_u64(tokstart, n);
			}
		}
		{
			char *cs = line, *ce = tokstart;

			while (*cs == ' ')
				cs++;
			while (ce > cs && ce[-1] == ' ')
				ce--;
			n = (size_t)(ce - cs);
			if (n >= sizeof(h->comm))
				n = sizeof(h->comm) - 1;
			memcpy(h->comm, cs, n);
			h->comm[n] = '\0';
		}
		return 0;
	}
	return -1;
}

/* ftrace: "comm-tid [(tgid)] [cpu] [flags] ts: event: args" */
static int parse_ftrace_header(char *line, struct hdr *h)
{
	memset(h, 0, sizeof(*h));
	for (char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		char *q = b + 1, *pe, *dash;
		size_t n;

		if (b == line || b[-1] != ' ')
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == b + 1 || *q != ']' || q - b > 6)
			continue;
		if (parse_tail(q + 1, true, h))
			continue;
		h->cpu = digits_u64(b + 1, (size_t)(q - b - 1));
		pe = b;
		while (pe > line && pe[-1] == ' ')
			pe--;
		if (pe > line && pe[-1] == ')') {
			char *o = pe - 1;

			while (o > line && *o != '(')
				o--;
			if (*o != '(')
				return -1;
			{
				char *s = o + 1, *e = pe - 1;

				while (*s == ' ')
					s++;
				n = (size_t)(e - s);
				if (all_digits(s, n))
					h->pid = digits_u64(s, n);
			}
			pe = o;
			while (pe > line && pe[-1] == ' ')
				pe--;
		}
		/* comm-tid: the tid follows the last '-' */
		dash = NULL;
		for (char *x = line; x < pe; x++)
			if (*x == '-')
				dash = x;
		if (!dash || !all_digits(dash + 1, (size_t)(pe - dash - 1)))
			return -1;
		h->tid = digits_u64(dash + 1, (size_t)(pe - dash - 1));
		{
			char *cs = line;

			while (*cs == ' ')
				cs++;
			n = dash > cs ? (size_t)(dash - cs) : 0;
			if (n >= sizeof(h->comm))
				n = sizeof(h->comm) - 1;
			memcpy(h->comm, cs, n);
			h->comm[n] = '\0';
		}
		return 0;
	}
	return -1;
}

static bool known_ignored(const char *ev)
{
	static const char *const names[] = {
		"sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait",
		"sched_stat_blocked", "sched_process_exec", "sched_process_free",
		"sched_process_wait", "sched_kthread_stop", "sched_kthread_stop_ret",
		"sched_wait_task", "sched_pi_setprio", "sched_move_numa",
		"sched_swap_numa", "sched_wake_idle_without_ipi",
		"task_newtask", "task_rename",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(ev, names[i]))
			return true;
	return false;
}

static int cpu_ok(struct imp *im, uint64_t cpu)
{
	if (cpu >= 4096) {
		bad(im, "CPU %" PRIu64 " out of range", cpu);
		return -1;
	}
	return 0;
}

static void marker_line(struct imp *im, const struct hdr *h, const char *text)
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

/* One event line (either text format) into events. */
static void event_line(struct imp *im, struct hdr *h)
{
	struct kv kv[MAX_KV];
	int n;
	struct ft_ev e = { 0 };
	char comm[64];
	uint64_t a, b2, c;

	if (cpu_ok(im, h->cpu))
		return;
	if (h->comm[0] && h->tid)
		name_task(im, h->tid, h->comm, (uint32_t)h->pid);
	else if (h->pid && h->tid)
		name_task(im, h->tid, NULL, (uint32_t)h->pid);
	e.ts = h->ts;
	e.cpu = (uint16_t)h->cpu;
	if (!strcmp(h->event, "tracing_mark_write") || !strcmp(h->event, "0")) {
		marker_line(im, h, h->args);
		return;
	}
	if (!strcmp(h->event, "print")) {
		const char *p = strstr(h->args, "buf=");

		if (p)
			p += 4;
		else if (!strncmp(h->args, "tracing_mark_write: ", 20))
			p = h->args + 20;
		else
			p = h->args;
		marker_line(im, h, p);
		return;
	}
	n = parse_kv(h->args, kv, MAX_KV);
	if (!strcmp(h->event, "sched_switch")) {
		char st[32];
		int preempt;
		uint64_t pprio = 120, nprio = 120;

		if (kv_u64(kv, n, "prev_pid", &a) || kv_u64(kv, n, "next_pid", &b2) ||
		    kv_str(kv, n, "prev_state", st, sizeof(st)) || a > UINT32_MAX ||
		    b2 > UINT32_MAX) {
			bad(im, "sched_switch without prev_pid, prev_state and next_pid");
			return;
		}
		kv_u64(kv, n, "prev_prio", &pprio);
		kv_u64(kv, n, "next_prio", &nprio);
		e.type = FT_EV_SWITCH;
		e.tid = (uint32_t)a;
		e.arg = (uint32_t)b2;
		e.arg2 = ft_parse_state(st, &preempt) |
			 (uint32_t)(pprio & 0xff) << 16 |
			 (uint32_t)(nprio & 0xff) << 24;
		if (preempt)
			e.flags |= FT_F_PREEMPT;
		if (!kv_str(kv, n, "prev_comm", comm, sizeof(comm)))
			name_task(im, a, comm, 0);
		if (!kv_str(kv, n, "next_comm", comm, sizeof(comm)))
			name_task(im, b2, comm, 0);
		push(im, &e);
	} else if (!strcmp(h->event, "sched_waking") ||
		   !strcmp(h->event, "sched_wakeup") ||
		   !strcmp(h->event, "sched_wakeup_new")) {
		uint64_t prio = 120, target = h->cpu;

		if (kv_u64(kv, n, "pid", &a) || a > UINT32_MAX) {
			bad(im, "%s without pid", h->event);
			return;
		}
		kv_u64(kv, n, "prio", &prio);
		kv_u64(kv, n, "target_cpu", &target);
		e.type = !strcmp(h->event, "sched_waking")	  ? FT_EV_WAKING
			 : !strcmp(h->event, "sched_wakeup") ? FT_EV_WAKEUP
							     : FT_EV_WAKEUP_NEW;
		e.tid = (uint32_t)a;
		e.arg = (uint32_t)h->tid;
		e.arg2 = (uint32_t)(target & 0xffff) | (uint32_t)(prio & 0xff) << 16;
		e.val = (uint64_t)h->pid << 32;
		if (h->irq)
			e.flags |= FT_F_IRQ;
		if (!kv_str(kv, n, "comm", comm, sizeof(comm)))
			name_task(im, a, comm, 0);
		push(im, &e);
	} else if (!strcmp(h->event, "sched_migrate_task")) {
		if (kv_u64(kv, n, "pid", &a) || kv_u64(kv, n, "orig_cpu", &b2) ||
		    kv_u64(kv, n, "dest_cpu", &c) || a > UINT32_MAX ||
		    b2 >= 4096 || c >= 4096) {
			bad(im, "sched_migrate_task without pid, orig_cpu, dest_cpu");
			return;
		}
		e.type = FT_EV_MIGRATE;
		e.tid = (uint32_t)a;
		e.arg = (uint32_t)b2;
		e.arg2 = (uint32_t)c;
		if (!kv_str(kv, n, "comm", comm, sizeof(comm)))
			name_task(im, a, comm, 0);
		push(im, &e);
	} else if (!strcmp(h->event, "sched_process_fork")) {
		if (kv_u64(kv, n, "pid", &a) || kv_u64(kv, n, "child_pid", &b2) ||
		    a > UINT32_MAX || b2 > UINT32_MAX) {
			bad(im, "sched_process_fork without pid, child_pid");
			return;
		}
		e.type = FT_EV_FORK;
		e.tid = (uint32_t)b2;
		e.arg = (uint32_t)a;
		if (!kv_str(kv, n, "child_comm", comm, sizeof(comm)))
			name_task(im, b2, comm, 0);
		push(im, &e);
	} else if (!strcmp(h->event, "sched_process_exit")) {
		if (kv_u64(kv, n, "pid", &a) || a > UINT32_MAX) {
			bad(im, "sched_process_exit without pid");
			return;
		}
		e.type = FT_EV_EXIT;
		e.tid = (uint32_t)a;
		e.arg = (uint32_t)h->pid;
		push(im, &e);
	} else if (!strcmp(h->event, "sched_stat_runtime")) {
		if (kv_u64(kv, n, "pid", &a) || kv_u64(kv, n, "runtime", &b2) ||
		    a > UINT32_MAX) {
			bad(im, "sched_stat_runtime without pid, runtime");
			return;
		}
		e.type = FT_EV_RUNTIME;
		e.tid = (uint32_t)a;
		e.val = b2;
		if (!kv_str(kv, n, "comm", comm, sizeof(comm)))
			name_task(im, a, comm, 0);
		push(im, &e);
	} else if (!strcmp(h->event, "sys_enter_futex") ||
		   !strcmp(h->event, "sys_exit_futex")) {
		/* futex syscalls need pairing; not imported (counted) */
		unknown_event(im, h->event);
	} else if (known_ignored(h->event)) {
		(void)kv_i64;
	} else {
		unknown_event(im, h->event);
	}
}

static void text_line(struct imp *im, char *line)
{
	struct hdr h;
	char *s = line;
	int rc;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#' || *s == '\r')
		return;
	if (im->fmt == FT_FMT_FTRACE && !strncmp(s, "CPU:", 4)) {
		const char *l = strstr(s, "[LOST ");

		if (l)
			im->lost += strtoull(l + 6, NULL, 10);
		return;
	}
	rc = im->fmt == FT_FMT_PERF ? parse_perf_header(line, &h)
				    : parse_ftrace_header(line, &h);
	if (rc) {
		bad(im, "not a %s event line: '%.60s'", ft_fmt_name(im->fmt), s);
		return;
	}
	event_line(im, &h);
}

static int import_text(struct imp *im, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	char line[LINE_MAX_LEN];
	size_t i = 0;

	while (i < len && !im->oom) {
		size_t j = i, n;
		const char *nl = memchr(buf + i, '\n', len - i);

		j = nl ? (size_t)(nl - buf) : len;
		im->line++;
		n = j - i;
		if (n >= sizeof(line)) {
			bad(im, "line longer than %zu bytes", sizeof(line) - 1);
		} else {
			memcpy(line, buf + i, n);
			line[n] = '\0';
			if (memchr(line, '\0', n))
				bad(im, "NUL byte in a text line");
			else
				text_line(im, line);
		}
		i = j + 1;
	}
	if (im->oom) {
		snprintf(err, errlen, "%s: out of memory", im->name);
		return -1;
	}
	return 0;
}

/* ---- MangoHud -------------------------------------------------------- */

static int import_mangohud(struct imp *im, const char *buf, size_t len,
			   char *err, size_t errlen)
{
	struct gs_mh_log log;
	FILE *f = fmemopen((void *)buf, len ? len : 1, "r");
	uint64_t t = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", im->name, strerror(errno));
		return -1;
	}
	if (gs_mh_read(f, im->name, &log, err, errlen)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (size_t i = 0; i < log.n; i++) {
		struct ft_frame fr = { 0 };
		double ft = log.frametime_ms[i];

		if (!(ft >= 0) || ft > 1e7)
			continue;
		fr.frametime_ns = (uint64_t)(ft * 1e6 + 0.5);
		if (log.has_elapsed && log.per_frame && log.elapsed_ns[i] >= t)
			t = log.elapsed_ns[i];
		else
			t += fr.frametime_ns;
		fr.present_ns = t;
		fr.start_ns = t >= fr.frametime_ns ? t - fr.frametime_ns : 0;
		fr.flags = FT_FRAME_MANGOHUD;
		if (ft_frame_push(im->t, &fr)) {
			gs_mh_free(&log);
			snprintf(err, errlen, "%s: out of memory", im->name);
			return -1;
		}
	}
	ft_meta_set(im->t, "mangohud_unit", "%s",
		    log.unit == GS_MH_US ? "us (v0.6.8 layout)" : "ms");
	ft_meta_set(im->t, "mangohud_rows", "%s",
		    log.per_frame ? "per frame" : "periodic samples");
	if (log.has_sysinfo) {
		ft_meta_set(im->t, "mangohud_cpu", "%s", log.sys.cpu);
		ft_meta_set(im->t, "mangohud_gpu", "%s", log.sys.gpu);
		ft_meta_set(im->t, "mangohud_kernel", "%s", log.sys.kernel);
	}
	if (!log.per_frame) {
		snprintf(im->first_bad, sizeof(im->first_bad),
			 "%s:%zu: rows are periodic samples (log_interval > 0), "
			 "not single frames: frame-time statistics describe "
			 "samples",
			 im->name, log.header_line);
		im->bad_lines++;
	}
	gs_mh_free(&log);
	return 0;
}

/* ---- detection and entry points ------------------------------------ */

enum ft_fmt ft_detect(const char *buf, size_t len)
{
	size_t i = 0, lines = 0;
	int perf = 0, ftrace = 0, mh = 0;
	char line[LINE_MAX_LEN];

	if (len >= 8 && !memcmp(buf, FT_MAGIC, 8))
		return FT_FMT_TRACE;
	while (i < len && lines < 400) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t j = nl ? (size_t)(nl - buf) : len, n = j - i;
		struct hdr h;

		lines++;
		if (n < sizeof(line)) {
			char *s;

			memcpy(line, buf + i, n);
			line[n] = '\0';
			s = line;
			while (*s == ' ' || *s == '\t')
				s++;
			if (!strncmp(s, "# tracer:", 9))
				ftrace += 10;
			else if (!strncmp(s, "fps,", 4) ||
				 !strncmp(s, "os,cpu,gpu", 10))
				mh += 10;
			else if (*s && *s != '#') {
				char copy[LINE_MAX_LEN];

				memcpy(copy, line, n + 1);
				if (!parse_perf_header(copy, &h))
					perf++;
				memcpy(copy, line, n + 1);
				if (!parse_ftrace_header(copy, &h))
					ftrace++;
			}
		}
		i = j + 1;
	}
	if (mh && mh >= perf && mh >= ftrace)
		return FT_FMT_MANGOHUD;
	if (perf > ftrace)
		return FT_FMT_PERF;
	if (ftrace > 0)
		return FT_FMT_FTRACE;
	return FT_FMT_UNKNOWN;
}

int ft_import_mem(const char *buf, size_t len, const char *name,
		  enum ft_fmt fmt, struct ft_trace *t, char *err,
		  size_t errlen)
{
	struct imp im = { .name = name, .t = t };
	int rc;

	ft_trace_init(t);
	if (fmt == FT_FMT_UNKNOWN)
		fmt = ft_detect(buf, len);
	im.fmt = fmt;
	switch (fmt) {
	case FT_FMT_PERF:
	case FT_FMT_FTRACE:
		rc = import_text(&im, buf, len, err, errlen);
		break;
	case FT_FMT_MANGOHUD:
		rc = import_mangohud(&im, buf, len, err, errlen);
		break;
	case FT_FMT_TRACE:
		return ft_trace_read_mem(buf, len, name, t, err, errlen);
	default:
		snprintf(err, errlen,
			 "%s: line 1: not a format frametrace knows (expected "
			 "perf script text, ftrace text, a MangoHud CSV log or a "
			 "frametrace trace)",
			 name);
		return -1;
	}
	if (rc) {
		ft_trace_free(t);
		return -1;
	}
	if ((fmt == FT_FMT_PERF || fmt == FT_FMT_FTRACE) && !im.events) {
		if (im.first_bad[0])
			snprintf(err, errlen,
				 "%s: no scheduler events recognised (%" PRIu64
				 " bad lines; first: %s)",
				 name, im.bad_lines, im.first_bad);
		else if (im.nunknown)
			snprintf(err, errlen,
				 "%s:%zu: no scheduler events, only unknown event "
				 "'%s' (record with 'perf sched record -k mono')",
				 name, im.unknown_first_line[0], im.unknown[0]);
		else
			snprintf(err, errlen, "%s: no events", name);
		ft_trace_free(t);
		return -1;
	}
	if (fmt == FT_FMT_MANGOHUD && !t->nframes) {
		snprintf(err, errlen, "%s: no frames", name);
		ft_trace_free(t);
		return -1;
	}
	t->lost_events = im.lost;
	ft_meta_set(t, "source", "import");
	ft_meta_set(t, "format", "%s", ft_fmt_name(fmt));
	ft_meta_set(t, "input", "%s", name);
	if (fmt == FT_FMT_PERF)
		ft_meta_set(t, "clock", "perf (monotonic with -k mono)");
	if (im.bad_lines)
		ft_meta_set(t, "skipped_lines", "%" PRIu64, im.bad_lines);
	if (ft_trace_finish(t)) {
		snprintf(err, errlen, "%s: out of memory", name);
		ft_trace_free(t);
		return -1;
	}
	t->skipped += im.bad_lines + im.unknown_lines;
	if (im.first_bad[0]) {
		t->partial = true;
		snprintf(t->warning, sizeof(t->warning),
			 "%s (%" PRIu64 " line%s skipped)", im.first_bad,
			 im.bad_lines, im.bad_lines == 1 ? "" : "s");
	}
	if (im.nunknown) {
		size_t o = strlen(t->warning);
		char list[300] = "";

		for (int k = 0; k < im.nunknown; k++) {
			size_t l = strlen(list);

			snprintf(list + l, sizeof(list) - l, "%s%s (%" PRIu64 ")",
				 k ? ", " : "", im.unknown[k], im.unknown_count[k]);
		}
		snprintf(t->warning + o, sizeof(t->warning) - o,
			 "%s%s:%zu: unknown events skipped: %s", o ? "; " : "",
			 name, im.unknown_first_line[0], list);
		t->partial = true;
		ft_meta_set(t, "unknown_events", "%s", list);
	}
	return t->partial ? 1 : 0;
}

int ft_load_mem(const char *buf, size_t len, const char *name,
		struct ft_trace *t, char *err, size_t errlen)
{
	return ft_import_mem(buf, len, name, FT_FMT_UNKNOWN, t, err, errlen);
}

int ft_load(const char *path, struct ft_trace *t, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	ft_trace_init(t);
	if (ft_slurp(path, &buf, &len, err, errlen))
		return -1;
	rc = ft_load_mem(buf, len, path, t, err, errlen);
	free(buf);
	return rc;
}
