/* test_resigned_v2.c: games stored under rules version 2, in which a seat
 * resigned and the game went on, replay exactly as before.  Version 2 had
 * every decision of a resigned seat played inside the engine at each
 * apply, so those logs hold none of them; from version 3 the server logs
 * them as moves of their own ("by":"resigned", engine.h
 * engine_game_stored_under).  resigned_v2_games.h was recorded by
 * tools/resigned-v2/record.py on a version-2 server (commit ce46055): two
 * Agent Avenue team games and two Quantum games, each with a seat that
 * resigns early and played to its end.  Each log is replayed from its seed
 * under stored version 2: every move is accepted, the seats to act after
 * every move are the same, every viewer's view at the checkpoints is the
 * same (as shown once the game is over: everything revealed), and the
 * result is the same.  Under version 3 the same log does not replay
 * (nobody plays the resigned seat), so the stored version is what keeps
 * the old games. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "resigned_v2_games.h"
#include "replayhelp.h"
#include "testhelp.h"

/* Every viewer's view at a checkpoint, everything revealed. */
static int check_at(const struct engine_game *g, const json_t *c)
{
	int ok = 1;
	for (int v = -1; v < g->seats; v++) {
		json_t *now = g->rules->view(g->state, v, 1);
		int same =
		    json_equal(json_array_get(json_object_get(c, "views"),
		                              (size_t)(v + 1)),
		               now);
		if (!same)
			fprintf(
			    stderr, "  move %lld: viewer %d's view differs\n",
			    json_integer_value(json_object_get(c, "move")), v);
		ok &= same;
		json_decref(now);
	}
	return ok;
}

/* Replays game under stored rules version `version`: 1 when every move,
 * seats to act, checkpoint and the result agree with the record. */
static int replay(const json_t *game, unsigned version)
{
	const struct rules *r =
	    engine_rules_find(json_string_value(json_object_get(game, "game")));
	struct engine_game *g = NULL;
	struct rules_why why;
	if (!r ||
	    engine_game_new(
	        r, (int)json_integer_value(json_object_get(game, "seats")),
	        json_object_get(game, "options"), NULL,
	        strtoull(json_string_value(json_object_get(game, "seed")), NULL,
	                 16),
	        &g, &why))
		return 0;
	engine_game_stored_under(g, version);
	const json_t *log = json_object_get(game, "log");
	const json_t *checks = json_object_get(game, "checks");
	size_t next = 0;
	int ok = 1;
	for (size_t m = 1; ok && m <= json_array_size(log); m++) {
		const json_t *e = json_array_get(log, m - 1);
		ok &= engine_game_apply(
		          g, (int)json_integer_value(json_array_get(e, 0)),
		          json_array_get(e, 1), &why) == 0;
		json_t *ta = to_act_json(g);
		ok &= json_equal(
		    ta, json_array_get(json_object_get(game, "to_act"), m - 1));
		json_decref(ta);
		const json_t *c = json_array_get(checks, next);
		if (ok && c &&
		    (size_t)json_integer_value(json_object_get(c, "move")) ==
		        m) {
			ok &= check_at(g, c);
			next++;
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
	json_error_t e;
	json_t *games = json_loads(resigned_v2_games, 0, &e);
	test_cond("the recorded version-2 games load",
	          json_array_size(games) == 4);
	size_t i;
	json_t *game;
	json_array_foreach(games, i, game) {
		const char *id =
		    json_string_value(json_object_get(game, "game"));
		const struct rules *r = engine_rules_find(id);
		char name[200];
		test_cond("the rules replay their version-2 games",
		          r && engine_rules_replays(r, 2) &&
		              r->logs_resigned_from == 3);
		snprintf(name, sizeof name,
		         "a version-2 %s game of %lld seats with a resigned "
		         "seat (%zu moves) replays as before",
		         id, json_integer_value(json_object_get(game, "seats")),
		         json_array_size(json_object_get(game, "log")));
		test_cond(name, replay(game, 2));
		snprintf(name, sizeof name,
		         "under version 3 the same %s log does not replay "
		         "(its resigned seat's decisions are not in it)",
		         id);
		test_cond(name, !replay(game, 3));
	}
	json_decref(games);
	return test_report("resigned-v2");
}
