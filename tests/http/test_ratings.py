"""test_ratings.py: ratings, leaderboards and profiles (issue 33 goals 3
to 5; docs/ratings.md).  A finished game changes both players' ratings
exactly as src/rating computes them (asked of tests/rating/rating_cli, the
oracle suite's program, which the oracle suite checks against npm's
glicko2 and openskill); resigning and timing out lose; an aborted game
and a game created unrated change nothing; bad input gets a 4xx and
changes nothing.  Usage: test_ratings.py BOARDD [test names...]"""
import os
import random
import subprocess
import time

from harness import Failure, check, run_all, test
from gamehelp import AA, actions, game, move, server, until_not_moot



def rating_cli(binary):
    """tests/rating's program beside the server's build (BUILD/rating/)."""
    path = os.environ.get("BOARDD_RATING_CLI") or os.path.join(
        os.path.dirname(os.path.abspath(binary)), "rating", "rating_cli")
    check(os.access(path, os.X_OK), "rating_cli built at %s (make unit-build)" % path)
    return path


def c_rates(binary, line):
    r = subprocess.run([rating_cli(binary)], input=line + "\n", capture_output=True,
                       text=True, timeout=30)
    check(r.returncode == 0 and not r.stdout.startswith("error"), "rating_cli: %r" % (r,))
    return [float(x) for x in r.stdout.split()]


def new_player(s, name):
    r = s.request("POST", "/v1/players", {"name": name})
    check(r.status == 201, "player: %r" % r)
    return r.json["id"], r.json["token"]


def two_player_game(s, at, bt, **extra):
    body = {"game": AA, "seats": 2, "seating": ["me", "open"]}
    body.update(extra)
    r = s.request("POST", "/v1/games", body, token=at)
    check(r.status == 201, "create: %r" % r)
    gid = r.json["id"]
    r = s.request("POST", "/v1/games/%s/join" % gid, token=bt)
    check(r.status == 200, "join: %r" % r)
    return gid


def play_moves(s, gid, tokens, rng, n):
    """Plays n moves (random listed actions) unless the game ends first."""
    for _ in range(n):
        g = game(s, gid, tokens[0])
        if g["status"] == "finished":
            return g
        seat = g["to_act"][0]
        acts = actions(s, gid, tokens[seat])
        r = move(s, gid, tokens[seat], rng.choice(acts))
        check(r.status == 201, "move: %r" % r)
    return game(s, gid, tokens[0])


def play_until_each_moved(s, gid, tokens, rng, each, may_end=False):
    """Plays random listed actions until every seat has made `each` moves
    (a seat may act several times in a row: counted, not assumed).  With
    may_end, a game that ends first is returned as it ended."""
    made = [0] * len(tokens)
    for _ in range(200):
        if min(made) >= each:
            break
        g = game(s, gid, tokens[0])
        if may_end and g["status"] == "finished":
            return g
        check(g["status"] != "finished", "the game ended before each seat moved %d times" % each)
        seat = g["to_act"][0]
        r = move(s, gid, tokens[seat], rng.choice(actions(s, gid, tokens[seat])))
        check(r.status == 201, "move: %r" % r)
        made[seat] += 1
    check(min(made) >= each, "each seat moved %d times: %r" % (each, made))
    return game(s, gid, tokens[0])


def running_game(s, rng, each, **extra):
    """Two new players and a game of theirs (two_player_game) still
    running after each seat made `each` moves.  A random deal may end a
    game sooner (an agent caught ends it at once: "reason": "catch",
    seen at seq 4 in 5 of 68 runs of the test on 2026-12-06); then the
    next try takes two new players, so that the game is still the first
    rated game of both.
    Returns (alice, at, bob, bt, gid, the game as read last)."""
    for attempt in range(20):
        alice, at = new_player(s, "Alice" if attempt == 0 else "Alice%d" % attempt)
        bob, bt = new_player(s, "Bob" if attempt == 0 else "Bob%d" % attempt)
        gid = two_player_game(s, at, bt, **extra)
        g = play_until_each_moved(s, gid, [at, bt], rng, each, may_end=True)
        if g["status"] == "active":
            return alice, at, bob, bt, gid, g
    raise Failure("20 games in a row ended before each seat moved %d times" % each)


