/* store_ratings.c: ratings written in the transaction that ends a game,
 * their history, leaderboards and ranks (sql/0025_ratings.sql;
 * docs/ratings.md).  The arithmetic is src/rating's.  See store.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rating/rating.h"
#include "store_int.h"

#define DAY_MS 86400000.0
/* Leaderboard buckets (board_counts): shown ratings this wide */
#define GLICKO2_BUCKET 10.0
#define WENG_LIN_BUCKET 0.25
/* Weng-Lin's provisional mark (docs/ratings.md): sigma still this large */
#define WENG_LIN_PROVISIONAL_SIGMA 6.0

static void put_double(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.17g", v);
}

static double col_double(const struct row *st, int col)
{
	const char *t = store__col_text(st, col);
	return t ? strtod(t, NULL) : 0;
}

/* ---- rating a game's end --------------------------------------------- */

/* One seat's subject and its rating before and after the game. */
struct rated_seat {
	char subject[81];
	int64_t player_key; /* 0: a bot */
	int place;
	double rating, deviation, volatility; /* before */
	int64_t games, wins, last_ms;         /* 0 games: a new subject */
	int on_board;                         /* counted in board_counts */
	int64_t bucket;                       /* its bucket there */
	double new_rating, new_deviation, new_volatility;
};

/* What store__rate_game reads per seat row (ST_SEATS_GET). */
struct seats_read {
	struct rated_seat *seats;
	int n;        /* seats expected */
	int unrated;  /* out: a seat held by neither a player nor a bot */
};

static int seat_row(const struct row *st, void *ctx)
{
	struct seats_read *x = ctx;
	int seat = store__col_int(st, 0);
	if (seat < 0 || seat >= x->n)
		return 0;
	struct rated_seat *r = &x->seats[seat];
	const char *pid = store__col_text(st, 5), *bot = store__col_text(st, 8);
	r->player_key = store__col_i64(st, 3);
	if (r->player_key && pid && *pid)
		snprintf(r->subject, sizeof r->subject, "%s", pid);
	else if (bot && *bot && strlen(bot) + 4 < sizeof r->subject)
		snprintf(r->subject, sizeof r->subject, "bot:%s", bot);
	else
		x->unrated = 1;
	return 0;
}

static int moves_row(const struct row *st, void *ctx)
{
	int64_t *counts = ctx;
	int seat = store__col_int(st, 0);
	if (seat >= 0 && seat < STORE_RATING_SEATS)
		counts[seat] = store__col_i64(st, 1);
	return 0;
}

static int rating_row(const struct row *st, void *ctx)
{
	struct rated_seat *r = ctx;
	r->rating = col_double(st, 0);
	r->deviation = col_double(st, 1);
	r->volatility = col_double(st, 2);
	r->games = store__col_i64(st, 3);
	r->wins = store__col_i64(st, 4);
	r->last_ms = store__col_i64(st, 5);
	r->on_board = store__col_int(st, 6) == 0;
	r->bucket = store__col_i64(st, 7);
	return 0;
}

static int64_t day_of(int64_t ms)
{
	return ms / 86400000;
}

static int64_t bucket_of(const char *system, double shown)
{
	return (int64_t)floor(shown / (strcmp(system, "glicko2") == 0
	                                   ? GLICKO2_BUCKET
	                                   : WENG_LIN_BUCKET));
}

/* Glicko-2 for two sides of one seat each. */
static int rate_glicko2(struct rated_seat *a, struct rated_seat *b,
                        int64_t now_ms)
{
	struct glicko2_rating ra = {a->rating, a->deviation, a->volatility};
	struct glicko2_rating rb = {b->rating, b->deviation, b->volatility};
	double ia = a->games ? (double)(now_ms - a->last_ms) / DAY_MS : 0;
	double ib = b->games ? (double)(now_ms - b->last_ms) / DAY_MS : 0;
	double score = a->place == b->place ? 0.5 : a->place < b->place ? 1 : 0;
	struct glicko2_rating na, nb;
	int rc = glicko2_rate_game(&ra, ia, &rb, ib, score, &na, &nb);
	if (rc < 0)
		return BD_EINTERNAL;
	a->new_rating = na.rating;
	a->new_deviation = na.rd;
	a->new_volatility = na.volatility;
	b->new_rating = nb.rating;
	b->new_deviation = nb.rd;
	b->new_volatility = nb.volatility;
	return 0;
}

