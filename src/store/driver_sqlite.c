/* driver_sqlite.c: the SQLite driver of the store (driver.h's table,
 * store_driver_sqlite), and SQLite's statement texts where its dialect
 * differs from store_sql.c's common ones (lite_sql).
 *
 * Design (engineering.md §3): a pool of connections opened NOMUTEX, each
 * used by one thread at a time between checkout and checkin, each with its
 * own cache of persistent prepared statements.  WAL journal; every
 * read-then-write transaction starts with BEGIN IMMEDIATE so busy_timeout
 * is honoured instead of failing with SQLITE_BUSY_SNAPSHOT.  The schema is
 * sql/NNNN_*.sql, embedded as store_migrations[] and applied in one
 * transaction that also sets PRAGMA user_version.  One process owns a
 * file (store_config.exclusive's lock): no leases; listening is reading
 * the table outside_changes that `boardd admin` (store_config.outside)
 * fills beside the owner (lite_listen).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include <sodium.h>
#include <sqlite3.h>

#include "../common/log.h"
#include "driver.h"
#include "migrations.h"
#include "store_int.h"

/* PRAGMA application_id of our files: 'brdd'.  A file with another
 * non-zero id belongs to another program and is refused untouched. */
#define STORE_APPLICATION_ID 0x62726464

/* PRAGMA journal_size_limit: the WAL file is truncated back to this size
 * after a checkpoint, so a burst of writes does not keep disk forever. */
#define STORE_JOURNAL_LIMIT (8 * 1024 * 1024)

/* The columns of a game row, in the order of enum game_col (store_int.h).
 * The last two read the game's bot seats (a bit set, and a JSON array of
 * {"seat":n, "bot":spec}) from the seats table, in seat order (the
 * seats_by_bot index's).  `key` in them is the game's: no table they name has a
 * column of that name, so it resolves to the outer query's games row. */
#define GAME_COLS                                                              \
	"key, id, rules_id, rules_version, seats, seed, options, setup, "      \
	"status, seq, to_act, result, created_ms, updated_ms, open_seats, "    \
	"(SELECT coalesce(sum(1 << b.seat), 0) FROM seats b "                  \
	"WHERE b.game_key = key AND b.bot IS NOT NULL), "                      \
	"(SELECT json_group_array(json_object('seat', b.seat, 'bot', "         \
	"json(b.bot))) FROM seats b WHERE b.game_key = key AND "               \
	"b.bot IS NOT NULL), clock, clock_state, deadline_ms, seats_version, " \
	"seed_format, secret, salt, imported, coalesce(creator_player, 0), " \
	"coalesce(creator_addr, ''), coalesce(rematch_seats, 0), "            \
	"coalesce(rematch_by, -1), coalesce(rematch, ''), "                   \
	"coalesce(rematch_of, ''), coalesce(seats_until_ms, 0)"

/* The players of game `gk` (an SQL expression of its key) as a lobby
 * listing shows them: a JSON array of {seat, open, player ({id, name} or
 * null), invited (a player id or null), bot (its spec or null)} in seat
 * order (the seats primary key's). */
#define PLAYERS_JSON(gk)                                                       \
	"(SELECT json_group_array(json_object('seat', z.seat, 'open', "        \
	"json(CASE WHEN z.open THEN 'true' ELSE 'false' END), 'player', "      \
	"json(CASE WHEN p.id IS NULL THEN 'null' ELSE json_object('id', "      \
	"p.id, 'name', p.name) END), 'invited', CASE WHEN z.open THEN i.id "   \
	"END, 'bot', "                                                         \
	"json(coalesce(z.bot, 'null')))) FROM seats z "                        \
	"LEFT JOIN players p ON p.key = z.player_key "                         \
	"LEFT JOIN players i ON i.key = z.invited WHERE z.game_key = " gk ")"

/* Every listing binds ?1 status, ?2 rules_id, ?3 before_key, ?4 limit; a
 * statement that has no filter simply leaves ?1 or ?2 unused.  Separate
 * statements (rather than "?1 IS NULL OR ...") let each use its index. */
#define LIST_SQL(filter)                                                       \
	"SELECT " GAME_COLS ", " PLAYERS_JSON(                                 \
	    "games.key") " FROM games WHERE key < ?3" filter                   \
	                 " AND " VISIBLE(                                      \
	                     "", "?5") " AND NOT (status = 'waiting' AND NOT " \
	                               "EXISTS (SELECT 1 FROM seats o "        \
	                               "WHERE o.game_key = games.key AND "     \
	                               "o.open = 1 AND o.invited IS NULL))"    \
	                               " ORDER BY key DESC LIMIT ?4"

/* An event's data (store.h): public facts of game g for seat s. */
#define EV_DATA                                                                \
	"json_object('game_id', g.id, 'game', g.rules_id, 'seq', g.seq, "      \
	"'seat', s.seat, 'status', g.status, 'result', json(g.result))"

/* A seat's time for a decision that begins when a timed game starts
 * (sql/0006_clocks.sql), and the deadline.soon lead (store.h,
 * STORE_SOON_CAP_MS and STORE_SOON_SHARE) as SQL. */
#define CLOCK_ALLOWED                                                          \
	"(json_extract(clock, '$.move_ms') + json_extract(clock, "             \
	"'$.bank_ms'))"

/* Unix ms as RFC 3339 UTC with milliseconds, as service/json.c's
 * svc__iso_time writes it (integer arithmetic: no float rounding); NULL
 * stays NULL. */
#define ISO_MS(x)                                                              \
	"(strftime('%Y-%m-%dT%H:%M:%S', (" x ") / 1000, 'unixepoch') || "      \
	"printf('.%03dZ', (" x ") % 1000))"

/* Seat s.seat's deadline in game g (unix ms) after its last change, NULL
 * when it has none: sql/0006_clocks.sql's stored forms (clock_state NULL:
 * nobody moved yet, every seat to act began at updated_ms). */
#define SEAT_DEADLINE                                                          \
	"(CASE WHEN g.clock IS NULL OR g.open_seats > 0 THEN NULL "            \
	"WHEN g.clock_state IS NULL THEN g.updated_ms + "                      \
	"json_extract(g.clock, '$.move_ms') + "                                \
	"json_extract(g.clock, '$.bank_ms') "                                  \
	"ELSE nullif(json_extract(g.clock_state, '$.since[' || s.seat || "     \
	"']'), 0) + json_extract(g.clock, '$.move_ms') + "                     \
	"json_extract(g.clock_state, '$.bank[' || s.seat || ']') END)"

