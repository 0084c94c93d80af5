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
#include "../engine/engine.h"
#include "../store/store.h"

struct service;

/* Error details for the problem response. */
struct svc_err {
	char detail[BD_DETAIL_LEN]; /* a sentence for the client */
	char rule[48];              /* rules section, for BD_EILLEGAL */
	int has_seq;                /* 1: seq below is meaningful */
	uint64_t seq;               /* the game's current seq (BD_ESTALE) */
};

/* A new service over store `st` (borrowed; must outlive the service) with
 * a state cache of `cache_games` games.  NULL on allocation failure. */
struct service *service_new(struct store *st, size_t cache_games);
void service_free(struct service *svc);

/* GET /v1/catalog. */
int service_catalog(struct service *svc, json_t **out, struct svc_err *err);

/* POST /v1/games.  `body` is borrowed. */
int service_create(struct service *svc, const json_t *body, json_t **out,
		   struct svc_err *err);

/* GET /v1/games.  Each argument is the raw query value or NULL. */
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

/* GET /v1/games/{id}/actions.  Needs a token. */
int service_actions(struct service *svc, const char *id, const char *token,
		    json_t **out, struct svc_err *err);

/* POST /v1/games/{id}/moves.  `if_match` is the seq the client expects,
 * or NULL for none (the body's expected_seq is the other way to say it).
 * *seq receives the game's seq after the move. */
int service_move(struct service *svc, const char *id, const char *token,
		 const json_t *body, const uint64_t *if_match, json_t **out,
		 uint64_t *seq, struct svc_err *err);

/* GET /v1/games/{id}/moves.  `after` is the raw ?after= value or NULL. */
int service_moves(struct service *svc, const char *id, const char *token,
		  const char *after, json_t **out, struct svc_err *err);

/* ---- live updates ---- */

/* Called after every committed move, on the thread that committed it,
 * with the game's store key and its new seq.  Must be quick and must not
 * call back into the service. */
typedef void (*service_move_fn)(void *ctx, int64_t game_key, uint64_t seq);

/* Sets the one move listener (NULL to clear).  Call before serving. */
void service_on_move(struct service *svc, service_move_fn fn, void *ctx);

#endif
