/* players.c: players (a name and a token that works for every seat the
 * player holds), joining open seats, and a player's list of games. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/nickname.h"
#include "internal.h"

#define NAME_MAX_BYTES   64
#define MY_GAMES_DEFAULT 50
#define PROFILE_CURRENT_MAX 100 /* current games a profile lists */
#define MY_GAMES_MAX     100

/* ---- POST /v1/players ---- */

int svc__name_enforce(const json_t *v, const char *field, char out[65],
                      struct svc_err *err)
{
	const char *s = json_string_value(v);
	uint32_t cp = 0;
	/* a "\u0000" inside would cut the C string short */
	if (!s || strlen(s) != json_string_length(v))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field '%s' must be a string without U+0000",
		                 field);
	switch (nickname_enforce(s, out, NAME_MAX_BYTES, &cp)) {
	case 0:
		return 0;
	case NICKNAME_EMPTY:
		return svc__fail(err, BD_EBADREQUEST,
		                 "field '%s' is empty once its spaces are "
		                 "trimmed",
		                 field);
	case NICKNAME_DISALLOWED:
		return svc__fail(
		    err, BD_EBADREQUEST,
		    "field '%s' holds U+%04" PRIX32
		    ": a name may hold no control, bidi, zero-width, "
		    "unassigned or private-use character (RFC 8266)",
		    field, cp);
	default:
		return svc__fail(
		    err, BD_EBADREQUEST,
		    "field '%s' must be 1 to %d bytes of UTF-8 once "
		    "normalized (RFC 8266's Nickname profile)",
		    field, NAME_MAX_BYTES);
	}
}

static int parse_player(const json_t *body, char name[65], struct svc_err *err)
{
	static const char *const keys[] = {"name", NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	return svc__name_enforce(json_object_get(body, "name"), "name", name,
	                         err);
}

static json_t *player_json(const struct store_player *p, const char *token)
{
	json_t *o = json_pack("{s:s,s:s,s:o}", "id", p->id, "name", p->name,
	                      "created", svc__iso_time(p->created_ms));
	if (o && token)
		json_object_set_new(o, "token", json_string(token));
	return o;
}

/* What store_player_create writes. */
struct player_write {
	struct service *svc;
	const struct store_player *p;
	const uint8_t *hash;
};

static int write_player(void *ctx, const struct store_idem *rec)
{
	struct player_write *w = ctx;
	int64_t key;
	return store_player_create(w->svc->st, w->p, w->hash, rec, &key);
}

int service_player_create(struct service *svc, const json_t *body,
                          struct svc_idem *idem, json_t **out,
                          struct svc_err *err)
{
	int rc = svc__idem_issued_token(svc, idem, err);
	if (rc == 0)
		rc = svc__idem_replay(svc, idem, out, err);
	if (rc != BD_ENOTFOUND)
		return rc;
	struct store_player p = {0};
	if ((rc = parse_player(body, p.name, err)) < 0)
		return rc;
	char token[TOKEN_LEN + 1];
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	token_new(token);
	token_hash(token, hash);
	struct player_write w = {svc, &p, hash};
	rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_game_id(p.id); /* player ids look like game ids */
		p.created_ms = svc__now_ms();
		rc = svc__write_answered(idem, 201, player_json(&p, token),
		                         write_player, &w, out);
	}
	if (rc == BD_EREPLAY)
		return svc__idem_replay(svc, idem, out, err);
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

/* ---- GET /v1/players/me ---- */

int svc__player_of(struct service *svc, const char *token,
                   struct store_player *p, struct svc_err *err)
{
	if (!token)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "this needs a player's bearer token");
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	token_hash(token, hash);
	int rc = store_player_by_token(svc->st, hash, p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EFORBIDDEN,
		                 "that token is not a player's token");
	if (rc == BD_EUNAUTHORIZED)
		return svc__fail(err, rc, LOAD_REVOKED);
	if (rc == 0)
		load_token_seen(svc->st, p);
	return rc;
}

int service_player_me(struct service *svc, const char *token, json_t **out,
                      struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	return rc < 0 ? rc : svc__give(player_json(&p, NULL), out);
}

/* ---- GET /v1/players/me/games ---- */

struct my_games_ctx {
	json_t *games;
	int64_t last_updated, last_key;
};

static int my_game(void *ctx, const struct store_game *g, int seat)
{
	struct my_games_ctx *x = ctx;
	json_t *e = svc__list_entry(g);
	if (e) /* an open seat reserved for the player: theirs to join */
		json_object_set_new(e, "invitation",
		                    json_boolean(g->invitation));
	int my_turn = !g->open_seats && strcmp(g->status, "active") == 0 &&
	              ((g->to_act >> seat) & 1);
	x->last_updated = g->updated_ms;
	x->last_key = g->key;
	if (e) {
		json_object_set_new(e, "seat", json_integer(seat));
		json_object_set_new(e, "my_turn", json_boolean(my_turn));
	}
	return json_array_append_new(x->games, e) < 0 ? BD_ENOMEM : 0;
}