/* Seat s.seat's remaining bank (ms), NULL for a clock without one. */
#define SEAT_BANK                                                              \
	"(CASE WHEN json_extract(g.clock, '$.bank_ms') > 0 THEN "              \
	"coalesce(json_extract(g.clock_state, '$.bank[' || s.seat || ']'), "   \
	"json_extract(g.clock, '$.bank_ms')) END)"

/* The statements SQLite runs in its own text; NULL: store_sql.c's. */
static const char *const lite_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = ?1 "
                    "AND " VISIBLE("", "?2"),
    [ST_GAME_BY_KEY] = "SELECT " GAME_COLS " FROM games WHERE key = ?1",
    /* A cancelled game takes no move (store_game_cancel) */
    [ST_GAME_SEQ] = "SELECT seq FROM games WHERE key = ?1 "
                    "AND cancelled_ms IS NULL",
    [ST_LIST_ALL] = LIST_SQL(""),
    [ST_LIST_STATUS] = LIST_SQL(" AND status = ?1"),
    [ST_LIST_RULES] = LIST_SQL(" AND rules_id = ?2"),
    [ST_LIST_BOTH] = LIST_SQL(" AND status = ?1 AND rules_id = ?2"),
    /* The page's seats first, ordered and limited on cheap columns (the
     * player's seats by index, their games by key); only then the
     * listing's columns (the bots, the players' JSON) for the page's
     * rows: a player with many games pays their sort, not their JSON. */
    [ST_PLAYER_GAMES] =
        "SELECT " GAME_COLS ", x.seat, x.invitation, " PLAYERS_JSON(
            "g.key") " FROM (SELECT s.game_key AS gk, s.seat AS seat, "
                     "s.player_key IS NULL AS invitation, g.updated_ms AS u "
                     "FROM seats s JOIN games g ON g.key = s.game_key "
                     "WHERE (s.player_key = ?1 OR (s.invited = ?1 AND "
                     "s.open = 1 AND NOT EXISTS (SELECT 1 FROM seats m "
                     "WHERE m.game_key = s.game_key AND m.player_key = ?1))) "
                     "AND (?2 IS NULL OR g.status = ?2) "
                     "AND (?3 = 0 OR (g.status = 'active' AND (g.to_act >> "
                     "s.seat) & 1)) "
                     "AND (g.updated_ms < ?4 OR (g.updated_ms = ?4 AND g.key < "
                     "?5)) "
                     "AND " VISIBLE("g.", "?7") " "
                                                "ORDER BY g.updated_ms DESC, "
                                                "g.key DESC LIMIT ?6) x "
                                                "JOIN games g ON g.key = x.gk "
                                                "ORDER BY x.u DESC, x.gk DESC",
    /* ?1 game, ?2 type, ?3 seat mask, ?4 now */
    [ST_EV_SEATED] =
        "INSERT INTO events (id, player_key, game_key, type, "
        "data, created_ms) "
        "SELECT 'evt_' || lower(hex(randomblob(12))), "
        "s.player_key, g.key, ?2, CASE WHEN ?2 = 'turn' "
        "THEN json_insert(" EV_DATA ", '$.deadline', " ISO_MS(
            SEAT_DEADLINE) ", '$.bank_ms', " SEAT_BANK ") ELSE " EV_DATA
                           " END, ?4 "
                           "FROM seats s JOIN games g ON g.key = s.game_key "
                           "WHERE s.game_key = ?1 AND s.player_key IS NOT NULL "
                           "AND (?3 >> s.seat) & 1 ORDER BY s.seat",
    [ST_EV_INVITED] = "INSERT INTO events (id, player_key, game_key, type, "
                      "data, created_ms) "
                      "SELECT 'evt_' || lower(hex(randomblob(12))), "
                      "s.invited, g.key, 'invited', " EV_DATA ", ?2 "
                      "FROM seats s JOIN games g ON g.key = s.game_key "
                      "WHERE s.game_key = ?1 AND s.open = 1 "
                      "AND s.invited IS NOT NULL ORDER BY s.seat",
    /* ?1 pool: SQLite's one writer serialises the seeks already (true,
     * as driver_pg.c's when it took the lock) */
    [ST_SEEK_LOCK] = "SELECT length(?1) > 0",
    /* the write transaction holds the database */
    [ST_VAC_LOCK] = "SELECT key FROM players WHERE key = ?1",
    /* ?1 pool, ?2 now, ?3 the seeker, ?4 its rating, ?5 ?6 its bounds:
     * the oldest open seeks of others compatible with it (its rating in
     * their bounds and theirs in its, no block either way: seeks that
     * fit nobody must not fill the 64) */
    [ST_SEEK_CANDIDATES] = "SELECT key, player_key, rating, rating_min, "
                           "rating_max FROM seeks WHERE pool = ?1 AND "
                           "state = 'open' AND expires_ms > ?2 AND "
                           "player_key <> ?3 AND rating_min <= ?4 AND "
                           "rating_max >= ?4 AND rating BETWEEN ?5 AND ?6 "
                           "AND NOT EXISTS (SELECT 1 FROM blocks b WHERE "
                           "(b.player_key = ?3 AND b.blocked_key = "
                           "seeks.player_key) OR (b.player_key = "
                           "seeks.player_key AND b.blocked_key = ?3)) "
                           "ORDER BY key LIMIT 64",
    /* ?1 the new game's id, ?2 now: a "seek.matched" event to each
     * player of its seeks */
    [ST_EV_SEEK_MATCHED] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT 'evt_' || lower(hex(randomblob(12))), "
        "k.player_key, g.key, 'seek.matched', json_insert(" EV_DATA
        ", '$.seek', k.id), ?2 FROM seeks k JOIN games g ON g.id = k.game "
        "JOIN seats s ON s.game_key = g.key AND s.player_key = "
        "k.player_key WHERE k.game = ?1 ORDER BY s.seat",
    /* ?1 game, ?2 the seat that acted, ?3 now: a "rematch" event to
     * each player seated in the game (store.h, "rematches") */
    [ST_EV_REMATCH] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT 'evt_' || lower(hex(randomblob(12))), "
        "s.player_key, g.key, 'rematch', json_insert(" EV_DATA
        ", '$.rematch', json_object('state', CASE WHEN g.rematch IS NOT "
        "NULL THEN 'started' WHEN g.rematch_seats IS NULL THEN 'declined' "
        "ELSE 'offered' END, 'offered_by', g.rematch_by, 'accepted', "
        "json((SELECT json_group_array(seat) FROM (SELECT a.seat FROM "
        "seats a WHERE a.game_key = g.key AND ((coalesce(g.rematch_seats, "
        "0) >> a.seat) & 1) <> 0 ORDER BY a.seat))), 'game', g.rematch, "
        "'by', ?2)), ?3 FROM seats s JOIN games g ON g.key = s.game_key "
        "WHERE s.game_key = ?1 AND s.player_key IS NOT NULL ORDER BY "
        "s.seat",
    /* ?1 game, ?2 the seat just taken, ?3 now: to the players seated
     * before, while the game still waits for others */
    [ST_EV_SEAT_TAKEN] = "INSERT INTO events (id, player_key, game_key, "
                         "type, data, created_ms) "
                         "SELECT 'evt_' || lower(hex(randomblob(12))), "
                         "s.player_key, g.key, 'seat.taken', " EV_DATA
                         ", ?3 FROM seats s JOIN games g ON "
                         "g.key = s.game_key WHERE s.game_key = ?1 AND "
                         "s.open = 0 AND s.player_key IS NOT NULL AND "
                         "s.seat <> ?2 AND g.status = 'waiting' "
                         "ORDER BY s.seat",
    /* ?1 game, ?2 seat, ?3 deadline ms, ?4 now */
    [ST_EV_DEADLINE] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT 'evt_' || lower(hex(randomblob(12))), "
        "s.player_key, g.key, 'deadline.soon', json_insert(" EV_DATA
        ", '$.deadline', " ISO_MS(
            "?3") ", '$.bank_ms', " SEAT_BANK
                  "), ?4 FROM seats s JOIN games g ON g.key = s.game_key "
                  "WHERE s.game_key = ?1 AND s.seat = ?2 AND s.player_key IS "
                  "NOT NULL",
    /* ?1 now, ?2 lease end, ?3..?5 DLV_CLAIMABLE's */
    [ST_DLV_CLAIM] = "UPDATE deliveries SET in_flight = 1, next_ms = ?2 "
                     "WHERE event_key = (" DLV_CLAIMABLE " LIMIT 1) "
                     "RETURNING event_key",
    /* ?1 event, ?2 ok, ?3 status, ?4 error, ?5 next (0: end), ?6 now */
    /* ?1 now, ?2 lease end, ?3..?5 MAIL_CLAIMABLE's */
    [ST_MAIL_DLV_CLAIM] = "UPDATE mail_deliveries SET in_flight = 1, "
                          "next_ms = ?2 WHERE key = (" MAIL_CLAIMABLE
                          " LIMIT 1) "
                          "AND state = 'pending' AND next_ms <= ?1 RETURNING key",
    /* ?1 now, ?2 lease end, ?3..?5 PUSH_CLAIMABLE's */
    [ST_PUSH_DLV_CLAIM] = "UPDATE push_deliveries SET in_flight = 1, "
                          "next_ms = ?2 WHERE key = (" PUSH_CLAIMABLE
                          " LIMIT 1) "
                          "RETURNING key",
    [ST_DLV_DONE] = "UPDATE deliveries SET attempts = attempts + 1, "
                    "in_flight = 0, last_ms = ?6, "
                    "last_status = nullif(?3, 0), "
                    "last_error = nullif(?4, ''), next_ms = "
                    "CASE WHEN ?5 > 0 THEN ?5 ELSE next_ms END, "
                    "state = CASE WHEN ?2 THEN 'delivered' "
                    "WHEN ?5 > 0 THEN 'pending' ELSE 'failed' END "
                    "WHERE event_key = ?1 AND state = 'pending'",
    [ST_DLV_REQUEUE] = "UPDATE deliveries SET in_flight = 0, next_ms = "
                       "min(next_ms, ?1) WHERE in_flight = 1",
    /* Walks the bot seats only (the partial index, in game_key order:
     * no sort), then looks each game up; CROSS JOIN keeps that order. */
    [ST_BOT_GAMES] = "SELECT DISTINCT s.game_key FROM seats s "
                     "INDEXED BY seats_by_bot "
                     "CROSS JOIN games g ON g.key = s.game_key "
                     "WHERE s.bot IS NOT NULL AND s.game_key > ?1 "
                     "AND g.status = 'active' AND (g.to_act >> s.seat) & 1 "
                     "ORDER BY s.game_key LIMIT ?2",
    [ST_GAME_CLOCK_START] =
        "UPDATE games SET deadline_ms = updated_ms + " CLOCK_ALLOWED ", "
        "soon_ms = updated_ms + " CLOCK_ALLOWED " - min(" CLOCK_SOON_CAP
        ", (" CLOCK_ALLOWED ") / " CLOCK_SOON_SHARE ") "
        "WHERE key = ?1 AND clock IS NOT NULL AND clock_state IS NULL "
        "AND status = 'active' AND to_act != 0",
    [ST_CLOCK_DUE] = "SELECT key FROM (SELECT key, deadline_ms AS t "
                     "FROM games INDEXED BY games_by_deadline "
                     "WHERE deadline_ms <= ?1 UNION ALL "
                     "SELECT key, soon_ms FROM games INDEXED BY "
                     "games_by_soon WHERE soon_ms <= ?1) "
                     "GROUP BY key ORDER BY min(t) LIMIT ?2",
    [ST_CLOCK_NEXT] = "SELECT min(coalesce(d, s), coalesce(s, d)) FROM "
                      "(SELECT (SELECT min(deadline_ms) FROM games "
                      "WHERE deadline_ms > ?1) AS d, (SELECT min(soon_ms) "
                      "FROM games WHERE soon_ms > ?1) AS s)",
    /* ?1 cutoff, ?2 limit: the three steps of a prune, in order */
    [ST_PRUNE_HORIZONS] =
        "INSERT INTO event_horizons (player_key, pruned_key) "
        "SELECT player_key, max(key) FROM events WHERE key IN (" PRUNABLE
        ") GROUP BY player_key ON CONFLICT (player_key) DO UPDATE SET "
        "pruned_key = max(pruned_key, excluded.pruned_key)",
    /* a prefix's range of lower(name), in BINARY (byte) order: the
     * prefix, up to the prefix followed by U+10FFFF, the greatest
     * character (sql/0031_link_codes.sql's players_by_lower_name) */
    [ST_PLAYERS_BY_NAME] = "SELECT key, id, name, created_ms FROM players "
                           "WHERE lower(name) >= lower(?1) AND lower(name) "
                           "< lower(?1) || char(1114111) AND deleted_ms IS "
                           "NULL AND banned_ms IS NULL ORDER BY "
                           "lower(name), key LIMIT ?2",
};

