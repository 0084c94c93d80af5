/* store_lobby.c: browser tickets, a player's tokens, cancelling a waiting
 * game, leaving a seat, attaching a seat token to a player.  See store.h;
 * internals in store_int.h. */
#include <string.h>

#include "store_int.h"

/* ---- tickets ---- */

struct ticket_put {
	const uint8_t *hash;
	const char *url;
	const void *sealed;
	size_t len;
	int64_t expires_ms;
};

static int ticket_put_tx(struct conn *c, void *ctx)
{
	struct ticket_put *x = ctx;
	int rc = store__run(c, ST_TICKET_EXPIRE, ARGS(A_I64(store__now_ms())),
	                    NULL, NULL);
	if (rc == 0)
		rc = store__run(
		    c, ST_TICKET_INSERT,
		    ARGS(A_BLOB(x->hash, STORE_TOKEN_HASH_LEN), A_TEXT(x->url),
		         A_BLOB(x->sealed, (int)x->len), A_I64(x->expires_ms)),
		    NULL, NULL);
	return rc;
}

int store_ticket_put(struct store *s, const uint8_t hash[STORE_TOKEN_HASH_LEN],
                     const char *url, const void *sealed, size_t len,
                     int64_t expires_ms)
{
	if (len == 0 || len > STORE_TICKET_SEALED_MAX ||
	    strlen(url) > STORE_TICKET_URL_MAX)
		return BD_EBADREQUEST;
	struct ticket_put x = {hash, url, sealed, len, expires_ms};
	return store__write_tx(s, ticket_put_tx, &x);
}

struct ticket_take {
	const uint8_t *hash;
	const char *url;
	int64_t now_ms;
	void *out;
	size_t max, len; /* len: out */
	int found;       /* out: 1 once the ticket was taken */
	int live, same;  /* why not: unexpired, for this URL */
};

static int read_sealed(const struct row *st, void *ctx)
{
	struct ticket_take *x = ctx;
	const void *b = store__col_blob(st, 0);
	int n = store__col_bytes(st, 0);
	if (!b || n <= 0 || (size_t)n > x->max)
		return BD_EINTERNAL;
	memcpy(x->out, b, (size_t)n);
	x->len = (size_t)n;
	x->found = 1;
	return 0;
}

static int read_why(const struct row *st, void *ctx)
{
	struct ticket_take *x = ctx;
	x->found = 1;
	x->live = store__col_int(st, 0);
	x->same = store__col_int(st, 1);
	return 0;
}

static int ticket_take_tx(struct conn *c, void *ctx)
{
	struct ticket_take *x = ctx;
	int rc = store__run(c, ST_TICKET_TAKE,
	                    ARGS(A_BLOB(x->hash, STORE_TOKEN_HASH_LEN),
	                         A_TEXT(x->url), A_I64(x->now_ms)),
	                    read_sealed, x);
	if (rc < 0 || x->found)
		return rc;
	rc = store__run(c, ST_TICKET_GET,
	                ARGS(A_BLOB(x->hash, STORE_TOKEN_HASH_LEN),
	                     A_I64(x->now_ms), A_TEXT(x->url)),
	                read_why, x);
	if (rc == 0)
		rc = !x->found  ? BD_ENOTFOUND
		     : !x->live ? BD_EDEADLINE
		                : BD_EFORBIDDEN;
	return rc; /* a refusal rolls back: nothing was changed */
}

int store_ticket_take(struct store *s, const uint8_t hash[STORE_TOKEN_HASH_LEN],
                      const char *url, int64_t now_ms, void *out, size_t max,
                      size_t *len)
{
	struct ticket_take x = {
	    .hash = hash, .url = url, .now_ms = now_ms, .out = out, .max = max};
	int rc = store__write_tx(s, ticket_take_tx, &x);
	if (rc == 0)
		*len = x.len;
	return rc;
}

/* ---- tokens ---- */

struct token_add {
	int64_t player_key;
	const struct store_token *t;
	const uint8_t *hash;
};

int store__token_add(struct conn *c, int64_t player_key,
                     const struct store_token *t,
                     const uint8_t hash[STORE_TOKEN_HASH_LEN])
{
	int64_t n = 0;
	int rc =
	    store__lookup_i64(c, ST_TOKENS_COUNT, ARGS(A_I64(player_key)), &n);
	if (rc == 0 && n >= STORE_TOKENS_MAX)
		rc = BD_ETOKENSFULL;
	if (rc == 0)
		rc = store__run(
		    c, ST_TOKEN_INSERT,
		    ARGS(A_TEXT(t->id), A_I64(player_key),
		         A_BLOB(hash, STORE_TOKEN_HASH_LEN), A_TEXT(t->label),
		         A_I64(t->created_ms > 0 ? t->created_ms
		                                 : store__now_ms())),
		    NULL, NULL);
	return rc;
}

static int token_add_tx(struct conn *c, void *ctx)
{
	struct token_add *x = ctx;
	return store__token_add(c, x->player_key, x->t, x->hash);
}

