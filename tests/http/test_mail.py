"""test_mail.py: email over SMTP (issue 32 goal 2, docs/notifications.md,
"Email"): a player's address, confirmed by a single-use code mailed to
it; "your turn" and the other event mails; the RFC 8058 one-click
unsubscribe; rate limits; bad input refused, changing nothing; SMTP
servers that refuse or hang.  The mails go to Debian's python3-aiosmtpd
(a local SMTP server nobody here wrote), started by the test on a port
of its own, and are read with Python's email package.  Real binary, real
database.  Usage: test_mail.py BOARDD [test names...]"""
import datetime
import email
import email.policy
import os
import re
import tempfile
import socket
import threading
import time
import urllib.parse
import zoneinfo

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from harness import check, free_port, run_all, test
from gamehelp import AA, actions, move, over, server, until_not_moot
from testclock import TestClock

FAST = ("--webhook-retry-ms", "50")


def wait_for(cond, what, timeout=30):
    """Polls cond() until it is true (its value returned) or fails."""
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)


class Sink:
    """aiosmtpd on a loopback port: keeps each message (envelope sender,
    recipients, parsed message); refuse = an SMTP reply to give DATA
    instead of accepting (e.g. "451 4.3.0 try later")."""

    def __init__(self, port=None, login=None):
        """login: (user, password) the server requires (AUTH over plain
        SMTP, allowed on loopback here); self.logins the ones tried."""
        self.got = []
        self.raw = []
        self.logins = []
        self.refuse = None
        self.lock = threading.Lock()
        self.port = port or free_port()
        kw = {}
        if login:
            def authenticator(server, session, envelope, mechanism, data):
                tried = (data.login.decode(), data.password.decode())
                self.logins.append((mechanism, tried))
                return AuthResult(success=tried == login)
            kw = {"auth_required": True, "auth_require_tls": False,
                  "authenticator": authenticator}
        self.ctl = Controller(self, hostname="127.0.0.1", port=self.port, **kw)
        self.ctl.start()

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return self.refuse
        raw = envelope.original_content or envelope.content
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        with self.lock:
            self.raw.append(raw)
            self.got.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 OK"

    def messages(self, to=None):
        with self.lock:
            return [m for (_, rcpt, m) in self.got if to is None or to in rcpt]

    def stop(self):
        self.ctl.stop()


def mail_flags(sink_port, *more):
    return ("--smtp-url", "smtp://127.0.0.1:%d" % sink_port,
            "--mail-from", "boardd@boardd.example",
            "--public-url", "https://play.boardd.example") + FAST + tuple(more)


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def parts(msg):
    """The text and HTML bodies of a multipart/alternative message."""
    alt = [p for p in msg.walk() if p.get_content_type() == "multipart/alternative"]
    check(len(alt) == 1, "one multipart/alternative: %s" % msg.get_content_type())
    kinds = [p.get_content_type() for p in alt[0].iter_parts()]
    check(kinds == ["text/plain", "text/html"], "text then HTML: %r" % kinds)
    text, html = [p.get_content() for p in alt[0].iter_parts()]
    return text, html


def code_of(msg):
    text, html = parts(msg)
    m = re.search(r"\b(\d{8})\b", text)
    check(m, "a code in the text: %r" % text)
    check(m.group(1) in html, "the code in the HTML too")
    return m.group(1)


def add_address(s, tok, address, status=202, **extra):
    body = {"address": address}
    body.update(extra)
    r = s.request("POST", "/v1/players/me/email", body, token=tok)
    check(r.status == status, "add %s: %r" % (address, r))
    return r


def confirmed_address(s, sink, tok, address, **extra):
    """Adds address, reads the code mailed to it, confirms it."""
    add_address(s, tok, address, **extra)
    to = address.lower()
    msg = wait_for(lambda: sink.messages(to), "the code mail to " + to)[-1]
    r = s.request("POST", "/v1/players/me/email/confirm", {"code": code_of(msg)}, token=tok)
    check(r.status == 200 and r.json["confirmed"] is True, "confirm: %r" % r)
    return msg


def invite_game(s, at, bob_id):
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                         "seating": ["me", {"invite": bob_id}]}, token=at)
    check(r.status == 201, "create: %r" % r)
    return r.json["id"]


def join(s, gid, token):
    r = s.request("POST", "/v1/games/%s/join" % gid, token=token)
    check(r.status == 200 and r.json["status"] == "active", "join: %r" % r)


