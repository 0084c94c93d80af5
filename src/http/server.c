/* server.c: libmicrohttpd glue.  One request context per request holds a
 * capped body buffer; when the request is complete the body is parsed,
 * the router fills an http_reply, and the reply becomes an MHD response.
 * See shared notes §2 for the 0.9.75 facts this relies on. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "conns.h"
#include "encoding.h"
#include "http.h"
#include "hub.h"
#include "live.h"
#include "request.h"
#include "static_files.h"
#include "writes.h"
#include "metrics.h"
#include "monoclock.h"

struct http_server {
	struct MHD_Daemon *daemon;
	struct service *svc;   /* borrowed */
	struct hub *hub;       /* borrowed: live updates' waiters */
	struct conns *conns;   /* owned: how long a request may take */
	struct limits *limits; /* owned: rate limits, stream budgets */
	struct writes *writes; /* owned: the write workers, or NULL */
	unsigned keepalive_ms; /* event streams' keep-alive period */
	_Atomic int draining;  /* 1 after http_server_drain */
	_Atomic long in_flight; /* requests begun (headers read) and not
	                           completed: a stop waits for them */
	_Atomic int access_log; /* http_server_set_access_log */
	unsigned port;
};

/* Per-request state, from the first callback to the completion one. */
struct req_ctx {
	struct http_server *server; /* borrowed */
	char *buf;          /* body bytes so far (malloc'd), not NUL-ended */
	size_t len;         /* bytes in buf */
	size_t body_max;    /* this request's body cap (http_body_max) */
	int too_large;      /* body passed body_max: discard the rest */
	unsigned status;    /* the status sent, for the access log */
	struct timespec t0; /* when the headers arrived */
	const char *method; /* borrowed from MHD until completion */
	const char *url;    /* borrowed from MHD until completion */
	struct hub_waiter waiter; /* a long-poll's, joined until completion */
	int waiting; /* 1: suspended in a long-poll, to run again */
	struct conn_entry *entry;  /* the connection's, in s->conns, or NULL */
	struct limits_addr client; /* who asks (limits.h) */
	struct limits_slot slot;   /* a long-poll's stream slot */
	/* A write handed to the write workers (writes.h).  The handler
	 * sets these, suspends the connection and submits the job; from
	 * then on they are the worker's, until it resumes the connection
	 * with `written` set and the reply in `wrep`. */
	struct write_job job;
	struct http_server *srv;     /* the server, for the worker */
	struct MHD_Connection *conn; /* to resume */
	struct http_fields *fields;  /* owned: the headers and query */
	struct http_reply wrep;      /* the write's reply */
	int written;                 /* 1: wrep is made, send it */
	int route;           /* the reply's route (metrics.h), 0: none */
	long long bytes;     /* the body's bytes as queued; -1: a stream's */
	char request_id[LOG_REQUEST_ID_LEN]; /* log_request_id's: a trusted
	                     proxy's X-Request-Id, or a random one; sent back
	                     on the answer and logged */
	/* The request target as received (target_seen), before the
	 * library cut and decoded it in place: its bytes up to the first
	 * NUL, and whether they hold a control character.  target NULL:
	 * not seen (no target, or out of memory). */
	const char *target;
	size_t target_len;
	int target_control;
	int began; /* 1: begin ran (the headers were handled) */
};

/* ---- body ---- */

static int append_body(struct req_ctx *ctx, const char *data, size_t n)
{
	if (ctx->too_large || ctx->len + n > ctx->body_max) {
		ctx->too_large = 1;
		return 0;
	}
	char *nb = realloc(ctx->buf, ctx->len + n);
	if (!nb)
		return -1;
	memcpy(nb + ctx->len, data, n);
	ctx->buf = nb;
	ctx->len += n;
	return 0;
}

static int depth_ok(const json_t *v, int depth)
{
	if (depth > HTTP_JSON_DEPTH_MAX)
		return 0;
	const char *k;
	json_t *child;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, child)
			if (!depth_ok(child, depth + 1))
				return 0;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, child)
			if (!depth_ok(child, depth + 1))
				return 0;
	}
	return 1;
}

/* application/json, application/<x>+json, or curl's default form type
 * (its -d flag sends JSON under that label); anything else is 415. */
static int media_type_ok(const char *ct)
{
	if (!ct)
		return 1;
	size_t n = strcspn(ct, ";");
	while (n > 0 && (ct[n - 1] == ' ' || ct[n - 1] == '\t'))
		n--;
	if (n == 16 && strncasecmp(ct, "application/json", 16) == 0)
		return 1;
	if (n == 33 &&
	    strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0)
		return 1;
	return n > 17 && strncasecmp(ct, "application/", 12) == 0 &&
	       strncasecmp(ct + n - 5, "+json", 5) == 0;
}

/* Parses ctx's body into req->body (a new reference the caller drops), or
 * sets req->body_rc and req->body_detail (into detail). */
static json_t *parse_body(struct req_ctx *ctx, struct http_req *req,
                          char *detail, size_t dlen)
{
	json_error_t e;
	if (ctx->too_large) {
		req->body_rc = BD_ETOOLARGE;
		snprintf(detail, dlen, "the body is over %zu bytes",
		         ctx->body_max);
	} else if (!media_type_ok(http_header(req, "Content-Type"))) {
		req->body_rc = BD_EMEDIATYPE;
		snprintf(detail, dlen, "send the body as application/json");
	} else if (ctx->len == 0) {
		req->body_empty = 1;
		req->body_rc = BD_EMALFORMED;
		snprintf(detail, dlen, "this request needs a JSON body");
	} else {
		json_t *v =
		    json_loadb(ctx->buf, ctx->len, JSON_REJECT_DUPLICATES, &e);
		if (v && depth_ok(v, 0))
			return v;
		req->body_rc = BD_EMALFORMED;
		if (v)
			snprintf(detail, dlen, "JSON nested deeper than %d",
			         HTTP_JSON_DEPTH_MAX);
		else
			snprintf(detail, dlen, "line %d, column %d: %s", e.line,
			         e.column, e.text);
		json_decref(v);
	}
	req->body_detail = detail;
	return NULL;
}

/* ---- headers ---- */

