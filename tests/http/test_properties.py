"""test_properties.py: the properties of tests/unit/test_properties.c that
only HTTP can show, against the real boardd binary.

- hidden_information_twins: twin worlds (built and checked at the engine
  level by `test_properties --export N`, the sibling of BOARDD in
  BUILD/tests/) differ only in what one viewer may not see.  Both are
  created with their custom setups, both logs are posted, and then that
  viewer's answers must be byte for byte the same in both games: the game
  (id and times left out), its actions, the move log (whole and after
  each seq), the answer to each of its own moves, the event stream as
  NDJSON and as Server-Sent Events (from the start and from after=0), and
  the problem answered to the same refused actions.
- event_stream_replays_the_live_game: random games of every catalog game
  and seat count, with a SIGKILL restart in the middle (cold cache).  A
  move entry is redacted as of the moment it is sent (docs/history.md):
  right after each move, a stream opened then (after=seq-1) sends the
  entry the log shows then; at the end, every viewer's event stream,
  replayed from the seed by the server, carries at each seq exactly the
  log's entry now (action, outcome, by, time), the state that viewer got
  live after that move (its view shown in full, as ?at=seq, once the game
  is over), and what the viewer was told live differs from the entry now
  only where something was revealed since (a hidden value then, shown
  now), which the run must meet at least once; every listed action is
  accepted.
- refused_requests_change_nothing: malformed and unlisted actions, random
  bytes, wrong tokens, wrong seats, stale guards: each is a documented 4xx
  problem, and afterwards every viewer's game, actions and log are byte
  for byte what they were (the `updated` time included).

Knobs: PROP_HTTP_TWINS (twin pairs per game and seat count, default 3),
PROP_HTTP_GAMES (random games per game and seat count, default 1),
PROP_HTTP_MOVES (moves per random game at most, default 40), PROP_SEED.
Usage: test_properties.py BOARDD [test names...]"""
import json
import os
import random
import re

from gamehelp import create_game as create, engine_pairs, parse_events, read_stream, server
from harness import check, run_all, test

TWINS = int(os.environ.get("PROP_HTTP_TWINS", "3"))
GAMES = int(os.environ.get("PROP_HTTP_GAMES", "1"))
MOVES = int(os.environ.get("PROP_HTTP_MOVES", "40"))
SEED = int(os.environ.get("PROP_SEED", "20261201"))  # also the engine suite's
# No keep-alive may land in a stream while it is compared.
QUIET = ["--keepalive", "3600"]


def normal(body):
    """A game answer without what differs between any two games: the id,
    the times and the commitment to the game's own secret (public, random
    per game: docs/shuffles.md)."""
    b = dict(body)
    for k in ("id", "created", "updated", "commitment"):
        b.pop(k, None)
    return json.dumps(b, sort_keys=True)


def untimed(raw):
    """A log's bytes without each move's "time" (when it was committed):
    twins are played one after the other, so their moves' times differ
    and only those."""
    if isinstance(raw, tuple):
        return tuple(untimed(x) for x in raw)
    if isinstance(raw, bytes):
        return re.sub(rb',"time":"[^"]*"', b"", raw)
    return raw


def viewer_answers(s, gid, token, seat, k):
    """Everything `token` (a seat's, or None for a spectator) is told
    about game gid, k moves in, as comparable text."""
    out = []
    r = s.request("GET", "/v1/games/%s" % gid, token=token)
    out.append(("game", r.status, r.headers.get("etag"), normal(r.json)))
    if token:
        r = s.request("GET", "/v1/games/%s/actions" % gid, token=token)
        out.append(("actions", r.status, r.raw))
    for after in [None] + list(range(k)):
        q = "" if after is None else "?after=%d" % after
        r = s.request("GET", "/v1/games/%s/moves%s" % (gid, q), token=token, validate=after is None)
        out.append(("moves" + q, r.status, untimed(r.raw)))
    for accept, name in (("application/x-ndjson", "ndjson"), ("text/event-stream", "sse")):
        # From the start: one `state` event; after=0: every move so far.
        out.append((name, untimed(read_stream(s.port, "/v1/games/%s/events" % gid, token, {"Accept": accept}, 1))))
        out.append((name + " after=0", untimed(read_stream(s.port, "/v1/games/%s/events?after=0" % gid, token,
                                                           {"Accept": accept}, k))))
    last = untimed(read_stream(s.port, "/v1/games/%s/events" % gid, token, {"Last-Event-ID": "0"}, k))
    out.append(("sse Last-Event-ID: 0", last))
    return out


