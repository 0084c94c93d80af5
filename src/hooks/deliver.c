/* deliver.c: the webhook delivery workers.  See hooks.h. */
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "../common/log.h"
#include "../common/netaddr.h"
#include "../service/service.h"
#include "hooks_int.h"

#define RETRY_DEFAULT_MS   5000
#define TIMEOUT_DEFAULT_MS 10000
#define RETRY_CAP_FACTOR   720 /* longest delay: retry_ms * this */
#define GIVE_UP_MS         (25LL * 3600 * 1000) /* retry for 25 hours */
#define IDLE_MS            1000 /* longest sleep between looks */
#define WORKERS_DEFAULT    8
#define PER_DEST_DEFAULT   2
/* an attempt longer than this, or than half the timeout, is slow */
#define SLOW_MAX_MS 1000
/* longest wait in an attempt between looks at the stop and the clock */
#define POLL_MAX_MS          1000
#define RETENTION_DEFAULT_MS (7LL * 86400 * 1000)
#define PRUNE_MAX_EVERY_MS   (10LL * 60 * 1000) /* prune at least this often */
#define PRUNE_PAGE           1000 /* events per prune transaction */

int64_t hooks__wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t hooks__mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the failing share ---- */

/* Takes a place in the failing share (the workers on destinations that
 * fail or answer slowly): 1 if one was free, 0 if all are in use. */
static int share_take(struct hooks *h)
{
	pthread_mutex_lock(&h->mu);
	int took = h->failing_busy < h->failing_share;
	h->failing_busy += took;
	pthread_mutex_unlock(&h->mu);
	return took;
}

/* Gives back a place share_take gave. */
static void share_give(struct hooks *h)
{
	pthread_mutex_lock(&h->mu);
	h->failing_busy--;
	pthread_mutex_unlock(&h->mu);
}

void hooks_sign(const uint8_t *secret, size_t secret_len, const char *id,
                int64_t timestamp, const char *body, size_t body_len,
                char out[HOOKS_SIGNATURE_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t mac[crypto_auth_hmacsha256_BYTES];
	char ts[24];
	int n = snprintf(ts, sizeof ts, "%" PRId64, timestamp);
	crypto_auth_hmacsha256_init(&st, secret, secret_len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)id, strlen(id));
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)".", 1);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)ts, (size_t)n);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)".", 1);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)body, body_len);
	crypto_auth_hmacsha256_final(&st, mac);
	memcpy(out, "v1,", 3);
	sodium_bin2base64(out + 3, HOOKS_SIGNATURE_LEN - 3, mac, sizeof mac,
	                  sodium_base64_VARIANT_ORIGINAL);
	sodium_memzero(&st, sizeof st);
}

/* ---- one attempt ---- */

/* One attempt, as its transfer and its callbacks see it. */
struct attempt {
	struct hooks *h;
	int refused;   /* 1: the address was not public */
	int *in_share; /* borrowed from turn: 1 while the worker holds a
	                  place in the failing share (perform may take one) */
	int slow;      /* 1: it ran past h->slow_ms */
	int cut;       /* 1: cut short at h->slow_ms, the share being full */
};

/* Runs c's transfer to its end, looking at least every POLL_MAX_MS at
 * the stop (which ends it: CURLE_ABORTED_BY_CALLBACK) and at
 * h->slow_ms: an attempt that runs past it is slow, and goes on only
 * with a place in the failing share, else it is cut short there
 * (CURLE_OPERATION_TIMEDOUT, at->cut).  So slow and failing destinations
 * together never hold more than the share of the workers past slow_ms.
 * Returns the transfer's result. */