def profile(s, pid, status=200):
    r = s.request("GET", "/v1/players/%s" % pid)
    check(r.status == status, "profile: %r" % r)
    return r.json


def rating_of(prof, category):
    got = [x for x in prof["ratings"] if x["category"] == category]
    return got[0] if got else None


@test
def a_finished_game_rates_both_players_as_the_c_code(binary):
    rng = random.Random(33)
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = two_player_game(s, at, bt)
        g = play_moves(s, gid, [at, bt], rng, 1000)
        check(g["status"] == "finished", "the game ended: %r" % g["status"])
        winners = g["result"]["winners"]
        pa, pb = profile(s, alice), profile(s, bob)
        ra, rb = rating_of(pa, "agent-avenue-base"), rating_of(pb, "agent-avenue-base")
        check(ra and rb, "both rated: %r %r" % (pa, pb))
        score = 0.5 if len(winners) != 1 else (1 if winners == [0] else 0)
        want = c_rates(binary, "game 1500 350 0.06 0 1500 350 0.06 0 %s" % score)
        check(abs(ra["mu_or_rating"] - want[0]) < 1e-6 and abs(ra["deviation"] - want[1]) < 1e-6,
              "alice as computed: %r vs %r" % (ra, want))
        check(abs(rb["mu_or_rating"] - want[3]) < 1e-6 and abs(rb["deviation"] - want[4]) < 1e-6,
              "bob as computed: %r vs %r" % (rb, want))
        check(ra["system"] == "glicko2" and ra["games"] == 1 and ra["provisional"],
              "one game, provisional: %r" % ra)
        check(pa["rated_games"]["played"] == 1 and pa["rated_games"]["won"] == (1 if winners == [0] else 0),
              "games played and won: %r" % pa["rated_games"])
        check([x["id"] for x in pa["finished"]] == [gid] and pa["current"] == [],
              "the profile lists the finished game: %r" % pa)
        check("token" not in str(pa).lower(), "no token in a profile")
        h = s.request("GET", "/v1/players/%s/rating-history" % alice)
        check(h.status == 200 and len(h.json["changes"]) == 1 and h.json["changes"][0]["game"] == gid,
              "history: %r" % h)
        c = h.json["changes"][0]
        check(c["mu_or_rating_before"] == 1500 and c["deviation_before"] == 350
              and abs(c["mu_or_rating"] - want[0]) < 1e-6, "history figures: %r" % c)
        # A second game: the ratings it starts from are the first's.
        gid2 = two_player_game(s, bt, at)  # bob seat 0 now
        r = s.request("POST", "/v1/games/%s/resign" % gid2, token=at)
        check(r.status in (200, 201), "resign: %r" % r)
        pa2 = profile(s, alice)
        check(rating_of(pa2, "agent-avenue-base")["games"] == 1,
              "a resignation before two moves each: aborted, unrated")


@test
def resigning_loses_and_changes_both_ratings(binary):
    rng = random.Random(7)
    with server(binary) as s:
        alice, at, bob, bt, gid, g = running_game(s, rng, 2)
        check(g["status"] == "active", "still running after two moves each")
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=bt)
        check(r.status in (200, 201), "resign: %r" % r)
        want = c_rates(binary, "game 1500 350 0.06 0 1500 350 0.06 0 1")
        ra = rating_of(profile(s, alice), "agent-avenue-base")
        rb = rating_of(profile(s, bob), "agent-avenue-base")
        check(ra["wins"] == 1 and rb["wins"] == 0, "the resigner lost")
        check(abs(ra["mu_or_rating"] - want[0]) < 1e-6 and abs(rb["mu_or_rating"] - want[3]) < 1e-6,
              "as computed: %r %r %r" % (ra, rb, want))
        check(rb["rating"] < 1500 < ra["rating"], "winner up, loser down")


