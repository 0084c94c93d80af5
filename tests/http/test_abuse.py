"""test_abuse.py: hostile clients against the real boardd binary.

Each attack runs while a well-behaved client plays: in a loop it asks for
GET /v1/catalog and makes a real move (view, list actions, post one with
If-Match), each request on a new connection.  Every one of its answers
must be right (the catalog byte for byte, the move 201 at seq + 1) and
come before the server's --timeout (2 s): an answer that took that long
waited on an attacker's connection (a liveness bound; how fast answers
are is make bench's business, never asserted here); each attack prints the client's slowest answers, and the
suite ends with a table of them.  After the attack the server must still
answer, every move it acknowledged must be in its game's log exactly once,
at its seq, as posted; then the server must exit cleanly on SIGTERM (exit
0: under ASan, no leak) and the store's integrity checks must pass on its
database (Server.integrity: SQLite's integrity and foreign-key checks, or
amcheck on PostgreSQL).

Every answer an attack gets is checked against openapi/openapi.yaml
(harness.validate_raw: boardd's answers by their route, libmicrohttpd's
own refusals by x-library-refusals).  The server runs with --timeout 2 and
--keepalive 3, so that the timeout, and how it spares event streams and
long-polls, show in seconds.

Usage: test_abuse.py BOARDD [tests...]"""
import contextlib
import json
import os
import random
import resource
import socket
import threading
import time

from gamehelp import unlabelled
from harness import (Server, check, is_library_refusal, parse_responses,
                     run_all, test, validate_raw)

TIMEOUT = 2        # the server's --timeout, seconds
KEEPALIVE = 3      # its --keepalive, seconds
ATTACK_S = 1.5     # how long the repeated attacks last, at least
GOOD_ROUNDS = 3    # ... and until the good client played this many through them
STUCK_S = 60       # a liveness bound on that, not a latency
AA = "agent-avenue"
LATENCIES = []     # (attack, {kind: slowest seconds}, rounds): the summary


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ---- raw requests ----

def req(method, path, body=b"", headers=(), version="HTTP/1.1"):
    """A raw request: (method, path for validation, bytes).  `path` may
    be bytes (sent as they are); a body gets a Content-Length unless the
    headers frame it."""
    raw_path = path if isinstance(path, bytes) else path.encode("latin-1")
    h = [("Host", "boardd")] + list(headers)
    if body and not any(k.lower() in ("content-length", "transfer-encoding")
                        for k, _ in h):
        h.append(("Content-Length", str(len(body))))
    head = b"%s %s %s\r\n" % (method.encode(), raw_path, version.encode())
    head += b"".join(("%s: %s\r\n" % kv).encode("latin-1") for kv in h)
    return method, raw_path.decode("latin-1"), head + b"\r\n" + body


def closing(r):
    """r with Connection: close added."""
    method, path, data = r
    head, _, body = data.partition(b"\r\n\r\n")
    return method, path, head + b"\r\nConnection: close\r\n\r\n" + body


def connect(s, timeout=5):
    c = socket.create_connection(("127.0.0.1", s.port), timeout=timeout)
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return c


def read_all(c, timeout=5):
    """Every byte until the server closes (or timeout passes)."""
    out = b""
    c.settimeout(timeout)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            b = c.recv(65536)
            if not b:
                break
            out += b
    except (socket.timeout, ConnectionResetError):
        pass
    return out


def answers(raw, reqs):
    """Parses what a connection sent back to reqs and checks each answer
    against the spec for its request (a library refusal ends the
    connection, so it may come for any of them)."""
    rs, _ = parse_responses(raw, [m for m, _, _ in reqs])
    for (method, path, _), r in zip(reqs, rs):
        validate_raw(method, path, r)
    return rs


def send(s, *reqs, timeout=5):
    """Writes reqs at once on a new connection, reads until the server
    closes, and returns the checked answers.  A reset while writing (the
    server answered early and closed) is not an error."""
    c = connect(s, timeout)
    try:
        try:
            c.sendall(b"".join(data for _, _, data in reqs))
        except (BrokenPipeError, ConnectionResetError):
            pass
        raw = read_all(c, timeout)
    finally:
        c.close()
    return answers(raw, reqs)


def one(s, method, path, body=b"", headers=()):
    """One request (Connection: close) and its one checked answer."""
    rs = send(s, closing(req(method, path, body, headers)))
    check(len(rs) == 1, "%s %r: %d answers" % (method, path, len(rs)))
    return rs[0]


def problem(r, status, kind=None):
    check(r.status == status, "want %d, got %r" % (status, r))
    check(r.headers.get("content-type") == "application/problem+json",
          "not problem+json: %r" % r)
    if kind:
        check(r.json["type"] == "urn:boardd:problem:" + kind, "type: %r" % r.json)


