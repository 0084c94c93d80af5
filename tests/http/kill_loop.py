"""kill_loop.py: crash and restart under load (make kill-loop; long, not
part of make test).  Client threads post moves to many games at once while
the server is killed with SIGKILL at random moments, ROUNDS times, and
restarted each time.  At the end every move that got a 2xx must be in the
log at its seq, as posted (in its poster's log: others may see a hidden
card hidden), exactly once (each post carries an Idempotency-Key recorded
with the move, so a retry after a crash cannot land twice), every logged
move must have been acknowledged (a post is retried until answered), and
every game must replay: its view, actions and log load.  Runs with the
server's default synchronous=FULL.  Usage: kill_loop.py BOARDD [ROUNDS]"""
import random
import sys
import threading
import time
import uuid

from gamehelp import acknowledged_in_logs, move_log, server
from harness import check, run_all, test
from webhookhelp import Receiver, account_events

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
sys.argv = sys.argv[:2]
GAMES = 24
THREADS = 8


def post(s, gid, token, action, key, seq):
    return s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=token,
                     headers={"Idempotency-Key": key, "If-Match": '"%d"' % seq}, validate=False)


def as_logged(action):
    """A listed action as the log holds it: posted back unchanged, its
    display `label` is dropped by the server, never logged."""
    return {k: v for k, v in action.items() if k != "label"}


def client(s, games, acked, stop, rng):
    """Plays random listed actions on random games until told to stop;
    records (game, seq, seat, action) for every 2xx.  A post whose answer
    was lost to a crash is retried with the same Idempotency-Key once the
    server is back, as a real client would: it must land at most once."""
    pending = None
    while not stop.is_set() or pending:
        try:
            if pending:
                gid, tok, seat, action, key, seq = pending
                r = post(s, gid, tok[seat], action, key, seq)
                pending = None
                if 200 <= r.status < 300:
                    acked.append((gid, r.json["seq"], seat, as_logged(action)))
                continue
            gid, tok = rng.choice(games)
            g = s.request("GET", "/v1/games/%s" % gid, validate=False).json
            if not g or g["status"] != "active" or not g["to_act"]:
                continue
            seat = rng.choice(g["to_act"])
            acts = s.request("GET", "/v1/games/%s/actions" % gid, token=tok[seat], validate=False).json
            if not acts or not acts["actions"]:
                continue
            action = rng.choice(acts["actions"])
            pending = (gid, tok, seat, action, str(uuid.uuid4()), g["seq"])
            r = post(s, gid, tok[seat], action, pending[4], g["seq"])
            pending = None
            if 200 <= r.status < 300:
                acked.append((gid, r.json["seq"], seat, as_logged(action)))
        except (OSError, ValueError, KeyError, TypeError):
            if stop.is_set() and pending and not s.up:
                time.sleep(0.05)  # retried once the server is back
            else:
                time.sleep(0.01)


def kill_rounds(s, games, rng, nthreads, longest):
    """ROUNDS times: nthreads clients play the games, the server is killed
    with SIGKILL after 0.3 to `longest` seconds and restarted.  Returns
    the acknowledged moves (game, seq, seat, action)."""
    acked = []
    s.up = True
    for rnd in range(ROUNDS):
        stop = threading.Event()
        threads = [threading.Thread(target=client, args=(s, games, acked, stop, random.Random(rnd * 100 + t)))
                   for t in range(nthreads)]
        [t.start() for t in threads]
        time.sleep(rng.uniform(0.3, longest))
        s.up = False
        s.kill()
        stop.set()
        s.start()
        s.up = True
        [t.join() for t in threads]
    return acked


