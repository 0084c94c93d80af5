/* test_engine.c: the game-agnostic engine, driven by a toy rules module
 * ("race to 10": seats take turns adding 1 or 2; whoever reaches 10 wins).
 * Covers apply-on-a-copy, resignation and the random auto-play of
 * resigned seats, determinism of replays, and the state cache. */
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/engine.h"
#include "engine/secret.h"
#include "testhelp.h"

struct race {
	int seats;  /* 2..4 */
	int turn;   /* seat to act */
	int total;  /* 0..10 */
	int winner; /* -1 while running */
};

static int race_setup(void *state, int seats, const json_t *options,
                      const json_t *setup, struct rng *rng,
                      struct rules_why *why)
{
	(void)options, (void)setup, (void)why;
	struct race *r = state;
	r->seats = seats;
	r->turn = (int)rng_below(rng, (uint32_t)seats);
	r->total = 0;
	r->winner = -1;
	return 0;
}

static unsigned race_to_act(const void *state)
{
	const struct race *r = state;
	return r->winner >= 0 ? 0 : 1u << r->turn;
}

/* A native race action: how much to add (1 or 2). */
static size_t race_legal(const void *state, int seat, struct engine_action *out,
                         size_t cap)
{
	if (!(race_to_act(state) & (1u << seat)))
		return 0;
	for (size_t i = 0; i < 2 && i < cap; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].bytes[0] = (unsigned char)(i + 1);
	}
	return 2;
}

static int race_play(void *state, int seat, const struct engine_action *a,
                     struct rng *rng, struct rules_why *why)
{
	(void)rng;
	struct race *r = state;
	int n = a->bytes[0];
	if (n < 1 || n > 2)
		return rules_fail(why, BD_EILLEGAL, "§1", "add 1 or 2");
	r->total += n;
	if (r->total >= 10)
		r->winner = seat;
	r->turn = (r->turn + 1) % r->seats;
	return 0;
}

static int race_action_parse(const json_t *action, struct engine_action *out,
                             struct rules_why *why)
{
	(void)why;
	json_int_t n = json_integer_value(json_object_get(action, "n"));
	memset(out, 0, sizeof *out);
	out->bytes[0] = n >= 1 && n <= 2 ? (unsigned char)n : 0;
	return 0;
}

static json_t *race_action_json(const struct engine_action *a)
{
	return json_pack("{s:s,s:i}", "type", "add", "n", a->bytes[0]);
}

static void race_determinize(void *state, int viewer, struct rng *rng)
{
	(void)state, (void)viewer, (void)rng; /* nothing is hidden */
}

static json_t *race_view(const void *state, int viewer, int over)
{
	(void)viewer, (void)over;
	const struct race *r = state;
	return json_pack("{s:i}", "total", r->total);
}

static json_t *race_move_view(const void *after, const void *now, int actor,
                              const json_t *action, int viewer, int over)
{
	(void)after, (void)now, (void)actor, (void)viewer, (void)over;
	return json_deep_copy(action);
}

static int race_result(const void *state, struct rules_result *out)
{
	const struct race *r = state;
	if (r->winner < 0)
		return 0;
	out->winners = 1u << r->winner;
	out->reason = "ten";
	return 1;
}

static json_t *race_catalog(void)
{
	return json_object();
}

static const struct rules race_rules = {
    .id = "race",
    .title = "Race to 10",
    .version = 1,
    .min_seats = 2,
    .max_seats = 4,
    .state_size = sizeof(struct race),
    .catalog = race_catalog,
    .setup = race_setup,
    .to_act = race_to_act,
    .action_size = 1,
    .legal = race_legal,
    .play = race_play,
    .action_parse = race_action_parse,
    .action_json = race_action_json,
    .determinize = race_determinize,
    .view = race_view,
    .move_view = race_move_view,
    .result = race_result,
};

static struct engine_game *new_game(int seats, uint64_t seed)
{
	struct engine_game *g = NULL;
	struct rules_why why;
	engine_game_new(&race_rules, seats, NULL, NULL, seed, &g, &why);
	return g;
}

