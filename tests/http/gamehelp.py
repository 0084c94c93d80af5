"""gamehelp.py: helpers the HTTP suites share: a server fixture, the
few calls every game test makes, and a raw reader for event streams."""
import collections
import contextlib
import json
import os
import socket
import subprocess
import time

from harness import Server, check, note
from streams import Dechunker, EventStream, parse as parse_stream

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


def unlabelled(actions):
    """Listed actions without their `label`: display text that a posted
    action may carry and the server drops unread (src/service/move.c),
    so two actions differing only there are the same action
    (test_display.py checks the labels)."""
    return [{k: v for k, v in a.items() if k != "label"} for a in actions]


def actions(s, gid, tok):
    """The seat's listed actions, unlabelled."""
    r = s.request("GET", "/v1/games/%s/actions" % gid, token=tok)
    check(r.status == 200, "actions: %r" % r)
    return unlabelled(r.json["actions"])


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


def until_not_moot(scenario, what, tries=5):
    """Runs scenario() until it returns True (checked), at most tries
    times.  A scenario returns False when the server's random deal made
    it moot before its checks (e.g. an Agent Avenue catch ended the game
    within the first moves: rules §3, §8.8); nothing it checked is then
    left unchecked, since it runs again on a new game with a new deal.
    Fails when every try was moot (what says how)."""
    for attempt in range(tries):
        if scenario():
            return
        note("attempt %d: %s; again on a new game" % (attempt + 1, what))
    check(False, "%d deals in a row: %s" % (tries, what))


def mid_game(read, seconds=60):
    """Calls read() (a list of game objects, as GET /v1/games/{id} or
    /v1/games answers them) every 20 ms until one of them is active and
    has moved (seq >= 1), or seconds pass; returns its last answer.  For a
    test that must cut games of bots mid-way (a kill, a restart): a fixed
    wait let every game end first on a quiet machine."""
    deadline = time.monotonic() + seconds
    while True:
        games = read()
        if any(g["status"] == "active" and g["seq"] >= 1 for g in games) \
                or time.monotonic() > deadline:
            return games
        time.sleep(0.02)


def over(s, gid, tok=None):
    """True once game gid is no longer active (finished)."""
    return game(s, gid, tok)["status"] != "active"


def read_stream(port, path, token, headers, want, timeout=20, opened=None):
    """GETs an event stream on a raw socket and reads until `want` whole
    events have come or the server ends the stream; returns (status,
    content type, body), the body holding only whole events, an SSE retry
    block and nothing of a keep-alive or of an event still on its way
    (streams.EventStream's `whole`).  An answer other than 200 returns its
    whole body.  opened: a threading.Event set once the answer's head has
    come (a stream "from now on" then gets every later event: a test
    waits for it before it makes one, where a fixed sleep is a guess)."""
    h = {"Host": "127.0.0.1:%d" % port}
    h.update(headers)
    if token:
        h["Authorization"] = "Bearer " + token
    head = "GET %s HTTP/1.1\r\n%s\r\n" % (path, "".join("%s: %s\r\n" % kv for kv in h.items()))
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(head.encode())
    raw, status, ctype = b"", None, ""
    body = dechunk = events = length = None
    n = 0  # body bytes read
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if status is None and b"\r\n\r\n" in raw:
                top, raw = raw.split(b"\r\n\r\n", 1)
                lines = top.decode().split("\r\n")
                status = int(lines[0].split()[1])
                hdrs = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
                ctype = hdrs.get("content-type", "")
                if "chunked" in hdrs.get("transfer-encoding", ""):
                    dechunk = Dechunker()
                if "content-length" in hdrs:
                    length = int(hdrs["content-length"])
                elif status in (204, 304):
                    length = 0
                events, body = EventStream(ctype), bytearray()
                if opened is not None:
                    opened.set()
            if status is not None:
                got = dechunk.feed(raw) if dechunk else raw
                raw = b""
                n += len(got)
                if status == 200:
                    events.feed(got)  # (a stream's body is its events)
                else:
                    body += got
                ended = dechunk.ended if dechunk else length is not None and n >= length
                if status != 200 and (ended or dechunk is None and length is None):
                    return status, ctype, bytes(body)
                if status == 200 and (ended or len(events.events) >= want):
                    return status, ctype, events.whole
            data = sock.recv(1 << 16)
            if not data:
                if status is None:
                    raise AssertionError("stream %s: closed before an answer" % path)
                return status, ctype, events.whole if status == 200 else bytes(body)
            raw += data
    finally:
        sock.close()
    raise AssertionError("stream %s: %d events did not come" % (path, want))