static CURLcode perform(struct attempt *at, CURL *c)
{
	struct hooks *h = at->h;
	CURLM *m = curl_multi_init();
	if (!m)
		return CURLE_OUT_OF_MEMORY;
	if (curl_multi_add_handle(m, c) != CURLM_OK) {
		curl_multi_cleanup(m);
		return CURLE_OUT_OF_MEMORY;
	}
	int64_t t0 = hooks__mono_ms();
	CURLcode rc = CURLE_OK;
	for (;;) {
		int running = 0, left = 0;
		if (curl_multi_perform(m, &running) != CURLM_OK) {
			rc = CURLE_OUT_OF_MEMORY;
			break;
		}
		if (!running) {
			CURLMsg *msg = curl_multi_info_read(m, &left);
			rc = msg && msg->msg == CURLMSG_DONE ? msg->data.result
			                                     : CURLE_RECV_ERROR;
			break;
		}
		if (atomic_load(&h->stopping)) {
			rc = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
		int64_t past = hooks__mono_ms() - t0;
		if (!at->slow && past >= h->slow_ms) {
			at->slow = 1;
			if (!*at->in_share)
				*at->in_share = share_take(h);
			if (!*at->in_share) {
				at->cut = 1;
				rc = CURLE_OPERATION_TIMEDOUT;
				break;
			}
		}
		int64_t wait = at->slow || h->slow_ms - past > POLL_MAX_MS
		                   ? POLL_MAX_MS
		                   : h->slow_ms - past;
		curl_multi_poll(m, NULL, 0, (int)wait, NULL);
	}
	at->slow |= hooks__mono_ms() - t0 > h->slow_ms;
	curl_multi_remove_handle(m, c);
	curl_multi_cleanup(m);
	return rc;
}

/* CURLOPT_OPENSOCKETFUNCTION: the address curl is about to connect to,
 * after resolution; a private one gets no socket. */
static curl_socket_t open_socket(void *ctx, curlsocktype purpose,
                                 struct curl_sockaddr *a)
{
	struct attempt *at = ctx;
	(void)purpose;
	if (!at->h->cfg.allow_private && !netaddr_is_public(&a->addr)) {
		at->refused = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype, a->protocol);
}

/* The answer's body is not read. */
static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
	(void)p;
	(void)ctx;
	return size * n;
}

/* The kind of a failed transfer, as a delivery's error shows it
 * (hooks.h): never libcurl's text, which tells what the server's
 * resolver and network know; that goes to the log only. */
const char *hooks__curl_kind(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return "timeout";
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		return "connect-failed";
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_SSL_SHUTDOWN_FAILED:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
	case CURLE_SSL_ENGINE_INITFAILED:
	case CURLE_SSL_CLIENTCERT:
	case CURLE_USE_SSL_FAILED:
		return "tls";
	case CURLE_OUT_OF_MEMORY:
	case CURLE_ABORTED_BY_CALLBACK: /* the server is stopping */
	case CURLE_FAILED_INIT:
		return "internal";
	default: /* closed, reset, not HTTP: no valid answer came */
		return "bad-response";
	}
}

long hooks__post(struct hooks *h, const char *url, struct curl_slist *hd,
                 const void *body, size_t len, int *in_share,
                 const char *log_as, const char *what, const char *dest,
                 const char **kind, enum store_dest_answer *answer)
{
	struct attempt at = {h, 0, in_share, 0, 0};
	char errbuf[CURL_ERROR_SIZE] = "";
	long status = 0;
	CURL *c = curl_easy_init();
	CURLcode rc = CURLE_OUT_OF_MEMORY;
	if (c) {
		curl_easy_setopt(c, CURLOPT_URL, url);
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, hd);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)len);
		curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
		curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
		curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
		curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
		                 (long)h->cfg.timeout_ms);
		curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
		                 (long)h->cfg.timeout_ms);
		curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
		curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, &at);
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
		curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
		rc = perform(&at, c);
		if (rc == CURLE_OK)
			curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_cleanup(c);
	}
	/* a refused address reads as any failed connection: the kind must
	 * not tell which names resolve to private addresses */
	*kind = at.refused                     ? "connect-failed"
	        : rc != CURLE_OK               ? hooks__curl_kind(rc)
	        : status < 200 || status > 299 ? "http-status"
	                                       : NULL;
	/* a status answered is the receiver's; no answer is the host's */
	*answer = at.cut || (rc == CURLE_OK && at.slow) ? STORE_DEST_SLOW
	          : rc == CURLE_OK && !at.refused       ? STORE_DEST_FAST
	                                                : STORE_DEST_FAILED;
	if (*kind && rc != CURLE_ABORTED_BY_CALLBACK)
		log_info(log_as,
		         "%s to %.300s failed (%s): %.200s (HTTP status %ld)",
		         what, dest, *kind,
		         at.refused ? "the address is not public"
		         : at.cut   ? "slow, and the slow share was full"
		         : rc != CURLE_OK
		             ? (errbuf[0] ? errbuf : curl_easy_strerror(rc))
		             : "the answer was not 2xx",
		         status);
	return status;
}

