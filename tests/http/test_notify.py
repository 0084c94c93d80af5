"""test_notify.py: what tells a player without polling, over real HTTP
against the real boardd binary, with a real webhook receiver that checks
every signature with its own Standard Webhooks implementation
(webhookhelp.py).

Checked here: a deadline.soon reaches the seat to act once per deadline,
at the documented lead (the smaller of an hour and a quarter of the
decision's time), on the account stream and the webhook, and never twice
across a SIGKILL; turn events and game stream events carry the acting
seats' deadlines as the game object shows them; the outbox is pruned
after --event-retention, events with a pending delivery excepted, and an
account stream resumed from a pruned id opens with a `gap` event; webhook
signing secrets are sealed with the server key file (0600, beside the
database): the database file does not hold them, a secret stored clear
(as before migration 0010) is sealed at start, a wrong key file or one
others may read stops the server; a receiver answering 410 Gone disables
the webhook until it is PUT again; many bot-vs-bot games played by a pool
of bot workers all finish with valid logs.

The server runs with --clock-min-seconds 1 so that deadlines pass in
seconds.  Usage: test_notify.py BOARDD [test names...]"""
import base64
import json
import os
import stat
import subprocess
import time

from gamehelp import AA, game, read_stream, server
import harness
from harness import check, run_all, test
from test_clocks import ms
from webhookhelp import Receiver, account_events, hook, new_player

harness._tests.clear()  # test_clocks' own tests are its suite's

FLAGS = ["--clock-min-seconds", "1", "--bot-ms", "20", "--webhook-allow-private",
         "--webhook-retry-ms", "50"]


def wait_for(cond, what, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def timed_game(s, at, bob, bt, clock):
    """Alice creates a timed game inviting Bob, Bob joins; its id."""
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "clock": clock,
                                         "seating": ["me", {"invite": bob}]}, token=at)
    check(r.status == 201, "create: %r" % r)
    r = s.request("POST", "/v1/games/%s/join" % r.json["id"], token=bt)
    check(r.status == 200 and r.json["status"] == "active", "join: %r" % r)
    return r.json["id"]


def soon_events(s, token):
    return [e for e in account_events(s, token, 0)[0] if e["type"] == "deadline.soon"]


# ---- deadline.soon ----

@test
def deadline_soon_once_at_its_lead_on_stream_and_webhook(binary):
    """move_seconds 4: the lead is a quarter (1 s), so the seat to act is
    warned 3 s into its turn, once, with its deadline; the webhook gets
    the same event, signed."""
    rec = Receiver()
    try:
        with server(binary, extra=FLAGS) as s:
            alice, at = new_player(s, "Alice")
            bob, bt = new_player(s, "Bob")
            secrets = {at: hook(s, at, rec.url("/a"))["secret"],
                       bt: hook(s, bt, rec.url("/b"))["secret"]}
            rec.secrets["/a"], rec.secrets["/b"] = secrets[at], secrets[bt]
            gid = timed_game(s, at, bob, bt, {"move_seconds": 4})
            g = game(s, gid)
            seat = g["to_act"][0]
            tok, path = (at, "/a") if seat == 0 else (bt, "/b")
            other = bt if tok == at else at
            deadline = g["clock"]["seats"][seat]["deadline"]
            started = ms(deadline) - 4000
            got = wait_for(lambda: soon_events(s, tok), "a deadline.soon", 20)
            e = got[0]
            check(e["data"]["game_id"] == gid and e["data"]["seat"] == seat and
                  e["data"]["deadline"] == deadline, "names the seat's deadline: %r" % e)
            sent = ms(e["timestamp"])
            check(sent >= started + 3000 - 50,
                  "not before the lead (1 s before a 4 s deadline): sent %d ms in"
                  % (sent - started))
            hooks = wait_for(lambda: [p for p in rec.delivered(path).values()
                                      if p["type"] == "deadline.soon"], "its webhook", 20)
            check(hooks[0]["data"] == e["data"], "the webhook carries it: %r" % hooks)
            # the deadline passes: the bot plays the seat; no second warning
            # for that deadline, and none ever for the seat not to act
            wait_for(lambda: game(s, gid)["seq"] >= 1, "the timeout", 30)
            time.sleep(0.5)
            again = [x for x in soon_events(s, tok) if x["data"]["deadline"] == deadline]
            check(len(again) == 1, "once per deadline: %r" % again)
            check(all(x["data"]["seq"] == 0 or x["data"]["seat"] != seat
                      for x in soon_events(s, other)), "the other seat is not warned for it")
    finally:
        rec.close()


