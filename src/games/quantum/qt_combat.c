/* qt_combat.c: combat (rules §6.1, §14, §14.1) and the decisions it
 * raises: advance or stay, and the infamy cube of dominance 6 (§7.1).
 * Layer 5 (actions) of qt.h: it calls the command cards and the
 * primitives; qt_move.c starts a battle. */
#include <string.h>

#include "qt.h"

/* ---- the battle pipeline (rules §6.1, §14, §14.1) ---- */

enum step {
	B_DANGEROUS,
	B_ROLL,
	B_ATT_CRUEL,
	B_ATT_RELENTLESS,
	B_ATT_SCRAPPY,
	B_DEF_CRUEL,
	B_ATT_SCRAPPY_AGAIN,
	B_DEF_RELENTLESS,
	B_RESOLVE,
};

/* A combat die of seat: RATIONAL rolls none and counts 3 (§14.1). */
static uint8_t combat_die(struct qt_state *s, struct rng *rng, int seat)
{
	return (uint8_t)(qt_has(s, seat, QT_RATIONAL) ? 3 : qt_roll(s, rng));
}

/* 1 if `holder` may re-roll, with `card`, the die of `die_owner`: never a
 * RATIONAL 3 (§14.1). */
static int offer(const struct qt_state *s, int holder, int card, int die_owner)
{
	return qt_has(s, holder, card) && !qt_has(s, die_owner, QT_RATIONAL);
}

static int ask(struct qt_state *s, int seat, int kind)
{
	qt_queue(s, (struct qt_decision){.kind = (uint8_t)kind,
	                                 .seat = (uint8_t)seat});
	return 1;
}

/* Runs one pipeline step; 1 if it asked a decision. */
static int step(struct qt_state *s, int st, struct rng *rng)
{
	struct qt_battle *b = &s->battle;
	switch (st) {
	case B_DANGEROUS:
		return qt_has(s, b->def, QT_DANGEROUS) &&
		       ask(s, b->def, QT_DEC_DANGEROUS);
	case B_ROLL: /* rules §14: the attacker's die, then the defender's */
		qt_roll_for(s, QT_ROLL_ATTACK, b->att, b->aship);
		b->aroll = combat_die(s, rng, b->att);
		qt_roll_for(s, QT_ROLL_DEFEND, b->def, b->dship);
		b->droll = combat_die(s, rng, b->def);
		return 0;
	case B_ATT_CRUEL:
		return offer(s, b->att, QT_CRUEL, b->def) &&
		       ask(s, b->att, QT_DEC_CRUEL);
	case B_ATT_RELENTLESS:
		return offer(s, b->att, QT_RELENTLESS, b->att) &&
		       ask(s, b->att, QT_DEC_RELENTLESS);
	case B_ATT_SCRAPPY: /* combat is always on the attacker's turn */
		return offer(s, b->att, QT_SCRAPPY, b->att) &&
		       ask(s, b->att, QT_DEC_SCRAPPY);
	case B_DEF_CRUEL:
		return offer(s, b->def, QT_CRUEL, b->att) &&
		       ask(s, b->def, QT_DEC_CRUEL);
	case B_ATT_SCRAPPY_AGAIN:
		return b->def_cruel_hit && !b->scrappy_used &&
		       offer(s, b->att, QT_SCRAPPY, b->att) &&
		       ask(s, b->att, QT_DEC_SCRAPPY);
	case B_DEF_RELENTLESS:
		return offer(s, b->def, QT_RELENTLESS, b->def) &&
		       ask(s, b->def, QT_DEC_RELENTLESS);
	}
	return 0;
}

/* 1 if another of seat's ships than `self` is orthogonally adjacent to
 * sq (STRATEGIC, §14.1). */
static int supported(const struct qt_state *s, int seat, int self,
                     struct qt_sq sq)
{
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (i != self && sh->where == QT_MAP &&
		    qt_sq_adjacent(sh->at, sq))
			return 1;
	}
	return 0;
}

