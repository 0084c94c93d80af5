/* store_links.c: finding players by a prefix of their name, and the
 * short codes that link another device to a player
 * (sql/0031_link_codes.sql).  See store.h, "finding players, linking
 * devices". */
#include <string.h>

#include "store_int.h"

/* ---- finding players ---- */

struct find_ctx {
	store_player_fn fn;
	void *ctx;
};

/* The columns key, id, name, created_ms into a player. */
static int read_named(const struct row *st, struct store_player *p)
{
	memset(p, 0, sizeof *p);
	p->key = store__col_i64(st, 0);
	p->created_ms = store__col_i64(st, 3);
	int rc = store__col_copy(st, 1, p->id, sizeof p->id);
	return rc ? rc : store__col_copy(st, 2, p->name, sizeof p->name);
}

static int read_found(const struct row *st, void *ctx)
{
	struct find_ctx *x = ctx;
	struct store_player p;
	int rc = read_named(st, &p);
	if (rc == 0)
		rc = x->fn(x->ctx, &p);
	return rc < 0 ? rc : 0;
}

int store_players_find(struct store *s, const char *prefix, int limit,
                       store_player_fn fn, void *ctx)
{
	if (limit < 1 || limit > 100)
		return BD_EBADREQUEST;
	struct find_ctx x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_PLAYERS_BY_NAME,
	                    ARGS(A_TEXT(prefix), A_I64(limit)), read_found, &x);
	store__checkin(s, c);
	return rc;
}

/* ---- link codes ---- */

struct link_put {
	int64_t player_key;
	const uint8_t *hash;
	int64_t now_ms, expires_ms;
};

static int link_put_tx(struct conn *c, void *ctx)
{
	struct link_put *x = ctx;
	int64_t n = 0;
	int rc = store__run(c, ST_LINK_PRUNE, ARGS(A_I64(x->now_ms)), NULL,
	                    NULL);
	if (rc == 0)
		rc = store__lookup_i64(
		    c, ST_LINK_COUNT,
		    ARGS(A_I64(x->player_key), A_I64(x->now_ms)), &n);
	if (rc == 0 && n >= STORE_LINK_CODES_MAX)
		rc = BD_ELINKCODESFULL;
	if (rc == 0)
		rc = store__run(c, ST_LINK_INSERT,
		                ARGS(A_BLOB(x->hash, STORE_TOKEN_HASH_LEN),
		                     A_I64(x->player_key), A_I64(x->expires_ms),
		                     A_I64(x->now_ms)),
		                NULL, NULL);
	return rc;
}

int store_link_code_put(struct store *s, int64_t player_key,
                        const uint8_t hash[STORE_TOKEN_HASH_LEN],
                        int64_t now_ms, int64_t expires_ms)
{
	struct link_put x = {player_key, hash, now_ms, expires_ms};
	return store__write_tx(s, link_put_tx, &x);
}

struct link_claim {
	const uint8_t *code_hash;
	int64_t now_ms;
	const struct store_token *t;
	const uint8_t *token_hash;
	struct store_player p; /* out */
	int found;
};

static int read_claimer(const struct row *st, void *ctx)
{
	struct link_claim *x = ctx;
	x->found = 1;
	return read_named(st, &x->p);
}

static int link_claim_tx(struct conn *c, void *ctx)
{
	struct link_claim *x = ctx;
	int64_t player = 0;
	int rc = store__lookup_i64(
	    c, ST_LINK_CLAIM,
	    ARGS(A_BLOB(x->code_hash, STORE_TOKEN_HASH_LEN), A_I64(x->now_ms)),
	    &player);
	if (rc == 0)
		rc = store__token_add(c, player, x->t, x->token_hash);
	if (rc == 0)
		rc = store__run(c, ST_PLAYER_BY_KEY, ARGS(A_I64(player)),
		                read_claimer, x);
	if (rc == 0 && !x->found)
		rc = BD_EINTERNAL; /* the code's player row is gone */
	return rc;
}

int store_link_code_claim(struct store *s,
                          const uint8_t code_hash[STORE_TOKEN_HASH_LEN],
                          int64_t now_ms, const struct store_token *t,
                          const uint8_t token_hash[STORE_TOKEN_HASH_LEN],
                          struct store_player *out)
{
	struct link_claim x = {code_hash, now_ms, t, token_hash, {0}, 0};
	int rc = store__write_tx(s, link_claim_tx, &x);
	if (rc == 0)
		*out = x.p;
	return rc;
}