/* ---- errors ---------------------------------------------------------- */

/* The bd_err for an SQLite result code (extended codes are on) and the
 * errno of the system call that failed (0 if none).  A lost race on a key
 * is a conflict; a lock not had in time is busy; a full disk, quota or
 * file size limit (RLIMIT_FSIZE: write() fails with EFBIG) is no space;
 * a file SQLite saw moved or deleted is unavailable. */
static int bd_from_sqlite(int rc, int sys_errno)
{
	switch (rc) {
	case SQLITE_CONSTRAINT_PRIMARYKEY:
	case SQLITE_CONSTRAINT_UNIQUE:
		return BD_ECONFLICT;
	case SQLITE_NOMEM:
		return BD_ENOMEM;
	case SQLITE_FULL:
		return BD_ENOSPACE;
	case SQLITE_READONLY_DBMOVED:
		return BD_EUNAVAILABLE;
	}
	if ((rc & 0xff) == SQLITE_BUSY)
		return BD_EBUSY;
	if ((rc & 0xff) == SQLITE_IOERR &&
	    (sys_errno == ENOSPC || sys_errno == EFBIG || sys_errno == EDQUOT))
		return BD_ENOSPACE;
	return BD_EINTERNAL;
}

/* Whether a failed write on db's files ran into the file size limit
 * (RLIMIT_FSIZE, ulimit -f).  SQLite reports a write that fails with
 * EFBIG as SQLITE_IOERR_WRITE and does not keep that errno (its
 * sqlite3_system_errno is whatever a later call left), so the files are
 * asked instead: the limit is finite and the database or its WAL is
 * within a megabyte of it (a transaction appends a few pages). */
