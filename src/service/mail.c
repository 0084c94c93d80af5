/* mail.c: a player's email address (/v1/players/me/email) and the
 * one-click unsubscribe (/v1/unsubscribe/{token}).  See service.h and
 * docs/notifications.md, "Email". */
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../common/tzhour.h"
#include "internal.h"

#define CODE_DIGITS      8
#define ADDR_WINDOW_MS   (24LL * 3600 * 1000) /* one code per address */
#define PLAYER_WINDOW_MS (3600LL * 1000)      /* at most PLAYER_CODES */
#define PLAYER_CODES     3                    /* codes a player asks for */
#define LOCAL_MAX        64                   /* RFC 5321 §4.5.3.1.1 */

void service_mail_config(struct service *svc, unsigned code_s)
{
	svc->mail_on = 1;
	svc->mail_code_ms = (int64_t)(code_s ? code_s : 1800) * 1000;
}

static int mail_off(struct svc_err *err)
{
	return svc__fail(err, BD_ENOROUTE,
	                 "email is off on this server (the operator turns "
	                 "it on with --smtp-url)");
}

static int no_address(struct svc_err *err)
{
	return svc__fail(err, BD_ENOROUTE, "you have no email address");
}

/* 1 if c may stand in a local part unquoted (RFC 5322 atext). */
static int atext(int c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* 1 if d is a domain boardd mails: dot-separated labels of letters,
 * digits and inner hyphens (1..63 each), at least two, the last not
 * all digits. */
static int domain_ok(const char *d)
{
	int labels = 0, digits_only = 1;
	size_t n = 0;
	for (const char *p = d;; p++) {
		if (*p == '.' || !*p) {
			if (n == 0 || n > 63 || p[-1] == '-')
				return 0;
			labels++;
			if (!*p)
				break;
			n = 0;
			digits_only = 1;
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '-')
			return 0;
		if (*p == '-' && n == 0)
			return 0;
		if (!isdigit((unsigned char)*p))
			digits_only = 0;
		n++;
	}
	return labels >= 2 && !digits_only;
}

/* The address in v lower-cased into out (STORE_MAIL_ADDR_MAX + 1): a
 * dot-atom local part (no quoting, no comments) '@' a domain.  0, or
 * BD_EMAILADDR. */
static int address_of(const json_t *v, char *out, struct svc_err *err)
{
	const char *a = json_string_value(v);
	size_t n = a ? strlen(a) : 0;
	const char *at = a ? strrchr(a, '@') : NULL;
	int ok = a && n >= 3 && n <= STORE_MAIL_ADDR_MAX && at && at != a &&
	         (size_t)(at - a) <= LOCAL_MAX && a[0] != '.' && at[-1] != '.';
	for (const char *p = a; ok && p < at; p++)
		ok = atext((unsigned char)*p) || (*p == '.' && p[1] != '.');
	if (ok) {
		for (size_t i = 0; i <= n; i++)
			out[i] = (char)tolower((unsigned char)a[i]);
		ok = domain_ok(out + (at - a) + 1);
	}
	if (!ok)
		return svc__fail(err, BD_EMAILADDR,
		                 "field 'address' must be an email address "
		                 "local@domain.tld (RFC 5321: a dot-atom local "
		                 "part of at most 64 bytes, at most 254 bytes in "
		                 "all)");
	return 0;
}

/* A language field (NULL: dflt) into out (8 bytes). */
static int lang_of(const json_t *v, const char *dflt, char *out,
                   struct svc_err *err)
{
	const char *l = v ? json_string_value(v) : dflt;
	if (!l || (strcmp(l, "en") != 0 && strcmp(l, "fr") != 0))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'language' must be \"en\" or \"fr\"");
	memmove(out, l, strlen(l) + 1); /* l may be out itself */
	return 0;
}

/* BLAKE2b-256 of the code and the address it was mailed to. */
static void code_hash(const char *code, const char *address,
                      uint8_t out[STORE_MAIL_CODE_LEN])
{
	crypto_generichash_state st;
	crypto_generichash_init(&st, NULL, 0, STORE_MAIL_CODE_LEN);
	crypto_generichash_update(&st, (const unsigned char *)code,
	                          strlen(code) + 1);
	crypto_generichash_update(&st, (const unsigned char *)address,
	                          strlen(address));
	crypto_generichash_final(&st, out, STORE_MAIL_CODE_LEN);
}

