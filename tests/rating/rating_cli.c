/* rating_cli: src/rating behind a line protocol, for the oracle suite
 * (tests/rating/oracle.mjs compares its answers with npm's glicko2 and
 * openskill).  Reads cases on stdin, one a line, and answers each with one
 * line of numbers (%.17g) or "error N":
 *
 *   game R RD VOL IDLE_DAYS R RD VOL IDLE_DAYS SCORE_A
 *       glicko2_rate_game -> R RD VOL R RD VOL (a's, then b's)
 *   period R RD VOL N (OPP_R OPP_RD SCORE){N}
 *       glicko2_period -> R RD VOL
 *   wl N_TEAMS SIZE{N_TEAMS} RANK{N_TEAMS} (MU SIGMA){sum of sizes}
 *       weng_lin_rate -> (MU SIGMA){sum of sizes}, in the input's order
 */
#include <stdio.h>
#include <string.h>

#include "rating/rating.h"

static int read_d(double *x)
{
	return scanf("%lf", x) == 1;
}

int main(void)
{
	char kind[16];
	while (scanf("%15s", kind) == 1) {
		if (strcmp(kind, "game") == 0) {
			struct glicko2_rating a, b, na, nb;
			double ia, ib, s;
			if (!read_d(&a.rating) || !read_d(&a.rd) ||
			    !read_d(&a.volatility) || !read_d(&ia) ||
			    !read_d(&b.rating) || !read_d(&b.rd) ||
			    !read_d(&b.volatility) || !read_d(&ib) || !read_d(&s))
				return 2;
			int rc = glicko2_rate_game(&a, ia, &b, ib, s, &na, &nb);
			if (rc)
				printf("error %d\n", rc);
			else
				printf("%.17g %.17g %.17g %.17g %.17g %.17g\n",
				       na.rating, na.rd, na.volatility, nb.rating,
				       nb.rd, nb.volatility);
		} else if (strcmp(kind, "period") == 0) {
			struct glicko2_rating p, out;
			struct glicko2_game games[64];
			size_t n;
			if (!read_d(&p.rating) || !read_d(&p.rd) ||
			    !read_d(&p.volatility) || scanf("%zu", &n) != 1 ||
			    n > 64)
				return 2;
			for (size_t j = 0; j < n; j++)
				if (!read_d(&games[j].opponent_rating) ||
				    !read_d(&games[j].opponent_rd) ||
				    !read_d(&games[j].score))
					return 2;
			int rc = glicko2_period(&p, games, n, &out);
			if (rc)
				printf("error %d\n", rc);
			else
				printf("%.17g %.17g %.17g\n", out.rating, out.rd,
				       out.volatility);
		} else if (strcmp(kind, "wl") == 0) {
			size_t n, sizes[WENG_LIN_MAX_TEAMS], total = 0;
			int ranks[WENG_LIN_MAX_TEAMS];
			struct weng_lin_rating p[WENG_LIN_MAX_PLAYERS],
				out[WENG_LIN_MAX_PLAYERS];
			if (scanf("%zu", &n) != 1 || n > WENG_LIN_MAX_TEAMS)
				return 2;
			for (size_t t = 0; t < n; t++) {
				if (scanf("%zu", &sizes[t]) != 1)
					return 2;
				total += sizes[t];
			}
			if (total > WENG_LIN_MAX_PLAYERS)
				return 2;
			for (size_t t = 0; t < n; t++)
				if (scanf("%d", &ranks[t]) != 1)
					return 2;
			for (size_t k = 0; k < total; k++)
				if (!read_d(&p[k].mu) || !read_d(&p[k].sigma))
					return 2;
			int rc = weng_lin_rate(n, sizes, p, ranks, out);
			if (rc) {
				printf("error %d\n", rc);
				continue;
			}
			for (size_t k = 0; k < total; k++)
				printf("%s%.17g %.17g", k ? " " : "", out[k].mu,
				       out[k].sigma);
			printf("\n");
		} else {
			return 2;
		}
	}
	return 0;
}
