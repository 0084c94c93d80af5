"""test_admin.py: the operator's kit, admin half (issue 35;
docs/operations.md, "Admin commands" and "A player's data"): `boardd
admin` run beside a real server on the same store (listing and finding
players, ban and unban, revoking tokens, ending a game, reports, export,
delete, prune, schema), and a player's own GET /v1/players/me/export and
DELETE /v1/players/me.  Bad input (an unknown player, a second delete, a
banned player's token, an end-game without a winner) gets a clear error
and changes nothing.  Real binary, real store (SQLite or PostgreSQL).
Usage: test_admin.py BOARDD [test names...]"""
import json
import os
import subprocess
import time

from harness import check, run_all, test
from gamehelp import AA, server, actions


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def admin(s, *args, status=0, as_json=True):
    """Runs `boardd admin` on s's store; its JSON answer (or text)."""
    cmd = [s.binary, "admin"] + s.store_args() + (["--json"] if as_json else []) + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    check(p.returncode == status,
          "admin %s: exit %d, wanted %d: %s%s" % (" ".join(args), p.returncode, status,
                                                  p.stdout, p.stderr))
    if status:
        return p.stderr
    return json.loads(p.stdout) if as_json else p.stdout


def dump(s):
    """What a refused command or request must leave as it was."""
    return [s.query("SELECT key, id, name, banned_ms, banned_why, deleted_ms FROM players ORDER BY key"),
            s.query("SELECT key, player_key, label, revoked_ms FROM player_tokens ORDER BY key"),
            s.query("SELECT key, status, seq, open_seats, cancelled_ms FROM games ORDER BY key"),
            s.query("SELECT game_key, seat, player_key, open FROM seats ORDER BY game_key, seat"),
            s.query("SELECT count(*) FROM moves"),
            s.query("SELECT count(*) FROM chat_messages"),
            s.query("SELECT count(*) FROM admin_log")]


def waiting_game(s, token, seats=2):
    r = s.request("POST", "/v1/games", {"game": AA, "seats": seats,
                                        "seating": ["me"] + ["open"] * (seats - 1)},
                  token=token)
    check(r.status == 201, "create: %r" % r)
    return r.json["id"]


def started_game(s, t0, t1):
    gid = waiting_game(s, t0)
    r = s.request("POST", "/v1/games/%s/join" % gid, token=t1)
    check(r.status == 200, "join: %r" % r)
    return gid


