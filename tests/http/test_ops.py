"""test_ops.py: what an operator runs boardd with (issue 15, Operations):
GET /metrics, GET /readyz and --log-format json.

/metrics must be valid Prometheus text (format 0.0.4), read here by a
small strict parser written for this suite: every sample belongs to a
family declared once by # TYPE, families are contiguous, names and
labels are well-formed, no sample is repeated; and read again by the
official Python client's parser (Debian's python3-prometheus-client),
which must find the same samples.
Request counters must grow by exactly the requests made, by route
template, method and status; every histogram's buckets must be
cumulative, end in +Inf, and agree with its _count (and the requests
counted); no label may hold a game id, a token or any path a client sent.
Who may read it: loopback clients by default (a client a trusted proxy
names from elsewhere gets 403), everyone with --metrics any, nobody (404)
with --metrics off.  /readyz answers 200 while the store answers and 503
once its database file is gone.  With --log-format json every line of
the server's stderr is one JSON object, and access lines carry the
documented fields; the default text format keeps its shape.  Part of
tests/run.sh (make test)."""
import json
import math
import os
import re
import shutil
import socket
import subprocess
import signal
import tempfile
import threading
import time

from prometheus_client.parser import text_string_to_metric_families

from gamehelp import AA, actions, create, game, move, read_stream, server
from harness import POSTGRES, SLOW, SPEC, check, note, raw_exchange, run_all, test
from webhookhelp import Receiver, free_port, hook, new_player, two_player_game

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Route labels may only be the spec's path templates, or "unmatched".
TEMPLATES = set(SPEC["paths"]) | {"unmatched"}


class Bad(Exception):
    pass


