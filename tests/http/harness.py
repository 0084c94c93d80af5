"""harness.py: runs boardd as a real process on a loopback port with a real
SQLite file, talks HTTP to it, and checks every response against
openapi/openapi.yaml.

Uses only Debian's /usr/bin/python3 with python3-yaml and python3-jsonschema
(installed by tools/deps.sh).  Tests are plain functions registered with
@test; run_all() prints "<suite>: N passed, N failed".
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import jsonschema
import shlex
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = yaml.safe_load(open(os.path.join(ROOT, "openapi", "openapi.yaml")))
# BOARDD_WRAP runs the server under a tool, e.g. "valgrind --error-exitcode=1"
# (make valgrind): slower, so starts and stops get more time.
WRAP = shlex.split(os.environ.get("BOARDD_WRAP", ""))
SLOW = 20 if WRAP else 1


class Failure(Exception):
    pass


def check(cond, what):
    """Fails the current test with `what` unless cond holds."""
    if not cond:
        raise Failure(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Response:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.raw = raw
        ctype = self.headers.get("content-type", "")
        self.json = json.loads(raw) if raw and "json" in ctype else None

    def __repr__(self):
        return "<%d %s>" % (self.status, self.raw[:300])


# Every suite but test_limits.py creates games, players and moves faster
# than a person and opens many connections and streams from one address:
# those run with the rate limits, connection and stream budgets per client
# and waiting-game caps off
# (the global stream budget stays).  `extra` comes after, so a suite may
# still set one.
LIMITS_OFF = ["--rate-limit", "off", "--max-conns-per-addr", "0",
              "--max-streams-per-addr", "0",
              "--max-streams-per-token", "0", "--waiting-per-player", "0",
              "--waiting-per-addr", "0"]


class Server:
    """One boardd process on a fresh port; the database survives restarts.
    limits=True keeps the server's default limits (test_limits.py)."""

    def __init__(self, binary, db=None, extra=(), limits=False, preexec=None,
                 quiet=True):
        """preexec: run in the child before exec (e.g. to set a
        resource limit), as subprocess's preexec_fn.  quiet=False keeps
        the access log (in self.log; test_ops.py reads it)."""
        self.quiet = quiet
        self.binary = binary
        self.preexec = preexec
        self.dir = tempfile.mkdtemp(prefix="boardd-test-")
        self.db = db or os.path.join(self.dir, "test.db")
        self.port = None  # the port the server bound; new at each start
        self.extra = ([] if limits else LIMITS_OFF) + list(extra)
        self.proc = None
        self.log = os.path.join(self.dir, "server.log")
        self.start()

    def start(self):
        """Starts the server with --port 0: it binds a free port itself
        (no race with another process for one picked here) and prints
        "boardd: listening on http://127.0.0.1:PORT" on stderr, which is
        read from the log; self.port is that port until the next start."""
        args = WRAP + [self.binary, "--addr", "127.0.0.1", "--port", "0",
                "--db", self.db, "--sync", "normal"] + \
            (["--quiet"] if self.quiet else []) + self.extra
        logf = open(self.log, "ab")
        start_at = logf.tell()
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=logf, preexec_fn=self.preexec)
        logf.close()
        self.port = None
        deadline = time.time() + 10 * SLOW
        while time.time() < deadline and self.proc.poll() is None:
            if self.port is None:
                with open(self.log, "rb") as f:
                    f.seek(start_at)
                    m = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", f.read())
                if not m:
                    time.sleep(0.02)
                    continue
                self.port = int(m.group(1))
            try:
                if self.request("GET", "/healthz", validate=False).status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        if self.proc.poll() is None:
            self.proc.kill()  # not left running behind a failed test
        self.proc.wait()
        raise RuntimeError("server did not start: " + open(self.log).read())

    def kill(self):
        """SIGKILL: no chance to clean up, as in a crash."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """SIGTERM and wait: a clean shutdown must exit 0 (ASan checks
        leaks at exit)."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                rc = self.proc.wait(timeout=20 * SLOW)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                rc = "timeout"
            if rc != 0:
                raise Failure("server exit %s: %s" % (rc, open(self.log).read()[-3000:]))

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def request(self, method, path, body=None, token=None, headers=None,
                raw=None, validate=True):
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=data, headers=h)
            r = conn.getresponse()
            resp = Response(r.status, r.getheaders(), r.read())
        finally:
            conn.close()
        if validate:
            validate_response(method, path, resp)
        return resp


# ---- OpenAPI contract: every response must be documented ----

def _operation(method, path):
    path = path.split("?")[0]
    for template, item in SPEC["paths"].items():
        rx = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(rx, path):
            return item.get(method.lower()), template
    return None, None


def _resolve(obj):
    while isinstance(obj, dict) and "$ref" in obj:
        node = SPEC
        for part in obj["$ref"][2:].split("/"):
            node = node[part]
        obj = node
    return obj


