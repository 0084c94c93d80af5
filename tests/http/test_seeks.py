"""test_seeks.py: quick match (issue 33 goal 1, docs/matchmaking.md,
"Quick match"): POST /v1/seeks pairs compatible seeks of different
players, oldest first, into a started game (2 seats, and 3 or 4 filling
a table); rating ranges are checked both ways; seeks expire, are
bounded per player and cancelled by their player; blocked players are
never paired; bad input is an RFC 9457 problem that changes nothing;
every player is told by a `seek.matched` account event.  Hundreds of
concurrent seeks from many client threads (on PostgreSQL, on two nodes
of one database) are each paired at most once, and none is lost.  Real
binary, real store (SQLite or PostgreSQL).
Usage: test_seeks.py BOARDD [test names...]"""
import subprocess
import threading
import time

import harness
from harness import POSTGRES, Server, check, run_all, test
from gamehelp import AA, server
from webhookhelp import account_events

QT = "quantum"


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def seek(s, token, body, status=201):
    r = s.request("POST", "/v1/seeks", body, token=token)
    check(r.status == status, "seek %r: %r" % (body, r))
    return r.json


def get(s, sid):
    r = s.request("GET", "/v1/seeks/%s" % sid)
    check(r.status == 200, "get seek: %r" % r)
    return r.json


def problem(r, status, slug):
    check(r.status == status and r.json["type"] == "urn:boardd:problem:" + slug and
          r.headers.get("content-type", "").startswith("application/problem+json"),
          "%d %s: %r" % (status, slug, r))


def dump(s):
    """What a refusal must leave as it was."""
    return [s.query("SELECT key, id, player_key, state, game FROM seeks ORDER BY key"),
            s.query("SELECT key, id, status FROM games ORDER BY key"),
            s.query("SELECT count(*) FROM events")]


def game(s, gid, token=None):
    r = s.request("GET", "/v1/games/%s" % gid, token=token)
    check(r.status == 200, "game: %r" % r)
    return r.json


def holders(g):
    return sorted(p["player"]["id"] for p in g["players"])


