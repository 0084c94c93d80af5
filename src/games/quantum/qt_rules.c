/* qt_rules.c: turn flow and dispatch: who acts, which module applies
 * and lists an action, drawing one action for playouts.  The primitives
 * every Quantum file shares are in qt_state.c.  Layer 6 (flow) of qt.h:
 * it calls the action modules and the command cards, and none of them
 * calls it. */

#include "qt.h"

unsigned qt_to_act(const struct qt_state *s)
{
	if (s->phase == QT_PH_OVER)
		return 0;
	if (s->ndecisions > 0)
		return 1u << s->decision[0].seat;
	if (s->phase == QT_PH_REROLL)
		return s->undecided;
	if (s->phase == QT_PH_CARDS) {
		int p = qt_cards_picker(s);
		return p < 0 ? 0 : 1u << p;
	}
	return 1u << s->active;
}

/* Which decision an action answers. */
static int answers(const struct qt_decision *d, const struct qt_action *a)
{
	switch (d->kind) {
	case QT_DEC_ADVANCE:
		return a->type == QT_A_ADVANCE || a->type == QT_A_STAY;
	case QT_DEC_INFAMY:
		return a->type == QT_A_INFAMY;
	case QT_DEC_DISCARD:
	case QT_DEC_SABOTAGE:
		return a->type == QT_A_DISCARD_COMMAND;
	case QT_DEC_PLACE_SHIP:
		return a->type == QT_A_PLACE_SHIP;
	case QT_DEC_REORGANIZE:
		return a->type == QT_A_REORGANIZE;
	case QT_DEC_RELOCATE:
		return a->type == QT_A_RELOCATE;
	case QT_DEC_DANGEROUS:
		return a->type == QT_A_DANGEROUS;
	case QT_DEC_CRUEL:
		return a->type == QT_A_CRUEL;
	case QT_DEC_RELENTLESS:
		return a->type == QT_A_RELENTLESS;
	case QT_DEC_SCRAPPY:
	case QT_DEC_SCRAPPY_SHIP:
		return a->type == QT_A_SCRAPPY;
	case QT_DEC_CLEVER:
		return a->type == QT_A_CLEVER;
	}
	return 0;
}

/* What each decision is called and the rule that asks for it. */
static const struct {
	const char *name, *rule;
} decision_info[] = {
    [QT_DEC_ADVANCE] = {"advance or stay", "§6.1"},
    [QT_DEC_INFAMY] = {"infamy", "§7.1"},
    [QT_DEC_DISCARD] = {"discard_command", "§9.1"},
    [QT_DEC_SABOTAGE] = {"discard_command", "§9.3"},
    [QT_DEC_PLACE_SHIP] = {"place_ship", "§9.3"},
    [QT_DEC_REORGANIZE] = {"reorganize", "§9.3"},
    [QT_DEC_RELOCATE] = {"relocate", "§9.3"},
    [QT_DEC_DANGEROUS] = {"dangerous", "§9.2"},
    [QT_DEC_CRUEL] = {"cruel", "§14.1"},
    [QT_DEC_RELENTLESS] = {"relentless", "§14.1"},
    [QT_DEC_SCRAPPY] = {"scrappy", "§14.1"},
    [QT_DEC_SCRAPPY_SHIP] = {"scrappy", "§14.1"},
    [QT_DEC_CLEVER] = {"clever", "§14.1"},
};

/* Which part of the module answers and lists each decision. */
enum owner { BY_COMBAT, BY_BATTLE, BY_ROLL, BY_CARDS };

static int owner_of(int kind)
{
	switch (kind) {
	case QT_DEC_ADVANCE:
	case QT_DEC_INFAMY:
		return BY_COMBAT;
	case QT_DEC_DANGEROUS:
	case QT_DEC_CRUEL:
	case QT_DEC_RELENTLESS:
	case QT_DEC_SCRAPPY:
		return BY_BATTLE;
	case QT_DEC_SCRAPPY_SHIP:
	case QT_DEC_CLEVER:
		return BY_ROLL;
	}
	return BY_CARDS;
}

