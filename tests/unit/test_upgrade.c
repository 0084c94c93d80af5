/* test_upgrade.c: upgrades never strand a game (docs/upgrades.md,
 * sql/0016_state_hashes.sql), through the service and a real store file.
 *
 * A test-only rules module, "tally", in two versions: seats take turns
 * adding 1, 2 or 3 to a total, six moves in all.  Version 2 is a "rules
 * fix": adding 3 adds 4.  A database of games in progress is made under
 * version 1 (every move stored with its state hash); then the server is
 * "upgraded" (the registry holds version 2, and version 1 as the older
 * version the module keeps) and restarted:
 *   - a game that never added 3 replays to the same hashes: it moves to
 *     version 2 and plays by it (3 adds 4);
 *   - a game that added 3 differs at that move: it stays on version 1,
 *     still plays by it (3 adds 3), and the difference is recorded, so the
 *     next restart does not replay it again;
 *   - a game with no move yet (same setup) moves;
 *   - a game whose moves have no hash (logged before 0016) gets its
 *     hashes from version 1 on the check, and moves;
 *   - without version 1 kept, the diverged game is refused as before and
 *     the others play on.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "engine/engine.h"
#include "games/agent_avenue/aa.h"
#include "service/service.h"
#include "store/store.h"
#include "testhelp.h"

/* ---- the test-only module ---- */

#define TALLY_MOVES 6

struct tally {
	int32_t total, turn, moves, unused; /* no padding */
};

struct tally_action {
	uint8_t n; /* 1..3 */
};

static json_t *tally_catalog(void)
{
	return json_object();
}

static int tally_setup(void *state, int seats, const json_t *options,
                       const json_t *setup, struct rng *rng,
                       struct rules_why *why)
{
	(void)seats, (void)options, (void)setup, (void)rng, (void)why;
	memset(state, 0, sizeof(struct tally));
	return 0;
}

static unsigned tally_to_act(const void *state)
{
	const struct tally *t = state;
	return t->moves >= TALLY_MOVES ? 0 : 1u << t->turn;
}

static size_t tally_legal(const void *state, int seat,
                          struct engine_action *out, size_t cap)
{
	if (!(tally_to_act(state) >> seat & 1))
		return 0;
	for (size_t i = 0; i < 3 && i < cap; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].bytes[0] = (unsigned char)(i + 1);
	}
	return 3;
}

/* Version 1: n adds n.  Version 2: 3 adds 4. */
static int tally_play_v(void *state, const struct engine_action *a, int version)
{
	struct tally *t = state;
	int n = a->bytes[0];
	t->total += version >= 2 && n == 3 ? 4 : n;
	t->turn ^= 1;
	t->moves++;
	return 0;
}

static int tally_play_1(void *state, int seat, const struct engine_action *a,
                        struct rng *rng, struct rules_why *why)
{
	(void)seat, (void)rng, (void)why;
	return tally_play_v(state, a, 1);
}

static int tally_play_2(void *state, int seat, const struct engine_action *a,
                        struct rng *rng, struct rules_why *why)
{
	(void)seat, (void)rng, (void)why;
	return tally_play_v(state, a, 2);
}

static int tally_parse(const json_t *action, struct engine_action *out,
                       struct rules_why *why)
{
	json_int_t n = json_integer_value(json_object_get(action, "n"));
	memset(out, 0, sizeof *out);
	if (n < 1 || n > 3) {
		snprintf(why->detail, sizeof why->detail, "n is 1, 2 or 3");
		return BD_EILLEGAL;
	}
	out->bytes[0] = (unsigned char)n;
	return 0;
}

static json_t *tally_action_json(const struct engine_action *a)
{
	return json_pack("{s:s,s:i}", "type", "add", "n", a->bytes[0]);
}

static void tally_determinize(void *state, int viewer, struct rng *rng)
{
	(void)state, (void)viewer, (void)rng;
}

static json_t *tally_view(const void *state, int viewer, int over)
{
	const struct tally *t = state;
	(void)viewer, (void)over;
	return json_pack("{s:i}", "total", t->total);
}

