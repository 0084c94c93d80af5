/* qt_actions.c: the Phase 1 actions that move no ship across the board:
 * reconfigure, deploy, construct and research (rules §5).
 * Layer 5 (actions) of qt.h: it calls the command cards and the
 * primitives. */
#include "qt.h"

static int check_ship(int ship, struct rules_why *why)
{
	if (ship < 0 || ship >= QT_SHIPS)
		return rules_fail(why, BD_EILLEGAL, "§5", "no ship %d", ship);
	return 0;
}

static int reconfigure(struct qt_state *s, int seat, const struct qt_action *a,
                       struct rng *rng, struct rules_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	if (sh->where == QT_RESERVE)
		return rules_fail(why, BD_EILLEGAL, "§5",
		                  "ship %d is an expansion ship in reserve",
		                  a->ship);
	s->actions_left--;
	qt_ship_roll(s, rng, seat, a->ship, sh->value);
	return 0;
}

/* 1 if no ship stands orthogonally next to sq (STEALTHY, §14.1). */
static int isolated(const struct qt_state *s, struct qt_sq sq)
{
	static const int8_t d[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
	for (int k = 0; k < 4; k++)
		if (qt_ship_at(s,
		               (struct qt_sq){(int8_t)(sq.r + d[k][0]),
		                              (int8_t)(sq.c + d[k][1])},
		               NULL) >= 0)
			return 0;
	return 1;
}

int qt_deploy_square(const struct qt_state *s, int seat, struct qt_sq sq)
{
	if (!qt_square_free(s, sq))
		return 0;
	int p = qt_board_orbit_of(&s->board, sq.r, sq.c);
	if (p >= 0 && qt_has_cube(s, seat, p))
		return 1;
	/* STEALTHY (§9.2 #26): any empty square next to no ship */
	return qt_has(s, seat, QT_STEALTHY) && isolated(s, sq);
}

/* EAGER (§9.2 #11): deploy costs no action. */
static int deploy_cost(const struct qt_state *s, int seat)
{
	return qt_has(s, seat, QT_EAGER) ? 0 : 1;
}

static int deploy(struct qt_state *s, int seat, const struct qt_action *a,
                  struct rules_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	if (sh->where != QT_SCRAPYARD)
		return rules_fail(
		    why, BD_EILLEGAL, "§5",
		    "only a ship in your scrapyard can be deployed");
	if (!qt_deploy_square(s, seat, a->to))
		return rules_fail(why, BD_EILLEGAL, "§5",
		                  "deploy to an empty orbital position of a "
		                  "planet with one of your cubes");
	sh->where = QT_MAP;
	sh->at = a->to;
	s->actions_left = (uint8_t)(s->actions_left - deploy_cost(s, seat));
	return 0;
}

/* Sum of seat's ships in the orbital positions of planet p (§5): its
 * ships orthogonally next to the planet's centre (no two ships share a
 * square, so this is the sum over the 4 orbital squares). */
static int orbital_sum(const struct qt_state *s, int seat, int p)
{
	struct qt_sq at = s->board.planet[p].at;
	int sum = 0;
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where == QT_MAP && qt_sq_adjacent(sh->at, at))
			sum += sh->value;
	}
	return sum;
}

/* Bit set of seat's ships on the 4 corner squares of planet p. */
static unsigned corner_ships(const struct qt_state *s, int seat, int p)
{
	struct qt_sq at = s->board.planet[p].at;
	unsigned set = 0;
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where == QT_MAP && sh->at.r != at.r &&
		    sh->at.c != at.c && qt_sq_surrounding(sh->at, at))
			set |= 1u << i;
	}
	return set;
}

/* The INGENIOUS diagonal ships of a construct as a bit set, or -1 if the
 * list is not a set of seat's ships on the planet's corners. */
static int diagonals(const struct qt_state *s, int seat, int p,
                     const struct qt_action *a)
{
	if (a->nships == 0)
		return 0; /* the usual construct: no diagonal ship */
	unsigned set = 0, corners = corner_ships(s, seat, p);
	for (int k = 0; k < a->nships; k++) {
		int i = a->ships[k];
		if (i < 0 || i >= QT_SHIPS || !(corners >> i & 1) ||
		    (set >> i & 1))
			return -1;
		set |= 1u << i;
	}
	return (int)set;
}

/* 0 if seat may construct on planet p now with the diagonal ships of a
 * (INGENIOUS), else the refusal. */
static int construct_check(const struct qt_state *s, int seat, int p,
                           const struct qt_action *a, struct rules_why *why)
{
	if (s->actions_left < 2)
		return rules_fail(why, BD_EILLEGAL, "§5",
		                  "construct takes 2 actions");
	int own;
	if (!qt_cube_allowed(s, seat, p, &own))
		return rules_fail(
		    why, BD_EILLEGAL, "§7.3",
		    "no cube can go on this planet: it is full or "
		    "already holds your cube");
	int diag = diagonals(s, seat, p, a);
	if (diag < 0 || (diag && !qt_has(s, seat, QT_INGENIOUS)))
		return rules_fail(
		    why, BD_EILLEGAL, "§9.2",
		    "diagonals: your ships on the planet's corner "
		    "squares, with INGENIOUS only");
	/* rules §7.3: +3 to the target per own cube already there. */
	int target = s->board.planet[p].number + 3 * own;
	int sum = orbital_sum(s, seat, p);
	for (int i = 0; i < QT_SHIPS; i++)
		if (diag >> i & 1)
			sum += s->ship[seat][i].value;
	/* INTELLIGENT (§9.2 #16): one higher or lower will do */
	int slack = qt_has(s, seat, QT_INTELLIGENT) ? 1 : 0;
	if (sum < target - slack || sum > target + slack)
		return rules_fail(
		    why, BD_EILLEGAL, "§5", "your ships add up to %d, not %d%s",
		    sum, target, slack ? " (±1 with INTELLIGENT)" : "");
	return 0;
}

