/* store_int.h: internals shared by the files of the store, whichever
 * driver runs it (store_open.c: opening; store_pool.c: connections and
 * group commit; store_games.c, store_moves.c, store_clocks.c,
 * store_players.c, store_events.c, store_lobby.c: the tables' logic;
 * store_sql.c: the common statement texts; driver_sqlite.c and
 * driver_pg.c: the two drivers, behind driver.h's table).  Not part of
 * the store interface.
 *
 * The seam between the store's logic and its drivers is small: every
 * statement is one of enum stmt, run by store__run with typed arguments
 * (struct arg) and read row by row through an abstract row
 * (store__col_*); each goes through the connection's driver table
 * (driver.h).  A connection (struct conn) holds its driver's handle; the
 * rest of the store does not ask which driver it is. */
#ifndef BD_STORE_INT_H
#define BD_STORE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "store.h"

/* The prepared statements of a connection, indexed into stmt_sql[]. */
enum stmt {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_UNIT,         /* SAVEPOINT: one request's unit in a batch */
	ST_UNIT_RELEASE, /* RELEASE it (kept in the batch) */
	ST_UNIT_UNDO,    /* ROLLBACK TO it (then released) */
	ST_GAME_INSERT,
	ST_SEAT_INSERT,
	ST_GAME_GET,
	ST_GAME_BY_KEY,
	ST_SEAT_FIND,
	ST_GAME_SEQ,
	ST_MOVE_INSERT,
	ST_GAME_ADVANCE,
	ST_MOVES_AFTER,
	ST_SNAPSHOT_PUT,
	ST_SNAPSHOT_GET,
	/* The four listings, in this order: ST_LIST_ALL + 1 if filtering on
	 * status + 2 if filtering on rules_id (see list_stmt). */
	ST_LIST_ALL,
	ST_LIST_STATUS,
	ST_LIST_RULES,
	ST_LIST_BOTH,
	/* store_players.c */
	ST_SEATS_GET,
	ST_SEAT_FOR_PLAYER,
	ST_SEAT_RESERVED_ELSEWHERE,
	ST_SEAT_FIRST_OPEN,
	ST_SEAT_STATE,
	ST_SEAT_TAKE,
	ST_GAME_SEAT_TAKEN,
	ST_GAME_OPEN_SEATS,
	ST_PLAYER_INSERT,
	ST_PLAYER_BY_TOKEN,
	ST_PLAYER_BY_ID,
	ST_PLAYER_GAMES,
	ST_IDEM_INSERT,
	ST_IDEM_GET,
	ST_IDEM_EXPIRE,
	/* store_events.c */
	ST_EV_GAME_STATE,
	ST_EV_SEATED,
	ST_EV_INVITED,
	ST_EV_DEADLINE,
	ST_EV_SEAT_TAKEN,
	ST_EV_TOUCHED,
	ST_EV_AFTER,
	ST_EV_LAST,
	ST_HOOK_PUT,
	ST_HOOK_GET,
	ST_HOOK_DELETE,
	/* store_push.c */
	ST_PUSH_SUB_COUNT,
	ST_PUSH_SUB_REPLACE,
	ST_PUSH_SUB_INSERT,
	ST_PUSH_SUBS_LIST,
	ST_PUSH_SUB_DELETE,
	ST_PUSH_SUB_GONE,
	ST_PUSH_DLV_CLAIM,
	ST_PUSH_DLV_GET,
	ST_PUSH_DLV_NEXT,
	ST_PUSH_DLV_DONE,
	ST_PUSH_DLV_REQUEUE,
	ST_PRUNE_PUSH_DELIVERIES,
	ST_HOOK_ORPHANS,
	ST_DLV_CLAIM,
	ST_DLV_GET,
	ST_DLV_NEXT,
	ST_DLV_DONE,
	ST_DLV_REQUEUE,
	ST_DLV_LIST,
	ST_BOT_GAMES,
	/* waiting games' caps and expiry (store_games.c), clocks
	 * (store_clocks.c) */
	ST_GAME_CREATOR,
	ST_WAITING_BY_PLAYER,
	ST_WAITING_BY_ADDR,
	ST_BOT_GAMES_BY_PLAYER,
	ST_GAME_JOINABLE,
	ST_GAME_CLOCK,
	ST_GAME_SECRET,
	ST_GAME_IMPORTED,
	ST_GAME_CLOCK_START,
	ST_CLOCK_DUE,
	ST_CLOCK_NEXT,
	ST_GAME_SOON,
	ST_EV_WARNED,
	ST_EV_HORIZON,
	ST_PRUNE_HORIZONS,
	ST_PRUNE_DELIVERIES,
	ST_PRUNE_EVENTS,
	ST_PRUNE_WARNINGS,
	ST_HOOK_UNSEALED,
	ST_HOOK_SEAL,
	ST_HOOK_ANY_SEALED,
	ST_DLV_GONE,
	ST_HOOK_DISABLE,
	ST_DEST_FAILURES,
	ST_DEST_FAIL,
	ST_DEST_OK,
	ST_DEST_HOLD,
	ST_HOOK_HOLD,
	ST_DEST_USE,
	ST_PRUNE_DESTS,
	ST_PRUNE_DEST_USE,
	/* store_lobby.c */
	ST_TICKET_EXPIRE,
	ST_TICKET_INSERT,
	ST_TICKET_TAKE,
	ST_TICKET_GET,
	ST_TOKEN_INSERT,
	ST_TOKEN_USED,
	ST_TOKENS_LIST,
	ST_TOKENS_COUNT,
	ST_TOKEN_REVOKE,
	ST_GAME_LOBBY,
	ST_GAME_CANCEL,
	ST_SEAT_LEAVE,
	ST_GAME_SEAT_LEFT,
	ST_SEAT_BY_TOKEN_HASH,
	ST_SEAT_ATTACH,
	ST_GAME_SEATS_BUMP,
	/* store_upgrade.c */
	ST_MOVE_HASHES,
	ST_MOVE_HASH_FILL,
	ST_RULES_CHECK_GET,
	ST_RULES_CHECK_PUT,
	ST_GAME_RULES_MOVE,
	/* store_chat.c: chat, blocks, reports (sql/0022_chat.sql) */
	ST_CHAT_INSERT,
	ST_CHAT_AFTER,
	ST_CHAT_LAST,
	ST_CHAT_GET,
	ST_BLOCK_PUT,
	ST_BLOCK_DELETE,
	ST_BLOCKS_LIST,
	ST_BLOCKS_COUNT,
	ST_BLOCKED_EITHER,
	ST_BLOCKED_IN_GAME,
	ST_REPORT_INSERT,
	ST_REPORTS_AFTER,
	/* store_rematch.c: rematches (sql/0027_rematch.sql) */
	ST_REMATCH_OFFER,
	ST_REMATCH_DECLINE,
	ST_REMATCH_GET,
	ST_REMATCH_BLOCKED,
	ST_REMATCH_LINK,
	ST_REMATCH_OF,
	ST_EV_REMATCH,
	/* store_seeks.c: quick match (sql/0029_seeks.sql) */
	ST_SEEK_LOCK,
	ST_SEEK_OPEN_COUNT,
	ST_SEEK_SAME_POOL,
	ST_SEEK_INSERT,
	ST_SEEK_CANDIDATES,
	ST_SEEK_MATCH,
	ST_EV_SEEK_MATCHED,
	ST_SEEK_GET,
	ST_SEEK_CANCEL,
	ST_SEEK_KEY,
	ST_SEEKS_OPEN,
	ST_SEEKS_OF_PLAYER,
	ST_SEEKS_CANCEL_PLAYER,
	/* store_admin.c: boardd admin and a player's own data
	 * (sql/0024_admin.sql) */
	ST_ADMIN_PLAYERS,
	ST_ADMIN_PLAYER,
	ST_PLAYER_BAN,
	ST_PLAYER_UNBAN,
	ST_TOKENS_REVOKE_ALL,
	ST_ADMIN_LOG,
	ST_PLAYER_WAITING,
	ST_PLAYER_ACTIVE,
	ST_CHAT_BY_PLAYER,
	ST_REPORTS_BY_PLAYER,
	ST_ERASE_PLAYER,
	ST_ERASE_TOKENS,
	ST_ERASE_CHAT,
	ST_ERASE_BLOCKS,
	ST_ERASE_INVITES,
	ST_ERASE_DELIVERIES,
	ST_ERASE_PUSH_DELIVERIES,
	ST_ERASE_EVENTS,
	ST_ERASE_HORIZON,
	ST_ERASE_HOOK,
	ST_ERASE_PUSH,
	ST_ERASE_SEATS_BUMP,
	ST_ERASE_SEEKS,
	ST_ERASE_VACATIONS,
	ST_ERASE_VACATION_ACCOUNT,
	ST_PRUNE_CHAT,
	/* store_ratings.c (sql/0025_ratings.sql) */
	ST_GAME_UNRATED,
	ST_GAME_RATED,
	ST_RATING_MOVES_BY_SEAT,
	ST_RATING_GET,
	ST_RATING_PUT,
	ST_RATING_HISTORY_PUT,
	ST_RATINGS_OF_PLAYER,
	ST_LEADERBOARD_TOP,
	ST_LEADERBOARD_AFTER,
	ST_LEADERBOARD_ABOVE,
	ST_BOARD_ABOVE,
	ST_BOARD_ADD,
	ST_BOARD_SUB,
	ST_RATING_ONE,
	ST_RATING_HISTORY,
	/* store_mail.c: email over SMTP (sql/0028_mail.sql) */
	ST_MAIL_GET,
	ST_MAIL_CODES_BY_ADDR,
	ST_MAIL_CODES_BY_PLAYER,
	ST_MAIL_SET,
	ST_MAIL_CODE_SENT,
	ST_MAIL_DLV_DROP,
	ST_MAIL_DLV_CONFIRM,
	ST_MAIL_CODE_GET,
	ST_MAIL_CONFIRM,
	ST_MAIL_CODE_MISS,
	ST_MAIL_PREFS,
	ST_MAIL_DELETE,
	ST_MAIL_BY_TOKEN,
	ST_MAIL_UNSUBSCRIBE,
	ST_MAIL_DIGESTS_DUE,
	ST_MAIL_DIGEST_NEXT,
	ST_MAIL_DIGEST_QUEUE,
	ST_MAIL_WAITING,
	ST_MAIL_DLV_CLAIM,
	ST_MAIL_DLV_GET,
	ST_MAIL_DLV_NEXT,
	ST_MAIL_DLV_DONE,
	ST_MAIL_DLV_REQUEUE,
	ST_PRUNE_MAIL_DELIVERIES,
	ST_PRUNE_MAIL_OTHERS,
	ST_PRUNE_MAIL_CODES,
	ST_ERASE_MAIL_DELIVERIES,
	ST_ERASE_MAIL,
	ST_ERASE_MAIL_CODES,
	/* store_vacation.c: vacation (sql/0030_vacation.sql) */
	ST_VAC_LOCK,
	ST_VAC_ACCOUNT,
	ST_VAC_ACCOUNT_PUT,
	ST_VAC_CURRENT,
	ST_VAC_INSERT,
	ST_VAC_END,
	ST_VAC_BEGUN,
	ST_VAC_LAST,
	ST_VAC_LATEST_END,
	ST_VAC_POKE,
	ST_VAC_BUMP,
	ST_VAC_SEATS,
	ST_VAC_LIST,
	ST_GAME_DEADLINE,
	ST_GAME_SEATS_EXPIRE,
	ST_GAME_SEATS_UNTIL,
	/* store_links.c: finding players by name, link codes
	 * (sql/0031_link_codes.sql) */
	ST_PLAYERS_BY_NAME,
	ST_PLAYER_BY_KEY,
	ST_LINK_PRUNE,
	ST_LINK_COUNT,
	ST_LINK_INSERT,
	ST_LINK_CLAIM,
	ST_ERASE_LINK_CODES,
	ST_COUNT
};

