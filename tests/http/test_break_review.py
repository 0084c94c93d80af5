"""test_break_review.py: regressions from an adversarial review.  Each test
is a promise the server broke when the review ran; see the review report
for the cause and the suggested fix.  Part of tests/run.sh (make test)."""
import threading

from gamehelp import actions, create, game, server
from harness import check, raw_exchange, run_all, test


def raw_request(s, data, timeout=5):
    """Sends raw bytes on a fresh connection and returns every byte the
    server sends until it closes (or the timeout)."""
    return raw_exchange(s.port, data, timeout)[0]


# ---- every error is a problem+json body ----

@test
def problem_body_for_invalid_utf8_path(binary):
    """A percent-encoded path that decodes to invalid UTF-8 must still get
    a problem+json 404, not an empty body (problem.c: json_pack fails on
    the `instance` string)."""
    with server(binary) as s:
        for path in (b"/v1/%FF", b"/v1/games/%FF%FE", b"/v1/games/%C3/moves"):
            out = raw_request(s, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n"
                              b"Connection: close\r\n\r\n")
            head, _, body = out.partition(b"\r\n\r\n")
            check(head.startswith(b"HTTP/1.1 404"), "%r: %r" % (path, head[:40]))
            check(b"application/problem+json" in head and body.strip(),
                  "%r: 404 without a problem body: %r" % (path, out[:300]))


@test
def problem_body_when_detail_truncates_utf8(binary):
    """A detail that echoes client text is cut at BD_DETAIL_LEN bytes,
    which can split a multi-byte character; the problem must still be
    sent (create.c 'no game ... in the catalog' + problem.c)."""
    with server(binary) as s:
        name = "a" + "\u00e9" * 200
        r = s.request("POST", "/v1/games", {"game": name})
        check(r.status == 422, "status: %r" % r)
        check(r.json is not None and r.json.get("type") ==
              "urn:boardd:problem:unknown-rules", "empty 422 body: %r" % r)


# ---- ETag / If-None-Match ----

@test
def etag_changes_when_a_seat_is_taken(binary):
    """Taking a seat changes status, to_act and players without a move;
    a client revalidating with the old ETag must not get 304."""
    with server(binary) as s:
        a = s.request("POST", "/v1/players", {"name": "A"}).json["token"]
        b = s.request("POST", "/v1/players", {"name": "B"}).json["token"]
        r = s.request("POST", "/v1/games",
                      {"game": "agent-avenue", "seating": ["me", "open"]},
                      token=a)
        gid = r.json["id"]
        r = s.request("GET", "/v1/games/" + gid, token=a)
        check(r.json["status"] == "waiting", "waiting: %r" % r)
        etag = r.headers["etag"]
        r = s.request("POST", "/v1/games/%s/join" % gid, raw=b"", token=b)
        check(r.status == 200, "join: %r" % r)
        r = s.request("GET", "/v1/games/" + gid, token=a,
                      headers={"If-None-Match": etag})
        check(r.status == 200, "stale 304 after a join (ETag %s): %r"
              % (etag, r))
        check(r.json["status"] == "active", "active: %r" % r)


@test
def long_poll_with_etag_sees_the_game_start(binary):
    """The documented way to wait for a `waiting` game to start is a
    long-poll; with the client's last ETag in If-None-Match the join
    wakes it but it answers 304 (the ETag is only the seq), so the
    creator never learns the game started until someone moves, and
    nobody can move before the creator does."""
    with server(binary) as s:
        a = s.request("POST", "/v1/players", {"name": "A"}).json["token"]
        b = s.request("POST", "/v1/players", {"name": "B"}).json["token"]
        gid = s.request("POST", "/v1/games",
                        {"game": "agent-avenue", "seating": ["me", "open"]},
                        token=a).json["id"]
        etag = s.request("GET", "/v1/games/" + gid, token=a).headers["etag"]
        out = {}

        def poll():
            out["r"] = s.request("GET", "/v1/games/%s?wait=10&after=0" % gid,
                                 token=a, headers={"If-None-Match": etag})
        th = threading.Thread(target=poll)
        th.start()
        import time
        time.sleep(0.5)
        check(s.request("POST", "/v1/games/%s/join" % gid, raw=b"",
                        token=b).status == 200, "join")
        th.join()
        r = out["r"]
        check(r.status == 200 and r.json["status"] == "active",
              "long-poll after the join: %r" % r)


