/* test_quantum_cards.c: scenario tests of Quantum's 31 command cards (rules
 * §9.2, §9.4, §12, §14, §14.1; JSON vocabulary of openapi/openapi.yaml
 * QuantumAction).
 *
 * Three parts: (1) every card's effect and its limit, one function per
 * card (card_<name>); (2) every §12 case about cards, named after the case
 * (case_12_<n>_...); (3) the off-turn decisions: DANGEROUS, the §14.1
 * re-roll order, SCRAPPY after ship rolls, CLEVER, STUBBORN's off-turn
 * infamy and pick, SABOTAGE in turn order, the printings of CURIOUS and
 * STRATEGIC.
 *
 * The cases that the view and the listed actions show are data files,
 * tests/cases/quantum/cards-*.json, run by tests/unit/test_cases.c (the
 * format: tests/cases/README.md); here are the ones that read the dice
 * script's position, the listed CLEVER values or the fields an action
 * carries, play two games side by side, or loop.
 *
 * Built like test_quantum_cases.c: custom setups ("commands" gives each
 * seat's active cards) with scripted dice, actions through
 * engine_game_apply.  Scripted dice are used in the order of
 * rules §14: attacker's combat die, defender's, the re-rolls in the
 * order they are made, then the re-roll of a destroyed ship; RATIONAL
 * consumes none.  Decisions are checked through the public view
 * (view.pending, view.battle), engine_game_to_act and the listed actions,
 * so the tests do not depend on the engine's new state fields.
 *
 * Map: Alpha sector - Basic map (the 2-seat default) unless named; its
 * planets are (1,1) (1,4) (1,7) (4,1) (4,4)=8 (4,7) (7,1) (7,4) (7,7), all
 * 7s but the 8.  JSON texts use single quotes; the helpers turn every '
 * into ".  */
#include "qt_testhelp.h"
#include "testhelp.h"

/* ---- helpers ---- */

/* A game that must be accepted. */
static struct engine_game *must(int seats, const char *options,
                                const char *setup)
{
	struct engine_game *g = game(seats, options, setup, 7);
	if (!g) {
		fprintf(stderr, "setup refused: %s %s\n%s\n", last_why.rule,
		        last_why.detail, setup);
		exit(2);
	}
	return g;
}

/* A 2-seat game on the default map (Alpha sector - Basic map). */
static struct engine_game *alpha(const char *setup)
{
	return must(2, NULL, setup);
}

/* A duel on Alpha: seat 0's ship 0 (value a) at (3,0) next to seat 1's
 * ship 0 (value d) at (3,1).  Seat 0 also has a flagship at (0,0) and a
 * 4 in its scrapyard; seat 1 two 6s far away.  `commands` is the
 * "commands" value, `extra` more setup fields (dice, tracks) or "". */
static struct engine_game *duel(const char *options, const char *commands,
                                int a, int d, const char *extra)
{
	char buf[2048];
	snprintf(buf, sizeof buf,
	         "{'commands':%s,'ships':[[{'value':%d,'at':[3,0]},{'value':"
	         "2,'at':[0,0]},{'value':4,'at':'scrapyard'}],[{'value':%d,"
	         "'at':[3,1]},{'value':6,'at':[8,6]},{'value':6,'at':[6,"
	         "8]}]]%s%s}",
	         commands, a, d, extra[0] ? "," : "", extra);
	return must(2, options, buf);
}

/* The duel's attack: seat 0's ship 0 from its own square. */
#define ATTACK "{'type':'attack','ship':0,'from':[3,0],'target':[3,1]}"

/* Seat 1's fleet parked in the far corner of Alpha sector. */
#define FAR1                                                                   \
	"[{'value':6,'at':[8,8]},{'value':6,'at':[8,6]},{'value':6,'at':[6,"   \
	"8]}]"

/* Refused because the seat may not act now (another seat decides). */
#define NOTTURN(g, seat, ...) (act((g), (seat), __VA_ARGS__) == BD_ENOTTURN)

static int in_scrapyard(struct engine_game *g, int seat, int i)
{
	return ship(g, seat, i)->where == QT_SCRAPYARD;
}

static json_t *view_of(struct engine_game *g)
{
	return engine_game_view(g, ENGINE_SPECTATOR);
}

/* Number of pending decisions in the view. */
static int npending(struct engine_game *g)
{
	json_t *v = view_of(g);
	int n = (int)json_array_size(json_object_get(v, "pending"));
	json_decref(v);
	return n;
}

/* 1 if view.pending[k] is {"kind":kind,"seat":seat}. */
static int pending(struct engine_game *g, int k, const char *kind, int seat)
{
	json_t *v = view_of(g);
	json_t *p = json_array_get(json_object_get(v, "pending"), (size_t)k);
	const char *kd = json_string_value(json_object_get(p, "kind"));
	int ok = p && kd && strcmp(kd, kind) == 0 &&
	         json_is_integer(json_object_get(p, "seat")) &&
	         json_integer_value(json_object_get(p, "seat")) == seat;
	json_decref(v);
	return ok;
}

/* Number of listed actions of seat. */
static int nlisted(struct engine_game *g, int seat)
{
	json_t *a = engine_game_actions(g, seat);
	int n = (int)json_array_size(a);
	json_decref(a);
	return n;
}

/* 1 if the first pending decision is `kind` of `seat`, only `seat` is to
 * act and every other seat has no listed action (rules §14.1: decisions
 * are listed only to the deciding seat). */
static int asks(struct engine_game *g, const char *kind, int seat)
{
	if (!pending(g, 0, kind, seat) || engine_game_to_act(g) != 1u << seat ||
	    nlisted(g, seat) == 0)
		return 0;
	for (int p = 0; p < g->seats; p++)
		if (p != seat && nlisted(g, p) != 0)
			return 0;
	return 1;
}

/* view.battle's integer field `key`: its value, 0 when null, -1 when
 * there is no battle (view.battle null) or no such field. */
static int battle(struct engine_game *g, const char *key)
{
	json_t *v = view_of(g);
	json_t *b = json_object_get(v, "battle");
	json_t *f = json_is_object(b) ? json_object_get(b, key) : NULL;
	int r = json_is_integer(f) ? (int)json_integer_value(f)
	        : json_is_null(f)  ? 0
	                           : -1;
	json_decref(v);
	return r;
}

/* 1 if the view shows no battle in progress (view.battle is null). */
static int no_battle(struct engine_game *g)
{
	json_t *v = view_of(g);
	int r = json_is_null(json_object_get(v, "battle"));
	json_decref(v);
	return r;
}

/* 1 if view.options[name] is the string value. */
static int option_is(struct engine_game *g, const char *name, const char *value)
{
	json_t *v = view_of(g);
	const char *s = json_string_value(
	    json_object_get(json_object_get(v, "options"), name));
	int r = s && strcmp(s, value) == 0;
	json_decref(v);
	return r;
}

/* Listed actions of seat that carry the field `key` (e.g. "curious"). */
static int count_key(struct engine_game *g, int seat, const char *key)
{
	json_t *all = engine_game_actions(g, seat);
	size_t i;
	json_t *a;
	int n = 0;
	json_array_foreach(all, i, a)
		n += json_object_get(a, key) != NULL;
	json_decref(all);
	return n;
}

/* Bit v set for every listed {"type":"clever","ship":i,"value":v}. */
static unsigned clever_values(struct engine_game *g, int seat, int i)
{
	json_t *all = engine_game_actions(g, seat);
	size_t k;
	json_t *a;
	unsigned m = 0;
	json_array_foreach(all, k, a) {
		const char *t = json_string_value(json_object_get(a, "type"));
		if (t && strcmp(t, "clever") == 0 &&
		    json_integer_value(json_object_get(a, "ship")) == i)
			m |= 1u
			     << json_integer_value(json_object_get(a, "value"));
	}
	json_decref(all);
	return m;
}

#define V(x) (1u << (x))
#define ALL6 (V(1) | V(2) | V(3) | V(4) | V(5) | V(6))

/* The ship named by the first listed clever action of seat, or -1. */
static int clever_ship(struct engine_game *g, int seat)
{
	json_t *all = engine_game_actions(g, seat);
	size_t k;
	json_t *a;
	int s = -1;
	json_array_foreach(all, k, a) {
		const char *t = json_string_value(json_object_get(a, "type"));
		if (s < 0 && t && strcmp(t, "clever") == 0)
			s = (int)json_integer_value(json_object_get(a, "ship"));
	}
	json_decref(all);
	return s;
}

static int holds(struct engine_game *g, int seat, const char *card)
{
	int c = qt_card_find(card);
	for (int i = 0; i < QT_MAX_HELD; i++)
		if (st(g)->held[seat][i] == c)
			return 1;
	return 0;
}

/* ==== part 1: every card, its effect and its limit (rules §9.2) ==== */

/* #3 BRILLIANT: +2 research at the start of the holder's turn, cap 6. */
static void card_brilliant(void)
{
	struct engine_game *g =
	    alpha("{'commands':[[],['brilliant']],'research':[1,3],'ships':[["
	          "{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},{'value':4,"
	          "'at':'scrapyard'}]," FAR1 "]}");
	struct engine_game *h =
	    alpha("{'commands':[['brilliant'],[]],'research':[2,1],'ships':[["
	          "{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},{'value':4,"
	          "'at':'scrapyard'}]," FAR1 "]}");
	test_cond("BRILLIANT a custom setup starts after the turn start",
	          st(h)->research[0] == 2);
	engine_game_free(h);
	test_cond("BRILLIANT nothing during the other seat's turn",
	          st(g)->research[1] == 3 && st(g)->research[0] == 1);
	test_cond("BRILLIANT +2 at seat 1's turn start",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->active == 1 &&
	              st(g)->research[1] == 5 && st(g)->research[0] == 1);
	test_cond("BRILLIANT research 5: no card",
	          OK(g, 1, "{'type':'end_turn'}") && st(g)->active == 0 &&
	              st(g)->research[1] == 5);
	test_cond("BRILLIANT limit: capped at 6",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->active == 1 &&
	              st(g)->research[1] == 6);
	test_cond("BRILLIANT research 6: a card at Phase 2",
	          OK(g, 1, "{'type':'end_turn'}") &&
	              st(g)->phase == QT_PH_CARDS && st(g)->picks[1] == 1 &&
	              st(g)->research[1] == 1);
	engine_game_free(g);
}

