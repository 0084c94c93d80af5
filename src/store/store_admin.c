/* store_admin.c: what `boardd admin` and a player's own data ask of the
 * store: players as the operator lists them, bans, revoking every token,
 * the operator's log, a player's export and deletion, chat retention, the
 * schema.  See store.h ("boardd admin and a player's own data"). */
#include <stdlib.h>
#include <string.h>

#include "migrations.h"
#include "store_int.h"

static int admin_row(const struct row *st, struct store_admin_player *p)
{
	memset(p, 0, sizeof *p);
	p->key = store__col_i64(st, 0);
	p->created_ms = store__col_i64(st, 3);
	p->banned_ms = store__col_i64(st, 4);
	p->deleted_ms = store__col_i64(st, 6);
	p->tokens = store__col_i64(st, 7);
	p->seats = store__col_i64(st, 8);
	int rc = store__col_copy(st, 1, p->id, sizeof p->id);
	if (rc == 0)
		rc = store__col_copy(st, 2, p->name, sizeof p->name);
	if (rc == 0)
		rc =
		    store__col_copy(st, 5, p->banned_why, sizeof p->banned_why);
	return rc;
}

struct admin_each {
	store_admin_player_fn fn;
	void *ctx;
};

static int read_admin(const struct row *st, void *ctx)
{
	struct admin_each *x = ctx;
	struct store_admin_player p;
	int rc = admin_row(st, &p);
	return rc < 0 ? rc : x->fn(x->ctx, &p);
}

int store_admin_players_each(struct store *s, const char *match, int64_t after,
                             int limit, store_admin_player_fn fn, void *ctx)
{
	if (limit < 1 || limit > 1000)
		return BD_EBADREQUEST;
	if (!match)
		match = "";
	/* a LIKE pattern matching `match` anywhere: its own %, _ and \
	 * escaped (ESCAPE '\') */
	size_t n = strlen(match);
	if (n > 64)
		return BD_EBADREQUEST;
	char pat[2 * 64 + 3];
	size_t j = 0;
	if (n)
		pat[j++] = '%';
	for (size_t i = 0; i < n; i++) {
		if (match[i] == '%' || match[i] == '_' || match[i] == '\\')
			pat[j++] = '\\';
		pat[j++] = match[i];
	}
	if (n)
		pat[j++] = '%';
	pat[j] = '\0';
	struct admin_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(
	    c, ST_ADMIN_PLAYERS,
	    ARGS(A_I64(after), A_TEXT(pat), A_TEXT(match), A_I64(limit)),
	    read_admin, &x);
	store__checkin(s, c);
	return rc;
}

struct admin_one {
	int found;
	struct store_admin_player p;
};

static int read_admin_one(const struct row *st, void *ctx)
{
	struct admin_one *x = ctx;
	x->found = 1;
	return admin_row(st, &x->p);
}

int store_admin_player(struct store *s, const char *id,
                       struct store_admin_player *out)
{
	struct admin_one x = {0};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_ADMIN_PLAYER, ARGS(A_TEXT(id)),
	                    read_admin_one, &x);
	store__checkin(s, c);
	if (rc == 0 && !x.found)
		rc = BD_ENOTFOUND;
	if (rc == 0)
		*out = x.p;
	return rc;
}

/* ---- the operator's log ---- */

static int log_row(struct conn *c, const char *action, const char *player_id,
                   const char *game_id, const char *why)
{
	return store__run(c, ST_ADMIN_LOG,
	                  ARGS(A_TEXT(action),
	                       A_TEXT(player_id ? player_id : ""),
	                       A_TEXT(game_id ? game_id : ""),
	                       A_TEXT(why ? why : ""), A_I64(store__now_ms())),
	                  NULL, NULL);
}

struct log_ctx {
	const char *action, *player_id, *game_id, *why;
};

static int log_tx(struct conn *c, void *ctx)
{
	struct log_ctx *x = ctx;
	return log_row(c, x->action, x->player_id, x->game_id, x->why);
}

