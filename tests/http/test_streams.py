"""The harness's one stream reader (tests/http/streams.py), on its own:
the same stream, cut at every byte offset (and fed a byte at a time),
always gives the same whole events, never part of one, and never takes a
keep-alive for an event.  Streams: SSE and NDJSON as boardd writes them
(a real server's /events, its chunks re-cut), and hand-written ones with
what the formats allow beyond that (CRLF and CR line ends, comments,
multi-line data, an id-less block, multi-byte UTF-8)."""
import json
import random
import socket
import time

from gamehelp import actions, create, move, over, server, until_not_moot
from harness import check, run_all, test
from streams import Dechunker, EventStream, parse


def chunked(body, sizes):
    """body in the chunked coding, cut into chunks of the given sizes
    (cycled), then the last chunk."""
    out, i, k = [], 0, 0
    while i < len(body):
        n = sizes[k % len(sizes)]
        out.append(b"%x\r\n" % len(body[i:i + n]) + body[i:i + n] + b"\r\n")
        i += n
        k += 1
    return b"".join(out) + b"0\r\n\r\n"


def feed_cut(ctype, stream, cut):
    """The events of `stream` fed in two pieces cut at `cut`, each check
    made after every piece: only whole events, in order."""
    es = EventStream(ctype)
    first = es.feed(stream[:cut])
    second = es.feed(stream[cut:])
    check(es.events == first + second, "feed returns what it adds")
    return es


def same_at_every_cut(ctype, stream, want):
    """want: the (event name, data) pairs the whole stream holds."""
    whole = EventStream(ctype)
    whole.feed(stream)
    got = [(e["event"], e["data"]) for e in whole.events]
    check(got == want, "whole stream: %r, want %r" % (got, want))
    for cut in range(len(stream) + 1):
        es = feed_cut(ctype, stream, cut)
        check([(e["event"], e["data"]) for e in es.events] == want, "cut at %d" % cut)
        check(es.keepalives == whole.keepalives and es.whole == whole.whole,
              "cut at %d: keep-alives and whole bytes" % cut)
        # the first piece alone: a prefix of the events, each whole
        part = EventStream(ctype)
        part.feed(stream[:cut])
        n = len(part.events)
        check([(e["event"], e["data"]) for e in part.events] == want[:n], "prefix at %d" % cut)
        check(whole.whole.startswith(part.whole),
              "whole bytes are a prefix at %d" % cut)
    bytewise = EventStream(ctype)
    for i in range(len(stream)):
        bytewise.feed(stream[i:i + 1])
    check(bytewise.events == whole.events and bytewise.keepalives == whole.keepalives,
          "a byte at a time")
    return whole


@test
def sse_cut_anywhere(binary):
    e1, e2 = {"seq": 1, "text": "caf\u00e9 \u2603"}, {"seq": 2, "a": [1, 2]}
    stream = (b"retry: 3000\n\n" +
              b": keep-alive\n\n" +
              b"id: 1\nevent: move\ndata: " + json.dumps(e1, ensure_ascii=False).encode() + b"\n\n" +
              b": keep-alive\n\n" +
              b"id: 2\r\nevent: state\r\ndata: {\"seq\": 2,\r\ndata:  \"a\": [1, 2]}\r\n\r\n" +
              b"event: gap\rdata:{}\r\r" +
              b": a comment\nid: 9\nevent: x\ndata: 3\n\n")
    es = same_at_every_cut("text/event-stream", stream,
                           [("move", e1), ("state", e2), ("gap", {}), ("x", 3)])
    check(es.keepalives == 2 and es.retry == 3000, "keep-alives %d, retry %r" % (es.keepalives, es.retry))
    check([e["id"] for e in es.events] == [1, 2, None, 9], "ids: %r" % [e["id"] for e in es.events])
    check(es.whole.startswith(b"retry: 3000\n\nid: 1\n") and b"keep-alive" not in es.whole,
          "whole bytes: the retry block and the events only")
    check(parse("text/event-stream", stream[:-1]) == es.events[:3], "a partial last event is none")


