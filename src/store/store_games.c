/* store_games.c: games: creating and importing one (with its seats,
 * the waiting caps and an import's moves), reading one by id or key, a
 * seat by its token, and the listings.  See store.h. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ---- games ----------------------------------------------------------- */

/* What store_game_create's transaction inserts, and the key it got. */
struct create_ctx {
	struct store *s;                       /* for the waiting caps */
	const struct store_game *g;            /* the game */
	const struct store_seat *seats;        /* g->seats of them */
	const struct store_idem *idem;         /* or NULL */
	const struct store_logged_move *moves; /* an import's, or NULL */
	size_t nmoves;                         /* entries at moves */
	int64_t key;                           /* out: its key */
};

/* BD_ELIMIT when count statement `id` for creator `who` is at `cap`
 * (0: no cap) already. */
static int under_cap(struct conn *c, enum stmt id, struct arg who, unsigned cap,
                     int64_t cutoff)
{
	struct one_i64 n = {0};
	if (!cap)
		return 0;
	int rc =
	    store__run(c, id, ARGS(who, A_I64(cutoff)), store__read_i64, &n);
	if (rc == 0 && n.v >= (int64_t)cap)
		rc = BD_ELIMIT;
	return rc;
}

/* 1 if every seat of `seats` (n of them) is a bot's. */
static int bots_only(const struct store_seat *seats, int n)
{
	for (int i = 0; i < n; i++)
		if (!seats[i].bot[0])
			return 0;
	return n > 0;
}

/* Records g's creator on row `key`, refusing (BD_ELIMIT) a waiting game
 * past its creator's caps, and (BD_EBOTGAMES) a game of bots only
 * (`bots` 1) past its player's cap of them.  Every game's creator is
 * written: the bot workers share their time by it (service.h). */
static int creator_put(struct conn *c, struct store *s,
                       const struct store_game *g, int64_t key, int open,
                       int bots)
{
	int64_t cutoff = store__waiting_cutoff(s);
	int rc = 0;
	if (!g->creator_key && !g->creator_addr)
		return 0;
	if (open && g->creator_key)
		rc = under_cap(c, ST_WAITING_BY_PLAYER, A_I64(g->creator_key),
		               s->waiting_per_player, cutoff);
	if (rc == 0 && open && g->creator_addr)
		rc = under_cap(c, ST_WAITING_BY_ADDR, A_TEXT(g->creator_addr),
		               s->waiting_per_addr, cutoff);
	if (rc == 0 && bots && g->creator_key) {
		rc = under_cap(c, ST_BOT_GAMES_BY_PLAYER, A_I64(g->creator_key),
		               s->bot_games_per_player, cutoff);
		if (rc == BD_ELIMIT)
			rc = BD_EBOTGAMES;
	}
	if (rc == 0)
		rc = store__run(c, ST_GAME_CREATOR,
		                ARGS(A_I64(key), A_I64(g->creator_key),
		                     A_TEXT(g->creator_addr)),
		                NULL, NULL);
	return rc;
}

static int count_open(const struct store_seat *seats, int n)
{
	int open = 0;
	for (int i = 0; i < n; i++)
		open += seats[i].open;
	return open;
}

static int seat_insert(struct conn *c, int64_t key, const struct store_seat *st)
{
	return store__run(
	    c, ST_SEAT_INSERT,
	    ARGS(A_I64(key), A_I64(st->seat),
	         st->has_token ? A_BLOB(st->token_hash, STORE_TOKEN_HASH_LEN)
	                       : A_NULL_BLOB,
	         A_I64(st->player_key), A_I64(st->invited_key), A_I64(st->open),
	         A_TEXT(st->bot)),
	    NULL, NULL);
}

