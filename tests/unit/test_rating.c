/* test_rating: src/rating's arithmetic.  Glickman's worked example of the
 * Glicko-2 paper (a 1500/200/0.06 player's three-game rating period), then
 * properties over random ratings (a winner never loses rating, a loser
 * never gains, a deviation shrinks after a game and grows with idle time,
 * deviations stay in [30, 500]), then Weng-Lin's.  The agreement with
 * independent implementations to 1e-6 is tests/rating/ (the oracle
 * suite). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "rating/rating.h"
#include "testhelp.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* uniform in [lo, hi): xorshift64*, a fixed seed (the run repeats) */
static double uniform(double lo, double hi)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	uint64_t x = rng_state * 0x2545f4914f6cdd1dull;
	return lo + (hi - lo) * (double)(x >> 11) / 9007199254740992.0;
}

static void glickman_example(void)
{
	/* "Example of the Glicko-2 system", steps 1 to 8: rating 1500, RD
	 * 200, volatility 0.06, tau 0.5; beats 1400/30, loses to 1550/100
	 * and to 1700/300.  The paper: mu' = -0.2069, phi' = 0.8722,
	 * sigma' = 0.05999, so r' = 1464.06, RD' = 151.52.  The paper
	 * rounds its intermediate figures to four places: computed in full
	 * (as here and by every implementation of it) r' is 1464.0507 and
	 * sigma' 0.0599960, hence the tolerances of 0.02 and 0.00001. */
	struct glicko2_rating p = {1500, 200, 0.06}, out;
	struct glicko2_game games[3] = {
		{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
	int rc = glicko2_period(&p, games, 3, &out);
	test_cond("glickman: rated", rc == 0);
	test_cond("glickman: r' = 1464.06", fabs(out.rating - 1464.06) < 0.02);
	test_cond("glickman: RD' = 151.52", fabs(out.rd - 151.52) < 0.005);
	test_cond("glickman: sigma' = 0.05999",
		  fabs(out.volatility - 0.05999) < 0.00001);
	test_cond("glickman: mu' = -0.2069",
		  fabs((out.rating - 1500) / GLICKO2_SCALE + 0.2069) < 0.00005);
	test_cond("glickman: phi' = 0.8722",
		  fabs(out.rd / GLICKO2_SCALE - 0.8722) < 0.00005);
	/* the paper's intermediate step 6 alone: a period without games
	 * grows phi to sqrt(phi^2 + sigma^2) */
	rc = glicko2_period(&p, NULL, 0, &out);
	test_cond("no games: step 6 only",
		  rc == 0 && out.rating == 1500 &&
			  fabs(out.rd / GLICKO2_SCALE -
			       sqrt(pow(200 / GLICKO2_SCALE, 2) + 0.0036)) <
				  1e-12);
}

static void glicko2_refusals(void)
{
	struct glicko2_rating p = {1500, 200, 0.06}, out = {1, 2, 3};
	struct glicko2_game bad_score = {1500, 100, 0.7};
	struct glicko2_game bad_rd = {1500, 0, 1};
	test_cond("refused: score 0.7",
		  glicko2_period(&p, &bad_score, 1, &out) == BD_EBADREQUEST);
	test_cond("refused: opponent RD 0",
		  glicko2_period(&p, &bad_rd, 1, &out) == BD_EBADREQUEST);
	struct glicko2_rating nan_r = {NAN, 200, 0.06};
	test_cond("refused: NaN rating",
		  glicko2_rate_game(&nan_r, 0, &p, 0, 1, &out, &out) ==
			  BD_EBADREQUEST);
	test_cond("refusal writes nothing",
		  out.rating == 1 && out.rd == 2 && out.volatility == 3);
}

static void glicko2_properties(void)
{
	int winner_ok = 1, loser_ok = 1, bounds_ok = 1, shrink_ok = 1,
	    idle_ok = 1, draw_ok = 1;
	for (int i = 0; i < 20000; i++) {
		struct glicko2_rating a = {uniform(500, 2800),
					   uniform(GLICKO2_RD_MIN, GLICKO2_RD_MAX),
					   uniform(0.03, 0.09)};
		struct glicko2_rating b = {uniform(500, 2800),
					   uniform(GLICKO2_RD_MIN, GLICKO2_RD_MAX),
					   uniform(0.03, 0.09)};
		double ia = uniform(0, 400), ib = uniform(0, 400);
		struct glicko2_rating na, nb;
		if (glicko2_rate_game(&a, ia, &b, ib, 1, &na, &nb) != 0) {
			winner_ok = 0;
			continue;
		}
		if (na.rating < a.rating)
			winner_ok = 0;
		if (nb.rating > b.rating)
			loser_ok = 0;
		if (na.rd < GLICKO2_RD_MIN || na.rd > GLICKO2_RD_MAX ||
		    nb.rd < GLICKO2_RD_MIN || nb.rd > GLICKO2_RD_MAX)
			bounds_ok = 0;
		/* a draw moves the lower-rated player up (or keeps it) */
		struct glicko2_rating da, db;
		glicko2_rate_game(&a, ia, &b, ib, 0.5, &da, &db);
		if ((a.rating < b.rating && da.rating < a.rating) ||
		    (b.rating < a.rating && db.rating < b.rating))
			draw_ok = 0;
		/* Idle time grows a deviation, never past the cap. */
		double d1 = uniform(0, 1000), d2 = d1 + uniform(1, 1000);
		double r0 = glicko2_idle_rd(a.rd, a.volatility, 0);
		double r1 = glicko2_idle_rd(a.rd, a.volatility, d1);
		double r2 = glicko2_idle_rd(a.rd, a.volatility, d2);
		if (fabs(r0 - a.rd) > 1e-9 || r1 < r0 || r2 > GLICKO2_RD_MAX ||
		    (r1 < GLICKO2_RD_MAX && r2 <= r1))
			idle_ok = 0;
		/* A game shrinks the deviation of a player whose deviation is
		 * 100 or more (below that, one period's volatility can add
		 * more than a lopsided game tells: the paper's step 6), against
		 * an opponent within 400 points. */
		struct glicko2_rating c = {a.rating, uniform(100, GLICKO2_RD_MAX),
					   uniform(0.03, 0.07)};
		struct glicko2_rating d = {c.rating + uniform(-400, 400),
					   uniform(GLICKO2_RD_MIN, 350), 0.06};
		struct glicko2_rating nc, nd;
		glicko2_rate_game(&c, 0, &d, 0, uniform(0, 1) < 0.5 ? 0 : 1,
				  &nc, &nd);
		if (!(nc.rd < c.rd))
			shrink_ok = 0;
	}
	test_cond("glicko2: a winner never loses rating", winner_ok);
	test_cond("glicko2: a loser never gains rating", loser_ok);
	test_cond("glicko2: a draw never lowers the lower-rated", draw_ok);
	test_cond("glicko2: deviations kept in [30, 500]", bounds_ok);
	test_cond("glicko2: idle time grows a deviation", idle_ok);
	test_cond("glicko2: a game shrinks a deviation", shrink_ok);
	/* The figures of docs/ratings.md: RD 50 idle a year, 0.06 */
	test_cond("glicko2: RD 50 after 365 idle days is 104.9",
		  fabs(glicko2_idle_rd(50, 0.06, 365) - 104.88) < 0.01);
	test_cond("glicko2: provisional from 110",
		  glicko2_provisional(110) && !glicko2_provisional(109.99));
	/* A new player beating a new player: +162.3, RD 350 -> 290.3 */
	struct glicko2_rating n = {1500, 350, 0.06}, w, l;
	glicko2_rate_game(&n, 0, &n, 0, 1, &w, &l);
	test_cond("glicko2: two new players, winner 1662.3",
		  fabs(w.rating - 1662.31) < 0.01 &&
			  fabs(l.rating - 1337.69) < 0.01);
	test_cond("glicko2: two new players, RD 290.3",
		  fabs(w.rd - 290.32) < 0.01 && fabs(l.rd - w.rd) < 1e-9);
}

static void weng_lin_properties(void)
{
	int first_ok = 1, last_ok = 1, sigma_ok = 1, tie_ok = 1, rc_ok = 1;
	for (int i = 0; i < 5000; i++) {
		size_t n = 2 + (size_t)uniform(0, 3); /* 2..4 sides */
		size_t sizes[4], total = 0;
		int ranks[4];
		int team_game = uniform(0, 1) < 0.3;
		for (size_t t = 0; t < n; t++) {
			sizes[t] = team_game && n == 2 ? 2 : 1;
			total += sizes[t];
			ranks[t] = (int)t + 1; /* side 0 first, ... */
		}
		struct weng_lin_rating p[8], out[8];
		for (size_t k = 0; k < total; k++)
			p[k] = (struct weng_lin_rating){uniform(0, 50),
							uniform(0.5, 25.0 / 3)};
		if (weng_lin_rate(n, sizes, p, ranks, out) != 0) {
			rc_ok = 0;
			continue;
		}
		for (size_t k = 0; k < sizes[0]; k++)
			if (out[k].mu < p[k].mu)
				first_ok = 0;
		for (size_t k = total - sizes[n - 1]; k < total; k++)
			if (out[k].mu > p[k].mu)
				last_ok = 0;
		for (size_t k = 0; k < total; k++)
			if (!(out[k].sigma <= sqrt(p[k].sigma * p[k].sigma +
						   WENG_LIN_TAU * WENG_LIN_TAU)))
				sigma_ok = 0;
		/* two equal players tied: neither mu moves */
		struct weng_lin_rating eq[2] = {p[0], p[0]}, eo[2];
		size_t one[2] = {1, 1};
		int tied[2] = {1, 1};
		weng_lin_rate(2, one, eq, tied, eo);
		if (fabs(eo[0].mu - p[0].mu) > 1e-9 ||
		    fabs(eo[1].mu - p[0].mu) > 1e-9)
			tie_ok = 0;
	}
	test_cond("weng-lin: every case rated", rc_ok);
	test_cond("weng-lin: the first side never loses mu", first_ok);
	test_cond("weng-lin: the last side never gains mu", last_ok);
	test_cond("weng-lin: a game never widens sigma past tau's", sigma_ok);
	test_cond("weng-lin: equal players tied keep their mu", tie_ok);
	struct weng_lin_rating r = {WENG_LIN_MU, WENG_LIN_SIGMA};
	test_cond("weng-lin: a new player shows 0",
		  fabs(weng_lin_ordinal(&r)) < 1e-12);
	size_t sizes[2] = {1, 1};
	int ranks[2] = {1, 2};
	struct weng_lin_rating one[2] = {r, r}, o[2];
	test_cond("weng-lin: refused: 1 side",
		  weng_lin_rate(1, sizes, one, ranks, o) == BD_EBADREQUEST);
	size_t nine[2] = {5, 4};
	test_cond("weng-lin: refused: 9 players",
		  weng_lin_rate(2, nine, one, ranks, o) == BD_EBADREQUEST);
}

/* The categories of docs/ratings.md's table: each game's, and the sides
 * of its seats (engine_game_rating_category), and which names are known. */
static void categories(void)
{
	static const struct {
		const char *game, *options;
		int seats;
		const char *category;
		int side[4];
	} cases[] = {
	    {"agent-avenue", "{}", 2, "agent-avenue-base", {0, 1}},
	    {"agent-avenue", "{\"mode\":\"advanced\"}", 2,
	     "agent-avenue-advanced", {0, 1}},
	    {"agent-avenue", "{}", 3, "agent-avenue-team", {0, 1, 0}},
	    {"agent-avenue", "{\"mode\":\"advanced\"}", 4,
	     "agent-avenue-team", {0, 1, 0, 1}},
	    {"quantum", "{}", 2, "quantum-2p", {0, 1}},
	    {"quantum", "{}", 3, "quantum-3p", {0, 1, 2}},
	    {"quantum", "{}", 4, "quantum-4p", {0, 1, 2, 3}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		json_t *o = json_loads(cases[i].options, 0, NULL);
		struct engine_game *g = NULL;
		struct rules_why why;
		int ok = o && engine_game_new(engine_rules_find(cases[i].game),
		                              cases[i].seats, o, NULL, 7, &g,
		                              &why) == 0;
		char cat[32] = "";
		int side[4] = {-1, -1, -1, -1};
		if (ok)
			engine_game_rating_category(g, cat, sizeof cat, side);
		int same = ok && strcmp(cat, cases[i].category) == 0;
		for (int s = 0; same && s < cases[i].seats; s++)
			same = side[s] == cases[i].side[s];
		test_cond(cases[i].category, same);
		test_cond("known", engine_rating_category_known(cat));
		engine_game_free(g);
		json_decref(o);
	}
	test_cond("unknown: quantum-5p", !engine_rating_category_known("quantum-5p"));
	test_cond("unknown: agent-avenue-2p",
	          !engine_rating_category_known("agent-avenue-2p"));
	test_cond("unknown: NULL", !engine_rating_category_known(NULL));
}

int main(void)
{
	categories();
	glickman_example();
	glicko2_refusals();
	glicko2_properties();
	weng_lin_properties();
	return test_report("rating");
}
