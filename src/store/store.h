/* store.h: durable storage of games, seats and move logs.  Its manual.
 *
 * Two backends behind one logic (driver.h's driver table): SQLite, one
 * file owned by one process (driver_sqlite.c, the default), and
 * PostgreSQL, one database shared by several boardd nodes (driver_pg.c;
 * store_open, store_open.c, picks it for a postgres:// or postgresql://
 * URL or a libpq keyword string, store_is_postgres).  Both keep the same tables and
 * give the same answers; where they differ it is said below:
 * - schema: sql/NNNN_*.sql for SQLite, sql/postgres/NNNN_*.sql for
 *   PostgreSQL (migrated under an advisory lock, so nodes starting
 *   together migrate once);
 * - several processes: SQLite refuses a second one (store_config's
 *   exclusive); on PostgreSQL the nodes hear each other's changes
 *   (store_listen) and share the background work by leases
 *   (store_lease_take); racing moves of two nodes land exactly one (the
 *   game's row is locked FOR UPDATE by the seq check);
 * - the pool: at most STORE_PG_POOL_MAX read connections on
 *   PostgreSQL, plus the writer and the listener; store_open connects
 *   the writer and one read connection, the others connect at their
 *   first use (a read that finds every open one busy), so a quiet
 *   server holds few;
 * - BD_EUNAVAILABLE: on SQLite the file was deleted or replaced; on
 *   PostgreSQL the server is away (each connection tries once to
 *   reconnect at its next use).
 *
 * Every function is thread-safe: the store
 * keeps a pool of read connections, each call checks one out for its
 * duration, and one write connection on which writes are group
 * committed (below).  Reads never wait for a write (WAL snapshots on
 * SQLite, MVCC on PostgreSQL).
 * Every function returns 0 or a negative bd_err; a failed call changes
 * nothing (each write is one unit, all of it or nothing) and writes no
 * out-parameter (the one exception: store_move_append reports the
 * current seq on BD_ECONFLICT).
 *
 * Group commit (docs/write-path.md).  A write call queues its work and
 * sleeps; the first caller to find no batch running becomes the leader:
 * it takes every queued write (at most STORE_BATCH_MAX, oldest first),
 * runs them in one BEGIN IMMEDIATE transaction, each inside its own
 * SAVEPOINT (its unit), and COMMITs once: one fsync at
 * synchronous=FULL for the whole batch.  Invariants:
 * - A call returns 0 only after the COMMIT holding its unit returned:
 *   its writes are durable (synchronous=FULL) before it is answered.
 * - A unit that fails (a refusal, a seq conflict, a taken id) is rolled
 *   back to its savepoint alone; the other units go on.  A later unit
 *   sees the writes of the earlier units of its batch (they commit or
 *   fail together), so the batch is as if its units ran one after the
 *   other, in queue order.
 * - A failed COMMIT (disk full, I/O error), or an error after which
 *   SQLite has rolled the whole transaction back, fails every unit of
 *   the batch with that error: nothing of it is acknowledged.
 * - A batch none of whose units is left is rolled back, not committed:
 *   it writes nothing and syncs nothing.
 * - The change listener (store_on_change) is called after the COMMIT,
 *   for the batch's committed units in their order, and batches run one
 *   at a time, so it hears of changes in commit order; it runs on the
 *   leader's thread before any caller of the batch returns.
 * - No timer: a write that finds no batch running starts one at once,
 *   so a lone write waits for nothing but its own COMMIT.  Writes that
 *   arrive while a batch runs wait for it and go together in the next.
 * Lock order: the leader role is taken and given up under the queue's
 * mutex, which is never held over SQL or a listener; the leader then
 * takes the pool's mutex briefly and whatever the listener takes.  So
 * no caller may call a store write while holding a lock its change
 * listener takes (main.c's listener takes the hub's and the webhook
 * workers' mutexes, and neither is held over a store call).
 * A batch holds only the writes in flight together: each holds its
 * caller's thread until its batch is durable, so batches are as large as
 * the number of threads writing at once.
 *
 * Every write can also fail with:
 * - BD_EBUSY: it was not taken into a batch within busy_timeout_ms, or
 *   the batch could not have the database's write lock in time (while
 *   another process holds that lock, a new write answers BD_EBUSY at
 *   once rather than queue); nothing of it ran.  Once taken into a
 *   batch, a call waits for the batch's outcome.  Retry shortly.
 * - BD_ENOSPACE: the disk, a quota or the file size limit is full.
 *   Reads go on; writes work again once there is space.
 * - BD_EUNAVAILABLE: the database file was deleted or replaced since
 *   store_open (see store_check).  Until a restart.
 *
 * The *_each functions call back while holding a pooled connection and a
 * read snapshot: a callback must be quick and must not call the store.
 */
#ifndef BD_STORE_H
#define BD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

#define STORE_ID_LEN         16 /* public game ids: 16 lowercase hex chars */
#define STORE_TOKEN_HASH_LEN 32 /* SHA-256 of a bearer token */
#define STORE_BOT_LEN        64 /* a bot seat's spec text, with its NUL */
#define STORE_ADDR_LEN       48 /* a client address's text (games.creator_addr) */

struct store;

struct store_config {
	const char *path; /* database file; created if missing */
	int sync_full;   /* 1: PRAGMA synchronous=FULL (durable acks), 0: NORMAL
	                  */
	int connections; /* pool size, >= 1 */
	int busy_timeout_ms; /* >= 0: longest a write waits for the locks
	                        (ours and another process's), in ms */
	/* Open waiting games (some seat still open): a game created with
	 * store_game.creator_key / creator_addr set is refused (BD_ELIMIT)
	 * when that creator already has this many waiting; 0: no cap. */
	unsigned waiting_per_player, waiting_per_addr;
	/* Games of bots only (every seat a bot) that are being played: a
	 * new one created with store_game.creator_key set is refused
	 * (BD_EBOTGAMES) when that player already runs this many; 0: no
	 * cap. */
	unsigned bot_games_per_player;
	/* A waiting game nobody touched (created, or a seat taken) for this
	 * long is expired: store_game_get answers BD_ENOTFOUND, listings
	 * skip it, store_seat_claim answers BD_ENOTFOUND, and it counts for
	 * no cap.  The row stays (keys are never reused).  0: never. */
	int64_t waiting_expire_ms;
	/* The server key (STORE_KEY_LEN bytes, borrowed for the call) that
	 * seals webhook signing secrets at rest (XChaCha20-Poly1305, the
	 * player as associated data): the database file alone does not
	 * yield them.  store_open seals the secrets an older version stored
	 * clear, and fails (BD_EBADREQUEST) when the key does not open the
	 * sealed ones (another key file).  NULL: a random key for this
	 * store only (tests): secrets then do not outlive store_close. */
	const uint8_t *secret_key;
	/* 1: this store owns the database file: store_open takes an
	 * exclusive flock(2) on PATH.lock and fails with BD_EUNAVAILABLE
	 * (and a sentence saying so) while another process, or another
	 * exclusive store, holds it.  The server sets it: its state cache
	 * and cached answers are correct only while no other process writes
	 * the file (docs/read-path.md). */
	int exclusive;
	/* 1: this process writes beside the server that owns the file
	 * (boardd admin).  On SQLite, every change its writes make to a
	 * game's row or seats, or to a player's events, is also recorded in
	 * table outside_changes (sql/0024_admin.sql, by TEMP triggers of
	 * its write connection), which the owning server reads (store_listen)
	 * to drop what it holds in memory.  PostgreSQL needs nothing: its
	 * NOTIFY triggers tell every node. */
	int outside;
};

#define STORE_KEY_LEN 32 /* bytes of store_config.secret_key */

/* Whether store_config.path names a PostgreSQL database rather than an
 * SQLite file: a postgres:// or postgresql:// URL, or a libpq keyword
 * string such as "host=/run/postgresql dbname=boardd" (recognised by
 * holding a '=').  1 or 0; NULL is 0. */
int store_is_postgres(const char *path);

/* Opens (creating if needed) the database, applies the migrations of sql/
 * that it lacks, and opens the pool.  On success *out is the caller's, to
 * release with store_close.  On failure err receives a sentence. */
int store_open(const struct store_config *cfg, struct store **out, char *err,
               size_t errlen);

/* The most writes one batch holds (store.h's "Group commit"). */
#define STORE_BATCH_MAX 128

/* The most read connections a store opens on PostgreSQL, whatever
 * store_config.connections asks: the server caps its connections
 * (max_connections), and several nodes share it.  Reads wait for a free
 * one. */
#define STORE_PG_POOL_MAX 16

/* What group commit has done since store_open (store_write_stats). */
struct store_write_stats {
	uint64_t units;       /* writes run in a batch, each its own unit */
	uint64_t batches;     /* write transactions begun */
	uint64_t commits;     /* batches committed: one fsync each at
	                         synchronous=FULL */
	uint64_t rolled_back; /* batches with no unit left, or whose COMMIT
	                         failed: rolled back, nothing acknowledged */
	unsigned largest;     /* the most units one batch held */
	unsigned queued;      /* writes waiting for a batch now */
};

/* Copies s's write figures into *out.  Never waits for a batch. */
void store_write_stats(struct store *s, struct store_write_stats *out);

/* What the store has been asked since store_open (store_counts): for
 * tests and the design notes that state what a request costs
 * (docs/read-path.md, "What a request costs").  Totals over every
 * thread; a caller that wants one request's figures reads them before
 * and after it on a store nothing else uses meanwhile. */
struct store_counts {
	uint64_t statements; /* SQL statements run, both backends: each
	                        execution of one of the store's statements
	                        (its rows all read) or of a probe is one, on
	                        any connection, the write connection's BEGIN
	                        and COMMIT included; the migrations at open
	                        and PostgreSQL's node leases are not */
	uint64_t checkouts;  /* read connections taken from the pool: one per
	                        store call outside a write */
	uint64_t units;      /* writes run as a unit of a batch
	                        (store_write_stats's units) */
};

/* One read connection for one request (issue 30, "one load per
 * request").  Between store_pin(s) and its store_unpin(s), the calling
 * thread's store calls on s that read share one pooled connection,
 * taken at the first of them (none for a request that asks the store
 * nothing) and given back by store_unpin: a request's row, seats, token
 * and log reads cost one check-out.  Each statement still sees the
 * newest committed data (no transaction spans them).  Pins nest (the
 * outermost store_unpin gives the connection back); a pin of another
 * store while one is pinned does nothing, nor does its unpin.  A store
 * call made while the pinned connection is in use (from inside another
 * one's row callback) takes a connection of its own, as without a pin.
 * Writes (store__write_tx) never use it, and give it back before they
 * queue (the request's next read takes one again), so that no request
 * holds a read connection while it waits for a batch.  On SQLite the
 * pool has a connection per thread that may pin (src/main.c sizes it);
 * on PostgreSQL (STORE_PG_POOL_MAX) a pin may wait for a free one, as
 * any read does.  Never fails. */
void store_pin(struct store *s);
void store_unpin(struct store *s);

/* Copies s's counts into *out.  Never waits for a batch (as
 * store_write_stats). */
void store_counts(struct store *s, struct store_counts *out);

/* Closes every connection and frees the store.  NULL is a no-op. */
void store_close(struct store *s);

/* ---- what other processes change (PostgreSQL) -------------------------
 *
 * On PostgreSQL several boardd processes (nodes) may share one database
 * (docs/read-path.md, "Several processes on one database").  Every
 * committed change of a game's row or seats, and every new event of a
 * player, is sent on channel `boardd` by the triggers of
 * sql/postgres/0002_notify.sql, with the node that made it (each
 * connection sets boardd.node to its store's random node id).  A store
 * that listens hears the changes of the OTHER nodes only: its own writes
 * are told by their callers, as on SQLite.
 *
 * The callbacks run on the listener's own thread, never with a store lock
 * held; they must be quick and must not call the store.
 *   game(ctx, key, id, seq)  game `key` (public id, STORE_ID_LEN digits)
 *                            changed on another node; its seq is now seq
 *                            (a seat change tells the current seq);
 *   lost(ctx)                from now on a change may go untold: first
 *                            of all, before the first LISTEN, and
 *                            whenever the listening connection is lost;
 *   back(ctx)                listening again (after each lost): every
 *                            change committed from now on is told.
 * lost and back alternate, lost first.  A player's new event calls the
 * store_on_change listener with the player's key, as a local commit does.
 * A node between lost and back must not trust what it cached; the server
 * bypasses its hot table then (src/service/remote.c). */