json_t *svc__mail_json(const struct store_mail *m)
{
	return json_pack("{s:s,s:s,s:b,s:s,s:i,s:s,s:o}", "address",
	                 m->address, "language", m->lang, "confirmed",
	                 m->confirmed_ms > 0, "mode", m->mode, "digest_hour",
	                 m->digest_hour, "time_zone", m->tz, "created",
	                 svc__iso_time(m->created_ms));
}

/* The caller's address as GET shows it into *out. */
static int give_mail(struct service *svc, int64_t player_key, json_t **out,
                     struct svc_err *err)
{
	struct store_mail m;
	int rc = store_mail_get(svc->st, player_key, &m);
	if (rc == BD_ENOTFOUND)
		return no_address(err);
	return rc < 0 ? rc : svc__give(svc__mail_json(&m), out);
}

int service_mail_set(struct service *svc, const char *token, const json_t *body,
                     json_t **out, struct svc_err *err)
{
	static const char *const fields[] = {"address", "language", NULL};
	struct store_player pl;
	struct store_mail m = {0};
	if (!svc->mail_on)
		return mail_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = svc__body_keys(body, fields, err);
	if (rc == 0)
		rc = address_of(json_object_get(body, "address"), m.address,
		                err);
	if (rc == 0)
		rc = lang_of(json_object_get(body, "language"), "en", m.lang,
		             err);
	if (rc < 0)
		return rc;
	char code[CODE_DIGITS + 1];
	uint8_t hash[STORE_MAIL_CODE_LEN], rnd[32];
	snprintf(code, sizeof code, "%08u",
	         (unsigned)randombytes_uniform(100000000u));
	code_hash(code, m.address, hash);
	randombytes_buf(rnd, sizeof rnd);
	sodium_bin2base64(m.unsub_token, sizeof m.unsub_token, rnd, sizeof rnd,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	m.created_ms = svc__now_ms();
	m.code_expires_ms = m.created_ms + svc->mail_code_ms;
	const struct store_mail_limits lim = {ADDR_WINDOW_MS, PLAYER_WINDOW_MS,
	                                      PLAYER_CODES};
	rc = store_mail_set(svc->st, pl.key, &m, hash, code, &lim);
	sodium_memzero(code, sizeof code);
	if (rc == BD_EMAILLIMIT)
		return svc__fail(err, rc,
		                 "a confirmation code was mailed to that address "
		                 "in the last 24 hours, or you asked for %d this "
		                 "hour: try again later",
		                 PLAYER_CODES);
	return rc < 0 ? rc : give_mail(svc, pl.key, out, err);
}

int service_mail_confirm(struct service *svc, const char *token,
                         const json_t *body, json_t **out,
                         struct svc_err *err)
{
	static const char *const fields[] = {"code", NULL};
	struct store_player pl;
	struct store_mail m;
	if (!svc->mail_on)
		return mail_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = svc__body_keys(body, fields, err);
	if (rc < 0)
		return rc;
	const char *code = json_string_value(json_object_get(body, "code"));
	if (!code || strlen(code) != CODE_DIGITS ||
	    strspn(code, "0123456789") != CODE_DIGITS)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'code' must be the %d digits mailed",
		                 CODE_DIGITS);
	rc = store_mail_get(svc->st, pl.key, &m);
	if (rc == BD_ENOTFOUND)
		return no_address(err);
	if (rc < 0)
		return rc;
	uint8_t hash[STORE_MAIL_CODE_LEN];
	code_hash(code, m.address, hash);
	rc = store_mail_confirm(svc->st, pl.key, hash, svc__now_ms());
	if (rc == BD_EMAILCODE)
		return svc__fail(err, rc,
		                 "that code is wrong, expired or already used: "
		                 "ask for another by POSTing the address again");
	return rc < 0 ? rc : give_mail(svc, pl.key, out, err);
}

int service_mail_get(struct service *svc, const char *token, json_t **out,
                     struct svc_err *err)
{
	struct store_player pl;
	if (!svc->mail_on)
		return mail_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	return rc < 0 ? rc : give_mail(svc, pl.key, out, err);
}

