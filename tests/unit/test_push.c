/* test_push.c: Web Push's cryptography (src/push/push.h).  RFC 8291 §5's
 * worked example (its Appendix A gives the same values) byte for byte
 * from its fixed keys and salt; a VAPID JWT (RFC 8292) verified with
 * libcrypto, independently of the code that signs it; bad keys refused. */
#include <jansson.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "push/push.h"
#include "push/push_int.h"
#include "testhelp.h"

/* RFC 8291 §5 and Appendix A, base64url as printed there */
#define RFC_PLAIN   "When I grow up, I want to be a watermelon"
#define RFC_AS_PRIV "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
#define RFC_AS_PUB                                                             \
	"BP4z9KsN6nGRTbVYI_"                                                   \
	"c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC"                 \
	"8wEqKK6PBru3jl7A8"
#define RFC_UA_PRIV "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
#define RFC_UA_PUB                                                             \
	"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"                   \
	"AYWXvTBHm4bjyPjs7Vd8"                                                 \
	"pZGH6SRpkNtoIAiw4"
#define RFC_AUTH "BTBZMqHH6r4Tts7J_aSIgg"
#define RFC_SALT "DGv6ra1nlYgDCS1FRnbzlw"
#define RFC_BODY                                                               \
	"DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"     \
	"mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"     \
	"pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

static size_t dec(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	if (push_b64url_decode(s, out, max, &n) < 0)
		return 0;
	return n;
}

static void rfc8291_example(void)
{
	uint8_t as_priv[32], as_pub[65], ua_priv[32], ua_pub[65], auth[16];
	uint8_t salt[16], want[256], mine[65];
	test_cond("as private", dec(RFC_AS_PRIV, as_priv, 32) == 32);
	test_cond("as public", dec(RFC_AS_PUB, as_pub, 65) == 65);
	test_cond("ua private", dec(RFC_UA_PRIV, ua_priv, 32) == 32);
	test_cond("ua public", dec(RFC_UA_PUB, ua_pub, 65) == 65);
	test_cond("auth", dec(RFC_AUTH, auth, 16) == 16);
	test_cond("salt", dec(RFC_SALT, salt, 16) == 16);
	size_t want_len = dec(RFC_BODY, want, sizeof want);
	test_cond("body", want_len == strlen(RFC_PLAIN) + PUSH_OVERHEAD);
	test_cond("as public from its private key",
	          push_public_key(as_priv, mine) == 0 &&
	              memcmp(mine, as_pub, 65) == 0);
	test_cond("ua public from its private key",
	          push_public_key(ua_priv, mine) == 0 &&
	              memcmp(mine, ua_pub, 65) == 0);
	uint8_t *out = NULL;
	size_t out_len = 0;
	int rc = push_encrypt(ua_pub, auth, (const uint8_t *)RFC_PLAIN,
	                      strlen(RFC_PLAIN), as_priv, salt, &out, &out_len);
	test_cond("encrypts", rc == 0);
	test_cond("RFC 8291 §5 byte for byte",
	          rc == 0 && out_len == want_len &&
	              memcmp(out, want, want_len) == 0);
	char text[PUSH_B64URL_LEN(256)];
	test_cond("as printed", rc == 0 &&
	                            push_b64url_encode(out, out_len, text,
	                                               sizeof text) == 0 &&
	                            strcmp(text, RFC_BODY) == 0);
	free(out);
	/* fresh keys and salt: another message of the same length */
	rc = push_encrypt(ua_pub, auth, (const uint8_t *)RFC_PLAIN,
	                  strlen(RFC_PLAIN), NULL, NULL, &out, &out_len);
	test_cond("random ephemeral key and salt",
	          rc == 0 && out_len == want_len &&
	              memcmp(out, want, want_len) != 0);
	free(out);
	uint8_t big[PUSH_PLAIN_MAX + 1] = {0};
	out = NULL;
	test_cond("one record at most",
	          push_encrypt(ua_pub, auth, big, sizeof big, NULL, NULL, &out,
	                       &out_len) < 0 &&
	              !out);
}

