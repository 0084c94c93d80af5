"""test_display.py: display data and history over HTTP (issue 12).

- labels_in_random_games: random games of every game, Agent Avenue mode and
  seat count; every listed action has a non-empty label in English and in
  French (the same actions otherwise, the languages differing), with
  Content-Language and Vary: Accept-Language; every action type the games
  reached is reported.  (tests/unit/test_display.c labels every action
  form of the catalogs, which random games cannot all reach.)
- labels_hide_what_the_seat_cannot_see: the engine suite's twin worlds
  (games that differ only in what a seat may not see) list that seat
  byte-identical French actions after every move (test_properties.py
  compares the English ones).
- accept_language: q-values, fr-CA -> fr, unknown -> en, `*`, q=0; the
  cached bytes of one language never answer another.
- catalog_texts: every card's name and text in both languages, Agent
  Avenue icons, Quantum printings and ship names by die value.
- option_names: every option of the catalog named in words in both
  languages, and each of its values (a boolean's true and false) too,
  the words differing between English and French (issue 31 goal 5).
- at_n_is_the_view_after_move_n: GET /v1/games/{id}?at=N equals what the
  caller saw live after move N (an unfinished game: redacted as then and
  now alike), and the final view of a finished game; out of range: 400.
- move_times_and_rules_version: every logged move and move event has its
  RFC 3339 time, non-decreasing, the same in /moves and /events; the game
  names its rules version.
Usage: test_display.py BOARDD [test names...]"""
import datetime
import json
import random

from gamehelp import create_game as create, engine_pairs, read_stream, server
from harness import check, run_all, test

FR = {"Accept-Language": "fr-CA, fr;q=0.9, en;q=0.5"}
GAMES = [("agent-avenue", {}, 2), ("agent-avenue", {}, 3), ("agent-avenue", {}, 4),
         ("agent-avenue", {"mode": "advanced"}, 2), ("agent-avenue", {"mode": "advanced"}, 3),
         ("agent-avenue", {"mode": "advanced"}, 4), ("quantum", {}, 2), ("quantum", {}, 3)] + \
    [("agent-avenue", {"mode": "advanced"}, n) for n in (2, 3, 4, 2, 3, 4)]  # the black market's rarer cards
MOVES = 150
SHIP_NAMES = {"en": ["battlestation", "flagship", "destroyer", "frigate", "interceptor", "scout"],
              "fr": ["station de combat", "vaisseau amiral", "destroyer", "frégate", "intercepteur",
                     "éclaireur"]}


def bare(actions):
    return [{k: v for k, v in a.items() if k != "label"} for a in actions]


def listed(s, gid, tok, headers=None):
    r = s.request("GET", "/v1/games/%s/actions" % gid, token=tok, headers=headers)
    check(r.status == 200, "actions: %r" % r)
    return r


def random_moves(s, gid, tok, rng, n, after=None):
    """Up to n random listed moves (fewer if the game ends); after() is
    called after each."""
    for _ in range(n):
        g = s.request("GET", "/v1/games/" + gid, validate=False).json
        if g["status"] != "active":
            return
        seat = rng.choice(g["to_act"])
        a = rng.choice(listed(s, gid, tok[seat]).json["actions"])
        r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tok[seat])
        check(r.status == 201, "a listed move: %r" % r)
        if after:
            after()


def language_of(r):
    vary = [v.strip().lower() for v in r.headers.get("vary", "").split(",")]
    check("accept-language" in vary, "Vary names Accept-Language: %r" % r.headers.get("vary"))
    return r.headers.get("content-language")