static int past_size_limit(sqlite3 *db)
{
	struct rlimit rl;
	const char *path = sqlite3_db_filename(db, "main");
	if (!path || !*path || getrlimit(RLIMIT_FSIZE, &rl) < 0 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return 0;
	char wal[4096];
	snprintf(wal, sizeof wal, "%s-wal", path);
	struct stat st;
	off_t largest = 0;
	if (stat(path, &st) == 0)
		largest = st.st_size;
	if (stat(wal, &st) == 0 && st.st_size > largest)
		largest = st.st_size;
	return (rlim_t)largest + (1u << 20) >= rl.rlim_cur;
}

/* Maps a failed call on db to a bd_err, and reports on stderr the ones no
 * caller can expect (a bug, a broken file, an I/O error). */
static int lite_fail(sqlite3 *db, int rc)
{
	int code = bd_from_sqlite(rc, sqlite3_system_errno(db));
	if (code == BD_EINTERNAL && rc == SQLITE_IOERR_WRITE &&
	    past_size_limit(db))
		code = BD_ENOSPACE;
	if (code == BD_EINTERNAL)
		log_error("store", "sqlite error %d: %s", rc,
		          sqlite3_errmsg(db));
	return code;
}

/* Writes a sentence into err (if any) and returns code. */
static int open_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* ---- running statements ---------------------------------------------- */

/* Binds a[0..n) to ?1..?n.  Buffers are bound SQLITE_STATIC: they outlive
 * the statement's use, since store__run clears the bindings before it returns.
 */
static int bind_args(sqlite3_stmt *st, const struct arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		int rc;
		if (a[i].type == ARG_I64)
			rc = sqlite3_bind_int64(st, i + 1, a[i].i);
		else if (a[i].type == ARG_BLOB)
			rc = sqlite3_bind_blob(st, i + 1, a[i].p, a[i].n,
			                       SQLITE_STATIC);
		else if (a[i].p)
			rc = sqlite3_bind_text(st, i + 1, a[i].p, -1,
			                       SQLITE_STATIC);
		else
			rc = sqlite3_bind_null(st, i + 1);
		if (rc != SQLITE_OK)
			return lite_fail(sqlite3_db_handle(st), rc);
	}
	return 0;
}

/* A connection's handle (struct conn's h). */
struct lite_conn {
	sqlite3 *db;                /* opened NOMUTEX, one thread at a time */
	sqlite3_stmt *st[ST_COUNT]; /* prepared once (the writer's at open,
	                               a read connection's at first use: NULL
	                               until then), reset after every use */
};

/* The store-wide state (struct store's ds). */
struct lite_store {
	atomic_int file_gone; /* 1: the file was deleted or replaced */
	dev_t dev;            /* the database file's device and inode, */
	ino_t ino;            /* as opened */
	int owner_fd;         /* store_config.exclusive: PATH.lock, flock'ed
	                         while open; else -1 */
	int outside;          /* store_config.outside: the writer records
	                         its changes in outside_changes */
	/* store_listen: the thread reading outside_changes */
	pthread_t poller;
	int polling;                       /* 1 while the thread runs */
	atomic_int poll_stop;              /* 1: the thread ends */
	int poll_wake[2];                  /* a pipe: a byte written to [1]
	                                      ends the thread's wait at once */
	const struct store_remote *remote; /* its callbacks */
	void *remote_ctx;
	store_tell_fn tell;
};

/* A row: the stepped statement. */
struct lite_row {
	struct row r; /* first: what a row_fn sees */
	sqlite3_stmt *st;
};

static sqlite3 *lite_db(const struct conn *c)
{
	return ((const struct lite_conn *)c->h)->db;
}

