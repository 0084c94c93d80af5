/* qt_move.c: ship movement and ship abilities: move, move/attack,
 * TRANSPORT, MANEUVER (rules §5, §6.2), the free abilities STRIKE, WARP,
 * MODIFY and SCOUT (rules §6.2), and the command cards that change them:
 * AGILE, ENERGETIC, CUNNING, CURIOUS and TACTICAL (rules §9.2, §14.1).
 * Layer 5 (actions) of qt.h, above qt_combat.c (an attack starts a
 * battle). */
#include <stdlib.h>
#include <string.h>

#include "qt.h"

enum { BATTLESTATION = 1, FLAGSHIP, DESTROYER, FRIGATE, INTERCEPTOR, SCOUT };

/* Steps a reach follows at most: no ship moves further than 6, or 7
 * with AGILE (§9.2 #1). */
#define MAX_STEPS 7

/* Step distances from one square through empty squares, as bit sets:
 * within[k] holds the squares at most k steps away, for k <= steps (the
 * movement points the caller asked for; within[] past steps is not
 * written). */
struct reach {
	int steps; /* 0..MAX_STEPS */
	struct qt_bits within[MAX_STEPS + 1];
};

static const int8_t dir8[8][2] = {{-1, 0},  {1, 0},  {0, -1}, {0, 1},
                                  {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

/* Breadth-first distances from `from` over the squares of *free (the
 * empty open squares), with 4 or 8 directions, up to `steps` steps (at
 * most MAX_STEPS), a whole distance at a time on bit rows.  Only the rows
 * a k-step path can reach (from.r +- k) are visited.  Rules §6.2
 * MANEUVER: only the destination of a diagonal step must be empty
 * (corner squeeze allowed, §14). */
static void reach(const struct qt_state *s, const struct qt_bits *free,
                  struct qt_sq from, int ndir, int steps, struct reach *R)
{
	int rows = qt_board_rows(&s->board);
	if (steps > MAX_STEPS)
		steps = MAX_STEPS;
	if (steps < 0)
		steps = 0;
	R->steps = steps;
	memset(R->within, 0, (size_t)(steps + 1) * sizeof R->within[0]);
	R->within[0].row[from.r] = 1u << from.c;
	for (int k = 0; k < steps; k++) {
		const uint32_t *p = R->within[k].row;
		uint32_t *q = R->within[k + 1].row, grew = 0;
		int lo = from.r - k - 1 > 0 ? from.r - k - 1 : 0;
		int hi = from.r + k + 1 < rows - 1 ? from.r + k + 1 : rows - 1;
		for (int r = lo; r <= hi; r++) {
			uint32_t v = (r > 0 ? p[r - 1] : 0) |
			             (r + 1 < rows ? p[r + 1] : 0);
			uint32_t n = v | p[r] << 1 | p[r] >> 1;
			if (ndir == 8)
				n |= v << 1 | v >> 1;
			q[r] = p[r] | (n & free->row[r]);
			grew |= q[r] ^ p[r];
		}
		if (!grew) {
			for (int j = k + 2; j <= steps; j++)
				R->within[j] = R->within[k + 1];
			break;
		}
	}
}

/* 1 if sq is at most k steps away in R (none for k < 0; k is capped at
 * the steps R was computed for). */
static int within(const struct reach *R, int k, struct qt_sq sq)
{
	if (k < 0)
		return 0;
	return qt_bits_has(&R->within[k < R->steps ? k : R->steps], sq);
}

/* A ship's movement map: orthogonal distances and, when it may
 * MANEUVER, 8-direction distances. */
struct moves {
	struct reach o;  /* orthogonal */
	struct reach x;  /* with diagonal steps; valid if man */
	int man;         /* 1: MANEUVER available */
	int n;           /* movement points */
	struct qt_sq at; /* start square */
};

/* How ship i of seat may use its ability now: 0 not at all, 1 its use of
 * the turn, 2 CUNNING's second use (§9.2 #8). */
static int ability_mode(const struct qt_state *s, int seat, int i)
{
	if (!s->ship[seat][i].ability_used)
		return 1;
	return qt_power_ready(s, seat, QT_CUNNING) ? 2 : 0;
}

/* Checks the "cunning" flag of an action that uses ship i's ability in
 * `mode`, and marks the use. */
static int use_ability(struct qt_state *s, int seat, int i, int mode,
                       int cunning, struct rules_why *why)
{
	if (mode == 0)
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "ship %d already used its ability this turn",
		                  i);
	if (cunning != (mode == 2))
		return rules_fail(why, BD_EILLEGAL, "§14.1",
		                  cunning ? "\"cunning\" marks a second use of "
		                            "the ability only"
		                          : "ship %d already used its ability: "
		                            "a second use needs CUNNING, "
		                            "\"cunning\":true",
		                  i);
	if (mode == 1)
		s->ship[seat][i].ability_used = 1;
	else
		qt_power_use(s, QT_CUNNING);
	return 0;
}

/* Movement points: the number, +1 with AGILE (§9.2 #1). */
static int movement(const struct qt_state *s, int seat, int i)
{
	return s->ship[seat][i].value + qt_has(s, seat, QT_AGILE);
}

/* free: qt_free_bits of s. */
static void moves_of(const struct qt_state *s, const struct qt_bits *free,
                     int seat, int i, struct moves *m)
{
	const struct qt_ship *sh = &s->ship[seat][i];
	m->at = sh->at;
	m->n = movement(s, seat, i);
	m->man = sh->value == INTERCEPTOR && ability_mode(s, seat, i);
	reach(s, free, sh->at, 4, m->n, &m->o);
	if (m->man)
		reach(s, free, sh->at, 8, m->n, &m->x);
}

/* rules §5 Move: 0 plain, 1 needs MANEUVER (§14: only when no orthogonal
 * path reaches it), -1 unreachable. */
static int move_kind(const struct moves *m, struct qt_sq to)
{
	if (qt_sq_eq(to, m->at) || to.r < 0 || to.c < 0 ||
	    to.r >= QT_MAX_ROWS || to.c >= QT_MAX_COLS)
		return -1;
	if (within(&m->o, m->n, to))
		return 0;
	if (m->man && within(&m->x, m->n, to))
		return 1;
	return -1;
}

/* rules §5 Attack: launched from `from` (reached with at most n-1 steps,
 * or the ship's own square), the attacking step costs 1 point. */
static int attack_reach(const struct moves *m, struct qt_sq from,
                        struct qt_sq target)
{
	if (from.r < 0 || from.c < 0 || from.r >= QT_MAX_ROWS ||
	    from.c >= QT_MAX_COLS)
		return -1;
	int home = qt_sq_eq(from, m->at);
	if ((home || within(&m->o, m->n - 1, from)) &&
	    qt_sq_adjacent(from, target))
		return 0;
	if (m->man && (home || within(&m->x, m->n - 1, from)) &&
	    qt_sq_surrounding(from, target))
		return 1;
	return -1;
}

/* attack_reach, once target holds an enemy ship of seat. */
static int attack_kind(const struct qt_state *s, int seat,
                       const struct moves *m, struct qt_sq from,
                       struct qt_sq target)
{
	int owner;
	if (qt_ship_at(s, target, &owner) < 0 || owner == seat)
		return -1;
	return attack_reach(m, from, target);
}

static int map_ship(const struct qt_state *s, int seat, int i,
                    struct rules_why *why)
{
	if (i < 0 || i >= QT_SHIPS)
		return rules_fail(why, BD_EILLEGAL, "§5", "no ship %d", i);
	if (s->ship[seat][i].where != QT_MAP)
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "ship %d is not on the map", i);
	return 0;
}