def refused(r, status):
    check(r.status == status and is_library_refusal(r),
          "want the library's %d refusal, got %r %r" % (status, r, r.headers))


def attacking(s):
    """Iterates while attack s lasts: ATTACK_S at least, and until the
    good client has played GOOD_ROUNDS rounds since the attack began (on
    a loaded machine the rounds are slower, so the attack lasts longer:
    what GoodClient.finish checks is that the client was served through
    the attack, not how fast), STUCK_S at most."""
    while True:
        yield
        spent = time.monotonic() - s.t0
        if spent >= STUCK_S or (spent >= ATTACK_S and
                                s.good.rounds_since(s.t0) >= GOOD_ROUNDS):
            return


def in_threads(n, fn):
    """Runs fn(0) … fn(n-1) at once; fails if any of them did."""
    errors = []

    def run(i):
        try:
            fn(i)
        except Exception as e:
            errors.append(repr(e))
    ths = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    check(not errors, "%d attack threads failed: %s" % (len(errors), errors[:3]))


def fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


# ---- the well-behaved client ----

class GoodClient(threading.Thread):
    """Plays while an attack runs; records every latency and every move
    the server acknowledged."""

    def __init__(self, s):
        super().__init__(daemon=True)
        self.s = s
        self.halt = threading.Event()
        self.rng = random.Random(7)
        self.lat = {"catalog": [], "view": [], "actions": [], "move": []}
        self.errors = []
        self.rounds = []   # when each round ended
        self.acked = {}    # game id -> [(seq, seat, action)]
        self.tokens = {}   # game id -> seat tokens
        self.gid = None
        self.catalog = s.request("GET", "/v1/catalog").raw

    def rounds_since(self, t0):
        return sum(1 for t in self.rounds if t >= t0)

    def timed(self, kind, *a, **kw):
        t0 = time.monotonic()
        r = self.s.request(*a, **kw)
        self.lat[kind].append(time.monotonic() - t0)
        return r

    def new_game(self):
        r = self.s.request("POST", "/v1/games", {"game": AA, "seats": 2})
        check(r.status == 201, "create: %r" % r)
        self.gid = r.json["id"]
        self.tokens[self.gid] = [x["token"] for x in r.json["seats"]]
        self.acked[self.gid] = []

    def one_round(self):
        r = self.timed("catalog", "GET", "/v1/catalog")
        check(r.status == 200 and r.raw == self.catalog, "catalog: %r" % r)
        if self.gid is None:
            self.new_game()
        tok = self.tokens[self.gid]
        g = self.timed("view", "GET", "/v1/games/" + self.gid, token=tok[0])
        check(g.status == 200, "view: %r" % g)
        if g.json["status"] == "finished":
            self.new_game()
            return
        seat = g.json["to_act"][0]
        a = self.timed("actions", "GET", "/v1/games/%s/actions" % self.gid,
                       token=tok[seat])
        check(a.status == 200 and a.json["actions"], "actions: %r" % a)
        action = self.rng.choice(a.json["actions"])
        m = self.timed("move", "POST", "/v1/games/%s/moves" % self.gid,
                       {"action": action}, token=tok[seat],
                       headers={"If-Match": '"%d"' % g.json["seq"]})
        check(m.status == 201 and m.json["seq"] == g.json["seq"] + 1,
              "move: %r" % m)
        # logged as posted, less its label (display text, dropped: move.c)
        self.acked[self.gid].append((m.json["seq"], seat, unlabelled([action])[0]))

    def run(self):
        while not self.halt.is_set():
            try:
                self.one_round()
                self.rounds.append(time.monotonic())
            except Exception as e:
                self.errors.append(repr(e))
                time.sleep(0.05)
            time.sleep(0.01)

    def finish(self, name, t0, t1):
        """Stops; checks and records what the attack cost the client."""
        self.halt.set()
        self.join(30)
        check(not self.errors, "the good client failed: %s" % self.errors[:3])
        during = [t for t in self.rounds if t0 <= t <= t1 + 0.2]
        worst = {k: max(v) if v else 0.0 for k, v in self.lat.items()}
        LATENCIES.append((name, worst, len(during)))
        print("     %s: good client's slowest catalog %.0f ms, move %.0f ms "
              "(view %.0f, actions %.0f); %d rounds during the attack"
              % (name, worst["catalog"] * 1e3, worst["move"] * 1e3,
                 worst["view"] * 1e3, worst["actions"] * 1e3, len(during)),
              flush=True)
        # Served during the attack; how fast is not asserted (make test
        # never asserts a latency): the rounds and their answers are.
        check(len(during) >= GOOD_ROUNDS, "the good client barely ran: %d rounds" % len(during))

    def check_logs(self):
        """Every acknowledged move is in its log once, at its seq, as
        posted; no other move is."""
        for gid, acked in self.acked.items():
            tok = self.tokens[gid]
            for seat in (0, 1):
                r = self.s.request("GET", "/v1/games/%s/moves" % gid, token=tok[seat])
                check(r.status == 200, "log: %r" % r)
                log = r.json["moves"]
                check([m["seq"] for m in log] == list(range(1, len(acked) + 1)),
                      "game %s: log seqs %r, %d moves acknowledged"
                      % (gid, [m["seq"] for m in log], len(acked)))
                for m, (seq, mseat, action) in zip(log, acked):
                    check(m["seat"] == mseat, "seat of move %d" % seq)
                    if mseat == seat:
                        check(m["action"] == action, "move %d: %r, posted %r"
                              % (seq, m["action"], action))


