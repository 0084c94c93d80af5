/* bench_http.c: a small HTTP/1.1 keep-alive load client for boardd's
 * move endpoint, and the helper that prepares the game the GET figures
 * read.  Run by tests/bench.sh (make bench); never judges the numbers.
 *
 * PORT may be a comma list of up to 8 ports (servers sharing one database,
 * tests/bench.sh section 8): connection i talks to the (i mod n)-th, so the
 * clients are spread evenly over them; prepare uses the first.
 *
 *   bench_http -p PORT prepare MOVES
 *       Creates one Agent Avenue game, plays MOVES valid moves into it and
 *       prints "GAME_ID SEAT0_TOKEN" on stdout.
 *
 *   bench_http -p PORT [-c CONNS] [-d SECONDS] [-o SUMMARY] [-l LABEL] moves
 *       POST /v1/games/{id}/moves throughput: CONNS keep-alive connections,
 *       one thread each, every connection owning its own set of games and
 *       posting the next move of each in turn, so writes spread over many
 *       games and never race.  One warm-up run, then BENCH_RUNS runs of
 *       SECONDS; prints moves/s and p50/p99 latency of each run and the
 *       medians.  Any answer other than 201 is counted and reported, and
 *       makes the exit status 1.
 *
 *   bench_http -p PORT [-c CONNS] [-d SECONDS] [-o SUMMARY] [-l LABEL] creates
 *       POST /v1/games throughput: CONNS keep-alive connections, one
 *       thread each, each creating 2-seat Agent Avenue games (no setup) as
 *       fast as it is answered.  A warm-up run, then BENCH_RUNS runs of
 *       SECONDS; prints creates/s and p50/p99 latency, and the medians.
 *       Any answer other than 201 is counted, reported and exits 1.
 *
 * Why the client knows valid moves without asking the server: each game is
 * created with a custom setup that fixes both hands, the deck order and
 * the first player (the deal of a seeded default game, written out), and
 * Agent Avenue draws no random numbers after setup.  So the client plays
 * the same game in process with the engine beforehand (each seat choosing
 * uniformly among the listed actions) and then only POSTs: one request per
 * move, no GET in the measured loop.  Games are created before the timer
 * starts.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/rng.h"
#include "games/agent_avenue/aa.h"

#include "benchutil.h"

#define PLANS     512 /* distinct pre-played games, reused cyclically */
#define MAX_CONNS 256
#define MAX_GAMES 50000 /* per run, a safety bound */
#define PICK_SALT 0x9e3779b97f4a7c15ull
#define MAX_PORTS 8

static int ports[MAX_PORTS]; /* -p's list */
static int nports;

const char *bench_prog = "bench_http";

/* ---- one keep-alive connection ---- */

struct conn {
	int port;   /* the server's, on 127.0.0.1 */
	int fd;     /* -1 when closed */
	char *buf;  /* received bytes */
	size_t len; /* bytes in buf */
	size_t cap;
};

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}

/* A closed connection to the (i mod nports)-th server. */
static struct conn conn_to(int i)
{
	struct conn c = {.port = ports[i % nports], .fd = -1};
	return c;
}

static int conn_open(struct conn *c)
{
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)c->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0) {
		conn_close(c);
		return -1;
	}
	c->len = 0;
	return 0;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Reads more bytes into c->buf; 0 on EOF or error. */
static ssize_t fill(struct conn *c)
{
	if (c->cap - c->len < 4096) {
		c->cap = c->cap ? c->cap * 2 : 16384;
		c->buf = realloc(c->buf, c->cap);
		if (!c->buf)
			die("out of memory", NULL);
	}
	ssize_t k;
	do
		k = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
	while (k < 0 && errno == EINTR);
	if (k > 0)
		c->len += (size_t)k;
	return k > 0 ? k : 0;
}