struct store_remote {
	void (*game)(void *ctx, int64_t key, const char *id, uint64_t seq);
	void (*lost)(void *ctx);
	void (*back)(void *ctx);
};

/* Starts listening with r's callbacks (r is borrowed and must outlive
 * the store), on a thread and a connection of its own that reconnects
 * every second while the database is away, and probes a quiet session
 * (no answer within 2 s: lost); at most once per store.
 * store_unlisten (or store_close) stops it.  On SQLite one process
 * owns the file, and only `boardd admin` (store_config.outside) writes
 * beside it: the thread reads the table outside_changes every 250 ms
 * and calls r->game and the change listener for what it recorded
 * (never lost or back).  0, BD_ENOMEM, or
 * BD_EINTERNAL when the thread cannot start or it already listens. */
int store_listen(struct store *s, const struct store_remote *r, void *ctx);

/* Stops listening (joins the thread: no callback runs after it returns),
 * so that what the callbacks use may go before the store does.  No
 * listener: no-op. */
void store_unlisten(struct store *s);

/* ---- leases: work exactly one node does ------------------------------
 *
 * On PostgreSQL several nodes share one database, and each runs the bot
 * workers and the clocks (src/service/bots.c).  A bot turn or a timeout
 * of a game is played only by the node that holds the game's lease
 * (table leases, sql/postgres/0003_leases.sql): taken for lease_ms, then
 * dropped when the move is made.  A node that dies holding one leaves it
 * to expire; the other nodes' periodic scans (STORE_SHARED_RESCAN_MS)
 * then find the turn and one of them takes the lease.  Two nodes never
 * hold one lease at once (one INSERT ... ON CONFLICT, atomic); a lease
 * that expired while its holder still worked may be taken by another,
 * and then the move log's seq check lets only one move land.
 * On SQLite one process owns the file: every lease is taken, nothing is
 * written. */

/* How often a node on a shared store looks for work another node left
 * (bot turns, passed deadlines), milliseconds. */
#define STORE_SHARED_RESCAN_MS 5000

/* 1 when other processes may write this database (PostgreSQL), 0 for
 * SQLite. */
int store_shared(struct store *s);

/* Takes game `game_key`'s lease for lease_ms (> 0) from now, if no
 * other node holds it unexpired (this node's own is renewed): *taken 1
 * or 0.  0, or a bd_err (then *taken is 0). */
int store_lease_take(struct store *s, int64_t game_key, int64_t lease_ms,
                     int *taken);

/* Drops this node's lease of game `game_key` (none: nothing). */
int store_lease_drop(struct store *s, int64_t game_key);

/* Whether the store can still write: 0, or BD_EUNAVAILABLE when the file
 * it opened was deleted or replaced (its path names no file or another
 * one).  One stat(2); it never waits for a lock. */
int store_check(struct store *s);

/* Whether the store answers (GET /readyz): store_check, then a trivial
 * query (the schema version) on a pooled read connection.  0, or
 * BD_EUNAVAILABLE (the file was deleted or replaced) or the query's
 * bd_err.  Waits for a free pooled connection like any read. */
int store_ping(struct store *s);

/* The webhook deliveries still pending in the outbox (queued, or waiting
 * for a retry) into *n (GET /metrics).  0, or a bd_err. */
int store_deliveries_pending(struct store *s, int64_t *n);

/* The database's size on disk (GET /metrics), bytes: *db_bytes SQLite's
 * pages (page_count * page_size) or PostgreSQL's pg_database_size;
 * *wal_bytes SQLite's write-ahead log file (0 when there is none now),
 * -1 on PostgreSQL, whose WAL belongs to the whole cluster.  0, or a
 * bd_err (both then -1). */
int store_disk_usage(struct store *s, int64_t *db_bytes, int64_t *wal_bytes);

/* A game row.  Strings marked malloc'd are owned by the struct and freed
 * by store_game_release. */
struct store_game {
	int64_t key;               /* internal row id; also the list cursor */
	char id[STORE_ID_LEN + 1]; /* public id */
	char rules_id[32];         /* e.g. "agent-avenue" */
	unsigned rules_version;    /* engine version that created it */
	int seats;                 /* seat count */
	uint64_t seed;             /* seed_format 1: the 64-bit seed; secret
	                              while the game runs */
	int seed_format;           /* 1: `seed` seeds the generator; 2: the
	                              256-bit `secret` (sql/0014_records.sql,
	                              src/engine/secret.h) */
	uint8_t secret[32];        /* seed_format 2: secret while the game
	                              runs */
	uint8_t salt[32];          /* seed_format 2: its commitment's salt */
	int imported;              /* read back: 1 for a game imported from a
	                              record (store_game_import) */
	char *options;             /* JSON object text, malloc'd */
	char *setup;               /* JSON object text or NULL, malloc'd */
	char status[16];           /* "waiting" | "active" | "finished" */
	uint64_t seq;              /* moves in the log */
	unsigned to_act;           /* seats to act (bit set) after seq */
	char *result;              /* JSON text or NULL, malloc'd */
	int64_t created_ms;        /* unix time, milliseconds */
	int64_t updated_ms;        /* time of the last move (or creation) */
	int open_seats;            /* seats not yet claimed (0..seats) */
	unsigned bot_seats;        /* read back: seats bots hold (bit set) */
	char *bots;        /* read back: JSON array text of the bot seats, each
	                      {"seat":n,"bot":spec} in seat order ("[]": none),
	                      malloc'd */
	char *clock;       /* the game's clock (JSON text, sql/0006_clocks.sql),
	                      or NULL: untimed; written by store_game_create and
	                      read back; malloc'd */
	char *clock_state; /* read back: the seats' clocks after the last
	                      move (JSON text, sql/0006) or NULL, malloc'd */
	int64_t deadline_ms;   /* read back: the earliest deadline of a seat
	                          to act (unix ms), or 0: none */
	int64_t seats_version; /* read back: bumped when a seat's holder
	                          changes without a move or a join (a seat
	                          left, a seat token attached), and when a
	                          vacation of a player begins or ends */
	int64_t seats_until_ms; /* read back: when the view next changes by
	                           itself (the earliest planned end of a
	                           vacation of one of its players, unix ms),
	                           or 0: never; store_game_seats_expire */
	char *players;  /* read back by the listings only (store_games_each,
	                   store_player_games_each): JSON array text of the
	                   seats, each {seat, open, player ({id, name} or
	                   null), invited (player id or null), bot}; else
	                   NULL; malloc'd */
	int invitation; /* read back by store_player_games_each: 1 when the
	                   player's seat is an open seat reserved for them
	                   (an invitation), 0 when they hold it */
	/* Written by store_game_create, and read back (0 and "" for a game
	 * created before sql/0018, or one whose creator was not written) */
	int64_t creator_key; /* the creating player, or 0 */
	char creator_from[STORE_ADDR_LEN + 1]; /* read back: the creating
	                                          client's address, or "" */
	int unrated; /* written by store_game_create only: 1 for a game
	                created with "rated": false (sql/0025_ratings.sql) */
	/* Written by store_game_create only (read back in creator_from): */
	const char *creator_addr; /* the creating client's address
	                             (limits.h's text), borrowed, or NULL */
	/* Read back (sql/0027_rematch.sql; store_rematch_offer): */
	unsigned rematch_seats; /* a finished game's seats that offered or
	                           accepted its rematch (bit set), 0: none
	                           offers one */
	int rematch_by;         /* the seat that offered it first, or -1 */
	char rematch[STORE_ID_LEN + 1];    /* its rematch's id once every
	                                      seat accepted, else "" */
	char rematch_of[STORE_ID_LEN + 1]; /* the finished game this one
	                                      rematches, or ""; written by
	                                      store_rematch_offer */
};

/* Frees the malloc'd fields of g (not g itself) and zeroes them. */
void store_game_release(struct store_game *g);

/* A response kept for Idempotency-Key retries, written in the same
 * transaction as the change it answers. */
struct store_idem {
	uint8_t scope[32];    /* hash of credential, method, path and key */
	uint8_t request[32];  /* hash of what was sent */
	unsigned status;      /* HTTP status of the first response */
	const void *response; /* the (encrypted) first response, borrowed */
	size_t response_len;  /* bytes at response */
};

#define STORE_RATING_SEATS 4 /* the most seats a rated game has */

/* Who holds a seat, as written at creation and read back. */
struct store_seat {
	int seat;      /* 0..seats-1 */
	int open;      /* 1: nobody holds it yet */
	int has_token; /* 1: held by the token in token_hash */
	uint8_t token_hash[STORE_TOKEN_HASH_LEN];
	int64_t player_key;                /* holder, or 0 */
	int64_t invited_key;               /* open seat reserved for, or 0 */
	char player_id[STORE_ID_LEN + 1];  /* read back: holder's id or "" */
	char player_name[65];              /* read back: holder's name or "" */
	char invited_id[STORE_ID_LEN + 1]; /* read back: invitee's id or "" */
	char bot[STORE_BOT_LEN]; /* a bot's spec (JSON object text) when a
	                            bot holds the seat, else "" */
};

/* Inserts a game and its g->seats seats (seats[i].seat == i) in one
 * transaction, with the idempotency record idem if not NULL.  g->key, seq,
 * created_ms and updated_ms are ignored; open_seats is counted from seats.
 * On success *key_out receives the new row id.  BD_ECONFLICT if g->id is
 * taken (pick another); BD_EREPLAY if idem's scope is already recorded;
 * BD_ELIMIT if the game would wait for players and its creator already
 * holds store_config's cap of waiting games; BD_EBOTGAMES if every seat
 * is a bot's and its creator (g->creator_key) already runs
 * store_config.bot_games_per_player such games.  The creator (player
 * and address) is recorded for every game, and read back. */
int store_game_create(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_idem *idem, int64_t *key_out);

/* One move of an imported record: its seat, action (JSON text) and
 * reason (or NULL), borrowed, and when it was made (unix ms). */
struct store_logged_move {
	int seat;
	const char *action;
	const char *reason;
	int64_t created_ms;
};

/* Inserts a finished game imported from a record, with its g->seats seats
 * and its n moves (seq 1..n) in one transaction, as store_game_create does
 * (the same idem, id and cap behaviour; its seats hold nobody, so it never
 * waits).  g->result is its result; g->created_ms and g->updated_ms are
 * kept as given.  On success *key_out receives the new row id. */
int store_game_import(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_logged_move *moves, size_t n,
                      const struct store_idem *idem, int64_t *key_out);

/* Loads the game with public id `id` into *out (caller releases).
 * BD_ENOTFOUND if there is none. */
int store_game_get(struct store *s, const char *id, struct store_game *out);

/* Loads the game with store key `key` into *out (caller releases).
 * BD_ENOTFOUND if there is none. */
int store_game_by_key(struct store *s, int64_t key, struct store_game *out);

/* The seat of game `key` whose token hashes to `hash`.  BD_ENOTFOUND if no
 * seat of this game has that token. */
int store_seat_for_token(struct store *s, int64_t key,
                         const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat);

/* Calls fn for each move of game `key` with seq > after_seq, in seq order.
 * `action` is the move's JSON text and `reason` why the server made it
 * ("timeout") or NULL, both borrowed for the call; `created_ms` when it
 * was committed (unix ms; every row has one, sql/0001_init.sql).  fn
 * returns 0 to go on or a negative code to stop; that code is returned. */
typedef int (*store_move_fn)(void *ctx, uint64_t seq, int seat,
                             const char *action, const char *reason,
                             int64_t created_ms);
int store_moves_each(struct store *s, int64_t key, uint64_t after_seq,
                     store_move_fn fn, void *ctx);

/* store_moves_each bounded above: the moves with after_seq < seq <=
 * upto_seq, in seq order.  Same callback contract. */
int store_moves_range(struct store *s, int64_t key, uint64_t after_seq,
                      uint64_t upto_seq, store_move_fn fn, void *ctx);

