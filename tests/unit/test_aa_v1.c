/* test_aa_v1.c: Agent Avenue games stored under rules version 1 (before
 * the advanced mode and the team variant, rules §7) replay exactly as
 * before under the current version.  aa_v1_games.h was recorded by
 * tools/aa-v1/record.c built against version 1's sources: six normal
 * deals and one custom setup, each played to its end.  Each log is
 * replayed from its seed with the current rules: every move is accepted,
 * the seats to act after every move are the same, at the recorded moves
 * every seat's actions are the same and every viewer's view holds every
 * field version 1 showed, with the same value (version 2 adds fields:
 * mode, teams, acting, pending...), and the result is the same. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "aa_v1_games.h"
#include "replayhelp.h"
#include "engine/engine.h"
#include "testhelp.h"

/* 1 if every field of old is in new with the same value (objects: a
 * subset, recursively; arrays: the same length, element by element). */
static int holds(const json_t *old, const json_t *new_)
{
	if (json_is_object(old)) {
		const char *k;
		const json_t *v;
		if (!json_is_object(new_))
			return 0;
		json_object_foreach((json_t *)old, k, v)
			if (!holds(v, json_object_get(new_, k)))
				return 0;
		return 1;
	}
	if (json_is_array(old)) {
		if (!json_is_array(new_) ||
		    json_array_size(old) != json_array_size(new_))
			return 0;
		for (size_t i = 0; i < json_array_size(old); i++)
			if (!holds(json_array_get(old, i),
			           json_array_get(new_, i)))
				return 0;
		return 1;
	}
	return new_ && json_equal(old, new_);
}

/* The recorded views and actions at one move. */
static int check_at(const struct engine_game *g, const json_t *c)
{
	int ok = 1;
	for (int v = -1; v < g->seats; v++) {
		json_t *now = engine_game_view(g, v);
		int h = holds(json_array_get(json_object_get(c, "views"),
		                             (size_t)(v + 1)),
		              now);
		if (!h)
			fprintf(
			    stderr, "  move %lld: viewer %d's view differs\n",
			    json_integer_value(json_object_get(c, "move")), v);
		ok &= h;
		json_decref(now);
	}
	for (int s = 0; s < g->seats; s++) {
		json_t *now = engine_game_actions(g, s);
		ok &= json_equal(
		    json_array_get(json_object_get(c, "actions"), (size_t)s),
		    now);
		json_decref(now);
	}
	return ok;
}

static int replay(const json_t *game)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	json_t *setup = json_object_get(game, "setup");
	struct engine_game *g = NULL;
	struct rules_why why;
	if (engine_game_new(
	        r, 2, NULL, json_is_null(setup) ? NULL : setup,
	        (uint64_t)json_integer_value(json_object_get(game, "seed")), &g,
	        &why))
		return 0;
	const json_t *log = json_object_get(game, "log");
	const json_t *checks = json_object_get(game, "checks");
	size_t next = 0;
	int ok = 1;
	for (size_t m = 0; ok && m <= json_array_size(log); m++) {
		if (m > 0) {
			const json_t *e = json_array_get(log, m - 1);
			ok &= engine_game_apply(
			          g,
			          (int)json_integer_value(json_array_get(e, 0)),
			          json_array_get(e, 1), &why) == 0;
			json_t *ta = to_act_json(g);
			ok &= json_equal(
			    ta, json_array_get(json_object_get(game, "to_act"),
			                       m - 1));
			json_decref(ta);
		}
		const json_t *c = json_array_get(checks, next);
		while (ok && c &&
		       (size_t)json_integer_value(json_object_get(c, "move")) ==
		           m) {
			ok &= check_at(g, c);
			c = json_array_get(checks, ++next);
		}
	}
	json_t *res = result_json(g);
	ok &= next == json_array_size(checks) &&
	      json_equal(res, json_object_get(game, "result"));
	json_decref(res);
	engine_game_free(g);
	return ok;
}

int main(void)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	test_cond("§7 version 3 replays version-1 games",
	          r && r->version == 3 && engine_rules_replays(r, 1));
	json_error_t e;
	json_t *games = json_loads(aa_v1_games, 0, &e);
	test_cond("the recorded version-1 games load",
	          json_array_size(games) == 7);
	size_t i;
	json_t *game;
	json_array_foreach(games, i, game) {
		char name[160];
		snprintf(name, sizeof name,
		         "§7 a version-1 game (%s, seed %lld, %zu moves) "
		         "replays as before",
		         json_is_null(json_object_get(game, "setup"))
		             ? "normal deal"
		             : "custom setup",
		         json_integer_value(json_object_get(game, "seed")),
		         json_array_size(json_object_get(game, "log")));
		test_cond(name, replay(game));
	}
	json_decref(games);
	return test_report("aa-v1");
}
