/* ece.c: base64url, P-256 keys and RFC 8291 message encryption (RFC 8188
 * aes128gcm).  See push.h. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "push.h"
#include "push_int.h"

int push_b64url_decode(const char *in, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(in), got = 0;
	/* the browser's toJSON() writes it unpadded; some clients pad */
	int variant = n && in[n - 1] == '='
	                  ? sodium_base64_VARIANT_URLSAFE
	                  : sodium_base64_VARIANT_URLSAFE_NO_PADDING;
	if (sodium_base642bin(out, max, in, n, NULL, &got, NULL, variant) != 0)
		return -1;
	*len = got;
	return 0;
}

int push_b64url_encode(const uint8_t *in, size_t len, char *out, size_t outlen)
{
	if (outlen < sodium_base64_ENCODED_LEN(
	                 len, sodium_base64_VARIANT_URLSAFE_NO_PADDING))
		return -1;
	sodium_bin2base64(out, outlen, in, len,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return 0;
}

int push_point_check(const uint8_t *pub, size_t len)
{
	if (len != PUSH_POINT_LEN || pub[0] != POINT_CONVERSION_UNCOMPRESSED)
		return -1;
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	/* oct2point refuses a point that is not on the curve */
	int rc = p && EC_POINT_oct2point(g, p, pub, len, NULL) == 1 &&
	                 !EC_POINT_is_at_infinity(g, p)
	             ? 0
	             : -1;
	EC_POINT_free(p);
	EC_GROUP_free(g);
	return rc;
}

int push_public_key(const uint8_t priv[PUSH_PRIV_LEN],
                    uint8_t pub[PUSH_POINT_LEN])
{
	int rc = -1;
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	BIGNUM *d = BN_bin2bn(priv, PUSH_PRIV_LEN, NULL);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	uint8_t tmp[PUSH_POINT_LEN];
	if (!p || !d || BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(g)) >= 0)
		goto out;
	if (EC_POINT_mul(g, p, d, NULL, NULL, NULL) != 1 ||
	    EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, tmp,
	                       sizeof tmp, NULL) != sizeof tmp)
		goto out;
	memcpy(pub, tmp, sizeof tmp);
	rc = 0;
out:
	BN_clear_free(d);
	EC_POINT_free(p);
	EC_GROUP_free(g);
	return rc;
}

int push_private_key_new(uint8_t priv[PUSH_PRIV_LEN])
{
	uint8_t pub[PUSH_POINT_LEN];
	for (int i = 0; i < 8; i++) { /* a scalar >= n: about 2^-32 */
		if (RAND_priv_bytes(priv, PUSH_PRIV_LEN) != 1)
			return -1;
		if (push_public_key(priv, pub) == 0)
			return 0;
	}
	return -1;
}

EVP_PKEY *push__pkey(const uint8_t *priv, const uint8_t *pub)
{
	uint8_t own[PUSH_POINT_LEN];
	if (priv && !pub) {
		if (push_public_key(priv, own) < 0)
			return NULL;
		pub = own;
	}
	EVP_PKEY *key = NULL;
	BIGNUM *d = priv ? BN_bin2bn(priv, PUSH_PRIV_LEN, NULL) : NULL;
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!b || !ctx || (priv && !d) ||
	    !OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
	                                     "prime256v1", 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub,
	                                      PUSH_POINT_LEN) ||
	    (d && !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, d)))
		goto out;
	params = OSSL_PARAM_BLD_to_param(b);
	if (!params || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &key,
	                      d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
	                      params) != 1)
		key = NULL;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_clear_free(d);
	return key;
}

/* RFC 5869 HKDF-SHA256 (extract and expand): out[0..len) from ikm, salt
 * and info.  0 or -1. */
static int hkdf(const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
                size_t ikm_len, const uint8_t *info, size_t info_len,
                uint8_t *out, size_t len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string(
	                      OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
	                  OSSL_PARAM_construct_octet_string(
	                      OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len),
	                  OSSL_PARAM_construct_octet_string(
	                      OSSL_KDF_PARAM_SALT, (void *)salt, salt_len),
	                  OSSL_PARAM_construct_octet_string(
	                      OSSL_KDF_PARAM_INFO, (void *)info, info_len),
	                  OSSL_PARAM_construct_end()};
	int rc = ctx && EVP_KDF_derive(ctx, out, len, p) == 1 ? 0 : -1;
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return rc;
}

/* P-256 ECDH: the 32-byte x coordinate of priv * peer.  0 or -1. */
static int ecdh(const uint8_t priv[PUSH_PRIV_LEN],
                const uint8_t peer[PUSH_POINT_LEN], uint8_t secret[32])
{
	EVP_PKEY *mine = push__pkey(priv, NULL);
	EVP_PKEY *theirs = push__pkey(NULL, peer);
	EVP_PKEY_CTX *ctx = mine ? EVP_PKEY_CTX_new(mine, NULL) : NULL;
	size_t n = 32;
	int rc = ctx && theirs && EVP_PKEY_derive_init(ctx) == 1 &&
	                 EVP_PKEY_derive_set_peer(ctx, theirs) == 1 &&
	                 EVP_PKEY_derive(ctx, secret, &n) == 1 && n == 32
	             ? 0
	             : -1;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(theirs);
	EVP_PKEY_free(mine);
	return rc;
}

