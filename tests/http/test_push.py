"""test_push.py: Web Push (issue 32 goal 1, docs/notifications.md): the
server's VAPID key, players' push subscriptions and the bad input they
refuse; the pushes themselves, sent to npm's web-push-testing (a local
push service nobody here wrote, which checks the VAPID JWT and decrypts
aes128gcm: tests/push/, installed by tests/push/setup.sh at the version
its package-lock.json pins, started here), and to a receiver of our own
that keeps the raw bytes, decrypted apart with python3-cryptography
(RFC 8291 by hand: ECDH, HKDF, AES-128-GCM).  Real binary, real
database.  Usage: test_push.py BOARDD [test names...]"""
import base64
import http.server
import json
import os
import socket
import stat
import subprocess
import tempfile
import threading
import time
import urllib.request

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from harness import ROOT, check, free_port, note, run_all, test
from gamehelp import AA, actions, move, server, until_not_moot
from webhookhelp import BlackHole, iso_ms


def ms(t):
    """An RFC 3339 UTC timestamp with milliseconds, as unix ms."""
    return round(iso_ms(t) * 1000)

CONTACT = ("--push-contact", "mailto:ops@boardd.example")


def b64u(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def browser_keys():
    """A browser's subscription keys, as its PushSubscription holds them
    (KEYS keeps each private key by its p256dh)."""
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    KEYS[b64u(point)] = key
    return key, {"p256dh": b64u(point), "auth": b64u(os.urandom(16))}


def new_player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["token"]


def subscription(endpoint, keys=None, **extra):
    body = {"endpoint": endpoint, "expirationTime": None,
            "keys": keys or browser_keys()[1]}
    body.update(extra)
    return body


@test
def the_key_is_a_p256_point_kept_in_a_file(binary):
    """GET /v1/push/key: base64url of an uncompressed P-256 point on the
    curve, made at first start into a 0600 file beside the server key,
    the same after a restart; 404 while Web Push is off."""
    with server(binary) as s:
        r = s.request("GET", "/v1/push/key")
        check(r.status == 404 and r.json["type"] == "urn:boardd:problem:not-found",
              "push off: %r" % r)
        tok = new_player(s, "Off")
        r = s.request("POST", "/v1/players/me/push-subscriptions",
                      subscription("https://push.example.com/x"), token=tok)
        check(r.status == 404, "no subscription while push is off: %r" % r)
    with server(binary, extra=CONTACT) as s:
        r = s.request("GET", "/v1/push/key")
        check(r.status == 200, "key: %r" % r)
        raw = unb64u(r.json["key"])
        check(len(raw) == 65 and raw[0] == 4, "uncompressed point: %r" % raw)
        # on the curve: the library refuses a point that is not
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        first = r.json["key"]
        path = s.key + ".vapid"  # beside the server key file
        check(os.path.exists(path), "the key file %s" % path)
        check(stat.S_IMODE(os.stat(path).st_mode) == 0o600, "mode 0600")
        s.stop()
        s.start()
        r = s.request("GET", "/v1/push/key")
        check(r.json["key"] == first, "the same key after a restart")


@test
def subscriptions_are_added_listed_and_deleted(binary):
    """A browser's PushSubscription.toJSON() is taken as it is; the list
    shows no keys; a second subscription to the same endpoint replaces
    the first; at most 5; delete."""
    with server(binary, extra=CONTACT) as s:
        tok = new_player(s, "Ann")
        other = new_player(s, "Bob")
        r = s.request("POST", "/v1/players/me/push-subscriptions",
                      subscription("https://push.example.com/a", expirationTime=1893456000000,
                                   lang="fr", clock_low_seconds=600), token=tok)
        check(r.status == 201, "add: %r" % r)
        check(r.json["lang"] == "fr" and r.json["clock_low_seconds"] == 600, "settings: %r" % r)
        check(r.json["expiration_time"].startswith("2030-01-01"), "expiration: %r" % r)
        first = r.json["id"]
        r = s.request("POST", "/v1/players/me/push-subscriptions",
                      subscription("https://push.example.com/a"), token=tok)
        check(r.status == 201 and r.json["id"] != first and r.json["lang"] == "en",
              "the same endpoint again: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions", token=tok)
        subs = r.json["subscriptions"]
        check(len(subs) == 1 and subs[0]["id"] != first, "replaced, not added: %r" % r)
        check("keys" not in subs[0], "no keys shown")
        for i in range(4):
            r = s.request("POST", "/v1/players/me/push-subscriptions",
                          subscription("https://push.example.com/b%d" % i), token=tok)
            check(r.status == 201, "add %d: %r" % (i, r))
        r = s.request("POST", "/v1/players/me/push-subscriptions",
                      subscription("https://push.example.com/sixth"), token=tok)
        check(r.status == 409 and r.json["type"] == "urn:boardd:problem:push-subscriptions-full",
              "a sixth: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions", token=tok)
        ids = [x["id"] for x in r.json["subscriptions"]]
        check(len(ids) == 5, "five: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions", token=other)
        check(r.json["subscriptions"] == [], "another player's are not shown: %r" % r)
        r = s.request("DELETE", "/v1/players/me/push-subscriptions/" + ids[0], token=other)
        check(r.status == 404, "nobody deletes another's: %r" % r)
        r = s.request("DELETE", "/v1/players/me/push-subscriptions/" + ids[0], token=tok)
        check(r.status == 204, "delete: %r" % r)
        r = s.request("DELETE", "/v1/players/me/push-subscriptions/" + ids[0], token=tok)
        check(r.status == 404, "once: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions", token=tok)
        check(len(r.json["subscriptions"]) == 4, "four left: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions")
        check(r.status == 401, "a token is needed: %r" % r)


@test
def bad_subscriptions_are_refused_and_change_nothing(binary):
    """Bad base64url, a p256dh of the wrong length, compressed or off the
    curve, an auth not 16 bytes, a non-https endpoint, a private or
    loopback host (without --webhook-allow-private), unknown fields, bad
    settings: 400, and the list stays empty."""
    _, keys = browser_keys()
    point = bytearray(unb64u(keys["p256dh"]))
    off = bytearray(point)
    off[64] ^= 1
    compressed = bytes([2 + (point[64] & 1)]) + bytes(point[1:33])
    cases = [
        ("bad base64url", {"p256dh": keys["p256dh"][:-2] + "+/", "auth": keys["auth"]}, {}),
        ("p256dh of 64 bytes", {"p256dh": b64u(bytes(point[:64])), "auth": keys["auth"]}, {}),
        ("compressed p256dh", {"p256dh": b64u(compressed), "auth": keys["auth"]}, {}),
        ("p256dh off the curve", {"p256dh": b64u(bytes(off)), "auth": keys["auth"]}, {}),
        ("auth of 15 bytes", {"p256dh": keys["p256dh"], "auth": b64u(os.urandom(15))}, {}),
        ("auth of 17 bytes", {"p256dh": keys["p256dh"], "auth": b64u(os.urandom(17))}, {}),
        ("auth missing", {"p256dh": keys["p256dh"]}, {}),
        ("an unknown key", dict(keys, extra="x"), {}),
        ("lang de", keys, {"lang": "de"}),
        ("clock_low_seconds -1", keys, {"clock_low_seconds": -1}),
        ("expirationTime a string", keys, {"expirationTime": "soon"}),
        ("an unknown field", keys, {"topic": "x"}),
    ]
    endpoints = ["http://push.example.com/x", "ftp://push.example.com/x", "https://127.0.0.1/x",
                 "https://localhost:8443/x", "https://10.1.2.3/x", "https://[::1]/x",
                 "https://user:pw@push.example.com/x", "not a url"]
    with server(binary, extra=CONTACT) as s:
        tok = new_player(s, "Eve")
        for name, k, extra in cases:
            r = s.request("POST", "/v1/players/me/push-subscriptions",
                          subscription("https://push.example.com/x", keys=k, **extra), token=tok)
            check(r.status == 400 and r.json["type"] == "urn:boardd:problem:bad-request",
                  "%s: %r" % (name, r))
        for url in endpoints:
            r = s.request("POST", "/v1/players/me/push-subscriptions",
                          subscription(url, keys=keys), token=tok)
            check(r.status == 400, "%s: %r" % (url, r))
        r = s.request("POST", "/v1/players/me/push-subscriptions", {"keys": keys}, token=tok)
        check(r.status == 400 and "endpoint" in r.json["detail"], "no endpoint: %r" % r)
        r = s.request("GET", "/v1/players/me/push-subscriptions", token=tok)
        check(r.json["subscriptions"] == [], "nothing stored: %r" % r)
    with server(binary, extra=CONTACT + ("--webhook-allow-private",)) as s:
        tok = new_player(s, "Lab")
        r = s.request("POST", "/v1/players/me/push-subscriptions",
                      subscription("http://127.0.0.1:9/push", keys=keys), token=tok)
        check(r.status == 201, "a local push service with --webhook-allow-private: %r" % r)


# ---- the push services ----

FAST = ("--webhook-allow-private", "--webhook-retry-ms", "50")
PUSH_DIR = os.path.join(ROOT, "tests", "push")


def wait_for(cond, what, timeout=30):
    """Polls cond() until it is true (its value returned) or fails."""
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)


