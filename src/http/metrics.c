/* metrics.c: GET /metrics (metrics.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/histo.h"
#include "../common/process.h"
#include "../common/version.h"
#include "../hooks/hooks.h"
#include "conns.h"
#include "encoding.h"
#include "hub.h"
#include "metrics.h"

/* Routes kept apart (the router's table has fewer); a route past it
 * counts with route 0's "unmatched" (never happens with today's table). */
#define ROUTES_MAX 128
/* Distinct (route, method, status) counters: far more than the routes'
 * methods times the statuses each answers.  A full table drops counts,
 * and says how many (boardd_http_requests_dropped_total). */
#define COUNTER_SLOTS 2048

/* The methods counted apart; any other token a client sends is
 * "other", so that no client can add labels. */
static const char *const methods[] = {"GET",    "HEAD",    "POST", "PUT",
                                      "DELETE", "OPTIONS", "other"};
#define N_METHODS (sizeof methods / sizeof *methods)

/* One (route, method, status) counter: key is 0 while free, else
 * route << 20 | method << 16 | status, set once (compare-and-swap). */
struct counter {
	_Atomic uint64_t key;
	_Atomic uint64_t n;
};

static struct counter counters[COUNTER_SLOTS];
static _Atomic uint64_t dropped;
static struct histo latency[ROUTES_MAX][N_METHODS];
static _Atomic int access_mode = METRICS_LOOPBACK;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_histograms(void)
{
	for (size_t r = 0; r < ROUTES_MAX; r++)
		for (size_t m = 0; m < N_METHODS; m++)
			histo_init(&latency[r][m], histo_latency_bounds,
			           histo_latency_n);
}

int metrics_parse_access(const char *s, enum metrics_access *a)
{
	if (strcmp(s, "loopback") == 0)
		*a = METRICS_LOOPBACK;
	else if (strcmp(s, "any") == 0)
		*a = METRICS_ANY;
	else if (strcmp(s, "off") == 0)
		*a = METRICS_OFF;
	else
		return -1;
	return 0;
}

void metrics_set_access(enum metrics_access a)
{
	pthread_once(&once, init_histograms);
	atomic_store(&access_mode, (int)a);
}

static size_t method_index(const char *method)
{
	for (size_t i = 0; i + 1 < N_METHODS; i++)
		if (strcmp(method, methods[i]) == 0)
			return i;
	return N_METHODS - 1;
}

/* Adds one to the counter of key, claiming a free slot for it the first
 * time (linear probing from its hash).  Lock-free. */
static void count(uint64_t key)
{
	size_t i =
	    (size_t)((key * 0x9e3779b97f4a7c15ull) >> 53) % COUNTER_SLOTS;
	for (size_t probe = 0; probe < COUNTER_SLOTS; probe++) {
		struct counter *c = &counters[(i + probe) % COUNTER_SLOTS];
		uint64_t k =
		    atomic_load_explicit(&c->key, memory_order_acquire);
		if (k == 0) {
			uint64_t free_key = 0;
			k = atomic_compare_exchange_strong(&c->key, &free_key,
			                                   key)
			        ? key
			        : free_key; /* another thread's meanwhile */
		}
		if (k == key) {
			atomic_fetch_add_explicit(&c->n, 1,
			                          memory_order_relaxed);
			return;
		}
	}
	atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
}

void metrics_request(int route, const char *method, unsigned status,
                     double seconds)
{
	if (status == 0 || status > 999)
		return;
	pthread_once(&once, init_histograms);
	size_t r = route > 0 && route < ROUTES_MAX ? (size_t)route : 0;
	size_t m = method_index(method ? method : "");
	count((uint64_t)r << 20 | (uint64_t)m << 16 | status);
	histo_observe(&latency[r][m], seconds);
}

/* The router's table, as metrics_set_routes was told it (NULL: none). */
static const char *(*_Atomic route_pattern)(int route);

void metrics_set_routes(const char *(*pattern)(int route))
{
	atomic_store(&route_pattern, pattern);
}

const char *metrics_route_name(int route, char *buf, size_t len)
{
	const char *(*pattern)(int) = atomic_load(&route_pattern);
	const char *p = route < ROUTES_MAX && pattern ? pattern(route) : NULL;
	size_t n = p ? strlen(p) : 0;
	if (!p)
		snprintf(buf, len, "unmatched");
	else if (strncmp(p, "{id}", 4) == 0) /* the router's short form */
		snprintf(buf, len, "/v1/games/%s", p);
	else if (n > 5 && strcmp(p + n - 5, "{tid}") == 0) /* openapi's */
		snprintf(buf, len, "%.*s{token_id}", (int)(n - 5), p);
	else
		snprintf(buf, len, "%s", p);
	return buf;
}

