/* test_limits.c: the limiter (src/http/limits.h) in process: flag
 * parsing, client addresses behind trusted proxies, token buckets and
 * their RateLimit fields, stream budgets, and a table that stays bounded
 * under a flood of distinct addresses. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sodium.h>
#include <string.h>
#include <sys/socket.h>

#include "common/err.h"
#include "http/limits.h"
#include "testhelp.h"

static struct sockaddr_in v4(const char *ip)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static void test_parse(void)
{
	struct limits_config c;
	char err[256];
	limits_config_default(&c, 64);
	test_cond("default streams: half of max-conns", c.streams == 32);
	test_cond("default games per address",
	          c.rate[LIMITS_GAMES][LIMITS_ADDR].quota == 60 &&
	              c.rate[LIMITS_GAMES][LIMITS_ADDR].window_s == 600);
	test_cond("a list of items",
	          limits_parse_rate(&c, "games.addr=5/1m,moves.token=7/2h", err,
	                            sizeof err) == 0 &&
	              c.rate[LIMITS_GAMES][LIMITS_ADDR].quota == 5 &&
	              c.rate[LIMITS_GAMES][LIMITS_ADDR].window_s == 60 &&
	              c.rate[LIMITS_MOVES][LIMITS_TOKEN].quota == 7 &&
	              c.rate[LIMITS_MOVES][LIMITS_TOKEN].window_s == 7200);
	test_cond("plain seconds, and 0 turns one off",
	          limits_parse_rate(&c, "joins.addr=0/30", err, sizeof err) ==
	                  0 &&
	              c.rate[LIMITS_JOINS][LIMITS_ADDR].quota == 0);
	const char *bad[] = {"games.addr=5",     "games=5/1m",
	                     "dance.addr=1/1m",  "games.ip=1/1m",
	                     "games.addr=x/1m",  "games.addr=1/0",
	                     "games.addr=1/1m,", "",
	                     "games.addr=1/1y"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		test_cond("a malformed --rate-limit is refused",
		          limits_parse_rate(&c, bad[i], err, sizeof err) < 0);
	test_cond("off", limits_parse_rate(&c, "off", err, sizeof err) == 0 &&
	                     c.rate[LIMITS_PLAYERS][LIMITS_ADDR].quota == 0 &&
	                     c.rate[LIMITS_MOVES][LIMITS_TOKEN].quota == 0);
	test_cond("proxies", limits_parse_proxies(&c, "127.0.0.1, ::1", err,
	                                          sizeof err) == 0 &&
	                         c.n_proxies == 2);
	test_cond("a bad proxy is refused",
	          limits_parse_proxies(&c, "127.0.0.1,nope", err, sizeof err) <
	              0);
}

static void test_client(void)
{
	struct limits_config c;
	char err[256];
	limits_config_default(&c, 64);
	limits_parse_proxies(&c, "10.0.0.1,10.0.0.2", err, sizeof err);
	struct limits *l = limits_new(&c);
	struct limits_addr a;
	struct sockaddr_in peer = v4("192.0.2.5"), proxy = v4("10.0.0.1");
	limits_client(l, (struct sockaddr *)&peer, "203.0.113.1", "203.0.113.2",
	              &a);
	test_cond("a peer that is no proxy is the client",
	          strcmp(limits_addr_text(&a), "192.0.2.5") == 0);
	limits_client(l, (struct sockaddr *)&proxy,
	              "198.51.100.1, 203.0.113.1, 10.0.0.2", NULL, &a);
	test_cond("the rightmost untrusted X-Forwarded-For entry",
	          strcmp(limits_addr_text(&a), "203.0.113.1") == 0);
	limits_client(l, (struct sockaddr *)&proxy, NULL, " 203.0.113.2 ", &a);
	test_cond("X-Real-IP without X-Forwarded-For",
	          strcmp(limits_addr_text(&a), "203.0.113.2") == 0);
	limits_client(l, (struct sockaddr *)&proxy, "203.0.113.1, junk", NULL,
	              &a);
	test_cond("a list that does not parse leaves the proxy",
	          strcmp(limits_addr_text(&a), "10.0.0.1") == 0);
	limits_client(l, (struct sockaddr *)&proxy, "2001:db8:1:2:3:4:5:6",
	              NULL, &a);
	test_cond("an IPv6 client counts by its /64",
	          strcmp(limits_addr_text(&a), "2001:db8:1:2::/64") == 0);
	limits_client(l, NULL, "203.0.113.1", NULL, &a);
	test_cond("no peer address: local",
	          strcmp(limits_addr_text(&a), "local") == 0);
	limits_free(l);
}

static void test_buckets(void)
{
	struct limits_config c;
	char err[256];
	limits_config_default(&c, 64);
	limits_parse_rate(&c, "off", err, sizeof err);
	limits_parse_rate(&c, "games.addr=3/1h,games.token=2/1h", err,
	                  sizeof err);
	struct limits *l = limits_new(&c);
	struct limits_addr a, b;
	struct sockaddr_in pa = v4("192.0.2.1"), pb = v4("192.0.2.2");
	limits_client(l, (struct sockaddr *)&pa, NULL, NULL, &a);
	limits_client(l, (struct sockaddr *)&pb, NULL, NULL, &b);
	struct limits_verdict v;
	limits_take(l, LIMITS_GAMES, &a, NULL, &v);
	test_cond("first request", v.ok);
	test_cond("RateLimit-Policy",
	          strcmp(v.policy, "\"games-addr\";q=3;w=3600") == 0);
	test_cond("RateLimit",
	          strcmp(v.state, "\"games-addr\";r=2;t=1200") == 0);
	limits_take(l, LIMITS_GAMES, &a, "tok", &v);
	test_cond("both buckets described",
	          v.ok && strcmp(v.policy, "\"games-addr\";q=3;w=3600, "
	                                   "\"games-token\";q=2;w=3600") == 0);
	limits_token_known(l, LIMITS_GAMES, "tok"); /* it succeeded */
	limits_take(l, LIMITS_GAMES, &a, "tok", &v);
	test_cond("third from the address", v.ok);
	limits_take(l, LIMITS_GAMES, &a, NULL, &v);
	test_cond("fourth refused, one request per 1200 s",
	          !v.ok && v.retry_after_s > 1190 && v.retry_after_s <= 1200);
	limits_take(l, LIMITS_GAMES, &b, "tok", &v);
	test_cond("the token's bucket is empty too", !v.ok);
	limits_take(l, LIMITS_GAMES, &b, "other", &v);
	test_cond("a refusal took nothing from b's bucket",
	          v.ok && strstr(v.state, "\"games-addr\";r=2;") != NULL);
	limits_take(l, LIMITS_MOVES, &a, "tok", &v);
	test_cond("an action without a policy: no headers",
	          v.ok && !v.policy[0] && !v.state[0]);
	limits_free(l);
}

