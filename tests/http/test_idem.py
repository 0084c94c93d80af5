"""test_idem.py: Idempotency-Key against strangers and against a stolen
database file (issue 9 item 3).  Real binary, real SQLite file.
Usage: test_idem.py BOARDD [test names...]

The crypto helpers call libsodium itself (ctypes), the library the server
uses, so what they derive is what an attacker holding the file would."""
import ctypes
import ctypes.util
import hashlib
import json
import os
import sqlite3
import string
import time
import uuid

from gamehelp import AA, server
from harness import ROOT, check, run_all, sqlite_only, test

SODIUM = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
check(SODIUM.sodium_init() >= 0, "sodium_init")
NONCE, MAC = 24, 16  # crypto_secretbox_NONCEBYTES, _MACBYTES


def secretbox_open(blob, key):
    """The plaintext of nonce+box under key, or None."""
    if len(blob) < NONCE + MAC:
        return None
    out = ctypes.create_string_buffer(len(blob) - NONCE - MAC + 1)
    box = blob[NONCE:]
    rc = SODIUM.crypto_secretbox_open_easy(out, box, ctypes.c_ulonglong(len(box)),
                                           blob[:NONCE], key)
    return out.raw[:len(blob) - NONCE - MAC] if rc == 0 else None


def secretbox_seal(plain, key):
    nonce = os.urandom(NONCE)
    out = ctypes.create_string_buffer(len(plain) + MAC)
    SODIUM.crypto_secretbox_easy(out, plain, ctypes.c_ulonglong(len(plain)), nonce, key)
    return nonce + out.raw


def old_box_key(key):
    """How the server derived a stored answer's key before: from the
    Idempotency-Key alone (crypto_generichash keyed by a constant)."""
    return hashlib.blake2b(key.encode(), digest_size=32,
                           key=b"boardd idempotency response key").digest()


def parts(*xs):
    return b"".join((x or "").encode() + b"\0" for x in xs)


def new_box_key(token, method, path, key):
    """The documented derivation (src/service/idem.c): BLAKE2b-256 of the
    caller's token (or nothing), method, path and key."""
    return hashlib.blake2b(parts("boardd idempotency answer v2", token, method, path, key),
                           digest_size=32).digest()


SHORT_KEYS = [a for a in string.printable[:94]] + \
             [a + b for a in string.printable[:94] for b in string.printable[:94]]


def records(s):
    return s.query("SELECT scope, response FROM idempotency")


def is_rule_refusal(r):
    return r.status == 400 and "128" in (r.json or {}).get("detail", "")


# ---- a stranger with the same key ----

@test
def a_stranger_replaying_an_anonymous_create_key_gets_no_tokens(binary):
    """Before: anyone who sent create-000000001 again with the same body
    got the first caller's seat tokens.  A key that short is now refused
    without a token, so nothing is recorded to hand out."""
    with server(binary) as s:
        key = {"Idempotency-Key": "create-000000001"}
        body = {"game": AA, "seats": 2}
        first = s.request("POST", "/v1/games", body, headers=key)
        stranger = s.request("POST", "/v1/games", body, headers=key)
        mine = [x["token"] for x in (first.json or {}).get("seats", [])]
        leaked = [t for t in mine if t in stranger.raw.decode()]
        check(not leaked, "the stranger got the first caller's tokens: %r" % stranger)
        check(is_rule_refusal(first) and is_rule_refusal(stranger),
              "a guessable anonymous key is refused: %r / %r" % (first, stranger))
        check(s.request("GET", "/v1/games").json["games"] == [], "nothing created")


@test
def a_stranger_replaying_an_anonymous_join_key_gets_no_token(binary):
    """Before: a join (no body) under a guessable key replayed the seat
    token to whoever sent the key next."""
    with server(binary) as s:
        gid = s.request("POST", "/v1/games", {"game": AA, "seating": ["token", "open"]}).json["id"]
        key = {"Idempotency-Key": "join-key-00000001"}
        path = "/v1/games/%s/join" % gid
        first = s.request("POST", path, raw=b"", headers=key)
        stranger = s.request("POST", path, raw=b"", headers=key)
        tok = (first.json or {}).get("token")
        check(not tok or tok not in stranger.raw.decode(),
              "the stranger got the first joiner's token: %r" % stranger)
        check(is_rule_refusal(first) and is_rule_refusal(stranger),
              "a guessable anonymous key is refused: %r / %r" % (first, stranger))
        # with a proper key the joiner can retry, and a stranger without
        # the key has nothing to send
        good = {"Idempotency-Key": str(uuid.uuid4())}
        a = s.request("POST", path, raw=b"", headers=good)
        b = s.request("POST", path, raw=b"", headers=good)
        check(a.status == b.status == 200 and a.json == b.json and "token" in a.json,
              "the retry replays: %r / %r" % (a, b))
        check(b.headers.get("idempotent-replayed") == "true", "marked as a replay")


