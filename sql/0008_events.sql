-- 0008_events.sql: the per-player event outbox, webhooks and their
-- deliveries (issue 11).
--
-- An event is written in the same transaction as the change that causes
-- it (a move, a join that starts a game, a create with invitations), once
-- per player concerned; seats held by a seat token alone have no player
-- and get none.  `key` orders a player's events (the account stream's
-- resume point); `id` is the event's stable public id (the webhook-id of
-- every delivery attempt).  `data` names the game and public facts only.
CREATE TABLE events (
	key        INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
	id         TEXT    NOT NULL UNIQUE,           -- "evt_" + 24 hex
	player_key INTEGER NOT NULL REFERENCES players (key),
	game_key   INTEGER NOT NULL REFERENCES games (key),
	type       TEXT    NOT NULL CHECK (type IN ('turn', 'game.started',
	           'game.finished', 'invited', 'deadline.soon')),
	data       TEXT    NOT NULL CHECK (json_valid(data)),
	created_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX events_by_player ON events (player_key, key);

-- A player's webhook: one URL and its signing secret (the raw bytes the
-- whsec_ string encodes; the server needs them to sign).
CREATE TABLE webhooks (
	player_key INTEGER PRIMARY KEY REFERENCES players (key),
	url        TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
	secret     BLOB    NOT NULL CHECK (length(secret) BETWEEN 24 AND 64),
	created_ms INTEGER NOT NULL
) STRICT;

-- One delivery per event of a player who has a webhook when the event is
-- written (the trigger below, so it is in the same transaction).  The row
-- keeps the last attempt; `next_ms` is when the next one is due (while
-- `in_flight`, the end of the attempt's lease).
CREATE TABLE deliveries (
	event_key   INTEGER PRIMARY KEY REFERENCES events (key),
	player_key  INTEGER NOT NULL REFERENCES players (key),
	state       TEXT    NOT NULL DEFAULT 'pending'
	            CHECK (state IN ('pending', 'delivered', 'failed')),
	attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	next_ms     INTEGER NOT NULL,
	in_flight   INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1)),
	last_ms     INTEGER,          -- when the last attempt ended
	last_status INTEGER,          -- its HTTP status, or NULL
	last_error  TEXT              -- why it failed, or NULL
) STRICT;
CREATE INDEX deliveries_due ON deliveries (next_ms) WHERE state = 'pending';
CREATE INDEX deliveries_by_player ON deliveries (player_key, event_key);

CREATE TRIGGER events_deliver AFTER INSERT ON events
BEGIN
	INSERT INTO deliveries (event_key, player_key, next_ms)
	SELECT NEW.key, NEW.player_key, NEW.created_ms
	FROM webhooks WHERE player_key = NEW.player_key;
END;