int store_token_add(struct store *s, int64_t player_key,
                    const struct store_token *t,
                    const uint8_t hash[STORE_TOKEN_HASH_LEN])
{
	struct token_add x = {player_key, t, hash};
	return store__write_tx(s, token_add_tx, &x);
}

struct token_used {
	int64_t key, now_ms;
};

static int token_used_tx(struct conn *c, void *ctx)
{
	struct token_used *x = ctx;
	return store__run(c, ST_TOKEN_USED,
	                  ARGS(A_I64(x->key), A_I64(x->now_ms)), NULL, NULL);
}

int store_token_used(struct store *s, int64_t token_key, int64_t now_ms)
{
	struct token_used x = {token_key, now_ms};
	return store__write_tx(s, token_used_tx, &x);
}

struct tokens_ctx {
	store_token_fn fn;
	void *ctx;
};

static int read_token(const struct row *st, void *ctx)
{
	struct tokens_ctx *x = ctx;
	struct store_token t = {0};
	t.key = store__col_i64(st, 0);
	t.created_ms = store__col_i64(st, 3);
	t.last_used_ms = store__col_i64(st, 4);
	int rc = store__col_copy(st, 1, t.id, sizeof t.id);
	if (rc == 0)
		rc = store__col_copy(st, 2, t.label, sizeof t.label);
	if (rc == 0)
		rc = x->fn(x->ctx, &t);
	return rc < 0 ? rc : 0;
}

int store_tokens_each(struct store *s, int64_t player_key, store_token_fn fn,
                      void *ctx)
{
	struct tokens_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_TOKENS_LIST, ARGS(A_I64(player_key)),
	                    read_token, &x);
	store__checkin(s, c);
	return rc;
}

struct token_revoke {
	int64_t player_key;
	const char *id;
};

