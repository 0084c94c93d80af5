/* live.c: event streams and long-polls.  See live.h; the waiting itself
 * is hub.c's.  Shared notes §2.5 for the libmicrohttpd facts. */
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/decimal.h"
#include "hub.h"
#include "live.h"
#include "monoclock.h"

/* One open event stream: the response's content-reader state. */
struct live_stream {
	struct service *svc;      /* borrowed */
	struct hub *hub;          /* borrowed */
	struct svc_stream *st;    /* owned */
	struct hub_waiter waiter; /* joined unless the stream ends at once */
	int ndjson;               /* 1: application/x-ndjson, 0: SSE */
	char *buf;                /* bytes not yet handed out (malloc'd) */
	size_t len, off, cap;     /* bytes in buf, handed out, allocated */
	int more;                 /* 1: a full batch: fetch again, no wait */
	int64_t keepalive_ms;     /* the keep-alive period */
	int done;                 /* 1: end the stream once buf is out */
	struct limits *limits;    /* borrowed: where slot goes back */
	struct limits_slot slot;  /* this stream's budget slot */
};

/* Parses a decimal of at most 18 digits; 0 on success. */
static int parse_u64(const char *s, uint64_t *v)
{
	return decimal_parse(s, strlen(s), v);
}

static void bad_request(struct http_reply *rep, const struct http_req *req,
                        const char *detail)
{
	struct svc_err err = {0};
	snprintf(err.detail, sizeof err.detail, "%s", detail);
	problem_reply(rep, BD_EBADREQUEST, &err, req->path);
}

/* Takes a stream slot for the caller into *slot (limits.h), once its
 * token (if any) was checked: a request with a token the store knows is
 * a player's (or a seat's), one without is anonymous and shares the
 * anonymous part of the budget.  0, or -1 with the 429 (the caller's
 * budget) or 503 (the server's, or the anonymous share) in rep. */
static int take_slot(const struct http_req *req, struct limits_slot *slot,
                     struct http_reply *rep)
{
	unsigned retry = 0;
	int rc = limits_stream_open(req->limits, req->client, req->token, slot,
	                            &retry);
	if (rc == 0)
		return 0;
	struct svc_err err = {0};
	snprintf(err.detail, sizeof err.detail, "%s",
	         rc == BD_ELIMIT
	             ? "too many event streams and long-polls open from your "
	               "address, network or token; close one or retry later"
	             : "the server holds as many event streams and "
	               "long-polls as it takes (without a bearer token: as "
	               "many as it gives clients without one); retry later");
	problem_reply(rep, rc, &err, req->path);
	rep->retry_after = (int)retry;
	return -1;
}

/* The store key of the player whose token req was checked with, 0 when
 * none (no token, or a seat's): its waiter's owner, which revoking one
 * of that player's tokens wakes (hub_on_revoke). */
static int64_t owner_of(struct service *svc, const struct http_req *req)
{
	int64_t player = 0;
	struct svc_err err = {0};
	if (!req->token || service_player_key(svc, req->token, &player, &err))
		return 0;
	return player;
}

/* ---- long-poll ---- */

/* Reads ?wait= (seconds, 0 when absent) and ?after= (*has_after).  0, or
 * -1 with a 400 problem in rep. */
static int wait_params(const struct http_req *req, struct http_reply *rep,
                       uint64_t *wait_s, uint64_t *after, int *has_after)
{
	const char *ws = http_query(req, "wait");
	const char *as = http_query(req, "after");
	*wait_s = *after = 0;
	*has_after = as != NULL;
	if (ws && parse_u64(ws, wait_s) < 0) {
		bad_request(rep, req, "wait must be whole seconds (a longer wait than 60 is cut to 60)");
		return -1;
	}
	if (as && parse_u64(as, after) < 0) {
		bad_request(rep, req, "after must be a non-negative seq");
		return -1;
	}
	if (*wait_s > LIVE_WAIT_MAX_S)
		*wait_s = LIVE_WAIT_MAX_S;
	return 0;
}

