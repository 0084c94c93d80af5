"""test_rematch.py: a finished game's rematch (issue 33 goal 2,
docs/matchmaking.md, "Rematch"): any player offers it, each other player
accepts it (bots at once), the last acceptance creates the new game with
the same options and clock and the seats rotated one on (two players
swap; four keep their order around the table); the two games name each
other; offers, declines and the new game are told on the players'
account streams; refusals (not over, not a player, no token, rematched
already, a blocked pair, a seat held by a seat token alone) are RFC 9457
problems that change nothing.  On PostgreSQL, two nodes on one database
accepting at the same moment make exactly one game.  Real binary, real
store (SQLite or PostgreSQL).
Usage: test_rematch.py BOARDD [test names...]"""
import threading
import time

import harness
from harness import POSTGRES, Server, Skip, check, run_all, test
from gamehelp import AA, server
from webhookhelp import account_events

# test_live's stream reader: imported for its Conn and pump, not its
# tests (which its @test registered: dropped again).
_n = len(harness._tests)
from test_live import Conn, check_event, pump  # noqa: E402
del harness._tests[_n:]

WAIT = 30  # seconds: the longest a game of bots may take to end here


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def two_players(s, clock=None, options=None):
    """Alice (seat 0) and Bob (seat 1) in a started 2-seat game."""
    alice, at = player(s, "Alice")
    bob, bt = player(s, "Bob")
    body = {"game": AA, "seats": 2, "seating": ["me", {"invite": bob}]}
    if clock:
        body["clock"] = clock
    if options:
        body["options"] = options
    r = s.request("POST", "/v1/games", body, token=at)
    check(r.status == 201, "create: %r" % r)
    gid = r.json["id"]
    r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
    check(r.status == 200, "Bob joins: %r" % r)
    return gid, (alice, at), (bob, bt)


def resign(s, gid, token):
    r = s.request("POST", "/v1/games/%s/resign" % gid, token=token)
    check(r.status == 201, "resign: %r" % r)


def rematch(s, gid, token, status=200, method="POST"):
    r = s.request(method, "/v1/games/%s/rematch" % gid, token=token)
    check(r.status == status, "%s rematch: %r" % (method, r))
    return r


def game(s, gid, token=None):
    r = s.request("GET", "/v1/games/%s" % gid, token=token)
    check(r.status == 200, "game: %r" % r)
    return r


def problem(r, status, slug):
    check(r.status == status and r.json["type"] == "urn:boardd:problem:" + slug and
          r.headers.get("content-type", "").startswith("application/problem+json"),
          "%d %s: %r" % (status, slug, r))


def dump(s):
    """What a refusal must leave as it was."""
    return [s.query("SELECT key, id, status, seq, rematch_seats, rematch_by, rematch, "
                    "rematch_of FROM games ORDER BY key"),
            s.query("SELECT game_key, seat, player_key, token_hash, bot FROM seats "
                    "ORDER BY game_key, seat"),
            s.query("SELECT count(*) FROM events")]


def told(s, token, gid, kind="rematch"):
    """The data of `token`'s account events of type `kind` about game gid."""
    return [e["data"] for e in account_events(s, token, 0)[0]
            if e["type"] == kind and e["data"]["game_id"] == gid]


