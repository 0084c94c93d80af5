"""test_compression.py: content codings (issue 31 goal 8, RFC 9110
§8.4, §8.8.3, §12.5.3).

The web client's files are compressed at build time (tools/embed.sh:
gzip -9n, brotli -q 11) and sent in the coding the request's
Accept-Encoding prefers by its q-values (q=0 refuses; identity when
nothing else is taken); API JSON answers of 1024 bytes or more are
gzipped (zlib); a game view kept in the state cache is gzipped once per
version.  Every answer says Vary: Accept-Encoding; a coded answer has its
own strong ETag ("<tag>-gzip", "<tag>-br") and If-None-Match gives 304 in
every coding.  Bodies are decoded here with Python's gzip and Debian's
python3-brotli, and must be the identity bytes.  Part of tests/run.sh
(make test), on SQLite and PostgreSQL."""
import gzip
import http.client
import json
import os
import re
import zlib

import brotli

from gamehelp import actions, create_game, move, server
from harness import check, run_all, test

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web")


def get(s, path, ae=None, method="GET", headers=None, token=None):
    """One request on a connection of its own, the body as sent (no
    decoding, no contract check: the tests decode themselves)."""
    h = dict(headers or {})
    if ae is not None:
        h["Accept-Encoding"] = ae
    if token:
        h["Authorization"] = "Bearer " + token
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
    try:
        # skip_accept_encoding: http.client sends "identity" otherwise
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in h.items():
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        body = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, body
    finally:
        conn.close()


def decode(headers, body):
    """body as the identity bytes, by its Content-Encoding."""
    c = headers.get("content-encoding")
    if c == "gzip":
        # zlib with a gzip wrapper: the same bytes as gzip.decompress
        out = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        check(out == gzip.decompress(body), "zlib and gzip disagree")
        return out
    if c == "br":
        return brotli.decompress(body)
    check(c is None, "unknown Content-Encoding %r" % c)
    return body


def varies(headers):
    return "accept-encoding" in [v.strip().lower() for v in headers.get("vary", "").split(",")]


def counter(s, name, coding):
    """The value of counter name{coding="..."} in /metrics."""
    status, _, body = get(s, "/metrics")
    check(status == 200, "/metrics: %d" % status)
    m = re.search(r'^%s\{coding="%s"\} (\d+)$' % (name, coding), body.decode(), re.M)
    check(m, "%s{coding=%s} not in /metrics" % (name, coding))
    return int(m.group(1))


def web_files():
    """The files of web/ the server serves: all but README.md, which is for
    people reading the source (the Makefile's WEB_FILES)."""
    return sorted(f for f in os.listdir(WEB)
                  if os.path.isfile(os.path.join(WEB, f)) and f != "README.md")


