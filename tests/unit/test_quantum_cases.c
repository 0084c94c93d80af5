/* test_quantum_cases.c: one test per rules §12 case that needs no command
 * card power (docs/rules/quantum.md; the card cases are in
 * test_quantum_cards.c), plus the rule checks a review of the Quantum module
 * added: setup (§3), deploy, reconfigure, construct, dominance and infamy,
 * entanglement, the card phase, each gambit and the end of the game.  Built
 * like test_quantum.c: custom setups with scripted dice through
 * engine_game_new, actions through engine_game_apply.
 *
 * JSON texts in this file are written with single quotes for readability;
 * the helpers turn every ' into " before parsing (no JSON here needs a
 * literal single quote). */
#include "qt_testhelp.h"
#include "testhelp.h"

/* ---- helpers ---- */

/* A game that must be accepted. */
static struct engine_game *must(int seats, const char *options,
                                const char *setup)
{
	struct engine_game *g = game(seats, options, setup, 7);
	if (!g) {
		fprintf(stderr, "setup refused: %s %s\n", last_why.rule,
		        last_why.detail);
		exit(2);
	}
	return g;
}

/* A 2-seat game on the default map (Alpha sector - Basic map). */
static struct engine_game *alpha(const char *setup)
{
	return must(2, NULL, setup);
}

static int in_scrapyard(struct engine_game *g, int seat, int i)
{
	return ship(g, seat, i)->where == QT_SCRAPYARD;
}

/* Listed moves of ship i that end on its own square (must be none). */
static int zero_moves(struct engine_game *g, int seat, int i)
{
	json_t *all = engine_game_actions(g, seat);
	size_t k;
	json_t *a;
	int n = 0;
	const struct qt_ship *sh = ship(g, seat, i);
	json_array_foreach(all, k, a) {
		json_t *to = json_object_get(a, "to");
		if (strcmp(json_string_value(json_object_get(a, "type")),
		           "move") ||
		    json_integer_value(json_object_get(a, "ship")) != i)
			continue;
		n += json_integer_value(json_array_get(to, 0)) == sh->at.r &&
		     json_integer_value(json_array_get(to, 1)) == sh->at.c;
	}
	json_decref(all);
	return n;
}

static int planet(struct engine_game *g, int r, int c)
{
	return qt_board_planet_at(&st(g)->board, r, c);
}

static int over_won_by(struct engine_game *g, int seat)
{
	struct rules_result res;
	return engine_game_result(g, &res) == 1 && res.winners == 1u << seat &&
	       strcmp(res.reason, "last_cube") == 0 &&
	       engine_game_to_act(g) == 0;
}

/* Seat 1's fleet parked in the far corner of Alpha sector. */
#define FAR1                                                                   \
	"[{'value':6,'at':[8,8]},{'value':6,'at':[8,6]},{'value':6,'at':[6,"   \
	"8]}]"

/* ---- movement and actions (§12.1-§12.14) ---- */

static void case_12_1_move_then_reconfigure(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}]," FAR1 "],'dice':[5]}");
	test_cond("§12.1 move",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,2]}"));
	test_cond("§12.1 reconfigure to 5",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              ship(g, 0, 0)->value == 5);
	test_cond("§12.1 the new 5 still may not move: not listed",
	          count_ship(g, 0, "move", 0) == 0 &&
	              count_ship(g, 0, "attack", 0) == 0);
	test_cond("§12.1 the new 5 still may not move: refused",
	          ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,3]}"));
	test_cond("§12.1 other ships still move",
	          OK(g, 0, "{'type':'move','ship':1,'to':[0,2]}"));
	engine_game_free(g);
}

static void case_12_2_deploy_then_move(void)
{
	/* seat 0 holds a cube on the 8 (not a starting planet) */
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[0,0]},{'value':2,'at':[8,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[3,7]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'cubes':[{"
	          "'seat':0,'planet':[4,4]}],'dice':[1,6,2]}");
	test_cond("§12.2 deploy to any planet with your cube",
	          OK(g, 0, "{'type':'deploy','ship':2,'to':[3,4]}") &&
	              ship_on(g, 0, 2, 3, 4) && ship(g, 0, 2)->value == 4 &&
	              ship(g, 0, 2)->moved == 0);
	test_cond("§12.2 the deployed ship may move/attack at once",
	          listed(g, 0,
	                 "{'type':'attack','ship':2,'from':[3,6],'target':"
	                 "[3,7]}"));
	/* 4+1 = 5 against 6+6 = 12 */
	test_cond("§12.2 deploy then attack",
	          OK(g, 0,
	             "{'type':'attack','ship':2,'from':[3,6],'target':[3,"
	             "7]}") &&
	              in_scrapyard(g, 1, 0));
	test_cond("§12.2 stay", OK(g, 0, "{'type':'stay'}"));
	test_cond("§12.2 deploy and attack cost one action each",
	          st(g)->actions_left == 1);
	engine_game_free(g);
}

static void case_12_4_free_after_three_actions(void)
{
	struct engine_game *g = alpha(
	    "{'actions_left':0,'research':[2,1],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':6,'at':[0,0]},{'value':4,'at':[5,5]},{'value':1,"
	    "'at':[2,8]},{'value':2,'at':'scrapyard'}],[{'value':6,'at':[3,8]"
	    "},{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'cubes':[{"
	    "'seat':0,'planet':[1,1]}],'dice':[3,1,6,4]}");
	test_cond("§12.4 no action listed with 0 actions",
	          count_listed(g, 0, "move") == 0 &&
	              count_listed(g, 0, "deploy") == 0 &&
	              count_listed(g, 0, "reconfigure") == 0 &&
	              count_listed(g, 0, "research") == 0 &&
	              count_listed(g, 0, "transport") == 0);
	test_cond("§12.4 actions refused with 0 actions",
	          ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,2]}") &&
	              ILLEGAL(g, 0, "{'type':'deploy','ship':4,'to':[0,1]}") &&
	              ILLEGAL(g, 0, "{'type':'reconfigure','ship':4}") &&
	              ILLEGAL(g, 0, "{'type':'research'}") &&
	              st(g)->research[0] == 2);
	test_cond("§12.4 warp, scout, modify, strike listed",
	          count_listed(g, 0, "warp") > 0 &&
	              count_listed(g, 0, "scout") == 1 &&
	              count_listed(g, 0, "modify") == 2 &&
	              count_listed(g, 0, "strike") == 1);
	test_cond("§12.4 warp", OK(g, 0, "{'type':'warp','ship':0,'with':2}"));
	test_cond("§12.4 scout", OK(g, 0, "{'type':'scout','ship':1}") &&
	                             ship(g, 0, 1)->value == 3);
	test_cond("§12.4 modify",
	          OK(g, 0, "{'type':'modify','ship':2,'value':5}") &&
	              ship(g, 0, 2)->value == 5);
	/* 1+1 = 2 against 6+6 = 12 */
	test_cond("§12.4 strike",
	          OK(g, 0, "{'type':'strike','ship':3,'target':[3,8]}") &&
	              in_scrapyard(g, 1, 0));
	test_cond("§12.4 still 0 actions", st(g)->actions_left == 0);
	engine_game_free(g);
}

static void case_12_5_attack_reach(void)
{
	/* A 3 at (3,0): (4,0), (5,0) are its two steps, the attack on
	 * (6,0) is the 3rd step. */
	const char *setup =
	    "{'ships':[[{'value':%d,'at':[3,0]},{'value':2,'at':[0,0]},"
	    "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[6,0]},"
	    "{'value':6,'at':[5,2]},{'value':6,'at':[8,8]}]]}";
	char buf[512];
	snprintf(buf, sizeof buf, setup, 3);
	struct engine_game *g = alpha(buf);
	test_cond("§12.5 3rd step straight: legal",
	          listed(g, 0,
	                 "{'type':'attack','ship':0,'from':[5,0],'target':[6,"
	                 "0]}"));
	test_cond("§12.5 a 3: (5,2) from (5,1) is the 4th step, refused",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':0,'from':[5,1],'target':[5,"
	                  "2]}"));
	test_cond("§12.5 … and that attack is not listed",
	          !listed(g, 0,
	                  "{'type':'attack','ship':0,'from':[5,1],'target':[5,"
	                  "2]}"));
	engine_game_free(g);
	snprintf(buf, sizeof buf, setup, 4);
	g = alpha(buf);
	test_cond("§12.5 a 4 reaches the 4th step round the corner",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[5,1],'target':[5,"
	             "2]}"));
	engine_game_free(g);
	snprintf(buf, sizeof buf, setup, 1);
	g = alpha(buf);
	test_cond("§12.5 a 1 only attacks from where it stands",
	          count_ship(g, 0, "attack", 0) == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'attack','ship':0,'from':[4,0],"
	                      "'target':[5,0]}"));
	engine_game_free(g);
}

