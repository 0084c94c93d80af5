/* limits.c: token buckets, stream budgets and client addresses.  See
 * limits.h.
 *
 * One hash table (chained, table_max buckets, SipHash-keyed) of entries,
 * each an address, a network or a token.  Entries that hold no stream
 * are also on an LRU list, most recently used first; the table evicts
 * from its tail, folding an evicted entry's debt into the sketch (per
 * scope, row, column and action a counter that drains at the action's
 * refill rate).  One mutex guards everything. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/err.h"
#include "limits.h"
#include "monoclock.h"

enum { KIND_ADDR = 1, KIND_TOKEN = 2, KIND_NET = 3 };

#define SKETCH_ROWS  4 /* counters per key: its estimate is their least */
#define SKETCH_MIN_W 64
#define EVICT_LOOK   8 /* LRU entries looked at for one with no debt */

/* One sketch counter: debt (requests owed) as of at_ms. */
struct cell {
	double debt;
	int64_t at_ms;
};

struct entry {
	uint8_t kind;                  /* KIND_* */
	uint8_t key[16];               /* address, or the token's hash */
	unsigned streams;              /* stream slots held */
	double tokens[LIMITS_ACTIONS]; /* bucket levels */
	int64_t at_ms[LIMITS_ACTIONS]; /* last refill; 0: never used */
	struct entry *chain;           /* the hash bucket's list */
	struct entry *prev, *next;     /* the LRU list (streams == 0) */
};

struct limits {
	struct limits_config cfg;
	pthread_mutex_t mu;
	unsigned char hash_key[crypto_shorthash_KEYBYTES];
	unsigned char token_key[crypto_generichash_KEYBYTES];
	struct entry **buckets;    /* table_max of them */
	size_t count;              /* entries in the table */
	struct entry *head, *tail; /* LRU, most recent first */
	unsigned streams;          /* slots held in all */
	unsigned anon;             /* of them, anonymous clients' */
	size_t sketch_w;           /* columns per sketch row */
	struct cell *sketch;       /* [scope][row][column][action] */
};

static const char *const action_names[LIMITS_ACTIONS] = {
    "players",  "games",   "joins",  "moves",
    "webhooks", "tickets", "tokens", "chat"};
static const char *const scope_names[LIMITS_SCOPES] = {"addr", "token"};

/* ---- configuration ---- */

void limits_config_default(struct limits_config *c, unsigned max_conns)
{
	static const struct limits_rate dflt[LIMITS_ACTIONS][LIMITS_SCOPES] = {
	    [LIMITS_PLAYERS] = {{60, 3600}, {0, 0}},
	    [LIMITS_GAMES] = {{60, 600}, {30, 600}},
	    [LIMITS_JOINS] = {{120, 600}, {60, 600}},
	    [LIMITS_MOVES] = {{600, 60}, {120, 60}},
	    [LIMITS_WEBHOOKS] = {{60, 3600}, {20, 3600}},
	    [LIMITS_TICKETS] = {{600, 600}, {300, 600}},
	    [LIMITS_TOKENS] = {{60, 3600}, {20, 3600}},
	    /* a person types a line every few seconds at most */
	    [LIMITS_CHAT] = {{120, 60}, {10, 30}},
	};
	memset(c, 0, sizeof *c);
	memcpy(c->rate, dflt, sizeof dflt);
	c->streams = max_conns / 2 ? max_conns / 2 : 1;
	c->streams_per_addr = 32;
	c->streams_per_token = 16;
	c->table_max = 32768;
	limits_anon_default(c);
}

void limits_anon_default(struct limits_config *c)
{
	c->streams_anon = c->streams / 2 ? c->streams / 2 : 1;
	c->streams_per_net = c->streams_anon / 4 ? c->streams_anon / 4 : 1;
}

static int fail(char *err, size_t errlen, const char *what, const char *v)
{
	snprintf(err, errlen, "%s: '%s'", what, v);
	return -1;
}

