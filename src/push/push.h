/* push.h: Web Push's cryptography, pure (no I/O, no store).  Its manual.
 *
 * RFC 8291 message encryption (the "aes128gcm" content coding of RFC
 * 8188, one record) and RFC 8292 VAPID (an ES256 JWT), on OpenSSL 3's
 * libcrypto: P-256 ECDH, HKDF-SHA256, AES-128-GCM, ECDSA.  Keys travel as
 * the browser gives them: base64url (RFC 4648 §5, padded or not) of an
 * uncompressed P-256 point (65 bytes, 0x04 || X || Y) and a 16-byte auth
 * secret.  Every function is thread-safe and returns 0 or -1; out
 * parameters are written only on success.
 */
#ifndef BD_PUSH_H
#define BD_PUSH_H

#include <stddef.h>
#include <stdint.h>

#define PUSH_POINT_LEN 65   /* uncompressed P-256 point, bytes */
#define PUSH_PRIV_LEN  32   /* P-256 private scalar, big-endian bytes */
#define PUSH_AUTH_LEN  16   /* a subscription's auth secret, bytes */
#define PUSH_SALT_LEN  16   /* RFC 8188 salt, bytes */
#define PUSH_RS        4096 /* record size written in the header */
/* The aes128gcm header (salt, rs, idlen, keyid) and the GCM tag plus the
 * padding delimiter that one record adds to the plaintext. */
#define PUSH_HEADER_LEN (PUSH_SALT_LEN + 4 + 1 + PUSH_POINT_LEN)
#define PUSH_OVERHEAD   (PUSH_HEADER_LEN + 16 + 1)
/* Longest plaintext one record holds (rs - tag - delimiter). */
#define PUSH_PLAIN_MAX (PUSH_RS - 16 - 1)

/* Decodes base64url text `in` (URL-safe alphabet, with or without '='
 * padding, nothing else) into out[0..max); *len gets the byte count.
 * -1 on a character outside the alphabet, bad padding, or more than max
 * bytes. */
int push_b64url_decode(const char *in, uint8_t *out, size_t max, size_t *len);

/* Encodes in[0..len) as unpadded base64url into out (outlen bytes, NUL
 * included; PUSH_B64URL_LEN(len) is enough).  -1 if out is too small. */
#define PUSH_B64URL_LEN(n) (((n) + 2) / 3 * 4 + 1)
int push_b64url_encode(const uint8_t *in, size_t len, char *out, size_t outlen);

/* 0 if pub[0..len) is an uncompressed P-256 point on the curve (len 65,
 * first byte 4, not the point at infinity); else -1. */
int push_point_check(const uint8_t *pub, size_t len);

/* The public key (uncompressed point) of private scalar priv; -1 if priv
 * is not in 1..n-1 (n the curve's order). */
int push_public_key(const uint8_t priv[PUSH_PRIV_LEN],
                    uint8_t pub[PUSH_POINT_LEN]);

/* A fresh random private scalar (1..n-1), from libcrypto's RNG. */
int push_private_key_new(uint8_t priv[PUSH_PRIV_LEN]);

/* RFC 8291 §3-4: encrypts plain[0..len) (len <= PUSH_PLAIN_MAX) for the
 * subscription whose keys are ua_pub (its p256dh) and auth, as one
 * aes128gcm record (RFC 8188 §2; rs PUSH_RS, the padding delimiter 2 and
 * no padding).  as_priv and salt are the sender's ephemeral key and the
 * salt: NULL makes fresh random ones (always, outside tests).  *out gets
 * a malloc'd message of *out_len = len + PUSH_OVERHEAD bytes (caller
 * frees): header (salt, rs, idlen 65, the sender's public key) then the
 * ciphertext and its tag.  -1 on a bad key or a libcrypto failure. */
int push_encrypt(const uint8_t ua_pub[PUSH_POINT_LEN],
                 const uint8_t auth[PUSH_AUTH_LEN], const uint8_t *plain,
                 size_t len, const uint8_t *as_priv, const uint8_t *salt,
                 uint8_t **out, size_t *out_len);

/* The origin of an http(s) URL, RFC 6454 §6.2 serialisation: scheme
 * "://" host, and ":" port when it is not the scheme's default; scheme
 * and host lowercased (libcurl's URL parser).  -1 if url does not parse,
 * is not http(s), or the origin needs more than len bytes (NUL
 * included). */
int push_origin(const char *url, char *out, size_t len);

/* Longest VAPID Authorization value push_vapid_auth writes, NUL
 * included (for a contact of up to PUSH_CONTACT_MAX bytes). */
#define PUSH_CONTACT_MAX     256
#define PUSH_AUTH_HEADER_MAX 1024

/* RFC 8292 §2-3: the Authorization header value for a push to
 * `endpoint`, "vapid t=<JWT>, k=<base64url public key>", with the JWT
 * (header {"typ":"JWT","alg":"ES256"}) claiming aud = the endpoint's
 * origin, exp = now_s + ttl_s (unix seconds; ttl_s 1..86400: at most 24
 * hours ahead, §2) and sub = contact (a mailto: or https: URI, at most
 * PUSH_CONTACT_MAX bytes), signed with ES256 by priv (the signature as
 * JOSE's raw r || s, 64 bytes, RFC 7518 §3.4).  out holds
 * PUSH_AUTH_HEADER_MAX bytes.  -1 on a bad argument or a libcrypto
 * failure. */
int push_vapid_auth(const uint8_t priv[PUSH_PRIV_LEN], const char *endpoint,
                    const char *contact, int64_t now_s, int64_t ttl_s,
                    char out[PUSH_AUTH_HEADER_MAX]);

/* ---- what a push says (payload.c; reads the i18n catalogue) ---- */

#define PUSH_PAYLOAD_MAX 3000 /* bytes of payload JSON, at most */
#define PUSH_TOPIC_MAX   32   /* RFC 8030 §5.4: base64url, at most 32 */

/* The push of an outbox event (store.h "the event outbox": its type and
 * its data, a JSON object with game_id and game, and deadline for a
 * "deadline.soon") for a subscription in language `lang` ("en", "fr";
 * another: English).  *payload gets malloc'd compact JSON {"game_id",
 * "kind", "title", "body"} of fewer than PUSH_PAYLOAD_MAX bytes (caller
 * frees), *urgency the RFC 8030 §5.3 Urgency ("high" for "turn",
 * "normal" otherwise, static), topic the RFC 8030 §5.4 Topic (the game
 * id: a newer message about a game replaces an older one).  1 (nothing
 * written) for an event type that is not pushed, -1 on bad data or out
 * of memory, 0 on success. */
int push_message(const char *type, const char *data, const char *lang,
                 char **payload, const char **urgency,
                 char topic[PUSH_TOPIC_MAX + 1]);

#endif
