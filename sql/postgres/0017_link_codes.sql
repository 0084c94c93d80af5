-- 0017_link_codes.sql: linking another device by a short code, and
-- finding players by name (issue 31 goal 6).
--
-- (PostgreSQL's twin of sql/0031_link_codes.sql, which explains the
-- columns.)  The name index is in the "C" collation: a prefix search
-- reads lower(name) COLLATE "C" between the prefix and the prefix
-- followed by U+10FFFF, a byte range this index serves whatever the
-- database's own collation.
CREATE INDEX players_by_lower_name ON players ((lower(name)) COLLATE "C", key);

CREATE TABLE link_codes (
	code_hash  bytea   NOT NULL PRIMARY KEY CHECK (length(code_hash) = 32),
	player_key bigint  NOT NULL REFERENCES players (key),
	expires_ms bigint  NOT NULL,
	created_ms bigint  NOT NULL
);
CREATE INDEX link_codes_by_player ON link_codes (player_key, expires_ms);
CREATE INDEX link_codes_by_expiry ON link_codes (expires_ms);
