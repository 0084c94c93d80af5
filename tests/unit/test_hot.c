/* test_hot.c: the hot game table (src/service/hot.c, docs/read-path.md).
 * The table alone: a miss's ticket keeps nothing once a write of the game
 * began, a write in flight makes reads bypass it, waiting games are never
 * kept, a borrowed entry outlives its eviction.  Then through the service
 * on a real store: a hot read answers from memory (a change made behind
 * the service's back by another connection is not seen: why one process
 * must own the file), and every write of the game (a move, a resignation,
 * a join, a seat token attached to a player) is seen at the next read. */
#include <inttypes.h>
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "service/internal.h"
#include "service/service.h"
#include "testhelp.h"

static char tmpdir[64];

static struct store_game row_of(const char *id, const char *status,
                                uint64_t seq)
{
	struct store_game g = {.key = 7, .seats = 2, .seq = seq};
	snprintf(g.id, sizeof g.id, "%s", id);
	snprintf(g.status, sizeof g.status, "%s", status);
	snprintf(g.rules_id, sizeof g.rules_id, "agent-avenue");
	g.options = (char *)"{}";
	return g;
}

static void test_table(void)
{
	struct hot_table *t = hot_new(64);
	struct store_seat seats[2] = {{.seat = 0, .has_token = 1},
	                              {.seat = 1, .player_key = 9}};
	struct hot_ticket tk;
	const char *id = "00000000000000aa";
	struct store_game g = row_of(id, "active", 3);

	test_cond("table: a miss gives a ticket that allows a put",
	          !hot_get(t, id, &tk) && tk.ok);
	const struct hot_game *e = hot_put(t, &tk, &g, seats, 2);
	test_cond("table: put keeps a copy",
	          e && e != NULL && e->row.seq == 3 &&
	              e->row.options != g.options && e->nseats == 2 &&
	              e->seats[1].player_key == 9);
	hot_release(e);
	e = hot_get(t, id, &tk);
	test_cond("table: then a hit", e && e->row.seq == 3);

	/* A write drops it; a ticket taken before the write keeps nothing. */
	hot_write_begin(t, id);
	hot_write_end(t, id);
	const struct hot_game *e2 = hot_get(t, id, &tk);
	test_cond("table: a write dropped the entry", !e2 && tk.ok);
	test_cond("table: the borrowed entry is still readable",
	          e->row.seq == 3 && strcmp(e->row.id, id) == 0);
	hot_release(e);
	struct hot_ticket before = tk;
	hot_write_begin(t, id);
	test_cond("table: a write in flight: a miss may keep nothing",
	          !hot_get(t, id, &tk) && !tk.ok);
	test_cond("table: nor may a ticket from before it",
	          !hot_put(t, &before, &g, seats, 2));
	hot_write_end(t, id);
	test_cond("table: nor after it (the row read may predate the commit)",
	          !hot_put(t, &before, &g, seats, 2));
	test_cond("table: a fresh ticket may",
	          !hot_get(t, id, &tk) && tk.ok &&
	              (e = hot_put(t, &tk, &g, seats, 2)) != NULL);
	hot_release(e);

	/* A write whose game is unknown: every read bypasses the table. */
	hot_write_begin_all(t);
	test_cond("table: during begin_all, no hit",
	          !hot_get(t, id, &tk) && !tk.ok);
	hot_write_end_all(t, id);
	test_cond("table: end_all dropped its game",
	          !hot_get(t, id, &tk) && tk.ok);

	/* A move publishes the row its COMMIT left, with the entry's seats,
	 * only when nothing else touched the game's mark meanwhile. */
	struct hot_move hm;
	struct store_game moved = row_of(id, "active", 4);
	moved.result = (char *)"{\"x\":1}";
	if (!hot_get(t, id, &tk))
		hot_release(hot_put(t, &tk, &g, seats, 2));
	test_cond("move: the game is hot before the move",
	          (e = hot_get(t, id, &tk)) != NULL);
	hot_release(e);
	hot_move_begin(t, id, &hm);
	test_cond("move: in flight, reads bypass the table",
	          !hot_get(t, id, &tk) && !tk.ok);
	hot_move_end(t, id, &hm, &moved);
	e = hot_get(t, id, &tk);
	test_cond("move: its row is the entry, the seats kept, copied",
	          e && e->row.seq == 4 && e->row.result != moved.result &&
	              strcmp(e->row.result, "{\"x\":1}") == 0 &&
	              e->nseats == 2 && e->seats[1].player_key == 9);
	hot_release(e);
	hot_move_begin(t, id, &hm);
	hot_move_end(t, id, &hm, NULL);
	test_cond("move: a failed write leaves no entry",
	          !hot_get(t, id, &tk) && tk.ok);
	hot_move_begin(t, id, &hm);
	moved.seq = 5;
	hot_move_end(t, id, &hm, &moved);
	test_cond("move: nor does a move of a game the table did not hold",
	          !hot_get(t, id, &tk) && tk.ok);
	/* Each way the row may not be the store's: another write of the
	 * game (or of its mark) began or ended, another node changed it, a
	 * write of an unknown game ran. */
	for (int k = 0; k < 4; k++) {
		if (!hot_get(t, id, &tk))
			hot_release(hot_put(t, &tk, &g, seats, 2));
		hot_move_begin(t, id, &hm);
		struct hot_move other;
		if (k == 0) {
			hot_write_begin(t, id);
			hot_write_end(t, id);
		} else if (k == 1) {
			hot_move_begin(t, id, &other);
		} else if (k == 2) {
			hot_forget(t, id);
		} else {
			hot_write_begin_all(t);
			hot_write_end_all(t, NULL);
		}
		hot_move_end(t, id, &hm, &moved);
		int kept = (e = hot_get(t, id, &tk)) != NULL;
		hot_release(e);
		if (k == 1) {
			hot_move_end(t, id, &other, &moved);
			kept |= (e = hot_get(t, id, &tk)) != NULL;
			hot_release(e);
		}
		char what[96];
		snprintf(
		    what, sizeof what, "move: not kept when %s ran meanwhile",
		    (const char *[]){"another write", "another move",
		                     "hot_forget", "a write of any game"}[k]);
		test_cond(what, !kept);
	}

	struct store_game w = row_of("00000000000000bb", "waiting", 0);
	test_cond("table: a waiting game is never kept",
	          !hot_get(t, w.id, &tk) && !hot_put(t, &tk, &w, seats, 2));

	/* Bounded: 64 entries at most (4 a shard). */
	for (int i = 0; i < 1000; i++) {
		char gid[STORE_ID_LEN + 1];
		snprintf(gid, sizeof gid, "%016x", i);
		struct store_game x = row_of(gid, "finished", 1);
		if (!hot_get(t, gid, &tk))
			hot_release(hot_put(t, &tk, &x, seats, 2));
	}
	test_cond("table: bounded by its capacity", hot_count(t) <= 64);
	hot_free(t);
}