static int apply_json(struct engine_game *g, int seat, const char *text)
{
	json_t *a = json_loads(text, 0, NULL);
	struct rules_why why;
	int rc = engine_game_apply(g, seat, a, &why);
	json_decref(a);
	return rc;
}

static int turn_of(const struct engine_game *g)
{
	return ((const struct race *)g->state)->turn;
}

static void test_refused_move_changes_nothing(void)
{
	struct engine_game *g = new_game(2, 1);
	struct engine_game *before = engine_game_clone(g);
	int seat = turn_of(g);
	test_cond("illegal action is refused",
	          apply_json(g, seat, "{\"type\":\"add\",\"n\":3}") ==
	              BD_EILLEGAL);
	test_cond("not your turn is refused",
	          apply_json(g, 1 - seat, "{\"type\":\"add\",\"n\":1}") ==
	              BD_ENOTTURN);
	test_cond("seat out of range is refused",
	          apply_json(g, 7, "{\"type\":\"add\",\"n\":1}") ==
	              BD_EBADREQUEST);
	test_cond("a refused move leaves the game bit for bit",
	          memcmp(g, before, engine_game_size(&race_rules)) == 0);
	test_cond("a legal move advances seq",
	          apply_json(g, seat, "{\"type\":\"add\",\"n\":2}") == 0 &&
	              g->seq == 1);
	engine_game_free(before);
	engine_game_free(g);
}

static void test_two_seat_resignation(void)
{
	struct engine_game *g = new_game(2, 2);
	int seat = turn_of(g);
	struct rules_result res;
	test_cond("resign off turn is allowed",
	          apply_json(g, 1 - seat, "{\"type\":\"resign\"}") == 0);
	test_cond("the other seat wins at once",
	          engine_game_result(g, &res) && res.winners == 1u << seat &&
	              strcmp(res.reason, "resignation") == 0);
	test_cond("nobody acts after it", engine_game_to_act(g) == 0);
	test_cond("no move after it",
	          apply_json(g, seat, "{\"type\":\"add\",\"n\":1}") ==
	              BD_EGAMEOVER);
	engine_game_free(g);
}

/* Three seats, seat 1 resigns: its turns are played for it, the game goes
 * on, and the same log replays to the same bytes. */
static void test_resigned_seat_is_played_randomly(void)
{
	const char *add = "{\"type\":\"add\",\"n\":1}";
	struct engine_game *a = new_game(3, 99), *b = new_game(3, 99);
	test_cond("resign with three seats",
	          apply_json(a, 1, "{\"type\":\"resign\"}") == 0);
	test_cond("the game goes on", engine_game_to_act(a) != 0);
	test_cond("a resigned seat never waits to act",
	          !(engine_game_to_act(a) & 2u));
	apply_json(b, 1, "{\"type\":\"resign\"}");
	int again = apply_json(a, 1, "{\"type\":\"resign\"}");
	test_cond("resigning twice is illegal", again == BD_EILLEGAL);
	struct rules_result res;
	for (int i = 0; i < 20 && !engine_game_result(a, &res); i++) {
		int seat = turn_of(a);
		apply_json(a, seat, add);
		apply_json(b, seat, add);
	}
	test_cond("the game ends", engine_game_result(a, &res));
	test_cond("replay of the same log is bit for bit",
	          memcmp(a, b, engine_game_size(&race_rules)) == 0);
	engine_game_free(a);
	engine_game_free(b);
}

/* A game stored under a version from logs_resigned_from on leaves its
 * resigned seats' decisions to the caller, who logs them as moves
 * (engine_game_stored_under); an older one has them played inside apply,
 * and the move they followed has an unknown outcome (null). */
