/* qt_move.c: ship movement and ship abilities: move, move/attack,
 * TRANSPORT, MANEUVER (rules §5, §6.2) and the free abilities STRIKE, WARP,
 * MODIFY and SCOUT (rules §6.2). */
#include <string.h>

#include "qt.h"

#define FAR 0xff /* unreachable */

enum { BATTLESTATION = 1, FLAGSHIP, DESTROYER, FRIGATE, INTERCEPTOR, SCOUT };

/* Step distances from one square through empty squares. */
struct reach {
	uint8_t d[QT_MAX_ROWS][QT_MAX_COLS]; /* steps, FAR if unreachable */
};

static const int8_t dir8[8][2] = {{-1, 0},  {1, 0},  {0, -1}, {0, 1},
                                  {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

/* Breadth-first distances from `from` over free squares, with 4 or 8
 * directions.  Rules §6.2 MANEUVER: only the destination of a diagonal
 * step must be empty (corner squeeze allowed, §14). */
static void reach(const struct qt_state *s, struct qt_sq from, int ndir,
                  struct reach *R)
{
	/* occupied squares first: one pass over the ships */
	uint8_t busy[QT_MAX_ROWS][QT_MAX_COLS] = {{0}};
	for (int p = 0; p < s->seats; p++)
		for (int i = 0; i < QT_SHIPS; i++)
			if (s->ship[p][i].where == QT_MAP)
				busy[s->ship[p][i].at.r][s->ship[p][i].at.c] =
				    1;
	memset(R->d, FAR, sizeof R->d);
	struct qt_sq q[QT_MAX_ROWS * QT_MAX_COLS];
	int head = 0, tail = 0;
	R->d[from.r][from.c] = 0;
	q[tail++] = from;
	while (head < tail) {
		struct qt_sq cur = q[head++];
		int dist = R->d[cur.r][cur.c];
		if (dist >= 7)
			continue; /* no ship moves further than 6 */
		for (int k = 0; k < ndir; k++) {
			struct qt_sq n = {(int8_t)(cur.r + dir8[k][0]),
			                  (int8_t)(cur.c + dir8[k][1])};
			if (!qt_board_open(&s->board, n.r, n.c) ||
			    busy[n.r][n.c] || R->d[n.r][n.c] != FAR)
				continue;
			R->d[n.r][n.c] = (uint8_t)(dist + 1);
			q[tail++] = n;
		}
	}
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

static void moves_of(const struct qt_state *s, int seat, int i, struct moves *m)
{
	const struct qt_ship *sh = &s->ship[seat][i];
	m->at = sh->at;
	m->n = sh->value;
	m->man = sh->value == INTERCEPTOR && !sh->ability_used;
	reach(s, sh->at, 4, &m->o);
	if (m->man)
		reach(s, sh->at, 8, &m->x);
}

/* rules §5 Move: 0 plain, 1 needs MANEUVER (§14: only when no orthogonal
 * path reaches it), -1 unreachable. */
static int move_kind(const struct moves *m, struct qt_sq to)
{
	if (qt_sq_eq(to, m->at) || to.r < 0 || to.c < 0 ||
	    to.r >= QT_MAX_ROWS || to.c >= QT_MAX_COLS)
		return -1;
	if (m->o.d[to.r][to.c] <= m->n)
		return 0;
	if (m->man && m->x.d[to.r][to.c] <= m->n)
		return 1;
	return -1;
}

/* rules §5 Attack: launched from `from` (reached with at most n-1 steps,
 * or the ship's own square), the attacking step costs 1 point. */
static int attack_kind(const struct qt_state *s, int seat,
                       const struct moves *m, struct qt_sq from,
                       struct qt_sq target)
{
	int owner;
	if (qt_ship_at(s, target, &owner) < 0 || owner == seat)
		return -1;
	if (from.r < 0 || from.c < 0 || from.r >= QT_MAX_ROWS ||
	    from.c >= QT_MAX_COLS)
		return -1;
	int home = qt_sq_eq(from, m->at);
	if ((home || m->o.d[from.r][from.c] <= m->n - 1) &&
	    qt_sq_adjacent(from, target))
		return 0;
	if (m->man && (home || m->x.d[from.r][from.c] <= m->n - 1) &&
	    qt_sq_surrounding(from, target))
		return 1;
	return -1;
}

static int map_ship(const struct qt_state *s, int seat, int i,
                    struct qt_why *why)
{
	if (i < 0 || i >= QT_SHIPS)
		return qt_fail(why, BD_EILLEGAL, "§5", "no ship %d", i);
	if (s->ship[seat][i].where != QT_MAP)
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "ship %d is not on the map", i);
	return 0;
}

static int may_move(const struct qt_state *s, int seat, int i,
                    struct qt_why *why)
{
	if (map_ship(s, seat, i, why))
		return BD_EILLEGAL;
	if (s->actions_left < 1)
		return qt_fail(why, BD_EILLEGAL, "§4", "no actions left");
	if (s->ship[seat][i].moved)
		return qt_fail(why, BD_EILLEGAL, "§4",
		               "ship %d already moved this turn", i);
	return 0;
}

static int do_move(struct qt_state *s, int seat, const struct qt_action *a,
                   struct qt_why *why)
{
	if (may_move(s, seat, a->ship, why))
		return BD_EILLEGAL;
	struct moves m;
	moves_of(s, seat, a->ship, &m);
	int k = qt_square_free(s, a->to) ? move_kind(&m, a->to) : -1;
	if (k < 0)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "ship %d cannot reach (%d,%d) with %d "
		               "orthogonal steps through empty squares",
		               a->ship, a->to.r, a->to.c, m.n);
	struct qt_ship *sh = &s->ship[seat][a->ship];
	sh->at = a->to;
	sh->moved = 1;
	if (k == 1)
		sh->ability_used = 1; /* rules §6.2 MANEUVER */
	s->actions_left--;
	return 0;
}

static int do_attack(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rng *rng, struct qt_why *why)
{
	if (may_move(s, seat, a->ship, why))
		return BD_EILLEGAL;
	struct moves m;
	moves_of(s, seat, a->ship, &m);
	int home = qt_sq_eq(a->from, m.at);
	if (!home && !qt_square_free(s, a->from))
		return qt_fail(why, BD_EILLEGAL, "§6.1",
		               "the attack square must be empty");
	int k = attack_kind(s, seat, &m, a->from, a->target);
	if (k < 0)
		return qt_fail(why, BD_EILLEGAL, "§5",
		               "ship %d cannot attack (%d,%d) from (%d,%d)",
		               a->ship, a->target.r, a->target.c, a->from.r,
		               a->from.c);
	struct qt_ship *sh = &s->ship[seat][a->ship];
	sh->at = a->from;
	sh->moved = 1;
	if (k == 1)
		sh->ability_used = 1; /* rules §6.2 MANEUVER */
	s->actions_left--;
	qt_combat(s, seat, a->ship, a->target, rng);
	return 0;
}

static int free_neighbour(const struct qt_state *s, struct qt_sq sq)
{
	for (int k = 0; k < 4; k++)
		if (qt_square_free(s,
		                   (struct qt_sq){(int8_t)(sq.r + dir8[k][0]),
		                                  (int8_t)(sq.c + dir8[k][1])}))
			return 1;
	return 0;
}

/* TRANSPORT geometry: a scratch copy with the passenger lifted off (its
 * square is empty) and the flagship's distances on it. */
struct lift {
	struct qt_state t;
	struct reach R;
	struct qt_sq home; /* the flagship's square */
	int n;             /* the flagship's movement points */
	int i;             /* the flagship */
	int seat;
};

static void lift(const struct qt_state *s, int seat, int i, int j,
                 struct lift *L)
{
	L->t = *s;
	L->t.ship[seat][j].where = QT_SCRAPYARD;
	L->home = s->ship[seat][i].at;
	L->n = s->ship[seat][i].value;
	L->i = i;
	L->seat = seat;
	reach(&L->t, L->home, 4, &L->R);
}

/* 1 if the flagship may fly to `to` and drop the passenger at `drop`. */
static int transport_ok(struct lift *L, struct qt_sq to, struct qt_sq drop)
{
	if (to.r < 0 || to.c < 0 || to.r >= QT_MAX_ROWS || to.c >= QT_MAX_COLS)
		return 0;
	if (qt_sq_eq(to, L->home)) {
		/* rules §6.2: out and back needs 2 points and a free
		 * neighbour (designer, BGG 1074052). */
		if (L->n < 2 || !free_neighbour(&L->t, to))
			return 0;
	} else if (!qt_square_free(&L->t, to) || L->R.d[to.r][to.c] > L->n) {
		return 0;
	}
	if (!qt_sq_surrounding(to, drop))
		return 0;
	struct qt_ship *f = &L->t.ship[L->seat][L->i];
	f->at = to;
	int ok = qt_square_free(&L->t, drop);
	f->at = L->home;
	return ok;
}

static int do_transport(struct qt_state *s, int seat, const struct qt_action *a,
                        struct qt_why *why)
{
	if (may_move(s, seat, a->ship, why))
		return BD_EILLEGAL;
	struct qt_ship *f = &s->ship[seat][a->ship];
	if (f->value != FLAGSHIP || f->ability_used)
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "only a flagship that has not used its ability "
		               "this turn can transport");
	int j = a->other;
	if (j == a->ship || map_ship(s, seat, j, NULL))
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "the passenger must be another of your ships "
		               "on the map");
	if (!qt_sq_surrounding(f->at, s->ship[seat][j].at))
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "the passenger must surround the flagship");
	struct lift L;
	lift(s, seat, a->ship, j, &L);
	if (!transport_ok(&L, a->to, a->drop))
		return qt_fail(
		    why, BD_EILLEGAL, "§6.2",
		    "the flagship moves 1 or 2 squares through empty "
		    "space and drops its passenger on an empty "
		    "surrounding square");
	f->at = a->to;
	f->moved = 1;
	f->ability_used = 1;
	/* Being carried is not the passenger's move (rules §6.2). */
	s->ship[seat][j].at = a->drop;
	s->actions_left--;
	return 0;
}

