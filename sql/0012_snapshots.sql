-- 0012_snapshots.sql: game states every few moves (issue 13), so that
-- loading a game or reading its log from seq N replays at most a few moves
-- instead of the whole log.
--
-- A snapshot is a cache of what replaying moves 1..seq from the seed gives
-- (engine.h, "snapshots"), never the record: the move log stays the truth.
-- It is written in the move's own transaction when seq is a multiple of
-- SVC_SNAPSHOT_EVERY (src/service/load.h), and by a load that had to
-- replay past such a seq without finding one.  It is used only under the
-- rules version that wrote it: after a rules upgrade the game is replayed
-- and snapshotted again.  Deleting every row is always safe.
CREATE TABLE snapshots (
	game_key      INTEGER NOT NULL REFERENCES games (key),
	seq           INTEGER NOT NULL CHECK (seq >= 1),   -- moves applied
	rules_version INTEGER NOT NULL CHECK (rules_version >= 0),
	state         BLOB    NOT NULL,                    -- engine_snapshot_write
	PRIMARY KEY (game_key, seq)
) STRICT, WITHOUT ROWID;