/* A header's value in the header block [h, end), or NULL. */
static const char *header(const char *h, const char *end, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = h; p && p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if ((size_t)(end - p) > n + 1 && strncasecmp(p, name, n) == 0 &&
		    p[n] == ':') {
			p += n + 1;
			while (*p == ' ')
				p++;
			return p;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/* One request and its whole response.  *body points into c->buf (NUL-
 * terminated) until the next call.  Returns the status, or -1 when the
 * connection failed (it is then closed; the caller may retry once). */
static int http_call(struct conn *c, const char *method, const char *path,
                     const char *token, long if_match, const char *body,
                     const char **resp)
{
	char head[1024], extra[256] = "";
	size_t blen = body ? strlen(body) : 0;
	int off = 0;
	if (token)
		off += snprintf(extra + off, sizeof extra - (size_t)off,
		                "Authorization: Bearer %s\r\n", token);
	if (if_match >= 0)
		off += snprintf(extra + off, sizeof extra - (size_t)off,
		                "If-Match: \"%ld\"\r\n", if_match);
	int hn = snprintf(head, sizeof head,
	                  "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s"
	                  "%s%s%zu\r\n\r\n",
	                  method, path, c->port, extra,
	                  body ? "Content-Type: application/json\r\n" : "",
	                  "Content-Length: ", blen);
	if (hn < 0 || (size_t)hn >= sizeof head)
		die("request head too long", path);
	if (c->fd < 0 && conn_open(c) < 0)
		return -1;
	if (send_all(c->fd, head, (size_t)hn) < 0 ||
	    (blen && send_all(c->fd, body, blen) < 0))
		goto broken;
	c->len = 0;
	char *eoh;
	for (;;) {
		if (c->len) {
			c->buf[c->len] = '\0';
			if ((eoh = strstr(c->buf, "\r\n\r\n")) != NULL)
				break;
		}
		if (!fill(c))
			goto broken;
	}
	size_t hlen = (size_t)(eoh - c->buf) + 4;
	int status = 0;
	if (sscanf(c->buf, "HTTP/1.%*d %d", &status) != 1)
		die("not an HTTP response", c->buf);
	const char *cl = header(c->buf, eoh, "Content-Length");
	if (!cl)
		die("a response without Content-Length", c->buf);
	size_t want = hlen + (size_t)strtoul(cl, NULL, 10);
	while (c->len < want)
		if (!fill(c))
			goto broken;
	c->buf[want] = '\0';
	const char *conn_hdr = header(c->buf, eoh, "Connection");
	*resp = c->buf + hlen;
	if (conn_hdr && strncasecmp(conn_hdr, "close", 5) == 0) {
		/* keep the body readable; reconnect on the next call */
		close(c->fd);
		c->fd = -1;
	}
	return status;
broken:
	conn_close(c);
	return -1;
}

/* http_call with one reconnect when a kept-alive connection was closed. */
static int call(struct conn *c, const char *method, const char *path,
                const char *token, long if_match, const char *body,
                const char **resp)
{
	int st = http_call(c, method, path, token, if_match, body, resp);
	if (st < 0)
		st = http_call(c, method, path, token, if_match, body, resp);
	if (st < 0)
		die("the server closed the connection", path);
	return st;
}

/* ---- pre-played games ---- */

struct plan {
	char *create; /* POST /v1/games body */
	size_t n;     /* moves */
	int *seat;    /* n seats */
	char **body;  /* n POST .../moves bodies */
};

static json_t *card_list(const uint8_t *cards, size_t n, int reverse)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(
		    a, json_string(
		           aa_card_info[cards[reverse ? n - 1 - i : i]].id));
	return a;
}

/* The custom setup that deals exactly what seed's default deal does. */
static json_t *setup_of_seed(const struct rules *r, uint64_t seed)
{
	struct engine_game *g;
	struct rules_why why;
	if (engine_game_new(r, 2, NULL, NULL, seed, &g, &why) < 0)
		die("engine_game_new", why.detail);
	const struct aa_state *s = (const struct aa_state *)g->state;
	json_t *setup = json_pack(
	    "{s:i,s:[o,o],s:o}", "first_player", (int)s->active, "hands",
	    card_list(s->players[0].hand, s->players[0].hand_size, 0),
	    card_list(s->players[1].hand, s->players[1].hand_size, 0), "deck",
	    card_list(s->deck, s->deck_size, 1)); /* top first */
	engine_game_free(g);
	if (!setup)
		die("json_pack", NULL);
	return setup;
}

static void make_plan(const struct rules *r, uint64_t seed, struct plan *p)
{
	json_t *setup = setup_of_seed(r, seed);
	struct engine_game *g;
	struct rules_why why;
	if (engine_game_new(r, 2, NULL, setup, seed, &g, &why) < 0)
		die("the custom setup is refused", why.detail);
	json_t *create = json_pack("{s:s,s:i,s:O}", "game", r->id, "seats", 2,
	                           "setup", setup);
	p->create = json_dumps(create, JSON_COMPACT);
	json_decref(create);
	json_decref(setup);
	struct rng pick;
	rng_seed(&pick, seed ^ PICK_SALT);
	size_t cap = 64;
	p->n = 0;
	p->seat = xmalloc(cap * sizeof *p->seat);
	p->body = xmalloc(cap * sizeof *p->body);
	unsigned due;
	while ((due = engine_game_to_act(g)) != 0) {
		int seat = due & 1u ? 0 : 1;
		json_t *acts = engine_game_actions(g, seat);
		size_t n = json_array_size(acts);
		if (n == 0)
			die("a seat to act has no listed action", NULL);
		json_t *a = json_array_get(acts, rng_below(&pick, (uint32_t)n));
		if (engine_game_apply(g, seat, a, &why) < 0)
			die("a listed action was refused", why.detail);
		if (p->n == cap) {
			cap *= 2;
			p->seat = realloc(p->seat, cap * sizeof *p->seat);
			p->body = realloc(p->body, cap * sizeof *p->body);
			if (!p->seat || !p->body)
				die("out of memory", NULL);
		}
		json_t *body = json_pack("{s:O}", "action", a);
		p->seat[p->n] = seat;
		p->body[p->n] = json_dumps(body, JSON_COMPACT);
		if (!p->create || !p->body[p->n])
			die("json_dumps", NULL);
		p->n++;
		json_decref(body);
		json_decref(acts);
	}
	engine_game_free(g);
}

static void free_plan(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->body[i]);
	free(p->body);
	free(p->seat);
	free(p->create);
}