/* 1 for an ASCII letter or digit. */
static int is_alnum_ascii(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') ||
	       ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/* 1 for a character of token68 before its '=' padding (RFC 9110 §11.2):
 * ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/". */
static int is_token68_char(unsigned char ch)
{
	return is_alnum_ascii(ch) || ch == '-' || ch == '.' || ch == '_' ||
	       ch == '~' || ch == '+' || ch == '/';
}

/* 1 for a tchar (RFC 9110 §5.6.2). */
static int is_tchar(unsigned char ch)
{
	return is_alnum_ascii(ch) ||
	       (ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL);
}

/* The bearer token, NULL when no Authorization header; sets *bad when
 * the header is there but is not "Bearer <token68>". */
static const char *bearer_token(const struct http_req *req, int *bad)
{
	const char *h = http_header(req, "Authorization");
	*bad = 0;
	if (!h)
		return NULL;
	if (strncasecmp(h, "Bearer ", 7) != 0)
		goto out_bad;
	h += 7;
	while (*h == ' ')
		h++;
	size_t n = 0;
	while (is_token68_char((unsigned char)h[n]))
		n++;
	while (h[n] == '=')
		n++;
	if (n == 0 || n > 256 || h[n] != '\0')
		goto out_bad;
	return h;
out_bad:
	*bad = 1;
	return NULL;
}

/* ---- request framing (RFC 9112) ---- */

/* What check_framing needs from a request's fields, gathered in one pass
 * (an MHD_KeyValueIterator's state). */
struct framing_fields {
	unsigned cl, te, host; /* Content-Length, Transfer-Encoding, Host */
	const char *te_first;  /* the first Transfer-Encoding's value */
	int bad_name;          /* 1: a field name is not a token */
	int bad_value;         /* 1: a field value holds a control character */
	/* The line-ending walk (line_ends): the header block as the library
	 * parsed it in place, [start, end), and where the walk is: the end
	 * of the previous line's content, or NULL once the walk failed. */
	const char *start, *end, *at;
	int bad_ending; /* 1: a bare LF (a line end not two NULs) */
	int folded;     /* 1: a field outside the block (obs-fold) */
};

/* 1 if s is a token (RFC 9110 §5.6.2: one or more tchar). */
static int is_token(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_tchar((unsigned char)*s))
			return 0;
	return 1;
}

/* 1 if s holds a character a field value may not (RFC 9110 §5.5:
 * field-vchar, SP and HTAB only): a C0 control but HTAB, or DEL.  A bare
 * CR stays in the value libmicrohttpd hands over (RFC 9112 §2.2: reject
 * it); a CRLF or LF would have ended the line. */
static int bad_field_value(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return 1;
	return 0;
}

/* 1 if [p, p + n) lies in the block and holds n NULs: the bytes of a
 * CRLF (n 2) or of two (n 4, the header's end) as the library leaves
 * them.  A bare LF leaves one NUL. */
static int nuls(const struct framing_fields *f, const char *p, size_t n)
{
	if (p < f->start || p > f->end || (size_t)(f->end - p) < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] != '\0')
			return 0;
	return 1;
}

/* One field line of the walk (line_ends): key and value must lie in the
 * block after the previous line, which must end in exactly one CRLF. */
static void line_field(struct framing_fields *f, const char *key,
                       const char *value)
{
	if (!f->at)
		return;
	if (key < f->at || key >= f->end || value < key || value >= f->end) {
		f->folded = 1; /* rebuilt outside the block */
		f->at = NULL;
		return;
	}
	if (key != f->at + 2 || !nuls(f, f->at, 2)) {
		f->bad_ending = 1;
		f->at = NULL;
		return;
	}
	f->at = value + strlen(value);
}

static enum MHD_Result framing_field(void *cls, enum MHD_ValueKind kind,
                                     const char *key, const char *value)
{
	struct framing_fields *f = cls;
	(void)kind;
	if (!is_token(key)) {
		f->bad_name = 1;
		return MHD_NO; /* stop iterating */
	}
	if (value && bad_field_value(value)) {
		f->bad_value = 1;
		return MHD_NO;
	}
	if (value)
		line_field(f, key, value);
	if (strcasecmp(key, "Content-Length") == 0)
		f->cl++;
	else if (strcasecmp(key, "Transfer-Encoding") == 0 && f->te++ == 0)
		f->te_first = value;
	else if (strcasecmp(key, "Host") == 0)
		f->host++;
	return MHD_YES;
}

/* 1 if s holds a control character (C0 or DEL). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static enum MHD_Result query_control(void *cls, enum MHD_ValueKind kind,
                                     const char *key, const char *value)
{
	int *bad = cls;
	(void)kind;
	if (has_control(key) || (value && has_control(value))) {
		*bad = 1;
		return MHD_NO; /* stop iterating */
	}
	return MHD_YES;
}

/* The library's percent-decoding of the path and of query names and
 * values (MHD_OPTION_UNESCAPE_CALLBACK).  Its own would end the string at
 * a decoded %00, so `/v1/games/<id>%00/moves` read as the game and
 * `status=waiting%00x` as `waiting`; here a decoded NUL becomes DEL, a
 * control character that check_framing refuses like every other. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls, (void)c;
	size_t n = MHD_http_unescape(s);
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0')
			s[i] = 0x7f;
	return n;
}

/* The URI log callback (MHD_OPTION_URI_LOG_CALLBACK): libmicrohttpd
 * 0.9.75 calls it with the request target as received, before it cuts
 * the query off and percent-decodes both in place, and makes what it
 * returns the request's context (*con_cls).  So the context is made
 * here, with what check_request_line needs of the target: a NUL in it
 * shows as a length short of the space before the version.  NULL (no
 * target, out of memory): begin makes the context. */
static void *target_seen(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls, (void)c;
	if (!uri)
		return NULL;
	struct req_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	ctx->target = uri;
	ctx->target_len = strlen(uri);
	ctx->target_control = has_control(uri);
	return ctx;
}

/* RFC 9112 §3: request-line = method SP request-target SP HTTP-version,
 * no control character in it.  libmicrohttpd 0.9.75 splits the line in
 * place at its spaces and hands over C strings, so a NUL in it cut the
 * method or the target short: `GET /v1/games\0x` was served as
 * /v1/games, `GET\0 /healthz` as GET.  The check compares what it
 * handed over with the line's bytes: the method is a token that its
 * space (now a NUL) follows at once, then the target (more spaces
 * between are the library's leniency), which, as target_seen saw it
 * before decoding, holds no control character and reaches the space
 * before the version.  1 when the line is bad.  A version the library
 * did not find in the line ("", HTTP/0.9) it refuses itself. */
