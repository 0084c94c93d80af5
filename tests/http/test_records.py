"""test_records.py: game records (docs/records.md) and verifiable shuffles
(docs/shuffles.md): GET /v1/games/{id}/record, POST /v1/games with
"record", the commitment published at creation and the secret revealed
at the end (never before), and tools/verify-record."""
import copy
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_all, test  # noqa: E402
from gamehelp import create_game, move_log, player_token, read_stream, server  # noqa: E402

AA, QT = "agent-avenue", "quantum"


def play(s, gid, tokens, rng, moves=None):
    """Random listed actions until the game ends or `moves` were made;
    then every seat but the last resigns (a finished game either way)."""
    n = 0
    while True:
        g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0], validate=False).json
        if g["status"] == "finished":
            return g
        if moves is not None and n >= moves:
            for t in tokens[:-1]:
                r = s.request("POST", "/v1/games/%s/resign" % gid, {}, token=t, validate=False)
                check(r.status in (200, 201), "resign: %r" % r)
            continue
        seat = rng.choice(g["to_act"])
        acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat], validate=False).json
        a = rng.choice(acts["actions"])
        a.pop("label", None)
        r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tokens[seat],
                      headers={"If-Match": '"%d"' % g["seq"]}, validate=False)
        check(r.status == 201, "listed action refused: %r" % r)
        n += 1


def record(s, gid):
    r = s.request("GET", "/v1/games/%s/record" % gid)
    check(r.status == 200, "record: %r" % r)
    return r.json


def imported(s, rec, status=201, **kw):
    r = s.request("POST", "/v1/games", {"record": rec}, **kw)
    check(r.status == status, "import: %r" % r)
    return r


def public(s, gid):
    """What everyone sees of a finished game: the spectator's game object
    (without its id and the import flag) and its move log."""
    g = s.request("GET", "/v1/games/%s" % gid).json
    for k in ("id", "imported", "players"):
        g.pop(k)
    return g, move_log(s, gid)


def declared(s, path, size):
    """POSTs to path a head that declares a body of `size` bytes and sends
    none (a cap is checked on the head): (status, problem json or {})."""
    c = socket.create_connection(("127.0.0.1", s.port), timeout=30)
    try:
        c.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (path.encode(), size))
        c.shutdown(socket.SHUT_WR)
        data = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
    finally:
        c.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    try:
        return status, json.loads(body)
    except ValueError:
        return status, {}


def verify(binary, rec):
    exe = os.path.join(os.path.dirname(os.path.abspath(binary)), "verify-record")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rec, f)
    try:
        p = subprocess.run([exe, f.name], capture_output=True, timeout=120)
    finally:
        os.unlink(f.name)
    lines = p.stdout.decode().splitlines()
    check(len(lines) == 1, "verify-record prints one line: %r" % p.stdout)
    return p.returncode, lines[0]


GAMES = [(AA, {}, 2, None), (AA, {}, 3, None), (AA, {"mode": "advanced"}, 2, None),
         (AA, {"mode": "advanced"}, 4, None), (QT, {}, 2, 40), (QT, {}, 3, 30), (QT, {}, 4, 20)]


def finished_games(s, rng):
    out = []
    for game, options, seats, moves in GAMES:
        gid, tokens = create_game(s, game, seats, options)
        play(s, gid, tokens, rng, moves)
        out.append((game, options, seats, gid, tokens))
    return out


