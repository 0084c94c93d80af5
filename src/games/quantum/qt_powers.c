/* qt_powers.c: the once-per-turn command-card powers that are Phase 1
 * actions of their own: CEREBRAL, TYRANNICAL, FLEXIBLE, RESOURCEFUL and
 * NOMADIC (rules §9.2, §14.1).  Cards that change a move, an attack or a
 * construction live with those (qt_move.c, qt_combat.c, qt_actions.c).
 * Layer 5 (actions) of qt.h: it calls the command cards (qt_command.c)
 * and the primitives. */
#include "qt.h"

static int ready(const struct qt_state *s, int seat, int card,
                 struct rules_why *why)
{
	if (!qt_has(s, seat, card))
		return rules_fail(why, BD_EILLEGAL, "§9.2",
		                  "you hold no working %s", qt_card_name(card));
	if (!qt_power_ready(s, seat, card))
		return rules_fail(why, BD_EILLEGAL, "§9.2",
		                  "%s is once per turn", qt_card_name(card));
	return 0;
}

static int map_ship(const struct qt_state *s, int seat, int i,
                    struct rules_why *why)
{
	if (i < 0 || i >= QT_SHIPS || s->ship[seat][i].where != QT_MAP)
		return rules_fail(why, BD_EILLEGAL, "§14.1",
		                  "ship %d is not one of your ships on the map",
		                  i);
	return 0;
}

/* 1 if NOMADIC may take ship i of seat to `to` (§9.2 #17, §14.1). */
static int nomadic_ok(const struct qt_state *s, int seat, int i,
                      struct qt_sq to)
{
	const struct qt_board *b = &s->board;
	struct qt_sq at = s->ship[seat][i].at;
	int p = qt_board_orbit_of(b, at.r, at.c);
	int q = qt_board_orbit_of(b, to.r, to.c);
	if (p < 0 || q < 0 || !qt_square_free(s, to))
		return 0;
	/* "adjacent planet": on an orthogonally neighbouring tile */
	struct qt_sq pc = b->planet[p].at, qc = b->planet[q].at;
	int dr = pc.r - qc.r, dc = pc.c - qc.c;
	return (dr == 0 && (dc == 3 || dc == -3)) ||
	       (dc == 0 && (dr == 3 || dr == -3));
}

static int flexible_ok(const struct qt_state *s, int seat, int i, int v)
{
	int d = v - s->ship[seat][i].value;
	return v >= 1 && v <= 6 && (d == 1 || d == -1); /* no wrap */
}

static int power_check(const struct qt_state *s, int seat,
                       const struct qt_action *a, struct rules_why *why)
{
	switch (a->type) {
	case QT_A_CEREBRAL:
		if (ready(s, seat, QT_CEREBRAL, why))
			return BD_EILLEGAL;
		if (s->dominance[seat] <= 1)
			return rules_fail(why, BD_EILLEGAL, "§9.2",
			                  "cerebral: not at dominance 1");
		return 0;
	case QT_A_TYRANNICAL:
		if (ready(s, seat, QT_TYRANNICAL, why))
			return BD_EILLEGAL;
		if (s->research[seat] <= 1)
			return rules_fail(why, BD_EILLEGAL, "§9.2",
			                  "tyrannical: not at research 1");
		return 0;
	case QT_A_FLEXIBLE:
		if (ready(s, seat, QT_FLEXIBLE, why) ||
		    map_ship(s, seat, a->ship, why))
			return BD_EILLEGAL;
		if (!flexible_ok(s, seat, a->ship, a->value))
			return rules_fail(why, BD_EILLEGAL, "§9.2",
			                  "flexible: one up or down, no wrap");
		return 0;
	case QT_A_RESOURCEFUL:
		if (ready(s, seat, QT_RESOURCEFUL, why) ||
		    map_ship(s, seat, a->ship, why))
			return BD_EILLEGAL;
		return 0;
	case QT_A_NOMADIC:
		if (ready(s, seat, QT_NOMADIC, why) ||
		    map_ship(s, seat, a->ship, why))
			return BD_EILLEGAL;
		if (s->actions_left < 1)
			return rules_fail(why, BD_EILLEGAL, "§9.2",
			                  "nomadic costs an action");
		if (!nomadic_ok(s, seat, a->ship, a->to))
			return rules_fail(
			    why, BD_EILLEGAL, "§9.2",
			    "nomadic: from an orbital position to "
			    "an empty one of a planet on an "
			    "orthogonally neighbouring tile");
		return 0;
	}
	return rules_fail(why, BD_EILLEGAL, "§9.2", "not a command power");
}

