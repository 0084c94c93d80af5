/* mail_send.c: one mail by SMTP (libcurl) by the delivery workers.  See
 * hooks.h, "Email delivery". */
#include <inttypes.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/log.h"
#include "../common/tzhour.h"
#include "../display/i18n.h"
#include "hooks_int.h"

/* The mailed event types and their catalogue keys (push.<key>.title is
 * the subject, push.<key>.body the text, as a push says them). */
static const struct {
	const char *type, *key;
} kinds[] = {
    {"turn", "turn"},
    {"game.finished", "finished"},
    {"invited", "invited"},
    {"seat.taken", "seat"},
};

/* The language whose tag is `tag`, else English (0). */
static size_t lang_of(const char *tag)
{
	for (size_t i = 0; i < i18n_count(); i++)
		if (strcmp(i18n_tag(i), tag) == 0)
			return i;
	return 0;
}

/* What a mail says: malloc'd UTF-8 texts. */
struct mail_text {
	char *subject, *text, *html;
};

static void text_free(struct mail_text *t)
{
	free(t->subject);
	free(t->html);
	if (t->text)
		sodium_memzero(t->text, strlen(t->text)); /* may hold a code */
	free(t->text);
}

/* s with &, <, >, " escaped for HTML, malloc'd (NULL: out of memory). */
static char *html_escape(const char *s)
{
	size_t n = 1;
	for (const char *p = s; *p; p++)
		n += *p == '&' ? 5 : *p == '<' || *p == '>' ? 4 : *p == '"' ? 6 : 1;
	char *o = malloc(n), *q = o;
	if (!o)
		return NULL;
	for (const char *p = s; *p; p++) {
		const char *e = *p == '&'   ? "&amp;"
		                : *p == '<' ? "&lt;"
		                : *p == '>' ? "&gt;"
		                : *p == '"' ? "&quot;"
		                            : NULL;
		if (e) {
			memcpy(q, e, strlen(e));
			q += strlen(e);
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return o;
}

#define DIGEST_GAMES_MAX 50 /* games a digest lists */

/* The games a digest lists, as one malloc'd text: "<link> (<rules>)"
 * joined by ", ". */
struct waiting {
	struct hooks *h;
	char *list;
	size_t len;
	int n;
};

static int add_waiting(void *ctx, const char *game_id, const char *rules_id)
{
	struct waiting *w = ctx;
	size_t more = strlen(w->h->public_url) + strlen(game_id) +
	              strlen(rules_id) + 32;
	char *p = realloc(w->list, w->len + more);
	if (!p)
		return BD_ENOMEM;
	w->list = p;
	w->len += (size_t)snprintf(p + w->len, more, "%s%s/v1/games/%s (%s)",
	                           w->n ? ", " : "", w->h->public_url, game_id,
	                           rules_id);
	w->n++;
	return 0;
}

/* The subject, and the body's lines (each a paragraph) into t.  0, 1
 * (not a mailed event type) or -1 (out of memory, bad data). */
static int text_of(struct hooks *h, const struct store_mail_delivery *d,
                   struct mail_text *t)
{
	size_t l = lang_of(d->lang);
	json_t *params = json_loads(d->ev.data, 0, NULL);
	json_t *subject = NULL, *lines[3] = {NULL, NULL, NULL};
	char url[HOOKS_SMTP_MAX * 2 + 64];
	int rc = -1;
	if (!params)
		params = json_object();
	if (!params)
		return -1;
	if (d->kind == STORE_MAIL_CONFIRM) {
		json_object_set_new(params, "code", json_string(d->code));
		subject = i18n_format(l, "mail.confirm.subject", params);
		lines[0] = i18n_format(l, "mail.confirm.body", params);
	} else if (d->kind == STORE_MAIL_DIGEST) {
		struct waiting w = {h, NULL, 0, 0};
		int rc2 = store_mail_waiting_each(h->st, d->player_key,
		                                  DIGEST_GAMES_MAX, add_waiting,
		                                  &w);
		if (rc2 < 0 || w.n == 0) { /* none waits now: nothing to say */
			free(w.list);
			json_decref(params);
			return rc2 < 0 ? -1 : 1;
		}
		json_object_set_new(params, "count", json_integer(w.n));
		json_object_set_new(params, "games", json_string(w.list));
		free(w.list);
		subject = i18n_format(l, "mail.digest.subject", params);
		lines[0] = i18n_format(l, "mail.digest.body", params);
	} else {
		size_t k = 0, n = sizeof kinds / sizeof *kinds;
		while (k < n && strcmp(kinds[k].type, d->ev.type) != 0)
			k++;
		const char *game_id =
		    json_string_value(json_object_get(params, "game_id"));
		if (k == n || !game_id) {
			json_decref(params);
			return 1;
		}
		subject = i18n_formatf(l, params, "push.%s.title", kinds[k].key);
		lines[0] = i18n_formatf(l, params, "push.%s.body", kinds[k].key);
		snprintf(url, sizeof url, "%s/v1/games/%s", h->public_url,
		         game_id);
		json_object_set_new(params, "url", json_string(url));
		lines[1] = i18n_format(l, "mail.game_link", params);
	}
	if (d->kind != STORE_MAIL_CONFIRM) {
		snprintf(url, sizeof url, "%s/v1/unsubscribe/%s", h->public_url,
		         d->unsub_token);
		json_object_set_new(params, "url", json_string(url));
		lines[2] = i18n_format(l, "mail.unsubscribe", params);
	}
	if (!subject || !lines[0])
		goto out;
	t->subject = strdup(json_string_value(subject));
	/* text: the lines, a blank line between; html: one <p> each */
	size_t tn = 1, hn = 128;
	for (int i = 0; i < 3; i++)
		if (lines[i]) {
			tn += strlen(json_string_value(lines[i])) + 4;
			hn += strlen(json_string_value(lines[i])) * 6 + 16;
		}
	t->text = calloc(1, tn);
	t->html = calloc(1, hn);
	if (!t->subject || !t->text || !t->html)
		goto out;
	strcat(t->html, "<!DOCTYPE html><html><body>");
	for (int i = 0; i < 3; i++) {
		if (!lines[i])
			continue;
		const char *v = json_string_value(lines[i]);
		char *e = html_escape(v);
		if (!e)
			goto out;
		if (t->text[0])
			strcat(t->text, "\r\n\r\n");
		strcat(t->text, v);
		strcat(t->html, "<p>");
		strcat(t->html, e);
		strcat(t->html, "</p>");
		free(e);
	}
	strcat(t->text, "\r\n");
	strcat(t->html, "</body></html>\r\n");
	rc = 0;
out:
	json_decref(subject);
	for (int i = 0; i < 3; i++) {
		if (lines[i] && d->kind == STORE_MAIL_CONFIRM)
			sodium_memzero((char *)json_string_value(lines[i]),
			               strlen(json_string_value(lines[i])));
		json_decref(lines[i]);
	}
	json_decref(params);
	return rc;
}

/* "Subject: " + s, RFC 2047's B encoding when s is not plain ASCII,
 * into out (at least HEADER_MAX bytes).  0, or -1 when too long. */
#define HEADER_MAX 1024
static int subject_header(const char *s, char *out)
{
	int ascii = 1;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			ascii = 0;
	if (ascii)
		return snprintf(out, HEADER_MAX, "Subject: %s", s) < HEADER_MAX
		           ? 0
		           : -1;
	size_t n = strlen(s);
	size_t b64 = sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL);
	if (b64 + 32 > HEADER_MAX)
		return -1;
	char enc[HEADER_MAX - 32];
	sodium_bin2base64(enc, sizeof enc, (const unsigned char *)s, n,
	                  sodium_base64_VARIANT_ORIGINAL);
	snprintf(out, HEADER_MAX, "Subject: =?UTF-8?B?%s?=", enc);
	return 0;
}

/* The domain of address a (after its last '@'), else "localhost". */
static const char *domain_of(const char *a)
{
	const char *at = strrchr(a, '@');
	return at && at[1] ? at + 1 : "localhost";
}

/* The mail as libcurl's MIME tree on c, and its header list *hd (free
 * with curl_slist_free_all); the caller frees the returned mime.  NULL
 * when out of memory or a header is too long. */
static curl_mime *message_of(struct hooks *h, CURL *c,
                             const struct store_mail_delivery *d,
                             const struct mail_text *t, struct curl_slist **hd)
{
	char subject[HEADER_MAX], from[HEADER_MAX], to[HEADER_MAX];
	char date[128], msgid[HEADER_MAX], unsub[HEADER_MAX];
	unsigned char rnd[16];
	char hex[33];
	time_t now = (time_t)(hooks__wall_ms() / 1000);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "Date: %a, %d %b %Y %H:%M:%S +0000", &tm);
	randombytes_buf(rnd, sizeof rnd);
	sodium_bin2hex(hex, sizeof hex, rnd, sizeof rnd);
	if (subject_header(t->subject, subject) < 0 ||
	    snprintf(from, sizeof from, "From: %s", h->mail_from) >=
	        (int)sizeof from ||
	    snprintf(to, sizeof to, "To: %s", d->address) >= (int)sizeof to ||
	    snprintf(msgid, sizeof msgid, "Message-ID: <%s@%s>", hex,
	             domain_of(h->mail_from)) >= (int)sizeof msgid ||
	    snprintf(unsub, sizeof unsub,
	             "List-Unsubscribe: <%s/v1/unsubscribe/%s>", h->public_url,
	             d->unsub_token) >= (int)sizeof unsub)
		return NULL;
	const char *lines[] = {date,
	                       from,
	                       to,
	                       subject,
	                       msgid,
	                       "Auto-Submitted: auto-generated",
	                       unsub,
	                       "List-Unsubscribe-Post: List-Unsubscribe=One-Click"};
	/* a confirmation is no list: it has no unsubscribe */
	size_t n = sizeof lines / sizeof *lines;
	*hd = hooks__headers(lines, d->kind == STORE_MAIL_CONFIRM ? n - 2 : n);
	curl_mime *mime = curl_mime_init(c);
	curl_mime *alt = curl_mime_init(c);
	if (!*hd || !mime || !alt) {
		curl_mime_free(alt);
		curl_mime_free(mime);
		return NULL;
	}
	curl_mimepart *part = curl_mime_addpart(alt);
	curl_mime_data(part, t->text, CURL_ZERO_TERMINATED);
	curl_mime_type(part, "text/plain; charset=UTF-8");
	curl_mime_encoder(part, "quoted-printable");
	part = curl_mime_addpart(alt);
	curl_mime_data(part, t->html, CURL_ZERO_TERMINATED);
	curl_mime_type(part, "text/html; charset=UTF-8");
	curl_mime_encoder(part, "quoted-printable");
	part = curl_mime_addpart(mime);
	curl_mime_subparts(part, alt); /* alt is mime's now */
	curl_mime_type(part, "multipart/alternative");
	return mime;
}

