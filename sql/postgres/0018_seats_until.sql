-- 0018_seats_until.sql: when a game's view next changes by itself
-- (PostgreSQL's twin of sql/0032_seats_until.sql, which explains it).
ALTER TABLE games ADD COLUMN seats_until_ms bigint;
UPDATE games SET seats_until_ms = (
	SELECT min(v.end_ms) FROM vacations v JOIN seats s ON
	s.player_key = v.player_key WHERE s.game_key = games.key AND
	v.end_ms > (extract(epoch FROM now()) * 1000)::bigint)
WHERE status = 'active' AND clock IS NOT NULL;
