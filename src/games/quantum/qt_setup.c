/* qt_setup.c: a new game (rules §3) and a custom position.
 * Layer 5 (actions) of qt.h, above qt_cards.c (the deal) and qt_turn.c
 * (the first turn). */
#include <string.h>

#include "qt.h"

static void init_common(struct qt_state *s, int seats,
                        const struct qt_options *o)
{
	int map = o->map;
	memset(s, 0, sizeof *s);
	s->seats = (uint8_t)seats;
	s->map = (uint8_t)map;
	s->entanglement = (uint8_t)o->entanglement;
	s->reloc_first = (uint8_t)o->reloc_first;
	s->curious = (uint8_t)o->curious;
	s->strategic_first = (uint8_t)o->strategic_first;
	qt_board_decode(qt_map_get(map), &s->board);
	memset(s->cube, -1, sizeof s->cube);
	memset(s->held, QT_NO_CARD, sizeof s->held);
	memset(s->row_cmd, QT_NO_CARD, sizeof s->row_cmd);
	memset(s->row_gam, QT_NO_CARD, sizeof s->row_gam);
	memset(s->start_planet, -1, sizeof s->start_planet);
	for (int p = 0; p < seats; p++) {
		s->cubes_left[p] = qt_map_get(map)->cubes;
		s->dominance[p] = 1; /* rules §3.2 */
		s->research[p] = 1;
		for (int i = 0; i < QT_SHIPS; i++) {
			s->ship[p][i].where = QT_RESERVE;
			s->ship[p][i].at = (struct qt_sq){-1, -1};
		}
	}
}

void qt_setup_new(struct qt_state *s, int seats, const struct qt_options *o,
                  struct rng *rng)
{
	init_common(s, seats, o);
	/* rules §3.3: 3 ship dice each; they wait in the scrapyard (off the
	 * board) until arranged. */
	for (int p = 0; p < seats; p++)
		for (int i = 0; i < QT_START_SHIPS; i++) {
			s->ship[p][i].value = (uint8_t)qt_roll(s, rng);
			s->ship[p][i].where = QT_SCRAPYARD;
		}
	qt_cards_deal(s, rng);
	s->phase = QT_PH_REROLL;
	s->undecided = (uint8_t)((1u << seats) - 1);
}

static int total(const struct qt_state *s, int p)
{
	int t = 0;
	for (int i = 0; i < QT_START_SHIPS; i++)
		t += s->ship[p][i].value;
	return t;
}

/* rules §3.4: lowest total starts; §14: ties roll one die each, lowest
 * starts, again on a tie. */
static int first_player(struct qt_state *s, struct rng *rng)
{
	unsigned tied = 0;
	int best = 99;
	for (int p = 0; p < s->seats; p++) {
		int t = total(s, p);
		if (t < best) {
			best = t;
			tied = 0;
		}
		if (t == best)
			tied |= 1u << p;
	}
	while (tied & (tied - 1)) {
		int roll[QT_MAX_SEATS], low = 7;
		for (int p = 0; p < s->seats; p++)
			if (tied >> p & 1) {
				qt_roll_for(s, QT_ROLL_FIRST, p, -1);
				roll[p] = qt_roll(s, rng);
				low = roll[p] < low ? roll[p] : low;
			}
		for (int p = 0; p < s->seats; p++)
			if ((tied >> p & 1) && roll[p] != low)
				tied &= ~(1u << p);
	}
	for (int p = 0; p < s->seats; p++)
		if (tied >> p & 1)
			return p;
	return 0;
}

static int free_start(const struct qt_state *s, int p)
{
	if (!s->board.planet[p].start)
		return 0;
	for (int q = 0; q < s->seats; q++)
		if (s->start_planet[q] == p)
			return 0;
	return 1;
}

static int free_starts(const struct qt_state *s, int *last)
{
	int n = 0;
	for (int p = 0; p < s->board.nplanets; p++)
		if (free_start(s, p)) {
			n++;
			*last = p;
		}
	return n;
}