/* ---- the exposition ---- */

/* One counter read for the output, with its labels. */
struct row {
	char route[96];
	size_t method;
	unsigned status;
	uint64_t n;
};

static int row_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->route, y->route);
	if (c)
		return c;
	if (x->method != y->method)
		return x->method < y->method ? -1 : 1;
	return (x->status > y->status) - (x->status < y->status);
}

static void help(FILE *f, const char *name, const char *type, const char *text)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

/* One gauge sample whose value may be unknown: a negative `v` is
 * printed as NaN (the exposition format's word for "no reading"). */
static void gauge_or_nan(FILE *f, const char *name, const char *text,
                         long long v)
{
	help(f, name, "gauge", text);
	if (v < 0)
		fprintf(f, "%s NaN\n", name);
	else
		fprintf(f, "%s %lld\n", name, v);
}

static void requests(FILE *f)
{
	static struct row rows[COUNTER_SLOTS]; /* under the caller's lock */
	size_t n = 0;
	for (size_t i = 0; i < COUNTER_SLOTS; i++) {
		uint64_t k = atomic_load_explicit(&counters[i].key,
		                                  memory_order_acquire);
		uint64_t v =
		    atomic_load_explicit(&counters[i].n, memory_order_relaxed);
		if (!k || !v)
			continue;
		metrics_route_name((int)(k >> 20), rows[n].route,
		                   sizeof rows[n].route);
		rows[n].method = (size_t)(k >> 16 & 0xf);
		rows[n].status = (unsigned)(k & 0xffff);
		rows[n++].n = v;
	}
	qsort(rows, n, sizeof *rows, row_order);
	help(f, "boardd_http_requests_total", "counter",
	     "HTTP requests answered, by route template, method and status.");
	for (size_t i = 0; i < n; i++)
		fprintf(f,
		        "boardd_http_requests_total{route=\"%s\",method=\"%s\","
		        "status=\"%u\"} %llu\n",
		        rows[i].route, methods[rows[i].method], rows[i].status,
		        (unsigned long long)rows[i].n);
	help(f, "boardd_http_requests_dropped_total", "counter",
	     "Requests not counted above: the counter table was full.");
	fprintf(f, "boardd_http_requests_dropped_total %llu\n",
	        (unsigned long long)atomic_load(&dropped));
}

/* One histogram's lines; labels is "" or `name="value",…` with a
 * trailing comma. */
static void histogram(FILE *f, const char *name, const char *labels,
                      const struct histo_snap *h)
{
	for (size_t i = 0; i < h->n; i++)
		fprintf(f, "%s_bucket{%sle=\"%g\"} %llu\n", name, labels,
		        h->bounds[i], (unsigned long long)h->cumulative[i]);
	fprintf(f, "%s_bucket{%sle=\"+Inf\"} %llu\n", name, labels,
	        (unsigned long long)h->cumulative[h->n]);
	size_t n = strlen(labels);
	fprintf(f, "%s_sum%s%.*s%s %.6f\n", name, n ? "{" : "",
	        (int)(n ? n - 1 : 0), labels, n ? "}" : "", h->sum);
	fprintf(f, "%s_count%s%.*s%s %llu\n", name, n ? "{" : "",
	        (int)(n ? n - 1 : 0), labels, n ? "}" : "",
	        (unsigned long long)h->cumulative[h->n]);
}

static void latencies(FILE *f)
{
	help(f, "boardd_http_request_duration_seconds", "histogram",
	     "Seconds from a request's headers to its answer sent, by route "
	     "template and method (event streams: their whole life).");
	for (size_t r = 0; r < ROUTES_MAX; r++)
		for (size_t m = 0; m < N_METHODS; m++) {
			struct histo_snap h;
			histo_snap(&latency[r][m], &h);
			if (!h.cumulative[h.n])
				continue;
			char route[96], labels[160];
			metrics_route_name((int)r, route, sizeof route);
			snprintf(labels, sizeof labels,
			         "route=\"%s\",method=\"%s\",", route,
			         methods[m]);
			histogram(f, "boardd_http_request_duration_seconds",
			          labels, &h);
		}
}

static _Atomic(struct conns *) conns_table; /* metrics_set_connections */
static atomic_uint conns_max;

void metrics_set_connections(struct conns *cs, unsigned max_conns)
{
	atomic_store(&conns_max, max_conns);
	atomic_store(&conns_table, cs);
}

/* One unlabelled sample: its family's name, type, help and value. */
struct single {
	const char *name, *type, *help;
	unsigned long long v;
};

