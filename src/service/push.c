/* push.c: Web Push subscriptions (GET /v1/push/key,
 * /v1/players/me/push-subscriptions).  See service.h and
 * docs/notifications.md. */
#include <math.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../push/push.h"
#include "internal.h"
#include "token.h"

#define CLOCK_LOW_MAX 2592000 /* 30 days, seconds */

void service_push_config(struct service *svc, const uint8_t key[65])
{
	memcpy(svc->push_key, key, sizeof svc->push_key);
	svc->push_on = 1;
}

static int push_off(struct svc_err *err)
{
	return svc__fail(err, BD_ENOROUTE,
	                 "Web Push is off on this server (the operator "
	                 "turns it on with --push-contact)");
}

int service_push_key(struct service *svc, json_t **out, struct svc_err *err)
{
	char key[PUSH_B64URL_LEN(PUSH_POINT_LEN)];
	if (!svc->push_on)
		return push_off(err);
	push_b64url_encode(svc->push_key, sizeof svc->push_key, key,
	                   sizeof key);
	return svc__give(json_pack("{s:s}", "key", key), out);
}

static json_t *sub_json(const struct store_push_sub *p)
{
	return json_pack("{s:s,s:s,s:s,s:I,s:o,s:o}", "id", p->id, "endpoint",
	                 p->endpoint, "lang", p->lang, "clock_low_seconds",
	                 (json_int_t)p->clock_low_s, "expiration_time",
	                 p->expires_ms ? svc__iso_time(p->expires_ms)
	                               : json_null(),
	                 "created", svc__iso_time(p->created_ms));
}

/* Decodes keys.<name> (base64url of exactly len bytes) into out. */
static int key_field(const json_t *keys, const char *name, uint8_t *out,
                     size_t len, struct svc_err *err)
{
	const char *s = json_string_value(json_object_get(keys, name));
	size_t n = 0;
	if (!s)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'keys.%s' (base64url) is required",
		                 name);
	if (push_b64url_decode(s, out, len, &n) < 0 || n != len)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'keys.%s' must be base64url (RFC 4648 "
		                 "§5) of %zu bytes",
		                 name, len);
	return 0;
}

/* The body's fields into p (all but id and created_ms). */
static int sub_parse(struct service *svc, const json_t *body,
                     struct store_push_sub *p, struct svc_err *err)
{
	static const char *const fields[] = {
	    "endpoint", "expirationTime",    "keys",
	    "lang",     "clock_low_seconds", NULL};
	static const char *const key_names[] = {"p256dh", "auth", NULL};
	int rc = svc__body_keys(body, fields, err);
	if (rc < 0)
		return rc;
	const char *url = json_string_value(json_object_get(body, "endpoint"));
	const json_t *keys = json_object_get(body, "keys");
	const json_t *exp = json_object_get(body, "expirationTime");
	const json_t *lang = json_object_get(body, "lang");
	const json_t *low = json_object_get(body, "clock_low_seconds");
	if (!url)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'endpoint' (the push service's https "
		                 "URL) is required");
	/* https only: http is for a local test push service, with the
	 * private addresses (--webhook-allow-private) */
	if (strncasecmp(url, "https://", 8) != 0 && !svc->hooks_allow_private)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'endpoint' must be an https URL");
	if ((rc = svc__url_check(url, svc->hooks_allow_private, p->dest, err)) <
	    0)
		return rc;
	snprintf(p->endpoint, sizeof p->endpoint, "%s", url);
	if (!json_is_object(keys))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'keys' ({\"p256dh\", \"auth\"}) is "
		                 "required");
	if ((rc = svc__body_keys(keys, key_names, err)) < 0 ||
	    (rc = key_field(keys, "p256dh", p->p256dh, sizeof p->p256dh, err)) <
	        0 ||
	    (rc = key_field(keys, "auth", p->auth, sizeof p->auth, err)) < 0)
		return rc;
	if (push_point_check(p->p256dh, sizeof p->p256dh) < 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'keys.p256dh' must be an uncompressed "
		                 "P-256 point on the curve");
	if (exp && !json_is_null(exp)) {
		double v = json_number_value(exp);
		if (!json_is_number(exp) || !isfinite(v) || v < 0 || v > 9e15)
			return svc__fail(err, BD_EBADREQUEST,
			                 "field 'expirationTime' must be null "
			                 "or unix milliseconds");
		p->expires_ms = (int64_t)v;
	}
	const char *l = lang ? json_string_value(lang) : "en";
	if (!l || (strcmp(l, "en") != 0 && strcmp(l, "fr") != 0))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'lang' must be \"en\" or \"fr\"");
	snprintf(p->lang, sizeof p->lang, "%s", l);
	if (low && (!json_is_integer(low) || json_integer_value(low) < 0 ||
	            json_integer_value(low) > CLOCK_LOW_MAX))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'clock_low_seconds' must be an integer "
		                 "from 0 to %d",
		                 CLOCK_LOW_MAX);
	p->clock_low_s = low ? json_integer_value(low) : 0;
	return 0;
}

int service_push_sub_add(struct service *svc, const char *token,
                         const json_t *body, json_t **out, struct svc_err *err)
{
	struct store_player pl;
	struct store_push_sub p = {0};
	if (!svc->push_on)
		return push_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = sub_parse(svc, body, &p, err);
	if (rc < 0)
		return rc;
	p.created_ms = svc__now_ms();
	for (int i = 0; i < 3; i++) { /* a taken id: another */
		token_game_id(p.id);
		rc = store_push_sub_add(svc->st, pl.key, &p);
		if (rc != BD_ECONFLICT)
			break;
	}
	if (rc == BD_EPUSHFULL)
		return svc__fail(err, rc,
		                 "you hold %d push subscriptions, the most "
		                 "allowed: delete one first",
		                 STORE_PUSH_SUBS_MAX);
	json_t *o = rc == 0 ? sub_json(&p) : NULL;
	sodium_memzero(&p, sizeof p);
	return rc < 0 ? rc : svc__give(o, out);
}

static int list_one(void *ctx, const struct store_push_sub *p)
{
	return json_array_append_new(ctx, sub_json(p)) < 0 ? BD_ENOMEM : 0;
}

int service_push_subs_list(struct service *svc, const char *token, json_t **out,
                           struct svc_err *err)
{
	struct store_player pl;
	if (!svc->push_on)
		return push_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc < 0)
		return rc;
	json_t *list = json_array();
	if (!list)
		return BD_ENOMEM;
	rc = store_push_subs_each(svc->st, pl.key, list_one, list);
	if (rc < 0) {
		json_decref(list);
		return rc;
	}
	return svc__give(json_pack("{s:o}", "subscriptions", list), out);
}

int service_push_sub_delete(struct service *svc, const char *token,
                            const char *id, struct svc_err *err)
{
	struct store_player pl;
	if (!svc->push_on)
		return push_off(err);
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = token_is_game_id(id)
		         ? store_push_sub_delete(svc->st, pl.key, id)
		         : BD_ENOTFOUND;
	if (rc == BD_ENOTFOUND) /* "not-found": no game is meant */
		return svc__fail(err, BD_ENOROUTE,
		                 "you have no push subscription with that id");
	return rc;
}
