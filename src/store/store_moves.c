/* store_moves.c: a game's move log (reading a range, appending a move)
 * and its snapshots (sql/0012_snapshots.sql).  See store.h. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ---- moves ----------------------------------------------------------- */

/* The caller's callback for a log read. */
struct moves_ctx {
	store_move_fn fn; /* called per move */
	void *ctx;        /* its context */
};

static int move_row(const struct row *st, void *ctx)
{
	struct moves_ctx *x = ctx;
	int rc =
	    x->fn(x->ctx, (uint64_t)store__col_i64(st, 0),
	          store__col_int(st, 1), (const char *)store__col_text(st, 2),
	          (const char *)store__col_text(st, 3), store__col_i64(st, 4));
	return rc < 0 ? rc : 0;
}

static int64_t clamp_seq(uint64_t seq)
{
	return seq > INT64_MAX ? INT64_MAX : (int64_t)seq;
}

int store_moves_range(struct store *s, int64_t key, uint64_t after_seq,
                      uint64_t upto_seq, store_move_fn fn, void *ctx)
{
	struct moves_ctx x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_MOVES_AFTER,
	                    ARGS(A_I64(key), A_I64(clamp_seq(after_seq)),
	                         A_I64(clamp_seq(upto_seq))),
	                    move_row, &x);
	store__checkin(s, c);
	return rc;
}

int store_moves_each(struct store *s, int64_t key, uint64_t after_seq,
                     store_move_fn fn, void *ctx)
{
	return store_moves_range(s, key, after_seq, UINT64_MAX, fn, ctx);
}

/* ---- snapshots (sql/0012_snapshots.sql) ---- */

static int put_snapshot(struct conn *c, int64_t key, uint64_t seq,
                        const struct store_snapshot *sn)
{
	return store__run(c, ST_SNAPSHOT_PUT,
	                  ARGS(A_I64(key), A_I64(clamp_seq(seq)),
	                       A_I64(sn->rules_version),
	                       A_BLOB(sn->state, sn->len)),
	                  NULL, NULL);
}

struct snapshot_put_ctx {
	int64_t key;
	uint64_t seq;
	const struct store_snapshot *sn;
};

static int snapshot_put_tx(struct conn *c, void *ctx)
{
	struct snapshot_put_ctx *x = ctx;
	/* Only for moves that are in the log: a snapshot beyond it would
	 * describe a move that may never be written. */
	struct one_i64 seq = {0};
	int rc = store__run(c, ST_GAME_SEQ, ARGS(A_I64(x->key)),
	                    store__read_i64, &seq);
	if (rc < 0)
		return rc;
	if (!seq.found || (uint64_t)seq.v < x->seq)
		return BD_ENOTFOUND;
	return put_snapshot(c, x->key, x->seq, x->sn);
}

int store_snapshot_put(struct store *s, int64_t key, uint64_t seq,
                       const struct store_snapshot *sn)
{
	struct snapshot_put_ctx x = {key, seq, sn};
	return store__write_tx(s, snapshot_put_tx, &x);
}

struct snapshot_get_ctx {
	uint64_t seq;
	void *state;
	size_t len;
	int nomem;
};

static int snapshot_row(const struct row *st, void *ctx)
{
	struct snapshot_get_ctx *x = ctx;
	const void *b = store__col_blob(st, 1);
	int n = store__col_bytes(st, 1);
	x->seq = (uint64_t)store__col_i64(st, 0);
	x->state = malloc(n > 0 ? (size_t)n : 1);
	if (!x->state)
		return BD_ENOMEM;
	if (n > 0)
		memcpy(x->state, b, (size_t)n);
	x->len = (size_t)n;
	return 0;
}

int store_snapshot_get(struct store *s, int64_t key, uint64_t max_seq,
                       unsigned rules_version, void **state, size_t *len,
                       uint64_t *seq)
{
	struct snapshot_get_ctx x = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(
	    c, ST_SNAPSHOT_GET,
	    ARGS(A_I64(key), A_I64(clamp_seq(max_seq)), A_I64(rules_version)),
	    snapshot_row, &x);
	store__checkin(s, c);
	if (rc < 0) {
		free(x.state);
		return rc;
	}
	if (!x.state)
		return BD_ENOTFOUND;
	*state = x.state;
	*len = x.len;
	*seq = x.seq;
	return 0;
}