/* Parses "<updated_ms>.<key>" as written in next_cursor. */
static int parse_cursor(const char *s, struct store_player_filter *f)
{
	char a[24], b[24];
	const char *dot = strchr(s, '.');
	if (!dot || (size_t)(dot - s) >= sizeof a ||
	    strlen(dot + 1) >= sizeof b)
		return 0;
	memcpy(a, s, (size_t)(dot - s));
	a[dot - s] = '\0';
	snprintf(b, sizeof b, "%s", dot + 1);
	return svc__parse_uint(a, 1, INT64_MAX, &f->before_updated) &&
	       svc__parse_uint(b, 1, INT64_MAX, &f->before_key);
}

static int parse_my_games(const struct svc_my_games_query *q,
                          struct store_player_filter *f, struct svc_err *err)
{
	int64_t limit = MY_GAMES_DEFAULT;
	memset(f, 0, sizeof *f);
	f->status = q->status;
	if (q->status && strcmp(q->status, "waiting") != 0 &&
	    strcmp(q->status, "active") != 0 &&
	    strcmp(q->status, "finished") != 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "status must be waiting, active or finished");
	if (q->my_turn && strcmp(q->my_turn, "true") != 0 &&
	    strcmp(q->my_turn, "false") != 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "my_turn must be true or false");
	f->my_turn = q->my_turn && strcmp(q->my_turn, "true") == 0;
	if (q->limit && !svc__parse_uint(q->limit, 1, MY_GAMES_MAX, &limit))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to 100");
	if (q->cursor && !parse_cursor(q->cursor, f))
		return svc__fail(err, BD_EBADREQUEST,
		                 "cursor must be a next_cursor from a listing");
	f->limit = (int)limit;
	return 0;
}

int service_player_games(struct service *svc, const char *token,
                         const struct svc_my_games_query *q, json_t **out,
                         struct svc_err *err)
{
	struct store_player p;
	struct store_player_filter f;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = parse_my_games(q, &f, err);
	if (rc < 0)
		return rc;
	struct my_games_ctx x = {json_array(), 0, 0};
	if (!x.games)
		return BD_ENOMEM;
	rc = store_player_games_each(svc->st, p.key, &f, my_game, &x);
	if (rc < 0) {
		json_decref(x.games);
		return rc;
	}
	json_t *next = json_null();
	if (json_array_size(x.games) == (size_t)f.limit) {
		char buf[48];
		snprintf(buf, sizeof buf, "%" PRId64 ".%" PRId64,
		         x.last_updated, x.last_key);
		next = json_string(buf);
	}
	return svc__give(
	    json_pack("{s:o,s:o}", "games", x.games, "next_cursor", next), out);
}

/* ---- GET /v1/players/{id}: a profile ---- */

/* The games a profile lists: a seat the player holds (an invitation is
 * between them and its sender: not shown). */
static int public_game(void *ctx, const struct store_game *g, int seat)
{
	struct my_games_ctx *x = ctx;
	x->last_updated = g->updated_ms;
	x->last_key = g->key;
	if (g->invitation)
		return 0;
	json_t *e = svc__list_entry(g);
	if (e)
		json_object_set_new(e, "seat", json_integer(seat));
	return json_array_append_new(x->games, e) < 0 ? BD_ENOMEM : 0;
}