/* The columns of a game row, as each driver's GAME_COLS (driver_sqlite.c,
 * driver_pg.c) selects them and store__game_read reads them. */
enum game_col {
	GC_KEY,
	GC_ID,
	GC_RULES_ID,
	GC_RULES_VERSION,
	GC_SEATS,
	GC_SEED,
	GC_OPTIONS,
	GC_SETUP,
	GC_STATUS,
	GC_SEQ,
	GC_TO_ACT,
	GC_RESULT,
	GC_CREATED_MS,
	GC_UPDATED_MS,
	GC_OPEN_SEATS,
	GC_BOT_SEATS,
	GC_BOTS,
	GC_CLOCK,
	GC_CLOCK_STATE,
	GC_DEADLINE_MS,
	GC_SEATS_VERSION,
	GC_SEED_FORMAT,
	GC_SECRET,
	GC_SALT,
	GC_IMPORTED,
	GC_CREATOR_KEY,
	GC_CREATOR_ADDR,
	GC_REMATCH_SEATS,
	GC_REMATCH_BY,
	GC_REMATCH,
	GC_REMATCH_OF,
	GC_SEATS_UNTIL,
	GC_COUNT /* the first column after GAME_COLS */
};

/* ---- SQL that both drivers' statement texts share (store_sql.c's
 * store__sql, driver_sqlite.c's lite_sql, driver_pg.c's pg_sql) ---- */