/* Records a failed attempt at d: retried with the webhook backoff, or
 * failed for good once it is too old. */
static void failed(struct hooks *h, const struct store_mail_delivery *d,
                   const char *kind, enum store_dest_answer answer,
                   int64_t busy)
{
	int64_t now = hooks__wall_ms();
	int64_t next = hooks__next_attempt(h, d->attempts + 1, d->created_ms,
	                                   now);
	const struct store_breaker b = {BREAKER_FAILURES, h->cfg.retry_ms,
	                                h->cfg.retry_ms * BREAKER_MAX_FACTOR};
	int stopped = atomic_load(&h->stopping);
	if (store_mail_delivery_done(h->st, d->key,
	                             next ? STORE_PUSH_RETRY : STORE_PUSH_FAILED,
	                             kind, next, answer, busy,
	                             stopped ? NULL : &b) < 0)
		log_error("mail",
		          "recording mail %" PRId64 " failed; it is tried "
		          "again when its lease ends",
		          d->key);
	hooks__outcome(2, next ? HOOKS_RETRIED : HOOKS_FAILED);
}

void hooks__mail_deliver(struct hooks *h, struct store_mail_delivery *d,
                         int *in_share)
{
	const char *skip = NULL;
	if (d->kind != STORE_MAIL_CONFIRM && !d->unsub_token[0])
		skip = "gone"; /* the address was removed meanwhile */
	else if (d->game_key && h->cfg.push_live &&
	         h->cfg.push_live(h->cfg.push_live_ctx, d->game_key,
	                          d->player_key))
		skip = "live"; /* the player is looking at the game */
	struct mail_text t = {0};
	int made = skip ? 1 : text_of(h, d, &t);
	if (made == 1 && !skip)
		skip = d->kind == STORE_MAIL_DIGEST ? "nothing-waits"
		                                    : "not-mailed";
	if (skip) {
		text_free(&t);
		store_mail_delivery_done(h->st, d->key, STORE_PUSH_SKIPPED,
		                         skip, 0, STORE_DEST_FAST, 0, NULL);
		return;
	}
	CURL *c = made == 0 ? curl_easy_init() : NULL;
	struct curl_slist *hd = NULL, *rcpt = NULL;
	curl_mime *mime = c ? message_of(h, c, d, &t, &hd) : NULL;
	if (mime)
		rcpt = curl_slist_append(NULL, d->address);
	if (!rcpt) {
		log_error("mail", "mail %" PRId64 " cannot be made: it fails",
		          d->key);
		curl_mime_free(mime);
		curl_slist_free_all(hd);
		if (c)
			curl_easy_cleanup(c);
		text_free(&t);
		store_mail_delivery_done(h->st, d->key, STORE_PUSH_FAILED,
		                         "internal", 0, STORE_DEST_FAST, 0, NULL);
		hooks__outcome(2, HOOKS_FAILED);
		return;
	}
	char errbuf[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(c, CURLOPT_URL, h->smtp_url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	if (h->smtp_user[0]) {
		curl_easy_setopt(c, CURLOPT_USERNAME, h->smtp_user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, h->smtp_password);
	}
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, h->mail_from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(c, CURLOPT_MIMEPOST, mime);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	enum store_dest_answer answer = STORE_DEST_FAILED;
	int cut = 0;
	int64_t t0 = hooks__mono_ms();
	CURLcode rc = hooks__run(h, c, in_share, &answer, &cut);
	int64_t busy = hooks__mono_ms() - t0;
	long code = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_mime_free(mime);
	curl_slist_free_all(hd);
	curl_slist_free_all(rcpt);
	curl_easy_cleanup(c);
	text_free(&t);
	if (rc != CURLE_OK) {
		/* a reply code is an answer: the server refused this mail,
		 * it is not down */
		const char *kind = code >= 400 ? "smtp-status"
		                   : cut       ? "timeout"
		                               : hooks__curl_kind(rc);
		if (code >= 400 && !cut)
			answer = STORE_DEST_FAST;
		if (rc != CURLE_ABORTED_BY_CALLBACK)
			log_info("mail",
			         "mail %" PRId64 " failed (%s): %.200s (SMTP "
			         "reply %ld)",
			         d->key, kind,
			         errbuf[0] ? errbuf : curl_easy_strerror(rc),
			         code);
		failed(h, d, kind, answer, busy);
		return;
	}
	const struct store_breaker b = {BREAKER_FAILURES, h->cfg.retry_ms,
	                                h->cfg.retry_ms * BREAKER_MAX_FACTOR};
	store_mail_delivery_done(h->st, d->key, STORE_PUSH_DELIVERED, NULL, 0,
	                         answer, busy, &b);
	hooks__outcome(2, HOOKS_DELIVERED);
}

struct digest_ctx {
	struct hooks *h;
	int64_t now;
	int queued;
};

static int take_digest(void *ctx, const struct store_mail_digest *d)
{
	struct digest_ctx *x = ctx;
	int64_t next = 0;
	if (tzhour_next(d->tz, d->digest_hour, x->now, &next) < 0)
		next = x->now + 86400000; /* a zone ICU lost: a day on */
	int rc = store_mail_digest_take(x->h->st, d, next, x->now);
	if (rc < 0)
		log_error("mail",
		          "queueing a digest failed (bd_err %d); it is tried "
		          "again",
		          rc);
	else
		x->queued++;
	return 0;
}

void hooks__mail_digests(struct hooks *h, int64_t now)
{
	pthread_mutex_lock(&h->mu);
	int due = now >= h->digest_ms;
	if (due)
		h->digest_ms = now + 1000;
	pthread_mutex_unlock(&h->mu);
	if (!due)
		return;
	struct digest_ctx x = {h, now, 0};
	int rc = store_mail_digests_due(h->st, now, take_digest, &x);
	if (rc < 0)
		log_error("mail", "looking for digests due failed (bd_err %d)",
		          rc);
	if (x.queued)
		hooks_poke(h);
}