int live_game_wait(struct service *svc, const struct http_req *req,
                   const char *id, struct http_reply *rep)
{
	uint64_t wait_s, after, seq;
	int finished = 0;
	int has_after;
	int64_t key;
	struct svc_err err = {0};
	if (req->resumed)
		return 0;
	if (wait_params(req, rep, &wait_s, &after, &has_after) < 0)
		return 1;
	/* An error is the plain GET's to answer. */
	if (wait_s == 0 || service_game_seq(svc, id, req->token, &key, &seq,
	                                    &finished, &err) < 0)
		return 0;
	if (!has_after)
		after = seq; /* wait for the next move */
	if (seq > after || finished)
		return 0; /* a finished game will never move again */
	if (!req->slot->held && take_slot(req, req->slot, rep) < 0)
		return 1; /* 429/503: the slot goes back at completion */
	int64_t deadline = mono_now_ms() + (int64_t)wait_s * 1000;
	if (hub_join(req->hub, req->waiter, req->conn, key, after, deadline, 0,
	             owner_of(svc, req)) != 0)
		return 0; /* shutting down (or no memory): answer now */
	/* Joined: a move from now on wakes us.  One that landed since the
	 * first look would not, so look again.  (The waiter stays joined
	 * until the request completes: server.c leaves then.) */
	if (service_game_seq(svc, id, req->token, &key, &seq, &finished, &err) <
	        0 ||
	    seq > after)
		return 0;
	rep->suspend = 1;
	return 1;
}

/* ---- the stream's bytes ---- */

static int put(struct live_stream *ls, const char *s, size_t n)
{
	if (ls->len + n > ls->cap) {
		size_t cap = ls->cap ? ls->cap : 4096;
		while (cap < ls->len + n)
			cap *= 2;
		char *nb = cap <= LIVE_BUF_MAX ? realloc(ls->buf, cap) : NULL;
		if (!nb)
			return BD_ENOMEM;
		ls->buf = nb;
		ls->cap = cap;
	}
	memcpy(ls->buf + ls->len, s, n);
	ls->len += n;
	return 0;
}

static int puts_(struct live_stream *ls, const char *s)
{
	return put(ls, s, strlen(s));
}

/* One event e (borrowed, changed): an SSE block
 *   id: <seq>\nevent: <event>\ndata: <JSON without "event">\n\n
 * or an NDJSON line (the whole object). */
static int put_event(struct live_stream *ls, json_t *e)
{
	char head[96];
	int rc = 0;
	if (!ls->ndjson) {
		snprintf(head, sizeof head,
		         "id: %" JSON_INTEGER_FORMAT "\nevent: %s\ndata: ",
		         json_integer_value(json_object_get(e, "seq")),
		         json_string_value(json_object_get(e, "event")));
		json_object_del(e, "event");
		rc = puts_(ls, head);
	}
	char *text = json_dumps(e, JSON_COMPACT);
	if (rc == 0)
		rc = text ? puts_(ls, text) : BD_ENOMEM;
	if (rc == 0)
		rc = puts_(ls, ls->ndjson ? "\n" : "\n\n");
	free(text);
	return rc;
}

/* Appends the next batch of events; sets ls->more and ls->done.  The
 * number of events, or a negative bd_err. */
static int put_events(struct live_stream *ls)
{
	json_t *events = NULL, *e;
	int finished = 0;
	int rc = service_stream_next(ls->svc, ls->st, &events, &finished);
	if (rc < 0)
		return rc;
	size_t i, n = json_array_size(events);
	json_array_foreach(events, i, e)
		if ((rc = put_event(ls, e)) < 0)
			break;
	json_decref(events);
	ls->more = n >= SVC_STREAM_BATCH;
	ls->done = finished;
	return rc < 0 ? rc : (int)n;
}