static void case_12_6_blocked_paths(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':4,'at':[3,0]},{'value':2,'at':[3,1]},"
	          "{'value':3,'at':[6,3]}],[{'value':6,'at':[6,4]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.6 a 4 routes round its own ship",
	          listed(g, 0, "{'type':'move','ship':0,'to':[3,2]}"));
	test_cond("§12.6 an enemy ship blocks too: (6,5) is 2 steps straight "
	          "but 4 round it",
	          ILLEGAL(g, 0, "{'type':'move','ship':2,'to':[6,5]}"));
	test_cond("§12.6 … and a 4-step route is fine for a 4",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,2]}"));
	test_cond("§12.6 the planet square (4,1) is never entered",
	          ILLEGAL(g, 0, "{'type':'move','ship':1,'to':[4,1]}"));
	engine_game_free(g);
}

static void case_12_7_no_zero_move(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':5,'at':[5,5]}]," FAR1 "]}");
	test_cond("§12.7 0-square move refused",
	          ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,0]}") &&
	              ILLEGAL(g, 0, "{'type':'move','ship':2,'to':[5,5]}"));
	test_cond("§12.7 and never listed", zero_moves(g, 0, 0) == 0 &&
	                                        zero_moves(g, 0, 1) == 0 &&
	                                        zero_moves(g, 0, 2) == 0);
	test_cond("§12.7 nothing was spent", st(g)->actions_left == 3);
	engine_game_free(g);
}

static void case_12_8_construct_needs_two(void)
{
	struct engine_game *g =
	    alpha("{'actions_left':1,'ships':[[{'value':3,'at':[0,4]},"
	          "{'value':4,'at':[1,3]},{'value':1,'at':[3,0]}]," FAR1 "]}");
	test_cond("§12.8 construct with 1 action refused, nothing placed",
	          ILLEGAL(g, 0, "{'type':'construct','planet':[1,4]}") &&
	              cubes_of(g, 0, 1, 4) == 0 && st(g)->actions_left == 1 &&
	              st(g)->picks[0] == 0);
	engine_game_free(g);
}

static void case_12_9_all_orbital_ships_count(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':6,'at':[3,4]},{'value':2,'at':[5,4]},"
	          "{'value':1,'at':[4,3]}]," FAR1 "]}");
	test_cond("§12.9 6+2+1 on an 8: not listed, refused",
	          count_listed(g, 0, "construct") == 0 &&
	              ILLEGAL(g, 0, "{'type':'construct','planet':[4,4]}"));
	test_cond("§12.9 move the 1 out of orbit",
	          OK(g, 0, "{'type':'move','ship':2,'to':[4,2]}"));
	test_cond("§12.9 then 6+2 = 8 builds",
	          OK(g, 0, "{'type':'construct','planet':[4,4]}") &&
	              cubes_of(g, 0, 4, 4) == 1);
	engine_game_free(g);
}

static void case_12_10_enemy_orbital_ignored(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':5,'at':[3,4]},{'value':3,'at':[5,4]},"
	    "{'value':1,'at':[0,0]}],[{'value':1,'at':[4,3]},{'value':6,'at':"
	    "[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.10 listed",
	          listed(g, 0, "{'type':'construct','planet':[4,4]}"));
	test_cond("§12.10 5+3 with an enemy 1 in orbit builds the 8",
	          OK(g, 0, "{'type':'construct','planet':[4,4]}") &&
	              cubes_of(g, 0, 4, 4) == 1 && st(g)->picks[0] == 1 &&
	              st(g)->actions_left == 1);
	engine_game_free(g);
	/* the enemy ship cannot be the missing part either */
	g = alpha("{'ships':[[{'value':5,'at':[3,4]},{'value':2,'at':[5,4]},"
	          "{'value':1,'at':[0,0]}],[{'value':1,'at':[4,3]},{'value':6,"
	          "'at':[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.10 own 5+2 plus an enemy 1 is not 8",
	          ILLEGAL(g, 0, "{'type':'construct','planet':[4,4]}"));
	engine_game_free(g);
}

static void case_12_11_diagonal_ignored(void)
{
	/* own 4+3 around the 7 at (1,4), own 1 on its corner (0,3) */
	struct engine_game *g =
	    alpha("{'ships':[[{'value':4,'at':[0,4]},{'value':3,'at':[2,4]},"
	          "{'value':1,'at':[0,3]}]," FAR1 "]}");
	test_cond("§12.11 a diagonal ship is not added: 4+3 builds the 7",
	          OK(g, 0, "{'type':'construct','planet':[1,4]}") &&
	              cubes_of(g, 0, 1, 4) == 1);
	engine_game_free(g);
	g = alpha("{'ships':[[{'value':4,'at':[0,4]},{'value':2,'at':[2,4]},"
	          "{'value':1,'at':[0,3]}]," FAR1 "]}");
	test_cond("§12.11 … nor can it make up a missing 1",
	          ILLEGAL(g, 0, "{'type':'construct','planet':[1,4]}"));
	engine_game_free(g);
}

static void case_12_12_full_seven(void)
{
	struct engine_game *g = alpha(
	    "{'dominance':[5,1],'ships':[[{'value':3,'at':[0,4]},{'value':4,"
	    "'at':[1,3]},{'value':1,'at':[3,0]}],[{'value':6,'at':[3,1]},"
	    "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'cubes':[{'seat'"
	    ":1,'planet':[1,4]}],'dice':[1,6,2]}");
	test_cond("§12.12 a 7 with an enemy cube: no construct",
	          !listed(g, 0, "{'type':'construct','planet':[1,4]}") &&
	              ILLEGAL(g, 0, "{'type':'construct','planet':[1,4]}"));
	test_cond("§12.12 win at dominance 5",
	          OK(g, 0,
	             "{'type':'attack','ship':2,'from':[3,0],'target':[3,"
	             "1]}"));
	test_cond("§12.12 no infamy on the full 7",
	          !listed(g, 0, "{'type':'infamy','planet':[1,4]}") &&
	              ILLEGAL(g, 0, "{'type':'infamy','planet':[1,4]}") &&
	              count_listed(g, 0, "infamy") == 8);
	engine_game_free(g);
}

static void case_12_13_share_an_eight(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':5,'at':[3,4]},{'value':3,'at':[5,4]},"
	          "{'value':1,'at':[0,0]}]," FAR1
	          "],'cubes':[{'seat':1,'planet':[4,4]}]}");
	test_cond("§12.13 listed",
	          listed(g, 0, "{'type':'construct','planet':[4,4]}"));
	test_cond("§12.13 an 8 with one enemy cube is shared",
	          OK(g, 0, "{'type':'construct','planet':[4,4]}") &&
	              cubes_of(g, 0, 4, 4) == 1 && cubes_of(g, 1, 4, 4) == 1 &&
	              qt_free_locations(st(g), planet(g, 4, 4)) == 0);
	engine_game_free(g);
}

/* Tactics: (1,4)=7, (4,1)=8*, (4,4)=7, (4,7)=8*, (7,4)=7.  Seat 0 has
 * cubes on (4,1), (4,7), (1,4); seat 1 fills (4,4) and (7,4): every planet
 * with room holds a cube of seat 0. */
#define TACTICS_CUBES                                                          \
	"'cubes':[{'seat':0,'planet':[4,1]},{'seat':0,'planet':[4,7]},"        \
	"{'seat':0,'planet':[1,4]},{'seat':1,'planet':[4,4]},{'seat':1,"       \
	"'planet':[7,4]}]"
#define TACTICS "{'map':'Tactics - Add-on pack'}"