@test
def deadline_soon_survives_sigkill_and_is_never_sent_twice(binary):
    """Game A (6 s: warned at 4.5 s) and game B (40 s: warned at 30 s);
    SIGKILL once A was warned (B not yet), restart at 30.5 s, after B's
    warning time passed while the server was down: B is warned once
    after the restart, A not again; A's passed deadline gets its
    timeout.  (B's warning is 25 s after A's: reading the account
    streams on a loaded machine takes seconds, and the kill must come
    between the two.  B's deadline is 9.5 s after the restart: a
    deadline that passed gets its timeout and no warning, and a server
    starting beside other suites on two busy cores has taken 10 s; with
    20 s, warned at 15 s and restarted at 16.2 s, a start of 4 s would
    have failed the test.)"""
    with server(binary, extra=FLAGS + ["--sync", "full"]) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        ga = timed_game(s, at, bob, bt, {"move_seconds": 6})
        gb = timed_game(s, at, bob, bt, {"move_seconds": 40})
        t0 = time.time()
        da = game(s, ga)["clock"]["seats"][game(s, ga)["to_act"][0]]["deadline"]
        db = game(s, gb)["clock"]["seats"][game(s, gb)["to_act"][0]]["deadline"]
        time.sleep(max(0, 5.0 - (time.time() - t0)))

        def soons():
            return soon_events(s, at) + soon_events(s, bt)

        def a_warned():
            evs = soons()
            return evs if da in [e["data"]["deadline"] for e in evs] else None
        before = wait_for(a_warned, "A's warning", 20)
        s.kill()
        check([e["data"]["deadline"] for e in before] == [da],
              "A warned before the kill, B not yet: %r (%.1f s after B's creation)"
              % (before, time.time() - t0))
        time.sleep(max(0, 30.5 - (time.time() - t0)))
        s.start()
        wait_for(lambda: any(e["data"]["deadline"] == db for e in soons()), "B's warning", 20)
        wait_for(lambda: game(s, ga)["seq"] >= 1, "A's timeout", 30)
        time.sleep(0.5)
        all_soon = soons()
        for d in (da, db):
            n = len([e for e in all_soon if e["data"]["deadline"] == d])
            check(n == 1, "deadline %s warned %d times: %r" % (d, n, all_soon))


# ---- clocks in events ----

@test
def turn_events_and_game_streams_carry_the_clocks(binary):
    """A turn event names the seat's deadline (and bank) as the game
    object does; the game stream's last event carries the game's clock."""
    with server(binary, extra=FLAGS) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = timed_game(s, at, bob, bt, {"move_seconds": 600, "bank_seconds": 60,
                                           "increment_seconds": 5})
        g = game(s, gid)
        seat = g["to_act"][0]
        tok = at if seat == 0 else bt
        turns = [e for e in account_events(s, tok, 0)[0] if e["type"] == "turn"]
        check(len(turns) == 1, "one turn: %r" % turns)
        want = g["clock"]["seats"][seat]
        check(turns[0]["data"]["deadline"] == want["deadline"] and
              turns[0]["data"]["bank_ms"] == want["bank_ms"] == 60000,
              "the turn event's clock is the view's: %r vs %r" % (turns[0], want))
        st, _, body = read_stream(s.port, "/v1/games/%s/events" % gid, tok,
                                  {"Accept": "application/x-ndjson"}, 1)
        first = json.loads(body.decode().splitlines()[0])
        check(first["event"] == "state" and first["clock"] == g["clock"],
              "the state event carries the clock: %r" % first)
        # untimed games: turn events say deadline null
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                             "seating": ["me", {"invite": bob}]}, token=at)
        s.request("POST", "/v1/games/%s/join" % r.json["id"], token=bt)
        evs = [e for e in account_events(s, at, 0)[0] + account_events(s, bt, 0)[0]
               if e["type"] == "turn" and e["data"]["game_id"] == r.json["id"]]
        check(evs and all(e["data"]["deadline"] is None for e in evs),
              "untimed: deadline null: %r" % evs)


