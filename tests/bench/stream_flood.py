"""stream_flood.py PORT GID READY: the load behind bench.sh's stream-budget
figures (tests/README.md, "make bench").  Holds 500 event streams of game
GID open from 50 loopback addresses (127.0.1.1 to 127.0.1.50, 10 each),
while one address, 127.0.0.66, keeps 320 stream requests going at once:
ten times its budget of 32 (--max-streams-per-addr).  Every refused one
(429) is sent again at once on the same keep-alive connection, as a
hostile client would (opening a fresh connection for each costs the server
far more: see tests/README.md).  Once the 500
streams are open and the attacker's first round was answered, writes a
line to READY; then runs until killed (SIGTERM), printing on exit how many
streams it held and how many refusals it got.  Only /usr/bin/python3."""
import selectors
import signal
import socket
import sys
import time
import resource

port, gid, ready = int(sys.argv[1]), sys.argv[2], sys.argv[3]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
path = "/v1/games/%s/events" % gid
request = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/x-ndjson\r\n\r\n"
           % path).encode()
sel = selectors.DefaultSelector()
stats = {"held": 0, "attacker_ok": 0, "refused": 0}
stop = False


def on_term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)


def connect(src, role):
    s = socket.socket()
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(request)
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, {"role": role, "src": src, "buf": b"", "head": False})


for a in range(1, 51):
    for _ in range(10):
        connect("127.0.1.%d" % a, "stream")
for _ in range(320):
    connect("127.0.0.66", "attacker")

answered = 0
wrote_ready = False
while not stop:
    for key, _ in sel.select(0.5):
        s, d = key.fileobj, key.data
        try:
            data = s.recv(65536)
        except (BlockingIOError, InterruptedError):
            continue
        except ConnectionError:
            data = b""
        if not data:
            sel.unregister(s)
            s.close()
            if d["role"] == "attacker":
                connect(d["src"], "attacker")
            continue
        if d["head"]:
            continue  # a stream's events and keep-alives
        d["buf"] += data
        if b"\r\n\r\n" not in d["buf"]:
            continue
        head, _, body = d["buf"].partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status == 200:
            d["head"] = True
            if d["role"] == "stream":
                stats["held"] += 1
            else:
                stats["attacker_ok"] += 1
                answered += 1
            continue
        if d["role"] == "stream":
            sys.exit("stream_flood: a stream was refused: %r" % d["buf"][:200])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v)
        if len(body) < length:
            continue  # the rest of the problem is on its way
        stats["refused"] += 1
        answered += 1
        d["buf"] = body[length:]
        try:
            s.sendall(request)  # again, at once
        except (BlockingIOError, ConnectionError):
            sel.unregister(s)
            s.close()
            connect(d["src"], "attacker")
    if not wrote_ready and stats["held"] == 500 and answered >= 320:
        with open(ready, "w") as f:
            f.write("ready\n")
        wrote_ready = True
        t0, refused0 = time.monotonic(), stats["refused"]
if wrote_ready:
    dt = time.monotonic() - t0
    print("  stream flood: %d streams held from 50 addresses; the attacker held %d "
          "of its 320 and was refused %d times (%.0f/s) while measured"
          % (stats["held"], stats["attacker_ok"], stats["refused"] - refused0,
             (stats["refused"] - refused0) / dt if dt else 0))
