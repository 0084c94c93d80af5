/* test_agent_avenue.c: Agent Avenue (base mode) through the engine.
 *
 * The cases of rules §6 and §5 (the icon a recruit moves by, whole turns,
 * the End step, discards, the face-down card, the views), the refused
 * setups and the refused actions are data files,
 * tests/cases/agent-avenue/base-*.json, run by tests/unit/test_cases.c.
 * Here, through engine_game_new and engine_game_apply: §6.3's discard
 * after playing (it calls the pure rules' aa_apply too), information
 * hiding until a game played to its end, the normal deal over 40 seeds,
 * setup defaults and boundaries, options, the catalog, determinism and a
 * few hundred random games.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "games/agent_avenue/aa.h"
#include "testhelp.h"

/* ---- helpers ---- */

/* Parses a JSON literal of the test itself; aborts on a typo. */
static json_t *js(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &e);
	if (!j) {
		fprintf(stderr, "bad test JSON (%s): %s\n", e.text, text);
		abort();
	}
	return j;
}

/* 1 if got equals the JSON literal; prints both when not. */
static int jeq(const json_t *got, const char *expected)
{
	json_t *want = js(expected);
	int eq = got && json_equal(got, want);
	if (!eq) {
		char *g = got ? json_dumps(got, JSON_SORT_KEYS) : NULL;
		fprintf(stderr, "  got:  %s\n  want: %s\n", g ? g : "(null)",
		        expected);
		free(g);
	}
	json_decref(want);
	return eq;
}

static int streq(const char *a, const char *b)
{
	int eq = a && b && strcmp(a, b) == 0;
	if (!eq)
		fprintf(stderr, "  got:  %s\n  want: %s\n", a ? a : "(null)",
		        b ? b : "(null)");
	return eq;
}

/* Creates a game; `setup` NULL is the normal deal.  Returns the rc and
 * fills *g (NULL on failure) and *why. */
static int try_new(const char *setup, uint64_t seed, struct engine_game **g,
                   struct rules_why *why)
{
	json_t *j = setup ? js(setup) : NULL;
	*g = NULL;
	int rc = engine_game_new(&aa_rules, 2, NULL, j, seed, g, why);
	json_decref(j);
	return rc;
}

/* A game that must be accepted (one check named `name`). */
static struct engine_game *new_game(const char *name, const char *setup,
                                    uint64_t seed)
{
	struct engine_game *g;
	struct rules_why why = {{0}, {0}};
	int rc = try_new(setup, seed, &g, &why);
	if (rc)
		fprintf(stderr, "  setup refused: %s\n", why.detail);
	test_cond(name, rc == 0);
	return g;
}

static const struct aa_state *st(const struct engine_game *g)
{
	return (const struct aa_state *)g->state;
}

static int move(struct engine_game *g, int seat, const char *action,
                struct rules_why *why)
{
	json_t *a = js(action);
	int rc = engine_game_apply(g, seat, a, why);
	json_decref(a);
	return rc;
}

static json_t *player_of(const json_t *view, int seat)
{
	return json_array_get(json_object_get(view, "players"), (size_t)seat);
}

static json_int_t player_int(const json_t *view, int seat, const char *key)
{
	return json_integer_value(json_object_get(player_of(view, seat), key));
}

/* 1 if the compact dump of `view` mentions `word`. */
static int mentions(const json_t *view, const char *word)
{
	char *text = json_dumps(view, JSON_COMPACT);
	int found = text && strstr(text, word) != NULL;
	free(text);
	return found;
}

/* ---- §6.3: the pure rules refuse a discard after playing (every other
 * case of rules §6 is a data file: tests/cases/agent-avenue/base-*.json)
 * ---- */