# ---- pruning ----

@test
def the_outbox_is_pruned_and_a_resume_from_a_pruned_id_says_so(binary):
    """--event-retention 2: Alice's delivered-or-undelivered-to-nobody
    events go after ~2 s; a stream resumed from 0 opens with a gap event
    (seq: the newest pruned key) then goes on; Bob's events, whose
    deliveries keep failing (pending), stay."""
    rec = Receiver(fail=lambda path, msg_id, attempt: 500)
    try:
        with server(binary, extra=FLAGS + ["--event-retention", "2",
                                           "--webhook-retry-ms", "200"]) as s:
            alice, at = new_player(s, "Alice")
            bob, bt = new_player(s, "Bob")
            rec.secrets["/b"] = hook(s, bt, rec.url("/b"))["secret"]
            gid = timed_game(s, at, bob, bt, {"move_seconds": 3600})
            before = account_events(s, at, 0)[0]
            check(before, "Alice has events")
            newest = max(e["seq"] for e in before)
            bob_before = account_events(s, bt, 0)[0]

            def pruned():
                evs = account_events(s, at, 0)[0]
                return evs if evs and evs[0]["event"] == "gap" else None
            evs = wait_for(pruned, "the prune", 20)
            check(evs[0]["seq"] == newest and evs[0]["after"] == 0 and len(evs) == 1,
                  "a gap event up to the newest pruned key, nothing else: %r" % evs)
            # resuming after the newest pruned key: no gap
            check(account_events(s, at, newest)[0] == [], "after the horizon: nothing")
            # Bob's events have pending deliveries: kept
            check([e["id"] for e in account_events(s, bt, 0)[0]] ==
                  [e["id"] for e in bob_before], "pending events stay: %r" % bob_before)
            # new events still come, after the gap
            s.request("POST", "/v1/games/%s/resign" % gid, token=at)
            evs = wait_for(lambda: [e for e in account_events(s, at, newest)[0]
                                    if e["type"] == "game.finished"], "a new event")
            check(evs[0]["seq"] > newest, "new events follow: %r" % evs)
            # SSE: the gap event has an id, so EventSource resumes past it
            st, ctype, body = read_stream(s.port, "/v1/players/me/events", at,
                                          {"Last-Event-ID": "0"}, 1)
            check(b"event: gap" in body, "SSE gap: %r" % body[:300])
    finally:
        rec.close()


# ---- secrets at rest ----

@test
def webhook_secrets_are_sealed_at_rest(binary):
    rec = Receiver()
    try:
        with server(binary, extra=FLAGS) as s:
            alice, at = new_player(s, "Alice")
            bob, bt = new_player(s, "Bob")
            secret = hook(s, at, rec.url("/a"))["secret"]
            rec.secrets["/a"] = secret
            raw = base64.b64decode(secret[len("whsec_"):])
            keyfile = s.key
            st = os.stat(keyfile)
            check(stat.S_IMODE(st.st_mode) == 0o600 and st.st_size == 32,
                  "the key file: mode %o, %d bytes" % (stat.S_IMODE(st.st_mode), st.st_size))
            s.stop()
            blob = s.store_bytes()
            check(raw not in blob and secret.encode() not in blob and
                  base64.b64encode(raw) not in blob, "the database does not hold the secret")
            # a secret stored clear (as before migration 0010) is sealed
            # at start; deliveries are signed with it
            s.query("UPDATE webhooks SET secret = ?, sealed = 0", (raw,))
            s.start()
            (row,) = s.query("SELECT sealed, secret FROM webhooks")
            check(row[0] == 1 and row[1] != raw, "sealed at start: %r" % (row,))
            timed_game(s, at, bob, bt, {"move_seconds": 3600})
            got = wait_for(lambda: rec.delivered("/a"), "a delivery signed with the secret")
            check(got, "delivered and verified")
            s.stop()
            # another key file: the server refuses to start, and says why
            os.rename(keyfile, keyfile + ".kept")
            with open(keyfile, "wb") as f:
                f.write(os.urandom(32))
            os.chmod(keyfile, 0o600)
            p = subprocess.run([binary, "--port", "0"] + s.store_args() + ["--quiet"],
                               capture_output=True, timeout=30)
            check(p.returncode != 0 and b"does not open" in p.stderr,
                  "a wrong key: %r" % p.stderr[-300:])
            os.replace(keyfile + ".kept", keyfile)
            os.chmod(keyfile, 0o644)
            p = subprocess.run([binary, "--port", "0"] + s.store_args() + ["--quiet"],
                               capture_output=True, timeout=30)
            check(p.returncode != 0 and b"chmod 600" in p.stderr,
                  "a key others may read: %r" % p.stderr[-300:])
            os.chmod(keyfile, 0o600)
            s.start()
    finally:
        rec.close()


