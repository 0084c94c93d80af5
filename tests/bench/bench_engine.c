/* bench_engine.c: in-process figures for Agent Avenue, linked against the
 * release objects.  Run by tests/bench.sh (make bench); prints a table and
 * never judges the numbers.
 *
 *   bench_engine [-o SUMMARY_FILE] [-t SECONDS_PER_RUN]
 *
 * Every figure is one warm-up run and BENCH_RUNS measured runs of about
 * SECONDS_PER_RUN each; the median run is reported.  Games are seeded
 * (seed 1, 2, 3, ...) and each seat picks uniformly among the actions the
 * engine lists, drawing from its own seeded generator, so two runs play
 * the same games.
 *
 *   random games    engine_game_new, then list, choose and apply until the
 *                   game is over: whole games per second.
 *   apply           engine_game_apply alone, over the logged actions of
 *                   LOG_GAMES finished games (already parsed JSON).
 *   full replay     what the server does on a cache miss (load_fresh and
 *                   load_apply_logged in src/service/load.c): parse the
 *                   options, set up from the seed, then json_loads and
 *                   apply every logged move text of a finished game.
 *   cache hit       engine_cache_get of a cached state (a copy the caller
 *                   frees), in a cache holding 1 game and in one full at
 *                   the server's capacity, CACHE_GAMES (src/main.c).
 *
 * Then for every registered game (bench_games), one line each:
 *   playouts G N games/s       random games through the native interface
 *   playouts-json G N games/s  the same through the JSON path
 *   playouts-apply-only G N games/s  the ceiling of any playout: the
 *                              moves of 16 such games recorded, then
 *                              applied (engine_game_step) with no
 *                              listing and no draw
 *   moves G ...                their moves per second, all three
 *   mcts G N iterations/s      bot_choose_mcts from early positions
 *   replay quantum 1000 moves  a 1,000-move Quantum log replayed as on a
 *                              cache miss (json_loads + engine_game_apply)
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/bot.h"
#include "engine/cache.h"
#include "engine/engine.h"
#include "engine/rng.h"
#include "games/agent_avenue/aa.h"

#include "benchutil.h"

#define LOG_GAMES   256  /* finished games kept for apply and replay */
#define CACHE_GAMES 4096 /* the server cache's capacity (src/main.c) */
#define PICK_SALT   0x9e3779b97f4a7c15ull /* seat choices: seed ^ salt */

/* One finished game: its seed, its moves, and its states. */
struct logged_game {
	uint64_t seed;
	size_t n;        /* moves */
	int *seat;       /* n seats */
	json_t **action; /* n actions, owned */
	char **text;     /* n actions as the store keeps them */
	struct engine_game *start, *end;
};

const char *bench_prog = "bench_engine";

static int lowest_seat(unsigned bits)
{
	int s = 0;
	while (!(bits & 1u)) {
		bits >>= 1;
		s++;
	}
	return s;
}

/* Plays the random game of `seed` to its end and returns its move count.
 * When lg is not NULL the game is recorded there. */
static size_t play_random(const struct rules *r, uint64_t seed,
                          struct logged_game *lg)
{
	struct engine_game *g;
	struct rules_why why;
	if (engine_game_new(r, 2, NULL, NULL, seed, &g, &why) < 0)
		die("engine_game_new", why.detail);
	struct rng pick;
	rng_seed(&pick, seed ^ PICK_SALT);
	size_t cap = 64, moves = 0;
	if (lg) {
		lg->seed = seed;
		lg->start = engine_game_clone(g);
		lg->seat = xmalloc(cap * sizeof *lg->seat);
		lg->action = xmalloc(cap * sizeof *lg->action);
	}
	unsigned due;
	while ((due = engine_game_to_act(g)) != 0) {
		int seat = lowest_seat(due);
		json_t *acts = engine_game_actions(g, seat);
		size_t n = json_array_size(acts);
		if (n == 0)
			die("a seat to act has no listed action", NULL);
		json_t *a = json_array_get(acts, rng_below(&pick, (uint32_t)n));
		if (engine_game_apply(g, seat, a, &why) < 0)
			die("a listed action was refused", why.detail);
		if (lg) {
			if (moves == cap) {
				cap *= 2;
				lg->seat =
				    realloc(lg->seat, cap * sizeof *lg->seat);
				lg->action = realloc(lg->action,
				                     cap * sizeof *lg->action);
				if (!lg->seat || !lg->action)
					die("out of memory", NULL);
			}
			lg->seat[moves] = seat;
			lg->action[moves] = json_incref(a);
		}
		json_decref(acts);
		if (++moves > 100000)
			die("a game did not end", NULL);
	}
	if (lg) {
		lg->n = moves;
		lg->end = g;
		lg->text = xmalloc(moves * sizeof *lg->text);
		for (size_t i = 0; i < moves; i++) {
			/* as src/service/move.c hands it to the store */
			lg->text[i] = json_dumps(lg->action[i],
			                         JSON_COMPACT | JSON_SORT_KEYS);
			if (!lg->text[i])
				die("json_dumps", NULL);
		}
	} else {
		engine_game_free(g);
	}
	return moves;
}

