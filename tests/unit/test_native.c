/* test_native.c: the native rules interface (engine.h: legal, play,
 * action_parse, action_json, determinize) of every registered game, over
 * seeded random games.  The registry is iterated: a new game is covered
 * without a change here.
 *
 *   listing    the native list and the JSON list clients get have the
 *              same length and order (action_json of native i is JSON i);
 *   agree      every listed action, applied natively and through its JSON
 *              (parse, then play), gives the same game bit for bit (state
 *              and the game's generator), and its JSON parses back to an
 *              action that prints the same;
 *   step       engine_game_step (in place) gives the same game as
 *              engine_game_play (on a copy) for the chosen move;
 *   pick       engine_game_pick (a module's pick hook, or the engine's
 *              listing) draws the action listed at rng_below(n) and
 *              leaves the generator as that draw does, at every step;
 *   determinize  for every seat, a sampled state shows that seat the same
 *              view and the same actions as the real one; sampling is
 *              independent of the real arrangement (sampling a sample with
 *              the same generator gives the same sample); and over a game
 *              the samples change something (the hidden information is
 *              really redrawn).
 * Games of every mode the catalog's `modes` lists are played (Agent
 * Avenue: base and advanced, at 2, 3 and 4 seats).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "testhelp.h"

#ifndef NATIVE_GAMES
#define NATIVE_GAMES 20 /* random games per game and seat count */
#endif
#ifndef NATIVE_STEPS
#define NATIVE_STEPS 200 /* moves per game at most */
#endif

static int lowest(unsigned bits)
{
	for (int s = 0; s < ENGINE_MAX_SEATS; s++)
		if (bits >> s & 1)
			return s;
	return -1;
}

static int same_json(json_t *a, json_t *b)
{
	int eq = a && b && json_equal(a, b);
	json_decref(a);
	json_decref(b);
	return eq;
}

static int same_game(const struct engine_game *a, const struct engine_game *b)
{
	return memcmp(a, b, engine_game_size(a->rules)) == 0;
}

struct tally {
	long listed, agree, json_roundtrip, lists, list_match, steps, step_same;
	long picks, pick_same;
	long det_view, det_actions, det_canonical, det_changed, det_samples;
};

/* Every listed action of `seat`: native and JSON agree. */
static void check_listed(const struct engine_game *g, int seat,
                         const struct engine_actions *list, struct tally *t)
{
	const struct rules *r = g->rules;
	json_t *acts = engine_game_actions(g, seat);
	t->lists++;
	t->list_match += json_array_size(acts) == list->n;
	for (size_t i = 0; i < list->n; i++) {
		t->listed++;
		json_t *j = r->action_json(&list->v[i]);
		int ok = json_equal(j, json_array_get(acts, i));
		struct engine_action back;
		struct rules_why why;
		ok = ok && r->action_parse(j, &back, &why) == 0;
		t->json_roundtrip +=
		    ok && same_json(r->action_json(&back), json_incref(j));
		struct engine_game *a = engine_game_clone(g),
		                   *b = engine_game_clone(g);
		int ra = engine_game_play(a, seat, &list->v[i], &why);
		int rb = engine_game_apply(b, seat, j, &why);
		t->agree += ok && ra == 0 && rb == 0 && same_game(a, b);
		engine_game_free(a);
		engine_game_free(b);
		json_decref(j);
	}
	json_decref(acts);
}

/* Samples for every seat: consistent, canonical, and (tallied) varied. */
static void check_determinize(const struct engine_game *g, struct rng *r,
                              struct tally *t)
{
	for (int w = 0; w < g->seats; w++) {
		uint64_t seed = rng_next(r);
		struct rng dr;
		struct engine_game *s = engine_game_clone(g),
		                   *s2 = engine_game_clone(g);
		rng_seed(&dr, seed);
		g->rules->determinize(s->state, w, &dr);
		memcpy(s2, s, engine_game_size(g->rules));
		rng_seed(&dr, seed);
		g->rules->determinize(s2->state, w, &dr);
		t->det_samples++;
		t->det_view +=
		    same_json(engine_game_view(g, w), engine_game_view(s, w));
		t->det_actions += same_json(engine_game_actions(g, w),
		                            engine_game_actions(s, w));
		t->det_canonical += same_game(s, s2);
		t->det_changed += !same_game(g, s);
		engine_game_free(s);
		engine_game_free(s2);
	}
}