class WebPushTesting:
    """npm's web-push-testing on a loopback port of its own, a child of
    this test: subscribe() as a browser does, messages() what it
    decrypted for a subscription, expire() unsubscribes one (its push
    endpoint then answers 410)."""

    def __init__(self):
        subprocess.run(["sh", os.path.join(PUSH_DIR, "setup.sh")], check=True,
                       stdout=subprocess.DEVNULL)
        script = os.path.join(PUSH_DIR, "node_modules", "web-push-testing", "src",
                              "bin", "server.js")
        # It takes its port on the command line and names it in its
        # subscriptions' endpoints, so the port is picked here: free_port
        # holds it until node binds it (node sets SO_REUSEADDR), where a
        # port free a moment before could be taken first by another
        # process (a server of a suite running beside this one, bound to
        # port 0), and web-push-testing then exited (EADDRINUSE) while the
        # other answered on the port.  It counts as up once it has said
        # it listens and answers /status; one that exited all the same
        # starts again on another port.
        for _ in range(5):
            self.port = free_port()
            self.out = tempfile.TemporaryFile()
            self.proc = subprocess.Popen(["node", script, str(self.port)],
                                         stdout=self.out, stderr=subprocess.STDOUT)
            end = time.time() + 30
            state = self._up_or_exited()
            while state is None and time.time() < end:
                time.sleep(0.05)
                state = self._up_or_exited()
            if state == "up":
                return
            if state is None:
                self.proc.kill()
                self.proc.wait()
                check(False, "web-push-testing did not answer in 30 s on port %d: %r"
                      % (self.port, self._said()[-500:]))
            note("web-push-testing exited at its start on port %d (%s): again on another"
                 % (self.port, self._said().strip()[-300:]))
        check(False, "web-push-testing did not start in 5 tries: %s" % self._said())

    def _said(self):
        """What web-push-testing has printed so far (stdout and stderr)."""
        self.out.seek(0)
        return self.out.read().decode(errors="replace")

    def _up_or_exited(self):
        """"up" once it listens and answers, "exited" if it ended, else
        None (still starting)."""
        if self.proc.poll() is not None:
            return "exited"
        said = "Server running on port %d" % self.port in self._said()
        return "up" if said and self._up() else None

    def _post(self, path, body=None):
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path),
                                     data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                raw = r.read()
                return r.status, json.loads(raw) if raw.strip().startswith(b"{") else None
        except urllib.error.HTTPError as e:
            return e.code, None

    def _up(self):
        try:
            return self._post("/status")[0] == 200
        except OSError:
            return False

    def subscribe(self, server_key):
        """A subscription bound to server_key, as PushSubscription.toJSON()
        gives it, with the service's clientHash."""
        # it takes the flag as the text "true" (its own form encoding)
        st, body = self._post("/subscribe", {"userVisibleOnly": "true",
                                             "applicationServerKey": server_key})
        check(st == 200, "web-push-testing subscribe: %r %r" % (st, body))
        sub = body["data"]
        # its endpoint names "localhost"; the server's address check
        # (--webhook-allow-private) passes either way
        return sub

    def messages(self, sub):
        st, body = self._post("/get-notifications", {"clientHash": sub["clientHash"]})
        check(st == 200, "get-notifications: %r" % st)
        return [json.loads(m) for m in body["data"]["messages"]]

    def expire(self, sub):
        st, _ = self._post("/expire-subscription/" + sub["clientHash"])
        check(st in (200, 204), "expire: %r" % st)

    def close(self):
        self.proc.terminate()
        self.proc.wait(10)


