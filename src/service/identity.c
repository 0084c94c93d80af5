/* identity.c: finding players by a prefix of their name (so that an
 * invitation names a player, not an id), and linking another device by a
 * short code: a signed-in player makes a code, the other device claims
 * it and gets a token of its own (docs/matchmaking.md, "Finding players,
 * linking devices").  See service.h. */
#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/nickname.h"
#include "../common/qrsvg.h"
#include "internal.h"

#define FIND_DEFAULT 10 /* players GET /v1/players answers by default */
#define FIND_MAX     50 /* at most */
#define NAME_PREFIX_MAX 64 /* bytes of a prefix, as of a name */

/* ---- GET /v1/players?name=PREFIX ---- */

/* New reference: a player as others may see them. */
static json_t *found_json(const struct store_player *p)
{
	return json_pack("{s:s,s:s,s:o}", "id", p->id, "name", p->name,
	                 "created", svc__iso_time(p->created_ms));
}

static int add_found(void *ctx, const struct store_player *p)
{
	return json_array_append_new(ctx, found_json(p)) < 0 ? BD_ENOMEM : 0;
}

int service_players_find(struct service *svc, const char *name,
                         const char *limit, json_t **out, struct svc_err *err)
{
	int64_t n = FIND_DEFAULT;
	if (limit && !svc__parse_uint(limit, 1, FIND_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 FIND_MAX);
	/* The prefix as names are kept (RFC 8266: spaces, NFKC), so that
	 * "ｆｏｏ" finds "foo". */
	char prefix[NAME_PREFIX_MAX + 1];
	if (!name || nickname_enforce(name, prefix, NAME_PREFIX_MAX, NULL) < 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "name must be the first 1 to %d bytes of a "
		                 "player's name (UTF-8, not only spaces)",
		                 NAME_PREFIX_MAX);
	json_t *players = json_array();
	if (!players)
		return BD_ENOMEM;
	int rc = store_players_find(svc->st, prefix, (int)n, add_found,
	                            players);
	if (rc < 0) {
		json_decref(players);
		return rc;
	}
	return svc__give(json_pack("{s:o}", "players", players), out);
}

/* ---- link codes ---- */

#define LINK_TTL_MS   (10LL * 60 * 1000) /* a code lives 10 minutes */
#define LINK_SYMBOLS  8                  /* 40 random bits */
#define LINK_TEXT_MAX 64                 /* longest "code" read */
#define LINK_ORIGIN_MAX 160 /* longest "origin": the claim URL, 186 bytes,
                               fits QRSVG_TEXT_MAX */
#define LINK_QR_PX 6 /* CSS pixels a module: 246 px a side for a URL of up
                        to 62 bytes (33 modules), as a phone's camera reads
                        it off another screen */

/* Crockford's base32: no I, L, O, U. */
static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* A fresh code: out gets "XXXX-XXXX" (10 bytes with the NUL), canon the
 * same without the dash (the form that is hashed). */
static void link_code_new(char out[LINK_SYMBOLS + 2],
                          char canon[LINK_SYMBOLS + 1])
{
	for (int i = 0; i < LINK_SYMBOLS; i++)
		canon[i] = crockford[randombytes_uniform(32)];
	canon[LINK_SYMBOLS] = '\0';
	memcpy(out, canon, 4);
	out[4] = '-';
	memcpy(out + 5, canon + 4, 5);
}

/* The canonical form of a code as typed: dashes and spaces dropped, case
 * folded, Crockford's look-alikes read as digits (O as 0; I, L as 1).
 * 0, or -1 when it is not 8 symbols of the alphabet. */
static int link_code_canon(const char *in, char canon[LINK_SYMBOLS + 1])
{
	int n = 0;
	for (const char *p = in; *p; p++) {
		char ch = *p;
		if (ch == '-' || ch == ' ')
			continue;
		if (ch >= 'a' && ch <= 'z')
			ch = (char)(ch - 'a' + 'A');
		if (ch == 'O')
			ch = '0';
		else if (ch == 'I' || ch == 'L')
			ch = '1';
		if (!strchr(crockford, ch) || ch == '\0' || n == LINK_SYMBOLS)
			return -1;
		canon[n++] = ch;
	}
	canon[n] = '\0';
	return n == LINK_SYMBOLS ? 0 : -1;
}

/* The claim URL of `code` at `origin` (a request's "origin", borrowed):
 * url (LINK_ORIGIN_MAX + 32 bytes) gets "<origin>/#/link?code=<code>",
 * the origin as libcurl normalizes it.  The code is in the fragment,
 * which browsers never send: no server's log keeps it.  0, or
 * BD_EBADREQUEST (err) when origin is not an http or https origin. */
static int claim_url(const json_t *origin, const char *code,
                     char url[LINK_ORIGIN_MAX + 32], struct svc_err *err)
{
	const char *o = json_string_value(origin);
	size_t n = json_string_length(origin);
	int ok = o && n >= 1 && n <= LINK_ORIGIN_MAX && strlen(o) == n &&
	         (strncasecmp(o, "http://", 7) == 0 ||
	          strncasecmp(o, "https://", 8) == 0);
	/* printable ASCII only, and no '?' or '#' at all: libcurl reads an
	 * empty fragment ("https://h#") as none */
	for (size_t i = 0; ok && i < n; i++)
		ok = o[i] > ' ' && o[i] < 0x7f && o[i] != '?' && o[i] != '#';
	CURLU *u = ok ? curl_url() : NULL;
	char *scheme = NULL, *path = NULL, *base = NULL;
	if (ok && !u)
		return BD_ENOMEM;
	char *part = NULL;
	ok = ok && curl_url_set(u, CURLUPART_URL, o, 0) == CURLUE_OK &&
	     curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	     (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0) &&
	     curl_url_get(u, CURLUPART_USER, &part, 0) == CURLUE_NO_USER &&
	     curl_url_get(u, CURLUPART_QUERY, &part, 0) == CURLUE_NO_QUERY &&
	     curl_url_get(u, CURLUPART_FRAGMENT, &part, 0) ==
	         CURLUE_NO_FRAGMENT &&
	     curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK &&
	     strcmp(path, "/") == 0 &&
	     curl_url_get(u, CURLUPART_URL, &base, 0) == CURLUE_OK &&
	     strlen(base) <= LINK_ORIGIN_MAX + 1;
	if (ok)
		snprintf(url, LINK_ORIGIN_MAX + 32, "%s#/link?code=%s", base,
		         code);
	curl_free(part); /* only ever set when a get above failed: NULL */
	curl_free(scheme);
	curl_free(path);
	curl_free(base);
	curl_url_cleanup(u);
	return ok ? 0
	          : svc__fail(err, BD_EBADREQUEST,
	                      "field 'origin' must be an http or https "
	                      "origin (scheme://host[:port], no path, query "
	                      "or credentials) of at most %d bytes",
	                      LINK_ORIGIN_MAX);
}

/* Adds "claim_url" and "qr_svg" (the URL's QR code) to o (borrowed). */
static int add_qr(json_t *o, const char *url)
{
	char *svg = NULL;
	int rc = qrsvg_make(url, LINK_QR_PX, &svg);
	if (rc < 0) /* claim_url's caps keep the URL in QRSVG_TEXT_MAX */
		return rc == QRSVG_NOMEM ? BD_ENOMEM : BD_EINTERNAL;
	rc = json_object_set_new(o, "claim_url", json_string(url)) < 0 ||
	             json_object_set_new(o, "qr_svg", json_string(svg)) < 0
	         ? BD_ENOMEM
	         : 0;
	free(svg);
	return rc;
}

int service_link_code_create(struct service *svc, const char *token,
                             const json_t *body, json_t **out,
                             struct svc_err *err)
{
	static const char *const keys[] = {"origin", NULL};
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0 && body)
		rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	const json_t *origin = body ? json_object_get(body, "origin") : NULL;
	char url[LINK_ORIGIN_MAX + 32];
	/* checked before a code is made: a refusal leaves no code behind */
	if (origin && (rc = claim_url(origin, "XXXX-XXXX", url, err)) < 0)
		return rc;
	char code[LINK_SYMBOLS + 2], canon[LINK_SYMBOLS + 1];
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	int64_t now = svc__now_ms();
	rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		link_code_new(code, canon);
		token_hash(canon, hash);
		rc = store_link_code_put(svc->st, p.key, hash, now,
		                         now + LINK_TTL_MS);
	}
	sodium_memzero(canon, sizeof canon);
	if (rc == BD_ELINKCODESFULL)
		rc = svc__fail(err, rc,
		               "a player holds at most %d live link codes: use "
		               "one, or wait until one expires (10 minutes)",
		               STORE_LINK_CODES_MAX);
	else if (rc == BD_ECONFLICT)
		rc = BD_EINTERNAL;
	json_t *o = rc == 0 ? json_pack("{s:s,s:o}", "code", code, "expires_at",
	                                svc__iso_time(now + LINK_TTL_MS))
	                    : NULL;
	if (rc == 0 && !o)
		rc = BD_ENOMEM;
	if (rc == 0 && origin && (rc = claim_url(origin, code, url, err)) == 0)
		rc = add_qr(o, url);
	sodium_memzero(code, sizeof code);
	sodium_memzero(url, sizeof url);
	if (rc < 0) {
		json_decref(o);
		return rc;
	}
	return svc__give(o, out);
}

