/* rng.h: the per-game deterministic random generator (xoshiro256**).
 *
 * The engine owns one generator per game, seeded from the game's secret
 * (a 256-bit secret, or the 64-bit seed of older games; secret.h), and passes
 * it into a rules module's setup and apply.  The same seed and the same calls
 * always give the same numbers on every platform: the state is four uint64_t
 * (and a borrowed script) and copies with memcpy.  This is engine code, not a
 * library, because its output is part of the game record: a library update must
 * never change a replay.
 */
#ifndef BD_RNG_H
#define BD_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state; never all zero */
	/* Scripted values (a custom setup's dice, struct rules' script):
	 * rng_scripted gives them in order before the generator's numbers.
	 * Borrowed from the engine_game this generator belongs to (its
	 * `script`), which keeps them outside the flat state; NULL: none.
	 * Seeding clears them (a search's reseeded copy no longer knows
	 * the script: the dice not rolled yet are unknown). */
	const uint8_t *script;
	uint32_t script_n;   /* values at script */
	uint32_t script_pos; /* values given so far, 0..script_n */
};

/* Seeds *r from a 64-bit seed (expanded with splitmix64): seed format 1,
 * the games stored before 256-bit secrets (docs/shuffles.md).  Any seed,
 * including 0, is valid. */
void rng_seed(struct rng *r, uint64_t seed);

/* Seeds *r with the four state words w[0..3] as they are (seed format 2
 * reads them from SHA-256 of the game's secret: engine_secret_rng in
 * secret.h).  An all-zero w, the one state xoshiro256** cannot leave,
 * becomes {1, 0, 0, 0} (docs/shuffles.md). */
void rng_seed_words(struct rng *r, const uint64_t w[4]);

/* 1 and *out the next scripted value when one is left (script_pos
 * advances), else 0 and *out untouched. */
int rng_scripted(struct rng *r, uint8_t *out);

/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* Uniform integer in [0, n) without modulo bias; n >= 1.  Returns 0 for
 * n == 0 so callers never divide by zero. */
uint32_t rng_below(struct rng *r, uint32_t n);

/* Fisher-Yates shuffle of n bytes in place. */
void rng_shuffle_u8(struct rng *r, uint8_t *a, uint32_t n);

#endif