/* Parses "<n>[smhd]" seconds, 1 s to 30 days; -1 if not one. */
static int parse_window(const char *s, size_t n, unsigned *out)
{
	unsigned long mult = 1, v = 0;
	if (n && strchr("smhd", s[n - 1])) {
		mult = s[n - 1] == 's'   ? 1
		       : s[n - 1] == 'm' ? 60
		       : s[n - 1] == 'h' ? 3600
		                         : 86400;
		n--;
	}
	if (n == 0 || n > 7)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	v *= mult;
	if (v < 1 || v > 30ul * 86400)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* One "<action>.<scope>=<q>/<w>" item of n bytes at s. */
static int parse_item(struct limits_config *c, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n), *dot = memchr(s, '.', n);
	if (!eq || !dot || dot > eq)
		return -1;
	int a = -1, sc = -1;
	for (int i = 0; i < LIMITS_ACTIONS; i++)
		if ((size_t)(dot - s) == strlen(action_names[i]) &&
		    memcmp(s, action_names[i], (size_t)(dot - s)) == 0)
			a = i;
	for (int i = 0; i < LIMITS_SCOPES; i++)
		if ((size_t)(eq - dot - 1) == strlen(scope_names[i]) &&
		    memcmp(dot + 1, scope_names[i], (size_t)(eq - dot - 1)) ==
		        0)
			sc = i;
	const char *q = eq + 1, *end = s + n;
	const char *slash = memchr(q, '/', (size_t)(end - q));
	if (a < 0 || sc < 0 || !slash || slash == q || slash - q > 7)
		return -1;
	unsigned long quota = 0;
	for (const char *p = q; p < slash; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		quota = quota * 10 + (unsigned long)(*p - '0');
	}
	unsigned w;
	if (parse_window(slash + 1, (size_t)(end - slash - 1), &w) < 0)
		return -1;
	c->rate[a][sc] = (struct limits_rate){(unsigned)quota, w};
	return 0;
}

