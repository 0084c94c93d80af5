/* load.h: a game as the service works with it: its store row, its rules
 * module and its current engine state, rebuilt from the state cache plus
 * the log tail (or the whole log on a cache miss).  Internal to
 * src/service. */
#ifndef BD_LOAD_H
#define BD_LOAD_H

#include "../engine/cache.h"
#include "hot.h"
#include "../engine/secret.h"
#include "service.h"

/* A snapshot of the state (engine.h, sql/0012_snapshots.sql) is kept with
 * every move whose seq is a multiple of this, so that no load replays more
 * than this many moves, whatever the log's length.  A power of two keeps
 * the test a mask; 64 moves of Quantum replay in about 1.5 ms. */
#define SVC_SNAPSHOT_EVERY 64u

struct loaded {
	struct store_game row;      /* owned (release with loaded_release), or,
	                               with hot set, a copy of hot->row whose
	                               strings the entry owns: read-only */
	const struct hot_game *hot; /* borrowed from the hot table, or NULL */
	struct store_seat *seats;   /* owned, or NULL: the hot entry's seats
	                               as a write's first try found them
	                               (load_game_hot keeps them when it lets
	                               the entry go), for its answer */
	int nseats;                 /* entries in seats */
	const struct rules *rules;  /* borrowed, static */
	struct engine_game *g;      /* owned; seq may be ahead of row.seq */
};

/* What let a seat act, as load_seat_as found it: by_token 1 when a seat
 * token matched (hash: its SHA-256), 0 for a player's token (a seat a
 * player holds keeps its holder once the game started) or no token.  A
 * move checks a seat token again in its own transaction
 * (struct store_move's seat_token): attaching it to a player
 * (store_seat_attach) ends it without a move, so the hot table of another
 * node may still list it. */
struct load_auth {
	int by_token;
	uint8_t hash[STORE_TOKEN_HASH_LEN];
};

/* Loads game `id`.  BD_ENOTFOUND for an unknown or malformed id;
 * BD_EINTERNAL (with err->detail) when the stored log does not replay. */
int load_game(struct store *st, struct engine_cache *cache, const char *id,
              struct loaded *out, struct svc_err *err);

/* The first half of load_game: game `id`'s row and rules, with out->g
 * NULL (complete it with load_state, or release it).  The same errors. */
int load_row(struct store *st, const char *id, struct loaded *out,
             struct svc_err *err);

/* load_row through the hot table (hot.h, docs/read-path.md): from its
 * entry of game `id` when it has one (no SQLite query; out->hot set, the
 * row read-only), else from the store, keeping the row and the seats'
 * holders for the next read when the table allows.  For reads, and for
 * a move's first try (load_game_hot), whose refusals are decided again
 * from the store's row (load_row, load_game).  The same errors as
 * load_row. */
int load_row_hot(struct store *st, struct hot_table *hot, const char *id,
                 struct loaded *out, struct svc_err *err);

/* A write's first try at game `id`: load_row_hot, then load_seat_as
 * (token, required: load_seat's) into *seat and *auth, then the state.  When
 * the hot table held the game, no SQLite query is made: the row and seats are
 * the entry's (the row copied into out, owned, since a write changes it)
 * and the state is the cached one if it is at the row's seq.  Unlike
 * load_game's, this answer may be older than the store (another node's
 * move, or a move of this process between its COMMIT and hot_write_end,
 * docs/read-path.md): the store's seq check in the write catches a stale
 * state (BD_ECONFLICT), and a caller must decide any refusal again from
 * load_game before answering it (move.c's move_loop).  The errors of
 * load_row, load_seat and load_state; out is released on failure. */
int load_game_hot(struct store *st, struct hot_table *hot,
                  struct engine_cache *cache, const char *id, const char *token,
                  int required, struct loaded *out, int *seat,
                  struct load_auth *auth, struct svc_err *err);

/* The second half: l->g, the state at l->row.seq or later, from the
 * cache plus the log tail (load_at on a miss).  Releases l on failure. */
int load_state(struct store *st, struct engine_cache *cache, struct loaded *l,
               struct svc_err *err);

/* load_game for the game with store key `key` (the key the move
 * listener reports).  BD_ENOTFOUND if there is none. */
