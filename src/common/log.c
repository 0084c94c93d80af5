/* log.c: the one logging module (log.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

/* Atomic: a SIGHUP reload (main.c) changes them while threads log. */
static _Atomic int format = LOG_TEXT;
static _Atomic int threshold = LOG_INFO;

void log_set_format(enum log_format f)
{
	format = f;
}

void log_set_level(enum log_level l)
{
	threshold = l;
}

int log_parse_level(const char *s, enum log_level *l)
{
	static const char *const names[] = {"debug", "info", "error"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(s, names[i]) == 0) {
			*l = (enum log_level)i;
			return 0;
		}
	return -1;
}

int log_reopen(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the log file %s: %s", path,
		         strerror(errno));
		return -1;
	}
	int rc = fd == STDERR_FILENO ? 0 : dup2(fd, STDERR_FILENO);
	int saved = errno;
	if (fd != STDERR_FILENO)
		close(fd);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write the log to %s: %s", path,
		         strerror(saved));
		return -1;
	}
	return 0;
}

int log_parse_format(const char *s, enum log_format *f)
{
	if (strcmp(s, "text") == 0)
		*f = LOG_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = LOG_JSON;
	else
		return -1;
	return 0;
}

/* Now, UTC, as RFC 3339 with milliseconds: "2026-12-02T04:05:06.789Z". */
static void now_text(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* Writes o's fields (o is stolen) as one line, after "time", "level" and
 * "type".  Reals with 6 significant digits (a duration's microseconds). */
static void emit_json(json_t *o, const char *level, const char *type)
{
	char t[40];
	now_text(t, sizeof t);
	json_t *line =
	    json_pack("{s:s,s:s,s:s}", "time", t, "level", level, "type", type);
	if (line && o && json_object_update(line, o) == 0) {
		char *text = json_dumps(line, JSON_COMPACT | JSON_ENSURE_ASCII |
		                                  JSON_PRESERVE_ORDER |
		                                  JSON_REAL_PRECISION(6));
		if (text)
			fprintf(stderr, "%s\n", text);
		free(text);
	}
	json_decref(line);
	json_decref(o);
}

/* A JSON string of s, or null: a message holding invalid UTF-8 (an
 * sqlite error quoting a path, say) is shown with its bytes past ASCII
 * as '?', never dropped. */
static json_t *string_or_null(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);
	if (v)
		return v;
	char buf[1024];
	size_t i = 0;
	for (; s[i] && i + 1 < sizeof buf; i++)
		buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	buf[i] = '\0';
	return json_string(buf);
}

static void message(const char *level, const char *source, const char *fmt,
                    va_list ap)
{
	char msg[2048];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (format == LOG_TEXT) {
		fprintf(stderr, "%s: %s\n", source, msg);
		return;
	}
	emit_json(json_pack("{s:s,s:o}", "source", source, "msg",
	                    string_or_null(msg)),
	          level, "message");
}

void log_info(const char *source, const char *fmt, ...)
{
	if (threshold > LOG_INFO)
		return;
	va_list ap;
	va_start(ap, fmt);
	message("info", source, fmt, ap);
	va_end(ap);
}

void log_error(const char *source, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("error", source, fmt, ap);
	va_end(ap);
}

void log_library(const char *library, const char *fmt, va_list ap)
{
	if (format == LOG_TEXT) {
		vfprintf(stderr, fmt, ap);
		return;
	}
	char msg[2048];
	vsnprintf(msg, sizeof msg, fmt, ap);
	size_t n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
		msg[--n] = '\0';
	emit_json(json_pack("{s:s,s:o}", "source", library, "msg",
	                    string_or_null(msg)),
	          "error", "message");
}

/* Copies path into buf with control characters and bytes past ASCII
 * shown as \xNN (the text log always showed control characters so; a
 * byte past ASCII would make the JSON line invalid UTF-8). */
static void printable(const char *path, char *buf, size_t len, int ascii)
{
	size_t o = 0;
	for (const char *p = path; *p && o + 5 < len; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch < 0x20 || ch == 0x7f || (ascii && ch >= 0x80))
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", ch);
		else
			buf[o++] = *p;
	}
	buf[o] = '\0';
}

void log_request_id(const char *value, char buf[LOG_REQUEST_ID_LEN])
{
	size_t n = 0;
	while (value && n <= LOG_REQUEST_ID_MAX && value[n] >= 0x21 &&
	       value[n] <= 0x7e)
		n++;
	if (value && n > 0 && n <= LOG_REQUEST_ID_MAX && value[n] == '\0') {
		memcpy(buf, value, n + 1);
		return;
	}
	unsigned char raw[16];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(buf, LOG_REQUEST_ID_LEN, raw, sizeof raw);
}

void log_access(const struct log_access *a)
{
	enum log_level level = a->status >= 500              ? LOG_ERROR
	                       : a->probe && a->status < 400 ? LOG_DEBUG
	                                                     : LOG_INFO;
	if ((int)level < threshold)
		return;
	static const char *const names[] = {"debug", "info", "error"};
	char path[512];
	printable(a->path ? a->path : "", path, sizeof path,
	          format == LOG_JSON);
	if (format == LOG_TEXT) {
		fprintf(stderr, "%s %s %u %.2fms client=%s request_id=%s\n",
		        a->method, path, a->status, a->duration_ms,
		        a->client ? a->client : "-",
		        a->request_id ? a->request_id : "-");
		return;
	}
	char method[24];
	printable(a->method ? a->method : "", method, sizeof method, 1);
	json_t *o = json_pack(
	    "{s:s,s:o,s:s,s:I,s:f,s:o,s:o,s:o}", "method", method, "route",
	    string_or_null(a->route), "path", path, "status",
	    (json_int_t)a->status, "duration_ms", a->duration_ms, "bytes",
	    a->bytes < 0 ? json_null() : json_integer(a->bytes), "request_id",
	    string_or_null(a->request_id), "client", string_or_null(a->client));
	emit_json(o, names[level], "access");
}
