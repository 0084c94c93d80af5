"""test_http.py: the HTTP API end to end, against the real boardd binary
and a real SQLite file.  Usage: test_http.py BOARDD [test names...]"""
import json
import os
import random
import threading
import uuid

from harness import check, free_port, note, raw_exchange, run_all, sqlite_only, test, SPEC, ROOT
from gamehelp import (AA, server, create, create_game, game, actions, move, play_random,
                      acknowledged_in_logs, move_log, read_stream, views)

# ---- meta ----

@test
def health_and_openapi(binary):
    with server(binary) as s:
        r = s.request("GET", "/healthz")
        check(r.status == 200 and r.json == {"status": "ok"}, "healthz")
        r = s.request("GET", "/openapi.yaml")
        check(r.status == 200, "openapi status")
        check(r.raw == open(ROOT + "/openapi/openapi.yaml", "rb").read(), "serves openapi/openapi.yaml")
        check(r.headers["content-type"] == "application/yaml", "yaml content type")


@test
def catalog(binary):
    with server(binary) as s:
        r = s.request("GET", "/v1/catalog")
        check(r.status == 200, "catalog")
        aa = [g for g in r.json["games"] if g["id"] == AA]
        check(len(aa) == 1, "agent-avenue listed")
        aa = aa[0]
        check((aa["min_seats"], aa["max_seats"]) == (2, 4), "2 seats, 3-4 for the team variant")
        mode = aa["options"].get("mode", {})
        check(list(aa["options"]) == ["mode"] and mode.get("values") == ["base", "advanced"]
              and mode.get("default") == "base", "one option: mode: %r" % aa["options"])
        # its name and its values' names in words (test_display.py checks them)
        check(isinstance(mode.get("name"), str) and sorted(mode.get("value_names", {})) ==
              ["advanced", "base"], "mode in words: %r" % mode)
        check(len(aa["black_market"]) == 15, "15 black-market cards")
        check(sum(c["copies"] for c in aa["cards"]) == 38, "38 agents")
        check({a["type"] for a in aa["actions"]} ==
              {"discard", "play", "recruit", "hand_over", "take", "mind_control",
               "double_trouble", "secret_recruit", "spycation"}, "action types")


@test
def every_spec_path_is_served(binary):
    """Each path of openapi.yaml answers something other than 404-not-found
    or 405 for each documented method (with Web Push and email on: GET
    /v1/push/key and the email paths answer "push is off", "email is
    off" as not-found without them; the SMTP server is never reached:
    no address is confirmed)."""
    with server(binary, extra=["--push-contact", "mailto:ops@boardd.example",
                               "--smtp-url", "smtp://127.0.0.1:%d" % free_port(),
                               "--mail-from", "boardd@boardd.example"]) as s:
        gid, tok = create(s)
        for template, item in SPEC["paths"].items():
            path = template.replace("{id}", gid).replace("{file}", "app.js").replace("{game}", "quantum")
            if path.endswith("/events"):
                path += "?after=x"  # a live stream never ends; a 400 shows it is routed
            for method in ("get", "post"):
                if method not in item:
                    continue
                body = {} if method == "post" else None
                r = s.request(method.upper(), path, body, token=tok[0])
                check(r.status != 405, "%s %s is 405" % (method, template))
                check(not (r.status == 404 and r.json and r.json["type"].endswith(":not-found")),
                      "%s %s not routed" % (method, template))


# ---- creating and listing ----

@test
def create_game_tokens_and_location(binary):
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": AA, "seats": 2, "options": {}})
        check(r.status == 201, "created")
        check(r.headers["location"] == "/v1/games/" + r.json["id"], "Location")
        toks = [x["token"] for x in r.json["seats"]]
        check([x["seat"] for x in r.json["seats"]] == [0, 1], "seat numbers")
        check(len(set(toks)) == 2 and all(len(t) >= 22 for t in toks), "distinct long tokens")
        g = game(s, r.json["id"])
        check(g["status"] == "active" and g["seq"] == 0 and g["you"] is None, "spectator view of a new game")
        check(g["seed"] is None and g["secret"] is None and g["salt"] is None and
              len(g["commitment"]) == 64, "secret hidden while running, its commitment shown")
        check(g["view"]["hand"] is None, "spectator has no hand")
        check(game(s, r.json["id"], toks[1])["you"] == 1, "seat 1 sees you=1")
        check(json.dumps(g).find(toks[0]) < 0, "tokens never shown again")


@test
def list_games_newest_first_with_cursor(binary):
    with server(binary) as s:
        ids = [create(s)[0] for _ in range(5)]
        r = s.request("GET", "/v1/games?limit=2")
        check(r.status == 200, "list")
        page1 = [g["id"] for g in r.json["games"]]
        check(page1 == ids[::-1][:2], "newest first")
        r2 = s.request("GET", "/v1/games?limit=2&cursor=" + r.json["next_cursor"])
        check([g["id"] for g in r2.json["games"]] == ids[::-1][2:4], "second page")
        r3 = s.request("GET", "/v1/games?limit=2&cursor=" + r2.json["next_cursor"])
        check([g["id"] for g in r3.json["games"]] == ids[:1], "last page")
        check(r3.json["next_cursor"] is None, "no cursor after the last page")
        check(s.request("GET", "/v1/games?status=finished").json["games"] == [], "status filter")
        check(len(s.request("GET", "/v1/games?game=" + AA).json["games"]) == 5, "game filter")
        for bad in ("limit=0", "limit=101", "limit=x", "cursor=abc", "status=won"):
            r = s.request("GET", "/v1/games?" + bad)
            check(r.status == 400, "bad query %s: %r" % (bad, r))