class RawPush:
    """A push service of our own on loopback that keeps every request's
    headers and raw body; answer(n) gives the status of the n-th request
    (1-based), 201 by default."""

    def __init__(self, answer=None, port=None):
        self.answer = answer or (lambda n: 201)
        self.requests = []
        self.lock = threading.Lock()
        rec = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with rec.lock:
                    rec.requests.append(({k.lower(): v for k, v in self.headers.items()},
                                         self.path, body))
                    n = len(rec.requests)
                status = rec.answer(n)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port or 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def got(self):
        with self.lock:
            return list(self.requests)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def decrypt(ua_key, auth, body):
    """RFC 8291 §3.4 and RFC 8188 §2 by hand: the plaintext of one
    aes128gcm record sent to the browser key ua_key with auth secret
    auth."""
    salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    check(idlen == 65, "keyid is the sender's P-256 point")
    as_pub = body[21:21 + idlen]
    record = body[21 + idlen:]
    check(rs == 4096 and len(record) <= rs, "one record of rs 4096")
    as_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_pub)
    secret = ua_key.exchange(ec.ECDH(), as_key)
    ua_pub = ua_key.public_key().public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)
    ikm = HKDF(hashes.SHA256(), 32, auth,
               b"WebPush: info\0" + ua_pub + as_pub).derive(secret)
    cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\0").derive(ikm)
    nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\0").derive(ikm)
    plain = AESGCM(cek).decrypt(nonce, record, None).rstrip(b"\0")
    check(plain.endswith(b"\x02"), "the last record's padding delimiter 2")
    return plain[:-1]