int qt_power_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why)
{
	if (power_check(s, seat, a, why))
		return BD_EILLEGAL;
	struct qt_ship *sh =
	    a->ship >= 0 && a->ship < QT_SHIPS ? &s->ship[seat][a->ship] : NULL;
	switch (a->type) {
	case QT_A_CEREBRAL:
		qt_power_use(s, QT_CEREBRAL);
		s->dominance[seat]--;
		qt_gain_research(s, seat, 3);
		return 0;
	case QT_A_TYRANNICAL:
		qt_power_use(s, QT_TYRANNICAL);
		s->research[seat]--;
		qt_gain_dominance(s, seat, 1);
		return 0;
	case QT_A_FLEXIBLE:
		qt_power_use(s, QT_FLEXIBLE);
		sh->value = a->value;
		return 0;
	case QT_A_RESOURCEFUL:
		/* the die keeps its moved/ability flags (§9.2 #23) */
		qt_power_use(s, QT_RESOURCEFUL);
		sh->where = QT_SCRAPYARD;
		sh->at = (struct qt_sq){-1, -1};
		s->actions_left++;
		qt_ship_roll(s, rng, seat, a->ship, 0);
		return 0;
	case QT_A_NOMADIC:
		qt_power_use(s, QT_NOMADIC);
		sh->at = a->to;
		s->actions_left--;
		return 0;
	}
	return BD_EILLEGAL;
}

/* Every NOMADIC move of ship i: nomadic_ok for each orbital square of
 * each planet, in planet order, with the ship's own planet found once (an
 * orbital square of planet q is on q's tile, so its planet is q). */
static void list_nomadic(const struct qt_state *s, int seat, int i,
                         qt_emit_fn emit, void *ctx)
{
	const struct qt_board *b = &s->board;
	struct qt_sq at = s->ship[seat][i].at;
	int p = qt_board_orbit_of(b, at.r, at.c);
	if (p < 0)
		return;
	struct qt_sq pc = b->planet[p].at;
	struct qt_action a = {.type = QT_A_NOMADIC, .ship = (int8_t)i};
	for (int q = 0; q < b->nplanets; q++) {
		int dr = pc.r - b->planet[q].at.r,
		    dc = pc.c - b->planet[q].at.c;
		if (!((dr == 0 && (dc == 3 || dc == -3)) ||
		      (dc == 0 && (dr == 3 || dr == -3))))
			continue;
		struct qt_sq o[4];
		qt_board_orbitals(b, q, o);
		for (int k = 0; k < 4; k++) {
			a.to = o[k];
			if (qt_square_free(s, o[k]))
				emit(ctx, &a);
		}
	}
}

void qt_power_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx)
{
	/* every power below needs its card ready (power_check, ready) */
	if (!qt_power_ready(s, seat, QT_CEREBRAL) &&
	    !qt_power_ready(s, seat, QT_TYRANNICAL) &&
	    !qt_power_ready(s, seat, QT_FLEXIBLE) &&
	    !qt_power_ready(s, seat, QT_RESOURCEFUL) &&
	    !qt_power_ready(s, seat, QT_NOMADIC))
		return;
	struct qt_action a = {.type = QT_A_CEREBRAL};
	if (power_check(s, seat, &a, NULL) == 0)
		emit(ctx, &a);
	a.type = QT_A_TYRANNICAL;
	if (power_check(s, seat, &a, NULL) == 0)
		emit(ctx, &a);
	for (int i = 0; i < QT_SHIPS; i++) {
		if (s->ship[seat][i].where != QT_MAP)
			continue;
		a = (struct qt_action){.type = QT_A_FLEXIBLE,
		                       .ship = (int8_t)i};
		for (int v = s->ship[seat][i].value - 1;
		     v <= s->ship[seat][i].value + 1; v += 2) {
			a.value = (uint8_t)v;
			if (power_check(s, seat, &a, NULL) == 0)
				emit(ctx, &a);
		}
		a.type = QT_A_RESOURCEFUL;
		if (power_check(s, seat, &a, NULL) == 0)
			emit(ctx, &a);
		if (qt_power_ready(s, seat, QT_NOMADIC) && s->actions_left >= 1)
			list_nomadic(s, seat, i, emit, ctx);
	}
}
