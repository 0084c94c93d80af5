/* qt_cards.c: the card phase (rules §9.1) and the six gambits (rules
 * §9.3).  Command cards (§9.2) are taken, held and discarded here; their
 * powers live in qt_command.c, qt_powers.c, qt_move.c, qt_actions.c,
 * qt_combat.c.
 * Layer 5 (actions) of qt.h, above qt_actions.c (a ship placed as a
 * deploy) and qt_turn.c (the next turn). */
#include <string.h>

#include "qt.h"

/* Top card of a deck; an empty deck first takes its shuffled discards
 * (rules §9.1).  QT_NO_CARD when both are empty (§14). */
static uint8_t draw(uint8_t *deck, uint8_t *n, uint8_t *discard, uint8_t *dn,
                    struct rng *rng)
{
	if (*n == 0 && *dn > 0) {
		memcpy(deck, discard, *dn);
		*n = *dn;
		*dn = 0;
		rng_shuffle_u8(rng, deck, *n);
	}
	if (*n == 0)
		return QT_NO_CARD;
	return deck[--*n];
}

static uint8_t draw_cmd(struct qt_state *s, struct rng *rng)
{
	return draw(s->cmd_deck, &s->cmd_deck_n, s->cmd_discard,
	            &s->cmd_discard_n, rng);
}

static uint8_t draw_gam(struct qt_state *s, struct rng *rng)
{
	return draw(s->gam_deck, &s->gam_deck_n, s->gam_discard,
	            &s->gam_discard_n, rng);
}

/* A card turned face up into a row, for the move's outcome. */
static void turned_up(struct qt_state *s, uint8_t card, int gambit)
{
	if (card == QT_NO_CARD || s->last_cards_n >= 2 * QT_ROW)
		return;
	s->last_cards_gambit[s->last_cards_n] = (uint8_t)gambit;
	s->last_cards[s->last_cards_n++] = card;
}

static void refill(struct qt_state *s, struct rng *rng)
{
	for (int i = 0; i < QT_ROW; i++) {
		if (s->row_cmd[i] == QT_NO_CARD)
			turned_up(s, s->row_cmd[i] = draw_cmd(s, rng), 0);
		if (s->row_gam[i] == QT_NO_CARD)
			turned_up(s, s->row_gam[i] = draw_gam(s, rng), 1);
	}
}

void qt_cards_deal(struct qt_state *s, struct rng *rng)
{
	s->cmd_deck_n = 0;
	for (int c = QT_FIRST_COMMAND; c < QT_NCARDS; c++)
		s->cmd_deck[s->cmd_deck_n++] = (uint8_t)c;
	s->gam_deck_n = 0;
	for (int c = 0; c < QT_NGAMBIT_KINDS; c++)
		for (int k = 0; k < qt_card_copies(c); k++)
			s->gam_deck[s->gam_deck_n++] = (uint8_t)c;
	rng_shuffle_u8(rng, s->cmd_deck, s->cmd_deck_n);
	rng_shuffle_u8(rng, s->gam_deck, s->gam_deck_n);
	memset(s->row_cmd, QT_NO_CARD, sizeof s->row_cmd);
	memset(s->row_gam, QT_NO_CARD, sizeof s->row_gam);
	refill(s, rng);
}

int qt_cards_picker(const struct qt_state *s)
{
	if (s->phase != QT_PH_CARDS)
		return -1;
	/* rules §7.1, §14: the active player first, then the others in
	 * turn order. */
	for (int k = 0; k < s->seats; k++) {
		int p = (s->active + k) % s->seats;
		if (s->picks[p] > 0)
			return p;
	}
	return -1;
}

static int reserve_ship(const struct qt_state *s, int seat)
{
	/* rules §14: expansion ship 3 before ship 4. */
	for (int i = QT_START_SHIPS; i < QT_SHIPS; i++)
		if (s->ship[seat][i].where == QT_RESERVE)
			return i;
	return -1;
}