static void test_streams_and_bounds(void)
{
	struct limits_config c;
	char err[256];
	limits_config_default(&c, 6); /* streams 3 */
	limits_parse_rate(&c, "off", err, sizeof err);
	limits_parse_rate(&c, "players.addr=1/1h", err, sizeof err);
	c.streams_per_addr = 2;
	c.streams_per_token = 1;
	c.streams_anon = c.streams_per_net = 0; /* test_anonymous_share's */
	c.table_max = LIMITS_TABLE_MIN;
	struct limits *l = limits_new(&c);
	struct limits_addr a, b;
	struct sockaddr_in pa = v4("192.0.2.1"), pb = v4("192.0.2.2");
	limits_client(l, (struct sockaddr *)&pa, NULL, NULL, &a);
	limits_client(l, (struct sockaddr *)&pb, NULL, NULL, &b);
	struct limits_slot s1, s2, s3, s4, s5;
	unsigned retry = 0;
	test_cond("a stream", limits_stream_open(l, &a, "t", &s1, &retry) == 0);
	test_cond("per token",
	          limits_stream_open(l, &a, "t", &s2, &retry) == BD_ELIMIT &&
	              retry == LIMITS_STREAM_RETRY_S && !s2.held);
	test_cond("a second from the address",
	          limits_stream_open(l, &a, NULL, &s2, &retry) == 0);
	test_cond("per address",
	          limits_stream_open(l, &a, NULL, &s3, &retry) == BD_ELIMIT);
	test_cond("another address",
	          limits_stream_open(l, &b, NULL, &s3, &retry) == 0);
	test_cond("the global budget: 503",
	          limits_stream_open(l, &b, NULL, &s4, &retry) ==
	                  BD_EUNAVAILABLE &&
	              limits_streams_open(l) == 3);
	/* A flood of distinct addresses: the table stays bounded, and the
	 * entries holding streams survive it. */
	struct limits_verdict v;
	for (uint32_t i = 0; i < 100000; i++) {
		struct sockaddr_in p = {.sin_family = AF_INET,
		                        .sin_addr.s_addr =
		                            htonl(0x0b000000 + i)};
		struct limits_addr x;
		limits_client(l, (struct sockaddr *)&p, NULL, NULL, &x);
		limits_take(l, LIMITS_PLAYERS, &x, NULL, &v);
	}
	test_cond("bounded table", limits_entries(l) <= LIMITS_TABLE_MIN + 3);
	limits_stream_close(l, &s3);
	test_cond("a's streams were kept through the flood",
	          limits_stream_open(l, &a, NULL, &s5, &retry) == BD_ELIMIT);
	limits_stream_close(l, &s1);
	test_cond("closed slots come back",
	          limits_stream_open(l, &a, "t", &s5, &retry) == 0);
	limits_stream_close(l, &s1); /* a second close is a no-op */
	limits_stream_close(l, &s2);
	limits_stream_close(l, &s5);
	test_cond("all back", limits_streams_open(l) == 0);
	limits_free(l);
}