/* ---- the figures: each runs for about `secs` and returns a rate ---- */

static double secs_per_run = 0.4;
static uint64_t next_seed = 1; /* random games: seeds never repeat */

/* Whole random games per second; *moves_per_s gets their moves. */
static double run_games(const struct rules *r, double *moves_per_s)
{
	size_t games = 0, moves = 0;
	double t0 = bench_now(), t;
	do {
		moves += play_random(r, next_seed++, NULL);
		games++;
	} while ((t = bench_now() - t0) < secs_per_run);
	*moves_per_s = (double)moves / t;
	return (double)games / t;
}

/* engine_game_apply calls per second over the logged games.  Each game
 * restarts from a memcpy of its first state (about 200 bytes). */
static double run_apply(const struct logged_game *lg, size_t nlg,
                        struct engine_game *buf, size_t size)
{
	size_t moves = 0;
	struct rules_why why;
	double t0 = bench_now(), t;
	size_t i = 0;
	do {
		const struct logged_game *l = &lg[i++ % nlg];
		memcpy(buf, l->start, size);
		for (size_t m = 0; m < l->n; m++)
			if (engine_game_apply(buf, l->seat[m], l->action[m],
			                      &why) < 0)
				die("a logged move no longer applies",
				    why.detail);
		moves += l->n;
	} while ((t = bench_now() - t0) < secs_per_run);
	return (double)moves / t;
}

/* One replay as on a cache miss; returns the rebuilt game. */
static struct engine_game *replay(const struct rules *r,
                                  const struct logged_game *l)
{
	struct engine_game *g;
	struct rules_why why;
	json_t *options = json_loads("{}", 0, NULL);
	if (!options ||
	    engine_game_new(r, 2, options, NULL, l->seed, &g, &why) < 0)
		die("replay setup", why.detail);
	json_decref(options);
	for (size_t m = 0; m < l->n; m++) {
		json_t *a = json_loads(l->text[m], 0, NULL);
		if (!a || engine_game_apply(g, l->seat[m], a, &why) < 0)
			die("a logged move no longer replays", why.detail);
		json_decref(a);
	}
	return g;
}

/* Full replays per second. */
static double run_replay(const struct rules *r, const struct logged_game *lg,
                         size_t nlg)
{
	size_t n = 0;
	double t0 = bench_now(), t;
	do {
		engine_game_free(replay(r, &lg[n++ % nlg]));
	} while ((t = bench_now() - t0) < secs_per_run);
	return (double)n / t;
}

/* engine_cache_get hits per second, keys[0..nkeys) in a scrambled order
 * (keys the cache holds). */
static double run_hit(struct engine_cache *c, const int64_t *keys, size_t nkeys)
{
	size_t n = 0;
	uint64_t x = 12345;
	double t0 = bench_now(), t;
	do {
		for (int k = 0; k < 256; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			int64_t key = keys[(x >> 33) % nkeys];
			struct engine_game *g = engine_cache_get(c, key);
			if (!g)
				die("a cached game missed", NULL);
			engine_game_free(g);
		}
		n += 256;
	} while ((t = bench_now() - t0) < secs_per_run);
	return (double)n / t;
}

/* ---- running each figure: a warm-up run, then the median of
 * BENCH_RUNS ---- */

enum fig { F_GAMES, F_PLAY_MOVES, F_APPLY, F_REPLAY, F_HIT1, F_HITFULL, NFIG };

struct ctx {
	const struct rules *r;
	struct logged_game *lg;
	size_t nlg;
	struct engine_game *buf;
	size_t size;
	struct engine_cache *one, *full;
	int64_t *kept; /* the keys the full cache kept: its shards' LRUs
	                * each hold 1/16 of its capacity, so a shard that
	                * drew more than its share of keys dropped some */
	size_t nkept;
};