/* #5 CLEVER: every ship roll of the holder is a choice: a reconfigure
 * lists the 5 other values, a scout 1..5, a scrapyard ship too; never
 * re-rolled by SCRAPPY (§14.1).  The off-turn half is in part 3. */
static void card_clever(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['clever'],[]],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':6,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'dice':[3,3,3,3,3,3]}");
	test_cond("CLEVER reconfigure: the holder chooses",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              asks(g, "clever", 0) && st(g)->actions_left == 2);
	test_cond("CLEVER reconfigure lists the 5 other values",
	          clever_values(g, 0, 0) == (V(1) | V(2) | V(4) | V(5) | V(6)));
	test_cond("CLEVER limit: the old number is refused",
	          ILLEGAL(g, 0, "{'type':'clever','ship':0,'value':3}"));
	test_cond("CLEVER reconfigure to 6",
	          OK(g, 0, "{'type':'clever','ship':0,'value':6}") &&
	              ship(g, 0, 0)->value == 6 && npending(g) == 0);
	test_cond(
	    "CLEVER scout: a choice of 1..5",
	    OK(g, 0, "{'type':'scout','ship':1}") && asks(g, "clever", 0) &&
	        clever_values(g, 0, 1) == (V(1) | V(2) | V(3) | V(4) | V(5)));
	test_cond("CLEVER limit: a scout may not choose 6",
	          ILLEGAL(g, 0, "{'type':'clever','ship':1,'value':6}"));
	test_cond("CLEVER scout to 1",
	          OK(g, 0, "{'type':'clever','ship':1,'value':1}") &&
	              ship(g, 0, 1)->value == 1 && ship(g, 0, 1)->ability_used);
	test_cond("CLEVER reconfigure in the scrapyard",
	          OK(g, 0, "{'type':'reconfigure','ship':2}") &&
	              asks(g, "clever", 0) &&
	              clever_values(g, 0, 2) ==
	                  (V(1) | V(2) | V(3) | V(5) | V(6)));
	test_cond("CLEVER scrapyard ship to 2",
	          OK(g, 0, "{'type':'clever','ship':2,'value':2}") &&
	              ship(g, 0, 2)->value == 2 && in_scrapyard(g, 0, 2) &&
	              st(g)->actions_left == 1);
	engine_game_free(g);

	/* §14.1: a CLEVER choice is never re-rolled by SCRAPPY */
	g = alpha("{'commands':[['clever','scrappy'],[]],'ships':[[{'value':3,"
	          "'at':[3,0]},{'value':6,'at':[0,0]},{'value':4,'at':"
	          "'scrapyard'}]," FAR1 "],'dice':[1,1,1]}");
	test_cond("CLEVER+SCRAPPY reconfigure: CLEVER asks",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              asks(g, "clever", 0));
	test_cond("CLEVER+SCRAPPY limit: no SCRAPPY after the choice",
	          OK(g, 0, "{'type':'clever','ship':0,'value':5}") &&
	              ship(g, 0, 0)->value == 5 && npending(g) == 0 &&
	              count_listed(g, 0, "scrappy") == 0);
	engine_game_free(g);

	/* RESOURCEFUL and EXPANSION rolls: any 1..6 */
	g = alpha("{'commands':[['clever','resourceful'],[]],'research':[6,1],"
	          "'cubes':[{'seat':0,'planet':[1,1]}],'ships':[[{'value':3,"
	          "'at':[3,0]},{'value':6,'at':[0,0]},{'value':4,'at':"
	          "'scrapyard'}]," FAR1
	          "],'row':{'gambit':['expansion','aggression','sabotage']},"
	          "'dice':[1,1,1]}");
	test_cond("CLEVER RESOURCEFUL: a choice of 1..6 (the old 3 too)",
	          OK(g, 0, "{'type':'resourceful','ship':0}") &&
	              asks(g, "clever", 0) && clever_values(g, 0, 0) == ALL6 &&
	              OK(g, 0, "{'type':'clever','ship':0,'value':3}") &&
	              ship(g, 0, 0)->value == 3 && in_scrapyard(g, 0, 0) &&
	              st(g)->actions_left == 4);
	test_cond("CLEVER EXPANSION: a choice of 1..6, then the placement",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'expansion'}") &&
	              asks(g, "clever", 0) && clever_values(g, 0, 3) == ALL6 &&
	              OK(g, 0, "{'type':'clever','ship':3,'value':6}") &&
	              ship(g, 0, 3)->value == 6 && asks(g, "place_ship", 0) &&
	              g->rng.script_pos == 0);
	engine_game_free(g);

	/* limit: not combat dice */
	g = duel(NULL, "[['clever'],[]]", 3, 2, "'dice':[5,1]");
	test_cond("CLEVER limit: combat dice are rolled, not chosen",
	          OK(g, 0, ATTACK) && npending(g) == 0 &&
	              ship_on(g, 1, 0, 3, 1) && ship_on(g, 0, 0, 3, 0));
	engine_game_free(g);
}

/* #8 CUNNING: a second use of a die's current ability, once per turn,
 * only when the ability was already used. */
static void card_cunning(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['cunning'],[]],'ships':[[{'value':1,'at':[3,1]},"
	    "{'value':6,'at':[6,6],'ability_used':true},{'value':6,'at':[0,0]"
	    "}],[{'value':5,'at':[3,2]},{'value':5,'at':[2,1]},{'value':6,"
	    "'at':[8,8]}]],'dice':[1,6,3,1,6,2,4]}");
	test_cond(
	    "CUNNING limit: not while the ability is unused",
	    listed(g, 0, "{'type':'scout','ship':2}") &&
	        !listed(g, 0, "{'type':'scout','ship':2,'cunning':true}") &&
	        ILLEGAL(g, 0, "{'type':'scout','ship':2,'cunning':true}"));
	test_cond("CUNNING strike 1 (2 against 11)",
	          OK(g, 0, "{'type':'strike','ship':0,'target':[3,2]}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 3 &&
	              OK(g, 0, "{'type':'stay'}"));
	test_cond(
	    "CUNNING a plain second strike is refused",
	    !listed(g, 0, "{'type':'strike','ship':0,'target':[2,1]}") &&
	        ILLEGAL(g, 0, "{'type':'strike','ship':0,'target':[2,1]}"));
	test_cond("CUNNING the second strike is listed",
	          listed(g, 0,
	                 "{'type':'strike','ship':0,'target':[2,1],'cunning':"
	                 "true}"));
	test_cond("CUNNING second strike",
	          OK(g, 0,
	             "{'type':'strike','ship':0,'target':[2,1],'cunning':"
	             "true}") &&
	              in_scrapyard(g, 1, 1) && ship(g, 1, 1)->value == 2 &&
	              OK(g, 0, "{'type':'stay'}") && st(g)->actions_left == 3);
	test_cond(
	    "CUNNING limit: once per turn",
	    count_key(g, 0, "cunning") == 0 &&
	        ILLEGAL(g, 0, "{'type':'scout','ship':1,'cunning':true}") &&
	        ship(g, 0, 1)->value == 6);
	engine_game_free(g);

	/* on a move: only when a diagonal MANEUVER step is needed; never a
	 * second move */
	g = alpha("{'commands':[['cunning'],[]],'ships':[[{'value':5,'at':[2,"
	          "2],'ability_used':true},{'value':6,'at':[2,3]},{'value':1,"
	          "'at':[0,0]}],[{'value':6,'at':[3,2]},{'value':6,'at':[8,6]},"
	          "{'value':6,'at':[6,8]}]]}");
	test_cond("CUNNING (3,3) needs MANEUVER, used: plain move refused",
	          !listed(g, 0, "{'type':'move','ship':0,'to':[3,3]}") &&
	              ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,3]}"));
	test_cond("CUNNING limit: no cunning on an orthogonal move",
	          listed(g, 0, "{'type':'move','ship':0,'to':[2,1]}") &&
	              !listed(g, 0,
	                      "{'type':'move','ship':0,'to':[2,1],'cunning':"
	                      "true}"));
	test_cond(
	    "CUNNING the MANEUVER move",
	    listed(g, 0,
	           "{'type':'move','ship':0,'to':[3,3],'cunning':true}") &&
	        OK(g, 0,
	           "{'type':'move','ship':0,'to':[3,3],'cunning':true}") &&
	        ship_on(g, 0, 0, 3, 3) && st(g)->actions_left == 2);
	test_cond("CUNNING limit: no second move",
	          count_ship(g, 0, "move", 0) == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':0,'to':[3,4],'cunning':"
	                      "true}"));
	engine_game_free(g);
}

/* #9 CURIOUS: see case_12_54_curious_revised and part 3 (the three
 * printings). */

/* #20 RATIONAL: the holder's combat rolls are 3; no die is rolled. */
static void card_rational(void)
{
	/* attacker 2+3 = 5 against 3+4 = 7; the 5 is the destroyed ship */
	struct engine_game *g =
	    duel(NULL, "[['rational'],[]]", 2, 3, "'dice':[4,5]");
	test_cond("RATIONAL attacker: 3, and only the defender's die used",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship(g, 1, 0)->value == 5 && g->rng.script_pos == 2);
	engine_game_free(g);
	/* attacker 3+3 = 6 against 2+3 = 5 */
	g = duel(NULL, "[[],['rational']]", 3, 2, "'dice':[3,6]");
	test_cond("RATIONAL defender: 3 (a rolled 6 would lose)",
	          OK(g, 0, ATTACK) && ship_on(g, 1, 0, 3, 1) &&
	              npending(g) == 0 && g->rng.script_pos == 1);
	engine_game_free(g);
	/* limit: a 3 is not always good: 2+3 = 5 against 3+1 = 4 */
	g = duel(NULL, "[['rational'],[]]", 2, 3, "'dice':[1,5]");
	test_cond("RATIONAL limit: the fixed 3 can lose",
	          OK(g, 0, ATTACK) && ship_on(g, 1, 0, 3, 1) &&
	              g->rng.script_pos == 1);
	engine_game_free(g);
}