static int bad_request_line(const char *method, const char *url,
                            const char *version, const struct req_ctx *ctx)
{
	if (!is_token(method))
		return 1;
	const char *p = method + strlen(method) + 1;
	while (p < url && *p == ' ')
		p++;
	if (p != url || !ctx->target)
		return p != url;
	if (ctx->target != url || ctx->target_control)
		return 1;
	return version > url && url + ctx->target_len + 1 != version;
}

/* Starts the walk over the header's line ends (RFC 9112 §2.2: a bare LF
 * is no line end a server has to accept; §5.2: obs-fold may be refused),
 * both of which libmicrohttpd 0.9.75 accepts and hides (it has no option
 * to refuse them: MHD_OPTION_STRICT_FOR_CLIENT only asks for Host and
 * refuses spaces in the URL).  The library parses the request's header in
 * place, in its read buffer: from `method` on,
 * MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE bytes (as received), the
 * request line then each field line, every CRLF left as two NULs and a
 * bare LF as one, and the field names and values it hands over point into
 * that block in order, but for a folded line's field, which it rebuilds
 * elsewhere.  So the walk checks that exactly two NULs follow the version
 * and each value, four the last one (the empty line's CRLF), and that
 * every field lies in the block.  This reads the library's buffer past
 * the strings it hands over: test_framing.py pins the behaviour (checked
 * on 0.9.75, Debian 12's); a library that copied its fields would have
 * every request refused, loudly. */
static void line_ends_begin(struct framing_fields *f, struct MHD_Connection *c,
                            const char *method, const char *version)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
	f->at = NULL;
	if (!ci || !method || !version || version < method)
		return; /* cannot tell: leave it to the library */
	f->start = method;
	f->end = method + ci->header_size;
	if (version >= f->end)
		return;
	f->at = version + strlen(version);
}

/* What RFC 9112 says a server must refuse, and libmicrohttpd 0.9.75
 * accepts: more than one Content-Length (§6.3: the first one won and the
 * rest of the body was read as a second request), Transfer-Encoding with
 * Content-Length (§6.1, request smuggling), a transfer coding other than
 * chunked (§6.1: 501; the library waited for a body it could not frame),
 * HTTP/1.1 without Host or more than one Host (§3.2), and a path or query
 * holding a control character once decoded (%00 cut it short); and a
 * field name that is not a token, such as "Transfer-Encoding " before its
 * colon (§5.1), which the library keeps as another name.  0, or
 * the code with a sentence in detail. */
static int check_framing(struct MHD_Connection *c, const char *method,
                         const char *version, const char *url,
                         const struct req_ctx *ctx, char *detail, size_t dlen)
{
	struct framing_fields f = {0};
	int bad_query = 0;
	if (bad_request_line(method, url, version, ctx)) {
		snprintf(detail, dlen,
		         "the request line holds a control character (a NUL, "
		         "a CR, another C0 or DEL) or is not 'method SP "
		         "target SP version'");
		return BD_EBADREQUEST;
	}
	line_ends_begin(&f, c, method, version);
	MHD_get_connection_values(c, MHD_HEADER_KIND, framing_field, &f);
	if (f.bad_name) {
		/* "Transfer-Encoding : chunked" was ignored here and may be
		 * obeyed by a proxy in front (§5.1: 400) */
		snprintf(detail, dlen,
		         "a header field name is not a token (whitespace "
		         "before the colon?)");
		return BD_EBADREQUEST;
	}
	if (f.bad_value) {
		snprintf(detail, dlen,
		         "a header field value holds a control character (a "
		         "bare CR?)");
		return BD_EBADREQUEST;
	}
	if (f.folded) {
		snprintf(detail, dlen,
		         "a header field line is folded (obs-fold: a line "
		         "starting with a space or tab)");
		return BD_EBADREQUEST;
	}
	if (f.bad_ending ||
	    (f.at && !(f.at + 4 == f.end && nuls(&f, f.at, 4)))) {
		snprintf(detail, dlen,
		         "a line of the header does not end in CRLF (a bare "
		         "LF?)");
		return BD_EBADREQUEST;
	}
	if (f.cl > 1) {
		snprintf(detail, dlen, "more than one Content-Length");
		return BD_EBADREQUEST;
	}
	if (f.te && f.cl) {
		snprintf(detail, dlen,
		         "Transfer-Encoding and Content-Length together");
		return BD_EBADREQUEST;
	}
	if (f.te > 1 || (f.te && strcasecmp(f.te_first, "chunked") != 0)) {
		snprintf(detail, dlen,
		         "transfer coding '%.64s' is not implemented; "
		         "only chunked is",
		         f.te > 1 ? "(several fields)" : f.te_first);
		return BD_EUNSUPPORTED;
	}
	if (f.host > 1 || (f.host == 0 && strcmp(version, "HTTP/1.1") == 0)) {
		snprintf(detail, dlen, "an HTTP/1.1 request needs one Host");
		return BD_EBADREQUEST;
	}
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, query_control,
	                          &bad_query);
	if (has_control(url) || bad_query) {
		snprintf(detail, dlen,
		         "the %s holds a control character (such as %%00) "
		         "once decoded",
		         bad_query ? "query" : "path");
		return BD_EBADREQUEST;
	}
	return 0;
}

/* ---- replies ---- */

/* The security headers of every answer (issue 34 finding 5): the web
 * client (web/) runs from its own files alone, with no inline script or
 * style (CSP Level 3: a style attribute in HTML or set with setAttribute
 * is blocked, one set through el.style is not), and no page may frame it,
 * since it keeps its token in localStorage.  The API's JSON answers get
 * the same: a browser that renders one runs nothing of it.
 *
 * The client's scripts and style sheets (but the service worker) go
 * without the CSP and X-Frame-Options (issue 31 goal 8: 227 bytes of
 * each such answer): a browser applies both only to the document or
 * worker a response creates (static_file_subresource), never to a script
 * or style sheet a page loads, which the page's own CSP governs.  Opened
 * by itself, such a file is shown as text (nosniff: never as HTML), with
 * nothing to run or click, and its bytes are readable by any origin
 * anyway (Access-Control-Allow-Origin: *).  nosniff and Referrer-Policy
 * stay on every answer: nosniff is what keeps a script a script, and a
 * module script's Referrer-Policy is that of the fetches it makes. */
