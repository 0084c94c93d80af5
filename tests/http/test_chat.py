"""test_chat.py: a game's chat (issue 33 goal 6, docs/matchmaking.md):
who reads and writes the players' and the spectators' channels, before
and after the end; chat events on the game's event stream; the messages
in the record (which still verifies); the limits (overlong, invalid
UTF-8, control characters, a flood: 429 with Retry-After); blocks (a
blocked player cannot join, their messages are hidden from the blocker)
and reports (listed for operators).  Every refusal leaves the database
as it was.  Real binary, real store (SQLite or PostgreSQL).
Usage: test_chat.py BOARDD [test names...]"""
import json
import os
import subprocess
import tempfile

import harness
from harness import ROOT, check, run_all, test
from gamehelp import AA, server

# test_live's stream reader: imported for its Conn and pump, not its
# tests (which its @test registered: dropped again).
_n = len(harness._tests)
from test_live import WAIT, Conn, check_event, pump  # noqa: E402
del harness._tests[_n:]


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def two_seat_game(s, token=None, seating=None):
    body = {"game": AA, "seats": 2}
    if seating:
        body["seating"] = seating
    r = s.request("POST", "/v1/games", body, token=token)
    check(r.status == 201, "create: %r" % r)
    return r.json["id"], [x.get("token") for x in r.json["seats"]]


def chat(s, gid, channel):
    return "/v1/games/%s/chat/%s" % (gid, channel)


def say(s, gid, channel, token, text, status=201):
    r = s.request("POST", chat(s, gid, channel), {"text": text}, token=token)
    check(r.status == status, "say %r in %s: %r" % (text[:20], channel, r))
    return r


def listing(s, gid, channel, token=None, status=200, query=""):
    r = s.request("GET", chat(s, gid, channel) + query, token=token)
    check(r.status == status, "list %s: %r" % (channel, r))
    return [m["text"] for m in r.json["messages"]] if status == 200 else r


def resign(s, gid, token):
    r = s.request("POST", "/v1/games/%s/resign" % gid, token=token)
    check(r.status == 201, "resign: %r" % r)


def dump(s):
    """What a refused chat, block or report must leave as it was."""
    return [s.query("SELECT * FROM chat_messages ORDER BY key"),
            s.query("SELECT * FROM blocks ORDER BY player_key, blocked_key"),
            s.query("SELECT * FROM reports ORDER BY key"),
            s.query("SELECT game_key, seat, player_key, token_hash, open FROM seats ORDER BY game_key, seat")]


@test
def channels_who_reads_and_writes_what(binary):
    with server(binary) as s:
        _, carol = player(s, "Carol")
        gid, (t0, t1) = two_seat_game(s)
        m = say(s, gid, "players", t0, "good luck").json
        check(m["n"] == 1 and m["seat"] == 0 and m["player"] is None and m["channel"] == "players",
              "the message: %r" % m)
        check(set(m) == {"n", "channel", "seat", "player", "text", "time"},
              "nothing of the game's state in a message: %r" % m)
        say(s, gid, "players", t1, "you too")
        check(listing(s, gid, "players", t1) == ["good luck", "you too"], "seat 1 reads both")
        # a spectator (a player without a seat) and an anonymous client
        s1 = say(s, gid, "spectators", carol, "who wins?").json
        check(s1["n"] == 1 and s1["seat"] is None and s1["player"]["name"] == "Carol",
              "numbered in its own channel, by its author: %r" % s1)
        before = dump(s)
        listing(s, gid, "players", carol, status=403)
        listing(s, gid, "players", None, status=403)
        say(s, gid, "players", carol, "hi", status=403)
        say(s, gid, "players", None, "hi", status=401)
        say(s, gid, "spectators", None, "hi", status=401)
        # the seats, while the game runs, neither read nor write the spectators'
        listing(s, gid, "spectators", t0, status=403)
        say(s, gid, "spectators", t0, "psst", status=403)
        say(s, "0123456789abcdef", "players", t0, "x", status=404)
        check(dump(s) == before, "the refusals changed nothing")
        check(listing(s, gid, "spectators") == ["who wins?"], "anyone reads the spectators'")
        check(listing(s, gid, "spectators", carol) == ["who wins?"], "Carol too")
        # paging
        for i in range(4):
            say(s, gid, "players", t0, "m%d" % i)
        r = s.request("GET", chat(s, gid, "players") + "?after=2&limit=2", token=t0)
        check([m["n"] for m in r.json["messages"]] == [3, 4] and r.json["next_after"] == 4,
              "a page: %r" % r.json)
        r = s.request("GET", chat(s, gid, "players") + "?after=4", token=t0)
        check([m["n"] for m in r.json["messages"]] == [5, 6] and r.json["next_after"] is None,
              "the last page: %r" % r.json)
        for q in ("?after=x", "?limit=0", "?limit=101", "?after=-1"):
            listing(s, gid, "players", t0, status=400, query=q)
        # after the end: everything is public, and the seats join the spectators
        resign(s, gid, t1)
        check(len(listing(s, gid, "players")) == 6, "anyone reads the players' once it is over")
        check(listing(s, gid, "spectators", t0) == ["who wins?"], "a seat reads the spectators'")
        m = say(s, gid, "spectators", t0, "gg all").json
        check(m["seat"] == 0, "a seat's message after the end: %r" % m)
        say(s, gid, "players", t1, "gg")