def verify_vapid(header, server_key, audience):
    """The Authorization header: "vapid t=<JWT>, k=<key>", k the server's
    key, the JWT ES256-signed by it with aud the endpoint's origin, exp
    at most 24 h ahead and sub the contact.  Returns the claims."""
    check(header.startswith("vapid "), "vapid scheme: %r" % header)
    params = dict(p.strip().split("=", 1) for p in header[6:].split(","))
    check(params["k"] == server_key, "k is the server's key")
    head, claims, sig = params["t"].split(".")
    check(json.loads(unb64u(head)) == {"typ": "JWT", "alg": "ES256"}, "JWT header")
    raw = unb64u(sig)
    check(len(raw) == 64, "JOSE r || s")
    pub = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(server_key))
    try:
        pub.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                        int.from_bytes(raw[32:], "big")),
                   (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        check(False, "the JWT's signature does not verify")
    c = json.loads(unb64u(claims))
    check(c["aud"] == audience, "aud %r, not %r" % (c["aud"], audience))
    check(time.time() < c["exp"] <= time.time() + 86400, "exp within 24 h: %r" % c)
    check(c["sub"] == CONTACT[1], "sub: %r" % c)
    return c


def subscribe(s, token, sub, status=201, **extra):
    """POSTs subscription sub (PushSubscription.toJSON()) for token."""
    body = {"endpoint": sub["endpoint"], "expirationTime": None,
            "keys": {"p256dh": sub["keys"]["p256dh"], "auth": sub["keys"]["auth"]}}
    body.update(extra)
    r = s.request("POST", "/v1/players/me/push-subscriptions", body, token=token)
    check(r.status == status, "subscribe: %r" % r)
    return r.json


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def invite_game(s, at, bob_id):
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                         "seating": ["me", {"invite": bob_id}]}, token=at)
    check(r.status == 201, "create: %r" % r)
    return r.json["id"]


def join(s, gid, token):
    r = s.request("POST", "/v1/games/%s/join" % gid, token=token)
    check(r.status == 200 and r.json["status"] == "active", "join: %r" % r)
    return r.json


def to_act(s, gid, token):
    r = s.request("GET", "/v1/games/%s" % gid, token=token)
    check(r.status == 200, "game: %r" % r)
    return r.json["to_act"], r.json["seq"]


def play_once(s, gid, token):
    """The seat of token plays its first listed actions until it is no
    longer to act (an Agent Avenue turn may take several moves)."""
    seats, _ = to_act(s, gid, token)
    for _ in range(20):
        r = move(s, gid, token, actions(s, gid, token)[0])
        check(r.status == 201, "move: %r" % r)
        now, _ = to_act(s, gid, token)
        if now != seats:
            return
    check(False, "the turn did not pass")


def server_key(s):
    r = s.request("GET", "/v1/push/key")
    check(r.status == 200, "key: %r" % r)
    return r.json["key"]


def deliveries(s, state=None):
    """The push_deliveries rows (event type, state, attempts)."""
    rows = s.query("SELECT e.type, d.state, d.attempts FROM push_deliveries d "
                   "JOIN events e ON e.key = d.event_key ORDER BY d.key")
    return [r for r in rows if state is None or r[1] == state]


@test
def pushes_reach_web_push_testing_decrypted(binary):
    """An invitation, then a turn, are pushed to web-push-testing, which
    checks the VAPID JWT and decrypts them: the payloads name the game
    and the kind, in each subscription's language; game.started is not
    pushed, and a player with no subscription gets none."""
    wpt = WebPushTesting()
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            key = server_key(s)
            alice_id, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            _, ct = player(s, "Carol")
            a_sub, b_sub = wpt.subscribe(key), wpt.subscribe(key)
            subscribe(s, at, a_sub, lang="fr")
            subscribe(s, bt, b_sub)
            gid = invite_game(s, at, bob_id)
            got = wait_for(lambda: wpt.messages(b_sub), "Bob's invitation")
            check(got == [{"game_id": gid, "kind": "invited", "title": "You are invited",
                           "body": "A seat waits for you in game %s (%s)." % (gid, AA)}],
                  "the invitation, in English: %r" % got)
            join(s, gid, bt)
            seats, _ = to_act(s, gid, at)
            first, first_sub = (at, a_sub) if seats == [0] else (bt, b_sub)
            want = 1 if first is at else 2
            got = wait_for(lambda: len(wpt.messages(first_sub)) == want and
                           wpt.messages(first_sub), "the first turn")
            turn = got[-1]
            check(turn["kind"] == "turn" and turn["game_id"] == gid, "a turn: %r" % turn)
            if first is at:
                check(turn["title"] == "À vous de jouer", "in French: %r" % turn)
            else:
                check(turn["title"] == "Your turn", "in English: %r" % turn)
            # the other seat's turn next, pushed to its own subscription
            play_once(s, gid, first)
            other_sub = b_sub if first is at else a_sub
            other_want = 2 if other_sub is b_sub else 1
            got = wait_for(lambda: len(wpt.messages(other_sub)) == other_want and
                           wpt.messages(other_sub), "the second turn")
            check(got[-1]["kind"] == "turn", "the other's turn: %r" % got)
            check(all(m["kind"] != "game.started" for m in
                      wpt.messages(a_sub) + wpt.messages(b_sub)), "game.started is not pushed")
            wait_for(lambda: not deliveries(s, "pending"), "no delivery pending")
            check(len(deliveries(s, "delivered")) == 3, "three pushes: %r" % deliveries(s))
            r = s.request("GET", "/v1/players/me/push-subscriptions", token=ct)
            check(r.json["subscriptions"] == [], "Carol holds none")
    finally:
        wpt.close()