static json_t *tally_move_view(const void *after, const void *now, int actor,
                               const json_t *action, int viewer, int over)
{
	(void)after, (void)now, (void)actor, (void)viewer, (void)over;
	return json_deep_copy(action);
}

static int tally_result(const void *state, struct rules_result *out)
{
	const struct tally *t = state;
	if (t->moves < TALLY_MOVES)
		return 0;
	out->winners = 1u << (t->total & 1);
	out->reason = "total";
	return 1;
}

#define TALLY(v, play_fn)                                                      \
	{                                                                      \
		.id = "tally", .title = "Tally", .version = (v),               \
		.min_seats = 2, .max_seats = 2,                                \
		.state_size = sizeof(struct tally), .catalog = tally_catalog,  \
		.setup = tally_setup, .to_act = tally_to_act,                  \
		.action_size = sizeof(struct tally_action),                    \
		.legal = tally_legal, .play = (play_fn),                       \
		.action_parse = tally_parse, .action_json = tally_action_json, \
		.determinize = tally_determinize, .view = tally_view,          \
		.move_view = tally_move_view, .result = tally_result,          \
	}

static const struct rules tally_v1 = TALLY(1, tally_play_1);
static const struct rules tally_v2 = TALLY(2, tally_play_2);
static const struct rules *const reg_v1[] = {&tally_v1};
static const struct rules *const reg_v2[] = {&tally_v2};

/* ---- helpers ---- */

static char db[128];

struct server {
	struct store *st;
	struct service *svc;
};

static int start(struct server *s)
{
	struct store_config cfg = {
	    .path = db, .connections = 3, .busy_timeout_ms = 5000};
	char err[256];
	if (store_open(&cfg, &s->st, err, sizeof err) < 0) {
		fprintf(stderr, "store_open: %s\n", err);
		return -1;
	}
	s->svc = service_new(s->st, 64);
	return s->svc ? 0 : -1;
}

static void stop(struct server *s)
{
	service_free(s->svc);
	store_close(s->st);
}

struct game {
	char id[STORE_ID_LEN + 1];
	char token[2][128];
};

/* *g from service_create's answer `out`: the id and seats 0 and 1's
 * tokens. */
static void created(const json_t *out, struct game *g)
{
	snprintf(g->id, sizeof g->id, "%s",
	         json_string_value(json_object_get(out, "id")));
	json_t *seats = json_object_get(out, "seats");
	for (int i = 0; i < 2; i++)
		snprintf(g->token[i], sizeof g->token[i], "%s",
		         json_string_value(json_object_get(
		             json_array_get(seats, (size_t)i), "token")));
}

static int create(struct server *s, struct game *g)
{
	json_t *body = json_pack("{s:s,s:[s,s]}", "game", "tally", "seating",
	                         "token", "token");
	json_t *out = NULL;
	struct svc_err err = {0};
	int rc = service_create(s->svc, body, NULL, NULL, NULL, &out, &err);
	json_decref(body);
	if (rc < 0) {
		fprintf(stderr, "create: %d %s\n", rc, err.detail);
		return rc;
	}
	created(out, g);
	json_decref(out);
	return 0;
}

/* The seat to act is the parity of the moves made (turns alternate). */
static int add(struct server *s, struct game *g, int seat, int n)
{
	json_t *body =
	    json_pack("{s:{s:s,s:i}}", "action", "type", "add", "n", n);
	json_t *out = NULL;
	uint64_t seq = 0;
	struct svc_err err = {0};
	int rc = service_move(s->svc, g->id, g->token[seat], body, NULL, NULL,
	                      &out, &seq, &err);
	if (rc < 0)
		fprintf(stderr, "move: %d %s\n", rc, err.detail);
	json_decref(body);
	json_decref(out);
	return rc;
}

/* The game's rules_version and view total, or -1 each when it cannot be
 * read (rc returned). */
static int look(struct server *s, const struct game *g, int *version,
                int *total)
{
	json_t *out = NULL;
	uint64_t seq = 0;
	struct svc_err err = {0};
	*version = *total = -1;
	int rc = service_game(s->svc, g->id, NULL, &out, &seq, &err);
	if (rc == 0) {
		*version = (int)json_integer_value(
		    json_object_get(out, "rules_version"));
		*total = (int)json_integer_value(
		    json_object_get(json_object_get(out, "view"), "total"));
	}
	json_decref(out);
	return rc;
}