static void service_part(FILE *f, struct service *svc, struct hub *hub)
{
	struct svc_stats st;
	service_stats(svc, &st);
	const struct single singles[] = {
	    {"boardd_games_cached", "gauge",
	     "Game states held in memory (the state cache).", st.games_cached},
	    {"boardd_games_cache_capacity", "gauge",
	     "The most game states the cache holds.", st.cache_capacity},
	    {"boardd_open_streams", "gauge",
	     "Event streams open and long-polls waiting.",
	     hub ? hub_joined(hub) : 0},
	    {"boardd_moves_committed_total", "counter",
	     "Moves committed: players', bots' and timeouts'.",
	     st.moves_committed},
	    {"boardd_store_writes_total", "counter",
	     "Writes run by group commit, each its own unit of a batch.",
	     st.writes.units},
	    {"boardd_store_batches_total", "counter",
	     "Write transactions begun (batches).", st.writes.batches},
	    {"boardd_store_commits_total", "counter",
	     "Batches committed (one fsync each at --sync full).",
	     st.writes.commits},
	    {"boardd_store_rollbacks_total", "counter",
	     "Batches rolled back: nothing of them was acknowledged.",
	     st.writes.rolled_back},
	    {"boardd_store_batch_largest", "gauge",
	     "The most writes one batch has held since start.",
	     st.writes.largest},
	    {"boardd_store_write_queue", "gauge",
	     "Writes waiting for a batch now.", st.writes.queued},
	    {"boardd_bot_queue_depth", "gauge",
	     "Games queued for the bot workers (bot turns and timeouts).",
	     st.bot_queue},
	};
	for (size_t i = 0; i < sizeof singles / sizeof *singles; i++) {
		help(f, singles[i].name, singles[i].type, singles[i].help);
		fprintf(f, "%s %llu\n", singles[i].name, singles[i].v);
	}
	gauge_or_nan(f, "boardd_webhook_queue_depth",
	             "Webhook deliveries pending in the outbox (NaN: the store "
	             "did not answer).",
	             st.webhook_pending);
	help(f, "boardd_deadline_lag_seconds", "histogram",
	     "How late each timeout was applied past its deadline.");
	histogram(f, "boardd_deadline_lag_seconds", "", &st.deadline_lag);
	uint64_t ends[HOOKS_OUTCOMES];
	hooks_outcomes(ends);
	static const char *const outcome[HOOKS_OUTCOMES] = {
	    [HOOKS_DELIVERED] = "delivered",
	    [HOOKS_RETRIED] = "retried",
	    [HOOKS_FAILED] = "failed",
	    [HOOKS_GONE] = "gone"};
	help(f, "boardd_webhook_attempts_total", "counter",
	     "Webhook delivery attempts by how they ended: delivered (2xx), "
	     "retried, failed (the last attempt), gone (410: the webhook "
	     "was disabled).");
	for (int i = 0; i < HOOKS_OUTCOMES; i++)
		fprintf(f,
		        "boardd_webhook_attempts_total{outcome=\"%s\"} %llu\n",
		        outcome[i], (unsigned long long)ends[i]);
	hooks_push_outcomes(ends);
	help(f, "boardd_push_attempts_total", "counter",
	     "Web Push delivery attempts by how they ended: delivered (2xx), "
	     "retried, failed (the last attempt), gone (404 or 410: the "
	     "subscription was deleted).");
	for (int i = 0; i < HOOKS_OUTCOMES; i++)
		fprintf(f, "boardd_push_attempts_total{outcome=\"%s\"} %llu\n",
		        outcome[i], (unsigned long long)ends[i]);
	hooks_mail_outcomes(ends);
	help(f, "boardd_mail_attempts_total", "counter",
	     "Mail delivery attempts over SMTP by how they ended: delivered "
	     "(the server took it), retried, failed (the last attempt).");
	for (int i = 0; i < HOOKS_GONE; i++) /* (a mail is never "gone") */
		fprintf(f, "boardd_mail_attempts_total{outcome=\"%s\"} %llu\n",
		        outcome[i], (unsigned long long)ends[i]);
	unsigned long long made[HTTP_CODINGS], coded[HTTP_CODINGS];
	http_coding_counts(made, coded);
	help(f, "boardd_http_compressions_total", "counter",
	     "Bodies compressed by the server, by content coding (the web "
	     "client's files are compressed at build time and never count; a "
	     "cached game view is compressed once per version).");
	for (int c = HTTP_GZIP; c < HTTP_CODINGS; c++)
		fprintf(f, "boardd_http_compressions_total{coding=\"%s\"} %llu\n",
		        http_coding_name((enum http_coding)c), made[c]);
	help(f, "boardd_http_coded_answers_total", "counter",
	     "Answers sent with a Content-Encoding, by coding.");
	for (int c = HTTP_GZIP; c < HTTP_CODINGS; c++)
		fprintf(f,
		        "boardd_http_coded_answers_total{coding=\"%s\"} %llu\n",
		        http_coding_name((enum http_coding)c), coded[c]);
	gauge_or_nan(f, "boardd_store_database_bytes",
	             "The database's size on disk: SQLite's pages, PostgreSQL's "
	             "pg_database_size (NaN: the store did not answer).",
	             st.db_bytes);
	if (st.listening < 0) { /* SQLite: a WAL of its own, no listener */
		gauge_or_nan(f, "boardd_store_wal_bytes",
		             "SQLite's write-ahead log file (NaN: not known).",
		             st.wal_bytes);
		return;
	}
	help(f, "boardd_store_listening", "gauge",
	     "1 while the PostgreSQL connection that hears the other nodes' "
	     "changes is listening, else 0.");
	fprintf(f, "boardd_store_listening %d\n", st.listening);
}

