/* qt_turn.c: the start of a turn (rules §4): the turn's actions, the
 * per-die limits reset, the command cards' start-of-turn effects
 * (qt_command.c) and the research of ships on Void tiles (§8).  Layer 4
 * (turn) of qt.h: below the modules that start a turn (qt_setup.c,
 * qt_cards.c), above the command cards. */
#include "qt.h"

void qt_start_turn(struct qt_state *s, int seat, int n)
{
	s->phase = QT_PH_ACTIONS;
	s->active = (uint8_t)seat;
	s->actions_left = (uint8_t)n;
	s->bonus_turn = n == QT_BONUS_ACTS;
	/* rules §4: per-die limits last one turn. */
	for (int p = 0; p < s->seats; p++)
		for (int i = 0; i < QT_SHIPS; i++) {
			s->ship[p][i].moved = 0;
			s->ship[p][i].ability_used = 0;
		}
	qt_cards_turn_start(s, seat);
	/* rules §8: +1 research per own ship on a Void tile, cap 6. */
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where == QT_MAP &&
		    qt_board_is_void(&s->board, sh->at.r, sh->at.c) &&
		    s->research[seat] < QT_MAX_TRACK)
			s->research[seat]++;
	}
}
