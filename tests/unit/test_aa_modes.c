/* test_aa_modes.c: Agent Avenue's advanced mode (black market) and team
 * variant through the engine.  Every case of rules §11 is a data file,
 * tests/cases/agent-avenue/modes-*.json, run by tests/unit/test_cases.c
 * (the format: tests/cases/README.md).  Left here: who leads and picks
 * over many turns (§11.28-29), random games in every mode,
 * determinization, resigned teammates and the rules version.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "games/agent_avenue/aa.h"
#include "testhelp.h"

/* ---- §11.28–29: who leads and who picks ---- */

/* Plays `turns` turns of a normal deal (first listed play each time,
 * the face-up pick) and writes each turn's lead and picker. */
static int turn_order(int seats, int fp, int turns, int *leads, int *picks)
{
	char setup[64];
	snprintf(setup, sizeof setup, "{\"first_player\":%d}", fp);
	json_t *s = json_loads(setup, 0, NULL);
	struct engine_game *g = NULL;
	int rc = engine_game_new(&aa_rules, seats, NULL, s, 99, &g, NULL);
	json_decref(s);
	if (rc)
		return -1;
	int t = 0;
	while (t < turns && engine_game_to_act(g)) {
		const struct aa_state *st = (const struct aa_state *)g->state;
		int seat = __builtin_ctz(engine_game_to_act(g));
		if (st->phase == AA_PHASE_PLAY && st->played_mask == 0 &&
		    seat == st->active)
			leads[t] = seat;
		if (st->phase == AA_PHASE_RECRUIT)
			picks[t++] = seat;
		json_t *list = engine_game_actions(g, seat), *x;
		size_t i;
		json_t *pick = NULL;
		json_array_foreach(list, i, x) {
			const char *ty =
			    json_string_value(json_object_get(x, "type"));
			if (!pick && strcmp(ty, "discard") &&
			    strcmp(ty, "hand_over"))
				pick = x;
		}
		rc = pick ? engine_game_apply(g, seat, pick, NULL) : -1;
		json_decref(list);
		if (rc)
			break;
	}
	engine_game_free(g);
	return t == turns ? 0 : -1;
}

static void test_turn_order(void)
{
	static const struct {
		const char *name;
		int seats, fp, n;
		int leads[5], picks[5];
	} o[] = {
	    {"§11.28 4 seats, first_player 0: leads 0,1,2,3,0; picks 1,2,3,0,1",
	     4,
	     0,
	     5,
	     {0, 1, 2, 3, 0},
	     {1, 2, 3, 0, 1}},
	    {"§11.28 4 seats, first_player 1: leads 1,2,3,0",
	     4,
	     1,
	     4,
	     {1, 2, 3, 0},
	     {2, 3, 0, 1}},
	    {"§11.29 3 seats, first_player 0: leads 0,1,2,1,0; picks 1,2,1,0,1",
	     3,
	     0,
	     5,
	     {0, 1, 2, 1, 0},
	     {1, 2, 1, 0, 1}},
	    {"§11.29 3 seats, first_player 2: leads 2,1,0,1",
	     3,
	     2,
	     4,
	     {2, 1, 0, 1},
	     {1, 0, 1, 2}},
	    {"§9.3 3 seats, first_player 1: leads 1,2,1,0",
	     3,
	     1,
	     4,
	     {1, 2, 1, 0},
	     {2, 1, 0, 1}},
	};
	for (size_t i = 0; i < sizeof o / sizeof o[0]; i++) {
		int leads[5] = {-1, -1, -1, -1, -1},
		    picks[5] = {-1, -1, -1, -1, -1};
		int rc = turn_order(o[i].seats, o[i].fp, o[i].n, leads, picks);
		int ok = rc == 0;
		for (int t = 0; t < o[i].n; t++)
			ok &= leads[t] == o[i].leads[t] &&
			      picks[t] == o[i].picks[t];
		if (!ok)
			fprintf(stderr,
			        "  leads %d %d %d %d %d picks %d %d %d %d %d\n",
			        leads[0], leads[1], leads[2], leads[3],
			        leads[4], picks[0], picks[1], picks[2],
			        picks[3], picks[4]);
		test_cond(o[i].name, ok);
	}
}

/* ---- every mode: one seat acts, random games end ---- */

/* The options of each mode (rules §7). */
static const char *const opts[] = {"{}", "{\"mode\":\"advanced\"}"};

/* The lowest seat to act posts one of its listed actions at random: 0 if
 * accepted, -1 if nobody acts or it was refused.  *seat (if not NULL)
 * receives the seat, *played (if not NULL) a new reference to the action
 * (NULL when nobody acts). */