int limits_parse_rate(struct limits_config *c, const char *spec, char *err,
                      size_t errlen)
{
	if (strcmp(spec, "off") == 0) {
		memset(c->rate, 0, sizeof c->rate);
		return 0;
	}
	for (const char *s = spec;;) {
		size_t n = strcspn(s, ",");
		if (parse_item(c, s, n) < 0)
			return fail(
			    err, errlen,
			    "--rate-limit wants off or "
			    "<players|games|joins|moves|webhooks|tickets|"
			    "tokens|chat>.<addr|token>="
			    "<count>/<seconds>[smhd]",
			    spec);
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

/* Parses an IPv4 or IPv6 literal of n bytes into a 16-byte key (IPv4
 * mapped); -1 if it is not one. */
static int parse_ip(const char *s, size_t n, uint8_t out[16])
{
	char buf[INET6_ADDRSTRLEN];
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	struct in_addr v4;
	if (inet_pton(AF_INET, buf, &v4) == 1) {
		memset(out, 0, 10);
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &v4, 4);
		return 0;
	}
	return inet_pton(AF_INET6, buf, out) == 1 ? 0 : -1;
}

int limits_parse_proxies(struct limits_config *c, const char *list, char *err,
                         size_t errlen)
{
	for (const char *s = list;;) {
		size_t n = strcspn(s, ",");
		if (c->n_proxies == LIMITS_PROXIES_MAX)
			return fail(err, errlen,
			            "--trusted-proxy: at most 16 addresses", s);
		if (parse_ip(s, n, c->proxies[c->n_proxies]) < 0)
			return fail(err, errlen,
			            "--trusted-proxy wants IPv4 or IPv6 "
			            "addresses, comma-separated",
			            list);
		c->n_proxies++;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

/* ---- client addresses ---- */

static int is_proxy(const struct limits *l, const uint8_t ip[16])
{
	for (unsigned i = 0; i < l->cfg.n_proxies; i++)
		if (memcmp(l->cfg.proxies[i], ip, 16) == 0)
			return 1;
	return 0;
}

static int is_v4_mapped(const uint8_t ip[16])
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0,    0,
	                                   0, 0, 0, 0, 0xff, 0xff};
	return memcmp(ip, prefix, 12) == 0;
}

/* Sets out's key: ip, cut to /64 for IPv6 (its text waits for
 * limits_addr_text). */
static void set_addr(struct limits_addr *out, const uint8_t ip[16])
{
	memcpy(out->key, ip, 16);
	if (!is_v4_mapped(ip))
		memset(out->key + 8, 0, 8);
}

const char *limits_addr_text(struct limits_addr *a)
{
	static const uint8_t none[16];
	if (a->text[0])
		return a->text;
	if (memcmp(a->key, none, sizeof none) == 0) {
		snprintf(a->text, sizeof a->text, "local");
	} else if (is_v4_mapped(a->key)) {
		inet_ntop(AF_INET, a->key + 12, a->text, sizeof a->text);
	} else {
		inet_ntop(AF_INET6, a->key, a->text, sizeof a->text - 3);
		strcat(a->text, "/64");
	}
	return a->text;
}

/* The rightmost address of an X-Forwarded-For list that is not a
 * trusted proxy; -1 if none parses. */
static int from_xff(const struct limits *l, const char *xff, uint8_t ip[16])
{
	size_t end = strlen(xff);
	while (end > 0) {
		size_t start = end;
		while (start > 0 && xff[start - 1] != ',')
			start--;
		if (parse_ip(xff + start, end - start, ip) < 0)
			return -1;
		if (!is_proxy(l, ip))
			return 0;
		end = start ? start - 1 : 0;
	}
	return -1;
}

void limits_client(const struct limits *l, const struct sockaddr *peer,
                   const char *xff, const char *xrealip,
                   struct limits_addr *out)
{
	uint8_t ip[16];
	memset(out, 0, sizeof *out);
	if (peer && peer->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const void *)peer;
		memset(ip, 0, 10);
		ip[10] = ip[11] = 0xff;
		memcpy(ip + 12, &v4->sin_addr, 4);
	} else if (peer && peer->sa_family == AF_INET6) {
		const struct sockaddr_in6 *v6 = (const void *)peer;
		memcpy(ip, &v6->sin6_addr, 16);
	} else {
		snprintf(out->text, sizeof out->text, "local");
		return;
	}
	if (is_proxy(l, ip)) {
		uint8_t fwd[16];
		out->via_proxy = 1;
		if ((xff && from_xff(l, xff, fwd) == 0) ||
		    (!xff && xrealip &&
		     parse_ip(xrealip, strlen(xrealip), fwd) == 0))
			memcpy(ip, fwd, 16);
	}
	set_addr(out, ip);
}

/* ---- the table (callers hold mu) ---- */

static size_t slot_of(const struct limits *l, uint8_t kind,
                      const uint8_t key[16])
{
	unsigned char in[17], h[crypto_shorthash_BYTES];
	in[0] = kind;
	memcpy(in + 1, key, 16);
	crypto_shorthash(h, in, sizeof in, l->hash_key);
	uint64_t v;
	memcpy(&v, h, sizeof v);
	return (size_t)(v % l->cfg.table_max);
}

static void lru_unlink(struct limits *l, struct entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else if (l->head == e)
		l->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else if (l->tail == e)
		l->tail = e->prev;
	e->prev = e->next = NULL;
}

static void lru_front(struct limits *l, struct entry *e)
{
	e->next = l->head;
	if (l->head)
		l->head->prev = e;
	l->head = e;
	if (!l->tail)
		l->tail = e;
}

/* Removes e from its chain and frees it. */
static void evict(struct limits *l, struct entry *e)
{
	struct entry **p = &l->buckets[slot_of(l, e->kind, e->key)];
	while (*p != e)
		p = &(*p)->chain;
	*p = e->chain;
	lru_unlink(l, e);
	l->count--;
	free(e);
}

