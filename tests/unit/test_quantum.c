/* test_quantum.c: Quantum rules scenarios (rules §12) and seeded random
 * games, uniform and with card-biased players (command-card powers and
 * decisions, §9.2, §14.1), driven through engine_game_new /
 * engine_game_apply.  The scenarios that the view and the listed actions
 * show are data files, tests/cases/quantum/core-*.json, run by
 * tests/unit/test_cases.c (tests/cases/README.md); the ones here read
 * the state's own fields, set it directly or build setups with printf. */
#include "qt_testhelp.h"
#include "testhelp.h"

/* ---- helpers ---- */

/* Setup error code of a custom setup (0 if accepted). */
static int setup_rc(int seats, const char *options, const char *setup)
{
	json_t *o = options ? parse(options) : NULL;
	json_t *s = setup ? parse(setup) : NULL;
	struct engine_game *g = NULL;
	memset(&last_why, 0, sizeof last_why);
	int rc = engine_game_new(&qt_rules, seats, o, s, 1, &g, &last_why);
	json_decref(o);
	json_decref(s);
	engine_game_free(g);
	return rc;
}

/* ---- seeded random games ---- */

#ifndef QT_TEST_CHECK_ALL
#define QT_TEST_CHECK_ALL 1
#endif
#ifndef QT_TEST_GAMES_PER_MAP
#define QT_TEST_GAMES_PER_MAP 20
#endif

/* Invariants of any reachable state. */
static int sane(const struct qt_state *s)
{
	const struct qt_map *m = qt_map_get(s->map);
	for (int p = 0; p < s->seats; p++) {
		int placed = 0;
		for (int q = 0; q < s->board.nplanets; q++)
			placed += qt_cubes_of(s, p, q);
		if (placed + s->cubes_left[p] != m->cubes)
			return 0;
		if (s->dominance[p] < 1 || s->dominance[p] > 6 ||
		    s->research[p] < 1 || s->research[p] > 6)
			return 0;
		for (int i = 0; i < QT_SHIPS; i++) {
			const struct qt_ship *sh = &s->ship[p][i];
			if (sh->where != QT_MAP)
				continue;
			int owner;
			if (!qt_board_open(&s->board, sh->at.r, sh->at.c) ||
			    qt_ship_at(s, sh->at, &owner) != i || owner != p)
				return 0;
		}
	}
	for (int q = 0; q < s->board.nplanets; q++)
		for (int k = s->board.planet[q].number - 6; k < 4; k++)
			if (s->cube[q][k] >= 0)
				return 0;
	return 1;
}

struct rstats {
	int games, ended, stalled, bad_listed, insane, bad_end, steps;
	int checked;
	long nth_checked, nth_bad; /* qt_nth_action against the list */
};

/* ---- qt_nth_action (struct rules' pick) against qt_list_actions ---- */

#define NTH_LIST_MAX 4096 /* more listed actions than any position has */

struct native_list {
	struct qt_action v[NTH_LIST_MAX];
	size_t n;
};

static void collect(void *ctx, const struct qt_action *a)
{
	struct native_list *l = ctx;
	if (l->n < NTH_LIST_MAX)
		l->v[l->n] = *a;
	l->n++;
}

/* Checks qt_nth_action for seat in s: the count of the list, and the
 * action bytes of index k for every k (all set) or for two indices
 * derived from `salt` (no generator: the games stay those of the seeds),
 * as qt_pick_action keeps the actions (QT_PICK_KEEP) and keeping only 2
 * (most found again by relisting).  Adds the indices checked to *checked
 * and those that differ to *bad. */
static void check_nth(const struct qt_state *s, int seat, int all,
                      unsigned salt, long *checked, long *bad)
{
	static struct native_list l;
	l.n = 0;
	qt_list_actions(s, seat, collect, &l);
	struct qt_action got;
	size_t n = qt_nth_action(s, seat, SIZE_MAX, QT_PICK_KEEP, &got);
	(*checked)++;
	if (n != l.n || l.n > NTH_LIST_MAX) {
		(*bad)++;
		return;
	}
	size_t two[2] = {salt % (n ? n : 1),
	                 (salt * 2654435761u) % (n ? n : 1)};
	for (size_t i = 0; i < (all ? n : n ? 2 : 0); i++) {
		size_t k = all ? i : two[i];
		for (int keep = 2; keep <= QT_PICK_KEEP;
		     keep = keep == 2 ? QT_PICK_KEEP : keep + 1) {
			memset(&got, 0xa5, sizeof got);
			(*checked)++;
			if (qt_nth_action(s, seat, k, (size_t)keep, &got) !=
			        n ||
			    memcmp(&got, &l.v[k], sizeof got) != 0)
				(*bad)++;
		}
	}
}

/* Picks a random seat among to_act (several in the re-roll step). */
static int pick_seat(unsigned to_act, struct rng *r)
{
	int seats[QT_MAX_SEATS], n = 0;
	for (int p = 0; p < QT_MAX_SEATS; p++)
		if (to_act >> p & 1)
			seats[n++] = p;
	return seats[rng_below(r, (uint32_t)n)];
}

/* Applies every listed action to a copy: all must be accepted. */
static void check_all_listed(struct engine_game *g, int seat, json_t *all,
                             struct rstats *st_)
{
	size_t i;
	json_t *a;
	json_array_foreach(all, i, a) {
		struct engine_game *c = engine_game_clone(g);
		struct rules_why why;
		int rc = engine_game_apply(c, seat, a, &why);
		if (rc) {
			char *t = json_dumps(a, JSON_COMPACT);
			fprintf(stderr, "listed action refused: %s: %s %s\n", t,
			        why.rule, why.detail);
			free(t);
			st_->bad_listed++;
		}
		st_->checked++;
		engine_game_free(c);
	}
}

static void random_game(int seats, const char *map, uint64_t seed,
                        int check_all, struct rstats *rs)
{
	char opts[160];
	snprintf(opts, sizeof opts, "{\"map\":\"%s\"}", map);
	struct engine_game *g = game(seats, opts, NULL, seed);
	if (!g) {
		fprintf(stderr, "map %s: %s\n", map, last_why.detail);
		rs->insane++;
		return;
	}
	struct rng r;
	rng_seed(&r, seed ^ 0x5eed);
	rs->games++;
	int turns = 0, last_type_cube = 0, start = rs->steps;
	struct rules_result res;
	while (!engine_game_result(g, &res)) {
		unsigned ta = engine_game_to_act(g);
		if (!ta) {
			rs->insane++;
			break;
		}
		int seat = pick_seat(ta, &r);
		json_t *all = engine_game_actions(g, seat);
		size_t n = json_array_size(all);
		if (n == 0) {
			fprintf(stderr, "seat %d to act with no action\n",
			        seat);
			rs->insane++;
			json_decref(all);
			break;
		}
		/* every listed action for the first 400 steps of a map's first
		 * game, then a sample of two per step */
		if (check_all && rs->steps - start < 400) {
			check_all_listed(g, seat, all, rs);
			check_nth(st(g), seat, 1, 0, &rs->nth_checked,
			          &rs->nth_bad);
		} else {
			check_nth(st(g), seat, 0, (unsigned)rs->steps,
			          &rs->nth_checked, &rs->nth_bad);
			/* a sample: two listed actions per step */
			json_t *few = json_array();
			for (int k = 0; k < 2; k++)
				json_array_append(
				    few, json_array_get(
				             all, rng_below(&r, (uint32_t)n)));
			check_all_listed(g, seat, few, rs);
			json_decref(few);
		}
		json_t *a = json_array_get(all, rng_below(&r, (uint32_t)n));
		const char *type =
		    json_string_value(json_object_get(a, "type"));
		last_type_cube =
		    !strcmp(type, "construct") || !strcmp(type, "infamy");
		turns += !strcmp(type, "end_turn");
		struct rules_why why;
		if (engine_game_apply(g, seat, a, &why)) {
			char *t = json_dumps(a, JSON_COMPACT);
			fprintf(stderr, "chosen action refused: %s: %s %s\n", t,
			        why.rule, why.detail);
			free(t);
			rs->bad_listed++;
			json_decref(all);
			break;
		}
		json_decref(all);
		rs->steps++;
		if (!sane(st(g))) {
			rs->insane++;
			break;
		}
		if (getenv("QT_TRACE") && rs->steps % 1000 == 0)
			fprintf(stderr,
			        "step %d turn %d cubes %d %d dom %d %d\n",
			        rs->steps, turns, st(g)->cubes_left[0],
			        st(g)->cubes_left[1], st(g)->dominance[0],
			        st(g)->dominance[1]);
		if (turns > 4000) {
			rs->stalled++;
			fprintf(stderr, "stalled: %d seats, %s, seed %llu\n",
			        seats, map, (unsigned long long)seed);
			break;
		}
	}
	if (engine_game_result(g, &res)) {
		rs->ended++;
		int w = st(g)->winner;
		if (!last_type_cube || strcmp(res.reason, "last_cube") ||
		    res.winners != 1u << w || st(g)->cubes_left[w] != 0)
			rs->bad_end++;
	}
	engine_game_free(g);
}

static void test_random_games(void)
{
	static const struct {
		int seats;
		const char *map;
	} maps[] = {
	    {2, "Alpha sector - Basic map"}, {2, "Tactics - Add-on pack"},
	    {2, "Axiomatic - The Void"},     {2, "Blocus - Add-on pack"},
	    {3, "Beta sector - Basic map"},  {3, "Pivot point - The Void"},
	    {3, "Invaders - Add-on pack"},   {3, "Crux"},
	    {4, "Gamma sector - Basic map"}, {4, "Eden - Add-on pack"},
	    {4, "Supercollider - The Void"}, {4, "Everything (huge)"},
	};
	struct rstats rs = {0};
	int per_map = QT_TEST_GAMES_PER_MAP;
	for (int k = 0; k < (int)(sizeof maps / sizeof maps[0]); k++)
		for (int i = 0; i < per_map; i++)
			random_game(maps[k].seats, maps[k].map,
			            (uint64_t)(1000 * k + i),
			            i < QT_TEST_CHECK_ALL, &rs);
	printf("random games: %d played, %d ended, %d stalled, %d steps, "
	       "%d listed actions applied to copies\n",
	       rs.games, rs.ended, rs.stalled, rs.steps, rs.checked);
	test_cond("random: every listed action accepted", rs.bad_listed == 0);
	test_cond("random: states stay sane", rs.insane == 0);
	test_cond("random: games end only by a last cube", rs.bad_end == 0);
	test_cond("random: no game stalls", rs.stalled == 0);
	test_cond("random: all games ended", rs.ended == rs.games);
	printf("random games: qt_nth_action checked %ld times\n",
	       rs.nth_checked);
	test_cond("random: qt_nth_action is the listed action at every index",
	          rs.nth_checked > 0 && rs.nth_bad == 0);
}

