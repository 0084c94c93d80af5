/* store_seeks.c: quick match: seeks, and their pairing in the
 * transaction that inserts the seek completing a table
 * (sql/0029_seeks.sql).  See store.h, "seeks". */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

void store_seek_release(struct store_seek *k)
{
	free(k->options);
	free(k->clock);
	k->options = k->clock = NULL;
}

/* Reads a SEEK_COLS row into *k (caller releases, also on failure). */
static int seek_read(const struct row *st, struct store_seek *k)
{
	memset(k, 0, sizeof *k);
	int rc = store__col_copy(st, 0, k->id, sizeof k->id);
	if (rc == 0)
		rc = store__col_copy(st, 1, k->player_id, sizeof k->player_id);
	if (rc == 0)
		rc = store__col_copy(st, 2, k->player_name,
		                     sizeof k->player_name);
	if (rc == 0)
		rc = store__col_copy(st, 3, k->rules_id, sizeof k->rules_id);
	k->seats = store__col_int(st, 4);
	if (rc == 0)
		rc = store__col_strdup(st, 5, &k->options);
	if (rc == 0)
		rc = store__col_strdup(st, 6, &k->clock);
	k->rated = store__col_int(st, 7);
	k->rating = store__col_i64(st, 8);
	k->rating_min = store__col_i64(st, 9);
	k->rating_max = store__col_i64(st, 10);
	k->created_ms = store__col_i64(st, 11);
	k->expires_ms = store__col_i64(st, 12);
	if (rc == 0)
		rc = store__col_copy(st, 13, k->state, sizeof k->state);
	if (rc == 0)
		rc = store__col_copy(st, 14, k->game, sizeof k->game);
	k->ended_ms = store__col_i64(st, 15);
	k->player_key = store__col_i64(st, 16);
	return rc;
}

/* ---- creation and pairing ---- */

/* One open seek the pairing may take. */
struct candidate {
	int64_t key, player_key;
	int64_t rating, min, max;
};

/* The candidates of a pool, oldest first. */
struct candidates {
	struct candidate c[64];
	int n;
};

static int read_candidate(const struct row *st, void *ctx)
{
	struct candidates *x = ctx;
	if (x->n >= (int)(sizeof x->c / sizeof *x->c))
		return 0;
	x->c[x->n++] = (struct candidate){
	    store__col_i64(st, 0), store__col_i64(st, 1), store__col_i64(st, 2),
	    store__col_i64(st, 3), store__col_i64(st, 4)};
	return 0;
}

/* Whether a and b may sit at one table: other players, each one's
 * rating inside the other's bounds, no block either way (*ok). */
static int compatible(struct conn *c, const struct candidate *a,
                      const struct candidate *b, int *ok)
{
	*ok = a->player_key != b->player_key && a->rating >= b->min &&
	      a->rating <= b->max && b->rating >= a->min && b->rating <= a->max;
	if (!*ok)
		return 0;
	struct one_i64 blocked = {0};
	int rc = store__run(c, ST_BLOCKED_EITHER,
	                    ARGS(A_I64(a->player_key), A_I64(b->player_key)),
	                    store__read_i64, &blocked);
	*ok = rc == 0 && blocked.v == 0;
	return rc;
}

/* What store_seek_create's transaction does, and what it found. */
struct seek_ctx {
	struct store *s;
	const struct store_seek *k;
	int max_open;
	int64_t now;
	const struct store_seek_game *plan;
	struct store_seek_made out; /* out */
};

/* Picks, oldest first, the candidates that with `me` fill a table of
 * `seats`, each compatible with every other: table[0..seats) sorted by
 * key (oldest first) when *full. */
static int pick_table(struct conn *c, const struct candidates *all,
                      const struct candidate *me, int seats,
                      struct candidate *table, int *full)
{
	int n = 0;
	*full = 0;
	for (int i = 0; i < all->n && n < seats - 1; i++) {
		int ok = 1;
		const struct candidate *them = &all->c[i];
		int rc = compatible(c, them, me, &ok);
		for (int j = 0; rc == 0 && ok && j < n; j++)
			rc = compatible(c, them, &table[j], &ok);
		if (rc < 0)
			return rc;
		if (ok)
			table[n++] = *them; /* candidates come oldest first */
	}
	if (n < seats - 1)
		return 0;
	table[n] = *me; /* the newest */
	*full = 1;
	return 0;
}