@test
def custom_setup_not_offered_to_strangers_unflagged(binary):
    """A creator who picks every hand (and the deck) by a custom setup
    knows the other seat's hand; such a game must not be offered to
    strangers as an ordinary open game.  Either refuse `setup` with an
    open/invited seat (422), or flag it in the listing."""
    with server(binary) as s:
        a = s.request("POST", "/v1/players", {"name": "Mallory"}).json["token"]
        setup = {"first_player": 0,
                 "hands": [["enforcer", "enforcer", "sentinel", "sentinel"],
                           ["daredevil"] * 4]}
        r = s.request("POST", "/v1/games",
                      {"game": "agent-avenue", "seating": ["me", "open"],
                       "setup": setup}, token=a)
        if r.status == 422:
            return
        check(r.status == 201, "create: %r" % r)
        gid = r.json["id"]
        listed = [g for g in s.request("GET", "/v1/games?status=waiting")
                  .json["games"] if g["id"] == gid]
        check(listed and listed[0].get("custom") is True,
              "a rigged game is listed as an ordinary open game: %r" % listed)


# ---- resignation ends the game for every endpoint ----

def _play_then_resign(s):
    gid, t = create(s)
    g = game(s, gid, t[0])
    seat = g["to_act"][0]
    play = [a for a in actions(s, gid, t[seat]) if a["type"] == "play"][0]
    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": play},
                  token=t[seat])
    check(r.status == 201, "play: %r" % r)
    r = s.request("POST", "/v1/games/%s/resign" % gid, token=t[seat])
    check(r.status == 201 and r.json["status"] == "finished", "resign: %r" % r)
    return gid, t, seat, play


@test
def no_actions_listed_after_resignation(binary):
    """Once a game is over by resignation, /actions must list nothing
    (every listed action must be postable; these answer 409 game-over)."""
    with server(binary) as s:
        gid, t, seat, _ = _play_then_resign(s)
        other = 1 - seat
        listed = actions(s, gid, t[other])
        for a in listed:
            r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a},
                          token=t[other])
            check(r.status == 201, "listed action %r refused: %r" % (a, r))
        check(listed == [], "actions listed after the game ended: %r" % listed)


@test
def everything_revealed_after_resignation(binary):
    """README: once a game is over everything is revealed (hands, deck,
    face-down card, discards), as after a normal finish; after a
    resignation only the seed was."""
    with server(binary) as s:
        gid, t, seat, play = _play_then_resign(s)
        g = s.request("GET", "/v1/games/" + gid).json
        check(g["status"] == "finished" and g["secret"] and g["salt"], "finished: %r" % g)
        check("hands" in g["view"] and "deck" in g["view"],
              "hands/deck not revealed after resignation: %r" % g["view"])
        log = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
        check(log[0]["action"] == play,
              "the log still hides the played card: %r" % log[0])


# ---- Idempotency-Key ----

