-- 0031_link_codes.sql: linking another device by a short code, and
-- finding players by name (issue 31 goal 6; docs/matchmaking.md,
-- "Finding players, linking devices").
--
-- players_by_lower_name: GET /v1/players?name=PREFIX reads a range of
-- lower(name) (BINARY collation: the bytes of UTF-8 in order), so a
-- prefix search walks this index and not the table.
CREATE INDEX players_by_lower_name ON players (lower(name), key);

-- link_codes: a code a signed-in player made (POST
-- /v1/players/me/link-codes) to sign another device in as them (POST
-- /v1/link-codes/claim).  Only the SHA-256 of the code's canonical form
-- (8 Crockford base32 characters, no dash) is kept.  A code lives 10
-- minutes (expires_ms, unix ms) and is used once: claiming deletes it.
-- A player holds at most 5 live codes; expired ones are pruned when a
-- new one is made, and all go with the player's account.
CREATE TABLE link_codes (
	code_hash  BLOB    NOT NULL PRIMARY KEY CHECK (length(code_hash) = 32),
	player_key INTEGER NOT NULL REFERENCES players (key),
	expires_ms INTEGER NOT NULL,
	created_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX link_codes_by_player ON link_codes (player_key, expires_ms);
CREATE INDEX link_codes_by_expiry ON link_codes (expires_ms);