@test
def kill_nine_under_load(binary):
    rng = random.Random(1130)
    with server(binary, extra=["--sync", "full"]) as s:
        games = []
        for i in range(GAMES):
            kind = "agent-avenue" if i % 2 else "quantum"
            r = s.request("POST", "/v1/games", {"game": kind, "seats": 2 + (i // 2) % 3 if kind == "quantum" else 2})
            games.append((r.json["id"], [x["token"] for x in r.json["seats"]]))
        acked = kill_rounds(s, games, rng, THREADS, 1.5)
        print("     %d rounds of SIGKILL, %d acknowledged moves" % (ROUNDS, len(acked)))
        check(len(acked) > ROUNDS, "moves were acknowledged")
        logs = {}
        for gid, tok in games:
            r = move_log(s, gid, validate=False)
            check(isinstance(r, dict), "game %s replays: %r" % (gid, r))
            logs[gid] = r["moves"]
            seqs = [m["seq"] for m in logs[gid]]
            check(seqs == list(range(1, len(seqs) + 1)), "dense log for %s" % gid)
            for t in tok:
                check(s.request("GET", "/v1/games/%s" % gid, token=t, validate=False).status == 200, "view loads")
        total = sum(len(v) for v in logs.values())
        print("     %d moves in the logs, %d games finished" % (
            total, sum(s.request("GET", "/v1/games/%s" % gid, validate=False).json["status"] == "finished"
                       for gid, _ in games)))
        found = acknowledged_in_logs(s, games, acked)
        check(not found, "every acknowledged move is in its poster's log at its seq, as posted, once, "
              "and every logged move was acknowledged; %d findings:\n       %s" % (
                  len(found), "\n       ".join(found[:40])))


def _wait_delivered(rec, path, want, timeout=120):
    deadline = time.time() + timeout
    got = {}
    while time.time() < deadline:
        got = rec.delivered(path)
        if set(got) >= want:
            return got
        time.sleep(0.1)
    raise AssertionError("%s: %d of %d events delivered" % (path, len(set(got) & want), len(want)))


@test
def kill_nine_with_webhooks_pending(binary):
    """Games between players with webhooks at a receiver that fails half
    the time, under the same SIGKILL rounds: events are written with the
    moves, deliveries pending at each SIGKILL resume after the restart,
    and in the end every event of every player's outbox arrives, signed,
    and nothing else does."""
    rng = random.Random(1201)
    flaky = random.Random(7)
    rec = Receiver(fail=lambda path, msg_id, attempt: 500 if flaky.random() < 0.5 else 200)
    try:
        with server(binary, extra=["--sync", "full", "--webhook-allow-private",
                                   "--webhook-retry-ms", "50"]) as s:
            players = []
            for i in range(4):
                r = s.request("POST", "/v1/players", {"name": "P%d" % i})
                pid, tok = r.json["id"], r.json["token"]
                path = "/p%d" % i
                r = s.request("PUT", "/v1/players/me/webhook", {"url": rec.url(path)}, token=tok)
                rec.secrets[path] = r.json["secret"]
                players.append((pid, tok, path))
            games = []
            for i in range(8):
                a, b = players[i % 4], players[(i + 1) % 4]
                r = s.request("POST", "/v1/games", {"game": "agent-avenue", "seating":
                              ["me", {"invite": b[0]}]}, token=a[1])
                gid = r.json["id"]
                s.request("POST", "/v1/games/%s/join" % gid, token=b[1])
                games.append((gid, [a[1], b[1]]))
            acked = kill_rounds(s, games, rng, 4, 1.0)
            rec.fail = lambda path, msg_id, attempt: 200
            written = set()
            for pid, tok, path in players:
                want = {e["id"] for e in account_events(s, tok, 0)[0]}
                written |= want
                got = _wait_delivered(rec, path, want)
                check(set(got) == want, "%s: exactly its events" % path)
            with rec.lock:
                sent = {h["webhook-id"] for p, h, b, st, w in rec.requests}
                n = len(rec.requests)
            print("     %d rounds of SIGKILL, %d moves, %d events delivered in %d requests"
                  % (ROUNDS, len(acked), len(written), n))
            check(len(written) > ROUNDS, "events were written")
            check(sent == written, "no delivery of an event the outbox does not hold")
    finally:
        rec.close()


if __name__ == "__main__":
    run_all("kill_loop")
