/* store_events.c: the per-player event outbox, webhooks and their
 * deliveries.  See store.h; internals in store_int.h. */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "store_int.h"

#define ALL_SEATS (-1) /* a seat mask with every bit set */

/* ---- writing events, inside the change's transaction ---- */

/* A game's state as ST_EV_GAME_STATE reads it. */
struct ev_state {
	int found;
	struct ev_before b;
	int open_seats;
};

static int read_ev_state(const struct row *st, void *ctx)
{
	struct ev_state *r = ctx;
	r->found = 1;
	r->b.active = store__col_int(st, 0);
	r->b.finished = store__col_int(st, 1);
	r->b.to_act = (unsigned)store__col_i64(st, 2);
	r->open_seats = store__col_int(st, 3);
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
static int note_touched(const struct row *st, void *ctx)
{
	struct conn *c = ctx;
	if (c->ntouched < (int)(sizeof c->touched / sizeof *c->touched))
		c->touched[c->ntouched++] = store__col_i64(st, 0);
	return 0;
}

int store__note_game(struct conn *c, int64_t key)
{
	return store__run(c, ST_EV_TOUCHED, ARGS(A_I64(key)), note_touched, c);
}

void store__note_player(struct conn *c, int64_t player_key)
{
	if (c->ntouched < (int)(sizeof c->touched / sizeof *c->touched))
		c->touched[c->ntouched++] = player_key;
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

/* The transaction of store_event_deadline_soon. */
struct deadline_ctx {
	int64_t key, seq, deadline_ms;
	int seat;
	int sent; /* out */
};

static int deadline_tx(struct conn *c, void *ctx)
{
	struct deadline_ctx *x = ctx;
	struct ev_state r;
	int rc = game_state(c, x->key, &r);
	if (rc == 0)
		rc = store__run(c, ST_EV_WARNED,
		                ARGS(A_I64(x->key), A_I64(x->seat),
		                     A_I64(x->deadline_ms), A_I64(x->seq)),
		                NULL, NULL);
	if (rc < 0 || store__changes(c) == 0)
		return rc; /* warned before, or the game moved on */
	x->sent = 1;
	rc = store__run(c, ST_EV_DEADLINE,
	                ARGS(A_I64(x->key), A_I64(x->seat),
	                     A_I64(x->deadline_ms), A_I64(store__now_ms())),
	                NULL, NULL);
	if (rc == 0 && store__changes(c) > 0)
		rc = store__run(c, ST_EV_TOUCHED, ARGS(A_I64(x->key)),
		                note_touched, c);
	return rc;
}

int store_event_deadline_soon(struct store *s, int64_t game_key, uint64_t seq,
                              int seat, int64_t deadline_ms, int *sent)
{
	struct deadline_ctx x = {game_key, (int64_t)seq, deadline_ms, seat, 0};
	int rc = store__write_tx(s, deadline_tx, &x);
	if (sent)
		*sent = rc == 0 && x.sent;
	return rc;
}

/* ---- pruning ---- */

/* The arguments of store_events_prune's transaction. */
struct prune_ctx {
	int64_t before_ms;
	int limit;
	int pruned; /* out */
};

static int prune_tx(struct conn *c, void *ctx)
{
	struct prune_ctx *x = ctx;
	int rc =
	    store__run(c, ST_PRUNE_HORIZONS,
	               ARGS(A_I64(x->before_ms), A_I64(x->limit)), NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_DELIVERIES,
		                ARGS(A_I64(x->before_ms), A_I64(x->limit)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_PUSH_DELIVERIES,
		                ARGS(A_I64(x->before_ms), A_I64(x->limit)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_MAIL_DELIVERIES,
		                ARGS(A_I64(x->before_ms), A_I64(x->limit)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_MAIL_OTHERS, ARGS(A_I64(x->before_ms)),
		                NULL, NULL);
	if (rc == 0) /* the codes' rate limit looks back a day */
		rc = store__run(c, ST_PRUNE_MAIL_CODES,
		                ARGS(A_I64(store__now_ms() - 86400000)), NULL,
		                NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_EVENTS,
		                ARGS(A_I64(x->before_ms), A_I64(x->limit)),
		                NULL, NULL);
	if (rc == 0)
		x->pruned = store__changes(c);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_WARNINGS, ARGS(A_I64(x->before_ms)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_DESTS, ARGS(A_I64(x->before_ms)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_PRUNE_DEST_USE, ARGS(A_I64(x->before_ms)),
		                NULL, NULL);
	return rc;
}

int store_events_prune(struct store *s, int64_t before_ms, int limit,
                       int *pruned)
{
	if (limit < 1 || limit > 100000)
		return BD_EBADREQUEST;
	struct prune_ctx x = {before_ms, limit, 0};
	int rc = store__write_tx(s, prune_tx, &x);
	if (pruned)
		*pruned = rc == 0 ? x.pruned : 0;
	return rc;
}

int store_events_horizon(struct store *s, int64_t player_key, int64_t *key)
{
	struct one_i64 r = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_EV_HORIZON, ARGS(A_I64(player_key)),
	                    store__read_i64, &r);
	store__checkin(s, c);
	if (rc == 0)
		*key = r.found ? r.v : 0;
	return rc;
}

/* ---- reading events ---- */

/* Reads an event from columns col..col+4 (key, id, type, data,
 * created_ms); e->data is borrowed from the statement. */
static int read_event(const struct row *st, int col, struct store_event *e)
{
	memset(e, 0, sizeof *e);
	e->key = store__col_i64(st, col);
	e->data = (const char *)store__col_text(st, col + 3);
	e->created_ms = store__col_i64(st, col + 4);
	int rc = store__col_copy(st, col + 1, e->id, sizeof e->id);
	if (rc == 0)
		rc = store__col_copy(st, col + 2, e->type, sizeof e->type);
	return rc == 0 && !e->data ? BD_EINTERNAL : rc;
}

struct events_ctx {
	store_event_fn fn;
	void *ctx;
};

static int each_event(const struct row *st, void *ctx)
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

/* A sealed secret: nonce, then ciphertext and tag. */
#define SEAL_NONCE crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define SEAL_TAG   crypto_aead_xchacha20poly1305_ietf_ABYTES
#define SEALED_MAX (SEAL_NONCE + STORE_SECRET_MAX + SEAL_TAG)

/* The associated data binding a sealed secret to its player's row: the
 * player key, 8 bytes big-endian (a secret copied to another row does
 * not open). */
static void seal_ad(int64_t player_key, uint8_t ad[8])
{
	for (int i = 0; i < 8; i++)
		ad[i] = (uint8_t)((uint64_t)player_key >> (56 - 8 * i));
}

/* Seals secret[0..n) (n <= STORE_SECRET_MAX) for player_key's row into
 * out (SEALED_MAX bytes); returns the sealed length. */
static size_t seal(const struct store *s, int64_t player_key,
                   const uint8_t *secret, size_t n, uint8_t *out)
{
	uint8_t ad[8];
	unsigned long long len = 0;
	seal_ad(player_key, ad);
	randombytes_buf(out, SEAL_NONCE);
	crypto_aead_xchacha20poly1305_ietf_encrypt(out + SEAL_NONCE, &len,
	                                           secret, n, ad, sizeof ad,
	                                           NULL, out, s->secret_key);
	return SEAL_NONCE + (size_t)len;
}

/* Opens a sealed secret of player_key's row into w->secret.  0, or
 * BD_EINTERNAL when it does not open (another key, a damaged row). */
static int unseal(const struct store *s, int64_t player_key, const uint8_t *in,
                  size_t n, struct store_webhook *w)
{
	uint8_t ad[8];
	unsigned long long len = 0;
	if (n < SEAL_NONCE + SEAL_TAG + 1 || n > SEALED_MAX)
		return BD_EINTERNAL;
	seal_ad(player_key, ad);
	if (crypto_aead_xchacha20poly1305_ietf_decrypt(
	        w->secret, &len, NULL, in + SEAL_NONCE, n - SEAL_NONCE, ad,
	        sizeof ad, in, s->secret_key) != 0)
		return BD_EINTERNAL;
	w->secret_len = (size_t)len;
	return 0;
}

struct hook_put_ctx {
	struct store *s;
	int64_t player_key;
	const struct store_webhook *w;
};

static int hook_put_tx(struct conn *c, void *ctx)
{
	struct hook_put_ctx *x = ctx;
	const struct store_webhook *w = x->w;
	uint8_t sealed[SEALED_MAX];
	size_t n = seal(x->s, x->player_key, w->secret, w->secret_len, sealed);
	return store__run(
	    c, ST_HOOK_PUT,
	    ARGS(A_I64(x->player_key), A_TEXT(w->url), A_BLOB(sealed, (int)n),
	         A_I64(w->created_ms ? w->created_ms : store__now_ms()),
	         A_TEXT(w->dest)),
	    NULL, NULL);
}

int store_webhook_put(struct store *s, int64_t player_key,
                      const struct store_webhook *w)
{
	if (w->secret_len < 24 || w->secret_len > STORE_SECRET_MAX ||
	    strlen(w->url) > STORE_URL_MAX || !w->dest[0] ||
	    strlen(w->dest) > STORE_DEST_MAX)
		return BD_EBADREQUEST;
	struct hook_put_ctx x = {s, player_key, w};
	return store__write_tx(s, hook_put_tx, &x);
}

/* Reads HOOK_COLS from columns col.. into *w, opening the secret (a
 * clear one only before store__hooks_seal has run: never served). */
static int read_hook(const struct store *s, const struct row *st, int col,
                     struct store_webhook *w)
{
	const uint8_t *secret = store__col_blob(st, col + 1);
	int n = store__col_bytes(st, col + 1);
	int64_t player_key = store__col_i64(st, col + 3);
	int sealed = store__col_int(st, col + 4);
	if (!secret || n < 1 || !sealed)
		return BD_EINTERNAL;
	int rc = unseal(s, player_key, secret, (size_t)n, w);
	if (rc < 0)
		return rc;
	w->created_ms = store__col_i64(st, col + 2);
	w->disabled_ms = store__col_i64(st, col + 5);
	const char *why = (const char *)store__col_text(st, col + 6);
	snprintf(w->disabled_why, sizeof w->disabled_why, "%s", why ? why : "");
	rc = store__col_copy(st, col + 7, w->dest, sizeof w->dest);
	return rc < 0 ? rc : store__col_copy(st, col, w->url, sizeof w->url);
}

struct hook_row {
	const struct store *s;
	int found;
	struct store_webhook *w;
};

static int each_hook(const struct row *st, void *ctx)
{
	struct hook_row *r = ctx;
	r->found = 1;
	return read_hook(r->s, st, 0, r->w);
}

int store_webhook_get(struct store *s, int64_t player_key,
                      struct store_webhook *out)
{
	struct store_webhook w;
	struct hook_row r = {s, 0, &w};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_HOOK_GET, ARGS(A_I64(player_key)), each_hook, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*out = w;
	sodium_memzero(&w, sizeof w);
	return rc;
}

/* The clear rows are read first (a statement cannot run while its own
 * rows are read): at most this many per transaction, repeated. */
struct clear_rows {
	int n;
	int64_t keys[64];
	uint8_t secrets[64][STORE_SECRET_MAX];
	int lens[64];
};

static int read_clear(const struct row *st, void *ctx)
{
	struct clear_rows *r = ctx;
	int n = store__col_bytes(st, 1);
	const void *p = store__col_blob(st, 1);
	if (r->n == 64)
		return 0;
	if (!p || n < 24 || n > STORE_SECRET_MAX)
		return BD_EINTERNAL;
	r->keys[r->n] = store__col_i64(st, 0);
	memcpy(r->secrets[r->n], p, (size_t)n);
	r->lens[r->n++] = n;
	return 0;
}

struct seal_ctx {
	struct store *s;
	struct clear_rows rows;
};

static int seal_tx(struct conn *c, void *ctx)
{
	struct seal_ctx *x = ctx;
	x->rows.n = 0;
	int rc = store__run(c, ST_HOOK_UNSEALED, NO_ARGS, read_clear, &x->rows);
	for (int i = 0; rc == 0 && i < x->rows.n; i++) {
		uint8_t sealed[SEALED_MAX];
		size_t len = seal(x->s, x->rows.keys[i], x->rows.secrets[i],
		                  (size_t)x->rows.lens[i], sealed);
		rc = store__run(
		    c, ST_HOOK_SEAL,
		    ARGS(A_I64(x->rows.keys[i]), A_BLOB(sealed, (int)len)),
		    NULL, NULL);
	}
	return rc;
}

/* row_fn: tries to open one sealed secret. */
static int try_open(const struct row *st, void *ctx)
{
	const struct store *s = ctx;
	struct store_webhook w;
	const uint8_t *p = store__col_blob(st, 1);
	int rc = p ? unseal(s, store__col_i64(st, 0), p,
	                    (size_t)store__col_bytes(st, 1), &w)
	           : BD_EINTERNAL;
	sodium_memzero(&w, sizeof w);
	return rc;
}

int store__hooks_seal(struct store *s, char *err, size_t errlen)
{
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_HOOK_ANY_SEALED, NO_ARGS, try_open, s);
	store__checkin(s, c);
	if (rc == BD_EINTERNAL) {
		snprintf(err, errlen,
		         "the server key does not open the webhook secrets "
		         "sealed in this database (was its key file "
		         "replaced?)");
		return BD_EBADREQUEST;
	}
	struct seal_ctx *x = calloc(1, sizeof *x);
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return BD_ENOMEM;
	}
	x->s = s;
	do
		rc = rc < 0 ? rc : store__write_tx(s, seal_tx, x);
	while (rc == 0 && x->rows.n == 64);
	sodium_memzero(x, sizeof *x);
	free(x);
	if (rc < 0)
		snprintf(err, errlen,
		         "cannot seal the webhook secrets stored clear "
		         "(bd_err %d)",
		         rc);
	return rc;
}

static int hook_delete_tx(struct conn *c, void *ctx)
{
	const int64_t *player_key = ctx;
	int rc =
	    store__run(c, ST_HOOK_DELETE, ARGS(A_I64(*player_key)), NULL, NULL);
	if (rc == 0 && store__changes(c) == 0)
		return BD_ENOTFOUND;
	if (rc == 0)
		rc = store__run(
		    c, ST_HOOK_ORPHANS,
		    ARGS(A_I64(*player_key), A_TEXT("webhook-removed")), NULL,
		    NULL);
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

/* Reads DLV_COLS (and, with s, HOOK_COLS after them) into *d;
 * d->ev.data becomes a malloc'd copy. */
static int read_delivery(const struct store *s, const struct row *st,
                         struct store_delivery *d)
{
	memset(d, 0, sizeof *d);
	int rc = read_event(st, 0, &d->ev);
	d->ev.data = rc == 0 ? strdup(d->ev.data) : NULL;
	if (rc < 0)
		return rc;
	if (!d->ev.data)
		return BD_ENOMEM;
	d->attempts = store__col_int(st, 6);
	d->next_ms = store__col_i64(st, 7);
	d->last_ms = store__col_i64(st, 8);
	d->last_status = store__col_int(st, 9);
	rc = store__col_copy(st, 5, d->state, sizeof d->state);
	if (rc == 0) {
		const char *e = (const char *)store__col_text(st, 10);
		snprintf(d->last_error, sizeof d->last_error, "%s", e ? e : "");
	}
	if (rc == 0 && s) {
		rc = read_hook(s, st, 11, &d->hook);
		d->dest_failures = store__col_int(st, 19);
		d->dest_limited = store__col_int(st, 20) > 0;
	}
	return rc;
}

struct dlv_row {
	const struct store *s;
	int found;
	struct store_delivery *d;
};

static int one_delivery(const struct row *st, void *ctx)
{
	struct dlv_row *r = ctx;
	r->found = 1;
	return read_delivery(r->s, st, r->d);
}

struct claim_dlv_ctx {
	int64_t now, lease;
	struct store_claim_rules rules;
	struct one_i64 key; /* out: the claimed delivery */
};

static int claim_dlv_tx(struct conn *c, void *ctx)
{
	struct claim_dlv_ctx *x = ctx;
	const struct store_claim_rules *r = &x->rules;
	return store__run(c, ST_DLV_CLAIM,
	                  ARGS(A_I64(x->now), A_I64(x->now + x->lease),
	                       A_I64(r->per_dest), A_I64(r->per_failing),
	                       A_I64(r->failing_ok)),
	                  store__read_i64, &x->key);
}

int store_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                         const struct store_claim_rules *rules,
                         struct store_delivery *out, int64_t *next_ms)
{
	/* NULL: no cap (a count of leases never reaches INT32_MAX) */
	static const struct store_claim_rules any = {INT32_MAX, INT32_MAX, 1};
	struct claim_dlv_ctx x = {now_ms, lease_ms, rules ? *rules : any, {0}};
	if (x.rules.per_dest < 1 || x.rules.per_failing < 1)
		return BD_EBADREQUEST;
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
	struct dlv_row r = {s, 0, out};
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
	const char *dest;
	enum store_dest_answer answer;
	int64_t busy_ms; /* the attempt's time in flight */
	int ok, status;
	const char *error;
	int64_t next;
	const struct store_breaker *b;
};

/* When destination's breaker, now at `failures` consecutive failures,
 * is open until (unix ms), 0 if it stays closed. */
static int64_t breaker_until(const struct store_breaker *b, int failures,
                             int64_t now)
{
	if (failures < b->failures)
		return 0;
	int64_t open = b->open_ms;
	for (int i = b->failures; i < failures && open < b->open_max_ms; i++)
		open *= 2;
	return now + (open < b->open_max_ms ? open : b->open_max_ms);
}

/* The breaker's side of an attempt's end: a fast answer closes it, a
 * slow one keeps dest in the failing share with no failure counted (row
 * of 0 failures, never open), no answer counts.  *until gets when it is
 * open until (0: not open). */
static int breaker_tx(struct conn *c, const char *dest,
                      enum store_dest_answer answer,
                      const struct store_breaker *b, int64_t now,
                      int64_t *until)
{
	struct one_i64 failures = {0};
	*until = 0;
	if (answer == STORE_DEST_FAST)
		return store__run(c, ST_DEST_OK, ARGS(A_TEXT(dest)), NULL,
		                  NULL);
	int rc = 0;
	if (answer == STORE_DEST_FAILED)
		rc = store__run(c, ST_DEST_FAILURES, ARGS(A_TEXT(dest)),
		                store__read_i64, &failures);
	int n = answer != STORE_DEST_FAILED  ? 0
	        : failures.v < INT32_MAX - 1 ? (int)failures.v + 1
	                                     : INT32_MAX;
	*until = n > 0 ? breaker_until(b, n, now) : 0;
	if (rc == 0)
		rc = store__run(
		    c, ST_DEST_FAIL,
		    ARGS(A_TEXT(dest), A_I64(n), A_I64(*until), A_I64(now)),
		    NULL, NULL);
	return rc;
}

int store__dest_record(struct conn *c, const char *dest,
                       enum store_dest_answer answer, int64_t busy_ms,
                       const struct store_breaker *b, int64_t now,
                       int64_t *until)
{
	int rc = 0;
	*until = 0;
	if (!dest || !dest[0])
		return 0;
	if (b)
		rc = breaker_tx(c, dest, answer, b, now, until);
	if (rc == 0)
		rc = store__run(c, ST_DEST_USE,
		                ARGS(A_TEXT(dest), A_I64(busy_ms), A_I64(now)),
		                NULL, NULL);
	return rc;
}

static int done_tx(struct conn *c, void *ctx)
{
	struct done_ctx *x = ctx;
	int64_t now = store__now_ms();
	int rc = store__run(c, ST_DLV_DONE,
	                    ARGS(A_I64(x->key), A_I64(x->ok), A_I64(x->status),
	                         A_TEXT(x->error ? x->error : ""),
	                         A_I64(x->ok ? 0 : x->next), A_I64(now)),
	                    NULL, NULL);
	int64_t until = 0;
	if (rc == 0)
		rc = store__dest_record(c, x->dest, x->answer, x->busy_ms, x->b,
		                        now, &until);
	/* open: what waits for it is due when it half opens, so the claim
	 * of others does not walk a dead receiver's backlog meanwhile */
	if (rc == 0 && until > 0)
		rc =
		    store__run(c, ST_DEST_HOLD,
		               ARGS(A_TEXT(x->dest), A_I64(until)), NULL, NULL);
	/* answered, not accepted: this webhook backs off, not its host */
	if (rc == 0 && x->b && !x->ok && x->status > 0 && x->next > 0)
		rc =
		    store__run(c, ST_HOOK_HOLD,
		               ARGS(A_I64(x->key), A_I64(x->next)), NULL, NULL);
	return rc;
}

int store_delivery_done(struct store *s, int64_t event_key, const char *dest,
                        enum store_dest_answer answer, int64_t busy_ms, int ok,
                        int http_status, const char *error, int64_t next_ms,
                        const struct store_breaker *b)
{
	if (busy_ms < 0)
		return BD_EBADREQUEST;
	if (b &&
	    (b->failures < 1 || b->open_ms < 1 || b->open_max_ms < b->open_ms))
		return BD_EBADREQUEST;
	if (answer != STORE_DEST_FAST && answer != STORE_DEST_SLOW &&
	    answer != STORE_DEST_FAILED)
		return BD_EBADREQUEST;
	struct done_ctx x = {event_key,   dest,  answer,  busy_ms, ok,
	                     http_status, error, next_ms, b};
	return store__write_tx(s, done_tx, &x);
}

struct gone_ctx {
	int64_t key;
	int status;
	const char *why;
	int64_t hook_created_ms;
};

static int gone_tx(struct conn *c, void *ctx)
{
	struct gone_ctx *x = ctx;
	struct one_i64 player = {0};
	int64_t now = store__now_ms();
	/* the delivery's error is a word (store_delivery.last_error); the
	 * webhook keeps the sentence */
	int rc = store__run(
	    c, ST_DLV_GONE,
	    ARGS(A_I64(x->key), A_I64(x->status), A_TEXT("gone"), A_I64(now)),
	    store__read_i64, &player);
	if (rc < 0 || !player.found)
		return rc;
	rc = store__run(c, ST_HOOK_DISABLE,
	                ARGS(A_I64(player.v), A_I64(x->hook_created_ms),
	                     A_TEXT(x->why), A_I64(now)),
	                NULL, NULL);
	if (rc == 0 && store__changes(c) > 0)
		rc = store__run(
		    c, ST_HOOK_ORPHANS,
		    ARGS(A_I64(player.v), A_TEXT("webhook-disabled")), NULL,
		    NULL);
	return rc;
}

int store_delivery_gone(struct store *s, int64_t event_key, int http_status,
                        const char *why, int64_t hook_created_ms)
{
	struct gone_ctx x = {event_key, http_status, why ? why : "",
	                     hook_created_ms};
	return store__write_tx(s, gone_tx, &x);
}

static int requeue_tx(struct conn *c, void *ctx)
{
	(void)ctx;
	return store__run(c, ST_DLV_REQUEUE, ARGS(A_I64(store__now_ms())), NULL,
	                  NULL);
}

int store_deliveries_requeue(struct store *s)
{
	/* On a shared database a delivery in flight may be another live
	 * node's: its lease (store_delivery_claim) is what hands it over. */
	if (s->drv->shared)
		return 0;
	return store__write_tx(s, requeue_tx, NULL);
}

struct dlv_list_ctx {
	store_delivery_fn fn;
	void *ctx;
};

static int each_delivery(const struct row *st, void *ctx)
{
	struct dlv_list_ctx *x = ctx;
	struct store_delivery d;
	int rc = read_delivery(NULL, st, &d);
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