def parse_value(text):
    if text in ("+Inf", "-Inf", "NaN"):
        return float(text.replace("Inf", "inf").replace("NaN", "nan"))
    if not re.match(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$", text):
        raise Bad("not a sample value: %r" % text)
    return float(text)


def parse_labels(text):
    """{name: value} from the inside of {...}; strict: no trailing comma
    of another shape, no repeated name."""
    out, pos = {}, 0
    while pos < len(text):
        m = LABEL.match(text, pos)
        if not m:
            raise Bad("bad labels at %r" % text[pos:])
        if m.group(1) in out:
            raise Bad("label %s twice" % m.group(1))
        out[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\n", "\n") \
            .replace("\\\\", "\\")
        pos = m.end()
        if m.group(3) == "," and pos == len(text):
            raise Bad("trailing comma in labels")
    return out


def family_of(name, types):
    """The declared family a sample name belongs to."""
    if name in types:
        return name
    for suffix in ("_bucket", "_sum", "_count"):
        base = name[:-len(suffix)] if name.endswith(suffix) else None
        if base and types.get(base) == "histogram":
            return base
    raise Bad("sample %s has no # TYPE" % name)


def parse_metrics(text):
    """Parses Prometheus text format 0.0.4 strictly.  Returns (types,
    samples): types {family: type}, samples [(name, labels dict, value)]."""
    if not text.endswith("\n"):
        raise Bad("the exposition does not end with a newline")
    types, helps, samples, seen, done = {}, set(), [], set(), set()
    current = None
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP "):
            name = line.split(" ", 3)[2]
            if not NAME.match(name) or name in helps:
                raise Bad("HELP line: %r" % line)
            helps.add(name)
            continue
        if line.startswith("# TYPE "):
            parts = line.split(" ")
            if len(parts) != 4 or not NAME.match(parts[2]) or parts[3] not in TYPES:
                raise Bad("TYPE line: %r" % line)
            if parts[2] in types:
                raise Bad("TYPE %s twice" % parts[2])
            types[parts[2]] = parts[3]
            continue
        if line.startswith("#") or not line:
            raise Bad("stray line: %r" % line)
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$", line)
        if not m:
            raise Bad("not a sample: %r" % line)
        name, labels, value = m.group(1), parse_labels(m.group(3) or ""), parse_value(m.group(4))
        fam = family_of(name, types)
        if fam != current:
            if fam in done:
                raise Bad("family %s is not contiguous" % fam)
            if current:
                done.add(current)
            current = fam
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            raise Bad("sample twice: %r" % line)
        seen.add(key)
        samples.append((name, labels, value))
    for fam in types:
        if fam not in helps:
            raise Bad("%s has no HELP" % fam)
    return types, samples


def scrape(s, headers=None):
    r = s.request("GET", "/metrics", headers=headers)
    check(r.status == 200, "/metrics: %r" % r)
    check(r.headers.get("content-type") == CONTENT_TYPE,
          "content type %r" % r.headers.get("content-type"))
    text = r.raw.decode("utf-8")
    try:
        types, samples = parse_metrics(text)
    except Bad as e:
        raise AssertionError("invalid exposition: %s" % e)
    official(text, types, samples)
    return types, samples


def official(text, types, samples):
    """The Prometheus client library's own parser reads the same
    families and samples (NaN equal to NaN)."""
    theirs = {}
    for fam in text_string_to_metric_families(text):
        for smp in fam.samples:
            theirs[(smp.name, tuple(sorted(smp.labels.items())))] = smp.value
    ours = {(n, tuple(sorted(l.items()))): v for n, l, v in samples}
    check(theirs.keys() == ours.keys(),
          "the official parser's samples differ: %r" % (theirs.keys() ^ ours.keys()))
    for k, v in ours.items():
        check(v == theirs[k] or (math.isnan(v) and math.isnan(theirs[k])),
              "%r: %r against the official parser's %r" % (k, v, theirs[k]))


def requests_by(samples):
    """{(route, method, status): count} of boardd_http_requests_total."""
    return {(l["route"], l["method"], l["status"]): v for n, l, v in samples
            if n == "boardd_http_requests_total"}


def value(samples, name):
    found = [v for n, l, v in samples if n == name and not l]
    check(len(found) == 1, "one %s: %r" % (name, found))
    return found[0]


def grown(before, after):
    """The request counters that changed, by how much; /metrics left out
    (each scrape counts itself)."""
    out = {}
    for k, v in after.items():
        if k[0] != "/metrics" and v != before.get(k, 0):
            out[k] = v - before.get(k, 0)
    return out


def settled(s, want, before):
    """Scrapes until the counters have grown by `want` (a request is
    counted when its completion runs, just after its answer is sent) and
    returns that scrape; the check is then exact."""
    end = time.monotonic() + 5
    while True:
        types, samples = scrape(s)
        diff = grown(before, requests_by(samples))
        if diff == want or time.monotonic() > end:
            check(diff == want, "counters grew by %r, want %r" % (diff, want))
            return types, samples


def counted(s, made):
    """Scrapes until every request already answered is counted (`made`:
    {(route, method, status): at least}; the harness's own GET /healthz
    at start is always one) and returns that scrape's counters: a
    baseline taken before a request's completion has run would count it
    later, as if made during the test (seen under load, 2026-12-03)."""
    made = dict(made)
    made[("/healthz", "GET", "200")] = max(made.get(("/healthz", "GET", "200"), 0), 1)
    end = time.monotonic() + 5
    while True:
        got = requests_by(scrape(s)[1])
        missing = {k: v for k, v in made.items() if got.get(k, 0) < v}
        if not missing:
            return got
        check(time.monotonic() < end, "requests never counted: %r" % missing)


# ---- the exposition ----

@test
def counters_grow_by_exactly_the_requests_made(binary):
    """Each request counts once under its route template, method and
    status: a 405 under its path's route, an unknown path as unmatched."""
    with server(binary) as s:
        before = counted(s, {})
        gids = [create(s)[0] for _ in range(3)]
        for gid in gids[:2]:
            game(s, gid)
        check(s.request("GET", "/v1/games/0123456789abcdef").status == 404, "unknown game")
        check(s.request("DELETE", "/healthz").status == 405, "405")
        check(s.request("GET", "/no/such/path").status == 404, "unknown path")
        check(s.request("HEAD", "/v1/catalog").status == 200, "HEAD")
        want = {("/v1/games", "POST", "201"): 3,
                ("/v1/games/{id}", "GET", "200"): 2,
                ("/v1/games/{id}", "GET", "404"): 1,
                ("/healthz", "DELETE", "405"): 1,
                ("unmatched", "GET", "404"): 1,
                ("/v1/catalog", "HEAD", "200"): 1}
        _, samples = settled(s, want, before)
        # and the scrapes themselves: at least the first, counted by now
        check(requests_by(samples).get(("/metrics", "GET", "200"), 0) >= 1,
              "the scrapes are counted too")


@test
def histograms_are_cumulative_and_agree_with_the_counters(binary):
    with server(binary) as s:
        gid, tokens = create(s)
        for _ in range(5):
            game(s, gid, tokens[0])
        before = counted(s, {("/v1/games", "POST", "201"): 1,
                             ("/v1/games/{id}", "GET", "200"): 5})
        for _ in range(4):
            game(s, gid, tokens[1])
        types, samples = settled(s, {("/v1/games/{id}", "GET", "200"): 4}, before)
        check(types.get("boardd_http_request_duration_seconds") == "histogram",
              "latency histogram declared: %r" % types)
        hist = {}
        for name, labels, v in samples:
            for suffix in ("_bucket", "_sum", "_count"):
                if name.startswith("boardd_") and name.endswith(suffix) and \
                        types.get(name[:-len(suffix)]) == "histogram":
                    rest = {k: x for k, x in labels.items() if k != "le"}
                    h = hist.setdefault((name[:-len(suffix)], tuple(sorted(rest.items()))),
                                        {"buckets": [], "sum": None, "count": None})
                    if suffix == "_bucket":
                        h["buckets"].append((parse_value(labels["le"]), v))
                    else:
                        h[suffix[1:]] = v
        check(hist, "histograms found")
        counts = requests_by(samples)
        for (fam, labels), h in hist.items():
            b = h["buckets"]
            les = [le for le, _ in b]
            check(les == sorted(les) and len(set(les)) == len(les),
                  "%s %r: bounds ascending: %r" % (fam, labels, les))
            check(b and math.isinf(b[-1][0]), "%s %r ends with +Inf" % (fam, labels))
            check(all(x <= y for (_, x), (_, y) in zip(b, b[1:])),
                  "%s %r: cumulative: %r" % (fam, labels, b))
            check(h["count"] == b[-1][1], "%s %r: _count %r == +Inf %r"
                  % (fam, labels, h["count"], b[-1][1]))
            check(h["sum"] is not None and h["sum"] >= 0, "%s %r: _sum" % (fam, labels))
            if fam == "boardd_http_request_duration_seconds":
                d = dict(labels)
                total = sum(v for (r, m, _), v in counts.items()
                            if r == d["route"] and m == d["method"])
                if d["route"] != "/metrics":  # the scrape in progress
                    check(h["count"] == total, "%r: histogram %r, counters %r"
                          % (d, h["count"], total))
        key = ("boardd_http_request_duration_seconds",
               (("method", "GET"), ("route", "/v1/games/{id}")))
        check(key in hist and hist[key]["count"] == 9, "9 reads of the game: %r"
              % hist.get(key))


@test
def no_raw_ids_or_tokens_in_labels(binary):
    with server(binary) as s:
        secrets = []
        for _ in range(3):
            gid, tokens = create(s)
            secrets += [gid] + tokens
            game(s, gid, tokens[0])
            s.request("GET", "/v1/games/%s/actions" % gid, token=tokens[0])
            s.request("GET", "/v1/games/%s/nope" % gid)
        s.request("GET", "/" + "x" * 300)
        r = s.request("GET", "/metrics")
        text = r.raw.decode()
        for sec in secrets:
            check(sec not in text, "%s appears in /metrics" % sec)
        _, samples = parse_metrics(text)
        for name, labels, _ in samples:
            if "route" in labels:
                check(labels["route"] in TEMPLATES, "route label %r" % labels["route"])
            if "method" in labels:
                check(labels["method"] in ("GET", "HEAD", "POST", "PUT", "DELETE",
                                           "OPTIONS", "other"), "method %r" % labels)


@test
def odd_methods_share_one_label(binary):
    """A client cannot add label values: an unknown method counts as other."""
    with server(binary) as s:
        before = counted(s, {})
        for m in ("BREW", "PROPFIND"):
            s.request(m, "/healthz", validate=False)
        # counted once each completion has run (settled waits for it)
        _, samples = settled(s, {("/healthz", "other", "405"): 2}, before)
        got = requests_by(samples)
        check(not any(m in ("BREW", "PROPFIND") for _, m, _ in got), "methods %r" % got)


@test
def gauges_and_counters_of_the_service(binary):
    """Games in memory, moves committed (exactly), group commit, open
    streams while a stream is open, the queues."""
    with server(binary) as s:
        _, base = scrape(s)
        gid, tokens = create(s)
        moved = 0
        for _ in range(3):
            g = game(s, gid, tokens[0])
            seat = g["to_act"][0]
            r = move(s, gid, tokens[seat], actions(s, gid, tokens[seat])[0])
            check(r.status == 201, "move: %r" % r)
            moved += 1
        _, samples = scrape(s)
        check(value(samples, "boardd_moves_committed_total")
              - value(base, "boardd_moves_committed_total") == moved, "moves committed")
        check(value(samples, "boardd_games_cached") >= 1, "the game is in memory")
        check(value(samples, "boardd_games_cached") <= value(samples, "boardd_games_cache_capacity"),
              "within the capacity")
        writes = value(samples, "boardd_store_writes_total") - value(base, "boardd_store_writes_total")
        check(writes >= 1 + moved, "writes: %r" % writes)
        check(value(samples, "boardd_store_commits_total") <= value(samples, "boardd_store_batches_total"),
              "commits <= batches")
        check(value(samples, "boardd_store_batch_largest") >= 1, "a batch held a write")
        for g in ("boardd_bot_queue_depth", "boardd_webhook_queue_depth",
                  "boardd_store_write_queue"):
            check(value(samples, g) >= 0, g)
        check(value(samples, "boardd_open_streams") == 0, "no stream open")
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        try:
            sock.sendall(("GET /v1/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % gid).encode())
            sock.recv(1)  # its headers are on their way: it is open
            end = time.monotonic() + 5
            while value(scrape(s)[1], "boardd_open_streams") != 1:
                check(time.monotonic() < end, "the open stream is counted")
                time.sleep(0.05)
        finally:
            sock.close()
        end = time.monotonic() + 5
        while value(scrape(s)[1], "boardd_open_streams") != 0:
            check(time.monotonic() < end, "the closed stream is no longer counted")
            time.sleep(0.1)


@test
def process_connections_and_store_gauges(binary):
    """The standard process_* family (against /proc and the clock), the
    connections against --max-conns, the database's size, and (SQLite)
    its WAL or (PostgreSQL) the listening connection's state."""
    with server(binary, extra=["--max-conns", "300"]) as s:
        t0 = time.time()
        types, samples = scrape(s)
        for name, kind in (("process_cpu_seconds_total", "counter"),
                           ("process_resident_memory_bytes", "gauge"),
                           ("process_virtual_memory_bytes", "gauge"),
                           ("process_open_fds", "gauge"),
                           ("process_max_fds", "gauge"),
                           ("process_start_time_seconds", "gauge"),
                           ("boardd_http_connections", "gauge"),
                           ("boardd_http_connections_max", "gauge"),
                           ("boardd_store_database_bytes", "gauge")):
            check(types.get(name) == kind, "%s: %r" % (name, types.get(name)))
        with open("/proc/%d/status" % s.proc.pid) as f:
            rss_kb = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))
        rss = value(samples, "process_resident_memory_bytes")
        check(0.5 < rss / (rss_kb * 1024) < 2, "RSS %r, /proc says %d kB" % (rss, rss_kb))
        fds = len(os.listdir("/proc/%d/fd" % s.proc.pid))
        check(abs(value(samples, "process_open_fds") - fds) <= 8,
              "open fds %r, /proc lists %d" % (value(samples, "process_open_fds"), fds))
        check(value(samples, "process_max_fds") >= value(samples, "process_open_fds"), "max fds")
        start = value(samples, "process_start_time_seconds")
        check(t0 - 120 < start <= t0 + 1, "start time %r, now %r" % (start, t0))
        cpu = value(samples, "process_cpu_seconds_total")
        check(cpu > 0, "cpu %r" % cpu)
        check(value(samples, "boardd_http_connections_max") == 300, "max conns")
        check(value(samples, "boardd_http_connections") >= 1, "this scrape's connection")
        held = [socket.create_connection(("127.0.0.1", s.port), timeout=10) for _ in range(5)]
        try:
            end = time.monotonic() + 20
            while value(scrape(s)[1], "boardd_http_connections") < 6:
                check(time.monotonic() < end, "five more connections counted")
                time.sleep(0.05)
        finally:
            for c in held:
                c.close()
        end = time.monotonic() + 20
        while value(scrape(s)[1], "boardd_http_connections") >= 6:
            check(time.monotonic() < end, "closed connections no longer counted")
            time.sleep(0.05)
        check(value(scrape(s)[1], "process_cpu_seconds_total") >= cpu, "CPU only grows")
        size = value(samples, "boardd_store_database_bytes")
        check(size > 0, "database size %r" % size)
        if POSTGRES:
            check("boardd_store_wal_bytes" not in types, "no WAL of its own")
            end = time.monotonic() + 20
            while value(scrape(s)[1], "boardd_store_listening") != 1:
                check(time.monotonic() < end, "listening")
                time.sleep(0.05)
        else:
            check("boardd_store_listening" not in types, "no listener on SQLite")
            wal = s.db + "-wal"
            got = value(samples, "boardd_store_wal_bytes")
            check(got >= 0 and (os.path.exists(wal) or got == 0), "WAL %r" % got)
            with open(s.db, "rb") as f:
                f.seek(16)
                page = int.from_bytes(f.read(2), "big")  # the file's header
            check(size % (65536 if page == 1 else page) == 0, "whole pages: %r" % size)


@test
def webhook_attempts_are_counted_by_outcome(binary):
    """boardd_webhook_attempts_total grows by one per attempt with its
    outcome: a receiver answering 500 then 200 (retried, delivered), one
    answering 410 (gone)."""

    def fail(path, msg_id, attempt):
        if path == "/gone":
            return 410
        return 500 if attempt == 1 else 200
    rec = Receiver(fail=fail)
    try:
        with server(binary, extra=["--webhook-allow-private", "--webhook-retry-ms", "50"]) as s:
            def outcomes():
                return {l["outcome"]: v for n, l, v in scrape(s)[1]
                        if n == "boardd_webhook_attempts_total"}
            check(outcomes() == {"delivered": 0, "retried": 0, "failed": 0, "gone": 0},
                  "none yet: %r" % outcomes())
            a_id, at = new_player(s, "alice")
            b_id, bt = new_player(s, "bob")
            rec.secrets["/ok"] = hook(s, at, rec.url("/ok"))["secret"]
            two_player_game(s, at, b_id, bt)
            end = time.monotonic() + 30
            while not rec.delivered("/ok"):
                check(time.monotonic() < end, "alice's events delivered")
                time.sleep(0.05)
            sent = lambda: sum(1 for r in rec.requests if r[0] == "/ok")
            end = time.monotonic() + 30
            while True:
                got = outcomes()
                ok = [r for r in rec.requests if r[0] == "/ok" and r[3] == 200]
                bad = [r for r in rec.requests if r[0] == "/ok" and r[3] == 500]
                if got["delivered"] == len(ok) and got["retried"] == len(bad) and \
                        len(ok) == len(bad):
                    break
                check(time.monotonic() < end, "counted: %r, %d ok, %d 500" % (got, len(ok), len(bad)))
                time.sleep(0.05)
            check(got["failed"] == 0 and got["gone"] == 0, "nothing failed or gone: %r" % got)
            check(sent() >= 2, "attempts %d" % sent())
            rec.secrets["/gone"] = hook(s, bt, rec.url("/gone"))["secret"]
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                 "seating": ["me", {"invite": b_id}]}, token=at)
            check(r.status == 201, "invite bob: %r" % r)
            end = time.monotonic() + 30
            while outcomes()["gone"] != 1:
                check(time.monotonic() < end, "the 410 counted: %r" % outcomes())
                time.sleep(0.05)
    finally:
        rec.close()


