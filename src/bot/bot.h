/* bot.h: players the server provides.  Its manual.
 *
 * A bot chooses one action for one seat of a running game, from what that
 * seat may see and nothing else (never the deck order, the seed or another
 * seat's hand).  It is game-agnostic: it reaches the game only through the
 * engine (engine.h).  Its choice is an ordinary action that the caller
 * applies and logs like any other move, so a replay never runs a bot.
 *
 * Kinds:
 *   random: a uniformly random legal action.
 *   mcts:   information-set Monte Carlo tree search over determinizations
 *           (UCT); the level (BOT_LEVEL_MIN..BOT_LEVEL_MAX) sets its
 *           iteration budget.
 *
 * In a game's `seating`, a bot seat is {"bot":"random"} or
 * {"bot":"mcts","level":N} (level optional, BOT_LEVEL_DEFAULT).
 */
#ifndef BD_BOT_H
#define BD_BOT_H

#include <jansson.h>
#include <stdint.h>

#include "../engine/engine.h"

#define BOT_LEVEL_MIN     1
#define BOT_LEVEL_MAX     5
#define BOT_LEVEL_DEFAULT 3

enum bot_kind { BOT_RANDOM, BOT_MCTS };

struct bot_spec {
	enum bot_kind kind;
	int level; /* BOT_LEVEL_MIN..BOT_LEVEL_MAX; ignored for BOT_RANDOM */
};

/* Reads a seating entry that names a bot: {"bot":"random"} or
 * {"bot":"mcts","level":N} (borrowed), with no other key.  Returns 0 with
 * *out filled, or BD_EBADOPTIONS with *why (may be NULL) saying what is
 * wrong. */
int bot_spec_from_json(const json_t *entry, struct bot_spec *out,
                       struct rules_why *why);

/* The seating entry for *spec, as bot_spec_from_json reads it
 * ({"bot":"random"} or {"bot":"mcts","level":N}).  New reference, or NULL
 * when out of memory. */
json_t *bot_spec_to_json(const struct bot_spec *spec);

/* Chooses an action for `seat` of g (borrowed, unchanged).  It decides
 * only from what `seat` may see.  `seed` drives the bot's own
 * randomness (the same g, seat, spec and seed give the same choice when
 * max_ms does not cut the search short); `max_ms` caps its wall-clock
 * time in milliseconds (0: the level's default).  On success returns 0
 * and *action is a new reference to an action object that
 * engine_game_apply(g, seat, *action, …) accepts.  Errors: BD_ENOTTURN
 * (seat may not act now, or the game is over), BD_ENOMEM, BD_EINTERNAL
 * (the rules listed no action for a seat to act). */
int bot_choose(const struct engine_game *g, int seat,
               const struct bot_spec *spec, uint64_t seed, unsigned max_ms,
               json_t **action);

/* What one choice cost (for the bench and bots-eval). */
struct bot_report {
	unsigned long iterations; /* MCTS iterations run (0 for random) */
	unsigned long nodes;      /* tree nodes made */
	double ms;                /* wall-clock time of the choice */
	int cut;                  /* 1: max_ms stopped the search early */
};

/* The iteration budget of an mcts level (BOT_LEVEL_MIN..BOT_LEVEL_MAX,
 * clamped), and its default wall-clock cap in milliseconds. */
unsigned long bot_level_iterations(int level);
unsigned bot_level_max_ms(int level);

/* bot_choose's native form: the same choice, as the game's native action
 * (*out), with no JSON.  `report` may be NULL.  Errors as bot_choose. */
int bot_choose_native(const struct engine_game *g, int seat,
                      const struct bot_spec *spec, uint64_t seed,
                      unsigned max_ms, struct engine_action *out,
                      struct bot_report *report);

/* The mcts bot with an explicit budget of `iterations` (>= 1) and no
 * time cap, for tests and evaluations; otherwise as bot_choose_native. */
int bot_choose_mcts(const struct engine_game *g, int seat,
                    unsigned long iterations, uint64_t seed,
                    struct engine_action *out, struct bot_report *report);

#endif