@test
def two_players_offer_and_accept_with_the_seats_swapped(binary):
    with server(binary) as s:
        clock = {"move_seconds": 600}
        gid, (alice, at), (bob, bt) = two_players(s, clock=clock, options={"mode": "advanced"})
        before = game(s, gid, at)
        old_clock = before.json["clock"]
        check(before.json["rematch"] is None and before.json["rematch_of"] is None,
              "no rematch yet: %r" % before.json)
        # refusals while it runs: nothing changes
        was = dump(s)
        problem(rematch(s, gid, at, 409), 409, "not-finished")
        check(dump(s) == was, "a refused offer changes nothing")
        resign(s, gid, bt)
        over = game(s, gid, at)
        check(over.json["status"] == "finished" and over.json["rematch"] is None, "over: %r" % over.json)
        _, carol = player(s, "Carol")
        was = dump(s)
        problem(rematch(s, gid, carol, 403), 403, "forbidden")
        problem(rematch(s, gid, None, 401), 401, "unauthorized")
        problem(rematch(s, gid, carol, 403, "DELETE"), 403, "forbidden")
        problem(rematch(s, "0123456789abcdef", at, 404), 404, "unknown-game")
        check(dump(s) == was, "refusals change nothing")

        # Alice offers; offering again changes nothing
        r = rematch(s, gid, at)
        check(r.json == {"state": "offered", "offered_by": 0, "accepted": [0], "game": None},
              "the offer: %r" % r.json)
        was = dump(s)
        r = rematch(s, gid, at)
        check(r.json["accepted"] == [0] and dump(s) == was, "again: no change, no event")
        v = game(s, gid, bt)
        check(v.json["rematch"] == {"state": "offered", "offered_by": 0, "accepted": [0], "game": None},
              "the finished game's view shows the offer: %r" % v.json["rematch"])
        check(v.headers["etag"] != over.headers["etag"], "its ETag changed: %r %r"
              % (v.headers["etag"], over.headers["etag"]))
        r = s.request("GET", "/v1/games/%s" % gid, token=bt,
                      headers={"If-None-Match": over.headers["etag"]})
        check(r.status == 200, "the old ETag no longer matches: %r" % r)
        r = s.request("GET", "/v1/games/%s" % gid, token=bt,
                      headers={"If-None-Match": v.headers["etag"]})
        check(r.status == 304, "the new one does: %r" % r)
        offered = told(s, bt, gid)
        check(len(offered) == 1 and offered[0]["rematch"]["state"] == "offered" and
              offered[0]["rematch"]["by"] == 0, "Bob is told of the offer: %r" % offered)

        # Bob accepts: the new game starts, seats swapped
        r = rematch(s, gid, bt)
        new = r.json["game"]
        check(r.json["state"] == "started" and r.json["accepted"] == [0, 1] and new,
              "accepted: %r" % r.json)
        g = game(s, new, bt).json
        check(g["rematch_of"] == gid and g["rematch"] is None, "the new game names the old: %r" % g)
        check(g["status"] == "active" and g["seats"] == 2, "it started: %r" % g)
        check([p["player"]["id"] if p.get("player") else None for p in g["players"]] == [bob, alice],
              "seats swapped: %r" % g["players"])
        check(g["you"] == 0, "Bob's token holds seat 0 now: %r" % g["you"])
        policy = lambda c: {k: v for k, v in c.items() if k != "seats"}
        check(g["clock"] and policy(g["clock"]) == policy(old_clock), "the clock copied: %r" % g["clock"])
        rows = s.query("SELECT options, clock FROM games WHERE id IN (?, ?) ORDER BY key",
                       (gid, new))
        check(rows[0] == rows[1], "options and clock copied: %r" % rows)
        old = game(s, gid, at).json
        check(old["rematch"] == {"state": "started", "offered_by": 0, "accepted": [0, 1], "game": new},
              "the old game names the new: %r" % old["rematch"])
        started = told(s, at, new, "game.started")
        check(len(started) == 1 and started[0]["seat"] == 1, "Alice is told the game started: %r" % started)
        last = told(s, at, gid)[-1]["rematch"]
        check(last["state"] == "started" and last["game"] == new and last["by"] == 1,
              "and of the rematch: %r" % last)

        # at most one rematch: later offers and declines are refused
        was = dump(s)
        problem(rematch(s, gid, at, 409), 409, "already-rematched")
        problem(rematch(s, gid, bt, 409, "DELETE"), 409, "already-rematched")
        check(dump(s) == was, "refusals change nothing")
        # the rematch, once over, has its own
        resign(s, new, at)
        r = rematch(s, new, at)
        check(r.json["offered_by"] == 1 and r.json["game"] is None, "a rematch of the rematch: %r" % r.json)