/* 1 if ship i may make a move (or move/attack) now: not moved yet, or
 * ENERGETIC (§9.2 #12). */
static int unmoved(const struct qt_state *s, int seat, int i)
{
	return !s->ship[seat][i].moved || qt_has(s, seat, QT_ENERGETIC);
}

/* A move action: 1 action, or none with CURIOUS's free move (§14.1). */
static int may_move(const struct qt_state *s, int seat, int i, int curious,
                    struct rules_why *why)
{
	if (map_ship(s, seat, i, why))
		return BD_EILLEGAL;
	if (curious && !qt_curious_ready(s, seat))
		return rules_fail(
		    why, BD_EILLEGAL, "§14.1",
		    "no CURIOUS free move now (once per turn; not "
		    "after an attack but with the first printing)");
	if (!curious && s->actions_left < 1)
		return rules_fail(why, BD_EILLEGAL, "§4", "no actions left");
	if (!unmoved(s, seat, i))
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "ship %d already moved this turn", i);
	return 0;
}

/* Pays for a move: an action, or CURIOUS's free move (revised: the
 * first later attack pays it back, §14). */
static void pay_move(struct qt_state *s, int curious)
{
	if (!curious) {
		s->actions_left--;
		return;
	}
	qt_power_use(s, QT_CURIOUS);
	s->curious_debt = s->curious == QT_CURIOUS_REVISED;
}

