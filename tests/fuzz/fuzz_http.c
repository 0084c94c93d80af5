/* fuzz_http.c: libFuzzer target over the whole request path, in process:
 * libmicrohttpd's parser, server.c (headers, the body cap, JSON parsing),
 * the router, the service and the store, on a real SQLite file in a
 * temporary directory.
 *
 * LLVMFuzzerInitialize starts the real server (http_server_start, one
 * worker thread, event-stream keep-alives every second).  An input is one
 * or more requests separated by lines "%%", each
 *
 *   METHOD PATH [VERSION]     (" HTTP/1.1" is added when there is no
 *   Name: value                version; up to the first empty line)
 *
 *   body bytes                (to the separator or the end)
 *
 * The harness frames each request itself, so that libmicrohttpd (not
 * instrumented: no coverage to guide the fuzzer there) does not swallow
 * the input on framing: CR bytes in the head are dropped, the body goes
 * with its Content-Length, or chunked when a "Transfer-Encoding: chunked"
 * header is given; a Content-Length the input declares is kept only on a
 * POST and over the body cap (the server's early 413); "Host: fuzz" is
 * added when the input names no Host (HTTP/1.1 needs one, or it is 400).
 * Placeholders are replaced before a request is sent, so that inputs reach
 * moves, joins and resignations rather than 404s:
 *
 *   {id}            an Agent Avenue game of 2 seats with a fixed deal
 *                   (a fresh one for each input, unless the last input
 *                   left it unmoved)
 *   {tok0} {tok1}   its seat tokens
 *   {seq}           its seq now (before this request)
 *   {atok} {act}    the token of the seat to act and the first action it
 *                   lists, as JSON ({tok0} and {} once the game is over)
 *   {ptok}          a fresh player's token
 *   {open}          a fresh game with seat 0 held and seat 1 open
 *   {qid} {qtok0} {qtok1} {qseq} {qatok} {qact}
 *                   a fresh 2-seat Quantum game (a random deal), its
 *                   tokens, and as for {id}
 *
 * The requests of an input go one after another on one connection (a
 * socketpair handed to the server with http_server_add_connection); a new
 * connection is opened when the server closes one.  Each response is read
 * whole (an event stream: its head) with a deadline.
 *
 * Checks (abort on failure):
 * - every response is well-framed HTTP/1.x with a status of 100..599;
 * - no 5xx but 503, and a 503 is problem+json of type busy or
 *   out-of-memory (openapi.yaml);
 * - every 4xx/5xx body is application/problem+json: a JSON object whose
 *   status is the response's and whose type is a urn:boardd:problem URN;
 *   the one exception is what libmicrohttpd answers by itself before a
 *   request reaches boardd (no Content-Type, and a status of 400, 413,
 *   414, 431 or 505; see openapi.yaml), after which it closes;
 * - every application/json body parses;
 * - a request that is not a long-poll is answered within 5 s;
 * - after each input the game {id} still loads, and its move log holds
 *   exactly seq moves, numbered 1..seq.
 *
 * FUZZ_HTTP_TRACE=1 prints each request line and its answer on stderr
 * (e.g. build/fuzz/fuzz_http tests/fuzz/seeds/http/move to read a seed's).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http/http.h"
#include "http/hub.h"
#include "service/service.h"
#include "store/store.h"

#define REQS_MAX      16        /* requests per input */
#define REQ_BYTES_MAX (1 << 20) /* a request after expansion */
#define RESP_MAX      (4 << 20) /* a response */
#define ANSWER_MS     5000      /* longest wait for an answer */
#define POLL_MS       30        /* a long-poll's, before giving up */
#define CHUNK         13        /* chunk size of a chunked body */

/* The server and what every input starts from. */
static struct {
	char dir[64];        /* temp dir holding the database */
	char db[96];         /* its path */
	struct store *st;    /* owned for the process */
	struct service *svc; /* owned */
	struct hub *hub;     /* owned */
	struct http_server *srv;
	char id[40];      /* {id} */
	char tok[2][128]; /* {tok0} {tok1} */
} F;

/* The lazily made fixtures of one input. */
struct fixtures {
	char ptok[128];             /* {ptok}, or "" */
	char open[40];              /* {open}, or "" */
	char qid[40], qtok[2][128]; /* {qid} …, or "" */
};

struct buf {
	char *p;
	size_t len, cap;
};

static void die(const char *what)
{
	fprintf(stderr, "fuzz_http: %s\n", what);
	abort();
}

