"""test_players.py: play by turn — players, open seats and joining, a
player's games, Idempotency-Key retries, resigning.  Real binary, real
SQLite file.  Usage: test_players.py BOARDD [test names...]"""
import random
import re
import subprocess
import threading
import time

from harness import check, run_all, test
from gamehelp import AA, actions, game, move, server


def new_player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def create_seated(s, token, seating, status=201):
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "seating": seating}, token=token)
    check(r.status == status, "create: %r" % r)
    return r


@test
def names_follow_the_nickname_profile(binary):
    """Issue 34 finding 10, RFC 8266 (PRECIS Nickname): " ", a
    right-to-left override (U+202E) and a zero-width space (U+200B) were
    accepted as names.  Names are now mapped (spaces of any kind to one
    U+0020, trimmed; NFKC) and refused (400, nothing stored) when empty or
    holding a control, bidi, zero-width or unassigned code point; a
    token's label follows the same rules."""
    with server(binary) as s:
        for name in (" ", "\u3000\u00a0", "Ann\u202egnp.exe", "A\u200bnn", "\u2066Ann\u2069",
                     "Ann\ufeff", "Ann\u0378", "Ann\ue000"):
            r = s.request("POST", "/v1/players", {"name": name})
            check(r.status == 400 and r.json["type"] == "urn:boardd:problem:bad-request",
                  "name %r: %r" % (name, r))
        r = s.request("POST", "/v1/players", {"name": "A\u200bnn"})
        check("U+200B" in r.json["detail"], "the detail names the code point: %r" % r)
        # RFC 8266 §4's examples, as enforced (case is kept)
        for name, want in (("Foo Bar", "Foo Bar"), ("\u03d4", "\u03ab"), ("Richard \u2163", "Richard IV"),
                           ("  St\u00a0\u00a0Peter ", "St Peter"), ("\uff21nn", "Ann")):
            r = s.request("POST", "/v1/players", {"name": name})
            check(r.status == 201 and r.json["name"] == want, "name %r: %r" % (name, r))
            me = s.request("GET", "/v1/players/me", token=r.json["token"])
            check(me.json["name"] == want, "stored as %r: %r" % (want, me))
        tok = r.json["token"]
        for label in (" ", "a\u202eb"):
            r = s.request("POST", "/v1/players/me/tokens", {"label": label}, token=tok)
            check(r.status == 400, "label %r: %r" % (label, r))
        r = s.request("POST", "/v1/players/me/tokens", {"label": " phone\u2003 two "}, token=tok)
        check(r.status == 201 and r.json["label"] == "phone two", "label mapped: %r" % r)


@test
def players_find_each_other_through_an_open_seat(binary):
    """Two players who never share a token play a whole game."""
    rng = random.Random(5)
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        me = s.request("GET", "/v1/players/me", token=at)
        check(me.status == 200 and me.json["id"] == alice and me.json["name"] == "Alice"
              and "token" not in me.json, "players/me: %r" % me)
        gid = create_seated(s, at, ["me", "open"]).json["id"]
        g = game(s, gid, at)
        check(g["status"] == "waiting" and g["to_act"] == [], "waiting, nobody acts: %r" % g)
        check(actions(s, gid, at) == [], "no actions while waiting")
        r = move(s, gid, at, {"type": "play", "face_up": "enforcer", "face_down": "mole"})
        check(r.status == 409 and r.json["type"].endswith(":waiting-for-players"), "no moves while waiting: %r" % r)
        listed = s.request("GET", "/v1/games?status=waiting").json["games"]
        check([x["id"] for x in listed] == [gid] and listed[0]["open_seats"] == 1, "listed with an open seat")
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 200 and r.json["seat"] == 1 and r.json["status"] == "active", "join: %r" % r)
        check("token" not in r.json, "a player needs no seat token")
        g = game(s, gid, bt)
        check(g["status"] == "active" and g["you"] == 1, "bob sits at seat 1")
        check([p["player"]["name"] for p in g["players"]] == ["Alice", "Bob"], "players named")
        tokens = {0: at, 1: bt}
        for _ in range(200):
            g = game(s, gid, at)
            if g["status"] == "finished":
                break
            seat = g["to_act"][0]
            r = move(s, gid, tokens[seat], rng.choice(actions(s, gid, tokens[seat])))
            check(r.status == 201, "move: %r" % r)
        check(g["status"] == "finished", "the game ends")


