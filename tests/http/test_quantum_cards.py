"""test_quantum_cards.py: Quantum games over real HTTP played by random
players biased towards command cards (rules §9.2, §14.1): in the card phase
they mostly take command cards; in their turn they prefer card powers
(cerebral, tyrannical, flexible, resourceful, nomadic, tactical, any action
flagged "cunning", "curious" or "diagonals"), attacks, construct and
research.  2, 3 and 4 seats on two maps each, some games with the printing
options curious and strategic.

At every step: every listed action is accepted (201); for every seat, GET
…/actions is non-empty exactly when the seat is in to_act; when
view.pending is non-empty its first entry's seat is the only seat in
to_act; now and then an unlisted action (a listed one mutated) is refused
with a 4xx and changes nothing.  Views with a pending decision or a battle,
and action lists with card powers, are checked against openapi.yaml.
Then the server is killed with SIGKILL and restarted: every seat's view
and the move log are identical.
Usage: test_quantum_cards.py BOARDD [test names...]"""
import random

from gamehelp import identical_after_sigkill, mutate, server, unlabelled
from harness import check, run_all, test, validate_response

MOVE_CAP = 250
# (seats, map, options): two maps per seat count, the printing options on some.
GAMES = [
    (2, "Alpha sector - Basic map", {}),
    (2, "Tactics - Add-on pack", {"curious": "addon"}),
    (3, "Beta sector - Basic map", {"curious": "first-printing", "strategic": "first-printing"}),
    (3, "Pivot point - The Void", {}),
    (4, "Gamma sector - Basic map", {"strategic": "first-printing"}),
    (4, "Eden - Add-on pack", {"curious": "addon"}),
]
POWERS = {"cerebral", "tyrannical", "flexible", "resourceful", "nomadic", "tactical"}
FLAGS = ("cunning", "curious", "diagonals")
CARD_DECISIONS = {"dangerous", "cruel", "relentless", "scrappy", "clever"}
WEIGHTS = {"power": 40, "attack": 30, "construct": 400, "research": 14, "move": 8,
           "ability": 5, "deploy": 6, "reconfigure": 3, "end": 3, "command": 24,
           "gambit": 6, "refresh": 1, "other": 1}
GAMBITS = {"expansion", "aggression", "momentum", "reorganization", "relocation", "sabotage"}


def is_power(a):
    return a["type"] in POWERS or any(f in a for f in FLAGS)


def classify(a):
    t = a["type"]
    if is_power(a):
        return "power"
    for cls, types in (("attack", ("attack", "strike")), ("construct", ("construct",)),
                       ("research", ("research",)), ("move", ("move", "transport")),
                       ("ability", ("warp", "modify", "scout")), ("deploy", ("deploy",)),
                       ("reconfigure", ("reconfigure",)), ("end", ("end_turn",)),
                       ("refresh", ("refresh_cards",))):
        if t in types:
            return cls
    if t == "take_card":
        return "gambit" if a["card"] in GAMBITS else "command"
    return "other"


def subkind(a):
    """Splits a class so that a rare form is chosen as often as a common
    one: the type (TACTICAL by its form), its flags, the card taken."""
    t = a["type"]
    if t == "tactical":
        t += "/attack" if "target" in a else "/transport" if "passenger" in a else "/move"
    return t + "".join("+" + f for f in FLAGS if f in a) + ":" + a.get("card", "")


def pick(acts, deciding, rng):
    """A class by weight, a sub-kind uniformly, then an action of it.
    Decisions and setup steps: uniform."""
    if deciding:
        return rng.choice(acts)
    classes = sorted({classify(a) for a in acts})
    cls = rng.choices(classes, [WEIGHTS[c] for c in classes])[0]
    members = [a for a in acts if classify(a) == cls]
    kind = rng.choice(sorted({subkind(a) for a in members}))
    return rng.choice([a for a in members if subkind(a) == kind])


# What has been checked against openapi.yaml: every large body is slow to
# check, so each form (a kind of pending decision, a battle, a phase, an
# action form) is checked the first time it is seen, and every body now
# and then.
CHECKED = set()


def view_forms(g):
    v = g["view"]
    forms = {"phase:" + v["phase"]} | {"pending:" + p["kind"] for p in v["pending"]}
    if v.get("battle"):
        forms.add("battle")
    return forms


def check_spec(method, path, r, forms, always):
    if always or not forms <= CHECKED:
        validate_response(method, path, r)
        CHECKED.update(forms)


def get_game(s, gid, tok, always):
    r = s.request("GET", "/v1/games/%s" % gid, token=tok, validate=False)
    check(r.status == 200, "get game: %r" % r)
    check_spec("GET", "/v1/games/%s" % gid, r, view_forms(r.json), always)
    return r.json


