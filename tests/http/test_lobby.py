"""test_lobby.py: browser tickets for event streams, the lobby
(invitations in a player's games, invite-only games unlisted, cancelling a
waiting game, leaving a seat, lobby listings with names, options and a finished game's result, the
two join refusals), and identity (several tokens per player, listing and
revoking them, attaching a seat token to a player), each with its
refusals, which change nothing in the database.  Real binary, real SQLite
file.  Usage: test_lobby.py BOARDD [test names...]"""
import os
import subprocess
import time

from harness import SLOW, START_SECONDS, WRAP, Server, check, run_all, test
from gamehelp import AA, game, read_stream, server
from webhookhelp import account_events


def new_player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def trio(s):
    """Alice, Bob and Carol: (id, token) each."""
    return [new_player(s, name) for name in ("Alice", "Bob", "Carol")]


def create(s, token, seating, game_id=AA, status=201, **extra):
    body = {"game": game_id, "seats": len(seating), "seating": seating}
    body.update(extra)
    r = s.request("POST", "/v1/games", body, token=token)
    check(r.status == status, "create: %r" % r)
    return r.json


def ticket(s, token, url, status=201):
    r = s.request("POST", "/v1/tickets", {"url": url}, token=token)
    check(r.status == status, "ticket for %s: %r" % (url, r))
    return r.json.get("ticket") if status == 201 else r


def rows(s, sql):
    """What the database holds (read beside the server: WAL readers)."""
    return s.query(sql)


def dump(s):
    """The tables a lobby or identity refusal must leave as they were
    (last_used_ms aside: it is bookkeeping of accepted tokens)."""
    return [rows(s, "SELECT * FROM games ORDER BY key"),
            rows(s, "SELECT * FROM seats ORDER BY game_key, seat"),
            rows(s, "SELECT key, id, player_key, token_hash, label, created_ms, revoked_ms "
                    "FROM player_tokens ORDER BY key"),
            rows(s, "SELECT * FROM tickets ORDER BY hash"),
            rows(s, "SELECT key, id, type FROM events ORDER BY key")]


def stream(s, path, token=None, headers=None, want=1):
    h = {"Accept": "application/x-ndjson"}
    h.update(headers or {})
    return read_stream(s.port, path, token, h, want, timeout=10 * SLOW)


def with_ticket(url, t):
    return url + ("&" if "?" in url else "?") + "ticket=" + t


# ---- tickets ----

