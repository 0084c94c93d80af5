/* qt_state.c: the primitives of struct qt_state every other file of
 * the rules shares: dice (qt_roll, qt_roll_for, qt_reroll_ship),
 * squares (qt_ship_at, qt_square_free, qt_free_bits), cubes
 * (qt_has_cube, qt_cubes_of, qt_free_locations, qt_cube_allowed,
 * qt_place_cube), the decision queue (qt_queue, qt_pop_decision) and the
 * tracks (qt_gain_research, qt_gain_dominance, qt_infamy_possible).
 * Layer 2 (state) of qt.h: it calls nothing of the module but the board
 * (qt_maps.c). */
#include <string.h>

#include "qt.h"

int qt_roll(struct qt_state *s, struct rng *rng)
{
	uint8_t die;
	int v = rng_scripted(rng, &die) ? die : (int)rng_below(rng, 6) + 1;
	if (s->last_dice_n < QT_LAST_DICE) {
		s->last_for[s->last_dice_n] = s->roll_for;
		s->last_seat[s->last_dice_n] = s->roll_seat;
		s->last_ship[s->last_dice_n] = s->roll_ship;
		s->last_dice[s->last_dice_n++] = (uint8_t)v;
	}
	return v;
}

void qt_roll_for(struct qt_state *s, int why, int seat, int ship)
{
	s->roll_for = (uint8_t)why;
	s->roll_seat = (uint8_t)seat;
	s->roll_ship = (int8_t)ship;
}

int qt_reroll_ship(struct qt_state *s, struct rng *rng, int old)
{
	/* rules §5 Reconfigure: keep rolling until the number differs; a
	 * scripted die equal to `old` is used up like any other roll. */
	int v;
	do
		v = qt_roll(s, rng);
	while (v == old);
	return v;
}

int qt_ship_at(const struct qt_state *s, struct qt_sq sq, int *owner)
{
	for (int p = 0; p < s->seats; p++)
		for (int i = 0; i < QT_SHIPS; i++) {
			const struct qt_ship *sh = &s->ship[p][i];
			if (sh->where == QT_MAP && qt_sq_eq(sh->at, sq)) {
				if (owner)
					*owner = p;
				return i;
			}
		}
	return -1;
}

int qt_square_free(const struct qt_state *s, struct qt_sq sq)
{
	return qt_board_open(&s->board, sq.r, sq.c) &&
	       qt_ship_at(s, sq, NULL) < 0;
}

void qt_free_bits(const struct qt_state *s, struct qt_bits *out)
{
	qt_board_open_bits(&s->board, out);
	for (int p = 0; p < s->seats; p++)
		for (int i = 0; i < QT_SHIPS; i++)
			if (s->ship[p][i].where == QT_MAP)
				qt_bits_del(out, s->ship[p][i].at);
}

int qt_has_cube(const struct qt_state *s, int seat, int p)
{
	return qt_cubes_of(s, seat, p) > 0;
}

int qt_cubes_of(const struct qt_state *s, int seat, int p)
{
	int n = 0;
	for (int k = 0; k < 4; k++)
		n += s->cube[p][k] == seat;
	return n;
}

int qt_free_locations(const struct qt_state *s, int p)
{
	int n = 0;
	for (int k = 0; k < s->board.planet[p].number - 6; k++)
		n += s->cube[p][k] < 0;
	return n;
}

int qt_cube_allowed(const struct qt_state *s, int seat, int p, int *own)
{
	if (qt_free_locations(s, p) == 0)
		return 0;
	int mine = qt_cubes_of(s, seat, p);
	if (mine > 0) {
		/* rules §7.3: entanglement only when every planet with room
		 * already holds one of the seat's cubes. */
		if (!s->entanglement)
			return 0;
		for (int q = 0; q < s->board.nplanets; q++)
			if (qt_free_locations(s, q) > 0 &&
			    !qt_has_cube(s, seat, q))
				return 0;
	}
	if (own)
		*own = mine;
	return 1;
}

int qt_place_cube(struct qt_state *s, int seat, int p)
{
	for (int k = 0; k < 4; k++)
		if (s->cube[p][k] < 0) {
			s->cube[p][k] = (int8_t)seat;
			break;
		}
	if (s->cubes_left[seat] > 0)
		s->cubes_left[seat]--;
	if (s->cubes_left[seat] == 0) {
		/* rules §10: the last cube wins at once, on any turn. */
		s->phase = QT_PH_OVER;
		s->winner = (uint8_t)seat;
		s->ndecisions = 0;
		return 1;
	}
	return 0;
}

void qt_queue(struct qt_state *s, struct qt_decision d)
{
	int pos = s->qnew < s->ndecisions ? s->qnew : s->ndecisions;
	if (s->ndecisions >= QT_MAX_DECISION)
		return; /* cannot happen: at most a few are ever queued */
	memmove(&s->decision[pos + 1], &s->decision[pos],
	        (size_t)(s->ndecisions - pos) * sizeof s->decision[0]);
	s->decision[pos] = d;
	s->ndecisions++;
	s->qnew = (uint8_t)(pos + 1);
}

void qt_pop_decision(struct qt_state *s)
{
	if (s->ndecisions == 0)
		return;
	if (s->qnew > 0)
		s->qnew--;
	s->ndecisions--;
	memmove(&s->decision[0], &s->decision[1],
	        s->ndecisions * sizeof s->decision[0]);
}

/* ---- the tracks (rules §7.1, §7.2) ---- */

void qt_gain_research(struct qt_state *s, int seat, int n)
{
	int r = s->research[seat] + n;
	s->research[seat] = (uint8_t)(r > QT_MAX_TRACK ? QT_MAX_TRACK : r);
}

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
		qt_queue(s, (struct qt_decision){.kind = QT_DEC_INFAMY,
		                                 .seat = (uint8_t)seat});
}