static int random_move(struct engine_game *g, struct rng *r, int *seat,
                       json_t **played)
{
	unsigned ta = engine_game_to_act(g);
	if (played)
		*played = NULL;
	if (!ta)
		return -1;
	int s = __builtin_ctz(ta);
	json_t *l = engine_game_actions(g, s);
	json_t *a = json_incref(
	    json_array_get(l, rng_below(r, (uint32_t)json_array_size(l))));
	json_decref(l);
	int rc = a && engine_game_apply(g, s, a, NULL) == 0 ? 0 : -1;
	if (seat)
		*seat = s;
	if (played)
		*played = a;
	else
		json_decref(a);
	return rc;
}

static void test_random_games(void)
{
	struct rng r;
	rng_seed(&r, 4242);
	for (int seats = 2; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			int ended = 0, one = 1, games = 60;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < games; i++) {
				struct engine_game *g = NULL;
				if (engine_game_new(&aa_rules, seats, o, NULL,
				                    (uint64_t)i * 7 + 1, &g,
				                    NULL))
					break;
				for (int k = 0; k < 400; k++) {
					unsigned ta = engine_game_to_act(g);
					if (!ta)
						break;
					one &= __builtin_popcount(ta) == 1;
					one &=
					    random_move(g, &r, NULL, NULL) == 0;
				}
				struct rules_result res;
				ended += engine_game_result(g, &res);
				engine_game_free(g);
			}
			json_decref(o);
			char name[96];
			snprintf(
			    name, sizeof name,
			    "§7.2 %d seats %s: one seat acts, every listed "
			    "action is accepted, games end",
			    seats, opts[m]);
			test_cond(name, one && ended == games);
		}
}

/* ---- determinization (the bots' sampling) covers §8.9 and §9.9 ----
 *
 * Over random games of every mode and seat count, each seat's samples
 * keep its own hand and everything public (supply, rows, the
 * black-market discard, sizes) and redraw what it may not see: the
 * black-market deck's order (advanced) and a teammate's hand (3-4
 * seats), as an opponent's. */
static void test_determinize(void)
{
	struct rng r;
	rng_seed(&r, 777);
	for (int seats = 2; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			long samples = 0, kept = 0, bm_due = 0, bm_moved = 0;
			long mate_due = 0, mate_moved = 0, opp_moved = 0;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < 20; i++) {
				struct engine_game *g = NULL;
				if (engine_game_new(&aa_rules, seats, o, NULL,
				                    (uint64_t)i * 13 + 5, &g,
				                    NULL))
					break;
				for (int k = 0; k < 60 && engine_game_to_act(g);
				     k++) {
					const struct aa_state *st =
					    (const struct aa_state *)g->state;
					for (int w = 0; w < seats; w++) {
						struct engine_game *c =
						    engine_game_clone(g);
						struct aa_state *d =
						    (struct aa_state *)c->state;
						aa_rules.determinize(d, w, &r);
						samples++;
						kept +=
						    !memcmp(&d->players[w],
						            &st->players[w],
						            sizeof st
						                ->players[w]) &&
						    !memcmp(
						        d->supply, st->supply,
						        sizeof st->supply) &&
						    !memcmp(d->bm_discard,
						            st->bm_discard,
						            sizeof st
						                ->bm_discard) &&
						    !memcmp(d->teams, st->teams,
						            sizeof st->teams) &&
						    d->bm_deck_size ==
						        st->bm_deck_size &&
						    d->deck_size ==
						        st->deck_size;
						if (st->bm_deck_size >= 2) {
							bm_due++;
							bm_moved += !!memcmp(
							    d->bm_deck,
							    st->bm_deck,
							    sizeof st->bm_deck);
						}
						int mate = w + 2 < seats ? w + 2
						           : w >= 2      ? w - 2
						                         : -1;
						if (mate >= 0 &&
						    st->players[mate]
						        .hand_size) {
							mate_due++;
							mate_moved += !!memcmp(
							    d->players[mate]
							        .hand,
							    st->players[mate]
							        .hand,
							    sizeof st
							        ->players[mate]
							        .hand);
						}
						opp_moved += !!memcmp(
						    d->players[(w + 1) % seats]
						        .hand,
						    st->players[(w + 1) % seats]
						        .hand,
						    sizeof st->players[0].hand);
						engine_game_free(c);
					}
					if (random_move(g, &r, NULL, NULL))
						break;
				}
				engine_game_free(g);
			}
			json_decref(o);
			char name[160];
			snprintf(name, sizeof name,
			         "§8.9 §9.9 determinize, %d seats %s: own hand "
			         "and public data kept (%ld samples)",
			         seats, opts[m], samples);
			test_cond(name, samples > 0 && kept == samples);
			snprintf(name, sizeof name,
			         "§8.9 §9.9 determinize, %d seats %s: an "
			         "opponent's hand redrawn (%ld of %ld)",
			         seats, opts[m], opp_moved, samples);
			test_cond(name, opp_moved * 2 > samples);
			if (m == 1) {
				snprintf(
				    name, sizeof name,
				    "§8.9 determinize, %d seats: the "
				    "black-market deck's order redrawn (%ld "
				    "of %ld)",
				    seats, bm_moved, bm_due);
				test_cond(name,
				          bm_due > 0 && bm_moved * 2 > bm_due);
			}
			if (seats > 2) {
				snprintf(name, sizeof name,
				         "§9.9 determinize, %d seats %s: a "
				         "teammate's hand redrawn like an "
				         "opponent's (%ld of %ld)",
				         seats, opts[m], mate_moved, mate_due);
				test_cond(name, mate_due > 0 &&
				                    mate_moved * 2 > mate_due);
			}
		}
}