def parse_events(ctype, body):
    """The events of a read_stream body, NDJSON or SSE by its Content-Type:
    a list of event objects (an SSE event's name in "event"; its id is
    checked to be the event's seq)."""
    out = []
    for ev in parse_stream(ctype, body):
        e = ev["data"]
        if "ndjson" not in ctype:
            e["event"] = ev["event"]
            check(ev["id"] == e["seq"], "SSE id is the seq")
        out.append(e)
    return out


def mutate(action, rng):
    """A copy of action with one field changed: an integer (or the first
    of a list of integers) moved by one, a flag or string made invalid; an
    action with no field gets a made-up type.  Without its label."""
    a = unlabelled([action])[0]
    keys = [k for k in a if k != "type"]
    if not keys:
        a["type"] += "_x"
        return a
    k = rng.choice(keys)
    v = a[k]
    if isinstance(v, bool):
        a[k] = "not-a-flag"
    elif isinstance(v, int):
        a[k] = v + rng.choice((-1, 1))
    elif isinstance(v, list) and v and isinstance(v[0], int):
        a[k] = [v[0] + rng.choice((-1, 1))] + v[1:]
    else:
        a[k] = "not-a-" + k
    return a


def move_log(s, gid, token=None, validate=True, limit=None):
    """The whole move log of gid as `token` sees it, read page by page
    (GET .../moves follows next_after): {"seq": the seq of the last page,
    "moves": [...]}, or the Response of a page that was not 200."""
    moves, after = [], 0
    while True:
        q = "?after=%d" % after + ("&limit=%d" % limit if limit else "")
        r = s.request("GET", "/v1/games/%s/moves%s" % (gid, q), token=token, validate=validate)
        if r.status != 200:
            return r
        moves += r.json["moves"]
        if "next_after" not in r.json:
            return {"seq": r.json["seq"], "moves": moves}
        after = r.json["next_after"]


def views(s, gid, tokens, stable=lambda g: g):
    """Every seat's and the spectator's game (without its "updated" time,
    passed through stable) and move log: what a restart must keep."""
    out = []
    for t in list(tokens) + [None]:
        body = s.request("GET", "/v1/games/%s" % gid, token=t).json
        body.pop("updated", None)
        out.append(stable(body))
        out.append(move_log(s, gid, t))
    return out


def identical_after_sigkill(s, games, stable=lambda g: g):
    """Kills the server with SIGKILL, restarts it, and checks every game of
    games (a list of (label, gid, tokens)) answers as before."""
    before = {gid: views(s, gid, tokens, stable) for _, gid, tokens in games}
    s.kill()
    s.start()
    for label, gid, tokens in games:
        check(views(s, gid, tokens, stable) == before[gid],
              "%s: identical after SIGKILL and restart" % label)