/* The entry for (kind, key), marked most recently used, or NULL. */
static struct entry *find(struct limits *l, uint8_t kind, const uint8_t key[16])
{
	struct entry *e = l->buckets[slot_of(l, kind, key)];
	while (e && (e->kind != kind || memcmp(e->key, key, 16) != 0))
		e = e->chain;
	if (e && !e->streams) {
		lru_unlink(l, e);
		lru_front(l, e);
	}
	return e;
}

/* ---- the sketch of evicted debts (callers hold mu) ---- */

/* The network of address key k: its IPv4 /24 or IPv6 /48 (the key of
 * "local", all zero, stays all zero). */
static void net_key(const uint8_t k[16], uint8_t out[16])
{
	memcpy(out, k, 16);
	if (is_v4_mapped(k))
		out[15] = 0;
	else
		memset(out + 6, 0, 10);
}

static int scope_of(uint8_t kind)
{
	return kind == KIND_TOKEN ? LIMITS_TOKEN : LIMITS_ADDR;
}

/* The columns of (kind, key), one per row: hashes independent of
 * slot_of's (another input length) and of each other (the row is
 * hashed in).  An IPv6 address counts by its /48 here: the debts of one
 * network's many /64s (cheap to have) pile up in its own counters, not
 * spread over everyone's. */
static void sketch_cols(const struct limits *l, uint8_t kind,
                        const uint8_t key[16], size_t col[SKETCH_ROWS])
{
	unsigned char in[18], h[crypto_shorthash_BYTES];
	in[0] = kind;
	if (kind == KIND_ADDR && !is_v4_mapped(key))
		net_key(key, in + 2);
	else
		memcpy(in + 2, key, 16);
	for (unsigned row = 0; row < SKETCH_ROWS; row++) {
		uint64_t v;
		in[1] = (unsigned char)row;
		crypto_shorthash(h, in, sizeof in, l->hash_key);
		memcpy(&v, h, sizeof v);
		col[row] = (size_t)(v % l->sketch_w);
	}
}

static struct cell *cell_at(struct limits *l, int sc, unsigned row, size_t col,
                            int a)
{
	size_t i = ((size_t)sc * SKETCH_ROWS + row) * l->sketch_w + col;
	return &l->sketch[i * LIMITS_ACTIONS + (size_t)a];
}

/* Requests a bucket of policy r refills in ms milliseconds. */
static double refilled(const struct limits_rate *r, int64_t ms)
{
	return ms > 0 ? (double)ms * r->quota / (r->window_s * 1000.0) : 0;
}

/* Drains c to now_ms at policy r's refill rate: a sum of debts drains
 * no faster than each of them would, so the counter never drops below
 * the debt any one key in it has left. */
static void drain(struct cell *c, const struct limits_rate *r, int64_t now_ms)
{
	c->debt -= refilled(r, now_ms - c->at_ms);
	if (c->debt < 0)
		c->debt = 0;
	if (now_ms > c->at_ms)
		c->at_ms = now_ms;
}

/* What e's bucket for action a lacks of full at now_ms, when that is
 * at least half the bucket (the debt eviction remembers), else 0: so a
 * flood of keys that each spent a request or two (made-up tokens, one
 * request per address) adds nothing to the sketch, and forgetting a
 * smaller debt hands back less than half a bucket, once per flood of the
 * whole table. */
static double debt_of(const struct limits *l, const struct entry *e, int a,
                      int64_t now_ms)
{
	const struct limits_rate *r = &l->cfg.rate[a][scope_of(e->kind)];
	if (!r->quota || !e->at_ms[a])
		return 0;
	double level = e->tokens[a] + refilled(r, now_ms - e->at_ms[a]);
	return r->quota - level >= r->quota / 2.0 ? r->quota - level : 0;
}

static int has_debt(const struct limits *l, const struct entry *e,
                    int64_t now_ms)
{
	for (int a = 0; a < LIMITS_ACTIONS; a++)
		if (debt_of(l, e, a, now_ms) > 0)
			return 1;
	return 0;
}

