-- 0029_seeks.sql: quick match, "seeks" (issue 33 goal 1;
-- docs/matchmaking.md, "Quick match").
--
-- A seek is one player's standing wish for a game: `pool` is the exact
-- text every compatible seek shares (the game, seat count, options,
-- clock and rated flag, as the service writes it), so compatible seeks
-- are one index range, oldest first.  Ratings are whole points of the
-- rating shown in the game's category (a Glicko-2 rating, or the
-- Weng-Lin mu - 3 sigma): the seeker's own when the seek was made and
-- the bounds of the opponents' it takes.  A seek is 'open' until its
-- expiry (expires_ms: then it is simply no longer read as open), until
-- its player cancels it ('cancelled'), or until it is paired ('matched',
-- with `game` the new game's public id) in the transaction that inserts
-- the seek completing a table.
CREATE TABLE seeks (
	key        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT    NOT NULL UNIQUE CHECK (length(id) = 16),
	player_key INTEGER NOT NULL REFERENCES players (key),
	pool       TEXT    NOT NULL,
	rules_id   TEXT    NOT NULL,
	seats      INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),
	options    TEXT    NOT NULL CHECK (json_valid(options)),
	clock      TEXT    CHECK (clock IS NULL OR json_valid(clock)),
	rated      INTEGER NOT NULL CHECK (rated IN (0, 1)),
	rating     INTEGER NOT NULL,
	rating_min INTEGER NOT NULL,
	rating_max INTEGER NOT NULL CHECK (rating_min <= rating_max),
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER NOT NULL CHECK (expires_ms > created_ms),
	state      TEXT    NOT NULL DEFAULT 'open'
	           CHECK (state IN ('open', 'matched', 'cancelled')),
	game       TEXT    CHECK (game IS NULL OR length(game) = 16),
	ended_ms   INTEGER
) STRICT;
CREATE INDEX seeks_open ON seeks (pool, key) WHERE state = 'open';
CREATE INDEX seeks_open_by_rules ON seeks (rules_id, key)
	WHERE state = 'open';
CREATE INDEX seeks_by_player ON seeks (player_key, key);

-- The outbox gains the event type 'seek.matched' (a player's seek was
-- paired: the new game's event data and the seek's id).  As in
-- sql/0027_rematch.sql, SQLite changes a CHECK only by rebuilding the
-- table, keeping its keys, its AUTOINCREMENT counter and its triggers.
CREATE TABLE events_new (
	key        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT    NOT NULL UNIQUE,
	player_key INTEGER NOT NULL REFERENCES players (key),
	game_key   INTEGER NOT NULL REFERENCES games (key),
	type       TEXT    NOT NULL CHECK (type IN ('turn', 'game.started',
	           'game.finished', 'invited', 'deadline.soon', 'seat.taken',
	           'rematch', 'seek.matched')),
	data       TEXT    NOT NULL CHECK (json_valid(data)),
	created_ms INTEGER NOT NULL
) STRICT;
INSERT INTO events_new (key, id, player_key, game_key, type, data,
                        created_ms)
	SELECT key, id, player_key, game_key, type, data, created_ms
	FROM events;
DELETE FROM sqlite_sequence WHERE name = 'events_new';
INSERT INTO sqlite_sequence (name, seq)
	SELECT 'events_new', seq FROM sqlite_sequence WHERE name = 'events';
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;
CREATE INDEX events_by_player ON events (player_key, key);
CREATE INDEX events_by_age ON events (created_ms);
CREATE TRIGGER events_deliver AFTER INSERT ON events
BEGIN
	INSERT INTO deliveries (event_key, player_key, next_ms)
	SELECT NEW.key, NEW.player_key, NEW.created_ms
	FROM webhooks WHERE player_key = NEW.player_key
	AND disabled_ms IS NULL;
END;
-- sql/0027_rematch.sql's, and a pairing is pushed too: a seeker waits
-- with the page closed, and game.started is not pushed (only the first
-- seat to move would hear of the game by its 'turn').
CREATE TRIGGER events_push AFTER INSERT ON events
WHEN NEW.type IN ('turn', 'game.finished', 'deadline.soon', 'invited',
                  'seat.taken', 'seek.matched')
BEGIN
	INSERT INTO push_deliveries (event_key, sub_key, dest, next_ms)
	SELECT NEW.key, key, dest, NEW.created_ms
	FROM push_subscriptions WHERE player_key = NEW.player_key;
	INSERT INTO push_deliveries (event_key, sub_key, dest, next_ms, kind)
	SELECT NEW.key, p.key, p.dest, t.d - p.clock_low_s * 1000, 'clock.low'
	FROM push_subscriptions p, (SELECT CAST(round((julianday(substr(
		json_extract(NEW.data, '$.deadline'), 1, 23)) - 2440587.5)
		* 86400000) AS INTEGER) AS d) t
	WHERE NEW.type = 'turn' AND p.player_key = NEW.player_key
	AND p.clock_low_s > 0 AND t.d IS NOT NULL
	AND t.d - p.clock_low_s * 1000 > NEW.created_ms;
END;
-- And the mail one of sql/0028_mail.sql, unchanged (a quick match is
-- told by stream, webhook and push, not mailed).
CREATE TRIGGER events_mail AFTER INSERT ON events
WHEN NEW.type IN ('turn', 'game.finished', 'invited', 'seat.taken')
BEGIN
	INSERT INTO mail_deliveries (player_key, event_key, kind, address,
	                             next_ms, created_ms)
	SELECT NEW.player_key, NEW.key, 'event', address, NEW.created_ms,
	       NEW.created_ms
	FROM mail_addresses WHERE player_key = NEW.player_key
	AND confirmed_ms IS NOT NULL AND mode = 'event';
END;