/* Creates the game of table[0..seats) and marks their seeks matched. */
static int pair(struct conn *c, struct seek_ctx *x,
                const struct candidate *table, int seats)
{
	struct store_seat held[STORE_SEEK_SEATS_MAX];
	memset(held, 0, sizeof held);
	for (int i = 0; i < seats; i++) {
		int seat = x->plan->order[i];
		if (seat < 0 || seat >= seats || held[seat].player_key)
			return BD_EINTERNAL; /* not a permutation */
		held[seat].seat = seat;
		held[seat].player_key = table[i].player_key;
	}
	int64_t game_key = 0;
	int rc = store__game_insert(c, x->s, x->plan->row, held, &game_key);
	const char *game = x->plan->row->id;
	for (int i = 0; rc == 0 && i < seats; i++) {
		rc = store__run(
		    c, ST_SEEK_MATCH,
		    ARGS(A_I64(table[i].key), A_TEXT(game), A_I64(x->now)),
		    NULL, NULL);
		/* the pool is locked (PostgreSQL) or the database is
		 * (SQLite), and the rows were read FOR UPDATE */
		if (rc == 0 && store__changes(c) != 1)
			rc = BD_EINTERNAL;
	}
	if (rc == 0)
		rc = store__run(c, ST_EV_SEEK_MATCHED,
		                ARGS(A_TEXT(game), A_I64(x->now)), NULL, NULL);
	if (rc == 0) {
		x->out.game_key = game_key;
		memcpy(x->out.game, game, sizeof x->out.game);
	}
	return rc;
}

static int seek_tx(struct conn *c, void *ctx)
{
	struct seek_ctx *x = ctx;
	const struct store_seek *k = x->k;
	struct one_i64 open = {0}, same = {0}, locked = {0};
	int rc = store__run(c, ST_SEEK_LOCK, ARGS(A_TEXT(k->pool)),
	                    store__read_i64, &locked);
	if (rc == 0 && !locked.v)
		return BD_ECONFLICT; /* another node's transaction holds the
		                        pool: the caller tries again */
	if (rc == 0)
		rc = store__run(c, ST_SEEK_OPEN_COUNT,
		                ARGS(A_I64(k->player_key), A_I64(x->now)),
		                store__read_i64, &open);
	if (rc == 0 && open.v >= x->max_open)
		return BD_ESEEKSFULL;
	if (rc == 0)
		rc = store__run(
		    c, ST_SEEK_SAME_POOL,
		    ARGS(A_I64(k->player_key), A_TEXT(k->pool), A_I64(x->now)),
		    store__read_i64, &same);
	if (rc == 0 && same.v > 0)
		return BD_ESEEKSELF;
	struct one_i64 key = {0};
	if (rc == 0)
		rc = store__run(c, ST_SEEK_INSERT,
		                ARGS(A_TEXT(k->id), A_I64(k->player_key),
		                     A_TEXT(k->pool), A_TEXT(k->rules_id),
		                     A_I64(k->seats), A_TEXT(k->options),
		                     A_TEXT(k->clock), A_I64(k->rated),
		                     A_I64(k->rating), A_I64(k->rating_min),
		                     A_I64(k->rating_max), A_I64(x->now),
		                     A_I64(k->expires_ms)),
		                store__read_i64, &key);
	if (rc < 0)
		return rc;
	x->out.key = key.v;
	struct candidates all = {.n = 0};
	rc = store__run(
	    c, ST_SEEK_CANDIDATES,
	    ARGS(A_TEXT(k->pool), A_I64(x->now), A_I64(k->player_key),
	         A_I64(k->rating), A_I64(k->rating_min), A_I64(k->rating_max)),
	    read_candidate, &all);
	struct candidate me = {key.v, k->player_key, k->rating, k->rating_min,
	                       k->rating_max};
	struct candidate table[STORE_SEEK_SEATS_MAX];
	int full = 0;
	if (rc == 0)
		rc = pick_table(c, &all, &me, k->seats, table, &full);
	if (rc == 0 && full)
		rc = pair(c, x, table, k->seats);
	return rc;
}