/* rules §14 pipeline: ship number + roll, then FEROCIOUS -1 and
 * STRATEGIC -2 (totals may go below 1). */
static int total(const struct qt_state *s, int attacker)
{
	const struct qt_battle *b = &s->battle;
	int seat = attacker ? b->att : b->def;
	int ship = attacker ? b->aship : b->dship;
	int t = s->ship[seat][ship].value + (attacker ? b->aroll : b->droll);
	if (qt_has(s, seat, QT_FEROCIOUS))
		t -= 1;
	int strategic = attacker ? supported(s, seat, ship, b->from) ||
	                               (s->strategic_first &&
	                                supported(s, seat, ship, b->target))
	                         : supported(s, seat, ship, b->target);
	if (qt_has(s, seat, QT_STRATEGIC) && strategic)
		t -= 2;
	return t;
}

/* A destroyed ship: re-rolled into its owner's scrapyard, keeping its
 * moved/ability flags (rules §4, §6.1.5). */
static void destroy(struct qt_state *s, struct rng *rng, int seat, int ship)
{
	struct qt_ship *sh = &s->ship[seat][ship];
	sh->where = QT_SCRAPYARD;
	sh->at = (struct qt_sq){-1, -1};
	qt_ship_roll(s, rng, seat, ship, 0);
}

static void resolve(struct qt_state *s, struct rng *rng)
{
	struct qt_battle *b = &s->battle;
	int at = total(s, 1), dt = total(s, 0);
	int stubborn = qt_has(s, b->def, QT_STUBBORN);
	b->on = 0;
	/* rules §6.1.4: lower total wins, ties to the attacker; STUBBORN
	 * defenders win ties (§9.2 #28). */
	if (stubborn ? at < dt : at <= dt) {
		/* §14.1: the destroyed ship's roll, then dominance and
		 * infamy, then advance or stay */
		destroy(s, rng, b->def, b->dship);
		qt_lose_dominance(s, b->def);
		qt_gain_kill(s, b->att);
		qt_kill_triggers(s, b->att);
		if (s->phase != QT_PH_OVER)
			qt_queue(s, (struct qt_decision){.kind = QT_DEC_ADVANCE,
			                                 .seat = b->att,
			                                 .ship = b->aship,
			                                 .sq = b->target});
	} else if (stubborn) {
		/* §14.1: the defender's gain before the attacker's loss; the
		 * defender does not advance */
		destroy(s, rng, b->att, b->aship);
		qt_gain_kill(s, b->def);
		qt_lose_dominance(s, b->att);
	}
	/* else rules §6.1.6: repelled, it stays on its launch square */
}

static void battle_run(struct qt_state *s, struct rng *rng)
{
	while (s->battle.on && s->battle.step < B_RESOLVE)
		if (step(s, s->battle.step++, rng))
			return;
	if (s->battle.on)
		resolve(s, rng);
}

void qt_combat(struct qt_state *s, int seat, int ship, struct qt_sq target,
               struct rng *rng)
{
	int def, k = qt_ship_at(s, target, &def);
	s->battle = (struct qt_battle){.on = 1,
	                               .step = B_DANGEROUS,
	                               .att = (uint8_t)seat,
	                               .def = (uint8_t)def,
	                               .aship = (int8_t)ship,
	                               .dship = (int8_t)k,
	                               .from = s->ship[seat][ship].at,
	                               .target = target};
	s->attacked = 1;
	battle_run(s, rng);
}

