-- 0017_listing.sql: GET /v1/games?status=S&game=G walks one index in key
-- order for both filters at once (issue 13: a database of 1,000,000
-- games).  Before it, the listing walked games_by_rules and tested each
-- row's status, so a rare status of a common game (waiting Agent Avenue
-- games among a million finished ones) read many rows for each one
-- listed.  status changes once or twice in a game's life, rules_id and
-- key never: the index costs a move nothing.
CREATE INDEX games_by_status_rules ON games (status, rules_id, key);
