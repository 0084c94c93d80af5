/* bots_eval.c: bots against each other (make bots-eval; never part of
 * make test).  Prints win rates with 95% Wilson score intervals.
 *
 *   bots_eval GAME SEATS GAMES A B [MAX_MS [FIRST]]
 *
 * A and B are bot specs as in a game's seating, e.g. random, mcts or
 * mcts:4 (an mcts bot at level 4).  Game i (seed i+1) seats A at seat
 * i mod SEATS and B at every other seat, so both sides play first as
 * often.  MAX_MS caps each decision (0: the level's default); a game
 * decided by a cut search is still a fair game, but no longer replays
 * bit for bit.  FIRST (default 0) starts at game FIRST instead of 0, so
 * that one long match can run as several processes over disjoint games
 * (their win counts add up to the one run's).  With BOTS_EVAL_PROGRESS
 * set in the environment, a line per game goes to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "botmatch.h"

static int spec_of(const char *s, struct bot_spec *out)
{
	if (!strcmp(s, "random")) {
		*out = (struct bot_spec){BOT_RANDOM, BOT_LEVEL_DEFAULT};
		return 0;
	}
	if (!strncmp(s, "mcts", 4)) {
		*out = (struct bot_spec){BOT_MCTS, BOT_LEVEL_DEFAULT};
		if (s[4] == ':')
			out->level = atoi(s + 5);
		return out->level >= BOT_LEVEL_MIN &&
		               out->level <= BOT_LEVEL_MAX &&
		               (s[4] == 0 || s[4] == ':')
		           ? 0
		           : -1;
	}
	return -1;
}

/* The 95% Wilson score interval of w wins in n games. */
static void wilson(long w, long n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p = (double)w / n, z2n = z * z / n;
	double mid = (p + z2n / 2) / (1 + z2n);
	double half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
	*lo = mid - half;
	*hi = mid + half;
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: bots_eval GAME SEATS GAMES A B "
		                "[MAX_MS [FIRST]]\n");
		return 2;
	}
	const struct rules *r = engine_rules_find(argv[1]);
	int seats = atoi(argv[2]);
	long games = atol(argv[3]);
	struct bot_spec a, b;
	unsigned max_ms = argc > 6 ? (unsigned)atoi(argv[6]) : 0;
	long first = argc > 7 ? atol(argv[7]) : 0;
	int progress = getenv("BOTS_EVAL_PROGRESS") != NULL;
	if (!r || engine_seats_check(r, seats, NULL) || games < 1 ||
	    spec_of(argv[4], &a) || spec_of(argv[5], &b) || first < 0) {
		fprintf(stderr, "bots_eval: bad arguments\n");
		return 2;
	}
	long wins = 0, losses = 0, unfinished = 0, moves = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = first; i < first + games; i++) {
		struct bot_spec spec[ENGINE_MAX_SEATS];
		int as = (int)(i % seats);
		for (int s = 0; s < seats; s++)
			spec[s] = s == as ? a : b;
		struct rules_why why = {0};
		long m;
		int w = play_bots(r, seats, NULL, (uint64_t)i + 1, spec, max_ms,
		                  &m, &why);
		if (w < 0) {
			fprintf(stderr, "bots_eval: game %ld: %s\n", i + 1,
			        why.detail);
			return 1;
		}
		moves += m;
		if (w == 0)
			unfinished++;
		else if (w >> as & 1)
			wins++;
		else
			losses++;
		/* progress on stderr (BOTS_EVAL_PROGRESS set): a long run
		 * cut short still tells */
		if (progress)
			fprintf(
			    stderr,
			    "bots-eval %s: game %ld: %s, %ld moves; %ld/%ld "
			    "won so far\n",
			    r->id, i + 1,
			    w == 0        ? "unfinished"
			    : w >> as & 1 ? "won"
			                  : "lost",
			    m, wins, i + 1 - first);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
	              (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	double lo, hi;
	wilson(wins, games, &lo, &hi);
	printf("bots-eval %s %d seats: %s vs %s: %ld/%ld won = %.1f%% "
	       "(95%% CI %.1f-%.1f%%), %ld lost, %ld unfinished; %.1f "
	       "moves/game, %.1f s%s\n",
	       r->id, seats, argv[4], argv[5], wins, games,
	       100.0 * wins / games, 100 * lo, 100 * hi, losses, unfinished,
	       (double)moves / games, secs, max_ms ? "" : " (default caps)");
	return 0;
}
