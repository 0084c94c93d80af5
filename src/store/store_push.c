/* store_push.c: players' Web Push subscriptions.  See store.h. */
#include <string.h>

#include "store_int.h"

struct push_add {
	int64_t player_key;
	const struct store_push_sub *sub;
};

static int push_add_tx(struct conn *c, void *ctx)
{
	struct push_add *x = ctx;
	const struct store_push_sub *p = x->sub;
	int64_t n = 0;
	int rc = store__lookup_i64(
	    c, ST_PUSH_SUB_COUNT,
	    ARGS(A_I64(x->player_key), A_TEXT(p->endpoint)), &n);
	if (rc == 0 && n >= STORE_PUSH_SUBS_MAX)
		rc = BD_EPUSHFULL;
	if (rc == 0)
		rc = store__run(c, ST_PUSH_SUB_REPLACE,
		                ARGS(A_I64(x->player_key), A_TEXT(p->endpoint)),
		                NULL, NULL);
	if (rc == 0)
		rc =
		    store__run(c, ST_PUSH_SUB_INSERT,
		               ARGS(A_TEXT(p->id), A_I64(x->player_key),
		                    A_TEXT(p->endpoint),
		                    A_BLOB(p->p256dh, sizeof p->p256dh),
		                    A_BLOB(p->auth, sizeof p->auth),
		                    A_TEXT(p->dest), A_TEXT(p->lang),
		                    A_I64(p->clock_low_s), A_I64(p->expires_ms),
		                    A_I64(p->created_ms > 0 ? p->created_ms
		                                            : store__now_ms())),
		               NULL, NULL);
	return rc;
}

int store_push_sub_add(struct store *s, int64_t player_key,
                       const struct store_push_sub *sub)
{
	struct push_add x = {player_key, sub};
	return store__write_tx(s, push_add_tx, &x);
}

struct push_each {
	store_push_sub_fn fn;
	void *ctx;
};

/* Copies blob column col of exactly len bytes into out; 0 or
 * BD_EINTERNAL. */
static int col_exact(const struct row *st, int col, uint8_t *out, size_t len)
{
	const void *p = store__col_blob(st, col);
	if (!p || store__col_bytes(st, col) != (int)len)
		return BD_EINTERNAL;
	memcpy(out, p, len);
	return 0;
}

static int read_push_sub(const struct row *st, void *ctx)
{
	struct push_each *x = ctx;
	struct store_push_sub p = {0};
	int rc = store__col_copy(st, 0, p.id, sizeof p.id);
	if (rc == 0)
		rc = store__col_copy(st, 1, p.endpoint, sizeof p.endpoint);
	if (rc == 0)
		rc = col_exact(st, 2, p.p256dh, sizeof p.p256dh);
	if (rc == 0)
		rc = col_exact(st, 3, p.auth, sizeof p.auth);
	if (rc == 0)
		rc = store__col_copy(st, 4, p.dest, sizeof p.dest);
	if (rc == 0)
		rc = store__col_copy(st, 5, p.lang, sizeof p.lang);
	p.clock_low_s = store__col_i64(st, 6);
	p.expires_ms = store__col_i64(st, 7);
	p.created_ms = store__col_i64(st, 8);
	if (rc == 0)
		rc = x->fn(x->ctx, &p);
	return rc < 0 ? rc : 0;
}

int store_push_subs_each(struct store *s, int64_t player_key,
                         store_push_sub_fn fn, void *ctx)
{
	struct push_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_PUSH_SUBS_LIST, ARGS(A_I64(player_key)),
	                    read_push_sub, &x);
	store__checkin(s, c);
	return rc;
}

struct push_delete {
	int64_t player_key;
	const char *id;
};

static int push_delete_tx(struct conn *c, void *ctx)
{
	struct push_delete *x = ctx;
	int rc =
	    store__run(c, ST_PUSH_SUB_DELETE,
	               ARGS(A_I64(x->player_key), A_TEXT(x->id)), NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND;
	return rc;
}

int store_push_sub_delete(struct store *s, int64_t player_key, const char *id)
{
	struct push_delete x = {player_key, id};
	return store__write_tx(s, push_delete_tx, &x);
}
