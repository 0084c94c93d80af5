-- 0025_ratings.sql: ratings, their history, unrated games (issue 33 goals
-- 3 to 5; docs/ratings.md).
--
-- games.rated: 0 for a game created with "rated": false; its end changes
-- no rating.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1
	CHECK (rated IN (0, 1));

-- One row per rated subject and rating category, written in the
-- transaction that ends a rated game.  subject: the player's public id,
-- or "bot:" and the bot seat's spec (bots are rated players);
-- player_key: the player, NULL for a bot.  system: 'glicko2' (rating,
-- deviation = RD, volatility) or 'weng-lin' (rating = mu, deviation =
-- sigma, volatility 0).  shown: what leaderboards sort by (the Glicko-2
-- rating, or mu - 3 sigma); provisional: 1 while the deviation says too
-- little (Glicko-2: RD >= 110; Weng-Lin: sigma >= 25/3 * 0.8, see
-- docs/ratings.md).  games, wins: rated games of the category; last_ms:
-- the end of the subject's last one (unix ms): leaderboards count those
-- of the last 30 days, and Glicko-2's deviation grows from it.
CREATE TABLE ratings (
	category    TEXT    NOT NULL CHECK (length(category) BETWEEN 1 AND 31),
	subject     TEXT    NOT NULL CHECK (length(subject) BETWEEN 1 AND 80),
	player_key  INTEGER REFERENCES players (key),
	system      TEXT    NOT NULL CHECK (system IN ('glicko2', 'weng-lin')),
	rating      REAL    NOT NULL,
	deviation   REAL    NOT NULL CHECK (deviation > 0),
	volatility  REAL    NOT NULL CHECK (volatility >= 0),
	shown       REAL    NOT NULL,
	bucket      INTEGER NOT NULL, -- floor(shown / width): 10 for
	                              -- glicko2, 0.25 for weng-lin
	provisional INTEGER NOT NULL CHECK (provisional IN (0, 1)),
	games       INTEGER NOT NULL CHECK (games >= 0),
	wins        INTEGER NOT NULL CHECK (wins BETWEEN 0 AND games),
	last_ms     INTEGER NOT NULL,
	PRIMARY KEY (category, subject)
) STRICT;

-- A player's ratings (their profile).
CREATE INDEX ratings_by_player ON ratings (player_key)
	WHERE player_key IS NOT NULL;
-- A leaderboard's page: the category's non-provisional rows by shown
-- rating, best first; the 30-day activity is checked on the rows read
-- (last_ms is in the index: no table lookup).
CREATE INDEX ratings_board ON ratings (category, shown DESC, subject, last_ms)
	WHERE provisional = 0;
-- A rank, within its bucket: the rows of one bucket above a rating.
CREATE INDEX ratings_bucket
	ON ratings (category, bucket, shown, subject, last_ms)
	WHERE provisional = 0;

-- How many non-provisional subjects of a category have their shown
-- rating in `bucket` and their last rated game on `day` (unix ms /
-- 86400000, UTC days): kept by the transaction that writes a rating.  A
-- rank is the sum of the buckets above over the active days plus a count
-- inside its own bucket: a few thousand rows read, however many players
-- (docs/ratings.md, "Leaderboards").
CREATE TABLE board_counts (
	category TEXT    NOT NULL,
	day      INTEGER NOT NULL,
	bucket   INTEGER NOT NULL,
	n        INTEGER NOT NULL CHECK (n >= 0),
	PRIMARY KEY (category, day, bucket)
) STRICT;

-- Each rated game's change to each of its subjects, oldest first.
CREATE TABLE rating_history (
	key              INTEGER PRIMARY KEY,
	category         TEXT    NOT NULL,
	subject          TEXT    NOT NULL,
	game_key         INTEGER NOT NULL REFERENCES games (key),
	place            INTEGER NOT NULL CHECK (place >= 1),
	rating_before    REAL    NOT NULL,
	deviation_before REAL    NOT NULL,
	rating           REAL    NOT NULL,
	deviation        REAL    NOT NULL,
	shown            REAL    NOT NULL,
	at_ms            INTEGER NOT NULL
) STRICT;
CREATE INDEX rating_history_by_subject
	ON rating_history (subject, category, key);
CREATE INDEX rating_history_by_game ON rating_history (game_key);