@test
def two_seeks_pair_into_a_started_game(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        body = {"game": AA, "seats": 2, "options": {"mode": "advanced"},
                "clock": {"move_seconds": 600}, "rating_range": [-200, 300]}
        a = seek(s, at, body)
        check(a["state"] == "open" and a["game_id"] is None and a["player"]["id"] == alice and
              a["rating"] == 1500 and a["rating_min"] == 1300 and a["rating_max"] == 1800 and
              a["rated"] is True and a["options"] == {"mode": "advanced"},
              "Alice's seek waits: %r" % a)
        r = s.request("GET", "/v1/seeks")
        check([k["id"] for k in r.json["seeks"]] == [a["id"]] and r.json["next_after"] is None,
              "it is listed: %r" % r.json)
        b = seek(s, bt, body)
        gid = b["game_id"]
        check(b["state"] == "matched" and gid, "Bob's completes the table: %r" % b)
        check(get(s, a["id"])["state"] == "matched" and get(s, a["id"])["game_id"] == gid,
              "Alice's is matched to the same game")
        g = game(s, gid, at)
        check(g["status"] == "active" and holders(g) == sorted([alice, bob]),
              "the game started with both: %r" % g)
        check(g["clock"] and g["clock"]["move_seconds"] == 600, "with the clock asked: %r" % g["clock"])
        check(a["clock"] == {"move_seconds": 600, "on_timeout": "bot"}, "the seek shows it: %r" % a)
        rows = s.query("SELECT options FROM games WHERE id = ?", (gid,))
        check(rows[0][0] == '{"mode":"advanced"}', "and the options: %r" % rows)
        for tok, mine in ((at, a["id"]), (bt, b["id"])):
            evs = account_events(s, tok, 0)[0]
            told = [e["data"] for e in evs if e["type"] == "seek.matched"]
            check(len(told) == 1 and told[0]["game_id"] == gid and told[0]["seek"] == mine
                  and told[0]["game"] == AA, "each is told: %r" % told)
            check(any(e["type"] == "game.started" and e["data"]["game_id"] == gid for e in evs),
                  "and the game started: %r" % evs)
        r = s.request("GET", "/v1/seeks")
        check(r.json["seeks"] == [], "no open seek is left: %r" % r.json)


@test
def three_and_four_seats_fill_a_table(binary):
    with server(binary) as s:
        for g, n in ((QT, 3), (QT, 4), (AA, 3), (AA, 4)):
            people = [player(s, "P%d" % i) for i in range(n)]
            made = [seek(s, t, {"game": g, "seats": n}) for _, t in people]
            check(all(k["state"] == "open" for k in made[:-1]), "%s/%d: the first wait: %r" % (g, n, made))
            gid = made[-1]["game_id"]
            check(made[-1]["state"] == "matched" and gid, "the last fills the table: %r" % made[-1])
            check(all(get(s, k["id"])["game_id"] == gid for k in made), "one game for all")
            gm = game(s, gid)
            check(gm["seats"] == n and gm["status"] == "active" and
                  holders(gm) == sorted(p for p, _ in people), "%s/%d seated: %r" % (g, n, gm))


@test
def rating_ranges_are_checked_both_ways(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        _, ct = player(s, "Carol")
        a = seek(s, at, {"game": AA, "rating_min": 1400, "rating_max": 1600})
        # Alice (1500) is in none of Bob's range: Bob's 1500 is in Alice's
        b = seek(s, bt, {"game": AA, "rating_max": 1450})
        check(b["state"] == "open" and get(s, a["id"])["state"] == "open", "not paired: %r" % b)
        # Carol's range [1600, 1700] holds neither of them
        c = seek(s, ct, {"game": AA, "rating_range": [100, 200]})
        check(c["state"] == "open" and c["rating_min"] == 1600, "Carol waits: %r" % c)
        _, dt = player(s, "Dan")
        d = seek(s, dt, {"game": AA, "rating_range": [-10, 10]})
        check(d["state"] == "matched" and get(s, a["id"])["game_id"] == d["game_id"],
              "Dan pairs with Alice, the oldest compatible: %r" % d)
        check(get(s, b["id"])["state"] == "open" and get(s, c["id"])["state"] == "open",
              "Bob and Carol still wait")


@test
def seeks_nobody_fits_do_not_hide_a_compatible_one(binary):
    """70 older seeks of the pool whose range no rating reaches are not
    candidates: more than the 64 the pairing reads must not keep two
    compatible seeks apart (a few accounts could otherwise stop a pool's
    quick match)."""
    with server(binary) as s:
        for i in range(70):
            _, t = player(s, "Odd%d" % i)
            seek(s, t, {"game": AA, "rating_min": 99999, "rating_max": 100000})
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        a = seek(s, at, {"game": AA})
        b = seek(s, bt, {"game": AA})
        check(b["state"] == "matched" and get(s, a["id"])["game_id"] == b["game_id"],
              "Bob pairs with Alice: %r" % b)


@test
def only_the_same_game_options_clock_and_rated_flag_pair(binary):
    with server(binary) as s:
        bodies = [{"game": AA}, {"game": AA, "options": {"mode": "advanced"}},
                  {"game": AA, "clock": {"move_seconds": 600}}, {"game": AA, "rated": False},
                  {"game": QT, "seats": 2}]
        _, at = player(s, "Alice")
        for body in bodies:
            check(seek(s, at, body)["state"] == "open", "Alice seeks %r" % body)
        _, bt = player(s, "Bob")
        k = seek(s, bt, {"game": AA, "rated": False})
        check(k["state"] == "matched", "Bob's casual seek pairs: %r" % k)
        g = s.query("SELECT count(*) FROM seeks WHERE state = 'matched'")
        check(g[0][0] == 2, "with the casual one only: %r" % g)
        rated = s.query("SELECT rated FROM games WHERE id = ?", (k["game_id"],))
        check(rated and rated[0][0] in (0, False), "the game is unrated: %r" % rated)


@test
def options_left_out_pair_with_their_defaults_spelt_out(binary):
    """A seek's options are compared with the catalog's defaults filled
    in (for its seat count: Quantum's map default is per seat count), so
    `{}` pairs with the defaults spelt out, and the game gets them."""
    with server(binary) as s:
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        check(seek(s, at, {"game": AA})["state"] == "open", "Alice seeks AA {}")
        k = seek(s, bt, {"game": AA, "options": {"mode": "base"}})
        check(k["state"] == "matched" and k["options"] == {"mode": "base"},
              "mode base spelt out pairs with {}: %r" % k)
        check(game(s, k["game_id"], bt)["view"]["mode"] == "base", "the game's mode")
        cat = [e for e in s.request("GET", "/v1/catalog").json["games"] if e["id"] == QT][0]
        spelt = {name: (o["default"]["2"] if isinstance(o["default"], dict) else o["default"])
                 for name, o in cat["options"].items()}
        check(seek(s, at, {"game": QT, "seats": 2, "options": spelt})["state"] == "open",
              "Alice seeks Quantum with every default spelt out")
        k = seek(s, bt, {"game": QT, "seats": 2})
        check(k["state"] == "matched" and k["options"] == spelt,
              "Bob's Quantum seek without options pairs: %r" % k)


@test
def seeks_expire(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        a = seek(s, at, {"game": AA, "expires_in": 1})
        time.sleep(1.3)
        check(get(s, a["id"])["state"] == "expired", "expired")
        r = s.request("GET", "/v1/seeks")
        check(r.json["seeks"] == [], "no longer listed: %r" % r.json)
        _, bt = player(s, "Bob")
        b = seek(s, bt, {"game": AA})
        check(b["state"] == "open", "an expired seek pairs with nobody: %r" % b)
        a2 = seek(s, at, {"game": AA})
        check(a2["state"] == "matched" and a2["game_id"] == get(s, b["id"])["game_id"],
              "nor stops its player from seeking the same again: %r" % a2)
        r = s.request("DELETE", "/v1/seeks/%s" % a["id"], token=at)
        problem(r, 404, "unknown-seek")


@test
def a_player_holds_at_most_five_open_seeks(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        bodies = [{"game": AA}, {"game": AA, "options": {"mode": "advanced"}},
                  {"game": AA, "seats": 3}, {"game": AA, "seats": 4}, {"game": QT, "seats": 2}]
        made = [seek(s, at, b) for b in bodies]
        was = dump(s)
        problem(s.request("POST", "/v1/seeks", {"game": QT, "seats": 3}, token=at), 409, "too-many-seeks")
        check(dump(s) == was, "the sixth changes nothing")
        r = s.request("DELETE", "/v1/seeks/%s" % made[0]["id"], token=at)
        check(r.status == 204, "cancel one: %r" % r)
        check(seek(s, at, {"game": QT, "seats": 3})["state"] == "open", "then a sixth fits")


@test
def a_seek_is_cancelled_by_its_player_only(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        a = seek(s, at, {"game": AA})
        was = dump(s)
        problem(s.request("DELETE", "/v1/seeks/%s" % a["id"], token=bt), 403, "forbidden")
        problem(s.request("DELETE", "/v1/seeks/%s" % a["id"]), 401, "unauthorized")
        problem(s.request("DELETE", "/v1/seeks/0123456789abcdef", token=at), 404, "unknown-seek")
        problem(s.request("GET", "/v1/seeks/0123456789abcdef"), 404, "unknown-seek")
        problem(s.request("GET", "/v1/seeks/nope"), 404, "unknown-seek")
        check(dump(s) == was, "refusals change nothing")
        r = s.request("DELETE", "/v1/seeks/%s" % a["id"], token=at)
        check(r.status == 204 and not r.raw, "cancelled: %r" % r)
        check(get(s, a["id"])["state"] == "cancelled", "shown cancelled")
        problem(s.request("DELETE", "/v1/seeks/%s" % a["id"], token=at), 404, "unknown-seek")
        b = seek(s, bt, {"game": AA})
        check(b["state"] == "open", "a cancelled seek pairs with nobody: %r" % b)


@test
def blocked_players_are_never_paired(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        r = s.request("PUT", "/v1/players/me/blocks/%s" % bob, token=at)
        check(r.status == 204, "Alice blocks Bob: %r" % r)
        a = seek(s, at, {"game": AA})
        b = seek(s, bt, {"game": AA})
        check(b["state"] == "open", "Bob is not paired with Alice: %r" % b)
        # nor at a table of three with her
        c3 = [seek(s, t, {"game": QT, "seats": 3}) for t in (at, bt)]
        _, ct = player(s, "Carol")
        c = seek(s, ct, {"game": QT, "seats": 3})
        check(all(k["state"] == "open" for k in c3) and c["state"] == "open",
              "no table holds both: %r" % c)
        _, dt = player(s, "Dan")
        d = seek(s, dt, {"game": AA})
        check(d["state"] == "matched" and get(s, a["id"])["game_id"] == d["game_id"],
              "Dan pairs with Alice, the oldest: %r" % d)
        check(get(s, b["id"])["state"] == "open", "Bob still waits")
        # Bob blocking (the other way) is as good
        _, et = player(s, "Eve")
        r = s.request("PUT", "/v1/players/me/blocks/%s" % alice, token=et)
        e = seek(s, et, {"game": AA, "options": {"mode": "advanced"}})
        k = seek(s, at, {"game": AA, "options": {"mode": "advanced"}})
        check(e["state"] == "open" and k["state"] == "open", "Eve blocked Alice: not paired")


@test
def bad_input_is_refused_and_changes_nothing(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        seek(s, at, {"game": AA})
        was = dump(s)
        cases = [
            ({"game": AA, "options": {"colour": "red"}}, 422, "bad-options"),
            ({"game": AA, "options": {"mode": "expert"}}, 422, "bad-options"),
            ({"game": AA, "seats": 5}, 422, "bad-options"),
            ({"game": "chess"}, 422, "unknown-rules"),
            ({"game": AA, "rating_range": [300, -200]}, 400, "bad-request"),
            ({"game": AA, "rating_min": 1600, "rating_max": 1400}, 400, "bad-request"),
            ({"game": AA, "rating_range": [-200]}, 400, "bad-request"),
            ({"game": AA, "rating_range": ["-200", 300]}, 400, "bad-request"),
            ({"game": AA, "rating_range": [-200, 300], "rating_min": 1000}, 400, "bad-request"),
            ({"game": AA, "expires_in": 0}, 400, "bad-request"),
            ({"game": AA, "opponent": "me"}, 400, "bad-request"),
            ({"game": AA, "clock": {"move_seconds": 1}}, 422, "bad-options"),
            ({"seats": 2}, 400, "bad-request"),
            # seeking against oneself: the same game as one's open seek
            ({"game": AA}, 409, "seeking-oneself"),
        ]
        for body, status, slug in cases:
            problem(s.request("POST", "/v1/seeks", body, token=at), status, slug)
        problem(s.request("POST", "/v1/seeks", {"game": AA}), 401, "unauthorized")
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2})
        problem(s.request("POST", "/v1/seeks", {"game": AA}, token=r.json["seats"][0]["token"]),
                403, "forbidden")
        problem(s.request("GET", "/v1/seeks?limit=0"), 400, "bad-request")
        problem(s.request("GET", "/v1/seeks?game=chess"), 422, "unknown-rules")
        check(dump(s)[0] == was[0] and dump(s)[2] == was[2], "nothing changed")


@test
def the_listing_filters_and_pages(binary):
    with server(binary) as s:
        ids = []
        for i in range(5):
            _, t = player(s, "P%d" % i)
            ids.append(seek(s, t, {"game": AA, "seats": 3} if i % 2 else {"game": QT, "seats": 4})["id"])
        r = s.request("GET", "/v1/seeks?limit=2")
        check([k["id"] for k in r.json["seeks"]] == ids[:2] and r.json["next_after"] == ids[1],
              "the oldest first: %r" % r.json)
        r = s.request("GET", "/v1/seeks?limit=2&after=%s" % ids[1])
        check([k["id"] for k in r.json["seeks"]] == ids[2:4], "the next page: %r" % r.json)
        r = s.request("GET", "/v1/seeks?game=%s" % AA)
        check([k["id"] for k in r.json["seeks"]] == [ids[1], ids[3]], "one game's: %r" % r.json)
        problem(s.request("GET", "/v1/seeks?after=0123456789abcdef"), 400, "bad-request")


@test
def export_and_deletion_cover_seeks(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        a = seek(s, at, {"game": AA})
        r = s.request("GET", "/v1/players/me/export", token=at)
        check(r.status == 200 and [k["id"] for k in r.json["seeks"]] == [a["id"]],
              "exported: %r" % r.json.get("seeks"))
        r = s.request("DELETE", "/v1/players/me", token=at)
        check(r.status == 204, "deleted: %r" % r)
        check(s.query("SELECT count(*) FROM seeks")[0][0] == 0, "the seeks are gone")


@test
def a_banned_players_seeks_are_cancelled(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        a = seek(s, at, {"game": AA})
        cmd = [s.binary, "admin"] + s.store_args() + ["--json", "ban", alice, "--reason", "spam"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, "ban: %s%s" % (p.stdout, p.stderr))
        check(get(s, a["id"])["state"] == "cancelled", "her seek is cancelled")
        b = seek(s, bt, {"game": AA})
        check(b["state"] == "open", "and pairs with nobody: %r" % b)


def race_tables(binary, game, seats, tables):
    """`tables` groups of `seats` players; each group seeks a game of its
    own (a clock of its own makes it a pool of its own) at the same
    moment, its seeks spread over two nodes (on PostgreSQL; one node on
    SQLite), 8 groups at a time.  No seek can be paired but with its
    group: a seek left open was lost (the others' inserts missed each
    other), one in two games was paired twice.  Every seek must end
    matched, each game holding its group."""
    a = Server(binary)
    b = None
    try:
        b = Server(binary, db=a.db) if POSTGRES else a
        nodes = [a, b]
        groups = [[player(nodes[i % 2], "P%d-%d" % (k, i)) for i in range(seats)]
                  for k in range(tables)]
        todo = list(range(tables))
        lock = threading.Lock()
        answers = []

        def one(node, token, body, go):
            go.wait()
            r = node.request("POST", "/v1/seeks", body, token=token)
            with lock:
                answers.append(r)

        def work():
            while True:
                with lock:
                    if not todo:
                        return
                    k = todo.pop()
                body = {"game": game, "seats": seats, "clock": {"move_seconds": 60 + k}}
                go = threading.Barrier(seats)
                them = [threading.Thread(target=one, args=(nodes[i % 2], t, body, go))
                        for i, (_, t) in enumerate(groups[k])]
                [t.start() for t in them]
                [t.join() for t in them]
        threads = [threading.Thread(target=work) for _ in range(8)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        check(len(answers) == seats * tables and all(r.status == 201 for r in answers),
              "every seek is taken: %r" % [r for r in answers if r.status != 201][:3])
        rows = a.query("SELECT k.state, k.game, p.id FROM seeks k JOIN players p ON "
                       "p.key = k.player_key")
        check(len(rows) == seats * tables, "all stored: %d" % len(rows))
        check(all(st == "matched" for st, _, _ in rows),
              "none is left open: %r" % [r for r in rows if r[0] != "matched"][:6])
        per_game = {}
        for _, gid, pid in rows:
            per_game.setdefault(gid, set()).add(pid)
        want = sorted(sorted(p for p, _ in g) for g in groups)
        check(sorted(sorted(v) for v in per_game.values()) == want,
              "each game holds one group: %r" % [v for v in per_game.values() if len(v) != seats][:3])
        seated = a.query("SELECT g.id, p.id FROM seats s JOIN games g ON g.key = s.game_key "
                         "JOIN players p ON p.key = s.player_key")
        check(sorted(seated) == sorted((g, p) for g, ps in per_game.items() for p in ps),
              "the games' seats are the seeks' players")
    finally:
        if b is not None and b is not a:
            b.stop()
        if a.proc.poll() is None:
            a.stop()
        a.cleanup()


@test
def hundreds_of_concurrent_seeks_pair_each_at_most_once(binary):
    """120 pairs, each pair's two seeks at once, one on each node (fails
    without the pool lock: docs/matchmaking.md, "Pairing")."""
    race_tables(binary, AA, 2, 120)


@test
def concurrent_tables_of_four_fill_each_at_most_once(binary):
    """30 tables of Quantum for 4, each table's four seeks at once, two on
    each node."""
    race_tables(binary, QT, 4, 30)


if __name__ == "__main__":
    run_all("seeks")
