/* service.c: the endpoints.  See service.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load.h"
#include "token.h"

#define MOVE_RETRIES 8      /* optimistic retries when a move races */
#define LIST_LIMIT_DEFAULT 20
#define LIST_LIMIT_MAX 100

struct service {
	struct store *st;           /* borrowed */
	struct engine_cache *cache; /* owned */
	service_move_fn on_move;    /* listener for committed moves, or NULL */
	void *on_move_ctx;          /* its context */
};

void service_on_move(struct service *svc, service_move_fn fn, void *ctx)
{
	svc->on_move = fn;
	svc->on_move_ctx = ctx;
}

struct service *service_new(struct store *st, size_t cache_games)
{
	struct service *svc = calloc(1, sizeof *svc);
	if (!svc)
		return NULL;
	svc->st = st;
	svc->cache = engine_cache_new(cache_games);
	if (!svc->cache) {
		free(svc);
		return NULL;
	}
	return svc;
}

void service_free(struct service *svc)
{
	if (!svc)
		return;
	engine_cache_free(svc->cache);
	free(svc);
}

static int fail(struct svc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct svc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof err->detail, fmt, ap);
	va_end(ap);
	return code;
}

/* Takes ownership of v: *out = v, or BD_ENOMEM when v is NULL. */
static int give(json_t *v, json_t **out)
{
	if (!v)
		return BD_ENOMEM;
	*out = v;
	return 0;
}

/* ---- shared JSON pieces ---- */

static json_t *seat_list(unsigned bits)
{
	json_t *a = json_array();
	for (int s = 0; a && s < ENGINE_MAX_SEATS; s++)
		if (bits & (1u << s))
			json_array_append_new(a, json_integer(s));
	return a;
}

static json_t *iso_time(int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[32];
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof buf - n, ".%03dZ", (int)(ms % 1000));
	return json_string(buf);
}

static json_t *result_json(const struct engine_game *g)
{
	struct rules_result res;
	if (!engine_game_result(g, &res))
		return json_null();
	return json_pack("{s:o,s:s}", "winners", seat_list(res.winners),
			 "reason", res.reason);
}

/* The seed, revealed once the game is over so anyone can re-run the log. */
static json_t *seed_json(const struct loaded *l)
{
	struct rules_result res;
	if (!engine_game_result(l->g, &res))
		return json_null();
	char hex[17];
	snprintf(hex, sizeof hex, "%016" PRIx64, l->row.seed);
	return json_string(hex);
}

static const char *status_of(const struct engine_game *g)
{
	struct rules_result res;
	return engine_game_result(g, &res) ? "finished" : "active";
}

/* The game as `viewer` sees it: the body of GET /v1/games/{id}. */
static json_t *game_json(const struct loaded *l, int viewer)
{
	return json_pack(
		"{s:s,s:s,s:I,s:i,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "id",
		l->row.id, "game", l->rules->id, "seq", (json_int_t)l->g->seq,
		"seats", l->g->seats, "status", status_of(l->g), "to_act",
		seat_list(engine_game_to_act(l->g)), "you",
		viewer >= 0 ? json_integer(viewer) : json_null(), "view",
		engine_game_view(l->g, viewer), "result", result_json(l->g),
		"seed", seed_json(l), "created", iso_time(l->row.created_ms),
		"updated", iso_time(l->row.updated_ms));
}

/* ---- GET /v1/catalog ---- */

static json_t *catalog_entry(const struct rules *r)
{
	json_t *e = r->catalog();
	if (!e)
		return NULL;
	json_object_set_new(e, "id", json_string(r->id));
	json_object_set_new(e, "title", json_string(r->title));
	json_object_set_new(e, "min_seats", json_integer(r->min_seats));
	json_object_set_new(e, "max_seats", json_integer(r->max_seats));
	json_object_set_new(e, "version", json_integer(r->version));
	return e;
}

int service_catalog(struct service *svc, json_t **out, struct svc_err *err)
{
	(void)svc;
	(void)err;
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	json_t *games = json_array();
	for (size_t i = 0; games && i < n; i++)
		if (json_array_append_new(games, catalog_entry(all[i])) < 0) {
			json_decref(games);
			return BD_ENOMEM;
		}
	return give(json_pack("{s:o}", "games", games), out);
}

/* ---- body validation ---- */

/* BD_EBADREQUEST unless every key of obj is in the NULL-ended list. */
static int only_keys(const json_t *obj, const char *const *keys,
		     struct svc_err *err)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v) {
		int known = 0;
		for (const char *const *p = keys; *p && !known; p++)
			known = strcmp(*p, k) == 0;
		if (!known)
			return fail(err, BD_EBADREQUEST,
				    "unknown field '%s' in the request body",
				    k);
	}
	return 0;
}

/* ---- POST /v1/games ---- */

