/* service.h: one function per endpoint.  Its manual.
 *
 * The service turns requests into engine and store calls and builds the
 * JSON bodies.  It knows no HTTP: each function returns 0 with *out set to
 * a new reference (the response body), or a negative bd_err with *err
 * filled; the HTTP layer maps codes to statuses.  Every write is one store
 * transaction, so a rejected request changes nothing.
 *
 * `token` is the bearer token from the request, or NULL when none was
 * sent.  Game ids are validated by the caller's router only loosely; the
 * service answers BD_ENOTFOUND for any id it does not know.
 */
#ifndef BD_SERVICE_H
#define BD_SERVICE_H

#include <jansson.h>
#include <stdint.h>

#include "../common/err.h"
#include "../common/histo.h"
#include "../engine/cache.h"
#include "../engine/engine.h"
#include "../store/store.h"

struct service;

/* Error details for the problem response. */
struct svc_err {
	char detail[BD_DETAIL_LEN]; /* a sentence for the client */
	char rule[48];              /* rules section, for BD_EILLEGAL */
	int has_seq;                /* 1: seq below is meaningful */
	uint64_t seq;               /* the game's current seq (BD_ESTALE) */
	int has_move;               /* 1: move below is meaningful */
	uint64_t move;              /* BD_EBADRECORD: the index in the
	                               record's "moves" of the first move
	                               that fails (docs/records.md) */
};

/* An Idempotency-Key of a request (see service_idem_init).  The service
 * functions that take one return the first response again for a retry,
 * to the same credential only (idem.c explains the scheme). */
struct svc_idem {
	uint8_t scope[32];      /* hash of credential, method, path, key */
	uint8_t request[32];    /* hash of body and preconditions */
	uint8_t box_key[32];    /* the stored answer's secretbox key, derived
	                           from credential, method, path and key */
	int weak;               /* 1: a key under 128 bits, sent with a token */
	uint8_t token_hash[32]; /* that token's hash (weak keys only) */
	unsigned replayed; /* out: the stored status when replayed, else 0 */
};

/* The longest Idempotency-Key, in characters. */
#define SVC_IDEM_KEY_MAX 255

/* What a key sent without a bearer token must be (the 400's detail). */
#define SVC_IDEM_ANON_RULE                                                     \
	"without a bearer token, an Idempotency-Key must hold at least 128 "   \
	"random bits: a UUID, 32 hex digits, or 22 characters of A-Z a-z "     \
	"0-9 - _"

/* Fills *idem for a request.  `token` may be NULL; `body` is the parsed
 * body (may be NULL; compared in canonical form, so key order does not
 * matter); `precondition` is If-Match or NULL.  BD_EBADREQUEST if the key
 * is not 1..SVC_IDEM_KEY_MAX visible ASCII characters, or if there is no
 * token and the key holds under 128 bits as written (4 per hex digit when
 * it is all hex digits and dashes, else 6 per character of A-Z a-z 0-9 -
 * _); BD_ENOMEM. */
int service_idem_init(struct svc_idem *idem, const char *key, const char *token,
                      const char *method, const char *path, const json_t *body,
                      const char *precondition, struct svc_err *err);

/* A new service over store `st` (borrowed; must outlive the service) with
 * a state cache of `cache_games` games.  NULL on allocation failure. */
struct service *service_new(struct store *st, size_t cache_games);
void service_free(struct service *svc);

/* GET /v1/catalog: *body is the answer's bytes (compact JSON and a
 * newline), borrowed for the life of the service.  Bytes rather than a
 * json_t: a json_t shared by threads has its reference count read
 * without an atomic load in Jansson 2.14's json_incref, a data race
 * (ThreadSanitizer, under the abuse suite). */
/* Built once per language at service_new: card names and texts in
 * language `lang` (src/display/i18n.h; out of range: English). */
int service_catalog(struct service *svc, size_t lang, const char **body,
                    size_t *len, struct svc_err *err);

/* Around one request's handler (src/http/router.c, router_dispatch): the
 * store calls the request makes on the calling thread share one store
 * connection (store_pin), taken at the first and given back by
 * service_request_end; a request served from memory takes none.  The
 * figures per request are docs/read-path.md's "What a request costs".
 * Never fail. */
void service_request_begin(struct service *svc);
void service_request_end(struct service *svc);

/* GET /healthz: 0 when the server can serve reads and writes, or
 * BD_EUNAVAILABLE (with a detail) when its database file was deleted or
 * replaced under it.  Never waits for a lock. */
int service_health(struct service *svc, struct svc_err *err);

/* GET /readyz: 0 when the store answers a query (store_ping), or
 * BD_EUNAVAILABLE with a detail saying why not. */
int service_ready(struct service *svc, struct svc_err *err);

/* What GET /metrics shows of the service (service_stats).  Counts are
 * since service_new. */
struct svc_stats {
	size_t games_cached;      /* game states in the state cache now */
	size_t cache_capacity;    /* the most it holds (service_new's) */
	uint64_t moves_committed; /* moves committed: players', bots' and
	                             timeouts' (resignations included) */
	size_t bot_queue;         /* games queued for the bot workers (and
	                             the clocks' timeouts) now; 0 without
	                             bot workers */
	int64_t webhook_pending;  /* webhook deliveries pending in the
	                             outbox now; -1 when the store failed */
	int64_t db_bytes;         /* the database's size, bytes; -1 when
	                             the store failed (store_disk_usage) */
	int64_t wal_bytes;        /* SQLite's write-ahead log, bytes; -1
	                             on PostgreSQL or when the store failed */
	int listening;            /* PostgreSQL's listening connection
	                             (service_listen): 1 listening, 0 lost
	                             or not yet; -1 none (SQLite) */
	struct store_write_stats writes; /* group commit (store.h) */
	struct histo_snap deadline_lag;  /* how late each timeout was
	                                    applied past its deadline, s */
};