# ---- playing ----

@test
def whole_games_seat_against_seat(binary):
    rng = random.Random(2026)
    with server(binary) as s:
        reasons = set()
        for _ in range(12):
            gid, tok = create(s)
            g = play_random(s, gid, tok, rng)
            check(len(g["result"]["winners"]) == 1, "one winner")
            check(g["to_act"] == [] and g["view"]["phase"] == "over", "nobody acts after the end")
            check(g["seed_format"] == 2 and len(g["secret"]) == 64 and len(g["salt"]) == 64,
                  "secret and salt revealed at the end (docs/shuffles.md)")
            check(len(g["view"]["hands"]) == 2 and "deck" in g["view"], "everything revealed at the end")
            reasons.add(g["result"]["reason"])
            r = move(s, gid, tok[0], {"type": "recruit", "pick": "face_up"})
            check(r.status == 409 and r.json["type"].endswith(":game-over"), "game over: %r" % r)
            listed = [x for x in s.request("GET", "/v1/games?status=finished").json["games"] if x["id"] == gid]
            check(len(listed) == 1 and listed[0]["seq"] == g["seq"], "listed as finished")
        check(reasons, "games ended")


@test
def kill_and_restart_keeps_every_acknowledged_move(binary):
    rng = random.Random(7)
    with server(binary) as s:
        gid, tok = create(s)
        acked = 0
        for _ in range(9):
            g = game(s, gid, tok[0])
            if g["status"] == "finished":  # a short random game
                break
            seat = g["to_act"][0]
            r = move(s, gid, tok[seat], rng.choice(actions(s, gid, tok[seat])))
            check(r.status == 201, "move")
            acked = r.json["seq"]
        before = [game(s, gid, t) for t in tok + [None]]
        log_before = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json
        s.kill()
        s.start()
        after = [game(s, gid, t) for t in tok + [None]]
        for b, a in zip(before, after):
            b.pop("updated"), a.pop("updated")
            check(a == b, "identical view after SIGKILL and restart")
        check(after[0]["seq"] == acked, "every acknowledged move is there")
        check(s.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json == log_before, "same log")
        play_random(s, gid, tok, rng)


@test
def acknowledged_moves_are_in_the_posters_log(binary):
    """make kill-loop's final check, on a game whose cards are still
    hidden: seat 0 discards (the card's face is its own, rules §5) and
    plays a card face down that seat 1 has not recruited; the play's
    answer is lost to a SIGKILL and its retry with the same
    Idempotency-Key is answered.  Both moves are in seat 0's log as
    posted, while seat 1 and a spectator see them hidden; the check finds
    a wrong card, a move told twice and a move nobody was told of."""
    with server(binary) as s:
        gid, tok = create(s, _hidden_setup(["mole", "enforcer", "double-agent", "double-agent"],
                                           ["sidekick", "enforcer", "saboteur"]))
        discard = {"type": "discard", "card": "mole"}
        play = {"type": "play", "face_up": "double-agent", "face_down": "enforcer"}
        r = move(s, gid, tok[0], discard)
        check(r.status == 201, "discard: %r" % r)
        acked = [(gid, r.json["seq"], 0, discard)]
        key = {"Idempotency-Key": str(uuid.uuid4())}
        check(move(s, gid, tok[0], play, headers=key).status == 201, "play")  # its answer lost:
        s.kill()
        s.start()
        r = move(s, gid, tok[0], play, headers=key)
        check(r.status == 201 and r.json["seq"] == 2, "the retry gets the move's answer: %r" % r)
        acked.append((gid, r.json["seq"], 0, play))
        games = [(gid, tok)]
        found = acknowledged_in_logs(s, games, acked)
        check(found == [], "acknowledged moves in the poster's log as posted: %s" % found)
        hidden = [{"type": "discard"}, dict(play, face_down=None)]
        for t in (tok[1], None):
            log = s.request("GET", "/v1/games/%s/moves" % gid, token=t).json["moves"]
            check([m["action"] for m in log] == hidden, "others see the cards hidden: %r" % log)
        wrong = [(gid, 1, 0, {"type": "discard", "card": "enforcer"}), acked[1]]
        check(len(acknowledged_in_logs(s, games, wrong)) == 1, "a wrong card is found")
        check(len(acknowledged_in_logs(s, games, acked + acked[1:])) == 1, "a move told twice is found")
        check(len(acknowledged_in_logs(s, games, acked[:1])) == 1, "a move nobody was told of is found")


@test
def seat_order_and_turns(binary):
    setup = {"first_player": 0,
             "hands": [["enforcer", "saboteur", "sentinel", "mole"], ["codebreaker", "daredevil", "enforcer", "saboteur"]]}
    with server(binary) as s:
        gid, tok = create(s, setup)
        g = game(s, gid, tok[0])
        check(g["to_act"] == [0] and g["view"]["custom"] is True, "seat 0 first; custom shown")
        r = move(s, gid, tok[1], {"type": "play", "face_up": "codebreaker", "face_down": "enforcer"})
        check(r.status == 409 and r.json["type"].endswith(":not-your-turn"), "not your turn: %r" % r)
        r = move(s, gid, tok[0], {"type": "play", "face_up": "enforcer", "face_down": "enforcer"})
        check(r.status == 422 and r.json["type"].endswith(":illegal-action"), "illegal: %r" % r)
        check(r.json.get("rule"), "the rule that forbids it is named")
        check(game(s, gid)["seq"] == 0, "rejected moves change nothing")
        r = move(s, gid, tok[0], {"type": "play", "face_up": "enforcer", "face_down": "mole"})
        check(r.status == 201 and r.json["to_act"] == [1], "recruit falls to seat 1")
        check(r.json["updated"] == game(s, gid)["updated"], "the answer carries this move's time")
        check(r.json["view"]["played"] == {"face_up": "enforcer", "face_down": "mole",
                                           "face_up_seat": 0, "face_down_seat": 0}, "player sees own face-down")


