-- Several boardd nodes on one database (docs/read-path.md, "Several
-- processes on one database"): every committed change of a game's row, of
-- its seats, or of a player's events is told on channel `boardd`, so that
-- each node drops what its hot game table holds of that game and wakes the
-- long-polls and streams waiting on it.  NOTIFY is delivered at COMMIT, in
-- commit order, only to sessions that LISTEN (src/store/store_pg.c's
-- listener); identical payloads of one transaction are sent once.
--
-- Payloads (space-separated decimal and the 16-hex-digit public id), the
-- node that made the change last (the session's boardd.node, set by
-- store_pg.c's pg_session; empty for a change made by another client):
--   g KEY ID SEQ NODE   game KEY (public ID) changed; its seq is now SEQ
--   p KEY NODE          player KEY has a new event (account streams)

CREATE FUNCTION boardd_node() RETURNS text
LANGUAGE sql STABLE AS $$
	SELECT coalesce(current_setting('boardd.node', true), '')
$$;

CREATE FUNCTION boardd_notify_game() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	r games%ROWTYPE;
BEGIN
	IF TG_OP = 'DELETE' THEN
		r := OLD;
	ELSE
		r := NEW;
	END IF;
	PERFORM pg_notify('boardd', 'g ' || r.key || ' ' || r.id || ' ' || r.seq
	                            || ' ' || boardd_node());
	RETURN NULL;
END $$;

CREATE TRIGGER games_notify AFTER INSERT OR UPDATE OR DELETE ON games
FOR EACH ROW EXECUTE FUNCTION boardd_notify_game();

-- A seat's holder changed (a join, a leave, a token attached to a
-- player): the same notice as a change of the game's row.
CREATE FUNCTION boardd_notify_seat() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	gk bigint;
BEGIN
	IF TG_OP = 'DELETE' THEN
		gk := OLD.game_key;
	ELSE
		gk := NEW.game_key;
	END IF;
	PERFORM pg_notify('boardd', 'g ' || g.key || ' ' || g.id || ' ' || g.seq
	                            || ' ' || boardd_node())
	FROM games g WHERE g.key = gk;
	RETURN NULL;
END $$;

CREATE TRIGGER seats_notify AFTER INSERT OR UPDATE OR DELETE ON seats
FOR EACH ROW EXECUTE FUNCTION boardd_notify_seat();

CREATE FUNCTION boardd_notify_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('boardd', 'p ' || NEW.player_key || ' ' || boardd_node());
	RETURN NULL;
END $$;

CREATE TRIGGER events_notify AFTER INSERT ON events
FOR EACH ROW EXECUTE FUNCTION boardd_notify_event();