/* ---- seeded random games with card-biased players ----
 *
 * The players of this sweep hold and use command cards as much as they
 * can: in Phase 2 they mostly take command cards (the rarest powers
 * first); in Phase 1 they prefer card powers (CEREBRAL, TYRANNICAL,
 * FLEXIBLE, RESOURCEFUL, NOMADIC, TACTICAL, any action flagged "cunning",
 * "curious" or "diagonals"), attacks, research and construct, and a
 * builder's look-ahead prefers moves that make a planet's sum fit.
 * Decisions are answered at random.  Games on 9 maps (2, 3 and 4 seats),
 * with the default printings and with curious "addon" / "first-printing"
 * and strategic "first-printing".
 *
 * At every step: exactly the seats in to_act have actions; with a
 * decision pending only decision[0]'s seat acts, view.pending[0] and
 * view.to_act say so, and only its answers are listed; a card decision is
 * asked of a holder of its card (see card_invariants()); every decision
 * answer and card-phase choice, one action of each form in Phase 1 (every
 * card power form, attack, construct...) and two more at random are
 * accepted on a copy.  Every card power form and every decision kind must
 * occur in the sweep; the summary line counts each type applied. */

#ifndef QT_TEST_CARD_GAMES
#define QT_TEST_CARD_GAMES 2 /* per map and option set */
#endif
#define CARD_STEP_CAP 30000 /* a game still running then has stalled */

struct tally {
	char name[32];
	int n;
};

struct cstats {
	int games, ended, stalled, steps, checked, problems;
	int ntallies;
	struct tally t[96];
	struct engine_game *scratch; /* a copy to try actions on */
	long nth_checked, nth_bad;   /* qt_nth_action against the list */
};

static void tally(struct cstats *cs, const char *name)
{
	for (int k = 0; k < cs->ntallies; k++)
		if (strcmp(cs->t[k].name, name) == 0) {
			cs->t[k].n++;
			return;
		}
	if (cs->ntallies < (int)(sizeof cs->t / sizeof cs->t[0])) {
		snprintf(cs->t[cs->ntallies].name, sizeof cs->t[0].name, "%s",
		         name);
		cs->t[cs->ntallies++].n = 1;
	}
}

static int tallied(const struct cstats *cs, const char *name)
{
	for (int k = 0; k < cs->ntallies; k++)
		if (strcmp(cs->t[k].name, name) == 0)
			return cs->t[k].n;
	return 0;
}

/* The name a decision kind has in view.pending (qt_json.c); SCRAPPY on a
 * ship roll is told apart from SCRAPPY in combat. */
static const char *const dec_names[] = {
    [QT_DEC_ADVANCE] = "advance",
    [QT_DEC_INFAMY] = "infamy",
    [QT_DEC_DISCARD] = "discard_command",
    [QT_DEC_SABOTAGE] = "sabotage",
    [QT_DEC_PLACE_SHIP] = "place_ship",
    [QT_DEC_REORGANIZE] = "reorganize",
    [QT_DEC_RELOCATE] = "relocate",
    [QT_DEC_DANGEROUS] = "dangerous",
    [QT_DEC_CRUEL] = "cruel",
    [QT_DEC_RELENTLESS] = "relentless",
    [QT_DEC_SCRAPPY] = "scrappy",
    [QT_DEC_SCRAPPY_SHIP] = "scrappy",
    [QT_DEC_CLEVER] = "clever",
};

/* The action types that answer a decision kind. */
static int answers_kind(int kind, const char *type)
{
	static const char *const ans[] = {
	    [QT_DEC_ADVANCE] = "advance stay",
	    [QT_DEC_INFAMY] = "infamy",
	    [QT_DEC_DISCARD] = "discard_command",
	    [QT_DEC_SABOTAGE] = "discard_command",
	    [QT_DEC_PLACE_SHIP] = "place_ship",
	    [QT_DEC_REORGANIZE] = "reorganize",
	    [QT_DEC_RELOCATE] = "relocate",
	    [QT_DEC_DANGEROUS] = "dangerous",
	    [QT_DEC_CRUEL] = "cruel",
	    [QT_DEC_RELENTLESS] = "relentless",
	    [QT_DEC_SCRAPPY] = "scrappy",
	    [QT_DEC_SCRAPPY_SHIP] = "scrappy",
	    [QT_DEC_CLEVER] = "clever",
	};
	const char *p = ans[kind];
	size_t n = strlen(type);
	while ((p = strstr(p, type)) != NULL) {
		if (p[n] == ' ' || p[n] == '\0')
			return 1;
		p += n;
	}
	return 0;
}

static const char *atype(const json_t *a)
{
	return json_string_value(json_object_get(a, "type"));
}

/* The tally name of an action: its type; TACTICAL's attack and transport
 * forms have their own. */
static const char *aname(const json_t *a)
{
	const char *t = atype(a);
	if (strcmp(t, "tactical") == 0) {
		if (json_object_get(a, "target"))
			return "tactical_attack";
		if (json_object_get(a, "passenger"))
			return "tactical_transport";
	}
	return t;
}

/* Classes of Phase 1 and Phase 2 choices, and how much the biased player
 * wants each.  The last three are the builder's (see prepares()). */
enum cclass {
	C_POWER,
	C_ATTACK,
	C_CONSTRUCT,
	C_RESEARCH,
	C_MOVE,
	C_ABILITY,
	C_DEPLOY,
	C_RECONFIGURE,
	C_END,
	C_COMMAND,
	C_GAMBIT,
	C_REFRESH,
	C_OTHER,
	C_TOWARDS,   /* a ship joins a planet's sum that is still short */
	C_PREP,      /* the sum then fits: construct next */
	C_PREP_DIAG, /* it fits with INGENIOUS corner ships */
	C_NCLASSES
};
static const int class_weight[C_NCLASSES] = {
    [C_POWER] = 40, [C_ATTACK] = 30,  [C_CONSTRUCT] = 400, [C_RESEARCH] = 14,
    [C_MOVE] = 8,   [C_ABILITY] = 5,  [C_DEPLOY] = 6,      [C_RECONFIGURE] = 3,
    [C_END] = 3,    [C_COMMAND] = 24, [C_GAMBIT] = 6,      [C_REFRESH] = 1,
    [C_OTHER] = 1,  [C_TOWARDS] = 20, [C_PREP] = 400,      [C_PREP_DIAG] = 800,
};

static int is_flagged(const json_t *a)
{
	return json_is_true(json_object_get(a, "cunning")) ||
	       json_is_true(json_object_get(a, "curious")) ||
	       json_object_get(a, "diagonals") != NULL;
}

static int classify(const json_t *a)
{
	static const char *const powers[] = {"cerebral", "tyrannical",
	                                     "flexible", "resourceful",
	                                     "nomadic",  "tactical"};
	const char *t = atype(a);
	for (size_t k = 0; k < sizeof powers / sizeof powers[0]; k++)
		if (strcmp(t, powers[k]) == 0)
			return C_POWER;
	if (is_flagged(a))
		return C_POWER;
	if (!strcmp(t, "attack") || !strcmp(t, "strike"))
		return C_ATTACK;
	if (!strcmp(t, "construct"))
		return C_CONSTRUCT;
	if (!strcmp(t, "research"))
		return C_RESEARCH;
	if (!strcmp(t, "move") || !strcmp(t, "transport"))
		return C_MOVE;
	if (!strcmp(t, "warp") || !strcmp(t, "modify") || !strcmp(t, "scout"))
		return C_ABILITY;
	if (!strcmp(t, "deploy"))
		return C_DEPLOY;
	if (!strcmp(t, "reconfigure"))
		return C_RECONFIGURE;
	if (!strcmp(t, "end_turn"))
		return C_END;
	if (!strcmp(t, "take_card")) {
		int c =
		    qt_card_find(json_string_value(json_object_get(a, "card")));
		return c >= QT_FIRST_COMMAND ? C_COMMAND : C_GAMBIT;
	}
	if (!strcmp(t, "refresh_cards"))
		return C_REFRESH;
	return C_OTHER;
}

/* The sub-kind a class is split by, so that a rare power or gambit is
 * chosen as often as a common one: the tally name, with its flags, or the
 * card taken. */
static void subkind(const json_t *a, char *out, size_t n)
{
	const json_t *card = json_object_get(a, "card");
	snprintf(out, n, "%s%s%s%s%s", aname(a),
	         json_is_true(json_object_get(a, "cunning")) ? "+c" : "",
	         json_is_true(json_object_get(a, "curious")) ? "+q" : "",
	         json_object_get(a, "diagonals") ? "+d" : "",
	         card ? json_string_value(card) : "");
}

static int read_sq_of(const json_t *a, const char *key, struct qt_sq *out)
{
	const json_t *v = json_object_get(a, key);
	if (!json_is_array(v))
		return 0;
	out->r = (int8_t)json_integer_value(json_array_get(v, 0));
	out->c = (int8_t)json_integer_value(json_array_get(v, 1));
	return 1;
}

/* The builder's look-ahead, with ship i of seat showing `value` on square
 * `to`: C_PREP_DIAG if the seat could then construct on that square's
 * planet with INGENIOUS corner ships, C_PREP if without them, C_TOWARDS
 * if the ship joins a sum still short of the planet, else 0 (rules §5,
 * §7.3, §9.2 #15, #16). */
static int builds(const struct qt_state *s, int seat, int i, struct qt_sq to,
                  int value)
{
	const struct qt_board *b = &s->board;
	int p = qt_board_planet_at(b, to.r / 3 * 3 + 1, to.c / 3 * 3 + 1), own;
	if (p < 0 || qt_sq_eq(to, b->planet[p].at) ||
	    !qt_cube_allowed(s, seat, p, &own))
		return 0;
	int target = b->planet[p].number + 3 * own, sum = 0, ncorner = 0;
	int corner[QT_SHIPS];
	for (int j = 0; j < QT_SHIPS; j++) {
		const struct qt_ship *sh = &s->ship[seat][j];
		struct qt_sq at = j == i ? to : sh->at;
		int v = j == i ? value : sh->value;
		if (j != i && sh->where != QT_MAP)
			continue;
		if (qt_board_orbit_of(b, at.r, at.c) == p)
			sum += v;
		else if (at.r / 3 == to.r / 3 && at.c / 3 == to.c / 3 &&
		         at.r % 3 != 1 && at.c % 3 != 1)
			corner[ncorner++] = v;
	}
	int slack = qt_has(s, seat, QT_INTELLIGENT);
	if (sum >= target - slack && sum <= target + slack)
		return C_PREP;
	int ingenious = qt_has(s, seat, QT_INGENIOUS);
	for (int set = 1; ingenious && set < 1 << ncorner; set++) {
		int t = sum;
		for (int k = 0; k < ncorner; k++)
			t += (set >> k & 1) * corner[k];
		if (t >= target - slack && t <= target + slack)
			return C_PREP_DIAG;
	}
	int joins = qt_board_orbit_of(b, to.r, to.c) == p ||
	            (ingenious && to.r % 3 != 1 && to.c % 3 != 1);
	return sum < target && joins ? C_TOWARDS : 0;
}

