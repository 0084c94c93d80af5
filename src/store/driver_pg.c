/* driver_pg.c: the PostgreSQL driver of the store (driver.h's table,
 * store_driver_pg), on libpq: connect, run statement `id` with typed
 * arguments, read rows, map errors, the migrations of sql/postgres/,
 * listening for other nodes' changes, and leases; and PostgreSQL's
 * statement texts where its dialect differs from store_sql.c's common
 * ones (pg_sql).
 *
 * A statement runs the store's text (c->sql: pg_sql's, else the common
 * one), its ?N parameters turned into $N.  A statement is prepared on a
 * connection at its first use there, its parameters typed from that
 * call's arguments (ARG_I64 int8, ARG_TEXT text, ARG_BLOB bytea), so the
 * server never guesses a type; a later call with other types is a bug
 * and fails (BD_EINTERNAL).  Values go as text, blobs as binary; results
 * come back as text (bytea in hex, decoded on demand; booleans 't'/'f'
 * read as 1/0).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "../common/log.h"
#include "driver.h"
#include "migrations.h"
#include "store_int.h"

/* pg_type.h's OIDs of the parameter types we send. */
#define OID_BYTEA 17
#define OID_INT8  20
#define OID_TEXT  25

/* The most parameters one statement takes, and columns one row has. */
#define PG_MAX_ARGS 16
#define PG_MAX_COLS 48

/* pg_advisory_lock's key for the migrations: 'brdd', as SQLite's
 * application_id. */
#define PG_MIGRATE_LOCK 0x62726464

/* ---- statement texts that differ from SQLite's ------------------------ */
/* SQL text reads as SQL, not as clang-format would fold it. */
/* clang-format off */

/* driver_sqlite.c's GAME_COLS in PostgreSQL's JSON functions: the bot seats'
 * bit set and their JSON array, in seat order. */
#define PG_GAME_COLS                                                           \
	"key, id, rules_id, rules_version, seats, seed, options, setup, "      \
	"status, seq, to_act, result, created_ms, updated_ms, open_seats, "    \
	"(SELECT coalesce(sum(1::bigint << b.seat), 0) FROM seats b "          \
	"WHERE b.game_key = key AND b.bot IS NOT NULL), "                      \
	"(SELECT coalesce(json_agg(json_build_object('seat', b.seat, 'bot', "  \
	"b.bot::json) ORDER BY b.seat), '[]') FROM seats b "                   \
	"WHERE b.game_key = key AND b.bot IS NOT NULL), clock, clock_state, "  \
	"deadline_ms, seats_version, seed_format, secret, salt, imported, "    \
	"coalesce(creator_player, 0), coalesce(creator_addr, ''), "           \
	"coalesce(rematch_seats, 0), coalesce(rematch_by, -1), "               \
	"coalesce(rematch, ''), coalesce(rematch_of, ''), "                    \
	"coalesce(seats_until_ms, 0)"

/* driver_sqlite.c's PLAYERS_JSON. */
#define PG_PLAYERS_JSON(gk)                                                    \
	"(SELECT coalesce(json_agg(json_build_object('seat', z.seat, 'open', " \
	"z.open <> 0, 'player', CASE WHEN p.id IS NULL THEN NULL ELSE "        \
	"json_build_object('id', p.id, 'name', p.name) END, 'invited', "       \
	"CASE WHEN z.open <> 0 THEN i.id END, 'bot', z.bot::json) "            \
	"ORDER BY z.seat), '[]') FROM seats z "                                \
	"LEFT JOIN players p ON p.key = z.player_key "                         \
	"LEFT JOIN players i ON i.key = z.invited WHERE z.game_key = " gk ")"

/* driver_sqlite.c's LIST_SQL. */
#define PG_LIST_SQL(filter)                                                    \
	"SELECT " PG_GAME_COLS ", " PG_PLAYERS_JSON(                           \
	    "games.key") " FROM games WHERE key < ?3" filter                   \
	                 " AND " VISIBLE("", "?5") " AND NOT (status = "       \
	                                           "'waiting' AND NOT EXISTS " \
	                                           "(SELECT 1 FROM seats o "   \
	                                           "WHERE o.game_key = "       \
	                                           "games.key AND o.open = 1 " \
	                                           "AND o.invited IS NULL)) "  \
	                                           "ORDER BY key DESC LIMIT ?4"

/* driver_sqlite.c's EV_DATA, with `more` keys (", 'k', v"...) after. */
#define PG_EV_DATA(more)                                                       \
	"json_build_object('game_id', g.id, 'game', g.rules_id, 'seq', g.seq, " \
	"'seat', s.seat, 'status', g.status, 'result', g.result::json" more    \
	")::text"

/* A new event's id: "evt_" and 24 random hex digits. */
#define PG_EVENT_ID "'evt_' || substr(md5(gen_random_uuid()::text), 1, 24)"

/* driver_sqlite.c's ISO_MS: unix ms as RFC 3339 UTC with milliseconds. */
#define PG_ISO_MS(x)                                                           \
	"(to_char(to_timestamp((" x ") / 1000) AT TIME ZONE 'UTC', "           \
	"'YYYY-MM-DD\"T\"HH24:MI:SS') || '.' || "                              \
	"lpad(((" x ") % 1000)::text, 3, '0') || 'Z')"

/* A field of a JSON text column, as bigint. */
#define PG_J(col, path) "((" col ")::json" path ")::bigint"

#define PG_CLOCK_ALLOWED                                                       \
	"(" PG_J("clock", "->>'move_ms'") " + " PG_J("clock", "->>'bank_ms'") ")"

/* driver_sqlite.c's SEAT_DEADLINE and SEAT_BANK. */
#define PG_SEAT_DEADLINE                                                       \
	"(CASE WHEN g.clock IS NULL OR g.open_seats > 0 THEN NULL "            \
	"WHEN g.clock_state IS NULL THEN g.updated_ms + " PG_J(                \
	    "g.clock", "->>'move_ms'") " + " PG_J("g.clock", "->>'bank_ms'")   \
	    " ELSE nullif(" PG_J("g.clock_state", "->'since'->>s.seat")        \
	    ", 0) + " PG_J("g.clock", "->>'move_ms'") " + " PG_J(              \
	        "g.clock_state", "->'bank'->>s.seat") " END)"