/* #23 RESOURCEFUL: once per turn, free (also with 0 actions): a map ship
 * to the scrapyard, re-rolled, +1 action; flags kept.  §12.3 below. */
static void card_resourceful(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['resourceful'],[]],'actions_left':0,'dominance':[3,"
	    "1],'ships':[[{'value':3,'at':[3,0],'moved':true,'ability_used':"
	    "true},{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'dice':[3]}");
	test_cond("RESOURCEFUL listed with 0 actions, map ships only",
	          count_listed(g, 0, "resourceful") == 2 &&
	              listed(g, 0, "{'type':'resourceful','ship':0}") &&
	              ILLEGAL(g, 0, "{'type':'resourceful','ship':2}"));
	test_cond("RESOURCEFUL to the scrapyard, may re-roll the same 3",
	          OK(g, 0, "{'type':'resourceful','ship':0}") &&
	              in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 3 &&
	              g->rng.script_pos == 1);
	test_cond("RESOURCEFUL +1 action, no dominance change, flags kept",
	          st(g)->actions_left == 1 && st(g)->dominance[0] == 3 &&
	              ship(g, 0, 0)->moved && ship(g, 0, 0)->ability_used);
	test_cond("RESOURCEFUL limit: once per turn",
	          count_listed(g, 0, "resourceful") == 0 &&
	              ILLEGAL(g, 0, "{'type':'resourceful','ship':1}") &&
	              ship_on(g, 0, 1, 0, 0));
	engine_game_free(g);
}

/* #25 SCRAPPY on ship rolls (own turn, Phase 2 included); the combat
 * half is in part 3. */
static void card_scrappy(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['scrappy'],[]],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':6,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'dice':[5,3,4,2,6,6,1]}");
	test_cond("SCRAPPY reconfigure 3 -> 5, then asked",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              ship(g, 0, 0)->value == 5 && asks(g, "scrappy", 0) &&
	              listed(g, 0, "{'type':'scrappy','reroll':true}") &&
	              listed(g, 0, "{'type':'scrappy','reroll':false}"));
	test_cond("SCRAPPY the re-roll still differs from the old 3: 4",
	          OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              ship(g, 0, 0)->value == 4 && g->rng.script_pos == 3 &&
	              st(g)->actions_left == 2 && npending(g) == 0);
	test_cond("SCRAPPY scout 6 -> 2, then asked",
	          OK(g, 0, "{'type':'scout','ship':1}") &&
	              ship(g, 0, 1)->value == 2 && asks(g, "scrappy", 0));
	test_cond("SCRAPPY the scout's re-roll skips 6s: 1",
	          OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              ship(g, 0, 1)->value == 1 && g->rng.script_pos == 7);
	engine_game_free(g);

	g = alpha(
	    "{'commands':[['scrappy'],[]],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':6,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'dice':[5,1]}");
	test_cond("SCRAPPY declined: the 5 stays",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              OK(g, 0, "{'type':'scrappy','reroll':false}") &&
	              ship(g, 0, 0)->value == 5 && g->rng.script_pos == 1 &&
	              npending(g) == 0);
	test_cond("SCRAPPY limit: one re-roll per ship roll",
	          count_listed(g, 0, "scrappy") == 0 &&
	              ILLEGAL(g, 0, "{'type':'scrappy','reroll':true}"));
	engine_game_free(g);

	/* Phase 2 of the holder's own turn: the EXPANSION roll */
	g = alpha("{'commands':[['scrappy'],[]],'research':[6,1],'cubes':[{"
	          "'seat':0,'planet':[1,1]}],'ships':[[{'value':3,'at':[3,0]},"
	          "{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	          "],'row':{'gambit':['expansion','aggression','sabotage']},"
	          "'dice':[2,5]}");
	test_cond("SCRAPPY Phase 2: the expansion ship's roll is asked",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'expansion'}") &&
	              ship(g, 0, 3)->value == 2 && asks(g, "scrappy", 0));
	test_cond("SCRAPPY Phase 2 re-roll: 5, then the placement",
	          OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              ship(g, 0, 3)->value == 5 && asks(g, "place_ship", 0));
	engine_game_free(g);

	/* REORGANIZATION (§14.1): all chosen dice are rolled first, then
	 * SCRAPPY is asked in ascending ship number.  Reading: both SCRAPPY
	 * questions come before the placements. */
	g = alpha("{'commands':[['scrappy'],[]],'research':[6,1],'cubes':[{"
	          "'seat':0,'planet':[1,1]}],'ships':[[{'value':3,'at':[0,1]},"
	          "{'value':2,'at':[5,5]},{'value':4,'at':'scrapyard'}]," FAR1
	          "],'row':{'gambit':['reorganization','aggression','sabotage']"
	          "},'dice':[4,5,1]}");
	test_cond(
	    "SCRAPPY REORGANIZATION: both rolled, then asked",
	    OK(g, 0, "{'type':'end_turn'}") &&
	        OK(g, 0, "{'type':'take_card','card':'reorganization'}") &&
	        OK(g, 0, "{'type':'reorganize','ships':[0,2]}") &&
	        ship(g, 0, 0)->value == 4 && ship(g, 0, 2)->value == 5 &&
	        asks(g, "scrappy", 0) && pending(g, 1, "scrappy", 0));
	test_cond("SCRAPPY REORGANIZATION: ship 0 first (4 -> 1)",
	          OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              ship(g, 0, 0)->value == 1 && ship(g, 0, 2)->value == 5 &&
	              asks(g, "scrappy", 0));
	test_cond("SCRAPPY REORGANIZATION: ship 2 kept, then placements",
	          OK(g, 0, "{'type':'scrappy','reroll':false}") &&
	              ship(g, 0, 2)->value == 5 && asks(g, "place_ship", 0) &&
	              OK(g, 0, "{'type':'place_ship','ship':0,'to':[0,1]}") &&
	              OK(g, 0, "{'type':'place_ship','ship':2,'to':[1,0]}") &&
	              npending(g) == 0 && g->rng.script_pos == 3);
	engine_game_free(g);

	/* the attacker's ship destroyed by DANGEROUS on its own turn: its
	 * SCRAPPY is asked; the defender's CLEVER chooses (the dice are all
	 * 4s, so the order of the two rolls does not matter) */
	g = duel(NULL, "[['scrappy'],['dangerous','clever']]", 3, 2,
	         "'dice':[4,4,4]");
	test_cond("SCRAPPY DANGEROUS: the attacker's ship roll is asked",
	          OK(g, 0, ATTACK) &&
	              OK(g, 1, "{'type':'dangerous','destroy':true}") &&
	              asks(g, "scrappy", 0) && pending(g, 1, "clever", 1) &&
	              OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 4);
	test_cond("SCRAPPY DANGEROUS: then the defender's CLEVER, 1..6",
	          asks(g, "clever", 1) && clever_values(g, 1, 0) == ALL6 &&
	              OK(g, 1, "{'type':'clever','ship':0,'value':2}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 2 &&
	              npending(g) == 0 && g->rng.script_pos == 2);
	engine_game_free(g);

	/* limit: not on another player's turn (the destroyed ship's roll) */
	g = duel(NULL, "[[],['scrappy']]", 3, 2, "'dice':[1,5,3]");
	test_cond("SCRAPPY limit: the defender is never asked",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship(g, 1, 0)->value == 3 && asks(g, "advance", 0) &&
	              npending(g) == 1);
	engine_game_free(g);
}

/* #28 STUBBORN: the defender wins ties and destroys a beaten attacker
 * (+1 for it, -1 for the attacker: §14).  §12.26, §12.40, §12.61 below. */
static void card_stubborn(void)
{
	/* 3+4 = 7 against 2+1 = 3: the defender wins and destroys */
	struct engine_game *g = duel(NULL, "[[],['stubborn']]", 3, 2,
	                             "'dominance':[3,2],'dice':[4,1,5]");
	test_cond("STUBBORN a beaten attacker is destroyed",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 0, 0) &&
	              ship(g, 0, 0)->value == 5 && ship_on(g, 1, 0, 3, 1));
	test_cond("STUBBORN defender +1, attacker -1, no advance",
	          st(g)->dominance[1] == 3 && st(g)->dominance[0] == 2 &&
	              npending(g) == 0 && engine_game_to_act(g) == 1u &&
	              st(g)->actions_left == 2);
	engine_game_free(g);
	/* 3+3 = 6 against 2+5 = 7 */
	g = duel(NULL, "[[],['stubborn']]", 3, 2,
	         "'dominance':[3,2],'dice':[3,5,2]");
	test_cond("STUBBORN limit: a higher defender total still loses",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship(g, 1, 0)->value == 2 && st(g)->dominance[0] == 4 &&
	              st(g)->dominance[1] == 1 && asks(g, "advance", 0));
	engine_game_free(g);
	g = duel(NULL, "[['stubborn'],[]]", 3, 2, "'dice':[3,4,5]");
	test_cond("STUBBORN limit: an attacker's STUBBORN does nothing",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship_on(g, 0, 0, 3, 0));
	engine_game_free(g);
	g = duel(NULL, "[['righteous'],['stubborn']]", 3, 2,
	         "'dominance':[3,2],'dice':[3,4,5]");
	test_cond("STUBBORN a RIGHTEOUS attacker keeps its dominance",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 0, 0) &&
	              st(g)->dominance[0] == 3 && st(g)->dominance[1] == 3);
	engine_game_free(g);
	g = duel(NULL, "[[],['stubborn','ravenous']]", 3, 2,
	         "'dominance':[3,2],'dice':[3,4,5]");
	test_cond("STUBBORN with RAVENOUS: the defender +2",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 0, 0) &&
	              st(g)->dominance[1] == 4 && st(g)->dominance[0] == 2);
	engine_game_free(g);
	g = duel(NULL, "[['ravenous'],['stubborn']]", 3, 2,
	         "'dominance':[3,2],'dice':[3,4,5]");
	test_cond("STUBBORN a RAVENOUS attacker loses 2",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 0, 0) &&
	              st(g)->dominance[0] == 1 && st(g)->dominance[1] == 3);
	engine_game_free(g);
	/* §14.1: the attacker's own CLEVER / SCRAPPY apply to the re-roll of
	 * its destroyed ship */
	g = duel(NULL, "[['clever'],['stubborn']]", 3, 2, "'dice':[3,4]");
	test_cond("STUBBORN the attacker's CLEVER chooses its ship's number",
	          OK(g, 0, ATTACK) && asks(g, "clever", 0) &&
	              clever_values(g, 0, 0) == ALL6 &&
	              OK(g, 0, "{'type':'clever','ship':0,'value':1}") &&
	              in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 1 &&
	              npending(g) == 0);
	engine_game_free(g);
	g = duel(NULL, "[['scrappy'],['stubborn']]", 3, 2, "'dice':[3,4,5,2]");
	test_cond("STUBBORN the attacker's SCRAPPY: combat die first",
	          OK(g, 0, ATTACK) && asks(g, "scrappy", 0) &&
	              OK(g, 0, "{'type':'scrappy','reroll':false}"));
	test_cond("STUBBORN … then its destroyed ship's roll",
	          in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 5 &&
	              asks(g, "scrappy", 0) &&
	              OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              ship(g, 0, 0)->value == 2 && npending(g) == 0);
	engine_game_free(g);
}

