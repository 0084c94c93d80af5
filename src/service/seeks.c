/* seeks.c: quick match: POST, GET /v1/seeks and GET, DELETE
 * /v1/seeks/{id} (docs/matchmaking.md, "Quick match").
 *
 * A seek names a game as POST /v1/games does (game, seats, options,
 * clock, on_timeout, rated) and the opponents' ratings it takes; seeks
 * that name the same game exactly (the "pool": options compared with
 * the catalog's defaults filled in, keys sorted) and whose ratings each fall in the other's
 * bounds are paired oldest first by the store, in the transaction that
 * inserts the seek completing a table (store_seek_create).  The game is
 * planned here before that write: its state does not depend on who sits
 * where, and the seating order is drawn here too (libsodium's
 * randombytes_uniform, a uniform random permutation of the paired
 * seeks, oldest first). */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* A player's open seeks at most (docs/matchmaking.md). */
#define SEEKS_OPEN_MAX 5
/* A seek's lifetime in seconds: by default, and at most ("expires_in"). */
#define SEEK_LIFETIME_DEFAULT_S 3600
#define SEEK_LIFETIME_MAX_S     (7 * 86400)
/* A rating bound's magnitude at most: far beyond any rating. */
#define SEEK_RATING_LIMIT 100000
/* How long a seek waits for another node's hold of its pool, ms. */
#define SEEK_RETRY_MS 5000
/* A page of GET /v1/seeks: by default, and at most. */
#define SEEKS_PAGE_DEFAULT 50
#define SEEKS_PAGE_MAX     100

json_t *svc__seek_json(const struct store_seek *k)
{
	json_t *options = json_loads(k->options ? k->options : "{}", 0, NULL);
	/* the clock as POST /v1/games takes it (as a game's view shows it,
	 * without the seats' deadlines) */
	struct store_game timed = {.clock = k->clock};
	json_t *clock = svc__clock_json(NULL, &timed);
	if (json_is_object(clock))
		json_object_del(clock, "seats");
	return json_pack(
	    "{s:s,s:{s:s,s:s},s:s,s:i,s:o,s:o,s:b,s:I,s:I,s:I,s:o,s:o,s:s,"
	    "s:o}",
	    "id", k->id, "player", "id", k->player_id, "name", k->player_name,
	    "game", k->rules_id, "seats", k->seats, "options",
	    options ? options : json_object(), "clock",
	    clock ? clock : json_null(), "rated", k->rated, "rating",
	    (json_int_t)k->rating, "rating_min", (json_int_t)k->rating_min,
	    "rating_max", (json_int_t)k->rating_max, "created",
	    svc__iso_time(k->created_ms), "expires",
	    svc__iso_time(k->expires_ms), "state", k->state, "game_id",
	    k->game[0] ? json_string(k->game) : json_null());
}

/* POST /v1/seeks's body, parsed. */
struct seek_req {
	const struct rules *rules; /* borrowed */
	int seats;
	json_t *options;    /* borrowed from the body, or NULL */
	json_t *clock;      /* borrowed from the body, or NULL */
	json_t *on_timeout; /* borrowed from the body, or NULL */
	int rated;          /* default true, as POST /v1/games */
	int has_offsets;    /* "rating_range": [lo, hi] around one's own */
	int64_t lo, hi;     /* offsets, or absolute bounds (min, max) */
	int64_t lifetime_s; /* "expires_in" */
};

/* An integer JSON value within ±SEEK_RATING_LIMIT into *v. */
static int rating_value(const json_t *j, int64_t *v)
{
	if (!json_is_integer(j))
		return 0;
	json_int_t n = json_integer_value(j);
	if (n < -SEEK_RATING_LIMIT || n > SEEK_RATING_LIMIT)
		return 0;
	*v = (int64_t)n;
	return 1;
}

static int parse_range(const json_t *body, struct seek_req *q,
                       struct svc_err *err)
{
	json_t *range = json_object_get(body, "rating_range");
	json_t *min = json_object_get(body, "rating_min");
	json_t *max = json_object_get(body, "rating_max");
	q->lo = -SEEK_RATING_LIMIT;
	q->hi = SEEK_RATING_LIMIT;
	if (range && (min || max))
		return svc__fail(err, BD_EBADREQUEST,
		                 "give either 'rating_range' or 'rating_min' "
		                 "and 'rating_max', not both");
	if (range) {
		q->has_offsets = 1;
		if (!json_is_array(range) || json_array_size(range) != 2 ||
		    !rating_value(json_array_get(range, 0), &q->lo) ||
		    !rating_value(json_array_get(range, 1), &q->hi))
			return svc__fail(
			    err, BD_EBADREQUEST,
			    "'rating_range' is [below, above]: two integers "
			    "(rating points around your own, e.g. [-200, "
			    "300]) within ±%d",
			    SEEK_RATING_LIMIT);
	}
	if ((min && !rating_value(min, &q->lo)) ||
	    (max && !rating_value(max, &q->hi)))
		return svc__fail(err, BD_EBADREQUEST,
		                 "'rating_min' and 'rating_max' are integers "
		                 "within ±%d",
		                 SEEK_RATING_LIMIT);
	if (q->lo > q->hi)
		return svc__fail(err, BD_EBADREQUEST,
		                 "impossible rating range: its lower bound "
		                 "(%lld) is above its upper bound (%lld)",
		                 (long long)q->lo, (long long)q->hi);
	return 0;
}

