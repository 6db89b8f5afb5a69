// SPDX-License-Identifier: GPL-2.0-only
/* The in-memory trace, the .ftr file format (trace.h), and the repair of
 * missing sched_switch records every reader runs. */
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftutil.h"
#include "marker.h"

/* ---- basic containers ------------------------------------------------ */

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

/* ---- CRC-32 (IEEE) -------------------------------------------------- */

uint32_t ft_crc32(const void *buf, size_t len)
{
	static uint32_t table[256];
	static int ready;
	const uint8_t *p = buf;
	uint32_t c = 0xffffffffu;

	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t x = i;

			for (int k = 0; k < 8; k++)
				x = (x & 1) ? 0xedb88320u ^ (x >> 1) : x >> 1;
			table[i] = x;
		}
		ready = 1;
	}
	while (len--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* ---- sorting and repair ---------------------------------------------- */

static void merge_sort(struct ft_ev *a, struct ft_ev *tmp, size_t n)
{
	/* bottom-up, stable; runs of already sorted input are cheap */
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			if (mid >= hi || a[mid - 1].ts <= a[mid].ts) {
				continue;
			}
			while (i < mid && j < hi)
				tmp[k++] = a[j].ts < a[i].ts ? a[j++] : a[i++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
			memcpy(a + lo, tmp + lo, (hi - lo) * sizeof(*a));
		}
	}
}

static bool is_sorted(const struct ft_ev *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (a[i].ts < a[i - 1].ts)
			return false;
	return true;
}

struct fix_task {
	uint64_t last_sum;	/* sum_exec_runtime at its last switch-out */
	uint64_t rt_acc;	/* sched_stat_runtime since its last switch-out */
	uint64_t last_ready;	/* last wake-up or migration */
	bool has_sum;
};

struct synth {
	size_t pos;		/* insert before original event pos */
	struct ft_ev ev;
};

static int synth_cmp(const void *a, const void *b)
{
	const struct synth *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return 0;
}

