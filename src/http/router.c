/* router.c: (method, path) -> handler, and the handlers: each one reads
 * the request, calls one service function, and fills the reply. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../common/decimal.h"
#include "../display/i18n.h"
#include "encoding.h"
#include "etag.h"
#include "http.h"
#include "hub.h"
#include "live.h"
#include "static_files.h"
#include "metrics.h"

extern const char openapi_yaml[];
extern const size_t openapi_yaml_len;

/* The parts of a /v1/games/{id}/… path. */
struct route_args {
	char id[40];     /* the {id} segment, or "" */
	const char *sub; /* what follows the id: "", "/actions", "/moves" */
};

typedef void (*handler_fn)(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep);

static void reply_json(struct http_reply *rep, unsigned status, json_t *body)
{
	rep->status = status;
	rep->body = body;
}

/* rep's ETag: "<seq>", a strong validator, or "<seq>-s<gen>" once the
 * game's seats changed without a move (gen: its seats_version, 0 until
 * then: a seat token attached to a player, a player erased, a vacation
 * begun or ended, each of which the view shows).  Written without
 * snprintf: it is set on every read of a game, its 304s included. */
static void reply_seq_etag(struct http_reply *rep, uint64_t seq,
                           uint64_t gen)
{
	char digits[20];
	char *e = rep->etag;
	_Static_assert(sizeof rep->etag >= 2 * 20 + 5,
	               "an ETag holds two u64s");
	*e++ = '"';
	for (int part = 0; part < 2; part++) {
		uint64_t v = part ? gen : seq;
		int n = 0;
		if (part) {
			if (!gen)
				break;
			*e++ = '-';
			*e++ = 's';
		}
		do
			digits[n++] = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		while (n)
			*e++ = digits[--n];
	}
	*e++ = '"';
	*e = '\0';
}

/* The length of a game ETag's seq part: opaque[0..len) without its
 * "-s<gen>" (reply_seq_etag), if any. */
static size_t etag_seq_len(const char *opaque, size_t len)
{
	size_t k = len;
	while (k > 0 && opaque[k - 1] >= '0' && opaque[k - 1] <= '9')
		k--;
	if (k >= 3 && k < len && opaque[k - 1] == 's' && opaque[k - 2] == '-')
		return k - 2;
	return len;
}

/* Answers a service call: the body with `ok` status, or the problem. */
static void finish(struct http_reply *rep, const struct http_req *req, int rc,
                   unsigned ok, json_t *out, const struct svc_err *err)
{
	if (rc < 0)
		problem_reply(rep, rc, err, req->path);
	else
		reply_json(rep, ok, out);
}

/* Reads a move's If-Match (etag.h) into the seq its ETag must have:
 * *any = 1 for `*`; else *seq is the one seq its strong "<seq>" tags
 * name.  RFC 9110 §13.1.1 compares If-Match strongly, so a weak tag or a
 * tag that is no seq never matches a game's ETag: a list of only those
 * gets UINT64_MAX, a seq no game reaches (412 from the service, after
 * its 404 and 403).  0, or -1 with detail set: malformed, or two seqs
 * (the service guards one). */
static int if_match_seq(const char *v, int *any, uint64_t *seq, char *detail,
                        size_t dlen)
{
	struct etag t;
	int rc, n = 0;
	uint64_t want = UINT64_MAX;
	if (etag_list_is_any(v)) {
		*any = 1;
		return 0;
	}
	while ((rc = etag_list_next(&v, &t)) == 1) {
		uint64_t s;
		n++;
		/* "<seq>-gzip": the tag of a coded answer, the same state;
		 * "<seq>-s<gen>": seats changed since, not the game's seq,
		 * which alone If-Match guards. */
		t.len = etag_seq_len(t.opaque,
		                     http_etag_uncoded_len(t.opaque, t.len));
		if (t.weak || decimal_parse(t.opaque, t.len, &s) < 0 ||
		    (t.len > 1 && t.opaque[0] == '0'))
			continue; /* never equal to a "<seq>" we send */
		if (want != UINT64_MAX && want != s) {
			snprintf(detail, dlen,
			         "If-Match names two seqs; send the game's one "
			         "ETag");
			return -1;
		}
		want = s;
	}
	if (rc < 0 || n == 0) {
		snprintf(detail, dlen,
		         "If-Match must be * or entity-tags such as \"<seq>\" "
		         "as sent in the ETag");
		return -1;
	}
	*any = 0;
	*seq = want;
	return 0;
}

/* 1 if If-None-Match `inm` (or NULL) holds rep's ETag, or the tag of
 * one of its coded representations (encoding.h) that Accept-Encoding
 * `ae` (or NULL: none) takes: weak comparison (RFC 9110 §13.1.2), so the
 * 304 is due, and it carries the tag the client named; a malformed value
 * is ignored.  A coded tag the request does not accept never holds: the
 * 304 must carry the tag a 200 to this request could (RFC 9110 §15.4.5),
 * else a cache freshens and serves a coding its client cannot decode. */
static int inm_holds(const char *inm, const char *ae, struct http_reply *rep)
{
	if (!inm || !rep->etag[0])
		return 0;
	for (int c = HTTP_IDENTITY; c < HTTP_CODINGS; c++) {
		char tag[sizeof rep->etag];
		if (c != HTTP_IDENTITY &&
		    http_coding_choose(ae, 1u << c) != (enum http_coding)c)
			continue;
		if (http_etag_coded(tag, sizeof tag, rep->etag,
		                    (enum http_coding)c) == 0 &&
		    etag_list_matches(inm, tag, ETAG_WEAK) == 1) {
			memcpy(rep->etag, tag, sizeof tag);
			return 1;
		}
	}
	return 0;
}