/* Checks and marks MANEUVER (k == 1) for a move or attack of ship i. */
static int maneuver(struct qt_state *s, int seat, int i, int k, int cunning,
                    struct rules_why *why)
{
	if (k == 1) /* rules §6.2 MANEUVER */
		return use_ability(s, seat, i, ability_mode(s, seat, i),
		                   cunning, why);
	if (cunning)
		return rules_fail(why, BD_EILLEGAL, "§14.1",
		                  "\"cunning\" only when a diagonal step needs "
		                  "a second MANEUVER");
	return 0;
}

static int do_move(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rules_why *why)
{
	if (may_move(s, seat, a->ship, a->curious, why))
		return BD_EILLEGAL;
	struct qt_bits free;
	qt_free_bits(s, &free);
	struct moves m;
	moves_of(s, &free, seat, a->ship, &m);
	int k = qt_bits_has(&free, a->to) ? move_kind(&m, a->to) : -1;
	if (k < 0)
		return rules_fail(why, BD_EILLEGAL, "§5",
		                  "ship %d cannot reach (%d,%d) with %d "
		                  "orthogonal steps through empty squares",
		                  a->ship, a->to.r, a->to.c, m.n);
	if (maneuver(s, seat, a->ship, k, a->cunning, why))
		return BD_EILLEGAL;
	struct qt_ship *sh = &s->ship[seat][a->ship];
	sh->at = a->to;
	sh->moved = 1;
	pay_move(s, a->curious);
	return 0;
}

static int do_attack(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rng *rng, struct rules_why *why)
{
	if (may_move(s, seat, a->ship, 0, why) || qt_attack_check(s, 1, why))
		return BD_EILLEGAL;
	struct qt_bits free;
	qt_free_bits(s, &free);
	struct moves m;
	moves_of(s, &free, seat, a->ship, &m);
	int home = qt_sq_eq(a->from, m.at);
	if (!home && !qt_bits_has(&free, a->from))
		return rules_fail(why, BD_EILLEGAL, "§6.1",
		                  "the attack square must be empty");
	int k = attack_kind(s, seat, &m, a->from, a->target);
	if (k < 0)
		return rules_fail(why, BD_EILLEGAL, "§5",
		                  "ship %d cannot attack (%d,%d) from (%d,%d)",
		                  a->ship, a->target.r, a->target.c, a->from.r,
		                  a->from.c);
	if (maneuver(s, seat, a->ship, k, a->cunning, why))
		return BD_EILLEGAL;
	struct qt_ship *sh = &s->ship[seat][a->ship];
	sh->at = a->from;
	sh->moved = 1;
	qt_attack_pay(s, 1);
	qt_combat(s, seat, a->ship, a->target, rng);
	return 0;
}

/* 1 if an orthogonal neighbour of sq is in *free. */
static int free_neighbour(const struct qt_bits *free, struct qt_sq sq)
{
	for (int k = 0; k < 4; k++)
		if (qt_bits_has(free,
		                (struct qt_sq){(int8_t)(sq.r + dir8[k][0]),
		                               (int8_t)(sq.c + dir8[k][1])}))
			return 1;
	return 0;
}

/* TRANSPORT geometry: the empty squares with the passenger lifted off
 * (its square is empty) and the flagship's distances on them. */
