-- 0014_records.sql: verifiable shuffles and imported records (issue 12;
-- docs/shuffles.md, docs/records.md).
--
-- seed_format 1: the game's generator is seeded from the 64-bit `seed`
-- (splitmix64), as every game stored before this migration; secret and
-- salt are NULL.  seed_format 2: from the 256-bit `secret` (SHA-256); the
-- game published SHA-256(secret || salt) at creation and reveals both at
-- its end; `seed` is 0 and unused.
ALTER TABLE games ADD COLUMN seed_format INTEGER NOT NULL DEFAULT 1
	CHECK (seed_format IN (1, 2));
ALTER TABLE games ADD COLUMN secret BLOB
	CHECK (secret IS NULL OR length(secret) = 32);
ALTER TABLE games ADD COLUMN salt BLOB
	CHECK (salt IS NULL OR length(salt) = 32);
-- 1: a finished game imported from a record (POST /v1/games with
-- "record"): read-only, its moves and times as the record gave them.
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0
	CHECK (imported IN (0, 1));
