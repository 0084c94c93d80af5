/* test_quantum_cases.c: the rules §12 cases that need no command card
 * power (docs/rules/quantum.md; the card cases are in
 * test_quantum_cards.c) and the review's rule checks, for the cases that
 * read what the view does not show (the dice script's position, a
 * square's or a planet's free room, listed zero-square moves) or that set
 * the state directly.  Every other such case is a data file,
 * tests/cases/quantum/, run by tests/unit/test_cases.c (the format:
 * tests/cases/README.md).  Built like test_quantum.c: custom setups with
 * scripted dice through engine_game_new, actions through
 * engine_game_apply.
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

static int planet(struct engine_game *g, int r, int c)
{
	return qt_board_planet_at(&st(g)->board, r, c);
}

/* Seat 1's fleet parked in the far corner of Alpha sector. */
#define FAR1                                                                   \
	"[{'value':6,'at':[8,8]},{'value':6,'at':[8,6]},{'value':6,'at':[6,"   \
	"8]}]"

/* ---- movement and actions (§12.1-§12.14) ---- */

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

/* ---- abilities (§12.30-§12.37) ---- */

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

/* ---- dominance, infamy, research and cards (§12.38-§12.51) ---- */

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

/* ---- §10 end of the game, §3 setup ---- */

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
	case_12_14_two_own_cubes();
	case_12_18_same_number();
	case_12_37_scout();
	case_7_1_off_turn_pick_order();
	case_14_second_infamy_without_square();
	case_12_46_gambit_now();
	case_3_setup_order();
	return test_report("quantum-cases");
}