static void test_resigned_seat_left_to_the_caller(void)
{
	struct rules logged = race_rules;
	logged.version = 2;
	logged.logs_resigned_from = 2;
	struct engine_game *g = NULL, *old = NULL;
	struct rules_why why;
	engine_game_new(&logged, 3, NULL, NULL, 7, &g, &why);
	engine_game_new(&logged, 3, NULL, NULL, 7, &old, &why);
	engine_game_stored_under(g, 2);
	engine_game_stored_under(old, 1);
	test_cond("stored under the version that logs them: the caller plays",
	          g->autoplay == 0 && old->autoplay == 1);
	json_t *resign = json_pack("{s:s}", "type", "resign");
	int rs = (turn_of(g) + 1) % 3; /* the next seat to act resigns */
	apply_json(g, rs, "{\"type\":\"resign\"}");
	apply_json(old, rs, "{\"type\":\"resign\"}");
	json_t *o = engine_move_outcome(g, g, rs, resign, ENGINE_SPECTATOR);
	test_cond("a resignation's outcome is {}",
	          json_is_object(o) && json_object_size(o) == 0);
	json_decref(o);
	int mover = turn_of(g);
	apply_json(g, mover, "{\"type\":\"add\",\"n\":1}");
	apply_json(old, mover, "{\"type\":\"add\",\"n\":1}");
	test_cond("the resigned seat waits for the caller",
	          engine_game_resigned_due(g) == rs &&
	              (engine_game_to_act(g) & (1u << rs)));
	test_cond("in an older game it never waits",
	          engine_game_resigned_due(old) == -1 &&
	              !(engine_game_to_act(old) & (1u << rs)));
	struct engine_actions list = {0};
	engine_game_legal(g, rs, &list);
	test_cond("the caller plays it with a listed action",
	          list.n > 0 &&
	              engine_game_play(g, rs, &list.v[0], &why) == 0 &&
	              engine_game_resigned_due(g) == -1);
	engine_actions_free(&list);
	json_t *add = json_pack("{s:s,s:i}", "type", "add", "n", 1);
	o = engine_move_outcome(old, old, mover, add, ENGINE_SPECTATOR);
	test_cond("a move followed by the engine's auto-play: outcome null",
	          old->autoplayed && json_is_null(o));
	json_decref(o);
	o = engine_move_outcome(g, g, rs, add, ENGINE_SPECTATOR);
	test_cond("rules without move_outcome: {}",
	          !g->autoplayed && json_is_object(o) &&
	              json_object_size(o) == 0);
	json_decref(o);
	json_decref(add);
	json_decref(resign);
	engine_game_free(g);
	engine_game_free(old);
}

static void test_cache(void)
{
	struct engine_cache *c = engine_cache_new(2);
	struct engine_game *g = new_game(2, 5);
	test_cond("miss on an empty cache", engine_cache_get(c, 1) == NULL);
	engine_cache_put(c, 1, g);
	g->seq = 4;
	engine_cache_put(c, 2, g);
	struct engine_game *x = engine_cache_get(c, 1);
	test_cond("hit returns a copy at its seq", x && x->seq == 0);
	engine_game_free(x);
	g->seq = 2;
	engine_cache_put(c, 2, g); /* older than the cached seq 4 */
	x = engine_cache_get(c, 2);
	test_cond("an older state never replaces a newer one",
	          x && x->seq == 4);
	engine_game_free(x);
	engine_cache_put(c, 3, g); /* evicts key 1, least recently used */
	x = engine_cache_get(c, 1);
	test_cond("least recently used is evicted", x == NULL);
	engine_game_free(g);
	engine_cache_free(c);
}

/* An attachment that counts how often it is freed. */
struct counted {
	struct engine_attachment base;
	int *freed;
};

static void counted_free(struct engine_attachment *a)
{
	struct counted *k = (struct counted *)a;
	(*k->freed)++;
	free(k);
}

static struct counted *counted_new(int *freed)
{
	struct counted *k = malloc(sizeof *k);
	k->base.free = counted_free;
	k->freed = freed;
	return k;
}

/* Shared bytes (cache.h): kept for one seq and tag, shared without a
 * copy, dropped by a newer state; an attachment goes with the last
 * reference, whoever holds it, and only one is kept. */