/* Fills *out.  Reads the store twice (the pending deliveries, the
 * size); takes each worker's lock briefly; never waits for a write. */
void service_stats(struct service *svc, struct svc_stats *out);

/* The shortest duration a game's clock may have (move_seconds,
 * bank_seconds), in seconds: SVC_CLOCK_MIN_SECONDS unless the operator
 * lowers it (boardd --clock-min-seconds; 1 makes timeouts testable in
 * seconds).  Call before serving. */
#define SVC_CLOCK_MIN_SECONDS 10
void service_clock_min(struct service *svc, unsigned seconds);

/* POST /v1/games.  `body` is borrowed; it may carry "clock" and
 * "on_timeout" (clock.c: each seat's decision gets a deadline, applied by
 * the bot worker, which must run for it; BD_EBADOPTIONS for a bad one); `token`
 * (may be NULL) is needed when a seat of "seating" is "me".  `client` is the
 * caller's address (http/limits.h's text form; NULL: unknown): with the
 * caller's player, it is the game's creator for the store's caps on waiting
 * games (BD_ELIMIT past one).  idem may be NULL. */
int service_create(struct service *svc, const json_t *body, const char *token,
                   const char *client, struct svc_idem *idem, json_t **out,
                   struct svc_err *err);

/* GET /v1/games.  Each argument is the raw query value or NULL; status
 * may be "waiting" (games with open seats), "active" or "finished". */
struct svc_list_query {
	const char *status;
	const char *game;
	const char *limit;
	const char *cursor;
};
int service_list(struct service *svc, const struct svc_list_query *q,
                 json_t **out, struct svc_err *err);

/* GET /v1/games/{id}.  *seq receives the game's seq (for the ETag). */
int service_game(struct service *svc, const char *id, const char *token,
                 json_t **out, uint64_t *seq, struct svc_err *err);

/* GET /v1/games/{id} as the bytes of the answer (the hot read path).
 * The game's row is read and the caller's seat found first; then
 * want(ctx, out) (if want is not NULL) sees out->seq and out->open_seats
 * and returns 0 when no body is needed (a 304: nothing more is done) or 1
 * for one.  The body is out->body (compact JSON and a newline, shared
 * bytes: one reference, the caller releases it with
 * engine_bytes_release): the bytes cached for this game, viewer, seq and
 * row (engine_cache_bytes_share: keyed by the viewer exactly, so no seat
 * ever gets bytes made for another), else built and cached.  out->seq is
 * the seq the body shows.  Errors as service_game. */
struct svc_view {
	uint64_t seq;              /* the game's seq */
	int open_seats;            /* seats still open (a waiting game) */
	unsigned rematch;          /* a finished game's rematch as a tag
	                              (its accepted seats, bit 31: made),
	                              0: none offered */
	uint64_t seats_gen;        /* the row's seats_version: bumped by
	                              each change of what the view shows of
	                              its seats without a move (a token
	                              attached, a player erased, a vacation
	                              begun or ended), 0 before any */
	struct engine_bytes *body; /* a reference, or NULL when want said no */
};
typedef int (*svc_want_fn)(void *ctx, const struct svc_view *v);
int service_game_bytes(struct service *svc, const char *id, const char *token,
                       svc_want_fn want, void *ctx, struct svc_view *out,
                       struct svc_err *err);

/* GET /v1/games/{id}?at=N: the game object as it was after move N (0 ..
 * the game's seq; `at` is the query's text), its view redacted as of now:
 * what the caller may see today of that position (everything once the
 * game is over), never more.  Not cached.  BD_EBADREQUEST for an `at`
 * that is not such a seq; otherwise errors as service_game. */
int service_game_at(struct service *svc, const char *id, const char *token,
                    const char *at, json_t **out, struct svc_err *err);

/* GET /v1/games/{id}/actions.  Needs a token. */
int service_actions(struct service *svc, const char *id, const char *token,
                    json_t **out, struct svc_err *err);

/* service_actions as the bytes of the answer (compact JSON and a newline
 * in *body: shared bytes, one reference, the caller releases it with
 * engine_bytes_release), every action with its
 * "label" in language `lang` (src/display/label.h; service_actions:
 * English), cached per game, seat, language and seq like
 * service_game_bytes. */
int service_actions_bytes(struct service *svc, const char *id,
                          const char *token, size_t lang,
                          struct engine_bytes **body, struct svc_err *err);

/* POST /v1/games/{id}/moves.  `if_match` is the seq the client expects,
 * or NULL for none (the body's expected_seq is the other way to say it).
 * *seq receives the game's seq after the move.  In a timed game, a move
 * of a seat whose deadline has passed is BD_EDEADLINE (nothing changes;
 * the bot worker applies the timeout). */
int service_move(struct service *svc, const char *id, const char *token,
                 const json_t *body, const uint64_t *if_match,
                 struct svc_idem *idem, json_t **out, uint64_t *seq,
                 struct svc_err *err);

/* POST /v1/games/{id}/resign: the caller's seat resigns (rules of the
 * engine: with one seat left it wins; otherwise resigned seats are played
 * at random).  *seq receives the game's seq after it. */
int service_resign(struct service *svc, const char *id, const char *token,
                   struct svc_idem *idem, json_t **out, uint64_t *seq,
                   struct svc_err *err);

/* POST /v1/games/{id}/join: claims an open seat ({"seat":n} or the first
 * free) for the calling player, or for a newcomer without a token (who
 * gets a seat token).  `body` may be NULL.  BD_ERESERVED when the seat
 * asked for (or, without one, every open seat) is reserved for another,
 * invited player; BD_ESEATTAKEN when it is taken or no seat is left. */