@test
def the_export_holds_the_ratings_and_every_change(binary):
    """A player's data export (GET /v1/players/me/export) holds their
    ratings as their profile shows them and every rating change as the
    rating-history pages give them (docs/operations.md, "A player's
    data"); a player never rated has neither."""
    rng = random.Random(11)
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        _, ct = new_player(s, "Carol")
        for _ in range(2):
            gid = two_player_game(s, at, bt)
            play_until_each_moved(s, gid, [at, bt], rng, 2, may_end=True)
            # A deal can end the game in those moves (a catch): it is
            # rated all the same, one change a game either way.
            if game(s, gid, at)["status"] != "finished":
                r = s.request("POST", "/v1/games/%s/resign" % gid, token=bt)
                check(r.status in (200, 201), "resign: %r" % r)
        r = s.request("GET", "/v1/players/me/export", token=at)
        check(r.status == 200, "export: %r" % r)
        prof = profile(s, alice)
        check(r.json["ratings"] == prof["ratings"], "ratings as the profile's: %r against %r"
              % (r.json["ratings"], prof["ratings"]))
        h = s.request("GET", "/v1/players/%s/rating-history" % alice)
        check(h.status == 200 and len(h.json["changes"]) == 2, "history: %r" % h)
        check(r.json["rating_history"] == h.json["changes"], "every change: %r against %r"
              % (r.json["rating_history"], h.json["changes"]))
        e = s.request("GET", "/v1/players/me/export", token=ct)
        check(e.status == 200 and e.json["ratings"] == [] and e.json["rating_history"] == [],
              "never rated: none: %r" % e)


@test
def timing_out_loses(binary):
    rng = random.Random(9)
    # --clock-min-seconds 1: a documented operator flag (test_clocks.py)
    with server(binary, extra=["--clock-min-seconds", "1"]) as s:
        alice, at, bob, bt, gid, g = running_game(s, rng, 2, clock={"move_seconds": 3},
                                                  on_timeout="forfeit")
        check(g["status"] == "active", "still running")
        loser = g["to_act"][0]
        deadline = time.time() + 20
        while time.time() < deadline and game(s, gid, at)["status"] != "finished":
            time.sleep(0.3)
        g = game(s, gid, at)
        check(g["status"] == "finished", "the clock ended the game")
        ids = [alice, bob]
        lost = rating_of(profile(s, ids[loser]), "agent-avenue-base")
        won = rating_of(profile(s, ids[1 - loser]), "agent-avenue-base")
        check(lost and won and lost["wins"] == 0 and won["wins"] == 1, "the timed-out seat lost: %r %r" % (lost, won))
        check(lost["rating"] < 1500 < won["rating"], "ratings moved")


@test
def unrated_and_aborted_games_change_nothing(binary):
    """The aborted game's two random moves can end it by themselves (a
    deal whose first play is the Sidekick with the Mole: a catch at once,
    rules §3): it is then rated, and not aborted.  Such a run is played
    again on a new server (gamehelp.until_not_moot)."""
    rng = random.Random(11)
    until_not_moot(lambda: unrated_then_aborted(binary, rng),
                   "the aborted game ended by itself within its two moves")


def unrated_then_aborted(binary, rng):
    """False if the game to abort ended before its resignation."""
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = two_player_game(s, at, bt, rated=False)
        g = play_moves(s, gid, [at, bt], rng, 1000)
        check(g["status"] == "finished", "ended")
        check(profile(s, alice)["ratings"] == [] and profile(s, bob)["ratings"] == [],
              "an unrated game rates nobody")
        # aborted: each seat moved once, then a resignation
        gid = two_player_game(s, at, bt)
        if play_moves(s, gid, [at, bt], rng, 2)["status"] == "finished":
            return False
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=at)
        check(r.status in (200, 201), "resign: %r" % r)
        check(profile(s, alice)["ratings"] == [], "an aborted game rates nobody")
        check(s.query("SELECT count(*) FROM rating_history")[0][0] == 0, "no history written")
        return True


