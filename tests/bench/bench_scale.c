/* bench_scale.c: the scale figures of issue 13, in process, linked
 * against the release objects.  Run by tests/bench.sh (make bench,
 * BENCH_ONLY=scale); prints figures, never judges them.
 *
 *   bench_scale resident N DIR   N games in progress (Agent Avenue and
 *       Quantum alternately, 2 seats, MOVES moves each) created through
 *       the service (src/service) on a fresh database DIR/resident.db at
 *       synchronous=NORMAL, with a service of --cache-games N; each read
 *       once as seat 0 (GET /v1/games/{id}'s bytes); then the RSS growth
 *       per game (VmRSS of /proc/self/status, after minus before the
 *       games were created: the hot table, state cache, cached answers
 *       and whatever the allocator keeps) and the p50/p99 of READS hot
 *       reads of random games: as seat 0 and the 304 path (If-None-Match:
 *       the want callback says no) over all N, then a spectator's view
 *       and seat 0's /actions over WARM_POOL of them, each read once
 *       untimed first (their bytes are made at their first read).
 *   bench_scale listing N DIR    a database DIR/listing.db of N games
 *       (N/100 players, 2 seats each, 10% waiting, 60% active, 30%
 *       finished, both games) written by direct SQL inserts in one
 *       transaction matching the schema the store made; then the p50/p99
 *       of QUERIES of each of: GET /v1/games (no filter, ?status=,
 *       ?game=, both, each from a random cursor), and a random player's
 *       GET /v1/players/me/games and ?my_turn=true (service_list,
 *       service_player_games: the store's queries and the JSON).
 *   bench_scale ratings N DIR    a database DIR/ratings.db of N ratings
 *       of one category (docs/ratings.md; one in five provisional, one
 *       in four inactive for over 30 days) and their board_counts
 *       written by direct SQL; then
 *       the p50/p99 of QUERIES of each of: the leaderboard's top page of
 *       50 and a page of 50 after a random subject on the board
 *       (service_leaderboard: the count for its first rank, the page and
 *       the JSON), and a random subject's rank (store_leaderboard_rank).
 *
 * Each figure is printed as a line, and with SUMMARY given appended to
 * that file as "label<TAB>value<TAB>unit" (tests/bench.sh's summary).
 *
 *   bench_scale resident|listing|ratings N DIR [SUMMARY]
 */
#include <inttypes.h>
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "service/internal.h" /* svc->hot, to count what is resident */
#include "service/service.h"
#include "service/token.h"
#include "store/store.h"

#define MOVES     3      /* moves made in each resident game */
#define READS     100000 /* hot reads timed per figure */
#define QUERIES   300    /* listings timed per figure */
#define WARM_POOL 10000  /* games whose spectator view and actions are timed */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* VmRSS of this process, KiB. */
static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static FILE *summary; /* or NULL */

/* One figure: printed, and kept in the summary. */
static void fig(const char *label, double v, const char *unit)
{
	printf("  %-62s %12.*f %s\n", label, v >= 100 ? 0 : 2, v, unit);
	fflush(stdout);
	if (summary)
		fprintf(summary, "%s\t%.*f\t%s\n", label, v >= 100 ? 0 : 3, v,
		        unit);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The p50 and p99 of t[0..n) (seconds) as figures "NAME, p50 in
 * process" and "…, p99 in process", in microseconds (the summary's ratio
 * is then to the time of one reference request). */
static void report(const char *name, double *t, size_t n)
{
	char label[160];
	qsort(t, n, sizeof *t, cmp_double);
	snprintf(label, sizeof label, "%s, p50 in process", name);
	fig(label, t[n / 2] * 1e6, "us");
	snprintf(label, sizeof label, "%s, p99 in process", name);
	fig(label, t[n * 99 / 100] * 1e6, "us");
}

static void die(const char *what, const struct svc_err *err)
{
	fprintf(stderr, "bench_scale: %s: %s\n", what, err ? err->detail : "");
	exit(1);
}

static struct store *open_store(const char *path, int exclusive)
{
	struct store_config cfg = {.path = path,
	                           .sync_full = 0,
	                           .connections = 2,
	                           .busy_timeout_ms = 5000,
	                           .exclusive = exclusive};
	struct store *st = NULL;
	char why[256];
	if (store_open(&cfg, &st, why, sizeof why) < 0) {
		fprintf(stderr, "bench_scale: %s: %s\n", path, why);
		exit(1);
	}
	return st;
}