/* Index of the first event with ts > v, searching [0, hi). */
static size_t upper_bound(const struct ft_ev *a, size_t hi, uint64_t v)
{
	size_t lo = 0;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (a[m].ts <= v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

#define FT_CPU_LIMIT 4096

static int repair_switches(struct ft_trace *t)
{
	uint32_t ncpu = 0;
	int64_t *cur = NULL;
	uint64_t *since = NULL;
	struct ft_map idx;
	struct fix_task *ft = NULL;
	size_t nft = 0, ftcap = 0;
	struct synth *sy = NULL;
	size_t nsy = 0, sycap = 0;
	int rc = -1;

	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_SWITCH && t->ev[i].cpu >= ncpu)
			ncpu = t->ev[i].cpu + 1u;
	if (!ncpu)
		return 0;
	ft_map_init(&idx);
	cur = malloc(ncpu * sizeof(*cur));
	since = calloc(ncpu, sizeof(*since));
	if (!cur || !since)
		goto out;
	for (uint32_t c = 0; c < ncpu; c++)
		cur[c] = -1;

#define TASK(tid_)                                                        \
	({                                                                \
		bool isnew_;                                              \
		uint32_t *v_ = ft_map_put(&idx, (tid_), (uint32_t)nft,    \
					  &isnew_);                       \
		struct fix_task *r_ = NULL;                               \
		if (v_) {                                                 \
			if (isnew_) {                                     \
				if (FT_VEC_RESERVE(ft, nft, ftcap)) {     \
					goto out;                         \
				}                                         \
				memset(&ft[nft], 0, sizeof(ft[nft]));     \
				nft++;                                    \
			}                                                 \
			r_ = &ft[*v_];                                    \
		}                                                         \
		r_;                                                       \
	})

	for (size_t i = 0; i < t->nev; i++) {
		struct ft_ev *e = &t->ev[i];
		struct fix_task *p;
		uint16_t c = e->cpu;

		switch (e->type) {
		case FT_EV_WAKING:
		case FT_EV_WAKEUP:
		case FT_EV_WAKEUP_NEW:
		case FT_EV_MIGRATE:
			p = TASK(e->tid);
			if (!p)
				goto out;
			p->last_ready = e->ts;
			break;
		case FT_EV_RUNTIME:
			p = TASK(e->tid);
			if (!p)
				goto out;
			p->rt_acc += e->val;
			break;
		case FT_EV_SWITCH:
			if (e->flags & FT_F_RECONSTRUCTED) {
				/* repaired by an earlier reader */
				if (e->tid == 0)
					t->reconstructed++;
				else
					t->inconsistent++;
			}
			p = TASK(e->tid);
			if (!p)
				goto out;
			if (cur[c] >= 0 && cur[c] != (int64_t)e->tid) {
				struct synth *s;
				uint64_t lo = since[c], est;

				if (p->last_ready > lo && p->last_ready <= e->ts)
					lo = p->last_ready;
				if ((e->flags & FT_F_SUMEXEC) && p->has_sum &&
				    e->val >= p->last_sum &&
				    e->val - p->last_sum <= e->ts)
					est = e->ts - (e->val - p->last_sum);
				else if (p->rt_acc && p->rt_acc <= e->ts)
					est = e->ts - p->rt_acc;
				else
					est = lo;
				if (est < lo)
					est = lo;
				if (est > e->ts)
					est = e->ts;
				if (FT_VEC_RESERVE(sy, nsy, sycap))
					goto out;
				s = &sy[nsy++];
				memset(s, 0, sizeof(*s));
				s->ev.ts = est;
				s->ev.type = FT_EV_SWITCH;
				s->ev.flags = FT_F_RECONSTRUCTED;
				s->ev.cpu = c;
				s->ev.tid = (uint32_t)cur[c];
				s->ev.arg = e->tid;
				s->ev.arg2 = cur[c] == 0 ? 0 : FT_STATE_UNKNOWN;
				s->pos = upper_bound(t->ev, i, est);
				if (cur[c] == 0)
					t->reconstructed++;
				else
					t->inconsistent++;
			}
			if (e->flags & FT_F_SUMEXEC) {
				p->last_sum = e->val;
				p->has_sum = true;
			}
			p->rt_acc = 0;
			cur[c] = e->arg;
			since[c] = e->ts;
			break;
		default:
			break;
		}
	}
#undef TASK

	if (nsy) {
		struct ft_ev *n = malloc((t->nev + nsy) * sizeof(*n));
		size_t k = 0, j = 0;

		if (!n)
			goto out;
		qsort(sy, nsy, sizeof(*sy), synth_cmp);
		for (size_t i = 0; i <= t->nev; i++) {
			while (j < nsy && sy[j].pos == i)
				n[k++] = sy[j++].ev;
			if (i < t->nev)
				n[k++] = t->ev[i];
		}
		free(t->ev);
		t->ev = n;
		t->nev = k;
		t->evcap = k;
	}
	rc = 0;
out:
	free(cur);
	free(since);
	free(ft);
	free(sy);
	ft_map_free(&idx);
	return rc;
}

static void learn_tgids(struct ft_trace *t)
{
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];
		uint32_t a = 0, ap = 0, b = 0, bp = 0;

		switch (e->type) {
		case FT_EV_WAKING:
		case FT_EV_WAKEUP:
		case FT_EV_WAKEUP_NEW:
			a = e->tid;
			ap = (uint32_t)e->val;
			if (!(e->flags & FT_F_IRQ)) {
				b = e->arg;
				bp = (uint32_t)(e->val >> 32);
			}
			break;
		case FT_EV_FORK:
			a = e->tid;
			ap = e->arg2;
			b = e->arg;
			bp = (uint32_t)e->val;
			break;
		case FT_EV_MIGRATE:
			a = e->tid;
			ap = (uint32_t)e->val;
			break;
		case FT_EV_EXIT:
			a = e->tid;
			ap = e->arg;
			break;
		default:
			continue;
		}
		if (a && ap && !ft_task_pid(t, a))
			ft_task_set(t, a, ap, NULL);
		if (b && bp && !ft_task_pid(t, b))
			ft_task_set(t, b, bp, NULL);
	}
}