/* 1 if seat may take card c from the row now. */
static int takeable(const struct qt_state *s, int seat, int c)
{
	if (c == QT_NO_CARD)
		return 0;
	/* rules §9.1: no EXPANSION with both expansion ships in play. */
	return c != QT_EXPANSION || reserve_ship(s, seat) >= 0;
}

static int cards_exist(const struct qt_state *s)
{
	int n =
	    s->cmd_deck_n + s->cmd_discard_n + s->gam_deck_n + s->gam_discard_n;
	for (int i = 0; i < QT_ROW; i++)
		n += (s->row_cmd[i] != QT_NO_CARD) +
		     (s->row_gam[i] != QT_NO_CARD);
	return n > 0;
}

static int can_pick(const struct qt_state *s, int seat)
{
	for (int i = 0; i < QT_ROW; i++)
		if (takeable(s, seat, s->row_cmd[i]) ||
		    takeable(s, seat, s->row_gam[i]))
			return 1;
	return cards_exist(s);
}

void qt_cards_settle(struct qt_state *s, struct rng *rng)
{
	while (s->phase == QT_PH_CARDS && s->ndecisions == 0) {
		int p = qt_cards_picker(s);
		if (p < 0) {
			s->owner = (uint8_t)((s->owner + 1) % s->seats);
			qt_start_turn(s, s->owner, QT_ACTIONS);
			return;
		}
		refill(s, rng); /* rules §14: at the start of the next take */
		if (can_pick(s, p))
			return;
		s->picks[p]--; /* rules §14: no card can be taken */
	}
}

void qt_cards_begin(struct qt_state *s, struct rng *rng)
{
	int a = s->active;
	/* rules §7.2: research 6 gives one card and resets to 1;
	 * PRECOCIOUS (§9.2 #19): 4 or more. */
	if (s->research[a] >=
	    (qt_has(s, a, QT_PRECOCIOUS) ? 4 : QT_MAX_TRACK)) {
		s->research[a] = 1;
		s->picks[a]++;
	}
	s->phase = QT_PH_CARDS;
	qt_cards_settle(s, rng);
}

static int held_count(const struct qt_state *s, int seat)
{
	int n = 0;
	for (int i = 0; i <= QT_MAX_HELD; i++)
		n += s->held[seat][i] != QT_NO_CARD;
	return n;
}

static void discard_held(struct qt_state *s, int seat, int slot)
{
	/* a discarded card is no longer held, so not waking either */
	s->waking[seat] &= ~QT_CARD_BIT(s->held[seat][slot]);
	s->cmd_discard[s->cmd_discard_n++] = s->held[seat][slot];
	s->held[seat][slot] = QT_NO_CARD;
}

static int relocation_ok(const struct qt_state *s, int seat, int owner,
                         int from, int to)
{
	if (owner == seat || owner < 0 || owner >= s->seats || from == to ||
	    !qt_has_cube(s, owner, from) || qt_has_cube(s, owner, to) ||
	    qt_free_locations(s, to) == 0)
		return 0;
	/* rules §9.4: the first printing forbids a higher planet. */
	return !s->reloc_first ||
	       s->board.planet[to].number <= s->board.planet[from].number;
}

static int relocation_possible(const struct qt_state *s, int seat)
{
	for (int o = 0; o < s->seats; o++)
		for (int f = 0; f < s->board.nplanets; f++)
			for (int t = 0; t < s->board.nplanets; t++)
				if (relocation_ok(s, seat, o, f, t))
					return 1;
	return 0;
}

static void sabotage(struct qt_state *s, int seat)
{
	/* rules §14: in turn order, one at a time; one card goes at once. */
	for (int k = 1; k < s->seats; k++) {
		int p = (seat + k) % s->seats;
		int n = held_count(s, p);
		if (n == 1) {
			for (int i = 0; i <= QT_MAX_HELD; i++)
				if (s->held[p][i] != QT_NO_CARD)
					discard_held(s, p, i);
		} else if (n > 1) {
			qt_queue(s,
			         (struct qt_decision){.kind = QT_DEC_SABOTAGE,
			                              .seat = (uint8_t)p});
		}
	}
}

