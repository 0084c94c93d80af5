-- 0015_move_reasons.sql: every move the server makes for a seat says so.
--
-- moves.reason (0006) gains two values: 'bot' for a move a bot seat's bot
-- chose, 'resigned' for a decision of a resigned seat, which the server
-- takes with a uniformly random legal action and logs as a move of its own
-- (games stored under rules versions from struct rules'
-- logs_resigned_from on; older games had those decisions played inside
-- the engine at every replay, and their logs still hold none).  NULL is
-- still a move its seat's holder sent, 'timeout' one applied when the
-- seat's deadline passed.  Replay ignores the reason: the action is logged
-- like any other.  Moves logged before this migration keep theirs (a bot's
-- older moves stay NULL).
--
-- SQLite cannot change a CHECK in place: the table is rebuilt with the
-- same rows (no index, trigger or view names it; snapshots and seats do
-- not reference it).
CREATE TABLE moves_new (
	game_key   INTEGER NOT NULL REFERENCES games (key),
	seq        INTEGER NOT NULL CHECK (seq >= 1),    -- 1 .. games.seq
	seat       INTEGER NOT NULL,                     -- who moved
	action     TEXT    NOT NULL CHECK (json_valid(action)),
	created_ms INTEGER NOT NULL,                     -- unix time, ms
	reason     TEXT
	           CHECK (reason IS NULL OR
	                  reason IN ('timeout', 'bot', 'resigned')),
	PRIMARY KEY (game_key, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO moves_new (game_key, seq, seat, action, created_ms, reason)
	SELECT game_key, seq, seat, action, created_ms, reason FROM moves;
DROP TABLE moves;
ALTER TABLE moves_new RENAME TO moves;