# ---- 410 Gone ----

@test
def a_receiver_answering_410_disables_the_webhook(binary):
    gone = {"on": True}
    rec = Receiver(fail=lambda path, msg_id, attempt: 410 if gone["on"] else 200)
    try:
        with server(binary, extra=FLAGS) as s:
            alice, at = new_player(s, "Alice")
            bob, bt = new_player(s, "Bob")
            rec.secrets["/a"] = hook(s, at, rec.url("/a"))["secret"]
            timed_game(s, at, bob, bt, {"move_seconds": 3600})
            w = wait_for(lambda: (lambda r: r.json if not r.json["enabled"] else None)(
                s.request("GET", "/v1/players/me/webhook", token=at)), "disabled")
            check(w["disabled"] and "410" in w["disabled_reason"], "shown: %r" % w)
            d = s.request("GET", "/v1/players/me/webhook/deliveries", token=at).json
            check(any(x["status"] == 410 and x["state"] == "failed" for x in d["deliveries"]),
                  "the 410 delivery: %r" % d)
            check(all(x["state"] != "pending" for x in d["deliveries"]), "none pending: %r" % d)
            n = len(rec.requests)
            gid2 = timed_game(s, at, bob, bt, {"move_seconds": 3600})
            time.sleep(1)
            # Nothing of an event after the disable.  A delivery of the
            # first game that a worker had already claimed when the 410
            # came may still arrive (its row is failed by the disable, its
            # POST was on its way): the sender cannot call back a request
            # in flight, so only the second game's events count.
            late = [json.loads(r[2]) for r in rec.requests[n:]]
            check(not [e for e in late if e.get("data", {}).get("game_id") == gid2],
                  "no delivery to a disabled webhook: %r" % late)
            n_dlv = len(s.request("GET", "/v1/players/me/webhook/deliveries",
                                  token=at).json["deliveries"])
            check(n_dlv == len(d["deliveries"]), "and none queued")
            # PUT again: enabled, delivered
            gone["on"] = False
            rec.secrets["/a"] = hook(s, at, rec.url("/a"))["secret"]
            w = s.request("GET", "/v1/players/me/webhook", token=at).json
            check(w["enabled"] and w["disabled"] is None and w["disabled_reason"] is None,
                  "enabled again: %r" % w)
            gid = timed_game(s, at, bob, bt, {"move_seconds": 3600})
            wait_for(lambda: [p for p in rec.delivered("/a").values()
                              if p["data"]["game_id"] == gid], "a delivery after the PUT")
    finally:
        rec.close()


# ---- the bot worker pool ----

@test
def a_pool_of_bot_workers_plays_every_game_once(binary):
    """--bot-workers 4, 12 random-vs-random games (one player's: a game of
    bots only needs one, and --bot-games-per-player lets it run 12):
    all finish, each log replays (the game loads) and its seqs are
    dense."""
    with server(binary, extra=FLAGS + ["--bot-workers", "4",
                                       "--bot-games-per-player", "12"]) as s:
        _, at = new_player(s, "Alice")
        gids = []
        for _ in range(12):
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "seating": [
                {"bot": "random"}, {"bot": "random"}]}, token=at)
            check(r.status == 201, "create: %r" % r)
            gids.append(r.json["id"])
        for gid in gids:
            g = wait_for(lambda: (lambda x: x if x["status"] == "finished" else None)(
                game(s, gid)), "game %s to finish" % gid, 120)
            m = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
            check([x["seq"] for x in m] == list(range(1, g["seq"] + 1)),
                  "%s: a dense log" % gid)


if __name__ == "__main__":
    run_all("notify")
