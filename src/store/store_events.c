/* store_events.c: the per-player event outbox, webhooks and their
 * deliveries.  See store.h; internals in sqlite_int.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

#define ALL_SEATS (-1) /* a seat mask with every bit set */

/* ---- writing events, inside the change's transaction ---- */

/* A game's state as ST_EV_GAME_STATE reads it. */
struct ev_state {
	int found;
	struct ev_before b;
	int open_seats;
};

static int read_ev_state(sqlite3_stmt *st, void *ctx)
{
	struct ev_state *r = ctx;
	r->found = 1;
	r->b.active = sqlite3_column_int(st, 0);
	r->b.finished = sqlite3_column_int(st, 1);
	r->b.to_act = (unsigned)sqlite3_column_int64(st, 2);
	r->open_seats = sqlite3_column_int(st, 3);
	return 0;
}

static int game_state(struct conn *c, int64_t key, struct ev_state *r)
{
	memset(r, 0, sizeof *r);
	int rc =
	    store__run(c, ST_EV_GAME_STATE, ARGS(A_I64(key)), read_ev_state, r);
	return rc == 0 && !r->found ? BD_ENOTFOUND : rc;
}

int store__events_before(struct conn *c, int64_t key, struct ev_before *b)
{
	struct ev_state r;
	int rc = game_state(c, key, &r);
	if (rc == 0)
		*b = r.b;
	return rc;
}

/* One event of `type` to each seated player whose seat is in `mask`. */
static int seated(struct conn *c, int64_t key, const char *type, int64_t mask,
                  int64_t now)
{
	if (mask == 0)
		return 0;
	return store__run(
	    c, ST_EV_SEATED,
	    ARGS(A_I64(key), A_TEXT(type), A_I64(mask), A_I64(now)), NULL,
	    NULL);
}

/* row_fn noting a player key for the change listener. */
static int note_touched(sqlite3_stmt *st, void *ctx)
{
	struct conn *c = ctx;
	if (c->ntouched < (int)(sizeof c->touched / sizeof *c->touched))
		c->touched[c->ntouched++] = sqlite3_column_int64(st, 0);
	return 0;
}

int store__events_after(struct conn *c, int64_t key, const struct ev_before *b)
{
	static const struct ev_before created = {0, 0, 0};
	struct ev_state now;
	int64_t t = store__now_ms();
	int rc = game_state(c, key, &now);
	if (rc == 0 && !b)
		rc = store__run(c, ST_EV_INVITED, ARGS(A_I64(key), A_I64(t)),
		                NULL, NULL);
	if (!b)
		b = &created;
	if (rc < 0)
		return rc;
	if (now.b.finished && !b->finished) {
		rc = seated(c, key, "game.finished", ALL_SEATS, t);
	} else if (now.b.active && now.open_seats == 0) {
		unsigned fresh = now.b.to_act;
		if (!b->active)
			rc = seated(c, key, "game.started", ALL_SEATS, t);
		else
			fresh &= ~b->to_act; /* already told */
		if (rc == 0)
			rc = seated(c, key, "turn", fresh, t);
	}
	if (rc == 0)
		rc = store__run(c, ST_EV_TOUCHED, ARGS(A_I64(key)),
		                note_touched, c);
	return rc;
}

void store__changes_flush(struct store *s, struct conn *c, int committed)
{
	int64_t touched[sizeof c->touched / sizeof *c->touched];
	int n = committed ? c->ntouched : 0;
	memcpy(touched, c->touched, (size_t)n * sizeof *touched);
	c->ntouched = 0;
	pthread_mutex_unlock(&s->write_mu);
	pthread_mutex_lock(&s->mu);
	store_change_fn fn = s->on_change;
	void *ctx = s->on_change_ctx;
	pthread_mutex_unlock(&s->mu);
	for (int i = 0; fn && i < n; i++)
		fn(ctx, touched[i]);
}

void store_on_change(struct store *s, store_change_fn fn, void *ctx)
{
	pthread_mutex_lock(&s->mu);
	s->on_change = fn;
	s->on_change_ctx = ctx;
	pthread_mutex_unlock(&s->mu);
}

/* The transaction of store_event_deadline_soon. */
struct deadline_ctx {
	int64_t key, deadline_ms;
	int seat;
};

static int deadline_tx(struct conn *c, void *ctx)
{
	struct deadline_ctx *x = ctx;
	struct ev_state r;
	int rc = game_state(c, x->key, &r);
	if (rc == 0)
		rc = store__run(c, ST_EV_DEADLINE,
		                ARGS(A_I64(x->key), A_I64(x->seat),
		                     A_I64(x->deadline_ms),
		                     A_I64(store__now_ms())),
		                NULL, NULL);
	if (rc == 0 && sqlite3_changes(c->db) > 0)
		rc = store__run(c, ST_EV_TOUCHED, ARGS(A_I64(x->key)),
		                note_touched, c);
	return rc;
}

