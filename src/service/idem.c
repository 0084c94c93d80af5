/* idem.c: Idempotency-Key.  The first successful response to a keyed
 * request is kept with the change it answers (same transaction), so a
 * retry gets the same answer and changes nothing.  The response is stored
 * encrypted (XSalsa20-Poly1305) under a key derived from the
 * Idempotency-Key, which only the client knows: a create's seat tokens are
 * not readable from the database alone. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define IDEM_ANON_MIN 16 /* characters, for a request without a token */

static void hash_part(crypto_hash_sha256_state *h, const char *s)
{
	crypto_hash_sha256_update(h, (const unsigned char *)(s ? s : ""),
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
	if (n == 0 || n >= sizeof idem->key)
		return svc__fail(err, BD_EBADREQUEST,
		                 "Idempotency-Key must be 1 to 255 visible "
		                 "ASCII characters");
	/* Without a credential the key alone ties a retry to the first
	 * answer (which may hold a new token): it must be hard to guess. */
	if (!token && n < IDEM_ANON_MIN)
		return svc__fail(err, BD_EBADREQUEST,
		                 "without a bearer token, an Idempotency-Key "
		                 "must be at least %d characters (a UUID, say)",
		                 IDEM_ANON_MIN);
	memcpy(idem->key, key, n + 1);
	idem->replayed = 0;
	crypto_hash_sha256_state h;
	crypto_hash_sha256_init(&h);
	hash_part(&h, token);
	hash_part(&h, method);
	hash_part(&h, path);
	hash_part(&h, key);
	crypto_hash_sha256_final(&h, idem->scope);
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

static void secret_key(const struct svc_idem *idem,
                       unsigned char k[crypto_secretbox_KEYBYTES])
{
	static const unsigned char ctx[] = "boardd idempotency response key";
	crypto_generichash(k, crypto_secretbox_KEYBYTES,
	                   (const unsigned char *)idem->key, strlen(idem->key),
	                   ctx, sizeof ctx - 1);
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
	unsigned char *out = malloc(total), k[crypto_secretbox_KEYBYTES];
	if (!out) {
		free(text);
		return BD_ENOMEM;
	}
	secret_key(idem, k);
	randombytes_buf(out, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(out + crypto_secretbox_NONCEBYTES,
	                      (const unsigned char *)text, n, out, k);
	sodium_memzero(k, sizeof k);
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
	unsigned char k[crypto_secretbox_KEYBYTES];
	unsigned char *plain = malloc(len - head + 1);
	json_t *v = NULL;
	secret_key(idem, k);
	if (plain && crypto_secretbox_open_easy(
	                 plain, blob + crypto_secretbox_NONCEBYTES,
	                 len - crypto_secretbox_NONCEBYTES, blob, k) == 0)
		v = json_loadb((const char *)plain, len - head, 0, NULL);
	sodium_memzero(k, sizeof k);
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
	json_t *v = open_response(idem, blob, len);
	free(blob);
	if (!v)
		return svc__fail(err, BD_EINTERNAL,
		                 "the recorded response cannot be read");
	idem->replayed = status;
	*out = v;
	return 0;
}