/* A game state as bytes (engine.h's snapshots; sql/0012_snapshots.sql):
 * a cache of replaying the log, kept per (game, seq), used only under the
 * rules version that wrote it.  `state` is borrowed. */
struct store_snapshot {
	unsigned rules_version;
	const void *state;
	size_t len;
};

/* Keeps snapshot *sn as game `key`'s state after move `seq`, replacing
 * one there.  Its own write transaction (store_move_append writes one with
 * a move).  BD_ENOTFOUND when the game has no move `seq` (yet): a
 * snapshot is only ever of logged moves.  Best effort for the caller: a
 * missing snapshot costs a replay, nothing else. */
int store_snapshot_put(struct store *s, int64_t key, uint64_t seq,
                       const struct store_snapshot *sn);

/* The newest snapshot of game `key` at a seq <= max_seq written under
 * `rules_version`: *state (malloc'd, the caller frees), *len bytes, *seq.
 * BD_ENOTFOUND when there is none. */
int store_snapshot_get(struct store *s, int64_t key, uint64_t max_seq,
                       unsigned rules_version, void **state, size_t *len,
                       uint64_t *seq);

/* ---- rules upgrades (sql/0016_state_hashes.sql, docs/upgrades.md) ---- */

#define STORE_STATE_HASH_LEN 16 /* ENGINE_STATE_HASH_BYTES */

/* The state hashes of moves 1..upto of game `key`: for each move seq,
 * hashes[(seq-1) * STORE_STATE_HASH_LEN ..] and have[seq-1] = 1 when it
 * has one (0: logged before sql/0016).  Both arrays are the caller's,
 * upto entries long; entries of missing moves are left as they were. */
int store_move_hashes(struct store *s, int64_t key, uint64_t upto,
                      unsigned char *hashes, unsigned char *have);

/* 0 with *seq set (the first move that differed, 0: the setup or not
 * known) when game `key`'s log was replayed under rules version `version`
 * and differed (store_rules_settle); BD_ENOTFOUND when it never was. */
int store_rules_check_get(struct store *s, int64_t key, unsigned version,
                          uint64_t *seq);

/* What store_rules_settle writes: the outcome of replaying game `key`
 * (at `seq` moves, stored under rules version `from`) under version `to`. */
struct store_rules_check {
	int64_t key;
	unsigned from, to;
	uint64_t seq;              /* the game's seq the replay covered */
	uint64_t differed;         /* 0: every hash the same (the game moves to
	                              `to`); else the first move that differed, or
	                              UINT64_MAX when the setup did or a move had no
	                              hash to compare (recorded as 0) */
	const unsigned char *fill; /* hashes of moves 1..seq made under
	                      `from` for moves that had none (entries with
	                      fill_have[i] 1 are stored where the move's hash
	                      is still NULL), or NULL */
	const unsigned char *fill_have;
};

/* Writes c's outcome in one unit: the hashes filled in, then either
 * the game's rules_version set to c->to (only if it is still at c->from
 * and c->seq: else BD_ECONFLICT, nothing written) or the difference
 * recorded for store_rules_check_get. */
int store_rules_settle(struct store *s, const struct store_rules_check *c);

/* What a move changes in the game row besides the log. */
/* How a finished game's seats placed, for its ratings (docs/ratings.md):
 * the service fills it from the rules (engine_game_rating_category and
 * the result); the store rates the game with it in the transaction that
 * ends the game, when the game is rated at all (created rated, not
 * aborted, every seat held by a player or a bot, no subject twice). */
struct store_rating_game {
	char category[32];            /* e.g. "agent-avenue-base" */
	int seats;                    /* 1..4 */
	int side[STORE_RATING_SEATS]; /* per seat: its side, 0..seats-1 */
	int place[STORE_RATING_SEATS]; /* per seat: 1 won, 2 lost; a side's
	                                  seats share their place, equal
	                                  places are a tie */
};

struct store_move {
	int seat;                /* who moved */
	const char *action;      /* JSON text of the action, as applied */
	const char *status;      /* the game's status after the move */
	unsigned to_act;         /* seats to act after the move */
	const char *result;      /* JSON text, or NULL while the game runs */
	int64_t at_ms;           /* when it was made (unix ms); 0: now */
	const char *reason;      /* why the server made it ("timeout", "bot",
	                            "resigned": sql/0015), or NULL: its seat
	                            sent it */
	const char *clock_state; /* the seats' clocks after it (JSON text,
	                            sql/0006), or NULL: untimed game */
	int64_t deadline_ms;     /* the earliest deadline after it (unix
	                            ms), or 0: none */
	int64_t soon_ms;         /* when a deadline.soon is next due after it
	                            (unix ms; store_clock_due_each finds the
	                            game then), or 0: none */
	const struct store_snapshot *snapshot; /* the state after it, kept
	                            in the same transaction, or NULL */
	const unsigned char *state_hash; /* STORE_STATE_HASH_LEN bytes: the
	                            hash of the state after it
	                            (engine_state_hash), or NULL: none */
	const struct store_move *then;   /* the next move, appended after it
	                              in the same transaction (the server's
	                              moves for resigned seats), or NULL */
	const uint8_t *seat_token;       /* STORE_TOKEN_HASH_LEN bytes: the seat
	                                    token that let the first move's seat
	                                    act, or NULL (a player's token, the
	                                    server); the transaction refuses the
	                                    append with BD_EFORBIDDEN unless that
	                                    seat still holds it (an attach to a
	                                    player ends a seat token without a
	                                    move: service/load.h, load_auth) */
	const struct store_rating_game *rating; /* the game ends with this
	                              move (or the chain's last): how its
	                              seats placed, to rate it in the same
	                              transaction (store_ratings.c); NULL:
	                              it does not end, nothing to rate */
	int64_t vac_player; /* a timeout's vacation check (first move only;
	                       0: none): the player of the seat timed out.
	                       The transaction locks the player, refuses the
	                       append with BD_ESTALE unless their latest
	                       vacation is still vac_last, and if their
	                       automatic vacation is on with time left, begins
	                       a vacation of all that is left at vac_start
	                       (or when their latest ended, if later) instead
	                       of the move: store_move_append then answers
	                       BD_EVACATIONBEGAN, the move not appended */
	int64_t vac_last;   /* the latest vacation's key the caller read */
	int64_t vac_start;  /* the deadline that passed (unix ms) */
};

/* Appends move expected_seq+1 to game `key` (and the moves chained on
 * by m->then after it, expected_seq+2...: all or none), in one BEGIN
 * IMMEDIATE transaction that first checks the game is still at
 * expected_seq, with the idempotency record idem if not NULL.  BD_ECONFLICT
 * (and *current_seq, if not NULL, set) when another move landed first;
 * BD_ENOTFOUND when no such game; BD_EFORBIDDEN when m->seat_token no
 * longer holds m's seat; BD_EREPLAY when idem's scope is already
 * recorded; BD_EBUSY when the lock could not be had in time. */
int store_move_append(struct store *s, int64_t key, uint64_t expected_seq,
                      const struct store_move *m, const struct store_idem *idem,
                      uint64_t *current_seq);

/* Which games store_games_each lists. */
struct store_filter {
	const char *status;   /* NULL or "active"/"finished" */
	const char *rules_id; /* NULL or a rules id */
	int64_t before_key;   /* 0, or only games with key < before_key */
	int limit;            /* 1..100 */
};

/* Calls fn for each matching game, newest first (key descending), with
 * g->players read.  A waiting game whose every open seat is reserved by
 * invitation is never listed (nobody else can join it).  The
 * game is borrowed for the call.  fn returns 0 to go on, negative to stop
 * (that code is returned). */
typedef int (*store_game_fn)(void *ctx, const struct store_game *g);
int store_games_each(struct store *s, const struct store_filter *f,
                     store_game_fn fn, void *ctx);

/* ---- seats and players (store_players.c) ---- */

/* Reads the seats of game `key` into out[0..max) in seat order; *n gets
 * the count. */
int store_seats_get(struct store *s, int64_t key, struct store_seat *out,
                    int max, int *n);

/* The seat player `player_key` holds in game `key`; BD_ENOTFOUND if none. */
int store_seat_for_player(struct store *s, int64_t key, int64_t player_key,
                          int *seat);

/* A claim of an open seat. */
struct store_claim {
	int seat;           /* the seat wanted, or -1 for the first open */
	int64_t player_key; /* the joining player, or 0 for a newcomer */
	const uint8_t *token_hash; /* newcomer's token hash (player_key 0) */
	int open_seats; /* the game's open seats the caller's answer assumes
	                   (1..seats), or 0: not checked */
};

/* Claims an open seat in one transaction (with idem if not NULL): the
 * seat stops being open, the game's open_seats drops by one and its
 * status becomes "active" when none is left.  *seat_out gets the seat.
 * Errors: BD_ENOTFOUND (no game), BD_ESEATTAKEN (that seat, or every
 * seat, is taken), BD_EFORBIDDEN (reserved for another player),
 * BD_EALREADYSEATED (the player holds a seat of this game, or names a
 * seat while another open one is reserved for them), BD_EREPLAY,
 * BD_ECONFLICT (c->open_seats is not 0 and the game's open seats are not
 * that many: another claim landed first; the answer recorded with idem,
 * built for the old count, would be stale), BD_EBLOCKED (a player holding
 * a seat of the game blocked c->player_key: store_block_put). */
int store_seat_claim(struct store *s, int64_t key, const struct store_claim *c,
                     const struct store_idem *idem, int *seat_out);

/* A player row. */
struct store_player {
	int64_t key;               /* internal row id */
	char id[STORE_ID_LEN + 1]; /* public id */
	char name[65];             /* display name, 1..64 bytes of UTF-8 */
	int64_t created_ms;        /* unix time, milliseconds */
	/* Read back by store_player_by_token only (else 0): */
	int64_t token_key;     /* the token's row (store_token_used) */
	int64_t token_used_ms; /* when it was last marked used, 0: never */
};

/* Inserts a player (with idem if not NULL; created_ms 0 means now) and
 * its first token (label "first token"); *key_out gets its key.
 * BD_ECONFLICT if the id is taken; BD_EREPLAY. */
int store_player_create(struct store *s, const struct store_player *p,
                        const uint8_t token_hash[STORE_TOKEN_HASH_LEN],
                        const struct store_idem *idem, int64_t *key_out);

/* The player whose token hashes to `hash`; BD_ENOTFOUND if no token
 * hashes to it, BD_EUNAUTHORIZED if that token was revoked. */
int store_player_by_token(struct store *s,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN],
                          struct store_player *out);

/* The player with public id `id`; BD_ENOTFOUND if none. */
int store_player_by_id(struct store *s, const char *id,
                       struct store_player *out);

/* Which of a player's games store_player_games_each lists. */
struct store_player_filter {
	const char *status;     /* NULL or "waiting"/"active"/"finished" */
	int my_turn;            /* 1: only games where the player's seat acts */
	int64_t before_updated; /* cursor: 0, or games updated before … */
	int64_t before_key;     /* … this (updated_ms, key) pair */
	int limit;              /* 1..100 */
};

/* Calls fn for each game the player holds a seat in or is invited to
 * (an open seat reserved for them, g->invitation set; not when they also
 * hold a seat of it), newest activity first (updated_ms, then key,
 * descending), with the player's seat. */
typedef int (*store_seated_fn)(void *ctx, const struct store_game *g, int seat);
int store_player_games_each(struct store *s, int64_t player_key,
                            const struct store_player_filter *f,
                            store_seated_fn fn, void *ctx);

/* Calls fn(ctx, key) for each active game (no open seat, not finished)
 * with key > after_key where a seat a bot holds is to act (its stored
 * to_act), in key order, at most `limit` (1..1000) of them.  fn returns 0
 * to go on, negative to stop (that code is returned). */
typedef int (*store_key_fn)(void *ctx, int64_t key);
int store_bot_games_each(struct store *s, int64_t after_key, int limit,
                         store_key_fn fn, void *ctx);

/* ---- the lobby and identity (store_lobby.c) ---- */

/* A stream URL a ticket is for, canonical form, at most this long. */
#define STORE_TICKET_URL_MAX 160
/* The longest sealed token a ticket holds, bytes. */
#define STORE_TICKET_SEALED_MAX 256