CURLcode hooks__run(struct hooks *h, CURL *c, int *in_share,
                    enum store_dest_answer *answer, int *cut)
{
	struct attempt at = {h, 0, in_share, 0, 0};
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)h->cfg.timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)h->cfg.timeout_ms);
	CURLcode rc = perform(&at, c);
	*answer = at.cut || (rc == CURLE_OK && at.slow) ? STORE_DEST_SLOW
	          : rc == CURLE_OK                      ? STORE_DEST_FAST
	                                                : STORE_DEST_FAILED;
	*cut = at.cut;
	return rc;
}

/* POSTs d's event to its webhook (hooks__post: in_share, kind and
 * answer as there).  Returns the HTTP status (0: none). */
static long post(struct hooks *h, const struct store_delivery *d,
                 const char *body, int *in_share, const char **kind,
                 enum store_dest_answer *answer)
{
	char idh[64], tsh[64], sigh[32 + HOOKS_SIGNATURE_LEN], what[96];
	char sig[HOOKS_SIGNATURE_LEN];
	int64_t ts = hooks__wall_ms() / 1000;
	hooks_sign(d->hook.secret, d->hook.secret_len, d->ev.id, ts, body,
	           strlen(body), sig);
	snprintf(idh, sizeof idh, "webhook-id: %s", d->ev.id);
	snprintf(tsh, sizeof tsh, "webhook-timestamp: %" PRId64, ts);
	snprintf(sigh, sizeof sigh, "webhook-signature: %s", sig);
	snprintf(what, sizeof what, "delivery %s", d->ev.id);
	const char *lines[] = {"Content-Type: application/json",
	                       "User-Agent: boardd-webhooks/1",
	                       idh,
	                       tsh,
	                       sigh,
	                       "Expect:"};
	struct curl_slist *hd =
	    hooks__headers(lines, sizeof lines / sizeof *lines);
	long status = 0;
	*kind = "internal";
	*answer = STORE_DEST_FAILED;
	if (hd)
		status = hooks__post(h, d->hook.url, hd, body, strlen(body),
		                     in_share, "webhooks", what, d->hook.dest,
		                     kind, answer);
	curl_slist_free_all(hd);
	sodium_memzero(sig, sizeof sig);
	sodium_memzero(sigh, sizeof sigh);
	return status;
}

struct curl_slist *hooks__headers(const char *const *lines, size_t n)
{
	struct curl_slist *hd = NULL, *t;
	for (size_t i = 0; i < n; i++) {
		if (!(t = curl_slist_append(hd, lines[i]))) {
			curl_slist_free_all(hd);
			return NULL;
		}
		hd = t;
	}
	return hd;
}

int64_t hooks__next_attempt(const struct hooks *h, int attempts,
                            int64_t created_ms, int64_t now)
{
	if (now - created_ms >= GIVE_UP_MS)
		return 0;
	int64_t cap = h->cfg.retry_ms * RETRY_CAP_FACTOR;
	int64_t delay = h->cfg.retry_ms;
	for (int i = 1; i < attempts && delay < cap; i++)
		delay *= 2;
	if (delay > cap)
		delay = cap;
	/* half fixed, half random: racing retries spread out */
	int64_t half = delay / 2;
	uint32_t span = half > 0 && half < UINT32_MAX ? (uint32_t)half : 1;
	return now + (delay - half) + randombytes_uniform(span);
}

/* hooks_outcomes's [0], hooks_push_outcomes's [1], hooks_mail_outcomes's
 * [2] */
static _Atomic uint64_t outcomes[3][HOOKS_OUTCOMES];

static void outcomes_of(int push, uint64_t out[HOOKS_OUTCOMES])
{
	for (int i = 0; i < HOOKS_OUTCOMES; i++)
		out[i] = atomic_load_explicit(&outcomes[push][i],
		                              memory_order_relaxed);
}

void hooks_outcomes(uint64_t out[HOOKS_OUTCOMES])
{
	outcomes_of(0, out);
}

void hooks_push_outcomes(uint64_t out[HOOKS_OUTCOMES])
{
	outcomes_of(1, out);
}

void hooks_mail_outcomes(uint64_t out[HOOKS_OUTCOMES])
{
	outcomes_of(2, out);
}