def to_act(s, gid, token):
    r = s.request("GET", "/v1/games/%s" % gid, token=token)
    check(r.status == 200, "game: %r" % r)
    return r.json["to_act"]


def play_once(s, gid, token):
    seats = to_act(s, gid, token)
    for _ in range(20):
        r = move(s, gid, token, actions(s, gid, token)[0])
        check(r.status == 201, "move: %r" % r)
        if to_act(s, gid, token) != seats:
            return
    check(False, "the turn did not pass")


def mails(s, state=None):
    rows = s.query("SELECT kind, state, attempts FROM mail_deliveries ORDER BY key")
    return [r for r in rows if state is None or r[1] == state]


def check_headers(msg, to, now=None):
    """From, To, Message-ID and a Date of `now` (unix s; None: the real
    time) within an hour."""
    check(msg["From"] == "boardd@boardd.example", "From: %r" % msg["From"])
    check(msg["To"] == to, "To: %r" % msg["To"])
    check(re.fullmatch(r"<[0-9a-f]{32}@boardd\.example>", msg["Message-ID"] or ""),
          "Message-ID: %r" % msg["Message-ID"])
    check(msg["Date"] is not None and msg["Date"].datetime is not None, "Date: %r" % msg["Date"])
    age = abs((now or time.time()) - msg["Date"].datetime.timestamp())
    check(age < 3600, "a Date of now: %r" % msg["Date"])


def unsubscribe_url(msg):
    lu = msg["List-Unsubscribe"]
    m = re.fullmatch(r"<(https://play\.boardd\.example(/v1/unsubscribe/[A-Za-z0-9_-]+))>", lu or "")
    check(m, "List-Unsubscribe: %r" % lu)
    check(msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click",
          "RFC 8058's List-Unsubscribe-Post: %r" % msg["List-Unsubscribe-Post"])
    return m.group(2)