/* ---- through the service ---- */

static json_t *call_create(struct service *svc, const char *text)
{
	json_t *body = json_loads(text, 0, NULL), *out = NULL;
	struct svc_err err = {0};
	int rc = service_create(svc, body, NULL, NULL, NULL, &out, &err);
	json_decref(body);
	if (rc < 0)
		fprintf(stderr, "create: %d %s\n", rc, err.detail);
	return out;
}

/* The seq of game id as `token` reads it (GET /v1/games/{id} bytes), and
 * a NUL-ended copy of the body in *body if not NULL (caller frees); -1
 * on an error. */
static long view_seq(struct service *svc, const char *id, const char *token,
                     char **body)
{
	struct svc_view v = {0};
	struct svc_err err = {0};
	if (service_game_bytes(svc, id, token, NULL, NULL, &v, &err) < 0)
		return -1;
	const char *b = engine_bytes_data(v.body);
	size_t n = engine_bytes_len(v.body);
	json_t *j = json_loadb(b, n, 0, NULL);
	long seq = (long)json_integer_value(json_object_get(j, "seq"));
	json_decref(j);
	if (body)
		*body = strndup(b, n);
	engine_bytes_release(v.body);
	return seq;
}

/* The seat `token` is answered as ("you"), or -2 on an error. */
static int view_you(struct service *svc, const char *id, const char *token)
{
	struct svc_view v = {0};
	struct svc_err err = {0};
	if (service_game_bytes(svc, id, token, NULL, NULL, &v, &err) < 0)
		return -2;
	json_t *j = json_loadb(engine_bytes_data(v.body),
	                       engine_bytes_len(v.body), 0, NULL);
	json_t *you = json_object_get(j, "you");
	int r = json_is_integer(you) ? (int)json_integer_value(you) : -1;
	json_decref(j);
	engine_bytes_release(v.body);
	return r;
}

