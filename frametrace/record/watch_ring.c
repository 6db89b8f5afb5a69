// SPDX-License-Identifier: GPL-2.0-only
/* The ring of recent events of frametrace watch (watch.h): the in-kernel
 * per-CPU flight ring, or the user-space ring, and the copy of it a
 * pending capture takes. */
#include "watch.h"

#include <stdlib.h>
#include <string.h>

#include "trace/ftutil.h"

int ft_flight_init(struct ft_flight *fl, const struct ft_bpf *b, bool user,
		   uint64_t slots_per_cpu)
{
	memset(fl, 0, sizeof(*fl));
	fl->b = b;
	fl->user = user;
	fl->copied = calloc((size_t)b->ncpus + 1, sizeof(*fl->copied));
	if (user) {
		fl->ucap = (size_t)slots_per_cpu * (size_t)b->ncpus;
		fl->uring = malloc(fl->ucap * sizeof(*fl->uring));
	}
	return !fl->copied || (user && !fl->uring) ? -1 : 0;
}

void ft_flight_free(struct ft_flight *fl)
{
	free(fl->copy);
	free(fl->copied);
	free(fl->uring);
}

void ft_flight_add(struct ft_flight *fl, const struct ft_ev *e)
{
	fl->uring[fl->uhead % fl->ucap] = *e;
	fl->uhead++;
}

void ft_flight_copy_reset(struct ft_flight *fl)
{
	fl->ncopy = 0;
}

static int copy_push(struct ft_flight *fl, uint64_t idx, const struct ft_ev *e)
{
	if (FT_VEC_RESERVE(fl->copy, fl->ncopy, fl->copycap))
		return -1;
	fl->copy[fl->ncopy].idx = idx;
	fl->copy[fl->ncopy].ev = *e;
	fl->ncopy++;
	return 0;
}

static int copy_user_ring(struct ft_flight *fl, bool first)
{
	uint64_t from = fl->uhead > fl->ucap ? fl->uhead - fl->ucap : 0;

	if (first)
		fl->copied[0] = from;
	if (fl->copied[0] < from) {
		fl->overwritten += from - fl->copied[0];
		fl->copied[0] = from;
	}
	for (uint64_t i = fl->copied[0]; i < fl->uhead; i++)
		if (copy_push(fl, i, &fl->uring[i % fl->ucap]))
			return -1;
	fl->copied[0] = fl->uhead;
	return 0;
}

/* The BPF programs keep writing while we copy: a slot is whole when its
 * seq says index + 1 both before and after the copy. */
static int copy_kernel_cpu(struct ft_flight *fl, int c, bool first)
{
	const struct ft_bpf *b = fl->b;
	uint64_t head = __atomic_load_n(&b->heads[c].head, __ATOMIC_ACQUIRE);
	uint64_t spc = b->slots_per_cpu;
	uint64_t from = head > spc ? head - spc : 0;

	if (first)
		fl->copied[c] = from;
	if (fl->copied[c] < from) {
		fl->overwritten += from - fl->copied[c];
		fl->copied[c] = from;
	}
	for (uint64_t i = fl->copied[c]; i < head; i++) {
		volatile struct ft_slot *s =
			&b->flight[(uint64_t)c * spc + (i & (spc - 1))];
		struct ft_ev e;
		uint64_t s1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), s2;

		if (s1 != i + 1) {
			fl->torn++;
			continue;
		}
		memcpy(&e, (const void *)&s->ev, sizeof(e));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
		if (s2 != s1) {
			fl->torn++;
			continue;
		}
		if (copy_push(fl, i, &e))
			return -1;
	}
	fl->copied[c] = head;
	return 0;
}

/* A recorder's continuous drain of one CPU: stops at a slot the program
 * has not finished writing (its index is taken before it is written), to
 * read it next time; a slot already rewritten by a later lap is lost. */
static int drain_kernel_cpu(struct ft_flight *fl, int c)
{
	const struct ft_bpf *b = fl->b;
	uint64_t head = __atomic_load_n(&b->heads[c].head, __ATOMIC_ACQUIRE);
	uint64_t spc = b->slots_per_cpu;
	uint64_t from = head > spc ? head - spc : 0;
	uint64_t i;

	if (fl->copied[c] < from) {
		fl->overwritten += from - fl->copied[c];
		fl->copied[c] = from;
	}
	for (i = fl->copied[c]; i < head; i++) {
		volatile struct ft_slot *s =
			&b->flight[(uint64_t)c * spc + (i & (spc - 1))];
		struct ft_ev e;
		uint64_t s1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), s2;

		if (s1 < i + 1)
			break; /* being written: next time */
		if (s1 > i + 1) {
			fl->overwritten++;
			continue;
		}
		memcpy(&e, (const void *)&s->ev, sizeof(e));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
		if (s2 != s1) {
			fl->overwritten++;
			continue;
		}
		if (copy_push(fl, i, &e))
			return -1;
	}
	fl->copied[c] = i;
	return 0;
}

int ft_flight_drain(struct ft_flight *fl)
{
	for (int c = 0; c < fl->b->ncpus; c++)
		if (drain_kernel_cpu(fl, c))
			return -1;
	return 0;
}

int ft_flight_copy(struct ft_flight *fl, bool first)
{
	if (fl->user)
		return copy_user_ring(fl, first);
	for (int c = 0; c < fl->b->ncpus; c++)
		if (copy_kernel_cpu(fl, c, first))
			return -1;
	return 0;
}

static int ring_ev_cmp(const void *a, const void *b)
{
	const struct ft_ring_ev *x = a, *y = b;

	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void ft_flight_copy_sort(struct ft_flight *fl)
{
	if (fl->ncopy > 1)
		qsort(fl->copy, fl->ncopy, sizeof(*fl->copy), ring_ev_cmp);
}