static int parse_seek(const json_t *body, struct seek_req *q,
                      struct svc_err *err)
{
	static const char *const keys[] = {
	    "game",  "seats",        "options",    "clock",      "on_timeout",
	    "rated", "rating_range", "rating_min", "rating_max", "expires_in",
	    NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	json_t *game = json_object_get(body, "game");
	json_t *seats = json_object_get(body, "seats");
	json_t *rated = json_object_get(body, "rated");
	json_t *life = json_object_get(body, "expires_in");
	q->options = json_object_get(body, "options");
	q->clock = json_object_get(body, "clock");
	q->on_timeout = json_object_get(body, "on_timeout");
	if (!json_is_string(game))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'game' (a catalog id) is required");
	if (rated && !json_is_boolean(rated))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'rated' must be true or false");
	q->rated = !rated || json_is_true(rated);
	if (q->options && !json_is_object(q->options))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'options' must be an object");
	q->lifetime_s = SEEK_LIFETIME_DEFAULT_S;
	if (life && (!json_is_integer(life) || json_integer_value(life) < 1 ||
	             json_integer_value(life) > SEEK_LIFETIME_MAX_S))
		return svc__fail(err, BD_EBADREQUEST,
		                 "'expires_in' is a number of seconds from 1 "
		                 "to %d",
		                 SEEK_LIFETIME_MAX_S);
	if (life)
		q->lifetime_s = (int64_t)json_integer_value(life);
	if (seats && !json_is_integer(seats))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'seats' must be an integer");
	q->rules = engine_rules_find(json_string_value(game));
	if (!q->rules)
		return svc__fail(
		    err, BD_EUNKNOWNRULES,
		    "no game '%s' in the catalog (GET /v1/catalog)",
		    json_string_value(game));
	json_int_t n = seats ? json_integer_value(seats) : q->rules->min_seats;
	struct rules_why why;
	if (engine_seats_check(q->rules, (long long)n, &why))
		return svc__fail(err, BD_EBADOPTIONS, "%s", why.detail);
	if (n < 2 || n > STORE_SEEK_SEATS_MAX)
		return svc__fail(err, BD_EBADOPTIONS,
		                 "a seek is for 2 to %d seats",
		                 STORE_SEEK_SEATS_MAX);
	q->seats = (int)n;
	return parse_range(body, q, err);
}

/* The game a pairing creates, planned before the write. */
struct seek_plan {
	struct store_game row; /* options, clock malloc'd */
	struct engine_game *g; /* its state, owned */
	char category[32];     /* its rating category */
	int glicko;            /* 1: two sides of one seat (Glicko-2) */
	char *pool;            /* malloc'd */
	struct store_seek_game seating;
};

static void plan_release(struct seek_plan *p)
{
	free(p->row.options);
	free(p->row.clock);
	free(p->pool);
	engine_game_free(p->g);
}

/* The options a seek's pool compares and its game gets: `options`
 * (borrowed, or NULL) with each option the game's catalog declares
 * (rules' catalog "options") and `options` leaves out set to its
 * "default" for `seats` seats (a default keyed by seat count, as
 * Quantum's map, is that count's), so that {} and the same options spelt
 * out with their defaults pair.  JSON text, keys sorted (malloc'd), or
 * NULL (no memory). */
static char *pool_options(const struct rules *r, int seats,
                          const json_t *options)
{
	json_t *out = options ? json_deep_copy(options) : json_object();
	json_t *cat = r->catalog ? r->catalog() : NULL;
	const char *name;
	json_t *o;
	json_object_foreach(json_object_get(cat, "options"), name, o) {
		json_t *def = json_object_get(o, "default");
		if (json_is_object(def)) {
			char n[16];
			snprintf(n, sizeof n, "%d", seats);
			def = json_object_get(def, n);
		}
		if (out && def && !json_object_get(out, name))
			json_object_set(out, name, def);
	}
	json_decref(cat);
	char *text = out ? json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS)
	                 : NULL;
	json_decref(out);
	return text;
}