/* An import's moves and its finished row (store_game_import). */
static int import_moves(struct conn *c, const struct create_ctx *x)
{
	int rc = 0;
	for (size_t i = 0; i < x->nmoves && rc == 0; i++) {
		const struct store_logged_move *m = &x->moves[i];
		rc = store__run(c, ST_MOVE_INSERT,
		                ARGS(A_I64(x->key), A_I64(i + 1),
		                     A_I64(m->seat), A_TEXT(m->action),
		                     A_I64(m->created_ms), A_TEXT(m->reason),
		                     A_NULL_BLOB), /* a record has no hashes */
		                NULL, NULL);
	}
	if (rc == 0)
		rc = store__run(
		    c, ST_GAME_IMPORTED,
		    ARGS(A_I64(x->key), A_I64(x->nmoves), A_TEXT(x->g->result),
		         A_I64(x->g->created_ms), A_I64(x->g->updated_ms)),
		    NULL, NULL);
	return rc;
}

static int create_tx(struct conn *c, void *ctx)
{
	struct create_ctx *x = ctx;
	const struct store_game *g = x->g;
	int open = count_open(x->seats, g->seats);
	struct one_i64 key = {0};
	int rc = store__idem_put(c, x->idem);
	if (rc == 0)
		rc = store__run(c, ST_GAME_INSERT,
		                ARGS(A_TEXT(g->id), A_TEXT(g->rules_id),
		                     A_I64(g->rules_version), A_I64(g->seats),
		                     A_I64(store__u64_bits(g->seed)),
		                     A_TEXT(g->options), A_TEXT(g->setup),
		                     A_TEXT(open ? "waiting" : g->status),
		                     A_I64(g->to_act), A_TEXT(g->result),
		                     A_I64(store__now_ms()), A_I64(open)),
		                store__read_i64, &key);
	if (rc < 0)
		return rc; /* BD_ECONFLICT: the id is taken */
	if (!key.found)
		return BD_EINTERNAL;
	x->key = key.v;
	/* Counted before its creator is written: the new game is not among
	 * them, so a creator holds at most `cap` waiting games (and runs
	 * at most `cap` games of bots only; an import is finished). */
	rc = creator_put(c, x->s, g, x->key, open,
	                 !x->moves && bots_only(x->seats, g->seats));
	if (rc == BD_ELIMIT || rc == BD_EBOTGAMES)
		return rc;
	for (int seat = 0; seat < g->seats && rc == 0; seat++)
		rc = seat_insert(c, x->key, &x->seats[seat]);
	if (rc == 0 && g->unrated)
		rc = store__run(c, ST_GAME_UNRATED, ARGS(A_I64(x->key)), NULL,
		                NULL);
	if (rc == 0 && g->clock)
		rc = store__run(c, ST_GAME_CLOCK,
		                ARGS(A_I64(x->key), A_TEXT(g->clock)), NULL,
		                NULL);
	if (rc == 0 && g->clock)
		rc = store__clock_start(c, x->key);
	if (rc == 0 && g->clock)
		rc = store__seats_until(c, x->key);
	if (rc == 0 && g->seed_format == 2)
		rc = store__run(c, ST_GAME_SECRET,
		                ARGS(A_I64(x->key), A_I64(g->seed_format),
		                     A_BLOB(g->secret, sizeof g->secret),
		                     A_BLOB(g->salt, sizeof g->salt)),
		                NULL, NULL);
	if (rc == 0 && x->moves)
		rc = import_moves(c, x);
	if (rc == 0 && !x->moves)
		rc = store__events_after(c, x->key, NULL);
	/* Two seats with one token or one player is the caller's bug, not a
	 * taken id: retrying with another id would not help. */
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

int store__game_insert(struct conn *c, struct store *s,
                       const struct store_game *g,
                       const struct store_seat *seats, int64_t *key)
{
	struct create_ctx x = {.s = s, .g = g, .seats = seats};
	int rc = create_tx(c, &x);
	if (rc == 0)
		*key = x.key;
	return rc;
}

int store_game_create(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_idem *idem, int64_t *key_out)
{
	struct create_ctx x = {.s = s, .g = g, .seats = seats, .idem = idem};
	int rc = store__write_tx(s, create_tx, &x);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

int store_game_import(struct store *s, const struct store_game *g,
                      const struct store_seat *seats,
                      const struct store_logged_move *moves, size_t n,
                      const struct store_idem *idem, int64_t *key_out)
{
	static const struct store_logged_move none; /* an empty record still */
	struct create_ctx x = {.s = s,
	                       .g = g,
	                       .seats = seats,
	                       .idem = idem,
	                       .moves = n ? moves : &none,
	                       .nmoves = n};
	int rc = store__write_tx(s, create_tx, &x);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

/* The game a single-row lookup found. */
struct game_row {
	int found;           /* 1 once a row was read */
	struct store_game g; /* that row, owned */
};

static int read_game_row(const struct row *st, void *ctx)
{
	struct game_row *r = ctx;
	r->found = 1;
	return store__game_read(st, &r->g);
}

/* Runs a one-game lookup statement into *out. */
static int game_lookup(struct store *s, enum stmt id, const struct arg *a,
                       int n, struct store_game *out)
{
	struct game_row r = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, id, a, n, read_game_row, &r);
	store__checkin(s, c);
	if (rc == 0 && !r.found)
		rc = BD_ENOTFOUND;
	if (rc < 0) {
		store_game_release(&r.g);
		return rc;
	}
	*out = r.g;
	return 0;
}

int store_game_get(struct store *s, const char *id, struct store_game *out)
{
	return game_lookup(s, ST_GAME_GET,
	                   ARGS(A_TEXT(id), A_I64(store__waiting_cutoff(s))),
	                   out);
}

int store_game_by_key(struct store *s, int64_t key, struct store_game *out)
{
	return game_lookup(s, ST_GAME_BY_KEY, ARGS(A_I64(key)), out);
}

/* The caller's callback for a listing. */
struct games_ctx {
	store_game_fn fn; /* called per game */
	void *ctx;        /* its context */
};

static int list_row(const struct row *st, void *ctx)
{
	struct games_ctx *x = ctx;
	struct store_game g;
	int rc = store__game_read(st, &g);
	if (rc == 0)
		rc = store__col_strdup(st, GC_COUNT, &g.players);
	if (rc == 0)
		rc = x->fn(x->ctx, &g);
	store_game_release(&g);
	return rc < 0 ? rc : 0;
}

/* The listing statement for f's filters (see enum stmt). */
static enum stmt list_stmt(const struct store_filter *f)
{
	return ST_LIST_ALL + (f->status ? 1 : 0) + (f->rules_id ? 2 : 0);
}

int store_games_each(struct store *s, const struct store_filter *f,
                     store_game_fn fn, void *ctx)
{
	if (f->limit < 1 || f->limit > 100 || f->before_key < 0)
		return BD_EBADREQUEST;
	struct games_ctx x = {.fn = fn, .ctx = ctx};
	int64_t before = f->before_key ? f->before_key : INT64_MAX;
	struct conn *c = store__checkout(s);
	int rc = store__run(c, list_stmt(f),
	                    ARGS(A_TEXT(f->status), A_TEXT(f->rules_id),
	                         A_I64(before), A_I64(f->limit),
	                         A_I64(store__waiting_cutoff(s))),
	                    list_row, &x);
	store__checkin(s, c);
	return rc;
}

/* The caller's callback for store_bot_games_each. */
int store_bot_games_each(struct store *s, int64_t after_key, int limit,
                         store_key_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000 || after_key < 0)
		return BD_EBADREQUEST;
	struct store_keys x = {.fn = fn, .ctx = ctx};
	struct conn *c = store__checkout(s);
	int rc =
	    store__run(c, ST_BOT_GAMES, ARGS(A_I64(after_key), A_I64(limit)),
	               store__read_key, &x);
	store__checkin(s, c);
	return rc;
}
