/* test_bots.c: the bots of src/bot (bot.h), through the engine only.
 *
 *   random     a listed action, the one the old JSON-list draw gave
 *              (index rng_below(seed) of engine_game_actions), the same
 *              for the same seed;
 *   mcts       a listed action, the same for the same seed (no time cut),
 *              for every game; BD_ENOTTURN for a seat not to act and once
 *              the game is over;
 *   tactics    an Agent Avenue recruit that wins at once (3 Codebreakers)
 *              is taken at level 1 whatever the seed;
 *   matches    a few fixed-seed games, mcts against random: only a
 *              clear-cut outcome is asserted (the figures are make
 *              bots-eval's);
 *   modes      whole games of every mode at every seat count of the
 *              catalog's `modes` (Agent Avenue: base and advanced at 2,
 *              3 and 4 seats, rules §7-§9), mcts and random seats mixed:
 *              every game ends with a result.
 * The no-peek property (twin worlds that differ only in what the seat
 * cannot see give the same choice) is in test_properties.c, with the twin
 * builders.
 */
#include <jansson.h>
#include <string.h>

#include "bot/bot.h"
#include "botmatch.h"
#include "engine/engine.h"
#include "testhelp.h"

#define NO_CUT 600000 /* ms: never reached, so choices replay */

static struct engine_game *new_game(const char *id, int seats,
                                    const char *setup, uint64_t seed)
{
	json_t *s = setup ? json_loads(setup, 0, NULL) : NULL;
	struct engine_game *g = NULL;
	struct rules_why why;
	if (engine_game_new(engine_rules_find(id), seats, NULL, s, seed, &g,
	                    &why))
		fprintf(stderr, "setup refused: %s\n", why.detail);
	json_decref(s);
	return g;
}

static int listed(const struct engine_game *g, int seat, const json_t *a)
{
	json_t *all = engine_game_actions(g, seat);
	size_t i;
	json_t *x;
	int found = 0;
	json_array_foreach(all, i, x)
		found |= json_equal(x, a);
	json_decref(all);
	return found;
}

/* Plays `moves` random moves (seeded) so the bots see a game under way. */
static void advance(struct engine_game *g, int moves, uint64_t seed)
{
	struct bot_spec rnd = {BOT_RANDOM, BOT_LEVEL_DEFAULT};
	for (int m = 0; m < moves; m++) {
		unsigned due = engine_game_to_act(g);
		if (!due)
			return;
		int seat = __builtin_ctz(due);
		struct engine_action a;
		struct rules_why why;
		if (bot_choose_native(g, seat, &rnd, seed + (uint64_t)m, 0, &a,
		                      NULL) ||
		    engine_game_play(g, seat, &a, &why))
			return;
	}
}

static void test_random(void)
{
	struct bot_spec rnd = {BOT_RANDOM, BOT_LEVEL_DEFAULT};
	int ok = 1;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct engine_game *g = new_game("agent-avenue", 2, NULL, seed);
		advance(g, (int)seed % 7, seed);
		int seat = __builtin_ctz(engine_game_to_act(g));
		json_t *a = NULL, *b = NULL;
		ok &= bot_choose(g, seat, &rnd, seed, 0, &a) == 0 &&
		      bot_choose(g, seat, &rnd, seed, 0, &b) == 0 &&
		      json_equal(a, b) && listed(g, seat, a);
		json_t *all = engine_game_actions(g, seat);
		struct rng r;
		rng_seed(&r, seed);
		ok &= json_equal(
		    a, json_array_get(
		           all, rng_below(&r, (uint32_t)json_array_size(all))));
		json_decref(all);
		json_decref(a);
		json_decref(b);
		engine_game_free(g);
	}
	test_cond("random: listed, seeded, the JSON list's draw", ok);
}

static void test_mcts_each_game(void)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	struct bot_spec m = {BOT_MCTS, 1};
	for (size_t i = 0; i < n; i++) {
		int ok = 1;
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct engine_game *g =
			    new_game(all[i]->id, all[i]->min_seats, NULL, seed);
			advance(g, 3 * (int)seed, seed);
			unsigned due = engine_game_to_act(g);
			ok &= due != 0;
			if (!due) {
				engine_game_free(g);
				continue;
			}
			int seat = __builtin_ctz(due);
			json_t *a = NULL, *b = NULL;
			struct bot_report rep;
			struct engine_action na;
			ok &= bot_choose(g, seat, &m, seed, NO_CUT, &a) == 0 &&
			      bot_choose(g, seat, &m, seed, NO_CUT, &b) == 0 &&
			      json_equal(a, b) && listed(g, seat, a);
			ok &= bot_choose_native(g, seat, &m, seed, NO_CUT, &na,
			                        &rep) == 0 &&
			      rep.iterations == bot_level_iterations(1) &&
			      !rep.cut;
			json_decref(a);
			json_decref(b);
			/* a seat not to act */
			int other = -1;
			for (int s = 0; s < g->seats; s++)
				if (!(due >> s & 1))
					other = s;
			if (other >= 0)
				ok &= bot_choose(g, other, &m, seed, NO_CUT,
				                 &a) == BD_ENOTTURN;
			engine_game_free(g);
		}
		char name[96];
		snprintf(
		    name, sizeof name,
		    "mcts %s: listed, seeded, full budget, not out of turn",
		    all[i]->id);
		test_cond(name, ok);
	}
}

