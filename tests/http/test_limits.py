"""test_limits.py: what one client may take of the server (issue 9, items
1 and 2), against the real boardd binary with its limits ON (the other
suites turn them off, harness.LIMITS_OFF):

- event streams and long-polls have their own budget, globally (ordinary
  requests keep room under --max-conns), per client address and per token;
  past it 429 (503 when the server's budget is spent) with Retry-After;
- a stream or long-poll whose client closed gives its slot back within
  seconds, so open-and-close cycles do not fill the server;
- token-bucket rate limits per address and per token on creating players,
  games, joins and moves, with Retry-After and the RateLimit headers;
- the client address comes from X-Forwarded-For / X-Real-IP only when the
  peer is a --trusted-proxy;
- caps on open waiting games per player and per address, and waiting games
  that expire.

Usage: test_limits.py BOARDD [tests...]"""
import http.client
import json
import re
import resource
import socket
import time

from gamehelp import AA, server
from harness import Response, check, run_all, test, validate_response


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def open_get(port, path, token=None, headers=None, source=None):
    """Sends a GET on a new socket (from loopback address `source`, e.g.
    "127.0.0.5", standing in for another client; None: 127.0.0.1) and
    returns the socket, unread."""
    h = {"Host": "127.0.0.1:%d" % port}
    h.update(headers or {})
    if token:
        h["Authorization"] = "Bearer " + token
    sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(source, 0) if source else None)
    sock.sendall(("GET %s HTTP/1.1\r\n%s\r\n" % (
        path, "".join("%s: %s\r\n" % kv for kv in h.items()))).encode())
    return sock