static void case_12_14_entanglement(void)
{
	/* Alpha: own cube on the 8, other planets have room */
	struct engine_game *g = alpha(
	    "{'dominance':[5,1],'ships':[[{'value':5,'at':[3,4]},{'value':3,"
	    "'at':[5,4]},{'value':1,'at':[3,0]}],[{'value':6,'at':[3,1]},"
	    "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'cubes':[{'seat'"
	    ":0,'planet':[4,4]}],'dice':[1,6,2]}");
	test_cond("§12.14 own cube, room elsewhere: 5+3 = 8 refused",
	          ILLEGAL(g, 0, "{'type':'construct','planet':[4,4]}"));
	test_cond("§12.14 attack to reach dominance 6",
	          OK(g, 0,
	             "{'type':'attack','ship':2,'from':[3,0],'target':[3,"
	             "1]}") &&
	              st(g)->decision[0].kind == QT_DEC_INFAMY);
	test_cond("§12.14 infamy not on a planet already holding your cube",
	          !listed(g, 0, "{'type':'infamy','planet':[4,4]}") &&
	              ILLEGAL(g, 0, "{'type':'infamy','planet':[4,4]}") &&
	              count_listed(g, 0, "infamy") == 8);
	engine_game_free(g);

	/* Tactics: +3 per own cube already there */
	g = must(2, TACTICS,
	         "{'ships':[[{'value':4,'at':[3,1]},{'value':4,'at':[5,1]},"
	         "{'value':6,'at':[3,3]}],[{'value':3,'at':[3,7]},{'value':5,"
	         "'at':[5,7]},{'value':6,'at':[0,3]}]]," TACTICS_CUBES "}");
	test_cond("§12.14 entanglement: the plain 8 is refused (target 11)",
	          ILLEGAL(g, 0, "{'type':'construct','planet':[4,1]}") &&
	              count_listed(g, 0, "construct") == 0);
	engine_game_free(g);

	/* Tactics, infamy: allowed on own planets, no +3, no ships needed;
	 * seat 0's last cube wins mid-turn (§12.38). */
	g = must(2, TACTICS,
	         "{'dominance':[5,1],'ships':[[{'value':1,'at':[0,3]},"
	         "{'value':2,'at':[8,3]},{'value':3,'at':[8,5]}],[{'value':6,"
	         "'at':[0,4]},{'value':6,'at':[3,7]},{'value':6,'at':[5,7]}]],"
	         "'dice':[1,6,2]," TACTICS_CUBES "}");
	test_cond("§12.14 win to reach 6",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[0,3],'target':[0,"
	             "4]}"));
	test_cond("§12.14 infamy offered only on the two own 8s",
	          count_listed(g, 0, "infamy") == 2 &&
	              listed(g, 0, "{'type':'infamy','planet':[4,1]}") &&
	              listed(g, 0, "{'type':'infamy','planet':[4,7]}"));
	test_cond("§12.38 the infamy cube is the last: the game ends at once",
	          OK(g, 0, "{'type':'infamy','planet':[4,7]}") &&
	              over_won_by(g, 0) && cubes_of(g, 0, 4, 7) == 2 &&
	              st(g)->ndecisions == 0);
	engine_game_free(g);
}

/* Two own cubes on a 10: target 10 + 6.  Gamma sector; the board is
 * filled directly so that only the 10 has room. */
static void case_12_14_two_own_cubes(void)
{
	const char *setup[2] = {
	    "{'ships':[[{'value':6,'at':[3,4]},{'value':6,'at':[5,4]},"
	    "{'value':4,'at':[4,3]}],[{'value':6,'at':[0,0]},{'value':6,'at':"
	    "[0,2]},{'value':6,'at':[2,0]}],[{'value':6,'at':[8,8]},{'value':"
	    "6,'at':[8,6]},{'value':6,'at':[6,8]}],[{'value':6,'at':[0,8]},"
	    "{'value':6,'at':[0,6]},{'value':6,'at':[2,8]}]]}",
	    "{'ships':[[{'value':6,'at':[3,4]},{'value':6,'at':[5,4]},"
	    "{'value':1,'at':[4,3]}],[{'value':6,'at':[0,0]},{'value':6,'at':"
	    "[0,2]},{'value':6,'at':[2,0]}],[{'value':6,'at':[8,8]},{'value':"
	    "6,'at':[8,6]},{'value':6,'at':[6,8]}],[{'value':6,'at':[0,8]},"
	    "{'value':6,'at':[0,6]},{'value':6,'at':[2,8]}]]}"};
	for (int k = 0; k < 2; k++) {
		struct engine_game *g = must(4, NULL, setup[k]);
		struct qt_state *q = st(g);
		for (int p = 0; p < q->board.nplanets; p++)
			for (int j = 0; j < q->board.planet[p].number - 6; j++)
				q->cube[p][j] = (int8_t)(1 + (p + j) % 3);
		int ten = planet(g, 4, 4);
		q->cube[ten][0] = q->cube[ten][1] = 0;
		q->cube[ten][2] = q->cube[ten][3] = -1;
		if (k == 0)
			test_cond(
			    "§12.14 two own cubes on a 10: 6+6+4 = 16",
			    OK(g, 0, "{'type':'construct','planet':[4,4]}") &&
			        cubes_of(g, 0, 4, 4) == 3);
		else
			test_cond("§12.14 two own cubes on a 10: 13 refused",
			          ILLEGAL(g, 0,
			                  "{'type':'construct','planet':[4,"
			                  "4]}"));
		engine_game_free(g);
	}
}

/* ---- combat (§12.15-§12.23) ---- */

static void case_12_15_tie(void)
{
	/* 4+2 = 6 against 1+5 = 6: the attacker wins */
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':4,'at':[3,0]},{'value':2,'at':[0,0]},"
	    "{'value':4,'at':'scrapyard'}],[{'value':1,'at':[3,2]},{'value':"
	    "6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[2,5,3]}");
	test_cond("§12.15 tie: attacker wins",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,1],'target':[3,"
	             "2]}") &&
	              in_scrapyard(g, 1, 0) && st(g)->dominance[0] == 2);
	engine_game_free(g);
	/* one more for the attacker, 4+3 = 7 against 6: repelled */
	g = alpha("{'ships':[[{'value':4,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':1,'at':[3,2]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[3,5]"
	          "}");
	test_cond("§12.15 higher attacker total loses",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,1],'target':[3,"
	             "2]}") &&
	              ship_on(g, 1, 0, 3, 2) && ship_on(g, 0, 0, 3, 1) &&
	              st(g)->ndecisions == 0);
	engine_game_free(g);
}

static void case_12_16_repelled(void)
{
	/* the 4 starts at (3,0), launches from (5,1) round a corner */
	struct engine_game *g = alpha(
	    "{'dominance':[3,3],'ships':[[{'value':4,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'}],[{'value':1,'at':[5,2]"
	    "},{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[6,1]}");
	test_cond("§12.16 attack",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[5,1],'target':[5,"
	             "2]}"));
	test_cond("§12.16 repelled onto its launch square, not its start",
	          ship_on(g, 0, 0, 5, 1) && ship(g, 0, 0)->value == 4);
	test_cond("§12.16 nobody destroyed, dominance unchanged",
	          ship_on(g, 1, 0, 5, 2) && ship(g, 1, 0)->value == 1 &&
	              st(g)->dominance[0] == 3 && st(g)->dominance[1] == 3);
	test_cond("§12.16 the move and one action are spent",
	          ship(g, 0, 0)->moved && st(g)->actions_left == 2 &&
	              count_ship(g, 0, "move", 0) == 0 &&
	              st(g)->ndecisions == 0 && st(g)->last_dice_n == 2);
	engine_game_free(g);
}

static void case_12_17_won_and_stay(void)
{
	struct engine_game *g = alpha(
	    "{'dominance':[2,1],'ships':[[{'value':2,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'}],[{'value':5,'at':[3,2]"
	    "},{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,1,"
	    "6]}");
	test_cond("§12.17 attack",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,1],'target':[3,"
	             "2]}"));
	test_cond("§12.17 the defender is re-rolled into its scrapyard",
	          in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 6);
	test_cond("§12.17 attacker +1, defender stays at 1 (min 1)",
	          st(g)->dominance[0] == 3 && st(g)->dominance[1] == 1);
	test_cond("§12.17 nothing else before advance/stay",
	          count_listed(g, 0, "move") == 0 &&
	              ILLEGAL(g, 0, "{'type':'move','ship':1,'to':[0,2]}") &&
	              count_listed(g, 0, "stay") == 1);
	test_cond("§12.17 stay",
	          OK(g, 0, "{'type':'stay'}") && ship_on(g, 0, 0, 3, 1));
	test_cond("§12.17 the square it left stays empty",
	          qt_square_free(st(g), (struct qt_sq){3, 2}));
	test_cond("§12.17 decided once", ILLEGAL(g, 0, "{'type':'advance'}") &&
	                                     st(g)->actions_left == 2);
	engine_game_free(g);
}