/* Seat 1 recruits with 2 Codebreakers in play; seat 0 played a
 * Codebreaker face up: picking it wins at once (rules §4 Step 3). */
static void test_tactics(void)
{
	static const char setup[] =
	    "{\"first_player\":0,\"in_play\":[{},{\"codebreaker\":2}],"
	    "\"hands\":[[\"codebreaker\",\"enforcer\",\"saboteur\","
	    "\"sentinel\"],[\"enforcer\",\"saboteur\",\"sentinel\","
	    "\"enforcer\"]],"
	    "\"deck\":[\"daredevil\",\"daredevil\",\"enforcer\",\"sentinel\","
	    "\"saboteur\",\"double-agent\"]}";
	struct bot_spec m = {BOT_MCTS, 1};
	int ok = 1, won = 0;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct engine_game *g = new_game("agent-avenue", 2, setup, 1);
		json_t *play =
		    json_pack("{s:s,s:s,s:s}", "type", "play", "face_up",
		              "codebreaker", "face_down", "enforcer");
		struct rules_why why;
		ok &= g && engine_game_apply(g, 0, play, &why) == 0;
		json_t *a = NULL;
		ok &= ok && bot_choose(g, 1, &m, seed, NO_CUT, &a) == 0;
		const char *pick =
		    json_string_value(json_object_get(a, "pick"));
		won += pick && !strcmp(pick, "face_up");
		json_decref(a);
		json_decref(play);
		engine_game_free(g);
	}
	test_cond("tactics: the winning recruit, every seed", ok && won == 8);
	/* Over: no choice. */
	struct engine_game *g = new_game("agent-avenue", 2, setup, 1);
	json_t *play = json_pack("{s:s,s:s,s:s}", "type", "play", "face_up",
	                         "codebreaker", "face_down", "enforcer");
	json_t *pick =
	    json_pack("{s:s,s:s}", "type", "recruit", "pick", "face_up");
	struct rules_why why;
	json_t *a = NULL;
	test_cond("game over: BD_ENOTTURN",
	          engine_game_apply(g, 0, play, &why) == 0 &&
	              engine_game_apply(g, 1, pick, &why) == 0 &&
	              bot_choose(g, 0, &m, 1, NO_CUT, &a) == BD_ENOTTURN &&
	              bot_choose(g, 1, &m, 1, NO_CUT, &a) == BD_ENOTTURN);
	json_decref(play);
	json_decref(pick);
	engine_game_free(g);
}

static void test_matches(void)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	int wins = 0, games = 8, ok = 1;
	for (int i = 0; i < games; i++) {
		struct bot_spec spec[2];
		spec[i % 2] = (struct bot_spec){BOT_MCTS, 2};
		spec[1 - i % 2] = (struct bot_spec){BOT_RANDOM, 3};
		struct rules_why why;
		long moves;
		int w = play_bots(r, 2, NULL, (uint64_t)i + 1, spec, NO_CUT,
		                  &moves, &why);
		ok &= w > 0;
		wins += w > 0 && (w >> (i % 2) & 1);
	}
	printf("bots: agent-avenue mcts level 2 won %d of %d against random\n",
	       wins, games);
	test_cond("matches: every game ends", ok);
	test_cond("matches: mcts beats random in Agent Avenue",
	          wins >= games - 1);
}

/* Every mode at every seat count its catalog entry lists: mcts (level 1)
 * and random seats mixed, whole games through engine_game_play, each
 * ending with a result. */
static void test_modes(void)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	for (size_t i = 0; i < n; i++) {
		json_t *cat = all[i]->catalog(), *m;
		size_t k, j;
		json_array_foreach(json_object_get(cat, "modes"), k, m) {
			json_t *seats_j,
			    *opt = json_pack("{s:O}", "mode",
			                     json_object_get(m, "mode"));
			json_array_foreach(json_object_get(m, "seats"), j,
			                   seats_j) {
				int seats = (int)json_integer_value(seats_j);
				int ended = 0, games = 2;
				long moves = 0;
				for (int g = 0; g < games; g++) {
					struct bot_spec spec[ENGINE_MAX_SEATS];
					for (int s = 0; s < seats; s++)
						spec[s] =
						    (s + g) % 2
						        ? (struct
						           bot_spec){BOT_RANDOM,
						                     1}
						        : (struct bot_spec){
						              BOT_MCTS, 1};
					struct rules_why why = {{0}, {0}};
					long mv = 0;
					int w =
					    play_bots(all[i], seats, opt,
					              (uint64_t)(g + 1) * 77,
					              spec, NO_CUT, &mv, &why);
					if (w < 0)
						fprintf(stderr, "  %s\n",
						        why.detail);
					ended += w > 0;
					moves += mv;
				}
				char name[128];
				snprintf(
				    name, sizeof name,
				    "modes: %s %s, %d seats: mcts and random "
				    "play whole games (%ld moves)",
				    all[i]->id,
				    json_string_value(
				        json_object_get(m, "mode")),
				    seats, moves);
				printf("%s: %d of %d ended\n", name, ended,
				       games);
				test_cond(name, ended == games);
			}
			json_decref(opt);
		}
		json_decref(cat);
	}
}

int main(void)
{
	test_random();
	test_mcts_each_game();
	test_tactics();
	test_modes();
	test_matches();
	return test_report("bots");
}