@test
def a_seat_taken_in_a_waiting_game_is_pushed(binary):
    """A three-seat game: Bob taking a seat while another stays open is
    pushed to Alice (seat.taken, in French) and shown on her account
    stream; Carol taking the last one starts the game (no seat.taken,
    game.started is not pushed)."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            _, at = player(s, "Alice")
            _, bt = player(s, "Bob")
            _, ct = player(s, "Carol")
            ua_key, keys = browser_keys()
            subscribe(s, at, {"endpoint": raw.url("/push/alice"), "keys": keys}, lang="fr")
            r = s.request("POST", "/v1/games", {"game": "quantum", "seats": 3,
                                                 "seating": ["me", "open", "open"]}, token=at)
            check(r.status == 201, "create: %r" % r)
            gid = r.json["id"]
            r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
            check(r.status == 200 and r.json["status"] == "waiting", "Bob joins: %r" % r)
            wait_for(lambda: raw.got(), "the seat.taken push")
            msg = json.loads(decrypt(ua_key, unb64u(keys["auth"]), raw.got()[0][2]))
            check(msg == {"game_id": gid, "kind": "seat.taken", "title": "Une place est prise",
                          "body": "Un joueur a pris une place dans la partie %s (quantum), "
                                  "qui attend d’autres joueurs." % gid}, "payload: %r" % msg)
            check(raw.got()[0][0]["urgency"] == "normal", "Urgency normal")
            rows = s.query("SELECT e.type, p.name FROM events e JOIN players p "
                           "ON p.key = e.player_key ORDER BY e.key")
            check([tuple(r) for r in rows] == [("seat.taken", "Alice")],
                  "one event, Alice's: %r" % rows)
            r = s.request("POST", "/v1/games/%s/join" % gid, token=ct)
            check(r.status == 200 and r.json["status"] == "active", "Carol joins: %r" % r)
            rows = s.query("SELECT type FROM events ORDER BY key")
            check("seat.taken" not in [r[0] for r in rows[1:]],
                  "the last seat starts the game instead: %r" % rows)
            wait_for(lambda: not deliveries(s, "pending"), "nothing pending")
            kinds = [json.loads(decrypt(ua_key, unb64u(keys["auth"]), b))["kind"]
                     for _, _, b in raw.got()]
            check("game.started" not in kinds and kinds[0] == "seat.taken",
                  "pushed: %r" % kinds)
    finally:
        raw.close()


@test
def a_quick_match_is_pushed_to_each_seeker(binary):
    """Two seeks pair (docs/matchmaking.md, "Quick match"): each seeker
    gets a seek.matched push naming the new game (Alice in French, Bob in
    English, urgency high), whichever seat moves first."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            _, at = player(s, "Alice")
            _, bt = player(s, "Bob")
            subs = {}
            for who, tok, lang in (("alice", at, "fr"), ("bob", bt, "en")):
                ua_key, keys = browser_keys()
                subs[who] = (ua_key, keys)
                subscribe(s, tok, {"endpoint": raw.url("/push/" + who), "keys": keys}, lang=lang)
            r = s.request("POST", "/v1/seeks", {"game": AA}, token=at)
            check(r.status == 201 and r.json["state"] == "open", "Alice seeks: %r" % r)
            r = s.request("POST", "/v1/seeks", {"game": AA}, token=bt)
            check(r.status == 201 and r.json["state"] == "matched", "Bob's pairs: %r" % r)
            gid = r.json["game_id"]

            def matched(who):
                ua_key, keys = subs[who]
                out = []
                for head, path, body in raw.got():
                    if path.endswith("/" + who):
                        m = json.loads(decrypt(ua_key, unb64u(keys["auth"]), body))
                        if m["kind"] == "seek.matched":
                            out.append((head, m))
                return out
            wait_for(lambda: matched("alice") and matched("bob"), "both seek.matched pushes")
            (head, msg), = matched("alice")
            check(msg == {"game_id": gid, "kind": "seek.matched", "title": "Partie rapide trouvée",
                          "body": "Votre recherche a abouti : la partie %s (%s) a commencé."
                                  % (gid, AA)}, "Alice's, in French: %r" % msg)
            check(head["urgency"] == "high", "Urgency high: %r" % head)
            (_, msg), = matched("bob")
            check(msg["title"] == "Quick match found" and msg["game_id"] == gid, "Bob's: %r" % msg)
    finally:
        raw.close()


