// SPDX-License-Identifier: GPL-2.0-only
#include "ftutil.h"

#include <stdio.h>
#include <string.h>

#include "opttab.h"
#include "outfile.h"
#include "util.h"

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

/* Length of the valid UTF-8 sequence at p (2-4), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n;
	uint32_t c;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	c = n == 2 ? 0 : n == 3 ? (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6
			      : (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

char *ft_printable(const char *in, char *out, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t o = 0;

	if (!outlen)
		return out;
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 0;

		if (n) {
			if (o + n >= outlen)
				break;
			memcpy(out + o, p, n);
			o += n;
			p += n;
		} else if (*p >= 0x20 && *p < 0x7f) {
			if (o + 1 >= outlen)
				break;
			out[o++] = (char)*p++;
		} else {
			if (o + 4 >= outlen)
				break;
			snprintf(out + o, 5, "\\x%02x", *p++);
			o += 4;
		}
	}
	out[o] = '\0';
	return out;
}

void ft_printable_inplace(char *s, size_t len)
{
	char *tmp = malloc(len ? len : 1);

	if (!tmp || !len) {
		free(tmp);
		return;
	}
	ft_printable(s, tmp, len);
	memcpy(s, tmp, strlen(tmp) + 1);
	free(tmp);
}

const char *ft_opt_path(const char *opt, const char *arg)
{
	char b[64];

	if (!*arg)
		gs_die(EXIT_USAGE, "%s: empty path (give a file name)", opt);
	if (arg[0] == '-' && arg[1])
		gs_die(EXIT_USAGE, "option '%s' needs a file name, not '%s' (an "
		       "option; a file whose name starts with '-': ./%s)", opt,
		       ft_printable(arg, b, sizeof(b)), b);
	return arg;
}

void ft_refuse_same_file(const char *in, const char *out, const char *opt)
{
	gs_refuse_same_file(NULL, in, opt, out);
}