@test
def hidden_information_twins(binary):
    pairs = engine_pairs(binary, TWINS)
    check(pairs, "the engine suite exported twin pairs")
    seen = {}
    compared = 0
    with server(binary, extra=QUIET) as s:
        for p in pairs:
            check(p["a"]["setup"] != p["b"]["setup"], "the worlds differ")
            v = p["viewer"]
            games, own = [], []
            for world in (p["a"], p["b"]):
                gid, tok = create(s, p["game"], p["seats"], p["options"], world["setup"])
                answers = []
                for seat, action in world["log"]:
                    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=tok[seat])
                    check(r.status == 201, "%s: twin move %r refused: %r" % (p["game"], action, r))
                    if seat == v:  # the viewer's own move: its answer
                        answers.append((r.headers.get("etag"), normal(r.json)))
                games.append((gid, tok))
                own.append(answers)
            k = len(p["a"]["log"])
            told = [viewer_answers(s, gid, tok[v] if v >= 0 else None, v, k) for gid, tok in games]
            for x, y in zip(told[0], told[1]):
                check(x == y, "%s/%d, viewer %d, %d moves: %s differs:\n  A %r\n  B %r"
                      % (p["game"], p["seats"], v, k, x[0], x[1:], y[1:]))
            check(own[0] == own[1], "viewer %d's own move answers differ" % v)
            compared += len(told[0]) + len(own[0])
            if v >= 0:
                compared += same_refusals(s, games, v, p["a"]["log"], random.Random(k))
            key = (p["game"], p["seats"], (p["options"] or {}).get("mode", ""))
            seen[key] = seen.get(key, 0) + 1
    print("     %d twin pairs (%s), %d answers compared"
          % (len(pairs), ", ".join("%s%s/%d: %d" % (g, m and "/" + m, n, c)
                                   for (g, n, m), c in sorted(seen.items())), compared))
    # Agent Avenue's hidden data of every mode (the black-market deck in
    # the advanced one) at every seat count (teammates' hands at 3 and 4).
    for n in (2, 3, 4):
        check(("agent-avenue", n, "advanced") in seen, "advanced twins at %d seats" % n)


def same_refusals(s, games, v, log, rng):
    """The viewer posts the same actions (moves of the log, out of their
    time and seat, some with a field changed) in both games: the same
    status and problem document (the game id aside), up to the first one
    taken.  A refusal's reason may not tell what the viewer may not see."""
    n = 0
    for _ in range(8):
        a = dict(rng.choice(log)[1])
        if rng.randrange(2):
            k = rng.choice(list(a))
            a[k] = rng.choice([0, 1, "mole", [0, 0], None]) if k != "type" else a[k] + "x"
        got = []
        for gid, tok in games:
            r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tok[v])
            # the game id and the request's own id (issue 35) differ
            body = re.sub(r'"request_id":"[^"]*"', '"request_id":""',
                          r.raw.decode().replace(gid, "{id}")) if r.status >= 400 else ""
            got.append((r.status, body))
        n += 1
        check(got[0] == got[1], "viewer %d posts %r: %r vs %r" % (v, a, got[0], got[1]))
        if got[0][0] < 400:
            break
    return n


def catalog(s):
    return s.request("GET", "/v1/catalog").json["games"]


LIVE_KEYS = ("seq", "status", "to_act", "view", "result")