static int apply_decision(struct qt_state *s, int seat,
                          const struct qt_action *a, struct rng *rng,
                          struct rules_why *why)
{
	const struct qt_decision *d = &s->decision[0];
	const char *rule = decision_info[d->kind].rule;
	if (d->seat != seat)
		return rules_fail(why, BD_EILLEGAL, rule,
		                  "seat %d must decide first", d->seat);
	if (!answers(d, a))
		return rules_fail(why, BD_EILLEGAL, rule,
		                  "a decision is pending: %s",
		                  decision_info[d->kind].name);
	int rc;
	switch (owner_of(d->kind)) {
	case BY_COMBAT:
		rc = qt_combat_decide(s, seat, a, why);
		break;
	case BY_BATTLE:
		rc = qt_battle_decide(s, seat, a, rng, why);
		break;
	case BY_ROLL:
		rc = qt_roll_decide(s, seat, a, rng, why);
		break;
	default:
		rc = qt_cards_decide(s, seat, a, rng, why);
	}
	if (rc == 0 && s->phase == QT_PH_CARDS)
		qt_cards_settle(s, rng);
	return rc;
}

static int apply_phase1(struct qt_state *s, int seat, const struct qt_action *a,
                        struct rng *rng, struct rules_why *why)
{
	if (seat != s->active)
		return rules_fail(why, BD_EILLEGAL, "§4", "not your turn");
	switch (a->type) {
	case QT_A_RECONFIGURE:
	case QT_A_DEPLOY:
	case QT_A_CONSTRUCT:
	case QT_A_RESEARCH:
		return qt_basic_apply(s, seat, a, rng, why);
	case QT_A_END_TURN:
		qt_cards_begin(s, rng);
		return 0;
	case QT_A_MOVE:
	case QT_A_ATTACK:
	case QT_A_TRANSPORT:
	case QT_A_STRIKE:
	case QT_A_WARP:
	case QT_A_MODIFY:
	case QT_A_SCOUT:
	case QT_A_TACTICAL:
	case QT_A_TACTICAL_ATTACK:
	case QT_A_TACTICAL_TRANSPORT:
		return qt_move_apply(s, seat, a, rng, why);
	case QT_A_CEREBRAL:
	case QT_A_TYRANNICAL:
	case QT_A_FLEXIBLE:
	case QT_A_RESOURCEFUL:
	case QT_A_NOMADIC:
		return qt_power_apply(s, seat, a, rng, why);
	default:
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "not an action of Phase 1 (actions)");
	}
}

int qt_apply(struct qt_state *s, int seat, const struct qt_action *a,
             struct rng *rng, struct rules_why *why)
{
	s->last_dice_n = 0;
	s->last_cards_n = 0;
	s->qnew = 0;
	if (s->phase == QT_PH_OVER)
		return rules_fail(why, BD_EILLEGAL, "§10", "the game is over");
	if (s->ndecisions > 0)
		return apply_decision(s, seat, a, rng, why);
	switch (s->phase) {
	case QT_PH_REROLL:
	case QT_PH_PLANET:
	case QT_PH_ARRANGE:
		return qt_setup_apply(s, seat, a, rng, why);
	case QT_PH_ACTIONS:
		return apply_phase1(s, seat, a, rng, why);
	case QT_PH_CARDS:
		return qt_cards_apply(s, seat, a, rng, why);
	}
	return rules_fail(why, BD_EILLEGAL, "§4", "no such phase");
}

/* qt_list_actions, with the plain moves as runs when `runs` is given
 * (qt_move_list). */
static void list_all(const struct qt_state *s, int seat, qt_emit_fn emit,
                     qt_moves_fn runs, void *ctx)
{
	if (!(qt_to_act(s) & (1u << seat)))
		return;
	if (s->ndecisions > 0) {
		switch (owner_of(s->decision[0].kind)) {
		case BY_COMBAT:
			qt_combat_list(s, emit, ctx);
			return;
		case BY_BATTLE:
			qt_battle_list(s, emit, ctx);
			return;
		case BY_ROLL:
			qt_roll_list(s, emit, ctx);
			return;
		}
		qt_cards_list(s, seat, emit, ctx);
		return;
	}
	switch (s->phase) {
	case QT_PH_REROLL:
	case QT_PH_PLANET:
	case QT_PH_ARRANGE:
		qt_setup_list(s, seat, emit, ctx);
		return;
	case QT_PH_ACTIONS:
		qt_basic_list(s, seat, emit, ctx);
		qt_move_list(s, seat, emit, runs, ctx);
		qt_power_list(s, seat, emit, ctx);
		emit(ctx, &(struct qt_action){.type = QT_A_END_TURN});
		return;
	case QT_PH_CARDS:
		qt_cards_list(s, seat, emit, ctx);
		return;
	}
}