static void test_6_3_after_play(void)
{
	const char *name = "§6.3 discard-to-draw is illegal after playing";
	const char *discard = "{\"type\":\"discard\",\"card\":\"saboteur\"}";
	struct engine_game *g = new_game(
	    name,
	    "{\"first_player\":0,\"hands\":[[\"enforcer\",\"saboteur\","
	    "\"saboteur\",\"mole\"],[\"saboteur\",\"sentinel\",\"sentinel\","
	    "\"sentinel\"]]}",
	    1);
	if (!g)
		return;
	struct rules_why why = {{0}, {0}};
	test_cond(name, move(g, 0,
	                     "{\"type\":\"play\",\"face_up\":\"enforcer\","
	                     "\"face_down\":\"mole\"}",
	                     &why) == 0);
	/* The engine stops the active player: it is not their turn. */
	test_cond(name, move(g, 0, discard, &why) == BD_ENOTTURN);
	/* The recruiting player may not discard either. */
	test_cond(name, move(g, 1, discard, &why) == BD_EILLEGAL &&
	                    streq(why.rule, "§4 Step 1.1") &&
	                    streq(why.detail, "you may discard only on your "
	                                      "own turn, before playing"));
	/* The pure rules refuse it too, without the engine's seat check. */
	struct aa_state copy;
	memcpy(&copy, st(g), sizeof copy);
	struct aa_action a = {.type = AA_ACT_DISCARD, .card = AA_SABOTEUR};
	struct rules_why w;
	test_cond(name, aa_apply(&copy, 0, &a, &w) == BD_EILLEGAL &&
	                    memcmp(&copy, st(g), sizeof copy) == 0);
	engine_game_free(g);
}

/* The logged `action` as `viewer` sees it, given the states. */
static json_t *seen(const struct engine_game *after,
                    const struct engine_game *now, int actor,
                    const char *action, int viewer)
{
	json_t *a = js(action);
	json_t *m = engine_move_view(after, now, actor, a, viewer);
	json_decref(a);
	return m;
}

/* ---- views and information (rules §5) ---- */

static void test_hiding(void)
{
	const char *name = "§5 seat 1 and spectators never see seat 0's hand "
	                   "or discards";
	const char *discard = "{\"type\":\"discard\",\"card\":\"mole\"}";
	struct engine_game *g =
	    new_game(name,
	             "{\"first_player\":0,\"hands\":[[\"sidekick\",\"mole\","
	             "\"enforcer\",\"enforcer\"],[\"sentinel\",\"sentinel\","
	             "\"saboteur\",\"saboteur\"]]}",
	             4);
	if (!g)
		return;
	struct rules_why why = {{0}, {0}};
	test_cond(name, move(g, 0, discard, &why) == 0);
	struct engine_game *after = engine_game_clone(g);
	json_t *v1 = engine_game_view(g, 1), *vs = engine_game_view(g, -1);
	json_t *v0 = engine_game_view(g, 0);
	json_t *m1 = seen(after, g, 0, discard, 1);
	json_t *ms = seen(after, g, 0, discard, -1);
	json_t *m0 = seen(after, g, 0, discard, 0);
	test_cond(name, !mentions(v1, "sidekick") && !mentions(v1, "mole") &&
	                    !mentions(vs, "sidekick") && !mentions(vs, "mole"));
	test_cond(name, jeq(json_object_get(v1, "hand"),
	                    "[\"sentinel\",\"sentinel\",\"saboteur\","
	                    "\"saboteur\"]") &&
	                    jeq(json_object_get(vs, "hand"), "null") &&
	                    !json_object_get(v1, "hands") &&
	                    !json_object_get(v1, "deck") &&
	                    !json_object_get(player_of(v1, 0), "discarded") &&
	                    !json_object_get(player_of(vs, 1), "discarded"));
	test_cond(name, player_int(v1, 0, "discards") == 1 &&
	                    jeq(json_object_get(player_of(v0, 0), "discarded"),
	                        "[\"mole\"]"));
	test_cond(name, jeq(m1, "{\"type\":\"discard\"}") &&
	                    jeq(ms, "{\"type\":\"discard\"}") &&
	                    jeq(m0, discard));
	json_decref(v1), json_decref(vs), json_decref(v0);
	json_decref(m1), json_decref(ms), json_decref(m0);

	/* Finish with the last listed action every time (a play or a pick,
	 * never a discard); then everything is shown to everyone. */
	const char *name2 = "§5 after game over everything is shown";
	struct rules_result res;
	for (int guard = 0; guard < 200 && !engine_game_result(g, &res);
	     guard++) {
		int seat = engine_game_to_act(g) == 1u ? 0 : 1;
		json_t *acts = engine_game_actions(g, seat);
		engine_game_apply(
		    g, seat, json_array_get(acts, json_array_size(acts) - 1),
		    &why);
		json_decref(acts);
	}
	test_cond(name2, engine_game_result(g, &res));
	vs = engine_game_view(g, -1);
	m1 = seen(after, g, 0, discard, 1);
	test_cond(
	    name2,
	    jeq(json_object_get(player_of(vs, 0), "discarded"), "[\"mole\"]") &&
	        json_is_array(json_object_get(player_of(vs, 1), "discarded")) &&
	        json_array_size(json_object_get(vs, "hands")) == 2 &&
	        json_is_array(json_object_get(vs, "deck")) &&
	        jeq(json_object_get(vs, "hand"), "null") && jeq(m1, discard));
	json_decref(vs), json_decref(m1);
	engine_game_free(after);
	engine_game_free(g);
}