@test
def a_newcomer_joins_without_an_account(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA, "seating": ["token", "open"]})
        gid = r.json["id"]
        check(r.json["seats"][1] == {"seat": 1, "open": True}, "open seat in the answer: %r" % r.json)
        r = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 1})
        check(r.status == 200 and len(r.json["token"]) >= 22, "newcomer gets a seat token: %r" % r)
        check(game(s, gid, r.json["token"])["you"] == 1, "the token works")
        r = s.request("POST", "/v1/games/%s/join" % gid)
        check(r.status == 409 and r.json["type"].endswith(":seat-taken"), "full: %r" % r)


@test
def invited_seat_is_only_for_the_invitee(binary):
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        carol, ct = new_player(s, "Carol")
        gid = create_seated(s, at, ["me", {"invite": bob}]).json["id"]
        r = s.request("POST", "/v1/games/%s/join" % gid, {"seat": 1}, token=ct)
        check(r.status == 403, "carol may not take bob's seat: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=at)
        check(r.status == 409, "alice already sits here: %r" % r)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 200 and r.json["seat"] == 1, "bob joins: %r" % r)
        r = create_seated(s, at, ["me", {"invite": "ffffffffffffffff"}], status=400)
        check(r.json["type"].endswith(":bad-request"), "unknown invitee")
        create_seated(s, None, ["me", "open"], status=401)
        create_seated(s, at, ["me", "me"], status=400)
        create_seated(s, at, ["open"], status=400)


@test
def racing_joins_for_the_last_seat(binary):
    with server(binary, extra=["--threads", "2"]) as s:
        _, at = new_player(s, "Host")
        gid = create_seated(s, at, ["me", "open"]).json["id"]
        players = [new_player(s, "P%d" % i)[1] for i in range(12)]
        results = []

        def join(tok):
            r = s.request("POST", "/v1/games/%s/join" % gid, token=tok, validate=False)
            results.append(r.status)

        threads = [threading.Thread(target=join, args=(t,)) for t in players]
        [t.start() for t in threads]
        [t.join() for t in threads]
        check(results.count(200) == 1, "exactly one join wins: %r" % results)
        check(results.count(409) == len(players) - 1, "the others get 409: %r" % results)
        g = game(s, gid)
        check(g["status"] == "active" and all(not p["open"] for p in g["players"]), "the game started once")


@test
def racing_joins_answer_the_status_they_commit(binary):
    """Three joins at once fill a 4-seat game: the one that takes the
    last seat must say "active", the others "waiting" (before: all three
    often said "waiting" from the game as read before the claim)."""
    with server(binary, extra=["--threads", "4"]) as s:  # all three at once
        bad = []
        for trial in range(30):
            gid = s.request("POST", "/v1/games", {"game": "quantum", "seats": 4,
                                                  "seating": ["token", "open", "open", "open"]}).json["id"]
            out = [None] * 3
            bar = threading.Barrier(3)

            def run(i):
                hdr = {"Idempotency-Key": "%d-%d-%032x" % (trial, i, random.getrandbits(128))} \
                    if trial % 2 else {}
                bar.wait()
                out[i] = s.request("POST", "/v1/games/%s/join" % gid, raw=b"", headers=hdr)
            ths = [threading.Thread(target=run, args=(i,)) for i in range(3)]
            for th in ths:
                th.start()
            for th in ths:
                th.join()
            check(all(r.status == 200 for r in out), "joins: %r" % out)
            seats = sorted(r.json["seat"] for r in out)
            check(seats == [1, 2, 3], "three seats: %r" % seats)
            status = sorted(r.json["status"] for r in out)
            if status != ["active", "waiting", "waiting"]:
                bad.append((trial, status))
            g = s.request("GET", "/v1/games/%s" % gid).json
            check(g["status"] == "active", "the game is active")
        check(not bad, "stale statuses in %d of 30 trials: %r" % (len(bad), bad[:5]))


