"""test_vacation.py: vacation over real HTTP, against the real server
(issue 32 goal 3; docs/notifications.md, "Vacation").

A player accrues a day of vacation for every full 7 days since the account
was made, to at most 30; takes it by hand (POST /v1/players/me/vacation)
or automatically when a correspondence clock would otherwise run out
(PATCH {"auto": true}); ends it early (DELETE), getting back what was not
used.  While it lasts, the clocks of their correspondence games
(move_seconds of a day or more, not created with clock.vacation false)
stop, and resume with the time they had.

The days pass on the server's wall clock, moved by the test (libfaketime:
testclock.py); the clock scheduler, which waits on the real monotonic
clock, is woken after each step by a move elsewhere (a timed game created:
`nudge`).  Every time compared is the server's own, to the millisecond.

Usage: test_vacation.py BOARDD [test names...]"""

import calendar
import re
import time

from gamehelp import AA, actions, move, server
from harness import POSTGRES, Server, check, run_all, test
from testclock import TestClock

DAY = 86400
DAY_MS = DAY * 1000
# A liveness bound for "the scheduler acted", not a latency claim.
STUCK_S = 60
CORRESPONDENCE = {"move_seconds": DAY}


def ms(stamp):
    """RFC 3339 UTC with milliseconds (as the server writes) -> unix ms."""
    check(isinstance(stamp, str) and stamp.endswith("Z"), "a UTC time: %r" % stamp)
    t = calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    return t * 1000 + int(stamp[20:23])


def player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def vacation(s, tok):
    r = s.request("GET", "/v1/players/me/vacation", token=tok)
    check(r.status == 200, "vacation: %r" % r)
    return r.json


def problem(r, status, kind):
    check(r.status == status and r.headers.get("content-type", "").startswith(
        "application/problem+json") and r.json["type"] == "urn:boardd:problem:" + kind,
        "%d %s: %r" % (status, kind, r))


def week_old_pair(s, clock):
    """Alice and Bob made now, then the server's clock 8 days on: a day of
    vacation each.  Returns (when they were made, unix s, Alice's token,
    Bob's id, Bob's token)."""
    start = time.time()
    _, at = player(s, "Alice")
    bob, bt = player(s, "Bob")
    at_offset(clock, start, 8)
    return start, at, bob, bt


def game_of(s, at, bob, bt, clock, on_timeout="forfeit"):
    """Alice invites Bob to a game with `clock`; Bob joins.  Returns (game
    id, the seat to act, its token, the other seat's token)."""
    r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "clock": clock,
                                         "on_timeout": on_timeout,
                                         "seating": ["me", {"invite": bob}]}, token=at)
    check(r.status == 201, "create: %r" % r)
    gid = r.json["id"]
    r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
    check(r.status == 200 and r.json["status"] == "active", "join: %r" % r)
    to_act = view(s, gid, bt)["to_act"]
    check(len(to_act) == 1, "one seat to act: %r" % to_act)
    toks = [at, bt]
    return gid, to_act[0], toks[to_act[0]], toks[1 - to_act[0]]


def view(s, gid, tok):
    r = s.request("GET", "/v1/games/%s" % gid, token=tok)
    check(r.status == 200, "game: %r" % r)
    return r.json


def nudge(s):
    """Wakes the clock scheduler now, so that it looks at the deadlines
    the moved clock passed: a game of two bots does (each bot decision
    signals the scheduler's workers, which then find the passed deadline;
    a clock created, or a deadline lowered, does not wake a scheduler
    already due, which a step of the wall clock leaves asleep for up to
    a minute: docs/notifications.md, "Vacation")."""
    _, t = player(s, "Nudge")  # (a player runs few games of bots only)
    r = s.request("POST", "/v1/games", {"game": AA, "seating": [{"bot": "random"},
                                                                {"bot": "random"}]}, token=t)
    check(r.status == 201, "nudge: %r" % r)


def wait_for(s, what, fn):
    end = time.monotonic() + STUCK_S
    while True:
        v = fn()
        if v:
            return v
        check(time.monotonic() < end, "stuck waiting for %s" % what)
        nudge(s)
        time.sleep(0.3)


