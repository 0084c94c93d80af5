/* service.c: the service object and the read endpoints (catalog, list,
 * game, actions, move log).  Writes live in create.c, move.c and
 * players.c.  See service.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../display/label.h"
#include "internal.h"

#define LIST_LIMIT_DEFAULT 20
#define LIST_LIMIT_MAX     100

/* ---- GET /v1/catalog ---- */

static json_t *catalog_entry(const struct rules *r, size_t lang)
{
	json_t *e = r->catalog();
	if (!e || display_catalog_entry(lang, r->id, e) < 0) {
		json_decref(e);
		return NULL;
	}
	json_object_set_new(e, "id", json_string(r->id));
	json_object_set_new(e, "title", json_string(r->title));
	json_object_set_new(e, "min_seats", json_integer(r->min_seats));
	json_object_set_new(e, "max_seats", json_integer(r->max_seats));
	json_object_set_new(e, "version", json_integer(r->version));
	return e;
}

/* The catalog body in language lang; new reference, or NULL. */
static json_t *build_catalog(size_t lang)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	json_t *games = json_array();
	for (size_t i = 0; games && i < n; i++)
		if (json_array_append_new(games, catalog_entry(all[i], lang)) <
		    0) {
			json_decref(games);
			return NULL;
		}
	return json_pack("{s:o,s:s}", "games", games, "language",
	                 i18n_tag(lang));
}

/* The catalog in language lang as the body's bytes (see internal.h); 0
 * or -1. */
static int build_catalog_text(struct service *svc, size_t lang)
{
	json_t *c = build_catalog(lang);
	char *text = c ? json_dumps(c, JSON_COMPACT) : NULL;
	json_decref(c);
	if (!text)
		return -1;
	size_t n = strlen(text);
	char *body = realloc(text, n + 2);
	if (!body) {
		free(text);
		return -1;
	}
	memcpy(body + n, "\n", 2); /* as every JSON body ends: a newline */
	svc->catalog[lang] = body;
	svc->catalog_len[lang] = n + 1;
	return 0;
}

int service_catalog(struct service *svc, size_t lang, const char **body,
                    size_t *len, struct svc_err *err)
{
	(void)err;
	if (lang >= i18n_count())
		lang = 0;
	*body = svc->catalog[lang];
	*len = svc->catalog_len[lang];
	return 0;
}

void service_request_begin(struct service *svc)
{
	store_pin(svc->st);
}

void service_request_end(struct service *svc)
{
	store_unpin(svc->st);
}

int service_health(struct service *svc, struct svc_err *err)
{
	if (store_check(svc->st) < 0)
		return svc__fail(err, BD_EUNAVAILABLE,
		                 "the database file was deleted or replaced "
		                 "while the server ran; writes are refused "
		                 "until it restarts");
	return 0;
}

struct service *service_new(struct store *st, size_t cache_games)
{
	struct service *svc = calloc(1, sizeof *svc);
	if (!svc)
		return NULL;
	svc->st = st;
	svc->clock_min_s = SVC_CLOCK_MIN_SECONDS;
	svc->ticket_ttl_s = SVC_TICKET_SECONDS;
	svc->cache = engine_cache_new(cache_games);
	svc->cache_games = cache_games;
	svc__stats_init(svc);
	svc->hot = hot_new(cache_games);
	size_t langs = i18n_count(); /* 0: a message catalog is broken */
	int ok = svc->cache && svc->hot && langs > 0;
	for (size_t l = 0; ok && l < langs; l++)
		ok = build_catalog_text(svc, l) == 0;
	if (!ok) {
		service_free(svc);
		return NULL;
	}
	return svc;
}

void service_clock_min(struct service *svc, unsigned seconds)
{
	svc->clock_min_s = seconds;
}

void service_free(struct service *svc)
{
	if (!svc)
		return;
	service_bots_stop(svc);
	engine_cache_free(svc->cache);
	hot_free(svc->hot);
	for (size_t l = 0; l < I18N_MAX_LANGS; l++)
		free(svc->catalog[l]);
	free(svc);
}

/* ---- GET /v1/games ---- */