@test
def labels_in_random_games(binary):
    rng = random.Random(12)
    types = {}
    # Each game's deal is the server's own draw, so which action types a
    # round of games reaches varies: one whole round, then up to two more
    # while fewer than 25 types have been met.
    with server(binary) as s:
        for i, (game, options, seats) in enumerate(GAMES * 3):
            if i >= len(GAMES) and len(types) >= 25:
                break
            gid, tok = create(s, game, seats, options)
            for _ in range(MOVES):
                g = s.request("GET", "/v1/games/" + gid, validate=False).json
                if g["status"] != "active":
                    break
                seat = rng.choice(g["to_act"])
                en, fr = listed(s, gid, tok[seat]), listed(s, gid, tok[seat], FR)
                check(language_of(en) == "en" and language_of(fr) == "fr",
                      "Content-Language en / fr: %r %r" % (en.headers, fr.headers))
                a_en, a_fr = en.json["actions"], fr.json["actions"]
                check(bare(a_en) == bare(a_fr), "the same actions in both languages")
                differ = 0
                for x, y in zip(a_en, a_fr):
                    for lab in (x.get("label"), y.get("label")):
                        check(isinstance(lab, str) and lab.strip() and lab != x["type"] and "{" not in lab,
                              "%s: a label of its own: %r / %r" % (game, x, y))
                    differ += x["label"] != y["label"]
                    kind = "%s.%s" % (game, x["type"])
                    types[kind] = types.get(kind, 0) + 1
                check(differ * 2 >= len(a_en), "French labels are French: %r / %r" % (a_en[:3], a_fr[:3]))
                a = rng.choice(a_fr)  # posted back with its label: accepted, label dropped
                r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tok[seat])
                check(r.status == 201, "a listed action with its label: %r" % r)
            log = s.request("GET", "/v1/games/%s/moves" % gid, token=tok[0]).json["moves"]
            check(all("label" not in m["action"] for m in log), "no label is logged")
    check(len(types) >= 25, "many action types reached: %r" % sorted(types))
    print("     %d action types labelled in both languages: %s" % (len(types), " ".join(sorted(types))))


@test
def labels_hide_what_the_seat_cannot_see(binary):
    pairs = [p for p in engine_pairs(binary, 2) if p["viewer"] >= 0]
    check(pairs, "twin pairs")
    compared = 0
    with server(binary) as s:
        for p in pairs:
            v = p["viewer"]
            told = []
            for world in (p["a"], p["b"]):
                gid, tok = create(s, p["game"], p["seats"], p["options"], world["setup"])
                answers = [listed(s, gid, tok[v], FR).raw]
                for seat, action in world["log"]:
                    r = s.request("POST", "/v1/games/%s/moves" % gid, {"action": action}, token=tok[seat])
                    check(r.status == 201, "twin move refused: %r" % r)
                    answers.append(listed(s, gid, tok[v], FR).raw)
                told.append(answers)
            for i, (x, y) in enumerate(zip(*told)):
                check(x == y, "%s/%d viewer %d after %d moves: French actions differ:\n  A %r\n  B %r"
                      % (p["game"], p["seats"], v, i, x, y))
                compared += 1
    print("     %d twin pairs, %d French action lists compared" % (len(pairs), compared))


@test
def accept_language(binary):
    cases = [(None, "en"), ("fr", "fr"), ("fr-CA", "fr"), ("FR-ca;q=0.8, de", "fr"),
             ("de-DE, fr;q=0.2", "fr"), ("en;q=0.4, fr;q=0.6", "fr"), ("fr;q=0.5, en", "en"),
             ("de", "en"), ("*", "en"), ("en;q=0, *;q=0.1", "fr"), ("fr;q=0", "en"), ("", "en")]
    with server(binary) as s:
        gid, tok = create(s, "agent-avenue", 2, None, {"first_player": 0})
        for header, want in cases:
            h = {"Accept-Language": header} if header is not None else None
            for path, t in (("/v1/catalog", None), ("/v1/games/%s/actions" % gid, tok[0])):
                r = s.request("GET", path, token=t, headers=h)
                check(r.status == 200 and language_of(r) == want,
                      "%s, Accept-Language %r: Content-Language %r, not %r"
                      % (path, header, r.headers.get("content-language"), want))
        # The bytes cached for one language never answer another.
        seen = [listed(s, gid, tok[0], {"Accept-Language": lang}) for lang in ("en", "fr", "en", "fr", "fr")]
        check(seen[0].raw == seen[2].raw and seen[1].raw == seen[3].raw == seen[4].raw and
              seen[0].raw != seen[1].raw, "one answer per language, cached apart")
        # The game object has no text: no language, one ETag.
        g1 = s.request("GET", "/v1/games/" + gid, token=tok[0])
        g2 = s.request("GET", "/v1/games/" + gid, token=tok[0], headers=FR)
        check(g1.raw == g2.raw and g1.headers.get("etag") == g2.headers.get("etag") and
              "content-language" not in g1.headers, "the game object does not vary by language")