#define PG_SEAT_BANK                                                           \
	"(CASE WHEN " PG_J("g.clock", "->>'bank_ms'") " > 0 THEN coalesce(" PG_J( \
	    "g.clock_state", "->'bank'->>s.seat") ", " PG_J("g.clock",           \
	                                                 "->>'bank_ms'") ") END)"

/* The statements PostgreSQL runs in its own text; NULL: store_sql.c's. */
static const char *const pg_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN",
    /* Locks the game's row until the batch commits: a racing append on
     * another node waits, then reads the seq the winner wrote. */
    [ST_GAME_SEQ] = "SELECT seq FROM games WHERE key = ?1 "
                    "AND cancelled_ms IS NULL FOR UPDATE",
    [ST_GAME_GET] = "SELECT " PG_GAME_COLS " FROM games WHERE id = ?1 "
                    "AND " VISIBLE("", "?2"),
    [ST_GAME_BY_KEY] = "SELECT " PG_GAME_COLS " FROM games WHERE key = ?1",
    [ST_LIST_ALL] = PG_LIST_SQL(""),
    [ST_LIST_STATUS] = PG_LIST_SQL(" AND status = ?1"),
    [ST_LIST_RULES] = PG_LIST_SQL(" AND rules_id = ?2"),
    [ST_LIST_BOTH] = PG_LIST_SQL(" AND status = ?1 AND rules_id = ?2"),
    [ST_PLAYER_GAMES] =
        "SELECT " PG_GAME_COLS ", x.seat, x.invitation, " PG_PLAYERS_JSON(
            "g.key") " FROM (SELECT s.game_key AS gk, s.seat AS seat, "
                     "s.player_key IS NULL AS invitation, g.updated_ms AS u "
                     "FROM seats s JOIN games g ON g.key = s.game_key "
                     "WHERE (s.player_key = ?1 OR (s.invited = ?1 AND "
                     "s.open = 1 AND NOT EXISTS (SELECT 1 FROM seats m "
                     "WHERE m.game_key = s.game_key AND m.player_key = ?1))) "
                     "AND (?2 IS NULL OR g.status = ?2) "
                     "AND (?3 = 0 OR (g.status = 'active' AND "
                     "((g.to_act >> s.seat) & 1) <> 0)) "
                     "AND (g.updated_ms < ?4 OR (g.updated_ms = ?4 AND "
                     "g.key < ?5)) AND " VISIBLE("g.", "?7") " "
                     "ORDER BY g.updated_ms DESC, g.key DESC LIMIT ?6) x "
                     "JOIN games g ON g.key = x.gk "
                     "ORDER BY x.u DESC, x.gk DESC",
    [ST_EV_SEATED] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT " PG_EVENT_ID ", s.player_key, g.key, ?2, "
        "CASE WHEN ?2 = 'turn' THEN " PG_EV_DATA(
            ", 'deadline', " PG_ISO_MS(PG_SEAT_DEADLINE) ", 'bank_ms', " PG_SEAT_BANK)
            " ELSE " PG_EV_DATA("") " END, ?4 "
                                    "FROM seats s JOIN games g ON g.key = "
                                    "s.game_key WHERE s.game_key = ?1 AND "
                                    "s.player_key IS NOT NULL AND "
                                    "((?3 >> s.seat) & 1) <> 0 "
                                    "ORDER BY s.seat",
    [ST_EV_INVITED] = "INSERT INTO events (id, player_key, game_key, type, "
                      "data, created_ms) SELECT " PG_EVENT_ID ", "
                      "s.invited, g.key, 'invited', " PG_EV_DATA("") ", ?2 "
                      "FROM seats s JOIN games g ON g.key = s.game_key "
                      "WHERE s.game_key = ?1 AND s.open = 1 "
                      "AND s.invited IS NOT NULL ORDER BY s.seat",
    /* ?1 pool: taken until the transaction ends, so that two nodes
     * inserting seeks of one pool take turns (each then reads the
     * other's committed seek: READ COMMITTED).  Tried, not waited for:
     * a batch (group commit) may hold several pools' locks, and two
     * nodes' batches waiting for each other's would deadlock; false
     * when another transaction holds it (the caller retries). */
    [ST_SEEK_LOCK] = "SELECT pg_try_advisory_xact_lock(hashtext(?1))",
    /* a player's vacation writes (and a timeout of theirs: the vacation
     * check) one after the other, on every node */
    [ST_VAC_LOCK] = "SELECT key FROM players WHERE key = ?1 FOR UPDATE",
    /* driver_sqlite.c's; a seek being cancelled (its row locked) is
     * skipped */
    [ST_SEEK_CANDIDATES] = "SELECT key, player_key, rating, rating_min, "
                           "rating_max FROM seeks WHERE pool = ?1 AND "
                           "state = 'open' AND expires_ms > ?2 AND "
                           "player_key <> ?3 AND rating_min <= ?4 AND "
                           "rating_max >= ?4 AND rating BETWEEN ?5 AND ?6 "
                           "AND NOT EXISTS (SELECT 1 FROM blocks b WHERE "
                           "(b.player_key = ?3 AND b.blocked_key = "
                           "seeks.player_key) OR (b.player_key = "
                           "seeks.player_key AND b.blocked_key = ?3)) "
                           "ORDER BY key LIMIT 64 FOR UPDATE SKIP LOCKED",
    /* driver_sqlite.c's */
    [ST_EV_SEEK_MATCHED] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT " PG_EVENT_ID ", k.player_key, g.key, "
        "'seek.matched', " PG_EV_DATA(", 'seek', k.id") ", ?2 FROM seeks k "
        "JOIN games g ON g.id = k.game JOIN seats s ON s.game_key = g.key "
        "AND s.player_key = k.player_key WHERE k.game = ?1 ORDER BY s.seat",
    /* driver_sqlite.c's */
    [ST_EV_REMATCH] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT " PG_EVENT_ID ", s.player_key, g.key, "
        "'rematch', " PG_EV_DATA(
            ", 'rematch', json_build_object('state', CASE WHEN g.rematch "
            "IS NOT NULL THEN 'started' WHEN g.rematch_seats IS NULL THEN "
            "'declined' ELSE 'offered' END, 'offered_by', g.rematch_by, "
            "'accepted', (SELECT coalesce(json_agg(a.seat ORDER BY "
            "a.seat), '[]'::json) FROM seats a WHERE a.game_key = g.key "
            "AND ((coalesce(g.rematch_seats, 0) >> a.seat) & 1) <> 0), "
            "'game', g.rematch, 'by', ?2::integer)")
            ", ?3 FROM seats s JOIN games g ON g.key = s.game_key WHERE "
            "s.game_key = ?1 AND s.player_key IS NOT NULL ORDER BY s.seat",
    /* ?1 game, ?2 the seat just taken, ?3 now (driver_sqlite.c's) */
    [ST_EV_SEAT_TAKEN] = "INSERT INTO events (id, player_key, game_key, "
                         "type, data, created_ms) SELECT " PG_EVENT_ID ", "
                         "s.player_key, g.key, 'seat.taken', "
                         PG_EV_DATA("") ", ?3 FROM seats s JOIN games g "
                         "ON g.key = s.game_key WHERE s.game_key = ?1 AND "
                         "s.open = 0 AND s.player_key IS NOT NULL AND "
                         "s.seat <> ?2 AND g.status = 'waiting' "
                         "ORDER BY s.seat",
    [ST_EV_DEADLINE] =
        "INSERT INTO events (id, player_key, game_key, type, data, "
        "created_ms) SELECT " PG_EVENT_ID ", s.player_key, g.key, "
        "'deadline.soon', " PG_EV_DATA(
            ", 'deadline', " PG_ISO_MS("?3") ", 'bank_ms', " PG_SEAT_BANK)
            ", ?4 FROM seats s JOIN games g ON g.key = s.game_key "
            "WHERE s.game_key = ?1 AND s.seat = ?2 AND s.player_key IS "
            "NOT NULL",
    /* Two nodes claim at once: SKIP LOCKED makes the second take
     * another delivery (or none) rather than wait for the first's row
     * and then claim it too (READ COMMITTED re-reads only the outer
     * WHERE, which rechecks that it is still due).  A destination's
     * deliveries in flight are counted from committed rows: nodes
     * claiming at once may each take its last free place (at most
     * nodes x the cap in flight there). */
    [ST_DLV_CLAIM] = "UPDATE deliveries SET in_flight = 1, next_ms = ?2 "
                     "WHERE event_key = (" DLV_CLAIMABLE " LIMIT 1 "
                     "FOR UPDATE OF d SKIP LOCKED) "
                     "AND state = 'pending' AND next_ms <= ?1 "
                     "RETURNING event_key",
    /* ?1 now, ?2 lease end, ?3..?5 MAIL_CLAIMABLE's */
    [ST_MAIL_DLV_CLAIM] = "UPDATE mail_deliveries SET in_flight = 1, "
                          "next_ms = ?2 WHERE key = (" MAIL_CLAIMABLE
                          " LIMIT 1 FOR UPDATE OF d SKIP LOCKED) "
                          "AND state = 'pending' AND next_ms <= ?1 RETURNING key",
    /* ?1 now, ?2 lease end, ?3..?5 PUSH_CLAIMABLE's */
    [ST_PUSH_DLV_CLAIM] = "UPDATE push_deliveries SET in_flight = 1, "
                          "next_ms = ?2 WHERE key = (" PUSH_CLAIMABLE
                          " LIMIT 1 FOR UPDATE OF d SKIP LOCKED) "
                          "AND state = 'pending' AND next_ms <= ?1 RETURNING key",
    [ST_DLV_DONE] = "UPDATE deliveries SET attempts = attempts + 1, "
                    "in_flight = 0, last_ms = ?6, "
                    "last_status = nullif(?3, 0), "
                    "last_error = nullif(?4, ''), next_ms = "
                    "CASE WHEN ?5 > 0 THEN ?5 ELSE next_ms END, "
                    "state = CASE WHEN ?2 <> 0 THEN 'delivered' "
                    "WHEN ?5 > 0 THEN 'pending' ELSE 'failed' END "
                    "WHERE event_key = ?1 AND state = 'pending'",
    [ST_DLV_REQUEUE] = "UPDATE deliveries SET in_flight = 0, next_ms = "
                       "LEAST(next_ms, ?1) WHERE in_flight = 1",
    [ST_BOT_GAMES] = "SELECT DISTINCT s.game_key FROM seats s "
                     "JOIN games g ON g.key = s.game_key "
                     "WHERE s.bot IS NOT NULL AND s.game_key > ?1 "
                     "AND g.status = 'active' "
                     "AND ((g.to_act >> s.seat) & 1) <> 0 "
                     "ORDER BY s.game_key LIMIT ?2",
    [ST_GAME_CLOCK_START] =
        "UPDATE games SET deadline_ms = updated_ms + " PG_CLOCK_ALLOWED ", "
        "soon_ms = updated_ms + " PG_CLOCK_ALLOWED " - LEAST(" CLOCK_SOON_CAP
        ", " PG_CLOCK_ALLOWED " / " CLOCK_SOON_SHARE ") "
        "WHERE key = ?1 AND clock IS NOT NULL AND clock_state IS NULL "
        "AND status = 'active' AND to_act != 0",
    [ST_CLOCK_DUE] = "SELECT key FROM (SELECT key, deadline_ms AS t "
                     "FROM games WHERE deadline_ms <= ?1 UNION ALL "
                     "SELECT key, soon_ms FROM games WHERE soon_ms <= ?1) u "
                     "GROUP BY key ORDER BY min(t) LIMIT ?2",
    /* LEAST skips NULLs: SQLite's min(coalesce(d, s), coalesce(s, d)) */
    [ST_CLOCK_NEXT] = "SELECT LEAST((SELECT min(deadline_ms) FROM games "
                      "WHERE deadline_ms > ?1), (SELECT min(soon_ms) "
                      "FROM games WHERE soon_ms > ?1))",
    [ST_PRUNE_HORIZONS] =
        "INSERT INTO event_horizons (player_key, pruned_key) "
        "SELECT player_key, max(key) FROM events WHERE key IN (" PRUNABLE
        ") GROUP BY player_key ON CONFLICT (player_key) DO UPDATE SET "
        "pruned_key = GREATEST(event_horizons.pruned_key, "
        "excluded.pruned_key)",
    /* driver_sqlite.c's, in the "C" collation that the index
     * players_by_lower_name is built in (sql/postgres/0017) */
    [ST_PLAYERS_BY_NAME] =
        "SELECT key, id, name, created_ms FROM players WHERE lower(name) "
        "COLLATE \"C\" >= lower(?1) AND lower(name) COLLATE \"C\" < "
        "lower(?1) || chr(1114111) AND deleted_ms IS NULL AND banned_ms IS "
        "NULL ORDER BY lower(name) COLLATE \"C\", key LIMIT ?2",
};
/* clang-format on */

