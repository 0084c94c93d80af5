/* botmatch.h: one game between bots, for test_bots (make test) and
 * tests/eval/bots_eval.c (make bots-eval).  Header-only: both link it.
 *
 * play_bots(r, seats, options, seed, spec, max_ms, &moves, &why) plays a
 * normal game of r with `options` (borrowed; NULL: the defaults) from
 * `seed` with seat s played by spec[s]; every seat to act
 * (the lowest first when several may) asks bot_choose_native with a seed
 * drawn from the game seed, the seat and the move number, and the action
 * goes through engine_game_play like a posted move.  Returns the winners
 * bit set (0: stopped after BOTMATCH_MAX_MOVES), or -1 on an error with
 * *why filled. */
#ifndef BD_BOTMATCH_H
#define BD_BOTMATCH_H

#include <stdint.h>
#include <stdio.h>

#include "bot/bot.h"
#include "engine/engine.h"

#define BOTMATCH_MAX_MOVES 20000

static inline int play_bots(const struct rules *r, int seats,
                            const json_t *options, uint64_t seed,
                            const struct bot_spec *spec, unsigned max_ms,
                            long *moves, struct rules_why *why)
{
	struct engine_game *g;
	if (engine_game_new(r, seats, options, NULL, seed, &g, why))
		return -1;
	unsigned due;
	long m = 0;
	int rc = 0;
	while ((due = engine_game_to_act(g)) != 0 && m < BOTMATCH_MAX_MOVES) {
		int seat = __builtin_ctz(due);
		struct engine_action a;
		uint64_t bseed = seed * 0x9e3779b97f4a7c15ull ^
		                 (uint64_t)m << 8 ^ (uint64_t)seat;
		rc = bot_choose_native(g, seat, &spec[seat], bseed, max_ms, &a,
		                       NULL);
		if (rc) {
			snprintf(why->detail, sizeof why->detail,
			         "bot_choose_native: %d", rc);
			break;
		}
		rc = engine_game_play(g, seat, &a, why);
		if (rc)
			break;
		m++;
	}
	struct rules_result res;
	int out = rc ? -1 : engine_game_result(g, &res) ? (int)res.winners : 0;
	engine_game_free(g);
	*moves = m;
	return out;
}

#endif