/* A full table whose only idle entry is the address being charged: the
 * token's new entry must not evict it (ASan would see the use after
 * free). */
static void test_no_self_eviction(void)
{
	struct limits_config c;
	char err[256];
	limits_config_default(&c, 1000);
	limits_parse_rate(&c, "off", err, sizeof err);
	limits_parse_rate(&c, "games.addr=5/1h,games.token=5/1h", err,
	                  sizeof err);
	c.streams_per_addr = 1;
	c.streams_per_token = 0;
	c.streams_anon = c.streams_per_net = 0;
	c.table_max = LIMITS_TABLE_MIN;
	struct limits *l = limits_new(&c);
	struct limits_slot slots[LIMITS_TABLE_MIN - 1];
	unsigned retry;
	int held = 0;
	for (uint32_t i = 0; i < LIMITS_TABLE_MIN - 1; i++) {
		struct sockaddr_in p = {.sin_family = AF_INET,
		                        .sin_addr.s_addr =
		                            htonl(0x0c000000 + i)};
		struct limits_addr x;
		limits_client(l, (struct sockaddr *)&p, NULL, NULL, &x);
		held += limits_stream_open(l, &x, NULL, &slots[i], &retry) == 0;
	}
	struct limits_addr a;
	struct sockaddr_in pa = v4("192.0.2.9");
	limits_client(l, (struct sockaddr *)&pa, NULL, NULL, &a);
	struct limits_verdict v;
	limits_take(l, LIMITS_GAMES, &a, NULL, &v);
	limits_take(l, LIMITS_GAMES, &a, "fresh-token", &v);
	test_cond("the charged address survives a full table",
	          held == LIMITS_TABLE_MIN - 1 && v.ok &&
	              strstr(v.state, "\"games-addr\";r=3;") != NULL);
	for (int i = 0; i < held; i++)
		limits_stream_close(l, &slots[i]);
	limits_free(l);
}