/* A game that is not gone: a waiting game nobody touched since the
 * cutoff `cut` (store__waiting_cutoff) is expired, and one its creator
 * cancelled is as an expired one.  `g` is the games table's alias and a
 * dot, or "". */
#define VISIBLE(g, cut)                                                        \
	"NOT (" g "status = 'waiting' AND (" g "updated_ms < " cut " OR " g    \
	"cancelled_ms IS NOT NULL))"

/* The deadline.soon lead (store.h) as SQL. */
#define STR_(x)          #x
#define STR(x)           STR_(x)
#define CLOCK_SOON_CAP   STR(STORE_SOON_CAP_MS)
#define CLOCK_SOON_SHARE STR(STORE_SOON_SHARE)
/* A webhook's columns, in the order store_events.c's read_hook reads
 * them (w: the webhooks table). */
#define HOOK_COLS                                                              \
	"w.url, w.secret, w.created_ms, w.player_key, w.sealed, "              \
	"coalesce(w.disabled_ms, 0), coalesce(w.disabled_why, ''), w.dest"

/* The events store_events_prune deletes (?1 cutoff, ?2 limit): old, and
 * with no delivery still to be made. */
#define PRUNABLE                                                               \
	"SELECT key FROM events e WHERE created_ms < ?1 AND NOT EXISTS "       \
	"(SELECT 1 FROM deliveries d WHERE d.event_key = e.key AND "           \
	"d.state = 'pending') AND NOT EXISTS (SELECT 1 FROM push_deliveries "  \
	"p WHERE p.event_key = e.key AND p.state = 'pending') "                \
	"AND NOT EXISTS (SELECT 1 FROM mail_deliveries m WHERE "               \
	"m.event_key = e.key AND m.state = 'pending') ORDER BY key LIMIT ?2"