static int ability_ship(const struct qt_state *s, int seat, int i, int value,
                        const char *name, struct qt_why *why)
{
	if (map_ship(s, seat, i, why))
		return BD_EILLEGAL;
	const struct qt_ship *sh = &s->ship[seat][i];
	if (sh->value != value)
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "%s needs a ship showing %d", name, value);
	if (sh->ability_used)
		return qt_fail(why, BD_EILLEGAL, "§6.2",
		               "ship %d already used its ability this turn", i);
	return 0;
}

static int do_ability(struct qt_state *s, int seat, const struct qt_action *a,
                      struct rng *rng, struct qt_why *why)
{
	struct qt_ship *sh = &s->ship[seat][a->ship];
	int owner;
	switch (a->type) {
	case QT_A_STRIKE:
		if (ability_ship(s, seat, a->ship, BATTLESTATION, "strike",
		                 why))
			return BD_EILLEGAL;
		if (qt_ship_at(s, a->target, &owner) < 0 || owner == seat ||
		    !qt_sq_adjacent(sh->at, a->target))
			return qt_fail(why, BD_EILLEGAL, "§6.2",
			               "strike hits an orthogonally adjacent "
			               "enemy ship");
		sh->ability_used = 1;
		qt_combat(s, seat, a->ship, a->target, rng);
		return 0;
	case QT_A_WARP:
		if (ability_ship(s, seat, a->ship, DESTROYER, "warp", why))
			return BD_EILLEGAL;
		if (a->other == a->ship || map_ship(s, seat, a->other, NULL))
			return qt_fail(why, BD_EILLEGAL, "§6.2",
			               "warp swaps with another of your ships "
			               "on the map");
		struct qt_sq t = sh->at;
		sh->at = s->ship[seat][a->other].at;
		s->ship[seat][a->other].at = t;
		sh->ability_used = 1;
		return 0;
	case QT_A_MODIFY:
		if (ability_ship(s, seat, a->ship, FRIGATE, "modify", why))
			return BD_EILLEGAL;
		if (a->value != 3 && a->value != 5)
			return qt_fail(why, BD_EILLEGAL, "§6.2",
			               "modify turns the frigate to 3 or 5");
		sh->value = a->value;
		sh->ability_used = 1;
		return 0;
	case QT_A_SCOUT:
		if (ability_ship(s, seat, a->ship, SCOUT, "scout", why))
			return BD_EILLEGAL;
		/* rules §6.2: re-roll, and again while it shows 6. */
		sh->value = (uint8_t)qt_reroll_ship(s, rng, SCOUT);
		sh->ability_used = 1;
		return 0;
	}
	return qt_fail(why, BD_EILLEGAL, "§6.2", "no such ability");
}

