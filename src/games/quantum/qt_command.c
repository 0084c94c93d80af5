/* qt_command.c: what the command cards (rules §9.2, read as §14.1 says)
 * do to the rules every action module follows: who holds a working card
 * and its once-per-turn use, the start-of-turn cards, ship rolls under
 * CLEVER and SCRAPPY (and the answers to those decisions), dominance
 * under RAVENOUS and RIGHTEOUS, the kill triggers PLUNDERING and WARLIKE,
 * and CURIOUS's attack bookkeeping.  The free powers that are actions of
 * their own live in qt_powers.c, movement cards in qt_move.c,
 * construction and deploy cards in qt_actions.c, combat cards in
 * qt_combat.c.
 * Layer 3 (cards) of qt.h, below the action modules: it calls only
 * qt_state.c. */
#include <string.h>

#include "qt.h"

int qt_holds(const struct qt_state *s, int seat, int card)
{
	for (int i = 0; i <= QT_MAX_HELD; i++)
		if (s->held[seat][i] == card)
			return 1;
	return 0;
}

int qt_has(const struct qt_state *s, int seat, int card)
{
	/* rules §9.1, §14.1: a card works from the next start of a turn. */
	return qt_holds(s, seat, card) &&
	       !(s->waking[seat] & QT_CARD_BIT(card));
}

int qt_power_ready(const struct qt_state *s, int seat, int card)
{
	return s->phase == QT_PH_ACTIONS && seat == s->active &&
	       qt_has(s, seat, card) && !(s->used & QT_CARD_BIT(card));
}

void qt_power_use(struct qt_state *s, int card)
{
	s->used |= QT_CARD_BIT(card);
}

static int map_ships(const struct qt_state *s, int seat)
{
	int n = 0;
	for (int i = 0; i < QT_SHIPS; i++)
		n += s->ship[seat][i].where == QT_MAP;
	return n;
}

/* ARROGANT (§9.2 #2): strictly more ships on the map than every other
 * player. */
static int arrogant(const struct qt_state *s, int seat)
{
	int mine = map_ships(s, seat);
	for (int p = 0; p < s->seats; p++)
		if (p != seat && map_ships(s, p) >= mine)
			return 0;
	return 1;
}

/* CONFORMIST (§9.2 #6): two or more ships on the map show one number. */
static int conformist(const struct qt_state *s, int seat)
{
	int seen[7] = {0};
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where == QT_MAP && ++seen[sh->value] >= 2)
			return 1;
	}
	return 0;
}

void qt_cards_turn_start(struct qt_state *s, int seat)
{
	/* rules §14.1: taken cards start to work at any start of a turn;
	 * once-per-turn powers and CURIOUS's bookkeeping start afresh. */
	memset(s->waking, 0, sizeof s->waking);
	s->used = 0;
	s->attacked = 0;
	s->curious_debt = 0;
	/* rules §4 start of turn; §14.1: ARROGANT and CONFORMIST +1 each */
	if (qt_has(s, seat, QT_BRILLIANT))
		qt_gain_research(s, seat, 2);
	if (qt_has(s, seat, QT_ARROGANT) && arrogant(s, seat))
		s->actions_left++;
	if (qt_has(s, seat, QT_CONFORMIST) && conformist(s, seat))
		s->actions_left++;
}

/* ---- ship rolls: CLEVER (§9.2 #5) and SCRAPPY (§9.2 #25) ---- */

void qt_ship_roll(struct qt_state *s, struct rng *rng, int seat, int ship,
                  int old)
{
	struct qt_decision d = {
	    .seat = (uint8_t)seat, .ship = (int8_t)ship, .old = (uint8_t)old};
	/* rules §14.1: every ship roll of a CLEVER holder is a choice, on
	 * any turn; a CLEVER choice is never re-rolled by SCRAPPY. */
	if (qt_has(s, seat, QT_CLEVER)) {
		d.kind = QT_DEC_CLEVER;
		qt_queue(s, d);
		return;
	}
	qt_roll_for(s, QT_ROLL_SHIP, seat, ship);
	s->ship[seat][ship].value = (uint8_t)qt_reroll_ship(s, rng, old);
	/* rules §14.1: SCRAPPY is asked right after each ship roll on the
	 * holder's own turn. */
	if (qt_has(s, seat, QT_SCRAPPY) && seat == s->active &&
	    (s->phase == QT_PH_ACTIONS || s->phase == QT_PH_CARDS)) {
		d.kind = QT_DEC_SCRAPPY_SHIP;
		qt_queue(s, d);
	}
}