@contextlib.contextmanager
def attack(binary, name, extra=()):
    """A server and a playing client; the with-block is the attack.  Then
    the checks above, the server's clean exit and a sound database."""
    s = Server(binary, extra=["--timeout", str(TIMEOUT),
                              "--keepalive", str(KEEPALIVE)] + list(extra))
    good = None
    try:
        good = GoodClient(s)
        good.start()
        while len(good.rounds) < 2 and not good.errors:
            time.sleep(0.01)  # playing before the attack starts
        t0 = time.monotonic()
        s.good, s.t0 = good, t0  # for attacks that last as long as it takes
        yield s
        good.finish(name, t0, time.monotonic())
        check(s.request("GET", "/healthz").status == 200, "healthz after the attack")
        good.check_logs()
        s.stop()
        bad = s.integrity()
        check(bad == [], "integrity: %s" % bad)
    finally:
        if good:
            good.halt.set()
        if s.proc.poll() is None:
            s.proc.kill()
        s.cleanup()


def game_for(s):
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2})
    check(r.status == 201, "create: %r" % r)
    return r.json["id"], [x["token"] for x in r.json["seats"]]


def first_action(s, gid, tok):
    """The seat to act, and the first action it lists."""
    seat = s.request("GET", "/v1/games/" + gid, token=tok[0]).json["to_act"][0]
    acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tok[seat]).json
    return seat, unlabelled(acts["actions"])[0]


# ---- slow clients ----

def paced(data, t0, step):
    """The bytes of data one at a time, the k-th at t0 + k * step: on a
    schedule, so that a loaded machine's late wake-ups do not add up
    (sleeps of `step` each would: 60 of them 15 ms late is 0.9 s)."""
    for k, b in enumerate(data):
        time.sleep(max(0.0, t0 + k * step - time.monotonic()))
        yield bytes([b])


def served_slowly(took, rs, status, late):
    """A trickled request's outcome: answered with `status`, or, if the
    client itself took nearly --timeout to send it (a loaded machine),
    perhaps closed unanswered (counted in late)."""
    if took > TIMEOUT - 0.3 and not rs:
        late.append(took)
        return
    check(len(rs) == 1 and rs[0].status == status,
          "trickled over %.2f s: %r" % (took, rs))


@test
def slow_headers(binary):
    """40 clients trickle their request head a byte every 20 ms (about
    1.2 s for the whole head: inside --timeout); each gets its full answer
    at the end, and nobody else waits for them (no thread is held by a
    slow client)."""
    with attack(binary, "slow headers") as s:
        r = closing(req("GET", "/v1/catalog"))
        late = []

        def trickle(i):
            c = connect(s, timeout=10)
            t0 = time.monotonic()
            try:
                for b in paced(r[2], t0, 0.02):
                    c.sendall(b)
            except (BrokenPipeError, ConnectionResetError):
                # Closed at --timeout while this (loaded) client was
                # still trickling: late, as served_slowly counts it.
                took = time.monotonic() - t0
                c.close()
                check(took > TIMEOUT - 0.3, "closed after %.2f s" % took)
                late.append(took)
                return
            took = time.monotonic() - t0
            rs = answers(read_all(c, 5), [r])
            c.close()
            served_slowly(took, rs, 200, late)
        in_threads(40, trickle)
        check(len(late) <= 10, "%d of 40 clients too slow to trickle in time" % len(late))