/* ---- live games on the server ---- */

struct game {
	const struct plan *plan;
	char path[128]; /* /v1/games/{id}/moves */
	char token[2][64];
	size_t next; /* moves posted */
};

/* POST /v1/games; fills g.  Returns 0, or -1 with the answer printed. */
static int create_game(struct conn *c, const struct plan *p, struct game *g)
{
	const char *resp;
	int st = call(c, "POST", "/v1/games", NULL, -1, p->create, &resp);
	json_t *j = st == 201 ? json_loads(resp, 0, NULL) : NULL;
	const char *id = json_string_value(json_object_get(j, "id"));
	json_t *seats = json_object_get(j, "seats");
	const char *t0 = json_string_value(
	    json_object_get(json_array_get(seats, 0), "token"));
	const char *t1 = json_string_value(
	    json_object_get(json_array_get(seats, 1), "token"));
	int ok = id && t0 && t1 && strlen(t0) < sizeof g->token[0] &&
	         strlen(t1) < sizeof g->token[1];
	if (ok) {
		g->plan = p;
		g->next = 0;
		snprintf(g->path, sizeof g->path, "/v1/games/%s/moves", id);
		snprintf(g->token[0], sizeof g->token[0], "%s", t0);
		snprintf(g->token[1], sizeof g->token[1], "%s", t1);
	} else {
		fprintf(stderr, "bench_http: create answered %d: %.300s\n", st,
		        resp);
	}
	json_decref(j);
	return ok ? 0 : -1;
}

/* Posts g's next move; returns the status. */
static int post_next(struct conn *c, struct game *g, const char **resp)
{
	const struct plan *p = g->plan;
	return call(c, "POST", g->path, g->token[p->seat[g->next]],
	            (long)g->next, p->body[g->next], resp);
}

/* ---- the moves figure ---- */

struct worker {
	pthread_t th;
	struct conn c;
	struct game *games;
	size_t ngames;
	size_t first_plan; /* plan index of games[0] */
	double deadline;   /* bench_now() when to stop */
	double *lat;       /* seconds, one per 201 */
	size_t nlat, cap;
	size_t bad; /* answers other than 201 */
	double end; /* when it stopped */
	int failed; /* a create failed */
};

static struct plan plans[PLANS];

static void *create_all(void *arg)
{
	struct worker *w = arg;
	for (size_t i = 0; i < w->ngames && !w->failed; i++)
		if (create_game(&w->c, &plans[(w->first_plan + i) % PLANS],
		                &w->games[i]) < 0)
			w->failed = 1;
	return NULL;
}