int qt_move_apply(struct qt_state *s, int seat, const struct qt_action *a,
                  struct rng *rng, struct qt_why *why)
{
	if (a->ship < 0 || a->ship >= QT_SHIPS)
		return qt_fail(why, BD_EILLEGAL, "§5", "no ship %d", a->ship);
	switch (a->type) {
	case QT_A_MOVE:
		return do_move(s, seat, a, why);
	case QT_A_ATTACK:
		return do_attack(s, seat, a, rng, why);
	case QT_A_TRANSPORT:
		return do_transport(s, seat, a, why);
	default:
		return do_ability(s, seat, a, rng, why);
	}
}

static void list_moves(const struct qt_state *s, int seat, int i,
                       qt_emit_fn emit, void *ctx)
{
	struct moves m;
	moves_of(s, seat, i, &m);
	int rows = qt_board_rows(&s->board), cols = qt_board_cols(&s->board);
	struct qt_action a = {.type = QT_A_MOVE, .ship = (int8_t)i};
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			a.to = (struct qt_sq){(int8_t)r, (int8_t)c};
			/* reachable squares are empty by construction */
			if (move_kind(&m, a.to) >= 0)
				emit(ctx, &a);
		}
	/* attacks: around every enemy ship, every launch square */
	a.type = QT_A_ATTACK;
	for (int p = 0; p < s->seats; p++)
		for (int e = 0; p != seat && e < QT_SHIPS; e++) {
			if (s->ship[p][e].where != QT_MAP)
				continue;
			a.target = s->ship[p][e].at;
			for (int k = 0; k < 8; k++) {
				a.from = (struct qt_sq){
				    (int8_t)(a.target.r - dir8[k][0]),
				    (int8_t)(a.target.c - dir8[k][1])};
				if ((qt_sq_eq(a.from, m.at) ||
				     qt_square_free(s, a.from)) &&
				    attack_kind(s, seat, &m, a.from,
				                a.target) >= 0)
					emit(ctx, &a);
			}
		}
}