@test
def my_games_and_my_turn(binary):
    with server(binary) as s:
        _, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        ids = []
        for i in range(5):
            gid = create_seated(s, at, ["me", {"invite": bob}]).json["id"]
            s.request("POST", "/v1/games/%s/join" % gid, token=bt)
            ids.append(gid)
        mine = s.request("GET", "/v1/players/me/games", token=at)
        check(mine.status == 200 and len(mine.json["games"]) == 5, "five games: %r" % mine)
        turn_a = {g["id"] for g in s.request("GET", "/v1/players/me/games?my_turn=true", token=at).json["games"]}
        turn_b = {g["id"] for g in s.request("GET", "/v1/players/me/games?my_turn=true", token=bt).json["games"]}
        check(turn_a | turn_b == set(ids) and not (turn_a & turn_b), "each game is one player's turn")
        for gid in ids:
            g = game(s, gid, at)
            check((gid in turn_a) == (g["to_act"] == [g["you"]]), "my_turn agrees with to_act")
        etag = mine.headers["etag"]
        r = s.request("GET", "/v1/players/me/games", token=at, headers={"If-None-Match": etag})
        check(r.status == 304, "304 when nothing changed: %r" % r)
        # First players are random: in 1 game of 32 every game is Bob's turn.
        gid, mover = (sorted(turn_a)[0], at) if turn_a else (sorted(turn_b)[0], bt)
        move(s, gid, mover, actions(s, gid, mover)[-1])
        r = s.request("GET", "/v1/players/me/games", token=at, headers={"If-None-Match": etag})
        check(r.status == 200 and r.json["games"][0]["id"] == gid, "changed, newest activity first")
        page = s.request("GET", "/v1/players/me/games?limit=2", token=at).json
        rest = s.request("GET", "/v1/players/me/games?limit=10&cursor=" + page["next_cursor"], token=at).json
        check(len(page["games"]) + len(rest["games"]) == 5 and
              not ({g["id"] for g in page["games"]} & {g["id"] for g in rest["games"]}), "cursor pages")
        for bad in ("status=won", "my_turn=yes", "limit=0", "cursor=x"):
            check(s.request("GET", "/v1/players/me/games?" + bad, token=at).status == 400, bad)
        check(s.request("GET", "/v1/players/me/games").status == 401, "needs a token")


@test
def retries_with_an_idempotency_key_land_once(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA}, headers={"Idempotency-Key": "create-1"})
        check(r.status == 400, "a short key without a token is guessable: %r" % r)
        key = {"Idempotency-Key": "5b1f0c7e-2f7a-4a47-9d7e-6c0f3f1d2a90"}
        body = {"game": AA, "seats": 2}
        r1 = s.request("POST", "/v1/games", body, headers=key)
        r2 = s.request("POST", "/v1/games", body, headers=key)
        check(r1.status == r2.status == 201 and r1.json == r2.json, "same game, same tokens")
        check(r2.headers.get("idempotent-replayed") == "true", "marked as a replay")
        check(len(s.request("GET", "/v1/games").json["games"]) == 1, "one game created")
        r3 = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "options": {}}, headers=key)
        check(r3.status == 422 and r3.json["type"].endswith(":idempotency-key-reused"), "other body: %r" % r3)
        gid, tok = r1.json["id"], [x["token"] for x in r1.json["seats"]]
        seat = game(s, gid)["to_act"][0]
        act = actions(s, gid, tok[seat])[0]
        hk = {"Idempotency-Key": "move-1", "If-Match": '"0"'}
        m1 = move(s, gid, tok[seat], act, headers=hk)
        m2 = move(s, gid, tok[seat], act, headers=hk)
        check(m1.status == m2.status == 201 and m1.json == m2.json, "the retry returns the first answer")
        check(game(s, gid)["seq"] == 1, "the move landed once")
        check(len(s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]) == 1, "one move in the log")
        r = move(s, gid, tok[seat], act, headers={"Idempotency-Key": "x" * 300})
        check(r.status == 400, "over-long key: %r" % r)


