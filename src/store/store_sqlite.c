/* store_sqlite.c: the SQLite backend of store.h.
 *
 * Design (engineering.md §3): a pool of connections opened NOMUTEX, each
 * used by one thread at a time between checkout and checkin, each with its
 * own cache of persistent prepared statements.  WAL journal; every
 * read-then-write transaction starts with BEGIN IMMEDIATE so busy_timeout
 * is honoured instead of failing with SQLITE_BUSY_SNAPSHOT.  The schema is
 * sql/NNNN_*.sql, embedded as store_migrations[] and applied in one
 * transaction that also sets PRAGMA user_version.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include <sodium.h>
#include <sqlite3.h>

#include "../common/log.h"
#include "migrations.h"
#include "store_int.h"

/* PRAGMA application_id of our files: 'brdd'.  A file with another
 * non-zero id belongs to another program and is refused untouched. */
#define STORE_APPLICATION_ID 0x62726464

/* PRAGMA journal_size_limit: the WAL file is truncated back to this size
 * after a checkpoint, so a burst of writes does not keep disk forever. */
#define STORE_JOURNAL_LIMIT (8 * 1024 * 1024)

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

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_UNIT] = "SAVEPOINT unit",
    [ST_UNIT_RELEASE] = "RELEASE unit",
    [ST_UNIT_UNDO] = "ROLLBACK TO unit",
    [ST_GAME_INSERT] = "INSERT INTO games (id, rules_id, rules_version, "
                       "seats, seed, options, setup, status, seq, to_act, "
                       "result, created_ms, updated_ms, open_seats) VALUES "
                       "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, ?9, ?10, ?11, "
                       "?11, ?12) RETURNING key",
    [ST_SEAT_INSERT] = "INSERT INTO seats (game_key, seat, token_hash, "
                       "player_key, invited, open, bot) "
                       "VALUES (?1, ?2, ?3, nullif(?4, 0), nullif(?5, 0), ?6, "
                       "nullif(?7, ''))",
    [ST_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = ?1 "
                    "AND " VISIBLE("", "?2"),
    [ST_GAME_BY_KEY] = "SELECT " GAME_COLS " FROM games WHERE key = ?1",
    [ST_SEAT_FIND] = "SELECT seat FROM seats "
                     "WHERE game_key = ?1 AND token_hash = ?2",
    /* A cancelled game takes no move (store_game_cancel) */
    [ST_GAME_SEQ] = "SELECT seq FROM games WHERE key = ?1 "
                    "AND cancelled_ms IS NULL",
    [ST_MOVE_INSERT] = "INSERT INTO moves (game_key, seq, seat, action, "
                       "created_ms, reason, state_hash) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_GAME_ADVANCE] = "UPDATE games SET seq = ?2, status = ?3, "
                        "to_act = ?4, result = ?5, updated_ms = ?6, "
                        "clock_state = ?7, deadline_ms = nullif(?8, 0), "
                        "soon_ms = nullif(?9, 0) WHERE key = ?1",
    [ST_MOVES_AFTER] = "SELECT seq, seat, action, reason, created_ms "
                       "FROM moves "
                       "WHERE game_key = ?1 AND seq > ?2 AND seq <= ?3 "
                       "ORDER BY seq",
    [ST_SNAPSHOT_PUT] = "INSERT INTO snapshots (game_key, seq, "
                        "rules_version, state) VALUES (?1, ?2, ?3, ?4) "
                        "ON CONFLICT (game_key, seq) DO UPDATE SET "
                        "rules_version = excluded.rules_version, "
                        "state = excluded.state",
    [ST_SNAPSHOT_GET] = "SELECT seq, state FROM snapshots WHERE game_key = ?1 "
                        "AND seq <= ?2 AND rules_version = ?3 "
                        "ORDER BY seq DESC LIMIT 1",
    [ST_LIST_ALL] = LIST_SQL(""),
    [ST_LIST_STATUS] = LIST_SQL(" AND status = ?1"),
    [ST_LIST_RULES] = LIST_SQL(" AND rules_id = ?2"),
    [ST_LIST_BOTH] = LIST_SQL(" AND status = ?1 AND rules_id = ?2"),
    [ST_SEATS_GET] =
        "SELECT s.seat, s.open, s.token_hash, coalesce(s.player_key, 0), "
        "CASE WHEN s.open = 1 THEN coalesce(s.invited, 0) ELSE 0 END, "
        "coalesce(p.id, ''), coalesce(p.name, ''), "
        "CASE WHEN s.open = 1 THEN coalesce(i.id, '') ELSE '' END, "
        "coalesce(s.bot, '') FROM seats s "
        "LEFT JOIN players p ON p.key = s.player_key "
        "LEFT JOIN players i ON i.key = s.invited "
        "WHERE s.game_key = ?1 ORDER BY s.seat",
    [ST_SEAT_FOR_PLAYER] = "SELECT seat FROM seats "
                           "WHERE game_key = ?1 AND player_key = ?2",
    /* An open seat other than ?3 reserved for player ?2: a player who
     * took another would leave it to nobody (the game could not fill). */
    [ST_SEAT_RESERVED_ELSEWHERE] = "SELECT seat FROM seats "
                                   "WHERE game_key = ?1 AND open = 1 AND "
                                   "invited = ?2 AND seat <> ?3 LIMIT 1",
    /* The seat reserved for the joiner first: taking an open one
     * instead would leave theirs for nobody, and the game would never
     * fill. */
    [ST_SEAT_FIRST_OPEN] = "SELECT seat FROM seats WHERE game_key = ?1 "
                           "AND open = 1 AND (invited IS NULL OR "
                           "invited = ?2) ORDER BY invited IS NULL, seat "
                           "LIMIT 1",
    [ST_SEAT_STATE] = "SELECT open, coalesce(invited, 0) FROM seats "
                      "WHERE game_key = ?1 AND seat = ?2",
    /* A reserved seat keeps `invited` (only its invitee takes it), so
     * that leaving it reserves it for them again (ST_SEAT_LEAVE). */
    [ST_SEAT_TAKE] = "UPDATE seats SET open = 0, "
                     "token_hash = ?3, player_key = nullif(?4, 0) "
                     "WHERE game_key = ?1 AND seat = ?2 AND open = 1",
    [ST_GAME_OPEN_SEATS] = "SELECT open_seats FROM games WHERE key = ?1",
    [ST_GAME_SEAT_TAKEN] =
        "UPDATE games SET open_seats = open_seats - 1, updated_ms = ?2, "
        "status = CASE WHEN open_seats = 1 AND status = 'waiting' "
        "THEN 'active' ELSE status END WHERE key = ?1",
    [ST_PLAYER_INSERT] = "INSERT INTO players (id, name, token_hash, "
                         "created_ms) VALUES (?1, ?2, ?3, ?4) RETURNING key",
    [ST_PLAYER_BY_TOKEN] = "SELECT p.key, p.id, p.name, p.created_ms, "
                           "t.key, coalesce(t.last_used_ms, 0), "
                           "t.revoked_ms IS NOT NULL FROM player_tokens t "
                           "JOIN players p ON p.key = t.player_key "
                           "WHERE t.token_hash = ?1",
    [ST_PLAYER_BY_ID] = "SELECT key, id, name, created_ms FROM players "
                        "WHERE id = ?1",
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
    [ST_IDEM_INSERT] = "INSERT INTO idempotency (scope, request, status, "
                       "response, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_IDEM_GET] = "SELECT request, status, response FROM idempotency "
                    "WHERE scope = ?1",
    [ST_IDEM_EXPIRE] = "DELETE FROM idempotency WHERE created_ms < ?1",
    /* store_events.c */
    [ST_EV_GAME_STATE] = "SELECT status = 'active', status = 'finished', "
                         "to_act, open_seats FROM games WHERE key = ?1",
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
    [ST_EV_TOUCHED] = "SELECT DISTINCT coalesce(player_key, invited) "
                      "FROM seats WHERE game_key = ?1 AND "
                      "coalesce(player_key, invited) IS NOT NULL",
    [ST_EV_AFTER] = "SELECT key, id, type, data, created_ms FROM events "
                    "WHERE player_key = ?1 AND key > ?2 ORDER BY key "
                    "LIMIT ?3",
    [ST_EV_LAST] = "SELECT coalesce(max(key), 0) FROM events "
                   "WHERE player_key = ?1",
    [ST_HOOK_PUT] = "INSERT INTO webhooks (player_key, url, secret, "
                    "sealed, created_ms, dest) VALUES (?1, ?2, ?3, 1, ?4, "
                    "?5) ON CONFLICT (player_key) DO UPDATE SET url = ?2, "
                    "secret = ?3, sealed = 1, created_ms = ?4, dest = ?5, "
                    "disabled_ms = NULL, disabled_why = NULL",
    [ST_HOOK_GET] = "SELECT " HOOK_COLS " FROM webhooks w "
                    "WHERE player_key = ?1",
    [ST_HOOK_DELETE] = "DELETE FROM webhooks WHERE player_key = ?1",
    /* ?1 player, ?2 why */
    [ST_HOOK_ORPHANS] = "UPDATE deliveries SET state = 'failed', "
                        "in_flight = 0, last_error = ?2 "
                        "WHERE player_key = ?1 AND state = 'pending'",
    /* ?1 now, ?2 lease end, ?3..?5 DLV_CLAIMABLE's */
    [ST_DLV_CLAIM] = "UPDATE deliveries SET in_flight = 1, next_ms = ?2 "
                     "WHERE event_key = (" DLV_CLAIMABLE " LIMIT 1) "
                     "RETURNING event_key",
    [ST_DLV_GET] = "SELECT " DLV_COLS ", " HOOK_COLS ", "
                   "coalesce((SELECT failures FROM destinations "
                   "WHERE dest = w.dest), 0), (SELECT count(*) FROM "
                   "destinations WHERE dest = w.dest) "
                   "FROM deliveries d JOIN events e ON e.key = d.event_key "
                   "JOIN webhooks w ON w.player_key = d.player_key "
                   "WHERE d.event_key = ?1",
    /* A delivery to an open breaker is due when the breaker half opens. */
    [ST_DLV_NEXT] = "SELECT coalesce(min(CASE WHEN ds.open_until_ms > "
                    "d.next_ms THEN ds.open_until_ms ELSE d.next_ms END), "
                    "0) FROM deliveries d JOIN webhooks w ON "
                    "w.player_key = d.player_key LEFT JOIN destinations "
                    "ds ON ds.dest = w.dest WHERE d.state = 'pending'",
    /* ?1 event, ?2 ok, ?3 status, ?4 error, ?5 next (0: end), ?6 now */
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
    [ST_DLV_LIST] = "SELECT " DLV_COLS " FROM deliveries d "
                    "JOIN events e ON e.key = d.event_key "
                    "WHERE d.player_key = ?1 ORDER BY d.event_key DESC "
                    "LIMIT ?2",
    /* Walks the bot seats only (the partial index, in game_key order:
     * no sort), then looks each game up; CROSS JOIN keeps that order. */
    [ST_BOT_GAMES] = "SELECT DISTINCT s.game_key FROM seats s "
                     "INDEXED BY seats_by_bot "
                     "CROSS JOIN games g ON g.key = s.game_key "
                     "WHERE s.bot IS NOT NULL AND s.game_key > ?1 "
                     "AND g.status = 'active' AND (g.to_act >> s.seat) & 1 "
                     "ORDER BY s.game_key LIMIT ?2",
    [ST_GAME_CREATOR] = "UPDATE games SET creator_player = nullif(?2, 0), "
                        "creator_addr = ?3 WHERE key = ?1",
    [ST_WAITING_BY_PLAYER] = "SELECT count(*) FROM games WHERE "
                             "creator_player = ?1 AND status = 'waiting' "
                             "AND updated_ms >= ?2 AND cancelled_ms IS NULL",
    [ST_WAITING_BY_ADDR] = "SELECT count(*) FROM games WHERE "
                           "creator_addr = ?1 AND status = 'waiting' "
                           "AND updated_ms >= ?2 AND cancelled_ms IS NULL",
    /* A player's games of bots only being played (sql/0018's index
     * holds the active games that have a creator); ?2 is unused (the
     * caps' common shape) */
    [ST_BOT_GAMES_BY_PLAYER] = "SELECT count(*) FROM games g WHERE "
                               "creator_player = ?1 AND status = 'active' "
                               "AND ?2 = ?2 AND NOT EXISTS (SELECT 1 "
                               "FROM seats s WHERE s.game_key = g.key "
                               "AND s.bot IS NULL)",
    /* A timed game's first deadline: when it starts (created with no
     * open seat, or its last seat taken), each seat to act has its
     * whole move time and bank (clock_state NULL: nobody moved yet). */
    [ST_GAME_CLOCK] = "UPDATE games SET clock = ?2 WHERE key = ?1",
    [ST_GAME_SECRET] = "UPDATE games SET seed_format = ?2, secret = ?3, "
                       "salt = ?4 WHERE key = ?1",
    [ST_GAME_IMPORTED] = "UPDATE games SET seq = ?2, status = 'finished', "
                         "to_act = 0, result = ?3, created_ms = ?4, "
                         "updated_ms = ?5, imported = 1 WHERE key = ?1",
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
    [ST_GAME_SOON] = "UPDATE games SET soon_ms = nullif(?3, 0) "
                     "WHERE key = ?1 AND seq = ?2",
    /* ?1 game, ?2 seat, ?3 deadline, ?4 seq */
    [ST_EV_WARNED] = "INSERT INTO deadline_warnings (game_key, "
                     "seat, deadline_ms) SELECT key, ?2, ?3 FROM games "
                     "WHERE key = ?1 AND seq = ?4 ON CONFLICT DO NOTHING",
    [ST_EV_HORIZON] = "SELECT pruned_key FROM event_horizons "
                      "WHERE player_key = ?1",
    /* ?1 cutoff, ?2 limit: the three steps of a prune, in order */
    [ST_PRUNE_HORIZONS] =
        "INSERT INTO event_horizons (player_key, pruned_key) "
        "SELECT player_key, max(key) FROM events WHERE key IN (" PRUNABLE
        ") GROUP BY player_key ON CONFLICT (player_key) DO UPDATE SET "
        "pruned_key = max(pruned_key, excluded.pruned_key)",
    [ST_PRUNE_DELIVERIES] =
        "DELETE FROM deliveries WHERE event_key IN (" PRUNABLE ")",
    [ST_PRUNE_EVENTS] = "DELETE FROM events WHERE key IN (" PRUNABLE ")",
    [ST_PRUNE_WARNINGS] = "DELETE FROM deadline_warnings "
                          "WHERE deadline_ms < ?1",
    [ST_PRUNE_DESTS] = "DELETE FROM destinations WHERE last_ms < ?1 "
                       "AND open_until_ms < ?1",
    /* a destination's use not written since ?1: drained, or losing it
     * only reorders claims */
    [ST_PRUNE_DEST_USE] = "DELETE FROM destination_use WHERE at_ms < ?1",
    [ST_HOOK_UNSEALED] = "SELECT player_key, secret FROM webhooks "
                         "WHERE sealed = 0",
    [ST_HOOK_SEAL] = "UPDATE webhooks SET secret = ?2, sealed = 1 "
                     "WHERE player_key = ?1 AND sealed = 0",
    [ST_HOOK_ANY_SEALED] = "SELECT player_key, secret FROM webhooks "
                           "WHERE sealed = 1 LIMIT 1",
    /* ?1 event, ?2 status, ?3 why, ?4 now */
    [ST_DLV_GONE] = "UPDATE deliveries SET attempts = attempts + 1, "
                    "in_flight = 0, last_ms = ?4, "
                    "last_status = nullif(?2, 0), last_error = ?3, "
                    "state = 'failed' WHERE event_key = ?1 "
                    "AND state = 'pending' RETURNING player_key",
    /* ?1 player, ?2 the webhook's created_ms, ?3 why, ?4 now */
    [ST_HOOK_DISABLE] = "UPDATE webhooks SET disabled_ms = ?4, "
                        "disabled_why = ?3 WHERE player_key = ?1 AND "
                        "created_ms = ?2 AND disabled_ms IS NULL",
    /* the breaker of destination ?1 */
    [ST_DEST_FAILURES] = "SELECT failures FROM destinations "
                         "WHERE dest = ?1",
    /* ?1 dest, ?2 failures (0: a slow answer), ?3 open until, ?4 now */
    [ST_DEST_FAIL] = "INSERT INTO destinations (dest, failures, "
                     "open_until_ms, last_ms) VALUES (?1, ?2, ?3, ?4) "
                     "ON CONFLICT (dest) DO UPDATE SET "
                     "failures = excluded.failures, "
                     "open_until_ms = excluded.open_until_ms, "
                     "last_ms = excluded.last_ms",
    [ST_DEST_OK] = "DELETE FROM destinations WHERE dest = ?1",
    /* ?1 dest, ?2 an attempt's time in flight (ms), ?3 now: added to
     * what is left of its use (DEST_USE_AT), at most DEST_USE_MAX */
    [ST_DEST_USE] =
        "INSERT INTO destination_use AS u (dest, busy_ms, "
        "at_ms) VALUES (?1, ?2, ?3) ON CONFLICT (dest) DO "
        "UPDATE SET busy_ms = CASE WHEN " DEST_USE_AT(
            "?3") " + ?2 > " DEST_USE_MAX " THEN " DEST_USE_MAX
                  " ELSE " DEST_USE_AT("?3") " + ?2 END, at_ms = ?3",
    /* ?1 dest, ?2 open until: its waiting deliveries are due then (so
     * the claim's scan of due ones does not walk them meanwhile) */
    [ST_DEST_HOLD] = "UPDATE deliveries SET next_ms = ?2 "
                     "WHERE state = 'pending' AND in_flight = 0 AND "
                     "next_ms < ?2 AND player_key IN (SELECT player_key "
                     "FROM webhooks WHERE dest = ?1)",
    /* ?1 the event of the webhook's delivery that failed, ?2 its
     * retry: the webhook's other waiting deliveries are due no sooner
     * (a per-webhook backoff) */
    [ST_HOOK_HOLD] = "UPDATE deliveries SET next_ms = ?2 "
                     "WHERE state = 'pending' AND in_flight = 0 AND "
                     "next_ms < ?2 AND player_key = (SELECT player_key "
                     "FROM deliveries WHERE event_key = ?1)",
    [ST_GAME_JOINABLE] =
        "SELECT seq FROM games WHERE key = ?1 AND " VISIBLE("", "?2"),
    /* store_lobby.c */
    [ST_TICKET_EXPIRE] = "DELETE FROM tickets WHERE expires_ms < ?1",
    [ST_TICKET_INSERT] = "INSERT INTO tickets (hash, url, sealed, "
                         "expires_ms) VALUES (?1, ?2, ?3, ?4)",
    [ST_TICKET_TAKE] = "DELETE FROM tickets WHERE hash = ?1 AND url = ?2 "
                       "AND expires_ms > ?3 RETURNING sealed",
    [ST_TICKET_GET] = "SELECT expires_ms > ?2, url = ?3 FROM tickets "
                      "WHERE hash = ?1",
    [ST_TOKEN_INSERT] = "INSERT INTO player_tokens (id, player_key, "
                        "token_hash, label, created_ms) "
                        "VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_TOKEN_USED] = "UPDATE player_tokens SET last_used_ms = ?2 "
                      "WHERE key = ?1 AND revoked_ms IS NULL",
    [ST_TOKENS_LIST] = "SELECT key, id, label, created_ms, "
                       "coalesce(last_used_ms, 0) FROM player_tokens "
                       "WHERE player_key = ?1 AND revoked_ms IS NULL "
                       "ORDER BY key",
    [ST_TOKENS_COUNT] = "SELECT count(*) FROM player_tokens "
                        "WHERE player_key = ?1 AND revoked_ms IS NULL",
    [ST_TOKEN_REVOKE] = "UPDATE player_tokens SET revoked_ms = ?3 "
                        "WHERE player_key = ?1 AND id = ?2 "
                        "AND revoked_ms IS NULL",
    [ST_GAME_LOBBY] = "SELECT status = 'waiting', "
                      "coalesce(creator_player, 0), "
                      "status = 'active' AND seq = 0 FROM games "
                      "WHERE key = ?1 AND " VISIBLE("", "?2"),
    /* A game that started but where nobody moved is cancelled as a
     * waiting one: back to 'waiting' (so it is gone everywhere, as
     * VISIBLE says), with nobody to act and no deadline to apply. */
    [ST_GAME_CANCEL] = "UPDATE games SET cancelled_ms = ?2, "
                       "status = 'waiting', to_act = 0, "
                       "deadline_ms = NULL, soon_ms = NULL WHERE key = ?1 "
                       "AND cancelled_ms IS NULL AND (status = 'waiting' "
                       "OR (status = 'active' AND seq = 0))",
    /* ?1 game, ?2 seat, ?3 player (0: none), ?4 token hash (or NULL);
     * a seat reserved for its holder stays reserved (`invited` kept) */
    [ST_SEAT_LEAVE] = "UPDATE seats SET open = 1, token_hash = NULL, "
                      "player_key = NULL WHERE game_key = ?1 AND seat = ?2 "
                      "AND open = 0 AND bot IS NULL AND "
                      "(player_key = nullif(?3, 0) OR token_hash = ?4)",
    [ST_GAME_SEAT_LEFT] = "UPDATE games SET open_seats = open_seats + 1, "
                          "updated_ms = ?2, seats_version = "
                          "seats_version + 1 WHERE key = ?1 AND "
                          "status = 'waiting'",
    [ST_SEAT_BY_TOKEN_HASH] = "SELECT s.game_key, s.seat, g.id, "
                              "g.rules_id FROM seats s JOIN games g "
                              "ON g.key = s.game_key WHERE s.token_hash = "
                              "?1 AND " VISIBLE("g.", "?2") " LIMIT 1",
    [ST_SEAT_ATTACH] = "UPDATE seats SET token_hash = NULL, player_key = ?3 "
                       "WHERE game_key = ?1 AND seat = ?2 AND token_hash = ?4",
    [ST_GAME_SEATS_BUMP] = "UPDATE games SET seats_version = "
                           "seats_version + 1 WHERE key = ?1",
    [ST_MOVE_HASHES] = "SELECT seq, state_hash FROM moves "
                       "WHERE game_key = ?1 AND seq <= ?2 ORDER BY seq",
    [ST_MOVE_HASH_FILL] = "UPDATE moves SET state_hash = ?3 WHERE "
                          "game_key = ?1 AND seq = ?2 AND state_hash IS NULL",
    [ST_RULES_CHECK_GET] = "SELECT seq FROM rules_checks "
                           "WHERE game_key = ?1 AND rules_version = ?2",
    [ST_RULES_CHECK_PUT] = "INSERT INTO rules_checks (game_key, "
                           "rules_version, seq) VALUES (?1, ?2, ?3) "
                           "ON CONFLICT DO NOTHING",
    [ST_GAME_RULES_MOVE] = "UPDATE games SET rules_version = ?3 "
                           "WHERE key = ?1 AND rules_version = ?2 AND seq = ?4",
};