@test
def a_confirmed_address_gets_a_your_turn_mail(binary):
    """The foundation: an address is added, its code mailed and sent
    back; then the player's turn is mailed, with Message-ID, Date, a text
    and an HTML part, and a one-click unsubscribe.  The confirmation mail
    itself has no unsubscribe (it is no list)."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            alice_id, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            r = s.request("GET", "/v1/players/me/email", token=bt)
            check(r.status == 404, "no address yet: %r" % r)
            msg = confirmed_address(s, sink, bt, "Bob@Example.COM")
            check_headers(msg, "bob@example.com")
            check(msg["List-Unsubscribe"] is None, "no unsubscribe on a code")
            check(msg["Subject"] == "Your boardd confirmation code", "subject: %r" % msg["Subject"])
            r = s.request("GET", "/v1/players/me/email", token=bt)
            check(r.status == 200 and r.json["address"] == "bob@example.com" and
                  r.json["confirmed"] is True and r.json["mode"] == "event", "shown: %r" % r)
            gid = invite_game(s, at, bob_id)
            inv = wait_for(lambda: [m for m in sink.messages("bob@example.com")
                                    if m["Subject"] == "You are invited"], "the invitation")
            check(len(inv) == 1, "one invitation mail")
            join(s, gid, bt)
            if to_act(s, gid, at) == [0]:
                play_once(s, gid, at)
            turn = wait_for(lambda: [m for m in sink.messages("bob@example.com")
                                     if m["Subject"] == "Your turn"], "Bob's turn")[0]
            check_headers(turn, "bob@example.com")
            text, html = parts(turn)
            check(gid in text and gid in html, "the game named: %r" % text)
            check("https://play.boardd.example/v1/games/%s" % gid in text, "a link: %r" % text)
            path = unsubscribe_url(turn)
            check(path in text and path in html, "the unsubscribe link in both parts")
            check(all("alice" not in str(m["To"]) for m in sink.messages()), "Alice has no address")
            # the code, the invitation and the turn: three delivered in /metrics
            n = wait_for(lambda: mail_attempts(s)["delivered"] >= 3 and mail_attempts(s),
                         "three deliveries counted")
            check(n == {"delivered": 3, "retried": 0, "failed": 0}, "/metrics: %r" % n)
    finally:
        sink.stop()


@test
def mail_is_off_without_an_smtp_url(binary):
    """Without --smtp-url the email endpoints answer 404 with a detail
    naming the flag; the unsubscribe URL answers 404 for any token."""
    with server(binary) as s:
        _, tok = player(s, "Off")
        for method, path, body in (("GET", "/v1/players/me/email", None),
                                   ("POST", "/v1/players/me/email", {"address": "a@b.example"}),
                                   ("POST", "/v1/players/me/email/confirm", {"code": "12345678"}),
                                   ("PATCH", "/v1/players/me/email", {"mode": "none"}),
                                   ("DELETE", "/v1/players/me/email", None)):
            r = s.request(method, path, body, token=tok)
            check(r.status == 404 and "--smtp-url" in r.json["detail"], "%s %s: %r" % (method, path, r))
        r = s.request("GET", "/v1/unsubscribe/abc")
        check(r.status == 404, "unknown token: %r" % r)
        check(s.query("SELECT count(*) FROM mail_deliveries")[0][0] == 0, "nothing queued")


@test
def codes_are_single_use_and_expire(binary):
    """A wrong code, a replayed one and an expired one are 422
    invalid-code and confirm nothing; the fifth wrong guess ends a
    code.  --mail-code-seconds 1 makes codes expire in a second."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port, "--mail-code-seconds", "1")) as s:
            _, tok = player(s, "Cleo")
            add_address(s, tok, "cleo@example.com")
            msg = wait_for(lambda: sink.messages("cleo@example.com"), "the code")[0]
            code = code_of(msg)
            time.sleep(1.2)  # past the code's one second
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": code}, token=tok)
            check(r.status == 422 and r.json["type"] == "urn:boardd:problem:invalid-code",
                  "expired: %r" % r)
            r = s.request("GET", "/v1/players/me/email", token=tok)
            check(r.json["confirmed"] is False, "still unconfirmed: %r" % r)
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, tok = player(s, "Dan")
            add_address(s, tok, "dan@example.com")
            code = code_of(wait_for(lambda: sink.messages("dan@example.com"), "the code")[0])
            wrong = "%08d" % ((int(code) + 1) % 100000000)
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": wrong}, token=tok)
            check(r.status == 422, "a wrong code: %r" % r)
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": code}, token=tok)
            check(r.status == 200 and r.json["confirmed"], "the right one after: %r" % r)
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": code}, token=tok)
            check(r.status == 422, "replayed: %r" % r)
            check(s.request("GET", "/v1/players/me/email", token=tok).json["confirmed"],
                  "a replay changes nothing")
            # five wrong guesses end a code: the right one is refused then
            _, et = player(s, "Eve")
            add_address(s, et, "eve@example.com")
            code = code_of(wait_for(lambda: sink.messages("eve@example.com"), "the code")[0])
            wrong = "%08d" % ((int(code) + 1) % 100000000)
            for _ in range(5):
                r = s.request("POST", "/v1/players/me/email/confirm", {"code": wrong}, token=et)
                check(r.status == 422, "wrong: %r" % r)
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": code}, token=et)
            check(r.status == 422, "the code ended after five misses: %r" % r)
    finally:
        sink.stop()