struct create_req {
	const struct rules *rules; /* borrowed */
	int seats;
	json_t *options; /* borrowed from the body, or NULL */
	json_t *setup;   /* borrowed from the body, or NULL */
};

static int parse_create(const json_t *body, struct create_req *c,
			struct svc_err *err)
{
	static const char *const keys[] = {"game", "seats", "options",
					   "setup", NULL};
	if (!json_is_object(body))
		return fail(err, BD_EBADREQUEST, "the body must be an object");
	int rc = only_keys(body, keys, err);
	if (rc < 0)
		return rc;
	json_t *game = json_object_get(body, "game");
	json_t *seats = json_object_get(body, "seats");
	c->options = json_object_get(body, "options");
	c->setup = json_object_get(body, "setup");
	if (!json_is_string(game))
		return fail(err, BD_EBADREQUEST,
			    "field 'game' (a catalog id) is required");
	if (seats && !json_is_integer(seats))
		return fail(err, BD_EBADREQUEST,
			    "field 'seats' must be an integer");
	if (c->options && !json_is_object(c->options))
		return fail(err, BD_EBADREQUEST,
			    "field 'options' must be an object");
	if (json_is_null(c->setup))
		c->setup = NULL;
	if (c->setup && !json_is_object(c->setup))
		return fail(err, BD_EBADREQUEST,
			    "field 'setup' must be an object");
	c->rules = engine_rules_find(json_string_value(game));
	if (!c->rules)
		return fail(err, BD_EUNKNOWNRULES,
			    "no game '%s' in the catalog (GET /v1/catalog)",
			    json_string_value(game));
	json_int_t n = seats ? json_integer_value(seats) : c->rules->min_seats;
	c->seats = n >= 0 && n <= ENGINE_MAX_SEATS ? (int)n : -1;
	return 0;
}

static json_t *seats_with_tokens(int seats, char (*tokens)[TOKEN_LEN + 1])
{
	json_t *a = json_array();
	for (int s = 0; a && s < seats; s++)
		json_array_append_new(a, json_pack("{s:i,s:s}", "seat", s,
						   "token", tokens[s]));
	return a;
}

/* Inserts the game row with fresh tokens; retries on an id collision. */
static int insert_game(struct service *svc, struct store_game *row,
		       char (*tokens)[TOKEN_LEN + 1], int64_t *key)
{
	uint8_t hashes[ENGINE_MAX_SEATS][STORE_TOKEN_HASH_LEN];
	for (int s = 0; s < row->seats; s++) {
		token_new(tokens[s]);
		token_hash(tokens[s], hashes[s]);
	}
	int rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_game_id(row->id);
		rc = store_game_create(svc->st, row,
				       (const uint8_t(*)[STORE_TOKEN_HASH_LEN])
					       hashes,
				       key);
	}
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

int service_create(struct service *svc, const json_t *body, json_t **out,
		   struct svc_err *err)
{
	struct create_req c;
	int rc = parse_create(body, &c, err);
	if (rc < 0)
		return rc;
	struct store_game row = {.seats = c.seats, .seed = token_seed()};
	struct rules_why why;
	struct engine_game *g = NULL;
	rc = engine_game_new(c.rules, c.seats, c.options, c.setup, row.seed,
			     &g, &why);
	if (rc < 0)
		return fail(err, rc, "%s", why.detail);
	snprintf(row.rules_id, sizeof row.rules_id, "%s", c.rules->id);
	row.rules_version = c.rules->version;
	snprintf(row.status, sizeof row.status, "%s", status_of(g));
	row.to_act = engine_game_to_act(g);
	row.options = c.options ? json_dumps(c.options, JSON_COMPACT |
							       JSON_SORT_KEYS)
				: strdup("{}");
	row.setup = c.setup ? json_dumps(c.setup, JSON_COMPACT | JSON_SORT_KEYS)
			    : NULL;
	char tokens[ENGINE_MAX_SEATS][TOKEN_LEN + 1];
	int64_t key = 0;
	rc = BD_ENOMEM;
	if (row.options && (row.setup || !c.setup))
		rc = insert_game(svc, &row, tokens, &key);
	if (rc == 0) {
		engine_cache_put(svc->cache, key, g);
		rc = give(json_pack("{s:s,s:s,s:o}", "id", row.id, "game",
				    c.rules->id, "seats",
				    seats_with_tokens(c.seats, tokens)),
			  out);
	}
	free(row.options);
	free(row.setup);
	engine_game_free(g);
	return rc;
}

/* ---- GET /v1/games ---- */

/* Parses a decimal in [lo, hi]; 1 on success. */
static int parse_uint(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	if (!s || !*s || strlen(s) > 18 || strspn(s, "0123456789") != strlen(s))
		return 0;
	long long n = strtoll(s, NULL, 10);
	if (n < lo || n > hi)
		return 0;
	*v = n;
	return 1;
}

