"""streams.py: the one reader of HTTP bodies and event streams that every
HTTP suite uses.

A server cuts its chunks wherever libmicrohttpd's buffer ends, not at
event boundaries, so a reader must never hand back half an event.  Two
incremental parsers, each fed whatever bytes arrived:

- Dechunker: RFC 9112 §7.1 chunked transfer coding -> body bytes, and
  whether the last chunk came;
- EventStream: a stream's body -> whole events only, for Server-Sent
  Events (WHATWG HTML, "Parsing an event stream") and NDJSON (one JSON
  object a line), with keep-alives (an SSE comment line, an empty NDJSON
  line) counted and never taken for events.

tests/http/test_streams.py feeds both the same streams cut at every byte
offset and checks that the events never change.
"""
import json


class Dechunker:
    """Chunked transfer coding, decoded as bytes arrive.

    feed(raw) -> the body bytes that became whole (possibly b"").
    `ended` once the last (zero-size) chunk has come; bytes after it are
    ignored (trailer fields are not read).  Linear in the bytes fed: a
    stream of megabytes must not slow its reader down until the server
    gives up on it."""

    def __init__(self):
        self.raw = bytearray()
        self.ended = False

    def feed(self, data):
        self.raw += data
        out, pos = [], 0
        while not self.ended:
            i = self.raw.find(b"\r\n", pos)
            if i < 0:
                break
            size = int(bytes(self.raw[pos:i]).split(b";")[0].strip(), 16)
            if size == 0:
                self.ended = True
                pos = len(self.raw)
                break
            if len(self.raw) < i + 2 + size + 2:
                break
            out.append(bytes(self.raw[i + 2:i + 2 + size]))
            pos = i + 2 + size + 2
        del self.raw[:pos]
        return b"".join(out)


class EventStream:
    """Whole events of an event stream body, fed in pieces.

    ctype: the response's Content-Type ("application/x-ndjson" for NDJSON,
    anything else is read as text/event-stream).
    feed(data) -> the list of events that became whole.  An event is a
    dict: "id" (SSE: the id field as an int, or None; NDJSON: the object's
    "seq", or None), "event" (SSE: the event field, "message" if none;
    NDJSON: the object's "event"), "data" (the parsed JSON), "raw" (its
    bytes as sent, with the blank line or newline that ended it).
    Also kept: `events` (all so far), `keepalives` (SSE comment-only
    blocks, empty NDJSON lines), `retry` (the last SSE retry field, an
    int, or None), and `whole`: every byte of the whole blocks or lines so
    far except keep-alives, in order (an SSE retry block included), so a
    body can be compared or re-parsed with parse()."""

    def __init__(self, ctype):
        self.ndjson = "ndjson" in (ctype or "")
        self.buf = bytearray()  # bytes not yet part of a whole event
        self.pos = 0            # where the next block or line starts in buf
        self.events = []
        self.keepalives = 0
        self.retry = None
        self._whole = bytearray()

    @property
    def whole(self):
        return bytes(self._whole)

    def feed(self, data):
        """Linear in the bytes fed (bytearrays and an offset, no copy of
        what is left per event): a reader that slows down as its stream
        grows makes the server's send wait, and libmicrohttpd closes a
        connection that cannot send for --timeout."""
        self.buf += data
        new = []
        while True:
            ev = self._ndjson_line() if self.ndjson else self._sse_block()
            if ev is False:
                break
            if ev is not None:
                new.append(ev)
        del self.buf[:self.pos]
        self.pos = 0
        self.events += new
        return new

    # NDJSON: a line ends with LF; an empty line is a keep-alive.
    def _ndjson_line(self):
        i = self.buf.find(b"\n", self.pos)
        if i < 0:
            return False
        raw = bytes(self.buf[self.pos:i + 1])
        self.pos = i + 1
        if not raw.strip():
            self.keepalives += 1
            return None
        obj = json.loads(raw)
        self._whole += raw
        return {"id": obj.get("seq"), "event": obj.get("event"), "data": obj,
                "raw": raw}

    # SSE: lines end with CRLF, LF or CR; a blank line ends a block.
    def _sse_block(self):
        lines, pos = [], self.pos
        while True:
            cut = _line_end(self.buf, pos)
            if cut is None:
                return False  # no blank line yet: the block is not whole
            end, nxt = cut
            line = bytes(self.buf[pos:end])
            pos = nxt
            if line == b"":
                break
            lines.append(line.decode("utf-8"))
        raw = bytes(self.buf[self.pos:pos])
        self.pos = pos
        fields, data, comment_only = {}, [], True
        for line in lines:
            if line.startswith(":"):
                continue
            comment_only = False
            name, colon, value = line.partition(":")
            if colon and value.startswith(" "):
                value = value[1:]
            if name == "data":
                data.append(value)
            elif name in ("event", "id"):
                fields[name] = value
            elif name == "retry" and value.isdigit():
                self.retry = int(value)
        if comment_only:
            if lines:
                self.keepalives += 1
            return None
        self._whole += raw
        if not data:
            return None  # a block of fields only (retry): no event
        ident = fields.get("id")
        return {"id": int(ident) if ident is not None and ident.isdigit() else None,
                "event": fields.get("event", "message"),
                "data": json.loads("\n".join(data)), "raw": raw}


def _line_end(buf, pos):
    """(end of the line starting at pos, start of the next) or None while
    the line's end has not come (a CR at the buffer's end may be the first
    half of a CRLF)."""
    lf = buf.find(b"\n", pos)
    cr = buf.find(b"\r", pos)
    if cr < 0 or (0 <= lf < cr):
        return None if lf < 0 else (lf, lf + 1)
    if cr + 1 >= len(buf):
        return None
    return (cr, cr + 2) if buf[cr + 1:cr + 2] == b"\n" else (cr, cr + 1)


def parse(ctype, body):
    """Every whole event of a complete body (a list of EventStream events);
    a partial last event is not one."""
    es = EventStream(ctype)
    es.feed(body)
    return es.events
