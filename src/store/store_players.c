/* store_players.c: players, seats and joining, idempotency records, and
 * a player's list of games.  See store.h; internals in store_int.h. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* Idempotency records are kept a day: long enough for any retry. */
#define IDEM_TTL_MS (24LL * 3600 * 1000)

/* ---- idempotency ---- */

int store__idem_put(struct conn *c, const struct store_idem *idem)
{
	if (!idem)
		return 0;
	int64_t now = store__now_ms();
	int rc = store__run(c, ST_IDEM_EXPIRE, ARGS(A_I64(now - IDEM_TTL_MS)),
	                    NULL, NULL);
	if (rc == 0)
		rc = store__run(
		    c, ST_IDEM_INSERT,
		    ARGS(A_BLOB(idem->scope, 32), A_BLOB(idem->request, 32),
		         A_I64(idem->status),
		         A_BLOB(idem->response, (int)idem->response_len),
		         A_I64(now)),
		    NULL, NULL);
	return rc == BD_ECONFLICT ? BD_EREPLAY : rc;
}

/* An idempotency row as read. */
struct idem_row {
	int found;
	uint8_t request[32];
	unsigned status;
	void *response; /* malloc'd */
	size_t len;
};

static int read_idem(const struct row *st, void *ctx)
{
	struct idem_row *r = ctx;
	const void *req = store__col_blob(st, 0);
	const void *resp = store__col_blob(st, 2);
	int n = store__col_bytes(st, 2);
	if (!req || store__col_bytes(st, 0) != 32)
		return BD_EINTERNAL;
	memcpy(r->request, req, 32);
	r->status = (unsigned)store__col_int(st, 1);
	r->response = malloc(n > 0 ? (size_t)n : 1);
	if (!r->response)
		return BD_ENOMEM;
	if (n > 0)
		memcpy(r->response, resp, (size_t)n);
	r->len = (size_t)n;
	r->found = 1;
	return 0;
}

int store_idem_get(struct store *s, const uint8_t scope[32],
                   uint8_t request[32], unsigned *status, void **response,
                   size_t *response_len)
{
	struct idem_row r = {0};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_IDEM_GET, ARGS(A_BLOB(scope, 32)), read_idem, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc < 0) {
		free(r.response);
		return rc;
	}
	memcpy(request, r.request, 32);
	*status = r.status;
	*response = r.response;
	*response_len = r.len;
	return 0;
}

/* ---- seats ---- */

/* Where store_seats_get writes. */
struct seats_out {
	struct store_seat *out;
	int max, n;
};

static int read_seat(const struct row *st, void *ctx)
{
	struct seats_out *x = ctx;
	if (x->n >= x->max)
		return 0;
	struct store_seat *t = &x->out[x->n];
	memset(t, 0, sizeof *t);
	t->seat = store__col_int(st, 0);
	t->open = store__col_int(st, 1);
	const void *hash = store__col_blob(st, 2);
	if (hash && store__col_bytes(st, 2) == STORE_TOKEN_HASH_LEN) {
		memcpy(t->token_hash, hash, STORE_TOKEN_HASH_LEN);
		t->has_token = 1;
	}
	t->player_key = store__col_i64(st, 3);
	t->invited_key = store__col_i64(st, 4);
	int rc = store__col_copy(st, 5, t->player_id, sizeof t->player_id);
	if (rc == 0)
		rc = store__col_copy(st, 6, t->player_name,
		                     sizeof t->player_name);
	if (rc == 0)
		rc =
		    store__col_copy(st, 7, t->invited_id, sizeof t->invited_id);
	if (rc == 0)
		rc = store__col_copy(st, 8, t->bot, sizeof t->bot);
	x->n++;
	return rc;
}

int store_seats_get(struct store *s, int64_t key, struct store_seat *out,
                    int max, int *n)
{
	struct seats_out x = {out, max, 0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_SEATS_GET, ARGS(A_I64(key)), read_seat, &x);
	store__checkin(s, c);
	if (rc == 0)
		*n = x.n;
	return rc;
}

