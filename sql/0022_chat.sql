-- 0022_chat.sql: chat per game, blocks and reports (issue 33 goal 6;
-- docs/matchmaking.md, "Chat" and "Blocks and reports").
--
-- A game's messages, in two channels: 0 the players' (written by the
-- seats' holders), 1 the spectators' (written by players holding no seat).
-- n numbers each channel's messages 1, 2, ... on its own, so that one
-- channel's numbers say nothing of the other's; no message carries the
-- game's seq.  seat is the author's seat (NULL: a spectator); player_key
-- the author's player (NULL: a seat token no player holds).
CREATE TABLE chat_messages (
	key        INTEGER PRIMARY KEY,
	game_key   INTEGER NOT NULL REFERENCES games (key),
	channel    INTEGER NOT NULL CHECK (channel IN (0, 1)),
	n          INTEGER NOT NULL CHECK (n >= 1),
	seat       INTEGER CHECK (seat IS NULL OR seat >= 0),
	player_key INTEGER REFERENCES players (key),
	text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
	created_ms INTEGER NOT NULL,
	UNIQUE (game_key, channel, n)
) STRICT;

-- A player's blocks: player_key blocked blocked_key at created_ms.
CREATE TABLE blocks (
	player_key  INTEGER NOT NULL REFERENCES players (key),
	blocked_key INTEGER NOT NULL REFERENCES players (key),
	created_ms  INTEGER NOT NULL,
	PRIMARY KEY (player_key, blocked_key),
	CHECK (player_key <> blocked_key)
) STRICT, WITHOUT ROWID;

-- Who blocked a player (a join, a pairing).
CREATE INDEX blocks_by_blocked ON blocks (blocked_key, player_key);

-- Reports for the operators: reporter_key reports player_key (NULL: the
-- message's author held no player) with a reason, about a message (game,
-- channel, n, and a copy of its text, kept even if the game goes) or the
-- player alone (game_key NULL).
CREATE TABLE reports (
	key          INTEGER PRIMARY KEY,
	reporter_key INTEGER NOT NULL REFERENCES players (key),
	player_key   INTEGER REFERENCES players (key),
	game_key     INTEGER REFERENCES games (key),
	channel      INTEGER CHECK (channel IS NULL OR channel IN (0, 1)),
	n            INTEGER,
	seat         INTEGER,
	text         TEXT,
	reason       TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
	created_ms   INTEGER NOT NULL
) STRICT;