@test
def a_ticket_opens_its_stream_once(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        create(s, bt, ["me", {"invite": alice}])
        url = "/v1/players/me/events?after=0"
        r = s.request("POST", "/v1/tickets", {"url": url}, token=at)
        check(r.status == 201 and r.json["url"] == url and r.json["expires_in"] == 60,
              "a ticket: %r" % r)
        check(at not in r.raw.decode(), "the answer does not repeat the token")
        t = r.json["ticket"]
        check(rows(s, "SELECT count(*) FROM tickets") == [(1,)], "one ticket kept")
        raw = b"".join(x for row in rows(s, "SELECT hash, url, sealed FROM tickets")
                       for x in (row[0], row[1].encode(), row[2]))
        check(t.encode() not in raw and at.encode() not in raw,
              "neither the ticket nor the token is stored in clear")
        st, _, body = stream(s, with_ticket(url, t))
        check(st == 200 and b'"invited"' in body, "the stream, as Alice: %d %r" % (st, body[:200]))
        check(rows(s, "SELECT count(*) FROM tickets") == [(0,)], "the ticket is spent")
        st, _, body = stream(s, with_ticket(url, t))
        check(st == 401 and b"used already" in body, "a second use is 401: %d %r" % (st, body[:200]))
        # A game's stream, for a seat token: the seat's view.
        g = create(s, None, ["token", "token"])
        gurl = "/v1/games/%s/events" % g["id"]
        t = ticket(s, g["seats"][0]["token"], gurl)
        st, _, body = stream(s, with_ticket(gurl, t))
        check(st == 200 and b'"state"' in body, "the game's stream: %d %r" % (st, body[:200]))
        # With Authorization the ticket is not looked at (nor spent).
        t = ticket(s, at, url)
        st, _, _ = stream(s, with_ticket(url, t), token=bt, want=0)
        check(st == 200, "Bob's own stream")
        check(rows(s, "SELECT count(*) FROM tickets") == [(1,)], "the ticket is left unspent")
        st, _, _ = stream(s, with_ticket(url, t))
        check(st == 200, "and still works")


@test
def a_ticket_grants_nothing_but_its_url(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        g = create(s, at, ["me", "token"])
        gurl = "/v1/games/%s/events" % g["id"]
        url = "/v1/players/me/events?after=0"
        t = ticket(s, at, url)
        before = dump(s)
        for other in ("/v1/players/me/events", "/v1/players/me/events?after=1", gurl):
            st, _, body = stream(s, with_ticket(other, t))
            check(st == 401 and b"another stream" in body, "%s: 401: %d %r" % (other, st, body[:200]))
        r = s.request("GET", "/v1/players/me?ticket=" + t)
        check(r.status == 401, "not a token elsewhere: %r" % r)
        r = s.request("GET", "/v1/games/%s/actions?ticket=%s" % (g["id"], t))
        check(r.status == 401, "nor for a game's actions: %r" % r)
        r = s.request("HEAD", with_ticket(url, t), validate=False)
        check(r.status == 401, "a HEAD does not spend it: %r" % r)
        check(dump(s) == before, "refusals change nothing")
        st, _, _ = stream(s, with_ticket(url, t))
        check(st == 200, "the ticket still opens its own URL")
        # after=007 is after=7 in canonical form
        r = s.request("POST", "/v1/tickets", {"url": "/v1/players/me/events?after=007"}, token=at)
        check(r.status == 201 and r.json["url"] == "/v1/players/me/events?after=7", "canonical: %r" % r)
        st, _, _ = stream(s, with_ticket("/v1/players/me/events?after=7", r.json["ticket"]), want=0)
        check(st == 200, "used as given back")


@test
def ticket_refusals(binary):
    with server(binary, extra=["--ticket-seconds", "1"]) as s:
        alice, at = new_player(s, "Alice")
        g = create(s, None, ["token", "token"])
        h = create(s, None, ["token", "token"])
        url = "/v1/players/me/events"
        before = dump(s)
        r = s.request("POST", "/v1/tickets", {"url": url})
        check(r.status == 401, "no token: %r" % r)
        for bad in ("/v1/games", "/v1/players/me", "/v1/players/me/events?wait=3",
                    "/v1/players/me/events?after=x", "http://x/v1/players/me/events",
                    "/v1/games/ZZZZ/events", "/v1/games/%s/moves" % g["id"]):
            r = s.request("POST", "/v1/tickets", {"url": bad}, token=at)
            check(r.status == 400, "%s: 400: %r" % (bad, r))
        r = s.request("POST", "/v1/tickets", {"url": url, "x": 1}, token=at)
        check(r.status == 400, "an unknown field: %r" % r)
        ticket(s, g["seats"][0]["token"], url, status=403)       # a seat token has no account
        ticket(s, "A" * 43, url, status=403)                      # no such token
        ticket(s, h["seats"][0]["token"], "/v1/games/%s/events" % g["id"], status=403)
        ticket(s, at, "/v1/games/0123456789abcdef/events", status=404)
        check(dump(s) == before, "refused tickets store nothing")
        t = ticket(s, at, url)
        time.sleep(1.2)  # the ticket lasts 1 s (--ticket-seconds): let it pass
        before = dump(s)
        st, _, body = stream(s, with_ticket(url, t))
        check(st == 401 and b"expired" in body, "expired: %d %r" % (st, body[:200]))
        check(dump(s) == before, "an expired ticket is refused without a change")
        st, _, body = stream(s, with_ticket(url, "nonsense"))
        check(st == 401 and b"unknown" in body, "unknown: %d %r" % (st, body[:200]))
        ticket(s, at, url)
        check(rows(s, "SELECT count(*) FROM tickets") == [(1,)], "a new ticket prunes the expired one")


@test
def a_ticket_of_a_revoked_token_is_refused(binary):
    with server(binary) as s:
        _, at = new_player(s, "Alice")
        phone = s.request("POST", "/v1/players/me/tokens", {"label": "phone"}, token=at).json
        url = "/v1/players/me/events"
        t = ticket(s, phone["token"], url)
        r = s.request("DELETE", "/v1/players/me/tokens/" + phone["id"], token=at)
        check(r.status == 204, "revoked: %r" % r)
        st, _, body = stream(s, with_ticket(url, t))
        check(st == 401 and b"revoked" in body, "the stream checks the token again: %d %r" % (st, body[:200]))


@test
def the_access_log_shows_no_query(binary):
    """The access log prints the path only: no ticket (nor after=) in it."""
    d = Server(binary)  # only for its directory and database
    d.stop()
    log = os.path.join(d.dir, "access.log")
    with open(log, "wb") as f:
        p = subprocess.Popen(WRAP + [binary, "--addr", "127.0.0.1", "--port", "0"] +
                             d.store_args(sync="normal") + ["--rate-limit", "off"], stderr=f)
    try:
        port = None
        # the harness's bound for a start (10 s, as here, has been
        # exceeded by servers starting beside other suites)
        deadline = time.time() + START_SECONDS * SLOW
        while port is None and time.time() < deadline:
            text = open(log).read()
            if "listening on http://127.0.0.1:" in text:
                port = int(text.split("listening on http://127.0.0.1:")[1].split()[0].strip("/"))
            else:
                time.sleep(0.02)
        check(port, "the server started")
        d.port = port
        _, at = new_player(d, "Alice")
        t = ticket(d, at, "/v1/players/me/events?after=0")
        st, _, _ = read_stream(port, "/v1/players/me/events?after=0&ticket=" + t, None,
                               {"Accept": "application/x-ndjson"}, 0)
        check(st == 200, "the stream opened")
        d.request("GET", "/v1/players/me/games?ticket=" + t)
        # Both lines: libmicrohttpd reports a request completed after the
        # client has its answer, so either may come after the client ends.
        deadline = time.time() + 30 * SLOW
        while not ("GET /v1/players/me/games" in open(log).read() and
                   "GET /v1/players/me/events" in open(log).read()) and time.time() < deadline:
            time.sleep(0.02)
        text = open(log).read()
        check("GET /v1/players/me/games" in text and "GET /v1/players/me/events" in text,
              "requests are logged: %r" % text[-300:])
        check(t not in text and "ticket=" not in text and at not in text,
              "no ticket or token in the log: %r" % text[-500:])
    finally:
        p.terminate()
        p.wait()
        d.cleanup()


# ---- the lobby ----

@test
def an_invitation_shows_in_the_invitees_games(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = create(s, at, ["me", {"invite": bob}], options={})["id"]
        mine = s.request("GET", "/v1/players/me/games", token=bt).json["games"]
        check(len(mine) == 1 and mine[0]["id"] == gid and mine[0]["invitation"] is True and
              mine[0]["seat"] == 1 and mine[0]["my_turn"] is False and mine[0]["status"] == "waiting",
              "Bob sees his invitation: %r" % mine)
        check([p["player"] and p["player"]["name"] for p in mine[0]["players"]] == ["Alice", None] and
              mine[0]["players"][1]["invited"] == bob and mine[0]["options"] == {},
              "with who invited him and the options: %r" % mine[0])
        r = s.request("GET", "/v1/players/me/games?status=waiting", token=bt)
        check([g["id"] for g in r.json["games"]] == [gid], "under status=waiting")
        r = s.request("GET", "/v1/players/me/games?my_turn=true", token=bt)
        check(r.json["games"] == [], "an invitation is nobody's turn")
        a = s.request("GET", "/v1/players/me/games", token=at).json["games"]
        check(a[0]["invitation"] is False and a[0]["seat"] == 0, "Alice holds her seat: %r" % a)
        evs = account_events(s, bt, 0)[0]
        check([e["type"] for e in evs] == ["invited"] and evs[0]["data"]["game_id"] == gid and
              evs[0]["data"]["seat"] == 1, "the invited event: %r" % evs)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 200, "Bob joins: %r" % r)
        mine = s.request("GET", "/v1/players/me/games", token=bt).json["games"]
        check(len(mine) == 1 and mine[0]["invitation"] is False and mine[0]["status"] == "active",
              "now his seat: %r" % mine)


@test
def a_finished_game_is_listed_with_its_result(binary):
    """Lobby listings carry a finished game's result (winners and reason,
    as the game's own) and null while it waits or runs."""
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = create(s, at, ["me", {"invite": bob}], options={})["id"]
        check(s.request("GET", "/v1/players/me/games", token=at).json["games"][0]["result"] is None,
              "null while waiting")
        check(s.request("POST", "/v1/games/%s/join" % gid, token=bt).status == 200, "Bob joins")
        check(s.request("GET", "/v1/players/me/games", token=bt).json["games"][0]["result"] is None,
              "null while active")
        check(s.request("POST", "/v1/games/%s/resign" % gid, token=bt).status == 201, "Bob resigns")
        want = s.request("GET", "/v1/games/" + gid, token=at).json["result"]
        check(want == {"winners": [0], "reason": "resignation"}, "Alice won: %r" % want)
        for tok in (at, bt):
            g = s.request("GET", "/v1/players/me/games?status=finished", token=tok).json["games"]
            check([x["id"] for x in g] == [gid] and g[0]["result"] == want,
                  "each player's games give the result: %r" % g)
        g = s.request("GET", "/v1/games?status=finished").json["games"]
        check([x["id"] for x in g] == [gid] and g[0]["result"] == want, "so does the public listing: %r" % g)


@test
def invite_only_games_are_not_listed_as_open(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        private = create(s, at, ["me", {"invite": bob}])["id"]
        public = create(s, at, ["me", "open"], options={})["id"]
        listed = s.request("GET", "/v1/games?status=waiting").json["games"]
        check([g["id"] for g in listed] == [public], "only the joinable game: %r" % listed)
        check(listed[0]["players"] == [
            {"seat": 0, "open": False, "player": {"id": alice, "name": "Alice"}, "invited": None, "bot": None},
            {"seat": 1, "open": True, "player": None, "invited": None, "bot": None}] and
            listed[0]["options"] == {}, "a lobby entry names the players: %r" % listed[0])
        check(private not in [g["id"] for g in s.request("GET", "/v1/games").json["games"]],
              "nor in the unfiltered listing")
        check(game(s, private)["status"] == "waiting", "the game itself is there")
        bots = create(s, None, ["token", {"bot": "random"}])
        entry = [g for g in s.request("GET", "/v1/games").json["games"] if g["id"] == bots["id"]][0]
        check(entry["players"][1]["bot"] == {"bot": "random"} and entry["players"][0]["player"] is None,
              "bots and seat tokens in the listing: %r" % entry["players"])


@test
def the_creator_cancels_a_waiting_game(binary):
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", "open", "open"], game_id="quantum")["id"]
        check(s.request("POST", "/v1/games/%s/join" % gid, token=bt).status == 200, "Bob joins")
        inv = create(s, at, ["me", {"invite": carol}])["id"]
        before = dump(s)
        for tok, want, kind in ((bt, 403, "forbidden"), (ct, 403, "forbidden"), (None, 401, "unauthorized")):
            r = s.request("DELETE", "/v1/games/" + gid, token=tok)
            check(r.status == want and r.json["type"].endswith(kind), "not the creator: %r" % r)
        anon = create(s, None, ["token", "open"])
        r = s.request("DELETE", "/v1/games/" + anon["id"], token=anon["seats"][0]["token"])
        check(r.status == 403, "a seat token is no creator: %r" % r)
        before = dump(s)
        r = s.request("DELETE", "/v1/games/" + anon["id"], token=at)
        check(r.status == 403 and dump(s) == before, "nor is another player: %r" % r)
        r = s.request("DELETE", "/v1/games/" + gid, token=at)
        check(r.status == 204 and not r.raw, "cancelled: %r" % r)
        for path in ("/v1/games/" + gid, "/v1/games/%s/moves" % gid):
            check(s.request("GET", path, token=at).status == 404, "gone: " + path)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=ct)
        check(r.status == 404, "not joinable: %r" % r)
        check(gid not in [g["id"] for g in s.request("GET", "/v1/games").json["games"]], "not listed")
        for tok in (at, bt):
            mine = s.request("GET", "/v1/players/me/games", token=tok).json["games"]
            check(gid not in [g["id"] for g in mine], "not in a player's games")
        check(s.request("DELETE", "/v1/games/" + gid, token=at).status == 404, "twice: 404")
        check(s.request("DELETE", "/v1/games/" + inv, token=at).status == 204, "an invitation too")
        mine = s.request("GET", "/v1/players/me/games", token=ct).json["games"]
        check(mine == [], "the invitee no longer sees it: %r" % mine)
        # A started game where someone moved cannot be cancelled.
        act = create(s, at, ["me", "open"])["id"]
        check(s.request("POST", "/v1/games/%s/join" % act, token=bt).status == 200, "started")
        first_move(s, act, {0: at, 1: bt})
        before = dump(s)
        r = s.request("DELETE", "/v1/games/" + act, token=at)
        check(r.status == 409 and r.json["type"].endswith(":game-started") and
              "a move was made" in r.json["detail"], "moved: %r" % r)
        check(dump(s) == before, "nothing changed")
        # The cap on waiting games no longer counts a cancelled one.
    with server(binary, extra=["--waiting-per-player", "1"]) as s:
        _, at = new_player(s, "Alice")
        gid = create(s, at, ["me", "open"])["id"]
        create(s, at, ["me", "open"], status=429)
        check(s.request("DELETE", "/v1/games/" + gid, token=at).status == 204, "cancelled")
        create(s, at, ["me", "open"])


def first_move(s, gid, tokens):
    """The seat to act of game gid ({seat: token}) makes its first listed
    move."""
    (seat,) = game(s, gid)["to_act"]
    r = s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat])
    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": r.json["actions"][0]},
                  token=tokens[seat])
    check(r.status == 201, "the first move: %r" % r)


