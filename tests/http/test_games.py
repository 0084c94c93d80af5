"""test_games.py: every game in the catalog, every seat count, played over
real HTTP by random players choosing among the listed actions (and now and
then an unlisted one, which must be refused and change nothing); then the
server is killed with SIGKILL and restarted, and every seat's view must be
identical.  A game added to the registry is covered without a change here.
Usage: test_games.py BOARDD [test names...]"""
import random

from gamehelp import identical_after_sigkill, mutate, server, unlabelled
from harness import check, run_all, test

GAMES_PER_SEAT_COUNT = 3
MOVE_CAP = 400
REFUSED = [0]  # unlisted actions posted (and refused)  # keeps make test short; a game not over by then is
                # reported (and still checked across the restart)


def catalog(s):
    return s.request("GET", "/v1/catalog").json["games"]


def refuse_unlisted(s, gid, token, seq, listed, rng):
    """An action that is not listed must be refused and change nothing."""
    a = mutate(rng.choice(listed), rng)
    if a in unlabelled(listed):
        return
    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=token, validate=False)
    REFUSED[0] += 1
    check(400 <= r.status < 500, "unlisted action %r accepted: %r" % (a, r))
    after = s.request("GET", "/v1/games/%s" % gid, validate=False).json["seq"]
    check(after == seq, "a refused action changed the game")


def play(s, gid, tokens, rng, one_seat=False):
    """Random listed actions until the game ends or MOVE_CAP; checks that
    exactly the seats in to_act have actions and every one is accepted.
    one_seat (Agent Avenue, every mode): exactly one seat acts, every other
    seat lists no action, and the view's `acting` names that seat."""
    for step in range(MOVE_CAP):
        v = step % 20 == 0  # validating every large view against the spec is slow
        g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0], validate=v).json
        if g["status"] == "finished":
            return g
        check(g["to_act"], "someone acts in an active game")
        seat = rng.choice(g["to_act"])
        if one_seat:
            check(len(g["to_act"]) == 1, "one seat acts: %r" % g["to_act"])
            check(g["view"]["acting"]["seat"] == seat and g["view"]["acting"]["why"],
                  "the view says who acts and why: %r" % g["view"]["acting"])
            other = rng.choice([t for i, t in enumerate(tokens) if i != seat])
            r = s.request("GET", "/v1/games/%s/actions" % gid, token=other, validate=False)
            check(r.json["actions"] == [], "a seat not to act lists no action")
        acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[seat], validate=v).json
        check(acts["seq"] == g["seq"] and acts["actions"], "seat %d to act has actions" % seat)
        if step % 10 == 5:
            refuse_unlisted(s, gid, tokens[seat], g["seq"], acts["actions"], rng)
        r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": rng.choice(acts["actions"])},
                      token=tokens[seat], headers={"If-Match": '"%d"' % g["seq"]}, validate=v)
        check(r.status == 201, "listed action refused: %r" % r)
    return g


def setups(entry, rng):
    """(label, seats, options, must_end) for every way to play a catalog
    entry: each mode at each of its seat counts when the entry lists
    `modes` (Agent Avenue: base and advanced at 2, 3 and 4 seats; such
    games are short and must end with a result), else each seat count
    with the default map and random others."""
    out = []
    if "modes" in entry:
        for m in entry["modes"]:
            for seats in m["seats"]:
                for i in range(GAMES_PER_SEAT_COUNT):
                    out.append(("%s/%s/%d seats" % (entry["id"], m["mode"], seats), seats,
                                {"mode": m["mode"]}, True))
        return out
    for seats in range(entry["min_seats"], entry["max_seats"] + 1):
        # Games with maps: the default and other maps at random.
        maps = [m["name"] for m in entry.get("maps", {}).get(str(seats), [])]
        for i in range(GAMES_PER_SEAT_COUNT):
            opts = {"map": rng.choice(maps)} if maps and i > 0 else None
            out.append(("%s/%d seats" % (entry["id"], seats), seats, opts, False))
    return out


@test
def random_games_of_every_game_and_seat_count(binary):
    rng = random.Random(20261130)
    with server(binary) as s:
        played = []
        combos = set()
        for entry in catalog(s):
            for label, seats, opts, must_end in setups(entry, rng):
                body = {"game": entry["id"], "seats": seats}
                if opts:
                    body["options"] = opts
                r = s.request("POST", "/v1/games", body)
                check(r.status == 201, "create %s: %r" % (label, r))
                tokens = [x["token"] for x in r.json["seats"]]
                g = play(s, r.json["id"], tokens, rng, one_seat=must_end)
                if must_end:
                    check(g["status"] == "finished" and g["result"] and g["result"]["winners"],
                          "%s ends with a result: %r" % (label, g.get("result")))
                    if opts:
                        check(g["view"]["mode"] == opts["mode"], "%s: the view's mode" % label)
                combos.add(label)
                played.append((label, r.json["id"], tokens, g["status"]))
        for want in ("agent-avenue/%s/%d seats" % (m, n) for m in ("base", "advanced") for n in (2, 3, 4)):
            check(want in combos, "%s played" % want)
        unfinished = [p for p in played if p[3] != "finished"]
        print("     %d games played, %d still running at the cap of %d moves; "
              "%d unlisted actions refused" % (len(played), len(unfinished), MOVE_CAP, REFUSED[0]))
        check(REFUSED[0] > 20, "unlisted actions were tried")
        identical_after_sigkill(s, [(p[0], p[1], p[2]) for p in played])


if __name__ == "__main__":
    run_all("games")