@test
def bots_are_rated_players(binary):
    rng = random.Random(13)
    with server(binary, extra=["--bot-ms", "20"]) as s:
        alice, at = new_player(s, "Alice")
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "seating": ["me", {"bot": "random"}]},
                      token=at)
        check(r.status == 201, "create: %r" % r)
        gid = r.json["id"]
        for _ in range(1000):
            g = game(s, gid, at)
            if g["status"] == "finished":
                break
            if g["to_act"] == [0]:
                check(move(s, gid, at, rng.choice(actions(s, gid, at))).status == 201, "move")
            else:
                time.sleep(0.02)
        check(game(s, gid, at)["status"] == "finished", "the game against the bot ended")
        mine = rating_of(profile(s, alice), "agent-avenue-base")
        check(mine and mine["games"] == 1, "the player is rated: %r" % mine)
        bot = s.query("SELECT subject, games FROM ratings WHERE player_key IS NULL")
        check(len(bot) == 1 and bot[0][0].startswith("bot:") and bot[0][1] == 1,
              "the bot is rated as a player: %r" % (bot,))


@test
def leaderboards_list_only_established_players(binary):
    with server(binary) as s:
        pid, tok = new_player(s, "Carol")
        now = int(time.time() * 1000)
        # Rows as the store writes them, set up directly: a board needs
        # players of RD < 110, dozens of games each.
        rows = [("p%015d" % i, 1400 + i * 10, 60 if i % 4 else 200, now - (0 if i % 5 else 40 * 86400000))
                for i in range(20)]
        key = s.query("SELECT key FROM players WHERE id = ?", (pid,))[0][0]
        put = ("INSERT INTO ratings (category, subject, player_key, system, rating, deviation, "
               "volatility, shown, provisional, games, wins, last_ms, bucket) VALUES (%s)"
               % ",".join(["?"] * 13))
        for subj, rating, rd, last in rows:
            s.query(put, ("quantum-2p", subj, None, "glicko2", rating, rd, 0.06, rating, 1 if rd >= 110 else 0, 30, 10, last,
                           rating // 10))
        s.query(put, ("quantum-2p", pid, key, "glicko2", 1555.5, 50, 0.06, 1555.5, 0, 40, 20, now, 155))
        # the counts the store keeps as it writes ratings (store_ratings.c)
        s.query("INSERT INTO board_counts (category, day, bucket, n) SELECT category, "
                "last_ms / 86400000, bucket, count(*) FROM ratings WHERE provisional = 0 "
                "GROUP BY category, last_ms / 86400000, bucket")
        since = (now // 86400000 - 30) * 86400000  # whole days (docs/ratings.md)
        board = [r for r in rows if r[2] < 110 and r[3] >= since] + [(pid, 1555.5, 50, now)]
        board.sort(key=lambda r: (-r[1], r[0]))
        r = s.request("GET", "/v1/leaderboards/quantum-2p?limit=4")
        check(r.status == 200, "board: %r" % r)
        got = r.json["players"]
        check([x["rank"] for x in got] == [1, 2, 3, 4], "ranks numbered")
        check([x["rating"] for x in got] == [b[1] for b in board[:4]], "best first, only established and active: %r" % got)
        seen = list(got)
        while r.json["next_after"]:
            r = s.request("GET", "/v1/leaderboards/quantum-2p?limit=4&after=%s" % r.json["next_after"])
            check(r.status == 200, "next page: %r" % r)
            seen += r.json["players"]
        check([x["rank"] for x in seen] == list(range(1, len(board) + 1)), "pages continue the ranks")
        check([x["rating"] for x in seen] == [b[1] for b in board], "every page in order")
        mine = [x for x in seen if x["player"] and x["player"]["id"] == pid]
        check(len(mine) == 1 and mine[0]["player"]["name"] == "Carol", "a player named")
        rank = board.index((pid, 1555.5, 50, now)) + 1
        prof = profile(s, pid)
        check(rating_of(prof, "quantum-2p")["rank"] == rank, "the profile's rank: %r" % prof["ratings"])


@test
def board_counts_follow_each_rated_game(binary):
    """The leaderboard's counts (board_counts) move with a rating written
    by a game's end: out of the old bucket and day, into the new."""
    # Agent Avenue may end by itself within a few random moves (a third
    # Mole recruited): such a game is rated too and would spoil the counts,
    # so the scenario starts again on a new server (at most 5 times).
    rng = random.Random(17)
    until_not_moot(lambda: board_counts_scenario(binary, rng),
                   "a game ended by itself before its resignation")


def board_counts_scenario(binary, rng):
    """False if a game ended before its resignation (nothing checked)."""
    with server(binary) as s:
        alice, at = new_player(s, "Alice")
        bob, bt = new_player(s, "Bob")
        gid = two_player_game(s, at, bt)
        play_until_each_moved(s, gid, [at, bt], rng, 2, may_end=True)
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=bt)
        if r.status == 409 and r.json["type"].endswith(":game-over"):
            return False
        check(r.status in (200, 201), "resign: %d %r" % (r.status, r.json))
        # Alice made established (as after dozens of games), last played
        # three days ago: on the board, counted in her bucket and day.
        old = int(time.time() * 1000) - 3 * 86400000
        s.query("UPDATE ratings SET deviation = 50, provisional = 0, last_ms = ?, "
                "bucket = CAST(shown / 10 AS INTEGER) WHERE subject = ?", (old, alice))
        s.query("INSERT INTO board_counts (category, day, bucket, n) SELECT category, last_ms / 86400000, "
                "bucket, 1 FROM ratings WHERE subject = ?", (alice,))
        ra = rating_of(profile(s, alice), "agent-avenue-base")
        check(ra["rank"] == 1 and not ra["provisional"], "on the board, first: %r" % ra)
        old_bucket = s.query("SELECT bucket FROM ratings WHERE subject = ?", (alice,))[0][0]
        gid = two_player_game(s, at, bt)
        play_until_each_moved(s, gid, [at, bt], rng, 2, may_end=True)
        r = s.request("POST", "/v1/games/%s/resign" % gid, token=at)
        if r.status == 409 and r.json["type"].endswith(":game-over"):
            return False
        check(r.status in (200, 201), "resign: %d %r" % (r.status, r.json))
        rows = s.query("SELECT day, bucket, n FROM board_counts WHERE n > 0")
        new = s.query("SELECT last_ms / 86400000, bucket, provisional FROM ratings WHERE subject = ?", (alice,))[0]
        check(new[2] == 0, "still established after one more game")
        check([tuple(r) for r in rows] == [(new[0], new[1], 1)],
              "counted once, in the new day and bucket (old bucket %d): %r" % (old_bucket, rows))
        ra = rating_of(profile(s, alice), "agent-avenue-base")
        check(ra["rank"] == 1 and ra["games"] == 2 and ra["rating"] < 1662.4, "lost, still first: %r" % ra)
        board = s.request("GET", "/v1/leaderboards/agent-avenue-base").json
        check([x["player"]["id"] for x in board["players"]] == [alice], "the board: %r" % board)
    return True


@test
def bad_input_gets_4xx_and_changes_nothing(binary):
    with server(binary) as s:
        pid, tok = new_player(s, "Dan")
        before = s.query("SELECT count(*) FROM ratings")[0][0]
        for path, status, kind in [
            ("/v1/leaderboards/chess", 404, "unknown-category"),
            ("/v1/leaderboards/quantum-9p", 404, "unknown-category"),
            ("/v1/leaderboards/quantum-2p?limit=0", 400, "bad-request"),
            ("/v1/leaderboards/quantum-2p?limit=101", 400, "bad-request"),
            ("/v1/leaderboards/quantum-2p?limit=x", 400, "bad-request"),
            ("/v1/leaderboards/quantum-2p?after=nobody", 400, "bad-request"),
            ("/v1/players/%s/rating-history?limit=0" % pid, 400, "bad-request"),
            ("/v1/players/%s/rating-history?after=-1" % pid, 400, "bad-request"),
            ("/v1/players/%s/rating-history?category=go" % pid, 404, "unknown-category"),
            ("/v1/players/%s?limit=1000" % pid, 400, "bad-request"),
            ("/v1/players/%s?cursor=zz" % pid, 400, "bad-request"),
            ("/v1/players/0123456789abcdef", 404, "unknown-player"),
            ("/v1/players/0123456789abcdef/rating-history", 404, "unknown-player"),
        ]:
            r = s.request("GET", path)
            check(r.status == status and r.json["type"].endswith(":" + kind), "%s: %r" % (path, r))
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "rated": "yes"})
        check(r.status == 400, "rated must be a boolean: %r" % r)
        check(s.query("SELECT count(*) FROM ratings")[0][0] == before, "nothing written")
        r = s.request("GET", "/v1/leaderboards/agent-avenue-team")
        check(r.status == 200 and r.json["players"] == [] and r.json["next_after"] is None,
              "an empty board: %r" % r)