int service_join(struct service *svc, const char *id, const char *token,
                 const json_t *body, struct svc_idem *idem, json_t **out,
                 struct svc_err *err);

/* POST /v1/players: {"name":…} → the player and its token (shown once). */
int service_player_create(struct service *svc, const json_t *body,
                          struct svc_idem *idem, json_t **out,
                          struct svc_err *err);

/* GET /v1/players/me. */
int service_player_me(struct service *svc, const char *token, json_t **out,
                      struct svc_err *err);

/* GET /v1/players/me/games.  Raw query values or NULL. */
struct svc_my_games_query {
	const char *status;
	const char *my_turn;
	const char *limit;
	const char *cursor;
};
int service_player_games(struct service *svc, const char *token,
                         const struct svc_my_games_query *q, json_t **out,
                         struct svc_err *err);

/* GET /v1/players/{id}: player `id`'s public profile (docs/ratings.md):
 * id, name, ratings (each with its leaderboard rank or null), the sums of
 * their rated games and wins, current games (seats held, not invitations)
 * and one page of finished games (`limit` 1..100, `cursor` a
 * next_cursor: raw query values or NULL).  BD_EUNKNOWNPLAYER for no
 * such player, BD_EBADREQUEST for bad paging.  *out: a new reference. */
int service_player_profile(struct service *svc, const char *id,
                           const char *limit, const char *cursor,
                           json_t **out, struct svc_err *err);

/* GET /v1/players/{id}/rating-history: the player's rating changes,
 * oldest first; `category` (NULL: all), `after` (a change number) and
 * `limit` (1..100, default 50) raw query values or NULL.
 * BD_EUNKNOWNCATEGORY, BD_EUNKNOWNPLAYER, BD_EBADREQUEST. */
int service_rating_history(struct service *svc, const char *player_id,
                           const char *category, const char *after,
                           const char *limit, json_t **out,
                           struct svc_err *err);

/* GET /v1/leaderboards/{category}: one page of the category's
 * leaderboard (non-provisional subjects rated in the last 30 days, best
 * first, numbered by rank); `after` (a next_after) and `limit` (1..100,
 * default 50) raw query values or NULL.  BD_EUNKNOWNCATEGORY,
 * BD_EBADREQUEST. */
int service_leaderboard(struct service *svc, const char *category,
                        const char *after, const char *limit, json_t **out,
                        struct svc_err *err);

/* GET /v1/games/{id}/moves: one page of the log as the caller may see
 * it.  `after` and `limit` are the raw ?after= and ?limit= values or NULL:
 * the moves with seq > after (default 0), at most limit of them (1 to
 * SVC_MOVES_PAGE, the default).  *out is {"seq": the game's seq, "moves":
 * [...], "next_after": the last seq listed} with next_after only when
 * later moves exist (ask again with after=next_after).  A page costs a
 * snapshot read and at most SVC_SNAPSHOT_EVERY + limit moves replayed,
 * whatever the log's length.  BD_EBADREQUEST for a bad after or limit. */
#define SVC_MOVES_PAGE 1000
/* GET /v1/games/{id}/record: the record of a finished game
 * (docs/records.md), the same for every caller.  BD_ENOTFOUND,
 * BD_ENOTFINISHED while the game runs. */
int service_record(struct service *svc, const char *id, json_t **out,
                   struct svc_err *err);

int service_moves(struct service *svc, const char *id, const char *token,
                  const char *after, const char *limit, json_t **out,
                  struct svc_err *err);

/* ---- bot seats (bots.c) ---- */

/* Starts the bot workers: `workers` threads (1..64; main.c's
 * --bot-workers, default one per core) that play every bot seat (a seating
 * entry {"bot":…}, bot.h) as soon as it is to act, turn or off-turn
 * decision, posting each choice as an ordinary logged move.  It first
 * scans the store for active games where a bot seat is to act (turns
 * left pending by a previous run).  `max_ms` caps each decision's wall-
 * clock time in milliseconds (0: the bot level's own cap).  `queue`
 * (>= 1; SVC_BOTS_QUEUE is a good size) bounds the games waiting for the
 * worker: a wake-up that finds it full is dropped, and the worker rescans
 * the store for such games once it has emptied it.  0, or BD_ENOMEM /
 * BD_EINTERNAL (no thread).  Without it bot seats never move.  No game
 * is played by two workers at once.  Games a person still plays go
 * before games only bots play, which take at most `workers` - 1 of them
 * (1 of 1); within each, creating networks (IPv4 /24, IPv6 /64), then
 * owners, take turns (bots.c, "fair shares").  The workers are also the clocks'
 * scheduler (clock.c): they send each deadline.soon (once per deadline)
 * and apply every passed deadline of a timed game as a move logged with
 * reason "timeout" (the mcts bot's choice, or a resignation), those that
 * passed while the server was down first; without them, deadlines are
 * shown but never applied.  Call before serving; calling it twice is a
 * no-op. */
#define SVC_BOTS_QUEUE 1024
int service_bots_start(struct service *svc, unsigned max_ms, size_t queue,
                       int workers);

/* Stops the bot worker: lets the decision in hand finish (at most its
 * max_ms and one store write; no move is ever half-written: each is one
 * transaction), then joins the thread.  Turns still queued are found
 * again by the next start's scan.  Call once no request is being served
 * (after the HTTP server stopped) and before the store closes;
 * service_free calls it too.  No-op when the worker does not run. */
void service_bots_stop(struct service *svc);

/* ---- live updates ---- */