int ft_trace_finish(struct ft_trace *t)
{
	if (!is_sorted(t->ev, t->nev)) {
		struct ft_ev *tmp = malloc(t->nev * sizeof(*tmp));

		if (!tmp)
			return -1;
		merge_sort(t->ev, tmp, t->nev);
		free(tmp);
	}
	t->reconstructed = 0;
	t->inconsistent = 0;
	if (repair_switches(t))
		return -1;
	learn_tgids(t);
	if (!t->nframes && ft_frames_from_marks(t) < 0)
		return -1;
	ft_frames_fix(t);
	ft_frames_annotate_tids(t);
	if (t->nev) {
		if (!t->start_ns || t->start_ns > t->ev[0].ts)
			t->start_ns = t->ev[0].ts;
		if (t->end_ns < t->ev[t->nev - 1].ts)
			t->end_ns = t->ev[t->nev - 1].ts;
	}
	for (size_t i = 0; i < t->nframes; i++) {
		const struct ft_frame *f = &t->frames[i];
		uint64_t s = f->start_ns ? f->start_ns : f->present_ns;

		if (!t->start_ns || s < t->start_ns)
			t->start_ns = s;
		if (f->present_ns > t->end_ns)
			t->end_ns = f->present_ns;
	}
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].cpu >= t->ncpus && t->ev[i].cpu < FT_CPU_LIMIT)
			t->ncpus = t->ev[i].cpu + 1u;
	t->finished = true;
	return 0;
}