def read_head(sock, timeout=10):
    """Reads a response's status and headers (and whatever body came with
    them): (status, headers, body bytes so far).  None if nothing came."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return None
            data += chunk
    except socket.timeout:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return int(lines[0].split()[1]), headers, body


def read_whole(sock, head):
    """The whole sized response whose head read_head returned."""
    status, headers, body = head
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return Response(status, headers.items(), body)


def create(s, token=None, status=201, headers=None, **body):
    b = {"game": AA, "seats": 2}
    b.update(body)
    r = s.request("POST", "/v1/games", b, token=token, headers=headers)
    check(r.status == status, "create: %r" % r)
    return r


def player(s, name, headers=None):
    r = s.request("POST", "/v1/players", {"name": name}, headers=headers)
    check(r.status == 201, "player: %r" % r)
    return r.json["token"]


def connections_gone(s, what, seconds=10):
    """Waits until the server holds no client connection (each one its
    client closed is closed on its side too): a bound, not a latency;
    a loaded machine's server may take more than the second of its
    hangup poll (HUB_HANGUP_POLL_MS), as a fixed sleep assumed."""
    end = time.monotonic() + seconds
    while s.client_connections():
        check(time.monotonic() < end, "%s: %d client connections still open after %d s"
              % (what, s.client_connections(), seconds))
        time.sleep(0.05)


def quick(s, path, what):
    """GET path is answered 200 (served, not refused, while the budgets
    are spent; how fast is make bench's "under a stream flood": make test
    asserts no latency)."""
    r = s.request("GET", path)
    check(r.status == 200, "%s: %r" % (what, r))


def refused(sock, path, statuses=(429, 503)):
    """Reads a refusal of a stream or long-poll: its status, checked
    against the spec, with Retry-After."""
    head = read_head(sock)
    check(head is not None, "no answer to %s" % path)
    r = read_whole(sock, head)
    check(r.status in statuses, "%s: %r" % (path, r))
    validate_response("GET", path, r)
    check(r.headers.get("retry-after", "").isdigit()
          and int(r.headers["retry-after"]) >= 1, "no Retry-After: %r" % r.headers)
    return r


# ---- streams and long-polls: budgets ----

# The tests of the global budget: their anonymous streams may take it all
# (anonymous_flood_leaves_players_room tests the share).
NO_ANON_SHARE = ["--max-streams-anonymous", "0", "--max-streams-per-net", "0"]

@test
def streams_past_max_conns_leave_room(binary):
    """The issue's repro: 70 anonymous streams with --max-conns 64 made
    /healthz time out for 30 s.  Now at most half the connections are
    streams; the others are refused with 503 (the server's budget) or 429,
    and health, views and writes answer at once."""
    raise_nofile()
    with server(binary, limits=True, extra=["--max-conns", "64", "--max-conns-per-addr", "0",
                                            "--max-streams-per-addr", "0"] + NO_ANON_SHARE) as s:
        gid = create(s).json["id"]
        path = "/v1/games/%s/events" % gid
        socks = [open_get(s.port, path) for _ in range(70)]
        statuses = []
        for sock in socks:
            head = read_head(sock, timeout=5)
            statuses.append(head[0] if head else None)
        # 70 connections do not fit in 64: those past the limit, and near
        # it those whose request waits longest, are closed unanswered
        # (None), as the connection table does; the others are refused.
        ok = statuses.count(200)
        check(all(st in (200, 503, None) for st in statuses), "statuses %r" % statuses)
        check(0 < ok <= 32, "streams accepted: %d of 70 (%r)" % (ok, statuses))
        # On a loaded machine the table may also close a connection whose
        # request the server had not read yet (None, not a 200): open
        # more, one at a time, until the budget refuses.  It refuses
        # exactly at half of --max-conns.
        more = []
        for _ in range(100):
            if ok + len(more) > 32:
                break
            sock = open_get(s.port, path)
            head = read_head(sock, timeout=10)
            if head is None:
                sock.close()
                continue
            if head[0] != 200:
                check(head[0] == 503, "past the budget: %r" % (head,))
                sock.close()
                break
            more.append(sock)
        check(ok + len(more) == 32, "streams accepted: %d of 70, then %d more (%r)"
              % (ok, len(more), statuses))
        socks += more
        quick(s, "/healthz", "healthz with 32 streams and 38 refused")
        quick(s, "/v1/games/%s" % gid, "a game view")
        create(s)
        # A long-poll is one of them too: refused while the budget is full.
        lp = open_get(s.port, "/v1/games/%s?wait=30" % gid)
        refused(lp, "/v1/games/%s" % gid, (503,))
        lp.close()
        for sock in socks:
            sock.close()


@test
def stream_budget_per_address_and_token(binary):
    """Per client address and per token: the next stream or long-poll is
    refused with 429 too-many-requests and Retry-After."""
    with server(binary, limits=True, extra=["--max-streams-per-addr", "5",
                                            "--max-streams-per-token", "2"]) as s:
        r = create(s)
        gid, tok = r.json["id"], r.json["seats"][0]["token"]
        path = "/v1/games/%s/events" % gid
        held = [open_get(s.port, path, token=tok) for _ in range(2)]
        for sock in held:
            check(read_head(sock)[0] == 200, "a token's first two streams")
        third = open_get(s.port, path, token=tok)
        r = refused(third, path, (429,))
        check(r.json["type"] == "urn:boardd:problem:too-many-requests", "type: %r" % r.json)
        third.close()
        # The address still has room for 3 more (anonymous here).
        for _ in range(3):
            sock = open_get(s.port, path)
            check(read_head(sock)[0] == 200, "the address's streams 3 to 5")
            held.append(sock)
        sixth = open_get(s.port, path)
        refused(sixth, path, (429,))
        sixth.close()
        # A long-poll counts against the same budget.
        lp = open_get(s.port, "/v1/games/%s?wait=20" % gid)
        refused(lp, "/v1/games/%s" % gid, (429,))
        lp.close()
        # A plain view is not a stream: never refused by it.
        quick(s, "/v1/games/%s" % gid, "a plain view at the stream budget")
        for sock in held:
            sock.close()


@test
def account_stream_and_my_games_wait_take_the_budget(binary):
    """The account stream (GET /v1/players/me/events) and the long-poll on
    GET /v1/players/me/games?wait= take slots of the same budget as game
    streams: past the token's, 429 with Retry-After; a plain listing is
    never refused by it."""
    with server(binary, limits=True, extra=["--max-streams-per-token", "2"]) as s:
        tok = player(s, "Ann")
        ev, games = "/v1/players/me/events", "/v1/players/me/games"
        held = [open_get(s.port, ev, token=tok)]
        check(read_head(held[0])[0] == 200, "the token's first account stream")
        # A long-poll with nothing new waits, holding the second slot.
        held.append(open_get(s.port, games + "?wait=30", token=tok))
        held[1].settimeout(1.0)
        try:
            data = held[1].recv(100)
        except socket.timeout:
            data = None
        check(data is None, "the long-poll waits: %r" % data)
        third = open_get(s.port, ev, token=tok)
        r = refused(third, ev, (429,))
        check(r.json["type"] == "urn:boardd:problem:too-many-requests", "type: %r" % r.json)
        third.close()
        lp = open_get(s.port, games + "?wait=30", token=tok)
        refused(lp, games, (429,))
        lp.close()
        r = s.request("GET", games, token=tok)
        check(r.status == 200, "a plain listing at the budget: %r" % r)
        for sock in held:
            sock.close()


@test
def anonymous_flood_leaves_players_room(binary):
    """Issue 34, finding 2: 64 addresses without a token filled the whole
    stream budget, and every player's /events and ?wait= got 503.  Now
    clients without a token share --max-streams-anonymous of the budget,
    and one network (IPv4 /24, IPv6 /48) --max-streams-per-net of that:
    with a flood from 127.0.0.2-4 (one /24) holding its network's share,
    another anonymous client of that /24 gets 429; with the anonymous
    share spent (more networks, through a trusted proxy), another gets 503;
    a player's game stream, account stream and long-poll still open; a
    made-up token takes no slot (refused 403/401 first)."""
    with server(binary, limits=True, extra=[
            "--max-streams", "16", "--max-streams-anonymous", "8",
            "--max-streams-per-net", "6", "--max-streams-per-addr", "2",
            "--trusted-proxy", "127.0.0.1"]) as s:
        ann = player(s, "Ann")
        gid = create(s, token=ann).json["id"]
        path = "/v1/games/%s/events" % gid
        held = []
        for i in range(2, 5):
            for _ in range(2):
                sock = open_get(s.port, path, source="127.0.0.%d" % i)
                check(read_head(sock)[0] == 200, "anonymous stream from 127.0.0.%d" % i)
                held.append(sock)
        # The /24 holds its 6: another address of it is refused, 429.
        sock = open_get(s.port, path, source="127.0.0.5")
        r = refused(sock, path, (429,))
        check(r.json["type"] == "urn:boardd:problem:too-many-requests", "type: %r" % r.json)
        sock.close()
        # Two more networks' anonymous clients fill the share (8): then 503.
        for net in ("198.51.100.7", "2001:db8:1:2::7"):
            sock = open_get(s.port, path, headers={"X-Forwarded-For": net})
            check(read_head(sock)[0] == 200, "anonymous stream from %s" % net)
            held.append(sock)
        for net in ("203.0.113.9", "2001:db8:2::9"):
            sock = open_get(s.port, path, headers={"X-Forwarded-For": net})
            refused(sock, path, (503,))
            sock.close()
        lp = open_get(s.port, "/v1/games/%s?wait=30" % gid, source="127.0.0.6")
        refused(lp, "/v1/games/%s" % gid, (503,))
        lp.close()
        # A made-up token is no player: refused before it takes a slot.
        sock = open_get(s.port, path, token="made-up", source="127.0.0.6")
        r = read_whole(sock, read_head(sock))
        check(r.status in (401, 403), "a made-up token's stream: %r" % r)
        sock.close()
        # Players keep the rest: from the flooding /24 too.
        sock = open_get(s.port, path, token=ann, source="127.0.0.5")
        check(read_head(sock)[0] == 200, "a player's game stream during the flood")
        held.append(sock)
        sock = open_get(s.port, "/v1/players/me/events", token=ann,
                        headers={"X-Forwarded-For": "203.0.113.9"})
        check(read_head(sock)[0] == 200, "a player's account stream during the flood")
        held.append(sock)
        lp = open_get(s.port, "/v1/players/me/games?wait=30", token=ann, source="127.0.0.6")
        lp.settimeout(1.0)
        try:
            data = lp.recv(100)
        except socket.timeout:
            data = None
        check(data is None, "a player's long-poll waits during the flood: %r" % data)
        held.append(lp)
        for sock in held:
            sock.close()


@test
def closed_clients_give_back_their_slots(binary):
    """A client that closes its stream or long-poll is noticed within a
    few seconds (it was only at the next keep-alive, 15-30 s): cycles of
    opening and closing 30 streams, then 30 long-polls, with
    --max-conns 64 (32 streams at once) and 30 s keep-alives never find
    the budget or the server full."""
    raise_nofile()
    with server(binary, limits=True, extra=["--max-conns", "64", "--keepalive", "30",
                                            "--max-conns-per-addr", "0",
                                            "--max-streams-per-addr", "0"] + NO_ANON_SHARE) as s:
        gid = create(s).json["id"]
        for cycle in range(4):
            socks = [open_get(s.port, "/v1/games/%s/events" % gid) for _ in range(30)]
            got = [read_head(sock, timeout=5) for sock in socks]
            codes = [g[0] if g else None for g in got]
            check(codes.count(200) == 30, "cycle %d streams: %r" % (cycle, codes))
            for sock in socks:
                sock.close()
            # noticed within 10 s (it was at the next keep-alive, 30 s)
            connections_gone(s, "cycle %d's streams" % cycle)
        for cycle in range(3):
            socks = [open_get(s.port, "/v1/games/%s?wait=60" % gid) for _ in range(30)]
            time.sleep(0.5)
            for sock in socks:
                # Still waiting: no answer, in particular no refusal.
                sock.settimeout(0.01)
                try:
                    data = sock.recv(100)
                except socket.timeout:
                    data = None
                check(data is None, "cycle %d: a long-poll answered %r" % (cycle, data))
            for sock in socks:
                sock.close()
            connections_gone(s, "cycle %d's long-polls" % cycle)
        quick(s, "/healthz", "healthz after the cycles")
        sock = open_get(s.port, "/v1/games/%s/events" % gid)
        check(read_head(sock)[0] == 200, "a stream after the cycles")
        sock.close()


@test
def connections_per_address(binary):
    """One peer address holds at most --max-conns-per-addr connections (64
    by default): more are closed at once, and other addresses are served
    as usual (a flood from one address reconnecting or asking again on
    hundreds of connections would otherwise take the worker threads)."""
    with server(binary, limits=True, extra=["--max-conns-per-addr", "8"]) as s:
        # the harness's start-up check has gone (a fixed 0.3 s did not
        # wait for it on a loaded machine)
        connections_gone(s, "the start-up check")
        held = []
        for _ in range(8):  # each answered once, and kept open
            c = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            check(c.recv(100).startswith(b"HTTP/1.1 200"), "connection %d" % len(held))
            held.append(c)
        extra = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            got = extra.recv(100)
        except ConnectionError:
            got = b""
        check(got == b"", "a ninth connection was served: %r" % got)
        other = socket.socket()
        other.bind(("127.0.0.2", 0))
        other.settimeout(5)
        other.connect(("127.0.0.1", s.port))
        other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        check(other.recv(100).startswith(b"HTTP/1.1 200"), "another address is served")
        for c in held + [extra, other]:
            c.close()


# ---- rate limits ----

def policy_members(value):
    """'"games-addr";q=5;w=60, …' -> {"games-addr": {"q": 5, "w": 60}}"""
    out = {}
    for member in value.split(","):
        parts = member.strip().split(";")
        m = re.fullmatch(r'"([a-z]+-[a-z]+)"', parts[0])
        check(m is not None, "member %r of %r" % (member, value))
        out[m.group(1)] = {k: int(v) for k, v in (p.split("=") for p in parts[1:])}
    return out


@test
def games_rate_limited_per_address(binary):
    """The issue's repro: 3,000 anonymous games in 2 s.  With a budget of 5
    per minute the sixth is refused: 429 too-many-requests, Retry-After,
    and RateLimit-Policy / RateLimit (IETF draft) on every answer; nothing
    is created by the refused one."""
    with server(binary, limits=True, extra=["--rate-limit", "games.addr=5/1m"]) as s:
        for i in range(5):
            r = create(s)
            pol = policy_members(r.headers["ratelimit-policy"])
            check(pol["games-addr"] == {"q": 5, "w": 60}, "policy %r" % pol)
            now = policy_members(r.headers["ratelimit"])
            check(now["games-addr"]["r"] == 4 - i, "remaining %r after %d" % (now, i + 1))
        before = s.request("GET", "/v1/games").json["games"]
        r = create(s, status=429)
        check(r.json["type"] == "urn:boardd:problem:too-many-requests", "type %r" % r.json)
        ra = int(r.headers["retry-after"])
        check(1 <= ra <= 12, "Retry-After %d (one game per 12 s)" % ra)
        check(policy_members(r.headers["ratelimit"])["games-addr"]["r"] == 0, "r=0")
        check(s.request("GET", "/v1/games").json["games"] == before, "a refused create created")
        # Reads are never rate limited.
        quick(s, "/v1/games", "a listing")


@test
def webhook_registration_rate_limited(binary):
    """PUT /v1/players/me/webhook writes and makes a new secret each time:
    rate limited per token (and address) like the other writes; a refused
    PUT changes nothing, and another player's budget is untouched."""
    with server(binary, limits=True, extra=["--rate-limit", "webhooks.token=2/1h"]) as s:
        ann, bob = player(s, "Ann"), player(s, "Bob")
        for i in range(2):
            r = s.request("PUT", "/v1/players/me/webhook",
                          {"url": "https://example.com/%d" % i}, token=ann)
            check(r.status == 200, "PUT %d: %r" % (i, r))
            pol = policy_members(r.headers["ratelimit-policy"])
            check(pol["webhooks-token"] == {"q": 2, "w": 3600}, "policy %r" % pol)
        r = s.request("PUT", "/v1/players/me/webhook", {"url": "https://example.com/x"}, token=ann)
        check(r.status == 429 and r.json["type"] == "urn:boardd:problem:too-many-requests",
              "third PUT: %r" % r)
        check(int(r.headers["retry-after"]) >= 1, "Retry-After: %r" % r.headers)
        r = s.request("GET", "/v1/players/me/webhook", token=ann)
        check(r.status == 200 and r.json["url"] == "https://example.com/1", "unchanged: %r" % r)
        r = s.request("PUT", "/v1/players/me/webhook", {"url": "https://example.com/b"}, token=bob)
        check(r.status == 200, "another player's PUT: %r" % r)


@test
def rate_limits_per_token(binary):
    """Per token: one player's budget spent does not touch another's, nor
    the address's; moves and joins have their own."""
    with server(binary, limits=True,
                extra=["--rate-limit", "games.token=3/1h,joins.token=1/1h,moves.token=2/1h"]) as s:
        a, b = player(s, "A"), player(s, "B")
        for _ in range(3):
            create(s, token=a)
        create(s, token=a, status=429)
        g = create(s, token=b, seating=["me", "open"]).json["id"]
        create(s)  # anonymous: the address has room
        c = player(s, "C")
        r = s.request("POST", "/v1/games/%s/join" % g, token=c)
        check(r.status == 200 and "ratelimit" in r.headers, "join: %r" % r)
        g2 = create(s, token=b, seating=["me", "open"]).json["id"]
        r = s.request("POST", "/v1/games/%s/join" % g2, token=c)
        check(r.status == 429 and r.json["type"].endswith("too-many-requests"), "2nd join: %r" % r)
        # Moves: a token's third POST is refused whatever the first two
        # answered (a move, then not-your-turn), and changes nothing.
        r = create(s)
        gid, toks = r.json["id"], [x["token"] for x in r.json["seats"]]
        seat = s.request("GET", "/v1/games/%s" % gid).json["to_act"][0]
        act = s.request("GET", "/v1/games/%s/actions" % gid, token=toks[seat]).json["actions"][0]
        codes = [s.request("POST", "/v1/games/%s/moves" % gid, {"action": act},
                           token=toks[seat]).status for _ in range(3)]
        check(codes[0] == 201 and codes[1] != 429 and codes[2] == 429, "moves %r" % codes)
        check(s.request("GET", "/v1/games/%s" % gid).json["seq"] == codes.count(201),
              "seq after refusals")
        r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": act},
                      token=toks[1 - seat])
        check(r.status != 429, "the other seat's token has its own budget: %r" % r)