@test
def a_game_read_after_a_restart_stays_in_memory(binary):
    """A game not moved since the server started is kept in the state
    cache by its first read (load.c's load_state): it was rebuilt from
    the log on every read until then."""
    with server(binary) as s:
        gid, tokens = create(s)
        s.stop()
        s.start()
        check(value(scrape(s)[1], "boardd_games_cached") == 0, "nothing in memory after a restart")
        for _ in range(3):
            game(s, gid, tokens[0])
        check(value(scrape(s)[1], "boardd_games_cached") == 1, "the game read is in memory")


@test
def deadline_lag_counts_each_timeout(binary):
    """A timed game whose seat lets its clock run out: one timeout
    applied, one observation of how late."""
    with server(binary, extra=["--clock-min-seconds", "1"]) as s:
        _, base = scrape(s)
        gid, tokens = create(s, clock={"move_seconds": 1}, on_timeout="forfeit")
        end = time.monotonic() + 15
        while game(s, gid)["status"] != "finished":
            check(time.monotonic() < end, "the timeout came")
            time.sleep(0.2)
        _, samples = scrape(s)
        n = value(samples, "boardd_deadline_lag_seconds_count") - \
            value(base, "boardd_deadline_lag_seconds_count")
        check(n == 1, "one timeout observed: %r" % n)
        lag = value(samples, "boardd_deadline_lag_seconds_sum")
        check(0 <= lag < 10, "lag %r s" % lag)