/* Adds evicted entry e's debts to the sketch. */
static void remember(struct limits *l, const struct entry *e, int64_t now_ms)
{
	size_t col[SKETCH_ROWS];
	int sc = scope_of(e->kind);
	sketch_cols(l, e->kind, e->key, col);
	for (int a = 0; a < LIMITS_ACTIONS; a++) {
		double d = debt_of(l, e, a, now_ms);
		for (unsigned row = 0; d > 0 && row < SKETCH_ROWS; row++) {
			struct cell *c = cell_at(l, sc, row, col[row], a);
			drain(c, &l->cfg.rate[a][sc], now_ms);
			c->debt += d;
		}
	}
}

/* Fills *e as a new entry for (kind, key): its buckets full, less the
 * least of its sketch counters (what it may have owed when evicted). */
static void entry_init(struct limits *l, struct entry *e, uint8_t kind,
                       const uint8_t key[16], int64_t now_ms)
{
	size_t col[SKETCH_ROWS];
	int sc = scope_of(kind);
	memset(e, 0, sizeof *e);
	e->kind = kind;
	memcpy(e->key, key, 16);
	if (kind == KIND_NET)
		return; /* no buckets */
	sketch_cols(l, kind, key, col);
	for (int a = 0; a < LIMITS_ACTIONS; a++) {
		const struct limits_rate *r = &l->cfg.rate[a][sc];
		double owed = -1;
		for (unsigned row = 0; r->quota && row < SKETCH_ROWS; row++) {
			struct cell *c = cell_at(l, sc, row, col[row], a);
			drain(c, r, now_ms);
			if (owed < 0 || c->debt < owed)
				owed = c->debt;
		}
		if (owed > 0) {
			e->tokens[a] = owed >= r->quota ? 0 : r->quota - owed;
			e->at_ms[a] = now_ms;
		}
	}
}

/* Evicts one idle entry when the table is full, never keep0 or keep1:
 * of the EVICT_LOOK least recently used, the first that owes nothing
 * (evicting it forgets nothing), else the least recently used, its debt
 * remembered in the sketch.  None when every entry holds a stream. */
static void make_room(struct limits *l, const struct entry *keep0,
                      const struct entry *keep1, int64_t now_ms)
{
	struct entry *lru = NULL, *quit = NULL;
	int looked = 0;
	if (l->count < l->cfg.table_max)
		return;
	for (struct entry *e = l->tail; e && !quit && looked < EVICT_LOOK;
	     e = e->prev) {
		if (e == keep0 || e == keep1)
			continue;
		looked++;
		if (!lru)
			lru = e;
		if (!has_debt(l, e, now_ms))
			quit = e;
	}
	if (!quit && lru) {
		remember(l, lru, now_ms);
		quit = lru;
	}
	if (quit)
		evict(l, quit);
}

/* Stores a copy of new entry *proto (entry_init), most recently used,
 * making room (never evicting keep0 or keep1); NULL when out of
 * memory. */
static struct entry *add(struct limits *l, const struct entry *proto,
                         const struct entry *keep0, const struct entry *keep1,
                         int64_t now_ms)
{
	make_room(l, keep0, keep1, now_ms);
	struct entry *e = malloc(sizeof *e);
	if (!e)
		return NULL;
	*e = *proto;
	e->prev = e->next = NULL;
	size_t i = slot_of(l, e->kind, e->key);
	e->chain = l->buckets[i];
	l->buckets[i] = e;
	l->count++;
	lru_front(l, e);
	return e;
}

/* The entry for (kind, key), made when missing (add), and marked most
 * recently used; NULL when out of memory. */
static struct entry *lookup(struct limits *l, uint8_t kind,
                            const uint8_t key[16], const struct entry *keep0,
                            const struct entry *keep1, int64_t now_ms)
{
	struct entry *e = find(l, kind, key), proto;
	if (e)
		return e;
	entry_init(l, &proto, kind, key, now_ms);
	return add(l, &proto, keep0, keep1, now_ms);
}

