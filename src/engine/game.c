/* game.c: creating, copying and advancing an engine_game.  See engine.h. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "engine.h"

struct engine_script {
	atomic_uint refs; /* the games holding it */
	uint32_t n;       /* values in v */
	uint8_t v[];
};

/* The script of setup for r as a new struct (refs 1), or *out NULL when
 * there is none. */
static int script_new(const struct rules *r, const json_t *setup,
                      struct engine_script **out, struct rules_why *why)
{
	*out = NULL;
	size_t n = r->script && setup ? r->script(setup, NULL, 0) : 0;
	if (n == 0)
		return 0;
	if (n > ENGINE_SCRIPT_MAX)
		return rules_fail(why, BD_EBADSETUP, "",
		                  "a custom setup scripts at most %d draws",
		                  ENGINE_SCRIPT_MAX);
	struct engine_script *sc = malloc(sizeof *sc + n);
	if (!sc)
		return BD_ENOMEM;
	atomic_init(&sc->refs, 1);
	sc->n = (uint32_t)r->script(setup, sc->v, n);
	*out = sc;
	return 0;
}

static void script_drop(struct engine_script *sc)
{
	if (sc && atomic_fetch_sub(&sc->refs, 1) == 1)
		free(sc);
}

/* g holds sc (its reference) and its generator draws from it. */
static void script_give(struct engine_game *g, struct engine_script *sc)
{
	g->script = sc;
	g->rng.script = sc ? sc->v : NULL;
	g->rng.script_n = sc ? sc->n : 0;
}

int engine_game_attach_script(struct engine_game *g, const json_t *setup)
{
	struct engine_script *sc;
	struct rules_why why;
	int rc = script_new(g->rules, setup, &sc, &why);
	if (rc == 0) {
		uint32_t pos = g->rng.script_pos;
		script_drop(g->script);
		script_give(g, sc);
		g->rng.script_pos = sc && pos <= sc->n ? pos : 0;
	}
	return rc;
}

size_t engine_game_size(const struct rules *r)
{
	return sizeof(struct engine_game) + r->state_size;
}

void engine_state_hash(const struct engine_game *g,
                       unsigned char out[ENGINE_STATE_HASH_BYTES])
{
	/* the generator's state and its place in a custom setup's script
	 * (the script itself is the setup's: the same for every move) */
	const uint64_t head[9] = {
	    (uint64_t)g->seats, g->seq,
	    g->resigned,        (uint64_t)g->ended_by_resignation,
	    g->rng.s[0],        g->rng.s[1],
	    g->rng.s[2],        g->rng.s[3],
	    g->rng.script_pos};
	crypto_generichash_state h;
	crypto_generichash_init(&h, NULL, 0, ENGINE_STATE_HASH_BYTES);
	crypto_generichash_update(&h, (const unsigned char *)head, sizeof head);
	crypto_generichash_update(&h, g->state, g->rules->state_size);
	crypto_generichash_final(&h, out, ENGINE_STATE_HASH_BYTES);
}

/* The snapshot's header: the format and the state size it was taken at. */
#define SNAP_HEAD 8
#define SNAP_FROM offsetof(struct engine_game, seats)

size_t engine_snapshot_size(const struct rules *r)
{
	return SNAP_HEAD + engine_game_size(r) - SNAP_FROM;
}

void engine_snapshot_write(const struct engine_game *g, void *out)
{
	uint32_t head[2] = {ENGINE_SNAPSHOT_FORMAT,
	                    (uint32_t)g->rules->state_size};
	memcpy(out, head, SNAP_HEAD);
	memcpy((unsigned char *)out + SNAP_HEAD,
	       (const unsigned char *)g + SNAP_FROM,
	       engine_game_size(g->rules) - SNAP_FROM);
	/* The script's address means nothing outside this process: the
	 * same game gives the same bytes (the reader attaches it again). */
	const uint8_t *none = NULL;
	memcpy((unsigned char *)out + SNAP_HEAD +
	           offsetof(struct engine_game, rng) +
	           offsetof(struct rng, script) - SNAP_FROM,
	       &none, sizeof none);
}