@test
def resigning(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA})
        gid, tok = r.json["id"], [x["token"] for x in r.json["seats"]]
        waiting = game(s, gid)["to_act"][0]
        other = 1 - waiting
        r = s.request("POST", "/v1/games/%s/resign" % gid)
        check(r.status == 401, "resign needs a token")
        r = move(s, gid, tok[other], {"type": "resign"})
        check(r.status == 400, "resign is its own endpoint: %r" % r)
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=tok[other])
        check(r.status == 201 and r.json["status"] == "finished", "resign off turn ends it: %r" % r)
        check(r.json["result"] == {"winners": [waiting], "reason": "resignation"}, "the other seat wins")
        check(r.json["players"][other]["resigned"] is True, "shown as resigned")
        log = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
        log = [{k: v for k, v in m.items() if k != "time"} for m in log]  # when: test_display
        check(log == [{"seq": 1, "seat": other, "action": {"type": "resign"}, "outcome": {}}], "logged: %r" % log)
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=tok[waiting])
        check(r.status == 409 and r.json["type"].endswith(":game-over"), "over: %r" % r)
        s.kill()
        s.start()
        check(game(s, gid)["result"]["reason"] == "resignation", "replays after restart")
        t = time.monotonic()
        # at once: well before its wait (a first read just after a start
        # on a loaded machine may take more than the 1 s bound this had)
        r = s.request("GET", "/v1/games/%s?wait=60" % gid)
        check(r.status == 200 and time.monotonic() - t < 30, "a long-poll on a finished game answers at once")


@test
def a_resigned_quantum_seat_is_played_at_random(binary):
    """Three seats: one resigns, the game goes on; the server takes its
    decisions (uniformly random legal actions, logged as moves of their own
    with "by":"resigned", so the log replays to the same game)."""
    rng = random.Random(3)
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": "quantum", "seats": 3})
        gid, tok = r.json["id"], [x["token"] for x in r.json["seats"]]
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=tok[1])
        check(r.status == 201 and r.json["status"] == "active", "the game goes on: %r" % r)
        check(r.json["players"][1]["resigned"] and 1 not in r.json["to_act"], "seat 1 never waits")
        for _ in range(150):
            g = game(s, gid, tok[0])
            if g["status"] == "finished":
                break
            check(1 not in g["to_act"] and g["to_act"], "only live seats act: %r" % g["to_act"])
            seat = rng.choice(g["to_act"])
            r = move(s, gid, tok[seat], rng.choice(actions(s, gid, tok[seat])))
            check(r.status == 201, "move: %r" % r)
        check(actions(s, gid, tok[1]) == [], "the resigned seat has no actions")
        log = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
        check(all((m["seat"] == 1) == (m.get("by") == "resigned") for m in log[1:]) and
              any(m["seat"] == 1 for m in log[1:]),
              "its decisions are logged moves, by:resigned, and nobody else's are")
        before = game(s, gid, tok[0])
        s.kill()
        s.start()
        after = game(s, gid, tok[0])
        before.pop("updated"), after.pop("updated")
        check(before == after, "the log replays to the same game")


@test
def bad_player_requests(binary):
    with server(binary) as s:
        for body in ({"name": ""}, {"name": "x" * 65}, {"name": "a\nb"}, {"name": 3}, {}, {"name": "A", "x": 1}):
            r = s.request("POST", "/v1/players", body)
            check(r.status == 400, "%r -> %r" % (body, r))
        check(s.request("GET", "/v1/players/me").status == 401, "me needs a token")
        check(s.request("GET", "/v1/players/me", token="A" * 43).status == 403, "unknown token")
        r = s.request("POST", "/v1/games", {"game": AA})
        seat_token = r.json["seats"][0]["token"]
        check(s.request("GET", "/v1/players/me", token=seat_token).status == 403, "a seat token is no player")
        _, pt = new_player(s, "Eve")
        g = s.request("GET", "/v1/games/%s" % r.json["id"], token=pt)
        check(g.status == 200 and g.json["you"] is None, "an unseated player looks on as a spectator")
        check(s.request("GET", "/v1/games/%s/actions" % r.json["id"], token=pt).status == 403, "but has no actions")