/* Called after every committed move, on the thread that committed it,
 * with the game's store key and its new seq; also after a seat is taken,
 * with the unchanged seq (the game's status may have changed).  Must be
 * quick and must not call back into the service. */
typedef void (*service_move_fn)(void *ctx, int64_t game_key, uint64_t seq);

/* service_move_fn's game_key when any game or player may have changed
 * unseen (another node's changes went untold while this node was not
 * listening, service_listen): every waiter should look again. */
#define SVC_EVERY_GAME 0

/* Sets the one move listener (NULL to clear).  Call before serving. */
void service_on_move(struct service *svc, service_move_fn fn, void *ctx);

/* Several nodes on one PostgreSQL database (store.h, "what other
 * processes change"; docs/read-path.md): listens for the other nodes'
 * changes, so that this node drops its hot entry of a game another node
 * changed (and bypasses its hot table while a change may go untold) and
 * the move listener hears of their moves, which wakes this node's
 * long-polls and streams.  Call once, after service_on_move and
 * store_on_change; stop it with store_unlisten before the service and
 * the listeners go.  On PostgreSQL it returns once the first listening
 * session has begun (at most 10 s: remote.c's LISTEN_FIRST_MS), so that
 * its look-again wake reaches no waiter of the open server.  On SQLite
 * it does nothing.  0 or store_listen's error. */
int service_listen(struct service *svc);

/* For a long-poll: game `id`'s store key, current seq and whether it is
 * finished (nothing more will come), with `token` checked as GET
 * /v1/games/{id} checks it (NULL: a spectator).  Errors as
 * service_game's. */
int service_game_seq(struct service *svc, const char *id, const char *token,
                     int64_t *key, uint64_t *seq, int *finished,
                     struct svc_err *err);

/* ---- event streams (stream.c) ---- */

/* One viewer's live stream of one game: its own engine state, advanced by
 * the log tail, so each batch costs only the new moves. */
struct svc_stream;

/* Most events service_stream_next returns at once; a batch this full
 * means more may be waiting: call again before waiting for a move. */
#define SVC_STREAM_BATCH 64

/* Keeps game stream st open after the game's end (GET …/events?
 * rematch=true): each change of the finished game's rematch is then a
 * `rematch` event ({event, seq: the last move's, rematch: as the game's
 * view shows it, null once declined}), and the stream ends once the
 * rematch started (its event names the new game).  Call right after
 * service_stream_open; no effect on an account stream. */
void service_stream_rematch(struct svc_stream *st);

/* Opens a stream of game `id` for the holder of `token` (NULL: a
 * spectator).  `after` NULL: the first batch opens with a `state` event
 * at the current seq; else it holds every move with seq > *after (an
 * *after beyond the current seq gets a `state` event instead).  On
 * success *out is the caller's (service_stream_close) and *game_key is
 * the key service_move_fn reports for this game.  Errors as
 * service_game's. */
int service_stream_open(struct service *svc, const char *id, const char *token,
                        const uint64_t *after, struct svc_stream **out,
                        int64_t *game_key, struct svc_err *err);

/* The events since the last call: *events is a new reference to an array
 * of objects, each {"event":"state"|"move"|"end","seq":n,…}:
 *   state: status, to_act, view, result (the game now);
 *   move:  seat, action (as move_view shows it to this viewer), status,
 *          to_act, view, result (the game right after the move);
 *   end:   status "finished", result (after the final move).
 * Possibly empty.  *finished is 1 once nothing more will ever come (the
 * end event was in this or an earlier batch, or the stream was opened
 * after the final move, with nothing to send), and also when the token
 * the stream was opened with no longer gives it the same viewer or
 * player (its seat was left, its token revoked or attached to a player):
 * it then ends with nothing more, and the client that opens it again is
 * answered as that token is now.  0, or a negative bd_err
 * (the stream should then be closed; a client resumes by seq). */
int service_stream_next(struct service *svc, struct svc_stream *st,
                        json_t **events, int *finished);

/* Whether the token st was opened with still gives it what it was opened
 * with (service_stream_next's test, reading no event): 1; 0 when not
 * (the stream should end: its token was revoked, its seat left); or a
 * negative bd_err (a store error: look again later).  A stream opened
 * without a token: 1.  For the keep-alive: a token revoked on another
 * node, which this node's hub hears nothing of, ends the stream there at
 * the latest at its next keep-alive. */
int service_stream_allowed(struct service *svc, struct svc_stream *st);

/* Frees st.  NULL is a no-op. */
void service_stream_close(struct svc_stream *st);

/* ---- the account stream and webhooks (stream.c, webhook.c) ---- */

/* Opens the stream of the events of the player whose token this is (the
 * outbox, store.h): every event with key > *after, or (after NULL) those
 * written from now on.  service_stream_next then returns, oldest first,
 * objects {"event": type, "seq": the event's key (the resume point),
 * "id": its stable id, "type", "timestamp" (RFC 3339), "data"}; such a
 * stream never finishes.  *player_key gets the player's key (the hub's
 * key is HUB_PLAYER_KEY of it).  BD_EUNAUTHORIZED, BD_EFORBIDDEN (not a
 * player's token). */
int service_account_stream_open(struct service *svc, const char *token,
                                const uint64_t *after, struct svc_stream **out,
                                int64_t *player_key, struct svc_err *err);

/* An event as a webhook delivers it: {"type", "timestamp" (the event's
 * time, RFC 3339), "data"}; new reference, NULL when out of memory. */
json_t *service_event_json(const struct store_event *e);

/* Whether webhook URLs may name private hosts (--webhook-allow-private);
 * the delivery worker checks every address it connects to again. */
void service_webhook_policy(struct service *svc, int allow_private);