@test
def event_stream_replays_the_live_game(binary):
    rng = random.Random(SEED)
    played = revealed = 0
    with server(binary, extra=QUIET) as s:
        for entry in catalog(s):
            for seats in range(entry["min_seats"], entry["max_seats"] + 1):
                for _ in range(GAMES):
                    maps = [m["name"] for m in entry.get("maps", {}).get(str(seats), [])]
                    options = {"map": rng.choice(maps)} if maps else None
                    gid, tok = create(s, entry["id"], seats, options)
                    viewers = [None] + tok
                    live = {i: [] for i in range(len(viewers))}  # per viewer: what it got after each move
                    restart_at = rng.randrange(1, MOVES)
                    for step in range(MOVES):
                        g = s.request("GET", "/v1/games/%s" % gid, validate=False).json
                        if g["status"] == "finished":
                            break
                        if step == restart_at:
                            s.kill()
                            s.start()
                        seat = rng.choice(g["to_act"])
                        acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tok[seat],
                                         validate=step % 10 == 0).json["actions"]
                        r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": rng.choice(acts)},
                                      token=tok[seat], validate=step % 10 == 0)
                        check(r.status == 201, "listed action refused: %r" % r)
                        for i, t in enumerate(viewers):
                            body = s.request("GET", "/v1/games/%s" % gid, token=t, validate=False).json
                            mv = s.request("GET", "/v1/games/%s/moves?after=%d" % (gid, body["seq"] - 1),
                                           token=t, validate=False).json["moves"]
                            live[i].append(({k: body[k] for k in LIVE_KEYS}, mv))
                        # a stream opened now sends the entry the log shows now
                        i = rng.randrange(len(viewers))
                        st, ctype, raw = read_stream(s.port, "/v1/games/%s/events?after=%d" % (gid, step),
                                                     viewers[i], {"Accept": "application/x-ndjson"}, 1)
                        ev = [e for e in parse_events(ctype, raw) if e["event"] == "move"]
                        check(ev and entry_of(ev[0]) == live[i][-1][1][0],
                              "seq %d: a live event differs from the log read with it" % (step + 1))
                    played += 1
                    n = len(live[0])
                    over = s.request("GET", "/v1/games/%s" % gid, validate=False).json["status"] == "finished"
                    for i, t in enumerate(viewers):
                        now = s.request("GET", "/v1/games/%s/moves" % gid, token=t, validate=False).json["moves"]
                        for j in range(n):
                            then = live[i][j][1]
                            check(then and hides(then[0], now[j]),
                                  "seq %d: what viewer %d saw live is not the log now with less shown:\n"
                                  "  then %r\n  now  %r" % (j + 1, i - 1, then and then[0], now[j]))
                            revealed += then[0] != now[j]
                        for accept in ("application/x-ndjson", "text/event-stream"):
                            st, ctype, body = read_stream(s.port, "/v1/games/%s/events?after=0" % gid, t,
                                                          {"Accept": accept}, n)
                            check(st == 200, "events: %d" % st)
                            evs = [e for e in parse_events(ctype, body) if e["event"] == "move"]
                            check(len(evs) == n, "%d move events, not %d" % (len(evs), n))
                            for j, e in enumerate(evs):
                                want = dict(live[i][j][0])
                                if over:  # once over, a past state in full
                                    want["view"] = s.request("GET", "/v1/games/%s?at=%d" % (gid, j + 1), token=t,
                                                             validate=False).json["view"]
                                check({k: e[k] for k in LIVE_KEYS} == want,
                                      "%s/%d viewer %d, seq %d: the replayed event's state differs"
                                      % (entry["id"], seats, i - 1, j + 1))
                                check(entry_of(e) == now[j],
                                      "%s/%d viewer %d, seq %d: the replayed event's move is not the log's now"
                                      % (entry["id"], seats, i - 1, j + 1))
    check(revealed, "no move showed more later than live: the rule was not exercised")
    print("     %d games, every viewer's events compared with the log now and with what it saw live; "
          "%d entries revealed more later" % (played, revealed))


def entry_of(e):
    """The move entry of a move event: what GET /moves shows for its seq."""
    return {k: e[k] for k in ("seq", "seat", "action", "outcome", "by", "time") if k in e}


def hides(then, now):
    """1 if `then` is `now` with some values not shown: null, or a key left
    out (a redaction that a later reveal fills in)."""
    if then is None or then == now:
        return True
    if isinstance(then, dict) and isinstance(now, dict):
        return all(k in now and hides(v, now[k]) for k, v in then.items())
    if isinstance(then, list) and isinstance(now, list):
        return len(then) == len(now) and all(hides(a, b) for a, b in zip(then, now))
    return False


# ---- refusals over HTTP ----

def snapshot(s, gid, tok):
    """Every viewer's game, actions and log, and the game's entry in the
    list of games, as raw bytes."""
    games = s.request("GET", "/v1/games?limit=100", validate=False).json["games"]
    out = [[json.dumps(g, sort_keys=True) for g in games if g["id"] == gid]]
    for t in [None] + tok:
        r = s.request("GET", "/v1/games/%s" % gid, token=t, validate=False)
        out.append((r.status, r.headers.get("etag"), r.raw))
        if t:
            out.append(s.request("GET", "/v1/games/%s/actions" % gid, token=t, validate=False).raw)
        out.append(s.request("GET", "/v1/games/%s/moves" % gid, token=t, validate=False).raw)
    return out


