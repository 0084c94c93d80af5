/* store_vacation.c: players' vacation balances and vacations
 * (sql/0030_vacation.sql).  See store.h, "vacation". */
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "store_int.h"

static int read_account(const struct row *st, void *ctx)
{
	struct store_vacation *v = ctx;
	v->left_ms = store__col_i64(st, 0);
	v->accrued_ms = store__col_i64(st, 1);
	v->auto_on = store__col_int(st, 2);
	v->start_ms = -1; /* a row was read */
	return 0;
}

static int read_current(const struct row *st, void *ctx)
{
	int64_t *cur = ctx; /* key, start, end, auto */
	for (int i = 0; i < 4; i++)
		cur[i] = store__col_i64(st, i);
	return 0;
}

/* The accrual of store.h's rule, applied to v at now_ms. */
static void accrue(struct store_vacation *v, int64_t now_ms)
{
	if (now_ms <= v->accrued_ms)
		return;
	int64_t weeks = (now_ms - v->accrued_ms) / STORE_VAC_WEEK_MS;
	int64_t room = (STORE_VAC_CAP_MS - v->left_ms) / STORE_VAC_DAY_MS;
	v->left_ms += (weeks < room ? weeks : room) * STORE_VAC_DAY_MS;
	v->accrued_ms += weeks * STORE_VAC_WEEK_MS;
}

/* Reads player's account at now_ms (accrued) and the vacation being
 * taken into *v; cur (4, or NULL) gets that vacation's key, start, end
 * and auto (all 0: none). */
static int account(struct conn *c, int64_t player, int64_t now_ms,
                   struct store_vacation *v, int64_t *cur)
{
	int64_t none[4] = {0, 0, 0, 0}, *k = cur ? cur : none;
	memset(v, 0, sizeof *v);
	memset(k, 0, 4 * sizeof *k);
	int rc = store__run(c, ST_VAC_ACCOUNT, ARGS(A_I64(player)),
	                    read_account, v);
	if (rc == 0 && v->start_ms != -1)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		rc = store__run(c, ST_VAC_CURRENT,
		                ARGS(A_I64(player), A_I64(now_ms)), read_current,
		                k);
	if (rc < 0)
		return rc;
	accrue(v, now_ms);
	v->start_ms = k[1];
	v->end_ms = k[2];
	v->auto_began = (int)k[3];
	return 0;
}

static int put_account(struct conn *c, int64_t player,
                       const struct store_vacation *v)
{
	return store__run(c, ST_VAC_ACCOUNT_PUT,
	                  ARGS(A_I64(player), A_I64(v->left_ms),
	                       A_I64(v->accrued_ms), A_I64(v->auto_on)),
	                  NULL, NULL);
}

int store_vacation_get(struct store *s, int64_t player_key, int64_t now_ms,
                       struct store_vacation *out)
{
	struct conn *c = store__checkout(s);
	int rc = account(c, player_key, now_ms, out, NULL);
	store__checkin(s, c);
	return rc;
}

/* What a vacation write does: op 't' take (len_ms), 'e' end, 'a' auto. */
struct vac_write {
	int64_t player, now, len;
	int op, on;
	struct store_vacation *out;
};

static int vac_tx(struct conn *c, void *ctx)
{
	struct vac_write *x = ctx;
	int64_t cur[4], n = 0;
	int rc = store__run(c, ST_VAC_LOCK, ARGS(A_I64(x->player)), NULL,
	                    NULL);
	if (rc == 0)
		rc = account(c, x->player, x->now, x->out, cur);
	if (rc < 0)
		return rc;
	struct store_vacation *v = x->out;
	if (x->op == 't') {
		if (cur[0])
			return BD_EONVACATION;
		if (x->len > v->left_ms)
			return BD_EVACATIONLEFT;
		rc = store__lookup_i64(
		    c, ST_VAC_BEGUN,
		    ARGS(A_I64(x->player), A_I64(x->now - STORE_VAC_WEEK_MS)),
		    &n);
		if (rc == 0 && n >= STORE_VAC_BEGUN_MAX)
			return BD_ELIMIT;
		if (rc == 0)
			rc = store__run(c, ST_VAC_INSERT,
			                ARGS(A_I64(x->player), A_I64(x->now),
			                     A_I64(x->now + x->len), A_I64(0)),
			                NULL, NULL);
		if (rc == 0)
			rc = store__run(c, ST_VAC_BUMP,
			                ARGS(A_I64(x->player), A_I64(x->now)),
			                NULL, NULL);
		v->left_ms -= x->len;
		v->start_ms = x->now;
		v->end_ms = x->now + x->len;
		v->auto_began = 0;
	} else if (x->op == 'e') {
		if (!cur[0])
			return BD_ENOTONVACATION;
		rc = store__run(c, ST_VAC_END,
		                ARGS(A_I64(x->player), A_I64(cur[0]),
		                     A_I64(x->now)),
		                NULL, NULL);
		if (rc == 0)
			rc = store__run(c, ST_VAC_POKE,
			                ARGS(A_I64(x->player), A_I64(x->now)),
			                NULL, NULL);
		if (rc == 0)
			rc = store__run(c, ST_VAC_BUMP,
			                ARGS(A_I64(x->player), A_I64(x->now)),
			                NULL, NULL);
		v->left_ms += cur[2] - x->now;
		if (v->left_ms > STORE_VAC_CAP_MS)
			v->left_ms = STORE_VAC_CAP_MS;
		v->start_ms = v->end_ms = 0;
		v->auto_began = 0;
	} else {
		v->auto_on = x->on;
	}
	return rc < 0 ? rc : put_account(c, x->player, v);
}