/* ---- handles --------------------------------------------------------- */

/* A connection's handle (struct conn's h). */
struct pg_handle {
	PGconn *pg;                       /* libpq's connection */
	unsigned char prepared[ST_COUNT]; /* 1 once statement i is prepared */
	int64_t changes;  /* rows the last statement changed (store__changes) */
	const char *node; /* its store's node id (store.h, "what other
	                     processes change"), set as boardd.node */
	int writer;       /* 1 for the write connection, whose statements
	                     after BEGIN are never retried */
};

static struct pg_handle *pgh(const struct conn *c)
{
	return c->h;
}

/* A row: row i of a result, its bytea columns decoded on demand. */
struct pg_blobs;
struct pg_row {
	struct row r; /* first: what a row_fn sees */
	PGresult *res;
	int i;
	struct pg_blobs *blobs; /* NULL: none decoded (store__query_i64's) */
};

static const struct pg_row *pgr(const struct row *r)
{
	return (const struct pg_row *)r;
}

static int64_t pg_col_i64(const struct row *r, int col);

/* ---- errors ---------------------------------------------------------- */

/* The bd_err for a failed statement on c (res: its result, or NULL), and
 * a line on stderr for the ones no caller can expect.  A lost race on a
 * key is a conflict (as SQLite's constraint error); a serialization
 * failure, a deadlock or a lock not had in time is busy (retryable); a
 * lost connection or a server shutting down is unavailable; a full disk
 * is no space. */