struct lift {
	struct qt_bits free; /* empty open squares, passenger lifted */
	struct reach R;
	struct qt_sq home; /* the flagship's square */
	int n;             /* the flagship's movement points */
};

/* Flagship i carries ship j of seat; free: qt_free_bits of s; n: the
 * flagship's movement points (TACTICAL: 1). */
static void lift(const struct qt_state *s, const struct qt_bits *free, int seat,
                 int i, int j, int n, struct lift *L)
{
	L->free = *free;
	qt_bits_add(&L->free, s->ship[seat][j].at);
	L->home = s->ship[seat][i].at;
	L->n = n;
	reach(s, &L->free, L->home, 4, n, &L->R);
}

/* 1 if the flagship may fly to `to` and drop the passenger at `drop`. */
static int transport_ok(const struct lift *L, struct qt_sq to,
                        struct qt_sq drop)
{
	if (to.r < 0 || to.c < 0 || to.r >= QT_MAX_ROWS || to.c >= QT_MAX_COLS)
		return 0;
	if (qt_sq_eq(to, L->home)) {
		/* rules §6.2: out and back needs 2 points and a free
		 * neighbour (designer, BGG 1074052). */
		if (L->n < 2 || !free_neighbour(&L->free, to))
			return 0;
	} else if (!qt_bits_has(&L->free, to) || !within(&L->R, L->n, to)) {
		return 0;
	}
	if (!qt_sq_surrounding(to, drop))
		return 0;
	/* the drop square with the flagship moved to `to` */
	struct qt_bits away = L->free;
	qt_bits_add(&away, L->home);
	qt_bits_del(&away, to);
	return qt_bits_has(&away, drop);
}

/* TRANSPORT by flagship i with n movement points (TACTICAL: 1, no
 * out-and-back): checks everything, uses the ability and moves both
 * ships; the caller pays. */
static int transport(struct qt_state *s, int seat, const struct qt_action *a,
                     int n, struct rules_why *why)
{
	struct qt_ship *f = &s->ship[seat][a->ship];
	if (f->value != FLAGSHIP)
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "only a flagship can transport");
	int j = a->other;
	if (j == a->ship || map_ship(s, seat, j, NULL))
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "the passenger must be another of your ships "
		                  "on the map");
	if (!qt_sq_surrounding(f->at, s->ship[seat][j].at))
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "the passenger must surround the flagship");
	struct qt_bits free;
	qt_free_bits(s, &free);
	struct lift L;
	lift(s, &free, seat, a->ship, j, n, &L);
	if (!transport_ok(&L, a->to, a->drop) ||
	    (a->type == QT_A_TACTICAL_TRANSPORT && qt_sq_eq(a->to, f->at)))
		return rules_fail(
		    why, BD_EILLEGAL, "§6.2",
		    "the flagship moves up to %d square%s through empty "
		    "space and drops its passenger on an empty "
		    "surrounding square",
		    n, n == 1 ? "" : "s");
	if (use_ability(s, seat, a->ship, ability_mode(s, seat, a->ship),
	                a->cunning, why))
		return BD_EILLEGAL;
	f->at = a->to;
	f->moved = 1;
	/* Being carried is not the passenger's move (rules §6.2). */
	s->ship[seat][j].at = a->drop;
	return 0;
}

static int do_transport(struct qt_state *s, int seat, const struct qt_action *a,
                        struct rules_why *why)
{
	if (may_move(s, seat, a->ship, a->curious, why) ||
	    transport(s, seat, a, movement(s, seat, a->ship), why))
		return BD_EILLEGAL;
	pay_move(s, a->curious);
	return 0;
}

/* ---- TACTICAL (§9.2 #29, §14.1): a free 1-square move, attack or
 * transport that is the ship's move ---- */

static int tactical_ship(const struct qt_state *s, int seat, int i,
                         struct rules_why *why)
{
	if (!qt_power_ready(s, seat, QT_TACTICAL))
		return rules_fail(why, BD_EILLEGAL, "§9.2",
		                  "no TACTICAL move now (once per turn)");
	if (map_ship(s, seat, i, why))
		return BD_EILLEGAL;
	if (!unmoved(s, seat, i))
		return rules_fail(why, BD_EILLEGAL, "§14.1",
		                  "a TACTICAL move is the ship's move: ship %d "
		                  "already moved",
		                  i);
	return 0;
}

