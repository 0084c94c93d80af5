-- 0006_clocks.sql: turn clocks and timeouts.
--
-- games.clock is the game's clock as created, NULL for an untimed game:
-- {"move_ms":…,"bank_ms":…,"increment_ms":…,"on_timeout":"bot"|"forfeit"}
-- (milliseconds; 0 for a part not chosen).  games.clock_state is each
-- seat's clock after the last move: {"since":[…],"bank":[…]} (since: when
-- the seat's pending decision began, unix ms, 0 when it is not to act;
-- bank: the seat's remaining bank, ms); NULL until the first move, when
-- every seat has the full bank and each seat to act began at updated_ms.
-- games.deadline_ms is the earliest deadline of a seat to act (unix ms),
-- NULL when none: the scheduler's index.
ALTER TABLE games ADD COLUMN clock TEXT
	CHECK (clock IS NULL OR json_valid(clock));
ALTER TABLE games ADD COLUMN clock_state TEXT
	CHECK (clock_state IS NULL OR json_valid(clock_state));
ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
CREATE INDEX games_by_deadline ON games (deadline_ms)
	WHERE deadline_ms IS NOT NULL;

-- Why the server made a move for its seat: NULL for a move its player (or
-- its bot seat) sent, 'timeout' for one applied when the seat's deadline
-- passed.  Replay ignores it: the action is logged like any other.
ALTER TABLE moves ADD COLUMN reason TEXT
	CHECK (reason IS NULL OR reason IN ('timeout'));
