/* rng.c: xoshiro256** (Blackman & Vigna, public domain algorithm) seeded by
 * splitmix64.  See rng.h for the contract. */
#include <stddef.h>

#include "rng.h"

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A seeded generator has no script: the engine attaches one after. */
static void no_script(struct rng *r)
{
	r->script = NULL;
	r->script_n = r->script_pos = 0;
}

void rng_seed(struct rng *r, uint64_t seed)
{
	no_script(r);
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

void rng_seed_words(struct rng *r, const uint64_t w[4])
{
	no_script(r);
	for (int i = 0; i < 4; i++)
		r->s[i] = w[i];
	if (!(w[0] | w[1] | w[2] | w[3]))
		r->s[0] = 1;
}

int rng_scripted(struct rng *r, uint8_t *out)
{
	if (!r->script || r->script_pos >= r->script_n)
		return 0;
	*out = r->script[r->script_pos++];
	return 1;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	if (n == 0)
		return 0;
	/* Rejection sampling: discard the top sliver that would bias the
	 * modulo. */
	uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= limit);
	return (uint32_t)(x % n);
}

void rng_shuffle_u8(struct rng *r, uint8_t *a, uint32_t n)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = rng_below(r, i);
		uint8_t t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}