static void choose(struct qt_state *s, int seat, int p)
{
	s->start_planet[seat] = (int8_t)p;
	qt_place_cube(s, seat, p); /* rules §3.8: it earns no card */
	s->placed++;
	s->active = (uint8_t)((seat + 1) % s->seats);
	if (s->placed == s->seats) {
		s->phase = QT_PH_ARRANGE;
		s->placed = 0;
		s->active = s->first;
		return;
	}
	/* rules §14: the last starting planet is assigned. */
	int last;
	if (free_starts(s, &last) == 1)
		choose(s, s->active, last);
}

static int arrange(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rules_why *why)
{
	struct qt_sq o[4];
	qt_board_orbitals(&s->board, s->start_planet[seat], o);
	for (int i = 0; i < QT_START_SHIPS; i++) {
		int ok = 0;
		for (int k = 0; k < 4; k++)
			ok |= qt_sq_eq(a->sq[i], o[k]);
		for (int j = 0; j < i; j++)
			ok &= !qt_sq_eq(a->sq[i], a->sq[j]);
		if (!ok)
			return rules_fail(why, BD_EILLEGAL, "§3.6",
			                  "ships 0, 1, 2 go on three different "
			                  "orbital positions of your starting "
			                  "planet");
	}
	for (int i = 0; i < QT_START_SHIPS; i++) {
		s->ship[seat][i].where = QT_MAP;
		s->ship[seat][i].at = a->sq[i];
	}
	s->placed++;
	s->active = (uint8_t)((seat + 1) % s->seats);
	if (s->placed == s->seats) {
		s->owner = s->first;
		qt_start_turn(s, s->first, QT_ACTIONS);
	}
	return 0;
}

static int reroll_step(struct qt_state *s, int seat, const struct qt_action *a,
                       struct rng *rng, struct rules_why *why)
{
	if (a->type != QT_A_SETUP_REROLL && a->type != QT_A_SETUP_KEEP)
		return rules_fail(why, BD_EILLEGAL, "§3.3",
		                  "keep or re-roll your starting ships first");
	if (!(s->undecided >> seat & 1))
		return rules_fail(why, BD_EILLEGAL, "§3.3", "already decided");
	/* rules §3.3: one re-roll of all three, kept. */
	if (a->type == QT_A_SETUP_REROLL)
		for (int i = 0; i < QT_START_SHIPS; i++) {
			qt_roll_for(s, QT_ROLL_SHIP, seat, i);
			s->ship[seat][i].value = (uint8_t)qt_roll(s, rng);
		}
	s->undecided &= (uint8_t) ~(1u << seat);
	if (s->undecided)
		return 0;
	s->first = (uint8_t)first_player(s, rng);
	s->active = s->owner = s->first;
	s->phase = QT_PH_PLANET;
	return 0;
}

int qt_setup_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why)
{
	if (s->phase == QT_PH_REROLL)
		return reroll_step(s, seat, a, rng, why);
	if (seat != s->active)
		return rules_fail(why, BD_EILLEGAL, "§3",
		                  "not your setup step");
	if (s->phase == QT_PH_PLANET) {
		if (a->type != QT_A_CHOOSE_PLANET)
			return rules_fail(why, BD_EILLEGAL, "§3.5",
			                  "choose a starting planet");
		int p = qt_board_planet_at(&s->board, a->planet.r, a->planet.c);
		if (p < 0 || !free_start(s, p))
			return rules_fail(why, BD_EILLEGAL, "§3.5",
			                  "not a free starting planet");
		choose(s, seat, p);
		return 0;
	}
	if (a->type != QT_A_ARRANGE)
		return rules_fail(why, BD_EILLEGAL, "§3.6",
		                  "arrange your three ships");
	return arrange(s, seat, a, why);
}