/* 0: orthogonal neighbour, 1: diagonal (needs MANEUVER), -1: neither or
 * no MANEUVER available. */
static int tactical_step(const struct qt_state *s, int seat, int i,
                         struct qt_sq to)
{
	struct qt_sq at = s->ship[seat][i].at;
	if (qt_sq_adjacent(at, to))
		return 0;
	if (qt_sq_surrounding(at, to) &&
	    s->ship[seat][i].value == INTERCEPTOR && ability_mode(s, seat, i))
		return 1;
	return -1;
}

static int do_tactical(struct qt_state *s, int seat, const struct qt_action *a,
                       struct rng *rng, struct rules_why *why)
{
	if (tactical_ship(s, seat, a->ship, why))
		return BD_EILLEGAL;
	struct qt_ship *sh = &s->ship[seat][a->ship];
	if (a->type == QT_A_TACTICAL_TRANSPORT) {
		if (transport(s, seat, a, 1, why))
			return BD_EILLEGAL;
		qt_power_use(s, QT_TACTICAL);
		return 0;
	}
	int owner = -1;
	struct qt_sq sq = a->type == QT_A_TACTICAL ? a->to : a->target;
	int k = tactical_step(s, seat, a->ship, sq);
	int ok = a->type == QT_A_TACTICAL
	             ? qt_square_free(s, sq)
	             : qt_ship_at(s, sq, &owner) >= 0 && owner != seat;
	if (k < 0 || !ok)
		return rules_fail(
		    why, BD_EILLEGAL, "§9.2",
		    a->type == QT_A_TACTICAL
		        ? "tactical: one square to an empty square"
		        : "tactical: attack an enemy ship next to "
		          "yours");
	if (a->type == QT_A_TACTICAL_ATTACK && qt_attack_check(s, 0, why))
		return BD_EILLEGAL;
	if (maneuver(s, seat, a->ship, k, a->cunning, why))
		return BD_EILLEGAL;
	qt_power_use(s, QT_TACTICAL);
	sh->moved = 1;
	if (a->type == QT_A_TACTICAL) {
		sh->at = sq;
		return 0;
	}
	qt_attack_pay(s, 0); /* launched from its own square (§14.1) */
	qt_combat(s, seat, a->ship, sq, rng);
	return 0;
}

/* Checks that ship i shows `value` and may use its ability, then marks
 * the use (CUNNING's second use when a->cunning). */
static int ability_ship(struct qt_state *s, int seat, const struct qt_action *a,
                        int value, const char *name, struct rules_why *why)
{
	if (map_ship(s, seat, a->ship, why))
		return BD_EILLEGAL;
	if (s->ship[seat][a->ship].value != value)
		return rules_fail(why, BD_EILLEGAL, "§6.2",
		                  "%s needs a ship showing %d", name, value);
	return use_ability(s, seat, a->ship, ability_mode(s, seat, a->ship),
	                   a->cunning, why);
}