/* One run of figure f (F_GAMES also fills F_PLAY_MOVES). */
static void run(struct ctx *c, enum fig f, double out[NFIG])
{
	switch (f) {
	case F_GAMES:
		out[F_GAMES] = run_games(c->r, &out[F_PLAY_MOVES]);
		break;
	case F_APPLY:
		out[F_APPLY] = run_apply(c->lg, c->nlg, c->buf, c->size);
		break;
	case F_REPLAY:
		out[F_REPLAY] = run_replay(c->r, c->lg, c->nlg);
		break;
	case F_HIT1:
		out[F_HIT1] = run_hit(c->one, (const int64_t[]){1}, 1);
		break;
	case F_HITFULL:
		out[F_HITFULL] = run_hit(c->full, c->kept, c->nkept);
		break;
	default:
		break;
	}
}

/* ---- every registered game: playouts, search, a long replay ---- */

/* Random games of r (its fewest seats), seeds from next_seed, for about
 * secs_per_run: through the native interface (engine_game_pick, then
 * engine_game_step in place, as a search's playout does) or, with json
 * set, the JSON path (engine_game_actions, then engine_game_apply on a
 * copy, as before issue 10).  Both play the same games.  Returns games/s;
 * *moves_per_s gets their moves. */
static double run_playouts(const struct rules *r, int json, double *moves_per_s)
{
	size_t games = 0, moves = 0;
	struct engine_actions list = {0};
	struct rules_why why;
	double t0 = bench_now(), t;
	do {
		uint64_t seed = next_seed++;
		struct engine_game *g;
		if (engine_game_new(r, r->min_seats, NULL, NULL, seed, &g,
		                    &why) < 0)
			die("engine_game_new", why.detail);
		struct rng pick;
		rng_seed(&pick, seed ^ PICK_SALT);
		unsigned due;
		while ((due = engine_game_to_act(g)) != 0) {
			int seat = lowest_seat(due);
			int rc;
			if (json) {
				json_t *acts = engine_game_actions(g, seat);
				size_t n = json_array_size(acts);
				rc = n ? engine_game_apply(
				             g, seat,
				             json_array_get(
				                 acts,
				                 rng_below(&pick, (uint32_t)n)),
				             &why)
				       : -1;
				json_decref(acts);
			} else {
				struct engine_action a;
				rc = engine_game_pick(g, seat, &pick, &list,
				                      &a) > 0
				         ? engine_game_step(g, seat, &a, &why)
				         : -1;
			}
			if (rc < 0)
				die("a random playout failed", NULL);
			moves++;
		}
		engine_game_free(g);
		games++;
	} while ((t = bench_now() - t0) < secs_per_run);
	engine_actions_free(&list);
	*moves_per_s = (double)moves / t;
	return (double)games / t;
}

#define CEILING_GAMES 16 /* random games the apply-only figure replays */

/* A random game's moves, native, as run_playouts plays them. */
struct native_log {
	uint64_t seed;
	size_t n;
	int *seat;
	struct engine_action *a;
};

/* The ceiling of any playout of r: the moves of CEILING_GAMES random
 * games (seeds 1, 2, ...; played as run_playouts plays them) recorded
 * first, then applied again and again with engine_game_step alone, no
 * listing and no draw: games/s, and *moves_per_s.  A playout that chose
 * its moves for free would run this fast. */