static void gambit(struct qt_state *s, int seat, int c, struct rng *rng)
{
	s->gam_discard[s->gam_discard_n++] = (uint8_t)c;
	switch (c) {
	case QT_EXPANSION: {
		int i = reserve_ship(s, seat);
		struct qt_ship *sh = &s->ship[seat][i];
		sh->where = QT_SCRAPYARD;         /* until placed */
		qt_ship_roll(s, rng, seat, i, 0); /* CLEVER, SCRAPPY */
		qt_queue(s, (struct qt_decision){.kind = QT_DEC_PLACE_SHIP,
		                                 .seat = (uint8_t)seat,
		                                 .ship = (int8_t)i});
		return;
	}
	case QT_AGGRESSION:
		qt_gain_dominance(s, seat, 2);
		return;
	case QT_MOMENTUM:
		/* rules §9.1: the bonus turn comes before the remaining
		 * picks, which are taken in its Phase 2; §14: the card is
		 * discarded as the bonus turn starts. */
		qt_start_turn(s, seat, QT_BONUS_ACTS);
		return;
	case QT_REORGANIZATION:
		qt_queue(s, (struct qt_decision){.kind = QT_DEC_REORGANIZE,
		                                 .seat = (uint8_t)seat});
		return;
	case QT_RELOCATION:
		if (relocation_possible(s, seat)) /* else no effect */
			qt_queue(s,
			         (struct qt_decision){.kind = QT_DEC_RELOCATE,
			                              .seat = (uint8_t)seat});
		return;
	case QT_SABOTAGE:
		sabotage(s, seat);
		return;
	}
}

static int take(struct qt_state *s, int seat, int c, struct rng *rng,
                struct rules_why *why)
{
	uint8_t *slot = NULL;
	for (int i = 0; i < QT_ROW; i++) {
		if (s->row_cmd[i] == c)
			slot = &s->row_cmd[i];
		if (s->row_gam[i] == c)
			slot = &s->row_gam[i];
	}
	if (!slot)
		return rules_fail(why, BD_EILLEGAL, "§9.1",
		                  "%s is not in the face-up row",
		                  qt_card_name(c));
	if (!takeable(s, seat, c))
		return rules_fail(
		    why, BD_EILLEGAL, "§9.1",
		    "expansion needs an expansion ship in reserve");
	*slot = QT_NO_CARD;
	*slot = c >= QT_FIRST_COMMAND ? draw_cmd(s, rng) : draw_gam(s, rng);
	s->picks[seat]--;
	if (c < QT_FIRST_COMMAND) {
		gambit(s, seat, c, rng);
		return 0;
	}
	for (int i = 0; i <= QT_MAX_HELD; i++)
		if (s->held[seat][i] == QT_NO_CARD) {
			s->held[seat][i] = (uint8_t)c;
			break;
		}
	/* rules §14.1: it works from the next start of a turn */
	s->waking[seat] |= QT_CARD_BIT(c);
	/* rules §9.1: keep 3; §14: any of the 4, the new one included */
	if (held_count(s, seat) > QT_MAX_HELD)
		qt_queue(s, (struct qt_decision){.kind = QT_DEC_DISCARD,
		                                 .seat = (uint8_t)seat});
	return 0;
}

static void refresh(struct qt_state *s, struct rng *rng)
{
	/* rules §9.1: discard all 6 face-up cards and deal 6 new ones; the
	 * refresh costs the pick. */
	for (int i = 0; i < QT_ROW; i++) {
		if (s->row_cmd[i] != QT_NO_CARD)
			s->cmd_discard[s->cmd_discard_n++] = s->row_cmd[i];
		if (s->row_gam[i] != QT_NO_CARD)
			s->gam_discard[s->gam_discard_n++] = s->row_gam[i];
		s->row_cmd[i] = s->row_gam[i] = QT_NO_CARD;
	}
	refill(s, rng);
}