/* The deliveries in flight to webhook w's destination (?1 now: a lease
 * that ended is no longer in flight), and its breaker's row (ds). */
#define DEST_IN_FLIGHT                                                         \
	"(SELECT count(*) FROM deliveries f JOIN webhooks fw ON "              \
	"fw.player_key = f.player_key WHERE f.in_flight = 1 AND "             \
	"f.state = 'pending' AND f.next_ms > ?1 AND fw.dest = w.dest)"

/* A destination's use (table destination_use, u; sql/0021): the time its
 * attempts held a worker, ms, draining at 1/DEST_USE_DRAIN of real time
 * since u.at_ms, never below 0; at `now` (an SQL expression, unix ms).
 * A destination with no row has used none. */
#define DEST_USE_DRAIN "16"
#define DEST_USE_MAX   "600000" /* most busy_ms kept: 10 min */
#define DEST_USE_AT(now)                                                       \
	"CASE WHEN u.busy_ms > (" now " - u.at_ms) / " DEST_USE_DRAIN          \
	" THEN u.busy_ms - (" now " - u.at_ms) / " DEST_USE_DRAIN              \
	" ELSE 0 END"

/* The due deliveries store_delivery_claim may take (?1 now, ?3 cap of a
 * destination with no failure, ?4 cap of one with failures, ?5 whether
 * one with failures may be taken): its breaker closed, or open no longer
 * (half open) when ?5; fewer in flight there than its cap.  The
 * destination that used the least time lately first (DEST_USE_AT: so no
 * set of busy destinations, however fast each attempt, holds the workers
 * while a lighter one has work), and within one, due first.  Only each
 * webhook's first due delivery is a candidate (fd, read from the index
 * deliveries_pending_by_player, sql/0021): the caps and the order are
 * per destination, so the first of the candidates is the first of all,
 * and a long backlog is not sorted at every claim. */
#define DLV_CLAIMABLE                                                          \
	"SELECT d.event_key FROM (SELECT player_key, min(next_ms) AS next_ms " \
	"FROM deliveries WHERE state = 'pending' AND next_ms <= ?1 GROUP BY "  \
	"player_key) fd JOIN webhooks w ON w.player_key = fd.player_key "      \
	"JOIN deliveries d ON d.player_key = fd.player_key AND "               \
	"d.state = 'pending' AND d.next_ms = fd.next_ms "                      \
	"LEFT JOIN destinations ds ON ds.dest = w.dest "                       \
	"LEFT JOIN destination_use u ON u.dest = w.dest "                      \
	"WHERE (ds.dest IS NULL OR (?5 <> 0 AND ds.open_until_ms <= ?1)) "     \
	"AND " DEST_IN_FLIGHT " < CASE WHEN ds.dest IS NULL THEN ?3 ELSE ?4 "  \
	"END ORDER BY CASE WHEN u.dest IS NULL THEN 0 ELSE " DEST_USE_AT(      \
	    "?1") " END, d.next_ms"