int store__lookup_i64(struct conn *c, enum stmt id, const struct arg *a, int n,
                      int64_t *v)
{
	struct one_i64 r = {0};
	int rc = store__run(c, id, a, n, store__read_i64, &r);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*v = r.v;
	return rc;
}

int store_seat_for_player(struct store *s, int64_t key, int64_t player_key,
                          int *seat)
{
	int64_t v = 0;
	struct conn *c = store__checkout(s);
	int rc = store__lookup_i64(c, ST_SEAT_FOR_PLAYER,
	                           ARGS(A_I64(key), A_I64(player_key)), &v);
	store__checkin(s, c);
	if (rc == 0)
		*seat = (int)v;
	return rc;
}

/* The transaction of store_seat_claim. */
struct claim_ctx {
	int64_t key;
	const struct store_claim *claim;
	const struct store_idem *idem;
	int seat;       /* out */
	int64_t cutoff; /* store__waiting_cutoff */
};

/* An open seat's state: whether it is open, and whom it is reserved for. */
struct seat_state {
	int found;
	int open;
	int64_t invited; /* 0: anyone */
};

static int read_seat_state(const struct row *st, void *ctx)
{
	struct seat_state *r = ctx;
	r->found = 1;
	r->open = store__col_int(st, 0);
	r->invited = store__col_i64(st, 1);
	return 0;
}

/* Checks that `seat` of game `key` is open to player_key (0: newcomer). */
static int seat_claimable(struct conn *c, int64_t key, int seat,
                          int64_t player_key)
{
	struct seat_state r = {0};
	int rc = store__run(c, ST_SEAT_STATE, ARGS(A_I64(key), A_I64(seat)),
	                    read_seat_state, &r);
	if (rc < 0)
		return rc;
	if (!r.found || !r.open)
		return BD_ESEATTAKEN;
	if (r.invited && r.invited != player_key)
		return BD_EFORBIDDEN;
	return 0;
}

/* Picks the seat to claim: the one asked for, or the first open one. */
static int claim_pick(struct conn *c, struct claim_ctx *x)
{
	const struct store_claim *cl = x->claim;
	int64_t v = 0;
	int rc;
	if (cl->player_key &&
	    store__lookup_i64(c, ST_SEAT_FOR_PLAYER,
	                      ARGS(A_I64(x->key), A_I64(cl->player_key)),
	                      &v) == 0)
		return BD_EALREADYSEATED;
	if (cl->seat >= 0 && cl->player_key &&
	    store__lookup_i64(
	        c, ST_SEAT_RESERVED_ELSEWHERE,
	        ARGS(A_I64(x->key), A_I64(cl->player_key), A_I64(cl->seat)),
	        &v) == 0)
		return BD_EALREADYSEATED; /* theirs is another seat */
	/* A holder of a seat here blocked the joiner (docs/matchmaking.md,
	 * "Blocks and reports"): decided in the claim's own transaction. */
	if (cl->player_key &&
	    store__lookup_i64(c, ST_BLOCKED_IN_GAME,
	                      ARGS(A_I64(x->key), A_I64(cl->player_key)),
	                      &v) == 0 &&
	    v > 0)
		return BD_EBLOCKED;
	if (cl->seat >= 0) {
		x->seat = cl->seat;
		return seat_claimable(c, x->key, cl->seat, cl->player_key);
	}
	rc = store__lookup_i64(c, ST_SEAT_FIRST_OPEN,
	                       ARGS(A_I64(x->key), A_I64(cl->player_key)), &v);
	if (rc == BD_ENOTFOUND)
		return BD_ESEATTAKEN;
	x->seat = (int)v;
	return rc;
}

