"""test_history.py: the move log as clients read it (issue 12, History;
docs/history.md), against the real boardd binary.

- aa_outcomes: Agent Avenue from custom setups: a play's `drawn` (the
  count for all, the cards for the drawer only), a recruit's `recruited`
  (the face-down card among them), the advanced mode's `supply` and Smoke
  Screen's recruit of the deck's top card; the face-down card (the single
  Mole) appears in nothing any other viewer is told before the recruit
  (game, actions, log, event streams), and every seat's draws show to all
  once the game is over.
- quantum_outcomes: random Quantum games that prefer attacks, reconfigures
  and card takes: every kind of die (`ship`, `attack`, `defend`) and a card
  turned face up are met; every move's dice are the view's `last_dice` at
  that seq, a reconfigure's last die is its ship's new number, a battle's
  dice are the attacker's and the defender's.
- server_moves_have_by: a resigned seat's decisions are logged moves with
  `"by":"resigned"` (in the log and the events, the same after a SIGKILL
  restart), a bot seat's moves `"by":"bot"`, a timed-out seat's
  `"by":"timeout"`.
- moves_equal_events: random games of both games to their end (and one
  mid-game): for every viewer, each move event of `/events?after=0`
  (NDJSON and SSE) carries exactly the `/moves` entry of its seq.

Usage: test_history.py BOARDD [test names...]"""
import json
import random
import time

from gamehelp import create_game, parse_events, read_stream, server
from harness import check, run_all, test

AA = "agent-avenue"
QT = "quantum"
ENTRY = ("seq", "seat", "action", "outcome", "by", "time")


def req(s, method, path, body=None, token=None, status=None):
    r = s.request(method, path, body, token=token)
    if status is not None:
        check(r.status == status, "%s %s: %r" % (method, path, r))
    return r


def post(s, gid, tok, action):
    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=tok)
    check(r.status == 201, "move %r refused: %r" % (action, r))
    return r.json


def log(s, gid, tok=None):
    return req(s, "GET", "/v1/games/%s/moves" % gid, token=tok, status=200).json["moves"]


def events(s, gid, tok, n, accept="application/x-ndjson"):
    st, ctype, body = read_stream(s.port, "/v1/games/%s/events?after=0" % gid, tok, {"Accept": accept}, n)
    check(st == 200, "events: %d" % st)
    return [e for e in parse_events(ctype, body) if e["event"] == "move"]


def told(s, gid, tok, n):
    """Everything `tok` is told about the game, as one text."""
    parts = [req(s, "GET", "/v1/games/%s" % gid, token=tok).raw,
             req(s, "GET", "/v1/games/%s/moves" % gid, token=tok).raw]
    if tok:
        parts.append(req(s, "GET", "/v1/games/%s/actions" % gid, token=tok).raw)
    for accept in ("application/x-ndjson", "text/event-stream"):
        parts.append(read_stream(s.port, "/v1/games/%s/events?after=0" % gid, tok, {"Accept": accept}, n)[2])
    return b"".join(parts).decode()


# ---- Agent Avenue ----

# Seat 0 leads with Enforcer face up and the Mole (the only one) face down;
# seat 1 picks the face-down card.  Seat 1's hand and the deck's first
# cards have no Mole, so nobody but seat 0 can know it before the recruit.
BASE = {"first_player": 0,
        "hands": [["enforcer", "mole", "codebreaker", "sentinel"],
                  ["saboteur", "saboteur", "daredevil", "double-agent"]],
        "deck": ["sidekick", "sentinel", "enforcer", "codebreaker", "double-agent", "saboteur"]}


