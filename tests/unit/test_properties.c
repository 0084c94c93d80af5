/* test_properties.c: what every registered game must guarantee, checked
 * over seeded random games through the public engine API (engine.h) only.
 * The registry is iterated, so a game added to it is covered without a
 * change here (the twin builders below are the one per-game part, and a
 * game without one fails the suite until it has one).
 *
 *   replay    the log as the store keeps it (compact JSON texts with sorted
 *             keys) replayed from the seed gives the live game bit for bit:
 *             the engine_game bytes after every move, and every viewer's
 *             view, every seat's actions and every move view at sampled
 *             moves;
 *   listed    a seat to act has actions, the others none, and every listed
 *             action is accepted;
 *   refused   malformed actions (wrong types, missing or extra fields,
 *             out-of-range numbers, random strings, not an object),
 *             unlisted ones (a listed action with one field changed to a
 *             value not in the list) and actions of a seat not to act are
 *             refused with BD_EILLEGAL (BD_ENOTTURN) and a reason, and
 *             change nothing (the engine_game bytes, and the views);
 *   hiding    twin worlds that differ only in what a viewer may not see
 *             give that viewer the same views, actions, to_act and move
 *             views at every move of the game; and a game whose setup drew
 *             no random number looks the same from another seed.
 *
 * Knobs (a -D at compile time, or the environment at run time):
 *   PROP_GAMES   random games per game, spread over its seat counts
 *   PROP_STEPS   moves a random game is played for at most
 *   PROP_FULL    games per seat count played to their end, no cap
 *   PROP_TWINS   twin-world games per game, spread over its seat counts
 *   PROP_SEED    the seed everything is drawn from
 *
 * `test_properties --export N` prints, instead of a report, N twin pairs
 * per game and seat count as JSON lines (see export_pair) for
 * tests/http/test_properties.py, which plays them over HTTP.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot/bot.h"
#include "engine/engine.h"
#include "testhelp.h"

#ifndef PROP_GAMES
#define PROP_GAMES 240
#endif
#ifndef PROP_STEPS
#define PROP_STEPS 120
#endif
#ifndef PROP_FULL
#define PROP_FULL 1
#endif
#ifndef PROP_TWINS
#define PROP_TWINS 30
#endif
#ifndef PROP_SEED
#define PROP_SEED 20261201
#endif

#define TWIN_STEPS 60 /* moves a twin-world game is played for at most */
#define DENSE                                                                  \
	6               /* replay compared after each of the first moves,      \
	                    then after moves 8, 16, 32... */
#define MALFORMED     3 /* malformed actions tried per move */
#define UNLISTED      2 /* unlisted actions tried per move */
#define LISTED_SAMPLE 3 /* listed actions applied to copies per move */
#define SHOWN_FAILS   5 /* failures printed per property and block */

static struct {
	long games, steps, full, twins;
	uint64_t seed;
} K;

static long knob(const char *name, long def)
{
	const char *e = getenv(name);
	return e && *e ? strtol(e, NULL, 10) : def;
}

/* ---- properties and their counters, per game and seat count ---- */

enum prop {
	P_REPLAY,       /* replayed bytes equal the live bytes */
	P_REPLAY_SHOWN, /* views, actions, move views of the replay equal */
	P_TO_ACT,       /* seats to act have actions, the others none */
	P_LISTED,       /* every listed action is accepted */
	P_MALFORMED,    /* malformed actions refused, nothing changed */
	P_UNLISTED,     /* unlisted actions refused, nothing changed */
	P_OFF_TURN,     /* a seat not to act is refused, nothing changed */
	P_WHY,          /* every refusal says why */
	P_TWIN_LOG,     /* a twin world's setup and log are accepted */
	P_TWIN_VIEW,    /* the viewer's view is the same in both worlds */
	P_TWIN_ACTIONS, /* the viewer's actions and to_act are the same */
	P_TWIN_MOVES,   /* the viewer's move views and outcomes alike */
	P_TWIN_REFUSED, /* the viewer's refusals say the same */
	P_TWIN_DIFFER,  /* twins differ from their original (not vacuous) */
	P_SEED,         /* another seed, the same game while no number drawn */
	P_TWIN_BOT,     /* a bot of the viewer chooses the same in both */
	NPROP
};

static const char *const prop_names[NPROP] = {
    "replay from the seed: engine_game bytes equal after every move",
    "replay from the seed: views, actions, move views and outcomes equal",
    "seats to act have actions, the others none",
    "every listed action is accepted",
    "malformed actions are refused and change nothing",
    "unlisted actions are refused and change nothing",
    "a seat not to act is refused and nothing changes",
    "every refusal says why",
    "twin worlds: setup and log accepted",
    "twin worlds: the viewer's views are equal",
    "twin worlds: the viewer's actions and to_act are equal",
    "twin worlds: the viewer's move views and outcomes are equal",
    "twin worlds: the viewer's refused actions get the same answer",
    "twin worlds differ in what the viewer may not see",
    "another seed: equal views while the game drew no number",
    "twin worlds: the viewer's mcts bot makes the same choice",
};

struct block {
	const struct rules *r;
	int seats;
	long checks[NPROP]; /* checks made */
	long bad[NPROP];    /* of which failed */
	long games, ended, moves, resigns, twin_games, exported;
	long moded[2]; /* random games, twin-world games with a `mode` option
	                  other than the catalog's default */
	long moded_exported;      /* exported pairs in such a mode */
	long twins, twins_differ; /* world Bs played; of which differ */
};

static void fail(struct block *b, int prop, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct block *b, int prop, const char *fmt, ...)
{
	if (b->bad[prop]++ >= SHOWN_FAILS)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL %s/%d: %s: ", b->r->id, b->seats,
	        prop_names[prop]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* One check of prop; 1 if it held. */
static int check(struct block *b, int prop, int ok)
{
	b->checks[prop]++;
	return ok;
}

/* ---- small helpers ---- */

/* The store's text of a JSON value (compact, sorted keys).  Caller frees;
 * never NULL. */
static char *text_of(const json_t *j)
{
	char *t =
	    j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)
	      : NULL;
	return t ? t : strdup("(null)");
}

/* 1 if a and b print the same (both consumed: decref'd). */
static int same_text(json_t *a, json_t *b)
{
	char *x = text_of(a), *y = text_of(b);
	int eq = strcmp(x, y) == 0;
	free(x), free(y);
	json_decref(a), json_decref(b);
	return eq;
}

static int game_over(const struct engine_game *g)
{
	struct rules_result res;
	return engine_game_result(g, &res);
}

static int same_game(const struct engine_game *a, const struct engine_game *b)
{
	return memcmp(a, b, engine_game_size(a->rules)) == 0;
}

static int in_list(const json_t *list, const json_t *a)
{
	size_t i;
	json_t *x;
	json_array_foreach(list, i, x)
		if (json_equal(x, a))
			return 1;
	return 0;
}

static uint32_t below(struct rng *r, size_t n)
{
	return rng_below(r, (uint32_t)n);
}

/* A random element of an array (borrowed), or NULL when empty. */
static json_t *pick_of(const json_t *arr, struct rng *r)
{
	size_t n = json_array_size(arr);
	return n ? json_array_get(arr, below(r, n)) : NULL;
}

/* ---- one recorded game: setup, moves, the state after each ---- */

struct run {
	const struct rules *r;
	int seats;
	json_t *options; /* owned */
	json_t *setup;   /* owned, or NULL: the normal setup */
	uint64_t seed;
	struct engine_game **snap; /* snap[k]: the game after k moves */
	int *actor;                /* actor[k]: the seat of move k+1 */
	json_t **act;              /* act[k]: move k+1 as it was posted */
	char **text;               /* text[k]: move k+1 as logged */
	size_t n, cap;             /* moves recorded; room */
	/* shown[viewer + 1][k]: the view after k moves as text, made when
	 * first asked for (views are the costly part of a check) */
	char **shown[ENGINE_MAX_SEATS + 1];
	json_t **pub; /* pub[k]: the spectator's view after k moves */
};

static int run_init(struct run *ru, const struct rules *r, int seats,
                    json_t *options, json_t *setup, uint64_t seed,
                    struct rules_why *why)
{
	memset(ru, 0, sizeof *ru);
	ru->r = r;
	ru->seats = seats;
	ru->options = options;
	ru->setup = setup;
	ru->seed = seed;
	ru->cap = 64;
	ru->snap = calloc(ru->cap + 1, sizeof *ru->snap);
	ru->actor = calloc(ru->cap, sizeof *ru->actor);
	ru->act = calloc(ru->cap, sizeof *ru->act);
	ru->text = calloc(ru->cap, sizeof *ru->text);
	if (!ru->snap || !ru->actor || !ru->act || !ru->text)
		abort();
	return engine_game_new(r, seats, options, setup, seed, &ru->snap[0],
	                       why);
}

/* Records move n+1: `seat` posted `action` (a new reference is taken) and
 * the game became g. */
static void run_push(struct run *ru, int seat, json_t *action,
                     const struct engine_game *g)
{
	if (ru->n == ru->cap) {
		ru->cap *= 2;
		ru->snap = realloc(ru->snap, (ru->cap + 1) * sizeof *ru->snap);
		ru->actor = realloc(ru->actor, ru->cap * sizeof *ru->actor);
		ru->act = realloc(ru->act, ru->cap * sizeof *ru->act);
		ru->text = realloc(ru->text, ru->cap * sizeof *ru->text);
		if (!ru->snap || !ru->actor || !ru->act || !ru->text)
			abort();
	}
	ru->actor[ru->n] = seat;
	ru->act[ru->n] = json_incref(action);
	ru->text[ru->n] = text_of(action);
	ru->snap[ru->n + 1] = engine_game_clone(g);
	ru->n++;
}