@test
def nobody_makes_the_server_mail_a_stranger_twice(binary):
    """One code per address a day, whoever asks (a second player naming
    it is 429 mail-rate-limited and nothing changes); a player asks for
    at most 3 codes an hour."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, at = player(s, "Ann")
            _, bt = player(s, "Bob")
            add_address(s, at, "victim@example.com")
            # a new address drops the mails not sent to the old one: each
            # code is waited for
            wait_for(lambda: sink.messages("victim@example.com"), "the first code")
            r = add_address(s, bt, "Victim@example.com", status=429)
            check(r.json["type"] == "urn:boardd:problem:mail-rate-limited", "type: %r" % r)
            r = s.request("GET", "/v1/players/me/email", token=bt)
            check(r.status == 404, "Bob has no address: %r" % r)
            r = add_address(s, at, "victim@example.com", status=429)
            add_address(s, at, "two@example.com")
            wait_for(lambda: sink.messages("two@example.com"), "the second code")
            add_address(s, at, "three@example.com")
            add_address(s, at, "four@example.com", status=429)
            r = s.request("GET", "/v1/players/me/email", token=at)
            check(r.json["address"] == "three@example.com", "the last accepted: %r" % r)
            wait_for(lambda: len(sink.messages()) == 3, "three codes mailed")
            wait_for(lambda: not mails(s, "pending"), "nothing pending")
            check(len(sink.messages("victim@example.com")) == 1, "the stranger got one mail")
            check(sink.messages("four@example.com") == [], "none past the limit")
    finally:
        sink.stop()


@test
def bad_input_is_refused_and_changes_nothing(binary):
    """Malformed addresses are 422 invalid-email-address, other bad
    fields 400; nothing is stored or mailed.  A bad PATCH or code changes
    nothing."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, tok = player(s, "Fay")
            for bad in ("", "plain", "a@b", "a@@b.example", ".a@b.example", "a.@b.example",
                        "a..b@c.example", "a b@c.example", "a@-b.example", "a@b-.example",
                        "a@b.123", "a@b..example", "a@b.example.", "<a@b.example>",
                        "a@b.example\r\nBcc: x@y.example", "\"q\"@b.example",
                        "x" * 65 + "@b.example", "a@" + "b" * 250 + ".example", 12, None):
                r = s.request("POST", "/v1/players/me/email", {"address": bad}, token=tok)
                check(r.status == 422 and
                      r.json["type"] == "urn:boardd:problem:invalid-email-address",
                      "%r: %r" % (bad, r))
            for body in ({"address": "f@b.example", "language": "de"},
                         {"address": "f@b.example", "extra": 1}, {}):
                r = s.request("POST", "/v1/players/me/email", body, token=tok)
                check(r.status in (400, 422), "%r: %r" % (body, r))
            check(s.request("GET", "/v1/players/me/email", token=tok).status == 404, "no address")
            r = s.request("POST", "/v1/players/me/email/confirm", {"code": "12345678"}, token=tok)
            check(r.status == 404, "nothing to confirm: %r" % r)
            confirmed_address(s, sink, tok, "fay@b.example", language="fr")
            before = s.request("GET", "/v1/players/me/email", token=tok).json
            for body in ({"mode": "weekly"}, {"mode": "none", "language": "de"}, {"x": 1},
                         {"mode": None}):
                r = s.request("PATCH", "/v1/players/me/email", body, token=tok)
                check(r.status == 400, "%r: %r" % (body, r))
            for code in ("1234", "abcdefgh", 12345678, "123456789"):
                r = s.request("POST", "/v1/players/me/email/confirm", {"code": code}, token=tok)
                check(r.status == 400, "%r: %r" % (code, r))
            check(s.request("GET", "/v1/players/me/email", token=tok).json == before,
                  "unchanged")
            check(s.query("SELECT count(*) FROM mail_deliveries")[0][0] == 1, "one mail: the code")
            check(len(sink.messages()) == 1, "one mail received")
            r = s.request("PATCH", "/v1/players/me/email", {"mode": "none"}, token=tok)
            check(r.status == 200 and r.json["mode"] == "none" and r.json["language"] == "fr",
                  "patched: %r" % r)
            r = s.request("DELETE", "/v1/players/me/email", token=tok)
            check(r.status == 204, "deleted: %r" % r)
            check(s.request("DELETE", "/v1/players/me/email", token=tok).status == 404, "gone")
    finally:
        sink.stop()


def game_with_turn_for(s, at, bt, bob_id):
    """A game Alice invites Bob to, joined, and played until it is Bob's
    turn."""
    gid = invite_game(s, at, bob_id)
    join(s, gid, bt)
    if to_act(s, gid, at) == [0]:
        play_once(s, gid, at)
    return gid


