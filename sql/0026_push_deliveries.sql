-- 0026_push_deliveries.sql: Web Push deliveries (issue 32 goal 1).
--
-- One delivery per pushed event and subscription of its player, written
-- by the trigger below in the transaction that writes the event (as
-- events_deliver does for webhooks), so nothing pushed is lost across a
-- restart.  The pushed types: a turn (or a decision asked off turn: to
-- act, for the engine), a game ended, a deadline soon, an invitation.
-- dest: the subscription's "host:port" (push_subscriptions.dest), copied
-- so that the claim counts the attempts in flight per destination without
-- a join.  The columns after it are those of `deliveries` (0008), with a
-- fourth state: 'skipped', not pushed because the player held a live
-- stream on the game when it was due.  A subscription deleted (by its
-- player, or after a 404 or 410 from its push service) takes its
-- deliveries with it.
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
	UNIQUE (event_key, sub_key)
) STRICT;
CREATE INDEX push_deliveries_due ON push_deliveries (next_ms)
	WHERE state = 'pending';
CREATE INDEX push_deliveries_in_flight ON push_deliveries (dest)
	WHERE in_flight = 1;
CREATE INDEX push_deliveries_by_sub ON push_deliveries (sub_key);

CREATE TRIGGER events_push AFTER INSERT ON events
WHEN NEW.type IN ('turn', 'game.finished', 'deadline.soon', 'invited')
BEGIN
	INSERT INTO push_deliveries (event_key, sub_key, dest, next_ms)
	SELECT NEW.key, key, dest, NEW.created_ms
	FROM push_subscriptions WHERE player_key = NEW.player_key;
END;