/* Keeps a ticket: the SHA-256 of it (`hash`), the canonical stream URL it
 * is for, the asking token sealed by the caller (`sealed`, len bytes,
 * 1..STORE_TICKET_SEALED_MAX), and when it expires (unix ms).  Deletes
 * the expired tickets first, in the same transaction.  BD_ECONFLICT if
 * the hash is taken (pick another ticket). */
int store_ticket_put(struct store *s, const uint8_t hash[STORE_TOKEN_HASH_LEN],
                     const char *url, const void *sealed, size_t len,
                     int64_t expires_ms);

/* Uses a ticket: when the ticket hashing to `hash` is for `url` and
 * expires after now_ms, deletes it and copies its sealed token into
 * out[0..max) (*len bytes), in one transaction: a ticket is used once.
 * Else nothing changes and the answer says why: BD_ENOTFOUND (no such
 * ticket: never made, used, or pruned), BD_EDEADLINE (expired),
 * BD_EFORBIDDEN (for another URL). */
int store_ticket_take(struct store *s, const uint8_t hash[STORE_TOKEN_HASH_LEN],
                      const char *url, int64_t now_ms, void *out, size_t max,
                      size_t *len);

/* One of a player's tokens, as listed (never the token itself). */
struct store_token {
	int64_t key;
	char id[STORE_ID_LEN + 1]; /* public id */
	char label[65];            /* 1..64 bytes of UTF-8 */
	int64_t created_ms;
	int64_t last_used_ms; /* 0: never */
};

/* Most tokens a player holds at once (not counting revoked ones). */
#define STORE_TOKENS_MAX 50

/* Adds token t (id, label, created_ms; 0: now) hashing to `hash` to
 * player `player_key`.  BD_ECONFLICT if the id or hash is taken (pick
 * another); BD_ETOKENSFULL when the player holds STORE_TOKENS_MAX. */
int store_token_add(struct store *s, int64_t player_key,
                    const struct store_token *t,
                    const uint8_t hash[STORE_TOKEN_HASH_LEN]);

/* Records that token `token_key` was used at now_ms. */
int store_token_used(struct store *s, int64_t token_key, int64_t now_ms);

/* Calls fn for each token of player `player_key` not revoked, oldest
 * first. */
typedef int (*store_token_fn)(void *ctx, const struct store_token *t);
int store_tokens_each(struct store *s, int64_t player_key, store_token_fn fn,
                      void *ctx);

/* Revokes player `player_key`'s token with public id `id`: from the
 * commit on, store_player_by_token answers BD_EUNAUTHORIZED for it.
 * BD_ENOTFOUND if the player holds no such token (or it was revoked). */
int store_token_revoke(struct store *s, int64_t player_key, const char *id);

/* ---- finding players, linking devices (store_links.c,
 * sql/0031_link_codes.sql; docs/matchmaking.md, "Finding players, linking
 * devices") ---- */

/* Calls fn for each player (key, id, name, created_ms; borrowed for the
 * call) whose lower(name) starts with lower(prefix) (`prefix`: UTF-8,
 * borrowed; SQLite's lower() folds ASCII only, PostgreSQL's the whole of
 * Unicode), in the order of lower(name) bytes then key, at most `limit`
 * (1..100); players deleted or banned are not found.  fn's negative code
 * stops the walk and is returned.  BD_EBADREQUEST for a bad limit. */
typedef int (*store_player_fn)(void *ctx, const struct store_player *p);
int store_players_find(struct store *s, const char *prefix, int limit,
                       store_player_fn fn, void *ctx);

/* Most link codes a player holds alive at once. */
#define STORE_LINK_CODES_MAX 5

/* Keeps a link code (its SHA-256, `hash`) for player `player_key`, alive
 * until expires_ms (unix ms), made at now_ms; in the same transaction
 * every expired code (anyone's) is deleted.  BD_ELINKCODESFULL when the player
 * holds STORE_LINK_CODES_MAX live codes; BD_ECONFLICT when a code hashes
 * alike (make another).  Nothing changes on an error. */
int store_link_code_put(struct store *s, int64_t player_key,
                        const uint8_t hash[STORE_TOKEN_HASH_LEN],
                        int64_t now_ms, int64_t expires_ms);

/* Uses the link code hashing to code_hash, in one transaction: the code
 * is deleted (used once) and token t (id, label, created_ms) hashing to
 * token_hash is added to its player, who is written to *out (key, id,
 * name, created_ms).  BD_ENOTFOUND when no live code hashes so (never
 * made, used, expired) or its player is deleted or banned: one answer
 * for all; BD_ECONFLICT if the token's id or hash is taken (pick
 * another); BD_ETOKENSFULL when the player holds STORE_TOKENS_MAX tokens.
 * Nothing changes on an error. */
int store_link_code_claim(struct store *s,
                          const uint8_t code_hash[STORE_TOKEN_HASH_LEN],
                          int64_t now_ms, const struct store_token *t,
                          const uint8_t token_hash[STORE_TOKEN_HASH_LEN],
                          struct store_player *out);

/* Cancels game `key` for player `player_key`, who must be its creator,
 * while it waits or once it started but nobody moved yet (a seat taken by
 * someone who never moves must not hold the game): from the commit on it
 * is as an expired waiting game (store_config.waiting_expire_ms), takes no
 * move (store_move_append: BD_ENOTFOUND) and has no deadline.
 * BD_ENOTFOUND (no such game, or gone already), BD_EFORBIDDEN (not its
 * creator), BD_ESTARTED (someone moved). */
int store_game_cancel(struct store *s, int64_t key, int64_t player_key);

/* Opens seat `seat` of waiting game `key` again, if it is still held by
 * player `player_key` (or, player_key 0, by the seat token hashing to
 * token_hash): its holder leaves, open_seats grows by one.  The seat is
 * open to anyone (an invitation it had was used when it was taken).
 * BD_ENOTFOUND (no such game), BD_ESTARTED (no longer waiting),
 * BD_EFORBIDDEN (the seat is not the caller's, or a bot's). */
int store_seat_leave(struct store *s, int64_t key, int seat, int64_t player_key,
                     const uint8_t *token_hash);

/* What store_seat_attach answers. */
struct store_attached {
	int64_t game_key;
	char game_id[STORE_ID_LEN + 1];
	char rules_id[32];
	int seat;
};

/* Gives the seat held by the seat token hashing to `hash` to player
 * `player_key`: the seat token stops working, the player's tokens act for
 * the seat.  BD_ENOTFOUND (no seat of a game that is not gone holds
 * that token), BD_EALREADYSEATED (the player holds a seat of that game,
 * or one of its open seats is reserved for them), BD_EBLOCKED (a player
 * holding a seat of that game blocked player_key). */
int store_seat_attach(struct store *s, int64_t player_key,
                      const uint8_t hash[STORE_TOKEN_HASH_LEN],
                      struct store_attached *out);

/* ---- clocks (store_clocks.c) ---- */

/* When a deadline.soon is due: at the deadline minus the smaller of
 * STORE_SOON_CAP_MS (an hour) and 1/STORE_SOON_SHARE of the time the
 * seat had for that decision (from when it began to its deadline). */
#define STORE_SOON_CAP_MS 3600000
#define STORE_SOON_SHARE  4

/* Calls fn(ctx, key) for each game whose earliest deadline
 * (store_game.deadline_ms) or next deadline.soon (store_move.soon_ms,
 * store_game_soon) is at or before now_ms, earliest first, at most
 * `limit` (1..1000) of them.  fn as store_bot_games_each's. */
int store_clock_due_each(struct store *s, int64_t now_ms, int limit,
                         store_key_fn fn, void *ctx);

/* *next_ms = the earliest deadline or deadline.soon time of any game
 * after after_ms (unix ms), or 0 when there is none. */
int store_clock_next(struct store *s, int64_t after_ms, int64_t *next_ms);

/* Sets when game `key` is next due for a deadline.soon (unix ms; 0:
 * never), if it is still at `seq` (else nothing: the move that changed
 * it set its own). */
int store_game_soon(struct store *s, int64_t key, uint64_t seq,
                    int64_t soon_ms);

/* ---- idempotency (store_players.c) ---- */

/* The record kept under `scope`: its request hash, status and a malloc'd
 * copy of the response (caller frees *response).  BD_ENOTFOUND if none. */
int store_idem_get(struct store *s, const uint8_t scope[32],
                   uint8_t request[32], unsigned *status, void **response,
                   size_t *response_len);

/* ---- the event outbox (store_events.c) ----
 *
 * Every write that changes what a player should be told also writes, in
 * its own transaction, one event per player concerned (seats held by a
 * seat token alone have no player and get none):
 *   store_game_create  "invited" to each invited player (open seats); and
 *                      when no seat is open, as a join that starts it;
 *   store_seat_claim   when it takes the last open seat: "game.started" to
 *                      every seated player, then "turn" to those to act;
 *                      when seats stay open: "seat.taken" to the players
 *                      seated before;
 *   store_move_append  "game.finished" to every seated player when the
 *                      move ends the game, else "turn" to each seated
 *                      player whose seat is to act now and was not before.
 * An event's data is a JSON object of public facts only: game_id, game
 * (the rules id), seq, seat (the player's), status, result (null until
 * finished); a "deadline.soon" event adds deadline (RFC 3339 UTC).
 * A player with a webhook gets a pending delivery of each event, in the
 * same transaction.  store_game_cancel, store_seat_leave and
 * store_seat_attach write no event (attaching to a seat that is to act
 * sends no "turn": it was sent, or not, when the turn began) but tell
 * the change listener about the game's players (and the one who left). */

#define STORE_EVENT_ID_LEN 28 /* "evt_" + 24 lowercase hex digits */

/* One event as read back.  Borrowed for a callback's duration. */
struct store_event {
	int64_t key;                     /* order within the outbox */
	char id[STORE_EVENT_ID_LEN + 1]; /* stable public id */
	char type[16];                   /* "turn", "game.started", …,
	                                    "seat.taken" */
	const char *data;                /* JSON object text */
	int64_t created_ms;              /* unix time, milliseconds */
};

/* Called after a write transaction commits, once for each player seated
 * in (or invited to) a game the transaction changed, whether or not an
 * event was written for them; on the committing thread, with no store
 * lock held.  Must be quick and must not call the store. */
typedef void (*store_change_fn)(void *ctx, int64_t player_key);

/* Sets the one change listener (NULL to clear).  Call before serving. */
void store_on_change(struct store *s, store_change_fn fn, void *ctx);

/* Calls fn for each event of player `player_key` with key > after_key,
 * oldest first, at most `limit` (1..1000). */
typedef int (*store_event_fn)(void *ctx, const struct store_event *e);
int store_events_each(struct store *s, int64_t player_key, int64_t after_key,
                      int limit, store_event_fn fn, void *ctx);

/* The key of player `player_key`'s newest event, 0 if none. */
int store_events_last(struct store *s, int64_t player_key, int64_t *key);

/* For the clocks: writes a "deadline.soon" event for the player holding
 * `seat` of game `game_key` (none if a seat token holds it), deadline_ms
 * being the seat's deadline (unix ms), in one transaction, once per
 * (game, seat, deadline) ever: the warning is recorded (table
 * deadline_warnings) whoever holds the seat.  *sent (may be NULL) is 1
 * when this call recorded it, 0 when it was recorded before or the game
 * is no longer at `seq` (nothing is written then).  BD_ENOTFOUND if no
 * such game. */
int store_event_deadline_soon(struct store *s, int64_t game_key, uint64_t seq,
                              int seat, int64_t deadline_ms, int *sent);

/* Prunes the outbox: deletes the events created before before_ms (unix
 * ms) that have no pending delivery, their deliveries, and the
 * deadline.soon records of deadlines before it, and the breakers
 * (store_breaker) last failed and closed before it, the mails that name
 * no event (a code, a digest) sent or given up before it, and the
 * records of confirmation codes mailed more than a day ago (their rate
 * limit's window); each player's newest deleted key is kept
 * (store_events_horizon).  At most `limit` events
 * per call (1..100000); *pruned (may be NULL) gets how many. */
int store_events_prune(struct store *s, int64_t before_ms, int limit,
                       int *pruned);