/* ==== part 2: the §12 cases about cards ==== */

/* §12.25: STRATEGIC attacker, a friend next to the defender's square only:
 * no -2 with the revised card, -2 with the first printing. */
static void case_12_25_strategic_printings(void)
{
	/* attacker 2 at (3,3), friend at (2,4) (next to (3,4), diagonal to
	 * (3,3)); 2+3 = 5 (or 3) against 1+3 = 4 */
	const char *setup =
	    "{'commands':[['strategic'],[]],'ships':[[{'value':2,'at':[3,3]},"
	    "{'value':3,'at':[2,4]},{'value':4,'at':'scrapyard'}],[{'value':1,"
	    "'at':[3,4]},{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],"
	    "'dice':[3,3,5]}";
	struct engine_game *g = must(2, NULL, setup);
	test_cond("§12.25 revised is the default",
	          option_is(g, "strategic", "revised"));
	test_cond("§12.25 revised: no -2, 5 against 4 repelled",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,3],'target':[3,"
	             "4]}") &&
	              ship_on(g, 1, 0, 3, 4) && ship_on(g, 0, 0, 3, 3));
	engine_game_free(g);
	g = must(2, "{'strategic':'revised'}", setup);
	test_cond("§12.25 revised named: the same",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,3],'target':[3,"
	             "4]}") &&
	              ship_on(g, 1, 0, 3, 4));
	engine_game_free(g);
	g = must(2, "{'strategic':'first-printing'}", setup);
	test_cond("§12.25 first printing shown in the view",
	          option_is(g, "strategic", "first-printing"));
	test_cond("§12.25 first printing: the defender's square counts, won",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,3],'target':[3,"
	             "4]}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 5);
	engine_game_free(g);
	g = game(2, "{'strategic':'second'}", setup, 7);
	test_cond("§12.25 an unknown printing is refused", g == NULL);
	engine_game_free(g);
}

/* §12.26: STUBBORN defender, totals equal: the defender wins, destroys
 * the attacker and gains 1 (the attacker loses 1, §14). */
static void case_12_26_stubborn_tie(void)
{
	/* 3+3 = 6 against 2+4 = 6 */
	struct engine_game *g = duel(NULL, "[[],['stubborn']]", 3, 2,
	                             "'dominance':[3,2],'dice':[3,4,5]");
	test_cond("§12.26 attack", OK(g, 0, ATTACK));
	test_cond("§12.26 the attacker is re-rolled into its scrapyard",
	          in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 5 &&
	              g->rng.script_pos == 3);
	test_cond("§12.26 the defender stays, +1; the attacker -1",
	          ship_on(g, 1, 0, 3, 1) && ship(g, 1, 0)->value == 2 &&
	              st(g)->dominance[1] == 3 && st(g)->dominance[0] == 2);
	test_cond("§12.26 no advance/stay; the action is spent",
	          npending(g) == 0 && count_listed(g, 0, "advance") == 0 &&
	              st(g)->actions_left == 2 && engine_game_to_act(g) == 1u);
	engine_game_free(g);
}

/* §12.27: DANGEROUS: asked of the defender before any roll; both ships
 * destroyed (attacker first), no dominance change, the attacker's
 * WARLIKE/PLUNDERING do not fire; the action is spent and it counts as an
 * attack for CURIOUS. */
static void case_12_27_dangerous(void)
{
	struct engine_game *g =
	    duel(NULL, "[['warlike','plundering','curious'],['dangerous']]", 3,
	         2, "'dominance':[3,3],'research':[2,1],'dice':[4,5]");
	test_cond("§12.27 attack: the defender decides first",
	          OK(g, 0, ATTACK) && asks(g, "dangerous", 1) &&
	              listed(g, 1, "{'type':'dangerous','destroy':true}") &&
	              listed(g, 1, "{'type':'dangerous','destroy':false}") &&
	              nlisted(g, 1) == 2);
	test_cond("§12.27 before any roll: the battle shows no rolls",
	          battle(g, "attacker") == 0 && battle(g, "defender") == 1 &&
	              battle(g, "attack_roll") == 0 &&
	              battle(g, "defense_roll") == 0 && g->rng.script_pos == 0);
	test_cond("§12.27 the attacker stands on its launch square; action "
	          "spent",
	          ship_on(g, 0, 0, 3, 0) && st(g)->actions_left == 2);
	test_cond("§12.27 the attacker cannot answer",
	          NOTTURN(g, 0, "{'type':'dangerous','destroy':true}"));
	test_cond("§12.27 destroy both",
	          OK(g, 1, "{'type':'dangerous','destroy':true}"));
	test_cond("§12.27 attacker's ship re-rolled first (4), then the "
	          "defender's (5)",
	          in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 4 &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 5 &&
	              g->rng.script_pos == 2);
	test_cond("§12.27 no dominance change, no WARLIKE, no PLUNDERING",
	          st(g)->dominance[0] == 3 && st(g)->dominance[1] == 3 &&
	              st(g)->actions_left == 2 && st(g)->research[0] == 2);
	test_cond("§12.27 nothing pending, seat 0 plays on",
	          npending(g) == 0 && no_battle(g) &&
	              engine_game_to_act(g) == 1u);
	test_cond("§12.27 it was an attack: no CURIOUS free move now",
	          count_key(g, 0, "curious") == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':1,'to':[0,2],'curious':"
	                      "true}"));
	engine_game_free(g);

	/* declined: an ordinary battle; 3+1 = 4 against 2+6 = 8 */
	g = duel(NULL, "[['warlike','plundering'],['dangerous']]", 3, 2,
	         "'dominance':[3,3],'research':[2,1],'dice':[1,6,4]");
	test_cond("§12.27 declined: the rolls follow",
	          OK(g, 0, ATTACK) &&
	              OK(g, 1, "{'type':'dangerous','destroy':false}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 4 &&
	              ship_on(g, 0, 0, 3, 0));
	test_cond("§12.27 declined: a normal kill (+1/-1, WARLIKE, PLUNDERING)",
	          st(g)->dominance[0] == 4 && st(g)->dominance[1] == 2 &&
	              st(g)->actions_left == 3 && st(g)->research[0] == 5 &&
	              asks(g, "advance", 0));
	engine_game_free(g);
}

/* §12.28: CRUEL and RELENTLESS in one battle: after both first rolls, the
 * attacker decides first, then the defender; each once; the new roll is
 * kept. */