static struct limits_addr addr_of(struct limits *l, const char *ip)
{
	struct limits_addr a;
	struct sockaddr_in p4 = {.sin_family = AF_INET};
	struct sockaddr_in6 p6 = {.sin6_family = AF_INET6};
	if (inet_pton(AF_INET, ip, &p4.sin_addr) == 1)
		limits_client(l, (struct sockaddr *)&p4, NULL, NULL, &a);
	else if (inet_pton(AF_INET6, ip, &p6.sin6_addr) == 1)
		limits_client(l, (struct sockaddr *)&p6, NULL, NULL, &a);
	else
		memset(&a, 0, sizeof a);
	return a;
}

/* Opens one stream for ip (token NULL: anonymous); its result. */
static int open_one(struct limits *l, const char *ip, const char *token,
                    struct limits_slot *slot)
{
	struct limits_addr a = addr_of(l, ip);
	unsigned retry = 0;
	return limits_stream_open(l, &a, token, slot, &retry);
}

/* Issue 34, finding 2: anonymous clients share a bounded part of the
 * stream budget, and a network (IPv4 /24, IPv6 /48) a bounded part of
 * that; players keep the rest, each within its token's cap. */
static void test_anonymous_share(void)
{
	struct limits_config c;
	limits_config_default(&c, 24); /* streams 12 */
	test_cond("default anonymous share: half, a quarter of it per net",
	          c.streams_anon == 6 && c.streams_per_net == 1);
	c.streams_anon = 7;
	c.streams_per_net = 3;
	c.streams_per_addr = 2;
	c.streams_per_token = 2;
	struct limits *l = limits_new(&c);
	struct limits_slot s[16] = {{0}};
	int n = 0;
	test_cond("two anonymous streams from one address",
	          open_one(l, "192.0.2.1", NULL, &s[n++]) == 0 &&
	              open_one(l, "192.0.2.1", NULL, &s[n++]) == 0);
	test_cond("a third from its /24",
	          open_one(l, "192.0.2.2", NULL, &s[n++]) == 0);
	test_cond("the /24 is full: 429",
	          open_one(l, "192.0.2.3", NULL, &s[15]) == BD_ELIMIT);
	/* An IPv6 /58 is one /48: its /64s together hold at most 3. */
	test_cond("three /64s of one /48",
	          open_one(l, "2001:db8:1:1::1", NULL, &s[n++]) == 0 &&
	              open_one(l, "2001:db8:1:2::1", NULL, &s[n++]) == 0 &&
	              open_one(l, "2001:db8:1:3f::1", NULL, &s[n++]) == 0);
	test_cond("a fourth /64 of that /48: 429",
	          open_one(l, "2001:db8:1:4::1", NULL, &s[15]) == BD_ELIMIT);
	test_cond("another network",
	          open_one(l, "198.51.100.1", NULL, &s[n++]) == 0);
	test_cond(
	    "the anonymous share is spent: 503, anywhere",
	    limits_anon_streams_open(l) == 7 &&
	        open_one(l, "2001:db8:2::1", NULL, &s[15]) == BD_EUNAVAILABLE &&
	        open_one(l, "198.51.100.1", NULL, &s[15]) == BD_EUNAVAILABLE);
	test_cond("a player's stream opens, even from a flooding /24",
	          open_one(l, "192.0.2.3", "player", &s[n++]) == 0 &&
	              open_one(l, "198.51.100.1", "player", &s[n++]) == 0);
	test_cond("within its token's cap",
	          open_one(l, "198.51.100.2", "player", &s[15]) == BD_ELIMIT);
	test_cond("and its address's (counted with the anonymous ones)",
	          open_one(l, "192.0.2.1", "other", &s[15]) == BD_ELIMIT);
	const char *ips[] = {"203.0.113.1", "203.0.113.2", "203.0.113.3",
	                     "203.0.113.4"};
	for (int i = 0; i < 4; i++)
		(void)open_one(l, ips[i], i < 2 ? "p3" : "p4", &s[n++]);
	test_cond("players take the rest, to the global budget: 503",
	          limits_streams_open(l) == 12 &&
	              open_one(l, "203.0.113.10", "p5", &s[15]) ==
	                  BD_EUNAVAILABLE);
	limits_stream_close(l, &s[0]);
	test_cond("a closed anonymous slot comes back to the share",
	          limits_anon_streams_open(l) == 6 &&
	              open_one(l, "192.0.2.4", NULL, &s[0]) == 0);
	for (int i = 0; i < n; i++)
		limits_stream_close(l, &s[i]);
	test_cond("all back", limits_streams_open(l) == 0 &&
	                          limits_anon_streams_open(l) == 0);
	limits_free(l);
}

