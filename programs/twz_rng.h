/*
 * twz_rng.h - splitmix64: the small deterministic generator behind the
 * benchmark's random pairs (cmd_bench.c) and the generated levels of the
 * tests and benchmarks. Small, fast, and the same sequence everywhere.
 */
#ifndef TWZ_RNG_H
#define TWZ_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n); 0 when n is 0 (the remainder). */
static inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
	return n ? (uint32_t)(rng_next(state) % n) : 0;
}

/* In [0, n) from the high half, by multiplying (no division). */
static inline uint32_t rng_scaled(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((rng_next(state) >> 32) * n) >> 32);
}

#endif