int store_admin_log(struct store *s, const char *action, const char *player_id,
                    const char *game_id, const char *why)
{
	if (!action || !*action || strlen(action) > 16 ||
	    (why && strlen(why) > STORE_WHY_ADMIN_MAX))
		return BD_EBADREQUEST;
	struct log_ctx x = {action, player_id, game_id, why};
	return store__write_tx(s, log_tx, &x);
}

/* ---- ending a player's waiting games (a ban, a deletion) ---- */

/* One game store_player_ban ends. */
struct waiting_game {
	int64_t key;
	int seat;   /* the player's seat, or -1 */
	int cancel; /* 1: theirs, cancelled; 0: their seat is left */
};

struct waiting_list {
	struct waiting_game *v; /* malloc'd */
	int n, cap;
};

static int read_waiting(const struct row *st, void *ctx)
{
	struct waiting_list *w = ctx;
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		struct waiting_game *v = realloc(w->v, (size_t)cap * sizeof *v);
		if (!v)
			return BD_ENOMEM;
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n++] =
	    (struct waiting_game){store__col_i64(st, 0), store__col_int(st, 1),
	                          store__col_int(st, 2)};
	return 0;
}

/* Inside a write transaction: cancels the games player `key` created
 * that nobody moved in, and leaves their seats in other waiting games;
 * *ended gets how many.  The games' players are told (their long-polls
 * and streams wake), as store_game_cancel and store_seat_leave do. */
static int end_waiting(struct conn *c, int64_t key, int *ended)
{
	struct waiting_list w = {0};
	int64_t now = store__now_ms();
	int rc = store__run(c, ST_PLAYER_WAITING, ARGS(A_I64(key)),
	                    read_waiting, &w);
	for (int i = 0; rc == 0 && i < w.n; i++) {
		const struct waiting_game *g = &w.v[i];
		if (g->cancel) {
			rc = store__run(c, ST_GAME_CANCEL,
			                ARGS(A_I64(g->key), A_I64(now)), NULL,
			                NULL);
		} else {
			rc = store__run(c, ST_SEAT_LEAVE,
			                ARGS(A_I64(g->key), A_I64(g->seat),
			                     A_I64(key), A_NULL_BLOB),
			                NULL, NULL);
			if (rc == 0)
				rc = store__run(c, ST_GAME_SEAT_LEFT,
				                ARGS(A_I64(g->key), A_I64(now)),
				                NULL, NULL);
		}
		if (rc == 0)
			rc = store__events_after(c, g->key,
			                         &(struct ev_before){0});
	}
	if (rc == 0) {
		store__note_player(c, key);
		if (ended)
			*ended = w.n;
	}
	free(w.v);
	return rc;
}

/* ---- bans and tokens ---- */

struct ban_ctx {
	int64_t key;
	const char *id, *why;
	int ended; /* out */
	int n;     /* out: tokens revoked */
};

