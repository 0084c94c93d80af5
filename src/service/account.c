/* account.c: a player's own data (GET /v1/players/me/export, DELETE
 * /v1/players/me) and what `boardd admin` asks of the service: a player's
 * export and deletion by id, ending a game (docs/operations.md, "A
 * player's data" and "Admin commands"). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define EXPORT_EVENTS_MAX 1000 /* events an export lists, newest kept */

/* ---- the export ---- */

static int add_token(void *ctx, const struct store_token *t)
{
	json_t *a = ctx;
	return json_array_append_new(
	    a, json_pack("{s:s,s:s,s:o,s:o}", "id", t->id, "label", t->label,
	                 "created", svc__iso_time(t->created_ms), "last_used",
	                 t->last_used_ms ? svc__iso_time(t->last_used_ms)
	                                 : json_null()));
}

struct games_ctx {
	json_t *a;
	int64_t last_updated, last_key;
	int n;
};

static int add_game(void *ctx, const struct store_game *g, int seat)
{
	struct games_ctx *x = ctx;
	x->last_updated = g->updated_ms;
	x->last_key = g->key;
	x->n++;
	return json_array_append_new(
	    x->a, json_pack("{s:s,s:s,s:s,s:i,s:o,s:o}", "id", g->id, "game",
	                    g->rules_id, "status", g->status, "seat", seat,
	                    "created", svc__iso_time(g->created_ms), "updated",
	                    svc__iso_time(g->updated_ms)));
}

static int add_sub(void *ctx, const struct store_push_sub *p)
{
	return json_array_append_new(
	    ctx, json_pack("{s:s,s:s,s:s,s:o}", "id", p->id, "endpoint",
	                   p->endpoint, "lang", p->lang, "created",
	                   svc__iso_time(p->created_ms)));
}

static int add_block(void *ctx, const char *id, const char *name,
                     int64_t created_ms)
{
	return json_array_append_new(
	    ctx, json_pack("{s:{s:s,s:s},s:o}", "player", "id", id, "name",
	                   name, "created", svc__iso_time(created_ms)));
}

static const char *channel_name(int channel)
{
	return channel == STORE_CHAT_SPECTATORS ? "spectators" : "players";
}

static int add_msg(void *ctx, const struct store_own_msg *m)
{
	return json_array_append_new(
	    ctx, json_pack(
	             "{s:s,s:s,s:I,s:o,s:s,s:o}", "game", m->game_id, "channel",
	             channel_name(m->channel), "n", (json_int_t)m->n, "seat",
	             m->seat >= 0 ? json_integer(m->seat) : json_null(), "text",
	             m->text, "created", svc__iso_time(m->created_ms)));
}

static int add_report(void *ctx, const struct store_report *r)
{
	return json_array_append_new(
	    ctx,
	    json_pack(
	        "{s:o,s:o,s:o,s:o,s:s,s:o}", "player",
	        *r->player_id ? json_string(r->player_id) : json_null(), "game",
	        *r->game_id ? json_string(r->game_id) : json_null(), "channel",
	        r->channel >= 0 ? json_string(channel_name(r->channel))
	                        : json_null(),
	        "n", r->n ? json_integer(r->n) : json_null(), "reason",
	        r->reason, "created", svc__iso_time(r->created_ms)));
}

static int add_event(void *ctx, const struct store_event *e)
{
	json_t *data = json_loads(e->data, 0, NULL);
	return json_array_append_new(
	    ctx, json_pack("{s:s,s:s,s:o,s:o}", "id", e->id, "type", e->type,
	                   "data", data ? data : json_null(), "created",
	                   svc__iso_time(e->created_ms)));
}

static int add_vacation(void *ctx, int64_t start_ms, int64_t end_ms,
                        int automatic)
{
	return json_array_append_new(
	    ctx, json_pack("{s:o,s:o,s:b}", "since", svc__iso_time(start_ms),
	                   "until", svc__iso_time(end_ms), "automatic",
	                   automatic));
}

static int add_seek(void *ctx, const struct store_seek *k)
{
	return json_array_append_new(ctx, svc__seek_json(k)) == 0 ? 0
	                                                         : BD_ENOMEM;
}