json_t *svc__list_entry(const struct store_game *g)
{
	json_t *bots = g->bots ? json_loads(g->bots, 0, NULL) : json_array();
	json_t *e = json_pack(
	    "{s:s,s:s,s:s,s:I,s:i,s:i,s:o,s:o,s:o,s:o}", "id", g->id, "game",
	    g->rules_id, "status", g->status, "seq", (json_int_t)g->seq,
	    "seats", g->seats, "open_seats", g->open_seats, "bots", bots,
	    "to_act", svc__seat_list(g->open_seats ? 0 : g->to_act), "created",
	    svc__iso_time(g->created_ms), "updated",
	    svc__iso_time(g->updated_ms));
	/* A lobby screen's one request: the options, who sits where and, once
	 * finished, the result (winners and reason; `updated` is when). */
	json_t *result = g->result ? json_loads(g->result, 0, NULL) : json_null();
	if (e && result)
		json_object_set(e, "result", result);
	json_decref(result);
	json_t *options = g->options ? json_loads(g->options, 0, NULL) : NULL;
	json_t *players = g->players ? json_loads(g->players, 0, NULL) : NULL;
	if (e && options)
		json_object_set(e, "options", options);
	if (e && players)
		json_object_set(e, "players", players);
	json_decref(options);
	json_decref(players);
	return e;
}

struct list_ctx {
	json_t *games;
	int64_t last_key;
};

static int list_one(void *ctx, const struct store_game *g)
{
	struct list_ctx *lc = ctx;
	lc->last_key = g->key;
	return json_array_append_new(lc->games, svc__list_entry(g)) < 0
	           ? BD_ENOMEM
	           : 0;
}

/* 1 if s is NULL or one of the listable statuses. */
static int status_ok(const char *s)
{
	return !s || strcmp(s, "waiting") == 0 || strcmp(s, "active") == 0 ||
	       strcmp(s, "finished") == 0;
}

int service_list(struct service *svc, const struct svc_list_query *q,
                 json_t **out, struct svc_err *err)
{
	struct store_filter f = {.status = q->status, .rules_id = q->game};
	int64_t limit = LIST_LIMIT_DEFAULT;
	if (q->limit && !svc__parse_uint(q->limit, 1, LIST_LIMIT_MAX, &limit))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to 100");
	if (q->cursor &&
	    !svc__parse_uint(q->cursor, 1, INT64_MAX, &f.before_key))
		return svc__fail(err, BD_EBADREQUEST,
		                 "cursor must be a next_cursor from a listing");
	if (!status_ok(q->status))
		return svc__fail(err, BD_EBADREQUEST,
		                 "status must be waiting, active or finished");
	f.limit = (int)limit;
	struct list_ctx lc = {json_array(), 0};
	if (!lc.games)
		return BD_ENOMEM;
	int rc = store_games_each(svc->st, &f, list_one, &lc);
	if (rc < 0) {
		json_decref(lc.games);
		return rc;
	}
	json_t *next = json_null();
	if (json_array_size(lc.games) == (size_t)limit) {
		char buf[24];
		snprintf(buf, sizeof buf, "%" PRId64, lc.last_key);
		next = json_string(buf);
	}
	return svc__give(
	    json_pack("{s:o,s:o}", "games", lc.games, "next_cursor", next),
	    out);
}

/* ---- GET /v1/games/{id} and /actions ---- */

/* Slots of engine_cache_bytes per game: the view of each viewer
 * (spectator 0, seat s at 1 + s), then the actions of each seat in each
 * of the first SLOT_LANGS languages (the labels are in the bytes; any
 * further language shares language 0's slots, told apart by the tag). */
#define SLOT_LANGS        2
#define SLOT_VIEW(viewer) ((unsigned)((viewer) + 1))
#define SLOT_ACTIONS(seat, lang)                                               \
	((unsigned)(ENGINE_MAX_SEATS + 1 +                                     \
	            ((lang) < SLOT_LANGS ? (lang) : 0) * ENGINE_MAX_SEATS +    \
	            (seat)))
_Static_assert(ENGINE_MAX_SEATS + 1 + SLOT_LANGS * ENGINE_MAX_SEATS <=
                   ENGINE_CACHE_SLOTS,
               "a cache slot for every view and every seat's actions");

/* What an answer depends on besides the state and the viewer: the row's
 * fields that can change without a move (seats taken, clocks), as one
 * FNV-1a hash.  Cached bytes are used only under the same tag. */
