#!/usr/bin/python3
"""record.py BOARDD > tests/unit/resigned_v2_games.h

Records games in which a seat resigns and the game goes on, played on a
boardd built before resigned seats' decisions were logged as moves (rules
version 2 of both games, commit ce46055): the engine then played them
inside every apply, and the log holds none of them.  tests/unit/
test_resigned_v2.c replays each recorded log under stored version 2 and
checks that it gives the same seats to act after every move, the same
views at the checkpoints and the same result.

Each game: rules id, seats, options, seed (revealed at the end), the log
as [seat, action] pairs, the seats to act after each move (GET
/v1/games/{id}?at=N), and checkpoint views (every CHECK_EVERY moves and
the last: each viewer's, spectator first, as ?at=N shows them once the
game is over: everything revealed).  Random moves come from Python's
random with a fixed seed per game, so a re-run on the same binary
records the same games but for the server's secret seeds.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "http"))
from harness import Server  # noqa: E402

CHECK_EVERY = 25

# (rules id, seats, options, seat that resigns, at which move, moves before
# the others resign to end it, python seed)
PLANS = [
    ("agent-avenue", 3, {}, 2, 3, 70, 1),
    ("agent-avenue", 4, {"mode": "advanced"}, 1, 5, 70, 2),
    ("quantum", 3, {}, 0, 12, 90, 3),
    ("quantum", 4, {}, 3, 4, 60, 4),
]


def req(s, method, path, body=None, token=None):
    r = s.request(method, path, body, token=token, validate=False)
    if r.status >= 300:
        raise SystemExit("%s %s: %d %r" % (method, path, r.status, r.json))
    return r.json


def play(s, plan):
    rules, seats, options, quitter, quit_at, length, pyseed = plan
    rnd = random.Random(pyseed)
    g = req(s, "POST", "/v1/games",
            {"game": rules, "seats": seats, "options": options})
    gid, toks = g["id"], [x["token"] for x in g["seats"]]
    resigned = set()
    moves = 0
    while True:
        cur = req(s, "GET", "/v1/games/" + gid)
        if cur["status"] == "finished":
            break
        if moves == quit_at and quitter not in resigned:
            req(s, "POST", "/v1/games/%s/resign" % gid, {}, toks[quitter])
            resigned.add(quitter)
        elif moves >= length:
            left = [x for x in range(seats) if x not in resigned]
            req(s, "POST", "/v1/games/%s/resign" % gid, {}, toks[left[-1]])
            resigned.add(left[-1])
        else:
            seat = rnd.choice(cur["to_act"])
            acts = req(s, "GET", "/v1/games/%s/actions" % gid,
                       token=toks[seat])["actions"]
            a = rnd.choice(acts)
            a.pop("label", None)
            req(s, "POST", "/v1/games/%s/moves" % gid, {"action": a},
                toks[seat])
        moves += 1
    end = req(s, "GET", "/v1/games/" + gid)
    log = []
    after = 0
    while True:
        page = req(s, "GET", "/v1/games/%s/moves?after=%d" % (gid, after))
        log += [[m["seat"], m["action"]] for m in page["moves"]]
        if "next_after" not in page:
            break
        after = page["next_after"]
    to_act, checks = [], []
    for n in range(1, len(log) + 1):
        to_act.append(req(s, "GET", "/v1/games/%s?at=%d" % (gid, n))["to_act"])
        if n % CHECK_EVERY == 0 or n == len(log):
            views = [req(s, "GET", "/v1/games/%s?at=%d" % (gid, n),
                         token=t)["view"] for t in [None] + toks]
            checks.append({"move": n, "views": views})
    return {"game": rules, "seats": seats, "options": options,
            "seed": end["seed"], "log": log, "to_act": to_act,
            "checks": checks, "result": end["result"]}


def main():
    s = Server(sys.argv[1])
    try:
        games = [play(s, p) for p in PLANS]
    finally:
        s.stop()
        s.cleanup()
    text = json.dumps(games, sort_keys=True, separators=(",", ":"))
    print("/* resigned_v2_games.h: games with a resigned seat recorded on a")
    print(" * rules-version-2 server (tools/resigned-v2/record.py; do not")
    print(" * edit). */")
    print("static const char resigned_v2_games[] =")
    for i in range(0, len(text), 72):
        print("    %s" % json.dumps(text[i:i + 72]))
    print("    ;")


if __name__ == "__main__":
    main()
