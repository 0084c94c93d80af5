/* store_clocks.c: move clocks: a timed game's first deadline, the games
 * whose deadline passed, the deadline.soon warning, the next deadline.
 * See store.h. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ---- clocks ---------------------------------------------------------- */

/* (beside store__clock_start, which the same writers call when a timed
 * game's players change) */
int store__seats_until(struct conn *c, int64_t key)
{
	return store__run(c, ST_GAME_SEATS_UNTIL,
	                  ARGS(A_I64(key), A_I64(store__now_ms())), NULL, NULL);
}

int store__clock_start(struct conn *c, int64_t key)
{
	return store__run(c, ST_GAME_CLOCK_START, ARGS(A_I64(key)), NULL, NULL);
}

int store_clock_due_each(struct store *s, int64_t now_ms, int limit,
                         store_key_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	struct store_keys x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CLOCK_DUE, ARGS(A_I64(now_ms), A_I64(limit)),
	                    store__read_key, &x);
	store__checkin(s, c);
	return rc;
}

/* The arguments of store_game_soon's transaction. */
struct soon_ctx {
	int64_t key, seq, soon_ms;
};

static int soon_tx(struct conn *c, void *ctx)
{
	const struct soon_ctx *x = ctx;
	return store__run(c, ST_GAME_SOON,
	                  ARGS(A_I64(x->key), A_I64(x->seq), A_I64(x->soon_ms)),
	                  NULL, NULL);
}

int store_game_soon(struct store *s, int64_t key, uint64_t seq, int64_t soon_ms)
{
	struct soon_ctx x = {key, (int64_t)seq, soon_ms};
	return store__write_tx(s, soon_tx, &x);
}

int store_clock_next(struct store *s, int64_t after_ms, int64_t *next_ms)
{
	struct one_i64 v = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CLOCK_NEXT, ARGS(A_I64(after_ms)),
	                    store__read_i64, &v);
	store__checkin(s, c);
	if (rc == 0)
		*next_ms = v.found ? v.v : 0;
	return rc;
}