/* The builder's class of an action of seat (see builds()) when it moves
 * or changes a ship and leaves the 2 actions a construct needs, else 0. */
static int prepares(const struct qt_state *s, int seat, const json_t *a)
{
	const char *t = atype(a);
	int i = (int)json_integer_value(json_object_get(a, "ship"));
	if (i < 0 || i >= QT_SHIPS)
		return 0;
	const struct qt_ship *sh = &s->ship[seat][i];
	int left = s->actions_left, v = sh->value;
	struct qt_sq to = sh->at;
	int costless = json_is_true(json_object_get(a, "curious")) ||
	               !strcmp(t, "tactical") || !strcmp(t, "flexible") ||
	               !strcmp(t, "modify");
	if (!costless)
		left--;
	if (!strcmp(t, "move") || !strcmp(t, "deploy") ||
	    !strcmp(t, "nomadic") ||
	    (!strcmp(t, "tactical") && !json_object_get(a, "target") &&
	     !json_object_get(a, "passenger"))) {
		read_sq_of(a, "to", &to);
	} else if (!strcmp(t, "flexible") || !strcmp(t, "modify")) {
		v = (int)json_integer_value(json_object_get(a, "value"));
	} else {
		return 0;
	}
	return left >= 2 ? builds(s, seat, i, to, v) : 0;
}

/* One listed action, classified once. */
struct choice {
	json_t *a;  /* borrowed */
	int cls;    /* enum cclass: the builder's class, else classify() */
	char k[48]; /* subkind() */
};

/* How much the biased player wants a card (a sub-kind of its class):
 * the command cards whose powers are the rarest to use come first. */
static int wanted_card(const char *name)
{
	static const char *const want[] = {
	    "tactical", "nomadic", "curious",  "cunning",   "dangerous",
	    "clever",   "scrappy", "sabotage", "relocation"};
	if (name &&
	    (!strcmp(name, "ingenious") || !strcmp(name, "intelligent")))
		return 10;
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		if (name && strcmp(name, want[k]) == 0)
			return 3;
	return 1;
}

/* A biased choice among c[0..n): a class by weight, a sub-kind of it
 * uniformly (a wanted card more likely), then one action of that
 * sub-kind.  Decisions and setup: uniform. */
static json_t *biased_pick(const struct choice *c, int n, int deciding,
                           struct rng *r)
{
	if (deciding)
		return c[rng_below(r, (uint32_t)n)].a;
	int present[C_NCLASSES] = {0}, total = 0, cls;
	for (int i = 0; i < n; i++)
		present[c[i].cls] = 1;
	for (cls = 0; cls < C_NCLASSES; cls++)
		total += present[cls] * class_weight[cls];
	int x = (int)rng_below(r, (uint32_t)total);
	for (cls = 0; cls < C_NCLASSES - 1; cls++) {
		x -= present[cls] * class_weight[cls];
		if (x < 0)
			break;
	}
	/* the distinct sub-kinds of the class, then one of them */
	const char *kinds[64];
	int nk = 0, wsum = 0, kw[64];
	for (int i = 0; i < n; i++) {
		if (c[i].cls != cls)
			continue;
		int seen = 0;
		for (int j = 0; j < nk && !seen; j++)
			seen = strcmp(kinds[j], c[i].k) == 0;
		if (!seen && nk < 64) {
			const json_t *card = json_object_get(c[i].a, "card");
			kw[nk] = wanted_card(json_string_value(card));
			wsum += kw[nk];
			kinds[nk++] = c[i].k;
		}
	}
	int y = (int)rng_below(r, (uint32_t)wsum), kk = 0;
	while (y >= kw[kk])
		y -= kw[kk++];
	const char *want = kinds[kk];
	int m = 0;
	for (int i = 0; i < n; i++)
		m += c[i].cls == cls && strcmp(c[i].k, want) == 0;
	int pick = (int)rng_below(r, (uint32_t)m);
	for (int i = 0; i < n; i++)
		if (c[i].cls == cls && strcmp(c[i].k, want) == 0 && pick-- == 0)
			return c[i].a;
	return NULL; /* not reached */
}

/* Where a card game is: enough to find a problem again. */
struct where {
	const char *opts; /* the game's options */
	uint64_t seed;
	int step;
};

static void problem(struct cstats *cs, const struct where *w,
                    struct engine_game *g, const json_t *a, const char *what,
                    const struct rules_why *why)
{
	const struct qt_state *s = st(g);
	char *t = a ? json_dumps(a, JSON_COMPACT) : NULL;
	fprintf(stderr,
	        "card games: %s: options %s, seed %llu, step %d, "
	        "action %s%s%s%s: phase %d active %d actions_left %d "
	        "to_act %u ndecisions %d",
	        what, w->opts, (unsigned long long)w->seed, w->step,
	        t ? t : "-", why ? " (" : "", why ? why->detail : "",
	        why ? ")" : "", s->phase, s->active, s->actions_left,
	        engine_game_to_act(g), s->ndecisions);
	for (int k = 0; k < s->ndecisions; k++)
		fprintf(stderr, " [%s seat %d]", dec_names[s->decision[k].kind],
		        s->decision[k].seat);
	fprintf(stderr, "\n");
	free(t);
	cs->problems++;
}

/* Applies a to a copy of g (in cs->scratch): it must be accepted. */
static void copy_accepts(struct engine_game *g, int seat, const json_t *a,
                         struct cstats *cs, const struct where *w)
{
	memcpy(cs->scratch, g, engine_game_size(g->rules));
	struct rules_why why;
	if (engine_game_apply(cs->scratch, seat, a, &why))
		problem(cs, w, g, a, "listed action refused on a copy", &why);
	cs->checked++;
}

/* The card a decision kind belongs to, or -1. */
static int decision_card(int kind)
{
	switch (kind) {
	case QT_DEC_DANGEROUS:
		return QT_DANGEROUS;
	case QT_DEC_CRUEL:
		return QT_CRUEL;
	case QT_DEC_RELENTLESS:
		return QT_RELENTLESS;
	case QT_DEC_SCRAPPY:
	case QT_DEC_SCRAPPY_SHIP:
		return QT_SCRAPPY;
	case QT_DEC_CLEVER:
		return QT_CLEVER;
	}
	return -1;
}

/* The command-card invariants of a state: a card decision is asked of a
 * seat holding the working card (SCRAPPY: on its own turn; the battle
 * ones: of a side of the battle under way, its attacker on its launch
 * square, DANGEROUS of the defender); nobody holds more than 3 cards but
 * while discarding (rules §9.1, §14.1). */
static const char *card_invariants(const struct qt_state *s)
{
	if (s->ndecisions > 0) {
		const struct qt_decision *d = &s->decision[0];
		const struct qt_battle *b = &s->battle;
		int card = decision_card(d->kind);
		if (card >= 0 && !qt_has(s, d->seat, card))
			return "a card decision for a seat without the card";
		if ((d->kind == QT_DEC_SCRAPPY ||
		     d->kind == QT_DEC_SCRAPPY_SHIP) &&
		    d->seat != s->active)
			return "SCRAPPY asked off its holder's turn";
		int battle =
		    d->kind == QT_DEC_DANGEROUS || d->kind == QT_DEC_CRUEL ||
		    d->kind == QT_DEC_RELENTLESS || d->kind == QT_DEC_SCRAPPY;
		if (battle &&
		    (!b->on || (d->seat != b->att && d->seat != b->def) ||
		     !qt_sq_eq(s->ship[b->att][b->aship].at, b->from) ||
		     s->ship[b->def][b->dship].where != QT_MAP ||
		     !qt_sq_eq(s->ship[b->def][b->dship].at, b->target)))
			return "a battle decision without its battle";
		if ((d->kind == QT_DEC_DANGEROUS && d->seat != b->def) ||
		    (d->kind == QT_DEC_SCRAPPY && d->seat != b->att))
			return "a battle decision asked of the wrong side";
	}
	for (int p = 0; p < s->seats; p++) {
		int n = 0, discarding = 0;
		for (int i = 0; i <= QT_MAX_HELD; i++)
			n += s->held[p][i] != QT_NO_CARD;
		for (int k = 0; k < s->ndecisions; k++)
			discarding |= s->decision[k].kind == QT_DEC_DISCARD &&
			              s->decision[k].seat == p;
		if (n > QT_MAX_HELD && !discarding)
			return "more than 3 command cards held";
	}
	return NULL;
}

/* The checks of one step; returns the number of problems found. */
static int card_step_checks(struct engine_game *g, int seat, json_t *all,
                            const struct choice *c, int n, struct cstats *cs,
                            const struct where *w, struct rng *r)
{
	const struct qt_state *s = st(g);
	int before = cs->problems;
	unsigned ta = engine_game_to_act(g);
	for (int p = 0; p < s->seats; p++) {
		json_t *l =
		    p == seat ? json_incref(all) : engine_game_actions(g, p);
		if ((json_array_size(l) > 0) != (int)(ta >> p & 1))
			problem(cs, w, g, NULL,
			        p == seat ? "a seat to act has no action"
			                  : "a seat not to act has actions",
			        NULL);
		json_decref(l);
	}
	const char *broken = card_invariants(s);
	if (broken)
		problem(cs, w, g, NULL, broken, NULL);
	if (s->ndecisions > 0) {
		const struct qt_decision *d = &s->decision[0];
		if (ta != 1u << d->seat)
			problem(cs, w, g, NULL,
			        "decision pending: to_act is not its seat",
			        NULL);
		for (int i = 0; i < n; i++)
			if (!answers_kind(d->kind, atype(c[i].a)))
				problem(cs, w, g, c[i].a,
				        "a decision lists a non-answer", NULL);
		json_t *v = engine_game_view(g, d->seat);
		json_t *p0 = json_array_get(json_object_get(v, "pending"), 0);
		json_t *to_act = json_object_get(v, "to_act");
		if (!p0 ||
		    strcmp(json_string_value(json_object_get(p0, "kind")),
		           dec_names[d->kind]) ||
		    json_integer_value(json_object_get(p0, "seat")) !=
		        d->seat ||
		    json_array_size(to_act) != 1 ||
		    json_integer_value(json_array_get(to_act, 0)) != d->seat)
			problem(cs, w, g, NULL,
			        "view.pending[0] and to_act disagree with the "
			        "decision",
			        NULL);
		json_decref(v);
	}
	/* On copies: every answer of a decision and every card-phase
	 * choice; in Phase 1 one action of each sub-kind (every card power
	 * form, attack, construct...) and two more at random. */
	if (n == 0)
		return cs->problems - before;
	if (s->ndecisions > 0 || s->phase != QT_PH_ACTIONS) {
		for (int i = 0; i < n; i++)
			copy_accepts(g, seat, c[i].a, cs, w);
		return cs->problems - before;
	}
	for (int i = 0; i < n; i++) {
		int first = 1, m = 0;
		for (int j = 0; j < i && first; j++)
			first = strcmp(c[j].k, c[i].k) != 0;
		if (!first)
			continue;
		for (int j = i; j < n; j++)
			m += strcmp(c[j].k, c[i].k) == 0;
		int pick = (int)rng_below(r, (uint32_t)m);
		for (int j = i; j < n; j++)
			if (strcmp(c[j].k, c[i].k) == 0 && pick-- == 0)
				copy_accepts(g, seat, c[j].a, cs, w);
	}
	for (int k = 0; k < 2; k++)
		copy_accepts(g, seat, c[rng_below(r, (uint32_t)n)].a, cs, w);
	return cs->problems - before;
}