void qt_setup_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx)
{
	if (s->phase == QT_PH_REROLL) {
		emit(ctx, &(struct qt_action){.type = QT_A_SETUP_REROLL});
		emit(ctx, &(struct qt_action){.type = QT_A_SETUP_KEEP});
		return;
	}
	if (s->phase == QT_PH_PLANET) {
		for (int p = 0; p < s->board.nplanets; p++)
			if (free_start(s, p))
				emit(ctx, &(struct qt_action){
				              .type = QT_A_CHOOSE_PLANET,
				              .planet = s->board.planet[p].at});
		return;
	}
	struct qt_sq o[4];
	qt_board_orbitals(&s->board, s->start_planet[seat], o);
	struct qt_action a = {.type = QT_A_ARRANGE};
	for (int x = 0; x < 4; x++)
		for (int y = 0; y < 4; y++)
			for (int z = 0; z < 4; z++)
				if (x != y && y != z && x != z) {
					a.sq[0] = o[x];
					a.sq[1] = o[y];
					a.sq[2] = o[z];
					emit(ctx, &a);
				}
}

/* ---- custom setup ---- */

static int custom_ships(struct qt_state *s, const struct qt_custom *cu,
                        struct rules_why *why)
{
	for (int p = 0; p < s->seats; p++) {
		if (cu->nships[p] < QT_START_SHIPS || cu->nships[p] > QT_SHIPS)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "seat %d needs 3 to 5 ships", p);
		for (int i = 0; i < cu->nships[p]; i++) {
			const struct qt_custom_ship *c = &cu->ship[p][i];
			struct qt_ship *sh = &s->ship[p][i];
			if (c->where == QT_RESERVE && i < QT_START_SHIPS)
				return rules_fail(
				    why, BD_EBADSETUP, "§3.3",
				    "seat %d ship %d: only ships 3 "
				    "and 4 can be in reserve",
				    p, i);
			if (c->where != QT_RESERVE &&
			    (c->value < 1 || c->value > 6))
				return rules_fail(why, BD_EBADSETUP, "§1",
				                  "seat %d ship %d: value 1..6",
				                  p, i);
			if (c->where == QT_MAP &&
			    !qt_board_open(&s->board, c->at.r, c->at.c))
				return rules_fail(
				    why, BD_EBADSETUP, "§2",
				    "seat %d ship %d: (%d,%d) is a "
				    "planet or not on the board",
				    p, i, c->at.r, c->at.c);
			if (c->where == QT_MAP &&
			    qt_ship_at(s, c->at, NULL) >= 0)
				return rules_fail(why, BD_EBADSETUP, "§2",
				                  "two ships on (%d,%d)",
				                  c->at.r, c->at.c);
			sh->where = c->where;
			sh->value = c->where == QT_RESERVE ? 0 : c->value;
			sh->at =
			    c->where == QT_MAP ? c->at : (struct qt_sq){-1, -1};
			sh->moved = c->moved;
			sh->ability_used = c->ability_used;
		}
	}
	return 0;
}

static int custom_cubes(struct qt_state *s, const struct qt_custom *cu,
                        struct rules_why *why)
{
	for (int k = 0; k < cu->ncubes; k++) {
		int seat = cu->cubes[k].seat;
		struct qt_sq at = cu->cubes[k].planet;
		int p = qt_board_planet_at(&s->board, at.r, at.c);
		if (seat < 0 || seat >= s->seats)
			return rules_fail(why, BD_EBADSETUP, "§3",
			                  "cube of no seat %d", seat);
		if (p < 0)
			return rules_fail(why, BD_EBADSETUP, "§2",
			                  "no planet at (%d,%d)", at.r, at.c);
		if (qt_free_locations(s, p) == 0)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "too many cubes on the %d planet at "
			                  "(%d,%d)",
			                  s->board.planet[p].number, at.r,
			                  at.c);
		if (qt_has_cube(s, seat, p) && !s->entanglement)
			return rules_fail(why, BD_EBADSETUP, "§7.3",
			                  "two cubes of seat %d on one planet "
			                  "need Quantum Entanglement",
			                  seat);
		if (s->cubes_left[seat] <= 1)
			return rules_fail(why, BD_EBADSETUP, "§10",
			                  "too many cubes for seat %d: placing "
			                  "the last one ends the game",
			                  seat);
		for (int j = 0; j < 4; j++)
			if (s->cube[p][j] < 0) {
				s->cube[p][j] = (int8_t)seat;
				break;
			}
		s->cubes_left[seat]--;
	}
	return 0;
}