/* *key = the key of player `player_key`'s newest pruned event, 0 if none
 * was: an account stream resumed after a smaller key has lost events. */
int store_events_horizon(struct store *s, int64_t player_key, int64_t *key);

/* ---- webhooks and their deliveries (store_events.c) ---- */

#define STORE_URL_MAX    2048 /* longest webhook URL, bytes */
#define STORE_SECRET_MAX 64   /* longest signing secret, bytes */
#define STORE_DEST_MAX   300  /* longest destination key, bytes */

#define STORE_WHY_MAX 200 /* longest disabled_why, bytes */

/* A player's webhook.  The secret is clear here: the store seals it on
 * the way in and opens it on the way out (store_config.secret_key). */
struct store_webhook {
	char url[STORE_URL_MAX + 1];
	uint8_t secret[STORE_SECRET_MAX]; /* raw bytes (24..64) */
	size_t secret_len;
	int64_t created_ms;  /* 0 on a put: now */
	int64_t disabled_ms; /* read back: when deliveries stopped (unix ms;
	                        store_delivery_gone), 0: enabled */
	char disabled_why[STORE_WHY_MAX + 1]; /* read back: why, or "" */
	/* Where its deliveries go, as the per-destination scheduler counts
	 * them (store_delivery_claim): the URL's "host:port", host
	 * lowercased without a trailing dot, set by the caller of a put;
	 * "player:<key>" for one PUT before migration 0019. */
	char dest[STORE_DEST_MAX + 1];
};

/* Registers (or replaces) player `player_key`'s webhook, enabled;
 * pending deliveries go to the new one.  BD_EBADREQUEST if the secret is
 * not 24..STORE_SECRET_MAX bytes, the url too long or w->dest empty. */
int store_webhook_put(struct store *s, int64_t player_key,
                      const struct store_webhook *w);

/* Player `player_key`'s webhook; BD_ENOTFOUND if none. */
int store_webhook_get(struct store *s, int64_t player_key,
                      struct store_webhook *out);

/* Removes it; its pending deliveries fail ("webhook-removed").
 * BD_ENOTFOUND if there was none. */
int store_webhook_delete(struct store *s, int64_t player_key);

/* A delivery, as claimed by a worker or listed. */
struct store_delivery {
	struct store_event ev; /* ev.data malloc'd (store_delivery_release) */
	char state[12];        /* "pending" | "delivered" | "failed" */
	int attempts;          /* attempts made so far */
	int64_t next_ms;       /* next attempt due (pending), unix ms */
	int64_t last_ms;       /* end of the last attempt, or 0 */
	int last_status;       /* its HTTP status, or 0 */
	char last_error[128];  /* why it failed, one word (openapi's
	                          WebhookDelivery.error: "timeout", "gone",
	                          "webhook-removed"...), or "" */
	struct store_webhook hook; /* claimed only: where it goes */
	int dest_failures; /* claimed only: hook.dest's consecutive failed
	                      attempts (its breaker), 0 if none */
	int dest_limited;  /* claimed only: 1 if hook.dest's last attempt
	                      failed or was slow (store_dest_answer): it is
	                      held to store_claim_rules' per_failing, and
	                      counts in the caller's failing share */
};

/* Frees d->ev.data. */
void store_delivery_release(struct store_delivery *d);

/* How deliveries share the delivery capacity among destinations
 * (store_webhook.dest): a destination whose receiver is slow or dead
 * holds at most `per_dest` attempts at once, and once its attempts fail
 * or answer slowly (store_delivery.dest_limited), at most `per_failing`,
 * and none while its breaker is open (store_breaker).  With `failing_ok`
 * 0, no delivery to a destination whose last attempt failed or was slow
 * is taken (the caller's share for those is in use).  In flight counts
 * every node's leases that have not ended. */
struct store_claim_rules {
	int per_dest;    /* >= 1: in flight to a destination with no failure */
	int per_failing; /* >= 1: in flight to one with failures */
	int failing_ok;  /* 1: one with failures may be taken */
};

/* Takes the pending delivery due first with next_ms <= now_ms whose
 * destination `rules` allows (NULL: any; a breaker still open holds its
 * destination back either way): marks it in flight until now_ms +
 * lease_ms (a crash leaves it to be retried then, or at the next
 * store_deliveries_requeue) and fills *out (caller releases), webhook and
 * dest_failures included.  Of the destinations with one due, the one
 * whose use (store_delivery_done's busy_ms, draining at 1/16 of real
 * time) is least goes first, and its attempts go in order of next_ms: so
 * one destination's backlog never stands in front of another's, and
 * destinations that keep workers busy, however fast each attempt, wait
 * behind one that used little lately.  BD_ENOTFOUND if none can be
 * taken; *next_ms (if not NULL) then gets when the next one is due (a
 * destination's breaker that is open: when it half opens), 0 if none,
 * <= now_ms if one is due but its destination is at its cap. */
int store_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                         const struct store_claim_rules *rules,
                         struct store_delivery *out, int64_t *next_ms);

/* A destination's circuit breaker: after `failures` consecutive failed
 * attempts (>= 1) it opens for open_ms, doubled per further failure up
 * to open_max_ms; when that ends it half opens (store_claim_rules'
 * per_failing at a time) and the next success closes it. */
struct store_breaker {
	int failures;        /* consecutive failures that open it */
	int64_t open_ms;     /* first open period, ms (>= 1) */
	int64_t open_max_ms; /* longest, ms (>= open_ms) */
};

/* How a destination (its host and port) answered an attempt: what its
 * breaker and its share count.  Whether the webhook accepted the event
 * (a 2xx) is the delivery's own outcome, not the destination's. */
enum store_dest_answer {
	STORE_DEST_FAST,   /* answered (any status) in time: its breaker
	                      closes and it leaves the failing share */
	STORE_DEST_SLOW,   /* answered past the caller's slow threshold, or
	                      cut short there: in the failing share, its
	                      breaker's consecutive failures back to 0 */
	STORE_DEST_FAILED, /* no answer (refused, timeout, TLS, DNS, a
	                      broken reply): counts towards opening it */
};

/* Records the end of an attempt of delivery `event_key` to destination
 * `dest`: http_status (0: none) and error ("" or NULL: none); `next_ms` >
 * 0 schedules a retry, 0 ends it ("delivered" when ok, else "failed").
 * `busy_ms` (>= 0) is how long the attempt held a worker: it is added to
 * dest's use (when dest is not NULL or ""), which orders the claim
 * (store_delivery_claim).
 * With b (NULL: neither breaker nor backoff), dest's breaker and share
 * follow `answer` (store_dest_answer); when the breaker opens, dest's
 * other pending deliveries not in flight are due no sooner than it half
 * opens (their next_ms moves there).  With b, a status answered that is
 * not ok is the webhook's failure, not dest's: the webhook's other
 * pending deliveries not in flight are due no sooner than next_ms (a
 * per-webhook backoff), and the other webhooks at dest go on. */
int store_delivery_done(struct store *s, int64_t event_key, const char *dest,
                        enum store_dest_answer answer, int64_t busy_ms, int ok,
                        int http_status, const char *error, int64_t next_ms,
                        const struct store_breaker *b);

/* Records the end of an attempt of delivery `event_key` whose receiver
 * answered that the webhook is gone (HTTP 410, Standard Webhooks): the
 * delivery fails with `why`, the webhook it went to (created at
 * hook_created_ms: a webhook PUT since then is left alone) is disabled
 * with `why`, and its other pending deliveries fail ("webhook
 * disabled").  No new delivery is made for it until it is PUT again. */
int store_delivery_gone(struct store *s, int64_t event_key, int http_status,
                        const char *why, int64_t hook_created_ms);

/* At start: deliveries left in flight by a crash are due now.  On
 * PostgreSQL it does nothing (they may be another node's, still
 * delivering): a dead node's deliveries are due again when their lease
 * ends.  Two nodes claiming at once never take the same delivery
 * (driver_pg.c's ST_DLV_CLAIM). */
int store_deliveries_requeue(struct store *s);

/* Calls fn for player `player_key`'s most recent deliveries (newest
 * event first, at most `limit`, 1..100); d->hook is not filled. */
typedef int (*store_delivery_fn)(void *ctx, const struct store_delivery *d);
int store_deliveries_each(struct store *s, int64_t player_key, int limit,
                          store_delivery_fn fn, void *ctx);

/* ---- chat, blocks and reports (store_chat.c, sql/0022_chat.sql;
 * docs/matchmaking.md) ---- */

/* A game's two chat channels. */
enum store_chat_channel {
	STORE_CHAT_PLAYERS = 0,    /* written by the seats' holders */
	STORE_CHAT_SPECTATORS = 1, /* written by players holding no seat */
	STORE_CHAT_CHANNELS
};

#define STORE_CHAT_TEXT_MAX 500  /* code points of a message */
#define STORE_REASON_MAX    500  /* code points of a report's reason */
#define STORE_BLOCKS_MAX    1000 /* blocks one player holds */

/* One chat message as read back.  Strings are borrowed for the
 * callback's duration. */
struct store_chat_msg {
	int64_t n;               /* 1, 2, ... within its game and channel */
	int seat;                /* the author's seat, or -1: a spectator */
	const char *player_id;   /* the author's player id, "" for a seat
	                            token no player holds */
	const char *player_name; /* their name, or "" */
	const char *text;        /* 1..STORE_CHAT_TEXT_MAX code points */
	int64_t created_ms;      /* unix ms */
};

/* Appends a message to channel `channel` of game `key`, written by
 * `seat` (-1: a spectator) and player `player_key` (0: a seat token no
 * player holds), `text` (borrowed; valid UTF-8 of 1..500 code points:
 * the caller checks).  *n_out gets its number in the channel (the
 * channel's last + 1), *created_out its time (unix ms).  BD_ECONFLICT
 * when another node numbered a message of the channel at the same time
 * (retry); BD_ENOTFOUND when there is no such game. */
int store_chat_post(struct store *s, int64_t key, int channel, int seat,
                    int64_t player_key, const char *text, int64_t *n_out,
                    int64_t *created_out);

/* Calls fn for the messages of channel `channel` of game `key` after
 * number `after` in order, at most `limit` (1..1000), leaving out those
 * written by a player `reader_key` blocked (0: leave none out).  fn's
 * negative answer stops it and is returned. */
typedef int (*store_chat_fn)(void *ctx, const struct store_chat_msg *m);
int store_chat_each(struct store *s, int64_t key, int channel, int64_t after,
                    int64_t reader_key, int limit, store_chat_fn fn, void *ctx);

/* The number of the newest message of the channel (0: none) into *n. */
int store_chat_last(struct store *s, int64_t key, int channel, int64_t *n);

/* Player `player_key` blocks player `blocked_key` (again: no change).
 * BD_EBADREQUEST for oneself; BD_ELIMIT when they already block
 * STORE_BLOCKS_MAX players. */
int store_block_put(struct store *s, int64_t player_key, int64_t blocked_key);

/* Lifts that block; *removed (may be NULL) gets 1 if there was one. */
int store_block_delete(struct store *s, int64_t player_key, int64_t blocked_key,
                       int *removed);

/* Calls fn for each player `player_key` blocks (oldest block first):
 * the blocked player's id and name (borrowed for the call) and when. */
typedef int (*store_block_fn)(void *ctx, const char *id, const char *name,
                              int64_t created_ms);
int store_blocks_each(struct store *s, int64_t player_key, store_block_fn fn,
                      void *ctx);

/* Whether player a blocked player b or b blocked a: *blocked 1 or 0.
 * For pairing strangers (quick match, issue 33 goal 1): two players
 * either of whom blocked the other are never paired.  One indexed
 * lookup on a pooled read connection (or the request's pin). */
int store_blocked_either(struct store *s, int64_t a, int64_t b, int *blocked);

/* Whether a player holding a seat of game `key` blocked `player_key`:
 * *blocked 1 or 0 (store_seat_claim refuses such a join itself). */
int store_blocked_in_game(struct store *s, int64_t key, int64_t player_key,
                          int *blocked);

/* A report, as written (store_report_put) and read back
 * (store_reports_each; strings borrowed for the callback). */
