"""test_mail.py: email over SMTP (issue 32 goal 2, docs/notifications.md,
"Email"): a player's address, confirmed by a single-use code mailed to
it; "your turn" and the other event mails; the RFC 8058 one-click
unsubscribe; rate limits; bad input refused, changing nothing; SMTP
servers that refuse or hang.  The mails go to Debian's python3-aiosmtpd
(a local SMTP server nobody here wrote), started by the test on a port
of its own, and are read with Python's email package.  Real binary, real
database.  Usage: test_mail.py BOARDD [test names...]"""
import email
import email.policy
import re
import socket
import threading
import time
import urllib.parse

from aiosmtpd.controller import Controller

from harness import check, free_port, run_all, test
from gamehelp import AA, actions, move, server

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

    def __init__(self, port=None):
        self.got = []
        self.refuse = None
        self.lock = threading.Lock()
        self.port = port or free_port()
        self.ctl = Controller(self, hostname="127.0.0.1", port=self.port)
        self.ctl.start()

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return self.refuse
        msg = email.message_from_bytes(envelope.original_content or envelope.content,
                                       policy=email.policy.default)
        with self.lock:
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


def check_headers(msg, to):
    check(msg["From"] == "boardd@boardd.example", "From: %r" % msg["From"])
    check(msg["To"] == to, "To: %r" % msg["To"])
    check(re.fullmatch(r"<[0-9a-f]{32}@boardd\.example>", msg["Message-ID"] or ""),
          "Message-ID: %r" % msg["Message-ID"])
    check(msg["Date"] is not None and msg["Date"].datetime is not None, "Date: %r" % msg["Date"])
    age = abs(time.time() - msg["Date"].datetime.timestamp())
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
    finally:
        sink.stop()


if __name__ == "__main__":
    run_all("mail")