/* What an applied action counts as. */
static void count_applied(struct cstats *cs, const struct qt_state *s,
                          const json_t *a)
{
	char k[48];
	tally(cs, aname(a));
	if (json_is_true(json_object_get(a, "cunning")))
		tally(cs, "+cunning");
	if (json_is_true(json_object_get(a, "curious"))) {
		static const char *const printing[] = {
		    "+curious", "+curious(addon)", "+curious(first-printing)"};
		tally(cs, printing[s->curious]);
		snprintf(k, sizeof k, "+curious:%s", atype(a));
		tally(cs, k);
	}
	if (json_object_get(a, "diagonals"))
		tally(cs, "+diagonals");
	if (s->ndecisions > 0) {
		int kind = s->decision[0].kind;
		snprintf(k, sizeof k, "?%s%s", dec_names[kind],
		         kind == QT_DEC_SCRAPPY_SHIP ? "(ship)" : "");
		tally(cs, k);
	}
}

static void card_game(int seats, const char *map, const char *extra,
                      uint64_t seed, struct cstats *cs)
{
	char opts[200];
	snprintf(opts, sizeof opts, "{\"map\":\"%s\"%s}", map, extra);
	struct where w = {opts, seed, 0};
	struct engine_game *g = game(seats, opts, NULL, seed);
	if (!g) {
		fprintf(stderr, "card games: %s: %s\n", opts, last_why.detail);
		cs->problems++;
		return;
	}
	struct rng r;
	rng_seed(&r, seed ^ 0xca4d5);
	cs->games++;
	struct rules_result res;
	while (!engine_game_result(g, &res)) {
		unsigned ta = engine_game_to_act(g);
		if (!ta) {
			problem(cs, &w, g, NULL, "nobody to act", NULL);
			break;
		}
		int seat = pick_seat(ta, &r);
		json_t *all = engine_game_actions(g, seat);
		const struct qt_state *s = st(g);
		int n = (int)json_array_size(all);
		struct choice *c = calloc((size_t)n + 1, sizeof *c);
		for (int i = 0; i < n; i++) {
			c[i].a = json_array_get(all, (size_t)i);
			int prep =
			    s->phase == QT_PH_ACTIONS && s->ndecisions == 0
			        ? prepares(s, seat, c[i].a)
			        : 0;
			c[i].cls = prep ? prep : classify(c[i].a);
			subkind(c[i].a, c[i].k, sizeof c[i].k);
		}
		if (card_step_checks(g, seat, all, c, n, cs, &w, &r) ||
		    n == 0) {
			free(c);
			json_decref(all);
			break;
		}
		int deciding = s->ndecisions > 0 || s->phase < QT_PH_ACTIONS;
		/* every index of decisions and the card phase, and of every
		 * fourth Phase 1 step (card powers change the moves:
		 * CURIOUS's free forms, CUNNING's marks); else two */
		check_nth(s, seat,
		          deciding || s->phase != QT_PH_ACTIONS ||
		              cs->steps % 4 == 0,
		          (unsigned)cs->steps, &cs->nth_checked, &cs->nth_bad);
		json_t *a = json_incref(biased_pick(c, n, deciding, &r));
		free(c);
		json_decref(all);
		struct qt_state before = *s;
		struct rules_why why;
		if (engine_game_apply(g, seat, a, &why)) {
			problem(cs, &w, g, a, "chosen listed action refused",
			        &why);
			json_decref(a);
			break;
		}
		count_applied(cs, &before, a);
		json_decref(a);
		cs->steps++;
		w.step++;
		if (!sane(st(g))) {
			problem(cs, &w, g, NULL, "state not sane", NULL);
			break;
		}
		if (w.step >= CARD_STEP_CAP) {
			problem(cs, &w, g, NULL, "stalled", NULL);
			cs->stalled++;
			break;
		}
	}
	cs->ended += engine_game_result(g, &res);
	engine_game_free(g);
}

static void test_card_games(void)
{
	static const struct {
		int seats;
		const char *map;
	} maps[] = {
	    {2, "Alpha sector - Basic map"}, {2, "Tactics - Add-on pack"},
	    {2, "Axiomatic - The Void"},     {3, "Beta sector - Basic map"},
	    {3, "Pivot point - The Void"},   {3, "Invaders - Add-on pack"},
	    {4, "Gamma sector - Basic map"}, {4, "Eden - Add-on pack"},
	    {4, "Supercollider - The Void"},
	};
	static const char *const extras[] = {
	    "",
	    ",\"curious\":\"addon\"",
	    ",\"curious\":\"first-printing\",\"strategic\":\"first-printing\"",
	    ",\"strategic\":\"first-printing\"",
	};
	struct cstats cs = {0};
	cs.scratch = malloc(engine_game_size(&qt_rules));
	int per = QT_TEST_CARD_GAMES;
	for (int k = 0; k < (int)(sizeof maps / sizeof maps[0]); k++)
		for (int e = 0; e < (int)(sizeof extras / sizeof extras[0]);
		     e++)
			for (int i = 0; i < per; i++)
				card_game(maps[k].seats, maps[k].map, extras[e],
				          (uint64_t)(70000 + 100000 * k +
				                     10000 * e + i),
				          &cs);
	free(cs.scratch);
	printf("card games: %d played, %d ended, %d steps, %d listed actions "
	       "applied to copies; applied:",
	       cs.games, cs.ended, cs.steps, cs.checked);
	for (int k = 0; k < cs.ntallies; k++)
		printf(" %s=%d", cs.t[k].name, cs.t[k].n);
	printf("\n");
	static const char *const powers[] = {
	    "cerebral",        "tyrannical",
	    "flexible",        "resourceful",
	    "nomadic",         "tactical",
	    "tactical_attack", "tactical_transport",
	    "+cunning",        "+curious",
	    "+curious(addon)", "+curious(first-printing)",
	    "+curious:move",   "+curious:transport",
	    "+diagonals",
	};
	static const char *const decisions[] = {
	    "?advance",    "?infamy",     "?discard_command", "?sabotage",
	    "?place_ship", "?reorganize", "?relocate",        "?dangerous",
	    "?cruel",      "?relentless", "?scrappy",         "?scrappy(ship)",
	    "?clever",
	};
	for (size_t k = 0; k < sizeof powers / sizeof powers[0]; k++) {
		char name[64];
		snprintf(name, sizeof name, "card games: %s applied",
		         powers[k]);
		test_cond(name, tallied(&cs, powers[k]) > 0);
	}
	for (size_t k = 0; k < sizeof decisions / sizeof decisions[0]; k++) {
		char name[64];
		snprintf(name, sizeof name, "card games: decision %s answered",
		         decisions[k] + 1);
		test_cond(name, tallied(&cs, decisions[k]) > 0);
	}
	test_cond("card games: no engine problem", cs.problems == 0);
	printf("card games: qt_nth_action checked %ld times\n", cs.nth_checked);
	test_cond("card games: qt_nth_action is the listed action at every "
	          "index",
	          cs.nth_checked > 0 && cs.nth_bad == 0);
	test_cond("card games: no game stalls", cs.stalled == 0);
	test_cond("card games: all games ended", cs.ended == cs.games);
}

/* ---- rules §12 scenarios (no command card needed) ---- */

/* Seat 1's fleet parked in the far corner of Alpha sector. */
#define FAR1                                                                   \
	"[{\"value\":6,\"at\":[8,8]},{\"value\":6,\"at\":[8,6]},{\"value\":6," \
	"\"at\":[6,8]}]"

static struct engine_game *alpha(const char *setup)
{
	struct engine_game *g = game(2, NULL, setup, 7);
	if (!g) {
		fprintf(stderr, "setup refused: %s %s\n", last_why.rule,
		        last_why.detail);
		exit(2);
	}
	return g;
}

