/* secret.c: seeding from a game's secret, and its commitment, with
 * libsodium's SHA-256.  See secret.h and docs/shuffles.md. */
#include <sodium.h>
#include <string.h>

#include "secret.h"

void engine_secret_rng(const struct engine_secret *s, struct rng *out)
{
	if (s->format != ENGINE_SEED_SECRET) {
		rng_seed(out, s->seed);
		return;
	}
	uint8_t h[ENGINE_HASH_BYTES];
	crypto_hash_sha256(h, s->secret, sizeof s->secret);
	uint64_t w[4];
	for (int i = 0; i < 4; i++) { /* little-endian on every host */
		w[i] = 0;
		for (int b = 7; b >= 0; b--)
			w[i] = w[i] << 8 | h[8 * i + b];
	}
	rng_seed_words(out, w);
	sodium_memzero(h, sizeof h);
}

int engine_secret_check(const struct engine_secret *s)
{
	return s->format == ENGINE_SEED_64 || s->format == ENGINE_SEED_SECRET
	           ? 0
	           : -1;
}

void engine_secret_commitment(const struct engine_secret *s,
                              uint8_t out[ENGINE_HASH_BYTES])
{
	crypto_hash_sha256_state st;
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, s->secret, sizeof s->secret);
	crypto_hash_sha256_update(&st, s->salt, sizeof s->salt);
	crypto_hash_sha256_final(&st, out);
}

void engine_hex(const uint8_t *bytes, size_t n, char *out)
{
	sodium_bin2hex(out, 2 * n + 1, bytes, n);
}

int engine_unhex(const char *text, uint8_t *bytes, size_t n)
{
	uint8_t tmp[64];
	size_t got = 0;
	const char *end = NULL;
	if (n > sizeof tmp || strlen(text) != 2 * n ||
	    sodium_hex2bin(tmp, n, text, 2 * n, NULL, &got, &end) != 0 ||
	    got != n || *end != '\0')
		return -1;
	memcpy(bytes, tmp, n);
	return 0;
}