static int pg_fail(struct conn *c, const PGresult *res)
{
	const char *state =
	    res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	if (PQstatus(pgh(c)->pg) == CONNECTION_BAD) {
		log_error("store", "postgresql connection lost: %s",
		          PQerrorMessage(pgh(c)->pg));
		return BD_EUNAVAILABLE;
	}
	if (state) {
		if (strcmp(state, "23505") == 0)
			return BD_ECONFLICT;
		if (strcmp(state, "40001") == 0 ||
		    strcmp(state, "40P01") == 0 || strcmp(state, "55P03") == 0)
			return BD_EBUSY;
		if (strcmp(state, "53100") == 0)
			return BD_ENOSPACE;
		if (strcmp(state, "53200") == 0)
			return BD_ENOMEM;
		/* (08P01, a protocol violation, is a bug of ours: below) */
		if ((strncmp(state, "08", 2) == 0 &&
		     strcmp(state, "08P01") != 0) ||
		    strncmp(state, "57P", 3) == 0 ||
		    strcmp(state, "53300") == 0) {
			log_error("store", "postgresql unavailable (%s): %s",
			          state, PQresultErrorMessage(res));
			return BD_EUNAVAILABLE;
		}
	}
	log_error("store", "postgresql error %s: %s", state ? state : "?",
	          res ? PQresultErrorMessage(res) : PQerrorMessage(pgh(c)->pg));
	return BD_EINTERNAL;
}

/* Writes a sentence into err (if any) and returns code. */
static int pg_open_fail(char *err, size_t errlen, int code, const char *what,
                        const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", what, msg ? msg : "");
	/* libpq's messages end with a newline */
	size_t n = err ? strlen(err) : 0;
	while (n && err[n - 1] == '\n')
		err[--n] = '\0';
	return code;
}

/* ---- connections ----------------------------------------------------- */

/* Runs sql (no parameters, no rows wanted) on c.  0, or a bd_err. */
static int pg_exec(struct conn *c, const char *sql)
{
	PGresult *res = PQexec(pgh(c)->pg, sql);
	int rc = 0;
	if (!res || (PQresultStatus(res) != PGRES_COMMAND_OK &&
	             PQresultStatus(res) != PGRES_TUPLES_OK))
		rc = pg_fail(c, res);
	PQclear(res);
	return rc;
}

/* The session every connection runs in: commits durable before they
 * return (group commit's promise), warnings only, and for the writer a
 * bound on how long a statement waits for a row lock (another node's). */
static int pg_session(struct conn *c, int lock_wait_ms)
{
	char sql[224];
	/* boardd.node: which node made a change, for the triggers of
	 * sql/postgres/0002_notify.sql (a lowercase hex id: no quoting) */
	snprintf(sql, sizeof sql,
	         "SET synchronous_commit = on; SET client_min_messages = "
	         "warning; SET lock_timeout = %d; SET boardd.node = '%s'",
	         lock_wait_ms > 0 ? lock_wait_ms : 0,
	         pgh(c)->node ? pgh(c)->node : "");
	return pg_exec(c, sql);
}

/* libpq's notices and the server's messages that come outside a query
 * (a FATAL "terminating connection" to a listening session) go through
 * the server's log (one JSON line under --log-format json), not
 * straight to stderr as libpq's default processor writes them. */
static void pg_notice(void *arg, const char *message)
{
	(void)arg;
	size_t n = strlen(message);
	while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == '\r'))
		n--;
	log_error("postgresql", "%.*s", (int)n, message);
}

/* PQconnectdb with pg_notice set (kept by PQreset), or NULL. */
static PGconn *pg_connectdb(const char *conninfo)
{
	PGconn *pg = PQconnectdb(conninfo);
	if (pg)
		PQsetNoticeProcessor(pg, pg_notice, NULL);
	return pg;
}

/* Connects c: the writer with a lock_timeout of the store's
 * busy_timeout_ms (another node's row locks), a read connection with
 * none. */
