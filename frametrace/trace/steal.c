// SPDX-License-Identifier: GPL-2.0-only
#include "steal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


int ft_steal_init(struct ft_steal *s, int ncpus, size_t cap, const char *path)
{
	memset(s, 0, sizeof(*s));
	if (ncpus < 1 || cap < 2)
		return -1;
	s->ncpus = ncpus;
	s->cap = cap;
	s->path = path ? path : "/proc/stat";
	s->ts = calloc(cap, sizeof(*s->ts));
	s->ticks = calloc(cap * (size_t)ncpus, sizeof(*s->ticks));
	s->read = calloc((size_t)ncpus, sizeof(*s->read));
	if (!s->ts || !s->ticks || !s->read) {
		ft_steal_free(s);
		return -1;
	}
	return 0;
}

void ft_steal_free(struct ft_steal *s)
{
	free(s->ts);
	free(s->ticks);
	free(s->read);
	memset(s, 0, sizeof(*s));
}

int ft_steal_sample(struct ft_steal *s, uint64_t now)
{
	size_t slot = s->head;

	if (!s->cap || gs_cputimes_read(s->path, NULL, s->read, s->ncpus) < 0)
		return -1;
	s->ts[slot] = now;
	for (int c = 0; c < s->ncpus; c++)
		s->ticks[slot * (size_t)s->ncpus + (size_t)c] = s->read[c].steal;
	s->head = (slot + 1) % s->cap;
	if (s->n < s->cap)
		s->n++;
	return 0;
}

/* The i-th oldest sample's slot. */
static size_t slot_of(const struct ft_steal *s, size_t i)
{
	return (s->head + s->cap - s->n + i) % s->cap;
}

int ft_steal_window(const struct ft_steal *s, uint64_t lo, uint64_t hi,
		    struct ft_steal_sum *out)
{
	size_t a = 0, b, sa, sb;
	long hz = sysconf(_SC_CLK_TCK);

	memset(out, 0, sizeof(*out));
	if (s->n < 2 || hz <= 0)
		return -1;
	b = s->n - 1;
	for (size_t i = 0; i < s->n; i++)
		if (s->ts[slot_of(s, i)] <= lo)
			a = i;
	for (size_t i = s->n; i-- > 0;)
		if (s->ts[slot_of(s, i)] >= hi)
			b = i;
	if (b <= a)
		b = a + 1 < s->n ? a + 1 : a;
	if (b == a)
		return -1;
	sa = slot_of(s, a);
	sb = slot_of(s, b);
	out->span_ns = s->ts[sb] - s->ts[sa];
	out->ncpus = s->ncpus;
	for (int c = 0; c < s->ncpus; c++) {
		unsigned long long t0 = s->ticks[sa * (size_t)s->ncpus + (size_t)c];
		unsigned long long t1 = s->ticks[sb * (size_t)s->ncpus + (size_t)c];
		uint64_t ns = t1 > t0 ? (uint64_t)(t1 - t0) * (1000000000ULL / (uint64_t)hz) : 0;
		int k, n;

		out->total_ns += ns;
		/* keep the FT_STEAL_TOP largest, largest first */
		for (k = 0; k < out->ntop && out->top_ns[k] >= ns; k++)
			;
		if (!ns || k == FT_STEAL_TOP)
			continue;
		n = out->ntop < FT_STEAL_TOP ? out->ntop : FT_STEAL_TOP - 1;
		memmove(&out->top_ns[k + 1], &out->top_ns[k], (size_t)(n - k) * sizeof(out->top_ns[0]));
		memmove(&out->top_cpu[k + 1], &out->top_cpu[k], (size_t)(n - k) * sizeof(out->top_cpu[0]));
		out->top_ns[k] = ns;
		out->top_cpu[k] = (uint32_t)c;
		out->ntop = n + 1;
	}
	return 0;
}

void ft_steal_meta_set(struct ft_trace *t, const struct ft_steal_sum *sum)
{
	char top[FT_STEAL_TOP * 32] = "";
	size_t off = 0;

	for (int k = 0; k < sum->ntop && off < sizeof(top); k++)
		off += (size_t)snprintf(top + off, sizeof(top) - off, "%s%" PRIu32 ":%" PRIu64,
					k ? " " : "", sum->top_cpu[k], sum->top_ns[k]);
	ft_meta_set(t, "steal_total_ns", "%" PRIu64, sum->total_ns);
	ft_meta_set(t, "steal_span_ns", "%" PRIu64, sum->span_ns);
	ft_meta_set(t, "steal_ncpus", "%d", sum->ncpus);
	ft_meta_set(t, "steal_top", "%s", top);
}

int ft_steal_meta_get(const struct ft_trace *t, struct ft_steal_sum *sum)
{
	const char *tot = ft_meta_get(t, "steal_total_ns");
	const char *span = ft_meta_get(t, "steal_span_ns");
	const char *nc = ft_meta_get(t, "steal_ncpus");
	const char *top = ft_meta_get(t, "steal_top");
	char *end;

	memset(sum, 0, sizeof(*sum));
	if (!tot || !span || !nc)
		return -1;
	sum->total_ns = strtoull(tot, &end, 10);
	if (*end)
		return -1;
	sum->span_ns = strtoull(span, &end, 10);
	if (*end)
		return -1;
	sum->ncpus = (int)strtol(nc, &end, 10);
	if (*end || sum->ncpus < 1)
		return -1;
	while (top && *top && sum->ntop < FT_STEAL_TOP) {
		unsigned long cpu = strtoul(top, &end, 10);

		if (*end != ':')
			break;
		sum->top_cpu[sum->ntop] = (uint32_t)cpu;
		sum->top_ns[sum->ntop] = strtoull(end + 1, &end, 10);
		sum->ntop++;
		top = end;
		/* cppcheck-suppress nullPointerRedundantCheck ; strtoull set end */
		while (*top == ' ')
			top++;
	}
	return 0;
}