static void test_cache_bytes(void)
{
	struct engine_cache *c = engine_cache_new(2);
	struct engine_game *g = new_game(2, 5);
	g->seq = 3;
	engine_cache_put(c, 7, g);
	struct engine_bytes *b = engine_bytes_new("{\"a\":1}\n", 8), *x = NULL;
	test_cond("new bytes hold a copy",
	          b && engine_bytes_len(b) == 8 &&
	              memcmp(engine_bytes_data(b), "{\"a\":1}\n", 8) == 0);
	engine_cache_bytes_keep(c, 7, 1, 2, 9, b); /* the state is at 3 */
	test_cond("bytes for another seq than the state's are not kept",
	          !engine_cache_bytes_share(c, 7, 1, 2, 9, &x));
	engine_cache_bytes_keep(c, 7, 1, 3, 9, b);
	test_cond("kept bytes are shared, not copied",
	          engine_cache_bytes_share(c, 7, 1, 3, 9, &x) && x == b);
	engine_bytes_release(x);
	test_cond("another tag or slot misses",
	          !engine_cache_bytes_share(c, 7, 1, 3, 8, &x) &&
	              !engine_cache_bytes_share(c, 7, 2, 3, 9, &x));
	int freed = 0, freed2 = 0;
	struct counted *k2 = counted_new(&freed2);
	test_cond("one attachment is kept, a second refused",
	          engine_bytes_attach(b, &counted_new(&freed)->base) &&
	              !engine_bytes_attach(b, &k2->base) &&
	              engine_bytes_attachment(b)->free == counted_free);
	counted_free(&k2->base); /* refused: still ours */
	test_cond("a shared reference sees the attachment",
	          engine_cache_bytes_share(c, 7, 1, 3, 9, &x) &&
	              engine_bytes_attachment(x) != NULL);
	engine_bytes_release(b); /* ours; the cache and x still hold it */
	g->seq = 4;
	engine_cache_put(c, 7, g); /* a newer state drops the slot */
	test_cond("a newer state drops the bytes, a reader still has them",
	          !engine_cache_bytes_share(c, 7, 1, 3, 9, &b) && freed == 0 &&
	              memcmp(engine_bytes_data(x), "{\"a\":1}", 7) == 0);
	engine_bytes_release(x);
	test_cond("the last reference frees the attachment once",
	          freed == 1 && freed2 == 1);
	b = engine_bytes_new("x", 1);
	engine_cache_bytes_keep(c, 7, 0, 4, 0, b);
	engine_bytes_attach(b, &counted_new(&freed)->base);
	engine_bytes_release(b);
	engine_cache_free(c); /* the cache's reference was the last */
	test_cond("freeing the cache frees what its bytes hold", freed == 2);
	engine_game_free(g);
}

/* Snapshots (engine.h): the bytes give the game back bit for bit; bytes
 * of another length, format or state size are refused. */
static void test_snapshot(void)
{
	struct engine_game *g = new_game(2, 5);
	g->seq = 9;
	g->resigned = 2;
	size_t n = engine_snapshot_size(g->rules);
	unsigned char *b = malloc(n + 1);
	engine_snapshot_write(g, b);
	struct engine_game *x = NULL;
	test_cond("snapshot: read back bit for bit",
	          engine_snapshot_read(g->rules, b, n, &x) == 0 &&
	              memcmp(x, g, engine_game_size(g->rules)) == 0);
	engine_game_free(x);
	test_cond("snapshot: a wrong length is refused",
	          engine_snapshot_read(g->rules, b, n - 1, &x) == BD_ENOTFOUND);
	b[0] ^= 0x40; /* the format stamp */
	test_cond("snapshot: another format is refused",
	          engine_snapshot_read(g->rules, b, n, &x) == BD_ENOTFOUND);
	free(b);
	engine_game_free(g);
}