/* One integer from SQL text with one game id parameter (?1), or -1. */
static long long sql_int(const char *sql, const char *id)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	long long v = -1;
	if (sqlite3_open(db, &h) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (id)
			sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static int sql_exec(const char *sql, const char *id)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_open(db, &h) == SQLITE_OK &&
	         sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	         sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC) == SQLITE_OK &&
	         sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	sqlite3_close(h);
	return ok ? 0 : -1;
}

#define HASHED                                                                 \
	"SELECT count(*) FROM moves m JOIN games g ON g.key = m.game_key "     \
	"WHERE g.id = ?1 AND length(m.state_hash) = 16"
#define CHECKS                                                                 \
	"SELECT count(*) FROM rules_checks c JOIN games g "                    \
	"ON g.key = c.game_key WHERE g.id = ?1"
#define CHECK_SEQ                                                              \
	"SELECT c.seq FROM rules_checks c JOIN games g "                       \
	"ON g.key = c.game_key WHERE g.id = ?1"

static void hash_cases(void)
{
	struct engine_game *a = NULL, *b = NULL;
	struct rules_why why;
	unsigned char ha[ENGINE_STATE_HASH_BYTES], hb[ENGINE_STATE_HASH_BYTES];
	engine_game_new(&tally_v1, 2, NULL, NULL, 7, &a, &why);
	engine_game_new(&tally_v1, 2, NULL, NULL, 7, &b, &why);
	engine_state_hash(a, ha);
	engine_state_hash(b, hb);
	test_cond("the same game, the same hash",
	          memcmp(ha, hb, sizeof ha) == 0);
	json_t *three = json_pack("{s:s,s:i}", "type", "add", "n", 3);
	engine_game_apply(b, 0, three, &why);
	engine_state_hash(b, hb);
	test_cond("a move changes the hash", memcmp(ha, hb, sizeof ha) != 0);
	engine_game_free(b);
	engine_game_new(&tally_v1, 2, NULL, NULL, 8, &b, &why);
	engine_state_hash(b, hb);
	test_cond("another seed (generator), another hash",
	          memcmp(ha, hb, sizeof ha) != 0);
	json_decref(three);
	engine_game_free(a);
	engine_game_free(b);
}

/* ---- a resigned chain's hashes, replayed (agent-avenue) ---- */

/* Agent Avenue as a next version that replays nothing older by
 * shortcut: a game stored under aa_rules moves to it only if every
 * stored hash is the one a replay of the log gives, move by move. */
static struct rules aa_next;
static const struct rules *const reg_aa_next[] = {&aa_next};
static const struct rules *const reg_aa_old[] = {&aa_rules};

/* A three-seat Agent Avenue game, seat 2 resigned, played on by seats 0
 * and 1 (first listed action) until `moves` moves are logged (the resigned
 * seat's turns among them, chains of them after a move) or it ends. */