static sqlite3_stmt *lite_st(const struct row *r)
{
	return ((const struct lite_row *)r)->st;
}

/* Runs statement `id` of c with arguments a[0..n) to completion, calling
 * fn (if not NULL) on each row, then resets it and clears its bindings so
 * it holds no snapshot.  Returns 0, fn's negative code, or a bd_err. */
static int lite_run(struct conn *c, enum stmt id, const struct arg *a, int n,
                    row_fn fn, void *ctx)
{
	struct lite_conn *lc = c->h;
	sqlite3_stmt *st = lc->st[id];
	if (!st) { /* a read connection prepares a statement at first use */
		int prc =
		    sqlite3_prepare_v3(lc->db, c->sql[id], -1,
		                       SQLITE_PREPARE_PERSISTENT, &st, NULL);
		if (prc != SQLITE_OK)
			return lite_fail(lc->db, prc);
		lc->st[id] = st;
	}
	struct lite_row r = {.r = {&store_driver_sqlite}, .st = st};
	int rc = bind_args(st, a, n);
	while (rc == 0) {
		int step = sqlite3_step(st);
		if (step == SQLITE_DONE)
			break;
		if (step != SQLITE_ROW)
			rc = lite_fail(lc->db, step);
		else if (fn)
			rc = fn(&r.r, ctx);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

static int lite_query_i64(struct conn *c, const char *sql, int64_t *v)
{
	sqlite3 *db = lite_db(c);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	int code = 0;
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else
		code = lite_fail(db, rc == SQLITE_DONE ? SQLITE_ERROR : rc);
	sqlite3_finalize(st);
	return code;
}

/* ---- rows ------------------------------------------------------------ */

static int64_t lite_col_i64(const struct row *r, int col)
{
	return sqlite3_column_int64(lite_st(r), col);
}

static const char *lite_col_text(const struct row *r, int col)
{
	return (const char *)sqlite3_column_text(lite_st(r), col);
}

static const void *lite_col_blob(const struct row *r, int col)
{
	return sqlite3_column_blob(lite_st(r), col);
}

static int lite_col_bytes(const struct row *r, int col)
{
	return sqlite3_column_bytes(lite_st(r), col);
}

static int lite_col_null(const struct row *r, int col)
{
	return sqlite3_column_type(lite_st(r), col) == SQLITE_NULL;
}

static int lite_col_count(const struct row *r)
{
	return sqlite3_column_count(lite_st(r));
}

static int64_t lite_changes(const struct conn *c)
{
	return sqlite3_changes(lite_db(c));
}

static int lite_in_tx(const struct conn *c)
{
	return !sqlite3_get_autocommit(lite_db(c));
}

/* ---- the write path: a bounded busy wait, the file's identity -------- */

/* Milliseconds from now until the monotonic time t (negative: past). */
static long mono_ms_until(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(t->tv_sec - now.tv_sec) * 1000 +
	       (t->tv_nsec - now.tv_nsec) / 1000000L;
}

/* The write connection's busy handler (sqlite3_busy_handler).  Our own
 * writes are serialised by the leader role, so a busy lock here is held by
 * another process: wait in short sleeps until the write's deadline, with
 * lock_waiting set so that other writes answer busy at once instead of
 * queueing (each queued one would hold a write worker).  Returns
 * 0 (give up: SQLITE_BUSY) at the deadline. */
static int writer_busy(void *arg, int tries)
{
	struct store *s = arg;
	long left = mono_ms_until(&s->write_deadline);
	if (left <= 0)
		return 0;
	atomic_store(&s->lock_waiting, 1);
	long step = tries < 4 ? 1 + tries * 3 : 20; /* ms: 1, 4, 7, 10, 20… */
	struct timespec d = {0, (step < left ? step : left) * 1000000L};
	nanosleep(&d, NULL);
	return 1;
}

/* ---- opening --------------------------------------------------------- */

/* Runs a PRAGMA; the first column of its first row (if any) goes to *num
 * and/or text (either may be NULL; untouched when there is no row). */
static int pragma_get(sqlite3 *db, const char *sql, int64_t *num, char *text,
                      size_t textlen, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (num)
			*num = sqlite3_column_int64(st, 0);
		if (text)
			snprintf(text, textlen, "%s",
			         (const char *)sqlite3_column_text(st, 0));
		rc = SQLITE_OK;
	}
	if (rc == SQLITE_DONE) /* no row: nothing to report */
		rc = SQLITE_OK;
	int code = rc == SQLITE_OK ? 0 : bd_from_sqlite(rc, 0);
	if (code < 0)
		open_fail(err, errlen, code, "%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return code;
}

/* Runs SQL text (one or more statements) that returns nothing we need. */
static int exec_sql(sqlite3 *db, const char *what, const char *sql, char *err,
                    size_t errlen)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return open_fail(err, errlen, bd_from_sqlite(rc, 0), "%s: %s",
		                 what, sqlite3_errmsg(db));
	return 0;
}

/* Opens c's handle and its database and sets the per-connection
 * pragmas. */
static int lite_connect(struct store *s, struct conn *c,
                        const struct store_config *cfg, char *err,
                        size_t errlen)
{
	struct lite_conn *lc = calloc(1, sizeof *lc);
	if (!lc)
		return open_fail(err, errlen, BD_ENOMEM, "out of memory");
	c->h = lc;
	/* Only the writer, opened first, creates the file: a read
	 * connection opened later (store_pool.c connects them at their
	 * first use) must not make an empty file where the store's was
	 * deleted. */
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
	            (c == &s->writer ? SQLITE_OPEN_CREATE : 0);
	int rc = sqlite3_open_v2(cfg->path, &lc->db, flags, NULL);
	if (rc != SQLITE_OK)
		return open_fail(err, errlen, bd_from_sqlite(rc, 0),
		                 "cannot open %s: %s", cfg->path,
		                 lc->db ? sqlite3_errmsg(lc->db)
		                        : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(lc->db, 1);
	sqlite3_busy_timeout(lc->db, cfg->busy_timeout_ms);
	char sql[160];
	snprintf(sql, sizeof sql,
	         "PRAGMA synchronous=%s; PRAGMA foreign_keys=ON; "
	         "PRAGMA journal_size_limit=%d;",
	         cfg->sync_full ? "FULL" : "NORMAL", STORE_JOURNAL_LIMIT);
	return exec_sql(lc->db, cfg->path, sql, err, errlen);
}

/* Prepares every statement of c. */
static int conn_prepare(struct conn *c, char *err, size_t errlen)
{
	struct lite_conn *lc = c->h;
	for (int i = 0; i < ST_COUNT; i++) {
		int rc = sqlite3_prepare_v3(lc->db, c->sql[i], -1,
		                            SQLITE_PREPARE_PERSISTENT,
		                            &lc->st[i], NULL);
		if (rc != SQLITE_OK)
			return open_fail(err, errlen, bd_from_sqlite(rc, 0),
			                 "cannot prepare \"%s\": %s", c->sql[i],
			                 sqlite3_errmsg(lc->db));
	}
	return 0;
}

/* Finalizes c's statements and closes it; a never-opened c is a no-op. */
static void lite_close(struct conn *c)
{
	struct lite_conn *lc = c->h;
	if (!lc)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(lc->st[i]);
	int rc = sqlite3_close(lc->db);
	if (rc != SQLITE_OK)
		log_error("store", "sqlite close: %s", sqlite3_errstr(rc));
	free(lc);
	c->h = NULL;
}

/* Refuses a file that another program marked as its own, before we
 * change anything in it.  *ours_out: 1 if already marked ours. */
static int check_application_id(sqlite3 *db, int *ours_out, char *err,
                                size_t errlen)
{
	int64_t id = 0;
	int rc =
	    pragma_get(db, "PRAGMA application_id", &id, NULL, 0, err, errlen);
	if (rc < 0)
		return rc;
	if (id != 0 && id != STORE_APPLICATION_ID)
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "database belongs to another program "
		                 "(application_id 0x%llx, ours is 0x%x)",
		                 (unsigned long long)(uint32_t)id,
		                 STORE_APPLICATION_ID);
	*ours_out = id != 0;
	return 0;
}

/* Switches the file to WAL (persistent; cannot run inside a transaction).
 * SQLite answers with the mode it is in, which is not WAL for an in-memory
 * database or a VFS without shared memory. */
static int enable_wal(sqlite3 *db, char *err, size_t errlen)
{
	char mode[16];
	int rc = pragma_get(db, "PRAGMA journal_mode=WAL", NULL, mode,
	                    sizeof mode, err, errlen);
	if (rc == 0 && strcmp(mode, "wal") != 0)
		rc = open_fail(err, errlen, BD_EINTERNAL,
		               "cannot use WAL: the journal mode stays %s",
		               mode);
	return rc;
}

/* Inside the migration transaction: applies every migration newer than
 * the file's user_version and records the new version. */
static int apply_migrations(sqlite3 *db, int ours, char *err, size_t errlen)
{
	int64_t have = 0;
	int rc =
	    pragma_get(db, "PRAGMA user_version", &have, NULL, 0, err, errlen);
	if (rc < 0)
		return rc;
	int64_t known = (int64_t)store_migrations_count;
	if (have < 0 || have > known)
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "database schema version %lld is newer than "
		                 "this server knows (%lld): upgrade the server",
		                 (long long)have, (long long)known);
	char sql[64];
	if (!ours) {
		snprintf(sql, sizeof sql, "PRAGMA application_id=%d",
		         STORE_APPLICATION_ID);
		if ((rc = exec_sql(db, "application_id", sql, err, errlen)))
			return rc;
	}
	for (size_t i = (size_t)have; i < store_migrations_count; i++) {
		const struct store_migration *m = &store_migrations[i];
		if (m->version != (int)i + 1)
			return open_fail(err, errlen, BD_EINTERNAL,
			                 "migration %s is not version %zu",
			                 m->name, i + 1);
		double t0 = driver_mono_ms();
		if ((rc = exec_sql(db, m->name, m->sql, err, errlen)))
			return rc;
		driver_migration_logged(m, t0);
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version=%lld", (long long)known);
	return exec_sql(db, "user_version", sql, err, errlen);
}

/* Marks the file as ours, switches it to WAL and brings its schema up to
 * date in one BEGIN IMMEDIATE transaction (user_version is transactional,
 * so a failed migration leaves the file at its old version). */
static int migrate(sqlite3 *db, char *err, size_t errlen)
{
	int ours = 0;
	int rc = check_application_id(db, &ours, err, errlen);
	if (rc == 0)
		rc = enable_wal(db, err, errlen);
	if (rc == 0)
		rc = exec_sql(db, "begin migration", "BEGIN IMMEDIATE", err,
		              errlen);
	if (rc < 0)
		return rc;
	rc = apply_migrations(db, ours, err, errlen);
	if (rc == 0)
		rc = exec_sql(db, "commit migration", "COMMIT", err, errlen);
	if (rc < 0 && !sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* Migrations may rebuild tables that others reference, which SQLite allows
 * only with foreign keys off (they cannot be switched inside a
 * transaction); the keys are checked before they are switched back on. */
static int migrate_checked(sqlite3 *db, char *err, size_t errlen)
{
	int rc = exec_sql(db, "foreign keys off", "PRAGMA foreign_keys=OFF",
	                  err, errlen);
	if (rc == 0)
		rc = migrate(db, err, errlen);
	char bad[64] = "";
	if (rc == 0)
		rc = pragma_get(db, "PRAGMA foreign_key_check", NULL, bad,
		                sizeof bad, err, errlen);
	if (rc == 0 && bad[0])
		rc = open_fail(err, errlen, BD_EINTERNAL,
		               "after migrating, table %s has a broken "
		               "foreign key",
		               bad);
	int on = exec_sql(db, "foreign keys on", "PRAGMA foreign_keys=ON", err,
	                  errlen);
	return rc < 0 ? rc : on;
}

/* Records which file s->path is, for lite_check. */
static int file_identify(struct store *s, char *err, size_t errlen)
{
	struct lite_store *ls = s->ds;
	struct stat st;
	if (stat(s->path, &st) < 0)
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "cannot stat %s: %s", s->path,
		                 strerror(errno));
	ls->dev = st.st_dev;
	ls->ino = st.st_ino;
	return 0;
}

/* store_config.exclusive: an exclusive flock(2) on PATH.lock (a file of
 * its own: SQLite's own locks are fcntl(2) locks on the database, and on
 * some network file systems flock is emulated with those), held until
 * store_close or the process's death.  BD_EUNAVAILABLE when another
 * process (or another exclusive store of this one) holds it. */
static int take_ownership(struct store *s, char *err, size_t errlen)
{
	char lock[4096];
	if (snprintf(lock, sizeof lock, "%s.lock", s->path) >= (int)sizeof lock)
		return open_fail(err, errlen, BD_EBADREQUEST,
		                 "the database path is too long");
	struct lite_store *ls = s->ds;
	ls->owner_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (ls->owner_fd < 0)
		return open_fail(err, errlen, BD_EUNAVAILABLE,
		                 "cannot open the lock file %s: %s", lock,
		                 strerror(errno));
	if (flock(ls->owner_fd, LOCK_EX | LOCK_NB) < 0)
		return open_fail(
		    err, errlen, BD_EUNAVAILABLE,
		    "another boardd process has this database open (it holds "
		    "%s): with SQLite one process owns a database, because its "
		    "game table in memory is the read path (docs/read-path.md)",
		    lock);
	return 0;
}

/* SQLite's statement journal (a savepoint's undo pages) lives in memory
 * until it passes the spill size, 64 KiB by default, and is allocated in
 * chunks of that size: each write's savepoint malloc'd and freed a 64 KiB
 * chunk, and glibc gave the freed top of the thread's arena back to the
 * kernel each time (madvise, TLB flushes: 17-22% of boardd's CPU in a
 * sync-full write run, issue 13).  Never spilling keeps the journal in
 * memory in small chunks; our transactions are a game's few rows.
 * The same happened to the page cache of every ephemeral table (a
 * RETURNING clause's rows, an UPDATE's work table: EXPLAIN shows
 * OpenEphemeral in the game insert, the move insert and the game
 * advance): each new page cache starts with a bulk allocation of 20
 * pages (about 86 KiB), freed at the statement's end; madvise and the
 * page faults of touching it again were about 20% of a create's CPU.
 * SQLITE_CONFIG_PAGECACHE with no buffer and N = 0 drops the bulk
 * allocation: pages are allocated one at a time, as the cache grows.
 * SQLITE_CONFIG_MEMSTATUS off: with it on (the default), every SQLite
 * malloc and free takes one process-wide mutex to count the bytes in use
 * (sqlite3_memory_used, which boardd never reads); under 64 concurrent
 * writes its waits were about 1.4% of a move's samples (issue 13).
 * sqlite3_config must run before SQLite initialises, once per process. */
static void sqlite_configure(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	(void)sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, -1);
	(void)sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

/* Whether s->path still names the file the store opened (cheap: one
 * stat).  A deleted or replaced file is reported once on stderr and makes
 * every later write BD_EUNAVAILABLE: writing into an unlinked inode would
 * lose the moves at the next restart, and a replacement file is not
 * ours to mix with.  Other stat errors are left to SQLite. */
static int lite_check(struct store *s)
{
	struct lite_store *ls = s->ds;
	if (atomic_load(&ls->file_gone))
		return BD_EUNAVAILABLE;
	struct stat st;
	int gone;
	if (stat(s->path, &st) < 0)
		gone = errno == ENOENT || errno == ENOTDIR;
	else
		gone = st.st_dev != ls->dev || st.st_ino != ls->ino;
	if (!gone)
		return 0;
	if (!atomic_exchange(&ls->file_gone, 1))
		log_error("store",
		          "%s was deleted or replaced while open; "
		          "writes are refused until the server restarts",
		          s->path);
	return BD_EUNAVAILABLE;
}

/* ---- what another process changes (sql/0024_admin.sql) -------------- */

/* unix ms in SQLite 3.40's SQL (unixepoch('subsec') came in 3.42) */
#define NOW_MS "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

/* store_config.outside: TEMP triggers of the write connection alone (the
 * server's own writes pay nothing) that record in outside_changes each
 * change this process makes to a game's row or seats and each new event;
 * rows older than an hour are dropped first (the server read them long
 * ago). */
static const char outside_sql[] =
    "DELETE FROM main.outside_changes WHERE created_ms < " NOW_MS " - 3600000;"
    "CREATE TEMP TRIGGER oc_games_ins AFTER INSERT ON main.games BEGIN "
    "INSERT INTO outside_changes (game_key, game_id, seq, created_ms) "
    "VALUES (NEW.key, NEW.id, NEW.seq, " NOW_MS "); END;"
    "CREATE TEMP TRIGGER oc_games_upd AFTER UPDATE ON main.games BEGIN "
    "INSERT INTO outside_changes (game_key, game_id, seq, created_ms) "
    "VALUES (NEW.key, NEW.id, NEW.seq, " NOW_MS "); END;"
    "CREATE TEMP TRIGGER oc_seats_ins AFTER INSERT ON main.seats BEGIN "
    "INSERT INTO outside_changes (game_key, game_id, seq, created_ms) "
    "SELECT key, id, seq, " NOW_MS " FROM games WHERE key = "
    "NEW.game_key; END;"
    "CREATE TEMP TRIGGER oc_seats_upd AFTER UPDATE ON main.seats BEGIN "
    "INSERT INTO outside_changes (game_key, game_id, seq, created_ms) "
    "SELECT key, id, seq, " NOW_MS " FROM games WHERE key = "
    "NEW.game_key; END;"
    "CREATE TEMP TRIGGER oc_events AFTER INSERT ON main.events BEGIN "
    "INSERT INTO outside_changes (player_key, created_ms) VALUES "
    "(NEW.player_key, " NOW_MS "); END;";

#define POLL_MS 250 /* how often the server reads outside_changes */

/* One change read back by the poller. */
static void poll_row(struct store *s, struct lite_store *ls, sqlite3_stmt *st)
{
	if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
		const char *id = (const char *)sqlite3_column_text(st, 2);
		ls->remote->game(ls->remote_ctx, sqlite3_column_int64(st, 1),
		                 id ? id : "",
		                 (uint64_t)sqlite3_column_int64(st, 3));
	}
	if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
		int64_t pk = sqlite3_column_int64(st, 4);
		ls->tell(s, &pk, 1);
	}
}