struct store_report {
	int64_t key;          /* read back: its row, the listing's cursor */
	int64_t reporter_key; /* written: the reporting player */
	int64_t player_key;   /* written: the player reported, 0: the author
	                         of message (game_key, channel, n) */
	int64_t game_key;     /* written: a message's game, or 0: a player */
	int channel;          /* the message's channel, or -1 */
	int64_t n;            /* the message's number, or 0 */
	const char *reason;   /* 1..STORE_REASON_MAX code points */
	/* Read back only: */
	const char *reporter_id, *reporter_name;
	const char *player_id, *player_name; /* "" when none */
	const char *game_id;                 /* "" when none */
	int seat;           /* the message's author's seat, or -1 */
	const char *text;   /* a copy of the message's text, or NULL */
	int64_t created_ms; /* unix ms */
};

/* Writes report r (its message's author, seat and text are copied from
 * the message when r->game_key is set); *key_out gets its key.
 * BD_ENOTFOUND when the message does not exist. */
int store_report_put(struct store *s, const struct store_report *r,
                     int64_t *key_out);

/* Calls fn for the reports after key `after`, oldest first, at most
 * `limit` (1..1000). */
typedef int (*store_report_fn)(void *ctx, const struct store_report *r);
int store_reports_each(struct store *s, int64_t after, int limit,
                       store_report_fn fn, void *ctx);
/* ---- seeks: quick match (store_seeks.c, sql/0029_seeks.sql;
 * docs/matchmaking.md, "Quick match") ----
 *
 * A seek is a player's standing wish for a game; compatible seeks (the
 * same `pool` text, each one's rating inside the other's bounds, no
 * block between their players, distinct players) are paired oldest
 * first, in the transaction that inserts the seek completing a table. */

/* The most seeks a table of compatible ones pairs: a game's seats. */
#define STORE_SEEK_SEATS_MAX 4

/* One seek, as written and read back. */
struct store_seek {
	char id[STORE_ID_LEN + 1];        /* public id, 16 hex digits */
	int64_t player_key;               /* the seeker */
	char player_id[STORE_ID_LEN + 1]; /* read back: the seeker's id */
	char player_name[65];             /* read back: the seeker's name */
	const char *pool;     /* written only: the text compatible seeks
	                         share (the service's), borrowed */
	char rules_id[32];    /* the game's catalog id */
	int seats;            /* 2..4 */
	char *options;        /* JSON object text, malloc'd when read back,
	                         borrowed when written */
	char *clock;          /* the game's clock (JSON text) or NULL; as
	                         options */
	int rated;            /* 1: the game is rated */
	int64_t rating;       /* the seeker's shown rating, whole points */
	int64_t rating_min;   /* the opponents' rating it takes, inclusive */
	int64_t rating_max;   /* ... rating_min <= rating_max */
	int64_t created_ms;   /* unix ms */
	int64_t expires_ms;   /* unix ms: no longer open from then on */
	char state[16];       /* read back: "open", "matched", "cancelled"
	                         or "expired" (open past expires_ms) */
	char game[STORE_ID_LEN + 1]; /* read back: the game it was paired
	                                into, or "" */
	int64_t ended_ms;     /* read back: when matched or cancelled, or 0 */
};

/* Frees what a read-back seek owns (options, clock); s stays valid. */
void store_seek_release(struct store_seek *k);

/* The game a pairing creates, planned by the caller before the write
 * (its state does not depend on who sits where). */
struct store_seek_game {
	struct store_game *row; /* the game (id set by the caller), borrowed;
	                           its seats' holders are the paired seeks'
	                           players */
	int order[STORE_SEEK_SEATS_MAX]; /* the seat of the i-th oldest
	                                    paired seek: a permutation of
	                                    0..seats-1 */
};

/* What store_seek_create found. */
struct store_seek_made {
	int64_t key;                 /* the new seek's key */
	int64_t game_key;            /* the new game's key, or 0: unpaired */
	char game[STORE_ID_LEN + 1]; /* the new game's id, or "" */
};

/* Inserts seek *k (k->id, k->player_key, k->pool and every written field
 * set; state "open") at now_ms, unless its player holds `max_open` open
 * seeks already (BD_ESEEKSFULL) or an open seek of the same pool
 * (BD_ESEEKSELF: it could only be paired with itself).  In the same
 * transaction, pairs it with the oldest compatible open seeks of other
 * players when they complete a table of k->seats: the game *plan->row is
 * inserted with its seats held by the paired players (plan->order), the
 * seeks are marked "matched" with the game's id, and each player gets a
 * "seek.matched" event (the game's event data and "seek", their seek's
 * id), after the new game's own events.  On PostgreSQL the pool is
 * locked for the transaction (pg_try_advisory_xact_lock of its hash) and
 * the candidates read FOR UPDATE SKIP LOCKED: two nodes inserting into
 * one pool take turns, and each seek is paired at most once; on SQLite
 * the one writer serialises them.  *out on success.  BD_ECONFLICT, with
 * nothing written, when the seek's or the game's id is taken or another
 * transaction holds the pool's lock (the lock is tried, never waited
 * for: a batch may hold several pools', and waiting could deadlock two
 * nodes): the caller tries again, with new ids, a moment later. */
int store_seek_create(struct store *s, const struct store_seek *k,
                      int max_open, int64_t now_ms,
                      const struct store_seek_game *plan,
                      struct store_seek_made *out);

/* Seek `id` into *out (caller releases with store_seek_release), its
 * state as of now_ms.  BD_ENOTFOUND when there is none. */
int store_seek_get(struct store *s, const char *id, int64_t now_ms,
                   struct store_seek *out);

/* Cancels player_key's open seek `id`: BD_ENOTFOUND when there is no
 * such seek, BD_EFORBIDDEN when another player's, BD_ESTARTED when it
 * is no longer open (matched, cancelled or expired). */
int store_seek_cancel(struct store *s, const char *id, int64_t player_key,
                      int64_t now_ms);

/* Called per seek; a negative return stops the walk and is returned.
 * k is borrowed for the call. */
typedef int (*store_seek_fn)(void *ctx, const struct store_seek *k);

/* The open seeks as of now_ms, oldest first: of game `rules_id` (NULL:
 * every game), after seek `after` (NULL: from the first; BD_ENOTFOUND
 * when no seek has that id), at most `limit` (1..100). */
int store_seeks_open(struct store *s, const char *rules_id, const char *after,
                     int limit, int64_t now_ms, store_seek_fn fn, void *ctx);

/* Every seek of player_key (any state), oldest first (the export). */
int store_seeks_of_player(struct store *s, int64_t player_key, int64_t now_ms,
                          store_seek_fn fn, void *ctx);

/* ---- rematches (store_rematch.c, sql/0027_rematch.sql;
 * docs/matchmaking.md, "Rematch") ----
 *
 * A finished game's rematch is kept on its row (store_game's rematch_*
 * fields): the seats that offered or accepted it, the seat that offered
 * it first, and once every seat accepted, the new game, which names the
 * finished one in its rematch_of (unique: a game has at most one
 * rematch, whichever node completes it).  Each change writes a "rematch"
 * event to every player seated in the finished game (store.h's outbox),
 * whose data adds `rematch`: {state ("offered", "declined" or
 * "started"), offered_by (a seat or null), accepted (seats, ascending),
 * game (the new game's id or null), by (the seat that acted)}. */

/* Seat `seat` of finished game `key` offers its rematch, or accepts the
 * one offered (the same: the seats already offering count as accepting),
 * with the seats in `auto_seats` (bit set: its bots) accepting at once.
 * In one transaction: when every seat of the game has then accepted,
 * `next` (a whole new game as store_game_create takes it, every seat
 * held, next->rematch_of unused) is inserted with its `seats` and
 * events, and the two games are linked.  *out (may be NULL) gets the
 * rematch as it is after the call, and *created the new game's key when
 * this call inserted it, else 0.  Idempotent: a seat that accepted
 * already changes nothing (no event).  BD_ENOTFOUND: no such game;
 * BD_ENOTFINISHED: it has not ended; BD_EREMATCHED: its rematch exists
 * already; BD_EBLOCKED: a player of it blocked another of its players;
 * BD_ECONFLICT: next->id is taken (pick another).  Concurrent calls,
 * also of several nodes on one PostgreSQL database, are serialised on
 * the game's row: the last acceptance inserts the game, once. */
struct store_rematch {
	unsigned seats;                /* seats that accepted (bit set) */
	int by;                        /* the first offer's seat, or -1 */
	char game[STORE_ID_LEN + 1];   /* the new game's id, or "" */
	int changed;                   /* 1: this call changed the rematch */
};
int store_rematch_offer(struct store *s, int64_t key, int seat,
                        unsigned auto_seats, const struct store_game *next,
                        const struct store_seat *seats,
                        struct store_rematch *out, int64_t *created);

/* Seat `seat` of finished game `key` declines its rematch offer (or
 * withdraws its own): the offer is gone, and a new one may be made.
 * *changed (may be NULL) is 1 when there was an offer, 0 when there was
 * none (nothing is written then).  BD_ENOTFOUND, BD_ENOTFINISHED and
 * BD_EREMATCHED as store_rematch_offer. */
int store_rematch_decline(struct store *s, int64_t key, int seat,
                          int *changed);

/* ---- Web Push subscriptions (store_push.c) ---- */

#define STORE_PUSH_SUBS_MAX 5 /* subscriptions a player holds at once */

/* One of a player's Web Push subscriptions (a browser's
 * PushSubscription, RFC 8030/8291): where to push, and the keys to
 * encrypt for it. */
struct store_push_sub {
	char id[STORE_ID_LEN + 1];        /* public id, 16 hex digits */
	char endpoint[STORE_URL_MAX + 1]; /* the push service's https URL */
	uint8_t p256dh[65];               /* the browser's P-256 point */
	uint8_t auth[16];                 /* its auth secret */
	char dest[STORE_DEST_MAX + 1];    /* endpoint's "host:port"
	                                     (store_webhook.dest) */
	char lang[3];                     /* "en" or "fr" */
	int64_t clock_low_s; /* warn at this many seconds left (0: the
	                        server's deadline.soon only) */
	int64_t expires_ms;  /* the browser's expirationTime, unix ms; 0:
	                        none */
	int64_t created_ms;  /* unix ms; 0 on an add: now */
};

/* Adds subscription `sub` (its id chosen by the caller) for player
 * `player_key`, in one transaction; one the player holds for the same
 * endpoint is replaced (deleted first).  BD_EPUSHFULL when the player
 * already holds STORE_PUSH_SUBS_MAX others (nothing changes),
 * BD_ECONFLICT if the id is taken (pick another). */
int store_push_sub_add(struct store *s, int64_t player_key,
                       const struct store_push_sub *sub);

/* Calls fn for each of player `player_key`'s subscriptions, oldest
 * first; `sub` is borrowed for the call.  fn returns 0 to go on,
 * negative to stop (that code is returned). */
typedef int (*store_push_sub_fn)(void *ctx, const struct store_push_sub *sub);
int store_push_subs_each(struct store *s, int64_t player_key,
                         store_push_sub_fn fn, void *ctx);

/* Deletes player `player_key`'s subscription `id`; BD_ENOTFOUND if the
 * player holds none with that id. */
int store_push_sub_delete(struct store *s, int64_t player_key, const char *id);

/* ---- boardd admin and a player's own data (store_admin.c,
 * sql/0024_admin.sql; docs/operations.md, "Admin commands") ----
 *
 * These run in the server (a player's export and deletion) and in
 * `boardd admin`, a second process on the same database while servers
 * run: on PostgreSQL the nodes hear of its changes by their NOTIFY
 * triggers; on SQLite through store_config.outside (below). */

#define STORE_WHY_ADMIN_MAX 200 /* longest ban or admin reason, bytes */

/* A player as the operator sees one. */
struct store_admin_player {
	int64_t key;
	char id[STORE_ID_LEN + 1];
	char name[65];
	int64_t created_ms;
	int64_t banned_ms;                        /* 0: not banned */
	char banned_why[STORE_WHY_ADMIN_MAX + 1]; /* "" when none */
	int64_t deleted_ms;                       /* 0: not deleted */
	int64_t tokens;                           /* tokens not revoked */
	int64_t seats; /* seats held, in games of any status */
};

