/* internal.h: what the files of src/service share.  Not an interface:
 * service.h is.  Names with a svc__ prefix are internal to the folder. */
#ifndef BD_SERVICE_INTERNAL_H
#define BD_SERVICE_INTERNAL_H

#include "load.h"
#include "service.h"
#include "token.h"

struct service {
	struct store *st;           /* borrowed */
	struct engine_cache *cache; /* owned */
	service_move_fn on_move;    /* listener for committed moves, or NULL */
	void *on_move_ctx;          /* its context */
	char *catalog;              /* GET /v1/catalog's body (compact JSON
	                               and a newline), built once: the rules
	                               never change; malloc'd */
	size_t catalog_len;         /* its bytes */
	int hooks_allow_private;    /* 1: webhooks may name private hosts */
	struct svc_bots *bots;      /* the bot worker (bots.c), or NULL */
};

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

/* Unix time in milliseconds. */
int64_t svc__now_ms(void);

/* New references: [seats in bits]; an ISO 8601 UTC time. */
json_t *svc__seat_list(unsigned bits);
json_t *svc__iso_time(int64_t ms);

/* "waiting" (a seat is open), "active" or "finished". */
const char *svc__status(const struct engine_game *g, int open_seats);

/* null or {"winners":[…],"reason":…}; new reference. */
json_t *svc__result_json(const struct engine_game *g);

/* The body of GET /v1/games/{id} as `viewer` sees it; new reference. */
json_t *svc__game_json(struct service *svc, const struct loaded *l, int viewer);

/* A game in a listing (id, game, status, seq, seats, open_seats, bots,
 * to_act, created, updated); new reference. */
json_t *svc__list_entry(const struct store_game *g);

/* The player whose bearer token this is.  BD_EUNAUTHORIZED without a
 * token, BD_EFORBIDDEN when it is not a player's token. */
int svc__player_of(struct service *svc, const char *token,
                   struct store_player *p, struct svc_err *err);

/* Calls the move listener, if any, after a commit. */
void svc__moved(struct service *svc, int64_t key, uint64_t seq);

/* ---- moves (move.c) ---- */

/* Posts `action` (borrowed) for `seat` of l as a client who sent
 * expected_seq l->g->seq would, with no answer built: applied to l->g,
 * appended, cached and announced (svc__moved).  BD_ESTALE when another
 * move landed first (load again and decide again); the engine's refusals
 * otherwise.  For the bot worker. */
int svc__move_as(struct service *svc, struct loaded *l, int seat,
                 const json_t *action, struct svc_err *err);

/* ---- bot seats (bots.c) ---- */

/* Tells the bot worker (if it runs) that game `key` may have a bot seat
 * to act.  Never blocks on the worker's decisions: when its bounded queue
 * is full the worker rescans the store for such games instead. */
void svc__bots_wake(struct service *svc, int64_t key);

/* The bot spec of `seat` in a row's bots JSON text (store_game.bots).
 * 0, or BD_ENOTFOUND (no bot holds that seat) or BD_EINTERNAL (the stored
 * spec does not read). */
struct bot_spec;
int svc__bot_of(const char *bots, int seat, struct bot_spec *out);

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

#endif
