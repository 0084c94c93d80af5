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

/* Writes a fresh game id (STORE_ID_LEN hex chars + NUL) into out. */
void token_game_id(char out[STORE_ID_LEN + 1]);

/* 1 if s looks like a game id (exactly STORE_ID_LEN lowercase hex). */
int token_is_game_id(const char *s);

/* Gives row a fresh seed-format-2 secret and salt (32 random bytes each,
 * libsodium randombytes; src/engine/secret.h), its seed 0. */
void token_secret(struct store_game *row);

#endif