/* Calls fn for each player whose id is `match` or whose name contains
 * it (case-insensitive for ASCII; NULL or "": every player), key after
 * `after`, oldest first, at most `limit` (1..1000).  *p is borrowed for
 * the call; fn's negative answer stops it and is returned. */
typedef int (*store_admin_player_fn)(void *ctx,
                                     const struct store_admin_player *p);
int store_admin_players_each(struct store *s, const char *match, int64_t after,
                             int limit, store_admin_player_fn fn, void *ctx);

/* The player with public id `id`, deleted ones included, into *out.
 * BD_ENOTFOUND if none. */
int store_admin_player(struct store *s, const char *id,
                       struct store_admin_player *out);

/* Bans player `player_key` with reason `why` (1..STORE_WHY_ADMIN_MAX
 * bytes, borrowed): from the commit on, store_player_by_token answers
 * BD_EUNAUTHORIZED for each of their tokens; the games they created
 * that nobody moved in yet are cancelled (store_game_cancel's) and the
 * seats they hold in other waiting games are left (store_seat_leave's),
 * and the operator's log gets a row (admin_log).  *ended (may be NULL)
 * gets how many games were cancelled or left.  BD_ECONFLICT if the
 * player is already banned, BD_ENOTFOUND if deleted or unknown;
 * BD_EBADREQUEST for an empty or too long reason. */
int store_player_ban(struct store *s, int64_t player_key, const char *id,
                     const char *why, int *ended);

/* Lifts the ban: the player's tokens that were not revoked work again.
 * BD_ECONFLICT if not banned. */
int store_player_unban(struct store *s, int64_t player_key, const char *id,
                       const char *why);

/* Revokes every token of player `player_key` (each then answers 401
 * "revoked"); *n (may be NULL) gets how many were.  Logged as "revoke". */
int store_tokens_revoke_all(struct store *s, int64_t player_key, const char *id,
                            const char *why, int *n);

/* Records an operator's action (admin_log): action 1..16 bytes, the
 * player's and the game's public ids and the reason ("" or NULL: none). */
int store_admin_log(struct store *s, const char *action, const char *player_id,
                    const char *game_id, const char *why);

/* Calls fn with the public id of each game in progress where player
 * `player_key` holds a seat (oldest first; id borrowed for the call). */
typedef int (*store_id_fn)(void *ctx, const char *id);
int store_player_active_each(struct store *s, int64_t player_key,
                             store_id_fn fn, void *ctx);

/* One chat message a player wrote, for their export. */
struct store_own_msg {
	const char *game_id; /* borrowed for the call */
	int channel;         /* enum store_chat_channel */
	int64_t n;
	int seat; /* -1: a spectator */
	const char *text;
	int64_t created_ms;
};
typedef int (*store_own_msg_fn)(void *ctx, const struct store_own_msg *m);
int store_chat_by_player_each(struct store *s, int64_t player_key,
                              store_own_msg_fn fn, void *ctx);

/* Calls fn for each report player `player_key` wrote, oldest first
 * (reporter_* and text are not filled: the export names whom). */
int store_reports_by_each(struct store *s, int64_t player_key,
                          store_report_fn fn, void *ctx);

/* Deletes player `player_key`'s account in one transaction: the row
 * stays as a tombstone named "deleted player" (the seats of games kept
 * point at it; store_player_by_id no longer finds it); its tokens are
 * revoked and their labels erased; its chat messages, blocks (both
 * ways), invitations, events, deliveries, webhook and push
 * subscriptions are deleted; the games it created that nobody moved in
 * are cancelled and its seats in other waiting games left (as
 * store_player_ban).  Games in progress must have been resigned first
 * (service_player_delete does it through the engine): the seats stay,
 * shown as "deleted player".  Logged as "delete" with `why`.
 * BD_ENOTFOUND when the player is unknown or already deleted. */
int store_player_erase(struct store *s, int64_t player_key, const char *id,
                       const char *why);

/* Retention: deletes the chat messages of games finished before
 * before_ms (unix ms), at most `limit` per call; *n gets how many. */
int store_chat_prune(struct store *s, int64_t before_ms, int limit, int64_t *n);

/* Retention: deletes the idempotency records (Idempotency-Key answers)
 * made before before_ms; *n gets how many.  The server itself drops
 * those older than a day at each new one. */
int store_idem_prune(struct store *s, int64_t before_ms, int64_t *n);

/* The schema: *known the number of migrations this binary knows for
 * s's database (which store_open brought it to: the database's schema
 * version), *name the newest one's file name (static). */
void store_schema(struct store *s, int *known, const char **name);
/* ---- ratings (store_ratings.c, sql/0025_ratings.sql; docs/ratings.md) -- */

/* One subject's rating in one category, as stored. */
struct store_rating {
	char category[32];              /* e.g. "quantum-2p" */
	char subject[81];               /* a player's id, or "bot:" + spec */
	char player_id[STORE_ID_LEN + 1]; /* the player, "" for a bot */
	char name[65];                  /* the player's name, "" for a bot */
	char system[16];                /* "glicko2" or "weng-lin" */
	double rating;     /* Glicko-2 rating, or Weng-Lin mu */
	double deviation;  /* Glicko-2 RD, or Weng-Lin sigma */
	double volatility; /* Glicko-2 volatility, 0 for Weng-Lin */
	double shown;      /* the rating shown: rating, or mu - 3 sigma */
	int provisional;   /* 1: not on the leaderboards */
	int64_t games;     /* rated games of the category */
	int64_t wins;      /* of which won (alone or with a team) */
	int64_t last_ms;   /* end of the last one (unix ms) */
};

/* Called per rating row; a negative return stops the walk and is
 * returned.  r is borrowed for the call. */
typedef int (*store_rating_fn)(void *ctx, const struct store_rating *r);

/* The ratings of player `player_key`, by category name. */
int store_player_ratings(struct store *s, int64_t player_key,
                         store_rating_fn fn, void *ctx);

/* The leaderboard functions count activity by whole days: their
 * active_since_ms is the start of a UTC day (a multiple of 86400000),
 * which board_counts (sql/0025_ratings.sql) counts from exactly.
 *
 * One page of category's leaderboard: its non-provisional subjects whose
 * last rated game ended at or after active_since_ms, best shown rating
 * first (then subject), at most `limit` (1..100).  after_subject: NULL
 * for the top, else the page starts after that subject (the last of the
 * previous page; BD_ENOTFOUND when it is not on the board).  *first_rank
 * (may be NULL): the rank of the page's first row (1 for the top),
 * written before fn's first call (so fn may read it to number the rows).
 * The first rank is store_leaderboard_rank's; the page is one range of
 * the index ratings_board. */
int store_leaderboard(struct store *s, const char *category,
                      int64_t active_since_ms, const char *after_subject,
                      int limit, int64_t *first_rank, store_rating_fn fn,
                      void *ctx);

/* Subject's rating in category (*out) and its rank on the leaderboard
 * (*rank, 1 = the best; 0 when it is not on the board: provisional or
 * inactive since active_since_ms).  BD_ENOTFOUND when the subject has no
 * rating in category.  The rank is a sum over board_counts's buckets
 * above (the active days') and a count inside the subject's own bucket:
 * a few thousand rows read at most, however large the board. */
int store_leaderboard_rank(struct store *s, const char *category,
                           const char *subject, int64_t active_since_ms,
                           struct store_rating *out, int64_t *rank);

/* One rated game's change to one subject (rating_history). */
struct store_rating_change {
	int64_t n;                        /* its number: the page cursor */
	char category[32];
	char game_id[STORE_ID_LEN + 1];   /* the game */
	int place;                        /* 1 won, 2 lost (a tie: equal) */
	double rating_before, deviation_before; /* before the game */
	double rating, deviation, shown;        /* after it */
	int64_t at_ms;                          /* when it ended (unix ms) */
};
typedef int (*store_rating_change_fn)(void *ctx,
                                      const struct store_rating_change *c);

/* Subject's rating changes, oldest first, numbered after `after` (0:
 * from the first), at most `limit` (1..100); category NULL: every
 * category. */
int store_rating_history(struct store *s, const char *subject,
                         const char *category, int64_t after, int limit,
                         store_rating_change_fn fn, void *ctx);
/* ---- Web Push deliveries (store_push.c; sql/0026_push_deliveries.sql) ----
 *
 * An event of a pushed type ("turn", "game.finished", "deadline.soon",
 * "invited", "seat.taken") becomes, in the transaction that writes it, one pending
 * delivery per subscription its player holds then.  Workers claim them as
 * they claim webhook deliveries (the same store_claim_rules, the same
 * breakers and use per destination, the subscription's "host:port"). */

/* A claimed Web Push delivery. */
struct store_push_delivery {
	int64_t key;            /* the delivery's */
	struct store_event ev;  /* ev.data malloc'd
	                           (store_push_delivery_release) */
	int64_t game_key;       /* the event's game */
	int64_t player_key;     /* the player it is for */
	int attempts;           /* attempts made so far */
	int64_t sub_key;        /* the subscription's row */
	struct store_push_sub sub; /* where it goes (id, created_ms,
	                              clock_low_s, expires_ms unset) */
	int dest_failures; /* sub.dest's breaker's consecutive failures */
	int dest_limited;  /* 1 if sub.dest's last attempt failed or was
	                      slow (store_delivery.dest_limited) */
	int clock_low;     /* 1: not the event itself but the warning the
	                      subscription's clock_low_s asks for, due that
	                      long before the deadline a "turn" event names
	                      (sql/0026_push_deliveries.sql) */
	int64_t game_seq;  /* the game's seq now (a clock_low warning is
	                      stale once it passed the event's data.seq) */
};

/* Frees d->ev.data and wipes d's keys. */
void store_push_delivery_release(struct store_push_delivery *d);

/* Takes the pending Web Push delivery due first (next_ms <= now_ms)
 * that its destination's share under `rules` allows (as
 * store_delivery_claim; NULL: any), marks it in flight until now_ms +
 * lease_ms (a node that dies holding it leaves it due again then: one
 * node sends each message once on PostgreSQL, FOR UPDATE SKIP LOCKED).
 * 0 with *out filled (release it), BD_ENOTFOUND when none is due
 * (*next_ms, if not NULL, gets when the next one is, 0: none pending),
 * BD_EBADREQUEST for bad rules. */
int store_push_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                              const struct store_claim_rules *rules,
                              struct store_push_delivery *out,
                              int64_t *next_ms);

/* How a Web Push attempt ended, for store_push_delivery_done. */
enum store_push_end {
	STORE_PUSH_DELIVERED, /* 2xx: done */
	STORE_PUSH_RETRY,     /* failed; due again at next_ms */
	STORE_PUSH_FAILED,    /* failed for the last time */
	STORE_PUSH_SKIPPED,   /* not sent: the player was live on the game
	                         (no attempt counted) */
};

/* Records the end of claimed delivery `key`: its state (end), the
 * attempt's HTTP status (0: none) and error word ("timeout",
 * "connect-failed", "http-status", ...; NULL: none), next_ms (unix ms,
 * STORE_PUSH_RETRY only), and how destination `dest` answered (busy_ms
 * its time in flight; b its breaker, NULL: left alone; a SKIPPED end
 * touches no destination).  One transaction.  BD_EBADREQUEST for bad
 * arguments. */
int store_push_delivery_done(struct store *s, int64_t key,
                             enum store_push_end end, int http_status,
                             const char *error, int64_t next_ms,
                             const char *dest, enum store_dest_answer answer,
                             int64_t busy_ms, const struct store_breaker *b);

/* The push service answered 404 or 410 for subscription `sub_key`
 * (RFC 8030 §7.3: it expired or was unsubscribed): deletes it and every
 * delivery to it, pending or not, and records `dest`'s answer (as
 * store_push_delivery_done).  0 also when it was gone already. */
int store_push_sub_gone(struct store *s, int64_t sub_key, const char *dest,
                        int64_t busy_ms);

/* At start, on SQLite: the Web Push deliveries a crash left in flight
 * are due now (as store_deliveries_requeue; nothing on PostgreSQL). */
int store_push_deliveries_requeue(struct store *s);

