-- 0024_admin.sql: the operator's commands and a player's own data
-- (issue 35; docs/operations.md, "Admin commands" and "A player's data").
--
-- A banned player (boardd admin ban): none of their tokens works while
-- banned_ms is set (store_player_by_token answers as for a revoked
-- token); unbanning clears it and the tokens work again.  banned_why is
-- the operator's reason.  A deleted player (DELETE /v1/players/me, boardd
-- admin delete) keeps a row only so that the finished games' seats still
-- point somewhere: its name becomes "deleted player", deleted_ms is set,
-- its tokens are revoked and everything else of theirs is gone.
ALTER TABLE players ADD COLUMN banned_ms INTEGER;
ALTER TABLE players ADD COLUMN banned_why TEXT
	CHECK (banned_why IS NULL OR length(banned_why) BETWEEN 1 AND 200);
ALTER TABLE players ADD COLUMN deleted_ms INTEGER;

-- What the operators did, for the next operator: one row per admin
-- command that changed something (action: "ban", "unban", "revoke",
-- "end-game", "delete"), with its reason.  The player or game it
-- concerned, by public id (kept as text: the row outlives a deletion).
CREATE TABLE admin_log (
	key        INTEGER PRIMARY KEY,
	action     TEXT    NOT NULL CHECK (length(action) BETWEEN 1 AND 16),
	player_id  TEXT,
	game_id    TEXT,
	reason     TEXT    CHECK (reason IS NULL OR length(reason) <= 200),
	created_ms INTEGER NOT NULL
) STRICT;

-- SQLite only: what a process other than the server (boardd admin)
-- changed in the file while the server runs.  The admin command's write
-- connection records each change of a game's row or seats, and each new
-- event of a player, here (TEMP triggers of that connection alone,
-- driver_sqlite.c); the server reads the new rows every 250 ms and drops
-- the games from its memory, as a PostgreSQL node does for another
-- node's NOTIFY (docs/read-path.md).  Rows older than an hour are
-- deleted by the next admin command.
CREATE TABLE outside_changes (
	key        INTEGER PRIMARY KEY,
	game_key   INTEGER,          -- a game's row or seats changed, or
	game_id    TEXT,
	seq        INTEGER,
	player_key INTEGER,          -- a player has a new event
	created_ms INTEGER NOT NULL
) STRICT;
