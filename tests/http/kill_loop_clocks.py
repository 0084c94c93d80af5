"""kill_loop_clocks.py: deadlines passing across crashes (make
kill-loop-clocks; long, not part of make test).  Each of ROUNDS rounds
creates timed games with on_timeout "forfeit": two Agent Avenue games, and
one 3-seat Quantum game where seats 0 and 1 make their first decisions at
once and seat 2 does not; then kills the server with SIGKILL at a random
moment between just before and just after their deadlines, and restarts
it.  At the end every Agent Avenue game ended with exactly one move, the
timeout resignation of the seat that was to act, and the other seat won;
in every Quantum game seat 2 resigned exactly once, by timeout; every game
loads.  Usage: kill_loop_clocks.py BOARDD [ROUNDS]"""
import random
import sys
import time

from gamehelp import AA, actions, game, move
import harness
from harness import check, run_all, test
from test_clocks import clock_server, create, forfeited_once, log, wait_seq

harness._tests.clear()  # test_clocks' own tests are make test's

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
sys.argv = sys.argv[:2]
MOVE_S = 2


@test
def every_overdue_deadline_applies_once_across_sigkills(binary):
    rng = random.Random(5)
    two, three = [], []
    with clock_server(binary, ["--sync", "full"]) as s:
        for _ in range(ROUNDS):
            for _ in range(2):
                r = create(s, {"game": AA, "clock": {"move_seconds": MOVE_S},
                               "on_timeout": "forfeit"})
                two.append((r.json["id"], game(s, r.json["id"])["to_act"][0]))
            r = create(s, {"game": "quantum", "seats": 3,
                           "clock": {"move_seconds": MOVE_S + 1}, "on_timeout": "forfeit"})
            qid, toks = r.json["id"], [x["token"] for x in r.json["seats"]]
            for seat in (0, 1):
                check(move(s, qid, toks[seat], actions(s, qid, toks[seat])[0]).status == 201,
                      "quantum seat %d decides" % seat)
            three.append(qid)
            time.sleep(rng.uniform(MOVE_S - 0.5, MOVE_S + 1.5))
            s.kill()
            time.sleep(rng.uniform(0, 1))
            s.start()
        for gid, late in two:
            forfeited_once(s, gid, late)
        for qid in three:
            g = wait_seq(s, qid, 3)
            m = log(s, qid)
            resigns = [x for x in m if x["seat"] == 2 and x["action"] == {"type": "resign"}]
            check(len(resigns) == 1 and resigns[0].get("by") == "timeout",
                  "%s: seat 2 resigned once, by timeout: %r" % (qid, m))
            check(game(s, qid)["players"][2]["resigned"], "%s: shown resigned" % qid)
        print("  %d rounds: %d two-seat games forfeited once each, %d quantum seats resigned once"
              % (ROUNDS, len(two), len(three)))


if __name__ == "__main__":
    run_all("kill-loop-clocks")