static int construct(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rules_why *why)
{
	int p = qt_board_planet_at(&s->board, a->planet.r, a->planet.c);
	if (p < 0)
		return rules_fail(why, BD_EILLEGAL, "§5", "no planet there");
	int rc = construct_check(s, seat, p, a, why);
	if (rc)
		return rc;
	s->actions_left -= 2;
	s->picks[seat]++; /* rules §4 Phase 2: a card per cube placed */
	qt_place_cube(s, seat, p);
	return 0;
}

int qt_basic_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why)
{
	int need = a->type == QT_A_CONSTRUCT ? 0
	           : a->type == QT_A_DEPLOY  ? deploy_cost(s, seat)
	                                     : 1;
	if (s->actions_left < need)
		return rules_fail(why, BD_EILLEGAL, "§4", "no actions left");
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
			return rules_fail(why, BD_EILLEGAL, "§14",
			                  "research is already 6");
		s->research[seat]++;
		s->actions_left--;
		return 0;
	}
	return rules_fail(why, BD_EILLEGAL, "§5", "not a basic action");
}

void qt_list_deploy_squares(const struct qt_state *s, int seat,
                            struct qt_action *a, qt_emit_fn emit, void *ctx)
{
	/* candidates in row-major order: the empty squares, and without
	 * STEALTHY only the orbital positions of the planets holding the
	 * seat's cubes */
	struct qt_bits free;
	qt_free_bits(s, &free);
	int stealthy = qt_has(s, seat, QT_STEALTHY);
	if (!stealthy) {
		struct qt_bits orbits = {{0}};
		for (int p = 0; p < s->board.nplanets; p++) {
			struct qt_sq o[4];
			if (!qt_has_cube(s, seat, p))
				continue;
			qt_board_orbitals(&s->board, p, o);
			for (int k = 0; k < 4; k++)
				qt_bits_add(&orbits, o[k]);
		}
		for (int r = 0; r < QT_MAX_ROWS; r++)
			free.row[r] &= orbits.row[r];
	}
	for (int r = 0; r < qt_board_rows(&s->board); r++)
		for (uint32_t c = free.row[r]; c; c &= c - 1) {
			a->to =
			    (struct qt_sq){(int8_t)r, (int8_t)__builtin_ctz(c)};
			/* without STEALTHY every candidate passes: an empty
			 * orbital square of a planet with the seat's cube */
			if (!stealthy || qt_deploy_square(s, seat, a->to))
				emit(ctx, a);
		}
}

static void list_deploys(const struct qt_state *s, int seat, int i,
                         qt_emit_fn emit, void *ctx)
{
	struct qt_action a = {.type = QT_A_DEPLOY, .ship = (int8_t)i};
	qt_list_deploy_squares(s, seat, &a, emit, ctx);
}

/* Every construct on planet p: with INGENIOUS, one per subset of the
 * corner ships that makes a legal sum. */
static void list_constructs(const struct qt_state *s, int seat, int p,
                            qt_emit_fn emit, void *ctx)
{
	unsigned corners =
	    qt_has(s, seat, QT_INGENIOUS) ? corner_ships(s, seat, p) : 0;
	struct qt_action a = {.type = QT_A_CONSTRUCT,
	                      .planet = s->board.planet[p].at};
	/* the subsets of corners in increasing order (as numbers) */
	unsigned set = 0;
	do {
		a.nships = 0;
		for (int i = 0; i < QT_SHIPS; i++)
			if (set >> i & 1)
				a.ships[a.nships++] = (int8_t)i;
		if (construct_check(s, seat, p, &a, NULL) == 0)
			emit(ctx, &a);
		set = (set - corners) & corners;
	} while (set);
}

void qt_basic_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx)
{
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where != QT_RESERVE && s->actions_left >= 1)
			emit(ctx, &(struct qt_action){.type = QT_A_RECONFIGURE,
			                              .ship = (int8_t)i});
		if (sh->where == QT_SCRAPYARD &&
		    s->actions_left >= deploy_cost(s, seat))
			list_deploys(s, seat, i, emit, ctx);
	}
	/* construct_check refuses every construct with fewer than 2
	 * actions left (rules §5) */
	for (int p = 0; s->actions_left >= 2 && p < s->board.nplanets; p++)
		list_constructs(s, seat, p, emit, ctx);
	if (s->research[seat] < QT_MAX_TRACK && s->actions_left >= 1)
		emit(ctx, &(struct qt_action){.type = QT_A_RESEARCH});
}