static void test_rng(void)
{
	struct rng a, b;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	int same = 1, in_range = 1;
	for (int i = 0; i < 1000; i++) {
		uint32_t x = rng_below(&a, 6), y = rng_below(&b, 6);
		same &= x == y;
		in_range &= x < 6;
	}
	test_cond("same seed, same numbers", same);
	test_cond("rng_below stays below n", in_range);
	rng_seed(&a, 0);
	test_cond("seed 0 is usable", rng_next(&a) != rng_next(&a));
	test_cond("rng_below(0) is 0", rng_below(&a, 0) == 0);
}

/* docs/shuffles.md, seed format 2: the generator's state is SHA-256 of
 * the secret as four little-endian words, and the commitment is
 * SHA-256(secret || salt).  The expected numbers come from an
 * independent implementation of that text (Python's hashlib and a
 * transcription of xoshiro256**, rng_below and the Fisher-Yates loop),
 * not from this code. */
static void test_secret(void)
{
	struct engine_secret s = {.format = ENGINE_SEED_SECRET};
	for (int i = 0; i < 32; i++) {
		s.secret[i] = (uint8_t)i;
		s.salt[i] = (uint8_t)(32 + i);
	}
	uint8_t c[ENGINE_HASH_BYTES];
	char hex[2 * ENGINE_HASH_BYTES + 1];
	engine_secret_commitment(&s, c);
	engine_hex(c, sizeof c, hex);
	test_cond("commitment: SHA-256(secret || salt)",
	          strcmp(hex, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a"
	                      "8c447cd1d9151108") == 0);
	struct rng r;
	engine_secret_rng(&s, &r);
	uint64_t a = rng_next(&r), b = rng_next(&r);
	test_cond("seeding from a secret: the documented first numbers",
	          a == 0x8f3575db63a1c0f6ull && b == 0xb10ee141dda508d4ull);
	static const uint32_t dice[8] = {0, 4, 5, 5, 5, 0, 5, 1};
	int same = 1;
	engine_secret_rng(&s, &r);
	for (int i = 0; i < 8; i++)
		same &= rng_below(&r, 6) == dice[i];
	test_cond("rng_below(6) from the secret: the documented draws", same);
	static const uint8_t dealt[10] = {2, 9, 8, 7, 4, 5, 6, 3, 1, 0};
	uint8_t deck[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	engine_secret_rng(&s, &r);
	rng_shuffle_u8(&r, deck, 10);
	test_cond("rng_shuffle_u8 from the secret: the documented order",
	          memcmp(deck, dealt, sizeof deck) == 0);
	s.salt[31] ^= 1;
	uint8_t c2[ENGINE_HASH_BYTES];
	engine_secret_commitment(&s, c2);
	test_cond("commitment: another salt, another commitment",
	          memcmp(c, c2, sizeof c) != 0);
	/* seed format 1 is rng_seed, as before 256-bit secrets */
	struct engine_secret old = {.format = ENGINE_SEED_64, .seed = 42};
	struct rng x, y;
	engine_secret_rng(&old, &x);
	rng_seed(&y, 42);
	test_cond("seed format 1 seeds as rng_seed",
	          memcmp(x.s, y.s, sizeof x.s) == 0);
	uint64_t zero[4] = {0};
	rng_seed_words(&x, zero);
	test_cond("an all-zero state becomes {1, 0, 0, 0}",
	          x.s[0] == 1 && !x.s[1] && !x.s[2] && !x.s[3] &&
	              rng_next(&x) != rng_next(&x));
	uint8_t back[4];
	test_cond("hex: round trip and refusals",
	          engine_unhex("00ff7A10", back, 4) == 0 && back[1] == 0xff &&
	              back[2] == 0x7a && engine_unhex("00ff7A1", back, 4) < 0 &&
	              engine_unhex("00ff7A1g", back, 4) < 0 &&
	              engine_unhex("00ff7A1000", back, 4) < 0);
}

int main(void)
{
	test_refused_move_changes_nothing();
	test_two_seat_resignation();
	test_resigned_seat_is_played_randomly();
	test_resigned_seat_left_to_the_caller();
	test_cache();
	test_cache_bytes();
	test_snapshot();
	test_rng();
	test_secret();
	return test_report("engine");
}