int engine_snapshot_read(const struct rules *r, const void *bytes, size_t len,
                         struct engine_game **out)
{
	uint32_t head[2];
	if (len != engine_snapshot_size(r))
		return BD_ENOTFOUND;
	memcpy(head, bytes, SNAP_HEAD);
	if (head[0] != ENGINE_SNAPSHOT_FORMAT || head[1] != r->state_size)
		return BD_ENOTFOUND;
	struct engine_game *g = malloc(engine_game_size(r));
	if (!g)
		return BD_ENOMEM;
	memcpy((unsigned char *)g + SNAP_FROM,
	       (const unsigned char *)bytes + SNAP_HEAD, len - SNAP_HEAD);
	g->rules = r;
	g->script =
	    NULL; /* the pointers of the writer's process mean nothing */
	g->rng.script = NULL;
	g->rng.script_n = 0;
	if (g->seats < r->min_seats || g->seats > r->max_seats) {
		free(g);
		return BD_ENOTFOUND;
	}
	*out = g;
	return 0;
}

int engine_seats_check(const struct rules *r, long long seats,
                       struct rules_why *why)
{
	if (seats >= r->min_seats && seats <= r->max_seats)
		return 0;
	if (r->min_seats == r->max_seats)
		return rules_fail(why, BD_EBADOPTIONS, "seats",
		                  "%s takes exactly %d seats, not %lld",
		                  r->title, r->min_seats, seats);
	return rules_fail(why, BD_EBADOPTIONS, "seats",
	                  "%s takes %d to %d seats, not %lld", r->title,
	                  r->min_seats, r->max_seats, seats);
}

int engine_game_new(const struct rules *r, int seats, const json_t *options,
                    const json_t *setup, uint64_t seed,
                    struct engine_game **out, struct rules_why *why)
{
	struct rng start;
	rng_seed(&start, seed);
	return engine_game_new_rng(r, seats, options, setup, &start, out, why);
}