@test
def the_creator_cancels_a_squatted_game_nobody_moved_in(binary):
    """Issue 34, finding 9: a visitor took the open seat of a listed game
    and never moved.  Before, the game had started and its creator could
    no longer cancel it (409); now the creator may, until someone moves."""
    with server(binary) as s:
        _, at = new_player(s, "Alice")
        gid = create(s, at, ["me", "open"], clock={"move_seconds": 3600})["id"]
        r = s.request("POST", "/v1/games/%s/join" % gid)  # the squatter: no token
        check(r.status == 200 and r.json["status"] == "active", "the visitor's seat: %r" % r)
        squatter = r.json["token"]
        check(game(s, gid)["status"] == "active" and game(s, gid)["seq"] == 0, "started, nobody moved")
        for tok, want in ((squatter, 403), (None, 401)):
            check(s.request("DELETE", "/v1/games/" + gid, token=tok).status == want,
                  "only the creator cancels")
        r = s.request("DELETE", "/v1/games/" + gid, token=at)
        check(r.status == 204, "the creator cancels it: %r" % r)
        for tok in (at, squatter):
            check(s.request("GET", "/v1/games/" + gid, token=tok).status == 404, "gone")
        (key, status, to_act, deadline), = rows(
            s, "SELECT key, status, to_act, deadline_ms FROM games WHERE id = '%s'" % gid)
        check(to_act == 0 and deadline is None, "nobody to act, no deadline: %r" % ((status, to_act, deadline),))
        for path in ("/v1/games/%s/actions" % gid, "/v1/games/%s/resign" % gid):
            r = s.request("GET" if path.endswith("actions") else "POST", path, token=squatter)
            check(r.status == 404, "the squatter's seat takes no move: %r" % r)
        check(rows(s, "SELECT count(*) FROM moves WHERE game_key = %d" % key)[0][0] == 0, "no move logged")
        check(gid not in [g["id"] for g in s.request("GET", "/v1/games").json["games"]], "not listed")
        check(s.request("GET", "/v1/players/me/games", token=at).json["games"] == [],
              "not in the creator's games")