@test
def one_click_unsubscribe_by_post_needs_no_login(binary):
    """RFC 8058: the List-Unsubscribe URL answers a GET with what it is
    for and changes nothing; a POST of List-Unsubscribe=One-Click with no
    Authorization turns mail off: the next turn is not mailed.  A French
    player's mail is in French, its subject RFC 2047-encoded."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            confirmed_address(s, sink, bt, "bob@example.com", language="fr")
            gid = game_with_turn_for(s, at, bt, bob_id)
            turn = wait_for(lambda: [m for m in sink.messages("bob@example.com")
                                     if m["Subject"] == "À vous de jouer"], "Bob's turn, in French")[0]
            check(any(b"Subject: =?UTF-8?B?" in raw for raw in sink.raw),
                  "a non-ASCII subject is RFC 2047-encoded")
            text, _ = parts(turn)
            check("C’est votre tour" in text, "French text: %r" % text)
            path = unsubscribe_url(turn)
            r = s.request("GET", path)
            check(r.status == 200 and r.json == {"address": "b***@example.com", "mode": "event"},
                  "GET shows, does not unsubscribe: %r" % r)
            check(s.request("GET", "/v1/players/me/email", token=bt).json["mode"] == "event",
                  "still on after the GET")
            r = s.request("POST", path, raw=b"List-Unsubscribe=One-Click",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
            check(r.status == 200 and r.json["mode"] == "none", "one click: %r" % r)
            check(s.request("GET", "/v1/players/me/email", token=bt).json["mode"] == "none",
                  "mail off")
            before = len(mails(s))
            play_once(s, gid, bt)
            # (a deal can end the game at Bob's recruit: its end is
            # then the event not mailed)
            if not over(s, gid):
                play_once(s, gid, at)
            wait_for(lambda: not mails(s, "pending"), "nothing pending")
            check(len(mails(s)) == before, "no mail queued after the unsubscribe: %r" % mails(s))
            r = s.request("POST", "/v1/unsubscribe/" + "A" * 43)
            check(r.status == 404, "unknown token: %r" % r)
    finally:
        sink.stop()


class Hang:
    """A TCP listener that accepts and never answers: an SMTP server that
    hangs."""

    def __init__(self, port):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.conns = []
        self.done = False
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while not self.done:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)

    def stop(self):
        self.done = True
        self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept
        self.sock.close()
        for c in self.conns:
            c.close()


@test
def a_refusing_or_hanging_smtp_server_loses_nothing(binary):
    """An SMTP server that answers 451 to DATA: the mail is retried;
    one that hangs: requests are still answered at once, the attempts
    time out and are retried; the server restarts meanwhile; once a real
    server listens, every mail arrives, once."""
    port = free_port()
    sink = Sink(port)
    hang = None
    try:
        flags = mail_flags(port, "--webhook-timeout-ms", "300")
        with server(binary, extra=flags) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            confirmed_address(s, sink, bt, "bob@example.com")
            sink.refuse = "451 4.3.0 try again later"
            gid = invite_game(s, at, bob_id)
            wait_for(lambda: [r for r in mails(s) if r[0] == "event" and r[2] >= 2],
                     "the invitation retried")
            check(mails(s, "pending"), "still pending: %r" % mails(s))
            wait_for(lambda: mail_attempts(s)["retried"] >= 2, "the retries in /metrics")
            sink.stop()
            hang = Hang(port)
            join(s, gid, bt)
            if to_act(s, gid, at) == [0]:
                play_once(s, gid, at)
            wait_for(lambda: len(hang.conns) >= 1, "an attempt at the hanging server")
            r = s.request("GET", "/v1/players/me/email", token=bt)
            check(r.status == 200, "a request meanwhile: %r" % r)
            s.stop()
            s.start()
            hang.stop()
            hang = None
            sink = Sink(port)
            got = wait_for(lambda: len([m for m in sink.messages("bob@example.com")
                                        if m["Subject"] in ("You are invited", "Your turn")]) >= 2
                           and sink.messages("bob@example.com"), "the mails after all")
            subjects = sorted(m["Subject"] for m in got)
            check(subjects == ["You are invited", "Your turn"], "each once: %r" % subjects)
            wait_for(lambda: not mails(s, "pending"), "nothing pending")
            check(all(r[1] == "delivered" for r in mails(s)), "all delivered: %r" % mails(s))
    finally:
        if hang:
            hang.stop()
        sink.stop()


@test
def export_and_delete_include_the_address(binary):
    """GET /v1/players/me/export shows the address; DELETE /v1/players/me
    erases it, its codes and its mails."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, tok = player(s, "Gus")
            confirmed_address(s, sink, tok, "gus@example.com")
            r = s.request("GET", "/v1/players/me/export", token=tok)
            check(r.status == 200 and r.json["email"]["address"] == "gus@example.com",
                  "exported: %r" % r.json.get("email"))
            _, other = player(s, "Hal")
            r = s.request("GET", "/v1/players/me/export", token=other)
            check(r.json["email"] is None, "none: %r" % r.json.get("email"))
            r = s.request("DELETE", "/v1/players/me", token=tok)
            check(r.status == 204, "delete: %r" % r)
            for table in ("mail_addresses", "mail_codes_sent", "mail_deliveries"):
                n = s.query("SELECT count(*) FROM %s" % table)[0][0]
                check(n == 0, "%s erased: %d rows" % (table, n))
    finally:
        sink.stop()


