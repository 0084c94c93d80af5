-- 0015_seeks.sql: quick match, "seeks" (issue 33 goal 1;
-- docs/matchmaking.md, "Quick match").
--
-- (PostgreSQL's twin of sql/0029_seeks.sql, which explains the columns.)
CREATE TABLE seeks (
	key        bigserial PRIMARY KEY,
	id         text      NOT NULL UNIQUE CHECK (length(id) = 16),
	player_key bigint    NOT NULL REFERENCES players (key),
	pool       text      NOT NULL,
	rules_id   text      NOT NULL,
	seats      integer   NOT NULL CHECK (seats BETWEEN 2 AND 4),
	options    text      NOT NULL,
	clock      text,
	rated      integer   NOT NULL CHECK (rated IN (0, 1)),
	rating     bigint    NOT NULL,
	rating_min bigint    NOT NULL,
	rating_max bigint    NOT NULL CHECK (rating_min <= rating_max),
	created_ms bigint    NOT NULL,
	expires_ms bigint    NOT NULL CHECK (expires_ms > created_ms),
	state      text      NOT NULL DEFAULT 'open'
	           CHECK (state IN ('open', 'matched', 'cancelled')),
	game       text      CHECK (game IS NULL OR length(game) = 16),
	ended_ms   bigint
);
CREATE INDEX seeks_open ON seeks (pool, key) WHERE state = 'open';
CREATE INDEX seeks_open_by_rules ON seeks (rules_id, key)
	WHERE state = 'open';
CREATE INDEX seeks_by_player ON seeks (player_key, key);

ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('turn',
	'game.started', 'game.finished', 'invited', 'deadline.soon',
	'seat.taken', 'rematch', 'seek.matched'));

-- A pairing is pushed (sql/0029_seeks.sql says why): the trigger of
-- sql/postgres/0012_push_deliveries.sql with one more type.
DROP TRIGGER events_push ON events;
CREATE TRIGGER events_push AFTER INSERT ON events
	FOR EACH ROW
	WHEN (NEW.type IN ('turn', 'game.finished', 'deadline.soon', 'invited',
	                   'seat.taken', 'seek.matched'))
	EXECUTE FUNCTION events_push();