static double run_applies(const struct rules *r, double *moves_per_s)
{
	static struct native_log log[CEILING_GAMES];
	static const struct rules *logged; /* whose games log holds */
	struct engine_actions list = {0};
	struct rules_why why;
	for (int k = 0; k < CEILING_GAMES; k++) {
		struct native_log *l = &log[k];
		if (logged == r)
			break; /* recorded by an earlier run */
		free(l->seat); /* another game's */
		free(l->a);
		*l = (struct native_log){0};
		l->seed = (uint64_t)k + 1;
		struct engine_game *g;
		if (engine_game_new(r, r->min_seats, NULL, NULL, l->seed, &g,
		                    &why) < 0)
			die("engine_game_new", why.detail);
		struct rng pick;
		rng_seed(&pick, l->seed ^ PICK_SALT);
		size_t cap = 0;
		unsigned due;
		while ((due = engine_game_to_act(g)) != 0) {
			int seat = lowest_seat(due);
			if (l->n == cap) {
				cap = cap ? 2 * cap : 256;
				l->seat =
				    realloc(l->seat, cap * sizeof *l->seat);
				l->a = realloc(l->a, cap * sizeof *l->a);
				if (!l->seat || !l->a)
					die("out of memory", NULL);
			}
			if (engine_game_pick(g, seat, &pick, &list,
			                     &l->a[l->n]) <= 0 ||
			    engine_game_step(g, seat, &l->a[l->n], &why))
				die("a random playout failed", NULL);
			l->seat[l->n++] = seat;
		}
		engine_game_free(g);
	}
	logged = r;
	engine_actions_free(&list);
	size_t games = 0, moves = 0;
	double t0 = bench_now(), t;
	do {
		const struct native_log *l = &log[games % CEILING_GAMES];
		struct engine_game *g;
		if (engine_game_new(r, r->min_seats, NULL, NULL, l->seed, &g,
		                    &why) < 0)
			die("engine_game_new", why.detail);
		for (size_t m = 0; m < l->n; m++)
			if (engine_game_step(g, l->seat[m], &l->a[m], &why))
				die("a recorded move no longer applies",
				    why.detail);
		engine_game_free(g);
		moves += l->n;
		games++;
	} while ((t = bench_now() - t0) < secs_per_run);
	*moves_per_s = (double)moves / t;
	return (double)games / t;
}

/* MCTS iterations per second (bot_choose_mcts, 200 iterations a choice)
 * from the positions after 6..25 random moves of seeded games. */
static double run_mcts(const struct rules *r)
{
	unsigned long its = 0;
	double t0 = bench_now(), t;
	uint64_t seed = 1;
	struct rules_why why;
	struct bot_spec rnd = {BOT_RANDOM, BOT_LEVEL_DEFAULT};
	do {
		struct engine_game *g;
		if (engine_game_new(r, r->min_seats, NULL, NULL, seed, &g,
		                    &why) < 0)
			die("engine_game_new", why.detail);
		struct engine_action a;
		for (int m = 0; m < 6 + (int)(seed % 20); m++) {
			unsigned due = engine_game_to_act(g);
			if (!due ||
			    bot_choose_native(g, lowest_seat(due), &rnd,
			                      seed + (uint64_t)m, 0, &a,
			                      NULL) ||
			    engine_game_play(g, lowest_seat(due), &a, &why))
				break;
		}
		unsigned due = engine_game_to_act(g);
		struct bot_report rep = {0};
		if (due &&
		    bot_choose_mcts(g, lowest_seat(due), 200, seed, &a, &rep))
			die("bot_choose_mcts", NULL);
		its += rep.iterations;
		engine_game_free(g);
		seed++;
	} while ((t = bench_now() - t0) < secs_per_run);
	return (double)its / t;
}

#define LONG_LOG 1000 /* moves of the long replay */

/* The first LONG_LOG moves of a random game of r that lasts that long,
 * as logged texts (texts[i], seats[i]); returns its seed. */
static uint64_t long_log(const struct rules *r, char **texts, int *seats)
{
	struct rules_why why;
	for (uint64_t seed = 1;; seed++) {
		struct engine_game *g;
		if (engine_game_new(r, 2, NULL, NULL, seed, &g, &why) < 0)
			die("engine_game_new", why.detail);
		struct rng pick;
		rng_seed(&pick, seed ^ PICK_SALT);
		size_t m = 0;
		unsigned due;
		while (m < LONG_LOG && (due = engine_game_to_act(g)) != 0) {
			int seat = lowest_seat(due);
			json_t *acts = engine_game_actions(g, seat);
			json_t *a = json_array_get(
			    acts,
			    rng_below(&pick, (uint32_t)json_array_size(acts)));
			if (!a || engine_game_apply(g, seat, a, &why) < 0)
				die("a random move failed", NULL);
			texts[m] = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS);
			seats[m++] = seat;
			json_decref(acts);
		}
		engine_game_free(g);
		if (m == LONG_LOG)
			return seed;
		for (size_t i = 0; i < m; i++)
			free(texts[i]);
	}
}

/* Replays of the long log per second, as on a cache miss: setup from the
 * seed, then json_loads and engine_game_apply of every move. */
static double run_long_replay(const struct rules *r, uint64_t seed,
                              char **texts, const int *seats)
{
	size_t n = 0;
	struct rules_why why;
	double t0 = bench_now(), t;
	do {
		struct engine_game *g;
		if (engine_game_new(r, 2, NULL, NULL, seed, &g, &why) < 0)
			die("engine_game_new", why.detail);
		for (size_t m = 0; m < LONG_LOG; m++) {
			json_t *a = json_loads(texts[m], 0, NULL);
			if (!a || engine_game_apply(g, seats[m], a, &why) < 0)
				die("the long log no longer replays",
				    why.detail);
			json_decref(a);
		}
		engine_game_free(g);
		n++;
	} while ((t = bench_now() - t0) < secs_per_run);
	return (double)n / t;
}