/* PUT /v1/players/me/webhook {"url": …}: registers (or replaces) the
 * caller's webhook with a new secret; *out = {"url","created","secret"}
 * ("whsec_" + base64 of 32 random bytes, shown once).  BD_EBADREQUEST
 * for a URL that is not http(s), holds credentials, is over
 * STORE_URL_MAX bytes, or names a private address while those are not
 * allowed. */
int service_webhook_put(struct service *svc, const char *token,
                        const json_t *body, json_t **out, struct svc_err *err);

/* GET /v1/players/me/webhook: {"url","created"}; BD_ENOTFOUND if none. */
int service_webhook_get(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err);

/* DELETE /v1/players/me/webhook; BD_ENOTFOUND if none. */
int service_webhook_delete(struct service *svc, const char *token,
                           struct svc_err *err);

/* GET /v1/players/me/webhook/deliveries?limit=: {"deliveries":[…]}, the
 * newest first, each {event_id, type, created, state, attempts,
 * last_attempt, status, error, next_attempt}. */
int service_webhook_deliveries(struct service *svc, const char *token,
                               const char *limit, json_t **out,
                               struct svc_err *err);

/* ---- the lobby and identity (lobby.c) ---- */

/* A ticket's life: SVC_TICKET_SECONDS unless the operator changes it
 * (boardd --ticket-seconds, 1..3600; short ones make expiry testable).
 * Call before serving. */
#define SVC_TICKET_SECONDS 60
void service_ticket_ttl(struct service *svc, unsigned seconds);

/* POST /v1/tickets {"url": a stream's path and query}: for a browser's
 * EventSource, which cannot send Authorization.  The url is a game's
 * /v1/games/{id}/events or /v1/players/me/events with at most
 * ?after=<seq>; the caller's `token` must be able to open that stream now
 * (BD_EUNAUTHORIZED without one; the stream's own 403/404 otherwise).
 * *out = {"ticket", "url" (canonical), "expires" (RFC 3339),
 * "expires_in" (seconds)}.  The ticket is random (token.h), stored only
 * as its SHA-256 with the token sealed under a key derived from it. */
int service_ticket_create(struct service *svc, const char *token,
                          const json_t *body, json_t **out,
                          struct svc_err *err);

/* Uses `ticket` for the stream at `path` with ?after= `after` (NULL:
 * none): when it was made for exactly that URL and has not expired, it
 * is deleted (single use, atomically) and the token that asked for it is
 * written to token[0..max) with its NUL.  BD_EUNAUTHORIZED (with why:
 * unknown or used, expired, another URL; nothing changes), or a store
 * error.  The stream then checks that token as for any request. */
int service_ticket_use(struct service *svc, const char *ticket,
                       const char *path, const char *after, char *token,
                       size_t max, struct svc_err *err);

/* DELETE /v1/games/{id}: the creating player (`token` must be theirs)
 * cancels a waiting game; from then on it answers 404 everywhere, as an
 * expired waiting game does.  BD_EFORBIDDEN (not the creator; a game
 * created without a player token has none), BD_ESTARTED (not waiting). */
int service_game_cancel(struct service *svc, const char *id, const char *token,
                        struct svc_err *err);

/* POST /v1/games/{id}/leave: the seat the caller holds (seat token or
 * player token) in a waiting game opens again, to anyone.  BD_EFORBIDDEN
 * (no seat here), BD_ESTARTED (the game started: resign instead). */
int service_leave(struct service *svc, const char *id, const char *token,
                  struct svc_err *err);

/* POST /v1/players/me/tokens {"label": 1..64 bytes, optional}: a new
 * token for the calling player; *out = {id, label, created, last_used
 * (null), current (false), token (shown once)}.  BD_ETOKENSFULL when
 * the player holds STORE_TOKENS_MAX. */
int service_token_create(struct service *svc, const char *token,
                         const json_t *body, json_t **out, struct svc_err *err);

/* ---- finding players, linking devices (identity.c; docs/matchmaking.md,
 * "Finding players, linking devices") ---- */

/* GET /v1/players?name=PREFIX&limit=N (no token needed): *out (new) =
 * {"players": [{id, name, created}]}, the players whose name starts with
 * PREFIX, case folded (ASCII on SQLite, all of Unicode on PostgreSQL)
 * once the prefix is enforced as a name is (RFC 8266), ordered by that
 * folded name then age; deleted and banned players are not found.
 * `name` (1..64 bytes once enforced) and `limit` (1..50, NULL: 10) are
 * the query's, borrowed.  BD_EBADREQUEST for either out of shape. */
int service_players_find(struct service *svc, const char *name,
                         const char *limit, json_t **out, struct svc_err *err);

/* POST /v1/players/me/link-codes (body optional, borrowed: NULL or
 * {"origin": "http(s)://host[:port]"}): a code that signs another device
 * in as the calling player, once, for 10 minutes: *out (new) = {"code":
 * "XXXX-XXXX" (Crockford base32, 40 random bits from libsodium),
 * "expires_at": RFC 3339}; with an origin also "claim_url"
 * ("<origin>/#/link?code=XXXX-XXXX": the web client's route that claims
 * it) and "qr_svg" (that URL's QR code, an SVG document, qrsvg.h).  Only
 * the code's SHA-256 is kept.  BD_EBADREQUEST for a body of another
 * shape or an origin that is not one (nothing made); BD_ELINKCODESFULL
 * when the player holds STORE_LINK_CODES_MAX live codes; a player
 * token's refusals (401, 403). */
int service_link_code_create(struct service *svc, const char *token,
                             const json_t *body, json_t **out,
                             struct svc_err *err);