@test
def a_clock_running_low_and_a_game_ended_are_pushed(binary):
    """A timed game (move_seconds 4, --clock-min-seconds 1): the seat to
    act gets the server's deadline.soon as a push ("Your clock is low",
    naming its deadline); a resignation ends the game: both players get
    game.finished."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST + ("--clock-min-seconds", "1")) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            keys = {}
            for tok, name in ((at, "alice"), (bt, "bob")):
                keys[name] = browser_keys()
                subscribe(s, tok, {"endpoint": raw.url("/push/" + name),
                                   "keys": keys[name][1]})
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                 "clock": {"move_seconds": 4},
                                                 "seating": ["me", {"invite": bob_id}]}, token=at)
            check(r.status == 201, "create: %r" % r)
            gid = r.json["id"]
            join(s, gid, bt)
            seats, _ = to_act(s, gid, at)
            name = "alice" if seats == [0] else "bob"

            def pushed(who):
                return [json.loads(decrypt(keys[who][0], unb64u(keys[who][1]["auth"]), b))
                        for _, path, b in raw.got() if path == "/push/" + who]

            got = wait_for(lambda: [m for m in pushed(name) if m["kind"] == "deadline.soon"],
                           "the deadline.soon push", 20)
            check(got[0]["game_id"] == gid and got[0]["title"] == "Your clock is low",
                  "clock low: %r" % got)
            check(got[0]["body"].startswith("Play in game %s (%s) before " % (gid, AA)),
                  "names the deadline: %r" % got)
            r = s.request("POST", "/v1/games/%s/resign" % gid, token=at)
            check(r.status == 201, "resign: %r" % r)
            for who in ("alice", "bob"):
                wait_for(lambda: [m for m in pushed(who) if m["kind"] == "game.finished"],
                         "game.finished to " + who)
            check(pushed("alice")[-1]["title"] == "Game over", "in English")
    finally:
        raw.close()


@test
def the_players_own_clock_threshold_is_pushed_unless_they_moved(binary):
    """clock_low_seconds 8 on a 20-second clock: each turn event writes a
    clock.low delivery due 8 s before its deadline (12 s into the turn).
    The seat to act first moves at once (well within those 12 s): its
    warning is skipped as stale, never sent; the
    other seat does not move: its warning is pushed (as a deadline.soon,
    naming the deadline), not before it was due."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST + ("--clock-min-seconds", "1")) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            keys = {}
            for tok, name in ((at, "alice"), (bt, "bob")):
                keys[name] = browser_keys()
                subscribe(s, tok, {"endpoint": raw.url("/push/" + name),
                                   "keys": keys[name][1]}, clock_low_seconds=8)
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                 "clock": {"move_seconds": 20},
                                                 "seating": ["me", {"invite": bob_id}]}, token=at)
            check(r.status == 201, "create: %r" % r)
            gid = r.json["id"]
            join(s, gid, bt)
            seats, _ = to_act(s, gid, at)
            (first, fname), (second, sname) = (((at, "alice"), (bt, "bob")) if seats == [0]
                                               else ((bt, "bob"), (at, "alice")))
            play_once(s, gid, first)

            def low(name):
                return s.query("SELECT d.state, d.next_ms, coalesce(d.last_ms, 0), "
                               "coalesce(d.last_error, ''), e.data FROM push_deliveries d "
                               "JOIN events e ON e.key = d.event_key JOIN players p ON "
                               "p.key = e.player_key WHERE d.kind = 'clock.low' AND "
                               "p.name = ?", (name.capitalize(),))

            got = wait_for(lambda: [r for r in low(sname) if r[0] == "delivered"],
                           "the second seat's clock.low", 40)
            _, _, sent, _, data = got[0]
            deadline = json.loads(data)["deadline"]
            check(sent >= ms(deadline) - 8000,
                  "sent once due, 8 s before the deadline: %r" % (got,))
            msgs = [json.loads(decrypt(keys[sname][0], unb64u(keys[sname][1]["auth"]), b))
                    for _, path, b in raw.got() if path == "/push/" + sname]
            check(any(m["kind"] == "deadline.soon" and deadline[:10] in m["body"]
                      for m in msgs), "pushed as a deadline.soon naming it: %r" % msgs)
            first_low = wait_for(lambda: [r for r in low(fname) if r[0] != "pending"][:1],
                                 "the first seat's clock.low", 20)
            check(first_low[0][0] == "skipped" and first_low[0][3] == "stale",
                  "skipped as stale: %r" % first_low)
            check(not any(path == "/push/" + fname and
                          json.loads(decrypt(keys[fname][0], unb64u(keys[fname][1]["auth"]),
                                             b))["kind"] == "deadline.soon"
                          for _, path, b in raw.got()),
                  "nothing about the clock sent to the seat that moved")
    finally:
        raw.close()