/* ---- email (store_mail.c; sql/0028_mail.sql) ----
 *
 * A player keeps at most one address.  It is stored unconfirmed with a
 * single-use code's hash; a mail carrying the code goes through the mail
 * outbox (below) in the same transaction; the player confirms by sending
 * the code back.  Events of the mailed types ("turn", "game.finished",
 * "invited", "seat.taken") become, in the transaction that writes them,
 * one pending mail for a player whose address is confirmed and whose mode
 * is "event". */

#define STORE_MAIL_ADDR_MAX  254 /* RFC 5321's longest path, bytes */
#define STORE_MAIL_CODE_LEN  32  /* the code hash's bytes (BLAKE2b-256) */
#define STORE_MAIL_TOKEN_MAX 64  /* the unsubscribe token's characters */
#define STORE_MAIL_TZ_MAX    64  /* an IANA zone name's bytes */

/* A player's address and settings. */
struct store_mail {
	char address[STORE_MAIL_ADDR_MAX + 1];
	char lang[8];            /* "en" or "fr" */
	int64_t confirmed_ms;    /* unix ms, 0: not confirmed */
	char mode[8];            /* "event", "digest" or "none" */
	int digest_hour;         /* 0..23, in tz */
	char tz[STORE_MAIL_TZ_MAX + 1];             /* IANA zone name */
	char unsub_token[STORE_MAIL_TOKEN_MAX + 1]; /* RFC 8058 URL's */
	int64_t created_ms;      /* when the address was set, unix ms */
	int64_t code_expires_ms; /* the pending code's end, 0: none */
};

/* The player's address into *out: 0, or BD_ENOTFOUND (none). */
int store_mail_get(struct store *s, int64_t player_key, struct store_mail *out);

/* The rate limits of store_mail_set (docs/notifications.md, "Email"). */
struct store_mail_limits {
	int64_t addr_window_ms;   /* one code per address in this window */
	int64_t player_window_ms; /* at most player_max codes a player asks */
	int player_max;           /* for in this window */
};

/* Sets the player's address (m->address lower-cased by the caller, m's
 * lang, unsub_token, code_expires_ms and created_ms used; it becomes
 * unconfirmed, its mode kept) with the pending code's hash
 * code_hash[STORE_MAIL_CODE_LEN], records a code sent, drops the
 * player's mails not sent yet and queues the confirmation mail carrying
 * `code` (text, kept in the outbox row until it is sent), all in one
 * transaction.  BD_EMAILLIMIT (nothing changes) when a code went to
 * that address within lim->addr_window_ms, by anyone, or the player
 * asked for lim->player_max within lim->player_window_ms. */
int store_mail_set(struct store *s, int64_t player_key,
                   const struct store_mail *m, const uint8_t *code_hash,
                   const char *code, const struct store_mail_limits *lim);

/* Confirms the player's address if code_hash[STORE_MAIL_CODE_LEN] is
 * its pending code's and that has not expired at now_ms: the code is
 * spent.  BD_EMAILCODE when none is pending, it expired, or it differs
 * (a miss is counted: the fifth ends the code; nothing else changes). */
int store_mail_confirm(struct store *s, int64_t player_key,
                       const uint8_t *code_hash, int64_t now_ms);

/* Sets the player's mode ("event", "digest", "none"), digest hour
 * (0..23), zone and lang, checked by the caller, and when the next
 * digest is due (unix ms; 0: none).  BD_ENOTFOUND when the player has no
 * address. */
int store_mail_prefs(struct store *s, int64_t player_key, const char *mode,
                     int digest_hour, const char *tz, const char *lang,
                     int64_t digest_due_ms);

/* A digest due: whose, in which zone at which hour, and when it was. */
struct store_mail_digest {
	int64_t player_key;
	char tz[STORE_MAIL_TZ_MAX + 1];
	int digest_hour;
	int64_t due_ms;
};

/* Calls fn for each digest due at now_ms (mode "digest", confirmed), at
 * most 100, the oldest first; a negative answer stops. */
typedef int (*store_mail_digest_fn)(void *ctx,
                                    const struct store_mail_digest *d);
int store_mail_digests_due(struct store *s, int64_t now_ms,
                           store_mail_digest_fn fn, void *ctx);

/* Takes digest d (its due_ms still the address's: one node takes each):
 * the next is due at next_ms, and, when a game waits for the player, a
 * digest mail is queued at now_ms.  0 (also when another took it). */
int store_mail_digest_take(struct store *s, const struct store_mail_digest *d,
                           int64_t next_ms, int64_t now_ms);

/* Calls fn with each game waiting for the player (a seat of theirs to
 * act), the longest waiting first, at most `limit`: its id and rules. */
typedef int (*store_mail_game_fn)(void *ctx, const char *game_id,
                                  const char *rules_id);
int store_mail_waiting_each(struct store *s, int64_t player_key, int limit,
                            store_mail_game_fn fn, void *ctx);

/* Removes the player's address and their mails not sent yet.
 * BD_ENOTFOUND when there was none. */
int store_mail_delete(struct store *s, int64_t player_key);

/* The address whose unsubscribe token is `token` into *out; with
 * apply, its mode becomes "none" first (RFC 8058's one-click POST).
 * BD_ENOTFOUND when no address has it. */
int store_mail_unsubscribe(struct store *s, const char *token, int apply,
                           struct store_mail *out);

/* What a claimed mail is. */
enum store_mail_kind {
	STORE_MAIL_EVENT,   /* about ev */
	STORE_MAIL_CONFIRM, /* carries a confirmation code */
	STORE_MAIL_DIGEST,  /* the games waiting for the player */
};

/* A claimed mail. */
struct store_mail_delivery {
	int64_t key;                /* the delivery's */
	enum store_mail_kind kind;
	char address[STORE_MAIL_ADDR_MAX + 1]; /* the recipient */
	char code[16];              /* STORE_MAIL_CONFIRM's code */
	int attempts;               /* made so far */
	int64_t created_ms;         /* when it was queued, unix ms */
	int64_t player_key;
	struct store_event ev;      /* STORE_MAIL_EVENT's (ev.data malloc'd,
	                               store_mail_delivery_release) */
	int64_t game_key;           /* the event's game, 0 for others */
	char lang[8];               /* the address's language */
	char unsub_token[STORE_MAIL_TOKEN_MAX + 1]; /* its token ("" when
	                               the address went meanwhile) */
	int dest_failures;          /* the SMTP server's breaker's */
	int dest_limited;           /* 1 if its last attempt failed or was
	                               slow */
};

/* Frees d->ev.data and wipes the code. */
void store_mail_delivery_release(struct store_mail_delivery *d);

/* As store_push_delivery_claim, for mails (destination "smtp"). */
int store_mail_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                              const struct store_claim_rules *rules,
                              struct store_mail_delivery *out,
                              int64_t *next_ms);

/* Records the end of claimed mail `key` as store_push_delivery_done
 * does (STORE_PUSH_* ends; no HTTP status); a confirmation's code is
 * wiped once it ends.  BD_EBADREQUEST for bad arguments. */
int store_mail_delivery_done(struct store *s, int64_t key,
                             enum store_push_end end, const char *error,
                             int64_t next_ms, enum store_dest_answer answer,
                             int64_t busy_ms, const struct store_breaker *b);

/* At start, on SQLite: mails a crash left in flight are due now. */
int store_mail_deliveries_requeue(struct store *s);

/* ---- vacation (store_vacation.c, sql/0030_vacation.sql;
 * docs/notifications.md, "Vacation") ----
 *
 * A player's balance accrues STORE_VAC_DAY_MS for every full
 * STORE_VAC_WEEK_MS since the account was made (or since the last
 * accrual), to at most STORE_VAC_CAP_MS; the weeks spent at the cap add
 * nothing.  A vacation taken reserves its length from the balance when
 * it begins; ending it early gives the rest back.  A player's vacations
 * never overlap.  All times are unix ms. */

#define STORE_VAC_DAY_MS  86400000LL
#define STORE_VAC_WEEK_MS (7 * STORE_VAC_DAY_MS)
#define STORE_VAC_CAP_MS  (30 * STORE_VAC_DAY_MS)
/* The most vacations a player may begin within STORE_VAC_WEEK_MS: each
 * one is read by the clocks of every game it overlaps. */
#define STORE_VAC_BEGUN_MAX 10

/* A player's vacation as of now_ms (the accrual applied). */
struct store_vacation {
	int64_t left_ms;    /* time left to take (0..STORE_VAC_CAP_MS) */
	int64_t accrued_ms; /* start of the current accrual week */
	int auto_on;        /* 1: a clock about to run out starts one */
	int64_t start_ms;   /* the vacation being taken: its start, or 0 */
	int64_t end_ms;     /* and its (planned) end, or 0 */
	int auto_began;     /* 1: a clock began the one being taken */
};

/* *out = player_key's vacation at now_ms (nothing written).
 * BD_ENOTFOUND for an unknown player. */
int store_vacation_get(struct store *s, int64_t player_key, int64_t now_ms,
                       struct store_vacation *out);

/* Begins a vacation of len_ms (> 0) at now_ms for player_key, taken from
 * the balance; *out as store_vacation_get after it.  BD_EONVACATION if
 * one is being taken, BD_EVACATIONLEFT if len_ms is more than is left,
 * BD_ELIMIT if STORE_VAC_BEGUN_MAX began in the last week. */
int store_vacation_take(struct store *s, int64_t player_key, int64_t now_ms,
                        int64_t len_ms, struct store_vacation *out);

/* Ends the vacation being taken at now_ms, giving back what is unused (to
 * the cap); the deadlines of every game the player sits in are looked at
 * again (games.deadline_ms set to now_ms: the clock scheduler finds them
 * and stores their true deadlines).  BD_ENOTONVACATION if none is. */
int store_vacation_end(struct store *s, int64_t player_key, int64_t now_ms,
                       struct store_vacation *out);

/* Sets automatic vacation on (1) or off (0); *out as store_vacation_get. */
int store_vacation_auto(struct store *s, int64_t player_key, int64_t now_ms,
                        int on, struct store_vacation *out);

/* One seat of store_vacation_seats: a seat a player holds, and one of
 * that player's vacations (start_ms = end_ms = 0: none). */
struct store_vacation_row {
	int seat;
	int64_t player_key;
	int64_t last_key; /* the key of the player's latest vacation, 0: none
	                     (store_move.vac_last) */
	int64_t start_ms, end_ms;
};
typedef int (*store_vacation_fn)(void *ctx,
                                 const struct store_vacation_row *r);

/* Calls fn for each seat of game `key` a player holds, once per vacation
 * of theirs ending after after_ms (once with none if there is none), in
 * seat order and each seat's vacations by start. */
int store_vacation_seats(struct store *s, int64_t key, int64_t after_ms,
                         store_vacation_fn fn, void *ctx);

/* One vacation of store_vacations_each: [start_ms, end_ms) in unix ms
 * (end_ms: its planned end, or when it was ended early), automatic 1 when
 * a clock running out began it. */
typedef int (*store_vacation_each_fn)(void *ctx, int64_t start_ms,
                                      int64_t end_ms, int automatic);

/* Calls fn for every vacation player_key took or takes, oldest first (a
 * player's export); stops at fn's first negative return and returns it. */
int store_vacations_each(struct store *s, int64_t player_key,
                         store_vacation_each_fn fn, void *ctx);

/* Sets game `key`'s stored deadline to deadline_ms (0: none), if it is
 * still at `seq` with the stored deadline `seen_ms` (else nothing: a move
 * or a vacation's end changed it).  The clock scheduler's correction of
 * a deadline a vacation moved later (store_game.deadline_ms is never
 * later than the true one). */
int store_game_deadline(struct store *s, int64_t key, uint64_t seq,
                        int64_t seen_ms, int64_t deadline_ms);

/* A vacation shown in game `key`'s view ran out by itself (its
 * seats_until_ms is at or before now_ms, unix ms): bumps the game's
 * seats_version (so that a view cached under it, and its ETag, are no
 * longer used) and sets seats_until_ms to the next planned end of a
 * vacation one of its players is taking after now_ms, or none
 * (sql/0032_seats_until.sql).  Nothing when seats_until_ms is no longer
 * passed (another reader, or another node, did it first).  0 or a store
 * error. */
int store_game_seats_expire(struct store *s, int64_t key, int64_t now_ms);

#endif
