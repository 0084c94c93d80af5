/* ratings.c: ratings as clients read them (docs/ratings.md): a player's
 * profile (GET /v1/players/{id}), their rating history
 * (GET /v1/players/{id}/rating-history) and the leaderboards
 * (GET /v1/leaderboards/{category}).  The ratings are written by the
 * store in the transaction that ends a game (store_ratings.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define RATINGS_PAGE_DEFAULT 50
#define RATINGS_PAGE_MAX 100
#define ACTIVE_DAYS 30 /* leaderboards count players this recently rated */

/* The start (00:00 UTC) of the first day that counts as active: the
 * leaderboards count days whole (the store's board_counts). */
static int64_t active_since(void)
{
	return (svc__now_ms() / 86400000 - ACTIVE_DAYS) * 86400000;
}

/* A rating subject as clients see it: {"player": {id, name}, "bot":
 * null} or {"player": null, "bot": spec}.  Sets the two members on o. */
static int subject_json(json_t *o, const struct store_rating *r)
{
	json_t *player = json_null(), *bot = json_null();
	if (r->player_id[0])
		player = json_pack("{s:s,s:s}", "id", r->player_id, "name",
		                   r->name);
	else if (strncmp(r->subject, "bot:", 4) == 0)
		bot = json_loads(r->subject + 4, JSON_DECODE_ANY, NULL);
	if (!player || !bot) {
		json_decref(player);
		json_decref(bot);
		return BD_ENOMEM;
	}
	json_object_set_new(o, "player", player);
	json_object_set_new(o, "bot", bot);
	return 0;
}

/* One rating's figures (without its subject). */
static json_t *rating_json(const struct store_rating *r)
{
	return json_pack("{s:s,s:s,s:f,s:f,s:f,s:b,s:I,s:I,s:o}", "category",
	                 r->category, "system", r->system, "rating", r->shown,
	                 "mu_or_rating", r->rating, "deviation", r->deviation,
	                 "provisional", r->provisional, "games",
	                 (json_int_t)r->games, "wins", (json_int_t)r->wins,
	                 "last_game", svc__iso_time(r->last_ms));
}

int svc__rating_category_check(const char *category, struct svc_err *err)
{
	if (!engine_rating_category_known(category))
		return svc__fail(err, BD_EUNKNOWNCATEGORY,
		                 "no rating category '%.64s' (docs/ratings.md)",
		                 category ? category : "");
	return 0;
}

/* ---- GET /v1/players/{id}: ratings part ---- */

struct profile_ratings {
	struct service *svc;
	json_t *list;
	int64_t games, wins, since;
};

static int profile_rating(void *ctx, const struct store_rating *r)
{
	struct profile_ratings *x = ctx;
	json_t *e = rating_json(r);
	int64_t rank = 0;
	struct store_rating again;
	int rc = e ? store_leaderboard_rank(x->svc->st, r->category,
	                                    r->subject, x->since, &again, &rank)
	           : BD_ENOMEM;
	if (rc < 0) {
		json_decref(e);
		return rc;
	}
	json_object_set_new(e, "rank", rank ? json_integer(rank) : json_null());
	x->games += r->games;
	x->wins += r->wins;
	return json_array_append_new(x->list, e) < 0 ? BD_ENOMEM : 0;
}

int svc__profile_ratings(struct service *svc, int64_t player_key,
                         json_t **ratings, int64_t *games, int64_t *wins)
{
	struct profile_ratings x = {svc, json_array(), 0, 0, active_since()};
	if (!x.list)
		return BD_ENOMEM;
	int rc = store_player_ratings(svc->st, player_key, profile_rating, &x);
	if (rc < 0) {
		json_decref(x.list);
		return rc;
	}
	*ratings = x.list;
	*games = x.games;
	*wins = x.wins;
	return 0;
}

/* ---- GET /v1/players/{id}/rating-history ---- */

struct history_list {
	json_t *list;
	int64_t last;
};

static int history_one(void *ctx, const struct store_rating_change *c)
{
	struct history_list *x = ctx;
	x->last = c->n;
	json_t *e = json_pack(
	    "{s:I,s:s,s:s,s:i,s:f,s:f,s:f,s:f,s:f,s:o}", "n", (json_int_t)c->n,
	    "category", c->category, "game", c->game_id, "place", c->place,
	    "mu_or_rating_before", c->rating_before, "deviation_before",
	    c->deviation_before, "mu_or_rating", c->rating, "deviation",
	    c->deviation, "rating", c->shown, "time", svc__iso_time(c->at_ms));
	return json_array_append_new(x->list, e) < 0 ? BD_ENOMEM : 0;
}

