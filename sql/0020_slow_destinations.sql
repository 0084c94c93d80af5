-- 0020_slow_destinations.sql: a slow receiver shares the bounded share
-- with failing ones (issue 34, the review's M1).
--
-- destinations now also holds a destination whose last attempt was
-- answered, but slowly (past the slow threshold, docs/operations.md):
-- failures 0, open_until_ms 0.  A row, whatever its failures, puts the
-- destination in the failing share (src/hooks/deliver.c); a fast answer
-- deletes it.  Not a record: dropping every row closes the breakers and
-- empties the share, always safe, so the table is made again with the
-- CHECK that allows 0.
DROP TABLE destinations;
CREATE TABLE destinations (
	dest          TEXT    PRIMARY KEY,
	failures      INTEGER NOT NULL CHECK (failures >= 0),
	open_until_ms INTEGER NOT NULL,
	last_ms       INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
