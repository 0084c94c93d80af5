/* record.c: re-running a game record.  See record.h and docs/records.md. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

static int fail(struct record_check *c, int code, long move, const char *fmt,
                ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof c->detail, fmt, ap);
	va_end(ap);
	c->move = move;
	engine_game_free(c->g);
	c->g = NULL;
	return code;
}

json_t *engine_record_view(const struct engine_game *g)
{
	return g->rules->view(g->state, ENGINE_SPECTATOR, 1);
}

/* A lower-case hex member of n bytes into bytes; 0 or -1. */
static int hex_member(const json_t *record, const char *key, uint8_t *bytes,
                      size_t n)
{
	const char *text = json_string_value(json_object_get(record, key));
	return text ? engine_unhex(text, bytes, n) : -1;
}

/* The secret of the record (secret.h), its commitment checked. */
static int read_secret(const json_t *record, struct record_check *c)
{
	json_t *format = json_object_get(record, "seed_format");
	struct engine_secret *s = &c->secret;
	memset(s, 0, sizeof *s);
	s->format = (int)json_integer_value(format);
	if (!json_is_integer(format) || engine_secret_check(s) < 0)
		return fail(c, BD_EBADRECORD, -1,
		            "\"seed_format\" must be 1 or 2");
	if (s->format == ENGINE_SEED_64) {
		uint8_t b[8];
		if (hex_member(record, "seed", b, sizeof b) < 0)
			return fail(c, BD_EBADRECORD, -1,
			            "\"seed\" must be 16 hex digits (seed "
			            "format 1)");
		for (int i = 0; i < 8; i++) /* as printed: big-endian */
			s->seed = s->seed << 8 | b[i];
		return 0;
	}
	uint8_t want[ENGINE_HASH_BYTES], got[ENGINE_HASH_BYTES];
	if (hex_member(record, "secret", s->secret, sizeof s->secret) < 0 ||
	    hex_member(record, "salt", s->salt, sizeof s->salt) < 0 ||
	    hex_member(record, "commitment", want, sizeof want) < 0)
		return fail(c, BD_EBADRECORD, -1,
		            "\"secret\", \"salt\" and \"commitment\" must be "
		            "64 hex digits each (seed format 2)");
	engine_secret_commitment(s, got);
	if (memcmp(want, got, sizeof got) != 0)
		return fail(c, BD_EBADRECORD, -1,
		            "the commitment is not SHA-256(secret || salt)");
	return 0;
}

/* The game the record starts from: rules, seats, options, setup, the
 * secret, and the starting position compared with "start". */
static int deal(const json_t *record, struct record_check *c)
{
	const char *format =
	    json_string_value(json_object_get(record, "format"));
	if (!json_is_object(record) || !format ||
	    strcmp(format, ENGINE_RECORD_FORMAT) != 0)
		return fail(c, BD_EBADRECORD, -1,
		            "a record is an object whose \"format\" is \"%s\"",
		            ENGINE_RECORD_FORMAT);
	const char *game = json_string_value(json_object_get(record, "game"));
	c->rules = game ? engine_rules_find(game) : NULL;
	if (!c->rules)
		return fail(c, BD_EUNKNOWNRULES, -1,
		            "no game '%s' in the catalog", game ? game : "");
	json_t *version = json_object_get(record, "rules_version");
	if (!json_is_integer(version) || json_integer_value(version) < 0 ||
	    !engine_rules_replays(c->rules,
	                          (unsigned)json_integer_value(version)))
		return fail(c, BD_EBADRECORD, -1,
		            "these rules (%s version %u) do not replay games "
		            "of rules version %lld",
		            c->rules->id, c->rules->version,
		            (long long)json_integer_value(version));
	json_t *seats = json_object_get(record, "seats");
	json_t *options = json_object_get(record, "options");
	json_t *setup = json_object_get(record, "setup");
	if (!json_is_integer(seats) || !json_is_object(options) ||
	    (!json_is_null(setup) && !json_is_object(setup)))
		return fail(c, BD_EBADRECORD, -1,
		            "\"seats\" (an integer), \"options\" (an object) "
		            "and \"setup\" (an object or null) are required");
	int rc = read_secret(record, c);
	if (rc < 0)
		return rc;
	struct rules_why why = {0};
	rc = engine_seats_check(c->rules, json_integer_value(seats), &why);
	struct rng start;
	engine_secret_rng(&c->secret, &start);
	if (rc == 0)
		rc = engine_game_new_rng(
		    c->rules, (int)json_integer_value(seats), options,
		    json_is_object(setup) ? setup : NULL, &start, &c->g, &why);
	if (rc == 0) /* how its resigned seats were played (and logged) */
		engine_game_stored_under(c->g,
		                         (unsigned)json_integer_value(version));
	if (rc < 0)
		return rc == BD_ENOMEM ? fail(c, rc, -1, "out of memory")
		                       : fail(c, rc, -1, "%s", why.detail);
	json_t *dealt = engine_record_view(c->g);
	int same = dealt && json_equal(dealt, json_object_get(record, "start"));
	json_decref(dealt);
	if (!same)
		return fail(c, BD_EBADRECORD, -1,
		            "the starting position (\"start\") is not the one "
		            "the secret deals");
	return 0;
}

