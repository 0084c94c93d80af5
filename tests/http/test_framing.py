"""test_framing.py: strict HTTP/1.1 request framing (issue 9 item 4).

libmicrohttpd 0.9.75 accepts requests RFC 9112 says a server must refuse:
two Content-Lengths (the first won and the rest of the body was read as
a second request), Content-Length with Transfer-Encoding, an unknown
transfer coding (the connection then hung until the timeout), HTTP/1.1
without Host; and it percent-decodes before boardd sees the path, so a
%00 cut the path or a query value short.  Each must be a 400 problem+json
(501 for an unknown coding), answered at once, with the connection closed
and nothing done.  HEAD gets the same checks as GET.  Part of tests/run.sh
(make test)."""
import socket
import time

from gamehelp import create, game, server
from harness import (check, is_library_refusal, parse_responses, raw_exchange, run_all,
                     test)


def exchange(s, data, timeout=10):
    """Sends raw bytes on a fresh connection and reads until the server
    closes it.  Returns (answers, closed): closed is False when the server
    kept the connection open past `timeout` seconds (a hang)."""
    out, closed = raw_exchange(s.port, data, timeout)
    answers, _ = parse_responses(out, [data.split(b" ", 1)[0].decode()] * 4)
    return answers, closed


def refused(s, data, status, slug, what):
    """data must get exactly one answer, `status` problem+json `slug`,
    and the connection closed."""
    answers, closed = exchange(s, data)
    check(len(answers) == 1, "%s: want one answer, got %r" % (what, answers))
    r = answers[0]
    check(r.status == status, "%s: want %d, got %r" % (what, status, r))
    if data.startswith(b"HEAD"):
        check(r.headers.get("content-type") == "application/problem+json",
              "%s: %r" % (what, r.headers))
    else:
        check(r.json and r.json["type"] == "urn:boardd:problem:" + slug,
              "%s: problem %s: %r" % (what, slug, r))
    check(r.headers.get("connection", "").lower() == "close",
          "%s: no Connection: close: %r" % (what, r.headers))
    check(closed, "%s: the connection stayed open" % what)


def games_listed(s):
    return len(s.request("GET", "/v1/games?limit=100").json["games"])


BODY = b'{"game":"agent-avenue"}'


@test
def two_content_lengths_are_refused(binary):
    """Content-Length 5 and 23: the first won, `{"gam` was read as a body
    (a 400 for its JSON) and the rest as the start of a second request,
    which held the connection open."""
    with server(binary) as s:
        before = games_listed(s)
        for cls in ((5, len(BODY)), (len(BODY), len(BODY))):
            data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + b"".join(b"Content-Length: %d\r\n" % n for n in cls) + b"\r\n" + BODY)
            refused(s, data, 400, "bad-request", "Content-Length %r" % (cls,))
        check(games_listed(s) == before, "a game was created")


@test
def put_and_delete_get_the_same_checks(binary):
    """PUT and DELETE /v1/players/me/webhook (the methods the webhook
    added): two Content-Lengths, Transfer-Encoding with Content-Length or
    an unknown coding are refused before routing, and change nothing."""
    with server(binary) as s:
        r = s.request("POST", "/v1/players", {"name": "Ann"})
        tok = r.json["token"].encode()
        body = b'{"url":"https://example.com/a"}'
        auth = b"Authorization: Bearer " + tok + b"\r\n"
        for method in (b"PUT", b"DELETE"):
            head = method + b" /v1/players/me/webhook HTTP/1.1\r\nHost: x\r\n" + auth
            refused(s, head + b"Content-Type: application/json\r\nContent-Length: %d\r\n"
                    b"Content-Length: %d\r\n\r\n" % (len(body), len(body)) + body,
                    400, "bad-request", "%s with two Content-Lengths" % method)
            refused(s, head + b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n\r\n"
                    % len(body) + body, 400, "bad-request", "%s with TE and CL" % method)
            refused(s, head + b"Transfer-Encoding: gzip\r\n\r\n", 501, "not-implemented",
                    "%s with an unknown coding" % method)
        r = s.request("GET", "/v1/players/me/webhook", token=tok.decode())
        check(r.status == 404, "no webhook was registered: %r" % r)