static void case_12_28_cruel_and_relentless(void)
{
	/* 3+2 = 5 against 2+4 = 6; CRUEL: 2+1 = 3; RELENTLESS: 2+6 = 8 */
	struct engine_game *g = duel(NULL, "[['cruel'],['relentless']]", 3, 2,
	                             "'dice':[2,4,1,6,3]");
	test_cond("§12.28 attack: the attacker's CRUEL first",
	          OK(g, 0, ATTACK) && asks(g, "cruel", 0) &&
	              battle(g, "attack_roll") == 2 &&
	              battle(g, "defense_roll") == 4);
	test_cond("§12.28 CRUEL: the defender's die is now 1",
	          OK(g, 0, "{'type':'cruel','reroll':true}") &&
	              battle(g, "defense_roll") == 1 &&
	              battle(g, "attack_roll") == 2);
	test_cond("§12.28 then the defender's RELENTLESS",
	          asks(g, "relentless", 1));
	test_cond("§12.28 RELENTLESS: 6, the attacker wins 5 against 8",
	          OK(g, 1, "{'type':'relentless','reroll':true}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 3 &&
	              g->rng.script_pos == 5);
	test_cond("§12.28 each once: only advance/stay is left",
	          asks(g, "advance", 0) && npending(g) == 1);
	engine_game_free(g);
}

/* §12.29: a RATIONAL 3 cannot be CRUEL-re-rolled (never asked);
 * FEROCIOUS still applies to it. */
static void case_12_29_rational(void)
{
	/* attacker 3+2 = 5, defender 2+3-1 = 4: repelled; a rolled 6 would
	 * make 7 and lose */
	struct engine_game *g =
	    duel(NULL, "[['cruel'],['rational','ferocious']]", 3, 2,
	         "'dice':[2,6,6]");
	test_cond("§12.29 attack: CRUEL is not asked against a RATIONAL 3",
	          OK(g, 0, ATTACK) && npending(g) == 0 &&
	              count_listed(g, 0, "cruel") == 0);
	test_cond("§12.29 FEROCIOUS on the 3: 4 against 5, repelled",
	          ship_on(g, 1, 0, 3, 1) && ship_on(g, 0, 0, 3, 0) &&
	              g->rng.script_pos == 1);
	engine_game_free(g);
	/* attacker RATIONAL 3+3 = 6, defender CRUEL 2+4 = 6: tie, won */
	g = duel(NULL, "[['rational'],['cruel']]", 3, 2, "'dice':[4,6]");
	test_cond("§12.29 a defender's CRUEL is not asked either",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship(g, 1, 0)->value == 6 && asks(g, "advance", 0) &&
	              npending(g) == 1 && g->rng.script_pos == 2);
	engine_game_free(g);
}

/* Answers every pending CLEVER and place_ship decision of seat 0 after a
 * REORGANIZATION of ships 0 and 2 (the order of the two kinds is the
 * engine's): CLEVER values v0, v2; placements to0, to2. */
static int settle_reorg(struct engine_game *g, int v0, int v2, const char *to0,
                        const char *to2, int *clever_ok)
{
	for (int k = 0; k < 8 && npending(g) > 0; k++) {
		if (pending(g, 0, "clever", 0)) {
			int s = clever_ship(g, 0);
			*clever_ok &= clever_values(g, 0, s) == ALL6;
			if (!OK(g, 0, "{'type':'clever','ship':%d,'value':%d}",
			        s, s == 0 ? v0 : v2))
				return 0;
		} else if (pending(g, 0, "place_ship", 0)) {
			int s = count_ship(g, 0, "place_ship", 0) ? 0 : 2;
			if (!OK(g, 0, "{'type':'place_ship','ship':%d,'to':%s}",
			        s, s == 0 ? to0 : to2))
				return 0;
		} else {
			return 0;
		}
	}
	return npending(g) == 0;
}

/* §12.49: REORGANIZATION with CLEVER (choose the values) and STEALTHY
 * (place on isolated squares). */
static void case_12_49_reorganization(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['clever'],[]],'research':[6,1],'cubes':[{'seat':0,"
	    "'planet':[1,1]}],'ships':[[{'value':3,'at':[0,1]},{'value':2,"
	    "'at':[5,5]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'row':{'gambit':['reorganization','aggression','sabotage']}}");
	test_cond(
	    "§12.49 take REORGANIZATION",
	    OK(g, 0, "{'type':'end_turn'}") &&
	        OK(g, 0, "{'type':'take_card','card':'reorganization'}") &&
	        asks(g, "reorganize", 0));
	test_cond("§12.49 CLEVER: a map and a scrapyard ship are chosen",
	          OK(g, 0, "{'type':'reorganize','ships':[0,2]}") &&
	              asks(g, "clever", 0));
	int all6 = 1;
	test_cond("§12.49 CLEVER values and placements",
	          settle_reorg(g, 5, 2, "[0,1]", "[1,0]", &all6));
	test_cond("§12.49 CLEVER: each choice lists 1..6", all6);
	test_cond("§12.49 CLEVER: the chosen values, placed",
	          ship(g, 0, 0)->value == 5 && ship(g, 0, 2)->value == 2 &&
	              ship_on(g, 0, 0, 0, 1) && ship_on(g, 0, 2, 1, 0) &&
	              ship_on(g, 0, 1, 5, 5));
	engine_game_free(g);

	g = alpha("{'commands':[['stealthy'],[]],'research':[6,1],'cubes':[{"
	          "'seat':0,'planet':[1,1]}],'ships':[[{'value':3,'at':[0,1]},"
	          "{'value':2,'at':[5,5]},{'value':4,'at':'scrapyard'}]," FAR1
	          "],'row':{'gambit':['reorganization','aggression','sabotage']"
	          "},'dice':[6,4]}");
	test_cond(
	    "§12.49 STEALTHY reorganize ships 0 and 2",
	    OK(g, 0, "{'type':'end_turn'}") &&
	        OK(g, 0, "{'type':'take_card','card':'reorganization'}") &&
	        OK(g, 0, "{'type':'reorganize','ships':[0,2]}") &&
	        ship(g, 0, 0)->value == 6 && ship(g, 0, 2)->value == 4 &&
	        asks(g, "place_ship", 0));
	test_cond("§12.49 STEALTHY an isolated open square is listed",
	          listed(g, 0, "{'type':'place_ship','ship':0,'to':[3,3]}"));
	test_cond(
	    "§12.49 STEALTHY not next to a ship",
	    !listed(g, 0, "{'type':'place_ship','ship':0,'to':[4,5]}") &&
	        ILLEGAL(g, 0, "{'type':'place_ship','ship':0,'to':[4,5]}"));
	test_cond("§12.49 STEALTHY place ship 0 on (3,3)",
	          OK(g, 0, "{'type':'place_ship','ship':0,'to':[3,3]}") &&
	              ship_on(g, 0, 0, 3, 3));
	test_cond("§12.49 STEALTHY ship 2: not next to the new (3,3)",
	          ILLEGAL(g, 0, "{'type':'place_ship','ship':2,'to':[3,4]}"));
	test_cond("§12.49 STEALTHY ship 2 to (6,2)",
	          OK(g, 0, "{'type':'place_ship','ship':2,'to':[6,2]}") &&
	              ship_on(g, 0, 2, 6, 2) && npending(g) == 0);
	engine_game_free(g);
}

/* §12.54 and CURIOUS revised (the default): one free move; a later attack
 * (STRIKE included) first pays 1 action back, once; not after an
 * attack; with no action left no attack. */
#define CURIOUS_SETUP                                                          \
	"'ships':[[{'value':3,'at':[3,0]},{'value':2,'at':[5,5]},{'value':1,"  \
	"'at':[2,3]}],[{'value':6,'at':[2,4]},{'value':6,'at':[5,6]},"         \
	"{'value':6,'at':[8,8]}]],'dice':[1,6,3,1,6,2]"

static void case_12_54_curious_revised(void)
{
	struct engine_game *g =
	    must(2, NULL, "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("§12.54 revised is the default",
	          option_is(g, "curious", "revised"));
	test_cond("§12.54 the paid and the free move are both listed",
	          listed(g, 0, "{'type':'move','ship':0,'to':[3,2]}") &&
	              listed(g, 0,
	                     "{'type':'move','ship':0,'to':[3,2],'curious':"
	                     "true}"));
	test_cond("§12.54 the free move is never an attack",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':2,'from':[2,3],'target':[2,"
	                  "4],'curious':true}"));
	test_cond(
	    "§12.54 the free move",
	    OK(g, 0, "{'type':'move','ship':0,'to':[3,2],'curious':true}") &&
	        ship_on(g, 0, 0, 3, 2) && ship(g, 0, 0)->moved &&
	        st(g)->actions_left == 3);
	test_cond("§12.54 once per turn",
	          count_key(g, 0, "curious") == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':1,'to':[6,5],'curious':"
	                      "true}"));
	test_cond("§12.54 a STRIKE now pays the move back: 1 action",
	          OK(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	              in_scrapyard(g, 1, 0) && st(g)->actions_left == 2 &&
	              OK(g, 0, "{'type':'stay'}"));
	test_cond("§12.54 paid back once: the next attack costs 1",
	          OK(g, 0,
	             "{'type':'attack','ship':1,'from':[5,5],'target':[5,"
	             "6]}") &&
	              in_scrapyard(g, 1, 1) && st(g)->actions_left == 1);
	engine_game_free(g);

	g = must(2, NULL, "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("§12.54 attack first",
	          OK(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	              OK(g, 0, "{'type':'stay'}"));
	test_cond("§12.54 … then no free move",
	          count_key(g, 0, "curious") == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':0,'to':[3,2],'curious':"
	                      "true}") &&
	              st(g)->actions_left == 3);
	engine_game_free(g);

	g = must(2, NULL,
	         "{'commands':[['curious'],[]],'actions_left':0," CURIOUS_SETUP
	         "}");
	test_cond(
	    "§12.54 0 actions: only the free form is listed",
	    listed(g, 0,
	           "{'type':'move','ship':0,'to':[3,2],'curious':true}") &&
	        !listed(g, 0, "{'type':'move','ship':0,'to':[3,2]}"));
	test_cond(
	    "§12.54 0 actions: the free move",
	    OK(g, 0, "{'type':'move','ship':0,'to':[3,2],'curious':true}") &&
	        st(g)->actions_left == 0);
	test_cond(
	    "§12.54 no action to pay back: no attack at all",
	    count_listed(g, 0, "strike") == 0 &&
	        ILLEGAL(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	        ship_on(g, 1, 0, 2, 4));
	engine_game_free(g);
}

/* ==== part 3: off-turn decisions, printings, card timing ==== */

/* DANGEROUS comes before any roll; declined, the defender's CRUEL follows
 * after the rolls. */
static void off_turn_dangerous_then_cruel(void)
{
	/* 3+1 = 4 against 2+6 = 8; CRUEL: 3+6 = 9 against 8 */
	struct engine_game *g =
	    duel(NULL, "[[],['dangerous','cruel']]", 3, 2, "'dice':[1,6,6]");
	test_cond("off-turn DANGEROUS first, no roll yet",
	          OK(g, 0, ATTACK) && asks(g, "dangerous", 1) &&
	              battle(g, "attack_roll") == 0 &&
	              battle(g, "defense_roll") == 0 && g->rng.script_pos == 0);
	test_cond("off-turn DANGEROUS declined: rolls, then the CRUEL question",
	          OK(g, 1, "{'type':'dangerous','destroy':false}") &&
	              asks(g, "cruel", 1) && battle(g, "attack_roll") == 1 &&
	              battle(g, "defense_roll") == 6);
	test_cond("off-turn CRUEL re-rolls the attacker: repelled",
	          OK(g, 1, "{'type':'cruel','reroll':true}") &&
	              ship_on(g, 1, 0, 3, 1) && ship_on(g, 0, 0, 3, 0) &&
	              npending(g) == 0 && no_battle(g) &&
	              engine_game_to_act(g) == 1u);
	engine_game_free(g);
}

/* §14.1 order, attacker side: CRUEL, RELENTLESS, SCRAPPY. */
static void reroll_order_attacker(void)
{
	/* 3+3 against 2+1; CRUEL: def 2; RELENTLESS: att 4; SCRAPPY: att 1:
	 * 3+1 = 4 against 2+2 = 4, won; destroyed ship 6 */
	struct engine_game *g =
	    duel(NULL, "[['cruel','relentless','scrappy'],[]]", 3, 2,
	         "'dice':[3,1,2,4,1,6]");
	test_cond("§14.1 attacker's CRUEL first",
	          OK(g, 0, ATTACK) && asks(g, "cruel", 0) &&
	              battle(g, "attack_roll") == 3 &&
	              battle(g, "defense_roll") == 1);
	test_cond("§14.1 then RELENTLESS",
	          OK(g, 0, "{'type':'cruel','reroll':true}") &&
	              asks(g, "relentless", 0) &&
	              battle(g, "defense_roll") == 2 &&
	              battle(g, "attack_roll") == 3);
	test_cond("§14.1 then SCRAPPY",
	          OK(g, 0, "{'type':'relentless','reroll':true}") &&
	              asks(g, "scrappy", 0) && battle(g, "attack_roll") == 4 &&
	              battle(g, "defense_roll") == 2);
	test_cond("§14.1 SCRAPPY: a second re-roll of the own die, won",
	          OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 6 &&
	              g->rng.script_pos == 6);
	test_cond("§14.1 each card once: advance/stay only",
	          asks(g, "advance", 0) && npending(g) == 1);
	engine_game_free(g);
}

/* §14.1 order across sides: attacker's RELENTLESS, then the defender's
 * CRUEL; RELENTLESS is not asked again. */
static void reroll_order_relentless_then_cruel(void)
{
	/* 3+6 = 9 against 4; RELENTLESS 1: 4 against 4; CRUEL 6: 9 */
	struct engine_game *g =
	    duel(NULL, "[['relentless'],['cruel']]", 3, 2, "'dice':[6,2,1,6]");
	test_cond("§14.1 attacker's RELENTLESS first",
	          OK(g, 0, ATTACK) && asks(g, "relentless", 0) &&
	              OK(g, 0, "{'type':'relentless','reroll':true}"));
	test_cond("§14.1 then the defender's CRUEL",
	          asks(g, "cruel", 1) && battle(g, "attack_roll") == 1 &&
	              battle(g, "defense_roll") == 2);
	test_cond("§14.1 CRUEL re-rolls the attacker to 6: repelled, no "
	          "second RELENTLESS",
	          OK(g, 1, "{'type':'cruel','reroll':true}") &&
	              npending(g) == 0 && ship_on(g, 1, 0, 3, 1) &&
	              ship_on(g, 0, 0, 3, 0) && g->rng.script_pos == 4);
	engine_game_free(g);
}

/* §14.1: the attacker's SCRAPPY is asked again only when the defender's
 * CRUEL just re-rolled the attacker's die and SCRAPPY is unused; the
 * defender's RELENTLESS comes last. */
static void reroll_order_scrappy_again(void)
{
	/* 3+1 = 4 against 2+4 = 6; CRUEL 6; SCRAPPY 2; RELENTLESS 5:
	 * 3+2 = 5 against 2+5 = 7, won; destroyed ship 3 */
	struct engine_game *g =
	    duel(NULL, "[['scrappy'],['cruel','relentless']]", 3, 2,
	         "'dice':[1,4,6,2,5,3]");
	test_cond("§14.1 SCRAPPY asked first, declined",
	          OK(g, 0, ATTACK) && asks(g, "scrappy", 0) &&
	              OK(g, 0, "{'type':'scrappy','reroll':false}"));
	test_cond("§14.1 the defender's CRUEL",
	          asks(g, "cruel", 1) && battle(g, "attack_roll") == 1 &&
	              OK(g, 1, "{'type':'cruel','reroll':true}") &&
	              battle(g, "attack_roll") == 6);
	test_cond("§14.1 SCRAPPY unused and the attacker's die re-rolled: "
	          "asked again",
	          asks(g, "scrappy", 0) &&
	              OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              battle(g, "attack_roll") == 2);
	test_cond("§14.1 the defender's RELENTLESS last",
	          asks(g, "relentless", 1) &&
	              OK(g, 1, "{'type':'relentless','reroll':true}"));
	test_cond("§14.1 5 against 7: won",
	          in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 3 &&
	              asks(g, "advance", 0) && g->rng.script_pos == 6);
	engine_game_free(g);

	/* SCRAPPY used at once: not asked after CRUEL */
	g = duel(NULL, "[['scrappy'],['cruel','relentless']]", 3, 2,
	         "'dice':[6,4,1,6]");
	test_cond("§14.1 SCRAPPY used first",
	          OK(g, 0, ATTACK) && asks(g, "scrappy", 0) &&
	              OK(g, 0, "{'type':'scrappy','reroll':true}") &&
	              battle(g, "attack_roll") == 1);
	test_cond("§14.1 CRUEL re-rolls it to 6",
	          asks(g, "cruel", 1) &&
	              OK(g, 1, "{'type':'cruel','reroll':true}") &&
	              battle(g, "attack_roll") == 6);
	test_cond("§14.1 SCRAPPY spent: RELENTLESS is next",
	          asks(g, "relentless", 1) &&
	              OK(g, 1, "{'type':'relentless','reroll':false}") &&
	              npending(g) == 0 && ship_on(g, 1, 0, 3, 1) &&
	              g->rng.script_pos == 4);
	engine_game_free(g);

	/* CRUEL declined: no second SCRAPPY */
	g = duel(NULL, "[['scrappy'],['cruel','relentless']]", 3, 2,
	         "'dice':[1,4,3]");
	test_cond("§14.1 SCRAPPY declined, CRUEL declined",
	          OK(g, 0, ATTACK) &&
	              OK(g, 0, "{'type':'scrappy','reroll':false}") &&
	              asks(g, "cruel", 1) &&
	              OK(g, 1, "{'type':'cruel','reroll':false}"));
	test_cond("§14.1 the attacker's die was not re-rolled: RELENTLESS next",
	          asks(g, "relentless", 1) &&
	              OK(g, 1, "{'type':'relentless','reroll':false}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 3 &&
	              g->rng.script_pos == 3);
	engine_game_free(g);
}

/* §14.1: never asked to re-roll a RATIONAL 3 (own RELENTLESS/SCRAPPY,
 * the opponent's CRUEL); the other questions still come. */
static void reroll_order_rational(void)
{
	/* attacker 3+3 = 6 against 2+5 = 7; CRUEL: 2+1 = 3; RELENTLESS 6 */
	struct engine_game *g = duel(NULL,
	                             "[['rational','scrappy','cruel'],"
	                             "['relentless']]",
	                             3, 2, "'dice':[5,1,6,4]");
	test_cond("§14.1 RATIONAL attacker: its CRUEL is asked",
	          OK(g, 0, ATTACK) && asks(g, "cruel", 0) &&
	              battle(g, "defense_roll") == 5 &&
	              OK(g, 0, "{'type':'cruel','reroll':true}") &&
	              battle(g, "defense_roll") == 1);
	test_cond("§14.1 its SCRAPPY is not: the defender's RELENTLESS next",
	          asks(g, "relentless", 1) &&
	              OK(g, 1, "{'type':'relentless','reroll':true}"));
	test_cond("§14.1 6 against 8: won",
	          in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 4 &&
	              asks(g, "advance", 0) && g->rng.script_pos == 4);
	engine_game_free(g);

	g = duel(NULL, "[['rational','relentless','scrappy'],['cruel']]", 3, 2,
	         "'dice':[5,4]");
	test_cond("§14.1 RATIONAL: no RELENTLESS, SCRAPPY or CRUEL question",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              ship(g, 1, 0)->value == 4 && asks(g, "advance", 0) &&
	              npending(g) == 1 && g->rng.script_pos == 2);
	engine_game_free(g);
}

/* CLEVER: the holder's ship destroyed on the other player's turn; the
 * destroyed ship's value goes before infamy, then advance/stay (§14.1
 * order of queued decisions). */
static void clever_off_turn(void)
{
	/* a 1 attacks a 6: 1+1 = 2 against 6+6 = 12 */
	struct engine_game *g = duel(NULL, "[[],['clever']]", 1, 6,
	                             "'dominance':[5,1],'dice':[1,6]");
	test_cond("CLEVER off-turn: the defender chooses its ship's number",
	          OK(g, 0, ATTACK) && in_scrapyard(g, 1, 0) &&
	              asks(g, "clever", 1) && clever_values(g, 1, 0) == ALL6);
	test_cond("CLEVER off-turn: then infamy and advance for seat 0",
	          npending(g) == 3 && pending(g, 1, "infamy", 0) &&
	              pending(g, 2, "advance", 0));
	test_cond("CLEVER off-turn: seat 0 cannot answer it",
	          NOTTURN(g, 0, "{'type':'clever','ship':0,'value':1}"));
	test_cond("CLEVER off-turn: choose 1",
	          OK(g, 1, "{'type':'clever','ship':0,'value':1}") &&
	              ship(g, 1, 0)->value == 1 && in_scrapyard(g, 1, 0) &&
	              asks(g, "infamy", 0));
	test_cond("CLEVER off-turn: infamy, then advance",
	          OK(g, 0, "{'type':'infamy','planet':[4,4]}") &&
	              asks(g, "advance", 0) && OK(g, 0, "{'type':'advance'}") &&
	              ship_on(g, 0, 0, 3, 1) && npending(g) == 0 &&
	              st(g)->dominance[1] == 1);
	engine_game_free(g);
}

/* CURIOUS, add-on card: not after an attack; after the free move no
 * attack at all this turn. */
static void curious_addon(void)
{
	struct engine_game *g =
	    must(2, "{'curious':'addon'}",
	         "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("CURIOUS addon shown in the view",
	          option_is(g, "curious", "addon"));
	test_cond(
	    "CURIOUS addon the free move",
	    OK(g, 0, "{'type':'move','ship':0,'to':[3,2],'curious':true}") &&
	        st(g)->actions_left == 3);
	test_cond(
	    "CURIOUS addon no attack at all afterwards",
	    count_listed(g, 0, "strike") == 0 &&
	        count_listed(g, 0, "attack") == 0 &&
	        ILLEGAL(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	        ILLEGAL(g, 0,
	                "{'type':'attack','ship':1,'from':[5,5],"
	                "'target':[5,6]}") &&
	        st(g)->actions_left == 3 && ship_on(g, 1, 0, 2, 4));
	engine_game_free(g);

	g = must(2, "{'curious':'addon'}",
	         "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("CURIOUS addon attacked first: no free move",
	          OK(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	              OK(g, 0, "{'type':'stay'}") &&
	              count_key(g, 0, "curious") == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':0,'to':[3,2],'curious':"
	                      "true}"));
	engine_game_free(g);
}

/* CURIOUS, first printing: every turn, even after an attack; no
 * pay-back; never an attack. */
static void curious_first_printing(void)
{
	struct engine_game *g =
	    must(2, "{'curious':'first-printing'}",
	         "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("CURIOUS first printing shown in the view",
	          option_is(g, "curious", "first-printing"));
	test_cond("CURIOUS first printing: attack first",
	          OK(g, 0, "{'type':'strike','ship':2,'target':[2,4]}") &&
	              OK(g, 0, "{'type':'stay'}"));
	test_cond(
	    "CURIOUS first printing: the free move still comes",
	    OK(g, 0, "{'type':'move','ship':0,'to':[3,2],'curious':true}") &&
	        st(g)->actions_left == 3);
	test_cond("CURIOUS first printing: a later attack costs just 1",
	          OK(g, 0,
	             "{'type':'attack','ship':1,'from':[5,5],'target':[5,"
	             "6]}") &&
	              in_scrapyard(g, 1, 1) && st(g)->actions_left == 2);
	engine_game_free(g);
	g = must(2, "{'curious':'first-printing'}",
	         "{'commands':[['curious'],[]]," CURIOUS_SETUP "}");
	test_cond("CURIOUS first printing limit: never an attack",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':1,'from':[5,5],'target':[5,"
	                  "6],'curious':true}") &&
	              ship_on(g, 1, 1, 5, 6));
	engine_game_free(g);
	g = game(2, "{'curious':'weak'}",
	         "{'commands':[['curious'],[]]," CURIOUS_SETUP "}", 7);
	test_cond("CURIOUS an unknown printing is refused", g == NULL);
	engine_game_free(g);
}

/* CURIOUS on a transport; with ENERGETIC the free move may be a ship's
 * second move, without it not. */
static void curious_transport_energetic(void)
{
	const char *fmt =
	    "{'commands':[%s,[]],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[5,5]},{'value':4,'at':[5,4]}]," FAR1 "]}";
	char buf[512];
	snprintf(buf, sizeof buf, fmt, "['curious','energetic']");
	struct engine_game *g = alpha(buf);
	test_cond(
	    "CURIOUS a free transport is listed",
	    listed(g, 0,
	           "{'type':'transport','ship':1,'passenger':2,'to':[6,5],"
	           "'drop':[6,4],'curious':true}"));
	test_cond("CURIOUS+ENERGETIC paid move first",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,2]}") &&
	              st(g)->actions_left == 2);
	test_cond(
	    "CURIOUS+ENERGETIC the free move is its second move",
	    listed(g, 0,
	           "{'type':'move','ship':0,'to':[3,4],'curious':true}") &&
	        OK(g, 0,
	           "{'type':'move','ship':0,'to':[3,4],'curious':true}") &&
	        ship_on(g, 0, 0, 3, 4) && st(g)->actions_left == 2);
	engine_game_free(g);
	snprintf(buf, sizeof buf, fmt, "['curious']");
	g = alpha(buf);
	test_cond("CURIOUS limit: not a moved ship's second move",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,2]}") &&
	              !listed(g, 0,
	                      "{'type':'move','ship':0,'to':[3,4],'curious':"
	                      "true}") &&
	              ILLEGAL(g, 0,
	                      "{'type':'move','ship':0,'to':[3,4],'curious':"
	                      "true}") &&
	              listed(g, 0,
	                     "{'type':'move','ship':1,'to':[6,5],'curious':"
	                     "true}"));
	engine_game_free(g);
}

