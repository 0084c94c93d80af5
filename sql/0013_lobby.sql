-- 0013_lobby.sql: browser tickets, the lobby (cancelled games, leaving a
-- seat, invitations in a player's games) and identity (several tokens per
-- player, seat tokens attached to a player).

-- A player's bearer tokens, one per device.  Only the SHA-256 of each is
-- stored.  A revoked token keeps its row (revoked_ms set), so that using
-- it answers 401 "revoked" rather than "unknown".  Since this migration
-- players.token_hash is the hash of the player's first token as created,
-- kept for the schema and never consulted: tokens are looked up here.
CREATE TABLE player_tokens (
	key          INTEGER PRIMARY KEY,
	id           TEXT    NOT NULL UNIQUE        -- public id, 16 lowercase hex
	             CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*'),
	player_key   INTEGER NOT NULL REFERENCES players (key),
	token_hash   BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
	label        TEXT    NOT NULL CHECK (length(label) BETWEEN 1 AND 64),
	created_ms   INTEGER NOT NULL,
	last_used_ms INTEGER,                       -- NULL: never used
	revoked_ms   INTEGER                        -- NULL: valid
) STRICT;
CREATE INDEX player_tokens_by_player ON player_tokens (player_key, key);
INSERT INTO player_tokens (id, player_key, token_hash, label, created_ms)
	SELECT lower(hex(randomblob(8))), key, token_hash, 'first token',
	       created_ms FROM players;

-- Single-use tickets for one event stream (POST /v1/tickets): the SHA-256
-- of the ticket, the stream's canonical URL, and the bearer token that
-- asked for it sealed (XSalsa20-Poly1305) with a key derived from the
-- ticket itself: the database alone yields no token.  A ticket is deleted
-- when used; expired ones when the next ticket is made.
CREATE TABLE tickets (
	hash       BLOB    NOT NULL PRIMARY KEY CHECK (length(hash) = 32),
	url        TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 160),
	sealed     BLOB    NOT NULL,
	expires_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX tickets_by_expiry ON tickets (expires_ms);

-- A waiting game its creator cancelled: from then on it is as an expired
-- one (never read, listed, joined or counted; the row stays).
ALTER TABLE games ADD COLUMN cancelled_ms INTEGER;
-- Bumped whenever who holds a seat changes without a move or a join
-- (a seat left, a seat token attached to a player): cached answers that
-- name the players are keyed by it.
ALTER TABLE games ADD COLUMN seats_version INTEGER NOT NULL DEFAULT 0;

-- A player's games include the open seats reserved for them.
CREATE INDEX seats_by_invited ON seats (invited, game_key)
	WHERE invited IS NOT NULL;
-- Attaching a seat token finds its seat by the token alone.
CREATE INDEX seats_by_token_hash ON seats (token_hash)
	WHERE token_hash IS NOT NULL;
