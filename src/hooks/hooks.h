/* hooks.h: the webhook delivery worker.  Its manual.
 *
 * Worker threads take pending deliveries from the outbox (store.h) and
 * POST each event as a Standard Webhook (https://www.standardwebhooks.com):
 *   webhook-id:        the event's stable id (the same on every attempt)
 *   webhook-timestamp: the attempt's time, unix seconds
 *   webhook-signature: "v1," + base64(HMAC-SHA256(secret bytes,
 *                      "<webhook-id>.<webhook-timestamp>.<body>"))
 * with the body service_event_json gives.  A 2xx answer delivers it;
 * anything else (another status, a timeout, a refused address) is retried
 * after retry_ms * 2^(attempts-1), capped at retry_ms * 720 (an hour with
 * the default), each delay with jitter (half fixed, half random), until
 * the event is more than 25 hours old; then the delivery fails.  A 410
 * Gone answer (the Standard Webhooks way for a receiver to unsubscribe)
 * disables the webhook at once (store_delivery_gone): its pending
 * deliveries fail and none is made until the player PUTs it again.  The
 * worker never follows redirects, uses no proxy, speaks only http and
 * https, and (unless allow_private) refuses to connect to an address that
 * netaddr_is_public rejects, checked on the address it actually connects
 * to, after DNS resolution (so a rebinding name cannot reach inside).
 * Deliveries left in flight by a crash are due again at start.  HTTP
 * request threads never wait for a delivery: they only poke the worker.
 *
 * Isolation per destination (issue 34): a webhook's destination is its
 * URL's host:port (store_webhook.dest).  The workers (8 by default) share
 * themselves among destinations so that a slow or dead receiver holds a
 * small, bounded part of them (store_claim_rules):
 *   - at most per_dest attempts (2 by default) are in flight to one
 *     destination, and 1 once its attempts fail or are slow;
 *   - an attempt longer than the slow threshold, min(1 s, timeout_ms /
 *     2), is slow (answered or not): its destination counts with the
 *     failing ones (store_dest_answer) until an attempt there is
 *     answered within the threshold;
 *   - the workers on destinations whose last attempt failed or was
 *     slow, and on any attempt past the slow threshold, are at most a
 *     quarter of them (at least 1): the others serve healthy ones.  An
 *     attempt that passes the threshold with that share full is cut
 *     short there ("timeout", retried);
 *   - a destination's breaker (store_breaker) opens after 3 consecutive
 *     attempts with no answer (no connection, timeout, TLS, a broken
 *     reply) for retry_ms, doubled per further failure up to
 *     32 * retry_ms (2 min 40 s by default); then one attempt probes it
 *     (half open) and an answer closes it;
 *   - an answer that is not 2xx (nor 410) is the webhook's failure, not
 *     its host's: the webhook's other waiting deliveries wait for the
 *     failed one's retry, and other webhooks at that host go on;
 *   - each attempt's time in flight (answered or not) is added to its
 *     destination's use, which drains at 1/16 of real time; of the
 *     destinations with a delivery due, the claim serves first the one
 *     with the least use (store_delivery_claim), so destinations that keep
 *     workers busy, however fast each attempt (just under the slow
 *     threshold), wait behind one that used little lately;
 *   - attempts go in order of when they are due within a destination,
 *     and one destination's backlog never holds back another's claim.
 * A failed attempt's error is one word (the deliveries list shows it):
 * "connect-failed" (no connection: the name did not resolve, the address
 * is not public, or none answered; one word for all, so that it tells
 * nothing of the server's resolver), "timeout", "tls", "bad-response"
 * (connected, but no HTTP answer), "http-status" (an answer not 2xx: its
 * status is shown), "internal" (the server's side); libcurl's own text
 * goes to the log only.
 *
 * The workers also prune the outbox (store_events_prune): every
 * max(1 s, min(retention / 4, 10 min)), the events older than
 * retention_ms whose delivery is no longer pending (delivered, failed, or
 * none) are deleted, first at start.  Retries are never cut short: an
 * event stays while its delivery is pending (at most 25 hours).
 */
#ifndef BD_HOOKS_H
#define BD_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"

struct hooks_config {
	int allow_private;    /* 1: private addresses may be reached (tests) */
	int64_t retry_ms;     /* first retry delay, ms (>= 1); 0: 5000 */
	int64_t timeout_ms;   /* whole attempt, ms; 0: 10000 */
	int workers;          /* delivery threads, 1..64; 0: 8 */
	int per_dest;         /* attempts in flight per destination; 0: 2 */
	int64_t retention_ms; /* how long events stay, ms; 0: 7 days */
	/* Web Push (push_send.c; NULL push_key: off): the VAPID private
	 * key (PUSH_PRIV_LEN bytes) and contact (a mailto: or https: URI,
	 * at most PUSH_CONTACT_MAX bytes), both copied by hooks_start; and
	 * who is live on a game (NULL: nobody), asked before each push
	 * (1: player_key holds a live stream on game_key; quick,
	 * thread-safe, calls no store). */
	const uint8_t *push_key;
	const char *push_contact;
	int (*push_live)(void *ctx, int64_t game_key, int64_t player_key);
	void *push_live_ctx;
	/* Email (mail_send.c; NULL smtp_url: off), all copied by
	 * hooks_start: the SMTP server (smtp://host:port or smtps://...,
	 * at most HOOKS_SMTP_MAX bytes each), its user and password (NULL:
	 * none), the envelope and From address, and the server's public
	 * base URL for links (https://host[:port], no trailing slash).
	 * push_live is asked before each mail about a game too. */
	const char *smtp_url;
	const char *smtp_user;
	const char *smtp_password;
	const char *mail_from;
	const char *public_url;
};