/* ---- resident ---- */

struct rgame {
	char id[STORE_ID_LEN + 1];
	char tok[2][TOKEN_LEN + 1];
};

/* The first listed action of whichever seat acts in game g, made. */
static void play_one(struct service *svc, struct rgame *g)
{
	for (int s = 0; s < 2; s++) {
		json_t *acts = NULL;
		struct svc_err err = {0};
		if (service_actions(svc, g->id, g->tok[s], &acts, &err) < 0)
			die("actions", &err);
		json_t *a = json_array_get(json_object_get(acts, "actions"), 0);
		if (a) {
			json_t *body = json_pack("{s:O}", "action", a);
			json_t *out = NULL;
			uint64_t seq;
			if (service_move(svc, g->id, g->tok[s], body, NULL,
			                 NULL, &out, &seq, &err) < 0)
				die("move", &err);
			json_decref(out);
			json_decref(body);
			json_decref(acts);
			return;
		}
		json_decref(acts);
	}
}

static void create_one(struct service *svc, struct rgame *g, int quantum)
{
	json_t *body =
	    json_pack("{s:s,s:i}", "game", quantum ? "quantum" : "agent-avenue",
	              "seats", 2);
	json_t *out = NULL;
	struct svc_err err = {0};
	if (service_create(svc, body, NULL, NULL, NULL, &out, &err) < 0)
		die("create", &err);
	snprintf(g->id, sizeof g->id, "%s",
	         json_string_value(json_object_get(out, "id")));
	json_t *seats = json_object_get(out, "seats");
	for (int s = 0; s < 2; s++)
		snprintf(g->tok[s], sizeof g->tok[s], "%s",
		         json_string_value(json_object_get(
		             json_array_get(seats, (size_t)s), "token")));
	json_decref(out);
	json_decref(body);
}

static int no_body(void *ctx, const struct svc_view *v)
{
	(void)ctx, (void)v;
	return 0; /* as an If-None-Match that matches: 304 */
}

/* One read of g: kind 0 seat 0's view, 1 a spectator's, 2 the 304 path,
 * 3 seat 0's actions; its time in seconds. */
static double read_one(struct service *svc, struct rgame *g, int kind)
{
	struct svc_err err = {0};
	struct svc_view v = {0};
	struct engine_bytes *body = NULL;
	double t0 = now_s();
	int rc;
	if (kind == 3)
		rc = service_actions_bytes(svc, g->id, g->tok[0], 0, &body,
		                           &err);
	else
		rc = service_game_bytes(
		    svc, g->id, kind == 1 ? NULL : g->tok[0],
		    kind == 2 ? no_body : NULL, NULL, &v, &err);
	double took = now_s() - t0;
	if (rc < 0)
		die("read", &err);
	engine_bytes_release(v.body);
	engine_bytes_release(body);
	return took;
}

/* Times READS reads (kind as read_one's) of random games among the first
 * `pool`, each of which was read so once before (untimed) unless warm. */
static void time_reads(struct service *svc, struct rgame *gs, size_t pool,
                       int warm, int kind, const char *name, double *t)
{
	for (size_t i = 0; !warm && i < pool; i++)
		read_one(svc, &gs[i], kind);
	for (size_t i = 0; i < READS; i++)
		t[i] = read_one(svc, &gs[rnd() % pool], kind);
	report(name, t, READS);
}