/* The poller: every POLL_MS, the rows of outside_changes after the last
 * one seen (from the newest at listen: what came before is in the file
 * the server read at start), on a read-only connection of its own. */
static void *poll_main(void *arg)
{
	struct store *s = arg;
	struct lite_store *ls = s->ds;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int64_t last = -1;
	if (sqlite3_open_v2(s->path, &db,
	                    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
	                       "SELECT key, game_key, game_id, seq, "
	                       "player_key FROM outside_changes WHERE key > ?1 "
	                       "ORDER BY key LIMIT 1000",
	                       -1, &st, NULL) != SQLITE_OK) {
		log_error("store", "cannot read outside_changes: %s",
		          db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, 100);
	while (!atomic_load(&ls->poll_stop)) {
		if (last < 0) { /* start from the newest row */
			sqlite3_stmt *m = NULL;
			if (sqlite3_prepare_v2(
			        db,
			        "SELECT coalesce(max(key), 0) FROM "
			        "outside_changes",
			        -1, &m, NULL) == SQLITE_OK &&
			    sqlite3_step(m) == SQLITE_ROW)
				last = sqlite3_column_int64(m, 0);
			sqlite3_finalize(m);
		} else {
			sqlite3_bind_int64(st, 1, last);
			while (sqlite3_step(st) == SQLITE_ROW) {
				last = sqlite3_column_int64(st, 0);
				poll_row(s, ls, st);
			}
			sqlite3_reset(st);
		}
		/* POLL_MS, or less when lite_unlisten writes its byte: a
		 * server stopping does not wait out the period */
		struct pollfd pf = {.fd = ls->poll_wake[0], .events = POLLIN};
		poll(&pf, 1, POLL_MS);
	}
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return NULL;
}

/* store_listen on SQLite: the changes `boardd admin` (store_config
 * .outside) makes while this process owns the file. */
static int lite_listen(struct store *s, const struct store_remote *r, void *ctx,
                       store_tell_fn tell)
{
	struct lite_store *ls = s->ds;
	if (ls->polling)
		return BD_EINTERNAL;
	ls->remote = r;
	ls->remote_ctx = ctx;
	ls->tell = tell;
	atomic_store(&ls->poll_stop, 0);
	if (pipe2(ls->poll_wake, O_CLOEXEC) != 0)
		return BD_EINTERNAL;
	if (pthread_create(&ls->poller, NULL, poll_main, s) != 0) {
		close(ls->poll_wake[0]);
		close(ls->poll_wake[1]);
		return BD_EINTERNAL;
	}
	ls->polling = 1;
	return 0;
}

static void lite_unlisten(struct store *s)
{
	struct lite_store *ls = s->ds;
	if (!ls || !ls->polling)
		return;
	atomic_store(&ls->poll_stop, 1);
	ssize_t w = write(ls->poll_wake[1], "", 1); /* the pipe is empty */
	(void)w; /* on a failure the thread ends within POLL_MS */
	pthread_join(ls->poller, NULL);
	close(ls->poll_wake[0]);
	close(ls->poll_wake[1]);
	ls->polling = 0;
}

/* ---- the driver ------------------------------------------------------ */

/* The store-wide state, SQLite's configuration (once per process) and,
 * when asked, the exclusive lock. */
static int lite_open(struct store *s, const struct store_config *cfg, char *err,
                     size_t errlen)
{
	static pthread_once_t configured = PTHREAD_ONCE_INIT;
	pthread_once(&configured, sqlite_configure);
	if (!sqlite3_threadsafe())
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "SQLite was built without thread support");
	struct lite_store *ls = calloc(1, sizeof *ls);
	if (!ls)
		return open_fail(err, errlen, BD_ENOMEM, "out of memory");
	ls->owner_fd = -1;
	ls->outside = cfg->outside;
	s->ds = ls;
	return cfg->exclusive ? take_ownership(s, err, errlen) : 0;
}

