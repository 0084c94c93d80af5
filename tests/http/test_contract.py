"""test_contract.py: the server against openapi/openapi.yaml, operation by
operation.

For every operation of the spec (path x method) it sends good requests and
bad ones, some written for the operation (they need games, players and
moves to exist) and many derived from the spec itself: a missing or
malformed token, unknown and malformed path ids, every query parameter
with values its schema forbids, bodies that are malformed, empty, not
objects, nested too deep, with duplicate keys, of the wrong media type,
oversized (with and without Content-Length), and each body field of the
wrong type, missing or extra, out of range; Idempotency-Key, If-Match and
Last-Event-ID values their schemas forbid; every other method on the
path (405 with the right Allow), HEAD and OPTIONS.

Every answer's status must be documented for its operation and its body
must validate against the schema documented for that status and content
type (harness.validate_response; event streams event by event against
GameEvent).  A request the spec says is invalid must not be accepted, and
each operation must answer 2xx to at least one request.  The suite prints
how many operations and requests it checked.  PROP_CONTRACT_RANDOM sets
the random requests per operation (default 60), PROP_SEED their seed.
Usage: test_contract.py BOARDD [test names...]"""
import http.client
import json
import os
import random
import re
import time
import urllib.parse

import harness
from gamehelp import read_stream
from streams import parse as parse_stream
from harness import (ROOT, SPEC, Failure, Server, _resolve, _validate, check, free_port, run_all, test,
                     validate_response)

# Random requests per operation, and their seed (a long run: more).
RANDOM = int(os.environ.get("PROP_CONTRACT_RANDOM", "60"))
SEED = int(os.environ.get("PROP_SEED", "20261201"))
METHODS = ("get", "post", "put", "patch", "delete")
OPS = [(path, m) for path, item in SPEC["paths"].items() for m in METHODS if m in item]
EVENT = SPEC["components"]["schemas"]["GameEvent"]
ACCOUNT_EVENT = SPEC["components"]["schemas"]["AccountEvent"]
# The security headers info.description promises on every answer (issue
# 34 finding 5), read from it: `Name: value` spans, line breaks as spaces.
SECURITY_HEADERS = {
    m.group(1).lower(): m.group(2)
    for m in re.finditer(r"`(Content-Security-Policy|X-Content-Type-Options|X-Frame-Options|"
                         r"Referrer-Policy): ([^`]+)`",
                         re.sub(r"\s+", " ", SPEC["info"]["description"]))}
assert len(SECURITY_HEADERS) == 4, SECURITY_HEADERS
# ... but for the web client's scripts and style sheets (not the service
# worker), which go without these two (info.description, issue 31 goal 8).
DOCUMENT_ONLY = ("content-security-policy", "x-frame-options")


def subresource(path):
    """A web client file a page loads into itself: a script or a style
    sheet, but sw.js (a worker, whose CSP is its script's own)."""
    p = path.split("?")[0]
    return p != "/sw.js" and p.endswith((".js", ".css"))


AA = "agent-avenue"


class Runner:
    """Sends requests, checks each answer against the spec, and records
    per operation the statuses seen and what went wrong."""

    def __init__(self, binary):
        # email on, its SMTP server a port nobody listens on: mails stay
        # queued (the confirmation code is read from the outbox)
        self.s = Server(binary, extra=["--keepalive", "3600", "--webhook-allow-private",
                                       "--push-contact", "mailto:ops@boardd.example",
                                       "--smtp-url", "smtp://127.0.0.1:%d" % free_port(),
                                       "--mail-from", "boardd@boardd.example"])
        self.requests = 0
        self.seen = {op: set() for op in OPS}
        self.problems = {op: [] for op in OPS}
        self.other = []  # problems of requests outside the spec's operations

    def op_of(self, method, path):
        path = path.split("?")[0]
        for template, item in SPEC["paths"].items():
            if re.match("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$", path):
                return (template, method.lower()) if method.lower() in item else None
        return None

    def note(self, op, what):
        (self.problems[op] if op else self.other).append(what)

    def send(self, what, method, path, expect=None, **kw):
        """One request; `expect`: the statuses it may get (besides being
        documented)."""
        op = self.op_of(method, path)
        try:
            r = self.s.request(method, path, validate=False, **kw)
        except (OSError, http.client.HTTPException) as e:
            self.note(op, "%s: %s %s: no answer (%s)" % (what, method, path, e))
            return None
        self.requests += 1
        try:
            validate_response(method, path, r)
            # info.description: on every response.
            # (the web client's files revalidate instead: no-cache)
            web = op is not None and operation(op).get("tags") == ["web"] and r.status in (200, 304)
            check(r.headers.get("access-control-allow-origin") == "*" and
                  r.headers.get("cache-control") == ("no-cache" if web else "no-store"),
                  "CORS or Cache-Control header missing")
            loaded = web and subresource(path)
            for name, value in SECURITY_HEADERS.items():
                if loaded and name in DOCUMENT_ONLY:
                    check(r.headers.get(name) is None,
                          "%s on a script or style sheet: %r" % (name, r.headers.get(name)))
                    continue
                check(r.headers.get(name) == value,
                      "%s: %r, not %r" % (name, r.headers.get(name), value))
            if op:
                self.check_headers(op, r)
        except Failure as e:
            self.note(op, "%s: %s %s -> %d: %s" % (what, method, path, r.status, e))
        if op:
            self.seen[op].add(r.status)
        if expect and r.status not in expect:
            self.note(op, "%s: %s %s -> %d, want %s: %s"
                      % (what, method, path, r.status, sorted(expect), r.raw[:200]))
        return r

    def check_headers(self, op, r):
        """Documented response headers, where sent, match their schemas;
        401 says WWW-Authenticate: Bearer."""
        spec = _resolve(SPEC["paths"][op[0]][op[1]]["responses"].get(str(r.status), {}))
        for name, h in spec.get("headers", {}).items():
            h = _resolve(h)
            v = r.headers.get(name.lower())
            sch = h.get("schema", {})
            if v is None:
                check(not h.get("required") and not (name == "WWW-Authenticate"),
                      "header %s missing" % name)
                continue
            if "const" in sch:
                check(v == sch["const"], "header %s: %r, not %r" % (name, v, sch["const"]))
            if "pattern" in sch:
                check(re.search(sch["pattern"], v), "header %s: %r does not match %s" % (name, v, sch["pattern"]))

    def stream(self, what, path, token=None, headers=None, want=1, expect=None):
        """GET of an event stream: status and content type documented,
        every event a GameEvent."""
        op = (re.sub(r"/v1/games/[^/]+/", "/v1/games/{id}/", path.split("?")[0]), "get")
        st, ctype, body = read_stream(self.s.port, path, token, headers or {}, want)
        self.requests += 1
        self.seen[op].add(st)
        responses = SPEC["paths"][op[0]]["get"]["responses"]
        try:
            check(str(st) in responses, "status %d not documented" % st)
            content = _resolve(responses[str(st)]).get("content", {})
            if st == 200:
                check(ctype in content, "content type %s not documented" % ctype)
                if ctype != "application/x-ndjson":
                    check(body.startswith(b"retry: 3000\n\n"), "SSE opens with retry")
                events = []
                for ev in parse_stream(ctype, body):
                    e = ev["data"]
                    if ctype != "application/x-ndjson":
                        check("event" not in e, "SSE data has no event field")
                        e["event"] = ev["event"]
                        check(ev["id"] == e["seq"], "SSE id is the seq")
                    events.append(e)
                check(events, "no event came")
                for e in events:
                    _validate(e, ACCOUNT_EVENT if path.startswith("/v1/players/") else EVENT)
            elif st == 204:
                check(not body, "204 with a body")
        except Failure as e:
            self.note(op, "%s: GET %s -> %d: %s" % (what, path, st, e))
        if expect and st not in expect:
            self.note(op, "%s: GET %s -> %d, want %s" % (what, path, st, sorted(expect)))


R = None  # the runner, made by the first test and stopped by the last


def runner(binary):
    global R
    if R is None:
        R = Runner(binary)
        make_fixtures(R)
    return R


# ---- fixtures: players, games in every state ----

F = {}


def post(r, path, body=None, token=None, headers=None):
    x = r.s.request("POST", path, body, token=token, headers=headers)
    check(x.status in (200, 201), "fixture %s: %r" % (path, x))
    return x.json


def player(r, name):
    j = post(r, "/v1/players", {"name": name})
    return j["id"], j["token"]


def game(r, body, token=None):
    j = post(r, "/v1/games", body, token=token)
    return j["id"], [x.get("token") for x in j["seats"]]


def to_act(r, gid):
    return r.s.request("GET", "/v1/games/%s" % gid).json


def listed(r, gid, token):
    return r.s.request("GET", "/v1/games/%s/actions" % gid, token=token).json["actions"]


def play(r, gid, tok, n, rng):
    """Up to n random listed moves; the game after them."""
    for _ in range(n):
        g = to_act(r, gid)
        if g["status"] != "active":
            return g
        seat = rng.choice(g["to_act"])
        r.s.request("POST", "/v1/games/%s/moves" % gid, {"action": rng.choice(listed(r, gid, tok[seat]))},
                    token=tok[seat])
    return to_act(r, gid)