static void case_12_18_same_number(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':2,'at':[3,0]},{'value':2,'at':[0,0]},"
	    "{'value':4,'at':'scrapyard'}],[{'value':4,'at':[3,1]},{'value':"
	    "6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,6,4,5]}");
	test_cond("§12.18 attack",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,0],'target':[3,"
	             "1]}"));
	test_cond("§12.18 the re-roll may show the same 4 (one die used)",
	          in_scrapyard(g, 1, 0) && ship(g, 1, 0)->value == 4 &&
	              st(g)->last_dice_n == 3 && g->rng.script_pos == 3);
	engine_game_free(g);
}

static void case_12_19_no_modify_mid_move(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':4,'at':[3,0]},{'value':4,'at':[0,0]},"
	    "{'value':1,'at':[8,0]}],[{'value':6,'at':[3,3]},{'value':6,'at':"
	    "[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,6,2]}");
	test_cond("§12.19 the frigate moves next to the enemy",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,2]}"));
	test_cond("§12.19 modify now is after the move",
	          OK(g, 0, "{'type':'modify','ship':0,'value':3}"));
	test_cond("§12.19 there is no attack left for that move",
	          count_ship(g, 0, "attack", 0) == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'attack','ship':0,'from':[3,2],"
	                      "'target':[3,3]}"));
	/* §6.2: a frigate that has not moved may modify, then move with
	 * the new number */
	test_cond("§6.2 modify before moving",
	          OK(g, 0, "{'type':'modify','ship':1,'value':5}"));
	test_cond("§6.2 then move 5 squares",
	          OK(g, 0, "{'type':'move','ship':1,'to':[0,5]}"));
	engine_game_free(g);
}

static void case_12_20_strike_extra(void)
{
	/* STRIKE first, then the normal move/attack (rulebook p.8 either
	 * order) */
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':1,'at':[3,0]},{'value':2,'at':[0,0]},"
	    "{'value':4,'at':'scrapyard'}],[{'value':5,'at':[3,1]},{'value':"
	    "5,'at':[2,0]},{'value':6,'at':[6,8]}]],'dice':[1,6,3,1,6,2]}");
	test_cond("§12.20 strike",
	          OK(g, 0, "{'type':'strike','ship':0,'target':[2,0]}") &&
	              in_scrapyard(g, 1, 1));
	test_cond("§12.20 stay", OK(g, 0, "{'type':'stay'}"));
	test_cond("§12.20 strike is not the move: the move-attack is listed",
	          listed(g, 0,
	                 "{'type':'attack','ship':0,'from':[3,0],'target':[3,"
	                 "1]}") &&
	              ship(g, 0, 0)->moved == 0 && st(g)->actions_left == 3);
	test_cond("§12.20 move-attack the other neighbour",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[3,0],'target':[3,"
	             "1]}") &&
	              in_scrapyard(g, 1, 0));
	test_cond("§12.20 advance",
	          OK(g, 0, "{'type':'advance'}") && ship_on(g, 0, 0, 3, 1));
	test_cond("§12.20 one action for two kills, dominance 3",
	          st(g)->actions_left == 2 && st(g)->dominance[0] == 3);
	engine_game_free(g);
}

static void case_12_21_no_diagonal_strike(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':1,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':5,'at':[2,1]},"
	          "{'value':5,'at':[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond(
	    "§12.21 diagonal strike: not listed, refused",
	    count_listed(g, 0, "strike") == 0 &&
	        ILLEGAL(g, 0, "{'type':'strike','ship':0,'target':[2,1]}") &&
	        ship(g, 0, 0)->ability_used == 0);
	engine_game_free(g);
}

static void case_12_22_interceptor_diagonal(void)
{
	/* repelled: back to its diagonal launch square */
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':5,'at':[3,0]},{'value':2,'at':[0,0]},"
	    "{'value':4,'at':'scrapyard'}],[{'value':2,'at':[5,3]},{'value':"
	    "6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[6,1]}");
	test_cond("§12.22 diagonal attack repelled",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[4,2],'target':[5,"
	             "3]}") &&
	              ship_on(g, 0, 0, 4, 2) && ship(g, 0, 0)->ability_used &&
	              ship_on(g, 1, 0, 5, 3));
	engine_game_free(g);
	/* won: may advance diagonally */
	g = alpha("{'ships':[[{'value':5,'at':[4,2]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[5,3]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,6,"
	          "3]}");
	test_cond("§12.22 diagonal attack from where it stands",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[4,2],'target':[5,"
	             "3]}") &&
	              in_scrapyard(g, 1, 0) && ship(g, 0, 0)->ability_used);
	test_cond("§12.22 advance diagonally",
	          OK(g, 0, "{'type':'advance'}") && ship_on(g, 0, 0, 5, 3));
	engine_game_free(g);
	/* not a 5 any more: no diagonal attack */
	g = alpha("{'ships':[[{'value':4,'at':[4,2]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[5,3]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.22 only the interceptor attacks diagonally",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':0,'from':[4,2],'target':[5,"
	                  "3]}"));
	engine_game_free(g);
}

static void case_12_23_corner_squeeze(void)
{
	/* (2,2) to (3,3) between own (2,3) and an enemy (3,2) */
	struct engine_game *g =
	    alpha("{'ships':[[{'value':5,'at':[2,2]},{'value':6,'at':[2,3]},"
	          "{'value':1,'at':[0,0]}],[{'value':6,'at':[3,2]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.23 squeeze listed",
	          listed(g, 0, "{'type':'move','ship':0,'to':[3,3]}"));
	test_cond("§12.23 squeeze",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,3]}") &&
	              ship(g, 0, 0)->ability_used);
	engine_game_free(g);
}

/* ---- abilities (§12.30-§12.37) ---- */

static void case_12_30_carry_moved(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':2,'at':[3,3]},{'value':4,'at':[3,0]},"
	          "{'value':3,'at':[0,0]}]," FAR1 "]}");
	test_cond("§12.30 the passenger moves first",
	          OK(g, 0, "{'type':'move','ship':1,'to':[2,3]}"));
	test_cond("§12.30 a moved ship may be carried",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[3,5],"
	             "'drop':[2,6]}") &&
	              ship_on(g, 0, 1, 2, 6) && ship_on(g, 0, 0, 3, 5));
	test_cond("§12.30 after the drop it still cannot move",
	          count_ship(g, 0, "move", 1) == 0 &&
	              ILLEGAL(g, 0, "{'type':'move','ship':1,'to':[2,7]}"));
	engine_game_free(g);
}

static void case_12_31_carry_then_attack(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':2,'at':[3,3]},{'value':3,'at':[2,2]},"
	    "{'value':4,'at':[0,0]}],[{'value':6,'at':[6,6]},{'value':6,'at':"
	    "[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,6,2]}");
	test_cond("§12.31 carry 2 squares",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[5,3],"
	             "'drop':[6,4]}") &&
	              ship(g, 0, 1)->moved == 0 && st(g)->actions_left == 2);
	/* 3+1 = 4 against 6+6 = 12 */
	test_cond("§12.31 the passenger then attacks with its own move",
	          OK(g, 0,
	             "{'type':'attack','ship':1,'from':[6,5],'target':[6,"
	             "6]}") &&
	              in_scrapyard(g, 1, 0) && st(g)->actions_left == 1);
	engine_game_free(g);
}

static void case_12_32_no_attack_while_carrying(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':2,'at':[3,3]},{'value':3,'at':[3,2]},"
	    "{'value':4,'at':[0,0]}],[{'value':6,'at':[3,5]},{'value':6,'at':"
	    "[8,6]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.32 no transport onto the enemy's square",
	          ILLEGAL(g, 0,
	                  "{'type':'transport','ship':0,'passenger':1,'to':[3,"
	                  "5],'drop':[2,4]}") &&
	              ILLEGAL(g, 0,
	                      "{'type':'transport','ship':0,'passenger':1,"
	                      "'to':[3,5],'drop':[3,4]}"));
	test_cond("§12.32 transport next to it",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[3,4],"
	             "'drop':[2,5]}"));
	test_cond("§12.32 the transport was the flagship's move: no attack",
	          count_ship(g, 0, "attack", 0) == 0 &&
	              ILLEGAL(g, 0,
	                      "{'type':'attack','ship':0,'from':[3,4],"
	                      "'target':[3,5]}"));
	engine_game_free(g);
}

