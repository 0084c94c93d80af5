/* store_chat.c: a game's chat messages, players' blocks and reports
 * (sql/0022_chat.sql; docs/matchmaking.md).  See store.h; internals in
 * store_int.h. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ---- chat ---- */

struct chat_post {
	int64_t key;
	int channel, seat;
	int64_t player_key;
	const char *text;
	int64_t now_ms;
	int64_t n; /* out */
};

static int chat_post_tx(struct conn *c, void *ctx)
{
	struct chat_post *x = ctx;
	return store__lookup_i64(c, ST_CHAT_INSERT,
	                         ARGS(A_I64(x->key), A_I64(x->channel),
	                              A_I64(x->seat), A_I64(x->player_key),
	                              A_TEXT(x->text), A_I64(x->now_ms)),
	                         &x->n);
}

int store_chat_post(struct store *s, int64_t key, int channel, int seat,
                    int64_t player_key, const char *text, int64_t *n_out,
                    int64_t *created_out)
{
	if (channel < 0 || channel >= STORE_CHAT_CHANNELS || !text || !*text)
		return BD_EBADREQUEST;
	struct chat_post x = {key,  channel,         seat, player_key,
	                      text, store__now_ms(), 0};
	int rc = store__write_tx(s, chat_post_tx, &x);
	if (rc == 0) {
		*n_out = x.n;
		*created_out = x.now_ms;
	}
	return rc;
}

struct chat_each {
	store_chat_fn fn;
	void *ctx;
};

static int read_chat(const struct row *st, void *ctx)
{
	struct chat_each *x = ctx;
	const char *id = store__col_text(st, 2), *name = store__col_text(st, 3);
	struct store_chat_msg m = {
	    .n = store__col_i64(st, 0),
	    .seat = store__col_int(st, 1),
	    .player_id = id ? id : "",
	    .player_name = name ? name : "",
	    .text = store__col_text(st, 4),
	    .created_ms = store__col_i64(st, 5),
	};
	if (!m.text)
		return BD_ENOMEM;
	return x->fn(x->ctx, &m);
}

int store_chat_each(struct store *s, int64_t key, int channel, int64_t after,
                    int64_t reader_key, int limit, store_chat_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	struct chat_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CHAT_AFTER,
	                    ARGS(A_I64(key), A_I64(channel), A_I64(after),
	                         A_I64(reader_key), A_I64(limit)),
	                    read_chat, &x);
	store__checkin(s, c);
	return rc;
}

int store_chat_last(struct store *s, int64_t key, int channel, int64_t *n)
{
	struct conn *c = store__checkout(s);
	int rc = store__lookup_i64(c, ST_CHAT_LAST,
	                           ARGS(A_I64(key), A_I64(channel)), n);
	store__checkin(s, c);
	return rc;
}

/* ---- blocks ---- */

struct block_put {
	int64_t player_key, blocked_key;
	int removed; /* store_block_delete's out */
};

static int block_put_tx(struct conn *c, void *ctx)
{
	struct block_put *x = ctx;
	int64_t n = 0;
	int rc = store__lookup_i64(c, ST_BLOCKS_COUNT,
	                           ARGS(A_I64(x->player_key)), &n);
	if (rc == 0)
		rc =
		    store__run(c, ST_BLOCK_PUT,
		               ARGS(A_I64(x->player_key), A_I64(x->blocked_key),
		                    A_I64(store__now_ms())),
		               NULL, NULL);
	/* A new block past the cap (a repeated one changes nothing). */
	if (rc == 0 && store__changes(c) == 1 && n >= STORE_BLOCKS_MAX)
		rc = BD_ELIMIT;
	return rc;
}

int store_block_put(struct store *s, int64_t player_key, int64_t blocked_key)
{
	if (player_key == blocked_key)
		return BD_EBADREQUEST;
	struct block_put x = {player_key, blocked_key, 0};
	return store__write_tx(s, block_put_tx, &x);
}

static int block_delete_tx(struct conn *c, void *ctx)
{
	struct block_put *x = ctx;
	int rc = store__run(c, ST_BLOCK_DELETE,
	                    ARGS(A_I64(x->player_key), A_I64(x->blocked_key)),
	                    NULL, NULL);
	x->removed = rc == 0 && store__changes(c) == 1;
	return rc;
}

int store_block_delete(struct store *s, int64_t player_key, int64_t blocked_key,
                       int *removed)
{
	struct block_put x = {player_key, blocked_key, 0};
	int rc = store__write_tx(s, block_delete_tx, &x);
	if (rc == 0 && removed)
		*removed = x.removed;
	return rc;
}

