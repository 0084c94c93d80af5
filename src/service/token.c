/* token.c: random tokens, ids and game secrets from libsodium.  See token.h. */
#include <sodium.h>
#include <string.h>

#include "../common/err.h"
#include "token.h"

void token_new(char out[TOKEN_LEN + 1])
{
	unsigned char raw[32];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(out, TOKEN_LEN + 1, raw, sizeof raw,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof raw);
}

void token_hash(const char *token, uint8_t hash[STORE_TOKEN_HASH_LEN])
{
	crypto_hash_sha256(hash, (const unsigned char *)token, strlen(token));
}

int token_mint(struct store_token *t, char fresh[TOKEN_LEN + 1],
               int (*add)(void *ctx, const struct store_token *t,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN]),
               void *ctx)
{
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	int rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_game_id(t->id);
		token_new(fresh);
		token_hash(fresh, hash);
		rc = add(ctx, t, hash);
	}
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

void token_game_id(char out[STORE_ID_LEN + 1])
{
	unsigned char raw[STORE_ID_LEN / 2];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(out, STORE_ID_LEN + 1, raw, sizeof raw);
}

int token_is_game_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == STORE_ID_LEN && s[n] == '\0';
}

void token_secret(struct store_game *row)
{
	row->seed = 0;
	row->seed_format = 2;
	randombytes_buf(row->secret, sizeof row->secret);
	randombytes_buf(row->salt, sizeof row->salt);
}