/* The first action listed by `lister` for token tok, posted to `poster`
 * (two services on one database: two nodes) with If-Match: the seq the
 * lister read; the service's code. */
static int move_via(struct service *lister, struct service *poster,
                    const char *id, const char *tok)
{
	uint64_t seen = (uint64_t)view_seq(lister, id, tok, NULL);
	json_t *acts = NULL, *out = NULL;
	struct svc_err err = {0};
	if (service_actions(lister, id, tok, &acts, &err) < 0)
		return -1;
	json_t *a = json_array_get(json_object_get(acts, "actions"), 0);
	json_t *body = a ? json_pack("{s:O}", "action", a) : NULL;
	uint64_t seq;
	int rc = body ? service_move(poster, id, tok, body, &seen, NULL, &out,
	                             &seq, &err)
	              : -1;
	json_decref(acts);
	json_decref(body);
	json_decref(out);
	return rc;
}

/* Token tok makes its first listed action; 0 or -1. */
static int first_move(struct service *svc, const char *id, const char *tok)
{
	return move_via(svc, svc, id, tok) == 0 ? 0 : -1;
}

/* The token of the seat to act in game id (of two seats, tokens tok). */
static const char *to_act(struct service *svc, const char *id,
                          const char *tok[2])
{
	for (int s = 0; s < 2; s++) {
		json_t *acts = NULL;
		struct svc_err err = {0};
		if (service_actions(svc, id, tok[s], &acts, &err) < 0)
			continue;
		size_t n = json_array_size(json_object_get(acts, "actions"));
		json_decref(acts);
		if (n)
			return tok[s];
	}
	return NULL;
}

/* A new two-seat Agent Avenue game of svc: its creation's answer (the
 * caller decrefs it), *id and tok[0..1] borrowed from it (NULL when
 * missing). */
static json_t *two_seat_game(struct service *svc, const char **id,
                             const char *tok[2])
{
	json_t *g = call_create(svc, "{\"game\":\"agent-avenue\",\"seats\":2}");
	json_t *seats = json_object_get(g, "seats");
	*id = json_string_value(json_object_get(g, "id"));
	for (int i = 0; i < 2; i++)
		tok[i] = json_string_value(
		    json_object_get(json_array_get(seats, i), "token"));
	return g;
}

/* A store on tmpdir/NAME (2 read connections), opened again on the same
 * file by a second call with the same name (another node); NULL when it
 * does not open. */