/* §12.14, §7.3, §10: entanglement, and the game ends on the last cube. */
static void case_entanglement(void)
{
	/* Alpha: own cube on the 8, other planets have room */
	struct engine_game *g =
	    alpha("{\"ships\":[[{\"value\":5,\"at\":[3,4]},{\"value\":6,\"at\":"
	          "[5,4]},{\"value\":1,\"at\":[0,0]}]," FAR1
	          "],\"cubes\":[{\"seat\":0,\"planet\":[4,4]}]}");
	test_cond("§12.14 own cube, other planets with room: refused",
	          ILLEGAL(g, 0, "{\"type\":\"construct\",\"planet\":[4,4]}"));
	engine_game_free(g);

	/* Tactics: every planet with room holds a cube of seat 0 */
	const char *tactics =
	    "{\"ships\":[[{\"value\":5,\"at\":[3,1]},{\"value\":6,\"at\":"
	    "[5,1]},{\"value\":1,\"at\":[3,3]}],[{\"value\":3,\"at\":[3,7]},"
	    "{\"value\":5,\"at\":[5,7]},{\"value\":6,\"at\":[3,5]}]],"
	    "\"cubes\":[{\"seat\":0,\"planet\":[4,1]},{\"seat\":0,\"planet\":"
	    "[4,7]},{\"seat\":0,\"planet\":[1,4]},{\"seat\":1,\"planet\":"
	    "[4,4]},{\"seat\":1,\"planet\":[7,4]}]}";
	g = game(2, "{\"map\":\"Tactics - Add-on pack\"}", tactics, 3);
	test_cond("§7.3 Tactics setup", g != NULL);
	if (!g)
		return;
	test_cond("§12.14 entanglement: 5+6 = 8+3 listed",
	          listed(g, 0, "{\"type\":\"construct\",\"planet\":[4,1]}"));
	test_cond("§12.14 no construct where the sum is 0",
	          !listed(g, 0, "{\"type\":\"construct\",\"planet\":[4,7]}"));
	struct qt_state off = *st(g);
	off.entanglement = 0;
	test_cond("§7.3 with entanglement off the second cube is refused",
	          !qt_cube_allowed(&off, 0,
	                           qt_board_planet_at(&off.board, 4, 1), NULL));
	test_cond("§7.3 seat 1 has no cube there: ordinary placement",
	          qt_cube_allowed(&off, 1, qt_board_planet_at(&off.board, 4, 1),
	                          NULL));
	test_cond("§10 the last cube",
	          OK(g, 0, "{\"type\":\"construct\",\"planet\":[4,1]}"));
	struct rules_result res;
	test_cond("§10 game over", engine_game_result(g, &res) == 1 &&
	                               res.winners == 1u &&
	                               strcmp(res.reason, "last_cube") == 0);
	test_cond("§10 nobody acts", engine_game_to_act(g) == 0);
	test_cond("§10 no card phase", st(g)->phase == QT_PH_OVER);
	test_cond("§10 moves refused",
	          act(g, 0, "{\"type\":\"end_turn\"}") == BD_EGAMEOVER);
	json_t *v = engine_game_view(g, ENGINE_SPECTATOR);
	test_cond("§10 view shows the winner",
	          json_integer_value(json_object_get(v, "winner")) == 0 &&
	              !strcmp(json_string_value(json_object_get(v, "phase")),
	                      "over"));
	json_decref(v);
	engine_game_free(g);

	test_cond(
	    "§14 entanglement off refused on negative slack",
	    setup_rc(
	        2, "{\"map\":\"Tactics - Add-on pack\",\"entanglement\":false}",
	        NULL) == BD_EBADOPTIONS);
	test_cond("§14 entanglement off allowed on Alpha",
	          setup_rc(2, "{\"entanglement\":false}", NULL) == 0);
}

/* §12.15, §12.17, §12.18: combat results. */
static void case_combat(void)
{
	struct engine_game *g = alpha(
	    "{\"dominance\":[3,3],\"ships\":[[{\"value\":3,\"at\":[3,0]},"
	    "{\"value\":2,\"at\":[0,0]},{\"value\":4,\"at\":\"scrapyard\"}],"
	    "[{\"value\":3,\"at\":[3,1]},{\"value\":6,\"at\":[8,6]},"
	    "{\"value\":6,\"at\":[6,8]}]],\"dice\":[2,2,3]}");
	test_cond("§12.15 attack", OK(g, 0,
	                              "{\"type\":\"attack\",\"ship\":0,"
	                              "\"from\":[3,0],\"target\":[3,1]}"));
	test_cond("§12.15 tie goes to the attacker",
	          ship(g, 1, 0)->where == QT_SCRAPYARD);
	test_cond("§12.17 dominance +1 / -1",
	          st(g)->dominance[0] == 4 && st(g)->dominance[1] == 2);
	test_cond("§12.18 the destroyed ship shows its re-roll (3 again)",
	          ship(g, 1, 0)->value == 3);
	test_cond("§12.17 advance or stay listed",
	          count_listed(g, 0, "advance") == 1 &&
	              count_listed(g, 0, "stay") == 1 &&
	              count_listed(g, 0, "move") == 0);
	test_cond("§12.17 attacker on its launch square while deciding",
	          ship_on(g, 0, 0, 3, 0));
	json_t *v = engine_game_view(g, 1);
	json_t *pend = json_array_get(json_object_get(v, "pending"), 0);
	json_t *s10 = json_array_get(
	    json_object_get(json_array_get(json_object_get(v, "players"), 1),
	                    "ships"),
	    0);
	test_cond("view: advance pending for seat 0",
	          !strcmp(json_string_value(json_object_get(pend, "kind")),
	                  "advance") &&
	              json_integer_value(json_object_get(pend, "seat")) == 0);
	test_cond("view: destroyed ship, owner 1, in the scrapyard",
	          json_integer_value(json_object_get(s10, "owner")) == 1 &&
	              !strcmp(json_string_value(json_object_get(s10, "at")),
	                      "scrapyard"));
	test_cond("view: last dice 2, 2, 3",
	          json_array_size(json_object_get(v, "last_dice")) == 3 &&
	              json_integer_value(json_array_get(
	                  json_object_get(v, "last_dice"), 2)) == 3);
	json_decref(v);
	test_cond("§12.17 advance", OK(g, 0, "{\"type\":\"advance\"}"));
	test_cond("§12.17 advanced", ship_on(g, 0, 0, 3, 1));
	test_cond("§12.17 the ship moved", ship(g, 0, 0)->moved == 1);
	engine_game_free(g);
}

/* §12.60: Void research at the start of the turn. */
static void case_void(void)
{
	struct engine_game *g =
	    game(3, "{\"map\":\"Pivot point - The Void\"}",
	         "{\"research\":[1,5,1],\"ships\":[[{\"value\":2,\"at\":[8,0]},"
	         "{\"value\":2,\"at\":[8,2]},{\"value\":2,\"at\":[6,0]}],"
	         "[{\"value\":3,\"at\":[3,3]},{\"value\":3,\"at\":[4,4]},"
	         "{\"value\":3,\"at\":[6,6]}],[{\"value\":4,\"at\":[0,6]},"
	         "{\"value\":4,\"at\":[0,8]},{\"value\":4,\"at\":[2,8]}]]}",
	         5);
	test_cond("§8 setup", g != NULL);
	if (!g)
		return;
	test_cond("§8 custom start: no start-of-turn effects",
	          st(g)->research[1] == 5);
	test_cond("§8 end turn", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("§12.60 two Void ships: 5 -> 6 (capped)",
	          st(g)->active == 1 && st(g)->research[1] == 6);
	test_cond("§12.60 Void ships move normally",
	          OK(g, 1, "{\"type\":\"move\",\"ship\":1,\"to\":[4,5]}"));
	test_cond("§14 research at 6 not offered",
	          count_listed(g, 1, "research") == 0 &&
	              ILLEGAL(g, 1, "{\"type\":\"research\"}"));
	test_cond("§12.42 end turn", OK(g, 1, "{\"type\":\"end_turn\"}"));
	test_cond("§12.42 research 6: a card and research 1",
	          st(g)->phase == QT_PH_CARDS && st(g)->research[1] == 1 &&
	              st(g)->picks[1] == 1 && engine_game_to_act(g) == 2);
	test_cond("§9.1 refresh", OK(g, 1, "{\"type\":\"refresh_cards\"}"));
	test_cond("§9.1 refresh spends the pick; 6 discarded",
	          st(g)->active == 2 && st(g)->phase == QT_PH_ACTIONS &&
	              st(g)->cmd_discard_n == 3 && st(g)->gam_discard_n == 3 &&
	              st(g)->cmd_deck_n == 31 - 6 &&
	              st(g)->gam_deck_n == 22 - 6);
	test_cond("§8 seat 2 has no Void ship", st(g)->research[2] == 1);
	engine_game_free(g);
}

/* A 2-seat Alpha position in seat 0's Phase 2 with research 6 (one pick),
 * the given rows and decks, and extra JSON fields. */
static struct engine_game *cards_game(const char *extra)
{
	char buf[2048];
	snprintf(buf, sizeof buf,
	         "{\"research\":[6,1],\"ships\":[[{\"value\":3,\"at\":[3,0]},"
	         "{\"value\":2,\"at\":[0,0]},{\"value\":4,\"at\":\"scrapyard\"}"
	         "]," FAR1
	         "],\"cubes\":[{\"seat\":0,\"planet\":[1,1]},{\"seat\":1,"
	         "\"planet\":[7,7]}]%s}",
	         extra);
	struct engine_game *g = alpha(buf);
	if (act(g, 0, "{\"type\":\"end_turn\"}") != 0) {
		fprintf(stderr, "end_turn refused: %s\n", last_why.detail);
		exit(2);
	}
	return g;
}

/* §12.41, §12.46, §9.1: AGGRESSION at 4 in Phase 2, refill from the deck. */
static void case_aggression(void)
{
	struct engine_game *g = cards_game(
	    ",\"dominance\":[4,1],\"row\":{\"command\":[\"agile\","
	    "\"brilliant\",\"cruel\"],\"gambit\":[\"aggression\","
	    "\"momentum\",\"sabotage\"]},\"decks\":{\"command\":[\"warlike\"],"
	    "\"gambit\":[\"expansion\",\"relocation\"]}");
	test_cond("§12.42 one pick", st(g)->phase == QT_PH_CARDS &&
	                                 st(g)->picks[0] == 1 &&
	                                 st(g)->research[0] == 1);
	test_cond("§9.1 7 choices: 6 cards and refresh",
	          count_listed(g, 0, "take_card") == 6 &&
	              count_listed(g, 0, "refresh_cards") == 1);
	test_cond("§12.41 take aggression",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"aggression\"}"));
	test_cond("§9.1 slot refilled from the deck top",
	          st(g)->row_gam[0] == QT_EXPANSION && st(g)->gam_deck_n == 1);
	test_cond("§12.46 resolved at once: dominance 6, infamy pending",
	          st(g)->dominance[0] == 6 && st(g)->ndecisions == 1 &&
	              st(g)->decision[0].kind == QT_DEC_INFAMY);
	test_cond("§12.41 infamy",
	          OK(g, 0, "{\"type\":\"infamy\",\"planet\":[4,4]}"));
	test_cond("§12.41 one more card", st(g)->picks[0] == 1 &&
	                                      st(g)->dominance[0] == 1 &&
	                                      st(g)->phase == QT_PH_CARDS);
	test_cond("§9.1 take a command card",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"agile\"}"));
	test_cond("§9.1 held, refilled",
	          st(g)->held[0][0] == qt_card_find("agile") &&
	              st(g)->row_cmd[0] == qt_card_find("warlike"));
	test_cond("§4 next player's turn", st(g)->active == 1 &&
	                                       st(g)->phase == QT_PH_ACTIONS &&
	                                       st(g)->actions_left == 3);
	/* given decks: the cards named nowhere start in the discards */
	test_cond("§9.3 gambit discarded on top of the discards",
	          st(g)->gam_discard_n == 22 - 3 - 2 + 1 &&
	              st(g)->gam_discard[st(g)->gam_discard_n - 1] ==
	                  QT_AGGRESSION);
	engine_game_free(g);
}