@test
def export_import_gives_identical_views(binary):
    rng = random.Random(12)
    with server(binary) as s:
        for game, options, seats, gid, tokens in finished_games(s, rng):
            what = "%s %r %d seats" % (game, options, seats)
            rec = record(s, gid)
            check(rec["format"] == "boardd-record/1" and rec["game"] == game and
                  rec["seats"] == seats and rec["options"] == options, "%s: header %r" % (what, rec))
            g = s.request("GET", "/v1/games/%s" % gid).json
            check(rec["result"] == g["result"] and rec["secret"] == g["secret"] and
                  rec["salt"] == g["salt"] and rec["commitment"] == g["commitment"],
                  "%s: the record's result and secret are the game's" % what)
            log = move_log(s, gid)["moves"]
            check([(m["seq"], m["seat"], m["action"], m["time"]) for m in rec["moves"]] ==
                  [(m["seq"], m["seat"], m["action"], m["time"]) for m in log],
                  "%s: the record's moves are the log as everyone sees it after the end" % what)
            r = imported(s, rec)
            new = r.json["id"]
            check(new != gid and r.json["imported"] is True, "%s: a new id" % what)
            check(public(s, new) == public(s, gid), "%s: identical views after import" % what)
            again = record(s, new)
            check({k: v for k, v in again.items() if k != "id"} ==
                  {k: v for k, v in rec.items() if k not in ("id", "players")} |
                  {"players": again["players"]}, "%s: the imported game's record is the same" % what)
            mv = s.request("POST", "/v1/games/%s/resign" % new, {}, token=tokens[0], validate=False)
            check(mv.status in (401, 403, 409), "%s: an imported game is read-only: %r" % (what, mv))
            code, line = verify(binary, rec)
            check(code == 0 and line.startswith("OK"), "%s: verify-record accepts it: %s" % (what, line))


def first_failing(s, rec, want_move, what):
    r = imported(s, rec, status=422)
    check(r.json["type"] == "urn:boardd:problem:bad-record", "%s: bad-record: %r" % (what, r.json))
    check(r.json.get("move") == want_move, "%s: names move %r: %r" % (what, want_move, r.json))
    return r


def count_games(s):
    return len(s.request("GET", "/v1/games?limit=100", validate=False).json["games"])


@test
def a_whole_quantum_game_imports(binary):
    """A Quantum game played to its end (two random bots: a few thousand
    moves) has a record over the 64 KiB that other requests may send:
    POST /v1/games takes up to 1 MiB (HTTP_RECORD_BODY_MAX), so it imports
    whole; a body over that cap is a 413 that names its limit."""
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": QT, "seating": [{"bot": "random"}, {"bot": "random"}]},
                      token=player_token(s))
        check(r.status == 201, "create: %r" % r)
        gid = r.json["id"]
        end = time.monotonic() + 600
        while s.request("GET", "/v1/games/%s" % gid).json["status"] != "finished":
            check(time.monotonic() < end, "the bots did not finish in 600 s")
            time.sleep(0.5)
        rec = record(s, gid)
        size = len(json.dumps({"record": rec}))
        check(size > 64 * 1024, "a whole game's record is over 64 KiB: %d bytes" % size)
        new = imported(s, rec).json["id"]
        check(public(s, new) == public(s, gid), "identical views after import")
        code, line = verify(binary, rec)
        check(code == 0 and line.startswith("OK"), "verify-record accepts it: %s" % line)
        print("     %d moves, a %d-byte record" % (len(rec["moves"]), size))
        for path, size, limit in (("/v1/games", 1024 * 1024 + 1, 1024 * 1024),
                                  ("/v1/games", 1024 * 1024, None),
                                  ("/v1/players", 64 * 1024 + 1, 64 * 1024)):
            status, problem = declared(s, path, size)
            check(status == 413 if limit else status != 413,
                  "%s with a %d-byte body declared: %s %r" % (path, size, status, problem))
            check(limit is None or problem.get("limit") == limit,
                  "the 413 names the limit: %r" % problem)