/* Replays the moves in order; the first refusal is the failure. */
static int replay(const json_t *record, struct record_check *c)
{
	json_t *moves = json_object_get(record, "moves");
	if (!json_is_array(moves))
		return fail(c, BD_EBADRECORD, -1, "\"moves\" must be an array");
	size_t i;
	json_t *m;
	json_array_foreach(moves, i, m) {
		json_t *seat = json_object_get(m, "seat");
		json_t *action = json_object_get(m, "action");
		json_t *seq = json_object_get(m, "seq");
		if (!json_is_integer(seat) || !json_is_object(action) ||
		    (seq && json_integer_value(seq) != (json_int_t)i + 1))
			return fail(
			    c, BD_EBADRECORD, (long)i,
			    "moves[%zu] must be {\"seq\": %zu, \"seat\": "
			    "a seat, \"action\": an object, …}",
			    i, i + 1);
		json_int_t s = json_integer_value(seat);
		struct rules_why why = {0};
		int rc = s < 0 || s >= c->g->seats
		             ? rules_fail(&why, BD_EBADREQUEST, "",
		                          "no seat %lld", (long long)s)
		             : engine_game_apply(c->g, (int)s, action, &why);
		if (rc == BD_ENOMEM)
			return fail(c, rc, (long)i, "out of memory");
		if (rc < 0) {
			snprintf(c->rule, sizeof c->rule, "%s", why.rule);
			return fail(c, BD_EBADRECORD, (long)i,
			            "moves[%zu] (seq %zu, seat %lld) fails: %s",
			            i, i + 1, (long long)s, why.detail);
		}
	}
	return 0;
}

int engine_record_check(const json_t *record, struct record_check *out)
{
	memset(out, 0, sizeof *out);
	out->move = -1;
	int rc = deal(record, out);
	if (rc == 0)
		rc = replay(record, out);
	if (rc < 0)
		return rc;
	struct rules_result res;
	if (!engine_game_result(out->g, &res))
		return fail(out, BD_EBADRECORD, -1,
		            "the game is not over after the record's moves");
	json_t *result = engine_result_json(out->g);
	int same =
	    result && json_equal(result, json_object_get(record, "result"));
	json_decref(result);
	if (!same)
		return fail(out, BD_EBADRECORD, -1,
		            "the recorded result is not the game's: it ends "
		            "by %s",
		            res.reason);
	json_t *end = engine_record_view(out->g);
	same = end && json_equal(end, json_object_get(record, "end"));
	json_decref(end);
	if (!same)
		return fail(out, BD_EBADRECORD, -1,
		            "the final position (\"end\") is not the one the "
		            "moves reach");
	return 0;
}

void engine_record_release(struct record_check *out)
{
	engine_game_free(out->g);
	out->g = NULL;
}
