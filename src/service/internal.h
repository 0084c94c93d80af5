/* internal.h: what the files of src/service share.  Not an interface:
 * service.h is.  Names with a svc__ prefix are internal to the folder. */
#ifndef BD_SERVICE_INTERNAL_H
#define BD_SERVICE_INTERNAL_H

#include "../display/i18n.h"
#include "load.h"
#include "service.h"
#include "token.h"

struct service {
	struct store *st;           /* borrowed */
	struct engine_cache *cache; /* owned */
	struct hot_table *hot;      /* owned: rows and seats (hot.h) */
	service_move_fn on_move;    /* listener for committed moves, or NULL */
	void *on_move_ctx;          /* its context */
	char *catalog[I18N_MAX_LANGS];      /* GET /v1/catalog's body in each
	                                    language (compact JSON and a newline),
	                                    built once: the rules never change;
	                                    malloc'd */
	size_t catalog_len[I18N_MAX_LANGS]; /* their bytes */
	int hooks_allow_private; /* 1: webhooks may name private hosts */
	struct svc_bots *bots;   /* the bot worker (bots.c), or NULL */
	unsigned clock_min_s;    /* shortest clock duration accepted,
	                            seconds (service_clock_min) */
	unsigned ticket_ttl_s;   /* a ticket's life, seconds
	                            (service_ticket_ttl) */
	size_t cache_games;      /* the state cache's capacity */
	_Atomic uint64_t moves_committed; /* service_stats's */
	struct histo deadline_lag;        /* how late each timeout was
	                                     applied, seconds: observed by
	                                     bots.c, read by stats.c */
	atomic_int listening; /* service_stats's: -1 no listener (one
	                         process owns the store), 0 not listening
	                         now, 1 listening (remote.c) */
	atomic_int backs; /* listening sessions begun, each counted once
	                     its look-again wake is sent (remote.c) */
	int push_on; /* 1: Web Push is configured (service_push_config) */
	uint8_t push_key[65]; /* the VAPID public key, uncompressed point */
	int mail_on;          /* 1: email is configured (service_mail_config) */
	int64_t mail_code_ms; /* a confirmation code's life, ms */
};

/* BD_EBADREQUEST (with why) unless url is an absolute http(s) URL of at
 * most STORE_URL_MAX bytes without credentials, whose host may be public
 * (netaddr_host_may_be_public; any with allow_private); on success its
 * destination key in dest (STORE_DEST_MAX + 1 bytes): "host:port", host
 * lowercased without a trailing dot.  Webhook and push URLs (push.c). */
int svc__url_check(const char *url, int allow_private, char *dest,
                   struct svc_err *err);

/* A player's name or a token's label from JSON value v (borrowed; NULL
 * when absent), enforced by RFC 8266's Nickname profile
 * (common/nickname.h) into out: 1..64 bytes of UTF-8 and a NUL.  `field`
 * names it in the detail.  0, or BD_EBADREQUEST with the detail in err
 * (out untouched): not a string, empty once spaces are trimmed, over 64
 * bytes once mapped, or holding a code point a name may not (controls,
 * bidi controls, zero-width characters, unassigned...). */
int svc__name_enforce(const json_t *v, const char *field, char out[65],
                      struct svc_err *err);

/* The request's input and its refusals (input.c). */