static json_t *list_entry(const struct store_game *g)
{
	return json_pack("{s:s,s:s,s:s,s:I,s:i,s:o,s:o,s:o}", "id", g->id,
			 "game", g->rules_id, "status", g->status, "seq",
			 (json_int_t)g->seq, "seats", g->seats, "to_act",
			 seat_list(g->to_act), "created",
			 iso_time(g->created_ms), "updated",
			 iso_time(g->updated_ms));
}

struct list_ctx {
	json_t *games;
	int64_t last_key;
};

static int list_one(void *ctx, const struct store_game *g)
{
	struct list_ctx *lc = ctx;
	lc->last_key = g->key;
	return json_array_append_new(lc->games, list_entry(g)) < 0 ? BD_ENOMEM
								   : 0;
}

int service_list(struct service *svc, const struct svc_list_query *q,
		 json_t **out, struct svc_err *err)
{
	struct store_filter f = {.status = q->status, .rules_id = q->game};
	int64_t limit = LIST_LIMIT_DEFAULT;
	if (q->limit && !parse_uint(q->limit, 1, LIST_LIMIT_MAX, &limit))
		return fail(err, BD_EBADREQUEST,
			    "limit must be an integer from 1 to 100");
	if (q->cursor && !parse_uint(q->cursor, 1, INT64_MAX, &f.before_key))
		return fail(err, BD_EBADREQUEST,
			    "cursor must be a next_cursor from a listing");
	if (q->status && strcmp(q->status, "active") != 0 &&
	    strcmp(q->status, "finished") != 0)
		return fail(err, BD_EBADREQUEST,
			    "status must be 'active' or 'finished'");
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
	return give(json_pack("{s:o,s:o}", "games", lc.games, "next_cursor",
			      next),
		    out);
}

/* ---- GET /v1/games/{id} and /actions ---- */

int service_game(struct service *svc, const char *id, const char *token,
		 json_t **out, uint64_t *seq, struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = load_game(svc->st, svc->cache, id, &l, err);
	if (rc < 0)
		return rc;
	rc = load_seat(svc->st, &l, token, 0, &seat, err);
	if (rc == 0 && (rc = give(game_json(&l, seat), out)) == 0)
		*seq = l.g->seq;
	loaded_release(&l);
	return rc;
}

int service_actions(struct service *svc, const char *id, const char *token,
		    json_t **out, struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = load_game(svc->st, svc->cache, id, &l, err);
	if (rc < 0)
		return rc;
	rc = load_seat(svc->st, &l, token, 1, &seat, err);
	if (rc == 0)
		rc = give(json_pack("{s:I,s:o}", "seq", (json_int_t)l.g->seq,
				    "actions", engine_game_actions(l.g, seat)),
			  out);
	loaded_release(&l);
	return rc;
}

/* ---- POST /v1/games/{id}/moves ---- */

struct move_req {
	const json_t *action; /* borrowed */
	int has_expected;
	uint64_t expected;
};

static int parse_move(const json_t *body, const uint64_t *if_match,
		      struct move_req *m, struct svc_err *err)
{
	static const char *const keys[] = {"action", "expected_seq", NULL};
	if (!json_is_object(body))
		return fail(err, BD_EBADREQUEST, "the body must be an object");
	int rc = only_keys(body, keys, err);
	if (rc < 0)
		return rc;
	m->action = json_object_get(body, "action");
	if (!json_is_object(m->action))
		return fail(err, BD_EBADREQUEST,
			    "field 'action' (an object from GET "
			    "/v1/games/{id}/actions) is required");
	json_t *exp = json_object_get(body, "expected_seq");
	if (exp && (!json_is_integer(exp) || json_integer_value(exp) < 0))
		return fail(err, BD_EBADREQUEST,
			    "field 'expected_seq' must be a non-negative "
			    "integer");
	if (exp && if_match && (uint64_t)json_integer_value(exp) != *if_match)
		return fail(err, BD_EBADREQUEST,
			    "If-Match and expected_seq disagree");
	m->has_expected = exp || if_match;
	m->expected = if_match ? *if_match : (uint64_t)json_integer_value(exp);
	return 0;
}

static int stale(struct svc_err *err, uint64_t current)
{
	err->has_seq = 1;
	err->seq = current;
	snprintf(err->detail, sizeof err->detail,
		 "the game is at seq %" PRIu64
		 "; fetch it again and choose a move",
		 current);
	return BD_ESTALE;
}

/* Validates and applies the move to l->g, then appends it.  BD_ECONFLICT
 * means another move landed first and the caller may retry. */