static void run_free(struct run *ru)
{
	for (int w = 0; w <= ENGINE_MAX_SEATS; w++) {
		for (size_t k = 0; ru->shown[w] && k <= ru->n; k++)
			free(ru->shown[w][k]);
		free(ru->shown[w]);
	}
	for (size_t k = 0; ru->pub && k <= ru->n; k++)
		json_decref(ru->pub[k]);
	free(ru->pub);
	for (size_t k = 0; k <= ru->n; k++)
		engine_game_free(ru->snap[k]);
	for (size_t k = 0; k < ru->n; k++) {
		json_decref(ru->act[k]);
		free(ru->text[k]);
	}
	free(ru->snap), free(ru->actor), free(ru->act), free(ru->text);
	json_decref(ru->options);
	json_decref(ru->setup);
}

/* What `viewer` sees of move m (1-based) of a game whose states are
 * snap[] and whose current state is snap[now]: {"action": its move view,
 * "outcome": its outcome}, as the log shows them.  New reference. */
static json_t *move_seen(struct engine_game *const *snap, const int *actor,
                         json_t *const *act, size_t m, size_t now, int viewer)
{
	return json_pack("{s:o,s:o}", "action",
	                 engine_move_view(snap[m], snap[now], actor[m - 1],
	                                  act[m - 1], viewer),
	                 "outcome",
	                 engine_move_outcome(snap[m], snap[now], actor[m - 1],
	                                     act[m - 1], viewer));
}

/* The text of viewer's view after k moves (borrowed; the run keeps it).
 * Only for a run that is no longer growing. */
static const char *run_shown(struct run *ru, int viewer, size_t k)
{
	char ***t = &ru->shown[viewer + 1];
	if (!*t && !(*t = calloc(ru->n + 1, sizeof **t)))
		abort();
	if (!(*t)[k]) {
		json_t *v = engine_game_view(ru->snap[k], viewer);
		(*t)[k] = text_of(v);
		json_decref(v);
	}
	return (*t)[k];
}

/* The spectator's view after k moves (borrowed), as run_shown. */
static const json_t *run_public(struct run *ru, size_t k)
{
	if (!ru->pub && !(ru->pub = calloc(ru->n + 1, sizeof *ru->pub)))
		abort();
	if (!ru->pub[k])
		ru->pub[k] = engine_game_view(ru->snap[k], ENGINE_SPECTATOR);
	return ru->pub[k];
}

/* ---- vocabulary for mutations, from a game's catalog entry ---- */

struct vocab {
	json_t *types;   /* every action type */
	json_t *keys;    /* every action field name */
	json_t *strings; /* card ids and the like */
};

static void vocab_init(struct vocab *v, const struct rules *r)
{
	json_t *cat = r->catalog();
	v->types = json_array();
	v->keys = json_array();
	v->strings = json_array();
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(cat, "actions"), i, e) {
		json_array_append(v->types, json_object_get(e, "type"));
		const char *k;
		json_t *x;
		json_object_foreach(json_object_get(e, "fields"), k, x)
			json_array_append_new(v->keys, json_string(k));
	}
	json_array_foreach(json_object_get(cat, "cards"), i, e)
		json_array_append(v->strings, json_object_get(e, "id"));
	json_array_foreach(json_object_get(cat, "black_market"), i, e)
		json_array_append(v->strings, json_object_get(e, "id"));
	json_decref(cat);
}

static void vocab_free(struct vocab *v)
{
	json_decref(v->types);
	json_decref(v->keys);
	json_decref(v->strings);
}

/* A random string of valid UTF-8 without NUL (what json_loads can give
 * the engine): ASCII, control characters, 2- to 4-byte sequences. */