/* ---- setup ---- */

static void test_default_setup(void)
{
	const char *name = "§2 default setup: 4 cards each, 30 in the deck";
	int firsts[2] = {0, 0};
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct engine_game *g = new_game(name, NULL, seed);
		if (!g)
			return;
		const struct aa_state *s = st(g);
		int count[AA_KINDS] = {0}, total = 0;
		for (int p = 0; p < 2; p++)
			for (int i = 0; i < s->players[p].hand_size; i++)
				count[s->players[p].hand[i]]++, total++;
		for (int i = 0; i < s->deck_size; i++)
			count[s->deck[i]]++, total++;
		int inventory = 1;
		for (int k = 0; k < AA_KINDS; k++)
			inventory =
			    inventory && count[k] == (k < AA_SIDEKICK ? 6 : 1);
		test_cond(name, s->players[0].hand_size == 4 &&
		                    s->players[1].hand_size == 4 &&
		                    s->deck_size == 30 && !s->custom &&
		                    s->turn == 1 && s->phase == AA_PHASE_PLAY &&
		                    s->active == s->first_player);
		test_cond("§1 inventory 38 = 6x6 + 1 + 1",
		          total == 38 && inventory);
		firsts[s->first_player]++;
		engine_game_free(g);
	}
	test_cond("§2 the first player is drawn at random",
	          firsts[0] > 0 && firsts[1] > 0);
	struct engine_game *g = new_game(name, NULL, 77);
	if (!g)
		return;
	json_t *v = engine_game_view(g, ENGINE_SPECTATOR);
	test_cond(name,
	          jeq(json_object_get(v, "custom"), "false") &&
	              json_integer_value(json_object_get(v, "deck_size")) ==
	                  30 &&
	              jeq(json_object_get(v, "played"), "null") &&
	              jeq(json_object_get(v, "last_turn"), "null") &&
	              player_int(v, 1, "space") == 7 &&
	              player_int(v, 0, "distance_to_catch") == 7 &&
	              player_int(v, 1, "discards_left") == 4 &&
	              jeq(json_object_get(player_of(v, 0), "in_play"), "{}"));
	json_decref(v);
	engine_game_free(g);
}