int qt_cards_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why)
{
	if (seat != qt_cards_picker(s))
		return rules_fail(why, BD_EILLEGAL, "§9.1",
		                  "seat %d takes no card now", seat);
	if (a->type == QT_A_TAKE_CARD) {
		int rc = take(s, seat, a->card, rng, why);
		if (rc)
			return rc;
	} else if (a->type == QT_A_REFRESH_CARDS) {
		if (!cards_exist(s))
			return rules_fail(why, BD_EILLEGAL, "§9.1",
			                  "no cards left to deal");
		refresh(s, rng);
		s->picks[seat]--;
	} else {
		return rules_fail(why, BD_EILLEGAL, "§9.1",
		                  "Phase 2 allows only take_card or "
		                  "refresh_cards");
	}
	qt_cards_settle(s, rng);
	return 0;
}

static int discard_decide(struct qt_state *s, int seat, int c,
                          struct rules_why *why)
{
	for (int i = 0; i <= QT_MAX_HELD; i++)
		if (s->held[seat][i] == c && c != QT_NO_CARD) {
			discard_held(s, seat, i);
			/* keep the held cards packed in slots 0..2 */
			for (int k = i; k < QT_MAX_HELD; k++)
				s->held[seat][k] = s->held[seat][k + 1];
			s->held[seat][QT_MAX_HELD] = QT_NO_CARD;
			qt_pop_decision(s);
			return 0;
		}
	return rules_fail(why, BD_EILLEGAL, "§9.1", "you hold no %s",
	                  qt_card_name(c));
}

static int place_decide(struct qt_state *s, int seat, const struct qt_action *a,
                        struct rules_why *why)
{
	const struct qt_decision *d = &s->decision[0];
	if (a->ship != d->ship)
		return rules_fail(why, BD_EILLEGAL, "§9.3",
		                  "ship %d is the one to place", d->ship);
	struct qt_ship *sh = &s->ship[seat][d->ship];
	if (!a->scrapyard) {
		if (!qt_deploy_square(s, seat, a->to))
			return rules_fail(why, BD_EILLEGAL, "§9.3",
			                  "place it in the scrapyard or on an "
			                  "empty orbital position of a planet "
			                  "with one of your cubes");
		sh->where = QT_MAP;
		sh->at = a->to;
	}
	qt_pop_decision(s);
	return 0;
}

static int reorganize(struct qt_state *s, int seat, const struct qt_action *a,
                      struct rng *rng, struct rules_why *why)
{
	unsigned chosen = 0;
	for (int k = 0; k < a->nships; k++) {
		int i = a->ships[k];
		if (i < 0 || i >= QT_SHIPS ||
		    s->ship[seat][i].where == QT_RESERVE || (chosen >> i & 1))
			return rules_fail(why, BD_EILLEGAL, "§9.3",
			                  "reorganize names distinct ships on "
			                  "the map or in your scrapyard");
		chosen |= 1u << i;
	}
	qt_pop_decision(s);
	/* rules §14: roll in ascending ship number (§14.1: CLEVER and
	 * SCRAPPY are asked in that order), then place one at a time in
	 * that order. */
	for (int i = 0; i < QT_SHIPS; i++) {
		if (!(chosen >> i & 1))
			continue;
		struct qt_ship *sh = &s->ship[seat][i];
		sh->where = QT_SCRAPYARD;
		sh->at = (struct qt_sq){-1, -1};
		qt_ship_roll(s, rng, seat, i, 0);
	}
	for (int i = 0; i < QT_SHIPS; i++) {
		if (!(chosen >> i & 1))
			continue;
		qt_queue(s, (struct qt_decision){.kind = QT_DEC_PLACE_SHIP,
		                                 .seat = (uint8_t)seat,
		                                 .ship = (int8_t)i});
	}
	return 0;
}