static int aa_chain_game(struct server *s, struct game *g, char tok2[128],
                         uint64_t moves, uint64_t *seq_out)
{
	json_t *body = json_pack("{s:s,s:[s,s,s]}", "game", "agent-avenue",
	                         "seating", "token", "token", "token");
	json_t *out = NULL;
	struct svc_err err = {0};
	uint64_t seq = 0;
	int rc = service_create(s->svc, body, NULL, NULL, NULL, &out, &err);
	json_decref(body);
	if (rc < 0)
		return rc;
	created(out, g);
	snprintf(
	    tok2, 128, "%s",
	    json_string_value(json_object_get(
	        json_array_get(json_object_get(out, "seats"), 2), "token")));
	json_decref(out);
	out = NULL;
	rc = service_resign(s->svc, g->id, tok2, NULL, &out, &seq, &err);
	json_decref(out);
	while (rc == 0 && seq < moves) {
		out = NULL;
		if ((rc = service_game(s->svc, g->id, NULL, &out, &seq, &err)) <
		    0)
			break;
		json_t *to_act = json_object_get(out, "to_act");
		int seat =
		    json_array_size(to_act)
		        ? (int)json_integer_value(json_array_get(to_act, 0))
		        : -1;
		const char *status =
		    json_string_value(json_object_get(out, "status"));
		int over = status && strcmp(status, "finished") == 0;
		json_decref(out);
		if (over)
			break;
		if (seat < 0 || seat > 1) {
			fprintf(stderr, "seat %d to act at seq %llu\n", seat,
			        (unsigned long long)seq);
			return BD_EINTERNAL; /* the resigned seat waits: a bug
			                      */
		}
		out = NULL;
		if ((rc = service_actions(s->svc, g->id, g->token[seat], &out,
		                          &err)) < 0)
			break;
		json_t *acts = json_object_get(out, "actions");
		json_t *pick =
		    json_array_get(acts, seq % json_array_size(acts));
		json_object_del(pick, "label");
		json_t *mv = json_pack("{s:O}", "action", pick);
		json_decref(out);
		out = NULL;
		rc = service_move(s->svc, g->id, g->token[seat], mv, NULL, NULL,
		                  &out, &seq, &err);
		json_decref(mv);
		json_decref(out);
	}
	if (rc < 0)
		fprintf(stderr, "aa chain game: %d %s\n", rc, err.detail);
	*seq_out = seq;
	return rc;
}

#define RESIGNED_MOVES                                                         \
	"SELECT count(*) FROM moves m JOIN games g ON g.key = m.game_key "     \
	"WHERE g.id = ?1 AND m.reason = 'resigned'"

#define CHAIN_GAMES 6

static void resigned_chain_cases(void)
{
	struct server s;
	struct game g[CHAIN_GAMES];
	char tok2[128];
	uint64_t seq = 0;
	long long resigned = 0, hashed = 0, moves = 0;
	engine_registry_replace(NULL, 0, NULL, 0);
	int ok = start(&s) == 0;
	for (int i = 0; ok && i < CHAIN_GAMES; i++) {
		ok = aa_chain_game(&s, &g[i], tok2, 400, &seq) == 0;
		moves += (long long)seq;
	}
	stop(&s);
	test_cond("agent-avenue games with a resigned seat, played out", ok);
	for (int i = 0; ok && i < CHAIN_GAMES; i++) {
		resigned += sql_int(RESIGNED_MOVES, g[i].id);
		hashed += sql_int(HASHED, g[i].id);
	}
	test_cond("the resigned seat's turns are logged moves", resigned > 10);
	test_cond("every move is stored with its state hash", hashed == moves);
	aa_next = aa_rules;
	aa_next.version = aa_rules.version + 1;
	aa_next.replays_from = aa_next.version;
	engine_registry_replace(reg_aa_next, 1, reg_aa_old, 1);
	ok = ok && start(&s) == 0;
	int moved = 0;
	for (int i = 0; ok && i < CHAIN_GAMES; i++) {
		json_t *out = NULL;
		struct svc_err err = {0};
		uint64_t at = 0;
		if (service_game(s.svc, g[i].id, NULL, &out, &at, &err) == 0 &&
		    json_integer_value(json_object_get(out, "rules_version")) ==
		        aa_next.version &&
		    sql_int(CHECKS, g[i].id) == 0)
			moved++;
		json_decref(out);
	}
	test_cond("each move's hash is the state right after it, as a replay "
	          "of the log gives (every game moves to the next version)",
	          moved == CHAIN_GAMES);
	if (ok)
		stop(&s);
	engine_registry_replace(NULL, 0, NULL, 0);
}