@test
def the_game_stream_tells_the_rematch_when_asked(binary):
    """?rematch=true keeps a game's stream open after its end: each change
    of the rematch is a `rematch` event, and the stream ends once it
    started.  Without it the stream still ends with the game."""
    with server(binary) as s:
        gid, (alice, at), (bob, bt) = two_players(s)
        h = {"Accept": "application/x-ndjson"}
        watch = Conn(s.port, "/v1/games/%s/events?rematch=true" % gid, bt, h)
        plain = Conn(s.port, "/v1/games/%s/events" % gid, at, h)
        check(pump([watch, plain], lambda: len(watch.events()[0]) >= 1 and
                   len(plain.events()[0]) >= 1, 10), "both streams opened")
        resign(s, gid, at)
        check(pump([watch, plain], lambda: plain.done or plain.closed, 10),
              "without ?rematch the stream ends with the game")
        check(pump([watch], lambda: any(e["event"] == "end" for e in watch.events()[0]), 10),
              "the watching stream tells the end")
        check(not (watch.done or watch.closed), "and stays open")
        kinds = lambda: [e["data"].get("rematch", "-") for e in watch.events()[0]
                         if e["event"] == "rematch"]
        rematch(s, gid, at)
        check(pump([watch], lambda: len(kinds()) >= 1, 10), "the offer is told: %r" % watch.events()[0])
        rematch(s, gid, bt, 204, "DELETE")
        check(pump([watch], lambda: len(kinds()) >= 2, 10), "the decline is told")
        rematch(s, gid, bt)
        check(pump([watch], lambda: len(kinds()) >= 3, 10), "the new offer is told")
        new = rematch(s, gid, at).json["game"]
        check(pump([watch], lambda: watch.done or watch.closed, 10), "the stream ends once it started")
        told = kinds()
        check(told[0] == {"state": "offered", "offered_by": 0, "accepted": [0], "game": None}
              and told[1] is None
              and told[2] == {"state": "offered", "offered_by": 1, "accepted": [1], "game": None}
              and told[3] == {"state": "started", "offered_by": 1, "accepted": [0, 1], "game": new},
              "offered, declined, offered again, started: %r" % told)
        for e in watch.events()[0]:
            check_event(e)
        # a finished game's stream opened with ?rematch=true after the
        # rematch started: its state, the rematch, and the end of it
        late = Conn(s.port, "/v1/games/%s/events?rematch=true" % gid, None, h)
        check(pump([late], lambda: late.done or late.closed, 10), "a late one ends")
        check([e["event"] for e in late.events()[0]][-1] == "rematch", "with the rematch: %r"
              % late.events()[0])
        r = s.request("GET", "/v1/games/%s/events?rematch=yes" % gid)
        problem(r, 400, "bad-request")
        watch.close()
        plain.close()
        late.close()


@test
def a_decline_ends_the_offer_and_a_new_one_may_follow(binary):
    with server(binary) as s:
        gid, (alice, at), (bob, bt) = two_players(s)
        resign(s, gid, at)
        problem_free = rematch(s, gid, bt, 204, "DELETE")  # no offer: nothing to decline
        check(not problem_free.raw, "204 has no body")
        rematch(s, gid, bt)
        rematch(s, gid, at, 204, "DELETE")
        check(game(s, gid).json["rematch"] is None, "the offer is gone")
        declined = [e["rematch"] for e in told(s, bt, gid)]
        check([d["state"] for d in declined] == ["offered", "declined"] and declined[1]["by"] == 0
              and declined[1]["accepted"] == [], "Bob is told Alice declined: %r" % declined)
        r = rematch(s, gid, at)
        check(r.json == {"state": "offered", "offered_by": 0, "accepted": [0], "game": None},
              "Alice offers afresh: %r" % r.json)
        rematch(s, gid, at, 204, "DELETE")  # and withdraws her own
        check(game(s, gid).json["rematch"] is None, "withdrawn")


@test
def a_bot_accepts_at_once(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                            "seating": ["me", {"bot": "random"}]}, token=at)
        check(r.status == 201, "create: %r" % r)
        gid = r.json["id"]
        resign(s, gid, at)
        r = rematch(s, gid, at)
        check(r.json["state"] == "started" and r.json["accepted"] == [0, 1], "the bot accepted: %r" % r.json)
        g = game(s, r.json["game"], at).json
        check(g["players"][0].get("bot") == {"bot": "random"} and
              g["players"][1]["player"]["id"] == alice, "rotated: %r" % g["players"])


