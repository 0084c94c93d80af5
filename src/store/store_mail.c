/* store_mail.c: players' email addresses and the mail outbox
 * (sql/0028_mail.sql).  See store.h, "email". */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "store_int.h"

static int read_mail(const struct row *st, void *ctx)
{
	struct store_mail *m = ctx;
	int rc = store__col_copy(st, 0, m->address, sizeof m->address);
	if (rc == 0)
		rc = store__col_copy(st, 1, m->lang, sizeof m->lang);
	m->confirmed_ms = store__col_i64(st, 2);
	if (rc == 0)
		rc = store__col_copy(st, 3, m->mode, sizeof m->mode);
	m->digest_hour = store__col_int(st, 4);
	if (rc == 0)
		rc = store__col_copy(st, 5, m->tz, sizeof m->tz);
	if (rc == 0)
		rc = store__col_copy(st, 6, m->unsub_token,
		                     sizeof m->unsub_token);
	m->created_ms = store__col_i64(st, 7);
	m->code_expires_ms = store__col_i64(st, 8);
	return rc;
}

/* Runs a one-row read of a struct store_mail (ST_MAIL_GET's columns). */
static int mail_read(struct conn *c, enum stmt id, const struct arg *a, int n,
                     struct store_mail *out)
{
	memset(out, 0, sizeof *out);
	int rc = store__run(c, id, a, n, read_mail, out);
	if (rc == 0 && !out->address[0])
		rc = BD_ENOTFOUND; /* no row: an address is never empty */
	return rc;
}

int store_mail_get(struct store *s, int64_t player_key, struct store_mail *out)
{
	struct conn *c = store__checkout(s);
	int rc = mail_read(c, ST_MAIL_GET, ARGS(A_I64(player_key)), out);
	store__checkin(s, c);
	return rc;
}

struct mail_set {
	int64_t player_key;
	const struct store_mail *m;
	const uint8_t *hash;
	const char *code;
	const struct store_mail_limits *lim;
};

