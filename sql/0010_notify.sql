-- 0010_notify.sql: webhook secrets sealed at rest, webhooks a receiver
-- disabled (410 Gone), deadline.soon once per deadline, and the outbox's
-- pruning horizon (issue 11).
--
-- Runs with foreign keys off, like 0005 (SQLite's way to rebuild a table).
--
-- webhooks.secret: with sealed = 1, the signing secret sealed with the
-- server key (store_sqlite.c's seal(): a 24-byte XChaCha20-Poly1305 nonce,
-- then the ciphertext and its 16-byte tag, the player key as associated
-- data), so the database file alone does not yield it.  Rows copied here
-- are still clear (sealed = 0): store_open seals them with the server key
-- before it serves.  disabled_ms / disabled_why: when and why deliveries
-- to it stopped (a receiver answered 410 Gone); a new PUT clears them.
-- The delivery trigger is dropped with the table it reads and made again:
-- a disabled webhook gets no new deliveries.
DROP TRIGGER events_deliver;
CREATE TABLE webhooks_new (
	player_key   INTEGER PRIMARY KEY REFERENCES players (key),
	url          TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
	secret       BLOB    NOT NULL CHECK (length(secret) BETWEEN 24 AND 128),
	sealed       INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
	created_ms   INTEGER NOT NULL,
	disabled_ms  INTEGER,
	disabled_why TEXT    CHECK (disabled_why IS NULL OR
	                            length(disabled_why) <= 200)
) STRICT;
INSERT INTO webhooks_new (player_key, url, secret, sealed, created_ms)
	SELECT player_key, url, secret, 0, created_ms FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_new RENAME TO webhooks;
CREATE TRIGGER events_deliver AFTER INSERT ON events
BEGIN
	INSERT INTO deliveries (event_key, player_key, next_ms)
	SELECT NEW.key, NEW.player_key, NEW.created_ms
	FROM webhooks WHERE player_key = NEW.player_key
	AND disabled_ms IS NULL;
END;

-- games.soon_ms: when the scheduler next looks at the game to send a
-- deadline.soon (unix ms), NULL when there is nothing to warn of; set
-- with deadline_ms, cleared once every seat to act was warned.
ALTER TABLE games ADD COLUMN soon_ms INTEGER;
CREATE INDEX games_by_soon ON games (soon_ms) WHERE soon_ms IS NOT NULL;

-- One row per deadline a deadline.soon was sent for (or skipped: a seat
-- token holds the seat), so that none is sent twice, across restarts.
CREATE TABLE deadline_warnings (
	game_key    INTEGER NOT NULL REFERENCES games (key),
	seat        INTEGER NOT NULL CHECK (seat >= 0),
	deadline_ms INTEGER NOT NULL,
	PRIMARY KEY (game_key, seat, deadline_ms)
) STRICT, WITHOUT ROWID;

-- The outbox is pruned (store_events_prune): for each player, the key of
-- the newest event of theirs that was deleted.  The account stream
-- resumed from an older key says that events are missing.
CREATE TABLE event_horizons (
	player_key INTEGER PRIMARY KEY REFERENCES players (key),
	pruned_key INTEGER NOT NULL
) STRICT;
CREATE INDEX events_by_age ON events (created_ms);