static void case_12_33_out_and_back(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':2,'at':[3,3]},{'value':4,'at':[3,2],"
	          "'moved':true},{'value':3,'at':[0,0]}]," FAR1 "]}");
	test_cond("§12.33 out and back listed",
	          listed(g, 0,
	                 "{'type':'transport','ship':0,'passenger':1,'to':[3,"
	                 "3],'drop':[4,3]}"));
	test_cond("§12.33 out and back",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[3,3],"
	             "'drop':[4,3]}") &&
	              ship_on(g, 0, 0, 3, 3) && ship_on(g, 0, 1, 4, 3) &&
	              ship(g, 0, 0)->moved && st(g)->actions_left == 2);
	engine_game_free(g);
	/* §7: a plain move back home is still a 0-square move */
	g = alpha("{'ships':[[{'value':2,'at':[3,3]},{'value':4,'at':[3,2]},"
	          "{'value':3,'at':[0,0]}]," FAR1 "]}");
	test_cond("§12.33 a move (not transport) home stays illegal",
	          ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,3]}"));
	engine_game_free(g);
}

static void case_12_34_flagship_chain(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':2,'at':[3,3]},{'value':2,'at':[3,4]},"
	          "{'value':4,'at':[2,3]}]," FAR1 "]}");
	test_cond("§12.34 A carries flagship B",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[5,3],"
	             "'drop':[6,3]}"));
	test_cond("§12.34 B, carried, transports A in turn",
	          OK(g, 0,
	             "{'type':'transport','ship':1,'passenger':0,'to':[6,5],"
	             "'drop':[7,6]}") &&
	              ship_on(g, 0, 1, 6, 5) && ship_on(g, 0, 0, 7, 6));
	engine_game_free(g);
}

static void case_12_35_warp_then_move(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[0,0]},{'value':4,'at':[6,6]},"
	          "{'value':1,'at':[3,0]}],[{'value':6,'at':[8,8]},{'value':6,"
	          "'at':[8,7]},{'value':6,'at':[7,8]}]]}");
	test_cond("§12.35 warp across the map",
	          OK(g, 0, "{'type':'warp','ship':0,'with':1}") &&
	              ship_on(g, 0, 0, 6, 6) && ship_on(g, 0, 1, 0, 0));
	test_cond("§12.35 no action, no move used", st(g)->actions_left == 3 &&
	                                                !ship(g, 0, 0)->moved &&
	                                                !ship(g, 0, 1)->moved);
	test_cond("§12.35 the destroyer then moves 3",
	          OK(g, 0, "{'type':'move','ship':0,'to':[6,3]}"));
	test_cond("§12.35 and its partner moves too",
	          OK(g, 0, "{'type':'move','ship':1,'to':[0,4]}"));
	engine_game_free(g);
}

static void case_12_36_modify_then_warp(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':4,'at':[0,0]},{'value':4,'at':[6,6]},"
	          "{'value':1,'at':[3,0]}]," FAR1 "]}");
	test_cond("§12.36 modify to 3",
	          OK(g, 0, "{'type':'modify','ship':0,'value':3}"));
	test_cond("§12.36 no warp: not listed, refused",
	          count_ship(g, 0, "warp", 0) == 0 &&
	              ILLEGAL(g, 0, "{'type':'warp','ship':0,'with':1}"));
	test_cond("§12.36 modify once",
	          ILLEGAL(g, 0, "{'type':'modify','ship':0,'value':5}"));
	engine_game_free(g);
}

static void case_12_37_scout(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':6,'at':[0,0]},{'value':4,'at':[6,6]},"
	          "{'value':1,'at':[3,0]}]," FAR1 "],'dice':[6,6,3]}");
	test_cond("§12.37 scout re-rolls past two 6s",
	          OK(g, 0, "{'type':'scout','ship':0}") &&
	              ship(g, 0, 0)->value == 3 && g->rng.script_pos == 3 &&
	              st(g)->actions_left == 3);
	test_cond("§12.37 it may then move with the new 3",
	          OK(g, 0, "{'type':'move','ship':0,'to':[0,3]}"));
	engine_game_free(g);
}

/* ---- §6.2 general, §5: flags, reach, reconfigure ---- */

/* §6.2: the die keeps its "ability used" flag when its number changes. */
static void case_6_2_ability_flag_kept(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':4,'at':[2,2]},{'value':6,'at':[3,4]},"
	    "{'value':6,'at':[6,6]},{'value':4,'at':[2,3]}],[{'value':6,'at':"
	    "[3,5]},{'value':6,'at':[3,2]},{'value':6,'at':[6,8]}]],'dice':[1,"
	    "2,1]}");
	test_cond("§6.2 frigate modifies to 5",
	          OK(g, 0, "{'type':'modify','ship':0,'value':5}"));
	/* (3,3) is only reached by slipping between (2,3) and (3,2) */
	test_cond("§6.2 … and may not MANEUVER: diagonal move refused",
	          ILLEGAL(g, 0, "{'type':'move','ship':0,'to':[3,3]}") &&
	              !listed(g, 0, "{'type':'move','ship':0,'to':[3,3]}"));
	test_cond("§6.2 … it moves orthogonally with its 5",
	          OK(g, 0, "{'type':'move','ship':0,'to':[0,5]}"));
	test_cond("§6.2 scout re-rolls into a 1",
	          OK(g, 0, "{'type':'scout','ship':1}") &&
	              ship(g, 0, 1)->value == 1);
	test_cond(
	    "§6.2 … and may not STRIKE the enemy next to it",
	    count_ship(g, 0, "strike", 1) == 0 &&
	        ILLEGAL(g, 0, "{'type':'strike','ship':1,'target':[3,5]}"));
	test_cond("§6.2 scout re-rolls into a 2",
	          OK(g, 0, "{'type':'scout','ship':2}") &&
	              ship(g, 0, 2)->value == 2);
	test_cond("§6.2 … and may not TRANSPORT (it still moves)",
	          count_ship(g, 0, "transport", 2) == 0 &&
	              count_ship(g, 0, "move", 2) > 0);
	test_cond("§5 reconfigure is no ability: a 4 becomes a 1",
	          OK(g, 0, "{'type':'reconfigure','ship':3}") &&
	              ship(g, 0, 3)->value == 1);
	engine_game_free(g);
	/* a reconfigured 1 that has used no ability may strike */
	g = alpha("{'ships':[[{'value':4,'at':[3,4]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[3,5]},"
	          "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,1,"
	          "6,3]}");
	test_cond("§6.2 reconfigure into a 1",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              ship(g, 0, 0)->value == 1);
	test_cond("§6.2 the new 1 strikes (no ability used yet)",
	          OK(g, 0, "{'type':'strike','ship':0,'target':[3,5]}") &&
	              in_scrapyard(g, 1, 0));
	engine_game_free(g);
}

/* §5, §6.1: only enemy ships are attacked. */
static void case_6_1_no_friendly_fire(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':1,'at':[3,0]},{'value':3,'at':[3,1]},"
	          "{'value':4,'at':'scrapyard'}]," FAR1 "]}");
	test_cond("§6.1 no attack on an own ship",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':1,'from':[3,1],'target':[3,"
	                  "0]}") &&
	              count_listed(g, 0, "attack") == 0);
	test_cond("§6.2 no strike on an own ship",
	          ILLEGAL(g, 0, "{'type':'strike','ship':0,'target':[3,1]}") &&
	              count_listed(g, 0, "strike") == 0);
	engine_game_free(g);
}

/* §12.5 with MANEUVER: a 5 attacks diagonally on its 5th step. */
static void case_12_5_interceptor_reach(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':5,'at':[0,0]},{'value':2,'at':[8,0]},"
	          "{'value':4,'at':'scrapyard'}],[{'value':6,'at':[1,5]},"
	          "{'value':6,'at':[0,8]},{'value':6,'at':[6,8]}]]}");
	test_cond("§12.5 (1,5) from (0,4): 4 steps and a diagonal attack",
	          listed(g, 0,
	                 "{'type':'attack','ship':0,'from':[0,4],'target':[1,"
	                 "5]}"));
	test_cond("§12.5 (0,8) is the 8th step: no attack",
	          ILLEGAL(g, 0,
	                  "{'type':'attack','ship':0,'from':[0,7],'target':[0,"
	                  "8]}") &&
	              ILLEGAL(g, 0,
	                      "{'type':'attack','ship':0,'from':[1,7],"
	                      "'target':[0,8]}"));
	test_cond("§12.5 the diagonal attack uses MANEUVER",
	          OK(g, 0,
	             "{'type':'attack','ship':0,'from':[0,4],'target':[1,"
	             "5]}") &&
	              ship(g, 0, 0)->ability_used == 1);
	engine_game_free(g);
}