/* AES-128-GCM of in[0..len) into out (len bytes, then the 16-byte tag),
 * no associated data.  0 or -1. */
static int aes128gcm(const uint8_t key[16], const uint8_t nonce[12],
                     const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, fin = 0;
	int rc = c && len <= PUSH_RS &&
	                 EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, key,
	                                    nonce) == 1 &&
	                 EVP_EncryptUpdate(c, out, &n, in, (int)len) == 1 &&
	                 EVP_EncryptFinal_ex(c, out + n, &fin) == 1 &&
	                 (size_t)(n + fin) == len &&
	                 EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16,
	                                     out + len) == 1
	             ? 0
	             : -1;
	EVP_CIPHER_CTX_free(c);
	return rc;
}

int push_encrypt(const uint8_t ua_pub[PUSH_POINT_LEN],
                 const uint8_t auth[PUSH_AUTH_LEN], const uint8_t *plain,
                 size_t len, const uint8_t *as_priv, const uint8_t *salt,
                 uint8_t **out, size_t *out_len)
{
	static const char web_push_info[] = "WebPush: info";
	static const char cek_info[] = "Content-Encoding: aes128gcm";
	static const char nonce_info[] = "Content-Encoding: nonce";
	uint8_t priv[PUSH_PRIV_LEN], as_pub[PUSH_POINT_LEN], own_salt[16];
	uint8_t secret[32], ikm[32], cek[16], nonce[12];
	uint8_t key_info[sizeof web_push_info + 2 * PUSH_POINT_LEN];
	uint8_t *msg = NULL, *record = NULL;
	int rc = -1;
	if (len > PUSH_PLAIN_MAX || push_point_check(ua_pub, PUSH_POINT_LEN))
		return -1;
	if (as_priv)
		memcpy(priv, as_priv, sizeof priv);
	else if (push_private_key_new(priv) < 0)
		return -1;
	if (!salt) {
		if (RAND_bytes(own_salt, sizeof own_salt) != 1)
			goto out;
		salt = own_salt;
	}
	/* RFC 8291 §3.3-3.4: IKM = HKDF(auth, ecdh_secret, key_info, 32),
	 * key_info = "WebPush: info" 0x00 ua_public as_public */
	memcpy(key_info, web_push_info, sizeof web_push_info);
	memcpy(key_info + sizeof web_push_info, ua_pub, PUSH_POINT_LEN);
	if (push_public_key(priv, as_pub) < 0)
		goto out;
	memcpy(key_info + sizeof web_push_info + PUSH_POINT_LEN, as_pub,
	       PUSH_POINT_LEN);
	if (ecdh(priv, ua_pub, secret) < 0 ||
	    hkdf(auth, PUSH_AUTH_LEN, secret, sizeof secret, key_info,
	         sizeof key_info, ikm, sizeof ikm) < 0 ||
	    /* RFC 8188 §2.2-2.3: the info strings end with their NUL */
	    hkdf(salt, PUSH_SALT_LEN, ikm, sizeof ikm,
	         (const uint8_t *)cek_info, sizeof cek_info, cek,
	         sizeof cek) < 0 ||
	    hkdf(salt, PUSH_SALT_LEN, ikm, sizeof ikm,
	         (const uint8_t *)nonce_info, sizeof nonce_info, nonce,
	         sizeof nonce) < 0)
		goto out;
	size_t total = len + PUSH_OVERHEAD;
	msg = malloc(total);
	record = malloc(len + 1);
	if (!msg || !record)
		goto out;
	/* RFC 8188 §2.1: salt, rs (uint32 big-endian), idlen, keyid */
	memcpy(msg, salt, PUSH_SALT_LEN);
	msg[16] = (uint8_t)(PUSH_RS >> 24);
	msg[17] = (uint8_t)(PUSH_RS >> 16);
	msg[18] = (uint8_t)(PUSH_RS >> 8);
	msg[19] = (uint8_t)PUSH_RS;
	msg[20] = PUSH_POINT_LEN;
	memcpy(msg + 21, as_pub, PUSH_POINT_LEN);
	/* RFC 8291 §4: one record, the last: delimiter 2, no padding */
	memcpy(record, plain, len);
	record[len] = 2;
	if (aes128gcm(cek, nonce, record, len + 1, msg + PUSH_HEADER_LEN) < 0)
		goto out;
	*out = msg;
	*out_len = total;
	msg = NULL;
	rc = 0;
out:
	free(msg);
	if (record)
		sodium_memzero(record, len + 1);
	free(record);
	sodium_memzero(priv, sizeof priv);
	sodium_memzero(secret, sizeof secret);
	sodium_memzero(ikm, sizeof ikm);
	sodium_memzero(cek, sizeof cek);
	return rc;
}