@test
def ndjson_cut_anywhere(binary):
    objs = [{"event": "state", "seq": 0, "s": "\u00e9\u00e8"}, {"event": "move", "seq": 1}]
    stream = (b"\n" + json.dumps(objs[0], ensure_ascii=False).encode() + b"\n\n\n" +
              json.dumps(objs[1]).encode() + b"\n\n")
    es = same_at_every_cut("application/x-ndjson", stream, [(o["event"], o) for o in objs])
    check(es.keepalives == 4, "keep-alives: %d" % es.keepalives)
    check([e["id"] for e in es.events] == [0, 1], "ids are the seqs")


@test
def dechunker_cut_anywhere(binary):
    body = b"id: 1\nevent: move\ndata: {}\n\n" * 3
    for sizes in ([1], [7], [5, 11, 2], [len(body)]):
        coded = chunked(body, sizes)
        for cut in range(len(coded) + 1):
            d = Dechunker()
            got = d.feed(coded[:cut])
            check(body.startswith(got), "a prefix of the body")
            got += d.feed(coded[cut:] + b"trailing bytes ignored")
            check(got == body and d.ended, "sizes %r, cut at %d" % (sizes, cut))


@test
def a_real_stream_cut_anywhere(binary):
    """boardd's own /events of a game a few moves in, in both formats,
    with keep-alives every second: the events read whole equal the ones
    read by cutting its chunked body anywhere.  A deal can end the game
    within those moves (the Sidekick played with the Mole: a catch at
    once, rules §3), and a finished game's stream ends: then the scenario
    runs again on a new game (gamehelp.until_not_moot)."""
    with server(binary, extra=["--keepalive", "1"]) as s:
        until_not_moot(lambda: cut_anywhere(s),
                       "the game ended within its first four moves")


def cut_anywhere(s):
    """a_real_stream_cut_anywhere on a new game; False if the game ended
    within its four moves (nothing checked)."""
    gid, tokens = create(s)
    for _ in range(4):
        g = s.request("GET", "/v1/games/%s" % gid, token=tokens[0]).json
        if g["status"] != "active":
            return False
        seat = g["to_act"][0]
        r = move(s, gid, tokens[seat], random.Random(seat).choice(actions(s, gid, tokens[seat])))
        check(r.status == 201, "move: %r" % r)
    if over(s, gid):
        return False
    for accept in ("text/event-stream", "application/x-ndjson"):
        raw = read_raw(s.port, "/v1/games/%s/events?after=0" % gid, tokens[0], accept)
        es = EventStream(accept)
        es.feed(raw)
        check(len(es.events) == 4 and es.keepalives >= 1,
              "%s: %d events, %d keep-alives" % (accept, len(es.events), es.keepalives))
        want = [(e["event"], e["data"]) for e in es.events]
        for cut in range(len(raw) + 1):
            check([(e["event"], e["data"]) for e in feed_cut(accept, raw, cut).events] == want,
                  "%s cut at %d" % (accept, cut))
    return True

def read_raw(port, path, token, accept):
    """The de-chunked body of a stream read until a keep-alive has come
    after its fourth event (bounded at 20 s)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nAccept: %s\r\n\r\n"
                  % (path, token, accept)).encode())
    raw, body, head = b"", b"", None
    d, es = Dechunker(), EventStream(accept)
    deadline = time.monotonic() + 20
    try:
        while time.monotonic() < deadline:
            data = sock.recv(65536)
            check(data, "the stream ended")
            raw += data
            if head is None:
                if b"\r\n\r\n" not in raw:
                    continue
                head, _, raw = raw.partition(b"\r\n\r\n")
                check(b" 200 " in head.split(b"\r\n")[0], "stream: %r" % head)
            got = d.feed(raw)
            raw = b""
            body += got
            es.feed(got)
            if len(es.events) >= 4 and es.keepalives >= 1:
                return body
    finally:
        sock.close()
    raise AssertionError("no keep-alive after four events")


if __name__ == "__main__":
    run_all("streams", suffix=False)