static int claim_tx(struct conn *c, void *ctx)
{
	struct claim_ctx *x = ctx;
	const struct store_claim *cl = x->claim;
	int64_t seq = 0;
	/* An expired waiting game is gone (store__waiting_cutoff). */
	int rc = store__lookup_i64(c, ST_GAME_JOINABLE,
	                           ARGS(A_I64(x->key), A_I64(x->cutoff)), &seq);
	int64_t open = 0;
	if (rc == 0)
		rc = store__lookup_i64(c, ST_GAME_OPEN_SEATS,
		                       ARGS(A_I64(x->key)), &open);
	if (rc == 0 && cl->open_seats > 0 && open != cl->open_seats)
		rc = BD_ECONFLICT; /* the caller's answer would be stale */
	if (rc == 0)
		rc = claim_pick(c, x);
	if (rc == 0)
		rc = store__idem_put(c, x->idem);
	if (rc == 0)
		rc = store__run(
		    c, ST_SEAT_TAKE,
		    ARGS(A_I64(x->key), A_I64(x->seat),
		         cl->token_hash
		             ? A_BLOB(cl->token_hash, STORE_TOKEN_HASH_LEN)
		             : A_NULL_BLOB,
		         A_I64(cl->player_key)),
		    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ESEATTAKEN;
	struct ev_before before;
	if (rc == 0)
		rc = store__events_before(c, x->key, &before);
	if (rc == 0)
		rc = store__run(c, ST_GAME_SEAT_TAKEN,
		                ARGS(A_I64(x->key), A_I64(store__now_ms())),
		                NULL, NULL);
	if (rc == 0)
		rc = store__clock_start(c, x->key);
	if (rc == 0)
		rc = store__seats_until(c, x->key);
	if (rc == 0)
		rc = store__events_after(c, x->key, &before);
	/* the players already seated, while it still waits for others */
	if (rc == 0)
		rc = store__run(
		    c, ST_EV_SEAT_TAKEN,
		    ARGS(A_I64(x->key), A_I64(x->seat), A_I64(store__now_ms())),
		    NULL, NULL);
	return rc;
}

int store_seat_claim(struct store *s, int64_t key, const struct store_claim *c,
                     const struct store_idem *idem, int *seat_out)
{
	if ((c->player_key == 0) == (c->token_hash == NULL))
		return BD_EBADREQUEST; /* exactly one holder */
	struct claim_ctx x = {key, c, idem, -1, store__waiting_cutoff(s)};
	int rc = store__write_tx(s, claim_tx, &x);
	if (rc == 0)
		*seat_out = x.seat;
	return rc;
}

/* ---- players ---- */

struct player_ctx {
	const struct store_player *p;
	const uint8_t *hash;
	const struct store_idem *idem;
	int64_t key; /* out */
};

static int player_tx(struct conn *c, void *ctx)
{
	struct player_ctx *x = ctx;
	struct one_i64 key = {0};
	int rc = store__idem_put(c, x->idem);
	if (rc == 0)
		rc = store__run(
		    c, ST_PLAYER_INSERT,
		    ARGS(A_TEXT(x->p->id), A_TEXT(x->p->name),
		         A_BLOB(x->hash, STORE_TOKEN_HASH_LEN),
		         A_I64(x->p->created_ms > 0 ? x->p->created_ms
		                                    : store__now_ms())),
		    store__read_i64, &key);
	x->key = key.v;
	if (rc == 0 && !key.found)
		rc = BD_EINTERNAL;
	if (rc == 0) /* its first token, under an id like the player's */
		rc = store__run(
		    c, ST_TOKEN_INSERT,
		    ARGS(A_TEXT(x->p->id), A_I64(x->key),
		         A_BLOB(x->hash, STORE_TOKEN_HASH_LEN),
		         A_TEXT("first token"),
		         A_I64(x->p->created_ms > 0 ? x->p->created_ms
		                                    : store__now_ms())),
		    NULL, NULL);
	return rc;
}

int store_player_create(struct store *s, const struct store_player *p,
                        const uint8_t token_hash[STORE_TOKEN_HASH_LEN],
                        const struct store_idem *idem, int64_t *key_out)
{
	struct player_ctx x = {p, token_hash, idem, 0};
	int rc = store__write_tx(s, player_tx, &x);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

struct player_row {
	int found;
	int revoked; /* by token: 1 if that token was revoked */
	struct store_player p;
};

static int read_player(const struct row *st, void *ctx)
{
	struct player_row *r = ctx;
	r->found = 1;
	r->p.key = store__col_i64(st, 0);
	r->p.created_ms = store__col_i64(st, 3);
	if (store__col_count(st) > 6) { /* by token: the token's row */
		r->p.token_key = store__col_i64(st, 4);
		r->p.token_used_ms = store__col_i64(st, 5);
		r->revoked = store__col_int(st, 6);
	}
	int rc = store__col_copy(st, 1, r->p.id, sizeof r->p.id);
	return rc ? rc : store__col_copy(st, 2, r->p.name, sizeof r->p.name);
}

/* Runs a one-player lookup statement. */
static int player_lookup(struct store *s, enum stmt id, const struct arg *a,
                         int n, struct store_player *out)
{
	struct player_row r = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, id, a, n, read_player, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0 && r.revoked)
		rc = BD_EUNAUTHORIZED;
	if (rc == 0)
		*out = r.p;
	return rc;
}

int store_player_by_token(struct store *s,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN],
                          struct store_player *out)
{
	return player_lookup(s, ST_PLAYER_BY_TOKEN,
	                     ARGS(A_BLOB(hash, STORE_TOKEN_HASH_LEN)), out);
}