@test
def a_key_sent_with_a_token_is_that_tokens_alone(binary):
    """A player's short key replays to that player only: another player,
    or nobody, sending the same key and body gets a request of its own
    (or the anonymous refusal), never the first answer."""
    with server(binary) as s:
        p = s.request("POST", "/v1/players", {"name": "P"}).json["token"]
        q = s.request("POST", "/v1/players", {"name": "Q"}).json["token"]
        key = {"Idempotency-Key": "create-000000001"}
        body = {"game": AA, "seating": ["me", "token"]}
        mine = s.request("POST", "/v1/games", body, token=p, headers=key)
        again = s.request("POST", "/v1/games", body, token=p, headers=key)
        check(mine.status == again.status == 201 and mine.json == again.json,
              "the player's retry replays: %r / %r" % (mine, again))
        theirs = s.request("POST", "/v1/games", body, token=q, headers=key)
        check(theirs.status == 201 and theirs.headers.get("idempotent-replayed") is None and
              theirs.json["id"] != mine.json["id"], "another player's own game: %r" % theirs)
        check(mine.json["seats"][1]["token"] not in theirs.raw.decode(), "no token of P's")
        anon = s.request("POST", "/v1/games", body, headers=key)
        check(is_rule_refusal(anon), "anonymous, the short key is refused: %r" % anon)
        # joining: the same key by two players, two seats
        gid = s.request("POST", "/v1/games", {"game": "quantum", "seats": 3,
                                              "seating": ["token", "open", "open"]}).json["id"]
        jk = {"Idempotency-Key": "j"}
        a = s.request("POST", "/v1/games/%s/join" % gid, raw=b"", token=p, headers=jk)
        b = s.request("POST", "/v1/games/%s/join" % gid, raw=b"", token=q, headers=jk)
        check(a.status == b.status == 200 and a.json["seat"] != b.json["seat"] and
              b.headers.get("idempotent-replayed") is None, "two joins: %r / %r" % (a, b))


@test
def the_anonymous_key_rule(binary):
    """Without a token a key must hold 128 bits as written: a UUID, 32 hex
    digits, or 22 base64url characters.  With a token that the endpoint
    does not otherwise check (creating a player or a game), a short key
    needs a player's token."""
    with server(binary) as s:
        cases = [(str(uuid.uuid4()), 201), (uuid.uuid4().hex, 201), ("Z" * 22, 201),
                 ("abc_DEF-123" * 2, 201), (uuid.uuid4().hex[:31], 400),
                 ("0123456789abcdef0123456789abcdef"[:22] + "-" * 9, 400),
                 ("Z" * 21, 400), ("create-000000001", 400), ("k" + "." * 40, 400),
                 ("contract-player-0001", 400)]
        for i, (key, want) in enumerate(cases):
            r = s.request("POST", "/v1/players", {"name": "n%d" % i},
                          headers={"Idempotency-Key": key})
            check(r.status == want, "key %r: %r" % (key, r))
            if want == 400:
                check(is_rule_refusal(r) and "UUID" in r.json["detail"], "the rule is named: %r" % r)
        p = s.request("POST", "/v1/players", {"name": "P"}).json["token"]
        forged = "A" * 43  # shaped like a token, issued to nobody
        for path, body in (("/v1/players", {"name": "X"}), ("/v1/games", {"game": AA})):
            r = s.request("POST", path, body, token=forged, headers={"Idempotency-Key": "k"})
            check(r.status == 400 and "player" in r.json["detail"], "%s, forged token: %r" % (path, r))
            a = s.request("POST", path, body, token=p, headers={"Idempotency-Key": "k"})
            b = s.request("POST", path, body, token=p, headers={"Idempotency-Key": "k"})
            check(a.status == b.status == 201 and a.json == b.json, "%s, a player's token: %r" % (path, b))