/* ---- writing --------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static int write_chunk(FILE *f, uint32_t type, uint32_t count,
		       const void *payload, uint64_t len, uint64_t *bytes)
{
	uint8_t h[FT_CHUNK_HDR] = { 0 };
	static const uint8_t zero[8];
	size_t pad = (size_t)((8 - (len & 7)) & 7);

	put32(h, type);
	put32(h + 4, count);
	put64(h + 8, len);
	put32(h + 16, len ? ft_crc32(payload, (size_t)len) : 0);
	if (fwrite(h, sizeof(h), 1, f) != 1)
		return -1;
	if (len && fwrite(payload, (size_t)len, 1, f) != 1)
		return -1;
	if (pad && fwrite(zero, pad, 1, f) != 1)
		return -1;
	if (bytes)
		*bytes += sizeof(h) + len + pad;
	return 0;
}

static int write_header(FILE *f, uint32_t ncpus, uint64_t start,
			uint64_t end)
{
	uint8_t h[FT_HEADER_SIZE] = { 0 };

	memcpy(h, FT_MAGIC, 8);
	put32(h + 8, FT_VERSION);
	put32(h + 12, FT_HEADER_SIZE);
	put32(h + 16, sizeof(struct ft_ev));
	put32(h + 20, ncpus);
	put64(h + 24, start);
	put64(h + 32, end);
	return fwrite(h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

static int write_meta(FILE *f, const struct ft_trace *t, uint64_t *bytes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	for (size_t i = 0; i < t->nmeta; i++)
		if (strcmp(t->meta[i].key, "lost_events"))
			fprintf(m, "%s=%s\n", t->meta[i].key, t->meta[i].val);
	fprintf(m, "lost_events=%" PRIu64 "\n", t->lost_events);
	fclose(m);
	rc = write_chunk(f, FT_CHUNK_META, (uint32_t)t->nmeta, buf, len,
			 bytes);
	free(buf);
	return rc;
}

static int write_strings(FILE *f, char *const *s, size_t n, uint64_t *bytes)
{
	size_t len = 0, off = 0;
	char *buf;
	int rc;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	buf = malloc(len);
	if (!buf)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(s[i]) + 1;

		memcpy(buf + off, s[i], l);
		off += l;
	}
	rc = write_chunk(f, FT_CHUNK_STRINGS, (uint32_t)n, buf, len, bytes);
	free(buf);
	return rc;
}

#define EVENTS_PER_CHUNK (1u << 20)

static int write_events(FILE *f, const struct ft_ev *ev, size_t n,
			uint64_t *bytes)
{
	for (size_t i = 0; i < n; i += EVENTS_PER_CHUNK) {
		size_t k = n - i < EVENTS_PER_CHUNK ? n - i : EVENTS_PER_CHUNK;

		if (write_chunk(f, FT_CHUNK_EVENTS, (uint32_t)k, ev + i,
				k * sizeof(*ev), bytes))
			return -1;
	}
	return 0;
}

static int write_tail(FILE *f, const struct ft_trace *t, uint64_t *bytes)
{
	if (write_meta(f, t, bytes))
		return -1;
	if (t->ntasks && write_chunk(f, FT_CHUNK_TASKS, (uint32_t)t->ntasks,
				     t->tasks, t->ntasks * sizeof(*t->tasks),
				     bytes))
		return -1;
	if (t->nframes &&
	    write_chunk(f, FT_CHUNK_FRAMES, (uint32_t)t->nframes, t->frames,
			t->nframes * sizeof(*t->frames), bytes))
		return -1;
	return write_chunk(f, FT_CHUNK_END, 0, NULL, 0, bytes);
}

int ft_trace_write(const struct ft_trace *t, const char *path, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "wb");
	uint64_t bytes = FT_HEADER_SIZE;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_header(f, t->ncpus, t->start_ns, t->end_ns) ||
	    write_strings(f, t->str, t->nstr, &bytes) ||
	    write_events(f, t->ev, t->nev, &bytes) || write_tail(f, t, &bytes)) {
		snprintf(err, errlen, "%s: write failed: %s", path,
			 strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int ft_writer_open(struct ft_writer *w, const char *path, uint32_t ncpus,
		   uint64_t start_ns, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->f = fopen(path, "wb");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_header(w->f, ncpus, start_ns, 0)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(w->f);
		w->f = NULL;
		return -1;
	}
	w->bytes = FT_HEADER_SIZE;
	return 0;
}

int ft_writer_events(struct ft_writer *w, const struct ft_ev *ev, size_t n)
{
	if (!n)
		return 0;
	if (write_events(w->f, ev, n, &w->bytes)) {
		w->error = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ft_writer_strings(struct ft_writer *w, char *const *s, size_t n)
{
	if (write_strings(w->f, s, n, &w->bytes)) {
		w->error = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ft_writer_close(struct ft_writer *w, const struct ft_trace *t,
		    uint64_t end_ns, char *err, size_t errlen)
{
	uint8_t buf[8];
	int rc = 0;

	if (!w->f)
		return -1;
	if (w->error || write_tail(w->f, t, &w->bytes)) {
		snprintf(err, errlen, "%s: write failed: %s", w->path,
			 strerror(w->error ? w->error : errno));
		rc = -1;
	}
	put64(buf, end_ns);
	if (!rc && (fseek(w->f, 32, SEEK_SET) ||
		    fwrite(buf, 8, 1, w->f) != 1)) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	if (fclose(w->f) && !rc) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	w->f = NULL;
	return rc;
}

/* ---- reading --------------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static const char *chunk_name(uint32_t type)
{
	switch (type) {
	case FT_CHUNK_META: return "META";
	case FT_CHUNK_EVENTS: return "EVENTS";
	case FT_CHUNK_TASKS: return "TASKS";
	case FT_CHUNK_FRAMES: return "FRAMES";
	case FT_CHUNK_STRINGS: return "STRINGS";
	case FT_CHUNK_END: return "END";
	default: return "unknown";
	}
}

static void warn_once(struct ft_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_once(struct ft_trace *t, const char *fmt, ...)
{
	va_list ap;

	t->partial = true;
	if (t->warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->warning, sizeof(t->warning), fmt, ap);
	va_end(ap);
}

static bool event_ok(const struct ft_ev *e)
{
	return e->type > FT_EV_NONE && e->type < FT_EV_NTYPES &&
	       e->cpu < FT_CPU_LIMIT;
}

static int read_events(struct ft_trace *t, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ft_ev e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		if (!event_ok(&e)) {
			t->skipped++;
			continue;
		}
		if (ft_trace_push(t, &e))
			return -1;
	}
	return 0;
}

static void read_meta(struct ft_trace *t, const char *p, size_t len)
{
	char line[1200];
	size_t i = 0;

	while (i < len) {
		size_t j = i, l;
		char *eq;

		while (j < len && p[j] != '\n')
			j++;
		l = j - i < sizeof(line) - 1 ? j - i : sizeof(line) - 1;
		memcpy(line, p + i, l);
		line[l] = '\0';
		/* stop at embedded NULs */
		line[strlen(line)] = '\0';
		eq = strchr(line, '=');
		if (eq && eq != line) {
			*eq = '\0';
			ft_meta_set(t, line, "%s", eq + 1);
			if (!strcmp(line, "lost_events"))
				t->lost_events = strtoull(eq + 1, NULL, 10);
		}
		i = j + 1;
	}
}