# ---- information hiding (rules §5) ----

def _hidden_setup(hand0, deck):
    return {"first_player": 0, "hands": [hand0, ["codebreaker", "daredevil", "sentinel", "saboteur"]],
            "deck": deck}


@test
def no_endpoint_leaks_hidden_information(binary):
    """Two games that differ only in seat 0's hand, deck and face-down card:
    seat 1 and spectators must get byte-identical answers from every
    endpoint until the face-down card is recruited."""
    with server(binary) as s:
        worlds = [(["mole", "enforcer", "double-agent", "double-agent"], ["sidekick", "enforcer", "saboteur"]),
                  (["sidekick", "enforcer", "double-agent", "double-agent"], ["mole", "sentinel", "saboteur"])]
        games = [create(s, _hidden_setup(h, d)) for h, d in worlds]
        seen = []
        for i, (gid, tok) in enumerate(games):
            r = move(s, gid, tok[0], {"type": "discard", "card": worlds[i][0][0]})
            check(r.status == 201, "discard: %r" % r)
            r = move(s, gid, tok[0], {"type": "play", "face_up": "double-agent",
                                     "face_down": worlds[i][0][1] if i == 0 else "enforcer"})
            check(r.status == 201, "play: %r" % r)
            answers = []
            for t in (tok[1], None):
                for path in ("", "/moves", "/actions"):
                    if path == "/actions" and t is None:
                        continue
                    r = s.request("GET", "/v1/games/%s%s" % (gid, path), token=t)
                    body = r.json
                    body.pop("id", None), body.pop("created", None), body.pop("updated", None)
                    body.pop("commitment", None)  # public, random per game, like the id
                    for m in body.get("moves", []):  # when each was played
                        m.pop("time", None)
                    answers.append(json.dumps(body, sort_keys=True))
            seen.append(answers)
            # What seat 1 must not see, by name, in its answers:
            for a in answers:
                check('"sidekick"' not in a and '"mole"' not in a, "hidden card named: %s" % a)
        check(seen[0] == seen[1], "seat 1's answers depend on nothing it may not see")
        gid, tok = games[0]
        log1 = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[1]).json["moves"]
        check(log1[0]["action"] == {"type": "discard"}, "opponent's discard has no face")
        check(log1[1]["action"]["face_down"] is None, "face-down hidden before recruitment")
        log0 = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json["moves"]
        check(log0[0]["action"] == {"type": "discard", "card": "mole"}, "own discard visible")
        r = move(s, gid, tok[1], {"type": "recruit", "pick": "face_down"})
        check(r.status == 201, "recruit")
        log1 = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[1]).json["moves"]
        check(log1[1]["action"]["face_down"] == "enforcer", "revealed once recruited")
        check(log1[0]["action"] == {"type": "discard"}, "discard stays hidden")


# ---- concurrency ----