def post_from(port, source, path, body, token=None, answer=False):
    """POSTs body (JSON) from loopback address `source` on a connection of
    its own; the status (answer: the whole harness Response)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                   source_address=(source, 0))
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = "Bearer " + token
    try:
        c.request("POST", path, json.dumps(body), h)
        r = c.getresponse()
        return Response(r.status, r.getheaders(), r.read()) if answer else r.status
    finally:
        c.close()


def games_left(port, source):
    """Creates a game from `source`: the requests its address's games
    bucket has left after it (RateLimit's r)."""
    r = post_from(port, source, "/v1/games", {"game": AA, "seats": 2}, answer=True)
    check(r.status == 201, "create from %s: %r" % (source, r))
    m = re.search(r'"games-addr";r=(\d+);', r.headers.get("ratelimit", ""))
    check(m, "no games-addr in RateLimit: %r" % r.headers)
    return int(m.group(1))


@test
def honest_bucket_outlives_made_up_tokens_and_refused_streams(binary):
    """Issue 34's goal: refused or unauthenticated requests never evict an
    honest client's bucket.  With a table of 64 entries (--rate-table), a
    made-up token that passed the limiter (refused after it, 4xx) and
    a refused stream open each stored an entry: 100 of either evicted an
    address that had spent 2 of its 12 creates (less than half: forgotten,
    not remembered), which got all 12 back.  Now neither stores one, and
    the address keeps what it has left."""
    with server(binary, limits=True, extra=["--rate-table", "64",
                                            "--rate-limit", "games.addr=12/1h",
                                            "--max-streams", "1"]) as s:
        games_left(s.port, "127.0.0.2")
        check(games_left(s.port, "127.0.0.2") == 10, "two creates taken")
        flood = [post_from(s.port, "127.0.0.3", "/v1/tickets", {},
                           token="made-up-%d" % i) for i in range(100)]
        check(429 not in flood and all(400 <= x < 500 for x in flood),
              "made-up tokens pass the limiter, refused after it: %r" % set(flood))
        check(games_left(s.port, "127.0.0.2") == 9,
              "the bucket kept through 100 made-up tokens")
        gid = post_from(s.port, "127.0.0.4", "/v1/games", {"game": AA, "seats": 2},
                        answer=True).json["id"]
        path = "/v1/games/%s/events" % gid
        held = open_get(s.port, path, source="127.0.0.4")
        check(read_head(held)[0] == 200, "the one stream slot")
        for i in range(100):
            sock = open_get(s.port, path, source="127.0.0.%d" % (10 + i))
            refused(sock, path, (503,))
            sock.close()
        check(games_left(s.port, "127.0.0.2") == 8,
              "the bucket kept through 100 refused stream opens")
        held.close()


@test
def made_up_tokens_do_not_reset_a_quota(binary):
    """Issue 34, finding 3: the limiter's table dropped its least recently
    used entry, and a refused request with a made-up bearer token added
    one: a flood of them from a second address gave the first, refused
    one its whole quota again.  Now a refused request stores nothing, and
    an evicted bucket's debt stays in an over-counting sketch: with a
    table of 64 entries (--rate-table), neither 150 made-up tokens from
    127.0.0.3 nor one request each from 80 more addresses (made-up tokens
    too) let 127.0.0.2 create again."""
    with server(binary, limits=True, extra=["--rate-table", "64",
                                            "--rate-limit", "games.addr=3/1h"]) as s:
        body = {"game": AA, "seats": 2}
        first = [post_from(s.port, "127.0.0.2", "/v1/games", body) for _ in range(5)]
        check(first == [201, 201, 201, 429, 429], "the first address's quota: %r" % first)
        flood = [post_from(s.port, "127.0.0.3", "/v1/games", body,
                           token="made-up-%d" % i) for i in range(150)]
        check(flood.count(429) == 147, "the second address's flood: %r" % flood)
        check(post_from(s.port, "127.0.0.2", "/v1/games", body) == 429,
              "the first address stays refused after one address's flood")
        many = [post_from(s.port, "127.0.0.%d" % (10 + i), "/v1/games", body,
                          token="made-up-again-%d" % i) for i in range(80)]
        check(429 not in many, "one request from each new address: %r" % many)
        check(post_from(s.port, "127.0.0.2", "/v1/games", body) == 429,
              "the first address stays refused after 80 addresses' flood")
        check(post_from(s.port, "127.0.0.200", "/v1/games", body) == 201,
              "a new address still creates")


@test
def players_rate_limited(binary):
    with server(binary, limits=True, extra=["--rate-limit", "players.addr=2/1h"]) as s:
        player(s, "one")
        player(s, "two")
        r = s.request("POST", "/v1/players", {"name": "three"})
        check(r.status == 429 and r.headers.get("retry-after"), "third player: %r" % r)


@test
def rate_limit_off_and_bad_flags(binary):
    """--rate-limit off: no limit and no RateLimit headers.  A malformed
    flag is refused at start."""
    with server(binary, limits=True, extra=["--rate-limit", "off"]) as s:
        for _ in range(80):
            r = create(s)
        check("ratelimit" not in r.headers and "ratelimit-policy" not in r.headers,
              "headers with limits off: %r" % r.headers)
    import subprocess
    for bad in (["--rate-limit", "games.addr=5"], ["--rate-limit", "dance.addr=1/1m"],
                ["--trusted-proxy", "not-an-ip"], ["--max-streams-per-addr", "-1"]):
        p = subprocess.run([binary, "--port", "0", "--db", "/nonexistent/x.db"] + bad,
                           capture_output=True, timeout=30)
        check(p.returncode == 2, "%r accepted (exit %d)" % (bad, p.returncode))


@test
def defaults_limit_a_flood(binary):
    """With the defaults (60 games per 10 minutes per address), a script
    creating games as fast as it can is stopped within 61 creates."""
    with server(binary, limits=True) as s:
        for i in range(61):
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2})
            if r.status == 429:
                break
        check(r.status == 429 and i == 60, "refused at %d: %r" % (i, r))
        pol = policy_members(r.headers["ratelimit-policy"])
        check(pol["games-addr"] == {"q": 60, "w": 600}, "default policy %r" % pol)


