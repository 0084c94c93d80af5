/* record.c: records Agent Avenue base games for tests/unit/test_aa_v1.c.
 * Built against the sources of rules version 1 (commit 6d5f806, before
 * the advanced mode and the team variant), it prints a C header holding
 * one JSON text: for each game its seed, custom setup (or null), log, the
 * seats to act after every move, every viewer's view and every seat's
 * actions at three moves (the start, the middle, the end) and the result.
 * The test replays the logs with the current rules and compares.
 * To record again (from the repository's root; bash):
 *   git archive 6d5f806 src | tar -x -C /tmp/v1
 *   cd /tmp/v1 && cc -std=c11 -D_GNU_SOURCE -Isrc -o /tmp/record
 *      $OLDPWD/tools/aa-v1/record.c src/engine/{game,registry,rng}.c
 *      src/common/why.c src/games/[aq]*[a-z]/[a-z]*.c -ljansson -lm
 *   (one command line), then /tmp/record > tests/unit/aa_v1_games.h */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine.h"

static json_t *snapshot(const struct engine_game *g, size_t move)
{
	json_t *views = json_array(), *acts = json_array();
	for (int v = -1; v < g->seats; v++)
		json_array_append_new(views, engine_game_view(g, v));
	for (int s = 0; s < g->seats; s++)
		json_array_append_new(acts, engine_game_actions(g, s));
	return json_pack("{s:I,s:o,s:o}", "move", (json_int_t)move, "views",
	                 views, "actions", acts);
}

static json_t *record(uint64_t seed, const char *setup_text)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	json_t *setup = setup_text ? json_loads(setup_text, 0, NULL) : NULL;
	struct engine_game *g = NULL;
	struct rules_why why;
	if (engine_game_new(r, 2, NULL, setup, seed, &g, &why)) {
		fprintf(stderr, "refused: %s\n", why.detail);
		exit(1);
	}
	json_t *log = json_array(), *to_act = json_array(),
	       *checks = json_array();
	json_array_append_new(checks, snapshot(g, 0));
	uint64_t lcg = seed * 2862933555777941757ull + 3037000493ull;
	unsigned due;
	while ((due = engine_game_to_act(g)) != 0) {
		int seat = __builtin_ctz(due);
		json_t *l = engine_game_actions(g, seat);
		lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
		json_t *a = json_incref(json_array_get(
		    l, (size_t)(lcg >> 33) % json_array_size(l)));
		json_decref(l);
		if (engine_game_apply(g, seat, a, &why)) {
			fprintf(stderr, "listed refused: %s\n", why.detail);
			exit(1);
		}
		json_array_append_new(log, json_pack("[i,o]", seat, a));
		json_t *ta = json_array();
		for (int s = 0; s < g->seats; s++)
			if (engine_game_to_act(g) >> s & 1)
				json_array_append_new(ta, json_integer(s));
		json_array_append_new(to_act, ta);
		if (json_array_size(log) == 8)
			json_array_append_new(
			    checks, snapshot(g, json_array_size(log)));
	}
	json_array_append_new(checks, snapshot(g, json_array_size(log)));
	struct rules_result res;
	json_t *result = json_null();
	if (engine_game_result(g, &res)) {
		json_t *w = json_array();
		for (int s = 0; s < g->seats; s++)
			if (res.winners >> s & 1)
				json_array_append_new(w, json_integer(s));
		result =
		    json_pack("{s:o,s:s}", "winners", w, "reason", res.reason);
	}
	engine_game_free(g);
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o}", "seed", (json_int_t)seed,
	                 "setup", setup ? setup : json_null(), "log", log,
	                 "to_act", to_act, "checks", checks, "result", result);
}

int main(void)
{
	json_t *games = json_array();
	for (uint64_t seed = 1; seed <= 6; seed++)
		json_array_append_new(games, record(seed, NULL));
	json_array_append_new(
	    games,
	    record(7, "{\"first_player\":1,\"hands\":[[\"enforcer\",\"mole\","
	              "\"sentinel\",\"sentinel\"],[\"saboteur\",\"sidekick\","
	              "\"daredevil\",\"codebreaker\"]],\"deck\":[\"saboteur\","
	              "\"saboteur\",\"enforcer\",\"double-agent\","
	              "\"daredevil\",\"codebreaker\",\"sentinel\"],"
	              "\"progress\":[3,-2],\"in_play\":[{\"enforcer\":2},{}],"
	              "\"discards_used\":[3,0]}"));
	char *text = json_dumps(games, JSON_COMPACT | JSON_SORT_KEYS);
	printf("/* aa_v1_games.h: Agent Avenue base games recorded with rules "
	       "version 1\n * (tools/aa-v1/record.c; do not edit). */\n"
	       "/* clang-format off */\n"
	       "static const char aa_v1_games[] =\n");
	for (char *p = text; *p;) {
		printf("    \"");
		for (int n = 0; *p && n < 70; p++, n++) {
			if (*p == '"' || *p == '\\')
				putchar('\\');
			putchar(*p);
		}
		printf("\"\n");
	}
	printf("    ;\n/* clang-format on */\n");
	free(text);
	json_decref(games);
	return 0;
}
