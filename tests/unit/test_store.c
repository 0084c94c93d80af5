/* test_store.c: the SQLite store against its contract in store.h.
 *
 * Every case opens its own database file in a fresh temporary directory
 * (removed at the end), so cases do not see each other's games.  Raw
 * sqlite3 calls inspect or tamper with a file from outside the store.
 */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/migrations.h"
#include "store/store_int.h" /* store__stmt_sql: the plans */
#include "store/store.h"
#include "testhelp.h"

#define APPLICATION_ID 0x62726464 /* 'brdd', what driver_sqlite.c writes */
#define RACE_MOVES     200        /* appends per racing thread */
/* Token-held seats from an array of token hashes, for store_game_create. */
#define HASHES(h) token_seats(h, (int)(sizeof(h) / sizeof(h)[0]))
static const struct store_seat *token_seats(uint8_t (*h)[STORE_TOKEN_HASH_LEN],
                                            int n)
{
	static struct store_seat seats[4];
	for (int i = 0; i < n && i < 4; i++) {
		memset(&seats[i], 0, sizeof seats[i]);
		seats[i].seat = i;
		seats[i].has_token = 1;
		memcpy(seats[i].token_hash, h[i], STORE_TOKEN_HASH_LEN);
	}
	return seats;
}

static char tmpdir[64]; /* mkdtemp'd directory holding every database */

/* ---- helpers --------------------------------------------------------- */

static const char *db_path(const char *name)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s.db", tmpdir, name);
	return path;
}

