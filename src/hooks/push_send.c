/* push_send.c: one Web Push attempt (RFC 8030, 8291, 8292) by the
 * delivery workers.  See hooks.h, "Web Push delivery". */
#include <inttypes.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "hooks_int.h"

#define PUSH_TTL_S       43200 /* RFC 8030 §5.2 TTL: 12 hours */
#define PUSH_VAPID_EXP_S 43200 /* the JWT's exp, ahead of now (<= 24 h) */

/* What an attempt sends: the encrypted body and its headers. */
struct push_request {
	uint8_t *body; /* malloc'd aes128gcm message */
	size_t len;
	struct curl_slist *hd;
};

/* Builds d's request: its payload (push_message, in the subscription's
 * language) encrypted for the subscription, and the headers.  0, or -1
 * (the event cannot be pushed: bad data, a bad key, out of memory). */
static int request_of(struct hooks *h, const struct store_push_delivery *d,
                      struct push_request *r)
{
	char *payload = NULL, topic[PUSH_TOPIC_MAX + 1];
	const char *urgency = NULL;
	char auth[PUSH_AUTH_HEADER_MAX], auth_h[PUSH_AUTH_HEADER_MAX + 32];
	char ttl_h[32], urgency_h[32], topic_h[PUSH_TOPIC_MAX + 16];
	memset(r, 0, sizeof *r);
	/* a clock.low warning says what a deadline.soon says */
	if (push_message(d->clock_low ? "deadline.soon" : d->ev.type,
	                 d->ev.data, d->sub.lang, &payload, &urgency,
	                 topic) != 0)
		return -1;
	int rc =
	    push_encrypt(d->sub.p256dh, d->sub.auth, (const uint8_t *)payload,
	                 strlen(payload), NULL, NULL, &r->body, &r->len);
	free(payload);
	if (rc == 0)
		rc = push_vapid_auth(h->vapid, d->sub.endpoint, h->contact,
		                     hooks__wall_ms() / 1000, PUSH_VAPID_EXP_S,
		                     auth);
	if (rc < 0) {
		free(r->body);
		r->body = NULL;
		return -1;
	}
	snprintf(auth_h, sizeof auth_h, "Authorization: %s", auth);
	snprintf(ttl_h, sizeof ttl_h, "TTL: %d", PUSH_TTL_S);
	snprintf(urgency_h, sizeof urgency_h, "Urgency: %s", urgency);
	snprintf(topic_h, sizeof topic_h, "Topic: %s", topic);
	const char *lines[] = {"Content-Type: application/octet-stream",
	                       "Content-Encoding: aes128gcm",
	                       "User-Agent: boardd-push/1",
	                       ttl_h,
	                       urgency_h,
	                       topic_h,
	                       auth_h,
	                       "Expect:"};
	r->hd = hooks__headers(lines, sizeof lines / sizeof *lines);
	if (!r->hd) {
		free(r->body);
		r->body = NULL;
		return -1;
	}
	return 0;
}

/* Records a failed attempt at d: retried with the webhook backoff, or
 * failed for good once its event is too old. */
static void failed(struct hooks *h, const struct store_push_delivery *d,
                   long status, const char *kind, enum store_dest_answer answer,
                   int64_t busy)
{
	int64_t now = hooks__wall_ms();
	int64_t next =
	    hooks__next_attempt(h, d->attempts + 1, d->ev.created_ms, now);
	const struct store_breaker b = {BREAKER_FAILURES, h->cfg.retry_ms,
	                                h->cfg.retry_ms * BREAKER_MAX_FACTOR};
	/* a stop cut the attempt short: no fault of the push service's */
	int stopped = atomic_load(&h->stopping);
	int rc = store_push_delivery_done(
	    h->st, d->key, next ? STORE_PUSH_RETRY : STORE_PUSH_FAILED,
	    (int)status, kind, next, d->sub.dest, answer, busy,
	    stopped ? NULL : &b);
	if (rc < 0)
		log_error("push",
		          "recording push delivery %s failed (bd_err %d); it "
		          "is tried again when its lease ends",
		          d->ev.id, rc);
	hooks__outcome(1, next ? HOOKS_RETRIED : HOOKS_FAILED);
}

/* 1 if d is a clock.low warning whose decision is over: the game moved
 * since the "turn" event that named the deadline. */
static int stale(const struct store_push_delivery *d)
{
	if (!d->clock_low)
		return 0;
	json_t *o = json_loads(d->ev.data, 0, NULL);
	json_int_t seq = json_integer_value(json_object_get(o, "seq"));
	json_decref(o);
	return !o || seq != (json_int_t)d->game_seq;
}

void hooks__push_deliver(struct hooks *h, struct store_push_delivery *d,
                         int *in_share)
{
	const char *skip = stale(d) ? "stale" : NULL;
	if (!skip && h->cfg.push_live &&
	    h->cfg.push_live(h->cfg.push_live_ctx, d->game_key, d->player_key))
		skip = "live"; /* the player is looking at the game */
	if (skip) {
		store_push_delivery_done(h->st, d->key, STORE_PUSH_SKIPPED, 0,
		                         skip, 0, NULL, STORE_DEST_FAST, 0,
		                         NULL);
		return;
	}
	struct push_request r;
	if (request_of(h, d, &r) < 0) {
		log_error("push",
		          "push delivery %s (event type %s) cannot be made: "
		          "it fails",
		          d->ev.id, d->ev.type);
		store_push_delivery_done(h->st, d->key, STORE_PUSH_FAILED, 0,
		                         "internal", 0, NULL, STORE_DEST_FAST,
		                         0, NULL);
		hooks__outcome(1, HOOKS_FAILED);
		return;
	}
	char what[64];
	const char *kind = "internal";
	enum store_dest_answer answer = STORE_DEST_FAILED;
	snprintf(what, sizeof what, "push delivery %s", d->ev.id);
	int64_t t0 = hooks__mono_ms();
	long status =
	    hooks__post(h, d->sub.endpoint, r.hd, r.body, r.len, in_share,
	                "push", what, d->sub.dest, &kind, &answer);
	int64_t busy = hooks__mono_ms() - t0;
	curl_slist_free_all(r.hd); /* its Authorization is public: no wipe */
	free(r.body);
	if (status == 404 || status == 410) {
		/* RFC 8030 §7.3: expired or unsubscribed, for good */
		if (store_push_sub_gone(h->st, d->sub_key, d->sub.dest, busy) <
		    0)
			failed(h, d, status, "internal", answer, busy);
		else
			hooks__outcome(1, HOOKS_GONE);
		return;
	}
	if (kind) {
		failed(h, d, status, kind, answer, busy);
		return;
	}
	const struct store_breaker b = {BREAKER_FAILURES, h->cfg.retry_ms,
	                                h->cfg.retry_ms * BREAKER_MAX_FACTOR};
	store_push_delivery_done(h->st, d->key, STORE_PUSH_DELIVERED,
	                         (int)status, NULL, 0, d->sub.dest, answer,
	                         busy, &b);
	hooks__outcome(1, HOOKS_DELIVERED);
}