static void connections_part(FILE *f)
{
	struct conns *cs = atomic_load(&conns_table);
	if (!cs)
		return;
	help(f, "boardd_http_connections", "gauge",
	     "Client connections open now.");
	fprintf(f, "boardd_http_connections %u\n", conns_count(cs));
	help(f, "boardd_http_connections_max", "gauge",
	     "The most client connections the server holds (--max-conns).");
	fprintf(f, "boardd_http_connections_max %u\n", atomic_load(&conns_max));
}

/* The standard process metrics of every Prometheus client library; a
 * value /proc did not give is left out. */
static void process_part(FILE *f)
{
	struct process_stats p;
	process_read(&p);
	const struct {
		const char *name, *type, *help;
		double v;
	} rows[] = {
	    {"process_cpu_seconds_total", "counter",
	     "Total user and system CPU time spent in seconds.", p.cpu_seconds},
	    {"process_resident_memory_bytes", "gauge",
	     "Resident memory size in bytes.", p.resident_bytes},
	    {"process_virtual_memory_bytes", "gauge",
	     "Virtual memory size in bytes.", p.virtual_bytes},
	    {"process_open_fds", "gauge", "Number of open file descriptors.",
	     p.open_fds},
	    {"process_max_fds", "gauge",
	     "Maximum number of open file descriptors.", p.max_fds},
	    {"process_start_time_seconds", "gauge",
	     "Start time of the process since unix epoch in seconds.",
	     p.start_time_seconds},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (rows[i].v < 0)
			continue;
		help(f, rows[i].name, rows[i].type, rows[i].help);
		fprintf(f, "%s %.17g\n", rows[i].name, rows[i].v);
	}
}

/* 1 if client (limits.h's resolved address) is loopback or local:
 * all zero ("local", or ::1 within ::/64) or IPv4-mapped 127.0.0.0/8. */
static int is_loopback(const struct limits_addr *client)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
	                                   0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t zero[16] = {0};
	return memcmp(client->key, zero, 16) == 0 ||
	       (memcmp(client->key, mapped, 12) == 0 && client->key[12] == 127);
}

int metrics_operator(const struct http_req *req, struct http_reply *rep)
{
	int mode = atomic_load(&access_mode);
	if (mode == METRICS_OFF) {
		problem_reply(rep, BD_ENOROUTE, NULL, req->path);
		return 0;
	}
	if (mode == METRICS_LOOPBACK && !is_loopback(req->client)) {
		struct svc_err err = {0};
		snprintf(err.detail, sizeof err.detail,
		         "%s answers loopback clients only "
		         "(the server's --metrics flag)",
		         req->path);
		problem_reply(rep, BD_EFORBIDDEN, &err, req->path);
		return 0;
	}
	return 1;
}

void metrics_reply(struct service *svc, const struct http_req *req,
                   struct http_reply *rep)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	if (!metrics_operator(req, rep))
		return;
	pthread_once(&once, init_histograms);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		problem_reply(rep, BD_ENOMEM, NULL, req->path);
		return;
	}
	help(f, "boardd_build_info", "gauge",
	     "Always 1: the release and git commit of this binary "
	     "(boardd --version).");
	fprintf(f, "boardd_build_info{version=\"%s\",commit=\"%s\"} 1\n",
	        boardd_version, boardd_commit);
	pthread_mutex_lock(&mu); /* requests()'s rows: one scrape at a time */
	requests(f);
	pthread_mutex_unlock(&mu);
	latencies(f);
	service_part(f, svc, req->hub);
	connections_part(f);
	process_part(f);
	if (fclose(f) != 0 || !text) {
		free(text);
		problem_reply(rep, BD_ENOMEM, NULL, req->path);
		return;
	}
	rep->status = 200;
	rep->raw = text;
	rep->raw_len = len;
	rep->raw_owned = 1;
	rep->raw_type = "text/plain; version=0.0.4; charset=utf-8";
}