static void *post_all(void *arg)
{
	struct worker *w = arg;
	size_t live = w->ngames, j = 0;
	while (live && bench_now() < w->deadline) {
		struct game *g = &w->games[j];
		const char *resp;
		double t0 = bench_now();
		int st = post_next(&w->c, g, &resp);
		double dt = bench_now() - t0;
		int done;
		if (st == 201) {
			if (w->nlat == w->cap) {
				w->cap = w->cap ? w->cap * 2 : 4096;
				w->lat =
				    realloc(w->lat, w->cap * sizeof *w->lat);
				if (!w->lat)
					die("out of memory", NULL);
			}
			w->lat[w->nlat++] = dt;
			done = ++g->next == g->plan->n;
		} else {
			if (w->bad++ < 3)
				fprintf(stderr,
				        "bench_http: move answered %d: "
				        "%.300s\n",
				        st, resp);
			done = 1; /* drop the game rather than loop on it */
		}
		if (done) {
			w->games[j] = w->games[--live];
			if (j >= live)
				j = 0;
		} else {
			j = (j + 1) % live;
		}
	}
	w->end = bench_now();
	return NULL;
}

struct run_result {
	double moves_per_s, p50_ms, p99_ms;
	size_t moves, games, bad;
	int exhausted; /* every game finished before the deadline */
};

/* Runs fn (post_all or create_loop) on every connection for `secs`
 * and gathers the rate and latencies of what was answered 201. */
static struct run_result run_timed(struct worker *w, int conns, double secs,
                                   void *(*fn)(void *))
{
	struct run_result r = {0};
	double t0 = bench_now(), end = t0;
	for (int i = 0; i < conns; i++) {
		w[i].deadline = t0 + secs;
		pthread_create(&w[i].th, NULL, fn, &w[i]);
	}
	size_t n = 0;
	for (int i = 0; i < conns; i++) {
		pthread_join(w[i].th, NULL);
		if (w[i].end > end)
			end = w[i].end;
		n += w[i].nlat;
		r.bad += w[i].bad;
	}
	double *all = xmalloc(n * sizeof *all);
	size_t k = 0;
	for (int i = 0; i < conns; i++) {
		memcpy(all + k, w[i].lat, w[i].nlat * sizeof *all);
		k += w[i].nlat;
	}
	qsort(all, n, sizeof *all, bench_cmp_double);
	r.moves = n;
	r.moves_per_s = (double)n / (end - t0);
	r.p50_ms = bench_percentile(all, n, 50) * 1e3;
	r.p99_ms = bench_percentile(all, n, 99) * 1e3;
	r.exhausted = end < t0 + secs - 0.01;
	free(all);
	return r;
}

/* One run: creates `games` games over the connections (untimed), then
 * posts for `secs`. */
static struct run_result one_run(struct worker *w, int conns, size_t games,
                                 double secs, size_t *plan_cursor)
{
	for (int i = 0; i < conns; i++) {
		w[i].ngames =
		    games / (size_t)conns + ((size_t)i < games % (size_t)conns);
		w[i].games = xmalloc(w[i].ngames * sizeof *w[i].games);
		w[i].first_plan = *plan_cursor;
		*plan_cursor += w[i].ngames;
		w[i].nlat = w[i].bad = 0;
		w[i].failed = 0;
		pthread_create(&w[i].th, NULL, create_all, &w[i]);
	}
	for (int i = 0; i < conns; i++) {
		pthread_join(w[i].th, NULL);
		if (w[i].failed)
			die("creating games failed", NULL);
	}
	struct run_result r = run_timed(w, conns, secs, post_all);
	r.games = games;
	for (int i = 0; i < conns; i++)
		free(w[i].games);
	return r;
}

/* Prints the medians of BENCH_RUNS runs' rate (in `unit`), p50 and p99
 * and adds them to the summary as "LABEL UNIT", "LABEL p50", "LABEL p99". */