/* POST /v1/link-codes/claim {"code": text} (no token needed): uses the
 * code (case-insensitive, dashes and spaces ignored, O read as 0, I and
 * L as 1) and gives a new token of its player, labelled "linked device":
 * *out (new) = {"token" (shown once), "token_id", "player": {id, name,
 * created}}.  BD_ELINKCODE, one answer for a code wrong, used, expired or
 * of a deleted or banned player; BD_EBADREQUEST when the body is not
 * {"code": string of at most 64 bytes}; BD_ETOKENSFULL when the player
 * holds STORE_TOKENS_MAX tokens. */
int service_link_code_claim(struct service *svc, const json_t *body,
                            json_t **out, struct svc_err *err);

/* GET /v1/players/me/tokens: {"tokens": [{id, label, created, last_used
 * (RFC 3339 or null; written at most once a minute), current (the one
 * asking)}]}, oldest first, never the tokens themselves. */
int service_tokens_list(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err);

/* DELETE /v1/players/me/tokens/{id}: revokes one of the caller's tokens
 * (the calling one too); it is 401 from then on.  *player_key gets the
 * caller's store key (the HTTP layer wakes that player's streams and
 * long-polls, which then see the token revoked and end: hub.h's
 * hub_on_revoke).  BD_ENOROUTE when the caller holds no token with that
 * id. */
int service_token_revoke(struct service *svc, const char *token, const char *id,
                         int64_t *player_key, struct svc_err *err);

/* POST /v1/players/me/seats {"token": a seat token}: the seat that token
 * holds becomes the calling player's (the seat token stops working; the
 * game shows in the player's games).  *out = {id, game, seat, player}.
 * BD_EFORBIDDEN (not a seat token, or its game is gone),
 * BD_EALREADYSEATED (the player holds a seat of that game). */
int service_seat_attach(struct service *svc, const char *token,
                        const json_t *body, json_t **out, struct svc_err *err);

/* The store key of the player whose token this is (for a long-poll on
 * the player's games).  Errors as svc__player_of's. */
int service_player_key(struct service *svc, const char *token, int64_t *key,
                       struct svc_err *err);

/* ---- rematches (rematch.c, docs/matchmaking.md, "Rematch") ---- */

/* POST /v1/games/{id}/rematch: the token's seat of finished game `id`
 * offers its rematch, or accepts the one offered (idempotent: again
 * changes nothing); `client` is the caller's address (limits.h's text,
 * borrowed), recorded as the new game's creator's.  *out (new) is the
 * rematch after it, as the game's view shows it (svc__rematch_json),
 * its `game` set once every seat accepted and the new game exists.
 * BD_EUNAUTHORIZED (no token), BD_EFORBIDDEN (no seat of this game),
 * BD_ENOTFOUND, BD_ENOTFINISHED (not over), BD_EREMATCHED (rematched
 * already), BD_EBLOCKED (a block between two of its players),
 * BD_ENOREMATCH (a seat no player or bot holds, or options the rules no
 * longer take), store errors; nothing is written on a refusal. */
int service_rematch_offer(struct service *svc, const char *id,
                          const char *token, const char *client, json_t **out,
                          struct svc_err *err);

/* DELETE /v1/games/{id}/rematch: the token's seat declines the offer
 * (or withdraws its own); no offer: nothing changes.  The same errors as
 * service_rematch_offer but BD_EBLOCKED and BD_ENOREMATCH. */
int service_rematch_decline(struct service *svc, const char *id,
                            const char *token, struct svc_err *err);

/* ---- quick match (seeks.c; docs/matchmaking.md, "Quick match") ---- */

/* POST /v1/seeks with a player's token: body {game, seats (2..4),
 * options, clock, on_timeout, rated (as POST /v1/games), rating_range
 * [below, above] (integers around the seeker's own rating in the game's
 * category) or rating_min / rating_max (absolute), expires_in (seconds,
 * 1..604800, default 3600)}.  Inserts the seek and, in the same
 * transaction, pairs it with compatible open seeks of other players when
 * they complete a table: the game is created, every seat held.  *out
 * (new reference): the seek as GET /v1/seeks/{id} shows it ("matched"
 * with game_id when it was paired at once).  client: the caller's
 * address (limits.h's text), borrowed.  Errors: BD_EUNAUTHORIZED,
 * BD_EFORBIDDEN (not a player's token), BD_EBADREQUEST (the body's
 * shape, an impossible rating range), BD_EUNKNOWNRULES, BD_EBADOPTIONS
 * (seats, options, clock), BD_ESEEKSFULL (5 open seeks already),
 * BD_ESEEKSELF (an open seek of the same game already); nothing is
 * written on a refusal. */
int service_seek_create(struct service *svc, const json_t *body,
                        const char *token, const char *client, json_t **out,
                        struct svc_err *err);

/* GET /v1/seeks/{id}: the seek (any state: open, matched, cancelled,
 * expired); *out a new reference.  BD_EUNKNOWNSEEK. */
int service_seek_get(struct service *svc, const char *id, json_t **out,
                     struct svc_err *err);

/* DELETE /v1/seeks/{id} with its player's token: cancels the open seek.
 * BD_EUNAUTHORIZED, BD_EFORBIDDEN (another player's seek, or not a
 * player's token), BD_EUNKNOWNSEEK (none, or no longer open: matched,
 * cancelled or expired; nothing changes). */
int service_seek_cancel(struct service *svc, const char *id,
                        const char *token, struct svc_err *err);

/* GET /v1/seeks: the open seeks, oldest first, of game `game` (NULL:
 * every game), after seek id `after` (NULL: from the first), at most
 * `limit` (text, 1..100, default 50): *out {seeks, next_after (the
 * last id when the page is full, else null)}, a new reference.
 * BD_EBADREQUEST, BD_EUNKNOWNRULES. */