static void lite_release(struct store *s)
{
	struct lite_store *ls = s->ds;
	if (!ls)
		return;
	if (ls->owner_fd >= 0)
		close(ls->owner_fd); /* releases the flock */
	free(ls);
	s->ds = NULL;
}

/* The write connection: its schema brought up to date, every statement
 * prepared (which shows they all compile), the file identified, and
 * its busy handler set.  The
 * read connections prepare each statement at its first use (lite_run):
 * preparing each on up to a hundred connections at start cost most of a
 * start's CPU (about 1.8 s of 2.3 s in a sanitizer build, where the test
 * suites start hundreds of servers) for statements a read connection
 * never runs. */
static int lite_migrate(struct store *s, struct conn *c, char *err,
                        size_t errlen)
{
	int rc = migrate_checked(lite_db(c), err, errlen);
	if (rc == 0)
		rc = conn_prepare(c, err, errlen);
	if (rc == 0)
		rc = file_identify(s, err, errlen);
	if (rc == 0 && ((struct lite_store *)s->ds)->outside)
		rc = exec_sql(lite_db(c), "outside_changes", outside_sql, err,
		              errlen);
	/* from now on the writer waits for another process's lock until
	 * its batch's deadline (the migration waited busy_timeout_ms) */
	if (rc == 0)
		sqlite3_busy_handler(lite_db(c), writer_busy, s);
	return rc;
}

const struct store_driver store_driver_sqlite = {
    .name = "sqlite",
    .shared = 0,
    .pool_max = 0,
    /* reads the file's header */
    .ping_sql = "PRAGMA schema_version",
    /* the pages in use and free, as the file holds them */
    .size_sql = "SELECT page_count * page_size "
                "FROM pragma_page_count(), pragma_page_size()",
    .wal_suffix = "-wal",
    .sql = lite_sql,
    .open = lite_open,
    .release = lite_release,
    .connect = lite_connect,
    .migrate = lite_migrate,
    .close = lite_close,
    .run = lite_run,
    .query_i64 = lite_query_i64,
    .changes = lite_changes,
    .in_tx = lite_in_tx,
    .col_i64 = lite_col_i64,
    .col_text = lite_col_text,
    .col_blob = lite_col_blob,
    .col_bytes = lite_col_bytes,
    .col_null = lite_col_null,
    .col_count = lite_col_count,
    .check = lite_check,
    .listen = lite_listen,
    .unlisten = lite_unlisten,
    .lease = NULL,
};