int svc__rating_data(struct service *svc, int64_t player_key,
                     const char *player_id, json_t **ratings,
                     json_t **history)
{
	int64_t games, wins;
	int rc = svc__profile_ratings(svc, player_key, ratings, &games, &wins);
	if (rc < 0)
		return rc;
	struct history_list x = {json_array(), 0};
	rc = x.list ? 0 : BD_ENOMEM;
	/* every page, RATINGS_PAGE_MAX at a time, until one comes short */
	for (size_t had = 0; rc == 0; had = json_array_size(x.list)) {
		rc = store_rating_history(svc->st, player_id, NULL, x.last,
		                          RATINGS_PAGE_MAX, history_one, &x);
		if (json_array_size(x.list) - had < RATINGS_PAGE_MAX)
			break;
	}
	if (rc < 0) {
		json_decref(x.list);
		json_decref(*ratings);
		*ratings = NULL;
		return rc;
	}
	*history = x.list;
	return 0;
}

int service_rating_history(struct service *svc, const char *player_id,
                           const char *category, const char *after,
                           const char *limit, json_t **out,
                           struct svc_err *err)
{
	int64_t from = 0, n = RATINGS_PAGE_DEFAULT;
	if (after && !svc__parse_uint(after, 0, INT64_MAX, &from))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a change number (digits)");
	if (limit && !svc__parse_uint(limit, 1, RATINGS_PAGE_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 RATINGS_PAGE_MAX);
	int rc = category ? svc__rating_category_check(category, err) : 0;
	if (rc < 0)
		return rc;
	struct store_player p;
	rc = store_player_by_id(svc->st, player_id, &p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EUNKNOWNPLAYER,
		                 "no player has the id %.40s", player_id);
	if (rc < 0)
		return rc;
	struct history_list x = {json_array(), 0};
	rc = x.list ? store_rating_history(svc->st, p.id, category, from,
	                                   (int)n, history_one, &x)
	            : BD_ENOMEM;
	if (rc < 0) {
		json_decref(x.list);
		return rc;
	}
	json_t *next = (int64_t)json_array_size(x.list) == n
	                   ? json_integer(x.last)
	                   : json_null();
	return svc__give(json_pack("{s:o,s:o}", "changes", x.list,
	                           "next_after", next),
	                 out);
}

/* ---- GET /v1/leaderboards/{category} ---- */

struct board_list {
	json_t *list;
	int64_t rank;       /* the next row's rank */
	char last[81];      /* the last row's subject */
};

static int board_one(void *ctx, const struct store_rating *r)
{
	struct board_list *x = ctx;
	json_t *e = json_pack("{s:I,s:f,s:f,s:I,s:I}", "rank",
	                      (json_int_t)x->rank++, "rating", r->shown,
	                      "deviation", r->deviation, "games",
	                      (json_int_t)r->games, "wins",
	                      (json_int_t)r->wins);
	if (!e || subject_json(e, r) < 0) {
		json_decref(e);
		return BD_ENOMEM;
	}
	snprintf(x->last, sizeof x->last, "%s", r->subject);
	return json_array_append_new(x->list, e) < 0 ? BD_ENOMEM : 0;
}

int service_leaderboard(struct service *svc, const char *category,
                        const char *after, const char *limit, json_t **out,
                        struct svc_err *err)
{
	int64_t n = RATINGS_PAGE_DEFAULT;
	int rc = svc__rating_category_check(category, err);
	if (rc < 0)
		return rc;
	if (limit && !svc__parse_uint(limit, 1, RATINGS_PAGE_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 RATINGS_PAGE_MAX);
	if (after && (!*after || strlen(after) > 80))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a next_after of this leaderboard");
	struct board_list x = {json_array(), 1, ""};
	if (!x.list)
		return BD_ENOMEM;
	rc = store_leaderboard(svc->st, category, active_since(), after, (int)n,
	                       &x.rank, board_one, &x);
	if (rc == BD_ENOTFOUND)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "after must be a next_after of this leaderboard "
		               "(that one has left it)");
	if (rc < 0) {
		json_decref(x.list);
		return rc;
	}
	json_t *next = (int64_t)json_array_size(x.list) == n
	                   ? json_string(x.last)
	                   : json_null();
	return svc__give(json_pack("{s:s,s:i,s:o,s:o}", "category", category,
	                           "active_days", ACTIVE_DAYS, "players",
	                           x.list, "next_after", next),
	                 out);
}
