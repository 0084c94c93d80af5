/* webhook.c: a player's webhook (PUT/GET/DELETE /v1/players/me/webhook),
 * its deliveries, and the events of the outbox as JSON (the webhook
 * payload and the account stream's events).  See service.h. */
#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/netaddr.h"
#include "internal.h"

#define SECRET_BYTES       32 /* random bytes behind a whsec_ secret */
#define DELIVERIES_DEFAULT 20
#define DELIVERIES_MAX     100

void service_webhook_policy(struct service *svc, int allow_private)
{
	svc->hooks_allow_private = allow_private;
}

json_t *service_event_json(const struct store_event *e)
{
	json_t *data = json_loads(e->data, 0, NULL);
	return json_pack("{s:s,s:o,s:o}", "type", e->type, "timestamp",
	                 svc__iso_time(e->created_ms), "data", data);
}

/* ---- the URL ---- */

/* Its destination key (store_webhook.dest): "host:port", the host as
 * libcurl parsed it (IPv6 in brackets), lowercased, without a trailing
 * dot; the port explicit or the scheme's.  So the per-destination
 * scheduler counts http://A.example./x and http://a.example:80/y as one
 * receiver. */
static int url_dest(CURLU *u, const char *host, char *dest, size_t len)
{
	char *port = NULL;
	size_t n = strlen(host);
	if (curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) !=
	    CURLUE_OK)
		return -1;
	if (n > 1 && host[n - 1] == '.')
		n--;
	int w = snprintf(dest, len, "%.*s:%s", (int)n, host, port);
	curl_free(port);
	if (w < 0 || (size_t)w >= len)
		return -1;
	for (char *p = dest; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return 0;
}

int svc__url_check(const char *url, int allow_private, char *dest,
                   struct svc_err *err)
{
	if (strlen(url) > STORE_URL_MAX)
		return svc__fail(err, BD_EBADREQUEST,
		                 "the url must be at most %d bytes",
		                 STORE_URL_MAX);
	CURLU *u = curl_url();
	char *scheme = NULL, *user = NULL, *pass = NULL, *host = NULL;
	int rc = 0;
	if (!u)
		return BD_ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "field 'url' must be an absolute http or https "
		               "URL");
	else if (strcasecmp(scheme, "http") != 0 &&
	         strcasecmp(scheme, "https") != 0)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "the url's scheme must be http or https");
	else if (curl_url_get(u, CURLUPART_USER, &user, 0) != CURLUE_NO_USER ||
	         curl_url_get(u, CURLUPART_PASSWORD, &pass, 0) !=
	             CURLUE_NO_PASSWORD)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "the url must not hold credentials: the "
		               "signature authenticates each delivery");
	else if (!allow_private && !netaddr_host_may_be_public(host))
		rc = svc__fail(err, BD_EBADREQUEST,
		               "the url's host is not a public address "
		               "(the operator allows those with "
		               "--webhook-allow-private)");
	else if (url_dest(u, host, dest, STORE_DEST_MAX + 1) < 0)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "the url's host must be at most %d bytes",
		               STORE_DEST_MAX - 6);
	curl_free(scheme);
	curl_free(user);
	curl_free(pass);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}

/* ---- PUT, GET, DELETE /v1/players/me/webhook ---- */

/* {url, created, enabled, disabled, disabled_reason}: disabled is when a
 * receiver's 410 Gone stopped deliveries (RFC 3339) and why, both null
 * while enabled. */
static json_t *hook_json(const struct store_webhook *w)
{
	int off = w->disabled_ms != 0;
	return json_pack(
	    "{s:s,s:o,s:b,s:o,s:o}", "url", w->url, "created",
	    svc__iso_time(w->created_ms), "enabled", !off, "disabled",
	    off ? svc__iso_time(w->disabled_ms) : json_null(),
	    "disabled_reason",
	    off && w->disabled_why[0] ? json_string(w->disabled_why)
	                              : json_null());
}

int service_webhook_put(struct service *svc, const char *token,
                        const json_t *body, json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"url", NULL};
	struct store_player p;
	struct store_webhook w = {0};
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	const char *url = json_string_value(json_object_get(body, "url"));
	if (!url)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'url' (an http or https URL) is "
		                 "required");
	if ((rc = svc__url_check(url, svc->hooks_allow_private, w.dest, err)) <
	    0)
		return rc;
	snprintf(w.url, sizeof w.url, "%s", url);
	randombytes_buf(w.secret, SECRET_BYTES);
	w.secret_len = SECRET_BYTES;
	w.created_ms = svc__now_ms();
	char secret[sizeof "whsec_" +
	            sodium_base64_ENCODED_LEN(SECRET_BYTES,
	                                      sodium_base64_VARIANT_ORIGINAL)];
	memcpy(secret, "whsec_", 6);
	sodium_bin2base64(secret + 6, sizeof secret - 6, w.secret, SECRET_BYTES,
	                  sodium_base64_VARIANT_ORIGINAL);
	rc = store_webhook_put(svc->st, p.key, &w);
	json_t *o = rc == 0 ? hook_json(&w) : NULL;
	if (o)
		json_object_set_new(o, "secret", json_string(secret));
	sodium_memzero(&w, sizeof w);
	sodium_memzero(secret, sizeof secret);
	return rc < 0 ? rc : svc__give(o, out);
}

int service_webhook_get(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err)
{
	struct store_player p;
	struct store_webhook w;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = store_webhook_get(svc->st, p.key, &w);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "you have no webhook");
	if (rc < 0)
		return rc;
	json_t *o = hook_json(&w);
	sodium_memzero(&w, sizeof w);
	return svc__give(o, out);
}

int service_webhook_delete(struct service *svc, const char *token,
                           struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = store_webhook_delete(svc->st, p.key);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "you have no webhook");
	return rc;
}

/* ---- GET /v1/players/me/webhook/deliveries ---- */

static int delivery_json(void *ctx, const struct store_delivery *d)
{
	json_t *list = ctx;
	json_t *o = json_pack(
	    "{s:s,s:s,s:o,s:s,s:i,s:o,s:o,s:o,s:o}", "event_id", d->ev.id,
	    "type", d->ev.type, "created", svc__iso_time(d->ev.created_ms),
	    "state", d->state, "attempts", d->attempts, "last_attempt",
	    d->last_ms ? svc__iso_time(d->last_ms) : json_null(), "status",
	    d->last_status ? json_integer(d->last_status) : json_null(),
	    "error",
	    d->last_error[0] ? json_string(d->last_error) : json_null(),
	    "next_attempt",
	    strcmp(d->state, "pending") == 0 ? svc__iso_time(d->next_ms)
	                                     : json_null());
	return json_array_append_new(list, o) < 0 ? BD_ENOMEM : 0;
}

int service_webhook_deliveries(struct service *svc, const char *token,
                               const char *limit, json_t **out,
                               struct svc_err *err)
{
	struct store_player p;
	int64_t n = DELIVERIES_DEFAULT;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc < 0)
		return rc;
	if (limit && !svc__parse_uint(limit, 1, DELIVERIES_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 DELIVERIES_MAX);
	json_t *list = json_array();
	if (!list)
		return BD_ENOMEM;
	rc = store_deliveries_each(svc->st, p.key, (int)n, delivery_json, list);
	if (rc < 0) {
		json_decref(list);
		return rc;
	}
	return svc__give(json_pack("{s:o}", "deliveries", list), out);
}

int service_player_key(struct service *svc, const char *token, int64_t *key,
                       struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		*key = p.key;
	return rc;
}
