"""test_push.py: Web Push (issue 32 goal 1, docs/notifications.md): the
server's VAPID key, players' push subscriptions and the bad input they
refuse.  Real binary, real database.  Usage: test_push.py BOARDD [test
names...]"""
import base64
import os
import stat

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization

from harness import check, run_all, test
from gamehelp import server

CONTACT = ("--push-contact", "mailto:ops@boardd.example")


def b64u(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def browser_keys():
    """A browser's subscription keys, as its PushSubscription holds them."""
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
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


if __name__ == "__main__":
    run_all("push")