@test
def slow_bodies(binary):
    """20 clients trickle a POST body a byte every 25 ms (about 1.2 s in
    all), half of them sized, half chunked (one byte a chunk); each body
    is read whole and answered."""
    with attack(binary, "slow bodies") as s:
        body = b'{"name":"a slow client, one byte at a time"}'
        late = []

        def trickle(i):
            c = connect(s, timeout=10)
            t0 = time.monotonic()
            if i % 2:
                r = closing(req("POST", "/v1/players", headers=[
                    ("Content-Type", "application/json"),
                    ("Transfer-Encoding", "chunked")]))
                c.sendall(r[2])
                for b in paced(body, t0, 0.025):
                    c.sendall(b"1\r\n" + b + b"\r\n")
                c.sendall(b"0\r\n\r\n")
            else:
                r = closing(req("POST", "/v1/players", headers=[
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(body)))]))
                c.sendall(r[2])
                for b in paced(body, t0, 0.025):
                    c.sendall(b)
            took = time.monotonic() - t0
            rs = answers(read_all(c, 5), [r])
            c.close()
            served_slowly(took, rs, 201, late)
        in_threads(20, trickle)
        check(len(late) <= 5, "%d of 20 clients too slow to trickle in time" % len(late))


@test
def idle_timeout_closes_stalled_clients(binary):
    """Clients that stop mid-request (after part of the request line, the
    headers, or the body) or that never send a byte are closed, without
    an answer, --timeout seconds after they connected; the server's file
    descriptors come back."""
    with attack(binary, "stalled clients") as s:
        base = fd_count(s.proc.pid)
        partials = [b"", b"GET /v1/cat", b"GET /v1/catalog HTTP/1.1\r\nHost: x\r\n",
                    b"POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"na"]
        conns = []
        for i in range(200):
            c = connect(s)
            c.sendall(partials[i % len(partials)])
            conns.append((c, time.monotonic()))
        # Each closed after its own connection: opening the 200 takes a
        # loaded machine more than the half second a time taken after
        # them all would leave the first one (closed "before the timeout").
        closed_at = []
        for c, t0 in conns:
            data = read_all(c, TIMEOUT + 5)
            closed_at.append(time.monotonic() - t0)
            check(data == b"", "a stalled client got an answer: %r" % data[:80])
            c.close()
        print("     stalled clients closed after %.1f to %.1f s (--timeout %d)"
              % (min(closed_at), max(closed_at), TIMEOUT), flush=True)
        check(min(closed_at) >= TIMEOUT - 0.5, "closed before the timeout: %.2f s"
              % min(closed_at))
        check(max(closed_at) <= TIMEOUT + 2.5, "still open %.2f s after connecting"
              % max(closed_at))
        time.sleep(0.3)
        check(fd_count(s.proc.pid) <= base + 5, "descriptors: %d before, %d after"
              % (base, fd_count(s.proc.pid)))


@test
def slowloris_is_cut_at_the_timeout(binary):
    """Slowloris: 50 clients send a header that never ends, a byte every
    200 ms, so they are never idle.  --timeout bounds the whole request,
    not only the silences: each is closed about 2 s after it connected."""
    with attack(binary, "slowloris") as s:
        def loris(i):
            c = connect(s, timeout=0.05)
            t0 = time.monotonic()
            c.sendall(b"GET /v1/catalog HTTP/1.1\r\nHost: x\r\n")
            data = b"X-Loris-%d: " % i + b"z" * 100
            k = 0
            try:
                while time.monotonic() - t0 < TIMEOUT + 4:
                    c.sendall(data[k % len(data):k % len(data) + 1])
                    k += 1
                    try:
                        if c.recv(1) == b"":
                            break
                    except socket.timeout:
                        pass
                    time.sleep(0.2)
            except (BrokenPipeError, ConnectionResetError):
                pass
            t = time.monotonic() - t0
            c.close()
            check(TIMEOUT - 0.5 <= t <= TIMEOUT + 2.5,
                  "a trickling client was closed after %.1f s" % t)
        in_threads(50, loris)


@test
def idle_flood_past_the_connection_limit(binary):
    """With --max-conns 64, 200 connections that send nothing, replaced
    as soon as the server closes one: the server is full and the rest
    wait in the listen queue.  Near its limit the server closes the
    connections that have waited longest for a request, so a new client
    still gets in before --timeout, not after it."""
    with attack(binary, "idle flood past the limit", extra=["--max-conns", "64"]) as s:
        conns, opened = [], 0
        # Until the good client has played 4 rounds through it (each
        # request waits in the queue), 10 s at most.
        while (time.monotonic() < s.t0 + 2 * ATTACK_S or
               s.good.rounds_since(s.t0) < 4) and time.monotonic() < s.t0 + 10:
            alive = []
            for c in conns:
                try:
                    c.setblocking(False)
                    gone = c.recv(1) == b""
                except BlockingIOError:
                    gone = False
                except ConnectionResetError:
                    gone = True
                if gone:
                    c.close()
                else:
                    alive.append(c)
            conns = alive
            while len(conns) < 200:
                conns.append(connect(s, timeout=TIMEOUT + 6))
                opened += 1
            time.sleep(0.05)
        for c in conns:
            c.close()
        print("     %d idle connections opened, 200 at a time" % opened, flush=True)
        check(opened > 400, "the server closed too few idle connections: "
              "%d opened in all" % opened)


@test
def two_thousand_idle_connections(binary):
    """2000 open connections, half silent and half with a partial request,
    hold no thread: the good client is served meanwhile, and the server
    drops all of them after the timeout."""
    check(raise_nofile() > 2300, "RLIMIT_NOFILE too low for 2000 sockets")
    with attack(binary, "2000 idle connections") as s:
        conns = []
        for i in range(2000):
            c = connect(s, timeout=TIMEOUT + 6)
            if i % 2:
                c.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Half: ")
            conns.append(c)
        t_open = time.monotonic()
        time.sleep(ATTACK_S)
        check(s.request("GET", "/healthz").status == 200, "healthz among 2000 idle")
        left = 0
        for c in conns:
            c.settimeout(max(0.1, t_open + TIMEOUT + 4 - time.monotonic()))
            try:
                left += c.recv(1) != b""
            except socket.timeout:
                left += 1
            except ConnectionResetError:
                pass
            c.close()
        check(not left, "%d of 2000 idle connections not closed 4 s after the "
              "timeout" % left)


# ---- oversized requests ----

@test
def oversized_headers(binary):
    """A 100 KiB header line, a thousand headers and a 100 KiB path: the
    library refuses each (431, 431, 414: documented; boardd never sees
    them) and closes; nothing else is disturbed."""
    with attack(binary, "oversized headers") as s:
        cases = [(req("GET", "/v1/catalog", headers=[("X-Big", "b" * 100 * 1024)]), 431),
                 (req("GET", "/v1/catalog",
                      headers=[("X-H%d" % i, "v") for i in range(1000)]), 431),
                 (req("GET", "/v1/games/" + "a" * 100 * 1024), 414)]
        for _ in attacking(s):
            for r, status in cases:
                rs = send(s, r)
                check(len(rs) == 1, "answers: %r" % rs)
                refused(rs[0], status)


@test
def oversized_bodies(binary):
    """Bodies over the 64 KiB cap: declared (answered on the head alone,
    no 100 Continue), sent with a length, chunked, and streamed on for
    4 MB: each is a 413 problem and changes nothing.  Without a length a
    body is not a body at all (HTTP/1.1): the POST has none, and its bytes
    are a malformed next request."""
    with attack(binary, "oversized bodies") as s:
        gid, tok = game_for(s)
        path = "/v1/games/%s/moves" % gid
        auth = ("Authorization", "Bearer " + tok[0])
        big = b'{"action":' + b" " * (200 * 1024) + b"{}}"
        chunks = b"".join(b"%x\r\n" % len(big[i:i + 65536]) + big[i:i + 65536] + b"\r\n"
                          for i in range(0, len(big), 65536)) + b"0\r\n\r\n"
        for _ in attacking(s):
            r = req("POST", path, headers=[auth, ("Expect", "100-continue"),
                                           ("Content-Length", str(10 ** 9))])
            c = connect(s)
            c.sendall(r[2])  # the head only
            rs = answers(read_all(c, 5), [r])
            c.close()
            check(len(rs) == 1, "declared 1 GB: %r" % rs)
            problem(rs[0], 413, "payload-too-large")
            rs = send(s, req("POST", path, big, headers=[auth]))
            check(len(rs) == 1, "sized: %r" % rs)
            problem(rs[0], 413, "payload-too-large")
            rs = send(s, req("POST", path, chunks,
                             headers=[auth, ("Transfer-Encoding", "chunked")]))
            check(len(rs) == 1, "chunked: %r" % rs)
            problem(rs[0], 413, "payload-too-large")
        # 4 MB, chunked: read and dropped, then one 413.
        r = closing(req("POST", "/v1/players", headers=[("Transfer-Encoding", "chunked")]))
        c = connect(s, timeout=20)
        c.sendall(r[2])
        for _ in range(64):
            c.sendall(b"10000\r\n" + b"x" * 65536 + b"\r\n")
        c.sendall(b"0\r\n\r\n")
        rs = answers(read_all(c, 10), [r])
        c.close()
        check(len(rs) == 1, "4 MB chunked: %r" % rs)
        problem(rs[0], 413, "payload-too-large")
        # No length, no chunking.
        r = req("POST", "/v1/players", headers=[("Content-Type", "application/json")])
        rest = ("GET", "/", b'{"name":"x"}' * 5000)
        rs = send(s, r, rest)
        check(len(rs) >= 1, "no length: %r" % rs)
        problem(rs[0], 400, "malformed-json")
        check(rs[0].json["detail"] == "this request needs a JSON body", "%r" % rs[0].json)
        for x in rs[1:]:
            refused(x, 400)
        check(s.request("GET", path).json["moves"] == [], "a refused body moved the game")


@test
def deeply_nested_json(binary):
    """10^5 '[' (over the cap: 413), 60 000 '[' (under it: the parser's
    depth limit, 400), 33 levels (one over boardd's 32: 400), an object
    nested 12 000 deep and an action 40 deep, from four clients at once:
    every answer is a problem, and nobody else waits."""
    with attack(binary, "deeply nested JSON") as s:
        gid, tok = game_for(s)
        cases = [(b"[" * 100000, 413), (b"[" * 60000, 400),
                 (b"[" * 33 + b"]" * 33, 400), (b'{"a":' * 12000, 400),
                 (b'{"action":' * 40 + b"{}" + b"}" * 40, 400)]

        def hammer(i):
            path = ("/v1/games/%s/moves" % gid) if i % 2 else "/v1/players"
            for _ in attacking(s):
                for body, status in cases:
                    problem(one(s, "POST", path, body, headers=[
                        ("Authorization", "Bearer " + tok[0]),
                        ("Content-Type", "application/json")]), status)
        in_threads(4, hammer)
        check(s.request("GET", "/v1/games/%s/moves" % gid).json["moves"] == [],
              "a refused body moved the game")


# ---- bad bytes ----

@test
def invalid_utf8(binary):
    """Invalid UTF-8 in the body, the path (raw and percent-encoded), the
    query and headers: always an answer valid for its route, a problem
    that is valid JSON where it is an error (the bytes are never echoed
    raw), never a crash."""
    with attack(binary, "invalid UTF-8") as s:
        gid, tok = game_for(s)
        auth = ("Authorization", "Bearer " + tok[0])
        moves = "/v1/games/%s/moves" % gid
        for _ in attacking(s):
            problem(one(s, "POST", "/v1/players", b'{"name":"\xff\xfe"}'), 400, "malformed-json")
            problem(one(s, "POST", "/v1/games", b'{"game":"agent-\xc3"}'), 400, "malformed-json")
            problem(one(s, "POST", moves, b'{"action":{"type":"play","face_up":"\xed\xa0\x80"}}',
                        headers=[auth]), 400, "malformed-json")
            problem(one(s, "GET", b"/v1/games/\xff\xfe\xfd"), 404)
            problem(one(s, "GET", b"/v1/\xc3\x28/%FF"), 404)
            problem(one(s, "GET", "/v1/games?status=%FF%FE"), 400, "bad-request")
            r = one(s, "GET", "/v1/games?game=%C3%28&cursor=%FF")
            check(r.status in (200, 400), "game filter: %r" % r)
            problem(one(s, "GET", "/v1/games/" + gid,
                        headers=[("Authorization", "Bearer \xff\xfe")]), 401, "unauthorized")
            problem(one(s, "POST", moves, b'{"action":{}}',
                        headers=[auth, ("Idempotency-Key", "k\xff\xfe" * 8)]),
                    400, "bad-request")
            # "\xff" is an entity-tag (obs-text, RFC 9110 §8.8.3) that
            # is not the game's: the precondition fails before the body
            # is read (§13.2.1), 412
            problem(one(s, "POST", moves, b'{"action":{}}',
                        headers=[auth, ("If-Match", '"\xff"')]), 412, "stale-state")
            problem(one(s, "POST", "/v1/players", b'{"name":"x"}',
                        headers=[("Content-Type", "application/json\xff")]), 415)
            problem(one(s, "GET", "/v1/games/%s/events" % gid,
                        headers=[("Last-Event-ID", "\xff")]), 400, "bad-request")
            r = one(s, "GET", "/v1/catalog", headers=[("X-Junk", "\xff\xfe\x80")])
            check(r.status == 200, "a junk header broke the catalog: %r" % r)
        check(s.request("GET", moves).json["moves"] == [], "a refused request moved the game")


@test
def content_types_on_posts(binary):
    """No Content-Type, JSON, JSON with parameters and +json are read;
    anything else is 415 and changes nothing."""
    with attack(binary, "wrong Content-Type") as s:
        body = b'{"name":"ct"}'
        for _ in attacking(s):
            for ct, status in ((None, 201), ("application/json", 201),
                               ("application/json; charset=utf-8", 201),
                               ("APPLICATION/JSON", 201),
                               ("application/problem+json", 201),
                               ("text/plain", 415), ("application/xml", 415),
                               ("multipart/form-data; boundary=x", 415),
                               ("application/jsonx", 415), ("", 415),
                               ("json", 415)):
                r = one(s, "POST", "/v1/players", body,
                        headers=[] if ct is None else [("Content-Type", ct)])
                check(r.status == status, "Content-Type %r: %r" % (ct, r))
                if status == 415:
                    problem(r, 415, "unsupported-media-type")
        gid, tok = game_for(s)
        problem(one(s, "POST", "/v1/games/%s/moves" % gid,
                    b'{"action":{"type":"discard","card":"enforcer"}}',
                    headers=[("Authorization", "Bearer " + tok[0]),
                             ("Content-Type", "text/plain")]), 415)
        check(s.request("GET", "/v1/games/" + gid).json["seq"] == 0, "a 415 moved the game")


# Not HTTP, or not quite: (method, the path a lenient parse would route,
# bytes).  libmicrohttpd 0.9.75 is lenient with some (a header line with
# an empty name is skipped; "G E T" is the method "G" on the path "E"),
# and answers a malformed Content-Length with its status line and headers
# twice before closing, so what follows a first answer is not checked.
GARBAGE = [
    ("GET", "/", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256))),  # TLS
    ("GET", "/", b"GARBAGE\r\n\r\n"),
    ("GET", "/", b"\x00\x01\x02\x03 / HTTP/1.1\r\n\r\n"),
    ("GET", "/", b"GET\r\n\r\n"),
    ("GET", "/", b"GET / HTTP/1.1 extra\r\n\r\n"),
    ("G", "E", b"G E T / HTTP/1.1\r\n\r\n"),
    ("GET", "/v1/catalog", b"GET /v1/catalog HTTP/9.9\r\nHost: x\r\n\r\n"),
    ("GET", "/v1/catalog", b"GET /v1/catalog FOO/1.1\r\nHost: x\r\n\r\n"),
    ("GET", "/v1/catalog", b"GET /v1/catalog HTTP/1.1\r\nno colon here\r\n\r\n"),
    ("GET", "/v1/catalog", b"GET /v1/catalog HTTP/1.1\r\n: empty name\r\n\r\n"),
    ("POST", "/v1/players",
     b"POST /v1/players HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
    ("POST", "/v1/players", b"POST /v1/players HTTP/1.1\r\nContent-Length: -5\r\n\r\n"),
    ("POST", "/v1/players",
     b"POST /v1/players HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
    ("GET", "/", b"X" * 5000 + b" / HTTP/1.1\r\n\r\n"),
    ("GET", "/", b"\r\n\r\n\r\n\r\n"),
    ("GET", "/", bytes(random.Random(1).randrange(256) for _ in range(4000))),
]


@test
def garbage_request_lines(binary):
    """Things that are not HTTP, each sent over and over from its own
    client: the library's documented refusal, an answer valid for the
    route a lenient parse found, or a closed connection (at the latest
    after --timeout); never a crash."""
    with attack(binary, "garbage requests") as s:
        seen = set()

        def garbage(i):
            method, path, data = GARBAGE[i]
            for _ in attacking(s):
                t0 = time.monotonic()
                rs = send(s, (method, path, data), timeout=TIMEOUT + 3)
                check(time.monotonic() - t0 < TIMEOUT + 2.5, "no end to %r" % data[:40])
                seen.update(r.status for r in rs)
        in_threads(len(GARBAGE), garbage)
        print("     statuses seen: %s" % sorted(seen), flush=True)


# ---- HTTP/1.0 and pipelining ----

@test
def http_1_0_clients(binary):
    """HTTP/1.0 without Host: answered, and closed after the answer
    unless keep-alive is asked for; a move works over HTTP/1.0."""
    with attack(binary, "HTTP/1.0") as s:
        gid, tok = game_for(s)
        catalog = ("GET", "/v1/catalog", b"GET /v1/catalog HTTP/1.0\r\n\r\n")
        for _ in attacking(s):
            rs = send(s, catalog)
            check([r.status for r in rs] == [200], "1.0 catalog: %r" % rs)
            c = connect(s)
            c.sendall(b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            time.sleep(0.05)
            c.sendall(catalog[2])
            rs = answers(read_all(c, 5), [("GET", "/healthz", b""), catalog])
            c.close()
            check([r.status for r in rs] == [200, 200], "1.0 keep-alive: %r" % rs)
        seat, act = first_action(s, gid, tok)
        rs = send(s, req("POST", "/v1/games/%s/moves" % gid,
                         json.dumps({"action": act}).encode(),
                         headers=[("Authorization", "Bearer " + tok[seat])],
                         version="HTTP/1.0"))
        check([r.status for r in rs] == [201], "1.0 move: %r" % rs)


@test
def pipelined_requests(binary):
    """Thirty requests in one write on one connection, a move among them:
    thirty answers in order, each right, the move applied once; bad ones
    in the middle (malformed JSON, an unknown path) are answered and the
    rest still are."""
    with attack(binary, "pipelining") as s:
        for _ in attacking(s):
            gid, tok = game_for(s)
            seat, act = first_action(s, gid, tok)
            move = req("POST", "/v1/games/%s/moves" % gid,
                       json.dumps({"action": act}).encode(),
                       headers=[("Authorization", "Bearer " + tok[seat]),
                                ("Content-Type", "application/json")])
            kinds = [(req("GET", "/v1/catalog"), 200),
                     (req("HEAD", "/v1/games/" + gid), 200),
                     (req("POST", "/v1/players", b'{"name":'), 400),
                     (req("GET", "/v1/nowhere"), 404),
                     (req("GET", "/v1/games/%s/moves" % gid), 200)]
            reqs, want = [], []
            for i in range(29):
                r, status = (move, 201) if i == 2 else kinds[i % len(kinds)]
                reqs.append(r)
                want.append(status)
            reqs.append(closing(req("GET", "/healthz")))
            want.append(200)
            rs = send(s, *reqs)
            check([r.status for r in rs] == want,
                  "pipelined: %r (want %r)" % ([r.status for r in rs], want))
            log = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[seat]).json["moves"]
            check([m["action"] for m in log] == [act], "pipelined moves: %r" % log)


# ---- floods ----

@test
def request_flood(binary):
    """Eight clients create games and players as fast as they can, each
    a write transaction: the good client is still answered before --timeout."""
    with attack(binary, "write flood") as s:
        def flood(i):
            for _ in attacking(s):
                if i % 2:
                    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2})
                else:
                    r = s.request("POST", "/v1/players", {"name": "flood"})
                check(r.status == 201, "flood: %r" % r)
        in_threads(8, flood)