@test
def concurrent_same_idempotency_key_all_replay(binary):
    """Requests racing with one Idempotency-Key: one acts, the others
    must get its answer (201, Idempotent-Replayed, ETag of its seq), not
    409/412/422 from re-validating against the state the first one
    produced, nor ETag "0" (move.c move_loop's BD_EREPLAY branch leaves
    *seq unset)."""
    with server(binary) as s:
        bad = []
        for trial in range(36):
            gid, t = create(s)
            g = game(s, gid, t[0])
            seat = g["to_act"][0]
            # a discard keeps the turn, so a loser's retry can pass the
            # seq check and reach the key's unique index (BD_EREPLAY)
            kind = "discard" if trial % 3 == 2 else "play"
            play = [a for a in actions(s, gid, t[seat]) if a["type"] == kind][0]
            hdr = {"Idempotency-Key": "race-%d" % trial}
            if trial % 2:
                hdr["If-Match"] = '"0"'
            out = [None] * 8
            bar = threading.Barrier(8)

            def run(i):
                bar.wait()
                out[i] = s.request("POST", "/v1/games/%s/moves" % gid,
                                   {"action": play}, token=t[seat],
                                   headers=hdr, validate=False)
            ths = [threading.Thread(target=run, args=(i,)) for i in range(8)]
            for th in ths:
                th.start()
            for th in ths:
                th.join()
            bad += [(trial, r.status, (r.json or {}).get("type"))
                    for r in out if r.status != 201]
            bad += [(trial, "ETag %s for seq %s" % (r.headers.get("etag"),
                                                  r.json.get("seq")))
                    for r in out if r.status == 201 and
                    r.headers.get("etag") != '"%d"' % r.json.get("seq")]
            log = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
            check(len(log) == 1, "acted twice: %r" % log)
        check(not bad, "same-key retries not replayed: %r" % bad[:6])


@test
def concurrent_same_idempotency_key_join_replays(binary):
    """As for moves: a player's join retried concurrently with one key
    must answer 200 (replayed) every time, not 409 seat-taken or
    already-seated (players.c service_join checks open_seats before
    looking for the record the winner wrote)."""
    with server(binary) as s:
        bad = []
        for trial in range(15):
            gid = s.request("POST", "/v1/games",
                            {"game": "agent-avenue",
                             "seating": ["token", "open"]}).json["id"]
            p = s.request("POST", "/v1/players", {"name": "p"}).json["token"]
            out = [None] * 8
            bar = threading.Barrier(8)

            def run(i):
                bar.wait()
                out[i] = s.request("POST", "/v1/games/%s/join" % gid, raw=b"",
                                   token=p,
                                   headers={"Idempotency-Key": "join-1"},
                                   validate=False)
            ths = [threading.Thread(target=run, args=(i,)) for i in range(8)]
            for th in ths:
                th.start()
            for th in ths:
                th.join()
            bad += [(trial, r.status, (r.json or {}).get("type"))
                    for r in out if r.status != 200]
        check(not bad, "same-key joins not replayed: %r" % bad[:6])


# ---- the spec lists every status the server answers ----

@test
def non_bearer_authorization_answers_are_in_the_spec(binary):
    """server.c answers 401 to any Authorization that is not Bearer, on
    every route (even /healthz, behind an auth_basic proxy); the spec
    lists 401 for none of these."""
    with server(binary) as s:
        gid, _ = create(s)
        basic = {"Authorization": "Basic Zm9vOmJhcg=="}
        for method, path, body in (("GET", "/healthz", None),
                                   ("GET", "/v1/catalog", None),
                                   ("GET", "/openapi.yaml", None),
                                   ("GET", "/v1/games", None),
                                   ("POST", "/v1/players", {"name": "x"}),
                                   ("POST", "/v1/games/%s/join" % gid, {})):
            s.request(method, path, body, headers=basic)  # validates


@test
def oversized_body_answers_are_in_the_spec(binary):
    """begin() answers 413 to any declared body over 64 KiB, whatever the
    method; /resign and the GET routes do not list 413."""
    with server(binary) as s:
        gid, t = create(s)
        s.request("POST", "/v1/games/%s/resign" % gid, raw=b"x" * 70000,
                  token=t[0])
        s.request("GET", "/v1/games/%s" % gid, raw=b"x" * 70000)


# ---- HTTP framing ----

