/* encoding.h: content codings (RFC 9110 §8.4.1, §12.5.3): which one an
 * Accept-Encoding asks for, compressing a body with it (gzip: zlib; br:
 * libbrotli), and the entity-tag of a coded representation.
 *
 * A coded representation is another representation of the same state,
 * so it gets another strong entity-tag (RFC 9110 §8.8.3: a strong tag
 * changes with the content coding): the identity one's with a suffix
 * before its closing quote, "\"5\"" -> "\"5-gzip\"", "W/\"ab\"" ->
 * "W/\"ab-br\"".  Conditional requests compare a tag with or without
 * that suffix to the state they name: If-None-Match (router.c) holds when
 * it names the current state's identity tag, or its tag in a coding the
 * request's Accept-Encoding takes, and If-Match's "<seq>" may carry one
 * (a client sends back the tag it got). */
#ifndef BD_HTTP_ENCODING_H
#define BD_HTTP_ENCODING_H

#include <stddef.h>

/* API JSON answers whose body has at least this many bytes are gzipped
 * for a client that accepts it; smaller ones gain less than the headers
 * and the time cost. */
#define HTTP_COMPRESS_MIN 1024

enum http_coding {
	HTTP_IDENTITY = 0,
	HTTP_GZIP = 1, /* gzip (x-gzip), zlib's deflate with a gzip wrapper */
	HTTP_BR = 2,   /* br, Brotli (RFC 7932) */
	HTTP_CODINGS   /* how many */
};

/* The coding to answer Accept-Encoding value `ae` with (NULL: no field,
 * identity), among identity and those `offered` holds (a bit mask of
 * 1 << HTTP_GZIP, 1 << HTTP_BR): the offered one of highest nonzero q
 * (RFC 9110 §12.5.3; "x-gzip" is gzip, "*" any coding not named), br
 * before gzip at equal q (it is smaller); identity when none. */
enum http_coding http_coding_choose(const char *ae, unsigned offered);

/* The Content-Encoding value of coding c ("gzip", "br"), or NULL for
 * identity. */
const char *http_coding_name(enum http_coding c);

/* Compresses [in, in + len) with coding c (not identity): gzip at zlib
 * level `level` (1..9), br at Brotli quality `level` (0..11).  0 with
 * *out (malloc'd, the caller frees it) and *out_len; -1 when out of
 * memory or the library failed (*out and *out_len untouched). */
int http_compress(enum http_coding c, const void *in, size_t len, int level,
                  char **out, size_t *out_len);

/* Counts one answer sent coded with c (not identity), for
 * boardd_http_coded_answers_total.  Lock-free; any thread. */
void http_coding_sent(enum http_coding c);

/* The counters of /metrics (metrics.c), each indexed by coding
 * (HTTP_IDENTITY's always 0): compressions[c], the bodies http_compress
 * coded with c since the start (a failure counts too: the time was spent;
 * the web client's files, compressed at build time, never count), and
 * sent[c], the answers sent coded with c (http_coding_sent). */
void http_coding_counts(unsigned long long compressions[HTTP_CODINGS],
                        unsigned long long sent[HTTP_CODINGS]);

/* [in, in + len), a body that lives as long as the process (the OpenAPI
 * document, the catalog, a web client file), coded with c as
 * http_compress does, once: the first call compresses it and keeps the
 * result, every later one for the same (in, len, c) returns it, so a
 * client asking for it again and again costs no compression each time.
 * 0 with *out (borrowed: kept until the process ends) and *out_len; 1
 * when the coding made it no smaller (send it as it is); -1 when out of
 * memory, the library failed, or the table of kept bodies (64) is full
 * (*out and *out_len untouched then, and on 1).  Thread-safe. */
int http_compress_kept(enum http_coding c, const void *in, size_t len,
                       int level, const char **out, size_t *out_len);

/* Writes to dst (n bytes) entity-tag `etag` (quotes and any W/ included)
 * of the representation coded with c: the tag itself for identity, else
 * with "-<coding name>" before its closing quote.  0, or -1 when dst is
 * too small or etag has no closing quote (dst then ""). */
int http_etag_coded(char *dst, size_t n, const char *etag, enum http_coding c);

/* The length of opaque-tag [opaque, opaque + len) without a coding's
 * suffix ("5-gzip" -> 1), len when it has none. */
size_t http_etag_uncoded_len(const char *opaque, size_t len);

#endif