static int pg_connect(struct store *s, struct conn *c,
                      const struct store_config *cfg, char *err, size_t errlen)
{
	struct pg_handle *h = calloc(1, sizeof *h);
	if (!h)
		return pg_open_fail(err, errlen, BD_ENOMEM, "postgresql",
		                    "out of memory");
	c->h = h;
	h->node = s->node;
	h->writer = c == &s->writer;
	int lock_wait_ms = h->writer ? cfg->busy_timeout_ms : 0;
	pgh(c)->pg = pg_connectdb(cfg->path);
	if (!pgh(c)->pg)
		return pg_open_fail(err, errlen, BD_ENOMEM, "postgresql",
		                    "out of memory");
	if (PQstatus(pgh(c)->pg) != CONNECTION_OK)
		return pg_open_fail(err, errlen, BD_EUNAVAILABLE,
		                    "cannot connect to postgresql",
		                    PQerrorMessage(pgh(c)->pg));
	memset(pgh(c)->prepared, 0, sizeof pgh(c)->prepared);
	if (pg_session(c, lock_wait_ms) < 0)
		return pg_open_fail(err, errlen, BD_EINTERNAL,
		                    "cannot set up the postgresql session",
		                    PQerrorMessage(pgh(c)->pg));
	return 0;
}

/* Closes c; a never-connected c is a no-op. */
static void pg_close(struct conn *c)
{
	struct pg_handle *h = c->h;
	if (!h)
		return;
	PQfinish(h->pg);
	free(h);
	c->h = NULL;
}

/* After a lost connection: one reconnection attempt (libpq keeps the
 * parameters), which forgets every prepared statement.  0, or
 * BD_EUNAVAILABLE while the server stays away. */
static int pg_revive(struct conn *c)
{
	if (PQstatus(pgh(c)->pg) == CONNECTION_OK)
		return 0;
	PQreset(pgh(c)->pg);
	memset(pgh(c)->prepared, 0, sizeof pgh(c)->prepared);
	if (PQstatus(pgh(c)->pg) != CONNECTION_OK)
		return BD_EUNAVAILABLE;
	/* a reconnected writer loses its lock_timeout: reads need none, and
	 * the writer's batches still end at the server's own deadlock
	 * detection */
	return pg_session(c, 0) < 0 ? BD_EUNAVAILABLE : 0;
}

static int pg_in_tx(const struct conn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(pgh(c)->pg);
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR ||
	       t == PQTRANS_ACTIVE;
}

/* ---- statements ------------------------------------------------------ */

/* The text of c's statement id with its ?N parameters as $N, malloc'd. */
static char *pg_text(const struct conn *c, enum stmt id)
{
	const char *src = c->sql[id];
	size_t n = strlen(src);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		out[i] = src[i] == '?' && src[i + 1] >= '0' && src[i + 1] <= '9'
		             ? '$'
		             : src[i];
	return out;
}

/* The parameter types of an argument list. */
static void pg_types(const struct arg *a, int n, Oid *types)
{
	for (int i = 0; i < n; i++)
		types[i] = a[i].type == ARG_I64    ? OID_INT8
		           : a[i].type == ARG_BLOB ? OID_BYTEA
		                                   : OID_TEXT;
}

/* Prepares statement id on c as "s<id>", its parameters typed from
 * a[0..n). */
static int pg_prepare(struct conn *c, enum stmt id, const struct arg *a, int n)
{
	Oid types[PG_MAX_ARGS];
	char name[16];
	char *sql = pg_text(c, id);
	if (!sql)
		return BD_ENOMEM;
	pg_types(a, n, types);
	snprintf(name, sizeof name, "s%d", (int)id);
	PGresult *res = PQprepare(pgh(c)->pg, name, sql, n, types);
	int rc = 0;
	if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
		rc = pg_fail(c, res);
		log_error("store", "while preparing: %s", sql);
	}
	PQclear(res);
	free(sql);
	if (rc == 0)
		pgh(c)->prepared[id] = 1;
	return rc;
}

/* Bytea columns of the row a row_fn reads, decoded at first access. */
struct pg_blobs {
	unsigned char *p[PG_MAX_COLS]; /* PQunescapeBytea's, or NULL */
	size_t n[PG_MAX_COLS];
	unsigned char done[PG_MAX_COLS]; /* 1 once column i was decoded */
};

static void pg_blobs_clear(struct pg_blobs *b)
{
	for (int i = 0; i < PG_MAX_COLS; i++) {
		if (b->p[i])
			PQfreemem(b->p[i]);
		b->p[i] = NULL;
		b->done[i] = 0;
	}
}

/* Whether an INSERT, UPDATE or DELETE tag (what SQLite counts in
 * sqlite3_changes). */
static int pg_is_change(const PGresult *res)
{
	const char *tag = PQcmdStatus((PGresult *)res);
	return strncmp(tag, "INSERT", 6) == 0 ||
	       strncmp(tag, "UPDATE", 6) == 0 || strncmp(tag, "DELETE", 6) == 0;
}

static int pg_run(struct conn *c, enum stmt id, const struct arg *a, int n,
                  row_fn fn, void *ctx)
{
	if (n > PG_MAX_ARGS)
		return BD_EINTERNAL;
	/* A session lost since its last use (the server restarted, an idle
	 * timeout) is found by the statement that fails: one that opens
	 * nothing (a read on a pooled connection, the writer's BEGIN) is
	 * run once more on a new session; inside a transaction the failure
	 * stands, the transaction being gone with its session. */
	int again = !pgh(c)->writer || id == ST_BEGIN;
retry:;
	int rc = pg_revive(c);
	if (rc == 0 && !pgh(c)->prepared[id])
		rc = pg_prepare(c, id, a, n);
	if (rc < 0 && again && PQstatus(pgh(c)->pg) == CONNECTION_BAD) {
		again = 0;
		goto retry;
	}
	if (rc < 0)
		return rc;
	const char *vals[PG_MAX_ARGS];
	int lens[PG_MAX_ARGS], fmts[PG_MAX_ARGS];
	char nums[PG_MAX_ARGS][24];
	for (int i = 0; i < n; i++) {
		lens[i] = 0;
		fmts[i] = 0;
		if (a[i].type == ARG_I64) {
			snprintf(nums[i], sizeof nums[i], "%lld",
			         (long long)a[i].i);
			vals[i] = nums[i];
		} else if (a[i].type == ARG_BLOB) {
			/* an empty blob is not NULL: any non-NULL pointer */
			vals[i] = a[i].p ? a[i].p : NULL;
			lens[i] = a[i].n;
			fmts[i] = 1;
		} else {
			vals[i] = a[i].p;
		}
	}
	char name[16];
	snprintf(name, sizeof name, "s%d", (int)id);
	PGresult *res =
	    PQexecPrepared(pgh(c)->pg, name, n, vals, lens, fmts, 0);
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		if (again && PQstatus(pgh(c)->pg) == CONNECTION_BAD) {
			PQclear(res);
			again = 0;
			goto retry;
		}
		rc = pg_fail(c, res);
		PQclear(res);
		return rc;
	}
	if (pg_is_change(res))
		pgh(c)->changes = strtoll(PQcmdTuples(res), NULL, 10);
	struct pg_blobs blobs;
	memset(&blobs, 0, sizeof blobs);
	int rows = PQntuples(res);
	for (int i = 0; rc == 0 && fn && i < rows; i++) {
		struct pg_row r = {{&store_driver_pg}, res, i, &blobs};
		rc = fn(&r.r, ctx);
		pg_blobs_clear(&blobs);
	}
	PQclear(res);
	return rc;
}