static int do_ability(struct qt_state *s, int seat, const struct qt_action *a,
                      struct rng *rng, struct rules_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	int owner;
	switch (a->type) {
	case QT_A_STRIKE:
		if (map_ship(s, seat, a->ship, why))
			return BD_EILLEGAL;
		if (qt_ship_at(s, a->target, &owner) < 0 || owner == seat ||
		    !qt_sq_adjacent(sh->at, a->target))
			return rules_fail(
			    why, BD_EILLEGAL, "§6.2",
			    "strike hits an orthogonally adjacent "
			    "enemy ship");
		if (qt_attack_check(s, 0, why) ||
		    ability_ship(s, seat, a, BATTLESTATION, "strike", why))
			return BD_EILLEGAL;
		qt_attack_pay(s, 0);
		qt_combat(s, seat, a->ship, a->target, rng);
		return 0;
	case QT_A_WARP:
		if (a->other == a->ship || map_ship(s, seat, a->other, NULL))
			return rules_fail(
			    why, BD_EILLEGAL, "§6.2",
			    "warp swaps with another of your ships "
			    "on the map");
		if (ability_ship(s, seat, a, DESTROYER, "warp", why))
			return BD_EILLEGAL;
		struct qt_sq t = sh->at;
		sh->at = s->ship[seat][a->other].at;
		s->ship[seat][a->other].at = t;
		return 0;
	case QT_A_MODIFY:
		if (a->value != 3 && a->value != 5)
			return rules_fail(why, BD_EILLEGAL, "§6.2",
			                  "modify turns the frigate to 3 or 5");
		if (ability_ship(s, seat, a, FRIGATE, "modify", why))
			return BD_EILLEGAL;
		sh->value = a->value;
		return 0;
	case QT_A_SCOUT:
		if (ability_ship(s, seat, a, SCOUT, "scout", why))
			return BD_EILLEGAL;
		/* rules §6.2: re-roll, and again while it shows 6. */
		qt_ship_roll(s, rng, seat, a->ship, SCOUT);
		return 0;
	}
	return rules_fail(why, BD_EILLEGAL, "§6.2", "no such ability");
}

int qt_move_apply(struct qt_state *s, int seat, const struct qt_action *a,
                  struct rng *rng, struct rules_why *why)
{
	if (a->ship < 0 || a->ship >= QT_SHIPS)
		return rules_fail(why, BD_EILLEGAL, "§5", "no ship %d",
		                  a->ship);
	switch (a->type) {
	case QT_A_MOVE:
		return do_move(s, seat, a, why);
	case QT_A_ATTACK:
		return do_attack(s, seat, a, rng, why);
	case QT_A_TRANSPORT:
		return do_transport(s, seat, a, why);
	case QT_A_TACTICAL:
	case QT_A_TACTICAL_ATTACK:
	case QT_A_TACTICAL_TRANSPORT:
		return do_tactical(s, seat, a, rng, why);
	default:
		return do_ability(s, seat, a, rng, why);
	}
}

/* How a move-like action may be paid now: with an action (paid), with
 * CURIOUS's free move (free_move), both or neither.  Worked out once per
 * listing. */
struct pay {
	int paid, free_move;
};

static struct pay pay_now(const struct qt_state *s, int seat)
{
	return (struct pay){s->actions_left >= 1, qt_curious_ready(s, seat)};
}

/* Emits a move-like action: the paid form, and CURIOUS's free form
 * (§14.1: both are listed). */
static void emit_move(struct pay pay, struct qt_action *a, qt_emit_fn emit,
                      void *ctx)
{
	a->curious = 0;
	if (pay.paid)
		emit(ctx, a);
	if (pay.free_move) {
		a->curious = 1;
		emit(ctx, a);
		a->curious = 0;
	}
}

/* The "cunning" mark of the move of *run to (r, c): reached only by
 * MANEUVER with the ship's ability already used (§14.1 CUNNING). */
static uint8_t run_cunning(const struct qt_moves *run, int r, int c)
{
	return (uint8_t)(!(run->ortho[r] >> c & 1) && run->used);
}

void qt_moves_at(const struct qt_moves *run, unsigned k, struct qt_action *out)
{
	unsigned forms = run->paid + run->free_move; /* >= 1: run->n > 0 */
	unsigned sq = k / forms, form = k % forms;
	*out = run->a;
	out->curious = (uint8_t)(run->paid ? form : 1);
	for (int r = 0; r < run->rows; r++) {
		uint32_t to = run->to[r];
		unsigned here = (unsigned)__builtin_popcount(to);
		if (sq >= here) {
			sq -= here;
			continue;
		}
		while (sq--)
			to &= to - 1;
		int c = __builtin_ctz(to);
		out->to = (struct qt_sq){(int8_t)r, (int8_t)c};
		out->cunning = run_cunning(run, r, c);
		return;
	}
}