static const char csp[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'";

static void add_common_headers(struct MHD_Response *r,
                               const struct http_reply *rep,
                               const char *request_id)
{
	MHD_add_response_header(r, "X-Request-Id", request_id);
	if (!rep->subresource)
		MHD_add_response_header(r, "Content-Security-Policy", csp);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (!rep->subresource)
		MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Access-Control-Allow-Origin", "*");
	MHD_add_response_header(r, "Access-Control-Expose-Headers",
	                        "ETag, Location, Retry-After, "
	                        "Idempotent-Replayed, RateLimit, "
	                        "RateLimit-Policy, X-Request-Id");
	MHD_add_response_header(r, "Cache-Control",
	                        rep->cache_control ? rep->cache_control
	                                           : "no-store");
	/* A body that depends on Accept-Language says so (RFC 9110 §12.5.5),
	 * so that a cache keeps one representation per language; and every
	 * answer may be coded as Accept-Encoding asks (encoding.h). */
	MHD_add_response_header(r, "Vary",
	                        rep->language
	                            ? "Authorization, Accept-Encoding, "
	                              "Accept-Language"
	                            : "Authorization, Accept-Encoding");
	if (rep->language)
		MHD_add_response_header(r, "Content-Language", rep->language);
	if (rep->encoding) {
		MHD_add_response_header(r, "Content-Encoding", rep->encoding);
		http_coding_sent(strcmp(rep->encoding, "br") == 0 ? HTTP_BR
		                                                  : HTTP_GZIP);
	}
	if (rep->etag[0])
		MHD_add_response_header(r, "ETag", rep->etag);
	if (rep->location[0])
		MHD_add_response_header(r, "Location", rep->location);
	if (rep->allow)
		MHD_add_response_header(r, "Allow", rep->allow);
	if (rep->status == 401)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer");
	if (rep->replayed)
		MHD_add_response_header(r, "Idempotent-Replayed", "true");
	if (rep->ratelimit_policy[0])
		MHD_add_response_header(r, "RateLimit-Policy",
		                        rep->ratelimit_policy);
	if (rep->ratelimit[0])
		MHD_add_response_header(r, "RateLimit", rep->ratelimit);
	if (rep->retry_after) {
		char s[16];
		snprintf(s, sizeof s, "%d", rep->retry_after);
		MHD_add_response_header(r, "Retry-After", s);
	}
	if (rep->close) /* the library closes after sending it */
		MHD_add_response_header(r, "Connection", "close");
}

/* A HEAD on an event stream: the stream was opened as for GET (so the
 * same checks answered), and is closed now; the answer has its
 * Content-Type and no body (libmicrohttpd 0.9.75 would still send a
 * chunked stream's terminator, which is content). */
static struct MHD_Response *head_of_stream(struct http_reply *rep)
{
	struct MHD_Response *s = live_response(rep->stream); /* takes it */
	rep->stream = NULL;
	if (!s)
		return NULL;
	const char *t = MHD_get_response_header(s, "Content-Type");
	char type[64];
	snprintf(type, sizeof type, "%s", t ? t : "text/event-stream");
	MHD_destroy_response(s); /* frees the stream */
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (r)
		MHD_add_response_header(r, "Content-Type", type);
	return r;
}

/* The free callback of a response sent from shared JSON bytes: drops
 * the reference the response held while the library sent them. */
static void release_bytes(void *bytes)
{
	engine_bytes_release(bytes);
}

/* A JSON answer's bytes gzipped (struct engine_bytes' attachment): made
 * by the first coded answer of them, kept with them and freed with them,
 * so that a game view or action list kept in the state cache
 * (docs/read-path.md) is compressed once per version, not per request. */
struct gz_attachment {
	struct engine_attachment base; /* first: freed through it */
	size_t len;                    /* bytes of p */
	char p[];
};

static void gz_attachment_free(struct engine_attachment *a)
{
	free(a);
}

/* The gzip coding of shared bytes b (level 6), made once and kept with
 * them: borrowed (valid while b is), NULL when gzip made them no smaller
 * or memory ran out. */
static const struct gz_attachment *gz_of_bytes(struct engine_bytes *b)
{
	struct engine_attachment *a = engine_bytes_attachment(b);
	if (a)
		return a->free == gz_attachment_free
		           ? (const struct gz_attachment *)a
		           : NULL;
	char *out;
	size_t n;
	size_t len = engine_bytes_len(b);
	if (http_compress(HTTP_GZIP, engine_bytes_data(b), len, 6, &out,
	                  &n) < 0)
		return NULL;
	/* no smaller: kept as such (len 0), so it is not tried again */
	size_t keep = n < len ? n : 0;
	struct gz_attachment *g = malloc(sizeof *g + keep);
	if (!g) {
		free(out);
		return NULL;
	}
	g->base.free = gz_attachment_free;
	g->len = keep;
	memcpy(g->p, out, keep);
	free(out);
	if (!engine_bytes_attach(b, &g->base)) { /* another thread's won */
		free(g);
		a = engine_bytes_attachment(b);
		g = a && a->free == gz_attachment_free
		        ? (struct gz_attachment *)a
		        : NULL;
	}
	return g && g->len ? g : NULL;
}

/* rep's body (JSON, or raw: the catalog, the OpenAPI document, the
 * metrics) gzipped, when it has HTTP_COMPRESS_MIN bytes or more and
 * gzip makes it smaller: a response (rep->encoding and rep->etag set
 * for it) with *bytes its size, or NULL to send it as it is (smaller, no
 * gain, or out of memory).  A raw body the reply does not own lives as
 * long as the process: it is gzipped once and kept
 * (http_compress_kept), since a client may ask for the 160 KB OpenAPI
 * document again and again (4.4 ms of CPU each when compressed per
 * answer). */
static struct MHD_Response *gzipped(struct http_reply *rep, long long *bytes)
{
	char *text = NULL;
	const char *data;
	size_t len;
	if (rep->raw) {
		data = rep->raw;
		len = rep->raw_len;
	} else if (rep->json) {
		data = engine_bytes_data(rep->json);
		len = engine_bytes_len(rep->json);
	} else {
		text = json_dumps(rep->body, JSON_COMPACT);
		if (!text)
			return NULL;
		len = strlen(text);
		text[len++] = '\n'; /* as the identity answer's last byte */
		data = text;
	}
	int persistent = rep->raw && !rep->raw_owned;
	char *out = NULL;
	const char *coded = NULL;
	size_t n = 0;
	struct MHD_Response *r = NULL;
	char tag[sizeof rep->etag] = "";
	if (len < HTTP_COMPRESS_MIN ||
	    (rep->etag[0] &&
	     http_etag_coded(tag, sizeof tag, rep->etag, HTTP_GZIP) < 0))
		goto out;
	if (rep->json) {
		/* Once per version of the bytes, kept with them. */
		const struct gz_attachment *g = gz_of_bytes(rep->json);
		if (g && (r = MHD_create_response_from_buffer_with_free_callback_cls(
		              g->len, (void *)g->p, release_bytes, rep->json)))
			rep->json = NULL; /* the response's reference now */
		n = g ? g->len : 0;
	} else if (persistent) {
		/* Once per body: level 9, as the web client's files. */
		if (http_compress_kept(HTTP_GZIP, data, len, 9, &coded, &n) != 0)
			goto out;
		r = MHD_create_response_from_buffer(n, (void *)coded,
		                                    MHD_RESPMEM_PERSISTENT);
	} else {
		/* Level 6, zlib's default: most of 9's gain at a fraction of
		 * its time, spent on every answer. */
		if (http_compress(HTTP_GZIP, data, len, 6, &out, &n) < 0)
			goto out;
		if (n < len &&
		    (r = MHD_create_response_from_buffer(
		         n, out, MHD_RESPMEM_MUST_FREE)) != NULL)
			out = NULL; /* the response frees it */
	}
	if (r) {
		*bytes = (long long)n;
		rep->encoding = http_coding_name(HTTP_GZIP);
		if (rep->etag[0])
			memcpy(rep->etag, tag, sizeof tag);
	}
out:
	free(out);
	free(text);
	return r;
}

/* The response for rep, the caller's to destroy once queued, with the
 * request's id (X-Request-Id); *bytes its body's size (-1: a stream's).
 * A body not coded yet is gzipped when `coding` (the request's
 * Accept-Encoding's choice) is gzip and it is large enough.  Every
 * response is this request's own: one answer's X-Request-Id is no
 * other's, so none is kept for later answers of the same bytes (shared
 * JSON bytes are sent without a copy: the response holds a reference to
 * them, and rep->json is then NULL). */
static struct MHD_Response *make_response(struct http_reply *rep, int head,
                                          enum http_coding coding,
                                          const char *request_id,
                                          long long *bytes)
{
	struct MHD_Response *r;
	const char *type = NULL;
	*bytes = 0;
	if (coding == HTTP_GZIP && !rep->stream && !rep->encoding &&
	    (rep->raw || rep->json || rep->body) &&
	    (r = gzipped(rep, bytes)) != NULL) {
		type = rep->raw ? rep->raw_type
		       : rep->json || !rep->problem
		           ? "application/json"
		           : "application/problem+json";
		MHD_add_response_header(r, "Content-Type", type);
		add_common_headers(r, rep, request_id);
		return r;
	}
	if (rep->stream && head) {
		r = head_of_stream(rep);
	} else if (rep->stream) {
		r = live_response(rep->stream); /* takes the stream */
		rep->stream = NULL;
		*bytes = -1;
	} else if (rep->raw) {
		r = MHD_create_response_from_buffer(
		    rep->raw_len, (void *)rep->raw,
		    rep->raw_owned ? MHD_RESPMEM_MUST_FREE
		                   : MHD_RESPMEM_PERSISTENT);
		if (r)
			rep->raw_owned = 0; /* the response frees it */
		type = rep->raw_type;
		*bytes = (long long)rep->raw_len;
	} else if (rep->json) {
		*bytes = (long long)engine_bytes_len(rep->json);
		r = MHD_create_response_from_buffer_with_free_callback_cls(
		    engine_bytes_len(rep->json),
		    (void *)engine_bytes_data(rep->json), release_bytes,
		    rep->json);
		if (r)
			rep->json = NULL; /* the response's reference now */
		type = "application/json";
	} else if (rep->body) {
		char *text = json_dumps(rep->body, JSON_COMPACT);
		if (!text)
			return NULL;
		size_t n = strlen(text);
		text[n] = '\n'; /* replace the NUL: curl output ends a line */
		r = MHD_create_response_from_buffer(n + 1, text,
		                                    MHD_RESPMEM_MUST_FREE);
		if (!r)
			free(text);
		*bytes = (long long)n + 1;
		type = rep->problem ? "application/problem+json"
		                    : "application/json";
	} else {
		r = MHD_create_response_from_buffer(0, NULL,
		                                    MHD_RESPMEM_PERSISTENT);
	}
	if (r && type)
		MHD_add_response_header(r, "Content-Type", type);
	if (r)
		add_common_headers(r, rep, request_id);
	return r;
}

/* A problem's body gets the request's id as the extension member
 * `request_id` (RFC 9457 §3.2), so that a client's report of an error
 * names the access log's line. */
static void problem_request_id(struct http_reply *rep, const char *request_id)
{
	if (rep->problem && json_is_object(rep->body))
		json_object_set_new(rep->body, "request_id",
		                    json_string(request_id));
}

static enum MHD_Result send_reply(struct MHD_Connection *c, struct req_ctx *ctx,
                                  struct http_reply *rep)
{
	int head = strcmp(ctx->method, "HEAD") == 0;
	if (!rep->stream && atomic_load(&ctx->server->draining))
		rep->close = 1; /* reconnect elsewhere (http_server_drain) */
	problem_request_id(rep, ctx->request_id);
	enum http_coding coding = http_coding_choose(
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Encoding"),
	    1u << HTTP_GZIP);
	struct MHD_Response *r =
	    make_response(rep, head, coding, ctx->request_id, &ctx->bytes);
	json_decref(rep->body);
	rep->body = NULL;
	if (rep->raw_owned)
		free((void *)rep->raw);
	rep->raw = NULL;
	if (head && ctx->bytes > 0)
		ctx->bytes = 0;      /* the library sends no body for a HEAD */
	enum MHD_Result ok = MHD_NO; /* out of memory: drop the connection */
	if (r) {
		ctx->status = rep->status;
		ctx->route =
		    rep->route; /* for the metrics and the access log */
		ok = MHD_queue_response(c, rep->status, r);
		MHD_destroy_response(r);
	}
	engine_bytes_release(rep->json); /* a response not made */
	rep->json = NULL;
	return ok;
}

static enum MHD_Result preflight(struct MHD_Connection *c, struct req_ctx *ctx)
{
	struct http_reply rep = {.status = 204};
	struct MHD_Response *r = make_response(&rep, 0, HTTP_IDENTITY,
	                                       ctx->request_id, &ctx->bytes);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Access-Control-Allow-Methods",
	                        "GET, HEAD, POST, PUT, DELETE, OPTIONS");
	MHD_add_response_header(
	    r, "Access-Control-Allow-Headers",
	    "Authorization, Content-Type, If-Match, If-None-Match, "
	    "Idempotency-Key, Last-Event-ID");
	MHD_add_response_header(r, "Access-Control-Max-Age", "86400");
	ctx->status = 204;
	enum MHD_Result ok = MHD_queue_response(c, 204, r);
	MHD_destroy_response(r);
	return ok;
}