/* §12.47, §12.48: MOMENTUM with a pick still owed. */
static void case_momentum(void)
{
	struct engine_game *g =
	    alpha("{\"research\":[5,1],\"ships\":[[{\"value\":3,\"at\":[0,4]},"
	          "{\"value\":4,\"at\":[1,3]},{\"value\":2,\"at\":[3,0]}]," FAR1
	          "],\"row\":{\"gambit\":[\"momentum\",\"aggression\","
	          "\"sabotage\"]}}");
	test_cond("step {type:construct,planet:[1,4]}",
	          OK(g, 0, "{\"type\":\"construct\",\"planet\":[1,4]}"));
	test_cond("step {type:move,ship:2,to:[3,2]}",
	          OK(g, 0, "{\"type\":\"move\",\"ship\":2,\"to\":[3,2]}"));
	test_cond("§12.48 one pick owed", OK(g, 0, "{\"type\":\"end_turn\"}") &&
	                                      st(g)->picks[0] == 1 &&
	                                      st(g)->research[0] == 5);
	/* research 5: only the construct's pick */
	test_cond("§12.47 take momentum",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"momentum\"}"));
	test_cond("§12.47 bonus turn with 2 actions",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->active == 0 &&
	              st(g)->actions_left == 2 && st(g)->bonus_turn == 1);
	test_cond("§12.47 the ship that moved may move again",
	          OK(g, 0, "{\"type\":\"move\",\"ship\":2,\"to\":[3,3]}"));
	test_cond("§14 momentum discarded as the bonus turn starts",
	          st(g)->gam_discard_n == 1 &&
	              st(g)->gam_discard[0] == QT_MOMENTUM);
	test_cond("§12.47 bonus Phase 2: nothing owed",
	          OK(g, 0, "{\"type\":\"end_turn\"}") && st(g)->active == 1 &&
	              st(g)->actions_left == 3 && st(g)->bonus_turn == 0);
	engine_game_free(g);

	g = alpha("{\"research\":[6,1],\"ships\":[[{\"value\":3,\"at\":[0,4]},"
	          "{\"value\":4,\"at\":[1,3]},{\"value\":2,\"at\":[3,0]}]," FAR1
	          "],\"row\":{\"gambit\":[\"momentum\",\"aggression\","
	          "\"sabotage\"]}}");
	test_cond("step {type:construct,planet:[1,4]}",
	          OK(g, 0, "{\"type\":\"construct\",\"planet\":[1,4]}"));
	test_cond("step {type:end_turn}", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("§12.48 construct + research: 2 picks", st(g)->picks[0] == 2);
	test_cond("step {type:take_card,card:momentum}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"momentum\"}"));
	test_cond("§12.48 the bonus turn comes before the owed pick",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->picks[0] == 1);
	test_cond("step {type:end_turn}", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("§12.48 the owed pick in the bonus turn's Phase 2",
	          st(g)->phase == QT_PH_CARDS && st(g)->picks[0] == 1 &&
	              engine_game_to_act(g) == 1);
	test_cond("step {type:take_card,card:aggression}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"aggression\"}"));
	test_cond("§12.48 then seat 1",
	          st(g)->active == 1 && st(g)->dominance[0] == 3);
	engine_game_free(g);
}

/* §12.50: RELOCATION, revised and first printing. */
static void case_relocation(void)
{
	const char *extra =
	    ",\"row\":{\"gambit\":[\"relocation\",\"aggression\","
	    "\"sabotage\"]}";
	struct engine_game *g = cards_game(extra);
	test_cond("step {type:take_card,card:relocation}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"relocation\"}"));
	test_cond("§12.50 revised: to a higher planet",
	          OK(g, 0,
	             "{\"type\":\"relocate\",\"owner\":1,\"from\":[7,7],\"to\":"
	             "[4,4]}"));
	test_cond("§12.50 moved", cubes_of(g, 1, 7, 7) == 0 &&
	                              cubes_of(g, 1, 4, 4) == 1 &&
	                              st(g)->cubes_left[1] == 4);
	engine_game_free(g);

	char buf[2048];
	snprintf(buf, sizeof buf,
	         "{\"research\":[6,1],\"ships\":[[{\"value\":3,\"at\":[3,0]},"
	         "{\"value\":2,\"at\":[0,0]},{\"value\":4,\"at\":\"scrapyard\"}"
	         "]," FAR1
	         "],\"cubes\":[{\"seat\":0,\"planet\":[1,1]},{\"seat\":1,"
	         "\"planet\":[7,7]}]%s}",
	         extra);
	g = game(2, "{\"relocation\":\"first-printing\"}", buf, 4);
	test_cond("step {type:end_turn}", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("step {type:take_card,card:relocation}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"relocation\"}"));
	test_cond("§9.4 first printing: not to a higher planet",
	          ILLEGAL(g, 0,
	                  "{\"type\":\"relocate\",\"owner\":1,\"from\":[7,7],"
	                  "\"to\":[4,4]}"));
	test_cond("§12.50 not your own cube",
	          ILLEGAL(g, 0,
	                  "{\"type\":\"relocate\",\"owner\":0,\"from\":[1,1],"
	                  "\"to\":[1,4]}"));
	test_cond("§9.4 first printing: 7 to 7",
	          OK(g, 0,
	             "{\"type\":\"relocate\",\"owner\":1,\"from\":[7,7],\"to\":"
	             "[1,4]}"));
	engine_game_free(g);
}

/* §12.51 SABOTAGE, and the fourth command card. */
static void case_sabotage(void)
{
	struct engine_game *g =
	    cards_game(",\"row\":{\"gambit\":[\"sabotage\",\"aggression\","
	               "\"momentum\"]}");
	test_cond("step {type:take_card,card:sabotage}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"sabotage\"}"));
	test_cond("§12.51 no command cards: nothing happens",
	          st(g)->active == 1 && st(g)->ndecisions == 0);
	engine_game_free(g);

	g = cards_game(
	    ",\"row\":{\"gambit\":[\"sabotage\",\"aggression\","
	    "\"momentum\"]},\"commands\":[[],[\"agile\",\"cruel\"]]");
	test_cond("step {type:take_card,card:sabotage}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"sabotage\"}"));
	test_cond("§9.3 seat 1 decides on seat 0's turn",
	          engine_game_to_act(g) == 2 &&
	              count_listed(g, 1, "discard_command") == 2);
	test_cond(
	    "§9.3 discard",
	    OK(g, 1, "{\"type\":\"discard_command\",\"card\":\"cruel\"}"));
	test_cond("§9.3 one left", st(g)->held[1][0] == qt_card_find("agile") &&
	                               st(g)->held[1][1] == QT_NO_CARD &&
	                               st(g)->active == 1);
	engine_game_free(g);

	g = cards_game(",\"row\":{\"gambit\":[\"sabotage\",\"aggression\","
	               "\"momentum\"]},\"commands\":[[],[\"agile\"]]");
	test_cond("step {type:take_card,card:sabotage}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"sabotage\"}"));
	test_cond("§14 a single command card goes automatically",
	          st(g)->held[1][0] == QT_NO_CARD &&
	              st(g)->cmd_discard_n == 1 && st(g)->active == 1);
	engine_game_free(g);

	g = cards_game(
	    ",\"row\":{\"command\":[\"eager\",\"agile\",\"cruel\"]},"
	    "\"commands\":[[\"warlike\",\"tactical\",\"scrappy\"],[]]");
	test_cond("step {type:take_card,card:eager}",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"eager\"}"));
	test_cond("§9.1 a fourth command card: discard one of four",
	          count_listed(g, 0, "discard_command") == 4);
	test_cond(
	    "§14 the new card may be discarded",
	    OK(g, 0, "{\"type\":\"discard_command\",\"card\":\"eager\"}"));
	test_cond("§9.1 three kept",
	          st(g)->held[0][2] == qt_card_find("scrappy") &&
	              st(g)->held[0][3] == QT_NO_CARD);
	engine_game_free(g);
}

/* §3: the setup phase of a normal game. */
static void case_setup_phase(void)
{
	struct engine_game *g = game(2, NULL, NULL, 11);
	test_cond("§3 new game", g != NULL);
	if (!g)
		return;
	test_cond("§3.3 both seats decide at once",
	          engine_game_to_act(g) == 3 && st(g)->phase == QT_PH_REROLL);
	test_cond("§3.3 keep or re-roll listed",
	          count_listed(g, 0, "setup_reroll") == 1 &&
	              count_listed(g, 0, "setup_keep") == 1);
	test_cond("§3.7 rows dealt", st(g)->row_cmd[2] != QT_NO_CARD &&
	                                 st(g)->row_gam[2] != QT_NO_CARD &&
	                                 st(g)->cmd_deck_n == 28 &&
	                                 st(g)->gam_deck_n == 19);
	test_cond("§3 no game action yet",
	          ILLEGAL(g, 0, "{\"type\":\"research\"}"));
	test_cond("§3.3 seat 1 re-rolls",
	          OK(g, 1, "{\"type\":\"setup_reroll\"}"));
	test_cond("§3.3 only once",
	          act(g, 1, "{\"type\":\"setup_keep\"}") == BD_ENOTTURN);
	int t0 = 0, t1 = 0;
	for (int i = 0; i < 3; i++) {
		t0 += ship(g, 0, i)->value;
		t1 += ship(g, 1, i)->value;
	}
	test_cond("§3.3 seat 0 keeps", OK(g, 0, "{\"type\":\"setup_keep\"}"));
	int first = st(g)->first;
	test_cond("§3.4 lowest total starts",
	          t0 == t1 || first == (t0 < t1 ? 0 : 1));
	test_cond("§3.5 first player chooses a planet",
	          st(g)->phase == QT_PH_PLANET &&
	              engine_game_to_act(g) == 1u << first &&
	              count_listed(g, first, "choose_planet") == 2);
	test_cond(
	    "§3.5 not a starting planet",
	    ILLEGAL(g, first, "{\"type\":\"choose_planet\",\"planet\":[4,4]}"));
	test_cond(
	    "§3.5 choose",
	    OK(g, first, "{\"type\":\"choose_planet\",\"planet\":[7,7]}"));
	int other = 1 - first;
	test_cond(
	    "§14 the last planet is assigned",
	    st(g)->phase == QT_PH_ARRANGE && cubes_of(g, other, 1, 1) == 1 &&
	        cubes_of(g, first, 7, 7) == 1 && st(g)->cubes_left[first] == 4);
	test_cond("§3.6 24 arrangements",
	          count_listed(g, first, "arrange") == 24);
	test_cond(
	    "§3.6 not around another planet",
	    ILLEGAL(g, first,
	            "{\"type\":\"arrange\",\"ships\":[[0,1],[1,0],[2,1]]}"));
	test_cond(
	    "§3.6 three different squares",
	    ILLEGAL(g, first,
	            "{\"type\":\"arrange\",\"ships\":[[6,7],[6,7],[7,6]]}"));
	test_cond("§3.6 arrange",
	          OK(g, first,
	             "{\"type\":\"arrange\",\"ships\":[[6,7],[8,7],[7,6]]}"));
	test_cond("§3.6 arranged", ship_on(g, first, 1, 8, 7));
	test_cond("§3.6 other arranges",
	          OK(g, other,
	             "{\"type\":\"arrange\",\"ships\":[[0,1],[1,0],[2,1]]}"));
	test_cond("§3 first turn: 3 actions, no handicap",
	          st(g)->phase == QT_PH_ACTIONS && st(g)->active == first &&
	              st(g)->actions_left == 3 && st(g)->picks[first] == 0);
	json_t *v = engine_game_view(g, ENGINE_SPECTATOR);
	test_cond("view: custom false",
	          json_is_false(json_object_get(v, "custom")));
	json_decref(v);
	engine_game_free(g);

	/* §14 tie roll-off: find a seed whose kept totals tie */
	int found = 0;
	for (uint64_t seed = 1; seed < 400 && !found; seed++) {
		g = game(2, NULL, NULL, seed);
		int a = 0, b = 0;
		for (int i = 0; i < 3; i++) {
			a += ship(g, 0, i)->value;
			b += ship(g, 1, i)->value;
		}
		if (a == b) {
			found = 1;
			test_cond("step {type:setup_keep}",
			          OK(g, 0, "{\"type\":\"setup_keep\"}"));
			test_cond("step {type:setup_keep}",
			          OK(g, 1, "{\"type\":\"setup_keep\"}"));
			int n = st(g)->last_dice_n;
			const uint8_t *d = st(g)->last_dice;
			test_cond("§14 tie: roll-off dice shown",
			          n >= 2 && n % 2 == 0);
			test_cond("§14 tie: lower roll-off die starts",
			          n >= 2 && d[n - 2] != d[n - 1] &&
			              st(g)->first ==
			                  (d[n - 2] < d[n - 1] ? 0 : 1));
		}
		engine_game_free(g);
	}
	test_cond("§14 a tie was found", found);
}