@test
def catalog_texts(binary):
    with server(binary) as s:
        cats = {}
        for lang, h in (("en", None), ("fr", {"Accept-Language": "fr"})):
            r = s.request("GET", "/v1/catalog", headers=h)
            check(r.status == 200 and r.json["language"] == lang == language_of(r), "catalog in %s" % lang)
            cats[lang] = {g["id"]: g for g in r.json["games"]}
        n = 0
        for lang, games in cats.items():
            aa, qt = games["agent-avenue"], games["quantum"]
            for group in (aa["cards"], aa["black_market"], qt["cards"]):
                for c in group:
                    check(c.get("name", "").strip() and c.get("text", "").strip() and "." not in c["name"],
                          "%s: %r has a name and a text" % (lang, c))
                    n += 1
            for c in aa["cards"]:
                check(len(c["icons"]) == len(c["moves"]) and all(i.strip() for i in c["icons"]),
                      "%s: %s's icons in words: %r" % (lang, c["id"], c.get("icons")))
            printed = {c["id"]: c.get("printings", {}) for c in qt["cards"]}
            check(set(printed["curious"]) == {"revised", "first-printing", "addon"} and
                  set(printed["strategic"]) == {"revised", "first-printing"} and
                  set(printed["relocation"]) == {"revised", "first-printing"},
                  "%s: the texts of each printing: %r" % (lang, printed))
            check([x["name"] for x in qt["ships"]] == SHIP_NAMES[lang] and
                  [x["value"] for x in qt["ships"]] == [1, 2, 3, 4, 5, 6] and
                  all(x["ability"].strip() for x in qt["ships"]),
                  "%s: ship names by die value: %r" % (lang, qt["ships"]))
        en, fr = cats["en"], cats["fr"]
        same = [c["id"] for g in en for c, d in zip(en[g]["cards"], fr[g]["cards"]) if c["text"] == d["text"]]
        check(not same, "every card text translated: %r" % same)
        # the black market's precise `effect` too (English: the rules
        # module's own words, rules §8.2)
        pairs = list(zip(en["agent-avenue"]["black_market"], fr["agent-avenue"]["black_market"]))
        check(len(pairs) == 15 and all(c["id"] == d["id"] and c["effect"].strip() and d["effect"].strip() and
                                       c["effect"] != d["effect"] for c, d in pairs),
              "every black-market effect translated: %r" % [c["id"] for c, d in pairs if c["effect"] == d["effect"]])
        check(dict((c["id"], c["effect"]) for c, d in pairs)["outpost"] ==
              "the gainer recruits a Sentinel from its hand", "English effects are the rules module's")
        check(dict((d["id"], d["effect"]) for c, d in pairs)["outpost"] ==
              "le bénéficiaire recrute une Sentinelle de sa main", "French effects: %r" % pairs[8][1])
        check(en["agent-avenue"]["cards"][1]["name"] == "Enforcer", "English names")
    print("     %d card names and texts checked" % n)


@test
def option_names(binary):
    with server(binary) as s:
        cats = {}
        for lang in ("en", "fr"):
            r = s.request("GET", "/v1/catalog", headers={"Accept-Language": lang})
            check(r.status == 200 and r.json["language"] == lang, "catalog in %s" % lang)
            cats[lang] = {g["id"]: g["options"] for g in r.json["games"]}
        n = 0
        for lang, games in cats.items():
            for game, opts in games.items():
                check(opts, "%s: %s has options" % (lang, game))
                for k, o in opts.items():
                    check(o.get("name", "").strip() and o["name"] != k,
                          "%s: %s option %s named in words: %r" % (lang, game, k, o))
                    values = o.get("values") or (["true", "false"] if o.get("type") == "boolean" else [])
                    words = o.get("value_names")
                    if not values:
                        check(words is None, "%s: %s option %s has no value words: %r" % (lang, game, k, o))
                    else:
                        check(isinstance(words, dict) and sorted(words) == sorted(values) and
                              all(w.strip() and w != v for v, w in words.items()),
                              "%s: %s option %s: each value in words: %r" % (lang, game, k, o))
                    n += 1
        en, fr = cats["en"], cats["fr"]
        same = [(g, k, v) for g in en for k in en[g] for v in en[g][k].get("value_names", {})
                if en[g][k]["value_names"][v] == fr[g][k]["value_names"][v]]
        check(not same, "every option value translated: %r" % same)
        check(en["agent-avenue"]["mode"]["value_names"] == {"base": "base game",
                                                             "advanced": "advanced (black market)"} and
              fr["agent-avenue"]["mode"]["value_names"]["advanced"] == "avancé (marché noir)" and
              en["quantum"]["entanglement"]["name"] == "Quantum Entanglement" and
              fr["quantum"]["entanglement"]["name"] == "Intrication quantique" and
              fr["quantum"]["curious"]["value_names"]["first-printing"] == "première édition",
              "the words of i18n/en.json and fr.json: %r %r" % (en["agent-avenue"], fr["quantum"]["entanglement"]))
    print("     %d options named in words" % n)