/* ---- the access handler ---- */

/* Routes req.  A handler that asks to wait (a long-poll, its waiter
 * joined) has the connection suspended, unless its wake came already:
 * then it runs again at once.  1 when suspended: nothing to send yet. */
static int dispatch(struct http_server *s, struct req_ctx *ctx,
                    struct http_req *req, struct http_reply *rep)
{
	router_dispatch(s->svc, req, rep);
	if (!rep->suspend)
		return 0;
	if (hub_take(s->hub, &ctx->waiter) == 0) {
		ctx->waiting = 1;
		return 1;
	}
	*rep = (struct http_reply){0};
	req->resumed = 1;
	router_dispatch(s->svc, req, rep);
	return 0;
}

/* 1 for the methods whose request body is read (POST, PUT for
 * PUT /v1/players/me/webhook, PATCH for PATCH /v1/players/me/email);
 * others' bodies are discarded unread. */
static int reads_body(const char *method)
{
	return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
	       strcmp(method, "PATCH") == 0;
}

/* 1 for the methods that write (POST, PUT, PATCH, DELETE): run by a write
 * worker while their connection is suspended, when there are workers. */
static int writes_store(const char *method)
{
	return reads_body(method) || strcmp(method, "DELETE") == 0;
}

/* The request as handlers see it, from ctx and connection c. */
static void request_init(struct http_server *s, struct req_ctx *ctx,
                         struct MHD_Connection *c, const char *url,
                         const char *method, struct http_req *req)
{
	*req = (struct http_req){
	    .method = strcmp(method, "HEAD") == 0 ? "GET" : method,
	    .path = url,
	    .conn = c,
	    .hub = s->hub,
	    .waiter = &ctx->waiter,
	    .resumed = ctx->waiting,
	    .keepalive_ms = s->keepalive_ms,
	    .head = strcmp(method, "HEAD") == 0,
	    .limits = s->limits,
	    .client = &ctx->client,
	    .slot = &ctx->slot,
	    .draining = atomic_load(&s->draining),
	};
}