/* The median of BENCH_RUNS runs of f after a warm-up. */
#define MEDIAN_OF(expr)                                                        \
	({                                                                     \
		double runs_[BENCH_RUNS];                                      \
		(void)(expr);                                                  \
		for (int k_ = 0; k_ < BENCH_RUNS; k_++)                        \
			runs_[k_] = (expr);                                    \
		bench_median(runs_, BENCH_RUNS);                               \
	})

/* Playouts native and JSON, MCTS iterations, per registered game; then
 * the replay of a 1,000-move Quantum log. */
static void bench_games(const char *summary)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	printf("\nengine: every game, %d seats or its fewest (1 warm-up + "
	       "median of %d runs)\n",
	       2, BENCH_RUNS);
	for (size_t i = 0; i < n; i++) {
		const struct rules *r = all[i];
		double mv, mvj;
		double gs = MEDIAN_OF(run_playouts(r, 0, &mv));
		double gsj = MEDIAN_OF(run_playouts(r, 1, &mvj));
		double mva;
		double gsa = MEDIAN_OF(run_applies(r, &mva));
		double its = MEDIAN_OF(run_mcts(r));
		printf("playouts %s %.0f games/s\n", r->id, gs);
		printf("playouts-json %s %.0f games/s\n", r->id, gsj);
		printf("playouts-apply-only %s %.0f games/s\n", r->id, gsa);
		printf("moves %s %.0f moves/s (native), %.0f moves/s (json), "
		       "%.0f moves/s (apply only)\n",
		       r->id, mv, mvj, mva);
		printf("mcts %s %.0f iterations/s\n", r->id, its);
		char label[96];
		snprintf(label, sizeof label, "playouts %s", r->id);
		bench_summary(summary, label, gs, "games/s");
		snprintf(label, sizeof label, "playouts-json %s", r->id);
		bench_summary(summary, label, gsj, "games/s");
		snprintf(label, sizeof label, "playouts-apply-only %s", r->id);
		bench_summary(summary, label, gsa, "games/s");
		snprintf(label, sizeof label, "mcts %s", r->id);
		bench_summary(summary, label, its, "iterations/s");
	}
	const struct rules *q = engine_rules_find("quantum");
	if (!q)
		return;
	char *texts[LONG_LOG];
	int seats[LONG_LOG];
	uint64_t seed = long_log(q, texts, seats);
	double per_s = MEDIAN_OF(run_long_replay(q, seed, texts, seats));
	printf("replay quantum %d moves %.3f ms\n", LONG_LOG, 1e3 / per_s);
	bench_summary(summary, "replay of a 1000-move quantum log", 1e3 / per_s,
	              "ms");
	for (size_t m = 0; m < LONG_LOG; m++)
		free(texts[m]);
}