/* Weng-Lin for everything else: sides ranked by place. */
static int rate_weng_lin(struct rated_seat *seats,
                         const struct store_rating_game *rg, int sides)
{
	size_t sizes[WENG_LIN_MAX_TEAMS] = {0};
	int ranks[WENG_LIN_MAX_TEAMS] = {0};
	struct weng_lin_rating in[WENG_LIN_MAX_PLAYERS], out[WENG_LIN_MAX_PLAYERS];
	int order[WENG_LIN_MAX_PLAYERS], n = 0;
	for (int t = 0; t < sides; t++)
		for (int s = 0; s < rg->seats; s++)
			if (rg->side[s] == t) {
				sizes[t]++;
				ranks[t] = rg->place[s];
				in[n] = (struct weng_lin_rating){seats[s].rating,
				                                 seats[s].deviation};
				order[n++] = s;
			}
	if (weng_lin_rate((size_t)sides, sizes, in, ranks, out) < 0)
		return BD_EINTERNAL;
	for (int k = 0; k < n; k++) {
		struct rated_seat *r = &seats[order[k]];
		r->new_rating = out[k].mu;
		r->new_deviation = out[k].sigma;
		r->new_volatility = 0;
	}
	return 0;
}

static int write_seat(struct conn *c, int64_t key,
                      const struct store_rating_game *rg, const char *system,
                      const struct rated_seat *r, int won, int64_t now_ms)
{
	int glicko = strcmp(system, "glicko2") == 0;
	struct weng_lin_rating wl = {r->new_rating, r->new_deviation};
	double shown = glicko ? r->new_rating : weng_lin_ordinal(&wl);
	int provisional = glicko ? glicko2_provisional(r->new_deviation)
	                         : r->new_deviation >= WENG_LIN_PROVISIONAL_SIGMA;
	int64_t bucket = bucket_of(system, shown);
	char v[8][32];
	put_double(v[0], sizeof v[0], r->new_rating);
	put_double(v[1], sizeof v[1], r->new_deviation);
	put_double(v[2], sizeof v[2], r->new_volatility);
	put_double(v[3], sizeof v[3], shown);
	put_double(v[4], sizeof v[4], r->rating);
	put_double(v[5], sizeof v[5], r->deviation);
	int rc = store__run(
	    c, ST_RATING_PUT,
	    ARGS(A_TEXT(rg->category), A_TEXT(r->subject), A_I64(r->player_key),
	         A_TEXT(system), A_TEXT(v[0]), A_TEXT(v[1]), A_TEXT(v[2]),
	         A_TEXT(v[3]), A_I64(provisional), A_I64(r->games + 1),
	         A_I64(r->wins + won), A_I64(now_ms), A_I64(bucket)),
	    NULL, NULL);
	/* The board's counts: out of the old place, into the new one. */
	if (rc == 0 && r->games && r->on_board)
		rc = store__run(c, ST_BOARD_SUB,
		                ARGS(A_TEXT(rg->category),
		                     A_I64(day_of(r->last_ms)), A_I64(r->bucket)),
		                NULL, NULL);
	if (rc == 0 && !provisional)
		rc = store__run(c, ST_BOARD_ADD,
		                ARGS(A_TEXT(rg->category), A_I64(day_of(now_ms)),
		                     A_I64(bucket)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_RATING_HISTORY_PUT,
		                ARGS(A_TEXT(rg->category), A_TEXT(r->subject),
		                     A_I64(key), A_I64(r->place), A_TEXT(v[4]),
		                     A_TEXT(v[5]), A_TEXT(v[0]), A_TEXT(v[1]),
		                     A_TEXT(v[3]), A_I64(now_ms)),
		                NULL, NULL);
	return rc;
}

int store__rate_game(struct conn *c, int64_t key,
                     const struct store_rating_game *rg, int64_t now_ms)
{
	if (!rg || rg->seats < 2 || rg->seats > STORE_RATING_SEATS)
		return 0;
	struct one_i64 rated = {0};
	int rc = store__run(c, ST_GAME_RATED, ARGS(A_I64(key)), store__read_i64,
	                    &rated);
	if (rc < 0 || !rated.found || !rated.v)
		return rc; /* created unrated */
	/* Aborted: a seat that did not make two moves of its own. */
	int64_t moves[STORE_RATING_SEATS] = {0};
	if ((rc = store__run(c, ST_RATING_MOVES_BY_SEAT, ARGS(A_I64(key)),
	                     moves_row, moves)) < 0)
		return rc;
	for (int s = 0; s < rg->seats; s++)
		if (moves[s] < 2)
			return 0;
	struct rated_seat seats[STORE_RATING_SEATS];
	memset(seats, 0, sizeof seats);
	struct seats_read sr = {seats, rg->seats, 0};
	if ((rc = store__run(c, ST_SEATS_GET, ARGS(A_I64(key)), seat_row,
	                     &sr)) < 0)
		return rc;
	int sides = 0;
	for (int s = 0; s < rg->seats; s++) {
		if (!seats[s].subject[0])
			sr.unrated = 1; /* (a seat with no row) */
		for (int t = 0; t < s; t++)
			if (strcmp(seats[s].subject, seats[t].subject) == 0)
				sr.unrated = 1; /* one subject on two seats */
		if (rg->side[s] < 0 || rg->side[s] >= rg->seats ||
		    rg->place[s] < 1)
			return BD_EINTERNAL;
		if (rg->side[s] + 1 > sides)
			sides = rg->side[s] + 1;
		seats[s].place = rg->place[s];
	}
	if (sr.unrated || sides < 2)
		return 0;
	int glicko = sides == 2 && rg->seats == 2;
	const char *system = glicko ? "glicko2" : "weng-lin";
	for (int s = 0; s < rg->seats; s++) {
		struct rated_seat *r = &seats[s];
		r->rating = glicko ? GLICKO2_START_RATING : WENG_LIN_MU;
		r->deviation = glicko ? GLICKO2_START_RD : WENG_LIN_SIGMA;
		r->volatility = glicko ? GLICKO2_START_VOLATILITY : 0;
		if ((rc = store__run(c, ST_RATING_GET,
		                     ARGS(A_TEXT(rg->category), A_TEXT(r->subject)),
		                     rating_row, r)) < 0)
			return rc;
	}
	rc = glicko ? rate_glicko2(&seats[0], &seats[1], now_ms)
	            : rate_weng_lin(seats, rg, sides);
	int best = rg->place[0], worst = rg->place[0];
	for (int s = 1; s < rg->seats; s++) {
		best = rg->place[s] < best ? rg->place[s] : best;
		worst = rg->place[s] > worst ? rg->place[s] : worst;
	}
	for (int s = 0; rc == 0 && s < rg->seats; s++)
		rc = write_seat(c, key, rg, system, &seats[s],
		                seats[s].place == best && best != worst, now_ms);
	return rc;
}

/* ---- reading ----------------------------------------------------------- */

struct rating_ctx {
	store_rating_fn fn;
	void *ctx;
	int n;                   /* rows seen */
	struct store_rating last; /* the last row */
	int64_t bucket;           /* its board bucket */
};

static int rating_full_row(const struct row *st, void *ctx)
{
	struct rating_ctx *x = ctx;
	struct store_rating *r = &x->last;
	memset(r, 0, sizeof *r);
	if (store__col_copy(st, 0, r->category, sizeof r->category) < 0 ||
	    store__col_copy(st, 1, r->subject, sizeof r->subject) < 0 ||
	    store__col_copy(st, 2, r->system, sizeof r->system) < 0 ||
	    store__col_copy(st, 11, r->player_id, sizeof r->player_id) < 0 ||
	    store__col_copy(st, 12, r->name, sizeof r->name) < 0)
		return BD_EINTERNAL;
	r->rating = col_double(st, 3);
	r->deviation = col_double(st, 4);
	r->volatility = col_double(st, 5);
	r->shown = col_double(st, 6);
	r->provisional = store__col_int(st, 7);
	r->games = store__col_i64(st, 8);
	r->wins = store__col_i64(st, 9);
	r->last_ms = store__col_i64(st, 10);
	x->bucket = store__col_i64(st, 13);
	x->n++;
	return x->fn ? x->fn(x->ctx, r) : 0;
}

int store_player_ratings(struct store *s, int64_t player_key,
                         store_rating_fn fn, void *ctx)
{
	struct rating_ctx x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_RATINGS_OF_PLAYER, ARGS(A_I64(player_key)),
	                    rating_full_row, &x);
	store__checkin(s, c);
	return rc;
}