/* Counts a card; fails when the game has fewer copies. */
static int count_card(int *seen, int c, struct rules_why *why)
{
	if (++seen[c] > qt_card_copies(c))
		return rules_fail(why, BD_EBADSETUP, "§9",
		                  "more copies of %s than the game has (%d)",
		                  qt_card_name(c), qt_card_copies(c));
	return 0;
}

static void fill_deck(uint8_t *deck, uint8_t *n, const uint8_t *top_first,
                      int cnt)
{
	/* decks are stacks with the top card last */
	*n = (uint8_t)cnt;
	for (int k = 0; k < cnt; k++)
		deck[cnt - 1 - k] = top_first[k];
}

static int custom_cards(struct qt_state *s, const struct qt_custom *cu,
                        struct rng *rng, struct rules_why *why)
{
	int seen[QT_NCARDS] = {0};
	for (int k = 0; k < cu->row_cmd_n; k++)
		if (cu->row_cmd[k] < QT_FIRST_COMMAND)
			return rules_fail(why, BD_EBADSETUP, "§9",
			                  "%s is no command card",
			                  qt_card_name(cu->row_cmd[k]));
	for (int k = 0; k < cu->row_gam_n; k++)
		if (cu->row_gam[k] >= QT_FIRST_COMMAND)
			return rules_fail(why, BD_EBADSETUP, "§9",
			                  "%s is no gambit card",
			                  qt_card_name(cu->row_gam[k]));
	for (int k = 0; k < cu->deck_cmd_n; k++)
		if (cu->deck_cmd[k] < QT_FIRST_COMMAND)
			return rules_fail(why, BD_EBADSETUP, "§9",
			                  "%s is no command card",
			                  qt_card_name(cu->deck_cmd[k]));
	for (int k = 0; k < cu->deck_gam_n; k++)
		if (cu->deck_gam[k] >= QT_FIRST_COMMAND)
			return rules_fail(why, BD_EBADSETUP, "§9",
			                  "%s is no gambit card",
			                  qt_card_name(cu->deck_gam[k]));
	int rc = 0;
	for (int k = 0; !rc && k < cu->row_cmd_n; k++)
		rc = count_card(seen, cu->row_cmd[k], why);
	for (int k = 0; !rc && k < cu->row_gam_n; k++)
		rc = count_card(seen, cu->row_gam[k], why);
	for (int k = 0; !rc && k < cu->deck_cmd_n; k++)
		rc = count_card(seen, cu->deck_cmd[k], why);
	for (int k = 0; !rc && k < cu->deck_gam_n; k++)
		rc = count_card(seen, cu->deck_gam[k], why);
	for (int p = 0; !rc && p < s->seats; p++)
		for (int k = 0; !rc && k < cu->held_n[p]; k++) {
			if (cu->held[p][k] < QT_FIRST_COMMAND)
				return rules_fail(
				    why, BD_EBADSETUP, "§9.1",
				    "only command cards are held");
			rc = count_card(seen, cu->held[p][k], why);
			s->held[p][k] = cu->held[p][k];
		}
	if (rc)
		return rc;
	for (int k = 0; k < cu->row_cmd_n; k++)
		s->row_cmd[k] = cu->row_cmd[k];
	for (int k = 0; k < cu->row_gam_n; k++)
		s->row_gam[k] = cu->row_gam[k];
	/* Cards named nowhere go to the deck (shuffled) or, when the decks
	 * are given, to the discard piles. */
	uint8_t rest_c[QT_NCOMMANDS], rest_g[QT_NGAMBITS];
	int nc = 0, ng = 0;
	for (int c = 0; c < QT_NCARDS; c++)
		for (int k = seen[c]; k < qt_card_copies(c); k++) {
			if (c >= QT_FIRST_COMMAND)
				rest_c[nc++] = (uint8_t)c;
			else
				rest_g[ng++] = (uint8_t)c;
		}
	if (cu->has_decks) {
		fill_deck(s->cmd_deck, &s->cmd_deck_n, cu->deck_cmd,
		          cu->deck_cmd_n);
		fill_deck(s->gam_deck, &s->gam_deck_n, cu->deck_gam,
		          cu->deck_gam_n);
		memcpy(s->cmd_discard, rest_c, (size_t)nc);
		s->cmd_discard_n = (uint8_t)nc;
		memcpy(s->gam_discard, rest_g, (size_t)ng);
		s->gam_discard_n = (uint8_t)ng;
	} else {
		memcpy(s->cmd_deck, rest_c, (size_t)nc);
		s->cmd_deck_n = (uint8_t)nc;
		memcpy(s->gam_deck, rest_g, (size_t)ng);
		s->gam_deck_n = (uint8_t)ng;
		rng_shuffle_u8(rng, s->cmd_deck, s->cmd_deck_n);
		rng_shuffle_u8(rng, s->gam_deck, s->gam_deck_n);
	}
	if (!cu->has_row) {
		for (int k = 0; k < QT_ROW; k++) {
			if (s->cmd_deck_n)
				s->row_cmd[k] = s->cmd_deck[--s->cmd_deck_n];
			if (s->gam_deck_n)
				s->row_gam[k] = s->gam_deck[--s->gam_deck_n];
		}
	}
	return 0;
}

