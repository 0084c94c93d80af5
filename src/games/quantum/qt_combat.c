/* qt_combat.c: combat (rules §6.1), dominance and infamy (rules §7.1). */
#include <string.h>

#include "qt.h"

int qt_infamy_possible(const struct qt_state *s, int seat)
{
	for (int p = 0; p < s->board.nplanets; p++)
		if (qt_cube_allowed(s, seat, p, NULL))
			return 1;
	return 0;
}

static int infamy_pending(const struct qt_state *s, int seat)
{
	for (int k = 0; k < s->ndecisions; k++)
		if (s->decision[k].kind == QT_DEC_INFAMY &&
		    s->decision[k].seat == seat)
			return 1;
	return 0;
}

void qt_gain_dominance(struct qt_state *s, int seat, int n)
{
	int d = s->dominance[seat] + n;
	s->dominance[seat] = (uint8_t)(d > QT_MAX_TRACK ? QT_MAX_TRACK : d);
	/* rules §7.1: at 6, place a cube at once.  §14: with nowhere to
	 * place it, dominance stays 6 and infamy retries on the next gain. */
	if (s->dominance[seat] == QT_MAX_TRACK && !infamy_pending(s, seat) &&
	    qt_infamy_possible(s, seat))
		qt_push_decision(s,
		                 (struct qt_decision){.kind = QT_DEC_INFAMY,
		                                      .seat = (uint8_t)seat});
}

static void lose_dominance(struct qt_state *s, int seat)
{
	if (s->dominance[seat] > 1)
		s->dominance[seat]--;
}

void qt_combat(struct qt_state *s, int seat, int ship, struct qt_sq target,
               struct rng *rng)
{
	int def, k = qt_ship_at(s, target, &def);
	struct qt_ship *att = &s->ship[seat][ship], *dsh = &s->ship[def][k];
	/* rules §14: attacker's die, then defender's, then the re-roll of
	 * the destroyed ship. */
	int a_total = att->value + qt_roll(s, rng);
	int d_total = dsh->value + qt_roll(s, rng);
	if (a_total > d_total)
		return; /* rules §6.1.6: repelled, stays on its launch square */
	/* rules §6.1.5: the defender is re-rolled into its scrapyard; it
	 * keeps its moved/ability flags (rules §4). */
	dsh->value = (uint8_t)qt_roll(s, rng);
	dsh->where = QT_SCRAPYARD;
	dsh->at = (struct qt_sq){-1, -1};
	lose_dominance(s, def);
	/* rules §14: dominance and infamy come before advance/stay, and the
	 * new decisions go first in the order they arose. */
	int before = s->ndecisions;
	qt_gain_dominance(s, seat, 1);
	qt_push_decision_after(s, s->ndecisions - before,
	                       (struct qt_decision){.kind = QT_DEC_ADVANCE,
	                                            .seat = (uint8_t)seat,
	                                            .ship = (int8_t)ship,
	                                            .sq = target});
}

static int infamy(struct qt_state *s, int seat, struct qt_sq planet,
                  struct qt_why *why)
{
	int p = qt_board_planet_at(&s->board, planet.r, planet.c);
	if (p < 0 || !qt_cube_allowed(s, seat, p, NULL))
		return qt_fail(why, BD_EILLEGAL, "§7.1",
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
                     struct qt_why *why)
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
