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

from gamehelp import acknowledged_in_logs, server
from harness import check, run_all, test

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
sys.argv = sys.argv[:2]
GAMES = 24
THREADS = 8


def post(s, gid, token, action, key, seq):
    return s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=token,
                     headers={"Idempotency-Key": key, "If-Match": '"%d"' % seq}, validate=False)


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
                    acked.append((gid, r.json["seq"], seat, action))
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
                acked.append((gid, r.json["seq"], seat, action))
        except (OSError, ValueError, KeyError, TypeError):
            if stop.is_set() and pending and not s.up:
                time.sleep(0.05)  # retried once the server is back
            else:
                time.sleep(0.01)


@test
def kill_nine_under_load(binary):
    rng = random.Random(1130)
    with server(binary, extra=["--sync", "full"]) as s:
        games = []
        for i in range(GAMES):
            kind = "agent-avenue" if i % 2 else "quantum"
            r = s.request("POST", "/v1/games", {"game": kind, "seats": 2 + (i // 2) % 3 if kind == "quantum" else 2})
            games.append((r.json["id"], [x["token"] for x in r.json["seats"]]))
        acked = []
        s.up = True
        for rnd in range(ROUNDS):
            stop = threading.Event()
            threads = [threading.Thread(target=client, args=(s, games, acked, stop, random.Random(rnd * 100 + t)))
                       for t in range(THREADS)]
            [t.start() for t in threads]
            time.sleep(rng.uniform(0.3, 1.5))
            s.up = False
            s.kill()
            stop.set()
            s.start()
            s.up = True
            [t.join() for t in threads]
        print("     %d rounds of SIGKILL, %d acknowledged moves" % (ROUNDS, len(acked)))
        check(len(acked) > ROUNDS, "moves were acknowledged")
        logs = {}
        for gid, tok in games:
            r = s.request("GET", "/v1/games/%s/moves" % gid, validate=False)
            check(r.status == 200, "game %s replays: %r" % (gid, r))
            logs[gid] = r.json["moves"]
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


if __name__ == "__main__":
    run_all("kill_loop")