# ---- the database file ----

@test
def the_database_file_yields_no_token(binary):
    """Before: an answer recorded under a one- or two-character key (with a
    player token) was opened from the file by trying every short key.
    Now every record opens only with the caller's token (or a 128-bit
    key), and no token is in the file in the clear."""
    with server(binary) as s:
        p = s.request("POST", "/v1/players", {"name": "P"}).json["token"]
        made = s.request("POST", "/v1/games", {"game": AA, "seating": ["me", "token"]},
                         token=p, headers={"Idempotency-Key": "k"})
        check(made.status == 201, "create: %r" % made)
        seat_token = made.json["seats"][1]["token"]
        newp = s.request("POST", "/v1/players", {"name": "Q"}, token=p,
                         headers={"Idempotency-Key": "zz"})
        check(newp.status == 201, "player: %r" % newp)
        secrets = [seat_token, newp.json["token"], p]
        rows = records(s)
        check(len(rows) == 2, "two records: %d" % len(rows))
        opened = []
        for scope, blob in rows:
            for key in SHORT_KEYS:
                plain = secretbox_open(blob, old_box_key(key))
                if plain is None:
                    for path in ("/v1/games", "/v1/players"):
                        plain = secretbox_open(blob, new_box_key(None, "POST", path, key))
                        if plain is not None:
                            break
                if plain is not None:
                    opened.append((key, plain[:80]))
                    break
        check(not opened, "records opened from the file alone: %r" % opened)
        # the record does open with what only the caller holds
        want = hashlib.sha256(parts(p, "POST", "/v1/games", "k")).digest()
        blob = dict(rows).get(want)
        check(blob is not None, "the create's record is where the caller's scope says")
        plain = secretbox_open(blob, new_box_key(p, "POST", "/v1/games", "k"))
        check(plain is not None and seat_token.encode() in plain,
              "with the caller's token it opens (the check above is not vacuous)")
        s.stop()
        raw = s.store_bytes()  # the file and its WAL, or PostgreSQL's files
        check(not [t for t in secrets if t.encode() in raw], "a token in the clear in the file")
        s.start()


def old_database(path, now_ms):
    """A file as the schema was before sql/0004 (migrations 1-2), holding
    one answer recorded the old way: an anonymous POST /v1/players under
    key K, encrypted under a key derived from K alone."""
    con = sqlite3.connect(path)
    for name in ("0001_init.sql", "0002_players.sql"):
        con.executescript(open(os.path.join(ROOT, "sql", name)).read())
    key = "old-record-000000000000001"
    body = json.dumps({"name": "Fay"}, separators=(",", ":"), sort_keys=True)
    scope = hashlib.sha256(parts(None, "POST", "/v1/players", key)).digest()
    request = hashlib.sha256(parts(body, None)).digest()
    answer = (b'{"id":"00000000000000aa","name":"Fay","created":"2026-01-01T00:00:00.000Z",'
              b'"token":"' + b"T" * 43 + b'"}')
    con.execute("INSERT INTO idempotency VALUES (?, ?, 201, ?, ?)",
                (scope, request, secretbox_seal(answer, old_box_key(key)), now_ms))
    con.execute("PRAGMA application_id = %d" % 0x62726464)
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    return key, body


@test
def answers_recorded_the_old_way_are_dropped_not_served(binary):
    """A file from before: the server opens it, the old answer leaves the
    file, and a retry of that request is told it was carried out (422)
    rather than a 500 or a second player."""
    sqlite_only("a SQLite file of an older schema (migrations 1-2) upgraded in place")
    with server(binary) as s:
        s.stop()
        os.remove(s.db)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(s.db + suffix):
                os.remove(s.db + suffix)
        key, body = old_database(s.db, int(time.time() * 1000))
        s.start()
        r = s.request("POST", "/v1/players", json.loads(body), headers={"Idempotency-Key": key})
        check(r.status == 422 and "upgraded" in r.json["detail"], "the old record's retry: %r" % r)
        check([blob for _, blob in records(s)] == [b""], "the old answer is gone")
        fresh = s.request("POST", "/v1/players", {"name": "G"},
                          headers={"Idempotency-Key": str(uuid.uuid4())})
        check(fresh.status == 201, "keys work: %r" % fresh)


if __name__ == "__main__":
    run_all("idem")