int ft_trace_read_mem(const void *buf, size_t len, const char *name,
		      struct ft_trace *t, char *err, size_t errlen)
{
	const uint8_t *b = buf;
	uint32_t version, hsize, esize;
	size_t off;
	bool end_seen = false;

	ft_trace_init(t);
	if (len < FT_HEADER_SIZE) {
		snprintf(err, errlen,
			 "%s: offset 0: file too short for a frametrace header "
			 "(%zu of %d bytes)",
			 name, len, FT_HEADER_SIZE);
		return -1;
	}
	if (memcmp(b, FT_MAGIC, 8)) {
		snprintf(err, errlen,
			 "%s: offset 0: not a frametrace trace file (bad magic; "
			 "use 'frametrace import' for perf, ftrace or MangoHud "
			 "text)",
			 name);
		return -1;
	}
	version = get32(b + 8);
	hsize = get32(b + 12);
	esize = get32(b + 16);
	if (version != FT_VERSION) {
		snprintf(err, errlen,
			 "%s: offset 8: unsupported trace file version %u "
			 "(this frametrace reads version %d)",
			 name, version, FT_VERSION);
		return -1;
	}
	if (hsize < FT_HEADER_SIZE || hsize > len) {
		snprintf(err, errlen, "%s: offset 12: bad header size %u", name,
			 hsize);
		return -1;
	}
	if (esize != sizeof(struct ft_ev)) {
		snprintf(err, errlen,
			 "%s: offset 16: bad event size %u (expected %zu)",
			 name, esize, sizeof(struct ft_ev));
		return -1;
	}
	t->ncpus = get32(b + 20);
	if (t->ncpus > FT_CPU_LIMIT)
		t->ncpus = 0;
	t->start_ns = get64(b + 24);
	t->end_ns = get64(b + 32);

