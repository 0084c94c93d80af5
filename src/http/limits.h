/* limits.h: what one client may take of the server.  Its manual.
 *
 * Three things, all keyed by who asks:
 *
 * 1. Who asks.  The client address is the TCP peer's, unless the peer is
 *    a proxy named in the configuration (--trusted-proxy): then it is the
 *    rightmost address of X-Forwarded-For that is not itself a trusted
 *    proxy (what nginx's $proxy_add_x_forwarded_for appends), or else
 *    X-Real-IP; a header that does not parse leaves the peer's address.
 *    An IPv6 client is counted by its /64 (one subscriber's prefix), an
 *    IPv4 one by its whole address.  The token is the bearer token as
 *    sent (valid or not: a made-up token is still counted by address).
 *
 * 2. Rate limits: a token bucket per (action, client address) and per
 *    (action, token) for the writes a script could flood: creating
 *    players, creating games, joining, moving, registering a webhook
 *    (each PUT writes and makes a new secret).  A policy "q per w
 *    seconds" is a bucket of q requests, refilled at q/w per second; a
 *    request takes one from the address's bucket and, when it sends a
 *    token, one from the token's, or from neither (then it is refused
 *    with the seconds until both have one: Retry-After).  Every answer
 *    of a limited operation describes the buckets in the IETF draft's
 *    fields (draft-ietf-httpapi-ratelimit-headers-10/11):
 *
 *      RateLimit-Policy: "games-addr";q=60;w=600, "games-token";q=30;w=600
 *      RateLimit: "games-addr";r=59;t=10, "games-token";r=29;t=20
 *
 *    r: whole requests left in the bucket; t: seconds until it is full.
 *
 * 3. Stream budgets: event streams and long-polls hold a connection for
 *    minutes, so they have their own budget: at most `streams` at once in
 *    all (always less than --max-conns, so ordinary requests keep room),
 *    `streams_per_addr` per client address and `streams_per_token` per
 *    token.  Anonymous clients (no bearer token the server knows: the
 *    caller passes the token only once it was checked) share at most
 *    `streams_anon` of them in all, and at most `streams_per_net` per
 *    network (an IPv4 /24, an IPv6 /48), so that no flood of addresses
 *    without a token takes the slots players need: a player's stream
 *    counts against its token and address only.  Past the global budget,
 *    or the anonymous share, the answer is 503 (the server is full, not
 *    the client's fault); past a per-client one (address, token,
 *    network) it is 429.
 *
 * Memory: one table of entries (an address, a network or a token, its
 * buckets and its open streams), at most `table_max` of them.  When
 * full, an entry unused long that holds no stream is evicted: one that
 * owes less than half of each bucket, if one of the 8 least recently
 * used does (forgetting it hands back less than half a bucket), else the
 * least recently used, whose debts (what its buckets lack, per action)
 * are then added to an over-counting sketch: count-min, 4 rows of
 * table_max / 16 counters (at least 64) per scope and action, each
 * draining at the action's refill rate, IPv6 addresses counted by /48.
 * A new entry starts from the least of its key's counters, never from
 * less than it owed when evicted: so no flood of new keys hands an
 * exhausted client a full bucket back; the sketch may only over-count (a
 * new key sharing counters with evicted debtors starts with less).
 * Refused or unauthenticated requests never add an entry, so they never
 * evict an honest client's bucket: a refused rate-limited request or
 * stream open stores nothing, and a token gets an entry only once the
 * server accepted it (limits_token_known).  Until then (and forever for
 * a made-up one) it is checked against the sketch (an evicted token that
 * owes its bucket stays refused) and charged nothing: its requests count
 * against its address only, and a flood of made-up tokens leaves no
 * trace (counting them in the sketch would raise the counters every new
 * token starts from: 1,000,000 of them left a new token 78 of its 300
 * tickets).  Entries holding a stream are never evicted; there are at
 * most 3 * streams of them.  Keys are
 * hashed with a random SipHash key (libsodium), so a flood of chosen
 * keys cannot pile into one hash chain or sketch counter; tokens are
 * kept only as a 16-byte keyed hash.
 *
 * Every function is thread-safe (one mutex) and never blocks otherwise.
 * Running out of memory never refuses a request: the request passes
 * unlimited.
 */