def open_stream(s, gid, token):
    """GET /v1/games/{id}/events with token, its head read: a live stream
    until the socket is closed."""
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


def mail_attempts(s):
    """GET /metrics' boardd_mail_attempts_total, {outcome: count}."""
    r = s.request("GET", "/metrics")
    check(r.status == 200, "metrics: %r" % r)
    got = {}
    for line in r.raw.decode().splitlines():
        m = re.match(r'boardd_mail_attempts_total\{outcome="([a-z]+)"\} ([0-9]+)$', line)
        if m:
            got[m.group(1)] = int(m.group(2))
    check(sorted(got) == ["delivered", "failed", "retried"], "the outcomes: %r" % got)
    return got


def open_streams(s):
    r = s.request("GET", "/metrics")
    for line in r.raw.decode().splitlines():
        if line.startswith("boardd_open_streams "):
            return int(float(line.split()[1]))
    check(False, "no boardd_open_streams in /metrics")


@test
def nothing_is_mailed_while_the_player_is_live_on_the_game(binary):
    """While Bob holds an event stream on the game his turn there is not
    mailed (the mail is skipped); once the stream ended, his next turn
    is (or the game's end, when the move before it ended the game).  A
    deal that ends the game before that move (a catch at a recruit while
    Bob is live, rules §3) leaves nothing to mail: the scenario runs
    again on a new server (gamehelp.until_not_moot)."""
    until_not_moot(lambda: live_then_not(binary),
                   "the deal ended the game before Bob's stream closed")


def live_then_not(binary):
    """nothing_is_mailed_while_the_player_is_live_on_the_game's scenario
    on a new server; False if the game ended while Bob was live."""
    sink = Sink()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            gid = invite_game(s, at, bob_id)
            join(s, gid, bt)
            confirmed_address(s, sink, bt, "bob@example.com")
            if to_act(s, gid, at) != [0]:  # Bob first: he plays
                play_once(s, gid, bt)
            live = open_stream(s, gid, bt)
            try:
                play_once(s, gid, at)  # Bob's turn, while he is live
                if over(s, gid):
                    return False
                wait_for(lambda: mails(s, "skipped"), "the skipped mail")
                check([m for m in sink.messages() if m["Subject"] == "Your turn"] == [],
                      "nothing mailed while live")
                play_once(s, gid, bt)
                if over(s, gid):
                    return False
            finally:
                live.close()
            wait_for(lambda: open_streams(s) == 0, "the stream to end")
            play_once(s, gid, at)
            # Bob's turn, or the end if that move ended the game (a random
            # deal may let an agent be caught this early): his next event
            wait_for(lambda: [m for m in sink.messages()
                              if m["Subject"] in ("Your turn", "Game over")],
                     "Bob's turn (or the game's end), mailed")
            # the sink has it before the server records the answer
            wait_for(lambda: not mails(s, "pending"), "the mail recorded")
            kinds = [(r[0], r[1]) for r in mails(s)]
            check(kinds == [("confirm", "delivered"), ("event", "skipped"),
                            ("event", "delivered")], "skipped, then delivered: %r" % kinds)
            return True
    finally:
        sink.stop()


def next_local_hour(zone, hour, after):
    """The first instant after `after` (unix s) when a clock in zone shows
    hour:00, by Python's zoneinfo (apart from the server's ICU)."""
    tz = zoneinfo.ZoneInfo(zone)
    local = datetime.datetime.fromtimestamp(after, tz)
    t = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if t.timestamp() <= after:
        t = (local + datetime.timedelta(days=1)).replace(hour=hour, minute=0, second=0,
                                                          microsecond=0)
    return t.timestamp()