int store_seek_create(struct store *s, const struct store_seek *k, int max_open,
                      int64_t now_ms, const struct store_seek_game *plan,
                      struct store_seek_made *out)
{
	if (!k || !k->pool || !plan || !plan->row || k->seats < 2 ||
	    k->seats > STORE_SEEK_SEATS_MAX || plan->row->seats != k->seats)
		return BD_EINTERNAL;
	struct seek_ctx x = {
	    .s = s, .k = k, .max_open = max_open, .now = now_ms, .plan = plan};
	int rc = store__write_tx(s, seek_tx, &x);
	if (rc == 0 && out)
		*out = x.out;
	return rc;
}

/* ---- reads and cancelling ---- */

/* The one seek a lookup found. */
struct seek_one {
	int found;
	struct store_seek k;
};

static int read_one(const struct row *st, void *ctx)
{
	struct seek_one *x = ctx;
	x->found = 1;
	return seek_read(st, &x->k);
}

int store_seek_get(struct store *s, const char *id, int64_t now_ms,
                   struct store_seek *out)
{
	struct seek_one x = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_SEEK_GET, ARGS(A_I64(now_ms), A_TEXT(id)),
	                    read_one, &x);
	store__checkin(s, c);
	if (rc == 0 && !x.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*out = x.k;
	else
		store_seek_release(&x.k);
	return rc;
}

/* What store_seek_cancel's transaction does. */
struct cancel_ctx {
	const char *id;
	int64_t player_key, now;
};

static int cancel_tx(struct conn *c, void *ctx)
{
	struct cancel_ctx *x = ctx;
	int rc =
	    store__run(c, ST_SEEK_CANCEL,
	               ARGS(A_TEXT(x->id), A_I64(x->player_key), A_I64(x->now)),
	               NULL, NULL);
	if (rc < 0 || store__changes(c) == 1)
		return rc;
	/* Why nothing changed. */
	struct seek_one found = {0};
	rc = store__run(c, ST_SEEK_GET, ARGS(A_I64(x->now), A_TEXT(x->id)),
	                read_one, &found);
	if (rc == 0)
		rc = !found.found                          ? BD_ENOTFOUND
		     : found.k.player_key != x->player_key ? BD_EFORBIDDEN
		                                           : BD_ESTARTED;
	store_seek_release(&found.k);
	return rc;
}

int store_seek_cancel(struct store *s, const char *id, int64_t player_key,
                      int64_t now_ms)
{
	struct cancel_ctx x = {id, player_key, now_ms};
	return store__write_tx(s, cancel_tx, &x);
}

/* A walk over SEEK_COLS rows. */
struct seek_walk {
	store_seek_fn fn;
	void *ctx;
};

static int read_walk(const struct row *st, void *ctx)
{
	struct seek_walk *w = ctx;
	struct store_seek k;
	int rc = seek_read(st, &k);
	if (rc == 0)
		rc = w->fn(w->ctx, &k);
	store_seek_release(&k);
	return rc;
}

int store_seeks_open(struct store *s, const char *rules_id, const char *after,
                     int limit, int64_t now_ms, store_seek_fn fn, void *ctx)
{
	if (limit < 1 || limit > 100)
		return BD_EINTERNAL;
	struct seek_walk w = {fn, ctx};
	int64_t from = 0;
	struct conn *c = store__checkout(s);
	int rc = after ? store__lookup_i64(c, ST_SEEK_KEY, ARGS(A_TEXT(after)),
	                                   &from)
	               : 0;
	if (rc == 0)
		rc = store__run(c, ST_SEEKS_OPEN,
		                ARGS(A_I64(now_ms),
		                     A_TEXT(rules_id ? rules_id : ""),
		                     A_I64(from), A_I64(limit)),
		                read_walk, &w);
	store__checkin(s, c);
	return rc;
}

int store_seeks_of_player(struct store *s, int64_t player_key, int64_t now_ms,
                          store_seek_fn fn, void *ctx)
{
	struct seek_walk w = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_SEEKS_OF_PLAYER,
	               ARGS(A_I64(now_ms), A_I64(player_key)), read_walk, &w);
	store__checkin(s, c);
	return rc;
}
