-- 0005_bots.sql: a seat may be held by a bot that the server plays.
--
-- Runs with foreign keys off, like 0002 (SQLite's documented way to
-- rebuild a table that others reference).  `bot` is the seat's bot spec as
-- the seating entry gave it, e.g. {"bot":"mcts","level":3}; a bot seat has
-- no token, no player and no invitation, and is never open.
CREATE TABLE seats_new (
	game_key   INTEGER NOT NULL REFERENCES games (key),
	seat       INTEGER NOT NULL CHECK (seat >= 0),
	token_hash BLOB    CHECK (token_hash IS NULL OR length(token_hash) = 32),
	player_key INTEGER REFERENCES players (key),
	invited    INTEGER REFERENCES players (key), -- open seat for one player
	open       INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1)),
	bot        TEXT    CHECK (bot IS NULL OR
	                          (json_valid(bot) AND length(bot) < 64)),
	PRIMARY KEY (game_key, seat),
	-- an open seat has no holder yet; a taken one has exactly one
	CHECK (open = (token_hash IS NULL AND player_key IS NULL AND
	               bot IS NULL)),
	CHECK ((token_hash IS NOT NULL) + (player_key IS NOT NULL) +
	       (bot IS NOT NULL) <= 1),
	CHECK (bot IS NULL OR invited IS NULL)
) STRICT, WITHOUT ROWID;
INSERT INTO seats_new (game_key, seat, token_hash, player_key, invited, open)
	SELECT game_key, seat, token_hash, player_key, invited, open FROM seats;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
CREATE UNIQUE INDEX seats_by_token ON seats (game_key, token_hash);
CREATE UNIQUE INDEX seats_by_player ON seats (player_key, game_key);
-- The bot worker's scan at start (store_bot_games_each) walks only the
-- seats bots hold.
CREATE INDEX seats_by_bot ON seats (game_key, seat) WHERE bot IS NOT NULL;