@test
def the_daily_digest_comes_at_the_players_hour_in_their_zone(binary):
    """Mode digest at an hour in the player's IANA zone: nothing per
    event, no digest before that hour (the server's clock moved by the
    test to just before it), one digest once it passed, listing every
    game waiting for the player, with a one-click unsubscribe; the next
    is due a day later (by Python's zoneinfo, apart from the server's
    ICU); a bad zone or hour is 400 and changes nothing."""
    sink = Sink()
    clock = TestClock()
    try:
        with server(binary, extra=mail_flags(sink.port)) as s:
            _, at = player(s, "Alice")
            bob_id, bt = player(s, "Bob")
            confirmed_address(s, sink, bt, "bob@example.com")
            zone = "Asia/Kolkata"  # UTC+5:30: the hour is not UTC's
            hour = (datetime.datetime.now(zoneinfo.ZoneInfo(zone)).hour + 2) % 24
            for bad in ({"mode": "digest", "time_zone": "Mars/Olympus"},
                        {"mode": "digest", "time_zone": "../etc/passwd"},
                        {"mode": "digest", "digest_hour": 24}, {"digest_hour": "8"}):
                r = s.request("PATCH", "/v1/players/me/email", bad, token=bt)
                check(r.status == 400, "%r: %r" % (bad, r))
            r = s.request("PATCH", "/v1/players/me/email",
                          {"mode": "digest", "digest_hour": hour, "time_zone": zone}, token=bt)
            check(r.status == 200 and r.json["mode"] == "digest" and
                  r.json["digest_hour"] == hour and r.json["time_zone"] == zone, "digest: %r" % r)
            before = time.time()
            due = s.query("SELECT digest_due_ms FROM mail_addresses")[0][0] / 1000
            check(due == next_local_hour(zone, hour, before) or
                  due == next_local_hour(zone, hour, before - 5), "due at %r" % due)
            gid = invite_game(s, at, bob_id)
            join(s, gid, bt)
            if to_act(s, gid, at) == [0]:
                play_once(s, gid, at)
            gid2 = invite_game(s, at, bob_id)  # a second game, waiting for Bob to join
            check(to_act(s, gid, bt) != [], "Bob is to act in the first game")
            # ten seconds before the hour (three left a loaded machine one
            # second between this and the check, the hour's digest due)
            clock.set(due - time.time() - 10)
            time.sleep(2)
            check([r for r in mails(s) if r[0] != "confirm"] == [],
                  "no event mail, no digest yet: %r" % mails(s))
            clock.set(due - time.time() + 1)  # past the hour
            got = wait_for(lambda: [m for m in sink.messages("bob@example.com")
                                    if m["Subject"] == "Games waiting for you"], "the digest")
            text, html = parts(got[0])
            check("https://play.boardd.example/v1/games/%s" % gid in text and gid in html,
                  "the waiting game listed: %r" % text)
            check(gid2 not in text, "a game Bob has not joined is not waiting for him")
            check("It is your turn in 1 game(s)" in text, "the count: %r" % text)
            unsubscribe_url(got[0])
            check_headers(got[0], "bob@example.com", now=due)  # the server's clock
            nxt = s.query("SELECT digest_due_ms FROM mail_addresses")[0][0] / 1000
            check(nxt == next_local_hour(zone, hour, due), "the next a day later: %r" % nxt)
            time.sleep(2)
            digests = [r for r in mails(s) if r[0] == "digest"]
            check(len(digests) == 1, "once a day: %r" % digests)
            check([r for r in mails(s) if r[0] == "event"] == [], "nothing per event")
    finally:
        clock.close()
        sink.stop()


@test
def credentials_are_read_from_a_file_and_never_logged(binary):
    """--smtp-credentials FILE (user:password, mode 0600): the SMTP server
    that requires a login gets it and takes the mail; the password is in
    no log line; a file group or others may read is refused at start."""
    sink = Sink(login=("boardd", "s3cret-pass"))
    d = tempfile.mkdtemp(prefix="boardd-mail.")
    path = os.path.join(d, "smtp.credentials")
    try:
        with open(path, "w") as f:
            f.write("boardd:s3cret-pass\n")
        os.chmod(path, 0o644)
        with server(binary, extra=mail_flags(sink.port, "--smtp-credentials", path)) as s:
            pass
        check(False, "a readable credentials file must be refused")
    except RuntimeError as e:
        check("chmod 600" in str(e), "refused at start: %s" % str(e)[-300:])
    try:
        os.chmod(path, 0o600)
        with server(binary, extra=mail_flags(sink.port, "--smtp-credentials", path)) as s:
            _, tok = player(s, "Ida")
            confirmed_address(s, sink, tok, "ida@example.com")
            check(sink.logins and sink.logins[-1][1] == ("boardd", "s3cret-pass"),
                  "logged in: %r" % sink.logins)
            s.stop()
            log = open(s.log).read()
            check("s3cret-pass" not in log, "the password is never logged")
    finally:
        os.unlink(path)
        os.rmdir(d)
        sink.stop()


if __name__ == "__main__":
    run_all("mail")