const char *store__stmt_sql(enum stmt id)
{
	return id < ST_COUNT ? stmt_sql[id] : NULL;
}

int64_t store__waiting_cutoff(const struct store *s)
{
	return s->waiting_expire_ms ? store__now_ms() - s->waiting_expire_ms
	                            : INT64_MIN;
}

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

/* Runs statement `id` of c with arguments a[0..n) to completion, calling
 * fn (if not NULL) on each row, then resets it and clears its bindings so
 * it holds no snapshot.  Returns 0, fn's negative code, or a bd_err. */
int store__run(struct conn *c, enum stmt id, const struct arg *a, int n,
               row_fn fn, void *ctx)
{
	atomic_fetch_add_explicit(&c->runs, 1, memory_order_relaxed);
	if (c->pg)
		return store__pg_run(c, id, a, n, fn, ctx);
	sqlite3_stmt *st = c->st[id];
	if (!st) { /* a read connection prepares a statement at first use */
		int prc = sqlite3_prepare_v3(c->db, stmt_sql[id], -1,
		                             SQLITE_PREPARE_PERSISTENT, &st,
		                             NULL);
		if (prc != SQLITE_OK)
			return lite_fail(c->db, prc);
		c->st[id] = st;
	}
	struct row r = {.st = st};
	int rc = bind_args(st, a, n);
	while (rc == 0) {
		int step = sqlite3_step(st);
		if (step == SQLITE_DONE)
			break;
		if (step != SQLITE_ROW)
			rc = lite_fail(c->db, step);
		else if (fn)
			rc = fn(&r, ctx);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

int store__query_i64(struct conn *c, const char *sql, int64_t *v)
{
	atomic_fetch_add_explicit(&c->runs, 1, memory_order_relaxed);
	if (c->pg)
		return store__pg_query_i64(c, sql, v);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	int code = 0;
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else
		code = lite_fail(c->db, rc == SQLITE_DONE ? SQLITE_ERROR : rc);
	sqlite3_finalize(st);
	return code;
}

int store__read_i64(const struct row *st, void *ctx)
{
	struct one_i64 *o = ctx;
	o->found = 1;
	o->v = store__col_i64(st, 0);
	return 0;
}

/* ---- rows (store_int.h): SQLite's, or store_pg.c's ------------------- */

int64_t store__col_i64(const struct row *r, int col)
{
	return r->res ? store__pg_col_i64(r, col)
	              : sqlite3_column_int64(r->st, col);
}

int store__col_int(const struct row *r, int col)
{
	return (int)store__col_i64(r, col);
}

const char *store__col_text(const struct row *r, int col)
{
	return r->res ? store__pg_col_text(r, col)
	              : (const char *)sqlite3_column_text(r->st, col);
}

const void *store__col_blob(const struct row *r, int col)
{
	return r->res ? store__pg_col_blob(r, col)
	              : sqlite3_column_blob(r->st, col);
}

int store__col_bytes(const struct row *r, int col)
{
	return r->res ? store__pg_col_bytes(r, col)
	              : sqlite3_column_bytes(r->st, col);
}

int store__col_null(const struct row *r, int col)
{
	return r->res ? store__pg_col_null(r, col)
	              : sqlite3_column_type(r->st, col) == SQLITE_NULL;
}

int store__col_count(const struct row *r)
{
	return r->res ? store__pg_col_count(r) : sqlite3_column_count(r->st);
}

int64_t store__changes(const struct conn *c)
{
	return c->pg ? c->changes : sqlite3_changes(c->db);
}

int store__in_tx(const struct conn *c)
{
	return c->pg ? store__pg_in_tx(c) : !sqlite3_get_autocommit(c->db);
}

/* ---- values ---------------------------------------------------------- */

int64_t store__now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The int64 with the bit pattern of u: how SQLite stores a uint64. */
int64_t store__u64_bits(uint64_t u)
{
	int64_t i;
	memcpy(&i, &u, sizeof i);
	return i;
}

/* Copies text column col into buf; BD_EINTERNAL if it does not fit (the
 * schema's CHECKs make that a corrupt file). */
int store__col_copy(const struct row *st, int col, char *buf, size_t len)
{
	const char *t = store__col_text(st, col);
	size_t n = t ? strlen(t) : 0;
	if (!t || n >= len)
		return BD_EINTERNAL;
	memcpy(buf, t, n + 1);
	return 0;
}

/* *out = a malloc'd copy of text column col, or NULL if it is NULL. */
int store__col_strdup(const struct row *st, int col, char **out)
{
	const char *t = store__col_text(st, col);
	*out = NULL;
	if (!t)
		return store__col_null(st, col) ? 0 : BD_ENOMEM;
	*out = strdup(t);
	return *out ? 0 : BD_ENOMEM;
}

void store_game_release(struct store_game *g)
{
	if (!g)
		return;
	free(g->options);
	free(g->setup);
	free(g->result);
	free(g->bots);
	free(g->clock);
	free(g->clock_state);
	free(g->players);
	g->players = NULL;
	g->options = g->setup = g->result = g->bots = NULL;
	g->clock = g->clock_state = NULL;
}

/* Reads the GAME_COLS row at st into *g (caller releases, even on
 * failure: every pointer is NULL or owned). */
int store__game_read(const struct row *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->key = store__col_i64(st, GC_KEY);
	g->rules_version = (unsigned)store__col_i64(st, GC_RULES_VERSION);
	g->seats = store__col_int(st, GC_SEATS);
	g->seed = (uint64_t)store__col_i64(st, GC_SEED);
	g->seq = (uint64_t)store__col_i64(st, GC_SEQ);
	g->to_act = (unsigned)store__col_i64(st, GC_TO_ACT);
	g->created_ms = store__col_i64(st, GC_CREATED_MS);
	g->updated_ms = store__col_i64(st, GC_UPDATED_MS);
	g->open_seats = store__col_int(st, GC_OPEN_SEATS);
	g->bot_seats = (unsigned)store__col_i64(st, GC_BOT_SEATS);
	int rc = store__col_copy(st, GC_ID, g->id, sizeof g->id);
	if (rc == 0)
		rc = store__col_copy(st, GC_RULES_ID, g->rules_id,
		                     sizeof g->rules_id);
	if (rc == 0)
		rc =
		    store__col_copy(st, GC_STATUS, g->status, sizeof g->status);
	if (rc == 0)
		rc = store__col_strdup(st, GC_OPTIONS, &g->options);
	if (rc == 0)
		rc = store__col_strdup(st, GC_SETUP, &g->setup);
	if (rc == 0)
		rc = store__col_strdup(st, GC_RESULT, &g->result);
	if (rc == 0)
		rc = store__col_strdup(st, GC_BOTS, &g->bots);
	if (rc == 0)
		rc = store__col_strdup(st, GC_CLOCK, &g->clock);
	if (rc == 0)
		rc = store__col_strdup(st, GC_CLOCK_STATE, &g->clock_state);
	g->deadline_ms = store__col_i64(st, GC_DEADLINE_MS);
	g->seats_version = store__col_i64(st, GC_SEATS_VERSION);
	g->seed_format = store__col_int(st, GC_SEED_FORMAT);
	g->imported = store__col_int(st, GC_IMPORTED);
	g->creator_key = store__col_i64(st, GC_CREATOR_KEY);
	if (rc == 0)
		rc = store__col_copy(st, GC_CREATOR_ADDR, g->creator_from,
		                     sizeof g->creator_from);
	if (store__col_bytes(st, GC_SECRET) == sizeof g->secret &&
	    store__col_bytes(st, GC_SALT) == sizeof g->salt) {
		memcpy(g->secret, store__col_blob(st, GC_SECRET),
		       sizeof g->secret);
		memcpy(g->salt, store__col_blob(st, GC_SALT), sizeof g->salt);
	} else if (g->seed_format != 1) {
		rc = rc ? rc : BD_EINTERNAL; /* the CHECKs make it impossible */
	}
	return rc;
}

/* ---- the pool -------------------------------------------------------- */

/* The calling thread's pin (store_pin): its store, the connection once
 * a store call took one, and how deep the pins nest. */
static _Thread_local struct {
	struct store *s; /* the store pinned, or NULL */
	struct conn *c;  /* its connection, once taken; else NULL */
	int depth;       /* store_pin calls not yet undone */
	int busy;        /* 1 while a store call holds c */
} pin;

static struct conn *pool_take(struct store *s);
static void pool_give(struct store *s, struct conn *c);

void store_pin(struct store *s)
{
	if (!pin.s)
		pin.s = s;
	if (pin.s == s)
		pin.depth++;
}

void store_unpin(struct store *s)
{
	if (pin.s != s || --pin.depth > 0)
		return;
	struct conn *c = pin.c;
	pin.s = NULL;
	pin.c = NULL;
	pin.busy = 0;
	if (c)
		pool_give(s, c);
}

/* The pinned connection of s if this thread pinned s and no call holds
 * it, else a pooled one (blocking until one is free). */
struct conn *store__checkout(struct store *s)
{
	if (pin.s != s || pin.busy)
		return pool_take(s);
	if (!pin.c)
		pin.c = pool_take(s);
	pin.busy = 1;
	return pin.c;
}

/* Gives the calling thread's pinned connection of s back to the pool
 * when no call holds it, so that a request waiting for its write holds
 * no read connection meanwhile (the batch's leader may need one); the
 * pin stays, and its next read takes a connection again. */
static void pin_drop(struct store *s)
{
	if (pin.s != s || pin.busy || !pin.c)
		return;
	struct conn *c = pin.c;
	pin.c = NULL;
	pool_give(s, c);
}

void store__checkin(struct store *s, struct conn *c)
{
	if (pin.s == s && c == pin.c)
		pin.busy = 0; /* kept until store_unpin */
	else
		pool_give(s, c);
}

/* Blocks until a connection is free and takes it. */
static struct conn *pool_take(struct store *s)
{
	atomic_fetch_add_explicit(&s->checkouts, 1, memory_order_relaxed);
	pthread_mutex_lock(&s->mu);
	for (;;) {
		for (int i = 0; i < s->nconns; i++) {
			if (!s->conns[i].checked_out) {
				s->conns[i].checked_out = 1;
				pthread_mutex_unlock(&s->mu);
				return &s->conns[i];
			}
		}
		pthread_cond_wait(&s->freed, &s->mu);
	}
}

static void pool_give(struct store *s, struct conn *c)
{
	pthread_mutex_lock(&s->mu);
	c->checked_out = 0;
	pthread_cond_signal(&s->freed);
	pthread_mutex_unlock(&s->mu);
}

/* ---- transactions ---------------------------------------------------- */

/* Undoes the open transaction of c, if SQLite has not already done so. */
static void tx_rollback(struct conn *c)
{
	if (store__in_tx(c))
		store__run(c, ST_ROLLBACK, NO_ARGS, NULL, NULL);
}

/* ---- the write path: bounded waits, file checks ------------------------ */

/* The time `ms` milliseconds from now on `clock`. */
static struct timespec clock_after_ms(clockid_t clock, int ms)
{
	struct timespec t;
	clock_gettime(clock, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

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

/* Whether s->path still names the file the store opened (cheap: one
 * stat).  A deleted or replaced file is reported once on stderr and makes
 * every later write BD_EUNAVAILABLE: writing into an unlinked inode would
 * lose the moves at the next restart, and a replacement file is not
 * ours to mix with.  Other stat errors are left to SQLite. */
static int file_check(struct store *s)
{
	if (s->pg)
		return 0; /* a server, not a file: no inode to check */
	if (atomic_load(&s->file_gone))
		return BD_EUNAVAILABLE;
	struct stat st;
	int gone;
	if (stat(s->path, &st) < 0)
		gone = errno == ENOENT || errno == ENOTDIR;
	else
		gone = st.st_dev != s->dev || st.st_ino != s->ino;
	if (!gone)
		return 0;
	if (!atomic_exchange(&s->file_gone, 1))
		log_error("store",
		          "%s was deleted or replaced while open; "
		          "writes are refused until the server restarts",
		          s->path);
	return BD_EUNAVAILABLE;
}

/* Notes on stderr when writes start or stop failing for lack of space
 * (once per change, not once per request). */
static void note_space(struct store *s, int rc)
{
	int out = rc == BD_ENOSPACE;
	if (atomic_exchange(&s->space_out, out) != out)
		log_error("store", "%s",
		          out ? "no space left for writes (disk full or file "
		                "size limit); reads go on"
		              : "writes succeed again");
}

/* ---- group commit (store.h, docs/write-path.md) ------------------------ */

/* Runs unit r inside the open batch transaction of c: SAVEPOINT, its
 * body, RELEASE; on a failure, ROLLBACK TO and RELEASE, so that nothing
 * of it stays.  r->rc gets its outcome (0: kept, for the COMMIT to
 * make durable) and r->touched the players it noted.  Returns 0 while
 * the batch's transaction is still open and usable, else the error
 * that ended it (SQLite rolled it all back, or the undo failed). */
static int unit_run(struct conn *c, struct write_req *r)
{
	c->ntouched = 0;
	int rc = store__run(c, ST_UNIT, NO_ARGS, NULL, NULL);
	if (rc == 0)
		rc = r->fn(c, r->ctx);
	if (rc == 0)
		rc = store__run(c, ST_UNIT_RELEASE, NO_ARGS, NULL, NULL);
	r->rc = rc;
	if (rc == 0) {
		memcpy(r->touched, c->touched,
		       (size_t)c->ntouched * sizeof *r->touched);
		r->ntouched = c->ntouched;
		return 0;
	}
	r->ntouched = 0;
	if (!store__in_tx(c))
		return rc; /* the whole transaction is gone */
	int undo = store__run(c, ST_UNIT_UNDO, NO_ARGS, NULL, NULL);
	if (undo == 0)
		undo = store__run(c, ST_UNIT_RELEASE, NO_ARGS, NULL, NULL);
	return undo;
}

/* The leader's work, with no lock held: runs the n units of batch in
 * one transaction and commits the ones that are kept.  Every r->rc is
 * final on return: 0 only for units of a batch whose COMMIT returned.
 * *committed: 1 if a COMMIT was run and returned. */
static void batch_run(struct store *s, struct write_req *batch, int *committed)
{
	struct conn *c = &s->writer;
	*committed = 0;
	int rc = file_check(s);
	if (rc == 0) {
		s->write_deadline =
		    clock_after_ms(CLOCK_MONOTONIC, s->write_wait_ms);
		rc = store__run(c, ST_BEGIN, NO_ARGS, NULL, NULL);
	}
	atomic_store(&s->lock_waiting, 0);
	int kept = 0, space = 0;
	struct write_req *r = batch;
	for (; rc == 0 && r; r = r->next) {
		rc = unit_run(c, r);
		kept += r->rc == 0;
		space |= r->rc == BD_ENOSPACE;
	}
	if (rc == 0 && kept)
		rc = store__run(c, ST_COMMIT, NO_ARGS, NULL, NULL);
	/* A batch with no unit kept is rolled back: a COMMIT would write
	 * and sync the pages its undone units dirtied. */
	tx_rollback(c);
	/* Nothing of the batch is kept: every unit fails with its error,
	 * also one refused on its own (its refusal may rest on an earlier
	 * unit's writes, which are gone). */
	if (rc < 0)
		for (r = batch; r; r = r->next)
			r->rc = rc;
	space |= rc == BD_ENOSPACE;
	*committed = rc == 0 && kept;
	if (space || *committed)
		note_space(s, space ? BD_ENOSPACE : 0);
	/* Cleared here too: a busy wait later in the batch must not leave
	 * every later write refused. */
	atomic_store(&s->lock_waiting, 0);
}

/* With q_mu held and no leader: leads one batch of the queued writes
 * (q_mu is dropped while it runs), tells the listener, answers the
 * batch's callers, and gives up the role.  Returns with q_mu held. */
static void batch_lead(struct store *s)
{
	s->leading = 1;
	struct write_req *batch = s->q_head, *last = NULL;
	unsigned n = 0;
	for (struct write_req *r = batch; r && n < STORE_BATCH_MAX;
	     r = r->next, n++) {
		r->state = WR_TAKEN;
		r->rc = BD_EINTERNAL; /* until it ran */
		last = r;
	}
	s->q_head = last->next;
	if (!s->q_head)
		s->q_tail = &s->q_head;
	last->next = NULL;
	pthread_mutex_unlock(&s->q_mu);

	int committed;
	batch_run(s, batch, &committed);
	/* Commit order: batches run one at a time, units in queue order. */
	for (struct write_req *r = batch; committed && r; r = r->next)
		if (r->rc == 0)
			store__changes_tell(s, r->touched, r->ntouched);

	pthread_mutex_lock(&s->q_mu);
	s->stats.units += n;
	s->stats.batches++;
	s->stats.commits += (uint64_t)committed;
	s->stats.rolled_back += (uint64_t)!committed;
	if (n > s->stats.largest)
		s->stats.largest = n;
	for (struct write_req *r = batch, *next; r; r = next) {
		next = r->next; /* r is freed once its caller sees WR_DONE */
		r->state = WR_DONE;
		/* Under q_mu: its caller cannot see WR_DONE (and free r)
		 * before this returns. */
		pthread_cond_signal(&r->cv);
	}
	s->leading = 0;
	/* The batch's callers return; the oldest queued one leads next. */
	if (s->q_head)
		pthread_cond_signal(&s->q_head->cv);
}

/* Unlinks queued request r (q_mu held). */
static void queue_remove(struct store *s, struct write_req *r)
{
	struct write_req **p = &s->q_head;
	while (*p != r)
		p = &(*p)->next;
	*p = r->next;
	if (s->q_tail == &r->next)
		s->q_tail = p;
}

int store__write_tx(struct store *s, tx_fn fn, void *ctx)
{
	/* While the leader waits for another process's lock, new writes do
	 * not queue (each queued one would hold a write worker). */
	if (atomic_load(&s->lock_waiting))
		return BD_EBUSY;
	pin_drop(s);
	struct write_req r = {.fn = fn, .ctx = ctx, .state = WR_QUEUED};
	if (pthread_cond_init(&r.cv, &s->q_ca))
		return BD_ENOMEM;
	struct timespec until =
	    clock_after_ms(CLOCK_MONOTONIC, s->write_wait_ms);
	pthread_mutex_lock(&s->q_mu);
	*s->q_tail = &r;
	s->q_tail = &r.next;
	while (r.state != WR_DONE) {
		if (r.state == WR_QUEUED && !s->leading) {
			batch_lead(s); /* takes r too */
			continue;
		}
		if (r.state == WR_TAKEN) { /* its batch's outcome is owed */
			pthread_cond_wait(&r.cv, &s->q_mu);
			continue;
		}
		/* Timed out while still queued behind a running batch: it
		 * leaves (a wake to lead that came with the timeout leads). */
		if (pthread_cond_timedwait(&r.cv, &s->q_mu, &until) ==
		        ETIMEDOUT &&
		    r.state == WR_QUEUED && s->leading) {
			queue_remove(s, &r);
			r.rc = BD_EBUSY; /* not taken in time: nothing ran */
			break;
		}
	}
	pthread_mutex_unlock(&s->q_mu);
	pthread_cond_destroy(&r.cv);
	return r.rc;
}

void store_write_stats(struct store *s, struct store_write_stats *out)
{
	pthread_mutex_lock(&s->q_mu);
	*out = s->stats;
	unsigned queued = 0;
	for (struct write_req *r = s->q_head; r; r = r->next)
		queued++;
	out->queued = queued;
	pthread_mutex_unlock(&s->q_mu);
}

void store_counts(struct store *s, struct store_counts *out)
{
	uint64_t n =
	    atomic_load_explicit(&s->writer.runs, memory_order_relaxed);
	for (int i = 0; i < s->nconns; i++)
		n += atomic_load_explicit(&s->conns[i].runs,
		                          memory_order_relaxed);
	struct store_write_stats w;
	store_write_stats(s, &w);
	*out = (struct store_counts){.statements = n,
	                             .checkouts = atomic_load_explicit(
	                                 &s->checkouts, memory_order_relaxed),
	                             .units = w.units};
}

int store_check(struct store *s)
{
	return file_check(s);
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

/* Opens c->db and sets the per-connection pragmas. */
static int conn_connect(struct conn *c, const struct store_config *cfg,
                        char *err, size_t errlen)
{
	int flags =
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
	int rc = sqlite3_open_v2(cfg->path, &c->db, flags, NULL);
	if (rc != SQLITE_OK)
		return open_fail(err, errlen, bd_from_sqlite(rc, 0),
		                 "cannot open %s: %s", cfg->path,
		                 c->db ? sqlite3_errmsg(c->db)
		                       : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_timeout(c->db, cfg->busy_timeout_ms);
	char sql[160];
	snprintf(sql, sizeof sql,
	         "PRAGMA synchronous=%s; PRAGMA foreign_keys=ON; "
	         "PRAGMA journal_size_limit=%d;",
	         cfg->sync_full ? "FULL" : "NORMAL", STORE_JOURNAL_LIMIT);
	return exec_sql(c->db, cfg->path, sql, err, errlen);
}

/* Prepares every statement of c. */
static int conn_prepare(struct conn *c, char *err, size_t errlen)
{
	for (int i = 0; i < ST_COUNT; i++) {
		int rc = sqlite3_prepare_v3(c->db, stmt_sql[i], -1,
		                            SQLITE_PREPARE_PERSISTENT,
		                            &c->st[i], NULL);
		if (rc != SQLITE_OK)
			return open_fail(err, errlen, bd_from_sqlite(rc, 0),
			                 "cannot prepare \"%s\": %s",
			                 stmt_sql[i], sqlite3_errmsg(c->db));
	}
	return 0;
}

/* Finalizes c's statements and closes it; a never-opened c is a no-op. */
static void conn_close(struct conn *c)
{
	if (c->pg) {
		store__pg_close(c);
		return;
	}
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(c->st[i]);
	int rc = sqlite3_close(c->db);
	if (rc != SQLITE_OK)
		log_error("store", "sqlite close: %s", sqlite3_errstr(rc));
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
		if ((rc = exec_sql(db, m->name, m->sql, err, errlen)))
			return rc;
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

/* Records which file s->path is, for file_check. */
static int file_identify(struct store *s, char *err, size_t errlen)
{
	struct stat st;
	if (stat(s->path, &st) < 0)
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "cannot stat %s: %s", s->path,
		                 strerror(errno));
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	return 0;
}

/* PostgreSQL: the write connection (which migrates), then the read pool
 * (a connection prepares a statement at its first use there). */
static int pool_open_pg(struct store *s, const struct store_config *cfg,
                        char *err, size_t errlen)
{
	s->writer.node = s->node;
	s->writer.writer = 1;
	int rc = store__pg_connect(&s->writer, cfg->path, cfg->busy_timeout_ms,
	                           err, errlen);
	if (rc == 0)
		rc = store__pg_migrate(&s->writer, err, errlen);
	for (int i = 0; rc == 0 && i < s->nconns; i++) {
		s->conns[i].node = s->node;
		rc = store__pg_connect(&s->conns[i], cfg->path, 0, err, errlen);
	}
	return rc;
}

/* Opens the write connection, migrating the schema through it, then the
 * pool's read connections. */
static int pool_open(struct store *s, const struct store_config *cfg, char *err,
                     size_t errlen)
{
	if (s->pg)
		return pool_open_pg(s, cfg, err, errlen);
	int rc = conn_connect(&s->writer, cfg, err, errlen);
	if (rc == 0)
		rc = migrate_checked(s->writer.db, err, errlen);
	if (rc == 0)
		rc = conn_prepare(&s->writer, err, errlen);
	if (rc == 0)
		rc = file_identify(s, err, errlen);
	if (rc < 0)
		return rc;
	sqlite3_busy_handler(s->writer.db, writer_busy, s);
	/* The read connections prepare each statement at its first use
	 * (store__run): the writer's preparing all of them has shown that
	 * every one compiles, and preparing each on up to a hundred
	 * connections at start cost most of a start's CPU (about 1.8 s of
	 * 2.3 s in a sanitizer build, where the test suites start hundreds
	 * of servers) for statements a read connection never runs. */
	for (int i = 0; i < s->nconns; i++) {
		if ((rc = conn_connect(&s->conns[i], cfg, err, errlen)) < 0)
			return rc;
	}
	return 0;
}

/* Initialises the pool's mutex and condition variable and the write
 * queue's (its waits on CLOCK_MONOTONIC): all or none. */
static int pool_lock_init(struct store *s)
{
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca))
		return -1;
	int rc = -1;
	if (pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_mutex_init(&s->mu, NULL))
		goto out_attr;
	if (pthread_cond_init(&s->freed, NULL))
		goto out_mu;
	if (pthread_mutex_init(&s->q_mu, NULL))
		goto out_freed;
	if (pthread_condattr_init(&s->q_ca) == 0 &&
	    pthread_condattr_setclock(&s->q_ca, CLOCK_MONOTONIC) == 0) {
		s->q_head = NULL;
		s->q_tail = &s->q_head;
		rc = 0;
		goto out_attr;
	}
	pthread_mutex_destroy(&s->q_mu);
out_freed:
	pthread_cond_destroy(&s->freed);
out_mu:
	pthread_mutex_destroy(&s->mu);
out_attr:
	pthread_condattr_destroy(&ca);
	return rc;
}

static void pool_close(struct store *s)
{
	for (int i = 0; i < s->nconns; i++)
		conn_close(&s->conns[i]);
	conn_close(&s->writer);
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
	s->owner_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (s->owner_fd < 0)
		return open_fail(err, errlen, BD_EUNAVAILABLE,
		                 "cannot open the lock file %s: %s", lock,
		                 strerror(errno));
	if (flock(s->owner_fd, LOCK_EX | LOCK_NB) < 0)
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

int store_open(const struct store_config *cfg, struct store **out, char *err,
               size_t errlen)
{
	static pthread_once_t configured = PTHREAD_ONCE_INIT;
	pthread_once(&configured, sqlite_configure);
	if (!cfg || !cfg->path || cfg->connections < 1 ||
	    cfg->busy_timeout_ms < 0)
		return open_fail(err, errlen, BD_EBADREQUEST,
		                 "store config needs a path, connections >= 1 "
		                 "and busy_timeout_ms >= 0");
	int pg = store_is_postgres(cfg->path);
	if (!pg && !sqlite3_threadsafe())
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "SQLite was built without thread support");
	/* A PostgreSQL server counts its connections (max_connections):
	 * a node's read pool stays small, reads wait for a free one. */
	int nconns = pg && cfg->connections > STORE_PG_POOL_MAX
	                 ? STORE_PG_POOL_MAX
	                 : cfg->connections;
	struct store *s =
	    calloc(1, sizeof *s + (size_t)nconns * sizeof s->conns[0]);
	if (!s)
		return open_fail(err, errlen, BD_ENOMEM, "out of memory");
	s->owner_fd = -1;
	s->pg = pg;
	s->nconns = nconns;
	s->write_wait_ms = cfg->busy_timeout_ms;
	s->path = strdup(cfg->path);
	if (!s->path) {
		free(s);
		return open_fail(err, errlen, BD_ENOMEM, "out of memory");
	}
	s->waiting_expire_ms =
	    cfg->waiting_expire_ms > 0 ? cfg->waiting_expire_ms : 0;
	s->waiting_per_player = cfg->waiting_per_player;
	s->waiting_per_addr = cfg->waiting_per_addr;
	s->bot_games_per_player = cfg->bot_games_per_player;
	if (pool_lock_init(s)) {
		free(s->path);
		free(s);
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "cannot create the pool's lock");
	}
	if (sodium_init() < 0) {
		free(s->path);
		free(s);
		return open_fail(err, errlen, BD_EINTERNAL,
		                 "libsodium failed to initialise");
	}
	if (pg) { /* store.h, "what other processes change" */
		uint8_t node[STORE_NODE_LEN / 2];
		randombytes_buf(node, sizeof node);
		sodium_bin2hex(s->node, sizeof s->node, node, sizeof node);
	}
	if (cfg->secret_key)
		memcpy(s->secret_key, cfg->secret_key, STORE_KEY_LEN);
	else
		randombytes_buf(s->secret_key, STORE_KEY_LEN);
	/* PostgreSQL: several nodes may share the database (store.h) */
	int rc = cfg->exclusive && !pg ? take_ownership(s, err, errlen) : 0;
	if (rc == 0)
		rc = pool_open(s, cfg, err, errlen);
	if (rc == 0)
		rc = store__hooks_seal(s, err, errlen);
	if (rc < 0) {
		store_close(s); /* closes what pool_open opened */
		return rc;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	store__pg_listen_stop(s); /* its callbacks end before anything goes */
	pool_close(s);
	if (s->owner_fd >= 0)
		close(s->owner_fd); /* releases the flock */
	pthread_condattr_destroy(&s->q_ca);
	pthread_mutex_destroy(&s->q_mu);
	pthread_cond_destroy(&s->freed);
	pthread_mutex_destroy(&s->mu);
	sodium_memzero(s->secret_key, sizeof s->secret_key);
	free(s->path);
	free(s);
}

int store_listen(struct store *s, const struct store_remote *r, void *ctx)
{
	return s->pg ? store__pg_listen(s, r, ctx) : 0;
}

void store_unlisten(struct store *s)
{
	store__pg_listen_stop(s);
}

int store_shared(struct store *s)
{
	return s->pg;
}

int store_lease_take(struct store *s, int64_t game_key, int64_t lease_ms,
                     int *taken)
{
	*taken = 0;
	if (!s->pg) {
		*taken = 1; /* one process owns the file */
		return 0;
	}
	return store__pg_lease(s, game_key, lease_ms, taken);
}

int store_lease_drop(struct store *s, int64_t game_key)
{
	return s->pg ? store__pg_lease(s, game_key, 0, NULL) : 0;
}

/* ---- games ----------------------------------------------------------- */

/* What store_game_create's transaction inserts, and the key it got. */
struct create_ctx {
	struct store *s;                       /* for the waiting caps */
	const struct store_game *g;            /* the game */
	const struct store_seat *seats;        /* g->seats of them */
	const struct store_idem *idem;         /* or NULL */
	const struct store_logged_move *moves; /* an import's, or NULL */
	size_t nmoves;                         /* entries at moves */
	int64_t key;                           /* out: its key */
};

/* BD_ELIMIT when count statement `id` for creator `who` is at `cap`
 * (0: no cap) already. */
static int under_cap(struct conn *c, enum stmt id, struct arg who, unsigned cap,
                     int64_t cutoff)
{
	struct one_i64 n = {0};
	if (!cap)
		return 0;
	int rc =
	    store__run(c, id, ARGS(who, A_I64(cutoff)), store__read_i64, &n);
	if (rc == 0 && n.v >= (int64_t)cap)
		rc = BD_ELIMIT;
	return rc;
}

/* 1 if every seat of `seats` (n of them) is a bot's. */
static int bots_only(const struct store_seat *seats, int n)
{
	for (int i = 0; i < n; i++)
		if (!seats[i].bot[0])
			return 0;
	return n > 0;
}

/* Records g's creator on row `key`, refusing (BD_ELIMIT) a waiting game
 * past its creator's caps, and (BD_EBOTGAMES) a game of bots only
 * (`bots` 1) past its player's cap of them.  Every game's creator is
 * written: the bot workers share their time by it (service.h). */
static int creator_put(struct conn *c, struct store *s,
                       const struct store_game *g, int64_t key, int open,
                       int bots)
{
	int64_t cutoff = store__waiting_cutoff(s);
	int rc = 0;
	if (!g->creator_key && !g->creator_addr)
		return 0;
	if (open && g->creator_key)
		rc = under_cap(c, ST_WAITING_BY_PLAYER, A_I64(g->creator_key),
		               s->waiting_per_player, cutoff);
	if (rc == 0 && open && g->creator_addr)
		rc = under_cap(c, ST_WAITING_BY_ADDR, A_TEXT(g->creator_addr),
		               s->waiting_per_addr, cutoff);
	if (rc == 0 && bots && g->creator_key) {
		rc = under_cap(c, ST_BOT_GAMES_BY_PLAYER, A_I64(g->creator_key),
		               s->bot_games_per_player, cutoff);
		if (rc == BD_ELIMIT)
			rc = BD_EBOTGAMES;
	}
	if (rc == 0)
		rc = store__run(c, ST_GAME_CREATOR,
		                ARGS(A_I64(key), A_I64(g->creator_key),
		                     A_TEXT(g->creator_addr)),
		                NULL, NULL);
	return rc;
}

static int count_open(const struct store_seat *seats, int n)
{
	int open = 0;
	for (int i = 0; i < n; i++)
		open += seats[i].open;
	return open;
}

static int seat_insert(struct conn *c, int64_t key, const struct store_seat *st)
{
	return store__run(
	    c, ST_SEAT_INSERT,
	    ARGS(A_I64(key), A_I64(st->seat),
	         st->has_token ? A_BLOB(st->token_hash, STORE_TOKEN_HASH_LEN)
	                       : A_NULL_BLOB,
	         A_I64(st->player_key), A_I64(st->invited_key), A_I64(st->open),
	         A_TEXT(st->bot)),
	    NULL, NULL);
}

/* An import's moves and its finished row (store_game_import). */
static int import_moves(struct conn *c, const struct create_ctx *x)
{
	int rc = 0;
	for (size_t i = 0; i < x->nmoves && rc == 0; i++) {
		const struct store_logged_move *m = &x->moves[i];
		rc = store__run(c, ST_MOVE_INSERT,
		                ARGS(A_I64(x->key), A_I64(i + 1),
		                     A_I64(m->seat), A_TEXT(m->action),
		                     A_I64(m->created_ms), A_TEXT(m->reason),
		                     A_NULL_BLOB), /* a record has no hashes */
		                NULL, NULL);
	}
	if (rc == 0)
		rc = store__run(
		    c, ST_GAME_IMPORTED,
		    ARGS(A_I64(x->key), A_I64(x->nmoves), A_TEXT(x->g->result),
		         A_I64(x->g->created_ms), A_I64(x->g->updated_ms)),
		    NULL, NULL);
	return rc;
}

static int create_tx(struct conn *c, void *ctx)
{
	struct create_ctx *x = ctx;
	const struct store_game *g = x->g;
	int open = count_open(x->seats, g->seats);
	struct one_i64 key = {0};
	int rc = store__idem_put(c, x->idem);
	if (rc == 0)
		rc = store__run(c, ST_GAME_INSERT,
		                ARGS(A_TEXT(g->id), A_TEXT(g->rules_id),
		                     A_I64(g->rules_version), A_I64(g->seats),
		                     A_I64(store__u64_bits(g->seed)),
		                     A_TEXT(g->options), A_TEXT(g->setup),
		                     A_TEXT(open ? "waiting" : g->status),
		                     A_I64(g->to_act), A_TEXT(g->result),
		                     A_I64(store__now_ms()), A_I64(open)),
		                store__read_i64, &key);
	if (rc < 0)
		return rc; /* BD_ECONFLICT: the id is taken */
	if (!key.found)
		return BD_EINTERNAL;
	x->key = key.v;
	/* Counted before its creator is written: the new game is not among
	 * them, so a creator holds at most `cap` waiting games (and runs
	 * at most `cap` games of bots only; an import is finished). */
	rc = creator_put(c, x->s, g, x->key, open,
	                 !x->moves && bots_only(x->seats, g->seats));
	if (rc == BD_ELIMIT || rc == BD_EBOTGAMES)
		return rc;
	for (int seat = 0; seat < g->seats && rc == 0; seat++)
		rc = seat_insert(c, x->key, &x->seats[seat]);
	if (rc == 0 && g->clock)
		rc = store__run(c, ST_GAME_CLOCK,
		                ARGS(A_I64(x->key), A_TEXT(g->clock)), NULL,
		                NULL);
	if (rc == 0 && g->clock)
		rc = store__clock_start(c, x->key);
	if (rc == 0 && g->seed_format == 2)
		rc = store__run(c, ST_GAME_SECRET,
		                ARGS(A_I64(x->key), A_I64(g->seed_format),
		                     A_BLOB(g->secret, sizeof g->secret),
		                     A_BLOB(g->salt, sizeof g->salt)),
		                NULL, NULL);
	if (rc == 0 && x->moves)
		rc = import_moves(c, x);
	if (rc == 0 && !x->moves)
		rc = store__events_after(c, x->key, NULL);
	/* Two seats with one token or one player is the caller's bug, not a
	 * taken id: retrying with another id would not help. */
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

int store_game_create(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_idem *idem, int64_t *key_out)
{
	struct create_ctx x = {.s = s, .g = g, .seats = seats, .idem = idem};
	int rc = store__write_tx(s, create_tx, &x);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

int store_game_import(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_logged_move *moves, size_t n,
                      const struct store_idem *idem, int64_t *key_out)
{
	static const struct store_logged_move none; /* an empty record still */
	struct create_ctx x = {.s = s,
	                       .g = g,
	                       .seats = seats,
	                       .idem = idem,
	                       .moves = n ? moves : &none,
	                       .nmoves = n};
	int rc = store__write_tx(s, create_tx, &x);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

/* The game a single-row lookup found. */
struct game_row {
	int found;           /* 1 once a row was read */
	struct store_game g; /* that row, owned */
};

static int read_game_row(const struct row *st, void *ctx)
{
	struct game_row *r = ctx;
	r->found = 1;
	return store__game_read(st, &r->g);
}

/* Runs a one-game lookup statement into *out. */
static int game_lookup(struct store *s, enum stmt id, const struct arg *a,
                       int n, struct store_game *out)
{
	struct game_row r = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, id, a, n, read_game_row, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc < 0) {
		store_game_release(&r.g);
		return rc;
	}
	*out = r.g;
	return 0;
}

int store_game_get(struct store *s, const char *id, struct store_game *out)
{
	return game_lookup(s, ST_GAME_GET,
	                   ARGS(A_TEXT(id), A_I64(store__waiting_cutoff(s))),
	                   out);
}

int store_game_by_key(struct store *s, int64_t key, struct store_game *out)
{
	return game_lookup(s, ST_GAME_BY_KEY, ARGS(A_I64(key)), out);
}

/* store_seat_for_token on connection c (a read's, or the write
 * connection inside a transaction). */
static int seat_for_token(struct conn *c, int64_t key,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat)
{
	struct one_i64 r = {0};
	int rc =
	    store__run(c, ST_SEAT_FIND,
	               ARGS(A_I64(key), A_BLOB(hash, STORE_TOKEN_HASH_LEN)),
	               store__read_i64, &r);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*seat = (int)r.v;
	return rc;
}

int store_seat_for_token(struct store *s, int64_t key,
                         const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat)
{
	struct conn *c = store__checkout(s);
	int rc = seat_for_token(c, key, hash, seat);
	store__checkin(s, c);
	return rc;
}

/* The caller's callback for a listing. */
struct games_ctx {
	store_game_fn fn; /* called per game */
	void *ctx;        /* its context */
};

static int list_row(const struct row *st, void *ctx)
{
	struct games_ctx *x = ctx;
	struct store_game g;
	int rc = store__game_read(st, &g);
	if (rc == 0)
		rc = store__col_strdup(st, GC_COUNT, &g.players);
	if (rc == 0)
		rc = x->fn(x->ctx, &g);
	store_game_release(&g);
	return rc < 0 ? rc : 0;
}

/* The listing statement for f's filters (see enum stmt). */
static enum stmt list_stmt(const struct store_filter *f)
{
	return ST_LIST_ALL + (f->status ? 1 : 0) + (f->rules_id ? 2 : 0);
}

int store_games_each(struct store *s, const struct store_filter *f,
                     store_game_fn fn, void *ctx)
{
	if (f->limit < 1 || f->limit > 100 || f->before_key < 0)
		return BD_EBADREQUEST;
	struct games_ctx x = {.fn = fn, .ctx = ctx};
	int64_t before = f->before_key ? f->before_key : INT64_MAX;
	struct conn *c = store__checkout(s);
	int rc = store__run(c, list_stmt(f),
	                    ARGS(A_TEXT(f->status), A_TEXT(f->rules_id),
	                         A_I64(before), A_I64(f->limit),
	                         A_I64(store__waiting_cutoff(s))),
	                    list_row, &x);
	store__checkin(s, c);
	return rc;
}

/* The caller's callback for store_bot_games_each. */
struct keys_ctx {
	store_key_fn fn; /* called per game */
	void *ctx;       /* its context */
};

static int key_row(const struct row *st, void *ctx)
{
	struct keys_ctx *x = ctx;
	int rc = x->fn(x->ctx, store__col_i64(st, 0));
	return rc < 0 ? rc : 0;
}

int store_bot_games_each(struct store *s, int64_t after_key, int limit,
                         store_key_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000 || after_key < 0)
		return BD_EBADREQUEST;
	struct keys_ctx x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_BOT_GAMES,
	                    ARGS(A_I64(after_key), A_I64(limit)), key_row, &x);
	store__checkin(s, c);
	return rc;
}

/* ---- clocks ---------------------------------------------------------- */

int store__clock_start(struct conn *c, int64_t key)
{
	return store__run(c, ST_GAME_CLOCK_START, ARGS(A_I64(key)), NULL, NULL);
}

int store_clock_due_each(struct store *s, int64_t now_ms, int limit,
                         store_key_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	struct keys_ctx x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CLOCK_DUE, ARGS(A_I64(now_ms), A_I64(limit)),
	                    key_row, &x);
	store__checkin(s, c);
	return rc;
}

/* The arguments of store_game_soon's transaction. */
struct soon_ctx {
	int64_t key, seq, soon_ms;
};

static int soon_tx(struct conn *c, void *ctx)
{
	const struct soon_ctx *x = ctx;
	return store__run(c, ST_GAME_SOON,
	                  ARGS(A_I64(x->key), A_I64(x->seq), A_I64(x->soon_ms)),
	                  NULL, NULL);
}

int store_game_soon(struct store *s, int64_t key, uint64_t seq, int64_t soon_ms)
{
	struct soon_ctx x = {key, (int64_t)seq, soon_ms};
	return store__write_tx(s, soon_tx, &x);
}

int store_clock_next(struct store *s, int64_t after_ms, int64_t *next_ms)
{
	struct one_i64 v = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CLOCK_NEXT, ARGS(A_I64(after_ms)),
	                    store__read_i64, &v);
	store__checkin(s, c);
	if (rc == 0)
		*next_ms = v.found ? v.v : 0;
	return rc;
}

/* ---- moves ----------------------------------------------------------- */

/* The caller's callback for a log read. */
struct moves_ctx {
	store_move_fn fn; /* called per move */
	void *ctx;        /* its context */
};

static int move_row(const struct row *st, void *ctx)
{
	struct moves_ctx *x = ctx;
	int rc =
	    x->fn(x->ctx, (uint64_t)store__col_i64(st, 0),
	          store__col_int(st, 1), (const char *)store__col_text(st, 2),
	          (const char *)store__col_text(st, 3), store__col_i64(st, 4));
	return rc < 0 ? rc : 0;
}

static int64_t clamp_seq(uint64_t seq)
{
	return seq > INT64_MAX ? INT64_MAX : (int64_t)seq;
}

int store_moves_range(struct store *s, int64_t key, uint64_t after_seq,
                      uint64_t upto_seq, store_move_fn fn, void *ctx)
{
	struct moves_ctx x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_MOVES_AFTER,
	                    ARGS(A_I64(key), A_I64(clamp_seq(after_seq)),
	                         A_I64(clamp_seq(upto_seq))),
	                    move_row, &x);
	store__checkin(s, c);
	return rc;
}

int store_moves_each(struct store *s, int64_t key, uint64_t after_seq,
                     store_move_fn fn, void *ctx)
{
	return store_moves_range(s, key, after_seq, UINT64_MAX, fn, ctx);
}

/* ---- snapshots (sql/0012_snapshots.sql) ---- */

static int put_snapshot(struct conn *c, int64_t key, uint64_t seq,
                        const struct store_snapshot *sn)
{
	return store__run(c, ST_SNAPSHOT_PUT,
	                  ARGS(A_I64(key), A_I64(clamp_seq(seq)),
	                       A_I64(sn->rules_version),
	                       A_BLOB(sn->state, sn->len)),
	                  NULL, NULL);
}

struct snapshot_put_ctx {
	int64_t key;
	uint64_t seq;
	const struct store_snapshot *sn;
};

static int snapshot_put_tx(struct conn *c, void *ctx)
{
	struct snapshot_put_ctx *x = ctx;
	/* Only for moves that are in the log: a snapshot beyond it would
	 * describe a move that may never be written. */
	struct one_i64 seq = {0};
	int rc = store__run(c, ST_GAME_SEQ, ARGS(A_I64(x->key)),
	                    store__read_i64, &seq);
	if (rc < 0)
		return rc;
	if (!seq.found || (uint64_t)seq.v < x->seq)
		return BD_ENOTFOUND;
	return put_snapshot(c, x->key, x->seq, x->sn);
}

int store_snapshot_put(struct store *s, int64_t key, uint64_t seq,
                       const struct store_snapshot *sn)
{
	struct snapshot_put_ctx x = {key, seq, sn};
	return store__write_tx(s, snapshot_put_tx, &x);
}

struct snapshot_get_ctx {
	uint64_t seq;
	void *state;
	size_t len;
	int nomem;
};

static int snapshot_row(const struct row *st, void *ctx)
{
	struct snapshot_get_ctx *x = ctx;
	const void *b = store__col_blob(st, 1);
	int n = store__col_bytes(st, 1);
	x->seq = (uint64_t)store__col_i64(st, 0);
	x->state = malloc(n > 0 ? (size_t)n : 1);
	if (!x->state)
		return BD_ENOMEM;
	if (n > 0)
		memcpy(x->state, b, (size_t)n);
	x->len = (size_t)n;
	return 0;
}

int store_snapshot_get(struct store *s, int64_t key, uint64_t max_seq,
                       unsigned rules_version, void **state, size_t *len,
                       uint64_t *seq)
{
	struct snapshot_get_ctx x = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(
	    c, ST_SNAPSHOT_GET,
	    ARGS(A_I64(key), A_I64(clamp_seq(max_seq)), A_I64(rules_version)),
	    snapshot_row, &x);
	store__checkin(s, c);
	if (rc < 0) {
		free(x.state);
		return rc;
	}
	if (!x.state)
		return BD_ENOTFOUND;
	*state = x.state;
	*len = x.len;
	*seq = x.seq;
	return 0;
}

/* What store_move_append's transaction writes, and the seq it found. */
struct append_ctx {
	const struct store_idem *idem; /* or NULL */
	int64_t key;                   /* the game */
	uint64_t expected;             /* the seq the caller saw */
	const struct store_move *m;    /* the move */
	uint64_t found;                /* out: the game's seq at BEGIN */
};

static int append_tx(struct conn *c, void *ctx)
{
	struct append_ctx *x = ctx;
	struct one_i64 seq = {0};
	int rc = store__run(c, ST_GAME_SEQ, ARGS(A_I64(x->key)),
	                    store__read_i64, &seq);
	if (rc < 0)
		return rc;
	if (!seq.found)
		return BD_ENOTFOUND;
	x->found = (uint64_t)seq.v;
	if (x->found != x->expected)
		return BD_ECONFLICT;
	if (x->m->seat_token) {
		int held = -1;
		rc = seat_for_token(c, x->key, x->m->seat_token, &held);
		if (rc == BD_ENOTFOUND || (rc == 0 && held != x->m->seat))
			return BD_EFORBIDDEN;
		if (rc < 0)
			return rc;
	}
	if ((rc = store__idem_put(c, x->idem)) < 0)
		return rc;
	int64_t next = seq.v;
	struct ev_before before;
	if ((rc = store__events_before(c, x->key, &before)) < 0)
		return rc;
	for (const struct store_move *m = x->m; rc == 0 && m; m = m->then) {
		int64_t now = m->at_ms ? m->at_ms : store__now_ms();
		next++;
		rc = store__run(
		    c, ST_MOVE_INSERT,
		    ARGS(A_I64(x->key), A_I64(next), A_I64(m->seat),
		         A_TEXT(m->action), A_I64(now), A_TEXT(m->reason),
		         A_BLOB(m->state_hash, STORE_STATE_HASH_LEN)),
		    NULL, NULL);
		if (rc == 0)
			rc = store__run(
			    c, ST_GAME_ADVANCE,
			    ARGS(A_I64(x->key), A_I64(next), A_TEXT(m->status),
			         A_I64(m->to_act), A_TEXT(m->result),
			         A_I64(now), A_TEXT(m->clock_state),
			         A_I64(m->deadline_ms), A_I64(m->soon_ms)),
			    NULL, NULL);
		if (rc == 0 && m->snapshot)
			rc = put_snapshot(c, x->key, (uint64_t)next,
			                  m->snapshot);
	}
	if (rc == 0)
		rc = store__events_after(c, x->key, &before);
	return rc;
}

int store_move_append(struct store *s, int64_t key, uint64_t expected_seq,
                      const struct store_move *m, const struct store_idem *idem,
                      uint64_t *current_seq)
{
	struct append_ctx x = {
	    .idem = idem, .key = key, .expected = expected_seq, .m = m};
	int rc = store__write_tx(s, append_tx, &x);
	/* The one out-parameter written on failure, by contract.  Only a
	 * stale expected_seq reports it: a conflict from the primary key
	 * backstop (log and games.seq disagree) has no seq to report. */
	if (rc == BD_ECONFLICT && x.found != expected_seq && current_seq)
		*current_seq = x.found;
	return rc;
}
