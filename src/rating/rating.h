/* rating.h: player ratings, pure arithmetic.  Its manual.
 *
 * Two systems (issue 33 goal 3, docs/ratings.md):
 *
 *  - Glicko-2 (glicko2.c) for games of two players, exactly as Mark
 *    Glickman's "Example of the Glicko-2 system" (glicko.net, 2022
 *    edition: the Illinois algorithm of step 5 with "f(C)f(B) <= 0"),
 *    each game its own rating period.  Ratings are on the Glicko scale
 *    (1500 = the start); the paper's internal scale is mu = (r - 1500) /
 *    173.7178, phi = RD / 173.7178.
 *  - Weng-Lin's Bayesian rating with the Plackett-Luce model (weng_lin.c),
 *    as OpenSkill implements it with its defaults, for three or four
 *    players and for teams: each side is ranked by finishing order, ties
 *    allowed.
 *
 * Every function here is pure: no I/O, no globals, no allocation.  Inputs
 * are read, results written to the caller's structs; out-parameters are
 * written only on success.  Errors are BD_EBADREQUEST (common/err.h) for
 * inputs outside the documented ranges (a NaN, an RD of 0, a score other
 * than 0, 0.5 or 1, a team count out of range...).
 */
#ifndef BD_RATING_H
#define BD_RATING_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/err.h"

/* ---- Glicko-2 ---------------------------------------------------------- */

#define GLICKO2_START_RATING 1500.0 /* a new player's rating */
#define GLICKO2_START_RD 350.0      /* a new player's deviation */
#define GLICKO2_START_VOLATILITY 0.06
#define GLICKO2_TAU 0.5        /* the system constant of the paper */
#define GLICKO2_SCALE 173.7178 /* Glicko scale / Glicko-2 scale */
#define GLICKO2_EPSILON 0.000001 /* step 5's convergence tolerance */
#define GLICKO2_RD_MIN 30.0  /* a deviation is kept in [RD_MIN, RD_MAX] */
#define GLICKO2_RD_MAX 500.0
/* A deviation of this or more marks a provisional rating (not on the
 * leaderboards; shown with a "?"). */
#define GLICKO2_PROVISIONAL_RD 110.0
/* Idle growth (glicko2_idle_rd): rating periods per day, Lichess's figure
 * (lila's RatingCalculator: ratingPeriodsPerDay = 0.21436, one period
 * about 4.665 days). */
#define GLICKO2_PERIODS_PER_DAY 0.21436

/* One player's Glicko-2 rating, on the Glicko scale. */
struct glicko2_rating {
	double rating;     /* around 1500; any finite value */
	double rd;         /* rating deviation, > 0 (kept in [30, 500]) */
	double volatility; /* sigma, > 0 (starts at 0.06) */
};

/* One game of a rating period, from the rated player's side. */
struct glicko2_game {
	double opponent_rating; /* the opponent's rating before the period */
	double opponent_rd;     /* the opponent's deviation, > 0 */
	double score;           /* 1 win, 0.5 draw, 0 loss */
};

/* glicko2_period: the paper's steps 2 to 8 for `player` over one rating
 * period holding `n` games (`games[0..n-1]`, n >= 0; n == 0 applies step 6
 * only: the deviation grows by one period's volatility).  Writes the new
 * rating, deviation and volatility to *out (which may be `player`).  No
 * bounds are applied to the deviation (glicko2_rate_game does that).
 * Returns 0, or BD_EBADREQUEST for a non-finite value, a deviation or
 * volatility <= 0 or a score outside {0, 0.5, 1}. */
int glicko2_period(const struct glicko2_rating *player,
		   const struct glicko2_game *games, size_t n,
		   struct glicko2_rating *out);

/* glicko2_idle_rd: the deviation of a player who played no rated game in
 * this category for `idle_days` days (>= 0; a fraction is fine), as
 * Lichess grows it: phi' = sqrt(phi^2 + t * sigma^2) with t = idle_days *
 * GLICKO2_PERIODS_PER_DAY rating periods, on the Glicko-2 scale, capped at
 * GLICKO2_RD_MAX.  A negative or non-finite idle time counts as 0. */
double glicko2_idle_rd(double rd, double volatility, double idle_days);

/* glicko2_rate_game: one game between a and b, its own rating period.
 * `score_a` is a's score (1, 0.5 or 0; b scores 1 - score_a);
 * `idle_days_a` / `idle_days_b` are the days since each player's last
 * rated game of the category (0 for a new player).  Each deviation first
 * grows with idle time (glicko2_idle_rd), then both players are rated
 * against the other's grown rating (glicko2_period, one game), then each
 * new deviation is kept in [GLICKO2_RD_MIN, GLICKO2_RD_MAX].  Writes
 * *out_a and *out_b on success (they may alias the inputs).  Returns 0 or
 * BD_EBADREQUEST as glicko2_period. */
int glicko2_rate_game(const struct glicko2_rating *a, double idle_days_a,
		      const struct glicko2_rating *b, double idle_days_b,
		      double score_a, struct glicko2_rating *out_a,
		      struct glicko2_rating *out_b);

/* glicko2_provisional: whether a rating of deviation `rd` is provisional
 * (rd >= GLICKO2_PROVISIONAL_RD). */
bool glicko2_provisional(double rd);

/* ---- Weng-Lin (Plackett-Luce) ------------------------------------------ */

#define WENG_LIN_MU 25.0            /* a new player's mu */
#define WENG_LIN_SIGMA (25.0 / 3.0) /* a new player's sigma */
#define WENG_LIN_BETA (25.0 / 6.0)  /* performance noise, sigma / 2 */
#define WENG_LIN_TAU (25.0 / 300.0) /* dynamics: added to every sigma
				       before a game (OpenSkill's tau) */
#define WENG_LIN_KAPPA 0.0001       /* floor of a sigma's shrink factor */
#define WENG_LIN_Z 3.0              /* shown rating: mu - Z * sigma */
#define WENG_LIN_MAX_TEAMS 4
#define WENG_LIN_MAX_PLAYERS 8 /* over all teams */

/* One player's Weng-Lin rating. */
struct weng_lin_rating {
	double mu;    /* skill estimate; any finite value */
	double sigma; /* its uncertainty, > 0 */
};

/* weng_lin_rate: one game of `n_teams` sides (2..WENG_LIN_MAX_TEAMS).
 * Side t has team_sizes[t] >= 1 players; `players` holds them all, side 0's
 * first, then side 1's, ... (at most WENG_LIN_MAX_PLAYERS).  `ranks[t]` is
 * side t's finishing place: lower is better, equal places are a tie (1, 2,
 * 2 is a win and a shared second).  The Plackett-Luce update of Weng and
 * Lin (2011, algorithm 4) with OpenSkill's defaults: each sigma first
 * becomes sqrt(sigma^2 + tau^2), gamma = sqrt(team variance) / c.  Writes
 * the new ratings to out[] in the order of `players` (out may equal
 * players).  Returns 0 or BD_EBADREQUEST. */
int weng_lin_rate(size_t n_teams, const size_t *team_sizes,
		  const struct weng_lin_rating *players, const int *ranks,
		  struct weng_lin_rating *out);

/* weng_lin_ordinal: the rating shown for (mu, sigma): mu - 3 sigma. */
double weng_lin_ordinal(const struct weng_lin_rating *r);

#endif
