"""webhookhelp.py: a webhook receiver for the HTTP suites (test_webhooks,
kill_loop): Python's http.server on loopback, checking every delivery with
its own implementation of the Standard Webhooks signature scheme."""
import base64
import hashlib
import hmac
import http.server
import json
import socket
import threading
import time

from gamehelp import AA
from harness import check, free_port
from streams import Dechunker, EventStream


# ---- the receiver: Standard Webhooks, verified independently ----

def verify(secret, headers, body):
    """The Standard Webhooks check: v1 = base64(HMAC-SHA256(key,
    "id.timestamp.body")) with key = base64-decoded secret after whsec_.
    Returns None when it holds, else why not."""
    msg_id = headers.get("webhook-id")
    ts = headers.get("webhook-timestamp")
    sigs = headers.get("webhook-signature")
    if not (msg_id and ts and sigs):
        return "missing webhook headers"
    if not ts.isdigit() or abs(time.time() - int(ts)) > 300:
        return "timestamp outside tolerance"
    key = base64.b64decode(secret[len("whsec_"):])
    signed = msg_id.encode() + b"." + ts.encode() + b"." + body
    want = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for sig in sigs.split(" "):
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, want):
            return None
    return "signature mismatch"


class Receiver:
    """A webhook receiver on loopback.  fail(path, id, attempt) -> status
    (or "sleep:<s>" to answer late) decides each answer; every request is
    recorded with its verification result."""

    def __init__(self, port=None, fail=None):
        self.port = port or 0  # 0: the kernel picks a free one at the bind
        self.fail = fail or (lambda path, msg_id, attempt: 200)
        self.secrets = {}  # path -> secret
        self.lock = threading.Lock()
        self.requests = []  # (path, headers, body, status answered, verify result)
        self.attempts = {}  # (path, id) -> count
        rec = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                hdrs = {k.lower(): v for k, v in self.headers.items()}
                hdrs["_arrived"] = time.time()  # unix s, for latency checks
                with rec.lock:
                    key = (self.path, hdrs.get("webhook-id"))
                    rec.attempts[key] = rec.attempts.get(key, 0) + 1
                    attempt = rec.attempts[key]
                    secret = rec.secrets.get(self.path)
                answer = rec.fail(self.path, hdrs.get("webhook-id"), attempt)
                if isinstance(answer, str) and answer.startswith("sleep:"):
                    time.sleep(float(answer[6:]))
                    answer = 200
                why = verify(secret, hdrs, body) if secret else "no secret"
                with rec.lock:
                    rec.requests.append((self.path, hdrs, body, answer, why))
                try:
                    self.send_response(answer)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the sender gave up (a timeout test)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.httpd.server_address[1]
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def delivered(self, path):
        """{event id: payload} of the events answered 2xx at path, each
        verified; fails on any bad signature."""
        out = {}
        with self.lock:
            reqs = list(self.requests)
        for p, hdrs, body, status, why in reqs:
            if p != path:
                continue
            check(why is None, "receiver: %s (%s)" % (why, hdrs))
            payload = json.loads(body)
            if 200 <= status < 300:
                out[hdrs["webhook-id"]] = payload
        return out


class BlackHole:
    """A webhook receiver that accepts every connection and never
    answers (issue 34 finding 1's attack): each sender waits for its
    timeout.  Counts the connections open at once (most) and in all
    (total)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.open = self.most = self.total = 0
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.open += 1
                self.total += 1
                self.most = max(self.most, self.open)
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn):
        """Reads and ignores until the sender hangs up."""
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass
        conn.close()
        with self.lock:
            self.open -= 1

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def close(self):
        self.sock.close()


def new_player(s, name):
    """POST /v1/players: (the new player's id, its token)."""
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def hook(s, token, url, status=200):
    """PUT /v1/players/me/webhook of `token` to `url`, answered `status`:
    the answer's JSON (its "secret" is shown only here)."""
    r = s.request("PUT", "/v1/players/me/webhook", {"url": url}, token=token)
    check(r.status == status, "PUT webhook %s: %r" % (url, r))
    return r.json


def two_player_game(s, at, bob_id, bt):
    """Alice creates a game inviting Bob, Bob joins; returns its id."""
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                         "seating": ["me", {"invite": bob_id}]}, token=at)
    check(r.status == 201, "create: %r" % r)
    gid = r.json["id"]
    r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
    check(r.status == 200 and r.json["status"] == "active", "join: %r" % r)
    return gid


def iso_ms(t):
    """An RFC 3339 UTC timestamp with milliseconds, as unix seconds."""
    import calendar
    return calendar.timegm(time.strptime(t[:19], "%Y-%m-%dT%H:%M:%S")) + \
        int(t[20:23]) / 1000.0


def account_events(s, token, after):
    """([every account event of `token` after `after`],), read from
    GET /v1/players/me/events: the answer's head is waited for up to 10 s
    (a loaded server), then the stream is read until it has been quiet
    for 0.7 s; only whole events count (tests/http/streams.py)."""
    sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
    sock.sendall(("GET /v1/players/me/events?after=%d HTTP/1.1\r\nHost: x\r\n"
                  "Authorization: Bearer %s\r\nAccept: application/x-ndjson\r\n\r\n"
                  % (after, token)).encode())
    raw, head = b"", None
    dechunk, stream = Dechunker(), EventStream("application/x-ndjson")
    try:
        while not dechunk.ended:
            try:
                d = sock.recv(65536)
            except socket.timeout:
                break
            if not d:
                break
            raw += d
            if head is None and b"\r\n\r\n" in raw:
                head, _, raw = raw.partition(b"\r\n\r\n")
                check(b" 200 " in head.split(b"\r\n")[0], "account stream: %r" % head[:200])
                sock.settimeout(0.7)
            if head is not None:
                stream.feed(dechunk.feed(raw))
                raw = b""
    finally:
        sock.close()
    check(head is not None, "account stream: no answer")
    return ([ev["data"] for ev in stream.events],)