/* Everything stored about player p (key `key`), as one JSON object. */
static int export_of(struct service *svc, int64_t key,
                     const struct store_player *p, json_t **out)
{
	json_t *o = json_pack(
	    "{s:{s:s,s:s,s:o},s:[],s:[],s:n,s:[],s:n,s:[],s:[],s:[],s:[],s:[],"
	    "s:n,s:[]}",
	    "player", "id", p->id, "name", p->name, "created",
	    svc__iso_time(p->created_ms), "tokens", "games", "webhook",
	    "push_subscriptions", "email", "blocks", "chat_messages",
	    "reports", "events", "seeks", "vacation", "vacations");
	if (!o)
		return BD_ENOMEM;
	struct store *st = svc->st;
	int rc =
	    store_tokens_each(st, key, add_token, json_object_get(o, "tokens"));
	/* every game, a page of 100 at a time (newest first) */
	struct games_ctx g = {json_object_get(o, "games"), 0, 0, 100};
	while (rc == 0 && g.n == 100) {
		struct store_player_filter f = {.before_updated =
		                                    g.last_updated,
		                                .before_key = g.last_key,
		                                .limit = 100};
		g.n = 0;
		rc = store_player_games_each(st, key, &f, add_game, &g);
	}
	struct store_webhook *w = rc == 0 ? malloc(sizeof *w) : NULL;
	if (rc == 0 && !w)
		rc = BD_ENOMEM;
	if (rc == 0) {
		int r2 = store_webhook_get(st, key, w);
		if (r2 == 0) /* never its secret */
			json_object_set_new(
			    o, "webhook",
			    json_pack("{s:s,s:o}", "url", w->url, "created",
			              svc__iso_time(w->created_ms)));
		else if (r2 != BD_ENOTFOUND)
			rc = r2;
	}
	free(w);
	if (rc == 0)
		rc = store_push_subs_each(
		    st, key, add_sub, json_object_get(o, "push_subscriptions"));
	if (rc == 0) {
		struct store_mail m;
		int r2 = store_mail_get(st, key, &m);
		if (r2 == 0)
			json_object_set_new(o, "email", svc__mail_json(&m));
		else if (r2 != BD_ENOTFOUND)
			rc = r2;
	}
	if (rc == 0)
		rc = store_blocks_each(st, key, add_block,
		                       json_object_get(o, "blocks"));
	if (rc == 0)
		rc = store_chat_by_player_each(
		    st, key, add_msg, json_object_get(o, "chat_messages"));
	if (rc == 0)
		rc = store_reports_by_each(st, key, add_report,
		                           json_object_get(o, "reports"));
	if (rc == 0)
		rc = store_seeks_of_player(st, key, svc__now_ms(), add_seek,
		                           json_object_get(o, "seeks"));
	if (rc == 0) {
		struct store_vacation v;
		rc = store_vacation_get(st, key, svc__now_ms(), &v);
		if (rc == 0)
			json_object_set_new(o, "vacation", svc__vacation_json(&v));
	}
	if (rc == 0)
		rc = store_vacations_each(st, key, add_vacation,
		                          json_object_get(o, "vacations"));
	if (rc == 0) {
		json_t *ratings, *history;
		rc = svc__rating_data(svc, key, p->id, &ratings, &history);
		if (rc == 0) {
			json_object_set_new(o, "ratings", ratings);
			json_object_set_new(o, "rating_history", history);
		}
	}
	if (rc == 0)
		rc = store_events_each(st, key, 0, EXPORT_EVENTS_MAX, add_event,
		                       json_object_get(o, "events"));
	if (rc < 0) {
		json_decref(o);
		return rc;
	}
	*out = o;
	return 0;
}

int service_player_export(struct service *svc, const char *token, json_t **out,
                          struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	return rc < 0 ? rc : export_of(svc, p.key, &p, out);
}

/* The player with public id `id` for boardd admin: deleted ones are
 * BD_ENOTFOUND too. */
static int admin_player(struct service *svc, const char *id,
                        struct store_player *p, struct svc_err *err)
{
	struct store_admin_player a;
	int rc = store_admin_player(svc->st, id, &a);
	if (rc == BD_ENOTFOUND || (rc == 0 && a.deleted_ms))
		return svc__fail(err, BD_ENOTFOUND,
		                 rc == 0 ? "player %s was deleted"
		                         : "no player has the id %s",
		                 id);
	if (rc < 0)
		return rc;
	*p = (struct store_player){.key = a.key, .created_ms = a.created_ms};
	memcpy(p->id, a.id, sizeof p->id);
	memcpy(p->name, a.name, sizeof p->name);
	return 0;
}