def make_fixtures(r):
    rng = random.Random(11)
    F["alice"], F["alice_tok"] = player(r, "Alice")
    F["bob"], F["bob_tok"] = player(r, "Bob")
    F["carol"], F["carol_tok"] = player(r, "Carol")
    F["aa"], F["aa_tok"] = game(r, {"game": AA, "seats": 2, "setup": {"first_player": 0}})
    play(r, F["aa"], F["aa_tok"], 3, rng)
    F["qt"], F["qt_tok"] = game(r, {"game": "quantum", "seats": 3})
    play(r, F["qt"], F["qt_tok"], 5, rng)
    F["done"], F["done_tok"] = game(r, {"game": AA})
    g = play(r, F["done"], F["done_tok"], 200, rng)
    check(g["status"] == "finished", "a finished game")
    F["done_seq"] = g["seq"]
    F["wait"], _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
    F["invite"], _ = game(r, {"game": AA, "seating": ["me", {"invite": F["bob"]}]}, F["alice_tok"])


# ---- what the spec says a request may look like ----

def operation(op):
    return SPEC["paths"][op[0]][op[1]]


def params(op, where):
    item = SPEC["paths"][op[0]]
    out = [_resolve(p) for p in item.get("parameters", []) + operation(op).get("parameters", [])]
    return [p for p in out if p["in"] == where]


def needs_token(op):
    sec = operation(op).get("security", [])
    return sec and all(s for s in sec)  # no {} alternative: a token is required


def body_schema(op):
    rb = operation(op).get("requestBody")
    if not rb:
        return None
    return _resolve(rb["content"]["application/json"]["schema"])


def forbidden_values(schema):
    """Query values (strings) that schema forbids."""
    schema = _resolve(schema)
    t = schema.get("type")
    out = []
    if "enum" in schema:
        out += ["bogus", "", schema["enum"][0].upper() + "x"]
    if t == "integer":
        out += ["abc", "1.5", "", "-", "0x10", "99999999999999999999999"]
        if "minimum" in schema:
            out.append(str(schema["minimum"] - 1))
        if "maximum" in schema:
            out.append(str(schema["maximum"] + 1))
    return out


def wrong_type(schema):
    """A JSON value not of the schema's type (None when it takes any)."""
    schema = _resolve(schema)
    t = schema.get("type")
    if t == "integer":
        return "7"
    if t == "string":
        return 7
    if t == "object":
        return ["not", "an", "object"]
    if t == "array":
        return {"not": "an array"}
    if t == "boolean":
        return "yes"
    if "oneOf" in schema or "anyOf" in schema:
        return 1.5
    return None


def off_pattern(schema):
    """Strings that do not match schema's pattern (control characters of
    both ranges among them), or none when it has no pattern."""
    if "pattern" not in schema:
        return []
    tries = ["@@", "", "ABC", "0123456789ABCDEF", "a\u0007b", "a\u001bb", "a\u007fb",
             "a\u0085b", "\u009b31m", "a b", "\u00e9"]
    return [v for v in tries if not re.search(schema["pattern"], v)
            and schema.get("minLength", 0) <= len(v.encode()) <= schema.get("maxLength", 10 ** 6)]


def body_variants(schema, good):
    """(what, body) for each way the good body can break the schema."""
    out = []
    for k, sub in schema.get("properties", {}).items():
        sub = _resolve(sub)
        w = wrong_type(sub)
        if w is not None:
            out.append(("field %s of the wrong type" % k, dict(good, **{k: w})))
        if sub.get("type") == "integer":
            if "minimum" in sub:
                out.append(("field %s below its minimum" % k, dict(good, **{k: sub["minimum"] - 1})))
            if "maximum" in sub:
                out.append(("field %s above its maximum" % k, dict(good, **{k: sub["maximum"] + 1})))
            out.append(("field %s a real" % k, dict(good, **{k: 1.5})))
            out.append(("field %s huge" % k, dict(good, **{k: 2 ** 64})))
        if sub.get("type") == "string":
            if "maxLength" in sub:
                out.append(("field %s too long" % k, dict(good, **{k: "x" * (sub["maxLength"] + 1)})))
            if "minLength" in sub:
                out.append(("field %s too short" % k, dict(good, **{k: "x" * (sub["minLength"] - 1)})))
            for v in off_pattern(sub):
                out.append(("field %s off its pattern: %r" % (k, v), dict(good, **{k: v})))
    for k in schema.get("required", []):
        b = dict(good)
        b.pop(k, None)
        out.append(("required field %s missing" % k, b))
    if schema.get("additionalProperties") is False:
        out.append(("an extra field", dict(good, zz_extra=1)))
    return out


# ---- the generic requests every operation gets ----