#define HOOKS_SMTP_MAX 255 /* longest smtp_url, user, password, from, URL */

struct hooks;

/* Initialises libcurl (call before other threads use it), requeues the
 * deliveries a crash left in flight and starts the workers over `st`
 * (borrowed, must outlive them).  NULL with a sentence in err on
 * failure. */
struct hooks *hooks_start(struct store *st, const struct hooks_config *cfg,
                          char *err, size_t errlen);

/* Wakes the workers: new deliveries may be due.  Quick, thread-safe. */
void hooks_poke(struct hooks *h);

/* Stops the workers (an attempt in progress ends within its timeout) and
 * frees h.  NULL is a no-op. */
void hooks_stop(struct hooks *h);

/* How an attempt ended (GET /metrics), counted process-wide since
 * start, by every worker of every hooks_start. */
enum hooks_outcome {
	HOOKS_DELIVERED = 0, /* answered 2xx: delivered */
	HOOKS_RETRIED = 1,   /* failed, another attempt is scheduled */
	HOOKS_FAILED = 2,    /* failed for the last time (the event is too
	                        old to retry): the delivery failed */
	HOOKS_GONE = 3,      /* answered 410 Gone: the webhook is disabled */
	HOOKS_OUTCOMES = 4
};

/* The attempts ended with each outcome so far into out[0..HOOKS_OUTCOMES)
 * (relaxed atomic reads: each count exact, not a snapshot of all four).
 * Thread-safe. */
void hooks_outcomes(uint64_t out[HOOKS_OUTCOMES]);

/* The same for Web Push attempts (HOOKS_GONE: the push service answered
 * 404 or 410 and the subscription was deleted).  Thread-safe. */
void hooks_push_outcomes(uint64_t out[HOOKS_OUTCOMES]);

/* The same for mails (HOOKS_GONE unused).  Thread-safe. */
void hooks_mail_outcomes(uint64_t out[HOOKS_OUTCOMES]);

/* The webhook-signature value for one attempt: "v1," + base64 of the
 * HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with secret[0..len).
 * `out` needs HOOKS_SIGNATURE_LEN bytes. */
#define HOOKS_SIGNATURE_LEN 64
void hooks_sign(const uint8_t *secret, size_t secret_len, const char *id,
                int64_t timestamp, const char *body, size_t body_len,
                char out[HOOKS_SIGNATURE_LEN]);

/* ---- Web Push delivery (push_send.c) ----
 *
 * With push_key set, the same workers also claim Web Push deliveries
 * (store.h, "Web Push deliveries"), turn about with webhook ones when
 * both are due, under the same per-destination rules, breakers and
 * failing share (the destination is the subscription's "host:port").
 * Each attempt, RFC 8030 §5 / RFC 8291 / RFC 8292:
 *   POST <endpoint>
 *   TTL: 43200                   (12 hours)
 *   Urgency: high | normal       (push_message: "high" for a turn)
 *   Topic: <game id>             (a newer message about the game
 *                                 replaces an older one not yet shown)
 *   Content-Encoding: aes128gcm  Content-Type: application/octet-stream
 *   Authorization: vapid t=<JWT, exp 12 hours ahead>, k=<public key>
 * and as body push_message's JSON encrypted by push_encrypt (a clock.low
 * delivery as a "deadline.soon").  Before it, a player live on the game
 * (push_live), or a clock.low warning whose game moved since its "turn"
 * event (stale), makes the delivery "skipped", with no request.  A 2xx delivers
 * it; 404 or 410 (RFC 8030 §7.3: the subscription expired or was removed)
 * deletes the subscription and its deliveries (store_push_sub_gone, outcome
 * HOOKS_GONE); anything else is retried as a webhook delivery is (same backoff,
 * 25 hours), and errors use the same words. */

/* ---- Email delivery (mail_send.c) ----
 *
 * With smtp_url set, the same workers also claim mails (store.h,
 * "email"), turn about with webhook and push ones, under the same
 * per-destination rules (the SMTP server is one destination, "smtp").
 * Each attempt is one SMTP transaction by libcurl (MAIL FROM mail_from,
 * RCPT TO the address) of a MIME message (curl_mime_*): multipart/mixed
 * holding one multipart/alternative of text/plain and text/html (UTF-8),
 * in the address's language, with From, To, Subject (RFC 2047 when not
 * ASCII), Date, Message-ID (<random hex@mail_from's domain>), and for
 * every mail but a confirmation List-Unsubscribe:
 * <public_url/v1/unsubscribe/TOKEN> and List-Unsubscribe-Post:
 * List-Unsubscribe=One-Click (RFC 8058).  An attempt that fails (no
 * connection, a refusal, a timeout) is retried with the webhook backoff
 * for 25 hours; a mail about a game the player is live on is skipped.
 * Once a second one worker also queues the daily digests due
 * (store_mail_digests_due, store_mail_digest_take: the next a day on, by
 * tzhour_next in the player's zone); a digest lists the games waiting
 * for the player when it is sent, and is skipped when none waits. */

#endif