static int plan_game(struct service *svc, const struct seek_req *q,
                     int64_t player_key, const char *client,
                     struct seek_plan *p, struct svc_err *err)
{
	p->row.seats = q->seats;
	token_secret(&p->row); /* docs/shuffles.md */
	struct engine_secret secret;
	struct rng start;
	load_secret(&p->row, &secret);
	engine_secret_rng(&secret, &start);
	sodium_memzero(&secret, sizeof secret);
	struct rules_why why;
	int rc = engine_game_new_rng(q->rules, q->seats, q->options, NULL,
	                             &start, &p->g, &why);
	if (rc < 0)
		return svc__fail(err, rc, "%s", why.detail);
	engine_game_stored_under(p->g, q->rules->version);
	rc = svc__clock_parse(q->clock, q->on_timeout, svc->clock_min_s,
	                      &p->row.clock, err);
	if (rc < 0)
		return rc;
	snprintf(p->row.rules_id, sizeof p->row.rules_id, "%s", q->rules->id);
	p->row.rules_version = q->rules->version;
	p->row.unrated = !q->rated;
	snprintf(p->row.status, sizeof p->row.status, "%s",
	         svc__status(p->g, 0));
	p->row.to_act = engine_game_to_act(p->g);
	p->row.options = pool_options(q->rules, q->seats, q->options);
	p->row.creator_key = player_key;
	p->row.creator_addr = client;
	int side[ENGINE_MAX_SEATS] = {0}, sides = 0;
	engine_game_rating_category(p->g, p->category, sizeof p->category,
	                            side);
	for (int s = 0; s < q->seats; s++)
		if (side[s] + 1 > sides)
			sides = side[s] + 1;
	p->glicko = sides == 2 && q->seats == 2; /* as store_ratings.c */
	if (!p->row.options)
		return BD_ENOMEM;
	json_t *pool =
	    json_pack("{s:s,s:i,s:b,s:s,s:s?}", "game", q->rules->id, "seats",
	              q->seats, "rated", q->rated, "options", p->row.options,
	              "clock", p->row.clock);
	p->pool = pool ? json_dumps(pool, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(pool);
	/* The seating: a uniform random permutation (Fisher-Yates). */
	for (int i = 0; i < q->seats; i++)
		p->seating.order[i] = i;
	for (int i = q->seats - 1; i > 0; i--) {
		int j = (int)randombytes_uniform((uint32_t)i + 1);
		int t = p->seating.order[i];
		p->seating.order[i] = p->seating.order[j];
		p->seating.order[j] = t;
	}
	p->seating.row = &p->row;
	return p->pool ? 0 : BD_ENOMEM;
}

/* The seeker's shown rating in the plan's category, whole points; the
 * start rating (Glicko-2 1500, Weng-Lin mu - 3 sigma = 0) without one. */
struct own_rating {
	const char *category;
	int found;
	double shown;
};

static int own_one(void *ctx, const struct store_rating *r)
{
	struct own_rating *o = ctx;
	if (strcmp(r->category, o->category) == 0) {
		o->found = 1;
		o->shown = r->shown;
	}
	return 0;
}

static int own_rating(struct service *svc, int64_t player_key,
                      const struct seek_plan *p, int64_t *rating)
{
	struct own_rating o = {p->category, 0, 0};
	int rc = store_player_ratings(svc->st, player_key, own_one, &o);
	if (rc < 0)
		return rc;
	double shown = o.found ? o.shown : p->glicko ? 1500.0 : 0.0;
	*rating = (int64_t)(shown < 0 ? shown - 0.5 : shown + 0.5);
	return 0;
}

int service_seek_create(struct service *svc, const json_t *body,
                        const char *token, const char *client, json_t **out,
                        struct svc_err *err)
{
	struct store_player me;
	int rc = svc__player_of(svc, token, &me, err);
	if (rc < 0)
		return rc;
	struct seek_req q = {0};
	if ((rc = parse_seek(body, &q, err)) < 0)
		return rc;
	struct seek_plan p = {0};
	rc = plan_game(svc, &q, me.key, client, &p, err);
	int64_t now = svc__now_ms();
	struct store_seek k = {.player_key = me.key,
	                       .pool = p.pool,
	                       .seats = q.seats,
	                       .options = p.row.options,
	                       .clock = p.row.clock,
	                       .rated = q.rated,
	                       .expires_ms = now + q.lifetime_s * 1000};
	snprintf(k.rules_id, sizeof k.rules_id, "%s", q.rules->id);
	if (rc == 0)
		rc = own_rating(svc, me.key, &p, &k.rating);
	k.rating_min = q.has_offsets ? k.rating + q.lo : q.lo;
	k.rating_max = q.has_offsets ? k.rating + q.hi : q.hi;
	struct store_seek_made made = {0};
	/* BD_ECONFLICT: an id was taken, or another node's transaction
	 * holds the pool (store_seek_create): new ids, and again after a
	 * pause of 1-4 ms, for up to SEEK_RETRY_MS. */
	int64_t give_up = svc__now_ms() + SEEK_RETRY_MS;
	for (int attempt = 0; rc == 0 || rc == BD_ECONFLICT; attempt++) {
		if (attempt > 0 && svc__now_ms() > give_up) {
			rc = svc__fail(err, BD_EBUSY,
			               "other seeks of this game held it for "
			               "too long; nothing was written: retry");
			break;
		}
		if (attempt > 0)
			usleep(1000 + randombytes_uniform(3000));
		token_game_id(k.id);
		token_game_id(p.row.id);
		rc = store_seek_create(svc->st, &k, SEEKS_OPEN_MAX, now,
		                       &p.seating, &made);
		if (rc != BD_ECONFLICT)
			break;
	}
	if (rc == BD_ESEEKSFULL)
		svc__fail(err, rc,
		          "you hold %d open seeks already: cancel one "
		          "(DELETE /v1/seeks/{id}) or wait for one to be "
		          "paired or to expire",
		          SEEKS_OPEN_MAX);
	if (rc == BD_ESEEKSELF)
		svc__fail(err, rc,
		          "you have an open seek for this very game already: "
		          "a second one could only be paired with your own");
	if (rc == 0 && made.game_key) {
		engine_cache_put(svc->cache, made.game_key, p.g); /* a copy */
		if (p.row.clock)
			svc__clock_wake(svc, svc__now_ms());
	}
	struct store_seek back = {0};
	if (rc == 0)
		rc = store_seek_get(svc->st, k.id, now, &back);
	if (rc == 0)
		rc = svc__give(svc__seek_json(&back), out);
	store_seek_release(&back);
	plan_release(&p);
	return rc;
}

int service_seek_get(struct service *svc, const char *id, json_t **out,
                     struct svc_err *err)
{
	struct store_seek k = {0};
	int rc = token_is_game_id(id)
	             ? store_seek_get(svc->st, id, svc__now_ms(), &k)
	             : BD_ENOTFOUND;
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EUNKNOWNSEEK, "no seek has that id");
	if (rc == 0)
		rc = svc__give(svc__seek_json(&k), out);
	store_seek_release(&k);
	return rc;
}