@test
def a_player_leaves_a_seat_before_the_start(binary):
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", "open", "open"], game_id="quantum")["id"]
        check(s.request("POST", "/v1/games/%s/join" % gid, token=bt).status == 200, "Bob joins")
        check(game(s, gid)["players"][1]["player"]["name"] == "Bob", "Bob sits at 1")
        before = dump(s)
        for tok, want in ((ct, 403), (None, 401), ("A" * 43, 403)):
            r = s.request("POST", "/v1/games/%s/leave" % gid, token=tok)
            check(r.status == want, "not seated: %r" % r)
        check(s.request("POST", "/v1/games/0123456789abcdef/leave", token=bt).status == 404, "no game")
        check(dump(s) == before, "refusals change nothing")
        r = s.request("POST", "/v1/games/%s/leave" % gid, token=bt)
        check(r.status == 204, "Bob leaves: %r" % r)
        g = game(s, gid)
        check(g["status"] == "waiting" and g["players"][1]["open"] and g["players"][1]["player"] is None,
              "his seat is open again: %r" % g["players"])
        check(s.request("GET", "/v1/games?status=waiting").json["games"][0]["open_seats"] == 2,
              "two open seats listed")
        check(s.request("GET", "/v1/players/me/games", token=bt).json["games"] == [],
              "not in Bob's games")
        check(s.request("POST", "/v1/games/%s/leave" % gid, token=bt).status == 403, "twice: 403")
        # A newcomer's seat token leaves too, and is worthless after.
        r = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 2})
        nt = r.json["token"]
        check(s.request("POST", "/v1/games/%s/leave" % gid, token=nt).status == 204, "the newcomer leaves")
        check(s.request("GET", "/v1/games/%s/actions" % gid, token=nt).status == 403, "its token is dead")
        # Then the game fills and starts: no more leaving.
        for tok in (ct, bt):
            check(s.request("POST", "/v1/games/%s/join" % gid, token=tok).status == 200, "join")
        check(game(s, gid)["status"] == "active", "started")
        before = dump(s)
        r = s.request("POST", "/v1/games/%s/leave" % gid, token=ct)
        check(r.status == 409 and r.json["type"].endswith(":game-started"), "started: %r" % r)
        check(dump(s) == before, "nothing changed")