# ---- the timeout spares streams and long-polls ----

@test
def timeout_spares_streams_and_long_polls(binary):
    """With --timeout 2 and --keepalive 3, an event stream waits 3 s for
    each keep-alive (suspended: neither idle nor sending a request) and
    lives on, and a long-poll of 4 s is answered at 4 s, not cut at 2;
    once answered, its connection is idle and closed 2 s later."""
    with attack(binary, "streams past the timeout") as s:
        gid, tok = game_for(s)
        st = connect(s, timeout=15)
        st.sendall(req("GET", "/v1/games/%s/events" % gid,
                       headers=[("Authorization", "Bearer " + tok[0])])[2])
        lp_req = req("GET", "/v1/games/%s?wait=4" % gid)
        lp = connect(s, timeout=15)
        lp.sendall(lp_req[2])
        t0 = time.monotonic()
        raw = lp.recv(65536)
        lp_t = time.monotonic() - t0
        raw += read_all(lp, 8)  # then idle: closed after the timeout
        lp_closed = time.monotonic() - t0
        lp.close()
        rs = answers(raw, [lp_req])
        check(len(rs) == 1 and rs[0].status == 200, "long-poll: %r" % raw[:200])
        # It waited its wait (a lower bound; no latency is asserted).
        check(lp_t >= 3.8, "the long-poll was answered after %.1f s" % lp_t)
        check(lp_t + TIMEOUT - 0.5 <= lp_closed <= lp_t + TIMEOUT + 2.5,
              "the answered long-poll's connection closed at %.1f s" % lp_closed)
        # The stream: open past two keep-alives.
        time.sleep(max(0, 2 * KEEPALIVE + 0.5 - (time.monotonic() - t0)))
        got = b""
        st.settimeout(0.5)
        try:
            while True:
                b = st.recv(65536)
                if not b:
                    break
                got += b
        except socket.timeout:
            pass
        check(got.startswith(b"HTTP/1.1 200") and got.count(b": keep-alive") >= 2,
              "stream after %.1f s: %r" % (time.monotonic() - t0, got[-300:]))
        # And a move still reaches it.
        seat, act = first_action(s, gid, tok)
        check(s.request("POST", "/v1/games/%s/moves" % gid, {"action": act},
                        token=tok[seat]).status == 201, "move")
        st.settimeout(2)
        more = st.recv(65536)
        st.close()
        check(b"event: move" in more, "the stream missed the move: %r" % more[:200])
        print("     long-poll answered at %.1f s, closed idle at %.1f s; stream alive "
              "at %.1f s with keep-alives" % (lp_t, lp_closed, time.monotonic() - t0),
              flush=True)


def summary():
    if LATENCIES:
        print("     the good client's slowest answers under each attack (ms):")
        for name, worst, n in LATENCIES:
            print("       %-26s catalog %5.0f  move %5.0f  (%d rounds)"
                  % (name, worst["catalog"] * 1e3, worst["move"] * 1e3, n))


import atexit  # noqa: E402
atexit.register(summary)  # after run_all's closing line (it exits)
run_all("abuse")