@test
def altered_records_are_refused_with_the_first_failing_move(binary):
    rng = random.Random(7)
    with server(binary) as s:
        games = finished_games(s, rng)
        before = count_games(s)
        for game, options, seats, gid, tokens in games:
            what = "%s/%d" % (game, seats)
            rec = record(s, gid)
            n = len(rec["moves"])
            # a move made by the wrong seat: the first failure is that move
            k = n // 2
            bad = copy.deepcopy(rec)
            bad["moves"][k]["seat"] = (bad["moves"][k]["seat"] + 1) % seats
            r = first_failing(s, bad, k, what + " wrong seat")
            code, line = verify(binary, bad)
            check(code == 1 and line.startswith("FAIL: move %d" % k), "verify-record: %s" % line)
            # an action changed into one the rules refuse there
            bad = copy.deepcopy(rec)
            bad["moves"][0]["action"] = {"type": "no-such-action"}
            first_failing(s, bad, 0, what + " changed action")
            code, line = verify(binary, bad)
            check(code == 1 and line.startswith("FAIL: move 0"), "verify-record: %s" % line)
            # a changed result
            bad = copy.deepcopy(rec)
            bad["result"]["winners"] = [w for w in range(seats) if w not in rec["result"]["winners"]]
            first_failing(s, bad, None, what + " changed result")
            code, line = verify(binary, bad)
            check(code == 1 and "result" in line, "verify-record, result: %s" % line)
            # a changed secret: the commitment no longer matches
            bad = copy.deepcopy(rec)
            bad["secret"] = ("0" if rec["secret"][0] != "0" else "1") + rec["secret"][1:]
            first_failing(s, bad, None, what + " changed secret")
            code, line = verify(binary, bad)
            check(code == 1 and "commitment" in line, "verify-record, secret: %s" % line)
            # a changed commitment
            bad = copy.deepcopy(rec)
            bad["commitment"] = hashlib.sha256(b"other").hexdigest()
            first_failing(s, bad, None, what + " changed commitment")
            code, line = verify(binary, bad)
            check(code == 1 and "commitment" in line, "verify-record, commitment: %s" % line)
            # a changed secret with its commitment recomputed: the deal is not the recorded one
            bad = copy.deepcopy(rec)
            secret = bytes(32).hex()
            bad["secret"] = secret
            bad["commitment"] = hashlib.sha256(bytes.fromhex(secret) + bytes.fromhex(rec["salt"])).hexdigest()
            first_failing(s, bad, None, what + " other secret, matching commitment")
            code, line = verify(binary, bad)
            check(code == 1 and "deal" in line, "verify-record, deal: %s" % line)
            # moves cut short: the game is not over
            bad = copy.deepcopy(rec)
            bad["moves"] = bad["moves"][:-1]
            first_failing(s, bad, None, what + " last move dropped")
        check(count_games(s) == before, "no refused import created a game")


@test
def the_secret_is_hidden_until_the_end(binary):
    rng = random.Random(3)
    with server(binary) as s:
        for game, seats in ((AA, 2), (QT, 2)):
            r = s.request("POST", "/v1/games", {"game": game, "seats": seats})
            check(r.status == 201, "create: %r" % r)
            gid, tokens = r.json["id"], [x["token"] for x in r.json["seats"]]
            g = s.request("GET", "/v1/games/%s" % gid).json
            check(g["seed_format"] == 2 and len(g["commitment"]) == 64, "a commitment at creation: %r" % g)
            check(g["secret"] is None and g["salt"] is None and g["seed"] is None, "nothing revealed")
            # a few moves in, everything any caller can read
            for _ in range(4):
                g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0], validate=False).json
                seat = g["to_act"][0]
                acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat]).json
                a = acts["actions"][0]
                a.pop("label", None)
                check(s.request("POST", "/v1/games/%s/moves" % gid, {"action": a},
                                token=tokens[seat]).status == 201, "move")
            texts = []
            for t in tokens + [None]:
                for path in ("", "/moves", "/actions", "?at=1", "/record"):
                    r = s.request("GET", "/v1/games/%s%s" % (gid, path), token=t, validate=False)
                    texts.append(r.raw.decode(errors="replace"))
                # the event stream: every event so far (one a move)
                _, _, body = read_stream(s.port, "/v1/games/%s/events?after=0" % gid, t,
                                         {"Accept": "application/x-ndjson"}, 4)
                texts.append(body.decode(errors="replace"))
            r = s.request("GET", "/v1/games/%s/record" % gid)
            check(r.status == 409 and r.json["type"] == "urn:boardd:problem:not-finished",
                  "no record while the game runs: %r" % r)
            texts.append(s.request("GET", "/v1/games?limit=100").raw.decode())
            full = s.request("GET", "/v1/games/%s" % gid).json
            for t in tokens[:-1]:
                s.request("POST", "/v1/games/%s/resign" % gid, {}, token=t, validate=False)
            end = s.request("GET", "/v1/games/%s" % gid).json
            check(end["status"] == "finished" and len(end["secret"]) == 64 and len(end["salt"]) == 64,
                  "revealed at the end: %r" % end)
            check(hashlib.sha256(bytes.fromhex(end["secret"]) + bytes.fromhex(end["salt"])).hexdigest() ==
                  full["commitment"] == end["commitment"], "the commitment is SHA-256(secret || salt)")
            for text in texts:
                check(end["secret"] not in text and end["salt"] not in text,
                      "the secret or salt appeared before the end")
            log = open(s.log).read() if hasattr(s, "log") else ""
            check(end["secret"] not in log and end["salt"] not in log, "not in the server's log")


