/* record.c: GET /v1/games/{id}/record (a finished game's record) and the
 * import variant of POST /v1/games ({"record": …}).  The format is
 * docs/records.md; src/engine/record.h checks a record. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bot/bot.h"
#include "../engine/record.h"
#include "internal.h"

/* ---- export ---- */

struct record_moves {
	json_t *moves; /* the array being filled */
};

static int record_move(void *ctx, uint64_t seq, int seat, const char *action,
                       const char *reason, int64_t created_ms)
{
	struct record_moves *rm = ctx;
	json_t *a = json_loads(action, 0, NULL);
	json_t *e =
	    a ? json_pack("{s:I,s:i,s:o,s:o}", "seq", (json_int_t)seq, "seat",
	                  seat, "action", a, "time", svc__iso_time(created_ms))
	      : NULL;
	if (e && reason &&
	    json_object_set_new(e, "by", json_string(reason)) < 0) {
		json_decref(e);
		e = NULL;
	}
	return json_array_append_new(rm->moves, e) < 0 ? BD_ENOMEM : 0;
}

/* [{seat, name, bot}]: who sat where (names of players, bots' specs). */
static json_t *record_players(struct service *svc, const struct loaded *l)
{
	struct store_seat seats[ENGINE_MAX_SEATS];
	int n = 0;
	if (store_seats_get(svc->st, l->row.key, seats, ENGINE_MAX_SEATS, &n) <
	    0)
		return NULL;
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++) {
		json_t *bot = seats[i].bot[0]
		                  ? json_loads(seats[i].bot, 0, NULL)
		                  : json_null();
		json_t *name = seats[i].player_name[0]
		                   ? json_string(seats[i].player_name)
		                   : json_null();
		if (json_array_append_new(a, json_pack("{s:i,s:o,s:o}", "seat",
		                                       seats[i].seat, "name",
		                                       name, "bot", bot)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The record of finished game l (docs/records.md).  New reference. */
static json_t *record_json(struct service *svc, const struct loaded *l,
                           struct svc_err *err, int *rc)
{
	struct engine_game *start = NULL;
	json_t *game = svc__game_json(svc, l, ENGINE_SPECTATOR);
	json_t *options = json_loads(l->row.options, 0, NULL);
	json_t *setup =
	    l->row.setup ? json_loads(l->row.setup, 0, NULL) : json_null();
	struct record_moves rm = {json_array()};
	*rc = game && options && setup && rm.moves ? 0 : BD_ENOMEM;
	if (*rc == 0)
		*rc = load_fresh(&l->row, l->rules, &start, err);
	if (*rc == 0)
		*rc =
		    store_moves_each(svc->st, l->row.key, 0, record_move, &rm);
	json_t *chat = NULL;
	if (*rc == 0)
		*rc = svc__chat_all(svc, l->row.key, &chat);
	json_t *r = NULL;
	if (*rc == 0) {
		r = json_pack(
		    "{s:s,s:s,s:s,s:i,s:i,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:o,s:o,"
		    "s:o,s:O,s:o,s:O,s:O}",
		    "format", ENGINE_RECORD_FORMAT, "id", l->row.id, "game",
		    l->rules->id, "rules_version", (int)l->row.rules_version,
		    "seats", l->g->seats, "options", options, "setup", setup,
		    "seed_format", json_object_get(game, "seed_format"), "seed",
		    json_object_get(game, "seed"), "secret",
		    json_object_get(game, "secret"), "salt",
		    json_object_get(game, "salt"), "commitment",
		    json_object_get(game, "commitment"), "players",
		    record_players(svc, l), "start", engine_record_view(start),
		    "moves", rm.moves, "result",
		    json_object_get(game, "result"), "end",
		    engine_record_view(l->g), "created",
		    json_object_get(game, "created"), "updated",
		    json_object_get(game, "updated"));
		rm.moves = NULL;
		/* Both channels, in full: once the game is over everything
		 * in it is public (docs/matchmaking.md, "Chat"); a check of
		 * the record does not read them. */
		*rc = r && json_object_set_new(r, "chat", chat) == 0
		          ? 0
		          : BD_ENOMEM;
		if (r)
			chat = NULL; /* taken, even on a failure */
		if (*rc < 0) {
			json_decref(r);
			r = NULL;
		}
	}
	json_decref(chat);
	json_decref(rm.moves);
	json_decref(game);
	json_decref(options);
	json_decref(setup);
	engine_game_free(start);
	return r;
}

int service_record(struct service *svc, const char *id, json_t **out,
                   struct svc_err *err)
{
	struct loaded l;
	int rc = load_game(svc->st, svc->cache, id, &l, err);
	if (rc < 0)
		return rc;
	struct rules_result res;
	json_t *r = NULL;
	if (!engine_game_result(l.g, &res))
		rc = svc__fail(err, BD_ENOTFINISHED,
		               "game %s has not ended: its record (and its "
		               "secret) exist once it is over",
		               l.row.id);
	else
		r = record_json(svc, &l, err, &rc);
	loaded_release(&l);
	return rc < 0 ? rc : svc__give(r, out);
}

/* ---- import ---- */

/* Unix ms of an ISO 8601 time as svc__iso_time writes it
 * ("2026-01-02T03:04:05.678Z"); 0 and *ms, or -1. */
static int iso_ms(const json_t *v, int64_t *ms)
{
	const char *s = json_string_value(v);
	struct tm tm = {0};
	int milli = 0, used = 0;
	if (!s ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon,
	           &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &milli,
	           &used) != 7 ||
	    s[used] != '\0' || used != 24)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	*ms = (int64_t)t * 1000 + milli;
	return 0;
}

/* The moves of a checked record as the store writes them; texts owned by
 * the caller (free each action). */
static int import_moves(const json_t *record, struct store_logged_move **out,
                        size_t *n, struct svc_err *err)
{
	json_t *moves = json_object_get(record, "moves");
	size_t len = json_array_size(moves);
	struct store_logged_move *m = calloc(len ? len : 1, sizeof *m);
	if (!m)
		return BD_ENOMEM;
	size_t i;
	json_t *e;
	int rc = 0;
	json_array_foreach(moves, i, e) {
		json_t *by = json_object_get(e, "by");
		m[i].seat = (int)json_integer_value(json_object_get(e, "seat"));
		m[i].reason = json_string_value(by);
		if (iso_ms(json_object_get(e, "time"), &m[i].created_ms) < 0 ||
		    (by && !json_is_string(by))) {
			svc__fail(
			    err, BD_EBADRECORD,
			    "moves[%zu]: \"time\" must be an ISO 8601 UTC "
			    "time with milliseconds and \"by\", if given, "
			    "a string",
			    i);
			err->has_move = 1;
			err->move = i;
			rc = BD_EBADRECORD;
			break;
		}
		char *text = json_dumps(json_object_get(e, "action"),
		                        JSON_COMPACT | JSON_SORT_KEYS);
		if (!text) {
			rc = BD_ENOMEM;
			break;
		}
		m[i].action = text;
	}
	if (rc < 0) {
		for (size_t k = 0; k < len; k++)
			free((char *)m[k].action);
		free(m);
		return rc;
	}
	*out = m;
	*n = len;
	return 0;
}

/* The store row of an imported game; its strings owned (free them). */
static int import_row(const json_t *record, const struct record_check *chk,
                      const char *client, struct store_game *row,
                      struct svc_err *err)
{
	memset(row, 0, sizeof *row);
	row->creator_addr = client;
	row->seats = chk->g->seats;
	row->seed_format = chk->secret.format;
	row->seed = chk->secret.seed;
	memcpy(row->secret, chk->secret.secret, sizeof row->secret);
	memcpy(row->salt, chk->secret.salt, sizeof row->salt);
	snprintf(row->rules_id, sizeof row->rules_id, "%s", chk->rules->id);
	row->rules_version = (unsigned)json_integer_value(
	    json_object_get(record, "rules_version"));
	snprintf(row->status, sizeof row->status, "finished");
	if (iso_ms(json_object_get(record, "created"), &row->created_ms) < 0 ||
	    iso_ms(json_object_get(record, "updated"), &row->updated_ms) < 0)
		return svc__fail(err, BD_EBADRECORD,
		                 "\"created\" and \"updated\" must be ISO 8601 "
		                 "UTC times with milliseconds");
	json_t *setup = json_object_get(record, "setup");
	row->options = json_dumps(json_object_get(record, "options"),
	                          JSON_COMPACT | JSON_SORT_KEYS);
	row->setup = json_is_object(setup)
	                 ? json_dumps(setup, JSON_COMPACT | JSON_SORT_KEYS)
	                 : NULL;
	json_t *result = engine_result_json(chk->g);
	row->result =
	    result ? json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(result);
	return row->options && row->result &&
	               (!json_is_object(setup) || row->setup)
	           ? 0
	           : BD_ENOMEM;
}

/* The seats of an imported game: each held by a fresh token that nobody
 * is given (so no seat is open and nobody can act for it); a seat the
 * record gives a valid bot spec keeps it (as create writes one). */
static void import_seats(const json_t *record, int seats,
                         struct store_seat *out)
{
	for (int s = 0; s < seats; s++) {
		memset(&out[s], 0, sizeof out[s]);
		out[s].seat = s;
		json_t *p = json_array_get(json_object_get(record, "players"),
		                           (size_t)s);
		struct bot_spec spec;
		struct rules_why why;
		json_t *bot = json_object_get(p, "bot");
		json_t *norm = json_is_object(bot) &&
		                       bot_spec_from_json(bot, &spec, &why) == 0
		                   ? bot_spec_to_json(&spec)
		                   : NULL; /* not a bot spec: not kept */
		char *text =
		    norm ? json_dumps(norm, JSON_COMPACT | JSON_SORT_KEYS)
		         : NULL;
		json_decref(norm);
		if (text && strlen(text) < sizeof out[s].bot &&
		    json_integer_value(json_object_get(p, "seat")) == s)
			memcpy(out[s].bot, text, strlen(text) + 1);
		free(text);
		if (!out[s].bot[0]) {
			char token[TOKEN_LEN + 1];
			token_new(token);
			token_hash(token, out[s].token_hash);
			out[s].has_token = 1;
		}
	}
}

struct import_write {
	struct service *svc;
	const struct store_game *row;
	const struct store_seat *seats;
	const struct store_logged_move *moves;
	size_t n;
	int64_t *key;
};

static int write_import(void *ctx, const struct store_idem *rec)
{
	struct import_write *w = ctx;
	return store_game_import(w->svc->st, w->row, w->seats, w->moves, w->n,
	                         rec, w->key);
}

/* Writes the checked record under a fresh id (retrying a taken one). */
static int import_write(struct service *svc, struct store_game *row,
                        const struct store_seat *seats,
                        const struct store_logged_move *moves, size_t n,
                        struct svc_idem *idem, json_t **out,
                        struct svc_err *err)
{
	int64_t key = 0;
	struct import_write w = {svc, row, seats, moves, n, &key};
	int rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_game_id(row->id);
		json_t *answer = json_pack("{s:s,s:s,s:o,s:b}", "id", row->id,
		                           "game", row->rules_id, "seats",
		                           json_array(), "imported", 1);
		for (int s = 0; answer && s < row->seats; s++)
			json_array_append_new(json_object_get(answer, "seats"),
			                      json_pack("{s:i}", "seat", s));
		rc = svc__write_answered(idem, 201, answer, write_import, &w,
		                         out);
	}
	if (rc == BD_EREPLAY)
		return svc__idem_replay(svc, idem, out, err);
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

int svc__import(struct service *svc, const json_t *body, const char *client,
                struct svc_idem *idem, json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"record", NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	const json_t *record = json_object_get(body, "record");
	struct record_check chk;
	rc = engine_record_check(record, &chk);
	if (rc < 0) {
		svc__fail(err, rc, "%s", chk.detail);
		snprintf(err->rule, sizeof err->rule, "%s", chk.rule);
		if (chk.move >= 0) {
			err->has_move = 1;
			err->move = (uint64_t)chk.move;
		}
		return rc;
	}
	struct store_game row;
	struct store_seat seats[ENGINE_MAX_SEATS];
	struct store_logged_move *moves = NULL;
	size_t n = 0;
	rc = import_row(record, &chk, client, &row, err);
	if (rc == 0)
		rc = import_moves(record, &moves, &n, err);
	if (rc == 0) {
		import_seats(record, row.seats, seats);
		rc = import_write(svc, &row, seats, moves, n, idem, out, err);
	}
	for (size_t k = 0; k < n; k++)
		free((char *)moves[k].action);
	free(moves);
	free(row.options);
	free(row.setup);
	free(row.result);
	engine_record_release(&chk);
	return rc;
}