static int ban_tx(struct conn *c, void *ctx)
{
	struct ban_ctx *x = ctx;
	int rc = store__run(
	    c, ST_PLAYER_BAN,
	    ARGS(A_I64(x->key), A_I64(store__now_ms()), A_TEXT(x->why)), NULL,
	    NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ECONFLICT; /* banned already (or deleted: checked
		                      before by the caller) */
	if (rc == 0)
		rc = end_waiting(c, x->key, &x->ended);
	if (rc == 0) /* quick match: never paired again (docs/matchmaking.md) */
		rc = store__run(c, ST_SEEKS_CANCEL_PLAYER,
		                ARGS(A_I64(x->key), A_I64(store__now_ms())), NULL,
		                NULL);
	if (rc == 0) /* its link codes: none left to use after an unban */
		rc = store__run(c, ST_ERASE_LINK_CODES, ARGS(A_I64(x->key)),
		                NULL, NULL);
	if (rc == 0)
		rc = log_row(c, "ban", x->id, NULL, x->why);
	return rc;
}

int store_player_ban(struct store *s, int64_t player_key, const char *id,
                     const char *why, int *ended)
{
	if (!why || !*why || strlen(why) > STORE_WHY_ADMIN_MAX)
		return BD_EBADREQUEST;
	struct ban_ctx x = {player_key, id, why, 0, 0};
	int rc = store__write_tx(s, ban_tx, &x);
	if (rc == 0 && ended)
		*ended = x.ended;
	return rc;
}

static int unban_tx(struct conn *c, void *ctx)
{
	struct ban_ctx *x = ctx;
	int rc =
	    store__run(c, ST_PLAYER_UNBAN, ARGS(A_I64(x->key)), NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ECONFLICT; /* not banned */
	if (rc == 0)
		rc = log_row(c, "unban", x->id, NULL, x->why);
	return rc;
}

int store_player_unban(struct store *s, int64_t player_key, const char *id,
                       const char *why)
{
	if (why && strlen(why) > STORE_WHY_ADMIN_MAX)
		return BD_EBADREQUEST;
	struct ban_ctx x = {player_key, id, why, 0, 0};
	return store__write_tx(s, unban_tx, &x);
}

static int revoke_all_tx(struct conn *c, void *ctx)
{
	struct ban_ctx *x = ctx;
	int rc =
	    store__run(c, ST_TOKENS_REVOKE_ALL,
	               ARGS(A_I64(x->key), A_I64(store__now_ms())), NULL, NULL);
	x->n = (int)store__changes(c);
	if (rc == 0) /* a link code made with one would sign in again */
		rc = store__run(c, ST_ERASE_LINK_CODES, ARGS(A_I64(x->key)),
		                NULL, NULL);
	if (rc == 0)
		rc = log_row(c, "revoke", x->id, NULL, x->why);
	return rc;
}

int store_tokens_revoke_all(struct store *s, int64_t player_key, const char *id,
                            const char *why, int *n)
{
	if (why && strlen(why) > STORE_WHY_ADMIN_MAX)
		return BD_EBADREQUEST;
	struct ban_ctx x = {player_key, id, why, 0, 0};
	int rc = store__write_tx(s, revoke_all_tx, &x);
	if (rc == 0 && n)
		*n = x.n;
	return rc;
}

/* ---- a player's export ---- */

struct id_each {
	store_id_fn fn;
	void *ctx;
};

static int read_id(const struct row *st, void *ctx)
{
	struct id_each *x = ctx;
	const char *id = store__col_text(st, 0);
	return id ? x->fn(x->ctx, id) : BD_ENOMEM;
}

int store_player_active_each(struct store *s, int64_t player_key,
                             store_id_fn fn, void *ctx)
{
	struct id_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_PLAYER_ACTIVE, ARGS(A_I64(player_key)),
	                    read_id, &x);
	store__checkin(s, c);
	return rc;
}

struct msg_each {
	store_own_msg_fn fn;
	void *ctx;
};

static int read_own_msg(const struct row *st, void *ctx)
{
	struct msg_each *x = ctx;
	struct store_own_msg m = {
	    store__col_text(st, 0), store__col_int(st, 1),
	    store__col_i64(st, 2),  store__col_int(st, 3),
	    store__col_text(st, 4), store__col_i64(st, 5)};
	if (!m.game_id || !m.text)
		return BD_ENOMEM;
	return x->fn(x->ctx, &m);
}

int store_chat_by_player_each(struct store *s, int64_t player_key,
                              store_own_msg_fn fn, void *ctx)
{
	struct msg_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_CHAT_BY_PLAYER, ARGS(A_I64(player_key)),
	                    read_own_msg, &x);
	store__checkin(s, c);
	return rc;
}

struct report_each {
	store_report_fn fn;
	void *ctx;
};

static int read_own_report(const struct row *st, void *ctx)
{
	struct report_each *x = ctx;
	struct store_report r = {.key = store__col_i64(st, 0),
	                         .player_id = store__col_text(st, 1),
	                         .game_id = store__col_text(st, 2),
	                         .channel = store__col_int(st, 3),
	                         .n = store__col_i64(st, 4),
	                         .reason = store__col_text(st, 5),
	                         .created_ms = store__col_i64(st, 6),
	                         .seat = -1,
	                         .reporter_id = "",
	                         .reporter_name = "",
	                         .player_name = ""};
	if (!r.player_id || !r.game_id || !r.reason)
		return BD_ENOMEM;
	return x->fn(x->ctx, &r);
}