static int pg_query_i64(struct conn *c, const char *sql, int64_t *v)
{
	int rc = pg_revive(c);
	if (rc < 0)
		return rc;
	PGresult *res = PQexec(pgh(c)->pg, sql);
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK &&
	    PQntuples(res) == 1 && PQnfields(res) == 1) {
		struct pg_row r = {{&store_driver_pg}, res, 0, NULL};
		*v = pg_col_i64(&r.r, 0);
	} else {
		rc = pg_fail(c, res);
		if (rc == 0)
			rc = BD_EINTERNAL;
	}
	PQclear(res);
	return rc;
}

/* ---- rows ------------------------------------------------------------ */

static int64_t pg_col_i64(const struct row *r, int col)
{
	if (PQgetisnull(pgr(r)->res, pgr(r)->i, col))
		return 0;
	const char *v = PQgetvalue(pgr(r)->res, pgr(r)->i, col);
	if (v[0] == 't' && !v[1])
		return 1;
	if (v[0] == 'f' && !v[1])
		return 0;
	return strtoll(v, NULL, 10);
}

static const char *pg_col_text(const struct row *r, int col)
{
	return PQgetisnull(pgr(r)->res, pgr(r)->i, col)
	           ? NULL
	           : PQgetvalue(pgr(r)->res, pgr(r)->i, col);
}

/* Decodes bytea column col of r once; 0, or -1 if it is not one. */
static int pg_decode(const struct row *r, int col)
{
	if (PQftype(pgr(r)->res, col) != OID_BYTEA || col >= PG_MAX_COLS ||
	    !pgr(r)->blobs)
		return -1;
	struct pg_blobs *b = pgr(r)->blobs;
	if (!b->done[col]) {
		b->done[col] = 1;
		b->n[col] = 0;
		if (!PQgetisnull(pgr(r)->res, pgr(r)->i, col))
			b->p[col] =
			    PQunescapeBytea((const unsigned char *)PQgetvalue(
			                        pgr(r)->res, pgr(r)->i, col),
			                    &b->n[col]);
	}
	return 0;
}

static const void *pg_col_blob(const struct row *r, int col)
{
	if (pg_decode(r, col) < 0)
		return pg_col_text(r, col);
	return pgr(r)->blobs->n[col] ? pgr(r)->blobs->p[col] : NULL;
}

static int pg_col_bytes(const struct row *r, int col)
{
	if (pg_decode(r, col) < 0)
		return PQgetlength(pgr(r)->res, pgr(r)->i, col);
	return (int)pgr(r)->blobs->n[col];
}

static int pg_col_null(const struct row *r, int col)
{
	return PQgetisnull(pgr(r)->res, pgr(r)->i, col);
}

static int pg_col_count(const struct row *r)
{
	return PQnfields(pgr(r)->res);
}

/* ---- migrations ------------------------------------------------------ */

/* Inside the migration transaction: applies every migration of
 * sql/postgres/ newer than the database's and records each. */
static int pg_apply(struct conn *c, char *err, size_t errlen)
{
	int64_t have = 0;
	int rc = pg_query_i64(
	    c, "SELECT coalesce(max(version), 0) FROM boardd_migrations",
	    &have);
	if (rc < 0)
		return pg_open_fail(err, errlen, rc,
		                    "reading the schema version",
		                    PQerrorMessage(pgh(c)->pg));
	int64_t known = (int64_t)store_pg_migrations_count;
	if (have < 0 || have > known) {
		snprintf(err, errlen,
		         "database schema version %lld is newer than this "
		         "server knows (%lld): upgrade the server",
		         (long long)have, (long long)known);
		return BD_EINTERNAL;
	}
	for (size_t i = (size_t)have; i < store_pg_migrations_count; i++) {
		const struct store_migration *m = &store_pg_migrations[i];
		char sql[256];
		if (m->version != (int)i + 1) {
			snprintf(err, errlen, "migration %s is not version %zu",
			         m->name, i + 1);
			return BD_EINTERNAL;
		}
		double t0 = driver_mono_ms();
		if (pg_exec(c, m->sql) < 0)
			return pg_open_fail(err, errlen, BD_EINTERNAL, m->name,
			                    PQerrorMessage(pgh(c)->pg));
		snprintf(sql, sizeof sql,
		         "INSERT INTO boardd_migrations (version, name, "
		         "applied_ms) VALUES (%d, '%.80s', (extract(epoch "
		         "FROM now()) * 1000)::bigint)",
		         m->version, m->name);
		if (pg_exec(c, sql) < 0)
			return pg_open_fail(err, errlen, BD_EINTERNAL, m->name,
			                    PQerrorMessage(pgh(c)->pg));
		driver_migration_logged(m, t0);
	}
	return 0;
}

/* Applies sql/postgres's migrations that the database lacks, under an
 * advisory lock (two nodes starting together migrate once). */