int engine_game_new_rng(const struct rules *r, int seats, const json_t *options,
                        const json_t *setup, const struct rng *start,
                        struct engine_game **out, struct rules_why *why)
{
	if (engine_seats_check(r, seats, why))
		return BD_EBADOPTIONS;
	json_t *empty = NULL;
	if (!options)
		options = empty = json_object();
	struct engine_game *g = calloc(1, engine_game_size(r));
	if (!g || !options) {
		free(g);
		json_decref(empty);
		return BD_ENOMEM;
	}
	g->rules = r;
	g->seats = seats;
	g->autoplay = 1;
	g->rng = *start;
	struct engine_script *sc;
	int rc = script_new(r, setup, &sc, why);
	if (rc == 0) {
		script_give(g, sc);
		g->rng.script_pos = 0;
		rc = r->setup(g->state, seats, options, setup, &g->rng, why);
	}
	json_decref(empty);
	if (rc < 0) {
		engine_game_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

struct engine_game *engine_game_clone(const struct engine_game *g)
{
	size_t n = engine_game_size(g->rules);
	struct engine_game *c = malloc(n);
	if (c)
		memcpy(c, g, n);
	if (c && c->script)
		atomic_fetch_add(&c->script->refs, 1);
	return c;
}

void engine_game_free(struct engine_game *g)
{
	if (g)
		script_drop(g->script);
	free(g);
}

/* Decisions of resigned seats are random; a bound keeps a buggy module
 * from looping for ever. */
#define AUTOPLAY_MAX 100000

int engine_action_is_resign(const json_t *action)
{
	const char *type = json_string_value(json_object_get(action, "type"));
	return type && strcmp(type, "resign") == 0 &&
	       json_object_size(action) == 1;
}

static int seats_left(const struct engine_game *g)
{
	int n = 0;
	for (int s = 0; s < g->seats; s++)
		n += !(g->resigned & (1u << s));
	return n;
}

/* The lowest resigned seat that must act now, or -1. */
static int resigned_to_act(const struct engine_game *g)
{
	unsigned due = engine_game_to_act(g) & g->resigned;
	for (int s = 0; s < g->seats; s++)
		if (due & (1u << s))
			return s;
	return -1;
}

void engine_game_stored_under(struct engine_game *g, unsigned version)
{
	unsigned from = g->rules->logs_resigned_from;
	g->autoplay = !from || version < from;
}

int engine_game_resigned_due(const struct engine_game *g)
{
	return g->autoplay ? -1 : resigned_to_act(g);
}

int engine_game_legal(const struct engine_game *g, int seat,
                      struct engine_actions *list)
{
	list->n = 0;
	if (seat < 0 || seat >= g->seats ||
	    !(engine_game_to_act(g) & (1u << seat)))
		return 0;
	for (;;) {
		size_t n = g->rules->legal(g->state, seat, list->v, list->cap);
		if (n <= list->cap) {
			list->n = n;
			return 0;
		}
		struct engine_action *v = realloc(list->v, n * sizeof *v);
		if (!v)
			return BD_ENOMEM;
		list->v = v;
		list->cap = n;
	}
}

long engine_game_pick(const struct engine_game *g, int seat, struct rng *rng,
                      struct engine_actions *scratch, struct engine_action *out)
{
	if (!g->rules->pick) {
		/* engine_game_legal checks the seat and the turn */
		int rc = engine_game_legal(g, seat, scratch);
		if (rc)
			return rc;
		if (scratch->n)
			*out = scratch->v[rng_below(rng, (uint32_t)scratch->n)];
		return (long)scratch->n;
	}
	if (seat < 0 || seat >= g->seats ||
	    !(engine_game_to_act(g) & (1u << seat)))
		return 0;
	return (long)g->rules->pick(g->state, seat, rng, out);
}

void engine_actions_free(struct engine_actions *list)
{
	free(list->v);
	list->v = NULL;
	list->n = list->cap = 0;
}

/* Plays every pending decision of a resigned seat with a uniformly random
 * legal action.  Operates on a scratch copy; nonzero means the module
 * refused its own listed action or never stopped asking.  Sets
 * g->autoplayed when it played one. */
static int autoplay(struct engine_game *g, struct rules_why *why)
{
	int seat, rounds = 0;
	struct engine_actions list = {0};
	while ((seat = resigned_to_act(g)) >= 0) {
		g->autoplayed = 1;
		int rc = engine_game_legal(g, seat, &list);
		if (rc == 0 && (list.n == 0 || ++rounds > AUTOPLAY_MAX))
			rc = BD_EINTERNAL;
		if (rc == 0)
			rc = g->rules->play(
			    g->state, seat,
			    &list.v[rng_below(&g->rng, (uint32_t)list.n)],
			    &g->rng, why);
		if (rc < 0) {
			engine_actions_free(&list);
			return rc == BD_ENOMEM
			           ? rc
			           : rules_fail(why, BD_EINTERNAL, "",
			                        "a resigned seat could not be "
			                        "played");
		}
	}
	engine_actions_free(&list);
	return 0;
}

/* The engine's resign action, on a scratch copy. */
static int resign(struct engine_game *g, int seat, struct rules_why *why)
{
	if (g->resigned & (1u << seat))
		return rules_fail(why, BD_EILLEGAL, "resign",
		                  "seat %d has already resigned", seat);
	g->resigned |= 1u << seat;
	if (seats_left(g) <= 1) {
		g->ended_by_resignation = 1;
		return 0;
	}
	return g->autoplay ? autoplay(g, why) : 0;
}

/* The checks every move passes before the rules see it. */
static int may_move(const struct engine_game *g, int seat, int is_resign,
                    struct rules_why *why)
{
	struct rules_result res;
	if (engine_game_result(g, &res))
		return rules_fail(why, BD_EGAMEOVER, "", "the game is over");
	if (seat < 0 || seat >= g->seats)
		return rules_fail(why, BD_EBADREQUEST, "", "no seat %d", seat);
	if (!is_resign && !(engine_game_to_act(g) & (1u << seat)))
		return rules_fail(why, BD_ENOTTURN, "",
		                  "seat %d may not act now", seat);
	return 0;
}

/* Searches play resigned seats at random whatever g->autoplay says: a
 * playout stands for what the server would do. */
int engine_game_step(struct engine_game *g, int seat,
                     const struct engine_action *a, struct rules_why *why)
{
	int rc = g->rules->play(g->state, seat, a, &g->rng, why);
	return rc ? rc : autoplay(g, why);
}

/* Scratch copies up to this size live on the stack (every move of a
 * replay makes one); larger games' copies are allocated. */
#define SCRATCH_BYTES 4096

/* Applies a native action (a) or the resign action (a == NULL) to a
 * scratch copy, and keeps the copy on success. */
static int apply_on_copy(struct engine_game *g, int seat,
                         const struct engine_action *a, struct rules_why *why)
{
	size_t size = engine_game_size(g->rules);
	_Alignas(max_align_t) unsigned char buf[SCRATCH_BYTES];
	struct engine_game *scratch =
	    size <= sizeof buf ? memcpy(buf, g, size) : engine_game_clone(g);
	if (!scratch)
		return BD_ENOMEM;
	scratch->autoplayed = 0;
	int rc = a ? g->rules->play(scratch->state, seat, a, &scratch->rng, why)
	           : resign(scratch, seat, why);
	if (rc == 0 && a && g->autoplay)
		rc = autoplay(scratch, why);
	if (rc == 0) {
		scratch->seq = g->seq + 1;
		memcpy(g, scratch, size);
	}
	if ((void *)scratch != buf)
		engine_game_free(scratch); /* its reference to the script */
	return rc;
}

int engine_game_play(struct engine_game *g, int seat,
                     const struct engine_action *a, struct rules_why *why)
{
	int rc = may_move(g, seat, 0, why);
	return rc ? rc : apply_on_copy(g, seat, a, why);
}

int engine_game_apply(struct engine_game *g, int seat, const json_t *action,
                      struct rules_why *why)
{
	int is_resign = engine_action_is_resign(action);
	int rc = may_move(g, seat, is_resign, why);
	if (rc)
		return rc;
	if (is_resign)
		return apply_on_copy(g, seat, NULL, why);
	struct engine_action a;
	rc = g->rules->action_parse(action, &a, why);
	return rc ? rc : apply_on_copy(g, seat, &a, why);
}

unsigned engine_game_to_act(const struct engine_game *g)
{
	struct rules_result res;
	return engine_game_result(g, &res) ? 0 : g->rules->to_act(g->state);
}

int engine_game_result(const struct engine_game *g, struct rules_result *out)
{
	if (g->ended_by_resignation) {
		out->winners = ((1u << g->seats) - 1) & ~g->resigned;
		out->reason = "resignation";
		return 1;
	}
	return g->rules->result(g->state, out);
}

void engine_game_rating_category(const struct engine_game *g, char *buf,
                                 size_t len, int *side)
{
	if (g->rules->rating_category) {
		g->rules->rating_category(g->state, g->seats, buf, len, side);
		return;
	}
	snprintf(buf, len, "%s-%dp", g->rules->id, g->seats);
	for (int s = 0; s < g->seats; s++)
		side[s] = s;
}

json_t *engine_seats_json(unsigned bits)
{
	json_t *a = json_array();
	for (int s = 0; a && s < ENGINE_MAX_SEATS; s++)
		if ((bits & (1u << s)) &&
		    json_array_append_new(a, json_integer(s)) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *engine_result_json(const struct engine_game *g)
{
	struct rules_result res;
	if (!engine_game_result(g, &res))
		return json_null();
	return json_pack("{s:o,s:s}", "winners", engine_seats_json(res.winners),
	                 "reason", res.reason);
}

json_t *engine_game_view(const struct engine_game *g, int viewer)
{
	struct rules_result res;
	return g->rules->view(g->state, viewer, engine_game_result(g, &res));
}

json_t *engine_game_actions(const struct engine_game *g, int seat)
{
	struct engine_actions list = {0};
	json_t *arr = json_array();
	if (!arr || engine_game_legal(g, seat, &list)) {
		engine_actions_free(&list);
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < list.n; i++)
		if (json_array_append_new(arr,
		                          g->rules->action_json(&list.v[i]))) {
			json_decref(arr);
			arr = NULL;
			break;
		}
	engine_actions_free(&list);
	return arr;
}

json_t *engine_move_view(const struct engine_game *after,
                         const struct engine_game *now, int actor,
                         const json_t *action, int viewer)
{
	if (engine_action_is_resign(action))
		return json_deep_copy(action);
	struct rules_result res;
	return after->rules->move_view(after->state, now->state, actor, action,
	                               viewer, engine_game_result(now, &res));
}

json_t *engine_move_outcome(const struct engine_game *after,
                            const struct engine_game *now, int actor,
                            const json_t *action, int viewer)
{
	if (after->autoplayed)
		return json_null();
	if (engine_action_is_resign(action) || !after->rules->move_outcome)
		return json_object();
	struct rules_result res;
	return after->rules->move_outcome(after->state, actor, viewer,
	                                  engine_game_result(now, &res));
}