struct blocks_each {
	store_block_fn fn;
	void *ctx;
};

static int read_block(const struct row *st, void *ctx)
{
	struct blocks_each *x = ctx;
	const char *id = store__col_text(st, 0), *name = store__col_text(st, 1);
	if (!id || !name)
		return BD_ENOMEM;
	return x->fn(x->ctx, id, name, store__col_i64(st, 2));
}

int store_blocks_each(struct store *s, int64_t player_key, store_block_fn fn,
                      void *ctx)
{
	struct blocks_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_BLOCKS_LIST, ARGS(A_I64(player_key)),
	                    read_block, &x);
	store__checkin(s, c);
	return rc;
}

/* A count(*) statement of two keys, as a yes or no. */
static int blocked_count(struct store *s, enum stmt id, int64_t a, int64_t b,
                         int *blocked)
{
	int64_t n = 0;
	struct conn *c = store__checkout(s);
	int rc = store__lookup_i64(c, id, ARGS(A_I64(a), A_I64(b)), &n);
	store__checkin(s, c);
	if (rc == 0)
		*blocked = n > 0;
	return rc;
}

int store_blocked_either(struct store *s, int64_t a, int64_t b, int *blocked)
{
	return blocked_count(s, ST_BLOCKED_EITHER, a, b, blocked);
}

int store_blocked_in_game(struct store *s, int64_t key, int64_t player_key,
                          int *blocked)
{
	return blocked_count(s, ST_BLOCKED_IN_GAME, key, player_key, blocked);
}

/* ---- reports ---- */

struct report_put {
	const struct store_report *r;
	int64_t player_key; /* the message's author, when a message */
	int seat;
	char *text; /* the message's text (malloc'd), or NULL */
	int found;
	int64_t key; /* out */
};

static int read_message(const struct row *st, void *ctx)
{
	struct report_put *x = ctx;
	x->found = 1;
	x->player_key = store__col_i64(st, 0);
	x->seat = store__col_int(st, 1);
	return store__col_strdup(st, 2, &x->text);
}

static int report_put_tx(struct conn *c, void *ctx)
{
	struct report_put *x = ctx;
	const struct store_report *r = x->r;
	int rc = 0;
	if (r->game_key) {
		rc = store__run(
		    c, ST_CHAT_GET,
		    ARGS(A_I64(r->game_key), A_I64(r->channel), A_I64(r->n)),
		    read_message, x);
		if (rc == 0 && !x->found)
			rc = BD_ENOTFOUND;
	}
	if (rc == 0)
		rc = store__lookup_i64(
		    c, ST_REPORT_INSERT,
		    ARGS(A_I64(r->reporter_key), A_I64(x->player_key),
		         A_I64(r->game_key),
		         A_I64(r->game_key ? r->channel : -1),
		         A_I64(r->game_key ? r->n : 0), A_I64(x->seat),
		         A_TEXT(x->text), A_TEXT(r->reason),
		         A_I64(store__now_ms())),
		    &x->key);
	return rc;
}

int store_report_put(struct store *s, const struct store_report *r,
                     int64_t *key_out)
{
	if (!r->reason || !*r->reason || (!r->game_key && !r->player_key))
		return BD_EBADREQUEST;
	struct report_put x = {.r = r, .player_key = r->player_key, .seat = -1};
	int rc = store__write_tx(s, report_put_tx, &x);
	free(x.text);
	if (rc == 0)
		*key_out = x.key;
	return rc;
}

struct reports_each {
	store_report_fn fn;
	void *ctx;
};

static const char *text_or_empty(const struct row *st, int col)
{
	const char *t = store__col_text(st, col);
	return t ? t : "";
}

static int read_report(const struct row *st, void *ctx)
{
	struct reports_each *x = ctx;
	struct store_report r = {
	    .key = store__col_i64(st, 0),
	    .reporter_id = text_or_empty(st, 1),
	    .reporter_name = text_or_empty(st, 2),
	    .player_id = text_or_empty(st, 3),
	    .player_name = text_or_empty(st, 4),
	    .game_id = text_or_empty(st, 5),
	    .channel = store__col_int(st, 6),
	    .n = store__col_i64(st, 7),
	    .seat = store__col_int(st, 8),
	    .text = store__col_text(st, 9),
	    .reason = text_or_empty(st, 10),
	    .created_ms = store__col_i64(st, 11),
	};
	return x->fn(x->ctx, &r);
}

int store_reports_each(struct store *s, int64_t after, int limit,
                       store_report_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	struct reports_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_REPORTS_AFTER,
	                    ARGS(A_I64(after), A_I64(limit)), read_report, &x);
	store__checkin(s, c);
	return rc;
}