static int pg_migrate(struct store *s, struct conn *c, char *err, size_t errlen)
{
	(void)s;
	char lock[96];
	snprintf(lock, sizeof lock, "SELECT pg_advisory_lock(%d)",
	         PG_MIGRATE_LOCK);
	if (pg_exec(c, lock) < 0)
		return pg_open_fail(err, errlen, BD_EUNAVAILABLE,
		                    "taking the migration lock",
		                    PQerrorMessage(pgh(c)->pg));
	int rc = pg_exec(c, "BEGIN");
	if (rc == 0)
		rc = pg_exec(c, "CREATE TABLE IF NOT EXISTS boardd_migrations ("
		                "version integer PRIMARY KEY, name text NOT "
		                "NULL, applied_ms bigint NOT NULL)");
	if (rc < 0)
		pg_open_fail(err, errlen, rc, "starting the migration",
		             PQerrorMessage(pgh(c)->pg));
	if (rc == 0)
		rc = pg_apply(c, err, errlen);
	if (rc == 0 && (rc = pg_exec(c, "COMMIT")) < 0)
		pg_open_fail(err, errlen, rc, "committing the migration",
		             PQerrorMessage(pgh(c)->pg));
	if (rc < 0 && pg_in_tx(c))
		pg_exec(c, "ROLLBACK");
	snprintf(lock, sizeof lock, "SELECT pg_advisory_unlock(%d)",
	         PG_MIGRATE_LOCK);
	pg_exec(c, lock); /* or the session's end releases it */
	return rc;
}

/* ---- what other nodes change (store.h; store_listen) ----------------- */

#define PG_LISTEN_RETRY_MS 1000 /* between connection attempts */
#define PG_LISTEN_WAIT_MS  2000 /* longest a connect or a query may take */
#define PG_LISTEN_IDLE_MS  1000 /* quiet this long: probe the session */
#define PG_LISTEN_BRIEF_MS 5000 /* a session lost sooner: wait to retry */

/* The listener (struct store's ds, NULL while none runs). */
struct pg_listen {
	struct store *s;
	store_tell_fn tell; /* tells the change listener (store_open's) */
	const struct store_remote *r; /* borrowed */
	void *ctx;
	pthread_t thread;
	int stop[2]; /* a pipe: a byte written asks the thread to end */
};

/* Waits until fd is readable (events POLLIN) or writable (POLLOUT; fd <
 * 0: only the stop pipe), at most timeout_ms (-1: forever).  1: asked to
 * stop; 0: fd is ready; -1: the time ran out. */
static int listen_wait(struct pg_listen *l, int fd, short events,
                       int timeout_ms)
{
	struct pollfd p[2] = {{l->stop[0], POLLIN, 0}, {fd, events, 0}};
	int n = poll(p, fd >= 0 ? 2 : 1, timeout_ms);
	if (n > 0 && (p[0].revents & (POLLIN | POLLHUP)))
		return 1;
	return n > 0 ? 0 : -1;
}

static int64_t listen_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Tells one notice's payload (sql/postgres/0002_notify.sql's shapes,
 * the node last).  The listener's own node's are ignored, and so is
 * anything else than those shapes with positive keys (a newer schema's,
 * or one forged by another client of the database: NOTIFY needs no
 * privilege). */
static void listen_tell(struct pg_listen *l, const char *payload)
{
	char kind, id[STORE_ID_LEN + 2], node[STORE_NODE_LEN + 2];
	int64_t key;
	uint64_t seq;
	node[0] = 0;
	if (sscanf(payload, "g %" SCNd64 " %17s %" SCNu64 " %17s", &key, id,
	           &seq, node) >= 3 &&
	    key > 0 && strlen(id) == STORE_ID_LEN) {
		if (strcmp(node, l->s->node) != 0 && l->r->game)
			l->r->game(l->ctx, key, id, seq);
	} else if (sscanf(payload, "%c %" SCNd64 " %17s", &kind, &key, node) >=
	               2 &&
	           kind == 'p' && key > 0) {
		if (strcmp(node, l->s->node) != 0)
			l->tell(l->s, &key, 1);
	}
}

/* Tells every notice libpq has read. */
static void listen_drain(struct pg_listen *l, PGconn *pg)
{
	PGnotify *n;
	while ((n = PQnotifies(pg)) != NULL) {
		listen_tell(l, n->extra);
		PQfreemem(n);
	}
}

/* Runs sql on pg without blocking past PG_LISTEN_WAIT_MS or a stop
 * request, telling the notices that come meanwhile.  0: it succeeded;
 * 1: asked to stop; -1: it failed or the server did not answer in time
 * (the session is then given up). */
static int listen_query(struct pg_listen *l, PGconn *pg, const char *sql)
{
	if (!PQsendQuery(pg, sql))
		return -1;
	int64_t end = listen_now_ms() + PG_LISTEN_WAIT_MS;
	int ok = 1;
	for (;;) {
		while (!PQisBusy(pg)) {
			PGresult *res = PQgetResult(pg);
			if (!res) {
				listen_drain(l, pg);
				return ok ? 0 : -1;
			}
			ok &= PQresultStatus(res) == PGRES_COMMAND_OK ||
			      PQresultStatus(res) == PGRES_TUPLES_OK;
			PQclear(res);
		}
		int64_t left = end - listen_now_ms();
		if (left <= 0)
			return -1;
		int w = listen_wait(l, PQsocket(pg), POLLIN, (int)left);
		if (w)
			return w > 0 ? 1 : -1;
		if (!PQconsumeInput(pg))
			return -1;
	}
}

/* Connects (without blocking past PG_LISTEN_WAIT_MS or a stop request)
 * and LISTENs.  *pg the session, or NULL while the database is away;
 * 1: asked to stop. */
static int listen_connect(struct pg_listen *l, PGconn **out)
{
	*out = NULL;
	PGconn *pg = PQconnectStart(l->s->path);
	if (!pg)
		return 0;
	PQsetNoticeProcessor(pg, pg_notice, NULL);
	int64_t end = listen_now_ms() + PG_LISTEN_WAIT_MS;
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	int rc = 0;
	while (PQstatus(pg) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
	       st != PGRES_POLLING_FAILED) {
		int64_t left = end - listen_now_ms();
		int w = left <= 0
		            ? -1
		            : listen_wait(l, PQsocket(pg),
		                          st == PGRES_POLLING_READING ? POLLIN
		                                                      : POLLOUT,
		                          (int)left);
		if (w) {
			rc = w > 0;
			st = PGRES_POLLING_FAILED;
			break;
		}
		st = PQconnectPoll(pg);
	}
	if (st == PGRES_POLLING_OK && !rc &&
	    (rc = listen_query(l, pg, "LISTEN boardd")) == 0) {
		*out = pg;
		return 0;
	}
	PQfinish(pg);
	return rc > 0;
}