int store_player_by_id(struct store *s, const char *id,
                       struct store_player *out)
{
	return player_lookup(s, ST_PLAYER_BY_ID, ARGS(A_TEXT(id)), out);
}

/* ---- a player's games ---- */

struct seated_ctx {
	store_seated_fn fn;
	void *ctx;
};

static int read_seated(const struct row *st, void *ctx)
{
	struct seated_ctx *x = ctx;
	struct store_game g;
	int rc = store__game_read(st, &g);
	g.invitation = store__col_int(st, GC_COUNT + 1);
	if (rc == 0)
		rc = store__col_strdup(st, GC_COUNT + 2, &g.players);
	if (rc == 0)
		rc = x->fn(x->ctx, &g, store__col_int(st, GC_COUNT));
	store_game_release(&g);
	return rc < 0 ? rc : 0;
}

int store_player_games_each(struct store *s, int64_t player_key,
                            const struct store_player_filter *f,
                            store_seated_fn fn, void *ctx)
{
	if (f->limit < 1 || f->limit > 100)
		return BD_EBADREQUEST;
	struct seated_ctx x = {fn, ctx};
	int64_t upd = f->before_updated ? f->before_updated : INT64_MAX;
	int64_t key = f->before_updated ? f->before_key : INT64_MAX;
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_PLAYER_GAMES,
	               ARGS(A_I64(player_key), A_TEXT(f->status),
	                    A_I64(f->my_turn), A_I64(upd), A_I64(key),
	                    A_I64(f->limit), A_I64(store__waiting_cutoff(s))),
	               read_seated, &x);
	store__checkin(s, c);
	return rc;
}

/* ---- a seat by its token ---- */

/* store_seat_for_token on connection c (a read's, or the write
 * connection inside a transaction). */
int store__seat_for_token(struct conn *c, int64_t key,
                          const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat)
{
	struct one_i64 r = {0};
	int rc =
	    store__run(c, ST_SEAT_FIND,
	               ARGS(A_I64(key), A_BLOB(hash, STORE_TOKEN_HASH_LEN)),
	               store__read_i64, &r);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*seat = (int)r.v;
	return rc;
}

int store_seat_for_token(struct store *s, int64_t key,
                         const uint8_t hash[STORE_TOKEN_HASH_LEN], int *seat)
{
	struct conn *c = store__checkout(s);
	int rc = store__seat_for_token(c, key, hash, seat);
	store__checkin(s, c);
	return rc;
}
