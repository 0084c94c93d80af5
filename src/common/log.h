/* log.h: every line boardd writes to stderr goes through here.  Its
 * manual.
 *
 * Two formats, chosen at start and on a SIGHUP reload (log_set_format,
 * from --log-format):
 *   text  (the default) what boardd always printed: "<source>: <message>"
 *         for messages, "<METHOD> <path> <status> <ms>ms" per request;
 *   json  one JSON object per line (made with Jansson), for a log
 *         collector: every line has "time" (UTC, RFC 3339 with
 *         milliseconds), "level" ("info" or "error") and "type"
 *         ("message" or "access"); a message adds "source" and "msg", an
 *         access line the fields of struct log_access.
 * And a level, chosen the same way (log_set_level, from --log-level):
 * every line has one (json shows it), and lines below the level are not
 * written.  Messages are "info" (log_info) or "error" (log_error, a
 * library's); an access line is "error" when its status is 5xx, "debug"
 * when it is a probe's (health checks and scrapes: /healthz, /readyz,
 * /metrics) answered below 400, else "info".  At the default level,
 * info, the probes that answer every few seconds are not logged.
 * A line is written with one stdio call, so lines of different threads
 * never interleave.  Nothing here logs a token, a request body or a
 * query string: callers pass paths (without the query) and route
 * templates only.  Thread-safe once the format is set.
 */
#ifndef BD_LOG_H
#define BD_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_format {
	LOG_TEXT = 0, /* the default: the lines boardd always printed */
	LOG_JSON = 1, /* one JSON object per line */
};

/* Sets the format for every later line.  Safe from any thread (a
 * SIGHUP reload sets it while others log); a line being written keeps
 * the format it began with. */
void log_set_format(enum log_format f);

enum log_level {
	LOG_DEBUG = 0, /* everything, the probes' access lines included */
	LOG_INFO = 1,  /* the default: all but the probes' */
	LOG_ERROR = 2, /* errors only: error messages and 5xx access lines */
};

/* Sets the lowest level written from now on.  Safe from any thread
 * (a SIGHUP reload sets it while others log). */
void log_set_level(enum log_level l);

/* Parses "debug", "info" or "error" into *l: 0, or -1 for anything
 * else. */
int log_parse_level(const char *s, enum log_level *l);

/* Points stderr (descriptor 2, so every line of boardd and of its
 * libraries) at the file `path` (borrowed), opened for appending and
 * created mode 0640 if missing: at start (--log-file) and again on
 * SIGHUP, so that logrotate's renamed file is let go and a new one
 * begins at the same path.  Lines being written meanwhile go whole to
 * the old file or the new one.  0, or -1 with a sentence in err (errlen
 * bytes); stderr is then unchanged. */
int log_reopen(const char *path, char *err, size_t errlen);

/* Parses "text" or "json" into *f: 0, or -1 for anything else. */
int log_parse_format(const char *s, enum log_format *f);

/* One message from `source` ("boardd", "store", …): text "source: msg",
 * or {"type":"message","source":…,"msg":…}.  The message is printf's
 * format; a trailing newline is not part of it. */
void log_info(const char *source, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void log_error(const char *source, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One message of a library (libmicrohttpd's MHD_OPTION_EXTERNAL_LOGGER):
 * text prints it as the library would (printf's fmt with ap; a trailing
 * newline kept as it is), json as {"type":"message","level":"error",
 * "source":library,"msg":…} without the newline. */
void log_library(const char *library, const char *fmt, va_list ap);

/* One answered request, as the access log shows it.  Every pointer is
 * borrowed for the call. */
struct log_access {
	const char *method;     /* as the client sent it */
	const char *path;       /* percent-decoded, without the query; control
	                           characters and bytes past ASCII are shown
	                           as \xNN */
	const char *route;      /* the route template ("/v1/games/{id}"), or
	                           NULL when no route matched (json: null) */
	unsigned status;        /* the status sent, 0: none was sent */
	double duration_ms;     /* from the headers' arrival to completion */
	long long bytes;        /* body bytes queued; -1: not known (an event
	                           stream, sent as it goes; json: null) */
	const char *request_id; /* the request's id (log_request_id), or
	                           NULL (json: null, text: -) */
	const char *client;     /* the client's address (limits.h's text),
	                           or NULL when not known yet (text: -) */
	int probe;              /* 1: a health check or a scrape (/healthz,
	                           /readyz, /metrics): debug below 400 */
};

/* The length of a request id, NUL included: LOG_REQUEST_ID_MAX
 * characters at most (a UUID is 36, nginx's $request_id 32). */
#define LOG_REQUEST_ID_MAX 64
#define LOG_REQUEST_ID_LEN (LOG_REQUEST_ID_MAX + 1)

/* A request's id into buf (LOG_REQUEST_ID_LEN bytes): `value` (a trusted
 * proxy's X-Request-Id; NULL: none) when it is 1 to LOG_REQUEST_ID_MAX
 * visible ASCII characters (0x21-0x7e: no space, no control character,
 * nothing past ASCII, so it can go in a header, a log line and JSON as
 * it is), else a new random one: 32 lowercase hex digits (128 bits from
 * libsodium's randombytes_buf, like nginx's $request_id).  Needs
 * sodium_init() done. */
void log_request_id(const char *value, char buf[LOG_REQUEST_ID_LEN]);

/* Writes one access line, unless its level (above) is below the one set:
 * text "METHOD path status 1.23ms client=ADDR
 * request_id=ID",
 * or {"type":"access","method","route","path","status","duration_ms",
 * "bytes","request_id","client"}. */
void log_access(const struct log_access *a);

#endif