void hooks__outcome(int push, enum hooks_outcome o)
{
	atomic_fetch_add_explicit(&outcomes[push < 0 || push > 2 ? 1 : push][o], 1,
	                          memory_order_relaxed);
}

/* Makes one attempt at d and records it, with its destination's
 * breaker and share (in_share: perform's). */
static void deliver(struct hooks *h, struct store_delivery *d, int *in_share)
{
	const char *kind = "internal";
	enum store_dest_answer answer = STORE_DEST_FAILED;
	json_t *o = service_event_json(&d->ev);
	char *body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	long status = 0;
	int64_t t0 = hooks__mono_ms();
	if (body)
		status = post(h, d, body, in_share, &kind, &answer);
	/* the destination's use: how long it held this worker */
	int64_t busy = hooks__mono_ms() - t0;
	free(body);
	int ok = body && !kind;
	int64_t now = hooks__wall_ms();
	if (status == 410) {
		/* Standard Webhooks: 410 Gone asks the sender to stop. */
		store_delivery_gone(h->st, d->ev.key, (int)status,
		                    "the receiver answered 410 Gone: the "
		                    "webhook is disabled until it is PUT again",
		                    d->hook.created_ms);
		sodium_memzero(&d->hook, sizeof d->hook);
		hooks__outcome(0, HOOKS_GONE);
		return;
	}
	int64_t next =
	    ok ? 0
	       : hooks__next_attempt(h, d->attempts + 1, d->ev.created_ms, now);
	const struct store_breaker b = {BREAKER_FAILURES, h->cfg.retry_ms,
	                                h->cfg.retry_ms * BREAKER_MAX_FACTOR};
	/* a stop cut the attempt short: no fault of the receiver's */
	int stopped = atomic_load(&h->stopping);
	store_delivery_done(h->st, d->ev.key, d->hook.dest, answer, busy, ok,
	                    (int)status, ok ? NULL : kind, next,
	                    stopped ? NULL : &b);
	sodium_memzero(&d->hook, sizeof d->hook);
	hooks__outcome(0, ok     ? HOOKS_DELIVERED
	                  : next ? HOOKS_RETRIED
	                         : HOOKS_FAILED);
}

/* ---- pruning ---- */

/* If a prune is due, takes it (one worker does) and deletes the events
 * older than the retention window, a page per transaction. */
static void prune_if_due(struct hooks *h, int64_t now)
{
	pthread_mutex_lock(&h->mu);
	int due = now >= h->prune_ms;
	if (due) {
		int64_t every = h->cfg.retention_ms / 4;
		if (every > PRUNE_MAX_EVERY_MS)
			every = PRUNE_MAX_EVERY_MS;
		h->prune_ms = now + (every < IDLE_MS ? IDLE_MS : every);
	}
	pthread_mutex_unlock(&h->mu);
	int n = PRUNE_PAGE, rc = 0;
	while (due && rc == 0 && n == PRUNE_PAGE && !atomic_load(&h->stopping))
		rc = store_events_prune(h->st, now - h->cfg.retention_ms,
		                        PRUNE_PAGE, &n);
	if (rc < 0)
		log_error("boardd",
		          "pruning the event outbox failed (bd_err %d); "
		          "retrying later",
		          rc);
}

/* ---- the workers ---- */

/* The earlier of two due times, 0 being none. */
static int64_t earlier(int64_t a, int64_t b)
{
	return a == 0 ? b : b == 0 || a < b ? a : b;
}

/* A worker's turn: claims a delivery its destination's share allows
 * (webhook, Web Push and mail ones turn about, hooks.h) and makes the
 * attempt.  The workers on destinations whose attempts failed or were
 * slow are at most failing_share: a place is taken before the claim, and
 * given back at once if the delivery claimed goes to a healthy
 * destination; an attempt there that turns slow takes one then
 * (perform).  0 if one was made. */