/* The Web Push delivery that its destination's share allows (?1 now,
 * ?3 per_dest, ?4 per_failing, ?5 failing_ok: as DLV_CLAIMABLE's), a
 * breaker still open holding its destination back
 * (push_deliveries.dest is the subscription's "host:port"); of the
 * destinations with one due, the one that used the least (as
 * DLV_CLAIMABLE), then the one due first. */
#define PUSH_CLAIMABLE                                                         \
	"SELECT d.key FROM push_deliveries d LEFT JOIN destinations ds ON "    \
	"ds.dest = d.dest LEFT JOIN destination_use u ON u.dest = d.dest "     \
	"WHERE d.state = 'pending' AND d.next_ms <= ?1 AND "                   \
	"(ds.dest IS NULL OR (?5 <> 0 AND ds.open_until_ms <= ?1)) AND "       \
	"(SELECT count(*) FROM push_deliveries f WHERE f.dest = d.dest AND "   \
	"f.in_flight = 1 AND f.state = 'pending' AND f.next_ms > ?1) < CASE "  \
	"WHEN ds.dest IS NULL THEN ?3 ELSE ?4 END ORDER BY CASE WHEN u.dest "  \
	"IS NULL THEN 0 ELSE " DEST_USE_AT("?1") " END, d.next_ms"

/* The mail delivery the SMTP server's share allows (as PUSH_CLAIMABLE,
 * on mail_deliveries: every mail's dest is 'smtp', one destination). */
#define MAIL_CLAIMABLE                                                         \
	"SELECT d.key FROM mail_deliveries d LEFT JOIN destinations ds ON "    \
	"ds.dest = d.dest LEFT JOIN destination_use u ON u.dest = d.dest "     \
	"WHERE d.state = 'pending' AND d.next_ms <= ?1 AND "                   \
	"(ds.dest IS NULL OR (?5 <> 0 AND ds.open_until_ms <= ?1)) AND "       \
	"(SELECT count(*) FROM mail_deliveries f WHERE f.dest = d.dest AND "   \
	"f.in_flight = 1 AND f.state = 'pending' AND f.next_ms > ?1) < CASE "  \
	"WHEN ds.dest IS NULL THEN ?3 ELSE ?4 END ORDER BY CASE WHEN u.dest "  \
	"IS NULL THEN 0 ELSE " DEST_USE_AT("?1") " END, d.next_ms"

/* A delivery's columns, in the order store_events.c reads them. */
#define DLV_COLS                                                               \
	"e.key, e.id, e.type, e.data, e.created_ms, d.state, d.attempts, "     \
	"d.next_ms, coalesce(d.last_ms, 0), coalesce(d.last_status, 0), "      \
	"coalesce(d.last_error, '')"

/* The body of a write unit, run inside a batch's transaction on the
 * write connection.  Negative rolls its unit back. */
struct conn;
typedef int (*tx_fn)(struct conn *c, void *ctx);

struct store_driver; /* driver.h */

#define STORE_NODE_LEN 16 /* hex digits of a node id */

/* One pooled connection, of the store's driver. */
struct conn {
	const struct store_driver *drv; /* the store's (driver.h) */
	void *h;                        /* the driver's handle (driver_*.c),
	                                   NULL until connected */
	const char *const *sql;         /* the store's statement texts
	                                   (s->sql), indexed by enum stmt */
	int checked_out; /* 1 while a call holds it; under s->mu */
	atomic_uint_fast64_t runs; /* statements run on it (store_counts),
	                              added by its one user, read by any */
	int64_t touched[64]; /* players the open transaction concerns
	                        (store_events.c), told after its commit */
	int ntouched;        /* entries in touched */
};

/* One write waiting for, or in, a batch (store__write_tx; store.h's
 * "Group commit").  Lives on its caller's stack; the caller sleeps on its
 * own cv until state is WR_DONE, or until it is the oldest queued write
 * and the leader left (then it leads).  One condition variable per write
 * (not one for all): a batch's end wakes only its own callers and the
 * next leader, not every queued thread. */
struct write_req {
	pthread_cond_t cv;                           /* its caller waits here */
	tx_fn fn;                                    /* its unit's body */
	void *ctx;                                   /* fn's */
	enum { WR_QUEUED, WR_TAKEN, WR_DONE } state; /* under q_mu */
	int rc;                 /* its answer, once WR_DONE */
	struct write_req *next; /* the queue, or the batch */
	int64_t touched[64]; /* the players its unit noted (store_events.c) */
	int ntouched;
};