	for (off = hsize; off < len;) {
		uint32_t type, count, crc;
		uint64_t clen, padded;
		const uint8_t *p;

		if (len - off < FT_CHUNK_HDR) {
			warn_once(t,
				  "%s: offset %zu: truncated chunk header (%zu of "
				  "%d bytes): file cut short",
				  name, off, len - off, FT_CHUNK_HDR);
			break;
		}
		type = get32(b + off);
		count = get32(b + off + 4);
		clen = get64(b + off + 8);
		crc = get32(b + off + 16);
		p = b + off + FT_CHUNK_HDR;
		if (clen > len - off - FT_CHUNK_HDR) {
			size_t avail = len - off - FT_CHUNK_HDR;

			warn_once(t,
				  "%s: offset %zu: %s chunk of %" PRIu64
				  " bytes runs past the end of the file (%zu "
				  "left): file cut short",
				  name, off, chunk_name(type), clen, avail);
			/* salvage the whole events that are there */
			if (type == FT_CHUNK_EVENTS &&
			    read_events(t, p, avail / sizeof(struct ft_ev)))
				goto nomem;
			break;
		}
		padded = (clen + 7) & ~7ULL;
		if (ft_crc32(p, (size_t)clen) != crc) {
			warn_once(t,
				  "%s: offset %zu: %s chunk checksum mismatch: "
				  "corrupted, %u records skipped",
				  name, off, chunk_name(type), count);
			off += FT_CHUNK_HDR +
			       (size_t)(padded <= len - off - FT_CHUNK_HDR ? padded
									  : clen);
			continue;
		}
		switch (type) {
		case FT_CHUNK_META:
			read_meta(t, (const char *)p, (size_t)clen);
			break;
		case FT_CHUNK_EVENTS:
			if (clen != (uint64_t)count * sizeof(struct ft_ev)) {
				warn_once(t,
					  "%s: offset %zu: EVENTS chunk length "
					  "%" PRIu64 " does not match %u events",
					  name, off, clen, count);
				break;
			}
			if (read_events(t, p, count))
				goto nomem;
			break;
		case FT_CHUNK_TASKS:
			if (clen != (uint64_t)count * sizeof(struct ft_task_rec)) {
				warn_once(t,
					  "%s: offset %zu: TASKS chunk length "
					  "%" PRIu64 " does not match %u tasks",
					  name, off, clen, count);
				break;
			}
			for (uint32_t i = 0; i < count; i++) {
				struct ft_task_rec r;
				struct ft_task_rec *m;

				memcpy(&r, p + i * sizeof(r), sizeof(r));
				r.comm[FT_COMM_LEN - 1] = '\0';
				if (ft_task_set(t, r.tid, r.pid, r.comm))
					goto nomem;
				m = ft_task_get_mut(t, r.tid);
				if (m)
					m->flags = r.flags;
			}
			break;
		case FT_CHUNK_FRAMES:
			if (clen != (uint64_t)count * sizeof(struct ft_frame)) {
				warn_once(t,
					  "%s: offset %zu: FRAMES chunk length "
					  "%" PRIu64 " does not match %u frames",
					  name, off, clen, count);
				break;
			}
			for (uint32_t i = 0; i < count; i++) {
				struct ft_frame fr;

				memcpy(&fr, p + i * sizeof(fr), sizeof(fr));
				if (ft_frame_push(t, &fr))
					goto nomem;
			}
			break;
		case FT_CHUNK_STRINGS: {
			size_t i = 0;
			uint32_t got = 0;

			while (i < clen && got < count) {
				const char *s = (const char *)p + i;
				size_t l = strnlen(s, (size_t)clen - i);

				if (i + l >= clen)
					break; /* unterminated */
				if (ft_str_add(t, s) < 0)
					goto nomem;
				got++;
				i += l + 1;
			}
			if (got != count)
				warn_once(t,
					  "%s: offset %zu: STRINGS chunk holds %u "
					  "of %u strings",
					  name, off, got, count);
			break;
		}
		case FT_CHUNK_END:
			end_seen = true;
			break;
		default:
			break; /* unknown chunk: skipped (forward compatible) */
		}
		off += FT_CHUNK_HDR + (size_t)(padded <= len - off - FT_CHUNK_HDR
						       ? padded
						       : clen);
	}
	if (!end_seen)
		warn_once(t,
			  "%s: no END chunk: the recorder did not finish (file "
			  "cut short?); using what was written",
			  name);
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == FT_EV_MARK && t->ev[i].arg2 >= t->nstr)
			t->ev[i].arg2 = UINT32_MAX; /* string lost */
	if (ft_trace_finish(t))
		goto nomem;
	return t->partial ? 1 : 0;
nomem:
	snprintf(err, errlen, "%s: out of memory", name);
	ft_trace_free(t);
	return -1;
}

int ft_trace_read(const char *path, struct ft_trace *t, char *err,
		  size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	ft_trace_init(t);
	if (ft_slurp(path, &buf, &len, err, errlen))
		return -1;
	rc = ft_trace_read_mem(buf, len, path, t, err, errlen);
	free(buf);
	return rc;
}