static void bad_keys(void)
{
	uint8_t buf[80], pub[65];
	size_t n;
	test_cond("bad base64url: '+'",
	          push_b64url_decode("BTBZMqHH6r4Tts7J+aSIgg", buf, 80, &n) <
	              0);
	test_cond("bad base64url: '/'",
	          push_b64url_decode("BTBZMqHH6r4Tts7J/aSIgg", buf, 80, &n) <
	              0);
	test_cond("bad base64url: a space",
	          push_b64url_decode("BTBZMqHH6r4 Tts7J_aSIgg", buf, 80, &n) <
	              0);
	test_cond("bad base64url: a lone last character",
	          push_b64url_decode("BTBZM", buf, 80, &n) < 0);
	test_cond("padded base64url is read",
	          push_b64url_decode("BTBZMqHH6r4Tts7J_aSIgg==", buf, 80, &n) ==
	                  0 &&
	              n == 16);
	test_cond("too long for the buffer",
	          push_b64url_decode(RFC_UA_PUB, buf, 64, &n) < 0);
	dec(RFC_UA_PUB, pub, 65);
	test_cond("the RFC's point is on the curve",
	          push_point_check(pub, 65) == 0);
	test_cond("wrong length", push_point_check(pub, 64) < 0);
	uint8_t c[65];
	memcpy(c, pub, 65);
	c[0] = 2; /* a compressed point's prefix */
	test_cond("not uncompressed", push_point_check(c, 65) < 0);
	memcpy(c, pub, 65);
	c[64] ^= 1; /* y changed: not on the curve */
	test_cond("not on the curve", push_point_check(c, 65) < 0);
	uint8_t *out = NULL;
	size_t out_len;
	uint8_t auth[16] = {0};
	test_cond("no encryption to a point off the curve",
	          push_encrypt(c, auth, (const uint8_t *)"x", 1, NULL, NULL,
	                       &out, &out_len) < 0);
	uint8_t zero[32] = {0}, ff[32];
	memset(ff, 0xff, sizeof ff);
	test_cond("private key 0 refused", push_public_key(zero, pub) < 0);
	test_cond("private key >= n refused", push_public_key(ff, pub) < 0);
}

/* JOSE r||s back to DER and verified with the public key k. */
static int verify_jwt(const char *jwt, size_t signed_len, const char *sig64,
                      const uint8_t k[65])
{
	uint8_t sig[64];
	if (dec(sig64, sig, sizeof sig) != 64)
		return 0;
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, 32, NULL),
	       *ss = BN_bin2bn(sig + 32, 32, NULL);
	ECDSA_SIG_set0(s, r, ss);
	uint8_t *der = NULL;
	int der_len = i2d_ECDSA_SIG(s, &der);
	ECDSA_SIG_free(s);
	EVP_PKEY *key = push__pkey(NULL, k);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok = key && md &&
	         EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) == 1 &&
	         EVP_DigestVerify(md, der, (size_t)der_len,
	                          (const uint8_t *)jwt, signed_len) == 1;
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(key);
	OPENSSL_free(der);
	return ok;
}