/* Issue 34, finding 3: after 60 creates and 10 refusals from one
 * address, a flood of made-up tokens (from one address, then from 2,000
 * others) evicted its bucket and gave it 60 creates again.  Now refused
 * requests store nothing, and an evicted bucket's debt is remembered in
 * the over-counting sketch: the address stays refused. */
static void test_quota_not_reset(void)
{
	struct limits_config c;
	char tok[32];
	limits_config_default(&c, 1000); /* games: 60 per 10 min per addr */
	c.table_max = LIMITS_TABLE_MIN;
	struct limits *l = limits_new(&c);
	struct limits_addr a = addr_of(l, "192.0.2.1");
	struct limits_addr b = addr_of(l, "198.51.100.1");
	struct limits_verdict v;
	int ok = 0;
	for (int i = 0; i < 70; i++) {
		limits_take(l, LIMITS_GAMES, &a, NULL, &v);
		ok += v.ok;
	}
	test_cond("60 creates, then refused", ok == 60 && !v.ok);
	for (int i = 0; i < 34000; i++) {
		snprintf(tok, sizeof tok, "made-up-%d", i);
		limits_take(l, LIMITS_GAMES, &b, tok, &v);
	}
	test_cond("a made-up token takes no room, refused or not",
	          limits_entries(l) == 2);
	limits_take(l, LIMITS_GAMES, &a, NULL, &v);
	test_cond("the first address stays refused after one flood", !v.ok);
	for (uint32_t i = 0; i < 2000; i++) {
		struct sockaddr_in p = {.sin_family = AF_INET,
		                        .sin_addr.s_addr =
		                            htonl(0x0d000000 + i)};
		struct limits_addr x;
		limits_client(l, (struct sockaddr *)&p, NULL, NULL, &x);
		snprintf(tok, sizeof tok, "made-up-again-%u", i);
		limits_take(l, LIMITS_GAMES, &x, tok, &v);
	}
	test_cond("2,000 addresses: the table stays bounded",
	          limits_entries(l) <= LIMITS_TABLE_MIN);
	limits_take(l, LIMITS_GAMES, &a, NULL, &v);
	test_cond("the first address was evicted and stays refused",
	          !v.ok && v.retry_after_s >= 1 && v.retry_after_s <= 10);
	ok = 0;
	for (int i = 0; i < 60; i++) {
		limits_take(l, LIMITS_GAMES, &a, NULL, &v);
		ok += v.ok;
	}
	test_cond("no second quota for it", ok == 0);
	struct limits_addr fresh = addr_of(l, "203.0.113.77");
	limits_take(l, LIMITS_GAMES, &fresh, NULL, &v);
	test_cond("a new address gets its whole quota: keys that spent less "
	          "than half a bucket are forgotten, not remembered",
	          v.ok && strstr(v.state, "\"games-addr\";r=59;") != NULL);
	limits_free(l);
}

/* Issue 34's goal: refused or unauthenticated requests never evict an
 * honest client's bucket.  An address and a player's token that spent a
 * sixth of their quota (less than half: forgotten if evicted) keep
 * their buckets through a flood of made-up tokens that pass the limiter
 * and of refused stream opens from other addresses, on a table of 64. */