@test
def limits_refuse_and_change_nothing(binary):
    with server(binary) as s:
        gid, (t0, _) = two_seat_game(s)
        say(s, gid, "players", t0, "\u00e9" * 500)  # 500 code points, 1000 bytes
        before = dump(s)
        say(s, gid, "players", t0, "x" * 501, status=400)
        for bad in ("a\nb", "a\u0000b", "\u0007", "a\u0085b", "x\u202eevil", "x\u2066y",
                    "   ", ""):
            r = say(s, gid, "players", t0, bad, status=400)
            check(r.json["type"] in ("urn:boardd:problem:bad-request",
                                     "urn:boardd:problem:malformed-json"), "%r" % r.json)
        for body in ({"text": 7}, {"text": None}, {}, {"text": "a", "extra": 1}, ["a"]):
            r = s.request("POST", chat(s, gid, "players"), body, token=t0)
            check(r.status == 400, "body %r: %r" % (body, r))
        # invalid UTF-8 in the body (a lone continuation byte, an overlong form)
        for raw in (b'{"text":"a\x80b"}', b'{"text":"\xc0\xaf"}', b'{"text":"\xed\xa0\x80"}'):
            r = s.request("POST", chat(s, gid, "players"), token=t0, raw=raw,
                          headers={"Content-Type": "application/json"})
            check(r.status == 400, "invalid UTF-8 %r: %r" % (raw, r))
        r = s.request("POST", chat(s, gid, "nobody"), {"text": "x"}, token=t0)
        check(r.status == 404, "no third channel: %r" % r)
        check(dump(s) == before, "nothing was written")


@test
def a_flood_gets_429_with_retry_after_and_writes_nothing(binary):
    with server(binary, extra=["--rate-limit", "chat.token=3/1m"]) as s:
        gid, (t0, t1) = two_seat_game(s)
        for i in range(3):
            say(s, gid, "players", t0, "line %d" % i)
        before = dump(s)
        r = say(s, gid, "players", t0, "flood", status=429)
        check(int(r.headers.get("retry-after", "0")) >= 1, "Retry-After: %r" % r.headers)
        check(r.json["type"] == "urn:boardd:problem:too-many-requests", "%r" % r.json)
        check(dump(s) == before, "the flood wrote nothing")
        say(s, gid, "players", t1, "the other seat still talks")