static int custom_tracks(struct qt_state *s, const struct qt_custom *cu,
                         struct rules_why *why)
{
	for (int p = 0; p < s->seats; p++) {
		if (cu->dominance[p] >= 0) {
			if (cu->dominance[p] < 1 || cu->dominance[p] > 5)
				return rules_fail(
				    why, BD_EBADSETUP, "§7.1",
				    "dominance 1..5 (6 would already "
				    "have placed an infamy cube)");
			s->dominance[p] = (uint8_t)cu->dominance[p];
		}
		if (cu->research[p] >= 0) {
			if (cu->research[p] < 1 || cu->research[p] > 6)
				return rules_fail(why, BD_EBADSETUP, "§7.2",
				                  "research 1..6");
			s->research[p] = (uint8_t)cu->research[p];
		}
	}
	return 0;
}

int qt_setup_custom(struct qt_state *s, int seats, const struct qt_options *o,
                    const struct qt_custom *cu, struct rng *rng,
                    struct rules_why *why)
{
	init_common(s, seats, o);
	s->custom = 1;
	int first = cu->first_player < 0 ? 0 : cu->first_player;
	int acts = cu->actions_left < 0 ? QT_ACTIONS : cu->actions_left;
	if (first >= seats)
		return rules_fail(why, BD_EBADSETUP, "§3.4",
		                  "first_player must be a seat, 0..%d",
		                  seats - 1);
	if (acts > QT_ACTIONS)
		return rules_fail(why, BD_EBADSETUP, "§4",
		                  "actions_left must be 0..3");
	int rc = custom_ships(s, cu, why);
	if (!rc)
		rc = custom_cubes(s, cu, why);
	if (!rc)
		rc = custom_tracks(s, cu, why);
	if (!rc)
		rc = custom_cards(s, cu, rng, why);
	if (rc)
		return rc;
	/* cu's "dice" are the engine's script (qj_script, rng_scripted). */
	/* The position starts in Phase 1, after start-of-turn effects. */
	s->phase = QT_PH_ACTIONS;
	s->active = s->owner = s->first = (uint8_t)first;
	s->actions_left = (uint8_t)acts;
	return 0;
}
