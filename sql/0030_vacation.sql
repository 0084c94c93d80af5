-- 0030_vacation.sql: vacation, in the manner of OGS (issue 32 goal 3;
-- docs/notifications.md, "Vacation").
--
-- vacation_accounts: a player's vacation balance.  left_ms is the time
-- left to take (ms, 0 to 30 days) as of accrued_ms, the start of the
-- current accrual week: every full 7 days after accrued_ms add one day
-- (capped at 30 days) and move accrued_ms on by that many weeks.  No row
-- means the account as it was made: 0 left, accrued_ms the player's
-- created_ms, automatic vacation off.  auto: 1 when a clock that would
-- run out on the player starts a vacation instead (while days are left).
CREATE TABLE vacation_accounts (
	player_key INTEGER PRIMARY KEY REFERENCES players (key),
	left_ms    INTEGER NOT NULL CHECK (left_ms BETWEEN 0 AND 2592000000),
	accrued_ms INTEGER NOT NULL,
	auto       INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1))
) STRICT;

-- vacations: every vacation a player took, [start_ms, end_ms) in unix ms.
-- A vacation being taken has end_ms in the future (its planned end: its
-- length was taken from left_ms when it began); ending it early sets
-- end_ms to that moment and gives the rest back.  A player's vacations
-- never overlap.  The clocks read the ones that end after a pending
-- decision began (src/service/clock.c).  auto: 1 when a clock began it.
CREATE TABLE vacations (
	key        INTEGER PRIMARY KEY,
	player_key INTEGER NOT NULL REFERENCES players (key),
	start_ms   INTEGER NOT NULL,
	end_ms     INTEGER NOT NULL CHECK (end_ms >= start_ms),
	auto       INTEGER NOT NULL CHECK (auto IN (0, 1))
) STRICT;
CREATE INDEX vacations_by_player ON vacations (player_key, end_ms);
