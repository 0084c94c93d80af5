/* store_sql.c: the statement texts both drivers run as they are: the
 * SQL that SQLite and PostgreSQL read alike.  A driver's own table
 * (driver_sqlite.c's lite_sql, driver_pg.c's pg_sql) holds the
 * statements its dialect writes otherwise; store_open (store_open.c)
 * merges the two into the store's table, s->sql, which is all a driver
 * runs.  ?N parameters (PostgreSQL's driver turns them into $N). */
#include "store_int.h"

/* SQL text reads as SQL, not as clang-format would fold it. */
/* clang-format off */
/* The shown rating of subject P of category ?1, as stored. */
#define SHOWN_OF(p) \
    "(SELECT shown FROM ratings WHERE category = ?1 AND subject = " p ")"
#define RATING_COLS \
    "SELECT r.category, r.subject, r.system, r.rating, r.deviation, " \
    "r.volatility, r.shown, r.provisional, r.games, r.wins, r.last_ms, " \
    "coalesce(p.id, ''), coalesce(p.name, ''), r.bucket FROM ratings r " \
    "LEFT JOIN players p ON p.key = r.player_key "
/* The earliest planned end after NOW of a vacation that a player of the
 * games row being updated is taking (sql/0032_seats_until.sql), or NULL. */
#define SEATS_UNTIL(now) \
    "(SELECT min(v.end_ms) FROM vacations v JOIN seats s ON s.player_key " \
    "= v.player_key WHERE s.game_key = games.key AND v.start_ms <= " now \
    " AND v.end_ms > " now ")"