/* SABOTAGE: every other seat with command cards discards one, in turn
 * order, one at a time; one card goes at once; a discarded card stops
 * working. */
#define BETA_FLEETS                                                            \
	"'ships':[[{'value':6,'at':[0,0]},{'value':6,'at':[0,2]},{'value':6,"  \
	"'at':[2,0]}],[{'value':6,'at':[8,8]},{'value':6,'at':[8,6]},"         \
	"{'value':6,'at':[6,8]}],[{'value':3,'at':[3,0]},{'value':2,'at':[3,"  \
	"3]},{'value':4,'at':[3,6]}]]"

static void sabotage_turn_order(void)
{
	struct engine_game *g =
	    must(3, "{'map':'Beta sector - Basic map'}",
	         "{'research':[6,1,1],'dominance':[1,2,1],'commands':[[],["
	         "'cerebral','stubborn'],['agile','flexible']]," BETA_FLEETS
	         ",'row':{'gambit':['sabotage','aggression','momentum']}}");
	test_cond("SABOTAGE taken",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'sabotage'}"));
	test_cond(
	    "SABOTAGE seat 1 first, its two cards listed",
	    asks(g, "sabotage", 1) && nlisted(g, 1) == 2 &&
	        listed(g, 1, "{'type':'discard_command','card':'cerebral'}") &&
	        listed(g, 1, "{'type':'discard_command','card':'stubborn'}"));
	test_cond("SABOTAGE seat 2 waits",
	          NOTTURN(g, 2, "{'type':'discard_command','card':'agile'}"));
	test_cond("SABOTAGE seat 1 discards CEREBRAL",
	          OK(g, 1, "{'type':'discard_command','card':'cerebral'}") &&
	              !holds(g, 1, "cerebral") && holds(g, 1, "stubborn"));
	test_cond("SABOTAGE then seat 2",
	          asks(g, "sabotage", 2) && nlisted(g, 2) == 2 &&
	              OK(g, 2, "{'type':'discard_command','card':'agile'}") &&
	              holds(g, 2, "flexible") && !holds(g, 2, "agile"));
	test_cond("SABOTAGE then seat 1's turn; CEREBRAL gone",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->active == 1 &&
	              count_listed(g, 1, "cerebral") == 0 &&
	              ILLEGAL(g, 1, "{'type':'cerebral'}") &&
	              st(g)->dominance[1] == 2);
	engine_game_free(g);

	g = must(3, "{'map':'Beta sector - Basic map'}",
	         "{'research':[6,1,1],'commands':[[],['cerebral','stubborn'],"
	         "['agile']]," BETA_FLEETS
	         ",'row':{'gambit':['sabotage','aggression','momentum']}}");
	test_cond("SABOTAGE a single card goes at once",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'sabotage'}") &&
	              !holds(g, 2, "agile") && asks(g, "sabotage", 1) &&
	              npending(g) == 1);
	test_cond("SABOTAGE seat 1 decides, then its turn",
	          OK(g, 1, "{'type':'discard_command','card':'stubborn'}") &&
	              holds(g, 1, "cerebral") && st(g)->active == 1 &&
	              st(g)->phase == QT_PH_ACTIONS);
	engine_game_free(g);
}

