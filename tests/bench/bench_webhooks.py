"""bench_webhooks.py BOARDD SUMMARY: the webhook delivery rate to a local
receiver (a figure for make bench, never asserted).

Starts the release server with --webhook-allow-private, registers one
player's webhook at a receiver on loopback (Python's http.server, which
answers 204 and counts), then creates games seating the player so that
each writes events; the figure is the receiver's arrival rate from its
first to its last delivery, once every event has come.  The receiver is
Python, so the figure is a floor of what the server can send."""
import http.client
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
from harness import free_port  # noqa: E402

GAMES = int(os.environ.get("BENCH_WEBHOOK_GAMES", "600"))


def main():
    binary, summary = sys.argv[1], sys.argv[2]
    arrivals = []
    lock = threading.Lock()

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                arrivals.append(time.monotonic())
            self.send_response(204)
            self.end_headers()

    rport = free_port()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", rport), H)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    tmp = tempfile.mkdtemp(prefix="boardd-bench-hooks.")
    port = free_port()
    proc = subprocess.Popen([binary, "--addr", "127.0.0.1", "--port", str(port), "--db",
                             os.path.join(tmp, "b.db"), "--sync", "normal", "--quiet",
                             "--webhook-allow-private", "--rate-limit", "off"], stderr=subprocess.DEVNULL)
    try:
        conn = None
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                break
            except OSError:
                time.sleep(0.1)

        def call(method, path, body=None, token=None):
            h = {"Content-Type": "application/json"}
            if token:
                h["Authorization"] = "Bearer " + token
            conn.request(method, path, json.dumps(body) if body is not None else None, h)
            r = conn.getresponse()
            data = r.read()
            if r.status >= 300:
                raise SystemExit("bench_webhooks: %s %s -> %d %s" % (method, path, r.status, data))
            return json.loads(data) if data else None

        tok = call("POST", "/v1/players", {"name": "Bench"})["token"]
        call("PUT", "/v1/players/me/webhook", {"url": "http://127.0.0.1:%d/h" % rport}, tok)
        for _ in range(GAMES):
            call("POST", "/v1/games", {"game": "agent-avenue", "seating": ["me", "token"]}, tok)
        # Each game writes game.started and, when seat 0 acts first, turn:
        # wait until at least GAMES have come and no more arrive for 1 s.
        deadline = time.monotonic() + 120
        last, stable = -1, 0
        while time.monotonic() < deadline:
            with lock:
                n = len(arrivals)
            stable = stable + 1 if n == last else 0
            last = n
            if n >= GAMES and stable >= 10:
                break
            time.sleep(0.1)
        with lock:
            n, first, end = len(arrivals), arrivals[0], arrivals[-1]
        rate = (n - 1) / (end - first) if end > first else float("nan")
        print("  webhook deliveries: %d events in %.2f s: %.0f deliveries/s (receiver-side)"
              % (n, end - first, rate))
        with open(summary, "a") as f:
            f.write("webhook deliveries to a local receiver\t%f\tdeliveries/s\n" % rate)
    finally:
        proc.terminate()
        proc.wait()
        httpd.shutdown()


if __name__ == "__main__":
    main()