@test
def web_files_come_precompressed_in_both_codings(binary):
    """Every file of web/ whose gzip or br coding is smaller is sent coded:
    it decodes to the identity bytes (which are the file's own), has the
    coded ETag, Vary, and If-None-Match with any of its tags is a 304;
    no request compresses anything (boardd_http_compressions_total does
    not move: the codings were made at build time)."""
    with server(binary) as s:
        before = {c: counter(s, "boardd_http_compressions_total", c) for c in ("gzip", "br")}
        sent = counter(s, "boardd_http_coded_answers_total", "br")
        coded_files = 0
        for name in web_files():
            path = "/" + name
            with open(os.path.join(WEB, name), "rb") as f:
                disk = f.read()
            st, ident_h, ident = get(s, path)
            check(st == 200 and ident == disk, "%s: %d, %d bytes of %d" % (name, st, len(ident), len(disk)))
            check("content-encoding" not in ident_h and varies(ident_h), "%s: %r" % (name, ident_h))
            tag = ident_h["etag"]
            tags = {tag}
            for c in ("gzip", "br"):
                st, h, body = get(s, path, ae=c)
                check(st == 200 and varies(h), "%s %s: %d %r" % (name, c, st, h))
                check(decode(h, body) == disk, "%s %s: decodes to other bytes" % (name, c))
                if h.get("content-encoding") == c:
                    coded_files += 1
                    check(len(body) < len(disk), "%s %s: %d bytes, %d plain" % (name, c, len(body), len(disk)))
                    check(h["etag"] == tag[:-1] + "-%s\"" % c, "%s %s ETag %s" % (name, c, h["etag"]))
                    check(int(h["content-length"]) == len(body), "%s %s: Content-Length" % (name, c))
                else:
                    check(len(disk) < 200 and h["etag"] == tag, "%s: %s not used: %r" % (name, c, h))
                tags.add(h["etag"])
                # HEAD: GET's headers, no body
                hst, hh, hbody = get(s, path, ae=c, method="HEAD")
                check(hst == 200 and hbody == b"" and hh.get("content-encoding") == h.get("content-encoding")
                      and hh["etag"] == h["etag"] and hh.get("content-length") == h.get("content-length"),
                      "%s %s HEAD: %r against %r" % (name, c, hh, h))
                # 304 for its own tag and for the identity tag
                for inm in (h["etag"], tag):
                    st, h304, body = get(s, path, ae=c, headers={"If-None-Match": inm})
                    check(st == 304 and body == b"" and varies(h304) and h304["etag"] == inm,
                          "%s %s If-None-Match %s: %d %r" % (name, c, inm, st, h304))
            check(len(tags) == 3 or len(disk) < 200, "%s: ETags %r" % (name, tags))
        check(coded_files >= 2 * 15, "only %d coded answers" % coded_files)
        after = {c: counter(s, "boardd_http_compressions_total", c) for c in ("gzip", "br")}
        check(after == before, "serving the web client compressed: %r -> %r" % (before, after))
        check(counter(s, "boardd_http_coded_answers_total", "br") > sent, "br answers not counted")


@test
def rules_pages_come_precompressed_too(binary):
    """The rules pages (/rules, /rules/agent-avenue, /rules/quantum: HTML
    made by tools/rules.sh at build time) are coded at build time like
    web/'s files: br and gzip decode to the identity page, each coding its
    own ETag, a 304 for it, and no request compresses anything."""
    with server(binary) as s:
        before = {c: counter(s, "boardd_http_compressions_total", c) for c in ("gzip", "br")}
        for path in ("/rules", "/rules/agent-avenue", "/rules/quantum"):
            st, ih, ident = get(s, path)
            check(st == 200 and ih.get("content-type", "").startswith("text/html")
                  and "content-encoding" not in ih and varies(ih), "%s: %d %r" % (path, st, ih))
            for c in ("gzip", "br"):
                st, h, body = get(s, path, ae=c)
                check(st == 200 and h.get("content-encoding") == c and len(body) < len(ident),
                      "%s %s: %d %r, %d of %d bytes" % (path, c, st, h, len(body), len(ident)))
                check(decode(h, body) == ident, "%s %s: decodes to other bytes" % (path, c))
                check(h["etag"] == ih["etag"][:-1] + "-%s\"" % c, "%s %s ETag %s" % (path, c, h["etag"]))
                st, _, _ = get(s, path, ae=c, headers={"If-None-Match": h["etag"]})
                check(st == 304, "%s %s If-None-Match: %d" % (path, c, st))
        after = {c: counter(s, "boardd_http_compressions_total", c) for c in ("gzip", "br")}
        check(after == before, "serving the rules pages compressed: %r -> %r" % (before, after))


