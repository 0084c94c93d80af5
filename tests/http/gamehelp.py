"""gamehelp.py: helpers the HTTP suites share: a server fixture and the
few calls every game test makes."""
import contextlib

from harness import Server, check

AA = "agent-avenue"


@contextlib.contextmanager
def server(binary, **kw):
    s = Server(binary, **kw)
    try:
        yield s
        s.stop()
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
        s.cleanup()


def create(s, setup=None, status=201, **extra):
    body = {"game": AA, "seats": 2}
    if setup is not None:
        body["setup"] = setup
    body.update(extra)
    r = s.request("POST", "/v1/games", body)
    check(r.status == status, "create: %r" % r)
    if status != 201:
        return r
    gid = r.json["id"]
    tokens = [st["token"] for st in r.json["seats"]]
    return gid, tokens


def game(s, gid, tok=None):
    r = s.request("GET", "/v1/games/%s" % gid, token=tok)
    check(r.status == 200, "get game: %r" % r)
    return r.json


def actions(s, gid, tok):
    r = s.request("GET", "/v1/games/%s/actions" % gid, token=tok)
    check(r.status == 200, "actions: %r" % r)
    return r.json["actions"]


def move(s, gid, tok, action, **kw):
    return s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=tok, **kw)


def play_random(s, gid, tokens, rng, max_moves=400):
    """Plays seat against seat, each choosing among its listed actions,
    until the game ends.  Returns the final game (as seat 0 sees it)."""
    for _ in range(max_moves):
        g = game(s, gid, tokens[0])
        if g["status"] == "finished":
            return g
        check(len(g["to_act"]) == 1, "one seat acts in Agent Avenue")
        seat = g["to_act"][0]
        acts = actions(s, gid, tokens[seat])
        check(acts, "the seat to act has actions")
        other = actions(s, gid, tokens[1 - seat])
        check(other == [], "the other seat has none")
        r = move(s, gid, tokens[seat], rng.choice(acts),
                 headers={"If-Match": '"%d"' % g["seq"]})
        check(r.status == 201, "listed action refused: %r" % r)
        check(r.json["seq"] == g["seq"] + 1, "seq advances by one")
        check(r.headers.get("etag") == '"%d"' % r.json["seq"], "ETag is the seq")
    raise AssertionError("game did not end")