static void token_key(const struct limits *l, const char *token,
                      uint8_t key[16])
{
	crypto_generichash(key, 16, (const unsigned char *)token, strlen(token),
	                   l->token_key, sizeof l->token_key);
}

/* ---- rate limits ---- */

/* Refills e's bucket for action a under policy r at now_ms. */
static void refill(struct entry *e, int a, const struct limits_rate *r,
                   int64_t now_ms)
{
	if (!e->at_ms[a]) {
		e->tokens[a] = r->quota;
	} else if (now_ms > e->at_ms[a]) {
		double add = (double)(now_ms - e->at_ms[a]) * r->quota /
		             (r->window_s * 1000.0);
		e->tokens[a] += add;
		if (e->tokens[a] > r->quota)
			e->tokens[a] = r->quota;
	}
	e->at_ms[a] = now_ms;
}

/* Seconds until e's bucket holds `want` requests, at least 1 when it
 * holds fewer. */
static unsigned seconds_until(const struct entry *e, int a,
                              const struct limits_rate *r, double want)
{
	if (e->tokens[a] >= want)
		return 0;
	double s = (want - e->tokens[a]) * r->window_s / r->quota;
	unsigned whole = (unsigned)s; /* s > 0 */
	return whole < s ? whole + 1 : whole < 1 ? 1 : whole;
}

/* Appends one policy's members to v's headers. */
static void describe(struct limits_verdict *v, int a, int sc,
                     const struct limits_rate *r, const struct entry *e)
{
	size_t np = strlen(v->policy), ns = strlen(v->state);
	unsigned left = e->tokens[a] < 1 ? 0 : (unsigned)e->tokens[a];
	snprintf(v->policy + np, sizeof v->policy - np, "%s\"%s-%s\";q=%u;w=%u",
	         np ? ", " : "", action_names[a], scope_names[sc], r->quota,
	         r->window_s);
	snprintf(v->state + ns, sizeof v->state - ns, "%s\"%s-%s\";r=%u;t=%u",
	         ns ? ", " : "", action_names[a], scope_names[sc], left,
	         seconds_until(e, a, r, r->quota));
}

void limits_take(struct limits *l, enum limits_action a,
                 const struct limits_addr *addr, const char *token,
                 struct limits_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->ok = 1;
	const struct limits_rate *r = l->cfg.rate[a];
	struct entry *e[LIMITS_SCOPES] = {NULL, NULL};
	struct entry proto[LIMITS_SCOPES]; /* a key not in the table */
	int fresh[LIMITS_SCOPES] = {0, 0};
	static const uint8_t kinds[LIMITS_SCOPES] = {KIND_ADDR, KIND_TOKEN};
	uint8_t keys[LIMITS_SCOPES][16];
	int want[LIMITS_SCOPES] = {r[LIMITS_ADDR].quota != 0,
	                           token && r[LIMITS_TOKEN].quota};
	memcpy(keys[LIMITS_ADDR], addr->key, 16);
	if (want[LIMITS_TOKEN])
		token_key(l, token, keys[LIMITS_TOKEN]);
	int64_t now = mono_now_ms();
	pthread_mutex_lock(&l->mu);
	for (int sc = 0; sc < LIMITS_SCOPES; sc++) {
		if (!want[sc])
			continue;
		e[sc] = find(l, kinds[sc], keys[sc]);
		if (!e[sc]) {
			entry_init(l, &proto[sc], kinds[sc], keys[sc], now);
			e[sc] = &proto[sc];
			fresh[sc] = 1;
		}
	}
	for (int sc = 0; sc < LIMITS_SCOPES; sc++) {
		if (!e[sc])
			continue;
		refill(e[sc], a, &r[sc], now);
		if (e[sc]->tokens[a] < 1) {
			unsigned s = seconds_until(e[sc], a, &r[sc], 1);
			v->ok = 0;
			if (s > v->retry_after_s)
				v->retry_after_s = s;
		}
	}
	for (int sc = 0; v->ok && sc < LIMITS_SCOPES; sc++)
		if (e[sc])
			e[sc]->tokens[a] -= 1;
	/* Only a request that goes ahead stores its new address: refused
	 * ones take no room.  A token not in the table is neither stored nor
	 * charged here (it may be made up): it was only checked against the
	 * sketch, and is charged once the server accepted it
	 * (limits_token_known). */
	if (v->ok && fresh[LIMITS_ADDR]) {
		struct entry *n = add(
		    l, &proto[LIMITS_ADDR],
		    fresh[LIMITS_TOKEN] ? NULL : e[LIMITS_TOKEN], NULL, now);
		if (n) /* else out of memory: charged in proto, unstored */
			e[LIMITS_ADDR] = n;
	}
	v->token_unstored = fresh[LIMITS_TOKEN];
	for (int sc = 0; sc < LIMITS_SCOPES; sc++)
		if (e[sc])
			describe(v, a, sc, &r[sc], e[sc]);
	pthread_mutex_unlock(&l->mu);
}