int service_player_profile(struct service *svc, const char *id,
                           const char *limit, const char *cursor,
                           json_t **out, struct svc_err *err)
{
	struct svc_my_games_query q = {"finished", NULL, limit, cursor};
	struct store_player_filter f;
	int rc = parse_my_games(&q, &f, err);
	if (rc < 0)
		return rc;
	struct store_player p;
	rc = store_player_by_id(svc->st, id, &p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EUNKNOWNPLAYER,
		                 "no player has the id %.40s", id);
	if (rc < 0)
		return rc;
	json_t *ratings = NULL;
	int64_t games = 0, wins = 0;
	struct my_games_ctx fin = {json_array(), 0, 0};
	struct my_games_ctx cur = {json_array(), 0, 0};
	rc = fin.games && cur.games ? svc__profile_ratings(svc, p.key, &ratings,
	                                                   &games, &wins)
	                            : BD_ENOMEM;
	if (rc == 0)
		rc = store_player_games_each(svc->st, p.key, &f, public_game,
		                             &fin);
	/* Current games: those running, then those still waiting. */
	static const char *const running[] = {"active", "waiting"};
	for (int i = 0; rc == 0 && i < 2; i++) {
		struct store_player_filter c = {.status = running[i],
		                                .limit = PROFILE_CURRENT_MAX};
		rc = store_player_games_each(svc->st, p.key, &c, public_game,
		                             &cur);
	}
	json_t *next = json_null();
	if (rc == 0 && fin.last_key && json_array_size(fin.games) > 0 &&
	    (int64_t)json_array_size(fin.games) == f.limit) {
		char buf[48];
		snprintf(buf, sizeof buf, "%" PRId64 ".%" PRId64,
		         fin.last_updated, fin.last_key);
		next = json_string(buf);
	}
	if (rc < 0) {
		json_decref(ratings);
		json_decref(fin.games);
		json_decref(cur.games);
		return rc;
	}
	return svc__give(
	    json_pack("{s:s,s:s,s:o,s:o,s:{s:I,s:I},s:o,s:o,s:o}", "id", p.id,
	              "name", p.name, "created", svc__iso_time(p.created_ms),
	              "ratings", ratings, "rated_games", "played",
	              (json_int_t)games, "won", (json_int_t)wins, "current",
	              cur.games, "finished", fin.games, "next_cursor", next),
	    out);
}

/* ---- POST /v1/games/{id}/join ---- */

static int parse_join(const json_t *body, int *seat, int seats,
                      struct svc_err *err)
{
	static const char *const keys[] = {"seat", NULL};
	*seat = -1;
	if (!body)
		return 0;
	int rc = svc__body_keys(body, keys, err);
	json_t *s = json_object_get(body, "seat");
	if (rc == 0 && s &&
	    (!json_is_integer(s) || json_integer_value(s) < 0 ||
	     json_integer_value(s) >= seats))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'seat' must be a seat number, 0 to %d",
		                 seats - 1);
	if (s)
		*seat = (int)json_integer_value(s);
	return rc;
}

/* Who is joining: a player (by token) or a newcomer (no token). */
struct joiner {
	struct store_player player; /* key 0: a newcomer */
	char token[TOKEN_LEN + 1];  /* the newcomer's new seat token */
	uint8_t hash[STORE_TOKEN_HASH_LEN];
};

static int joiner_init(struct service *svc, const char *token, struct joiner *j,
                       struct svc_err *err)
{
	memset(j, 0, sizeof *j);
	if (token)
		return svc__player_of(svc, token, &j->player, err);
	token_new(j->token);
	token_hash(j->token, j->hash);
	return 0;
}

static json_t *join_answer(const struct loaded *l, const struct joiner *j,
                           int seat)
{
	int left = l->row.open_seats - 1;
	json_t *o = json_pack("{s:s,s:i,s:s}", "id", l->row.id, "seat", seat,
	                      "status", left > 0 ? "waiting" : "active");
	if (o && j->player.key)
		json_object_set_new(o, "player", json_string(j->player.id));
	else if (o)
		json_object_set_new(o, "token", json_string(j->token));
	return o;
}

static int join_fail(int rc, int want, struct svc_err *err)
{
	switch (rc) {
	case BD_ESEATTAKEN:
		if (want < 0)
			return svc__fail(err, rc,
			                 "no seat of this game is open");
		return svc__fail(err, rc, "seat %d is taken", want);
	case BD_EFORBIDDEN: /* the store's word for a reserved seat */
		if (want < 0)
			return svc__fail(err, BD_ERESERVED,
			                 "every open seat of this game is "
			                 "reserved for an invited player");
		return svc__fail(err, BD_ERESERVED,
		                 "seat %d is reserved for an invited player",
		                 want);
	case BD_EALREADYSEATED:
		if (want < 0)
			return svc__fail(err, rc,
			                 "you already hold a seat here");
		return svc__fail(err, rc,
		                 "you already hold a seat here, or another "
		                 "seat is reserved for you (join without a "
		                 "seat to take it)");
	case BD_EBLOCKED:
		return svc__fail(err, rc,
		                 "a player of this game blocked you: you "
		                 "cannot join their games");
	}
	return rc;
}

/* What store_seat_claim writes. */
struct claim_write {
	struct service *svc;
	const char *id; /* the game's, for the hot table */
	int64_t key;
	struct store_claim claim;
};

static int write_claim(void *ctx, const struct store_idem *rec)
{
	struct claim_write *w = ctx;
	int got;
	hot_write_begin(w->svc->hot, w->id); /* hot.h: until after commit */
	int rc = store_seat_claim(w->svc->st, w->key, &w->claim, rec, &got);
	hot_write_end(w->svc->hot, w->id);
	return rc;
}