int service_seek_cancel(struct service *svc, const char *id, const char *token,
                        struct svc_err *err)
{
	struct store_player me;
	int rc = svc__player_of(svc, token, &me, err);
	if (rc < 0)
		return rc;
	rc = token_is_game_id(id)
	         ? store_seek_cancel(svc->st, id, me.key, svc__now_ms())
	         : BD_ENOTFOUND;
	switch (rc) {
	case BD_ENOTFOUND:
		return svc__fail(err, BD_EUNKNOWNSEEK, "no seek has that id");
	case BD_EFORBIDDEN:
		return svc__fail(err, rc, "only its player cancels a seek");
	case BD_ESTARTED: /* DELETE answers of open seeks only */
		return svc__fail(
		    err, BD_EUNKNOWNSEEK,
		    "no open seek has that id: it was paired, "
		    "cancelled or it expired (GET it to see which)");
	default:
		return rc;
	}
}

/* One page of GET /v1/seeks. */
struct seeks_page {
	json_t *seeks;
	int n;
	char last[STORE_ID_LEN + 1];
};

static int page_one(void *ctx, const struct store_seek *k)
{
	struct seeks_page *pg = ctx;
	pg->n++;
	memcpy(pg->last, k->id, sizeof pg->last);
	return json_array_append_new(pg->seeks, svc__seek_json(k)) == 0
	           ? 0
	           : BD_ENOMEM;
}

int service_seeks_list(struct service *svc, const char *game, const char *after,
                       const char *limit, json_t **out, struct svc_err *err)
{
	int64_t n = SEEKS_PAGE_DEFAULT;
	if (limit && !svc__parse_uint(limit, 1, SEEKS_PAGE_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 SEEKS_PAGE_MAX);
	if (game && !engine_rules_find(game))
		return svc__fail(
		    err, BD_EUNKNOWNRULES,
		    "no game '%s' in the catalog (GET /v1/catalog)", game);
	if (after && !token_is_game_id(after))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a seek's id (the next_after of "
		                 "the previous page)");
	struct seeks_page pg = {json_array(), 0, ""};
	if (!pg.seeks)
		return BD_ENOMEM;
	int rc = store_seeks_open(svc->st, game, after, (int)n, svc__now_ms(),
	                          page_one, &pg);
	if (rc == BD_ENOTFOUND)
		rc = svc__fail(err, BD_EBADREQUEST, "after names no seek");
	if (rc < 0) {
		json_decref(pg.seeks);
		return rc;
	}
	return svc__give(
	    json_pack("{s:o,s:o}", "seeks", pg.seeks, "next_after",
	              pg.n == n ? json_string(pg.last) : json_null()),
	    out);
}