/* A write worker's job (writes.h): makes the write's reply, then resumes
 * its connection, whose handler sends it.  ctx is not touched after the
 * resume (the connection may finish and free it at once). */
static void write_run(struct write_job *job)
{
	struct req_ctx *ctx =
	    (struct req_ctx *)((char *)job - offsetof(struct req_ctx, job));
	char detail[BD_DETAIL_LEN];
	struct http_req req;
	request_init(ctx->srv, ctx, ctx->conn, ctx->url, ctx->method, &req);
	req.fields = ctx->fields;
	req.token = bearer_token(&req, &req.bad_auth);
	json_t *body = NULL;
	if (reads_body(ctx->method))
		req.body = body = parse_body(ctx, &req, detail, sizeof detail);
	ctx->wrep = (struct http_reply){0};
	router_dispatch(ctx->srv->svc, &req, &ctx->wrep);
	json_decref(body);
	ctx->written = 1;
	MHD_resume_connection(ctx->conn);
}

/* Hands a whole write request to the write workers: copies its headers,
 * suspends the connection, queues the job.  1 when handed (the handler
 * runs again once the reply is made), 0 when the write is to run here
 * (no workers, shutting down, or no memory for the copy). */
static int write_hand_off(struct http_server *s, struct MHD_Connection *c,
                          struct req_ctx *ctx)
{
	if (!s->writes || ctx->too_large)
		return 0;
	ctx->fields = http_fields_copy(c);
	if (!ctx->fields)
		return 0;
	if (writes_begin(s->writes) < 0) {
		free(ctx->fields);
		ctx->fields = NULL;
		return 0;
	}
	ctx->srv = s;
	ctx->conn = c;
	ctx->job = (struct write_job){.run = write_run};
	MHD_suspend_connection(c);
	writes_submit(s->writes, &ctx->job);
	return 1;
}

static enum MHD_Result handle(struct http_server *s, struct MHD_Connection *c,
                              struct req_ctx *ctx, const char *url,
                              const char *method)
{
	if (strcmp(method, "OPTIONS") == 0)
		return preflight(c, ctx);
	if (ctx->written) /* a write worker made the reply: send it */
		return send_reply(c, ctx, &ctx->wrep);
	struct http_reply rep = {0};
	char detail[BD_DETAIL_LEN];
	struct http_req req;
	request_init(s, ctx, c, url, method, &req);
	/* Woken (a move, the deadline or shutdown): answer.  The waiter
	 * stays joined until on_completed, so that a shutdown waits for the
	 * answer to be sent, not only made. */
	ctx->waiting = 0;
	req.token = bearer_token(&req, &req.bad_auth);
	if (writes_store(method) && write_hand_off(s, c, ctx))
		return MHD_YES; /* suspended; this handler runs again */
	json_t *body = NULL;
	if (reads_body(method))
		req.body = body = parse_body(ctx, &req, detail, sizeof detail);
	if (ctx->too_large) {
		problem_reply(&rep, BD_ETOOLARGE, NULL, url);
	} else if (dispatch(s, ctx, &req, &rep)) {
		json_decref(body);
		return MHD_YES; /* suspended; this handler runs again */
	}
	json_decref(body);
	return send_reply(c, ctx, &rep);
}