@test
def q_values_choose_the_coding(binary):
    """RFC 9110 §12.5.3: the coding of highest nonzero q among those the
    server has (br before gzip at equal q); q=0 refuses; "*" stands for
    every coding not named; identity when the field is absent or empty,
    when every coding is refused, or names only unknown ones."""
    cases = (
        (None, None), ("", None), ("identity", None), ("deflate, compress", None),
        ("gzip", "gzip"), ("x-gzip", "gzip"), ("GZIP", "gzip"), ("br", "br"), ("BR;Q=1", "br"),
        ("gzip, br", "br"), ("br, gzip", "br"), ("gzip, deflate, br, zstd", "br"),
        ("gzip;q=1, br;q=0.5", "gzip"), ("gzip;q=0.4, br;q=0.5", "br"),
        ("gzip;q=0.001", "gzip"), ("gzip;q=0", None), ("gzip;q=0.000", None),
        ("br;q=0", None), ("br;q=0, gzip;q=0", None), ("*;q=0", None), ("*", "br"),
        ("br;q=0, *", "gzip"), ("*;q=0.1, br;q=0", "gzip"), ("gzip;q=0, *;q=0.5", "br"),
        ("identity;q=0, gzip", "gzip"), ("identity;q=1, br;q=0.9", "br"),
        (" gzip ; q=0.8 ,  br ; q=0.9 ", "br"), ("gzip;q=2", "gzip"),
    )
    with server(binary) as s:
        with open(os.path.join(WEB, "app.js"), "rb") as f:
            disk = f.read()
        for ae, want in cases:
            st, h, body = get(s, "/app.js", ae=ae)
            check(st == 200 and h.get("content-encoding") == want,
                  "Accept-Encoding %r: want %s, got %d %r" % (ae, want, st, h.get("content-encoding")))
            check(decode(h, body) == disk and varies(h), "Accept-Encoding %r: body or Vary" % ae)
        # the API offers gzip alone: br is not sent, q-values alike
        for ae, want in (("br", None), ("br, gzip;q=0.1", "gzip"), ("gzip;q=0", None), ("*", "gzip")):
            st, h, body = get(s, "/v1/catalog", ae=ae)
            check(st == 200 and h.get("content-encoding") == want,
                  "catalog, %r: want %s, got %r" % (ae, want, h.get("content-encoding")))