int store_reports_by_each(struct store *s, int64_t player_key,
                          store_report_fn fn, void *ctx)
{
	struct report_each x = {fn, ctx};
	struct conn *c = store__checkout(s);
	int rc = store__run(c, ST_REPORTS_BY_PLAYER, ARGS(A_I64(player_key)),
	                    read_own_report, &x);
	store__checkin(s, c);
	return rc;
}

/* ---- a player's deletion ---- */

static int erase_tx(struct conn *c, void *ctx)
{
	struct ban_ctx *x = ctx;
	int64_t now = store__now_ms();
	int rc = store__run(c, ST_ERASE_PLAYER, ARGS(A_I64(x->key), A_I64(now)),
	                    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ENOTFOUND; /* deleted already */
	if (rc == 0)
		rc = end_waiting(c, x->key, &x->ended);
	static const enum stmt erase[] = {
	    ST_ERASE_CHAT,       ST_ERASE_BLOCKS,          ST_ERASE_INVITES,
	    ST_ERASE_DELIVERIES, ST_ERASE_PUSH_DELIVERIES,
	    ST_ERASE_MAIL_DELIVERIES, ST_ERASE_MAIL, ST_ERASE_MAIL_CODES,
	    ST_ERASE_EVENTS,
	    ST_ERASE_HORIZON,    ST_ERASE_HOOK,            ST_ERASE_PUSH,
	    ST_ERASE_SEATS_BUMP, ST_ERASE_SEEKS,      ST_ERASE_VACATIONS,
	    ST_ERASE_VACATION_ACCOUNT,                ST_ERASE_LINK_CODES};
	for (size_t i = 0; rc == 0 && i < sizeof erase / sizeof *erase; i++)
		rc = store__run(c, erase[i], ARGS(A_I64(x->key)), NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_ERASE_TOKENS,
		                ARGS(A_I64(x->key), A_I64(now)), NULL, NULL);
	if (rc == 0)
		rc = log_row(c, "delete", x->id, NULL, x->why);
	return rc;
}

int store_player_erase(struct store *s, int64_t player_key, const char *id,
                       const char *why)
{
	if (why && strlen(why) > STORE_WHY_ADMIN_MAX)
		return BD_EBADREQUEST;
	struct ban_ctx x = {player_key, id, why, 0, 0};
	return store__write_tx(s, erase_tx, &x);
}

/* ---- retention ---- */

struct prune_ctx {
	int64_t before_ms;
	int limit;
	int64_t n; /* out */
};

static int prune_chat_tx(struct conn *c, void *ctx)
{
	struct prune_ctx *x = ctx;
	int rc =
	    store__run(c, ST_PRUNE_CHAT,
	               ARGS(A_I64(x->before_ms), A_I64(x->limit)), NULL, NULL);
	x->n = store__changes(c);
	return rc;
}

int store_chat_prune(struct store *s, int64_t before_ms, int limit, int64_t *n)
{
	if (limit < 1)
		return BD_EBADREQUEST;
	struct prune_ctx x = {before_ms, limit, 0};
	int rc = store__write_tx(s, prune_chat_tx, &x);
	if (rc == 0)
		*n = x.n;
	return rc;
}

/* ---- the schema ---- */

void store_schema(struct store *s, int *known, const char **name)
{
	const struct store_migration *m =
	    store_shared(s) ? store_pg_migrations : store_migrations;
	size_t n = store_shared(s) ? store_pg_migrations_count
	                           : store_migrations_count;
	*known = (int)n;
	*name = n ? m[n - 1].name : "";
}

static int prune_idem_tx(struct conn *c, void *ctx)
{
	struct prune_ctx *x = ctx;
	int rc = store__run(c, ST_IDEM_EXPIRE, ARGS(A_I64(x->before_ms)), NULL,
	                    NULL);
	x->n = store__changes(c);
	return rc;
}

int store_idem_prune(struct store *s, int64_t before_ms, int64_t *n)
{
	struct prune_ctx x = {before_ms, 0, 0};
	int rc = store__write_tx(s, prune_idem_tx, &x);
	if (rc == 0)
		*n = x.n;
	return rc;
}