static void report(const char *summary, const char *label, const char *unit,
                   double *rate, double *p50, double *p99)
{
	double mr = bench_median(rate, BENCH_RUNS);
	double m50 = bench_median(p50, BENCH_RUNS);
	double m99 = bench_median(p99, BENCH_RUNS);
	char fig[160];
	snprintf(fig, sizeof fig, "%s %s", label, unit);
	bench_summary(summary, fig, mr, unit);
	snprintf(fig, sizeof fig, "%s p50", label);
	bench_summary(summary, fig, m50, "ms");
	snprintf(fig, sizeof fig, "%s p99", label);
	bench_summary(summary, fig, m99, "ms");
	printf("  %s: median %.0f %s, p50 %.3f ms, p99 %.3f ms\n", label, mr,
	       unit, m50, m99);
}

/* Closes and frees the conns workers of w, and w. */
static void workers_free(struct worker *w, int conns)
{
	for (int i = 0; i < conns; i++) {
		conn_close(&w[i].c);
		free(w[i].c.buf);
		free(w[i].lat);
	}
	free(w);
}

static int cmd_moves(int conns, double secs, const char *summary,
                     const char *label)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	size_t total = 0;
	for (size_t i = 0; i < PLANS; i++) {
		make_plan(r, 7000000 + i, &plans[i]);
		total += plans[i].n;
	}
	double mean_moves = (double)total / PLANS;
	struct worker *w = calloc((size_t)conns, sizeof *w);
	if (!w)
		die("out of memory", NULL);
	for (int i = 0; i < conns; i++)
		w[i].c = conn_to(i);
	size_t cursor = 0, bad = 0;

	/* Warm-up: a few games per connection for at most 1 s.  Its rate
	 * sizes the runs' game pools, three times over (a run that finds
	 * the machine less busy must not run out of games), and never
	 * below 16 games per connection. */
	struct run_result wu =
	    one_run(w, conns, (size_t)conns * 4, 1.0, &cursor);
	bad += wu.bad;
	double need = wu.moves_per_s * secs * 3.0 / mean_moves;
	size_t games = (size_t)need + (size_t)conns;
	if (games < (size_t)conns * 16)
		games = (size_t)conns * 16;
	if (games > MAX_GAMES)
		games = MAX_GAMES;
	printf("  %s: warm-up %.0f moves/s; %zu games of %.1f moves (mean) "
	       "per run, %d connections\n",
	       label, wu.moves_per_s, games, mean_moves, conns);

	double rate[BENCH_RUNS], p50[BENCH_RUNS], p99[BENCH_RUNS];
	for (int k = 0; k < BENCH_RUNS; k++) {
		struct run_result rr = one_run(w, conns, games, secs, &cursor);
		bad += rr.bad;
		rate[k] = rr.moves_per_s;
		p50[k] = rr.p50_ms;
		p99[k] = rr.p99_ms;
		printf("  %s: run %d: %8.0f moves/s   p50 %7.3f ms   p99 "
		       "%7.3f ms   (%zu moves%s)\n",
		       label, k + 1, rr.moves_per_s, rr.p50_ms, rr.p99_ms,
		       rr.moves,
		       rr.exhausted ? ", every game finished early" : "");
	}
	report(summary, label, "moves/s", rate, p50, p99);
	workers_free(w, conns);
	for (size_t i = 0; i < PLANS; i++)
		free_plan(&plans[i]);
	if (bad)
		fprintf(stderr, "bench_http: %zu moves were not answered 201\n",
		        bad);
	return bad ? 1 : 0;
}

/* ---- the creates figure ---- */

#define CREATE_BODY "{\"game\":\"agent-avenue\",\"seats\":2}"

static void *create_loop(void *arg)
{
	struct worker *w = arg;
	while (bench_now() < w->deadline) {
		const char *resp;
		double t0 = bench_now();
		int st = call(&w->c, "POST", "/v1/games", NULL, -1, CREATE_BODY,
		              &resp);
		double dt = bench_now() - t0;
		if (st != 201) {
			if (w->bad++ < 3)
				fprintf(stderr,
				        "bench_http: create answered %d: "
				        "%.300s\n",
				        st, resp);
			continue;
		}
		if (w->nlat == w->cap) {
			w->cap = w->cap ? w->cap * 2 : 4096;
			w->lat = realloc(w->lat, w->cap * sizeof *w->lat);
			if (!w->lat)
				die("out of memory", NULL);
		}
		w->lat[w->nlat++] = dt;
	}
	w->end = bench_now();
	return NULL;
}