/* The connection's entry in the connection table (conns.h), or NULL. */
static struct conn_entry *entry_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

/* The first callback: a context; a 400 or 501 for a request whose
 * framing is wrong (check_framing), answered before any body is read and
 * closing the connection, since what follows cannot be trusted to be a
 * next request; and an early 413 for a declared oversized body (so no
 * 100 Continue is sent for it). */
static enum MHD_Result begin(struct http_server *s, struct MHD_Connection *c,
                             void **con_cls, const char *url,
                             const char *method, const char *version)
{
	struct req_ctx *ctx = *con_cls; /* target_seen's, or NULL */
	if (!ctx && !(ctx = calloc(1, sizeof *ctx)))
		return MHD_NO;
	ctx->began = 1;
	atomic_fetch_add(&s->in_flight, 1); /* until on_completed */
	ctx->server = s;
	ctx->url = url;
	ctx->method = method;
	ctx->body_max = http_body_max(url);
	ctx->entry = entry_of(c);
	clock_gettime(CLOCK_MONOTONIC, &ctx->t0);
	*con_cls = ctx;
	/* Who asks, and the request's id: before any answer, a refusal of
	 * its framing included, so that every answer carries the id. */
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	limits_client(
	    s->limits, ci ? ci->client_addr : NULL,
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For"),
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Real-IP"),
	    &ctx->client);
	log_request_id(ctx->client.via_proxy
	                   ? MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	                                                 "X-Request-Id")
	                   : NULL,
	               ctx->request_id);
	struct svc_err err = {0};
	int bad = check_framing(c, method, version, url, ctx, err.detail,
	                        sizeof err.detail);
	if (bad) {
		struct http_reply rep = {.close = 1};
		problem_reply(&rep, bad, &err, url);
		conns_busy(s->conns, ctx->entry); /* answered */
		return send_reply(c, ctx, &rep);  /* the body is never read */
	}
	const char *cl =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
	/* Only POST and PUT bodies are read (reads_body); others are
	 * discarded unread. */
	if (cl && reads_body(method) &&
	    strtoull(cl, NULL, 10) > ctx->body_max) {
		struct http_reply rep = {0};
		problem_reply(&rep, BD_ETOOLARGE, NULL, url);
		ctx->too_large = 1;
		conns_busy(s->conns, ctx->entry); /* answered */
		return send_reply(c, ctx, &rep);
	}
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version, const char *data,
                                  size_t *data_size, void **con_cls)
{
	struct http_server *s = cls;
	struct req_ctx *ctx = *con_cls;
	if (!ctx || !ctx->began)
		return begin(s, c, con_cls, url, method, version);
	if (ctx->status)
		return MHD_YES; /* answered early; the rest is discarded */
	if (*data_size) {
		if (reads_body(method) &&
		    append_body(ctx, data, *data_size) < 0)
			return MHD_NO;
		*data_size = 0;
		return MHD_YES;
	}
	conns_busy(s->conns, ctx->entry); /* the request is whole */
	return handle(s, c, ctx, url, method);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
	struct http_server *s = cls;
	struct req_ctx *ctx = *con_cls;
	(void)toe;
	/* Answered: the connection waits for its next request. */
	conns_idle(s->conns, entry_of(c));
	if (ctx && !ctx->began) { /* the library refused it: no answer */
		free(ctx);
		*con_cls = NULL;
		return;
	}
	if (!ctx)
		return;
	atomic_fetch_sub(&s->in_flight, 1); /* began */
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (t1.tv_sec - ctx->t0.tv_sec) * 1e3 +
	            (t1.tv_nsec - ctx->t0.tv_nsec) / 1e6;
	metrics_request(ctx->route, ctx->method, ctx->status, ms / 1e3);
	if (atomic_load(&s->access_log)) {
		char route[96];
		metrics_route_name(ctx->route, route, sizeof route);
		struct log_access a = {
		    .method = ctx->method,
		    .path = ctx->url,
		    .route = ctx->route ? route : NULL,
		    .status = ctx->status,
		    .duration_ms = ms,
		    .bytes = ctx->bytes,
		    .request_id = ctx->request_id,
		    .client = limits_addr_text(&ctx->client),
		    .probe = ctx->route && (strcmp(route, "/healthz") == 0 ||
		                            strcmp(route, "/readyz") == 0 ||
		                            strcmp(route, "/metrics") == 0)};
		log_access(&a);
	}
	hub_leave(s->hub, &ctx->waiter);
	limits_stream_close(s->limits, &ctx->slot);
	json_decref(ctx->wrep.body); /* a write's reply never sent */
	engine_bytes_release(ctx->wrep.json);
	free(ctx->fields);
	free(ctx->buf);
	free(ctx);
	*con_cls = NULL;
}

/* Registers each connection in the connection table (conns.h), which
 * closes it if it takes too long to send a request. */
static void on_connection(void *cls, struct MHD_Connection *c,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
	struct http_server *s = cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
		    c, MHD_CONNECTION_INFO_CONNECTION_FD);
		*socket_context =
		    ci ? conns_open(s->conns, ci->connect_fd) : NULL;
	} else {
		conns_close(s->conns, *socket_context);
		*socket_context = NULL;
	}
}

/* ---- lifecycle ---- */

/* libmicrohttpd's messages (MHD_USE_ERROR_LOG), through the log module. */
static void library_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	log_library("libmicrohttpd", fmt, ap);
}

static int make_addr(const char *addr, unsigned port,
                     struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		return AF_INET6;
	}
	return -1;
}