static uint64_t row_tag(const struct store_game *r)
{
	uint64_t h = 14695981039346656037ull;
	const int64_t nums[] = {r->updated_ms,      r->open_seats,
	                        r->deadline_ms,     (int64_t)r->seq,
	                        (int64_t)r->to_act, (int64_t)r->bot_seats,
	                        r->seats_version,   (int64_t)r->rules_version};
	const unsigned char *p = (const unsigned char *)nums;
	for (size_t i = 0; i < sizeof nums; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (const char *t = r->clock_state; t && *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ull;
	for (const char *t = r->status; *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ull;
	/* a finished game's rematch changes without a move */
	const int64_t rematch[] = {r->rematch_seats, r->rematch_by};
	p = (const unsigned char *)rematch;
	for (size_t i = 0; i < sizeof rematch; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (const char *t = r->rematch; *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ull;
	return h;
}

/* The compact JSON text of v and a newline, as the HTTP layer writes a
 * body (src/http/server.c); takes v.  *text is malloc'd. */
/* v's compact JSON and a newline as shared bytes (*out, one reference,
 * the caller's); takes v.  BD_ENOMEM when v is NULL or out of memory. */
static int json_bytes(json_t *v, struct engine_bytes **out)
{
	char *t = v ? json_dumps(v, JSON_COMPACT) : NULL;
	json_decref(v);
	if (!t)
		return BD_ENOMEM;
	size_t n = strlen(t);
	t[n] = '\n'; /* replaces the NUL: the length says where it ends */
	*out = engine_bytes_new(t, n + 1);
	free(t);
	return *out ? 0 : BD_ENOMEM;
}

/* Rounds of service_game_bytes when the state keeps running ahead of the
 * row; the last one answers with what it has. */
#define GAME_BYTES_ROUNDS 3

/* One round of service_game_bytes: its row from the hot table (first
 * round) or the store (store_row).  1 when the state ran ahead of the row
 * (a move committed between the two reads) and `last` is 0: nothing is
 * answered, the caller reads again. */
static int game_bytes_round(struct service *svc, const char *id,
                            const char *token, svc_want_fn want, void *ctx,
                            struct svc_view *out, int store_row, int last,
                            struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = store_row ? load_row(svc->st, id, &l, err)
	                   : load_row_hot(svc->st, svc->hot, id, &l, err);
	if (rc < 0)
		return rc;
	if ((rc = load_seat(svc->st, &l, token, 0, &seat, err)) < 0) {
		loaded_release(&l);
		return rc;
	}
	*out = (struct svc_view){.seq = l.row.seq,
	                         .open_seats = l.row.open_seats,
	                         .rematch = l.row.rematch_seats |
	                                    (l.row.rematch[0] ? 1u << 31 : 0),
	                         .seats_gen = (uint64_t)l.row.seats_version};
	uint64_t tag = row_tag(&l.row);
	if (want && !want(ctx, out)) {
		loaded_release(&l); /* e.g. 304: no state, no JSON */
		return 0;
	}
	if (engine_cache_bytes_share(svc->cache, l.row.key, SLOT_VIEW(seat),
	                             l.row.seq, tag, &out->body)) {
		loaded_release(&l);
		return 0;
	}
	if ((rc = load_state(svc->st, svc->cache, &l, err)) < 0)
		return rc;
	/* The game object shows row fields (updated, deadlines) beside the
	 * state: a state ahead of the row would show seq N with the row of
	 * N-1, and the ETag "N" would name two bodies.  The store's row is
	 * at least as new as any state in the cache (put after commit). */
	if (l.g->seq != l.row.seq && !last) {
		loaded_release(&l);
		return 1;
	}
	rc = json_bytes(svc__game_json(svc, &l, seat), &out->body);
	out->seq = l.g->seq;
	if (rc == 0 && l.g->seq == l.row.seq)
		engine_cache_bytes_keep(svc->cache, l.row.key, SLOT_VIEW(seat),
		                        l.row.seq, tag, out->body);
	loaded_release(&l);
	return rc;
}

int service_game_bytes(struct service *svc, const char *id, const char *token,
                       svc_want_fn want, void *ctx, struct svc_view *out,
                       struct svc_err *err)
{
	int rc = 1;
	for (int round = 0; rc == 1; round++)
		rc = game_bytes_round(svc, id, token, want, ctx, out, round > 0,
		                      round == GAME_BYTES_ROUNDS - 1, err);
	return rc;
}

int service_game(struct service *svc, const char *id, const char *token,
                 json_t **out, uint64_t *seq, struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = svc__load_viewer(svc, id, token, &l, &seat, err);
	if (rc < 0)
		return rc;
	if ((rc = svc__give(svc__game_json(svc, &l, seat), out)) == 0)
		*seq = l.g->seq;
	loaded_release(&l);
	return rc;
}

/* The actions of `seat` in l with their labels in lang; new reference. */
static json_t *labelled_actions(const struct loaded *l, int seat, size_t lang)
{
	json_t *acts = engine_game_actions(l->g, seat);
	if (!acts || json_array_size(acts) == 0)
		return acts;
	/* From what the seat sees, never the state (src/display/label.h). */
	json_t *view = engine_game_view(l->g, seat);
	int rc =
	    view ? display_label_actions(lang, l->rules->id, view, seat, acts)
	         : BD_ENOMEM;
	json_decref(view);
	if (rc < 0) {
		json_decref(acts);
		return NULL;
	}
	return acts;
}

int service_game_at(struct service *svc, const char *id, const char *token,
                    const char *at, json_t **out, struct svc_err *err)
{
	int64_t n;
	if (!svc__parse_uint(at, 0, INT64_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "at must be a non-negative integer seq");
	struct loaded l;
	int seat;
	int rc = svc__load_viewer(svc, id, token, &l, &seat, err);
	if (rc < 0)
		return rc;
	struct engine_game *then = NULL;
	json_t *body = NULL;
	if ((uint64_t)n > l.g->seq) {
		rc =
		    svc__fail(err, BD_EBADREQUEST,
		              "at must be a seq from 0 to the game's, %" PRIu64,
		              l.g->seq);
		goto out;
	}
	if ((rc = load_at(svc->st, &l.row, l.rules, (uint64_t)n, &then, err)) <
	    0)
		goto out;
	/* The object of that position, with what is revealed since: its
	 * view as the rules show it now (over: everything), and the seed
	 * (or secret and salt) once the game is over. */
	struct loaded past = l;
	past.g = then;
	struct rules_result res;
	int over = engine_game_result(l.g, &res);
	body = svc__game_json(svc, &past, seat);
	json_t *now = over ? svc__game_json(svc, &l, seat) : NULL;
	if (body && over &&
	    (!now ||
	     json_object_set(body, "seed", json_object_get(now, "seed")) < 0 ||
	     json_object_set(body, "secret", json_object_get(now, "secret")) <
	         0 ||
	     json_object_set(body, "salt", json_object_get(now, "salt")) < 0 ||
	     json_object_set_new(
	         body, "view", then->rules->view(then->state, seat, 1)) < 0)) {
		json_decref(body);
		body = NULL;
	}
	json_decref(now);
	rc = svc__give(body, out);
out:
	engine_game_free(then);
	loaded_release(&l);
	return rc;
}

int service_actions_bytes(struct service *svc, const char *id,
                          const char *token, size_t lang,
                          struct engine_bytes **body, struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = load_row_hot(svc->st, svc->hot, id, &l, err);
	if (rc < 0)
		return rc;
	if ((rc = load_seat(svc->st, &l, token, 1, &seat, err)) < 0) {
		loaded_release(&l);
		return rc;
	}
	if (lang >= i18n_count())
		lang = 0;
	/* the language is in the key: its slot, and the tag */
	uint64_t tag = row_tag(&l.row) ^ (0x9e3779b97f4a7c15ull * lang);
	if (engine_cache_bytes_share(svc->cache, l.row.key,
	                             SLOT_ACTIONS(seat, lang), l.row.seq, tag,
	                             body)) {
		loaded_release(&l);
		return 0;
	}
	if ((rc = load_state(svc->st, svc->cache, &l, err)) < 0)
		return rc;
	/* Nobody acts while seats are still open. */
	json_t *acts =
	    l.row.open_seats ? json_array() : labelled_actions(&l, seat, lang);
	rc = json_bytes(json_pack("{s:I,s:o}", "seq", (json_int_t)l.g->seq,
	                          "actions", acts),
	                body);
	if (rc == 0 && l.g->seq == l.row.seq)
		engine_cache_bytes_keep(svc->cache, l.row.key,
		                        SLOT_ACTIONS(seat, lang), l.row.seq,
		                        tag, *body);
	loaded_release(&l);
	return rc;
}

int service_actions(struct service *svc, const char *id, const char *token,
                    json_t **out, struct svc_err *err)
{
	struct engine_bytes *body = NULL;
	int rc = service_actions_bytes(svc, id, token, 0, &body, err);
	if (rc == 0) {
		*out = json_loadb(engine_bytes_data(body),
		                  engine_bytes_len(body), 0, NULL);
		rc = *out ? 0 : BD_ENOMEM;
	}
	engine_bytes_release(body);
	return rc;
}

/* ---- GET /v1/games/{id}/moves ---- */

json_t *svc__move_entry(const struct engine_game *after,
                        const struct engine_game *now, uint64_t seq, int seat,
                        const char *action, const char *reason,
                        int64_t created_ms, int viewer)
{
	json_t *a = json_loads(action, 0, NULL);
	json_t *shown =
	    a ? engine_move_view(after, now, seat, a, viewer) : NULL;
	json_t *outcome =
	    a ? engine_move_outcome(after, now, seat, a, viewer) : NULL;
	json_decref(a);
	/* "o" steals shown and outcome even when json_pack fails. */
	json_t *e = json_pack("{s:I,s:i,s:o,s:o,s:o}", "seq", (json_int_t)seq,
	                      "seat", seat, "action", shown, "outcome", outcome,
	                      "time", svc__iso_time(created_ms));
	if (e && reason &&
	    json_object_set_new(e, "by", json_string(reason)) < 0) {
		json_decref(e);
		e = NULL;
	}
	return e;
}

struct moves_ctx {
	struct engine_game *g;         /* the state at the page's start */
	const struct engine_game *now; /* the state the caller sees */
	int viewer;
	json_t *moves;
	struct svc_err *err;
};

static int moves_one(void *ctx, uint64_t seq, int seat, const char *action,
                     const char *reason, int64_t created_ms)
{
	struct moves_ctx *mc = ctx;
	int rc = load_apply_logged(mc->g, seq, seat, action, mc->err);
	if (rc < 0)
		return rc;
	json_t *e = svc__move_entry(mc->g, mc->now, seq, seat, action, reason,
	                            created_ms, mc->viewer);
	return json_array_append_new(mc->moves, e) < 0 ? BD_ENOMEM : 0;
}

int service_moves(struct service *svc, const char *id, const char *token,
                  const char *after, const char *limit, json_t **out,
                  struct svc_err *err)
{
	int64_t from = 0, n = SVC_MOVES_PAGE;
	if (after && !svc__parse_uint(after, 0, INT64_MAX, &from))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a non-negative integer seq");
	if (limit && !svc__parse_uint(limit, 1, SVC_MOVES_PAGE, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 SVC_MOVES_PAGE);
	struct loaded l;
	int viewer;
	int rc = svc__load_viewer(svc, id, token, &l, &viewer, err);
	if (rc < 0)
		return rc;
	/* The page: moves from+1 .. upto, all at or before the state the
	 * caller sees (l.g), read from the state at `from` onwards, so its
	 * cost depends on its length, never on the log's. */
	uint64_t now = l.g->seq,
	         start = (uint64_t)from < now ? (uint64_t)from : now;
	uint64_t upto = now - start > (uint64_t)n ? start + (uint64_t)n : now;
	struct moves_ctx mc = {NULL, l.g, viewer, json_array(), err};
	rc = mc.moves ? 0 : BD_ENOMEM;
	if (rc == 0 && upto > start)
		rc = load_at(svc->st, &l.row, l.rules, start, &mc.g, err);
	if (rc == 0 && upto > start)
		rc = store_moves_range(svc->st, l.row.key, start, upto,
		                       moves_one, &mc);
	json_t *body = NULL;
	if (rc == 0) {
		body = json_pack("{s:I,s:o}", "seq", (json_int_t)now, "moves",
		                 mc.moves);
		mc.moves = NULL;
		if (body && upto < now &&
		    json_object_set_new(body, "next_after",
		                        json_integer((json_int_t)upto)) < 0) {
			json_decref(body);
			body = NULL;
		}
		rc = svc__give(body, out);
	}
	json_decref(mc.moves);
	engine_game_free(mc.g);
	loaded_release(&l);
	return rc;
}

void service_on_move(struct service *svc, service_move_fn fn, void *ctx)
{
	svc->on_move = fn;
	svc->on_move_ctx = ctx;
}