static void test_setup_defaults(void)
{
	const char *name = "§2 custom setup: deck top first, rest dealt";
	struct engine_game *g =
	    new_game(name,
	             "{\"first_player\":1,\"deck\":[\"mole\",\"sidekick\"],"
	             "\"in_play\":[{\"enforcer\":1},{}]}",
	             6);
	if (!g)
		return;
	const struct aa_state *s = st(g);
	int total =
	    s->deck_size + s->players[1].hand_size + s->players[0].hand_size;
	test_cond(name, s->custom && s->players[0].hand_size == 4 &&
	                    s->players[1].hand_size == 4 && total == 10 &&
	                    s->active == 1 && s->teams[0].in_play[1] == 1);
	struct rules_why why = {{0}, {0}};
	char discard[96];
	snprintf(discard, sizeof discard,
	         "{\"type\":\"discard\",\"card\":\"%s\"}",
	         aa_card_info[s->players[1].hand[0]].id);
	test_cond(name, move(g, 1, discard, &why) == 0 &&
	                    st(g)->players[1].hand[3] == AA_MOLE);
	engine_game_free(g);
	g = new_game("§2 custom setup: hands given, deck = the rest",
	             "{\"first_player\":0,\"hands\":[[\"mole\",\"sidekick\"],"
	             "[\"enforcer\",\"enforcer\"]]}",
	             6);
	test_cond("§2 custom setup: hands given, deck = the rest",
	          g && st(g)->deck_size == 34);
	engine_game_free(g);
}

static void test_boundary_setups(void)
{
	static const char *const ok[] = {
	    "{\"progress\":[6,0]}",
	    "{\"progress\":[-100000,-99994]}",
	    "{\"discards_used\":[4,4]}",
	    "{\"in_play\":[{\"codebreaker\":2,\"daredevil\":2},"
	    "{\"codebreaker\":2,\"daredevil\":2}]}",
	    "{\"first_player\":0,\"hands\":[[\"mole\",\"sidekick\","
	    "\"enforcer\","
	    "\"enforcer\"],[\"enforcer\"]],\"deck\":[\"saboteur\","
	    "\"saboteur\"]}",
	    "{\"first_player\":0,\"hands\":[[\"mole\",\"sidekick\"],[]],"
	    "\"deck\":[]}",
	    "{}",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct engine_game *g =
		    new_game("possible setup accepted (boundaries)", ok[i], 1);
		test_cond("a custom setup sets the custom flag",
		          g && st(g)->custom);
		engine_game_free(g);
	}
	struct engine_game *g = new_game("a JSON null setup", "null", 1);
	test_cond("a JSON null setup is the normal deal", g && !st(g)->custom);
	engine_game_free(g);
}

static void test_options(void)
{
	const char *name = "options: none exist";
	struct engine_game *g = NULL;
	struct rules_why why = {{0}, {0}};
	json_t *o = js("{\"x\":1}"), *arr = js("[]"), *empty = js("{}");
	test_cond(name, engine_game_new(&aa_rules, 2, o, NULL, 1, &g, &why) ==
	                        BD_EBADOPTIONS &&
	                    streq(why.detail, "unknown option 'x'; the only "
	                                      "option is \"mode\""));
	test_cond(name, engine_game_new(&aa_rules, 2, arr, NULL, 1, &g, &why) ==
	                        BD_EBADOPTIONS &&
	                    streq(why.detail, "options must be a JSON object"));
	test_cond(name, engine_game_new(&aa_rules, 5, empty, NULL, 1, &g,
	                                &why) == BD_EBADOPTIONS);
	test_cond(
	    name,
	    engine_game_new(&aa_rules, 2, empty, NULL, 1, &g, &why) == 0 && g);
	engine_game_free(g);
	json_decref(o), json_decref(arr), json_decref(empty);
}

/* ---- catalog ---- */

