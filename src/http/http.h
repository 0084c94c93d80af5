/* http.h: the HTTP layer (libmicrohttpd).  Its manual.
 *
 * server.c owns the daemon and the per-request context: it refuses what
 * RFC 9112 forbids before reading a body (400/501, connection closed),
 * decodes the path and query itself (a %00 is refused, not a cut), reads
 * headers, caps and parses the JSON body, and turns a struct http_reply
 * into a libmicrohttpd response; conns.c closes connections that take too long
 * to send a request (or wait for one near the connection limit).
 * request.c is what a handler reads of its request (http_header,
 * http_query, the body cap), below everything else here.
 * router.c maps (method, path) to a handler that calls the service;
 * the write handlers first take the caller's rate-limit buckets, streams
 * and long-polls a stream slot (limits.h: who the client is, budgets).
 * problem.c is the one table from bd_err to HTTP status and RFC 9457
 * problem type.  A GET of a path no route takes may be a file of the web
 * client (static_files.h).
 */
#ifndef BD_HTTP_H
#define BD_HTTP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../service/service.h"

#define HTTP_BODY_MAX (64 * 1024) /* request body cap, bytes */
/* The cap of POST /v1/games, which also takes a whole game's record
 * (docs/records.md: a Quantum game of 3,000 moves is about 400 KB). */
#define HTTP_RECORD_BODY_MAX (1024 * 1024)
#define HTTP_JSON_DEPTH_MAX  32   /* deepest nesting accepted in a body */
#define HTTP_DRAIN_MS        5000 /* at stop: longest wait for live ones */
/* Near the connection limit, how long a connection may wait for its
 * request before it is closed to make room (conns.h). */
#define HTTP_CROWDED_GRACE_MS 100

/* The body cap of a request to `path` (the URL's path, no query), bytes:
 * HTTP_RECORD_BODY_MAX for /v1/games (a create or a record's import),
 * HTTP_BODY_MAX for every other path. */
size_t http_body_max(const char *path);

#include "limits.h"

struct hub;         /* hub.h */
struct hub_waiter;  /* hub.h */
struct live_stream; /* live.c */

struct http_config {
	const char *addr;   /* IPv4 or IPv6 literal to bind */
	unsigned port;      /* 0: any free port (printed at start) */
	unsigned threads;   /* worker threads, >= 1 */
	unsigned timeout_s; /* seconds a connection may stay idle, and may
	                       take to send a whole request (conns.h) */
	unsigned max_conns; /* simultaneous connections, >= 1; near it the
	                       longest-waiting ones are closed (conns.h) */
	unsigned max_conns_per_addr; /* connections from one peer address;
	                         more are closed at accept; 0: no cap (behind
	                         a proxy every client is the proxy) */
	int access_log;              /* 1: one line per request on stderr */
	struct hub *hub;             /* live updates' waiters (hub.h); required,
	                                borrowed, must outlive the server */
	unsigned keepalive_s; /* event streams' keep-alive period; 0: 15 */
	int no_library_log;   /* 1: libmicrohttpd's own messages are not
	                         printed (the fuzzer's socketpairs make it
	                         warn about TCP options on every connection) */
	const struct limits_config *limits; /* rate limits, stream budgets,
	                         trusted proxies (limits.h), copied; NULL: no
	                         rate limit, streams capped at max_conns / 2 */
	unsigned write_workers; /* threads that run write requests (POST, PUT,
	                         DELETE) while their connection is suspended
	                         (writes.h), 0-256; 0: writes run on the
	                         worker thread that read them */
	int metrics;            /* who may GET /metrics: an enum metrics_access
	                           (metrics.h); 0: loopback clients */
};

/* A parsed request, as handlers see it.  Every pointer is borrowed and
 * valid for the handler call. */
struct http_req {
	const char *method;      /* "GET", "POST", …; HEAD arrives as "GET" */
	const char *path;        /* percent-decoded, without the query; holds
	                            no control character (server.c) */
	const char *token;       /* bearer token, or NULL when none was sent */
	int bad_auth;            /* 1: an Authorization header that is not
	                            "Bearer <token>" (token is then NULL) */
	const json_t *body;      /* parsed JSON body of a POST, else NULL */
	int body_rc;             /* 0, or why there is no body (a bd_err) */
	int body_empty;          /* 1: the request had no body bytes at all */
	const char *body_detail; /* sentence for body_rc, or NULL */
	void *conn; /* struct MHD_Connection *, for header lookups */
	const struct http_fields *fields; /* the headers and query copied
	                         (a write run by a write worker while its
	                         connection is suspended), or NULL: conn's */
	struct hub *hub;            /* where waiting requests wait (live.h) */
	struct hub_waiter *waiter;  /* this request's, for a long-poll */
	int resumed;                /* 1: the run after a long-poll's wait */
	int head;                   /* 1: a HEAD (method reads "GET") */
	unsigned keepalive_ms;      /* event streams' keep-alive period */
	struct limits *limits;      /* the server's limiter (limits.h) */
	struct limits_addr *client; /* who asks (limits_client) */
	struct limits_slot *slot;   /* a long-poll's stream slot, held
	                               until the request completes */
	int draining;               /* 1: the server is draining before
	                               it stops (http_server_drain):
	                               /readyz answers 503 */
};

