/* create.c: POST /v1/games, with its seating: each seat is held by a seat
 * token (the default), by the calling player ("me"), by a bot the server
 * plays ({"bot":…}, bot.h), or left open for anyone ("open") or for one
 * invited player ({"invite": player id}). */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bot/bot.h"
#include "internal.h"

struct create_req {
	const struct rules *rules; /* borrowed */
	int seats;
	json_t *options;    /* borrowed from the body, or NULL */
	json_t *setup;      /* borrowed from the body, or NULL */
	json_t *seating;    /* borrowed from the body, or NULL */
	json_t *clock;      /* borrowed from the body, or NULL */
	json_t *on_timeout; /* borrowed from the body, or NULL */
	int rated;          /* "rated" (default true): its end changes
	                       ratings (docs/ratings.md) */
};

static int parse_create(const json_t *body, struct create_req *c,
                        struct svc_err *err)
{
	static const char *const keys[] = {"game",       "seats",   "options",
	                                   "setup",      "seating", "clock",
	                                   "on_timeout", "rated",   NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	json_t *game = json_object_get(body, "game");
	json_t *seats = json_object_get(body, "seats");
	c->options = json_object_get(body, "options");
	c->setup = json_object_get(body, "setup");
	c->seating = json_object_get(body, "seating");
	c->clock = json_object_get(body, "clock");
	c->on_timeout = json_object_get(body, "on_timeout");
	json_t *rated = json_object_get(body, "rated");
	if (rated && !json_is_boolean(rated))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'rated' must be true or false");
	c->rated = !rated || json_is_true(rated);
	if (!json_is_string(game))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'game' (a catalog id) is required");
	if (seats && !json_is_integer(seats))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'seats' must be an integer");
	if (c->options && !json_is_object(c->options))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'options' must be an object");
	if (json_is_null(c->setup))
		c->setup = NULL;
	if (c->setup && !json_is_object(c->setup))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'setup' must be an object");
	if (c->seating && !json_is_array(c->seating))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'seating' must be an array");
	c->rules = engine_rules_find(json_string_value(game));
	if (!c->rules)
		return svc__fail(
		    err, BD_EUNKNOWNRULES,
		    "no game '%s' in the catalog (GET /v1/catalog)",
		    json_string_value(game));
	/* seats defaults to one per seating entry, else the game's minimum */
	json_int_t n = seats        ? json_integer_value(seats)
	               : c->seating ? (json_int_t)json_array_size(c->seating)
	                            : c->rules->min_seats;
	struct rules_why why;
	if (engine_seats_check(c->rules, (long long)n, &why))
		return svc__fail(err, BD_EBADOPTIONS, "%s", why.detail);
	c->seats = (int)n;
	return 0;
}

/* What the creator asked for one seat, and what the answer shows. */
struct seat_plan {
	struct store_seat row;             /* what the store writes */
	char token[TOKEN_LEN + 1];         /* a new seat token, or "" */
	char player_id[STORE_ID_LEN + 1];  /* "me": the player, or "" */
	char invited_id[STORE_ID_LEN + 1]; /* invitee, or "" */
	json_t *bot; /* a bot seat's spec as the answer shows it, or NULL */
};

/* Fills plan with the bot seat that seating entry `spec` names. */
static int plan_bot(const json_t *spec, struct seat_plan *plan,
                    struct svc_err *err)
{
	struct bot_spec bot;
	struct rules_why why;
	if (bot_spec_from_json(spec, &bot, &why) < 0)
		return svc__fail(err, BD_EBADOPTIONS, "seating[%d]: %s",
		                 plan->row.seat, why.detail);
	plan->bot = bot_spec_to_json(&bot);
	char *text = plan->bot
	                 ? json_dumps(plan->bot, JSON_COMPACT | JSON_SORT_KEYS)
	                 : NULL;
	int rc = !text                                 ? BD_ENOMEM
	         : strlen(text) < sizeof plan->row.bot ? 0
	                                               : BD_EINTERNAL;
	if (rc == 0)
		memcpy(plan->row.bot, text, strlen(text) + 1);
	free(text);
	return rc;
}

/* Resolves the caller's player token (for "me"), once. */
static int me(struct service *svc, const char *token, struct store_player *p,
              int *have, struct svc_err *err)
{
	if (*have)
		return 0;
	int rc = svc__player_of(svc, token, p, err);
	*have = rc == 0;
	return rc;
}

/* Fills plan from one "seating" entry (NULL: a seat token). */
static int plan_seat(struct service *svc, const json_t *spec, const char *token,
                     struct store_player *p, int *have_me,
                     struct seat_plan *plan, struct svc_err *err)
{
	const char *word = json_string_value(spec);
	json_t *invite = json_object_get(spec, "invite");
	if (!spec || (word && strcmp(word, "token") == 0)) {
		token_new(plan->token);
		token_hash(plan->token, plan->row.token_hash);
		plan->row.has_token = 1;
		return 0;
	}
	if (word && strcmp(word, "open") == 0) {
		plan->row.open = 1;
		return 0;
	}
	if (word && strcmp(word, "me") == 0) {
		int rc = me(svc, token, p, have_me, err);
		if (rc < 0)
			return rc;
		plan->row.player_key = p->key;
		snprintf(plan->player_id, sizeof plan->player_id, "%s", p->id);
		return 0;
	}
	if (json_is_object(spec) && json_object_size(spec) == 1 &&
	    json_is_string(invite) &&
	    token_is_game_id(json_string_value(invite))) {
		plan->row.open = 1;
		snprintf(plan->invited_id, sizeof plan->invited_id, "%s",
		         json_string_value(invite));
		return 0; /* the key is looked up by the caller */
	}
	if (json_is_object(spec) && json_object_get(spec, "bot"))
		return plan_bot(spec, plan, err);
	return svc__fail(err, BD_EBADREQUEST,
	                 "each seating entry is \"token\", \"me\", \"open\", "
	                 "{\"invite\": a player id} or {\"bot\": …}");
}

/* The key of the player with public id `id` (an invitee). */
static int invitee_key(struct service *svc, const char *id, int64_t *key,
                       struct svc_err *err)
{
	struct store_player p;
	int rc = store_player_by_id(svc->st, id, &p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EBADREQUEST,
		                 "no player has the id '%s'", id);
	if (rc == 0)
		*key = p.key;
	return rc;
}

static int plan_seats(struct service *svc, const struct create_req *c,
                      const char *token, struct seat_plan *plan,
                      struct svc_err *err)
{
	if (c->seating && json_array_size(c->seating) != (size_t)c->seats)
		return svc__fail(err, BD_EBADREQUEST,
		                 "'seating' must have one entry per seat (%d)",
		                 c->seats);
	struct store_player p;
	int have_me = 0, mes = 0, rc = 0;
	for (int s = 0; s < c->seats && rc == 0; s++) {
		memset(&plan[s], 0, sizeof plan[s]);
		plan[s].row.seat = s;
		json_t *spec = json_array_get(c->seating, (size_t)s);
		rc = plan_seat(svc, spec, token, &p, &have_me, &plan[s], err);
		mes += plan[s].player_id[0] != '\0';
		if (rc == 0 && plan[s].invited_id[0])
			rc = invitee_key(svc, plan[s].invited_id,
			                 &plan[s].row.invited_key, err);
	}
	if (rc == 0 && mes > 1)
		return svc__fail(err, BD_EBADREQUEST,
		                 "a player holds at most one seat of a game");
	return rc;
}

static json_t *seat_answer(const struct seat_plan *p)
{
	json_t *o = json_pack("{s:i}", "seat", p->row.seat);
	if (o && p->token[0])
		json_object_set_new(o, "token", json_string(p->token));
	if (o && p->player_id[0])
		json_object_set_new(o, "player", json_string(p->player_id));
	if (o && p->row.open)
		json_object_set_new(o, "open", json_true());
	if (o && p->invited_id[0])
		json_object_set_new(o, "invited", json_string(p->invited_id));
	if (o && p->bot)
		json_object_set(o, "bot", p->bot);
	return o;
}

static json_t *create_answer(const struct store_game *row,
                             const struct seat_plan *plan)
{
	json_t *seats = json_array();
	for (int s = 0; seats && s < row->seats; s++)
		json_array_append_new(seats, seat_answer(&plan[s]));
	return json_pack("{s:s,s:s,s:o}", "id", row->id, "game", row->rules_id,
	                 "seats", seats);
}

/* What store_game_create writes. */
struct game_write {
	struct service *svc;
	const struct store_game *row;
	const struct store_seat *seats;
	int64_t *key;
};

static int write_game(void *ctx, const struct store_idem *rec)
{
	struct game_write *w = ctx;
	return store_game_create(w->svc->st, w->row, w->seats, rec, w->key);
}

/* Writes the game, retrying on an id collision; *out is the answer. */
static int insert_game(struct service *svc, struct store_game *row,
                       const struct seat_plan *plan, struct svc_idem *idem,
                       int64_t *key, json_t **out, struct svc_err *err)
{
	struct store_seat seats[ENGINE_MAX_SEATS];
	for (int s = 0; s < row->seats; s++)
		seats[s] = plan[s].row;
	struct game_write w = {svc, row, seats, key};
	int rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_game_id(row->id);
		rc = svc__write_answered(idem, 201, create_answer(row, plan),
		                         write_game, &w, out);
	}
	if (rc == BD_EREPLAY)
		return svc__idem_replay(svc, idem, out, err);
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

static int has_open_seat(const struct seat_plan *plan, int seats)
{
	for (int s = 0; s < seats; s++)
		if (plan[s].row.open)
			return 1;
	return 0;
}

/* The seats bots hold (bit set). */
static unsigned bot_seats(const struct seat_plan *plan, int seats)
{
	unsigned bits = 0;
	for (int s = 0; s < seats; s++)
		if (plan[s].bot)
			bits |= 1u << s;
	return bits;
}

static void plans_release(struct seat_plan *plan, int seats)
{
	for (int s = 0; s < seats; s++)
		json_decref(plan[s].bot);
}

/* The player whose token created a game, for the caps on waiting games
 * and games of bots only and the bot workers' shares: its key, or 0 (no
 * token, a seat token, or not found). */
static int64_t creator_of(struct service *svc, const char *token)
{
	struct store_player p;
	struct svc_err ignored = {0};
	return token && svc__player_of(svc, token, &p, &ignored) == 0 ? p.key
	                                                              : 0;
}

int service_create(struct service *svc, const json_t *body, const char *token,
                   const char *client, struct svc_idem *idem, json_t **out,
                   struct svc_err *err)
{
	int rc = svc__idem_issued_token(svc, idem, err);
	if (rc == 0)
		rc = svc__idem_replay(svc, idem, out, err);
	if (rc != BD_ENOTFOUND)
		return rc;
	if (json_object_get(body, "record"))
		return svc__import(svc, body, client, idem, out, err);
	struct create_req c = {0};
	if ((rc = parse_create(body, &c, err)) < 0)
		return rc;
	struct store_game row = {.seats = c.seats, .creator_addr = client};
	token_secret(&row); /* docs/shuffles.md */
	struct engine_secret secret;
	struct rng start;
	load_secret(&row, &secret);
	engine_secret_rng(&secret, &start);
	sodium_memzero(&secret, sizeof secret);
	struct rules_why why;
	struct engine_game *g = NULL;
	rc = engine_game_new_rng(c.rules, c.seats, c.options, c.setup, &start,
	                         &g, &why);
	if (rc < 0)
		return svc__fail(err, rc, "%s", why.detail);
	engine_game_stored_under(g, c.rules->version);
	struct seat_plan plan[ENGINE_MAX_SEATS] = {0};
	rc = plan_seats(svc, &c, token, plan, err);
	if (rc == 0 && c.setup && has_open_seat(plan, c.seats))
		rc = svc__fail(err, BD_EBADSETUP,
		               "a custom setup needs every seat held at "
		               "creation: whoever joins an open seat must "
		               "not find a position its creator chose");
	snprintf(row.rules_id, sizeof row.rules_id, "%s", c.rules->id);
	row.rules_version = c.rules->version;
	/* A position its creator chose is no measure of strength. */
	row.unrated = !c.rated || c.setup;
	snprintf(row.status, sizeof row.status, "%s", svc__status(g, 0));
	row.to_act = engine_game_to_act(g);
	row.options = c.options
	                  ? json_dumps(c.options, JSON_COMPACT | JSON_SORT_KEYS)
	                  : strdup("{}");
	row.setup =
	    c.setup ? json_dumps(c.setup, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int64_t key = 0;
	if (rc == 0 && (!row.options || (c.setup && !row.setup)))
		rc = BD_ENOMEM;
	if (rc == 0)
		rc = svc__clock_parse(c.clock, c.on_timeout, svc->clock_min_s,
		                      &row.clock, err);
	if (rc == 0)
		row.creator_key = creator_of(svc, token);
	/* A game of bots only plays itself on the server's CPU: it needs a
	 * player, and counts against that player's cap (the store's
	 * bot_games_per_player). */
	if (rc == 0 && bot_seats(plan, c.seats) == (1u << c.seats) - 1 &&
	    !row.creator_key) {
		struct store_player p;
		rc = token ? svc__player_of(svc, token, &p, err)
		           : svc__fail(err, BD_EUNAUTHORIZED,
		                       "a game of bots only needs a player: "
		                       "send a player's bearer token (POST "
		                       "/v1/players gives one)");
		if (rc == 0)
			row.creator_key = p.key;
	}
	if (rc == 0)
		rc = insert_game(svc, &row, plan, idem, &key, out, err);
	if (rc == BD_ELIMIT)
		svc__fail(err, rc,
		          "you (your player, or your address) have as many "
		          "games waiting for players as allowed; fill or wait "
		          "out one of them first");
	if (rc == BD_EBOTGAMES)
		svc__fail(err, rc,
		          "you already run as many games of bots only as this "
		          "server allows; wait for one of them to finish");
	if (rc == 0 && (!idem || !idem->replayed))
		engine_cache_put(svc->cache, key, g);
	row.key = key; /* for svc__bot_share */
	row.bot_seats = bot_seats(plan, c.seats);
	/* A game with no open seat starts now: its bots may act first. */
	if (rc == 0 && (!idem || !idem->replayed) &&
	    !has_open_seat(plan, c.seats) && (row.bot_seats & row.to_act)) {
		struct svc_bot_share share = svc__bot_share(&row, 0);
		svc__bots_wake(svc, key, &share);
	}
	if (rc == 0 && row.clock && !has_open_seat(plan, c.seats))
		svc__clock_wake(svc, svc__now_ms());
	plans_release(plan, c.seats);
	free(row.clock);
	free(row.options);
	free(row.setup);
	engine_game_free(g);
	return rc;
}