struct http_server *http_server_start(const struct http_config *cfg,
                                      struct service *svc, char *err,
                                      size_t errlen)
{
	struct sockaddr_storage ss;
	int family = make_addr(cfg->addr, cfg->port, &ss);
	if (family < 0) {
		snprintf(err, errlen, "'%s' is not an IPv4 or IPv6 address",
		         cfg->addr);
		return NULL;
	}
	struct http_server *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->svc = svc;
	s->hub = cfg->hub;
	s->keepalive_ms = (cfg->keepalive_s ? cfg->keepalive_s : 15) * 1000u;
	atomic_init(&s->access_log, cfg->access_log);
	metrics_set_access((enum metrics_access)cfg->metrics);
	metrics_set_routes(router_route_pattern);
	struct limits_config lc;
	limits_config_default(&lc, cfg->max_conns);
	if (cfg->limits) {
		lc = *cfg->limits;
	} else {
		memset(lc.rate, 0, sizeof lc.rate);
		lc.streams_per_addr = lc.streams_per_token = 0;
		lc.streams_anon = lc.streams_per_net = 0;
	}
	/* Ordinary requests always keep room: at most half the connections
	 * are streams and long-polls. */
	if (lc.streams > cfg->max_conns / 2)
		lc.streams = cfg->max_conns / 2 ? cfg->max_conns / 2 : 1;
	s->limits = limits_new(&lc);
	if (!s->limits) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	/* Near the limit: the last eighth of it is kept for newcomers. */
	s->conns = conns_new(cfg->timeout_s * 1000u,
	                     cfg->max_conns - cfg->max_conns / 8,
	                     HTTP_CROWDED_GRACE_MS);
	if (!s->conns) {
		snprintf(err, errlen, "out of memory");
		limits_free(s->limits);
		free(s);
		return NULL;
	}
	/* Before the daemon: its first request may be a write. */
	if (cfg->write_workers &&
	    !(s->writes = writes_new(cfg->write_workers))) {
		snprintf(err, errlen, "cannot start %u write workers",
		         cfg->write_workers);
		conns_free(s->conns);
		limits_free(s->limits);
		free(s);
		return NULL;
	}
	/* Suspend/resume: waiting requests and writes hold no thread
	 * (live.h, writes.h).  It
	 * implies MHD_USE_ITC, which http_server_add_connection needs too. */
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD |
	                 MHD_ALLOW_SUSPEND_RESUME |
	                 (cfg->no_library_log ? 0 : MHD_USE_ERROR_LOG);
	if (family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* 0.9.75 ignores (and warns about) a pool size of 1, and of 0: one
	 * thread is no pool, so the option is left out (an empty array). */
	struct MHD_OptionItem pool[] = {
	    {cfg->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
	     (intptr_t)cfg->threads, NULL},
	    {MHD_OPTION_END, 0, NULL}};
	s->daemon = MHD_start_daemon(
	    flags, (uint16_t)cfg->port, NULL, NULL, on_request, s,
	    /* first, or the library warns on its own logger */
	    MHD_OPTION_EXTERNAL_LOGGER, library_log, NULL, MHD_OPTION_SOCK_ADDR,
	    (struct sockaddr *)&ss, MHD_OPTION_ARRAY, pool,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->timeout_s,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)cfg->max_conns,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)cfg->max_conns_per_addr,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
	    MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
	    MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
	    MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
	    MHD_OPTION_URI_LOG_CALLBACK, target_seen, NULL, MHD_OPTION_END);
	if (!s->daemon) {
		snprintf(err, errlen, "cannot listen on %s port %u", cfg->addr,
		         cfg->port);
		writes_free(s->writes);
		conns_free(s->conns);
		limits_free(s->limits);
		free(s);
		return NULL;
	}
	const union MHD_DaemonInfo *di =
	    MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : cfg->port;
	metrics_set_connections(s->conns, cfg->max_conns);
	return s;
}

unsigned http_server_port(const struct http_server *s)
{
	return s->port;
}

int http_server_add_connection(struct http_server *s, int fd)
{
	/* The peer's own address, for the library's records (an AF_UNIX
	 * one for a socketpair). */
	struct sockaddr_storage from;
	socklen_t len = sizeof from;
	memset(&from, 0, sizeof from);
	if (getpeername(fd, (struct sockaddr *)&from, &len) < 0 || len == 0) {
		close(fd);
		return -1;
	}
	return MHD_add_connection(s->daemon, fd, (struct sockaddr *)&from,
	                          len) == MHD_YES
	           ? 0
	           : -1;
}

void http_server_set_access_log(struct http_server *s, int on)
{
	atomic_store(&s->access_log, on != 0);
}

void http_server_drain(struct http_server *s)
{
	atomic_store(&s->draining, 1);
}

void http_server_stop(struct http_server *s)
{
	if (!s)
		return;
	/* Stopping with a connection suspended is undefined (notes §2.5):
	 * wake every waiter (streams end, long-polls answer; the hub takes
	 * no new one), let them finish, then stop.  No MHD_quiesce_daemon:
	 * under MHD_USE_EPOLL_INTERNAL_THREAD it races each worker's own
	 * removal of the listen socket from its epoll set, and the loser
	 * aborts the process ("Failed to remove listen FD from epoll set",
	 * libmicrohttpd 0.9.75 daemon.c, MHD_epoll's was_quiesced branch).
	 * The socket stays open until MHD_stop_daemon closes it: a request
	 * accepted meanwhile is served as on a kept-alive connection (the
	 * hub refuses it as a waiter; a write runs on the library's thread
	 * once writes_close began). */
	hub_shutdown(s->hub);
	int64_t until = mono_now_ms() + HTTP_DRAIN_MS;
	size_t left = hub_drain(s->hub, HTTP_DRAIN_MS);
	if (left)
		log_error("boardd", "%zu live connections still open", left);
	/* Requests begun meanwhile (a long-poll read just before the
	 * shutdown answers at once, without waiting) are answered before
	 * the daemon closes their connections, within the same bound. */
	while (atomic_load(&s->in_flight) > (long)left &&
	       mono_now_ms() < until)
		nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
	/* Every write handed to a worker is made durable (or refused) and
	 * its connection resumed before the daemon stops; a write that
	 * arrives from now on runs on the library's thread. */
	writes_close(s->writes);
	MHD_stop_daemon(s->daemon); /* every connection closed */
	writes_free(s->writes);     /* no library thread can reach it now */
	metrics_set_connections(NULL, 0);
	conns_free(s->conns);
	limits_free(s->limits);
	free(s);
}
