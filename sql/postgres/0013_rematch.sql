-- 0013_rematch.sql: rematches (issue 33 goal 2; docs/matchmaking.md,
-- "Rematch").
--
-- (PostgreSQL's twin of sql/0027_rematch.sql, which explains the columns.)
ALTER TABLE games ADD COLUMN rematch_seats bigint
	CHECK (rematch_seats IS NULL OR rematch_seats > 0);
ALTER TABLE games ADD COLUMN rematch_by integer
	CHECK (rematch_by IS NULL OR rematch_by >= 0);
ALTER TABLE games ADD COLUMN rematch text
	CHECK (rematch IS NULL OR length(rematch) = 16);
ALTER TABLE games ADD COLUMN rematch_of text
	CHECK (rematch_of IS NULL OR length(rematch_of) = 16);
CREATE UNIQUE INDEX games_by_rematch_of ON games (rematch_of)
	WHERE rematch_of IS NOT NULL;

ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('turn',
	'game.started', 'game.finished', 'invited', 'deadline.soon',
	'seat.taken', 'rematch'));