@test
def api_json_is_gzipped_above_the_threshold(binary):
    """JSON answers of 1024 bytes or more are gzipped for a client that
    takes gzip, smaller ones are not; both say Vary: Accept-Encoding; a
    problem+json is fine either way; Range is not supported, so a Range
    request gets the whole (coded) body, 200."""
    with server(binary) as s:
        st, h, plain = get(s, "/v1/catalog")
        check(st == 200 and len(plain) >= 1024 and varies(h), "catalog: %d %d" % (st, len(plain)))
        st, h, body = get(s, "/v1/catalog", ae="gzip")
        check(h.get("content-encoding") == "gzip" and decode(h, body) == plain and len(body) < len(plain) // 2,
              "catalog gzip: %r, %d bytes" % (h, len(body)))
        st, rh, rbody = get(s, "/v1/catalog", ae="gzip", headers={"Range": "bytes=0-9"})
        check(st == 200 and rbody == body and "content-range" not in rh, "Range: %d %r" % (st, rh))
        hst, hh, hbody = get(s, "/v1/catalog", ae="gzip", method="HEAD")
        check(hst == 200 and hbody == b"" and hh.get("content-encoding") == "gzip"
              and hh.get("content-length") == h.get("content-length"), "HEAD catalog: %r" % hh)
        # small: /healthz, a 404 problem
        for path, status in (("/healthz", 200), ("/v1/games/nosuchgame", 404)):
            st, h, body = get(s, path, ae="gzip, br")
            check(st == status and "content-encoding" not in h and varies(h) and json.loads(body),
                  "%s: %d %r" % (path, st, h))
        st, h, body = get(s, "/v1/games/nosuchgame", ae="gzip")
        check(h["content-type"] == "application/problem+json" and json.loads(body)["status"] == 404,
              "problem: %r" % h)
        # a big problem: a 400 naming a long bad value is coded as any answer
        st, h, body = get(s, "/v1/games?limit=" + "9" * 2000, ae="gzip")
        check(st in (400, 414) and h.get("content-type", "").startswith("application/problem+json"),
              "long limit: %d %r" % (st, h))
        check(json.loads(decode(h, body))["status"] == st, "long limit: body")
        # a game view and its action list (Quantum: large)
        gid, tok = create_game(s, "quantum", 2)
        for i in range(3):  # Quantum's setup: two short lists, then a long one
            st, _, view = get(s, "/v1/games/%s" % gid, token=tok[0])
            t = tok[json.loads(view)["to_act"][0]]
            st, h, small = get(s, "/v1/games/%s/actions" % gid, ae="gzip", token=t)
            if len(small) < 1024:
                check(st == 200 and "content-encoding" not in h and varies(h), "short actions: %r" % h)
            r = move(s, gid, t, actions(s, gid, t)[0])
            check(r.status == 201, "setup move: %r" % r)
        st, _, view = get(s, "/v1/games/%s" % gid, token=tok[0])
        t = tok[json.loads(view)["to_act"][0]]  # the seat to act: a long action list
        for path in ("/v1/games/%s" % gid, "/v1/games/%s/actions" % gid):
            st, ih, ident = get(s, path, token=t)
            check(st == 200 and len(ident) >= 1024 and "content-encoding" not in ih and varies(ih),
                  "%s identity: %d %r" % (path, st, ih))
            st, h, body = get(s, path, ae="gzip", token=t)
            check(h.get("content-encoding") == "gzip" and decode(h, body) == ident and varies(h),
                  "%s gzip: %r" % (path, h))
            check(len(body) < len(ident) // 3, "%s: %d gzipped, %d plain" % (path, len(body), len(ident)))
            if "etag" in ih:
                check(h["etag"] == ih["etag"][:-1] + '-gzip"', "%s ETag %s / %s" % (path, h["etag"], ih["etag"]))
                for inm in (h["etag"], ih["etag"]):
                    st, h304, b304 = get(s, path, ae="gzip", token=t, headers={"If-None-Match": inm})
                    check(st == 304 and b304 == b"" and h304["etag"] == inm and varies(h304),
                          "%s If-None-Match %s: %d %r" % (path, inm, st, h304))
                # the gzip tag does not hold for a request refusing gzip
                st, _, _ = get(s, path, ae="gzip;q=0", token=t, headers={"If-None-Match": h["etag"]})
                check(st == 200, "%s: gzip tag with gzip refused: %d" % (path, st))
            hst, hh, hbody = get(s, path, ae="gzip", method="HEAD", token=t)
            check(hst == 200 and hbody == b"" and hh.get("content-encoding") == "gzip"
                  and hh.get("content-length") == h.get("content-length"), "HEAD %s: %r" % (path, hh))


@test
def a_cached_view_is_gzipped_once_per_version(binary):
    """A game view kept in the state cache (docs/read-path.md) is
    gzipped by its first coded answer and the coding kept with its bytes:
    ten reads cost one compression; each viewer's view is its own; a move
    makes a new version, gzipped once again."""
    with server(binary) as s:
        gid, tok = create_game(s, "quantum", 2)
        path = "/v1/games/%s" % gid
        for t in (tok[0], None):  # warm: the bytes in their slots
            get(s, path, token=t)
        n0 = counter(s, "boardd_http_compressions_total", "gzip")
        first = None
        for _ in range(10):
            st, h, body = get(s, path, ae="gzip", token=tok[0])
            check(st == 200 and h.get("content-encoding") == "gzip", "view: %d %r" % (st, h))
            first = first or body
            check(body == first, "the same version, other bytes")
        n1 = counter(s, "boardd_http_compressions_total", "gzip")
        check(n1 - n0 == 1, "10 reads of one version: %d compressions" % (n1 - n0))
        for _ in range(3):
            st, h, spect = get(s, path, ae="gzip")
            check(st == 200 and h.get("content-encoding") == "gzip", "spectator: %r" % h)
        n2 = counter(s, "boardd_http_compressions_total", "gzip")
        check(n2 - n1 == 1, "the spectator's view: %d compressions" % (n2 - n1))
        check(decode(h, spect) != decode({"content-encoding": "gzip"}, first),
              "the spectator got the seat's view")
        seat = json.loads(decode({"content-encoding": "gzip"}, first))["to_act"][0]
        r = move(s, gid, tok[seat], actions(s, gid, tok[seat])[0])
        check(r.status == 201, "move: %r" % r)
        n3 = counter(s, "boardd_http_compressions_total", "gzip")
        for _ in range(5):
            st, h, body = get(s, path, ae="gzip", token=tok[0])
            check(st == 200 and body != first, "after the move: the old bytes")
        n4 = counter(s, "boardd_http_compressions_total", "gzip")
        check(n4 - n3 == 1, "5 reads after a move: %d compressions" % (n4 - n3))


if __name__ == "__main__":
    run_all("compression")
