/* token.h: bearer tokens and game ids (libsodium).
 *
 * A token is 32 random bytes (256 bits) in unpadded base64url: 43
 * characters.  Only its SHA-256 is stored.  Game ids are 8 random bytes in
 * lowercase hex (16 characters).  Call sodium_init() once before use. */
#ifndef BD_TOKEN_H
#define BD_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"

#define TOKEN_LEN 43 /* characters, without the NUL */

/* Writes a fresh token (TOKEN_LEN chars + NUL) into out. */
void token_new(char out[TOKEN_LEN + 1]);

/* Writes SHA-256 of the token's bytes into hash. */
void token_hash(const char *token, uint8_t hash[STORE_TOKEN_HASH_LEN]);

/* Mints a bearer token for t: gives t->id a fresh id (as token_game_id)
 * and `fresh` a fresh token (TOKEN_LEN chars + NUL), then stores it by
 * add(ctx, t, hash), hash being the token's SHA-256.  While add answers
 * BD_ECONFLICT (the id or the hash taken already) it tries again with a
 * new id and token, 4 tries in all, then answers BD_EINTERNAL.  Otherwise
 * returns add's answer: 0, or its negative BD_E code (src/common/err.h).
 * t's other fields (label, created_ms) are the caller's.  `fresh` is the
 * only copy of the token: the caller shows it once and wipes it
 * (sodium_memzero), also on an error. */
int token_mint(struct store_token *t, char fresh[TOKEN_LEN + 1],
               int (*add)(void *ctx, const struct store_token *t,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN]),
               void *ctx);

/* Writes a fresh game id (STORE_ID_LEN hex chars + NUL) into out. */
void token_game_id(char out[STORE_ID_LEN + 1]);

/* 1 if s looks like a game id (exactly STORE_ID_LEN lowercase hex). */
int token_is_game_id(const char *s);

/* Gives row a fresh seed-format-2 secret and salt (32 random bytes each,
 * libsodium randombytes; src/engine/secret.h), its seed 0. */
void token_secret(struct store_game *row);

#endif