#ifndef BD_LIMITS_H
#define BD_LIMITS_H

#include <stddef.h>
#include <stdint.h>

struct sockaddr;

/* The actions with a rate limit. */
enum limits_action {
	LIMITS_PLAYERS,  /* POST /v1/players */
	LIMITS_GAMES,    /* POST /v1/games */
	LIMITS_JOINS,    /* POST /v1/games/{id}/join, /leave, DELETE
	                    /v1/games/{id}, POST and DELETE
	                    /v1/games/{id}/rematch, POST /v1/seeks, DELETE
	                    /v1/seeks/{id}, POST /v1/players/me/seats */
	LIMITS_MOVES,    /* POST /v1/games/{id}/moves (and resign) */
	LIMITS_WEBHOOKS, /* PUT /v1/players/me/webhook, POST
	                    /v1/players/me/push-subscriptions, POST and
	                    PATCH /v1/players/me/vacation, POST and PATCH
	                    /v1/players/me/email, POST .../email/confirm */
	LIMITS_TICKETS,  /* POST /v1/tickets */
	LIMITS_TOKENS,   /* POST /v1/players/me/tokens, POST
	                    /v1/players/me/link-codes, POST
	                    /v1/link-codes/claim */
	LIMITS_CHAT,     /* POST /v1/games/{id}/chat/{channel}, POST
	                    /v1/reports, PUT and DELETE
	                    /v1/players/me/blocks/{player} */
	LIMITS_ACTIONS
};

/* Whose bucket. */
enum limits_scope { LIMITS_ADDR, LIMITS_TOKEN, LIMITS_SCOPES };

#define LIMITS_PROXIES_MAX    16 /* trusted proxy addresses */
#define LIMITS_TABLE_MIN      64 /* smallest table_max accepted */
#define LIMITS_STREAM_RETRY_S 5  /* Retry-After of a refused stream */

/* A policy: `quota` requests per `window_s` seconds; quota 0: none. */
struct limits_rate {
	unsigned quota;
	unsigned window_s;
};

struct limits_config {
	struct limits_rate rate[LIMITS_ACTIONS][LIMITS_SCOPES];
	unsigned streams;           /* streams and long-polls in all, >= 1 */
	unsigned streams_per_addr;  /* per client address; 0: no cap */
	unsigned streams_per_token; /* per bearer token; 0: no cap */
	unsigned streams_anon;      /* anonymous clients' in all, clamped to
	                               streams; 0: no share of their own */
	unsigned streams_per_net;   /* anonymous clients' per IPv4 /24 or
	                               IPv6 /48; 0: no cap */
	unsigned table_max;         /* entries kept, >= LIMITS_TABLE_MIN */
	unsigned n_proxies;         /* entries used in proxies[] */
	uint8_t proxies[LIMITS_PROXIES_MAX][16]; /* IPv6 or v4-mapped */
};

/* Fills *c with the defaults (README's table) for a server of max_conns
 * connections: streams = max_conns / 2 (at least 1), and the anonymous
 * share of it limits_anon_default gives. */
void limits_config_default(struct limits_config *c, unsigned max_conns);

/* Sets c->streams_anon to half of c->streams and c->streams_per_net to
 * a quarter of that (each at least 1): for after c->streams changed. */
void limits_anon_default(struct limits_config *c);

/* Applies one --rate-limit value to *c: "off" (every rate limit off), or
 * a comma list of "<action>.<scope>=<q>/<w>" where action is players,
 * games, joins, moves, webhooks, tickets, tokens or chat, scope is addr or
 * token, q a count (0: no limit) and w seconds, optionally suffixed s,
 * m, h or d ("60/10m").  0, or -1 with a sentence in err (c is then
 * partly changed). */
int limits_parse_rate(struct limits_config *c, const char *spec, char *err,
                      size_t errlen);

/* Adds the comma-separated IPv4/IPv6 literals of `list` to c's trusted
 * proxies.  0, or -1 with a sentence in err. */
int limits_parse_proxies(struct limits_config *c, const char *list, char *err,
                         size_t errlen);

struct limits;

/* A limiter for cfg (copied), or NULL when out of memory.  Needs
 * sodium_init() done.  Free with limits_free once no stream is open. */
