-- 0007_destination_use.sql: a destination's share of the delivery
-- capacity measured by its time in flight (issue 34, the review of
-- 2026-12-05: receivers answering just under the slow threshold).
--
-- (PostgreSQL's twin of sql/0021_destination_use.sql.)
-- One row per destination (store_webhook.dest) that has had an attempt:
-- busy_ms is the time its attempts held a worker, draining at 1/16 of
-- real time since at_ms (unix ms, when it was last written) and capped
-- (store_int.h's DEST_USE_*).  The claim takes first the due delivery of
-- the destination with the least of it left (src/store/store_int.h's
-- DLV_CLAIMABLE), of each webhook's first due delivery (the index below).
-- Not a record: losing rows only reorders claims.
CREATE TABLE destination_use (
	dest    text    PRIMARY KEY,
	busy_ms bigint  NOT NULL CHECK (busy_ms >= 0),
	at_ms   bigint  NOT NULL
);

-- Each webhook's first pending delivery, without walking its backlog.
CREATE INDEX deliveries_pending_by_player ON deliveries (player_key, next_ms)
	WHERE state = 'pending';