static void usage(void)
{
	fputs("usage: bench_engine [-o SUMMARY_FILE] [-t SECONDS_PER_RUN]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *summary = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "o:t:")) != -1) {
		if (opt == 'o')
			summary = optarg;
		else if (opt == 't' && atof(optarg) > 0)
			secs_per_run = atof(optarg);
		else
			usage();
	}
	json_object_seed(1);
	struct ctx c = {0};
	c.r = engine_rules_find("agent-avenue");
	if (!c.r)
		die("agent-avenue is not registered", NULL);
	c.size = engine_game_size(c.r);

	/* Finished games for apply and replay; the replay must rebuild the
	 * very state the game ended in, or the figure means nothing. */
	c.nlg = LOG_GAMES;
	c.lg = calloc(c.nlg, sizeof *c.lg);
	if (!c.lg)
		die("out of memory", NULL);
	c.buf = xmalloc(c.size);
	size_t total_moves = 0;
	for (size_t i = 0; i < c.nlg; i++) {
		play_random(c.r, 1000000 + i, &c.lg[i]);
		total_moves += c.lg[i].n;
		struct engine_game *g = replay(c.r, &c.lg[i]);
		if (memcmp(g, c.lg[i].end, c.size) != 0)
			die("a replay differs from the game it replays", NULL);
		engine_game_free(g);
	}
	/* Caches: one holding a single finished game, one full at the
	 * server's capacity with distinct finished games. */
	c.one = engine_cache_new(1);
	c.full = engine_cache_new(CACHE_GAMES);
	if (!c.one || !c.full)
		die("engine_cache_new", NULL);
	engine_cache_put(c.one, 1, c.lg[0].end);
	for (size_t k = 0; k < CACHE_GAMES; k++)
		engine_cache_put(c.full, (int64_t)k + 1, c.lg[k % c.nlg].end);
	c.kept = xmalloc(CACHE_GAMES * sizeof *c.kept);
	for (int64_t key = 1; key <= CACHE_GAMES; key++) {
		struct engine_game *g = engine_cache_get(c.full, key);
		if (g)
			c.kept[c.nkept++] = key;
		engine_game_free(g);
	}
	if (c.nkept == 0)
		die("the full cache kept no game", NULL);

	double runs[NFIG][BENCH_RUNS], med[NFIG];
	static const enum fig order[] = {F_GAMES, F_APPLY, F_REPLAY, F_HIT1,
	                                 F_HITFULL};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		double out[NFIG];
		run(&c, order[i], out); /* warm-up */
		for (int k = 0; k < BENCH_RUNS; k++) {
			run(&c, order[i], out);
			runs[order[i]][k] = out[order[i]];
			if (order[i] == F_GAMES)
				runs[F_PLAY_MOVES][k] = out[F_PLAY_MOVES];
		}
	}
	for (int f = 0; f < NFIG; f++)
		med[f] = bench_median(runs[f], BENCH_RUNS);

	double mean_moves = (double)total_moves / (double)c.nlg;
	double replay_us = 1e6 / med[F_REPLAY];
	double hit1_us = 1e6 / med[F_HIT1], hitfull_us = 1e6 / med[F_HITFULL];
	printf("engine: Agent Avenue in process (1 warm-up + median of %d "
	       "runs of %.1f s each)\n",
	       BENCH_RUNS, secs_per_run);
	bench_row("random full games (uniform over listed actions)",
	          med[F_GAMES], "games/s");
	bench_row("  moves in them (list + choose + apply)", med[F_PLAY_MOVES],
	          "moves/s");
	bench_row("engine_game_apply (logged, parsed actions)", med[F_APPLY],
	          "moves/s");
	bench_row("  one engine_game_apply", 1e9 / med[F_APPLY], "ns/move");
	bench_row("moves per finished game (mean of 256 games)", mean_moves,
	          "moves");
	bench_row("full replay of a finished game's JSON log", replay_us,
	          "us/game");
	bench_row("state-cache hit, engine_cache_get (1 cached)", hit1_us,
	          "us/get");
	bench_row("state-cache hit (4096 cached, server's size)", hitfull_us,
	          "us/get");
	bench_row("replay / cache hit (1 cached)", replay_us / hit1_us,
	          "x (times)");
	bench_row("replay / cache hit (4096 cached)", replay_us / hitfull_us,
	          "x (times)");
	bench_row("one engine_game (engine_game_size)", (double)c.size,
	          "bytes");
	bench_row("  of which Agent Avenue state (state_size)",
	          (double)c.r->state_size, "bytes");
	bench_row("states in a full 4096-game cache",
	          (double)c.size * CACHE_GAMES / 1024.0, "KiB");

	bench_summary(summary, "engine: random full games", med[F_GAMES],
	              "games/s");
	bench_summary(summary, "engine: engine_game_apply", med[F_APPLY],
	              "moves/s");
	bench_summary(summary, "engine: full replay of a finished game",
	              replay_us, "us");
	bench_summary(summary, "engine: cache hit (4096 cached)", hitfull_us,
	              "us");
	bench_summary(summary, "engine: replay / cache hit (4096 cached)",
	              replay_us / hitfull_us, "x");
	bench_summary(summary, "engine: one engine_game", (double)c.size,
	              "bytes");

	bench_games(summary);

	engine_cache_free(c.one);
	engine_cache_free(c.full);
	free(c.kept);
	for (size_t i = 0; i < c.nlg; i++) {
		for (size_t m = 0; m < c.lg[i].n; m++) {
			json_decref(c.lg[i].action[m]);
			free(c.lg[i].text[m]);
		}
		free(c.lg[i].seat);
		free(c.lg[i].action);
		free(c.lg[i].text);
		engine_game_free(c.lg[i].start);
		engine_game_free(c.lg[i].end);
	}
	free(c.lg);
	free(c.buf);
	return 0;
}