def live_keys(g):
    return {k: g[k] for k in ("seq", "status", "to_act", "view", "result", "rules_version")}


@test
def at_n_is_the_view_after_move_n(binary):
    rng = random.Random(5)
    with server(binary) as s:
        for game, options, seats in (("agent-avenue", {"mode": "advanced"}, 2), ("quantum", {}, 2),
                                     ("agent-avenue", {}, 4)):
            gid, tok = create(s, game, seats, options)
            viewers = [None] + tok
            seen = {i: [live_keys(s.request("GET", "/v1/games/" + gid, token=t).json)]
                    for i, t in enumerate(viewers)}
            def after_move():
                for i, t in enumerate(viewers):
                    seen[i].append(live_keys(s.request("GET", "/v1/games/" + gid, token=t).json))
            random_moves(s, gid, tok, rng, 25, after_move)
            last = len(seen[0]) - 1
            over = seen[0][last]["status"] == "finished"
            for i, t in enumerate(viewers):
                for n, want in enumerate(seen[i]):
                    r = s.request("GET", "/v1/games/%s?at=%d" % (gid, n), token=t)
                    check(r.status == 200 and "etag" not in r.headers, "at=%d: %r" % (n, r))
                    got = live_keys(r.json)
                    if over and n < last:  # shown in full now, unlike then
                        got.pop("view"), want.pop("view")
                    check(got == want, "%s viewer %d at=%d: not the view seen after move %d:\n %r\n %r"
                          % (game, i - 1, n, n, got, want))
            for bad in (str(last + 1), "-1", "x", "1.5", "99999999999999999999"):
                r = s.request("GET", "/v1/games/%s?at=%s" % (gid, bad), token=tok[0])
                check(r.status == 400 and r.json["type"].endswith("bad-request"), "at=%s: %r" % (bad, r))
        # A finished game: every position shown in full, as of now.
        gid, tok = create(s, "agent-avenue", 2, None, {"first_player": 0})
        a = listed(s, gid, tok[0]).json["actions"][-1]
        check(s.request("POST", "/v1/games/%s/moves" % gid, {"action": a}, token=tok[0]).status == 201, "play")
        before = s.request("GET", "/v1/games/%s?at=1" % gid, token=tok[1]).json
        check(s.request("POST", "/v1/games/%s/resign" % gid, token=tok[1]).status == 201, "resign")
        now = s.request("GET", "/v1/games/%s" % gid, token=tok[1]).json
        after = s.request("GET", "/v1/games/%s?at=1" % gid, token=tok[1]).json
        check(before["view"]["played"]["face_down"] is None, "hidden while the game runs")
        check(after["view"]["played"]["face_down"] == a["face_down"] and after["secret"] == now["secret"] and
              after["salt"] == now["salt"] and after["secret"] and after["salt"] and
              after["commitment"] == now["commitment"] and after["status"] == "active",
              "revealed as of now once the game is over: %r" % after["view"].get("played"))


def parse_time(t):
    check(isinstance(t, str) and t.endswith("Z"), "an RFC 3339 UTC time: %r" % t)
    return datetime.datetime.fromisoformat(t[:-1] + "+00:00")


@test
def move_times_and_rules_version(binary):
    rng = random.Random(9)
    with server(binary) as s:
        versions = {g["id"]: g["version"] for g in s.request("GET", "/v1/catalog").json["games"]}
        for game in versions:
            gid, tok = create(s, game, 2)
            g = s.request("GET", "/v1/games/" + gid).json
            check(g["rules_version"] == versions[game], "rules_version %r" % g)
            start = parse_time(g["created"])
            random_moves(s, gid, tok, rng, 12)
            moves = s.request("GET", "/v1/games/%s/moves" % gid).json["moves"]
            times = [parse_time(m["time"]) for m in moves]
            check(times and times == sorted(times) and times[0] >= start,
                  "move times present and ordered: %r" % [m["time"] for m in moves])
            st, ctype, body = read_stream(s.port, "/v1/games/%s/events?after=0" % gid, None,
                                          {"Accept": "application/x-ndjson"}, len(moves))
            evs = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
            evs = [e.get("data", e) for e in evs]
            got = [e["time"] for e in evs if e.get("event") == "move"]
            check(st == 200 and got == [m["time"] for m in moves], "events carry the log's times: %r" % got)


if __name__ == "__main__":
    run_all("display-http")