@test
def aa_outcomes(binary):
    with server(binary) as s:
        gid, tok = create_game(s, AA, 2, None, BASE)
        viewers = [None, tok[1]]
        post(s, gid, tok[0], {"type": "play", "face_up": "enforcer", "face_down": "mole"})
        own = log(s, gid, tok[0])[0]
        check(own["outcome"] == {"drawn": [{"seat": 0, "count": 2, "agents": ["sidekick", "sentinel"]}]},
              "the player sees what it drew: %r" % own["outcome"])
        for t in viewers:
            m = log(s, gid, t)[0]
            check(m["action"]["face_down"] is None, "the face-down card is hidden")
            check(m["outcome"] == {"drawn": [{"seat": 0, "count": 2}]},
                  "others see how many were drawn, not which: %r" % m["outcome"])
            check("mole" not in told(s, gid, t, 1), "the Mole shows to another viewer before the recruit")
            check("sidekick" not in told(s, gid, t, 1), "another seat's draw shows before the end")
        post(s, gid, tok[1], {"type": "recruit", "pick": "face_down"})
        for t in [None] + tok:
            ms = log(s, gid, t)
            check(ms[0]["action"]["face_down"] == "mole", "the face-down card shows once recruited")
            check(ms[1]["outcome"] == {"recruited": [{"team": 1, "agent": "mole"}, {"team": 0, "agent": "enforcer"}]},
                  "the recruit's outcome: both cards: %r" % ms[1]["outcome"])
            evs = events(s, gid, t, 2)
            check([{k: e[k] for k in ENTRY if k in e} for e in evs] == ms,
                  "events and log reveal the same")
        # once over (a resignation ends it), everyone sees every draw
        req(s, "POST", "/v1/games/%s/resign" % gid, {}, token=tok[1], status=201)
        for t in viewers:
            check(log(s, gid, t)[0]["outcome"]["drawn"][0].get("agents") == ["sidekick", "sentinel"],
                  "draws shown to all after the end")

        # advanced: seat 0's Enforcer (+1 from progress 1) ends on space 2,
        # a black-market space: it takes Smoke Screen, which recruits the
        # deck's top card (the Mole, +... backward 3: no chain), and the
        # black-market deck's top card is turned up into the supply.
        adv = {"first_player": 0, "progress": [1, 0],
               "hands": [["enforcer", "codebreaker", "sentinel", "sentinel"],
                         ["saboteur", "saboteur", "daredevil", "double-agent"]],
               "deck": ["sentinel", "sentinel", "mole", "double-agent", "saboteur", "saboteur"],
               "bm_supply": ["smoke-screen", "masterplan", "outpost"],
               "bm_deck": ["watchtower", "getaway-car"]}
        gid, tok = create_game(s, AA, 2, {"mode": "advanced"}, adv)
        post(s, gid, tok[0], {"type": "play", "face_up": "enforcer", "face_down": "codebreaker"})
        post(s, gid, tok[1], {"type": "recruit", "pick": "face_down"})
        take = [a for a in req(s, "GET", "/v1/games/%s/actions" % gid, token=tok[0]).json["actions"]
                if a["type"] == "take" and a["card"] == "smoke-screen"]
        check(take, "seat 0 is due a black-market card")
        post(s, gid, tok[0], {"type": "take", "card": "smoke-screen"})
        for t in [None] + tok:
            m = log(s, gid, t)[2]
            check(m["outcome"].get("supply") == ["watchtower"], "the card turned up: %r" % m["outcome"])
            check(m["outcome"].get("recruited") == [{"team": 0, "agent": "mole"}],
                  "Smoke Screen's recruit: %r" % m["outcome"])


# ---- Quantum ----

PREFER = ("attack", "reconfigure", "take_card", "refresh_cards", "research", "construct")


