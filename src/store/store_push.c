/* store_push.c: players' Web Push subscriptions.  See store.h. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
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

/* ---- deliveries ---- */

void store_push_delivery_release(struct store_push_delivery *d)
{
	free((char *)d->ev.data);
	d->ev.data = NULL;
	sodium_memzero(&d->sub, sizeof d->sub);
}

/* Reads ST_PUSH_DLV_GET's row into the struct store_push_delivery ctx;
 * ev.data becomes a malloc'd copy. */
static int read_push_delivery(const struct row *st, void *ctx)
{
	struct store_push_delivery *d = ctx;
	const char *data = (const char *)store__col_text(st, 3);
	d->ev.key = store__col_i64(st, 0);
	int rc = store__col_copy(st, 1, d->ev.id, sizeof d->ev.id);
	if (rc == 0)
		rc = store__col_copy(st, 2, d->ev.type, sizeof d->ev.type);
	if (rc == 0 && !data)
		rc = BD_EINTERNAL;
	d->ev.created_ms = store__col_i64(st, 4);
	d->game_key = store__col_i64(st, 5);
	d->player_key = store__col_i64(st, 6);
	d->attempts = store__col_int(st, 7);
	d->sub_key = store__col_i64(st, 8);
	if (rc == 0)
		rc = store__col_copy(st, 9, d->sub.endpoint,
		                     sizeof d->sub.endpoint);
	if (rc == 0)
		rc = col_exact(st, 10, d->sub.p256dh, sizeof d->sub.p256dh);
	if (rc == 0)
		rc = col_exact(st, 11, d->sub.auth, sizeof d->sub.auth);
	if (rc == 0)
		rc = store__col_copy(st, 12, d->sub.dest, sizeof d->sub.dest);
	if (rc == 0)
		rc = store__col_copy(st, 13, d->sub.lang, sizeof d->sub.lang);
	d->dest_failures = store__col_int(st, 14);
	d->dest_limited = store__col_int(st, 15) > 0;
	const char *kind = (const char *)store__col_text(st, 16);
	d->clock_low = kind && strcmp(kind, "clock.low") == 0;
	d->game_seq = store__col_i64(st, 17);
	if (rc == 0 && !(d->ev.data = strdup(data)))
		rc = BD_ENOMEM;
	return rc;
}

struct push_claim {
	int64_t now, lease;
	struct store_claim_rules rules;
	struct one_i64 key; /* out: the claimed delivery */
};

static int push_claim_tx(struct conn *c, void *ctx)
{
	struct push_claim *x = ctx;
	const struct store_claim_rules *r = &x->rules;
	return store__run(c, ST_PUSH_DLV_CLAIM,
	                  ARGS(A_I64(x->now), A_I64(x->now + x->lease),
	                       A_I64(r->per_dest), A_I64(r->per_failing),
	                       A_I64(r->failing_ok)),
	                  store__read_i64, &x->key);
}

int store_push_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                              const struct store_claim_rules *rules,
                              struct store_push_delivery *out, int64_t *next_ms)
{
	static const struct store_claim_rules any = {INT32_MAX, INT32_MAX, 1};
	struct push_claim x = {now_ms, lease_ms, rules ? *rules : any, {0}};
	if (x.rules.per_dest < 1 || x.rules.per_failing < 1 || lease_ms < 1)
		return BD_EBADREQUEST;
	struct one_i64 next = {0};
	/* a read first: most looks find nothing due, and need no write */
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_PUSH_DLV_NEXT, NO_ARGS, store__read_i64, &next);
	store__checkin(s, c);
	if (rc == 0 && next.v > 0 && next.v <= now_ms)
		rc = store__write_tx(s, push_claim_tx, &x);
	if (rc < 0)
		return rc;
	if (!x.key.found) {
		if (next_ms)
			*next_ms = next.v;
		return BD_ENOTFOUND;
	}
	struct store_push_delivery d;
	memset(&d, 0, sizeof d);
	d.key = x.key.v;
	c = store__checkout(s);
	rc = store__run(c, ST_PUSH_DLV_GET, ARGS(A_I64(d.key)),
	                read_push_delivery, &d);
	store__checkin(s, c);
	if (rc == 0 && !d.ev.data)
		rc = BD_ENOTFOUND; /* its subscription went away meanwhile */
	if (rc < 0) {
		store_push_delivery_release(&d);
		return rc;
	}
	*out = d;
	return 0;
}