void qt_list_actions(const struct qt_state *s, int seat, qt_emit_fn emit,
                     void *ctx)
{
	list_all(s, seat, emit, NULL, ctx);
}

/* ---- drawing one action without writing out the list ---- */

#define PICK_SEGS (2 * QT_SHIPS + 2) /* runs, and singles between */

/* A stretch of the list: n single actions from single[first] on, or one
 * run of moves. */
struct segment {
	int run; /* index in gathered.run[], or -1: singles */
	size_t first, n;
};

/* The list as qt_pick_action gathers it: segments in list order (at most
 * one run per ship, qt_move_list). */
struct gathered {
	struct qt_action single[QT_PICK_KEEP];
	struct qt_moves run[QT_SHIPS];
	struct segment seg[PICK_SEGS];
	size_t nsingle, nrun, nseg, n;
	size_t keep;  /* singles kept, <= QT_PICK_KEEP */
	int overflow; /* 1: more runs or segments than the arrays hold
	                 (qt_move_list broke its one run a ship): n is
	                 still the count, nth_of lists again */
};

static void gather_single(void *ctx, const struct qt_action *a)
{
	struct gathered *g = ctx;
	g->n++;
	if (g->overflow)
		return;
	if (g->nseg == 0 || g->seg[g->nseg - 1].run >= 0) {
		if (g->nseg == PICK_SEGS) {
			g->overflow = 1;
			return;
		}
		g->seg[g->nseg++] = (struct segment){-1, g->nsingle, 0};
	}
	if (g->nsingle < g->keep)
		g->single[g->nsingle] = *a;
	g->nsingle++;
	g->seg[g->nseg - 1].n++;
}

static void gather_run(void *ctx, const struct qt_moves *run)
{
	struct gathered *g = ctx;
	g->n += run->n;
	if (g->overflow || g->nrun == QT_SHIPS || g->nseg == PICK_SEGS) {
		g->overflow = 1;
		return;
	}
	g->run[g->nrun] = *run;
	g->seg[g->nseg++] = (struct segment){(int)g->nrun++, 0, run->n};
}

/* Emits nothing: keeps action `k` of the list (a recount, for an index
 * past what gathered kept). */
struct kth {
	size_t k;
	struct qt_action *out;
};

static void keep_kth(void *ctx, const struct qt_action *a)
{
	struct kth *c = ctx;
	if (c->k-- == 0)
		*c->out = *a;
}

/* Action k (< g->n) of the list g gathered of seat in s. */
static void nth_of(const struct qt_state *s, int seat, const struct gathered *g,
                   size_t k, struct qt_action *out)
{
	size_t left = k;
	for (size_t i = 0; !g->overflow && i < g->nseg; i++) {
		if (left >= g->seg[i].n) {
			left -= g->seg[i].n;
			continue;
		}
		if (g->seg[i].run >= 0) {
			qt_moves_at(&g->run[g->seg[i].run], (unsigned)left,
			            out);
			return;
		}
		if (g->seg[i].first + left < g->keep) {
			*out = g->single[g->seg[i].first + left];
			return;
		}
		break;
	}
	struct kth c = {k, out};
	list_all(s, seat, keep_kth, NULL, &c);
}

/* Fills *g (its counters zeroed first) with seat's list in s, keeping
 * the first `keep` singles. */
static void gather(const struct qt_state *s, int seat, size_t keep,
                   struct gathered *g)
{
	g->nsingle = g->nrun = g->nseg = g->n = 0;
	g->overflow = 0;
	g->keep = keep < QT_PICK_KEEP ? keep : QT_PICK_KEEP;
	list_all(s, seat, gather_single, gather_run, g);
}

size_t qt_nth_action(const struct qt_state *s, int seat, size_t k, size_t keep,
                     struct qt_action *out)
{
	struct gathered g;
	gather(s, seat, keep, &g);
	if (k < g.n)
		nth_of(s, seat, &g, k, out);
	return g.n;
}

size_t qt_pick_action(const struct qt_state *s, int seat, struct rng *rng,
                      struct qt_action *out)
{
	struct gathered g;
	gather(s, seat, QT_PICK_KEEP, &g);
	if (g.n)
		nth_of(s, seat, &g, rng_below(rng, (uint32_t)g.n), out);
	return g.n;
}