@test
def four_seats_rotate_one_seat_on(binary):
    """Alice and three bots of different kinds in the team variant: seat s
    of the old game is seat (s + 1) mod 4 of the new (partners, seats of
    one parity, stay partners)."""
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bots = [{"bot": "random"}, {"bot": "mcts", "level": 1}, {"bot": "random"}]
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 4,
                                            "seating": ["me"] + bots}, token=at)
        check(r.status == 201, "create: %r" % r)
        gid = r.json["id"]
        old = game(s, gid, at).json["players"]
        resign(s, gid, at)
        deadline = time.monotonic() + WAIT
        while game(s, gid).json["status"] != "finished":
            check(time.monotonic() < deadline, "the bots finish the game")
            time.sleep(0.1)
        r = rematch(s, gid, at)
        check(r.json["accepted"] == [0, 1, 2, 3] and r.json["game"], "started: %r" % r.json)
        new = game(s, r.json["game"], at).json["players"]
        for seat in range(4):
            a, b = old[seat], new[(seat + 1) % 4]
            check(a.get("bot") == b.get("bot") and a.get("player") == b.get("player"),
                  "seat %d moved to %d: %r -> %r" % (seat, (seat + 1) % 4, a, b))


@test
def a_blocked_pair_cannot_rematch(binary):
    with server(binary) as s:
        gid, (alice, at), (bob, bt) = two_players(s)
        resign(s, gid, at)
        r = s.request("PUT", "/v1/players/me/blocks/%s" % bob, token=at)
        check(r.status == 204, "Alice blocks Bob: %r" % r)
        was = dump(s)
        problem(rematch(s, gid, bt, 403), 403, "blocked")
        problem(rematch(s, gid, at, 403), 403, "blocked")
        check(dump(s) == was, "nothing changes")


@test
def a_blocked_pair_cannot_accept_an_earlier_offer(binary):
    with server(binary) as s:
        gid, (alice, at), (bob, bt) = two_players(s)
        resign(s, gid, at)
        rematch(s, gid, at)
        r = s.request("PUT", "/v1/players/me/blocks/%s" % alice, token=bt)
        check(r.status == 204, "Bob blocks Alice: %r" % r)
        was = dump(s)
        problem(rematch(s, gid, bt, 403), 403, "blocked")
        check(dump(s) == was, "nothing changes: no game")


@test
def a_seat_token_alone_cannot_be_carried_into_a_rematch(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2})
        gid = r.json["id"]
        t0, t1 = [x["token"] for x in r.json["seats"]]
        resign(s, gid, t0)
        was = dump(s)
        problem(rematch(s, gid, t1, 409), 409, "no-rematch")
        check(dump(s) == was, "nothing changes")


@test
def two_nodes_accepting_at_once_make_one_game(binary):
    """Both players of each game accept at the same moment, one on each of
    two nodes sharing one PostgreSQL database: exactly one new game, which
    both games' views name.  Then a player's acceptance posted to both
    nodes at once (a retry behind a load balancer): one game still."""
    if not POSTGRES:
        raise Skip("two nodes need PostgreSQL")
    a = Server(binary)
    try:
        b = Server(binary, db=a.db)
        try:
            for round_ in range(8):
                gid, (alice, at), (bob, bt) = two_players(a)
                resign(a, gid, at)
                if round_ % 2:
                    rematch(b, gid, at)  # an offer first: both race to accept
                    callers = [(a, bt), (b, bt)]
                else:
                    callers = [(a, at), (b, bt)]
                go = threading.Barrier(len(callers))
                answers = []

                def post(node, token):
                    go.wait()
                    answers.append(node.request("POST", "/v1/games/%s/rematch" % gid, token=token))
                threads = [threading.Thread(target=post, args=c) for c in callers]
                [t.start() for t in threads]
                [t.join() for t in threads]
                made = a.query("SELECT id FROM games WHERE rematch_of = ?", (gid,))
                check(len(made) == 1, "exactly one new game: %r" % made)
                ok = [r for r in answers if r.status == 200]
                for r in answers:
                    check(r.status == 200 or (r.status == 409 and
                          r.json["type"] == "urn:boardd:problem:already-rematched"),
                          "each answer is the rematch or already-rematched: %r" % r)
                check(any(r.json["game"] == made[0][0] for r in ok),
                      "an answer names it: %r" % answers)
                for node in (a, b):
                    check(game(node, gid).json["rematch"]["game"] == made[0][0],
                          "both nodes name it")
        finally:
            b.stop()
    finally:
        if a.proc.poll() is None:
            a.stop()
        a.cleanup()


if __name__ == "__main__":
    run_all("rematch")