/* §5 Reconfigure a scrapyard ship, then Deploy it with its new number. */
static void case_5_reconfigure_then_deploy(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':2,'at':'scrapyard'}]," FAR1
	          "],'cubes':[{'seat':0,'planet':[1,1]}],'dice':[2,2,5]}");
	test_cond("§5 reconfigure in the scrapyard: 2, 2 skipped, 5",
	          OK(g, 0, "{'type':'reconfigure','ship':2}") &&
	              ship(g, 0, 2)->value == 5 && in_scrapyard(g, 0, 2));
	test_cond("§5 deploy keeps the number",
	          OK(g, 0, "{'type':'deploy','ship':2,'to':[2,1]}") &&
	              ship_on(g, 0, 2, 2, 1) && ship(g, 0, 2)->value == 5 &&
	              st(g)->actions_left == 1);
	test_cond("§5 deploy only from the scrapyard",
	          ILLEGAL(g, 0, "{'type':'deploy','ship':0,'to':[1,2]}") &&
	              ILLEGAL(g, 0, "{'type':'deploy','ship':3,'to':[1,2]}"));
	engine_game_free(g);
}

/* §5 Reconfigure "does not count as the ship's move or ability". */
static void case_5_reconfigure_is_no_move(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':3,'at':[3,0]},{'value':2,'at':[0,0]},"
	          "{'value':4,'at':'scrapyard'}]," FAR1 "],'dice':[6,2]}");
	test_cond("§5 reconfigure a map ship",
	          OK(g, 0, "{'type':'reconfigure','ship':0}") &&
	              ship(g, 0, 0)->value == 6 && !ship(g, 0, 0)->moved &&
	              !ship(g, 0, 0)->ability_used);
	test_cond("§5 then it moves with its new 6",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,6]}"));
	test_cond("§5 and uses its new ability",
	          OK(g, 0, "{'type':'scout','ship':0}") &&
	              ship(g, 0, 0)->value == 2);
	engine_game_free(g);
}

/* §6.2 TRANSPORT: 1 or 2 squares, drop on a surrounding square. */
static void case_6_2_transport_limits(void)
{
	struct engine_game *g =
	    alpha("{'ships':[[{'value':2,'at':[3,3]},{'value':3,'at':[3,2]},"
	          "{'value':4,'at':[0,0]}]," FAR1 "]}");
	test_cond("§6.2 no drop two squares from the flagship",
	          ILLEGAL(g, 0,
	                  "{'type':'transport','ship':0,'passenger':1,'to':[3,"
	                  "5],'drop':[3,7]}") &&
	              ILLEGAL(g, 0,
	                      "{'type':'transport','ship':0,'passenger':1,"
	                      "'to':[3,5],'drop':[5,5]}"));
	test_cond("§6.2 no flight of 3 squares",
	          ILLEGAL(g, 0,
	                  "{'type':'transport','ship':0,'passenger':1,'to':[3,"
	                  "6],'drop':[3,7]}"));
	test_cond("§6.2 the passenger must surround the flagship",
	          ILLEGAL(g, 0,
	                  "{'type':'transport','ship':0,'passenger':2,'to':[3,"
	                  "5],'drop':[2,5]}"));
	test_cond("§6.2 a legal transport",
	          OK(g, 0,
	             "{'type':'transport','ship':0,'passenger':1,'to':[3,5],"
	             "'drop':[4,6]}") &&
	              ship_on(g, 0, 1, 4, 6) && ship_on(g, 0, 0, 3, 5));
	engine_game_free(g);
}

/* §7.1, §14: off-turn card picks come after the active player's, then
 * in turn order from the active player.  As in test_quantum.c, the
 * off-turn dominance gain (STUBBORN's, §9.2 #28) is made directly. */
static void case_7_1_off_turn_pick_order(void)
{
	struct engine_game *g = must(
	    3, "{'map':'Beta sector - Basic map'}",
	    "{'first_player':2,'research':[1,1,6],'dominance':[5,5,1],"
	    "'ships':[[{'value':6,'at':[0,0]},{'value':6,'at':[0,2]},"
	    "{'value':6,'at':[2,0]}],[{'value':6,'at':[8,8]},{'value':6,'at':"
	    "[8,6]},{'value':6,'at':[6,8]}],[{'value':3,'at':[3,0]},"
	    "{'value':2,'at':[3,3]},{'value':4,'at':[3,6]}]]}");
	qt_gain_dominance(st(g), 0, 1);
	test_cond("§7.1 seat 0 places its infamy cube now",
	          OK(g, 0, "{'type':'infamy','planet':[4,4]}"));
	qt_gain_dominance(st(g), 1, 1);
	test_cond("§7.1 seat 1 too",
	          OK(g, 1, "{'type':'infamy','planet':[1,1]}"));
	test_cond("§7.1 end seat 2's turn", OK(g, 2, "{'type':'end_turn'}") &&
	                                        st(g)->phase == QT_PH_CARDS);
	test_cond("§14 the active seat 2 picks first",
	          engine_game_to_act(g) == 4u &&
	              OK(g, 2, "{'type':'refresh_cards'}"));
	test_cond("§14 then seat 0 (next after 2)",
	          engine_game_to_act(g) == 1u &&
	              OK(g, 0, "{'type':'refresh_cards'}"));
	test_cond("§14 then seat 1", engine_game_to_act(g) == 2u &&
	                                 OK(g, 1, "{'type':'refresh_cards'}"));
	test_cond("§4 then seat 0's own turn",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->active == 0);
	engine_game_free(g);
}

/* §7.1, §14 "no legal infamy square: dominance stays 6, retry on the
 * next gain", with two infamy placements queued at once: the first one
 * takes the last free cube location.  No single action raises two seats
 * to 6, so the gains are made directly, as test_quantum.c does for
 * off-turn infamy. */
static void case_14_second_infamy_without_square(void)
{
	struct engine_game *g = alpha(
	    "{'dominance':[5,5],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1 "]}");
	struct qt_state *q = st(g);
	for (int p = 0; p < q->board.nplanets; p++)
		for (int j = 0; j < q->board.planet[p].number - 6; j++)
			q->cube[p][j] = (int8_t)((p + j) % 2);
	q->cube[planet(g, 1, 4)][0] = -1; /* the last free location */
	/* one action's new decisions queue in the order they arose */
	qt_gain_dominance(q, 0, 1);
	qt_gain_dominance(q, 1, 1);
	test_cond("§7.1 both infamy placements queued, seat 0 first",
	          q->ndecisions == 2 && q->decision[0].seat == 0 &&
	              q->decision[1].seat == 1);
	test_cond("§7.1 seat 0 takes the last location",
	          OK(g, 0, "{'type':'infamy','planet':[1,4]}"));
	test_cond("§14 seat 1 has no square left: no decision is owed",
	          q->ndecisions == 0 && q->dominance[1] == 6 &&
	              engine_game_to_act(g) == 1u);
	test_cond("§14 and the game goes on (seat 0 can act)",
	          count_listed(g, 0, "end_turn") == 1);
	engine_game_free(g);
}

/* §12.45: both expansion ships in play (one of them destroyed). */
static void case_12_45_no_expansion(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'},{'value':1,'at':[5,5]},"
	    "{'value':6,'at':'scrapyard'}]," FAR1
	    "],'row':{'gambit':['expansion','aggression','sabotage']}}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond("§12.45 both expansion ships in play: not takeable",
	          !listed(g, 0, "{'type':'take_card','card':'expansion'}") &&
	              ILLEGAL(g, 0, "{'type':'take_card','card':'expansion'}"));
	engine_game_free(g);
}

/* ---- dominance, infamy, research and cards (§12.38-§12.51) ---- */

