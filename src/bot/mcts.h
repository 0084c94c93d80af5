/* mcts.h: the search behind the mcts bot (bot.c's only caller).
 *
 * Single-observer information-set Monte Carlo tree search (Cowling,
 * Powley and Whitehouse 2012) with UCT selection: each iteration samples
 * a complete game consistent with what `seat` sees (rules->determinize,
 * and a fresh engine generator drawn from the bot's own), walks the tree
 * of actions that are legal in that sample (another seat's actions as
 * `seat` observes them, rules->observe), adds one node, plays the rest at
 * random (to the end, or scored by rules->estimate after
 * MCTS_PLAYOUT_MOVES), and credits each node's actor with its share of
 * the win.
 */
#ifndef BD_MCTS_H
#define BD_MCTS_H

#include "bot.h"

/* Moves a playout runs at most before it is scored by rules->estimate,
 * when the rules have one (without, playouts run to the end).  0: the
 * new leaf itself is scored.  Measured on Quantum (make bots-eval): a
 * random playout of 8 or 32 moves only adds noise to the estimate. */
#define MCTS_PLAYOUT_MOVES 0

/* Chooses among root->n legal actions of `seat` in g (borrowed, seat to
 * act, root->n >= 1) within `iterations` iterations and `max_ms`
 * milliseconds (checked every few iterations), drawing from *rng.  Writes
 * the most visited action to *out and the work done to *report (ms
 * excepted).  Returns 0 or BD_ENOMEM. */
int mcts_choose(const struct engine_game *g, int seat,
                const struct engine_actions *root, struct rng *rng,
                unsigned long iterations, unsigned max_ms,
                struct engine_action *out, struct bot_report *report);

#endif