@test
def head_on_event_stream_has_no_body(binary):
    """HEAD must not send content; for /events the server sent the
    chunked terminator `0\\r\\n\\r\\n`, which desynchronises a keep-alive
    connection (the next response is read after stray bytes)."""
    with server(binary) as s:
        gid, _ = create(s)
        out = raw_request(s, b"HEAD /v1/games/%s/events HTTP/1.1\r\nHost: x\r\n"
                          b"Connection: close\r\n\r\n" % gid.encode())
        head, _, rest = out.partition(b"\r\n\r\n")
        check(head.startswith(b"HTTP/1.1 200"), "HEAD: %r" % head[:60])
        check(rest == b"", "bytes after a HEAD response's headers: %r" % rest)


@test
def bearer_token_with_trailing_space(binary):
    """bearer_token() accepts trailing spaces but returns them as part of
    the token, so a valid token answers 403 (it should be trimmed, or
    refused as 401 like a trailing tab)."""
    with server(binary) as s:
        gid, t = create(s)
        r = s.request("GET", "/v1/games/" + gid,
                      headers={"Authorization": "Bearer " + t[0] + "  "})
        check(r.status in (200, 401), "valid token + spaces: %r" % r)
        if r.status == 200:
            check(r.json["you"] == 0, "seat 0: %r" % r)


@test
def seat_counts_out_of_range_say_what_was_asked(binary):
    """A seat count above the engine's maximum was reported as "-1"; a
    seating list without "seats" used the game's minimum instead of one
    seat per entry (newcomer review).  Agent Avenue takes 2 to 4 seats since
    its team variant (rules §9)."""
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": "quantum", "seats": 100})
        check(r.status == 422 and "not 100" in r.json["detail"], "100 seats: %r" % r)
        r = s.request("POST", "/v1/games", {"game": "agent-avenue", "seats": 5})
        check(r.status == 422 and "2 to 4 seats, not 5" in r.json["detail"], "5 seats: %r" % r)
        r = s.request("POST", "/v1/games", {"game": "quantum", "seating": ["token"] * 3})
        check(r.status == 201 and len(r.json["seats"]) == 3, "three seats from seating: %r" % r)
        r = s.request("POST", "/v1/games", {"game": "quantum", "seating": ["token"] * 5})
        check(r.status == 422 and "not 5" in r.json["detail"], "five seating entries: %r" % r)


# ---- shutdown ----

@test
def sigterm_while_connections_arrive(binary):
    """SIGTERM while clients keep connecting and posting on kept-alive
    connections, with the epoll thread pool: every run exits 0.  It used
    to abort now and then in libmicrohttpd ("Failed to remove listen FD
    from epoll set", MHD_quiesce_daemon racing a worker) and could read
    the freed write pool (writes_close freed it before MHD_stop_daemon).
    A race: a failing run is rare, a passing one proves little alone."""
    import signal
    import socket
    import time
    from harness import Server
    for run in range(6):
        s = Server(binary, extra=["--threads", "2", "--write-workers", "2"])
        try:
            gid, toks = create(s)
            stop = []

            def flood(keep):
                body = b'{"action":{"type":"nothing"}}'
                req = (b"POST /v1/games/" + gid.encode() + b"/moves HTTP/1.1\r\nHost: x\r\n"
                       b"Authorization: Bearer " + toks[0].encode() + b"\r\n"
                       b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                while not stop:
                    try:
                        c = socket.create_connection(("127.0.0.1", s.port), timeout=1)
                        for _ in range(20 if keep else 1):
                            c.sendall(req)
                            if not c.recv(4096):
                                break
                        c.close()
                    except OSError:
                        time.sleep(0.001)
            ts = [threading.Thread(target=flood, args=(i % 2 == 0,)) for i in range(4)]
            for t in ts:
                t.start()
            time.sleep(0.2)
            s.proc.send_signal(signal.SIGTERM)
            try:
                rc = s.proc.wait(timeout=60)
            finally:
                stop.append(1)
                for t in ts:
                    t.join()
            log = open(s.log).read()
            check(rc == 0 and "epoll" not in log and "AddressSanitizer" not in log,
                  "run %d: exit %s: %s" % (run, rc, log[-1500:]))
        finally:
            if s.proc.poll() is None:
                s.proc.kill()
            s.cleanup()


run_all("break_review")