int qt_battle_decide(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rng *rng, struct rules_why *why)
{
	(void)why;
	struct qt_battle *b = &s->battle;
	int kind = s->decision[0].kind;
	qt_pop_decision(s);
	if (kind == QT_DEC_DANGEROUS) {
		if (a->yes) {
			/* §14.1: the attacker's ship first; no dominance
			 * change, no PLUNDERING or WARLIKE */
			b->on = 0;
			destroy(s, rng, b->att, b->aship);
			destroy(s, rng, b->def, b->dship);
			return 0;
		}
	} else if (a->yes) {
		/* CRUEL re-rolls the opponent's die, RELENTLESS and
		 * SCRAPPY one's own; the new roll is kept */
		int own = kind != QT_DEC_CRUEL;
		int attacker_die = (seat == b->att) == own;
		if (attacker_die) {
			qt_roll_for(s, QT_ROLL_ATTACK, b->att, b->aship);
			b->aroll = (uint8_t)qt_roll(s, rng);
		} else {
			qt_roll_for(s, QT_ROLL_DEFEND, b->def, b->dship);
			b->droll = (uint8_t)qt_roll(s, rng);
		}
		if (kind == QT_DEC_CRUEL && seat == b->def)
			b->def_cruel_hit = 1;
		if (kind == QT_DEC_SCRAPPY)
			b->scrappy_used = 1;
	}
	battle_run(s, rng);
	return 0;
}

void qt_battle_list(const struct qt_state *s, qt_emit_fn emit, void *ctx)
{
	static const uint8_t type[] = {
	    [QT_DEC_DANGEROUS] = QT_A_DANGEROUS,
	    [QT_DEC_CRUEL] = QT_A_CRUEL,
	    [QT_DEC_RELENTLESS] = QT_A_RELENTLESS,
	    [QT_DEC_SCRAPPY] = QT_A_SCRAPPY,
	};
	uint8_t t = type[s->decision[0].kind];
	emit(ctx, &(struct qt_action){.type = t, .yes = 1});
	emit(ctx, &(struct qt_action){.type = t, .yes = 0});
}

static int infamy(struct qt_state *s, int seat, struct qt_sq planet,
                  struct rules_why *why)
{
	int p = qt_board_planet_at(&s->board, planet.r, planet.c);
	if (p < 0 || !qt_cube_allowed(s, seat, p, NULL))
		return rules_fail(
		    why, BD_EILLEGAL, "§7.1",
		    "infamy needs a planet with an empty cube "
		    "location and none of your cubes (§7.3 aside)");
	qt_pop_decision(s);
	s->dominance[seat] = 1;
	s->picks[seat]++; /* rules §7.1: an infamy cube earns a card */
	if (qt_place_cube(s, seat, p))
		return 0;
	/* rules §14: an infamy still queued for another seat whose last
	 * legal square this cube took is dropped; that seat's dominance
	 * stays 6 and infamy retries on its next gain. */
	for (int k = 0; k < s->ndecisions;) {
		const struct qt_decision *d = &s->decision[k];
		if (d->kind == QT_DEC_INFAMY &&
		    !qt_infamy_possible(s, d->seat)) {
			s->ndecisions--;
			memmove(&s->decision[k], &s->decision[k + 1],
			        (size_t)(s->ndecisions - k) *
			            sizeof s->decision[0]);
		} else {
			k++;
		}
	}
	return 0;
}

int qt_combat_decide(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rules_why *why)
{
	const struct qt_decision d = s->decision[0];
	if (d.kind == QT_DEC_INFAMY)
		return infamy(s, seat, a->planet, why);
	qt_pop_decision(s);
	if (a->type == QT_A_ADVANCE)
		s->ship[seat][d.ship].at = d.sq;
	return 0;
}

void qt_combat_list(const struct qt_state *s, qt_emit_fn emit, void *ctx)
{
	const struct qt_decision *d = &s->decision[0];
	if (d->kind == QT_DEC_ADVANCE) {
		emit(ctx, &(struct qt_action){.type = QT_A_ADVANCE});
		emit(ctx, &(struct qt_action){.type = QT_A_STAY});
		return;
	}
	for (int p = 0; p < s->board.nplanets; p++)
		if (qt_cube_allowed(s, d->seat, p, NULL))
			emit(ctx, &(struct qt_action){
			              .type = QT_A_INFAMY,
			              .planet = s->board.planet[p].at});
}
