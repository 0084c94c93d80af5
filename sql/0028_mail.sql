-- 0028_mail.sql: email over SMTP (issue 32 goal 2).
--
-- mail_addresses: a player's one address.  confirmed_ms NULL until the
-- player sends back the single-use code mailed to it: code_hash is
-- BLAKE2b-256 (libsodium's crypto_generichash) of the code and the
-- address, code_expires_ms when it stops counting, code_tries the wrong
-- guesses at it (5 end it).  A confirmed code is cleared: a replay finds
-- none.  lang: the language mails are written in; mode: 'event' (one
-- mail per mailed event), 'digest' (once a day at digest_hour in the
-- IANA zone tz), 'none'.  unsub_token: the random token of the RFC 8058
-- one-click unsubscribe URL (no login); digest_due_ms: when the next
-- digest is due (unix ms; 0: none planned).
CREATE TABLE mail_addresses (
	player_key      INTEGER PRIMARY KEY REFERENCES players (key),
	address         TEXT    NOT NULL CHECK (length(address) BETWEEN 3 AND 254),
	lang            TEXT    NOT NULL CHECK (lang IN ('en', 'fr')),
	confirmed_ms    INTEGER,
	code_hash       BLOB    CHECK (code_hash IS NULL OR length(code_hash) = 32),
	code_expires_ms INTEGER NOT NULL DEFAULT 0,
	code_tries      INTEGER NOT NULL DEFAULT 0,
	mode            TEXT    NOT NULL DEFAULT 'event'
	                CHECK (mode IN ('event', 'digest', 'none')),
	digest_hour     INTEGER NOT NULL DEFAULT 8
	                CHECK (digest_hour BETWEEN 0 AND 23),
	tz              TEXT    NOT NULL DEFAULT 'UTC'
	                CHECK (length(tz) BETWEEN 1 AND 64),
	digest_due_ms   INTEGER NOT NULL DEFAULT 0,
	unsub_token     TEXT    NOT NULL UNIQUE,
	created_ms      INTEGER NOT NULL
) STRICT;

-- Every confirmation code mailed (the rate limits: one per address a
-- day, whoever asks, and a few per player an hour).  address is kept
-- lower-cased.
CREATE TABLE mail_codes_sent (
	key        INTEGER PRIMARY KEY AUTOINCREMENT,
	address    TEXT    NOT NULL,
	player_key INTEGER NOT NULL REFERENCES players (key),
	sent_ms    INTEGER NOT NULL
) STRICT;
CREATE INDEX mail_codes_by_address ON mail_codes_sent (address, sent_ms);
CREATE INDEX mail_codes_by_player ON mail_codes_sent (player_key, sent_ms);

-- The mail outbox: one row per mail to send, written in the transaction
-- that writes its cause (an event, by the trigger below; a confirmation
-- code; a digest), so nothing is lost across a restart.  kind 'event'
-- names its event; 'confirm' carries the code in the clear until it is
-- sent (code, wiped then); 'digest' lists the games waiting.  dest is
-- 'smtp' (the SMTP server is one destination for the scheduler's rules
-- per destination); the other columns are push_deliveries' (0026).
CREATE TABLE mail_deliveries (
	key         INTEGER PRIMARY KEY AUTOINCREMENT,
	player_key  INTEGER NOT NULL REFERENCES players (key),
	event_key   INTEGER REFERENCES events (key),
	kind        TEXT    NOT NULL CHECK (kind IN ('event', 'confirm',
	                                             'digest')),
	address     TEXT    NOT NULL,
	code        TEXT,
	dest        TEXT    NOT NULL DEFAULT 'smtp',
	state       TEXT    NOT NULL DEFAULT 'pending'
	            CHECK (state IN ('pending', 'delivered', 'failed',
	                             'skipped')),
	attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	next_ms     INTEGER NOT NULL,
	in_flight   INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1)),
	created_ms  INTEGER NOT NULL,
	last_ms     INTEGER,
	last_error  TEXT
) STRICT;
CREATE INDEX mail_deliveries_due ON mail_deliveries (next_ms)
	WHERE state = 'pending';
CREATE INDEX mail_deliveries_by_player ON mail_deliveries (player_key);
CREATE INDEX mail_deliveries_by_event ON mail_deliveries (event_key);

CREATE TRIGGER events_mail AFTER INSERT ON events
WHEN NEW.type IN ('turn', 'game.finished', 'invited', 'seat.taken')
BEGIN
	INSERT INTO mail_deliveries (player_key, event_key, kind, address,
	                             next_ms, created_ms)
	SELECT NEW.player_key, NEW.key, 'event', address, NEW.created_ms,
	       NEW.created_ms
	FROM mail_addresses WHERE player_key = NEW.player_key
	AND confirmed_ms IS NOT NULL AND mode = 'event';
END;
