/* idem.c: Idempotency-Key.  The first successful response to a keyed
 * request is kept with the change it answers (same transaction), so a
 * retry gets the same answer and changes nothing.
 *
 * Who may see a recorded answer.  It can hold secrets: a create's seat
 * tokens, a newcomer's seat token from a join, a new player's token.  A
 * record is found by `scope`, SHA-256 of (bearer token, method, path, key),
 * so an answer is replayed only to a request that presents the same
 * credential and the same key (and, through `request`, the same body and
 * If-Match: anything else is refused, 422).  Without a bearer token the
 * key is the only credential, so it must be unguessable: at least 128
 * bits as written (anon_key_bits below; a UUID passes, "create-1" does
 * not), else 400.  With a token a key of any length is fine, because the
 * token (256 random bits) is the secret; but creating a game or a player
 * does not otherwise check the token, so there a short key is accepted
 * only with the token of a known player (svc__idem_issued_token).
 *
 * What the database file yields.  The answer is stored encrypted
 * (XSalsa20-Poly1305, crypto_secretbox) under a key derived with BLAKE2b
 * (crypto_generichash) from the same (token, method, path, key).  The file
 * holds only hashes of tokens and of that tuple, so opening a record needs
 * the caller's token (token-scoped records) or the >= 128-bit key
 * (anonymous ones): neither is in the file, and neither can be searched
 * for.  A fast hash is enough for that reason; a slow password hash would
 * only protect guessable secrets, which are refused instead.  Before this
 * scheme the key alone derived the box key, and a record under a short
 * key with a token opened from the file by trying every short key;
 * sql/0004 drops the answers recorded that way (a retry of such a request
 * is then told it was carried out, svc__idem_replay). */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The least strength of a key sent without a bearer token, in bits. */
#define IDEM_ANON_BITS 128

/* The bits a key holds as written: 4 per hex digit when it is all hex
 * digits and dashes (a UUID: 32 digits, 128), else 6 per character of the
 * base64url alphabet (22 of them: 132); other characters count nothing.
 * A count of symbols, not of randomness: "0000...0" passes, and the
 * client is asked (README, openapi.yaml) to fill keys with random bits. */
static unsigned anon_key_bits(const char *key)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	static const char b64url[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t n = strlen(key), digits = 0, symbols = 0;
	for (size_t i = 0; i < n; i++) {
		digits += strchr(hex, key[i]) != NULL;
		symbols += strchr(b64url, key[i]) != NULL;
	}
	if (strspn(key, "0123456789abcdefABCDEF-") == n)
		return (unsigned)(4 * digits);
	return (unsigned)(6 * symbols);
}

static void hash_part(crypto_hash_sha256_state *h, const char *s)
{
	crypto_hash_sha256_update(h, (const unsigned char *)(s ? s : ""),
	                          strlen(s ? s : "") + 1);
}

static void box_part(crypto_generichash_state *h, const char *s)
{
	crypto_generichash_update(h, (const unsigned char *)(s ? s : ""),
	                          strlen(s ? s : "") + 1);
}

int service_idem_init(struct svc_idem *idem, const char *key, const char *token,
                      const char *method, const char *path, const json_t *body,
                      const char *precondition, struct svc_err *err)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (key[i] < 0x21 || key[i] > 0x7e)
			n = 0;
	if (n == 0 || n > SVC_IDEM_KEY_MAX)
		return svc__fail(err, BD_EBADREQUEST,
		                 "Idempotency-Key must be 1 to %d visible "
		                 "ASCII characters",
		                 SVC_IDEM_KEY_MAX);
	int weak = anon_key_bits(key) < IDEM_ANON_BITS;
	if (!token && weak)
		return svc__fail(err, BD_EBADREQUEST, SVC_IDEM_ANON_RULE);
	memset(idem, 0, sizeof *idem);
	idem->weak = weak;
	if (weak)
		token_hash(token, idem->token_hash);
	crypto_hash_sha256_state h;
	crypto_hash_sha256_init(&h);
	hash_part(&h, token);
	hash_part(&h, method);
	hash_part(&h, path);
	hash_part(&h, key);
	crypto_hash_sha256_final(&h, idem->scope);
	crypto_generichash_state b;
	crypto_generichash_init(&b, NULL, 0, sizeof idem->box_key);
	box_part(&b, "boardd idempotency answer v2");
	box_part(&b, token);
	box_part(&b, method);
	box_part(&b, path);
	box_part(&b, key);
	crypto_generichash_final(&b, idem->box_key, sizeof idem->box_key);
	char *canon = body ? json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS |
	                                          JSON_ENCODE_ANY)
	                   : NULL;
	if (body && !canon)
		return BD_ENOMEM;
	crypto_hash_sha256_init(&h);
	hash_part(&h, canon);
	hash_part(&h, precondition);
	crypto_hash_sha256_final(&h, idem->request);
	free(canon);
	return 0;
}

