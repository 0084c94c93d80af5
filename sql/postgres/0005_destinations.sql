-- 0005_destinations.sql: isolation per destination for outbound
-- deliveries (issue 34, finding 1).
--
-- (PostgreSQL's twin of sql/0019_destinations.sql.)
-- webhooks.dest: where a webhook's deliveries go, as the scheduler counts
-- them: the URL's host (lowercased, no trailing dot) and port, "host:port"
-- (src/service/webhook.c sets it at PUT).  A webhook PUT before this
-- migration is its own destination, "player:<key>", until it is PUT again.
ALTER TABLE webhooks ADD COLUMN dest text NOT NULL DEFAULT ''
	CHECK (length(dest) <= 300);
UPDATE webhooks SET dest = 'player:' || player_key;
CREATE INDEX webhooks_by_dest ON webhooks (dest);

-- The deliveries in flight, counted per destination at every claim (a
-- destination takes at most --webhook-per-destination of them at once).
CREATE INDEX deliveries_in_flight ON deliveries (player_key)
	WHERE in_flight = 1;

-- The circuit breaker: one row per destination whose last attempts
-- failed, deleted at its next success.  failures: consecutive failed
-- attempts; open_until_ms: until when none is made (unix ms; 0 while
-- fewer than the threshold failed), then one at a time (half open);
-- last_ms: the last failure, for pruning.  Not a record: deleting every
-- row is always safe (the breakers close).
CREATE TABLE destinations (
	dest          text    PRIMARY KEY,
	failures      integer NOT NULL CHECK (failures >= 1),
	open_until_ms bigint  NOT NULL,
	last_ms       bigint  NOT NULL
);

-- A delivery's error is one of a fixed set of words (openapi's
-- WebhookDelivery.error), no longer libcurl's text, which told what the
-- server's resolver knows: the errors already recorded are mapped.
UPDATE deliveries SET last_error = CASE
	WHEN lower(last_error) LIKE 'http status %' THEN 'http-status'
	WHEN lower(last_error) LIKE '%timed out%' THEN 'timeout'
	WHEN lower(last_error) LIKE '%timeout%' THEN 'timeout'
	WHEN last_error = 'webhook removed' THEN 'webhook-removed'
	WHEN last_error = 'webhook disabled' THEN 'webhook-disabled'
	WHEN last_error LIKE '%410 Gone%' THEN 'gone'
	WHEN last_error = 'out of memory' THEN 'internal'
	WHEN lower(last_error) LIKE '%ssl%' THEN 'tls'
	WHEN lower(last_error) LIKE '%tls%' THEN 'tls'
	WHEN lower(last_error) LIKE '%certificate%' THEN 'tls'
	ELSE 'connect-failed' END
WHERE last_error IS NOT NULL;