# ---- client address ----

@test
def trusted_proxy_names_the_client(binary):
    """X-Forwarded-For / X-Real-IP count only from a --trusted-proxy: then
    each forwarded client has its own budget; the rightmost untrusted
    address of the list is the client (what nginx appends)."""
    with server(binary, limits=True, extra=["--rate-limit", "games.addr=2/1h"]) as s:
        for i in range(2):
            create(s, headers={"X-Forwarded-For": "203.0.113.%d" % i})
        create(s, status=429, headers={"X-Forwarded-For": "203.0.113.9"})
        create(s, status=429, headers={"X-Real-IP": "203.0.113.10"})
    with server(binary, limits=True, extra=["--rate-limit", "games.addr=2/1h",
                                            "--trusted-proxy", "10.9.9.9, 127.0.0.1"]) as s:
        xff = {"X-Forwarded-For": "203.0.113.1"}
        create(s, headers=xff)
        create(s, headers=xff)
        create(s, status=429, headers=xff)
        # A spoofed first entry does not help: nginx appends the real one.
        create(s, status=429, headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.1"})
        create(s, headers={"X-Forwarded-For": "203.0.113.2"})
        create(s, headers={"X-Real-IP": "203.0.113.3"})
        # An IPv6 client is counted by its /64.
        create(s, headers={"X-Forwarded-For": "2001:db8:1:2::1"})
        create(s, headers={"X-Forwarded-For": "2001:db8:1:2::ffff"})
        create(s, status=429, headers={"X-Forwarded-For": "2001:db8:1:2:abcd::1"})
        create(s, headers={"X-Forwarded-For": "2001:db8:1:3::1"})
        # Garbage leaves the proxy's own address (127.0.0.1: still room).
        create(s, headers={"X-Forwarded-For": "garbage"})


# ---- waiting games ----

@test
def waiting_games_capped_and_expire(binary):
    """The issue's repro: ?status=waiting flooded with fake games.  Open
    waiting games are capped per player and per address (429, nothing
    created); a waiting game nobody joined within --waiting-expiry is
    gone (404, not listed, not joinable) and no longer counts."""
    with server(binary, limits=True, extra=["--waiting-per-player", "2",
                                            "--waiting-per-addr", "3",
                                            "--waiting-expiry", "4"]) as s:
        a, b = player(s, "A"), player(s, "B")
        ga = [create(s, token=a, seating=["me", "open"]).json["id"] for _ in range(2)]
        r = create(s, token=a, status=429, seating=["me", "open"])
        check(r.json["type"].endswith("too-many-requests"), "cap type %r" % r.json)
        create(s, token=a, seating=["me", "token"])  # not waiting: no cap
        gb = create(s, token=b, seating=["open", "open"]).json["id"]  # address: 3
        r = create(s, token=b, status=429, seating=["me", "open"])
        create(s, status=429, seating=["open", "open"])  # anonymous, same address
        listed = [g["id"] for g in s.request("GET", "/v1/games?status=waiting").json["games"]]
        check(sorted(listed) == sorted(ga + [gb]), "waiting list %r" % listed)
        # One fills: it is no longer waiting, so there is room for one.
        c = player(s, "C")
        check(s.request("POST", "/v1/games/%s/join" % ga[0], token=c).status == 200, "join")
        create(s, token=a, seating=["me", "open"])
        time.sleep(4.5)
        for gid in [ga[1], gb]:
            r = s.request("GET", "/v1/games/%s" % gid)
            check(r.status == 404, "expired game still there: %r" % r)
            r = s.request("POST", "/v1/games/%s/join" % gid, token=c)
            check(r.status == 404, "expired game joined: %r" % r)
        listed = s.request("GET", "/v1/games?status=waiting").json["games"]
        check(listed == [], "expired games listed: %r" % listed)
        mine = [g["id"] for g in s.request("GET", "/v1/players/me/games", token=a).json["games"]]
        check(ga[0] in mine and ga[1] not in mine, "my games %r" % mine)
        # The active game lives on; the caps count no expired game.
        check(s.request("GET", "/v1/games/%s" % ga[0]).status == 200, "the active game")
        for _ in range(2):
            create(s, token=a, seating=["me", "open"])


if __name__ == "__main__":
    run_all("limits-http")
