-- 0002_players.sql: players, open seats and joining, idempotent retries.
--
-- Runs with foreign keys off (store_open turns them off around migrations
-- and runs PRAGMA foreign_key_check before turning them back on), which is
-- SQLite's documented way to rebuild a table that others reference.

-- A player: a display name and the SHA-256 of its bearer token.  A player
-- token works wherever a seat token works, for the seats the player holds.
CREATE TABLE players (
	key        INTEGER PRIMARY KEY,
	id         TEXT    NOT NULL UNIQUE        -- public id, 16 lowercase hex
	           CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*'),
	name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
	token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
	created_ms INTEGER NOT NULL
) STRICT;

-- games gains the status 'waiting' (some seat still open) and a count of
-- open seats; the rebuild keeps every key, so seats and moves still point
-- at their games.
CREATE TABLE games_new (
	key           INTEGER PRIMARY KEY,
	id            TEXT    NOT NULL UNIQUE
	              CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*'),
	rules_id      TEXT    NOT NULL CHECK (length(rules_id) BETWEEN 1 AND 31),
	rules_version INTEGER NOT NULL CHECK (rules_version >= 0),
	seats         INTEGER NOT NULL CHECK (seats >= 1),
	seed          INTEGER NOT NULL,
	options       TEXT    NOT NULL CHECK (json_valid(options)),
	setup         TEXT    CHECK (setup IS NULL OR json_valid(setup)),
	status        TEXT    NOT NULL
	              CHECK (status IN ('waiting', 'active', 'finished')),
	seq           INTEGER NOT NULL CHECK (seq >= 0),
	to_act        INTEGER NOT NULL CHECK (to_act >= 0),
	result        TEXT    CHECK (result IS NULL OR json_valid(result)),
	created_ms    INTEGER NOT NULL,
	updated_ms    INTEGER NOT NULL,
	open_seats    INTEGER NOT NULL DEFAULT 0  -- seats not yet claimed
	              CHECK (open_seats BETWEEN 0 AND seats)
) STRICT;
INSERT INTO games_new (key, id, rules_id, rules_version, seats, seed, options,
                       setup, status, seq, to_act, result, created_ms,
                       updated_ms)
	SELECT key, id, rules_id, rules_version, seats, seed, options, setup,
	       status, seq, to_act, result, created_ms, updated_ms FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_status ON games (status, key);
CREATE INDEX games_by_rules ON games (rules_id, key);

-- A seat is held by a seat token, by a player, or is open (optionally
-- reserved for one invited player) until someone joins.
CREATE TABLE seats_new (
	game_key   INTEGER NOT NULL REFERENCES games (key),
	seat       INTEGER NOT NULL CHECK (seat >= 0),
	token_hash BLOB    CHECK (token_hash IS NULL OR length(token_hash) = 32),
	player_key INTEGER REFERENCES players (key),
	invited    INTEGER REFERENCES players (key), -- open seat for one player
	open       INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1)),
	PRIMARY KEY (game_key, seat),
	-- an open seat has no holder yet; a taken one has exactly one
	CHECK (open = (token_hash IS NULL AND player_key IS NULL)),
	CHECK (token_hash IS NULL OR player_key IS NULL)
) STRICT, WITHOUT ROWID;
INSERT INTO seats_new (game_key, seat, token_hash)
	SELECT game_key, seat, token_hash FROM seats;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
CREATE UNIQUE INDEX seats_by_token ON seats (game_key, token_hash);
-- A player holds at most one seat of a game; "my games" walks this index.
CREATE UNIQUE INDEX seats_by_player ON seats (player_key, game_key);

-- Responses kept for Idempotency-Key retries.  `scope` hashes the
-- credential, method, path and key; `request` hashes what was sent, so the
-- same key with another body is refused.  The response is encrypted with a
-- key derived from the Idempotency-Key itself: the database alone does not
-- reveal the bearer tokens a create or join answered with.
CREATE TABLE idempotency (
	scope      BLOB    NOT NULL PRIMARY KEY CHECK (length(scope) = 32),
	request    BLOB    NOT NULL CHECK (length(request) = 32),
	status     INTEGER NOT NULL,
	response   BLOB    NOT NULL,
	created_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_by_age ON idempotency (created_ms);
