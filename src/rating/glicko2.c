/* glicko2.c: Glicko-2, as Glickman's "Example of the Glicko-2 system"
 * (rating.h).  Step numbers below are the paper's. */
#include <math.h>

#include "rating.h"

static bool valid_score(double s)
{
	return s == 0.0 || s == 0.5 || s == 1.0;
}

/* g(phi), step 3 */
static double g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

/* E(mu, mu_j, phi_j), step 3 */
static double e_of(double mu, double mu_j, double phi_j)
{
	return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* f(x), step 5.1 */
static double f_of(double x, double delta, double phi, double v, double a)
{
	double ex = exp(x);
	double d = phi * phi + v + ex;
	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
	       (x - a) / (GLICKO2_TAU * GLICKO2_TAU);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double sigma, double phi, double v, double delta)
{
	double a = log(sigma * sigma);
	double big_a = a, big_b;
	if (delta * delta > phi * phi + v) {
		big_b = log(delta * delta - phi * phi - v);
	} else {
		double k = 1;
		while (f_of(a - k * GLICKO2_TAU, delta, phi, v, a) < 0)
			k += 1;
		big_b = a - k * GLICKO2_TAU;
	}
	double f_a = f_of(big_a, delta, phi, v, a);
	double f_b = f_of(big_b, delta, phi, v, a);
	while (fabs(big_b - big_a) > GLICKO2_EPSILON) {
		double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
		double f_c = f_of(big_c, delta, phi, v, a);
		if (f_c * f_b <= 0) {
			big_a = big_b;
			f_a = f_b;
		} else {
			f_a = f_a / 2.0;
		}
		big_b = big_c;
		f_b = f_c;
	}
	return exp(big_a / 2.0);
}

static bool valid_rating(const struct glicko2_rating *r)
{
	return isfinite(r->rating) && isfinite(r->rd) && r->rd > 0 &&
	       isfinite(r->volatility) && r->volatility > 0;
}

int glicko2_period(const struct glicko2_rating *player,
		   const struct glicko2_game *games, size_t n,
		   struct glicko2_rating *out)
{
	if (!valid_rating(player) || (n > 0 && !games))
		return BD_EBADREQUEST;
	for (size_t j = 0; j < n; j++)
		if (!isfinite(games[j].opponent_rating) ||
		    !isfinite(games[j].opponent_rd) ||
		    games[j].opponent_rd <= 0 || !valid_score(games[j].score))
			return BD_EBADREQUEST;
	/* Step 2 */
	double mu = (player->rating - GLICKO2_START_RATING) / GLICKO2_SCALE;
	double phi = player->rd / GLICKO2_SCALE;
	double sigma = player->volatility;
	if (n == 0) {
		/* Step 6 alone: a period without games */
		out->rating = player->rating;
		out->rd = sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE;
		out->volatility = sigma;
		return 0;
	}
	/* Steps 3 and 4 */
	double v_inv = 0, sum = 0;
	for (size_t j = 0; j < n; j++) {
		double mu_j = (games[j].opponent_rating - GLICKO2_START_RATING) /
			      GLICKO2_SCALE;
		double phi_j = games[j].opponent_rd / GLICKO2_SCALE;
		double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
		v_inv += g * g * e * (1.0 - e);
		sum += g * (games[j].score - e);
	}
	double v = 1.0 / v_inv;
	double delta = v * sum;
	/* Step 5 */
	double sigma_new = new_volatility(sigma, phi, v, delta);
	/* Step 6 */
	double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
	/* Step 7 */
	double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	double mu_new = mu + phi_new * phi_new * sum;
	/* Step 8 */
	out->rating = GLICKO2_SCALE * mu_new + GLICKO2_START_RATING;
	out->rd = GLICKO2_SCALE * phi_new;
	out->volatility = sigma_new;
	return 0;
}

double glicko2_idle_rd(double rd, double volatility, double idle_days)
{
	if (!isfinite(idle_days) || idle_days < 0)
		idle_days = 0;
	double phi = rd / GLICKO2_SCALE;
	double t = idle_days * GLICKO2_PERIODS_PER_DAY;
	double grown =
		sqrt(phi * phi + t * volatility * volatility) * GLICKO2_SCALE;
	return grown > GLICKO2_RD_MAX ? GLICKO2_RD_MAX : grown;
}

static double clamp_rd(double rd)
{
	if (rd < GLICKO2_RD_MIN)
		return GLICKO2_RD_MIN;
	return rd > GLICKO2_RD_MAX ? GLICKO2_RD_MAX : rd;
}

int glicko2_rate_game(const struct glicko2_rating *a, double idle_days_a,
		      const struct glicko2_rating *b, double idle_days_b,
		      double score_a, struct glicko2_rating *out_a,
		      struct glicko2_rating *out_b)
{
	if (!valid_rating(a) || !valid_rating(b) || !valid_score(score_a))
		return BD_EBADREQUEST;
	struct glicko2_rating ga = *a, gb = *b, na, nb;
	ga.rd = glicko2_idle_rd(a->rd, a->volatility, idle_days_a);
	gb.rd = glicko2_idle_rd(b->rd, b->volatility, idle_days_b);
	struct glicko2_game vs_b = {gb.rating, gb.rd, score_a};
	struct glicko2_game vs_a = {ga.rating, ga.rd, 1.0 - score_a};
	int rc = glicko2_period(&ga, &vs_b, 1, &na);
	if (rc == 0)
		rc = glicko2_period(&gb, &vs_a, 1, &nb);
	if (rc != 0)
		return rc;
	na.rd = clamp_rd(na.rd);
	nb.rd = clamp_rd(nb.rd);
	*out_a = na;
	*out_b = nb;
	return 0;
}

bool glicko2_provisional(double rd)
{
	return rd >= GLICKO2_PROVISIONAL_RD;
}