struct limits *limits_new(const struct limits_config *cfg);

/* Frees l.  NULL is a no-op. */
void limits_free(struct limits *l);

/* A resolved client address. */
struct limits_addr {
	uint8_t key[16]; /* IPv6, or IPv4-mapped; an IPv6 /64 is zero-
	                    filled past the prefix; all zero: no address */
	char text[48];   /* its printable form once limits_addr_text ran,
	                    "" before (or "local" at once) */
	int via_proxy;   /* 1: the TCP peer is a trusted proxy (whose
	                    forwarding headers are believed: X-Forwarded-For,
	                    X-Real-IP, X-Request-Id) */
};

/* a's printable form: "203.0.113.7", "2001:db8:1:2::/64", or "local"
 * (all-zero key), in a->text (formatted on the first call: inet_ntop
 * costs more than the rest of limits_client, and most requests never
 * print their client).  Not thread-safe for one a: a request's own. */
const char *limits_addr_text(struct limits_addr *a);

/* Resolves the client of a request whose TCP peer is `peer` (may be
 * NULL, or not AF_INET/AF_INET6: then the key is all zero, "local"),
 * given its X-Forwarded-For and X-Real-IP header values (NULL when
 * absent), into *out (see 1. above). */
void limits_client(const struct limits *l, const struct sockaddr *peer,
                   const char *xff, const char *xrealip,
                   struct limits_addr *out);

/* What limits_take decided, with the header values for the answer. */
struct limits_verdict {
	int ok;                 /* 1: go ahead; 0: refuse with 429 */
	unsigned retry_after_s; /* when refused: seconds, >= 1 */
	char policy[160];       /* RateLimit-Policy value, or "" */
	char state[160];        /* RateLimit value, or "" */
	int token_unstored;     /* 1: the token has no entry and was not
	                           charged: call limits_token_known once
	                           the server accepted it */
};

/* Takes one request of action `a` for client `addr` and `token` (NULL:
 * none; as sent, unchecked) from their buckets, or from none when either
 * is empty (then no new entry is made for them: a refused key costs no
 * table room).  A token without an entry is never given one here: it is
 * checked against the sketch's estimate (what it owed when evicted) and
 * not charged (v->token_unstored).  Fills *v (headers empty when no
 * policy applies to a). */
void limits_take(struct limits *l, enum limits_action a,
                 const struct limits_addr *addr, const char *token,
                 struct limits_verdict *v);

/* Charges `token` (NULL: a no-op) the request of action `a` that
 * limits_take did not charge (v->token_unstored), now that the server
 * accepted it (the request succeeded: the token is a player's or a
 * seat's), giving it an entry if it has none, its buckets what the
 * sketch remembers of it.  A no-op when no policy limits a's tokens. */
void limits_token_known(struct limits *l, enum limits_action a,
                        const char *token);

/* One held stream slot: zero it before limits_stream_open. */
struct limits_slot {
	void *addr_entry, *token_entry, *net_entry; /* the table's, or NULL */
	int anon; /* 1: counted in the anonymous share */
	int held; /* 1 between open and close */
};

/* Takes a stream slot for client `addr` into *slot.  `token` is the
 * bearer token the request was checked with (a player's or a seat's,
 * known to the store), or NULL: an anonymous client, counted in the
 * anonymous share and per network too.  0; BD_ELIMIT when the client's
 * address, network or token holds its budget; BD_EUNAVAILABLE when the
 * global budget or the anonymous share is spent.  When refused, nothing
 * is held and *retry_after_s is set. */
int limits_stream_open(struct limits *l, const struct limits_addr *addr,
                       const char *token, struct limits_slot *slot,
                       unsigned *retry_after_s);

/* Gives the slot back.  A no-op unless slot->held. */
void limits_stream_close(struct limits *l, struct limits_slot *slot);

/* Streams and long-polls open now, in all (for tests and logs). */
unsigned limits_streams_open(struct limits *l);

/* Anonymous streams and long-polls open now (for tests and logs). */
unsigned limits_anon_streams_open(struct limits *l);

/* Entries in the table now (for tests): at most table_max, plus those
 * holding a stream. */
size_t limits_entries(struct limits *l);

#endif
