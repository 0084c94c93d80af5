"""test_nodes.py: two boardd nodes on one PostgreSQL database (issue 15;
docs/read-path.md, "Several processes on one database").  Racing moves
on the two nodes land exactly one; a read, a long-poll, a game stream
and an account stream on one node see what the other node wrote (the
nodes hear each other through sql/postgres/0002_notify.sql's NOTIFY and
src/service/remote.c); a node killed with SIGKILL under load loses
nothing it acknowledged while the other carries on, its clients retrying
on the other node with their Idempotency-Key, as behind a load balancer.

PostgreSQL only: tests/run.sh runs it with the cluster of the run
(BOARDD_TEST_PG), beside the other suites (the node it kills is its own).  How soon a node hears the other is a speed figure, not
asserted here: each wait below only bounds how long a test may hang."""
import os
import random
import threading
import time

os.environ["BOARDD_TEST_BACKEND"] = "postgres"  # before the harness reads it

from harness import Server, check, run_all, test  # noqa: E402
from gamehelp import (AA, acknowledged_in_logs, actions, create, game,  # noqa: E402
                      move, player_token, read_stream)
from webhookhelp import Receiver, account_events  # noqa: E402

WAIT = 10  # seconds: the longest a node may take to hear the other here


def eventually(what, fn):
    """fn() until it is true (its value), at most WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        v = fn()
        if v or time.monotonic() > deadline:
            check(v, what)
            return v
        time.sleep(0.02)


class Pair:
    """Node a (which made the database) and node b on the same one."""

    def __init__(self, binary, extra=()):
        self.a = Server(binary, extra=list(extra))
        try:
            self.b = Server(binary, db=self.a.db, extra=list(extra))
        except BaseException:
            self.a.proc.kill()
            self.a.cleanup()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for s in (self.b, self.a):  # b first: a's cleanup drops the db
            try:
                if exc[0] is None and s.proc.poll() is None:
                    s.stop()
            finally:
                if s.proc.poll() is None:
                    s.proc.kill()
                s.cleanup()


@test
def racing_moves_on_two_nodes_land_exactly_one(binary):
    with Pair(binary, ["--threads", "2"]) as n:
        for _ in range(3):
            gid, tok = create(n.a, {"first_player": 0})
            act = actions(n.b, gid, tok[0])[-1]
            results = []

            def post(s):
                r = move(s, gid, tok[0], act, headers={"If-Match": '"0"'}, validate=False)
                results.append(r.status)

            threads = [threading.Thread(target=post, args=(n.a if i % 2 else n.b,))
                       for i in range(16)]
            [t.start() for t in threads]
            [t.join() for t in threads]
            check(results.count(201) == 1, "exactly one 201: %r" % results)
            check(all(x in (201, 412, 409) for x in results),
                  "the others stale or not their turn: %r" % results)
            for s in (n.a, n.b):
                eventually("both nodes show one move",
                           lambda: game(s, gid)["seq"] == 1)
            r = n.b.request("GET", "/v1/games/%s/moves" % gid, token=tok[0])
            check(r.status == 200 and len(r.json["moves"]) == 1, "one move logged: %r" % r)


@test
def reads_on_one_node_follow_moves_made_on_the_other(binary):
    """A whole game, each move posted to the node the previous one did not
    go to, chosen from what that node shows: its hot table never keeps a
    game the other node changed (an ETag it gave is not answered 304 once
    the game moved there)."""
    rng = random.Random(15)
    with Pair(binary) as n:
        gid, tok = create(n.a)
        nodes = [n.a, n.b]
        for i in range(400):
            here, there = nodes[i % 2], nodes[1 - i % 2]
            g = game(here, gid, tok[0])  # keeps it in here's hot table
            r = there.request("GET", "/v1/games/%s" % gid, token=tok[0])
            check(r.json["seq"] == g["seq"], "the nodes agree before the move")
            if g["status"] == "finished":
                break
            seat = g["to_act"][0]
            act = rng.choice(actions(there, gid, tok[seat]))
            r = move(there, gid, tok[seat], act, headers={"If-Match": '"%d"' % g["seq"]})
            check(r.status == 201, "a listed action on the other node: %r" % r)
            seq = r.json["seq"]
            etag = '"%d"' % g["seq"]
            eventually("node %d shows seq %d" % (i % 2, seq), lambda: here.request(
                "GET", "/v1/games/%s" % gid, token=tok[0],
                headers={"If-None-Match": etag}).status == 200)
            check(game(here, gid, tok[0])["seq"] == seq, "the new seq, not an older one")
        else:
            raise AssertionError("the game did not end")
        check(n.a.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json ==
              n.b.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json,
              "the same log on both nodes")


@test
def long_polls_and_streams_on_one_node_wake_for_the_other(binary):
    with Pair(binary) as n:
        gid, tok = create(n.a, {"first_player": 0})
        g = game(n.b, gid, tok[1])
        polled, streamed = {}, {}

        def poll():
            r = n.b.request("GET", "/v1/games/%s?wait=60&after=%d" % (gid, g["seq"]), token=tok[1])
            polled["r"] = r

        def stream():
            streamed["r"] = read_stream(n.b.port, "/v1/games/%s/events?after=0" % gid, tok[1],
                                        {"Accept": "application/x-ndjson"}, 1, timeout=WAIT * 2)

        threads = [threading.Thread(target=poll), threading.Thread(target=stream)]
        [t.start() for t in threads]
        time.sleep(0.5)
        check("r" not in polled, "the long-poll waits: %r" % polled)
        r = move(n.a, gid, tok[0], actions(n.a, gid, tok[0])[0])
        check(r.status == 201, "move on node a: %r" % r)
        [t.join(WAIT * 3) for t in threads]
        r = polled.get("r")
        check(r is not None and r.status == 200 and r.json["seq"] == 1,
              "node b's long-poll answered with the move: %r" % r)
        st, _, body = streamed.get("r", (None, None, b""))
        lines = [line for line in body.decode().splitlines() if line]
        check(st == 200 and lines and '"seq":1' in lines[-1].replace(" ", ""),
              "node b's stream sent the move: %r %r" % (st, body[:300]))


@test
def account_streams_on_one_node_hear_the_other(binary):
    with Pair(binary) as n:
        r = n.a.request("POST", "/v1/players", {"name": "Alice"})
        at = r.json["token"]
        r = n.b.request("POST", "/v1/players", {"name": "Bob"})
        bob, bt = r.json["id"], r.json["token"]
        got = {}
        opened = threading.Event()

        def stream():
            got["r"] = read_stream(n.b.port, "/v1/players/me/events", bt,
                                   {"Accept": "application/x-ndjson"}, 1, timeout=WAIT * 2,
                                   opened=opened)

        t = threading.Thread(target=stream)
        t.start()
        # the stream is from now on: open before the invitation (a fixed
        # 0.5 s could pass first on a loaded machine, and the stream then
        # waited for an event that had come before it)
        check(opened.wait(WAIT), "Bob's stream opened on node b")
        r = n.a.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                               "seating": ["me", {"invite": bob}]}, token=at)
        check(r.status == 201, "Alice invites Bob on node a: %r" % r)
        t.join(WAIT * 3)
        st, _, body = got.get("r", (None, None, b""))
        check(st == 200 and b"invited" in body,
              "Bob's stream on node b hears the invitation: %r %r" % (st, body[:300]))


@test
def a_token_revoked_on_one_node_ends_its_streams_on_the_other(binary):
    """Issue 34, finding 11: a token revoked on node a ends the streams it
    opened on node b at the latest at b's next keep-alive (each stream
    looks at its token again then; --keepalive 1 here), and ends those on
    node a at once."""
    with Pair(binary, extra=["--keepalive", "1"]) as n:
        r = n.a.request("POST", "/v1/players", {"name": "Alice"})
        at = r.json["token"]
        phone = n.a.request("POST", "/v1/players/me/tokens", {"label": "phone"}, token=at).json
        gid, _ = create(n.a, {"first_player": 0})
        got = {}
        opened = {name: threading.Event() for name in ("b-game", "b-account", "a-account")}

        def stream(name, node, path):
            got[name] = read_stream(node.port, path, phone["token"],
                                    {"Accept": "application/x-ndjson"}, 1000, timeout=WAIT * 2,
                                    opened=opened[name])

        threads = [threading.Thread(target=stream, args=("b-game", n.b, "/v1/games/%s/events" % gid)),
                   threading.Thread(target=stream, args=("b-account", n.b, "/v1/players/me/events")),
                   threading.Thread(target=stream, args=("a-account", n.a, "/v1/players/me/events"))]
        [t.start() for t in threads]
        # each open before the revocation (one opened after it would be
        # refused, 401: a fixed 1.5 s could pass first on a loaded machine)
        check(all(e.wait(WAIT) for e in opened.values()), "the streams opened: %r" % got)
        time.sleep(1.5)  # past a keep-alive: each has looked at its token once
        check(not got, "the streams are open: %r" % got)
        r = n.a.request("DELETE", "/v1/players/me/tokens/" + phone["id"], token=at)
        check(r.status == 204, "revoked on node a: %r" % r)
        # read_stream returns when the stream ends (or raises after WAIT * 2).
        [t.join(WAIT * 3) for t in threads]
        check(sorted(got) == ["a-account", "b-account", "b-game"] and
              all(v[0] == 200 for v in got.values()),
              "every stream of the revoked token ended: %r" % got)


@test
def a_node_killed_under_load_loses_nothing_acknowledged(binary):
    """Four games played at once through both nodes; node a is killed
    with SIGKILL while moves are in flight.  A post that got no answer is
    sent again, with its Idempotency-Key, to node b.  Every move either
    node acknowledged is in the log, once, as posted; every logged move
    was acknowledged; node b carries the games on."""
    with Pair(binary) as n:
        games = [create(n.a) for _ in range(4)]
        acked, errors, lock = [], [], threading.Lock()
        killed = threading.Event()

        def node():
            return n.b if killed.is_set() or random.random() < 0.5 else n.a

        def play(gid, tok, seed):
            rng = random.Random(seed)
            try:
                for i in range(60):
                    try:
                        s = node()
                        g = game(s, gid, tok[0])
                        if g["status"] == "finished":
                            return
                        seat = g["to_act"][0]
                        act = rng.choice(actions(s, gid, tok[seat]))
                    except OSError:
                        continue  # node a went away mid-read: read again
                    key = "k-%s-%d" % (gid, i)
                    hdrs = {"Idempotency-Key": key, "If-Match": '"%d"' % g["seq"]}
                    while True:
                        try:
                            r = move(s, gid, tok[seat], act, headers=hdrs, validate=False)
                            break
                        except OSError:  # no answer: the same post to node b
                            s = n.b
                    if r.status == 201:
                        with lock:
                            acked.append((gid, r.json["seq"], seat, act))
                    elif r.status not in (409, 412):  # a read behind the other node
                        with lock:
                            errors.append("%s: %r" % (gid, r))
            except Exception as e:  # noqa: BLE001: reported below
                with lock:
                    errors.append("%s: %r" % (gid, e))

        threads = [threading.Thread(target=play, args=(gid, tok, i))
                   for i, (gid, tok) in enumerate(games)]
        [t.start() for t in threads]
        eventually("moves before the kill", lambda: len(acked) >= 12)
        killed.set()
        n.a.kill()
        before = len(acked)
        [t.join(120) for t in threads]
        check(not errors, "no other answer: %r" % errors[:5])
        check(len(acked) > before, "node b carried on (%d moves after the kill)" % (len(acked) - before))
        found = acknowledged_in_logs(n.b, games, acked)
        check(found == [], "logs agree with the answers: %r" % found[:5])
        check(n.b.integrity() == [], "the database is sound")
        n.a.start()  # back: it serves the same games
        for gid, tok in games:
            check(game(n.a, gid, tok[0]) == game(n.b, gid, tok[0]), "node a restarted agrees")


@test
def bot_turns_are_played_once_and_taken_over_from_a_dead_node(binary):
    """Bot seats on two nodes: bot-vs-bot games started on node a finish
    with every move logged once "by":"bot" (each turn is played by the
    node holding the game's lease, store.h's "leases"); then node a is
    killed while its bot thinks (mcts, 2 s a decision) and node b plays
    that turn once the lease has ended (2 + 5 s) and its scan comes
    (Quantum: its search takes long enough to be caught)."""
    extra = ["--bot-ms", "2000"]
    with Pair(binary, extra) as n:
        tok = player_token(n.a)
        ids = [n.a.request("POST", "/v1/games", {"game": AA, "seating": [
            {"bot": "random"}, {"bot": "random"}]}, token=tok).json["id"] for _ in range(3)]
        for gid in ids:
            eventually("bot game %s finished" % gid, lambda: game(n.b, gid)["status"] == "finished")
            moves = n.b.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
            check([m["seq"] for m in moves] == list(range(1, len(moves) + 1)) and
                  all(m.get("by") == "bot" for m in moves), "bot moves, once each: %r" % moves[:3])
        for attempt in range(4):  # until node a is caught thinking
            r = n.a.request("POST", "/v1/games", {"game": "quantum", "seating": [
                "token", {"bot": "mcts", "level": 5}]})
            check(r.status == 201, "a person against mcts: %r" % r)
            gid, tok = r.json["id"], r.json["seats"][0]["token"]
            g = game(n.a, gid, tok)
            for _ in range(20):  # the person's decisions, on node a
                if 0 not in g["to_act"]:
                    break
                r = move(n.a, gid, tok, actions(n.a, gid, tok)[0],
                         headers={"If-Match": '"%d"' % g["seq"]}, validate=False)
                check(r.status in (201, 412), "the person's move on node a: %r" % r)
                g = r.json if r.status == 201 else game(n.a, gid, tok)
            g = game(n.a, gid, tok)
            check(g["to_act"] == [1] and g["status"] == "active", "the bot's turn: %r" % g["to_act"])
            seq = g["seq"]
            # Killed as soon as the game's lease is held (the bot has taken
            # the turn and thinks: store.h, "leases").  A fixed 0.2 s was
            # about a whole decision on a quiet machine (0.15-0.21 s from
            # the person's move to the bot's, UBSan build): the bot had
            # often moved first.
            (key,), = n.a.query("SELECT key FROM games WHERE id = ?", (gid,))
            deadline = time.monotonic() + WAIT
            while not n.a.query("SELECT 1 FROM leases WHERE game_key = ?", (key,)) and \
                    game(n.a, gid, tok)["seq"] == seq and time.monotonic() < deadline:
                time.sleep(0.01)
            n.a.kill()
            if game(n.b, gid)["seq"] == seq:
                break  # killed before its bot moved
            n.a.start()
        else:
            raise AssertionError("node a's bot always moved before the kill")
        deadline = time.monotonic() + 40
        while game(n.b, gid)["seq"] <= seq:
            check(time.monotonic() < deadline, "node b never played the dead node's bot turn")
            time.sleep(0.1)
        moves = n.b.request("GET", "/v1/games/%s/moves" % gid, token=tok).json["moves"]
        check(len(moves) > seq and moves[seq]["seat"] == 1 and moves[seq].get("by") == "bot",
              "the bot's turn, played by node b: %r" % moves[seq:seq + 1])
        n.a.start()


@test
def each_webhook_delivery_is_sent_by_one_node(binary):
    """Both nodes deliver webhooks from one outbox: every event is sent
    once per attempt, never by both nodes (driver_pg.c's ST_DLV_CLAIM,
    FOR UPDATE SKIP LOCKED).  The receiver refuses each event's first
    attempt (500), so every event is due again at once on both nodes:
    each must be attempted exactly twice."""
    rec = Receiver(fail=lambda path, msg_id, attempt: 500 if attempt == 1 else 200)
    try:
        extra = ["--webhook-allow-private", "--webhook-retry-ms", "50"]
        with Pair(binary, extra) as n:
            players = []
            for i, s in enumerate((n.a, n.b, n.a, n.b)):
                r = s.request("POST", "/v1/players", {"name": "P%d" % i})
                pid, tok = r.json["id"], r.json["token"]
                r = s.request("PUT", "/v1/players/me/webhook", {"url": rec.url("/p%d" % i)}, token=tok)
                check(r.status == 200, "PUT webhook: %r" % r)
                rec.secrets["/p%d" % i] = r.json["secret"]
                players.append((pid, tok))
            rng = random.Random(5)
            for g in range(4):  # games between the pairs, moves on both nodes
                (_, t0), (b_id, t1) = players[g % 2], players[2 + g % 2]
                r = n.a.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                      "seating": ["me", {"invite": b_id}]}, token=t0)
                gid = r.json["id"]
                check(n.b.request("POST", "/v1/games/%s/join" % gid, token=t1).status == 200, "join")
                toks = [t0, t1]
                for i in range(12):
                    s = (n.a, n.b)[i % 2]
                    gm = eventually("a fresh view", lambda: game(s, gid, t0))
                    if gm["status"] != "active":
                        break
                    seat = gm["to_act"][0]
                    r = move(s, gid, toks[seat], rng.choice(actions(s, gid, toks[seat])),
                             headers={"If-Match": '"%d"' % gm["seq"]}, validate=False)
                    check(r.status in (201, 412), "move: %r" % r)
            want = sum(len(account_events(n.a, t, 0)[0]) for _, t in players)
            check(want > 20, "events to deliver: %d" % want)

            def done():
                with rec.lock:
                    ok = [k for k, v in rec.attempts.items() if v >= 2]
                return len(ok) >= want

            eventually("every event delivered", done)
            time.sleep(1)  # a second sender, if any, would have come by now
            with rec.lock:
                counts = dict(rec.attempts)
            check(len(counts) == want and all(v == 2 for v in counts.values()),
                  "each event attempted exactly twice: %r" %
                  sorted(v for v in counts.values() if v != 2)[:10])
    finally:
        rec.close()


@test
def each_push_is_sent_by_one_node(binary):
    """Both nodes send Web Push deliveries from one outbox (the same VAPID
    key file, as docs/notifications.md asks): every delivery is made
    once, by one node (driver_pg.c's ST_PUSH_DLV_CLAIM, FOR UPDATE SKIP
    LOCKED): as many requests reach the push service as there are
    deliveries, each delivered after one attempt."""
    import base64
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def browser_keys():
        point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {k: base64.urlsafe_b64encode(v).rstrip(b"=").decode()
                for k, v in (("p256dh", point), ("auth", os.urandom(16)))}

    push = Receiver()  # answers 200; keeps every request
    try:
        extra = ["--webhook-allow-private", "--webhook-retry-ms", "50",
                 "--push-contact", "mailto:ops@boardd.example"]
        with Pair(binary, extra) as n:
            check(n.a.request("GET", "/v1/push/key").json ==
                  n.b.request("GET", "/v1/push/key").json, "one VAPID key")
            players = []
            for i, s in enumerate((n.a, n.b)):
                r = s.request("POST", "/v1/players", {"name": "P%d" % i})
                pid, tok = r.json["id"], r.json["token"]
                for j in range(2):  # two browsers each
                    r = s.request("POST", "/v1/players/me/push-subscriptions",
                                  {"endpoint": push.url("/p%d/%d" % (i, j)),
                                   "keys": browser_keys()}, token=tok)
                    check(r.status == 201, "subscribe: %r" % r)
                players.append((pid, tok))
            rng = random.Random(7)
            (_, t0), (b_id, t1) = players
            for g in range(3):
                r = n.a.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                      "seating": ["me", {"invite": b_id}]}, token=t0)
                gid = r.json["id"]
                check(n.b.request("POST", "/v1/games/%s/join" % gid, token=t1).status == 200, "join")
                toks = [t0, t1]
                for i in range(10):
                    s = (n.a, n.b)[i % 2]
                    gm = eventually("a fresh view", lambda: game(s, gid, t0))
                    if gm["status"] != "active":
                        break
                    seat = gm["to_act"][0]
                    r = move(s, gid, toks[seat], rng.choice(actions(s, gid, toks[seat])),
                             headers={"If-Match": '"%d"' % gm["seq"]}, validate=False)
                    check(r.status in (201, 412), "move: %r" % r)
            rows = n.a.query("SELECT count(*) FROM push_deliveries")[0][0]
            check(rows > 10, "deliveries to make: %d" % rows)
            eventually("every push delivered", lambda: n.a.query(
                "SELECT count(*) FROM push_deliveries WHERE state = 'delivered'")[0][0] == rows)
            time.sleep(1)  # a second sender, if any, would have come by now
            with push.lock:
                sent = len(push.requests)
            check(sent == rows, "%d requests for %d deliveries" % (sent, rows))
            attempts = n.a.query("SELECT DISTINCT attempts FROM push_deliveries")
            check([tuple(a) for a in attempts] == [(1,)], "one attempt each: %r" % attempts)
    finally:
        push.close()


run_all("nodes", suffix=False)