static void test_catalog(void)
{
	json_t *c = aa_rules.catalog();
	test_cond(
	    "catalog lists the 8 agents",
	    jeq(json_object_get(c, "cards"),
	        "["
	        "{\"id\":\"double-agent\",\"name\":\"Double "
	        "Agent\",\"copies\":6,"
	        "\"moves\":[-1,6,-1]},"
	        "{\"id\":\"enforcer\",\"name\":\"Enforcer\",\"copies\":6,"
	        "\"moves\":[1,2,3]},"
	        "{\"id\":\"codebreaker\",\"name\":\"Codebreaker\",\"copies\":6,"
	        "\"moves\":[0,0,null]},"
	        "{\"id\":\"saboteur\",\"name\":\"Saboteur\",\"copies\":6,"
	        "\"moves\":[-1,-1,-2]},"
	        "{\"id\":\"daredevil\",\"name\":\"Daredevil\",\"copies\":6,"
	        "\"moves\":[2,3,null]},"
	        "{\"id\":\"sentinel\",\"name\":\"Sentinel\",\"copies\":6,"
	        "\"moves\":[0,2,6]},"
	        "{\"id\":\"sidekick\",\"name\":\"Sidekick\",\"copies\":1,"
	        "\"moves\":[4]},"
	        "{\"id\":\"mole\",\"name\":\"Mole\",\"copies\":1,\"moves\":[-3]"
	        "}]"));
	json_t *types = json_array(), *bm = json_array(), *keys = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(c, "actions"), i, e)
		json_array_append(types, json_object_get(e, "type"));
	json_array_foreach(json_object_get(c, "black_market"), i, e)
		json_array_append(bm, json_object_get(e, "id"));
	json_array_foreach(json_object_get(c, "setup_keys"), i, e)
		json_array_append(keys, json_object_get(e, "key"));
	test_cond("§7.2 catalog lists every action form",
	          jeq(types, "[\"discard\",\"play\",\"recruit\",\"play\","
	                     "\"play\",\"hand_over\",\"take\","
	                     "\"mind_control\",\"double_trouble\","
	                     "\"secret_recruit\",\"spycation\"]"));
	test_cond("§8.2 catalog lists the 15 black-market cards",
	          jeq(bm, "[\"distraction-device\",\"watchtower\","
	                  "\"sinister-twin\",\"supercomputer\","
	                  "\"leader-of-the-pack\",\"getaway-car\","
	                  "\"masterplan\",\"security-system\",\"outpost\","
	                  "\"smoke-screen\",\"mind-control\","
	                  "\"double-trouble\",\"surveillance-truck\","
	                  "\"secret-recruit\",\"spycation\"]"));
	test_cond("§7.1 catalog lists every setup key",
	          jeq(keys, "[\"first_player\",\"hands\",\"deck\","
	                    "\"progress\",\"in_play\",\"discards_used\","
	                    "\"bm_supply\",\"bm_deck\",\"bm_in_play\","
	                    "\"bm_discard\"]"));
	test_cond("§7 catalog lists the modes and their seats",
	          jeq(json_object_get(c, "options"),
	              "{\"mode\":{\"values\":[\"base\",\"advanced\"],"
	              "\"default\":\"base\"}}") &&
	              json_array_size(json_object_get(c, "modes")) == 2);
	json_decref(types), json_decref(bm), json_decref(keys);
	json_decref(c);
	test_cond("engine table: id, title, version, seats",
	          streq(aa_rules.id, "agent-avenue") &&
	              streq(aa_rules.title, "Agent Avenue") &&
	              aa_rules.version == 3 && aa_rules.replays_from == 1 &&
	              aa_rules.min_seats == 2 && aa_rules.max_seats == 4 &&
	              aa_rules.state_size == sizeof(struct aa_state));
}

/* ---- random games ---- */

/* Cards in the game: hands + deck + played + in play + known discards
 * (38 in a normal game). */
static int cards_in_game(const struct aa_state *s)
{
	int total = s->deck_size + (s->phase == AA_PHASE_RECRUIT ? 2 : 0);
	for (int p = 0; p < 2; p++) {
		total += s->players[p].hand_size + s->players[p].discarded_size;
		for (int k = 0; k < AA_KINDS; k++)
			total += s->teams[p].in_play[k];
	}
	return total;
}

/* rules §5 while running: viewers see their own hand only; seat 0's
 * face-down card is hidden from the others. */