@test
def import_shape_and_idempotency(binary):
    rng = random.Random(5)
    with server(binary) as s:
        gid, tokens = create_game(s, AA, 2)
        play(s, gid, tokens, rng)
        rec = record(s, gid)
        r = s.request("POST", "/v1/games", {"record": rec, "game": AA})
        check(r.status == 400, "a record comes alone: %r" % r)
        r = s.request("POST", "/v1/games", {"record": "x"})
        check(r.status == 422 and r.json["type"] == "urn:boardd:problem:bad-record", "not an object: %r" % r)
        bad = dict(rec, game="chess")
        r = s.request("POST", "/v1/games", {"record": bad})
        check(r.status == 404 or r.json["type"] == "urn:boardd:problem:unknown-rules", "unknown game: %r" % r)
        key = {"Idempotency-Key": "records-test-key-0123456789abcdef"}
        a = imported(s, rec, headers=key)
        b = s.request("POST", "/v1/games", {"record": rec}, headers=key)
        check(b.status == 201 and b.json == a.json, "a retry gives the first answer: %r" % b)


@test
def seed_format_1_games_still_replay(binary):
    """A game stored before 256-bit secrets (sql/0014: seed_format 1, a
    64-bit seed, no commitment): two such games with the same seed deal
    the same, play on after a restart, reveal their seed at the end, and
    their records import and verify."""
    rng = random.Random(9)
    with server(binary) as s:
        games = [create_game(s, game, 2) for game in (AA, AA, QT)]
        s.stop()
        for gid, _ in games:
            s.query("UPDATE games SET seed_format = 1, seed = 12345, secret = NULL, salt = NULL "
                    "WHERE id = ?", (gid,))
        s.start()
        views = [s.request("GET", "/v1/games/%s" % gid).json for gid, _ in games]
        for g in views:
            check(g["seed_format"] == 1 and g["commitment"] is None and g["seed"] is None and
                  g["secret"] is None, "format 1: no commitment, nothing revealed: %r" % g)
        check(views[0]["view"] == views[1]["view"], "the same seed deals the same")
        for (gid, tokens), moves in zip(games, (None, None, 12)):
            play(s, gid, tokens, rng, moves)
            g = s.request("GET", "/v1/games/%s" % gid).json
            check(g["seed"] == "%016x" % 12345 and g["secret"] is None, "the seed revealed: %r" % g["seed"])
            rec = record(s, gid)
            check(rec["seed_format"] == 1 and rec["seed"] == g["seed"], "the record has the seed")
            new = imported(s, rec).json["id"]
            check(public(s, new) == public(s, gid), "identical views after import")
            code, line = verify(binary, rec)
            check(code == 0, "verify-record accepts it: %s" % line)
            bad = dict(rec, seed="%016x" % 54321)
            code, line = verify(binary, bad)
            check(code == 1, "another seed, another deal: %s" % line)


@test
def a_bot_seat_is_kept_and_a_bogus_one_dropped(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA, "seating": ["token", {"bot": "mcts", "level": 1}]})
        check(r.status == 201, "create: %r" % r)
        gid, tok = r.json["id"], r.json["seats"][0]["token"]
        check(s.request("POST", "/v1/games/%s/resign" % gid, {}, token=tok, validate=False).status in (200, 201),
              "resign")
        rec = record(s, gid)
        spec = s.request("GET", "/v1/games/%s" % gid).json["players"][1]["bot"]
        check(rec["players"][1]["bot"] == spec, "the record names the bot: %r" % rec["players"])
        new = imported(s, rec).json["id"]
        g = s.request("GET", "/v1/games/%s" % new).json
        check(g["players"][1]["bot"] == spec and g["players"][0]["bot"] is None, "the bot seat kept: %r" % g)
        rec["players"][1]["bot"] = {"bot": "mcts", "level": 99, "x": 1}
        g = s.request("GET", "/v1/games/%s" % imported(s, rec).json["id"]).json
        check(g["players"][1]["bot"] is None, "a bogus bot spec is not kept: %r" % g["players"])


