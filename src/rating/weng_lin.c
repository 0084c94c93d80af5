/* weng_lin.c: Weng and Lin's Bayesian rating, Plackett-Luce model
 * ("A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011,
 * algorithm 4), with OpenSkill's defaults and its handling of ties
 * (rating.h). */
#include <math.h>

#include "rating.h"

int weng_lin_rate(size_t n_teams, const size_t *team_sizes,
		  const struct weng_lin_rating *players, const int *ranks,
		  struct weng_lin_rating *out)
{
	if (n_teams < 2 || n_teams > WENG_LIN_MAX_TEAMS || !team_sizes ||
	    !players || !ranks || !out)
		return BD_EBADREQUEST;
	size_t total = 0;
	for (size_t t = 0; t < n_teams; t++) {
		if (team_sizes[t] < 1 || team_sizes[t] > WENG_LIN_MAX_PLAYERS)
			return BD_EBADREQUEST;
		total += team_sizes[t];
	}
	if (total > WENG_LIN_MAX_PLAYERS)
		return BD_EBADREQUEST;
	for (size_t p = 0; p < total; p++)
		if (!isfinite(players[p].mu) || !isfinite(players[p].sigma) ||
		    players[p].sigma <= 0)
			return BD_EBADREQUEST;

	/* Each sigma grows by tau first (the dynamics of one game). */
	double sigma2[WENG_LIN_MAX_PLAYERS];
	for (size_t p = 0; p < total; p++)
		sigma2[p] = players[p].sigma * players[p].sigma +
			    WENG_LIN_TAU * WENG_LIN_TAU;
	/* A side's strength: the sums of its players' mu and sigma^2. */
	double team_mu[WENG_LIN_MAX_TEAMS] = {0}, team_s2[WENG_LIN_MAX_TEAMS] = {0};
	double c2 = 0;
	for (size_t t = 0, p = 0; t < n_teams; t++) {
		for (size_t k = 0; k < team_sizes[t]; k++, p++) {
			team_mu[t] += players[p].mu;
			team_s2[t] += sigma2[p];
		}
		c2 += team_s2[t] + WENG_LIN_BETA * WENG_LIN_BETA;
	}
	double c = sqrt(c2);
	/* sum_q: the sides placed at q's place or worse; a_q: how many
	 * sides share q's place. */
	double sum_q[WENG_LIN_MAX_TEAMS], a_q[WENG_LIN_MAX_TEAMS];
	for (size_t q = 0; q < n_teams; q++) {
		sum_q[q] = 0;
		a_q[q] = 0;
		for (size_t i = 0; i < n_teams; i++) {
			if (ranks[i] >= ranks[q])
				sum_q[q] += exp(team_mu[i] / c);
			if (ranks[i] == ranks[q])
				a_q[q] += 1;
		}
	}
	struct weng_lin_rating res[WENG_LIN_MAX_PLAYERS];
	for (size_t i = 0, p = 0; i < n_teams; i++) {
		double e_i = exp(team_mu[i] / c), omega = 0, delta = 0;
		for (size_t q = 0; q < n_teams; q++) {
			if (ranks[q] > ranks[i])
				continue;
			double quotient = e_i / sum_q[q];
			omega += (i == q ? 1 - quotient : -quotient) / a_q[q];
			delta += quotient * (1 - quotient) / a_q[q];
		}
		double gamma = sqrt(team_s2[i]) / c;
		double i_omega = omega * team_s2[i] / c;
		double i_delta = delta * team_s2[i] / (c * c) * gamma;
		for (size_t k = 0; k < team_sizes[i]; k++, p++) {
			double share = sigma2[p] / team_s2[i];
			double shrink = 1 - share * i_delta;
			res[p].mu = players[p].mu + share * i_omega;
			res[p].sigma =
				sqrt(sigma2[p]) *
				sqrt(shrink > WENG_LIN_KAPPA ? shrink
							      : WENG_LIN_KAPPA);
		}
	}
	for (size_t p = 0; p < total; p++)
		out[p] = res[p];
	return 0;
}

double weng_lin_ordinal(const struct weng_lin_rating *r)
{
	return r->mu - WENG_LIN_Z * r->sigma;
}