def mutate(action, rng, listed):
    """A malformed or unlisted variant of a listed action."""
    a = json.loads(json.dumps(action))
    keys = list(a)
    k = rng.choice(keys)
    kind = rng.randrange(8)
    if kind == 0:
        a[k] = rng.choice([None, True, 1.5, "", [], {}, [[0]], "x" * 3])
    elif kind == 1:
        del a[k]
    elif kind == 2:
        a[rng.choice(["x", "", "Type", "seat", "card", "ship"])] = rng.choice([1, "x", None])
    elif kind == 3:
        ints = [x for x in keys if isinstance(a[x], int) and not isinstance(a[x], bool)]
        if ints:
            a[rng.choice(ints)] = rng.choice([-1, 2 ** 31, 2 ** 63 - 1, -2 ** 63, 1000])
        else:
            a["type"] = 7
    elif kind == 4:
        a[k] = "".join(chr(rng.choice([rng.randrange(1, 32), rng.randrange(32, 127), rng.randrange(0x80, 0x800),
                                       rng.randrange(0x1f300, 0x1f600)])) for _ in range(rng.randrange(12)))
    elif kind == 5:
        other = [x for x in listed if x.get("type") == a.get("type") and x != action]
        if other and k != "type" and k in other[0]:
            a[k] = rng.choice(other)[k]
            v = a[k]
            if isinstance(v, int) and not isinstance(v, bool):
                a[k] = v + rng.choice([1, -1, 3])
        else:
            a["type"] = a.get("type", "") + "_"
    elif kind == 6:
        return rng.choice([[action], "play", 3, None, {}])
    else:
        a["type"] = str(a.get("type", "")).upper()
    return a


def bad_requests(s, gid, tok, g, rng):
    """(description, method, path, kwargs) of requests that must all be
    refused now."""
    path = "/v1/games/%s/moves" % gid
    seat = rng.choice(g["to_act"])
    others = [i for i in range(len(tok)) if i not in g["to_act"]]
    listed = s.request("GET", "/v1/games/%s/actions" % gid, token=tok[seat], validate=False).json["actions"]
    # Without their labels: display text, dropped from a posted action
    # unread (src/service/move.c), so a changed label changes nothing.
    listed = [{k: v for k, v in a.items() if k != "label"} for a in listed]
    out = []
    for _ in range(8):
        m = mutate(rng.choice(listed), rng, listed)
        if m not in listed:
            out.append(("mutated %r" % (m,), dict(body={"action": m}, token=tok[seat])))
    blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    good = rng.choice(listed)
    out += [
        ("random bytes", dict(raw=blob, headers={"Content-Type": "application/json"}, token=tok[seat])),
        ("truncated", dict(raw=json.dumps({"action": good}).encode()[:-2],
                           headers={"Content-Type": "application/json"}, token=tok[seat])),
        ("wrong content type", dict(raw=json.dumps({"action": good}).encode(),
                                    headers={"Content-Type": "text/plain"}, token=tok[seat])),
        ("oversized", dict(body={"action": good, "pad": "x" * 70000}, token=tok[seat])),
        ("no token", dict(body={"action": good})),
        ("unknown token", dict(body={"action": good}, token="A" * 43)),
        ("stale If-Match", dict(body={"action": good}, token=tok[seat],
                                headers={"If-Match": '"%d"' % (g["seq"] + 1)})),
        ("bad If-Match", dict(body={"action": good}, token=tok[seat], headers={"If-Match": "soon"})),
        ("expected_seq a string", dict(body={"action": good, "expected_seq": str(g["seq"])}, token=tok[seat])),
        ("resign as a move", dict(body={"action": {"type": "resign"}}, token=tok[seat])),
        ("body an array", dict(body=[{"action": good}], token=tok[seat])),
    ]
    if others:
        out.append(("a seat not to act", dict(body={"action": good}, token=tok[rng.choice(others)])))
    return [(d, "POST", path, kw) for d, kw in out]


@test
def refused_requests_change_nothing(binary):
    rng = random.Random(SEED + 1)
    tried = 0
    with server(binary) as s:
        for entry in catalog(s):
            for seats in range(entry["min_seats"], entry["max_seats"] + 1):
                gid, tok = create(s, entry["id"], seats)
                for step in range(12):
                    g = s.request("GET", "/v1/games/%s" % gid, validate=False).json
                    if g["status"] == "finished":
                        break
                    if step % 3 == 0:
                        before = snapshot(s, gid, tok)
                        for what, method, path, kw in bad_requests(s, gid, tok, g, rng):
                            r = s.request(method, path, **kw)  # validated against the spec
                            check(400 <= r.status < 500, "%s: accepted: %r" % (what, r))
                            tried += 1
                        check(snapshot(s, gid, tok) == before,
                              "%s/%d: a refused request changed what someone sees" % (entry["id"], seats))
                    seat = rng.choice(g["to_act"])
                    acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tok[seat],
                                     validate=False).json["actions"]
                    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": rng.choice(acts)},
                                  token=tok[seat], validate=False)
                    check(r.status == 201, "listed action refused: %r" % r)
    print("     %d refused requests, each followed by an unchanged game for every viewer" % tried)


if __name__ == "__main__":
    run_all("properties-http")
