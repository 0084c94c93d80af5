/* secret.h: a game's secret, the generator it seeds, and the commitment
 * that publishes it in advance (docs/shuffles.md specifies all three).
 *
 * Seed format 2 (every game created since sql/0014_records.sql): a 256-bit
 * secret from libsodium's randombytes; the generator's state is SHA-256 of
 * the secret read as four little-endian 64-bit words (rng_seed_words).  At
 * creation the game publishes commitment = SHA-256(secret || salt) with a
 * fresh 256-bit salt; the end of the game reveals secret and salt, so
 * anyone can check the commitment and re-deal the game.
 *
 * Seed format 1 (games stored before): a 64-bit seed expanded with
 * splitmix64 (rng_seed), no commitment.  Such games keep replaying bit for
 * bit.
 */
#ifndef BD_SECRET_H
#define BD_SECRET_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define ENGINE_SECRET_BYTES 32 /* bytes of a format-2 secret */
#define ENGINE_SALT_BYTES   32 /* bytes of its commitment's salt */
#define ENGINE_HASH_BYTES   32 /* bytes of a SHA-256 */

enum engine_seed_format {
	ENGINE_SEED_64 = 1,     /* a 64-bit seed, splitmix64 */
	ENGINE_SEED_SECRET = 2, /* a 256-bit secret, SHA-256 */
};

/* What seeds one game's generator. */
struct engine_secret {
	int format;                          /* enum engine_seed_format */
	uint64_t seed;                       /* format 1: the seed */
	uint8_t secret[ENGINE_SECRET_BYTES]; /* format 2: the secret */
	uint8_t salt[ENGINE_SALT_BYTES];     /* format 2: the salt */
};

/* Seeds *out, the generator of a game whose secret is *s (format 1 or 2;
 * an unknown format seeds as format 1, which never happens for a checked
 * struct: see engine_secret_check). */
void engine_secret_rng(const struct engine_secret *s, struct rng *out);

/* 0 if s->format is a known format, else -1. */
int engine_secret_check(const struct engine_secret *s);

/* Writes SHA-256(secret || salt) of a format-2 secret into out. */
void engine_secret_commitment(const struct engine_secret *s,
                              uint8_t out[ENGINE_HASH_BYTES]);

/* Lower-case hex of n bytes into out (2n+1 bytes, NUL-terminated). */
void engine_hex(const uint8_t *bytes, size_t n, char *out);

/* Parses exactly 2n lower- or upper-case hex digits of text into
 * bytes[0..n).  Returns 0, or -1 (bytes unchanged) when text is not that. */
int engine_unhex(const char *text, uint8_t *bytes, size_t n);

#endif