struct store {
	pthread_mutex_t mu;   /* guards every conns[i].checked_out, and
	                         conns[i].h while it is not checked out */
	pthread_cond_t freed; /* signalled when a connection is checked in */
	/* Writes: batched by one leader at a time, on their own connection,
	 * so that readers (the pool, WAL snapshots) never wait for a writer
	 * or its lock (store.h, "Group commit"). */
	pthread_mutex_t q_mu;    /* guards the queue, leading, stats, and
	                            every write_req's state; never held over
	                            SQL or a listener */
	pthread_condattr_t q_ca; /* each write_req's cv: CLOCK_MONOTONIC
	                         waits */
	struct write_req *q_head, **q_tail; /* queued writes, oldest first */
	int leading;                        /* 1 while a leader runs a batch */
	struct store_write_stats stats;     /* under q_mu */
	struct conn writer;                 /* used only by the leader */
	int write_wait_ms; /* longest a write waits for the locks */
	struct timespec write_deadline; /* CLOCK_MONOTONIC: the current
	                                   batch's, leader only */
	atomic_int lock_waiting;   /* 1: the writer waits for a lock another
	                              process holds; new writes do not queue
	                              (set by the driver's busy wait) */
	atomic_int space_out;      /* 1: the last write found no space (507) */
	const struct store_driver *drv; /* chosen by store_open (driver.h) */
	void *ds;                  /* the driver's store-wide state, or NULL */
	const char *sql[ST_COUNT]; /* the statement texts the connections
	                              run: the driver's own, else
	                              store__sql's (static strings) */
	char *path;                /* the database file's path (SQLite) or
	                              libpq connection string, malloc'd */
	char node[STORE_NODE_LEN + 1]; /* a shared driver's: this store's
	                                  random node id, lowercase hex;
	                                  else "" */
	int nconns;                /* pool size, >= 1 */
	struct store_config cfg;   /* store_open's, for the read connections
	                              opened at their first checkout
	                              (store_pool.c): path is s->path,
	                              secret_key NULL */
	atomic_uint_fast64_t checkouts; /* connections taken from the pool
	                                   (store_counts) */
	store_change_fn on_change; /* store_on_change's listener, or NULL;
	                              under mu */
	void *on_change_ctx;       /* its context */
	int64_t waiting_expire_ms; /* store_config's, 0: never */
	unsigned waiting_per_player;       /* store_config's, 0: no cap */
	unsigned waiting_per_addr;         /* store_config's, 0: no cap */
	unsigned bot_games_per_player;     /* store_config's, 0: no cap */
	uint8_t secret_key[STORE_KEY_LEN]; /* seals webhook secrets */
	struct conn conns[];               /* the pool: reads */
};

/* A value to bind to a statement parameter. */
struct arg {
	enum { ARG_I64, ARG_TEXT, ARG_BLOB } type; /* which field is set */
	int64_t i;                                 /* ARG_I64 */
	const void *p; /* ARG_TEXT (NULL binds NULL) or ARG_BLOB */
	int n;         /* ARG_BLOB: bytes at p */
};

#define A_I64(v)       ((struct arg){.type = ARG_I64, .i = (int64_t)(v)})
#define A_TEXT(s)      ((struct arg){.type = ARG_TEXT, .p = (s)})
#define A_BLOB(b, len) ((struct arg){.type = ARG_BLOB, .p = (b), .n = (len)})
/* A NULL of a blob column: PostgreSQL types its parameter bytea. */
#define A_NULL_BLOB ((struct arg){.type = ARG_BLOB, .p = NULL, .n = 0})
/* An argument list and its length, as two function arguments. */
#define ARGS(...)                                                              \
	(const struct arg[]){__VA_ARGS__},                                     \
	    (int)(sizeof((const struct arg[]){__VA_ARGS__}) /                  \
	          sizeof(struct arg))
#define NO_ARGS NULL, 0

/* One row of a statement's result, as a row_fn sees it; read it with
 * store__col_* (what they return lives until the row_fn returns).
 * Columns count from 0.  A driver's row starts with this struct, its
 * own fields after (driver_sqlite.c's lite_row, driver_pg.c's pg_row). */
struct row {
	const struct store_driver *drv; /* whose row it is */
};

/* A column as an integer: NULL reads 0, a boolean 1 or 0. */
int64_t store__col_i64(const struct row *r, int col);
int store__col_int(const struct row *r, int col);
/* A column as NUL-terminated text, NULL for NULL (or out of memory). */
const char *store__col_text(const struct row *r, int col);
/* A blob column's bytes (NULL for NULL or an empty blob); their number
 * is store__col_bytes, to call after store__col_blob (as SQLite asks). */
