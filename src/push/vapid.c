/* vapid.c: RFC 8292 VAPID, the ES256 JWT a push service checks.  See
 * push.h. */
#include <curl/curl.h>
#include <jansson.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "push.h"
#include "push_int.h"

int push_origin(const char *url, char *out, size_t len)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL;
	int rc = -1;
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto out;
	if (strcasecmp(scheme, "https") != 0 && strcasecmp(scheme, "http") != 0)
		goto out;
	/* the port only when not the scheme's default (RFC 6454 §6.2) */
	CURLUcode pc =
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT);
	if (pc != CURLUE_OK && pc != CURLUE_NO_PORT)
		goto out;
	int w = snprintf(out, len, "%s://%s%s%s", scheme, host, port ? ":" : "",
	                 port ? port : "");
	if (w < 0 || (size_t)w >= len)
		goto out;
	for (char *p = out; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	rc = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return rc;
}

/* ES256 of msg[0..len) by priv, as JOSE's raw r || s (RFC 7518 §3.4:
 * each 32 bytes big-endian).  0 or -1. */
static int es256(const uint8_t priv[PUSH_PRIV_LEN], const char *msg, size_t len,
                 uint8_t sig[64])
{
	EVP_PKEY *key = push__pkey(priv, NULL);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	uint8_t der[80];
	size_t der_len = sizeof der;
	ECDSA_SIG *s = NULL;
	int rc = -1;
	if (!key || !md ||
	    EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1 ||
	    EVP_DigestSign(md, der, &der_len, (const uint8_t *)msg, len) != 1)
		goto out;
	const uint8_t *p = der;
	s = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	if (!s || BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) != 32 ||
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) != 32)
		goto out;
	rc = 0;
out:
	ECDSA_SIG_free(s);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(key);
	return rc;
}

int push_vapid_auth(const uint8_t priv[PUSH_PRIV_LEN], const char *endpoint,
                    const char *contact, int64_t now_s, int64_t ttl_s,
                    char out[PUSH_AUTH_HEADER_MAX])
{
	/* {"typ":"JWT","alg":"ES256"}, base64url */
	static const char header[] = "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9";
	char origin[512], jwt[PUSH_AUTH_HEADER_MAX];
	char k[PUSH_B64URL_LEN(PUSH_POINT_LEN)], s64[PUSH_B64URL_LEN(64)];
	uint8_t pub[PUSH_POINT_LEN], sig[64];
	if (ttl_s < 1 || ttl_s > 86400 || !contact ||
	    strlen(contact) > PUSH_CONTACT_MAX ||
	    push_origin(endpoint, origin, sizeof origin) < 0 ||
	    push_public_key(priv, pub) < 0)
		return -1;
	json_t *claims = json_pack("{s:s,s:I,s:s}", "aud", origin, "exp",
	                           (json_int_t)(now_s + ttl_s), "sub", contact);
	char *text = claims ? json_dumps(claims, JSON_COMPACT) : NULL;
	json_decref(claims);
	if (!text)
		return -1;
	size_t n = strlen(text);
	int w = -1;
	size_t at = sizeof header; /* header, then '.' */
	if (at + PUSH_B64URL_LEN(n) + 1 + sizeof s64 <= sizeof jwt) {
		memcpy(jwt, header, sizeof header - 1);
		jwt[at - 1] = '.';
		push_b64url_encode((const uint8_t *)text, n, jwt + at,
		                   sizeof jwt - at);
		size_t signed_len = strlen(jwt);
		if (es256(priv, jwt, signed_len, sig) == 0 &&
		    push_b64url_encode(sig, sizeof sig, s64, sizeof s64) == 0 &&
		    push_b64url_encode(pub, sizeof pub, k, sizeof k) == 0)
			w = snprintf(out, PUSH_AUTH_HEADER_MAX,
			             "vapid t=%s.%s, k=%s", jwt, s64, k);
	}
	free(text);
	return w < 0 || w >= PUSH_AUTH_HEADER_MAX ? -1 : 0;
}