def wait_for(fn, what, seconds=10):
    """The server reads outside_changes every 250 ms (SQLite) or hears
    NOTIFY (PostgreSQL): a bound for that, not a latency."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if fn():
            return
        time.sleep(0.05)
    check(False, what)


@test
def players_are_listed_and_found(binary):
    with server(binary) as s:
        alice, _ = player(s, "Alice")
        bob, _ = player(s, "Bob_%")
        every = admin(s, "players")
        check([p["id"] for p in every] == [alice, bob], "every player: %r" % every)
        check(every[0]["tokens"] == 1 and every[0]["banned"] is None, "fields: %r" % every[0])
        check([p["id"] for p in admin(s, "players", "ali")] == [alice], "by a part of the name")
        check([p["id"] for p in admin(s, "players", "_%")] == [bob], "LIKE's own signs match themselves")
        check([p["id"] for p in admin(s, "players", bob)] == [bob], "by id")
        check(admin(s, "players", "nobody") == [], "no match")
        check(admin(s, "player", alice)["name"] == "Alice", "one player")
        text = admin(s, "players", as_json=False)
        check(alice in text and "Bob_%" in text, "a person's lines: %r" % text)
        before = dump(s)
        err = admin(s, "player", "0123456789abcdef", status=1)
        check("no player has the id 0123456789abcdef" in err, "unknown: %r" % err)
        err = admin(s, "frobnicate", status=2)
        check("no command frobnicate" in err, "unknown command: %r" % err)
        check(dump(s) == before, "refusals changed nothing")


@test
def a_ban_stops_tokens_and_ends_waiting_games(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        _, ct = player(s, "Carol")
        own = waiting_game(s, at)                  # Alice's: cancelled
        other = waiting_game(s, ct, 3)             # Carol's, Alice sits: left
        r = s.request("POST", "/v1/games/%s/join" % other, token=at)
        check(r.status == 200, "Alice joins Carol's: %r" % r)
        # read them hot first: the ban must reach the server's memory
        for gid in (own, other):
            check(s.request("GET", "/v1/games/" + gid).status == 200, "read")
        before = dump(s)
        err = admin(s, "ban", alice, status=2)
        check("--reason" in err, "a ban needs its reason: %r" % err)
        err = admin(s, "ban", "0123456789abcdef", "--reason", "spam", status=1)
        check("no player has the id" in err, "unknown player: %r" % err)
        check(dump(s) == before, "refused bans changed nothing")
        out = admin(s, "ban", alice, "--reason", "spam in chat")
        check(out == {"done": "ban", "player": alice, "games_ended": 2}, "ban: %r" % out)
        r = s.request("GET", "/v1/players/me", token=at)
        check(r.status == 401 and "banned" in r.json["detail"], "a banned token: %r" % r)
        check(s.request("GET", "/v1/players/me", token=bt).status == 200, "Bob's still works")
        wait_for(lambda: s.request("GET", "/v1/games/" + own).status == 404,
                 "Alice's waiting game is gone, on the running server too")
        def left():
            g = s.request("GET", "/v1/games/" + other).json
            return g["players"][1]["open"] and g["players"][1]["player"] is None
        wait_for(left, "Alice's seat in Carol's game is open again")
        p = admin(s, "player", alice)
        check(p["banned"] and p["banned_reason"] == "spam in chat", "shown banned: %r" % p)
        before = dump(s)
        err = admin(s, "ban", alice, "--reason", "again", status=1)
        check("banned already" in err, "twice: %r" % err)
        check(dump(s) == before, "a second ban changed nothing")
        out = admin(s, "unban", alice)
        check(out["done"] == "unban", "unban: %r" % out)
        check(s.request("GET", "/v1/players/me", token=at).status == 200, "works again")
        err = admin(s, "unban", alice, status=1)
        check("not banned" in err, "unban twice: %r" % err)
        out = admin(s, "revoke", alice, "--reason", "leaked")
        check(out["revoked"] == 1, "revoke: %r" % out)
        r = s.request("GET", "/v1/players/me", token=at)
        check(r.status == 401, "a revoked token: %r" % r)
        log = s.query("SELECT action, player_id, reason FROM admin_log ORDER BY key")
        check([tuple(x) for x in log] == [("ban", alice, "spam in chat"), ("unban", alice, None),
                                          ("revoke", alice, "leaked")], "the log: %r" % log)


@test
def end_game_resigns_through_the_engine(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        gid = started_game(s, at, bt)
        check(s.request("GET", "/v1/games/" + gid, token=at).json["status"] == "active", "active")
        before = dump(s)
        err = admin(s, "end-game", gid, "--reason", "abuse", status=1)
        check("--winner" in err, "a game in progress needs its winner: %r" % err)
        err = admin(s, "end-game", "0123456789abcdef", "--reason", "x", status=1)
        check("no game has that id" in err, "unknown game: %r" % err)
        err = admin(s, "end-game", gid, status=2)
        check("--reason" in err, "no reason: %r" % err)
        check(dump(s) == before, "refusals changed nothing")
        out = admin(s, "end-game", gid, "--reason", "abuse", "--winner", "1")
        check(out["resigned"] == 1 and out["winner"] == 1, "ended: %r" % out)
        def over():
            g = s.request("GET", "/v1/games/" + gid, token=bt).json
            return g["status"] == "finished"
        wait_for(over, "the running server shows it finished")
        g = s.request("GET", "/v1/games/" + gid, token=bt).json
        check(g["result"]["winners"] == [1], "seat 1 won: %r" % g["result"])
        r = s.request("GET", "/v1/games/%s/moves" % gid, token=at)
        check(r.status == 200 and r.json["moves"][-1]["action"] == {"type": "resign"},
              "the engine's resign is the last move: %r" % r.json)
        err = admin(s, "end-game", gid, "--reason", "again", "--winner", "1", status=1)
        check("over already" in err, "over: %r" % err)
        waiting = waiting_game(s, at)
        out = admin(s, "end-game", waiting, "--reason", "spam")
        check(out["resigned"] == 0, "cancelled: %r" % out)
        wait_for(lambda: s.request("GET", "/v1/games/" + waiting).status == 404,
                 "the waiting game is gone")


@test
def reports_are_listed(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, _ = player(s, "Bob")
        check(admin(s, "reports") == [], "none yet")
        r = s.request("POST", "/v1/reports", {"player": bob, "reason": "rude name"}, token=at)
        check(r.status == 201, "report: %r" % r)
        rep = admin(s, "reports")
        check(len(rep) == 1 and rep[0]["reporter"]["id"] == alice and
              rep[0]["player"]["id"] == bob and rep[0]["reason"] == "rude name",
              "listed: %r" % rep)
        check(admin(s, "reports", "--after", str(rep[0]["key"])) == [], "after the last")
        check("rude name" in admin(s, "reports", as_json=False), "a person's line")


@test
def schema_and_version_are_shown(binary):
    with server(binary) as s:
        out = admin(s, "schema")
        (n,), = s.query("SELECT count(*) FROM players")  # the store answers
        check(out["version"] and out["commit"] and out["schema_version"] >= 24
              if out["backend"] == "sqlite" else out["schema_version"] >= 10,
              "schema: %r" % out)
        sql = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sql")
        if out["backend"] != "sqlite":
            sql = os.path.join(sql, "postgres")
        newest = max(f for f in os.listdir(sql) if f.endswith(".sql"))
        check(out["migration"] == newest and
              out["schema_version"] == int(newest.split("_")[0]),
              "newest migration: %r, sql/ has %s" % (out, newest))
        p = subprocess.run([binary, "--version"], capture_output=True, text=True)
        check(out["version"] in p.stdout, "the binary's version: %r" % p.stdout)


@test
def a_player_exports_their_data(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        gid = started_game(s, at, bt)
        r = s.request("POST", "/v1/games/%s/chat/players" % gid, {"text": "hello Bob"}, token=at)
        check(r.status == 201, "chat: %r" % r)
        check(s.request("PUT", "/v1/players/me/blocks/" + bob, token=at).status == 204, "block")
        r = s.request("GET", "/v1/players/me/export", token=at)
        check(r.status == 200, "export: %r" % r)
        e = r.json
        check(e["player"]["id"] == alice and e["player"]["name"] == "Alice", "the player")
        check([g["id"] for g in e["games"]] == [gid] and e["games"][0]["seat"] == 0, "games: %r" % e["games"])
        check([m["text"] for m in e["chat_messages"]] == ["hello Bob"], "chat: %r" % e["chat_messages"])
        check([b["player"]["id"] for b in e["blocks"]] == [bob], "blocks")
        check(len(e["tokens"]) == 1 and "token" not in e["tokens"][0], "tokens, never the token")
        check(e["webhook"] is None and e["push_subscriptions"] == [], "none")
        check(any(ev["type"] == "game.started" for ev in e["events"]), "events: %r" % e["events"])
        same = admin(s, "export", alice)
        check(same == e, "boardd admin export gives the same: %r" % same)
        r = s.request("GET", "/v1/players/me/export")
        check(r.status == 401, "no token: %r" % r)
        r = s.request("GET", "/v1/players/me/export", token="A" * 43)
        check(r.status == 403, "not a player's token: %r" % r)


@test
def a_player_deletes_their_account(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        bob, bt = player(s, "Bob")
        active = started_game(s, at, bt)
        finished = started_game(s, at, bt)
        r = s.request("POST", "/v1/games/%s/resign" % finished, token=bt)
        check(r.status == 201, "Bob resigns: %r" % r)
        waiting = waiting_game(s, at)
        s.request("POST", "/v1/games/%s/chat/players" % active, {"text": "mine"}, token=at)
        moves_before = s.request("GET", "/v1/games/%s/moves" % finished, token=bt).json["moves"]
        before = dump(s)
        r = s.request("DELETE", "/v1/players/me")
        check(r.status == 401, "no token: %r" % r)
        check(dump(s) == before, "a refused delete changed nothing")
        r = s.request("DELETE", "/v1/players/me", token=at)
        check(r.status == 204, "delete: %r" % r)
        # the game in progress: Alice resigned through the engine, Bob won
        g = s.request("GET", "/v1/games/" + active, token=bt).json
        check(g["status"] == "finished" and g["result"]["winners"] == [1], "resigned: %r" % g)
        for gid in (active, finished):
            g = s.request("GET", "/v1/games/" + gid, token=bt).json
            check(g["players"][0]["player"]["name"] == "deleted player", "seat 0: %r" % g["players"][0])
            check(g["players"][0]["player"]["id"] == alice, "the seat still points at the row")
        moves_after = s.request("GET", "/v1/games/%s/moves" % finished, token=bt).json["moves"]
        check(moves_after == moves_before, "a finished game keeps its moves")
        check(s.request("GET", "/v1/games/" + waiting).status == 404, "her waiting game is gone")
        check(s.query("SELECT count(*) FROM chat_messages")[0][0] == 0, "her chat is gone")
        check(s.query("SELECT name FROM players WHERE id = ? AND deleted_ms IS NOT NULL",
                      (alice,)) == [("deleted player",)], "the row is a tombstone")
        before = dump(s)
        r = s.request("DELETE", "/v1/players/me", token=at)
        check(r.status == 401, "a second delete: %r" % r)
        r = s.request("GET", "/v1/players/me/export", token=at)
        check(r.status == 401, "her token no longer works: %r" % r)
        err = admin(s, "delete", alice, status=1)
        check("was deleted" in err, "admin delete of a deleted player: %r" % err)
        err = admin(s, "export", alice, status=1)
        check("was deleted" in err, "admin export of a deleted player: %r" % err)
        check(dump(s) == before, "refused deletes changed nothing")
        # Bob's invitation list and profile no longer find her
        r = s.request("PUT", "/v1/players/me/blocks/" + alice, token=bt)
        check(r.status == 404, "a deleted player cannot be blocked: %r" % r)


@test
def admin_deletes_a_player_beside_the_server(binary):
    with server(binary) as s:
        alice, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        gid = started_game(s, at, bt)
        check(s.request("GET", "/v1/games/" + gid, token=bt).json["status"] == "active", "hot")
        out = admin(s, "delete", alice, "--reason", "asked by mail")
        check(out == {"done": "delete", "player": alice}, "delete: %r" % out)
        def shown():
            g = s.request("GET", "/v1/games/" + gid, token=bt).json
            return g["status"] == "finished" and g["players"][0]["player"]["name"] == "deleted player"
        wait_for(shown, "the running server shows the resignation and the deleted player")
        r = s.request("GET", "/v1/players/me", token=at)
        check(r.status == 401, "her token: %r" % r)
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=bt)
        check(r.status == 409, "the game is over for the server too: %r" % r)


@test
def prune_keeps_what_retention_keeps(binary):
    with server(binary) as s:
        _, at = player(s, "Alice")
        _, bt = player(s, "Bob")
        done = started_game(s, at, bt)
        going = started_game(s, at, bt)
        for gid in (done, going):
            r = s.request("POST", "/v1/games/%s/chat/players" % gid, {"text": "hi"}, token=at)
            check(r.status == 201, "chat: %r" % r)
        s.request("POST", "/v1/games/%s/resign" % done, token=bt)
        err = admin(s, "prune", status=2)
        check("--chat-days" in err, "prune needs a setting: %r" % err)
        out = admin(s, "prune", "--chat-days", "1")
        check(out["chat_messages"] == 0, "nothing a day old: %r" % out)
        out = admin(s, "prune", "--chat-days", "0", "--idempotency-hours", "1")
        check(out["chat_messages"] == 1, "the finished game's chat: %r" % out)
        r = s.request("GET", "/v1/games/%s/chat/players" % going, token=at)
        check([m["text"] for m in r.json["messages"]] == ["hi"], "a game in progress keeps its chat")


run_all("admin")