int service_admin_export(struct service *svc, const char *player_id,
                         json_t **out, struct svc_err *err)
{
	struct store_player p;
	int rc = admin_player(svc, player_id, &p, err);
	return rc < 0 ? rc : export_of(svc, p.key, &p, out);
}

/* ---- the deletion ---- */

struct ids {
	char (*v)[STORE_ID_LEN + 1]; /* malloc'd */
	int n, cap;
};

static int add_id(void *ctx, const char *id)
{
	struct ids *x = ctx;
	if (x->n == x->cap) {
		int cap = x->cap ? 2 * x->cap : 16;
		void *v = realloc(x->v, (size_t)cap * sizeof *x->v);
		if (!v)
			return BD_ENOMEM;
		x->v = v;
		x->cap = cap;
	}
	snprintf(x->v[x->n++], STORE_ID_LEN + 1, "%s", id);
	return 0;
}

/* Resigns player p's seat in each game in progress (through the
 * engine), then erases the account (store_player_erase). */
static int delete_player(struct service *svc, const struct store_player *p,
                         const char *why, struct svc_err *err)
{
	struct ids games = {0};
	int rc = store_player_active_each(svc->st, p->key, add_id, &games);
	for (int i = 0; rc >= 0 && i < games.n; i++) {
		rc = svc__resign_seat(svc, games.v[i], p->key, -1, err);
		if (rc == BD_ENOTFOUND) /* gone meanwhile */
			rc = 0;
	}
	free(games.v);
	if (rc >= 0)
		rc = store_player_erase(svc->st, p->key, p->id, why);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "player %s was deleted already",
		                 p->id);
	if (rc == 0) {
		/* the seats they held now show "deleted player": nothing
		 * this process holds in memory names them any more */
		hot_write_begin_all(svc->hot);
		hot_clear(svc->hot);
		hot_write_end_all(svc->hot, NULL);
	}
	return rc < 0 ? rc : 0;
}

int service_player_delete(struct service *svc, const char *token,
                          struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	return rc < 0 ? rc : delete_player(svc, &p, NULL, err);
}

int service_admin_delete(struct service *svc, const char *player_id,
                         const char *why, struct svc_err *err)
{
	struct store_player p;
	int rc = admin_player(svc, player_id, &p, err);
	return rc < 0 ? rc : delete_player(svc, &p, why, err);
}

/* ---- ending a game ---- */

int service_admin_end_game(struct service *svc, const char *game_id, int winner,
                           const char *why, int *resigned, struct svc_err *err)
{
	struct loaded l;
	int rc = load_game(svc->st, svc->cache, game_id, &l, err);
	if (rc < 0)
		return rc;
	int seats = l.g->seats, waiting = l.row.open_seats > 0;
	int64_t key = l.row.key, creator = l.row.creator_key;
	struct rules_result res;
	int over = engine_game_result(l.g, &res);
	loaded_release(&l);
	if (over)
		return svc__fail(err, BD_EGAMEOVER, "game %s is over already",
		                 game_id);
	*resigned = 0;
	if (waiting) { /* nobody played: cancelled, as its creator would */
		rc = store_game_cancel(svc->st, key, creator);
		if (rc == BD_EFORBIDDEN || rc == BD_ESTARTED)
			rc = svc__fail(err, rc,
			               "game %s waits for players and was not "
			               "created by a player: it expires by "
			               "itself (--waiting-expiry)",
			               game_id);
	} else if (winner < 0 || winner >= seats) {
		rc = svc__fail(err, BD_EBADREQUEST,
		               "game %s is in progress: name the seat that "
		               "wins with --winner (0..%d); every other seat "
		               "resigns",
		               game_id, seats - 1);
	} else {
		for (int s = 0; rc >= 0 && s < seats; s++)
			if (s != winner && (rc = svc__resign_seat(
			                        svc, game_id, 0, s, err)) == 0)
				++*resigned;
	}
	if (rc >= 0)
		rc = store_admin_log(svc->st, "end-game", NULL, game_id, why);
	return rc < 0 ? rc : 0;
}