struct claim {
	struct store *st;
	const uint8_t *code_hash;
	struct store_player player; /* out: the code's player */
};

/* token_mint's store step for POST /v1/link-codes/claim: ctx a struct
 * claim. */
static int claim_add(void *ctx, const struct store_token *t,
                     const uint8_t hash[STORE_TOKEN_HASH_LEN])
{
	struct claim *x = ctx;
	return store_link_code_claim(x->st, x->code_hash, t->created_ms, t,
	                             hash, &x->player);
}

int service_link_code_claim(struct service *svc, const json_t *body,
                            json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"code", NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	json_t *cv = json_object_get(body, "code");
	const char *typed = json_string_value(cv);
	if (!typed || json_string_length(cv) > LINK_TEXT_MAX ||
	    strlen(typed) != json_string_length(cv))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'code' must be a string of at most %d "
		                 "bytes",
		                 LINK_TEXT_MAX);
	char canon[LINK_SYMBOLS + 1];
	uint8_t code_hash[STORE_TOKEN_HASH_LEN];
	/* Wrong, used, expired, or its player deleted or banned: one answer,
	 * so that nothing tells which (no oracle). */
	if (link_code_canon(typed, canon) < 0)
		return svc__fail(err, BD_ELINKCODE,
		                 "that link code is wrong, used or expired");
	token_hash(canon, code_hash);
	sodium_memzero(canon, sizeof canon);
	struct store_token t = {0};
	snprintf(t.label, sizeof t.label, "linked device");
	t.created_ms = svc__now_ms();
	char fresh[TOKEN_LEN + 1];
	struct claim claim = {svc->st, code_hash, {0}};
	rc = token_mint(&t, fresh, claim_add, &claim);
	struct store_player p = claim.player;
	if (rc == BD_ENOTFOUND)
		rc = svc__fail(err, BD_ELINKCODE,
		               "that link code is wrong, used or expired");
	else if (rc == BD_ETOKENSFULL)
		rc = svc__fail(err, rc,
		               "that player holds %d tokens already: revoke "
		               "one on a signed-in device first",
		               STORE_TOKENS_MAX);
	json_t *o = NULL;
	if (rc == 0)
		o = json_pack("{s:s,s:{s:s,s:s,s:o},s:s}", "token", fresh,
		              "player", "id", p.id, "name", p.name, "created",
		              svc__iso_time(p.created_ms), "token_id", t.id);
	sodium_memzero(fresh, sizeof fresh);
	return rc < 0 ? rc : svc__give(o, out);
}