def settled(cond, then, seconds=10):
    """then() once cond() holds, or after `seconds` (a bound on another
    node's NOTIFY reaching this one, not a latency); the caller checks
    what then() gave."""
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)
    return then()


def moves(s, gid):
    r = s.request("GET", "/v1/games/%s/moves" % gid)
    check(r.status == 200, "moves: %r" % r)
    return r.json["moves"]


def at_offset(clock, start, days):
    """Sets the server's clock to `days` days after `start` (unix s)."""
    clock.set(start + days * DAY - time.time())


@test
def days_accrue_one_a_week_to_thirty(binary):
    """A new player has none; a day after each full 7 days since the
    account was made (not before); at most 30 days, next_accrual null
    then; auto is a setting, its bad values refused."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start = time.time()
            _, t = player(s, "Alice")
            made = s.query("SELECT created_ms FROM players")[0][0]
            v = vacation(s, t)
            check(v == {"left_seconds": 0, "on_vacation": False, "since": None, "until": None,
                        "auto": False, "began_automatically": False,
                        "next_accrual": v["next_accrual"]}, "a new player: %r" % v)
            check(ms(v["next_accrual"]) == made + 7 * DAY_MS, "the first in 7 days: %r" % v)
            at_offset(clock, start, 7 - 1 / 24)
            check(vacation(s, t)["left_seconds"] == 0, "none an hour before the week")
            at_offset(clock, start, 7 + 1 / 24)
            v = vacation(s, t)
            check(v["left_seconds"] == DAY and ms(v["next_accrual"]) == made + 14 * DAY_MS,
                  "a day after a week: %r" % v)
            at_offset(clock, start, 20)
            check(vacation(s, t)["left_seconds"] == 2 * DAY, "two after 20 days")
            at_offset(clock, start, 400)
            v = vacation(s, t)
            check(v["left_seconds"] == 30 * DAY and v["next_accrual"] is None,
                  "30 days at most: %r" % v)
            r = s.request("PATCH", "/v1/players/me/vacation", {"auto": True}, token=t)
            check(r.status == 200 and r.json["auto"] is True, "auto on: %r" % r)
            for bad in ({"auto": "yes"}, {"auto": None}, {}, {"auto": False, "days": 3}):
                problem(s.request("PATCH", "/v1/players/me/vacation", bad, token=t),
                        400, "bad-request")
            check(vacation(s, t)["auto"] is True, "a refused PATCH changes nothing")
            problem(s.request("GET", "/v1/players/me/vacation"), 401, "unauthorized")
    finally:
        clock.close()


@test
def a_vacation_by_hand_stops_the_clock_and_ending_it_early_resumes_it_exactly(binary):
    """The seat to act takes 2 hours: its deadline moves 2 hours later
    and its opponent sees the vacation; an hour later it ends it: the
    deadline is the old one plus the hour taken (the time left when it
    began is the time left when it ended), the unused hour is given
    back, and a second DELETE is a 409."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)  # both have a day
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            g = view(s, gid, them)
            check(g["clock"]["vacation"] is True, "a correspondence clock: %r" % g["clock"])
            d0 = ms(g["clock"]["seats"][seat]["deadline"])
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 7200}, token=me)
            check(r.status == 201 and r.json["on_vacation"] is True and
                  r.json["left_seconds"] == DAY - 7200 and
                  ms(r.json["until"]) - ms(r.json["since"]) == 7200 * 1000, "taken: %r" % r)
            since = ms(r.json["since"])
            g = view(s, gid, them)
            sc = g["clock"]["seats"][seat]
            check(sc["vacation"] == {"since": r.json["since"], "until": r.json["until"]},
                  "the opponent sees the vacation: %r" % sc)
            check(ms(sc["deadline"]) == d0 + 7200 * 1000, "the deadline 2 h later: %r" % sc)
            check(g["clock"]["seats"][1 - seat]["vacation"] is None, "the other seat is not away")
            problem(s.request("POST", "/v1/players/me/vacation", token=me), 409, "on-vacation")
            at_offset(clock, start, 8 + 1 / 24)
            r = s.request("DELETE", "/v1/players/me/vacation", token=me)
            check(r.status == 200 and r.json["on_vacation"] is False and
                  r.json["since"] is None, "ended: %r" % r)
            (a, b), = s.query("SELECT start_ms, end_ms FROM vacations")
            # (an hour on the moved clock, less the real seconds since `start`)
            check(a == since and 3500 * 1000 <= b - a <= 3600 * 1000,
                  "an hour taken: %r" % ((a, b),))
            left = s.query("SELECT left_ms FROM vacation_accounts")[0][0]
            check(left == DAY_MS - (b - a) and r.json["left_seconds"] == left // 1000,
                  "the unused time given back: %r, %r" % (left, r.json))
            sc = view(s, gid, them)["clock"]["seats"][seat]
            check(sc["vacation"] is None, "no vacation shown: %r" % sc)
            check(ms(sc["deadline"]) == d0 + (b - a), "the deadline moved by the hour taken")
            check(ms(sc["deadline"]) - b == d0 - a,
                  "the time left when it ended is the time left when it began")
            problem(s.request("DELETE", "/v1/players/me/vacation", token=me), 409,
                    "not-on-vacation")
            # the player's move pays nothing for the hour away: an untimed
            # bank has nothing to pay, and the move is not late
            check(view(s, gid, me)["status"] == "active", "the game goes on")
    finally:
        clock.close()