@test
def quantum_outcomes(binary):
    rng = random.Random(12)
    seen = set()
    with server(binary) as s:
        for game_no in range(6):
            gid, tok = create_game(s, "quantum", 2)
            for _ in range(260):
                g = req(s, "GET", "/v1/games/%s" % gid).json
                if g["status"] == "finished":
                    break
                seat = g["to_act"][0]
                acts = req(s, "GET", "/v1/games/%s/actions" % gid, token=tok[seat]).json["actions"]
                best = [a for a in acts if a["type"] in PREFER]
                post(s, gid, tok[seat], rng.choice(best if best and rng.random() < 0.8 else acts))
            moves = log(s, gid)
            for m in moves:
                view = req(s, "GET", "/v1/games/%s?at=%d" % (gid, m["seq"])).json["view"]
                dice = m["outcome"].get("dice", [])
                check([d["value"] for d in dice] == view["last_dice"],
                      "seq %d: the outcome's dice are the view's last_dice" % m["seq"])
                for d in dice:
                    seen.add(d["for"])
                if m["outcome"].get("cards"):
                    seen.add("cards")
                    for c in m["outcome"]["cards"]:
                        check(c["card"] in view["row"][c["row"]], "a card turned up is in its row")
                a = m["action"]
                if a["type"] == "reconfigure":
                    # a roll of its ship, unless CLEVER makes it a choice
                    # (a pending decision instead, rules §9.2 #5)
                    ship = [d for d in dice if d["for"] == "ship" and d["ship"] == a["ship"]]
                    check(ship or view["pending"], "a reconfigure rolls its ship: %r" % m)
                    if ship and not view["pending"]:
                        sh = view["players"][m["seat"]]["ships"][a["ship"]]
                        check(ship[-1]["seat"] == m["seat"] and sh["value"] == ship[-1]["value"],
                              "the ship shows the last die: %r %r" % (sh, ship))
                if a["type"] == "attack" and dice:
                    # rules §14.1: a seat holding a working RATIONAL (not
                    # waking) rolls no combat die, so none is listed; the
                    # destroyed ship's roll may then come second
                    before = req(s, "GET", "/v1/games/%s?at=%d" % (gid, m["seq"] - 1)).json["view"]

                    def rational(p):
                        pl = before["players"][p]
                        return "rational" in pl["commands"] and "rational" not in pl["commands_waking"]
                    want = [f for f, p in (("attack", m["seat"]), ("defend", 1 - m["seat"]))
                            if not rational(p)]
                    fors = [d["for"] for d in dice[:len(want)]]
                    check(fors == want,
                          "a battle rolls the attacker's die, then the defender's (none for a "
                          "RATIONAL side): %r, want %r first" % (dice, want))
                    check(not want or want[0] != "attack" or dice[0]["seat"] == m["seat"],
                          "the attacker's die is its own")
            if {"attack", "defend", "ship", "cards"} <= seen:
                break
    check({"attack", "defend", "ship", "cards"} <= seen, "every kind of outcome met: %r" % seen)
    print("     kinds met: %s" % ", ".join(sorted(seen)))


# ---- moves the server made ----

@test
def server_moves_have_by(binary):
    rng = random.Random(7)
    with server(binary, extra=["--bot-ms", "20", "--clock-min-seconds", "1"]) as s:
        # a resigned seat of three: its turns are logged, "by":"resigned"
        gid, tok = create_game(s, AA, 3)
        req(s, "POST", "/v1/games/%s/resign" % gid, {}, token=tok[2], status=201)
        for _ in range(30):
            g = req(s, "GET", "/v1/games/%s" % gid).json
            if g["status"] == "finished":
                break
            check(2 not in g["to_act"], "a resigned seat never waits to act")
            seat = g["to_act"][0]
            acts = req(s, "GET", "/v1/games/%s/actions" % gid, token=tok[seat]).json["actions"]
            post(s, gid, tok[seat], rng.choice(acts))
        before = [log(s, gid, t) for t in [None] + tok]
        by = [m for m in before[0] if m.get("by") == "resigned"]
        check(by and all(m["seat"] == 2 for m in by), "seat 2's decisions logged by:resigned")
        check(all(m.get("by") in (None, "resigned") for m in before[0]), "nothing else has a by")
        check(before[0][0]["action"] == {"type": "resign"} and "by" not in before[0][0],
              "the resignation itself is the seat's own move")
        evs = events(s, gid, None, len(before[0]))
        check([e.get("by") for e in evs] == [m.get("by") for m in before[0]], "events carry the same by")
        s.kill()
        s.start()
        check([log(s, gid, t) for t in [None] + tok] == before, "the same log after a SIGKILL restart")

        # a bot seat's moves: "by":"bot"
        r = req(s, "POST", "/v1/games", {"game": AA, "seating": ["token", {"bot": "random"}]}, status=201)
        gid, me = r.json["id"], r.json["seats"][0]["token"]
        # a bound in time, not in rounds: a loaded machine's bot may take
        # longer than 40 rounds of 0.05 s to decide (--bot-ms is its
        # search budget, not its place in the queue)
        deadline = time.time() + 30
        while time.time() < deadline:
            g = req(s, "GET", "/v1/games/%s" % gid).json
            if g["status"] == "finished" or len([m for m in log(s, gid) if m["seat"] == 1]) >= 2:
                break
            if 0 in g["to_act"]:
                acts = req(s, "GET", "/v1/games/%s/actions" % gid, token=me).json["actions"]
                post(s, gid, me, rng.choice(acts))
            else:
                time.sleep(0.05)
        ms = log(s, gid)
        check(any(m["seat"] == 1 for m in ms), "the bot moved")
        check(all((m.get("by") == "bot") == (m["seat"] == 1) for m in ms), "exactly the bot's moves are by:bot")

        # a timeout: the seat's deadline passes, the server's bot plays it
        r = req(s, "POST", "/v1/games", {"game": AA, "seats": 2, "clock": {"move_seconds": 1},
                                         "on_timeout": "bot"}, status=201)
        gid = r.json["id"]
        deadline = time.time() + 20
        while time.time() < deadline and not log(s, gid):
            time.sleep(0.1)
        ms = log(s, gid)
        check(ms and ms[0].get("by") == "timeout", "a timed-out move is by:timeout: %r" % ms[:1])