@test
def players_are_found_by_a_prefix_of_their_name(binary):
    """Issue 31 goal 6: an invitation names a player found by name, not a
    16-digit id.  GET /v1/players?name=PREFIX: case-insensitive prefix,
    ordered, limited; deleted players are not found; bad input is 400."""
    with server(binary) as s:
        ids = {n: new_player(s, n)[0] for n in ("Alice", "alina", "Bob", "ALBERT", "Zed")}
        r = s.request("GET", "/v1/players?name=al")
        check(r.status == 200, "find: %r" % r)
        check([p["name"] for p in r.json["players"]] == ["ALBERT", "Alice", "alina"], "%r" % r.json)
        check(r.json["players"][1]["id"] == ids["Alice"] and "token" not in r.json["players"][1],
              "id, name, created, no token: %r" % r.json)
        r = s.request("GET", "/v1/players?name=AL&limit=1")
        check([p["name"] for p in r.json["players"]] == ["ALBERT"], "limit: %r" % r.json)
        check(s.request("GET", "/v1/players?name=q").json["players"] == [], "none")
        _, zt = new_player(s, "Zoe")
        check(len(s.request("GET", "/v1/players?name=z").json["players"]) == 2, "two Z")
        check(s.request("DELETE", "/v1/players/me", token=zt).status == 204, "delete")
        check([p["name"] for p in s.request("GET", "/v1/players?name=z").json["players"]] == ["Zed"],
              "a deleted player is not found")
        for q in ("", "?name=", "?name=%20", "?name=a&limit=0", "?name=a&limit=51", "?name=a&limit=x",
                  "?name=" + "a" * 65):
            r = s.request("GET", "/v1/players" + q)
            check(r.status == 400 and r.json["type"] == "urn:boardd:problem:bad-request", "%s: %r" % (q, r))


@test
def a_link_code_signs_another_device_in_once(binary):
    """Issue 31 goal 6: a signed-in player makes a short code; another
    device claims it (no token) and gets a token of its own for the same
    player.  Once only; case, dashes and look-alikes (O, I, L) forgiven;
    wrong, used and expired codes get one answer; at most 5 live."""
    with server(binary) as s:
        pid, t = new_player(s, "Ann")
        r = s.request("POST", "/v1/players/me/link-codes", token=t)
        check(r.status == 201 and len(r.json["code"]) == 9 and r.json["code"][4] == "-", "code: %r" % r)
        check(set(r.json["code"].replace("-", "")) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ"), "%r" % r.json)
        check(s.request("POST", "/v1/players/me/link-codes").status == 401, "making one needs a token")
        code = r.json["code"]
        typed = code.replace("-", "").lower().replace("0", "o").replace("1", "l")
        r = s.request("POST", "/v1/link-codes/claim", {"code": typed})
        check(r.status == 201 and r.json["player"]["id"] == pid and r.json["player"]["name"] == "Ann",
              "claim: %r" % r)
        t2 = r.json["token"]
        check(t2 != t and s.request("GET", "/v1/players/me", token=t2).json["id"] == pid, "the same player")
        labels = [x["label"] for x in s.request("GET", "/v1/players/me/tokens", token=t).json["tokens"]]
        check("linked device" in labels, "listed among the tokens: %r" % labels)
        wrong = []
        for body in ({"code": code}, {"code": "ZZZZ-ZZZZ"}, {"code": "UUUU-UUUU"}, {"code": "12345"}):
            r = s.request("POST", "/v1/link-codes/claim", body)
            check(r.status == 422 and r.json["type"] == "urn:boardd:problem:invalid-link-code", "%r: %r" % (body, r))
            wrong.append(r.json["detail"])
        check(len(set(wrong)) == 1, "one answer for all: %r" % wrong)
        # expired: the code's row moved into the past
        code = s.request("POST", "/v1/players/me/link-codes", token=t).json["code"]
        s.query("UPDATE link_codes SET expires_ms = 1")
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 422 and r.json["detail"] == wrong[0], "expired: %r" % r)
        for i in range(5):
            check(s.request("POST", "/v1/players/me/link-codes", token=t).status == 201, "live %d" % i)
        r = s.request("POST", "/v1/players/me/link-codes", token=t)
        check(r.status == 409 and r.json["type"] == "urn:boardd:problem:too-many-link-codes", "sixth: %r" % r)
        check(s.query("SELECT count(*) FROM link_codes")[0][0] == 5, "the expired one pruned, nothing added")
        for body in ({}, {"code": 3}, {"code": "x" * 65}, {"code": "ABCD-EFGH", "x": 1}):
            r = s.request("POST", "/v1/link-codes/claim", body)
            check(r.status == 400, "%r: %r" % (body, r))