@test
def the_games_etag_changes_with_a_vacation_and_if_match_still_takes_it(binary):
    """A vacation changes the view without a move: the ETag a client
    holds no longer matches (a 200 with the vacation, never a stale 304),
    the new one is "<seq>-s<n>", and If-Match takes it, or the plain
    "<seq>", as the seq it names (openapi.yaml, "Concurrency")."""
    clock = TestClock()
    try:
        with server(binary) as s:
            _, at, bob, bt = week_old_pair(s, clock)
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            r0 = s.request("GET", "/v1/games/%s" % gid, token=them)
            e0, seq = r0.headers["etag"], r0.json["seq"]
            check(e0 == '"%d"' % seq, "before: %r" % e0)
            check(s.request("GET", "/v1/games/%s" % gid, token=them,
                            headers={"If-None-Match": e0}).status == 304, "unchanged: 304")
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=me)
            check(r.status == 201, "taken: %r" % r)
            r1 = s.request("GET", "/v1/games/%s" % gid, token=them, headers={"If-None-Match": e0})
            e1 = r1.headers.get("etag")
            check(r1.status == 200 and r1.json["clock"]["seats"][seat]["vacation"] is not None,
                  "the old ETag no longer matches: %r" % r1)
            check(re.fullmatch(r'"%d-s[1-9][0-9]*"' % seq, e1 or ""), "the new ETag: %r" % e1)
            check(s.request("GET", "/v1/games/%s" % gid, token=them,
                            headers={"If-None-Match": e1}).status == 304, "the new one: 304")
            r = s.request("DELETE", "/v1/players/me/vacation", token=me)
            check(r.status == 200, "ended: %r" % r)
            r2 = s.request("GET", "/v1/games/%s" % gid, token=them, headers={"If-None-Match": e1})
            check(r2.status == 200 and r2.json["clock"]["seats"][seat]["vacation"] is None and
                  r2.headers.get("etag") not in (e0, e1), "ended: another ETag: %r" % r2)
            act = actions(s, gid, me)[0]
            bad = move(s, gid, me, act, headers={"If-Match": '"%d-s1"' % (seq + 1)})
            check(bad.status == 412, "another seq's tag: 412: %r" % bad)
            ok = move(s, gid, me, act, headers={"If-Match": r2.headers["etag"]})
            check(ok.status == 201, "If-Match takes \"<seq>-s<n>\": %r" % ok)
    finally:
        clock.close()