@test
def racing_moves_exactly_one_lands(binary):
    with server(binary, extra=["--threads", "2"]) as s:
        gid, tok = create(s, {"first_player": 0})
        act = actions(s, gid, tok[0])[-1]
        results = []

        def post():
            r = move(s, gid, tok[0], act, headers={"If-Match": '"0"'}, validate=False)
            results.append(r.status)

        threads = [threading.Thread(target=post) for _ in range(16)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        check(results.count(201) == 1, "exactly one 201: %r" % results)
        check(all(x in (201, 412, 409) for x in results), "others stale or not your turn: %r" % results)
        check(game(s, gid)["seq"] == 1, "one move in the log")


# ---- errors ----

@test
def bad_input_gets_problem_details_and_changes_nothing(binary):
    with server(binary) as s:
        gid, tok = create(s, {"first_player": 0})
        path = "/v1/games/%s/moves" % gid
        cases = [
            (dict(raw=b"{not json", headers={"Content-Type": "application/json"}), 400, "malformed-json"),
            (dict(raw=b'{"action":{"type":"discard"},"action":{}}', headers={"Content-Type": "application/json"}), 400, "malformed-json"),
            (dict(raw=b"[" * 40 + b"]" * 40, headers={"Content-Type": "application/json"}), 400, "malformed-json"),
            (dict(raw=b"", headers={"Content-Type": "application/json"}), 400, "malformed-json"),
            (dict(body=[1, 2]), 400, "bad-request"),
            (dict(body={"move": {}}), 400, "bad-request"),
            (dict(body={"action": "play"}), 400, "bad-request"),
            (dict(body={"action": {"type": "fly"}}), 422, "illegal-action"),
            (dict(body={"action": {"type": "discard", "card": "joker"}}), 422, "illegal-action"),
            (dict(body={"action": {"type": "discard", "card": "mole", "x": 1}}), 422, "illegal-action"),
            (dict(raw=b'{"action":{}}', headers={"Content-Type": "text/plain"}), 415, "unsupported-media-type"),
            (dict(raw=b"x" * 70000, headers={"Content-Type": "application/json"}), 413, "payload-too-large"),
            (dict(body={"action": {"type": "recruit", "pick": "face_up"}}, headers={"If-Match": "nope"}), 400, "bad-request"),
        ]
        for kw, status, kind in cases:
            r = s.request("POST", path, token=tok[0], **kw)
            check(r.status == status and r.json["type"] == "urn:boardd:problem:" + kind,
                  "%r -> %r" % (kw, r))
        r = s.request("POST", path, {"action": {"type": "recruit", "pick": "face_up"}})
        check(r.status == 401 and r.headers.get("www-authenticate") == "Bearer", "no token: %r" % r)
        r = s.request("POST", path, {"action": {}}, token="A" * 43)
        check(r.status == 403, "wrong token: %r" % r)
        r = s.request("GET", "/v1/games/%s" % gid, headers={"Authorization": "Basic Zm9vOmJhcg=="})
        check(r.status == 401, "not a bearer token: %r" % r)
        r = s.request("GET", "/v1/games/%s/actions" % gid)
        check(r.status == 401, "actions need a token: %r" % r)
        _, other = create(s)
        r = s.request("GET", "/v1/games/%s/actions" % gid, token=other[0])
        check(r.status == 403, "another game's token: %r" % r)
        r = move(s, gid, tok[0], actions(s, gid, tok[0])[0], headers={"If-Match": '"5"'})
        check(r.status == 412 and r.json["seq"] == 0, "stale If-Match: %r" % r)
        r = s.request("POST", path, {"action": actions(s, gid, tok[0])[0], "expected_seq": 3}, token=tok[0])
        check(r.status == 412, "stale expected_seq: %r" % r)
        check(game(s, gid)["seq"] == 0, "nothing changed")
        check(s.request("GET", path).json["moves"] == [], "log empty")
        for p, st in (("/v1/games/0123456789abcdef", 404), ("/v1/games/..%2f", 404), ("/v1/nothing", 404),
                      ("/v1/games/%s/nothing" % gid, 404)):
            r = s.request("GET", p)
            check(r.status == st, "%s: %r" % (p, r))
        # (PUT: DELETE is a method of a game now, the creator's cancel)
        r = s.request("PUT", "/v1/games/%s" % gid)
        check(r.status == 405 and "GET" in r.headers.get("allow", ""), "405 with Allow: %r" % r)


@test
def bad_creation_requests(binary):
    with server(binary) as s:
        cases = [
            ({"game": "chess"}, 422, "unknown-rules"),
            ({"game": AA, "seats": 5}, 422, "bad-options"),
            ({"game": AA, "options": {"turbo": True}}, 422, "bad-options"),
            ({"game": AA, "setup": {"hands": [["enforcer"] * 7, []]}}, 422, "bad-setup"),
            ({"game": AA, "setup": {"hands": [["joker"], []]}}, 422, "bad-setup"),
            ({"game": AA, "setup": {"progress": [7, 0]}}, 422, "bad-setup"),
            ({"game": AA, "setup": {"first_player": 2}}, 422, "bad-setup"),
            ({"game": AA, "setup": {"colour": "red"}}, 422, "bad-setup"),
            ({"game": AA, "seats": "two"}, 400, "bad-request"),
            ({"seats": 2}, 400, "bad-request"),
            ({"game": AA, "extra": 1}, 400, "bad-request"),
        ]
        for body, status, kind in cases:
            r = s.request("POST", "/v1/games", body)
            check(r.status == status and r.json["type"] == "urn:boardd:problem:" + kind, "%r -> %r" % (body, r))
            check(r.json["detail"], "detail says why")
        check(s.request("GET", "/v1/games").json["games"] == [], "no game was created")


@test
def etag_and_if_none_match(binary):
    with server(binary) as s:
        gid, tok = create(s)
        r = s.request("GET", "/v1/games/%s" % gid, token=tok[0])
        check(r.headers["etag"] == '"0"', "ETag")
        r = s.request("GET", "/v1/games/%s" % gid, token=tok[0], headers={"If-None-Match": '"0"'})
        check(r.status == 304 and not r.raw, "304 when unchanged")
        r = s.request("GET", "/v1/games/%s" % gid, token=tok[0], headers={"If-None-Match": '"1"'})
        check(r.status == 200, "200 when changed")
        r = s.request("OPTIONS", "/v1/games", validate=False)
        check(r.status == 204 and r.headers.get("access-control-allow-origin") == "*", "CORS preflight")


@test
def security_headers_on_every_answer(binary):
    """Issue 34 finding 5: the page, the web client's files, API answers,
    problems, 304s and streams carried no Content-Security-Policy,
    X-Content-Type-Options, X-Frame-Options or Referrer-Policy (the page
    keeps its token in localStorage and could be framed).  Issue 31 goal
    8: the client's scripts and style sheets go without the CSP and
    X-Frame-Options, which browsers apply only to the document or worker a
    response creates (CSP3 "Initialize a Document's CSP list" and "...a
    global object's CSP list", HTML's X-Frame-Options check of navigation
    responses), but keep nosniff and Referrer-Policy; the service worker
    (sw.js) keeps them all, a worker's CSP being its script's own."""
    with server(binary) as s:
        gid, tok = create(s)
        etag = s.request("GET", "/").headers["etag"]
        answers = {
            "/": s.request("GET", "/"),
            "/ 304": s.request("GET", "/", headers={"If-None-Match": etag}),
            "/sw.js": s.request("GET", "/sw.js"),
            "/favicon.svg": s.request("GET", "/favicon.svg"),
            "/manifest.webmanifest": s.request("GET", "/manifest.webmanifest"),
            "/rules": s.request("GET", "/rules"),
            "a game": s.request("GET", "/v1/games/%s" % gid, token=tok[0]),
            "a game 304": s.request("GET", "/v1/games/%s" % gid, token=tok[0],
                                    headers={"If-None-Match": '"0"'}),
            "a problem": s.request("GET", "/v1/games/nope"),
            "HEAD of a stream": s.request("HEAD", "/v1/games/%s/events" % gid),
            "a preflight": s.request("OPTIONS", "/v1/games", validate=False),
        }
        for what, r in answers.items():
            csp = r.headers.get("content-security-policy", "")
            check("script-src 'self'" in csp and "style-src 'self'" in csp
                  and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp,
                  "%s: CSP %r" % (what, csp))
            check(r.headers.get("x-content-type-options") == "nosniff"
                  and r.headers.get("x-frame-options") == "DENY"
                  and r.headers.get("referrer-policy") == "no-referrer",
                  "%s: %r" % (what, r.headers))
        etag = s.request("GET", "/app.js").headers["etag"]
        loaded = {
            "/app.js": s.request("GET", "/app.js"),
            "/app.js 304": s.request("GET", "/app.js", headers={"If-None-Match": etag}),
            "/lobby.js (br)": s.request("GET", "/lobby.js", headers={"Accept-Encoding": "br"}),
            "/style.css": s.request("GET", "/style.css"),
            "/rules.css": s.request("GET", "/rules.css"),
        }
        for what, r in loaded.items():
            check(r.status in (200, 304), "%s: %d" % (what, r.status))
            check("content-security-policy" not in r.headers
                  and "x-frame-options" not in r.headers
                  and r.headers.get("x-content-type-options") == "nosniff"
                  and r.headers.get("referrer-policy") == "no-referrer",
                  "%s: %r" % (what, r.headers))


@test
def if_none_match_compares_entity_tags(binary):
    """Issue 34 finding 8, RFC 9110 §13.1.2: If-None-Match is a list of
    entity-tags compared weakly, octet by octet.  At ETag "0", "00" got
    304 (the seq was compared as a number) and W/"0" or "1", "0" got
    200; the same on a web file and on my games, and If-Match compares
    strongly (a W/ tag never matches: 412, not 400)."""
    with server(binary) as s:
        gid, tok = create(s, {"first_player": 0})
        path = "/v1/games/%s" % gid
        for inm, want in (('"00"', 200), ('W/"0"', 304), ('"1", "0"', 304), ('"1","2"', 200),
                          ('*', 304), ('"0', 200), ('W/"0-open-1"', 200)):
            r = s.request("GET", path, token=tok[0], headers={"If-None-Match": inm})
            check(r.status == want, "game, If-None-Match %s: want %d, got %r" % (inm, want, r))
        tag = s.request("GET", "/").headers["etag"]
        for inm, want in ((tag, 304), ('W/' + tag, 304), ('"x", ' + tag, 304),
                          (tag[:-1] + '0"', 200), ('"' + tag, 200)):
            r = s.request("GET", "/", headers={"If-None-Match": inm})
            check(r.status == want, "/, If-None-Match %s: want %d, got %r" % (inm, want, r))
        pt = s.request("POST", "/v1/players", {"name": "Ann"}).json["token"]
        etag = s.request("GET", "/v1/players/me/games", token=pt).headers["etag"]
        for inm, want in ((etag, 304), (etag[2:], 304), ('"1", ' + etag, 304),
                          (etag[:-2] + '"', 200)):
            r = s.request("GET", "/v1/players/me/games", token=pt, headers={"If-None-Match": inm})
            check(r.status == want, "my games, If-None-Match %s: want %d, got %r" % (inm, want, r))
        act = actions(s, gid, tok[0])[0]
        for im, want in (('W/"0"', 412), ('"00"', 412), ('"1", "x"', 412), ('"1", "2"', 400),
                         ('"0" x', 400)):
            r = move(s, gid, tok[0], act, headers={"If-Match": im})
            check(r.status == want, "If-Match %s: want %d, got %r" % (im, want, r))
        check(s.request("GET", path, token=tok[0]).json["seq"] == 0, "no move landed")
        r = move(s, gid, tok[0], act, headers={"If-Match": 'W/"7", "x", "0"'})
        check(r.status == 201 and r.headers["etag"] == '"1"', "If-Match list holding the ETag: %r" % r)


@test
def answers_coded_as_accept_encoding_asks(binary):
    """Issue 31 goal 8: nothing was compressed (the first load of the web
    client was 94 KB).  A web file is sent precompressed, br or gzip as
    Accept-Encoding asks (q=0 refuses), API answers of HTTP_COMPRESS_MIN
    (1024) bytes or more gzipped; Vary: Accept-Encoding on all; a coded
    answer has its own strong ETag ("<tag>-gzip"), which If-None-Match
    and a move's If-Match accept as the state it names (RFC 9110
    §8.8.3, §13.1)."""
    import gzip
    with server(binary) as s:
        plain = s.request("GET", "/lobby.js")
        check("content-encoding" not in plain.headers, "identity without Accept-Encoding")
        gz = s.request("GET", "/lobby.js", headers={"Accept-Encoding": "gzip"}, validate=False)
        check(gz.status == 200 and gz.headers.get("content-encoding") == "gzip", "gzip: %r" % gz)
        check(gzip.decompress(gz.raw) == plain.raw and len(gz.raw) < len(plain.raw) // 2,
              "gzip: %d bytes for %d" % (len(gz.raw), len(plain.raw)))
        for r in (plain, gz):
            check("Accept-Encoding" in r.headers.get("vary", ""), "Vary: %r" % r.headers)
        check(gz.headers["etag"] == plain.headers["etag"][:-1] + '-gzip"', "gzip ETag %s" % gz.headers)
        for inm in (gz.headers["etag"], plain.headers["etag"], "W/" + gz.headers["etag"]):
            r = s.request("GET", "/lobby.js", headers={"Accept-Encoding": "gzip", "If-None-Match": inm})
            check(r.status == 304 and not r.raw, "If-None-Match %s: %r" % (inm, r))
        br = s.request("GET", "/lobby.js", headers={"Accept-Encoding": "gzip, deflate, br"},
                       validate=False)
        check(br.headers.get("content-encoding") == "br" and 0 < len(br.raw) < len(gz.raw)
              and br.headers["etag"] == plain.headers["etag"][:-1] + '-br"', "br: %r" % br.headers)
        for ae, want in (("gzip;q=0", None), ("identity", None), ("br;q=0, gzip;q=0", None),
                         ("*;q=0", None), ("br;q=0, *", "gzip"), ("x-gzip", "gzip"),
                         ("GZIP;q=0.5, br;q=0.4", "gzip"), ("*", "br")):
            r = s.request("GET", "/lobby.js", headers={"Accept-Encoding": ae}, validate=False)
            check(r.headers.get("content-encoding") == want, "%s: %r" % (ae, r.headers))
            check(want or r.raw == plain.raw, "%s: the file as it is" % ae)
        # API answers: the catalog (1 KB and more), not /healthz (less).
        cat = s.request("GET", "/v1/catalog")
        r = s.request("GET", "/v1/catalog", headers={"Accept-Encoding": "gzip"}, validate=False)
        check(r.headers.get("content-encoding") == "gzip" and gzip.decompress(r.raw) == cat.raw
              and len(r.raw) < len(cat.raw) // 2, "catalog: %r" % r.headers)
        r = s.request("GET", "/healthz", headers={"Accept-Encoding": "gzip"})
        check("content-encoding" not in r.headers and r.json == {"status": "ok"}, "healthz %r" % r)
        # A game's view: its ETag "<seq>-gzip", good for If-None-Match and If-Match.
        gid, tok = create_game(s, "quantum", 2)
        path = "/v1/games/%s" % gid
        ident = s.request("GET", path, token=tok[0])
        r = s.request("GET", path, token=tok[0], headers={"Accept-Encoding": "gzip"}, validate=False)
        check(len(ident.raw) >= 1024 and r.headers.get("content-encoding") == "gzip"
              and json.loads(gzip.decompress(r.raw)) == ident.json, "view: %r" % r.headers)
        tag = r.headers["etag"]
        check(tag == ident.headers["etag"][:-1] + '-gzip"', "view ETag %s, identity %s"
              % (tag, ident.headers["etag"]))
        r = s.request("GET", path, token=tok[0], headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
        check(r.status == 304 and r.headers["etag"] == tag, "view If-None-Match %s: %r" % (tag, r))
        seat = ident.json["to_act"][0]
        r = move(s, gid, tok[seat], actions(s, gid, tok[seat])[0], headers={"If-Match": tag})
        check(r.status == 201, "If-Match %s: %r" % (tag, r))


@test
def a_coded_tag_holds_only_for_a_request_taking_its_coding(binary):
    """If-None-Match naming a coded representation's tag ("<tag>-br")
    gave 304 to a request that does not take that coding, carrying that
    tag: a cache told so freshens its br copy and serves it to a client
    that cannot decode it.  A 304 carries the tag a 200 to the same
    request could (RFC 9110 §15.4.5): a coded tag holds only where
    Accept-Encoding takes its coding; the identity one always does."""
    with server(binary) as s:
        plain = s.request("GET", "/lobby.js")
        tag = plain.headers["etag"]
        coded = {c: tag[:-1] + "-%s\"" % c for c in ("gzip", "br")}
        for ae, inm, want in ((None, coded["br"], None), (None, coded["gzip"], None),
                              ("gzip", coded["br"], "gzip"), ("br", coded["gzip"], "br"),
                              ("gzip;q=0", coded["gzip"], None)):
            h = {"If-None-Match": inm}
            if ae:
                h["Accept-Encoding"] = ae
            r = s.request("GET", "/lobby.js", headers=h, validate=False)
            check(r.status == 200 and r.headers.get("content-encoding") == want
                  and r.headers["etag"] == (coded[want] if want else tag),
                  "Accept-Encoding %s, If-None-Match %s: %r" % (ae, inm, r))
        for ae, inm in ((None, tag), ("gzip", tag), ("gzip", coded["gzip"]), ("br", coded["br"])):
            h = {"If-None-Match": inm}
            if ae:
                h["Accept-Encoding"] = ae
            r = s.request("GET", "/lobby.js", headers=h)
            check(r.status == 304 and r.headers["etag"] == inm, "%s, %s: %r" % (ae, inm, r))
        # A game's view: "<seq>-gzip" holds for a request taking gzip only.
        gid, tok = create_game(s, "quantum", 2)
        path = "/v1/games/%s" % gid
        ident = s.request("GET", path, token=tok[0])
        gz = ident.headers["etag"][:-1] + '-gzip"'
        r = s.request("GET", path, token=tok[0], headers={"If-None-Match": gz})
        check(r.status == 200 and r.json == ident.json and r.headers["etag"] == ident.headers["etag"],
              "view without Accept-Encoding, If-None-Match %s: %r" % (gz, r))
        r = s.request("GET", path, token=tok[0], headers={"Accept-Encoding": "gzip", "If-None-Match": gz})
        check(r.status == 304 and r.headers["etag"] == gz, "view, gzip taken: %r" % r)


def _cpu_seconds(pid):
    """User plus system CPU time of process pid so far, seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _keepalive_gets(port, path, n, extra=""):
    """n GETs of path on one connection, each answer read whole; returns
    the server's answers' body bytes in all."""
    import socket
    req = ("GET %s HTTP/1.1\r\nHost: t\r\n%s\r\n" % (path, extra)).encode()
    total = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as c:
        buf = b""
        for _ in range(n):
            c.sendall(req)
            while b"\r\n\r\n" not in buf:
                d = c.recv(65536)
                check(d, "the server closed the connection")
                buf += d
            head, buf = buf.split(b"\r\n\r\n", 1)
            length = [int(l.split(b":")[1]) for l in head.split(b"\r\n")
                      if l.lower().startswith(b"content-length:")][0]
            while len(buf) < length:
                d = c.recv(65536)
                check(d, "the server closed the connection")
                buf += d
            total += length
            buf = buf[length:]
    return total


@test
def a_static_body_is_gzipped_once(binary):
    """The OpenAPI document (160 KB) was gzipped again for every answer
    that took gzip, HEAD too: 4.4 ms of server CPU each against 0.07 ms
    as it is (release build), so any client could keep a core busy with
    about 230 requests a second.  It lives as long as the process: it is
    gzipped once and kept.  Measured as the server's own CPU time
    (user+sys), not wall time: 150 gzipped answers must cost less than
    twice 150 plain ones plus 0.3 s (the old binary: about 0.66 s more)."""
    import gzip
    with server(binary) as s:
        plain = s.request("GET", "/openapi.yaml", validate=False)
        gz = s.request("GET", "/openapi.yaml", headers={"Accept-Encoding": "gzip"}, validate=False)
        check(gz.headers.get("content-encoding") == "gzip" and gzip.decompress(gz.raw) == plain.raw
              and len(gz.raw) < len(plain.raw) // 2, "gzipped: %r" % gz.headers)
        pid = s.proc.pid
        c0 = _cpu_seconds(pid)
        _keepalive_gets(s.port, "/openapi.yaml", 150)
        c1 = _cpu_seconds(pid)
        _keepalive_gets(s.port, "/openapi.yaml", 150, "Accept-Encoding: gzip\r\n")
        c2 = _cpu_seconds(pid)
        note("150 answers: %.3f s of CPU as it is, %.3f s gzipped" % (c1 - c0, c2 - c1))
        check(c2 - c1 < 2 * (c1 - c0) + 0.3,
              "gzipped answers cost %.3f s of CPU, plain %.3f s" % (c2 - c1, c1 - c0))


def _exchange(s, method, path, token=None, extra=""):
    """The server's answer to one request on its own connection, as bytes,
    without its Date line (the only one that changes by itself) and its
    X-Request-Id (one per request, checked by the harness)."""
    auth = "Authorization: Bearer %s\r\n" % token if token else ""
    req = "%s %s HTTP/1.1\r\nHost: t\r\n%s%sConnection: close\r\n\r\n" % (
        method, path, auth, extra)
    out, _ = raw_exchange(s.port, req.encode())
    head, _, body = out.partition(b"\r\n\r\n")
    lines = [l for l in head.split(b"\r\n")
             if not l.lower().startswith((b"date:", b"x-request-id:"))]
    return lines, body


@test
def a_repeated_read_answers_as_the_first(binary):
    """A view or action list served again is sent from the bytes kept in
    the state cache (docs/read-path.md, step 6): byte for byte the first
    answer (but its Date and X-Request-Id), HEAD its headers, each viewer
    its own, gone after a move; a 304 again the same, and another game's
    at the same seq too."""
    with server(binary) as s:
        gid, tok = create(s)
        path = "/v1/games/%s" % gid
        seat = game(s, gid, tok[0])["to_act"][0]  # who has actions
        reads = [("seat 0", path, tok[0], ""), ("seat 1", path, tok[1], ""),
                 ("spectator", path, None, ""),
                 ("actions in French", path + "/actions", tok[seat], "Accept-Language: fr\r\n"),
                 ("actions", path + "/actions", tok[seat], "")]
        first = {}
        for name, p, t, extra in reads:
            answers = [_exchange(s, "GET", p, t, extra) for _ in range(3)]
            check(answers[0][0][0] == b"HTTP/1.1 200 OK" and answers[0][1],
                  "%s: %r" % (name, answers[0]))
            check(answers[1] == answers[0] and answers[2] == answers[0],
                  "%s: the second and third answers are the first's: %r" % (name, answers))
            head = _exchange(s, "HEAD", p, t, extra)
            check(head == (answers[0][0], b""), "%s: HEAD has GET's headers: %r" % (name, head))
            first[name] = answers[0]
        check(len({first[n][1] for n in ("seat 0", "seat 1", "spectator")}) == 3,
              "each viewer gets its own view")
        check(b"Content-Language: fr" in first["actions in French"][0]
              and first["actions in French"][1] != first["actions"][1],
              "the French labels come with their Content-Language")
        nm = [_exchange(s, "GET", path, tok[0], 'If-None-Match: "0"\r\n') for _ in range(3)]
        check(nm[0][0][0] == b"HTTP/1.1 304 Not Modified" and not nm[0][1]
              and b'ETag: "0"' in nm[0][0] and nm[1] == nm[0] and nm[2] == nm[0],
              "a 304 again is the first one: %r" % nm)
        gid2, tok2 = create(s)
        other = _exchange(s, "GET", "/v1/games/%s" % gid2, tok2[1], 'If-None-Match: "0"\r\n')
        check(other == nm[0], "another game's 304 at its seq 0 is the same: %r" % (other,))
        check(_exchange(s, "GET", path, tok[0], 'If-None-Match: "7"\r\n')[0][0]
              == b"HTTP/1.1 200 OK", "another ETag gets the view")
        check(move(s, gid, tok[seat], actions(s, gid, tok[seat])[0]).status == 201, "a move")
        lines, body = _exchange(s, "GET", path, tok[0])
        check(b'ETag: "1"' in lines and body != first["seat 0"][1]
              and json.loads(body)["seq"] == 1,
              "after a move the view is the new one: %r" % lines)
        _play_any(s, gid, tok, random.Random(5), 12)
        lines, body = _exchange(s, "GET", path, tok[0])
        check(('ETag: "%d"' % json.loads(body)["seq"]).encode() in lines,
              "the ETag is the seq the body shows: %r" % lines)


def _play_any(s, gid, tokens, rng, n):
    """Plays n listed moves (fewer if the game ends), any seat to act."""
    g = game(s, gid, tokens[0])
    for _ in range(n):
        if g["status"] != "active" or not g["to_act"]:
            return
        seat = g["to_act"][0]
        r = move(s, gid, tokens[seat], rng.choice(actions(s, gid, tokens[seat])))
        check(r.status == 201, "listed action refused: %r" % r)
        g = r.json


@test
def move_log_pages_and_snapshots(binary):
    """GET /moves is paged (limit, after, next_after) and every page equals
    the same stretch of the whole log; a Quantum game past SVC_SNAPSHOT_EVERY
    (64) moves has a snapshot at 64 (test_quantum_cards restarts longer
    games); its views, logs and
    an /events resume are the same from a cold start with the snapshots,
    without them (replayed from the seed, which writes one back), and with
    snapshots that must be ignored (a foreign rules version, bytes of the
    wrong length)."""
    rng = random.Random(13)
    with server(binary) as s:
        r = s.request("POST", "/v1/games", {"game": "quantum", "seats": 2})
        gid, tok = r.json["id"], [x["token"] for x in r.json["seats"]]
        _play_any(s, gid, tok, rng, 70)
        seq = game(s, gid, tok[0])["seq"]
        check(seq >= 65, "the game went past a snapshot: %d" % seq)
        for t in tok + [None]:
            whole = s.request("GET", "/v1/games/%s/moves" % gid, token=t).json
            check(whole["seq"] == seq and len(whole["moves"]) == seq and "next_after" not in whole,
                  "one page holds the whole log")
            check(move_log(s, gid, t, limit=7) == whole, "pages of 7 make the whole log")
        r = s.request("GET", "/v1/games/%s/moves?after=62&limit=4" % gid, token=tok[1])
        check([m["seq"] for m in r.json["moves"]] == [63, 64, 65, 66] and r.json["next_after"] == 66,
              "a page from after 62: %r" % r.json)
        r = s.request("GET", "/v1/games/%s/moves?after=%d" % (gid, seq))
        check(r.json["moves"] == [] and "next_after" not in r.json, "nothing after the end")
        for bad in ("limit=0", "limit=1001", "limit=x", "limit=", "after=-1"):
            r = s.request("GET", "/v1/games/%s/moves?%s" % (gid, bad))
            check(r.status == 400, "%s refused: %r" % (bad, r))
        before = views(s, gid, tok)
        path = "/v1/games/%s/events?after=%d" % (gid, seq - 3)
        ev = read_stream(s.port, path, tok[0], {"Accept": "application/x-ndjson"}, 3)
        s.stop()
        snaps = [r[0] for r in s.query(
            "SELECT s.seq FROM snapshots s JOIN games g ON g.key = s.game_key WHERE g.id = ? "
            "ORDER BY s.seq", (gid,))]
        check(snaps == [64], "a snapshot at 64: %r" % snaps)

        def cold(sql=None, params=()):
            if sql:
                s.query(sql, params)
            s.start()
            check(views(s, gid, tok) == before, "views and logs as before (%s)" % sql)
            check(read_stream(s.port, path, tok[0], {"Accept": "application/x-ndjson"}, 3) == ev,
                  "the /events resume as before (%s)" % sql)
            s.stop()

        cold()
        cold("DELETE FROM snapshots")
        check([r[0] for r in s.query("SELECT seq FROM snapshots")] == [64],
              "a replay from the seed wrote the last snapshot it crossed back")
        cold("UPDATE snapshots SET rules_version = rules_version + 1")
        cold("UPDATE snapshots SET state = ?", (b"\x00",))
        s.start()


@test
def one_process_owns_a_database(binary):
    """A second boardd on the same SQLite file exits at once with a clear
    error (its game table in memory would not see the first one's
    writes); after the first stops, the file opens again.  (On PostgreSQL
    several processes share a database: test_nodes.py.)"""
    import subprocess
    sqlite_only("the exclusive lock on the database file")
    with server(binary) as s:
        p = subprocess.run([binary, "--addr", "127.0.0.1", "--port", "0", "--db", s.db,
                            "--quiet"], capture_output=True, timeout=30)
        check(p.returncode == 1 and b"another boardd process has this database open"
              in p.stderr, "second process refused: %r" % (p,))
        check(s.request("GET", "/healthz").status == 200, "the first goes on")
        s.stop()
        s.start()
        check(s.request("GET", "/healthz").status == 200, "reopened after a clean stop")
        s.kill()
        s.start()
        check(s.request("GET", "/healthz").status == 200, "reopened after SIGKILL")


if __name__ == "__main__":
    run_all("http")
