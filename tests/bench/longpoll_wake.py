"""longpoll_wake.py PORT SUMMARY [POLL_PORT]: how soon a long-poll wakes after a move
(tests/bench.sh, section 2; this figure was asserted under 100 ms by
tests/http/test_live.py until issue 13 moved timing out of make test).

On a running boardd at 127.0.0.1:PORT (rate limits off): creates 2-seat
Agent Avenue games with a token per seat; in each round one seat holds
`GET /v1/games/{id}?wait=10&after=SEQ` open, the seat to act posts its
first listed action, and the time from sending the move to the long-poll's
answer is taken.  40 rounds; prints the median and the maximum and appends
them to SUMMARY (rows "figure<TAB>value<TAB>ms").  Exit 1 if a long-poll
was not answered with the next seq: never on speed.

With POLL_PORT the long-polls go to the boardd there, another node on the
same PostgreSQL database (issue 15: a node hears another's move through
NOTIFY, src/service/remote.c; its goal is 100 ms), and the figures are
named "across nodes"."""
import http.client
import json
import statistics
import sys
import threading
import time

ROUNDS = 40


def call(port, method, path, body=None, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = {}
    if token:
        h["Authorization"] = "Bearer " + token
    if body is not None:
        h["Content-Type"] = "application/json"
    c.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, json.loads(data) if data else None


def main():
    port, summary = int(sys.argv[1]), sys.argv[2]
    poll_port = int(sys.argv[3]) if len(sys.argv) > 3 else port
    what = "long-poll wake after a move" + (" across nodes" if poll_port != port else "")
    waits = []
    gid = None
    while len(waits) < ROUNDS:
        if gid is None:
            st, g = call(port, "POST", "/v1/games", {"game": "agent-avenue", "seats": 2})
            if st != 201:
                sys.exit("longpoll_wake: create answered %d" % st)
            gid, toks = g["id"], [s["token"] for s in g["seats"]]
        st, view = call(port, "GET", "/v1/games/" + gid, token=toks[0])
        if view["status"] != "active" or not view["to_act"]:
            gid = None
            continue
        seat = view["to_act"][0]
        _, acts = call(port, "GET", "/v1/games/%s/actions" % gid, token=toks[seat])
        got = {}

        def poll():
            got["r"] = call(poll_port, "GET", "/v1/games/%s?wait=10&after=%d" % (gid, view["seq"]),
                            token=toks[1 - seat])
            got["t"] = time.monotonic()

        t = threading.Thread(target=poll)
        t.start()
        time.sleep(0.05)  # the long-poll is waiting
        t0 = time.monotonic()
        st, _ = call(port, "POST", "/v1/games/%s/moves" % gid, {"action": acts["actions"][0]},
                     token=toks[seat])
        t.join()
        if st != 201 or got["r"][0] != 200 or got["r"][1]["seq"] != view["seq"] + 1:
            sys.exit("longpoll_wake: move %d, long-poll %r" % (st, got["r"][0]))
        waits.append((got["t"] - t0) * 1000)
    med, top = statistics.median(waits), max(waits)
    print("  %s (%d rounds): median %.2f ms, max %.2f ms" % (what, ROUNDS, med, top))
    with open(summary, "a") as f:
        f.write("%s, median\t%f\tms\n" % (what, med))
        f.write("%s, max\t%f\tms\n" % (what, top))


main()
