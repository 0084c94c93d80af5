/* bench_log.c: what reading a game costs as its log grows (issue 13,
 * "costs independent of log length"), in process: the service and the
 * SQLite store of the release build, no HTTP.  Run by tests/bench.sh
 * (make bench); prints figures and never judges them.
 *
 *   bench_log [-o SUMMARY] DIR MOVES...
 *
 * DIR should be a tmpfs (tests/bench.sh uses /dev/shm when there is one):
 * the figures are about replay and lookups, not the disk, and building
 * 100,000 moves one commit each is minutes on a disk that syncs.
 *
 * For each MOVES (e.g. 1000 100000): a database DIR/log-MOVES.db with one
 * 2-seat Quantum game of exactly MOVES moves, each posted through
 * service_move (so the store keeps a snapshot every SVC_SNAPSHOT_EVERY
 * moves, as the server does).  A game of 100,000 moves does not happen by
 * chance: each seat plays the first listed action of the first kind it
 * finds in PREFER (reconfiguring and moving ships never end a game), and
 * any listed action when none is.  The actions are chosen on an engine
 * copy in process, then posted.  Then, medians of REPEATS runs:
 *
 *   cold load      a new service (an empty state cache), then
 *                  service_game as seat 0: what the first read of a
 *                  game after a restart costs (goal: under 5 ms at
 *                  100,000 moves)
 *   full replay    load_fresh and every logged move applied, as the
 *                  server did on every cache miss before snapshots
 *   moves, last    service_moves ?after=MOVES-1 (the newest move)
 *   moves, page    service_moves ?after=MOVES/2&limit=100
 *   events resume  service_stream_open ?after=MOVES-1 and its first batch
 *
 * Each figure goes to SUMMARY as "log N: figure<TAB>ms<TAB>ms".
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "service/load.h"
#include "service/service.h"
#include "store/store.h"

#include "benchutil.h"

#define REPEATS 15

const char *bench_prog = "bench_log";

/* Kinds of action that keep a Quantum game going, best first. */
static const char *const PREFER[] = {"reconfigure", "move", NULL};

/* The action of the seat to act, as JSON text (caller frees), chosen on
 * g by PREFER; NULL when nobody may act. */
static char *choose(const struct engine_game *g, int *seat)
{
	unsigned to_act = engine_game_to_act(g);
	if (!to_act)
		return NULL;
	*seat = __builtin_ctz(to_act);
	struct engine_actions list = {0};
	if (engine_game_legal(g, *seat, &list) < 0 || list.n == 0)
		die("no legal action for the seat to act", NULL);
	size_t pick = 0;
	int found = 0;
	for (int k = 0; PREFER[k] && !found; k++)
		for (size_t i = 0; i < list.n && !found; i++) {
			json_t *a = g->rules->action_json(&list.v[i]);
			const char *t =
			    json_string_value(json_object_get(a, "type"));
			if (t && strcmp(t, PREFER[k]) == 0) {
				pick = i;
				found = 1;
			}
			json_decref(a);
		}
	json_t *a = g->rules->action_json(&list.v[pick]);
	char *text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	engine_actions_free(&list);
	return text;
}

struct game_ref {
	char id[STORE_ID_LEN + 1];
	char *token[2];
};

/* Creates the game and plays `moves` moves into it through the service;
 * exits when the game ends first. */
static void build(struct service *svc, struct store *st, unsigned long moves,
                  struct game_ref *ref)
{
	struct svc_err err = {0};
	json_t *body = json_pack("{s:s,s:i}", "game", "quantum", "seats", 2);
	json_t *out = NULL;
	if (service_create(svc, body, NULL, NULL, NULL, &out, &err) < 0)
		die("service_create", err.detail);
	json_decref(body);
	snprintf(ref->id, sizeof ref->id, "%s",
	         json_string_value(json_object_get(out, "id")));
	for (int i = 0; i < 2; i++)
		ref->token[i] = strdup(json_string_value(json_object_get(
		    json_array_get(json_object_get(out, "seats"), (size_t)i),
		    "token")));
	json_decref(out);
	/* The same game in process, to choose each move on. */
	struct engine_cache *cache = engine_cache_new(1);
	struct loaded l;
	if (!cache || load_game(st, cache, ref->id, &l, &err) < 0)
		die("load_game", err.detail);
	double t0 = bench_now();
	for (unsigned long i = 0; i < moves; i++) {
		int seat = 0;
		char *text = choose(l.g, &seat);
		if (!text) {
			fprintf(stderr,
			        "bench_log: the game ended after %" PRIu64
			        " moves\n",
			        l.g->seq);
			exit(1);
		}
		json_t *a = json_loads(text, 0, NULL);
		json_t *mv = json_pack("{s:O}", "action", a);
		uint64_t seq = 0;
		struct rules_why why;
		if (service_move(svc, ref->id, ref->token[seat], mv, NULL, NULL,
		                 &out, &seq, &err) < 0)
			die("service_move", err.detail);
		json_decref(out);
		if (engine_game_apply(l.g, seat, a, &why) < 0)
			die("engine_game_apply", why.detail);
		json_decref(mv);
		json_decref(a);
		free(text);
	}
	printf(
	    "  log %lu: built in %.1f s (%.0f moves/s through the service)\n",
	    moves, bench_now() - t0, (double)moves / (bench_now() - t0));
	loaded_release(&l);
	engine_cache_free(cache);
}