static int turn(struct hooks *h, int64_t now, int64_t *next)
{
	enum { HOOK, PUSH, MAIL, KINDS };
	struct store_delivery d;
	struct store_push_delivery p;
	struct store_mail_delivery m;
	int failing = share_take(h);
	const struct store_claim_rules rules = {h->cfg.per_dest, 1, failing};
	int64_t lease = h->cfg.timeout_ms * 2 + 60000, due[KINDS] = {0};
	int rc = BD_ENOTFOUND, kind = HOOK;
	pthread_mutex_lock(&h->mu);
	unsigned first = h->turns++ % KINDS;
	pthread_mutex_unlock(&h->mu);
	for (int i = 0; i < KINDS && rc == BD_ENOTFOUND; i++) {
		kind = (int)((first + (unsigned)i) % KINDS);
		if (kind == PUSH && h->push_on)
			rc = store_push_delivery_claim(h->st, now, lease,
			                               &rules, &p, &due[PUSH]);
		else if (kind == MAIL && h->mail_on)
			rc = store_mail_delivery_claim(h->st, now, lease,
			                               &rules, &m, &due[MAIL]);
		else if (kind == HOOK)
			rc = store_delivery_claim(h->st, now, lease, &rules, &d,
			                          &due[HOOK]);
	}
	*next = earlier(earlier(due[HOOK], due[PUSH]), due[MAIL]);
	int keep = 0;
	if (rc == 0 && failing)
		keep = kind == PUSH   ? p.dest_limited
		       : kind == MAIL ? m.dest_limited
		                      : d.dest_limited;
	if (failing && !keep)
		share_give(h);
	if (rc < 0)
		return rc;
	/* more may be due: one more worker looks (a chain, not a herd of
	 * claims that find nothing) */
	pthread_mutex_lock(&h->mu);
	h->pokes++;
	pthread_cond_signal(&h->cv);
	pthread_mutex_unlock(&h->mu);
	if (kind == PUSH) {
		hooks__push_deliver(h, &p, &keep);
		store_push_delivery_release(&p);
	} else if (kind == MAIL) {
		hooks__mail_deliver(h, &m, &keep);
		store_mail_delivery_release(&m);
	} else {
		deliver(h, &d, &keep);
		store_delivery_release(&d);
	}
	pthread_mutex_lock(&h->mu);
	h->failing_busy -= keep;
	/* a place at the destination is free: a sleeping worker may take
	 * what waited for it */
	h->pokes++;
	pthread_cond_signal(&h->cv);
	pthread_mutex_unlock(&h->mu);
	return 0;
}

/* The CLOCK_REALTIME time (h->cv's clock) ms milliseconds from now. */
static struct timespec deadline_in(int64_t ms)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	return until;
}