@test
def an_invitee_who_leaves_keeps_the_seat_reserved(binary):
    """Leaving a seat reserved for you reserves it for you again: an
    invite-only game never becomes listed or joinable by a stranger."""
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", {"invite": bob}, {"invite": carol}], game_id="quantum")["id"]
        check(s.request("POST", "/v1/games/%s/join" % gid, token=bt).status == 200, "Bob joins")
        check(game(s, gid)["players"][1]["invited"] is None, "a taken seat names no invitee")
        check(s.request("POST", "/v1/games/%s/leave" % gid, token=bt).status == 204, "Bob leaves")
        seat = game(s, gid)["players"][1]
        check(seat["open"] and seat["player"] is None and seat["invited"] == bob,
              "reserved for Bob again: %r" % seat)
        check(gid not in [g["id"] for g in s.request("GET", "/v1/games").json["games"]], "still unlisted")
        _, dt = new_player(s, "Dan")
        before = dump(s)
        for body in (None, {"seat": 1}):
            r = s.request("POST", "/v1/games/%s/join" % gid, body, token=dt)
            check(r.status == 403 and r.json["type"].endswith(":seat-reserved"), "a stranger: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 1})
        check(r.status == 403 and r.json["type"].endswith(":seat-reserved"), "a newcomer: %r" % r)
        check(dump(s) == before, "refusals change nothing")
        mine = s.request("GET", "/v1/players/me/games", token=bt).json["games"]
        check([(g["id"], g["invitation"]) for g in mine] == [(gid, True)], "Bob's invitation: %r" % mine)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 200 and r.json["seat"] == 1, "Bob takes it back: %r" % r)