/* JSON edge: malformed actions, options, custom setups, view. */
static void case_json(void)
{
	struct engine_game *g = alpha("{\"ships\":[[{\"value\":3,\"at\":[3,0]},"
	                              "{\"value\":2,\"at\":[0,0]},{\"value\":4,"
	                              "\"at\":\"scrapyard\"}]," FAR1 "]}");
	test_cond("json: unknown type", ILLEGAL(g, 0, "{\"type\":\"fly\"}") &&
	                                    strstr(last_why.detail, "fly"));
	test_cond("json: no type", ILLEGAL(g, 0, "{\"ship\":0}"));
	test_cond(
	    "json: unknown field",
	    ILLEGAL(
	        g, 0,
	        "{\"type\":\"move\",\"ship\":0,\"to\":[3,2],\"speed\":2}") &&
	        strcmp(last_why.rule, "§5") == 0 &&
	        strstr(last_why.detail, "speed"));
	test_cond("json: missing field",
	          ILLEGAL(g, 0, "{\"type\":\"move\",\"ship\":0}"));
	test_cond("json: bad square",
	          ILLEGAL(g, 0, "{\"type\":\"move\",\"ship\":0,\"to\":[3]}"));
	test_cond("json: bad ship",
	          ILLEGAL(g, 0, "{\"type\":\"move\",\"ship\":9,\"to\":[3,2]}"));
	test_cond("json: not an object", ILLEGAL(g, 0, "[1]"));
	test_cond("json: unknown card",
	          ILLEGAL(g, 0, "{\"type\":\"take_card\",\"card\":\"joker\"}"));
	test_cond("json: wrong seat",
	          act(g, 1, "{\"type\":\"end_turn\"}") == BD_ENOTTURN);
	test_cond("json: advance without a battle",
	          ILLEGAL(g, 0, "{\"type\":\"advance\"}"));
	json_t *v = engine_game_view(g, 1);
	json_t *p0 = json_array_get(json_object_get(v, "players"), 0);
	json_t *s2 = json_array_get(json_object_get(p0, "ships"), 2);
	json_t *s3 = json_array_get(json_object_get(p0, "ships"), 3);
	test_cond("view: custom true",
	          json_is_true(json_object_get(v, "custom")));
	test_cond("view: scrapyard ship",
	          !strcmp(json_string_value(json_object_get(s2, "at")),
	                  "scrapyard") &&
	              json_integer_value(json_object_get(s2, "value")) == 4);
	test_cond(
	    "view: reserve ship",
	    !strcmp(json_string_value(json_object_get(s3, "at")), "reserve") &&
	        json_is_null(json_object_get(s3, "value")));
	test_cond("view: map name",
	          !strcmp(json_string_value(json_object_get(
	                      json_object_get(v, "map"), "name")),
	                  "Alpha sector - Basic map"));
	test_cond("view: 9 planets",
	          json_array_size(json_object_get(json_object_get(v, "map"),
	                                          "planets")) == 9);
	test_cond("view: deck sizes only",
	          json_is_integer(
	              json_object_get(json_object_get(v, "decks"), "command")));
	test_cond("view: phase and actions",
	          !strcmp(json_string_value(json_object_get(v, "phase")),
	                  "actions") &&
	              json_integer_value(json_object_get(v, "actions_left")) ==
	                  3);
	json_t *v2 = engine_game_view(g, ENGINE_SPECTATOR);
	test_cond("view: same for every viewer", json_equal(v, v2));
	json_decref(v2);
	json_decref(v);
	json_t *end = json_pack("{ss}", "type", "end_turn");
	json_t *mv = qt_rules.move_view(g->state, g->state, 0, end, 1, 0);
	test_cond("move_view: public", json_equal(mv, end));
	json_decref(mv);
	json_decref(end);
	engine_game_free(g);

	test_cond("options: unknown map",
	          setup_rc(2, "{\"map\":\"Nowhere\"}", NULL) == BD_EBADOPTIONS);
	test_cond("options: map for 4 seats",
	          setup_rc(2, "{\"map\":\"Gamma sector - Basic map\"}", NULL) ==
	                  BD_EBADOPTIONS &&
	              strstr(last_why.detail, "4 players"));
	test_cond("options: unknown option",
	          setup_rc(2, "{\"speed\":1}", NULL) == BD_EBADOPTIONS);
	test_cond(
	    "options: 1st-printing map",
	    setup_rc(3,
	             "{\"map\":\"Beta Sector — 1st printing (2013 rulebook)\"}",
	             NULL) == 0);
	test_cond("options: relocation bool",
	          setup_rc(2, "{\"relocation\":true}", NULL) == 0);
	test_cond("options: 5 seats refused",
	          setup_rc(5, NULL, NULL) == BD_EBADOPTIONS);

	const char *two_on_one =
	    "{\"ships\":[[{\"value\":3,\"at\":[3,0]},{\"value\":2,\"at\":[3,0]}"
	    ","
	    "{\"value\":4,\"at\":\"scrapyard\"}]," FAR1 "]}";
	test_cond("setup: two ships on a square",
	          setup_rc(2, NULL, two_on_one) == BD_EBADSETUP &&
	              strstr(last_why.detail, "two ships"));
	test_cond(
	    "setup: ship on a planet",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[1,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "]}") == BD_EBADSETUP);
	test_cond(
	    "setup: too many cubes on a 7",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "],\"cubes\":[{\"seat\":0,\"planet\":[1,1]},{\"seat\":1,"
	             "\"planet\":[1,1]}]}") == BD_EBADSETUP);
	test_cond(
	    "setup: all cubes placed",
	    setup_rc(
	        2, NULL,
	        "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	        "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	        "],\"cubes\":[{\"seat\":0,\"planet\":[1,1]},{\"seat\":0,"
	        "\"planet\":[1,4]},{\"seat\":0,\"planet\":[1,7]},{\"seat\":0,"
	        "\"planet\":[4,1]},{\"seat\":0,\"planet\":[4,4]}]}") ==
	        BD_EBADSETUP);
	test_cond("setup: no ships",
	          setup_rc(2, NULL, "{\"cubes\":[]}") == BD_EBADSETUP);
	test_cond(
	    "setup: unknown field",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "],\"weather\":1}") == BD_EBADSETUP);
	test_cond(
	    "setup: unknown card",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "],\"row\":{\"gambit\":[\"joker\"]}}") == BD_EBADSETUP);
	test_cond(
	    "setup: too many copies",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "],\"row\":{\"gambit\":[\"sabotage\",\"sabotage\","
	             "\"sabotage\"]}}") == BD_EBADSETUP);
	test_cond(
	    "setup: gambit in the command row",
	    setup_rc(2, NULL,
	             "{\"ships\":[[{\"value\":3,\"at\":[3,1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "],\"row\":{\"command\":[\"sabotage\"]}}") ==
	        BD_EBADSETUP);
	test_cond(
	    "setup: starting ship in reserve",
	    setup_rc(
	        2, NULL,
	        "{\"ships\":[[{\"value\":3,\"at\":\"reserve\"},{\"value\":2,"
	        "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	        "]}") == BD_EBADSETUP);
	test_cond(
	    "setup: dominance 6",
	    setup_rc(2, NULL,
	             "{\"dominance\":[6,1],\"ships\":[[{\"value\":3,\"at\":[3,"
	             "1]},{\"value\":2,"
	             "\"at\":[3,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1
	             "]}") == BD_EBADSETUP);

	json_t *cat = qt_rules.catalog();
	json_t *maps = json_object_get(cat, "maps");
	test_cond("catalog: 71 + 3 maps",
	          json_array_size(json_object_get(maps, "2")) +
	                  json_array_size(json_object_get(maps, "3")) +
	                  json_array_size(json_object_get(maps, "4")) ==
	              74);
	test_cond("catalog: every action shape (tactical has 3)",
	          json_array_size(json_object_get(cat, "actions")) ==
	              QT_NACTION_TYPES);
	test_cond("catalog: entanglement default true",
	          json_is_true(json_object_get(
	              json_object_get(json_object_get(cat, "options"),
	                              "entanglement"),
	              "default")));
	json_decref(cat);
}

/* §7.1 off-turn infamy.  Only STUBBORN raises a dominance on another
 * player's turn (a defender's win, §9.2 #28); this test needs no card, so
 * it raises seat 1's dominance directly, as STUBBORN does, during seat 0's
 * turn (STUBBORN itself: test_quantum_cards.c). */
