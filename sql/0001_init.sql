-- 0001_init.sql: the first schema: games, their seats and their move logs.
--
-- Applied once, inside store_open's BEGIN IMMEDIATE transaction, which then
-- sets PRAGMA user_version (this file must not).  Every table is STRICT so
-- a wrongly typed value is an error instead of a silent conversion, and
-- every JSON column is checked with json_valid so the log replays.
-- Games are never deleted, so the rowid `key` only grows and is a stable
-- newest-first list cursor.

-- One row per game.  `seq` is the number of moves in its log (the log is
-- dense: moves 1..seq exist) and is the optimistic-concurrency version that
-- store_move_append checks.
CREATE TABLE games (
	key           INTEGER PRIMARY KEY,          -- internal id, list cursor
	id            TEXT    NOT NULL UNIQUE       -- public id, 16 lowercase hex
	              CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*'),
	rules_id      TEXT    NOT NULL              -- e.g. 'agent-avenue'
	              CHECK (length(rules_id) BETWEEN 1 AND 31),
	rules_version INTEGER NOT NULL CHECK (rules_version >= 0),
	seats         INTEGER NOT NULL CHECK (seats >= 1),
	seed          INTEGER NOT NULL,             -- uint64 as int64 bit pattern
	options       TEXT    NOT NULL CHECK (json_valid(options)),
	setup         TEXT                          -- NULL: the default setup
	              CHECK (setup IS NULL OR json_valid(setup)),
	status        TEXT    NOT NULL CHECK (status IN ('active', 'finished')),
	seq           INTEGER NOT NULL CHECK (seq >= 0),
	to_act        INTEGER NOT NULL CHECK (to_act >= 0), -- bit set of seats
	result        TEXT                          -- NULL while the game runs
	              CHECK (result IS NULL OR json_valid(result)),
	created_ms    INTEGER NOT NULL,             -- unix time, milliseconds
	updated_ms    INTEGER NOT NULL              -- last move (or creation)
) STRICT;

-- Listing is newest first (key descending) with optional filters on status
-- and rules_id.  An index on (column, key) serves "WHERE column = ? AND key
-- < ? ORDER BY key DESC LIMIT ?" without a sort; with both filters the
-- planner walks one of them and tests the other column.
CREATE INDEX games_by_status ON games (status, key);
CREATE INDEX games_by_rules ON games (rules_id, key);

-- The seats of each game: only the SHA-256 of each bearer token is kept.
CREATE TABLE seats (
	game_key   INTEGER NOT NULL REFERENCES games (key),
	seat       INTEGER NOT NULL CHECK (seat >= 0),   -- 0 .. games.seats-1
	token_hash BLOB    NOT NULL CHECK (length(token_hash) = 32),
	PRIMARY KEY (game_key, seat)
) STRICT, WITHOUT ROWID;

-- store_seat_for_token looks a seat up by (game_key, token_hash).  Unique
-- because a token identifies exactly one seat of its game.
CREATE UNIQUE INDEX seats_by_token ON seats (game_key, token_hash);

-- The move log.  The primary key (game_key, seq) is the backstop against
-- two moves with one seq; WITHOUT ROWID stores the rows in that order, so
-- replaying a game is one range scan.
CREATE TABLE moves (
	game_key   INTEGER NOT NULL REFERENCES games (key),
	seq        INTEGER NOT NULL CHECK (seq >= 1),    -- 1 .. games.seq
	seat       INTEGER NOT NULL,                     -- who moved
	action     TEXT    NOT NULL CHECK (json_valid(action)),
	created_ms INTEGER NOT NULL,                     -- unix time, ms
	PRIMARY KEY (game_key, seq)
) STRICT, WITHOUT ROWID;