void limits_token_known(struct limits *l, enum limits_action a,
                        const char *token)
{
	const struct limits_rate *r = &l->cfg.rate[a][LIMITS_TOKEN];
	if (!token || !r->quota)
		return;
	uint8_t key[16];
	token_key(l, token, key);
	int64_t now = mono_now_ms();
	pthread_mutex_lock(&l->mu);
	struct entry *e = lookup(l, KIND_TOKEN, key, NULL, NULL, now);
	if (e) { /* else out of memory: uncharged */
		refill(e, a, r, now);
		e->tokens[a] -= 1;
	}
	pthread_mutex_unlock(&l->mu);
}

/* ---- stream budgets ---- */

/* Pins e (no eviction while it holds a stream) and counts one more. */
static void hold(struct limits *l, struct entry *e)
{
	if (e && e->streams++ == 0)
		lru_unlink(l, e);
}

static void unhold(struct limits *l, struct entry *e)
{
	if (e && --e->streams == 0)
		lru_front(l, e);
}

/* 1 when entry e (NULL: not counted) holds `cap` streams already. */
static int full(const struct entry *e, unsigned cap)
{
	return e && e->streams >= cap;
}

/* The entry for (kind, key), or *proto as a new one (not stored yet:
 * *fresh set) that holds no stream. */
static struct entry *find_or_proto(struct limits *l, uint8_t kind,
                                   const uint8_t key[16], struct entry *proto,
                                   int *fresh, int64_t now_ms)
{
	struct entry *e = find(l, kind, key);
	*fresh = !e;
	if (e)
		return e;
	entry_init(l, proto, kind, key, now_ms);
	return proto;
}