static int relocate(struct qt_state *s, int seat, const struct qt_action *a,
                    struct rules_why *why)
{
	int f = qt_board_planet_at(&s->board, a->from.r, a->from.c);
	int t = qt_board_planet_at(&s->board, a->to.r, a->to.c);
	if (f < 0 || t < 0 || !relocation_ok(s, seat, a->owner, f, t))
		return rules_fail(why, BD_EILLEGAL, "§9.3",
		                  "relocation moves another player's cube to a "
		                  "planet with room and none of their cubes");
	for (int k = 0; k < 4; k++)
		if (s->cube[f][k] == a->owner) {
			s->cube[f][k] = -1;
			break;
		}
	for (int k = 0; k < s->board.planet[t].number - 6; k++)
		if (s->cube[t][k] < 0) {
			s->cube[t][k] = a->owner;
			break;
		}
	qt_pop_decision(s);
	return 0;
}

int qt_cards_decide(struct qt_state *s, int seat, const struct qt_action *a,
                    struct rng *rng, struct rules_why *why)
{
	switch (s->decision[0].kind) {
	case QT_DEC_DISCARD:
	case QT_DEC_SABOTAGE:
		return discard_decide(s, seat, a->card, why);
	case QT_DEC_PLACE_SHIP:
		return place_decide(s, seat, a, why);
	case QT_DEC_REORGANIZE:
		return reorganize(s, seat, a, rng, why);
	case QT_DEC_RELOCATE:
		return relocate(s, seat, a, why);
	}
	return rules_fail(why, BD_EILLEGAL, "§9", "no such decision");
}

static void list_decision(const struct qt_state *s, int seat, qt_emit_fn emit,
                          void *ctx)
{
	const struct qt_decision *d = &s->decision[0];
	struct qt_action a = {.ship = d->ship};
	switch (d->kind) {
	case QT_DEC_DISCARD:
	case QT_DEC_SABOTAGE:
		a.type = QT_A_DISCARD_COMMAND;
		for (int i = 0; i <= QT_MAX_HELD; i++)
			if ((a.card = s->held[seat][i]) != QT_NO_CARD)
				emit(ctx, &a);
		return;
	case QT_DEC_PLACE_SHIP:
		a.type = QT_A_PLACE_SHIP;
		a.scrapyard = 1;
		emit(ctx, &a);
		a.scrapyard = 0;
		qt_list_deploy_squares(s, seat, &a, emit, ctx);
		return;
	case QT_DEC_REORGANIZE: {
		a.type = QT_A_REORGANIZE;
		for (unsigned set = 0; set < 1u << QT_SHIPS; set++) {
			a.nships = 0;
			int ok = 1;
			for (int i = 0; i < QT_SHIPS; i++)
				if (set >> i & 1) {
					ok &= s->ship[seat][i].where !=
					      QT_RESERVE;
					a.ships[a.nships++] = (int8_t)i;
				}
			if (ok)
				emit(ctx, &a);
		}
		return;
	}
	case QT_DEC_RELOCATE:
		a.type = QT_A_RELOCATE;
		for (int o = 0; o < s->seats; o++)
			for (int f = 0; f < s->board.nplanets; f++)
				for (int t = 0; t < s->board.nplanets; t++)
					if (relocation_ok(s, seat, o, f, t)) {
						a.owner = (int8_t)o;
						a.from = s->board.planet[f].at;
						a.to = s->board.planet[t].at;
						emit(ctx, &a);
					}
		return;
	}
}

void qt_cards_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx)
{
	if (s->ndecisions > 0) {
		list_decision(s, seat, emit, ctx);
		return;
	}
	for (int i = 0; i < QT_ROW; i++) {
		if (takeable(s, seat, s->row_cmd[i]))
			emit(ctx, &(struct qt_action){.type = QT_A_TAKE_CARD,
			                              .card = s->row_cmd[i]});
		/* gambits come in copies: list each kind once */
		int seen = 0;
		for (int k = 0; k < i; k++)
			seen |= s->row_gam[k] == s->row_gam[i];
		if (!seen && takeable(s, seat, s->row_gam[i]))
			emit(ctx, &(struct qt_action){.type = QT_A_TAKE_CARD,
			                              .card = s->row_gam[i]});
	}
	if (cards_exist(s))
		emit(ctx, &(struct qt_action){.type = QT_A_REFRESH_CARDS});
}