static int token_revoke_tx(struct conn *c, void *ctx)
{
	struct token_revoke *x = ctx;
	int rc = store__run(
	    c, ST_TOKEN_REVOKE,
	    ARGS(A_I64(x->player_key), A_TEXT(x->id), A_I64(store__now_ms())),
	    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND;
	/* and the player's live link codes: one made with this token would
	 * sign its holder in again (a code does not say which token made
	 * it, so all go; another is made in a tap) */
	if (rc == 0)
		rc = store__run(c, ST_ERASE_LINK_CODES, ARGS(A_I64(x->player_key)),
		                NULL, NULL);
	if (rc == 0) /* its account streams end (service_stream_next) */
		store__note_player(c, x->player_key);
	return rc;
}

int store_token_revoke(struct store *s, int64_t player_key, const char *id)
{
	struct token_revoke x = {player_key, id};
	return store__write_tx(s, token_revoke_tx, &x);
}

/* ---- the lobby ---- */

/* A game's lobby state: waiting or not, and its creator. */
struct lobby_row {
	int found;
	int waiting;
	int64_t creator;
	int unmoved; /* 1: started, and nobody moved yet */
};

static int read_lobby(const struct row *st, void *ctx)
{
	struct lobby_row *r = ctx;
	r->found = 1;
	r->waiting = store__col_int(st, 0);
	r->creator = store__col_i64(st, 1);
	r->unmoved = store__col_int(st, 2);
	return 0;
}

/* Game `key`'s lobby state, if it is not gone (cutoff as VISIBLE's). */
static int lobby_state(struct conn *c, int64_t key, int64_t cutoff,
                       struct lobby_row *r)
{
	int rc = store__run(c, ST_GAME_LOBBY, ARGS(A_I64(key), A_I64(cutoff)),
	                    read_lobby, r);
	return rc == 0 && !r->found ? BD_ENOTFOUND : rc;
}

struct lobby_ctx {
	int64_t key, player_key, cutoff;
	int seat;
	const uint8_t *token_hash;
	const uint8_t *hash;        /* attach: the seat token's */
	struct store_attached *out; /* attach */
};

static int cancel_tx(struct conn *c, void *ctx)
{
	struct lobby_ctx *x = ctx;
	struct lobby_row r = {0};
	int rc = lobby_state(c, x->key, x->cutoff, &r);
	if (rc == 0 && !r.waiting && !r.unmoved)
		rc = BD_ESTARTED;
	if (rc == 0 && r.creator != x->player_key)
		rc = BD_EFORBIDDEN;
	if (rc == 0)
		rc = store__run(c, ST_GAME_CANCEL,
		                ARGS(A_I64(x->key), A_I64(store__now_ms())),
		                NULL, NULL);
	/* PostgreSQL: a first move that committed meanwhile (the UPDATE
	 * waited for its row lock, then found seq 1) */
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ESTARTED;
	/* No event; its players' and invitees' long-polls wake. */
	if (rc == 0)
		rc = store__events_after(c, x->key, &(struct ev_before){0});
	return rc;
}

int store_game_cancel(struct store *s, int64_t key, int64_t player_key)
{
	struct lobby_ctx x = {.key = key,
	                      .player_key = player_key,
	                      .cutoff = store__waiting_cutoff(s)};
	return store__write_tx(s, cancel_tx, &x);
}

static int leave_tx(struct conn *c, void *ctx)
{
	struct lobby_ctx *x = ctx;
	struct lobby_row r = {0};
	int rc = lobby_state(c, x->key, x->cutoff, &r);
	if (rc == 0 && !r.waiting)
		rc = BD_ESTARTED;
	if (rc == 0)
		rc = store__run(
		    c, ST_SEAT_LEAVE,
		    ARGS(A_I64(x->key), A_I64(x->seat), A_I64(x->player_key),
		         x->token_hash
		             ? A_BLOB(x->token_hash, STORE_TOKEN_HASH_LEN)
		             : A_NULL_BLOB),
		    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_EFORBIDDEN;
	if (rc == 0)
		rc = store__run(c, ST_GAME_SEAT_LEFT,
		                ARGS(A_I64(x->key), A_I64(store__now_ms())),
		                NULL, NULL);
	if (rc == 0)
		rc = store__events_after(c, x->key, &(struct ev_before){0});
	if (rc == 0 && x->player_key)
		store__note_player(c, x->player_key); /* no longer seated */
	return rc;
}

int store_seat_leave(struct store *s, int64_t key, int seat, int64_t player_key,
                     const uint8_t *token_hash)
{
	if ((player_key == 0) == (token_hash == NULL))
		return BD_EBADREQUEST; /* exactly one holder */
	struct lobby_ctx x = {.key = key,
	                      .player_key = player_key,
	                      .cutoff = store__waiting_cutoff(s),
	                      .seat = seat,
	                      .token_hash = token_hash};
	return store__write_tx(s, leave_tx, &x);
}

static int read_attached(const struct row *st, void *ctx)
{
	struct store_attached *a = ctx;
	a->game_key = store__col_i64(st, 0);
	a->seat = store__col_int(st, 1);
	int rc = store__col_copy(st, 2, a->game_id, sizeof a->game_id);
	return rc ? rc
	          : store__col_copy(st, 3, a->rules_id, sizeof a->rules_id);
}

static int attach_tx(struct conn *c, void *ctx)
{
	struct lobby_ctx *x = ctx;
	struct store_attached a = {.game_key = 0};
	int64_t v = 0;
	int rc = store__run(
	    c, ST_SEAT_BY_TOKEN_HASH,
	    ARGS(A_BLOB(x->hash, STORE_TOKEN_HASH_LEN), A_I64(x->cutoff)),
	    read_attached, &a);
	if (rc == 0 && a.game_key == 0)
		rc = BD_ENOTFOUND;
	if (rc == 0 &&
	    (store__lookup_i64(c, ST_SEAT_FOR_PLAYER,
	                       ARGS(A_I64(a.game_key), A_I64(x->player_key)),
	                       &v) == 0 ||
	     store__lookup_i64(
	         c, ST_SEAT_RESERVED_ELSEWHERE,
	         ARGS(A_I64(a.game_key), A_I64(x->player_key), A_I64(a.seat)),
	         &v) == 0))
		rc = BD_EALREADYSEATED; /* held, or another reserved for them */
	/* A player of the game blocked the one claiming the seat
	 * (docs/matchmaking.md, "Blocks and reports"). */
	if (rc == 0 &&
	    store__lookup_i64(c, ST_BLOCKED_IN_GAME,
	                      ARGS(A_I64(a.game_key), A_I64(x->player_key)),
	                      &v) == 0 &&
	    v > 0)
		rc = BD_EBLOCKED;
	struct ev_before before;
	if (rc == 0)
		rc = store__events_before(c, a.game_key, &before);
	if (rc == 0)
		rc = store__run(c, ST_SEAT_ATTACH,
		                ARGS(A_I64(a.game_key), A_I64(a.seat),
		                     A_I64(x->player_key),
		                     A_BLOB(x->hash, STORE_TOKEN_HASH_LEN)),
		                NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		rc = store__run(c, ST_GAME_SEATS_BUMP, ARGS(A_I64(a.game_key)),
		                NULL, NULL);
	if (rc == 0)
		rc = store__seats_until(c, a.game_key);
	if (rc == 0)
		rc = store__events_after(c, a.game_key, &before);
	if (rc == 0)
		*x->out = a;
	return rc;
}

int store_seat_attach(struct store *s, int64_t player_key,
                      const uint8_t hash[STORE_TOKEN_HASH_LEN],
                      struct store_attached *out)
{
	struct store_attached a = {0};
	struct lobby_ctx x = {.player_key = player_key,
	                      .cutoff = store__waiting_cutoff(s),
	                      .hash = hash,
	                      .out = &a};
	int rc = store__write_tx(s, attach_tx, &x);
	if (rc == 0)
		*out = a;
	return rc;
}