def validate_response(method, path, resp):
    """Checks resp against the spec: documented status, content type and
    body schema.  Problems must match the Problem schema whatever the
    route (404/405 are answered for paths the spec does not list)."""
    if resp.headers.get("content-type") == "application/problem+json":
        schema = dict(SPEC["components"]["schemas"]["Problem"])
        _validate(resp.json, schema)
        check(resp.json["status"] == resp.status, "problem status mismatch")
    op, _ = _operation(method, path)
    if op is None or resp.status in (405,) or method == "HEAD":
        return
    responses = op["responses"]
    key = str(resp.status)
    check(key in responses, "%s %s answered %d, not in the spec" % (method, path, resp.status))
    spec = _resolve(responses[key])
    content = spec.get("content")
    if not content:
        check(not resp.raw, "%s %s %d: body not in spec" % (method, path, resp.status))
        return
    ctype = resp.headers.get("content-type", "")
    check(ctype in content, "%s %s %d: content type %s not in spec" % (method, path, resp.status, ctype))
    if resp.json is not None:
        _validate(resp.json, content[ctype]["schema"])


def _validate(instance, schema):
    full = dict(schema)
    full["components"] = SPEC["components"]
    try:
        jsonschema.Draft202012Validator(full).validate(instance)
    except jsonschema.ValidationError as e:
        raise Failure("schema: %s at %s" % (e.message, list(e.absolute_path)))


# ---- raw sockets: for what http.client will not send ----

# What libmicrohttpd answers by itself to a request it cannot parse, before
# boardd sees it (openapi.yaml, x-library-refusals): one of these statuses,
# no Content-Type (a short HTML body), and the connection closed.
LIBRARY_REFUSALS = SPEC["x-library-refusals"]["statuses"]


def is_library_refusal(resp):
    return (resp.status in LIBRARY_REFUSALS and "content-type" not in resp.headers
            and resp.headers.get("connection", "").lower() == "close")


def validate_raw(method, path, resp):
    """validate_response for an answer read off a raw socket, where the
    library's own refusals (documented in the spec) may come instead."""
    if not is_library_refusal(resp):
        validate_response(method, path, resp)


def raw_exchange(port, data, timeout=5):
    """Sends raw bytes on a fresh connection to 127.0.0.1:port and reads
    every byte the server sends until it closes the connection or
    `timeout` seconds pass.  Returns (bytes, closed): closed is False
    when the server still held the connection open."""
    c = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    out, closed = b"", False
    try:
        c.sendall(data)
        while True:
            b = c.recv(65536)
            if not b:
                closed = True
                break
            out += b
    except socket.timeout:
        pass
    finally:
        c.close()
    return out, closed


def parse_responses(data, methods=()):
    """Splits the bytes a connection sent into Responses, in order;
    methods[i] is the method of the i-th request ("HEAD" answers have no
    body).  Returns (responses, bytes left over: a partial response)."""
    out = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return out, data
        head = data[:end].decode("latin-1").split("\r\n")
        m = re.match(r"HTTP/1\.[01] (\d{3}) ", head[0] + " ")
        check(m, "not a status line: %r" % head[0])
        status = int(m.group(1))
        headers = [tuple(x.strip() for x in line.split(":", 1)) for line in head[1:]]
        hmap = {k.lower(): v for k, v in headers}
        rest = data[end + 4:]
        if status < 200:
            data = rest  # 100 Continue: the answer follows
            continue
        method = methods[len(out)] if len(out) < len(methods) else "GET"
        if method == "HEAD" or status in (204, 304):
            body = b""
        elif hmap.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                nl = rest.find(b"\r\n")
                if nl < 0:
                    return out, data
                n = int(rest[:nl], 16)
                if len(rest) < nl + 2 + n + 2:
                    return out, data
                body += rest[nl + 2:nl + 2 + n]
                rest = rest[nl + 2 + n + 2:]
                if n == 0:
                    break
        elif "content-length" in hmap:
            n = int(hmap["content-length"])
            if len(rest) < n:
                return out, data
            body, rest = rest[:n], rest[n:]
        else:
            body, rest = rest, b""  # to the close
        out.append(Response(status, headers, body))
        data = rest


# ---- the tiny runner ----

_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def run_all(suite):
    binary = sys.argv[1]
    passed = failed = 0
    only = sys.argv[2:] or None
    for fn in _tests:
        if only and fn.__name__ not in only:
            continue
        t0 = time.time()
        try:
            fn(binary)
            passed += 1
            print("ok   %s (%.1fs)" % (fn.__name__, time.time() - t0), flush=True)
        except Exception as e:  # a failed check or a crash of the test
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e), flush=True)
            if not isinstance(e, Failure):
                traceback.print_exc()
    print("%s: %d passed, %d failed" % (suite, passed, failed))
    sys.exit(1 if failed else 0)