/* The count of board rows above r (shown, subject; in `bucket`) on c:
 * the buckets above, from board_counts, over the days from since's,
 * and the rows above r in its own bucket. */
static int rows_above(struct conn *c, const char *category, int64_t since,
                      const struct store_rating *r, int64_t bucket,
                      int64_t *n)
{
	struct one_i64 inside = {0}, buckets = {0};
	int rc = store__run(c, ST_LEADERBOARD_ABOVE,
	                    ARGS(A_TEXT(category), A_I64(since),
	                         A_TEXT(r->subject), A_I64(bucket)),
	                    store__read_i64, &inside);
	if (rc == 0)
		rc = store__run(c, ST_BOARD_ABOVE,
		                ARGS(A_TEXT(category), A_I64(day_of(since)),
		                     A_I64(bucket)),
		                store__read_i64, &buckets);
	*n = inside.v + buckets.v;
	return rc;
}

static int on_board(const struct store_rating *r, int64_t since)
{
	return !r->provisional && r->last_ms >= since;
}

int store_leaderboard(struct store *s, const char *category,
                      int64_t active_since_ms, const char *after_subject,
                      int limit, int64_t *first_rank, store_rating_fn fn,
                      void *ctx)
{
	struct conn *c = store__checkout(s);
	int rc = 0;
	int64_t above = 0;
	if (!after_subject) {
		struct rating_ctx x = {.fn = fn, .ctx = ctx};
		if (first_rank)
			*first_rank = 1;
		rc = store__run(c, ST_LEADERBOARD_TOP,
		                ARGS(A_TEXT(category), A_I64(active_since_ms),
		                     A_I64(limit)),
		                rating_full_row, &x);
	} else {
		struct rating_ctx one = {0};
		rc = store__run(c, ST_RATING_ONE,
		                ARGS(A_TEXT(category), A_TEXT(after_subject)),
		                rating_full_row, &one);
		if (rc == 0 && (!one.n || !on_board(&one.last, active_since_ms)))
			rc = BD_ENOTFOUND;
		if (rc == 0)
			rc = rows_above(c, category, active_since_ms, &one.last,
			                one.bucket, &above);
		above += 1; /* the after row itself */
		if (rc == 0 && first_rank)
			*first_rank = above + 1;
		struct rating_ctx x = {.fn = fn, .ctx = ctx};
		if (rc == 0)
			rc = store__run(
			    c, ST_LEADERBOARD_AFTER,
			    ARGS(A_TEXT(category), A_I64(active_since_ms),
			         A_I64(limit), A_TEXT(after_subject)),
			    rating_full_row, &x);
	}
	store__checkin(s, c);
	return rc;
}