@test
def a_vacation_that_runs_out_by_itself_leaves_no_stale_view_or_304(binary):
    """A vacation taken for an hour: while it lasts the view shows it and
    its ETag gives 304; once the server's clock passes its end (nothing
    written: it ran out by itself), the same conditional GET is a 200 with
    the seat's vacation null and another ETag, a hot read and a store read
    alike, never the cached view (sql/0032_seats_until.sql)."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=me)
            check(r.status == 201, "taken: %r" % r)
            r1 = s.request("GET", "/v1/games/%s" % gid, token=them)
            e1 = r1.headers.get("etag")
            check(r1.status == 200 and r1.json["clock"]["seats"][seat]["vacation"] is not None,
                  "on vacation: %r" % r1)
            # twice: the second read is the hot table's
            for _ in range(2):
                check(s.request("GET", "/v1/games/%s" % gid, token=them,
                                headers={"If-None-Match": e1}).status == 304, "while it lasts: 304")
            until = ms(r1.json["clock"]["seats"][seat]["vacation"]["until"])
            clock.set((until / 1000.0 + 60) - time.time())  # a minute after its end
            r2 = s.request("GET", "/v1/games/%s" % gid, token=them, headers={"If-None-Match": e1})
            check(r2.status == 200 and r2.json["clock"]["seats"][seat]["vacation"] is None,
                  "ran out: the view without it: %r" % r2)
            e2 = r2.headers.get("etag")
            check(e2 not in (None, e1) and re.fullmatch(r'"%d-s[1-9][0-9]*"' % r2.json["seq"], e2),
                  "ran out: another ETag: %r" % e2)
            for tok in (them, me, None):
                r3 = s.request("GET", "/v1/games/%s" % gid, token=tok)
                check(r3.status == 200 and r3.json["clock"]["seats"][seat]["vacation"] is None
                      and r3.headers.get("etag") == e2, "every viewer, the same ETag: %r" % r3)
            check(s.request("GET", "/v1/games/%s" % gid, token=them,
                            headers={"If-None-Match": e2}).status == 304, "the new one: 304")
            check(vacation(s, me)["on_vacation"] is False, "the account: no vacation being taken")
    finally:
        clock.close()


@test
def a_vacation_taken_before_the_game_began_runs_out_of_its_view_too(binary):
    """Bob takes an hour of vacation, then joins Alice's timed game, and
    makes a seat token's seat of another timed game his (POST
    /v1/players/me/seats): both views show his vacation from the start.  Once the server's clock
    passes its end, the ETag held while it lasted gets a 200 without it,
    and a plain GET shows none (before the fix: the game began after the
    vacation's bump, so nothing marked when its view would change, and
    the ended vacation stayed in the view and its 304s for good)."""
    clock = TestClock()
    try:
        with server(binary) as s:
            _, at, bob, bt = week_old_pair(s, clock)
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=bt)
            check(r.status == 201, "taken: %r" % r)
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            games = [(gid, seat if me == bt else 1 - seat)]
            # and a game of seat tokens whose seat 1 Bob then makes his
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "clock": CORRESPONDENCE})
            check(r.status == 201, "create: %r" % r)
            r2 = s.request("POST", "/v1/players/me/seats", {"token": r.json["seats"][1]["token"]},
                           token=bt)
            check(r2.status == 200, "attach: %r" % r2)
            games.append((r.json["id"], 1))
            held = []
            for gid, bob_seat in games:
                r1 = s.request("GET", "/v1/games/%s" % gid, token=at)
                e1 = r1.headers.get("etag")
                shown = r1.json["clock"]["seats"][bob_seat]["vacation"]
                check(r1.status == 200 and shown is not None, "Bob's vacation shown: %r" % r1)
                check(s.request("GET", "/v1/games/%s" % gid, token=at,
                                headers={"If-None-Match": e1}).status == 304, "while it lasts: 304")
                held.append(e1)
            clock.set((ms(shown["until"]) / 1000.0 + 60) - time.time())
            for (gid, bob_seat), e1 in zip(games, held):
                r2 = s.request("GET", "/v1/games/%s" % gid, token=at,
                               headers={"If-None-Match": e1})
                check(r2.status == 200 and r2.json["clock"]["seats"][bob_seat]["vacation"] is None
                      and r2.headers.get("etag") != e1, "ran out: the view without it: %r" % r2)
                r3 = s.request("GET", "/v1/games/%s" % gid, token=None)
                check(r3.status == 200 and r3.json["clock"]["seats"][bob_seat]["vacation"] is None,
                      "ran out, a plain read: %r" % r3)
    finally:
        clock.close()


@test
def a_vacation_shows_only_in_running_games(binary):
    """A waiting timed game and a finished one: a vacation their players
    take changes neither (it stops no clock of theirs, and only running
    games' seats_version moves with a vacation): every viewer's view
    shows no vacation, under the ETag it had (before the fix: a view
    first built during the vacation showed it under that same ETag, one
    tag for two bodies, and kept showing it after it ended, since
    nothing marked when it would)."""
    clock = TestClock()
    try:
        with server(binary) as s:
            _, at, bob, bt = week_old_pair(s, clock)
            done, _, me, _ = game_of(s, at, bob, bt, CORRESPONDENCE)
            r = s.request("POST", "/v1/games/%s/resign" % done, token=me)
            check(r.status == 201, "resign: %r" % r)
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 2,
                                                 "clock": CORRESPONDENCE}, token=at)
            check(r.status == 201, "waiting: %r" % r)
            waiting = r.json["id"]
            before = {}
            for gid in (done, waiting):
                r = s.request("GET", "/v1/games/%s" % gid, token=at)
                check(r.status == 200, "view: %r" % r)
                before[gid] = r.headers.get("etag")
            for tok in (at, bt):
                r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=tok)
                check(r.status == 201, "taken: %r" % r)
            for gid in (done, waiting):
                # Bob's and nobody's views: first built now
                for tok in (bt, None, at):
                    r = s.request("GET", "/v1/games/%s" % gid, token=tok)
                    check(r.status == 200 and r.headers.get("etag") == before[gid] and
                          all(x["vacation"] is None for x in r.json["clock"]["seats"]),
                          "%s: no vacation shown, the same ETag: %r" % (gid, r))
    finally:
        clock.close()


@test
def auto_vacation_begins_instead_of_the_timeout_then_the_days_run_out(binary):
    """Auto on, a day left: when the deadline passes, a vacation of that
    day begins at the deadline instead of the timeout (no move, the game
    goes on, the deadline a day later); when it runs out the timeout
    happens: the seat forfeits at that later deadline."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            r = s.request("PATCH", "/v1/players/me/vacation", {"auto": True}, token=me)
            check(r.status == 200 and r.json["auto"] is True and r.json["left_seconds"] == DAY,
                  "auto on, a day: %r" % r)
            d0 = ms(view(s, gid, them)["clock"]["seats"][seat]["deadline"])
            clock.set(d0 / 1000 + 30 - time.time())  # 30 s past the deadline
            v = wait_for(s, "the automatic vacation",
                         lambda: vacation(s, me)["on_vacation"] and vacation(s, me))
            check(ms(v["since"]) == d0 and ms(v["until"]) == d0 + DAY_MS and
                  v["began_automatically"] is True and v["left_seconds"] == 0,
                  "a day's vacation from the deadline: %r" % v)
            g = view(s, gid, them)
            check(g["status"] == "active" and g["seq"] == 0 and moves(s, gid) == [],
                  "no timeout: %r" % g)
            sc = g["clock"]["seats"][seat]
            check(ms(sc["deadline"]) == d0 + DAY_MS and sc["vacation"] is not None,
                  "the deadline a day later, the vacation shown: %r" % sc)
            clock.set((d0 + DAY_MS) / 1000 + 30 - time.time())  # the day ran out
            g = wait_for(s, "the timeout", lambda: (lambda x: x["status"] == "finished" and x)(
                view(s, gid, them)))
            check(g["result"] == {"winners": [1 - seat], "reason": "resignation"},
                  "the seat forfeited: %r" % g["result"])
            m = moves(s, gid)
            check(len(m) == 1 and m[0]["by"] == "timeout" and m[0]["seat"] == seat,
                  "one timeout: %r" % m)
            check(not vacation(s, me)["on_vacation"], "the vacation is over")
    finally:
        clock.close()


@test
def a_vacation_taken_after_a_passed_deadline_spends_no_automatic_days(binary):
    """Auto on, a day left: the deadline passes, then (before the clock
    worker looks) the seat's player takes an hour by hand.  That vacation
    began after the deadline, so it cannot move it, nor could an
    automatic one beginning after it: the timeout happens at the
    deadline and the rest of the balance is kept (no automatic vacation
    spends it)."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)
            gid, seat, me, them = game_of(s, at, bob, bt, CORRESPONDENCE)
            r = s.request("PATCH", "/v1/players/me/vacation", {"auto": True}, token=me)
            check(r.status == 200 and r.json["left_seconds"] == DAY, "auto on: %r" % r)
            d0 = ms(view(s, gid, them)["clock"]["seats"][seat]["deadline"])
            clock.set(d0 / 1000 + 30 - time.time())  # 30 s past the deadline
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=me)
            check(r.status == 201 and r.json["left_seconds"] == DAY - 3600, "an hour: %r" % r)
            g = wait_for(s, "the timeout", lambda: (lambda x: x["status"] == "finished" and x)(
                view(s, gid, them)))
            m = moves(s, gid)
            check(len(m) == 1 and m[0]["by"] == "timeout" and m[0]["seat"] == seat,
                  "one timeout: %r" % m)
            v = vacation(s, me)
            check(v["left_seconds"] == DAY - 3600 and not v["began_automatically"],
                  "the rest of the day kept: %r" % v)
            check(s.query("SELECT count(*) FROM vacations")[0][0] == 1,
                  "no automatic vacation stored: %r" % (s.query("SELECT * FROM vacations"),))
    finally:
        clock.close()


@test
def a_game_created_with_vacation_disallowed_times_out(binary):
    """clock.vacation false: the clock never stops, neither for a
    vacation taken by hand nor by auto vacation; a live clock (under a
    day) never stops either; a bad clock.vacation is a 422."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)
            r = s.request("POST", "/v1/games", {"game": AA, "clock": {"move_seconds": DAY,
                                                                      "vacation": "no"}})
            problem(r, 422, "bad-options")
            gid, seat, me, them = game_of(s, at, bob, bt, {"move_seconds": DAY, "vacation": False})
            g = view(s, gid, them)
            check(g["clock"]["vacation"] is False and g["clock"]["move_seconds"] == DAY,
                  "vacation disallowed: %r" % g["clock"])
            d0 = ms(g["clock"]["seats"][seat]["deadline"])
            live = game_of(s, at, bob, bt, {"move_seconds": DAY - 1})[0]
            check(view(s, live, at)["clock"]["vacation"] is False, "a live clock never stops")
            r = s.request("PATCH", "/v1/players/me/vacation", {"auto": True}, token=me)
            check(r.status == 200, "auto: %r" % r)
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=me)
            check(r.status == 201, "taken: %r" % r)
            sc = view(s, gid, them)["clock"]["seats"][seat]
            check(ms(sc["deadline"]) == d0 and sc["vacation"] is not None,
                  "the deadline stays; the vacation is shown: %r" % sc)
            clock.set(d0 / 1000 + 30 - time.time())
            g = wait_for(s, "the timeout", lambda: (lambda x: x["status"] == "finished" and x)(
                view(s, gid, them)))
            check(g["result"] == {"winners": [1 - seat], "reason": "resignation"},
                  "forfeited at its deadline: %r" % g["result"])
            check(s.query("SELECT count(*) FROM vacations WHERE auto = 1")[0][0] == 0,
                  "no automatic vacation began")
    finally:
        clock.close()