# ---- /moves and /events ----

@test
def a_resigned_chain_over_a_multiple_of_64_keeps_its_snapshot(binary):
    """A move followed by a resigned seat's moves is one append of several
    seqs, which can step over a multiple of SVC_SNAPSHOT_EVERY (64): the
    state is then kept with the chain's last move, so no stretch of 64
    moves goes without a snapshot (src/service/move.c, append)."""
    rng = random.Random(5)
    with server(binary) as s:
        gid, tok = create_game(s, QT, 3)
        req(s, "POST", "/v1/games/%s/resign" % gid, {}, token=tok[2], status=201)
        stepped = 0
        g = req(s, "GET", "/v1/games/%s" % gid).json
        while g["status"] != "finished" and g["seq"] < 64 * 6:
            seat = g["to_act"][0]
            acts = req(s, "GET", "/v1/games/%s/actions" % gid, token=tok[seat]).json["actions"]
            before = g["seq"]
            post(s, gid, tok[seat], rng.choice(acts))
            g = req(s, "GET", "/v1/games/%s" % gid).json
            if g["seq"] // 64 != before // 64 and g["seq"] % 64 != 0:
                stepped += 1
        s.stop()
        snaps = [r[0] for r in s.query(
            "SELECT s.seq FROM snapshots s JOIN games g ON g.key = s.game_key "
            "WHERE g.id = ? ORDER BY s.seq", (gid,))]
        for k in range(1, g["seq"] // 64 + 1):
            check(any(64 * k <= q < 64 * (k + 1) for q in snaps),
                  "a snapshot between %d and %d: %r" % (64 * k, 64 * (k + 1) - 1, snaps))
        print("     %d moves, %d chains stepped over a multiple of 64, snapshots at %r"
              % (g["seq"], stepped, snaps))


@test
def moves_equal_events(binary):
    rng = random.Random(99)
    compared = 0
    with server(binary, extra=["--keepalive", "3600"]) as s:
        for game, seats, options, cap in ((AA, 2, None, 200), (AA, 3, {"mode": "advanced"}, 200),
                                          ("quantum", 2, None, 40), (AA, 2, {"mode": "advanced"}, 6)):
            gid, tok = create_game(s, game, seats, options)
            for _ in range(cap):
                g = req(s, "GET", "/v1/games/%s" % gid).json
                if g["status"] == "finished":
                    break
                seat = rng.choice(g["to_act"])
                acts = req(s, "GET", "/v1/games/%s/actions" % gid, token=tok[seat]).json["actions"]
                post(s, gid, tok[seat], rng.choice(acts))
            if game == "quantum":  # ends it: a resignation
                req(s, "POST", "/v1/games/%s/resign" % gid, {}, token=tok[0], status=201)
            for t in [None] + tok:
                ms = log(s, gid, t)
                for accept in ("application/x-ndjson", "text/event-stream"):
                    evs = events(s, gid, t, len(ms), accept)
                    got = [{k: e[k] for k in ENTRY if k in e} for e in evs]
                    check(got == ms, "%s/%d: the events' moves are the log's" % (game, seats))
                    compared += len(ms)
    print("     %d move entries compared" % compared)


if __name__ == "__main__":
    run_all("history")