@test
def messages_reach_the_event_stream_of_their_channel_only(binary):
    with server(binary) as s:
        _, carol = player(s, "Carol")
        gid, (t0, t1) = two_seat_game(s)
        say(s, gid, "players", t0, "before the stream")
        h = {"Accept": "application/x-ndjson"}
        seat1 = Conn(s.port, "/v1/games/%s/events" % gid, t1, h)
        watcher = Conn(s.port, "/v1/games/%s/events" % gid, carol, h)
        check(pump([seat1, watcher], lambda: len(seat1.events()[0]) >= 1 and
                   len(watcher.events()[0]) >= 1, WAIT), "both streams opened")
        say(s, gid, "players", t0, "for the table")
        say(s, gid, "spectators", carol, "for the audience")
        check(pump([seat1, watcher], lambda: len(seat1.events()[0]) >= 2 and
                   len(watcher.events()[0]) >= 2, WAIT), "a chat event each")
        e = seat1.events()[0][1]
        check_event(e)
        check(e["event"] == "chat" and e["data"]["text"] == "for the table"
              and e["data"]["seq"] == 0, "the seat's: %r" % e)
        w = watcher.events()[0][1]
        check_event(w)
        check(w["event"] == "chat" and w["data"]["text"] == "for the audience", "the watcher's: %r" % w)
        # nothing of the other channel came to either
        say(s, gid, "players", t1, "second")
        check(pump([seat1, watcher], lambda: len(seat1.events()[0]) >= 3, WAIT), "the seat's second")
        pump([seat1, watcher], lambda: False, 0.5)
        texts = [x["data"].get("text") for x in seat1.events()[0] + watcher.events()[0]]
        check(texts.count("for the table") == 1 and texts.count("for the audience") == 1
              and texts.count("second") == 1 and "before the stream" not in texts,
              "each message on its channel's streams only: %r" % texts)
        seat1.close()
        watcher.close()


@test
def the_record_holds_the_chat_and_still_verifies(binary):
    with server(binary) as s:
        _, carol = player(s, "Carol")
        gid, (t0, t1) = two_seat_game(s)
        say(s, gid, "players", t0, "hello")
        say(s, gid, "spectators", carol, "watching")
        resign(s, gid, t0)
        say(s, gid, "players", t1, "gg")
        r = s.request("GET", "/v1/games/%s/record" % gid)
        check(r.status == 200, "record: %r" % r)
        c = r.json["chat"]
        check([m["text"] for m in c["players"]] == ["hello", "gg"] and
              [m["text"] for m in c["spectators"]] == ["watching"], "the chat: %r" % c)
        tool = os.path.join(os.path.dirname(binary), "verify-record")
        if not os.path.exists(tool):
            tool = os.path.join(ROOT, "build", "release", "verify-record")
        check(os.path.exists(tool), "verify-record is built (%s)" % tool)
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(r.json, f)
            f.flush()
            out = subprocess.run([tool, f.name], capture_output=True, text=True)
        check(out.returncode == 0 and out.stdout.startswith("OK:"), "verifies: %r" % out)
        r = s.request("POST", "/v1/games", {"record": r.json})
        check(r.status == 201, "a record with its chat imports: %r" % r)


