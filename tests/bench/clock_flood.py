"""clock_flood.py BOARDD [GAMES]: bench.sh's clock figure (tests/README.md,
"make bench"): how long GAMES (default 10,000) timed games whose deadlines
fall in the same second take to be played out by the server's scheduler.

It starts BOARDD on a loopback port with a fresh database (--sync normal,
--rate-limit off, --clock-min-seconds 1, --bot-ms 10), creates the games
(Agent Avenue, {"move_seconds": 60}, on_timeout "bot") over HTTP from 8
connections, stops the server (SIGTERM), and sets every game's start so
that all deadlines fall in one millisecond 3 s after the next start
(games.updated_ms and games.deadline_ms, the two columns a game's first
deadline is read from; sql/0006_clocks.sql).  Then it starts the server
again and measures from that deadline until every game has its timeout
move logged, polling the database read-only.  Prints one line; never
asserts a speed.  Only /usr/bin/python3."""
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
from harness import free_port  # noqa: E402

binary = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
threads = 8
tmp = tempfile.mkdtemp(prefix="boardd-clock-bench-")
db = os.path.join(tmp, "bench.db")


def start(port):
    p = subprocess.Popen([binary, "--addr", "127.0.0.1", "--port", str(port), "--db", db,
                          "--sync", "normal", "--quiet", "--rate-limit", "off",
                          "--clock-min-seconds", "1", "--bot-ms", "10"],
                         stdout=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p
        except OSError:
            time.sleep(0.05)
    p.kill()
    sys.exit("clock_flood: the server did not start")


def creator(port, n, failures):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"game": "agent-avenue", "clock": {"move_seconds": 60}})
    for _ in range(n):
        c.request("POST", "/v1/games", body, {"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        if r.status != 201:
            failures.append(r.status)
    c.close()


def main():
    port = free_port()
    p = start(port)
    failures = []
    t0 = time.monotonic()
    ts = [threading.Thread(target=creator, args=(port, games // threads + (i < games % threads),
                                                 failures)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    made = time.monotonic() - t0
    p.terminate()
    p.wait()
    if failures:
        sys.exit("clock_flood: %d creations failed (%r)" % (len(failures), failures[:3]))
    con = sqlite3.connect(db)
    due = int(time.time() * 1000) + 3000
    con.execute("UPDATE games SET updated_ms = ?, deadline_ms = ?", (due - 60000, due))
    con.commit()
    con.close()
    p = start(port)
    ro = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    left = games
    while left and time.time() * 1000 < due + 600000:
        time.sleep(0.05)
        left = ro.execute("SELECT count(*) FROM games WHERE seq = 0").fetchone()[0]
    done = time.time() * 1000
    timeouts = ro.execute("SELECT count(*) FROM moves WHERE reason = 'timeout'").fetchone()[0]
    ro.close()
    p.terminate()
    p.wait()
    shutil.rmtree(tmp)
    if left:
        sys.exit("clock_flood: %d games still waited for their timeout after 10 minutes" % left)
    secs = (done - due) / 1000
    print("clock timeouts: %d games with one deadline (on_timeout bot, --bot-ms 10) "
          "played out in %.2f s after it (%.0f timeouts/s; %d timeout moves logged; "
          "creating them took %.1f s)" % (games, secs, games / secs, timeouts, made))


main()