/* What a handler answers.  body is owned by the reply and released by
 * server.c after sending. */
struct http_reply {
	unsigned status;            /* 200, 201, 204, 304, 4xx, 5xx */
	json_t *body;               /* JSON body or NULL */
	int problem;                /* 1: body is application/problem+json */
	const char *raw;            /* non-JSON body, or NULL: static unless
	                               raw_owned */
	int raw_owned;              /* 1: raw is malloc'd, freed with the
	                               reply */
	size_t raw_len;             /* bytes of raw */
	const char *raw_type;       /* Content-Type of raw */
	const char *encoding;       /* Content-Encoding of raw ("gzip",
	                               "br": encoding.h), or NULL; a JSON
	                               body is coded when sent (server.c) */
	const char *cache_control;  /* Cache-Control value; NULL: no-store */
	struct engine_bytes *json;  /* JSON body as shared bytes (a
	                               reference, released with the reply;
	                               src/engine/cache.h), or NULL */
	char etag[80];              /* ETag value with quotes, or "":
	                               room for a coding's suffix
	                               (encoding.h) */
	char location[64];          /* Location path, or "" */
	const char *allow;          /* Allow header for 405, or NULL */
	int retry_after;            /* seconds for Retry-After, or 0 */
	int suspend;                /* 1: no answer yet, wait on req->waiter */
	struct live_stream *stream; /* owned: an event stream body (live.h) */
	int replayed;               /* 1: an Idempotency-Key replay */
	int close; /* 1: close the connection after it (Connection: close) */
	char ratelimit_policy[160]; /* RateLimit-Policy value, or "" */
	char ratelimit[160];        /* RateLimit value, or "" */
	int token_unproven;         /* 1: rate_ok did not charge the bearer
	                               token (limits.h: not in the limiter's
	                               table); a 2xx answer proves it, and
	                               router_dispatch charges it then */
	enum limits_action token_action; /* what rate_ok took, then */
	const char *language;       /* a body in a language chosen by
	                               Accept-Language: its tag, sent as
	                               Content-Language with Vary:
	                               Accept-Language; NULL: none (static) */
	int subresource;            /* 1: a script or style sheet of the
	                               web client (static_file_subresource):
	                               sent without Content-Security-Policy
	                               and X-Frame-Options, which apply only
	                               to documents and workers (server.c) */
	int route; /* router_dispatch's: the route whose path matched (1 +
	              its index in the table, router_route_pattern), 0: none */
};

/* The value of request header `name`, or NULL.  Borrowed. */
const char *http_header(const struct http_req *req, const char *name);

/* The value of query argument `name`, or NULL.  Borrowed. */
const char *http_query(const struct http_req *req, const char *name);

/* Routes one request to its handler and fills *rep. */
void router_dispatch(struct service *svc, const struct http_req *req,
                     struct http_reply *rep);

/* The path pattern of route `route` (an http_reply's), as the router's
 * table writes it: "/healthz", "{id}/moves" (under /v1/games/),
 * "/v1/players/me/tokens/{tid}"; NULL for 0 or out of range.  Static. */
const char *router_route_pattern(int route);

/* Fills *rep with the problem response for error `code`.  `err` may be
 * NULL (the table's generic detail is used); `instance` is the request
 * path. */
void problem_reply(struct http_reply *rep, int code, const struct svc_err *err,
                   const char *instance);

struct http_server;

/* Starts serving svc (borrowed, must outlive the server) on cfg.  On
 * failure returns NULL and writes a sentence into err. */
struct http_server *http_server_start(const struct http_config *cfg,
                                      struct service *svc, char *err,
                                      size_t errlen);

/* The port actually bound (useful with port 0). */
unsigned http_server_port(const struct http_server *s);

/* Serves one more client on `fd`, a connected stream socket the caller
 * made (the in-process fuzzer hands it one end of a socketpair), as if it
 * had been accepted.  The server owns fd from this call on, even when it
 * fails.  0, or -1 (out of memory or connections). */
int http_server_add_connection(struct http_server *s, int fd);

/* Starts the drain before a stop (SIGTERM, main.c): from now on /readyz
 * answers 503 so that a load balancer moves traffic away, while every
 * other request is served as before and streams and long-polls go on;
 * each answer but a stream's closes its connection (Connection: close),
 * so kept-alive clients reconnect, through the balancer, elsewhere.
 * Safe from any thread; idempotent. */
/* Turns the access log (http_config's access_log) on (1) or off (0)
 * for requests completed from now on: main.c's SIGHUP reload of
 * --quiet.  Safe from any thread while the server runs. */
void http_server_set_access_log(struct http_server *s, int on);

void http_server_drain(struct http_server *s);

/* Stops accepting, ends event streams (an SSE stream with a `retry:`
 * hint, live.h) and answers long-polls (waiting up to HTTP_DRAIN_MS for
 * them), finishes in-flight requests, frees
 * everything but cfg->hub. */
void http_server_stop(struct http_server *s);

#endif