/* free: qt_free_bits of s; runs as for qt_move_list. */
static void list_moves(const struct qt_state *s, const struct qt_bits *free,
                       int seat, int i, qt_emit_fn emit, qt_moves_fn runs,
                       void *ctx)
{
	struct moves m;
	moves_of(s, free, seat, i, &m);
	int n = m.n < MAX_STEPS ? m.n : MAX_STEPS;
	struct pay pay = pay_now(s, seat);
	struct qt_moves run = {
	    .a = {.type = QT_A_MOVE, .ship = (int8_t)i},
	    .used = (uint8_t)(s->ship[seat][i].ability_used != 0),
	    .paid = (uint8_t)pay.paid,
	    .free_move = (uint8_t)pay.free_move,
	    .rows = (uint8_t)qt_board_rows(&s->board),
	};
	/* the reachable squares; they are empty by construction; one not
	 * reached orthogonally needs MANEUVER (move_kind) */
	unsigned squares = 0;
	for (int r = 0; r < run.rows; r++) {
		run.ortho[r] = m.o.within[n].row[r];
		run.to[r] = run.ortho[r] | (m.man ? m.x.within[n].row[r] : 0);
		if (r == m.at.r)
			run.to[r] &= ~(1u << m.at.c);
		squares += (unsigned)__builtin_popcount(run.to[r]);
	}
	run.n = squares * (run.paid + run.free_move);
	if (runs) {
		if (run.n)
			runs(ctx, &run);
	} else {
		struct qt_action a = run.a;
		for (int r = 0; r < run.rows; r++)
			for (uint32_t to = run.to[r]; to; to &= to - 1) {
				int c = __builtin_ctz(to);
				a.to = (struct qt_sq){(int8_t)r, (int8_t)c};
				a.cunning = run_cunning(&run, r, c);
				emit_move(pay, &a, emit, ctx);
			}
	}
	if (qt_attack_check(s, 1, NULL))
		return;
	/* attacks: around every enemy ship, every launch square */
	int used = run.used;
	struct qt_action a = {.type = QT_A_ATTACK, .ship = (int8_t)i};
	for (int p = 0; p < s->seats; p++)
		for (int e = 0; p != seat && e < QT_SHIPS; e++) {
			if (s->ship[p][e].where != QT_MAP)
				continue;
			a.target = s->ship[p][e].at;
			/* a launch square within n-1 steps, or the ship's
			 * own, is at most n squares from the target in any
			 * direction */
			if (abs(a.target.r - m.at.r) > m.n ||
			    abs(a.target.c - m.at.c) > m.n)
				continue;
			for (int k = 0; k < 8; k++) {
				a.from = (struct qt_sq){
				    (int8_t)(a.target.r - dir8[k][0]),
				    (int8_t)(a.target.c - dir8[k][1])};
				if (!qt_sq_eq(a.from, m.at) &&
				    !qt_bits_has(free, a.from))
					continue;
				/* a.target holds an enemy ship */
				int kind = attack_reach(&m, a.from, a.target);
				a.cunning = kind == 1 && used;
				if (kind >= 0)
					emit(ctx, &a);
			}
		}
}

/* Every TRANSPORT of flagship i with n movement points; free:
 * qt_free_bits of s. */
static void list_transports(const struct qt_state *s,
                            const struct qt_bits *free, int seat, int i, int n,
                            struct qt_action *a, qt_emit_fn emit, void *ctx)
{
	const struct qt_ship *f = &s->ship[seat][i];
	int mode = ability_mode(s, seat, i);
	if (f->value != FLAGSHIP || !mode)
		return;
	a->ship = (int8_t)i;
	a->cunning = mode == 2;
	int steps = n < MAX_STEPS ? n : MAX_STEPS;
	struct pay pay = pay_now(s, seat);
	for (int j = 0; j < QT_SHIPS; j++) {
		const struct qt_ship *p = &s->ship[seat][j];
		if (j == i || p->where != QT_MAP ||
		    !qt_sq_surrounding(f->at, p->at))
			continue;
		struct lift L;
		lift(s, free, seat, i, j, n, &L);
		a->other = (int8_t)j;
		/* every square the flagship reaches (its own included, for
		 * out and back) in row-major order */
		for (int r = 0; r < QT_MAX_ROWS; r++)
			for (uint32_t to = L.R.within[steps].row[r]; to;
			     to &= to - 1) {
				a->to = (struct qt_sq){
				    (int8_t)r, (int8_t)__builtin_ctz(to)};
				if (a->type == QT_A_TACTICAL_TRANSPORT &&
				    qt_sq_eq(a->to, f->at))
					continue;
				for (int k = 0; k < 8; k++) {
					a->drop = (struct qt_sq){
					    (int8_t)(a->to.r + dir8[k][0]),
					    (int8_t)(a->to.c + dir8[k][1])};
					if (!transport_ok(&L, a->to, a->drop))
						continue;
					if (a->type == QT_A_TRANSPORT)
						emit_move(pay, a, emit, ctx);
					else
						emit(ctx, a);
				}
			}
	}
}