def decoded_qr(svg):
    """The text of the QR code in an SVG document, as two programs not
    ours read it: librsvg's rsvg-convert renders it to PNG, zbar's
    zbarimg decodes that (tools/deps.sh installs both)."""
    png = subprocess.run(["rsvg-convert", "--format", "png"], input=svg.encode(), capture_output=True,
                         check=True).stdout
    r = subprocess.run(["zbarimg", "--quiet", "--raw", "-"], input=png, capture_output=True)
    check(r.returncode == 0, "zbarimg read no code: %r" % r.stderr[-300:])
    return r.stdout.decode().strip()


@test
def a_link_codes_qr_code_opens_its_claim_url(binary):
    """Issue 31 goal 6, a second device linked by a QR code: given the
    web client's origin, the link code's answer adds the claim URL (the
    code in its fragment, which no request carries) and that URL's QR
    code as an SVG that a Content-Security-Policy of style-src 'self'
    draws.  A body of another shape, or an origin that is not one, is a
    problem+json 400 and makes no code."""
    with server(binary) as s:
        pid, t = new_player(s, "Ann")
        for origin in ("http://127.0.0.1:%d" % s.port, "https://play.example.org/"):
            r = s.request("POST", "/v1/players/me/link-codes", {"origin": origin}, token=t)
            check(r.status == 201, "%s: %r" % (origin, r))
            url = origin.rstrip("/") + "/#/link?code=" + r.json["code"]
            check(r.json["claim_url"] == url, "claim_url: %r" % r.json)
            svg = r.json["qr_svg"]
            check(svg.startswith("<svg ") and "style" not in svg and "<script" not in svg, "svg: %r" % svg[:200])
            check(decoded_qr(svg) == url, "the QR code reads the claim URL")
            # modules of 6 CSS pixels: width = (modules + 8 of quiet zone) * 6
            side = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
            check(re.search(r'width="(\d+)"', svg).group(1) == str(side * 6) and side >= 21 + 8, svg[:200])
        r = s.request("POST", "/v1/players/me/link-codes", token=t)
        check(r.status == 201 and set(r.json) == {"code", "expires_at"}, "no body, no QR code: %r" % r)
        before = s.query("SELECT count(*) FROM link_codes")[0][0]
        for body in ({"origin": "ftp://example.org"}, {"origin": "http://example.org/path"},
                     {"origin": "https://example.org/?q=1"}, {"origin": "https://example.org#x"},
                     {"origin": "https://user:pw@example.org"}, {"origin": "example.org"},
                     {"origin": "http://exa mple.org"}, {"origin": "http://\u00e9.example"},
                     {"origin": ""}, {"origin": "https://" + "a" * 160 + ".org"}, {"origin": 7},
                     {"origin": None}, {"origin": "https://example.org", "size": 9},
                     # an empty fragment or query is one too (libcurl reads "#" alone as none)
                     {"origin": "https://example.org#"}, {"origin": "https://example.org/#"},
                     {"origin": "https://example.org?"}):
            r = s.request("POST", "/v1/players/me/link-codes", body, token=t)
            check(r.status == 400 and r.headers.get("content-type", "").startswith("application/problem+json")
                  and r.json["type"] == "urn:boardd:problem:bad-request", "%r: %r" % (body, r))
        check(s.query("SELECT count(*) FROM link_codes")[0][0] == before, "no code made by a refusal")
        # the code in the URL signs another device in
        r = s.request("POST", "/v1/players/me/link-codes", {"origin": "https://play.example.org"}, token=t)
        code = decoded_qr(r.json["qr_svg"]).split("code=")[1]
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 201 and r.json["player"]["id"] == pid, "claimed: %r" % r)


