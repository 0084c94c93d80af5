-- 0026_push_deliveries.sql: Web Push deliveries (issue 32 goal 1).
--
-- One delivery per pushed event and subscription of its player, written
-- by the trigger below in the transaction that writes the event (as
-- events_deliver does for webhooks), so nothing pushed is lost across a
-- restart.  The pushed types: a turn (or a decision asked off turn: to
-- act, for the engine), a game ended, a deadline soon, an invitation,
-- a seat taken in a waiting game.
-- dest: the subscription's "host:port" (push_subscriptions.dest), copied
-- so that the claim counts the attempts in flight per destination without
-- a join.  The columns after it are those of `deliveries` (0008), with a
-- fourth state: 'skipped', not pushed because the player held a live
-- stream on the game when it was due, or (a clock.low) because the game
-- moved on.  kind: '' pushes the event as it is; 'clock.low' is the
-- warning a subscription's clock_low_s asks for, written with a "turn"
-- event that names a deadline and due clock_low_s before it (when that
-- is still ahead), pushed as a deadline.soon unless the game moved since.  A subscription deleted (by its
-- player, or after a 404 or 410 from its push service) takes its
-- deliveries with it.
--
-- And a new event type, 'seat.taken': someone took a seat in a game the
-- player is seated in that is still waiting for others (told to the
-- players seated before, account stream, webhook and push alike).
-- SQLite changes a CHECK by rebuilding the table (foreign keys are off
-- while migrations run, driver_sqlite.c's migrate_checked); the keys,
-- and the AUTOINCREMENT counter (a key is never reused), are kept.
CREATE TABLE events_new (
	key        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT    NOT NULL UNIQUE,
	player_key INTEGER NOT NULL REFERENCES players (key),
	game_key   INTEGER NOT NULL REFERENCES games (key),
	type       TEXT    NOT NULL CHECK (type IN ('turn', 'game.started',
	           'game.finished', 'invited', 'deadline.soon', 'seat.taken')),
	data       TEXT    NOT NULL CHECK (json_valid(data)),
	created_ms INTEGER NOT NULL
) STRICT;
INSERT INTO events_new (key, id, player_key, game_key, type, data, created_ms)
	SELECT key, id, player_key, game_key, type, data, created_ms FROM events;
INSERT INTO sqlite_sequence (name, seq)
	SELECT 'events_new', seq FROM sqlite_sequence WHERE name = 'events'
	AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_new');
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence
	WHERE name = 'events') WHERE name = 'events_new'
	AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events');
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

CREATE TABLE push_deliveries (
	key         INTEGER PRIMARY KEY AUTOINCREMENT,
	event_key   INTEGER NOT NULL REFERENCES events (key),
	sub_key     INTEGER NOT NULL
	            REFERENCES push_subscriptions (key) ON DELETE CASCADE,
	dest        TEXT    NOT NULL CHECK (length(dest) BETWEEN 1 AND 300),
	state       TEXT    NOT NULL DEFAULT 'pending'
	            CHECK (state IN ('pending', 'delivered', 'failed',
	                             'skipped')),
	attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	next_ms     INTEGER NOT NULL,
	in_flight   INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1)),
	last_ms     INTEGER,
	last_status INTEGER,
	last_error  TEXT,
	kind        TEXT    NOT NULL DEFAULT '' CHECK (kind IN ('', 'clock.low')),
	UNIQUE (event_key, sub_key, kind)
) STRICT;
CREATE INDEX push_deliveries_due ON push_deliveries (next_ms)
	WHERE state = 'pending';
CREATE INDEX push_deliveries_in_flight ON push_deliveries (dest)
	WHERE in_flight = 1;
CREATE INDEX push_deliveries_by_sub ON push_deliveries (sub_key);

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