/* Writes a printf-style detail into err and returns code. */
int svc__fail(struct svc_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Takes ownership of v: *out = v, or BD_ENOMEM when v is NULL. */
int svc__give(json_t *v, json_t **out);

/* BD_EBADREQUEST unless the request body obj is an object and every key
 * of it is in the NULL-ended list. */
int svc__body_keys(const json_t *obj, const char *const *keys,
                   struct svc_err *err);

/* Parses a decimal in [lo, hi]; 1 on success. */
int svc__parse_uint(const char *s, int64_t lo, int64_t hi, int64_t *v);

/* Unix time in milliseconds (walltime.c). */
int64_t svc__now_ms(void);

/* Sets up svc's statistics (service_stats); in service_new. */
void svc__stats_init(struct service *svc);

/* Games queued for the bot workers now (bots.c); 0 without them. */
size_t svc__bots_queued(struct service *svc);

/* New reference: [seats in bits] (json.c). */
json_t *svc__seat_list(unsigned bits);

/* New reference: ms (Unix) as an ISO 8601 UTC time, e.g.
 * "2026-12-06T02:40:00.123Z" (walltime.c). */
json_t *svc__iso_time(int64_t ms);

/* When g is over: *out, how its seats placed and its rating category
 * (store.h's struct store_rating_game: winners place 1, the others 2),
 * and 1; else 0 (out untouched). */
int svc__rating_game(const struct engine_game *g,
                     struct store_rating_game *out);

/* ratings.c: 0 when `category` names a rating category, else
 * BD_EUNKNOWNCATEGORY with err filled. */
int svc__rating_category_check(const char *category, struct svc_err *err);

/* ratings.c: player_key's ratings as a profile lists them (*ratings, a
 * new reference: an array, each with its leaderboard rank or null) and
 * the sums of their rated games and wins. */
int svc__profile_ratings(struct service *svc, int64_t player_key,
                         json_t **ratings, int64_t *games, int64_t *wins);

/* For a player's export (account.c): *ratings as svc__profile_ratings
 * gives them, and *history every change of player_id's ratings, oldest
 * first, in GET /v1/players/{id}/rating-history's form (every page).
 * Both new references, the caller's; on failure (a store error or
 * BD_ENOMEM) neither is set. */
int svc__rating_data(struct service *svc, int64_t player_key,
                     const char *player_id, json_t **ratings,
                     json_t **history);

/* "waiting" (a seat is open), "active" or "finished". */
const char *svc__status(const struct engine_game *g, int open_seats);

/* A game's view (engine_game_view) as seat `viewer` sees it: while a
 * seat is open, the spectator's (ENGINE_SPECTATOR).  A seat's hidden
 * information is shown only once every seat is taken for good: else a
 * player could join, read a seat's hand, leave, and let the next holder
 * play a hand someone else knows (or scout every seat in turn).  New
 * reference. */
json_t *svc__view(const struct engine_game *g, int viewer, int open_seats);

/* null or {"winners":[…],"reason":…}; new reference. */
json_t *svc__result_json(const struct engine_game *g);

/* The opening of every read of one game (the game, its moves, a past
 * position, an event stream, its chat): load_game_seat of game `id` on
 * the service's store and cache, the bearer token (NULL: none) not
 * required.  0 with *l to release (loaded_release) and *viewer the seat
 * the token holds there, ENGINE_SPECTATOR for no token or a player
 * without a seat here; or load_game_seat's refusal (BD_ENOTFOUND,
 * BD_EFORBIDDEN, BD_EUNAUTHORIZED for a revoked token, BD_EBUSY, BD_ENOMEM,
 * BD_EINTERNAL) in err, with nothing to release. */
int svc__load_viewer(struct service *svc, const char *id, const char *token,
                     struct loaded *l, int *viewer, struct svc_err *err);

/* The body of GET /v1/games/{id} as `viewer` sees it; new reference. */
json_t *svc__game_json(struct service *svc, const struct loaded *l, int viewer);

/* A game in a listing (id, game, status, seq, seats, open_seats, bots,
 * to_act, created, updated, and options and players when g->players is
 * read); new reference. */
json_t *svc__list_entry(const struct store_game *g);

/* A finished game's rematch as its view shows it (json.c): null, or
 * {state ("offered" | "started"), offered_by (a seat or null), accepted
 * (seats), game (the new game's id or null)}; new reference. */
json_t *svc__rematch_json(const struct store_game *row);

/* The id of the game `row` rematches (a JSON string), or null; new
 * reference. */
json_t *svc__rematch_of_json(const struct store_game *row);

/* seeks.c: seek k as GET /v1/seeks/{id} shows it (and the export);
 * new reference, or NULL. */
json_t *svc__seek_json(const struct store_seek *k);
/* A player's email address as GET /v1/players/me/email and the export
 * show it (mail.c): {"address", "language", "confirmed", "mode",
 * "digest_hour", "time_zone", "created"}; new reference, NULL when out
 * of memory. */
json_t *svc__mail_json(const struct store_mail *m);

/* A player's vacation *v as GET /v1/players/me/vacation shows it
 * (openapi.yaml's Vacation), new (NULL: out of memory); vacation.c. */
json_t *svc__vacation_json(const struct store_vacation *v);

/* The player whose bearer token this is.  BD_EUNAUTHORIZED without a
 * token, BD_EFORBIDDEN when it is not a player's token. */
int svc__player_of(struct service *svc, const char *token,
                   struct store_player *p, struct svc_err *err);

/* One entry of the move log as `viewer` may see it as of `now` (the
 * game's current state, or any later than `after`): {"seq","seat",
 * "action" (engine_move_view), "outcome" (engine_move_outcome), "time"
 * (created_ms, unix ms), and "by" when `reason` is not NULL}.  `after` is
 * the state right after move `seq`, `action` its logged JSON text.  GET
 * /v1/games/{id}/moves and the move events of a stream show exactly this
 * (docs/history.md).  New reference, or NULL. */
json_t *svc__move_entry(const struct engine_game *after,
                        const struct engine_game *now, uint64_t seq, int seat,
                        const char *action, const char *reason,
                        int64_t created_ms, int viewer);

/* Calls the move listener, if any, after a commit. */
void svc__moved(struct service *svc, int64_t key, uint64_t seq);

/* ---- moves (move.c) ---- */

/* Posts `action` (borrowed) for `seat` of l as a client who sent
 * expected_seq l->g->seq would, with no answer built: applied to l->g,
 * appended (logged "by":"bot"), cached and announced (svc__moved).  BD_ESTALE
 * when another move landed first (load again and decide again); the engine's
 * refusals otherwise.  For the bot worker. */
int svc__move_as(struct service *svc, struct loaded *l, int seat,
                 const json_t *action, struct svc_err *err);

/* Resigns `seat` of game `id` (seat < 0: the seat player `player_key`
 * holds) through the engine, as POST /v1/games/{id}/resign does, so
 * every seat sees a correct game (resigned seats' decisions played,
 * the game over when one seat is left), retrying lost races.  0 when
 * it resigned; 1 when there was nothing to resign (the game waits, is
 * over, or the seat resigned already); BD_ENOTFOUND (no such game or
 * seat) or the engine's and store's refusals. */
int svc__resign_seat(struct service *svc, const char *id, int64_t player_key,
                     int seat, struct svc_err *err);

/* ---- bot seats (bots.c) ---- */

/* Whose share of the bot workers' time a game's decisions take, and in
 * which tier (bots.c, "fair shares"). */
struct svc_bot_share {
	int64_t net;   /* the network that created the game (IPv4 /24, IPv6
	                  /64 of row->creator_from, or of creator_addr while
	                  it is being created): a keyed hash; else `owner`;
	                  0 for a game a store scan found (one group) */
	int64_t owner; /* its creating player (> 0), else the creating
	                  address (a keyed hash, negative), else the game
	                  itself (-key, a game created before sql/0018) */
	int people;    /* 1: a person still plays a seat (neither a bot's
	                  nor resigned), or not known (a scan): its decisions
	                  go before every game's where only bots play */
};

/* Tells the bot worker (if it runs) that game `key` may have a bot seat
 * to act; `share` (svc__bot_share of its row, borrowed for the call)
 * says whose share of the workers' time its decisions take.  Never
 * blocks on the worker's decisions: when its bounded queue is full the
 * worker rescans the store for such games instead. */
void svc__bots_wake(struct service *svc, int64_t key,
                    const struct svc_bot_share *share);

/* The share of game `row` (borrowed; row->seats and row->bot_seats read)
 * whose seats `resigned` (bit set: engine_game's) left: its network,
 * owner and whether a person still plays (struct svc_bot_share).  The
 * workers serve the networks in turn, then the owners within each
 * (bots.c). */
struct svc_bot_share svc__bot_share(const struct store_game *row,
                                    unsigned resigned);

/* The bot spec of `seat` in a row's bots JSON text (store_game.bots).
 * 0, or BD_ENOTFOUND (no bot holds that seat) or BD_EINTERNAL (the stored
 * spec does not read). */
struct bot_spec;
int svc__bot_of(const char *bots, int seat, struct bot_spec *out);

/* Posts `action` for `seat` of l as the timeout of that seat's passed
 * deadline: as svc__move_as, logged with reason "timeout" and the seat's
 * clock charged up to its deadline.  BD_ESTALE also when the seat's
 * deadline has not passed (any more) in l's state. */
int svc__timeout_as(struct service *svc, struct loaded *l, int seat,
                    const json_t *action, struct svc_err *err);

/* ---- clocks (clock.c) ---- */

/* A game's clock (sql/0006_clocks.sql), in milliseconds. */
struct svc_clock {
	int on;               /* 0: an untimed game; the rest is 0 */
	int64_t move_ms;      /* free time per decision, or 0 */
	int64_t bank_ms;      /* each seat's bank at the start, or 0 */
	int64_t increment_ms; /* added to the bank after each move */
	int forfeit;          /* 1: a timeout resigns; 0: the mcts bot plays */
	int vacation;         /* 1: a correspondence clock (move_ms of at
	                         least SVC_CORRESPONDENCE_MS) that vacations
	                         stop (not created with "vacation": false) */
	int vacation_off;     /* 1: created with "vacation": false */
};

/* A correspondence game's clock gives each decision at least a day; its
 * clocks stop for a player on vacation (docs/notifications.md,
 * "Vacation").  Live games' never do. */
#define SVC_CORRESPONDENCE_MS 86400000LL
/* The most vacations of one seat's player the clocks read (those ending
 * after its decision began; store.h's STORE_VAC_BEGUN_MAX a week keeps
 * them fewer). */
#define SVC_VAC_MAX 64

/* The vacations of a game's seated players that end after `after_ms`
 * (svc__vacations_load), by start: what stops their clocks. */
struct svc_vacations {
	int64_t now_ms;                      /* when they were read */
	int64_t player[ENGINE_MAX_SEATS];    /* the seat's player, 0: none */
	int64_t last[ENGINE_MAX_SEATS];      /* their latest vacation's key */
	int n[ENGINE_MAX_SEATS];             /* vacations read per seat */
	int64_t start[ENGINE_MAX_SEATS][SVC_VAC_MAX];
	int64_t end[ENGINE_MAX_SEATS][SVC_VAC_MAX];
};

/* Each seat's clock: since[s] is when its pending decision began (unix
 * ms; 0: it has none), bank[s] its remaining bank (ms). */
struct svc_clock_state {
	int64_t since[ENGINE_MAX_SEATS];
	int64_t bank[ENGINE_MAX_SEATS];
};

/* Reads POST /v1/games' "clock" and "on_timeout" (borrowed, either may
 * be NULL) with durations of at least min_s seconds; clock.vacation
 * (default true) false keeps its clocks running through vacations.  0 with *text the
 * stored clock (malloc'd JSON text), or *text NULL for an untimed game;
 * BD_EBADOPTIONS with err saying what is wrong; BD_ENOMEM. */
int svc__clock_parse(const json_t *clock, const json_t *on_timeout,
                     unsigned min_s, char **text, struct svc_err *err);

/* The clock of row and its seats' state after row->seq (c->on 0 for an
 * untimed game).  BD_EINTERNAL when the stored forms do not read. */
int svc__clock_load(const struct store_game *row, struct svc_clock *c,
                    struct svc_clock_state *s);

/* The seats of to_act that have deadlines: none in an untimed game or
 * while a seat is open, and never a bot's. */
unsigned svc__clock_timed(const struct store_game *row, unsigned to_act);

/* Seat's deadline (unix ms), or 0 when it has none. */
int64_t svc__clock_deadline(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seat);

/* The earliest deadline of the `seats` seats (unix ms; *seat, if not
 * NULL, gets its seat), or 0 when none has one. */
int64_t svc__clock_earliest(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seats,
                            int *seat);

/* Advances s over a move by `mover` (-1: none) whose decision ended at
 * until_ms (its bank pays for the time past move_ms, then gains the
 * increment), committed at now_ms; `after` is the timed seats to act
 * after it (svc__clock_timed): a seat that begins a decision begins it
 * at now_ms, one that goes on keeps its start. */
void svc__clock_advance(const struct svc_clock *c, struct svc_clock_state *s,
                        int seats, int mover, int64_t until_ms, int64_t now_ms,
                        unsigned after);

/* When seat's deadline.soon is due (unix ms): its deadline minus the
 * smaller of STORE_SOON_CAP_MS and 1/STORE_SOON_SHARE of the time from
 * the start of its decision to its deadline (store.h); 0 when the seat
 * has no deadline. */
int64_t svc__clock_soon(const struct svc_clock *c,
                        const struct svc_clock_state *s, int seat);
/* The earliest svc__clock_soon of the `seats` seats, 0 when none. */
int64_t svc__clock_soon_earliest(const struct svc_clock *c,
                                 const struct svc_clock_state *s, int seats);
/* The scheduler's deadline.soon step for l (loaded, borrowed): each seat
 * whose warning time came and whose deadline has not passed gets its
 * deadline.soon (store_event_deadline_soon: once per deadline, ever);
 * the game's soon_ms becomes the next warning time (store_game_soon),
 * and the scheduler is woken for it.  Nothing for an untimed game or
 * when l's row is behind its state.  0 or a store error. */
int svc__clock_warn(struct service *svc, const struct loaded *l);
/* The stored form of s (malloc'd JSON text), or NULL for an untimed game
 * (or out of memory when c->on). */
char *svc__clock_state_text(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seats);

/* The game object's "clock": null for an untimed game, else
 * {move_seconds?, bank_seconds?, increment_seconds?, on_timeout, vacation
 * (whether vacations stop it), seats:[{seat, deadline (RFC 3339 or null,
 * moved by the seat's player's vacations), bank_ms?, vacation ({since,
 * until} of the one being taken, or null)}]}.  svc NULL (a seek's clock):
 * no vacation is read.  New reference; NULL when out of memory, the
 * stored clock does not read or the vacations cannot be read. */
json_t *svc__clock_json(struct service *svc, const struct store_game *row);

/* After a write that began or ended a vacation (which the views of the
 * player's games show, their stored seats_version bumped): this process's
 * hot table forgets every game row it holds. */
void svc__vacation_changed(struct service *svc);

/* Reads into *v the vacations that may stop row's clocks (c, s: as
 * svc__clock_load read them): each seated player's that end after the
 * earliest pending decision began (or after now).  Nothing read (v
 * zeroed) for an untimed game.  0 or a store error. */
int svc__vacations_load(struct service *svc, const struct store_game *row,
                        const struct svc_clock *c,
                        const struct svc_clock_state *s,
                        struct svc_vacations *v);

/* Moves the start of each pending decision of s (of `seat` only, or
 * every seat for -1) later by the time its player spent on vacation
 * during it, up to clip_ms (INT64_MAX: their whole vacations, planned
 * ends included), so that svc__clock_deadline and the bank arithmetic
 * count only the time off vacation.  A vacation counts when it began
 * at or before the deadline as moved so far; nothing moves unless
 * c->vacation.  The result is for reading: never stored. */
void svc__clock_vacation(const struct svc_clock *c, struct svc_clock_state *s,
                         int seats, const struct svc_vacations *v, int seat,
                         int64_t clip_ms);

/* Tells the scheduler (the bot worker) that a deadline falls at
 * deadline_ms (unix ms): it wakes then, or now if that has passed. */
void svc__clock_wake(struct service *svc, int64_t deadline_ms);

/* Asks the bot worker for a pass over the store: the bot turns and the
 * deadlines another process left (boardd admin beside a SQLite server,
 * remote.c), as at start. */
void svc__bots_rescan(struct service *svc);

/* ---- idempotency (idem.c) ---- */

/* If idem (may be NULL) names a recorded request: the same request gives
 * 0 with *out the stored body and idem->replayed the stored status; a
 * different one BD_EIDEMPOTENCY.  BD_ENOTFOUND: go ahead. */
int svc__idem_replay(struct service *svc, struct svc_idem *idem, json_t **out,
                     struct svc_err *err);

/* For an endpoint that does not otherwise check the bearer token
 * (creating a game or a player): a weak key (idem->weak) is accepted only
 * with a player's token, the secret its record is then scoped and
 * encrypted by.  0 (also for idem NULL or a strong key), BD_EBADREQUEST
 * for a token that is no player's, or a store error. */
int svc__idem_issued_token(struct service *svc, const struct svc_idem *idem,
                           struct svc_err *err);

/* A store write that records `rec` (NULL: no Idempotency-Key) in the same
 * transaction as its change.  Returns 0 or a bd_err. */
typedef int (*svc_write_fn)(void *ctx, const struct store_idem *rec);

/* Runs write(ctx, rec) with `answer` (owned, may be NULL: BD_ENOMEM)
 * recorded for idem as the response with `status`.  On success *out =
 * answer; otherwise answer is released. */
int svc__write_answered(const struct svc_idem *idem, unsigned status,
                        json_t *answer, svc_write_fn write, void *ctx,
                        json_t **out);

/* POST /v1/games with {"record": …} (record.c, docs/records.md): checks
 * the record (src/engine/record.h) and writes it as a finished game with a
 * new id, answering 201 {id, game, seats: [{seat}], imported: true}.  The
 * idempotency contract of service_create.  BD_EBADRECORD (err->move: the
 * first move that fails), BD_EUNKNOWNRULES, BD_EBADOPTIONS, BD_EBADSETUP,
 * BD_EBADREQUEST, store errors. */
int svc__import(struct service *svc, const json_t *body, const char *client,
                struct svc_idem *idem, json_t **out, struct svc_err *err);

/* ---- chat (chat.c, docs/matchmaking.md) ---- */

/* The channel a name means ("players", "spectators": enum
 * store_chat_channel), or -1. */
int svc__chat_channel(const char *name);

/* Whether a reader at `seat` (ENGINE_SPECTATOR: none) may read `channel`
 * of a game that is over (finished 1) or not: 1 or 0. */
int svc__chat_may_read(int channel, int seat, int finished);

/* The player whose blocks filter what the caller reads of game `key`'s
 * chat: the holder of `seat`, or (seat ENGINE_SPECTATOR) the player whose
 * token this is; 0 when none.  0 or a store error. */
int svc__chat_reader(struct service *svc, int64_t key, int seat,
                     const char *token, int64_t *player_key);

/* A message as the API shows it: {n, channel, seat, player, text, time};
 * new reference or NULL. */
json_t *svc__chat_json(int channel, const struct store_chat_msg *m);

/* Every message of game `key`, unfiltered: {"players":[…],
 * "spectators":[…]} (the record's "chat").  New reference in *out. */
int svc__chat_all(struct service *svc, int64_t key, json_t **out);

/* A chat text or a report's reason from JSON value v (borrowed; `field`
 * names it): a string of 1..max code points of valid UTF-8 holding
 * something besides spaces, without controls (C0, DEL, C1, U+2028,
 * U+2029) or bidi embeddings, overrides and isolates.  0 with *out
 * pointing into v, or BD_EBADREQUEST with the detail in err. */
int svc__chat_text(const json_t *v, const char *field, size_t max,
                   const char **out, struct svc_err *err);

#endif