@test
def a_link_code_of_a_player_with_every_token_gets_409_and_changes_nothing(binary):
    """A player holding STORE_TOKENS_MAX (50) tokens cannot be given a
    51st by a link code: 409 too-many-tokens (a cap, not a rate: no
    Retry-After; before, 429 without one), and nothing changes: the code
    is still there. A revocation ends every live code (the test below),
    so a code made after one signs the device in."""
    with server(binary) as s:
        _, t = new_player(s, "Ann")
        for i in range(49):
            check(s.request("POST", "/v1/players/me/tokens", token=t).status == 201, "token %d" % i)
        code = s.request("POST", "/v1/players/me/link-codes", token=t).json["code"]
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 409 and r.json["type"] == "urn:boardd:problem:too-many-tokens"
              and "retry-after" not in r.headers, "full: %r" % r)
        check(s.query("SELECT count(*) FROM link_codes")[0][0] == 1
              and s.query("SELECT count(*) FROM player_tokens")[0][0] == 50, "nothing changed")
        one = s.request("GET", "/v1/players/me/tokens", token=t).json["tokens"][1]["id"]
        check(s.request("DELETE", "/v1/players/me/tokens/" + one, token=t).status == 204, "revoke one")
        code = s.request("POST", "/v1/players/me/link-codes", token=t).json["code"]
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 201 and r.json["player"]["name"] == "Ann", "a new code, now: %r" % r)


@test
def an_erased_players_link_codes_go_with_them(binary):
    """The link codes go with the account (DELETE /v1/players/me)."""
    with server(binary) as s:
        _, t = new_player(s, "Ann")
        code = s.request("POST", "/v1/players/me/link-codes", token=t).json["code"]
        _, other = new_player(s, "Bea")
        s.request("POST", "/v1/players/me/link-codes", token=other)
        check(s.request("DELETE", "/v1/players/me", token=t).status == 204, "delete")
        check(s.query("SELECT count(*) FROM link_codes")[0][0] == 1, "only Bea's left")
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 422, "gone: %r" % r)

@test
def revoking_a_token_or_banning_ends_the_players_link_codes(binary):
    """A code made with a token that is then revoked (the owner's DELETE
    .../tokens/{id} of a stolen token, `boardd admin revoke`) or by a
    player then banned cannot be claimed: 422, and no token is made
    (before the fix: the codes outlived the revocation, so a stolen
    token's holder signed in again with one, and a ban's codes worked
    again after the unban)."""
    def admin(s, *args):
        p = subprocess.run([binary, "admin"] + s.store_args() + list(args),
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, "admin %s: %s%s" % (args[0], p.stdout, p.stderr))

    def refused(s, code, what):
        r = s.request("POST", "/v1/link-codes/claim", {"code": code})
        check(r.status == 422 and r.json["type"] == "urn:boardd:problem:invalid-link-code",
              "%s: %r" % (what, r))

    with server(binary) as s:
        ann, t = new_player(s, "Ann")
        r = s.request("POST", "/v1/players/me/tokens", {"label": "stolen"}, token=t)
        check(r.status == 201, "token: %r" % r)
        code = s.request("POST", "/v1/players/me/link-codes", token=r.json["token"]).json["code"]
        check(s.request("DELETE", "/v1/players/me/tokens/" + r.json["id"], token=t).status == 204,
              "revoked")
        refused(s, code, "a revoked token's code")
        code = s.request("POST", "/v1/players/me/link-codes", token=t).json["code"]
        admin(s, "revoke", ann, "--reason", "stolen")
        refused(s, code, "after admin revoke")
        bea, bt = new_player(s, "Bea")
        code = s.request("POST", "/v1/players/me/link-codes", token=bt).json["code"]
        admin(s, "ban", bea, "--reason", "abuse")
        admin(s, "unban", bea)
        refused(s, code, "after a ban and an unban")
        check(s.query("SELECT count(*) FROM link_codes")[0][0] == 0, "none left")


if __name__ == "__main__":
    run_all("players")