const char *const store__sql[ST_COUNT] = {
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
    [ST_SEAT_FIND] = "SELECT seat FROM seats "
                     "WHERE game_key = ?1 AND token_hash = ?2",
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
                           "(t.revoked_ms IS NOT NULL OR p.banned_ms IS NOT "
                           "NULL OR p.deleted_ms IS NOT NULL) "
                           "FROM player_tokens t "
                           "JOIN players p ON p.key = t.player_key "
                           "WHERE t.token_hash = ?1",
    [ST_PLAYER_BY_ID] = "SELECT key, id, name, created_ms FROM players "
                        "WHERE id = ?1 AND deleted_ms IS NULL",
    [ST_IDEM_INSERT] = "INSERT INTO idempotency (scope, request, status, "
                       "response, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_IDEM_GET] = "SELECT request, status, response FROM idempotency "
                    "WHERE scope = ?1",
    [ST_IDEM_EXPIRE] = "DELETE FROM idempotency WHERE created_ms < ?1",
    /* store_events.c */
    [ST_EV_GAME_STATE] = "SELECT status = 'active', status = 'finished', "
                         "to_act, open_seats FROM games WHERE key = ?1",
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
    /* ?1 player, ?2 endpoint: the others it holds (a subscription to
     * the same endpoint is replaced, so it does not count) */
    [ST_PUSH_SUB_COUNT] = "SELECT count(*) FROM push_subscriptions "
                          "WHERE player_key = ?1 AND endpoint <> ?2",
    [ST_PUSH_SUB_REPLACE] = "DELETE FROM push_subscriptions "
                            "WHERE player_key = ?1 AND endpoint = ?2",
    [ST_PUSH_SUB_INSERT] = "INSERT INTO push_subscriptions (id, player_key, "
                           "endpoint, p256dh, auth, dest, lang, clock_low_s, "
                           "expires_ms, created_ms) VALUES (?1, ?2, ?3, ?4, "
                           "?5, ?6, ?7, ?8, ?9, ?10)",
    [ST_PUSH_SUBS_LIST] = "SELECT id, endpoint, p256dh, auth, dest, lang, "
                          "clock_low_s, expires_ms, created_ms "
                          "FROM push_subscriptions WHERE player_key = ?1 "
                          "ORDER BY key",
    [ST_PUSH_SUB_DELETE] = "DELETE FROM push_subscriptions "
                           "WHERE player_key = ?1 AND id = ?2",
    /* ?1 the subscription's key: its push service answered 404 or 410
     * (its deliveries go with it: ON DELETE CASCADE) */
    [ST_PUSH_SUB_GONE] = "DELETE FROM push_subscriptions WHERE key = ?1",
    [ST_PUSH_DLV_GET] = "SELECT e.key, e.id, e.type, e.data, e.created_ms, "
                        "e.game_key, e.player_key, d.attempts, s.key, "
                        "s.endpoint, s.p256dh, s.auth, s.dest, s.lang, "
                        "coalesce((SELECT failures FROM destinations "
                        "WHERE dest = d.dest), 0), (SELECT count(*) FROM "
                        "destinations WHERE dest = d.dest), d.kind, "
                        "(SELECT seq FROM games WHERE key = e.game_key) "
                        "FROM push_deliveries d "
                        "JOIN events e ON e.key = d.event_key "
                        "JOIN push_subscriptions s ON s.key = d.sub_key "
                        "WHERE d.key = ?1",
    /* as ST_DLV_NEXT: one to an open breaker is due when it half opens */
    [ST_PUSH_DLV_NEXT] = "SELECT coalesce(min(CASE WHEN ds.open_until_ms > "
                         "d.next_ms THEN ds.open_until_ms ELSE d.next_ms "
                         "END), 0) FROM push_deliveries d LEFT JOIN "
                         "destinations ds ON ds.dest = d.dest "
                         "WHERE d.state = 'pending'",
    /* ?1 key, ?2 state ('pending' again: retried), ?3 status, ?4 error,
     * ?5 next (0: keep), ?6 now, ?7 attempts made (0: skipped) */
    [ST_PUSH_DLV_DONE] = "UPDATE push_deliveries SET attempts = attempts + "
                         "?7, in_flight = 0, last_ms = ?6, "
                         "last_status = nullif(?3, 0), "
                         "last_error = nullif(?4, ''), next_ms = CASE "
                         "WHEN ?5 > 0 THEN ?5 ELSE next_ms END, "
                         "state = ?2 WHERE key = ?1 AND state = 'pending'",
    [ST_PUSH_DLV_REQUEUE] = "UPDATE push_deliveries SET in_flight = 0, "
                            "next_ms = CASE WHEN next_ms < ?1 THEN next_ms "
                            "ELSE ?1 END WHERE in_flight = 1",
    /* store_mail.c (sql/0028_mail.sql) */
    [ST_MAIL_GET] = "SELECT address, lang, confirmed_ms, mode, digest_hour, "
                    "tz, unsub_token, created_ms, code_expires_ms "
                    "FROM mail_addresses WHERE player_key = ?1",
    /* ?1 address (lower-cased) or player, ?2 since (unix ms) */
    [ST_MAIL_CODES_BY_ADDR] = "SELECT count(*) FROM mail_codes_sent "
                              "WHERE address = ?1 AND sent_ms > ?2",
    [ST_MAIL_CODES_BY_PLAYER] = "SELECT count(*) FROM mail_codes_sent "
                                "WHERE player_key = ?1 AND sent_ms > ?2",
    /* ?1 player, ?2 address, ?3 lang, ?4 code hash, ?5 code expiry,
     * ?6 unsubscribe token, ?7 now: unconfirmed, mode kept */
    [ST_MAIL_SET] = "INSERT INTO mail_addresses (player_key, address, lang, "
                    "code_hash, code_expires_ms, unsub_token, created_ms) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT "
                    "(player_key) DO UPDATE SET address = ?2, lang = ?3, "
                    "confirmed_ms = NULL, code_hash = ?4, "
                    "code_expires_ms = ?5, code_tries = 0, unsub_token = ?6, "
                    "digest_due_ms = 0, created_ms = ?7",
    [ST_MAIL_CODE_SENT] = "INSERT INTO mail_codes_sent (address, "
                          "player_key, sent_ms) VALUES (?1, ?2, ?3)",
    /* the player's mails not sent yet: to an address no longer theirs */
    [ST_MAIL_DLV_DROP] = "DELETE FROM mail_deliveries WHERE player_key = ?1 "
                         "AND state = 'pending'",
    /* ?1 player, ?2 address, ?3 code, ?4 now */
    [ST_MAIL_DLV_CONFIRM] = "INSERT INTO mail_deliveries (player_key, kind, "
                            "address, code, next_ms, created_ms) VALUES "
                            "(?1, 'confirm', ?2, ?3, ?4, ?4)",
    [ST_MAIL_CODE_GET] = "SELECT code_hash, code_expires_ms FROM "
                         "mail_addresses WHERE player_key = ?1 AND "
                         "confirmed_ms IS NULL AND code_hash IS NOT NULL",
    /* ?1 player, ?2 now: the code is spent */
    [ST_MAIL_CONFIRM] = "UPDATE mail_addresses SET confirmed_ms = ?2, "
                        "code_hash = NULL, code_expires_ms = 0 "
                        "WHERE player_key = ?1",
    /* a wrong guess; the fifth ends the code */
    [ST_MAIL_CODE_MISS] = "UPDATE mail_addresses SET code_tries = "
                          "code_tries + 1, code_hash = CASE WHEN "
                          "code_tries + 1 >= 5 THEN NULL ELSE code_hash "
                          "END WHERE player_key = ?1",
    /* ?1 player, ?2 mode, ?3 digest hour, ?4 tz, ?5 lang, ?6 the next
     * digest's time (0: none) */
    [ST_MAIL_PREFS] = "UPDATE mail_addresses SET mode = ?2, digest_hour = "
                      "?3, tz = ?4, lang = ?5, digest_due_ms = ?6 "
                      "WHERE player_key = ?1",
    /* ?1 now: the digests due, oldest first, a page */
    [ST_MAIL_DIGESTS_DUE] = "SELECT player_key, tz, digest_hour, "
                            "digest_due_ms FROM mail_addresses WHERE "
                            "mode = 'digest' AND confirmed_ms IS NOT NULL "
                            "AND digest_due_ms > 0 AND digest_due_ms <= ?1 "
                            "ORDER BY digest_due_ms LIMIT 100",
    /* ?1 player, ?2 the due time read, ?3 the next: one node takes it */
    [ST_MAIL_DIGEST_NEXT] = "UPDATE mail_addresses SET digest_due_ms = ?3 "
                            "WHERE player_key = ?1 AND digest_due_ms = ?2 "
                            "AND mode = 'digest'",
    /* ?1 player, ?2 now: a digest, when a game waits for them */
    [ST_MAIL_DIGEST_QUEUE] = "INSERT INTO mail_deliveries (player_key, kind, "
                             "address, next_ms, created_ms) SELECT "
                             "a.player_key, 'digest', a.address, ?2, ?2 "
                             "FROM mail_addresses a WHERE a.player_key = ?1 "
                             "AND EXISTS (SELECT 1 FROM seats s JOIN games "
                             "g ON g.key = s.game_key WHERE s.player_key = "
                             "?1 AND g.status = 'active' AND "
                             "((g.to_act >> s.seat) & 1) <> 0)",
    /* the games waiting for player ?1 (a seat of theirs to act), the
     * longest waiting first, at most ?2 */
    [ST_MAIL_WAITING] = "SELECT g.id, g.rules_id FROM seats s JOIN games g "
                        "ON g.key = s.game_key WHERE s.player_key = ?1 AND "
                        "g.status = 'active' AND "
                        "((g.to_act >> s.seat) & 1) <> 0 "
                        "ORDER BY g.updated_ms, g.key LIMIT ?2",
    [ST_MAIL_DELETE] = "DELETE FROM mail_addresses WHERE player_key = ?1",
    [ST_MAIL_BY_TOKEN] = "SELECT address, lang, confirmed_ms, mode, "
                         "digest_hour, tz, unsub_token, created_ms, "
                         "code_expires_ms FROM mail_addresses "
                         "WHERE unsub_token = ?1",
    [ST_MAIL_UNSUBSCRIBE] = "UPDATE mail_addresses SET mode = 'none' "
                            "WHERE unsub_token = ?1",
    [ST_MAIL_DLV_GET] = "SELECT d.key, d.kind, d.address, "
                        "coalesce(d.code, ''), d.attempts, d.created_ms, "
                        "d.player_key, coalesce(e.id, ''), "
                        "coalesce(e.type, ''), coalesce(e.data, '{}'), "
                        "coalesce(e.game_key, 0), coalesce(a.lang, 'en'), "
                        "coalesce(a.unsub_token, ''), "
                        "coalesce((SELECT failures FROM destinations "
                        "WHERE dest = d.dest), 0), (SELECT count(*) FROM "
                        "destinations WHERE dest = d.dest) "
                        "FROM mail_deliveries d LEFT JOIN events e ON "
                        "e.key = d.event_key LEFT JOIN mail_addresses a ON "
                        "a.player_key = d.player_key WHERE d.key = ?1",
    [ST_MAIL_DLV_NEXT] = "SELECT coalesce(min(CASE WHEN ds.open_until_ms > "
                         "d.next_ms THEN ds.open_until_ms ELSE d.next_ms "
                         "END), 0) FROM mail_deliveries d LEFT JOIN "
                         "destinations ds ON ds.dest = d.dest "
                         "WHERE d.state = 'pending'",
    /* ?1 key, ?2 state, ?3 error, ?4 next (0: keep), ?5 now, ?6 attempts
     * made (0: skipped); a confirmation's code goes once it ends */
    [ST_MAIL_DLV_DONE] = "UPDATE mail_deliveries SET attempts = attempts + "
                         "?6, in_flight = 0, last_ms = ?5, "
                         "last_error = nullif(?3, ''), next_ms = CASE "
                         "WHEN ?4 > 0 THEN ?4 ELSE next_ms END, "
                         "code = CASE WHEN ?2 = 'pending' THEN code "
                         "ELSE NULL END, state = ?2 "
                         "WHERE key = ?1 AND state = 'pending'",
    [ST_MAIL_DLV_REQUEUE] = "UPDATE mail_deliveries SET in_flight = 0, "
                            "next_ms = CASE WHEN next_ms < ?1 THEN next_ms "
                            "ELSE ?1 END WHERE in_flight = 1",
    /* ?1 player, ?2 why */
    [ST_HOOK_ORPHANS] = "UPDATE deliveries SET state = 'failed', "
                        "in_flight = 0, last_error = ?2 "
                        "WHERE player_key = ?1 AND state = 'pending'",
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
    [ST_DLV_LIST] = "SELECT " DLV_COLS " FROM deliveries d "
                    "JOIN events e ON e.key = d.event_key "
                    "WHERE d.player_key = ?1 ORDER BY d.event_key DESC "
                    "LIMIT ?2",
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
    [ST_GAME_SOON] = "UPDATE games SET soon_ms = nullif(?3, 0) "
                     "WHERE key = ?1 AND seq = ?2",
    /* ?1 game, ?2 seat, ?3 deadline, ?4 seq */
    [ST_EV_WARNED] = "INSERT INTO deadline_warnings (game_key, "
                     "seat, deadline_ms) SELECT key, ?2, ?3 FROM games "
                     "WHERE key = ?1 AND seq = ?4 ON CONFLICT DO NOTHING",
    [ST_EV_HORIZON] = "SELECT pruned_key FROM event_horizons "
                      "WHERE player_key = ?1",
    [ST_PRUNE_DELIVERIES] =
        "DELETE FROM deliveries WHERE event_key IN (" PRUNABLE ")",
    [ST_PRUNE_PUSH_DELIVERIES] =
        "DELETE FROM push_deliveries WHERE event_key IN (" PRUNABLE ")",
    [ST_PRUNE_MAIL_DELIVERIES] =
        "DELETE FROM mail_deliveries WHERE event_key IN (" PRUNABLE ")",
    /* ?1 before: the mails naming no event (codes, digests) that ended */
    [ST_PRUNE_MAIL_OTHERS] = "DELETE FROM mail_deliveries WHERE event_key "
                             "IS NULL AND state <> 'pending' AND "
                             "created_ms < ?1",
    /* ?1: a day ago (the codes' rate limit looks back a day) */
    [ST_PRUNE_MAIL_CODES] = "DELETE FROM mail_codes_sent WHERE sent_ms < ?1",
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
    /* store_chat.c.  ?1 game, ?2 channel, ?3 seat (-1: a spectator), ?4
     * player (0: none), ?5 text, ?6 now: the channel's next n */
    [ST_CHAT_INSERT] =
        "INSERT INTO chat_messages (game_key, channel, n, seat, player_key, "
        "text, created_ms) SELECT ?1, ?2, coalesce(max(n), 0) + 1, "
        "NULLIF(?3, -1), NULLIF(?4, 0), ?5, ?6 FROM chat_messages "
        "WHERE game_key = ?1 AND channel = ?2 RETURNING n",
    /* ?1 game, ?2 channel, ?3 after n, ?4 the reader (0: none), whose
     * blocked players' messages are left out, ?5 limit */
    [ST_CHAT_AFTER] =
        "SELECT m.n, coalesce(m.seat, -1), coalesce(p.id, ''), "
        "coalesce(p.name, ''), m.text, m.created_ms FROM chat_messages m "
        "LEFT JOIN players p ON p.key = m.player_key WHERE m.game_key = ?1 "
        "AND m.channel = ?2 AND m.n > ?3 AND NOT EXISTS (SELECT 1 FROM "
        "blocks b WHERE b.player_key = ?4 AND b.blocked_key = m.player_key) "
        "ORDER BY m.n LIMIT ?5",
    [ST_CHAT_LAST] = "SELECT coalesce(max(n), 0) FROM chat_messages "
                     "WHERE game_key = ?1 AND channel = ?2",
    [ST_CHAT_GET] = "SELECT coalesce(player_key, 0), coalesce(seat, -1), "
                    "text FROM chat_messages WHERE game_key = ?1 AND "
                    "channel = ?2 AND n = ?3",
    [ST_BLOCK_PUT] = "INSERT INTO blocks (player_key, blocked_key, "
                     "created_ms) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    [ST_BLOCK_DELETE] = "DELETE FROM blocks WHERE player_key = ?1 AND "
                        "blocked_key = ?2",
    [ST_BLOCKS_LIST] = "SELECT p.id, p.name, b.created_ms FROM blocks b "
                       "JOIN players p ON p.key = b.blocked_key WHERE "
                       "b.player_key = ?1 ORDER BY b.created_ms, p.id",
    [ST_BLOCKS_COUNT] = "SELECT count(*) FROM blocks WHERE player_key = ?1",
    [ST_BLOCKED_EITHER] = "SELECT count(*) FROM blocks WHERE (player_key = "
                          "?1 AND blocked_key = ?2) OR (player_key = ?2 AND "
                          "blocked_key = ?1)",
    /* ?1 game, ?2 player: a holder of one of the game's seats blocked
     * the player */
    [ST_BLOCKED_IN_GAME] = "SELECT count(*) FROM blocks b JOIN seats s ON "
                           "s.player_key = b.player_key WHERE s.game_key = "
                           "?1 AND b.blocked_key = ?2",
    /* ?1 reporter, ?2 player (0: none), ?3 game (0: none), ?4 channel
     * (-1: none), ?5 n (0: none), ?6 seat (-1: none), ?7 the message's
     * text or NULL, ?8 reason, ?9 now */
    [ST_REPORT_INSERT] =
        "INSERT INTO reports (reporter_key, player_key, game_key, channel, "
        "n, seat, text, reason, created_ms) VALUES (?1, NULLIF(?2, 0), "
        "NULLIF(?3, 0), NULLIF(?4, -1), NULLIF(?5, 0), NULLIF(?6, -1), ?7, "
        "?8, ?9) RETURNING key",
    [ST_REPORTS_AFTER] =
        "SELECT r.key, rp.id, rp.name, coalesce(p.id, ''), "
        "coalesce(p.name, ''), coalesce(g.id, ''), coalesce(r.channel, -1), "
        "coalesce(r.n, 0), coalesce(r.seat, -1), r.text, r.reason, "
        "r.created_ms FROM reports r JOIN players rp ON rp.key = "
        "r.reporter_key LEFT JOIN players p ON p.key = r.player_key LEFT "
        "JOIN games g ON g.key = r.game_key WHERE r.key > ?1 ORDER BY r.key "
        "LIMIT ?2",
    /* store_rematch.c.  ?1 game, ?2 the seats accepting (bit set), ?3
     * the acting seat: changes the row only when one of ?2 had not
     * accepted yet.  On PostgreSQL the UPDATE locks the row, so nodes
     * accepting at once take turns, and a waiting one re-reads the row
     * (READ COMMITTED): it sees the rematch the first made. */
    [ST_REMATCH_OFFER] = "UPDATE games SET rematch_seats = "
                         "coalesce(rematch_seats, 0) | ?2, rematch_by = "
                         "coalesce(rematch_by, ?3) WHERE key = ?1 AND "
                         "status = 'finished' AND rematch IS NULL AND "
                         "(rematch_seats IS NULL OR (rematch_seats & ?2) "
                         "<> ?2)",
    [ST_REMATCH_DECLINE] = "UPDATE games SET rematch_seats = NULL, "
                           "rematch_by = NULL WHERE key = ?1 AND status = "
                           "'finished' AND rematch IS NULL AND "
                           "rematch_seats IS NOT NULL",
    [ST_REMATCH_GET] = "SELECT status, coalesce(rematch_seats, 0), "
                       "coalesce(rematch_by, -1), coalesce(rematch, ''), "
                       "seats, id FROM games WHERE key = ?1",
    /* ?1 game: a player of it blocked another of its players */
    [ST_REMATCH_BLOCKED] = "SELECT count(*) FROM seats a JOIN blocks k ON "
                           "k.player_key = a.player_key JOIN seats b ON "
                           "b.game_key = a.game_key AND b.player_key = "
                           "k.blocked_key WHERE a.game_key = ?1",
    /* ?1 the finished game, ?2 its rematch's id */
    [ST_REMATCH_LINK] = "UPDATE games SET rematch = ?2 WHERE key = ?1 AND "
                        "rematch IS NULL",
    /* ?1 the new game, ?2 the finished game's id (unique) */
    [ST_REMATCH_OF] = "UPDATE games SET rematch_of = ?2 WHERE key = ?1",
    /* store_seeks.c (sql/0029_seeks.sql).  A seek as store_seek_read
     * reads it; ?1 is always now (an open seek past expires_ms reads
     * "expired"). */
#define SEEK_COLS                                                              \
	"k.id, p.id, p.name, k.rules_id, k.seats, k.options, k.clock, "        \
	"k.rated, k.rating, k.rating_min, k.rating_max, k.created_ms, "        \
	"k.expires_ms, CASE WHEN k.state = 'open' AND k.expires_ms <= ?1 "     \
	"THEN 'expired' ELSE k.state END, coalesce(k.game, ''), "              \
	"coalesce(k.ended_ms, 0), k.player_key"
    /* ?1 player, ?2 now */
    [ST_SEEK_OPEN_COUNT] = "SELECT count(*) FROM seeks WHERE player_key = "
                           "?1 AND state = 'open' AND expires_ms > ?2",
    /* ?1 player, ?2 pool, ?3 now */
    [ST_SEEK_SAME_POOL] = "SELECT count(*) FROM seeks WHERE player_key = ?1 "
                          "AND pool = ?2 AND state = 'open' AND "
                          "expires_ms > ?3",
    [ST_SEEK_INSERT] =
        "INSERT INTO seeks (id, player_key, pool, rules_id, seats, options, "
        "clock, rated, rating, rating_min, rating_max, created_ms, "
        "expires_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
        "?12, ?13) RETURNING key",
    /* ?1 seek, ?2 the game's id, ?3 now */
    [ST_SEEK_MATCH] = "UPDATE seeks SET state = 'matched', game = ?2, "
                      "ended_ms = ?3 WHERE key = ?1 AND state = 'open'",
    /* ?1 now, ?2 id */
    [ST_SEEK_GET] = "SELECT " SEEK_COLS " FROM seeks k JOIN players p ON "
                    "p.key = k.player_key WHERE k.id = ?2",
    /* ?1 id, ?2 player, ?3 now */
    [ST_SEEK_CANCEL] = "UPDATE seeks SET state = 'cancelled', ended_ms = ?3 "
                       "WHERE id = ?1 AND player_key = ?2 AND state = "
                       "'open' AND expires_ms > ?3",
    [ST_SEEK_KEY] = "SELECT key FROM seeks WHERE id = ?1",
    /* ?1 now, ?2 rules id ('': every game), ?3 after key, ?4 limit */
    [ST_SEEKS_OPEN] = "SELECT " SEEK_COLS " FROM seeks k JOIN players p ON "
                      "p.key = k.player_key WHERE k.state = 'open' AND "
                      "k.expires_ms > ?1 AND (?2 = '' OR k.rules_id = ?2) "
                      "AND k.key > ?3 ORDER BY k.key LIMIT ?4",
    /* ?1 player, ?2 now: a banned player's open seeks pair no more */
    [ST_SEEKS_CANCEL_PLAYER] = "UPDATE seeks SET state = 'cancelled', "
                               "ended_ms = ?2 WHERE player_key = ?1 AND "
                               "state = 'open'",
    /* ?1 now, ?2 player */
    [ST_SEEKS_OF_PLAYER] = "SELECT " SEEK_COLS " FROM seeks k JOIN players "
                           "p ON p.key = k.player_key WHERE k.player_key = "
                           "?2 ORDER BY k.key",
    /* store_admin.c.  A player as boardd admin lists one (ADMIN_COLS). */
#define ADMIN_COLS                                                             \
	"p.key, p.id, p.name, p.created_ms, coalesce(p.banned_ms, 0), "        \
	"coalesce(p.banned_why, ''), coalesce(p.deleted_ms, 0), (SELECT "      \
	"count(*) FROM player_tokens t WHERE t.player_key = p.key AND "        \
	"t.revoked_ms IS NULL), (SELECT count(*) FROM seats s WHERE "          \
	"s.player_key = p.key)"
    /* ?1 after key, ?2 LIKE pattern of the name ('' : every player), ?3
     * the same text as an id, ?4 limit */
    [ST_ADMIN_PLAYERS] = "SELECT " ADMIN_COLS " FROM players p WHERE "
                         "p.key > ?1 AND (?2 = '' OR p.id = ?3 OR "
                         "lower(p.name) LIKE lower(?2) ESCAPE '\\') "
                         "ORDER BY p.key LIMIT ?4",
    [ST_ADMIN_PLAYER] = "SELECT " ADMIN_COLS " FROM players p "
                        "WHERE p.id = ?1",
    [ST_PLAYER_BAN] = "UPDATE players SET banned_ms = ?2, banned_why = "
                      "nullif(?3, '') WHERE key = ?1 AND deleted_ms IS NULL "
                      "AND banned_ms IS NULL",
    [ST_PLAYER_UNBAN] = "UPDATE players SET banned_ms = NULL, banned_why = "
                        "NULL WHERE key = ?1 AND banned_ms IS NOT NULL",
    [ST_TOKENS_REVOKE_ALL] = "UPDATE player_tokens SET revoked_ms = ?2 "
                             "WHERE player_key = ?1 AND revoked_ms IS NULL",
    [ST_ADMIN_LOG] = "INSERT INTO admin_log (action, player_id, game_id, "
                     "reason, created_ms) VALUES (?1, nullif(?2, ''), "
                     "nullif(?3, ''), nullif(?4, ''), ?5)",
    /* The games a ban or a deletion ends for player ?1: those they
     * created that nobody moved in yet (cancelled: 1), and the waiting
     * games where they only hold a seat (left: 0), with that seat. */
    [ST_PLAYER_WAITING] =
        "SELECT g.key, coalesce(s.seat, -1), "
        "CASE WHEN g.creator_player = ?1 AND (g.status = 'waiting' OR "
        "g.seq = 0) THEN 1 ELSE 0 END FROM games g LEFT JOIN seats s ON "
        "s.game_key = g.key AND s.player_key = ?1 WHERE g.cancelled_ms IS "
        "NULL AND ((g.creator_player = ?1 AND (g.status = 'waiting' OR "
        "(g.status = 'active' AND g.seq = 0))) OR (s.player_key = ?1 AND "
        "g.status = 'waiting')) ORDER BY g.key",
    /* The games in progress where player ?1 holds a seat. */
    [ST_PLAYER_ACTIVE] = "SELECT g.id FROM seats s JOIN games g ON g.key = "
                         "s.game_key WHERE s.player_key = ?1 AND "
                         "g.status = 'active' AND g.cancelled_ms IS NULL "
                         "ORDER BY g.key",
    [ST_CHAT_BY_PLAYER] = "SELECT g.id, m.channel, m.n, coalesce(m.seat, "
                          "-1), m.text, m.created_ms FROM chat_messages m "
                          "JOIN games g ON g.key = m.game_key WHERE "
                          "m.player_key = ?1 ORDER BY m.key",
    [ST_REPORTS_BY_PLAYER] =
        "SELECT r.key, coalesce(p.id, ''), coalesce(g.id, ''), "
        "coalesce(r.channel, -1), coalesce(r.n, 0), r.reason, r.created_ms "
        "FROM reports r LEFT JOIN players p ON p.key = r.player_key LEFT "
        "JOIN games g ON g.key = r.game_key WHERE r.reporter_key = ?1 "
        "ORDER BY r.key",
    [ST_ERASE_PLAYER] = "UPDATE players SET name = 'deleted player', "
                        "deleted_ms = ?2, banned_ms = NULL, banned_why = "
                        "NULL WHERE key = ?1 AND deleted_ms IS NULL",
    [ST_ERASE_TOKENS] = "UPDATE player_tokens SET label = 'deleted', "
                        "last_used_ms = NULL, revoked_ms = coalesce("
                        "revoked_ms, ?2) WHERE player_key = ?1",
    [ST_ERASE_CHAT] = "DELETE FROM chat_messages WHERE player_key = ?1",
    [ST_ERASE_BLOCKS] = "DELETE FROM blocks WHERE player_key = ?1 "
                        "OR blocked_key = ?1",
    [ST_ERASE_SEEKS] = "DELETE FROM seeks WHERE player_key = ?1",
    [ST_ERASE_INVITES] = "UPDATE seats SET invited = NULL WHERE invited = ?1",
    [ST_ERASE_DELIVERIES] = "DELETE FROM deliveries WHERE player_key = ?1",
    /* sql/0026_push_deliveries.sql: rows naming the player's events or
     * subscriptions, before those go */
    [ST_ERASE_PUSH_DELIVERIES] = "DELETE FROM push_deliveries WHERE "
                                 "sub_key IN (SELECT key FROM "
                                 "push_subscriptions WHERE player_key = ?1) "
                                 "OR event_key IN (SELECT key FROM events "
                                 "WHERE player_key = ?1)",
    [ST_ERASE_MAIL_DELIVERIES] = "DELETE FROM mail_deliveries WHERE "
                                 "player_key = ?1 OR event_key IN (SELECT "
                                 "key FROM events WHERE player_key = ?1)",
    [ST_ERASE_MAIL] = "DELETE FROM mail_addresses WHERE player_key = ?1",
    [ST_ERASE_MAIL_CODES] = "DELETE FROM mail_codes_sent WHERE player_key = ?1",
    [ST_ERASE_EVENTS] = "DELETE FROM events WHERE player_key = ?1",
    [ST_ERASE_HORIZON] = "DELETE FROM event_horizons WHERE player_key = ?1",
    [ST_ERASE_HOOK] = "DELETE FROM webhooks WHERE player_key = ?1",
    [ST_ERASE_PUSH] = "DELETE FROM push_subscriptions WHERE player_key = ?1",
    /* after ST_ERASE_SEATS_BUMP: a vacation ending meanwhile changes nothing
     * a game shows (the games in progress were resigned) */
    [ST_ERASE_VACATIONS] = "DELETE FROM vacations WHERE player_key = ?1",
    [ST_ERASE_VACATION_ACCOUNT] = "DELETE FROM vacation_accounts WHERE "
                                  "player_key = ?1",
    /* the answers that name the player's seats are cached by it */
    [ST_ERASE_SEATS_BUMP] = "UPDATE games SET seats_version = "
                            "seats_version + 1 WHERE key IN (SELECT "
                            "game_key FROM seats WHERE player_key = ?1)",
    /* The chat of games finished before ?1 (unix ms), at most ?2 rows. */
    [ST_PRUNE_CHAT] = "DELETE FROM chat_messages WHERE key IN (SELECT "
                      "m.key FROM chat_messages m JOIN games g ON g.key = "
                      "m.game_key WHERE g.status = 'finished' AND "
                      "g.updated_ms < ?1 ORDER BY m.key LIMIT ?2)",
    /* store_ratings.c (sql/0025_ratings.sql).  Doubles travel as text
     * (%.17g), cast where SQLite and PostgreSQL both read the cast. */
    [ST_GAME_UNRATED] = "UPDATE games SET rated = 0 WHERE key = ?1",
    [ST_GAME_RATED] = "SELECT rated FROM games WHERE key = ?1",
    /* The moves each seat chose itself (a bot's too): not the server's
     * for a timeout or a resigned seat, not a resignation. */
    [ST_RATING_MOVES_BY_SEAT] = "SELECT seat, count(*) FROM moves "
                                "WHERE game_key = ?1 AND (reason IS NULL "
                                "OR reason = 'bot') AND "
                                "action <> '{\"type\":\"resign\"}' "
                                "GROUP BY seat",
    [ST_RATING_GET] = "SELECT rating, deviation, volatility, games, wins, "
                      "last_ms, provisional, bucket FROM ratings "
                      "WHERE category = ?1 AND subject = ?2",
    [ST_RATING_PUT] =
        "INSERT INTO ratings (category, subject, player_key, system, "
        "rating, deviation, volatility, shown, provisional, games, wins, "
        "last_ms, bucket) VALUES (?1, ?2, nullif(?3, 0), ?4, "
        "CAST(?5 AS double precision), CAST(?6 AS double precision), "
        "CAST(?7 AS double precision), CAST(?8 AS double precision), ?9, "
        "?10, ?11, ?12, ?13) ON CONFLICT (category, subject) DO UPDATE SET "
        "rating = excluded.rating, deviation = excluded.deviation, "
        "volatility = excluded.volatility, shown = excluded.shown, "
        "bucket = excluded.bucket, "
        "provisional = excluded.provisional, games = excluded.games, "
        "wins = excluded.wins, last_ms = excluded.last_ms",
    [ST_RATING_HISTORY_PUT] =
        "INSERT INTO rating_history (category, subject, game_key, place, "
        "rating_before, deviation_before, rating, deviation, shown, at_ms) "
        "VALUES (?1, ?2, ?3, ?4, CAST(?5 AS double precision), "
        "CAST(?6 AS double precision), CAST(?7 AS double precision), "
        "CAST(?8 AS double precision), CAST(?9 AS double precision), ?10)",
    [ST_RATINGS_OF_PLAYER] = RATING_COLS "WHERE r.player_key = ?1 "
                             "ORDER BY r.category",
    [ST_LEADERBOARD_TOP] = RATING_COLS "WHERE r.category = ?1 AND "
                           "r.provisional = 0 AND r.last_ms >= ?2 "
                           "ORDER BY r.shown DESC, r.subject LIMIT ?3",
    /* The subject's shown rating is compared as stored (not as text
     * read back: SQLite's text of a REAL keeps 15 digits). */
    [ST_LEADERBOARD_AFTER] =
        RATING_COLS "WHERE r.category = ?1 AND r.provisional = 0 AND "
        "r.last_ms >= ?2 AND r.shown <= " SHOWN_OF("?4") " AND "
        "(r.shown < " SHOWN_OF("?4") " OR r.subject > ?4) "
        "ORDER BY r.shown DESC, r.subject LIMIT ?3",
    /* A rank: the rows above in the subject's own bucket ... */
    [ST_LEADERBOARD_ABOVE] =
        "SELECT count(*) FROM ratings r WHERE r.category = ?1 AND "
        "r.provisional = 0 AND r.bucket = ?4 AND r.last_ms >= ?2 AND "
        "r.shown >= " SHOWN_OF("?3") " AND "
        "(r.shown > " SHOWN_OF("?3") " OR r.subject < ?3)",
    /* ... and those of the buckets above, over the active days */
    [ST_BOARD_ABOVE] = "SELECT coalesce(sum(n), 0) FROM board_counts "
                       "WHERE category = ?1 AND day >= ?2 AND bucket > ?3",
    [ST_BOARD_ADD] = "INSERT INTO board_counts (category, day, bucket, n) "
                     "VALUES (?1, ?2, ?3, 1) ON CONFLICT (category, day, "
                     "bucket) DO UPDATE SET n = board_counts.n + 1",
    [ST_BOARD_SUB] = "UPDATE board_counts SET n = n - 1 WHERE "
                     "category = ?1 AND day = ?2 AND bucket = ?3 AND n > 0",
    [ST_RATING_ONE] = RATING_COLS "WHERE r.category = ?1 AND r.subject = ?2",
    [ST_RATING_HISTORY] =
        "SELECT h.key, h.category, g.id, h.place, h.rating_before, "
        "h.deviation_before, h.rating, h.deviation, h.shown, h.at_ms "
        "FROM rating_history h JOIN games g ON g.key = h.game_key "
        "WHERE h.subject = ?1 AND (?2 = '' OR h.category = ?2) AND "
        "h.key > ?3 ORDER BY h.key LIMIT ?4",
    /* store_vacation.c (sql/0030_vacation.sql); ?1 is the player.  The
     * account as of its last write (no row: as the player was made) */
    [ST_VAC_ACCOUNT] =
        "SELECT coalesce(a.left_ms, 0), coalesce(a.accrued_ms, "
        "p.created_ms), coalesce(a.auto, 0) FROM players p LEFT JOIN "
        "vacation_accounts a ON a.player_key = p.key WHERE p.key = ?1",
    /* ?2 left, ?3 accrued, ?4 auto */
    [ST_VAC_ACCOUNT_PUT] =
        "INSERT INTO vacation_accounts (player_key, left_ms, accrued_ms, "
        "auto) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_key) DO UPDATE "
        "SET left_ms = excluded.left_ms, accrued_ms = excluded.accrued_ms, "
        "auto = excluded.auto",
    /* ?2 now: the vacation being taken (its vacations never overlap) */
    [ST_VAC_CURRENT] = "SELECT key, start_ms, end_ms, auto FROM vacations "
                       "WHERE player_key = ?1 AND start_ms <= ?2 AND "
                       "end_ms > ?2 ORDER BY start_ms LIMIT 1",
    /* ?2 start, ?3 end, ?4 auto */
    [ST_VAC_INSERT] = "INSERT INTO vacations (player_key, start_ms, end_ms, "
                      "auto) VALUES (?1, ?2, ?3, ?4)",
    /* ?2 the vacation, ?3 its new end */
    [ST_VAC_END] = "UPDATE vacations SET end_ms = ?3 WHERE key = ?2 AND "
                   "player_key = ?1",
    /* ?2 since: how many vacations began after it */
    [ST_VAC_BEGUN] = "SELECT count(*) FROM vacations WHERE player_key = ?1 "
                     "AND start_ms > ?2",
    [ST_VAC_LAST] =
        "SELECT coalesce(max(key), 0) FROM vacations WHERE player_key = ?1",
    [ST_VAC_LATEST_END] = "SELECT coalesce(max(end_ms), 0) FROM vacations "
                          "WHERE player_key = ?1",
    /* ?2 now: the player's games with a deadline are looked at again by
     * the clock scheduler (their deadlines come earlier) */
    [ST_VAC_POKE] = "UPDATE games SET deadline_ms = ?2 WHERE deadline_ms "
                    "IS NOT NULL AND key IN (SELECT game_key FROM seats "
                    "WHERE player_key = ?1)",
    /* the views of the player's running timed games show their vacation
     * (cached under seats_version; on PostgreSQL the update tells the
     * other nodes) */
    [ST_VAC_BUMP] = "UPDATE games SET seats_version = seats_version + 1, "
                    "seats_until_ms = " SEATS_UNTIL("?2") " WHERE status = "
                    "'active' AND clock IS NOT NULL AND key IN (SELECT "
                    "game_key FROM seats WHERE player_key = ?1)",
    /* ?1 game, ?2 after: each seat a player holds, with every vacation of
     * theirs that ends after ?2 (or none), in seat and start order, and
     * their latest vacation's key */
    [ST_VAC_SEATS] =
        "SELECT s.seat, s.player_key, (SELECT coalesce(max(key), 0) FROM "
        "vacations WHERE player_key = s.player_key), coalesce(v.start_ms, "
        "0), coalesce(v.end_ms, 0) FROM seats s LEFT JOIN vacations v ON "
        "v.player_key = s.player_key AND v.end_ms > ?2 WHERE s.game_key = "
        "?1 AND s.player_key IS NOT NULL ORDER BY s.seat, v.start_ms",
    /* every vacation of player ?1, oldest first (an export) */
    [ST_VAC_LIST] = "SELECT start_ms, end_ms, auto FROM vacations WHERE "
                    "player_key = ?1 ORDER BY start_ms, key",
    /* ?1 game, ?2 seq, ?3 the deadline read, ?4 the new one (0: none):
     * only if no move and no vacation's end changed it meanwhile */
    [ST_GAME_DEADLINE] = "UPDATE games SET deadline_ms = nullif(?4, 0) "
                         "WHERE key = ?1 AND seq = ?2 AND deadline_ms = ?3",
    /* ?1 game, ?2 now: a shown vacation ran out (only once: after it,
     * seats_until_ms is none or later than ?2) */
    [ST_GAME_SEATS_EXPIRE] = "UPDATE games SET seats_version = "
                             "seats_version + 1, seats_until_ms = "
                             SEATS_UNTIL("?2") " WHERE key = ?1 AND "
                             "seats_until_ms <= ?2",
    /* ?1 game, ?2 now: its seats' players changed (a timed game began, a
     * seat attached to a player), and a vacation one of them is taking
     * already shows in its view: when the first ends.  A passed end not
     * yet read is kept (the next read bumps seats_version for it). */
    [ST_GAME_SEATS_UNTIL] = "UPDATE games SET seats_until_ms = CASE WHEN "
                            "seats_until_ms <= ?2 THEN seats_until_ms "
                            "ELSE " SEATS_UNTIL("?2") " END WHERE key = ?1 "
                            "AND status = 'active' AND clock IS NOT NULL",
    /* store_links.c (sql/0031_link_codes.sql).  ST_PLAYERS_BY_NAME
     * (?1 the prefix, ?2 the limit) is each driver's: a range of
     * lower(name) that players_by_lower_name serves. */
    [ST_PLAYER_BY_KEY] = "SELECT key, id, name, created_ms FROM players "
                         "WHERE key = ?1",
    [ST_LINK_PRUNE] = "DELETE FROM link_codes WHERE expires_ms <= ?1",
    [ST_LINK_COUNT] = "SELECT count(*) FROM link_codes "
                      "WHERE player_key = ?1 AND expires_ms > ?2",
    [ST_LINK_INSERT] = "INSERT INTO link_codes (code_hash, player_key, "
                       "expires_ms, created_ms) VALUES (?1, ?2, ?3, ?4)",
    /* once: the row goes; only a live code of a player in good
     * standing (neither deleted nor banned) */
    [ST_LINK_CLAIM] = "DELETE FROM link_codes WHERE code_hash = ?1 "
                      "AND expires_ms > ?2 AND player_key IN (SELECT key "
                      "FROM players WHERE deleted_ms IS NULL AND "
                      "banned_ms IS NULL) RETURNING player_key",
    [ST_ERASE_LINK_CODES] = "DELETE FROM link_codes WHERE player_key = ?1",
};
/* clang-format on */