/* ---- resigned seats of a team (the engine's rule, as for Quantum) ----
 *
 * A seat of a 3- or 4-seat game resigns at a random point: the game goes
 * on, every decision of that seat is played for it (never to act), the
 * game ends by the rules with a result, and the log replays to the same
 * bytes.  Three seats of four resigning end the game: the last seat wins
 * by resignation. */
static int play_out(struct engine_game *g, struct rng *r, int resign_seat,
                    int resign_at, json_t *log)
{
	int never = 1;
	for (int k = 0; k < 600 && engine_game_to_act(g); k++) {
		never &= !(engine_game_to_act(g) & g->resigned);
		int seat = resign_seat, rc;
		json_t *a;
		if (k == resign_at) {
			a = json_pack("{s:s}", "type", "resign");
			rc = engine_game_apply(g, seat, a, NULL);
		} else {
			rc = random_move(g, r, &seat, &a);
		}
		if (rc) {
			json_decref(a);
			return 0;
		}
		json_array_append_new(log, json_pack("[i,o]", seat, a));
	}
	return never;
}

static void test_resigned_teammates(void)
{
	struct rng r;
	rng_seed(&r, 99);
	for (int seats = 3; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			int ok = 1, ended = 0, games = 12;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < games; i++) {
				struct engine_game *g = NULL, *again = NULL;
				uint64_t seed = (uint64_t)i * 5 + 3;
				json_t *log = json_array();
				ok &= engine_game_new(&aa_rules, seats, o, NULL,
				                      seed, &g, NULL) == 0 &&
				      engine_game_new(&aa_rules, seats, o, NULL,
				                      seed, &again, NULL) == 0;
				if (!ok) {
					engine_game_free(g);
					json_decref(log);
					break;
				}
				int who = (int)rng_below(&r, (uint32_t)seats);
				ok &= play_out(g, &r, who,
				               (int)rng_below(&r, 4), log);
				struct rules_result res;
				int over = engine_game_result(g, &res);
				ended += over &&
				         strcmp(res.reason, "resignation") &&
				         (g->resigned >> who & 1);
				size_t k;
				json_t *e;
				json_array_foreach(log, k, e)
					ok &= engine_game_apply(
					          again,
					          (int)json_integer_value(
					              json_array_get(e, 0)),
					          json_array_get(e, 1),
					          NULL) == 0;
				ok &= !memcmp(g, again,
				              engine_game_size(&aa_rules));
				json_decref(log);
				engine_game_free(g);
				engine_game_free(again);
			}
			json_decref(o);
			char name[160];
			snprintf(
			    name, sizeof name,
			    "engine: %d seats %s, a seat resigns: played "
			    "for, never to act, the game ends by the rules, "
			    "replays",
			    seats, opts[m]);
			test_cond(name, ok && ended == games);
		}
	/* 4 seats: three resign, the last seat wins by resignation. */
	struct engine_game *g = NULL;
	json_t *res_a = json_pack("{s:s}", "type", "resign");
	int ok = engine_game_new(&aa_rules, 4, NULL, NULL, 8, &g, NULL) == 0;
	for (int s = 1; ok && s < 4; s++)
		ok &= engine_game_apply(g, s, res_a, NULL) == 0;
	struct rules_result res;
	test_cond("engine: 4 seats, three resign: the last seat wins",
	          ok && engine_game_result(g, &res) && res.winners == 1u &&
	              !strcmp(res.reason, "resignation") &&
	              engine_game_to_act(g) == 0);
	json_decref(res_a);
	engine_game_free(g);
}

/* ---- §7: the rules version ---- */

static void test_version(void)
{
	test_cond("§7 rules version 3 replays stored version-1 and -2 games",
	          aa_rules.version == 3 && engine_rules_replays(&aa_rules, 1) &&
	              engine_rules_replays(&aa_rules, 2) &&
	              engine_rules_replays(&aa_rules, 3) &&
	              !engine_rules_replays(&aa_rules, 0) &&
	              !engine_rules_replays(&aa_rules, 4));
}

int main(void)
{
	test_turn_order();
	test_random_games();
	test_determinize();
	test_resigned_teammates();
	test_version();
	return test_report("aa-modes");
}