def acknowledged_in_logs(s, games, acked):
    """What the move logs say against what the posts were told; [] when
    they agree, else one line per finding.  games: (gid, seat tokens)
    pairs; acked: (gid, seq, seat, action) for every 2xx answer to a
    POST .../moves (a retried post's replayed answer included), action as
    posted.  Each acknowledged move must be in its poster's log at its
    seq, by that seat, as posted, and acknowledged once; every logged
    move must have been acknowledged (a post retried with its
    Idempotency-Key until answered is told of the move it made); every
    seat's log must list the same seats at the same seqs.  The poster's
    log, because a log shows a viewer another seat's hidden card hidden
    (Agent Avenue rules §5: a discard has no card, a face-down card is
    null until recruited; a spectator too, until the game ends)."""
    found = []
    logs = {}  # gid -> [the log as seat 0 sees it, as seat 1 does, ...]
    for gid, tokens in games:
        logs[gid] = []
        for seat, t in enumerate(tokens):
            r = move_log(s, gid, t, validate=False)
            if not isinstance(r, dict):
                found.append("%s: the log as seat %d sees it: %r" % (gid, seat, r))
            logs[gid].append(r["moves"] if isinstance(r, dict) else [])
        who = [[(m["seq"], m["seat"]) for m in log] for log in logs[gid]]
        if any(w != who[0] for w in who):
            found.append("%s: the seats' logs list different moves: %r" % (gid, who))
    told = collections.Counter((gid, seq) for gid, seq, _, _ in acked)
    for gid, seq, seat, action in acked:
        log = logs[gid][seat]
        m = log[seq - 1] if 0 < seq <= len(log) else None
        if not m or m["seq"] != seq or m["seat"] != seat or m["action"] != action:
            found.append("%s#%d acknowledged to seat %d as %s; seat %d's log holds %s" % (
                gid, seq, seat, json.dumps(action, sort_keys=True), seat,
                json.dumps(m, sort_keys=True) if m else "no move there"))
    found += ["%s#%d acknowledged %d times" % (k + (n,)) for k, n in told.items() if n > 1]
    found += ["%s#%d (seat %d) is in the log but no post was told it landed" % (gid, m["seq"], m["seat"])
              for gid, seat_logs in logs.items() for m in seat_logs[0] if (gid, m["seq"]) not in told]
    return found


def engine_pairs(binary, n):
    """The twin pairs the engine-level suite builds (one JSON object a
    line); it checks them itself first and fails if they do not hold."""
    exe = os.path.join(os.path.dirname(os.path.abspath(binary)), "tests", "test_properties")
    p = subprocess.run([exe, "--export", str(n)], capture_output=True, timeout=300)
    check(p.returncode == 0, "test_properties --export failed: %s" % p.stderr.decode()[-2000:])
    return [json.loads(line) for line in p.stdout.decode().splitlines() if line]


def create_game(s, game, seats, options=None, setup=None):
    """A new game of `game` for `seats` seats: (id, [seat tokens])."""
    body = {"game": game, "seats": seats}
    if options:
        body["options"] = options
    if setup is not None:
        body["setup"] = setup
    r = s.request("POST", "/v1/games", body)
    check(r.status == 201, "create %s/%d: %r" % (game, seats, r))
    return r.json["id"], [x["token"] for x in r.json["seats"]]


# One owner's flood of bot decisions (issue 34, finding 4): a player's
# games of four level-5 mcts bots, each of whose decisions takes the whole
# --bot-ms.  A server running them needs --bot-games-per-player >= n.
FLOOD_SEATING = [{"bot": "mcts", "level": 5}] * 4
FLOOD_OPTIONS = {}  # the default map for four


def player_token(s, name="Bots"):
    """A new player's token (a game of bots only needs one)."""
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["token"]


def flood_bot_games(s, n, name="Mallory"):
    """Creates n Quantum games of four level-5 bots as a new player (each
    queues a decision at once) and returns the player's token."""
    tok = player_token(s, name)
    for _ in range(n):
        r = s.request("POST", "/v1/games", {"game": "quantum", "seating": FLOOD_SEATING,
                                           "options": FLOOD_OPTIONS}, token=tok)
        check(r.status == 201, "a flood game: %r" % r)
    return tok