@test
def ending_a_vacation_leaves_a_live_games_stored_deadline_right(binary):
    """Ending a vacation early sets the stored deadline (the scheduler's
    index) of the player's games to now, to be looked at again; a live
    game's (which no vacation stops) is then put back to its true
    deadline, as a correspondence game's is: left at the moment the
    vacation ended, every clock pass would load the game again."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start, at, bob, bt = week_old_pair(s, clock)
            gid, seat, me, them = game_of(s, at, bob, bt, {"move_seconds": 3600})
            d0 = ms(view(s, gid, them)["clock"]["seats"][seat]["deadline"])
            stored = lambda: s.query("SELECT deadline_ms FROM games WHERE id = ?", (gid,))[0][0]
            check(stored() == d0, "stored as shown: %r %r" % (stored(), d0))
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 7200}, token=me)
            check(r.status == 201, "taken: %r" % r)
            r = s.request("DELETE", "/v1/players/me/vacation", token=me)
            check(r.status == 200, "ended: %r" % r)
            wait_for(s, "the stored deadline put back", lambda: stored() == d0)
            check(ms(view(s, gid, them)["clock"]["seats"][seat]["deadline"]) == d0,
                  "the live clock did not stop")
    finally:
        clock.close()


@test
def the_export_lists_the_vacations_and_a_deleted_account_keeps_none(binary):
    """GET /v1/players/me/export shows the balance (as GET .../vacation)
    and every vacation taken, oldest first (issue 35's "everything stored
    about them"); DELETE /v1/players/me erases both."""
    clock = TestClock()
    try:
        with server(binary) as s:
            _, at, bob, bt = week_old_pair(s, clock)
            e = s.request("GET", "/v1/players/me/export", token=at).json
            check(e["vacations"] == [] and e["vacation"] == vacation(s, at),
                  "none taken yet: %r" % e)
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 7200}, token=at)
            check(r.status == 201, "taken: %r" % r)
            r = s.request("DELETE", "/v1/players/me/vacation", token=at)
            check(r.status == 200, "ended: %r" % r)
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=at)
            check(r.status == 201, "taken again: %r" % r)
            taken = r.json
            e = s.request("GET", "/v1/players/me/export", token=at).json
            check(e["vacation"] == vacation(s, at), "the balance: %r" % e["vacation"])
            v = e["vacations"]
            check(len(v) == 2 and not v[0]["automatic"] and not v[1]["automatic"],
                  "two by hand: %r" % v)
            check(ms(v[0]["since"]) <= ms(v[0]["until"]) <= ms(v[1]["since"]) and
                  v[1]["since"] == taken["since"] and v[1]["until"] == taken["until"],
                  "oldest first, the second as taken: %r / %r" % (v, taken))
            check(s.request("GET", "/v1/players/me/export", token=bt).json["vacations"] == [],
                  "Bob's export has none of Alice's")
            check(s.request("DELETE", "/v1/players/me", token=at).status == 204, "deleted")
            left = s.query("SELECT count(*) FROM vacations")[0][0] + \
                s.query("SELECT count(*) FROM vacation_accounts")[0][0]
            check(left == 0, "her vacations and balance are gone: %d rows" % left)
    finally:
        clock.close()