int limits_stream_open(struct limits *l, const struct limits_addr *addr,
                       const char *token, struct limits_slot *slot,
                       unsigned *retry_after_s)
{
	enum { A, T, N, KEYS }; /* address, token, network */
	static const uint8_t kinds[KEYS] = {KIND_ADDR, KIND_TOKEN, KIND_NET};
	uint8_t keys[KEYS][16];
	int rc = 0, anon = !token;
	int want[KEYS] = {l->cfg.streams_per_addr != 0,
	                  token && l->cfg.streams_per_token,
	                  anon && l->cfg.streams_per_net};
	struct entry *e[KEYS] = {NULL, NULL, NULL}, proto[KEYS];
	int fresh[KEYS] = {0, 0, 0};
	memcpy(keys[A], addr->key, 16);
	if (want[T])
		token_key(l, token, keys[T]);
	if (want[N])
		net_key(addr->key, keys[N]);
	memset(slot, 0, sizeof *slot);
	int64_t now = mono_now_ms();
	pthread_mutex_lock(&l->mu);
	for (int k = 0; k < KEYS; k++)
		if (want[k])
			e[k] = find_or_proto(l, kinds[k], keys[k], &proto[k],
			                     &fresh[k], now);
	if (l->streams >= l->cfg.streams ||
	    (anon && l->cfg.streams_anon && l->anon >= l->cfg.streams_anon))
		rc = BD_EUNAVAILABLE;
	else if (full(e[A], l->cfg.streams_per_addr) ||
	         full(e[T], l->cfg.streams_per_token) ||
	         full(e[N], l->cfg.streams_per_net))
		rc = BD_ELIMIT;
	/* Only an open that goes ahead stores its new keys: a refused one
	 * takes no room (it would evict others' buckets).  Each add keeps
	 * the two other keys' entries. */
	for (int k = 0; rc == 0 && k < KEYS; k++) {
		if (!fresh[k])
			continue;
		/* NULL when out of memory: that key is not counted */
		e[k] = add(l, &proto[k], e[(k + 1) % KEYS], e[(k + 2) % KEYS],
		           now);
	}
	if (rc == 0) {
		l->streams++;
		l->anon += (unsigned)anon;
		hold(l, e[A]);
		hold(l, e[T]);
		hold(l, e[N]);
		*slot = (struct limits_slot){e[A], e[T], e[N], anon, 1};
	}
	pthread_mutex_unlock(&l->mu);
	if (rc)
		*retry_after_s = LIMITS_STREAM_RETRY_S;
	return rc;
}

void limits_stream_close(struct limits *l, struct limits_slot *slot)
{
	if (!slot->held)
		return;
	pthread_mutex_lock(&l->mu);
	l->streams--;
	l->anon -= (unsigned)slot->anon;
	unhold(l, slot->addr_entry);
	unhold(l, slot->token_entry);
	unhold(l, slot->net_entry);
	pthread_mutex_unlock(&l->mu);
	memset(slot, 0, sizeof *slot);
}

unsigned limits_streams_open(struct limits *l)
{
	pthread_mutex_lock(&l->mu);
	unsigned n = l->streams;
	pthread_mutex_unlock(&l->mu);
	return n;
}

unsigned limits_anon_streams_open(struct limits *l)
{
	pthread_mutex_lock(&l->mu);
	unsigned n = l->anon;
	pthread_mutex_unlock(&l->mu);
	return n;
}

size_t limits_entries(struct limits *l)
{
	pthread_mutex_lock(&l->mu);
	size_t n = l->count;
	pthread_mutex_unlock(&l->mu);
	return n;
}

/* ---- lifecycle ---- */

struct limits *limits_new(const struct limits_config *cfg)
{
	struct limits *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->cfg = *cfg;
	if (l->cfg.table_max < LIMITS_TABLE_MIN)
		l->cfg.table_max = LIMITS_TABLE_MIN;
	if (l->cfg.streams < 1)
		l->cfg.streams = 1;
	if (l->cfg.streams_anon > l->cfg.streams)
		l->cfg.streams_anon = l->cfg.streams;
	/* 2,048 columns for the default table: 1.8 MiB in all. */
	l->sketch_w = l->cfg.table_max / 16 > SKETCH_MIN_W
	                  ? l->cfg.table_max / 16
	                  : SKETCH_MIN_W;
	l->buckets = calloc(l->cfg.table_max, sizeof *l->buckets);
	l->sketch = calloc((size_t)LIMITS_SCOPES * SKETCH_ROWS * l->sketch_w *
	                       LIMITS_ACTIONS,
	                   sizeof *l->sketch);
	if (!l->buckets || !l->sketch ||
	    pthread_mutex_init(&l->mu, NULL) != 0) {
		free(l->buckets);
		free(l->sketch);
		free(l);
		return NULL;
	}
	randombytes_buf(l->hash_key, sizeof l->hash_key);
	randombytes_buf(l->token_key, sizeof l->token_key);
	return l;
}

void limits_free(struct limits *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->cfg.table_max; i++)
		for (struct entry *e = l->buckets[i], *next; e; e = next) {
			next = e->chain;
			free(e);
		}
	free(l->buckets);
	free(l->sketch);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