static struct store *open_db(const char *name)
{
	char path[128], why[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	struct store_config cfg = {
	    .path = path, .connections = 2, .busy_timeout_ms = 5000};
	struct store *st = NULL;
	return store_open(&cfg, &st, why, sizeof why) == 0 ? st : NULL;
}

static void test_service(void)
{
	char path[128]; /* the same file, opened behind the store's back */
	snprintf(path, sizeof path, "%s/hot.db", tmpdir);
	struct store *st = open_db("hot.db");
	if (!st) {
		test_cond("service: store opens", 0);
		return;
	}
	struct service *svc = service_new(st, 64);
	const char *id, *tok[2];
	json_t *g = two_seat_game(svc, &id, tok);
	test_cond("service: a game", svc && id && tok[0] && tok[1]);
	if (!id || !tok[0] || !tok[1])
		goto out;
	test_cond("service: seat 0 reads seq 0",
	          view_seq(svc, id, tok[0], NULL) == 0);
	test_cond("service: the row is hot", hot_count(svc->hot) == 1);
	test_cond("service: each token its own seat, a spectator none",
	          view_you(svc, id, tok[0]) == 0 &&
	              view_you(svc, id, tok[1]) == 1 &&
	              view_you(svc, id, NULL) == -1);
	test_cond(
	    "service: a token of no seat is refused",
	    view_you(svc, id, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") ==
	        -2);

	/* Behind the service's back: a hot read does not see it (no query),
	 * which is why a database has one owner (docs/read-path.md). */
	char *before = NULL, *after = NULL;
	view_seq(svc, id, tok[0], &before);
	sqlite3 *db = NULL;
	char sql[160];
	snprintf(sql, sizeof sql,
	         "UPDATE games SET updated_ms = updated_ms + 1000 WHERE id = "
	         "'%s'",
	         id);
	int changed = sqlite3_open(path, &db) == SQLITE_OK &&
	              sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	view_seq(svc, id, tok[0], &after);
	test_cond("service: a hot read asks no query (an outside change "
	          "unseen)",
	          changed && before && after && strcmp(before, after) == 0);
	free(before);
	free(after);

	/* Every write of the game is seen at the next read. */
	for (int m = 1; m <= 3; m++) {
		const char *t = to_act(svc, id, tok);
		int ok = t && first_move(svc, id, t) == 0;
		struct hot_ticket tk;
		const struct hot_game *he = hot_get(svc->hot, id, &tk);
		test_cond("service: the move left its row in the table",
		          he && he->row.seq == (uint64_t)m && he->nseats == 2);
		hot_release(he);
		test_cond("service: after a move, both seats and a spectator "
		          "read its seq",
		          ok && view_seq(svc, id, tok[0], NULL) == m &&
		              view_seq(svc, id, tok[1], NULL) == m &&
		              view_seq(svc, id, NULL, NULL) == m);
	}
	/* Another node moved: this one's table is stale.  A move it would
	 * refuse at the table's state (If-Match: the newer seq; not that
	 * seat's turn there, or another action listed) is decided again
	 * from the store, and made. */
	struct store *st2 = open_db("hot.db");
	struct service *svc2 = st2 ? service_new(st2, 64) : NULL;
	const char *t1 = svc2 ? to_act(svc2, id, tok) : NULL;
	int b_moved = t1 && move_via(svc2, svc2, id, t1) == 0;
	test_cond("service: another node's move leaves this table stale",
	          b_moved && view_seq(svc, id, tok[0], NULL) == 3 &&
	              view_seq(svc2, id, NULL, NULL) == 4);
	const char *t2 = b_moved ? to_act(svc2, id, tok) : NULL;
	int a_rc = t2 ? move_via(svc2, svc, id, t2) : -99;
	if (svc2)
		hot_forget(svc2->hot, id); /* the notice of that move */
	test_cond("service: a move made from a stale table is decided from "
	          "the store",
	          a_rc == 0 && view_seq(svc2, id, NULL, NULL) == 5);
	hot_forget(svc->hot, id); /* what the other node's notice does */
	test_cond("service: told, this node reads seq 5",
	          view_seq(svc, id, tok[0], NULL) == 5);

	/* The other node attaches the seat token of the seat to act to a
	 * player: this node's table still lists the token (it is not told
	 * here), yet the move it lets through is refused by the write's own
	 * check of the token (struct store_move's seat_token). */
	const char *t3 = svc2 ? to_act(svc2, id, tok) : NULL;
	struct svc_err aerr = {0};
	json_t *pl = NULL, *pb0 = json_loads("{\"name\":\"n2\"}", 0, NULL);
	if (svc2)
		service_player_create(svc2, pb0, NULL, &pl, &aerr);
	json_decref(pb0);
	const char *pt = json_string_value(json_object_get(pl, "token"));
	json_t *ab0 = t3 ? json_pack("{s:s}", "token", t3) : NULL, *ao0 = NULL;
	int att =
	    pt && ab0 ? service_seat_attach(svc2, pt, ab0, &ao0, &aerr) : -99;
	json_decref(ab0);
	json_decref(ao0);
	json_t *acts = NULL, *mo = NULL;
	int lr = att == 0 ? service_actions(svc2, id, pt, &acts, &aerr) : -99;
	json_t *a0 = json_array_get(json_object_get(acts, "actions"), 0);
	json_t *mb = a0 ? json_pack("{s:O}", "action", a0) : NULL;
	int listed = t3 && view_you(svc, id, t3) >= 0; /* a hot read */
	uint64_t at5 = 5, mseq = 0;
	int mr =
	    mb ? service_move(svc, id, t3, mb, &at5, NULL, &mo, &mseq, &aerr)
	       : -99;
	test_cond("service: a seat token attached on another node moves no "
	          "more, though this table still lists it",
	          att == 0 && lr == 0 && listed && mr == BD_EFORBIDDEN);
	json_decref(acts);
	json_decref(mb);
	json_decref(mo);
	json_decref(pl);
	service_free(svc2);
	store_close(st2);
	hot_forget(svc->hot, id);
	test_cond("service: and nothing was written",
	          view_seq(svc, id, NULL, NULL) == 5);

	struct svc_err err = {0};
	json_t *out = NULL;
	uint64_t seq = 0;
	/* (the token not attached above) */
	const char *rtok = t3 == tok[1] ? tok[0] : tok[1];
	int rc = service_resign(svc, id, rtok, NULL, &out, &seq, &err);
	json_decref(out);
	char *fin = NULL;
	view_seq(svc, id, NULL, &fin); /* (tok[0] may be attached) */
	test_cond("service: a resignation is seen at once",
	          rc == 0 && fin && strstr(fin, "\"status\":\"finished\""));
	free(fin);

	/* A join: the game starts (it was never kept while waiting). */
	json_t *p = NULL;
	json_t *pb = json_loads("{\"name\":\"hot\"}", 0, NULL);
	rc = service_player_create(svc, pb, NULL, &p, &err);
	json_decref(pb);
	const char *ptok = json_string_value(json_object_get(p, "token"));
	json_t *w = call_create(
	    svc,
	    "{\"game\":\"agent-avenue\",\"seating\":[\"token\",\"open\"]}");
	const char *wid = json_string_value(json_object_get(w, "id"));
	const char *wtok = json_string_value(json_object_get(
	    json_array_get(json_object_get(w, "seats"), 0), "token"));
	char *wv = NULL;
	view_seq(svc, wid, wtok, &wv);
	test_cond("service: a waiting game is read, not kept",
	          wv && strstr(wv, "\"status\":\"waiting\"") &&
	              hot_count(svc->hot) == 1);
	free(wv);
	json_t *jo = NULL;
	rc = ptok ? service_join(svc, wid, ptok, NULL, NULL, &jo, &err) : -1;
	json_decref(jo);
	wv = NULL;
	view_seq(svc, wid, wtok, &wv);
	test_cond("service: the join is seen: active, and the player sits",
	          rc == 0 && wv && strstr(wv, "\"status\":\"active\"") &&
	              view_you(svc, wid, ptok) == 1);
	free(wv);

	/* A seat token attached to a player: it stops working at once. */
	json_t *ab = json_pack("{s:s}", "token", wtok);
	json_t *ao = NULL;
	json_t *p2 = NULL;
	pb = json_loads("{\"name\":\"hot2\"}", 0, NULL);
	service_player_create(svc, pb, NULL, &p2, &err);
	json_decref(pb);
	const char *p2tok = json_string_value(json_object_get(p2, "token"));
	test_cond("service: the seat token reads seat 0 (hot)",
	          view_you(svc, wid, wtok) == 0);
	rc = p2tok ? service_seat_attach(svc, p2tok, ab, &ao, &err) : -1;
	test_cond("service: after attaching, the seat token holds nothing "
	          "and the player holds seat 0",
	          rc == 0 && view_you(svc, wid, wtok) == -2 &&
	              view_you(svc, wid, p2tok) == 0);
	json_decref(ab);
	json_decref(ao);
	json_decref(p2);
	json_decref(p);
	json_decref(w);
out:
	json_decref(g);
	service_free(svc);
	store_close(st);
}

/* A move committed between a read's row and its state (after its commit,
 * before it publishes its row) leaves the state cache ahead of the hot
 * table.  Made here by hand: another service on the database moves, and
 * its state is put into this service's cache.  The view of seq N must
 * be N's whole (its row's `updated` too), byte for byte what the other
 * service answers; it showed N-1's row before (a review, 2026-12-03). */
static void test_state_ahead(void)
{
	struct store *st = open_db("ahead.db"), *st2 = open_db("ahead.db");
	if (!st || !st2) {
		test_cond("ahead: stores open", 0);
		store_close(st);
		store_close(st2);
		return;
	}
	struct service *a = service_new(st, 64), *b = service_new(st2, 64);
	const char *id, *tok[2];
	json_t *g = two_seat_game(a, &id, tok);
	int made = id && tok[0] && tok[1] &&
	           first_move(a, id, to_act(a, id, tok)) == 0;
	long at = made ? view_seq(a, id, tok[0], NULL) : -1; /* hot: seq 1 */
	usleep(5000); /* the next move's `updated` is another millisecond */
	const char *t = made ? to_act(b, id, tok) : NULL;
	int moved = t && move_via(b, b, id, t) == 0;
	struct hot_ticket tk;
	const struct hot_game *e = id ? hot_get(a->hot, id, &tk) : NULL;
	int64_t key = e ? e->row.key : 0;
	int stale = e && e->row.seq == 1;
	hot_release(e);
	struct engine_game *ahead =
	    moved ? engine_cache_get(b->cache, key) : NULL;
	if (ahead)
		engine_cache_put(a->cache, key, ahead);
	char *mine = NULL, *theirs = NULL;
	long sa = ahead ? view_seq(a, id, tok[0], &mine) : -1;
	long sb = ahead ? view_seq(b, id, tok[0], &theirs) : -1;
	test_cond("ahead: the table holds seq 1, the state cache seq 2",
	          at == 1 && stale && ahead && ahead->seq == 2);
	test_cond("ahead: seq 2 is shown with seq 2's row, as the other "
	          "service shows it",
	          sa == 2 && sb == 2 && mine && theirs &&
	              strcmp(mine, theirs) == 0);
	free(mine);
	free(theirs);
	engine_game_free(ahead);
	json_decref(g);
	service_free(b);
	service_free(a);
	store_close(st2);
	store_close(st);
}

/* The store's counts since `a` (store_counts), as "S statements, C
 * check-outs, U writes" into buf. */
static struct store_counts counts_since(struct store *st,
                                        const struct store_counts *a, char *buf,
                                        size_t len)
{
	struct store_counts b;
	store_counts(st, &b);
	struct store_counts d = {b.statements - a->statements,
	                         b.checkouts - a->checkouts,
	                         b.units - a->units};
	snprintf(buf, len,
	         "%" PRIu64 " statements, %" PRIu64 " check-outs, %" PRIu64
	         " writes",
	         d.statements, d.checkouts, d.units);
	return d;
}

/* One request as router_dispatch makes it: its store calls pinned to
 * one connection (service_request_begin). */
static long counted_view(struct service *svc, const char *id, const char *token)
{
	service_request_begin(svc);
	long seq = view_seq(svc, id, token, NULL);
	service_request_end(svc);
	return seq;
}

/* {"action": the first action listed for the seat to act}, with that
 * seat's token in "token" (the caller's), or NULL. */
static json_t *first_action(struct service *svc, const char *id,
                            const char *tok[2])
{
	const char *t = to_act(svc, id, tok);
	json_t *acts = NULL, *body = NULL;
	struct svc_err err = {0};
	if (t && service_actions(svc, id, t, &acts, &err) == 0)
		body = json_pack(
		    "{s:O,s:s}", "action",
		    json_array_get(json_object_get(acts, "actions"), 0),
		    "token", t);
	json_decref(acts);
	return body;
}

/* One move request as router_dispatch makes it (pinned): body from
 * first_action.  0 or the service's error; *seq the move's seq. */
static int counted_move(struct service *svc, const char *id, json_t *body,
                        uint64_t *seq, json_t **out)
{
	if (!body)
		return -1;
	const char *t = json_string_value(json_object_get(body, "token"));
	json_t *move =
	    json_pack("{s:O}", "action", json_object_get(body, "action"));
	struct svc_err err = {0};
	service_request_begin(svc);
	int rc =
	    move ? service_move(svc, id, t, move, NULL, NULL, out, seq, &err)
	         : -1;
	service_request_end(svc);
	json_decref(move);
	return rc;
}

/* What one request asks of the store (issue 30's goal 2; the figures
 * are docs/read-path.md's "What a request costs"), counted by
 * store_counts on a store nothing else uses, each request pinned as
 * router_dispatch pins it: a read of a game that is not hot (nothing of
 * it in memory, as after a restart), then hot, with a seat's token and
 * as a spectator (whose view is not cached yet: built from the hot row
 * and the cached state); a move; the read after the move (its row
 * published by the move, its state cached). */
static void test_counts(void)
{
	char fig[96];
	struct store *st = open_db("counts.db");
	if (!st) {
		test_cond("counts: store opens", 0);
		return;
	}
	struct service *svc = service_new(st, 64);
	const char *id, *tok[2];
	json_t *g = two_seat_game(svc, &id, tok), *body = NULL, *out = NULL;
	if (!id || !tok[0] || !tok[1]) {
		test_cond("counts: a game", 0);
		goto out;
	}
	service_free(svc); /* nothing of the game in memory: a cold read */
	svc = service_new(st, 64);
	struct store_counts a, d;
	store_counts(st, &a);
	long seq = counted_view(svc, id, tok[0]);
	d = counts_since(st, &a, fig, sizeof fig);
	printf("     cold read (a seat's token): %s\n", fig);
	test_cond("counts: a cold read takes one connection",
	          seq == 0 && d.checkouts == 1 && d.units == 0);
	const char *who[] = {"a seat's token", "a spectator"};
	const char *whose[] = {tok[0], NULL};
	for (int w = 0; w < 2; w++) {
		store_counts(st, &a);
		seq = counted_view(svc, id, whose[w]);
		d = counts_since(st, &a, fig, sizeof fig);
		printf("     hot read (%s): %s\n", who[w], fig);
		test_cond("counts: a hot read asks the store nothing",
		          seq == 0 && d.statements == 0 && d.checkouts == 0);
	}
	/* The move alone: its action listed beforehand. */
	json_t *body2 = NULL;
	body = first_action(svc, id, tok);
	uint64_t mseq = 0;
	store_counts(st, &a);
	int rc = counted_move(svc, id, body, &mseq, &out);
	d = counts_since(st, &a, fig, sizeof fig);
	printf("     move (hot): %s\n", fig);
	test_cond("counts: a hot move is one write and no read",
	          rc == 0 && mseq == 1 && d.units == 1 && d.checkouts == 0);
	store_counts(st, &a);
	seq = counted_view(svc, id, tok[0]);
	d = counts_since(st, &a, fig, sizeof fig);
	printf("     read after the move: %s\n", fig);
	test_cond("counts: the read after a move asks the store nothing",
	          seq == 1 && d.statements == 0 && d.checkouts == 0);
	/* A move of a game not in memory (after a restart): its reads share
	 * one connection, given back before the write queues. */
	body2 = first_action(svc, id, tok);
	service_free(svc);
	svc = service_new(st, 64);
	json_decref(out);
	out = NULL;
	store_counts(st, &a);
	rc = counted_move(svc, id, body2, &mseq, &out);
	d = counts_since(st, &a, fig, sizeof fig);
	printf("     move (cold): %s\n", fig);
	test_cond("counts: a cold move takes one connection and one write",
	          rc == 0 && mseq == 2 && d.units == 1 && d.checkouts == 1);
	json_decref(body2);
out:
	json_decref(body);
	json_decref(out);
	json_decref(g);
	service_free(svc);
	store_close(st);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_hot.XXXXXX");
	if (!mkdtemp(tmpdir) || sodium_init() < 0)
		return 1;
	test_table();
	test_service();
	test_state_ahead();
	test_counts();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return test_report("hot");
}