int qt_roll_decide(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why)
{
	const struct qt_decision d = s->decision[0];
	struct qt_ship *sh = &s->ship[seat][d.ship];
	if (d.kind == QT_DEC_CLEVER) {
		if (a->ship != d.ship || a->value < 1 || a->value > 6 ||
		    a->value == d.old)
			return rules_fail(
			    why, BD_EILLEGAL, "§9.2",
			    "clever: choose ship %d's number, 1..6%s", d.ship,
			    d.old ? ", other than the one it must "
			            "not show"
			          : "");
		qt_pop_decision(s);
		sh->value = a->value;
		return 0;
	}
	qt_pop_decision(s);
	if (a->yes) { /* rules §14.1: the same procedure again */
		qt_roll_for(s, QT_ROLL_SHIP, seat, d.ship);
		sh->value = (uint8_t)qt_reroll_ship(s, rng, d.old);
	}
	return 0;
}

void qt_roll_list(const struct qt_state *s, qt_emit_fn emit, void *ctx)
{
	const struct qt_decision *d = &s->decision[0];
	if (d->kind == QT_DEC_CLEVER) {
		struct qt_action a = {.type = QT_A_CLEVER, .ship = d->ship};
		for (int v = 1; v <= 6; v++)
			if (v != d->old) {
				a.value = (uint8_t)v;
				emit(ctx, &a);
			}
		return;
	}
	emit(ctx, &(struct qt_action){.type = QT_A_SCRAPPY, .yes = 1});
	emit(ctx, &(struct qt_action){.type = QT_A_SCRAPPY, .yes = 0});
}

/* ---- dominance and kills ---- */

void qt_lose_dominance(struct qt_state *s, int seat)
{
	/* RIGHTEOUS (§9.2 #24) blocks the loss, RAVENOUS (#21) doubles it;
	 * with both, no loss (add-on tips). */
	if (qt_has(s, seat, QT_RIGHTEOUS))
		return;
	int d = s->dominance[seat] - (qt_has(s, seat, QT_RAVENOUS) ? 2 : 1);
	s->dominance[seat] = (uint8_t)(d < 1 ? 1 : d);
}

void qt_gain_kill(struct qt_state *s, int seat)
{
	qt_gain_dominance(s, seat, qt_has(s, seat, QT_RAVENOUS) ? 2 : 1);
}

void qt_kill_triggers(struct qt_state *s, int seat)
{
	/* rules §14.1: at the first kill of the holder's own turn, once
	 * per turn. */
	if (seat != s->active)
		return;
	if (qt_power_ready(s, seat, QT_PLUNDERING)) {
		qt_power_use(s, QT_PLUNDERING);
		qt_gain_research(s, seat, 3);
	}
	if (qt_power_ready(s, seat, QT_WARLIKE)) {
		qt_power_use(s, QT_WARLIKE);
		s->actions_left++;
	}
}

/* ---- CURIOUS (§9.2 #9, §9.4, §14) ---- */

int qt_curious_ready(const struct qt_state *s, int seat)
{
	return qt_power_ready(s, seat, QT_CURIOUS) &&
	       (s->curious == QT_CURIOUS_FIRST || !s->attacked);
}

int qt_attack_cost(const struct qt_state *s)
{
	if (!(s->used & QT_CARD_BIT(QT_CURIOUS)))
		return 0;
	if (s->curious == QT_CURIOUS_ADDON)
		return -1; /* no attack after the free move */
	return s->curious == QT_CURIOUS_REVISED && s->curious_debt;
}

int qt_attack_check(const struct qt_state *s, int base, struct rules_why *why)
{
	int extra = qt_attack_cost(s);
	if (extra < 0)
		return rules_fail(why, BD_EILLEGAL, "§9.4",
		                  "after CURIOUS's free move (add-on card) no "
		                  "attack is allowed this turn");
	if (s->actions_left < base + extra)
		return rules_fail(why, BD_EILLEGAL, extra ? "§14" : "§4",
		                  "this attack needs %d action%s%s",
		                  base + extra, base + extra == 1 ? "" : "s",
		                  extra ? " (CURIOUS's free move is paid back)"
		                        : "");
	return 0;
}

void qt_attack_pay(struct qt_state *s, int base)
{
	s->actions_left = (uint8_t)(s->actions_left - base - qt_attack_cost(s));
	s->curious_debt = 0; /* qt_combat marks the turn as attacked */
}
