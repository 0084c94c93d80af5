/* push_int.h: what ece.c and vapid.c share, nothing else includes it. */
#ifndef BD_PUSH_INT_H
#define BD_PUSH_INT_H

#include <openssl/evp.h>
#include <stdint.h>

/* A new P-256 EVP_PKEY (caller frees with EVP_PKEY_free): a key pair
 * from priv (pub NULL: computed from priv), or a public key from pub
 * (priv NULL).  NULL on a bad key. */
EVP_PKEY *push__pkey(const uint8_t *priv, const uint8_t *pub);

#endif
