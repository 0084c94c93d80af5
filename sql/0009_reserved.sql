-- 0009_reserved.sql: a placeholder for the lobby branch's 0009 (migrations
-- must be dense, and notify's 0010 landed first).  It changes nothing.
-- Lobby: when your 0009_lobby.sql lands, delete this file in the same
-- merge (only test databases ever ran it).
SELECT 1;
