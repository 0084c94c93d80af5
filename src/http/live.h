/* live.h: live updates over HTTP.  Its manual.
 *
 * Two ways to learn of moves without asking again and again:
 *
 * - GET /v1/games/{id}/events: a stream, Server-Sent Events
 *   (text/event-stream) or, with `Accept: application/x-ndjson`, one JSON
 *   object a line.  A content-reader response: its reader hands out the
 *   bytes it has, fetches new events when its waiter was woken, or
 *   suspends the connection through the hub when there is nothing to send.
 * - GET /v1/games/{id}?wait=S&after=N: a long-poll.  The handler suspends
 *   the request through the hub; when woken (a move, S seconds, shutdown)
 *   the handler runs again and answers as a plain GET does.
 *
 * Neither holds a thread while it waits.  The events themselves come from
 * the service (service_stream_*), which applies the seat's view.
 *
 * Both hold a connection for long, so each takes a slot of the stream
 * budget (limits.h) before it waits: a stream for its whole life (given
 * back when the library frees the response), a long-poll from its wait
 * until the request completes (req->slot, given back by server.c).  A
 * refused slot answers 429 too-many-requests (the caller's address or
 * token holds its budget) or 503 unavailable (the server's), both with
 * Retry-After.  A stream whose client closed the connection while it
 * waited ends (HUB_GONE, hub.h).
 */
#ifndef BD_LIVE_H
#define BD_LIVE_H

#include "http.h"

#define LIVE_WAIT_MAX_S 60         /* a longer ?wait= is cut to this */
#define LIVE_RETRY_MS   3000       /* the SSE `retry:` sent at the start */
/* At shutdown an SSE stream ends with `retry: N`, N from LIVE_DRAIN_RETRY_MS
 * to twice that, drawn at random per stream (libsodium): the clients of a
 * stopping node reconnect (through the balancer, to another node) spread
 * over a second instead of all at once.  An NDJSON stream just ends. */
#define LIVE_DRAIN_RETRY_MS 1000
#define LIVE_BUF_MAX    (4u << 20) /* bytes of events a stream buffers */

/* The long-poll part of GET /v1/games/{id}.  Returns 0 when the caller
 * should answer as a plain GET now: no (or zero) ?wait=, the game is
 * already past `after`, the request is the resumed run (req->resumed),
 * or the game cannot be read (the plain GET then answers the error).
 * Returns 1 when it filled rep: a 400 problem for a bad ?wait= or
 * ?after=, a 429/503 when no stream slot is left, or rep->suspend with
 * req->waiter joined to the game and req->slot held.  Either
 * way req->waiter may be left joined: the caller leaves it when the
 * request completes (so that shutdown waits until the answer is sent). */
int live_game_wait(struct service *svc, const struct http_req *req,
                   const char *id, struct http_reply *rep);

/* GET /v1/games/{id}/events.  Fills rep with a problem (429/503 when no
 * stream slot is left), a 204 (a finished game with nothing left to send)
 * or a 200 whose rep->stream server.c turns into a response with
 * live_response. */
void live_events(struct service *svc, const struct http_req *req,
                 const char *id, struct http_reply *rep);

/* GET /v1/players/me/events: the account stream (service.h), SSE or
 * NDJSON as live_events, resumable by Last-Event-ID or ?after= (an event
 * key).  Waits on the hub under HUB_PLAYER_KEY of the player.  Fills rep
 * with a problem or a 200 stream.  Both streams are made by one function
 * of live.c (stream_reply), the place a stream budget wraps them. */
void live_account_events(struct service *svc, const struct http_req *req,
                         struct http_reply *rep);

/* The long-poll part of GET /v1/players/me/games?wait=S: joins
 * req->waiter to the caller's player key (a change to any game of the
 * player wakes it, or S seconds).  1 when joined (the caller then
 * suspends unless the listing differs from If-None-Match), 0 when the
 * caller should answer now (no ?wait=, resumed, not a player's token:
 * the plain GET answers that), -1 with a problem in rep: 400, or the
 * stream budget's 429/503 (limits.h; a slot taken here is held in
 * req->slot until the request completes). */
int live_player_wait(struct service *svc, const struct http_req *req,
                     struct http_reply *rep);

struct MHD_Response;

/* The content-reader response for stream ls, which it takes over (it is
 * freed when the library is done with the response, or here when the
 * response cannot be made: then NULL). */
struct MHD_Response *live_response(struct live_stream *ls);

#endif