static void random_game(const struct rules *r, int seats, const json_t *options,
                        uint64_t seed, struct tally *t)
{
	struct engine_game *g;
	struct rules_why why;
	if (engine_game_new(r, seats, options, NULL, seed, &g, &why)) {
		test_cond("a normal setup is accepted", 0);
		return;
	}
	struct rng pick;
	rng_seed(&pick, seed * 31 + 7);
	struct engine_actions list = {0}, scratch = {0};
	for (int step = 0; step < NATIVE_STEPS; step++) {
		int seat = lowest(engine_game_to_act(g));
		if (seat < 0)
			break;
		if (engine_game_legal(g, seat, &list) || list.n == 0) {
			test_cond("a seat to act has native actions", 0);
			break;
		}
		/* Every listed action early on, then one step in eight. */
		if (step < 40 || step % 8 == 0)
			check_listed(g, seat, &list, t);
		if (step % 3 == 0)
			check_determinize(g, &pick, t);
		struct rng drawn = pick;
		struct engine_action picked;
		memset(&picked, 0xa5, sizeof picked);
		long pn = engine_game_pick(g, seat, &drawn, &scratch, &picked);
		const struct engine_action *a =
		    &list.v[rng_below(&pick, (uint32_t)list.n)];
		t->picks++;
		t->pick_same += pn == (long)list.n &&
		                memcmp(&picked, a, sizeof picked) == 0 &&
		                memcmp(drawn.s, pick.s, sizeof pick.s) == 0;
		struct engine_game *c = engine_game_clone(g);
		int rs = engine_game_step(c, seat, a, &why);
		int rp = engine_game_play(g, seat, a, &why);
		c->seq = g->seq;
		t->steps++;
		t->step_same += rs == 0 && rp == 0 && same_game(c, g);
		engine_game_free(c);
		if (rp) {
			test_cond("a listed native action is accepted", 0);
			break;
		}
	}
	engine_actions_free(&list);
	engine_actions_free(&scratch);
	engine_game_free(g);
}

int main(void)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct rules *r = all[i];
		struct tally t = {0};
		char name[160];
		test_cond("action_size fits an engine_action",
		          r->action_size > 0 &&
		              r->action_size <= ENGINE_ACTION_BYTES);
		/* Every mode the catalog lists (Agent Avenue's advanced
		 * one too), else the default options. */
		json_t *cat = r->catalog(), *modes = json_array(), *m;
		size_t mi;
		json_array_foreach(json_object_get(cat, "modes"), mi, m)
			json_array_append_new(
			    modes, json_pack("{s:O}", "mode",
			                     json_object_get(m, "mode")));
		if (!json_array_size(modes))
			json_array_append_new(modes, json_null());
		for (int seats = r->min_seats; seats <= r->max_seats; seats++)
			json_array_foreach(modes, mi, m)
				for (int k = 0; k < NATIVE_GAMES; k++)
					random_game(
					    r, seats,
					    json_is_null(m) ? NULL : m,
					    (uint64_t)(1000 * seats + k + 1),
					    &t);
		json_decref(modes);
		json_decref(cat);
		printf("%s: %ld listed actions checked, %ld determinizations "
		       "(%ld changed the state)\n",
		       r->id, t.listed, t.det_samples, t.det_changed);
#define CHECK(what, got, want)                                                 \
	snprintf(name, sizeof name, "%s: %s", r->id, what);                    \
	test_cond(name, (want) > 0 && (got) == (want))
		CHECK("native and JSON lists have the same length",
		      t.list_match, t.lists);
		CHECK("engine_game_step == engine_game_play", t.step_same,
		      t.steps);
		CHECK("engine_game_pick draws the listed action", t.pick_same,
		      t.picks);
		CHECK("every listed action: native == JSON path", t.agree,
		      t.listed);
		CHECK("every listed action: JSON round trip", t.json_roundtrip,
		      t.listed);
		CHECK("determinized views equal the real ones", t.det_view,
		      t.det_samples);
		CHECK("determinized actions equal the real ones", t.det_actions,
		      t.det_samples);
		CHECK("determinization ignores the real arrangement",
		      t.det_canonical, t.det_samples);
#undef CHECK
		snprintf(name, sizeof name,
		         "%s: determinization changes hidden "
		         "information",
		         r->id);
		test_cond(name, t.det_changed > t.det_samples / 4);
	}
	return test_report("native");
}