/* The listener's thread: lost, then for each session: LISTEN, back, the
 * notices until the session fails or stops answering (a query when it
 * has been quiet for PG_LISTEN_IDLE_MS, so that a hung server or a
 * silent network is noticed too), lost; until asked to stop. */
static void *listen_main(void *arg)
{
	struct pg_listen *l = arg;
	int said_lost = 0, brief = 0;
	for (;;) {
		if (!said_lost) {
			l->r->lost(l->ctx);
			said_lost = 1;
		}
		PGconn *pg = NULL;
		if ((brief && listen_wait(l, -1, 0, PG_LISTEN_RETRY_MS) > 0) ||
		    listen_connect(l, &pg))
			return NULL;
		brief = 0;
		if (!pg) {
			if (listen_wait(l, -1, 0, PG_LISTEN_RETRY_MS) > 0)
				return NULL;
			continue;
		}
		l->r->back(l->ctx);
		said_lost = 0;
		int64_t since = listen_now_ms();
		int rc;
		for (;;) {
			rc = listen_wait(l, PQsocket(pg), POLLIN,
			                 PG_LISTEN_IDLE_MS);
			if (rc > 0)
				break;
			if (rc < 0) /* quiet: does the session still answer? */
				rc = listen_query(l, pg, "SELECT 1");
			else if (!PQconsumeInput(pg))
				rc = -1;
			else
				listen_drain(l, pg);
			if (rc)
				break;
		}
		PQfinish(pg);
		if (rc > 0)
			return NULL;
		brief = listen_now_ms() - since < PG_LISTEN_BRIEF_MS;
		log_error("store", "lost the listening connection to "
		                   "postgresql; reconnecting");
	}
}

static int pg_listen(struct store *s, const struct store_remote *r, void *ctx,
                     store_tell_fn tell)
{
	if (s->ds || !r || !r->lost || !r->back)
		return BD_EINTERNAL;
	struct pg_listen *l = calloc(1, sizeof *l);
	if (!l)
		return BD_ENOMEM;
	*l = (struct pg_listen){s, tell, r, ctx, 0, {-1, -1}};
	if (pipe(l->stop) < 0) {
		free(l);
		return BD_EINTERNAL;
	}
	if (pthread_create(&l->thread, NULL, listen_main, l) != 0) {
		close(l->stop[0]);
		close(l->stop[1]);
		free(l);
		return BD_EINTERNAL;
	}
	s->ds = l;
	return 0;
}

static void pg_unlisten(struct store *s)
{
	struct pg_listen *l = s->ds;
	if (!l)
		return;
	ssize_t w;
	do
		w = write(l->stop[1], "x", 1);
	while (w < 0 && errno == EINTR);
	pthread_join(l->thread, NULL);
	close(l->stop[0]);
	close(l->stop[1]);
	free(l);
	s->ds = NULL;
}

/* ---- leases (store.h) ------------------------------------------------ */

static int pg_lease(struct conn *c, const char *node, int64_t game_key,
                    int64_t lease_ms, int *taken)
{
	/* now and until in the database's clock: the nodes' clocks may
	 * differ, the server's is one */
	static const char take[] =
	    "INSERT INTO leases (game_key, node, until_ms) VALUES ($1, $2, "
	    "(extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3) "
	    "ON CONFLICT (game_key) DO UPDATE SET node = excluded.node, "
	    "until_ms = excluded.until_ms WHERE leases.node = excluded.node "
	    "OR leases.until_ms < (extract(epoch FROM clock_timestamp()) * "
	    "1000)::bigint RETURNING game_key";
	static const char drop[] =
	    "DELETE FROM leases WHERE game_key = $1 AND node = $2";
	char key[24], ms[24];
	snprintf(key, sizeof key, "%" PRId64, game_key);
	snprintf(ms, sizeof ms, "%" PRId64, lease_ms);
	const char *v[3] = {key, node, ms};
	int rc = pg_revive(c);
	PGresult *res = NULL;
	if (rc == 0) {
		res =
		    PQexecParams(pgh(c)->pg, lease_ms > 0 ? take : drop,
		                 lease_ms > 0 ? 3 : 2, NULL, v, NULL, NULL, 0);
		ExecStatusType st = PQresultStatus(res);
		if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
			rc = pg_fail(c, res);
		else if (taken)
			*taken = PQntuples(res) == 1;
	}
	PQclear(res);
	return rc;
}

/* ---- the driver ------------------------------------------------------ */

/* No store-wide state but the listener (pg_listen). */
static int pg_open(struct store *s, const struct store_config *cfg, char *err,
                   size_t errlen)
{
	(void)cfg, (void)err, (void)errlen; /* several nodes may share the
	                                       database: no exclusive lock */
	s->ds = NULL;
	return 0;
}

static void pg_release(struct store *s)
{
	(void)s; /* store_close stopped the listener */
}

static int64_t pg_changes(const struct conn *c)
{
	return pgh(c)->changes;
}

/* A server, not a file: no inode to check. */
static int pg_check(struct store *s)
{
	(void)s;
	return 0;
}

const struct store_driver store_driver_pg = {
    .name = "postgresql",
    .shared = 1,
    .pool_max = STORE_PG_POOL_MAX,
    /* a round trip */
    .ping_sql = "SELECT 1",
    /* this database's files; the WAL is the cluster's, not its own */
    .size_sql = "SELECT pg_database_size(current_database())",
    .wal_suffix = NULL,
    .sql = pg_sql,
    .open = pg_open,
    .release = pg_release,
    .connect = pg_connect,
    .migrate = pg_migrate,
    .close = pg_close,
    .run = pg_run,
    .query_i64 = pg_query_i64,
    .changes = pg_changes,
    .in_tx = pg_in_tx,
    .col_i64 = pg_col_i64,
    .col_text = pg_col_text,
    .col_blob = pg_col_blob,
    .col_bytes = pg_col_bytes,
    .col_null = pg_col_null,
    .col_count = pg_col_count,
    .check = pg_check,
    .listen = pg_listen,
    .unlisten = pg_unlisten,
    .lease = pg_lease,
};