static void test_honest_bucket_kept(void)
{
	struct limits_config c;
	char tok[32];
	limits_config_default(&c, 1000); /* games 60 and 30 per 10 min;
	                                    tickets 600 and 300 */
	c.table_max = LIMITS_TABLE_MIN;
	c.streams = 1;
	struct limits *l = limits_new(&c);
	struct limits_addr a = addr_of(l, "192.0.2.1");
	struct limits_addr b = addr_of(l, "198.51.100.1");
	struct limits_verdict v;
	limits_take(l, LIMITS_GAMES, &a, "honest", &v);
	test_cond("a token not seen yet is not stored, nor charged",
	          v.ok && v.token_unstored && limits_entries(l) == 1);
	limits_token_known(l, LIMITS_GAMES, "honest"); /* it succeeded */
	for (int i = 1; i < 10; i++)
		limits_take(l, LIMITS_GAMES, &a, "honest", &v);
	test_cond("the accepted token has its entry, 10 taken of each",
	          v.ok && !v.token_unstored && limits_entries(l) == 2 &&
	              strstr(v.state, "\"games-addr\";r=50;") &&
	              strstr(v.state, "\"games-token\";r=20;"));
	struct limits_slot held, s;
	unsigned retry;
	test_cond("a player holds the one stream slot",
	          open_one(l, "192.0.2.2", "player", &held) == 0);
	size_t before = limits_entries(l);
	int refused = 0;
	for (uint32_t i = 0; i < 200; i++) {
		struct sockaddr_in p = {.sin_family = AF_INET,
		                        .sin_addr.s_addr =
		                            htonl(0x0e000000 + i * 256)};
		struct limits_addr x;
		limits_client(l, (struct sockaddr *)&p, NULL, NULL, &x);
		refused += limits_stream_open(l, &x, i % 2 ? "t" : NULL, &s,
		                              &retry) == BD_EUNAVAILABLE;
	}
	test_cond("200 refused stream opens store nothing",
	          refused == 200 && limits_entries(l) == before);
	limits_take(l, LIMITS_GAMES, &a, "honest", &v);
	test_cond("the honest buckets are kept through them",
	          v.ok && strstr(v.state, "\"games-addr\";r=49;") &&
	              strstr(v.state, "\"games-token\";r=19;"));
	int ok = 0;
	for (int i = 0; i < 500; i++) {
		snprintf(tok, sizeof tok, "made-up-%d", i);
		limits_take(l, LIMITS_TICKETS, &b, tok, &v);
		ok += v.ok;
	}
	test_cond("500 made-up tokens pass, and are not stored",
	          ok == 500 && limits_entries(l) == before + 1);
	ok = 0;
	for (int i = 0; i < 61; i++) { /* tokens: 60 an hour per address */
		limits_take(l, LIMITS_TOKENS, &b, "made-up-again", &v);
		ok += v.ok;
	}
	test_cond("a made-up token is limited by its address",
	          ok == 60 && !v.ok && limits_entries(l) == before + 1);
	struct limits_addr n = addr_of(l, "203.0.113.5");
	limits_take(l, LIMITS_TICKETS, &n, "newcomer", &v);
	test_cond("and leaves a new token its whole bucket (less this one)",
	          v.ok && strstr(v.state, "\"tickets-token\";r=299;"));
	limits_take(l, LIMITS_GAMES, &a, "honest", &v);
	test_cond("the honest buckets are kept through them too",
	          v.ok && strstr(v.state, "\"games-addr\";r=48;") &&
	              strstr(v.state, "\"games-token\";r=18;"));
	limits_stream_close(l, &held);
	limits_free(l);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	test_parse();
	test_client();
	test_buckets();
	test_streams_and_bounds();
	test_no_self_eviction();
	test_anonymous_share();
	test_quota_not_reset();
	test_honest_bucket_kept();
	return test_report("limits");
}