/* Acts on what woke the stream: `why` is HUB_* bits. */
static int refill(struct live_stream *ls, unsigned why)
{
	if (why & HUB_GONE) {
		ls->done = 1; /* nobody to tell */
		return 0;
	}
	if (why & HUB_SHUTDOWN) {
		ls->done = 1; /* the client reconnects with Last-Event-ID */
		if (ls->ndjson)
			return 0;
		char retry[32];
		snprintf(retry, sizeof retry, "retry: %u\n\n",
		         LIVE_DRAIN_RETRY_MS +
		             randombytes_uniform(LIVE_DRAIN_RETRY_MS + 1));
		return puts_(ls, retry);
	}
	if (why & HUB_TIMEOUT) {
		/* Its token again: one revoked on another node ends it here
		 * now (this node's own revocations wake it at once). */
		if (service_stream_allowed(ls->svc, ls->st) == 0) {
			ls->done = 1;
			return 0;
		}
		int rc = puts_(ls, ls->ndjson ? "\n" : ": keep-alive\n\n");
		if (rc < 0)
			return rc;
		hub_set_deadline(ls->hub, &ls->waiter,
		                 mono_now_ms() + ls->keepalive_ms);
	}
	if (why & HUB_MOVE) {
		int rc = put_events(ls);
		return rc < 0 ? rc : 0;
	}
	return 0;
}

/* The content reader.  Runs on the connection's worker thread.  Returns
 * 0 only right after suspending: the hub resumes the connection when a
 * move, the keep-alive deadline or shutdown comes, and the library then
 * calls this again. */
static ssize_t live_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct live_stream *ls = cls;
	(void)pos;
	while (ls->off == ls->len) {
		ls->off = ls->len = 0;
		if (ls->done)
			return MHD_CONTENT_READER_END_OF_STREAM;
		unsigned why =
		    ls->more ? HUB_MOVE : hub_take(ls->hub, &ls->waiter);
		if (!why)
			return 0;
		if (refill(ls, why) < 0)
			return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	size_t n = ls->len - ls->off < max ? ls->len - ls->off : max;
	memcpy(buf, ls->buf + ls->off, n);
	ls->off += n;
	return (ssize_t)n;
}

static void live_free(void *cls)
{
	struct live_stream *ls = cls;
	if (!ls)
		return;
	hub_leave(ls->hub, &ls->waiter);
	if (ls->limits)
		limits_stream_close(ls->limits, &ls->slot);
	service_stream_close(ls->st);
	free(ls->buf);
	free(ls);
}

struct MHD_Response *live_response(struct live_stream *ls)
{
	struct MHD_Response *r = MHD_create_response_from_callback(
	    MHD_SIZE_UNKNOWN, 16 * 1024, live_read, ls, live_free);
	if (!r) {
		live_free(ls);
		return NULL;
	}
	MHD_add_response_header(r, "Content-Type",
	                        ls->ndjson ? "application/x-ndjson"
	                                   : "text/event-stream");
	/* nginx (deploy/) would otherwise buffer the stream. */
	MHD_add_response_header(r, "X-Accel-Buffering", "no");
	return r;
}

/* ---- GET /v1/games/{id}/events ---- */

/* Where the client is: Last-Event-ID (what a browser sends when it
 * reconnects) before ?after= (what the URL said the first time).  0 and
 * *has set when one is given, 0 and *has clear when none, -1 if bad. */
static int resume_point(const struct http_req *req, uint64_t *after, int *has)
{
	const char *v = http_header(req, "Last-Event-ID");
	if (!v || !*v)
		v = http_query(req, "after");
	*has = v != NULL;
	return v ? parse_u64(v, after) : 0;
}

static int wants_ndjson(const struct http_req *req)
{
	const char *a = http_header(req, "Accept");
	return a && strcasestr(a, "application/x-ndjson") != NULL;
}

/* A new stream for an opened svc_stream (taken over) with its first
 * batch, *n events; NULL on an error, with *rc set. */
static struct live_stream *stream_new(struct service *svc,
                                      const struct http_req *req,
                                      struct svc_stream *st,
                                      struct limits_slot *slot, int *n, int *rc)
{
	char retry[32];
	struct live_stream *ls = calloc(1, sizeof *ls);
	if (!ls) {
		service_stream_close(st);
		limits_stream_close(req->limits, slot);
		*rc = BD_ENOMEM;
		return NULL;
	}
	*ls = (struct live_stream){.svc = svc,
	                           .hub = req->hub,
	                           .st = st,
	                           .ndjson = wants_ndjson(req),
	                           .keepalive_ms = req->keepalive_ms,
	                           .limits = req->limits,
	                           .slot = *slot}; /* the stream's now */
	snprintf(retry, sizeof retry, "retry: %d\n\n", LIVE_RETRY_MS);
	*rc = ls->ndjson ? 0 : puts_(ls, retry);
	if (*rc == 0 && (*n = put_events(ls)) < 0)
		*rc = *n;
	if (*rc < 0) {
		live_free(ls);
		return NULL;
	}
	return ls;
}

