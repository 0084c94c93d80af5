-- 0003_limits.sql: who created each game, for the caps on open waiting
-- games (store_config's waiting_per_player and waiting_per_addr).
--
-- A game created before this migration has no creator and counts for no
-- cap.  A waiting game nobody touched (created, or a seat taken) for
-- waiting_expire_ms is treated as removed: it is no longer read, listed,
-- joined or counted (the row stays, so no game key is ever reused).

ALTER TABLE games ADD COLUMN creator_player INTEGER REFERENCES players (key);
-- The client address that created it: an IPv4 address, an IPv6 /64
-- ("2001:db8:1:2::/64"), or 'local'; NULL when unknown.
ALTER TABLE games ADD COLUMN creator_addr TEXT
	CHECK (creator_addr IS NULL OR length(creator_addr) BETWEEN 1 AND 48);

-- The caps count a creator's waiting games inside the creating
-- transaction; these partial indexes hold waiting games only.
CREATE INDEX games_waiting_by_player ON games (creator_player, updated_ms)
	WHERE status = 'waiting';
CREATE INDEX games_waiting_by_addr ON games (creator_addr, updated_ms)
	WHERE status = 'waiting';