int service_seeks_list(struct service *svc, const char *game,
                       const char *after, const char *limit, json_t **out,
                       struct svc_err *err);

/* ---- chat, blocks and reports (chat.c, docs/matchmaking.md) ---- */

/* POST /v1/games/{id}/chat/{channel}: body {"text": …} (1..500 code
 * points, no controls).  channel "players" or "spectators" (else
 * BD_ENOROUTE).  Who may write which channel: chat.c's first comment.
 * *out (new) is the message {n, channel, seat, player, text, time}; the
 * game's streams are woken.  BD_EBADREQUEST (the text), BD_EUNAUTHORIZED
 * (no token), BD_EFORBIDDEN (not this caller's channel), BD_ENOTFOUND,
 * store errors. */
int service_chat_post(struct service *svc, const char *id, const char *channel,
                      const char *token, const json_t *body, json_t **out,
                      struct svc_err *err);

/* GET /v1/games/{id}/chat/{channel}?after=N&limit=M: the channel's
 * messages after number N (default 0), at most M (1..100, default 50),
 * without those of players the reader blocked: {channel, messages,
 * next_after} (next_after: the last n when the page is full, else
 * null).  BD_EFORBIDDEN for a channel the caller may not read. */
int service_chat_list(struct service *svc, const char *id, const char *channel,
                      const char *token, const char *after, const char *limit,
                      json_t **out, struct svc_err *err);

/* PUT and DELETE /v1/players/me/blocks/{player}: the token's player
 * blocks player id `pid`, or lifts that block.  BD_ENOROUTE for an
 * unknown player (or, DELETE, one not blocked); BD_EBADREQUEST for
 * oneself or past STORE_BLOCKS_MAX. */
int service_block_put(struct service *svc, const char *token, const char *pid,
                      struct svc_err *err);
int service_block_delete(struct service *svc, const char *token,
                         const char *pid, struct svc_err *err);

/* GET /v1/players/me/blocks: {"blocks":[{player:{id,name}, since}]}. */
int service_blocks_list(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err);

/* POST /v1/reports: the token's player reports a player ({"player": id,
 * "reason": …}) or a message it may read ({"game", "channel", "n",
 * "reason"}).  *out: {"report": its number}.  BD_EBADREQUEST, 401/403 as
 * svc__player_of, BD_EFORBIDDEN (a channel the reporter may not read). */
int service_report(struct service *svc, const char *token, const json_t *body,
                   json_t **out, struct svc_err *err);

/* GET /v1/reports (operators): the reports after number `after`, oldest
 * first, at most `limit` (1..100, default 100): {reports, next_after}. */
int service_reports_list(struct service *svc, const char *after,
                         const char *limit, json_t **out, struct svc_err *err);
/* ---- Web Push (push.c; docs/notifications.md) ---- */

/* Turns Web Push on with the VAPID public key `key` (a 65-byte
 * uncompressed P-256 point, copied).  Call before serving; without it
 * the push endpoints answer BD_ENOROUTE ("push is off"). */
void service_push_config(struct service *svc, const uint8_t key[65]);

/* GET /v1/push/key: *out = {"key": base64url of the uncompressed point},
 * the browser's applicationServerKey (new reference).  BD_ENOROUTE when
 * push is off. */
int service_push_key(struct service *svc, json_t **out, struct svc_err *err);

/* POST /v1/players/me/push-subscriptions: body (borrowed) is a browser's
 * PushSubscription.toJSON() ({"endpoint", "expirationTime": null or unix
 * ms, "keys": {"p256dh", "auth"}}) and optionally "lang" ("en", "fr";
 * default "en") and "clock_low_seconds" (0..2592000; default 0).  The
 * endpoint must be an https URL (http too, and private hosts, with
 * --webhook-allow-private: service_webhook_policy), p256dh base64url of
 * a 65-byte uncompressed P-256 point on the curve, auth base64url of 16
 * bytes.  *out = the subscription as listed (new reference).
 * BD_EBADREQUEST with why (nothing written), BD_EPUSHFULL past
 * STORE_PUSH_SUBS_MAX, BD_ENOROUTE when push is off, the token's
 * errors. */
int service_push_sub_add(struct service *svc, const char *token,
                         const json_t *body, json_t **out, struct svc_err *err);

/* GET /v1/players/me/push-subscriptions: *out = {"subscriptions": [...]}
 * oldest first, each {"id", "endpoint", "lang", "clock_low_seconds",
 * "expiration_time" (RFC 3339 or null), "created"}: the keys are never
 * shown again. */
int service_push_subs_list(struct service *svc, const char *token, json_t **out,
                           struct svc_err *err);

/* DELETE /v1/players/me/push-subscriptions/{id}; BD_ENOROUTE if the
 * caller holds none with that id (or push is off). */
int service_push_sub_delete(struct service *svc, const char *token,
                            const char *id, struct svc_err *err);

/* ---- vacation (vacation.c; docs/notifications.md, "Vacation") ----
 *
 * Each answers *out = the player's vacation: {"left_seconds", "on_vacation",
 * "since" and "until" (RFC 3339, or null when not on vacation), "auto",
 * "began_automatically", "next_accrual" (RFC 3339, or null at the cap)}.
 * BD_EUNAUTHORIZED / BD_EFORBIDDEN as svc__player_of. */

/* GET /v1/players/me/vacation. */
int service_vacation_get(struct service *svc, const char *token,
                         json_t **out, struct svc_err *err);