static void put(struct buf *b, const void *s, size_t n)
{
	if (n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			die("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* ---- fixtures, made in process through the service ---- */

/* The deal of {id}: every hand and the deck given, so nothing is
 * shuffled and an input replays the same game every time. */
static const char aa_create[] =
    "{\"game\":\"agent-avenue\",\"seats\":2,\"setup\":{\"first_player\":0,"
    "\"hands\":[[\"enforcer\",\"daredevil\",\"sentinel\",\"saboteur\"],"
    "[\"codebreaker\",\"double-agent\",\"enforcer\",\"sentinel\"]],"
    "\"deck\":[\"daredevil\",\"saboteur\",\"codebreaker\",\"double-agent\","
    "\"enforcer\",\"sentinel\",\"mole\",\"daredevil\",\"saboteur\","
    "\"sidekick\",\"codebreaker\",\"double-agent\"]}}";

/* Creates a game from JSON text `body`; copies its id and up to two seat
 * tokens.  Aborts on failure: a fixture must exist. */
static void make_game(const char *body, const char *token, char id[40],
                      char tok[2][128])
{
	json_t *req = json_loads(body, 0, NULL), *out = NULL, *seat;
	struct svc_err err = {0};
	size_t i;
	if (!req ||
	    service_create(F.svc, req, token, NULL, NULL, &out, &err) < 0)
		die(err.detail[0] ? err.detail : "fixture game refused");
	snprintf(id, 40, "%s", json_string_value(json_object_get(out, "id")));
	json_array_foreach(json_object_get(out, "seats"), i, seat) {
		const char *t =
		    json_string_value(json_object_get(seat, "token"));
		if (i < 2 && tok)
			snprintf(tok[i], 128, "%s", t ? t : "");
	}
	json_decref(req);
	json_decref(out);
}

static void make_player(char tok[128])
{
	json_t *req = json_pack("{s:s}", "name", "fuzz"), *out = NULL;
	struct svc_err err = {0};
	if (service_player_create(F.svc, req, NULL, &out, &err) < 0)
		die("fixture player refused");
	snprintf(tok, 128, "%s",
	         json_string_value(json_object_get(out, "token")));
	json_decref(req);
	json_decref(out);
}

/* Game id's seq, and (into act, atok) the first action listed by its
 * first seat to act and that seat's token ({} and tok[0] when none). */
static uint64_t game_now(const char *id, char tok[2][128], struct buf *act,
                         const char **atok)
{
	uint64_t seq = 0;
	*atok = tok[0];
	for (int seat = 0; seat < 2; seat++) {
		json_t *out = NULL;
		struct svc_err err = {0};
		if (service_actions(F.svc, id, tok[seat], &out, &err) < 0)
			die("a fixture's actions cannot be listed");
		seq = (uint64_t)json_integer_value(json_object_get(out, "seq"));
		json_t *first =
		    json_array_get(json_object_get(out, "actions"), 0);
		if (first && act) {
			char *text = json_dumps(first, JSON_COMPACT);
			if (text)
				puts_(act, text);
			free(text);
			*atok = tok[seat];
			act = NULL;
		}
		json_decref(out);
	}
	if (act)
		puts_(act, "{}");
	return seq;
}

/* ---- placeholders ---- */

/* Appends game id's seq (what 's'), its first listed action ('a') or
 * the token of the seat to act ('t'). */
static void now(const char *id, char tok[2][128], char what, struct buf *out)
{
	struct buf act = {0};
	const char *atok;
	char seq[32];
	snprintf(seq, sizeof seq, "%llu",
	         (unsigned long long)game_now(id, tok, &act, &atok));
	if (what == 's')
		puts_(out, seq);
	else if (what == 'a')
		put(out, act.p, act.len);
	else
		puts_(out, atok);
	free(act.p);
}

/* Appends in[0..n) to out with every placeholder replaced. */
static void expand(const char *in, size_t n, struct buf *out,
                   struct fixtures *fx)
{
	for (size_t i = 0; i < n;) {
		const char *close =
		    in[i] == '{' ? memchr(in + i, '}', n - i) : NULL;
		size_t k = close ? (size_t)(close - in - i) + 1 : 0;
		const char *name = in + i;
#define IS(s) (k == sizeof(s) - 1 && memcmp(name, s, k) == 0)
		if (IS("{id}")) {
			puts_(out, F.id);
		} else if (IS("{tok0}") || IS("{tok1}")) {
			puts_(out, F.tok[name[4] - '0']);
		} else if (IS("{seq}") || IS("{act}") || IS("{atok}")) {
			now(F.id, F.tok,
			    IS("{seq}")   ? 's'
			    : IS("{act}") ? 'a'
			                  : 't',
			    out);
		} else if (IS("{ptok}")) {
			if (!fx->ptok[0])
				make_player(fx->ptok);
			puts_(out, fx->ptok);
		} else if (IS("{open}")) {
			if (!fx->open[0])
				make_game(
				    "{\"game\":\"agent-avenue\",\"seating\":"
				    "[\"token\",\"open\"]}",
				    NULL, fx->open, NULL);
			puts_(out, fx->open);
		} else if (k >= 5 && k <= 7 && memcmp(name, "{q", 2) == 0 &&
		           (IS("{qid}") || IS("{qtok0}") || IS("{qtok1}") ||
		            IS("{qseq}") || IS("{qact}") || IS("{qatok}"))) {
			if (!fx->qid[0])
				make_game("{\"game\":\"quantum\",\"seats\":2}",
				          NULL, fx->qid, fx->qtok);
			if (IS("{qid}"))
				puts_(out, fx->qid);
			else if (IS("{qtok0}") || IS("{qtok1}"))
				puts_(out, fx->qtok[name[5] - '0']);
			else
				now(fx->qid, fx->qtok,
				    IS("{qseq}")   ? 's'
				    : IS("{qact}") ? 'a'
				                   : 't',
				    out);
		} else {
			put(out, in + i, 1);
			k = 1;
		}
#undef IS
		i += k;
	}
}

/* ---- one request on the wire ---- */

/* 1 if header line h (without CRLF) is named `name`. */
static int header_is(const char *h, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n > k && h[k] == ':' && strncasecmp(h, name, k) == 0;
}

/* Frames one request of the input (expanded) into wire bytes. */
static void frame(const char *req, size_t n, struct fixtures *fx,
                  struct buf *wire, int *long_poll)
{
	struct buf x = {0}, head = {0};
	expand(req, n, &x, fx);
	put(&x, "", 1); /* never empty (x.p set); not sent */
	const char *p = x.p, *end = x.p + x.len - 1;
	int chunked = 0, lines = 0, host = 0;
	char cl[32];
	*long_poll = 0;
	cl[0] = '\0';
	/* The head: the request line and headers, CRs dropped. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		head.len = 0;
		for (const char *c = p; c < e; c++)
			if (*c != '\r')
				put(&head, c, 1);
		p = nl ? nl + 1 : end;
		if (head.len == 0)
			break; /* the empty line: the body follows */
		put(&head, "", 1);
		const char *h = head.p;
		size_t hn = head.len - 1;
		if (lines++ == 0) {
			puts_(wire, h);
			int spaces = 0;
			for (const char *c = h; *c; c++)
				spaces += *c == ' ';
			if (spaces < 2)
				puts_(wire, " HTTP/1.1");
			*long_poll = strstr(h, "wait=") != NULL;
		} else if (header_is(h, hn, "Content-Length")) {
			/* kept only past the cap of a POST: the early 413
			 * (other methods' bodies are read and dropped) */
			if (wire->len > 5 && memcmp(wire->p, "POST ", 5) == 0 &&
			    strtoull(h + 15, NULL, 10) > HTTP_BODY_MAX)
				snprintf(cl, sizeof cl, "%.20s", h + 15);
			continue;
		} else if (header_is(h, hn, "Transfer-Encoding")) {
			chunked = strcasestr(h, "chunked") != NULL;
			continue;
		} else {
			host |= header_is(h, hn, "Host");
			puts_(wire, h);
		}
		puts_(wire, "\r\n");
	}
	if (lines && !host)
		puts_(wire, "Host: fuzz\r\n");
	size_t blen = (size_t)(end - p);
	char line[64];
	if (lines == 0) {
		wire->len = 0; /* nothing to send */
	} else if (chunked) {
		puts_(wire, "Transfer-Encoding: chunked\r\n\r\n");
		for (size_t off = 0; off < blen; off += CHUNK) {
			size_t c = blen - off < CHUNK ? blen - off : CHUNK;
			snprintf(line, sizeof line, "%zx\r\n", c);
			puts_(wire, line);
			put(wire, p + off, c);
			puts_(wire, "\r\n");
		}
		puts_(wire, "0\r\n\r\n");
	} else {
		if (cl[0])
			snprintf(line, sizeof line, "Content-Length:%s\r\n",
			         cl);
		else
			snprintf(line, sizeof line, "Content-Length: %zu\r\n",
			         blen);
		if (cl[0] || blen)
			puts_(wire, line);
		puts_(wire, "\r\n");
		put(wire, p, blen);
	}
	free(x.p);
	free(head.p);
}

/* ---- the connection ---- */

struct conn {
	int fd;        /* -1: none open */
	struct buf in; /* bytes read and not yet parsed */
};

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->in.len = 0;
}

static void conn_open(struct conn *c)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		die("socketpair");
	if (http_server_add_connection(F.srv, sv[1]) < 0)
		die("the server refused a connection");
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	c->fd = sv[0];
	c->in.len = 0;
}