@test
def a_raw_push_decrypts_apart_and_carries_rfc_8030_headers(binary):
    """Our own receiver keeps one push's bytes: python3-cryptography
    decrypts it by RFC 8291 by hand; TTL 12 h, Urgency high for a turn
    (normal for an invitation), Topic the game id, Content-Encoding
    aes128gcm, and a VAPID Authorization the server's key verifies, aud
    the endpoint's origin."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            key = server_key(s)
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            ua_key, keys = browser_keys()
            subscribe(s, bt, {"endpoint": raw.url("/push/bob"), "keys": keys}, lang="fr")
            gid = invite_game(s, at, bob_id)
            wait_for(lambda: len(raw.got()) == 1, "the invitation")
            join(s, gid, bt)
            seats, _ = to_act(s, gid, at)
            if seats == [0]:
                play_once(s, gid, at)
            wait_for(lambda: len(raw.got()) == 2, "Bob's turn")
            for (hdrs, path, body), kind, urgency in zip(raw.got(), ("invited", "turn"),
                                                        ("normal", "high")):
                check(path == "/push/bob", "the endpoint's path: %r" % path)
                check(hdrs["ttl"] == "43200", "TTL 12 h: %r" % hdrs)
                check(hdrs["urgency"] == urgency, "Urgency %s: %r" % (urgency, hdrs))
                check(hdrs["topic"] == gid, "Topic the game id: %r" % hdrs)
                check(hdrs["content-encoding"] == "aes128gcm", "aes128gcm: %r" % hdrs)
                check(hdrs["content-type"] == "application/octet-stream", "octet-stream")
                verify_vapid(hdrs["authorization"], key, "http://127.0.0.1:%d" % raw.port)
                msg = json.loads(decrypt(ua_key, unb64u(keys["auth"]), body))
                check(msg["kind"] == kind and msg["game_id"] == gid, "payload: %r" % msg)
                check(len(json.dumps(msg).encode()) < 3000, "under 3,000 bytes")
            check(msg["title"] == "À vous de jouer", "French: %r" % msg)
    finally:
        raw.close()


@test
def failing_push_services_get_retries_and_nothing_is_lost(binary):
    """A push service that answers 500 and 503 gets the push again until
    it takes it (once); one that refuses connections while the server
    restarts gets it after; one that never answers holds no other
    subscription's push back."""
    flaky = RawPush(answer=lambda n: 500 if n == 1 else 503 if n == 2 else 201)
    hole = BlackHole()
    down_port = free_port()  # nothing listens yet: connections refused
    try:
        with server(binary, extra=CONTACT + FAST + ("--webhook-timeout-ms", "60000")) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            ua_key, keys = browser_keys()
            _, other_keys = browser_keys()
            subscribe(s, bt, {"endpoint": hole.url("/push/hole"), "keys": browser_keys()[1]})
            subscribe(s, bt, {"endpoint": flaky.url("/push/flaky"), "keys": keys})
            subscribe(s, bt, {"endpoint": "http://127.0.0.1:%d/push/down" % down_port,
                              "keys": other_keys})
            gid = invite_game(s, at, bob_id)
            # the hanging one holds a connection; the flaky one is served
            wait_for(lambda: len(flaky.got()) == 3, "three attempts at the flaky one")
            check(hole.total >= 1 and hole.open >= 1,
                  "the black hole still holds its attempt (%d open)" % hole.open)
            msg = json.loads(decrypt(ua_key, unb64u(keys["auth"]), flaky.got()[-1][2]))
            check(msg["kind"] == "invited" and msg["game_id"] == gid, "payload: %r" % msg)
            time.sleep(0.5)
            check(len(flaky.got()) == 3, "delivered once, not again")
            rows = s.query("SELECT d.state, d.attempts, s.endpoint FROM push_deliveries d "
                           "JOIN push_subscriptions s ON s.key = d.sub_key")
            down = [r for r in rows if r[2].endswith("/push/down")]
            check(len(down) == 1 and down[0][0] == "pending" and down[0][1] >= 1,
                  "the refused one is pending, retried: %r" % rows)
            s.stop()
            s.start()
            late = RawPush(port=down_port)
            try:
                wait_for(lambda: late.got(), "the refused push after the restart")
                msg = json.loads(decrypt_with(other_keys, late.got()[0][2]))
                check(msg["kind"] == "invited", "payload: %r" % msg)
            finally:
                late.close()
    finally:
        flaky.close()
        hole.close()


KEYS = {}  # p256dh -> the browser's private key (browser_keys)