static int resident(size_t n, const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/resident.db", dir);
	struct store *st = open_store(path, 1);
	/* 16 shards of capacity/16 each: a little headroom keeps all n */
	struct service *svc = service_new(st, n + n / 8 + 16);
	struct rgame *gs = calloc(n, sizeof *gs);
	double *t = calloc(READS, sizeof *t);
	if (!svc || !gs || !t)
		return 1;
	memset(gs, 1, n * sizeof *gs); /* resident before the first figure */
	long rss0 = rss_kib();
	double t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		create_one(svc, &gs[i], (int)(i & 1));
		for (int m = 0; m < MOVES; m++)
			play_one(svc, &gs[i]);
	}
	double made = now_s() - t0;
	printf("  %zu games created with %d moves each in %.1f s\n", n, MOVES,
	       made);
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		struct svc_err err = {0};
		struct svc_view v = {0};
		if (service_game_bytes(svc, gs[i].id, gs[i].tok[0], NULL, NULL,
		                       &v, &err) < 0)
			die("read", &err);
		engine_bytes_release(v.body);
	}
	double read_once = now_s() - t0;
	long rss1 = rss_kib();
	printf("  each read once in %.1f s; RSS %ld KiB before the games, "
	       "%ld KiB after\n",
	       read_once, rss0, rss1);
	fig("scale: games resident in the hot table",
	    (double)hot_count(svc->hot), "games");
	fig("scale: RSS per resident game",
	    (double)(rss1 - rss0) * 1024.0 / (double)n, "bytes");
	/* Every game's seat-0 view was read above; the spectator's view and
	 * the actions are first read here, for WARM_POOL of them. */
	size_t pool = n < WARM_POOL ? n : WARM_POOL;
	time_reads(svc, gs, n, 1, 0, "scale: hot GET /v1/games/{id} (seat)", t);
	time_reads(svc, gs, n, 1, 2, "scale: hot If-None-Match -> 304", t);
	time_reads(svc, gs, pool, 0, 1,
	           "scale: hot GET /v1/games/{id} (spectator)", t);
	time_reads(svc, gs, pool, 0, 3, "scale: hot GET .../actions (seat)", t);
	printf("  games still resident after the timed reads: %zu of %zu\n",
	       hot_count(svc->hot), n);
	service_free(svc);
	store_close(st);
	free(gs);
	free(t);
	return 0;
}

/* ---- listing ---- */

static void exec_or_die(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "bench_scale: %s: %s\n", sql, msg);
		exit(1);
	}
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "bench_scale: %s: %s\n", sql,
		        sqlite3_errmsg(db));
		exit(1);
	}
	return s;
}

static void step_or_die(sqlite3 *db, sqlite3_stmt *s)
{
	if (sqlite3_step(s) != SQLITE_DONE) {
		fprintf(stderr, "bench_scale: insert: %s\n",
		        sqlite3_errmsg(db));
		exit(1);
	}
	sqlite3_reset(s);
}

static void player_token(size_t p, char out[64])
{
	snprintf(out, 64, "bench-scale-player-token-%zu", p);
}

/* Writes n games, n/100 players and their seats by direct SQL, in one
 * transaction. */