/* One creates run of `secs` over every connection. */
static struct run_result create_run(struct worker *w, int conns, double secs)
{
	for (int i = 0; i < conns; i++)
		w[i].nlat = w[i].bad = 0;
	return run_timed(w, conns, secs, create_loop);
}

static int cmd_creates(int conns, double secs, const char *summary,
                       const char *label)
{
	struct worker *w = calloc((size_t)conns, sizeof *w);
	if (!w)
		die("out of memory", NULL);
	for (int i = 0; i < conns; i++)
		w[i].c = conn_to(i);
	struct run_result wu = create_run(w, conns, 1.0);
	size_t bad = wu.bad;
	printf("  %s: warm-up %.0f creates/s, %d connections\n", label,
	       wu.moves_per_s, conns);
	double rate[BENCH_RUNS], p50[BENCH_RUNS], p99[BENCH_RUNS];
	for (int k = 0; k < BENCH_RUNS; k++) {
		struct run_result rr = create_run(w, conns, secs);
		bad += rr.bad;
		rate[k] = rr.moves_per_s;
		p50[k] = rr.p50_ms;
		p99[k] = rr.p99_ms;
		printf("  %s: run %d: %8.0f creates/s p50 %7.3f ms   p99 "
		       "%7.3f ms   (%zu games)\n",
		       label, k + 1, rr.moves_per_s, rr.p50_ms, rr.p99_ms,
		       rr.moves);
	}
	report(summary, label, "creates/s", rate, p50, p99);
	workers_free(w, conns);
	if (bad)
		fprintf(stderr,
		        "bench_http: %zu creates were not answered 201\n", bad);
	return bad ? 1 : 0;
}

static int cmd_prepare(size_t moves)
{
	const struct rules *r = engine_rules_find("agent-avenue");
	struct plan p;
	uint64_t seed = 42;
	for (;;) { /* the first game long enough */
		make_plan(r, seed++, &p);
		if (p.n > moves)
			break;
		free_plan(&p);
	}
	struct conn c = conn_to(0);
	struct game g;
	if (create_game(&c, &p, &g) < 0)
		die("could not create a game", NULL);
	for (size_t i = 0; i < moves; i++) {
		const char *resp;
		int st = post_next(&c, &g, &resp);
		if (st != 201) {
			fprintf(stderr,
			        "bench_http: move answered %d: %.300s\n", st,
			        resp);
			return 1;
		}
		g.next++;
	}
	/* "/v1/games/ID/moves" -> "ID" */
	char *id = g.path + strlen("/v1/games/");
	*strchr(id, '/') = '\0';
	printf("%s %s\n", id, g.token[0]);
	conn_close(&c);
	free(c.buf);
	free_plan(&p);
	return 0;
}

/* Reads -p's comma list of ports into ports[]; 0, or -1. */
static int parse_ports(const char *s)
{
	nports = 0;
	for (;;) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v <= 0 || v > 65535 || nports == MAX_PORTS)
			return -1;
		ports[nports++] = (int)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static void usage(void)
{
	fputs("usage: bench_http -p PORT[,PORT...] prepare MOVES\n"
	      "       bench_http -p PORT[,PORT...] [-c CONNS] [-d SECONDS]"
	      " [-o SUMMARY] [-l LABEL] moves|creates\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	int conns = 16, opt;
	double secs = 3;
	const char *summary = NULL, *label = "POST moves";
	while ((opt = getopt(argc, argv, "p:c:d:o:l:")) != -1) {
		switch (opt) {
		case 'p':
			if (parse_ports(optarg) < 0)
				usage();
			break;
		case 'c':
			conns = atoi(optarg);
			break;
		case 'd':
			secs = atof(optarg);
			break;
		case 'o':
			summary = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		default:
			usage();
		}
	}
	if (nports < 1 || conns < 1 || conns > MAX_CONNS || secs <= 0 ||
	    optind >= argc)
		usage();
	json_object_seed(1);
	if (strcmp(argv[optind], "prepare") == 0 && optind + 1 < argc)
		return cmd_prepare((size_t)atol(argv[optind + 1]));
	if (strcmp(argv[optind], "moves") == 0)
		return cmd_moves(conns, secs, summary, label);
	if (strcmp(argv[optind], "creates") == 0)
		return cmd_creates(conns, secs, summary, label);
	usage();
	return 2;
}
