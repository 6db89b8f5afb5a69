// SPDX-License-Identifier: GPL-2.0-only
#include "ftutil.h"

#include <string.h>

void ft_map_init(struct ft_map *m)
{
	memset(m, 0, sizeof(*m));
}

void ft_map_free(struct ft_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

uint32_t *ft_map_get(const struct ft_map *m, uint64_t key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = ft_hash64(key) & mask;; i = (i + 1) & mask) {
		if (!m->keys[i])
			return NULL;
		if (m->keys[i] == key + 1)
			return &m->vals[i];
	}
}

static int rehash(struct ft_map *m, size_t ncap)
{
	uint64_t *nk = calloc(ncap, sizeof(*nk));
	uint32_t *nv = calloc(ncap, sizeof(*nv));
	size_t mask = ncap - 1;

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -1;
	}
	for (size_t j = 0; j < m->cap; j++) {
		size_t i;

		if (!m->keys[j])
			continue;
		for (i = ft_hash64(m->keys[j] - 1) & mask; nk[i];
		     i = (i + 1) & mask)
			;
		nk[i] = m->keys[j];
		nv[i] = m->vals[j];
	}
	free(m->keys);
	free(m->vals);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	return 0;
}

uint32_t *ft_map_put(struct ft_map *m, uint64_t key, uint32_t v, bool *isnew)
{
	size_t mask, i;

	if ((m->n + 1) * 2 > m->cap &&
	    rehash(m, m->cap ? m->cap * 2 : 64))
		return NULL;
	mask = m->cap - 1;
	for (i = ft_hash64(key) & mask;; i = (i + 1) & mask) {
		if (!m->keys[i]) {
			m->keys[i] = key + 1;
			m->vals[i] = v;
			m->n++;
			if (isnew)
				*isnew = true;
			return &m->vals[i];
		}
		if (m->keys[i] == key + 1) {
			if (isnew)
				*isnew = false;
			return &m->vals[i];
		}
	}
}

int ft_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t nc;
	void *np;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 16;
	while (nc < need) {
		if (nc > SIZE_MAX / 2 / elem)
			return -1;
		nc *= 2;
	}
	np = realloc(*p, nc * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}
