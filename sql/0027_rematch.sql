-- 0027_rematch.sql: rematches (issue 33 goal 2; docs/matchmaking.md,
-- "Rematch").
--
-- A finished game's rematch lives on its row: the seats that offered or
-- accepted it (a bit set, NULL while nobody offers one), the seat that
-- offered it first, and once every seat accepted, the new game's public
-- id.  The new game names the game it rematches in rematch_of, unique:
-- a game has at most one rematch, also when two nodes on one database
-- complete it at once (the second insert fails; docs/matchmaking.md).
ALTER TABLE games ADD COLUMN rematch_seats INTEGER
	CHECK (rematch_seats IS NULL OR rematch_seats > 0);
ALTER TABLE games ADD COLUMN rematch_by INTEGER
	CHECK (rematch_by IS NULL OR rematch_by >= 0);
ALTER TABLE games ADD COLUMN rematch TEXT
	CHECK (rematch IS NULL OR length(rematch) = 16);
ALTER TABLE games ADD COLUMN rematch_of TEXT
	CHECK (rematch_of IS NULL OR length(rematch_of) = 16);
CREATE UNIQUE INDEX games_by_rematch_of ON games (rematch_of)
	WHERE rematch_of IS NOT NULL;

-- The outbox gains the event type 'rematch' (an offer, an acceptance, a
-- decline, the new game): SQLite changes a CHECK only by rebuilding the
-- table.  The keys are kept, and so is the AUTOINCREMENT counter (a
-- pruned key is never handed out again: account streams resume by key).
CREATE TABLE events_new (
	key        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT    NOT NULL UNIQUE,
	player_key INTEGER NOT NULL REFERENCES players (key),
	game_key   INTEGER NOT NULL REFERENCES games (key),
	type       TEXT    NOT NULL CHECK (type IN ('turn', 'game.started',
	           'game.finished', 'invited', 'deadline.soon', 'seat.taken',
	           'rematch')),
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
-- Dropping the old table dropped its triggers: the Web Push one of
-- sql/0026_push_deliveries.sql, unchanged (a rematch is not pushed).
CREATE TRIGGER events_push AFTER INSERT ON events
WHEN NEW.type IN ('turn', 'game.finished', 'deadline.soon', 'invited',
                  'seat.taken')
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