static void list_transports(const struct qt_state *s, int seat, int i,
                            qt_emit_fn emit, void *ctx)
{
	const struct qt_ship *f = &s->ship[seat][i];
	if (f->value != FLAGSHIP || f->ability_used)
		return;
	for (int j = 0; j < QT_SHIPS; j++) {
		const struct qt_ship *p = &s->ship[seat][j];
		if (j == i || p->where != QT_MAP ||
		    !qt_sq_surrounding(f->at, p->at))
			continue;
		struct lift L;
		lift(s, seat, i, j, &L);
		for (int dr = -2; dr <= 2; dr++)
			for (int dc = -2; dc <= 2; dc++) {
				struct qt_sq to = {(int8_t)(f->at.r + dr),
				                   (int8_t)(f->at.c + dc)};
				for (int k = 0; k < 8; k++) {
					struct qt_sq d = {
					    (int8_t)(to.r + dir8[k][0]),
					    (int8_t)(to.c + dir8[k][1])};
					if (transport_ok(&L, to, d))
						emit(ctx,
						     &(struct qt_action){
						         .type = QT_A_TRANSPORT,
						         .ship = (int8_t)i,
						         .other = (int8_t)j,
						         .to = to,
						         .drop = d});
				}
			}
	}
}

static void list_abilities(const struct qt_state *s, int seat, int i,
                           qt_emit_fn emit, void *ctx)
{
	const struct qt_ship *sh = &s->ship[seat][i];
	if (sh->ability_used)
		return;
	struct qt_action a = {.ship = (int8_t)i};
	switch (sh->value) {
	case BATTLESTATION:
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

void qt_move_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                  void *ctx)
{
	for (int i = 0; i < QT_SHIPS; i++) {
		const struct qt_ship *sh = &s->ship[seat][i];
		if (sh->where != QT_MAP)
			continue;
		if (s->actions_left >= 1 && !sh->moved) {
			list_moves(s, seat, i, emit, ctx);
			list_transports(s, seat, i, emit, ctx);
		}
		list_abilities(s, seat, i, emit, ctx);
	}
}