def decrypt_with(keys, body):
    return decrypt(KEYS[keys["p256dh"]], unb64u(keys["auth"]), body)


@test
def a_410_or_404_deletes_the_subscription(binary):
    """web-push-testing answers 410 once a subscription expired: the
    server deletes it (and pushes there no more); a 404 does the same."""
    wpt = WebPushTesting()
    gone = RawPush(answer=lambda n: 404)
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            key = server_key(s)
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            sub = wpt.subscribe(key)
            kept = subscribe(s, bt, sub)
            subscribe(s, bt, {"endpoint": gone.url("/push/404"), "keys": browser_keys()[1]})
            wpt.expire(sub)
            invite_game(s, at, bob_id)
            wait_for(lambda: s.request("GET", "/v1/players/me/push-subscriptions",
                                       token=bt).json["subscriptions"] == [],
                     "both subscriptions deleted")
            check(len(gone.got()) == 1, "the 404 was asked once: %r" % gone.got())
            check(wpt.messages(sub) == [], "nothing decrypted for the expired one")
            check(deliveries(s) == [], "its deliveries went with it: %r" % deliveries(s))
            check(kept["id"], "it had been added")
    finally:
        wpt.close()
        gone.close()


def open_stream(s, gid, token):
    """Opens GET /v1/games/{id}/events with token and reads its head: a
    live stream until the socket is closed."""
    sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
    sock.sendall(("GET /v1/games/%s/events HTTP/1.1\r\nHost: x\r\n"
                  "Authorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n"
                  % (gid, token)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        check(chunk, "the stream's head")
        head += chunk
    check(head.startswith(b"HTTP/1.1 200"), "stream: %r" % head[:80])
    return sock


def open_streams(s):
    """GET /metrics' boardd_open_streams."""
    r = s.request("GET", "/metrics")
    check(r.status == 200, "metrics: %r" % r)
    for line in r.raw.decode().splitlines():
        if line.startswith("boardd_open_streams "):
            return int(float(line.split()[1]))
    check(False, "no boardd_open_streams in /metrics")


@test
def nothing_is_pushed_while_the_player_is_live_on_the_game(binary):
    """While Bob holds an event stream on the game, his turn there is not
    pushed (the delivery is skipped); once he closed it, his next turn
    is.  The deal is the server's, and some deals end an Agent Avenue
    game within the first moves played here (a catch; a clean-clone run
    met one: 'game.finished' pushed in place of the turn): such a game
    is played again, on a server of its own, up to five times."""
    until_not_moot(lambda: live_then_not(binary),
                   "the deal ended the game within its first moves")


def live_then_not(binary):
    """nothing_is_pushed_while_the_player_is_live_on_the_game's scenario
    on a new server and game: True once checked, False if the game ended
    before its last move (nothing checked then is left unchecked: the
    caller plays it again)."""
    raw = RawPush()
    try:
        with server(binary, extra=CONTACT + FAST) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            ua_key, keys = browser_keys()
            gid = invite_game(s, at, bob_id)
            join(s, gid, bt)
            subscribe(s, bt, {"endpoint": raw.url("/push/bob"), "keys": keys})

            def over():
                r = s.request("GET", "/v1/games/%s" % gid, token=at)
                check(r.status == 200, "game: %r" % r)
                return r.json["status"] != "active"

            seats, _ = to_act(s, gid, at)
            if seats != [0]:  # Bob first: he plays, so Alice is to act
                play_once(s, gid, bt)
                if over():
                    return False
            live = open_stream(s, gid, bt)
            check(open_streams(s) == 1, "Bob's stream is open")
            try:
                play_once(s, gid, at)  # Bob's turn, while he is live
                if over():
                    return False
                wait_for(lambda: deliveries(s, "skipped"), "the skipped delivery")
                check(raw.got() == [], "nothing pushed while live: %r" % raw.got())
                play_once(s, gid, bt)
                if over():
                    return False
            finally:
                live.close()
            # the server sees the stream's client gone (hub.h: within
            # HUB_HANGUP_POLL_MS), and the stream ends
            wait_for(lambda: open_streams(s) == 0, "the stream to end")
            play_once(s, gid, at)  # Bob's turn again, not live
            if over():
                return False
            wait_for(lambda: raw.got(), "Bob's turn, pushed")
            msg = json.loads(decrypt(ua_key, unb64u(keys["auth"]), raw.got()[0][2]))
            check(msg["kind"] == "turn" and msg["game_id"] == gid, "payload: %r" % msg)
            # the receiver has it before the server records the answer (a
            # clean-clone run read it still pending, twice)
            wait_for(lambda: not deliveries(s, "pending"), "the push recorded")
            check([r[1] for r in deliveries(s)] == ["skipped", "delivered"],
                  "skipped, then delivered: %r" % deliveries(s))
            return True
    finally:
        raw.close()


if __name__ == "__main__":
    run_all("push-http")