def generic(r, op, path, token, good_body, token_matters=True):
    """Bad requests derived from the spec for op at the concrete path
    (which names an existing game), with a token that may use it and a
    function giving a fresh good body.  token_matters: an unknown token
    must be a 403 (createGame looks at a token only for a "me" seat)."""
    method = op[1].upper()
    documented = set(int(s) for s in operation(op)["responses"])
    four = {s for s in documented if 400 <= s < 500}
    auth_ok = {"Authorization": "Bearer " + token} if token else {}
    # Tokens.
    if needs_token(op):
        r.send("no token", method, path, {401}, body=good_body() if good_body else None)
    if {"bearer": []} in operation(op).get("security", []):
        r.send("unknown token", method, path, {403} if token_matters else None, token="A" * 43,
               body=good_body() if good_body else None)
    for bad in ("Basic Zm9vOmJhcg==", "Bearer", "Bearer a b", "Bearer \u00e9t\u00e9", "Bearer " + "A" * 300):
        r.send("Authorization: %r" % bad[:20], method, path, None,
               headers={"Authorization": bad.encode("utf-8").decode("latin-1")},
               body=good_body() if good_body else None)
    # Path ids.
    if "{id}" in op[0]:
        for bad in ("0123456789abcdef", "0123456789ABCDEF", "xyz", "0" * 200, "%2e%2e", "%00",
                    "0123456789abcde%C3%A9"):
            p = op[0].replace("{id}", bad)
            # A decoded control character is refused before routing.
            want = {400} if bad == "%00" else {404} if token else {401, 404}
            r.send("path id %r" % bad, method, p, want, token=token,
                   body=good_body() if good_body else None)
    # Query parameters.
    for p in params(op, "query"):
        for v in forbidden_values(p.get("schema", {})):
            q = "%s%s%s=%s" % (path, "&" if "?" in path else "?", p["name"], v)
            r.send("query %s=%r" % (p["name"], v), method, q, four or None, token=token,
                   body=good_body() if good_body else None)
    # Header parameters with a schema to break.
    for p in params(op, "header"):
        sch = _resolve(p.get("schema", {}))
        bad = []
        if "maxLength" in sch:
            bad.append("k" * (sch["maxLength"] + 1))
        if sch.get("minLength", 0) >= 1:
            bad.append("")
        bad += [v for v in off_pattern(sch) if v]
        for v in bad:
            r.send("header %s=%r" % (p["name"], v[:20]), method, path, four or None,
                   token=token, headers={p["name"]: v}, body=good_body() if good_body else None)
    # Bodies.
    schema = body_schema(op)
    if schema is not None:
        required = operation(op)["requestBody"].get("required", False)
        js = {"Content-Type": "application/json"}
        raw = [("malformed JSON", b"{\"a\":"), ("not JSON", b"\xff\xfe\x00"), ("a bare word", b"nul"),
               ("duplicate keys", b'{"a":1,"a":2}'), ("nested too deep", b"[" * 40 + b"]" * 40),
               ("an array", b"[]"), ("a string", b'"x"'), ("null", b"null"), ("a number", b"7")]
        if required:
            raw.append(("empty", b""))
        for what, data in raw:
            r.send(what, method, path, four, token=token, raw=data, headers=js)
        r.send("text/plain body", method, path, {415}, token=token,
               raw=json.dumps(good_body()).encode(), headers={"Content-Type": "text/plain"})
        # the body cap: 1 MiB for POST /v1/games (a record's import), 64 KiB else
        cap = 1024 * 1024 if path == "/v1/games" else 64 * 1024
        r.send("oversized body", method, path, {413}, token=token,
               raw=json.dumps(dict(good_body(), pad="x" * (cap + 10))).encode(), headers=js)
        r.send("oversized chunked body", method, path, {413}, token=token,
               raw=iter([b'{"pad":"', b"x" * (cap // 2 + 10), b"x" * (cap // 2), b'"}']),
               headers=js)
        for what, b in body_variants(schema, good_body()):
            r.send(what, method, path, four, token=token, body=b)


# ---- random requests from the spec ----

def gen(schema, rng, depth=0):
    """A random JSON value, mostly of schema's shape, now and then not."""
    schema = _resolve(schema)
    if depth > 6 or rng.random() < 0.08:
        return rng.choice([None, True, -1, 0, 7, 2 ** 40, 1.5, "", "x", "\u00e9\u0000"[:1], [], {}])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return gen(rng.choice(schema[key]), rng, depth + 1)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    t = schema.get("type")
    if isinstance(t, list):
        t = rng.choice(t)
    if t == "integer":
        lo, hi = schema.get("minimum", -3), schema.get("maximum", 12)
        return rng.randint(lo - 1, hi + 1)
    if t == "string":
        return rng.choice(["x", "mole", "scrapyard", "reserve", "0123456789abcdef", "y" * rng.randrange(80)])
    if t == "boolean":
        return rng.random() < 0.5
    if t == "array":
        # prefixItems (a tuple such as a Square) come first; "items": false
        # closes the tuple, and then one more item is one too many.
        prefix = schema.get("prefixItems", [])
        items = schema.get("items", {})
        top = schema.get("maxItems", len(prefix) if items is False else 4) + 2
        n = rng.randrange(schema.get("minItems", 0), top)
        return [gen(prefix[i] if i < len(prefix) else (items if items is not False else {}),
                    rng, depth + 1) for i in range(n)]
    if t == "object" or "properties" in schema:
        out = {}
        for k, sub in schema.get("properties", {}).items():
            if k in schema.get("required", []) or rng.random() < 0.5:
                out[k] = gen(sub, rng, depth + 1)
        if rng.random() < 0.1:
            out["zz"] = 1
        return out
    return rng.choice([None, 1, "x", [], {}])


def random_requests(r, op, path, n, rng):
    """n random requests of op: tokens, path ids, query and header
    parameters, and bodies drawn from the spec, mostly well-formed."""
    method = op[1].upper()
    schema = body_schema(op)
    # Games of their own: random joins, moves and resignations change them.
    aa, aa_tok = game(r, {"game": AA})
    qt, qt_tok = game(r, {"game": "quantum", "seats": 3})
    wait, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
    ids = [aa, qt, wait, F["done"], "0123456789abcdef", "zz"]
    tokens = [None, "A" * 43, F["alice_tok"], F["bob_tok"]] + aa_tok + qt_tok
    for _ in range(n):
        p = op[0].replace("{id}", rng.choice(ids)) if "{id}" in op[0] else path
        q = []
        for prm in params(op, "query"):
            if rng.random() < 0.4:
                v = gen(prm.get("schema", {}), rng)
                if prm["name"] == "wait":  # a long-poll: short ones only
                    v = rng.choice([-1, 0, 1, "x"])
                v = str(v).lower() if isinstance(v, bool) else str(v)
                q.append("%s=%s" % (prm["name"], urllib.parse.quote(v, safe="")))
        if q:
            p += "?" + "&".join(q)
        h = {}
        for prm in params(op, "header"):
            if rng.random() < 0.3:
                h[prm["name"]] = str(gen(prm.get("schema", {}), rng)).encode("utf-8").decode("latin-1")
        kw = {"token": rng.choice(tokens), "headers": h}
        if schema is not None and rng.random() < 0.9:
            kw["body"] = gen(schema, rng)
        if "Idempotency-Key" in h and not strong_key(h["Idempotency-Key"]):
            del h["Idempotency-Key"]  # (weak anonymous keys are tried elsewhere)
        r.send("random", method, p, None, **kw)


def strong_key(key):
    """The spec's rule for an Idempotency-Key sent without a token: 128
    bits as written (4 per hex digit if all hex and dashes, else 6 per
    base64url character)."""
    if re.fullmatch(r"[0-9a-fA-F-]*", key):
        return 4 * len(key.replace("-", "")) >= 128
    return 6 * len(re.findall(r"[A-Za-z0-9_-]", key)) >= 128


def wrong_methods(r, op, concrete):
    """Other methods on op's path: 405 with the spec's methods in Allow;
    HEAD as GET without a body; OPTIONS a CORS preflight."""
    path_template = op[0]
    item = SPEC["paths"][path_template]
    allowed = {m.upper() for m in METHODS if m in item}
    if "GET" in allowed:
        allowed.add("HEAD")
    for m in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        if m in allowed:
            continue
        x = r.send("wrong method", m, concrete, {405}, body={} if m != "GET" else None)
        if x is not None and x.status == 405:
            got = {a.strip() for a in x.headers.get("allow", "").split(",") if a.strip()}
            if got != allowed:
                r.note(op, "%s %s: Allow %s, spec %s" % (m, concrete, sorted(got), sorted(allowed)))
    if "GET" in allowed:
        g = r.s.request("GET", concrete, validate=False)
        h = r.s.request("HEAD", concrete, validate=False)
        r.requests += 2
        if h.status != g.status or h.raw:
            r.note(op, "HEAD %s: %d with %d bytes, GET %d" % (concrete, h.status, len(h.raw), g.status))
    o = r.s.request("OPTIONS", concrete, validate=False)
    r.requests += 1
    if o.status != 204 or o.headers.get("access-control-allow-origin") != "*":
        r.note(op, "OPTIONS %s: %r" % (concrete, o))


# ---- per operation: good requests, and bad ones that need fixtures ----

def fresh_move(r):
    """A good body for postMove on the Agent Avenue fixture, with the
    seat's token: the game is played on if it ended."""
    g = to_act(r, F["aa"])
    if g["status"] != "active":
        F["aa"], F["aa_tok"] = game(r, {"game": AA})
        g = to_act(r, F["aa"])
    seat = g["to_act"][0]
    return {"action": listed(r, F["aa"], F["aa_tok"][seat])[0]}, F["aa_tok"][seat], g["seq"]


def cases(r, op):
    """Runs the requests written for op."""
    name = operation(op)["operationId"]
    fid = "/v1/games/%s" % F["aa"]
    if name == "health":
        r.send("good", "GET", "/healthz", {200})
        generic(r, op, "/healthz", None, None)
    elif name == "ready":
        r.send("good", "GET", "/readyz", {200})
        generic(r, op, "/readyz", None, None)
    elif name == "metrics":  # the suite's client is on loopback
        x = r.send("good", "GET", "/metrics", {200})
        if x is not None and b"# TYPE boardd_http_requests_total counter" not in x.raw:
            r.note(op, "GET /metrics has no request counter")
        generic(r, op, "/metrics", None, None)
    elif name == "openapi":
        x = r.send("good", "GET", "/openapi.yaml", {200})
        if x is not None and x.raw != open(os.path.join(ROOT, "openapi", "openapi.yaml"), "rb").read():
            r.note(op, "GET /openapi.yaml is not openapi/openapi.yaml")
        generic(r, op, "/openapi.yaml", None, None)
    elif name in ("webClient", "webFile"):
        p = "/" if name == "webClient" else "/app.js"
        x = r.send("good", "GET", p, {200})
        want = open(os.path.join(ROOT, "web", "index.html" if p == "/" else p[1:]), "rb").read()
        if x is not None and x.raw != want:
            r.note(op, "GET %s is not its file of web/" % p)
        if x is not None and x.status == 200:
            r.send("not modified", "GET", p, {304}, headers={"If-None-Match": x.headers["etag"]})
            r.send("another version", "GET", p, {200}, headers={"If-None-Match": '"000000000000000000000000"'})
        if name == "webFile":
            r.send("no such file", "GET", "/nothing.js", {404})
            types = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
            # web/README.md is for people reading the source: not served.
            r.send("web/README.md", "GET", "/README.md", {404})
            for f in sorted(os.listdir(os.path.join(ROOT, "web"))):
                if f == "README.md":
                    continue
                y = r.send("web/" + f, "GET", "/" + f, {200})
                if y is None:
                    continue
                if y.raw != open(os.path.join(ROOT, "web", f), "rb").read():
                    r.note(op, "GET /%s is not web/%s" % (f, f))
                want_type = types.get(os.path.splitext(f)[1])
                if want_type and y.headers.get("content-type") != want_type + "; charset=utf-8":
                    r.note(op, "GET /%s: Content-Type %s" % (f, y.headers.get("content-type")))
                # The web app manifest (W3C Web Application Manifest, §1.2)
                if f.endswith(".webmanifest") and y.headers.get("content-type") != "application/manifest+json":
                    r.note(op, "GET /%s: Content-Type %s" % (f, y.headers.get("content-type")))
        generic(r, op, p, None, None)
    elif name in ("rulesList", "rulesPage"):
        # The rules pages, made from docs/rules/NAME.md at build time.
        games = ("agent-avenue", "quantum")
        for g in games if name == "rulesPage" else ("",):
            p = "/rules/" + g if g else "/rules"
            x = r.send("good", "GET", p, {200})
            if x is None or x.status != 200:
                continue
            html = x.raw.decode("utf-8")
            if g:
                with open(os.path.join(ROOT, "docs", "rules", g + ".md"), encoding="utf-8") as f:
                    h1 = f.readline()[2:].strip()
                if "<h1>%s</h1>" % h1 not in html or 'lang="en"' not in html:
                    r.note(op, "GET %s is not docs/rules/%s.md's page" % (p, g))
                # each numbered heading an anchor: "§7.2" is #s7.2
                for sec in {"agent-avenue": ("4", "7.2"), "quantum": ("7.2", "9.2", "14.1")}[g]:
                    if re.search(r'<h[2-4] id="s%s">%s[ .]' % (re.escape(sec), re.escape(sec)), html) is None:
                        r.note(op, "GET %s: no anchor #s%s on its section %s" % (p, sec, sec))
            elif any('href="/rules/%s"' % x not in html for x in games):
                r.note(op, "GET /rules does not link every game's rules")
            r.send("not modified", "GET", p, {304}, headers={"If-None-Match": x.headers["etag"]})
        if name == "rulesPage":
            r.send("no such rules", "GET", "/rules/chess", {404})
        generic(r, op, "/rules/quantum" if name == "rulesPage" else "/rules", None, None)
    elif name == "getCatalog":
        r.send("good", "GET", "/v1/catalog", {200})
        generic(r, op, "/v1/catalog", None, None)
    elif name == "createGame":
        ok = {201}
        r.send("plain", "POST", "/v1/games", ok, body={"game": AA})
        r.send("quantum with a map", "POST", "/v1/games", ok,
               body={"game": "quantum", "seats": 4, "options": {"map": "Gamma sector - Basic map"}})
        r.send("custom setup", "POST", "/v1/games", ok, body={"game": AA, "setup": {"progress": [1, 2]}})
        r.send("null setup", "POST", "/v1/games", ok, body={"game": AA, "setup": None})
        r.send("me and open", "POST", "/v1/games", ok, token=F["carol_tok"],
               body={"game": AA, "seating": ["me", "open"]})
        r.send("invite", "POST", "/v1/games", ok, token=F["carol_tok"],
               body={"game": AA, "seating": ["token", {"invite": F["bob"]}]})
        r.send("a bot seat", "POST", "/v1/games", ok,
               body={"game": AA, "seating": ["token", {"bot": "mcts", "level": 2}]})
        bots = {"game": AA, "seating": [{"bot": "random"}, {"bot": "random"}]}
        r.send("bots only, no token", "POST", "/v1/games", {401}, body=bots)
        r.send("bots only, a player's", "POST", "/v1/games", ok, token=F["carol_tok"], body=bots)
        r.send("a bad bot seat", "POST", "/v1/games", {422},
               body={"game": AA, "seating": ["token", {"bot": "mcts", "level": 9}]})
        key = {"Idempotency-Key": "contract-create-0001-0000"}
        r.send("with a key", "POST", "/v1/games", ok, body={"game": AA}, headers=key)
        x = r.send("the key again", "POST", "/v1/games", ok, body={"game": AA}, headers=key)
        if x is not None and x.headers.get("idempotent-replayed") != "true":
            r.note(op, "a replay lacks Idempotent-Replayed: true")
        r.send("the key, another body", "POST", "/v1/games", {422}, body={"game": AA, "seats": 2}, headers=key)
        r.send("a short anonymous key", "POST", "/v1/games", {400}, body={"game": AA},
               headers={"Idempotency-Key": "short"})
        r.send("unknown game", "POST", "/v1/games", {422}, body={"game": "chess"})
        rec = r.s.request("GET", "/v1/games/%s/record" % F["done"]).json
        r.send("import a record", "POST", "/v1/games", ok, body={"record": rec})
        bad = dict(rec, moves=[dict(rec["moves"][0], seat=1 - rec["moves"][0]["seat"])] + rec["moves"][1:])
        r.send("import an altered record", "POST", "/v1/games", {422}, body={"record": bad})
        r.send("a record and more", "POST", "/v1/games", {400}, body={"record": rec, "game": AA})
        r.send("too many seats", "POST", "/v1/games", {422}, body={"game": AA, "seats": 5})
        r.send("unknown option", "POST", "/v1/games", {422}, body={"game": AA, "options": {"turbo": 1}})
        r.send("impossible setup", "POST", "/v1/games", {422}, body={"game": AA, "setup": {"progress": [9, 0]}})
        r.send("a setup with an open seat", "POST", "/v1/games", {400, 422}, token=F["carol_tok"],
               body={"game": AA, "seating": ["me", "open"], "setup": {"first_player": 0}})
        r.send("me without a token", "POST", "/v1/games", {401}, body={"game": AA, "seating": ["me", "open"]})
        r.send("me with a seat token", "POST", "/v1/games", {403}, token=F["aa_tok"][0],
               body={"game": AA, "seating": ["me", "open"]})
        r.send("invite nobody", "POST", "/v1/games", {400, 422},
               body={"game": AA, "seating": ["token", {"invite": "0123456789abcdef"}]})
        r.send("seating too short", "POST", "/v1/games", {400, 422}, body={"game": AA, "seating": ["open"]})
        r.send("seating of a bad word", "POST", "/v1/games", {400, 422}, token=F["carol_tok"],
               body={"game": AA, "seating": ["me", "x"]})
        generic(r, op, "/v1/games", F["carol_tok"], lambda: {"game": AA}, token_matters=False)
    elif name == "listGames":
        r.send("all", "GET", "/v1/games", {200})
        r.send("waiting", "GET", "/v1/games?status=waiting", {200})
        r.send("quantum", "GET", "/v1/games?game=quantum", {200})
        x = r.send("one", "GET", "/v1/games?limit=1", {200})
        if x is not None and x.status == 200 and x.json["next_cursor"]:
            r.send("next page", "GET", "/v1/games?limit=1&cursor=%s" % x.json["next_cursor"], {200})
        r.send("a bad cursor", "GET", "/v1/games?cursor=abc", {400})
        generic(r, op, "/v1/games", None, None)
    elif name == "getGame":
        r.send("spectator", "GET", fid, {200})
        x = r.send("seat", "GET", fid, {200}, token=F["aa_tok"][0])
        r.send("player looking on", "GET", fid, {200}, token=F["bob_tok"])
        if x is not None and x.status == 200:
            r.send("not modified", "GET", fid, {304}, token=F["aa_tok"][0],
                   headers={"If-None-Match": x.headers["etag"]})
        r.send("long-poll, already past", "GET", fid + "?wait=5&after=0", {200})
        r.send("long-poll of 0 s", "GET", fid + "?wait=0", {200})
        w = r.send("waiting game", "GET", "/v1/games/%s" % F["wait"], {200})
        if w is not None and w.status == 200:
            r.send("waiting, not modified", "GET", "/v1/games/%s" % F["wait"], {304},
                   headers={"If-None-Match": w.headers["etag"]})
        generic(r, op, fid, F["aa_tok"][0], None)
    elif name == "streamEvents":
        done = "/v1/games/%s/events" % F["done"]
        r.stream("finished, NDJSON from 0", done + "?after=0", headers={"Accept": "application/x-ndjson"},
                 want=10 ** 6, expect={200})
        r.stream("finished, SSE from 0", done + "?after=0", want=10 ** 6, expect={200})
        r.stream("finished, seen to the end", done, headers={"Last-Event-ID": str(F["done_seq"])}, expect={204})
        r.stream("active, a seat", "/v1/games/%s/events" % F["aa"], F["aa_tok"][1], expect={200})
        r.stream("active, NDJSON", "/v1/games/%s/events" % F["qt"], None,
                 headers={"Accept": "application/x-ndjson"}, expect={200})
        r.stream("waiting", "/v1/games/%s/events" % F["wait"], F["alice_tok"], expect={200})
        for what, p, h in (("after=x", done + "?after=x", {}), ("Last-Event-ID x", done, {"Last-Event-ID": "x"}),
                           ("unknown game", "/v1/games/0123456789abcdef/events", {}),
                           ("bad token", done, {"Authorization": "Bearer " + "A" * 43}),
                           ("bad Authorization", done, {"Authorization": "Basic x"})):
            r.stream(what, p, headers=h, expect={400, 401, 403, 404})
        gurl = "/v1/games/%s/events" % F["aa"]
        t = post(r, "/v1/tickets", {"url": gurl}, token=F["aa_tok"][0])["ticket"]
        r.stream("a ticket", gurl + "?ticket=" + t, None, expect={200})
        r.stream("the ticket again", gurl + "?ticket=" + t, None, expect={401})
        # The generic ones on a finished game (an active one's stream stays open).
        generic(r, op, done + "", None, None)
    elif name == "listActions":
        r.send("seat", "GET", fid + "/actions", {200}, token=F["aa_tok"][0])
        r.send("player seat", "GET", "/v1/games/%s/actions" % F["wait"], {200}, token=F["alice_tok"])
        r.send("player not seated", "GET", fid + "/actions", {403}, token=F["carol_tok"])
        generic(r, op, fid + "/actions", F["aa_tok"][0], None)
    elif name == "postMove":
        body, tok, seq = fresh_move(r)
        r.send("listed, If-Match", "POST", "/v1/games/%s/moves" % F["aa"], {201}, token=tok, body=body,
               headers={"If-Match": '"%d"' % seq})
        body, tok, seq = fresh_move(r)
        r.send("listed, expected_seq", "POST", "/v1/games/%s/moves" % F["aa"], {201}, token=tok,
               body=dict(body, expected_seq=seq))
        body, tok, seq = fresh_move(r)
        key = {"Idempotency-Key": "contract-move-1"}
        path = "/v1/games/%s/moves" % F["aa"]
        r.send("listed, a key", "POST", path, {201}, token=tok, body=body, headers=key)
        r.send("the key again", "POST", path, {201}, token=tok, body=body, headers=key)
        r.send("the key, another body", "POST", path, {422}, token=tok, body={"action": {"type": "x"}},
               headers=key)
        body, tok, seq = fresh_move(r)
        other = [t for t in F["aa_tok"] if t != tok][0]
        r.send("not your turn", "POST", path, {409}, token=other, body=body)
        r.send("stale If-Match", "POST", path, {412}, token=tok, body=body, headers={"If-Match": '"%d"' % (seq + 5)})
        r.send("If-Match *", "POST", path, {201}, token=tok, body=body, headers={"If-Match": "*"})
        body, tok, seq = fresh_move(r)
        r.send("malformed If-Match", "POST", path, {400}, token=tok, body=body, headers={"If-Match": "nope"})
        r.send("weak If-Match", "POST", path, {412}, token=tok, body=body,
               headers={"If-Match": 'W/"%d"' % seq})
        r.send("If-Match and expected_seq disagree", "POST", path, {400}, token=tok,
               body=dict(body, expected_seq=seq + 1), headers={"If-Match": '"%d"' % seq})
        r.send("illegal", "POST", path, {422}, token=tok, body={"action": {"type": "fly"}})
        r.send("resign as a move", "POST", path, {400}, token=tok, body={"action": {"type": "resign"}})
        r.send("game over", "POST", "/v1/games/%s/moves" % F["done"], {409}, token=F["done_tok"][0], body=body)
        r.send("waiting", "POST", "/v1/games/%s/moves" % F["wait"], {409}, token=F["alice_tok"], body=body)
        generic(r, op, path, tok, lambda: fresh_move(r)[0])
    elif name == "listMoves":
        r.send("spectator", "GET", fid + "/moves", {200})
        r.send("seat, after 1", "GET", fid + "/moves?after=1", {200}, token=F["aa_tok"][0])
        r.send("after beyond", "GET", fid + "/moves?after=999", {200})
        generic(r, op, fid + "/moves", F["aa_tok"][0], None)
    elif name == "getRecord":
        r.send("a finished game", "GET", "/v1/games/%s/record" % F["done"], {200})
        r.send("with a seat token", "GET", "/v1/games/%s/record" % F["done"], {200}, token=F["done_tok"][0])
        r.send("a running game", "GET", fid + "/record", {409})
        r.send("an unknown game", "GET", "/v1/games/0000000000000000/record", {404})
    elif name == "joinGame":
        gid, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
        r.send("a player", "POST", "/v1/games/%s/join" % gid, {200}, token=F["bob_tok"])
        r.send("full now", "POST", "/v1/games/%s/join" % gid, {409}, token=F["carol_tok"])
        gid, _ = game(r, {"game": AA, "seats": 2, "seating": ["open", "open"]})
        r.send("already seated", "POST", "/v1/games/%s/join" % gid, {200}, token=F["bob_tok"], body={"seat": 1})
        r.send("already seated again", "POST", "/v1/games/%s/join" % gid, {409}, token=F["bob_tok"])
        r.send("a seat out of range", "POST", "/v1/games/%s/join" % gid, {400, 409}, body={"seat": 9})
        r.send("a newcomer", "POST", "/v1/games/%s/join" % gid, {200})
        r.send("reserved for Bob", "POST", "/v1/games/%s/join" % F["invite"], {403}, token=F["carol_tok"],
               body={"seat": 1})
        r.send("a seat token", "POST", "/v1/games/%s/join" % F["invite"], {403}, token=F["aa_tok"][0])
        gid, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
        key = {"Idempotency-Key": "contract-join-0000001"}
        r.send("with a key", "POST", "/v1/games/%s/join" % gid, {200}, token=F["carol_tok"], headers=key)
        r.send("the key again", "POST", "/v1/games/%s/join" % gid, {200}, token=F["carol_tok"], headers=key)
        r.send("the key, another body", "POST", "/v1/games/%s/join" % gid, {422}, token=F["carol_tok"],
               headers=key, body={"seat": 0})
        gid, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
        generic(r, op, "/v1/games/%s/join" % gid, F["carol_tok"], lambda: {"seat": 1})
    elif name == "resign":
        gid, tok = game(r, {"game": AA})
        r.send("a seat", "POST", "/v1/games/%s/resign" % gid, {201}, token=tok[0])
        r.send("game over", "POST", "/v1/games/%s/resign" % gid, {409}, token=tok[1])
        r.send("waiting", "POST", "/v1/games/%s/resign" % F["wait"], {409}, token=F["alice_tok"])
        gid, tok = game(r, {"game": "quantum", "seats": 3})
        key = {"Idempotency-Key": "contract-resign-01"}
        r.send("with a key", "POST", "/v1/games/%s/resign" % gid, {201}, token=tok[0], headers=key)
        r.send("the key again", "POST", "/v1/games/%s/resign" % gid, {201}, token=tok[0], headers=key)
        r.send("resigned already", "POST", "/v1/games/%s/resign" % gid, {409, 422}, token=tok[0])
        r.send("a body of another type", "POST", "/v1/games/%s/resign" % gid, None, token=tok[1],
               raw=b"x", headers={"Content-Type": "text/plain"})
        r.send("an oversized body", "POST", "/v1/games/%s/resign" % gid, {413}, token=tok[1],
               raw=b"x" * 70000, headers={"Content-Type": "application/json"})
        gid, tok = game(r, {"game": "quantum", "seats": 4})
        generic(r, op, "/v1/games/%s/resign" % gid, tok[2], None)
    elif name == "createPlayer":
        r.send("good", "POST", "/v1/players", {201}, body={"name": "Dave"})
        r.send("a name of 64 bytes", "POST", "/v1/players", {201}, body={"name": "\u00e9" * 32})
        r.send("a name of 65 bytes", "POST", "/v1/players", {400, 422}, body={"name": "\u00e9" * 32 + "x"})
        r.send("a control character", "POST", "/v1/players", {400, 422}, body={"name": "a\u0007b"})
        r.send("a C1 control character (CSI)", "POST", "/v1/players", {400}, body={"name": "\u009b31mred"})
        r.send("a C1 control character (NEL)", "POST", "/v1/players", {400}, body={"name": "a\u0085b"})
        r.send("the character after C1", "POST", "/v1/players", {201}, body={"name": "\u00a0b"})
        r.send("empty", "POST", "/v1/players", {400, 422}, body={"name": ""})
        key = {"Idempotency-Key": "contract-player-0001-0000"}
        r.send("with a key", "POST", "/v1/players", {201}, body={"name": "Fay"}, headers=key)
        r.send("the key again", "POST", "/v1/players", {201}, body={"name": "Fay"}, headers=key)
        r.send("the key, another body", "POST", "/v1/players", {422}, body={"name": "Gus"}, headers=key)
        generic(r, op, "/v1/players", None, lambda: {"name": "Eve"})
    elif name == "getMe":
        r.send("good", "GET", "/v1/players/me", {200}, token=F["alice_tok"])
        r.send("a seat token", "GET", "/v1/players/me", {403}, token=F["aa_tok"][0])
        generic(r, op, "/v1/players/me", F["alice_tok"], None)
    elif name == "getMyGames":
        p = "/v1/players/me/games"
        x = r.send("good", "GET", p, {200}, token=F["alice_tok"])
        r.send("my turn", "GET", p + "?my_turn=true", {200}, token=F["alice_tok"])
        r.send("not my turn", "GET", p + "?my_turn=false&status=waiting", {200}, token=F["alice_tok"])
        y = r.send("one", "GET", p + "?limit=1", {200}, token=F["alice_tok"])
        if y is not None and y.status == 200 and y.json["next_cursor"]:
            r.send("next page", "GET", p + "?limit=1&cursor=" + y.json["next_cursor"], {200},
                   token=F["alice_tok"])
        if x is not None and x.status == 200:
            r.send("not modified", "GET", p, {304}, token=F["alice_tok"],
                   headers={"If-None-Match": x.headers["etag"]})
        r.send("a seat token", "GET", p, {403}, token=F["aa_tok"][0])
        r.send("a bad cursor", "GET", p + "?cursor=abc", {400}, token=F["alice_tok"])
        generic(r, op, p, F["alice_tok"], None)
    elif name == "streamAccountEvents":
        p = "/v1/players/me/events"
        r.stream("Bob's, NDJSON from 0", p + "?after=0", F["bob_tok"],
                 headers={"Accept": "application/x-ndjson"}, expect={200})
        r.stream("Bob's, SSE from 0", p, F["bob_tok"], headers={"Last-Event-ID": "0"}, expect={200})
        for what, h in (("after=x", {"Last-Event-ID": "x"}), ("a seat token", {}),
                        ("no token", {"Authorization": "Basic x"})):
            r.stream(what, p, F["aa_tok"][0] if what == "a seat token" else None, headers=h,
                     expect={400, 401, 403})
        t = post(r, "/v1/tickets", {"url": p + "?after=0"}, token=F["bob_tok"])["ticket"]
        r.stream("a ticket", p + "?after=0&ticket=" + t, None, headers={"Accept": "application/x-ndjson"},
                 expect={200})
        r.stream("the ticket again", p + "?after=0&ticket=" + t, None, expect={401})
        t = post(r, "/v1/tickets", {"url": p}, token=F["bob_tok"])["ticket"]
        r.stream("a ticket for another URL", p + "?after=0&ticket=" + t, None, expect={401})
        generic(r, op, p, F["bob_tok"], None)
    elif name in ("putWebhook", "getWebhook", "deleteWebhook", "getWebhookDeliveries"):
        p = "/v1/players/me/webhook"
        url = "http://127.0.0.1:9/hook"  # nothing listens: deliveries stay pending
        if name == "putWebhook":
            r.send("good", "PUT", p, {200}, token=F["carol_tok"], body={"url": url})
            r.send("ftp", "PUT", p, {400}, token=F["carol_tok"], body={"url": "ftp://example.com/"})
            r.send("credentials", "PUT", p, {400}, token=F["carol_tok"],
                   body={"url": "http://u:p@example.com/"})
            r.send("a seat token", "PUT", p, {403}, token=F["aa_tok"][0], body={"url": url})
            generic(r, op, p, F["carol_tok"], lambda: {"url": url})
        elif name == "getWebhook":
            r.send("none", "GET", p, {404}, token=F["bob_tok"])
            r.send("PUT", "PUT", p, {200}, token=F["carol_tok"], body={"url": url})
            r.send("good", "GET", p, {200}, token=F["carol_tok"])
            generic(r, op, p, F["carol_tok"], None)
        elif name == "deleteWebhook":
            r.send("PUT", "PUT", p, {200}, token=F["bob_tok"], body={"url": url})
            r.send("good", "DELETE", p, {204}, token=F["bob_tok"])
            r.send("again", "DELETE", p, {404}, token=F["bob_tok"])
            generic(r, op, p, F["bob_tok"], None)
        else:
            r.send("PUT", "PUT", p, {200}, token=F["alice_tok"], body={"url": url})
            post(r, "/v1/games", {"game": AA, "seating": ["me", "token"]}, token=F["alice_tok"])
            r.send("good", "GET", p + "/deliveries", {200}, token=F["alice_tok"])
            r.send("limit", "GET", p + "/deliveries?limit=1", {200}, token=F["alice_tok"])
            generic(r, op, p + "/deliveries", F["alice_tok"], None)
    elif name in ("getPushKey", "listPushSubscriptions", "addPushSubscription",
                  "deletePushSubscription"):
        p = "/v1/players/me/push-subscriptions"
        # RFC 8291 section 5's user agent keys: a point on the curve
        keys = {"p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
                          "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                "auth": "BTBZMqHH6r4Tts7J_aSIgg"}
        sub = lambda: {"endpoint": "https://push.example.com/c", "expirationTime": None, "keys": keys}
        if name == "getPushKey":
            r.send("good", "GET", "/v1/push/key", {200})
        elif name == "listPushSubscriptions":
            r.send("good", "GET", p, {200}, token=F["carol_tok"])
            generic(r, op, p, F["carol_tok"], None)
        elif name == "addPushSubscription":
            r.send("good", "POST", p, {201}, token=F["carol_tok"], body=sub())
            r.send("auth of 2 bytes", "POST", p, {400}, token=F["carol_tok"],
                   body=dict(sub(), keys={"p256dh": keys["p256dh"], "auth": "AAA"}))
            generic(r, op, p, F["carol_tok"], sub)
        else:
            sid = post(r, p, sub(), token=F["bob_tok"])["id"]
            r.send("good", "DELETE", p + "/" + sid, {204}, token=F["bob_tok"])
            r.send("again", "DELETE", p + "/" + sid, {404}, token=F["bob_tok"])
            generic(r, op, p + "/" + sid, F["bob_tok"], None)
    elif name in ("getVacation", "takeVacation", "setVacationAuto", "endVacation"):
        p = "/v1/players/me/vacation"
        pid, tok = player(r, "Away" + name)
        # 30 days to take at once (accruing them needs 30 weeks: test_vacation
        # moves the server's clock instead)
        r.s.query("INSERT INTO vacation_accounts (player_key, left_ms, accrued_ms, auto) "
                  "SELECT key, 2592000000, created_ms, 0 FROM players WHERE id = ?", (pid,))
        if name == "getVacation":
            r.send("good", "GET", p, {200}, token=tok)
            r.send("a seat token", "GET", p, {403}, token=F["aa_tok"][0])
            generic(r, op, p, tok, None)
        elif name == "takeVacation":
            r.send("good", "POST", p, {201}, token=tok, body={"seconds": 3600})
            r.send("again", "POST", p, {409}, token=tok, body={"seconds": 3600})
            r.send("too short", "POST", p, {400}, token=tok, body={"seconds": 60})
            _, none = player(r, "Away" + name + "2")
            r.send("more than left", "POST", p, {409}, token=none, body={"seconds": 3600})
            generic(r, op, p, tok, lambda: {"seconds": 3600})
        elif name == "setVacationAuto":
            r.send("good", "PATCH", p, {200}, token=tok, body={"auto": True})
            r.send("not a boolean", "PATCH", p, {400}, token=tok, body={"auto": 1})
            generic(r, op, p, tok, lambda: {"auto": False})
        else:
            r.send("none", "DELETE", p, {409}, token=tok)
            r.s.request("POST", p, {"seconds": 7200}, token=tok)
            r.send("good", "DELETE", p, {200}, token=tok)
            generic(r, op, p, tok, None)
    elif name in ("getEmail", "setEmail", "patchEmail", "deleteEmail", "confirmEmail",
                  "showUnsubscribe", "unsubscribe"):
        p = "/v1/players/me/email"
        _, tok = player(r, "Mail" + name)
        address = lambda: {"address": "%s@example.com" % name.lower(), "language": "en"}

        def queued_code():
            return r.s.query("SELECT code FROM mail_deliveries WHERE kind = 'confirm' "
                             "ORDER BY key DESC LIMIT 1")[0][0]
        if name == "getEmail":
            r.send("none", "GET", p, {404}, token=tok)
            post_status = r.s.request("POST", p, address(), token=tok).status
            check(post_status == 202, "fixture address: %r" % post_status)
            r.send("good", "GET", p, {200}, token=tok)
            generic(r, op, p, tok, None)
        elif name == "setEmail":
            r.send("good", "POST", p, {202}, token=tok, body=address())
            r.send("the same address again", "POST", p, {429}, token=tok, body=address())
            r.send("malformed", "POST", p, {422}, token=tok, body={"address": "a@b"})
            r.send("a bad language", "POST", p, {400}, token=tok,
                   body={"address": "x@example.com", "language": "de"})
            generic(r, op, p, tok, lambda: {"address": "g%s@example.com" % time.time_ns()})
        elif name == "patchEmail":
            r.send("none", "PATCH", p, {404}, token=tok, body={"mode": "none"})
            r.s.request("POST", p, address(), token=tok)
            r.send("good", "PATCH", p, {200}, token=tok, body={"mode": "none", "language": "fr"})
            r.send("a bad mode", "PATCH", p, {400}, token=tok, body={"mode": "weekly"})
            generic(r, op, p, tok, lambda: {"mode": "event"})
        elif name == "deleteEmail":
            r.s.request("POST", p, address(), token=tok)
            r.send("good", "DELETE", p, {204}, token=tok)
            r.send("again", "DELETE", p, {404}, token=tok)
            generic(r, op, p, tok, None)
        elif name == "confirmEmail":
            c = p + "/confirm"
            r.send("no address", "POST", c, {404}, token=tok, body={"code": "12345678"})
            r.s.request("POST", p, address(), token=tok)
            code = queued_code()
            wrong = "%08d" % ((int(code) + 1) % 100000000)
            r.send("wrong", "POST", c, {422}, token=tok, body={"code": wrong})
            r.send("not 8 digits", "POST", c, {400}, token=tok, body={"code": "123"})
            r.send("good", "POST", c, {200}, token=tok, body={"code": code})
            r.send("replayed", "POST", c, {422}, token=tok, body={"code": code})
            generic(r, op, c, tok, lambda: {"code": "12345678"})
        else:
            r.s.request("POST", p, address(), token=tok)
            utok = r.s.query("SELECT unsub_token FROM mail_addresses WHERE address = ?",
                             ("%s@example.com" % name.lower(),))[0][0]
            u = "/v1/unsubscribe/" + utok
            method = "GET" if name == "showUnsubscribe" else "POST"
            r.send("good", method, u, {200}, raw=b"List-Unsubscribe=One-Click",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
            r.send("unknown", method, "/v1/unsubscribe/" + "B" * 43, {404})
            generic(r, op, u, None, None)
    elif name == "createTicket":
        p = "/v1/tickets"
        acct = lambda: {"url": "/v1/players/me/events"}
        r.send("good", "POST", p, {201}, token=F["alice_tok"], body=acct())
        r.send("from a seq", "POST", p, {201}, token=F["alice_tok"], body={"url": "/v1/players/me/events?after=3"})
        r.send("a game's, a seat", "POST", p, {201}, token=F["aa_tok"][0],
               body={"url": "/v1/games/%s/events" % F["aa"]})
        r.send("a game's, a player looking on", "POST", p, {201}, token=F["carol_tok"],
               body={"url": "/v1/games/%s/events" % F["aa"]})
        for bad in ("/v1/games", "/v1/players/me/events?wait=1", "events", "/v1/games/%s/moves" % F["aa"]):
            r.send("not a stream: " + bad, "POST", p, {400}, token=F["alice_tok"], body={"url": bad})
        r.send("a seat token for the account stream", "POST", p, {403}, token=F["aa_tok"][0], body=acct())
        r.send("an unknown game", "POST", p, {404}, token=F["alice_tok"],
               body={"url": "/v1/games/0123456789abcdef/events"})
        generic(r, op, p, F["alice_tok"], acct)
    elif name == "cancelGame":
        gid, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
        r.send("not the creator", "DELETE", "/v1/games/" + gid, {403}, token=F["bob_tok"])
        r.send("a seat token", "DELETE", "/v1/games/" + F["aa"], {403, 409}, token=F["aa_tok"][0])
        r.send("good", "DELETE", "/v1/games/" + gid, {204}, token=F["alice_tok"])
        r.send("again", "DELETE", "/v1/games/" + gid, {404}, token=F["alice_tok"])
        act, _ = game(r, {"game": AA, "seating": ["me", "token"]}, F["alice_tok"])
        r.send("started, nobody moved", "DELETE", "/v1/games/" + act, {204}, token=F["alice_tok"])
        act, toks = game(r, {"game": AA, "seating": ["me", "token"]}, F["alice_tok"])
        toks[0] = F["alice_tok"]
        (seat,) = to_act(r, act)["to_act"]
        post(r, "/v1/games/%s/moves" % act, {"action": listed(r, act, toks[seat])[0]}, token=toks[seat])
        r.send("someone moved", "DELETE", "/v1/games/" + act, {409}, token=F["alice_tok"])
        gid, _ = game(r, {"game": AA, "seating": ["me", "open"]}, F["alice_tok"])
        generic(r, op, "/v1/games/" + gid, F["alice_tok"], None)
    elif name in ("offerRematch", "declineRematch"):
        # two fresh players (no block of another test's between them)
        (dan, dan_tok), (eve, eve_tok) = player(r, "Dan"), player(r, "Eve")
        gid, _ = game(r, {"game": AA, "seating": ["me", {"invite": eve}]}, dan_tok)
        post(r, "/v1/games/%s/join" % gid, token=eve_tok)
        p = "/v1/games/%s/rematch" % gid
        method = "POST" if name == "offerRematch" else "DELETE"
        r.send("not over", method, p, {409}, token=dan_tok)
        post(r, "/v1/games/%s/resign" % gid, token=eve_tok)
        r.send("not a player", method, p, {403}, token=F["carol_tok"])
        if name == "offerRematch":
            r.send("a game of seat tokens (not over, or not for players)", method, "/v1/games/%s/rematch" % F["aa"], {409},
                   token=F["aa_tok"][0])
            r.send("offer", method, p, {200}, token=dan_tok)
            r.send("again", method, p, {200}, token=dan_tok)
            generic(r, op, p, dan_tok, None)
            r.send("accept", method, p, {200}, token=eve_tok)
            r.send("rematched", method, p, {409}, token=dan_tok)
        else:
            r.send("no offer", method, p, {204}, token=dan_tok)
            post(r, p, token=dan_tok)
            generic(r, op, p, eve_tok, None)
            r.send("decline", method, p, {204}, token=eve_tok)
    elif name == "leaveGame":
        gid, _ = game(r, {"game": "quantum", "seats": 3, "seating": ["me", "open", "open"]}, F["alice_tok"])
        post(r, "/v1/games/%s/join" % gid, token=F["bob_tok"])
        r.send("good", "POST", "/v1/games/%s/leave" % gid, {204}, token=F["bob_tok"])
        r.send("again", "POST", "/v1/games/%s/leave" % gid, {403}, token=F["bob_tok"])
        r.send("started", "POST", "/v1/games/%s/leave" % F["aa"], {409}, token=F["aa_tok"][0])
        generic(r, op, "/v1/games/%s/leave" % gid, F["bob_tok"], None)
    elif name == "exportMe":
        p = "/v1/players/me/export"
        r.send("good", "GET", p, {200}, token=F["alice_tok"])
        r.send("a seat token", "GET", p, {403}, token=F["aa_tok"][0])
        generic(r, op, p, F["alice_tok"], None)
    elif name == "deleteMe":
        p = "/v1/players/me"
        _, t = player(r, "Leaving")
        gid, _ = game(r, {"game": AA, "seating": ["me", "token"]}, t)
        r.send("a seat token", "DELETE", p, {403}, token=F["aa_tok"][0])
        r.send("good (resigns a game in progress)", "DELETE", p, {204}, token=t)
        r.send("again", "DELETE", p, {401}, token=t)
        _, t = player(r, "Leaving too")
        generic(r, op, p, t, None)
    elif name == "listTokens":
        p = "/v1/players/me/tokens"
        r.send("good", "GET", p, {200}, token=F["alice_tok"])
        r.send("a seat token", "GET", p, {403}, token=F["aa_tok"][0])
        generic(r, op, p, F["alice_tok"], None)
    elif name == "createToken":
        p = "/v1/players/me/tokens"
        r.send("good", "POST", p, {201}, token=F["carol_tok"], body={"label": "phone"})
        r.send("no body", "POST", p, {201}, token=F["carol_tok"])
        r.send("a label of 65 bytes", "POST", p, {400}, token=F["carol_tok"], body={"label": "x" * 65})
        r.send("a control character", "POST", p, {400}, token=F["carol_tok"], body={"label": "a\u0085b"})
        r.send("a seat token", "POST", p, {403}, token=F["aa_tok"][0], body={"label": "x"})
        generic(r, op, p, F["carol_tok"], lambda: {"label": "laptop"})
    elif name == "findPlayers":
        r.send("good", "GET", "/v1/players?name=a", {200})
        r.send("a limit", "GET", "/v1/players?name=A&limit=2", {200})
        r.send("none found", "GET", "/v1/players?name=qqqq", {200})
        r.send("no name", "GET", "/v1/players", {400})
        r.send("only spaces", "GET", "/v1/players?name=%20", {400})
        r.send("limit 51", "GET", "/v1/players?name=a&limit=51", {400})
        generic(r, op, "/v1/players?name=a", None, None)
    elif name == "createLinkCode":
        p = "/v1/players/me/link-codes"
        _, t = player(r, "Linking")
        r.send("good", "POST", p, {201}, token=t)
        r.send("a seat token", "POST", p, {403}, token=F["aa_tok"][0])
        for i in range(4):
            r.send("live %d" % (i + 2), "POST", p, {201}, token=t)
        r.send("a sixth live", "POST", p, {409}, token=t)
        _, t = player(r, "Linking too")
        r.send("with its QR code", "POST", p, {201}, token=t, body={"origin": "https://play.example.org"})
        r.send("an origin with a path", "POST", p, {400}, token=t, body={"origin": "https://a.example/x"})
        generic(r, op, p, t, lambda: {"origin": "http://127.0.0.1:8080"})
    elif name == "claimLinkCode":
        p = "/v1/link-codes/claim"
        _, t = player(r, "Claiming")
        code = post(r, "/v1/players/me/link-codes", None, token=t)["code"]
        r.send("good", "POST", p, {201}, body={"code": code.lower()})
        r.send("used", "POST", p, {422}, body={"code": code})
        r.send("wrong", "POST", p, {422}, body={"code": "ZZZZ-ZZZZ"})
        r.send("not a string", "POST", p, {400}, body={"code": 12345678})
        code = post(r, "/v1/players/me/link-codes", None, token=t)["code"]
        generic(r, op, p, None, lambda: {"code": code})
    elif name == "revokeToken":
        p = "/v1/players/me/tokens/"
        t = post(r, p[:-1], {"label": "throwaway"}, token=F["bob_tok"])
        r.send("another's", "DELETE", p + t["id"], {404}, token=F["carol_tok"])
        r.send("good", "DELETE", p + t["id"], {204}, token=F["bob_tok"])
        r.send("again", "DELETE", p + t["id"], {404}, token=F["bob_tok"])
        r.send("unknown", "DELETE", p + "nothing", {404}, token=F["bob_tok"])
        r.send("revoked", "DELETE", p + t["id"], {401}, token=t["token"])
        t = post(r, p[:-1], {"label": "throwaway"}, token=F["bob_tok"])
        generic(r, op, p + t["id"], F["bob_tok"], None)
    elif name == "attachSeat":
        p = "/v1/players/me/seats"
        gid, toks = game(r, {"game": AA})
        r.send("good", "POST", p, {200}, token=F["carol_tok"], body={"token": toks[0]})
        r.send("again", "POST", p, {403}, token=F["carol_tok"], body={"token": toks[0]})
        r.send("a second seat of the game", "POST", p, {409}, token=F["carol_tok"], body={"token": toks[1]})
        r.send("a player token", "POST", p, {403}, token=F["carol_tok"], body={"token": F["bob_tok"]})
        r.send("a seat token as the caller", "POST", p, {403}, token=toks[1], body={"token": toks[1]})
        generic(r, op, p, F["carol_tok"], lambda: {"token": toks[1]})
    elif name in ("listPlayersChat", "listSpectatorsChat"):
        players = name == "listPlayersChat"
        p = "/v1/games/%s/chat/%s" % (F["aa"], "players" if players else "spectators")
        seat, other = F["aa_tok"][0], F["carol_tok"]
        r.send("good", "GET", p, {200}, token=seat if players else other)
        r.send("not this caller's channel", "GET", p, {403}, token=other if players else seat)
        r.send("a page", "GET", p + "?after=0&limit=1", {200}, token=seat if players else None)
        r.send("a finished game's", "GET", p.replace(F["aa"], F["done"]), {200})
        generic(r, op, p, seat if players else other, None)
    elif name in ("postPlayersChat", "postSpectatorsChat"):
        players = name == "postPlayersChat"
        p = "/v1/games/%s/chat/%s" % (F["aa"], "players" if players else "spectators")
        seat, other = F["aa_tok"][0], F["carol_tok"]
        r.send("good", "POST", p, {201}, token=seat if players else other, body={"text": "hi"})
        r.send("not this caller's channel", "POST", p, {403}, token=other if players else seat,
               body={"text": "hi"})
        r.send("501 code points", "POST", p, {400}, token=seat if players else other,
               body={"text": "x" * 501})
        r.send("a line break", "POST", p, {400}, token=seat if players else other,
               body={"text": "a\nb"})
        generic(r, op, p, seat if players else other, lambda: {"text": "hello"})
    elif name == "getPlayerProfile":
        p = "/v1/players/" + F["alice"]
        x = r.send("good", "GET", p, {200})
        r.send("a page of one", "GET", p + "?limit=1", {200})
        if x is not None and x.status == 200:
            r.send("not modified", "GET", p, {304}, headers={"If-None-Match": x.headers["etag"]})
        r.send("a bad cursor", "GET", p + "?cursor=abc", {400})
        r.send("unknown", "GET", "/v1/players/0123456789abcdef", {404})
        generic(r, op, p, None, None)
    elif name == "getRatingHistory":
        p = "/v1/players/%s/rating-history" % F["alice"]
        x = r.send("good", "GET", p, {200})
        r.send("one category", "GET", p + "?category=agent-avenue-base&after=0&limit=5", {200})
        if x is not None and x.status == 200:
            r.send("not modified", "GET", p, {304}, headers={"If-None-Match": x.headers["etag"]})
        r.send("an unknown category", "GET", p + "?category=chess", {404})
        r.send("a bad limit", "GET", p + "?limit=0", {400})
        r.send("unknown", "GET", "/v1/players/0123456789abcdef/rating-history", {404})
        generic(r, op, p, None, None)
    elif name == "getLeaderboard":
        p = "/v1/leaderboards/agent-avenue-base"
        x = r.send("good", "GET", p, {200})
        if x is not None and x.status == 200:
            r.send("not modified", "GET", p, {304}, headers={"If-None-Match": x.headers["etag"]})
        r.send("a team board", "GET", "/v1/leaderboards/agent-avenue-team?limit=100", {200})
        r.send("an unknown category", "GET", "/v1/leaderboards/chess", {404})
        r.send("a bad limit", "GET", p + "?limit=101", {400})
        r.send("an after not on the board", "GET", p + "?after=nobody", {400})
        generic(r, op, p, None, None)
    elif name == "listBlocks":
        p = "/v1/players/me/blocks"
        r.send("good", "GET", p, {200}, token=F["carol_tok"])
        r.send("a seat token", "GET", p, {403}, token=F["aa_tok"][0])
        generic(r, op, p, F["carol_tok"], None)
    elif name == "blockPlayer":
        p = "/v1/players/me/blocks/"
        r.send("good", "PUT", p + F["bob"], {204}, token=F["carol_tok"])
        r.send("again", "PUT", p + F["bob"], {204}, token=F["carol_tok"])
        r.send("oneself", "PUT", p + F["carol"], {400}, token=F["carol_tok"])
        r.send("unknown", "PUT", p + "0123456789abcdef", {404}, token=F["carol_tok"])
        generic(r, op, p + F["bob"], F["carol_tok"], None)
    elif name == "unblockPlayer":
        p = "/v1/players/me/blocks/"
        post(r, "/v1/players", {"name": "Dave"})
        r.s.request("PUT", p + F["alice"], token=F["carol_tok"])
        r.send("good", "DELETE", p + F["alice"], {204}, token=F["carol_tok"])
        r.send("again", "DELETE", p + F["alice"], {404}, token=F["carol_tok"])
        generic(r, op, p + F["alice"], F["carol_tok"], None)
    elif name == "createReport":
        p = "/v1/reports"
        r.send("a player", "POST", p, {201}, token=F["carol_tok"],
               body={"player": F["bob"], "reason": "spam"})
        r.send("both", "POST", p, {400}, token=F["carol_tok"],
               body={"player": F["bob"], "game": F["aa"], "channel": "players", "n": 1,
                     "reason": "x"})
        r.send("a channel not read", "POST", p, {403}, token=F["carol_tok"],
               body={"game": F["aa"], "channel": "players", "n": 1, "reason": "x"})
        generic(r, op, p, F["carol_tok"], lambda: {"player": F["bob"], "reason": "spam"})
    elif name == "listReports":
        p = "/v1/reports"
        r.send("good", "GET", p, {200})
        r.send("a page", "GET", p + "?after=0&limit=1", {200})
        generic(r, op, p, None, None)
    elif name == "createSeek":
        (_, fay_tok), (_, gus_tok) = player(r, "Fay"), player(r, "Gus")
        p = "/v1/seeks"
        body = {"game": "quantum", "seats": 2, "rating_range": [-200, 300]}
        r.send("good", "POST", p, {201}, token=fay_tok, body=body)
        r.send("the same again", "POST", p, {409}, token=fay_tok, body=body)
        r.send("paired", "POST", p, {201}, token=gus_tok, body=body)
        r.send("impossible range", "POST", p, {400}, token=gus_tok,
               body={"game": AA, "rating_range": [300, -200]})
        r.send("unknown options", "POST", p, {422}, token=gus_tok,
               body={"game": AA, "options": {"colour": "red"}})
        r.send("a seat token", "POST", p, {403}, token=F["aa_tok"][0], body={"game": AA})
        (_, hal_tok) = player(r, "Hal")
        generic(r, op, p, hal_tok, lambda: {"game": AA, "seats": 3, "expires_in": 60})
    elif name in ("listSeeks", "getSeek", "cancelSeek"):
        (_, ida_tok), (_, jon_tok) = player(r, "Ida"), player(r, "Jon")
        k = post(r, "/v1/seeks", {"game": AA, "seats": 4, "expires_in": 60}, token=ida_tok)
        p = "/v1/seeks/" + k["id"]
        if name == "listSeeks":
            r.send("good", "GET", "/v1/seeks", {200})
            r.send("a page", "GET", "/v1/seeks?limit=1&game=" + AA, {200})
            r.send("after", "GET", "/v1/seeks?after=" + k["id"], {200})
            r.send("after no seek", "GET", "/v1/seeks?after=0123456789abcdef", {400})
            r.send("unknown game", "GET", "/v1/seeks?game=chess", {422})
            generic(r, op, "/v1/seeks", None, None)
        elif name == "getSeek":
            r.send("good", "GET", p, {200})
            r.send("unknown", "GET", "/v1/seeks/0123456789abcdef", {404})
            generic(r, op, p, None, None)
        else:
            r.send("another's", "DELETE", p, {403}, token=jon_tok)
            r.send("unknown", "DELETE", "/v1/seeks/0123456789abcdef", {404}, token=ida_tok)
            generic(r, op, p, ida_tok, None)
            r.send("good", "DELETE", p, {204}, token=ida_tok)
            r.send("again", "DELETE", p, {404}, token=ida_tok)
    else:
        raise Failure("no requests written for operation %s: add them here" % name)
    # streams stay open; a random DELETE /v1/players/me with a fixture's
    # token would delete the player every later case uses (its own cases
    # above use throwaway players)
    if name not in ("streamEvents", "streamAccountEvents", "deleteMe"):
        random_requests(r, op, op[0].replace("{file}", "app.js").replace("{game}", "quantum"), RANDOM,
                        random.Random("%s %d" % (name, SEED)))
    # (An event stream of a game still running stays open: the finished one.)
    wrong_methods(r, op, op[0].replace("{id}", F["done"] if name == "streamEvents" else F["aa"])
                  .replace("{file}", "app.js").replace("{game}", "quantum"))


def op_test(op):
    def fn(binary):
        r = runner(binary)
        cases(r, op)
        bad = r.problems[op]
        check(not bad, "%d problem(s):\n       %s" % (len(bad), "\n       ".join(bad[:20])))
    fn.__name__ = "%s_%s" % (op[1], re.sub(r"[^a-z]+", "_", op[0]).strip("_"))
    return fn


for _op in OPS:
    test(op_test(_op))


@test
def the_fast_schema_validator_judges_as_the_reference(binary):
    """harness.py checks answers with fastjsonschema over the spec
    rewritten to draft 7 (draft7_of); here both it and python3-jsonschema
    (2020-12, the reference) judge hand-made instances of the schemas that
    rewrite touches (prefixItems, a $ref with siblings) and a few others,
    and must give the expected verdict."""
    del binary
    sch = SPEC["components"]["schemas"]
    square, seek = sch["Square"], sch["CreateSeek"]
    cases = [
        (square, [6, 7], True), (square, [0, 0], True), (square, [6, 7, 8], False),
        (square, [6], False), (square, ["6", 7], False), (square, [-1, 7], False),
        (square, {"row": 6}, False),
        (seek, {"game": AA, "rating_range": [-200, 300]}, True),
        (seek, {"game": AA, "rating_range": [-200, 300, 5]}, False),
        (seek, {"game": AA, "rating_range": [-200]}, False),
        (seek, {"game": AA, "rating_range": [-200, 100001]}, False),
        (sch["Problem"], {"type": "about:blank", "title": "x", "status": 400, "detail": "d",
                          "request_id": "r"}, None),
        (sch["Problem"], {"title": 5}, False),
        # a schema with a `default`: judged, never filled in
        (sch["BotSpec"], {"bot": "random"}, True), (sch["BotSpec"], {"bot": "mcts", "level": 9}, False),
    ]
    saved = harness.SCHEMA_CROSSCHECK
    harness.SCHEMA_CROSSCHECK = True  # a disagreement fails the check
    try:
        for schema, instance, want in cases:
            before = json.dumps(instance, sort_keys=True)
            try:
                _validate(instance, schema)
                got = True
            except Failure as e:
                check("disagree" not in str(e), str(e))
                got = False
            check(want is None or got == want, "%r judged %s, expected %s" % (instance, got, want))
            check(json.dumps(instance, sort_keys=True) == before, "the instance changed: %r" % instance)
    finally:
        harness.SCHEMA_CROSSCHECK = saved


@test
def unknown_paths_are_404(binary):
    r = runner(binary)
    for p in ("/v1", "/v1/", "/v1/catalog/", "//v1/catalog", "/V1/CATALOG", "/v1/games/",
              "/v1/games/%s/" % F["aa"], "/v1/games/%s/nothing" % F["aa"], "/v1/games//moves",
              "/v1/players/me/games/x", "/v1/players/you", "/openapi.json", "/%ff"):
        r.send("unknown path", "GET", p, {404})
        r.send("unknown path", "POST", p, {404, 405}, body={})
    check(not r.other, "%d problem(s):\n       %s" % (len(r.other), "\n       ".join(r.other[:20])))


@test
def every_operation_answered_2xx_and_only_documented_statuses(binary):
    r = runner(binary)
    lines, missing = [], []
    for op in OPS:
        seen = sorted(r.seen[op])
        doc = sorted(int(s) for s in operation(op)["responses"])
        never = [s for s in doc if s not in seen]
        lines.append("%-6s %-28s answered %s%s" % (op[1].upper(), op[0], seen,
                                                  "; documented, never seen: %s" % never if never else ""))
        if not any(200 <= s < 300 for s in seen):
            missing.append("%s %s" % (op[1].upper(), op[0]))
    print("\n".join("     " + x for x in lines))
    print("     %d operations, %d requests checked" % (len(OPS), r.requests))
    check(not missing, "never answered 2xx: %s" % missing)
    undocumented = [(op, s) for op in OPS for s in r.seen[op] if str(s) not in operation(op)["responses"]]
    check(not undocumented, "undocumented statuses: %s" % undocumented)


@test
def server_stops_cleanly(binary):
    r = runner(binary)
    try:
        r.s.stop()
    finally:
        r.s.cleanup()


if __name__ == "__main__":
    # Every answer here is checked by both schema validators, which must
    # agree (harness.py, SCHEMA_CROSSCHECK): the other suites use the
    # fast one alone.
    harness.SCHEMA_CROSSCHECK = True
    run_all("contract")