const void *store__col_blob(const struct row *r, int col);
int store__col_bytes(const struct row *r, int col);
/* 1 if the column is NULL. */
int store__col_null(const struct row *r, int col);
/* The number of columns of the row. */
int store__col_count(const struct row *r);

/* Rows the last INSERT, UPDATE or DELETE run on c changed. */
int64_t store__changes(const struct conn *c);

/* 1 while c has a transaction open (on PostgreSQL also one a failed
 * statement aborted, which ROLLBACK TO a savepoint can still save). */
int store__in_tx(const struct conn *c);

/* Called for each row a statement returns; 0 goes on, negative stops. */
typedef int (*row_fn)(const struct row *st, void *ctx);

/* A single integer column 0, and whether a row held it. */
struct one_i64 {
	int found; /* 1 once a row was read */
	int64_t v; /* column 0 of that row */
};

/* Runs statement `id` of c with arguments a[0..n) to completion, calling
 * fn (if not NULL) on each row, then resets it and clears its bindings.
 * Returns 0, fn's negative code, or a bd_err. */
int store__run(struct conn *c, enum stmt id, const struct arg *a, int n,
               row_fn fn, void *ctx);

/* The statement texts both drivers run as they are (store_sql.c); NULL
 * where each driver has its own. */
extern const char *const store__sql[ST_COUNT];

/* SQLite's text of statement `id` (static), for EXPLAIN QUERY PLAN in
 * tests/unit/test_store.c: the listings must stay indexed. */
const char *store__stmt_sql(enum stmt id);

/* Rates game `key`, whose last move this transaction has just written,
 * as *rg says its seats placed (store_ratings.c; struct store_move's
 * rating), at `now_ms`.  0 also when the game is not rated. */
int store__rate_game(struct conn *c, int64_t key,
                     const struct store_rating_game *rg, int64_t now_ms);

/* store_token_add's work on c, inside the caller's transaction
 * (store_lobby.c; store_links.c's claim adds one too): the same errors. */
int store__token_add(struct conn *c, int64_t player_key,
                     const struct store_token *t,
                     const uint8_t hash[STORE_TOKEN_HASH_LEN]);

/* row_fn reading column 0 into a struct one_i64. */
int store__read_i64(const struct row *st, void *ctx);

/* A per-key callback (store.h's store_key_fn) and its context. */
struct store_keys {
	store_key_fn fn; /* called per key, in row order */
	void *ctx;       /* its context */
};

/* row_fn calling x->fn on column 0 (a key) of each row, x a struct
 * store_keys; a negative answer stops the statement with that code. */
int store__read_key(const struct row *st, void *ctx);

/* Runs the SQL text sql (one integer column, one row) on c, a statement
 * outside the table (store_ops.c's probes), into *v.  0, or a bd_err. */
int store__query_i64(struct conn *c, const char *sql, int64_t *v);

/* Runs statement `id` for one integer (column 0 of its first row): *v on
 * a hit, BD_ENOTFOUND when it returns no row. */
int store__lookup_i64(struct conn *c, enum stmt id, const struct arg *a, int n,
                      int64_t *v);

/* Unix time in milliseconds. */
int64_t store__now_ms(void);

/* A waiting game last touched before this unix time (ms) is expired:
 * no longer read, listed, joined or counted.  INT64_MIN when waiting
 * games never expire. */
int64_t store__waiting_cutoff(const struct store *s);

/* The int64 with the bit pattern of u: how SQLite stores a uint64. */
int64_t store__u64_bits(uint64_t u);

/* Copies text column col into buf; BD_EINTERNAL if it does not fit. */
int store__col_copy(const struct row *st, int col, char *buf, size_t len);

/* Copies text column col (NULL: NULL) into a malloc'd *out. */
int store__col_strdup(const struct row *st, int col, char **out);

/* Reads a GAME_COLS row into *g (caller releases, even on failure). */
int store__game_read(const struct row *st, struct store_game *g);

/* The calling thread's pinned connection of s (store_pin) when it has one
 * and no call holds it; else takes a free pooled connection, blocking
 * until one is free.  store__checkin gives a pooled one back and keeps a
 * pinned one for the next call. */
struct conn *store__checkout(struct store *s);
void store__checkin(struct store *s, struct conn *c);

/* After a batch's COMMIT, on the leader: tells the change listener
 * about the n players keys[0..n) a committed unit noted, in order.  The
 * listener runs with no store lock held (the leader role only; store_pool.c).
 * Also what store_listen hands a shared driver's listener, for other
 * nodes' changes. */