static double cold_load_ms(struct store *st, const struct game_ref *ref)
{
	struct service *svc = service_new(st, 16);
	struct svc_err err = {0};
	json_t *out = NULL;
	uint64_t seq;
	double t0 = bench_now();
	if (!svc ||
	    service_game(svc, ref->id, ref->token[0], &out, &seq, &err) < 0)
		die("service_game", err.detail);
	double ms = (bench_now() - t0) * 1e3;
	json_decref(out);
	service_free(svc);
	return ms;
}

struct replay_ctx {
	struct engine_game *g;
	struct svc_err err;
};

static int replay_one(void *ctx, uint64_t seq, int seat, const char *action,
                      const char *reason, int64_t created_ms)
{
	(void)reason, (void)created_ms;
	struct replay_ctx *r = ctx;
	return load_apply_logged(r->g, seq, seat, action, &r->err);
}

/* The pre-snapshot cache miss: the row, the setup and every move. */
static double full_replay_ms(struct store *st, const struct game_ref *ref)
{
	struct store_game row;
	struct replay_ctx r = {0};
	double t0 = bench_now();
	if (store_game_get(st, ref->id, &row) < 0 ||
	    load_fresh(&row, engine_rules_find(row.rules_id), &r.g, &r.err) <
	        0 ||
	    store_moves_each(st, row.key, 0, replay_one, &r) < 0)
		die("full replay", r.err.detail);
	double ms = (bench_now() - t0) * 1e3;
	engine_game_free(r.g);
	store_game_release(&row);
	return ms;
}

static double moves_ms(struct service *svc, const struct game_ref *ref,
                       const char *after, const char *limit)
{
	struct svc_err err = {0};
	json_t *out = NULL;
	double t0 = bench_now();
	if (service_moves(svc, ref->id, ref->token[1], after, limit, &out,
	                  &err) < 0)
		die("service_moves", err.detail);
	double ms = (bench_now() - t0) * 1e3;
	json_decref(out);
	return ms;
}

static double events_ms(struct service *svc, const struct game_ref *ref,
                        uint64_t after)
{
	struct svc_err err = {0};
	struct svc_stream *s = NULL;
	int64_t key;
	json_t *events = NULL;
	int finished;
	double t0 = bench_now();
	if (service_stream_open(svc, ref->id, ref->token[1], &after, &s, &key,
	                        &err) < 0 ||
	    service_stream_next(svc, s, &events, &finished) < 0)
		die("the event stream", err.detail);
	double ms = (bench_now() - t0) * 1e3;
	if (json_array_size(events) != 1)
		die("the event stream", "not one event after MOVES-1");
	json_decref(events);
	service_stream_close(s);
	return ms;
}

static void report(const char *summary, unsigned long moves, const char *what,
                   double *v)
{
	double m = bench_median(v, REPEATS);
	char fig[128];
	snprintf(fig, sizeof fig, "log %lu: %s", moves, what);
	printf("  %-44s %10.3f ms (median of %d)\n", fig, m, REPEATS);
	bench_summary(summary, fig, m, "ms");
}

int main(int argc, char **argv)
{
	const char *summary = NULL;
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "-o") == 0) {
		summary = argv[i + 1];
		i += 2;
	}
	if (i + 1 >= argc)
		die("usage: bench_log [-o SUMMARY] DIR MOVES...", NULL);
	const char *dir = argv[i++];
	for (; i < argc; i++) {
		unsigned long moves = strtoul(argv[i], NULL, 10);
		char path[4096], err[256];
		snprintf(path, sizeof path, "%s/log-%lu.db", dir, moves);
		unlink(path);
		struct store_config sc = {
		    .path = path, .connections = 2, .busy_timeout_ms = 5000};
		struct store *st = NULL;
		if (store_open(&sc, &st, err, sizeof err) < 0)
			die(path, err);
		struct service *svc = service_new(st, 16);
		struct game_ref ref;
		build(svc, st, moves, &ref);
		double v[REPEATS];
		char after[32], mid[32];
		snprintf(after, sizeof after, "%lu", moves - 1);
		snprintf(mid, sizeof mid, "%lu", moves / 2);
		for (int k = 0; k < REPEATS; k++)
			v[k] = cold_load_ms(st, &ref);
		report(summary, moves, "cold load (service_game)", v);
		for (int k = 0; k < REPEATS; k++)
			v[k] = full_replay_ms(st, &ref);
		report(summary, moves, "full replay (before snapshots)", v);
		for (int k = 0; k < REPEATS; k++)
			v[k] = moves_ms(svc, &ref, after, NULL);
		report(summary, moves, "GET moves ?after=last-1", v);
		for (int k = 0; k < REPEATS; k++)
			v[k] = moves_ms(svc, &ref, mid, "100");
		report(summary, moves, "GET moves ?after=half&limit=100", v);
		for (int k = 0; k < REPEATS; k++)
			v[k] = events_ms(svc, &ref, moves - 1);
		report(summary, moves, "events ?after=last-1, first batch", v);
		service_free(svc);
		store_close(st);
		free(ref.token[0]);
		free(ref.token[1]);
		for (const char *x = ""; x; x = *x ? NULL : "-wal") {
			char p2[4200];
			snprintf(p2, sizeof p2, "%s%s", path, x);
			unlink(p2);
		}
		snprintf(path + strlen(path), sizeof path - strlen(path),
		         "-shm");
		unlink(path);
	}
	return 0;
}