static json_t *random_string(struct rng *r)
{
	char buf[128];
	size_t n = 0, len = below(r, 24);
	for (size_t i = 0; i < len; i++) {
		switch (below(r, 4)) {
		case 0:
			buf[n++] = (char)(1 + below(r, 31));
			break;
		case 1:
			buf[n++] = (char)(32 + below(r, 95));
			break;
		case 2: { /* U+0080..U+07FF */
			uint32_t c = 0x80 + below(r, 0x780);
			buf[n++] = (char)(0xc0 | c >> 6);
			buf[n++] = (char)(0x80 | (c & 0x3f));
			break;
		}
		default: { /* U+1F300..U+1F5FF */
			uint32_t c = 0x1f300 + below(r, 0x300);
			buf[n++] = (char)(0xf0 | c >> 18);
			buf[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
			buf[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[n++] = (char)(0x80 | (c & 0x3f));
		}
		}
	}
	return json_stringn(buf, n);
}

/* A value of another JSON type than `than` (or any type if NULL). */
static json_t *odd_value(struct rng *r, const json_t *than)
{
	for (;;) {
		json_t *v;
		switch (below(r, 10)) {
		case 0:
			v = json_null();
			break;
		case 1:
			v = json_true();
			break;
		case 2:
			v = json_false();
			break;
		case 3:
			v = json_integer((json_int_t)below(r, 5) - 1);
			break;
		case 4:
			v = json_real(1.5);
			break;
		case 5:
			v = json_string("");
			break;
		case 6:
			v = json_pack("[ii]", 0, 0);
			break;
		case 7:
			v = json_array();
			break;
		case 8:
			v = json_pack("{s:i}", "a", 1);
			break;
		default:
			v = random_string(r);
		}
		if (!than || json_typeof(v) != json_typeof(than) ||
		    (json_is_array(v) &&
		     json_array_size(v) != json_array_size(than)))
			return v;
		json_decref(v);
	}
}

/* An integer far out of any field's range. */
static json_int_t wild_int(struct rng *r, json_int_t near)
{
	static const json_int_t wild[] = {-1,
	                                  -2,
	                                  -1000,
	                                  1000,
	                                  255,
	                                  256,
	                                  65536,
	                                  INT32_MAX,
	                                  INT32_MIN,
	                                  (json_int_t)INT32_MAX + 1,
	                                  (json_int_t)1 << 53,
	                                  INT64_MAX,
	                                  INT64_MIN};
	uint32_t i = below(r, sizeof wild / sizeof wild[0] + 1);
	return i < sizeof wild / sizeof wild[0] ? wild[i] : -near - 1;
}

/* A random key of an object, or NULL. */
static const char *some_key(const json_t *o, struct rng *r, int skip_type)
{
	const char *keys[32];
	size_t n = 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v)
		if (n < 32 && !(skip_type && !strcmp(k, "type")))
			keys[n++] = k;
	return n ? keys[below(r, n)] : NULL;
}

/* Replaces, somewhere inside j (an array or a value of an object), one
 * integer with a wild one.  1 if there was an integer to replace. */
static int wild_somewhere(json_t *j, struct rng *r)
{
	json_t *slots[64];
	json_t *parents[64];
	size_t idx[64], n = 0;
	/* Integers directly in arrays, one level or two down. */
	size_t i, i2;
	json_t *x, *y;
	if (json_is_array(j))
		json_array_foreach(j, i, x) {
			if (json_is_integer(x) && n < 64)
				parents[n] = j, idx[n] = i, slots[n++] = x;
			if (json_is_array(x))
				json_array_foreach(x, i2, y)
					if (json_is_integer(y) && n < 64)
						parents[n] = x, idx[n] = i2,
						slots[n++] = y;
		}
	if (!n)
		return 0;
	size_t w = below(r, n);
	json_array_set_new(
	    parents[w], idx[w],
	    json_integer(wild_int(r, json_integer_value(slots[w]))));
	return 1;
}

/* A malformed variant of the listed action a.  New reference. */
static json_t *malform(const json_t *a, struct rng *r, const struct vocab *v)
{
	json_t *m = json_deep_copy(a);
	const char *k = some_key(m, r, 0);
	json_t *val = k ? json_object_get(m, k) : NULL;
	switch (below(r, 9)) {
	case 0: /* a field of the wrong type */
		if (k)
			json_object_set_new(m, k, odd_value(r, val));
		break;
	case 1: /* a field missing */
		if (k)
			json_object_del(m, k);
		break;
	case 2: { /* an extra field */
		json_t *name = pick_of(v->keys, r);
		const char *x =
		    name && !json_object_get(m, json_string_value(name))
		        ? json_string_value(name)
		        : (below(r, 2) ? "x" : "");
		json_object_set_new(m, x, odd_value(r, NULL));
		break;
	}
	case 3: /* a number out of range */
		if (val && json_is_integer(val))
			json_object_set_new(
			    m, k,
			    json_integer(wild_int(r, json_integer_value(val))));
		else if (!val || !wild_somewhere(val, r))
			json_object_set_new(m, "type",
			                    json_integer(wild_int(r, 0)));
		break;
	case 4: /* random text */
		if (k)
			json_object_set_new(m, k, random_string(r));
		break;
	case 5: { /* not an object, or a hollow one */
		json_t *t = json_object_get(a, "type");
		json_decref(m);
		switch (below(r, 5)) {
		case 0:
			return json_pack("[O]", t);
		case 1:
			return json_incref(t);
		case 2:
			return json_object();
		case 3:
			return json_null();
		default:
			return json_pack("{s:O}", "type", t);
		}
	}
	case 6: { /* the type in the wrong case or with spaces */
		const char *t = json_string_value(json_object_get(m, "type"));
		char buf[64];
		snprintf(buf, sizeof buf, below(r, 2) ? " %s" : "%s\n",
		         t ? t : "");
		if (below(r, 2) && t && t[0] >= 'a' && t[0] <= 'z') {
			snprintf(buf, sizeof buf, "%s", t);
			buf[0] = (char)(buf[0] - 'a' + 'A');
		}
		json_object_set_new(m, "type", json_string(buf));
		break;
	}
	case 7: /* an array of the wrong length, or nested deeper */
		if (val && json_is_array(val) && json_array_size(val)) {
			if (below(r, 2))
				json_array_remove(val,
				                  json_array_size(val) - 1);
			else
				json_array_append_new(val, json_pack("[i]", 1));
		} else if (k) {
			json_t *deep = json_integer(1);
			for (int d = 0; d < 40; d++)
				deep = json_pack("{s:o}", "a", deep);
			json_object_set_new(m, k, deep);
		}
		break;
	default: /* an integer stored as a real, or a real as a string */
		if (val && json_is_integer(val))
			json_object_set_new(
			    m, k, json_real((double)json_integer_value(val)));
		else if (k)
			json_object_set_new(m, k, json_real(0.5));
	}
	return m;
}

/* Another value for field `key` of the same kind as `val`: seen in the
 * listed actions, or a step away.  New reference. */
static json_t *other_value(const char *key, const json_t *val,
                           const json_t *listed, struct rng *r,
                           const struct vocab *v)
{
	json_t *seen = pick_of(listed, r);
	json_t *sv = seen ? json_object_get(seen, key) : NULL;
	if (sv && !json_equal(sv, val) && below(r, 2))
		return json_deep_copy(sv);
	if (json_is_integer(val))
		return json_integer(json_integer_value(val) +
		                    (below(r, 2) ? 1 : -1) *
		                        (json_int_t)(1 + below(r, 3)));
	if (json_is_string(val)) {
		json_t *s = pick_of(v->strings, r);
		if (s && !json_equal(s, val) && below(r, 2))
			return json_incref(s);
		char buf[80];
		snprintf(buf, sizeof buf, "%s%s", json_string_value(val),
		         below(r, 2) ? "x" : "-1");
		return json_string(buf);
	}
	if (json_is_array(val)) {
		json_t *c = json_deep_copy(val);
		if (!wild_somewhere(c, r) && json_array_size(c))
			json_array_remove(c, 0);
		/* a step, not a wild value: undo to +-1 where we can */
		size_t i;
		json_t *x;
		json_array_foreach(c, i, x) {
			json_t *o = json_array_get(val, i);
			if (json_is_integer(x) && json_is_integer(o) &&
			    !json_equal(x, o)) {
				json_array_set_new(
				    c, i,
				    json_integer(json_integer_value(o) + 1));
				continue;
			}
			if (json_is_array(x) && json_is_array(o))
				for (size_t j = 0; j < json_array_size(x);
				     j++) {
					json_t *y = json_array_get(x, j),
					       *p = json_array_get(o, j);
					if (json_is_integer(y) &&
					    json_is_integer(p) &&
					    !json_equal(y, p))
						json_array_set_new(
						    x, j,
						    json_integer(
						        json_integer_value(p) -
						        1));
				}
		}
		return c;
	}
	return odd_value(r, val);
}

/* A listed action with one field changed.  New reference. */
static json_t *unlist(const json_t *a, const json_t *listed, struct rng *r,
                      const struct vocab *v)
{
	json_t *m = json_deep_copy(a);
	const char *k = below(r, 6) ? some_key(m, r, 1) : NULL;
	if (!k) {
		json_t *t = pick_of(v->types, r);
		if (t)
			json_object_set(m, "type", t);
		return m;
	}
	json_object_set_new(
	    m, k, other_value(k, json_object_get(m, k), listed, r, v));
	return m;
}

/* ---- refusals ---- */

/* Applies `action` by `seat`, which must be refused with `want` and a
 * reason, leaving g as `before`.  Counts under prop. */
static void must_refuse(struct block *b, int prop, struct engine_game *g,
                        const struct engine_game *before, int seat,
                        const json_t *action, int want)
{
	struct rules_why why;
	memset(&why, 0, sizeof why);
	int rc = engine_game_apply(g, seat, action, &why);
	int unchanged = same_game(g, before);
	if (!check(b, prop, rc == want && unchanged)) {
		char *t = text_of(action);
		fail(b, prop, "seat %d, %s: rc %d (want %d), %s", seat, t, rc,
		     want, unchanged ? "unchanged" : "THE GAME CHANGED");
		free(t);
		if (!unchanged)
			memcpy(g, before, engine_game_size(g->rules));
	}
	if (rc < 0 && !check(b, P_WHY, why.detail[0] != '\0')) {
		char *t = text_of(action);
		fail(b, P_WHY, "seat %d, %s: rc %d without a detail", seat, t,
		     rc);
		free(t);
	}
}

/* Malformed, unlisted and off-turn actions against g, where `seat` is to
 * act with `listed`.  `views`: also compare every view before and after. */
static void try_refusals(struct block *b, const struct vocab *v,
                         struct engine_game *g, int seat, unsigned to_act,
                         const json_t *listed, struct rng *r, int views)
{
	struct engine_game *before = engine_game_clone(g);
	json_t *seen[ENGINE_MAX_SEATS + 1] = {0};
	for (int w = -1; views && w < g->seats; w++)
		seen[w + 1] = engine_game_view(g, w);
	for (int i = 0; i < MALFORMED + UNLISTED; i++) {
		const json_t *a = pick_of(listed, r);
		json_t *m =
		    i < MALFORMED ? malform(a, r, v) : unlist(a, listed, r, v);
		if (!in_list(listed, m) && !engine_action_is_resign(m))
			must_refuse(b, i < MALFORMED ? P_MALFORMED : P_UNLISTED,
			            g, before, seat, m, BD_EILLEGAL);
		json_decref(m);
	}
	int others[ENGINE_MAX_SEATS], n = 0;
	for (int w = 0; w < g->seats; w++)
		if (!(to_act >> w & 1))
			others[n++] = w;
	if (n)
		must_refuse(b, P_OFF_TURN, g, before, others[below(r, n)],
		            pick_of(listed, r), BD_ENOTTURN);
	for (int w = -1; views && w < g->seats; w++)
		if (!check(b, P_MALFORMED,
		           same_text(seen[w + 1], engine_game_view(g, w))))
			fail(b, P_MALFORMED, "viewer %d's view changed", w);
	engine_game_free(before);
}

/* ---- replay ---- */

/* Replays moves 1..k of ru from its seed, as the server does: the stored
 * options and setup, then each logged text parsed again.  Fills
 * out[0..k] (owned by the caller) and returns 0, or -1 with a report. */
static int replay(struct block *b, struct run *ru, size_t k,
                  struct engine_game **out)
{
	struct rules_why why;
	if (engine_game_new(ru->r, ru->seats, ru->options, ru->setup, ru->seed,
	                    &out[0], &why) < 0) {
		fail(b, P_REPLAY, "setup refused on replay: %s", why.detail);
		return -1;
	}
	for (size_t m = 0; m < k; m++) {
		json_t *a = json_loads(ru->text[m], 0, NULL);
		out[m + 1] = engine_game_clone(out[m]);
		int rc =
		    a ? engine_game_apply(out[m + 1], ru->actor[m], a, &why)
		      : -1;
		json_decref(a);
		if (rc < 0) {
			fail(b, P_REPLAY, "logged move %zu (%s) refused: %s",
			     m + 1, ru->text[m], why.detail);
			for (size_t j = 0; j <= m + 1; j++)
				engine_game_free(out[j]);
			return -1;
		}
	}
	return 0;
}

/* Compares the live game after k moves with a replay from the seed: the
 * bytes, then what viewers see (every viewer when `all`, else one). */
static void compare_replay(struct block *b, struct run *ru, size_t k, int all,
                           struct rng *r)
{
	struct engine_game **rs = calloc(k + 1, sizeof *rs);
	if (!rs || replay(b, ru, k, rs) < 0) {
		check(b, P_REPLAY, 0);
		free(rs);
		return;
	}
	if (!check(b, P_REPLAY, same_game(rs[k], ru->snap[k])))
		fail(b, P_REPLAY, "after %zu moves the replay differs", k);
	int lo = all ? -1 : (int)below(r, (size_t)ru->seats + 1) - 1;
	int hi = all ? ru->seats - 1 : lo;
	/* Move views: the whole log when `all`, else the last few. */
	size_t from = all || k < 16 ? 1 : k - 15;
	json_t *parsed[k > 0 ? k : 1];
	for (size_t m = 0; m < k; m++)
		parsed[m] = json_loads(ru->text[m], 0, NULL);
	for (int w = lo; w <= hi; w++) {
		int ok = same_text(engine_game_view(ru->snap[k], w),
		                   engine_game_view(rs[k], w));
		if (w >= 0)
			ok &= same_text(engine_game_actions(ru->snap[k], w),
			                engine_game_actions(rs[k], w));
		for (size_t m = from; m <= k && k > 0; m++)
			ok &= same_text(
			    move_seen(ru->snap, ru->actor, ru->act, m, k, w),
			    move_seen(rs, ru->actor, parsed, m, k, w));
		if (!check(b, P_REPLAY_SHOWN, ok))
			fail(b, P_REPLAY_SHOWN,
			     "viewer %d after %zu moves: the replay shows "
			     "otherwise",
			     w, k);
	}
	for (size_t m = 0; m < k; m++)
		json_decref(parsed[m]);
	for (size_t m = 0; m <= k; m++)
		engine_game_free(rs[m]);
	free(rs);
}

/* ---- random games ---- */

/* The actions of every seat; checks that exactly the seats in to_act
 * have some.  lists[s] are new references. */
static void list_all(struct block *b, const struct engine_game *g,
                     unsigned to_act, json_t **lists)
{
	for (int s = 0; s < g->seats; s++) {
		lists[s] = engine_game_actions(g, s);
		int acts = (to_act >> s & 1) != 0;
		if (!check(b, P_TO_ACT,
		           json_is_array(lists[s]) &&
		               (json_array_size(lists[s]) > 0) == acts))
			fail(b, P_TO_ACT,
			     "seat %d %s to act but has %zu actions", s,
			     acts ? "is" : "is not", json_array_size(lists[s]));
	}
}

/* Applies the listed actions to copies, every one when `all`, else a
 * sample: each must be taken. */
static void try_listed(struct block *b, const struct engine_game *g, int seat,
                       const json_t *listed, int all, struct rng *r)
{
	size_t n = json_array_size(listed);
	size_t tries = all || n <= LISTED_SAMPLE ? n : LISTED_SAMPLE;
	for (size_t i = 0; i < tries; i++) {
		const json_t *a =
		    json_array_get(listed, tries == n ? i : below(r, n));
		struct engine_game *c = engine_game_clone(g);
		struct rules_why why;
		int rc = engine_game_apply(c, seat, a, &why);
		if (!check(b, P_LISTED, rc == 0)) {
			char *t = text_of(a);
			fail(b, P_LISTED, "seat %d, %s: %s %s", seat, t,
			     why.rule, why.detail);
			free(t);
		}
		engine_game_free(c);
	}
}

static int pick_seat(unsigned set, struct rng *r)
{
	int s[ENGINE_MAX_SEATS], n = 0;
	for (int i = 0; i < ENGINE_MAX_SEATS; i++)
		if (set >> i & 1)
			s[n++] = i;
	return n ? s[below(r, (size_t)n)] : -1;
}

/* Options for a game of r: {}, or a random map when the catalog lists
 * maps for this seat count, or a random mode of those the catalog's
 * `modes` list for this seat count (Agent Avenue: base or advanced).
 * New reference. */
static json_t *random_options(const struct rules *r, int seats, struct rng *rng)
{
	json_t *cat = r->catalog(); /* costly, but once per game */
	char key[4];
	snprintf(key, sizeof key, "%d", seats);
	json_t *maps = json_object_get(json_object_get(cat, "maps"), key);
	json_t *m = below(rng, 4) ? pick_of(maps, rng) : NULL;
	json_t *o = m ? json_pack("{s:O}", "map", json_object_get(m, "name"))
	              : json_object();
	json_t *modes = json_object_get(cat, "modes"), *fit = json_array(), *e;
	size_t i, j;
	json_array_foreach(modes, i, e) {
		json_t *n;
		json_array_foreach(json_object_get(e, "seats"), j, n)
			if (json_integer_value(n) == seats)
				json_array_append(fit,
				                  json_object_get(e, "mode"));
	}
	if (json_array_size(fit))
		json_object_set(o, "mode", pick_of(fit, rng));
	json_decref(fit);
	json_decref(cat);
	return o;
}

/* 1 if options name a `mode` other than the catalog's default one. */
static int other_mode(const struct rules *r, const json_t *options)
{
	const json_t *m = json_object_get(options, "mode");
	if (!m)
		return 0;
	json_t *cat = r->catalog();
	const json_t *d = json_object_get(
	    json_object_get(json_object_get(cat, "options"), "mode"),
	    "default");
	int other = !json_equal(m, d);
	json_decref(cat);
	return other;
}

/* One random game of at most `cap` moves (0: to the end), checking the
 * properties at every move. */
static void random_game(struct block *b, const struct vocab *v, uint64_t seed,
                        long cap, struct rng *r)
{
	struct run ru;
	struct rules_why why;
	json_t *options = random_options(b->r, b->seats, r);
	if (run_init(&ru, b->r, b->seats, options, NULL, seed, &why) < 0) {
		check(b, P_REPLAY, 0);
		fail(b, P_REPLAY, "setup refused: %s", why.detail);
		run_free(&ru);
		return;
	}
	struct engine_game *g = engine_game_clone(ru.snap[0]);
	struct engine_game *fed = engine_game_clone(ru.snap[0]);
	/* Now and then a seat resigns (the engine's action, never listed). */
	long resign_at = below(r, 6) == 0 ? (long)below(r, 40) : -1;
	b->games++;
	b->moded[0] += other_mode(b->r, options);
	for (long step = 0; !cap || step < cap; step++) {
		if (game_over(g))
			break;
		unsigned to_act = engine_game_to_act(g);
		json_t *lists[ENGINE_MAX_SEATS] = {0};
		list_all(b, g, to_act, lists);
		int seat = pick_seat(to_act, r);
		if (seat < 0) {
			fail(b, P_TO_ACT, "nobody acts in a running game");
			check(b, P_TO_ACT, 0);
			break;
		}
		const json_t *listed = lists[seat];
		try_listed(b, g, seat, listed,
		           step < DENSE || (step & (step - 1)) == 0, r);
		try_refusals(b, v, g, seat, to_act, listed, r,
		             step == 0 || step % 128 == 64);
		json_t *chosen;
		int mover = seat;
		if (step == resign_at) {
			mover =
			    pick_seat(((1u << g->seats) - 1) & ~g->resigned, r);
			chosen = json_pack("{s:s}", "type", "resign");
			b->resigns++;
		} else {
			chosen = json_incref(pick_of(listed, r));
		}
		int rc = engine_game_apply(g, mover, chosen, &why);
		if (!check(b, P_LISTED, rc == 0)) {
			char *t = text_of(chosen);
			fail(b, P_LISTED, "seat %d, chosen %s: %s", mover, t,
			     why.detail);
			free(t);
		}
		/* The parallel replay takes the logged text, nothing else. */
		if (rc == 0) {
			run_push(&ru, mover, chosen, g);
			json_t *a = json_loads(ru.text[ru.n - 1], 0, NULL);
			int rc2 = engine_game_apply(fed, mover, a, &why);
			json_decref(a);
			if (!check(b, P_REPLAY, rc2 == 0 && same_game(fed, g)))
				fail(b, P_REPLAY,
				     "move %zu (%s): the replayed game differs",
				     ru.n, ru.text[ru.n - 1]);
		}
		json_decref(chosen);
		for (int s = 0; s < g->seats; s++)
			json_decref(lists[s]);
		if (rc < 0)
			break;
		b->moves++;
		if (ru.n <= DENSE || (ru.n & (ru.n - 1)) == 0 ||
		    ru.n % 256 == 0)
			compare_replay(b, &ru, ru.n, 0, r);
	}
	compare_replay(b, &ru, ru.n, 1, r);
	b->ended += game_over(g);
	engine_game_free(g);
	engine_game_free(fed);
	run_free(&ru);
}

/* ---- twin worlds ----
 *
 * A twin builder knows one game's hidden information.  setup() writes a
 * setup that fixes every hidden part of a new game explicitly (so the
 * setup draws no random number); twin() is given a game played from it
 * and a viewer and a cut k, and writes world B: the same setup and the
 * same moves 1..k, except for what the viewer has not seen by move k
 * (and the moves that name it).  The driver then demands that the viewer
 * sees the same in both worlds after every move up to k. */

struct twin_builder {
	const char *id; /* the rules id */
	/* New setup, *options filled; NULL if this attempt found none. */
	json_t *(*setup)(const struct rules *r, int seats, struct rng *rng,
	                 json_t **options);
	/* 0 and *setup, *log (moves 1..k), *differs filled; -1: no twin. */
	int (*twin)(struct run *ru, int viewer, size_t k, struct rng *rng,
	            json_t **setup, json_t **log, int *differs);
	int any_viewer; /* 1: twin() ignores the viewer (nothing per seat) */
};

/* A number in the spectator's view after k moves: the integer at
 * path1[.path2], or the length of the array there. */
static json_int_t public_int(struct run *ru, size_t k, const char *path1,
                             const char *path2)
{
	const json_t *x = json_object_get(run_public(ru, k), path1);
	if (path2)
		x = json_object_get(x, path2);
	return json_is_array(x) ? (json_int_t)json_array_size(x)
	                        : json_integer_value(x);
}

/* ---- Agent Avenue: hands, discards, the deck, the face-down card and
 * the black-market deck ----
 *
 * Every card of the deal is a slot.  Following the log (draws come off
 * the top; the seat that played, discarded or gained an instant card
 * draws) tells when each slot became known to each viewer: its seat's
 * hand at once (a teammate never), a face-up card when played, a
 * face-down card when recruited, a card recruited by Smoke Screen or an
 * instant card at once, a discard never (before the end).  A take of
 * Outpost, Double Trouble or Secret Recruit shows something of the
 * gainer's hand (that it holds no Sentinel, no pair...), so every slot of
 * that hand keeps its name from then on; Mind Control and Spycation show
 * only the name that goes in, so the rest of the gainer's resulting hand
 * stays free (§9.9: only the gainer sees it).  World B deals other names to the
 * slots the viewer has not seen by move k, names them in its log's discards and
 * plays, and (mode advanced) puts the black-market cards nobody has seen by
 * move k in another order. */

#define AA_MAX_SLOTS 64
#define NEVER        ((size_t)-1)

static json_t *aa_setup(const struct rules *r, int seats, struct rng *rng,
                        json_t **options)
{
	json_t *cat = r->catalog();
	const char *pool[AA_MAX_SLOTS], *bm[AA_MAX_SLOTS];
	size_t n = 0, nb = 0, i;
	json_t *c;
	json_array_foreach(json_object_get(cat, "cards"), i, c)
		for (json_int_t k = 0;
		     k < json_integer_value(json_object_get(c, "copies")) &&
		     n < AA_MAX_SLOTS;
		     k++)
			pool[n++] = json_string_value(json_object_get(c, "id"));
	json_array_foreach(json_object_get(cat, "black_market"), i, c)
		if (nb < AA_MAX_SLOTS)
			bm[nb++] = json_string_value(json_object_get(c, "id"));
	for (size_t j = n; j > 1; j--) {
		size_t x = below(rng, j);
		const char *t = pool[j - 1];
		pool[j - 1] = pool[x];
		pool[x] = t;
	}
	json_t *hands = json_array(), *deck = json_array();
	for (int s = 0; s < seats; s++) {
		json_t *h = json_array();
		for (size_t j = 0; j < 4; j++)
			json_array_append_new(h, json_string(pool[4 * s + j]));
		json_array_append_new(hands, h);
	}
	for (size_t j = 4 * (size_t)seats; j < n; j++)
		json_array_append_new(deck, json_string(pool[j]));
	json_t *setup = json_pack("{s:i,s:o,s:o}", "first_player",
	                          (int)below(rng, (size_t)seats), "hands",
	                          hands, "deck", deck);
	*options = json_object();
	if (nb && below(rng, 2)) { /* mode advanced, half of the games */
		for (size_t j = nb; j > 1; j--) {
			size_t x = below(rng, j);
			const char *t = bm[j - 1];
			bm[j - 1] = bm[x];
			bm[x] = t;
		}
		json_t *supply = json_array(), *bdeck = json_array();
		for (size_t j = 0; j < nb; j++)
			json_array_append_new(j < 3 ? supply : bdeck,
			                      json_string(bm[j]));
		json_object_set_new(setup, "bm_supply", supply);
		json_object_set_new(setup, "bm_deck", bdeck);
		json_object_set_new(*options, "mode", json_string("advanced"));
	}
	json_decref(cat);
	return setup;
}

struct aa_slots {
	size_t n;                       /* slots */
	const char *kind[AA_MAX_SLOTS]; /* names in world A (borrowed) */
	size_t seen[ENGINE_MAX_SEATS + 1][AA_MAX_SLOTS]; /* [viewer+1]: the
	                                    first move count it is known at */
	int fixed[AA_MAX_SLOTS]; /* 1: must keep its name in world B */
	long slot_of[2][512];    /* per move: discard/face-up, face-down */
};

/* Takes a slot of name `kind` out of a hand (a list of slot numbers). */
static long take(size_t *hand, size_t *n, const struct aa_slots *sl,
                 const char *kind, long not )
{
	for (size_t i = 0; i < *n; i++)
		if ((long)hand[i] != not &&strcmp(sl->kind[hand[i]], kind) ==
		    0) {
			long s = (long)hand[i];
			memmove(hand + i, hand + i + 1,
			        (*n - i - 1) * sizeof *hand);
			--*n;
			return s;
		}
	return -1;
}

static void see(struct aa_slots *sl, int viewer, long slot, size_t m)
{
	if (slot >= 0 && sl->seen[viewer + 1][slot] > m)
		sl->seen[viewer + 1][slot] = m;
}

static void see_all(struct aa_slots *sl, int seats, long slot, size_t m)
{
	for (int w = -1; w < seats; w++)
		see(sl, w, slot, m);
}

/* A new slot of a name everyone knows (an agent taken out of play into
 * a hand), at the end of hand h; -1 when full. */
static long known_slot(struct aa_slots *sl, int seats, size_t *hand, size_t *nh,
                       const char *kind, size_t m)
{
	if (!kind || sl->n >= AA_MAX_SLOTS || *nh >= AA_MAX_SLOTS)
		return -1;
	sl->kind[sl->n] = kind;
	sl->fixed[sl->n] = 1;
	see_all(sl, seats, (long)sl->n, m);
	hand[(*nh)++] = sl->n;
	return (long)sl->n++;
}

/* One move m of the model: which slots it plays, takes or makes known. */
struct aa_model {
	size_t hand[ENGINE_MAX_SEATS][AA_MAX_SLOTS], nh[ENGINE_MAX_SEATS];
	size_t next; /* the slot on top of the deck */
	long up;     /* the face-up slot of the turn */
	long down;   /* the face-down slot waiting to be recruited */
};

static int aa_step(struct run *ru, struct aa_slots *sl, struct aa_model *mo,
                   size_t m)
{
	int w = ru->actor[m - 1], drawer = w, smoke = 0;
	const json_t *a = ru->act[m - 1];
	const char *type = json_string_value(json_object_get(a, "type"));
	const char *card = json_string_value(json_object_get(a, "card"));
	const char *up = json_string_value(json_object_get(a, "face_up"));
	const char *dn = json_string_value(json_object_get(a, "face_down"));
	size_t *hand = mo->hand[w], *nh = &mo->nh[w];
	sl->slot_of[0][m - 1] = sl->slot_of[1][m - 1] = -1;
	if (!strcmp(type, "discard")) {
		sl->slot_of[0][m - 1] = take(hand, nh, sl, card, -1);
		if (sl->slot_of[0][m - 1] < 0)
			return -1;
	} else if (!strcmp(type, "play")) {
		if (up && dn && !strcmp(up, dn)) /* every card the same */
			for (size_t j = 0; j < *nh; j++)
				sl->fixed[hand[j]] = 1;
		if (!up && mo->up >= 0 && !strcmp(sl->kind[mo->up], dn))
			for (size_t j = 0; j < *nh; j++)
				sl->fixed[hand[j]] = 1;
		if (up) {
			mo->up = take(hand, nh, sl, up, -1);
			see_all(sl, ru->seats, mo->up, m);
			if (mo->up < 0)
				return -1;
		}
		if (dn) {
			mo->down = take(hand, nh, sl, dn, up ? mo->up : -1);
			if (mo->down < 0)
				return -1;
			sl->slot_of[1][m - 1] = mo->down;
		}
		sl->slot_of[0][m - 1] = mo->up;
	} else if (!strcmp(type, "recruit")) {
		see_all(sl, ru->seats, mo->down, m);
		mo->up = mo->down = -1;
	} else if (!strcmp(type, "take")) {
		json_t *mem = json_object_get(a, "member");
		if (mem)
			drawer = (int)json_integer_value(mem);
		if (drawer < 0 || drawer >= ru->seats)
			return -1;
		/* Whether Outpost, Double Trouble or Secret Recruit can be
		 * performed, and its list, tell of the gainer's hand; the
		 * other cards tell nothing of it (rules §8.6, §8.9). */
		if (!strcmp(card, "outpost") ||
		    !strcmp(card, "double-trouble") ||
		    !strcmp(card, "secret-recruit"))
			for (size_t j = 0; j < mo->nh[drawer]; j++)
				sl->fixed[mo->hand[drawer][j]] = 1;
		if (!strcmp(card, "outpost"))
			see_all(sl, ru->seats,
			        take(mo->hand[drawer], &mo->nh[drawer], sl,
			             "sentinel", -1),
			        m);
		smoke = !strcmp(card, "smoke-screen");
	} else if (!strcmp(type, "mind_control") ||
	           (!strcmp(type, "spycation") &&
	            !json_is_true(json_object_get(a, "recruit")))) {
		if (known_slot(sl, ru->seats, hand, nh, card, m) < 0)
			return -1;
	} else if (!strcmp(type, "double_trouble") ||
	           !strcmp(type, "secret_recruit")) {
		see_all(sl, ru->seats, take(hand, nh, sl, card, -1), m);
	} else if (strcmp(type, "spycation") && strcmp(type, "hand_over")) {
		return -1;
	}
	json_int_t drawn = public_int(ru, m - 1, "deck_size", NULL) -
	                   public_int(ru, m, "deck_size", NULL);
	for (json_int_t d = 0; d < drawn; d++) {
		if (mo->next >= sl->n)
			return -1;
		if (smoke) { /* Smoke Screen recruits the top card */
			see_all(sl, ru->seats, (long)mo->next++, m);
			smoke = 0;
			continue;
		}
		if (mo->nh[drawer] >= AA_MAX_SLOTS)
			return -1;
		mo->hand[drawer][mo->nh[drawer]++] = mo->next;
		see(sl, drawer, (long)mo->next++, m);
	}
	return 0;
}

/* Follows moves 1..k of ru; -1 if the log does not fit the model. */
static int aa_follow(struct run *ru, size_t k, struct aa_slots *sl)
{
	json_t *hands = json_object_get(ru->setup, "hands");
	json_t *deck = json_object_get(ru->setup, "deck");
	struct aa_model *mo = calloc(1, sizeof *mo);
	size_t i;
	json_t *c;
	memset(sl, 0, sizeof *sl);
	if (!mo || k > 512) {
		free(mo);
		return -1;
	}
	mo->up = mo->down = -1;
	for (int w = -1; w < ru->seats; w++)
		for (size_t s = 0; s < AA_MAX_SLOTS; s++)
			sl->seen[w + 1][s] = NEVER;
	for (int p = 0; p < ru->seats; p++)
		json_array_foreach(json_array_get(hands, (size_t)p), i, c) {
			sl->kind[sl->n] = json_string_value(c);
			mo->hand[p][mo->nh[p]++] = sl->n;
			see(sl, p, (long)sl->n++, 0);
		}
	mo->next = sl->n;
	json_array_foreach(deck, i, c)
		sl->kind[sl->n++] = json_string_value(c);
	int rc = 0;
	for (size_t m = 1; m <= k && rc == 0; m++)
		rc = aa_step(ru, sl, mo, m);
	free(mo);
	return rc;
}

/* Mode advanced: the black-market cards still in its deck at move k (the
 * bottom of bm_deck, top first) in another order. */
static void aa_twin_bm(struct run *ru, size_t k, struct rng *rng, json_t *b,
                       int *differs)
{
	json_t *d = json_object_get(b, "bm_deck");
	json_int_t left = json_integer_value(json_object_get(
	    json_object_get(run_public(ru, k), "black_market"), "deck_size"));
	size_t n = json_array_size(d), m = (size_t)left;
	if (!d || m > n)
		return;
	for (size_t j = m; j > 1; j--) {
		size_t x = below(rng, j);
		json_t *t = json_incref(json_array_get(d, n - j));
		json_array_set(d, n - j, json_array_get(d, n - 1 - x));
		json_array_set_new(d, n - 1 - x, t);
	}
	*differs |= !json_equal(d, json_object_get(ru->setup, "bm_deck"));
}

static int aa_twin(struct run *ru, int viewer, size_t k, struct rng *rng,
                   json_t **setup, json_t **log, int *differs)
{
	struct aa_slots *sl = malloc(sizeof *sl);
	if (!sl || aa_follow(ru, k, sl) < 0) {
		free(sl);
		return -1;
	}
	size_t free_[AA_MAX_SLOTS], nf = 0;
	for (size_t s = 0; s < sl->n; s++)
		if (sl->seen[viewer + 1][s] > k && !sl->fixed[s])
			free_[nf++] = s;
	const char *kind[AA_MAX_SLOTS];
	/* A play keeps two different names: deal again; after 20 tries, the
	 * face-down slots that clash keep their names. */
	int clash = 1;
	for (int attempt = 0; clash && attempt < 60; attempt++) {
		memcpy(kind, sl->kind, sizeof kind);
		for (size_t j = nf; j > 1; j--) {
			size_t x = below(rng, j);
			const char *t = kind[free_[j - 1]];
			kind[free_[j - 1]] = kind[free_[x]];
			kind[free_[x]] = t;
		}
		clash = 0;
		for (size_t m = 0; m < k; m++) {
			long u = sl->slot_of[0][m], d = sl->slot_of[1][m];
			if (d >= 0 && u >= 0 &&
			    strcmp(sl->kind[u], sl->kind[d]) &&
			    !strcmp(kind[u], kind[d])) {
				clash = 1;
				sl->fixed[d] |= attempt >= 20;
			}
		}
		if (clash && attempt >= 20) {
			nf = 0;
			for (size_t s = 0; s < sl->n; s++)
				if (sl->seen[viewer + 1][s] > k &&
				    !sl->fixed[s])
					free_[nf++] = s;
		}
	}
	if (clash) {
		free(sl);
		return -1;
	}
	*differs = 0;
	for (size_t s = 0; s < sl->n; s++)
		*differs |= strcmp(kind[s], sl->kind[s]) != 0;
	json_t *b = json_deep_copy(ru->setup);
	json_t *hands = json_object_get(b, "hands");
	json_t *deck = json_object_get(b, "deck");
	size_t s = 0;
	for (size_t p = 0; p < json_array_size(hands); p++)
		for (size_t j = 0;
		     j < json_array_size(json_array_get(hands, p)); j++)
			json_array_set_new(json_array_get(hands, p), j,
			                   json_string(kind[s++]));
	for (size_t j = 0; j < json_array_size(deck); j++)
		json_array_set_new(deck, j, json_string(kind[s++]));
	aa_twin_bm(ru, k, rng, b, differs);
	json_t *l = json_array();
	for (size_t m = 0; m < k; m++) {
		json_t *a = json_deep_copy(ru->act[m]);
		const char *type =
		    json_string_value(json_object_get(a, "type"));
		long u = sl->slot_of[0][m], d = sl->slot_of[1][m];
		if (!strcmp(type, "discard"))
			json_object_set_new(a, "card", json_string(kind[u]));
		if (!strcmp(type, "play") && json_object_get(a, "face_up"))
			json_object_set_new(a, "face_up", json_string(kind[u]));
		if (!strcmp(type, "play") && json_object_get(a, "face_down"))
			json_object_set_new(a, "face_down",
			                    json_string(kind[d]));
		json_array_append_new(l, a);
	}
	free(sl);
	*setup = b;
	*log = l;
	return 0;
}

/* ---- Quantum: the order of the decks, and dice not yet rolled ----
 *
 * The setup is a position reached by a normal random game, written out
 * as a custom setup with both decks in an explicit random order and 64
 * scripted dice.  World B puts the bottom of each deck, which nobody has
 * drawn by move k, in another order, and scripts other dice after those
 * rolled by move k.  Quantum shows every viewer the same
 * (only deck order, the seed and future dice are hidden), so one world B
 * serves every viewer. */

#define QT_DECK_MARGIN 8 /* bottom cards kept clear of any draw by move k */

/* The position in `view` as a custom setup; NULL if it is not one a
 * custom setup can start from (a pending decision, a bonus turn...). */
static json_t *qt_position(const json_t *view, const json_t *cat,
                           struct rng *rng)
{
	const char *phase = json_string_value(json_object_get(view, "phase"));
	if (!phase || strcmp(phase, "actions") ||
	    json_array_size(json_object_get(view, "pending")) ||
	    json_is_true(json_object_get(view, "bonus_turn")))
		return NULL;
	json_t *ships = json_array(), *dom = json_array(), *res = json_array(),
	       *held = json_array(), *cubes = json_array();
	json_t *counts = json_object();
	size_t i, j;
	json_t *p, *x;
	json_array_foreach(json_object_get(cat, "cards"), i, x)
		json_object_set(counts,
		                json_string_value(json_object_get(x, "id")),
		                json_object_get(x, "copies"));
	int bad = 0;
	json_array_foreach(json_object_get(view, "players"), i, p) {
		json_t *list = json_array();
		json_array_foreach(json_object_get(p, "ships"), j, x) {
			json_t *at = json_object_get(x, "at");
			json_t *val = json_object_get(x, "value");
			if (json_is_string(at) &&
			    !strcmp(json_string_value(at), "reserve")) {
				json_array_append_new(
				    list, json_pack("{s:s}", "at", "reserve"));
				continue;
			}
			json_array_append_new(
			    list,
			    json_pack("{s:O,s:o,s:O,s:O}", "at", at, "value",
			              json_is_integer(val) ? json_incref(val)
			                                   : json_integer(1),
			              "moved", json_object_get(x, "moved"),
			              "ability_used",
			              json_object_get(x, "ability_used")));
		}
		json_array_append_new(ships, list);
		json_int_t d =
		    json_integer_value(json_object_get(p, "dominance"));
		bad |= d > 5 ||
		       json_integer_value(json_object_get(p, "picks_owed"));
		json_array_append_new(dom, json_integer(d));
		json_array_append(res, json_object_get(p, "research"));
		json_array_append(held, json_object_get(p, "commands"));
		json_array_foreach(json_object_get(p, "commands"), j, x)
			json_object_set_new(
			    counts, json_string_value(x),
			    json_integer(json_integer_value(json_object_get(
			                     counts, json_string_value(x))) -
			                 1));
	}
	json_array_foreach(
	    json_object_get(json_object_get(view, "map"), "planets"), i, p)
		json_array_foreach(json_object_get(p, "cubes"), j, x)
			json_array_append_new(
			    cubes, json_pack("{s:O,s:O}", "seat", x, "planet",
			                     json_object_get(p, "at")));
	json_t *row = json_object(), *decks = json_object();
	static const char *const kinds[] = {"command", "gambit"};
	for (int kd = 0; kd < 2; kd++) {
		json_t *r = json_array(), *d = json_array();
		json_array_foreach(
		    json_object_get(json_object_get(view, "row"), kinds[kd]), i,
		    x)
			if (json_is_string(x)) {
				json_array_append(r, x);
				json_object_set_new(
				    counts, json_string_value(x),
				    json_integer(
				        json_integer_value(json_object_get(
				            counts, json_string_value(x))) -
				        1));
			}
		json_array_foreach(
		    json_object_get(json_object_get(view, "discards"),
		                    kinds[kd]),
		    i, x)
			json_object_set_new(
			    counts, json_string_value(x),
			    json_integer(json_integer_value(json_object_get(
			                     counts, json_string_value(x))) -
			                 1));
		json_array_foreach(json_object_get(cat, "cards"), i, x) {
			const char *id =
			    json_string_value(json_object_get(x, "id"));
			const char *kind =
			    json_string_value(json_object_get(x, "kind"));
			json_int_t left =
			    json_integer_value(json_object_get(counts, id));
			bad |= left < 0;
			if (kind && !strcmp(kind, kinds[kd]))
				for (json_int_t c = 0; c < left; c++)
					json_array_append_new(d,
					                      json_string(id));
		}
		for (size_t n = json_array_size(d); n > 1; n--) {
			size_t y = below(rng, n);
			json_t *t = json_incref(json_array_get(d, n - 1));
			json_array_set(d, n - 1, json_array_get(d, y));
			json_array_set_new(d, y, t);
		}
		json_object_set_new(row, kinds[kd], r);
		json_object_set_new(decks, kinds[kd], d);
	}
	json_t *dice = json_array();
	for (int d = 0; d < 64; d++)
		json_array_append_new(dice, json_integer(1 + below(rng, 6)));
	json_decref(counts);
	json_t *setup = json_pack(
	    "{s:O,s:O,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "first_player",
	    json_object_get(view, "active"), "actions_left",
	    json_object_get(view, "actions_left"), "ships", ships, "cubes",
	    cubes, "dominance", dom, "research", res, "commands", held, "row",
	    row, "decks", decks, "dice", dice);
	if (bad) {
		json_decref(setup);
		return NULL;
	}
	return setup;
}

static json_t *qt_setup(const struct rules *r, int seats, struct rng *rng,
                        json_t **options)
{
	json_t *o = random_options(r, seats, rng);
	struct engine_game *g;
	struct rules_why why;
	if (engine_game_new(r, seats, o, NULL, rng_next(rng), &g, &why) < 0) {
		json_decref(o);
		return NULL;
	}
	json_t *cat = r->catalog(), *setup = NULL;
	long warm = (long)below(rng, 300);
	for (long step = 0; step < warm + 2000 && !game_over(g); step++) {
		if (step >= warm) {
			json_t *v = engine_game_view(g, ENGINE_SPECTATOR);
			setup = qt_position(v, cat, rng);
			json_decref(v);
			if (setup)
				break;
		}
		int seat = pick_seat(engine_game_to_act(g), rng);
		json_t *acts = engine_game_actions(g, seat);
		engine_game_apply(g, seat, pick_of(acts, rng), &why);
		json_decref(acts);
	}
	json_decref(cat);
	engine_game_free(g);
	if (!setup)
		json_decref(o);
	else
		*options = o;
	return setup;
}

/* Cards of `kind`'s deck nobody has drawn by move k, bottom first: none
 * once the deck ran low or was reshuffled. */
static size_t qt_undrawn(struct run *ru, size_t k, const char *kind)
{
	json_int_t low = public_int(ru, 0, "decks", kind);
	json_int_t discards = public_int(ru, 0, "discards", kind);
	for (size_t m = 1; m <= k; m++) {
		json_int_t n = public_int(ru, m, "decks", kind);
		json_int_t d = public_int(ru, m, "discards", kind);
		if (n > low || d < discards)
			return 0; /* the discards went back into the deck */
		low = n;
		discards = d;
	}
	return low > QT_DECK_MARGIN ? (size_t)(low - QT_DECK_MARGIN) : 0;
}

static int qt_twin(struct run *ru, int viewer, size_t k, struct rng *rng,
                   json_t **setup, json_t **log, int *differs)
{
	(void)viewer;
	static const char *const kinds[] = {"command", "gambit"};
	json_t *b = json_deep_copy(ru->setup);
	*differs = 0;
	for (int kd = 0; kd < 2; kd++) {
		json_t *d =
		    json_object_get(json_object_get(b, "decks"), kinds[kd]);
		size_t n = json_array_size(d), m = qt_undrawn(ru, k, kinds[kd]);
		if (m > n)
			m = n;
		for (size_t j = m; j > 1; j--) {
			size_t x = below(rng, j);
			json_t *t = json_incref(json_array_get(d, n - j));
			json_array_set(d, n - j, json_array_get(d, n - 1 - x));
			json_array_set_new(d, n - 1 - x, t);
		}
		*differs |= !json_equal(
		    d, json_object_get(json_object_get(ru->setup, "decks"),
		                       kinds[kd]));
	}
	/* Scripted dice nobody has seen by move k: each move shows every
	 * die it rolled in last_dice (at most 16; with 16, no telling). */
	json_int_t used = 0;
	int counted = 1;
	for (size_t m = 1; m <= k; m++) {
		json_int_t n = public_int(ru, m, "last_dice", NULL);
		counted &= n < 16;
		used += n;
	}
	json_t *dice = json_object_get(b, "dice");
	for (size_t i = (size_t)used; counted && i < json_array_size(dice);
	     i++) {
		json_int_t d = 1 + (json_int_t)below(rng, 6);
		*differs |= d != json_integer_value(json_array_get(dice, i));
		json_array_set_new(dice, i, json_integer(d));
	}
	json_t *l = json_array();
	for (size_t m = 0; m < k; m++)
		json_array_append(l, ru->act[m]);
	*setup = b;
	*log = l;
	return 0;
}

static const struct twin_builder builders[] = {
    {"agent-avenue", aa_setup, aa_twin, 0},
    {"quantum", qt_setup, qt_twin, 1},
};

static const struct twin_builder *builder_for(const struct rules *r)
{
	for (size_t i = 0; i < sizeof builders / sizeof builders[0]; i++)
		if (!strcmp(builders[i].id, r->id))
			return &builders[i];
	return NULL;
}

/* ---- the twin driver ---- */

/* Prints one pair for the HTTP suite: {"game","seats","options","viewer",
 * "a":{"setup","log":[[seat,action]…]},"b":{…}}. */
static void export_pair(struct run *ru, int viewer, size_t k,
                        const json_t *setup_b, const json_t *log_b)
{
	json_t *la = json_array(), *lb = json_array();
	for (size_t m = 0; m < k; m++) {
		json_array_append_new(
		    la, json_pack("[i,O]", ru->actor[m], ru->act[m]));
		json_array_append_new(lb, json_pack("[i,O]", ru->actor[m],
		                                    json_array_get(log_b, m)));
	}
	json_t *line = json_pack(
	    "{s:s,s:i,s:O,s:i,s:{s:O,s:o},s:{s:O,s:o}}", "game", ru->r->id,
	    "seats", ru->seats, "options", ru->options, "viewer", viewer, "a",
	    "setup", ru->setup, "log", la, "b", "setup", setup_b, "log", lb);
	char *t = text_of(line);
	printf("%s\n", t);
	free(t);
	json_decref(line);
}

/* The same actions posted by viewer w in world A (a) and world B (b):
 * refused or taken alike, and a refusal's reason the same (a reason may
 * not tell what w may not see).  The actions are listed ones of a seat to
 * act in A, moves from anywhere in the game's log (out of their time and
 * seat), and malformed and unlisted variants of both. */
static int same_refusals(const struct run *ru, const struct engine_game *a,
                         const struct engine_game *b, int w,
                         const struct vocab *v, struct rng *r)
{
	int seat = pick_seat(engine_game_to_act(a), r);
	if (w < 0 || seat < 0)
		return 1;
	json_t *listed = engine_game_actions(a, seat);
	int ok = 1;
	for (int i = 0; i < 6 && json_array_size(listed); i++) {
		const json_t *x = i < 3 || !ru->n ? pick_of(listed, r)
		                                  : ru->act[below(r, ru->n)];
		json_t *m = i % 3 == 0   ? json_deep_copy(x)
		            : i % 3 == 1 ? malform(x, r, v)
		                         : unlist(x, listed, r, v);
		struct engine_game *ca = engine_game_clone(a),
		                   *cb = engine_game_clone(b);
		struct rules_why wa, wb;
		memset(&wa, 0, sizeof wa);
		memset(&wb, 0, sizeof wb);
		if (!engine_action_is_resign(m)) {
			int ra = engine_game_apply(ca, w, m, &wa);
			int rb = engine_game_apply(cb, w, m, &wb);
			if (ra != rb ||
			    (ra < 0 && (strcmp(wa.rule, wb.rule) ||
			                strcmp(wa.detail, wb.detail)))) {
				char *t = text_of(m);
				fprintf(stderr,
				        "  seat %d posts %s: world A %d %s %s, "
				        "world B %d %s %s\n",
				        w, t, ra, wa.rule, wa.detail, rb,
				        wb.rule, wb.detail);
				free(t);
				ok = 0;
			}
		}
		engine_game_free(ca);
		engine_game_free(cb);
		json_decref(m);
	}
	json_decref(listed);
	return ok;
}

/* The no-peek property of src/bot: at the last move up to k where a
 * viewer in [lo, hi] is to act, an mcts bot of that seat with one seed
 * chooses the same action in both worlds.  A small fixed budget (the
 * property does not depend on it; a time cut never happens). */
static void bot_no_peek(struct block *b, struct run *ru,
                        struct engine_game **bs, int lo, int hi, size_t k,
                        struct rng *r)
{
	uint64_t seed = rng_next(r);
	for (size_t j = k + 1; j-- > 0;)
		for (int w = lo < 0 ? 0 : lo; w <= hi; w++) {
			if (!(engine_game_to_act(ru->snap[j]) >> w & 1))
				continue;
			struct engine_action a, c;
			int ra =
			    bot_choose_mcts(ru->snap[j], w, 24, seed, &a, NULL);
			int rb = bot_choose_mcts(bs[j], w, 24, seed, &c, NULL);
			if (!check(b, P_TWIN_BOT,
			           ra == 0 && rb == 0 &&
			               !memcmp(&a, &c, sizeof a)))
				fail(b, P_TWIN_BOT,
				     "viewer %d after %zu of %zu moves", w, j,
				     k);
			return; /* one choice per world B: they are costly */
		}
}

/* Plays world B and compares what each viewer in [lo, hi] sees with
 * world A (ru) after every move up to k. */
static void compare_twin(struct block *b, struct run *ru, int lo, int hi,
                         size_t k, const json_t *setup_b, const json_t *log_b,
                         int differs, const struct vocab *v, struct rng *r)
{
	struct engine_game **bs = calloc(k + 1, sizeof *bs);
	json_t *setup = json_deep_copy(setup_b);
	struct rules_why why;
	size_t made = 0;
	int ok = engine_game_new(ru->r, ru->seats, ru->options, setup, ru->seed,
	                         &bs[0], &why) == 0;
	if (!ok)
		fail(b, P_TWIN_LOG, "world B's setup refused: %s", why.detail);
	for (made = 1; ok && made <= k; made++) {
		bs[made] = engine_game_clone(bs[made - 1]);
		if (engine_game_apply(bs[made], ru->actor[made - 1],
		                      json_array_get(log_b, made - 1),
		                      &why) < 0) {
			char *t = text_of(json_array_get(log_b, made - 1));
			fail(b, P_TWIN_LOG, "world B's move %zu %s refused: %s",
			     made, t, why.detail);
			free(t);
			ok = 0;
		}
	}
	if (check(b, P_TWIN_LOG, ok)) {
		json_t **acts = calloc(k ? k : 1, sizeof *acts);
		for (size_t m = 0; m < k; m++)
			acts[m] = json_array_get(log_b, m);
		for (int w = lo; w <= hi; w++) {
			for (size_t j = 0; j <= k; j++) {
				json_t *vb = engine_game_view(bs[j], w);
				char *tb = text_of(vb);
				int same = !strcmp(run_shown(ru, w, j), tb);
				free(tb);
				json_decref(vb);
				if (!check(b, P_TWIN_VIEW, same))
					fail(b, P_TWIN_VIEW,
					     "viewer %d after %zu of %zu moves",
					     w, j, k);
				int acts_ok = engine_game_to_act(ru->snap[j]) ==
				              engine_game_to_act(bs[j]);
				if (w >= 0)
					acts_ok &= same_text(
					    engine_game_actions(ru->snap[j], w),
					    engine_game_actions(bs[j], w));
				if (!check(b, P_TWIN_ACTIONS, acts_ok))
					fail(b, P_TWIN_ACTIONS,
					     "viewer %d after %zu of %zu moves",
					     w, j, k);
				if (j != k && j > 40 && j % 8)
					continue; /* long logs: a sample */
				int mv_ok = 1;
				for (size_t m = 1; m <= j; m++)
					mv_ok &= same_text(
					    move_seen(ru->snap, ru->actor,
					              ru->act, m, j, w),
					    move_seen(bs, ru->actor, acts, m, j,
					              w));
				if (!check(b, P_TWIN_MOVES, mv_ok))
					fail(b, P_TWIN_MOVES,
					     "viewer %d after %zu of %zu moves",
					     w, j, k);
				if (w >= 0 &&
				    !check(b, P_TWIN_REFUSED,
				           same_refusals(ru, ru->snap[j], bs[j],
				                         w, v, r)))
					fail(b, P_TWIN_REFUSED,
					     "viewer %d after %zu of %zu moves",
					     w, j, k);
			}
		}
		free(acts);
		bot_no_peek(b, ru, bs, lo, hi, k, r);
		/* Counted here, judged per block (report_block). */
		b->twins++;
		b->twins_differ +=
		    differs && memcmp(ru->snap[k]->state, bs[k]->state,
		                      ru->r->state_size) != 0;
	}
	for (size_t m = 0; m < made && m <= k; m++)
		engine_game_free(bs[m]);
	free(bs);
	json_decref(setup);
}

/* One twin-world game: world A from the builder's setup, played at
 * random; then another seed, and world B for each viewer at a few cuts. */
static void twin_game(struct block *b, const struct twin_builder *tb,
                      const struct vocab *vo, struct rng *r, long export_max)
{
	json_t *options = NULL;
	json_t *setup = tb->setup(b->r, b->seats, r, &options);
	if (!setup)
		return;
	struct run ru;
	struct rules_why why;
	uint64_t seed = rng_next(r);
	if (run_init(&ru, b->r, b->seats, options, setup, seed, &why) < 0) {
		check(b, P_TWIN_LOG, 0);
		char *t = text_of(setup);
		fail(b, P_TWIN_LOG, "the builder's setup was refused: %s: %s",
		     why.detail, t);
		free(t);
		run_free(&ru);
		return;
	}
	b->twin_games++;
	int om = other_mode(b->r, options);
	b->moded[1] += om;
	/* The last pair exported of a game with modes is in another mode
	 * than the default when none was yet (the HTTP twins see both). */
	json_t *cat = b->r->catalog();
	int keep_last =
	    json_object_get(cat, "modes") && !om && !b->moded_exported;
	json_decref(cat);
	struct engine_game *g = engine_game_clone(ru.snap[0]);
	while (ru.n < TWIN_STEPS && !game_over(g)) {
		int seat = pick_seat(engine_game_to_act(g), r);
		json_t *acts = engine_game_actions(g, seat);
		json_t *a = pick_of(acts, r);
		if (!a || engine_game_apply(g, seat, a, &why) < 0) {
			json_decref(acts);
			break; /* the random games report this */
		}
		run_push(&ru, seat, a, g);
		json_decref(acts);
	}
	engine_game_free(g);
	/* The moves before the generator is first used (its words: scripted
	 * dice, rng.h, are the same under every seed). */
	struct rng fresh;
	rng_seed(&fresh, seed);
	size_t unrandom = 0;
	while (unrandom < ru.n &&
	       !memcmp(ru.snap[unrandom + 1]->rng.s, fresh.s, sizeof fresh.s))
		unrandom++;
	if (memcmp(ru.snap[0]->rng.s, fresh.s, sizeof fresh.s)) {
		check(b, P_SEED, 0);
		fail(b, P_SEED, "the builder's setup drew random numbers");
	}
	/* Another seed: the same game, move for move, while none is drawn. */
	struct engine_game *o;
	if (engine_game_new(b->r, b->seats, options, setup, ~seed, &o, &why) ==
	    0) {
		for (size_t m = 0; m <= unrandom; m++) {
			int ok = memcmp(o->state, ru.snap[m]->state,
			                b->r->state_size) == 0;
			for (int w = -1;
			     (m == 0 || m == unrandom) && w < b->seats; w++) {
				json_t *v = engine_game_view(o, w);
				char *t = text_of(v);
				ok &= !strcmp(t, run_shown(&ru, w, m));
				free(t);
				json_decref(v);
			}
			if (!check(b, P_SEED, ok))
				fail(b, P_SEED, "after %zu moves", m);
			if (m < unrandom &&
			    engine_game_apply(o, ru.actor[m], ru.act[m], &why))
				break;
		}
		engine_game_free(o);
	}
	/* World B for each viewer at the last move before the end and at
	 * two earlier cuts. */
	size_t last = ru.n && game_over(ru.snap[ru.n]) ? ru.n - 1 : ru.n;
	size_t cuts[3] = {last, last > 1 ? 1 + below(r, last - 1) : last,
	                  last > 1 ? 1 + below(r, last - 1) : last};
	int exported = 0;
	/* One world B serves every viewer when the builder says so: one
	 * cut, at the end, then does (it compares every move before it). */
	for (int c = 0; c < (tb->any_viewer ? 1 : 3); c++) {
		for (int w = -1; w < b->seats; w++) {
			json_t *sb = NULL, *lb = NULL;
			int differs = 0;
			if (tb->twin(&ru, w, cuts[c], r, &sb, &lb, &differs) <
			    0) {
				check(b, P_TWIN_LOG, 0);
				fail(b, P_TWIN_LOG,
				     "no twin for viewer %d at move %zu", w,
				     cuts[c]);
				continue;
			}
			int hi = tb->any_viewer ? b->seats - 1 : w;
			compare_twin(b, &ru, w, hi, cuts[c], sb, lb, differs,
			             vo, r);
			if (export_max > b->exported && !exported && differs &&
			    !(keep_last && b->exported + 1 == export_max) &&
			    cuts[c] <= unrandom && cuts[c] > 0 &&
			    (c == 0 || cuts[c] >= 8) &&
			    (tb->any_viewer || (int)below(r, 3) == 0 ||
			     w == b->seats - 1)) {
				int v =
				    tb->any_viewer
				        ? (int)below(r, (size_t)b->seats + 1) -
				              1
				        : w;
				export_pair(&ru, v, cuts[c], sb, lb);
				b->exported++;
				b->moded_exported += om;
				exported = 1;
			}
			json_decref(sb);
			json_decref(lb);
			if (tb->any_viewer)
				break;
		}
	}
	run_free(&ru);
}

/* ---- the suite ---- */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void report_block(struct block *b, double secs)
{
	long moves = b->moves;
	printf("%s, %d seats: %ld random games (%ld ended, %ld moves, %ld "
	       "resignations), %ld twin-world games; %.1fs\n",
	       b->r->id, b->seats, b->games, b->ended, moves, b->resigns,
	       b->twin_games, secs);
	if (b->moded[0] || b->moded[1])
		printf("  in a mode other than the default: %ld random games, "
		       "%ld twin-world games\n",
		       b->moded[0], b->moded[1]);
	/* A game with modes is checked in a mode other than its default
	 * too (Agent Avenue's advanced mode), random and twin games alike. */
	json_t *cat = b->r->catalog();
	if (json_object_get(cat, "modes")) {
		char name[160];
		snprintf(name, sizeof name,
		         "%s/%d: random and twin-world games in a mode other "
		         "than the default",
		         b->r->id, b->seats);
		test_cond(name, b->moded[0] > 0 && b->moded[1] > 0);
	}
	json_decref(cat);
	/* Twins must mostly differ, or the hiding checks prove little. */
	b->checks[P_TWIN_DIFFER] = b->twins;
	b->bad[P_TWIN_DIFFER] = b->twins_differ * 2 < b->twins;
	printf("  world Bs: %ld, of which differ from world A: %ld\n", b->twins,
	       b->twins_differ);
	for (int p = 0; p < NPROP; p++) {
		char name[200];
		snprintf(name, sizeof name,
		         "%s/%d: %s (%ld checks, %ld failed)", b->r->id,
		         b->seats, prop_names[p], b->checks[p], b->bad[p]);
		printf("  %s\n", name);
		/* Every property must have been checked, and held. */
		test_cond(name, b->checks[p] > 0 && b->bad[p] == 0);
	}
}

int main(int argc, char **argv)
{
	long export_max = 0;
	if (argc == 3 && !strcmp(argv[1], "--export"))
		export_max = strtol(argv[2], NULL, 10);
	K.games = knob("PROP_GAMES", PROP_GAMES);
	K.steps = knob("PROP_STEPS", PROP_STEPS);
	K.full = knob("PROP_FULL", PROP_FULL);
	K.twins = knob("PROP_TWINS", PROP_TWINS);
	K.seed = (uint64_t)knob("PROP_SEED", PROP_SEED);
	if (!export_max)
		printf(
		    "properties: PROP_GAMES=%ld PROP_STEPS=%ld PROP_FULL=%ld "
		    "PROP_TWINS=%ld PROP_SEED=%llu\n",
		    K.games, K.steps, K.full, K.twins,
		    (unsigned long long)K.seed);
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct rules *r = all[i];
		const struct twin_builder *tb = builder_for(r);
		char name[120];
		snprintf(name, sizeof name,
		         "%s: has a twin builder (what it hides)", r->id);
		test_cond(name, tb != NULL);
		struct vocab v;
		vocab_init(&v, r);
		long counts = r->max_seats - r->min_seats + 1;
		for (int seats = r->min_seats; seats <= r->max_seats; seats++) {
			struct block b = {.r = r, .seats = seats};
			struct rng rng;
			rng_seed(&rng, K.seed ^ (uint64_t)(i * 131 + seats));
			double t0 = now_s();
			long games = (K.games + counts - 1) / counts;
			long twins = (K.twins + counts - 1) / counts;
			if (export_max) {
				for (long t = 0;
				     tb && b.exported < export_max &&
				     t < 40 * export_max;
				     t++)
					twin_game(&b, tb, &v, &rng, export_max);
			} else {
				for (long g = 0; g < games; g++)
					random_game(&b, &v, rng_next(&rng),
					            K.steps, &rng);
				for (long g = 0; g < K.full; g++)
					random_game(&b, &v, rng_next(&rng), 0,
					            &rng);
				for (long t = 0; tb && t < twins; t++)
					twin_game(&b, tb, &v, &rng, 0);
				report_block(&b, now_s() - t0);
			}
			for (int p = 0; export_max && p < NPROP; p++)
				if (b.bad[p])
					test_failed++;
		}
		vocab_free(&v);
	}
	if (export_max)
		return test_failed ? 1 : 0;
	return test_report("properties");
}