@test
def content_length_list_is_a_library_refusal(binary):
    """`Content-Length: 5, 23` (one field, a list) never reaches boardd:
    libmicrohttpd refuses it itself (x-library-refusals) and closes."""
    with server(binary) as s:
        data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 23\r\n\r\n" + BODY)
        answers, closed = exchange(s, data)
        check(answers and all(is_library_refusal(r) for r in answers) and closed,
              "%r" % answers)


@test
def transfer_encoding_with_content_length_is_refused(binary):
    """Both framings at once (the request-smuggling shape): chunked won
    silently."""
    with server(binary) as s:
        before = games_listed(s)
        data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY))
        refused(s, data, 400, "bad-request", "TE + CL")
        check(games_listed(s) == before, "a game was created")


@test
def field_name_with_whitespace_is_refused(binary):
    """`Transfer-Encoding : chunked` (a space before the colon) was kept
    under another name and ignored, so Content-Length framed the body, while
    a proxy that trims the name frames it as chunked (RFC 9112 §5.1: 400).
    A folded line starting `Transfer-Encoding:` likewise became a field of
    its own.  Nothing is created."""
    with server(binary) as s:
        before = games_listed(s)
        for field in (b"Transfer-Encoding : chunked", b"Transfer-Encoding\t: chunked",
                      b"X-A: b\r\n Transfer-Encoding: chunked"):
            data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + field + b"\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
            answers, closed = exchange(s, data)
            check(len(answers) == 1 and closed, "%r: %r" % (field, answers))
            r = answers[0]
            check(r.status == 400 and (is_library_refusal(r) or (
                r.json and r.json["type"] == "urn:boardd:problem:bad-request")),
                  "%r: want 400, got %r" % (field, r))
        check(games_listed(s) == before, "a game was created")


@test
def unknown_transfer_coding_is_501_at_once(binary):
    """Transfer-Encoding: gzip held the connection until --timeout (the
    server waited for a body it could not frame).  Now 501 at once."""
    with server(binary, extra=["--timeout", "60"]) as s:
        for te in (b"gzip", b"gzip, chunked", b"chunked, gzip", b"identity"):
            data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + te +
                    b"\r\n\r\n" + BODY)
            refused(s, data, 501, "not-implemented", "Transfer-Encoding: %r" % te)
        data = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"
        refused(s, data, 501, "not-implemented", "GET with gzip")
        # chunked alone still works.
        data = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY))
        answers, _ = exchange(s, data)
        check([r.status for r in answers] == [201], "chunked: %r" % answers)


@test
def http11_needs_exactly_one_host(binary):
    """HTTP/1.1 without Host was answered (RFC 9112 §3.2: 400); so were
    two Hosts.  HTTP/1.0 needs none."""
    with server(binary) as s:
        for method in (b"GET", b"HEAD"):
            refused(s, method + b" /healthz HTTP/1.1\r\n\r\n", 400, "bad-request",
                    "%s without Host" % method)
            refused(s, method + b" /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400,
                    "bad-request", "%s with two Hosts" % method)
        answers, _ = exchange(s, b"GET /healthz HTTP/1.0\r\n\r\n")
        check([r.status for r in answers] == [200], "HTTP/1.0: %r" % answers)


@test
def decoded_nul_in_path_or_query_is_refused(binary):
    """`/v1/games/<id>%00/moves` served the game's view (the path ended at
    the NUL) and `?status=waiting%00x` listed waiting games."""
    with server(binary) as s:
        gid, tokens = create(s)
        before = game(s, gid, tokens[0])
        for method in (b"GET", b"HEAD"):
            for target in (b"/v1/games/" + gid.encode() + b"%00/moves",
                           b"/v1/games/" + gid.encode() + b"%00",
                           b"/v1/games/" + gid.encode() + b"%0a",
                           b"/v1/games?status=waiting%00x",
                           b"/v1/games?status%00=waiting",
                           b"/v1/games/" + gid.encode() + b"?wait=1%00"):
                refused(s, method + b" " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n", 400,
                        "bad-request", "%s %s" % (method, target))
        data = (b"POST /v1/games/" + gid.encode() + b"%00/moves HTTP/1.1\r\nHost: x\r\n"
                b"Authorization: Bearer " + tokens[0].encode() + b"\r\n"
                b"Content-Length: 2\r\n\r\n{}")
        refused(s, data, 400, "bad-request", "POST with %00")
        check(game(s, gid, tokens[0]) == before, "the game changed")


