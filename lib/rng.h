/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small seeded PRNG (xoshiro256** seeded through splitmix64) and the
 * distributions the workload plans and statistics need. Header-only and
 * libc-independent so results are identical on every machine: the same seed
 * gives the same sequence.
 */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <math.h>
#include <stdint.h>

struct gs_rng {
	uint64_t s[4];
};

static inline uint64_t gs_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void gs_rng_seed(struct gs_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = gs_splitmix64(&seed);
}

static inline uint64_t gs_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t gs_rng_next(struct gs_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = gs_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = gs_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double gs_rng_unit(struct gs_rng *r)
{
	return (double)(gs_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n); n > 0. Multiply-shift, bias < 2^-64 * n. */
static inline uint64_t gs_rng_below(struct gs_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)gs_rng_next(r) * n) >> 64);
}

static inline double gs_rng_uniform(struct gs_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gs_rng_unit(r);
}

/* Standard normal by Box-Muller (one value per call, the other dropped so
 * the sequence does not depend on call parity). */
static inline double gs_rng_normal(struct gs_rng *r)
{
	double u1 = gs_rng_unit(r), u2 = gs_rng_unit(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif
