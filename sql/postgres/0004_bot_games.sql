-- sql/0018_bot_games.sql's index: a player's active games, for the cap
-- on games of bots only (--bot-games-per-player).
CREATE INDEX games_active_by_player ON games (creator_player)
	WHERE status = 'active' AND creator_player IS NOT NULL;
