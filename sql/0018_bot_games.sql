-- 0018_bot_games.sql: games of bots only need a player and count against
-- that player's --bot-games-per-player (issue 34, finding 4).  From now on
-- every game records its creator (creator_player, creator_addr; before,
-- only games created with an open seat did), the bot workers share their
-- time by it, and the cap counts a player's active games whose every
-- seat is a bot's inside the creating transaction: this partial index
-- holds the active games that have a creating player.  A game's status
-- changes once or twice in its life: the index costs a move nothing.
CREATE INDEX games_active_by_player ON games (creator_player)
	WHERE status = 'active' AND creator_player IS NOT NULL;