int store_leaderboard_rank(struct store *s, const char *category,
                           const char *subject, int64_t active_since_ms,
                           struct store_rating *out, int64_t *rank)
{
	struct rating_ctx one = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_RATING_ONE,
	                    ARGS(A_TEXT(category), A_TEXT(subject)),
	                    rating_full_row, &one);
	int64_t above = 0;
	if (rc == 0 && !one.n)
		rc = BD_ENOTFOUND;
	if (rc == 0 && on_board(&one.last, active_since_ms))
		rc = rows_above(c, category, active_since_ms, &one.last,
		                one.bucket, &above);
	store__checkin(s, c);
	if (rc < 0)
		return rc;
	*out = one.last;
	*rank = on_board(&one.last, active_since_ms) ? above + 1 : 0;
	return 0;
}

struct history_ctx {
	store_rating_change_fn fn;
	void *ctx;
};

static int history_row(const struct row *st, void *ctx)
{
	struct history_ctx *x = ctx;
	struct store_rating_change ch;
	memset(&ch, 0, sizeof ch);
	ch.n = store__col_i64(st, 0);
	if (store__col_copy(st, 1, ch.category, sizeof ch.category) < 0 ||
	    store__col_copy(st, 2, ch.game_id, sizeof ch.game_id) < 0)
		return BD_EINTERNAL;
	ch.place = store__col_int(st, 3);
	ch.rating_before = col_double(st, 4);
	ch.deviation_before = col_double(st, 5);
	ch.rating = col_double(st, 6);
	ch.deviation = col_double(st, 7);
	ch.shown = col_double(st, 8);
	ch.at_ms = store__col_i64(st, 9);
	return x->fn(x->ctx, &ch);
}

int store_rating_history(struct store *s, const char *subject,
                         const char *category, int64_t after, int limit,
                         store_rating_change_fn fn, void *ctx)
{
	struct history_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_RATING_HISTORY,
	                    ARGS(A_TEXT(subject), A_TEXT(category ? category : ""),
	                         A_I64(after), A_I64(limit)),
	                    history_row, &x);
	store__checkin(s, c);
	return rc;
}
