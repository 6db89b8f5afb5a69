/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small containers used across frametrace: a u64 -> u32 hash map (tids,
 * edges, chains), and a growable array macro.
 */
#ifndef FT_UTIL_H
#define FT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct ft_map {
	uint64_t *keys;		/* stored as key + 1; 0 = empty slot */
	uint32_t *vals;
	size_t cap, n;
};

void ft_map_init(struct ft_map *m);
void ft_map_free(struct ft_map *m);
/* Pointer to the value of key, or NULL. */
uint32_t *ft_map_get(const struct ft_map *m, uint64_t key);
/* Inserts key with value v unless present; returns the value slot (new or
 * existing) and sets *isnew; NULL on allocation failure. Keys must be
 * < UINT64_MAX. */
uint32_t *ft_map_put(struct ft_map *m, uint64_t key, uint32_t v, bool *isnew);

/* Growable array: FT_VEC_PUSH(ptr, n, cap) makes room for one more
 * element and evaluates to 0, or -1 when memory runs out. */
int ft_grow(void **p, size_t *cap, size_t need, size_t elem);
#define FT_VEC_RESERVE(p, n, cap) \
	ft_grow((void **)&(p), &(cap), (n) + 1, sizeof(*(p)))

/* Exits 2 when output out (given with option opt) is input in: writing
 * it would overwrite what it was made from (lib gs_same_file). */
void ft_refuse_same_file(const char *in, const char *out, const char *opt);

/* in as text for a message: printable ASCII and valid UTF-8 kept, any
 * other byte (a control character, a stray byte of binary input) written
 * as \xNN, at most outlen - 1 bytes; returns out. Messages quote input
 * through it, so they never carry raw binary bytes. */
char *ft_printable(const char *in, char *out, size_t outlen);
/* The same in place (s holds at most len bytes, terminator included). */
void ft_printable_inplace(char *s, size_t len);

/* The value of a file-name option (opt: "--html"): getopt takes the next
 * word whatever it is, so `--html --json X` would name a file "--json".
 * A value that starts with '-' (other than "-" itself) is refused, exit 2,
 * naming both; a file whose name starts with '-' is written "./-name". */
const char *ft_opt_path(const char *opt, const char *arg);
struct gs_opt;
/* A file-name option of an opttab table (GS_OPT_SPECIAL): ft_opt_path's
 * check, named -x when it has a short name, then stored into its field. */
void ft_opt_path_field(const struct gs_opt *o, const char *arg, void *base);

static inline uint64_t ft_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