/* Writes w, giving up when the server stops reading (it may have
 * answered early, e.g. a 413, and closed). */
static void conn_write(struct conn *c, const struct buf *w, int64_t deadline)
{
	size_t off = 0;
	while (off < w->len) {
		ssize_t n = send(c->fd, w->p + off, w->len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return; /* closed by the server */
		struct pollfd pf = {c->fd, POLLOUT | POLLIN, 0};
		int left = (int)(deadline - now_ms());
		if (left <= 0 || poll(&pf, 1, left) <= 0 ||
		    (pf.revents & POLLIN))
			return; /* an answer came first, or nobody reads */
	}
}

/* Reads more bytes; 1, 0 at EOF, -1 at the deadline. */
static int conn_fill(struct conn *c, int64_t deadline)
{
	for (;;) {
		char tmp[16384];
		ssize_t n = recv(c->fd, tmp, sizeof tmp, 0);
		if (n > 0) {
			if (c->in.len + (size_t)n > RESP_MAX)
				die("a response over 4 MiB");
			put(&c->in, tmp, (size_t)n);
			return 1;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return 0;
		struct pollfd pf = {c->fd, POLLIN, 0};
		int left = (int)(deadline - now_ms());
		if (left <= 0 || poll(&pf, 1, left) == 0)
			return -1;
	}
}

static void consume(struct conn *c, size_t n)
{
	memmove(c->in.p, c->in.p + n, c->in.len - n);
	c->in.len -= n;
}

/* Where "\r\n\r\n" ends in c's buffer, or 0. */
static size_t head_end(const struct conn *c)
{
	for (size_t i = 3; i < c->in.len; i++)
		if (memcmp(c->in.p + i - 3, "\r\n\r\n", 4) == 0)
			return i + 1;
	return 0;
}

/* The value of header `name` in head (NUL-ended copy in v), or NULL. */
static const char *hval(const char *head, const char *name, char *v,
                        size_t vlen)
{
	size_t k = strlen(name);
	for (const char *l = strstr(head, "\r\n"); l; l = strstr(l, "\r\n")) {
		l += 2;
		if (strncasecmp(l, name, k) == 0 && l[k] == ':') {
			const char *s = l + k + 1;
			s += strspn(s, " \t");
			size_t n = strcspn(s, "\r");
			snprintf(v, vlen, "%.*s",
			         (int)(n < vlen ? n : vlen - 1), s);
			return v;
		}
	}
	return NULL;
}

struct response {
	unsigned status;
	int has_type, problem, json, stream, close;
	int no_body; /* 1: none was read (HEAD, 204, 304, a stream) */
	struct buf body;
};

/* Decodes a chunked body from c's buffer at off; 1 when complete. */
static int dechunk(struct conn *c, size_t off, struct buf *body, size_t *used)
{
	body->len = 0;
	for (;;) {
		const char *p = c->in.p + off;
		size_t left = c->in.len - off;
		const char *crlf = memmem(p, left, "\r\n", 2);
		if (!crlf)
			return 0;
		char *e;
		unsigned long long n = strtoull(p, &e, 16);
		if (e == p || n > RESP_MAX)
			die("a malformed chunk size");
		size_t hl = (size_t)(crlf - p) + 2;
		if (n == 0) {
			if (left < hl + 2)
				return 0;
			if (memcmp(p + hl, "\r\n", 2) != 0)
				die("trailers or junk after the last chunk");
			*used = off + hl + 2;
			return 1;
		}
		if (left < hl + n + 2)
			return 0;
		if (memcmp(p + hl + n, "\r\n", 2) != 0)
			die("a chunk not ended by CRLF");
		put(body, p + hl, (size_t)n);
		off += hl + (size_t)n + 2;
	}
}

/* Reads one response.  1, 0 when the server closed before a whole one
 * came, -1 at the deadline. */
static int read_response(struct conn *c, int head_only, int64_t deadline,
                         struct response *r)
{
	size_t he;
	char v[128];
	int rc;
	r->body.len = 0;
	for (;;) {
		while ((he = head_end(c)) == 0)
			if ((rc = conn_fill(c, deadline)) <= 0)
				return c->in.len ? (rc < 0 ? -1 : 0)
				                 : rc; /* nothing or partial */
		char *head = malloc(he + 1);
		if (!head)
			die("out of memory");
		memcpy(head, c->in.p, he);
		head[he] = '\0';
		unsigned st = 0;
		if ((strncmp(head, "HTTP/1.1 ", 9) != 0 &&
		     strncmp(head, "HTTP/1.0 ", 9) != 0) ||
		    sscanf(head + 9, "%3u", &st) != 1 || st < 100 || st > 599 ||
		    head[12] != ' ')
			die("a malformed status line");
		r->status = st;
		r->has_type = hval(head, "Content-Type", v, sizeof v) != NULL;
		r->problem =
		    r->has_type && strcmp(v, "application/problem+json") == 0;
		r->json = r->has_type && strcmp(v, "application/json") == 0;
		r->stream =
		    r->has_type && (strcmp(v, "text/event-stream") == 0 ||
		                    strcmp(v, "application/x-ndjson") == 0);
		r->close = hval(head, "Connection", v, sizeof v) &&
		           strcasecmp(v, "close") == 0;
		int chunked = hval(head, "Transfer-Encoding", v, sizeof v) &&
		              strcasecmp(v, "chunked") == 0;
		long long len = hval(head, "Content-Length", v, sizeof v)
		                    ? strtoll(v, NULL, 10)
		                    : -1;
		free(head);
		consume(c, he);
		if (st < 200)
			continue; /* 100 Continue: the answer follows */
		r->no_body = head_only || st == 204 || st == 304 || r->stream;
		if (r->no_body)
			return 1; /* no body, or one that never ends */
		if (chunked) {
			size_t used;
			while (!dechunk(c, 0, &r->body, &used))
				if ((rc = conn_fill(c, deadline)) <= 0)
					return rc;
			consume(c, used);
			return 1;
		}
		if (len < 0) {
			if (!r->close)
				return 1; /* no body */
			while ((rc = conn_fill(c, deadline)) > 0)
				;
			if (rc < 0)
				return -1;
			len = (long long)c->in.len;
		}
		while (c->in.len < (size_t)len)
			if ((rc = conn_fill(c, deadline)) <= 0)
				return rc;
		put(&r->body, c->in.p, (size_t)len);
		consume(c, (size_t)len);
		return 1;
	}
}

/* ---- the checks ---- */

/* What libmicrohttpd answers by itself to a request it cannot parse,
 * before boardd sees it: no Content-Type, one of these statuses, and the
 * connection closed (openapi.yaml says so). */
static int library_refusal(const struct response *r)
{
	return !r->has_type && r->close &&
	       (r->status == 400 || r->status == 413 || r->status == 414 ||
	        r->status == 431 || r->status == 505);
}

static void check_response(const struct response *r)
{
	json_t *j = NULL;
	if (r->status >= 400 && !r->problem && !library_refusal(r))
		die("an error answered without problem+json");
	if (r->no_body)
		return;
	if ((r->problem || r->json) &&
	    !(j = json_loadb(r->body.p, r->body.len, 0, NULL)))
		die("a JSON response that does not parse");
	if (r->problem) {
		const char *type =
		    json_string_value(json_object_get(j, "type"));
		if (json_integer_value(json_object_get(j, "status")) !=
		        (json_int_t)r->status ||
		    !type || strncmp(type, "urn:boardd:problem:", 19) != 0)
			die("a problem without its status or type");
		if (r->status >= 500 &&
		    (r->status != 503 ||
		     (strcmp(type, "urn:boardd:problem:busy") != 0 &&
		      strcmp(type, "urn:boardd:problem:out-of-memory") != 0)))
			die("a 5xx answer other than a documented 503");
	}
	json_decref(j);
}

/* {id} still loads, and its log holds moves 1..seq. */
static void check_game(void)
{
	json_t *out = NULL, *m;
	uint64_t seq = 0;
	struct svc_err err = {0};
	size_t i;
	if (service_game(F.svc, F.id, NULL, &out, &seq, &err) < 0)
		die("the game no longer loads");
	json_decref(out);
	out = NULL;
	if (service_moves(F.svc, F.id, NULL, NULL, NULL, &out, &err) < 0)
		die("the game's moves cannot be read");
	json_t *moves = json_object_get(out, "moves");
	if (json_array_size(moves) != seq)
		die("the log does not hold seq moves");
	json_array_foreach(moves, i, m)
		if (json_integer_value(json_object_get(m, "seq")) !=
		    (json_int_t)i + 1)
			die("the log is not numbered 1..seq");
	json_decref(out);
}

/* ---- libFuzzer ---- */

static void cleanup(void)
{
	static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
	char path[128];
	for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
		snprintf(path, sizeof path, "%s%s", F.db, ext[i]);
		unlink(path);
	}
	rmdir(F.dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	char err[256];
	signal(SIGPIPE, SIG_IGN);
	/* Long-polls the harness gave up on stay open (suspended) until
	 * their wait ends: room for a few hundred. */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (sodium_init() < 0)
		die("libsodium");
	json_object_seed(0);
	snprintf(F.dir, sizeof F.dir, "/tmp/fuzz-http-XXXXXX");
	if (!mkdtemp(F.dir))
		die("mkdtemp");
	snprintf(F.db, sizeof F.db, "%s/fuzz.db", F.dir);
	atexit(cleanup);
	struct store_config sc = {F.db, 0, 3, 5000};
	if (store_open(&sc, &F.st, err, sizeof err) < 0)
		die(err);
	F.svc = service_new(F.st, 64);
	F.hub = hub_new();
	if (!F.svc || !F.hub)
		die("out of memory");
	service_on_move(F.svc, hub_on_move, F.hub);
	struct http_config hc = {.addr = "127.0.0.1",
	                         .port = 0,
	                         .threads = 1,
	                         .timeout_s = 10,
	                         .max_conns = 2000,
	                         .access_log = 0,
	                         .hub = F.hub,
	                         .keepalive_s = 1,
	                         .no_library_log = 1};
	F.srv = http_server_start(&hc, F.svc, err, sizeof err);
	if (!F.srv)
		die(err);
	make_game(aa_create, NULL, F.id, F.tok);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fixtures fx = {0};
	struct conn c = {-1, {0}};
	struct buf wire = {0};
	struct response r = {0};
	const char *p = (const char *)data, *end = p + size;
	static int trace = -1;
	if (trace < 0)
		trace = getenv("FUZZ_HTTP_TRACE") != NULL;
	for (int n = 0; p < end && n < REQS_MAX; n++) {
		const char *sep = memmem(p, (size_t)(end - p), "\n%%\n", 4);
		const char *e = sep ? sep : end;
		int long_poll;
		wire.len = 0;
		frame(p, (size_t)(e - p), &fx, &wire, &long_poll);
		p = sep ? sep + 4 : end;
		if (wire.len == 0 || wire.len > REQ_BYTES_MAX)
			continue; /* no request line, or too big to bother */
		int head = wire.len > 5 && memcmp(wire.p, "HEAD ", 5) == 0;
		if (c.fd < 0)
			conn_open(&c);
		int64_t deadline = now_ms() + (long_poll ? POLL_MS : ANSWER_MS);
		conn_write(&c, &wire, deadline);
		int rc = read_response(&c, head, deadline, &r);
		if (rc < 0 && !long_poll)
			die("no answer within 5 s");
		if (trace)
			fprintf(stderr, "%.*s -> %d %u%s%s %.*s\n",
			        (int)strcspn(wire.p, "\r"), wire.p, rc,
			        r.status, r.has_type ? "" : " (no type)",
			        r.close ? " (close)" : "",
			        (int)(r.body.len < 300 ? r.body.len : 300),
			        r.body.p ? r.body.p : "");
		if (rc > 0)
			check_response(&r);
		if (rc <= 0 || r.close || r.stream)
			conn_close(&c);
	}
	conn_close(&c);
	free(c.in.p);
	free(wire.p);
	free(r.body.p);
	check_game();
	/* A game that moved is replaced: the next input starts afresh. */
	const char *atok;
	if (game_now(F.id, F.tok, NULL, &atok) != 0)
		make_game(aa_create, NULL, F.id, F.tok);
	return 0;
}