int load_game_key(struct store *st, struct engine_cache *cache, int64_t key,
                  struct loaded *out, struct svc_err *err);

/* The rules l->row is played under, into l->rules (upgrade.c,
 * docs/upgrades.md): its module's current version; or, for a game stored
 * under an older version, the current one if the log replays to the same
 * state hashes under it (the row is then moved to the current version,
 * in the store and in l->row), else the older version the module keeps
 * for it.  The replay is made once per game and version (the outcome is
 * stored).  BD_EINTERNAL when no rules here can play it (l stays the
 * caller's to release). */
int load_rules(struct store *st, struct loaded *l, struct svc_err *err);

/* Frees what load_game gave. */
void loaded_release(struct loaded *l);

/* The secret that seeds the generator of row's game, in its seed format
 * (src/engine/secret.h).  load_secret, load_fresh and load_apply_logged
 * are replay.c's. */
void load_secret(const struct store_game *row, struct engine_secret *out);

/* A fresh engine game at seq 0 from a stored row (options, setup, seed).
 * Used for full replays.  *out is the caller's. */
int load_fresh(const struct store_game *row, const struct rules *r,
               struct engine_game **out, struct svc_err *err);

/* The state of the game of `row` (rules r) right after move `seq`
 * (<= row->seq, 0: the setup): the newest snapshot at or before seq
 * under r's version (else the setup), then the moves after it up to
 * seq.  So it replays fewer than SVC_SNAPSHOT_EVERY moves whenever the
 * snapshots are there.  A replay that crosses a multiple of
 * SVC_SNAPSHOT_EVERY with no snapshot stores the last one it crossed
 * (best effort).  *out is the caller's.  BD_EINTERNAL when the log does
 * not replay. */
int load_at(struct store *st, const struct store_game *row,
            const struct rules *r, uint64_t seq, struct engine_game **out,
            struct svc_err *err);

/* Applies one logged move to g; any refusal means the log and the engine
 * disagree, which is BD_EINTERNAL. */
int load_apply_logged(struct engine_game *g, uint64_t seq, int seat,
                      const char *action, struct svc_err *err);

/* The detail of a 401 for a revoked player token (or one whose player
 * is banned or deleted: store_player_by_token answers alike). */
#define LOAD_REVOKED                                                           \
	"that token was revoked (DELETE /v1/players/me/tokens/{id}), or its "  \
	"player was banned (boardd admin ban) or deleted"

/* How often a token's last_used is written, at most: once a minute. */
#define LOAD_SEEN_EVERY_MS 60000

/* Records that p's token (store_player_by_token read it) was used now,
 * when its last_used is LOAD_SEEN_EVERY_MS old or more; best effort (a
 * failed write is ignored: it is bookkeeping, not the request). */
void load_token_seen(struct store *st, const struct store_player *p);

/* The seat the bearer token holds in game l: a seat token of this game,
 * or the token of a player who holds a seat here (matched against
 * l->hot's seats when l came from the hot table; a player's token is
 * still looked up in the store, which knows whether it was revoked).  With
 * `required` 0, no token (or a player without a seat here) is ENGINE_SPECTATOR.
 * BD_EUNAUTHORIZED (no token, required; or a revoked player token) or
 * BD_EFORBIDDEN (a token that holds no seat here, or no known token at
 * all). */
int load_seat(struct store *st, const struct loaded *l, const char *token,
              int required, int *seat, struct svc_err *err);

/* load_seat, also saying into *auth (not NULL) what matched. */
int load_seat_as(struct store *st, const struct loaded *l, const char *token,
                 int required, int *seat, struct load_auth *auth,
                 struct svc_err *err);

/* load_seat for the token whose SHA-256 is `hash` (token_hash), in the
 * game of store key `key`; a token given is never "no token".  For a
 * holder that checks again later (an open event stream). */
int load_seat_hash(struct store *st, int64_t key,
                   const uint8_t hash[STORE_TOKEN_HASH_LEN], int required,
                   int *seat, struct svc_err *err);

/* load_game, then load_seat for token: 0 with *out to release and *seat
 * set, or the first refusal with nothing to release. */
int load_game_seat(struct store *st, struct engine_cache *cache, const char *id,
                   const char *token, int required, struct loaded *out,
                   int *seat, struct svc_err *err);

#endif
