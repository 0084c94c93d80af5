-- 0032_seats_until.sql: when a game's view next changes by itself (issue
-- 32; docs/notifications.md, "Vacation").
--
-- games.seats_until_ms: the earliest planned end (unix ms) of a vacation
-- that one of the game's players is taking, as it stood when the game's
-- seats_version was last bumped for a vacation; NULL: none.  A view shows
-- each seat's vacation while it lasts, and is cached under seats_version
-- (the ETag "<seq>-s<n>"): a vacation that runs out writes nothing, so
-- the first read at or after seats_until_ms bumps seats_version and sets
-- the next end (store_game_seats_expire), and no view or 304 outlives
-- the vacation it shows.
ALTER TABLE games ADD COLUMN seats_until_ms INTEGER;
UPDATE games SET seats_until_ms = (
	SELECT min(v.end_ms) FROM vacations v JOIN seats s ON
	s.player_key = v.player_key WHERE s.game_key = games.key AND
	v.end_ms > CAST(strftime('%s', 'now') AS INTEGER) * 1000)
WHERE status = 'active' AND clock IS NOT NULL;
