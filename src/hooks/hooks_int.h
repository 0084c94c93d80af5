/* hooks_int.h: what the delivery workers' files share (deliver.c,
 * push_send.c).  Not a public interface: hooks.h is. */
#ifndef BD_HOOKS_INT_H
#define BD_HOOKS_INT_H

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../push/push.h"
#include "hooks.h"

#define MAX_WORKERS        64
#define BREAKER_FAILURES   3  /* consecutive failures open a breaker */
#define BREAKER_MAX_FACTOR 32 /* longest open period: retry_ms * this */

struct hooks {
	struct store *st;        /* borrowed */
	struct hooks_config cfg; /* with defaults filled in */
	pthread_mutex_t mu;      /* guards stop, pokes, looked */
	pthread_cond_t cv;       /* workers sleep here */
	int stop;                /* 1: workers must exit */
	atomic_int stopping;     /* the same, read by attempts unlocked */
	unsigned pokes;          /* bumped by hooks_poke and turn; 0 at
	                            the start */
	int failing_busy;        /* workers on a destination with failures */
	int failing_share;       /* at most this many (workers / 4, >= 1) */
	int64_t slow_ms;         /* an attempt longer than this is slow:
	                            min(SLOW_MAX_MS, timeout_ms / 2), ms */
	int64_t prune_ms;        /* when the next prune is due (unix ms) */
	unsigned turns; /* claims made, webhooks and pushes alternate */
	int push_on;    /* 1: Web Push deliveries are claimed too */
	uint8_t vapid[PUSH_PRIV_LEN];       /* cfg.push_key's copy */
	char contact[PUSH_CONTACT_MAX + 1]; /* cfg.push_contact's */
	int mail_on; /* 1: mails are claimed too (cfg.smtp_url set) */
	char smtp_url[HOOKS_SMTP_MAX + 1];      /* cfg's copies */
	char smtp_user[HOOKS_SMTP_MAX + 1];     /* "" : none */
	char smtp_password[HOOKS_SMTP_MAX + 1]; /* wiped at the stop */
	char mail_from[HOOKS_SMTP_MAX + 1];
	char public_url[HOOKS_SMTP_MAX + 1];
	int64_t digest_ms; /* when the next look for digests due is (unix
	                      ms; guarded by mu) */
	int nthreads;                       /* started */
	int looked; /* workers that have reached their first look (worker) */
	pthread_t threads[MAX_WORKERS];
};

/* Unix time, ms. */
int64_t hooks__wall_ms(void);

/* A clock no change of the wall clock moves (an attempt's time), ms. */
int64_t hooks__mono_ms(void);

/* When the attempt after `attempts` failed ones of an event created at
 * created_ms is due (unix ms, the backoff of hooks.h), or 0: give up. */
int64_t hooks__next_attempt(const struct hooks *h, int attempts,
                            int64_t created_ms, int64_t now);

/* Counts one attempt's outcome: a webhook's (push 0, hooks_outcomes),
 * a Web Push one's (push 1, hooks_push_outcomes) or a mail's (push 2,
 * hooks_mail_outcomes). */
void hooks__outcome(int push, enum hooks_outcome o);

/* A libcurl header list of lines[0..n) (free with curl_slist_free_all),
 * NULL when out of memory. */
struct curl_slist *hooks__headers(const char *const *lines, size_t n);

/* One attempt: POSTs body[0..len) to url with headers hd (borrowed) under
 * the workers' rules (hooks.h: no redirect, no proxy, http(s) only, the
 * address check unless allow_private, the timeout and the slow share,
 * in_share as perform's).  Returns the HTTP status (0: none); *kind gets
 * a failure's word (hooks.h), NULL on a 2xx; *answer how the
 * destination answered.  A failure is logged under log_as, naming the
 * attempt `what` and its destination `dest`. */
long hooks__post(struct hooks *h, const char *url, struct curl_slist *hd,
                 const void *body, size_t len, int *in_share,
                 const char *log_as, const char *what, const char *dest,
                 const char **kind, enum store_dest_answer *answer);

/* Makes one attempt at claimed Web Push delivery d and records it
 * (push_send.c; in_share as hooks__post's). */
void hooks__push_deliver(struct hooks *h, struct store_push_delivery *d,
                         int *in_share);

/* Runs transfer c (set up by the caller but for its timeouts and
 * signals) under the workers' rules: the timeout, the stop, and the
 * slow share (in_share as hooks__post's).  Returns libcurl's result;
 * *answer how the destination answered; *cut 1 if it was cut short at
 * the slow threshold. */
CURLcode hooks__run(struct hooks *h, CURL *c, int *in_share,
                    enum store_dest_answer *answer, int *cut);

/* The word for a failed transfer's result (hooks.h's kinds). */
const char *hooks__curl_kind(CURLcode rc);

/* If a look is due (once a second, one worker), queues the daily
 * digests due at now (mail_send.c; store_mail_digest_take). */
void hooks__mail_digests(struct hooks *h, int64_t now);

/* Makes one attempt at claimed mail d and records it (mail_send.c;
 * in_share as hooks__post's). */
void hooks__mail_deliver(struct hooks *h, struct store_mail_delivery *d,
                         int *in_share);

#endif
