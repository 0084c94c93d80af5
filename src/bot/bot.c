/* bot.c: bot specs and the choice of an action.  See bot.h.
 *
 * Only the random bot is implemented here so far: a uniformly random
 * legal action drawn from the bot's own generator.  The mcts kind is
 * accepted in specs but plays as random until the search lands (issue
 * 10); nothing calls it done. */
#include <string.h>

#include "bot.h"

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

int bot_choose(const struct engine_game *g, int seat,
               const struct bot_spec *spec, uint64_t seed, unsigned max_ms,
               json_t **action)
{
	(void)spec;
	(void)max_ms;
	if (seat < 0 || seat >= g->seats ||
	    !(engine_game_to_act(g) & (1u << seat)))
		return BD_ENOTTURN;
	json_t *acts = engine_game_actions(g, seat);
	if (!acts)
		return BD_ENOMEM;
	size_t n = json_array_size(acts);
	if (n == 0) {
		json_decref(acts);
		return BD_EINTERNAL;
	}
	struct rng r;
	rng_seed(&r, seed);
	json_t *a =
	    json_deep_copy(json_array_get(acts, rng_below(&r, (uint32_t)n)));
	json_decref(acts);
	if (!a)
		return BD_ENOMEM;
	*action = a;
	return 0;
}