# ---- who may read /metrics ----

@test
def metrics_refused_to_clients_not_on_loopback(binary):
    """Behind a trusted proxy the client is the one the proxy names: a
    remote one gets 403 problem+json (and no metric), a local one the
    metrics; --metrics any answers both; --metrics off answers 404."""
    proxy = ["--trusted-proxy", "127.0.0.1"]
    with server(binary, extra=proxy) as s:
        r = s.request("GET", "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        check(r.status == 403 and r.json["type"] == "urn:boardd:problem:forbidden", "403: %r" % r)
        check(b"boardd_" not in r.raw, "no metric in the refusal")
        r = s.request("GET", "/metrics", headers={"X-Forwarded-For": "2001:db8::7"})
        check(r.status == 403, "IPv6 remote: %r" % r)
        scrape(s, headers={"X-Forwarded-For": "127.0.0.1"})
        scrape(s)
    with server(binary, extra=proxy + ["--metrics", "any"]) as s:
        scrape(s, headers={"X-Forwarded-For": "203.0.113.9"})
    with server(binary, extra=["--metrics", "off"]) as s:
        r = s.request("GET", "/metrics")
        check(r.status == 404 and r.json["type"] == "urn:boardd:problem:not-found", "off: %r" % r)


@test
def bad_flag_values_are_refused(binary):
    for flag in (["--metrics", "public"], ["--log-format", "xml"], ["--log-level", "warn"],
                 ["--log-level", "INFO"], ["--drain-seconds", "-1"],
                 ["--drain-seconds", "3601"], ["--drain-seconds", "x"]):
        try:
            with server(binary, extra=flag):
                pass
        except RuntimeError:
            continue
        raise AssertionError("%r was accepted" % flag)


# ---- version and migrations ----

VERSION_LINE = re.compile(r"boardd (\d+\.\d+\.\d+\S*) \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$")


@test
def version_is_printed_and_scraped(binary):
    """--version prints the release and the commit built, and exits 0
    without opening a database; /metrics has boardd_build_info with the
    same two, always 1."""
    d = tempfile.mkdtemp(prefix="boardd-ops-")
    try:
        p = subprocess.run([binary, "--version", "--db", os.path.join(d, "t.db")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        check(not os.listdir(d), "no database made: %r" % os.listdir(d))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    out = p.stdout.decode().strip()
    m = VERSION_LINE.match(out)
    check(p.returncode == 0 and m, "--version: %d %r %r" % (p.returncode, out, p.stderr))
    with server(binary) as s:
        types, samples = scrape(s)
        check(types.get("boardd_build_info") == "gauge", "type: %r" % types.get("boardd_build_info"))
        info = [(l, v) for n, l, v in samples if n == "boardd_build_info"]
        check(info == [({"version": m.group(1), "commit": m.group(2)}, 1.0)],
              "build info %r, --version %r" % (info, out))


def migration_files():
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sql")
    if POSTGRES:
        d = os.path.join(d, "postgres")
    return sorted(f for f in os.listdir(d) if re.match(r"\d{4}_.*\.sql$", f))


@test
def each_applied_migration_is_logged_with_its_time(binary):
    """A new database: one line per migration, in order, with its number,
    its file and the time it took; a restart on it applies none."""
    files = migration_files()
    line = re.compile(r"store: migration (\d+) \((\S+)\) applied in (\d+\.\d) ms$")
    with server(binary, fresh=True) as s:
        s.stop()
        got = [line.match(l) for l in log_lines(s)]
        got = [(int(m.group(1)), m.group(2), float(m.group(3))) for m in got if m]
        check([(n, f) for n, f, _ in got] == [(i + 1, f) for i, f in enumerate(files)],
              "migrations logged %r, files %r" % ([(n, f) for n, f, _ in got], files))
        check(all(ms >= 0 for _, _, ms in got), "times: %r" % got)
        before = len(log_lines(s))
        s.start()
        s.stop()
        again = [l for l in log_lines(s)[before:] if "migration" in l]
        check(again == [], "a restart applied: %r" % again)


# ---- /readyz ----

@test
def readyz_answers_while_the_store_answers(binary):
    with server(binary) as s:
        r = s.request("GET", "/readyz")
        check(r.status == 200 and r.json == {"status": "ready"}, "ready: %r" % r)
        check(s.request("HEAD", "/readyz").status == 200, "HEAD")
        s.break_store()
        r = s.request("GET", "/readyz")
        check(r.status == 503 and r.json["type"] == "urn:boardd:problem:unavailable",
              "not ready: %r" % r)
        check(r.headers.get("retry-after", "").isdigit(), "Retry-After: %r" % r.headers)
        check(s.request("GET", "/v1/catalog").status == 200, "the process still serves")


# ---- signals: the drain, SIGHUP ----

def first_move(s, gid, tokens):
    """Plays the first listed action of a seat that is to act; its 201."""
    for tok in tokens:
        a = actions(s, gid, tok)
        if a:
            r = move(s, gid, tok, a[0])
            check(r.status == 201, "move: %r" % r)
            return r
    raise AssertionError("no seat is to act")


def wait_until(what, cond, seconds=20):
    """Polls cond() (a bound for something that must happen, not a
    latency) and returns its first true value."""
    end = time.monotonic() + seconds * SLOW
    while True:
        v = cond()
        if v:
            return v
        check(time.monotonic() < end, "%s: not within %d s" % (what, seconds * SLOW))
        time.sleep(0.05)


@test
def sigterm_drains_then_exits_zero(binary):
    """SIGTERM with --drain-seconds 3: /readyz answers 503 at once (with
    Connection: close), while requests are served, a move is made and an
    open event stream receives it; the stream ends only after the drain,
    with an SSE retry: hint as its last block; the process exits 0 and
    says it drains, shuts down and stopped, in that order."""
    drain = 3
    with server(binary, quiet=False, extra=["--drain-seconds", str(drain)]) as s:
        gid, tokens = create(s)
        got = {}

        def stream():
            got["stream"] = read_stream(s.port, "/v1/games/%s/events" % gid, tokens[0], {},
                                        want=1000, timeout=60 * SLOW)
            got["ended"] = time.monotonic()

        t = threading.Thread(target=stream)
        t.start()
        wait_until("the stream is open", lambda: value(scrape(s)[1], "boardd_open_streams") == 1)
        check(s.request("GET", "/readyz").status == 200, "ready before")
        t0 = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)

        def not_ready():
            r = s.request("GET", "/readyz")
            return r if r.status == 503 else None

        r = wait_until("/readyz 503 after SIGTERM", not_ready)
        check(r.json["type"] == "urn:boardd:problem:unavailable" and
              "shutting down" in r.json["detail"], "the 503: %r" % r.json)
        check(r.headers.get("retry-after", "").isdigit(), "Retry-After: %r" % r.headers)
        check(r.headers.get("connection", "").lower() == "close", "close: %r" % r.headers)
        moved = first_move(s, gid, tokens)  # served while draining
        seq = moved.json["seq"]
        check(s.request("GET", "/healthz").status == 200, "alive while draining")
        check(s.request("GET", "/v1/games/%s" % gid, token=tokens[0]).status == 200,
              "reads served while draining")
        t.join(90 * SLOW)
        check("stream" in got, "the stream ended")
        status, ctype, body = got["stream"]
        check(status == 200, "stream: %r" % status)
        text = body.decode()
        check(("id: %d\n" % seq) in text, "the move made while draining reached the stream: %r"
              % text[-400:])
        blocks = [b for b in text.split("\n\n") if b.strip()]
        m = re.match(r"retry: (\d+)$", blocks[-1])
        check(m and 1000 <= int(m.group(1)) <= 2000, "ends with a retry: hint: %r" % blocks[-3:])
        check(got["ended"] - t0 >= drain - 0.5, "the stream lasted the drain: %.2f s"
              % (got["ended"] - t0))
        rc = s.proc.wait(timeout=60 * SLOW)
        check(rc == 0, "exit %r" % rc)
        lines = log_lines(s)
        said = [next((i for i, l in enumerate(lines) if w in l), None) for w in
                ("boardd: SIGTERM: draining for 3 s", "boardd: SIGTERM, shutting down",
                 "boardd: stopped cleanly, exit 0")]
        check(None not in said and said == sorted(said), "the lines, in order: %r" % lines[-8:])
        check(lines[-1] == "boardd: stopped cleanly, exit 0", "the last line: %r" % lines[-1])


@test
def a_second_sigterm_ends_the_drain(binary):
    """The drain is a bound, not a wait the operator must sit out: a
    second SIGTERM during a 600 s drain stops the server, exit 0."""
    with server(binary, quiet=False, extra=["--drain-seconds", "600"]) as s:
        s.proc.send_signal(signal.SIGTERM)
        wait_until("/readyz 503", lambda: s.request("GET", "/readyz").status == 503)
        s.proc.send_signal(signal.SIGTERM)
        rc = s.proc.wait(timeout=60 * SLOW)
        check(rc == 0, "exit %r" % rc)
        check(any("the drain ends early" in l for l in log_lines(s)), "said: %r" % log_lines(s)[-5:])


@test
def sighup_reopens_the_log_file(binary):
    """SIGHUP no longer ends the server: with --log-file it reopens the
    file (as after logrotate's rename) and says so in the new one, and
    later lines go there; without one it says there is nothing to reopen.
    Other settings need a restart, which the line says."""
    with server(binary, quiet=False) as s:
        s.proc.send_signal(signal.SIGHUP)
        wait_until("the SIGHUP line", lambda: any("SIGHUP: no --log-file" in l for l in log_lines(s)))
        check(s.proc.poll() is None and s.request("GET", "/healthz").status == 200, "still serving")
        s.stop()
        logf = os.path.join(s.dir, "boardd.log")
        p = subprocess.Popen([binary, "--addr", "127.0.0.1", "--port", "0", "--log-file", logf]
                             + s.store_args() + s.extra,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            def port():
                if not os.path.exists(logf):
                    return None
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", open(logf).read())
                return int(m.group(1)) if m else None
            s.port = wait_until("the start line in the log file", port)
            wait_until("/healthz", lambda: s.request("GET", "/healthz").status == 200)
            os.rename(logf, logf + ".1")  # logrotate
            s.request("GET", "/v1/catalog", headers={"X-Request-Id": "before-hup"})
            # The access line is written when libmicrohttpd reports the
            # request completed, which may be after the client has the
            # answer: a SIGHUP sent at once could move it to the new file.
            wait_until("the access line in the rotated file", lambda:
                       "GET /v1/catalog 200" in open(logf + ".1").read())
            p.send_signal(signal.SIGHUP)
            wait_until("the new file", lambda: os.path.exists(logf) and
                       "SIGHUP: reopened the log file" in open(logf).read())
            s.request("GET", "/v1/catalog")
            check(p.poll() is None, "still running")
            p.send_signal(signal.SIGTERM)
            check(p.wait(timeout=60 * SLOW) == 0, "exit 0")
            old, new = open(logf + ".1").read(), open(logf).read()
            check("listening on" in old and "GET /v1/catalog 200" in old and
                  "SIGHUP" not in old, "the rotated file: %r" % old[-500:])
            check("restart" in new and "GET /v1/catalog 200" in new and
                  "stopped cleanly, exit 0" in new and "listening on" not in new,
                  "the new file: %r" % new)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()


@test
def drain_seconds_takes_0_to_3600(binary):
    for ok in ("0", "3600"):
        with server(binary, extra=["--drain-seconds", ok]) as s:
            check(s.request("GET", "/readyz").status == 200, "served")
            s.proc.send_signal(signal.SIGTERM)
            if ok != "0":  # a second one ends the drain
                wait_until("/readyz 503", lambda: s.request("GET", "/readyz").status == 503)
                s.proc.send_signal(signal.SIGTERM)
            check(s.proc.wait(timeout=60 * SLOW) == 0, "exit 0")


# ---- request ids ----

MADE_ID = re.compile(r"[0-9a-f]{32}$")


@test
def request_ids_come_from_a_trusted_proxy_or_are_made(binary):
    """X-Request-Id: a trusted proxy's, when 1-64 visible ASCII characters,
    is kept; any other (a direct client's, a malformed one) or none gets a
    random 32-hex id, a new one per request.  Every answer carries it
    (a problem as `request_id` too, a framing refusal answered before any
    routing too), and the access line shows it with the client's
    address."""
    with server(binary, quiet=False) as s:  # no trusted proxy
        r = s.request("GET", "/healthz", headers={"X-Request-Id": "client-chosen"})
        check(MADE_ID.match(r.headers["x-request-id"]), "a direct client's is not taken: %r"
              % r.headers)
    proxy = ["--trusted-proxy", "127.0.0.1"]
    with server(binary, quiet=False, extra=proxy) as s:
        long_id = "x" * 64
        for sent, kept in (("req-42.a", True), ("Root=1-67a/b;c", True), (long_id, True),
                           ("x" * 65, False), ("two words", False), ("", False), (None, False)):
            h = {"X-Forwarded-For": "203.0.113.9"}
            if sent is not None:
                h["X-Request-Id"] = sent
            r = s.request("GET", "/v1/games/nosuchgame", headers=h)
            rid = r.headers.get("x-request-id")
            check(r.status == 404 and r.json["request_id"] == rid, "the problem: %r" % r)
            check(rid == sent if kept else MADE_ID.match(rid), "%r gave %r" % (sent, rid))
        a = s.request("GET", "/v1/catalog").headers["x-request-id"]
        b = s.request("GET", "/v1/catalog").headers["x-request-id"]
        check(a != b and MADE_ID.match(a) and MADE_ID.match(b), "one id per request: %r %r" % (a, b))
        # Refused for its framing (two Content-Lengths), before routing.
        out, _ = raw_exchange(s.port, b"POST /v1/games HTTP/1.1\r\nHost: x\r\n"
                              b"X-Request-Id: framing-1\r\nContent-Length: 1\r\n"
                              b"Content-Length: 1\r\n\r\n{")
        head, _, body = out.partition(b"\r\n\r\n")
        check(head.startswith(b"HTTP/1.1 400") and b"\r\nX-Request-Id: framing-1" in head
              and b'"request_id":"framing-1"' in body, "the framing refusal: %r" % out[:600])
        s.stop()
        lines = log_lines(s)
        check(any(re.match(r"GET /v1/games/nosuchgame 404 \S+ client=203\.0\.113\.9 "
                           r"request_id=req-42\.a$", l) for l in lines),
              "the access line: %r" % lines[-12:])
        check(any(l.endswith("request_id=framing-1") for l in lines), "the refusal's line")


def server_blocks(conf):
    """[(depth, block path, directive)] of an nginx config: each directive
    (comments dropped) with the names of the blocks around it."""
    text = "\n".join(l for l in conf.split("\n") if not l.strip().startswith("#"))
    out, stack, cur, quote = [], [], "", None
    for ch in text:
        if quote:  # a quoted string's braces and semicolons are text
            quote = None if ch == quote else quote
            cur += ch
        elif ch in "'\"":
            quote = ch
            cur += ch
        elif ch == "{":
            stack.append(" ".join(cur.split()[:1]))
            cur = ""
        elif ch == "}":
            stack.pop()
            cur = ""
        elif ch == ";":
            out.append((tuple(stack), " ".join(cur.split())))
            cur = ""
        else:
            cur += ch
    return out


@test
def nginx_configs_set_the_request_id_at_server_level(binary):
    """deploy/'s nginx configs send X-Request-Id at server level, beside
    the other proxy_set_header lines, and no location sets one of its own
    (which would drop the inherited ones: X-Forwarded-For, X-Real-IP, the
    keep-alive's Connection); nginx's own 429 problem carries the id."""
    deploy = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy")
    for name in ("nginx.conf", "nginx-two-nodes.conf"):
        ds = server_blocks(open(os.path.join(deploy, name)).read())
        sets = [(where, d) for where, d in ds if d.startswith("proxy_set_header ")]
        check(all(where == ("server",) for where, _ in sets),
              "%s: a proxy_set_header outside the server level: %r" % (name, sets))
        names = {d.split()[1].lower() for _, d in sets}
        check({"x-request-id", "x-forwarded-for", "x-real-ip", "connection"} <= names,
              "%s: %r" % (name, names))
        check((("server",), "proxy_set_header X-Request-Id $request_id") in ds,
              "%s: X-Request-Id from $request_id" % name)
        too_many = [d for where, d in ds if where == ("server", "location")
                    and d.startswith("return 429")]
        check(too_many and '"request_id":"$request_id"' in too_many[0], "%s: 429: %r" % (name, too_many))


# ---- logs ----

def log_lines(s):
    with open(s.log, encoding="utf-8") as f:
        return f.read().splitlines()


@test
def json_log_lines_parse_and_carry_the_fields(binary):
    # 127.0.0.1 a trusted proxy: the test's X-Request-Id is taken
    with server(binary, quiet=False,
                extra=["--log-format", "json", "--trusted-proxy", "127.0.0.1"]) as s:
        gid, tokens = create(s)
        r = s.request("GET", "/v1/games/%s" % gid, token=tokens[0],
                      headers={"X-Request-Id": "req-42.a"})
        check(r.status == 200, "read: %r" % r)
        s.request("GET", "/v1/games/%s/moves" % gid, headers={"X-Request-Id": "bad id\"{"})
        s.request("GET", "/no/%s/here" % gid)
        s.break_store()  # makes the store log an error
        s.request("POST", "/v1/games", {"game": AA})
        s.stop()
        lines = log_lines(s)
        objs = []
        for line in lines:
            try:
                o = json.loads(line)
            except ValueError:
                raise AssertionError("not JSON: %r" % line)
            check(isinstance(o, dict), "an object per line: %r" % line)
            check(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", o.get("time", "")),
                  "time: %r" % o)
            check(o.get("level") in ("info", "error") and o.get("type") in ("access", "message"),
                  "level and type: %r" % o)
            objs.append(o)
        access = [o for o in objs if o["type"] == "access"]
        fields = {"method", "route", "path", "status", "duration_ms", "bytes",
                  "request_id", "client"}
        for o in access:
            check(fields <= set(o), "access fields: %r" % o)
            check(isinstance(o["status"], int) and isinstance(o["duration_ms"], (int, float))
                  and o["duration_ms"] >= 0, "types: %r" % o)
            check(isinstance(o["request_id"], str) and o["client"] == "127.0.0.1",
                  "every access line has a request id and the client: %r" % o)
        mine = [o for o in access if o["request_id"] == "req-42.a"]
        check(len(mine) == 1, "one line with the request id: %r" % mine)
        o = mine[0]
        check(o["method"] == "GET" and o["route"] == "/v1/games/{id}" and
              o["path"] == "/v1/games/" + gid and o["status"] == 200 and
              o["bytes"] == len(r.raw) and o["client"] == "127.0.0.1", "the read: %r" % o)
        moves = [o for o in access if o["route"] == "/v1/games/{id}/moves"]
        check(len(moves) == 1 and re.match(r"[0-9a-f]{32}$", moves[0]["request_id"]),
              "an odd id is replaced by a made one: %r" % moves)
        check(any(o["route"] is None and o["status"] == 404 for o in access), "unmatched route: null")
        # The store's error after break_store(): SQLite names the file it
        # lost; PostgreSQL's words are libpq's (any error line of the store).
        if POSTGRES:
            note("the store's error text not matched on PostgreSQL (libpq's words)")
        check(any(o["type"] == "message" and o["level"] == "error" and o["source"] == "store"
                  and (POSTGRES or "deleted or replaced" in o["msg"]) for o in objs),
              "the store's error")
        check(any(o["type"] == "message" and "listening on" in o["msg"] for o in objs),
              "the start message")
        check(not any(t in line for t in tokens for line in lines), "no token in the log")


@test
def library_messages_are_json_lines_too(binary):
    """libmicrohttpd's own messages (here: the port is taken) go through
    the log module: a JSON line, not the library's bare text."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    d = tempfile.mkdtemp(prefix="boardd-ops-")
    try:
        p = subprocess.run([binary, "--addr", "127.0.0.1", "--port", str(taken.getsockname()[1]),
                            "--db", os.path.join(d, "t.db"), "--log-format", "json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30)
    finally:
        taken.close()
        shutil.rmtree(d, ignore_errors=True)
    check(p.returncode != 0, "the server did not start")
    objs = [json.loads(line) for line in p.stderr.decode().splitlines()]
    check(any(o["source"] == "libmicrohttpd" and o["level"] == "error" for o in objs),
          "the library's message: %r" % objs)
    check(any(o["source"] == "boardd" and "cannot listen" in o["msg"] for o in objs),
          "boardd's: %r" % objs)


@test
def probes_are_logged_only_at_debug(binary):
    """At the default level (info) a health check, a readiness check and
    a scrape answered below 400 leave no access line, other requests do;
    --log-level debug logs them too; --log-level error keeps only 5xx
    access lines and error messages (in JSON, each line's level says
    which)."""
    def run(extra):
        with server(binary, quiet=False, extra=["--log-format", "json"] + extra) as s:
            for path in ("/healthz", "/readyz", "/metrics", "/v1/games", "/nowhere"):
                s.request("GET", path)
            s.request("POST", "/healthz")  # a probe refused (405): info
            s.break_store()
            s.request("POST", "/v1/games", {"game": AA})  # 503: error
            s.stop()
            objs = [json.loads(l) for l in log_lines(s)]
        return ({(o["method"], o["path"]): o["level"] for o in objs if o["type"] == "access"},
                [o for o in objs if o["type"] == "message"])
    access, msgs = run([])
    for path in ("/healthz", "/readyz", "/metrics"):
        check(("GET", path) not in access, "info logs no %s: %r" % (path, access))
    check(access.get(("GET", "/v1/games")) == "info" and access.get(("GET", "/nowhere")) == "info"
          and access.get(("POST", "/healthz")) == "info", "info lines: %r" % access)
    check(access.get(("POST", "/v1/games")) == "error", "5xx: %r" % access)
    check(any(m["msg"].startswith("listening on") for m in msgs), "info messages: %r" % msgs)
    access, _ = run(["--log-level", "debug"])
    for path in ("/healthz", "/readyz", "/metrics"):
        check(access.get(("GET", path)) == "debug", "debug logs %s: %r" % (path, access))
    # At error the start line ("listening on", how the harness learns
    # the port) is not written: a server on a port of its own, read by
    # hand.
    d = tempfile.mkdtemp(prefix="boardd-ops-")
    try:
        port = free_port()
        p = subprocess.Popen([binary, "--addr", "127.0.0.1", "--port", str(port),
                              "--db", os.path.join(d, "t.db"), "--log-format", "json",
                              "--log-level", "error"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            end = time.monotonic() + 60
            while True:
                try:
                    c = socket.create_connection(("127.0.0.1", port), timeout=5)
                    break
                except OSError:
                    check(time.monotonic() < end and p.poll() is None, "the server starts")
                    time.sleep(0.05)
            for path in ("/healthz", "/metrics", "/v1/games", "/nowhere"):
                c.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
            time.sleep(0.5)
            c.close()
        finally:
            p.terminate()
            err = p.communicate(timeout=60)[1]
        objs = [json.loads(l) for l in err.decode().splitlines()]
    finally:
        shutil.rmtree(d, ignore_errors=True)
    check(all(o["level"] == "error" for o in objs), "error level writes errors only: %r" % objs)
    check(not any(o["type"] == "access" for o in objs), "no 5xx, no access line: %r" % objs)


@test
def text_log_keeps_its_shape(binary):
    with server(binary, quiet=False) as s:
        gid, _ = create(s)
        game(s, gid)
        s.stop()
        lines = log_lines(s)
        check(any(re.match(r"GET /v1/games/%s 200 \d+\.\d\dms client=127\.0\.0\.1 "
                           r"request_id=[0-9a-f]{32}$" % gid, l) for l in lines),
              "the access line: %r" % lines)
        check(any(l.startswith("boardd: listening on http://") for l in lines), "start line")
        for l in lines:
            check(re.match(r"[A-Z]+ \S+ \d{3} \d+\.\d\dms client=\S+ request_id=\S+$", l)
                  or re.match(r"[a-z]+: ", l),
                  "a text line: %r" % l)


if __name__ == "__main__":
    run_all("ops")