/* Answers a stream request: game `id`'s stream, or (id NULL) the
 * caller's account stream.  The place a stream budget wraps both. */
static void stream_reply(struct service *svc, const struct http_req *req,
                         const char *id, struct http_reply *rep)
{
	uint64_t after = 0;
	int has_after, n = 0;
	struct svc_err err = {0};
	struct svc_stream *st = NULL;
	struct limits_slot slot = {0};
	int64_t key = 0;
	if (resume_point(req, &after, &has_after) < 0) {
		bad_request(rep, req,
		            "Last-Event-ID and after must be a seq (digits)");
		return;
	}
	const char *rematch = id ? http_query(req, "rematch") : NULL;
	if (rematch && strcmp(rematch, "true") != 0 &&
	    strcmp(rematch, "false") != 0) {
		bad_request(rep, req, "rematch must be true or false");
		return;
	}
	const uint64_t *from = has_after ? &after : NULL;
	int rc =
	    id ? service_stream_open(svc, id, req->token, from, &st, &key, &err)
	       : service_account_stream_open(svc, req->token, from, &st, &key,
	                                     &err);
	if (rc == 0 && rematch && strcmp(rematch, "true") == 0)
		service_stream_rematch(st); /* after the end: the rematch */
	/* The slot once the token is checked (take_slot): a made-up token
	 * was refused above, and takes no player's slot. */
	if (rc == 0 && take_slot(req, &slot, rep) < 0) {
		service_stream_close(st);
		return;
	}
	int64_t owner = !id ? key : owner_of(svc, req);
	if (!id)
		key = HUB_PLAYER_KEY(key); /* the player's waiters */
	struct live_stream *ls =
	    rc == 0 ? stream_new(svc, req, st, &slot, &n, &rc) : NULL;
	if (!ls) {
		problem_reply(rep, rc, &err, req->path);
		return;
	}
	if (n == 0 && ls->done) {
		live_free(ls); /* finished, nothing left: EventSource stops */
		rep->status = 204;
		return;
	}
	/* HUB_MOVE at once: a move may have landed after the first batch. */
	if (!ls->done &&
	    hub_join(req->hub, &ls->waiter, req->conn, key, 0,
	             mono_now_ms() + ls->keepalive_ms, HUB_MOVE, owner) != 0)
		ls->done = 1; /* shutting down (or no memory): end it */
	rep->status = 200;
	rep->stream = ls;
}

void live_events(struct service *svc, const struct http_req *req,
                 const char *id, struct http_reply *rep)
{
	stream_reply(svc, req, id, rep);
}

/* ---- the account: GET /v1/players/me/events, my games' long-poll ---- */

void live_account_events(struct service *svc, const struct http_req *req,
                         struct http_reply *rep)
{
	stream_reply(svc, req, NULL, rep); /* an account stream never ends */
}

int live_player_wait(struct service *svc, const struct http_req *req,
                     struct http_reply *rep)
{
	uint64_t wait_s, after;
	int has_after;
	int64_t player;
	struct svc_err err = {0};
	if (req->resumed)
		return 0;
	if (wait_params(req, rep, &wait_s, &after, &has_after) < 0)
		return -1;
	if (wait_s == 0 ||
	    service_player_key(svc, req->token, &player, &err) < 0)
		return 0;
	/* The stream budget, as the game's long-poll: 429/503 when spent
	 * (the slot goes back at completion). */
	if (!req->slot->held && take_slot(req, req->slot, rep) < 0)
		return -1;
	int64_t deadline = mono_now_ms() + (int64_t)wait_s * 1000;
	return hub_join(req->hub, req->waiter, req->conn,
	                HUB_PLAYER_KEY(player), 0, deadline, 0, player) == 0;
}