static int try_move(struct service *svc, struct loaded *l, int seat,
		    const struct move_req *m, struct svc_err *err)
{
	if (m->has_expected && m->expected != l->g->seq)
		return stale(err, l->g->seq);
	uint64_t before = l->g->seq;
	struct rules_why why;
	int rc = engine_game_apply(l->g, seat, m->action, &why);
	if (rc < 0) {
		snprintf(err->rule, sizeof err->rule, "%s", why.rule);
		return fail(err, rc, "%s", why.detail);
	}
	char *text = json_dumps(m->action, JSON_COMPACT | JSON_SORT_KEYS);
	json_t *res = result_json(l->g);
	char *res_text = json_is_null(res) ? NULL
					   : json_dumps(res, JSON_COMPACT);
	struct store_move mv = {seat, text, status_of(l->g),
				engine_game_to_act(l->g), res_text};
	uint64_t current = 0;
	rc = !text || !res || (!res_text && !json_is_null(res))
		     ? BD_ENOMEM
		     : store_move_append(svc->st, l->row.key, before, &mv,
					 &current);
	free(text);
	free(res_text);
	json_decref(res);
	if (rc == 0) {
		engine_cache_put(svc->cache, l->row.key, l->g);
		if (svc->on_move)
			svc->on_move(svc->on_move_ctx, l->row.key, l->g->seq);
	}
	if (rc == BD_ECONFLICT && m->has_expected)
		return stale(err, current);
	return rc;
}

int service_move(struct service *svc, const char *id, const char *token,
		 const json_t *body, const uint64_t *if_match, json_t **out,
		 uint64_t *seq, struct svc_err *err)
{
	struct move_req m;
	int rc = parse_move(body, if_match, &m, err);
	for (int attempt = 0; rc == 0 && attempt < MOVE_RETRIES; attempt++) {
		struct loaded l;
		int seat;
		if ((rc = load_game(svc->st, svc->cache, id, &l, err)) < 0)
			break;
		rc = load_seat(svc->st, &l, token, 1, &seat, err);
		if (rc == 0)
			rc = try_move(svc, &l, seat, &m, err);
		if (rc == 0 && (rc = give(game_json(&l, seat), out)) == 0)
			*seq = l.g->seq;
		loaded_release(&l);
		if (rc != BD_ECONFLICT)
			return rc;
		/* Someone else moved first: with an expected seq that is
		 * stale, otherwise re-validate against the new state. */
		rc = 0;
	}
	return rc < 0 ? rc
		      : fail(err, BD_EBUSY,
			     "too many concurrent moves; try again");
}

/* ---- GET /v1/games/{id}/moves ---- */

struct moves_ctx {
	struct engine_game *g;         /* replayed from seq 0 */
	const struct engine_game *now; /* the state the caller sees */
	int viewer;
	uint64_t after;
	json_t *moves;
	struct svc_err *err;
};

static int moves_one(void *ctx, uint64_t seq, int seat, const char *action)
{
	struct moves_ctx *mc = ctx;
	if (seq > mc->now->seq)
		return 0; /* landed after we loaded: not in this answer */
	int rc = load_apply_logged(mc->g, seq, seat, action, mc->err);
	if (rc < 0 || seq <= mc->after)
		return rc;
	json_t *a = json_loads(action, 0, NULL);
	json_t *shown = a ? mc->g->rules->move_view(mc->g->state,
						     mc->now->state, seat, a,
						     mc->viewer)
			  : NULL;
	json_decref(a);
	json_t *e = json_pack("{s:I,s:i,s:o}", "seq", (json_int_t)seq, "seat",
			      seat, "action", shown);
	return json_array_append_new(mc->moves, e) < 0 ? BD_ENOMEM : 0;
}

int service_moves(struct service *svc, const char *id, const char *token,
		  const char *after, json_t **out, struct svc_err *err)
{
	int64_t from = 0;
	if (after && !parse_uint(after, 0, INT64_MAX, &from))
		return fail(err, BD_EBADREQUEST,
			    "after must be a non-negative integer seq");
	struct loaded l;
	int rc = load_game(svc->st, svc->cache, id, &l, err);
	if (rc < 0)
		return rc;
	struct moves_ctx mc = {NULL, l.g, 0, (uint64_t)from, json_array(),
			       err};
	rc = load_seat(svc->st, &l, token, 0, &mc.viewer, err);
	if (rc == 0)
		rc = mc.moves ? load_fresh(&l.row, l.rules, &mc.g, err)
			      : BD_ENOMEM;
	if (rc == 0)
		rc = store_moves_each(svc->st, l.row.key, 0, moves_one, &mc);
	if (rc == 0) {
		rc = give(json_pack("{s:I,s:o}", "seq", (json_int_t)l.g->seq,
				    "moves", mc.moves),
			  out);
		mc.moves = NULL;
	}
	json_decref(mc.moves);
	engine_game_free(mc.g);
	loaded_release(&l);
	return rc;
}