int service_mail_patch(struct service *svc, const char *token,
                       const json_t *body, json_t **out, struct svc_err *err)
{
	static const char *const fields[] = {"mode", "language", "digest_hour",
	                                     "time_zone", NULL};
	struct store_player pl;
	struct store_mail m;
	if (!svc->mail_on)
		return mail_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = svc__body_keys(body, fields, err);
	if (rc < 0)
		return rc;
	rc = store_mail_get(svc->st, pl.key, &m);
	if (rc == BD_ENOTFOUND)
		return no_address(err);
	if (rc < 0)
		return rc;
	const json_t *mode = json_object_get(body, "mode");
	const json_t *hour = json_object_get(body, "digest_hour");
	const json_t *zone = json_object_get(body, "time_zone");
	if (mode) {
		const char *v = json_string_value(mode);
		if (!v || (strcmp(v, "event") != 0 && strcmp(v, "digest") != 0 &&
		           strcmp(v, "none") != 0))
			return svc__fail(err, BD_EBADREQUEST,
			                 "field 'mode' must be \"event\", "
			                 "\"digest\" or \"none\"");
		snprintf(m.mode, sizeof m.mode, "%s", v);
	}
	if (hour) {
		if (!json_is_integer(hour) || json_integer_value(hour) < 0 ||
		    json_integer_value(hour) > 23)
			return svc__fail(err, BD_EBADREQUEST,
			                 "field 'digest_hour' must be an integer "
			                 "from 0 to 23");
		m.digest_hour = (int)json_integer_value(hour);
	}
	if (zone) {
		const char *z = json_string_value(zone);
		if (!z || !tzhour_zone_ok(z))
			return svc__fail(err, BD_EBADREQUEST,
			                 "field 'time_zone' must be an IANA time "
			                 "zone, such as \"Europe/Paris\"");
		snprintf(m.tz, sizeof m.tz, "%s", z);
	}
	if ((rc = lang_of(json_object_get(body, "language"), m.lang, m.lang,
	                  err)) < 0)
		return rc;
	/* the next digest: the first digest_hour:00 ahead in the zone */
	int64_t due = 0;
	if (strcmp(m.mode, "digest") == 0 &&
	    tzhour_next(m.tz, m.digest_hour, svc__now_ms(), &due) < 0)
		return BD_EINTERNAL; /* a zone checked above, or stored */
	rc = store_mail_prefs(svc->st, pl.key, m.mode, m.digest_hour, m.tz,
	                      m.lang, due);
	if (rc == BD_ENOTFOUND)
		return no_address(err);
	return rc < 0 ? rc : give_mail(svc, pl.key, out, err);
}

int service_mail_delete(struct service *svc, const char *token,
                        struct svc_err *err)
{
	struct store_player pl;
	if (!svc->mail_on)
		return mail_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = store_mail_delete(svc->st, pl.key);
	return rc == BD_ENOTFOUND ? no_address(err) : rc;
}

int service_mail_unsubscribe(struct service *svc, const char *utoken,
                             int apply, json_t **out, struct svc_err *err)
{
	struct store_mail m;
	size_t n = strlen(utoken);
	int rc = n > 0 && n <= STORE_MAIL_TOKEN_MAX &&
	                 strspn(utoken, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
	                                "klmnopqrstuvwxyz0123456789-_") == n
	             ? store_mail_unsubscribe(svc->st, utoken, apply, &m)
	             : BD_ENOTFOUND;
	if (rc == BD_ENOTFOUND) /* the address's player, told apart from an
	                           unrouted path */
		return svc__fail(err, BD_EUNKNOWNPLAYER,
		                 "no address has that unsubscribe link (it "
		                 "changes when the address does)");
	if (rc < 0)
		return rc;
	/* no login: the address is shown masked */
	const char *at = strrchr(m.address, '@');
	char masked[STORE_MAIL_ADDR_MAX + 8];
	snprintf(masked, sizeof masked, "%c***%s", m.address[0],
	         at ? at : "");
	return svc__give(json_pack("{s:s,s:s}", "address", masked, "mode",
	                           m.mode),
	                 out);
}