static int hidden_ok(const struct engine_game *g)
{
	const struct aa_state *s = st(g);
	int ok = 1;
	for (int viewer = -1; viewer < 2; viewer++) {
		json_t *v = engine_game_view(g, viewer);
		json_t *fd =
		    json_object_get(json_object_get(v, "played"), "face_down");
		ok = ok && !json_object_get(v, "hands") &&
		     !json_object_get(v, "deck");
		for (int p = 0; p < 2; p++)
			ok = ok && (p == viewer) ==
			               (json_object_get(player_of(v, p),
			                                "discarded") != NULL);
		if (s->phase == AA_PHASE_RECRUIT)
			ok = ok && json_is_null(fd) == (viewer != s->active);
		ok = ok && (viewer >= 0
		                ? json_array_size(json_object_get(v, "hand")) ==
		                      s->players[viewer].hand_size
		                : json_is_null(json_object_get(v, "hand")));
		json_decref(v);
	}
	return ok;
}

/* Every listed action is accepted when posted back (on a copy). */
static int listed_ok(const struct engine_game *g, const json_t *acts, int seat)
{
	size_t i;
	const json_t *a;
	int ok = 1;
	json_array_foreach(acts, i, a) {
		struct engine_game *c = engine_game_clone(g);
		struct rules_why why = {{0}, {0}};
		ok = ok && engine_game_apply(c, seat, a, &why) == 0;
		engine_game_free(c);
	}
	return ok;
}

/* 1 if the action is a discard. */
static int is_discard(const json_t *a)
{
	const char *type = json_string_value(json_object_get(a, "type"));
	return type && strcmp(type, "discard") == 0;
}

struct tally {
	int bad_listing, bad_apply, bad_hiding, bad_cards, too_long;
	int bad_result;
	int reasons[6];
};

/* Plays one game to the end with random listed actions (never discards
 * when no_discards).  Records trouble in *t. */
static void random_game(struct engine_game *g, struct rng *pick,
                        int no_discards, int check_all, struct tally *t)
{
	struct rules_result res;
	int cards = cards_in_game(st(g));
	for (int step = 0; step < 500 && !engine_game_result(g, &res); step++) {
		unsigned who = engine_game_to_act(g);
		int seat = who == 1u ? 0 : 1;
		json_t *acts = engine_game_actions(g, seat);
		json_t *idle = engine_game_actions(g, 1 - seat);
		size_t n = json_array_size(acts), first = 0;
		t->bad_listing += (who != 1u && who != 2u) || n == 0 ||
		                  json_array_size(idle) != 0;
		if (check_all) {
			t->bad_apply += !listed_ok(g, acts, seat);
			t->bad_hiding += !hidden_ok(g);
		}
		while (no_discards && first < n &&
		       is_discard(json_array_get(acts, first)))
			first++;
		struct rules_why why = {{0}, {0}};
		size_t k = first + rng_below(pick, (uint32_t)(n - first));
		t->bad_apply +=
		    engine_game_apply(g, seat, json_array_get(acts, k), &why) !=
		    0;
		t->bad_cards += cards_in_game(st(g)) != cards;
		json_decref(acts);
		json_decref(idle);
	}
	int over = engine_game_result(g, &res);
	t->too_long += !over || st(g)->turn > 19;
	t->bad_result += over && res.winners != 1u && res.winners != 2u;
	for (int r = 1; over && r < 6; r++)
		t->reasons[r] +=
		    strcmp(res.reason, aa_reason_word((enum aa_reason)r)) == 0;
}

static void test_random_games(void)
{
	struct rng pick;
	struct tally t;
	memset(&t, 0, sizeof t);
	rng_seed(&pick, 2024);
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct engine_game *g =
		    new_game("random game setup", NULL, seed);
		if (!g)
			return;
		random_game(g, &pick, 0, 1, &t);
		engine_game_free(g);
	}
	printf("random games: catch %d, codebreakers %d, daredevils %d, "
	       "tie %d, out_of_cards %d\n",
	       t.reasons[1], t.reasons[2], t.reasons[3], t.reasons[4],
	       t.reasons[5]);
	test_cond("300 random games end within 19 turns", t.too_long == 0);
	test_cond("random games: exactly one winner", t.bad_result == 0);
	test_cond("random games: one seat acts, with listed actions",
	          t.bad_listing == 0);
	test_cond("random games: every listed action is accepted",
	          t.bad_apply == 0);
	test_cond("random games: views hide what §5 hides", t.bad_hiding == 0);
	test_cond("random games: cards are conserved", t.bad_cards == 0);
	test_cond("random games: catch, codebreakers, daredevils, tie occur",
	          t.reasons[1] && t.reasons[2] && t.reasons[3] && t.reasons[4]);
}