struct push_done {
	int64_t key;
	enum store_push_end end;
	int status;
	const char *error;
	int64_t next;
	const char *dest;
	enum store_dest_answer answer;
	int64_t busy_ms;
	const struct store_breaker *b;
};

static int push_done_tx(struct conn *c, void *ctx)
{
	static const char *const states[] = {"delivered", "pending", "failed",
	                                     "skipped"};
	struct push_done *x = ctx;
	int64_t now = store__now_ms(), until = 0;
	int skipped = x->end == STORE_PUSH_SKIPPED;
	int rc =
	    store__run(c, ST_PUSH_DLV_DONE,
	               ARGS(A_I64(x->key), A_TEXT(states[x->end]),
	                    A_I64(x->status), A_TEXT(x->error ? x->error : ""),
	                    A_I64(x->end == STORE_PUSH_RETRY ? x->next : 0),
	                    A_I64(now), A_I64(skipped ? 0 : 1)),
	               NULL, NULL);
	if (rc == 0 && !skipped)
		rc = store__dest_record(c, x->dest, x->answer, x->busy_ms, x->b,
		                        now, &until);
	return rc;
}

int store_push_delivery_done(struct store *s, int64_t key,
                             enum store_push_end end, int http_status,
                             const char *error, int64_t next_ms,
                             const char *dest, enum store_dest_answer answer,
                             int64_t busy_ms, const struct store_breaker *b)
{
	if (end < STORE_PUSH_DELIVERED || end > STORE_PUSH_SKIPPED ||
	    busy_ms < 0 || (end == STORE_PUSH_RETRY && next_ms <= 0))
		return BD_EBADREQUEST;
	if (b &&
	    (b->failures < 1 || b->open_ms < 1 || b->open_max_ms < b->open_ms))
		return BD_EBADREQUEST;
	struct push_done x = {key,  end,    http_status, error, next_ms,
	                      dest, answer, busy_ms,     b};
	return store__write_tx(s, push_done_tx, &x);
}

struct push_gone {
	int64_t sub_key;
	const char *dest;
	int64_t busy_ms;
};

static int push_gone_tx(struct conn *c, void *ctx)
{
	struct push_gone *x = ctx;
	int64_t until = 0;
	int rc = store__run(c, ST_PUSH_SUB_GONE, ARGS(A_I64(x->sub_key)), NULL,
	                    NULL);
	/* it answered: a fast answer for its breaker */
	if (rc == 0)
		rc = store__dest_record(c, x->dest, STORE_DEST_FAST, x->busy_ms,
		                        NULL, store__now_ms(), &until);
	return rc;
}

int store_push_sub_gone(struct store *s, int64_t sub_key, const char *dest,
                        int64_t busy_ms)
{
	if (busy_ms < 0)
		return BD_EBADREQUEST;
	struct push_gone x = {sub_key, dest, busy_ms};
	return store__write_tx(s, push_gone_tx, &x);
}

static int push_requeue_tx(struct conn *c, void *ctx)
{
	(void)ctx;
	return store__run(c, ST_PUSH_DLV_REQUEUE, ARGS(A_I64(store__now_ms())),
	                  NULL, NULL);
}

int store_push_deliveries_requeue(struct store *s)
{
	/* a delivery in flight on a shared database may be another live
	 * node's: its lease hands it over */
	if (s->drv->shared)
		return 0;
	return store__write_tx(s, push_requeue_tx, NULL);
}