int svc__idem_issued_token(struct service *svc, const struct svc_idem *idem,
                           struct svc_err *err)
{
	struct store_player p;
	if (!idem || !idem->weak)
		return 0;
	int rc = store_player_by_token(svc->st, idem->token_hash, &p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(
		    err, BD_EBADREQUEST,
		    "here an Idempotency-Key under 128 bits needs "
		    "a player's bearer token (creating a game or a "
		    "player checks no other): use a UUID, 32 hex "
		    "digits, or 22 characters of A-Z a-z 0-9 - _");
	return rc;
}

/* Encrypts `body` for idem into a new buffer *blob of *len bytes
 * (nonce, then the secretbox). */
static int seal(const struct svc_idem *idem, const json_t *body,
                unsigned char **blob, size_t *len)
{
	char *text = json_dumps(body, JSON_COMPACT);
	if (!text)
		return BD_ENOMEM;
	size_t n = strlen(text);
	size_t total =
	    crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + n;
	unsigned char *out = malloc(total);
	if (!out) {
		free(text);
		return BD_ENOMEM;
	}
	randombytes_buf(out, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(out + crypto_secretbox_NONCEBYTES,
	                      (const unsigned char *)text, n, out,
	                      idem->box_key);
	sodium_memzero(text, n);
	free(text);
	*blob = out;
	*len = total;
	return 0;
}

int svc__write_answered(const struct svc_idem *idem, unsigned status,
                        json_t *answer, svc_write_fn write, void *ctx,
                        json_t **out)
{
	struct store_idem rec = {.status = status};
	unsigned char *blob = NULL;
	int rc = answer ? 0 : BD_ENOMEM;
	if (rc == 0 && idem) {
		memcpy(rec.scope, idem->scope, 32);
		memcpy(rec.request, idem->request, 32);
		rc = seal(idem, answer, &blob, &rec.response_len);
		rec.response = blob;
	}
	if (rc == 0)
		rc = write(ctx, idem ? &rec : NULL);
	free(blob);
	if (rc == 0)
		*out = answer;
	else
		json_decref(answer);
	return rc;
}

/* Decrypts a stored response into a JSON value; NULL if it does not
 * open (a corrupt row). */
static json_t *open_response(const struct svc_idem *idem,
                             const unsigned char *blob, size_t len)
{
	size_t head = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES;
	if (len < head)
		return NULL;
	unsigned char *plain = malloc(len - head + 1);
	json_t *v = NULL;
	if (plain &&
	    crypto_secretbox_open_easy(
	        plain, blob + crypto_secretbox_NONCEBYTES,
	        len - crypto_secretbox_NONCEBYTES, blob, idem->box_key) == 0) {
		v = json_loadb((const char *)plain, len - head, 0, NULL);
		sodium_memzero(plain, len - head);
	}
	free(plain);
	return v;
}

int svc__idem_replay(struct service *svc, struct svc_idem *idem, json_t **out,
                     struct svc_err *err)
{
	if (!idem)
		return BD_ENOTFOUND;
	uint8_t request[32];
	unsigned status;
	void *blob = NULL;
	size_t len = 0;
	int rc =
	    store_idem_get(svc->st, idem->scope, request, &status, &blob, &len);
	if (rc < 0)
		return rc;
	if (sodium_memcmp(request, idem->request, 32) != 0) {
		free(blob);
		return svc__fail(err, BD_EIDEMPOTENCY,
		                 "this Idempotency-Key was used for a "
		                 "different request");
	}
	if (len == 0) { /* an answer sql/0004 dropped */
		free(blob);
		return svc__fail(err, BD_EIDEMPOTENCY,
		                 "this request was carried out before the "
		                 "server was upgraded, which dropped its "
		                 "recorded answer; it is not carried out "
		                 "again");
	}
	json_t *v = open_response(idem, blob, len);
	free(blob);
	if (!v)
		return svc__fail(err, BD_EINTERNAL,
		                 "the recorded response cannot be read");
	idem->replayed = status;
	*out = v;
	return 0;
}
