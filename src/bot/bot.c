/* bot.c: bot specs and the choice of an action.  See bot.h.
 *
 * The random bot draws a uniformly random legal action from the bot's
 * own generator; the mcts bot searches (mcts.c). */
#include <limits.h>
#include <string.h>
#include <time.h>

#include "bot.h"
#include "mcts.h"

int bot_spec_from_json(const json_t *entry, struct bot_spec *out,
                       struct rules_why *why)
{
	const json_t *kind = json_object_get(entry, "bot");
	const json_t *level = json_object_get(entry, "level");
	const char *k = json_string_value(kind);
	if (!json_is_object(entry) || !k)
		return rules_fail(why, BD_EBADOPTIONS, "seating",
		                  "a bot seat is {\"bot\":\"random\"} or "
		                  "{\"bot\":\"mcts\",\"level\":N}");
	if (json_object_size(entry) != 1u + (level != NULL))
		return rules_fail(
		    why, BD_EBADOPTIONS, "seating",
		    "a bot seat takes only \"bot\" and \"level\"");
	struct bot_spec s = {.level = BOT_LEVEL_DEFAULT};
	if (strcmp(k, "random") == 0) {
		s.kind = BOT_RANDOM;
		if (level)
			return rules_fail(why, BD_EBADOPTIONS, "seating",
			                  "the random bot has no level");
	} else if (strcmp(k, "mcts") == 0) {
		s.kind = BOT_MCTS;
		if (level) {
			if (!json_is_integer(level) ||
			    json_integer_value(level) < BOT_LEVEL_MIN ||
			    json_integer_value(level) > BOT_LEVEL_MAX)
				return rules_fail(
				    why, BD_EBADOPTIONS, "seating",
				    "a bot's level is an integer from %d to %d",
				    BOT_LEVEL_MIN, BOT_LEVEL_MAX);
			s.level = (int)json_integer_value(level);
		}
	} else {
		return rules_fail(
		    why, BD_EBADOPTIONS, "seating",
		    "no bot named \"%.40s\" (there are \"random\" "
		    "and \"mcts\")",
		    k);
	}
	*out = s;
	return 0;
}

json_t *bot_spec_to_json(const struct bot_spec *spec)
{
	if (spec->kind == BOT_RANDOM)
		return json_pack("{s:s}", "bot", "random");
	return json_pack("{s:s,s:i}", "bot", "mcts", "level", spec->level);
}

/* Budgets per level: iterations grow about 3.5x a level; the default
 * cap keeps a decision within a few seconds at most. */
static const unsigned long level_iterations[] = {
    [1] = 100, [2] = 300, [3] = 1000, [4] = 3500, [5] = 12000};
static const unsigned level_ms[] = {
    [1] = 250, [2] = 500, [3] = 1000, [4] = 3000, [5] = 8000};
_Static_assert(sizeof level_iterations / sizeof *level_iterations ==
                   BOT_LEVEL_MAX + 1,
               "one budget per level");
_Static_assert(sizeof level_ms / sizeof *level_ms == BOT_LEVEL_MAX + 1,
               "one cap per level");

static int clamp_level(int level)
{
	return level < BOT_LEVEL_MIN   ? BOT_LEVEL_MIN
	       : level > BOT_LEVEL_MAX ? BOT_LEVEL_MAX
	                               : level;
}

unsigned long bot_level_iterations(int level)
{
	return level_iterations[clamp_level(level)];
}

unsigned bot_level_max_ms(int level)
{
	return level_ms[clamp_level(level)];
}

/* The choice of every kind: random when iterations is 0, else mcts. */
static int choose(const struct engine_game *g, int seat,
                  unsigned long iterations, unsigned max_ms, uint64_t seed,
                  struct engine_action *out, struct bot_report *report)
{
	struct bot_report rep = {0};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (seat < 0 || seat >= g->seats ||
	    !(engine_game_to_act(g) & (1u << seat)))
		return BD_ENOTTURN;
	struct engine_actions list = {0};
	int rc = engine_game_legal(g, seat, &list);
	if (rc == 0 && list.n == 0)
		rc = BD_EINTERNAL;
	struct rng r;
	rng_seed(&r, seed);
	if (rc == 0 && (iterations == 0 || list.n == 1))
		*out = list.v[rng_below(&r, (uint32_t)list.n)];
	else if (rc == 0)
		rc = mcts_choose(g, seat, &list, &r, iterations, max_ms, out,
		                 &rep);
	engine_actions_free(&list);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rep.ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	         (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (report)
		*report = rep;
	return rc;
}

int bot_choose_native(const struct engine_game *g, int seat,
                      const struct bot_spec *spec, uint64_t seed,
                      unsigned max_ms, struct engine_action *out,
                      struct bot_report *report)
{
	if (spec->kind == BOT_RANDOM)
		return choose(g, seat, 0, 0, seed, out, report);
	return choose(g, seat, bot_level_iterations(spec->level),
	              max_ms ? max_ms : bot_level_max_ms(spec->level), seed,
	              out, report);
}

int bot_choose_mcts(const struct engine_game *g, int seat,
                    unsigned long iterations, uint64_t seed,
                    struct engine_action *out, struct bot_report *report)
{
	return choose(g, seat, iterations ? iterations : 1, UINT_MAX, seed, out,
	              report);
}

int bot_choose(const struct engine_game *g, int seat,
               const struct bot_spec *spec, uint64_t seed, unsigned max_ms,
               json_t **action)
{
	struct engine_action a;
	int rc = bot_choose_native(g, seat, spec, seed, max_ms, &a, NULL);
	if (rc)
		return rc;
	json_t *j = g->rules->action_json(&a);
	if (!j)
		return BD_ENOMEM;
	*action = j;
	return 0;
}
