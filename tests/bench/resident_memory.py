"""resident_memory.py BOARDD [SUMMARY] [FIRST SECOND [one|all]]: the memory a
resident game costs a real boardd process (issue 35: the docs gave 240 B
and 4 KiB a game; about 6 KiB was measured with 10,000 games).

Starts BOARDD (a release build) on a fresh SQLite file in /dev/shm (or
/tmp) with --cache-games above FIRST + SECOND, --sync normal, no rate
limits and no access log.  Then, in two steps, creates games over HTTP
(Agent Avenue, 2 seats, one move each: what a game in progress holds)
and reads each once as seat 0 (GET /v1/games/{id}, so its row, seats,
state and that answer are cached; with "all", also as seat 1, as a
spectator, and both seats' GET .../actions: every answer slot a live
game's clients fill), and reads the server's VmRSS
(/proc/PID/status) before the games, after the FIRST (default 10,000)
and after SECOND (default 30,000) more.  Prints:

- the RSS growth per game over the first FIRST games: what an operator
  sees on a small server; it includes what grows once, whatever the
  number of games (SQLite's page caches of the pooled connections,
  libmicrohttpd's and the allocator's arenas, the HTTP threads' stacks
  touched);
- the growth per game over the next SECOND games: the marginal cost of
  one more resident game, which is what --cache-games multiplies.

Figures only, never asserted (make bench, tests/bench.sh section 7).
With SUMMARY, appends "label<TAB>value<TAB>unit" lines to it."""
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

THREADS = 4
VIEWS = "one"  # or "all": main's fifth argument


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def settle(pid):
    """The RSS after it stops changing for a moment (the write workers'
    batches done), KiB."""
    last = rss_kib(pid)
    for _ in range(20):
        time.sleep(0.5)
        now = rss_kib(pid)
        if now == last:
            return now
        last = now
    return last


def client(port):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60)


def call(conn, method, path, body=None, token=None):
    """One request; a 503 (a write that waited --write-wait on a loaded
    machine) is tried again, up to 20 times."""
    for _ in range(20):
        st, got = call_once(conn, method, path, body, token)
        if st != 503:
            break
        time.sleep(0.2)
    return st, got


def call_once(conn, method, path, body=None, token=None):
    h = {}
    if token:
        h["Authorization"] = "Bearer " + token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=h)
    r = conn.getresponse()
    raw = r.read()
    return r.status, (json.loads(raw) if raw and raw[:1] in b"{[" else None)


def make_games(port, n, out, errors):
    """Creates n games, plays one move in each, reads each once as seat
    0; appends their ids to out."""
    conn = client(port)
    try:
        for _ in range(n):
            st, g = call(conn, "POST", "/v1/games", {"game": "agent-avenue", "seats": 2})
            if st != 201:
                errors.append("create %d" % st)
                return
            gid, toks = g["id"], [s["token"] for s in g["seats"]]
            for tok in toks:
                st, a = call(conn, "GET", "/v1/games/%s/actions" % gid, token=tok)
                acts = (a or {}).get("actions") or []
                if st == 200 and acts:
                    act = acts[0]
                    act = {k: v for k, v in act.items() if k != "label"} \
                        if isinstance(act, dict) else act
                    st, _ = call(conn, "POST", "/v1/games/%s/moves" % gid, {"action": act},
                                 token=tok)
                    if st != 201:
                        errors.append("move %d" % st)
                        return
                    break
            reads = [("/v1/games/%s" % gid, toks[0])]
            if VIEWS == "all":  # every seat's and a spectator's view, actions
                reads += [("/v1/games/%s" % gid, t) for t in toks[1:]] + \
                    [("/v1/games/%s" % gid, None)] + \
                    [("/v1/games/%s/actions" % gid, t) for t in toks]
            for path, tok in reads:
                st, _ = call(conn, "GET", path, token=tok)
                if st != 200:
                    errors.append("read %s %d" % (path, st))
                    return
            out.append(gid)
    finally:
        conn.close()


def step(port, n):
    out, errors, ts = [], [], []
    for i in range(THREADS):
        k = n // THREADS + (1 if i < n % THREADS else 0)
        t = threading.Thread(target=make_games, args=(port, k, out, errors))
        t.start()
        ts.append(t)
    for t in ts:
        t.join()
    if errors:
        sys.exit("resident_memory: %s" % errors[:3])
    return len(out)


def main():
    binary = sys.argv[1]
    summary = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    second = int(sys.argv[4]) if len(sys.argv) > 4 else 30000
    global VIEWS
    VIEWS = sys.argv[5] if len(sys.argv) > 5 else "one"
    what = ("seat 0's view cached" if VIEWS == "one" else
            "both seats', a spectator's view and both seats' actions cached")
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    d = tempfile.mkdtemp(prefix="boardd-rss-", dir=base)
    log = open(os.path.join(d, "server.log"), "wb")
    p = subprocess.Popen([binary, "--addr", "127.0.0.1", "--port", "0", "--db",
                          os.path.join(d, "rss.db"), "--sync", "normal", "--quiet",
                          "--rate-limit", "off", "--waiting-per-addr", "0",
                          "--waiting-per-player", "0", "--drain-seconds", "0",
                          "--cache-games", str(first + second + 1000)],
                         stdout=subprocess.DEVNULL, stderr=log)
    try:
        port = None
        for _ in range(600):
            m = re.search(rb"listening on http://127\.0\.0\.1:(\d+)",
                          open(os.path.join(d, "server.log"), "rb").read())
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.05)
        if not port:
            sys.exit("resident_memory: the server did not start")
        step(port, 50)  # warm: threads, statements, the first arenas
        r0 = settle(p.pid)
        t0 = time.monotonic()
        n1 = step(port, first)
        r1 = settle(p.pid)
        n2 = step(port, second)
        r2 = settle(p.pid)
        secs = time.monotonic() - t0
        c = client(port)
        c.request("GET", "/metrics")
        text = c.getresponse().read().decode()
        c.close()
        m = re.search(r"^boardd_games_cached (\d+)", text, re.M)
        cached = int(m.group(1)) if m else -1
        figs = [
            ("resident game RSS, %s, first %d games (average)" % (VIEWS, n1),
             (r1 - r0) * 1024.0 / n1, "bytes"),
            ("resident game RSS, %s, the next %d (marginal)" % (VIEWS, n2),
             (r2 - r1) * 1024.0 / n2, "bytes"),
        ]
        print("  %s:" % what)
        print("  VmRSS %d KiB before, %d after %d games, %d after %d more; %d games "
              "cached (%.0f s, load %s)" % (r0, r1, n1, r2, n2, cached, secs,
                                            open("/proc/loadavg").read().split()[0]))
        for label, v, unit in figs:
            print("  %-62s %12.0f %s" % (label, v, unit))
        if summary:
            with open(summary, "a") as f:
                for label, v, unit in figs:
                    f.write("%s\t%.0f\t%s\n" % (label, v, unit))
    finally:
        p.terminate()
        p.wait()
        log.close()
        for name in os.listdir(d):
            os.unlink(os.path.join(d, name))
        os.rmdir(d)


if __name__ == "__main__":
    main()