/* A short deck (26 cards set aside) makes running out of cards common. */
static void test_short_deck_games(void)
{
	struct rng pick;
	struct tally t;
	memset(&t, 0, sizeof t);
	rng_seed(&pick, 5);
	for (uint64_t seed = 500; seed < 700; seed++) {
		struct engine_game *g = new_game(
		    "random short-deck game setup",
		    "{\"deck\":[\"enforcer\",\"saboteur\",\"double-agent\","
		    "\"sentinel\"]}",
		    seed);
		if (!g)
			return;
		random_game(g, &pick, 0, 1, &t);
		engine_game_free(g);
	}
	test_cond("200 short-deck random games end with no error",
	          t.too_long == 0 && t.bad_result == 0 && t.bad_listing == 0 &&
	              t.bad_apply == 0 && t.bad_hiding == 0 &&
	              t.bad_cards == 0);
	test_cond("short-deck random games: running out of cards occurs",
	          t.reasons[AA_REASON_OUT_OF_CARDS] > 0);
}

static void test_no_discard_games(void)
{
	struct rng pick;
	struct tally t;
	memset(&t, 0, sizeof t);
	rng_seed(&pick, 99);
	for (uint64_t seed = 1000; seed < 1300; seed++) {
		struct engine_game *g =
		    new_game("random game setup", NULL, seed);
		if (!g)
			return;
		random_game(g, &pick, 1, 0, &t);
		engine_game_free(g);
	}
	test_cond("§4 Step 3 without discards, running out of cards never "
	          "decides",
	          t.reasons[AA_REASON_OUT_OF_CARDS] == 0 && t.too_long == 0 &&
	              t.bad_apply == 0);
}

static void test_determinism(void)
{
	const char *name = "same seed, same moves: same state bytes";
	int same = 1;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct engine_game *a = new_game(name, NULL, seed);
		struct engine_game *b = new_game(name, NULL, seed);
		const char *custom = "{\"hands\":[[\"mole\",\"sidekick\"],"
		                     "[\"enforcer\",\"enforcer\"]]}";
		struct engine_game *c = new_game(name, custom, seed);
		struct engine_game *d = new_game(name, custom, seed);
		if (!a || !b || !c || !d)
			return;
		same = same && memcmp(a, b, engine_game_size(&aa_rules)) == 0 &&
		       memcmp(c, d, engine_game_size(&aa_rules)) == 0;
		struct rng p1, p2;
		struct tally t;
		memset(&t, 0, sizeof t);
		rng_seed(&p1, seed);
		rng_seed(&p2, seed);
		random_game(a, &p1, 0, 0, &t);
		random_game(b, &p2, 0, 0, &t);
		same = same && a->seq == b->seq &&
		       memcmp(a->state, b->state, aa_rules.state_size) == 0;
		engine_game_free(a), engine_game_free(b);
		engine_game_free(c), engine_game_free(d);
	}
	test_cond(name, same);
	struct engine_game *x = new_game(name, NULL, 1);
	struct engine_game *y = new_game(name, NULL, 2);
	test_cond("different seeds deal differently",
	          x && y &&
	              memcmp(x->state, y->state, aa_rules.state_size) != 0);
	engine_game_free(x), engine_game_free(y);
}

int main(void)
{
	test_6_3_after_play();
	test_hiding();
	test_default_setup();
	test_setup_defaults();
	test_boundary_setups();
	test_options();
	test_catalog();
	test_determinism();
	test_random_games();
	test_short_deck_games();

	test_no_discard_games();
	return test_report("agent-avenue");
}
