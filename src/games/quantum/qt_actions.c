/* qt_actions.c: the Phase 1 actions that move no ship across the board:
 * reconfigure, deploy, construct and research (rules §5). */
#include "qt.h"

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

static int check_ship(int ship, struct qt_why *why)
{
	if (ship < 0 || ship >= QT_SHIPS)
		return qt_fail(why, BD_EILLEGAL, "§5", "no ship %d", ship);
	return 0;
}

static int reconfigure(struct qt_state *s, int seat, const struct qt_action *a,
                       struct rng *rng, struct qt_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	if (sh->where == QT_RESERVE)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "ship %d is an expansion ship in reserve",
		               a->ship);
	sh->value = (uint8_t)qt_reroll_ship(s, rng, sh->value);
	s->actions_left--;
	return 0;
}

/* 1 if sq is an empty orbital square of a planet holding seat's cube. */
static int deploy_square(const struct qt_state *s, int seat, struct qt_sq sq)
{
	int p = qt_board_orbit_of(&s->board, sq.r, sq.c);
	return p >= 0 && qt_has_cube(s, seat, p) && qt_square_free(s, sq);
}

int qt_deploy_square(const struct qt_state *s, int seat, struct qt_sq sq)
{
	return deploy_square(s, seat, sq);
}

static int deploy(struct qt_state *s, int seat, const struct qt_action *a,
                  struct qt_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	if (sh->where != QT_SCRAPYARD)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "only a ship in your scrapyard can be deployed");
	if (!deploy_square(s, seat, a->to))
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "deploy to an empty orbital position of a "
		               "planet with one of your cubes");
	sh->where = QT_MAP;
	sh->at = a->to;
	s->actions_left--;
	return 0;
}

/* Sum of seat's ships in the orbital positions of planet p (§5). */
static int orbital_sum(const struct qt_state *s, int seat, int p)
{
	struct qt_sq o[4];
	qt_board_orbitals(&s->board, p, o);
	int sum = 0;
	for (int k = 0; k < 4; k++) {
		int owner, i = qt_ship_at(s, o[k], &owner);
		if (i >= 0 && owner == seat)
			sum += s->ship[seat][i].value;
	}
	return sum;
}

/* 0 if seat may construct on planet p now, else the refusal. */
static int construct_check(const struct qt_state *s, int seat, int p,
                           struct qt_why *why)
{
	if (s->actions_left < 2)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "construct takes 2 actions");
	int own;
	if (!qt_cube_allowed(s, seat, p, &own))
		return qt_fail(why, BD_EILLEGAL, "§7.3",
		               "no cube can go on this planet: it is full or "
		               "already holds your cube");
	/* rules §7.3: +3 to the target per own cube already there. */
	int target = s->board.planet[p].number + 3 * own;
	int sum = orbital_sum(s, seat, p);
	if (sum != target)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "your orbital ships add up to %d, not %d", sum,
		               target);
	return 0;
}

static int construct(struct qt_state *s, int seat, const struct qt_action *a,
                     struct qt_why *why)
{
	int p = qt_board_planet_at(&s->board, a->planet.r, a->planet.c);
	if (p < 0)
		return qt_fail(why, BD_EILLEGAL, "§5", "no planet there");
	int rc = construct_check(s, seat, p, why);
	if (rc)
		return rc;
	s->actions_left -= 2;
	s->picks[seat]++; /* rules §4 Phase 2: a card per cube placed */
	qt_place_cube(s, seat, p);
	return 0;
}

int qt_basic_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct qt_why *why)
{
	if (a->type != QT_A_CONSTRUCT && s->actions_left < 1)
		return qt_fail(why, BD_EILLEGAL, "§4", "no actions left");
	if ((a->type == QT_A_RECONFIGURE || a->type == QT_A_DEPLOY) &&
	    check_ship(a->ship, why))
		return BD_EILLEGAL;
	switch (a->type) {
	case QT_A_RECONFIGURE:
		return reconfigure(s, seat, a, rng, why);
	case QT_A_DEPLOY:
		return deploy(s, seat, a, why);
	case QT_A_CONSTRUCT:
		return construct(s, seat, a, why);
	case QT_A_RESEARCH:
		/* rules §14: research at 6 is not offered. */
		if (s->research[seat] >= QT_MAX_TRACK)
			return qt_fail(why, BD_EILLEGAL, "§14",
			               "research is already 6");
		s->research[seat]++;
		s->actions_left--;
		return 0;
	}
	return qt_fail(why, BD_EILLEGAL, "§5", "not a basic action");
}

static void list_deploys(const struct qt_state *s, int seat, int i,
                         qt_emit_fn emit, void *ctx)
{
	for (int p = 0; p < s->board.nplanets; p++) {
		if (!qt_has_cube(s, seat, p))
			continue;
		struct qt_sq o[4];
		qt_board_orbitals(&s->board, p, o);
		for (int k = 0; k < 4; k++)
			if (qt_square_free(s, o[k]))
				emit(ctx,
				     &(struct qt_action){.type = QT_A_DEPLOY,
				                         .ship = (int8_t)i,
				                         .to = o[k]});
	}
}

void qt_basic_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx)
{
	if (s->actions_left < 1)
		return;
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where != QT_RESERVE)
			emit(ctx, &(struct qt_action){.type = QT_A_RECONFIGURE,
			                              .ship = (int8_t)i});
		if (sh->where == QT_SCRAPYARD)
			list_deploys(s, seat, i, emit, ctx);
	}
	for (int p = 0; p < s->board.nplanets; p++)
		if (construct_check(s, seat, p, NULL) == 0)
			emit(ctx, &(struct qt_action){
			              .type = QT_A_CONSTRUCT,
			              .planet = s->board.planet[p].at});
	if (s->research[seat] < QT_MAX_TRACK)
		emit(ctx, &(struct qt_action){.type = QT_A_RESEARCH});
}