def get_actions(s, gid, tok, always):
    r = s.request("GET", "/v1/games/%s/actions" % gid, token=tok, validate=False)
    check(r.status == 200, "actions: %r" % r)
    check_spec("GET", "/v1/games/%s/actions" % gid, r,
               {"action:" + subkind(a) for a in r.json["actions"]}, always)
    return r.json


def stable(g):
    g = dict(g)
    g.pop("updated", None)
    return g


class Tally:
    def __init__(self):
        self.counts = {}
        self.refused = 0
        self.moves = 0

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def applied(self, a, pending):
        self.moves += 1
        if is_power(a):
            self.add("power:" + subkind(a).split(":")[0])
            for f in FLAGS:
                if f in a:
                    self.add("flag:" + f)
        if pending:
            self.add("decision:" + pending[0]["kind"])

    def total(self, prefix, keys=None):
        return sum(n for k, n in self.counts.items()
                   if k.startswith(prefix) and (keys is None or k[len(prefix):] in keys))

    def line(self, prefix):
        return " ".join("%s=%d" % (k[len(prefix):], n) for k, n in sorted(self.counts.items())
                        if k.startswith(prefix))


def refuse_unlisted(s, gid, tok, viewer, before, listed, rng, tally):
    """An action that is not listed must be refused and change nothing
    (before: the game as `viewer` saw it)."""
    a = mutate(rng.choice(listed), rng)
    if a in unlabelled(listed):
        return
    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tok)
    tally.refused += 1
    check(400 <= r.status < 500, "unlisted action %r accepted: %r" % (a, r))
    after = s.request("GET", "/v1/games/%s" % gid, token=viewer, validate=False).json
    check(stable(after) == stable(before), "refused %r changed the game" % a)


def play(s, gid, tokens, rng, tally):
    seats = len(tokens)
    g, viewer = get_game(s, gid, tokens[0], True), tokens[0]
    for step in range(MOVE_CAP):
        always = step % 50 == 0
        if g["status"] == "finished":
            return g
        view = g["view"]
        to_act = g["to_act"]
        check(to_act, "someone acts in an active game")
        check(view["to_act"] == to_act, "view.to_act == to_act")
        if view["pending"]:
            check(to_act == [view["pending"][0]["seat"]],
                  "pending %r: only its seat acts, not %r" % (view["pending"][0], to_act))
        lists = {}
        for p in range(seats):
            acts = get_actions(s, gid, tokens[p], always)
            check(acts["seq"] == g["seq"], "actions of the same seq")
            check(bool(acts["actions"]) == (p in to_act),
                  "seat %d: actions %s, to_act %r" % (p, bool(acts["actions"]), to_act))
            lists[p] = acts["actions"]
        seat = rng.choice(to_act)
        if step % 8 == 5:
            refuse_unlisted(s, gid, tokens[seat], viewer, g, lists[seat], rng, tally)
        deciding = bool(view["pending"]) or view["phase"] in ("setup_reroll", "choose_planet", "arrange")
        a = pick(lists[seat], deciding, rng)
        path = "/v1/games/%s/moves" % gid
        r = s.request("POST", path, {"action": a}, token=tokens[seat],
                      headers={"If-Match": '"%d"' % g["seq"]}, validate=False)
        check(r.status == 201, "listed action %r refused: %r" % (a, r))
        check(r.json["seq"] == g["seq"] + 1, "seq advances by one")
        check_spec("POST", path, r, view_forms(r.json), always)
        tally.applied(a, view["pending"])
        # the answer is the game as the mover now sees it
        g, viewer = r.json, tokens[seat]
    return g


@test
def card_biased_random_games_survive_sigkill(binary):
    rng = random.Random(20261201)
    tally = Tally()
    with server(binary) as s:
        played = []
        for seats, name, options in GAMES:
            body = {"game": "quantum", "seats": seats, "options": dict(options, map=name)}
            r = s.request("POST", "/v1/games", body)
            check(r.status == 201, "create %r: %r" % (body, r))
            tokens = [x["token"] for x in r.json["seats"]]
            g = play(s, r.json["id"], tokens, rng, tally)
            played.append((name, seats, r.json["id"], tokens, g["status"]))
        powers = tally.total("power:")
        decisions = tally.total("decision:", CARD_DECISIONS)
        print("     %d games, %d moves (%d finished under the cap of %d), %d unlisted "
              "actions refused" % (len(played), tally.moves,
                                   sum(p[4] == "finished" for p in played), MOVE_CAP,
                                   tally.refused))
        print("     card powers posted: %d (%s; flags %s)" % (powers, tally.line("power:"),
                                                             tally.line("flag:")))
        print("     card decisions posted: %d (%s)" % (decisions, tally.line("decision:")))
        check(powers > 0, "card powers were posted")
        check(decisions > 0, "card decisions were posted")
        check(tally.refused > 20, "unlisted actions were tried")
        identical_after_sigkill(s, [("quantum/%d seats" % p[1], p[2], p[3]) for p in played])

if __name__ == "__main__":
    run_all("quantum-cards-http")
