-- 0016_state_hashes.sql: upgrades never strand a game (issue 13,
-- docs/upgrades.md).
--
-- Every move is stored with a hash of the state right after it
-- (engine_state_hash, src/engine/engine.h: BLAKE2b-128 of the flat state
-- and the game's generator), made by the rules version the game is
-- played under.  After a rules version bump, a game stored under an
-- older version whose log replays to the same hashes under the new rules
-- moves to the new version (games.rules_version); one that does not goes
-- on under the rules it started with, and rules_checks records that it
-- was tried, so the log is replayed once per version, not once per load.
--
-- Moves logged before this migration have no hash (NULL): the first
-- check hashes them with the rules they were played under, when the
-- module still keeps that version, and stores those hashes as the
-- record; without that version they cannot be checked and the game is
-- not moved.
ALTER TABLE moves ADD COLUMN state_hash BLOB
	CHECK (state_hash IS NULL OR length(state_hash) = 16);

CREATE TABLE rules_checks (
	game_key      INTEGER NOT NULL REFERENCES games (key),
	rules_version INTEGER NOT NULL CHECK (rules_version >= 1), -- tried
	seq           INTEGER NOT NULL CHECK (seq >= 0), -- first move that
	                                  -- differed (0: the setup, or unknown)
	PRIMARY KEY (game_key, rules_version)
) STRICT, WITHOUT ROWID;