/* 1 if the request carried a usable JSON body; else fills the problem. */
static int have_body(const struct http_req *req, struct http_reply *rep)
{
	if (req->body)
		return 1;
	struct svc_err err = {0};
	snprintf(err.detail, sizeof err.detail, "%s",
	         req->body_detail ? req->body_detail
	                          : "this request needs a JSON body");
	problem_reply(rep, req->body_rc < 0 ? req->body_rc : BD_EMALFORMED,
	              &err, req->path);
	return 0;
}

/* Reads Idempotency-Key into *idem; *idemp is idem, or NULL without the
 * header.  0, or -1 with the problem filled in. */
static int read_idem(const struct http_req *req, struct http_reply *rep,
                     struct svc_idem *idem, struct svc_idem **idemp)
{
	const char *key = http_header(req, "Idempotency-Key");
	struct svc_err err = {0};
	*idemp = NULL;
	if (!key)
		return 0;
	int rc =
	    service_idem_init(idem, key, req->token, req->method, req->path,
	                      req->body, http_header(req, "If-Match"), &err);
	if (rc < 0) {
		problem_reply(rep, rc, &err, req->path);
		return -1;
	}
	*idemp = idem;
	return 0;
}

/* The status of a write that may be an Idempotency-Key replay. */
static unsigned write_status(struct http_reply *rep,
                             const struct svc_idem *idem, unsigned fresh)
{
	rep->replayed = idem && idem->replayed;
	return rep->replayed ? idem->replayed : fresh;
}

/* Takes one request of action `a` from the caller's rate-limit buckets
 * (limits.h) and puts the RateLimit headers on rep.  1: go ahead; 0:
 * rep holds the 429 problem with Retry-After. */
static int rate_ok(const struct http_req *req, enum limits_action a,
                   struct http_reply *rep)
{
	struct limits_verdict v;
	limits_take(req->limits, a, req->client, req->token, &v);
	if (!v.ok) {
		struct svc_err err = {0};
		snprintf(err.detail, sizeof err.detail,
		         "too many requests of this kind from your address or "
		         "token; retry in %u s",
		         v.retry_after_s);
		problem_reply(rep, BD_ELIMIT, &err, req->path);
		rep->retry_after = (int)v.retry_after_s;
	}
	memcpy(rep->ratelimit_policy, v.policy, sizeof v.policy);
	memcpy(rep->ratelimit, v.state, sizeof v.state);
	rep->token_unproven = v.ok && v.token_unstored; /* token_proven */
	rep->token_action = a;
	return v.ok;
}

/* ---- the shape every handler shares ----
 *
 * A handler reads the request, passes a gate (rate limit, body,
 * Idempotency-Key), calls one service function and answers with its body
 * or its problem:
 *
 *	struct call c = {0};
 *	if (!call_open(&c, req, rep, LIMITS_CHAT, NEEDS_BODY))
 *		return;
 *	int rc = service_x(svc, req->token, req->body, &c.out, &c.err);
 *	call_finish(&c, req, rep, rc, 201);
 */

/* What a handler holds across its service call. */
struct call {
	struct svc_err err;     /* the service's refusal */
	json_t *out;            /* the body it answers (owned), or NULL */
	struct svc_idem idem;   /* Idempotency-Key, read by call_open */
	struct svc_idem *idemp; /* &idem, or NULL without the header */
};

/* What call_open checks besides the rate limit. */
enum call_needs {
	NEEDS_BODY = 1 << 0,    /* a usable JSON body (have_body) */
	BODY_OPTIONAL = 1 << 1, /* one, when the request carried one */
	IDEMPOTENT = 1 << 2,    /* reads Idempotency-Key into c->idemp */
};

#define NO_LIMIT (-1) /* call_open: the route takes no rate limit */

/* The gate, in this order: the rate limit `limit` (a limits_action, or
 * NO_LIMIT), the body, the Idempotency-Key, as `needs` says.  1: go on;
 * 0: rep holds the refusal (429, 400, 413, 415 ...) and nothing was
 * called. */
static int call_open(struct call *c, const struct http_req *req,
                     struct http_reply *rep, int limit, unsigned needs)
{
	c->idemp = NULL;
	if (limit != NO_LIMIT && !rate_ok(req, (enum limits_action)limit, rep))
		return 0;
	if (((needs & NEEDS_BODY) ||
	     ((needs & BODY_OPTIONAL) && !req->body_empty)) &&
	    !have_body(req, rep))
		return 0;
	return !(needs & IDEMPOTENT) ||
	       read_idem(req, rep, &c->idem, &c->idemp) == 0;
}

/* Answers the service call's rc: c->out (taken) with status `ok` (or the
 * status of the write an Idempotency-Key replays), or the problem. */
static void call_finish(struct call *c, const struct http_req *req,
                        struct http_reply *rep, int rc, unsigned ok)
{
	finish(rep, req, rc, write_status(rep, c->idemp, ok), c->out, &c->err);
}

/* ---- handlers ---- */

static void h_health(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	int rc = service_health(svc, &err);
	finish(rep, req, rc, 200,
	       rc == 0 ? json_pack("{s:s}", "status", "ok") : NULL, &err);
}

static void h_ready(struct service *svc, const struct http_req *req,
                    const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	int rc;
	if (req->draining) { /* http_server_drain: move traffic away */
		rc = BD_EUNAVAILABLE;
		snprintf(err.detail, sizeof err.detail,
		         "the server is shutting down: it still serves "
		         "what it is sent, but send it nothing new");
	} else {
		rc = service_ready(svc, &err);
	}
	finish(rep, req, rc, 200,
	       rc == 0 ? json_pack("{s:s}", "status", "ready") : NULL, &err);
}

static void h_metrics(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	metrics_reply(svc, req, rep);
}

static void h_openapi(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	(void)svc, (void)req, (void)a;
	rep->status = 200;
	rep->raw = openapi_yaml;
	rep->raw_len = openapi_yaml_len;
	rep->raw_type = "application/yaml";
}