@test
def team_games_rate_by_weng_lin(binary):
    rng = random.Random(21)
    with server(binary) as s:
        ps = [new_player(s, n) for n in ("Ann", "Ben", "Cat", "Dov")]
        toks = [p[1] for p in ps]
        # A game's deal is random: one that ends before every seat made
        # two moves of its own is aborted (docs/ratings.md) and rates
        # nobody; then another game, until one counts.
        for attempt in range(6):
            r = s.request("POST", "/v1/games", {"game": AA, "seats": 4,
                                                "seating": ["me", "open", "open", "open"]},
                          token=toks[0])
            check(r.status == 201, "create: %r" % r)
            gid = r.json["id"]
            for p in ps[1:]:
                check(s.request("POST", "/v1/games/%s/join" % gid, token=p[1]).status == 200, "join")
            for _ in range(2000):
                g = game(s, gid, toks[0])
                if g["status"] == "finished":
                    break
                seat = g["to_act"][0]
                acts = actions(s, gid, toks[seat])
                check(move(s, gid, toks[seat], rng.choice(acts)).status == 201, "move")
            g = game(s, gid, toks[0])
            check(g["status"] == "finished", "the team game ended")
            by_seat = dict(s.query("SELECT m.seat, count(*) FROM moves m JOIN games g ON "
                                   "g.key = m.game_key WHERE g.id = '%s' GROUP BY m.seat" % gid))
            if all(by_seat.get(k, 0) >= 2 for k in range(4)):
                break
            check(all(rating_of(profile(s, p[0]), "agent-avenue-team") is None for p in ps),
                  "an aborted team game (moves by seat %r) rates nobody" % by_seat)
        else:
            check(False, "six team games in a row were aborted")
        winners = g["result"]["winners"]
        ranks = [1 if t in [w % 2 for w in winners] else 2 for t in (0, 1)]
        # sides: team 0 = seats 0 and 2, team 1 = seats 1 and 3
        want = c_rates(binary, "wl 2 2 2 %d %d 25 %r 25 %r 25 %r 25 %r" % (
            ranks[0], ranks[1], 25 / 3, 25 / 3, 25 / 3, 25 / 3))
        order = [0, 2, 1, 3]
        for k, seat in enumerate(order):
            r = rating_of(profile(s, ps[seat][0]), "agent-avenue-team")
            check(r and r["system"] == "weng-lin", "seat %d rated: %r" % (seat, r))
            check(abs(r["mu_or_rating"] - want[2 * k]) < 1e-6 and abs(r["deviation"] - want[2 * k + 1]) < 1e-6,
                  "seat %d as computed: %r vs %r" % (seat, r, want[2 * k:2 * k + 2]))
            check(abs(r["rating"] - (want[2 * k] - 3 * want[2 * k + 1])) < 1e-6, "shown as mu - 3 sigma")


if __name__ == "__main__":
    run_all("ratings")