int store_event_deadline_soon(struct store *s, int64_t game_key, int seat,
                              int64_t deadline_ms)
{
	struct deadline_ctx x = {game_key, deadline_ms, seat};
	return store__write_tx(s, deadline_tx, &x);
}

/* ---- reading events ---- */

/* Reads an event from columns col..col+4 (key, id, type, data,
 * created_ms); e->data is borrowed from the statement. */
static int read_event(sqlite3_stmt *st, int col, struct store_event *e)
{
	memset(e, 0, sizeof *e);
	e->key = sqlite3_column_int64(st, col);
	e->data = (const char *)sqlite3_column_text(st, col + 3);
	e->created_ms = sqlite3_column_int64(st, col + 4);
	int rc = store__col_copy(st, col + 1, e->id, sizeof e->id);
	if (rc == 0)
		rc = store__col_copy(st, col + 2, e->type, sizeof e->type);
	return rc == 0 && !e->data ? BD_EINTERNAL : rc;
}

struct events_ctx {
	store_event_fn fn;
	void *ctx;
};

static int each_event(sqlite3_stmt *st, void *ctx)
{
	struct events_ctx *x = ctx;
	struct store_event e;
	int rc = read_event(st, 0, &e);
	return rc < 0 ? rc : x->fn(x->ctx, &e);
}

int store_events_each(struct store *s, int64_t player_key, int64_t after_key,
                      int limit, store_event_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	struct events_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_EV_AFTER,
	               ARGS(A_I64(player_key), A_I64(after_key), A_I64(limit)),
	               each_event, &x);
	store__checkin(s, c);
	return rc;
}

int store_events_last(struct store *s, int64_t player_key, int64_t *key)
{
	struct one_i64 r = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_EV_LAST, ARGS(A_I64(player_key)),
	                    store__read_i64, &r);
	store__checkin(s, c);
	if (rc == 0)
		*key = r.v;
	return rc;
}

/* ---- webhooks ---- */

struct hook_put_ctx {
	int64_t player_key;
	const struct store_webhook *w;
};

static int hook_put_tx(struct conn *c, void *ctx)
{
	struct hook_put_ctx *x = ctx;
	const struct store_webhook *w = x->w;
	return store__run(
	    c, ST_HOOK_PUT,
	    ARGS(A_I64(x->player_key), A_TEXT(w->url),
	         A_BLOB(w->secret, (int)w->secret_len),
	         A_I64(w->created_ms ? w->created_ms : store__now_ms())),
	    NULL, NULL);
}

int store_webhook_put(struct store *s, int64_t player_key,
                      const struct store_webhook *w)
{
	if (w->secret_len < 24 || w->secret_len > STORE_SECRET_MAX ||
	    strlen(w->url) > STORE_URL_MAX)
		return BD_EBADREQUEST;
	struct hook_put_ctx x = {player_key, w};
	return store__write_tx(s, hook_put_tx, &x);
}

/* Reads url, secret, created_ms from columns col..col+2. */
static int read_hook(sqlite3_stmt *st, int col, struct store_webhook *w)
{
	const void *secret = sqlite3_column_blob(st, col + 1);
	int n = sqlite3_column_bytes(st, col + 1);
	if (!secret || n < 1 || n > STORE_SECRET_MAX)
		return BD_EINTERNAL;
	memcpy(w->secret, secret, (size_t)n);
	w->secret_len = (size_t)n;
	w->created_ms = col + 2 < sqlite3_column_count(st)
	                    ? sqlite3_column_int64(st, col + 2)
	                    : 0;
	return store__col_copy(st, col, w->url, sizeof w->url);
}

struct hook_row {
	int found;
	struct store_webhook *w;
};

static int each_hook(sqlite3_stmt *st, void *ctx)
{
	struct hook_row *r = ctx;
	r->found = 1;
	return read_hook(st, 0, r->w);
}

int store_webhook_get(struct store *s, int64_t player_key,
                      struct store_webhook *out)
{
	struct store_webhook w;
	struct hook_row r = {0, &w};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_HOOK_GET, ARGS(A_I64(player_key)), each_hook, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*out = w;
	return rc;
}

static int hook_delete_tx(struct conn *c, void *ctx)
{
	const int64_t *player_key = ctx;
	int rc =
	    store__run(c, ST_HOOK_DELETE, ARGS(A_I64(*player_key)), NULL, NULL);
	if (rc == 0 && sqlite3_changes(c->db) == 0)
		return BD_ENOTFOUND;
	if (rc == 0)
		rc = store__run(c, ST_HOOK_ORPHANS, ARGS(A_I64(*player_key)),
		                NULL, NULL);
	return rc;
}

int store_webhook_delete(struct store *s, int64_t player_key)
{
	return store__write_tx(s, hook_delete_tx, &player_key);
}

/* ---- deliveries ---- */