FAR1 = [{"value": 6, "at": [8, 8]}, {"value": 6, "at": [8, 6]}, {"value": 6, "at": [6, 8]}]


@test
def scripted_dice_for_a_whole_game(binary):
    """rules §14 custom setup "dice": thousands of them, not 64.  A
    reconfigured ship rolls until its number changes, using up scripted
    dice equal to the old one (§5): 2000 threes then a 5 turn ship 0 from
    3 into 5, then 1000 fives and a 2 into 2."""
    dice = [3] * 2000 + [5] + [5] * 1000 + [2]
    setup = {"ships": [[{"value": 3, "at": [3, 0]}, {"value": 2, "at": [0, 0]},
                        {"value": 4, "at": "scrapyard"}], FAR1], "dice": dice}
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": QT, "seats": 2, "setup": dict(setup, dice=[7])})
        check(r.status == 422, "a die shows 1..6: %r" % r)
        gid, tokens = create_game(s, QT, 2, setup=setup)
        values = []
        for _ in range(2):
            r = s.request("POST", "/v1/games/%s/moves" % gid,
                          {"action": {"type": "reconfigure", "ship": 0}}, token=tokens[0], validate=False)
            check(r.status == 201, "reconfigure: %r" % r)
            g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0], validate=False).json
            values.append(g["view"]["players"][0]["ships"][0]["value"])
        check(values == [5, 2], "the dice past the 64th and the 255th are rolled: %r" % values)
        s.request("POST", "/v1/games/%s/resign" % gid, {}, token=tokens[1], validate=False)
        rec = record(s, gid)
        check(rec["setup"]["dice"] == dice, "the record keeps the whole script")
        new = imported(s, rec).json["id"]
        check(public(s, new) == public(s, gid), "identical views after import")
        code, line = verify(binary, rec)
        check(code == 0, "verify-record accepts it: %s" % line)
        bad = copy.deepcopy(rec)
        bad["setup"]["dice"][2000] = 4  # ship 0 would become 4, not 5
        r = imported(s, bad, status=422)
        code, line = verify(binary, bad)
        check(code == 1, "another script, another game: %s" % line)


@test
def a_script_survives_snapshots_and_restarts(binary):
    """A scripted Quantum game past SVC_SNAPSHOT_EVERY (64) moves: after a
    restart (no cached state: the snapshot at 64 is read and the script
    attached again, engine.h) every view and the log are as before."""
    rng = random.Random(4)
    dice = [rng.randint(1, 6) for _ in range(5000)]
    setup = {"ships": [[{"value": 3, "at": [3, 0]}, {"value": 2, "at": [0, 0]},
                        {"value": 4, "at": "scrapyard"}], FAR1], "dice": dice}
    with server(binary) as s:
        gid, tokens = create_game(s, QT, 2, setup=setup)
        for _ in range(80):
            g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0], validate=False).json
            if g["status"] == "finished":
                break
            seat = rng.choice(g["to_act"])
            a = rng.choice(s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat],
                                     validate=False).json["actions"])
            a.pop("label", None)
            check(s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tokens[seat],
                            validate=False).status == 201, "listed action")
        before = [s.request("GET", "/v1/games/%s" % gid, token=t, validate=False).json for t in tokens]
        log = move_log(s, gid, validate=False)
        check(log["seq"] > 64, "past the first snapshot: %d moves" % log["seq"])
        s.stop()
        (snaps,), = s.query("SELECT count(*) FROM snapshots s JOIN games g ON g.key = s.game_key "
                            "WHERE g.id = ? AND s.seq = 64", (gid,))
        check(snaps == 1, "a snapshot at 64")
        s.start()
        after = [s.request("GET", "/v1/games/%s" % gid, token=t, validate=False).json for t in tokens]
        for b, a in zip(before, after):
            b.pop("updated"), a.pop("updated")
        check(after == before, "the same game after a restart")
        check(move_log(s, gid, validate=False) == log, "the same log")
        # moves go on drawing the script where it stopped
        seat = after[0]["to_act"][0] if after[0]["to_act"] else None
        if seat is not None:
            a = s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat], validate=False).json
            check(a["actions"], "the game goes on")


if __name__ == "__main__":
    run_all("records")
