-- 0023_push.sql: players' Web Push subscriptions (issue 32 goal 1).
--
-- One row per PushSubscription a player's browser gave
-- (POST /v1/players/me/push-subscriptions): the push service's endpoint
-- URL, the browser's P-256 key (p256dh, the 65-byte uncompressed point)
-- and its 16-byte auth secret (RFC 8291), which the server needs in the
-- clear to encrypt each message.  At most 5 per player (store.h's
-- STORE_PUSH_SUBS_MAX, checked in the adding transaction); one per
-- endpoint and player (a browser subscribing again replaces its row).
-- dest: the endpoint's "host:port", as webhooks.dest, for the
-- per-destination scheduler.  lang: the language pushed messages are
-- written in; clock_low_s: warn when the player's clock has this many
-- seconds left (0: only the server's deadline.soon); expires_ms: the
-- browser's expirationTime (unix ms), 0 when it gave none.
CREATE TABLE push_subscriptions (
	key         INTEGER PRIMARY KEY AUTOINCREMENT,
	id          TEXT    NOT NULL UNIQUE,
	player_key  INTEGER NOT NULL REFERENCES players (key),
	endpoint    TEXT    NOT NULL CHECK (length(endpoint) BETWEEN 1 AND 2048),
	p256dh      BLOB    NOT NULL CHECK (length(p256dh) = 65),
	auth        BLOB    NOT NULL CHECK (length(auth) = 16),
	dest        TEXT    NOT NULL CHECK (length(dest) BETWEEN 1 AND 300),
	lang        TEXT    NOT NULL CHECK (lang IN ('en', 'fr')),
	clock_low_s INTEGER NOT NULL CHECK (clock_low_s >= 0),
	expires_ms  INTEGER NOT NULL,
	created_ms  INTEGER NOT NULL,
	UNIQUE (player_key, endpoint)
) STRICT;