void store__changes_tell(struct store *s, const int64_t *keys, int n);

/* Runs fn as one unit (a SAVEPOINT) of a batch: one BEGIN IMMEDIATE
 * transaction on the write connection holding the units of the writes
 * that were queued together (store.h, "Group commit").  fn's writes are
 * kept only if it returns 0, and are durable when this returns 0: it
 * returns only after the COMMIT that holds them.  All of it or nothing:
 * a negative fn rolls back its unit alone; a failed COMMIT fails every
 * unit of the batch.  Waits at most write_wait_ms to be taken into a
 * batch (BD_EBUSY); BD_EUNAVAILABLE if the file was deleted or
 * replaced; BD_ENOSPACE if the disk or the file size limit is full.
 * fn runs on the leader's thread (maybe not the caller's), with no
 * store lock held; it must use only c and ctx. */
int store__write_tx(struct store *s, tx_fn fn, void *ctx);

/* store_seat_for_token on connection c (a read's, or the write
 * connection inside a transaction; store_players.c). */
int store__seat_for_token(struct conn *c, int64_t key,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat);

/* At store_open, after the migrations (store_events.c): seals the webhook
 * secrets stored clear, and checks that s->secret_key opens the sealed
 * ones.  0, or a bd_err with a sentence in err. */
int store__hooks_seal(struct store *s, char *err, size_t errlen);

/* Inside a write transaction: sets game `key`'s first deadline if it is
 * a timed game that has just started (active, nobody moved yet); else
 * changes nothing. */
int store__clock_start(struct conn *c, int64_t key);

/* Inside a write transaction: game `key`'s players changed (it began, or
 * a seat became a player's), so its view may show a vacation one of them
 * is taking already: sets games.seats_until_ms to when the first ends
 * (sql/0032_seats_until.sql), so that the view changes then
 * (store_game_seats_expire).  Nothing for a game without a clock or not
 * active. */
int store__seats_until(struct conn *c, int64_t key);

/* store_move_append's vacation check of a timeout (struct store_move's
 * vac_player, vac_last, vac_start), in its transaction: BD_ESTALE if the
 * player's latest vacation is no longer vac_last; else *began = 1 if an
 * automatic vacation began (0: the timeout goes on: auto off, none left,
 * or a vacation of the player's ends after vac_start, the deadline: it
 * began after it, and one after it could not move it). */
int store__vacation_check(struct conn *c, const struct store_move *m,
                          int *began);

/* Inside a write transaction: records idem (NULL: nothing).  BD_EREPLAY
 * if its scope is already there. */
int store__idem_put(struct conn *c, const struct store_idem *idem);

/* ---- events (store_events.c) ---- */

/* A game's state before a write, as store__events_after compares it. */
struct ev_before {
	int active;      /* 1: the game was "active" */
	int finished;    /* 1: it was "finished" */
	unsigned to_act; /* the seats that were to act */
};

/* Inside a write transaction, before game `key` changes: its state.
 * BD_ENOTFOUND if there is no such game. */
int store__events_before(struct conn *c, int64_t key, struct ev_before *b);

/* Inside the same transaction, after game `key` changed from *b (NULL: it
 * was just created, with its invitations): writes the events store.h
 * lists and notes the game's players for the change listener. */
int store__events_after(struct conn *c, int64_t key, const struct ev_before *b);

/* Inside a write transaction: store_game_create's unit (its seats, clock,
 * secret, creator and events) without an idempotency record; *key gets
 * the new row's key.  BD_ECONFLICT if g->id is taken. */
int store__game_insert(struct conn *c, struct store *s,
                       const struct store_game *g,
                       const struct store_seat *seats, int64_t *key);

/* Inside a write transaction: notes every player of game `key` (seated
 * or invited) for the change listener. */
int store__note_game(struct conn *c, int64_t key);

/* Inside a write transaction: notes player `player_key` for the change
 * listener (as store__events_after notes a game's players). */
void store__note_player(struct conn *c, int64_t player_key);

/* Inside a write transaction: how destination `dest` ("host:port"; NULL
 * or "": nothing is done) answered an attempt that held a worker busy_ms:
 * its breaker (with b; NULL: left as it is) and its use
 * (destination_use).  *until gets when its breaker is open until (unix
 * ms), 0 if it is not open.  Shared by webhook and Web Push deliveries. */
int store__dest_record(struct conn *c, const char *dest,
                       enum store_dest_answer answer, int64_t busy_ms,
                       const struct store_breaker *b, int64_t now,
                       int64_t *until);


#endif