static void case_12_39_picks(void)
{
	/* construct (a card) and infamy (another card) in one turn */
	struct engine_game *g = alpha(
	    "{'dominance':[5,1],'ships':[[{'value':3,'at':[0,4]},{'value':4,"
	    "'at':[1,3]},{'value':1,'at':[3,0]}],[{'value':6,'at':[3,1]},"
	    "{'value':6,'at':[8,6]},{'value':6,'at':[6,8]}]],'dice':[1,6,2]}");
	test_cond("§12.39 construct",
	          OK(g, 0, "{'type':'construct','planet':[1,4]}"));
	test_cond("§12.39 win to 6",
	          OK(g, 0,
	             "{'type':'attack','ship':2,'from':[3,0],'target':[3,"
	             "1]}"));
	test_cond("§12.39 infamy on the 8",
	          OK(g, 0, "{'type':'infamy','planet':[4,4]}") &&
	              st(g)->dominance[0] == 1 && st(g)->cubes_left[0] == 3);
	test_cond("§12.39 stay", OK(g, 0, "{'type':'stay'}"));
	test_cond("§12.39 end turn: two picks",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->picks[0] == 2 &&
	              st(g)->phase == QT_PH_CARDS);
	test_cond("§12.39 pick 1", OK(g, 0, "{'type':'refresh_cards'}") &&
	                               st(g)->phase == QT_PH_CARDS);
	test_cond("§12.39 pick 2", OK(g, 0, "{'type':'refresh_cards'}") &&
	                               st(g)->phase == QT_PH_ACTIONS &&
	                               st(g)->active == 1);
	engine_game_free(g);
}

static void case_12_41_aggression_at_five(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'dominance':[5,1],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'cubes':[{'seat':0,'planet':[1,1]}],'row':{'command':['agile',"
	    "'brilliant','cruel'],'gambit':['aggression','momentum',"
	    "'sabotage']}}");
	test_cond("§12.41 end turn: the research pick",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->picks[0] == 1);
	test_cond("§12.41 aggression at 5: capped at 6, infamy",
	          OK(g, 0, "{'type':'take_card','card':'aggression'}") &&
	              st(g)->dominance[0] == 6 && st(g)->ndecisions == 1 &&
	              st(g)->decision[0].kind == QT_DEC_INFAMY);
	test_cond("§12.41 no card while infamy is owed",
	          ILLEGAL(g, 0, "{'type':'take_card','card':'agile'}"));
	test_cond("§12.41 infamy",
	          OK(g, 0, "{'type':'infamy','planet':[1,4]}") &&
	              st(g)->picks[0] == 1 && st(g)->phase == QT_PH_CARDS &&
	              engine_game_to_act(g) == 1);
	engine_game_free(g);
}

static void case_12_42_research(void)
{
	struct engine_game *g = alpha(
	    "{'research':[5,1],'ships':[[{'value':3,'at':[3,0]},"
	    "{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1 "]}");
	test_cond("§12.42 research 5: no card",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              st(g)->phase == QT_PH_ACTIONS && st(g)->active == 1 &&
	              st(g)->research[0] == 5);
	engine_game_free(g);
	g = alpha("{'research':[5,1],'ships':[[{'value':3,'at':[3,0]},"
	          "{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	          "]}");
	test_cond("§12.42 research action to 6",
	          OK(g, 0, "{'type':'research'}") && st(g)->research[0] == 6);
	test_cond("§12.42 Phase 2: one card, research back to 1",
	          OK(g, 0, "{'type':'end_turn'}") &&
	              st(g)->phase == QT_PH_CARDS && st(g)->picks[0] == 1 &&
	              st(g)->research[0] == 1);
	engine_game_free(g);
}

static void case_12_45_expansion(void)
{
	/* ship 3 in play, ship 4 in reserve: EXPANSION brings ship 4 */
	struct engine_game *g = alpha(
	    "{'research':[6,1],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'},{'value':1,'at':[5,5]}]"
	    "," FAR1
	    "],'cubes':[{'seat':0,'planet':[1,1]}],'row':{'gambit':['expansion"
	    "','aggression','sabotage']},'dice':[5]}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond("§12.45 one expansion ship left: takeable",
	          OK(g, 0, "{'type':'take_card','card':'expansion'}") &&
	              ship(g, 0, 4)->value == 5);
	test_cond("§12.45 place ship 4",
	          OK(g, 0, "{'type':'place_ship','ship':4,'to':[0,1]}") &&
	              ship_on(g, 0, 4, 0, 1));
	engine_game_free(g);
}

