/* replayhelp.h: what the recorded-game replays (test_aa_v1.c,
 * test_resigned_v2.c) compare with their records, as JSON: the seats to
 * act and the result of an engine_game. */
#ifndef BD_REPLAYHELP_H
#define BD_REPLAYHELP_H

#include <jansson.h>

#include "engine/engine.h"

/* The seats to act in g, ascending: a new JSON array (the caller's). */
static json_t *to_act_json(const struct engine_game *g)
{
	json_t *a = json_array();
	for (int s = 0; s < g->seats; s++)
		if (engine_game_to_act(g) >> s & 1)
			json_array_append_new(a, json_integer(s));
	return a;
}

/* g's result {"winners": [seats], "reason": word}, or JSON null while it
 * runs: a new reference (the caller's). */
static json_t *result_json(const struct engine_game *g)
{
	struct rules_result res;
	if (!engine_game_result(g, &res))
		return json_null();
	json_t *w = json_array();
	for (int s = 0; s < g->seats; s++)
		if (res.winners >> s & 1)
			json_array_append_new(w, json_integer(s));
	return json_pack("{s:o,s:s}", "winners", w, "reason", res.reason);
}

#endif