@test
def an_invitee_joining_takes_the_seat_reserved_for_them(binary):
    """Without a seat number an invitee gets their reserved seat, not a
    lower open one: else theirs stays reserved for a seated player and
    the game never fills."""
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", "open", {"invite": bob}], game_id="quantum")["id"]
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 200 and r.json["seat"] == 2, "Bob gets his seat: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=ct)
        check(r.status == 200 and r.json["seat"] == 1, "Carol the open one: %r" % r)
        check(game(s, gid)["status"] == "active", "the game starts")


@test
def no_seat_sees_its_hand_before_the_game_starts(binary):
    """The deal is made at creation, but a seat's hidden cards are shown
    only once every seat is taken for good: else one could join, read a
    seat's hand, leave, and let the next holder play a known hand."""
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", "open", "open"])["id"]
        check(game(s, gid, at)["view"]["hand"] is None, "the creator's hand is hidden while waiting")
        nt = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 1}).json["token"]
        g = game(s, gid, nt)
        check(g["you"] == 1 and g["view"]["hand"] is None, "so is a newcomer's: %r" % g["view"])
        check(s.request("POST", "/v1/games/%s/leave" % gid, token=nt).status == 204, "the newcomer leaves")
        for seat, tok in ((1, ct), (2, bt)):
            check(s.request("POST", "/v1/games/%s/join" % gid, {"seat": seat}, token=tok).status == 200, "join")
        g = game(s, gid, ct)
        check(g["status"] == "active" and len(g["view"]["hand"]) == 4, "started: her hand: %r" % g["view"])


@test
def an_invitee_takes_no_seat_but_the_reserved_one(binary):
    """A player with an open seat reserved for them cannot take another
    seat of that game (by naming it or by attaching its seat token):
    theirs would stay reserved for a seated player, and the game could
    never fill."""
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        gid = create(s, at, ["me", "open", {"invite": bob}], game_id="quantum")["id"]
        anon = create(s, at, ["token", "open", {"invite": bob}], game_id="quantum")
        before = dump(s)
        r = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 1}, token=bt)
        check(r.status == 409 and r.json["type"].endswith(":already-seated") and "reserved for you" in
              r.json["detail"], "another seat: %r" % r)
        r = s.request("POST", "/v1/players/me/seats", {"token": anon["seats"][0]["token"]}, token=bt)
        check(r.status == 409 and r.json["type"].endswith(":already-seated"), "attaching another: %r" % r)
        check(dump(s) == before, "refusals change nothing")
        for g in (gid, anon["id"]):
            for tok in (bt, ct):
                check(s.request("POST", "/v1/games/%s/join" % g, token=tok).status == 200, "join")
            check(game(s, g)["status"] == "active", "the game fills")