int main(void)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/tmp/test_upgrade.XXXXXX");
	if (!mkdtemp(dir) || sodium_init() < 0)
		return 1;
	snprintf(db, sizeof db, "%s/upgrade.db", dir);
	engine_registry_replace(reg_v1, 1, NULL, 0);
	hash_cases();

	/* 1. The database of games in progress, under version 1. */
	struct server s;
	struct game same, differs, fresh, unhashed;
	int ok = start(&s) == 0 && create(&s, &same) == 0 &&
	         create(&s, &differs) == 0 && create(&s, &fresh) == 0 &&
	         create(&s, &unhashed) == 0;
	test_cond("games created under version 1", ok);
	ok = add(&s, &same, 0, 1) == 0 && add(&s, &same, 1, 2) == 0 &&
	     add(&s, &same, 0, 1) == 0;
	ok &= add(&s, &differs, 0, 1) == 0 && add(&s, &differs, 1, 3) == 0 &&
	      add(&s, &differs, 0, 2) == 0;
	ok &= add(&s, &unhashed, 0, 2) == 0 && add(&s, &unhashed, 1, 2) == 0;
	test_cond("moves played under version 1", ok);
	int v, total;
	test_cond("version 1: 3 adds 3",
	          look(&s, &differs, &v, &total) == 0 && v == 1 && total == 6);
	stop(&s);
	test_cond("every move is stored with its state hash",
	          sql_int(HASHED, same.id) == 3 &&
	              sql_int(HASHED, differs.id) == 3);
	/* Moves logged before sql/0016 have no hash. */
	sql_exec("UPDATE moves SET state_hash = NULL WHERE game_key = "
	         "(SELECT key FROM games WHERE id = ?1)",
	         unhashed.id);
	test_cond("a game as logged before 0016",
	          sql_int(HASHED, unhashed.id) == 0);

	/* 2. The upgrade: version 2, with version 1 kept; a restart. */
	engine_registry_replace(reg_v2, 1, reg_v1, 1);
	ok = start(&s) == 0;
	test_cond("restarted under version 2", ok);
	test_cond("a game that replays the same moves to version 2",
	          look(&s, &same, &v, &total) == 0 && v == 2 && total == 4);
	test_cond("its row moved",
	          sql_int("SELECT rules_version FROM games WHERE id = ?1",
	                  same.id) == 2);
	test_cond("and it plays by version 2 (3 adds 4)",
	          add(&s, &same, 1, 3) == 0 &&
	              look(&s, &same, &v, &total) == 0 && v == 2 && total == 8);
	test_cond("a game that diverges stays on version 1",
	          look(&s, &differs, &v, &total) == 0 && v == 1 && total == 6);
	test_cond("and still plays, by version 1 (3 adds 3)",
	          add(&s, &differs, 1, 3) == 0 &&
	              look(&s, &differs, &v, &total) == 0 && v == 1 &&
	              total == 9);
	test_cond("the move where it differed is recorded",
	          sql_int(CHECK_SEQ, differs.id) == 2);
	test_cond("a game with no move yet moves",
	          look(&s, &fresh, &v, &total) == 0 && v == 2 && total == 0);
	test_cond("a game without hashes gets them from version 1 and moves",
	          look(&s, &unhashed, &v, &total) == 0 && v == 2 &&
	              total == 4 && sql_int(HASHED, unhashed.id) == 2);
	stop(&s);

	/* 3. Another restart: nothing is replayed again. */
	ok = start(&s) == 0;
	test_cond("the diverged game is checked once per version",
	          ok && look(&s, &differs, &v, &total) == 0 && v == 1 &&
	              total == 9 && sql_int(CHECKS, differs.id) == 1);
	test_cond(
	    "the diverged game plays on to its end under version 1",
	    add(&s, &differs, 0, 3) == 0 && add(&s, &differs, 1, 1) == 0 &&
	        look(&s, &differs, &v, &total) == 0 && v == 1 && total == 13);
	stop(&s);

	/* 4. A module that no longer keeps version 1: the diverged game is
	 * refused, as an unknown version was before; the others play. */
	engine_registry_replace(reg_v2, 1, NULL, 0);
	ok = start(&s) == 0;
	test_cond("without version 1, the diverged game is refused",
	          ok && look(&s, &differs, &v, &total) == BD_EINTERNAL);
	test_cond("and the upgraded ones play on",
	          look(&s, &same, &v, &total) == 0 && v == 2 && total == 8 &&
	              add(&s, &fresh, 0, 3) == 0 &&
	              look(&s, &fresh, &v, &total) == 0 && total == 4);
	stop(&s);

	resigned_chain_cases();

	engine_registry_replace(NULL, 0, NULL, 0);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return test_report("upgrade");
}