static void vapid(void)
{
	uint8_t priv[32], pub[65];
	char auth[PUSH_AUTH_HEADER_MAX];
	test_cond("a new key", push_private_key_new(priv) == 0 &&
	                           push_public_key(priv, pub) == 0);
	const int64_t now = 1764900000;
	int rc =
	    push_vapid_auth(priv, "https://Push.Example.NET:443/wpush/v2/abc",
	                    "mailto:ops@example.org", now, 12 * 3600, auth);
	test_cond("signs", rc == 0);
	test_cond("vapid t=", strncmp(auth, "vapid t=", 8) == 0);
	char *t = auth + 8, *comma = strstr(auth, ", k=");
	test_cond("k=", comma != NULL);
	if (rc < 0 || !comma)
		return;
	*comma = '\0';
	uint8_t k[65];
	test_cond("k is the public key",
	          dec(comma + 4, k, sizeof k) == 65 && memcmp(k, pub, 65) == 0);
	char *dot1 = strchr(t, '.'),
	     *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	test_cond("three parts", dot1 && dot2 && !strchr(dot2 + 1, '.'));
	if (!dot2)
		return;
	uint8_t part[512];
	*dot1 = '\0';
	size_t n = dec(t, part, sizeof part);
	json_t *h = json_loadb((const char *)part, n, 0, NULL);
	test_cond("header alg ES256, typ JWT",
	          h &&
	              strcmp(json_string_value(json_object_get(h, "alg")),
	                     "ES256") == 0 &&
	              strcmp(json_string_value(json_object_get(h, "typ")),
	                     "JWT") == 0);
	json_decref(h);
	*dot1 = '.';
	*dot2 = '\0';
	n = dec(dot1 + 1, part, sizeof part);
	json_t *c = json_loadb((const char *)part, n, 0, NULL);
	const char *aud = json_string_value(json_object_get(c, "aud"));
	const char *sub = json_string_value(json_object_get(c, "sub"));
	json_int_t exp = json_integer_value(json_object_get(c, "exp"));
	test_cond("aud is the endpoint's origin",
	          aud && strcmp(aud, "https://push.example.net") == 0);
	test_cond("sub is the contact",
	          sub && strcmp(sub, "mailto:ops@example.org") == 0);
	test_cond("exp ahead, at most 24 h", exp > now && exp <= now + 86400);
	json_decref(c);
	test_cond("the signature verifies",
	          verify_jwt(t, (size_t)(dot2 - t), dot2 + 1, pub));
	t[3] ^= 1; /* another header */
	test_cond("a changed JWT does not",
	          !verify_jwt(t, (size_t)(dot2 - t), dot2 + 1, pub));
	test_cond("more than 24 h refused",
	          push_vapid_auth(priv, "https://a.example/x", "mailto:a@b",
	                          now, 86401, auth) < 0);
	test_cond("not an http(s) URL refused",
	          push_vapid_auth(priv, "ftp://a.example/x", "mailto:a@b", now,
	                          3600, auth) < 0);
	char origin[128];
	test_cond("an explicit port stays in the origin",
	          push_origin("https://a.example:8443/p?q", origin,
	                      sizeof origin) == 0 &&
	              strcmp(origin, "https://a.example:8443") == 0);
	test_cond("IPv6 origin",
	          push_origin("http://[::1]:9/p", origin, sizeof origin) == 0 &&
	              strcmp(origin, "http://[::1]:9") == 0);
}

static void messages(void)
{
	const char *data = "{\"game_id\":\"0123456789abcdef\",\"game\":"
	                   "\"agent-avenue\",\"seq\":3,\"seat\":1,"
	                   "\"status\":\"active\",\"result\":null}";
	char *payload = NULL, topic[PUSH_TOPIC_MAX + 1];
	const char *urgency = NULL;
	int rc = push_message("turn", data, "fr", &payload, &urgency, topic);
	json_t *o = rc == 0 ? json_loads(payload, 0, NULL) : NULL;
	test_cond("a turn is pushed", rc == 0 && o);
	test_cond("in French",
	          o && strcmp(json_string_value(json_object_get(o, "title")),
	                      "\u00c0 vous de jouer") == 0);
	test_cond("the body names the game",
	          o && strstr(json_string_value(json_object_get(o, "body")),
	                      "0123456789abcdef"));
	test_cond("kind and game id",
	          o &&
	              strcmp(json_string_value(json_object_get(o, "kind")),
	                     "turn") == 0 &&
	              strcmp(json_string_value(json_object_get(o, "game_id")),
	                     "0123456789abcdef") == 0);
	test_cond("urgency high, topic the game",
	          urgency && strcmp(urgency, "high") == 0 &&
	              strcmp(topic, "0123456789abcdef") == 0);
	test_cond("under 3,000 bytes", payload && strlen(payload) < 3000);
	json_decref(o);
	free(payload);
	payload = NULL;
	rc = push_message("game.finished", data, "de", &payload, &urgency,
	                  topic);
	o = rc == 0 ? json_loads(payload, 0, NULL) : NULL;
	test_cond("another language is English, urgency normal",
	          o &&
	              strcmp(json_string_value(json_object_get(o, "title")),
	                     "Game over") == 0 &&
	              strcmp(urgency, "normal") == 0);
	json_decref(o);
	free(payload);
	payload = NULL;
	test_cond("game.started is not pushed",
	          push_message("game.started", data, "en", &payload, &urgency,
	                       topic) == 1 &&
	              !payload);
	test_cond("no game id: refused",
	          push_message("turn", "{}", "en", &payload, &urgency, topic) <
	                  0 &&
	              !payload);
}

int main(void)
{
	messages();
	rfc8291_example();
	bad_keys();
	vapid();
	return test_report("push");
}