@test
def bad_vacation_requests_are_refused_and_change_nothing(binary):
    """Negative, too short, too long, non-integer and unknown fields are
    400; more than is left is 409 not-enough-vacation; no token 401.
    Each leaves no vacation and the balance as it was."""
    clock = TestClock()
    try:
        with server(binary) as s:
            start = time.time()
            _, t = player(s, "Alice")
            problem(s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=t),
                    409, "not-enough-vacation")
            problem(s.request("POST", "/v1/players/me/vacation", token=t), 409,
                    "not-enough-vacation")
            at_offset(clock, start, 8)
            for bad in ({"seconds": -3600}, {"seconds": 0}, {"seconds": 3599},
                        {"seconds": 30 * DAY + 1}, {"seconds": "7200"}, {"seconds": 7200.5},
                        {"seconds": 7200, "reason": "beach"}, [7200]):
                problem(s.request("POST", "/v1/players/me/vacation", bad, token=t),
                        400, "bad-request")
            r = s.request("POST", "/v1/players/me/vacation", {"seconds": DAY + 3600}, token=t)
            problem(r, 409, "not-enough-vacation")
            check("86400" in r.json.get("detail", ""), "says what is left: %r" % r.json)
            problem(s.request("POST", "/v1/players/me/vacation", {"seconds": 3600}), 401,
                    "unauthorized")
            problem(s.request("DELETE", "/v1/players/me/vacation", token=t), 409,
                    "not-on-vacation")
            check(s.query("SELECT count(*) FROM vacations")[0][0] == 0, "no vacation stored")
            v = vacation(s, t)
            check(v["left_seconds"] == DAY and not v["on_vacation"], "unchanged: %r" % v)
            # all that is left, without a body
            r = s.request("POST", "/v1/players/me/vacation", token=t)
            check(r.status == 201 and r.json["left_seconds"] == 0 and
                  ms(r.json["until"]) - ms(r.json["since"]) == DAY_MS, "the whole day: %r" % r)
    finally:
        clock.close()