static void h_catalog(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	const char *body;
	size_t len;
	size_t lang = i18n_negotiate(http_header(req, "Accept-Language"));
	rep->language = i18n_tag(lang);
	if (service_catalog(svc, lang, &body, &len, &err) < 0) {
		problem_reply(rep, BD_EINTERNAL, &err, req->path);
		return;
	}
	rep->status = 200;
	rep->raw = body; /* lives as long as the service */
	rep->raw_len = len;
	rep->raw_type = "application/json";
}

static void h_create(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_GAMES, NEEDS_BODY | IDEMPOTENT))
		return;
	int rc = service_create(svc, req->body, req->token,
	                        limits_addr_text(req->client), c.idemp, &c.out,
	                        &c.err);
	call_finish(&c, req, rep, rc, 201);
	if (rc == 0)
		snprintf(rep->location, sizeof rep->location, "/v1/games/%s",
		         json_string_value(json_object_get(c.out, "id")));
}

static void h_list(struct service *svc, const struct http_req *req,
                   const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_list_query q = {
	    http_query(req, "status"), http_query(req, "game"),
	    http_query(req, "limit"), http_query(req, "cursor")};
	struct call c = {0};
	int rc = service_list(svc, &q, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* service_game_bytes's want: whether If-None-Match still needs a body;
 * sets the ETag (a waiting game's names how many seats are open: seats
 * are taken without a move, and a later "<seq>" never matches it). */
struct game_want {
	struct http_reply *rep;
	const char *inm; /* If-None-Match, or NULL */
	const char *ae;  /* Accept-Encoding, or NULL */
};

static int game_want_body(void *ctx, const struct svc_view *v)
{
	struct game_want *w = ctx;
	if (v->open_seats)
		snprintf(w->rep->etag, sizeof w->rep->etag,
		         "W/\"%" PRIu64 "-open-%d\"", v->seq, v->open_seats);
	else if (v->rematch && v->seats_gen) /* a rematch: no move */
		snprintf(w->rep->etag, sizeof w->rep->etag,
		         "W/\"%" PRIu64 "-rematch-%x-s%" PRIu64 "\"", v->seq,
		         v->rematch, v->seats_gen);
	else if (v->rematch)
		snprintf(w->rep->etag, sizeof w->rep->etag,
		         "W/\"%" PRIu64 "-rematch-%x\"", v->seq, v->rematch);
	else
		reply_seq_etag(w->rep, v->seq, v->seats_gen);
	return !inm_holds(w->inm, w->ae, w->rep);
}

static void h_game(struct service *svc, const struct http_req *req,
                   const struct route_args *a, struct http_reply *rep)
{
	struct svc_err err = {0};
	const char *at = http_query(req, "at");
	if (at) { /* a past position: no ETag, never waits */
		json_t *out = NULL;
		int rc =
		    service_game_at(svc, a->id, req->token, at, &out, &err);
		finish(rep, req, rc, 200, out, &err);
		return;
	}
	if (live_game_wait(svc, req, a->id, rep))
		return; /* ?wait=: a problem, or suspended until a move */
	struct game_want w = {rep, http_header(req, "If-None-Match"),
	                      http_header(req, "Accept-Encoding")};
	struct svc_view v;
	int rc = service_game_bytes(svc, a->id, req->token, game_want_body, &w,
	                            &v, &err);
	if (rc < 0) {
		rep->etag[0] = '\0';
		problem_reply(rep, rc, &err, req->path);
		return;
	}
	if (!v.body) {
		rep->status = 304;
		return;
	}
	if (!v.open_seats && !v.rematch)
		reply_seq_etag(rep, v.seq, v.seats_gen); /* what the body shows */
	rep->status = 200;
	rep->json = v.body;
}

static void h_actions(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	struct svc_err err = {0};
	struct engine_bytes *body = NULL;
	size_t lang = i18n_negotiate(http_header(req, "Accept-Language"));
	int rc =
	    service_actions_bytes(svc, a->id, req->token, lang, &body, &err);
	if (rc < 0) {
		problem_reply(rep, rc, &err, req->path);
		return;
	}
	rep->status = 200;
	rep->language = i18n_tag(lang); /* the labels' */
	rep->json = body;
}

static void h_move(struct service *svc, const struct http_req *req,
                   const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	uint64_t want = 0, seq = 0;
	int any = 1;
	const char *im = http_header(req, "If-Match");
	if (!call_open(&c, req, rep, LIMITS_MOVES, NEEDS_BODY | IDEMPOTENT))
		return;
	if (im && if_match_seq(im, &any, &want, c.err.detail,
	                       sizeof c.err.detail) < 0) {
		problem_reply(rep, BD_EBADREQUEST, &c.err, req->path);
		return;
	}
	int rc =
	    service_move(svc, a->id, req->token, req->body, any ? NULL : &want,
	                 c.idemp, &c.out, &seq, &c.err);
	call_finish(&c, req, rep, rc, 201);
	if (rc == 0)
		reply_seq_etag(rep, seq, 0);
}

static void h_moves(struct service *svc, const struct http_req *req,
                    const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	int rc = service_moves(svc, a->id, req->token, http_query(req, "after"),
	                       http_query(req, "limit"), &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* The channel of a /v1/games/{id}/chat/{channel} path: what follows
 * "/chat/" in a->sub (the routes name both channels). */
static const char *chat_channel(const struct route_args *a)
{
	return a->sub + sizeof "/chat/" - 1;
}

static void h_chat_list(struct service *svc, const struct http_req *req,
                        const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	int rc = service_chat_list(svc, a->id, chat_channel(a), req->token,
	                           http_query(req, "after"),
	                           http_query(req, "limit"), &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_chat_post(struct service *svc, const struct http_req *req,
                        const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_CHAT, NEEDS_BODY))
		return;
	int rc = service_chat_post(svc, a->id, chat_channel(a), req->token,
	                           req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

#define BLOCKS_PATH "/v1/players/me/blocks/"

static void h_blocks(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_blocks_list(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_block_put(struct service *svc, const struct http_req *req,
                        const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_CHAT, 0))
		return;
	int rc = service_block_put(svc, req->token,
	                           req->path + sizeof BLOCKS_PATH - 1, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void h_block_delete(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_CHAT, 0))
		return;
	int rc = service_block_delete(
	    svc, req->token, req->path + sizeof BLOCKS_PATH - 1, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void h_report(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_CHAT, NEEDS_BODY))
		return;
	int rc = service_report(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

/* GET /v1/reports: for operators only, as /metrics (--metrics). */
static void h_reports(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!metrics_operator(req, rep))
		return;
	int rc = service_reports_list(svc, http_query(req, "after"),
	                              http_query(req, "limit"), &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_record(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	int rc = service_record(svc, a->id, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_resign(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	uint64_t seq = 0;
	if (!call_open(&c, req, rep, LIMITS_MOVES, IDEMPOTENT))
		return;
	int rc = service_resign(svc, a->id, req->token, c.idemp, &c.out, &seq,
	                        &c.err);
	call_finish(&c, req, rep, rc, 201);
	if (rc == 0)
		reply_seq_etag(rep, seq, 0);
}

static void h_join(struct service *svc, const struct http_req *req,
                   const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	/* The body is optional: none means "the first open seat". */
	if (!call_open(&c, req, rep, LIMITS_JOINS, BODY_OPTIONAL | IDEMPOTENT))
		return;
	int rc = service_join(svc, a->id, req->token, req->body, c.idemp,
	                      &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_player_create(struct service *svc, const struct http_req *req,
                            const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_PLAYERS, NEEDS_BODY | IDEMPOTENT))
		return;
	int rc = service_player_create(svc, req->body, c.idemp, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

static void h_player_me(struct service *svc, const struct http_req *req,
                        const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_player_me(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_player_export(struct service *svc, const struct http_req *req,
                            const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_player_export(svc, req->token, &out, &err);
	finish(rep, req, rc, 200, out, &err);
}

static void h_player_delete(struct service *svc, const struct http_req *req,
                            const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	int rc = service_player_delete(svc, req->token, &err);
	finish(rep, req, rc, 204, NULL, &err);
}

/* A weak ETag from the body's bytes, for bodies without a natural
 * version; answers 304 to a matching If-None-Match. */
static void body_etag(const struct http_req *req, struct http_reply *rep)
{
	char *text = json_dumps(rep->body, JSON_COMPACT | JSON_SORT_KEYS);
	if (!text)
		return;
	uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64 bits */
	for (const char *p = text; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	free(text);
	snprintf(rep->etag, sizeof rep->etag, "W/\"%016" PRIx64 "\"", h);
	if (inm_holds(http_header(req, "If-None-Match"),
	              http_header(req, "Accept-Encoding"), rep)) {
		json_decref(rep->body);
		rep->body = NULL;
		rep->status = 304;
	}
}

/* finish with 200 and, once it succeeded, body_etag. */
static void finish_etag(struct http_reply *rep, const struct http_req *req,
                        int rc, json_t *out, const struct svc_err *err)
{
	finish(rep, req, rc, 200, out, err);
	if (rc == 0)
		body_etag(req, rep);
}

static void h_player_games(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_my_games_query q = {
	    http_query(req, "status"), http_query(req, "my_turn"),
	    http_query(req, "limit"), http_query(req, "cursor")};
	struct call c = {0};
	/* ?wait=S: joined first, so no change after the listing is missed */
	int waiting = live_player_wait(svc, req, rep);
	if (waiting < 0)
		return;
	int rc = service_player_games(svc, req->token, &q, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
	if (rc == 0)
		body_etag(req, rep);
	/* Nothing new for the client (its If-None-Match still holds, or it
	 * sent none): wait for a change, then answer as a plain GET. */
	if (rc == 0 && waiting &&
	    (rep->status == 304 || !http_header(req, "If-None-Match"))) {
		json_decref(rep->body);
		*rep = (struct http_reply){.suspend = 1};
	}
}

static void h_account_events(struct service *svc, const struct http_req *req,
                             const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	int64_t player;
	int rc =
	    req->head ? service_player_key(svc, req->token, &player, &err) : 0;
	if (rc < 0) {
		problem_reply(rep, rc, &err, req->path);
	} else if (req->head) {
		rep->status = 200; /* as h_events: no stream for a HEAD */
		rep->raw = "";
		rep->raw_len = 0;
		rep->raw_type = "text/event-stream";
	} else {
		live_account_events(svc, req, rep);
	}
}

static void h_webhook_put(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc =
	    service_webhook_put(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_webhook_get(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_webhook_get(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_webhook_delete(struct service *svc, const struct http_req *req,
                             const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_webhook_delete(svc, req->token, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void h_deliveries(struct service *svc, const struct http_req *req,
                         const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_webhook_deliveries(
	    svc, req->token, http_query(req, "limit"), &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* ---- Web Push ---- */

static void h_push_key(struct service *svc, const struct http_req *req,
                       const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_push_key(svc, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_push_subs(struct service *svc, const struct http_req *req,
                        const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_push_subs_list(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_push_sub_add(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc =
	    service_push_sub_add(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

#define PUSH_SUBS_PATH "/v1/players/me/push-subscriptions/"

static void h_push_sub_delete(struct service *svc, const struct http_req *req,
                              const struct route_args *a,
                              struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_push_sub_delete(
	    svc, req->token, req->path + sizeof PUSH_SUBS_PATH - 1, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void path_segment(const struct http_req *req, size_t prefix,
                         char *buf, size_t len);

/* ---- vacation (docs/notifications.md, "Vacation") ---- */

static void h_vacation_get(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_vacation_get(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_vacation_take(struct service *svc, const struct http_req *req,
                            const struct route_args *a,
                            struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, BODY_OPTIONAL))
		return;
	int rc = service_vacation_take(svc, req->token,
	                               req->body_empty ? NULL : req->body,
	                               &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

static void h_vacation_patch(struct service *svc, const struct http_req *req,
                             const struct route_args *a,
                             struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc =
	    service_vacation_patch(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_vacation_end(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_vacation_end(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* ---- email (docs/notifications.md, "Email") ---- */

static void h_mail_get(struct service *svc, const struct http_req *req,
                       const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_mail_get(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_mail_set(struct service *svc, const struct http_req *req,
                       const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc = service_mail_set(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 202);
}

static void h_mail_patch(struct service *svc, const struct http_req *req,
                         const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc =
	    service_mail_patch(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_mail_delete(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_mail_delete(svc, req->token, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void h_mail_confirm(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_WEBHOOKS, NEEDS_BODY))
		return;
	int rc =
	    service_mail_confirm(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

#define UNSUB_PATH "/v1/unsubscribe/"

/* GET shows, POST (RFC 8058: a mail client's one click, its body
 * "List-Unsubscribe=One-Click", form-encoded, not read) turns mail off;
 * no login. */
static void h_unsubscribe(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	char tok[STORE_MAIL_TOKEN_MAX + 2];
	path_segment(req, sizeof UNSUB_PATH - 1, tok, sizeof tok);
	int rc = service_mail_unsubscribe(
	    svc, tok, strcmp(req->method, "POST") == 0, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_events(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	/* A HEAD too: the same checks; server.c sends no stream for it. */
	live_events(svc, req, a->id, rep);
}

/* ---- the lobby and identity ---- */

static void h_ticket(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_TICKETS, NEEDS_BODY))
		return;
	int rc =
	    service_ticket_create(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

static void h_cancel(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_JOINS, 0))
		return;
	int rc = service_game_cancel(svc, a->id, req->token, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

static void h_leave(struct service *svc, const struct http_req *req,
                    const struct route_args *a, struct http_reply *rep)
{
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_JOINS, 0))
		return;
	int rc = service_leave(svc, a->id, req->token, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

/* POST /v1/games/{id}/rematch: offer or accept (rate-limited as a
 * join: it may seat its players in a new game). */
static void h_rematch(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	struct svc_err err = {0};
	json_t *out = NULL;
	if (!rate_ok(req, LIMITS_JOINS, rep))
		return;
	int rc = service_rematch_offer(
	    svc, a->id, req->token, limits_addr_text(req->client), &out, &err);
	finish(rep, req, rc, 200, out, &err);
}

static void h_rematch_decline(struct service *svc, const struct http_req *req,
                              const struct route_args *a,
                              struct http_reply *rep)
{
	struct svc_err err = {0};
	if (!rate_ok(req, LIMITS_JOINS, rep))
		return;
	int rc = service_rematch_decline(svc, a->id, req->token, &err);
	finish(rep, req, rc, 204, NULL, &err);
}

static void h_tokens(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_tokens_list(svc, req->token, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

static void h_token_create(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	/* The body is optional: none means no label. */
	if (!call_open(&c, req, rep, LIMITS_TOKENS, BODY_OPTIONAL))
		return;
	int rc =
	    service_token_create(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

/* GET /v1/players?name=PREFIX (identity.c): no token, no rate limit of
 * its own (a read, as a profile). */
static void h_players_find(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int rc = service_players_find(svc, http_query(req, "name"),
	                              http_query(req, "limit"), &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* POST /v1/players/me/link-codes, rate-limited as making a token; the
 * body ({"origin"}: a QR code of the claim URL too) is optional. */
static void h_link_code_create(struct service *svc, const struct http_req *req,
                               const struct route_args *a,
                               struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_TOKENS, BODY_OPTIONAL))
		return;
	int rc = service_link_code_create(svc, req->token, req->body, &c.out,
	                                  &c.err);
	call_finish(&c, req, rep, rc, 201);
}

/* POST /v1/link-codes/claim: no token, so only the address's budget of
 * making tokens holds guessing back (40 bits a code, 10 minutes each). */
static void h_link_code_claim(struct service *svc, const struct http_req *req,
                              const struct route_args *a,
                              struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_TOKENS, NEEDS_BODY))
		return;
	int rc = service_link_code_claim(svc, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 201);
}

#define TOKENS_PATH "/v1/players/me/tokens/"

static void h_token_revoke(struct service *svc, const struct http_req *req,
                           const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	int64_t player = 0;
	int rc = service_token_revoke(svc, req->token,
	                              req->path + sizeof TOKENS_PATH - 1,
	                              &player, &c.err);
	if (rc == 0 && req->hub) /* its streams look again, and end */
		hub_on_revoke(req->hub, player);
	call_finish(&c, req, rep, rc, 204);
}

static void h_attach(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_JOINS, NEEDS_BODY))
		return;
	int rc =
	    service_seat_attach(svc, req->token, req->body, &c.out, &c.err);
	call_finish(&c, req, rep, rc, 200);
}

/* A stream GET with ?ticket= and no Authorization: the ticket is used
 * (once) and the request goes on as the token that asked for it, in
 * *copy (token[] holds it).  Returns the request to serve: req itself
 * when there is no ticket to use, copy when one was used, NULL when it
 * was refused (rep holds the 401). */
static const struct http_req *with_ticket(struct service *svc,
                                          const struct http_req *req,
                                          struct http_req *copy, char *token,
                                          size_t max, struct http_reply *rep)
{
	const char *ticket = http_query(req, "ticket");
	if (!ticket || req->token || req->bad_auth || req->head)
		return req; /* a HEAD never spends a ticket */
	struct svc_err err = {0};
	int rc = service_ticket_use(svc, ticket, req->path,
	                            http_query(req, "after"), token, max, &err);
	if (rc < 0) {
		problem_reply(rep, rc, &err, req->path);
		return NULL;
	}
	*copy = *req;
	copy->token = token;
	return copy;
}

/* The two stream routes, with tickets. */
static void h_stream(struct service *svc, const struct http_req *req,
                     const struct route_args *a, struct http_reply *rep,
                     handler_fn fn)
{
	struct http_req copy;
	char token[160];
	const struct http_req *r =
	    with_ticket(svc, req, &copy, token, sizeof token, rep);
	if (r)
		fn(svc, r, a, rep);
	sodium_memzero(token, sizeof token);
}

static void h_events_ticket(struct service *svc, const struct http_req *req,
                            const struct route_args *a, struct http_reply *rep)
{
	h_stream(svc, req, a, rep, h_events);
}

static void h_account_ticket(struct service *svc, const struct http_req *req,
                             const struct route_args *a, struct http_reply *rep)
{
	h_stream(svc, req, a, rep, h_account_events);
}

/* ---- ratings (docs/ratings.md) ---- */

#define PLAYERS_PATH "/v1/players/"
#define BOARDS_PATH "/v1/leaderboards/"

/* The {tid} segment of req's path after `prefix` into buf (cut at the
 * next '/'; an over-long one becomes "", which names nothing). */
static void path_segment(const struct http_req *req, size_t prefix,
                         char *buf, size_t len)
{
	const char *seg = req->path + prefix;
	size_t n = strcspn(seg, "/");
	if (n >= len)
		n = 0;
	memcpy(buf, seg, n);
	buf[n] = '\0';
}

static void h_profile(struct service *svc, const struct http_req *req,
                      const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	char id[64];
	path_segment(req, sizeof PLAYERS_PATH - 1, id, sizeof id);
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_player_profile(svc, id, http_query(req, "limit"),
	                                http_query(req, "cursor"), &out, &err);
	finish_etag(rep, req, rc, out, &err);
}

static void h_rating_history(struct service *svc, const struct http_req *req,
                             const struct route_args *a,
                             struct http_reply *rep)
{
	(void)a;
	char id[64];
	path_segment(req, sizeof PLAYERS_PATH - 1, id, sizeof id);
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_rating_history(
	    svc, id, http_query(req, "category"), http_query(req, "after"),
	    http_query(req, "limit"), &out, &err);
	finish_etag(rep, req, rc, out, &err);
}

static void h_leaderboard(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	char category[64];
	path_segment(req, sizeof BOARDS_PATH - 1, category, sizeof category);
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_leaderboard(svc, category, http_query(req, "after"),
	                             http_query(req, "limit"), &out, &err);
	finish_etag(rep, req, rc, out, &err);
}

#define SEEKS_PATH "/v1/seeks/"

/* POST /v1/seeks (rate-limited as a join: it may seat its player in a
 * new game). */
static void h_seek_create(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_JOINS, NEEDS_BODY))
		return;
	int rc = service_seek_create(svc, req->body, req->token,
	                             limits_addr_text(req->client), &c.out,
	                             &c.err);
	call_finish(&c, req, rep, rc, 201);
}

static void h_seeks(struct service *svc, const struct http_req *req,
                    const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_seeks_list(svc, http_query(req, "game"),
	                            http_query(req, "after"),
	                            http_query(req, "limit"), &out, &err);
	finish(rep, req, rc, 200, out, &err);
}

static void h_seek(struct service *svc, const struct http_req *req,
                   const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	char id[64];
	path_segment(req, sizeof SEEKS_PATH - 1, id, sizeof id);
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_seek_get(svc, id, &out, &err);
	finish(rep, req, rc, 200, out, &err);
}

static void h_seek_cancel(struct service *svc, const struct http_req *req,
                          const struct route_args *a, struct http_reply *rep)
{
	(void)a;
	char id[64];
	path_segment(req, sizeof SEEKS_PATH - 1, id, sizeof id);
	struct call c = {0};
	if (!call_open(&c, req, rep, LIMITS_JOINS, 0))
		return;
	int rc = service_seek_cancel(svc, id, req->token, &c.err);
	call_finish(&c, req, rep, rc, 204);
}

/* ---- the table ---- */

struct route {
	const char *pattern; /* exact path, "/v1/games/{id}" + sub, or a
	                        prefix + "{tid}" (one more segment) */
	const char *method;
	handler_fn fn;
	const char *allow; /* every method the path takes, for 405 */
	int token;         /* 1: reads the bearer token (so a malformed
	                      Authorization header is a 401 here) */
};

#define HOOK_ALLOW "DELETE, GET, HEAD, PUT"

static const struct route routes[] = {
    {"/healthz", "GET", h_health, "GET, HEAD", 0},
    {"/readyz", "GET", h_ready, "GET, HEAD", 0},
    {"/metrics", "GET", h_metrics, "GET, HEAD", 0},
    {"/openapi.yaml", "GET", h_openapi, "GET, HEAD", 0},
    {"/v1/catalog", "GET", h_catalog, "GET, HEAD", 0},
    {"/v1/games", "GET", h_list, "GET, HEAD, POST", 0},
    {"/v1/games", "POST", h_create, "GET, HEAD, POST", 1},
    {"{id}", "GET", h_game, "DELETE, GET, HEAD", 1},
    {"{id}", "DELETE", h_cancel, "DELETE, GET, HEAD", 1},
    {"{id}/events", "GET", h_events_ticket, "GET, HEAD", 1},
    {"{id}/actions", "GET", h_actions, "GET, HEAD", 1},
    {"{id}/moves", "GET", h_moves, "GET, HEAD, POST", 1},
    {"{id}/moves", "POST", h_move, "GET, HEAD, POST", 1},
    {"{id}/record", "GET", h_record, "GET, HEAD", 1},
    {"{id}/join", "POST", h_join, "POST", 1},
    {"{id}/resign", "POST", h_resign, "POST", 1},
    {"{id}/leave", "POST", h_leave, "POST", 1},
    {"{id}/rematch", "POST", h_rematch, "DELETE, POST", 1},
    {"{id}/rematch", "DELETE", h_rematch_decline, "DELETE, POST", 1},
    {"{id}/chat/players", "GET", h_chat_list, "GET, HEAD, POST", 1},
    {"{id}/chat/players", "POST", h_chat_post, "GET, HEAD, POST", 1},
    {"{id}/chat/spectators", "GET", h_chat_list, "GET, HEAD, POST", 1},
    {"{id}/chat/spectators", "POST", h_chat_post, "GET, HEAD, POST", 1},
    {"/v1/reports", "GET", h_reports, "GET, HEAD, POST", 0},
    {"/v1/reports", "POST", h_report, "GET, HEAD, POST", 1},
    {"/v1/tickets", "POST", h_ticket, "POST", 1},
    {"/v1/players", "GET", h_players_find, "GET, HEAD, POST", 0},
    {"/v1/players", "POST", h_player_create, "GET, HEAD, POST", 0},
    {"/v1/link-codes/claim", "POST", h_link_code_claim, "POST", 0},
    {"/v1/players/me", "GET", h_player_me, "DELETE, GET, HEAD", 1},
    {"/v1/players/me", "DELETE", h_player_delete, "DELETE, GET, HEAD", 1},
    {"/v1/players/me/export", "GET", h_player_export, "GET, HEAD", 1},
    {"/v1/players/me/games", "GET", h_player_games, "GET, HEAD", 1},
    {"/v1/players/me/events", "GET", h_account_ticket, "GET, HEAD", 1},
    {"/v1/players/me/tokens", "GET", h_tokens, "GET, HEAD, POST", 1},
    {"/v1/players/me/tokens", "POST", h_token_create, "GET, HEAD, POST", 1},
    {TOKENS_PATH "{tid}", "DELETE", h_token_revoke, "DELETE", 1},
    {"/v1/players/me/link-codes", "POST", h_link_code_create, "POST", 1},
    {"/v1/players/me/seats", "POST", h_attach, "POST", 1},
    {"/v1/players/me/blocks", "GET", h_blocks, "GET, HEAD", 1},
    {BLOCKS_PATH "{tid}", "PUT", h_block_put, "DELETE, PUT", 1},
    {BLOCKS_PATH "{tid}", "DELETE", h_block_delete, "DELETE, PUT", 1},
    {"/v1/players/me/webhook", "GET", h_webhook_get, HOOK_ALLOW, 1},
    {"/v1/players/me/webhook", "PUT", h_webhook_put, HOOK_ALLOW, 1},
    {"/v1/players/me/webhook", "DELETE", h_webhook_delete, HOOK_ALLOW, 1},
    {"/v1/players/me/webhook/deliveries", "GET", h_deliveries, "GET, HEAD", 1},
    {"/v1/push/key", "GET", h_push_key, "GET, HEAD", 0},
    {"/v1/players/me/push-subscriptions", "GET", h_push_subs, "GET, HEAD, POST",
     1},
    {"/v1/players/me/push-subscriptions", "POST", h_push_sub_add,
     "GET, HEAD, POST", 1},
    {PUSH_SUBS_PATH "{tid}", "DELETE", h_push_sub_delete, "DELETE", 1},
#define MAIL_ALLOW "DELETE, GET, HEAD, PATCH, POST"
#define VAC_ALLOW "DELETE, GET, HEAD, PATCH, POST"
    {"/v1/players/me/vacation", "GET", h_vacation_get, VAC_ALLOW, 1},
    {"/v1/players/me/vacation", "POST", h_vacation_take, VAC_ALLOW, 1},
    {"/v1/players/me/vacation", "PATCH", h_vacation_patch, VAC_ALLOW, 1},
    {"/v1/players/me/vacation", "DELETE", h_vacation_end, VAC_ALLOW, 1},
    {"/v1/players/me/email", "GET", h_mail_get, MAIL_ALLOW, 1},
    {"/v1/players/me/email", "POST", h_mail_set, MAIL_ALLOW, 1},
    {"/v1/players/me/email", "PATCH", h_mail_patch, MAIL_ALLOW, 1},
    {"/v1/players/me/email", "DELETE", h_mail_delete, MAIL_ALLOW, 1},
    {"/v1/players/me/email/confirm", "POST", h_mail_confirm, "POST", 1},
    {UNSUB_PATH "{tid}", "GET", h_unsubscribe, "GET, HEAD, POST", 0},
    {UNSUB_PATH "{tid}", "POST", h_unsubscribe, "GET, HEAD, POST", 0},
    /* after every /v1/players/me... path: "me" is no player's id */
    {PLAYERS_PATH "{tid}", "GET", h_profile, "GET, HEAD", 0},
    {PLAYERS_PATH "{tid}/rating-history", "GET", h_rating_history,
     "GET, HEAD", 0},
    {BOARDS_PATH "{tid}", "GET", h_leaderboard, "GET, HEAD", 0},
    {"/v1/seeks", "GET", h_seeks, "GET, HEAD, POST", 0},
    {"/v1/seeks", "POST", h_seek_create, "GET, HEAD, POST", 1},
    {SEEKS_PATH "{tid}", "GET", h_seek, "DELETE, GET, HEAD", 0},
    {SEEKS_PATH "{tid}", "DELETE", h_seek_cancel, "DELETE, GET, HEAD", 1},
};

#define N_ROUTES (sizeof routes / sizeof *routes)

const char *router_route_pattern(int route)
{
	return route > 0 && (size_t)route <= N_ROUTES
	           ? routes[route - 1].pattern
	           : NULL;
}

/* Splits /v1/games/{id}[sub] into a; 1 if the path has that shape. */
static int split_game_path(const char *path, struct route_args *a)
{
	static const char prefix[] = "/v1/games/";
	if (strncmp(path, prefix, sizeof prefix - 1) != 0)
		return 0;
	const char *id = path + sizeof prefix - 1;
	size_t n = strcspn(id, "/");
	if (n == 0)
		return 0;
	if (n < sizeof a->id) /* an over-long id stays "": unknown */
		memcpy(a->id, id, n);
	a->id[n < sizeof a->id ? n : 0] = '\0';
	a->sub = id + n;
	return 1;
}

static int route_matches(const struct route *r, const char *path,
                         const struct route_args *a, int game_path)
{
	if (strncmp(r->pattern, "{id}", 4) == 0)
		return game_path && strcmp(r->pattern + 4, a->sub) == 0;
	/* "<prefix>{tid}[<suffix>]": one more path segment, the handler's
	 * to read, then exactly the suffix (none: the path ends there) */
	const char *tid = strstr(r->pattern, "{tid}");
	if (tid) {
		size_t pre = (size_t)(tid - r->pattern);
		if (strncmp(r->pattern, path, pre) != 0)
			return 0;
		size_t seg = strcspn(path + pre, "/");
		return seg > 0 && strcmp(path + pre + seg, tid + 5) == 0;
	}
	return strcmp(r->pattern, path) == 0;
}

static void bad_authorization(const struct http_req *req,
                              struct http_reply *rep)
{
	struct svc_err err = {0};
	snprintf(err.detail, sizeof err.detail,
	         "Authorization must be 'Bearer <token>'");
	problem_reply(rep, BD_EUNAUTHORIZED, &err, req->path);
}

/* A file of the web client at req's path (static_files.h): 1 when there
 * is one, with rep filled: 200, or 304 to a matching If-None-Match, or 405
 * to another method.  Cached by browsers only as long as it revalidates
 * (no-cache), so a new binary's files are fetched at once. */
static int web_file(const struct http_req *req, struct http_reply *rep)
{
	const struct static_file *f = static_file_find(req->path);
	if (!f)
		return 0;
	if (strcmp(req->method, "GET") != 0) {
		problem_reply(rep, BD_EMETHOD, NULL, req->path);
		rep->allow = "GET, HEAD";
		return 1;
	}
	/* The smallest coding the client takes (compressed at build time). */
	enum http_coding c =
	    http_coding_choose(http_header(req, "Accept-Encoding"),
	                       (1u << HTTP_GZIP) | (1u << HTTP_BR));
	const struct static_coded *k = static_file_coded(f, c);
	if (!k && c == HTTP_BR) /* br made it no smaller: gzip, if taken */
		k = static_file_coded(
		    f,
		    c = http_coding_choose(http_header(req, "Accept-Encoding"),
		                           1u << HTTP_GZIP));
	snprintf(rep->etag, sizeof rep->etag, "%s", f->etag);
	rep->cache_control = "no-cache";
	rep->subresource = static_file_subresource(f); /* its 304 too */
	if (inm_holds(http_header(req, "If-None-Match"),
	              http_header(req, "Accept-Encoding"), rep)) {
		rep->status = 304; /* the tag of a coding it takes */
		return 1;
	}
	if (k)
		snprintf(rep->etag, sizeof rep->etag, "%s", k->etag);
	rep->status = 200;
	rep->raw = k ? k->bytes : f->bytes;
	rep->raw_len = k ? k->len : f->len;
	rep->raw_type = f->type;
	rep->encoding = k ? http_coding_name(c) : NULL;
	return 1;
}

/* Whether rep, the answer to a rate-limited request whose token the
 * limiter did not charge (rate_ok), proves that token known, so that
 * limits_token_known may charge it: a 2xx, since every such handler
 * refuses a token it does not know (401, 403), but for creating a game
 * or a player, which take one and ignore it when unknown: there the
 * store is asked (one lookup, only for a token not in the limiter's
 * table). */
static int token_proven(struct service *svc, const struct http_req *req,
                        const struct http_reply *rep)
{
	if (rep->status < 200 || rep->status >= 300)
		return 0;
	if (rep->token_action != LIMITS_GAMES &&
	    rep->token_action != LIMITS_PLAYERS)
		return 1;
	int64_t player = 0;
	struct svc_err err = {0};
	return service_player_key(svc, req->token, &player, &err) == 0;
}

void router_dispatch(struct service *svc, const struct http_req *req,
                     struct http_reply *rep)
{
	struct route_args a = {"", ""};
	int game_path = split_game_path(req->path, &a);
	const char *allow = NULL;
	for (size_t i = 0; i < sizeof routes / sizeof *routes; i++) {
		if (!route_matches(&routes[i], req->path, &a, game_path))
			continue;
		rep->route = (int)i + 1; /* for the metrics: a 405 too */
		if (strcmp(routes[i].method, req->method) == 0) {
			if (req->bad_auth && routes[i].token) {
				bad_authorization(req, rep);
				return;
			}
			service_request_begin(svc); /* one store connection */
			routes[i].fn(svc, req, &a, rep);
			if (rep->token_unproven && token_proven(svc, req, rep))
				limits_token_known(
				    req->limits, rep->token_action, req->token);
			service_request_end(svc);
			return;
		}
		/* The first route matching the path is the one served (as
		 * for a method above): /v1/players/me's Allow, not that of
		 * the player profile's {tid} after it. */
		if (!allow)
			allow = routes[i].allow;
	}
	if (!allow && web_file(req, rep))
		return;
	problem_reply(rep, allow ? BD_EMETHOD : BD_ENOROUTE, NULL, req->path);
	rep->allow = allow;
}