static void list_abilities(const struct qt_state *s, int seat, int i,
                           qt_emit_fn emit, void *ctx)
{
	const struct qt_ship *sh = &s->ship[seat][i];
	int mode = ability_mode(s, seat, i);
	if (!mode)
		return;
	struct qt_action a = {.ship = (int8_t)i, .cunning = mode == 2};
	switch (sh->value) {
	case BATTLESTATION:
		if (qt_attack_check(s, 0, NULL))
			return;
		a.type = QT_A_STRIKE;
		for (int k = 0; k < 4; k++) {
			a.target =
			    (struct qt_sq){(int8_t)(sh->at.r + dir8[k][0]),
			                   (int8_t)(sh->at.c + dir8[k][1])};
			int owner;
			if (qt_ship_at(s, a.target, &owner) >= 0 &&
			    owner != seat)
				emit(ctx, &a);
		}
		return;
	case DESTROYER:
		a.type = QT_A_WARP;
		for (int j = 0; j < QT_SHIPS; j++)
			if (j != i && s->ship[seat][j].where == QT_MAP) {
				a.other = (int8_t)j;
				emit(ctx, &a);
			}
		return;
	case FRIGATE:
		a.type = QT_A_MODIFY;
		a.value = 3;
		emit(ctx, &a);
		a.value = 5;
		emit(ctx, &a);
		return;
	case SCOUT:
		a.type = QT_A_SCOUT;
		emit(ctx, &a);
		return;
	}
}

static void list_tactical(const struct qt_state *s, const struct qt_bits *free,
                          int seat, int i, qt_emit_fn emit, void *ctx)
{
	if (tactical_ship(s, seat, i, NULL))
		return;
	struct qt_sq at = s->ship[seat][i].at;
	int used = s->ship[seat][i].ability_used;
	int attack = qt_attack_check(s, 0, NULL) == 0;
	for (int k = 0; k < 8; k++) {
		struct qt_sq sq = {(int8_t)(at.r + dir8[k][0]),
		                   (int8_t)(at.c + dir8[k][1])};
		int step = tactical_step(s, seat, i, sq), owner = -1;
		if (step < 0)
			continue;
		struct qt_action a = {.ship = (int8_t)i,
		                      .cunning = step == 1 && used};
		if (qt_square_free(s, sq)) {
			a.type = QT_A_TACTICAL;
			a.to = sq;
			emit(ctx, &a);
		} else if (attack && qt_ship_at(s, sq, &owner) >= 0 &&
		           owner != seat) {
			a.type = QT_A_TACTICAL_ATTACK;
			a.target = sq;
			emit(ctx, &a);
		}
	}
	struct qt_action t = {.type = QT_A_TACTICAL_TRANSPORT};
	list_transports(s, free, seat, i, 1, &t, emit, ctx);
}

void qt_move_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                  qt_moves_fn runs, void *ctx)
{
	struct qt_bits free;
	qt_free_bits(s, &free);
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where != QT_MAP)
			continue;
		if (unmoved(s, seat, i)) {
			list_moves(s, &free, seat, i, emit, runs, ctx);
			struct qt_action t = {.type = QT_A_TRANSPORT};
			list_transports(s, &free, seat, i, movement(s, seat, i),
			                &t, emit, ctx);
			list_tactical(s, &free, seat, i, emit, ctx);
		}
		list_abilities(s, seat, i, emit, ctx);
	}
}
