/* hot.h: the hot game table (docs/read-path.md): the store row of each
 * game being read and the seats' holders (token hashes, player keys), in
 * memory, so that a GET of a hot game and its If-None-Match 304 make no
 * SQLite query.  Internal to src/service.
 *
 * Hashed by public game id, in HOT_SHARDS shards each with its own lock,
 * hash table and LRU list; bounded (the least recently used entry of a
 * shard goes when it is full).  An entry is immutable once published and
 * reference counted: a reader borrows it without copying and gives it
 * back with hot_release.
 *
 * Correctness (never a stale row): every store write that may change a
 * game's row or seats is bracketed by hot_write_begin and hot_write_end
 * (after its commit) on that game's id.  Between the two, reads of that
 * game bypass the table (they read SQLite, and keep nothing); both calls
 * drop the game's entry and bump a generation number of the game's mark.
 * A reader that missed takes a ticket (hot_get) BEFORE it reads the row
 * and seats from SQLite, and hot_put keeps what it read only if no write
 * of that game began since the ticket was taken.  So an entry only ever
 * holds what SQLite held after the last committed write of its game.
 * A write whose game is not known before it runs (a seat token attached
 * to a player, store_seat_attach) uses hot_write_begin_all: every read
 * bypasses the table until hot_write_end_all.
 * Games still waiting for players are never kept (their row expires with
 * time, store_config.waiting_expire_ms, which no write announces); a
 * started game never waits again. */
#ifndef BD_HOT_H
#define BD_HOT_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h" /* ENGINE_MAX_SEATS */
#include "../store/store.h"

/* A published entry: read-only for everyone. */
struct hot_game {
	struct store_game row; /* its malloc'd fields belong to the entry */
	int nseats;
	/* nseats, in seat order, as store_seats_get read them: the holders
	 * store_seat_for_token and store_seat_for_player match (load.c) and
	 * the names, invitations and bots the game object shows (json.c):
	 * a hot read asks the store for none of them.  A player's name never
	 * changes, and every write of a seat drops the entry. */
	struct store_seat seats[ENGINE_MAX_SEATS];
};

struct hot_table;

/* A ticket of a miss: what hot_put checks.  Opaque. */
struct hot_ticket {
	uint64_t gen, all_gen;
	int ok; /* 0: a write of the game is in flight; keep nothing */
};

/* A table of at most `capacity` games (>= 1), or NULL. */
struct hot_table *hot_new(size_t capacity);

/* Frees the table and its entries (none may be borrowed).  NULL: no-op. */
void hot_free(struct hot_table *t);

/* The entry of game `id` (borrowed: give it back with hot_release), or
 * NULL: a miss, then *ticket says whether and what hot_put may keep. */
const struct hot_game *hot_get(struct hot_table *t, const char *id,
                               struct hot_ticket *ticket);

/* Keeps a copy of row (its malloc'd strings are duplicated) and of
 * seats[0..n) as game row->id's entry, if *ticket still allows it (no
 * write of that game began since hot_get gave it) and the game is not
 * waiting for players; returns that entry borrowed (hot_release it), or
 * NULL when nothing was kept (also on allocation failure). */
const struct hot_game *hot_put(struct hot_table *t,
                               const struct hot_ticket *ticket,
                               const struct store_game *row,
                               const struct store_seat *seats, int n);

/* Gives back an entry hot_get or hot_put lent.  NULL: no-op. */
void hot_release(const struct hot_game *e);

/* *dst = a copy of src whose malloc'd strings are its own (release with
 * store_game_release); creator_addr and players, which an entry never
 * holds, are NULL.  0, or BD_ENOMEM with *dst holding nothing.  For a
 * writer that starts from an entry's row and changes it. */
int hot_row_copy(struct store_game *dst, const struct store_game *src);

/* Before a store write of game `id`; pair with hot_write_end. */
void hot_write_begin(struct hot_table *t, const char *id);

/* After that write returned (committed or not). */
void hot_write_end(struct hot_table *t, const char *id);

/* A move's write marks (move.c's write_move), which also publish the row
 * the move committed, so that the game's next read and next move find it
 * in the table instead of reading SQLite.  Opaque to callers. */
struct hot_move {
	uint64_t gen, all_gen;
	const struct hot_game *was; /* the entry hot_move_begin dropped */
};

/* hot_write_begin for a move of game `id`, keeping in *w what
 * hot_move_end needs (the entry's seats: a move changes no holder). */
void hot_move_begin(struct hot_table *t, const char *id, struct hot_move *w);

/* hot_write_end for that move.  row: the game's row as the move's COMMIT
 * left it (copied), or NULL when the write failed.  The row is kept as
 * the entry only when it is certainly the store's: the table held the
 * game at hot_move_begin (its entry then had row's seats_version and an
 * older seq: its seats are row's), and since then nothing else touched its mark
 * (no other write of a game sharing it began or ended, hot_forget did
 * not run) and no write of an unknown game ran (hot_write_begin_all);
 * otherwise the entry is simply dropped, as hot_write_end does. */
void hot_move_end(struct hot_table *t, const char *id, struct hot_move *w,
                  const struct store_game *row);

/* Before a store write whose game is unknown; pair with
 * hot_write_end_all, given the game's id when the write told it (else
 * NULL: it changed nothing). */
void hot_write_begin_all(struct hot_table *t);
void hot_write_end_all(struct hot_table *t, const char *id);

/* Drops game id's entry, and whatever a read that missed before this
 * call would keep (its ticket fails): another node changed the game
 * (remote.c). */
void hot_forget(struct hot_table *t, const char *id);

/* Drops every entry (tickets taken before fail only while a
 * hot_write_begin_all is open: call it inside one). */
void hot_clear(struct hot_table *t);

/* How many entries the table holds now. */
size_t hot_count(struct hot_table *t);

#endif