@test
def two_nodes_show_the_vacation_and_apply_one_automatic_vacation_then_one_timeout(binary):
    """On PostgreSQL two nodes of one database (on SQLite one node): a
    view read on node B before a vacation taken on node A shows it after
    (B's cached answer renewed); ended on A, B shows it ended.  With auto
    on and both nodes' clock workers woken past the deadline, exactly one
    automatic vacation begins and no move is made; once it ran out,
    exactly one timeout."""
    clock = TestClock()
    a = b = None
    try:
        a = Server(binary)
        b = Server(binary, db=a.db) if POSTGRES else a
        start, at, bob, bt = week_old_pair(a, clock)
        gid, seat, me, them = game_of(a, at, bob, bt, CORRESPONDENCE)
        d0 = ms(view(b, gid, them)["clock"]["seats"][seat]["deadline"])
        check(view(b, gid, them)["clock"]["seats"][seat]["vacation"] is None, "not away yet")
        r = a.request("POST", "/v1/players/me/vacation", {"seconds": 3600}, token=me)
        check(r.status == 201, "taken on A: %r" % r)
        want = {"since": r.json["since"], "until": r.json["until"]}

        def seat_on_b():
            return view(b, gid, them)["clock"]["seats"][seat]
        # B hears of A's write by NOTIFY (docs/read-path.md, "Several
        # processes on one database"): it shows it soon, not at once
        sc = settled(lambda: seat_on_b()["vacation"] == want, seat_on_b)
        check(sc["vacation"] == want and ms(sc["deadline"]) == d0 + 3600 * 1000,
              "B shows it: %r" % sc)
        r = a.request("DELETE", "/v1/players/me/vacation", token=me)
        check(r.status == 200, "ended on A: %r" % r)
        (x, y), = a.query("SELECT start_ms, end_ms FROM vacations")
        sc = settled(lambda: seat_on_b()["vacation"] is None, seat_on_b)
        check(sc["vacation"] is None and ms(sc["deadline"]) == d0 + (y - x),
              "B shows it ended: %r" % sc)
        r = b.request("PATCH", "/v1/players/me/vacation", {"auto": True}, token=me)
        check(r.status == 200 and r.json["left_seconds"] == (DAY_MS - (y - x)) // 1000,
              "auto on B: %r" % r)
        d1 = d0 + (y - x)
        clock.set(d1 / 1000 + 30 - time.time())

        def away():
            nudge(b)
            return a.query("SELECT count(*) FROM vacations WHERE auto = 1")[0][0] > 0
        wait_for(a, "the automatic vacation", away)
        time.sleep(1)  # both workers had their chance
        rows = a.query("SELECT start_ms, end_ms FROM vacations WHERE auto = 1")
        check(len(rows) == 1 and rows[0][0] == d1, "one automatic vacation, from the deadline: %r"
              % rows)
        check(moves(a, gid) == [], "no move")
        clock.set(rows[0][1] / 1000 + 30 - time.time())

        def over():
            nudge(b)
            return view(a, gid, them)["status"] == "finished"
        wait_for(a, "the timeout", over)
        time.sleep(1)
        m = moves(b, gid)
        check(len(m) == 1 and m[0]["by"] == "timeout" and m[0]["seat"] == seat,
              "exactly one timeout: %r" % m)
        check(a.query("SELECT count(*) FROM vacations WHERE auto = 1")[0][0] == 1,
              "no second automatic vacation")
    finally:
        for n in {id(x): x for x in (b, a) if x is not None}.values():
            n.stop()
            n.cleanup()
        clock.close()


if __name__ == "__main__":
    run_all("vacation")