static void *worker(void *arg)
{
	struct hooks *h = arg;
	pthread_mutex_lock(&h->mu);
	/* The workers' first looks are spread over IDLE_MS: the k-th of n
	 * to get here looks k * IDLE_MS / n later, or at once once anything
	 * has poked (h->pokes is 0 at the start: hooks_start).  Looks made
	 * at one moment each hold a store connection, and the pool opens
	 * one for each (a PostgreSQL backend apiece: 8 where one does);
	 * spread, the idle looks that follow stay apart as well.  A
	 * delivery due at the start waits for none of it: the first worker
	 * looks at once, and each claim pokes one more (turn). */
	int k = h->looked++;
	struct timespec until =
	    deadline_in((int64_t)k * IDLE_MS / h->cfg.workers);
	while (k > 0 && !h->stop && h->pokes == 0 &&
	       pthread_cond_timedwait(&h->cv, &h->mu, &until) != ETIMEDOUT)
		;
	while (!h->stop) {
		unsigned pokes = h->pokes;
		pthread_mutex_unlock(&h->mu);
		int64_t now = hooks__wall_ms(), next = 0;
		prune_if_due(h, now);
		if (h->mail_on)
			hooks__mail_digests(h, now);
		int rc = turn(h, now, &next);
		pthread_mutex_lock(&h->mu);
		if (rc == 0 || h->stop || pokes != h->pokes)
			continue;
		until = deadline_in(
		    next > now && next - now < IDLE_MS ? next - now : IDLE_MS);
		pthread_cond_timedwait(&h->cv, &h->mu, &until);
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

struct hooks *hooks_start(struct store *st, const struct hooks_config *cfg,
                          char *err, size_t errlen)
{
	struct hooks *h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->st = st;
	h->cfg = *cfg;
	if (h->cfg.retry_ms <= 0)
		h->cfg.retry_ms = RETRY_DEFAULT_MS;
	if (h->cfg.timeout_ms <= 0)
		h->cfg.timeout_ms = TIMEOUT_DEFAULT_MS;
	if (h->cfg.workers <= 0)
		h->cfg.workers = WORKERS_DEFAULT;
	if (h->cfg.per_dest <= 0)
		h->cfg.per_dest = PER_DEST_DEFAULT;
	if (h->cfg.retention_ms <= 0)
		h->cfg.retention_ms = RETENTION_DEFAULT_MS;
	if (h->cfg.workers > MAX_WORKERS)
		h->cfg.workers = MAX_WORKERS;
	h->failing_share = h->cfg.workers / 4 > 1 ? h->cfg.workers / 4 : 1;
	h->slow_ms = h->cfg.timeout_ms / 2 < SLOW_MAX_MS ? h->cfg.timeout_ms / 2
	                                                 : SLOW_MAX_MS;
	if (h->slow_ms < 1)
		h->slow_ms = 1;
	if (cfg->push_key) {
		if (!cfg->push_contact ||
		    strlen(cfg->push_contact) > PUSH_CONTACT_MAX) {
			snprintf(err, errlen, "a Web Push contact is needed");
			free(h);
			return NULL;
		}
		memcpy(h->vapid, cfg->push_key, sizeof h->vapid);
		snprintf(h->contact, sizeof h->contact, "%s",
		         cfg->push_contact);
		h->push_on = 1;
	}
	h->cfg.push_key = NULL; /* copied, not kept */
	h->cfg.push_contact = NULL;
	if (cfg->smtp_url) {
		const char *const in[] = {cfg->smtp_url, cfg->smtp_user,
		                          cfg->smtp_password, cfg->mail_from,
		                          cfg->public_url};
		for (size_t i = 0; i < sizeof in / sizeof *in; i++)
			if (in[i] && strlen(in[i]) > HOOKS_SMTP_MAX) {
				snprintf(err, errlen, "an SMTP setting is over "
				                      "%d bytes", HOOKS_SMTP_MAX);
				free(h);
				return NULL;
			}
		if (!cfg->mail_from || !cfg->public_url) {
			snprintf(err, errlen, "mail needs a From address and "
			                      "the public URL");
			free(h);
			return NULL;
		}
		snprintf(h->smtp_url, sizeof h->smtp_url, "%s", cfg->smtp_url);
		snprintf(h->smtp_user, sizeof h->smtp_user, "%s",
		         cfg->smtp_user ? cfg->smtp_user : "");
		snprintf(h->smtp_password, sizeof h->smtp_password, "%s",
		         cfg->smtp_password ? cfg->smtp_password : "");
		snprintf(h->mail_from, sizeof h->mail_from, "%s",
		         cfg->mail_from);
		snprintf(h->public_url, sizeof h->public_url, "%s",
		         cfg->public_url);
		h->mail_on = 1;
	}
	h->cfg.smtp_url = h->cfg.smtp_user = h->cfg.smtp_password = NULL;
	h->cfg.mail_from = h->cfg.public_url = NULL;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(err, errlen, "libcurl failed to initialise");
		free(h);
		return NULL;
	}
	if (store_deliveries_requeue(st) < 0 ||
	    store_push_deliveries_requeue(st) < 0 ||
	    store_mail_deliveries_requeue(st) < 0) {
		snprintf(err, errlen, "cannot requeue webhook deliveries");
		curl_global_cleanup();
		free(h);
		return NULL;
	}
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	for (int i = 0; i < h->cfg.workers; i++) {
		if (pthread_create(&h->threads[i], NULL, worker, h) != 0)
			break;
		h->nthreads++;
	}
	if (h->nthreads == 0) {
		snprintf(err, errlen, "cannot start the webhook workers");
		hooks_stop(h);
		return NULL;
	}
	return h;
}

void hooks_poke(struct hooks *h)
{
	/* one worker looks; each that claims one wakes the next (turn) */
	pthread_mutex_lock(&h->mu);
	h->pokes++;
	pthread_cond_signal(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

void hooks_stop(struct hooks *h)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	atomic_store(&h->stopping, 1);
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	for (int i = 0; i < h->nthreads; i++)
		pthread_join(h->threads[i], NULL);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	curl_global_cleanup();
	sodium_memzero(h->vapid, sizeof h->vapid);
	sodium_memzero(h->smtp_password, sizeof h->smtp_password);
	free(h);
}