static int open_store(const char *name, int connections, struct store **s)
{
	struct store_config cfg = {.path = db_path(name),
	                           .sync_full = 0,
	                           .connections = connections,
	                           .busy_timeout_ms = 5000};
	char err[256] = "";
	int rc = store_open(&cfg, s, err, sizeof err);
	if (rc < 0)
		fprintf(stderr, "store_open %s: %s\n", name, err);
	return rc;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A token hash that differs per (game tag, seat). */
static void token_hash(uint8_t h[STORE_TOKEN_HASH_LEN], int tag, int seat)
{
	for (int i = 0; i < STORE_TOKEN_HASH_LEN; i++)
		h[i] = (uint8_t)(tag * 31 + seat * 7 + i);
}

/* A game to create: `tag` makes its id and token hashes unique. */
static struct store_game new_game(int tag, const char *rules_id,
                                  const char *status)
{
	struct store_game g = {.rules_version = 3,
	                       .seats = 2,
	                       .seed = 0x8000000000000001u + (uint64_t)tag,
	                       .options = "{\"variant\":\"basic\"}",
	                       .to_act = 1};
	snprintf(g.id, sizeof g.id, "%016x", (unsigned)tag);
	snprintf(g.rules_id, sizeof g.rules_id, "%s", rules_id);
	snprintf(g.status, sizeof g.status, "%s", status);
	return g;
}

/* Creates new_game(tag, ...) with token_hash(tag, seat) hashes. */
static int create_game(struct store *s, int tag, const char *rules_id,
                       const char *status, int64_t *key)
{
	struct store_game g = new_game(tag, rules_id, status);
	uint8_t hashes[2][STORE_TOKEN_HASH_LEN];
	token_hash(hashes[0], tag, 0);
	token_hash(hashes[1], tag, 1);
	return store_game_create(s, &g, HASHES(hashes), NULL, key);
}

/* The first column of the first row of sql on the file `name`, as an
 * integer and (if text is not NULL) as text. */
static int64_t raw_query(const char *name, const char *sql, char *text,
                         size_t textlen)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	int64_t v = -999;
	if (sqlite3_open(db_path(name), &db) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		v = sqlite3_column_int64(st, 0);
		if (text)
			snprintf(text, textlen, "%s",
			         (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static int raw_exec(const char *name, const char *sql)
{
	sqlite3 *db;
	int rc = sqlite3_open(db_path(name), &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

static int64_t count_moves(const char *name)
{
	return raw_query(name, "SELECT count(*) FROM moves", NULL, 0);
}

/* The moves store_moves_each reported. */
struct seen_moves {
	int n;                /* moves seen */
	int stop_after;       /* return -99 after this many; 0: never */
	uint64_t seq[512];    /* their seqs, in call order */
	int seat[512];        /* their seats */
	char action[512][32]; /* their action texts */
};

static int see_move(void *ctx, uint64_t seq, int seat, const char *action,
                    const char *reason, int64_t created_ms)
{
	(void)reason, (void)created_ms;
	struct seen_moves *m = ctx;
	if (m->n == 512)
		return -98;
	m->seq[m->n] = seq;
	m->seat[m->n] = seat;
	snprintf(m->action[m->n], sizeof m->action[0], "%s", action);
	m->n++;
	return m->stop_after && m->n == m->stop_after ? -99 : 0;
}

/* The games store_games_each reported. */
struct seen_games {
	int n;          /* games seen */
	int64_t key[8]; /* their keys, in call order */
};

static int see_game(void *ctx, const struct store_game *g)
{
	struct seen_games *l = ctx;
	if (l->n == 8 || strcmp(g->options, "{\"variant\":\"basic\"}") != 0)
		return -98;
	l->key[l->n++] = g->key;
	return 0;
}

static struct store_move move(int seat, const char *action)
{
	return (struct store_move){.seat = seat,
	                           .action = action,
	                           .status = "active",
	                           .to_act = 1u << (1 - seat)};
}

/* ---- cases ----------------------------------------------------------- */

static void test_open_creates_schema(void)
{
	struct store *s = NULL;
	test_cond("open: a new file opens", open_store("fresh", 1, &s) == 0);
	store_close(s);
	test_cond("open: user_version is the number of migrations",
	          raw_query("fresh", "PRAGMA user_version", NULL, 0) ==
	              (int64_t)store_migrations_count);
	test_cond("open: application_id is brdd",
	          raw_query("fresh", "PRAGMA application_id", NULL, 0) ==
	              APPLICATION_ID);
	char mode[16] = "";
	raw_query("fresh", "PRAGMA journal_mode", mode, sizeof mode);
	test_cond("open: the file is in WAL mode", strcmp(mode, "wal") == 0);
	test_cond("open: games, seats and moves exist",
	          raw_query("fresh",
	                    "SELECT count(*) FROM sqlite_schema WHERE "
	                    "type = 'table' AND name IN "
	                    "('games', 'seats', 'moves')",
	                    NULL, 0) == 3);
	test_cond("open: the token index exists",
	          raw_query("fresh",
	                    "SELECT count(*) FROM sqlite_schema WHERE "
	                    "name = 'seats_by_token'",
	                    NULL, 0) == 1);
}

static void test_reopen_is_idempotent(void)
{
	struct store *s = NULL;
	int64_t key = 0;
	open_store("reopen", 1, &s);
	test_cond("reopen: a game is created",
	          create_game(s, 1, "agent-avenue", "active", &key) == 0);
	store_close(s);
	s = NULL;
	test_cond("reopen: the file opens again",
	          open_store("reopen", 3, &s) == 0);
	struct store_game g = {0};
	test_cond("reopen: the game is still there",
	          store_game_get(s, "0000000000000001", &g) == 0 &&
	              g.key == key);
	store_game_release(&g);
	store_close(s);
	test_cond("reopen: user_version is unchanged",
	          raw_query("reopen", "PRAGMA user_version", NULL, 0) ==
	              (int64_t)store_migrations_count);
	test_cond("reopen: the schema was not applied twice",
	          raw_query("reopen",
	                    "SELECT count(*) FROM sqlite_schema "
	                    "WHERE name = 'games'",
	                    NULL, 0) == 1);
}

static void test_create_get_round_trip(void)
{
	struct store *s = NULL;
	open_store("roundtrip", 1, &s);
	struct store_game in = new_game(0xabc, "agent-avenue", "active");
	in.rules_version = 7;
	in.seats = 3;
	in.seed = 0xfedcba9876543210u; /* top bit set */
	in.setup = "{\"deck\":[1,2,3]}";
	in.to_act = 5;
	uint8_t hashes[3][STORE_TOKEN_HASH_LEN];
	for (int i = 0; i < 3; i++)
		token_hash(hashes[i], 0xabc, i);
	int64_t key = -1, before = wall_ms();
	test_cond("roundtrip: create succeeds",
	          store_game_create(s, &in, HASHES(hashes), NULL, &key) == 0);
	int64_t after = wall_ms();
	test_cond("roundtrip: the key is a row id", key >= 1);
	struct store_game g = {0};
	int rc = store_game_get(s, "0000000000000abc", &g);
	test_cond("roundtrip: get finds the game", rc == 0);
	if (rc == 0) {
		test_cond("roundtrip: key", g.key == key);
		test_cond("roundtrip: id",
		          strcmp(g.id, "0000000000000abc") == 0);
		test_cond("roundtrip: rules_id",
		          strcmp(g.rules_id, "agent-avenue") == 0);
		test_cond("roundtrip: rules_version", g.rules_version == 7);
		test_cond("roundtrip: seats", g.seats == 3);
		test_cond("roundtrip: seed with the top bit set",
		          g.seed == 0xfedcba9876543210u);
		test_cond("roundtrip: options",
		          strcmp(g.options, "{\"variant\":\"basic\"}") == 0);
		test_cond("roundtrip: setup",
		          g.setup &&
		              strcmp(g.setup, "{\"deck\":[1,2,3]}") == 0);
		test_cond("roundtrip: status", strcmp(g.status, "active") == 0);
		test_cond("roundtrip: seq starts at 0", g.seq == 0);
		test_cond("roundtrip: to_act", g.to_act == 5);
		test_cond("roundtrip: no result", g.result == NULL);
		test_cond("roundtrip: created_ms is now",
		          g.created_ms >= before && g.created_ms <= after);
		test_cond("roundtrip: updated_ms is created_ms",
		          g.updated_ms == g.created_ms);
		store_game_release(&g);
		test_cond("roundtrip: release clears the pointers",
		          !g.options && !g.setup && !g.result);
	}
	struct store_game untouched = {.key = 42};
	test_cond("roundtrip: an unknown id is not found",
	          store_game_get(s, "ffffffffffffffff", &untouched) ==
	              BD_ENOTFOUND);
	test_cond("roundtrip: a failed get writes nothing",
	          untouched.key == 42 && untouched.options == NULL);
	test_cond("roundtrip: create without setup works",
	          create_game(s, 2, "agent-avenue", "active", &key) == 0);
	test_cond("roundtrip: a NULL setup stays NULL",
	          store_game_get(s, "0000000000000002", &g) == 0 &&
	              g.setup == NULL);
	store_game_release(&g);
	store_close(s);
}

static void test_duplicate_id(void)
{
	struct store *s = NULL;
	open_store("dupid", 1, &s);
	int64_t first = 0, key = -7;
	create_game(s, 5, "agent-avenue", "active", &first);
	/* Same id 0000000000000005, other rules and other tokens. */
	struct store_game g = new_game(5, "other-game", "active");
	uint8_t hashes[2][STORE_TOKEN_HASH_LEN];
	token_hash(hashes[0], 99, 0);
	token_hash(hashes[1], 99, 1);
	test_cond("dupid: a taken id is a conflict",
	          store_game_create(s, &g, HASHES(hashes), NULL, &key) ==
	              BD_ECONFLICT);
	test_cond("dupid: key_out is not written", key == -7);
	struct store_game got = {0};
	store_game_get(s, "0000000000000005", &got);
	test_cond("dupid: the first game is unchanged",
	          got.key == first &&
	              strcmp(got.rules_id, "agent-avenue") == 0);
	store_game_release(&got);
	int seat = -1;
	test_cond("dupid: the loser's seats were not written",
	          store_seat_for_token(s, first, hashes[0], &seat) ==
	              BD_ENOTFOUND);
	store_close(s);
	test_cond("dupid: one game row",
	          raw_query("dupid", "SELECT count(*) FROM games", NULL, 0) ==
	              1);
	test_cond("dupid: two seat rows",
	          raw_query("dupid", "SELECT count(*) FROM seats", NULL, 0) ==
	              2);
}

static void test_duplicate_token_rolls_back(void)
{
	struct store *s = NULL;
	open_store("duptoken", 1, &s);
	struct store_game g = new_game(6, "agent-avenue", "active");
	uint8_t hashes[2][STORE_TOKEN_HASH_LEN];
	token_hash(hashes[0], 6, 0);
	token_hash(hashes[1], 6, 0); /* the same token for both seats */
	int64_t key = -7;
	test_cond("duptoken: one token for two seats is refused",
	          store_game_create(s, &g, HASHES(hashes), NULL, &key) ==
	              BD_EINTERNAL);
	struct store_game got = {0};
	test_cond("duptoken: the game row was rolled back",
	          store_game_get(s, "0000000000000006", &got) == BD_ENOTFOUND);
	store_game_release(&got);
	store_close(s);
	test_cond(
	    "duptoken: no seat rows",
	    raw_query("duptoken", "SELECT count(*) FROM seats", NULL, 0) == 0);
}

static void test_seat_for_token(void)
{
	struct store *s = NULL;
	open_store("seats", 1, &s);
	int64_t a = 0, b = 0;
	create_game(s, 10, "agent-avenue", "active", &a);
	create_game(s, 11, "agent-avenue", "active", &b);
	uint8_t h[STORE_TOKEN_HASH_LEN];
	int seat = -1;
	token_hash(h, 10, 1);
	test_cond("seats: seat 1's token finds seat 1",
	          store_seat_for_token(s, a, h, &seat) == 0 && seat == 1);
	token_hash(h, 10, 0);
	test_cond("seats: seat 0's token finds seat 0",
	          store_seat_for_token(s, a, h, &seat) == 0 && seat == 0);
	seat = -1;
	token_hash(h, 11, 0);
	test_cond("seats: another game's token is not found",
	          store_seat_for_token(s, a, h, &seat) == BD_ENOTFOUND);
	memset(h, 0xee, sizeof h);
	test_cond("seats: a wrong hash is not found",
	          store_seat_for_token(s, b, h, &seat) == BD_ENOTFOUND);
	test_cond("seats: a failed lookup writes nothing", seat == -1);
	store_close(s);
}

static void test_append(void)
{
	struct store *s = NULL;
	open_store("append", 1, &s);
	int64_t key = 0;
	create_game(s, 20, "agent-avenue", "active", &key);
	struct store_move m = move(0, "{\"recruit\":1}");
	uint64_t cur = 77;
	test_cond("append: move 1 at expected 0",
	          store_move_append(s, key, 0, &m, NULL, &cur) == 0);
	test_cond("append: success leaves current_seq alone", cur == 77);
	m = move(1, "{\"recruit\":2}");
	test_cond("append: move 2 at expected 1",
	          store_move_append(s, key, 1, &m, NULL, NULL) == 0);
	m = (struct store_move){.seat = 0,
	                        .action = "{\"scrapyard\":true}",
	                        .status = "finished",
	                        .to_act = 0,
	                        .result = "{\"winner\":0}"};
	test_cond("append: move 3 finishes the game",
	          store_move_append(s, key, 2, &m, NULL, NULL) == 0);
	struct store_game g = {0};
	store_game_get(s, "0000000000000014", &g);
	test_cond("append: the game is at seq 3", g.seq == 3);
	test_cond("append: status follows the move",
	          strcmp(g.status, "finished") == 0);
	test_cond("append: to_act follows the move", g.to_act == 0);
	test_cond("append: result follows the move",
	          g.result && strcmp(g.result, "{\"winner\":0}") == 0);
	test_cond("append: updated_ms moved on", g.updated_ms >= g.created_ms);
	store_game_release(&g);
	test_cond("append: an unknown game is not found",
	          store_move_append(s, key + 1, 0, &m, NULL, &cur) ==
	              BD_ENOTFOUND);
	test_cond("append: not found leaves current_seq alone", cur == 77);
	store_close(s);
	test_cond("append: seqs are dense from 1",
	          raw_query("append",
	                    "SELECT count(*) = 3 AND min(seq) = 1 AND "
	                    "max(seq) = 3 FROM moves",
	                    NULL, 0) == 1);
}

/* A move let act by a seat token is appended only while that seat still
 * holds the token (struct store_move's seat_token). */
static void test_append_seat_token(void)
{
	struct store *s = NULL;
	open_store("seattoken", 1, &s);
	int64_t key = 0;
	create_game(s, 40, "agent-avenue", "active", &key);
	uint8_t own[STORE_TOKEN_HASH_LEN], other[STORE_TOKEN_HASH_LEN];
	token_hash(own, 40, 0);
	token_hash(other, 40, 1);
	struct store_move m = move(0, "{\"a\":1}");
	m.seat_token = other;
	test_cond("seat token: another seat's token is refused",
	          store_move_append(s, key, 0, &m, NULL, NULL) ==
	              BD_EFORBIDDEN);
	m.seat_token = own;
	test_cond("seat token: the seat's own token appends",
	          store_move_append(s, key, 0, &m, NULL, NULL) == 0);
	store_close(s);
	/* The seat's token replaced behind the store's back (an attach to a
	 * player clears it: store_seat_attach). */
	test_cond("seat token: (the seat's token replaced)",
	          raw_exec("seattoken",
	                   "UPDATE seats SET token_hash = "
	                   "zeroblob(32) WHERE seat = 1") == SQLITE_OK);
	open_store("seattoken", 1, &s);
	m = move(1, "{\"a\":2}");
	m.seat_token = other;
	test_cond("seat token: a token no seat holds any more is refused",
	          store_move_append(s, key, 1, &m, NULL, NULL) ==
	              BD_EFORBIDDEN);
	m.seat_token = NULL;
	test_cond("seat token: without one (a player's, the server's) it "
	          "appends",
	          store_move_append(s, key, 1, &m, NULL, NULL) == 0);
	store_close(s);
	test_cond(
	    "seat token: a refusal wrote nothing",
	    raw_query("seattoken", "SELECT count(*) FROM moves", NULL, 0) == 2);
}

static void test_append_stale(void)
{
	struct store *s = NULL;
	open_store("stale", 1, &s);
	int64_t key = 0;
	create_game(s, 30, "agent-avenue", "active", &key);
	struct store_move m = move(0, "{\"a\":1}");
	store_move_append(s, key, 0, &m, NULL, NULL);
	store_move_append(s, key, 1, &m, NULL, NULL);
	struct store_game before = {0};
	store_game_get(s, "000000000000001e", &before);
	m = (struct store_move){.seat = 1,
	                        .action = "{\"late\":1}",
	                        .status = "finished",
	                        .to_act = 0,
	                        .result = "{\"winner\":1}"};
	uint64_t cur = 0;
	test_cond("stale: expected 1 at seq 2 is a conflict",
	          store_move_append(s, key, 1, &m, NULL, &cur) == BD_ECONFLICT);
	test_cond("stale: current_seq is reported", cur == 2);
	test_cond("stale: a NULL current_seq is allowed",
	          store_move_append(s, key, 5, &m, NULL, NULL) == BD_ECONFLICT);
	struct store_game after = {0};
	store_game_get(s, "000000000000001e", &after);
	test_cond("stale: the game row is unchanged",
	          after.seq == 2 && strcmp(after.status, "active") == 0 &&
	              after.to_act == before.to_act && !after.result &&
	              after.updated_ms == before.updated_ms);
	store_game_release(&before);
	store_game_release(&after);
	store_close(s);
	test_cond("stale: no move was written", count_moves("stale") == 2);
}

/* A move with the server's moves for resigned seats chained on (m.then):
 * all land in one transaction at dense seqs with their reasons (sql/0015
 * accepts "bot" and "resigned"), or none does. */
static void test_append_chain(void)
{
	struct store *s = NULL;
	open_store("chain", 1, &s);
	int64_t key = 0;
	create_game(s, 35, "agent-avenue", "active", &key);
	struct store_move m[3] = {move(0, "{\"a\":1}"), move(1, "{\"a\":2}"),
	                          move(0, "{\"a\":3}")};
	m[0].reason = "bot";
	m[1].reason = m[2].reason = "resigned";
	m[0].then = &m[1];
	m[1].then = &m[2];
	test_cond("chain: three moves appended at once",
	          store_move_append(s, key, 0, m, NULL, NULL) == 0);
	struct seen_moves all = {0};
	store_moves_each(s, key, 0, see_move, &all);
	test_cond("chain: seqs 1..3 in order, each its seat",
	          all.n == 3 && all.seq[2] == 3 && all.seat[1] == 1 &&
	              strcmp(all.action[2], "{\"a\":3}") == 0);
	struct store_game g = {0};
	store_game_get(s, "0000000000000023", &g);
	test_cond("chain: the row is at the last seq", g.seq == 3);
	store_game_release(&g);
	uint64_t cur = 0;
	m[1].reason = "because"; /* refused by the CHECK: the chain with it */
	test_cond("chain: a chain with a bad move is refused",
	          store_move_append(s, key, 3, m, NULL, &cur) < 0);
	test_cond("chain: a stale chain is a conflict",
	          store_move_append(s, key, 1, m, NULL, &cur) == BD_ECONFLICT &&
	              cur == 3);
	store_close(s);
	test_cond("chain: no move of a refused chain was written",
	          count_moves("chain") == 3);
	test_cond("chain: the reasons are logged",
	          raw_query("chain",
	                    "SELECT count(*) = 1 FROM moves WHERE seq = 1 AND "
	                    "reason = 'bot'",
	                    NULL, 0) == 1 &&
	              raw_query("chain",
	                        "SELECT count(*) = 2 FROM moves WHERE "
	                        "reason = 'resigned'",
	                        NULL, 0) == 1);
}

static void test_moves_each(void)
{
	struct store *s = NULL;
	open_store("moves", 1, &s);
	int64_t key = 0, other = 0;
	create_game(s, 40, "agent-avenue", "active", &key);
	create_game(s, 41, "agent-avenue", "active", &other);
	const char *actions[] = {"{\"n\":1}", "{\"n\":2}", "{\"n\":3}",
	                         "{\"n\":4}"};
	for (int i = 0; i < 4; i++) {
		struct store_move m = move(i % 2, actions[i]);
		store_move_append(s, key, (uint64_t)i, &m, NULL, NULL);
	}
	struct store_move m = move(0, "{\"other\":1}");
	store_move_append(s, other, 0, &m, NULL, NULL);

	struct seen_moves all = {0};
	test_cond("moves: all after 0",
	          store_moves_each(s, key, 0, see_move, &all) == 0);
	int ok = all.n == 4;
	for (int i = 0; ok && i < 4; i++)
		ok = all.seq[i] == (uint64_t)i + 1 && all.seat[i] == i % 2 &&
		     strcmp(all.action[i], actions[i]) == 0;
	test_cond("moves: 1..4 in order with seat and action", ok);

	struct seen_moves tail = {0};
	store_moves_each(s, key, 2, see_move, &tail);
	test_cond("moves: after 2 gives 3 and 4",
	          tail.n == 2 && tail.seq[0] == 3 && tail.seq[1] == 4 &&
	              strcmp(tail.action[0], "{\"n\":3}") == 0);

	struct seen_moves none = {0};
	store_moves_each(s, key, 4, see_move, &none);
	test_cond("moves: after the last gives nothing", none.n == 0);

	struct seen_moves stop = {.stop_after = 1};
	test_cond("moves: the callback's code stops the walk",
	          store_moves_each(s, key, 0, see_move, &stop) == -99 &&
	              stop.n == 1);

	struct seen_moves range = {0};
	test_cond("moves: a range 1 < seq <= 3 gives 2 and 3",
	          store_moves_range(s, key, 1, 3, see_move, &range) == 0 &&
	              range.n == 2 && range.seq[0] == 2 && range.seq[1] == 3);
	store_close(s);
}

/* Snapshots (sql/0012): kept per (game, seq) under a rules version; the
 * newest at or before a seq of that version is found; none beyond the
 * log; a move can carry one in its own transaction. */
static void test_snapshots(void)
{
	struct store *s = NULL;
	open_store("snapshots", 1, &s);
	int64_t key = 0;
	create_game(s, 42, "agent-avenue", "active", &key);
	for (int i = 0; i < 3; i++) {
		struct store_move m = move(i % 2, "{\"n\":1}");
		store_move_append(s, key, (uint64_t)i, &m, NULL, NULL);
	}
	struct store_snapshot a = {7, "abc", 3}, b = {7, "defg", 4},
	                      other = {8, "xy", 2};
	test_cond("snapshots: kept for logged moves",
	          store_snapshot_put(s, key, 1, &a) == 0 &&
	              store_snapshot_put(s, key, 3, &b) == 0 &&
	              store_snapshot_put(s, key, 2, &other) == 0);
	test_cond("snapshots: none beyond the log",
	          store_snapshot_put(s, key, 4, &a) == BD_ENOTFOUND);
	void *st = NULL;
	size_t len = 0;
	uint64_t seq = 0;
	int rc = store_snapshot_get(s, key, 10, 7, &st, &len, &seq);
	test_cond("snapshots: the newest of the version",
	          rc == 0 && seq == 3 && len == 4 &&
	              memcmp(st, "defg", 4) == 0);
	free(st);
	rc = store_snapshot_get(s, key, 2, 7, &st, &len, &seq);
	test_cond("snapshots: at or before max_seq, skipping another version",
	          rc == 0 && seq == 1 && len == 3 && memcmp(st, "abc", 3) == 0);
	free(st);
	test_cond("snapshots: none of a version never written",
	          store_snapshot_get(s, key, 10, 9, &st, &len, &seq) ==
	              BD_ENOTFOUND);
	struct store_move m = move(1, "{\"n\":2}");
	struct store_snapshot with = {7, "move4", 5};
	m.snapshot = &with;
	rc = store_move_append(s, key, 3, &m, NULL, NULL);
	test_cond("snapshots: written with the move",
	          rc == 0 &&
	              store_snapshot_get(s, key, 4, 7, &st, &len, &seq) == 0 &&
	              seq == 4 && len == 5);
	free(st);
	m.snapshot = &a;
	rc = store_move_append(s, key, 3, &m, NULL, NULL);
	test_cond("snapshots: a stale move writes none",
	          rc == BD_ECONFLICT &&
	              store_snapshot_get(s, key, 4, 7, &st, &len, &seq) == 0 &&
	              len == 5);
	free(st);
	store_close(s);
}

/* Lists with f and checks the keys are exactly want[0..n). */
static int lists(struct store *s, struct store_filter f, const int64_t *want,
                 int n)
{
	struct seen_games l = {0};
	if (store_games_each(s, &f, see_game, &l) != 0 || l.n != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (l.key[i] != want[i])
			return 0;
	return 1;
}

static void test_games_each(void)
{
	struct store *s = NULL;
	open_store("list", 1, &s);
	int64_t k[6];
	create_game(s, 1, "rules-a", "active", &k[1]);
	create_game(s, 2, "rules-b", "active", &k[2]);
	create_game(s, 3, "rules-a", "finished", &k[3]);
	create_game(s, 4, "rules-a", "active", &k[4]);
	create_game(s, 5, "rules-b", "finished", &k[5]);
	struct store_filter f = {.limit = 100};
	test_cond("list: all, newest first",
	          lists(s, f, (int64_t[]){k[5], k[4], k[3], k[2], k[1]}, 5));
	f.status = "active";
	test_cond("list: active only",
	          lists(s, f, (int64_t[]){k[4], k[2], k[1]}, 3));
	f.status = NULL;
	f.rules_id = "rules-a";
	test_cond("list: rules-a only",
	          lists(s, f, (int64_t[]){k[4], k[3], k[1]}, 3));
	f.status = "active";
	test_cond("list: rules-a and active",
	          lists(s, f, (int64_t[]){k[4], k[1]}, 2));
	f.rules_id = "rules-c";
	test_cond("list: no match lists nothing", lists(s, f, NULL, 0));
	f = (struct store_filter){.limit = 2};
	test_cond("list: limit 2", lists(s, f, (int64_t[]){k[5], k[4]}, 2));
	f.before_key = k[4];
	test_cond("list: page 2 before the cursor",
	          lists(s, f, (int64_t[]){k[3], k[2]}, 2));
	f.before_key = k[2];
	test_cond("list: the last page", lists(s, f, (int64_t[]){k[1]}, 1));
	f = (struct store_filter){.limit = 0};
	test_cond("list: limit 0 is refused",
	          store_games_each(s, &f, see_game, NULL) == BD_EBADREQUEST);
	f.limit = 101;
	test_cond("list: limit 101 is refused",
	          store_games_each(s, &f, see_game, NULL) == BD_EBADREQUEST);
	store_close(s);
}

/* One of the threads racing to append to the same game. */
struct racer {
	struct store *s; /* shared store */
	int64_t key;     /* the game's key */
	const char *id;  /* the game's id */
	int seat;        /* 0 or 1: also tags its actions */
	int conflicts;   /* appends lost to the other thread, retried */
	int errors;      /* any other failure */
	pthread_barrier_t *start; /* both threads begin together */
};

/* Appends RACE_MOVES moves, each by reading the game's seq and appending
 * at it, retrying on a conflict. */
static void *race(void *arg)
{
	struct racer *r = arg;
	pthread_barrier_wait(r->start);
	for (int i = 0; i < RACE_MOVES && !r->errors; i++) {
		char action[32];
		snprintf(action, sizeof action, "{\"t\":%d,\"i\":%d}", r->seat,
		         i);
		struct store_move m = move(r->seat, action);
		for (;;) {
			struct store_game g = {0};
			if (store_game_get(r->s, r->id, &g) != 0) {
				r->errors++;
				break;
			}
			uint64_t seq = g.seq, cur = 0;
			store_game_release(&g);
			sched_yield(); /* widen the read-then-append window */
			int rc = store_move_append(r->s, r->key, seq, &m, NULL,
			                           &cur);
			if (rc == 0)
				break;
			if (rc != BD_ECONFLICT || cur <= seq) {
				r->errors++;
				break;
			}
			r->conflicts++;
		}
	}
	return NULL;
}

static void test_race(void)
{
	struct store *s = NULL;
	open_store("race", 2, &s);
	int64_t key = 0;
	create_game(s, 50, "agent-avenue", "active", &key);
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, 2);
	struct racer r[2];
	for (int i = 0; i < 2; i++)
		r[i] = (struct racer){.s = s,
		                      .key = key,
		                      .id = "0000000000000032",
		                      .seat = i,
		                      .start = &start};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, race, &r[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);
	test_cond("race: no failures other than conflicts",
	          r[0].errors == 0 && r[1].errors == 0);
	struct store_game g = {0};
	store_game_get(s, "0000000000000032", &g);
	test_cond("race: the game is at seq 400", g.seq == 2 * RACE_MOVES);
	store_game_release(&g);

	static struct seen_moves log;
	store_moves_each(s, key, 0, see_move, &log);
	int dense = log.n == 2 * RACE_MOVES, once = dense;
	int seen[2][RACE_MOVES] = {{0}};
	for (int i = 0; dense && i < log.n; i++) {
		int t_, n_;
		dense = log.seq[i] == (uint64_t)i + 1;
		if (sscanf(log.action[i], "{\"t\":%d,\"i\":%d}", &t_, &n_) !=
		        2 ||
		    t_ < 0 || t_ > 1 || n_ < 0 || n_ >= RACE_MOVES ||
		    seen[t_][n_]++)
			once = 0;
	}
	test_cond("race: the log is dense 1..400", dense);
	test_cond("race: every move exactly once", once);
	printf("race: %d + %d conflicts retried\n", r[0].conflicts,
	       r[1].conflicts);
	store_close(s);
}

static void test_foreign_application_id(void)
{
	raw_exec("foreign",
	         "PRAGMA application_id = 305419896; CREATE TABLE x(a);");
	struct store_config cfg = {.path = db_path("foreign"),
	                           .connections = 1,
	                           .busy_timeout_ms = 100};
	struct store *s = (struct store *)&cfg; /* a sentinel */
	char err[256] = "";
	test_cond("foreign: another program's file is refused",
	          store_open(&cfg, &s, err, sizeof err) < 0);
	test_cond("foreign: *out is not written", s == (struct store *)&cfg);
	test_cond("foreign: the error says why",
	          strstr(err, "another program") != NULL);
	char mode[16] = "";
	raw_query("foreign", "PRAGMA journal_mode", mode, sizeof mode);
	test_cond("foreign: the file was left in its journal mode",
	          strcmp(mode, "delete") == 0);
	test_cond("foreign: no schema was added",
	          raw_query("foreign", "SELECT count(*) FROM sqlite_schema",
	                    NULL, 0) == 1);
}

static void test_newer_user_version(void)
{
	struct store *s = NULL;
	open_store("newer", 1, &s);
	store_close(s);
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %zu",
	         store_migrations_count + 1);
	raw_exec("newer", sql);
	struct store_config cfg = {
	    .path = db_path("newer"), .connections = 1, .busy_timeout_ms = 100};
	char err[256] = "";
	s = NULL;
	test_cond("newer: a newer schema is refused",
	          store_open(&cfg, &s, err, sizeof err) < 0 && s == NULL);
	test_cond("newer: the error says why", strstr(err, "newer") != NULL);
	test_cond("newer: the version was left as it was",
	          raw_query("newer", "PRAGMA user_version", NULL, 0) ==
	              (int64_t)store_migrations_count + 1);
}

/* Removes tmpdir and the files in it. */
static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[512];
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

/* ---- players, seats, idempotency (store_players.c) ------------------ */

static int64_t make_player(struct store *s, int tag, const char *name)
{
	struct store_player p = {0};
	uint8_t h[STORE_TOKEN_HASH_LEN];
	int64_t key = 0;
	snprintf(p.id, sizeof p.id, "%016x", 0x100000u + (unsigned)tag);
	snprintf(p.name, sizeof p.name, "%s", name);
	token_hash(h, 1000 + tag, 0);
	if (store_player_create(s, &p, h, NULL, &key) < 0)
		return -1;
	return key;
}

/* A 2-seat game: seat 0 held by player `host`, seat 1 open (reserved for
 * `invited` unless 0). */
static int64_t open_game(struct store *s, int tag, int64_t host,
                         int64_t invited)
{
	struct store_game g = new_game(tag, "agent-avenue", "active");
	struct store_seat seats[2] = {
	    {.seat = 0, .player_key = host},
	    {.seat = 1, .open = 1, .invited_key = invited}};
	int64_t key = -1;
	if (store_game_create(s, &g, seats, NULL, &key) < 0)
		return -1;
	return key;
}

static void test_players(void)
{
	struct store *s = NULL;
	open_store("players", 2, &s);
	int64_t a = make_player(s, 1, "Alice");
	test_cond("players: create", a > 0);
	test_cond("players: same id again is a conflict",
	          make_player(s, 1, "Alice again") == -1);
	struct store_player p;
	uint8_t h[STORE_TOKEN_HASH_LEN];
	token_hash(h, 1001, 0);
	test_cond("players: by token", store_player_by_token(s, h, &p) == 0 &&
	                                   p.key == a &&
	                                   strcmp(p.name, "Alice") == 0);
	test_cond("players: by id",
	          store_player_by_id(s, "0000000000100001", &p) == 0 &&
	              p.key == a);
	token_hash(h, 999, 9);
	test_cond("players: unknown token",
	          store_player_by_token(s, h, &p) == BD_ENOTFOUND);
	store_close(s);
}

/* Blocks (store_chat.c): store_blocked_either answers both ways, for the
 * pairing of quick match; a claim of a seat in a blocker's game is
 * refused; lifting the block ends both. */
static void test_blocks(void)
{
	struct store *s = NULL;
	open_store("blocks", 2, &s);
	int64_t a = make_player(s, 1, "Alice"), b = make_player(s, 2, "Bob"),
	        c = make_player(s, 3, "Carol");
	int x = -1, y = -1, z = -1, removed = 0;
	test_cond("blocks: none", store_blocked_either(s, a, b, &x) == 0 && !x);
	test_cond("blocks: oneself refused",
	          store_block_put(s, a, a) == BD_EBADREQUEST);
	test_cond("blocks: Alice blocks Bob",
	          store_block_put(s, a, b) == 0 &&
	              store_block_put(s, a, b) == 0);
	test_cond("blocks: either way",
	          store_blocked_either(s, a, b, &x) == 0 && x &&
	              store_blocked_either(s, b, a, &y) == 0 && y &&
	              store_blocked_either(s, a, c, &z) == 0 && !z);
	int64_t g = open_game(s, 50, a, 0);
	struct store_claim cl = {.seat = -1, .player_key = b};
	int seat = -1;
	test_cond("blocks: Bob cannot claim a seat of Alice's game",
	          store_seat_claim(s, g, &cl, NULL, &seat) == BD_EBLOCKED &&
	              store_blocked_in_game(s, g, b, &x) == 0 && x);
	test_cond("blocks: lifted",
	          store_block_delete(s, a, b, &removed) == 0 && removed &&
	              store_blocked_either(s, b, a, &y) == 0 && !y);
	test_cond("blocks: then Bob claims it",
	          store_seat_claim(s, g, &cl, NULL, &seat) == 0 && seat == 1);
	store_close(s);
}

/* A claim of no particular seat by an invitee takes the seat reserved
 * for them, not a lower open one (theirs would stay reserved for a
 * seated player: the game would never fill). */
static void test_claim_reserved_first(void)
{
	struct store *s = NULL;
	open_store("claim-reserved", 2, &s);
	int64_t host = make_player(s, 1, "Host"),
	        bob = make_player(s, 2, "Bob");
	struct store_game g = new_game(51, "quantum", "active");
	g.seats = 3;
	struct store_seat seats[3] = {
	    {.seat = 0, .player_key = host},
	    {.seat = 1, .open = 1},
	    {.seat = 2, .open = 1, .invited_key = bob}};
	int64_t key = -1;
	int seat = -1;
	test_cond("claim-reserved: created",
	          store_game_create(s, &g, seats, NULL, &key) == 0);
	struct store_claim c = {.seat = -1, .player_key = bob, .open_seats = 2};
	test_cond("claim-reserved: the invitee gets seat 2",
	          store_seat_claim(s, key, &c, NULL, &seat) == 0 && seat == 2);
	store_close(s);
}

static void test_claims(void)
{
	struct store *s = NULL;
	open_store("claims", 2, &s);
	int64_t host = make_player(s, 1, "Host"),
	        bob = make_player(s, 2, "Bob");
	int64_t carol = make_player(s, 3, "Carol");
	int64_t key = open_game(s, 50, host, bob);
	struct store_game g = {0};
	store_game_by_key(s, key, &g);
	test_cond("claims: a game with an open seat is waiting",
	          strcmp(g.status, "waiting") == 0 && g.open_seats == 1);
	store_game_release(&g);
	int seat = -1;
	struct store_claim c = {.seat = 1, .player_key = carol};
	test_cond("claims: reserved for another player",
	          store_seat_claim(s, key, &c, NULL, &seat) == BD_EFORBIDDEN);
	c.player_key = host;
	test_cond("claims: the host already sits here",
	          store_seat_claim(s, key, &c, NULL, &seat) ==
	              BD_EALREADYSEATED);
	c.player_key = bob;
	c.seat = -1;
	c.open_seats = 2; /* an answer built on a stale read */
	test_cond("claims: a claim built on another open-seat count conflicts",
	          store_seat_claim(s, key, &c, NULL, &seat) == BD_ECONFLICT);
	store_game_by_key(s, key, &g);
	test_cond("claims: ... and takes nothing",
	          strcmp(g.status, "waiting") == 0 && g.open_seats == 1);
	store_game_release(&g);
	c.open_seats = 1;
	test_cond("claims: the invitee takes the first open seat",
	          store_seat_claim(s, key, &c, NULL, &seat) == 0 && seat == 1);
	store_game_by_key(s, key, &g);
	test_cond("claims: the game is active with no open seat",
	          strcmp(g.status, "active") == 0 && g.open_seats == 0);
	store_game_release(&g);
	int got = -1;
	test_cond("claims: bob holds seat 1",
	          store_seat_for_player(s, key, bob, &got) == 0 && got == 1);
	c.player_key = carol;
	c.open_seats = 0;
	test_cond("claims: nothing left",
	          store_seat_claim(s, key, &c, NULL, &seat) == BD_ESEATTAKEN);
	struct store_seat seats[4];
	int n = 0;
	test_cond("claims: seats read back",
	          store_seats_get(s, key, seats, 4, &n) == 0 && n == 2 &&
	              strcmp(seats[0].player_name, "Host") == 0 &&
	              strcmp(seats[1].player_name, "Bob") == 0 &&
	              !seats[1].open);
	store_close(s);
}

static void test_idempotency_records(void)
{
	struct store *s = NULL;
	open_store("idem", 1, &s);
	int64_t key;
	create_game(s, 60, "agent-avenue", "active", &key);
	struct store_idem rec = {
	    .status = 201, .response = "answer", .response_len = 6};
	memset(rec.scope, 7, 32);
	memset(rec.request, 8, 32);
	struct store_move m = {0,        "{\"type\":\"x\"}",
	                       "active", 1,
	                       NULL,     0,
	                       NULL,     NULL,
	                       0,        0,
	                       NULL,     NULL,
	                       NULL,     NULL, NULL, 0, 0, 0};
	test_cond("idem: recorded with the move",
	          store_move_append(s, key, 0, &m, &rec, NULL) == 0);
	uint64_t cur = 0;
	test_cond("idem: the same scope again is a replay, nothing written",
	          store_move_append(s, key, 1, &m, &rec, &cur) == BD_EREPLAY);
	struct store_game g = {0};
	store_game_by_key(s, key, &g);
	test_cond("idem: still one move", g.seq == 1);
	store_game_release(&g);
	uint8_t req[32];
	unsigned status = 0;
	void *resp = NULL;
	size_t len = 0;
	test_cond("idem: read back",
	          store_idem_get(s, rec.scope, req, &status, &resp, &len) ==
	                  0 &&
	              status == 201 && len == 6 &&
	              memcmp(resp, "answer", 6) == 0 && req[0] == 8);
	free(resp);
	memset(rec.scope, 9, 32);
	test_cond("idem: unknown scope",
	          store_idem_get(s, rec.scope, req, &status, &resp, &len) ==
	              BD_ENOTFOUND);
	store_close(s);
}

static int count_seated(void *ctx, const struct store_game *g, int seat)
{
	(void)g;
	(void)seat;
	(*(int *)ctx)++;
	return 0;
}

static void test_player_games(void)
{
	struct store *s = NULL;
	open_store("mygames", 1, &s);
	int64_t host = make_player(s, 1, "Host");
	for (int i = 0; i < 3; i++)
		open_game(s, 70 + i, host, 0);
	int n = 0;
	struct store_player_filter f = {.limit = 10};
	test_cond("mygames: all three",
	          store_player_games_each(s, host, &f, count_seated, &n) == 0 &&
	              n == 3);
	n = 0;
	f.status = "active";
	store_player_games_each(s, host, &f, count_seated, &n);
	test_cond("mygames: none active while seats are open", n == 0);
	n = 0;
	f.status = NULL;
	f.my_turn = 1;
	store_player_games_each(s, host, &f, count_seated, &n);
	test_cond("mygames: no turn while waiting", n == 0);
	f.limit = 0;
	test_cond("mygames: limit checked",
	          store_player_games_each(s, host, &f, count_seated, &n) ==
	              BD_EBADREQUEST);
	store_close(s);
}

/* ---- the event outbox and deliveries (store_events.c) ---------------- */

/* Events of one player, as store_events_each reports them. */
struct seen_events {
	int n;
	char types[16][16];
	char data[16][256];
	int64_t last;
};

static int note_event(void *ctx, const struct store_event *e)
{
	struct seen_events *x = ctx;
	if (x->n < 16) {
		snprintf(x->types[x->n], sizeof x->types[0], "%s", e->type);
		snprintf(x->data[x->n], sizeof x->data[0], "%s", e->data);
	}
	x->n++;
	x->last = e->key;
	return 0;
}

static struct seen_events events_of(struct store *s, int64_t player)
{
	struct seen_events x = {0};
	store_events_each(s, player, 0, 100, note_event, &x);
	return x;
}

/* A finished 2-seat game held by players p0 and p1 (seat 1: a random bot
 * when p1 is 0). */
static int64_t finished_game(struct store *s, int tag, int64_t p0, int64_t p1)
{
	struct store_game g = new_game(tag, "agent-avenue", "finished");
	struct store_seat seats[2] = {{.seat = 0, .player_key = p0},
	                              {.seat = 1, .player_key = p1}};
	if (!p1)
		snprintf(seats[1].bot, sizeof seats[1].bot, "%s",
		         "{\"bot\":\"random\"}");
	int64_t key = -1;
	return store_game_create(s, &g, seats, NULL, &key) < 0 ? -1 : key;
}

/* Rematches (store_rematch.c): an offer, the same again (no change), the
 * acceptance that makes the new game once, linked both ways, with its
 * events; the refusals (not over, unknown, rematched, a block) change
 * nothing; a bot accepts at once; a decline ends the offer. */
static void test_rematch(void)
{
	struct store *s = NULL;
	open_store("rematch", 2, &s);
	int64_t a = make_player(s, 1, "Alice"), b = make_player(s, 2, "Bob"),
	        c = make_player(s, 3, "Carol");
	int64_t g0 = finished_game(s, 60, a, b), made = -1;
	struct store_game next = new_game(61, "agent-avenue", "active");
	struct store_seat seats[2] = {{.seat = 0, .player_key = b},
	                              {.seat = 1, .player_key = a}};
	struct store_rematch r = {0};
	test_cond("rematch: offered",
	          store_rematch_offer(s, g0, 0, 0, &next, seats, &r, &made) ==
	                  0 &&
	              r.seats == 1 && r.by == 0 && !r.game[0] && r.changed &&
	              made == 0);
	test_cond("rematch: offered again, no change",
	          store_rematch_offer(s, g0, 0, 0, &next, seats, &r, &made) ==
	                  0 &&
	              r.seats == 1 && !r.changed && made == 0);
	test_cond("rematch: accepted, the game made",
	          store_rematch_offer(s, g0, 1, 0, &next, seats, &r, &made) ==
	                  0 &&
	              r.seats == 3 && strcmp(r.game, next.id) == 0 && made > 0);
	struct store_game old = {0}, now = {0};
	test_cond("rematch: linked both ways",
	          store_game_by_key(s, g0, &old) == 0 &&
	              strcmp(old.rematch, next.id) == 0 &&
	              old.rematch_seats == 3 && old.rematch_by == 0 &&
	              store_game_by_key(s, made, &now) == 0 &&
	              strcmp(now.rematch_of, old.id) == 0 &&
	              strcmp(now.status, "active") == 0);
	store_game_release(&old);
	store_game_release(&now);
	struct seen_events ev = events_of(s, b);
	int rematches = 0, started = 0;
	for (int i = 0; i < ev.n && i < 16; i++) {
		rematches += strcmp(ev.types[i], "rematch") == 0;
		started += strcmp(ev.types[i], "game.started") == 0;
	}
	test_cond("rematch: events, offered and started, and the new game's",
	          rematches == 2 && started == 1);
	struct store_game again = new_game(62, "agent-avenue", "active");
	int changed = -1;
	test_cond("rematch: at most one",
	          store_rematch_offer(s, g0, 0, 0, &again, seats, &r, &made) ==
	                  BD_EREMATCHED &&
	              store_rematch_decline(s, g0, 1, &changed) ==
	                  BD_EREMATCHED &&
	              store_game_get(s, again.id, &now) == BD_ENOTFOUND);
	int64_t live = open_game(s, 63, a, 0);
	test_cond(
	    "rematch: not over",
	    store_rematch_offer(s, live, 0, 0, &again, seats, &r, &made) ==
	            BD_ENOTFINISHED &&
	        store_rematch_decline(s, live, 0, &changed) == BD_ENOTFINISHED);
	test_cond("rematch: no such game",
	          store_rematch_offer(s, 999999, 0, 0, &again, seats, &r,
	                              &made) == BD_ENOTFOUND);
	int64_t g1 = finished_game(s, 64, a, c);
	store_block_put(s, c, a);
	test_cond("rematch: a blocked pair",
	          store_rematch_offer(s, g1, 0, 0, &again, seats, &r, &made) ==
	                  BD_EBLOCKED &&
	              store_game_by_key(s, g1, &old) == 0 &&
	              old.rematch_seats == 0 && old.rematch_by == -1);
	store_game_release(&old);
	int64_t g2 = finished_game(s, 65, a, 0);
	struct store_seat with_bot[2] = {{.seat = 0},
	                                 {.seat = 1, .player_key = a}};
	snprintf(with_bot[0].bot, sizeof with_bot[0].bot, "%s",
	         "{\"bot\":\"random\"}");
	test_cond("rematch: the bot accepts at once",
	          store_rematch_offer(s, g2, 0, 2, &again, with_bot, &r,
	                              &made) == 0 &&
	              r.seats == 3 && made > 0);
	int64_t g3 = finished_game(s, 66, a, b);
	struct store_game third = new_game(67, "agent-avenue", "active");
	test_cond("rematch: declined",
	          store_rematch_offer(s, g3, 0, 0, &third, seats, &r, &made) ==
	                  0 &&
	              store_rematch_decline(s, g3, 1, &changed) == 0 &&
	              changed == 1 && store_game_by_key(s, g3, &old) == 0 &&
	              old.rematch_seats == 0);
	store_game_release(&old);
	test_cond("rematch: nothing left to decline",
	          store_rematch_decline(s, g3, 1, &changed) == 0 &&
	              changed == 0);
	store_close(s);
}

/* The change listener's calls. */
struct changes {
	int n;
	int64_t players[8];
};

static void on_change(void *ctx, int64_t player)
{
	struct changes *c = ctx;
	if (c->n < 8)
		c->players[c->n] = player;
	c->n++;
}

/* The pending deliveries store_deliveries_each lists: how many, and the
 * soonest next_ms. */
struct pending_next {
	int n;
	int64_t min_next;
};

static int pending_next_of(void *ctx, const struct store_delivery *d)
{
	struct pending_next *p = ctx;
	if (strcmp(d->state, "pending") == 0) {
		p->n++;
		if (d->next_ms < p->min_next)
			p->min_next = d->next_ms;
	}
	return 0;
}

static void test_events(void)
{
	struct store *s = NULL;
	open_store("events", 2, &s);
	struct changes ch = {0};
	store_on_change(s, on_change, &ch);
	int64_t host = make_player(s, 1, "Host"),
	        bob = make_player(s, 2, "Bob");
	struct store_webhook w = {.secret_len = 32};
	snprintf(w.url, sizeof w.url, "http://hooks.example/bob");
	snprintf(w.dest, sizeof w.dest, "hooks.example:80");
	memset(w.secret, 5, 32);
	test_cond("events: webhook put", store_webhook_put(s, bob, &w) == 0);
	int64_t key = open_game(s, 80, host, bob);
	struct seen_events b = events_of(s, bob), h = events_of(s, host);
	test_cond("events: the invitee is told, the host not yet",
	          b.n == 1 && strcmp(b.types[0], "invited") == 0 && h.n == 0);
	test_cond("events: data names the game, publicly",
	          strstr(b.data[0], "\"game_id\":\"0000000000000050\"") &&
	              strstr(b.data[0], "\"seat\":1") &&
	              !strstr(b.data[0], "seed"));
	test_cond("events: the listener heard of both players",
	          ch.n == 2 &&
	              ((ch.players[0] == host && ch.players[1] == bob) ||
	               (ch.players[0] == bob && ch.players[1] == host)));
	int seat;
	struct store_claim c = {.seat = -1, .player_key = bob};
	store_seat_claim(s, key, &c, NULL, &seat);
	b = events_of(s, bob);
	h = events_of(s, host);
	test_cond("events: the last seat taken starts the game for both, and "
	          "seat 0 (to act) is told it is its turn",
	          b.n == 2 && strcmp(b.types[1], "game.started") == 0 &&
	              h.n == 2 && strcmp(h.types[0], "game.started") == 0 &&
	              strcmp(h.types[1], "turn") == 0);
	struct store_move m = {0,        "{\"type\":\"x\"}",
	                       "active", 2,
	                       NULL,     0,
	                       NULL,     NULL,
	                       0,        0,
	                       NULL,     NULL,
	                       NULL,     NULL, NULL, 0, 0, 0};
	store_move_append(s, key, 0, &m, NULL, NULL);
	m = (struct store_move){1,        "{\"type\":\"x\"}",
	                        "active", 2,
	                        NULL,     0,
	                        NULL,     NULL,
	                        0,        0,
	                        NULL,     NULL,
	                        NULL,     NULL, NULL, 0, 0, 0};
	store_move_append(s, key, 1, &m, NULL, NULL);
	b = events_of(s, bob);
	test_cond("events: a turn when the seat comes to act, not again while "
	          "it stays to act",
	          b.n == 3 && strcmp(b.types[2], "turn") == 0);
	m = (struct store_move){1,
	                        "{\"type\":\"x\"}",
	                        "finished",
	                        0,
	                        "{\"winners\":[1],\"reason\":\"x\"}",
	                        0,
	                        NULL,
	                        NULL,
	                        0,
	                        0,
	                        NULL,
	                        NULL,
	                        NULL,
	                        NULL,
	                        NULL, 0, 0, 0};
	store_move_append(s, key, 2, &m, NULL, NULL);
	b = events_of(s, bob);
	h = events_of(s, host);
	test_cond("events: game.finished to both, with the result",
	          b.n == 4 && strcmp(b.types[3], "game.finished") == 0 &&
	              strstr(b.data[3], "\"winners\":[1]") && h.n == 3 &&
	              strcmp(h.types[2], "game.finished") == 0);
	int sent = 0;
	test_cond("events: deadline.soon for a player's seat",
	          store_event_deadline_soon(s, key, 3, 1, 1796112000000,
	                                    &sent) == 0 &&
	              sent == 1);
	test_cond("events: ... once per deadline",
	          store_event_deadline_soon(s, key, 3, 1, 1796112000000,
	                                    &sent) == 0 &&
	              sent == 0);
	test_cond("events: ... and none for a seq the game left",
	          store_event_deadline_soon(s, key, 2, 1, 1796112000001,
	                                    &sent) == 0 &&
	              sent == 0);
	b = events_of(s, bob);
	test_cond(
	    "events: ... with its deadline",
	    b.n == 5 && strcmp(b.types[4], "deadline.soon") == 0 &&
	        strstr(b.data[4], "\"deadline\":\"2026-12-01T08:00:00.000Z\""));
	int64_t tok_game;
	create_game(s, 81, "agent-avenue", "active", &tok_game);
	int n_before = events_of(s, host).n + events_of(s, bob).n;
	test_cond("events: none for a seat token's seat",
	          store_event_deadline_soon(s, tok_game, 0, 0, 1, NULL) == 0 &&
	              events_of(s, host).n + events_of(s, bob).n == n_before);
	test_cond("events: no such game",
	          store_event_deadline_soon(s, 999, 0, 0, 1, NULL) ==
	              BD_ENOTFOUND);
	int64_t last = 0;
	test_cond("events: last key",
	          store_events_last(s, bob, &last) == 0 && last == b.last);

	/* Bob's five events each got a delivery (the host has no webhook). */
	struct store_delivery d;
	int64_t next = -1;
	int64_t now = 4102444800000; /* 2100: everything is due */
	test_cond("deliveries: the first is claimed with its webhook",
	          store_delivery_claim(s, now, 60000, NULL, &d, &next) == 0 &&
	              strcmp(d.ev.type, "invited") == 0 &&
	              strcmp(d.hook.url, w.url) == 0 &&
	              d.hook.secret_len == 32 && d.attempts == 0);
	int64_t first = d.ev.key;
	store_delivery_release(&d);
	test_cond("deliveries: a failed attempt is rescheduled",
	          store_delivery_done(s, first, NULL, STORE_DEST_FAST, 0, 0,
	                              500, "http-status", now + 1000,
	                              NULL) == 0);
	int claimed = 0;
	while (store_delivery_claim(s, now, 60000, NULL, &d, &next) == 0) {
		claimed++;
		test_cond("deliveries: each other one once", d.ev.key != first);
		store_delivery_release(&d);
	}
	test_cond("deliveries: four more claimed, then none due (the retry "
	          "is next)",
	          claimed == 4 && next == now + 1000);
	test_cond("deliveries: a crash's leases are due again at start",
	          store_deliveries_requeue(s) == 0 &&
	              store_delivery_claim(s, now, 60000, NULL, &d, &next) ==
	                  0);
	store_delivery_release(&d);
	store_delivery_done(s, d.ev.key, NULL, STORE_DEST_FAST, 0, 1, 204, NULL,
	                    0, NULL);
	/* Isolation per destination (issue 34): three of Bob's are due, all
	 * to hooks.example:80. */
	struct store_claim_rules one = {1, 1, 0}, failing = {2, 1, 1};
	struct store_breaker brk = {3, 5000, 20000};
	struct store_delivery d2;
	test_cond("deliveries: at its cap of 1 in flight, the destination "
	          "gives no second one",
	          store_delivery_claim(s, now, 60000, &one, &d, &next) == 0 &&
	              strcmp(d.hook.dest, "hooks.example:80") == 0 &&
	              d.dest_failures == 0 &&
	              store_delivery_claim(s, now, 60000, &one, &d2, &next) ==
	                  BD_ENOTFOUND &&
	              next <= now);
	store_delivery_release(&d);
	test_cond("deliveries: a failure is counted against the destination",
	          store_delivery_done(s, d.ev.key, d.hook.dest,
	                              STORE_DEST_FAILED, 0, 0, 0, "timeout",
	                              now - 1, &brk) == 0);
	test_cond(
	    "deliveries: a destination with failures is not taken "
	    "without its share, then one at a time",
	    store_delivery_claim(s, now, 60000, &one, &d, &next) ==
	            BD_ENOTFOUND &&
	        store_delivery_claim(s, now, 60000, &failing, &d, &next) == 0 &&
	        d.dest_failures == 1 &&
	        store_delivery_claim(s, now, 60000, &failing, &d2, &next) ==
	            BD_ENOTFOUND);
	store_delivery_release(&d);
	test_cond("deliveries: a success closes the breaker",
	          store_delivery_done(s, d.ev.key, d.hook.dest, STORE_DEST_FAST,
	                              0, 1, 204, NULL, 0, &brk) == 0 &&
	              store_delivery_claim(s, now, 60000, &one, &d, &next) ==
	                  0 &&
	              d.dest_failures == 0);
	store_delivery_release(&d);
	/* A breaker that opens holds back its destination's other waiting
	 * deliveries until it half opens (the claim does not walk them). */
	struct store_breaker at_once = {1, 5000, 20000};
	struct pending_next held = {0, INT64_MAX};
	int64_t t0 = wall_ms();
	test_cond("deliveries: an opening breaker moves its destination's "
	          "pending deliveries to when it half opens",
	          store_delivery_done(s, d.ev.key, d.hook.dest,
	                              STORE_DEST_FAILED, 0, 0, 0, "timeout",
	                              t0 + 10, &at_once) == 0 &&
	              store_deliveries_each(s, bob, 100, pending_next_of,
	                                    &held) == 0 &&
	              held.n == 3 && held.min_next >= t0 + 5000 &&
	              held.min_next <= wall_ms() + 5000);
	test_cond("webhook: delete",
	          store_webhook_delete(s, bob) == 0 &&
	              store_webhook_delete(s, bob) == BD_ENOTFOUND);
	test_cond("deliveries: none pending once the webhook is gone",
	          store_delivery_claim(s, now + 10000, 60000, NULL, &d,
	                               &next) == BD_ENOTFOUND &&
	              next == 0);
	store_on_change(s, NULL, NULL);
	store_close(s);
}

/* Puts player's webhook at url, destination dest (a fixed secret of 32
 * bytes); *w gets what was put.  store_webhook_put's result. */
static int put_hook(struct store *s, int64_t player, const char *dest,
                    const char *url, struct store_webhook *w)
{
	memset(w, 0, sizeof *w);
	w->secret_len = 32;
	memset(w->secret, 5, 32);
	snprintf(w->dest, sizeof w->dest, "%s", dest);
	snprintf(w->url, sizeof w->url, "%s", url);
	return store_webhook_put(s, player, w);
}

/* Issue 34, the review's M1 and M2: a slow answer puts a destination in
 * the failing share without counting a failure, a fast one takes it out;
 * a status answered (a 500) backs off its webhook, not its host. */
static void test_slow_and_answered(void)
{
	struct store *s = NULL;
	open_store("slowdests", 2, &s);
	int64_t host = make_player(s, 1, "Host"),
	        bob = make_player(s, 2, "Bob"),
	        carol = make_player(s, 3, "Carol");
	struct store_webhook w;
	test_cond("slow: bob's webhook",
	          put_hook(s, bob, "hooks.example:80",
	                   "http://hooks.example/bob", &w) == 0);
	test_cond("slow: carol's, at the same host",
	          put_hook(s, carol, "hooks.example:80",
	                   "http://hooks.example/carol", &w) == 0);
	/* an invitation each: three deliveries to Bob's webhook */
	for (int tag = 90; tag < 93; tag++)
		open_game(s, tag, host, bob);
	int64_t now = 4102444800000; /* 2100: everything is due */
	struct store_claim_rules healthy = {2, 1, 0}, failing = {2, 1, 1};
	struct store_breaker brk = {1, 5000, 20000}; /* opens at once */
	struct store_delivery d, d2;
	int64_t next = -1;
	test_cond("slow: a healthy destination is claimed without the share",
	          store_delivery_claim(s, now, 60000, &healthy, &d, &next) ==
	                  0 &&
	              !d.dest_limited);
	store_delivery_release(&d);
	test_cond(
	    "slow: a slow answer (2xx) puts its destination in the "
	    "failing share, one at a time, no failure counted",
	    store_delivery_done(s, d.ev.key, d.hook.dest, STORE_DEST_SLOW, 0, 1,
	                        200, NULL, 0, &brk) == 0 &&
	        store_delivery_claim(s, now, 60000, &healthy, &d, &next) ==
	            BD_ENOTFOUND &&
	        store_delivery_claim(s, now, 60000, &failing, &d, &next) == 0 &&
	        d.dest_limited && d.dest_failures == 0 &&
	        store_delivery_claim(s, now, 60000, &failing, &d2, &next) ==
	            BD_ENOTFOUND);
	store_delivery_release(&d);
	open_game(s, 93, host, carol);
	test_cond("slow: a fast answer (a 500) takes it out of the share and "
	          "does not open the host's breaker (it opens at one failure "
	          "here): the other webhook there is claimed",
	          store_delivery_done(s, d.ev.key, d.hook.dest, STORE_DEST_FAST,
	                              0, 0, 500, "http-status", now + 3000,
	                              &brk) == 0 &&
	              store_delivery_claim(s, now, 60000, &healthy, &d2,
	                                   &next) == 0 &&
	              !d2.dest_limited && d2.dest_failures == 0 &&
	              strcmp(d2.hook.url, w.url) == 0);
	store_delivery_release(&d2);
	struct pending_next held = {0, INT64_MAX};
	test_cond("slow: ... and it backs off its own webhook: Bob's other "
	          "delivery waits for the retry",
	          store_deliveries_each(s, bob, 100, pending_next_of, &held) ==
	                  0 &&
	              held.n == 2 && held.min_next == now + 3000 &&
	              store_delivery_claim(s, now + 2999, 60000, &failing, &d,
	                                   &next) == BD_ENOTFOUND &&
	              next == now + 3000);
	test_cond("slow: no answer counts against the host (its breaker)",
	          store_delivery_done(s, d2.ev.key, d2.hook.dest,
	                              STORE_DEST_FAILED, 0, 0, 0, "timeout",
	                              now + 10, &brk) == 0 &&
	              store_delivery_claim(s, now + 3000, 60000, &healthy, &d,
	                                   &next) == BD_ENOTFOUND &&
	              store_delivery_claim(s, now + 3000, 60000, &failing, &d,
	                                   &next) == 0 &&
	              d.dest_limited && d.dest_failures == 1);
	store_delivery_release(&d);
	store_close(s);
}

/* Issue 34, the review of 2026-12-05: receivers answering just under
 * the slow threshold are never slow, yet they kept every worker; the
 * claim now serves first the destination that used the least time
 * lately (its attempts' time in flight, draining at 1/16 of real time),
 * whatever another's backlog, and each destination's in order. */
static void test_destination_use(void)
{
	struct store *s = NULL;
	open_store("destuse", 2, &s);
	int64_t host = make_player(s, 1, "Host"),
	        bob = make_player(s, 2, "Bob"),
	        carol = make_player(s, 3, "Carol");
	struct store_webhook w;
	test_cond("use: bob's webhook",
	          put_hook(s, bob, "busy.example:80", "http://busy.example/bob",
	                   &w) == 0);
	test_cond("use: carol's, elsewhere",
	          put_hook(s, carol, "quiet.example:80",
	                   "http://quiet.example/carol", &w) == 0);
	for (int tag = 94; tag < 97; tag++)
		open_game(s, tag, host, bob);
	/* the store's clock: use drains by it */
	int64_t now = wall_ms() + 1000;
	struct store_claim_rules rules = {2, 1, 0};
	struct store_breaker brk = {3, 5000, 20000};
	struct store_delivery d, d2;
	int64_t next = -1;
	test_cond("use: bob's first is claimed and held a worker 900 ms",
	          store_delivery_claim(s, now, 60000, &rules, &d, &next) == 0 &&
	              strcmp(d.hook.dest, "busy.example:80") == 0 &&
	              store_delivery_done(s, d.ev.key, d.hook.dest,
	                                  STORE_DEST_FAST, 900, 1, 204, NULL, 0,
	                                  &brk) == 0);
	int64_t bob_first = d.ev.key;
	store_delivery_release(&d);
	open_game(s, 97, host, carol);
	test_cond("use: carol's destination, which used none, goes before "
	          "bob's two due earlier",
	          store_delivery_claim(s, now, 60000, &rules, &d, &next) == 0 &&
	              strcmp(d.hook.dest, "quiet.example:80") == 0);
	store_delivery_release(&d);
	test_cond("use: then bob's, in order",
	          store_delivery_claim(s, now, 60000, &rules, &d2, &next) ==
	                  0 &&
	              strcmp(d2.hook.dest, "busy.example:80") == 0 &&
	              d2.ev.key > bob_first);
	int64_t bob_second = d2.ev.key;
	store_delivery_release(&d2);
	test_cond("use: a negative time in flight is refused",
	          store_delivery_done(s, bob_second, "busy.example:80",
	                              STORE_DEST_FAST, -1, 1, 204, NULL, 0,
	                              &brk) == BD_EBADREQUEST);
	open_game(s, 98, host, carol);
	test_cond("use: drained (16 x 900 ms later), the two are even, and "
	          "the delivery due first goes first: bob's third",
	          store_delivery_claim(s, now + 16 * 1000, 60000, &rules, &d,
	                               &next) == 0 &&
	              strcmp(d.hook.dest, "busy.example:80") == 0 &&
	              d.ev.key > bob_second);
	store_delivery_release(&d);
	store_close(s);
}

/* ---- bot seats ---------------------------------------------------- */

/* A 2-seat game: seat 0 held by a token, seat 1 by the bot `spec`; seat
 * `acts` to act. */
static int64_t bot_game(struct store *s, int tag, const char *spec, int acts)
{
	struct store_game g = new_game(tag, "agent-avenue", "active");
	struct store_seat seats[2] = {{.seat = 0, .has_token = 1}, {.seat = 1}};
	token_hash(seats[0].token_hash, tag, 0);
	snprintf(seats[1].bot, sizeof seats[1].bot, "%s", spec);
	g.to_act = 1u << acts;
	int64_t key = -1;
	if (store_game_create(s, &g, seats, NULL, &key) < 0)
		return -1;
	return key;
}

static int collect_key(void *ctx, int64_t key)
{
	int64_t *keys = ctx;
	keys[++keys[0]] = key; /* keys[0] counts */
	return 0;
}

/* The keys store_bot_games_each lists after `after` (at most 8). */
static int64_t bot_games(struct store *s, int64_t after, int limit,
                         int64_t *keys)
{
	keys[0] = 0;
	if (store_bot_games_each(s, after, limit, collect_key, keys) < 0)
		return -1;
	return keys[0];
}

static void test_bot_seats(void)
{
	struct store *s = NULL;
	open_store("bots", 2, &s);
	const char *spec = "{\"bot\":\"mcts\",\"level\":3}";
	int64_t due = bot_game(s, 1, spec, 1);   /* the bot is to act */
	int64_t waits = bot_game(s, 2, spec, 0); /* the person is */
	int64_t due2 = bot_game(s, 3, "{\"bot\":\"random\"}", 1);
	int64_t plain = -1;
	create_game(s, 4, "agent-avenue", "active", &plain);
	test_cond("bots: created",
	          due > 0 && waits > 0 && due2 > 0 && plain > 0);
	struct store_game g;
	test_cond("bots: the row reads its bot seats",
	          store_game_by_key(s, due, &g) == 0 && g.bot_seats == 2u &&
	              strcmp(g.bots, "[{\"seat\":1,\"bot\":{\"bot\":"
	                             "\"mcts\",\"level\":3}}]") == 0);
	store_game_release(&g);
	test_cond("bots: a game without bots reads []",
	          store_game_by_key(s, plain, &g) == 0 && g.bot_seats == 0 &&
	              strcmp(g.bots, "[]") == 0);
	store_game_release(&g);
	struct store_seat seats[4];
	int n = 0;
	test_cond("bots: the seat reads its spec, no token, not open",
	          store_seats_get(s, due, seats, 4, &n) == 0 && n == 2 &&
	              strcmp(seats[1].bot, spec) == 0 && !seats[1].has_token &&
	              !seats[1].open && seats[0].bot[0] == '\0');
	int64_t keys[9];
	test_cond("bots: the games where a bot is to act, in key order",
	          bot_games(s, 0, 8, keys) == 2 && keys[1] == due &&
	              keys[2] == due2);
	test_cond("bots: paged by key",
	          bot_games(s, 0, 1, keys) == 1 && keys[1] == due &&
	              bot_games(s, due, 1, keys) == 1 && keys[1] == due2 &&
	              bot_games(s, due2, 1, keys) == 0);
	struct store_move mv = move(1, "{\"type\":\"x\"}");
	mv.to_act = 1u;
	test_cond("bots: once the bot moved, not listed",
	          store_move_append(s, due, 0, &mv, NULL, NULL) == 0 &&
	              bot_games(s, 0, 8, keys) == 1 && keys[1] == due2);
	mv.status = "finished";
	mv.to_act = 0;
	mv.seat = 0;
	test_cond("bots: a finished game is not listed",
	          store_move_append(s, due2, 0, &mv, NULL, NULL) == 0 &&
	              bot_games(s, 0, 8, keys) == 0);
	test_cond("bots: bad limits refused",
	          store_bot_games_each(s, 0, 0, collect_key, keys) ==
	                  BD_EBADREQUEST &&
	              store_bot_games_each(s, 0, 1001, collect_key, keys) ==
	                  BD_EBADREQUEST);
	store_close(s);
	/* The schema: a bot seat has no other holder and is never open. */
	test_cond("bots: a bot seat with a token is refused",
	          raw_exec("bots",
	                   "UPDATE seats SET token_hash = "
	                   "zeroblob(32) WHERE bot IS NOT NULL") != SQLITE_OK);
	test_cond("bots: an open bot seat is refused",
	          raw_exec("bots", "UPDATE seats SET open = 1 "
	                           "WHERE bot IS NOT NULL") != SQLITE_OK);
	test_cond("bots: a bot spec must be JSON",
	          raw_exec("bots", "UPDATE seats SET bot = 'mcts' "
	                           "WHERE bot IS NOT NULL") != SQLITE_OK);
}

/* Another process (here: a raw connection) holds the write lock: a write
 * waits at most busy_timeout_ms and fails BD_EBUSY having changed
 * nothing; reads go on meanwhile; once released the write succeeds. */
static void test_write_lock_held_elsewhere(void)
{
	struct store *s = NULL;
	struct store_config cfg = {.path = db_path("locked"),
	                           .connections = 2,
	                           .busy_timeout_ms = 300};
	char err[256];
	test_cond("locked: opens", store_open(&cfg, &s, err, sizeof err) == 0);
	int64_t key = 0;
	create_game(s, 40, "agent-avenue", "active", &key);
	sqlite3 *other = NULL;
	sqlite3_open(db_path("locked"), &other);
	test_cond("locked: the other connection takes the write lock",
	          sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) ==
	              SQLITE_OK);
	struct store_move m = move(0, "{\"recruit\":1}");
	test_cond("locked: a move is busy",
	          store_move_append(s, key, 0, &m, NULL, NULL) == BD_EBUSY);
	test_cond("locked: a new game is busy",
	          create_game(s, 41, "agent-avenue", "active", &key) ==
	              BD_EBUSY);
	struct store_game g = {0};
	test_cond("locked: reads go on",
	          store_game_get(s, "0000000000000028", &g) == 0 && g.seq == 0);
	store_game_release(&g);
	test_cond("locked: the file is fine", store_check(s) == 0);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	test_cond("locked: after release the move lands",
	          store_move_append(s, key, 0, &m, NULL, NULL) == 0);
	store_close(s);
	test_cond("locked: one game, one move",
	          raw_query("locked",
	                    "SELECT (SELECT count(*) FROM games) * 10 + "
	                    "(SELECT count(*) FROM moves)",
	                    NULL, 0) == 11);
}

/* The file deleted, then another put in its place, under an open store:
 * store_check says so and every write is BD_EUNAVAILABLE (not written
 * into the unlinked file); reads of what was there go on. */
static void test_file_deleted_or_replaced(void)
{
	const char *names[] = {"deleted", "replaced"};
	for (int i = 0; i < 2; i++) {
		struct store *s = NULL;
		open_store(names[i], 1, &s);
		int64_t key = 0;
		create_game(s, 50 + i, "agent-avenue", "active", &key);
		char path[160];
		snprintf(path, sizeof path, "%s", db_path(names[i]));
		unlink(path);
		FILE *f = i == 1 ? fopen(path, "w") : NULL; /* a new file */
		if (f)
			fclose(f);
		test_cond(names[i], store_check(s) == BD_EUNAVAILABLE);
		struct store_move m = move(0, "{\"recruit\":1}");
		test_cond(names[i], store_move_append(s, key, 0, &m, NULL,
		                                      NULL) == BD_EUNAVAILABLE);
		test_cond(names[i],
		          create_game(s, 60 + i, "agent-avenue", "active",
		                      &key) == BD_EUNAVAILABLE);
		struct store_game g = {0};
		char id[17];
		snprintf(id, sizeof id, "%016x", (unsigned)(50 + i));
		test_cond(names[i],
		          store_game_get(s, id, &g) == 0 && g.seq == 0);
		store_game_release(&g);
		store_close(s);
	}
}

/* ---- group commit (store.h, "Group commit") --------------------------- */

/* A change listener that can hold the leader of a batch: once armed, the
 * next call blocks (its batch committed, its leader role held) until the
 * gate is opened, so the writes started meanwhile queue and go in one
 * next batch.  It records every player it is told of, in order. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int armed, held, open;
	int n;
	int64_t told[32];
};

static void gate_listener(void *ctx, int64_t player)
{
	struct gate *g = ctx;
	pthread_mutex_lock(&g->mu);
	if (g->n < 32)
		g->told[g->n] = player;
	g->n++;
	if (g->armed) {
		g->armed = 0;
		g->held = 1;
		pthread_cond_broadcast(&g->cv);
		while (!g->open)
			pthread_cond_wait(&g->cv, &g->mu);
		g->held = 0;
	}
	pthread_mutex_unlock(&g->mu);
}

/* One write run on its own thread, as a request of a batch. */
struct bwrite {
	pthread_t th;
	struct store *s;
	enum { BW_CREATE, BW_MOVE } kind;
	int tag;           /* BW_CREATE: the game's tag (its id) */
	int64_t player;    /* BW_CREATE: seat 0's holder */
	int64_t key;       /* BW_MOVE: the game; BW_CREATE: out, its key */
	uint64_t expected; /* BW_MOVE */
	uint64_t current;  /* BW_MOVE: out on BD_ECONFLICT */
	int rc;            /* out */
	atomic_int done;
};

static void *bwrite_run(void *arg)
{
	struct bwrite *w = arg;
	if (w->kind == BW_CREATE) {
		struct store_game g =
		    new_game(w->tag, "agent-avenue", "active");
		uint8_t h[STORE_TOKEN_HASH_LEN];
		token_hash(h, w->tag, 1);
		struct store_seat seats[2] = {
		    {.seat = 0, .player_key = w->player},
		    {.seat = 1, .has_token = 1}};
		memcpy(seats[1].token_hash, h, sizeof h);
		w->rc = store_game_create(w->s, &g, seats, NULL, &w->key);
	} else {
		struct store_move m = move((int)(w->expected % 2), "{\"b\":1}");
		w->rc = store_move_append(w->s, w->key, w->expected, &m, NULL,
		                          &w->current);
	}
	atomic_store(&w->done, 1);
	return NULL;
}

static unsigned queued(struct store *s)
{
	struct store_write_stats st;
	store_write_stats(s, &st);
	return st.queued;
}

/* Holds the leader of a batch: a create by `player` (told to the
 * listener) on its own thread, returned once it is held. */
static void gate_hold(struct gate *g, struct store *s, struct bwrite *blocker,
                      int tag, int64_t player)
{
	pthread_mutex_lock(&g->mu);
	g->armed = 1;
	g->open = 0;
	pthread_mutex_unlock(&g->mu);
	*blocker = (struct bwrite){
	    .s = s, .kind = BW_CREATE, .tag = tag, .player = player};
	pthread_create(&blocker->th, NULL, bwrite_run, blocker);
	pthread_mutex_lock(&g->mu);
	while (!g->held)
		pthread_cond_wait(&g->cv, &g->mu);
	g->n = 0; /* count from the next batch */
	pthread_mutex_unlock(&g->mu);
}

/* Starts w[0..n) one after the other, each once the one before it is
 * queued (or has given up), so that the queue holds them in order. */
static void start_queued(struct store *s, struct bwrite *w, int n)
{
	unsigned base = queued(s);
	for (int i = 0; i < n; i++) {
		w[i].s = s;
		pthread_create(&w[i].th, NULL, bwrite_run, &w[i]);
		while (queued(s) < base + (unsigned)i + 1 &&
		       !atomic_load(&w[i].done))
			sched_yield();
	}
}

static void gate_release(struct gate *g, struct bwrite *blocker,
                         struct bwrite *w, int n)
{
	pthread_mutex_lock(&g->mu);
	g->open = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	pthread_join(blocker->th, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(w[i].th, NULL);
}

static long long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void test_group_commit(void)
{
	struct store *s = NULL;
	open_store("batch", 1, &s);
	struct gate g = {.mu = PTHREAD_MUTEX_INITIALIZER,
	                 .cv = PTHREAD_COND_INITIALIZER};
	int64_t p[4];
	for (int i = 0; i < 4; i++)
		p[i] = make_player(s, 300 + i, "batcher");
	int64_t game = 0;
	create_game(s, 310, "agent-avenue", "active", &game); /* tokens */
	store_on_change(s, gate_listener, &g);
	struct store_write_stats st0, st1;

	/* A lone write is a batch of its own. */
	store_write_stats(s, &st0);
	struct bwrite lone = {.s = s, .kind = BW_MOVE, .key = game};
	bwrite_run(&lone);
	store_write_stats(s, &st1);
	test_cond("batch: a lone write lands", lone.rc == 0);
	test_cond("batch: a lone write is one batch, one commit",
	          st1.batches == st0.batches + 1 &&
	              st1.commits == st0.commits + 1 &&
	              st1.units == st0.units + 1);

	/* A batch whose units fail alone: a stale seq and a taken id roll
	 * back their own unit; a later unit sees an earlier one's move. */
	/* (The stats count the blocker's batch once its leader is done.) */
	struct bwrite blocker;
	store_write_stats(s, &st0);
	gate_hold(&g, s, &blocker, 320, p[0]);
	struct bwrite w[6] = {
	    {.kind = BW_CREATE, .tag = 321, .player = p[1]},
	    {.kind = BW_MOVE, .key = game, .expected = 1},
	    {.kind = BW_MOVE, .key = game, .expected = 1},   /* stale */
	    {.kind = BW_MOVE, .key = game, .expected = 2},   /* after w[1] */
	    {.kind = BW_CREATE, .tag = 321, .player = p[2]}, /* taken id */
	    {.kind = BW_CREATE, .tag = 322, .player = p[3]}};
	start_queued(s, w, 6);
	gate_release(&g, &blocker, w, 6);
	store_write_stats(s, &st1);
	test_cond("batch: the blocker landed", blocker.rc == 0);
	test_cond("batch: six queued writes went in one batch, one commit",
	          st1.batches == st0.batches + 2 &&
	              st1.commits == st0.commits + 2 &&
	              st1.units == st0.units + 7 && st1.largest >= 6);
	test_cond("batch: the good units are kept",
	          w[0].rc == 0 && w[1].rc == 0 && w[3].rc == 0 && w[5].rc == 0);
	test_cond("batch: a stale seq is its unit's conflict alone",
	          w[2].rc == BD_ECONFLICT && w[2].current == 2);
	test_cond("batch: a taken id is its unit's conflict alone",
	          w[4].rc == BD_ECONFLICT);
	struct store_game row = {0};
	store_game_by_key(s, game, &row);
	test_cond("batch: the game is at seq 3", row.seq == 3);
	store_game_release(&row);
	test_cond("batch: the log holds moves 1..3 once each",
	          raw_query("batch",
	                    "SELECT count(*) = 3 AND max(seq) = 3 FROM moves",
	                    NULL, 0) == 1);
	char sql[160];
	snprintf(sql, sizeof sql,
	         "SELECT count(*) FROM seats WHERE player_key = %lld",
	         (long long)p[2]);
	test_cond("batch: a rolled-back unit left no seat",
	          raw_query("batch", sql, NULL, 0) == 0);
	test_cond("batch: the listener heard the kept units, in commit order",
	          g.n == 2 && g.told[0] == p[1] && g.told[1] == p[3]);

	/* A batch with no unit kept is rolled back: no COMMIT, nothing
	 * written to the WAL (so no sync). */
	store_write_stats(s, &st0);
	gate_hold(&g, s, &blocker, 330, p[0]);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", db_path("batch"));
	long long wal_before = file_size(wal);
	struct bwrite bad[3] = {
	    {.kind = BW_MOVE, .key = game, .expected = 0},
	    {.kind = BW_MOVE, .key = game, .expected = 7},
	    {.kind = BW_CREATE, .tag = 322, .player = p[1]}};
	start_queued(s, bad, 3);
	gate_release(&g, &blocker, bad, 3);
	store_write_stats(s, &st1);
	test_cond("batch: every unit failed alone",
	          bad[0].rc == BD_ECONFLICT && bad[1].rc == BD_ECONFLICT &&
	              bad[2].rc == BD_ECONFLICT);
	test_cond("batch: a batch of failed units is not committed",
	          st1.batches == st0.batches + 2 &&
	              st1.commits == st0.commits + 1 &&
	              st1.rolled_back == st0.rolled_back + 1);
	test_cond("batch: ... and writes nothing to the WAL",
	          wal_before > 0 && file_size(wal) == wal_before);
	test_cond("batch: ... and tells no one", g.n == 0);

	/* A COMMIT that fails (the file size limit: no space) fails every
	 * unit of its batch, and none of it is in the file. */
	store_write_stats(s, &st0);
	gate_hold(&g, s, &blocker, 340, p[0]);
	struct rlimit old_lim, lim;
	getrlimit(RLIMIT_FSIZE, &old_lim);
	signal(SIGXFSZ, SIG_IGN);
	lim = old_lim;
	lim.rlim_cur = (rlim_t)file_size(wal);
	struct bwrite full[3] = {
	    {.kind = BW_CREATE, .tag = 341, .player = p[1]},
	    {.kind = BW_MOVE, .key = game, .expected = 3},
	    {.kind = BW_CREATE, .tag = 342, .player = p[2]}};
	setrlimit(RLIMIT_FSIZE, &lim);
	start_queued(s, full, 3);
	gate_release(&g, &blocker, full, 3);
	setrlimit(RLIMIT_FSIZE, &old_lim);
	store_write_stats(s, &st1);
	test_cond("batch: a failed commit fails every unit with no space",
	          full[0].rc == BD_ENOSPACE && full[1].rc == BD_ENOSPACE &&
	              full[2].rc == BD_ENOSPACE);
	test_cond("batch: ... counted as rolled back",
	          st1.commits == st0.commits + 1 &&
	              st1.rolled_back == st0.rolled_back + 1);
	test_cond("batch: ... and told no one", g.n == 0);
	store_game_by_key(s, game, &row);
	test_cond("batch: ... the move is not in the game", row.seq == 3);
	store_game_release(&row);
	test_cond("batch: ... nor its games",
	          store_game_get(s, "0000000000000155", &row) == BD_ENOTFOUND &&
	              store_game_get(s, "0000000000000156", &row) ==
	                  BD_ENOTFOUND);
	struct bwrite again = {
	    .s = s, .kind = BW_MOVE, .key = game, .expected = 3};
	bwrite_run(&again);
	test_cond("batch: with room again the move lands", again.rc == 0);

	/* A write not taken into a batch within busy_timeout_ms is busy,
	 * and nothing of it runs. */
	store_on_change(s, NULL, NULL);
	store_close(s);
	struct store_config cfg = {
	    .path = db_path("batch"), .connections = 1, .busy_timeout_ms = 100};
	char err[256];
	store_open(&cfg, &s, err, sizeof err);
	store_on_change(s, gate_listener, &g);
	gate_hold(&g, s, &blocker, 350, p[0]);
	struct bwrite late = {.kind = BW_MOVE, .key = game, .expected = 4};
	start_queued(s, &late, 1);
	while (!atomic_load(&late.done))
		sched_yield(); /* it gives up while the gate holds its batch */
	test_cond("batch: a write not taken in time is busy",
	          late.rc == BD_EBUSY && queued(s) == 0);
	gate_release(&g, &blocker, &late, 1);
	store_game_by_key(s, game, &row);
	test_cond("batch: ... and was not written", row.seq == 4);
	store_game_release(&row);
	store_on_change(s, NULL, NULL);
	store_close(s);
}

/* The queries a large database must answer by index (issue 13: listing,
 * "my games", "my turn", and the game and seat lookups): EXPLAIN QUERY
 * PLAN of the store's own statements, on the schema the migrations make,
 * never scans a table or an index whole.  A plan line "SCAN x" is a full
 * scan (but for a subquery the plan materialized first: bounded by its
 * LIMIT); "USE TEMP B-TREE" is a sort, allowed only for a player's own
 * games (bounded by their count, not the database's). */
static void test_listings_indexed(void)
{
	struct store *s = NULL;
	sqlite3 *db = NULL;
	int ok = open_store("plans", 1, &s) == 0 &&
	         sqlite3_open(db_path("plans"), &db) == SQLITE_OK;
	test_cond("plans: a store and a second connection", ok);
	static const struct {
		enum stmt id;
		const char *name;
		int sort_ok; /* 1: a temp B-tree sort is allowed */
	} q[] = {
	    {ST_LIST_ALL, "GET /v1/games", 0},
	    {ST_LIST_STATUS, "GET /v1/games?status=", 0},
	    {ST_LIST_RULES, "GET /v1/games?game=", 0},
	    {ST_LIST_BOTH, "GET /v1/games?status=&game=", 0},
	    {ST_PLAYER_GAMES, "my games and my turn", 1},
	    {ST_GAME_GET, "a game by id", 0},
	    {ST_SEAT_FIND, "a seat by token", 0},
	    {ST_SEATS_GET, "a game's seats", 0},
	    {ST_SEAT_FOR_PLAYER, "a player's seat", 0},
	    {ST_PLAYER_BY_TOKEN, "a player by token", 0},
	};
	for (size_t i = 0; ok && i < sizeof q / sizeof q[0]; i++) {
		char sql[8192];
		snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s",
		         store__stmt_sql(q[i].id));
		sqlite3_stmt *st = NULL;
		int prepared =
		    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
		int lines = 0, scans = 0, sorts = 0, both = 0;
		char made[64] = "";
		while (prepared && sqlite3_step(st) == SQLITE_ROW) {
			const char *d =
			    (const char *)sqlite3_column_text(st, 3);
			lines++;
			if (getenv("TEST_STORE_PLANS"))
				printf("  %s: %s\n", q[i].name, d);
			/* A subquery materialized first (its rows bounded
			 * by its own LIMIT) is read whole: not a table. */
			if (d && strncmp(d, "MATERIALIZE ", 12) == 0)
				snprintf(made, sizeof made, "SCAN %s", d + 12);
			if (d && strncmp(d, "SCAN ", 5) == 0 &&
			    strcmp(d, "SCAN CONSTANT ROW") != 0 &&
			    strcmp(d, made) != 0)
				scans++;
			if (d && strstr(d, "TEMP B-TREE"))
				sorts++;
			if (d && strstr(d, "games_by_status_rules (status=? "
			                   "AND rules_id=? AND key<?)"))
				both = 1;
		}
		sqlite3_finalize(st);
		char name[160];
		snprintf(name, sizeof name, "plans: %s has a plan", q[i].name);
		test_cond(name, prepared && lines > 0);
		snprintf(name, sizeof name, "plans: %s scans nothing whole",
		         q[i].name);
		test_cond(name, scans == 0);
		snprintf(name, sizeof name, "plans: %s needs no sort",
		         q[i].name);
		test_cond(name, q[i].sort_ok || sorts == 0);
		if (q[i].id == ST_LIST_BOTH)
			test_cond("plans: both filters walk one index "
			          "(sql/0017_listing.sql)",
			          both);
	}
	sqlite3_close(db);
	store_close(s);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_store.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_open_creates_schema();
	test_reopen_is_idempotent();
	test_create_get_round_trip();
	test_duplicate_id();
	test_duplicate_token_rolls_back();
	test_seat_for_token();
	test_append();
	test_append_seat_token();
	test_append_stale();
	test_append_chain();
	test_moves_each();
	test_snapshots();
	test_games_each();
	test_race();
	test_foreign_application_id();
	test_newer_user_version();
	test_players();
	test_claims();
	test_claim_reserved_first();
	test_blocks();
	test_rematch();
	test_idempotency_records();
	test_player_games();
	test_events();
	test_slow_and_answered();
	test_destination_use();
	test_bot_seats();
	test_write_lock_held_elsewhere();
	test_file_deleted_or_replaced();
	test_group_commit();
	test_listings_indexed();
	remove_tmpdir();
	return test_report("store");
}
