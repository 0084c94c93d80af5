"""attack_webhooks.py: issue 34 finding 1's attack at full size (make
attack-webhooks; long, not part of make test).

Two players whose webhook receivers accept connections and never answer
make MOVES moves (275) in SECONDS seconds (70) against each other, with the
server's default --webhook-timeout-ms (10 s) and --webhook-retry-ms (5 s);
meanwhile another player plays a game at a human pace.  Each of that
player's events must reach their (answering) receiver within 2 s of being
written, exactly once.  Prints the delays, the dead receivers' connections
and the outbox's queue depth at the end.  Both backends
(BOARDD_TEST_BACKEND, as the suites).
Usage: attack_webhooks.py BOARDD [MOVES [SECONDS]]"""
import json
import random
import sys
import threading
import time

from gamehelp import actions, game, move, server
from harness import check, note, run_all, test
from webhookhelp import (BlackHole, Receiver, account_events, hook, iso_ms, new_player,
                         two_player_game)

MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 275
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 70.0
sys.argv = sys.argv[:2]
GOAL_S = 2.0  # issue 34: others' events delivered within 2 s


def one_move(s, gid, tokens, rng):
    """Plays the seat to act's random listed action: False once the game
    is over."""
    g = game(s, gid, tokens[0])
    if g["status"] == "finished":
        return False
    seat = g["to_act"][0]
    r = move(s, gid, tokens[seat], rng.choice(actions(s, gid, tokens[seat])),
             headers={"If-Match": '"%d"' % g["seq"]})
    check(r.status == 201, "move: %r" % r)
    return True


@test
def others_delivered_within_2_s_while_two_dead_receivers_are_flooded(binary):
    dead = [BlackHole(), BlackHole()]
    rec = Receiver()
    try:
        with server(binary, extra=["--webhook-allow-private"]) as s:
            m1, mt1 = new_player(s, "Mallory")
            m2, mt2 = new_player(s, "Mallet")
            hook(s, mt1, dead[0].url("/m"))
            hook(s, mt2, dead[1].url("/m"))
            alice, at = new_player(s, "Alice")
            bob, bt = new_player(s, "Bob")
            rec.secrets["/a"] = hook(s, at, rec.url("/a"))["secret"]
            stop = threading.Event()
            made = [0]
            errors = []

            def attack():
                rng = random.Random(34)
                t0 = time.time()
                try:
                    gid = two_player_game(s, mt1, m2, mt2)
                    while made[0] < MOVES:
                        if not one_move(s, gid, {0: mt1, 1: mt2}, rng):
                            gid = two_player_game(s, mt1, m2, mt2)
                            continue
                        made[0] += 1
                        # paced: MOVES evenly over SECONDS
                        ahead = t0 + made[0] * SECONDS / MOVES - time.time()
                        if ahead > 0:
                            time.sleep(ahead)
                except Exception as e:  # reported below
                    errors.append(e)
                stop.set()
            t = threading.Thread(target=attack)
            t0 = time.time()
            t.start()
            # Alice and Bob play at a human pace while the attack runs
            rng = random.Random(35)
            games = 0
            while not stop.is_set():
                gid = two_player_game(s, at, bob, bt)
                games += 1
                while not stop.is_set() and one_move(s, gid, {0: at, 1: bt}, rng):
                    stop.wait(1.0)
            t.join()
            check(not errors, "the attack's moves: %r" % errors)
            note("the attack: %d moves in %.1f s; Alice played %d games"
                 % (made[0], time.time() - t0, games))
            want = {e["id"] for e in account_events(s, at, 0)[0]}
            deadline = time.time() + 30
            while time.time() < deadline and not set(rec.delivered("/a")) >= want:
                time.sleep(0.1)
            got = rec.delivered("/a")
            check(set(got) == want, "every one of Alice's %d events delivered: %d"
                  % (len(want), len(got)))
            with rec.lock:
                lags = sorted(h["_arrived"] - iso_ms(json.loads(b)["timestamp"])
                              for p, h, b, st, w in rec.requests)
                once = all(n == 1 for n in rec.attempts.values())
            check(once, "each of Alice's events sent once")
            r = s.request("GET", "/metrics", validate=False)
            depth = [ln for ln in r.raw.decode().splitlines()
                     if ln.startswith("boardd_webhook_queue_depth")]
            note("Alice's %d deliveries: median %.3f s, slowest %.3f s (goal %.0f s)"
                 % (len(lags), lags[len(lags) // 2], lags[-1], GOAL_S))
            note("the dead receivers: %d connections in all, at most %d and %d at once; %s"
                 % (dead[0].total + dead[1].total, dead[0].most, dead[1].most,
                    depth[0] if depth else "no queue depth"))
            check(lags[-1] < GOAL_S, "each within %.0f s: slowest %r" % (GOAL_S, lags[-5:]))
    finally:
        rec.close()
        for d in dead:
            d.close()


if __name__ == "__main__":
    run_all("attack-webhooks")