static void case_12_46_gambit_now(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'dominance':[2,1],'ships':[[{'value':3,'at':[3,"
	    "0]},{'value':2,'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'row':{'gambit':['aggression','momentum','sabotage']}}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond(
	    "§12.46 a gambit resolves when taken, is not held",
	    OK(g, 0, "{'type':'take_card','card':'aggression'}") &&
	        st(g)->dominance[0] == 4 && st(g)->held[0][0] == QT_NO_CARD &&
	        st(g)->gam_discard[st(g)->gam_discard_n - 1] == QT_AGGRESSION);
	engine_game_free(g);
}

static void case_12_47_momentum_resets(void)
{
	/* Pivot point: the Void tile covers rows 3-5, cols 3-5 */
	struct engine_game *g =
	    must(3, "{'map':'Pivot point - The Void'}",
	         "{'research':[6,1,1],'ships':[[{'value':6,'at':[4,4]},"
	         "{'value':1,'at':[8,0]},{'value':2,'at':[6,0]}],[{'value':3,"
	         "'at':[0,6]},{'value':3,'at':[0,8]},{'value':3,'at':[2,8]}],"
	         "[{'value':4,'at':[8,8]},{'value':4,'at':[8,6]},{'value':4,"
	         "'at':[6,8]}]],'cubes':[{'seat':0,'planet':[4,1]}],'row':{"
	         "'gambit':['momentum','aggression','sabotage']},'dice':[3,"
	         "2]}");
	test_cond("§12.47 scout ability",
	          OK(g, 0, "{'type':'scout','ship':0}"));
	test_cond("§12.47 scout moves",
	          OK(g, 0, "{'type':'move','ship':0,'to':[4,5]}") &&
	              ship(g, 0, 0)->value == 3);
	test_cond("§12.47 end turn: the research pick, research 1",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->picks[0] == 1 &&
	              st(g)->research[0] == 1);
	test_cond("§12.47 momentum",
	          OK(g, 0, "{'type':'take_card','card':'momentum'}") &&
	              st(g)->phase == QT_PH_ACTIONS && st(g)->active == 0 &&
	              st(g)->actions_left == 2);
	test_cond("§12.47 a brand-new turn: Void research at its start",
	          st(g)->research[0] == 2);
	test_cond("§12.47 the ship may move again",
	          OK(g, 0, "{'type':'move','ship':0,'to':[4,3]}"));
	test_cond("§12.47 abilities are fresh: warp (the 3 used scout)",
	          OK(g, 0, "{'type':'warp','ship':0,'with':1}"));
	test_cond("§12.47 after the bonus turn the next seat plays",
	          OK(g, 0, "{'type':'end_turn'}") && st(g)->active == 1 &&
	              st(g)->actions_left == 3 && !st(g)->bonus_turn);
	engine_game_free(g);
}

static void case_12_49_reorganization(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'ships':[[{'value':3,'at':[0,1]},{'value':2,"
	    "'at':[5,5]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'cubes':[{'seat':0,'planet':[1,1]}],'row':{'gambit':["
	    "'reorganization','aggression','sabotage']},'dice':[6,6]}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond("step take",
	          OK(g, 0, "{'type':'take_card','card':'reorganization'}"));
	test_cond("§12.49 reorganize a map ship and a scrapyard ship",
	          OK(g, 0, "{'type':'reorganize','ships':[0,2]}") &&
	              ship(g, 0, 0)->value == 6 && ship(g, 0, 2)->value == 6);
	test_cond("§12.49 not round a planet without your cube",
	          ILLEGAL(g, 0, "{'type':'place_ship','ship':0,'to':[0,4]}"));
	test_cond("§12.49 not on open space",
	          ILLEGAL(g, 0, "{'type':'place_ship','ship':0,'to':[3,3]}"));
	test_cond("§12.49 its old orbital square is free again",
	          OK(g, 0, "{'type':'place_ship','ship':0,'to':[0,1]}"));
	test_cond("§12.49 not on a taken square",
	          ILLEGAL(g, 0, "{'type':'place_ship','ship':2,'to':[0,1]}"));
	test_cond("§12.49 the other to an orbital",
	          OK(g, 0, "{'type':'place_ship','ship':2,'to':[1,0]}") &&
	              ship_on(g, 0, 2, 1, 0) && ship_on(g, 0, 1, 5, 5));
	engine_game_free(g);
}

static void case_12_50_relocation(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'cubes':[{'seat':0,'planet':[1,1]},{'seat':1,'planet':[7,7]},"
	    "{'seat':1,'planet':[4,4]},{'seat':0,'planet':[1,4]}],'row':{"
	    "'gambit':['relocation','aggression','sabotage']}}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond("step take",
	          OK(g, 0, "{'type':'take_card','card':'relocation'}"));
	test_cond("§12.50 not to a planet with the owner's cube",
	          ILLEGAL(g, 0,
	                  "{'type':'relocate','owner':1,'from':[7,7],'to':[4,"
	                  "4]}"));
	test_cond("§12.50 not to a full planet",
	          ILLEGAL(g, 0,
	                  "{'type':'relocate','owner':1,'from':[7,7],'to':[1,"
	                  "4]}"));
	test_cond("§12.50 from the 8 to a free 7",
	          OK(g, 0,
	             "{'type':'relocate','owner':1,'from':[4,4],'to':[4,"
	             "7]}") &&
	              cubes_of(g, 1, 4, 4) == 0 && cubes_of(g, 1, 4, 7) == 1 &&
	              st(g)->cubes_left[1] == 3);
	engine_game_free(g);
}

static void case_12_51_sabotage(void)
{
	struct engine_game *g = alpha(
	    "{'research':[6,1],'ships':[[{'value':3,'at':[3,0]},{'value':2,"
	    "'at':[0,0]},{'value':4,'at':'scrapyard'}]," FAR1
	    "],'row':{'gambit':['sabotage','aggression','momentum']},"
	    "'commands':[['agile'],[]]}");
	test_cond("step end", OK(g, 0, "{'type':'end_turn'}"));
	test_cond("§12.51 nobody else holds a command: nothing happens",
	          OK(g, 0, "{'type':'take_card','card':'sabotage'}") &&
	              st(g)->ndecisions == 0 && st(g)->active == 1 &&
	              st(g)->held[0][0] == qt_card_find("agile"));
	engine_game_free(g);
}

/* §12.60: Void research, capped, the ships move normally. */
static void case_12_60_void(void)
{
	struct engine_game *g =
	    must(3, "{'map':'Pivot point - The Void'}",
	         "{'first_player':2,'research':[5,1,1],'ships':[[{'value':2,"
	         "'at':[3,3]},{'value':2,'at':[5,5]},{'value':6,'at':[3,5]}],"
	         "[{'value':3,'at':[0,6]},{'value':3,'at':[0,8]},{'value':3,"
	         "'at':[2,8]}],[{'value':4,'at':[8,8]},{'value':4,'at':[8,6]},"
	         "{'value':4,'at':[6,8]}]]}");
	test_cond("§12.60 end seat 2", OK(g, 2, "{'type':'end_turn'}"));
	test_cond("§12.60 three Void ships, research 5: 6 (capped)",
	          st(g)->active == 0 && st(g)->research[0] == 6);
	test_cond("§12.60 they move and use abilities normally",
	          OK(g, 0, "{'type':'move','ship':0,'to':[3,4]}") &&
	              OK(g, 0, "{'type':'scout','ship':2}"));
	engine_game_free(g);
}

/* ---- §10 end of the game, §3 setup ---- */

static void case_10_last_construct(void)
{
	struct engine_game *g = alpha(
	    "{'ships':[[{'value':3,'at':[0,4]},{'value':4,'at':[1,3]},"
	    "{'value':1,'at':[3,0]}]," FAR1
	    "],'cubes':[{'seat':0,'planet':[1,1]},{'seat':0,'planet':[4,4]},"
	    "{'seat':0,'planet':[1,7]},{'seat':0,'planet':[4,7]}]}");
	test_cond("§10 the last cube by construct wins at once",
	          OK(g, 0, "{'type':'construct','planet':[1,4]}") &&
	              over_won_by(g, 0) && st(g)->phase == QT_PH_OVER);
	test_cond("§10 no card phase after it",
	          act(g, 0, "{'type':'end_turn'}") == BD_EGAMEOVER);
	engine_game_free(g);
}

/* §3: 3 seats, planets chosen clockwise from the first player, ships
 * arranged in player order, the first player starts with 3 actions. */
static void case_3_setup_order(void)
{
	struct engine_game *g = game(3, NULL, NULL, 21);
	test_cond("§3 new game", g != NULL);
	if (!g)
		return;
	for (int p = 0; p < 3; p++)
		test_cond("§3.3 keep", OK(g, p, "{'type':'setup_keep'}"));
	int first = st(g)->first;
	int tot[3] = {0, 0, 0};
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 3; i++)
			tot[p] += ship(g, p, i)->value;
	int lowest = 1;
	for (int p = 0; p < 3; p++)
		lowest &= tot[first] <= tot[p];
	test_cond("§3.4 the first player has the lowest total", lowest);
	int order[3] = {first, (first + 1) % 3, (first + 2) % 3};
	test_cond("§3.5 the first player chooses first",
	          engine_game_to_act(g) == 1u << order[0]);
	test_cond("§3.5 choose",
	          OK(g, order[0], "{'type':'choose_planet','planet':[7,1]}"));
	test_cond("§3.5 then clockwise",
	          engine_game_to_act(g) == 1u << order[1] &&
	              count_listed(g, order[1], "choose_planet") == 2);
	test_cond("§3.5 choose 2",
	          OK(g, order[1], "{'type':'choose_planet','planet':[1,4]}"));
	test_cond("§3.5 the last is assigned; starting cubes earn nothing",
	          st(g)->phase == QT_PH_ARRANGE &&
	              cubes_of(g, order[2], 7, 7) == 1 &&
	              st(g)->cubes_left[order[2]] == 4 &&
	              st(g)->picks[order[2]] == 0);
	test_cond("§3.6 the first player arranges first",
	          engine_game_to_act(g) == 1u << order[0]);
	test_cond(
	    "§3.6 arrange 0",
	    OK(g, order[0], "{'type':'arrange','ships':[[6,1],[8,1],[7,0]]}"));
	test_cond(
	    "§3.6 arrange 1",
	    OK(g, order[1], "{'type':'arrange','ships':[[0,4],[2,4],[1,3]]}"));
	test_cond(
	    "§3.6 arrange 2",
	    OK(g, order[2], "{'type':'arrange','ships':[[6,7],[8,7],[7,6]]}"));
	test_cond("§3 the first player's turn, 3 actions",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->active == first &&
	              st(g)->actions_left == 3);
	test_cond("§3.3 expansion ships stay in reserve",
	          ship(g, first, 3)->where == QT_RESERVE &&
	              ship(g, first, 4)->where == QT_RESERVE &&
	              ILLEGAL(g, first, "{'type':'reconfigure','ship':3}"));
	engine_game_free(g);
}

int main(void)
{
	case_12_1_move_then_reconfigure();
	case_12_2_deploy_then_move();
	case_12_4_free_after_three_actions();
	case_12_5_attack_reach();
	case_12_6_blocked_paths();
	case_12_7_no_zero_move();
	case_12_8_construct_needs_two();
	case_12_9_all_orbital_ships_count();
	case_12_10_enemy_orbital_ignored();
	case_12_11_diagonal_ignored();
	case_12_12_full_seven();
	case_12_13_share_an_eight();
	case_12_14_entanglement();
	case_12_14_two_own_cubes();
	case_12_15_tie();
	case_12_16_repelled();
	case_12_17_won_and_stay();
	case_12_18_same_number();
	case_12_19_no_modify_mid_move();
	case_12_20_strike_extra();
	case_12_21_no_diagonal_strike();
	case_12_22_interceptor_diagonal();
	case_12_23_corner_squeeze();
	case_12_30_carry_moved();
	case_12_31_carry_then_attack();
	case_12_32_no_attack_while_carrying();
	case_12_33_out_and_back();
	case_12_34_flagship_chain();
	case_12_35_warp_then_move();
	case_12_36_modify_then_warp();
	case_12_37_scout();
	case_6_2_ability_flag_kept();
	case_6_1_no_friendly_fire();
	case_12_5_interceptor_reach();
	case_5_reconfigure_then_deploy();
	case_5_reconfigure_is_no_move();
	case_6_2_transport_limits();
	case_7_1_off_turn_pick_order();
	case_14_second_infamy_without_square();
	case_12_45_no_expansion();
	case_12_39_picks();
	case_12_41_aggression_at_five();
	case_12_42_research();
	case_12_45_expansion();
	case_12_46_gambit_now();
	case_12_47_momentum_resets();
	case_12_49_reorganization();
	case_12_50_relocation();
	case_12_51_sabotage();
	case_12_60_void();
	case_10_last_construct();
	case_3_setup_order();
	return test_report("quantum-cases");
}
