/* metrics.h: GET /metrics, in the Prometheus text exposition format
 * (version 0.0.4).  Its manual; docs/operations.md says what each metric
 * means.
 *
 * Request counts and latencies are kept here, process-wide (like every
 * Prometheus client library's default registry), lock-free: each answered
 * request is a few relaxed C11 atomic additions (metrics_request), no
 * lock.  Their labels are bounded: the route is the router's template
 * ("/v1/games/{id}/moves", never the path a client sent: no game id or
 * token ever becomes a label), the method one of the methods the API
 * knows (else "other"), the status one the server sent.  The rest is read
 * when scraped: the state cache, the open streams (hub.h), group commit
 * (store.h), the bot and webhook queues, the deadline lag (service.h),
 * the database's size and the listening connection (service.h), the
 * webhook attempts by outcome (hooks.h), the connections (conns.h), and
 * the standard process_* family (process.h).
 *
 * Who may read them (metrics are operational data, not for players):
 * --metrics loopback, the default, answers only clients whose address is
 * loopback (127.0.0.0/8, ::1) or local (a socketpair), the address being
 * the one limits.h resolves (so behind a --trusted-proxy the proxy's
 * X-Forwarded-For client counts, and a remote client reaching /metrics
 * through nginx is refused); others get 403.  --metrics any answers
 * everyone; --metrics off answers 404 as for an unknown path.  The
 * metrics hold counts and no game data, id or token.
 */
#ifndef BD_HTTP_METRICS_H
#define BD_HTTP_METRICS_H

#include "http.h"

enum metrics_access {
	METRICS_LOOPBACK = 0, /* the default: loopback clients only */
	METRICS_ANY = 1,      /* every client */
	METRICS_OFF = 2,      /* nobody: 404 */
};

/* Parses "loopback", "any" or "off" into *a: 0, or -1. */
int metrics_parse_access(const char *s, enum metrics_access *a);

/* Sets who may read /metrics (http_server_start does, from its config). */
void metrics_set_access(enum metrics_access a);

/* Counts one answered request: `route` as router_dispatch set it in the
 * reply (0: no route matched), the method as the client sent it, the
 * status sent (0: none was, not counted), the seconds from its headers
 * to its completion.  Lock-free; any thread. */
void metrics_request(int route, const char *method, unsigned status,
                     double seconds);

/* Where metrics_route_name reads the route templates: the router's
 * table (router_route_pattern), handed down by http_server_start, so
 * that this file, which the router calls for GET /metrics, never calls
 * the router.  Until it is set every route is "unmatched". */
void metrics_set_routes(const char *(*pattern)(int route));

/* Where the connection gauges read: the server's connection table and
 * its --max-conns (http_server_start sets them, http_server_stop clears
 * them with NULL, 0); until set they are not shown. */
struct conns;
void metrics_set_connections(struct conns *cs, unsigned max_conns);

/* The route template of reply route `route` (router_dispatch's): e.g.
 * "/v1/games/{id}/moves"; "unmatched" for 0 or before metrics_set_routes.
 * Into buf (len bytes); returns buf. */
const char *metrics_route_name(int route, char *buf, size_t len);

/* Whether req comes from an operator, as --metrics decides for /metrics
 * (and GET /v1/reports): 1, or 0 with rep holding the 403 (a client
 * --metrics loopback refuses) or the 404 (--metrics off). */
int metrics_operator(const struct http_req *req, struct http_reply *rep);

/* GET /metrics: fills rep with the exposition (text/plain; version=0.0.4),
 * or a 403/404 problem for a client --metrics does not allow. */
void metrics_reply(struct service *svc, const struct http_req *req,
                   struct http_reply *rep);

#endif