static int mail_set_tx(struct conn *c, void *ctx)
{
	struct mail_set *x = ctx;
	const struct store_mail *m = x->m;
	int64_t now = m->created_ms, n = 0;
	int rc = store__lookup_i64(
	    c, ST_MAIL_CODES_BY_ADDR,
	    ARGS(A_TEXT(m->address), A_I64(now - x->lim->addr_window_ms)), &n);
	if (rc == 0 && n > 0)
		return BD_EMAILLIMIT;
	if (rc == 0)
		rc = store__lookup_i64(
		    c, ST_MAIL_CODES_BY_PLAYER,
		    ARGS(A_I64(x->player_key),
		         A_I64(now - x->lim->player_window_ms)),
		    &n);
	if (rc == 0 && n >= x->lim->player_max)
		return BD_EMAILLIMIT;
	if (rc == 0)
		rc = store__run(
		    c, ST_MAIL_SET,
		    ARGS(A_I64(x->player_key), A_TEXT(m->address),
		         A_TEXT(m->lang), A_BLOB(x->hash, STORE_MAIL_CODE_LEN),
		         A_I64(m->code_expires_ms), A_TEXT(m->unsub_token),
		         A_I64(now)),
		    NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_MAIL_CODE_SENT,
		                ARGS(A_TEXT(m->address), A_I64(x->player_key),
		                     A_I64(now)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_MAIL_DLV_DROP, ARGS(A_I64(x->player_key)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_MAIL_DLV_CONFIRM,
		                ARGS(A_I64(x->player_key), A_TEXT(m->address),
		                     A_TEXT(x->code), A_I64(now)),
		                NULL, NULL);
	return rc;
}

int store_mail_set(struct store *s, int64_t player_key,
                   const struct store_mail *m, const uint8_t *code_hash,
                   const char *code, const struct store_mail_limits *lim)
{
	if (!m || !code_hash || !code || !lim || lim->player_max < 1)
		return BD_EBADREQUEST;
	struct mail_set x = {player_key, m, code_hash, code, lim};
	return store__write_tx(s, mail_set_tx, &x);
}

struct code_row {
	int found;
	uint8_t hash[STORE_MAIL_CODE_LEN];
	int64_t expires_ms;
};

static int read_code(const struct row *st, void *ctx)
{
	struct code_row *r = ctx;
	const void *p = store__col_blob(st, 0);
	if (!p || store__col_bytes(st, 0) != STORE_MAIL_CODE_LEN)
		return BD_EINTERNAL;
	memcpy(r->hash, p, sizeof r->hash);
	r->expires_ms = store__col_i64(st, 1);
	r->found = 1;
	return 0;
}

struct mail_confirm {
	int64_t player_key, now;
	const uint8_t *hash;
	int result; /* 0 or BD_EMAILCODE, the tx itself committing */
};

static int mail_confirm_tx(struct conn *c, void *ctx)
{
	struct mail_confirm *x = ctx;
	struct code_row r = {0};
	int rc = store__run(c, ST_MAIL_CODE_GET, ARGS(A_I64(x->player_key)),
	                    read_code, &r);
	if (rc < 0)
		return rc;
	if (!r.found || r.expires_ms <= x->now) {
		x->result = BD_EMAILCODE;
		return 0;
	}
	if (sodium_memcmp(r.hash, x->hash, sizeof r.hash) != 0) {
		x->result = BD_EMAILCODE; /* the miss is counted */
		return store__run(c, ST_MAIL_CODE_MISS,
		                  ARGS(A_I64(x->player_key)), NULL, NULL);
	}
	x->result = 0;
	return store__run(c, ST_MAIL_CONFIRM,
	                  ARGS(A_I64(x->player_key), A_I64(x->now)), NULL,
	                  NULL);
}

int store_mail_confirm(struct store *s, int64_t player_key,
                       const uint8_t *code_hash, int64_t now_ms)
{
	struct mail_confirm x = {player_key, now_ms, code_hash, 0};
	int rc = store__write_tx(s, mail_confirm_tx, &x);
	return rc < 0 ? rc : x.result;
}

struct mail_prefs {
	int64_t player_key;
	const char *mode, *tz, *lang;
	int hour;
	int64_t due_ms;
};

static int mail_prefs_tx(struct conn *c, void *ctx)
{
	struct mail_prefs *x = ctx;
	int rc = store__run(c, ST_MAIL_PREFS,
	                    ARGS(A_I64(x->player_key), A_TEXT(x->mode),
	                         A_I64(x->hour), A_TEXT(x->tz),
	                         A_TEXT(x->lang), A_I64(x->due_ms)),
	                    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND;
	return rc;
}

int store_mail_prefs(struct store *s, int64_t player_key, const char *mode,
                     int digest_hour, const char *tz, const char *lang,
                     int64_t digest_due_ms)
{
	struct mail_prefs x = {player_key, mode,        tz,
	                       lang,       digest_hour, digest_due_ms};
	return store__write_tx(s, mail_prefs_tx, &x);
}

static int mail_delete_tx(struct conn *c, void *ctx)
{
	const int64_t *player_key = ctx;
	int rc = store__run(c, ST_MAIL_DELETE, ARGS(A_I64(*player_key)), NULL,
	                    NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		rc = store__run(c, ST_MAIL_DLV_DROP, ARGS(A_I64(*player_key)),
		                NULL, NULL);
	return rc;
}

int store_mail_delete(struct store *s, int64_t player_key)
{
	return store__write_tx(s, mail_delete_tx, &player_key);
}

struct mail_unsub {
	const char *token;
	struct store_mail *out;
};

static int mail_unsub_tx(struct conn *c, void *ctx)
{
	struct mail_unsub *x = ctx;
	int rc = store__run(c, ST_MAIL_UNSUBSCRIBE, ARGS(A_TEXT(x->token)),
	                    NULL, NULL);
	if (rc == 0)
		rc = mail_read(c, ST_MAIL_BY_TOKEN, ARGS(A_TEXT(x->token)),
		               x->out);
	return rc;
}

int store_mail_unsubscribe(struct store *s, const char *token, int apply,
                           struct store_mail *out)
{
	if (!apply) {
		struct conn *c = store__checkout(s);
		int rc = mail_read(c, ST_MAIL_BY_TOKEN, ARGS(A_TEXT(token)), out);
		store__checkin(s, c);
		return rc;
	}
	struct mail_unsub x = {token, out};
	return store__write_tx(s, mail_unsub_tx, &x);
}

/* ---- digests ---- */

struct digest_each {
	store_mail_digest_fn fn;
	void *ctx;
};

static int read_digest(const struct row *st, void *ctx)
{
	struct digest_each *x = ctx;
	struct store_mail_digest d = {0};
	d.player_key = store__col_i64(st, 0);
	int rc = store__col_copy(st, 1, d.tz, sizeof d.tz);
	d.digest_hour = store__col_int(st, 2);
	d.due_ms = store__col_i64(st, 3);
	if (rc == 0)
		rc = x->fn(x->ctx, &d);
	return rc < 0 ? rc : 0;
}

int store_mail_digests_due(struct store *s, int64_t now_ms,
                           store_mail_digest_fn fn, void *ctx)
{
	struct digest_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_MAIL_DIGESTS_DUE, ARGS(A_I64(now_ms)),
	                    read_digest, &x);
	store__checkin(s, c);
	return rc;
}

struct digest_take {
	const struct store_mail_digest *d;
	int64_t next, now;
};

static int digest_take_tx(struct conn *c, void *ctx)
{
	struct digest_take *x = ctx;
	int rc = store__run(c, ST_MAIL_DIGEST_NEXT,
	                    ARGS(A_I64(x->d->player_key), A_I64(x->d->due_ms),
	                         A_I64(x->next)),
	                    NULL, NULL);
	if (rc == 0 && store__changes(c) == 1) /* not taken by another */
		rc = store__run(c, ST_MAIL_DIGEST_QUEUE,
		                ARGS(A_I64(x->d->player_key), A_I64(x->now)),
		                NULL, NULL);
	return rc;
}

int store_mail_digest_take(struct store *s, const struct store_mail_digest *d,
                           int64_t next_ms, int64_t now_ms)
{
	struct digest_take x = {d, next_ms, now_ms};
	return store__write_tx(s, digest_take_tx, &x);
}

struct waiting_each {
	store_mail_game_fn fn;
	void *ctx;
};

static int read_waiting(const struct row *st, void *ctx)
{
	struct waiting_each *x = ctx;
	const char *id = store__col_text(st, 0), *rules = store__col_text(st, 1);
	if (!id || !rules)
		return BD_EINTERNAL;
	int rc = x->fn(x->ctx, id, rules);
	return rc < 0 ? rc : 0;
}

int store_mail_waiting_each(struct store *s, int64_t player_key, int limit,
                            store_mail_game_fn fn, void *ctx)
{
	struct waiting_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_MAIL_WAITING,
	                    ARGS(A_I64(player_key), A_I64(limit)), read_waiting,
	                    &x);
	store__checkin(s, c);
	return rc;
}

/* ---- the outbox ---- */

void store_mail_delivery_release(struct store_mail_delivery *d)
{
	free((char *)d->ev.data);
	d->ev.data = NULL;
	sodium_memzero(d->code, sizeof d->code);
}

static int read_mail_delivery(const struct row *st, void *ctx)
{
	struct store_mail_delivery *d = ctx;
	const char *kind = store__col_text(st, 1);
	const char *data = store__col_text(st, 9);
	d->key = store__col_i64(st, 0);
	d->kind = !kind                         ? STORE_MAIL_EVENT
	          : strcmp(kind, "confirm") == 0 ? STORE_MAIL_CONFIRM
	          : strcmp(kind, "digest") == 0  ? STORE_MAIL_DIGEST
	                                         : STORE_MAIL_EVENT;
	int rc = store__col_copy(st, 2, d->address, sizeof d->address);
	if (rc == 0)
		rc = store__col_copy(st, 3, d->code, sizeof d->code);
	d->attempts = store__col_int(st, 4);
	d->created_ms = store__col_i64(st, 5);
	d->player_key = store__col_i64(st, 6);
	if (rc == 0)
		rc = store__col_copy(st, 7, d->ev.id, sizeof d->ev.id);
	if (rc == 0)
		rc = store__col_copy(st, 8, d->ev.type, sizeof d->ev.type);
	d->game_key = store__col_i64(st, 10);
	if (rc == 0)
		rc = store__col_copy(st, 11, d->lang, sizeof d->lang);
	if (rc == 0)
		rc = store__col_copy(st, 12, d->unsub_token,
		                     sizeof d->unsub_token);
	d->dest_failures = store__col_int(st, 13);
	d->dest_limited = store__col_int(st, 14) > 0;
	d->ev.created_ms = d->created_ms;
	if (rc == 0 && !(d->ev.data = strdup(data ? data : "{}")))
		rc = BD_ENOMEM;
	return rc;
}

struct mail_claim {
	int64_t now, lease;
	struct store_claim_rules rules;
	struct one_i64 key;
};

static int mail_claim_tx(struct conn *c, void *ctx)
{
	struct mail_claim *x = ctx;
	const struct store_claim_rules *r = &x->rules;
	return store__run(c, ST_MAIL_DLV_CLAIM,
	                  ARGS(A_I64(x->now), A_I64(x->now + x->lease),
	                       A_I64(r->per_dest), A_I64(r->per_failing),
	                       A_I64(r->failing_ok)),
	                  store__read_i64, &x->key);
}

int store_mail_delivery_claim(struct store *s, int64_t now_ms, int64_t lease_ms,
                              const struct store_claim_rules *rules,
                              struct store_mail_delivery *out,
                              int64_t *next_ms)
{
	static const struct store_claim_rules any = {INT32_MAX, INT32_MAX, 1};
	struct mail_claim x = {now_ms, lease_ms, rules ? *rules : any, {0}};
	if (x.rules.per_dest < 1 || x.rules.per_failing < 1 || lease_ms < 1)
		return BD_EBADREQUEST;
	struct one_i64 next = {0};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_MAIL_DLV_NEXT, NO_ARGS, store__read_i64, &next);
	store__checkin(s, c);
	if (rc == 0 && next.v > 0 && next.v <= now_ms)
		rc = store__write_tx(s, mail_claim_tx, &x);
	if (rc < 0)
		return rc;
	if (!x.key.found) {
		if (next_ms)
			*next_ms = next.v;
		return BD_ENOTFOUND;
	}
	struct store_mail_delivery d;
	memset(&d, 0, sizeof d);
	c = store__checkout(s);
	rc = store__run(c, ST_MAIL_DLV_GET, ARGS(A_I64(x.key.v)),
	                read_mail_delivery, &d);
	store__checkin(s, c);
	if (rc == 0 && !d.ev.data)
		rc = BD_ENOTFOUND; /* erased meanwhile */
	if (rc < 0) {
		store_mail_delivery_release(&d);
		return rc;
	}
	*out = d;
	return 0;
}

struct mail_done {
	int64_t key;
	enum store_push_end end;
	const char *error;
	int64_t next;
	enum store_dest_answer answer;
	int64_t busy_ms;
	const struct store_breaker *b;
};

static int mail_done_tx(struct conn *c, void *ctx)
{
	static const char *const states[] = {"delivered", "pending", "failed",
	                                     "skipped"};
	struct mail_done *x = ctx;
	int64_t now = store__now_ms(), until = 0;
	int skipped = x->end == STORE_PUSH_SKIPPED;
	int rc = store__run(
	    c, ST_MAIL_DLV_DONE,
	    ARGS(A_I64(x->key), A_TEXT(states[x->end]),
	         A_TEXT(x->error ? x->error : ""),
	         A_I64(x->end == STORE_PUSH_RETRY ? x->next : 0), A_I64(now),
	         A_I64(skipped ? 0 : 1)),
	    NULL, NULL);
	if (rc == 0 && !skipped)
		rc = store__dest_record(c, "smtp", x->answer, x->busy_ms, x->b,
		                        now, &until);
	return rc;
}

int store_mail_delivery_done(struct store *s, int64_t key,
                             enum store_push_end end, const char *error,
                             int64_t next_ms, enum store_dest_answer answer,
                             int64_t busy_ms, const struct store_breaker *b)
{
	if (end < STORE_PUSH_DELIVERED || end > STORE_PUSH_SKIPPED ||
	    busy_ms < 0 || (end == STORE_PUSH_RETRY && next_ms <= 0))
		return BD_EBADREQUEST;
	if (b &&
	    (b->failures < 1 || b->open_ms < 1 || b->open_max_ms < b->open_ms))
		return BD_EBADREQUEST;
	struct mail_done x = {key, end, error, next_ms, answer, busy_ms, b};
	return store__write_tx(s, mail_done_tx, &x);
}

static int mail_requeue_tx(struct conn *c, void *ctx)
{
	(void)ctx;
	return store__run(c, ST_MAIL_DLV_REQUEUE, ARGS(A_I64(store__now_ms())),
	                  NULL, NULL);
}

int store_mail_deliveries_requeue(struct store *s)
{
	if (s->drv->shared) /* another live node's lease hands it over */
		return 0;
	return store__write_tx(s, mail_requeue_tx, NULL);
}