/* What store_move_append's transaction writes, and the seq it found. */
struct append_ctx {
	const struct store_idem *idem; /* or NULL */
	int64_t key;                   /* the game */
	uint64_t expected;             /* the seq the caller saw */
	const struct store_move *m;    /* the move */
	uint64_t found;                /* out: the game's seq at BEGIN */
	int vacation;                  /* out: 1 when an automatic vacation
	                                  began instead (store_move.vac_*) */
};

static int append_tx(struct conn *c, void *ctx)
{
	struct append_ctx *x = ctx;
	struct one_i64 seq = {0};
	/* A timeout's player is locked before its game, as the vacation
	 * writes lock the player before the player's games (PostgreSQL: no
	 * lock order that could deadlock them). */
	int rc = x->m->vac_player ? store__run(c, ST_VAC_LOCK,
	                                       ARGS(A_I64(x->m->vac_player)),
	                                       NULL, NULL)
	                          : 0;
	if (rc == 0)
		rc = store__run(c, ST_GAME_SEQ, ARGS(A_I64(x->key)),
		                store__read_i64, &seq);
	if (rc < 0)
		return rc;
	if (!seq.found)
		return BD_ENOTFOUND;
	x->found = (uint64_t)seq.v;
	if (x->found != x->expected)
		return BD_ECONFLICT;
	if (x->m->seat_token) {
		int held = -1;
		rc = store__seat_for_token(c, x->key, x->m->seat_token, &held);
		if (rc == BD_ENOTFOUND || (rc == 0 && held != x->m->seat))
			return BD_EFORBIDDEN;
		if (rc < 0)
			return rc;
	}
	if (x->m->vac_player &&
	    ((rc = store__vacation_check(c, x->m, &x->vacation)) < 0 ||
	     x->vacation))
		return rc; /* a vacation began: it commits, no move */
	if ((rc = store__idem_put(c, x->idem)) < 0)
		return rc;
	int64_t next = seq.v;
	struct ev_before before;
	if ((rc = store__events_before(c, x->key, &before)) < 0)
		return rc;
	const struct store_rating_game *rating = NULL;
	int64_t ended_ms = 0;
	for (const struct store_move *m = x->m; rc == 0 && m; m = m->then) {
		int64_t now = m->at_ms ? m->at_ms : store__now_ms();
		if (m->rating) {
			rating = m->rating;
			ended_ms = now;
		}
		next++;
		rc = store__run(
		    c, ST_MOVE_INSERT,
		    ARGS(A_I64(x->key), A_I64(next), A_I64(m->seat),
		         A_TEXT(m->action), A_I64(now), A_TEXT(m->reason),
		         A_BLOB(m->state_hash, STORE_STATE_HASH_LEN)),
		    NULL, NULL);
		if (rc == 0)
			rc = store__run(
			    c, ST_GAME_ADVANCE,
			    ARGS(A_I64(x->key), A_I64(next), A_TEXT(m->status),
			         A_I64(m->to_act), A_TEXT(m->result),
			         A_I64(now), A_TEXT(m->clock_state),
			         A_I64(m->deadline_ms), A_I64(m->soon_ms)),
			    NULL, NULL);
		if (rc == 0 && m->snapshot)
			rc = put_snapshot(c, x->key, (uint64_t)next,
			                  m->snapshot);
	}
	/* The game's end and its ratings: one transaction. */
	if (rc == 0 && rating)
		rc = store__rate_game(c, x->key, rating, ended_ms);
	if (rc == 0)
		rc = store__events_after(c, x->key, &before);
	return rc;
}

int store_move_append(struct store *s, int64_t key, uint64_t expected_seq,
                      const struct store_move *m, const struct store_idem *idem,
                      uint64_t *current_seq)
{
	struct append_ctx x = {
	    .idem = idem, .key = key, .expected = expected_seq, .m = m};
	int rc = store__write_tx(s, append_tx, &x);
	if (rc == 0 && x.vacation)
		return BD_EVACATIONBEGAN;
	/* The one out-parameter written on failure, by contract.  Only a
	 * stale expected_seq reports it: a conflict from the primary key
	 * backstop (log and games.seq disagree) has no seq to report. */
	if (rc == BD_ECONFLICT && x.found != expected_seq && current_seq)
		*current_seq = x.found;
	return rc;
}