static void build_listing(const char *path, size_t n)
{
	store_close(open_store(path, 0)); /* the schema, by the store */
	sqlite3 *db = NULL;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		exit(1);
	exec_or_die(db, "PRAGMA synchronous=OFF; BEGIN");
	size_t np = n / 100 > 2 ? n / 100 : 2;
	int64_t base = (int64_t)time(NULL) * 1000 - (int64_t)n * 1000;
	sqlite3_stmt *pl = prep(db, "INSERT INTO players (key, id, name, "
	                            "token_hash, created_ms) VALUES "
	                            "(?1, ?2, ?3, ?4, ?5)");
	sqlite3_stmt *pt = prep(
	    db, "INSERT INTO player_tokens (id, player_key, token_hash, "
	        "label, created_ms) VALUES (?1, ?2, ?3, 'first token', ?4)");
	for (size_t p = 1; p <= np; p++) {
		char id[STORE_ID_LEN + 1], tok[64], name[32];
		uint8_t h[STORE_TOKEN_HASH_LEN];
		snprintf(id, sizeof id, "%016" PRIx64,
		         (uint64_t)(p * 0x9e3779b97f4a7c15ull));
		snprintf(name, sizeof name, "player %zu", p);
		player_token(p, tok);
		token_hash(tok, h);
		sqlite3_bind_int64(pl, 1, (int64_t)p);
		sqlite3_bind_text(pl, 2, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(pl, 3, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(pl, 4, h, sizeof h, SQLITE_TRANSIENT);
		sqlite3_bind_int64(pl, 5, base);
		step_or_die(db, pl);
		sqlite3_bind_text(pt, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(pt, 2, (int64_t)p);
		sqlite3_bind_blob(pt, 3, h, sizeof h, SQLITE_TRANSIENT);
		sqlite3_bind_int64(pt, 4, base);
		step_or_die(db, pt);
	}
	sqlite3_stmt *gi = prep(
	    db, "INSERT INTO games (key, id, rules_id, rules_version, seats, "
	        "seed, options, status, seq, to_act, result, created_ms, "
	        "updated_ms, open_seats, creator_player) VALUES (?1, ?2, ?3, "
	        "?4, 2, ?1, '{}', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
	sqlite3_stmt *si =
	    prep(db, "INSERT INTO seats (game_key, seat, player_key, open) "
	             "VALUES (?1, ?2, nullif(?3, 0), ?4)");
	const struct rules *aa = engine_rules_find("agent-avenue"),
	                   *qt = engine_rules_find("quantum");
	for (size_t i = 1; i <= n; i++) {
		const struct rules *r = i & 1 ? qt : aa;
		int kind = (int)(i % 10); /* 0 waiting, 1-6 active, 7-9 over */
		const char *status = kind == 0  ? "waiting"
		                     : kind < 7 ? "active"
		                                : "finished";
		char id[STORE_ID_LEN + 1];
		snprintf(id, sizeof id, "%016" PRIx64,
		         (uint64_t)(i * 0xd1b54a32d192ed03ull));
		int64_t p0 = (int64_t)(rnd() % np) + 1;
		int64_t p1 =
		    (p0 + (int64_t)(rnd() % (np - 1))) % (int64_t)np + 1;
		int64_t created = base + (int64_t)i * 1000;
		int64_t updated = created + (int64_t)(rnd() % 86400000);
		sqlite3_bind_int64(gi, 1, (int64_t)i);
		sqlite3_bind_text(gi, 2, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(gi, 3, r->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(gi, 4, (int)r->version);
		sqlite3_bind_text(gi, 5, status, -1, SQLITE_STATIC);
		sqlite3_bind_int(gi, 6, kind == 0 ? 0 : 5 + (int)(i % 40));
		sqlite3_bind_int(gi, 7,
		                 kind >= 1 && kind < 7 ? 1 << (i & 1) : 0);
		if (kind >= 7)
			sqlite3_bind_text(gi, 8, "{\"winners\":[0]}", -1,
			                  SQLITE_STATIC);
		else
			sqlite3_bind_null(gi, 8);
		sqlite3_bind_int64(gi, 9, created);
		sqlite3_bind_int64(gi, 10, updated);
		sqlite3_bind_int(gi, 11, kind == 0);
		sqlite3_bind_int64(gi, 12, p0);
		step_or_die(db, gi);
		for (int s = 0; s < 2; s++) {
			int open = kind == 0 && s == 1;
			sqlite3_bind_int64(si, 1, (int64_t)i);
			sqlite3_bind_int(si, 2, s);
			sqlite3_bind_int64(si, 3, open ? 0 : s ? p1 : p0);
			sqlite3_bind_int(si, 4, open);
			step_or_die(db, si);
		}
	}
	sqlite3_finalize(pl);
	sqlite3_finalize(pt);
	sqlite3_finalize(gi);
	sqlite3_finalize(si);
	exec_or_die(db, "COMMIT");
	sqlite3_close(db);
}

static void time_list(struct service *svc, size_t n, const char *status,
                      const char *game, const char *name, double *t)
{
	for (size_t i = 0; i < QUERIES; i++) {
		char cursor[24];
		snprintf(cursor, sizeof cursor, "%" PRIu64, rnd() % n + 2);
		struct svc_list_query q = {status, game, "20", cursor};
		json_t *out = NULL;
		struct svc_err err = {0};
		double t0 = now_s();
		int rc = service_list(svc, &q, &out, &err);
		t[i] = now_s() - t0;
		if (rc < 0)
			die("list", &err);
		json_decref(out);
	}
	report(name, t, QUERIES);
}

/* One GET /v1/players/me/games of player p; its time in seconds. */
static double mine_one(struct service *svc, size_t p, const char *my_turn)
{
	char tok[64];
	player_token(p, tok);
	struct svc_my_games_query q = {NULL, my_turn, "20", NULL};
	json_t *out = NULL;
	struct svc_err err = {0};
	double t0 = now_s();
	int rc = service_player_games(svc, tok, &q, &out, &err);
	double took = now_s() - t0;
	if (rc < 0)
		die("my games", &err);
	json_decref(out);
	return took;
}

/* Times QUERIES listings of a random player's games among the first
 * QUERIES players, each asked once untimed first: that first use of a
 * token in a minute also records its use (a write, load_token_seen),
 * which is not the listing's cost. */
static void time_mine(struct service *svc, size_t np, const char *my_turn,
                      const char *name, double *t)
{
	size_t pool = np < QUERIES ? np : QUERIES;
	for (size_t p = 1; p <= pool; p++)
		mine_one(svc, p, my_turn);
	for (size_t i = 0; i < QUERIES; i++)
		t[i] = mine_one(svc, rnd() % pool + 1, my_turn);
	report(name, t, QUERIES);
}

static int listing(size_t n, const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/listing.db", dir);
	double t0 = now_s();
	build_listing(path, n);
	struct stat sb;
	printf("  %zu games written in %.1f s, a file of %.0f MiB\n", n,
	       now_s() - t0,
	       stat(path, &sb) == 0 ? (double)sb.st_size / 1048576.0 : 0.0);
	struct store *st = open_store(path, 1);
	struct service *svc = service_new(st, 4096);
	double *t = calloc(QUERIES, sizeof *t);
	if (!svc || !t)
		return 1;
	size_t np = n / 100 > 2 ? n / 100 : 2;
	time_list(svc, n, NULL, NULL, "scale: GET /v1/games", t);
	time_list(svc, n, "active", NULL, "scale: GET /v1/games?status=active",
	          t);
	time_list(svc, n, "finished", NULL,
	          "scale: GET /v1/games?status=finished", t);
	time_list(svc, n, "waiting", NULL,
	          "scale: GET /v1/games?status=waiting", t);
	time_list(svc, n, NULL, "quantum", "scale: GET /v1/games?game=quantum",
	          t);
	time_list(svc, n, "active", "agent-avenue",
	          "scale: GET /v1/games?status=active&game=agent-avenue", t);
	time_mine(svc, np, NULL, "scale: GET /v1/players/me/games", t);
	time_mine(svc, np, "true",
	          "scale: GET /v1/players/me/games?my_turn=true", t);
	service_free(svc);
	store_close(st);
	free(t);
	return 0;
}

/* ---- ratings (docs/ratings.md): a leaderboard of n subjects ---- */

#define BOARD_CATEGORY "quantum-2p"

/* Writes n ratings of category BOARD_CATEGORY by direct SQL, in one
 * transaction: shown ratings spread over 800..2800, one in five
 * provisional, one in four last rated 31 to 400 days ago (off the board).
 * Subject i is "s" and i in 15 digits.  Returns now (unix ms). */
static int64_t build_board(const char *path, size_t n)
{
	store_close(open_store(path, 0)); /* the schema, by the store */
	sqlite3 *db = NULL;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		exit(1);
	exec_or_die(db, "PRAGMA synchronous=OFF; BEGIN");
	sqlite3_stmt *ins = prep(
	    db, "INSERT INTO ratings (category, subject, player_key, system, "
	        "rating, deviation, volatility, shown, provisional, games, "
	        "wins, last_ms, bucket) VALUES ('" BOARD_CATEGORY "', ?1, "
	        "NULL, 'glicko2', ?2, ?3, 0.06, ?2, ?4, ?5, ?6, ?7, ?8)");
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	for (size_t i = 0; i < n; i++) {
		char subject[32];
		snprintf(subject, sizeof subject, "s%015zu", i);
		double shown = 800 + (double)(rnd() % 2000000) / 1000.0;
		int provisional = rnd() % 5 == 0;
		int64_t last = rnd() % 4 == 0
		                   ? now - (int64_t)(31 + rnd() % 370) * 86400000
		                   : now - (int64_t)(rnd() % (29 * 86400000ull));
		int64_t games = 1 + (int64_t)(rnd() % 500);
		sqlite3_bind_text(ins, 1, subject, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(ins, 2, shown);
		sqlite3_bind_double(ins, 3, provisional ? 150.0 : 60.0);
		sqlite3_bind_int(ins, 4, provisional);
		sqlite3_bind_int64(ins, 5, games);
		sqlite3_bind_int64(ins, 6, games / 2);
		sqlite3_bind_int64(ins, 7, last);
		sqlite3_bind_int64(ins, 8, (int64_t)(shown / 10)); /* glicko2's */
		step_or_die(db, ins);
	}
	sqlite3_finalize(ins);
	/* the counts the store keeps as it writes ratings */
	exec_or_die(db, "INSERT INTO board_counts (category, day, bucket, n) "
	                "SELECT category, last_ms / 86400000, bucket, count(*) "
	                "FROM ratings WHERE provisional = 0 GROUP BY 1, 2, 3");
	exec_or_die(db, "COMMIT; ANALYZE");
	sqlite3_close(db);
	return now;
}

static int rank_one(void *ctx, const struct store_rating *r)
{
	(void)r;
	(*(int *)ctx)++;
	return 0;
}

static int ratings(size_t n, const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/ratings.db", dir);
	double t0 = now_s();
	build_board(path, n);
	printf("  %zu ratings written in %.1f s\n", n, now_s() - t0);
	struct store *st = open_store(path, 1);
	struct service *svc = service_new(st, 4096);
	double *t = calloc(QUERIES, sizeof *t);
	if (!svc || !t)
		return 1;
	struct svc_err err = {0};
	json_t *out = NULL;
	/* The top page, as the endpoint answers it (JSON included). */
	for (size_t i = 0; i < QUERIES; i++) {
		double a = now_s();
		if (service_leaderboard(svc, BOARD_CATEGORY, NULL, "50", &out,
		                        &err) < 0)
			die("leaderboard", &err);
		t[i] = now_s() - a;
		json_decref(out);
	}
	report("scale: GET /v1/leaderboards/{category} (top 50)", t, QUERIES);
	/* A page after a random subject on the board (a deep page), and a
	 * random subject's rank; subjects off the board are drawn again. */
	int64_t since = 0;
	{
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		since = ((int64_t)ts.tv_sec / 86400 - 30) * 86400000ll;
	}
	size_t done = 0;
	while (done < QUERIES) {
		char subject[32];
		snprintf(subject, sizeof subject, "s%015zu", (size_t)(rnd() % n));
		struct store_rating r;
		int64_t rank = 0;
		double a = now_s();
		int rc = store_leaderboard_rank(st, BOARD_CATEGORY, subject,
		                                since, &r, &rank);
		double b = now_s();
		if (rc < 0)
			die("rank", NULL);
		if (!rank)
			continue;
		t[done++] = b - a;
	}
	report("scale: a player's leaderboard rank (store_leaderboard_rank)",
	       t, QUERIES);
	done = 0;
	while (done < QUERIES) {
		char subject[32];
		snprintf(subject, sizeof subject, "s%015zu", (size_t)(rnd() % n));
		double a = now_s();
		int rc = service_leaderboard(svc, BOARD_CATEGORY, subject, "50",
		                             &out, &err);
		double b = now_s();
		if (rc == BD_EBADREQUEST)
			continue; /* off the board: drawn again */
		if (rc < 0)
			die("leaderboard page", &err);
		json_decref(out);
		t[done++] = b - a;
	}
	report("scale: GET /v1/leaderboards/{category}?after= (any page of 50)",
	       t, QUERIES);
	int rows = 0;
	int64_t first = 0;
	store_leaderboard(st, BOARD_CATEGORY, since, NULL, 1, &first, rank_one,
	                  &rows);
	service_free(svc);
	store_close(st);
	free(t);
	return rows == 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if ((argc != 4 && argc != 5) || atol(argv[2]) < 2) {
		fputs("usage: bench_scale resident|listing|ratings N DIR [SUMMARY]\n",
		      stderr);
		return 2;
	}
	if (argc == 5 && !(summary = fopen(argv[4], "a"))) {
		perror(argv[4]);
		return 1;
	}
	size_t n = (size_t)atol(argv[2]);
	if (sodium_init() < 0)
		return 1;
	int rc = 2;
	if (strcmp(argv[1], "resident") == 0)
		rc = resident(n, argv[3]);
	else if (strcmp(argv[1], "listing") == 0)
		rc = listing(n, argv[3]);
	else if (strcmp(argv[1], "ratings") == 0)
		rc = ratings(n, argv[3]);
	if (summary)
		fclose(summary);
	if (rc != 2)
		return rc;
	fputs("usage: bench_scale resident|listing|ratings N DIR\n", stderr);
	return 2;
}