/* Claims `seat` for j, recording the answer with it. */
static int claim_one(struct service *svc, const struct loaded *l,
                     const struct joiner *j, int seat, struct svc_idem *idem,
                     json_t **out)
{
	struct claim_write w = {svc,
	                        l->row.id,
	                        l->row.key,
	                        {seat, j->player.key,
	                         j->player.key ? NULL : j->hash,
	                         l->row.open_seats}};
	return svc__write_answered(idem, 200, join_answer(l, j, seat),
	                           write_claim, &w, out);
}

/* The open seat of l reserved for player `key`, or -1 (none, key 0, or
 * the seats could not be read: the seats are then tried in order). */
static int reserved_for(struct service *svc, const struct loaded *l,
                        int64_t key)
{
	struct store_seat seats[ENGINE_MAX_SEATS];
	int n = 0;
	if (!key || store_seats_get(svc->st, l->row.key, seats,
	                            ENGINE_MAX_SEATS, &n) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (seats[i].open && seats[i].invited_key == key)
			return seats[i].seat;
	return -1;
}

/* Claims the seat asked for, or the first one open to j, the one
 * reserved for j first (taking another would leave it to nobody: the
 * game would never fill).  (The answer names the seat and is recorded
 * in the same transaction, so each candidate is tried in turn rather
 * than picked by the store.) */
static int claim(struct service *svc, struct loaded *l, const struct joiner *j,
                 int want, struct svc_idem *idem, json_t **out,
                 struct svc_err *err)
{
	int rc = BD_ESEATTAKEN, reserved = 0, n = 0;
	int order[ENGINE_MAX_SEATS];
	int mine = want < 0 ? reserved_for(svc, l, j->player.key) : -1;
	if (mine >= 0)
		order[n++] = mine;
	for (int s = 0; want < 0 && s < l->g->seats && n < ENGINE_MAX_SEATS;
	     s++)
		if (s != mine)
			order[n++] = s;
	if (want >= 0)
		rc = claim_one(svc, l, j, want, idem, out);
	for (int i = 0; i < n; i++) {
		rc = claim_one(svc, l, j, order[i], idem, out);
		reserved |= rc == BD_EFORBIDDEN;
		if (rc != BD_ESEATTAKEN && rc != BD_EFORBIDDEN)
			break;
	}
	if (want < 0 && reserved && rc == BD_ESEATTAKEN)
		rc = BD_EFORBIDDEN; /* open seats are left, all reserved */
	/* want < 0 and BD_EFORBIDDEN: every open seat is someone else's */
	return rc == BD_EREPLAY ? svc__idem_replay(svc, idem, out, err)
	                        : join_fail(rc, want, err);
}

int service_join(struct service *svc, const char *id, const char *token,
                 const json_t *body, struct svc_idem *idem, json_t **out,
                 struct svc_err *err)
{
	int rc = svc__idem_replay(svc, idem, out, err);
	if (rc != BD_ENOTFOUND)
		return rc;
	struct loaded l;
	struct joiner j;
	int want;
	/* The answer's status follows from the open seats it was built on;
	 * the claim lands only if that count still holds (BD_ECONFLICT: a
	 * racing join took a seat), else the game is read again.  Each
	 * conflict means one seat fewer, so this ends within `seats` turns. */
	for (int turn = 0;; turn++) {
		if ((rc = load_game(svc->st, svc->cache, id, &l, err)) < 0)
			return rc;
		rc = parse_join(body, &want, l.g->seats, err);
		if (rc == 0 && turn == 0)
			rc = joiner_init(svc, token, &j, err);
		if (rc == 0 && l.row.open_seats == 0)
			rc = svc__fail(err, BD_ESEATTAKEN,
			               "no seat of this game is "
			               "open");
		if (rc == 0)
			rc = claim(svc, &l, &j, want, idem, out, err);
		if (rc != BD_ECONFLICT || turn > ENGINE_MAX_SEATS)
			break;
		loaded_release(&l);
	}
	if (rc < 0 && idem && rc != BD_EREPLAY) {
		/* A racer with this key may have won: its answer. */
		int r2 = svc__idem_replay(svc, idem, out, err);
		if (r2 != BD_ENOTFOUND)
			rc = r2;
	}
	if (rc == 0 && !(idem && idem->replayed)) {
		svc__moved(svc, l.row.key, l.g->seq); /* status may change */
		if (l.row.bot_seats & engine_game_to_act(l.g)) {
			/* it may start */
			struct svc_bot_share share =
			    svc__bot_share(&l.row, l.g->resigned);
			svc__bots_wake(svc, l.row.key, &share);
		}
		if (l.row.clock)
			svc__clock_wake(svc, svc__now_ms()); /* it may start */
	}
	loaded_release(&l);
	return rc;
}