@test
def reserved_and_full_are_told_apart(binary):
    with server(binary) as s:
        (alice, at), (bob, bt), (carol, ct) = trio(s)
        inv = create(s, at, ["me", {"invite": bob}])["id"]
        before = dump(s)
        r = s.request("POST", "/v1/games/%s/join" % inv, token=ct)
        check(r.status == 403 and r.json["type"].endswith(":seat-reserved") and "every" in r.json["detail"],
              "every open seat reserved: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % inv, {"seat": 1}, token=ct)
        check(r.status == 403 and r.json["type"].endswith(":seat-reserved") and "seat 1" in r.json["detail"],
              "that seat reserved: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % inv, {"seat": 1})
        check(r.status == 403 and r.json["type"].endswith(":seat-reserved"), "for a newcomer too: %r" % r)
        full = create(s, at, ["me", "open"])["id"]
        check(s.request("POST", "/v1/games/%s/join" % full, token=bt).status == 200, "Bob fills it")
        r = s.request("POST", "/v1/games/%s/join" % full, token=ct)
        check(r.status == 409 and r.json["type"].endswith(":seat-taken") and "no seat" in r.json["detail"],
              "no seat left: %r" % r)
        mixed = create(s, at, ["me", {"invite": bob}, "open"], game_id="quantum")["id"]
        r = s.request("POST", "/v1/games/%s/join" % mixed, {"seat": 0}, token=ct)
        check(r.status == 409 and r.json["type"].endswith(":seat-taken") and "seat 0" in r.json["detail"],
              "a taken seat: %r" % r)
        before = dump(s)
        r = s.request("POST", "/v1/games/%s/join" % mixed, token=ct)
        check(r.status == 200 and r.json["seat"] == 2, "Carol gets the open seat: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % mixed, {"seat": 1}, token=new_player(s, "Dan")[1])
        check(r.status == 403 and r.json["type"].endswith(":seat-reserved"), "Bob's seat stays his: %r" % r)


# ---- identity ----

@test
def a_player_holds_a_token_per_device(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = create(s, at, ["me", "token"])["id"]
        r = s.request("POST", "/v1/players/me/tokens", {"label": "phone"}, token=at)
        check(r.status == 201 and r.json["label"] == "phone" and r.json["last_used"] is None and
              len(r.json["token"]) == 43, "a new token: %r" % r)
        phone, pid = r.json["token"], r.json["id"]
        check(s.request("GET", "/v1/players/me", token=phone).json["id"] == alice, "it is Alice's")
        check(game(s, gid, phone)["you"] == 0, "and acts for her seat")
        r = s.request("POST", "/v1/players/me/tokens", token=at)
        check(r.status == 201 and r.json["label"] == "unnamed", "no body: %r" % r)
        tablet = r.json["id"]
        r = s.request("GET", "/v1/players/me/tokens", token=phone)
        toks = r.json["tokens"]
        check([t["label"] for t in toks] == ["first token", "phone", "unnamed"] and
              [t["current"] for t in toks] == [False, True, False], "listed: %r" % toks)
        check(all("token" not in t for t in toks) and phone not in r.raw.decode() and at not in r.raw.decode(),
              "never the tokens themselves")
        check(toks[1]["last_used"] is not None and toks[0]["last_used"] is not None and
              toks[2]["last_used"] is None, "last used: %r" % toks)
        raw = b"".join(h for (h,) in rows(s, "SELECT token_hash FROM player_tokens"))
        check(len(raw) == 4 * 32 and phone.encode() not in raw, "hashes only (3 + Bob's)")
        # Refusals.
        before = dump(s)
        for body, want in (({"label": ""}, 400), ({"label": "a\u0007"}, 400), ({"label": 3}, 400),
                           ({"x": 1}, 400)):
            r = s.request("POST", "/v1/players/me/tokens", body, token=at)
            check(r.status == want, "%r: %r" % (body, r))
        seat_tok = create(s, None, ["token", "token"])["seats"][0]["token"]
        before = dump(s)
        check(s.request("POST", "/v1/players/me/tokens", token=seat_tok).status == 403, "a seat token")
        check(s.request("GET", "/v1/players/me/tokens", token=seat_tok).status == 403, "a seat token")
        check(s.request("DELETE", "/v1/players/me/tokens/" + pid, token=bt).status == 404,
              "Bob cannot revoke Alice's token")
        check(s.request("DELETE", "/v1/players/me/tokens/nothing", token=at).status == 404, "unknown id")
        check(dump(s) == before, "refusals change nothing")
        # Revoking: another device's, then the current one.
        r = s.request("DELETE", "/v1/players/me/tokens/" + toks[0]["id"], token=phone)
        check(r.status == 204, "the first token revoked from the phone: %r" % r)
        for path in ("/v1/players/me", "/v1/players/me/games", "/v1/games/%s/actions" % gid):
            r = s.request("GET", path, token=at)
            check(r.status == 401 and "revoked" in r.json["detail"], "revoked at once: %s %r" % (path, r))
        r = s.request("GET", "/v1/games/" + gid, token=at)
        check(r.status == 401, "even for a read: %r" % r)
        r = s.request("DELETE", "/v1/players/me/tokens/" + pid, token=phone)
        check(r.status == 204, "the current token revoked: %r" % r)
        check(s.request("GET", "/v1/players/me", token=phone).status == 401, "now 401")
        check(s.request("DELETE", "/v1/players/me/tokens/" + tablet, token=phone).status == 401,
              "a revoked token revokes nothing")


@test
def token_creation_is_capped_and_rate_limited(binary):
    with server(binary, limits=True, extra=["--rate-limit", "tokens.token=3/1h,tickets.token=2/1h"]) as s:
        _, at = new_player(s, "Alice")
        for i in range(3):
            check(s.request("POST", "/v1/players/me/tokens", {"label": "d%d" % i}, token=at).status == 201,
                  "token %d" % i)
        before = dump(s)
        r = s.request("POST", "/v1/players/me/tokens", {"label": "more"}, token=at)
        check(r.status == 429 and r.headers.get("retry-after"), "rate limited: %r" % r)
        for _ in range(2):
            ticket(s, at, "/v1/players/me/events")
        r = s.request("POST", "/v1/tickets", {"url": "/v1/players/me/events"}, token=at)
        check(r.status == 429, "tickets too: %r" % r)
        check(dump(s)[:3] == before[:3], "nothing else changed")
    with server(binary) as s:
        _, at = new_player(s, "Alice")
        for i in range(49):
            check(s.request("POST", "/v1/players/me/tokens", token=at).status == 201, "token %d" % i)
        r = s.request("POST", "/v1/players/me/tokens", token=at)
        check(r.status == 409 and r.json["type"] == "urn:boardd:problem:too-many-tokens" and "at most 50" in r.json["detail"]
              and "retry-after" not in r.headers, "50 at most, a cap and not a rate: %r" % r)
        one = s.request("GET", "/v1/players/me/tokens", token=at).json["tokens"][1]["id"]
        check(s.request("DELETE", "/v1/players/me/tokens/" + one, token=at).status == 204, "revoke one")
        check(s.request("POST", "/v1/players/me/tokens", token=at).status == 201, "room again")


@test
def a_seat_token_is_attached_to_a_player(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        g = create(s, None, ["token", "token"])
        gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        check(game(s, gid)["players"][0]["player"] is None, "a seat token's seat (view now cached)")
        r = s.request("POST", "/v1/players/me/seats", {"token": t0}, token=at)
        check(r.status == 200 and r.json == {"id": gid, "game": AA, "seat": 0, "player": alice},
              "attached: %r" % r)
        mine = s.request("GET", "/v1/players/me/games", token=at).json["games"]
        check([x["id"] for x in mine] == [gid] and mine[0]["seat"] == 0, "in her games: %r" % mine)
        check(game(s, gid, at)["you"] == 0, "her token acts for the seat")
        check(game(s, gid)["players"][0]["player"] == {"id": alice, "name": "Alice"},
              "the view names her (no stale cached view)")
        phone = s.request("POST", "/v1/players/me/tokens", token=at).json["token"]
        check(s.request("GET", "/v1/games/%s/actions" % gid, token=phone).status == 200, "every token")
        r = s.request("GET", "/v1/games/%s/actions" % gid, token=t0)
        check(r.status == 403, "the seat token stopped working: %r" % r)
        before = dump(s)
        for tok, body, want in ((at, {"token": t0}, 403),      # attached already
                                (at, {"token": t1}, 409),      # a second seat of the game
                                (at, {"token": bt}, 403),      # a player token is no seat token
                                (at, {"token": "nonsense"}, 403),
                                (at, {"token": ""}, 400),
                                (at, {}, 400),
                                (at, {"token": t1, "x": 1}, 400),
                                (t1, {"token": t1}, 403),      # a seat token is no player
                                (None, {"token": t1}, 401)):
            r = s.request("POST", "/v1/players/me/seats", body, token=tok)
            check(r.status == want, "%r: want %d: %r" % (body, want, r))
        check(dump(s) == before, "refusals change nothing")
        r = s.request("POST", "/v1/players/me/seats", {"token": t1}, token=bt)
        check(r.status == 200 and r.json["seat"] == 1, "Bob takes the other: %r" % r)
        check(s.request("GET", "/v1/players/me/games", token=bt).json["games"][0]["my_turn"] in (True, False),
              "his games list it")


if __name__ == "__main__":
    run_all("lobby")