static int vac_write(struct store *s, struct vac_write *x)
{
	if (x->player <= 0 || (x->op == 't' && x->len <= 0))
		return BD_EBADREQUEST;
	return store__write_tx(s, vac_tx, x);
}

int store_vacation_take(struct store *s, int64_t player_key, int64_t now_ms,
                        int64_t len_ms, struct store_vacation *out)
{
	struct vac_write x = {player_key, now_ms, len_ms, 't', 0, out};
	return vac_write(s, &x);
}

int store_vacation_end(struct store *s, int64_t player_key, int64_t now_ms,
                       struct store_vacation *out)
{
	struct vac_write x = {player_key, now_ms, 0, 'e', 0, out};
	return vac_write(s, &x);
}

int store_vacation_auto(struct store *s, int64_t player_key, int64_t now_ms,
                        int on, struct store_vacation *out)
{
	struct vac_write x = {player_key, now_ms, 0, 'a', on ? 1 : 0, out};
	return vac_write(s, &x);
}

int store__vacation_check(struct conn *c, const struct store_move *m,
                          int *began)
{
	struct store_vacation v;
	int64_t last = 0, latest = 0, now = store__now_ms();
	*began = 0;
	int rc = store__run(c, ST_VAC_LOCK, ARGS(A_I64(m->vac_player)), NULL,
	                    NULL);
	if (rc == 0)
		rc = store__lookup_i64(c, ST_VAC_LAST,
		                       ARGS(A_I64(m->vac_player)), &last);
	if (rc == 0 && last != m->vac_last)
		return BD_ESTALE; /* a vacation began meanwhile: look again */
	if (rc == 0)
		rc = account(c, m->vac_player, now, &v, NULL);
	if (rc < 0 || !v.auto_on || v.left_ms <= 0)
		return rc;
	rc = store__lookup_i64(c, ST_VAC_LATEST_END, ARGS(A_I64(m->vac_player)),
	                       &latest);
	/* A vacation ending after the deadline began after it (one begun
	 * before moved the deadline past its end): an automatic one after
	 * it could not move the deadline either, so the timeout happens and
	 * the balance is kept. */
	if (rc < 0 || latest > m->vac_start)
		return rc;
	rc = store__run(c, ST_VAC_INSERT,
	                ARGS(A_I64(m->vac_player), A_I64(m->vac_start),
	                     A_I64(m->vac_start + v.left_ms), A_I64(1)),
	                NULL, NULL);
	v.left_ms = 0;
	if (rc == 0)
		rc = put_account(c, m->vac_player, &v);
	if (rc == 0)
		rc = store__run(c, ST_VAC_BUMP,
		                ARGS(A_I64(m->vac_player), A_I64(now)), NULL,
		                NULL);
	*began = rc == 0;
	return rc;
}

/* store_vacation_seats' row reader. */
struct seats_ctx {
	store_vacation_fn fn;
	void *ctx;
};

static int read_seat(const struct row *st, void *ctx)
{
	struct seats_ctx *x = ctx;
	struct store_vacation_row r = {
	    store__col_int(st, 0), store__col_i64(st, 1), store__col_i64(st, 2),
	    store__col_i64(st, 3), store__col_i64(st, 4)};
	return x->fn(x->ctx, &r);
}

int store_vacation_seats(struct store *s, int64_t key, int64_t after_ms,
                         store_vacation_fn fn, void *ctx)
{
	struct seats_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_VAC_SEATS, ARGS(A_I64(key), A_I64(after_ms)),
	                    read_seat, &x);
	store__checkin(s, c);
	return rc;
}

/* store_vacations_each's row reader. */
struct list_ctx {
	store_vacation_each_fn fn;
	void *ctx;
};

static int read_vacation(const struct row *st, void *ctx)
{
	struct list_ctx *x = ctx;
	return x->fn(x->ctx, store__col_i64(st, 0), store__col_i64(st, 1),
	             store__col_int(st, 2));
}

int store_vacations_each(struct store *s, int64_t player_key,
                         store_vacation_each_fn fn, void *ctx)
{
	struct list_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_VAC_LIST, ARGS(A_I64(player_key)),
	                    read_vacation, &x);
	store__checkin(s, c);
	return rc;
}

/* The arguments of store_game_deadline's transaction. */
struct deadline_ctx {
	int64_t key, seq, seen, deadline;
};

static int deadline_tx(struct conn *c, void *ctx)
{
	const struct deadline_ctx *x = ctx;
	return store__run(c, ST_GAME_DEADLINE,
	                  ARGS(A_I64(x->key), A_I64(x->seq), A_I64(x->seen),
	                       A_I64(x->deadline)),
	                  NULL, NULL);
}

int store_game_deadline(struct store *s, int64_t key, uint64_t seq,
                        int64_t seen_ms, int64_t deadline_ms)
{
	struct deadline_ctx x = {key, (int64_t)seq, seen_ms, deadline_ms};
	return store__write_tx(s, deadline_tx, &x);
}

/* The arguments of store_game_seats_expire's transaction. */
struct expire_ctx {
	int64_t key, now;
};

static int expire_tx(struct conn *c, void *ctx)
{
	const struct expire_ctx *x = ctx;
	return store__run(c, ST_GAME_SEATS_EXPIRE,
	                  ARGS(A_I64(x->key), A_I64(x->now)), NULL, NULL);
}

int store_game_seats_expire(struct store *s, int64_t key, int64_t now_ms)
{
	struct expire_ctx x = {key, now_ms};
	return store__write_tx(s, expire_tx, &x);
}