/* A card taken in the card phase works from the next start of any turn
 * (§14.1): not for a gambit taken after it in the same card phase (see
 * case_12_47 for MOMENTUM), but on the opponent's next turn. */
static void cards_taken_work_next_turn(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'cubes':[{'seat':0,'planet':[1,1]}],'ships':[[{"
	    "'value':3,'at':[0,4]},{'value':4,'at':[1,3]},{'value':1,'at':[3,"
	    "0]}]," FAR1
	    "],'row':{'command':['clever','stealthy','agile'],'gambit':["
	    "'expansion','aggression','sabotage']},'dice':[4]}");
	test_cond("timing construct and end: two picks",
	          OK(g, 0, "{'type':'construct','planet':[1,4]}") &&
	              OK(g, 0, "{'type':'end_turn'}") && st(g)->picks[0] == 2);
	test_cond("timing take CLEVER",
	          OK(g, 0, "{'type':'take_card','card':'clever'}") &&
	              holds(g, 0, "clever"));
	test_cond("timing EXPANSION in the same card phase: rolled, no CLEVER",
	          OK(g, 0, "{'type':'take_card','card':'expansion'}") &&
	              ship(g, 0, 3)->value == 4 && asks(g, "place_ship", 0) &&
	              count_listed(g, 0, "clever") == 0);
	test_cond("timing placed; seat 1 plays, then seat 0",
	          OK(g, 0, "{'type':'place_ship','ship':3,'to':[0,1]}") &&
	              st(g)->active == 1 && OK(g, 1, "{'type':'end_turn'}") &&
	              st(g)->active == 0);
	test_cond("timing CLEVER works from the next turn",
	          OK(g, 0, "{'type':'reconfigure','ship':2}") &&
	              asks(g, "clever", 0) &&
	              clever_values(g, 0, 2) ==
	                  (V(2) | V(3) | V(4) | V(5) | V(6)));
	engine_game_free(g);

	/* DANGEROUS taken by seat 0 works on seat 1's next turn */
	g = alpha("{'research':[6,1],'ships':[[{'value':3,'at':[3,0]},{"
	          "'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}],[{"
	          "'value':3,'at':[3,1]},{'value':6,'at':[8,6]},{'value':6,"
	          "'at':[6,8]}]],'row':{'command':['dangerous','agile','cruel']"
	          ",'gambit':['aggression','momentum','sabotage']},'dice':[2,"
	          "3]}");
	test_cond("timing seat 0 takes DANGEROUS",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'dangerous'}") &&
	              st(g)->active == 1);
	test_cond("timing seat 1 attacks it: DANGEROUS is asked",
	          OK(g, 1,
	             "{'type':'attack','ship':0,'from':[3,1],'target':[3,"
	             "0]}") &&
	              asks(g, "dangerous", 0));
	test_cond("timing both destroyed, the attacker's first",
	          OK(g, 0, "{'type':'dangerous','destroy':true}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 2 &&
	              in_scrapyard(g, 0, 0) && ship(g, 0, 0)->value == 3);
	engine_game_free(g);
}

/* §9.1: at most 3 command cards; a 4th: discard any of the 4; the
 * discarded card stops working. */
static void cards_fourth_discard(void)
{
	const char *setup =
	    "{'commands':[['cerebral','tyrannical','flexible'],[]],'research':"
	    "[6,1],'dominance':[3,1],'ships':[[{'value':3,'at':[3,0]},{'value'"
	    ":2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'row':{'command':['agile','brilliant','cruel'],'gambit':["
	    "'aggression','momentum','sabotage']}}";
	struct engine_game *g = alpha(setup);
	test_cond(
	    "§9.1 a 4th card: discard one of the 4",
	    OK(g, 0, "{'type':'end_turn'}") &&
	        OK(g, 0, "{'type':'take_card','card':'agile'}") &&
	        asks(g, "discard_command", 0) &&
	        count_listed(g, 0, "discard_command") == 4 &&
	        listed(g, 0, "{'type':'discard_command','card':'agile'}"));
	test_cond("§9.1 discard CEREBRAL",
	          OK(g, 0, "{'type':'discard_command','card':'cerebral'}") &&
	              !holds(g, 0, "cerebral") && holds(g, 0, "agile") &&
	              holds(g, 0, "tyrannical") && holds(g, 0, "flexible") &&
	              st(g)->held[0][3] == QT_NO_CARD && st(g)->active == 1);
	test_cond("§9.1 next turn: CEREBRAL gone, AGILE works",
	          OK(g, 1, "{'type':'end_turn'}") && st(g)->active == 0 &&
	              count_listed(g, 0, "cerebral") == 0 &&
	              count_listed(g, 0, "flexible") > 0 &&
	              listed(g, 0, "{'type':'move','ship':0,'to':[3,4]}"));
	engine_game_free(g);

	g = alpha(setup);
	test_cond("§9.1 the new card may be the one discarded",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              OK(g, 0, "{'type':'take_card','card':'agile'}") &&
	              OK(g, 0, "{'type':'discard_command','card':'agile'}") &&
	              !holds(g, 0, "agile") && holds(g, 0, "cerebral") &&
	              st(g)->cmd_discard[st(g)->cmd_discard_n - 1] ==
	                  qt_card_find("agile"));
	test_cond("§9.1 next turn: AGILE does not work",
	          OK(g, 1, "{'type':'end_turn'}") &&
	              !listed(g, 0, "{'type':'move','ship':0,'to':[3,4]}") &&
	              listed(g, 0, "{'type':'cerebral'}"));
	engine_game_free(g);
}

/* 1 if view.players[seat].commands_waking lists `card`. */
static int waking_listed(struct engine_game *g, int seat, const char *card)
{
	json_t *v = view_of(g);
	json_t *w = json_object_get(
	    json_array_get(json_object_get(v, "players"), (size_t)seat),
	    "commands_waking");
	size_t i;
	json_t *c;
	int found = 0;
	json_array_foreach(w, i, c)
		found |= strcmp(json_string_value(c), card) == 0;
	json_decref(v);
	return found;
}

/* view.commands_waking lists held cards taken this turn only: a taken
 * card discarded at once (a 4th card) is not held, so not waking. */
static void cards_discarded_not_waking(void)
{
	struct engine_game *g = alpha(
	    "{'commands':[['cerebral','tyrannical','flexible'],[]],'research':"
	    "[6,1],'ships':[[{'value':3,'at':[3,4]},{'value':5,'at':[5,4]},{"
	    "'value':4,'at':'scrapyard'}]," FAR1
	    "],'row':{'command':['agile','brilliant','cruel'],'gambit':["
	    "'aggression','momentum','sabotage']}}");
	test_cond("§9.1 two picks: construct and research 6",
	          OK(g, 0, "{'type':'construct','planet':[4,4]}") &&
	              OK(g, 0, "{'type':'end_turn'}") && st(g)->picks[0] == 2);
	test_cond("§9.1 a 4th card taken is waking",
	          OK(g, 0, "{'type':'take_card','card':'agile'}") &&
	              asks(g, "discard_command", 0) &&
	              waking_listed(g, 0, "agile"));
	test_cond("§9.1 the new card discarded: no longer held nor waking",
	          OK(g, 0, "{'type':'discard_command','card':'agile'}") &&
	              !holds(g, 0, "agile") && st(g)->picks[0] == 1 &&
	              st(g)->phase == QT_PH_CARDS &&
	              !waking_listed(g, 0, "agile"));
	engine_game_free(g);
}

/* The custom setup: "commands" holds at most 3 command cards per
 * seat, each card once in the game. */
static void setup_commands_limits(void)
{
	const char *fmt = "{'commands':%s,'ships':[[{'value':3,'at':[3,0]},{"
	                  "'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}"
	                  "]," FAR1 "]}";
	static const char *const bad[] = {
	    "[['agile','cruel','eager','flexible'],[]]",
	    "[['agile'],['agile']]",
	    "[['momentum'],[]]",
	    "[['agile']]",
	};
	char buf[512];
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		snprintf(buf, sizeof buf, fmt, bad[k]);
		struct engine_game *g = game(2, NULL, buf, 7);
		test_cond("setup: a bad \"commands\" list is refused",
		          g == NULL);
		engine_game_free(g);
	}
	snprintf(buf, sizeof buf, fmt,
	         "[['agile','cruel','eager'],['clever']]");
	struct engine_game *g = alpha(buf);
	test_cond("setup: the cards are held and active at once",
	          holds(g, 0, "agile") && holds(g, 0, "cruel") &&
	              holds(g, 0, "eager") && holds(g, 1, "clever") &&
	              listed(g, 0, "{'type':'move','ship':0,'to':[3,4]}"));
	engine_game_free(g);
}

/* Every listed action of every seat to act is accepted (applied on a
 * copy); returns the number of listed actions checked, -1 on a refusal. */
static int listed_all_legal(struct engine_game *g)
{
	int n = 0;
	for (int seat = 0; seat < g->seats; seat++) {
		if (!(engine_game_to_act(g) >> seat & 1))
			continue;
		json_t *all = engine_game_actions(g, seat);
		size_t i;
		json_t *a;
		json_array_foreach(all, i, a) {
			struct engine_game *c = engine_game_clone(g);
			struct rules_why why;
			int rc = engine_game_apply(c, seat, a, &why);
			engine_game_free(c);
			if (rc) {
				char *t = json_dumps(a, JSON_COMPACT);
				fprintf(
				    stderr,
				    "listed but refused (seat %d): %s: %s\n",
				    seat, t, why.detail);
				free(t);
				json_decref(all);
				return -1;
			}
			n++;
		}
		json_decref(all);
	}
	return n;
}

/* Powers and decisions are listed only when legal.  Seven
 * card pairings (all 31 cards) on a busy board; a deterministic walk of
 * 40 listed actions, every listed action checked at each step. */
static void listed_powers_are_legal(void)
{
	static const char *const pairs[] = {
	    "[['cunning','tactical','curious'],['dangerous','cruel',"
	    "'relentless']]",
	    "[['flexible','resourceful','nomadic'],['stubborn','rational',"
	    "'ferocious']]",
	    "[['cerebral','tyrannical','eager'],['clever','scrappy','"
	    "strategic']]",
	    "[['stealthy','ingenious','intelligent'],['righteous','ravenous',"
	    "'plundering']]",
	    "[['agile','energetic','warlike'],['arrogant','brilliant',"
	    "'conformist']]",
	    "[['clever','scrappy','precocious'],['cunning','curious','agile']"
	    "]",
	    "[['cruel','relentless','strategic'],['tactical','dangerous',"
	    "'warlike']]",
	};
	for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
		char buf[1024];
		snprintf(
		    buf, sizeof buf,
		    "{'commands':%s,'research':[3,2],'dominance':[3,2],"
		    "'cubes':[{'seat':0,'planet':[1,1]},{'seat':1,'planet':"
		    "[7,7]}],'ships':[[{'value':1,'at':[3,1]},{'value':2,"
		    "'at':[2,2]},{'value':5,'at':[0,4]},{'value':6,'at':"
		    "'scrapyard'}],[{'value':4,'at':[3,2]},{'value':3,'at':"
		    "[2,4]},{'value':5,'at':[6,7]},{'value':2,'at':"
		    "'scrapyard'}]]}",
		    pairs[k]);
		struct engine_game *g = alpha(buf);
		int ok = 1, checked = 0;
		for (int step = 0; step < 40 && ok; step++) {
			int n = listed_all_legal(g);
			if (n < 0) {
				ok = 0;
				break;
			}
			checked += n;
			unsigned who = engine_game_to_act(g);
			if (!who)
				break;
			int seat = __builtin_ctz(who);
			json_t *all = engine_game_actions(g, seat);
			size_t cnt = json_array_size(all);
			/* prefer anything but end_turn early on */
			json_t *a =
			    json_array_get(all, (size_t)(step * 7) % cnt);
			const char *t =
			    json_string_value(json_object_get(a, "type"));
			if (t && strcmp(t, "end_turn") == 0 && cnt > 1 &&
			    step % 5 != 4)
				a = json_array_get(all, 0);
			struct rules_why why;
			ok = engine_game_apply(g, seat, a, &why) == 0;
			json_decref(all);
		}
		char name[96];
		snprintf(name, sizeof name,
		         "listed => legal, pairing %zu (%d actions checked)", k,
		         checked);
		test_cond(name, ok && checked > 100);
		engine_game_free(g);
	}
}

int main(void)
{
	/* part 1: every card */
	card_brilliant();
	card_clever();
	card_cunning();
	card_rational();
	card_resourceful();
	card_scrappy();
	card_stubborn();
	/* part 2: §12 */
	case_12_25_strategic_printings();
	case_12_26_stubborn_tie();
	case_12_27_dangerous();
	case_12_28_cruel_and_relentless();
	case_12_29_rational();
	case_12_49_reorganization();
	case_12_54_curious_revised();
	/* part 3: off-turn decisions, printings, timing */
	off_turn_dangerous_then_cruel();
	reroll_order_attacker();
	reroll_order_relentless_then_cruel();
	reroll_order_scrappy_again();
	reroll_order_rational();
	clever_off_turn();
	curious_addon();
	curious_first_printing();
	curious_transport_energetic();
	sabotage_turn_order();
	cards_taken_work_next_turn();
	cards_fourth_discard();
	cards_discarded_not_waking();
	setup_commands_limits();
	listed_powers_are_legal();
	return test_report("quantum-cards");
}