@test
def control_characters_in_the_request_line_are_refused(binary):
    """Issue 34, a low finding: `GET /v1/games\\0x HTTP/1.1` was served as
    /v1/games (libmicrohttpd cuts the target at a raw NUL), a POST so cut
    created its game, and `GET\\0 /healthz` was a GET.  A control
    character anywhere in the request line (RFC 9112 §3: a NUL, a bare CR,
    another C0, DEL) is a 400 problem, the connection closed, nothing
    done; in the version, the library refuses it itself (its own 400).
    Empty query arguments and percent-encoding stay accepted."""
    with server(binary) as s:
        before = games_listed(s)
        targets = (b"/v1/games\x00x", b"/v1/games\x00", b"/v1/games\x00?limit=1",
                   b"/v1/games?status=waiting\x00x", b"/v1/games?limit=1&\x00x",
                   b"/healthz\rx", b"/healthz\r", b"/healthz\x01", b"/healthz\x1f",
                   b"/healthz\x7f", b"/healthz\tx", b"/v1/g\x00%61mes")
        for method in (b"GET", b"HEAD"):
            for target in targets:
                refused(s, method + b" " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n", 400,
                        "bad-request", "%s %r" % (method, target))
        for line in (b"GET\x00 /healthz", b"G\x00ET /healthz", b"GET\x01 /healthz",
                     b"GE\x7fT /healthz"):
            refused(s, line + b" HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad-request",
                    "in the method: %r" % line)
        for target in (b"/v1/games\x00x", b"/v1/games\x00"):
            data = (b"POST " + target + b" HTTP/1.1\r\nHost: x\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY)
            refused(s, data, 400, "bad-request", "POST %r" % target)
        check(games_listed(s) == before, "a game was created")
        for version in (b"HTTP/1.1\x00", b"HT\x00TP/1.1", b"HTTP/1.1\r"):
            answers, closed = exchange(s, b"GET /healthz " + version + b"\r\nHost: x\r\n\r\n")
            check(len(answers) == 1 and answers[0].status == 400 and
                  is_library_refusal(answers[0]) and closed,
                  "in the version %r: want the library's 400, got %r" % (version, answers))
        reqs = (b"GET /v1/games?a&&b=&=c&limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"
                b"GET /v1/g%61mes?st%61tus=active&limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"
                b"GET /healthz? HTTP/1.1\r\nHost: x\r\n\r\n")
        answers, closed = exchange(s, reqs, timeout=2)
        check([r.status for r in answers] == [200, 200, 200] and not closed,
              "empty arguments, percent-encoding: %r" % answers)


@test
def head_gets_the_checks_of_get(binary):
    """HEAD /v1/games/<unknown>/events answered 200; it must answer what
    GET does (404), and 200 with the stream's type for a real game."""
    with server(binary) as s:
        gid, tokens = create(s)
        for path in ("/v1/games/0123456789abcdef/events", "/v1/games/xyz/events"):
            check(s.request("GET", path).status == 404, "GET %s" % path)
            r = s.request("HEAD", path, validate=False)  # a problem, no body
            check(r.status == 404 and not r.raw, "HEAD %s: %r" % (path, r))
        r = s.request("HEAD", "/v1/games/%s/events?after=x" % gid, validate=False)
        check(r.status == 400, "HEAD with a bad after: %r" % r)
        for accept, ctype in ((None, "text/event-stream"),
                              ("application/x-ndjson", "application/x-ndjson")):
            r = s.request("HEAD", "/v1/games/%s/events" % gid, token=tokens[0],
                          headers={"Accept": accept} if accept else {})
            check(r.status == 200 and r.headers.get("content-type") == ctype and not r.raw,
                  "HEAD events: %r %r" % (r, r.headers))
        # The stream a HEAD opened is closed: the server stops cleanly.


@test
def bare_cr_obs_fold_and_bare_lf_are_refused(binary):
    """Issue 34 finding 7, RFC 9112: a bare CR inside a field value (§2.2),
    a folded field line (obs-fold, §5.2) and bare-LF line ends (§2.2) were
    accepted (200, and a POST created its game).  Each is now a 400
    problem, the connection closed, nothing done; so is another control
    character in a value (RFC 9110 §5.5).  A tab and trailing spaces in a
    value are fine."""
    with server(binary) as s:
        before = games_listed(s)
        cases = {
            "bare CR in a value": [b"Host: x", b"X-A: a\rb"],
            "bare CR before CRLF": [b"Host: x", b"X-A: a\r"],
            "a control character in a value": [b"Host: x", b"X-A: a\x01b"],
            "DEL in a value": [b"Host: x", b"X-A: a\x7fb"],
            "obs-fold with a space": [b"Host: x", b"X-A: a\r\n b"],
            "obs-fold with a tab": [b"Host: x", b"X-A: a\r\n\tb"],
            "obs-fold of the first field": [b"Host: x\r\n  y"],
        }
        for what, fields in cases.items():
            for method in (b"GET /healthz", b"POST /v1/games"):
                body = BODY if method.startswith(b"POST") else b""
                data = (method + b" HTTP/1.1\r\n" + b"\r\n".join(fields) +
                        b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                refused(s, data, 400, "bad-request", "%s: %s" % (method, what))
        bare_lf = {
            "every line": b"%s HTTP/1.1\nHost: x\nContent-Length: %d\n\n",
            "the request line": b"%s HTTP/1.1\nHost: x\r\nContent-Length: %d\r\n\r\n",
            "one field line": b"%s HTTP/1.1\r\nHost: x\nContent-Length: %d\r\n\r\n",
            "the empty line": b"%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\n",
            "the last field line": b"%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\n\r\n",
            "an HTTP/1.0 request": b"%s HTTP/1.0\r\nContent-Length: %d\n\n",
        }
        for what, head in bare_lf.items():
            for method, body in ((b"GET /healthz", b""), (b"POST /v1/games", BODY)):
                refused(s, head % (method, len(body)) + body, 400, "bad-request",
                        "%s: a bare LF ending %s" % (method, what))
        check(games_listed(s) == before, "a game was created")
        data = (b"\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\tb  \r\nX-B:\r\n"
                b"X-C:   \r\nCookie: a=b; c=\"d\"; e\r\nConnection: close\r\n\r\n")
        answers, _ = exchange(s, data)
        check([r.status for r in answers] == [200],
              "an empty line first, a tab, trailing spaces, empty values, cookies: %r" % answers)
        # A 40 KB field, sent in 8 KB pieces: the library grows its buffer
        # while the lines before it are already parsed (the check walks them).
        data = (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 40000 +
                b"\r\nX-B: c\r\nConnection: close\r\n\r\n")
        with socket.create_connection(("127.0.0.1", s.port), timeout=30) as c:
            for i in range(0, len(data), 8192):
                c.sendall(data[i:i + 8192])
                time.sleep(0.02)
            got = b""
            while True:
                x = c.recv(65536)
                if not x:
                    break
                got += x
        check(got.startswith(b"HTTP/1.1 200 "), "a 40 KB field in pieces: %r" % got[:200])


@test
def the_library_refusals_are_the_documented_ones(binary):
    """What libmicrohttpd 0.9.75 answers by itself, before boardd sees the
    request, with its own text/html-like body and no Content-Type (it has
    no hook to replace those bodies): 414 for a long target, 431 for a
    long field, 505 for HTTP/2.0 on this port, 400 for HTTP/0.9 (a request
    line without a version).  Each is in the spec's x-library-refusals,
    which harness.is_library_refusal checks, and closes the connection."""
    with server(binary) as s:
        for what, data, status in (
                ("a 70 KB target", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                ("a 70 KB field", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 70000 +
                 b"\r\n\r\n", 431),
                ("HTTP/2.0", b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                ("HTTP/0.9", b"GET /\r\n\r\n", 400)):
            answers, closed = exchange(s, data)
            check(len(answers) == 1 and answers[0].status == status and
                  is_library_refusal(answers[0]) and closed,
                  "%s: want the library's %d, got %r" % (what, status, answers))


@test
def good_requests_keep_their_connection(binary):
    """The checks refuse only what they name: a keep-alive connection
    with ordinary requests, a percent-encoded id and a query, stays open."""
    with server(binary) as s:
        gid, _ = create(s)
        reqs = (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                b"GET /v1/games/%" + ("%02x" % ord(gid[0])).encode() + gid[1:].encode() +
                b" HTTP/1.1\r\nHost: x\r\n\r\n"
                b"GET /v1/games?status=active&limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"
                b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(BODY), BODY))
        answers, closed = exchange(s, reqs, timeout=2)
        check([r.status for r in answers] == [200, 200, 200, 201], "%r" % answers)
        check(not closed, "the connection was closed")


if __name__ == "__main__":
    run_all("framing")
