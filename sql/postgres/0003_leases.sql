-- Work that exactly one node does (store.h, "leases"): the bot turns and
-- clock timeouts of a game are played by the node holding its lease.  A
-- lease is taken for a while (until_ms, unix ms) and dropped when the
-- work is done; a node that dies leaves it to end, and then another node
-- takes it.  Not a record of the game: no foreign key, nothing else reads
-- it, and deleting every row is always safe (work may then be done
-- twice, of which the move log's (game, seq) key keeps one).
CREATE TABLE leases (
	game_key bigint PRIMARY KEY,
	node     text   NOT NULL,
	until_ms bigint NOT NULL
);