void store_delivery_release(struct store_delivery *d)
{
	free((char *)d->ev.data);
	d->ev.data = NULL;
}

/* Reads DLV_COLS (and, with_hook, url and secret after them) into *d;
 * d->ev.data becomes a malloc'd copy. */
static int read_delivery(sqlite3_stmt *st, struct store_delivery *d,
                         int with_hook)
{
	memset(d, 0, sizeof *d);
	int rc = read_event(st, 0, &d->ev);
	d->ev.data = rc == 0 ? strdup(d->ev.data) : NULL;
	if (rc < 0)
		return rc;
	if (!d->ev.data)
		return BD_ENOMEM;
	d->attempts = sqlite3_column_int(st, 6);
	d->next_ms = sqlite3_column_int64(st, 7);
	d->last_ms = sqlite3_column_int64(st, 8);
	d->last_status = sqlite3_column_int(st, 9);
	rc = store__col_copy(st, 5, d->state, sizeof d->state);
	if (rc == 0) {
		const char *e = (const char *)sqlite3_column_text(st, 10);
		snprintf(d->last_error, sizeof d->last_error, "%s", e ? e : "");
	}
	if (rc == 0 && with_hook)
		rc = read_hook(st, 11, &d->hook);
	return rc;
}

struct dlv_row {
	int found;
	struct store_delivery *d;
};

static int one_delivery(sqlite3_stmt *st, void *ctx)
{
	struct dlv_row *r = ctx;
	r->found = 1;
	return read_delivery(st, r->d, 1);
}

struct claim_dlv_ctx {
	int64_t now, lease;
	struct one_i64 key; /* out: the claimed delivery */
};

static int claim_dlv_tx(struct conn *c, void *ctx)
{
	struct claim_dlv_ctx *x = ctx;
	return store__run(c, ST_DLV_CLAIM,
	                  ARGS(A_I64(x->now), A_I64(x->now + x->lease)),
	                  store__read_i64, &x->key);
}

int store_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                         struct store_delivery *out, int64_t *next_ms)
{
	struct claim_dlv_ctx x = {now_ms, lease_ms, {0}};
	struct one_i64 next = {0};
	/* A read first: most looks find nothing due, and need no write
	 * lock. */
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_DLV_NEXT, NO_ARGS, store__read_i64, &next);
	store__checkin(s, c);
	if (rc == 0 && next.v > 0 && next.v <= now_ms)
		rc = store__write_tx(s, claim_dlv_tx, &x);
	if (rc < 0)
		return rc;
	if (!x.key.found) {
		if (next_ms)
			*next_ms = next.v;
		return BD_ENOTFOUND;
	}
	c = store__checkout(s);
	struct dlv_row r = {0, out};
	rc = store__run(c, ST_DLV_GET, ARGS(A_I64(x.key.v)), one_delivery, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND; /* the webhook went away meanwhile */
	if (rc < 0)
		store_delivery_release(out);
	return rc;
}

struct done_ctx {
	int64_t key;
	int ok, status;
	const char *error;
	int64_t next;
};

static int done_tx(struct conn *c, void *ctx)
{
	struct done_ctx *x = ctx;
	return store__run(c, ST_DLV_DONE,
	                  ARGS(A_I64(x->key), A_I64(x->ok), A_I64(x->status),
	                       A_TEXT(x->error ? x->error : ""),
	                       A_I64(x->ok ? 0 : x->next),
	                       A_I64(store__now_ms())),
	                  NULL, NULL);
}

int store_delivery_done(struct store *s, int64_t event_key, int ok,
                        int http_status, const char *error, int64_t next_ms)
{
	struct done_ctx x = {event_key, ok, http_status, error, next_ms};
	return store__write_tx(s, done_tx, &x);
}

static int requeue_tx(struct conn *c, void *ctx)
{
	(void)ctx;
	return store__run(c, ST_DLV_REQUEUE, ARGS(A_I64(store__now_ms())), NULL,
	                  NULL);
}

int store_deliveries_requeue(struct store *s)
{
	return store__write_tx(s, requeue_tx, NULL);
}

struct dlv_list_ctx {
	store_delivery_fn fn;
	void *ctx;
};

static int each_delivery(sqlite3_stmt *st, void *ctx)
{
	struct dlv_list_ctx *x = ctx;
	struct store_delivery d;
	int rc = read_delivery(st, &d, 0);
	if (rc == 0)
		rc = x->fn(x->ctx, &d);
	store_delivery_release(&d);
	return rc;
}

int store_deliveries_each(struct store *s, int64_t player_key, int limit,
                          store_delivery_fn fn, void *ctx)
{
	if (limit < 1 || limit > 100)
		return BD_EBADREQUEST;
	struct dlv_list_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_DLV_LIST, ARGS(A_I64(player_key), A_I64(limit)),
	               each_delivery, &x);
	store__checkin(s, c);
	return rc;
}