@test
def a_block_refuses_joins_and_hides_messages(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        _, ct = player(s, "Carol")
        before = dump(s)
        for token, pid, st in ((at, alice, 400), (at, "0123456789abcdef", 404),
                               (at, "nobody", 404), (None, bob, 401), ("A" * 43, bob, 403)):
            r = s.request("PUT", "/v1/players/me/blocks/" + pid, token=token)
            check(r.status == st, "block %s: %r" % (pid, r))
        r = s.request("DELETE", "/v1/players/me/blocks/" + bob, token=at)
        check(r.status == 404, "nothing to lift: %r" % r)
        check(dump(s) == before, "the refused blocks changed nothing")
        r = s.request("PUT", "/v1/players/me/blocks/" + bob, token=at)
        check(r.status == 204, "block: %r" % r)
        r = s.request("PUT", "/v1/players/me/blocks/" + bob, token=at)
        check(r.status == 204, "again: %r" % r)
        r = s.request("GET", "/v1/players/me/blocks", token=at)
        check(r.status == 200 and [b["player"]["id"] for b in r.json["blocks"]] == [bob],
              "listed: %r" % r)
        # Bob cannot take a seat of Alice's game, by join or by a seat token
        gid, _ = two_seat_game(s, at, ["me", "open"])
        before = dump(s)
        r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
        check(r.status == 403 and r.json["type"] == "urn:boardd:problem:blocked", "join: %r" % r)
        check(dump(s) == before, "the refused join changed nothing")
        r = s.request("POST", "/v1/games/%s/join" % gid, token=ct)
        check(r.status == 200, "Carol joins: %r" % r)
        gid2, toks = two_seat_game(s, at, ["me", "token"])
        before = dump(s)
        r = s.request("POST", "/v1/players/me/seats", {"token": toks[1]}, token=bt)
        check(r.status == 403 and r.json["type"] == "urn:boardd:problem:blocked",
              "claim by seat token: %r" % r)
        check(dump(s) == before, "the refused claim changed nothing")
        # Bob's messages are not shown to Alice (the spectators' channel of
        # a game neither plays; then the players' of a game both play)
        g3, t3 = two_seat_game(s)
        say(s, g3, "spectators", bt, "from Bob")
        say(s, g3, "spectators", ct, "from Carol")
        check(listing(s, g3, "spectators", at) == ["from Carol"], "hidden from Alice")
        check(listing(s, g3, "spectators", ct) == ["from Bob", "from Carol"], "Carol sees both")
        check(listing(s, g3, "spectators") == ["from Bob", "from Carol"], "so does anyone")
        h = {"Accept": "application/x-ndjson"}
        st = Conn(s.port, "/v1/games/%s/events" % g3, at, h)
        check(pump([st], lambda: len(st.events()[0]) >= 1, WAIT), "Alice's stream opened")
        say(s, g3, "spectators", bt, "Bob again")
        say(s, g3, "spectators", ct, "Carol again")
        check(pump([st], lambda: len(st.events()[0]) >= 2, WAIT), "a chat event")
        pump([st], lambda: False, 0.5)
        texts = [e["data"].get("text") for e in st.events()[0][1:]]
        check(texts == ["Carol again"], "Bob's message not streamed to Alice: %r" % texts)
        st.close()
        # lifting the block
        r = s.request("DELETE", "/v1/players/me/blocks/" + bob, token=at)
        check(r.status == 204, "lift: %r" % r)
        check(listing(s, g3, "spectators", at)[0] == "from Bob", "shown again")


@test
def reports_are_listed_for_operators(binary):
    with server(binary) as s:
        bob, bt = player(s, "Bob")
        _, ct = player(s, "Carol")
        gid, (t0, t1) = two_seat_game(s)
        say(s, gid, "spectators", bt, "rude words")
        say(s, gid, "players", t0, "secret plan")
        before = dump(s)
        bad = [({"player": bob}, 400), ({"reason": "x"}, 400),
               ({"player": bob, "game": gid, "channel": "spectators", "n": 1, "reason": "x"}, 400),
               ({"game": gid, "channel": "spectators", "n": 9, "reason": "x"}, 400),
               ({"game": gid, "channel": "nope", "n": 1, "reason": "x"}, 400),
               ({"game": gid, "channel": "players", "n": 1, "reason": "x"}, 403),
               ({"player": "0123456789abcdef", "reason": "x"}, 400),
               ({"player": bob, "reason": "a\nb"}, 400),
               ({"player": bob, "reason": "x" * 501}, 400),
               ({"game": "0123456789abcdef", "channel": "players", "n": 1, "reason": "x"}, 404)]
        for body, st in bad:
            r = s.request("POST", "/v1/reports", body, token=ct)
            check(r.status == st, "report %r: %r" % (body, r))
        r = s.request("POST", "/v1/reports", {"player": bob, "reason": "x"}, token=t0)
        check(r.status == 403, "a seat token is no player's: %r" % r)
        check(dump(s) == before, "the refused reports changed nothing")
        r = s.request("POST", "/v1/reports", {"game": gid, "channel": "spectators", "n": 1,
                                              "reason": "insults"}, token=ct)
        check(r.status == 201 and r.json["report"] >= 1, "report a message: %r" % r)
        r = s.request("POST", "/v1/reports", {"player": bob, "reason": "spam"}, token=ct)
        check(r.status == 201, "report a player: %r" % r)
        r = s.request("GET", "/v1/reports")
        check(r.status == 200 and len(r.json["reports"]) == 2, "listed: %r" % r)
        a, b = r.json["reports"]
        check(a["player"]["id"] == bob and a["reporter"]["name"] == "Carol" and
              a["message"] == {"game": gid, "channel": "spectators", "n": 1, "seat": None,
                               "text": "rude words"} and a["reason"] == "insults",
              "the message's report: %r" % a)
        check(b["message"] is None and b["player"]["name"] == "Bob", "the player's: %r" % b)
        r = s.request("GET", "/v1/reports?after=%d&limit=1" % a["report"])
        check([x["report"] for x in r.json["reports"]] == [b["report"]] and
              r.json["next_after"] == b["report"], "paged: %r" % r.json)
    with server(binary, extra=["--metrics", "off"]) as s:
        r = s.request("GET", "/v1/reports")
        check(r.status == 404, "with --metrics off: %r" % r)


if __name__ == "__main__":
    run_all("chat")
