/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzzers (sigfuzz, nlfuzz) share: a seeded generator, so that a
 * run is reproducible from the seed it prints, and edge values.
 */
#ifndef ETHEREAL_FUZZ_H
#define ETHEREAL_FUZZ_H

#include <stdint.h>

static uint64_t rng_state;

/* xorshift64*; the seed must not be 0. */
static inline void rnd_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1;
}

static inline uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static inline uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* The values every field is tried at: its bounds, one past, and the widths'. */
#define FUZZ_N_EDGES 13

static inline uint64_t fuzz_edge_value(unsigned int i, uint64_t lo, uint64_t hi)
{
	const uint64_t any[FUZZ_N_EDGES] = {
		0, 1, 2, lo, lo ? lo - 1 : 0, hi, hi + 1, 0xffff, 0x10000,
		0xffffffffULL, 0x100000000ULL, 1ULL << 63, UINT64_MAX,
	};

	return any[i % FUZZ_N_EDGES];
}

/* A value for a field of BITS bits: an edge, or anything. */
static inline uint64_t edge(unsigned int bits, uint64_t lo, uint64_t hi)
{
	uint64_t mask = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;

	if (below(4) == 0)
		return rnd() & mask;
	return fuzz_edge_value((unsigned int)below(FUZZ_N_EDGES), lo, hi) & mask;
}

#endif