/* POST /v1/players/me/vacation: body {"seconds"?: 3600..2592000} or none:
 * a vacation begins now, of that length or of all that is left.
 * BD_EBADREQUEST for a bad body (nothing changes), BD_EVACATIONLEFT for
 * more than is left, BD_EONVACATION while one is taken, BD_ELIMIT after
 * STORE_VAC_BEGUN_MAX in a week. */
int service_vacation_take(struct service *svc, const char *token,
                          const json_t *body, json_t **out,
                          struct svc_err *err);

/* DELETE /v1/players/me/vacation: ends it now, giving back the unused
 * time; the clocks it stopped run again.  BD_ENOTONVACATION if none. */
int service_vacation_end(struct service *svc, const char *token,
                         json_t **out, struct svc_err *err);

/* PATCH /v1/players/me/vacation: body {"auto": true|false}.
 * BD_EBADREQUEST for a bad body (nothing changes). */
int service_vacation_patch(struct service *svc, const char *token,
                           const json_t *body, json_t **out,
                           struct svc_err *err);

/* ---- email (mail.c; docs/notifications.md, "Email") ---- */

/* Turns email on (--smtp-url): a confirmation code lives code_s seconds
 * (>= 1).  Call before serving; without it the email endpoints answer
 * BD_ENOROUTE ("email is off"), but for the unsubscribe ones. */
void service_mail_config(struct service *svc, unsigned code_s);

/* POST /v1/players/me/email: body {"address", "language"?: "en"|"fr"}.
 * The address (lower-cased) replaces the caller's, unconfirmed, and a
 * single-use code is mailed to it (mail outbox).  *out = the address as
 * GET shows it.  BD_EMAILADDR for an address boardd does not mail (not
 * a plain local@domain.tld of at most 254 bytes), BD_EBADREQUEST for
 * other bad fields, BD_EMAILLIMIT (a code went to that address in the
 * last day, or the caller asked for 3 this hour); nothing written on an
 * error. */
int service_mail_set(struct service *svc, const char *token, const json_t *body,
                     json_t **out, struct svc_err *err);

/* POST /v1/players/me/email/confirm: body {"code"}.  *out = the address
 * as GET shows it, now confirmed.  BD_EMAILCODE when the code is wrong,
 * expired or spent, or none is pending (a wrong one counts: the fifth
 * ends the code); BD_ENOROUTE without an address. */
int service_mail_confirm(struct service *svc, const char *token,
                         const json_t *body, json_t **out,
                         struct svc_err *err);

/* GET /v1/players/me/email: *out = {"address", "language", "confirmed"
 * (bool), "mode", "digest_hour" (0..23), "time_zone", "created"};
 * BD_ENOROUTE without one. */
int service_mail_get(struct service *svc, const char *token, json_t **out,
                     struct svc_err *err);

/* PATCH /v1/players/me/email: body {"mode"?: "event"|"digest"|"none",
 * "digest_hour"?: 0..23, "time_zone"?: an IANA zone, "language"?}; with
 * mode "digest" the next digest is due at the first digest_hour:00 ahead
 * in time_zone.  *out as GET.  BD_EBADREQUEST (nothing changes),
 * BD_ENOROUTE without an address. */
int service_mail_patch(struct service *svc, const char *token,
                       const json_t *body, json_t **out, struct svc_err *err);

/* DELETE /v1/players/me/email: the address and its unsent mails go.
 * BD_ENOROUTE without one. */
int service_mail_delete(struct service *svc, const char *token,
                        struct svc_err *err);

/* GET (apply 0) or POST (apply 1, RFC 8058 one-click: mode becomes
 * "none") /v1/unsubscribe/{token}, no login: *out = {"address" (masked:
 * its first letter and domain), "mode"}.  BD_EUNKNOWNPLAYER (404
 * unknown-player) for a token no address has. */
int service_mail_unsubscribe(struct service *svc, const char *utoken,
                             int apply, json_t **out, struct svc_err *err);

/* ---- a player's own data and boardd admin (account.c;
 * docs/operations.md, "A player's data" and "Admin commands") ---- */

/* GET /v1/players/me/export: everything stored about the caller, as one
 * object {player, tokens, games, webhook (never its secret),
 * push_subscriptions, email (as GET /v1/players/me/email, or null),
 * blocks, chat_messages, reports, events} (openapi's
 * PlayerExport).  New reference in *out. */
int service_player_export(struct service *svc, const char *token, json_t **out,
                          struct svc_err *err);

/* DELETE /v1/players/me: the caller's seat in each game in progress
 * resigns (through the engine, as POST /v1/games/{id}/resign), then the
 * account is erased (store_player_erase): finished games keep their
 * moves, their seats shown as "deleted player".  The token then answers
 * 401 like a revoked one. */
int service_player_delete(struct service *svc, const char *token,
                          struct svc_err *err);

/* boardd admin export PLAYER: service_player_export for the player with
 * public id `player_id`.  BD_ENOTFOUND for an unknown or deleted one. */
int service_admin_export(struct service *svc, const char *player_id,
                         json_t **out, struct svc_err *err);

/* boardd admin delete PLAYER: service_player_delete for that player,
 * logged with reason `why` (NULL: none). */
int service_admin_delete(struct service *svc, const char *player_id,
                         const char *why, struct svc_err *err);

/* boardd admin end-game GAME: a game waiting for players is cancelled (as
 * its creator would); a game in progress ends with seat `winner`
 * winning: every other seat resigns through the engine (*resigned gets
 * how many did).  Logged with reason `why`.  BD_EGAMEOVER when it is
 * over already, BD_EBADREQUEST when it is in progress and winner is not
 * one of its seats, BD_ENOTFOUND for no such game. */
int service_admin_end_game(struct service *svc, const char *game_id, int winner,
                           const char *why, int *resigned, struct svc_err *err);

#endif