static void case_off_turn_infamy(void)
{
	struct engine_game *g = alpha(
	    "{\"research\":[6,1],\"dominance\":[1,5],\"ships\":[[{\"value\":"
	    "3,\"at\":[3,0]},{\"value\":2,\"at\":[0,0]},{\"value\":4,\"at\":"
	    "\"scrapyard\"}]," FAR1 "]}");
	qt_gain_dominance(st(g), 1, 1);
	test_cond("§7.1 off-turn: seat 1 places its cube now",
	          engine_game_to_act(g) == 2 &&
	              count_listed(g, 1, "infamy") == 9 &&
	              count_listed(g, 0, "end_turn") == 0);
	test_cond("§7.1 off-turn infamy",
	          OK(g, 1, "{\"type\":\"infamy\",\"planet\":[4,4]}"));
	test_cond("§7.1 seat 0's turn goes on",
	          engine_game_to_act(g) == 1 && st(g)->picks[1] == 1 &&
	              st(g)->dominance[1] == 1 && cubes_of(g, 1, 4, 4) == 1);
	test_cond("step end", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("§14 the active player picks first",
	          engine_game_to_act(g) == 1);
	test_cond("step refresh", OK(g, 0, "{\"type\":\"refresh_cards\"}"));
	test_cond("§14 then the off-turn player",
	          engine_game_to_act(g) == 2 && st(g)->phase == QT_PH_CARDS &&
	              count_listed(g, 1, "refresh_cards") == 1);
	test_cond("step refresh 1", OK(g, 1, "{\"type\":\"refresh_cards\"}"));
	test_cond("§4 then seat 1's own turn", st(g)->phase == QT_PH_ACTIONS &&
	                                           st(g)->active == 1 &&
	                                           st(g)->picks[1] == 0);
	engine_game_free(g);

	/* §12.61: the last cube by off-turn infamy ends the game at once */
	g = alpha("{\"dominance\":[1,5],\"ships\":[[{\"value\":3,\"at\":[3,0]},"
	          "{\"value\":2,\"at\":[0,0]},{\"value\":4,\"at\":"
	          "\"scrapyard\"}]," FAR1
	          "],\"cubes\":[{\"seat\":1,\"planet\":[1,1]},{\"seat\":1,"
	          "\"planet\":[1,4]},{\"seat\":1,\"planet\":[1,7]},{\"seat\":1,"
	          "\"planet\":[4,1]}]}");
	qt_gain_dominance(st(g), 1, 1);
	test_cond("§12.61 off-turn last cube",
	          OK(g, 1, "{\"type\":\"infamy\",\"planet\":[4,4]}"));
	struct rules_result res;
	test_cond("§12.61 seat 1 wins on seat 0's turn",
	          engine_game_result(g, &res) == 1 && res.winners == 2u &&
	              engine_game_to_act(g) == 0);
	engine_game_free(g);

	/* §14: no legal infamy square: dominance stays 6.  Unreachable with
	 * entanglement on (maps have at least players*(cubes-1)+1 cube
	 * locations), so the board is filled directly, entanglement off. */
	g = game(2, "{\"entanglement\":false}",
	         "{\"ships\":[[{\"value\":3,\"at\":[3,0]},{\"value\":2,\"at\":"
	         "[0,0]},{\"value\":4,\"at\":\"scrapyard\"}]," FAR1 "]}",
	         9);
	struct qt_state *q = st(g);
	for (int p = 0; p < q->board.nplanets; p++)
		q->cube[p][0] = 1;
	q->cube[qt_board_planet_at(&q->board, 4, 4)][0] = 0;
	qt_gain_dominance(q, 0, 5);
	test_cond("§14 nowhere to place: dominance stays 6, no decision",
	          q->dominance[0] == 6 && q->ndecisions == 0);
	q->cube[qt_board_planet_at(&q->board, 1, 1)][0] = -1;
	qt_gain_dominance(q, 0, 1);
	test_cond("§14 retried on the next gain",
	          q->ndecisions == 1 && q->decision[0].kind == QT_DEC_INFAMY &&
	              count_listed(g, 0, "infamy") == 1);
	engine_game_free(g);
}

/* §12.59: 3 players on The Empty Center; the left 8s are full and seat 2
 * holds a cube on every planet with room: entanglement at 8+3. */
static void case_empty_center(void)
{
	struct engine_game *g = game(
	    3, "{\"map\":\"The empty center - The Void\"}",
	    "{\"first_player\":2,\"ships\":[[{\"value\":1,\"at\":[0,0]},"
	    "{\"value\":1,\"at\":[0,2]},{\"value\":1,\"at\":[2,0]}],"
	    "[{\"value\":1,\"at\":[6,0]},{\"value\":1,\"at\":[8,0]},"
	    "{\"value\":1,\"at\":[8,2]}],[{\"value\":5,\"at\":[0,4]},"
	    "{\"value\":6,\"at\":[2,4]},{\"value\":1,\"at\":[3,3]}]],"
	    "\"cubes\":[{\"seat\":0,\"planet\":[1,1]},{\"seat\":1,\"planet\":"
	    "[1,1]},{\"seat\":0,\"planet\":[4,1]},{\"seat\":1,\"planet\":"
	    "[4,1]},{\"seat\":0,\"planet\":[7,1]},{\"seat\":1,\"planet\":"
	    "[7,1]},{\"seat\":2,\"planet\":[1,4]},{\"seat\":2,\"planet\":"
	    "[1,7]},{\"seat\":2,\"planet\":[4,7]},{\"seat\":2,\"planet\":"
	    "[7,4]},{\"seat\":2,\"planet\":[7,7]}]}",
	    6);
	test_cond("§12.59 setup", g != NULL);
	if (!g)
		return;
	test_cond("§12.59 seat 0 could still build on (1,4) at 8",
	          qt_cube_allowed(
	              st(g), 0, qt_board_planet_at(&st(g)->board, 1, 4), NULL));
	test_cond("§12.59 seat 2: 5+6 = 8+3 on its own planet",
	          OK(g, 2, "{\"type\":\"construct\",\"planet\":[1,4]}"));
	struct rules_result res;
	test_cond("§12.59 the last cube wins",
	          engine_game_result(g, &res) == 1 && res.winners == 4u &&
	              cubes_of(g, 2, 1, 4) == 2);
	engine_game_free(g);
}

/* §9.1: an empty deck takes its shuffled discards. */
static void case_reshuffle(void)
{
	struct engine_game *g = cards_game(
	    ",\"row\":{\"command\":[\"agile\",\"brilliant\",\"cruel\"],"
	    "\"gambit\":[\"aggression\",\"momentum\",\"sabotage\"]},"
	    "\"decks\":{\"command\":[],\"gambit\":[]}");
	test_cond("§9.1 decks empty, the rest in the discards",
	          st(g)->gam_deck_n == 0 && st(g)->gam_discard_n == 19 &&
	              st(g)->cmd_deck_n == 0 && st(g)->cmd_discard_n == 28);
	test_cond("step take",
	          OK(g, 0, "{\"type\":\"take_card\",\"card\":\"aggression\"}"));
	test_cond("§9.1 refilled from the shuffled discards",
	          st(g)->row_gam[0] != QT_NO_CARD && st(g)->gam_deck_n == 18 &&
	              st(g)->gam_discard_n == 1);
	engine_game_free(g);
}

/* §4, §6.2: per-die limits, ability edge cases, hidden script. */
static void case_limits(void)
{
	struct engine_game *g = alpha(
	    "{\"ships\":[[{\"value\":5,\"at\":[3,0],\"ability_used\":true},"
	    "{\"value\":6,\"at\":[0,0],\"ability_used\":true},{\"value\":3,"
	    "\"at\":[5,5]},{\"value\":2,\"at\":\"scrapyard\"}],"
	    "[{\"value\":6,\"at\":[2,1]},{\"value\":6,\"at\":[8,6]},"
	    "{\"value\":6,\"at\":[6,8]}]],\"dice\":[4,2,6]}");
	test_cond("§6.2 no maneuver once the ability is used",
	          ILLEGAL(g, 0,
	                  "{\"type\":\"attack\",\"ship\":0,\"from\":[3,0],"
	                  "\"target\":[2,1]}"));
	test_cond("§6.2 the interceptor still moves orthogonally",
	          listed(g, 0, "{\"type\":\"move\",\"ship\":0,\"to\":[3,5]}"));
	test_cond("§6.2 scout ability used: no scout",
	          count_listed(g, 0, "scout") == 0 &&
	              ILLEGAL(g, 0, "{\"type\":\"scout\",\"ship\":1}"));
	test_cond("§6.2 no warp with a scrapyard ship",
	          ILLEGAL(g, 0, "{\"type\":\"warp\",\"ship\":2,\"with\":3}"));
	test_cond("§6.2 warp needs a 3",
	          ILLEGAL(g, 0, "{\"type\":\"warp\",\"ship\":1,\"with\":2}"));
	test_cond("§6.2 warp listed with both map ships",
	          count_listed(g, 0, "warp") == 2);
	json_t *v = engine_game_view(g, 0);
	char *text = json_dumps(v, JSON_COMPACT);
	test_cond("view: scripted dice stay hidden",
	          !json_object_get(v, "dice") &&
	              !json_object_get(v, "script") &&
	              !strstr(text, "[4,2,6]"));
	free(text);
	json_decref(v);
	test_cond("step move", OK(g, 0,
	                          "{\"type\":\"move\",\"ship\":2,"
	                          "\"to\":[5,7]}"));
	test_cond("step end 0", OK(g, 0, "{\"type\":\"end_turn\"}"));
	test_cond("§4 seat 1 plays", st(g)->active == 1 &&
	                                 st(g)->actions_left == 3 &&
	                                 ship(g, 0, 2)->moved == 0 &&
	                                 ship(g, 0, 0)->ability_used == 0);
	test_cond("step end 1", OK(g, 1, "{\"type\":\"end_turn\"}"));
	test_cond("§4 next turn: the die may move again",
	          OK(g, 0, "{\"type\":\"move\",\"ship\":2,\"to\":[5,4]}"));
	test_cond("§4 and the interceptor may maneuver again",
	          OK(g, 0,
	             "{\"type\":\"attack\",\"ship\":0,\"from\":[3,0],"
	             "\"target\":[2,1]}") &&
	              ship(g, 0, 0)->ability_used == 1);
	engine_game_free(g);
}

static void test_cases(void)
{
	case_entanglement();
	case_combat();
	case_void();
	case_aggression();
	case_momentum();
	case_relocation();
	case_sabotage();
	case_setup_phase();
	case_json();
	case_off_turn_infamy();
	case_empty_center();
	case_reshuffle();
	case_limits();
}

int main(void)
{
	test_cases();
	test_random_games();
	test_card_games();
	return test_report("quantum");
}
